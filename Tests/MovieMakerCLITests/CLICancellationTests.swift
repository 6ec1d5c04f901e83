import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Ctrl-C (SIGINT), SIGTERM and SIGKILL sent to a running `moviemaker`, half way through a render:
/// the exit status, the one line it prints, how fast it stops, and what it leaves in the folder.
///
/// Serialized: each test measures how long the process takes to stop, which other renders on the
/// same two cores would distort.
@Suite("moviemaker cancellation", .serialized)
struct CLICancellationTests {
    /// The longest a render may take to exit after the signal (the promise is one second; the rest
    /// allows for a busy machine).
    static let stopLimit: Duration = .milliseconds(1500)

    /// A title render of 1800 frames at 320×240 (`placebo` makes each frame's encoding slow enough for
    /// half way to be reachable: about 1–2 s in all), into `destination`.
    static func titleArguments(_ destination: URL) -> [String] {
        ["title", "Cancel me", "--subtitle", "half way", "--duration", "20", "--fps", "90", "--preset", "placebo",
         "--size", "320x240", "-o", destination.path]
    }

    /// A folder of `count` small PNG photos, each a different solid colour with a white bar.
    static func photoFolder(count: Int = 20) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for i in 0..<count {
            let canvas = try Canvas(width: 160, height: 120)
            try canvas.draw { ctx in
                ctx.clear(Color(hue: 360 * Double(i) / Double(count), saturation: 0.7, lightness: 0.5))
                ctx.setFill(.white)
                ctx.fillRect(Rect(x: 20, y: 50, width: 120, height: 20))
            }
            try canvas.writePNG(to: folder.file("photo\(i + 1).png"))
        }
        return folder
    }

    /// Starts `arguments`, waits for the "50%" progress line, sends `signal` and waits for the end.
    /// Returns the outcome and the time from the signal to the exit.
    static func signalHalfWay(_ arguments: [String], _ signal: Int32) throws -> (CLI.Running.Outcome, Duration)? {
        let running = try CLI.Running(arguments)
        guard running.waitForStderr(containing: "50% (") else {
            let outcome = running.waitForExit()
            Issue.record("no 50% progress line before the end (status \(outcome.status)): \(outcome.stderr)")
            return nil
        }
        let sent = running.send(signal)
        let outcome = running.waitForExit()
        return (outcome, outcome.exitedAt - sent)
    }

    /// The checks every cancelled render must pass: the status, one line saying so, and the time taken.
    static func expectCancelled(_ outcome: CLI.Running.Outcome, by signal: Int32, in elapsed: Duration,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let name = signal == SIGINT ? "SIGINT" : signal == SIGHUP ? "SIGHUP" : "SIGTERM"
        #expect(outcome.reason == .exit, "moviemaker should exit, not be killed", sourceLocation: sourceLocation)
        #expect(outcome.status == 128 + signal, "stderr: \(outcome.stderr)", sourceLocation: sourceLocation)
        // Progress lines name the output, whose temporary folder may be named after the test ("…Cancelled…").
        let lines = outcome.stderrLines.filter { $0.localizedCaseInsensitiveContains("cancel") && !$0.contains(" frames)") }
        #expect(lines.count == 1, "exactly one line should say it was cancelled: \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("moviemaker: cancelled (\(name)): ") == true, "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(!outcome.stderr.contains("error"), "a cancel is not an error: \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stdout.isEmpty, "no summary line for a cancelled render: \(outcome.stdout)", sourceLocation: sourceLocation)
        #expect(elapsed < stopLimit, "stopped \(elapsed) after \(name)", sourceLocation: sourceLocation)
    }

    /// SIGINT or SIGTERM half way through a title: 130 or 143, one line, nothing in the folder.
    /// SIGHUP (a closed terminal or SSH session) cancels as SIGINT and SIGTERM do: exit 129 and nothing left
    /// behind (issue 33: it left a hidden partial file in every command).
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aTitleCancelledHalfWayExitsWithTheSignalsStatusAndWritesNothing(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let destination = folder.file("out.mp4")
        guard let (outcome, elapsed) = try Self.signalHalfWay(Self.titleArguments(destination), signal) else { return }
        Self.expectCancelled(outcome, by: signal, in: elapsed)
        #expect(outcome.stderr.contains("nothing was written to \(destination.path)"), "\(outcome.stderr)")
        // Neither the movie nor a hidden partial file: the folder is as empty as before.
        #expect(folder.contents == [], "left behind: \(folder.contents)")
    }

    /// A GIF is written after its last frame is drawn (palettes, then every frame again), with the bar
    /// at 100 %: Ctrl-C then still cancels, and the GIF already there is left byte for byte.
    @Test func aGIFCancelledWhileItsPaletteIsMadeLeavesTheDestinationAsItWas() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let destination = folder.file("out.gif")
        let before = try plantExistingFile(destination)
        let running = try CLI.Running(["title", "Cancel me", "--subtitle", "after the last frame", "--duration", "30", "--size", "320x240",
                                       "-o", destination.path])
        guard running.waitForStderr(containing: "writing the .gif (palettes, then 900 frames)") else {
            let outcome = running.waitForExit()
            Issue.record("no line announcing the GIF's final pass (status \(outcome.status)): \(outcome.stderr)")
            return
        }
        let sent = running.send(SIGINT)
        let outcome = running.waitForExit()
        Self.expectCancelled(outcome, by: SIGINT, in: outcome.exitedAt - sent)
        #expect(outcome.stderr.contains("\(destination.path) was left as it was"), "\(outcome.stderr)")
        #expect(try Data(contentsOf: destination) == before)
        #expect(folder.contents == ["out.gif"], "left behind: \(folder.contents)")
    }

    /// SVT-AV1 printed "Svt[error]: deinit called without sending EOS!" when a render was cancelled:
    /// the encoder is told the input ended before it is freed, so the cancel reads like any other.
    @Test func anAV1RenderCancelledHalfWaySaysOnlyThatItWasCancelled() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let destination = folder.file("out.mkv")
        let arguments = ["title", "Cancel me", "--duration", "40", "--size", "320x240", "--codec", "av1", "-o", destination.path]
        guard let (outcome, elapsed) = try Self.signalHalfWay(arguments, SIGINT) else { return }
        Self.expectCancelled(outcome, by: SIGINT, in: elapsed)
        #expect(!outcome.stderr.contains("Svt["), "\(outcome.stderr)")
        #expect(folder.contents == [], "left behind: \(folder.contents)")
    }

    /// Cancelling `render --chunk` said "SIGINT came after ch was finished: the file is complete" (the
    /// chunk folder changes while a chunk is written) though nothing had been written.
    @Test func aCancelledChunkSaysItWasNotWritten() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("long.json")
        try #"{"version": 1, "output": {"size": "320x240", "fps": 90, "encoder": {"preset": "placebo"}}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Cancel me", "duration": 40}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let chunks = folder.file("chunks")
        guard let (outcome, elapsed) = try Self.signalHalfWay(["render", spec.path, "--chunk", "0/2", "--chunk-dir", chunks.path], SIGINT) else { return }
        Self.expectCancelled(outcome, by: SIGINT, in: elapsed)
        #expect(outcome.stderr.contains("this chunk was not written") && !outcome.stderr.contains("finished"), "\(outcome.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: chunks.path)) ?? []
        #expect(!left.contains { $0.hasSuffix(".mp4") || $0.hasPrefix(".") && $0.contains("partial") }, "left behind: \(left)")
    }

    /// SIGINT or SIGTERM after the first row of a `title --batch`: the finished movies stay, whole;
    /// the one in progress leaves nothing; the line says how many were finished; `--report` is written,
    /// the rows not finished `cancelled` (an earlier run's report is not left to be read as this one's).
    @Test(arguments: [SIGINT, SIGTERM])
    func aCancelledBatchKeepsTheFinishedMoviesAndLeavesNoPartialFile(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try "name\nr1\nr2\nr3\nr4\nr5\nr6\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let out = folder.file("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let running = try CLI.Running(["title", "--batch", folder.file("rows.csv").path, "--jobs", "1", "--duration", "2",
                                       "--fps", "90", "--preset", "placebo", "--size", "320x240",
                                       "--output-pattern", out.path + "/{name}.mp4", "--report", folder.file("report.jsonl").path])
        try "{\"row\": 1, \"status\": \"rendered\"}\n".write(to: folder.file("report.jsonl"), atomically: true, encoding: .utf8)
        guard running.waitForStderr(containing: "1/6 rows done") else {
            let outcome = running.waitForExit()
            Issue.record("no progress line after the first row (status \(outcome.status)): \(outcome.stderr)")
            return
        }
        let sent = running.send(signal)
        let outcome = running.waitForExit()
        #expect(outcome.reason == .exit && outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(outcome.exitedAt - sent < Self.stopLimit, "stopped \(outcome.exitedAt - sent) after the signal")
        let lines = outcome.stderrLines.filter { $0.hasPrefix("moviemaker: cancelled") }
        #expect(lines.count == 1, "one cancellation line: \(outcome.stderr)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(files.allSatisfy { !$0.hasPrefix(".") }, "no partial file: \(files)")
        #expect(files.count >= 1 && files.count < 6, "the first movie, not all six: \(files)")
        #expect(lines.first?.contains("\(files.count) of 6 movies were finished") == true, "\(outcome.stderr) vs \(files)")
        #expect(outcome.stdout.split(separator: "\n").count == files.count, "a summary line per finished movie: \(outcome.stdout)")
        for file in files { #expect(try decodeAll(out.appendingPathComponent(file)).count == 180, "\(file) is whole") }
        let report = try String(contentsOf: folder.file("report.jsonl"), encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(report.count == 6, "a line per row: \(report)")
        #expect(report.filter { $0["status"] as? String == "rendered" }.count == files.count
                && report.filter { $0["status"] as? String == "cancelled" }.count == 6 - files.count, "\(report)")
        #expect(report.filter { $0["status"] as? String == "rendered" }.allSatisfy { $0["frames"] as? Int == 180 }, "\(report)")
    }

    /// A file already at the destination keeps its bytes (and inode) when the render replacing it is cancelled.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func anExistingDestinationIsByteIdenticalAfterACancelledRender(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let destination = folder.file("out.mp4")
        let known = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try known.write(to: destination)
        let before = try FileManager.default.attributesOfItem(atPath: destination.path)
        guard let (outcome, elapsed) = try Self.signalHalfWay(Self.titleArguments(destination), signal) else { return }
        Self.expectCancelled(outcome, by: signal, in: elapsed)
        #expect(outcome.stderr.contains("\(destination.path) was left as it was"), "\(outcome.stderr)")
        #expect(try Data(contentsOf: destination) == known, "the earlier file's bytes changed")
        let after = try FileManager.default.attributesOfItem(atPath: destination.path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int, "the file was replaced (new inode)")
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(folder.contents == ["out.mp4"], "left behind: \(folder.contents)")
    }

    /// SIGINT or SIGTERM half way through a slideshow of 20 generated photos: the same as for a title.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSlideshowCancelledHalfWayExitsWithTheSignalsStatusAndWritesNothing(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let photos = try Self.photoFolder()
        let folder = try TemporaryFolder()
        let destination = folder.file("show.mp4")
        // 20 photos × 3 s at 30 fps: 1800 frames.
        let arguments = ["slideshow", photos.url.path, "--duration", "3", "--transition-duration", "0.5",
                         "--size", "320x240", "-o", destination.path]
        guard let (outcome, elapsed) = try Self.signalHalfWay(arguments, signal) else { return }
        Self.expectCancelled(outcome, by: signal, in: elapsed)
        #expect(outcome.stderr.contains("nothing was written to \(destination.path)"), "\(outcome.stderr)")
        #expect(folder.contents == [], "left behind: \(folder.contents)")
        #expect(photos.contents.count == 20, "the photos are untouched: \(photos.contents)")
    }

    /// A signal before the movie exists (while the photos are checked) stops the run at once, the same way.
    @Test func aSignalWhileTheSlideshowChecksItsPhotosStopsAtOnce() throws {
        guard CLI.isBuilt else { return }
        let photos = try Self.photoFolder(count: 60)
        let folder = try TemporaryFolder()
        let destination = folder.file("show.mp4")
        let running = try CLI.Running(["slideshow", photos.url.path, "--duration", "3", "--transition-duration", "0.5",
                                       "--size", "320x240", "-o", destination.path])
        // Sent as soon as the photos are being checked, before the movie is started (or at its very start).
        guard running.waitForStderr(containing: "slideshow: checking 60 photos") else {
            Issue.record("no 'checking' line: \(running.waitForExit().stderr)")
            return
        }
        let sent = running.send(SIGINT)
        let outcome = running.waitForExit()
        Self.expectCancelled(outcome, by: SIGINT, in: outcome.exitedAt - sent)
        #expect(!outcome.stderr.contains("50% ("), "the render should not have got half way: \(outcome.stderr)")
        #expect(folder.contents == [], "left behind: \(folder.contents)")
    }

    /// SIGKILL cannot be handled: the partial file stays, named with the dead PID, until the next render in the folder.
    @Test func aKilledRenderLeavesItsPartialFileAndTheNextRenderRemovesIt() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let running = try CLI.Running(Self.titleArguments(folder.file("out.mp4")))
        guard running.waitForStderr(containing: "50% (") else {
            Issue.record("no 50% progress line: \(running.waitForExit().stderr)")
            return
        }
        let pid = running.pid
        running.send(SIGKILL)
        let killed = running.waitForExit()
        #expect(killed.reason == .uncaughtSignal && killed.status == SIGKILL)
        // SIGKILL cannot be caught: the hidden partial file stays, named with the dead process's ID.
        let partials = folder.contents.filter { $0.hasPrefix(".out.partial-\(pid)-") && $0.hasSuffix(".mp4") }
        #expect(partials.count == 1 && folder.contents == partials, "expected one .out.partial-\(pid)-… file: \(folder.contents)")
        if let partial = partials.first {
            let size = (try FileManager.default.attributesOfItem(atPath: folder.file(partial).path)[.size] as? Int) ?? 0
            #expect(size > 0, "the partial file holds the frames encoded so far")
        }

        // The next render into the same folder removes it (its process no longer exists) and succeeds.
        let next = try CLI.run(["title", "Next", "--duration", "0.5", "--size", "320x240", "-o", folder.file("next.mp4").path])
        #expect(next.status == 0, "stderr: \(next.stderr)")
        #expect(folder.contents == ["next.mp4"], "after the next render: \(folder.contents)")
    }

    /// Two SIGINTs in a row: the second may exit at once, but still with 130, one line and no partial file.
    @Test func aSecondSignalExitsAtOnceAndStillLeavesNothing() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let destination = folder.file("out.mp4")
        let running = try CLI.Running(Self.titleArguments(destination))
        guard running.waitForStderr(containing: "50% (") else {
            Issue.record("no 50% progress line: \(running.waitForExit().stderr)")
            return
        }
        let sent = running.send(SIGINT)
        running.send(SIGINT)
        let outcome = running.waitForExit()
        Self.expectCancelled(outcome, by: SIGINT, in: outcome.exitedAt - sent)
        #expect(folder.contents == [], "left behind: \(folder.contents)")
    }

    // MARK: moviemaker run

    /// The processes whose parent is `pid`, and theirs, from /proc.
    static func descendants(of pid: pid_t) -> Set<pid_t> {
        var parents: [pid_t: pid_t] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state, then the parent's ID.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[child] = parent }
        }
        var found: Set<pid_t> = [], frontier: Set<pid_t> = [pid]
        while !frontier.isEmpty {
            let next = Set(parents.filter { frontier.contains($0.value) }.keys).subtracting(found)
            found.formUnion(next)
            frontier = next
        }
        return found
    }

    /// SIGTERM while `run` compiles: the compiler and the jobs it started stop too (the whole process
    /// group, not just the compiler), and moviemaker exits 143.
    @Test func runPassesSIGTERMToTheCompilerAndExits143() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("slow.swift")
        try "import Foundation\nprint(\"compiled \\(\(Int.random(in: 0..<1_000_000_000)))\")\n".write(to: script, atomically: true, encoding: .utf8)
        // A compiler that is certain to still be compiling when the signal comes (a real swiftc may
        // finish a small script in half a second): `$SWIFTC` names a stand-in that starts a job of
        // its own and waits for it. Were the signal not passed on, it would fail after a minute.
        let wrapper = folder.file("slow-swiftc")
        try "#!/bin/sh\nsleep 60 &\nwait $!\necho 'slow-swiftc: not stopped' >&2\nexit 1\n".write(to: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper.path, 0o755)
        let running = try CLI.Running(["run", "--verbose", "--rebuild", script.path], environment: ["SWIFTC": wrapper.path])
        guard running.waitForStderr(containing: "moviemaker: compiling") else {
            Issue.record("no 'compiling' line: \(running.waitForExit().stderr)")
            return
        }
        // Wait for the compiler and its job to start, then stop moviemaker while it compiles.
        var children: Set<pid_t> = []
        let deadline = Date().addingTimeInterval(10)
        while children.count < 2 && Date() < deadline {
            children = Self.descendants(of: running.pid)
            if children.count < 2 { usleep(5_000) }
        }
        #expect(children.count >= 2, "the compiler and its job did not start: \(children.sorted())")
        running.send(SIGTERM)
        let outcome = running.waitForExit()
        #expect(outcome.reason == .exit && outcome.status == 143, "status \(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderrLines.last == "moviemaker: cancelled (SIGTERM) while compiling \(script.path): nothing was run",
                "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("compiled"), "the script must not run: \(outcome.stdout)")
        // The compiler and everything it started are gone, not orphaned.
        let gone = Date().addingTimeInterval(3)
        var alive = children.filter { kill($0, 0) == 0 }
        while !alive.isEmpty && Date() < gone {
            usleep(20_000)
            alive = alive.filter { kill($0, 0) == 0 }
        }
        #expect(alive.isEmpty, "still running after moviemaker exited: \(alive.sorted())")
    }

    /// A script starts with no signal blocked, even when moviemaker was started from a thread that
    /// blocks nearly all of them (as this test's own Dispatch worker thread does, and Foundation's
    /// Process passes the mask on).
    @Test func runStartsTheScriptWithNoSignalBlocked() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("mask.swift")
        try """
            import Foundation
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            print(status.split(separator: "\\n").first { $0.hasPrefix("SigBlk:") } ?? "none")
            """.write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", script.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000", "\(r.stdout)")
    }

    /// A running script gets SIGINT or SIGTERM itself, with the default action (moviemaker ignored them
    /// while compiling; the script must not inherit that).
    @Test(arguments: [SIGINT, SIGTERM])
    func runGivesTheScriptTheSignalAndItsFate(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("sleeper.swift")
        try """
            import Foundation
            FileHandle.standardOutput.write(Data("sleeping\\n".utf8))
            Thread.sleep(forTimeInterval: 30)
            print("woke up")
            """.write(to: script, atomically: true, encoding: .utf8)
        let running = try CLI.Running(["run", script.path], environment: [:])
        // The script writes "sleeping" once it runs: moviemaker has been replaced by it then.
        guard running.waitForStdout(containing: "sleeping", timeout: 120) else {
            Issue.record("the script did not start: \(running.waitForExit().stderr)")
            return
        }
        let sent = running.send(signal)
        let outcome = running.waitForExit()
        // The script is the process (execv): it dies of the signal with its default action, so the
        // shell sees 128 + signal; it was neither ignoring nor blocking it.
        #expect(outcome.reason == .uncaughtSignal && outcome.status == signal, "status \(outcome.status), \(outcome.reason): \(outcome.stderr)")
        #expect(outcome.stdout == "sleeping\n", "\(outcome.stdout)")
        #expect(outcome.exitedAt - sent < Self.stopLimit)
    }

    /// A script stopped while it writes a movie (Ctrl-C, SIGTERM, a closed terminal, a closed pipe)
    /// leaves neither the movie nor its hidden partial file (issue 33: it left the partial file), and still
    /// dies of the signal as a program does.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGPIPE])
    func aScriptStoppedWhileWritingAMovieLeavesNothing(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let output = folder.file("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let script = folder.file("writer.swift")
        try """
            import Foundation
            import MovieMaker
            let movie = try MovieMaker(url: URL(fileURLWithPath: CommandLine.arguments[1]), width: 160, height: 120, fps: 30)
            FileHandle.standardOutput.write(Data("writing\\n".utf8))
            try movie.addFrames(count: 100_000) { ctx, frame in
                ctx.clear(.black)
                usleep(2_000)
            }
            try movie.finish()
            """.write(to: script, atomically: true, encoding: .utf8)
        let running = try CLI.Running(["run", script.path, "--", output.appendingPathComponent("movie.mp4").path], environment: [:])
        guard running.waitForStdout(containing: "writing", timeout: 120) else {
            Issue.record("the script did not start: \(running.waitForExit().stderr)")
            return
        }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        #expect(contents.contains { $0.contains("partial") }, "the movie's partial file should exist while it is written: \(contents)")
        let sent = running.send(signal)
        let outcome = running.waitForExit()
        #expect(outcome.reason == .uncaughtSignal && outcome.status == signal, "status \(outcome.status), \(outcome.reason): \(outcome.stderr)")
        #expect(outcome.exitedAt - sent < Self.stopLimit)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        #expect(left.isEmpty, "left behind after \(signal): \(left)")
        if signal != SIGPIPE {
            #expect(outcome.stderr.contains("stopped by a signal: the unfinished output was removed"),
                    "the stop is said, not silent: \(outcome.stderr)")
        }
    }
}

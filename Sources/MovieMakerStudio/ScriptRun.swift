import Foundation
import MovieMaker
import Synchronization

/// A Swift script's movie as the studio sees it: the compiled script and what its first `MovieMaker`
/// reported when the script ran without drawing (`StudioHook`'s `preview -` run).
struct ScriptMovie: Sendable {
    /// The compiled script (cached by `moviemaker run`'s cache key: the script, the library, the compiler).
    let executable: URL
    /// The movie: size, rate, frame count, destination, settings.
    let movie: StudioHook.MovieFile
    /// What every frame's cache key starts with: the executable (its path is the hash of everything it
    /// was compiled from) and its modification time.
    let key: String

    /// The rate.
    var frameRate: FrameRate { FrameRate(numerator: movie.fpsNumerator, denominator: movie.fpsDenominator) ?? 30 }
}

/// Runs a compiled script as `moviemaker run` would (argument 0 the script's path, the studio's working
/// folder), with `StudioHook`'s variables, and reads what it wrote. Each run gets a fresh folder,
/// removed afterwards. Runs can be stopped (`ScriptRuns.stopAll()`, when the studio stops): none outlives
/// the studio.
enum ScriptRun {
    /// What a finished run left.
    struct Outcome {
        /// The run's folder (removed when `Outcome` is dropped by the caller through `cleanUp()`).
        let folder: URL
        /// `movie.json`, if the first movie finished.
        let movie: StudioHook.MovieFile?

        /// The PNG of frame `index`, if it was captured.
        func png(_ index: Int) -> Data? { try? Data(contentsOf: folder.appendingPathComponent("frame-\(index).png")) }

        /// Removes the folder.
        func cleanUp() { try? FileManager.default.removeItem(at: folder) }
    }

    /// The running scripts, so the studio can stop them all.
    static let running = Mutex<[Int32: Process]>([:])

    /// Kills every running script (SIGKILL: a script may have SIGTERM blocked, as Foundation passes on
    /// the calling thread's signal mask) and waits for them.
    static func stopAll() {
        let processes = running.withLock { Array($0.values) }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
    }

    /// Runs `executable` for `script` in `mode` (`render` or `preview FRAMES SCALE`), for at most `timeout`
    /// seconds. `watch` is called every 100 ms while it runs with the run's folder, and stops the run by
    /// returning false. Throws `StudioProblem` when the script fails (exit status, signal, timeout), with
    /// the file and line of a Swift runtime error when it printed one.
    static func run(_ executable: URL, script: URL, mode: String, timeout: TimeInterval,
                    watch: ((URL) -> Bool)? = nil) throws(StudioProblem) -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-studio-\(getpid())-\(UUID().uuidString.prefix(8))")
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw StudioProblem(message: "cannot make a folder for the script's frames: \(error.localizedDescription)", file: script.path, code: "scriptFailed")
        }
        let log = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = []
        var environment = ProcessInfo.processInfo.environment
        environment[StudioHook.folderVariable] = folder.path
        environment[StudioHook.modeVariable] = mode
        // A crash's message is what the page shows; Swift's backtracer would add a screenful (and take time).
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard let errors = FileHandle(forWritingAtPath: log.path) else {
            throw StudioProblem(message: "cannot write \(log.path)", file: script.path, code: "scriptFailed")
        }
        process.standardError = errors
        // Under the launch lock: a preview, a proxy run and a render may start scripts at once (see
        // `ProcessLaunch`: otherwise one run's end could go unnoticed while another lives).
        do { try ProcessLaunch.serialized { () throws(any Error) in try process.run() } } catch {
            try? errors.close()
            try? FileManager.default.removeItem(at: folder)
            throw StudioProblem(message: "cannot start the compiled script \(executable.path): \(error.localizedDescription)", file: script.path, code: "scriptFailed")
        }
        try? errors.close()
        let pid = process.processIdentifier
        running.withLock { $0[pid] = process }
        defer { running.withLock { $0[pid] = nil } }
        let deadline = Date().addingTimeInterval(timeout)
        var stoppedBy: String?
        while process.isRunning {
            if Date() > deadline { stoppedBy = "it ran for more than \(Int(timeout)) s"; break }
            if let watch, !watch(folder) { stoppedBy = "cancelled"; break }
            usleep(20_000)
        }
        if let stoppedBy, process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
            throw StudioProblem(message: "the script was stopped: \(stoppedBy)", file: script.path, code: stoppedBy == "cancelled" ? "cancelled" : "scriptTimeout")
        }
        process.waitUntilExit()
        _ = watch?(folder)
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw problem(stderr: text, script: script, status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal)
        }
        let movie = (try? Data(contentsOf: folder.appendingPathComponent("movie.json"))).flatMap { try? JSONDecoder().decode(StudioHook.MovieFile.self, from: $0) }
        return Outcome(folder: folder, movie: movie)
    }

    /// The problem a failed run shows: a Swift runtime error's message, with the script's line when the
    /// error names it (`/path/script.swift:12: Fatal error: …` from `fatalError` or a failed `!`; an
    /// error thrown at top level names the runtime's file instead, so only its message is shown), else
    /// the last lines the script printed on standard error.
    static func problem(stderr text: String, script: URL, status: Int32, signalled: Bool) -> StudioProblem {
        let lines = text.split(separator: "\n").map(String.init)
        let ending = signalled ? "stopped (signal \(status))" : "exited with status \(status)"
        for line in lines {
            guard let range = line.range(of: ": Fatal error: ") else { continue }
            let message = "the script \(ending): " + String(line[range.upperBound...])
            let head = line[..<range.lowerBound]
            if let colon = head.lastIndex(of: ":"), let number = Int(head[head.index(after: colon)...]),
               URL(fileURLWithPath: String(head[..<colon])).lastPathComponent == script.lastPathComponent {
                return StudioProblem(message: message, file: script.path, line: number, code: "scriptFailed")
            }
            return StudioProblem(message: message, file: script.path, code: "scriptFailed")
        }
        let tail = lines.suffix(6).joined(separator: "\n")
        return StudioProblem(message: "the script \(ending)" + (tail.isEmpty ? "" : ": \(tail)"), file: script.path, code: "scriptFailed")
    }
}

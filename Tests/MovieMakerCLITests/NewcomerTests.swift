import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// What a newcomer meets first (issue 18, items 1, 2, 10 and 11): scripts compiled optimised in Swift 5
/// mode, help that names each default once, progress lines that name the output, `--quiet`/`--silent`,
/// and errors that say the real reason without pointing at a help text that cannot help.
@Suite("a newcomer's first runs")
struct NewcomerTests {
    // MARK: moviemaker run

    /// Top-level `var`s read and written inside `addFrames`'s closure, and read inside a `Clip`'s drawing
    /// closure (`@Sendable`): "main actor-isolated var … can not be referenced from a Sendable closure" in
    /// the Swift 6 language mode.
    static let topLevelVarsScript = """
        import Foundation
        import MovieMaker

        var framesDrawn = 0
        var squareX = 0.0
        var squareSize = 40.0
        let step = 10.0
        let url = URL(fileURLWithPath: CommandLine.arguments[1])
        let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 30)
        try movie.addFrames(count: 12) { ctx, frame in
            framesDrawn += 1
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: squareX, y: 40, width: squareSize, height: squareSize))
            squareX += step
        }
        squareSize = 20
        let clip = Clip(duration: 0.2) { ctx, frame in
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: squareX - 120, y: 10, width: squareSize, height: squareSize))
        }
        try movie.add(clip)
        try movie.finish()
        print("drew \\(framesDrawn) frames, square at \\(squareX)")
        """

    @Test func aScriptUsingTopLevelVarsInsideItsDrawingClosuresCompilesAndRuns() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("vars.swift"), movie = folder.file("vars.mp4")
        try (Self.topLevelVarsScript + "\n// \(UUID().uuidString)\n").write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", script.path, "--", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("drew 12 frames, square at 120.0"), "stdout: \(r.stdout)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 18, "12 frames from addFrames and 6 from the 0.2-s clip")
        if frames.count == 18 {
            // Frame 6's square starts at x = 60 (the var changed between frames): white at 80, black at 20.
            #expect(meanColor(frames[6].pixels, x: 80, y: 60).r > 230)
            #expect(meanColor(frames[6].pixels, x: 20, y: 60).r < 25)
            // The clip read squareX = 120 and squareSize = 20: a square at (0, 10)–(20, 30), nothing at (30, 60).
            #expect(meanColor(frames[15].pixels, x: 10, y: 20).r > 230)
            #expect(meanColor(frames[15].pixels, x: 80, y: 60).r < 25)
        }
    }

    /// Issue 33, bug 4: the numeric idioms of a first script (`1.0 / 30`, `2.5 * 2`, `Double(i) / 30`,
    /// `t * 0.5`) compile in a script that imports MovieMaker and stay `Double`; they were "ambiguous use
    /// of operator" while `Time / Int` and `Time * Int` competed with `Double`'s operators.
    @Test func literalArithmeticCompilesInAScript() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("numbers.swift")
        let source = """
            import MovieMaker

            let dt = 1.0 / 30
            let twice = 2.5 * 2
            var total = 0.0
            for i in 0..<30 {
                let t = Double(i) / 30
                total += t * 0.5
            }
            let clip = Clip.color(.black, duration: 2.5 * 2)
            print("dt \\(dt) \\(type(of: dt)), twice \\(twice) \\(type(of: twice)), total \\((total * 100).rounded()), half \\((clip.duration / 2).seconds)")
            // \(UUID().uuidString)
            """
        try source.write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", script.path])
        #expect(r.status == 0, "the idioms did not compile or run: \(r.stderr)")
        #expect(r.stdout.contains("dt 0.03333333333333333 Double, twice 5.0 Double, total 725.0, half 2.5"), "stdout: \(r.stdout)")
    }

    /// Issue 33, bug 7: an error thrown at a script's top level, a library error or the script's own,
    /// ends the run with one line (`moviemaker: error: …`) and exit status 1; it was 132 (SIGILL) with
    /// a 45-line crash report from the runtime's backtracer. What the script printed before still shows.
    @Test func anErrorThrownAtTopLevelExitsOneWithOneLine() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let scripts = [
            ("library", """
                import Foundation
                import MovieMaker
                print("before the error")
                let movie = try MovieMaker(url: URL(fileURLWithPath: "/no-such-folder-\(UUID().uuidString)/x.mp4"), width: 160, height: 120, fps: 30)
                print("never")
                """, "does not exist"),
            ("own", """
                struct NotEnoughPhotos: Error, CustomStringConvertible { var description: String { "only 2 photos: give at least 3" } }
                print("before the error")
                throw NotEnoughPhotos()
                // \(UUID().uuidString)
                """, "only 2 photos: give at least 3"),
        ]
        for (name, source, message) in scripts {
            let script = folder.file("\(name).swift")
            try source.write(to: script, atomically: true, encoding: .utf8)
            let r = try CLI.run(["run", script.path])
            #expect(r.status == 1, "\(name): exit status \(r.status), expected 1: \(r.stderr)")
            #expect(r.stdout == "before the error\n", "\(name): stdout \(r.stdout)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasPrefix("moviemaker: error: ") == true && r.stderr.contains(message),
                    "\(name): one line wanted, got \(lines.count): \(r.stderr.prefix(400))")
        }
    }

    /// Issue 33 (friction): a script run by a relative path is compiled with its absolute path, so
    /// `#filePath` (how a script finds its assets beside itself) names the script, and the cached build
    /// run later from another folder still does.
    @Test func aScriptRunByARelativePathSeesItsAbsolutePathInFilePath() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let sub = folder.file("scripts")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let script = sub.appendingPathComponent("where.swift")
        try "print(#filePath)\n// \(UUID().uuidString)\n".write(to: script, atomically: true, encoding: .utf8)
        let first = try CLI.run(["run", "scripts/where.swift"], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try CLI.run(["run", "where.swift"], in: sub)
        #expect(again.status == 0, "\(again.stderr)")
        for r in [first, again] {
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == script.standardizedFileURL.path, "#filePath: \(r.stdout)")
        }
    }

    /// A script's argument whose bytes are not UTF-8 and name a file reaches the script as the bytes
    /// given (moviemaker reads it through an alias, `FolderListing.argument`), and the alias is gone:
    /// execv skips the exit handler that removes it elsewhere.
    @Test func aScriptGetsArgumentsThatAreNotUTF8AsGivenAndNoAliasIsLeft() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let temporary = folder.file("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let script = folder.file("bytes.swift")
        try """
            import Foundation
            let bytes = Array(CommandLine.unsafeArgv[1].map { UnsafeRawPointer($0) }.map { p in
                UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: strlen(p.assumingMemoryBound(to: CChar.self)))
            } ?? UnsafeBufferPointer(start: nil, count: 0))
            print(bytes.map { String($0, radix: 16) }.joined(separator: " "))
            """.write(to: script, atomically: true, encoding: .utf8)
        let bash = URL(fileURLWithPath: "/bin/bash")
        #expect(try CLI.run(["-c", "touch $'n\\xffo.txt'"], in: folder.url, executable: bash).status == 0)
        let r = try CLI.run(["-c", "exec \"$0\" run bytes.swift -- $'n\\xffo.txt'", CLI.executable.path],
                            environment: ["TMPDIR": temporary.path], in: folder.url, executable: bash)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "6e ff 6f 2e 74 78 74", "the script's argument: \(r.stdout)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        #expect(!left.contains { $0.hasPrefix("moviemaker-names-") }, "aliases left behind: \(left)")
    }

    @Test func swiftVersion6IsAnOptInThatChecksDataRaces() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("vars6.swift")
        try (Self.topLevelVarsScript + "\n// \(UUID().uuidString)\n").write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--swift-version", "6", script.path, "--", folder.file("never.mp4").path])
        #expect(r.status == 1, "Swift 6 mode refuses the script: \(r.stderr)")
        #expect(r.stderr.contains("did not compile") && r.stderr.contains("main actor-isolated"), "\(r.stderr)")
        let bad = try CLI.run(["run", "--swift-version", "4", script.path])
        #expect(bad.status == 64 && bad.stderr.contains("--swift-version"), "\(bad.stderr)")
    }

    @Test func runOptimisesByDefaultAndDebugHasACacheEntryOfItsOwn() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("opt.swift")
        try "print(\"hello \\(\(Int.random(in: 0..<1_000_000_000)))\")\n".write(to: script, atomically: true, encoding: .utf8)
        let optimised = try CLI.run(["run", "--verbose", script.path])
        #expect(optimised.status == 0, "\(optimised.stderr)")
        // The script's own compile line (a cold cache first compiles the scripts' support object).
        let command = optimised.stderrLines.first { $0.hasPrefix("moviemaker: compiling") && $0.contains("opt.swift") }.map { String($0) } ?? ""
        #expect(command.contains(" -O ") && !command.contains("-Onone"), "optimised by default: \(optimised.stderr)")
        #expect(command.contains("-swift-version 5 -strict-concurrency=minimal"), "Swift 5 mode by default: \(command)")
        let debug = try CLI.run(["run", "--verbose", "--debug", script.path])
        #expect(debug.status == 0 && debug.stdout == optimised.stdout)
        #expect(debug.stderr.contains("moviemaker: compiling") && debug.stderr.contains(" -Onone "),
                "--debug compiles a build of its own, not the cached -O one: \(debug.stderr)")
        let again = try CLI.run(["run", "--verbose", script.path])
        #expect(again.stderr.contains("using the cached build") && !again.stderr.contains("moviemaker: compiling"),
                "the -O build is still cached: \(again.stderr)")
        let debugAgain = try CLI.run(["run", "--verbose", "--debug", script.path])
        #expect(debugAgain.stderr.contains("using the cached build"), "and so is the -Onone one: \(debugAgain.stderr)")
    }

    // MARK: Help

    /// Every subcommand's name, nested ones as "otio export", from the SUBCOMMANDS sections of the help.
    static func subcommands(of prefix: [String] = []) throws -> [[String]] {
        let r = try CLI.help(prefix)
        guard r.status == 0, prefix.count < 2,
              let section = r.stdout.components(separatedBy: "SUBCOMMANDS:").dropFirst().first else { return [] }
        var found: [[String]] = []
        // The section's entries, up to the blank line before "See 'moviemaker help <subcommand>'".
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            guard line.hasPrefix("  "), !line.hasPrefix("   "),
                  let name = line.split(separator: " ").first.map({ String($0) }),
                  name != "help", name.allSatisfy({ $0.isLowercase || $0 == "-" }) else { continue }
            found.append(prefix + [name])
            found += try subcommands(of: prefix + [name])
        }
        return found
    }

    @Test func everySubcommandsHelpNamesEachDefaultOnce() throws {
        guard CLI.isBuilt else { return }
        let commands = try Self.subcommands()
        #expect(commands.count >= 13 && commands.contains(["otio", "export"]) && commands.contains(["slideshow"]), "\(commands)")
        for command in [[]] + commands {
            let r = try CLI.help(command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
            // An option's help wraps over several lines: join each entry (a line starting with two spaces
            // and a non-space) with the lines indented under it, so "(default: 0) (default:\n 0.0)" is found too.
            var entries: [String] = []
            for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("  ") && !line.hasPrefix("   ") || entries.isEmpty { entries.append(String(line)) } else {
                    entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                }
            }
            for entry in entries {
                // "(default: x)" written in the help and ArgumentParser's own "(values: …; default: x)" count alike.
                #expect(entry.components(separatedBy: "default:").count <= 2, "moviemaker \(command.joined(separator: " ")) --help: \(entry)")
            }
        }
    }

    // MARK: Progress

    @Test func progressLinesInCINameTheOutput() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("out"), withIntermediateDirectories: true)
        let r = try CLI.run(["title", "Jane Doe", "--layout", "lower-third", "--duration", "1", "--size", "320x240",
                             "-o", "out/lt_07.mp4"], environment: ["CI": "1"], in: folder.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.count == 10 && r.stderrLines.allSatisfy { $0.hasPrefix("title out/lt_07.mp4: ") && $0.contains("%") },
                "every progress line names the output: \(r.stderr)")
        #expect(r.stderrLines.last?.hasPrefix("title out/lt_07.mp4: 100% (30/30 frames)") == true, "\(r.stderr)")
        #expect(try decodeAll(folder.file("out/lt_07.mp4")).count == 30)
    }

    // MARK: Errors

    @Test func usageErrorsPointAtHelpAndProblemsWithFilesDoNot() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let out = folder.file("out.mp4").path
        let usage = try CLI.run(["title", "X", "--fps", "-1", "-o", out])
        #expect(usage.status == 64 && usage.stderr.hasSuffix("(see 'moviemaker title --help')\n"), "\(usage.stderr)")
        let unknown = try CLI.run(["title", "X", "--colour", "red", "-o", out])
        #expect(unknown.status == 64 && unknown.stderr.contains("(see 'moviemaker title --help')"), "\(unknown.stderr)")
        let files: [[String]] = [
            ["title", "X", "-o", folder.file("missing/out.mp4").path],
            ["slideshow", "/nope-\(UUID().uuidString)", "-o", out],
            ["slideshow", folder.url.path, "--music", folder.file("missing.mp3").path, "-o", out],
            ["title", "X", "--font", "No Such Font Family", "-o", out],
            ["still", folder.file("missing.mp4").path, "-o", folder.file("a.png").path],
            ["render", folder.file("missing.json").path, "-o", out],
        ]
        for arguments in files {
            let r = try CLI.run(arguments)
            #expect(r.status == 64 && r.stderrLines.count == 1 && r.stderr.hasPrefix("moviemaker: error: "), "\(arguments): \(r.status) \(r.stderr)")
            #expect(!r.stderr.contains("--help"), "help cannot help with \(arguments): \(r.stderr)")
        }
        let folderMissing = try CLI.run(files[1])
        #expect(folderMissing.stderr.contains("no such file or folder"), "\(folderMissing.stderr)")
    }

    /// Issue 33 (reliability, small things): a folder that takes no files gave 64 for movies but 1 for
    /// `--save-spec`, `format -o` and `otio export -o`, after the work was done. Every file the tool writes
    /// is checked first, the same way.
    @Test func everyOutputsFolderIsCheckedFirstWith64() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("spec.json")
        try #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        for arguments in [["render", spec.path, "--check", "--save-spec", "/proc/filled.json"], ["format", spec.path, "-o", "/proc/canonical.json"],
                          ["otio", "export", spec.path, "-o", "/proc/edit.otio"], ["schema", "-o", "/proc/schema.json"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64 && r.stderr.contains("/proc") && r.stderrLines.count == 1, "\(arguments): \(r.status) \(r.stderr)")
        }
    }

    @Test func anOutputFolderThatTakesNoFilesSaysSo() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.run(["color", "--duration", "0.1", "--size", "64x64", "-o", "/proc/a.mp4"])
        #expect(r.status == 64 && r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("/proc") && !r.stderr.contains("No such file or directory"), "the folder exists: \(r.stderr)")
        #expect(!r.stderr.contains("--help"), "\(r.stderr)")
        if getuid() == 0 {
            // Root passes access(W_OK) everywhere; creating the file is what fails.
            #expect(r.stderr.contains("cannot create a file there: its file system does not take new files"), "\(r.stderr)")
        }
        // The library says the same for MovieMaker(url:) (the CLI's check comes first).
        do {
            _ = try MovieMaker(url: URL(fileURLWithPath: "/proc/a.mp4"), width: 64, height: 64, fps: 30)
            Issue.record("/proc takes no files")
        } catch {
            #expect(error.code == .destinationNotWritable && !error.message.contains("No such file or directory"), "\(error.message)")
        }
    }

    // MARK: README

    @Test func readmeShowsTheLocalPathDependencyAndWhereItsNameComesFrom() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(".package(path: \"../MovieMaker\")"))
        #expect(readme.contains("named after the checkout's folder"))
    }
}

/// The README's list of what `make demo` writes (issue 33: it was incomplete).
@Suite("the README's make demo list")
struct DemoListTests {
    @Test("every file make demo writes into output/ (scripts/demo.sh and the examples) is named in the README")
    func everyDemoOutputIsListed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let recipe = try String(contentsOf: root.appendingPathComponent("scripts/demo.sh"), encoding: .utf8)
        let examples = try String(contentsOf: root.appendingPathComponent("Sources/Examples/main.swift"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        // make demo runs scripts/demo.sh, which writes into $out.
        var names = Set<String>()
        let extensions = "mp4|mov|png|json|otio|wav"
        for match in recipe.matches(of: try Regex("\\$out/([A-Za-z0-9_.-]+\\.(?:\(extensions)))")) {
            if let name = match.output[1].substring { names.insert(String(name)) }
        }
        for name in ["travel", "promo", "birthday", "editing"] where recipe.contains(name) { names.insert("\(name).mp4") }
        for match in examples.matches(of: try Regex("appendingPathComponent\\(\"([A-Za-z0-9_.-]+\\.(?:\(extensions)))\"\\)")) {
            if let name = match.output[1].substring { names.insert(String(name)) }
        }
        #expect(names.count >= 20, "the demo's outputs were found: \(names.sorted())")
        let missing = names.filter { !readme.contains("`\($0)`") }.sorted()
        #expect(missing.isEmpty, "make demo writes these, the README does not name them: \(missing)")
    }
}

import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The `moviemaker` executable, run as a subprocess: help, version, `run`, `color`, option errors, progress.
@Suite("moviemaker command line")
struct CLITests {
    // MARK: Root command

    @Test func helpListsSubcommandsAndExitsZero() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.help([])
        #expect(r.status == 0)
        #expect(r.stdout.contains("SUBCOMMANDS"))
        #expect(r.stdout.contains("run "), "run is not listed: \(r.stdout)")
        #expect(r.stdout.contains("color "), "color is not listed: \(r.stdout)")
        #expect(r.stderr.isEmpty)
    }

    @Test func versionNamesToolAndLibraries() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("moviemaker "))
        #expect(r.stdout.contains(LibraryVersions.current.description), "no library versions in: \(r.stdout)")
    }

    @Test func unknownSubcommandIsOneLineUsageError() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.run(["colr"])
        #expect(r.status == 64)
        #expect(r.stderrLines.count == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("moviemaker: error: ") && r.stderr.contains("colr"))
    }

    @Test("a text that begins with '-' is not called an unknown option: the message says to give it after '--' or with '='")
    func dashedTextSaysHowToGiveIt() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let out = folder.file("t.png")
        let title = try CLI.run(["title", "-5% off", "--still", "0", "-o", out.path])
        #expect(title.status == 64 && title.stderrLines.count == 1 && title.stderr.contains("'-5% off' begins with '-'")
                && title.stderr.contains("-- '-5% off'"), "\(title.stderr)")
        let value = try CLI.run(["title", "Sale", "--subtitle", "-5% off", "--still", "0", "-o", out.path])
        #expect(value.status == 64 && value.stderr.contains("--subtitle='-5% off'"), "\(value.stderr)")
        // Given so, it is the text.
        let fixed = try CLI.run(["title", "--subtitle=-5% off", "--still", "0", "-o", out.path, "--", "-50% today"])
        #expect(fixed.status == 0 && (try? decodeAll(out).count) == 1, "\(fixed.stderr)")
        // After -o it is a file: ./ in front.
        let file = try CLI.run(["title", "Sale", "-o", "-sale 50%.mp4"], in: folder.url)
        #expect(file.status == 64 && file.stderr.contains("-o './-sale 50%.mp4'"), "\(file.stderr)")
        // Negative numbers are values as before (named by their own check), and a mistyped option is still named as one.
        let negative = try CLI.run(["title", "Sale", "--duration", "-1", "-o", out.path])
        #expect(negative.status == 64 && negative.stderr.contains("--duration") && !negative.stderr.contains("begins with '-'"), "\(negative.stderr)")
        let typo = try CLI.run(["title", "Sale", "--subtitel", "x", "-o", out.path])
        #expect(typo.stderr.contains("unknown option '--subtitel'"), "\(typo.stderr)")
    }

    // MARK: run

    /// A script that renders `frames` frames of a moving white square at 160×120 into its first argument.
    static func tinyScript(frames: Int = 10, marker: String = UUID().uuidString) -> String {
        """
        // \(marker)
        import Foundation
        import MovieMaker

        let url = URL(fileURLWithPath: CommandLine.arguments[1])
        let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 30)
        try movie.addFrames(count: \(frames)) { ctx, frame in
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: Double(frame.index) * 10, y: 40, width: 40, height: 40))
        }
        try movie.finish()
        print("rendered \\(url.lastPathComponent)")
        """
    }

    @Test func runCompilesScriptThatRendersAMovie() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("tiny.swift"), movie = folder.file("tiny.mp4")
        try Self.tinyScript().write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", script.path, "--", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("rendered tiny.mp4"))
        let reader = try MovieReader(url: movie)
        #expect(reader.info.width == 160 && reader.info.height == 120)
        let frames = try decodeAll(movie)
        #expect(frames.count == 10)
        // Frame 5's square starts at x = 50: white there, black left of it.
        if frames.count == 10 {
            #expect(meanColor(frames[5].pixels, x: 70, y: 60).r > 230)
            #expect(meanColor(frames[5].pixels, x: 20, y: 60).r < 25)
        }
    }

    /// A script is not a library: top-level `var`s read and written inside drawing closures (including
    /// a clip's `@Sendable` one) compile, as `moviemaker run` uses the Swift 5 mode by default, and the
    /// script is optimised by default (`--debug` opts out; both are cached apart). `--swift-version 6`
    /// gives the strict mode, where the same script is refused.
    @Test func runCompilesScriptsWithTopLevelVarsInDrawingClosures() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("vars.swift"), movie = folder.file("vars.mp4")
        try """
            // \(UUID().uuidString)
            import Foundation
            import MovieMaker

            var drawn = 0
            var x = 0.0
            let url = URL(fileURLWithPath: CommandLine.arguments[1])
            let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 30)
            try movie.addFrames(count: 6) { ctx, frame in
                drawn += 1
                x = Double(frame.index) * 10
                ctx.clear(.black)
                ctx.setFill(.white)
                ctx.fillRect(Rect(x: x, y: 40, width: 40, height: 40))
            }
            var side = 20.0
            let clip = Clip(duration: Time(value: 4, timescale: 30)) { ctx, frame in
                ctx.clear(.black)
                ctx.setFill(.white)
                ctx.fillRect(Rect(x: 100, y: 40, width: side, height: side))
            }
            side = 40
            try movie.add(clip)
            _ = try movie.finish()
            print("drew \\(drawn) frames, last x \\(x)")
            """.write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "--verbose", script.path, "--", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("drew 6 frames, last x 50.0"), "\(r.stdout)")
        #expect(r.stderr.contains(" -swift-version 5 ") && r.stderr.contains(" -O "), "optimised, Swift 5 mode by default: \(r.stderr)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 10, "6 drawn frames and a 4-frame clip")
        if frames.count == 10 {
            #expect(meanColor(frames[5].pixels, x: 70, y: 60).r > 230, "frame 5's square at x = 50")
            #expect(meanColor(frames[8].pixels, x: 135, y: 75).r > 230, "the clip reads side = 40, set after it was made")
        }
        let debug = try CLI.run(["run", "--verbose", "--debug", script.path, "--", folder.file("debug.mp4").path])
        #expect(debug.status == 0 && debug.stderr.contains(" -Onone ") && debug.stderr.contains("moviemaker: compiling"),
                "--debug compiles again, with -Onone: \(debug.stderr)")
        let strict = try CLI.run(["run", "--swift-version", "6", script.path, "--", folder.file("strict.mp4").path])
        #expect(strict.status == 1 && strict.stderr.contains("vars.swift:"), "Swift 6 mode refuses the shared vars: \(strict.stderr)")
        let bad = try CLI.run(["run", "--swift-version", "4", script.path])
        #expect(bad.status == 64 && bad.stderr.contains("'4' is invalid for '--swift-version <5|6>'"), "\(bad.stderr)")
    }

    /// No option's help says its default twice (once by hand, once by ArgumentParser, which adds
    /// "(default: …)" for every property with an initial value): checked per option, across line wraps,
    /// for every subcommand.
    @Test func helpStatesEachDefaultOnce() throws {
        guard CLI.isBuilt else { return }
        let commands: [[String]] = [["title"], ["slideshow"], ["stitch"], ["render"], ["assemble"], ["color"], ["still"],
                                    ["contact-sheet"], ["run"], ["schema"], ["otio", "export"], ["otio", "import"]]
        for command in commands {
            let r = try CLI.help(command)
            #expect(r.status == 0, "\(command) --help: \(r.stderr)")
            let blocks = r.stdout.components(separatedBy: "\n  -")
            #expect(blocks.count > 1, "\(command) --help lists options")
            for block in blocks {
                let flat = block.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(flat.components(separatedBy: "(default:").count <= 2, "\(command.joined(separator: " ")): \(flat)")
            }
        }
    }

    @Test func runPassesArgumentsAndExitStatus() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("args.swift")
        try """
            import Foundation
            print(CommandLine.arguments.dropFirst().joined(separator: "|"))
            exit(7)
            """.write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", script.path, "one", "--two", "-3"])
        #expect(r.status == 7)
        #expect(r.stdout == "one|--two|-3\n")
        let dashed = try CLI.run(["run", script.path, "--", "--verbose"])
        #expect(dashed.stdout == "--verbose\n", "the script should receive what follows --: \(dashed.stdout)")
    }

    @Test func runReusesTheCachedBuildUntilTheScriptChanges() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("cached.swift")
        try "print(\"first \\(\(Int.random(in: 0..<1_000_000_000)))\")\n".write(to: script, atomically: true, encoding: .utf8)
        let first = try CLI.run(["run", "--verbose", script.path])
        #expect(first.status == 0)
        #expect(first.stderr.contains("moviemaker: compiling"), "first run should compile: \(first.stderr)")
        let second = try CLI.run(["run", "--verbose", script.path])
        #expect(second.status == 0)
        #expect(second.stdout == first.stdout)
        #expect(second.stderr.contains("using the cached build") && !second.stderr.contains("moviemaker: compiling"),
                "second run should use the cache: \(second.stderr)")
        try "print(\"edited\")\n".write(to: script, atomically: true, encoding: .utf8)
        let edited = try CLI.run(["run", "--verbose", script.path])
        #expect(edited.stdout == "edited\n")
        #expect(edited.stderr.contains("moviemaker: compiling"), "an edited script should compile again: \(edited.stderr)")
    }

    /// Scripts compiled at once from an empty cache each compile the support object every script is linked
    /// with; whichever finishes first puts it in place and the others use that one. Once, a process put
    /// its copy over the object (or its source over the one another process was compiling) while
    /// another was building, and that build failed: "ScriptSupport.o was modified during the build".
    @Test func scriptsCompiledAtOnceFromAnEmptyCacheAllRun() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let cache = folder.file("cache")
        let count = 8
        let scripts = (0..<count).map { folder.file("at-once-\($0).swift") }
        for (i, script) in scripts.enumerated() {
            try "import Foundation\nprint(\"script \(i) \(UUID().uuidString)\", Date() > .distantPast)\n".write(to: script, atomically: true, encoding: .utf8)
        }
        let results = Mutex<[Int: CLI.Result]>([:])
        let group = DispatchGroup()
        for (i, script) in scripts.enumerated() {
            group.enter()
            Thread.detachNewThread {
                let r = try? CLI.run(["run", script.path], environment: ["XDG_CACHE_HOME": cache.path])
                results.withLock { $0[i] = r }
                group.leave()
            }
        }
        group.wait()
        for i in 0..<count {
            let r = results.withLock { $0[i] }
            #expect(r?.status == 0, "script \(i): \(r?.stderr ?? "did not start")")
            #expect(r?.stdout.hasPrefix("script \(i) ") == true, "script \(i) printed: \(r?.stdout ?? "")")
        }
        // One object, and nothing left of the processes' own sources and partial objects.
        let support = cache.appendingPathComponent("moviemaker/support")
        let entries = try FileManager.default.contentsOfDirectory(atPath: support.path)
        #expect(entries.count == 1, "\(entries)")
        if let entry = entries.first {
            let files = try FileManager.default.contentsOfDirectory(atPath: support.appendingPathComponent(entry).path)
            #expect(files == ["ScriptSupport.o"], "\(files)")
        }
    }

    @Test func runReportsCompileErrorsInTheScript() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("broken.swift")
        try "import MovieMaker\n\nlet count: Int = \"three\"\n".write(to: script, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "broken.swift"], in: folder.url)
        #expect(r.status == 1)
        #expect(r.stderr.contains("broken.swift:3:"), "the compiler's error should point at line 3: \(r.stderr)")
        #expect(r.stderrLines.last?.hasPrefix("moviemaker: error: broken.swift did not compile") == true, "stderr: \(r.stderr)")
    }

    @Test func runOfMissingScriptIsOneLineError() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.run(["run", "/nonexistent/nothing-here.swift"])
        #expect(r.status == 64, "a missing script is bad input")
        #expect(r.stderrLines.count == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("moviemaker: error: ") && r.stderr.contains("/nonexistent/nothing-here.swift"))
        #expect(r.stdout.isEmpty)
    }

    // MARK: color and the shared option groups

    @Test func colorRendersSolidMovieOfTheSizeAndRate() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("solid.mp4")
        let r = try CLI.run(["color", "--color", "#123456", "--size", "320x240", "--duration", "1", "-o", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let reader = try MovieReader(url: movie)
        #expect(reader.info.width == 320 && reader.info.height == 240)
        #expect(reader.info.frameRate == 30)
        let frames = try decodeAll(movie)
        #expect(frames.count == 30)
        if let last = frames.last {
            let c = meanColor(last.pixels, x: 160, y: 120)
            #expect(abs(c.r - 0x12) <= 3 && abs(c.g - 0x34) <= 3 && abs(c.b - 0x56) <= 3, "decoded \(c)")
        }
    }

    @Test func ntscDecimalRatesMapToExactFractions() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        for (given, expected) in [("29.97", FrameRate.ntsc), ("23.976", FrameRate.ntscFilm), ("30000/1001", FrameRate.ntsc)] {
            let movie = folder.file("rate.mp4")
            let r = try CLI.run(["color", "--size", "64x64", "--fps", given, "--duration", "0.2", "--quiet", "-o", movie.path])
            #expect(r.status == 0, "--fps \(given): \(r.stderr)")
            #expect(try MovieReader(url: movie).info.frameRate == expected, "--fps \(given)")
        }
        // A rate no camera has, whose fraction would not fit the description file, is refused.
        let odd = try CLI.run(["color", "--size", "64x64", "--fps", "29.1234567", "--duration", "0.2", "--quiet", "-o", folder.file("odd.mp4").path])
        #expect(odd.status == 64 && odd.stderr.contains("29.1234567"), "\(odd.stderr)")
    }

    @Test func colorWritesPNGStill() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let still = folder.file("still.png")
        let r = try CLI.run(["color", "-c", "orange", "--size", "48x32", "-o", still.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let canvas = try Canvas(width: 48, height: 32)
        let image = try Image(contentsOf: still)
        try canvas.draw { ctx in ctx.draw(image, in: Rect(x: 0, y: 0, width: 48, height: 32)) }
        let px = canvas.pixels().rgba(x: 24, y: 16)
        #expect(px.red == 255 && (127...128).contains(px.green) && px.blue == 0, "pixel \(px)")
    }

    /// Runs `color` with `arguments` and checks for one error line on stderr that contains `named`.
    func expectOneLineError(_ arguments: [String], naming named: String, status: Int32? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try CLI.run(["color"] + arguments)
        #expect(r.status != 0, "exit status 0 for \(arguments)", sourceLocation: sourceLocation)
        if let status { #expect(r.status == status, "\(arguments): stderr \(r.stderr)", sourceLocation: sourceLocation) }
        #expect(r.stderrLines.count == 1, "not one line: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("moviemaker: error: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(named), "\(r.stderr) does not name \(named)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func badSizeIsOneLineUsageErrorNamingTheValue() throws {
        guard CLI.isBuilt else { return }
        try expectOneLineError(["--size", "1920x", "-o", "x.mp4"], naming: "'1920x'", status: 64)
        try expectOneLineError(["--size", "1921x1080", "-o", "x.mp4"], naming: "1922x1080", status: 64)
        try expectOneLineError(["--size", "8x8", "-o", "x.mp4"], naming: "'8x8'", status: 64)
        // The expected form is spelled out.
        let r = try CLI.run(["color", "--size", "big", "-o", "x.mp4"])
        #expect(r.stderr.contains("1920x1080"))
    }

    @Test func badFrameRateCrfAndPresetAreOneLineErrors() throws {
        guard CLI.isBuilt else { return }
        try expectOneLineError(["--fps", "fast", "-o", "x.mp4"], naming: "'fast'", status: 64)
        try expectOneLineError(["--fps", "0", "-o", "x.mp4"], naming: "'0'", status: 64)
        try expectOneLineError(["--crf", "60", "-o", "x.mp4"], naming: "60", status: 64)
        try expectOneLineError(["--preset", "quick", "-o", "x.mp4"], naming: "'quick'", status: 64)
    }

    @Test func badColorIsOneLineErrorNamingTheValue() throws {
        guard CLI.isBuilt else { return }
        try expectOneLineError(["--color", "#12345g", "-o", "x.mp4"], naming: "'#12345g'", status: 64)
        try expectOneLineError(["--color", "blu", "-o", "x.mp4"], naming: "'blu'", status: 64)
    }

    @Test func outputIntoMissingOrUnwritableFolderIsRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("no-such-folder")
        try expectOneLineError(["-o", missing.appendingPathComponent("x.mp4").path], naming: missing.path, status: 64)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        // Root may write anywhere on disk; /proc refuses new files even to root.
        let locked = folder.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
        let target = geteuid() == 0 ? "/proc" : locked.path
        try expectOneLineError(["--size", "64x64", "-o", target + "/x.mp4"], naming: target)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: locked.path)) ?? ["?"]).isEmpty)
        try expectOneLineError(["-o", folder.file("x.avi").path], naming: ".avi", status: 64)
    }

    // MARK: Progress

    @Test func plainProgressLinesAndSummaryInCI() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("progress.mp4")
        let r = try CLI.run(["color", "--size", "64x64", "--duration", "2", "-o", movie.path], environment: ["CI": "1"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stderrLines
        #expect(lines.count == 10, "one line per 10%: \(r.stderr)")
        #expect(lines.first?.hasPrefix("color \(movie.path): 10% (6/60 frames) ") == true, "\(r.stderr)")
        #expect(lines.last?.hasPrefix("color \(movie.path): 100% (60/60 frames) ") == true, "\(r.stderr)")
        #expect(lines.allSatisfy { $0.contains(" fps") }, "\(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}"), "no terminal escapes in CI output")
        let summary = r.stdout.split(separator: "\n")
        #expect(summary.count == 1, "one summary line: \(r.stdout)")
        #expect(r.stdout.contains(movie.path) && r.stdout.contains("60 frames") && r.stdout.contains("64x64")
                && r.stdout.contains("2.00 s") && r.stdout.contains("done in"), "summary: \(r.stdout)")
    }

    @Test func quietKeepsOnlyTheSummaryLineAndSilentPrintsNothing() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("quiet.mp4")
        let r = try CLI.run(["color", "--size", "64x64", "--duration", "0.5", "--quiet", "-o", movie.path], environment: ["CI": "1"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "no progress with --quiet: \(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 1 && r.stdout.hasPrefix(movie.path + ": ") && r.stdout.contains("15 frames"),
                "--quiet keeps the one summary line: \(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: movie.path))
        let silentMovie = folder.file("silent.mp4")
        let s = try CLI.run(["color", "--size", "64x64", "--duration", "0.5", "--silent", "-o", silentMovie.path], environment: ["CI": "1"])
        #expect(s.status == 0)
        #expect(s.stdout.isEmpty && s.stderr.isEmpty, "--silent prints nothing: stdout: \(s.stdout) stderr: \(s.stderr)")
        #expect(try decodeAll(silentMovie).count == 15)
    }

    @Test func terminalGetsAnInPlaceBar() throws {
        guard CLI.isBuilt else { return }
        // util-linux `script` gives the command a pseudo-terminal; without it there is no terminal to test.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("bar.mp4")
        let command = [CLI.executable.path, "color", "--size", "64x64", "--duration", "1", "-o", movie.path].joined(separator: " ")
        let r = try run("/usr/bin/env", ["-u", "CI", "TERM=xterm", "/usr/bin/script", "-qec", command, "/dev/null"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\r\u{1B}[2K"), "the bar is redrawn in place: \(r.stdout.debugDescription)")
        #expect(r.stdout.contains("█") && r.stdout.contains("100%"), "\(r.stdout.debugDescription)")
        #expect(!r.stdout.contains("color: 10% ("), "no plain lines on a terminal")
        #expect(r.stdout.contains("\(movie.path): 30 frames"), "summary: \(r.stdout.debugDescription)")
        // CI=false (as some services and users write it) is no CI: still the bar. CI=true: plain lines.
        for (ci, bar) in [("false", true), ("0", true), ("true", false)] {
            let t = try run("/usr/bin/env", ["CI=\(ci)", "TERM=xterm", "/usr/bin/script", "-qec", command, "/dev/null"])
            #expect(t.status == 0, "\(t.stderr)")
            #expect(t.stdout.contains("█") == bar && t.stdout.contains("color \(movie.path): 10% (") == !bar, "CI=\(ci): \(t.stdout.debugDescription)")
        }
    }
}

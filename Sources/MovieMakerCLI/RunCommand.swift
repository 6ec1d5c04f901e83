import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker run script.swift [-- args]`: compile a Swift script against MovieMaker and run it.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Compile and run a Swift script that does `import MovieMaker`, without making a package.",
        discussion: """
            The script is one Swift file of top-level code (or with an @main type). It is compiled with \
            swiftc, optimised (-O; --debug for -Onone) and in the Swift 5 language mode with minimal \
            concurrency checking, so top-level vars can be used inside drawing closures (--swift-version 6 \
            for Swift 6's data-race checks), against the MovieMaker library built in this checkout \
            (libMovieMakerDynamic.so and Modules/MovieMaker.swiftmodule, found next to this moviemaker \
            executable: a release moviemaker uses the release library), then run with the \
            arguments that follow it. Its exit status becomes moviemaker's: the script replaces the \
            moviemaker process, so Ctrl-C and SIGTERM reach it directly; a script stopped by Ctrl-C, \
            SIGTERM, SIGHUP or a closed pipe while it writes a movie leaves no partial file behind. An \
            error thrown at the script's top level prints one line and exits with 1. Stopped while \
            compiling, moviemaker stops the compiler too and exits with 130 (SIGINT), 143 (SIGTERM) or \
            129 (SIGHUP).

            The executable is cached by a hash of the script, the library and the compiler in \
            $XDG_CACHE_HOME/moviemaker (default ~/.cache/moviemaker), one entry per --debug and \
            --swift-version choice, so running an unchanged script \
            again starts at once; editing the script or rebuilding the library compiles it afresh. \
            Compiler errors point into the script. If the library is not built, run `make build`. \
            Set SWIFTC to use another compiler.

            Examples:
              moviemaker run examples/wave.swift
              moviemaker run examples/wave.swift -- output/wave.mp4
            """)

    /// Compile without optimisation.
    @Flag(help: "Compile with -Onone instead of -O: quicker to compile, slower drawing code, easier to debug.")
    var debug = false

    /// Accepted for scripts written before -O became the default; does nothing.
    @Flag(name: .customLong("optimize"), help: .hidden)
    var optimize = false

    /// The language mode.
    @Option(help: ArgumentHelp("The Swift language mode: 5 (minimal concurrency checking: top-level vars work in drawing closures) or 6 (data-race checks).",
                               valueName: "5|6"))
    var swiftVersion: SwiftLanguageMode = .v5

    /// Ignore the cache.
    @Flag(help: "Compile again even if a cached build matches.")
    var rebuild = false

    /// Compile (into the cache) and stop.
    @Flag(help: "Compile the script (keeping the build in the cache) without running it: exit status 0 when it compiles, 1 when it does not (e.g. to check scripts in CI).")
    var compileOnly = false

    /// Explain what happens.
    @Flag(name: [.short, .long], help: "Print the compiler command and whether the cache was used, on standard error.")
    var verbose = false

    /// The script to run.
    @Argument(help: ArgumentHelp("The Swift script to compile and run.", valueName: "script.swift"))
    var script: String

    /// Arguments for the script.
    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("Arguments passed to the script (put -- first if one starts with a dash).", valueName: "arguments"))
    var scriptArguments: [String] = []

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: script, isDirectory: &isDirectory) else { throw ScriptError.scriptMissing(path: script) }
        guard !isDirectory.boolValue else { throw ScriptError.scriptIsFolder(path: script) }
        // `moviemaker run notes.txt` is a mistake, not a script to hand the compiler (and its linker errors).
        guard URL(fileURLWithPath: script).pathExtension.lowercased() == "swift" else {
            throw ScriptError.scriptUnreadable(path: script, reason: "not a Swift file: give a .swift script")
        }
        let library = try LibraryLocation.locate()
        guard let swiftc = ScriptCompiler.findCompiler() else { throw ScriptError.compilerNotFound }
        var compiler = ScriptCompiler(library: library, swiftc: swiftc, cacheFolder: ScriptCompiler.defaultCacheFolder())
        compiler.optimize = !debug
        compiler.swiftVersion = swiftVersion
        compiler.verbose = verbose
        let executable = try compiler.executable(for: URL(fileURLWithPath: script), displayPath: script, rebuild: rebuild)
        if compileOnly {
            Terminal.writeError("moviemaker: \(script) compiles (\(executable.path))\n")
            return
        }
        let passed = scriptArguments.first == "--" ? Array(scriptArguments.dropFirst()) : scriptArguments
        try Self.replaceProcess(with: executable, arguments: [script] + passed)
    }

    /// Runs `executable` in place of this process (`execv`), so its output, signals and exit status
    /// are the script's own: there is no child left to forward SIGINT or SIGTERM to, and none left
    /// running. Returns only by throwing.
    static func replaceProcess(with executable: URL, arguments: [String]) throws(ScriptError) -> Never {
        // An argument whose bytes are not UTF-8 reached moviemaker as an alias of its file
        // (`FolderListing.argument`): the script gets the bytes as given, and the aliases go now, since
        // execv skips the exit handler that would remove them.
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { argument in
            guard let raw = FolderListing.rawBytes(ofArgument: argument) else { return strdup(argument) }
            return (raw + [0]).withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        }
        argv.append(nil)
        FolderListing.removeAliases()
        // Ignored or blocked signals survive execv: the script must start with Ctrl-C's default action,
        // and with no signal blocked. moviemaker itself may have been started with most signals blocked:
        // Foundation's Process on Linux passes on the calling thread's mask, and Dispatch's worker
        // threads block nearly all (swift-corelibs-foundation issue 4772).
        // SIGPIPE too: moviemaker ignores it (a closed progress pipe must not kill a render), a script
        // starts with the default, as any program does.
        StopSignal.restoreDefaults(StopSignal.all + [SIGPIPE, SIGXFSZ])
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // A script stopped by a signal while it writes a movie removes the movie's partial file first
        // (the library watches the signals only when asked).
        setenv(PartialFiles.signalCleanupVariable, "1", 1)
        execv(executable.path, argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        throw .launchFailed(path: executable.path, reason: reason)
    }
}

extension SwiftLanguageMode: ExpressibleByArgument {}

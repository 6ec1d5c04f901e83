import Foundation
import MovieMaker

/// Compiles a one-file Swift script against the MovieMaker library built in this checkout, and keeps
/// the executable in a cache keyed by everything that affects it.
///
/// The compile is one `swiftc` call: `-I <bin>/Modules` for `MovieMaker.swiftmodule`, the module maps
/// of the C libraries MovieMaker imports (`Sources/C*/module.modulemap` and SwiftPM's generated map for
/// targets with an `include/` folder), the header folders `pkg-config` gives for the system libraries
/// named in Package.swift, and `-L <bin> -lMovieMakerDynamic` with an rpath to `<bin>`.
///
/// What scripts still need of the C modules: MovieMaker imports every C module with `internal import`,
/// so none of their types is part of its API and a script never has to import one (except `CCairo`,
/// to call Cairo inside `DrawingContext.withCairoContext`). But the library is built without library
/// evolution, and such a module still lists its internal imports as modules a client must load
/// (without them swiftc stops with "missing required modules: 'CCairo', 'CFFmpeg', …", checked with
/// Swift 6.3 against both the debug and the release build), so the module maps and header folders are
/// passed for all of them.
///
/// Scripts are compiled optimised (`-O`) in the Swift 5 language mode by default (see `SwiftLanguageMode`);
/// both choices are part of the cache key, so `run --debug` or `--swift-version 6` has an entry of its own.
///
/// The cache lives in `$XDG_CACHE_HOME/moviemaker` (default `~/.cache/moviemaker`): `scripts/<key>/`
/// holds one executable, where the key is a SHA-256 of the script's path and text, the compiler, the
/// options (optimisation, language mode), and the size and modification time of the library and module; `ModuleCache/` holds
/// clang's precompiled C modules. Entries unused for 30 days are removed after each compile.
struct ScriptCompiler {
    /// The built library to compile against.
    let library: LibraryLocation
    /// The Swift compiler.
    let swiftc: URL
    /// The cache's root folder.
    let cacheFolder: URL
    /// Compile with `-O` (the default: drawing closures run every frame) instead of `-Onone` (`run --debug`).
    var optimize = true
    /// The Swift language mode: 5 (the default: a script's top-level `var`s may be used in drawing
    /// closures, with minimal concurrency checking) or 6 (`run --swift-version 6`: full data-race checks).
    var swiftVersion: SwiftLanguageMode = .v5
    /// Describe cache decisions and the compiler command on standard error.
    var verbose = false

    /// Bumped when the flags change in a way the key does not capture.
    private static let cacheFormat = "moviemaker-run-3"
    /// Module name for the script (a file name such as `my-wave.swift` is not a valid one).
    private static let moduleName = "MovieMakerScript"
    /// How long an unused cache entry is kept.
    private static let cacheLifetime: TimeInterval = 30 * 24 * 3600

    /// `$XDG_CACHE_HOME/moviemaker`, else `~/.cache/moviemaker`.
    static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("moviemaker")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/moviemaker")
    }

    /// The compiler: `$SWIFTC`, else the `swiftc` of the toolchain whose runtime this process runs on
    /// (the one that built the library), else the first `swiftc` on `PATH`.
    static func findCompiler(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        if let explicit = environment["SWIFTC"], fm.isExecutableFile(atPath: explicit) { return URL(fileURLWithPath: explicit) }
        // libswiftCore.so sits in <toolchain>/usr/lib/swift/linux; swiftc in <toolchain>/usr/bin.
        if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
           let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
           let slash = line.firstIndex(of: "/") {
            let runtime = URL(fileURLWithPath: String(line[slash...])).resolvingSymlinksInPath()
            let candidate = runtime.deletingLastPathComponent().appendingPathComponent("../../../bin/swiftc").standardizedFileURL
            if fm.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if fm.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The executable for `script`: from the cache when its key matches, else freshly compiled.
    /// `displayPath` is the path as the user typed it, which the compiler's messages then show.
    func executable(for script: URL, displayPath: String, rebuild: Bool) throws(ScriptError) -> URL {
        let source: Data
        do { source = try Data(contentsOf: script) } catch {
            throw .scriptUnreadable(path: displayPath, reason: (error as NSError).localizedDescription)
        }
        let (entry, binary, parseAsLibrary) = cacheEntry(for: script, source: source)
        let fm = FileManager.default
        if !rebuild && fm.isExecutableFile(atPath: binary.path) {
            if verbose { Terminal.writeError("moviemaker: using the cached build \(binary.path)\n") }
            // Mark the entry as used, so pruning keeps it.
            try? fm.setAttributes([.modificationDate: Date()], ofItemAtPath: entry.path)
            return binary
        }
        do {
            try fm.createDirectory(at: entry, withIntermediateDirectories: true)
        } catch {
            throw .buildFailed(reason: "cannot create the cache folder \(entry.path) (\((error as NSError).localizedDescription)); set XDG_CACHE_HOME to a writable folder")
        }
        let support = try supportObject(for: displayPath)
        let partial = entry.appendingPathComponent(".\(binary.lastPathComponent).partial-\(getpid())")
        // The compiler sees the script's absolute path, so `#filePath` in it (a script finding its assets
        // beside itself) names the script wherever it is run from; the cache key holds the same path.
        let absolute = script.standardizedFileURL.path
        let arguments = compilerArguments(script: absolute, output: partial.path, parseAsLibrary: parseAsLibrary) + Self.supportLinkArguments(support)
        let transient = !verbose && Terminal.standardErrorIsTerminal
        if verbose {
            Terminal.writeError("moviemaker: compiling \(displayPath): \(swiftc.path) \(arguments.joined(separator: " "))\n")
        } else if transient {
            Terminal.writeError("compiling \(displayPath)…")
        }
        let started = Date()
        let status = try runCompiler(arguments, script: displayPath, transient: transient, removingOnFailure: [partial, entry])
        guard status == 0 else {
            try? fm.removeItem(at: partial)
            try? fm.removeItem(at: entry)
            throw .compileFailed(script: displayPath)
        }
        if rename(partial.path, binary.path) != 0 {
            throw .buildFailed(reason: "cannot move the executable into \(binary.path) (\(String(cString: strerror(errno))))")
        }
        if verbose { Terminal.writeError(String(format: "moviemaker: compiled in %.1f s into %@\n", Date().timeIntervalSince(started), binary.path)) }
        pruneCache(keeping: entry)
        return binary
    }

    /// Runs the compiler with `arguments` and returns its exit status. SIGINT and SIGTERM go on to the
    /// compiler and stop this run once it has exited, removing `removingOnFailure`.
    private func runCompiler(_ arguments: [String], script: String, transient: Bool, removingOnFailure: [URL]) throws(ScriptError) -> Int32 {
        let status: Int32
        let forwarder = SignalForwarder()
        defer { forwarder.stop() }
        do throws(ChildProcess.LaunchError) {
            let child = try ChildProcess.spawn(swiftc, arguments: arguments)
            forwarder.attach(child: child)
            status = ChildProcess.wait(for: child)
        } catch {
            if transient { Terminal.writeError("\r\u{1B}[2K") }
            throw .buildFailed(reason: "cannot start \(swiftc.path) (\(error.reason))")
        }
        if transient { Terminal.writeError("\r\u{1B}[2K") }
        if let signal = forwarder.received {
            for url in removingOnFailure { try? FileManager.default.removeItem(at: url) }
            throw .interrupted(signal: signal, script: script)
        }
        return status
    }

    /// The source of the object linked into every script, compiled once per compiler (`supportObject()`).
    ///
    /// An error thrown at a script's top level reaches the Swift runtime's `swift_errorInMain`, which
    /// stops the process with a trap: exit status 132 (SIGILL) and a crash report of some 45 lines after
    /// the message. A script is a program the user wrote, and an error it throws is an ordinary failure,
    /// so the object defines a function with the runtime's signature, and the script is linked with
    /// `swift_errorInMain` defined as that function (`--defsym`; the executable's definition comes before
    /// libswiftCore's, and the compiler refuses to name a runtime symbol itself): the error's text on one
    /// line, as the tool prints its own (`moviemaker: error: …`), and exit status 1, after flushing what
    /// the script printed.
    static let supportSource = """
        #if canImport(Glibc)
        import Glibc
        #endif

        /// A script's top-level error: one line on standard error and exit status 1 (see ScriptCompiler).
        @_silgen_name("moviemaker_script_error_in_main")
        public func moviemakerScriptErrorInMain(_ error: any Error) {
            fflush(stdout)
            fputs("moviemaker: error: \\(String(describing: error))\\n", stderr)
            exit(1)
        }

        """

    /// The arguments that link the support object `object` into a script: the object, and
    /// `swift_errorInMain` defined as its handler.
    static func supportLinkArguments(_ object: URL) -> [String] {
        [object.path, "-Xlinker", "--defsym=swift_errorInMain=moviemaker_script_error_in_main"]
    }

    /// The support object (`supportSource` compiled), from the cache or compiled now (before `script`,
    /// which an interruption then names: nothing of it was run).
    func supportObject(for script: String) throws(ScriptError) -> URL {
        var hash = SHA256()
        hash.update(field: Self.cacheFormat)
        hash.update(field: swiftc.path)
        hash.update(field: Self.fileStamp(swiftc.resolvingSymlinksInPath()))
        hash.update(field: Self.libraryIsInstrumented ? "asan" : "plain")
        hash.update(field: Self.supportSource)
        let folder = cacheFolder.appendingPathComponent("support").appendingPathComponent(String(hash.hexDigest().prefix(32)))
        let object = folder.appendingPathComponent("ScriptSupport.o")
        let fm = FileManager.default
        if fm.fileExists(atPath: object.path) { return object }
        // Each process compiles a source and an object of its own: the compiler driver refuses an input
        // that changes while it builds ("was modified during the build"), so another process writing the
        // same source file over this one's would fail this compile.
        let source = folder.appendingPathComponent(".ScriptSupport-\(getpid()).swift")
        let partial = folder.appendingPathComponent(".ScriptSupport.o.partial-\(getpid())")
        defer { try? fm.removeItem(at: source) }
        do {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(Self.supportSource.utf8).write(to: source)
        } catch {
            throw .buildFailed(reason: "cannot write \(source.path) (\((error as NSError).localizedDescription)); set XDG_CACHE_HOME to a writable folder")
        }
        var arguments = ["-module-name", "MovieMakerScriptSupport", "-parse-as-library", "-O", "-c", source.path, "-o", partial.path]
        if Self.libraryIsInstrumented { arguments.append("-sanitize=address") }
        if verbose { Terminal.writeError("moviemaker: compiling the scripts' support object: \(swiftc.path) \(arguments.joined(separator: " "))\n") }
        let status = try runCompiler(arguments, script: script, transient: false, removingOnFailure: [partial])
        defer { try? fm.removeItem(at: partial) }
        // Put in place only if no other process did meanwhile (link(2) refuses an existing name): renaming
        // over it would change the file under a script another process is linking with it, which the
        // compiler driver refuses ("was modified during the build").
        guard status == 0 else {
            throw .buildFailed(reason: "the scripts' support object (their error handler) did not compile with \(swiftc.path); `moviemaker run --verbose` shows the command")
        }
        guard link(partial.path, object.path) == 0 || errno == EEXIST else {
            let reason = String(cString: strerror(errno))
            throw .buildFailed(reason: "cannot put the scripts' support object in \(folder.path) (\(reason)); set XDG_CACHE_HOME to a folder on a file system with hard links")
        }
        return object
    }

    /// The cache entry for `script` with contents `source`: its folder, the executable in it, and whether
    /// the script is compiled as a library (it declares `@main`).
    func cacheEntry(for script: URL, source: Data) -> (folder: URL, binary: URL, parseAsLibrary: Bool) {
        let parseAsLibrary = Self.declaresMain(String(decoding: source, as: UTF8.self))
        let entry = cacheFolder.appendingPathComponent("scripts").appendingPathComponent(cacheKey(script: script, source: source, parseAsLibrary: parseAsLibrary))
        let name = script.deletingPathExtension().lastPathComponent
        return (entry, entry.appendingPathComponent(name.isEmpty ? "script" : name), parseAsLibrary)
    }

    /// The key naming a cache entry: a SHA-256 over every input that changes the executable.
    func cacheKey(script: URL, source: Data, parseAsLibrary: Bool) -> String {
        var hash = SHA256()
        hash.update(field: Self.cacheFormat)
        hash.update(field: swiftc.path)
        hash.update(field: Self.fileStamp(swiftc.resolvingSymlinksInPath()))
        hash.update(field: optimize ? "-O" : "-Onone")
        hash.update(field: swiftVersion.compilerFlags.joined(separator: " "))
        hash.update(field: parseAsLibrary ? "library" : "main")
        hash.update(field: Self.supportSource)
        hash.update(field: Self.libraryIsInstrumented ? "asan" : "plain")
        for file in [library.dynamicLibrary, library.moduleFile] {
            hash.update(field: file.path)
            hash.update(field: Self.fileStamp(file))
        }
        hash.update(field: script.standardizedFileURL.path)
        hash.update(source)
        return String(hash.hexDigest().prefix(32))
    }

    /// The `swiftc` arguments that compile `script` into `output`.
    func compilerArguments(script: String, output: String, parseAsLibrary: Bool) -> [String] {
        let root = library.packageRoot, bin = library.binFolder
        var args = ["-module-name", Self.moduleName] + swiftVersion.compilerFlags + [optimize ? "-O" : "-Onone",
                    // Line tables give crash backtraces file:line; full -g adds a module-emitting job whose
                    // failure prints a confusing extra line before the real compiler errors.
                    "-gline-tables-only",
                    "-I", library.modulesFolder.path,
                    "-module-cache-path", cacheFolder.appendingPathComponent("ModuleCache").path]
        // The C modules MovieMaker imports (internally, but its clients must still load them; see above):
        // system-library targets carry a module.modulemap;
        // C targets with an include/ folder get one generated by SwiftPM in <bin>/<Target>.build/.
        let sources = root.appendingPathComponent("Sources")
        let targets = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
        for target in targets {
            let folder = sources.appendingPathComponent(target)
            let map = folder.appendingPathComponent("module.modulemap")
            let include = folder.appendingPathComponent("include")
            let generated = bin.appendingPathComponent("\(target).build/module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) {
                args += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            } else if FileManager.default.fileExists(atPath: include.path) {
                args += ["-Xcc", "-I", "-Xcc", include.path]
                if FileManager.default.fileExists(atPath: generated.path) {
                    args += ["-Xcc", "-fmodule-map-file=\(generated.path)"]
                }
            }
        }
        args += Self.headerSearchFlags(packageRoot: root)
        if parseAsLibrary { args.append("-parse-as-library") }
        if Self.libraryIsInstrumented { args.append("-sanitize=address") }
        args += ["-L", bin.path, "-l\(LibraryLocation.productName)", "-Xlinker", "-rpath", "-Xlinker", bin.path,
                 script, "-o", output]
        return args
    }

    /// Whether this moviemaker, and so the library beside it, was built with AddressSanitizer (`make
    /// sanitize`): a script linked against an instrumented library must be instrumented too, or the
    /// sanitizer's runtime would not be loaded first and the script would stop before its first line.
    /// The runtime is linked into the executable and exports `__asan_init` (RTLD_DEFAULT is a null handle).
    static let libraryIsInstrumented: Bool = dlsym(nil, "__asan_init") != nil

    /// `-I` flags from `pkg-config --cflags-only-I` for every `pkgConfig:` name in Package.swift.
    static func headerSearchFlags(packageRoot: URL) -> [String] {
        guard let manifest = try? String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8) else { return [] }
        let names = manifest.components(separatedBy: "pkgConfig:").dropFirst().compactMap { rest -> String? in
            let parts = rest.split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].allSatisfy(\.isWhitespace) else { return nil }
            return String(parts[1])
        }
        guard !names.isEmpty else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--cflags-only-I"] + names
        process.standardError = FileHandle.nullDevice
        // Under the launch lock, as the studio's compiles and script runs are (see `ProcessLaunch`).
        let started = ProcessLaunch.serialized { () -> Pipe? in
            let pipe = Pipe()
            process.standardOutput = pipe
            return (try? process.run()) != nil ? pipe : nil
        }
        guard let pipe = started else { return [] }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        var seen = Set<String>()
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            .filter { $0.hasPrefix("-I") && seen.insert($0).inserted }
    }

    /// Whether the script has an `@main` type, which needs `-parse-as-library` instead of top-level code.
    static func declaresMain(_ source: String) -> Bool {
        source.split(separator: "\n").contains { $0.drop(while: \.isWhitespace).hasPrefix("@main") }
    }

    /// Size and modification time of a file, or "missing".
    private static func fileStamp(_ url: URL) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return "missing" }
        let size = (attributes[.size] as? Int) ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size)@\(modified)"
    }

    /// Removes cache entries not used for `cacheLifetime`.
    private func pruneCache(keeping current: URL) {
        let folder = cacheFolder.appendingPathComponent("scripts")
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey]) else { return }
        let cutoff = Date().addingTimeInterval(-Self.cacheLifetime)
        for entry in entries where entry.lastPathComponent != current.lastPathComponent {
            if let modified = try? entry.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate, modified < cutoff {
                try? fm.removeItem(at: entry)
            }
        }
    }
}

/// The language mode a script is compiled in (`moviemaker run --swift-version`).
///
/// A script is not a library: its top-level `var`s belong to the main actor in Swift 6 mode, and a
/// drawing closure that reads or changes one fails with "main actor-isolated var … can not be referenced
/// from a nonisolated context". Swift 5 mode with minimal concurrency checking accepts such scripts;
/// Swift 6 mode is there for scripts written to its rules.
enum SwiftLanguageMode: String, CaseIterable {
    /// `-swift-version 5 -strict-concurrency=minimal`.
    case v5 = "5"
    /// `-swift-version 6` (complete concurrency checking, data races are errors).
    case v6 = "6"

    /// The `swiftc` flags that select this mode.
    var compilerFlags: [String] {
        switch self {
        case .v5: return ["-swift-version", "5", "-strict-concurrency=minimal"]
        case .v6: return ["-swift-version", "6"]
        }
    }
}

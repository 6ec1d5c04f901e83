import ArgumentParser
import Dispatch
import Foundation
import MovieMaker
import MovieMakerStudio
import Synchronization

/// `moviemaker studio FILE`: a local page showing the movie while you edit its description.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Preview a description file in the browser: a scrubber, the timeline, exact frames, hot reload, and a render button.",
        discussion: """
            Serves a page on 127.0.0.1 (a free port unless --port is given) and prints its URL. The \
            page shows the frame under the scrubber exactly as the movie will have it (drawn through \
            the same frame-range render path, cached in memory), the tracks and items as a timeline \
            (click a block to go to it; arrow keys step a frame, space plays), the output settings and \
            the template's slots (type a value to fill one), and a button that renders the whole movie \
            beside the description with progress and a link.

            Saving the file reloads the page within a second, keeping its place; a description that \
            is not valid shows its error with the JSON path, and the item at fault is highlighted.

            Nothing listens beyond this machine unless --host is given; then every request must carry \
            the random token printed in the URL. --open launches the default browser (xdg-open). \
            Ctrl-C (or SIGTERM) stops the server, its connections and any render, and exits 0.

            A Swift script (.swift) is compiled as `moviemaker run` compiles it (same cache); its \
            compiler errors, or the line where it stopped, show on the page. Its frames are drawn by \
            running it with MOVIEMAKER_STUDIO_DIR and MOVIEMAKER_STUDIO_MODE set: its first MovieMaker \
            then encodes and writes nothing, draws the frames up to the one asked for and saves that \
            one, so a frame is exactly the movie's. The page shows the script as one block; its sound \
            is heard in the render only. The render button runs the script as `moviemaker run` does.

            Examples:
              moviemaker studio examples/specs/travel.json
              moviemaker studio spec.json --port 8080 --open
              moviemaker studio spec.json --host 0.0.0.0
            """)

    /// The file previewed.
    @Argument(help: ArgumentHelp("The description file (.json), or a Swift script (.swift).", valueName: "file"))
    var file: String

    /// The port.
    @Option(help: ArgumentHelp("The port to listen on (default: a free one).", valueName: "port"))
    var port: Int?

    /// The address to listen on.
    @Option(help: ArgumentHelp("Listen on this address instead of 127.0.0.1 only (e.g. 0.0.0.0): requests must then carry the printed token.", valueName: "address"))
    var host: String?

    /// Open the browser.
    @Flag(help: "Open the page in the default browser (xdg-open).")
    var open = false

    func validate() throws {
        // The studio reads the file again at every save: a pipe would give it once.
        try DescriptionOptions.refuseStandardInput(file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError("\(file): no such file (give a description file, e.g. examples/specs/travel.json)")
        }
        guard ["json", "swift"].contains(URL(fileURLWithPath: file).pathExtension.lowercased()) else {
            throw ValidationError("\(file): give a description file (.json) or a Swift script (.swift)")
        }
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port \(port): give a port from 1 to 65535 (0 picks a free one)") }
        if let host, host.isEmpty { throw ValidationError("--host: give an address, e.g. 0.0.0.0") }
        if let host, !Self.isNumericAddress(host) {
            throw ValidationError("--host \(host): not a valid IP address; give one of this machine's addresses (e.g. 127.0.0.1, 0.0.0.0, ::1) or localhost")
        }
    }

    /// Whether `host` is what the server can listen on: `localhost`, or an IPv4 or IPv6 address in
    /// numeric form (the server does not look names up).
    static func isNumericAddress(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// How long a stop may take before the process exits anyway: the event streams, the render's
    /// clean-up and the connections normally end within a second.
    static let stopGrace: DispatchTimeInterval = .seconds(5)

    func run() throws {
        var configuration = StudioConfiguration(file: URL(fileURLWithPath: file), host: host, port: UInt16(port ?? 0))
        configuration.scriptBuilder = { url in await ScriptCheck.build(url) }
        let server = StudioServer(configuration)
        let outcome = Mutex<(signal: Int32?, error: (any Error)?)>((nil, nil))
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "moviemaker.studio.signals")
        let sources = StopSignal.watch(on: queue) { signal in
            let first = outcome.withLock { state -> Bool in
                guard state.signal == nil else { return false }
                state.signal = signal
                return true
            }
            // A second signal exits at once. `_exit`, not `exit`: the main thread may be in `exit` already
            // (the stop finished as this fired), and two threads in `exit` can hang on its handlers' lock.
            guard first else { fflush(nil); _exit(StopSignal.exitStatus(signal)) }
            // The stop below needs the concurrency pool; should its threads all be held (a bug, or work
            // that does not look at cancellation), the signal must still end the process.
            queue.asyncAfter(deadline: .now() + Self.stopGrace) {
                Terminal.writeError("moviemaker studio: did not stop within 5 s of \(StopSignal.name(signal)); exiting\n")
                fflush(nil)
                _exit(StopSignal.exitStatus(signal))
            }
            Task {
                await server.stop()
                done.signal()
            }
        }
        defer { sources.forEach { $0.cancel() } }
        let shownFile = file, openBrowser = open
        Task {
            do {
                let url = try await server.start()
                let info = await server.startupSummary()
                Terminal.writeError("moviemaker studio: \(shownFile): \(info)\n")
                Terminal.printLine(url.absoluteString)
                Terminal.writeError("moviemaker studio: serving on \(url.absoluteString) (Ctrl-C to stop)\n")
                // Listening on every interface: 0.0.0.0 is no address another machine can open.
                if ["0.0.0.0", "::"].contains(host ?? "") {
                    for address in Self.externalAddresses() {
                        let shown = address.contains(":") ? "[\(address)]" : address
                        Terminal.writeError("moviemaker studio: from other machines: http://\(shown):\(url.port ?? 0)/\(url.query.map { "?\($0)" } ?? "")\n")
                    }
                }
                if openBrowser { Self.openInBrowser(url) }
            } catch {
                outcome.withLock { $0.error = error }
                done.signal()
            }
        }
        done.wait()
        let (signal, error) = outcome.withLock { ($0.signal, $0.error) }
        if let error {
            throw InputError("moviemaker studio could not start: \(error.localizedDescription) (is the port taken? try --port 0)")
        }
        if let signal { Terminal.writeError("moviemaker studio: stopped (\(StopSignal.name(signal)))\n") }
    }

    /// This machine's addresses other than the loopback (IPv4 first), from getifaddrs.
    static func externalAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = [], v6: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let e = entry {
            defer { entry = e.pointee.ifa_next }
            guard let sa = e.pointee.ifa_addr, e.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let family = Int32(sa.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(sa, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("fe80") { continue }   // link-local: needs an interface name to open
            if family == AF_INET { v4.append(text) } else { v6.append(text) }
        }
        return v4 + v6
    }

    /// Opens `url` with xdg-open, saying so when it cannot.
    static func openInBrowser(_ url: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        do { try process.run() } catch {
            Terminal.writeError("moviemaker studio: could not open a browser (xdg-open: \(error.localizedDescription)); open \(url.absoluteString) yourself\n")
        }
    }
}

/// Compiles a Swift script for the studio as `moviemaker run` compiles it (optimised, Swift 5 language
/// mode, into the same cache), capturing the compiler's first error instead of printing it.
enum ScriptCheck {
    /// The executable, or the compiler's first error (file, line, message).
    static func build(_ url: URL) async -> Result<URL, StudioProblem> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: compile(url)) }
        }
    }

    /// `build`, blocking.
    static func compile(_ url: URL) -> Result<URL, StudioProblem> {
        let library: LibraryLocation
        do { library = try LibraryLocation.locate() } catch {
            return .failure(StudioProblem(message: "cannot compile scripts: \(error)", file: url.path, code: "buildFailed"))
        }
        guard let swiftc = ScriptCompiler.findCompiler() else {
            return .failure(StudioProblem(message: "cannot compile scripts: no Swift compiler found (set SWIFTC)", file: url.path, code: "compilerNotFound"))
        }
        let compiler = ScriptCompiler(library: library, swiftc: swiftc, cacheFolder: ScriptCompiler.defaultCacheFolder())
        guard let source = try? Data(contentsOf: url) else {
            return .failure(StudioProblem(message: "cannot read the script", file: url.path, code: "scriptUnreadable"))
        }
        let entry = compiler.cacheEntry(for: url, source: source)
        if FileManager.default.isExecutableFile(atPath: entry.binary.path) { return .success(entry.binary) }
        do {
            try FileManager.default.createDirectory(at: entry.folder, withIntermediateDirectories: true)
        } catch {
            return .failure(StudioProblem(message: "cannot create the cache folder \(entry.folder.path): \(error.localizedDescription)", file: url.path, code: "buildFailed"))
        }
        let partial = entry.folder.appendingPathComponent(".\(entry.binary.lastPathComponent).partial-\(getpid())-\(UUID().uuidString.prefix(8))")
        let process = Process()
        process.executableURL = swiftc
        // Linked as `moviemaker run` links it (the two share the cache entry): the support object included.
        let support: URL
        do { support = try compiler.supportObject(for: url.path) } catch {
            return .failure(StudioProblem(message: "cannot compile scripts: \(error)", file: url.path, code: "buildFailed"))
        }
        process.arguments = compiler.compilerArguments(script: url.standardizedFileURL.path, output: partial.path, parseAsLibrary: entry.parseAsLibrary)
            + ScriptCompiler.supportLinkArguments(support)
        // The pipe made and the compiler started under the launch lock, as the script runs are (see
        // `ProcessLaunch`): the studio compiles while scripts run.
        let errors: Pipe
        do {
            errors = try ProcessLaunch.serialized { () throws(any Error) -> Pipe in
                let pipe = Pipe()
                process.standardError = pipe
                process.standardOutput = pipe
                try process.run()
                return pipe
            }
        } catch {
            return .failure(StudioProblem(message: "cannot start \(swiftc.path): \(error.localizedDescription)", file: url.path, code: "buildFailed"))
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 0 {
            guard rename(partial.path, entry.binary.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: partial)
                return .failure(StudioProblem(message: "cannot move the executable into \(entry.binary.path): \(reason)", file: url.path, code: "buildFailed"))
            }
            return .success(entry.binary)
        }
        try? FileManager.default.removeItem(at: partial)
        // `path:line:column: error: message`
        for line in text.split(separator: "\n") where line.contains(": error: ") {
            let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            if parts.count == 4, let number = Int(parts[1]) {
                let message = parts[3].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "error: ", with: "")
                return .failure(StudioProblem(message: message, file: String(parts[0]), line: number, code: "compileFailed"))
            }
        }
        return .failure(StudioProblem(message: "the script does not compile: " + (text.split(separator: "\n").first.map(String.init) ?? "(no message)"),
                                      file: url.path, code: "compileFailed"))
    }
}

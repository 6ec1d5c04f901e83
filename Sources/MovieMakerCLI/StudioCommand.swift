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

            A Swift script (.swift) is compiled as `moviemaker run` compiles it and its compiler \
            errors (file and line) are shown on the page; previewing a script's frames is not yet \
            supported.

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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError("\(file): no such file (give a description file, e.g. examples/specs/travel.json)")
        }
        guard ["json", "swift"].contains(URL(fileURLWithPath: file).pathExtension.lowercased()) else {
            throw ValidationError("\(file): give a description file (.json) or a Swift script (.swift)")
        }
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port \(port): give a port from 1 to 65535 (0 picks a free one)") }
        if let host, host.isEmpty { throw ValidationError("--host: give an address, e.g. 0.0.0.0") }
    }

    func run() throws {
        var configuration = StudioConfiguration(file: URL(fileURLWithPath: file), host: host, port: UInt16(port ?? 0))
        configuration.scriptCheck = { url in await ScriptCheck.check(url) }
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
            // A second signal exits at once.
            guard first else { Foundation.exit(StopSignal.exitStatus(signal)) }
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

/// Compiles a Swift script for the studio as `moviemaker run` would, capturing the compiler's first error.
enum ScriptCheck {
    /// The compiler's first error (file, line, message), or a note that the script compiles but its frames
    /// cannot be previewed yet.
    static func check(_ url: URL) async -> StudioProblem? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: compile(url)) }
        }
    }

    /// `check`, blocking.
    static func compile(_ url: URL) -> StudioProblem? {
        let library: LibraryLocation
        do { library = try LibraryLocation.locate() } catch {
            return StudioProblem(message: "cannot compile scripts: \(error)", file: url.path, code: "buildFailed")
        }
        guard let swiftc = ScriptCompiler.findCompiler() else {
            return StudioProblem(message: "cannot compile scripts: no Swift compiler found (set SWIFTC)", file: url.path, code: "compilerNotFound")
        }
        let compiler = ScriptCompiler(library: library, swiftc: swiftc, cacheFolder: ScriptCompiler.defaultCacheFolder())
        guard let source = try? String(contentsOf: url, encoding: .utf8) else {
            return StudioProblem(message: "cannot read the script", file: url.path, code: "scriptUnreadable")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-studio-check-\(getpid())")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = swiftc
        process.arguments = compiler.compilerArguments(script: url.path, output: output.path, parseAsLibrary: ScriptCompiler.declaresMain(source))
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        do { try process.run() } catch {
            return StudioProblem(message: "cannot start \(swiftc.path): \(error.localizedDescription)", file: url.path, code: "buildFailed")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 0 {
            return StudioProblem(message: "the script compiles; previewing a script's frames is not yet supported: run it with `moviemaker run \(url.lastPathComponent)`",
                                 file: url.path, code: "notYet")
        }
        // `path:line:column: error: message`
        for line in text.split(separator: "\n") where line.contains(": error: ") {
            let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            if parts.count == 4, let number = Int(parts[1]) {
                let message = parts[3].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "error: ", with: "")
                return StudioProblem(message: message, file: String(parts[0]), line: number, code: "compileFailed")
            }
        }
        return StudioProblem(message: "the script does not compile: " + (text.split(separator: "\n").first.map(String.init) ?? "(no message)"),
                             file: url.path, code: "compileFailed")
    }
}

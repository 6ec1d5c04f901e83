import Dispatch
import FlyingFox
import FlyingSocks
import Foundation
import MovieMaker

/// How `moviemaker studio` serves a file: which file, on which address, and how often it looks for changes.
public struct StudioConfiguration: Sendable {
    /// The description file (`.json`) or Swift script (`.swift`) previewed.
    public var file: URL
    /// The address to listen on; nil listens on 127.0.0.1 only. When set (even to 127.0.0.1), every
    /// request must carry `token`.
    public var host: String?
    /// The port; 0 picks a free one.
    public var port: UInt16
    /// The token requests must carry when `host` is set; nil makes a random one.
    public var token: String?
    /// How often the file and its media are checked for changes.
    public var pollInterval: Duration = .milliseconds(200)
    /// The most bytes of encoded frames kept in memory.
    public var cacheBytes: Int = 256 << 20
    /// Compiles a Swift script as `moviemaker run` does, giving the executable or the compiler's first
    /// error (file and line); the command line sets it. Without it a script cannot be previewed.
    public var scriptBuilder: (@Sendable (URL) async -> Result<URL, StudioProblem>)?

    /// Serves `file` on 127.0.0.1 (a free port unless `port` is given), or on `host` with a token.
    public init(file: URL, host: String? = nil, port: UInt16 = 0) {
        self.file = file; self.host = host; self.port = port
    }
}

/// The studio's server: an HTTP server (`StudioHTTPServer`) answering the page (`StudioHandler`), a watcher that
/// reloads the file when it changes and announces it as a server-sent event, and the project
/// (`StudioProject`: the composition, the frame cache, the render).
///
/// `start()` loads the file, starts listening and returns the page's URL; `stop()` ends the event
/// streams, cancels a render, closes the listening socket and every connection.
public actor StudioServer {
    /// The configuration as given.
    public let configuration: StudioConfiguration
    /// The token requests must carry (set when `configuration.host` is), else nil.
    public nonisolated let token: String?
    /// The previewed file.
    let project: StudioProject
    /// The open event streams.
    let events = StudioEventHub()
    /// The HTTP server, once started.
    private var http: StudioHTTPServer?
    /// The task running the HTTP server.
    private var serving: Task<Void, any Error>?
    /// The task watching the file.
    private var watching: Task<Void, Never>?
    /// The page's URL, once listening.
    public private(set) var url: URL?
    /// The address and port listened on, once listening.
    public private(set) var address: (host: String, port: UInt16)?

    /// A server for `configuration`; nothing is read or opened until `start()`.
    public init(_ configuration: StudioConfiguration) {
        self.configuration = configuration
        token = configuration.host == nil ? nil : (configuration.token ?? Self.randomToken())
        project = StudioProject(file: configuration.file, cacheBytes: configuration.cacheBytes, scriptBuilder: configuration.scriptBuilder)
    }

    /// Loads the file, starts listening and watching, and returns the page's URL (with `?token=` when a
    /// token is needed). Throws when the address cannot be used or the port is taken.
    @discardableResult
    public func start() async throws -> URL {
        if let url { return url }
        await project.reload()
        let handler = StudioHandler(project: project, events: events, assets: try Self.loadAssets(), token: token)
        let host = configuration.host ?? "127.0.0.1"
        let listenHost = host == "localhost" ? "127.0.0.1" : host
        // Binding happens here, so a bad address or a taken port is an error of `start()` at once.
        let server: StudioHTTPServer
        do {
            server = try StudioHTTPServer(host: listenHost, port: configuration.port, handler: handler)
        } catch {
            throw StudioFailure.internal(String(describing: error))
        }
        http = server
        serving = Task { try await server.run() }
        let port: UInt16
        switch server.listeningAddress {
        case let .ip4(ip, p)?: address = (ip, p); port = p
        case let .ip6(ip, p)?: address = (ip, p); port = p
        case .unix?, nil: throw StudioFailure.internal("the server is not listening")
        }
        let shown = listenHost.contains(":") ? "[\(listenHost)]" : listenHost
        var text = "http://\(shown):\(port)/"
        if let token { text += "?token=\(token)" }
        let url = URL(string: text)!
        self.url = url
        startWatching()
        return url
    }

    /// One line about the file as loaded: `320x240 at 30 fps, 35 frames, 1 track`, or its error.
    public func startupSummary() async -> String {
        let info = await project.info()
        if let error = info.error { return "error (shown on the page): \(error.summary)" }
        guard let m = info.movie else { return "not loaded" }
        let fps = m.fps.denominator == 1 ? "\(m.fps.numerator)" : "\(m.fps.numerator)/\(m.fps.denominator)"
        return "\(m.width)x\(m.height) at \(fps) fps, \(m.frameCount) frames, \(m.tracks.count) track\(m.tracks.count == 1 ? "" : "s")"
    }

    /// Waits until the server stops (after `stop()`, or when it fails).
    public func waitUntilStopped() async {
        _ = await serving?.result
    }

    /// Stops watching, ends the event streams, cancels a running render (its partial file is removed),
    /// and closes the server and its connections.
    public func stop() async {
        watching?.cancel()
        watching = nil
        await events.finishAll()
        await project.cancelRender()
        // Script runs drawing frames or proxies: none outlives the studio.
        await StudioProject.onQueue(DispatchQueue.global()) { ScriptRun.stopAll() }
        // Cancelling the serving task closes the listening socket and every connection.
        serving?.cancel()
        _ = await serving?.result
        http = nil
    }

    /// Checks the file (and the media it reads) every `pollInterval`; on a change, reloads and publishes
    /// the event (`reload`, or `error` with the JSON path).
    private func startWatching() {
        let project = self.project, events = self.events, interval = configuration.pollInterval
        watching = Task.detached(priority: .userInitiated) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                if await project.changedOnDisk() {
                    // An editor may write in several steps: wait a moment for the file to settle.
                    try? await Task.sleep(for: .milliseconds(30))
                    let event = await project.reload()
                    await events.publish(event)
                }
            }
        }
    }

    /// The page's files from the package's resources: `index.html`, `studio.css`, `studio.js` (and any
    /// other file there). `MOVIEMAKER_STUDIO_ASSETS` may name another folder (for working on the page).
    static func loadAssets() throws -> [String: Data] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["MOVIEMAKER_STUDIO_ASSETS"], !override.isEmpty {
            folders.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for base in [executable, Bundle.main.bundleURL] {
            folders.append(base.appendingPathComponent("MovieMaker_MovieMakerStudio.resources/Resources"))
        }
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path), names.contains("index.html") else { continue }
            var assets: [String: Data] = [:]
            for name in names where !name.hasPrefix(".") {
                assets[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return assets
        }
        // SwiftPM's accessor also knows the build folder's copy (it stops the process when there is none).
        let bundled = Bundle.module.bundleURL.appendingPathComponent("Resources")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: bundled.path), names.contains("index.html") {
            var assets: [String: Data] = [:]
            for name in names where !name.hasPrefix(".") { assets[name] = try Data(contentsOf: bundled.appendingPathComponent(name)) }
            return assets
        }
        throw StudioFailure.internal("the studio's page (index.html, studio.css, studio.js) is missing: looked in \(folders.map(\.path).joined(separator: ", "))")
    }

    /// 32 random hex digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }
}


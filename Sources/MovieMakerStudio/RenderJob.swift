import Dispatch
import Foundation
import MovieMaker
import Synchronization

/// A whole movie rendered from the page (`POST /api/render`), on its own thread: a description's
/// written beside it as `TimelineComposition.render(to:)` writes, a script's by running the script
/// (`StudioHook`'s render mode) where the script writes it. Either way into a hidden file renamed into
/// place when complete, so a failed or cancelled render leaves the destination as it was. Progress is
/// published as `render` events, at most ten a second.
final class RenderJob: Sendable {
    /// Where the render is.
    struct Status: Codable, Sendable, Equatable {
        /// `running`, `done`, `failed` or `cancelled`.
        var state: String
        /// The movie's file name (beside the description, or where the script writes it).
        var file: String
        /// The link to it (`/files/NAME`), once done, when it is inside the project's folder.
        var link: String?
        /// Frames encoded, and of how many.
        var frames: Int
        var totalFrames: Int
        /// Seconds since the start.
        var elapsed: Double
        /// Why it failed.
        var message: String?
    }

    /// Renders, calling the progress closure, stopping when the token is cancelled.
    private let work: @Sendable (CancellationToken, @escaping @Sendable (RenderProgress) -> Void) throws -> Void
    /// The link the page shows once done, if the movie can be served.
    private let link: String?
    /// The events to publish, in order (one task publishes them one after another).
    private let events: AsyncStream<StudioEvent>.Continuation
    /// Cancels the render.
    private let token = CancellationToken()
    /// The current status.
    private let state: Mutex<Status>
    /// Signalled once when the render has ended (done, failed or cancelled, its partial file removed).
    private let ended = DispatchSemaphore(value: 0)

    /// A job rendering `composition` to `destination` (in the project's folder); `start()` starts it.
    /// With `segmentCache`, an H.264 movie is rendered incrementally: only the segments the last edit
    /// changed are rendered again (`TimelineComposition.renderIncrementally`).
    convenience init(composition: TimelineComposition, destination: URL, segmentCache: URL? = nil,
                     publish: @escaping @Sendable (StudioEvent) async -> Void) {
        let incremental = segmentCache != nil && (composition.encoderSettings.codec ?? .h264) == .h264
            && ["mp4", "mov", "mkv"].contains(destination.pathExtension.lowercased())
        self.init(name: destination.lastPathComponent, totalFrames: composition.frameCount,
                  link: "/files/" + (destination.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""),
                  publish: publish) { token, progress in
            if incremental, let segmentCache {
                _ = try composition.renderIncrementally(to: destination, cache: segmentCache, cancellation: token, progress: progress)
            } else {
                _ = try composition.render(to: destination, cancellation: token, progress: progress)
            }
        }
    }

    /// Where the studio keeps the segments of `file`'s renders: `$XDG_CACHE_HOME/moviemaker/segments/<hash>`
    /// (default `~/.cache/moviemaker`), one folder per description file.
    static func segmentCache(for file: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let root: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            root = URL(fileURLWithPath: xdg).appendingPathComponent("moviemaker")
        } else {
            root = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/moviemaker")
        }
        var hash = SHA256()
        hash.update(Data(file.standardizedFileURL.path.utf8))
        return root.appendingPathComponent("segments").appendingPathComponent(String(hash.hexDigest().prefix(16)))
    }

    /// A job running the compiled `script` (of `file`) in `StudioHook`'s render mode: the script writes its
    /// movie where it always does; progress comes from the `progress` file its first movie writes.
    /// Cancelling kills the script and removes its partial file. The link is given when the movie is
    /// inside the project's `folder` (the studio serves nothing else).
    convenience init(script: ScriptMovie, file: URL, folder: URL, publish: @escaping @Sendable (StudioEvent) async -> Void) {
        let destination = URL(fileURLWithPath: script.movie.path).standardizedFileURL
        let inside = destination.path.hasPrefix(folder.standardizedFileURL.path + "/")
        let relative = inside ? String(destination.path.dropFirst(folder.standardizedFileURL.path.count + 1)) : nil
        self.init(name: inside ? relative! : destination.path, totalFrames: script.movie.frameCount,
                  link: relative.map { "/files/" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "") },
                  publish: publish) { token, progress in
            let started = Date()
            do {
                try ScriptRun.run(script.executable, script: file, mode: "render", timeout: 7 * 24 * 3600) { runFolder in
                    if token.isCancelled { return false }
                    if let text = try? String(contentsOf: runFolder.appendingPathComponent("progress"), encoding: .utf8) {
                        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
                        if fields.count == 2 {
                            progress(RenderProgress(framesEncoded: fields[0], framesAdded: fields[0], totalFrames: fields[1] > 0 ? fields[1] : nil,
                                                    elapsed: Date().timeIntervalSince(started)))
                        }
                    }
                    return true
                }.cleanUp()
            } catch {
                // A killed script cannot remove its own partial file.
                StudioHook.removeStalePartialFiles(in: destination.deletingLastPathComponent())
                throw error
            }
        }
    }

    /// A job named `name` (the movie's file) of `totalFrames` frames, running `work`; `start()` starts it.
    init(name: String, totalFrames: Int, link: String?, publish: @escaping @Sendable (StudioEvent) async -> Void,
         work: @escaping @Sendable (CancellationToken, @escaping @Sendable (RenderProgress) -> Void) throws -> Void) {
        self.work = work
        self.link = link
        let (stream, continuation) = AsyncStream<StudioEvent>.makeStream()
        events = continuation
        Task { for await event in stream { await publish(event) } }
        state = Mutex(Status(state: "running", file: name, link: nil, frames: 0,
                             totalFrames: totalFrames, elapsed: 0, message: nil))
    }

    /// The status now.
    var status: Status { state.withLock { $0 } }
    /// Whether it is still rendering.
    var isRunning: Bool { status.state == "running" }

    /// Starts rendering on a thread of its own.
    func start() {
        let thread = Thread { [self] in self.run() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Cancels the render; it stops at its next frame and removes its partial file.
    func cancel() { token.cancel() }

    /// Waits up to `seconds` for the render to end; true when it has.
    func waitUntilEnded(seconds: Double) async -> Bool {
        let ended = self.ended
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let result = ended.wait(timeout: .now() + seconds) == .success
                if result { ended.signal() }
                continuation.resume(returning: result)
            }
        }
    }

    /// Renders, publishing progress and the outcome.
    private func run() {
        defer { ended.signal() }
        let started = Date()
        let lastSent = Mutex(Date.distantPast)
        do {
            try work(token) { [self] progress in
                let now = Date()
                let send = lastSent.withLock { last -> Bool in
                    guard now.timeIntervalSince(last) >= 0.1 else { return false }
                    last = now
                    return true
                }
                let status = state.withLock { s -> Status in
                    s.frames = progress.framesEncoded
                    s.elapsed = now.timeIntervalSince(started)
                    return s
                }
                if send { announce(status) }
            }
            let status = state.withLock { s -> Status in
                s.state = "done"; s.frames = s.totalFrames; s.elapsed = Date().timeIntervalSince(started)
                s.link = link
                return s
            }
            announce(status)
            events.finish()
        } catch {
            let cancelled = token.isCancelled
            let status = state.withLock { s -> Status in
                s.state = cancelled ? "cancelled" : "failed"
                s.message = cancelled ? "cancelled" : StudioProblem(error).summary
                s.elapsed = Date().timeIntervalSince(started)
                return s
            }
            announce(status)
            events.finish()
        }
    }

    /// Publishes `status` as a `render` event.
    private func announce(_ status: Status) {
        events.yield(StudioEvent(name: "render", json: StudioJSON.text(status)))
    }
}

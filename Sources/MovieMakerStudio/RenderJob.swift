import Dispatch
import Foundation
import MovieMaker
import Synchronization

/// A whole movie rendered from the page (`POST /api/render`), on its own thread, written beside the
/// description as `TimelineComposition.render(to:)` writes: into a hidden file renamed into place when
/// complete, so a failed or cancelled render leaves the destination as it was. Progress is published
/// as `render` events, at most ten a second.
final class RenderJob: Sendable {
    /// Where the render is.
    struct Status: Codable, Sendable, Equatable {
        /// `running`, `done`, `failed` or `cancelled`.
        var state: String
        /// The movie's file name, beside the description.
        var file: String
        /// The link to it (`/files/NAME`), once done.
        var link: String?
        /// Frames encoded, and of how many.
        var frames: Int
        var totalFrames: Int
        /// Seconds since the start.
        var elapsed: Double
        /// Why it failed.
        var message: String?
    }

    /// What is rendered.
    private let composition: TimelineComposition
    /// Where it goes.
    private let destination: URL
    /// The events to publish, in order (one task publishes them one after another).
    private let events: AsyncStream<StudioEvent>.Continuation
    /// Cancels the render.
    private let token = CancellationToken()
    /// The current status.
    private let state: Mutex<Status>
    /// Signalled once when the render has ended (done, failed or cancelled, its partial file removed).
    private let ended = DispatchSemaphore(value: 0)

    /// A job rendering `composition` to `destination`; `start()` starts it.
    init(composition: TimelineComposition, destination: URL, publish: @escaping @Sendable (StudioEvent) async -> Void) {
        self.composition = composition
        self.destination = destination
        let (stream, continuation) = AsyncStream<StudioEvent>.makeStream()
        events = continuation
        Task { for await event in stream { await publish(event) } }
        state = Mutex(Status(state: "running", file: destination.lastPathComponent, link: nil, frames: 0,
                             totalFrames: composition.frameCount, elapsed: 0, message: nil))
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
            try composition.render(to: destination, cancellation: token) { [self] progress in
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
                s.link = "/files/" + (destination.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
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

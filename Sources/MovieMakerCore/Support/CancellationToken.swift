import Synchronization

/// Asks a render to stop: `cancel()` from any thread (a signal handler's queue, a UI, a timeout), and
/// the render that holds the token stops at its next frame, deletes its partial file and throws
/// `MovieMakerError.cancelled`. An existing file at the destination is left untouched.
///
/// <!-- prelude: let clip = Clip.color(.black, duration: 5); let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
/// ```swift
/// let stop = CancellationToken()
/// movie.cancellation = stop
/// DispatchQueue.global().asyncAfter(deadline: .now() + 5) { stop.cancel() }
/// try movie.add(clip)          // throws .cancelled after about 5 s
/// ```
///
/// The token is checked once per frame by the frame scheduler, the encoder pipeline and decoders, so a
/// render stops within about a frame's work of the call. Cancelling cannot be undone.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A token that is not cancelled.
    public init() {}

    /// Asks every render holding this token to stop. Safe from any thread; calling it again does nothing.
    public func cancel() { flag.store(true, ordering: .releasing) }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

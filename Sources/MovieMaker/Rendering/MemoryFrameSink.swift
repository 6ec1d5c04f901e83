import Foundation

/// A frame sink that keeps each frame's pixels in memory, in order: a clip rendered without an encoder,
/// so composition can be checked pixel for pixel (and thumbnails made) without x264.
final class MemoryFrameSink: FrameSink, @unchecked Sendable {
    // @unchecked: `frames` is only appended to by `commit`, which the scheduler calls in order under its
    // lock, and read after the scheduler has finished.
    /// One frame's room: the pixels copied from its canvas.
    final class Slot: @unchecked Sendable {
        // @unchecked: filled by one drawing thread, then handed over through the scheduler's lock.
        var pixels: PixelBuffer?
    }

    /// How many frames may wait to be committed at once.
    let capacity: Int
    /// The frames committed so far, in order.
    private(set) var frames: [PixelBuffer] = []

    /// A sink letting `capacity` frames wait at once.
    init(capacity: Int) { self.capacity = max(1, capacity) }

    func reserve() throws -> Slot { Slot() }
    func fill(_ slot: Slot, from lane: DrawingLane<Void>, index: Int) throws { slot.pixels = lane.canvas.pixels() }
    func commit(_ slot: Slot, index: Int, keepForRepeat: Bool) throws {
        guard let pixels = slot.pixels else { preconditionFailure("frame \(index) committed before it was filled") }
        frames.append(pixels)
    }
    func commitRepeat(_ slot: Slot, index: Int) throws {
        guard let previous = frames.last else { preconditionFailure("frame \(index) repeats a frame that was not committed") }
        frames.append(previous)
    }
    func release(_ slot: Slot) {}
}

extension Clip {
    /// Renders the frames `frames` of the clip (all of them when nil) into memory: exactly the pixels a
    /// movie of `width`×`height` at `rate` would encode (before conversion to YUV), drawn on `background`
    /// (black, as in an opaque movie; `.clear` for a transparent one), on `drawingThreads` threads (0:
    /// one per core, up to 4). The result does not depend on the number of threads or the range: frame
    /// `i` is the same whether rendered alone, in any range, or in a whole movie.
    ///
    /// Every frame is kept, so keep ranges short (a 1080p frame is 8 MB); the clip's media is opened
    /// first and a missing file throws before any frame is drawn. Sounds are not rendered. At most
    /// `videoDecoderLimit` video decoders are open at once (`EncoderSettings.videoDecoderLimit`).
    public func renderFrames(_ frames: Range<Int>? = nil, width: Int, height: Int, rate: FrameRate = 30,
                             background: Color = .black, drawingThreads: Int = 0,
                             cancellation: CancellationToken? = nil,
                             videoDecoderLimit: Int = EncoderSettings.defaultVideoDecoderLimit) throws -> [PixelBuffer] {
        let total = rate.frameCount(for: duration)
        let range = frames ?? 0..<total
        guard range.lowerBound >= 0, range.upperBound <= total else {
            throw MovieMakerError.invalidSetting(.frameRange, value: "\(range.lowerBound)..<\(range.upperBound)",
                                                 expected: "a range within the clip's \(total) frames, 0..<\(total)")
        }
        guard width >= 1, height >= 1 else { throw MovieMakerError.invalidSize(width: width, height: height) }
        let lanes = max(1, min(EncoderSettings.drawingThreads(drawingThreads), range.count))
        let session = try RenderSession(opening: self, width: width, height: height, cancellation: cancellation,
                                        videoDecoderLimit: videoDecoderLimit, drawingThreads: lanes)
        defer { session.close() }
        let drawingLanes = try (0..<lanes).map { _ in DrawingLane(canvas: try Canvas(width: width, height: height)) }
        let sink = MemoryFrameSink(capacity: lanes + 2)
        let clip = self
        let scheduler = FrameScheduler(frames: range, sink: sink, cancellation: cancellation, inFlight: session.framesInFlight) { index, canvas in
            try session.drawFrame(of: clip, index: index, rate: rate, background: background, on: canvas)
        }
        _ = try scheduler.run(lanes: drawingLanes) { _ in }
        return sink.frames
    }
}

import Foundation

/// How far a render has come, reported while frames are added.
public struct RenderProgress: Sendable, Equatable {
    /// Frames the encoder has accepted.
    public let framesEncoded: Int
    /// Frames drawn and handed over so far.
    public let framesAdded: Int
    /// Frames the movie will have, when known (a clip or `addFrames(count:)` tells it, or `expectedFrameCount`).
    public let totalFrames: Int?
    /// Seconds since the first frame was added.
    public let elapsed: Double

    /// Creates a progress report.
    package init(framesEncoded: Int, framesAdded: Int, totalFrames: Int?, elapsed: Double) {
        self.framesEncoded = framesEncoded; self.framesAdded = framesAdded; self.totalFrames = totalFrames; self.elapsed = elapsed
    }
    /// Share done, 0…1, when the total is known.
    public var fractionCompleted: Double? {
        guard let t = totalFrames, t > 0 else { return nil }
        return min(1, Double(framesAdded) / Double(t))
    }
    /// Frames per second so far.
    public var framesPerSecond: Double { elapsed > 0 ? Double(framesAdded) / elapsed : 0 }
    /// Estimated seconds left at the rate so far, when the total is known.
    public var estimatedTimeRemaining: Double? {
        guard let t = totalFrames, framesAdded > 0, elapsed > 0 else { return nil }
        return Double(max(0, t - framesAdded)) / framesPerSecond
    }
}

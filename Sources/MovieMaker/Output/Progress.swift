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
    public init(framesEncoded: Int, framesAdded: Int, totalFrames: Int?, elapsed: Double) {
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

/// What `MovieMaker.finish()` wrote.
public struct MovieSummary: Sendable, Equatable, CustomStringConvertible {
    /// The finished file.
    public let url: URL
    /// Encoded width in pixels.
    public let width: Int
    /// Encoded height in pixels.
    public let height: Int
    /// Number of frames.
    public let frameCount: Int
    /// Frame rate.
    public let frameRate: FrameRate
    /// Exact duration (frames ÷ rate).
    public let duration: Time
    /// File size in bytes.
    public let fileSize: Int
    /// Wall-clock seconds the render took.
    public let renderSeconds: Double

    /// One line: path, size, frames, duration, fps, file size.
    public var description: String {
        let mb = Double(fileSize) / 1_048_576
        return String(format: "%@: %d×%d, %d frames, %.3f s at %@ fps, %.2f MiB, rendered in %.1f s",
                      url.path, width, height, frameCount, duration.seconds, frameRate.description, mb, renderSeconds)
    }
}

import Foundation

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

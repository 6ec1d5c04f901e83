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
    /// What the render waited for and opened (photo waits, where photos were decoded, the most video
    /// decoders open at once), counted for this movie alone; zero for a movie joined from chunks, where
    /// nothing is drawn.
    public let statistics: RenderStatistics
    /// What an animated image was made at when `AnimatedImageSettings.maxFileSize` had it made smaller
    /// (`width`, `height`, `frameCount` and `frameRate` are then the file's); nil otherwise.
    public let fit: AnimatedImageFit?

    /// A summary of `frameCount` frames of `width`×`height` at `frameRate` written to `url`.
    init(url: URL, width: Int, height: Int, frameCount: Int, frameRate: FrameRate, duration: Time, fileSize: Int,
         renderSeconds: Double, statistics: RenderStatistics = RenderStatistics(), fit: AnimatedImageFit? = nil) {
        self.fit = fit
        self.url = url; self.width = width; self.height = height; self.frameCount = frameCount; self.frameRate = frameRate
        self.duration = duration; self.fileSize = fileSize; self.renderSeconds = renderSeconds; self.statistics = statistics
    }

    /// One line: path, size, frames, duration, fps, file size.
    public var description: String {
        let mb = Double(fileSize) / 1_048_576
        return String(format: "%@: %d×%d, %d frames, %.3f s at %@ fps, %.2f MiB, rendered in %.1f s",
                      url.path, width, height, frameCount, duration.seconds, frameRate.description, mb, renderSeconds)
            + (fit.map { " (made smaller to fit: \($0))" } ?? "")
    }
}

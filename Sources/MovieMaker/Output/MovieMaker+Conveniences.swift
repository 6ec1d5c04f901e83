import Foundation

extension MovieMaker {
    /// A movie of `size` (whole pixels: width and height are rounded) at `fps`; the same as
    /// `init(url:width:height:fps:settings:audioSettings:)`.
    public convenience init(url: URL, size: Size, fps: FrameRate = 30, settings: EncoderSettings = EncoderSettings(),
                            audioSettings: AudioSettings? = nil) throws(MovieMakerError) {
        try self.init(url: url, width: Int(size.width.rounded()), height: Int(size.height.rounded()), fps: fps, settings: settings,
                      audioSettings: audioSettings)
    }

    /// Draws frames for `duration` (as many frames as it lasts at the movie's rate, rounded up), one after
    /// another, each starting from the previous frame's pixels: `addFrames(count:_:)` by time.
    public func addFrames(duration: Time, _ draw: (DrawingContext, Frame) throws -> Void) throws {
        try addFrames(count: frameRate.frameCount(for: duration), draw)
    }

    /// Draws frames for `duration`, like `addFrames(count:independent:_:)` by time: with `independent:
    /// true`, on several threads.
    public func addFrames(duration: Time, independent: Bool, _ draw: @escaping @Sendable (DrawingContext, Frame) throws -> Void) throws {
        try addFrames(count: frameRate.frameCount(for: duration), independent: independent, draw)
    }
}

extension Clip {
    /// Writes this clip, with its sounds, as a movie at `url` (`.mp4`, `.mov`, `.mkv`, `.webm`) of
    /// `width`×`height` at `fps`, and returns what was written: a `MovieMaker` made, the clip added and
    /// finished in one call. A failure leaves no file behind (see `MovieMaker`).
    @discardableResult
    public func render(to url: URL, width: Int, height: Int, fps: FrameRate = 30, settings: EncoderSettings = EncoderSettings(),
                       audioSettings: AudioSettings? = nil) throws -> MovieSummary {
        let movie = try MovieMaker(url: url, width: width, height: height, fps: fps, settings: settings, audioSettings: audioSettings)
        do {
            try movie.add(self)
            return try movie.finish()
        } catch {
            movie.cancel()
            throw error
        }
    }
}

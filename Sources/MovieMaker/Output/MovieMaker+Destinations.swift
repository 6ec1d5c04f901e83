import Foundation

// The destinations other than a movie file: a folder of PNG frames and an HLS stream.
extension MovieMaker {
    /// Writes each frame as a PNG file in the folder `folder`: `frame-00001.png`, `frame-00002.png`, …
    ///
    /// With `settings.transparency` the files are RGBA with straight (unpremultiplied) alpha and frames
    /// start transparent; without it they are RGB and frames start black. Any size works, odd ones too.
    /// The frames are written into a hidden folder beside `folder` and renamed into place by `finish()`,
    /// so `folder` holds all of them or none. An existing `folder` must be empty or hold only
    /// `frame-N.png` files from an earlier render; those are replaced. Its parent folder must exist.
    public convenience init(pngSequenceIn folder: URL, width: Int, height: Int, fps: FrameRate = 30,
                            settings: EncoderSettings = EncoderSettings()) throws(MovieMakerError) {
        try self.init(destination: folder, isPNGSequence: true, width: width, height: height, fps: fps, settings: settings, audioSettings: nil)
    }

    /// Writes an HLS stream (VOD) into the folder `folder`: `playlist.m3u8`, the fMP4 (CMAF)
    /// initialisation segment `init.mp4`, and media segments `segment-00000.m4s`, … of `segmentDuration`
    /// each (rounded to whole frames; the last may be shorter), video and sound together. Every segment
    /// starts with an IDR frame, and no other frame is one, so players can start and switch at any
    /// segment. H.264 (or HEVC with `settings.codec`), AAC sound with `audioSettings` or a first sound.
    ///
    /// Like a PNG sequence, the stream is written into a hidden folder beside `folder` and renamed into
    /// place by `finish()`; an existing `folder` must be empty or hold only an earlier stream's files.
    /// With chapters (`setChapters`), a WebVTT chapters file `chapters.vtt` is written beside the playlist.
    public convenience init(hlsIn folder: URL, width: Int, height: Int, fps: FrameRate = 30, segmentDuration: Time = 4,
                            settings: EncoderSettings = EncoderSettings(), audioSettings: AudioSettings? = nil) throws(MovieMakerError) {
        var settings = settings
        settings.hlsSegmentFrames = try Self.segmentFrames(segmentDuration, rate: fps)
        try self.init(destination: folder, isPNGSequence: false, width: width, height: height, fps: fps, settings: settings,
                      audioSettings: audioSettings, hls: true)
    }

    /// An HLS segment of `duration` in whole frames at `rate`; throws for less than one frame or more
    /// than 100000.
    static func segmentFrames(_ duration: Time, rate: FrameRate) throws(MovieMakerError) -> Int {
        let frames = (Double(duration.value) * Double(rate.numerator) / (Double(duration.timescale) * Double(rate.denominator))).rounded()
        guard duration > .zero, frames >= 1, frames <= 100_000 else {
            throw .invalidSetting(.segmentDuration, value: "\(duration.seconds) s",
                                  expected: "at least one frame and at most 100000 frames, e.g. 4 s (Apple's recommended 6 s, or 2 s for low latency)")
        }
        return Int(frames)
    }
}

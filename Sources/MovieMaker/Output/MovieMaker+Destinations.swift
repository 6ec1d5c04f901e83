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

extension MovieMaker {
    /// What the designated initialiser checks before it opens anything (size, rate, settings, the
    /// container and codec the destination's extension and `settings` choose), so `render --check` can
    /// refuse what the render would: the container and video codec.
    package static func checkedFormat(url: URL, isPNGSequence: Bool, width: Int, height: Int, fps: FrameRate, settings: EncoderSettings,
                                      audioSettings: AudioSettings?, hls: Bool) throws(MovieMakerError) -> (Container, VideoCodec) {
        guard width >= 2, height >= 2 else { throw .invalidSize(width: width, height: height) }
        guard width <= Self.maximumSide, height <= Self.maximumSide, width * height <= Self.maximumPixels else {
            throw .sizeTooLarge(width: width, height: height, maxSide: Self.maximumSide, maxPixels: Self.maximumPixels)
        }
        // 4:2:0 codecs (H.264, VP9) store colour at half resolution; PNG and ProRes 4444 take any size.
        let container = hls ? .hls : isPNGSequence ? .pngSequence : Container(fileExtension: url.pathExtension)
        let needsEvenSize = (container.flatMap { try? $0.videoCodec(settings.codec, transparency: settings.transparency, fileExtension: url.pathExtension) })?.needsEvenSize ?? true
        if (width % 2 != 0 || height % 2 != 0) && needsEvenSize && settings.oddSizePolicy == .reject {
            throw .oddSize(width: width, height: height)
        }
        guard fps.numerator <= Int(Int32.max), fps.denominator <= Int(Int32.max) else { throw .invalidFrameRate(fps.description) }
        try settings.validate()
        guard let container else {
            throw .unsupportedContainer(extension: url.pathExtension, supported: Container.supportedExtensions)
        }
        let videoCodec = try container.videoCodec(settings.codec, transparency: settings.transparency, fileExtension: url.pathExtension)
        try settings.validate(for: videoCodec)
        if videoCodec == .av1 && (width < 64 || height < 64) {
            throw .invalidSetting(.videoCodec, value: "av1 at \(width)×\(height)", expected: "a picture at least 64×64 pixels (SVT-AV1's smallest), or another codec")
        }
        if let audioSettings { try audioSettings.validate(for: container.audioCodec()) }
        return (container, videoCodec)
    }
}

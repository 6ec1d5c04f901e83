import CFFmpeg
import CMovieMakerShim
import Foundation

/// The container a movie is written in, chosen from the destination's extension.
public enum Container: String, Sendable, CaseIterable {
    /// MPEG-4 (`.mp4`, `.m4v`): plays in every browser; written with `moov` before `mdat` (faststart).
    case mp4
    /// QuickTime (`.mov`), also with `moov` first. With `EncoderSettings.transparency`, ProRes 4444 with alpha.
    case mov
    /// Matroska (`.mkv`). Its timestamps are whole milliseconds, so 30000/1001 fps is rounded there.
    case mkv
    /// WebM (`.webm`): always VP9, with an alpha channel when `EncoderSettings.transparency` is set.
    case webm
    /// A folder of numbered PNG files (`frame-00001.png`, …), one per frame: see `MovieMaker(pngSequenceIn:…)`.
    case pngSequence

    /// The extensions MovieMaker writes.
    public static let supportedExtensions = ["mp4", "m4v", "mov", "mkv", "webm"]

    /// The container for a file extension (case-insensitive), or nil when none fits.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        default: return nil
        }
    }
    /// libavformat's muxer name.
    var muxerName: String {
        switch self {
        case .mkv: "matroska"
        case .pngSequence: "image2"
        default: rawValue
        }
    }
    /// The codec this container gets, with or without an alpha channel; throws when it cannot hold alpha.
    func videoCodec(transparency: Bool, fileExtension ext: String) throws(MovieMakerError) -> VideoCodec {
        switch (self, transparency) {
        case (.webm, _): return .vp9
        case (.pngSequence, _): return .png
        case (_, false): return .h264
        case (.mov, true): return .proRes4444
        case (.mkv, true): return .vp9
        case (.mp4, true): throw .transparencyUnsupported(extension: ext)
        }
    }
}

/// The video codec a movie is encoded with. MovieMaker picks it from the container and
/// `EncoderSettings.transparency`: H.264 unless an alpha channel or `.webm` asks for another.
public enum VideoCodec: String, Sendable, CaseIterable {
    /// H.264 High profile (x264), yuv420p: the default, plays everywhere, no alpha.
    case h264
    /// Apple ProRes 4444 (prores_ks) in `.mov`, yuva444p10le with a 16-bit alpha plane.
    case proRes4444
    /// VP9 (libvpx) in `.webm`/`.mkv`: yuva420p with transparency, yuv420p without.
    case vp9
    /// PNG images (a numbered sequence): RGBA with straight alpha with transparency, RGB without.
    case png

    /// libavcodec's encoder name.
    var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .proRes4444: "prores_ks"
        case .vp9: "libvpx-vp9"
        case .png: "png"
        }
    }
    /// The pixel format frames are encoded in.
    func pixelFormat(alpha: Bool) -> AVPixelFormat {
        switch self {
        case .h264: AV_PIX_FMT_YUV420P
        case .proRes4444: AV_PIX_FMT_YUVA444P10LE
        case .vp9: alpha ? AV_PIX_FMT_YUVA420P : AV_PIX_FMT_YUV420P
        case .png: alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        }
    }
    /// Whether the stored picture has chroma at half resolution, so width and height must be even.
    var needsEvenSize: Bool { self == .h264 || self == .vp9 }
}

/// x264's speed/size trade-off: slower presets make smaller files at the same quality.
public enum EncoderPreset: String, Sendable, CaseIterable {
    /// Fastest, largest files.
    case ultrafast, superfast, veryfast, faster, fast
    /// x264's default balance.
    case medium
    /// Slower, smaller files.
    case slow, slower, veryslow, placebo
}

/// x264's tuning for a kind of content.
public enum EncoderTune: String, Sendable, CaseIterable {
    /// Live-action film.
    case film
    /// Flat areas and sharp edges: motion graphics, vector drawing.
    case animation
    /// Keeps film grain.
    case grain
    /// Slideshow-like content.
    case stillimage
    /// Cheaper to decode.
    case fastdecode
    /// No frame delay (streaming).
    case zerolatency
}

/// What to do with an odd width or height, which 4:2:0 video cannot store.
public enum OddSizePolicy: Sendable {
    /// Throw `MovieMakerError.oddSize` (the default: the caller decides).
    case reject
    /// Encode one extra black row/column; drawing still sees the requested size.
    case pad
}

/// How the video is encoded. The defaults give a visually lossless H.264 High profile movie.
///
/// The settings are x264's; the other codecs use what fits them. VP9 takes `crf` as its own constant
/// quality (0…63 scale, lower is better), `bitrate`, `keyframeInterval`, `threads`, and `preset` as
/// libvpx's speed (`ultrafast` → realtime cpu-used 8, `medium` → good cpu-used 3, `veryslow` → cpu-used 0).
/// ProRes 4444 takes `threads` and `preset`: up to `medium` a fixed fine quantiser (visually lossless,
/// about 60 dB PSNR, ~10× faster), from `slow` on prores_ks's per-slice search for the profile's
/// nominal bitrate. PNG is lossless and uses none of them.
public struct EncoderSettings: Sendable, Equatable {
    /// Constant rate factor, 0…51: lower is better quality and larger. Ignored when `bitrate` is set.
    public var crf: Int = 18
    /// x264 preset.
    public var preset: EncoderPreset = .medium
    /// Target average bitrate in bits per second; nil uses `crf` (recommended).
    public var bitrate: Int? = nil
    /// The largest distance between keyframes, in frames; nil uses x264's default (250).
    public var keyframeInterval: Int? = nil
    /// x264 tuning; nil for none.
    public var tune: EncoderTune? = nil
    /// What to do with odd frame sizes.
    public var oddSizePolicy: OddSizePolicy = .reject
    /// Frames in flight between drawing and encoding (≥ 2). More smooths uneven frames at the cost of memory.
    public var bufferCount: Int = 3
    /// Encoder threads; 0 lets x264 choose for the machine.
    public var threads: Int = 0
    /// How many clip frames `MovieMaker.add(_:)` draws at once; 0 means one per core, up to 4.
    public var drawingThreads: Int = 0
    /// Writes an alpha channel, and frames start fully transparent instead of black. `.mov` is then
    /// ProRes 4444, `.webm`/`.mkv` VP9 with alpha, a PNG sequence RGBA; `.mp4`/`.m4v` throw
    /// `.transparencyUnsupported` (H.264 has no alpha).
    public var transparency: Bool = false

    /// `drawingThreads` with 0 resolved for this machine.
    var resolvedDrawingThreads: Int {
        drawingThreads > 0 ? drawingThreads : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// The defaults: CRF 18, preset `medium`, no tune.
    public init() {}
    /// Settings with the given values; anything not named keeps its default.
    public init(crf: Int = 18, preset: EncoderPreset = .medium, bitrate: Int? = nil, keyframeInterval: Int? = nil,
                tune: EncoderTune? = nil, oddSizePolicy: OddSizePolicy = .reject, bufferCount: Int = 3, threads: Int = 0,
                drawingThreads: Int = 0, transparency: Bool = false) {
        self.crf = crf; self.preset = preset; self.bitrate = bitrate; self.keyframeInterval = keyframeInterval
        self.tune = tune; self.oddSizePolicy = oddSizePolicy; self.bufferCount = bufferCount; self.threads = threads
        self.drawingThreads = drawingThreads; self.transparency = transparency
    }

    func validate() throws(MovieMakerError) {
        guard (0...51).contains(crf) else { throw .invalidSetting(.crf, value: "\(crf)", expected: "0…51 (18 is visually lossless, 23 is x264's default)") }
        if let b = bitrate, b <= 0 { throw .invalidSetting(.bitrate, value: "\(b)", expected: "a positive number of bits per second, e.g. 8_000_000") }
        if let k = keyframeInterval, k < 1 { throw .invalidSetting(.keyframeInterval, value: "\(k)", expected: "at least 1 frame") }
        guard bufferCount >= 2 else { throw .invalidSetting(.bufferCount, value: "\(bufferCount)", expected: "at least 2 (one drawing, one encoding)") }
        guard drawingThreads >= 0 else { throw .invalidSetting(.drawingThreads, value: "\(drawingThreads)", expected: "0 (one per core) or more") }
        guard threads >= 0 else { throw .invalidSetting(.threads, value: "\(threads)", expected: "0 (automatic) or more") }
    }

    /// Whether ProRes uses one fixed quantiser (presets up to `medium`) rather than searching per slice.
    var usesFixedProResQuantiser: Bool {
        [.ultrafast, .superfast, .veryfast, .faster, .fast, .medium].contains(preset)
    }
    /// The fixed ProRes quantiser (1 is finest): 4 keeps 10-bit pictures near 60 dB PSNR.
    static let proResQuantiser = 4

    /// libvpx's deadline and cpu-used for `preset`: faster presets trade quality for speed as x264's do.
    var vp9Speed: (deadline: String, cpuUsed: Int) {
        switch preset {
        case .ultrafast: ("realtime", 8)
        case .superfast: ("realtime", 7)
        case .veryfast: ("realtime", 6)
        case .faster: ("good", 5)
        case .fast: ("good", 4)
        case .medium: ("good", 3)
        case .slow: ("good", 2)
        case .slower: ("good", 1)
        case .veryslow, .placebo: ("good", 0)
        }
    }
}

/// Video encoder plus muxer for one output file, built from `Muxer` and `Encoder` in the order of
/// FFmpeg's doc/examples/mux.c: allocate the output context; find the video encoder, create its stream
/// and open the encoder (GLOBAL_HEADER first); open the file; optionally create the audio stream and
/// open its encoder (`addAudio`); write the header (`writeHeader`, before the first frame); encode,
/// rescale each packet's timestamps to its stream and hand it to av_interleaved_write_frame; at the
/// end drain the video encoder, then the audio one (`AudioEncoder.finish`), write the trailer and
/// close the file. The owners inside `Muxer` and `Encoder` free everything, also when a step throws.
///
/// With sound, each video frame is followed by the audio up to that frame's end minus a lag (at least
/// the longest end fade of the sounds and 0.1 s), so audio is read in step with the video, memory stays
/// constant however long the movie is, and the muxer interleaves the two.
///
/// We drive x264 through libavcodec's `libx264` wrapper rather than x264's own API: libavcodec turns
/// x264's Annex-B output and SPS/PPS into the MP4 `avcC` box and length-prefixed samples, hands
/// correct pts/dts for B-frames to the muxer, maps our colour tags into x264's VUI, and routes x264's
/// log through av_log. The same send/receive path serves ProRes 4444 (prores_ks), VP9 (libvpx, with
/// its alpha plane) and PNG sequences (the image2 muxer writes one file per packet).
final class VideoEncoder {
    /// The output file: format context, streams, file (owned).
    private let muxer: Muxer
    /// The video encoder (owned).
    private let video: CodecEncoder
    /// The video stream, borrowed: owned by `muxer`'s format context.
    private let borrowedStream: UnsafeMutablePointer<AVStream>
    /// The container written.
    private let container: Container
    /// The frame rate, for the audio position of each frame.
    private let rate: FrameRate
    /// Video frames handed to the encoder so far.
    private var framesEncoded = 0
    /// The audio encoder, once a sound track was added.
    private(set) var audio: AudioEncoder?
    /// The codec frames are encoded with.
    let videoCodec: VideoCodec
    /// The pixel format frames must be in (`makeFrame()` allocates it).
    let framePixelFormat: AVPixelFormat
    /// The encoded picture size.
    private let width: Int32, height: Int32

    /// H.264's pixel format, the default output's.
    static let pixelFormat = AV_PIX_FMT_YUV420P

    /// An encoder writing `path` (for a PNG sequence, a pattern such as `folder/frame-%05d.png`). The
    /// codec follows from `container` and `settings.transparency`; `encoderName` overrides libavcodec's
    /// encoder (for tests of a missing encoder).
    init(path: String, container: Container, width: Int32, height: Int32, rate: FrameRate, settings: EncoderSettings,
         encoderName: String? = nil) throws(MovieMakerError) {
        let videoCodec = try container.videoCodec(transparency: settings.transparency, fileExtension: (path as NSString).pathExtension)
        let alpha = settings.transparency
        self.videoCodec = videoCodec
        self.width = width; self.height = height
        self.container = container; self.rate = rate
        framePixelFormat = videoCodec.pixelFormat(alpha: alpha)
        let encoderName = encoderName ?? videoCodec.encoderName
        // mux.c's add_stream: find the encoder, create the stream, allocate the codec context.
        muxer = try Muxer(path: path, formatName: container.muxerName)
        let codec = try CodecEncoder.find(name: encoderName)
        borrowedStream = try muxer.addStream()
        video = try CodecEncoder(codec: codec)
        let c = video.context
        c.pointee.width = width
        c.pointee.height = height
        c.pointee.pix_fmt = framePixelFormat
        c.pointee.time_base = AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
        c.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.thread_count = Int32(settings.threads)
        if videoCodec == .h264 || videoCodec == .vp9 {
            if let k = settings.keyframeInterval { c.pointee.gop_size = Int32(k) }
            if let b = settings.bitrate { c.pointee.bit_rate = Int64(b) }
        }
        if videoCodec == .proRes4444 && settings.usesFixedProResQuantiser {
            // A fixed quantiser skips prores_ks's search for each slice's quantiser (most of its time).
            c.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            c.pointee.global_quality = Int32(EncoderSettings.proResQuantiser) * FF_QP2LAMBDA
        }
        if videoCodec == .png {
            // PNG holds RGB as drawn: tag it sRGB (BT.709 primaries, sRGB curve), which the PNG
            // encoder writes as an `sRGB` chunk; there is no YUV matrix or range.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
        } else {
            // The colour description: BT.709 primaries, transfer and matrix, limited ("tv") range. libx264
            // writes these into the stream's VUI, prores_ks into its frame headers, libvpx into the VP9
            // colour space; avcodec_parameters_from_context carries them to the container. Alpha is
            // always full range.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_BT709
            c.pointee.colorspace = AVCOL_SPC_BT709
            c.pointee.color_range = AVCOL_RANGE_MPEG
            c.pointee.chroma_sample_location = videoCodec == .h264 ? AVCHROMA_LOC_LEFT : AVCHROMA_LOC_UNSPECIFIED
        }
        // Containers that keep SPS/PPS out of band (MP4, MOV, MKV) need them as extradata: set this
        // before avcodec_open2, as mux.c does.
        if muxer.needsGlobalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try video.open(options: Self.encoderOptions(videoCodec, settings: settings),
                       operation: "avcodec_open2 (\(encoderName) \(width)×\(height) @ \(rate) fps)")
        try video.describe(borrowedStream)
        borrowedStream.pointee.avg_frame_rate = c.pointee.framerate
        borrowedStream.pointee.r_frame_rate = c.pointee.framerate
        borrowedStream.pointee.sample_aspect_ratio = c.pointee.sample_aspect_ratio
        // VP9 with alpha: libvpx encodes the alpha plane as a second VP9 stream carried in each
        // block's BlockAdditions, and the Matroska/WebM muxer writes the track's AlphaMode = 1
        // element itself because the stream's pixel format is yuva420p (demuxers report it as the
        // `alpha_mode` tag). Setting an `alpha_mode` metadata entry as well would only add a
        // duplicate, upper-cased `ALPHA_MODE` tag that hides the demuxer's own.
        // The image2 muxer opens one file per frame itself.
        try muxer.openFile()
    }

    /// Opens an audio encoder for `settings` (validated) and adds its stream. Only before `writeHeader`.
    func addAudio(codec audioCodec: AudioCodec, settings: AudioSettings) throws(MovieMakerError) -> AudioEncoder {
        precondition(!muxer.headerWritten && audio == nil, "the audio stream is added once, before the header")
        // Open the codec before creating the stream, so a failure leaves the format context as it was.
        // Matroska/WebM records Opus's pre-skip as the track's CodecDelay, which demuxers subtract from
        // every timestamp: packets must be stamped with the delay included. MP4/MOV record AAC's
        // priming as an edit list over packets stamped from −1024 instead (and Matroska has no delay
        // field for AAC: its timestamps shift, video's too, keeping them in sync).
        let delayInTimestamps = audioCodec == .opus && (container == .webm || container == .mkv)
        let encoder = try AudioEncoder(codec: audioCodec, settings: settings, globalHeader: muxer.needsGlobalHeader,
                                       delayInTimestamps: delayInTimestamps)
        try encoder.attach(to: muxer)
        audio = encoder
        return encoder
    }

    /// Writes the container header; called once, before the first frame (after any `addAudio`).
    func writeHeader() throws(MovieMakerError) {
        guard !muxer.headerWritten else { return }
        let muxOptions = OwnedDictionary()
        if container == .mp4 || container == .mov {
            // faststart: rewrite the file at the end with `moov` before `mdat`, so browsers can
            // start playing before the whole file has arrived. write_colr: always write the `colr` box.
            muxOptions.set("movflags", "+faststart+write_colr")
            // The edit lists (which hide AAC's priming) count in the movie timescale, by default 1000:
            // the sound track's end would be cut to the millisecond. In samples, it ends exactly.
            if let audio { muxOptions.set("movie_timescale", "\(audio.settings.sampleRate)") }
        }
        try muxer.writeHeader(options: muxOptions, description: container.rawValue)
    }

    /// The codec's private options for `settings`.
    private static func encoderOptions(_ videoCodec: VideoCodec, settings: EncoderSettings) -> OwnedDictionary {
        switch videoCodec {
        case .h264:
            let options = OwnedDictionary([("preset", settings.preset.rawValue)])
            // High profile plays everywhere. CRF 0 is lossless, which only x264's High 4:4:4 Predictive
            // profile can express; x264 picks that itself when no profile is forced.
            if settings.bitrate != nil || settings.crf > 0 { options.set("profile", "high") }
            if settings.bitrate == nil { options.set("crf", "\(settings.crf)") }
            if let tune = settings.tune { options.set("tune", tune.rawValue) }
            return options
        case .proRes4444:
            // Profile 4444 with a 16-bit alpha plane; vendor `apl0` as Apple's encoder writes, which
            // some players check.
            return OwnedDictionary([("profile", "4444"), ("alpha_bits", "16"), ("vendor", "apl0")])
        case .vp9:
            let speed = settings.vp9Speed
            // Constant quality (crf with no target bitrate) unless a bitrate is given; row-based
            // multithreading so `threads` helps at every size.
            let options = OwnedDictionary([("deadline", speed.deadline), ("cpu-used", "\(speed.cpuUsed)"), ("row-mt", "1")])
            if settings.bitrate == nil { options.set("crf", "\(settings.crf)") }
            return options
        case .png:
            return OwnedDictionary()
        }
    }

    /// A frame of the size and pixel format this encoder takes, for the pipeline's pool.
    func makeFrame() throws(MovieMakerError) -> OwnedFrame {
        let frame = try OwnedFrame(width: width, height: height, format: framePixelFormat)
        if videoCodec != .h264 {
            // The PNG and ProRes encoders read the colour tags from each frame, not from the codec
            // context (libx264 and libvpx take the context's).
            let c = video.context.pointee, f = frame.pointer
            f.pointee.color_primaries = c.color_primaries
            f.pointee.color_trc = c.color_trc
            f.pointee.colorspace = c.colorspace
            f.pointee.color_range = c.color_range
        }
        return frame
    }

    /// Encodes one video frame (nil drains the video encoder) and writes every packet ready; after a
    /// frame, encodes the sound up to that frame's end minus the audio lag.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        try writeHeader()
        let muxer = muxer, stream = borrowedStream, timeBase = video.timeBase
        try video.encode(frame) { (packet) throws(MovieMakerError) in try muxer.write(packet, from: timeBase, to: stream) }
        guard frame != nil else { return }
        framesEncoded += 1
        if let audio {
            let lag = audio.sources.refresh()
            try audio.encode(through: audioFrame(atVideoFrame: framesEncoded, audio) - lag)
        }
    }

    /// The audio sample frame at the start of video frame `index`: exact, rounded to the nearest sample.
    private func audioFrame(atVideoFrame index: Int, _ audio: AudioEncoder) -> Int64 {
        audio.settings.format.frame(at: rate.time(ofFrame: index))
    }

    /// Drains the video encoder; with sound, tells the sounds where the movie ends, encodes them up to
    /// exactly the video's duration and drains the audio encoder; then writes the trailer (and the
    /// faststart rewrite) and closes the file.
    func finish() throws(MovieMakerError) {
        try encode(nil)
        if let audio {
            try audio.finish(atFrame: audioFrame(atVideoFrame: framesEncoded, audio))
        }
        try muxer.finish()
    }
}

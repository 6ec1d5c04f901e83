internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// How the video is encoded. The defaults give a visually lossless H.264 High profile movie.
///
/// The settings are x264's; the other codecs use what fits them. HEVC (x265) takes them as x264 does
/// (x265 has the same presets), `crf` on its own scale. AV1 (SVT-AV1) takes `crf` on its 1…63 scale,
/// `bitrate`, `keyframeInterval`, and `preset` as SVT-AV1's preset (`ultrafast` 13, `superfast` 12,
/// `veryfast` 11, `faster` 10, `fast` 9, `medium` 8, `slow` 6, `slower` 4, `veryslow` 2, `placebo` 0).
/// VP9 takes `crf` as its own constant quality (0…63 scale, lower is better), `bitrate`,
/// `keyframeInterval`, `threads`, and `preset` as libvpx's speed (`ultrafast` → realtime cpu-used 8,
/// `medium` → good cpu-used 3, `veryslow` → cpu-used 0).
/// ProRes 4444 takes `threads` and `preset`: up to `medium` a fixed fine quantiser (visually lossless,
/// about 60 dB PSNR, ~10× faster), from `slow` on prores_ks's per-slice search for the profile's
/// nominal bitrate. PNG is lossless and uses none of them.
public struct EncoderSettings: Sendable, Equatable {
    /// The video codec; nil lets the container choose (H.264, or with `transparency` ProRes 4444 in
    /// `.mov` and VP9 in `.webm`/`.mkv`). A codec the container cannot hold throws `.invalidSetting`.
    public var codec: VideoCodec? = nil
    /// Bits per colour sample: 8, or 10 for HEVC and AV1 (for masters an editor grades further: the
    /// encoder's own rounding adds no banding; frames are drawn in 8 bits, so a picture gains no finer
    /// steps than that).
    public var bitDepth: Int = 8
    /// Constant rate factor, on the codec's scale (H.264 and HEVC 0…51, VP9 0…63, AV1 1…63): lower is
    /// better quality and larger. Nil takes the codec's default, which gives about the quality of
    /// H.264's 18 (`VideoCodec`). Ignored when `bitrate` is set.
    public var crf: Int? = nil
    /// x264 preset.
    public var preset: EncoderPreset = .medium
    /// Target average bitrate in bits per second; nil uses `crf` (recommended).
    public var bitrate: Int? = nil
    /// A ceiling on the video bit rate, in bits per second (x264's and x265's VBV `maxrate`) over the
    /// constant quality: what a platform's upload limits ask for (`Platform`). Nil: none.
    public var maxBitrate: Int? = nil
    /// The VBV buffer in bits that `maxBitrate` is measured over (nil: twice `maxBitrate`, two seconds' worth).
    public var bufferSize: Int? = nil
    /// The largest distance between keyframes, in frames; nil uses x264's default (250).
    public var keyframeInterval: Int? = nil
    /// x264 tuning; nil for none.
    public var tune: EncoderTune? = nil
    /// Lossless video: the decoded frames are exactly the frames handed to the encoder (in 4:2:0 YUV),
    /// at several times the size. H.264 is x264's `qp 0` (High 4:4:4 Predictive profile), HEVC x265's
    /// `lossless`, VP9 libvpx's `lossless`; AV1 and ProRes have no lossless mode here and are refused.
    /// Overrides `crf` and `bitrate`. Chunked renders use it to prove that chunking changes nothing
    /// (`DistributedRender`). PNG is lossless anyway; animated WebP is written lossless; GIF ignores it.
    public var lossless: Bool = false
    /// How an animated image (`.gif`, `.apng`, `.webp`) is made: palette, dithering, plays, WebP
    /// quality, the largest file wanted. Movies ignore it.
    public var animatedImage = AnimatedImageSettings()
    /// An HLS stream's segment length in frames: every segment starts with an IDR frame and no other
    /// frame is one (`MovieMaker(hlsIn:…)` sets it).
    var hlsSegmentFrames: Int? = nil
    /// What to do with odd frame sizes.
    public var oddSizePolicy: OddSizePolicy = .reject
    /// Frames in flight between drawing and encoding (≥ 2). More smooths uneven frames at the cost of memory.
    public var bufferCount: Int = 3
    /// Encoder threads; 0 lets x264 choose for the machine.
    public var threads: Int = 0
    /// How many clip frames `MovieMaker.add(_:)` draws at once; 0 means one per core the process may
    /// run on (its CPU affinity: `taskset`, a container's cpuset; see `UsableCores`), up to 4.
    public var drawingThreads: Int = 0
    /// Writes an alpha channel, and frames start fully transparent instead of black. `.mov` is then
    /// ProRes 4444, `.webm`/`.mkv` VP9 with alpha, a PNG sequence RGBA; `.mp4`/`.m4v` throw
    /// `.transparencyUnsupported` (H.264 has no alpha).
    public var transparency: Bool = false
    /// Whether frames the clip tree shows to be the same picture as the frame before are handed to the
    /// encoder again instead of drawn and converted (the movie is the same either way; tests compare).
    package var reusesUnchangedFrames = true
    /// Whether frames whose whole picture is one video's decoded frame go from the decoder to the
    /// encoder in YUV instead of being drawn (colours agree with drawing within rounding; tests compare).
    package var passesVideoThrough = true
    /// How many video decoders a render keeps open at once (2 by default: the clip playing and the
    /// next one, opened ahead of the cut). A composition that shows more videos at once (a 2×2 split
    /// screen) needs this raised; each open 1080p decoder costs about 48 MiB. One clip shown in two
    /// places at once uses a decoder per place while this allows (else one decoder seeks between them).
    public var videoDecoderLimit: Int = EncoderSettings.defaultVideoDecoderLimit
    /// The default `videoDecoderLimit`, 2.
    public static let defaultVideoDecoderLimit = 2

    /// `drawingThreads` with 0 resolved for this machine.
    var resolvedDrawingThreads: Int { Self.drawingThreads(drawingThreads) }

    /// `requested` drawing threads, or for 0 one per core this process may use (`UsableCores`), up to 4.
    static func drawingThreads(_ requested: Int) -> Int {
        requested > 0 ? requested : min(4, UsableCores.count)
    }

    /// The defaults: the container's codec at its default CRF (18 for H.264), preset `medium`, no tune.
    public init() {}
    /// Settings with the given values; anything not named keeps its default.
    public init(crf: Int? = nil, preset: EncoderPreset = .medium, bitrate: Int? = nil, keyframeInterval: Int? = nil,
                tune: EncoderTune? = nil, oddSizePolicy: OddSizePolicy = .reject, bufferCount: Int = 3, threads: Int = 0,
                drawingThreads: Int = 0, transparency: Bool = false) {
        self.crf = crf; self.preset = preset; self.bitrate = bitrate; self.keyframeInterval = keyframeInterval
        self.tune = tune; self.oddSizePolicy = oddSizePolicy; self.bufferCount = bufferCount; self.threads = threads
        self.drawingThreads = drawingThreads; self.transparency = transparency
    }

    /// The settings that decide the encoded bitstream, as one canonical line (`crf=18 preset=medium …`):
    /// the same text exactly when two renders encode alike, whatever their thread counts or buffers.
    /// Part of a chunk's identity (`DistributedRender`).
    var bitstreamDescription: String {
        var parts = [lossless ? "qp=0" : bitrate.map { "bitrate=\($0)" } ?? "crf=\(crf.map(String.init) ?? "default")", "preset=\(preset.rawValue)"]
        if let codec { parts.append("codec=\(codec.rawValue)") }
        if bitDepth != 8 { parts.append("bits=\(bitDepth)") }
        if let keyframeInterval { parts.append("keyint=\(keyframeInterval)") }
        if let tune { parts.append("tune=\(tune.rawValue)") }
        parts.append("odd=\(oddSizePolicy == .reject ? "reject" : "pad")")
        if transparency { parts.append("alpha") }
        if let hlsSegmentFrames { parts.append("hls=\(hlsSegmentFrames)") }
        if let maxBitrate { parts.append("maxrate=\(maxBitrate) bufsize=\(bufferSize ?? 2 * maxBitrate)") }
        if animatedImage != AnimatedImageSettings() { parts.append(animatedImage.bitstreamDescription) }
        return parts.joined(separator: " ")
    }

    /// The CRF `codec` is encoded with: `crf`, or the codec's default.
    package func crf(for codec: VideoCodec) -> Int { crf ?? codec.defaultCRF }

    func validate() throws(MovieMakerError) {
        if let crf, !(0...63).contains(crf) { throw .invalidSetting(.crf, value: "\(crf)", expected: "0…51 for H.264 and HEVC, 0…63 for VP9 and AV1 (18 is visually lossless in H.264, 23 is x264's default)") }
        if let b = bitrate, b <= 0 { throw .invalidSetting(.bitrate, value: "\(b)", expected: "a positive number of bits per second, e.g. 8_000_000") }
        if let m = maxBitrate, m < 10_000 { throw .invalidSetting(.bitrate, value: "maxBitrate \(m)", expected: "a ceiling of at least 10000 bits per second, e.g. 8_000_000") }
        if let b = bufferSize, b < 10_000 { throw .invalidSetting(.bitrate, value: "bufferSize \(b)", expected: "a buffer of at least 10000 bits, e.g. twice maxBitrate") }
        if let k = keyframeInterval, k < 1 { throw .invalidSetting(.keyframeInterval, value: "\(k)", expected: "at least 1 frame") }
        guard bufferCount >= 2 else { throw .invalidSetting(.bufferCount, value: "\(bufferCount)", expected: "at least 2 (one drawing, one encoding)") }
        guard videoDecoderLimit >= 1 else { throw .invalidSetting(.videoDecoderLimit, value: "\(videoDecoderLimit)", expected: "at least 1 video decoder") }
        guard drawingThreads >= 0 else { throw .invalidSetting(.drawingThreads, value: "\(drawingThreads)", expected: "0 (one per core) or more") }
        guard threads >= 0 else { throw .invalidSetting(.threads, value: "\(threads)", expected: "0 (automatic) or more") }
        try animatedImage.validate()
    }

    /// Checks what depends on the codec the movie is written with: the CRF's scale and the bit depth.
    func validate(for codec: VideoCodec) throws(MovieMakerError) {
        try validate()
        if let crf, let range = codec.crfRange, !range.contains(crf) {
            throw .invalidSetting(.crf, value: "\(crf)", expected: codec == .h264 ? "0…51 (18 is visually lossless, 23 is x264's default)"
                                  : "\(range.lowerBound)…\(range.upperBound) for \(codec.messageName) (its default is \(codec.defaultCRF))")
        }
        if lossless, codec == .av1 || codec == .proRes4444 {
            throw .invalidSetting(.videoCodec, value: "lossless \(codec.messageName)", expected: "a codec with a lossless mode: H.264, HEVC or VP9 (or a PNG sequence); \(codec.messageName) has none here")
        }
        guard codec.bitDepths.contains(bitDepth) || (bitDepth == 8 && codec == .proRes4444) else {
            throw .invalidSetting(.bitDepth, value: "\(bitDepth)", expected: "8" + (codec.bitDepths.contains(10) ? " or 10" : "") + " for \(codec.messageName)" + (codec.bitDepths.contains(10) ? "" : "; 10-bit needs hevc or av1"))
        }
    }

    /// SVT-AV1's preset for `preset`: as x264's, faster presets trade quality for speed.
    var av1Preset: Int {
        switch preset {
        case .ultrafast: 13
        case .superfast: 12
        case .veryfast: 11
        case .faster: 10
        case .fast: 9
        case .medium: 8
        case .slow: 6
        case .slower: 4
        case .veryslow: 2
        case .placebo: 0
        }
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

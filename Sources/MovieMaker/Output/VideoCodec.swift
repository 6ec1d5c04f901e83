internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// The video codec a movie is encoded with: `EncoderSettings.codec`, or when that is nil, picked
/// from the container and `EncoderSettings.transparency` (H.264 unless an alpha channel or `.webm`
/// asks for another).
///
/// Each lossy codec reads `EncoderSettings.crf` on its own scale; left out, each takes the default
/// that gives about the quality of H.264's default (CRF 18), measured as PSNR against the drawn frames
/// (docs/OUTPUTS.md has the table): H.264 18, HEVC 19, VP9 26, AV1 30.
public enum VideoCodec: String, Sendable, CaseIterable {
    /// H.264 High profile (x264), yuv420p: the default, plays everywhere, no alpha.
    case h264
    /// HEVC (H.265, x265), 8- or 10-bit 4:2:0, tagged `hvc1` in MP4/MOV so QuickTime and Safari play
    /// it. About as good as H.264 at a smaller size, slower to encode.
    case hevc
    /// AV1 (SVT-AV1), 8- or 10-bit 4:2:0, in `.webm`, `.mp4` or `.mkv`: the smallest files at a given
    /// quality for the web. `EncoderSettings.preset` maps to SVT-AV1's presets (`medium` is 8).
    case av1
    /// Apple ProRes 4444 (prores_ks) in `.mov`, yuva444p10le with a 16-bit alpha plane.
    case proRes4444
    /// VP9 (libvpx) in `.webm`/`.mkv`/`.mp4`: yuva420p with transparency, yuv420p without.
    case vp9
    /// PNG images (a numbered sequence): RGBA with straight alpha with transparency, RGB without.
    case png
    /// An animated GIF (`.gif`): at most 256 colours per frame from a palette chosen by libavfilter's
    /// `palettegen` (`AnimatedImageSettings`), no alpha.
    case gif
    /// An animated PNG (`.apng`): lossless RGB, or RGBA with transparency.
    case apng
    /// An animated WebP (`.webp`, libwebp): lossy at `AnimatedImageSettings.webpQuality`, or lossless
    /// with `EncoderSettings.lossless`; with an alpha channel when `transparency` is set.
    case webp

    /// libavcodec's encoder name.
    var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        case .av1: "libsvtav1"
        case .proRes4444: "prores_ks"
        case .vp9: "libvpx-vp9"
        case .png: "png"
        case .gif: "gif"
        case .apng: "apng"
        case .webp: "libwebp_anim"
        }
    }
    /// The pixel format frames are encoded in.
    func pixelFormat(alpha: Bool, bitDepth: Int = 8) -> AVPixelFormat {
        switch self {
        case .h264: AV_PIX_FMT_YUV420P
        case .hevc, .av1: bitDepth == 10 ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P
        case .proRes4444: AV_PIX_FMT_YUVA444P10LE
        case .vp9: alpha ? AV_PIX_FMT_YUVA420P : AV_PIX_FMT_YUV420P
        case .png, .gif, .apng, .webp: alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        }
    }
    /// Whether the stored picture has chroma at half resolution, so width and height must be even.
    var needsEvenSize: Bool { [.h264, .hevc, .av1, .vp9].contains(self) }
    /// Whether it can keep an alpha channel.
    var holdsAlpha: Bool { [.proRes4444, .vp9, .png, .apng, .webp].contains(self) }
    /// Whether it makes an animated image, encoded from frames kept on disk once the movie ends
    /// (`AnimatedImageEncoder`).
    var isAnimatedImage: Bool { [.gif, .apng, .webp].contains(self) }
    /// The bit depths it is written in.
    package var bitDepths: [Int] {
        switch self {
        case .hevc, .av1: [8, 10]
        case .proRes4444: [10]
        default: [8]
        }
    }

    /// Its constant-quality scale, when it has one.
    package var crfRange: ClosedRange<Int>? {
        switch self {
        case .h264, .hevc: 0...51
        case .vp9: 0...63
        // FFmpeg's SVT-AV1 wrapper takes a CRF of 0 for "none given" and uses SVT's own 35.
        case .av1: 1...63
        case .proRes4444, .png, .gif, .apng, .webp: nil
        }
    }
    /// The CRF used when `EncoderSettings.crf` is nil: about H.264's CRF 18 in quality (PSNR against
    /// the drawn frames, measured by `CodecTests` and in docs/OUTPUTS.md).
    var defaultCRF: Int {
        switch self {
        case .h264: 18
        case .hevc: 19
        case .vp9: 26
        case .av1: 30
        case .proRes4444, .png, .gif, .apng, .webp: 0
        }
    }
}

extension VideoCodec {
    /// Other names people give the codecs (the CLI's `--codec prores`, the encoders' names), lower case.
    package static let aliases: [String: VideoCodec] = ["h265": .hevc, "x265": .hevc, "x264": .h264, "avc": .h264, "prores": .proRes4444,
                                                        "prores4444": .proRes4444, "svt-av1": .av1]

    /// The codec as messages name it: its case name, with the CLI's shorter name beside it where they
    /// differ (`proRes4444 (prores)`), so both a description's author and a `--codec` user recognise it.
    package var messageName: String { self == .proRes4444 ? "proRes4444 (prores)" : rawValue }

    /// The codec `text` names: a case name or an alias, in any case; nil for anything else.
    package static func named(_ text: String) -> VideoCodec? {
        let lowered = text.lowercased()
        return aliases[lowered] ?? allCases.first { $0.rawValue.lowercased() == lowered }
    }
}

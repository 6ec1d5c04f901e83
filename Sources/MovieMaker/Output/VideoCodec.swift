internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

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

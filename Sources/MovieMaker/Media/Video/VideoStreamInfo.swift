internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// What a movie file's video stream says about itself.
public struct VideoStreamInfo: Sendable, Equatable {
    /// Codec name, e.g. `h264`.
    public let codec: String
    /// Profile name, e.g. `High`.
    public let profile: String?
    /// Coded width in pixels.
    public let width: Int
    /// Coded height in pixels.
    public let height: Int
    /// Pixel format name, e.g. `yuv420p`.
    public let pixelFormat: String
    /// The stream's average frame rate.
    public let frameRate: FrameRate?
    /// Colour primaries name, e.g. `bt709`.
    public let colorPrimaries: String
    /// Transfer characteristics name, e.g. `bt709`.
    public let colorTransfer: String
    /// Matrix name, e.g. `bt709`.
    public let colorMatrix: String
    /// Range: `tv` (limited) or `pc` (full).
    public let colorRange: String
    /// The container's name for the format, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public let containerFormat: String
    /// Whether the stream carries an alpha channel (an alpha pixel format such as `yuva444p12le`, or
    /// VP9 flagged with Matroska's `alpha_mode`).
    public let hasAlpha: Bool
}

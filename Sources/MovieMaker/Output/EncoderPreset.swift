internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// x264's speed/size trade-off: slower presets make smaller files at the same quality.
public enum EncoderPreset: String, Sendable, CaseIterable {
    /// Fastest, largest files.
    case ultrafast, superfast, veryfast, faster, fast
    /// x264's default balance.
    case medium
    /// Slower, smaller files.
    case slow, slower, veryslow, placebo
}

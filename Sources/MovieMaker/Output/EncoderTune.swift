internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

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

    /// The tunes x265 also has (HEVC ignores the others).
    static let x265Tunes: Set<EncoderTune> = [.animation, .grain, .fastdecode, .zerolatency]
}

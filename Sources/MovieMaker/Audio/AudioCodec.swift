internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// The codec a movie's sound is encoded with. It follows from the container, as the video codec does:
/// AAC-LC in `.mp4`, `.m4v`, `.mov` and `.mkv`; Opus in `.webm` (WebM allows only Vorbis and Opus).
public enum AudioCodec: String, Sendable, CaseIterable {
    /// AAC Low Complexity, libavcodec's native `aac` encoder: plays everywhere MP4 plays.
    case aac
    /// Opus (libopus), the sound codec of WebM.
    case opus

    /// libavcodec's encoder name.
    var encoderName: String {
        switch self {
        case .aac: "aac"
        case .opus: "libopus"
        }
    }
    /// The bit rates (bits per second, all channels together) the encoder takes for `channels` channels.
    func bitRateRange(channels: Int) -> ClosedRange<Int> {
        switch self {
        // AAC's limit is 6144 bits per channel per 1024-sample frame (288 kb/s per channel at 48 kHz);
        // below 8 kb/s the encoder gives nothing usable.
        case .aac: 8_000...(channels * 256_000)
        // libopus: 6 kb/s (speech) to 256 kb/s per channel.
        case .opus: 6_000...(channels * 256_000)
        }
    }
}

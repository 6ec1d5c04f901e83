internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// The codec a movie's sound is encoded with. It follows from the container, as the video codec does:
/// AAC-LC in `.mp4`, `.m4v`, `.mov` and `.mkv`; Opus in `.webm` (WebM allows only Vorbis and Opus). A
/// sound file (`SoundFileFormat`) may also be MP3, FLAC or 16-bit PCM (WAV).
public enum AudioCodec: String, Sendable, CaseIterable {
    /// AAC Low Complexity, libavcodec's native `aac` encoder: plays everywhere MP4 plays.
    case aac
    /// Opus (libopus), the sound codec of WebM.
    case opus
    /// MP3 (LAME), for `.mp3` sound files: plays everywhere, larger than AAC at the same quality.
    case mp3
    /// FLAC, lossless (16-bit), for `.flac` sound files.
    case flac
    /// 16-bit PCM, uncompressed, for `.wav` sound files.
    case pcm16

    /// libavcodec's encoder name.
    var encoderName: String {
        switch self {
        case .aac: "aac"
        case .opus: "libopus"
        case .mp3: "libmp3lame"
        case .flac: "flac"
        case .pcm16: "pcm_s16le"
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
        // LAME's bit rates for MPEG-1 layer III at 32…48 kHz.
        case .mp3: 32_000...320_000
        // Lossless: the bit rate is whatever the sound needs; any value is accepted and ignored.
        case .flac, .pcm16: 0...Int.max
        }
    }
    /// Whether it is lossless (the bit rate does not apply).
    var isLossless: Bool { self == .flac || self == .pcm16 }
}

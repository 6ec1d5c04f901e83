import Foundation

/// The sound of a file: MP3, AAC/M4A, Ogg Vorbis, Opus, FLAC, WAV, or the audio track of a video file
/// (anything libavformat opens that has an audio stream libavcodec decodes).
///
/// Creating it probes the file at once (opens it, finds the audio stream and its decoder, decodes the
/// first frame, reads the exact duration), so a broken music file fails where it is named, before any
/// frame of a movie is drawn. Each render opens the file again through `makeReader(format:)` and
/// streams it: nothing reads the whole file into memory.
public struct AudioFile: AudioSource, Hashable {
    /// The file.
    public let url: URL
    /// How long the sound lasts, exactly (encoder priming and padding excluded); nil when the file
    /// does not say and its packets carry no durations.
    public let duration: Time?
    /// The codec's name as FFmpeg gives it, e.g. `mp3`, `aac`, `vorbis`, `opus`, `flac`, `pcm_s16le`.
    public var codec: String { info.codec }
    /// The file's own sample rate (sound is resampled to the movie's).
    public var sampleRate: Int { info.sampleRate }
    /// The file's own channel count (mono is duplicated to stereo; more channels are downmixed).
    public var channelCount: Int { info.channelCount }

    let info: AudioStreamInfo

    /// Probes the file at `url`. Throws `.audioUnreadable` (missing, not media, damaged),
    /// `.noAudioStream` (e.g. a silent video) or `.unsupportedAudioCodec`, each naming the file.
    public init(url: URL) throws(MovieMakerError) {
        let decoder = try AudioDecoder(url: url, format: .standard)
        self.url = url
        self.info = decoder.info
        self.duration = decoder.info.duration
    }

    /// Probes the file at `path` (see `init(url:)`).
    public init(path: String) throws(MovieMakerError) {
        try self.init(url: URL(fileURLWithPath: path))
    }

    /// Opens the file for one render, decoding and resampling to `format`.
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try AudioDecoder(url: url, format: format, knownInfo: info)
    }
}

extension AudioFile: SeekableAudioSource {
    /// Opens the file and seeks (sample-exactly) to output frame `frame`.
    func makeReader(format: AudioFormat, startingAtFrame frame: Int64) throws -> any AudioReader {
        let decoder = try AudioDecoder(url: url, format: format, knownInfo: info)
        if frame > 0 { try decoder.seek(toFrame: frame) }
        return decoder
    }
}

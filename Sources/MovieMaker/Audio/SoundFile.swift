internal import CFFmpeg
import Foundation

/// The kinds of sound file MovieMaker writes, chosen from the file's extension.
public enum SoundFileFormat: String, Sendable, CaseIterable {
    /// AAC-LC in an MPEG-4 audio file (`.m4a`): what a movie's sound is, for podcasts and Apple devices.
    case m4a
    /// MP3 (LAME) with a LAME/Xing header giving the encoder's delay and padding, so players play it
    /// without a gap.
    case mp3
    /// Opus in Ogg (`.opus`): the smallest at a given quality.
    case opus
    /// FLAC (`.flac`): lossless, 16-bit.
    case flac
    /// WAV (`.wav`): 16-bit PCM, uncompressed.
    case wav

    /// The format for a file extension (any case), or nil when it is not a sound file MovieMaker writes.
    public init?(fileExtension ext: String) {
        self.init(rawValue: ext.lowercased())
    }

    /// The codec it is encoded with.
    public var codec: AudioCodec {
        switch self {
        case .m4a: .aac
        case .mp3: .mp3
        case .opus: .opus
        case .flac: .flac
        case .wav: .pcm16
        }
    }

    /// libavformat's muxer.
    var muxerName: String {
        switch self {
        case .m4a: "ipod"
        case .mp3: "mp3"
        case .opus: "opus"
        case .flac: "flac"
        case .wav: "wav"
        }
    }
}

/// What writing a sound file wrote.
public struct SoundFileSummary: Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public let url: URL
    /// Its format.
    public let format: SoundFileFormat
    /// How long it plays: exactly the movie's length.
    public let duration: Time
    /// Samples per second.
    public let sampleRate: Int
    /// Channels.
    public let channelCount: Int
    /// Its size in bytes.
    public let fileSize: Int

    /// One line: path, format, length, rate, channels, size.
    public var description: String {
        String(format: "%@: %@, %.3f s, %d Hz, %d channel%@, %.2f MiB", url.path, format.rawValue, duration.seconds, sampleRate, channelCount,
               channelCount == 1 ? "" : "s", Double(fileSize) / 1_048_576)
    }
}

/// Writes placed sounds to a sound file as a movie's sound track is encoded: the same mix, limiter,
/// end fade and stepping (`AudioEncoder.encode(throughVideoFrame:rate:)` after each video frame of a
/// movie of `frameCount` frames at `rate`), so an `.m4a` holds the packets the movie's AAC track holds,
/// and every other format the same samples before its encoder. Written atomically: a failed or
/// cancelled write leaves nothing at `url`.
enum SoundFileWriter {
    static func write(to url: URL, format: SoundFileFormat, settings: AudioSettings, sounds: [(source: any AudioSource, at: Time)],
                      frameCount: Int, rate: FrameRate, cancellation: CancellationToken?) throws(MovieMakerError) -> SoundFileSummary {
        let codec = format.codec
        try settings.validate(for: codec)
        if format == .wav {
            // libavformat's WAV muxer writes a header whose 32-bit sizes wrap past 4 GiB (about 6.2 h of
            // 48 kHz stereo), so readers see a short or broken file: refused before writing, as writeWAV does.
            let length = rate.time(ofFrame: frameCount)
            let dataBytes = settings.format.frame(at: length) * Int64(settings.channelCount * 2)
            guard dataBytes + 36 <= Int64(UInt32.max) else {
                throw .invalidSetting(.wavLength, value: "\(length) (\(dataBytes) bytes of samples)",
                                      expected: "at most 4 GB of samples, the WAV format's limit: write a shorter part, or a .flac (lossless, no such limit)")
            }
        }
        try PartialFiles.writeAtomically(to: url, extension: url.pathExtension) { (temporary) throws(MovieMakerError) in
            // The order of mux.c: output context, encoder opened, stream added, file, header, packets, trailer.
            let muxer = try Muxer(path: temporary.path, formatName: format.muxerName, destination: url.path)
            let encoder = try AudioEncoder(codec: codec, settings: settings, globalHeader: muxer.needsGlobalHeader)
            for sound in sounds { try VideoEncoder.place(sound.source, at: sound.at, on: encoder) }
            try encoder.attach(to: muxer)
            try muxer.openFile()
            let options = format == .m4a ? VideoEncoder.headerOptions(.mp4, audioSampleRate: settings.sampleRate) : OwnedDictionary()
            try muxer.writeHeader(options: options, description: "sound (\(format.rawValue))")
            for frame in 1...max(1, frameCount) where frame <= frameCount {
                if let cancellation, cancellation.isCancelled { throw MovieMakerError.cancelled }
                try encoder.encode(throughVideoFrame: frame, rate: rate)
            }
            try encoder.finish(atVideoFrame: frameCount, rate: rate)
            try muxer.finish()
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return SoundFileSummary(url: url, format: format, duration: rate.time(ofFrame: frameCount), sampleRate: settings.sampleRate,
                                channelCount: settings.channelCount, fileSize: size)
    }
}

extension TimelineComposition {
    /// The sounds a render of this composition plays: the mixed soundtrack from 0 and the picture's own
    /// sounds.
    var placedSounds: [(source: any AudioSource, at: Time)] {
        var sounds: [(source: any AudioSource, at: Time)] = soundtrack.map { [($0, .zero)] } ?? []
        for sound in picture.sounds.map({ $0.limited(from: .zero, until: nil) }) where sound.isHeard {
            sounds.append((sound.heardSource, sound.firstHeard))
        }
        return sounds
    }

    /// Writes the movie's sound alone to `url` — `.m4a`, `.mp3`, `.opus`, `.flac` or `.wav`
    /// (`SoundFileFormat`) — with the same mix, loudness and length (to the sample) as the movie's sound
    /// track. Throws `.unsupportedContainer` for another extension, and `.invalidDescription` when the
    /// description has no sound. Written atomically.
    @discardableResult
    public func renderSound(to url: URL, cancellation: CancellationToken? = nil) throws(MovieMakerError) -> SoundFileSummary {
        guard let format = SoundFileFormat(fileExtension: url.pathExtension) else {
            throw .unsupportedContainer(extension: url.pathExtension, supported: SoundFileFormat.allCases.map(\.rawValue))
        }
        let sounds = placedSounds
        guard !sounds.isEmpty else {
            throw .invalidDescription(.root, "has no sound to write to \(url.lastPathComponent): add an audio track, music, narration or a video with sound")
        }
        let settings = audioSettings ?? AudioSettings()
        try MovieDestination(url: url, isPNGSequence: false).checkFolder()
        return try SoundFileWriter.write(to: url, format: format, settings: settings, sounds: sounds, frameCount: frameCount,
                                         rate: frameRate, cancellation: cancellation)
    }
}

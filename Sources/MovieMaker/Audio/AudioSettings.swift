internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// How a movie's sound is encoded: 48 kHz stereo at 192 kb/s by default. The codec follows from the
/// container (`AudioCodec`): AAC-LC for `.mp4`/`.m4v`/`.mov`/`.mkv`, Opus for `.webm`.
public struct AudioSettings: Sendable, Equatable {
    /// Sample frames per second. AAC takes 8,000…96,000 (the MPEG-4 rates: 44,100, 48,000, …);
    /// Opus 8,000, 12,000, 16,000, 24,000 or 48,000.
    public var sampleRate: Int = 48_000
    /// Channels: 1 (mono), 2 (stereo), or up to 8 in the encoder's standard layouts (6 is 5.1).
    public var channelCount: Int = 2
    /// Target bit rate in bits per second, all channels together.
    public var bitRate: Int = 192_000

    /// Settings with the given values; anything not named keeps its default.
    public init(sampleRate: Int = 48_000, channelCount: Int = 2, bitRate: Int = 192_000) {
        self.sampleRate = sampleRate; self.channelCount = channelCount; self.bitRate = bitRate
    }

    /// The format sources are read in (the sample rate and channel count).
    public var format: AudioFormat { AudioFormat(sampleRate: sampleRate, channelCount: channelCount) }

    /// Throws `.invalidSetting` naming the first value `codec`'s encoder cannot take, or
    /// `.encoderUnavailable` when the encoder is missing.
    func validate(for codec: AudioCodec) throws(MovieMakerError) {
        guard let encoder = avcodec_find_encoder_by_name(codec.encoderName) else { throw .encoderUnavailable(name: codec.encoderName) }
        let rates = Self.supportedSampleRates(encoder)
        guard sampleRate > 0, rates.isEmpty || rates.contains(sampleRate) else {
            let shown = rates.isEmpty ? "a positive number of frames per second" : rates.sorted().map(String.init).joined(separator: ", ")
            throw .invalidSetting(.audioSampleRate, value: "\(sampleRate)", expected: "one of \(shown) for \(codec.rawValue) (48000 is the movie standard)")
        }
        guard (1...8).contains(channelCount), Self.channelLayout(encoder, channelCount) != nil else {
            let counts = (1...8).filter { Self.channelLayout(encoder, $0) != nil }.map(String.init).joined(separator: ", ")
            throw .invalidSetting(.audioChannelCount, value: "\(channelCount)", expected: "one of \(counts) for \(codec.rawValue) (1 is mono, 2 stereo)")
        }
        let range = codec.bitRateRange(channels: channelCount)
        guard range.contains(bitRate) else {
            throw .invalidSetting(.audioBitRate, value: "\(bitRate)", expected: "\(range.lowerBound)…\(range.upperBound) bits per second for \(channelCount)-channel \(codec.rawValue), e.g. 192_000")
        }
    }

    /// The sample rates an encoder lists (empty when it lists none).
    static func supportedSampleRates(_ encoder: UnsafePointer<AVCodec>) -> [Int] {
        var rates: [Int] = []
        if var p = encoder.pointee.supported_samplerates {
            while p.pointee != 0 { rates.append(Int(p.pointee)); p += 1 }
        }
        return rates
    }

    /// The first layout of `count` channels the encoder lists (or the default layout when it lists
    /// none), or nil when it takes no such count. The caller uninitialises the returned layout.
    static func channelLayout(_ encoder: UnsafePointer<AVCodec>, _ count: Int) -> AVChannelLayout? {
        var layout = AVChannelLayout()
        if var p = encoder.pointee.ch_layouts {
            while p.pointee.nb_channels != 0 {
                if p.pointee.nb_channels == Int32(count) {
                    guard av_channel_layout_copy(&layout, p) >= 0 else { return nil }
                    return layout
                }
                p += 1
            }
            return nil
        }
        av_channel_layout_default(&layout, Int32(count))
        return layout
    }
}

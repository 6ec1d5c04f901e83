import Foundation

/// The form sound takes inside MovieMaker: 32-bit float samples, channels interleaved, at a fixed rate.
/// Sample frame `n` (one sample per channel) plays at time `n / sampleRate`, exactly.
public struct AudioFormat: Hashable, Sendable {
    /// Sample frames per second (48,000 by default).
    public var sampleRate: Int
    /// Channels per sample frame (2, stereo, by default; 1 is mono).
    public var channelCount: Int

    /// A format of `sampleRate` frames per second and `channelCount` channels.
    public init(sampleRate: Int = 48_000, channelCount: Int = 2) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    /// 48 kHz stereo, what movies use.
    public static let standard = AudioFormat()

    /// The sample frame that plays at `time` (rounded to the nearest; exact for rational times).
    public func frame(at time: Time) -> Int64 {
        // value · rate / timescale, rounded half away from zero, in integers (times are exact fractions).
        let scaled = time.value * Int64(sampleRate)
        let (q, r) = scaled.quotientAndRemainder(dividingBy: time.timescale)
        if 2 * r.magnitude >= UInt64(time.timescale) { return q + (scaled < 0 ? -1 : 1) }
        return q
    }

    /// The time sample frame `frame` plays at.
    public func time(ofFrame frame: Int64) -> Time {
        Time(value: frame, timescale: Int64(sampleRate))
    }
}

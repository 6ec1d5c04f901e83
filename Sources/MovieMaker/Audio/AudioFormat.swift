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
        // value · rate / timescale, rounded half away from zero, in 128-bit integers (times are exact
        // fractions, and a description's time may have terms near 2^63), clamped to 64 bits.
        let scaled = Int128(time.value) * Int128(sampleRate)
        let (q, r) = scaled.quotientAndRemainder(dividingBy: Int128(time.timescale))
        if 2 * r.magnitude >= UInt128(time.timescale) { return Int64(clamping: q + (scaled < 0 ? -1 : 1)) }
        return Int64(clamping: q)
    }

    /// The time sample frame `frame` plays at.
    public func time(ofFrame frame: Int64) -> Time {
        Time(value: frame, timescale: Int64(sampleRate))
    }
}

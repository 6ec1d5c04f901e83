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

/// A description of sound that can be played from its start: a music file, a mix, a tone made by code.
/// It is a value; `makeReader(format:)` opens what it needs for one render.
public protocol AudioSource: Sendable {
    /// How long the sound lasts, or nil when it lasts as long as it is asked to (a looping bed).
    var duration: Time? { get }
    /// How long before the movie's end the sound wants to know where that end is (to fade out over
    /// it); the writer holds back that much sound. Zero for most sounds.
    var endFadeDuration: Time { get }
    /// Opens the sound for one render, in `format`. Files are opened and checked here, so a broken
    /// file fails before any frame is drawn.
    func makeReader(format: AudioFormat) throws -> any AudioReader
}

extension AudioSource {
    /// Most sounds need not know where the movie ends.
    public var endFadeDuration: Time { .zero }
}

/// One render's worth of a sound: produces its samples in order from time 0. Owns whatever is open
/// (decoders, files); used from one thread at a time.
public protocol AudioReader: AnyObject {
    /// The format samples come in.
    var format: AudioFormat { get }
    /// Writes the next `frameCount` sample frames, interleaved (`format.channelCount` floats per frame),
    /// into `buffer`, which holds at least `frameCount * format.channelCount` floats. Past the sound's end
    /// it writes silence.
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws
    /// Tells the reader, before it has been read that far, that the movie ends at sample frame `frame`
    /// of the reader's own time (counted from its first sample, wherever the sound was placed), so a
    /// sound that runs past it can fade out and stop there.
    func willEnd(atFrame frame: Int64)
}

extension AudioReader {
    /// Most readers ignore the movie's end.
    public func willEnd(atFrame frame: Int64) {}
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Pitch measurement for the tempo tests.
enum PitchMeter {
    /// The frequency of a steady tone in channel `channel` of `samples` (interleaved) over frames
    /// `range`: the rising zero crossings, placed between samples by linear interpolation, fitted by
    /// least squares to crossing k at time t0 + k × period. Over a second or more of a sine this is
    /// accurate to far better than a cent.
    static func frequency(_ samples: [Float], channels: Int, channel: Int = 0, range: Range<Int>, rate: Int = 48_000) -> Double {
        var crossings: [Double] = []
        for n in max(range.lowerBound, 1)..<range.upperBound {
            let a = Double(samples[(n - 1) * channels + channel]), b = Double(samples[n * channels + channel])
            if a < 0 && b >= 0 { crossings.append(Double(n - 1) + a / (a - b)) }
        }
        guard crossings.count > 2 else { return 0 }
        let k = Double(crossings.count)
        let meanK = (k - 1) / 2
        let meanT = crossings.reduce(0, +) / k
        var sxy = 0.0, sxx = 0.0
        for (i, t) in crossings.enumerated() {
            sxy += (Double(i) - meanK) * (t - meanT)
            sxx += (Double(i) - meanK) * (Double(i) - meanK)
        }
        let period = sxy / sxx
        return Double(rate) / period
    }

    /// `f` relative to `reference` in cents (1200 per octave).
    static func cents(_ f: Double, from reference: Double) -> Double { 1200 * log2(f / reference) }
}

@Suite("Tempo sound (atempo, resampling)")
struct TempoSoundTests {
    let format = AudioFormat.standard
    /// 4 s of a 440 Hz sine on both channels.
    let tone = ProceduralSound.tone(frequency: 440, amplitude: 0.5, duration: 4)

    /// Renders `sound` and `extra` frames after its end.
    func render(_ sound: TempoSound, extra: Int = 4800) throws -> (samples: [Float], frames: Int) {
        let frames = Int(format.frame(at: try #require(sound.duration)))
        return (try AudioInTesting.render(sound, frames: frames + extra, format: format), frames)
    }

    @Test("Keeping the pitch: 440 Hz stays within ±5 cents at 1/4×, 1/2×, 2× and 4×; the length is duration ÷ speed to the sample",
          arguments: [Speed(numerator: 1, denominator: 4), Speed(numerator: 1, denominator: 2), Speed(2), Speed(4)])
    func keepsPitch(speed: Speed) throws {
        let sound = TempoSound(tone, speed: speed)
        #expect(sound.duration == speed.outputTime(at: 4))
        let (out, frames) = try render(sound)
        #expect(frames == Int(4 * 48_000 * speed.denominator / speed.numerator))
        // The pitch over the whole output but its first and last 50 ms, on both channels.
        let body = 2400..<(frames - 2400)
        for channel in 0..<2 {
            let f = PitchMeter.frequency(out, channels: 2, channel: channel, range: body)
            let cents = PitchMeter.cents(f, from: 440)
            #expect(abs(cents) <= 5, "at \(speed) channel \(channel): \(f) Hz, \(cents) cents off 440")
        }
        // Silence from the exact end on. Before it, sound up to the end but for what atempo's window
        // placement (WSOLA: up to half a 2048-frame window either way) leaves of the padding after the
        // source: at most 1024 source frames' worth.
        #expect(out[(frames * 2)...].allSatisfy { $0 == 0 }, "nothing after frame \(frames) at \(speed)")
        let silentEnd = frames - 1 - (0..<frames).last { abs(out[$0 * 2]) > 0.01 }!
        #expect(Double(silentEnd) <= 1024 / speed.factor, "\(silentEnd) silent frames before the end at \(speed)")
        // Steady level: atempo's overlap-add neither drops nor doubles the tone (0.5 peak is 0.354 RMS).
        for second in stride(from: 2400, to: frames - 4800, by: 4800) {
            let level = AudioInTesting.rms(out, channels: 2, range: second..<(second + 2400))
            #expect(abs(level - 0.3536) < 0.04, "RMS \(level) at frame \(second), \(speed)")
        }
    }

    @Test("Pitch following the speed: 2× and 4× are one and two octaves up, 1/2× and 1/4× down (±5 cents); exact length",
          arguments: [(Speed(2, keepsPitch: false), 1200.0), (Speed(4, keepsPitch: false), 2400.0),
                      (Speed(0.5, keepsPitch: false), -1200.0), (Speed(0.25, keepsPitch: false), -2400.0)])
    func pitchFollows(speed: Speed, expectedCents: Double) throws {
        let sound = TempoSound(tone, speed: speed)
        let (out, frames) = try render(sound)
        #expect(frames == Int(4 * 48_000 * speed.denominator / speed.numerator))
        let f = PitchMeter.frequency(out, channels: 2, range: 2400..<(frames - 2400))
        let cents = PitchMeter.cents(f, from: 440)
        #expect(abs(cents - expectedCents) <= 5, "at \(speed): \(f) Hz, \(cents) cents from 440")
        #expect(AudioInTesting.rms(out, channels: 2, range: (frames - 480)..<frames) > 0.25)
        #expect(out[(frames * 2)...].allSatisfy { $0 == 0 })
    }

    @Test("An odd ratio (2/3) in range gives the exact length 3/2 × and keeps the pitch")
    func oddRatio() throws {
        let speed = Speed(numerator: 2, denominator: 3)
        let sound = TempoSound(ProceduralSound.tone(frequency: 440, amplitude: 0.5, duration: Time(value: 7, timescale: 3)), speed: speed)
        #expect(sound.duration == Time(value: 7, timescale: 2))
        let (out, frames) = try render(sound)
        #expect(frames == 168_000)
        let f = PitchMeter.frequency(out, channels: 2, range: 2400..<(frames - 2400))
        #expect(abs(PitchMeter.cents(f, from: 440)) <= 5, "\(f) Hz")
        #expect(out[(frames * 2)...].allSatisfy { $0 == 0 })
    }

    @Test("Pitch following: a click at source frame 48 000 comes out at frame 48 000 ÷ speed (±2 frames)")
    func resampledClickLandsInPlace() throws {
        // 2 s of silence but for a click decaying over 1 ms from frame 48 000.
        let padded = FunctionSound(frames: 96_000) { n in n >= 48_000 ? Float(0.8 * exp(-Double(n - 48_000) / 8)) : 0 }
        for speed in [Speed(2, keepsPitch: false), Speed(0.5, keepsPitch: false)] {
            let out = try AudioInTesting.render(TempoSound(padded, speed: speed), frames: Int(96_000 / speed.factor), format: format)
            let peak = (0..<(out.count / 2)).max { abs(out[$0 * 2]) < abs(out[$1 * 2]) }!
            let expected = Int(48_000 / speed.factor)
            #expect(abs(peak - expected) <= 2, "peak at \(peak), expected \(expected) at \(speed)")
        }
    }

    /// atempo places each 2048-frame window (at 48 kHz) where it best continues the previous one
    /// (WSOLA), up to half a window either way, so a transient moves by up to about a window of source time.
    @Test("Keeping the pitch: a click at source second 1 comes out within one atempo window (2048 source frames) of second 1 ÷ speed")
    func stretchedClickLandsNearItsPlace() throws {
        let padded = FunctionSound(frames: 96_000) { n in n >= 48_000 ? Float(0.8 * exp(-Double(n - 48_000) / 48)) : 0 }
        for speed in [Speed(2), Speed(0.5)] {
            let out = try AudioInTesting.render(TempoSound(padded, speed: speed), frames: Int(96_000 / speed.factor), format: format)
            let peak = (0..<(out.count / 2)).max { abs(out[$0 * 2]) < abs(out[$1 * 2]) }!
            let sourceFrame = Double(peak) * speed.factor
            #expect(abs(sourceFrame - 48_000) <= 2048, "peak at output frame \(peak) (source frame \(sourceFrame)), expected \(48_000 / speed.factor) at \(speed)")
        }
    }

    @Test("Starting part-way opens the source at frame × speed: with the pitch following, the same samples as reading from the start")
    func seekingMatchesReadingThrough() throws {
        let chirp = ProceduralSound(duration: 3) { t in 0.5 * sin(2 * .pi * (200 * t + 150 * t * t)) }
        let sound = TempoSound(chirp, speed: Speed(numerator: 3, denominator: 2, keepsPitch: false))
        let whole = try AudioInTesting.render(sound, frames: 96_000, format: format)
        // Output frame 30 000 is source frame 45 000 exactly (a start between source frames is
        // rounded to the nearest one, up to half a source frame early or late).
        let start = 30_000
        let part = try AudioInTesting.render(sound, frames: 96_000 - start, format: format, startingAt: Int64(start))
        // After the resampler has settled (its filter reaches 32 taps either side), sample for sample.
        var worst: Float = 0
        for n in 200..<(96_000 - start) { worst = max(worst, abs(part[n * 2] - whole[(start + n) * 2])) }
        #expect(worst < 1e-3, "largest difference \(worst)")
        // Past the end: silence, and a reader started there is silent.
        let late = try AudioInTesting.render(sound, frames: 100, format: format, startingAt: 96_000)
        #expect(late.allSatisfy { $0 == 0 })
    }

    @Test("Starting part-way with the pitch kept: still 440 Hz, and it ends at the same frame")
    func seekingKeepsPitchAndLength() throws {
        let sound = TempoSound(tone, speed: Speed(2))
        let start = 40_000
        let part = try AudioInTesting.render(sound, frames: 96_000 - start + 2400, format: format, startingAt: Int64(start))
        let f = PitchMeter.frequency(part, channels: 2, range: 2400..<(96_000 - start - 2400))
        #expect(abs(PitchMeter.cents(f, from: 440)) <= 5, "\(f) Hz")
        let silentEnd = (96_000 - start) - 1 - (0..<(96_000 - start)).last { abs(part[$0 * 2]) > 0.01 }!
        #expect(silentEnd <= 512, "\(silentEnd) silent frames before the end")
        #expect(part[((96_000 - start) * 2)...].allSatisfy { $0 == 0 })
    }

    @Test("A sound file at 1/2×, from its start and from part-way (the file seeks): 440 Hz, exact end")
    func soundFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("tone.wav")
        try ProceduralSound.tone(frequency: 440, amplitude: 0.5, duration: 3).writeWAV(to: url, format: format, sampleFormat: .float32)
        let sound = TempoSound(try AudioFile(url: url), speed: Speed(0.5))
        #expect(sound.duration == 6)
        for start in [0, 100_001] {
            let frames = 288_000 - start
            let out = try AudioInTesting.render(sound, frames: frames + 2400, format: format, startingAt: Int64(start))
            let f = PitchMeter.frequency(out, channels: 2, range: 2400..<(frames - 2400))
            #expect(abs(PitchMeter.cents(f, from: 440)) <= 5, "\(f) Hz from frame \(start)")
            #expect(out[(frames * 2)...].allSatisfy { $0 == 0 })
            let silentEnd = frames - 1 - (0..<frames).last { abs(out[$0 * 2]) > 0.01 }!
            #expect(silentEnd <= 2048, "\(silentEnd) silent frames before the end from frame \(start)")
        }
    }

    @Test("Normal speed is the source itself; a source without an end plays on")
    func normalSpeedAndEndless() throws {
        let source = ProceduralSound.tone(frequency: 440, duration: 1)
        let same = try AudioInTesting.render(TempoSound(source, speed: .normal), frames: 50_000, format: format)
        #expect(same == (try AudioInTesting.render(source, frames: 50_000, format: format)))
        let endless = TempoSound(ProceduralSound.tone(frequency: 440), speed: Speed(2))
        #expect(endless.duration == nil)
        let out = try AudioInTesting.render(endless, frames: 200_000, format: format)
        #expect(AudioInTesting.rms(out, channels: 2, range: 190_000..<200_000) > 0.3)
    }

    @Test("Mono and 44.1 kHz work too (the graph follows the format)")
    func otherFormats() throws {
        let mono = AudioFormat(sampleRate: 44_100, channelCount: 1)
        let sound = TempoSound(tone, speed: Speed(2))
        let frames = Int(mono.frame(at: 2))
        let out = try AudioInTesting.render(sound, frames: frames + 1000, format: mono)
        let f = PitchMeter.frequency(out, channels: 1, range: 2205..<(frames - 2205), rate: 44_100)
        #expect(abs(PitchMeter.cents(f, from: 440)) <= 5, "\(f) Hz")
        #expect(out[frames...].allSatisfy { $0 == 0 })
    }

    @Test("Speeds outside 1/4…4 are refused, naming the speed")
    func refusesSpeedsOutOfRange() throws {
        for speed in [Speed(numerator: 1, denominator: 5), Speed(5)] {
            let error = #expect(throws: MovieMakerError.self) { try TempoSound(tone, speed: speed).makeReader(format: format) }
            #expect(error?.code == .invalidSetting)
            #expect(error?.setting == .audioSpeed)
            #expect(error?.message.contains("\(speed)") == true)
        }
    }

    @Test("The filter chain: atempo stages of at least 1/2, or resampling by the exact ratio")
    func filterDescriptions() {
        #expect(TempoSound.filterDescription(speed: Speed(2), sampleRate: 48_000) == "atempo=2.0")
        #expect(TempoSound.filterDescription(speed: Speed(0.25), sampleRate: 48_000) == "atempo=0.5,atempo=0.5")
        #expect(TempoSound.filterDescription(speed: Speed(0.3), sampleRate: 48_000) == "atempo=0.5,atempo=0.6")
        #expect(TempoSound.filterDescription(speed: Speed(numerator: 2, denominator: 3, keepsPitch: false), sampleRate: 48_000)
                == "asetrate=96000,aresample=144000,asetrate=48000")
    }
}

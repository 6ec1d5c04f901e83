import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// An AudioSource that records what its readers were told, and can fail after some frames.
private final class ProbeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _ends: [Int64] = []
    var ends: [Int64] { lock.withLock { _ends } }
    func record(_ frame: Int64) { lock.withLock { _ends.append(frame) } }
}

private struct ProbeSound: AudioSource {
    let duration: Time?
    let log = ProbeLog()
    var failAfterFrames: Int64? = nil
    func makeReader(format: AudioFormat) throws -> any AudioReader { ProbeReader(format: format, log: log, failAfter: failAfterFrames) }
}

private final class ProbeReader: AudioReader {
    let format: AudioFormat
    let log: ProbeLog
    let failAfter: Int64?
    var position: Int64 = 0
    init(format: AudioFormat, log: ProbeLog, failAfter: Int64?) { self.format = format; self.log = log; self.failAfter = failAfter }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        if let failAfter, position + Int64(frameCount) > failAfter {
            throw MovieMakerError.audioUnreadable(path: "probe.wav", reason: "simulated read error")
        }
        for i in 0..<frameCount * format.channelCount { buffer[i] = 0.25 }
        position += Int64(frameCount)
    }
    func willEnd(atFrame frame: Int64) { log.record(frame) }
}

@Suite("Audio mix, procedural sound, limiter, WAV")
struct AudioMixTests {
    let rate = 48_000

    @Test("a film's sound track: its clips' sounds first, as the sidechain under ducked music, for exactly the film's length")
    func soundOfAFilm() throws {
        let voice = FunctionSound.sine(seconds: 1)
        let film = Clip.color(.black, duration: 2).withSound(voice, at: Time(value: 1, timescale: 2))
        let music = AudioMix.Track(FunctionSound.constant, role: .ducked)
        let mix = AudioMix(soundOf: film, adding: [music], normalizedTo: -16)
        #expect(mix.duration == 2)
        #expect(mix.loudnessTarget == -16)
        #expect(mix.tracks.map(\.role) == [AudioMix.Track.Role.sidechain, .ducked])
        #expect(mix.tracks.map(\.start) == [Time(value: 1, timescale: 2), .zero])

        // Without ducked music the clips' sounds play unaffected, and nothing is normalised unless asked.
        let plain = AudioMix(soundOf: film, adding: [AudioMix.Track(FunctionSound.constant, role: .unaffected)])
        #expect(plain.tracks.map(\.role) == [AudioMix.Track.Role.unaffected, .unaffected])
        #expect(plain.loudnessTarget == nil)

        // The picture without its sound, so the mix is not heard twice.
        #expect(film.withoutSounds().sounds.isEmpty)
        #expect(film.withoutSounds().duration == film.duration)
    }

    @Test("a film whose sound starts before it (attached at a negative time) is heard from the film's start, not refused")
    func soundOfAFilmStartingBeforeIt() throws {
        let film = Clip.color(.black, duration: 1).withSound(FunctionSound.constant, at: -0.5)
        let mix = AudioMix(soundOf: film)
        #expect(mix.tracks.map(\.start) == [.zero])
        let heard = try MixTestTools.samples(of: mix, frames: 48_000, chunk: 4096)
        // Cut where the film starts: a 10 ms rise, then the sound at its level (under the mix's limiter)
        // until the film's end.
        let level = heard[47_000]
        #expect(level > 0.5, "\(level)")
        #expect(abs(heard[0]) < 0.01 * level && abs(heard[1_000] - level) < 1e-4, "\(heard[0]) \(heard[1_000]) \(level)")
    }

    // MARK: Procedural sound

    @Test func toneIsExactAndContinuousAcrossChunkSizes() throws {
        let tone = ProceduralSound.tone(frequency: 1000, amplitude: 0.25, duration: 1)
        let frames = 20_000
        let whole = try MixTestTools.samples(of: tone, frames: frames, chunk: 4096)
        for chunk in [1, 7, 4096, 333] {
            let other = try MixTestTools.samples(of: tone, frames: frames, chunk: chunk)
            #expect(other == whole, "reading in \(chunk)-frame chunks changed the samples")
        }
        // Exact: sample n is 0.25·sin(2π·1000·n/48000), the same on both channels.
        var maxError = 0.0
        for n in 0..<frames {
            let expected = 0.25 * sin(2 * Double.pi * Double(n % 48) / 48)
            maxError = max(maxError, abs(Double(whole[2 * n]) - expected), abs(Double(whole[2 * n + 1]) - expected))
        }
        #expect(maxError < 1e-7)
        #expect(abs(Double(whole.max()!) - 0.25) < 1e-7)
        // 1000 Hz: 2 × 1000 zero crossings per second, from upward crossings counted on the left channel.
        var ups = 0
        for n in 1..<frames where whole[2 * (n - 1)] < 0 && whole[2 * n] >= 0 { ups += 1 }
        #expect(ups == frames / 48)
        // The sound ends after its duration: silence from frame 48 000.
        let tail = try MixTestTools.samples(of: tone, frames: 50_000, chunk: 777)
        #expect(tail[(2 * 48_000)...].allSatisfy { $0 == 0 })
        #expect(tail[2 * 47_999 + 0] != 0 || tail[2 * 47_998] != 0)
    }

    @Test func toneAtAnyFrequencyMatchesTheFormula() throws {
        let f = 440.5
        let x = try MixTestTools.samples(of: ProceduralSound.tone(frequency: f, amplitude: 0.7, phase: 0.3),
                                         frames: 9_000, format: AudioFormat(sampleRate: 44_100, channelCount: 1), chunk: 7)
        for n in stride(from: 0, to: 9_000, by: 37) {
            #expect(abs(Double(x[n]) - 0.7 * sin(2 * .pi * f * Double(n) / 44_100 + 0.3)) < 1e-6)
        }
    }

    @Test func beepsStartAtTheExactSample() throws {
        // An interval that is not a whole number of samples: 17 frames of 29.97 fps = 27 227.2 samples.
        let interval = Time(value: 17 * 1001, timescale: 30_000)
        let beeps = ProceduralSound.beeps(frequency: 1000, every: interval, length: 0.05, amplitude: 0.5)
        let frames = 48_000 * 3
        for chunk in [4096, 1000] {
            let x = try MixTestTools.samples(of: beeps, frames: frames, chunk: chunk)
            var k: Int64 = 0
            while true {
                // round(k · 17017/30000 · 48000) in integers.
                let num = k * 17_017 * 48_000
                let onset = Int((num + 15_000) / 30_000)
                if onset >= frames { break }
                if onset > 0 { #expect(x[2 * (onset - 1)] == 0, "beep \(k): sound before its onset \(onset)") }
                #expect(x[2 * onset] != 0, "beep \(k): silent at its onset \(onset)")
                #expect(x[2 * onset + 1] == x[2 * onset])
                // Full level after the 1 ms ramp; silent after its 50 ms.
                let peak = (onset + 48..<onset + 2_300).map { abs(x[2 * $0]) }.max()!
                #expect(abs(peak - 0.5) < 1e-3)
                #expect(x[(2 * (onset + 2_400))..<(2 * min(onset + 27_000, frames))].allSatisfy { $0 == 0 })
                k += 1
            }
            #expect(k == 6)
        }
        // A single beep, and a click whose first sample is its full amplitude.
        let one = try MixTestTools.samples(of: ProceduralSound.beep(at: 0.25), frames: 24_000)
        #expect(one[2 * 11_999] == 0 && one[2 * 12_000] != 0)
        let click = try MixTestTools.samples(of: ProceduralSound.click(at: Time(value: 1, timescale: 3), amplitude: 0.8), frames: 24_000)
        #expect(click[2 * 15_999] == 0 && click[2 * 16_000] == 0.8 && click[2 * 16_001] < 0.8 && click[2 * 16_001] > 0)
        #expect(ProceduralSound.beep(at: 2, length: 0.5).duration == Time(seconds: 2.5))
    }

    @Test func clicksFollowTheirInterval() throws {
        let x = try MixTestTools.samples(of: ProceduralSound.clicks(every: 0.5, amplitude: 0.6), frames: 48_000 * 2, chunk: 999)
        let onsets = (0..<48_000 * 2).filter { x[2 * $0] == Float(0.6) }
        #expect(onsets == [0, 24_000, 48_000, 72_000])
    }

    @Test func noiseIsDeterministicBySeed() throws {
        let frames = 48_000
        for color in [ProceduralSound.NoiseColor.white, .pink] {
            let a = try MixTestTools.samples(of: ProceduralSound.noise(seed: 7, amplitude: 0.5, color: color), frames: frames, chunk: 4096)
            let b = try MixTestTools.samples(of: ProceduralSound.noise(seed: 7, amplitude: 0.5, color: color), frames: frames, chunk: 7)
            let c = try MixTestTools.samples(of: ProceduralSound.noise(seed: 8, amplitude: 0.5, color: color), frames: frames)
            #expect(a == b, "\(color) noise: same seed, different chunks, different samples")
            #expect(a != c, "\(color) noise: different seeds, same samples")
            // RMS: amplitude/√3 for both colours.
            let rms = (a.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(a.count)).squareRoot()
            #expect(abs(rms / (0.5 / 3.0.squareRoot()) - 1) < (color == .white ? 0.02 : 0.15), "\(color) RMS \(rms)")
            // Neighbouring samples: independent for white, strongly correlated for pink; channels independent.
            var lag = 0.0, cross = 0.0, energy = 0.0
            for n in 1..<frames {
                lag += Double(a[2 * n]) * Double(a[2 * (n - 1)])
                cross += Double(a[2 * n]) * Double(a[2 * n + 1])
                energy += Double(a[2 * n]) * Double(a[2 * n])
            }
            if color == .white {
                #expect(abs(lag / energy) < 0.03)
                #expect(a.allSatisfy { abs($0) <= 0.5 })
            } else {
                #expect(lag / energy > 0.5)
            }
            #expect(abs(cross / energy) < 0.1)
        }
    }

    @Test func signalClosureComputesTimeFromTheIndex() throws {
        let s = ProceduralSound(duration: 1) { t in t }
        let x = try MixTestTools.samples(of: s, frames: 48_010, format: AudioFormat(sampleRate: 48_000, channelCount: 1), chunk: 13)
        #expect(x[0] == 0 && x[24_000] == 0.5 && x[47_999] == Float(47_999.0 / 48_000))
        #expect(x[48_000] == 0)
    }

    @Test func badSettingsAreNamedErrors() {
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "" } catch { return "\(error)" }
        }
        #expect(message { _ = try ProceduralSound.tone(frequency: 30_000).makeReader(format: .standard) }.contains("30000.0 Hz"))
        #expect(message { _ = try ProceduralSound.beeps(every: 0).makeReader(format: .standard) }.contains("interval"))
        #expect(message { _ = try ProceduralSound.noise(amplitude: .nan).makeReader(format: .standard) }.contains("amplitude"))
        #expect(message { _ = try ProceduralSound.silence.makeReader(format: AudioFormat(sampleRate: 0)) }.contains("sample rate"))
        #expect(message { _ = try AudioMix([.init(ProceduralSound.silence, gain: .infinity)]).makeReader(format: .standard) }.contains("gain of track 0"))
        #expect(message { _ = try AudioMix(limiter: Limiter(ceiling: 3)).makeReader(format: .standard) }.contains("limiter ceiling"))
        #expect(message { _ = try AudioMix(ducking: .init(depth: -3)).makeReader(format: .standard) }.contains("ducking depth"))
        // Normalisation measures the whole mix first: an endless mix cannot be normalised.
        let endless = AudioMix([.init(ProceduralSound.tone(frequency: 440))]).normalized(to: -16)
        #expect(message { _ = try endless.makeReader(format: .standard) }.contains("loudness normalisation"))
        #expect(message { _ = try AudioMix().normalized(to: 5).makeReader(format: .standard) }.contains("loudness target"))
    }

    // MARK: Mix

    @Test func mixSumsExactlyBelowTheLimiterThreshold() throws {
        let a = ProceduralSound.tone(frequency: 440, amplitude: 0.2, duration: 2)
        let b = ProceduralSound.noise(seed: 5, amplitude: 0.1, duration: 1)
        let c = ProceduralSound.tone(frequency: 97, amplitude: 0.3, duration: 1)
        var mix = AudioMix()
        mix.add(a, gain: -6)
        mix.add(b, at: Time(value: 1, timescale: 3))
        mix.add(c, at: Time(seconds: 0.75), gain: 3)
        #expect(mix.duration == Time(seconds: 2))
        let frames = 48_000 * 2 + 100
        let x = try MixTestTools.samples(of: mix, frames: frames, chunk: 1000)
        let xa = try MixTestTools.samples(of: a, frames: frames)
        let xb = try MixTestTools.samples(of: b, frames: frames)
        let xc = try MixTestTools.samples(of: c, frames: frames)
        let ga = pow(10, -6.0 / 20), gc = pow(10, 3.0 / 20)
        var maxError = 0.0
        for f in 0..<frames {
            for ch in 0..<2 {
                var expected = ga * Double(xa[2 * f + ch])
                if f >= 16_000 { expected += Double(xb[2 * (f - 16_000) + ch]) }
                if f >= 36_000 { expected += gc * Double(xc[2 * (f - 36_000) + ch]) }
                maxError = max(maxError, abs(Double(x[2 * f + ch]) - expected))
            }
        }
        #expect(maxError < 1e-6, "mix differs from the sum by \(maxError)")
        // Reading in other chunk sizes gives the same samples.
        #expect(try MixTestTools.samples(of: mix, frames: frames, chunk: 7) == x)
    }

    /// Three loud tracks whose sum is far over full scale.
    private func loudMix() -> AudioMix {
        var mix = AudioMix()
        mix.add(ProceduralSound.noise(seed: 11, amplitude: 0.9, color: .pink, duration: 4))
        mix.add(ProceduralSound.tone(frequency: 60, amplitude: 0.9, duration: 4), gain: 2)
        mix.add(ProceduralSound.beeps(frequency: 3000, every: 0.25, length: 0.1, amplitude: 0.95, ramp: .zero, duration: 4))
        // Inter-sample peaks: a quarter-rate sine whose samples sit 3 dB under its crest.
        mix.add(ProceduralSound(duration: 1) { t in 0.95 * sin(2 * .pi * 12_000 * t + .pi / 4) }, at: 3)
        return mix
    }

    @Test func threeLoudTracksNeverExceedTheCeiling() throws {
        let mix = loudMix()
        let frames = 48_000 * 4
        let x = try MixTestTools.samples(of: mix, frames: frames)
        let m = MixTestTools.measure(x)
        #expect(m.truePeakDecibels <= -1.0, "true peak \(m.truePeakDecibels) dBTP")
        #expect(m.truePeakDecibels > -1.5, "the limiter should keep the level near the ceiling, got \(m.truePeakDecibels)")
        // Without the limiter the same mix is far over full scale.
        var raw = mix; raw.limiter = nil
        let r = MixTestTools.measure(try MixTestTools.samples(of: raw, frames: frames))
        #expect(r.truePeakDecibels > 6)
        // A stricter ceiling.
        var strict = mix; strict.limiter = Limiter(ceiling: -3, lookahead: Time(seconds: 0.0015))
        let s = MixTestTools.measure(try MixTestTools.samples(of: strict, frames: frames))
        #expect(s.truePeakDecibels <= -3.0)
        // ffmpeg's second opinion, on 32-bit float and 16-bit WAV.
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        for sampleFormat in [WAVSampleFormat.float32, .int16] {
            let url = folder.file("loud-\(sampleFormat).wav")
            try MixTestTools.Recording(samples: x, format: .standard).writeWAV(to: url, sampleFormat: sampleFormat)
            guard let e = try MixTestTools.ebur128(url) else { continue }
            #expect(e.truePeak <= -1.0, "ffmpeg true peak \(e.truePeak) dBFS (\(sampleFormat))")
            #expect(e.samplePeak <= -1.0)
        }
    }

    @Test func limiterAddsNoClicks() throws {
        // A 200 Hz sine whose amplitude steps from 0.3 to 3 (10 dB over full scale) and back, at zero
        // crossings: the input has no jumps but its own slope.
        let x = ProceduralSound(duration: 3) { t in
            let a = (1.0..<2.0).contains(t) ? 3.0 : 0.3
            return a * sin(2 * .pi * 200 * t)
        }
        let input = try MixTestTools.samples(of: x, frames: 48_000 * 3)
        let output = try MixTestTools.samples(of: AudioMix([.init(x)]), frames: 48_000 * 3)
        func maxJump(_ s: [Float]) -> Float { (1..<s.count / 2).map { abs(s[2 * $0] - s[2 * ($0 - 1)]) }.max()! }
        let ceiling = Float(pow(10, -1.0 / 20))
        // A 200 Hz sine at the ceiling's steepest step; the moving gain may add a little (a click, a
        // gain step, would add a jump of the order of the signal itself).
        let ownSlope = ceiling * Float(2 * Double.pi * 200 / 48_000)
        #expect(maxJump(output) <= maxJump(input))
        #expect(maxJump(output) <= ownSlope * 1.25, "limiter output jumps by \(maxJump(output)), the signal's own slope is \(ownSlope)")
        // Below the ceiling the limiter is transparent (delay compensated): the quiet start passes unchanged.
        #expect((0..<40_000).allSatisfy { abs(output[2 * $0] - input[2 * $0]) < 1e-6 })
        // Over it, the level sits at the ceiling (within its 0.15 dB margin).
        let loudPeak = (60_000..<90_000).map { abs(output[2 * $0]) }.max()!
        #expect(loudPeak <= ceiling && loudPeak > ceiling * 0.98)
        // …and it recovers after the loud part (release 100 ms): full level again half a second later.
        let after = (2 * 48_000 + 24_000..<2 * 48_000 + 30_000).map { abs(output[2 * $0]) }.max()!
        #expect(abs(after - 0.3) < 0.003)
    }

    @Test func duckingLowersTheMusicWhileTheVoicePlays() throws {
        let music = ProceduralSound.tone(frequency: 220, amplitude: 0.2, duration: 7)
        let voice = ProceduralSound.tone(frequency: 1000, amplitude: 0.3, duration: 2)
        var mix = AudioMix(ducking: AudioMix.Ducking(depth: 12, threshold: -40, attack: 0.05, release: 0.4, hold: 0.15))
        mix.add(music)
        mix.add(voice, at: 2, role: .sidechain)
        let frames = 48_000 * 7
        let out = try MixTestTools.samples(of: mix, frames: frames)
        let xm = try MixTestTools.samples(of: music, frames: frames)
        let xv = try MixTestTools.samples(of: voice, frames: 2 * 48_000)
        // The voice is not ducked: take it out, and what is left is the music times the ducking gain.
        var residual = out
        for f in 0..<2 * 48_000 { for c in 0..<2 { residual[2 * (96_000 + f) + c] -= xv[2 * f + c] } }
        func gain(_ from: Double, _ to: Double) -> Double {
            let r = Int(from * 48_000)..<Int(to * 48_000)
            return MixTestTools.rmsDecibels(residual, frames: r, channels: 2) - MixTestTools.rmsDecibels(xm, frames: r, channels: 2)
        }
        #expect(abs(gain(0.5, 1.9)) < 0.01, "before the voice: \(gain(0.5, 1.9)) dB")
        #expect(abs(gain(2.2, 3.9) - -12) < 1, "under the voice: \(gain(2.2, 3.9)) dB")
        #expect(abs(gain(4.7, 6.9)) < 0.01, "after the release: \(gain(4.7, 6.9)) dB")
        // Half-way through the release (hold 150 ms, then 400 ms up): about half way back in dB.
        let mid = gain(4.33, 4.37)
        #expect(mid > -8 && mid < -4, "during the release: \(mid) dB")
        // The attack takes 50 ms: 25 ms in, the music is part-way down.
        let attack = gain(2.02, 2.03)
        #expect(attack < -3 && attack > -10, "during the attack: \(attack) dB")
        // An `.unaffected` track is not ducked.
        var fixed = AudioMix()
        fixed.add(music, role: .unaffected)
        fixed.add(voice, at: 2, role: .sidechain)
        let y = try MixTestTools.samples(of: fixed, frames: frames)
        #expect(abs(MixTestTools.rmsDecibels(y, frames: 4_800..<90_000, channels: 2) - MixTestTools.rmsDecibels(xm, frames: 4_800..<90_000, channels: 2)) < 0.01)
        #expect(MixTestTools.rmsDecibels(y, frames: 110_000..<180_000, channels: 2) > MixTestTools.rmsDecibels(out, frames: 110_000..<180_000, channels: 2) + 1)
    }

    @Test func normalisationLandsOnTheTarget() throws {
        // A mix of music-like pink noise, a tone and beeps, quiet (about −30 LUFS) or loud (over full scale).
        func source(level: Double) -> AudioMix {
            var mix = AudioMix()
            mix.add(ProceduralSound.noise(seed: 21, amplitude: 0.3, color: .pink, duration: 5), gain: level)
            mix.add(ProceduralSound.tone(frequency: 150, amplitude: 0.2, duration: 3), at: 1, gain: level)
            mix.add(ProceduralSound.beeps(frequency: 2000, every: 0.5, length: 0.1, amplitude: 0.4, duration: 5), gain: level)
            return mix
        }
        let folder = try TemporaryFolder()
        // Peaky material whose loudness comes from short loud beeps: reaching −16 LUFS drives them into the
        // limiter, which takes loudness away; a plain measure-then-gain lands 2 LU short, so the mix
        // measures again through the limiter and corrects.
        var peaky = AudioMix()
        peaky.add(ProceduralSound.noise(seed: 5, amplitude: 0.1, color: .pink, duration: 5))
        peaky.add(ProceduralSound.beeps(frequency: 1000, every: 0.25, length: 0.005, amplitude: 0.9, ramp: .zero, duration: 5))
        var naive = peaky
        naive.limiter = nil
        naive.gain = -16 - (try naive.measureLoudness().integrated)
        naive.limiter = Limiter()
        #expect(try naive.measureLoudness().integrated < -17, "the peaky case should need the correction")
        let cases: [(String, AudioMix, Double)] = [
            ("quiet", source(level: -16), -16), ("over full scale", source(level: 12), -16),
            ("as is", source(level: 0), -23), ("peaky", peaky, -16),
        ]
        for (name, material, target) in cases {
            let x = try MixTestTools.samples(of: material.normalized(to: target), frames: 48_000 * 5)
            let ours = MixTestTools.measure(x).measurement
            #expect(abs(ours.integrated - target) < 1, "\(name) → \(target): ours \(ours)")
            #expect(ours.truePeak <= -1.0, "\(name) → \(target): ours \(ours)")
            if name == "peaky" { #expect(ours.truePeak > -1.5, "the limiter should be shaving the beeps: \(ours)") }
            guard FFTools.available else { continue }
            let url = folder.file("norm-\(name.filter(\.isLetter))\(Int(target)).wav")
            try MixTestTools.Recording(samples: x, format: .standard).writeWAV(to: url)
            guard let e = try MixTestTools.ebur128(url) else { continue }
            #expect(abs(e.integrated - target) < 1, "\(name) → \(target): \(e)")
            #expect(e.truePeak <= -1.0, "\(name) → \(target): \(e)")
        }
        // Silence is left alone (nothing above the gate to normalise).
        let silent = try MixTestTools.samples(of: AudioMix([.init(ProceduralSound.silence(duration: 1))]).normalized(), frames: 48_000)
        #expect(silent.allSatisfy { $0 == 0 })
    }

    @Test("normalisation raises a nearly silent mix by at most 30 dB and says so; a quiet one gets all it needs")
    func normalisationBoostIsCapped() throws {
        for (amplitude, capped) in [(0.0005, true), (0.01, false)] {
            let mix = AudioMix([.init(ProceduralSound.tone(frequency: 1000, amplitude: amplitude, duration: 3))])
            let before = try mix.measureLoudness().integrated
            let (x, warnings) = try LibraryWarnings.collecting { try MixTestTools.samples(of: mix.normalized(to: -16), frames: 48_000 * 3) }
            let after = MixTestTools.measure(x).measurement.integrated
            #expect(abs(after - (capped ? before + 30 : -16)) < 0.5, "\(amplitude): \(before) LUFS → \(after) LUFS")
            #expect(warnings.contains { $0.contains("raises it by 30.0 dB only") } == capped, "\(warnings)")
        }
    }

    @Test func tracksAreToldWhereTheMovieEnds() throws {
        let probe = ProbeSound(duration: nil)
        let mix = AudioMix([.init(probe, at: 2), .init(ProceduralSound.silence)])
        let reader = try mix.makeReader(format: .standard)
        reader.willEnd(atFrame: 48_000 * 5)
        // A track opens a second before it plays (a mix of many clips holds only those playing) and is
        // told the end then, before it has read that far.
        var buffer = [Float](repeating: 0, count: 48_000 * 3 * reader.format.channelCount)
        try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frameCount: 48_000 * 3) }
        #expect(probe.log.ends == [48_000 * 3])
        #expect(mix.duration == nil)
        #expect(AudioMix([.init(probe)], duration: 4).duration == 4)
    }

    @Test("a mix with a set length tells its tracks it ends there, though the movie (a frame longer) ends later")
    func aMixsTracksEndWhereTheMixEnds() throws {
        let probe = ProbeSound(duration: nil)
        let reader = try AudioMix([.init(probe)], duration: 1).makeReader(format: .standard)
        var buffer = [Float](repeating: 0, count: 1_024 * reader.format.channelCount)
        try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frameCount: 1_024) }
        reader.willEnd(atFrame: 49_600)     // the movie's last frame ends 1,600 samples after the mix
        #expect(probe.log.ends.last == 48_000, "\(probe.log.ends)")
    }

    @Test("a sound that cannot seek, opened part-way, counts its end from where it was opened, as one that seeks does")
    func aReadAndDiscardedStartCountsItsEndFromThere() throws {
        let probe = ProbeSound(duration: nil)
        let reader = try probe.makeReader(format: .standard, from: 48_000)
        reader.willEnd(atFrame: 1_000)
        #expect(probe.log.ends == [49_000], "\(probe.log.ends)")
    }

    // MARK: WAV

    @Test func wavFilesHoldTheSamples() throws {
        let folder = try TemporaryFolder()
        let sound = ProceduralSound.tone(frequency: 441, amplitude: 0.5)
        let format = AudioFormat(sampleRate: 44_100, channelCount: 2)
        let expected = try MixTestTools.samples(of: sound, frames: 44_100, format: format)
        for sampleFormat in [WAVSampleFormat.float32, .int16] {
            let url = folder.file("tone-\(sampleFormat).wav")
            try sound.writeWAV(to: url, duration: 1, format: format, sampleFormat: sampleFormat)
            let data = [UInt8](try Data(contentsOf: url))
            func u32(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 | Int(data[o + 2]) << 16 | Int(data[o + 3]) << 24 }
            func u16(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 }
            #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF" && String(decoding: data[8..<12], as: UTF8.self) == "WAVE")
            #expect(u32(4) == data.count - 8)
            #expect(u16(20) == (sampleFormat == .float32 ? 3 : 1) && u16(22) == 2 && u32(24) == 44_100)
            let dataStart = data.count - 44_100 * 2 * (sampleFormat == .float32 ? 4 : 2)
            #expect(String(decoding: data[(dataStart - 8)..<(dataStart - 4)], as: UTF8.self) == "data")
            var maxError: Float = 0
            for i in 0..<expected.count {
                let v: Float = sampleFormat == .float32
                    ? Float(bitPattern: UInt32(u32(dataStart + 4 * i)))
                    : Float(Int16(bitPattern: UInt16(u16(dataStart + 2 * i)))) / 32767
                maxError = max(maxError, abs(v - expected[i]))
            }
            #expect(maxError <= (sampleFormat == .float32 ? 0 : 0.5 / 32767 + 1e-7))
            #expect(folder.contents == (sampleFormat == .float32 ? ["tone-float32.wav"] : ["tone-float32.wav", "tone-int16.wav"]))
            // ffprobe reads it as what it is.
            guard FFTools.available else { continue }
            let r = try run(FFTools.ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,duration_ts",
                                              "-of", "csv=p=0", url.path])
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "\(sampleFormat == .float32 ? "pcm_f32le" : "pcm_s16le"),44100,2,44100")
        }
    }

    @Test func aFailedWAVWriteLeavesNothing() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("out.wav")
        // A source that fails part-way: nothing at the destination, no partial file left.
        #expect(throws: MovieMakerError.self) {
            try ProbeSound(duration: 2, failAfterFrames: 50_000).writeWAV(to: url)
        }
        #expect(folder.contents.isEmpty)
        // An existing file stays as it was.
        let existing = try plantExistingFile(url)
        #expect(throws: MovieMakerError.self) {
            try ProbeSound(duration: 2, failAfterFrames: 50_000).writeWAV(to: url)
        }
        #expect(try Data(contentsOf: url) == existing)
        #expect(folder.contents == ["out.wav"])
        // A missing folder and an endless sound are named errors.
        #expect(throws: MovieMakerError.destinationFolderMissing(path: folder.url.appendingPathComponent("nope").path)) {
            try ProceduralSound.silence.writeWAV(to: folder.url.appendingPathComponent("nope/x.wav"), duration: 1)
        }
        #expect(throws: MovieMakerError.self) { try ProceduralSound.silence.writeWAV(to: url) }
        // A successful write replaces the old file.
        try ProceduralSound.silence.writeWAV(to: url, duration: 1, sampleFormat: .int16)
        #expect(try Data(contentsOf: url).count == 44 + 48_000 * 4)
    }
}

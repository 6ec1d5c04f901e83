import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// A test sound computed per sample: `value(frame, channel, rate)`; lasts `duration` (nil: forever).
private struct ComputedSound: AudioSource {
    var duration: Time?
    var value: @Sendable (Int64, Int, Int) -> Float

    func makeReader(format: AudioFormat) throws -> any AudioReader { Reader(sound: self, format: format) }

    final class Reader: AudioReader {
        let sound: ComputedSound
        let format: AudioFormat
        var position: Int64 = 0
        init(sound: ComputedSound, format: AudioFormat) { self.sound = sound; self.format = format }
        func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
            let end = sound.duration.map { format.frame(at: $0) } ?? Int64.max
            for i in 0..<frameCount {
                let n = position + Int64(i)
                for c in 0..<format.channelCount {
                    buffer[i * format.channelCount + c] = n < end ? sound.value(n, c, format.sampleRate) : 0
                }
            }
            position += Int64(frameCount)
        }
    }

    /// A constant level (shows gains directly).
    static func level(_ v: Float, duration: Time?) -> ComputedSound { ComputedSound(duration: duration) { _, _, _ in v } }
    /// A sine of `frequency` Hz, `amplitude`, starting at `phase` radians.
    static func sine(_ frequency: Double, amplitude: Double = 0.5, phase: Double = 0, duration: Time?) -> ComputedSound {
        ComputedSound(duration: duration) { n, _, rate in Float(amplitude * sin(2 * .pi * frequency * Double(n) / Double(rate) + phase)) }
    }
    /// Deterministic white noise (different per channel and seed).
    static func noise(seed: UInt64, amplitude: Float = 0.3, duration: Time?) -> ComputedSound {
        ComputedSound(duration: duration) { n, c, _ in
            var z = seed &+ UInt64(bitPattern: n) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(c) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z = z ^ (z >> 31)
            return amplitude * (Float(z >> 40) / Float(1 << 24) * 2 - 1) * 1.7320508
        }
    }
}

@Suite("Audio clips and tracks")
struct AudioClipTests {
    let format = AudioFormat.standard

    // MARK: Trim, gain

    @Test("Trim is sample-exact: the clip is the source shifted by the in point, and silent after the out point")
    func trimIsSampleExact() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("chirp.wav")
        try AudioInTesting.makeWAV(wav, seconds: 2)
        let reference = try AudioInTesting.ffmpegSamples(wav)
        let mp3 = folder.file("chirp.mp3")
        try AudioInTesting.ffmpeg(["-i", wav.path, "-c:a", "libmp3lame", "-b:a", "192k", mp3.path])
        let mp3Full = try AudioInTesting.render(try AudioFile(url: mp3), frames: 96_000)

        for (url, expectedFull, tolerance) in [(wav, reference, Float(1e-6)), (mp3, mp3Full, Float(1e-6))] {
            // 0.25 s = frame 12,000; 1001/1500 s is not a whole number of milliseconds: frame 32,032.
            let start = Time(value: 1, timescale: 4), end = Time(value: 1001, timescale: 1500) + 1
            let clip = try AudioClip(url: url).trimmed(from: start, to: end)
            let inFrame = Int(format.frame(at: start)), outFrame = Int(format.frame(at: end))
            #expect(inFrame == 12_000 && outFrame == 80_032)
            #expect(clip.duration == end - start)
            let length = outFrame - inFrame
            let x = try AudioInTesting.render(clip, frames: length + 1000)
            let maxDiff = (0..<(length * 2)).map { abs(x[$0] - expectedFull[inFrame * 2 + $0]) }.max()!
            #expect(maxDiff <= tolerance, "\(url.lastPathComponent): trimmed clip differs from the shifted source by \(maxDiff)")
            #expect(x[(length * 2)...].allSatisfy { $0 == 0 }, "\(url.lastPathComponent): sound after the out point")
        }
    }

    @Test("Gain of −6 dB halves the amplitude (±1%), +6 dB doubles it")
    func gainInDecibels() throws {
        let sine = ComputedSound.sine(440, amplitude: 0.25, duration: 1)
        let plain = try AudioInTesting.render(AudioClip(sine), frames: 4800)
        let quieter = try AudioInTesting.render(AudioClip(sine).amplified(by: -6), frames: 4800)
        var louder = AudioClip(sine)
        louder.amplify(by: 3)
        louder.amplify(by: 3)
        let loud = try AudioInTesting.render(louder, frames: 4800)
        let peak = { (x: [Float]) in x.map(abs).max()! }
        #expect(abs(peak(quieter) / peak(plain) - 0.5) < 0.005)
        #expect(abs(peak(loud) / peak(plain) - 2) < 0.01)
        #expect(zip(plain, quieter).allSatisfy { abs($0 * 0.501187 - $1) < 1e-6 })
    }

    // MARK: Fades

    @Test("Fades start and end at exactly 0 and follow their curve", arguments: AudioFadeCurve.allCases)
    func fadesFollowTheirCurve(curve: AudioFadeCurve) throws {
        let clip = AudioClip(ComputedSound.level(0.5, duration: 1)).fadedIn(over: 0.1, curve: curve).fadedOut(over: 0.2, curve: curve)
        let x = try AudioInTesting.render(clip, frames: 48_000, format: AudioFormat(channelCount: 1))
        func gain(_ n: Int) -> Double { Double(x[n]) / 0.5 }
        let fadeIn = 4800, fadeOut = 9600
        #expect(x[0] == 0, "the first sample of a fade-in is silent")
        #expect(x[47_999] == 0, "the last sample of a fade-out is silent")
        #expect(abs(gain(fadeIn - 1) - 1) < 1e-6 && abs(gain(fadeIn + 100) - 1) < 1e-6)
        #expect(abs(gain(48_000 - fadeOut) - 1) < 1e-6 && abs(gain(20_000) - 1) < 1e-6)
        for p in [0.1, 0.25, 0.5, 0.75, 0.9] {
            let expected: Double
            switch curve {
            case .linear: expected = p
            case .equalPower: expected = sin(p * .pi / 2)
            case .exponential: expected = (pow(10, 3 * (p - 1)) - 0.001) / 0.999   // −60 dB … 0 dB, linear in dB
            }
            let nIn = Int((p * Double(fadeIn - 1)).rounded())
            #expect(abs(gain(nIn) - expected) < 2e-3, "\(curve) fade-in at \(p): \(gain(nIn)), expected \(expected)")
            let nOut = 47_999 - Int((p * Double(fadeOut - 1)).rounded())
            #expect(abs(gain(nOut) - expected) < 2e-3, "\(curve) fade-out at \(p): \(gain(nOut)), expected \(expected)")
        }
        // Monotonic: a fade never turns back.
        #expect((1..<fadeIn).allSatisfy { x[$0] >= x[$0 - 1] })
        #expect((48_000 - fadeOut + 1..<48_000).allSatisfy { x[$0] <= x[$0 - 1] })
        if curve == .exponential {
            // Linear in decibels: −60 dB × (1 − progress), away from the lifted bottom.
            for n in stride(from: 2400, through: 4799, by: 240) {
                let db = 20 * log10(gain(n)), expected = 60 * (Double(n) / 4799 - 1)
                #expect(abs(db - expected) < 0.3, "fade-in at sample \(n): \(db) dB, expected \(expected)")
            }
        }
    }

    @Test("Volume ramps reach their keyframes, hold after them, and jump like AVFoundation's setVolume")
    func volumeRamps() throws {
        var clip = AudioClip(ComputedSound.level(0.8, duration: 3))
        clip.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0.25, timeRange: Time(value: 1, timescale: 2)..<1)
        clip = clip.withVolume(0.5, at: 2)
        let x = try AudioInTesting.render(clip, frames: 144_000, format: AudioFormat(channelCount: 1))
        func volume(_ seconds: Double) -> Double { Double(x[Int(seconds * 48_000)]) / 0.8 }
        #expect(abs(volume(0) - 1) < 1e-6 && abs(volume(0.5) - 1) < 1e-6, "1 before the ramp")
        #expect(abs(volume(0.75) - 0.625) < 1e-4, "halfway: \(volume(0.75))")
        #expect(abs(volume(1) - 0.25) < 1e-6, "the end keyframe is reached: \(volume(1))")
        #expect(abs(volume(1.5) - 0.25) < 1e-6 && abs(Double(x[95_999]) / 0.8 - 0.25) < 1e-6, "held until the next change")
        #expect(abs(volume(2) - 0.5) < 1e-6 && abs(volume(2.9) - 0.5) < 1e-6, "setVolume jumps at its time")

        // Keyframes with easing, set directly.
        var eased = AudioClip(ComputedSound.level(1, duration: 1))
        eased.volume = KeyframeTrack(0.0).then(to: 1, at: 0.5, easing: .quadIn)
        let y = try AudioInTesting.render(eased, frames: 48_000, format: AudioFormat(channelCount: 1))
        #expect(y[0] == 0 && abs(y[12_000] - 0.25) < 1e-4 && abs(y[24_000] - 1) < 1e-6)
    }

    // MARK: Loops

    @Test("Loop-to-fill lasts exactly the duration and its joins do not click")
    func loopToFill() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("loop.wav")
        // 0.38875 s of 440 Hz (171.05 cycles, so a hard join would jump by 0.15). Repeats come every
        // S − C = 18,660 − 960 = 17,700 frames = 162¼ cycles: each join crossfades sines 90° apart, where
        // equal power keeps the level (in-phase material would rise up to 3 dB at the join's centre).
        try AudioInTesting.makeWAV(wav, expression: "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*440*t)", seconds: 0.38875)
        let fill = Time(value: 2, timescale: 1) + Time(value: 1, timescale: 3)   // 2⅓ s = 112,000 frames
        let clip = try AudioClip(url: wav).looped(toFill: fill, crossfade: 0.02)
        #expect(clip.duration == fill)
        let x = try AudioInTesting.render(clip, frames: 113_000)
        let last = (0..<113_000).last { x[2 * $0] != 0 }!
        #expect(last >= 111_990 && last <= 111_999, "sound ends at frame \(last), expected just before 112,000")
        #expect(x[(112_000 * 2)...].allSatisfy { $0 == 0 })
        // The sine's own largest step is 2π·440/48000·0.5.
        let own = AudioInTesting.maxStep(x, channels: 2, range: 100..<16_000)
        #expect(abs(own - Float(2 * Double.pi * 440 / 48_000 * 0.5)) < 1e-3)
        for k in 1...6 {
            let joinStart = k * 17_700
            guard joinStart + 960 < 112_000 else { break }
            let across = AudioInTesting.maxStep(x, channels: 2, range: (joinStart - 200)..<(joinStart + 1200))
            #expect(across <= own * 1.1, "join \(k): step \(across) vs the sine's \(own)")
        }
        // Without a crossfade the join would jump by far more than a sine step.
        let hard = abs(Float(0.5 * sin(2 * Double.pi * 440 * 0.38875)) - 0)
        #expect(hard > own * 5)
    }

    @Test("With sound before the in point, a loop keeps its period exactly")
    func loopKeepsPeriod() throws {
        let source = ComputedSound.noise(seed: 7, duration: 2)
        let clip = AudioClip(source).trimmed(from: 0.5, to: 1).looped(toFill: 2, crossfade: 0.02)
        let x = try AudioInTesting.render(clip, frames: 96_000)
        let s = try AudioInTesting.render(source, frames: 96_000)
        // Repeat k reaches the in point (source frame 24,000) at exactly k × 24,000, and plays the
        // source unfaded between its crossfades.
        for k in 0..<4 {
            let maxDiff = (1_000..<23_000).map { i in abs(x[(k * 24_000 + i) * 2] - s[(24_000 + i) * 2]) }.max()!
            #expect(maxDiff < 1e-6, "repeat \(k) is shifted (max difference \(maxDiff))")
        }
    }

    @Test("A clip longer than the movie fades out over its last seconds when told where the movie ends")
    func fadeOutAtMovieEnd() throws {
        let clip = AudioClip(ComputedSound.level(0.5, duration: 10)).fadedOutAtMovieEnd(over: 0.5, curve: .linear)
        #expect(clip.endFadeDuration == Time(value: 1, timescale: 2))
        let x = try AudioInTesting.render(clip, frames: 100_000, format: AudioFormat(channelCount: 1), endingAt: 96_000)
        #expect(x[71_999] == 0.5 && x[0] == 0.5, "full level before the fade")
        #expect(x[95_999] == 0, "silent at the movie's last sample")
        #expect(x[96_000...].allSatisfy { $0 == 0 }, "silent after the movie's end")
        #expect(abs(Double(x[84_000]) - 0.5 * Double(95_999 - 84_000) / 23_999) < 1e-6, "linear in between")
        // Not told: it plays on.
        let y = try AudioInTesting.render(clip, frames: 100_000, format: AudioFormat(channelCount: 1))
        #expect(y[99_999] == 0.5)
    }

    @Test("Bad edits are invalidSetting errors naming the value")
    func badEdits() throws {
        let sound = ComputedSound.level(0.5, duration: 1)
        #expect(throws: MovieMakerError.self) { _ = try AudioClip(sound).trimmed(from: 0.8, to: 0.5).makeReader(format: format) }
        #expect(throws: MovieMakerError.self) { _ = try AudioClip(sound).looped(toFill: 3, crossfade: 0.005).makeReader(format: format) }
        #expect(throws: MovieMakerError.self) { _ = try AudioClip(ComputedSound.level(0.5, duration: nil)).looped(toFill: 3).makeReader(format: format) }
        #expect(throws: MovieMakerError.self) { _ = try AudioClip(ComputedSound.level(0.5, duration: nil)).fadedOut(over: 1).makeReader(format: format) }
        // A bad clip later in a track fails when the track opens, not when it is reached.
        #expect(throws: MovieMakerError.self) {
            _ = try AudioTrack([AudioClip(sound), AudioClip(sound).looped(toFill: 3, crossfade: 0.005)]).makeReader(format: format)
        }
        do {
            _ = try AudioTrack([AudioClip(sound)], crossfade: 0.004).makeReader(format: format)
            Issue.record("a 4 ms crossfade was accepted")
        } catch let error as MovieMakerError {
            #expect(error.description.contains("10 ms"))
        }
    }

    // MARK: Tracks and joins

    @Test("Joins: sines at different phases crossfade without a click, the level within 1 dB across the join",
          arguments: [Double.pi / 2, -Double.pi / 2])
    func joinsDoNotClick(offset: Double) throws {
        // B starts at 0.98 s (see below) with a phase `offset` from A's at that time: over the crossfade
        // the two are 90° apart, where equal power keeps the level exactly. (Identical in-phase sound
        // rises up to 3 dB at the centre, anti-phase sound dips: see inPhaseJoinsWithHandles.)
        let bStart = 0.98
        let a = AudioClip(ComputedSound.sine(440, phase: 0, duration: 1))
        let b = AudioClip(ComputedSound.sine(440, phase: 2 * .pi * 440 * bStart + offset, duration: 1))
        let track = AudioTrack([a, b])
        let placed = try track.layout()
        // No handles: B is pulled 20 ms into A, and the crossfade is that overlap.
        #expect(placed[1].start == Time(seconds: bStart))
        #expect(placed[0].fadeOut == placed[1].fadeIn)
        #expect(placed[1].fadeIn == Time(value: 49, timescale: 50)..<1)
        #expect(track.duration == Time(value: 99, timescale: 50))
        #expect(placed.map(\.lane) == [0, 1])
        let x = try AudioInTesting.render(track, frames: 96_000)
        let join = 47_040..<48_000
        let own = AudioInTesting.maxStep(x, channels: 2, range: 1_000..<40_000)
        let across = AudioInTesting.maxStep(x, channels: 2, range: (join.lowerBound - 500)..<(join.upperBound + 500))
        #expect(across <= own * 1.1, "step across the join \(across), within the sines \(own)")
        let inputRMS = AudioInTesting.rms(x, channels: 2, range: 1_000..<41_000)
        for w in stride(from: join.lowerBound - 480, to: join.upperBound + 480, by: 120) {
            let level = 20 * log10(AudioInTesting.rms(x, channels: 2, range: w..<(w + 218)) / inputRMS)
            #expect(abs(level) < 1, "window at \(w): \(level) dB")
        }
        // A hard cut there would jump by 0.5·|sin(0.2·2π) − sin(0.2·2π ± π/2)| ≈ 0.32: the click avoided.
        let hardCut = abs(sin(2 * Double.pi * 440 * bStart) - sin(2 * Double.pi * 440 * bStart + offset)) * 0.5
        #expect(hardCut > Double(own) * 5)
    }

    @Test("Joins: uncorrelated sounds keep their level within 1 dB across an equal-power crossfade")
    func uncorrelatedJoinKeepsLevel() throws {
        let a = AudioClip(ComputedSound.noise(seed: 1, duration: 1))
        let b = AudioClip(ComputedSound.noise(seed: 2, duration: 1))
        let x = try AudioInTesting.render(AudioTrack([a, b], crossfade: 0.05), frames: 96_000)
        // The crossfade: [0.95 s, 1 s) = frames 45,600..<48,000. Compare 10 ms windows with the level outside.
        let reference = AudioInTesting.rms(x, channels: 2, range: 0..<40_000)
        for w in stride(from: 44_640, to: 48_960, by: 480) {
            let level = 20 * log10(AudioInTesting.rms(x, channels: 2, range: w..<(w + 480)) / reference)
            #expect(abs(level) < 1, "window at \(w): \(level) dB")
        }
    }

    @Test("Joins with handles: the incoming clip starts on the cut; identical in-phase sound rises 3 dB equal-power, not at all linear")
    func inPhaseJoinsWithHandles() throws {
        let sine = ComputedSound.sine(440, duration: 3)
        let a = AudioClip(sine).trimmed(from: 0, to: 1)
        let b = AudioClip(sine).trimmed(from: 1, to: 2)
        for curve in [AudioFadeCurve.linear, .equalPower] {
            let track = AudioTrack([a, b], crossfade: 0.02, curve: curve)
            let placed = try track.layout()
            #expect(placed[1].start == 1, "with handles the cut stays where A ends")
            #expect(placed[1].fadeIn == Time(value: 99, timescale: 100)..<Time(value: 101, timescale: 100))
            let x = try AudioInTesting.render(track, frames: 96_000)
            let s = try AudioInTesting.render(sine, frames: 96_000)
            let centre = 47_760..<48_240
            let peakRatio = centre.map { abs(x[2 * $0]) }.max()! / centre.map { abs(s[2 * $0]) }.max()!
            if curve == .linear {
                // Linear gains sum to 1: the join is the uninterrupted source.
                let maxDiff = (0..<96_000).map { (i: Int) -> Float in abs(x[2 * i] - s[2 * i]) }.max()!
                #expect(maxDiff < 1e-5, "linear in-phase crossfade differs from the source by \(maxDiff)")
            } else {
                // Equal-power gains sum to √2 at the centre: +3 dB for identical in-phase sound (documented).
                #expect(peakRatio > 1.3 && peakRatio < 1.42, "in-phase equal-power bump \(peakRatio)")
            }
        }
    }

    @Test("Joins align to video frames when a frame rate is given; clips alternate A/B lanes")
    func joinsOnFrameBoundaries() throws {
        let clips = [0.7, 0.45, 0.9].enumerated().map { AudioClip(ComputedSound.noise(seed: UInt64($0.offset), duration: Time(seconds: $0.element))) }
        let track = AudioTrack(clips, frameRate: .ntsc)
        let placed = try track.layout()
        #expect(placed.map(\.lane) == [0, 1, 0])
        for p in placed.dropFirst() {
            let fade = try #require(p.fadeIn)
            #expect(fade.upperBound - fade.lowerBound == Time(value: 1, timescale: 50), "crossfade length")
            let centre = fade.lowerBound + Time(value: 1, timescale: 100)
            #expect(FrameRate.ntsc.time(ofFrame: FrameRate.ntsc.frameIndex(at: centre)) == centre, "centre \(centre) is not on a frame boundary")
        }
        // Rendering sums every clip with no gap: level stays up through both joins.
        let x = try AudioInTesting.render(track, frames: Int(format.frame(at: track.duration!)))
        let joins = placed.dropFirst().map { Int(format.frame(at: $0.fadeIn!.lowerBound)) }
        for j in joins {
            let level = AudioInTesting.rms(x, channels: 2, range: j..<(j + 960))
            #expect(abs(20 * log10(level / 0.3)) < 1, "level \(level) in the crossfade at \(j), expected 0.3")
        }
    }

    @Test("Explicit times: an overlap becomes the crossfade; a too-short clip is an error")
    func explicitPlacement() throws {
        let a = AudioClip(ComputedSound.noise(seed: 3, duration: 1))
        let b = AudioClip(ComputedSound.noise(seed: 4, duration: 1))
        var track = AudioTrack()
        track.place(a, at: 0.5)
        track = track.placing(b, at: 1.3)
        let placed = try track.layout()
        #expect(placed[0].start == Time(value: 1, timescale: 2) && placed[1].start == Time(value: 13, timescale: 10))
        #expect(placed[1].fadeIn == Time(value: 13, timescale: 10)..<Time(value: 3, timescale: 2))
        #expect(track.duration == Time(value: 23, timescale: 10))
        let x = try AudioInTesting.render(track, frames: 115_000)
        #expect((0..<24_000 * 2).allSatisfy { x[$0] == 0 }, "silence before the first clip")
        #expect(x[(110_400 * 2)...].allSatisfy { $0 == 0 }, "silence after the last")

        let tiny = AudioClip(ComputedSound.level(0.1, duration: 0.015))
        #expect(throws: MovieMakerError.self) { _ = try AudioTrack([a, tiny, b]).layout() }
        #expect(throws: MovieMakerError.self) { _ = try AudioTrack().placing(a, at: 1).placing(b, at: 0.5).layout() }
    }

    @Test("A track passes the movie's end on to its clips: a long last clip fades out over the movie's last seconds")
    func trackForwardsMovieEnd() throws {
        let a = AudioClip(ComputedSound.level(0.5, duration: 1))
        let b = AudioClip(ComputedSound.level(0.5, duration: 10)).fadedOutAtMovieEnd(over: 0.5, curve: .linear)
        let track = AudioTrack([a, b])
        #expect(track.endFadeDuration == Time(value: 1, timescale: 2))
        let x = try AudioInTesting.render(track, frames: 100_000, format: AudioFormat(channelCount: 1), endingAt: 96_000)
        #expect(x[71_900] == 0.5, "full level before the fade")
        #expect(abs(Double(x[84_000]) - 0.5 * Double(95_999 - 84_000) / 23_999) < 1e-6, "linear fade")
        #expect(x[95_999] == 0 && x[96_000...].allSatisfy { $0 == 0 }, "silent from the movie's last sample on")
    }

    @Test("A track of files streams: many clips of one file, each opened only while it plays")
    func trackOfFiles() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("tone.wav")
        try AudioInTesting.makeWAV(wav, seconds: 1)
        let file = try AudioFile(url: wav)
        let clips = (0..<12).map { i in AudioClip(file).trimmed(from: Time(value: Int64(i % 4), timescale: 10), to: Time(value: Int64(i % 4) + 3, timescale: 10)) }
        let track = AudioTrack(clips, frameRate: 25)
        let duration = try #require(track.duration)
        let frames = Int(format.frame(at: duration))
        let x = try AudioInTesting.render(track, frames: frames + 100)
        #expect(x[..<(frames * 2)].contains { $0 != 0 } && x[(frames * 2)...].allSatisfy { $0 == 0 })
        #expect(!x.contains { $0.isNaN })
        // Starting part-way gives the same samples as reading up to there.
        let part = try AudioInTesting.render(track, frames: 5_000, startingAt: 40_000)
        let maxDiff = (0..<10_000).map { abs(part[$0] - x[80_000 + $0]) }.max()!
        #expect(maxDiff < 1e-6, "track read from frame 40,000 differs by \(maxDiff)")
    }
}

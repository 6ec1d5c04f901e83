import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Reads `frames` frames (first channel) of `sound` as heard.
func samples(of sound: ClipSound, frames: Int) throws -> [Float] {
    let reader = try sound.heardSource.makeReader(format: .standard)
    var buffer = [Float](repeating: 0, count: frames * 2)
    // Odd chunk sizes: the result must not depend on how reads are split.
    var done = 0
    try buffer.withUnsafeMutableBufferPointer { b in
        while done < frames {
            let n = min(997, frames - done)
            try reader.read(into: b.baseAddress! + done * 2, frameCount: n)
            done += n
        }
    }
    return stride(from: 0, to: buffer.count, by: 2).map { buffer[$0] }
}

@Suite("Sounds attached to clips")
struct ClipSoundTests {
    @Test func soundsMoveWithTheirClipsInSequencesOverlaysAndDelays() {
        let a = Clip.color(.red, duration: 1).withSound(FunctionSound.sine(), at: 0.25)
        let b = Clip.color(.blue, duration: 2).withSound(FunctionSound.constant, at: 0.5)
        let seq = Clip.sequence(a, b)
        #expect(seq.sounds.map(\.start) == [0.25, 1.5])
        let later = seq.delayed(by: 3)
        #expect(later.sounds.map(\.start) == [3.25, 4.5])
        #expect(Clip.overlay(a, b).sounds.map(\.start) == [0.25, 0.5])
        #expect(a.repeated(3).sounds.map(\.start) == [0.25, 1.25, 2.25])
    }

    @Test func trimmingCutsTheSoundSampleExactlyWithShortFades() throws {
        let clip = Clip.color(.red, duration: 3).withSound(FunctionSound.sine())
        let trimmed = clip.trimmed(from: 0.5, to: 1.5)
        let sound = try #require(trimmed.sounds.first)
        #expect(sound.start == -0.5 && sound.heardFrom == .zero && sound.heardUntil == 1)
        #expect(sound.firstHeard == .zero)
        let heard = try samples(of: sound, frames: 60_000)
        let fade = 480   // 10 ms
        // Inside: exactly the source shifted by 0.5 s (24,000 frames).
        for n in [fade, 10_000, 47_000 - fade] {
            let expected = Float(0.5 * sin(2 * Double.pi * 440 * Double(n + 24_000) / 48_000))
            #expect(abs(heard[n] - expected) < 1e-6, "frame \(n)")
        }
        // The cuts fade over 10 ms: rising from near 0, falling to near 0, then silence.
        #expect(abs(heard[0]) < 0.01)
        #expect(heard[48_000 - 1].magnitude < 0.01)
        #expect(heard[48_000...].allSatisfy { $0 == 0 })
        // No jump at either cut larger than the sine's own largest step.
        let maxStep = Float(0.5 * 2 * Double.pi * 440 / 48_000) * 1.05
        for n in 1..<heard.count { #expect(abs(heard[n] - heard[n - 1]) <= maxStep, "step at \(n)") }
        // trimmed(to:) keeps the start and cuts the end.
        let short = try #require(clip.trimmed(to: 1).sounds.first)
        #expect(short.start == .zero && short.heardUntil == 1)
        // A sound entirely outside the kept span is dropped.
        #expect(Clip.color(.red, duration: 3).withSound(FunctionSound.sine(seconds: 0.2), at: 2).trimmed(to: 1).sounds.isEmpty)
    }

    @Test func aTransitionCrossfadesTheClipsSoundsWithEqualPower() throws {
        let a = Clip.color(.red, duration: 2).withSound(FunctionSound.constant)
        let b = Clip.color(.blue, duration: 2).withSound(FunctionSound.constant)
        let joined = Clip.sequence([a, b], transition: .crossfade(duration: 0.5))
        #expect(joined.duration == Time(seconds: 3.5))
        let sa = joined.sounds[0], sb = joined.sounds[1]
        #expect(sa.start == .zero && sa.heardUntil == 2 && sa.fadeOut == 0.5)
        #expect(sb.start == 1.5 && sb.heardFrom == 1.5 && sb.fadeIn == 0.5)
        // Mix on the movie's time line: A from 0, B from 1.5 s.
        let ha = try samples(of: sa, frames: 3 * 48_000), hb = try samples(of: sb, frames: 48_000)
        for n in stride(from: 72_000, to: 96_000, by: 1_000) {
            let x = ha[n], y = hb[n - 72_000]
            // Equal power: the squares add to 1 across the overlap (constant loudness for uncorrelated sounds).
            #expect(abs(x * x + y * y - 1) < 1e-3, "at frame \(n): \(x), \(y)")
        }
        #expect(ha[71_999] == 1 && ha[96_000...].allSatisfy { $0 == 0 }, "A is whole until the overlap and silent after its end")
        #expect(hb[0] < 0.01 && hb[24_000] == 1, "B rises from silence over the overlap")
    }

    /// Two pieces of one recording joined where it was cut (a razor cut): one sound, sample for sample
    /// the recording, with no 3 dB swell where a crossfade of the sound with itself would be.
    @Test func aRecordingJoinedWhereItWasCutPlaysOnAsOneSound() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("take.wav")
        try FunctionSound.sine(seconds: 2).writeWAV(to: url)
        let take = Clip.color(.red, duration: 2).withSound(try AudioFile(url: url))
        let joined = Clip.sequence(take.trimmed(to: 0.75), take.trimmed(from: 0.75, to: 2))
        #expect(joined.sounds.count == 1, "\(joined.sounds.count) sounds")
        let heard = try samples(of: joined.sounds[0], frames: 96_000)
        let original = try samples(of: take.sounds[0], frames: 96_000)
        let around = 36_000 - 960..<36_000 + 960     // 20 ms either side of the cut
        #expect(around.allSatisfy { abs(heard[$0] - original[$0]) < 1e-6 }, "the recording as it was across the cut")
        // The same at a volume (a video's sound with a gain), in three pieces; not between two gains.
        let louder = Clip.color(.red, duration: 2).withSound(AudioClip(try AudioFile(url: url)).amplified(by: 6))
        let three = Clip.sequence(louder.trimmed(to: 0.5), louder.trimmed(from: 0.5, to: 1.25), louder.trimmed(from: 1.25, to: 2))
        #expect(three.sounds.count == 1, "\(three.sounds.count) sounds")
        let quieter = Clip.color(.red, duration: 2).withSound(AudioClip(try AudioFile(url: url)).amplified(by: -6))
        #expect(Clip.sequence(louder.trimmed(to: 1), quieter.trimmed(from: 1, to: 2)).sounds.count == 2)
        // A piece joined elsewhere (a jump in the recording) is still crossfaded.
        let jumped = Clip.sequence(take.trimmed(to: 0.75), take.trimmed(from: 1, to: 2))
        #expect(jumped.sounds.count == 2 && jumped.sounds[0].fadeOut > .zero && jumped.sounds[1].fadeIn > .zero)
    }

    /// A video whose sound starts a little after its picture (a positive audio offset, as some cameras
    /// write) or a sound attached inside the overlap: it rises from silence to the overlap's end instead
    /// of entering at full level while the outgoing sound is still fading.
    @Test func aSoundBeginningInsideATransitionRisesOverWhatIsLeftOfIt() throws {
        let a = Clip.color(.red, duration: 2).withSound(FunctionSound.constant)
        let b = Clip.color(.blue, duration: 2).withSound(FunctionSound.constant, at: 0.125)
        let joined = Clip.sequence([a, b], transition: .crossfade(duration: 0.5))
        let sb = joined.sounds[1]
        #expect(sb.firstHeard == Time(seconds: 1.625) && sb.fadeIn == Time(seconds: 0.375), "\(sb.firstHeard) \(sb.fadeIn)")
        let hb = try samples(of: sb, frames: 48_000)
        #expect(hb[0] < 0.01, "starts from silence, not at full level: \(hb[0])")
        #expect(hb[18_000 - 1] > 0.99 && hb[18_000] == 1, "full at the overlap's end")
        // A sound starting after the overlap is the clip's own business: it starts as it is.
        let late = Clip.sequence([a, Clip.color(.blue, duration: 2).withSound(FunctionSound.constant, at: 0.75)],
                                 transition: .crossfade(duration: 0.5)).sounds[1]
        #expect(late.fadeIn == .zero && late.heardFrom == nil)
    }
}

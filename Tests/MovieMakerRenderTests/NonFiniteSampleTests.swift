import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// A float WAV holding NaN and infinite samples (as damaged or hand-made files do) renders: silence
/// where they were, the rest as written, and one warning naming the file.
@Suite("Non-finite samples", .serialized)
struct NonFiniteSampleTests {
    @Test("NaN and infinite samples are played as silence, with one warning naming the file")
    func nanSamplesBecomeSilence() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("nan.wav")
        // A tone, NaN from 0.5 to 0.75 s, +infinity from 1.0 to 1.1 s.
        let sound = ProceduralSound(duration: 2) { t in
            if t >= 0.5 && t < 0.75 { return .nan }
            if t >= 1.0 && t < 1.1 { return .infinity }
            return 0.5 * sin(2 * .pi * 440 * t)
        }
        try sound.writeWAV(to: wav, sampleFormat: .float32)
        let warnings = Mutex<[String]>([])
        LibraryWarnings.setHandler { message in warnings.withLock { $0.append(message) } }
        defer { LibraryWarnings.setHandler(nil) }

        // Read directly: silence exactly where the file has no numbers.
        let samples = try AudioInTesting.read(try AudioFile(url: wav).makeReader(format: .standard), frames: 96_000)
        #expect(samples.allSatisfy { $0.isFinite })
        func peak(_ seconds: Range<Double>) -> Float {
            samples[(Int(seconds.lowerBound * 48_000) * 2)..<(Int(seconds.upperBound * 48_000) * 2)].map(abs).max() ?? 0
        }
        #expect(peak(0.52..<0.73) == 0 && peak(1.02..<1.08) == 0)
        #expect(peak(0.1..<0.4) > 0.45 && peak(0.8..<0.95) > 0.45)

        // And through a render: the movie is written, its sound finite, silent in the gap.
        let movie = folder.file("nan.mp4")
        let maker = try MovieMaker(url: movie, width: 320, height: 240, fps: 30)
        try maker.addAudio(AudioFile(url: wav))
        try maker.addFrames(count: 60) { ctx, _ in ctx.clear(.black) }
        try maker.finish()
        let decoded = try AudioInTesting.read(try AudioFile(url: movie).makeReader(format: .standard), frames: 96_000)
        let gap = decoded[(Int(0.55 * 48_000) * 2)..<(Int(0.7 * 48_000) * 2)].map(abs).max() ?? 1
        #expect(decoded.allSatisfy { $0.isFinite } && gap < 0.01, "gap peak \(gap)")
        let said = warnings.withLock { $0 }
        #expect(said.contains { $0.contains(wav.path) && $0.contains("NaN") }, "\(said)")
        #expect(said.filter { $0.contains(wav.path) }.count <= 2, "one warning per reader: \(said)")
    }
}

/// Normalising a looped music bed measures what will be heard, not the 48 hours it is looped to.
@Suite("Music bed normalisation")
struct MusicBedNormalisationTests {
    @Test("normalising a looped music bed on a one-second movie returns at once and reaches the target")
    func loopedBedNormalisesQuickly() throws {
        let folder = try TemporaryFolder()
        let song = folder.file("song.wav")
        try ProceduralSound.tone(frequency: 330, amplitude: 0.05, duration: 3).writeWAV(to: song)
        let mix = AudioMix([AudioMix.Track(try AudioClip(url: song).musicBed())]).normalized(to: -16)
        #expect(mix.duration.map { $0 >= MovieMaker.endlessLoop } == true, "the bed loops without end")
        let started = ContinuousClock.now
        let movie = folder.file("bed.mp4")
        let maker = try MovieMaker(url: movie, width: 320, height: 240, fps: 30)
        try maker.addAudio(mix)
        try maker.addFrames(count: 30) { ctx, _ in ctx.clear(.black) }
        try maker.finish()
        // Before: 48 hours of music measured (minutes of CPU). A generous bound that only a hang breaks.
        #expect(ContinuousClock.now - started < .seconds(30))
        // The loudness reached: the quiet tone (about −29 LUFS) brought up to about −16 (the last 2 s fade).
        let measured = try AudioFile(url: movie).measureLoudness(duration: Time(value: 1, timescale: 2)).integrated
        #expect(abs(measured - -16) < 1.5, "\(measured) LUFS")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Reversed sound")
struct ReversedSoundTests {
    let format = AudioFormat.standard

    /// A ramp that never repeats within a few seconds (a distinct value at every frame, a different
    /// one on the right channel), written as a float WAV so decoding gives back the same floats.
    func rampFile(in folder: TemporaryFolder, frames: Int64) throws -> (url: URL, samples: [Float]) {
        let ramp = StereoRamp(frames: frames)
        let url = folder.file("ramp.wav")
        try ramp.writeWAV(to: url, format: format, sampleFormat: .float32)
        let samples = try AudioInTesting.render(ramp, frames: Int(frames), format: format)
        return (url, samples)
    }

    @Test("A file reversed: frame n is the source's frame length − 1 − n, exactly, across 1 s windows; silence after")
    func fileReversedExactly() throws {
        let folder = try TemporaryFolder()
        let frames: Int64 = 3 * 48_000 + 1234   // not a whole number of windows
        let (url, source) = try rampFile(in: folder, frames: frames)
        let file = try AudioFile(url: url)
        #expect(file.duration == Time(value: frames, timescale: 48_000))
        let reversed = try ReversedSound(file)
        #expect(reversed.duration == file.duration)
        let out = try AudioInTesting.render(reversed, frames: Int(frames) + 1000, format: format)
        var mismatches = 0
        for n in 0..<Int(frames) {
            let m = Int(frames) - 1 - n
            if out[n * 2] != source[m * 2] || out[n * 2 + 1] != source[m * 2 + 1] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(out[(Int(frames) * 2)...].allSatisfy { $0 == 0 })
    }

    @Test("A click at frame 1000 of a sound made by code comes out at frame length − 1 − 1000, and nowhere else")
    func clickAtTheMirroredFrame() throws {
        let frames: Int64 = 2 * 48_000 + 77
        let click = FunctionSound(frames: frames) { n in n == 1000 ? 0.9 : 0 }
        let out = try AudioInTesting.render(try ReversedSound(click), frames: Int(frames), format: format)
        let loud = (0..<Int(frames)).filter { out[$0 * 2] != 0 }
        #expect(loud == [Int(frames) - 1 - 1000])
        let mirrored: Int = (Int(frames) - 1 - 1000) * 2 + 1
        #expect(out[mirrored] == 0.9)
    }

    @Test("Reversing twice gives the source back, sample for sample (a file, and a sound made by code)")
    func reverseOfReverse() throws {
        let folder = try TemporaryFolder()
        let frames: Int64 = 2 * 48_000 + 4321
        let (url, source) = try rampFile(in: folder, frames: frames)
        let twice = try ReversedSound(ReversedSound(AudioFile(url: url)))
        #expect(try AudioInTesting.render(twice, frames: Int(frames), format: format) == source)

        let chirp = ProceduralSound(duration: Time(value: frames, timescale: 48_000)) { t in 0.5 * sin(2 * .pi * (100 * t + 400 * t * t)) }
        let direct = try AudioInTesting.render(chirp, frames: Int(frames), format: format)
        #expect(try AudioInTesting.render(try ReversedSound(ReversedSound(chirp)), frames: Int(frames), format: format) == direct)
    }

    @Test("Starting part-way gives the same samples as reading from the start")
    func seeking() throws {
        let folder = try TemporaryFolder()
        let frames: Int64 = 3 * 48_000
        let (url, _) = try rampFile(in: folder, frames: frames)
        let reversed = try ReversedSound(AudioFile(url: url))
        let whole = try AudioInTesting.render(reversed, frames: Int(frames), format: format)
        for start in [1, 47_999, 48_000, 100_001] {
            let part = try AudioInTesting.render(reversed, frames: Int(frames) - start, format: format, startingAt: Int64(start))
            #expect(part == Array(whole[(start * 2)...]), "from frame \(start)")
        }
    }

    @Test("A tempo change reversed: the reversed 2× sound is the 2× sound backwards (seeking through the filter graph)")
    func reversedTempo() throws {
        let sound = TempoSound(FunctionSound(frames: 96_000) { n in Float(n % 4800) / 4800 - 0.5 }, speed: Speed(2, keepsPitch: false))
        let forwards = try AudioInTesting.render(sound, frames: 48_000, format: format)
        let backwards = try AudioInTesting.render(try ReversedSound(sound), frames: 48_000, format: format)
        // Each 1 s window opens the tempo sound part-way: away from the window edges, where the
        // resampler warms up, the samples agree.
        var worst: Float = 0
        for n in 500..<47_500 { worst = max(worst, abs(backwards[n * 2] - forwards[(47_999 - n) * 2])) }
        #expect(worst < 0.02, "largest difference \(worst)")
    }

    @Test("A sound without an end cannot be reversed: the error says to give it one")
    func refusesEndlessSound() {
        let error = #expect(throws: MovieMakerError.self) { try ReversedSound(ProceduralSound.tone(frequency: 440)) }
        #expect(error?.code == .invalidSetting)
        #expect(error?.setting == .reversedSound)
        #expect(error?.message.contains("unknown length") == true)
    }

    @Test("A reader holds one window, not the sound: 1 s for files, 10 s for sounds read from their start")
    func windowSizes() throws {
        let folder = try TemporaryFolder()
        let (url, _) = try rampFile(in: folder, frames: 30_000)
        let fileReader = try #require(try ReversedSound(AudioFile(url: url)).makeReader(format: format) as? ReversedSoundReader)
        #expect(fileReader.windowFrames == 48_000)
        let codeReader = try #require(try ReversedSound(ProceduralSound.silence(duration: 60)).makeReader(format: format) as? ReversedSoundReader)
        #expect(codeReader.windowFrames == 480_000)
    }
}

/// Left: a ramp through 48 000 distinct levels; right: the same ramp upside down and shifted, so a
/// channel swap or a frame out of place shows.
private struct StereoRamp: AudioSource {
    let frames: Int64
    var duration: Time? { Time(value: frames, timescale: 48_000) }
    func makeReader(format: AudioFormat) throws -> any AudioReader { Reader(frames: frames, format: format) }

    final class Reader: AudioReader {
        let frames: Int64
        let format: AudioFormat
        var position: Int64 = 0
        init(frames: Int64, format: AudioFormat) { self.frames = frames; self.format = format }
        func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
            for i in 0..<frameCount {
                let n = position + Int64(i)
                let inside = n < frames
                buffer[i * 2] = inside ? Float(n % 48_000) / 48_000 - 0.5 : 0
                buffer[i * 2 + 1] = inside ? 0.25 - Float((n + 777) % 47_000) / 94_000 : 0
            }
            position += Int64(frameCount)
        }
    }
}

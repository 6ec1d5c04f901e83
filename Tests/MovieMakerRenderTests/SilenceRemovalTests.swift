import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Silences found in a clip of tones and cut out of it: exactly the silence beyond `keep` goes, joins do
/// not click, picture and sound stay together.
@Suite("Silence removal")
struct SilenceRemovalTests {
    static let rate: FrameRate = 30
    static let amplitude = 0.3

    /// A 5-s 320×240 clip: frame codes for pictures, and a 440 Hz tone in [0, 1), [2, 3) and [4, 5) s with
    /// silence between, its sound lossless (PCM in MOV).
    static func tonesClip(in folder: TemporaryFolder, soundDelay: Double = 0, soundLength: Double? = nil) throws -> URL {
        try VideoFixtures.requireFFmpeg()
        let picture = folder.file("picture.mp4")
        let movie = try MovieMaker(url: picture, width: 320, height: 240, fps: rate, settings: EncoderSettings(crf: 18, preset: .ultrafast, drawingThreads: 1))
        try movie.add(Clip(duration: 5) { ctx, frame in VideoFixtures.draw(index: frame.index, in: ctx, width: 320, height: 240) })
        try movie.finish()
        let sound = ProceduralSound(duration: 5) { t in
            let second = Int(t.rounded(.down))
            return second % 2 == 0 ? amplitude * sin(2 * .pi * 440 * t) : 0
        }
        let wav = folder.file("tones.wav")
        try sound.writeWAV(to: wav, sampleFormat: .int16)
        let url = folder.file("tones.mov")
        let delay = (soundDelay > 0 ? ["-itsoffset", String(soundDelay)] : []) + (soundLength.map { ["-t", String($0)] } ?? [])
        let r = try run(FFTools.ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", picture.path] + delay + ["-i", wav.path, "-c:v", "copy", "-c:a", "pcm_s16le", url.path])
        try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        return url
    }

    @Test("the silences of a clip of tones are found to the millisecond")
    func found() throws {
        let folder = try TemporaryFolder()
        let silences = try SilenceDetection().silences(in: try Self.tonesClip(in: folder))
        #expect(silences.count == 2, "\(silences)")
        for (s, expected) in zip(silences, [1.0, 3.0]) {
            #expect(abs(s.start.seconds - expected) < 0.002 && abs(s.end.seconds - (expected + 1)) < 0.002, "\(s)")
        }
    }

    @Test("a clip whose sound starts after its picture has its silences in the picture's time, the quiet before the sound among them")
    func lateSound() throws {
        let folder = try TemporaryFolder()
        let url = try Self.tonesClip(in: folder, soundDelay: 0.5)
        let offset = try #require(try VideoFile(url: url).audioOffset)
        #expect(abs(offset.seconds - 0.5) < 0.002, "the fixture's sound starts \(offset.seconds) s after its picture")
        let silences = try SilenceDetection().silences(in: url)
        #expect(silences.count == 3, "\(silences)")
        for (s, (start, end)) in zip(silences, [(0.0, 0.5), (1.5, 2.5), (3.5, 4.5)]) {
            #expect(abs(s.start.seconds - start) < 0.002 && abs(s.end.seconds - end) < 0.002, "\(s) should be \(start)–\(end) s")
        }
    }

    /// The other end of `lateSound`: the picture after a sound that ends early is as silent as the
    /// quiet before a late one (it was not reported, so --remove-silence kept it).
    @Test("a clip whose sound ends before its picture has the rest of the picture as a silence")
    func earlySoundEnd() throws {
        let folder = try TemporaryFolder()
        let url = try Self.tonesClip(in: folder, soundLength: 3)
        let silences = try SilenceDetection().silences(in: url)
        #expect(silences.count == 2, "\(silences)")
        for (s, (start, end)) in zip(silences, [(1.0, 2.0), (3.0, 5.0)]) {
            #expect(abs(s.start.seconds - start) < 0.002 && abs(s.end.seconds - end) < 0.04, "\(s) should be \(start)–\(end) s")
        }
    }

    @Test("removing them keeps 0.1 s of each: 3.2 s remain, frame codes jump by the removed frames, the tones start with their pictures, and the joins do not click")
    func removed() throws {
        let folder = try TemporaryFolder()
        let url = try Self.tonesClip(in: folder)
        let silences = try SilenceDetection().silences(in: url)
        let clip = try Clip.video(url).removingSilences(silences, keep: Time(value: 1, timescale: 10), rate: Self.rate)
        // Each 1-s silence loses 0.9 s: [1.05, 1.95) and [3.05, 3.95), rounded to frames 32..<59 and 92..<119.
        #expect(clip.duration == Time(value: 96, timescale: 30), "\(clip.duration.seconds) s")
        let out = folder.file("trimmed.mp4")
        let movie = try MovieMaker(url: out, width: 320, height: 240, fps: Self.rate, settings: EncoderSettings(crf: 18, preset: .ultrafast, drawingThreads: 2))
        try movie.add(clip)
        try movie.finish()
        let frames = try decodeAll(out)
        #expect(frames.count == 96)
        for (j, frame) in frames.enumerated() {
            let source = j < 32 ? j : j < 65 ? j + 27 : j + 54
            #expect(VideoFixtures.frameIndex(of: frame.pixels) == source, "output frame \(j) should show source frame \(source)")
        }
        let audio = try decodeAudio(out, in: folder)
        func sample(_ t: Double) -> Int { Int(((t - audio.start) * Double(audio.rate)).rounded()) }
        // Each tone starts where its first picture is (source 2 s → 1.1 s, source 4 s → 2.2 s), within a frame.
        for expected in [1.1, 2.2] {
            let from = sample(expected - 0.1)
            let onset = (from..<sample(expected + 0.1)).first { abs(audio.samples[$0]) > 0.05 }
            let at: Double = onset.map { audio.start + Double($0) / Double(audio.rate) } ?? -1
            #expect(abs(at - expected) <= 1.0 / 30, "a tone should start at \(expected) s, found \(at) s")
        }
        // The joins (at 32/30 and 65/30 s) are in the kept silence: nothing clicks there.
        for join in [32.0 / 30, 65.0 / 30] {
            let peak = VideoFixtures.highPassedPeak(audio.samples, range: (sample(join) - 960)..<(sample(join) + 960))
            let db = 20 * log10(max(1e-9, Double(peak.value)) / Self.amplitude)
            #expect(db <= -40, "the join at \(join) s: high-passed peak \(db) dB against the tone")
        }
    }

    @Test("a video item's removeSilence does the same in a description file, and its mistakes name their path")
    func descriptionFile() throws {
        let folder = try TemporaryFolder()
        _ = try Self.tonesClip(in: folder)
        let json = """
        {"version": 1, "output": {"size": "320x240", "fps": 30},
         "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "tones.mov"}, "removeSilence": {"threshold": "-40dB", "min": "0.4s", "keep": "0.1s"}}]}]}
        """
        let timeline = try Timeline(jsonText: json)
        #expect(try Timeline(jsonText: timeline.jsonText()) == timeline)
        let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(composition.frameCount == 96)
        do {
            _ = try Timeline(jsonText: json.replacingOccurrences(of: "\"-40dB\"", with: "\"loud\""))
            Issue.record("\"loud\" is not a level")
        } catch {
            #expect("\(error)".contains("tracks[0].items[0].removeSilence.threshold"), "\(error)")
        }
        do {
            _ = try Timeline(jsonText: json.replacingOccurrences(of: "\"removeSilence\"", with: "\"reverse\": true, \"removeSilence\""))
            Issue.record("reverse with removeSilence")
        } catch {
            #expect(error.message.contains("removeSilence"), "\(error.message)")
        }
    }
}

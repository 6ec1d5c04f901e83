import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Descriptions rendered through the library: a timeline built in Swift and the same timeline read
/// back from its JSON make the same bytes; the composition is the clip tree the description says; media
/// are checked before any frame; sound is mixed as described.
@Suite struct TimelineRenderTests {
    /// A 1 s 160×120 clip with a 440 Hz tone, a photo and a 2 s sound, in `folder`.
    static func media(_ folder: TemporaryFolder) throws {
        let movie = try MovieMaker(url: folder.file("clip.mp4"), width: 160, height: 120, fps: 15, settings: EncoderSettings(crf: 18, preset: .ultrafast))
        try movie.add(Clip.color(.orange, duration: 1).withSound(ProceduralSound.tone(frequency: 440, amplitude: 0.3, duration: 1)))
        _ = try movie.finish()
        _ = try TestPhotos.photo(.blue, "photo.png", in: folder)
        try ProceduralSound.tone(frequency: 220, amplitude: 0.2, duration: 2).writeWAV(to: folder.file("song.wav"), sampleFormat: .int16)
    }

    /// The timeline the builder test renders: every picture item type, a transition, an overlay, music.
    static var built: Timeline {
        Timeline(output: Timeline.Output(size: .init(width: 160, height: 120), fps: 15,
                                         encoder: Timeline.EncoderOptions(preset: .ultrafast), audio: Timeline.AudioOptions(loudness: -20))) {
            Timeline.Track.video {
                Timeline.Item.title("Built", duration: 1, style: .pop).withTransition("circleopen", duration: .frames(5))
                Timeline.Item.video(.file("clip.mp4"), in: 0.2, duration: .frames(10), speed: Speed(numerator: 1, denominator: 2))
                Timeline.Item.photo(.file("photo.png"), duration: 0.5, kenBurns: .enabled(true))
                Timeline.Item.color("#336699", duration: 0.5).withTransition("slideup", duration: 0.2)
                Timeline.Item.generator("gradient", params: ["colors": .array([.string("black"), .string("gold")])], duration: 0.5)
            }
            Timeline.Track.overlay {
                Timeline.Item.generator("confetti", params: ["count": .integer(12), "seed": .integer(4)], duration: 1).placed(at: 0.5)
            }
            Timeline.Track.audio {
                Timeline.Item.music(.file("song.wav"), volume: .decibels(-3))
            }
        }
    }

    @Test("a timeline built in Swift renders byte-identically to its JSON read back")
    func builderAndJSONRenderTheSameBytes() throws {
        let folder = try TemporaryFolder()
        try Self.media(folder)
        let options = Timeline.RenderOptions(mediaFolder: folder.url)
        let built = Self.built
        let summary = try built.render(to: folder.file("built.mp4"), options: options)
        let text = try built.jsonText()
        let decoded = try Timeline(jsonText: text)
        #expect(decoded == built)
        try decoded.render(to: folder.file("decoded.mp4"), options: options)
        #expect(try Data(contentsOf: folder.file("built.mp4")) == Data(contentsOf: folder.file("decoded.mp4")))
        // 1 s + 10 frames + 0.5 + 0.5 + 0.5 s − 5 frames − 0.2 s = 2.633 s: 40 frames at 15 fps.
        #expect(summary.frameCount == 40)
        let frames = try decodeAll(folder.file("built.mp4"))
        #expect(frames.count == 40)
        guard FFTools.available else { return }
        #expect(try probeStreams(folder.file("built.mp4"))["audio"] != nil, "the music is in the movie")
    }

    @Test("the composition is the clip tree the description says: a stack of the background and a sequence with its transitions")
    func compositionShape() throws {
        let folder = try TemporaryFolder()
        try Self.media(folder)
        let c = try Self.built.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        guard case let .stack(layers) = c.picture.node else { Issue.record("the picture is not a stack: \(c.picture.node)"); return }
        #expect(layers.count == 3)
        if case let .generator(.color(bg), _) = layers[0].node { #expect(bg == .black) } else { Issue.record("no background") }
        guard case let .sequence(track) = layers[1].node else { Issue.record("the video track is not a sequence"); return }
        #expect(track.items.count == 5)
        #expect(track.transitions.map { $0?.name } == ["circleopen", nil, nil, "slideup"])
        #expect(track.transitions[0]?.duration == Time(value: 1, timescale: 3))
        // The sound is one mix: the clip's own sound and the music, normalised; the picture is silent.
        #expect(c.soundtrack?.tracks.count == 2 && c.soundtrack?.loudnessTarget == -20)
        #expect(c.picture.sounds.isEmpty)
        #expect(c.plan.map(\.path) == ["tracks[0].items[0]", "tracks[0].items[1]", "tracks[0].items[2]", "tracks[0].items[3]",
                                       "tracks[0].items[4]", "tracks[1].items[0]", "tracks[2].items[0]"])
        #expect(c.plan[1].start == Time(value: 2, timescale: 3) && c.plan[1].duration == Time(value: 2, timescale: 3))
        #expect(c.videoDecoders == 1)
    }

    @Test("every file is opened before the first frame: a broken one fails the composition naming its item")
    func mediaCheckedFirst() throws {
        let folder = try TemporaryFolder()
        try Self.media(folder)
        try Data("not a movie".utf8).write(to: folder.file("broken.mp4"))
        var timeline = Self.built
        timeline.tracks[0].items[1] = Timeline.Item.video(.file("broken.mp4"))
        do {
            _ = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
            Issue.record("a broken video was accepted")
        } catch {
            #expect(error.code == .invalidDescription && error.location?.jsonPath == "tracks[0].items[1].source", "\(error)")
            #expect(error.message.contains("broken.mp4"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.mp4").path))
    }

    @Test("ducked music dips under an audio item that does not duck (a voice-over), and comes back after it")
    func musicDucksUnderAudioItems() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        try ProceduralSound.tone(frequency: 300, amplitude: 0.2, duration: 5).writeWAV(to: folder.file("bed.wav"), sampleFormat: .int16)
        try ProceduralSound.tone(frequency: 1000, amplitude: 0.3, duration: 1).writeWAV(to: folder.file("voice.wav"), sampleFormat: .int16)
        let t = Timeline(output: Timeline.Output(size: .init(width: 64, height: 48), fps: 10, encoder: .init(preset: .ultrafast))) {
            Timeline.Track.video { Timeline.Item.color("black", duration: 5) }
            Timeline.Track.audio {
                Timeline.Item.music(.file("bed.wav"), fadeIn: 0, fadeOut: 0)
                Timeline.Item.audio(.file("voice.wav")).placed(at: 1.5)
            }
        }
        let url = folder.file("ducked.mp4")
        try t.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
        let (samples, _, rate) = try decodeAudio(url, in: folder)
        func level(_ from: Double, _ to: Double) -> Double {
            let range = Int(from * Double(rate))..<min(samples.count, Int(to * Double(rate)))
            let w = 2 * Double.pi * 300 / Double(rate), c = 2 * cos(w)
            var s1 = 0.0, s2 = 0.0
            for x in samples[range] { let s = Double(x) + c * s1 - s2; s2 = s1; s1 = s }
            return 2 * (s1 * s1 + s2 * s2 - c * s1 * s2).squareRoot() / Double(range.count)
        }
        let before = level(0.5, 1.3), during = level(1.8, 2.4), after = level(3.6, 4.4)
        #expect(20 * log10(during / before) < -9, "the music dips about 12 dB: \(before) → \(during)")
        #expect(abs(20 * log10(after / before)) < 1.5, "and comes back: \(before) → \(after)")
    }

    /// Fades longer together than their sound multiplied: a 1 s item with 5 s fades played its middle near
    /// silence. They share its length, with a warning naming the item; a part too short to loop is refused
    /// at its `in` when the description is read, not when the render opens the sound.
    @Test func fadesLongerThanTheirSoundShareItsLengthAndATooShortLoopIsRefusedAtItsKey() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        try ProceduralSound.tone(frequency: 300, amplitude: 0.2, duration: 2).writeWAV(to: folder.file("tone.wav"), sampleFormat: .int16)
        let faded = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "64x48", "fps": 10, "encoder": {"preset": "ultrafast"}},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "1s"}]},
                        {"kind": "audio", "items": [{"type": "audio", "source": {"file": "tone.wav"}, "duration": "1s", "fadeIn": "5s", "fadeOut": "5s"}]}]}
            """)
        let composition = try faded.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(composition.warnings.contains { $0.contains("tracks[1].items[0]") && $0.contains("shortened to 0.500 s and 0.500 s") }, "\(composition.warnings)")
        let url = folder.file("faded.mp4")
        try composition.render(to: url)
        let (samples, _, rate) = try decodeAudio(url, in: folder)
        let middle = samples[(rate * 45 / 100)..<(rate * 55 / 100)].map { abs(Double($0)) }.max() ?? 0
        #expect(middle > 0.15, "full level where the fades meet: peak \(middle) of 0.2")

        let looped = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "64x48", "fps": 10},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "1s"}]},
                        {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}, "in": "1.99s"}]}]}
            """)
        do {
            _ = try looped.composition(Timeline.RenderOptions(mediaFolder: folder.url))
            Issue.record("a 10 ms loop was accepted")
        } catch {
            #expect(error.description.contains("tracks[1].items[0].in") && error.description.contains("too short to loop"), "\(error)")
        }
    }

    @Test("a video's volume scales its own sound: 0.5 is half the amplitude, 0 silence")
    func videoVolume() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        try Self.media(folder)
        func amplitude(_ volume: Volume?) throws -> Double {
            let t = Timeline(output: Timeline.Output(size: .init(width: 160, height: 120), fps: 15, encoder: .init(preset: .ultrafast))) {
                Timeline.Track.video { Timeline.Item.video(.file("clip.mp4"), volume: volume) }
            }
            let url = folder.file("v\(UUID().uuidString.prefix(5)).mp4")
            try t.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
            guard try probeStreams(url)["audio"] != nil else { return 0 }
            let samples = try decodeAudio(url, in: folder).samples
            guard samples.count > 36_000 else { return -1 }
            let middle = samples[12_000..<36_000]
            return (middle.map { Double($0 * $0) }.reduce(0, +) / Double(middle.count)).squareRoot() * 2.squareRoot()
        }
        let full = try amplitude(nil), half = try amplitude(.factor(0.5)), minus6 = try amplitude(.decibels(-6.0206)), muted = try amplitude(.factor(0))
        #expect(abs(full - 0.3) < 0.02, "\(full)")
        #expect(abs(half / full - 0.5) < 0.02, "\(half / full)")
        #expect(abs(minus6 / full - 0.5) < 0.02, "\(minus6 / full)")
        #expect(muted == 0)
    }
}

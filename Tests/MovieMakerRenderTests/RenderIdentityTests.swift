import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// What a movie records it was made from (`RenderIdentity`), which lets a batch skip rows already made:
/// equal for two descriptions that make the same movie, different when a file or a setting changes,
/// and read back from the movie's metadata.
@Suite("Render identity")
struct RenderIdentityTests {
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let canvas = try Canvas(width: 64, height: 48)
        try canvas.draw { ctx in ctx.clear(.orange) }
        try canvas.writePNG(to: folder.file("p.png"))
        try ProceduralSound(duration: 3) { t in 0.2 * sin(2 * .pi * 440 * t) }.writeWAV(to: folder.file("tone.wav"))
        return folder
    }

    static func spec(photo: String, volume: String = "1", tone: String = "tone.wav", platform: String? = nil) -> String {
        """
        {"version": 1, "output": {"size": "160x120", "fps": 10, "encoder": {"preset": "ultrafast"}\(platform.map { ", \"preset\": \"\($0)\"" } ?? "")},
         "tracks": [{"kind": "video", "items": [{"type": "photo", "source": {"file": "\(photo)"}, "duration": "1s"},
                                                {"type": "title", "text": "Hi", "duration": "1s"}]},
                    {"kind": "audio", "items": [{"type": "audio", "source": {"file": "\(tone)"}, "volume": \(volume)}]}]}
        """
    }

    @Test func theSameMovieFromAnotherFolderHasTheSameIdentityAndAChangedFileAnother() throws {
        let folder = try Self.folder()
        let here = try Timeline(jsonText: Self.spec(photo: "p.png")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let elsewhere = try Timeline(jsonText: Self.spec(photo: folder.file("p.png").path, tone: folder.file("tone.wav").path))
            .composition(Timeline.RenderOptions(mediaFolder: FileManager.default.temporaryDirectory))
        #expect(here.renderIdentity == elsewhere.renderIdentity, "the same picture and sound, named from another folder")
        let faster = try Timeline(jsonText: Self.spec(photo: "p.png", volume: "0.5")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(faster.renderIdentity != here.renderIdentity, "a sound at another volume")
        var crf = Timeline.RenderOptions(mediaFolder: folder.url)
        crf.crf = 30
        #expect(try Timeline(jsonText: Self.spec(photo: "p.png")).composition(crf).renderIdentity != here.renderIdentity, "another setting")
        // YouTube and LinkedIn differ only in their bit-rate ceiling, which changes the movie.
        let youtube = try Timeline(jsonText: Self.spec(photo: "p.png", platform: "youtube")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let linkedin = try Timeline(jsonText: Self.spec(photo: "p.png", platform: "linkedin")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(youtube.renderIdentity != linkedin.renderIdentity, "another platform's bit-rate ceiling")
        // Drawing threads change no frame.
        var threads = Timeline.RenderOptions(mediaFolder: folder.url)
        threads.drawingThreads = 3
        #expect(try Timeline(jsonText: Self.spec(photo: "p.png")).composition(threads).renderIdentity == here.renderIdentity, "drawing threads")
        // The same name, new bytes and time: another identity.
        let before = here.renderIdentity
        Thread.sleep(forTimeInterval: 0.02)
        let canvas = try Canvas(width: 64, height: 48)
        try canvas.draw { ctx in ctx.clear(.blue) }
        try canvas.writePNG(to: folder.file("p.png"))
        #expect(before != (try Timeline(jsonText: Self.spec(photo: "p.png")).composition(Timeline.RenderOptions(mediaFolder: folder.url)).renderIdentity))
    }

    @Test func theIdentityIsWrittenIntoTheMovieAndReadBack() throws {
        let folder = try Self.folder()
        let composition = try Timeline(jsonText: Self.spec(photo: "p.png")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let url = folder.file("out.mp4")
        let movie = try composition.makeMovie(at: url)
        try composition.recordIdentity(in: movie)
        try composition.render(into: movie)
        try movie.finish()
        #expect(RenderIdentity.recorded(in: url) == composition.renderIdentity)
        #expect(try decodeAll(url).count == 20)
        #expect(RenderIdentity.recorded(in: folder.file("p.png")) == nil)
    }

    @Test func soundsAtAnotherSpeedReversedOrHeardInPartAreData() throws {
        let folder = try Self.folder()
        let file = try AudioFile(url: folder.file("tone.wav"))
        let mix = AudioMix([AudioMix.Track(TempoSound(file, speed: Speed(2))), AudioMix.Track(try ReversedSound(file)),
                                    AudioMix.Track(HeardSound(source: file, skip: 0.5, length: 1, fadeIn: 0.1, fadeOut: 0.2))])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try encoder.encode(mix)
        let back = try JSONDecoder().decode(AudioMix.self, from: json)
        #expect(try encoder.encode(back) == json, "written, read and written again: \(String(decoding: json, as: UTF8.self))")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker audiogram`, run as a subprocess: the clip decoded (its length from --from to --to, its
/// size, the bars moving, the sound normalised), and its errors: no audio stream, bad --from/--to.
@Suite("moviemaker audiogram")
struct AudiogramCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captions")

    /// Pixels of the bars' default colour (#ffb703) in a frame.
    static func barPixels(_ px: PixelBuffer) -> Int {
        var n = 0
        for y in 0..<px.height {
            for x in 0..<px.width {
                let p = px.rgba(x: x, y: y)
                if p.red > 200 && p.green > 150 && p.green < 210 && p.blue < 60 { n += 1 }
            }
        }
        return n
    }

    @Test("a vertical clip from --from to --to with a cover, a title and captions: its frames, size, moving bars and −16 LUFS sound")
    func makesTheClip() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let sound = folder.file("episode.wav")
        // A voice-like sweep that comes and goes: the bars move.
        try AudioInTesting.makeWAV(sound, expression: "0.3*sin(2*PI*(150+400*t)*t)*(0.5+0.5*sin(2*PI*1.5*t))|0.3*sin(2*PI*(150+400*t)*t)*(0.5+0.5*sin(2*PI*1.5*t))", seconds: 4)
        let cover = folder.file("cover.png")
        let canvas = try Canvas(width: 200, height: 200)
        try canvas.draw { ctx in ctx.clear(Color(red: 0.2, green: 0.4, blue: 0.9)) }
        try canvas.writePNG(to: cover)
        let out = folder.file("clip.mp4")
        let r = try CLI.run(["audiogram", sound.path, "--title", "Episode 12", "--image", cover.path,
                             "--captions", Self.fixtures.appendingPathComponent("talk.whisper.json").path,
                             "--size", "180x320", "--from", "0.5", "--to", "0:02.5", "--preset", "ultrafast", "-o", out.path, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(out)
        #expect(frames.count == 60)
        #expect(frames.allSatisfy { $0.pixels.width == 180 && $0.pixels.height == 320 })
        let bars = frames.map { Self.barPixels($0.pixels) }
        #expect(bars.allSatisfy { $0 > 0 } && Set(bars).count > 10, "the bars move: \(bars)")
        let audio = try decodeAudio(out, in: folder)
        #expect(audio.rate == 48_000 && abs(Double(audio.samples.count) / Double(audio.rate) - 2) < 0.05, "\(audio.samples.count) samples at \(audio.rate) Hz")
        // Loudness of both channels, decoded by ffmpeg.
        var meter = LoudnessMeter()
        meter.add(try AudioInTesting.ffmpegSamples(out, channels: 2))
        #expect(abs(meter.integratedLoudness + 16) <= 1, "\(meter.integratedLoudness) LUFS")
    }

    /// Without a cover or a title the visualizer had a band at the top and left the lower two-thirds
    /// empty: it now takes the middle of the frame.
    @Test("with no cover and no title, the bars are in the middle of the frame", arguments: ["spectrum", "circle"])
    func barsAloneAreCentred(style: String) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let sound = folder.file("tone.wav")
        try AudioInTesting.makeWAV(sound, expression: "0.3*sin(2*PI*440*t)*(0.5+0.5*sin(2*PI*2*t))", seconds: 1)
        let out = folder.file("bars.mp4")
        let r = try CLI.run(["audiogram", sound.path, "--style", style, "--size", "320x240", "--preset", "ultrafast", "-o", out.path, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let px = try #require(try decodeAll(out).dropFirst(10).first).pixels
        var rows: [Int] = []
        for y in 0..<px.height {
            for x in 0..<px.width {
                let p = px.rgba(x: x, y: y)
                if p.red > 200 && p.green > 150 && p.green < 210 && p.blue < 60 { rows.append(y) }
            }
        }
        #expect(!rows.isEmpty, "no bars drawn")
        let middle = Double(rows.reduce(0, +)) / Double(max(1, rows.count)) / Double(px.height)
        #expect(middle > 0.35 && middle < 0.65, "the bars' middle is \(middle) of the height")
    }

    @Test("errors exit 64 naming the problem and leave no file: no audio stream, --to before --from, --from or --to past the end, a malformed time")
    func errors() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let silent = folder.file("silent.mp4")
        try VideoFixtures.solid(silent, .black, tone: nil, width: 64, height: 48)
        let sound = folder.file("two.wav")
        try AudioInTesting.makeWAV(sound, seconds: 2)
        let out = folder.file("clip.mp4")
        for (arguments, message) in [
            ([silent.path], "no audio stream"),
            ([sound.path, "--from", "1.5", "--to", "1"], "is not after --from"),
            ([sound.path, "--from", "3"], "at or past the end of two.wav"),
            ([sound.path, "--to", "2:00"], "past the end of two.wav"),
            ([sound.path, "--from", "1:75"], "minutes:seconds"),
            ([sound.path, "--image", folder.file("none.png").path], "no such file"),
        ] {
            let r = try CLI.run(["audiogram"] + arguments + ["--size", "64x64", "-o", out.path, "-q"])
            #expect(r.status == 64 && r.stderr.contains(message), "\(arguments): \(r.status) \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
        // An audiogram is a movie with its sound: an animated image or a still is refused (64), and the
        // help offers neither (nor does assemble's, which joins movies).
        for name in ["a.gif", "a.webp", "a.png", "a.mp3"] {
            let r = try CLI.run(["audiogram", sound.path, "--size", "64x64", "-o", folder.file(name).path, "-q"])
            #expect(r.status == 64 && r.stderr.contains("writes a movie with its sound: use -o a.mp4"), "\(name): \(r.status) \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file(name).path))
        }
        for command in ["audiogram", "assemble"] {
            let help = try CLI.help([command])
            #expect(!help.stdout.localizedCaseInsensitiveContains("animated images") && !help.stdout.contains(".png still"), "\(command): \(help.stdout)")
        }
    }
}

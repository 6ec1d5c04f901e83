import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `--captions` and `--caption-style` on `stitch` and `render`, run as a subprocess: the movie decoded
/// (the default yellow mark exactly while a word is spoken), and a malformed transcript refused with
/// exit 64 naming its JSON path.
@Suite("Captions on the command line")
struct CaptionCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captions")
    /// The talk's words are spoken over 0.5–1.9 s and 2.4–3.6 s, each word ending where the next starts.
    static func spoken(onFrame k: Int) -> Bool {
        let t = k * 1000   // k/30 s in 1/30000 s
        return (500 * 30 <= t && t < 1900 * 30) || (2400 * 30 <= t && t < 3600 * 30)
    }

    /// Whether the frame holds the default highlight colour (#FFD60A), the mark of the spoken word.
    static func marked(_ px: PixelBuffer) -> Bool {
        var count = 0
        for y in stride(from: 0, to: px.height, by: 1) {
            for x in 0..<px.width {
                let p = px.rgba(x: x, y: y)
                if p.red > 200 && p.green > 170 && p.blue < 90 { count += 1 }
            }
        }
        return count > 20
    }

    @Test("stitch --captions marks each word of a whisper transcript while it is spoken, in the style asked for")
    func stitchWithCaptions() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let a = folder.file("a.mp4")
        try VideoFixtures.solid(a, .black, seconds: 4, tone: nil)
        let out = folder.file("out.mp4")
        let r = try CLI.run(["stitch", a.path, "--captions", Self.fixtures.appendingPathComponent("talk.whisper.json").path,
                             "--caption-style", "highlight", "-o", out.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(out)
        #expect(frames.count == 120)
        for frame in frames {
            #expect(Self.marked(frame.pixels) == Self.spoken(onFrame: frame.index), "frame \(frame.index)")
        }
    }

    @Test("render --captions over a description; a malformed transcript or style exits 64 naming it, before any work")
    func renderWithCaptionsAndErrors() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("s.json")
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "4s"}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        let r = try CLI.run(["render", spec.path, "--captions", Self.fixtures.appendingPathComponent("talk.srt").path,
                             "--caption-style", "reveal", "-o", out.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        // reveal: nothing before the first word, words (white) from 0.5 s on.
        let frames = try decodeAll(out)
        #expect(inkBox(frames[10].pixels) == nil && inkBox(frames[20].pixels) != nil)

        let bad = folder.file("bad.json")
        try #"{"segments": [{"words": [{"word": "Hi", "start": 1.5, "end": 1.2}]}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        let out2 = folder.file("out2.mp4")
        try VideoFixtures.expectError(["render", spec.path, "--captions", bad.path, "-o", out2.path],
                                      naming: ["bad.json", "segments[0].words[0].end"], status: 64)
        try VideoFixtures.expectError(["render", spec.path, "--captions", bad.path, "--caption-style", "wobble", "-o", out2.path],
                                      naming: ["wobble", "highlight"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out2.path), "nothing written")
    }

    @Test("render --for tiktok --captions puts the captions inside TikTok's safe area, as a description's captions item")
    func renderCaptionsInsideThePlatformsSafeArea() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("s.json")
        try """
            {"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "2s"}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        let r = try CLI.run(["render", spec.path, "--for", "tiktok", "--preview", "--captions", Self.fixtures.appendingPathComponent("talk.srt").path,
                             "--caption-style", "reveal", "--preset", "ultrafast", "-o", out.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(out)
        let first = try #require(frames.first)
        let area = Platform.tiktok.safeArea(width: first.pixels.width, height: first.pixels.height)
        var inked = 0
        for frame in frames where frame.index % 10 == 5 {
            guard let ink = inkBox(frame.pixels) else { continue }
            inked += 1
            #expect(Double(ink.minY) >= area.minY - 1 && Double(ink.maxY) <= area.maxY + 1 && Double(ink.minX) >= area.minX - 1 && Double(ink.maxX) <= area.maxX + 1,
                    "frame \(frame.index): ink \(ink) outside the safe area \(area)")
        }
        #expect(inked >= 3, "the captions show: \(inked) frames with ink")
    }
}

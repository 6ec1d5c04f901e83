import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `--subtitles` on `stitch` and `render`, run as a subprocess: the movie decoded (white ink exactly
/// where cues are), and a malformed file refused with exit 64 naming its line.
@Suite("Subtitles on the command line")
struct SubtitleCommandTests {
    /// Two cues over a 2 s movie at 30 fps: 0.2–0.6 s and 1.2–1.5 s (frames 6–17 and 36–44).
    static let srt = """
        1
        00:00:00,200 --> 00:00:00,600
        First <i>cue</i>

        2
        00:00:01,200 --> 00:00:01,500
        مرحبا 字幕
        """

    static func expectInkOnCueFrames(_ movie: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let frames = try decodeAll(movie)
        #expect(frames.count == 60, sourceLocation: sourceLocation)
        for frame in frames {
            let t = frame.index * 1000   // k/30 s in 1/30000 s
            let active = (200 * 30 <= t && t < 600 * 30) || (1200 * 30 <= t && t < 1500 * 30)
            let ink = inkBox(frame.pixels)
            if active {
                #expect(ink != nil, "frame \(frame.index): a cue is active but no text", sourceLocation: sourceLocation)
                if let ink { #expect(ink.minX >= 31 && ink.maxX <= 288 && ink.minY >= 23 && ink.maxY <= 216, "frame \(frame.index): \(ink)", sourceLocation: sourceLocation) }
            } else {
                #expect(ink == nil, "frame \(frame.index): text where no cue is", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("stitch --subtitles burns the cues into the movie")
    func stitchWithSubtitles() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let a = folder.file("a.mp4"), b = folder.file("b.mp4")
        try VideoFixtures.solid(a, .black, seconds: 1, tone: nil)
        try VideoFixtures.solid(b, .black, seconds: 1, tone: nil)
        let subs = folder.file("talk.srt")
        try Self.srt.write(to: subs, atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        let r = try CLI.run(["stitch", a.path, b.path, "--subtitles", subs.path, "--subtitle-style", "box", "-o", out.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        try Self.expectInkOnCueFrames(out)
    }

    @Test("subtitles that cannot show are said: a file without cues, cues all or partly after the movie's end; cues that show say nothing")
    func subtitlesThatCannotShowWarn() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let a = folder.file("a.mp4")
        try VideoFixtures.solid(a, .black, seconds: 1, tone: nil)
        let cases: [(String, String, String?)] = [
            ("empty.srt", "", "has no cues: nothing is burned in"),
            ("late.srt", "1\n00:00:10,000 --> 00:00:12,000\nnever seen\n", "every cue of --subtitles"),
            ("some.srt", "1\n00:00:00,200 --> 00:00:00,800\nseen\n\n2\n00:00:05,000 --> 00:00:06,000\nnot seen\n", "1 of the 2 cues of --subtitles"),
            ("fine.srt", "1\n00:00:00,200 --> 00:00:00,800\nseen\n", nil),
        ]
        for (name, text, warning) in cases {
            try text.write(to: folder.file(name), atomically: true, encoding: .utf8)
            let r = try CLI.run(["stitch", a.path, "--subtitles", folder.file(name).path, "-o", folder.file("out.mp4").path, "-q"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            if let warning {
                #expect(r.stderr.contains("moviemaker: warning: ") && r.stderr.contains(warning), "\(name): \(r.stderr)")
            } else {
                #expect(!r.stderr.contains("warning"), "\(name): \(r.stderr)")
            }
        }
    }

    @Test("render --subtitles burns the cues over a description's picture")
    func renderWithSubtitles() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("s.json")
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "2s"}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        let subs = folder.file("talk.vtt")
        try ("WEBVTT\n\n" + Self.srt.replacingOccurrences(of: ",", with: ".")).write(to: subs, atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        let r = try CLI.run(["render", spec.path, "--subtitles", subs.path, "-o", out.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        try Self.expectInkOnCueFrames(out)
    }

    @Test("A malformed subtitle file exits 64 naming the file and the line, before any work")
    func malformedFileExits64() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let a = folder.file("a.mp4")
        try VideoFixtures.solid(a, .black, seconds: 1, tone: nil)
        let subs = folder.file("bad.srt")
        try "1\n00:00:00,200 --> 00:00:00,600\nok\n\n2\n00:00:01,200 --> 00:00:0x,500\nbad\n".write(to: subs, atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        try VideoFixtures.expectError(["stitch", a.path, "--subtitles", subs.path, "-o", out.path],
                                      naming: ["bad.srt", "line 6", "00:00:0x,500", "00:00:01,000 --> 00:00:02,500"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
        let spec = folder.file("s.json")
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "1s"}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        try VideoFixtures.expectError(["render", spec.path, "--subtitles", subs.path, "-o", out.path],
                                      naming: ["bad.srt", "line 6"], status: 64)
        try VideoFixtures.expectError(["stitch", a.path, "--subtitles", folder.file("missing.srt").path, "-o", out.path],
                                      naming: ["missing.srt", "no such file"], status: 64)
    }
}

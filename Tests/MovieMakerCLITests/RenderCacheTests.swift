import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// `moviemaker render spec.json -o film.mp4 --cache DIR`: after an edit, only the segments it changed
/// are rendered again, and the command says so.
@Suite("moviemaker render --cache")
struct RenderCacheTests {
    /// 6 s at 160x120: two colours with a crossfade, a title at 4–5 s.
    static func spec(title: String) -> String {
        """
        {"version": 1, "output": {"size": "160x120", "fps": 30, "encoder": {"preset": "ultrafast"}},
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#204080", "duration": "3.5s", "transition": {"name": "fade", "duration": "1s"}},
                                                {"type": "color", "color": "#806020", "duration": "3.5s"}]},
                    {"kind": "overlay", "items": [{"type": "title", "text": "\(title)", "at": "4s", "duration": "1s", "style": "none"}]}]}
        """
    }

    @Test func anEditedTitleRendersOnlyItsSegmentAndTheCommandSaysSo() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("film.json"), movie = folder.file("film.mp4"), cache = folder.file("cache")
        try Self.spec(title: "One").write(to: spec, atomically: true, encoding: .utf8)
        let first = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("rendered 3 of 3 segments"), "\(first.stdout)")
        try Self.spec(title: "Two").write(to: spec, atomically: true, encoding: .utf8)
        let second = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path])
        #expect(second.stdout.contains("rendered 1 of 3 segments (frames 120..<180), reused 2"), "\(second.stdout)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 180)
        let third = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path, "--segment", "1s"])
        #expect(third.stdout.contains("rendered 6 of 6 segments"), "another segment length is other segments: \(third.stdout)")
        #expect(try decodeAll(movie).count == 180)
    }

    /// Issue 39: with `--lossless`, the movie joined from cached and re-rendered segments has a full
    /// render's frames (ffmpeg's framemd5 of both).
    @Test func withLosslessTheJoinedMovieHasAFullRendersFrames() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("film.json"), movie = folder.file("film.mp4"), full = folder.file("full.mp4"), cache = folder.file("cache")
        try Self.spec(title: "One").write(to: spec, atomically: true, encoding: .utf8)
        let first = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path, "--lossless"])
        #expect(first.status == 0, "\(first.stderr)")
        try Self.spec(title: "Two").write(to: spec, atomically: true, encoding: .utf8)
        let second = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path, "--lossless"])
        #expect(second.stdout.contains("rendered 1 of 3 segments (frames 120..<180), reused 2"), "\(second.stdout)")
        let whole = try CLI.run(["render", spec.path, "-o", full.path, "--lossless"])
        #expect(whole.status == 0, "\(whole.stderr)")
        func framemd5(_ url: URL) throws -> [Substring] {
            try run(FFTools.ffmpeg, ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "framemd5", "-"]).stdout
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
        }
        let joined = try framemd5(movie), reference = try framemd5(full)
        #expect(joined.count == 180 && joined == reference, "the joined movie's frames differ from a full render's")
    }

    /// A file the picture reads that is not a photo or video leaf (a `.cube` LUT, a Lottie animation) was
    /// known to the segments' names by its path only: an edited LUT reused the old segments.
    @Test func anEditedLUTRendersTheSegmentsAgain() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("film.json"), movie = folder.file("film.mp4"), cache = folder.file("cache"), cube = folder.file("look.cube")
        func lut(_ red: Bool) -> String {
            var text = "LUT_3D_SIZE 2\n"
            for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { text += red ? "1 0 0\n" : "\(r) \(g) \(b)\n" } } }
            return text
        }
        try lut(false).write(to: cube, atomically: true, encoding: .utf8)
        try """
            {"version": 1, "output": {"size": "160x120", "fps": 30, "encoder": {"preset": "ultrafast"}},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#808080", "duration": "2s", "filters": [{"name": "lut", "file": "look.cube"}]}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        let first = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path])
        #expect(first.status == 0, "\(first.stderr)")
        try lut(true).write(to: cube, atomically: true, encoding: .utf8)
        let second = try CLI.run(["render", spec.path, "-o", movie.path, "--cache", cache.path])
        #expect(second.status == 0 && second.stdout.contains("rendered 1 of 1 segment") && second.stdout.contains("reused 0"), "\(second.stdout)")
        let middle = try #require(try decodeAll(movie).dropFirst(30).first).pixels.rgba(x: 80, y: 60)
        #expect(middle.red > 200 && middle.green < 40, "the new LUT's red: \(middle)")
    }

    @Test func aCacheNeedsAnH264MovieAndNoBurnedInSubtitles() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("film.json")
        try Self.spec(title: "One").write(to: spec, atomically: true, encoding: .utf8)
        let webm = try CLI.run(["render", spec.path, "-o", folder.file("x.webm").path, "--cache", folder.file("c").path])
        #expect(webm.status == 64 && webm.stderr.contains("give -o movie.mp4"), "\(webm.stderr)")
        try "1\n00:00:00,000 --> 00:00:01,000\nHi\n".write(to: folder.file("s.srt"), atomically: true, encoding: .utf8)
        let subtitles = try CLI.run(["render", spec.path, "-o", folder.file("x.mp4").path, "--cache", folder.file("c").path, "--subtitles", folder.file("s.srt").path])
        #expect(subtitles.status == 64 && subtitles.stderr.contains("--cache does not burn in"), "\(subtitles.stderr)")
        let hevc = folder.file("hevc.json")
        try Self.spec(title: "One").replacingOccurrences(of: #""preset": "ultrafast"}"#, with: #""preset": "ultrafast", "codec": "hevc"}"#)
            .write(to: hevc, atomically: true, encoding: .utf8)
        let described = try CLI.run(["render", hevc.path, "-o", folder.file("x.mp4").path, "--cache", folder.file("c").path])
        #expect(described.status == 64 && described.stderr.contains("hevc.json: output.encoder.codec: hevc cannot be rendered incrementally"), "\(described.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.mp4").path) && !FileManager.default.fileExists(atPath: folder.file("c").path))
    }
}

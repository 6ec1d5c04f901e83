import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker stitch --reframe`: a landscape clip becomes a vertical movie whose window follows what
/// moves, and a missing face model is one clear error before any file is written.
@Suite("stitch --reframe")
struct ReframeCommandTests {
    /// A `seconds`-long 640×360 clip: a light square crossing a dark picture from x 120 to x 480.
    static func crossing(_ url: URL, seconds: Int = 3) throws {
        try VideoFixtures.write(Clip(duration: Time(value: Int64(seconds), timescale: 1)) { ctx, frame in
            ctx.clear(Color(red: 0.1, green: 0.12, blue: 0.2))
            let x = 120 + 360 * frame.time / Double(seconds)
            ctx.setFill(Color(red: 0.95, green: 0.8, blue: 0.4))
            ctx.fillRect(Rect(x: x - 40, y: 140, width: 80, height: 80))
        }, to: url, width: 640, height: 360)
    }

    @Test("--reframe 9:16 makes a 9:16 movie of the clip's longer side whose window keeps the moving square in view, and a second run reads the analysis from the disk cache")
    func vertical() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("crossing.mp4"), out = folder.file("vertical.mp4")
        try Self.crossing(clip)
        let r = try CLI.run(["stitch", clip.path, "--reframe", "9:16", "--preset", "ultrafast", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(out)
        try #require(frames.count == 90)
        #expect(frames[0].pixels.width == 360 && frames[0].pixels.height == 640)
        // The square (light) is seen in every frame: the window follows it across 360 pixels while a
        // window centred on the picture would lose it.
        var seen = 0
        for f in frames {
            let p = f.pixels
            let light = Swift.stride(from: 0, to: p.width, by: 4).contains { x in p.rgba(x: x, y: p.height / 2).red > 180 }
            if light { seen += 1 }
        }
        #expect(seen >= 86, "the square was in view in \(seen) of 90 frames")

        // The analysis was kept on disk, by content; a second run finds it (does not write it again)
        // and makes the same pictures.
        let key = try #require(SubjectCache.key(for: clip))
        let stored = CLI.cacheHome.appendingPathComponent("moviemaker/subjects/\(key).json")
        let written = try #require(try? FileManager.default.attributesOfItem(atPath: stored.path)[.modificationDate] as? Date, "no analysis in \(stored.path)")
        let again = folder.file("again.mp4")
        let r2 = try CLI.run(["stitch", clip.path, "--reframe", "9:16", "--preset", "ultrafast", "-o", again.path])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: stored.path)[.modificationDate] as? Date == written)
        #expect(try decodeAll(again).map(\.pixels) == frames.map(\.pixels))
    }

    @Test("a missing face model is one error naming it and how to fix it, and nothing is written")
    func missingModel() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("crossing.mp4"), out = folder.file("vertical.mp4")
        // Another clip than the other test's: an analysis in the cache needs no model.
        try Self.crossing(clip, seconds: 2)
        let r = try CLI.run(["stitch", clip.path, "--reframe", "9:16", "-o", out.path], environment: ["MOVIEMAKER_FACE_CASCADE": "/nonexistent/cascade.xml"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("/nonexistent/cascade.xml") && r.stderr.contains("reframing cannot run"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let bad = try CLI.run(["stitch", clip.path, "--reframe", "9:0", "-o", out.path])
        #expect(bad.status != 0 && bad.stderr.contains("9:0") && bad.stderr.contains("--reframe") && bad.stderr.contains("9:16"), "\(bad.stderr)")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker title`: a still is a frame of the movie, and a lower third can sit over a picture or a video.
@Suite("moviemaker title: stills and backgrounds")
struct TitleStillAndBackgroundTests {
    static let size = "320x240"
    let w = 320, h = 240

    /// A PNG's pixels, drawn into a 320×240 canvas.
    func pixels(_ url: URL) throws -> PixelBuffer {
        let image = try Image(contentsOf: url)
        #expect(image.width == w && image.height == h)
        let c = try Canvas(width: w, height: h)
        try c.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        return c.pixels()
    }

    @Test func lowerThirdStillIsTheMoviesFrame() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("lt.mp4"), still = folder.file("lt.png")
        let common = ["title", "Jane Doe", "--subtitle", "Director", "--layout", "lower-third", "--duration", "2", "--size", Self.size]
        let m = try CLI.run(common + ["-o", movie.path])
        #expect(m.status == 0, "\(m.stderr)")
        let s = try CLI.run(common + ["--still", "1.2", "-o", still.path])
        #expect(s.status == 0, "\(s.stderr)")
        let frames = try decodeAll(movie)
        try #require(frames.count == 60)
        let frame = frames[36].pixels   // 1.2 s at 30 fps
        let picture = try pixels(still)
        let db = psnr(picture, frame)
        #expect(db >= 35, "the still differs from the movie's frame at 1.2 s: PSNR \(db) dB")
        // Outside the band both are the movie's black; the band is there in both.
        #expect(picture.rgba(x: w / 2, y: 10) == (0, 0, 0, 255), "still above the band: \(picture.rgba(x: w / 2, y: 10))")
        #expect(inkBox(picture) != nil && inkBox(frame) != nil)
    }

    @Test func lowerThirdSitsOverABackgroundImage() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        // Wider than the frame, orange on the left half and blue on the right: a cover fit crops the
        // sides and keeps the split in the middle.
        let image = folder.file("bg.png")
        let canvas = try Canvas(width: 480, height: 240)
        try canvas.draw { ctx in
            ctx.setFill(Color(red: 1, green: 0.5, blue: 0)); ctx.fillRect(Rect(x: 0, y: 0, width: 240, height: 240))
            ctx.setFill(Color(red: 0, green: 0, blue: 1)); ctx.fillRect(Rect(x: 240, y: 0, width: 240, height: 240))
        }
        try canvas.writePNG(to: image)
        let out = folder.file("over.png"), movie = folder.file("over.mp4")
        let common = ["title", "Jane Doe", "--layout", "lower-third", "--duration", "2", "--size", Self.size,
                      "--background-image", image.path]
        let r = try CLI.run(common + ["--still", "1", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let px = try pixels(out)
        let left = px.rgba(x: 40, y: 20), right = px.rgba(x: 280, y: 20)
        #expect(left.red > 240 && abs(Int(left.green) - 128) < 8 && left.blue < 10, "orange above the band on the left: \(left)")
        #expect(right.blue > 240 && right.red < 10, "blue above the band on the right: \(right)")
        #expect(px.rgba(x: 150, y: 20).red > 240 && px.rgba(x: 170, y: 20).blue > 240, "cover fit: the split stays at the centre")
        #expect(inkBox(px, in: (x: 0..<w, y: h / 2..<h)) != nil, "the name is drawn in the band")
        // The movie shows the same.
        let m = try CLI.run(common + ["-o", movie.path])
        #expect(m.status == 0, "\(m.stderr)")
        let frames = try decodeAll(movie)
        try #require(frames.count == 60)
        // The same frame: the hard orange/blue edge costs the encoder's half-resolution colour some
        // accuracy (so no 35 dB here); the colours either side of it and the text are the still's.
        let frame = frames[30].pixels
        #expect(psnr(frame, px) >= 30, "PSNR \(psnr(frame, px)) dB")
        for (x, y) in [(40, 20), (280, 20), (150, 60), (170, 60)] {
            let a = frame.rgba(x: x, y: y), b = px.rgba(x: x, y: y)
            #expect(abs(Int(a.red) - Int(b.red)) <= 6 && abs(Int(a.green) - Int(b.green)) <= 6 && abs(Int(a.blue) - Int(b.blue)) <= 6,
                    "(\(x), \(y)): movie \(a), still \(b)")
        }
        #expect(inkBox(frame, in: (x: 0..<w, y: h / 2..<h)) != nil)
    }

    /// A 1 s video: green for its first half, magenta for its second (looped to a 2 s card: green from
    /// frame 0, 30; magenta from frame 15, 45).
    static func halfGreenVideo(in folder: TemporaryFolder) throws -> URL {
        let video = folder.file("bg.mp4")
        let maker = try MovieMaker(url: video, width: 160, height: 120, fps: 30)
        try maker.addFrames(count: 30) { ctx, frame in
            ctx.clear(frame.index < 15 ? Color(red: 0, green: 0.8, blue: 0) : Color(red: 0.8, green: 0, blue: 0.8))
        }
        _ = try maker.finish()
        return video
    }

    /// Without `--still`, the PNG is the movie's middle frame, at its exact time: frame 30 of 60 here, whose
    /// looped background is green, where frame 29's is still magenta.
    @Test func theDefaultStillIsTheMiddleFrameOfTheMovie() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let video = try Self.halfGreenVideo(in: folder)
        let still = folder.file("middle.png"), movie = folder.file("whole.mp4")
        let common = ["title", "Jane Doe", "--layout", "lower-third", "--duration", "2", "--size", Self.size,
                      "--background-video", video.path]
        let r = try CLI.run(common + ["-o", still.path])
        #expect(r.status == 0, "\(r.stderr)")
        let c = try pixels(still).rgba(x: w / 2, y: 20)
        #expect(c.green > 150 && c.red < 60, "frame 30's background is green (frame 29's is magenta): \(c)")
        let m = try CLI.run(common + ["-o", movie.path])
        #expect(m.status == 0, "\(m.stderr)")
        let frames = try decodeAll(movie)
        try #require(frames.count == 60)
        #expect(psnr(frames[30].pixels, try pixels(still)) > psnr(frames[29].pixels, try pixels(still)) + 10,
                "the still is frame 30, not its neighbour")
    }

    @Test func lowerThirdSitsOverABackgroundVideo() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let video = try Self.halfGreenVideo(in: folder)
        let movie = folder.file("over.mp4"), still = folder.file("over.png")
        let common = ["title", "Jane Doe", "--layout", "lower-third", "--duration", "2", "--size", Self.size,
                      "--background-video", video.path]
        let r = try CLI.run(common + ["-o", movie.path])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(movie)
        try #require(frames.count == 60)
        for (index, green) in [(5, true), (20, false), (35, true), (50, false)] {
            let c = frames[index].pixels.rgba(x: w / 2, y: 20)
            if green {
                #expect(c.green > 170 && c.red < 40 && c.blue < 40, "frame \(index) shows the video's green: \(c)")
            } else {
                #expect(c.red > 170 && c.blue > 170 && c.green < 40, "frame \(index) shows the video's magenta: \(c)")
            }
        }
        #expect(inkBox(frames[40].pixels, in: (x: 0..<w, y: h / 2..<h)) != nil, "the name is drawn over the video")
        let s = try CLI.run(common + ["--still", "1.5", "-o", still.path])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(psnr(try pixels(still), frames[45].pixels) >= 35)
    }

    @Test func backgroundImageAndTransparencyConflict() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let r = try CLI.run(["title", "X", "--transparent", "--background-image", "/nonexistent.png", "-o", folder.file("x.mov").path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--background-image") && r.stderr.contains("--transparent"), "\(r.stderr)")
        let missing = try CLI.run(["title", "X", "--background-image", folder.file("nope.png").path, "--size", Self.size,
                                   "-o", folder.file("x.mp4").path])
        #expect(missing.status != 0 && missing.stderr.contains("nope.png"), "\(missing.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }
}

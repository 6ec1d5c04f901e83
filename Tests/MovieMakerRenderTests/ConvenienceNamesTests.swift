import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Issue 33 (friction): the names users reached for, from p5.js, MoviePy, Manim and Remotion, where they
// fit the library: circles and lines in one call, a fade that reaches its colour (trails), Remotion's
// interpolate, frames by duration, a movie by size, and a clip written straight to a file.
@Suite("Names users guess")
struct ConvenienceNamesTests {
    @Test("fillCircle, strokeCircle and strokeLine draw what they say")
    func circlesAndLines() throws {
        let canvas = try Canvas(width: 100, height: 100)
        try canvas.draw { ctx in
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillCircle(center: Point(x: 30, y: 30), radius: 10)
            ctx.setStroke(Color(red: 1, green: 0, blue: 0)); ctx.lineWidth = 4
            ctx.strokeLine(from: Point(x: 0, y: 80), to: Point(x: 100, y: 80))
            ctx.strokeCircle(center: Point(x: 70, y: 30), radius: 15)
        }
        let p = canvas.pixels()
        #expect(p.rgba(x: 30, y: 30).red == 255 && p.rgba(x: 30, y: 30).green == 255, "inside the filled circle")
        #expect(p.rgba(x: 30, y: 43).red == 0, "outside it")
        #expect(p.rgba(x: 50, y: 80).red == 255 && p.rgba(x: 50, y: 80).green == 0, "on the line")
        #expect(p.rgba(x: 85, y: 30).red == 255 && p.rgba(x: 70, y: 30).red == 0, "on the stroked circle, not inside it")
    }

    @Test("fade(toward:amount:) reaches black exactly; a translucent black rectangle each frame stalls at grey")
    func fadeReachesItsColour() throws {
        let faded = try Canvas(width: 8, height: 8), painted = try Canvas(width: 8, height: 8)
        try faded.draw { $0.clear(.white) }
        try painted.draw { $0.clear(.white) }
        for _ in 0..<120 {
            try faded.draw { $0.fade(toward: .black, amount: 0.1) }
            try painted.draw { ctx in ctx.setFill(Color(white: 0, alpha: 0.1)); ctx.fillRect(Rect(x: 0, y: 0, width: 8, height: 8)) }
        }
        let f = faded.pixels().rgba(x: 4, y: 4), g = painted.pixels().rgba(x: 4, y: 4)
        #expect(f.red == 0 && f.green == 0 && f.blue == 0 && f.alpha == 255, "fade: \(f)")
        #expect(g.red > 0, "the translucent rectangle was expected to stall above black (8-bit rounding): \(g)")
        // Towards a colour, and partway.
        try faded.draw { $0.clear(.black) }
        try faded.draw { $0.fade(toward: Color(red: 1, green: 0.5, blue: 0), amount: 0.5) }
        let half = faded.pixels().rgba(x: 0, y: 0)
        #expect(abs(Int(half.red) - 128) <= 1 && abs(Int(half.green) - 64) <= 1 && half.blue == 0, "\(half)")
    }

    @Test("interpolate maps points to points along an easing, clamped beyond them")
    func interpolateLikeRemotion() {
        #expect(interpolate(0.5, from: [0, 1], to: [0, 720]) == 360)
        #expect(interpolate(-1, from: [0, 1], to: [0, 720]) == 0 && interpolate(3, from: [0, 1], to: [0, 720]) == 720)
        #expect(interpolate(1.5, from: [0, 1, 2], to: [0, 1, 0]) == 0.5)
        #expect(interpolate(0.5, from: [0, 1], to: [720, 0]) == 360)
        #expect(abs(interpolate(0.25, from: [0, 1], to: [0, 1], easing: .easeInOut) - Easing.easeInOut(0.25)) < 1e-12)
    }

    @Test("MovieMaker(url:size:fps:), addFrames(duration:) and clip.render(to:…) write the frames asked for")
    func moviesBySizeAndDuration() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("by-duration.mp4")
        let movie = try MovieMaker(url: url, size: Size(width: 160, height: 120), fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.addFrames(duration: 1.5) { ctx, _ in ctx.clear(.blue) }
        try movie.addFrames(duration: 0.5, independent: true) { ctx, _ in ctx.clear(.red) }
        let summary = try movie.finish()
        #expect(summary.frameCount == 60 && summary.width == 160 && summary.height == 120, "\(summary)")
        #expect(try decodeAll(url).count == 60)
        let clipURL = folder.file("clip.mp4")
        let written = try Clip.color(.green, duration: 0.5).render(to: clipURL, width: 160, height: 120, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        let decoded = try decodeAll(clipURL).count
        #expect(written.frameCount == 15 && decoded == 15)
    }
}

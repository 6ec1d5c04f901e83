import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Bézier animation clips")
struct BezierAnimationTests {
    let w = 200, h = 100
    let rate: FrameRate = 25

    func still(_ clip: Clip, frame index: Int) throws -> PixelBuffer {
        try clip.still(at: rate.time(ofFrame: index), width: w, height: h, rate: rate).pixels()
    }
    func stroked(_ path: Path, _ style: StrokeStyle) throws -> PixelBuffer {
        let canvas = try Canvas(width: w, height: h)
        try canvas.draw { ctx in ctx.clear(.black); ctx.stroke(path, style: style) }
        return canvas.pixels()
    }

    var line: Path { var p = Path(); p.move(to: Point(x: 20, y: 50)); p.line(to: Point(x: 180, y: 50)); return p }

    @Test("Draw-on: nothing on the first frame, half the line half way (linear), the whole path on the last frame")
    func drawOn() throws {
        let style = StrokeStyle(.white, width: 6, cap: .butt)
        let clip = BezierAnimation.drawOn(line, duration: 1, stroke: style, easing: .linear)   // 25 frames: 0…24
        #expect(inkBox(try still(clip, frame: 0)) == nil)
        let half = try #require(inkBox(try still(clip, frame: 12)))
        #expect(half.minX == 20 && abs(half.maxX - 99) <= 1, "ends at 20 + 160·12/24 = 100: \(half)")
        #expect(try still(clip, frame: 24) == (try stroked(line, style)), "last frame is the full stroke")
    }

    @Test("Morph: first frame is the start shape, last frame the end shape, in between neither")
    func morph() throws {
        let square = Path(rect: Rect(x: 60, y: 20, width: 60, height: 60))
        let circle = Path(ellipseIn: Rect(x: 70, y: 20, width: 60, height: 60))
        let clip = BezierAnimation.morph(from: square, to: circle, duration: 1, fill: .color(.white), easing: .linear)
        func filled(_ p: Path) throws -> PixelBuffer {
            let c = try Canvas(width: w, height: h)
            try c.draw { ctx in ctx.clear(.black); ctx.setFill(.white); ctx.fill(p) }
            return c.pixels()
        }
        let first = try still(clip, frame: 0), last = try still(clip, frame: 24), mid = try still(clip, frame: 12)
        let squarePixels = try filled(square), circlePixels = try filled(circle)
        let differing = { (a: PixelBuffer, b: PixelBuffer) -> Int in
            var n = 0
            for y in 0..<a.height { for x in 0..<a.width where abs(Int(a.rgba(x: x, y: y).red) - Int(b.rgba(x: x, y: y).red)) > 40 { n += 1 } }
            return n
        }
        #expect(differing(first, squarePixels) < 20)
        #expect(differing(last, circlePixels) < 20)
        #expect(differing(mid, squarePixels) > 100 && differing(mid, circlePixels) > 100)
    }

    @Test("Follow: the object sits on the path at the eased fraction and turns with the tangent")
    func follow() throws {
        var path = Path()
        path.move(to: Point(x: 20, y: 80)); path.line(to: Point(x: 100, y: 80)); path.line(to: Point(x: 100, y: 10))
        // A marker 10 px ahead of the origin along +x shows the orientation.
        let clip = BezierAnimation.follow(path, duration: 1, easing: .linear) { ctx in
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: 8, y: -2, width: 4, height: 4))
        }
        // Frame 6 of 24: fraction 0.25 of length 150 → 37.5 px along the first leg, heading +x.
        let a = try #require(inkBox(try still(clip, frame: 6)))
        #expect(abs(Double(a.minX + a.maxX) / 2 + 0.5 - (20 + 37.5 + 10)) <= 1.5 && abs(Double(a.minY + a.maxY) / 2 + 0.5 - 80) <= 1.5, "\(a)")
        // Last frame: at the end (100, 10) heading up (−y), so the marker is 10 px above.
        let b = try #require(inkBox(try still(clip, frame: 24)))
        #expect(abs(Double(b.minX + b.maxX) / 2 + 0.5 - 100) <= 1.5 && abs(Double(b.minY + b.maxY) / 2 + 0.5 - 0) <= 2.5, "\(b)")
    }

    @Test("Control-point animation moves the points the closure says, at the frame's time")
    func controlPoints() throws {
        var path = Path()
        path.move(to: Point(x: 20, y: 50)); path.curve(to: Point(x: 180, y: 50), control1: Point(x: 70, y: 50), control2: Point(x: 130, y: 50))
        let style = StrokeStyle(.white, width: 4)
        let clip = BezierAnimation.controlPoints(path, duration: 1, stroke: style) { p, _, slot, t in
            slot == 0 ? p : Point(x: p.x, y: p.y + 100 * t)       // control points sink 4 px per frame at 25 fps
        }
        #expect(try still(clip, frame: 0) == (try stroked(path, style)), "unmoved at time 0")
        let later = try #require(inkBox(try still(clip, frame: 10)))
        // At t = 0.4 s both controls are 40 px lower: the curve's lowest point is 0.75·40 = 30 px down.
        #expect(abs(later.maxY - (50 + 30 + 2)) <= 2, "\(later)")
        // The wiggle preset keeps the anchors fixed: the end points still carry ink.
        let wiggle = try still(BezierAnimation.wiggle(path, duration: 2, stroke: style, showControlPoints: false), frame: 17)
        #expect(wiggle.rgba(x: 21, y: 50).red > 100 && wiggle.rgba(x: 179, y: 50).red > 100)
    }
}

@Suite("Stills")
struct StillTests {
    @Test("A still equals the movie's frame at that time (before encoding) and its PNG keeps the pixels")
    func stillMatchesFrame() throws {
        let clip = Clip(duration: 2) { ctx, frame in
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: Double(frame.index * 4), y: 10, width: 10, height: 10))
        }
        let px = try clip.still(at: 1.5, width: 160, height: 40, rate: 10).pixels()
        #expect(inkBox(px)?.minX == 60, "frame 15 draws its square at x = 60")
        let folder = try TemporaryFolder()
        let url = folder.file("frame.png")
        try clip.writeStill(at: 1.5, width: 160, height: 40, to: url, rate: 10)
        let image = try Image(contentsOf: url)
        let canvas = try Canvas(width: 160, height: 40)
        try canvas.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        #expect(canvas.pixels() == px)
        #expect(folder.contents == ["frame.png"], "no temporary file left: \(folder.contents)")
    }

    @Test("A still outside the clip is a typed error naming the time")
    func outOfRange() throws {
        #expect(throws: MovieMakerError.self) { _ = try Clip.color(.red, duration: 1).still(at: 2, width: 16, height: 16) }
    }
}

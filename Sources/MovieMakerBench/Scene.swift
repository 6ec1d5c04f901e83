import Foundation
import MovieMaker
import MovieMakerWorkloads

/// The standard workload's picture: a full-frame gradient background, `pathCount` animated closed
/// cubic-Bézier blobs, each filled with a linear or radial gradient and stroked, and one line of text
/// in the default font (DejaVu Sans 24 px).
///
/// Every frame is a pure function of its index: time is `rate.seconds(ofFrame: index)`, and each
/// blob's motion parameters come from its number, so the drawing passes of phases (a), (b) and (d)
/// draw exactly the same pictures.
struct BenchmarkScene {
    /// Picture width in pixels.
    let width: Double
    /// Picture height in pixels.
    let height: Double
    /// The movie's frame rate, which turns frame indices into times.
    let rate: FrameRate
    /// Number of Bézier blobs per frame.
    let pathCount: Int

    /// Segments per blob: each is one cubic Bézier curve.
    private static let segments = 4

    /// Draws frame `index`, covering the whole picture (nothing of the previous frame shows).
    func draw(in ctx: DrawingContext, frame index: Int) throws {
        let t = rate.seconds(ofFrame: index)
        drawBackground(ctx, t: t)
        ctx.lineWidth = 4
        ctx.lineJoin = .round
        for k in 0..<pathCount { drawBlob(ctx, number: k, t: t) }
        ctx.setFill(.white)
        try ctx.draw(String(format: "MovieMaker benchmark  frame %05d  t = %7.3f s", index, t),
                     at: Point(x: 40, y: height - 40))
    }

    private func drawBackground(_ ctx: DrawingContext, t: Double) {
        let swing = 0.5 + 0.5 * sin(t * 0.7)
        ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: width, y: height * swing),
                            colors: [hsv(0.62 + 0.05 * swing, 0.6, 0.18), hsv(0.75, 0.5, 0.35)]))
        ctx.fillRect(ctx.bounds)
    }

    /// Blob `k`: a closed loop of cubic Béziers whose centre follows a Lissajous curve, whose radius
    /// breathes and whose control points wobble, all from `k` and `t`.
    private func drawBlob(_ ctx: DrawingContext, number k: Int, t: Double) {
        let p = BlobParameters(number: k)
        let center = Point(x: width * (0.5 + 0.42 * sin(t * p.speedX + p.phase)),
                           y: height * (0.5 + 0.40 * cos(t * p.speedY + 2 * p.phase)))
        let radius = p.radius * (1 + 0.3 * sin(t * 2.1 + p.phase))
        let spin = t * p.spin
        let n = Self.segments
        func anchor(_ j: Int) -> Point {
            let a = spin + Double(j) * 2 * .pi / Double(n)
            let r = radius * (1 + 0.25 * sin(t * 3 + Double(j) + p.phase))
            return Point(x: center.x + r * cos(a), y: center.y + r * sin(a))
        }
        func control(_ j: Int, _ side: Double) -> Point {
            let a = spin + (Double(j) + side) * 2 * .pi / Double(n)
            let r = radius * (1.25 + 0.45 * sin(t * 1.7 + Double(j) * 1.3 + p.phase * side))
            return Point(x: center.x + r * cos(a), y: center.y + r * sin(a))
        }

        ctx.beginPath()
        ctx.move(to: anchor(0))
        for j in 0..<n {
            ctx.curve(to: anchor(j + 1), control1: control(j, 0.33), control2: control(j, 0.67))
        }
        ctx.closePath()

        let hue = (p.hue + 0.03 * t).truncatingRemainder(dividingBy: 1)
        let light = hsv(hue, 0.55, 1.0).withAlpha(0.85), dark = hsv(hue + 0.08, 0.9, 0.55).withAlpha(0.85)
        if k % 2 == 0 {
            ctx.setFill(.radial(center: center, radius: radius * 1.4, colors: [light, dark]))
        } else {
            ctx.setFill(.linear(from: Point(x: center.x - radius, y: center.y - radius),
                                to: Point(x: center.x + radius, y: center.y + radius), colors: [light, dark, light]))
        }
        ctx.setStroke(hsv(hue + 0.5, 0.4, 1.0).withAlpha(0.9))
        ctx.fillAndStroke()
    }
}

/// Per-blob constants, derived from the blob's number alone (golden-ratio sequences, no randomness).
private struct BlobParameters {
    let speedX, speedY, phase, spin, radius, hue: Double
    init(number k: Int) {
        let g = 0.618_033_988_749_895
        func frac(_ x: Double) -> Double { x - x.rounded(.down) }
        let u = frac(Double(k) * g), v = frac(Double(k) * g * g + 0.31), w = frac(Double(k) * 0.754_877_666 + 0.17)
        speedX = 0.25 + 0.6 * u
        speedY = 0.20 + 0.5 * v
        phase = 2 * .pi * w
        spin = (k % 3 == 0 ? -1 : 1) * (0.3 + 0.9 * v)
        radius = 40 + 90 * w
        hue = u
    }
}

/// A simple picture for the memory-flatness runs: a plain background, one moving stroked curve and
/// a frame counter.
struct SmallScene {
    /// Picture width in pixels.
    let width: Double
    /// Picture height in pixels.
    let height: Double
    /// The movie's frame rate.
    let rate: FrameRate

    /// Draws frame `index`.
    func draw(in ctx: DrawingContext, frame index: Int) throws {
        let t = rate.seconds(ofFrame: index)
        ctx.setFill(Color(white: 0.1))
        ctx.fillRect(ctx.bounds)
        ctx.setStroke(.yellow)
        ctx.lineWidth = 3
        ctx.beginPath()
        ctx.move(to: Point(x: 10, y: height / 2))
        ctx.curve(to: Point(x: width - 10, y: height / 2),
                  control1: Point(x: width / 3, y: height / 2 - height * 0.4 * sin(t * 2)),
                  control2: Point(x: 2 * width / 3, y: height / 2 + height * 0.4 * sin(t * 3)))
        ctx.stroke()
        ctx.setFill(.white)
        try ctx.draw("frame \(index)", at: Point(x: 10, y: 30))
    }
}

/// A colour from hue (wrapping, 0…1), saturation and value: the workloads' own, from MovieMakerTestSupport.
func hsv(_ hue: Double, _ saturation: Double, _ value: Double) -> Color { PeerScene.hsv(hue, saturation, value) }

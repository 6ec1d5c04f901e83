import Foundation
import MovieMaker

/// The pictures of `make bench-peers`' W1 and W3, the same as bench/peers/workloads.py draws them at
/// 1920×1080 (smaller canvases get the same scene scaled by its size), shared by the benchmark and the
/// tests that check the YUV conversion on the workloads' own frames.
public enum PeerScene {
    static let shapes = 50
    private static let params = (0..<shapes).map(Blob.init)

    private struct Blob {
        let speedX, speedY, phase, spin, radius, hue: Double
        init(_ k: Int) {
            let g = 0.618_033_988_749_895
            func frac(_ x: Double) -> Double { x - x.rounded(.down) }
            let u = frac(Double(k) * g), v = frac(Double(k) * g * g + 0.31), w = frac(Double(k) * 0.754_877_666 + 0.17)
            speedX = 0.25 + 0.6 * u; speedY = 0.20 + 0.5 * v; phase = 2 * .pi * w
            spin = (k % 3 == 0 ? -1 : 1) * (0.3 + 0.9 * v); radius = 40 + 90 * w; hue = u
        }
    }

    /// W1's frame `index`: a gradient background, 50 gradient-filled and stroked 4-Bézier shapes, the frame number.
    public static func drawW1(_ ctx: DrawingContext, index: Int) throws {
        let t = Double(index) / 30, w = ctx.bounds.width, h = ctx.bounds.height
        let swing = 0.5 + 0.5 * sin(t * 0.7)
        ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: w, y: h * swing),
                            colors: [hsv(0.62 + 0.05 * swing, 0.6, 0.18), hsv(0.75, 0.5, 0.35)]))
        ctx.fillRect(ctx.bounds)
        ctx.lineWidth = 4
        ctx.lineJoin = .round
        let n = 4
        for p in params {
            let cx = w * (0.5 + 0.42 * sin(t * p.speedX + p.phase)), cy = h * (0.5 + 0.40 * cos(t * p.speedY + 2 * p.phase))
            let radius = p.radius * (1 + 0.3 * sin(t * 2.1 + p.phase)), spin = t * p.spin
            func anchor(_ j: Int) -> Point {
                let a = spin + Double(j) * 2 * .pi / Double(n), r = radius * (1 + 0.25 * sin(t * 3 + Double(j) + p.phase))
                return Point(x: cx + r * cos(a), y: cy + r * sin(a))
            }
            func control(_ j: Int, _ side: Double) -> Point {
                let a = spin + (Double(j) + side) * 2 * .pi / Double(n)
                let r = radius * (1.25 + 0.45 * sin(t * 1.7 + Double(j) * 1.3 + p.phase * side))
                return Point(x: cx + r * cos(a), y: cy + r * sin(a))
            }
            ctx.beginPath()
            ctx.move(to: anchor(0))
            for j in 0..<n { ctx.curve(to: anchor(j + 1), control1: control(j, 0.33), control2: control(j, 0.67)) }
            ctx.closePath()
            let hue = (p.hue + 0.03 * t).truncatingRemainder(dividingBy: 1)
            let light = hsv(hue, 0.55, 1.0).withAlpha(0.85), dark = hsv(hue + 0.08, 0.9, 0.55).withAlpha(0.85)
            ctx.setFill(.linear(from: Point(x: cx - radius, y: cy - radius), to: Point(x: cx + radius, y: cy + radius), colors: [light, dark, light]))
            ctx.setStroke(hsv(hue + 0.5, 0.4, 1.0).withAlpha(0.9))
            ctx.fillAndStroke()
        }
        ctx.setFill(.white)
        try ctx.draw(String(format: "frame %05d", index), at: Point(x: 40, y: h - 40))
    }

    private static let titleFont = TextFont(family: "DejaVu Sans", size: 120, weight: .bold)
    private static let subtitleFont = TextFont(family: "DejaVu Sans", size: 56)

    /// W3 at `time`: the title fading in while rising 60 px (cubic ease-out over 1 s), the subtitle fading in from 1.0 to 1.5 s.
    public static func drawW3(_ ctx: DrawingContext, time t: Double) throws {
        ctx.clear(Color(red8: 0x10, green8: 0x18, blue8: 0x20))
        let p = min(max(t, 0), 1), e = 1 - pow(1 - p, 3)
        let sub = min(max((t - 1) / 0.5, 0), 1)
        for (text, font, y, alpha) in [("MovieMaker", titleFont, 470 + 60 * (1 - e), e), ("faster than every peer", subtitleFont, 610.0, sub)] where alpha > 0 {
            let size = try ctx.measure(text, font: font)
            ctx.setFill(Color(white: 1, alpha: alpha))
            try ctx.draw(text, at: Point(x: (ctx.bounds.width - size.width) / 2, y: y), font: font)
        }
    }

    /// A colour from hue (wrapping, 0…1), saturation and value.
    public static func hsv(_ hue: Double, _ saturation: Double, _ value: Double) -> Color {
        let h = (hue - hue.rounded(.down)) * 6
        let i = Int(h) % 6, f = h - h.rounded(.down)
        let p = value * (1 - saturation), q = value * (1 - saturation * f), r = value * (1 - saturation * (1 - f))
        let (red, green, blue): (Double, Double, Double)
        switch i {
        case 0: (red, green, blue) = (value, r, p)
        case 1: (red, green, blue) = (q, value, p)
        case 2: (red, green, blue) = (p, value, r)
        case 3: (red, green, blue) = (p, q, value)
        case 4: (red, green, blue) = (r, p, value)
        default: (red, green, blue) = (value, p, q)
        }
        return Color(red: red, green: green, blue: blue)
    }
}

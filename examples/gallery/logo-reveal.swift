// A Bézier logo reveal: a hexagon, a wave and a sun are drawn on as if by a pen (each path trimmed to
// a growing fraction of its length), then filled; the wordmark's letter outlines are drawn on the same
// way before they fill in, and a tagline fades up. 4 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/logo-reveal.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/logo-reveal.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/logo-reveal.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size; the animation follows `frame.progress`.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 120
let scale = Double(width) / 1280

// The logo's paths, in design pixels. Paths are values: made once, then trimmed in every frame.
let center = Point(x: 640, y: 270)
let hexagon = try Path.regularPolygon(center: center, radius: 150, sides: 6, rotation: .pi / 6)
let wave = try Path(svg: "M -105 35 C -65 -75, -25 -75, 0 0 C 25 75, 65 75, 105 -35")
    .applying(.translation(x: center.x, y: center.y + 10))
let sun = Path(circleCenter: Point(x: center.x + 62, y: center.y - 62), radius: 22)

// The wordmark as glyph outlines: a Path like any other (moved into place under the logo), so it can
// be trimmed too.
let wordStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 88, weight: .bold), letterSpacing: 6)
let wordLayout = try TextLayout("WAVELENGTH", style: wordStyle)
let word = wordLayout.path(at: .zero).applying(.translation(x: center.x - wordLayout.size.width / 2, y: 450))
let taglineStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 30), color: Color(white: 0.7), alignment: .center, letterSpacing: 4)

let accent = Color(hex: 0x00d4ff), warm = Color(hex: 0xffb703)
// Each outline's pen: when it starts and ends (as progress through the movie), its colour and width.
let strokes: [(path: Path, start: Double, end: Double, color: Color, width: Double)] = [
    (hexagon, 0, 0.4, accent, 8), (wave, 0.15, 0.45, .white, 12), (sun, 0.3, 0.5, warm, 6),
]

/// The part of `path` drawn at progress `p`, when its pen moves between `start` and `end` (progress).
func drawnOn(_ path: Path, _ p: Double, from start: Double, to end: Double) -> (Path, Double) {
    let fraction = interpolate(p, from: [start, end], to: [0, 1], easing: .cubicInOut)
    return (path.trimmed(from: 0, to: fraction), fraction)
}

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let p = frame.progress
    ctx.setFill(.radial(center: center, radius: 800, colors: [Color(hex: 0x1d2b3a), Color(hex: 0x0a0f16)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))

    // The fills come up under the strokes once the outlines are complete.
    let fill = interpolate(p, from: [0.45, 0.65], to: [0, 1])
    if fill > 0 {
        ctx.withOpacity(fill) {
            ctx.setFill(.linear(from: Point(x: center.x, y: center.y - 150), to: Point(x: center.x, y: center.y + 150),
                                colors: [Color(hex: 0x0077b6), Color(hex: 0x023e8a)]))
            ctx.fill(hexagon)
            ctx.setFill(warm)
            ctx.fill(sun)
        }
    }

    // The outlines, each drawn on by its own pen, with a bright dot at the pen's tip.
    ctx.lineCap = .round; ctx.lineJoin = .round
    for (path, start, end, color, lineWidth) in strokes {
        let (drawn, fraction) = drawnOn(path, p, from: start, to: end)
        guard fraction > 0 else { continue }
        ctx.setStroke(color); ctx.lineWidth = lineWidth
        ctx.stroke(drawn)
        if fraction < 1, let tip = path.point(atFraction: fraction) {
            ctx.setFill(.radial(center: tip, radius: 24, colors: [Color.white, color.withAlpha(0)]))
            ctx.fillCircle(center: tip, radius: 24)
        }
    }

    // The wordmark: letter outlines drawn on in reading order, then filled.
    let (outline, traced) = drawnOn(word, p, from: 0.35, to: 0.75)
    if traced > 0 {
        ctx.setStroke(Color(white: 1, alpha: 0.9)); ctx.lineWidth = 2
        ctx.stroke(outline)
    }
    let letters = interpolate(p, from: [0.7, 0.85], to: [0, 1])
    if letters > 0 {
        ctx.withOpacity(letters) {
            ctx.setFill(.linear(from: Point(x: 0, y: 450), to: Point(x: 0, y: 550), colors: [.white, accent]))
            ctx.fill(word)
        }
    }

    // The tagline rises and fades in.
    let tagline = interpolate(p, from: [0.8, 0.95], to: [0, 1], easing: .cubicOut)
    if tagline > 0 {
        try ctx.withOpacity(tagline) {
            try ctx.draw("MOVIES MADE FROM CODE", in: Rect(x: 240, y: 590 + 20 * (1 - tagline), width: 800, height: 50), style: taglineStyle)
        }
    }
}

let summary = try movie.finish()
print("logo-reveal: \(summary)")

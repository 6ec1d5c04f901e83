// A particle field: glowing particles drift on a slow swirl, neighbours joined by faint lines, with
// sparkles that flash for one frame. 5 s at 1280x720.
//
// Deterministic: the particles are made once from a seeded generator (never `random()`), their positions
// are functions of time, and each frame's sparkles come from a generator seeded with the frame's index,
// so a frame's pixels depend on its index alone (and the frames can be drawn on several threads).
//
// Run it:   moviemaker run examples/gallery/particles.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/particles.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/particles.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 150
let scale = Double(width) / 1280

// Random but reproducible: the library's SplitMix64 gives the same numbers for the same seed on every
// run and machine, so a frame depends only on its index.
struct Particle {
    var origin: Point, velocity: Point, swirl: Double, phase: Double, radius: Double, hue: Double
}

var generator = SplitMix64(seed: 2025)
let particles = (0..<160).map { _ in
    Particle(origin: Point(x: Double.random(in: 0..<1280, using: &generator), y: Double.random(in: 0..<720, using: &generator)),
             velocity: Point(x: Double.random(in: -40...40, using: &generator), y: Double.random(in: -25...25, using: &generator)),
             swirl: Double.random(in: 20...70, using: &generator), phase: Double.random(in: 0..<(2 * .pi), using: &generator),
             radius: Double.random(in: 2...6, using: &generator), hue: Double.random(in: 170...290, using: &generator))
}

/// `value` wrapped into 0..<`size` with a margin on both sides, so particles leave one edge and come
/// back at the other off screen.
func wrap(_ value: Double, _ size: Double, margin: Double = 40) -> Double {
    let span = size + 2 * margin
    let v = (value + margin).truncatingRemainder(dividingBy: span)
    return (v < 0 ? v + span : v) - margin
}

/// Particle `p`'s place at `t` seconds: a straight drift plus a circle of its own size and speed.
func position(_ p: Particle, at t: Double) -> Point {
    Point(x: wrap(p.origin.x + p.velocity.x * t + p.swirl * cos(0.8 * t + p.phase), 1280),
          y: wrap(p.origin.y + p.velocity.y * t + p.swirl * sin(0.6 * t + p.phase), 720))
}

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let t = frame.time
    ctx.setFill(.radial(center: Point(x: 640, y: 360), radius: 820, colors: [Color(hex: 0x1a1440), Color(hex: 0x05040f)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))

    let points = particles.map { position($0, at: t) }

    // Lines between neighbours closer than 120 px, fainter with distance.
    ctx.lineWidth = 1
    for i in points.indices {
        for j in (i + 1)..<points.count {
            let dx = points[i].x - points[j].x, dy = points[i].y - points[j].y
            let distance = (dx * dx + dy * dy).squareRoot()
            guard distance < 120 else { continue }
            ctx.setStroke(Color(hue: particles[i].hue, saturation: 0.6, lightness: 0.7, alpha: 0.35 * (1 - distance / 120)))
            ctx.strokeLine(from: points[i], to: points[j])
        }
    }

    // The particles: a soft glow and a bright core, twinkling, added onto what is below.
    ctx.withBlendMode(.add) {
        for (particle, point) in zip(particles, points) {
            let twinkle = 0.65 + 0.35 * sin(3 * t + particle.phase * 3)
            let color = Color(hue: particle.hue, saturation: 0.85, lightness: 0.6)
            ctx.setFill(.radial(center: point, radius: particle.radius * 5, colors: [color.withAlpha(0.5 * twinkle), color.withAlpha(0)]))
            ctx.fillCircle(center: point, radius: particle.radius * 5)
            ctx.setFill(Color(white: 1, alpha: twinkle))
            ctx.fillCircle(center: point, radius: particle.radius * 0.6)
        }

        // Sparkles: a few crosses from a generator seeded with the frame's index.
        var sparkles = SplitMix64(seed: UInt64(frame.index) &* 7919 &+ 1)
        for _ in 0..<4 {
            let at = Point(x: Double.random(in: 0..<1280, using: &sparkles), y: Double.random(in: 0..<720, using: &sparkles))
            let size = Double.random(in: 8...22, using: &sparkles)
            ctx.setStroke(Color(white: 1, alpha: 0.8)); ctx.lineWidth = 2
            ctx.strokeLine(from: Point(x: at.x - size, y: at.y), to: Point(x: at.x + size, y: at.y))
            ctx.strokeLine(from: Point(x: at.x, y: at.y - size), to: Point(x: at.x, y: at.y + size))
        }
    }
}

let summary = try movie.finish()
print("particles: \(summary)")

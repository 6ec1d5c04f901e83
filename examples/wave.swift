// A sine wave rolling across the screen: 2.5 s at 640x360, drawn by a closure per frame.
//
// Run it without making a package:   moviemaker run examples/wave.swift [-- output/wave.mp4]
// (`make demo` does this after building.)
import Foundation
import MovieMaker

let path = CommandLine.arguments.dropFirst().first ?? "output/wave.mp4"
let url = URL(fileURLWithPath: path)
try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)

let movie = try MovieMaker(url: url, width: 640, height: 360, fps: 30)
let waves: [(color: Color, amplitude: Double, wavelength: Double, speed: Double)] = [
    (Color(hex: 0x2ec4b6), 70, 260, 2.0),
    (Color(hex: 0xff9f1c), 45, 170, -3.0),
    (Color(hex: 0xe71d36), 25, 110, 4.5),
]

try movie.addFrames(count: 75) { ctx, frame in
    let w = ctx.bounds.width, h = ctx.bounds.height, t = frame.time
    ctx.setFill(.linear(from: .zero, to: Point(x: 0, y: h), colors: [Color(hex: 0x0b132b), Color(hex: 0x1c2541)]))
    ctx.fillRect(ctx.bounds)

    // Faint axis.
    ctx.setStroke(Color(white: 1, alpha: 0.2)); ctx.lineWidth = 1
    ctx.move(to: Point(x: 0, y: h / 2)); ctx.line(to: Point(x: w, y: h / 2)); ctx.stroke()

    // Each wave as a polyline sampled every 4 pixels; the amplitude swells in over the first second.
    let swell = min(1, t)
    ctx.lineWidth = 4; ctx.lineCap = .round; ctx.lineJoin = .round
    for wave in waves {
        ctx.setStroke(wave.color)
        for x in stride(from: 0.0, through: w, by: 4) {
            let y = h / 2 + swell * wave.amplitude * sin(2 * .pi * x / wave.wavelength - wave.speed * t)
            if x == 0 { ctx.move(to: Point(x: x, y: y)) } else { ctx.line(to: Point(x: x, y: y)) }
        }
        ctx.stroke()
    }

    // A dot riding the first wave.
    let x = frame.progress * w
    let y = h / 2 + swell * waves[0].amplitude * sin(2 * .pi * x / waves[0].wavelength - waves[0].speed * t)
    ctx.setFill(.white)
    ctx.fillEllipse(in: Rect(x: x - 7, y: y - 7, width: 14, height: 14))
}

let summary = try movie.finish()
print("wave: \(summary)")

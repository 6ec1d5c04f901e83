// A line plot that draws itself: axes and ticks come in, then a day of hourly temperatures is traced
// left to right as a smooth Bézier curve (the path trimmed to a growing fraction), with the area under
// it filling in and a marker reading out the value at the pen. 5 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/data-plot.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/data-plot.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/data-plot.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size; the animation follows `frame.progress`.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 150
let scale = Double(width) / 1280

// The data: 25 hourly readings (0 h to 24 h), a daily swing with a passing shower at 15 h.
let temperatures = (0...24).map { hour -> Double in
    let h = Double(hour)
    return 14 + 7 * sin((h - 9) / 24 * 2 * .pi) - 3.5 * exp(-pow((h - 15) / 1.5, 2)) + 0.6 * sin(h * 1.7)
}
let xRange = 0.0...24.0, yRange = 5.0...25.0
let plot = Rect(x: 150, y: 130, width: 1020, height: 470)

func place(_ hour: Double, _ value: Double) -> Point {
    Point(x: plot.minX + (hour - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound) * plot.width,
          y: plot.maxY - (value - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound) * plot.height)
}

// The curve through the points: Catmull-Rom turned into cubic Béziers (a Path, made once).
let points = temperatures.enumerated().map { place(Double($0.offset), $0.element) }
// A `let`, so the frame closure (`independent: true` runs it on several threads) may read it.
let curve: Path = {
    var path = Path()
    path.move(to: points[0])
    for i in 0..<(points.count - 1) {
        let p0 = points[max(i - 1, 0)], p1 = points[i], p2 = points[i + 1], p3 = points[min(i + 2, points.count - 1)]
        path.curve(to: p2, control1: Point(x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6),
                   control2: Point(x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6))
    }
    return path
}()

let font = TextFont(family: "DejaVu Sans", size: 20)
let tickStyle = TextStyle(font: font, color: Color(white: 0.6), alignment: .center)
let valueTickStyle = TextStyle(font: font, color: Color(white: 0.6), alignment: .right)
let titleStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 36, weight: .bold), color: .white)
let readoutStyle = TextStyle(font: TextFont(family: "DejaVu Sans Mono", size: 24, weight: .bold), color: Color(hex: 0x1b1b1b), alignment: .center)
let lineColor = Color(hex: 0xff7b00)

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let p = frame.progress
    ctx.clear(Color(hex: 0x0d1b2a))
    try ctx.draw("Temperature over a day (°C)", in: Rect(x: plot.minX, y: 50, width: 900, height: 50), style: titleStyle)

    // Axes grow from the origin, ticks and labels fade in after them.
    let axes = interpolate(p, from: [0, 0.15], to: [0, 1], easing: .cubicOut)
    let ticks = interpolate(p, from: [0.1, 0.25], to: [0, 1])
    ctx.setStroke(Color(white: 0.85)); ctx.lineWidth = 3; ctx.lineCap = .square
    ctx.strokeLine(from: Point(x: plot.minX, y: plot.maxY), to: Point(x: plot.minX + plot.width * axes, y: plot.maxY))
    ctx.strokeLine(from: Point(x: plot.minX, y: plot.maxY), to: Point(x: plot.minX, y: plot.maxY - plot.height * axes))
    try ctx.withOpacity(ticks) {
        ctx.lineWidth = 2
        for hour in stride(from: 0, through: 24, by: 3) {
            let at = place(Double(hour), yRange.lowerBound)
            ctx.setStroke(Color(white: 0.85))
            ctx.strokeLine(from: at, to: Point(x: at.x, y: at.y + 10))
            try ctx.draw("\(hour) h", in: Rect(x: at.x - 40, y: at.y + 16, width: 80, height: 30), style: tickStyle)
        }
        for value in stride(from: 5, through: 25, by: 5) {
            let at = place(xRange.lowerBound, Double(value))
            ctx.setStroke(Color(white: 0.85))
            ctx.strokeLine(from: at, to: Point(x: at.x - 10, y: at.y))
            if value > 5 {
                ctx.setStroke(Color(white: 1, alpha: 0.1)); ctx.lineWidth = 1
                ctx.strokeLine(from: at, to: Point(x: plot.maxX, y: at.y))
                ctx.lineWidth = 2
            }
            try ctx.draw("\(value)", in: Rect(x: at.x - 70, y: at.y - 13, width: 52, height: 30), style: valueTickStyle)
        }
    }

    // The curve, traced from 20 % to 90 % of the movie; the area under it filled up to the pen.
    let traced = interpolate(p, from: [0.2, 0.9], to: [0, 1], easing: .sineInOut)
    guard traced > 0 else { return }
    let drawn = curve.trimmed(from: 0, to: traced)
    guard let pen = drawn.currentPoint else { return }
    var area = drawn
    area.line(to: Point(x: pen.x, y: plot.maxY))
    area.line(to: Point(x: plot.minX, y: plot.maxY))
    area.closeSubpath()
    ctx.setFill(.linear(from: Point(x: 0, y: plot.minY), to: Point(x: 0, y: plot.maxY), colors: [lineColor.withAlpha(0.45), lineColor.withAlpha(0.02)]))
    ctx.fill(area)
    ctx.setStroke(lineColor); ctx.lineWidth = 5; ctx.lineCap = .round; ctx.lineJoin = .round
    ctx.stroke(drawn)

    // The marker and its readout: the value where the pen is, read back from the scale.
    let value = yRange.lowerBound + (plot.maxY - pen.y) / plot.height * (yRange.upperBound - yRange.lowerBound)
    ctx.setStroke(Color(white: 1, alpha: 0.3)); ctx.lineWidth = 1; ctx.setLineDash([6, 6])
    ctx.strokeLine(from: pen, to: Point(x: pen.x, y: plot.maxY))
    ctx.setLineDash([])
    ctx.setFill(.white); ctx.fillCircle(center: pen, radius: 9)
    ctx.setFill(lineColor); ctx.fillCircle(center: pen, radius: 5)
    let box = Rect(x: pen.x - 55, y: pen.y - 58, width: 110, height: 38)
    ctx.setFill(Color(hex: 0xffd6a5))
    ctx.beginPath(); ctx.addRoundedRect(box, cornerRadius: 8); ctx.fill()
    try ctx.draw(String(format: "%.1f°", value), in: box, style: readoutStyle, verticalAlignment: .center)
}

let summary = try movie.finish()
print("data-plot: \(summary)")

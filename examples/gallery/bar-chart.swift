// An animated bar chart: six months of rainfall grow in one after another with their values counting
// up, then the chart turns into the next year's figures and the wettest month is marked. 5 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/bar-chart.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/bar-chart.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/bar-chart.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size. The animation follows `frame.progress`
// (0 to 1 over the movie), so the preview plays all of it, only faster.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 150
let scale = Double(width) / 1280

let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
let years: [(name: String, rainfall: [Double])] = [
    ("2023", [78, 52, 61, 44, 58, 31]),
    ("2024", [64, 71, 49, 83, 40, 36]),
]
let maximum = 100.0
let colors: [Color] = [0x3a86ff, 0x4895ef, 0x4cc9f0, 0x56cfe1, 0x64dfdf, 0x72efdd].map { Color(hex: UInt32($0)) }

// The plot area in design pixels.
let plot = Rect(x: 140, y: 150, width: 1020, height: 440)
let slot = plot.width / Double(months.count)
let barWidth = slot * 0.62

let font = TextFont(family: "DejaVu Sans", size: 24)
let labelStyle = TextStyle(font: font, color: Color(white: 0.75), alignment: .center)
let valueStyle = TextStyle(font: font.withSize(26), color: .white, alignment: .center)
let axisStyle = TextStyle(font: font.withSize(20), color: Color(white: 0.55), alignment: .right)
let titleStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 40, weight: .bold), color: .white)
let yearStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 64, weight: .bold), color: Color(white: 1, alpha: 0.9), alignment: .right)

// Bars grow in one after another over the first 40 % of the movie (a stagger), morph to the second
// year between 55 % and 80 %.
let grow = Stagger(count: months.count, spread: 0.25, duration: 0.15, easing: .backOut)
let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let p = frame.progress
    let change = interpolate(p, from: [0.55, 0.8], to: [0, 1], easing: .cubicInOut)

    ctx.setFill(.linear(from: .zero, to: Point(x: 0, y: 720), colors: [Color(hex: 0x101820), Color(hex: 0x1b2838)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))
    try ctx.draw("Monthly rainfall (mm)", in: Rect(x: 140, y: 50, width: 800, height: 60), style: titleStyle)

    // The year, crossfading from one to the other.
    for (i, year) in years.enumerated() {
        let opacity = i == 0 ? 1 - change : change
        guard opacity > 0 else { continue }
        try ctx.withOpacity(opacity) {
            try ctx.draw(year.name, in: Rect(x: 860, y: 36, width: 300, height: 80), style: yearStyle)
        }
    }

    // Grid lines and their values.
    ctx.lineWidth = 1
    for value in stride(from: 0.0, through: maximum, by: 25) {
        let y = plot.maxY - value / maximum * plot.height
        ctx.setStroke(Color(white: 1, alpha: value == 0 ? 0.5 : 0.12))
        ctx.strokeLine(from: Point(x: plot.minX, y: y), to: Point(x: plot.maxX, y: y))
        try ctx.draw("\(Int(value))", in: Rect(x: plot.minX - 80, y: y - 14, width: 64, height: 28), style: axisStyle)
    }

    // The bars, their months and their values.
    let values = zip(years[0].rainfall, years[1].rainfall).map { $0 + ($1 - $0) * change }
    let wettest = change >= 1 ? values.indices.max(by: { values[$0] < values[$1] }) : nil
    for (i, month) in months.enumerated() {
        let x = plot.minX + Double(i) * slot + (slot - barWidth) / 2
        let shown = values[i] * grow.progress(ofItem: i, at: p)
        let barHeight = max(0, shown / maximum * plot.height)
        let bar = Rect(x: x, y: plot.maxY - barHeight, width: barWidth, height: barHeight)
        if barHeight > 1 {
            ctx.setFill(.linear(from: Point(x: 0, y: bar.minY), to: Point(x: 0, y: plot.maxY),
                                colors: [colors[i], colors[i].darker(by: 0.25)]))
            ctx.beginPath(); ctx.addRoundedRect(bar, cornerRadius: min(10, barHeight / 2)); ctx.fill()
            try ctx.draw("\(Int(shown.rounded()))", in: Rect(x: x - 20, y: bar.minY - 38, width: barWidth + 40, height: 32), style: valueStyle)
        }
        if i == wettest {
            ctx.setStroke(Color(hex: 0xffbe0b)); ctx.lineWidth = 4
            ctx.beginPath(); ctx.addRoundedRect(bar.insetBy(dx: -8, dy: -8), cornerRadius: 14); ctx.stroke()
        }
        try ctx.draw(month, in: Rect(x: x - 20, y: plot.maxY + 14, width: barWidth + 40, height: 32), style: labelStyle)
    }
}

let summary = try movie.finish()
print("bar-chart: \(summary)")

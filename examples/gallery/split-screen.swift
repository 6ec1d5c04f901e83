// A split-screen comparison, before and after: the same animated seaside scene side by side, the right
// half graded with the library's "vintage" look (`Clip.filtered`), in rounded cells with labels
// (`Clip.split`, `SplitScreen`). 4 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/split-screen.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/split-screen.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/split-screen.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

let (width, height) = small ? (320, 180) : (1280, 720)
let duration: Time = small ? 1 : 4
let scale = Double(width) / 1280

// The scene, drawn frame-sized on a 1280x720 design: a setting sun, a sea with moving waves and a
// sailing boat. Each cell shows the middle of it (the cells are narrower than the frame).
let scene = Clip(duration: duration) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let p = frame.progress
    ctx.setFill(.linear(from: .zero, to: Point(x: 0, y: 430), colors: [Color(hex: 0x219ebc), Color(hex: 0x8ecae6), Color(hex: 0xffd6a5)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 430))
    let sun = Point(x: 700, y: 200 + 140 * p)
    ctx.setFill(Color(hex: 0xffb703))
    ctx.fillCircle(center: sun, radius: 70)
    ctx.setFill(.linear(from: Point(x: 0, y: 430), to: Point(x: 0, y: 720), colors: [Color(hex: 0x126782), Color(hex: 0x023047)]))
    ctx.fillRect(Rect(x: 0, y: 430, width: 1280, height: 290))
    // Waves: short strokes on sines that move right.
    ctx.setStroke(Color(white: 1, alpha: 0.5)); ctx.lineWidth = 3; ctx.lineCap = .round
    for row in 0..<7 {
        let y = 455 + Double(row * row) * 6.5
        for k in 0..<12 {
            let x = (Double(k) * 130 + Double(row) * 57 + 60 * frame.time).truncatingRemainder(dividingBy: 1400) - 60
            let length = 22 + Double(row) * 7
            ctx.strokeLine(from: Point(x: x, y: y + 4 * sin(frame.time * 3 + Double(k))), to: Point(x: x + length, y: y + 4 * sin(frame.time * 3 + Double(k))))
        }
    }
    // The boat crosses the middle, rocking.
    let boat = Point(x: 420 + 380 * p, y: 470 + 6 * sin(frame.time * 4))
    ctx.withSavedState {
        ctx.translate(x: boat.x, y: boat.y); ctx.rotate(by: 0.05 * sin(frame.time * 3))
        ctx.setFill(Color(hex: 0x7f4f24))
        ctx.fill(Path(polygon: [Point(x: -70, y: 0), Point(x: 70, y: 0), Point(x: 50, y: 26), Point(x: -50, y: 26)]))
        ctx.setFill(Color(hex: 0xfefae0))
        ctx.fill(Path(polygon: [Point(x: 0, y: -6), Point(x: 0, y: -150), Point(x: 60, y: -6)]))
        ctx.setFill(Color(hex: 0xe63946))
        ctx.fill(Path(polygon: [Point(x: -6, y: -10), Point(x: -6, y: -120), Point(x: -55, y: -10)]))
    }
}

// Side by side with a gutter, rounded corners, on a dark background.
let split = Clip.SplitScreen(.sideBySide, cells: [Clip.SplitScreen.Cell(scene), Clip.SplitScreen.Cell(scene.filtered([.color(.look(.vintage))]))],
                             gutter: 12 * scale, background: Color(hex: 0x111111), cornerRadius: 18 * scale)

// Labels over each cell: `cellRects(in:)` says where the cells are.
let cells = split.cellRects(in: Size(width: Double(width), height: Double(height)))
let labelStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 26 * scale, weight: .bold), color: .white)
let labels = Clip(duration: duration) { ctx, frame in
    for (cell, text) in zip(cells, ["ORIGINAL", "VINTAGE LOOK"]) {
        let size = try ctx.measure(text, style: labelStyle)
        let pill = Rect(x: cell.minX + 20 * scale, y: cell.minY + 20 * scale, width: size.width + 32 * scale, height: size.height + 14 * scale)
        ctx.setFill(Color(white: 0, alpha: 0.55))
        ctx.beginPath(); ctx.addRoundedRect(pill, cornerRadius: pill.height / 2); ctx.fill()
        try ctx.draw(text, in: pill.insetBy(dx: 16 * scale, dy: 7 * scale), style: labelStyle)
    }
}

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)
try movie.add(Clip.overlay(try Clip.split(split), labels))

let summary = try movie.finish()
print("split-screen: \(summary)")

// Kinetic typography for a lyric line: the words pop in one after another on the beat (a `Stagger`
// with a back-out easing), each rising, growing and turning into place; the word being sung is lit,
// the ones before it stay white, and the background pulses with the beat. 5 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/lyric.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/lyric.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/lyric.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size; the animation follows `frame.progress`.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 150
let scale = Double(width) / 1280

// The line, laid out once, centred and wrapped: each word's rectangle (`unitRects(.word)`), and each
// word's glyph outlines as a Path (from a layout of the word alone) put at its rectangle.
let lyric = "turn the lights down low and let the whole city sing"
let style = TextStyle(font: TextFont(family: "DejaVu Sans", size: 92, weight: .heavy), alignment: .center, lineSpacing: 1.1)
let layout = try TextLayout(lyric, style: style, width: 1080)
let origin = Point(x: 100, y: 360 - layout.size.height / 2)
let words = layout.unitRects(.word).map { Rect(x: $0.minX + origin.x, y: $0.minY + origin.y, width: $0.width, height: $0.height) }
let wordTexts = lyric.split(separator: " ").map(String.init)
precondition(wordTexts.count == words.count, "\(wordTexts.count) words, \(words.count) word rectangles")
let glyphs = try zip(wordTexts, words).map { text, rect in
    try TextLayout(text, style: style).path(at: .zero).applying(.translation(x: rect.minX, y: rect.minY))
}

// One word per beat over the first 80 % of the movie, each taking 12 % to settle.
let beats = Stagger(count: words.count, spread: 0.68, duration: 0.12, easing: .backOut)
let lit = Color(hex: 0xffd60a), sung = Color.white

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let p = frame.progress

    // The background pulses on each word's beat.
    let current = (0..<words.count).last { p >= beats.startTime(ofItem: $0) } ?? 0
    let sinceBeat = p - beats.startTime(ofItem: current)
    let pulse = max(0, 1 - sinceBeat / 0.06)
    ctx.setFill(.radial(center: Point(x: 640, y: 360), radius: 700 + 60 * pulse,
                        colors: [Color(hex: 0x7209b7).mixed(with: Color(hex: 0xf72585), amount: 0.5 * pulse), Color(hex: 0x10002b)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))

    // Each word: its glyphs moved, scaled and turned about the centre of its rectangle.
    for (i, word) in words.enumerated() {
        let q = beats.progress(ofItem: i, at: p)
        guard q > 0 else { continue }
        let grow = 0.3 + 0.7 * q
        let turn = (1 - q) * (i.isMultiple(of: 2) ? -0.35 : 0.35)
        ctx.withSavedState {
            ctx.translate(x: word.midX, y: word.midY + 70 * (1 - q))
            ctx.rotate(by: turn)
            ctx.scale(x: grow, y: grow)
            ctx.translate(x: -word.midX, y: -word.midY)
            ctx.withOpacity(min(1, q * 1.5)) {
                ctx.setFill(i == current && p < 0.9 ? lit : sung)
                ctx.fill(glyphs[i])
            }
        }
    }

    // A bar under the line fills as the line is sung.
    let sungFraction = interpolate(p, from: [0, 0.8], to: [0, 1])
    ctx.setFill(Color(white: 1, alpha: 0.15))
    ctx.fillRect(Rect(x: 340, y: 600, width: 600, height: 6))
    ctx.setFill(lit)
    ctx.fillRect(Rect(x: 340, y: 600, width: 600 * sungFraction, height: 6))
}

let summary = try movie.finish()
print("lyric: \(summary)")

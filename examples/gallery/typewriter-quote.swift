// A quote card typed out letter by letter: a `TitleCard` whose entrance is `.typewriter`, the author's
// line typed after the quote, over a background clip of its own (a gradient, a large quotation mark and
// a rule). 5 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/typewriter-quote.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/typewriter-quote.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/typewriter-quote.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

let (width, height) = small ? (320, 180) : (1280, 720)
let duration: Time = small ? 1 : 5
let typing = small ? 0.45 : 1.6          // seconds to type the quote, then the author's line

// The card: sizes are given for 1080 lines and scaled to the frame by `clip(width:height:)`.
var card = TitleCard("Well done is better than well said.", subtitle: "— Benjamin Franklin", duration: duration)
card.titleStyle = TextStyle(font: TextFont(family: "DejaVu Serif", size: 96, slant: .italic), color: Color(hex: 0xfdf0d5), alignment: .center)
card.subtitleStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 52, weight: .light), color: Color(hex: 0xf4a261),
                               alignment: .center, letterSpacing: 2)
card.background = .none                                          // the background clip below shows through
card.safeMargin = 0.16
card.entrance = TitleAnimation(.typewriter, duration: typing, cascade: typing + (small ? 0.05 : 0.1))
card.exit = small ? .none : .fade(duration: 0.6)                 // the preview ends on the whole quote

// The background, drawn on a 1280x720 design and scaled; the rule under the quote grows while it is typed.
let scale = Double(width) / 1280
let markStyle = TextStyle(font: TextFont(family: "DejaVu Serif", size: 420, weight: .bold), color: Color(white: 1, alpha: 0.08))
let background = Clip(duration: duration) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    ctx.setFill(.linear(from: .zero, to: Point(x: 1280, y: 720), colors: [Color(hex: 0x003049), Color(hex: 0x14213d)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))
    try ctx.draw("\u{201C}", in: Rect(x: 60, y: -40, width: 400, height: 500), style: markStyle)
    let rule = interpolate(frame.time, from: [0, typing], to: [0, 1], easing: .cubicOut)
    ctx.setStroke(Color(hex: 0xf4a261)); ctx.lineWidth = 3
    ctx.strokeLine(from: Point(x: 640 - 180 * rule, y: 500), to: Point(x: 640 + 180 * rule, y: 500))
}

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)
try movie.add(Clip.overlay(background, try card.clip(width: width, height: height)))

let summary = try movie.finish()
print("typewriter-quote: \(summary)")

// A film-leader countdown, 3-2-1-GO: a sweeping hand over crosshairs and rings, a big number for each
// second, and a beep on each count (procedural sound), a higher one on GO. 4 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/countdown.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/countdown.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/countdown.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled. Four beats: 3, 2, 1 and GO, a second each (a quarter second in the preview).
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 120
let scale = Double(width) / 1280
let beat: Time = small ? Time(value: 1, timescale: 4) : 1

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

// The sound: a 1 kHz beep on each count, a 2 kHz one on GO. Sounds are added before the first frame.
try movie.addAudio(ProceduralSound.beeps(frequency: 1000, every: beat, length: Time(value: 1, timescale: 10), amplitude: 0.4, duration: beat * 3))
try movie.addAudio(ProceduralSound.beep(frequency: 2000, at: beat * 3, length: Time(value: 3, timescale: 10), amplitude: 0.4))

let center = Point(x: 640, y: 360)
let numberStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 300, weight: .bold), color: .white, alignment: .center)
let goStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 260, weight: .heavy), color: Color(hex: 0x1b1b1b), alignment: .center)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let beats = frame.time / beat.seconds
    let count = Int(beats)                        // 0, 1, 2: counting; 3: GO
    let within = beats - Double(count)            // 0…1 through the current beat

    if count >= 3 {
        // GO: a flash that settles to warm yellow, the word popping in.
        let flash = interpolate(within, from: [0, 0.3], to: [1, 0])
        ctx.clear(Color(hex: 0xffd166).mixed(with: .white, amount: flash))
        let pop = Easing.backOut(min(1, within / 0.35))
        try ctx.withSavedState {
            ctx.translate(x: center.x, y: center.y); ctx.scale(x: pop, y: pop); ctx.translate(x: -center.x, y: -center.y)
            try ctx.draw("GO!", in: Rect(x: 0, y: 0, width: 1280, height: 720), style: goStyle, verticalAlignment: .center)
        }
        return
    }

    // The leader: a grey field, the part of the circle the hand has swept a shade lighter.
    ctx.clear(Color(hex: 0x3d405b))
    let angle = -Double.pi / 2 + 2 * .pi * within
    ctx.setFill(Color(hex: 0x5c6088))
    ctx.beginPath()
    ctx.move(to: center)
    ctx.arc(center: center, radius: 900, startAngle: -.pi / 2, endAngle: angle)
    ctx.closePath()
    ctx.fill()

    // Crosshairs, two rings and the hand.
    ctx.setStroke(Color(white: 0.9)); ctx.lineWidth = 4
    ctx.strokeLine(from: Point(x: 0, y: center.y), to: Point(x: 1280, y: center.y))
    ctx.strokeLine(from: Point(x: center.x, y: 0), to: Point(x: center.x, y: 720))
    ctx.lineWidth = 10
    ctx.strokeCircle(center: center, radius: 250)
    ctx.lineWidth = 4
    ctx.strokeCircle(center: center, radius: 290)
    ctx.setStroke(Color(hex: 0xf2cc8f)); ctx.lineWidth = 8; ctx.lineCap = .round
    ctx.strokeLine(from: center, to: Point(x: center.x + 900 * cos(angle), y: center.y + 900 * sin(angle)))

    // The number, with a soft shadow, shrinking slightly through its beat.
    let size = 1.08 - 0.08 * within
    try ctx.withSavedState {
        ctx.translate(x: center.x, y: center.y); ctx.scale(x: size, y: size); ctx.translate(x: -center.x, y: -center.y)
        try ctx.withShadow(Shadow(offset: Point(x: 0, y: 8), blur: 24, color: Color(white: 0, alpha: 0.6))) {
            try ctx.draw("\(3 - count)", in: Rect(x: 0, y: 0, width: 1280, height: 720), style: numberStyle, verticalAlignment: .center)
        }
    }
}

let summary = try movie.finish()
print("countdown: \(summary)")

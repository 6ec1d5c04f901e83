// A bouncing ball with a fading trail: dropped from the top, it loses a quarter of its speed at each
// bounce and drifts between the walls. 4 s at 1280x720; every frame is drawn from its time alone (the
// trail is the ball's own past positions, computed, not the previous frame's pixels).
//
// Run it:   moviemaker run examples/gallery/bouncing-ball.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/bouncing-ball.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/bouncing-ball.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 120
let scale = Double(width) / 1280

let radius = 36.0
let floorY = 640.0
let gravity = 2400.0          // design pixels per second²
let restitution = 0.75        // the share of its speed the ball keeps at each bounce

/// Where the ball is at `t` seconds: a free fall from y = 120, then bounces, each a parabola; the
/// drop starts again once the bounces are too small to see. Horizontally it bounces between the walls.
func ballCenter(at t: Double) -> Point {
    let rest = floorY - radius
    let impactSpeed = (2 * gravity * (rest - 120)).squareRoot()
    // The phases of one cycle: the fall, then bounces of speed v lasting 2v/g.
    var phases: [(start: Double, speed: Double)] = []
    var clock = impactSpeed / gravity
    var speed = impactSpeed * restitution
    while speed > 120 { phases.append((clock, speed)); clock += 2 * speed / gravity; speed *= restitution }
    let cycle = clock + 0.3
    let local = t.truncatingRemainder(dividingBy: cycle)
    var y = 120 + 0.5 * gravity * local * local                       // the fall
    if local >= impactSpeed / gravity { y = rest }                    // resting after the last bounce
    for phase in phases where local >= phase.start && local < phase.start + 2 * phase.speed / gravity {
        let s = local - phase.start
        y = rest - (phase.speed * s - 0.5 * gravity * s * s)
    }
    // A triangle wave between the walls at 300 px/s.
    let span = 1280 - 2 * radius
    let travelled = (160 + 300 * t).truncatingRemainder(dividingBy: 2 * span)
    let x = radius + (travelled < span ? travelled : 2 * span - travelled)
    return Point(x: x, y: min(y, rest))
}

let ballColor = Color(hex: 0xff6b35)
let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let t = frame.time

    // Background and floor.
    ctx.setFill(.linear(from: .zero, to: Point(x: 0, y: 720), colors: [Color(hex: 0x14213d), Color(hex: 0x1f3b73)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))
    ctx.setFill(Color(hex: 0x0b1326))
    ctx.fillRect(Rect(x: 0, y: floorY, width: 1280, height: 720 - floorY))
    ctx.setStroke(Color(white: 1, alpha: 0.25)); ctx.lineWidth = 2
    ctx.strokeLine(from: Point(x: 0, y: floorY), to: Point(x: 1280, y: floorY))

    let center = ballCenter(at: t)

    // The shadow on the floor: smaller and fainter the higher the ball is.
    let lift = (floorY - radius - center.y) / (floorY - radius - 120)   // 0 on the floor, 1 at the top
    let shadowWidth = radius * 2.4 * (1 - 0.5 * lift)
    ctx.setFill(Color(white: 0, alpha: 0.45 * (1 - 0.7 * lift)))
    ctx.fillEllipse(in: Rect(x: center.x - shadowWidth / 2, y: floorY - 6, width: shadowWidth, height: 12))

    // The trail: the ball 1/40 s, 2/40 s… ago, fainter and smaller the older.
    let ghosts = 16
    for k in stride(from: ghosts, through: 1, by: -1) {
        let past = t - Double(k) / 40
        guard past >= 0 else { continue }
        let age = Double(k) / Double(ghosts + 1)
        ctx.setFill(ballColor.withAlpha(0.45 * (1 - age)))
        ctx.fillCircle(center: ballCenter(at: past), radius: radius * (1 - 0.6 * age))
    }

    // The ball, squashed a little when it touches the floor, lit from the top left.
    let squash = max(0, 1 - (floorY - radius - center.y) / 24) * 0.22
    ctx.withSavedState {
        ctx.translate(x: center.x, y: center.y + radius * squash)
        ctx.scale(x: 1 + squash, y: 1 - squash)
        ctx.setFill(.radial(center: Point(x: -radius * 0.35, y: -radius * 0.4), radius: radius * 1.4,
                            colors: [Color(hex: 0xffd3a5), ballColor, Color(hex: 0xa63a12)]))
        ctx.fillCircle(center: .zero, radius: radius)
    }
}

let summary = try movie.finish()
print("bouncing-ball: \(summary)")

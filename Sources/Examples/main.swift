import Foundation
import MovieMaker
let url = URL(fileURLWithPath: "/tmp/smoke.mp4")
let movie = try MovieMaker(url: url, width: 640, height: 360, fps: .ntsc)
try movie.addFrames(count: 60) { ctx, frame in
    ctx.setFill(.black); ctx.fillRect(ctx.bounds)
    ctx.setStroke(.white); ctx.lineWidth = 6
    ctx.move(to: Point(x: 40, y: 180))
    ctx.curve(to: Point(x: 600, y: 180), control1: Point(x: 200, y: 180 - 150 * sin(frame.time * 2)), control2: Point(x: 440, y: 180 + 150 * sin(frame.time * 3)))
    ctx.stroke()
    ctx.setFill(.yellow)
    try ctx.draw("Frame \(frame.index)", at: Point(x: 20, y: 40))
}
print(try movie.finish())

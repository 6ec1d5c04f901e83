import Foundation
import MovieMaker

let movie = try MovieMaker(url: URL(fileURLWithPath: "first.mp4"), width: 640, height: 360, fps: 30)
let title = try TitleCard("My first movie", duration: 2).clip(width: 640, height: 360)
try movie.add(title)
try movie.addFrames(count: 60, independent: true) { ctx, frame in
    ctx.clear(Color(red: 0.08, green: 0.09, blue: 0.12))
    ctx.setFill(.orange)
    ctx.fillEllipse(in: Rect(x: 40 + 250 * frame.time, y: 150, width: 60, height: 60))
}
print(try movie.finish())

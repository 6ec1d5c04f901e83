import Foundation
import MovieMaker

let star = try Path.star(center: Point(x: 320, y: 180), outerRadius: 140, innerRadius: 60, points: 5)
let logo = BezierAnimation.drawOn(star, duration: 2, stroke: StrokeStyle(.orange, width: 8))
let movie = try MovieMaker(url: URL(fileURLWithPath: "logo.mp4"), width: 640, height: 360, fps: 30)
try movie.add(logo)
print(try movie.finish())

import Foundation
import MovieMaker

let star = try Path.star(center: Point(x: 320, y: 180), outerRadius: 140, innerRadius: 60, points: 5)
let logo = BezierAnimation.drawOn(star, duration: 2.5, stroke: StrokeStyle(.orange, width: 8))
let reveal = Clip.overlay([Clip.color(Color(red: 0.1, green: 0.1, blue: 0.16), duration: 2.5), logo])

var card = TitleCard("Star Studio", subtitle: "makes movies", duration: 3)
card.entrance = .words()
card.exit = .slide(from: .left)
let title = try card.clip(width: 640, height: 360)

let movie = try MovieMaker(url: URL(fileURLWithPath: "logo.mp4"), width: 640, height: 360, fps: 30)
try movie.add(Clip.sequence([reveal, title], transition: .crossfade(duration: 0.5)))
print(try movie.finish())

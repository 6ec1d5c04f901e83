import Foundation
import MovieMaker

var show = try Slideshow(folder: URL(fileURLWithPath: "trip"), order: .captureDate)
show.duration = 3
show.transition = .crossfade(duration: 1)
let film = try show.clip(width: 1280, height: 720)

let movie = try MovieMaker(url: URL(fileURLWithPath: "trip.mp4"), width: 1280, height: 720, fps: 30)
try movie.add(film)
print(try movie.finish())

import Foundation
import MovieMaker

let beach = try Clip.video(URL(fileURLWithPath: "clips/beach.mp4")).trimmed(from: 2, to: 6)
let wave = try Clip.video(URL(fileURLWithPath: "clips/wave.mp4")).trimmed(from: 1, to: 3).speed(0.5)
let jump = try Clip.video(URL(fileURLWithPath: "clips/jump.mp4")).trimmed(to: 2).reversed()

let day = try Clip.sequence([beach, wave, jump], transitions: [.crossfade(duration: 0.5), .wipe(.left, duration: 0.5)])
let movie = try MovieMaker(url: URL(fileURLWithPath: "day.mp4"), width: 1280, height: 720, fps: 30)
try movie.add(day)
print(try movie.finish())

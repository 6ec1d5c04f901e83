import Foundation
import MovieMaker

let beach = try Clip.video(URL(fileURLWithPath: "clips/beach.mp4")).trimmed(from: 2, to: 6)
let wave = try Clip.video(URL(fileURLWithPath: "clips/wave.mp4")).trimmed(from: 1, to: 3).speed(0.5)
let jump = try Clip.video(URL(fileURLWithPath: "clips/jump.mp4")).trimmed(to: 2).reversed()
print(beach.duration, wave.duration, jump.duration)

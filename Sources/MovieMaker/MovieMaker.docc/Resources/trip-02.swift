import Foundation
import MovieMaker

var show = try Slideshow(folder: URL(fileURLWithPath: "trip"), order: .captureDate)
show.duration = 3
show.transition = .crossfade(duration: 1)
let film = try show.clip(width: 1280, height: 720)

let bed = try AudioClip(url: URL(fileURLWithPath: "song.mp3")).musicBed(volume: .decibels(-6), fadeIn: 1, fadeOut: 3)
let sound = AudioMix(soundOf: film, adding: [AudioMix.Track(bed)], normalizedTo: -16)

let movie = try MovieMaker(url: URL(fileURLWithPath: "trip.mp4"), width: 1280, height: 720, fps: 30)
try movie.addAudio(sound)
try movie.add(film.withoutSounds())     // the mix already holds the clips' sound
print(try movie.finish())

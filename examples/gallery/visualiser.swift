// A music visualiser with its music: a short loop (kick drum, bass and an arpeggio over four chords at
// 120 bpm) is made by code as a `ProceduralSound` and added to the movie, and the picture is drawn from
// the same description of the music: spectrum bars from the notes sounding at each moment, a background
// that pulses with the drum and an oscilloscope line of the very samples heard. 6 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/visualiser.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/visualiser.mp4; --small makes a 1-second 320x180 preview.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/visualiser.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// Drawn on a 1280x720 design, scaled to the movie's size.
let (width, height) = small ? (320, 180) : (1280, 720)
let frameCount = small ? 30 : 180
let scale = Double(width) / 1280

/// The music as data: which notes sound at a time, and how loud. Both the sound and the picture ask it.
struct Song {
    let beat = 0.5                                   // seconds (120 bpm)
    // Am, F, C, G: one chord a bar (four beats), arpeggiated in eighth notes.
    let chords: [[Double]] = [[57, 60, 64, 69], [53, 57, 60, 65], [48, 52, 55, 60], [55, 59, 62, 67]]

    /// A note sounding: its frequency in Hz and its amplitude.
    typealias Note = (frequency: Double, amplitude: Double)

    static func frequency(_ midi: Double) -> Double { 440 * pow(2, (midi - 69) / 12) }

    /// The notes sounding at `t` seconds, the kick drum aside.
    func notes(at t: Double) -> [Note] {
        let chord = chords[Int(t / (4 * beat)) % chords.count]
        // The arpeggio: a new note every half beat, decaying.
        let step = Int(t / (beat / 2))
        let sinceStep = t - Double(step) * beat / 2
        let arpeggio: Note = (Song.frequency(chord[step % chord.count] + 12), 0.22 * min(1, sinceStep / 0.005) * exp(-sinceStep * 6))
        // The bass: the chord's root, an octave down, on every beat.
        let sinceBeat = t.truncatingRemainder(dividingBy: beat)
        let bass: Note = (Song.frequency(chord[0] - 12), 0.3 * min(1, sinceBeat / 0.005) * exp(-sinceBeat * 3))
        // A soft pad holding the chord.
        let pad: [Note] = chord.map { (Song.frequency($0), 0.05) }
        return [arpeggio, bass] + pad
    }

    /// The kick drum's loudness at `t`: a thump on every beat.
    func kick(at t: Double) -> Double { exp(-t.truncatingRemainder(dividingBy: beat) * 18) }

    /// The sample at `t` seconds (−1…1).
    func sample(at t: Double) -> Double {
        var v = 0.0
        for note in notes(at: t) {
            // A sine with a little second harmonic.
            v += note.amplitude * (sin(2 * .pi * note.frequency * t) + 0.3 * sin(4 * .pi * note.frequency * t))
        }
        // The kick: a sine sweeping down from 150 Hz to 50 Hz.
        let s = t.truncatingRemainder(dividingBy: beat)
        v += 0.6 * kick(at: t) * sin(2 * .pi * (50 * s + 100 * (1 - exp(-s * 30)) / 30))
        return max(-1, min(1, 0.7 * v))
    }
}
let song = Song()

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)
// The sound, from the same song (added before the first frame).
try movie.addAudio(ProceduralSound(duration: Time(value: Int64(frameCount), timescale: 30), signal: { t in song.sample(at: t) }))

// 48 bars on a logarithmic frequency scale from 40 Hz to 4 kHz.
let barCount = 48
let bandCenters = (0..<barCount).map { 40 * pow(100, (Double($0) + 0.5) / Double(barCount)) }

try movie.addFrames(count: frameCount, independent: true) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    let t = frame.time
    let kick = song.kick(at: t)
    ctx.setFill(.radial(center: Point(x: 640, y: 360), radius: 760, colors: [Color(hex: 0x1b1035).mixed(with: Color(hex: 0x3a0ca3), amount: 0.6 * kick), Color(hex: 0x07040f)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))

    // The spectrum: each note lights the bands near its frequency (and its harmonic), the kick the lowest.
    let notes = song.notes(at: t)
    let barWidth = 1120.0 / Double(barCount)
    for (i, center) in bandCenters.enumerated() {
        var level = 0.0
        for note in notes {
            for (harmonic, weight) in [(1.0, 1.0), (2.0, 0.3)] {
                let octaves = log2(note.frequency * harmonic / center)
                level += weight * note.amplitude * exp(-pow(octaves / 0.12, 2)) * 3.2
            }
        }
        level += kick * exp(-pow(log2(center / 60) / 0.5, 2))
        let barHeight = 8 + 300 * min(1, level)
        let x = 80 + Double(i) * barWidth
        let color = Color(hue: 190 + 150 * Double(i) / Double(barCount), saturation: 0.9, lightness: 0.6)
        ctx.setFill(.linear(from: Point(x: 0, y: 560 - barHeight), to: Point(x: 0, y: 560), colors: [color, color.darker(by: 0.3)]))
        ctx.beginPath(); ctx.addRoundedRect(Rect(x: x + 3, y: 560 - barHeight, width: barWidth - 6, height: barHeight), cornerRadius: 4); ctx.fill()
        // Its reflection on the floor.
        ctx.setFill(color.withAlpha(0.18))
        ctx.fillRect(Rect(x: x + 3, y: 566, width: barWidth - 6, height: barHeight * 0.35))
    }

    // The floor line flashes with the kick.
    ctx.setStroke(Color(white: 1, alpha: 0.2 + 0.7 * kick)); ctx.lineWidth = 2 + 4 * kick
    ctx.strokeLine(from: Point(x: 80, y: 563), to: Point(x: 1200, y: 563))

    // The oscilloscope: the 40 ms of samples heard up to this frame, across the top.
    ctx.setStroke(Color(hex: 0x4cc9f0)); ctx.lineWidth = 3; ctx.lineJoin = .round
    ctx.beginPath()
    for k in 0...560 {
        let point = Point(x: 80 + Double(k) * 2, y: 140 - 90 * song.sample(at: max(0, t - 0.04 + Double(k) * 0.04 / 560)))
        if k == 0 { ctx.move(to: point) } else { ctx.line(to: point) }
    }
    ctx.stroke()
}

let summary = try movie.finish()
print("visualiser: \(summary)")

// A photo montage with captions: the script paints four landscape "photos" (a `Canvas` written as PNG
// files into a temporary folder), then shows them as a `Slideshow`: slow Ken Burns pan and zoom,
// crossfades, a caption on each, and an intro card. 6 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/photo-montage.swift [-- OUTPUT [--small]]
// OUTPUT defaults to output/gallery/photo-montage.mp4; --small makes a 1-second 320x180 preview.
// With your own photos, give `Slideshow.Photo(url:caption:)` their files instead.
import Foundation
import MovieMaker

let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--" }
let small = arguments.contains("--small")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "output/gallery/photo-montage.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

let (width, height) = small ? (320, 180) : (1280, 720)

// The photos: sky, sun or moon, three ridges of hills and a lake, in each photo's own colours.
struct Scene { var caption: String, sky: [UInt32], sun: UInt32, hills: [UInt32], sunHeight: Double, seed: Double }
let scenes = [
    Scene(caption: "Dawn over the lake", sky: [0x355070, 0xe56b6f, 0xeaac8b], sun: 0xfff1d0, hills: [0x6d597a, 0x4a3f5c, 0x2b2d42], sunHeight: 0.55, seed: 1),
    Scene(caption: "High noon in the dunes", sky: [0x48cae4, 0xade8f4, 0xfefae0], sun: 0xffffff, hills: [0xe9c46a, 0xdda15e, 0xbc6c25], sunHeight: 0.15, seed: 2),
    Scene(caption: "Evening in the hills", sky: [0x3d348b, 0xf18701, 0xf7b801], sun: 0xffe8a3, hills: [0x7678ed, 0x3d348b, 0x1b1b3a], sunHeight: 0.5, seed: 3),
    Scene(caption: "Moonrise", sky: [0x03045e, 0x023e8a, 0x0077b6], sun: 0xe0fbfc, hills: [0x1b263b, 0x14213d, 0x0b132b], sunHeight: 0.25, seed: 4),
]

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-gallery-photos-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

let (photoWidth, photoHeight) = small ? (480, 360) : (1600, 1200)
var photos: [Slideshow.Photo] = []
for (n, scene) in scenes.enumerated() {
    let canvas = try Canvas(width: photoWidth, height: photoHeight)
    try canvas.draw { ctx in
        let w = Double(photoWidth), h = Double(photoHeight)
        ctx.setFill(.linear(from: .zero, to: Point(x: 0, y: h * 0.7), colors: scene.sky.map { Color(hex: $0) }))
        ctx.fillRect(Rect(x: 0, y: 0, width: w, height: h))
        let sun = Point(x: w * (0.3 + 0.12 * scene.seed), y: h * scene.sunHeight)
        ctx.setFill(.radial(center: sun, radius: h * 0.2, colors: [Color(hex: scene.sun).withAlpha(0.6), Color(hex: scene.sun).withAlpha(0)]))
        ctx.fillCircle(center: sun, radius: h * 0.2)
        ctx.setFill(Color(hex: scene.sun))
        ctx.fillCircle(center: sun, radius: h * 0.06)
        // Three ridges, each a sum of sines, nearer ones lower and darker.
        for (layer, color) in scene.hills.enumerated() {
            let base = h * (0.55 + 0.09 * Double(layer))
            ctx.beginPath()
            ctx.move(to: Point(x: 0, y: h))
            for x in stride(from: 0.0, through: w, by: w / 80) {
                let u = x / w * 6 + scene.seed * 1.7 + Double(layer) * 2.3
                ctx.line(to: Point(x: x, y: base - h * (0.05 * sin(u) + 0.03 * sin(2.7 * u + 1) + 0.015 * sin(7.1 * u))))
            }
            ctx.line(to: Point(x: w, y: h))
            ctx.closePath()
            ctx.setFill(Color(hex: color))
            ctx.fill()
        }
        // A lake reflecting the sky, with a few ripples.
        ctx.setFill(.linear(from: Point(x: 0, y: h * 0.8), to: Point(x: 0, y: h), colors: scene.sky.reversed().map { Color(hex: $0).darker(by: 0.15) }))
        ctx.fillRect(Rect(x: 0, y: h * 0.8, width: w, height: h * 0.2))
        ctx.setStroke(Color(white: 1, alpha: 0.35)); ctx.lineWidth = h / 300
        for k in 0..<6 {
            let y = h * (0.83 + 0.028 * Double(k)), x = sun.x + Double((k * 37) % 11 - 5) * w * 0.01
            ctx.strokeLine(from: Point(x: x - w * 0.05, y: y), to: Point(x: x + w * 0.05, y: y))
        }
    }
    let url = folder.appendingPathComponent("photo-\(n + 1).png")
    try canvas.writePNG(to: url)
    photos.append(Slideshow.Photo(url: url, caption: scene.caption))
}

// The slideshow: photos fill the frame, each pans and zooms, crossfades between them, captions at the bottom.
var show = Slideshow(photos: photos)
show.fit = .fill
show.kenBurns = Slideshow.KenBurns(zoom: 0.15, pan: 0.08, seed: 7)
show.transition = .crossfade(duration: small ? Time(value: 1, timescale: 15) : Time(value: 1, timescale: 2))
show.captionStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 52, weight: .semibold), color: .white, alignment: .center,
                              outline: TextOutline(color: Color(white: 0, alpha: 0.6), width: 6))
if !small {
    var intro = TitleCard("Four Landscapes", subtitle: "painted by code", duration: 1.5)
    intro.exit = .fade(duration: 0.4)
    show.intro = intro
}
try show.shareDuration(small ? 1 : 6, fps: 30)

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)
try movie.add(show.clip(width: width, height: height))

let summary = try movie.finish()
try? FileManager.default.removeItem(at: folder)
print("photo-montage: \(summary)")

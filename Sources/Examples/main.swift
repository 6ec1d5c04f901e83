// The example movies from the seed article "Building Blocks into AVFoundation Movies":
//  1. bezier.mp4 — a Bézier curve whose control points inflect over time, drawn by a closure per frame.
//  2. composition.mp4 — a background, a PNG image and a line of text composed in each frame, built
//     from clips (a title, then the composition) to show the time model.
//  3. paths.mp4 — the Bézier animation helpers, one after another: a draw-on stroke, a morph from a
//     star to a circle, an arrow following a path, animated control points, and a word's glyph
//     outlines written on.
//  4. titles.mp4 — title cards with different entrances (letters, typewriter, pop, a lower third).
//     Each card comes on with a "whoosh" made by code (ProceduralSound), attached to its clip.
//  5. scripts.png — one still of text in English, Arabic, Hebrew, Japanese and emoji, shaped by Pango.
//  6. music.wav — 24 seconds of music made by code (chords with soft attacks), which `make demo` puts
//     under its slideshow with `moviemaker slideshow --music output/music.wav --normalize`.
//
// Usage: moviemaker-examples [OUTPUT_FOLDER]   (default: ./output)
import Foundation
import MovieMaker

let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "output", isDirectory: true)

/// Prints a progress line now and then, and a final newline.
func progressPrinter(_ name: String) -> (RenderProgress) -> Void {
    var lastPrinted = -1.0
    return { p in
        guard let fraction = p.fractionCompleted else { return }
        if fraction - lastPrinted >= 0.25 || (fraction == 1 && lastPrinted < 1) {
            lastPrinted = fraction
            let eta = p.estimatedTimeRemaining.map { String(format: ", %.1f s left", $0) } ?? ""
            print(String(format: "  %@: %3.0f%% (%d/%d frames, %.1f fps%@)", name, fraction * 100, p.framesAdded, p.totalFrames ?? 0, p.framesPerSecond, eta))
        }
    }
}

/// Reads the finished file back and prints one line about it.
func describe(_ url: URL) throws {
    let reader = try MovieReader(url: url)
    let i = reader.info
    let frames = try reader.packetTimestamps().count
    let rate = i.frameRate ?? 30
    let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    print(String(format: "%@  %d×%d, %d frames, %.2f s, %@ fps, %@ %@ %@ %@/%@, %.2f MiB",
                 url.path, i.width, i.height, frames, rate.seconds(ofFrame: frames), rate.description,
                 i.codec, i.profile ?? "", i.pixelFormat, i.colorMatrix, i.colorRange, Double(bytes) / 1_048_576))
}

/// Movie 1: the curve whose control points inflect over time (the issue's `wave.mp4`).
func renderBezier(to url: URL) throws {
    let movie = try MovieMaker(url: url, width: 1280, height: 720, fps: 30)
    movie.progressHandler = progressPrinter("bezier")
    try movie.addFrames(count: 150) { ctx, frame in
        let w = ctx.bounds.width, h = ctx.bounds.height, t = frame.time
        ctx.setFill(.black); ctx.fillRect(ctx.bounds)
        let start = Point(x: w * 0.06, y: h / 2), end = Point(x: w * 0.94, y: h / 2)
        let c1 = Point(x: w * 0.33, y: h / 2 - h * 0.4 * sin(t * 2))
        let c2 = Point(x: w * 0.67, y: h / 2 + h * 0.4 * sin(t * 3))
        // Control handles, faint.
        ctx.setStroke(Color(white: 1, alpha: 0.25)); ctx.lineWidth = 2; ctx.setLineDash([8, 6])
        ctx.move(to: start); ctx.line(to: c1); ctx.move(to: end); ctx.line(to: c2); ctx.stroke()
        ctx.setLineDash([])
        ctx.setFill(Color(hex: "#ff9f1c")!)
        for c in [c1, c2] { ctx.fillEllipse(in: Rect(x: c.x - 8, y: c.y - 8, width: 16, height: 16)) }
        // The curve.
        ctx.setStroke(.white); ctx.lineWidth = 6; ctx.lineCap = .round
        ctx.move(to: start)
        ctx.curve(to: end, control1: c1, control2: c2)
        ctx.stroke()
    }
    try movie.finish()
}

/// Draws a small mascot and saves it as a PNG, standing in for the article's image.
func makeMascotPNG(at url: URL) throws {
    let canvas = try Canvas(width: 240, height: 240)
    try canvas.draw { ctx in
        ctx.setFill(.radial(center: Point(x: 100, y: 90), radius: 120, colors: [Color(hex: "#ffe066")!, Color(hex: "#f08c00")!]))
        ctx.fillEllipse(in: Rect(x: 20, y: 20, width: 200, height: 200))
        ctx.setFill(.white)
        ctx.fillEllipse(in: Rect(x: 70, y: 80, width: 40, height: 50)); ctx.fillEllipse(in: Rect(x: 130, y: 80, width: 40, height: 50))
        ctx.setFill(.black)
        ctx.fillEllipse(in: Rect(x: 84, y: 98, width: 18, height: 22)); ctx.fillEllipse(in: Rect(x: 144, y: 98, width: 18, height: 22))
        ctx.setStroke(Color(hex: "#5c3d00")!); ctx.lineWidth = 8; ctx.lineCap = .round
        ctx.beginPath(); ctx.arc(center: Point(x: 120, y: 140), radius: 40, startAngle: 0.3, endAngle: .pi - 0.3); ctx.stroke()
    }
    try canvas.writePNG(to: url)
}

/// Movie 2: background + PNG image + a line of text, as clips: a title card, then the composition.
func renderComposition(to url: URL, imageURL: URL) throws {
    let image = try Image(contentsOf: imageURL)
    let titleFont = try Font.dejaVuSans(size: 64)
    let captionFont = try Font.dejaVuSans(size: 36)
    let title = Clip(duration: 1.5) { ctx, f in
        ctx.clear(Color(hex: "#101820")!)
        let text = "Building blocks"
        let size = try ctx.measure(text, font: titleFont)
        ctx.setFill(Color.white.withAlpha(min(1, f.time / 0.5)))
        try ctx.draw(text, at: Point(x: (ctx.bounds.width - size.width) / 2, y: ctx.bounds.midY + 20), font: titleFont)
    }
    let background = Clip(duration: 3.5) { ctx, f in
        ctx.setFill(.linear(from: .zero, to: Point(x: 0, y: ctx.bounds.height), colors: [Color(hex: "#1d3557")!, Color(hex: "#0b0f1a")!]))
        ctx.fillRect(ctx.bounds)
    }
    let picture = Clip(duration: 3.5) { ctx, f in
        let side = 300.0, bounce = 30 * sin(f.time * 4)
        let inset = Rect(x: (ctx.bounds.width - side) / 2, y: 140 + bounce, width: side, height: side)
        ctx.draw(image, in: inset)
    }
    let caption = Clip(duration: 3.5) { ctx, f in
        ctx.setFill(.white)
        try ctx.draw("Drawn with closures, encoded with x264", at: Point(x: 80, y: 80), font: captionFont)
        ctx.setFill(Color(white: 1, alpha: 0.6))
        try ctx.draw(String(format: "t = %.2f s", f.time), at: Point(x: 80, y: 660), font: captionFont)
    }
    let movie = try MovieMaker(url: url, width: 1280, height: 720, fps: 30)
    movie.progressHandler = progressPrinter("composition")
    try movie.add(.sequence(title, .overlay(background, picture, caption)))
    try movie.finish()
}

/// Movie 3: each Bézier animation helper for two seconds.
func renderPaths(to url: URL) throws {
    let w = 960.0, h = 540.0
    let wave = try Path(svg: "M80 270 C 240 40, 400 500, 480 270 S 720 40, 880 270")
    let star = try Path.star(center: Point(x: w / 2, y: h / 2), outerRadius: 200, innerRadius: 85, points: 5, rotation: -.pi / 2)
    let circle = Path(ellipseIn: Rect(x: w / 2 - 160, y: h / 2 - 160, width: 320, height: 320))
    let background = Clip.color(Color(hex: "#0b132b")!, duration: 10)
    // Glyph outlines are paths too: the word is written on stroke by stroke.
    let wordLayout = try TextLayout("MovieMaker", style: TextStyle(font: TextFont(size: 130, weight: .bold), color: .white))
    let word = wordLayout.path(at: Point(x: (w - wordLayout.size.width) / 2, y: (h - wordLayout.size.height) / 2))
    let written = BezierAnimation.drawOn(word, duration: 2, stroke: StrokeStyle(Color(hex: "#caf0f8")!, width: 2.5))
    let drawOn = BezierAnimation.drawOn(wave, duration: 2, stroke: StrokeStyle(Color(hex: "#5bc0be")!, width: 10))
    let morph = BezierAnimation.morph(from: star, to: circle, duration: 2, fill: .color(Color(hex: "#ffd166")!))
    let arrow = BezierAnimation.follow(wave, duration: 2, trail: StrokeStyle(Color(white: 1, alpha: 0.4), width: 3)) { ctx in
        var head = Path()
        head.move(to: Point(x: 24, y: 0)); head.line(to: Point(x: -16, y: -16)); head.line(to: Point(x: -6, y: 0))
        head.line(to: Point(x: -16, y: 16)); head.closeSubpath()
        ctx.setFill(Color(hex: "#ef476f")!); ctx.fill(head)
    }
    let wiggle = BezierAnimation.wiggle(wave, duration: 2, amplitude: 60, frequency: 0.7, stroke: StrokeStyle(.white, width: 6))
    let movie = try MovieMaker(url: url, width: Int(w), height: Int(h), fps: 30)
    movie.progressHandler = progressPrinter("paths")
    try movie.add(.overlay(background, .sequence(drawOn, morph, arrow, wiggle, written)))
    try movie.finish()
}

/// A whoosh made by code: noise through a low-pass filter whose cutoff sweeps up and down, under a
/// swelling envelope, panned from left to right. The filter keeps state, so it is a renderer.
func whoosh(duration: Time = 0.7, seed: UInt64 = 7) -> ProceduralSound {
    ProceduralSound(duration: duration) { format in
        var state: UInt64 = seed, low = 0.0
        let total = duration.seconds
        return { samples, block in
            let channels = block.format.channelCount
            for i in 0..<block.frameCount {
                let t = block.seconds(ofFrame: i) / total          // 0 … 1 over the sound
                let envelope = pow(sin(Double.pi * t), 2)
                // xorshift white noise in -1 … 1
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let white = Double(state % 20_001) / 10_000 - 1
                let cutoff = 300 + 5_000 * envelope                    // Hz, brightest in the middle
                low += (white - low) * min(1, 2 * Double.pi * cutoff / Double(format.sampleRate))
                let v = Float(0.8 * envelope * low)
                for c in 0..<channels {
                    let pan = channels == 2 ? (c == 0 ? 1 - t : t) : 1
                    samples[i * channels + c] = v * Float(0.3 + 0.7 * pan)
                }
            }
        }
    }
}

/// Example 6: music made by code — a four-chord progression of soft sine pads with a bass note, each
/// chord swelling in and out — written as a WAV file.
func writeMusic(to url: URL) throws {
    let chords: [[Double]] = [[220.00, 277.18, 329.63], [196.00, 246.94, 293.66], [174.61, 220.00, 261.63], [196.00, 246.94, 329.63]]
    let chordLength = 3.0
    let music = ProceduralSound(duration: 24) { t in
        let index = Int(t / chordLength) % chords.count
        let local = t.truncatingRemainder(dividingBy: chordLength) / chordLength
        let swell = pow(sin(Double.pi * local), 0.6)                   // in and out, never a step
        var v = 0.0
        for (k, f) in chords[index].enumerated() { v += sin(2 * Double.pi * f * t + Double(k)) * 0.12 }
        v += sin(2 * Double.pi * chords[index][0] / 2 * t) * 0.18      // bass an octave down
        return v * swell
    }
    try music.writeWAV(to: url, duration: 24)
}

/// Movie 4: title cards with several entrances, sequenced.
func renderTitles(to url: URL) throws {
    let w = 960, h = 540
    var letters = TitleCard("MovieMaker", subtitle: "Movies from Swift code", duration: 3)
    letters.entrance = .letters()
    var typed = TitleCard("Typewriter titles", subtitle: "for nightly CI clips", duration: 3)
    typed.entrance = .typewriter()
    typed.background = .paint(.linear(from: .zero, to: Point(x: 0, y: Double(h)), colors: [Color(hex: "#1d3557")!, Color(hex: "#0b0f1a")!]))
    var pop = TitleCard("مرحبا بالعالم", subtitle: "שלום עולם · こんにちは世界 · 🎬", duration: 3)
    pop.entrance = .pop()
    var lower = TitleCard("Jane Doe", subtitle: "Director of Photography", duration: 3)
    lower.layout = .lowerThird
    lower.background = .color(Color(white: 0, alpha: 0.65))
    lower.entrance = .slide(from: .left)
    let scenery = Clip(duration: 3) { ctx, f in
        ctx.setFill(.linear(from: .zero, to: Point(x: Double(w), y: Double(h)), colors: [Color(hex: "#2a9d8f")!, Color(hex: "#e9c46a")!]))
        ctx.fillRect(ctx.bounds)
    }
    let movie = try MovieMaker(url: url, width: w, height: h, fps: 30)
    movie.progressHandler = progressPrinter("titles")
    // Each card comes on with a whoosh attached to its clip: it moves with the card in the sequence.
    let cards = [try letters.clip(width: w, height: h), try typed.clip(width: w, height: h),
                 try pop.clip(width: w, height: h), .overlay(scenery, try lower.clip(width: w, height: h))]
    try movie.add(.sequence(cards.enumerated().map { $0.element.withSound(whoosh(seed: UInt64(7 + $0.offset))) }))
    try movie.finish()
}

/// Still 5: text in five scripts, laid out by Pango.
func renderScripts(to url: URL) throws {
    let canvas = try Canvas(width: 960, height: 540)
    try canvas.draw { ctx in
        ctx.clear(Color(hex: "#101820")!)
        let style = TextStyle(font: TextFont(size: 52), color: .white, alignment: .center)
        try ctx.draw("Hello, world\nمرحبا بالعالم\nשלום עולם\nこんにちは世界\n🎬 🙂 🎉", in: Rect(x: 40, y: 40, width: 880, height: 460), style: style)
    }
    try canvas.writePNG(to: url)
}

do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let bezier = folder.appendingPathComponent("bezier.mp4")
    let composition = folder.appendingPathComponent("composition.mp4")
    let mascot = folder.appendingPathComponent("mascot.png")
    try renderBezier(to: bezier)
    try makeMascotPNG(at: mascot)
    try renderComposition(to: composition, imageURL: mascot)
    let paths = folder.appendingPathComponent("paths.mp4")
    let titles = folder.appendingPathComponent("titles.mp4")
    let scripts = folder.appendingPathComponent("scripts.png")
    try renderPaths(to: paths)
    try renderTitles(to: titles)
    try renderScripts(to: scripts)
    let music = folder.appendingPathComponent("music.wav")
    try writeMusic(to: music)
    print("Rendered:")
    for movie in [bezier, composition, paths, titles] { try describe(movie) }
    print(scripts.path)
    print(music.path + "  (24 s of music made by code)")
} catch {
    FileHandle.standardError.write(Data("moviemaker-examples: \(error)\n".utf8))
    exit(1)
}

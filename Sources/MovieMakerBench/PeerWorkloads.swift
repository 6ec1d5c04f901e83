import Foundation
import MovieMaker

/// Our side of `make bench-peers` (issue 20): the three workloads of bench/peers/workloads.py written
/// as a MovieMaker user would write them, one per process so that the script measures each run the
/// same way it measures the peers (wall, CPU, peak RSS of the process).
///
///     moviemaker-bench --peer W1|W1-independent|W2|W3|W3-held --preset medium --out out.mp4 [--frames N] [--photos DIR] [--native-gradients]
///
/// `--native-gradients` fills W1's gradients with Cairo's own gradient instead of the rasterized
/// fills of GradientFill.swift (the A/B of that change).
///
/// W1 draws with `addFrames` (serial: each frame may build on the last) or, as `W1-independent`, with
/// `addFrames(count:independent: true)` (the parallel lanes), or as `W1-inline` with `addFrames` converting
/// each frame on the calling thread (as before `SerialConversion`: the A/B of that change); W2 is a `Slideshow` (fill, linear Ken
/// Burns zoom 1.00 → 1.10, 0.5-s crossfades, 3 s a photo); W3 a clip drawing a title that fades in
/// while rising 60 px (cubic ease-out, 1 s) and a subtitle fading in from 1.0 to 1.5 s.
enum PeerWorkload {
    /// The flag that selects this mode.
    static let flag = "--peer"
    static let width = 1920, height = 1080, crf = 20
    static let rate: FrameRate = 30

    /// Runs the workload the arguments (after `--peer`) name, printing the frame count.
    static func main(_ arguments: [String]) throws {
        guard let workload = arguments.first else { throw OptionError("--peer needs W1, W1-independent, W2, W3 or W3-held") }
        var preset = EncoderPreset.medium, out: String?, frames: Int?, photos: String?
        var nativeGradients = false
        var i = 1
        while i < arguments.count {
            let key = arguments[i], value = i + 1 < arguments.count ? arguments[i + 1] : ""
            if key == "--native-gradients" { nativeGradients = true; i += 1; continue }
            switch key {
            case "--preset": guard let p = EncoderPreset(rawValue: value) else { throw OptionError("unknown preset \(value)") }; preset = p
            case "--out": out = value
            case "--frames": frames = Int(value)
            case "--photos": photos = value
            default: throw OptionError("unknown --peer option \(key)")
            }
            i += 2
        }
        guard let out else { throw OptionError("--peer needs --out FILE") }
        LibraryLog.silence()
        let movie = try MovieMaker(url: URL(fileURLWithPath: out), width: width, height: height, fps: rate,
                                   settings: EncoderSettings(crf: crf, preset: preset))
        // Bound on the drawing thread itself: the lanes are threads, not child tasks.
        let native = nativeGradients
        let drawW1: @Sendable (DrawingContext, Int) throws -> Void = { ctx, index in
            try GradientFills.$native.withValue(native) { try PeerScene.drawW1(ctx, index: index) }
        }
        switch workload {
        case "W1":
            try movie.addFrames(count: frames ?? 300) { ctx, frame in try drawW1(ctx, frame.index) }
        case "W1-inline":
            // W1 as before serial conversion moved off the calling thread: the A/B of that change.
            movie.convertsSerialFramesOnCallingThread = true
            try movie.addFrames(count: frames ?? 300) { ctx, frame in try drawW1(ctx, frame.index) }
        case "W1-independent":
            try movie.addFrames(count: frames ?? 300, independent: true) { ctx, frame in try drawW1(ctx, frame.index) }
        case "W2":
            guard let photos else { throw OptionError("W2 needs --photos DIR") }
            let count = frames.map { max(2, ($0 + 89) / 90) } ?? 10
            var show = Slideshow(photos: (1...count).map { Slideshow.Photo(url: URL(fileURLWithPath: photos).appendingPathComponent(String(format: "photo-%02d.jpg", $0))) })
            show.fit = .fill
            show.duration = 3
            show.transition = .crossfade(duration: 0.5)
            show.kenBurns = Slideshow.KenBurns(zoom: 0.10, pan: 0, direction: .zoomIn, easing: .linear)
            try movie.add(show.clip(width: width, height: height))
        case "W3", "W3-held":
            let count = frames ?? 150
            let scene = Clip(duration: rate.time(ofFrame: count)) { ctx, frame in try PeerScene.drawW3(ctx, time: frame.time) }
            // W3-held: the same pictures, the end of the animation said as a freeze (the subtitle is in at
            // 1.5 s and nothing moves after), so the clip tree knows the frames after it repeat and the
            // render hands x264 the held frame instead of drawing it again. The file is the same as W3's.
            let hold = Time(value: 3, timescale: 2)
            if workload == "W3-held", scene.duration > hold {
                try movie.add(Clip.sequence([scene.trimmed(to: hold), scene.frozen(at: hold, for: scene.duration - hold)], transitions: [nil]))
            } else {
                try movie.add(scene)
            }
        default:
            throw OptionError("unknown peer workload \(workload): W1, W1-independent, W2, W3 or W3-held")
        }
        let summary = try movie.finish()
        output("frames \(summary.frameCount)")
    }
}

/// The pictures of W1 and W3, the same as bench/peers/workloads.py draws them.
enum PeerScene {
    static let shapes = 50
    static let params = (0..<shapes).map(Blob.init)

    struct Blob {
        let speedX, speedY, phase, spin, radius, hue: Double
        init(_ k: Int) {
            let g = 0.618_033_988_749_895
            func frac(_ x: Double) -> Double { x - x.rounded(.down) }
            let u = frac(Double(k) * g), v = frac(Double(k) * g * g + 0.31), w = frac(Double(k) * 0.754_877_666 + 0.17)
            speedX = 0.25 + 0.6 * u; speedY = 0.20 + 0.5 * v; phase = 2 * .pi * w
            spin = (k % 3 == 0 ? -1 : 1) * (0.3 + 0.9 * v); radius = 40 + 90 * w; hue = u
        }
    }

    /// W1's frame `index`: a gradient background, 50 gradient-filled and stroked 4-Bézier shapes, the frame number.
    static func drawW1(_ ctx: DrawingContext, index: Int) throws {
        let t = Double(index) / 30, w = Double(PeerWorkload.width), h = Double(PeerWorkload.height)
        let swing = 0.5 + 0.5 * sin(t * 0.7)
        ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: w, y: h * swing),
                            colors: [hsv(0.62 + 0.05 * swing, 0.6, 0.18), hsv(0.75, 0.5, 0.35)]))
        ctx.fillRect(ctx.bounds)
        ctx.lineWidth = 4
        ctx.lineJoin = .round
        let n = 4
        for p in params {
            let cx = w * (0.5 + 0.42 * sin(t * p.speedX + p.phase)), cy = h * (0.5 + 0.40 * cos(t * p.speedY + 2 * p.phase))
            let radius = p.radius * (1 + 0.3 * sin(t * 2.1 + p.phase)), spin = t * p.spin
            func anchor(_ j: Int) -> Point {
                let a = spin + Double(j) * 2 * .pi / Double(n), r = radius * (1 + 0.25 * sin(t * 3 + Double(j) + p.phase))
                return Point(x: cx + r * cos(a), y: cy + r * sin(a))
            }
            func control(_ j: Int, _ side: Double) -> Point {
                let a = spin + (Double(j) + side) * 2 * .pi / Double(n)
                let r = radius * (1.25 + 0.45 * sin(t * 1.7 + Double(j) * 1.3 + p.phase * side))
                return Point(x: cx + r * cos(a), y: cy + r * sin(a))
            }
            ctx.beginPath()
            ctx.move(to: anchor(0))
            for j in 0..<n { ctx.curve(to: anchor(j + 1), control1: control(j, 0.33), control2: control(j, 0.67)) }
            ctx.closePath()
            let hue = (p.hue + 0.03 * t).truncatingRemainder(dividingBy: 1)
            let light = hsv(hue, 0.55, 1.0).withAlpha(0.85), dark = hsv(hue + 0.08, 0.9, 0.55).withAlpha(0.85)
            ctx.setFill(.linear(from: Point(x: cx - radius, y: cy - radius), to: Point(x: cx + radius, y: cy + radius), colors: [light, dark, light]))
            ctx.setStroke(hsv(hue + 0.5, 0.4, 1.0).withAlpha(0.9))
            ctx.fillAndStroke()
        }
        ctx.setFill(.white)
        try ctx.draw(String(format: "frame %05d", index), at: Point(x: 40, y: h - 40))
    }

    static let titleFont = TextFont(family: "DejaVu Sans", size: 120, weight: .bold)
    static let subtitleFont = TextFont(family: "DejaVu Sans", size: 56)

    /// W3 at `time`: the title fading in while rising 60 px (cubic ease-out over 1 s), the subtitle fading in from 1.0 to 1.5 s.
    static func drawW3(_ ctx: DrawingContext, time t: Double) throws {
        ctx.clear(Color(red8: 0x10, green8: 0x18, blue8: 0x20))
        let p = min(max(t, 0), 1), e = 1 - pow(1 - p, 3)
        let sub = min(max((t - 1) / 0.5, 0), 1)
        for (text, font, y, alpha) in [("MovieMaker", titleFont, 470 + 60 * (1 - e), e), ("faster than every peer", subtitleFont, 610.0, sub)] where alpha > 0 {
            let size = try ctx.measure(text, font: font)
            ctx.setFill(Color(white: 1, alpha: alpha))
            try ctx.draw(text, at: Point(x: (Double(PeerWorkload.width) - size.width) / 2, y: y), font: font)
        }
    }
}

import Foundation
import MovieMaker
import MovieMakerWorkloads

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

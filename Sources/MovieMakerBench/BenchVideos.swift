import Foundation
import Glibc
import MovieMaker

// The video lines' source clips: 1080p30 H.264 files with sound, written once by MovieMaker itself
// into a cache folder and reused by every later run (their generation is never timed). Each clip is
// the standard workload's moving gradient blobs (a different stretch of their motion per clip) with
// the clip's number over it, and a tone of its own; encoded at `veryfast` with a phone camera's
// bitrate (12 Mbit/s) and x264's long GOP (a keyframe every 250 frames), as recorded clips come.

/// The folder of generated video clips, filled on first use.
struct BenchVideoFolder {
    /// Where the clips are kept.
    let url: URL
    /// Bump when the generator changes, so old caches are rewritten.
    static let version = "bench-videos v1: 1920x1080@30 blobs+number, tone, veryfast 12 Mbit/s keyint 250, AAC"

    static let width = 1920
    static let height = 1080
    static let fps = 30
    /// The source clips' bitrate: what phones record 1080p30 H.264 at (12–17 Mbit/s).
    static let bitrate = 12_000_000
    /// x264's default keyframe interval, written explicitly: the reverse line needs a long GOP.
    static let keyframeInterval = 250
    static let preset = EncoderPreset.veryfast

    /// The default cache: `.build/bench-videos` when run from the package (as `make bench` does),
    /// otherwise a folder in the temporary directory.
    static var defaultURL: URL {
        let build = URL(fileURLWithPath: ".build", isDirectory: true)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: build.path, isDirectory: &isFolder), isFolder.boolValue {
            return build.appendingPathComponent("bench-videos", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-videos", isDirectory: true)
    }

    /// The file name of clip `index` (0-based) lasting `seconds`.
    static func name(_ index: Int, seconds: Int) -> String { String(format: "clip-%02d-%ds.mp4", index + 1, seconds) }

    /// The files of `count` clips of `seconds` each, writing those missing or unreadable (all of them if
    /// the cache is from another generator version). Returns the seconds spent generating (0 when cached).
    func ensure(count: Int, seconds: Int) throws -> (urls: [URL], generationSeconds: Double) {
        let fm = FileManager.default
        try fm.createDirectory(at: url, withIntermediateDirectories: true)
        let stamp = url.appendingPathComponent("VERSION")
        if (try? String(contentsOf: stamp, encoding: .utf8)) != Self.version {
            for name in (try? fm.contentsOfDirectory(atPath: url.path)) ?? [] where name.hasSuffix(".mp4") {
                try? fm.removeItem(at: url.appendingPathComponent(name))
            }
            try Self.version.write(to: stamp, atomically: true, encoding: .utf8)
        }
        let urls = (0..<count).map { url.appendingPathComponent(Self.name($0, seconds: seconds)) }
        let start = wallSeconds()
        var generated = false
        for (i, file) in urls.enumerated() where !Self.isValid(file, seconds: seconds) {
            if !generated { standardError("… generating benchmark video clips in \(url.path) (once; reused by later runs)") }
            generated = true
            try? fm.removeItem(at: file)
            standardError("    \(file.lastPathComponent)")
            try Self.write(index: i, seconds: seconds, to: file)
            guard Self.isValid(file, seconds: seconds) else { throw BenchError("the generated clip \(file.path) does not probe as expected") }
        }
        return (urls, generated ? wallSeconds() - start : 0)
    }

    /// Whether `file` is a whole clip as generated: 1080p30 H.264 with sound, `seconds` long.
    static func isValid(_ file: URL, seconds: Int) -> Bool {
        guard FileManager.default.fileExists(atPath: file.path), let probe = try? VideoFile(url: file) else { return false }
        return probe.width == width && probe.height == height && probe.codec == "h264" && probe.hasAudio
            && abs(probe.duration.seconds - Double(seconds)) < 0.1 && (probe.frameCount ?? seconds * fps) == seconds * fps
    }

    /// Renders clip `index` with MovieMaker (MovieMaker writes through a partial file, so an interrupted
    /// run leaves no half clip under the final name).
    static func write(index: Int, seconds: Int, to file: URL) throws {
        let rate = FrameRate(fps)
        let scene = BenchmarkScene(width: Double(width), height: Double(height), rate: rate, pathCount: 40)
        // Each clip shows its own stretch of the blobs' motion.
        let offset = 1_000 * (index + 1)
        let label = "clip \(index + 1)"
        let font = try Font.dejaVuSans(size: 120)
        let clip = Clip(duration: Time(value: Int64(seconds), timescale: 1)) { ctx, frame in
            try scene.draw(in: ctx, frame: offset + frame.index)
            ctx.setFill(Color(white: 1, alpha: 0.8))
            try ctx.draw(label, at: Point(x: 80 + 40 * sin(frame.time), y: 200), font: font)
        }
        let settings = EncoderSettings(crf: 20, preset: preset, bitrate: bitrate, keyframeInterval: keyframeInterval)
        let movie = try MovieMaker(url: file, width: width, height: height, fps: rate, settings: settings)
        // A different note per clip (a whole-tone scale from A3), slightly tremolo so it is not a flat tone.
        let frequency = 220 * pow(2, Double(2 * index) / 12)
        try movie.addAudio(ProceduralSound(duration: Time(value: Int64(seconds), timescale: 1), signal: { t in
            0.3 * sin(2 * Double.pi * frequency * t) * (0.8 + 0.2 * sin(2 * Double.pi * 3 * t))
        }))
        try movie.add(clip)
        _ = try movie.finish()
    }
}

import Foundation
import MovieMaker

/// The incremental line of `make bench` (issue 39): a 3-minute description with titles, photos and a
/// video rendered by the `moviemaker` tool beside this program, in full (`render -o`), then with
/// `--cache` (cold: every segment), then again after one title's text changed, and once more unchanged.
/// Target: the edited render in at most 15 % of the full render's wall time.
///
/// The description: twelve 15-s items on the video track (a clip, a photo moving in close, a still
/// photo, a colour, in turn) joined by 1-s crossfades, the last 11 s longer (3 minutes in all), and a
/// 3-s title every 30 s on the overlay track; `width`×`height` at 30 fps, x264 `veryfast`.
struct IncrementalBenchmark {
    var width = 640, height = 360
    static let targetRatio = 0.15

    /// One render's figures.
    struct Run: Encodable, Sendable {
        let label: String
        let wallSeconds: Double
        let cpuSeconds: Double
        /// What `--cache` printed (segments rendered and reused); empty for the full render.
        let report: String
    }

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let width: Int
        let height: Int
        let frames: Int
        let runs: [Run]
        var ratio: Double { runs[2].wallSeconds / runs[0].wallSeconds }
        var passes: Bool { ratio <= IncrementalBenchmark.targetRatio }
    }

    func spec(fourthTitle: String) -> String {
        var items: [String] = []
        for k in 0..<12 {
            let duration = k == 11 ? "26s" : "15s"
            var item: String
            switch k % 4 {
            case 0: item = #"{"type": "video", "source": {"file": "clip.mp4"}, "duration": "\#(duration)", "fit": "fill""#
            case 1: item = #"{"type": "photo", "source": {"file": "a.png"}, "duration": "\#(duration)", "kenBurns": {"from": {"x": 0, "y": 0, "width": 1, "height": 1}, "to": {"x": 0.2, "y": 0.2, "width": 0.6, "height": 0.6}}"#
            case 2: item = #"{"type": "photo", "source": {"file": "b.png"}, "duration": "\#(duration)""#
            default: item = "{\"type\": \"color\", \"color\": \"#2040\(String(format: "%02x", 20 * k))\", \"duration\": \"\(duration)\""
            }
            if k < 11 { item += #", "transition": {"name": "fade", "duration": "1s"}"# }
            items.append(item + "}")
        }
        let titles = ["Welcome", "The harbour", "The market", fourthTitle, "The hills", "Goodbye"].enumerated().map { k, text in
            #"{"type": "title", "text": "\#(text)", "subtitle": "Part \#(k + 1)", "at": "\#(10 + 30 * k)s", "duration": "3s", "style": "slide"}"#
        }
        return """
            {"version": 1, "output": {"size": "\(width)x\(height)", "fps": 30, "encoder": {"preset": "veryfast"}},
             "tracks": [{"kind": "video", "items": [\(items.joined(separator: ", "))]},
                        {"kind": "overlay", "items": [\(titles.joined(separator: ", "))]}]}
            """
    }

    func run() throws -> Result {
        let tool = try ChunkBenchmark.toolPath()
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("moviemaker-bench-incremental-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (w, h) = (width, height)
        try Clip(duration: 15) { ctx, frame in
            let t = Double(frame.index) / 30
            for band in 0..<12 {
                let shade = 0.5 + 0.5 * sin(t * 1.5 + Double(band) * 0.7)
                ctx.setFill(Color(red: shade, green: 0.4, blue: 1 - shade))
                ctx.fillRect(Rect(x: Double(band) * Double(w) / 12, y: 0, width: Double(w) / 12 + 1, height: Double(h)))
            }
        }.render(to: folder.appendingPathComponent("clip.mp4"), width: width, height: height, fps: 30)
        for (name, tint) in [("a.png", 0.2), ("b.png", 0.8)] {
            let canvas = try Canvas(width: 1600, height: 1000)
            try canvas.draw { ctx in
                for y in stride(from: 0, to: 1000, by: 25) {
                    ctx.setFill(Color(red: Double(y) / 1000, green: tint, blue: 0.5))
                    ctx.fillRect(Rect(x: 0, y: Double(y), width: 1600, height: 25))
                }
            }
            try canvas.writePNG(to: folder.appendingPathComponent(name))
        }
        let spec = folder.appendingPathComponent("film.json")
        try self.spec(fourthTitle: "The river").write(to: spec, atomically: true, encoding: .utf8)
        let cache = folder.appendingPathComponent("cache").path
        func render(_ label: String, _ extra: [String]) throws -> Run {
            let output = folder.appendingPathComponent("\(label).mp4").path
            let exit = try ChildProcess(path: tool, arguments: ["render", spec.path, "-o", output, "-q"] + extra,
                                        pipeInput: false, captureOutput: true).finish()
            guard exit.status == 0 else { throw BenchError("moviemaker render \(label) failed (\(exit.statusDescription))") }
            let report = String(decoding: exit.output, as: UTF8.self).split(separator: "\n").last { $0.contains("segment") }
                .map { String($0.split(separator: ":", maxSplits: 1).last ?? $0).trimmingCharacters(in: .whitespaces) } ?? ""
            return Run(label: label, wallSeconds: exit.wallSeconds, cpuSeconds: exit.cpuSeconds, report: report)
        }
        var runs = [try render("full", []), try render("cold", ["--cache", cache])]
        try self.spec(fourthTitle: "The river at dusk").write(to: spec, atomically: true, encoding: .utf8)
        runs.append(try render("edited", ["--cache", cache]))
        runs.append(try render("unchanged", ["--cache", cache]))
        return Result(width: width, height: height, frames: 5400, runs: runs)
    }

    static func line(_ r: Result) -> String {
        var lines = ["incremental: a 3-minute description (a video, photos, six titles) at \(r.width)x\(r.height) veryfast, rendered by the moviemaker tool: in full, with --cache (cold), after one title's text changed, unchanged"]
        for run in r.runs {
            let label = run.label.padding(toLength: 10, withPad: " ", startingAt: 0)
            lines.append("    \(label)" + String(format: "%6.1f s wall, %6.1f s CPU  ", run.wallSeconds, run.cpuSeconds) + run.report)
        }
        lines.append(String(format: "    edited ÷ full wall %.3f (target ≤ %.2f): %@", r.ratio, targetRatio, r.passes ? "met" : "MISSED"))
        return lines.joined(separator: "\n")
    }
}

import Foundation
import MovieMaker

/// The batch line of `make bench` (issue 39): a template filled from 40 rows by one
/// `moviemaker render --batch` process, against 40 separate `moviemaker render --slot …` processes run
/// one after the other (what a CI job without `--batch` does). Target: the batch in at most 0.7× the
/// separate runs' wall time, every movie byte-identical to its separate render.
///
/// The template has three slots (a name in a lower third, a photo moving in close, a clip that plays
/// first and crossfades into the photo), `width`×`height` at 30 fps, 3 s, x264 `veryfast`; four clips
/// and four photos are shared among the rows, as a CI batch shares its media. Both sides run the
/// built `moviemaker` tool beside this program with its defaults (the batch: one row per core at
/// once). CPU is user + system time from wait4; the CPU other processes took is read from /proc/stat
/// over each side.
struct BatchBenchmark {
    var rows = 40
    var width = 640, height = 360
    var seconds = 3
    static let targetRatio = 0.7

    /// One side's figures.
    struct Side: Encodable, Sendable {
        let wallSeconds: Double
        let cpuSeconds: Double
        /// Cores' worth of CPU other processes took meanwhile.
        let othersCores: Double
    }

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let rows: Int
        let width: Int
        let height: Int
        let seconds: Int
        let separate: Side
        let batch: Side
        /// Rows whose batch movie equals its separate render byte for byte.
        let identicalRows: Int
        var wallRatio: Double { batch.wallSeconds / separate.wallSeconds }
        var passes: Bool { wallRatio <= BatchBenchmark.targetRatio && identicalRows == rows }
    }

    /// The template: clip, then photo with a crossfade; the name over both.
    func template() -> String {
        """
        {"version": 1,
         "output": {"size": "\(width)x\(height)", "fps": 30, "background": "#10141f", "encoder": {"preset": "veryfast"}},
         "slots": {
           "name": {"kind": "text", "default": "Sam", "maxLength": 40},
           "photo": {"kind": "photo", "default": {"file": "photo-0.png"}},
           "clip": {"kind": "video", "default": {"file": "clip-0.mp4"}, "fit": "loop"}},
         "tracks": [
           {"kind": "video", "items": [
             {"type": "video", "source": {"slot": "clip"}, "duration": "\(Double(seconds) / 2 + 0.25)s", "transition": {"name": "fade", "duration": "0.5s"}},
             {"type": "photo", "source": {"slot": "photo"}, "duration": "\(Double(seconds) / 2 + 0.25)s", "fit": "fill",
              "kenBurns": {"from": {"x": 0, "y": 0, "width": 1, "height": 1}, "to": {"x": 0.1, "y": 0.1, "width": 0.8, "height": 0.8}}}]},
           {"kind": "overlay", "items": [
             {"type": "title", "at": "0.2s", "duration": "\(Double(seconds) - 0.4)s", "layout": "lowerThird", "style": "slide", "from": "left",
              "text": "{{name}}", "background": "#ffb703", "color": "#10141f"}]}]}
        """
    }

    /// The folder's media: four clips (moving colour bands) and four photos (gradients).
    func writeMedia(in folder: URL) throws {
        for k in 0..<4 {
            let hue = Double(k) / 4, width = width, height = height
            try Clip(duration: Time(value: Int64(seconds), timescale: 1)) { ctx, frame in
                let t = Double(frame.index) / 30
                for band in 0..<8 {
                    let shade = 0.5 + 0.5 * sin(t * 2 + Double(band) + hue * 6)
                    ctx.setFill(Color(red: shade, green: hue, blue: 1 - shade))
                    ctx.fillRect(Rect(x: Double(band) * Double(width) / 8, y: 0, width: Double(width) / 8, height: Double(height)))
                }
            }.render(to: folder.appendingPathComponent("clip-\(k).mp4"), width: width, height: height, fps: 30)
            let canvas = try Canvas(width: 1200, height: 800)
            try canvas.draw { ctx in
                for y in stride(from: 0, to: 800, by: 20) {
                    ctx.setFill(Color(red: Double(y) / 800, green: hue, blue: 0.5))
                    ctx.fillRect(Rect(x: 0, y: Double(y), width: 1200, height: 20))
                }
            }
            try canvas.writePNG(to: folder.appendingPathComponent("photo-\(k).png"))
        }
    }

    func run() throws -> Result {
        let tool = try ChunkBenchmark.toolPath()
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("moviemaker-bench-batch-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try template().write(to: folder.appendingPathComponent("card.json"), atomically: true, encoding: .utf8)
        try writeMedia(in: folder)
        let names = ["Ana Souza", "Jean-Luc Moreau", "Zoë Østergaard", "Ngozi Okafor", "山田太郎", "Carlos Mendes", "Priya Nair", "Tomás Ruiz"]
        var csv = "name,photo,clip\n"
        var slots: [[String]] = []
        for n in 1...rows {
            let name = "\(names[n % names.count]) \(n)", photo = "photo-\(n % 4).png", clip = "clip-\((n / 4) % 4).mp4"
            csv += "\(name),\(photo),\(clip)\n"
            slots.append(["--slot", "name=\(name)", "--slot", "photo=\(folder.appendingPathComponent(photo).path)",
                          "--slot", "clip=\(folder.appendingPathComponent(clip).path)"])
        }
        try csv.write(to: folder.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let spec = folder.appendingPathComponent("card.json").path
        let separateFolder = folder.appendingPathComponent("separate")
        try FileManager.default.createDirectory(at: separateFolder, withIntermediateDirectories: true)

        func side(_ body: () throws -> [ChunkBenchmark.ProcessRun]) rethrows -> Side {
            let before = MachineUsage.now(), start = wallSeconds()
            let runs = try body()
            let wall = wallSeconds() - start
            return Side(wallSeconds: wall, cpuSeconds: runs.map(\.cpuSeconds).reduce(0, +), othersCores: MachineUsage.now().othersCores(since: before))
        }
        let separate = try side {
            try (1...rows).map { n in
                try ChunkBenchmark.runProcess(tool, ["render", spec] + slots[n - 1] + ["-o", separateFolder.appendingPathComponent("\(n).mp4").path, "-q"],
                                              label: "row \(n)")
            }
        }
        let batch = try side {
            [try ChunkBenchmark.runProcess(tool, ["render", spec, "--batch", folder.appendingPathComponent("rows.csv").path,
                                                  "--output-pattern", folder.appendingPathComponent("batch/{row}.mp4").path, "-q"],
                                           label: "batch")]
        }
        var identical = 0
        for n in 1...rows {
            let a = try? Data(contentsOf: separateFolder.appendingPathComponent("\(n).mp4"))
            let b = try? Data(contentsOf: folder.appendingPathComponent("batch/\(n).mp4"))
            if let a, a == b { identical += 1 }
        }
        return Result(rows: rows, width: width, height: height, seconds: seconds, separate: separate, batch: batch, identicalRows: identical)
    }

    static func line(_ r: Result) -> String {
        var lines = ["batch: a 3-slot template (name, photo, clip), \(r.rows) rows of \(r.seconds) s at \(r.width)x\(r.height) veryfast: one `render --batch` process against \(r.rows) `render --slot …` processes one after another"]
        func side(_ s: Side) -> String {
            String(format: "%6.1f s wall, %6.1f s CPU (others took %.2f cores)", s.wallSeconds, s.cpuSeconds, s.othersCores)
        }
        lines.append("    separate runs  " + side(r.separate))
        lines.append("    --batch        " + side(r.batch))
        lines.append(String(format: "    batch ÷ separate wall %.2f (target ≤ %.1f), %d of %d movies byte-identical: %@", r.wallRatio, targetRatio,
                            r.identicalRows, r.rows, r.passes ? "met" : "MISSED"))
        return lines.joined(separator: "\n")
    }
}

import Foundation
import Glibc
import MovieMaker

/// The chunk line of `make bench` (and `make bench-chunks`): what rendering a movie in chunks costs
/// against rendering it in one pass.
///
/// A 1920×1080 @ 30 fps `medium` description (turning gradients with transitions, confetti over the
/// whole movie, a title every 10 s, a music track; 60 s by default) is written into a temporary
/// folder and rendered by the built `moviemaker` tool (the one beside this program):
///
/// - **one pass**: `moviemaker render spec.json -o one.mp4 -q`, one process;
/// - **N chunks** for N in 2, 4, 8: `moviemaker render spec.json --chunk K/N --chunk-dir DIR -q` for
///   each K, two processes at a time (two worker threads here, each starting the next chunk's process
///   as soon as its last one ended), then `moviemaker assemble spec.json --chunk-dir DIR --chunks N -o
///   out.mp4 -q`.
///
/// Every process runs with the defaults (drawing threads: one per core up to 4; x264 threads: x264's
/// own choice, read back from the options x264 writes into the stream). CPU is user + system time of
/// each process from wait4. The one pass also encodes the sound; chunks are video only, and the
/// process of chunk 0 then renders the whole sound track once into the chunk folder (the CLI's
/// default), which the assembly copies; so the fair total for N chunks is the chunks' CPU plus the
/// assembly's. Targets (from the issue), at 8 chunks of a 60-second movie: CPU overhead ≤ 5 %, bytes
/// overhead ≤ 2 %; assembly well under a second per minute of movie.
struct ChunkBenchmark {
    var seconds = 60
    var width = 1920, height = 1080, fps = 30
    var preset: EncoderPreset = .medium
    /// The chunk counts compared with the one pass.
    var chunkCounts = [2, 4, 8]
    /// Chunk processes run at once.
    var workers = 2
    /// Machine cores, for the figures' context.
    var cores = UsableCores.count

    static let cpuTargetPercent = 5.0
    static let bytesTargetPercent = 2.0
    /// "Well under a second per minute of movie": PASS below this many seconds a minute.
    static let assemblyTargetSecondsPerMinute = 1.0

    /// One process's figures (from wait4).
    struct ProcessRun: Encodable, Sendable {
        let label: String
        let wallSeconds: Double
        let cpuSeconds: Double
    }

    /// The one pass (chunks 1) or one chunk count.
    struct Run: Encodable, Sendable {
        /// 1 for the one pass.
        let chunks: Int
        /// The render processes: the one pass, or each chunk.
        let renders: [ProcessRun]
        /// Wall seconds from the first render's start to the last one's end.
        let renderWallSeconds: Double
        /// CPU of every render process.
        let renderCPUSeconds: Double
        /// Cores' worth of CPU other processes took during the renders.
        let renderOthersCores: Double
        /// The assembly process (nil for the one pass).
        let assembly: ProcessRun?
        let assemblyOthersCores: Double?
        /// The movie's size.
        let outputBytes: Int
        /// The chunk files' sizes summed (video only; 0 for the one pass).
        let chunkBytes: Int
        /// The movie's frame count as its container says.
        let frames: Int?
        let hasAudio: Bool
        var totalCPUSeconds: Double { renderCPUSeconds + (assembly?.cpuSeconds ?? 0) }
        var totalWallSeconds: Double { renderWallSeconds + (assembly?.wallSeconds ?? 0) }

        enum CodingKeys: String, CodingKey {
            case chunks, renders, renderWallSeconds, renderCPUSeconds, renderOthersCores, assembly, assemblyOthersCores
            case outputBytes, chunkBytes, frames, hasAudio, totalCPUSeconds, totalWallSeconds
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(chunks, forKey: .chunks); try c.encode(renders, forKey: .renders)
            try c.encode(renderWallSeconds, forKey: .renderWallSeconds); try c.encode(renderCPUSeconds, forKey: .renderCPUSeconds)
            try c.encode(renderOthersCores, forKey: .renderOthersCores); try c.encodeIfPresent(assembly, forKey: .assembly)
            try c.encodeIfPresent(assemblyOthersCores, forKey: .assemblyOthersCores); try c.encode(outputBytes, forKey: .outputBytes)
            try c.encode(chunkBytes, forKey: .chunkBytes); try c.encodeIfPresent(frames, forKey: .frames)
            try c.encode(hasAudio, forKey: .hasAudio); try c.encode(totalCPUSeconds, forKey: .totalCPUSeconds)
            try c.encode(totalWallSeconds, forKey: .totalWallSeconds)
        }
    }

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let seconds: Int
        let width: Int
        let height: Int
        let fps: Int
        let preset: String
        let crf: Int
        let cores: Int
        /// Chunk processes at once.
        let workers: Int
        /// What the description holds, for people.
        let content: String
        /// Drawing threads of each process (the default: one per core, up to 4).
        let drawingThreads: Int
        /// x264's thread options as it wrote them into the one pass's stream ("threads=3 lookahead_threads=1"),
        /// with the settings' `threads` at 0 (x264 chooses).
        let x264Threads: String
        /// x264's version string from the same place.
        let x264Version: String
        /// `moviemaker render spec.json --check`: a process's start, the description loaded and
        /// composed, no frame drawn — what each chunk process pays before its first frame.
        let startup: ProcessRun
        /// The assembly split: the same description at 64×36 `ultrafast`, one chunk, assembled without
        /// its music track (the join alone: start, checks, packet copy); with it, the sound track file
        /// there (its packets copied); and with it but no sound track file (the whole sound track mixed
        /// and AAC-encoded in the assembly, as before the sound track task, and as a one-pass render does).
        let tinyAssemblySilent: ProcessRun
        let tinyAssemblyCopyingSound: ProcessRun
        let tinyAssemblyEncodingSound: ProcessRun
        /// `render --sound-track` of the same: the sound track task alone (a process's start included).
        let tinySoundTrackTask: ProcessRun
        let single: Run
        let chunked: [Run]

        /// (total CPU of N chunks − CPU of the one pass) ÷ CPU of the one pass, in percent.
        func cpuOverheadPercent(_ r: Run) -> Double { 100 * (r.totalCPUSeconds - single.totalCPUSeconds) / single.totalCPUSeconds }
        /// The chunks' render CPU alone against the one pass (which also encodes the sound), in percent.
        func renderOnlyOverheadPercent(_ r: Run) -> Double { 100 * (r.renderCPUSeconds - single.renderCPUSeconds) / single.renderCPUSeconds }
        /// (bytes of the assembled movie − bytes of the one pass) ÷ bytes of the one pass, in percent.
        func bytesOverheadPercent(_ r: Run) -> Double { 100 * Double(r.outputBytes - single.outputBytes) / Double(single.outputBytes) }
        /// Assembly wall seconds per minute of movie.
        func assemblySecondsPerMinute(_ r: Run) -> Double { (r.assembly?.wallSeconds ?? 0) * 60 / Double(seconds) }

        /// The run the CPU and bytes targets are judged at: the most chunks.
        var judged: Run? { chunked.max { $0.chunks < $1.chunks } }
        var cpuPasses: Bool { judged.map { cpuOverheadPercent($0) <= ChunkBenchmark.cpuTargetPercent } ?? false }
        var bytesPasses: Bool { judged.map { bytesOverheadPercent($0) <= ChunkBenchmark.bytesTargetPercent } ?? false }
        var assemblyPasses: Bool {
            !chunked.isEmpty && chunked.allSatisfy { assemblySecondsPerMinute($0) < ChunkBenchmark.assemblyTargetSecondsPerMinute }
        }
        /// The most cores' worth of CPU other processes took in any phase.
        var mostOthersCores: Double {
            ([single.renderOthersCores] + chunked.flatMap { [$0.renderOthersCores, $0.assemblyOthersCores ?? 0] }).max() ?? 0
        }
    }

    // MARK: - The description

    /// The description file's text: gradients turning with transitions, confetti, titles, music (nil: no
    /// sound track); `size` and `preset` default to the line's.
    func specText(music: String?, size: (Int, Int)? = nil, preset: EncoderPreset? = nil) throws -> (text: String, content: String) {
        let (width, height) = size ?? (self.width, self.height)
        let preset = preset ?? self.preset
        let palettes = [["#0b132b", "#1c2541", "#3a506b"], ["#6a040f", "#e85d04", "#ffba08"], ["#1d3557", "#457b9d", "#a8dadc"],
                        ["#2d6a4f", "#95d5b2", "#d8f3dc"], ["#3c096c", "#9d4edd", "#e0aaff"], ["#7f5539", "#ddb892", "#ede0d4"]]
        let transitions = ["fade", "circleclose", "wipeleft", "dissolve", "slideup", "radial", "smoothright", "diagtl"]
        // Items of 7 s with 1-s transitions: each adds 6 s; the track outlasts the movie, which is cut at `seconds`.
        let itemSeconds = 7, transitionSeconds = 1
        let gradients = max(1, Int((Double(seconds - transitionSeconds) / Double(itemSeconds - transitionSeconds)).rounded(.up)))
        var pictures: [[String: Any]] = []
        for i in 0..<gradients {
            var item: [String: Any] = [
                "type": "generator", "name": "gradient", "duration": "\(itemSeconds)s", "label": "Gradient \(i + 1)",
                "params": ["colors": palettes[i % palettes.count], "angle": (45 * i) % 360, "rotation": i % 2 == 0 ? 40 : -30] as [String: Any],
            ]
            if i < gradients - 1 { item["transition"] = ["name": transitions[i % transitions.count], "duration": "\(transitionSeconds)s"] }
            pictures.append(item)
        }
        let confettiCount = 150
        var overlays: [[String: Any]] = [[
            "type": "generator", "name": "confetti", "duration": "\(seconds)s", "label": "Confetti",
            "params": ["count": confettiCount, "seed": 7, "speed": 1.2] as [String: Any],
        ]]
        let styles = ["pop", "slide", "typewriter", "letters", "words", "fade"]
        var titles = 0
        for (i, at) in stride(from: 1, to: seconds, by: 10).enumerated() where at + 4 <= seconds {
            let title: [String: Any] = ["type": "title", "text": "Chapter \(i + 1)", "subtitle": "rendered in chunks", "at": "\(at)s",
                                        "duration": "4s", "style": styles[i % styles.count], "fontSize": 96, "color": "#ffb703",
                                        "entranceDuration": "0.8s"]
            overlays.append(title)
            titles += 1
        }
        let encoder: [String: Any] = ["preset": preset.rawValue]
        let output: [String: Any] = ["size": "\(width)x\(height)", "fps": fps, "duration": "\(seconds)s", "background": "#0b132b", "encoder": encoder]
        let pictureTrack: [String: Any] = ["kind": "video", "name": "Pictures", "items": pictures]
        let overlayTrack: [String: Any] = ["kind": "overlay", "name": "Overlays", "items": overlays]
        var tracks = [pictureTrack, overlayTrack]
        if let music {
            let musicItem: [String: Any] = ["type": "music", "label": "Music", "source": ["file": music], "fadeIn": "0.5s", "fadeOut": "2s"]
            tracks.append(["kind": "audio", "name": "Sound", "items": [musicItem]])
        }
        let spec: [String: Any] = ["version": 1, "output": output, "tracks": tracks]
        let data = try JSONSerialization.data(withJSONObject: spec, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let content = "\(gradients) turning gradients with 1-s transitions, \(confettiCount) confetti pieces throughout, "
            + "\(titles) title\(titles == 1 ? "" : "s")" + (music == nil ? "" : ", a music track")
        return (String(decoding: data, as: UTF8.self), content)
    }

    /// The music track: a chord whose notes swell and fade (a few partials each), as a WAV.
    func writeMusic(to url: URL) throws {
        let notes = [110.0, 164.81, 220.0, 277.18, 329.63]
        let sound = ProceduralSound(duration: Time(value: Int64(seconds), timescale: 1)) { t in
            var v = 0.0
            for (i, f) in notes.enumerated() {
                let n = Double(i)
                let rate: Double = 0.1 + 0.03 * n
                let swell: Double = 0.5 + 0.5 * sin(2 * Double.pi * rate * t + n)
                let w: Double = 2 * Double.pi * f * t
                let partials: Double = sin(w) + 0.3 * sin(2 * w) + 0.1 * sin(3 * w)
                v += swell * partials
            }
            return 0.12 * v
        }
        try sound.writeWAV(to: url)
    }

    // MARK: - Running

    /// The `moviemaker` tool beside this program.
    static func toolPath() throws -> String {
        let folder = (try ChildProcess.executablePath() as NSString).deletingLastPathComponent
        let path = folder + "/moviemaker"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("the chunk line runs the moviemaker tool, which is not built beside this program (\(path)): "
                             + "swift build -c release --product moviemaker (make bench and make bench-chunks do), or --skip-chunks")
        }
        return path
    }

    /// Runs `tool` with `arguments` and returns its wait4 figures; throws when it fails.
    static func runProcess(_ tool: String, _ arguments: [String], label: String) throws -> ProcessRun {
        let exit = try ChildProcess(path: tool, arguments: arguments, pipeInput: false, captureOutput: false).finish()
        guard exit.status == 0 else { throw BenchError("moviemaker \(arguments.joined(separator: " ")) failed (\(exit.statusDescription))") }
        return ProcessRun(label: label, wallSeconds: exit.wallSeconds, cpuSeconds: exit.cpuSeconds)
    }

    /// Runs the chunk processes `workers` at a time: each worker thread starts the next chunk not yet
    /// started as soon as its previous process ended. Returns the processes in chunk order.
    static func runChunks(_ tool: String, spec: String, count: Int, folder: String, workers: Int) throws -> [ProcessRun] {
        final class Queue: @unchecked Sendable {
            // @unchecked: every field is touched under `lock` only.
            let lock = NSLock()
            var next = 0
            var runs: [Int: ProcessRun] = [:]
            var failure: Error?
        }
        let queue = Queue()
        let group = DispatchGroup()
        for _ in 0..<max(1, min(workers, count)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while true {
                    let k: Int? = queue.lock.withLock {
                        guard queue.failure == nil, queue.next < count else { return nil }
                        defer { queue.next += 1 }
                        return queue.next
                    }
                    guard let k else { return }
                    do {
                        let run = try runProcess(tool, ["render", spec, "--chunk", "\(k)/\(count)", "--chunk-dir", folder, "-q"],
                                                 label: "chunk \(k)/\(count)")
                        queue.lock.withLock { queue.runs[k] = run }
                    } catch {
                        queue.lock.withLock { if queue.failure == nil { queue.failure = error } }
                        return
                    }
                }
            }
            thread.start()
        }
        group.wait()
        return try queue.lock.withLock {
            if let failure = queue.failure { throw failure }
            return (0..<count).compactMap { queue.runs[$0] }
        }
    }

    /// A file's size in bytes (0 when missing).
    static func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

    /// x264's version and thread options, from the options string it writes into the stream's first
    /// frame (an SEI message: "x264 - core 164 … threads=3 lookahead_threads=1 …").
    static func x264Options(in path: String) -> (version: String, threads: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return ("unknown", "unknown") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 16 << 20)) ?? Data()
        guard let start = data.range(of: Data("x264 - core".utf8)) else { return ("unknown", "not found in the stream") }
        let text = String(decoding: data[start.lowerBound..<min(data.endIndex, start.lowerBound + 4000)].prefix { $0 != 0 }, as: UTF8.self)
        let version = text.components(separatedBy: " - H.264").first ?? "x264"
        let options = text.split(separator: " ").filter { $0.hasPrefix("threads=") || $0.hasPrefix("lookahead_threads=") || $0.hasPrefix("sliced_threads=") }
        return (version, options.isEmpty ? "unknown" : options.joined(separator: " "))
    }

    /// Writes the description and its music, renders it in one pass and in chunks, and returns the figures.
    func run() throws -> Result {
        let tool = try Self.toolPath()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-chunks-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeMusic(to: folder.appendingPathComponent("music.wav"))
        let (text, content) = try specText(music: "music.wav")
        let spec = folder.appendingPathComponent("chunkbench.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: spec))

        func probe(_ path: String) -> (frames: Int?, audio: Bool) {
            guard let file = try? VideoFile(path: path) else { return (nil, false) }
            return (file.frameCount, file.hasAudio)
        }

        let startup = try Self.runProcess(tool, ["render", spec, "--check", "-q"], label: "render --check")
        standardError("… chunks: one pass, moviemaker render (\(seconds) s, \(width)x\(height) @ \(fps) fps, \(preset.rawValue))")
        let one = folder.appendingPathComponent("one.mp4").path
        var usage = MachineUsage.now()
        let single = try Self.runProcess(tool, ["render", spec, "-o", one, "-q"], label: "one pass")
        let singleOthers = MachineUsage.now().othersCores(since: usage)
        let singleProbe = probe(one)
        let singleRun = Run(chunks: 1, renders: [single], renderWallSeconds: single.wallSeconds, renderCPUSeconds: single.cpuSeconds,
                            renderOthersCores: singleOthers, assembly: nil, assemblyOthersCores: nil, outputBytes: Self.size(one), chunkBytes: 0,
                            frames: singleProbe.frames, hasAudio: singleProbe.audio)
        let (x264Version, x264Threads) = Self.x264Options(in: one)

        var chunked: [Run] = []
        for count in chunkCounts {
            standardError("… chunks: \(count) chunks, \(workers) processes at a time, then moviemaker assemble")
            let chunkFolder = folder.appendingPathComponent("chunks-\(count)").path
            try FileManager.default.createDirectory(atPath: chunkFolder, withIntermediateDirectories: true)
            usage = MachineUsage.now()
            let wall0 = wallSeconds()
            let renders = try Self.runChunks(tool, spec: spec, count: count, folder: chunkFolder, workers: workers)
            let renderWall = wallSeconds() - wall0
            let renderOthers = MachineUsage.now().othersCores(since: usage)
            let chunkFiles = ((try? FileManager.default.contentsOfDirectory(atPath: chunkFolder)) ?? []).filter { $0.hasSuffix(".mp4") && !$0.hasPrefix(".") }
            let chunkBytes = chunkFiles.reduce(0) { $0 + Self.size(chunkFolder + "/" + $1) }

            let movie = folder.appendingPathComponent("assembled-\(count).mp4").path
            usage = MachineUsage.now()
            let assembly = try Self.runProcess(tool, ["assemble", spec, "--chunk-dir", chunkFolder, "--chunks", "\(count)", "-o", movie, "-q"],
                                               label: "assemble \(count)")
            let assemblyOthers = MachineUsage.now().othersCores(since: usage)
            let movieProbe = probe(movie)
            if movieProbe.frames != singleProbe.frames || movieProbe.audio != singleProbe.audio {
                throw BenchError("the movie assembled from \(count) chunks has \(movieProbe.frames.map(String.init) ?? "?") frames"
                                 + (movieProbe.audio ? " with sound" : " without sound") + ", the one pass \(singleProbe.frames.map(String.init) ?? "?")"
                                 + (singleProbe.audio ? " with sound" : " without sound"))
            }
            chunked.append(Run(chunks: count, renders: renders, renderWallSeconds: renderWall, renderCPUSeconds: renders.map(\.cpuSeconds).reduce(0, +),
                               renderOthersCores: renderOthers, assembly: assembly, assemblyOthersCores: assemblyOthers,
                               outputBytes: Self.size(movie), chunkBytes: chunkBytes, frames: movieProbe.frames, hasAudio: movieProbe.audio))
            try? FileManager.default.removeItem(atPath: chunkFolder)
            try? FileManager.default.removeItem(atPath: movie)
        }
        standardError("… chunks: the assembly split: the description at 64x36 ultrafast in one chunk, assembled without its music, "
                      + "with it encoded there, and with it copied from a sound track task")
        var tiny: [String: ProcessRun] = [:]
        for withMusic in [false, true] {
            let name = withMusic ? "tiny-music" : "tiny-silent"
            let tinySpec = folder.appendingPathComponent("\(name).json").path
            try Data(try specText(music: withMusic ? "music.wav" : nil, size: (64, 36), preset: .ultrafast).text.utf8).write(to: URL(fileURLWithPath: tinySpec))
            let chunkFolder = folder.appendingPathComponent("chunks-\(name)").path
            _ = try Self.runProcess(tool, ["render", tinySpec, "--chunk", "0/1", "--chunk-dir", chunkFolder, "--no-sound-track", "-q"], label: "\(name) chunk")
            let assemble = { (label: String) throws -> ProcessRun in
                try Self.runProcess(tool, ["assemble", tinySpec, "--chunk-dir", chunkFolder, "--chunks", "1",
                                           "-o", folder.appendingPathComponent("\(label).mp4").path, "-q"], label: "assemble \(label)")
            }
            if withMusic {
                tiny["encoding"] = try assemble("tiny-encoding")
                tiny["task"] = try Self.runProcess(tool, ["render", tinySpec, "--sound-track", "--chunk-dir", chunkFolder, "-q"], label: "sound track task")
                tiny["copying"] = try assemble("tiny-copying")
                guard Self.size(folder.appendingPathComponent("tiny-copying.mp4").path) == Self.size(folder.appendingPathComponent("tiny-encoding.mp4").path) else {
                    throw BenchError("the assembly copying the sound track file differs in size from the one encoding the sound")
                }
            } else {
                tiny["silent"] = try assemble("tiny-silent")
            }
        }
        return Result(seconds: seconds, width: width, height: height, fps: fps, preset: preset.rawValue, crf: EncoderSettings().crf(for: .h264), cores: cores,
                      workers: workers, content: content, drawingThreads: min(4, max(1, cores)), x264Threads: x264Threads, x264Version: x264Version,
                      startup: startup, tinyAssemblySilent: tiny["silent"]!, tinyAssemblyCopyingSound: tiny["copying"]!,
                      tinyAssemblyEncodingSound: tiny["encoding"]!, tinySoundTrackTask: tiny["task"]!, single: singleRun, chunked: chunked)
    }

    // MARK: - Report

    /// The table lines.
    static func line(_ r: Result) -> String {
        func f(_ x: Double, _ d: Int) -> String { String(format: "%.\(d)f", x) }
        func signed(_ x: Double, _ d: Int) -> String { (x >= 0 ? "+" : "") + f(x, d) }
        func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        func verdict(_ ok: Bool) -> String { ok ? "PASS" : "FAIL" }
        var lines = [
            "", "chunks: a \(r.seconds)-s \(r.width)x\(r.height) @ \(r.fps) fps description, x264 \(r.preset) CRF \(r.crf) (\(r.content)), "
                + "rendered by moviemaker processes in one pass and as \(r.chunked.map { String($0.chunks) }.joined(separator: ", ")) chunks "
                + "run \(r.workers) at a time, then assembled",
            "  each process: \(r.drawingThreads) drawing threads (default: one per core, up to 4); x264 threads left to x264: \(r.x264Threads) (\(r.x264Version))",
            "  " + ["chunks", "render wall s", "render CPU s", "assembly wall s", "assembly CPU s", "total CPU s", "CPU vs one",
                    "MiB", "bytes vs one", "others"].enumerated().map { i, t in pad(t, [6, 13, 13, 16, 15, 12, 11, 8, 13, 12][i]) }.joined(separator: " "),
        ]
        func row(_ run: Run) -> String {
            let cells = [
                run.chunks == 1 ? "1" : String(run.chunks), f(run.renderWallSeconds, 1), f(run.renderCPUSeconds, 1),
                run.assembly.map { f($0.wallSeconds, 2) } ?? "–", run.assembly.map { f($0.cpuSeconds, 2) } ?? "–",
                f(run.totalCPUSeconds, 1), run.chunks == 1 ? "–" : signed(r.cpuOverheadPercent(run), 2) + " %",
                f(Double(run.outputBytes) / 1_048_576, 2), run.chunks == 1 ? "–" : signed(r.bytesOverheadPercent(run), 2) + " %",
                f(run.renderOthersCores, 2) + (run.assemblyOthersCores.map { "/" + f($0, 2) } ?? ""),
            ]
            return "  " + cells.enumerated().map { i, t in pad(t, [6, 13, 13, 16, 15, 12, 11, 8, 13, 12][i]) }.joined(separator: " ")
        }
        lines.append(row(r.single))
        for run in r.chunked { lines.append(row(run)) }
        for run in r.chunked {
            let cpus = run.renders.map(\.cpuSeconds), walls = run.renders.map(\.wallSeconds)
            lines.append("  \(run.chunks) chunks: each \(f(cpus.min() ?? 0, 1))–\(f(cpus.max() ?? 0, 1)) CPU s, \(f(walls.min() ?? 0, 1))–\(f(walls.max() ?? 0, 1)) wall s; "
                         + "chunks' render CPU alone \(signed(r.renderOnlyOverheadPercent(run), 2)) % vs the one pass (which also encodes the sound); "
                         + "assembly \(f(r.assemblySecondsPerMinute(run), 2)) s per minute of movie; "
                         + "wall: \(f(run.totalWallSeconds, 1)) s against \(f(r.single.totalWallSeconds, 1)) s in one pass")
        }
        lines.append("  a process's start + the description loaded and composed (render --check, no frames): \(f(r.startup.cpuSeconds, 2)) CPU s, "
                     + "\(f(r.startup.wallSeconds, 2)) wall s")
        let join = r.tinyAssemblySilent, copying = r.tinyAssemblyCopyingSound, encoding = r.tinyAssemblyEncodingSound, task = r.tinySoundTrackTask
        lines.append("  assembly split (the description at 64x36 ultrafast, one chunk), wall s / CPU s: without sound \(f(join.wallSeconds, 2)) / \(f(join.cpuSeconds, 2)) "
                     + "(start, checks, packet copy); with its music copied from the sound track file \(f(copying.wallSeconds, 2)) / \(f(copying.cpuSeconds, 2)); "
                     + "encoding the music there instead (no sound track file) \(f(encoding.wallSeconds, 2)) / \(f(encoding.cpuSeconds, 2))")
        lines.append("  the sound track task (render --sound-track: the \(r.seconds)-s sound track mixed + AAC, once; chunk 0's process does it after its frames): "
                     + "\(f(task.wallSeconds, 2)) wall s / \(f(task.cpuSeconds, 2)) CPU s with a process's start")
        if let j = r.judged {
            lines.append("  targets at \(j.chunks) chunks: CPU overhead \(signed(r.cpuOverheadPercent(j), 2)) % ≤ \(f(cpuTargetPercent, 0)) %: \(verdict(r.cpuPasses)); "
                         + "bytes \(signed(r.bytesOverheadPercent(j), 2)) % ≤ \(f(bytesTargetPercent, 0)) %: \(verdict(r.bytesPasses)); "
                         + "assembly < \(f(assemblyTargetSecondsPerMinute, 0)) s per minute at every count (most "
                         + "\(f(r.chunked.map { r.assemblySecondsPerMinute($0) }.max() ?? 0, 2)) s): \(verdict(r.assemblyPasses))")
        }
        if r.seconds != 60 { lines.append("  note: the targets are stated for a 60-s movie; this run's is \(r.seconds) s (--chunk-seconds)") }
        lines.append("  notes: CPU is user + system time of each moviemaker process (wait4); total = chunks + assembly (chunk 0 renders the sound")
        lines.append("         track once, the assembly copies it; the one pass encodes it too). \"others\": cores' worth of CPU other processes took")
        lines.append("         during the renders/assembly.")
        if r.mostOthersCores >= 0.1 {
            lines.append("  busy: other processes took up to \(f(r.mostOthersCores, 2)) cores during a phase: wall times are stretched, and CPU figures"
                         + " (shared caches, clock) may be off by a few per cent")
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
import MovieMaker

/// The encoders line: each codec MovieMaker writes, at 1080p on the same frames (the standard scene,
/// drawn and converted to yuv420p once), encoded by MovieMaker's encoder in a fresh process and by the
/// ffmpeg command line, each reading the same file of raw frames, with the same
/// settings (preset, CRF, x264's CPU flags, hvc1, BT.709 tags). fps, CPU and peak RSS of each, and the
/// ratio of MovieMaker's fps to ffmpeg's (target ≥ 0.95).
///
/// Why rounds: on a shared 2-vCPU machine one pair's ratio moves by ±0.15 from run to run with the
/// same library doing the same work (the CPU of the two sides agrees within 1 %), so each codec is
/// measured `rounds` times, the two sides taking turns at going first, and the line gives the median
/// of the rounds' ratios.
struct EncoderBenchmark {
    var frames = 60
    /// Pairs of runs per codec; odd rounds run ffmpeg first.
    var rounds = 3
    var width = 1920
    var height = 1080
    var fps = 30
    var codecs: [VideoCodec] = [.h264, .hevc, .av1, .vp9]
    /// The ratio each codec should reach.
    static let target = 0.95

    struct Line: Encodable, Sendable {
        let codec: String
        let settings: String
        let movieMaker: VideoPhase
        let ffmpeg: VideoPhase
        /// Every round's runs, in the order they were made.
        let movieMakerRounds: [VideoPhase]
        let ffmpegRounds: [VideoPhase]
        /// fps MovieMaker ÷ fps ffmpeg in the round whose ratio is the median (pairs, so that the
        /// machine's drift over the rounds cancels).
        var ratio: Double { movieMaker.framesPerSecond / ffmpeg.framesPerSecond }
        /// ffmpeg's CPU over all rounds ÷ MovieMaker's (above 1: MovieMaker's process did the work with less CPU).
        var cpuRatio: Double {
            let ours = movieMakerRounds.map(\.cpuSeconds).reduce(0, +), theirs = ffmpegRounds.map(\.cpuSeconds).reduce(0, +)
            return ours > 0 ? theirs / ours : .nan
        }
        let movieMakerBytes: Int
        let ffmpegBytes: Int
        enum CodingKeys: String, CodingKey { case codec, settings, movieMaker, ffmpeg, movieMakerRounds, ffmpegRounds, ratio, cpuRatio, movieMakerBytes, ffmpegBytes }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(codec, forKey: .codec); try c.encode(settings, forKey: .settings)
            try c.encode(movieMaker, forKey: .movieMaker); try c.encode(ffmpeg, forKey: .ffmpeg); try c.encode(ratio, forKey: .ratio)
            try c.encode(movieMakerRounds, forKey: .movieMakerRounds); try c.encode(ffmpegRounds, forKey: .ffmpegRounds)
            try c.encode(cpuRatio, forKey: .cpuRatio)
            try c.encode(movieMakerBytes, forKey: .movieMakerBytes); try c.encode(ffmpegBytes, forKey: .ffmpegBytes)
        }
        /// The pair of the round whose fps ratio is the median (the lower middle one of an even count).
        static func medianPair(_ ours: [VideoPhase], _ theirs: [VideoPhase]) -> (VideoPhase, VideoPhase) {
            let pairs = zip(ours, theirs).sorted { $0.0.framesPerSecond / $0.1.framesPerSecond < $1.0.framesPerSecond / $1.1.framesPerSecond }
            return pairs[(pairs.count - 1) / 2]
        }
    }

    func run() throws -> [Line] {
        // SVT-AV1 prints its banner to standard error unless told otherwise: errors only, for both.
        setenv("SVT_LOG", "0", 0)
        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("the encoders line compares with the ffmpeg command line, which is not installed (skip it with --skip-encoders)")
        }
        // The frames, once: drawn, converted, packed into a raw yuv420p file.
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-frames-\(UUID().uuidString.prefix(8)).yuv")
        defer { try? FileManager.default.removeItem(at: raw) }
        let size = BenchmarkYUVFrame.packedSize(width: width, height: height)
        do {
            _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
            let handle = try FileHandle(forWritingTo: raw)
            defer { try? handle.close() }
            let scene = BenchmarkScene(width: Double(width), height: Double(height), rate: FrameRate(fps), pathCount: 50)
            let canvas = try Canvas(width: width, height: height)
            let converter = try BenchmarkConverter(width: width, height: height)
            let frame = try converter.makeFrame()
            var bytes = [UInt8](repeating: 0, count: size)
            for i in 0..<frames {
                try canvas.draw { try scene.draw(in: $0, frame: i) }
                try converter.convert(canvas, into: frame)
                bytes.withUnsafeMutableBytes { frame.pack(into: $0.baseAddress!) }
                try handle.write(contentsOf: bytes)
            }
        }
        var lines: [Line] = []
        for codec in codecs {
            let crf = BenchmarkEncoder.defaultCRF(codec)
            let ext = codec == .vp9 || codec == .av1 ? "webm" : "mp4"
            let ours = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-enc-\(codec.rawValue)-\(UUID().uuidString.prefix(8)).\(ext)")
            let theirs = ours.deletingPathExtension().appendingPathExtension("ffmpeg.\(ext)")
            defer { try? FileManager.default.removeItem(at: ours); try? FileManager.default.removeItem(at: theirs) }

            let (arguments, description) = Self.ffmpegArguments(codec, crf: crf, width: width, height: height, fps: fps)
            func ourRun(_ round: Int) throws -> VideoPhase {
                standardError("… encoders: \(codec.rawValue) round \(round + 1) of \(rounds), MovieMaker's encoder (fresh process reading the frames' file)")
                let task = VideoChildTask(mode: .encoderAlone, width: width, height: height, fps: fps, crf: crf, preset: EncoderPreset.medium.rawValue,
                                          output: ours.path, frames: frames, codec: codec.rawValue, inputFile: raw.path)
                let usage = MachineUsage.now()
                let (result, _) = try VideoChild.run(task)
                return VideoPhase(phase: "encoder-\(codec.rawValue)", label: "MovieMaker \(codec.rawValue)", frames: result.frames,
                                  wallSeconds: result.wallSeconds, cpuSeconds: result.cpuSeconds, cpuClock: "process",
                                  peakRSSMiB: result.peakRSSMiB, otherProcessesCores: MachineUsage.now().othersCores(since: usage))
            }
            func theirRun(_ round: Int) throws -> VideoPhase {
                standardError("… encoders: \(codec.rawValue) round \(round + 1) of \(rounds), ffmpeg \(description)")
                let measure = VideoChildTask(mode: .measureCommand, command: [ffmpeg, "-nostdin", "-hide_banner", "-v", "error", "-y",
                                                                               "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)",
                                                                               "-r", "\(fps)", "-i", raw.path] + arguments + [theirs.path])
                let usage = MachineUsage.now()
                let (exit, _) = try VideoChild.run(measure)
                return VideoPhase(phase: "encoder-\(codec.rawValue)-ffmpeg", label: "ffmpeg \(codec.rawValue)", frames: frames,
                                  wallSeconds: exit.wallSeconds, cpuSeconds: exit.cpuSeconds, cpuClock: "child",
                                  peakRSSMiB: exit.peakRSSMiB, otherProcessesCores: MachineUsage.now().othersCores(since: usage))
            }
            var mm: [VideoPhase] = [], cli: [VideoPhase] = []
            for round in 0..<max(1, rounds) {
                if round % 2 == 0 {
                    mm.append(try ourRun(round)); cli.append(try theirRun(round))
                } else {
                    cli.append(try theirRun(round)); mm.append(try ourRun(round))
                }
            }
            func bytes(_ url: URL) -> Int { (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0 }
            let (median, medianCLI) = Line.medianPair(mm, cli)
            lines.append(Line(codec: codec.rawValue, settings: description, movieMaker: median, ffmpeg: medianCLI,
                              movieMakerRounds: mm, ffmpegRounds: cli, movieMakerBytes: bytes(ours), ffmpegBytes: bytes(theirs)))
        }
        return lines
    }

    /// The ffmpeg command line's options for what MovieMaker's encoder does with `codec` at `medium`.
    static func ffmpegArguments(_ codec: VideoCodec, crf: Int, width: Int, height: Int, fps: Int) -> ([String], String) {
        let tags = ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv"]
        switch codec {
        case .hevc:
            return (["-c:v", "libx265", "-preset", "medium", "-crf", "\(crf)", "-x265-params", "log-level=error", "-tag:v", "hvc1"] + tags,
                    "libx265 medium crf \(crf)")
        case .av1:
            return (["-c:v", "libsvtav1", "-preset", "8", "-crf", "\(crf)"] + tags, "libsvtav1 preset 8 crf \(crf)")
        case .vp9:
            return (["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "3", "-row-mt", "1", "-crf", "\(crf)", "-b:v", "0"] + tags,
                    "libvpx-vp9 good cpu-used 3 crf \(crf)")
        default:
            let asm = BenchmarkEncoder.x264AssemblyFlags.map { ["-x264-params", "asm=\($0)"] } ?? []
            return (["-c:v", "libx264", "-preset", "medium", "-crf", "\(crf)", "-profile:v", "high"] + asm + tags + ["-movflags", "+faststart"],
                    "libx264 medium crf \(crf)")
        }
    }

    /// The line for the table.
    static func line(_ lines: [Line]) -> String {
        let rounds = lines.first?.movieMakerRounds.count ?? 0
        var out = ["Encoders: 1080p, the standard scene's frames once converted, \(lines.first?.movieMaker.frames ?? 0) frames; MovieMaker's encoder (fresh process) against the ffmpeg command line, same settings; the median of \(rounds) rounds' ratios, the two taking turns at going first:"]
        for l in lines {
            let mark = l.ratio >= target ? "PASS" : "MISS"
            out.append(String(format: "  %-5@ %6.2f fps, CPU %6.1f s, peak %6.1f MiB | ffmpeg %6.2f fps, CPU %6.1f s, peak %6.1f MiB | ratio %.3f (target ≥ %.2f: %@)  [%@; %.1f vs %.1f MiB files]",
                              l.codec, l.movieMaker.framesPerSecond, l.movieMaker.cpuSeconds, l.movieMaker.peakRSSMiB ?? .nan,
                              l.ffmpeg.framesPerSecond, l.ffmpeg.cpuSeconds, l.ffmpeg.peakRSSMiB ?? .nan, l.ratio, target, mark, l.settings,
                              Double(l.movieMakerBytes) / 1_048_576, Double(l.ffmpegBytes) / 1_048_576))
            let pairs = zip(l.movieMakerRounds, l.ffmpegRounds).map { String(format: "%.3f", $0.framesPerSecond / $1.framesPerSecond) }
            let others = (l.movieMakerRounds + l.ffmpegRounds).map(\.otherProcessesCores).max() ?? 0
            out.append(String(format: "        each round's ratio %@; CPU over all rounds ffmpeg ÷ MovieMaker %.3f; other processes at most %.2f cores",
                              pairs.joined(separator: ", "), l.cpuRatio, others))
        }
        return out.joined(separator: "\n")
    }
}

import Foundation
import MovieMaker
import MovieMaker

/// What every preset run draws and encodes.
struct Workload: Encodable, Sendable {
    var width = 1920
    var height = 1080
    var fps = 30
    var frames = 300
    var pathsPerFrame = 50
    var textLinesPerFrame = 1
    var crf = 20

    var frameRate: FrameRate { FrameRate(fps) }
    var scene: BenchmarkScene {
        BenchmarkScene(width: Double(width), height: Double(height), rate: frameRate, pathCount: pathsPerFrame)
    }
    func settings(_ preset: EncoderPreset) -> EncoderSettings { EncoderSettings(crf: crf, preset: preset) }
}

/// The four phases of one preset and the figures derived from them.
struct PresetResult: Encodable, Sendable {
    /// The x264 preset.
    let preset: String
    /// (a) drawing alone.
    let draw: Measurement
    /// (b) BGRA → yuv420p alone.
    let convert: Measurement
    /// (b′) BGRA → yuv420p with swscale's accurate path, which (b) replaced: the same frames, for the ratio.
    let convertSwscale: Measurement
    /// CPU b′ ÷ CPU b: how many times cheaper MovieMaker's conversion is.
    let conversionSpeedup: Double
    /// The largest difference between (b)'s and (b′)'s bytes over every frame and plane, in levels.
    let conversionLargestDifference: Int
    /// (c) x264 + MP4 muxer alone, on frames converted in (b).
    let encode: Measurement
    /// (d) the whole MovieMaker pipeline, frames drawn by one `addFrames` closure (sequential drawing).
    let pipeline: Measurement
    /// (e) the whole pipeline, the same frames as a `Clip` rendered with `add(_:)` (parallel drawing).
    let clipPipeline: Measurement
    /// (CPU a + CPU b + CPU c) ÷ (cores × wall e).
    let clipEfficiency: Double
    /// (CPU e − CPU(a+b+c)) ÷ CPU e, in percent.
    let clipOverheadPercent: Double
    /// fps e ÷ fps c.
    let clipVsEncoderThroughput: Double
    /// Logical cores used in `efficiency`.
    let cores: Int
    /// (CPU a + CPU b + CPU c) ÷ (cores × wall d): how much of the machine the pipeline keeps busy
    /// with useful work.
    let efficiency: Double
    /// (CPU d − CPU(a+b+c)) ÷ CPU d, in percent: CPU the pipeline spends beyond its parts.
    let overheadPercent: Double
    /// fps d ÷ fps c: the pipeline's throughput relative to the encoder alone.
    let pipelineVsEncoderThroughput: Double
    /// Size of the file (c) wrote, in bytes.
    let encoderOnlyFileBytes: Int
    /// Size of the file (d) wrote, in bytes.
    let pipelineFileBytes: Int

    init(preset: EncoderPreset, draw: Measurement, convert: Measurement, convertSwscale: Measurement, largestDifference: Int,
         encode: Measurement, pipeline: Measurement, clipPipeline: Measurement, cores: Int, encoderOnlyFileBytes: Int, pipelineFileBytes: Int) {
        self.preset = preset.rawValue
        self.draw = draw; self.convert = convert; self.encode = encode; self.pipeline = pipeline
        self.convertSwscale = convertSwscale
        conversionSpeedup = convertSwscale.cpuSeconds / convert.cpuSeconds
        conversionLargestDifference = largestDifference
        self.clipPipeline = clipPipeline
        self.cores = cores
        let partsCPU = draw.cpuSeconds + convert.cpuSeconds + encode.cpuSeconds
        efficiency = partsCPU / (Double(cores) * pipeline.wallSeconds)
        overheadPercent = 100 * (pipeline.cpuSeconds - partsCPU) / pipeline.cpuSeconds
        pipelineVsEncoderThroughput = pipeline.framesPerSecond / encode.framesPerSecond
        clipEfficiency = partsCPU / (Double(cores) * clipPipeline.wallSeconds)
        clipOverheadPercent = 100 * (clipPipeline.cpuSeconds - partsCPU) / clipPipeline.cpuSeconds
        clipVsEncoderThroughput = clipPipeline.framesPerSecond / encode.framesPerSecond
        self.encoderOnlyFileBytes = encoderOnlyFileBytes
        self.pipelineFileBytes = pipelineFileBytes
    }

    /// The phases in table order.
    var phases: [Measurement] { [draw, convert, convertSwscale, encode, pipeline, clipPipeline] }
}

/// Runs the standard workload's four phases for one x264 preset.
struct PresetBenchmark {
    let workload: Workload
    let preset: EncoderPreset
    let cores: Int

    func run() throws -> PresetResult {
        let draw = try measureDrawing()
        var converted: [BenchmarkYUVFrame] = []
        let convert = try measureConversion(into: &converted)
        let (convertSwscale, largestDifference) = try measureSwscaleConversion(comparingWith: converted)
        let encodeFile = TemporaryFile(tag: "encode-\(preset.rawValue)")
        defer { encodeFile.remove() }
        let encode = try measureEncoder(frames: converted, url: encodeFile.url)
        converted = []   // frees ~3 MiB per 1080p frame; the next phase trims it back to the kernel
        let pipelineFile = TemporaryFile(tag: "pipeline-\(preset.rawValue)")
        defer { pipelineFile.remove() }
        let pipeline = try measurePipeline(url: pipelineFile.url)
        let clipFile = TemporaryFile(tag: "clip-\(preset.rawValue)")
        defer { clipFile.remove() }
        let clipPipeline = try measureClipPipeline(url: clipFile.url)
        return PresetResult(preset: preset, draw: draw, convert: convert, convertSwscale: convertSwscale,
                            largestDifference: largestDifference, encode: encode, pipeline: pipeline,
                            clipPipeline: clipPipeline, cores: cores, encoderOnlyFileBytes: encodeFile.size, pipelineFileBytes: pipelineFile.size)
    }

    /// (a) Draws every frame into one canvas. One untimed frame first warms Cairo and the font.
    private func measureDrawing() throws -> Measurement {
        let scene = workload.scene
        return try Measurement.run(phase: "draw", label: "(a) draw (Cairo)", frames: workload.frames, clock: .thread) { stopwatch in
            let canvas = try Canvas(width: workload.width, height: workload.height)
            try canvas.draw { try scene.draw(in: $0, frame: 0) }
            try stopwatch.time {
                for i in 0..<workload.frames { try canvas.draw { try scene.draw(in: $0, frame: i) } }
            }
        }
    }

    /// (b) Draws every frame again (untimed) and times only its conversion, keeping the results.
    private func measureConversion(into frames: inout [BenchmarkYUVFrame]) throws -> Measurement {
        let scene = workload.scene
        var kept: [BenchmarkYUVFrame] = []
        kept.reserveCapacity(workload.frames)
        let m = try Measurement.run(phase: "convert", label: "(b) BGRA→yuv420p", frames: workload.frames, clock: .thread) { stopwatch in
            let canvas = try Canvas(width: workload.width, height: workload.height)
            let converter = try BenchmarkConverter(width: workload.width, height: workload.height)
            for i in 0..<workload.frames {
                try canvas.draw { try scene.draw(in: $0, frame: i) }
                let yuv = try converter.makeFrame()     // allocated and pre-faulted outside the timing
                try stopwatch.time { try converter.convert(canvas, into: yuv) }
                kept.append(yuv)
            }
        }
        frames = kept
        return m
    }

    /// (b′) The same frames converted by swscale's accurate path (what (b) replaced), timed the same
    /// way; each result is compared with (b)'s byte by byte, untimed, and freed.
    private func measureSwscaleConversion(comparingWith ours: [BenchmarkYUVFrame]) throws -> (Measurement, Int) {
        let scene = workload.scene
        var largest = 0
        let size = BenchmarkYUVFrame.packedSize(width: workload.width, height: workload.height)
        var a = [UInt8](repeating: 0, count: size), b = [UInt8](repeating: 0, count: size)
        let m = try Measurement.run(phase: "convert-swscale", label: "(b′) the same with swscale", frames: workload.frames, clock: .thread) { stopwatch in
            let canvas = try Canvas(width: workload.width, height: workload.height)
            let converter = try BenchmarkConverter(width: workload.width, height: workload.height, method: .swscale)
            let yuv = try converter.makeFrame()
            for i in 0..<workload.frames {
                try canvas.draw { try scene.draw(in: $0, frame: i) }
                try stopwatch.time { try converter.convert(canvas, into: yuv) }
                a.withUnsafeMutableBytes { ours[i].pack(into: $0.baseAddress!) }
                b.withUnsafeMutableBytes { yuv.pack(into: $0.baseAddress!) }
                for k in 0..<size { largest = max(largest, abs(Int(a[k]) - Int(b[k]))) }
            }
        }
        return (m, largest)
    }

    /// (c) Encodes and muxes the converted frames; x264's threads count, so process CPU.
    private func measureEncoder(frames: [BenchmarkYUVFrame], url: URL) throws -> Measurement {
        try Measurement.run(phase: "encode", label: "(c) x264 + mux alone", frames: frames.count, clock: .process) { stopwatch in
            try stopwatch.time {
                let encoder = try BenchmarkEncoder(url: url, width: workload.width, height: workload.height,
                                                   fps: workload.frameRate, settings: workload.settings(preset))
                for (i, frame) in frames.enumerated() { try encoder.encode(frame, index: i) }
                try encoder.finish()
            }
        }
    }

    /// (d) The whole MovieMaker pipeline drawing the same frames.
    private func measurePipeline(url: URL) throws -> Measurement {
        let scene = workload.scene
        return try Measurement.run(phase: "pipeline", label: "(d) whole pipeline", frames: workload.frames, clock: .process) { stopwatch in
            try stopwatch.time {
                try renderMovie(url: url, width: workload.width, height: workload.height, rate: workload.frameRate,
                                settings: workload.settings(preset), frames: workload.frames) { ctx, frame in
                    try scene.draw(in: ctx, frame: frame.index)
                }
            }
        }
    }
}

extension PresetBenchmark {
    /// (e) The same frames as one clip, rendered with `MovieMaker.add(_:)`, which draws clip frames
    /// on several canvases at once.
    func measureClipPipeline(url: URL) throws -> Measurement {
        let scene = workload.scene
        let clip = Clip(duration: workload.frameRate.time(ofFrame: workload.frames)) { ctx, frame in
            try scene.draw(in: ctx, frame: frame.index)
        }
        return try Measurement.run(phase: "clip-pipeline", label: "(e) pipeline, clip (parallel draw)", frames: workload.frames, clock: .process) { stopwatch in
            try stopwatch.time {
                let movie = try MovieMaker(url: url, width: workload.width, height: workload.height, fps: workload.frameRate,
                                           settings: workload.settings(preset))
                try movie.add(clip)
                try movie.finish()
            }
        }
    }
}

/// Peak memory of the whole pipeline for a short and a long movie of small frames: if memory is
/// flat in the movie's length, the two peaks are close.
struct MemoryFlatness: Encodable, Sendable {
    var width = 320
    var height = 240
    var fps = 30
    var preset = EncoderPreset.ultrafast.rawValue
    var crf = 20
    /// One run per frame count, in order.
    var runs: [Measurement] = []
    /// Peak of the last run minus peak of the first, in MiB.
    var differenceMiB: Double? {
        guard let first = runs.first?.peakRSSMiB, let last = runs.last?.peakRSSMiB else { return nil }
        return last - first
    }

    /// Renders one movie per entry of `frameCounts` and records each run's peak RSS.
    static func run(frameCounts: [Int]) throws -> MemoryFlatness {
        var result = MemoryFlatness()
        let rate = FrameRate(result.fps)
        let scene = SmallScene(width: Double(result.width), height: Double(result.height), rate: rate)
        let settings = EncoderSettings(crf: result.crf, preset: .ultrafast)
        for count in frameCounts {
            let file = TemporaryFile(tag: "memory-\(count)")
            defer { file.remove() }
            let m = try Measurement.run(phase: "memory-\(count)", label: "\(result.width)×\(result.height) ultrafast, \(count) frames",
                                        frames: count, clock: .process) { stopwatch in
                try stopwatch.time {
                    try renderMovie(url: file.url, width: result.width, height: result.height, rate: rate,
                                    settings: settings, frames: count) { ctx, frame in
                        try scene.draw(in: ctx, frame: frame.index)
                    }
                }
            }
            result.runs.append(m)
        }
        return result
    }

    enum CodingKeys: String, CodingKey { case width, height, fps, preset, crf, runs, differenceMiB }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width); try c.encode(height, forKey: .height); try c.encode(fps, forKey: .fps)
        try c.encode(preset, forKey: .preset); try c.encode(crf, forKey: .crf); try c.encode(runs, forKey: .runs)
        try c.encodeIfPresent(differenceMiB, forKey: .differenceMiB)
    }
}

/// One movie through the public API: `MovieMaker`, `addFrames`, `finish`.
func renderMovie(url: URL, width: Int, height: Int, rate: FrameRate, settings: EncoderSettings, frames: Int,
                 draw: (DrawingContext, Frame) throws -> Void) throws {
    let movie = try MovieMaker(url: url, width: width, height: height, fps: rate, settings: settings)
    try movie.addFrames(count: frames, draw)
    try movie.finish()
}

/// A uniquely named `.mp4` path in the temporary folder, deleted by `remove()`.
struct TemporaryFile {
    let url: URL
    init(tag: String) {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviemaker-bench-\(tag)-\(UUID().uuidString.prefix(8)).mp4")
    }
    /// The file's size in bytes (0 when missing).
    var size: Int { (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0 }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

import Foundation
import Glibc
import MovieMaker
import MovieMaker

// The slideshow line: a photo slideshow (mixed sizes up to 24 MP, crossfade, Ken Burns) timed phase
// by phase as the standard workload is:
//
//   (a) drawing incl. photo decoding alone   (b) BGRA → yuv420p alone
//   (c) x264 + MP4 muxer alone                (d) the whole pipeline, MovieMaker.add(clip)
//
// 2700 frames of 1080p cannot all be kept converted in memory (8 GiB), so (a), (b) and (c) run in
// one pass over chunks of frames: draw and convert a chunk, then encode it. Between the two halves
// the process is left to go quiet (the read-ahead decodes finish, x264's threads finish the frames
// in flight), so each half's process CPU is its own.

/// What the slideshow line renders.
struct SlideshowWorkload: Encodable, Sendable {
    var width = 1920
    var height = 1080
    var fps = 30
    var photos = 30
    var secondsPerPhoto = 3.0
    var fit = "fill"
    var kenBurns = "on (12 % zoom, 6 % pan)"
    var crf = 20
    var preset = EncoderPreset.medium.rawValue
    /// Frames drawn and converted before they are encoded in phases (a)–(c).
    var chunkFrames = 300
    /// The show's frame count (set from the clip).
    var frames = 0
    /// Megapixels of each photo, in show order.
    var photoMegapixels: [Double] = []
    /// How many photos are portraits stored landscape with EXIF orientation 6.
    var portraitPhotos = 0
    /// Total size of the JPEG files.
    var photoBytes = 0

    /// Crossfade length: 1 s, or half a photo's time when photos are shorter than 2 s.
    var crossfadeSeconds: Double { min(1, secondsPerPhoto / 2) }
    var frameRate: FrameRate { FrameRate(fps) }
    var settings: EncoderSettings { EncoderSettings(crf: crf, preset: EncoderPreset(rawValue: preset) ?? .medium) }

    /// The show over `urls`: fill, crossfade, the default Ken Burns.
    static func show(_ urls: [URL], secondsPerPhoto: Double) -> Slideshow {
        var show = Slideshow(photos: urls.map { Slideshow.Photo(url: $0) })
        show.duration = Time(seconds: secondsPerPhoto)
        show.transition = .crossfade(duration: Time(seconds: min(1, secondsPerPhoto / 2)))
        show.fit = .fill
        show.kenBurns = Slideshow.KenBurns()
        return show
    }
}

/// The slideshow line's phases and the figures derived from them.
struct SlideshowResult: Encodable, Sendable {
    let workload: SlideshowWorkload
    /// (a) drawing the clip's frames into one canvas, photo decoding (on any thread) included.
    let draw: Measurement
    /// (b) BGRA → yuv420p alone.
    let convert: Measurement
    /// (c) x264 + MP4 muxer alone, on the frames converted in (b).
    let encode: Measurement
    /// (d) the whole pipeline: `MovieMaker.add(clip)` + `finish()`.
    let pipeline: Measurement
    let cores: Int
    /// (CPU a + CPU b + CPU c) ÷ (cores × wall d).
    let efficiency: Double
    /// (CPU d − CPU(a+b+c)) ÷ CPU d, in percent.
    let overheadPercent: Double
    /// fps d ÷ fps c.
    let pipelineVsEncoderThroughput: Double
    /// Photo waits of the drawing thread during (a).
    let drawPhotoWaits: RenderStatistics
    /// Photo waits of the drawing threads during (d).
    let pipelinePhotoWaits: RenderStatistics
    let encoderOnlyFileBytes: Int
    let pipelineFileBytes: Int
    /// Seconds spent generating photos before the phases (0 when cached; never part of a figure).
    let photoGenerationSeconds: Double

    static let efficiencyTarget = 0.95
    static let overheadTargetPercent = 5.0
    var efficiencyPasses: Bool { efficiency >= Self.efficiencyTarget }
    var overheadPasses: Bool { overheadPercent <= Self.overheadTargetPercent }
    var phases: [Measurement] { [draw, convert, encode, pipeline] }
}

/// Runs the slideshow line.
struct SlideshowBenchmark {
    var workload: SlideshowWorkload
    let folder: BenchPhotoFolder
    let cores: Int

    func run() throws -> SlideshowResult {
        var workload = self.workload
        let specs = (0..<workload.photos).map(BenchPhotoSpec.show)
        let (urls, generation) = try folder.ensure(specs)
        workload.photoMegapixels = specs.map(\.megapixels)
        workload.portraitPhotos = specs.filter { $0.orientation == 6 }.count
        workload.photoBytes = BenchPhotoFolder.bytes(of: urls)
        let show = SlideshowWorkload.show(urls, secondsPerPhoto: workload.secondsPerPhoto)
        let probe = try show.clip(width: workload.width, height: workload.height)
        workload.frames = workload.frameRate.frameCount(for: probe.duration)
        workload.chunkFrames = min(workload.chunkFrames, workload.frames)

        standardError("… slideshow: (a)–(c), \(workload.frames) frames in chunks of \(workload.chunkFrames)")
        let encodeFile = TemporaryFile(tag: "slideshow-encode")
        defer { encodeFile.remove() }
        let (draw, convert, encode, drawWaits) = try measureParts(show, workload: workload, url: encodeFile.url)

        standardError("… slideshow: (d) whole pipeline")
        let pipelineFile = TemporaryFile(tag: "slideshow-pipeline")
        defer { pipelineFile.remove() }
        let (pipeline, pipelineWaits) = try measurePipeline(show, workload: workload, url: pipelineFile.url)

        let parts = draw.cpuSeconds + convert.cpuSeconds + encode.cpuSeconds
        return SlideshowResult(workload: workload, draw: draw, convert: convert, encode: encode, pipeline: pipeline, cores: cores,
                               efficiency: parts / (Double(cores) * pipeline.wallSeconds),
                               overheadPercent: 100 * (pipeline.cpuSeconds - parts) / pipeline.cpuSeconds,
                               pipelineVsEncoderThroughput: pipeline.framesPerSecond / encode.framesPerSecond,
                               drawPhotoWaits: drawWaits, pipelinePhotoWaits: pipelineWaits,
                               encoderOnlyFileBytes: encodeFile.size, pipelineFileBytes: pipelineFile.size,
                               photoGenerationSeconds: generation)
    }

    /// (a), (b) and (c) in one pass over chunks. (a) is the process CPU of each chunk's drawing loop
    /// minus its conversions' thread CPU (decoding on the read-ahead threads counts as drawing);
    /// (b) the conversions' thread CPU; (c) the process CPU while the chunk is fed to x264.
    private func measureParts(_ show: Slideshow, workload w: SlideshowWorkload, url: URL) throws -> (Measurement, Measurement, Measurement, RenderStatistics) {
        ProcessMemory.releaseFreed()
        let reset = ProcessMemory.resetPeak()
        let before = ProcessMemory.currentMiB()
        let clip = try show.clip(width: w.width, height: w.height)
        let canvas = try Canvas(width: w.width, height: w.height)
        let converter = try BenchmarkConverter(width: w.width, height: w.height)
        // One chunk of converted frames, allocated and pre-faulted before anything is timed.
        let frames = try (0..<w.chunkFrames).map { _ in try converter.makeFrame() }
        let rate = w.frameRate
        var drawWall = 0.0, drawCPU = 0.0, drawFaults = 0
        var convert = Stopwatch(clock: .thread)
        var encode = Stopwatch(clock: .process)
        var encoder: BenchmarkEncoder?
        var next = 0
        while next < w.frames {
            let count = min(w.chunkFrames, w.frames - next)
            let wall0 = wallSeconds(), cpu0 = CPUClock.process.seconds(), faults0 = CPUClock.process.minorFaults()
            let convertWall0 = convert.wall, convertCPU0 = convert.cpu, convertFaults0 = convert.minorFaults
            for k in 0..<count {
                let i = next + k
                try canvas.draw { ctx in
                    ctx.clear(.black)
                    try clip.draw(in: ctx, at: Frame(index: i, movieIndex: i, rate: rate, exactTime: rate.time(ofFrame: i), duration: clip.duration))
                }
                try convert.time { try converter.convert(canvas, into: frames[k]) }
            }
            waitUntilQuiet()   // read-ahead decodes started by this chunk finish inside (a)
            drawWall += wallSeconds() - wall0 - (convert.wall - convertWall0)
            drawCPU += CPUClock.process.seconds() - cpu0 - (convert.cpu - convertCPU0)
            drawFaults += CPUClock.process.minorFaults() - faults0 - (convert.minorFaults - convertFaults0)
            try encode.time {
                if encoder == nil {
                    encoder = try BenchmarkEncoder(url: url, width: w.width, height: w.height, fps: rate, settings: w.settings)
                }
                for k in 0..<count { try encoder!.encode(frames[k], index: next + k) }
                if next + count == w.frames { try encoder!.finish() } else { waitUntilQuiet() }
            }
            next += count
        }
        let peak = ProcessMemory.peakMiB()
        func measurement(_ phase: String, _ label: String, wall: Double, cpu: Double, clock: CPUClock, faults: Int) -> Measurement {
            Measurement(phase: phase, label: label, frames: w.frames, wallSeconds: wall, cpuSeconds: cpu, cpuClock: clock,
                        framesPerSecond: wall > 0 ? Double(w.frames) / wall : 0, minorPageFaults: faults,
                        rssBeforeMiB: before, peakRSSMiB: peak, peakAboveBaselineMiB: peak.flatMap { p in before.map { p - $0 } },
                        peakWasReset: reset)
        }
        return (measurement("slideshow-draw", "(a) draw incl. photo decoding", wall: drawWall, cpu: drawCPU, clock: .process, faults: drawFaults),
                measurement("slideshow-convert", "(b) BGRA→yuv420p", wall: convert.wall, cpu: convert.cpu, clock: .thread,
                            faults: convert.minorFaults),
                measurement("slideshow-encode", "(c) x264 + mux alone", wall: encode.wall, cpu: encode.cpu, clock: .process,
                            faults: encode.minorFaults),
                clip.standalonePhotoStatistics())
    }

    /// (d) `MovieMaker.add(clip)`: parallel drawing, conversion and encoding, as a user would render the show.
    private func measurePipeline(_ show: Slideshow, workload w: SlideshowWorkload, url: URL) throws -> (Measurement, RenderStatistics) {
        var statistics = RenderStatistics()
        let measured = try Measurement.run(phase: "slideshow-pipeline", label: "(d) whole pipeline, add(clip)", frames: w.frames, clock: .process) { stopwatch in
            try stopwatch.time {
                let movie = try MovieMaker(url: url, width: w.width, height: w.height, fps: w.frameRate, settings: w.settings)
                try movie.add(try show.clip(width: w.width, height: w.height))
                statistics = try movie.finish().statistics
            }
        }
        return (measured, statistics)
    }
}

/// Waits until the process's other threads are idle: until a 5 ms interval costs under 1 ms of
/// process CPU (at most 10 s). Used between phases that share one pass, so that work still running
/// on other threads (read-ahead decodes, x264's frame threads) is counted in the phase that started it.
func waitUntilQuiet() {
    let deadline = wallSeconds() + 10
    while wallSeconds() < deadline {
        let cpu0 = CPUClock.process.seconds(), wall0 = wallSeconds()
        usleep(5_000)
        if CPUClock.process.seconds() - cpu0 < 0.2 * (wallSeconds() - wall0) { return }
    }
}

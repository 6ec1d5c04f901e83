import Foundation
import MovieMaker
import MovieMaker

/// Everything one run of the benchmark measured: printed as a table, and written as JSON for scripts.
struct BenchmarkReport: Encodable {
    /// The machine the figures come from.
    struct Machine: Encodable {
        /// `UsableCores.count` (the cores in the process's affinity mask, e.g. after `--cores N`), the
        /// `cores` of the efficiency figure.
        let cores: Int
        let physicalMemoryGiB: Double
        let operatingSystem: String

        static var current: Machine {
            let info = ProcessInfo.processInfo
            return Machine(cores: UsableCores.count,
                           physicalMemoryGiB: Double(info.physicalMemory) / 1_073_741_824,
                           operatingSystem: info.operatingSystemVersionString)
        }
    }

    let date: String
    let machine: Machine
    let workload: Workload
    var presets: [PresetResult] = []
    var memory: MemoryFlatness?
    var slideshow: SlideshowResult?
    /// Cores' worth of CPU other processes used on average while each line ran ("presets", "memory",
    /// "slideshow", "slideshowMemory"): near 0 for wall-time figures to be trusted.
    var otherProcessesCores: [String: Double] = [:]
    var slideshowMemory: SlideshowMemoryResult?
    /// The audio line: a slideshow without and with a normalised music bed.
    var audio: AudioBenchmark.Result?
    /// The video line: ten clips stitched with crossfades, against x264 alone and the ffmpeg CLI.
    var video: VideoResult?
    /// The reverse line: a long-GOP clip decoded backwards against forwards.
    var reverse: ReverseResult?
    /// The filters line: every filter's cost on a 1080p frame, a render with and without filters.
    var filters: FilterBenchmark.Result?
    /// The chunk line: one pass against 2, 4 and 8 chunks run two at a time, then assembled.
    var chunks: ChunkBenchmark.Result?
    var captions: CaptionBenchmark.Result?
    var audiogram: AudiogramBenchmark.Result?
    var reframe: ReframeBenchmark.Result?
    var transcription: TranscriptionBenchmark.Result?
    var encoders: [EncoderBenchmark.Line]?
    var batch: BatchBenchmark.Result?
    var incremental: IncrementalBenchmark.Result?

    init(machine: Machine, workload: Workload) {
        self.date = ISO8601DateFormatter().string(from: Date())
        self.machine = machine
        self.workload = workload
    }

    /// The report as pretty-printed JSON.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }
}

/// Formats the report as human-readable text.
enum TableFormatter {
    static func header(_ machine: BenchmarkReport.Machine, _ w: Workload, presets: [String]) -> String {
        """
        MovieMaker benchmark — machine: \(machine.cores) cores usable (affinity mask; --cores N limits it), \
        \(format(machine.physicalMemoryGiB, 1)) GiB RAM, \(machine.operatingSystem)
        Libraries: \(LibraryVersions.current)
        Workload: \(w.width)×\(w.height) @ \(w.fps) fps, \(w.frames) frames; per frame \(w.pathsPerFrame) animated \
        cubic-Bézier paths filled with gradients and stroked, plus \(w.textLinesPerFrame) line of text (DejaVu Sans); \
        CRF \(w.crf); x264 presets: \(presets.joined(separator: ", "))
        """
    }

    private static let columns: [(title: String, width: Int)] = [
        ("phase", 30), ("wall s", 9), ("CPU s", 9), ("CPU clock", 10), ("frames/s", 10),
        ("RSS before MiB", 15), ("peak RSS MiB", 13), ("peak−before", 12),
    ]

    static func preset(_ r: PresetResult) -> String {
        var lines = ["", "preset \(r.preset)", row(columns.map(\.title))]
        for m in r.phases {
            lines.append(row([m.label, format(m.wallSeconds, 2), format(m.cpuSeconds, 2), m.cpuClock.rawValue,
                              format(m.framesPerSecond, 1), format(m.rssBeforeMiB, 1), format(m.peakRSSMiB, 1),
                              format(m.peakAboveBaselineMiB, 1)]))
        }
        lines += [
            "  efficiency   (CPU a + CPU b + CPU c) ÷ (\(r.cores) × wall d)   = \(format(r.efficiency, 3))",
            "  overhead     (CPU d − CPU(a+b+c)) ÷ CPU d              = \(format(r.overheadPercent, 1)) %",
            "  throughput   fps d ÷ fps c (pipeline vs x264 alone)      = \(format(r.pipelineVsEncoderThroughput, 3))",
            "  clip path    efficiency (a+b+c) ÷ (\(r.cores) × wall e) = \(format(r.clipEfficiency, 3)), overhead \(format(r.clipOverheadPercent, 1)) %, fps e ÷ fps c = \(format(r.clipVsEncoderThroughput, 3))",
            "  conversion   CPU b′ ÷ CPU b (swscale's accurate path vs ours) = \(format(r.conversionSpeedup, 2))×, "
                + "largest difference \(r.conversionLargestDifference) level\(r.conversionLargestDifference == 1 ? "" : "s") over \(r.convert.frames) frames",
            "  files        (c) \(mib(r.encoderOnlyFileBytes)) MiB, (d) \(mib(r.pipelineFileBytes)) MiB; "
                + "(b) minor page faults \(r.convert.minorPageFaults) (\(r.convert.minorPageFaults / max(r.convert.frames, 1)) per frame)",
        ]
        return lines.joined(separator: "\n")
    }

    /// Printed when the kernel refused to reset the high-water mark: peaks are then since process start.
    static let resetWarning = "warning: /proc/self/clear_refs could not be written; peak RSS figures are since process start"

    static var notes: String {
        """

        notes: (b) draws each frame untimed, then times only the convert call (wall and thread CPU summed over the calls);
               its RSS grows by one stored yuv420p frame per frame, and that is (c)'s baseline ("RSS before").
               (c) and (d) use process CPU (getrusage: all threads). Peak RSS is VmHWM after writing 5 to /proc/self/clear_refs.
        """
    }

    static func memory(_ m: MemoryFlatness) -> String {
        var lines = ["", "memory flatness: whole pipeline, \(m.width)×\(m.height) @ \(m.fps) fps, \(m.preset), CRF \(m.crf)"]
        for r in m.runs {
            lines.append("  \(pad(String(r.frames), 6, left: true)) frames: peak RSS \(format(r.peakRSSMiB, 1)) MiB "
                         + "(before \(format(r.rssBeforeMiB, 1)) MiB), wall \(format(r.wallSeconds, 1)) s, \(format(r.framesPerSecond, 0)) frames/s")
        }
        let sign = (m.differenceMiB ?? 0) >= 0 ? "+" : ""
        lines.append("  difference (\(m.runs.last?.frames ?? 0) − \(m.runs.first?.frames ?? 0) frames): \(sign)\(format(m.differenceMiB, 1)) MiB")
        return lines.joined(separator: "\n")
    }

    static func slideshow(_ r: SlideshowResult) -> String {
        let w = r.workload
        var mix: [String] = []
        for mp in Set(w.photoMegapixels.map { $0.rounded() }).sorted(by: >) {
            mix.append("\(w.photoMegapixels.filter { $0.rounded() == mp }.count)× \(format(mp, 0)) MP")
        }
        var lines = ["", "slideshow: \(w.photos) photos (\(mix.joined(separator: ", ")); \(w.portraitPhotos) of them portraits "
                     + "with EXIF orientation 6; \(mib(w.photoBytes)) MiB of JPEG), \(w.width)×\(w.height) @ \(w.fps) fps, "
                     + "\(format(w.secondsPerPhoto, 1)) s each, crossfade \(format(w.crossfadeSeconds, 2)) s, Ken Burns \(w.kenBurns), "
                     + "\(w.fit); \(w.frames) frames; x264 \(w.preset) CRF \(w.crf)",
                     row(columns.map(\.title))]
        for m in r.phases {
            lines.append(row([m.label, format(m.wallSeconds, 2), format(m.cpuSeconds, 2), m.cpuClock.rawValue,
                              format(m.framesPerSecond, 1), format(m.rssBeforeMiB, 1), format(m.peakRSSMiB, 1),
                              format(m.peakAboveBaselineMiB, 1)]))
        }
        func verdict(_ ok: Bool) -> String { ok ? "PASS" : "FAIL" }
        func waits(_ s: RenderStatistics, wall: Double) -> String {
            "\(s.photosDecodedAhead) photos decoded ahead on other threads, \(s.photosDecodedOnDrawingThreads) on a drawing thread; "
                + "drawing waited \(format(s.photoWaitSeconds, 2)) s in \(s.photoWaits) calls (\(format(100 * s.photoWaitSeconds / max(wall, 1e-9), 1)) % of the phase's wall)"
        }
        lines += [
            "  efficiency   (CPU a + CPU b + CPU c) ÷ (\(r.cores) × wall d)   = \(format(r.efficiency, 3))   "
                + "target ≥ \(format(SlideshowResult.efficiencyTarget, 2)): \(verdict(r.efficiencyPasses))",
            "  overhead     (CPU d − CPU(a+b+c)) ÷ CPU d              = \(format(r.overheadPercent, 1)) %   "
                + "target ≤ \(format(SlideshowResult.overheadTargetPercent, 0)) %: \(verdict(r.overheadPasses))",
            "  throughput   fps d ÷ fps c (pipeline vs x264 alone)      = \(format(r.pipelineVsEncoderThroughput, 3))   "
                + "(for comparison: MoviePy ≈ 0.2, ffmpeg zoompan+xfade ≈ 0.6 using 1.5 GiB)",
            "  photo waits  (a) \(waits(r.drawPhotoWaits, wall: r.draw.wallSeconds))",
            "               (d) \(waits(r.pipelinePhotoWaits, wall: r.pipeline.wallSeconds))",
            "  files        (c) \(mib(r.encoderOnlyFileBytes)) MiB, (d) \(mib(r.pipelineFileBytes)) MiB"
                + (r.photoGenerationSeconds > 0 ? "; photos generated first in \(format(r.photoGenerationSeconds, 1)) s (not timed)" : ""),
            "  notes: (a)–(c) are one pass over chunks of \(w.chunkFrames) frames: each chunk is drawn (a: process CPU, so photo",
            "         decoding on the read-ahead threads counts, minus the conversions) and converted (b: thread CPU of each call),",
            "         then encoded (c: process CPU); between the halves the process is left to go quiet. Their RSS figures are",
            "         the whole pass's (one chunk of converted frames held). (d) is MovieMaker.add(clip) + finish, drawing on",
            "         several threads. Photo waits: time a drawing thread spent in PhotoProvider.image(at:) for a photo not yet decoded.",
        ]
        return lines.joined(separator: "\n")
    }

    /// How much other processes competed with a line.
    static func others(_ cores: Double, of total: Int) -> String {
        let line = "  machine: other processes used \(format(cores, 2)) of the \(total) cores on average while this ran"
        guard cores >= 0.1 else { return line }
        return line + "\nwarning: other processes competed for the cores: wall-time figures (efficiency, frames/s, throughput) are low; CPU and memory figures hold"
    }

    static func slideshowMemory(_ m: SlideshowMemoryResult) -> String {
        var lines = ["", "slideshow memory: peak RSS (VmHWM) of fresh processes, \(m.width)×\(m.height) @ \(m.fps) fps, x264 \(m.preset) "
                     + "CRF \(m.crf); photos of 24 MP (6000×4000, \(m.distinctPhotos) distinct files, \(mib(m.photoBytes)) MiB), "
                     + "\(format(m.secondsPerPhoto, 2)) s each, crossfade \(format(m.crossfadeSeconds, 2)) s, Ken Burns, fill"]
        var runs: [SlideshowMemoryResult.Run] = []
        if let e = m.encoderAlone { runs.append(e) }
        runs += m.shows
        for r in runs {
            lines.append("  \(pad(r.label, 52, left: false)) \(pad(String(r.frames), 5, left: true)) frames: peak RSS "
                         + "\(pad(format(r.peakRSSMiB, 1), 7, left: true)) MiB, wall \(format(r.wallSeconds, 1)) s, CPU \(format(r.cpuSeconds, 1)) s")
        }
        func signed(_ x: Double) -> String { (x >= 0 ? "+" : "") + format(x, 1) }
        for (show, excess) in zip(m.shows, m.excessMiB) {
            lines.append("  \(show.photos) photos − encoder alone: \(signed(excess)) MiB")
        }
        lines.append("  \(m.shows.last?.photos ?? 0) − \(m.shows.first?.photos ?? 0) photos: \(signed(m.growthMiB)) MiB")
        lines.append("  whole render exceeds the encoder alone by < \(format(SlideshowMemoryResult.limitMiB, 0)) MiB: "
                     + (m.excessPasses ? "PASS" : "FAIL"))
        lines.append("  same for \(m.shows.first?.photos ?? 0) and \(m.shows.last?.photos ?? 0) photos (within "
                     + "\(format(SlideshowMemoryResult.sameToleranceMiB, 0)) MiB): " + (m.flatPasses ? "PASS" : "FAIL"))
        lines.append("  notes: the encoder-alone process encodes the \(m.shows.first?.photos ?? 0)-photo show's frames, drawn and converted by this"
                     + " process and sent through a pipe; the large show lists the same files repeatedly, each entry decoded afresh"
                     + " (the photo provider keeps 2, counting the one read ahead).")
        return lines.joined(separator: "\n")
    }

    private static let videoColumns: [(title: String, width: Int)] = [
        ("phase", 38), ("wall s", 9), ("CPU s", 9), ("CPU clock", 10), ("frames/s", 10), ("peak RSS MiB", 13), ("others", 7),
    ]

    private static func videoRows(_ phases: [VideoPhase]) -> [String] {
        func row(_ cells: [String]) -> String {
            "  " + zip(cells, videoColumns).enumerated().map { i, pair in pad(pair.0, pair.1.width, left: i > 0) }.joined(separator: " ")
        }
        return [row(videoColumns.map(\.title))] + phases.map { m in
            row([m.label, format(m.wallSeconds, 2), format(m.cpuSeconds, 2), m.cpuClock, format(m.framesPerSecond, 1),
                 format(m.peakRSSMiB, 1), format(m.otherProcessesCores, 2)])
        }
    }

    static func video(_ r: VideoResult) -> String {
        let w = r.workload
        func verdict(_ ok: Bool) -> String { ok ? "PASS" : "FAIL" }
        let limit = r.memoryLimitMiB, peak = r.render.peakRSSMiB ?? .nan, alone = r.encoderAlonePeak.peakRSSMiB ?? .nan
        var lines = ["", "video: \(w.clips) clips of \(w.secondsPerClip) s (\(w.sourceDescription); \(mib(w.sourceBytes)) MiB) stitched with "
                     + "\(format(w.crossfadeSeconds, 1)) s crossfades and their sound, \(w.width)×\(w.height) @ \(w.fps) fps, "
                     + "\(w.frames) frames; x264 \(w.preset) CRF \(w.crf)"]
        lines += videoRows([r.decodeDraw, r.convert, r.encode, r.encoderAlonePeak, r.render, r.renderProcess, r.ffmpeg]
                           + [r.hardCuts, r.ffmpegConcat, r.moviePy].compactMap { $0 })
        func target(_ value: Double?, _ goal: Double) -> String {
            guard let value else { return "not measured" }
            return value >= goal ? "met" : "MISSED by \(format(100 * (goal - value) / goal, 0)) %"
        }
        lines += [
            "  throughput   fps d ÷ fps c (whole render vs x264 alone)       = \(format(r.throughputVsEncoder, 3))   "
                + "target ≥ \(format(VideoResult.throughputTarget, 2)): \(verdict(r.throughputPasses))",
            "  vs ffmpeg    wall e ÷ wall d (process to process)             = \(format(r.speedVsFFmpeg, 3))   "
                + "target > 1 (MovieMaker faster): \(verdict(r.fasterThanFFmpeg)); CPU d ÷ CPU e = \(format(r.renderProcess.cpuSeconds / r.ffmpeg.cpuSeconds, 3))",
            "  issue 36     wall e ÷ wall d = \(format(r.speedVsFFmpeg, 3)) (target ≥ \(format(VideoResult.ffmpegTarget, 2)): \(target(r.speedVsFFmpeg, VideoResult.ffmpegTarget))); "
                + "fps d ÷ fps c = \(format(r.throughputVsEncoder, 3)) (target ≥ 0.92: \(target(r.throughputVsEncoder, 0.92))); "
                + "wall h ÷ wall d (MoviePy) = \(r.speedVsMoviePy.map { format($0, 2) } ?? "–") (target ≥ 4: \(target(r.speedVsMoviePy, VideoResult.moviePyTarget))); "
                + "hard cuts wall g ÷ wall f (ffmpeg concat) = \(r.hardCutsVsConcat.map { format($0, 3) } ?? "–") "
                + "(target ≥ \(format(VideoResult.concatTarget, 2)): \(target(r.hardCutsVsConcat, VideoResult.concatTarget))); "
                + "peak d − x264 alone = \(format(peak - alone, 1)) MiB (target ≤ 64: "
                + "\((peak - alone).isNaN ? "not measured" : peak - alone <= 64 ? "met" : "MISSED by \(format(peak - alone - 64, 1)) MiB"))"
                + (r.moviePyNote.map { "; \($0)" } ?? ""),
            "  efficiency   (CPU a + CPU b + CPU c) ÷ (\(r.cores) × wall d)         = \(format(r.efficiency, 3)), "
                + "overhead (CPU d − CPU(a+b+c)) ÷ CPU d = \(format(r.overheadPercent, 1)) %",
            "  memory       peak d \(format(peak, 1)) MiB ≤ x264 alone \(format(alone, 1)) + \(format(VideoResult.baseAllowanceMiB, 0)) + "
                + "\(format(VideoResult.perDecoderMiB, 0)) × \(r.decoderLimit) decoders = \(format(limit, 1)) MiB "
                + "(at most \(r.peakOpenDecoders.map(String.init) ?? "?") open at once) "
                + "(d − x264 alone = \((peak - alone) >= 0 ? "+" : "")\(format(peak - alone, 1)) MiB): \(verdict(r.memoryPasses)); "
                + "ffmpeg peaks at \(format(r.ffmpeg.peakRSSMiB, 1)) MiB",
            "  files        (c) \(mib(r.encoderOnlyFileBytes)) MiB, (d) \(mib(r.renderFileBytes)) MiB (\(format(r.renderDuration, 2)) s), "
                + "(e) \(mib(r.ffmpegFileBytes)) MiB (\(format(r.ffmpegDuration, 2)) s)"
                + (r.generationSeconds > 0 ? "; clips generated first in \(format(r.generationSeconds, 1)) s (not timed)" : ""),
            "  notes: (a) is a fresh process drawing every frame at full size on the render scheduler's threads without an encoder",
            "         (a 16×16 Clip.renderFrames whose closure draws the stitched clip into a 1080p canvas). (b) and (c) are one",
            "         pass over chunks of \(w.chunkFrames) frames: decoded, drawn and converted (b: thread CPU of each conversion), then",
            "         encoded here (c); each chunk then goes through a pipe to a fresh x264-alone process for its peak RSS (its",
            "         wall and frames/s include waiting for the next chunk: only its peak and CPU count). (d) is",
            "         timed inside its fresh process (add + finish, peak VmHWM) and from spawn to exit; (e) from spawn to exit,",
            "         started and reaped (wait4: CPU, ru_maxrss) by a small helper process so that its peak is its own. Sound:",
            "         (d) and (e) encode AAC, (c) does not. \"others\": cores' worth of CPU other processes took during that phase.",
        ]
        return lines.joined(separator: "\n")
    }

    static func reverse(_ r: ReverseResult) -> String {
        var lines = ["", "reverse: \(r.clip) (\(r.seconds) s, 1080p30 H.264, keyint \(r.keyframeInterval)), decoded + drawn at 1920×1080 "
                     + "without encoding, fresh processes"]
        lines += videoRows([r.forward, r.reversed])
        lines += [
            "  speed        fps reversed ÷ fps forwards = \(format(r.speedRatio, 3)) (CPU × \(format(r.cpuRatio, 2)))",
            "  memory       peak reversed − peak forwards = \((r.extraPeakMiB >= 0 ? "+" : ""))\(format(r.extraPeakMiB, 1)) MiB",
        ]
        return lines.joined(separator: "\n")
    }

    private static func row(_ cells: [String]) -> String {
        "  " + zip(cells, columns).enumerated().map { i, pair in pad(pair.0, pair.1.width, left: i > 0) }.joined(separator: " ")
    }
    private static func pad(_ s: String, _ width: Int, left: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
    private static func format(_ x: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", x) }
    private static func format(_ x: Double?, _ decimals: Int) -> String { x.map { format($0, decimals) } ?? "n/a" }
    private static func mib(_ bytes: Int) -> String { format(Double(bytes) / 1_048_576, 2) }
}

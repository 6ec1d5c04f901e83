// moviemaker-bench: times MovieMaker's pipeline phase by phase on a standard workload.
//
//   (a) Cairo drawing alone          (b) BGRA → yuv420p alone
//   (c) x264 + MP4 muxer alone       (d) the whole pipeline (MovieMaker.addFrames + finish)
//
// for each x264 preset asked for, then derives how busy the pipeline keeps the machine (efficiency),
// what it costs beyond its parts (overhead), and how close it comes to the encoder alone. A line
// checks that memory does not grow with the movie's length. Then the same figures for a photo
// slideshow (SlideshowBench.swift), and the slideshow's peak memory against the encoder alone's,
// for few and many 24 MP photos (SlideshowMemory.swift), the audio line (AudioBench.swift), ten video
// clips stitched with crossfades against x264 alone and the ffmpeg command line, and a clip played
// backwards (VideoBench.swift), and the filters line: every filter's cost on a 1080p frame and what
// a LUT + vignette + grain add to a render (FilterBench.swift), and the chunk line: a 1080p30 movie
// rendered by the moviemaker tool in one pass against 2, 4 and 8 chunks + assembly (ChunkBench.swift).
// See `--help`.
import Foundation
import Glibc
import MovieMaker
import MovieMaker

/// Writes a line to standard error (progress) without buffering.
func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Writes a line to standard output without buffering, so a piped table appears as each preset finishes.
func output(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func runBenchmark(_ options: Options) throws {
    // BenchmarkEncoder does not silence FFmpeg/x264 the way MovieMaker does: keep the table clean.
    LibraryLog.silence()

    var workload = Workload()
    workload.frames = options.frames
    let machine = BenchmarkReport.Machine.current
    var report = BenchmarkReport(machine: machine, workload: workload)
    output(TableFormatter.header(machine, workload, presets: options.presets.map(\.rawValue)))
    // Other processes competing for the cores stretch every wall time (efficiency, frames/s,
    // throughput): each line says how much CPU they took while it ran.
    var usage = MachineUsage.now()
    func reportOthers(_ line: String) {
        let now = MachineUsage.now()
        let cores = now.othersCores(since: usage)
        report.otherProcessesCores[line] = cores
        output(TableFormatter.others(cores, of: machine.cores))
        usage = now
    }

    for preset in options.skipPresets ? [] : options.presets {
        standardError("… preset \(preset.rawValue): phases (a)–(d)")
        let result = try PresetBenchmark(workload: workload, preset: preset, cores: machine.cores).run()
        report.presets.append(result)
        output(TableFormatter.preset(result))
    }
    if !report.presets.isEmpty { output(TableFormatter.notes); reportOthers("presets") }
    if report.presets.contains(where: { $0.phases.contains { !$0.peakWasReset } }) { output(TableFormatter.resetWarning) }

    if !options.skipMemory {
        let counts = [options.memoryFrames.0, options.memoryFrames.1]
        standardError("… memory flatness: \(counts.map(String.init).joined(separator: " and ")) frames")
        let memory = try MemoryFlatness.run(frameCounts: counts)
        report.memory = memory
        output(TableFormatter.memory(memory))
        reportOthers("memory")
        if memory.runs.contains(where: { !$0.peakWasReset }) { output(TableFormatter.resetWarning) }
    }

    let folder = BenchPhotoFolder(url: options.photoFolder.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? BenchPhotoFolder.defaultURL)
    if !options.skipSlideshow {
        var workload = SlideshowWorkload()
        workload.photos = options.slideshowPhotos
        workload.secondsPerPhoto = options.slideshowSeconds
        workload.preset = options.slideshowPreset.rawValue
        let result = try SlideshowBenchmark(workload: workload, folder: folder, cores: machine.cores).run()
        report.slideshow = result
        output(TableFormatter.slideshow(result))
        reportOthers("slideshow")
        if result.phases.contains(where: { !$0.peakWasReset }) { output(TableFormatter.resetWarning) }
    }

    if !options.skipSlideshowMemory {
        let result = try SlideshowMemoryResult.run(photoCounts: options.slideshowMemoryPhotos, secondsPerPhoto: options.slideshowMemorySeconds,
                                                   preset: options.slideshowMemoryPreset, folder: folder)
        report.slideshowMemory = result
        output(TableFormatter.slideshowMemory(result))
        reportOthers("slideshowMemory")
    }

    if !options.skipAudio {
        standardError("… audio: a \(options.audioSeconds)-s slideshow without and with a normalised music bed")
        var audio = AudioBenchmark()
        audio.seconds = options.audioSeconds
        (audio.width, audio.height) = options.audioSize
        audio.preset = options.audioPreset
        let result = try audio.run()
        report.audio = result
        output(AudioBenchmark.line(result))
        reportOthers("audio")
    }

    let videoFolder = BenchVideoFolder(url: options.videoFolder.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? BenchVideoFolder.defaultURL)
    if !options.skipVideo {
        var workload = VideoWorkload()
        workload.clips = options.videoClips
        workload.secondsPerClip = options.videoSeconds
        workload.preset = options.videoPreset.rawValue
        let result = try VideoBenchmark(workload: workload, folder: videoFolder, cores: machine.cores).run()
        report.video = result
        output(TableFormatter.video(result))
        reportOthers("video")
    }

    if !options.skipReverse {
        let result = try ReverseResult.run(folder: videoFolder, seconds: options.videoSeconds)
        report.reverse = result
        output(TableFormatter.reverse(result))
        reportOthers("reverse")
    }

    /// One optional line: says what runs, runs it, keeps its result in the report, prints its line and
    /// what other processes took meanwhile.
    func line<R>(_ skip: Bool, _ name: String, _ what: String, run: () throws -> R, keep: (R) -> Void,
                 print: (R) -> String) throws {
        guard !skip else { return }
        standardError("… \(name): \(what)")
        let result = try run()
        keep(result)
        output(print(result))
        reportOthers(name)
    }
    try line(options.skipFilters, "filters", "each filter on a 1920x1080 frame, then \(options.filterSeconds)-s renders without and with a LUT + vignette + grain",
             run: {
                 var bench = FilterBenchmark()
                 bench.runs = options.filterRuns
                 bench.seconds = options.filterSeconds
                 return try bench.run()
             }, keep: { report.filters = $0 }, print: FilterBenchmark.line)
    try line(options.skipCaptions, "captions", "word-by-word captions drawn at 1920x1080, against an empty clip",
             run: { try CaptionBenchmark().run() }, keep: { report.captions = $0 }, print: CaptionBenchmark.line)
    try line(options.skipAudiogram, "audiogram", "a 64-bar spectrum drawn at 1920x1080, against an empty clip",
             run: { try AudiogramBenchmark().run() }, keep: { report.audiogram = $0 }, print: AudiogramBenchmark.line)
    try line(options.skipReframe, "reframe", "a 1080p clip's reframing analysis, then the same clip stitched to 9:16 with the analysis cached",
             run: { try ReframeBenchmark(folder: videoFolder).run() }, keep: { report.reframe = $0 }, print: ReframeBenchmark.line)
    try line(options.skipTranscription, "transcription", "a 314-word text spoken by eSpeak NG, aligned and recognised (PocketSphinx)",
             run: { try TranscriptionBenchmark().run() }, keep: { report.transcription = $0 }, print: TranscriptionBenchmark.line)
    try line(options.skipChunks, "chunks", "a \(options.chunkSeconds)-s 1080p30 medium description in one pass, then as 2, 4 and 8 chunks two at a time",
             run: {
                 var bench = ChunkBenchmark()
                 bench.seconds = options.chunkSeconds
                 return try bench.run()
             }, keep: { report.chunks = $0 }, print: ChunkBenchmark.line)
    try line(options.skipEncoders, "encoders", "h264, hevc, av1, vp9 at 1080p, MovieMaker's encoder against the ffmpeg command line",
             run: {
                 var bench = EncoderBenchmark()
                 bench.frames = options.encoderFrames
                 bench.rounds = options.encoderRounds
                 bench.codecs = options.encoderCodecs
                 return try bench.run()
             }, keep: { report.encoders = $0 }, print: EncoderBenchmark.line)
    try line(options.skipBatch, "batch", "a 3-slot template's \(options.batchRows) rows by one render --batch process, then by separate render --slot processes",
             run: {
                 var bench = BatchBenchmark()
                 bench.rows = options.batchRows
                 return try bench.run()
             }, keep: { report.batch = $0 }, print: BatchBenchmark.line)
    try line(options.skipIncremental, "incremental", "a 3-minute description in full, then with --cache before and after one title's edit",
             run: { try IncrementalBenchmark().run() }, keep: { report.incremental = $0 }, print: IncrementalBenchmark.line)

    switch options.json {
    case nil:
        break
    case .standardOutput:
        output("")
        output(String(decoding: try report.json(), as: UTF8.self))
    case .file(let path):
        try report.json().write(to: URL(fileURLWithPath: path))
        output("\nJSON written to \(path)")
    }
}

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == MemoryChild.flag, arguments.count == 2 {
        try MemoryChild.main(arguments[1])
        exit(0)
    }
    if arguments.first == VideoChild.flag, arguments.count == 2 {
        try VideoChild.main(arguments[1])
        exit(0)
    }
    if arguments.first == PeerWorkload.flag {
        try PeerWorkload.main(Array(arguments.dropFirst()))
        exit(0)
    }
    let options = try Options(arguments: arguments)
    if let cores = options.cores {
        // Before any thread is made: lanes, x264's threads, swscale and every child process (the
        // memory and video children, the ffmpeg command line) inherit the mask.
        guard let kept = UsableCores.limit(to: cores) else { throw OptionError("--cores \(cores): could not set the CPU affinity") }
        guard kept.count == cores else {
            throw OptionError("--cores \(cores): this process may use only \(kept.count) CPU\(kept.count == 1 ? "" : "s") (\(kept.map(String.init).joined(separator: ",")))")
        }
        standardError("moviemaker-bench: limited to CPU \(kept.map(String.init).joined(separator: ",")) (--cores \(cores))")
    }
    try runBenchmark(options)
} catch let error as OptionError {
    if error.isHelp { output(error.message); exit(0) }
    standardError("moviemaker-bench: \(error.message)")
    exit(2)
} catch {
    standardError("moviemaker-bench: \(error)")
    exit(1)
}

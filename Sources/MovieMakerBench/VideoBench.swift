import Foundation
import Glibc
import MovieMaker
import MovieMaker

// The video line: ten recorded clips (1080p30 H.264 with sound, BenchVideos.swift) stitched with
// 0.5 s crossfades into a 1080p30 `medium` CRF 20 movie, timed phase by phase as the other lines are,
// and against the ffmpeg command line doing the same job in the same run:
//
//   (a) decoding + drawing alone     fresh process: every frame decoded and drawn at 1080p on the
//                                    render scheduler's threads, nothing encoded (FrameDrawer)
//   (b) BGRA → yuv420p alone         thread CPU of each conversion, made while preparing (c)'s frames
//   (c) x264 + mux alone             this process, the movie's frames pre-made in chunks of 300
//   (d) the whole render             fresh process: MovieMaker.add(stitched clip) + finish, with sound
//   (e) ffmpeg                       xfade + acrossfade over the ten files, libx264 medium CRF 20, AAC
//
// Peak memory: (a), (d) and (e) are fresh processes; x264 alone's peak is another fresh process fed
// (c)'s frames through a pipe after (c) has timed them. The reverse line plays one long-GOP clip
// backwards and forwards (decoding + drawing, fresh processes).

/// What the video line renders.
struct VideoWorkload: Encodable, Sendable {
    var width = 1920
    var height = 1080
    var fps = 30
    var clips = 10
    var secondsPerClip = 10
    var crossfadeSeconds = 0.5
    var crf = 20
    var preset = EncoderPreset.medium.rawValue
    /// Frames pre-made and converted before they are encoded in (c).
    var chunkFrames = 300
    /// The movie's frame count (set from the clip).
    var frames = 0
    /// The source clips: how they were encoded, and their total size.
    var sourceDescription = "1920×1080 @ 30 fps H.264 High, x264 \(BenchVideoFolder.preset.rawValue) at \(BenchVideoFolder.bitrate / 1_000_000) Mbit/s, keyint \(BenchVideoFolder.keyframeInterval), AAC 48 kHz stereo"
    var sourceBytes = 0

    var frameRate: FrameRate { FrameRate(fps) }
    var settings: EncoderSettings { EncoderSettings(crf: crf, preset: EncoderPreset(rawValue: preset) ?? .medium) }
}

/// One phase of a video line.
struct VideoPhase: Encodable, Sendable {
    let phase: String
    let label: String
    let frames: Int
    let wallSeconds: Double
    let cpuSeconds: Double
    /// "process" (all threads of the process doing the work), "thread" (summed over the calls), "child" (wait4).
    let cpuClock: String
    var framesPerSecond: Double { wallSeconds > 0 ? Double(frames) / wallSeconds : 0 }
    /// Peak resident memory of the fresh process that did the work, in MiB (nil: not measured).
    let peakRSSMiB: Double?
    /// Cores' worth of CPU other processes used on average while this phase ran.
    let otherProcessesCores: Double

    enum CodingKeys: String, CodingKey {
        case phase, label, frames, wallSeconds, cpuSeconds, cpuClock, framesPerSecond, peakRSSMiB, otherProcessesCores
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(phase, forKey: .phase); try c.encode(label, forKey: .label); try c.encode(frames, forKey: .frames)
        try c.encode(wallSeconds, forKey: .wallSeconds); try c.encode(cpuSeconds, forKey: .cpuSeconds)
        try c.encode(cpuClock, forKey: .cpuClock); try c.encode(framesPerSecond, forKey: .framesPerSecond)
        try c.encodeIfPresent(peakRSSMiB, forKey: .peakRSSMiB); try c.encode(otherProcessesCores, forKey: .otherProcessesCores)
    }
}

/// The video line's phases and the figures derived from them.
struct VideoResult: Encodable, Sendable {
    let workload: VideoWorkload
    /// (a) decoding + drawing alone (fresh process, peak RSS its own).
    let decodeDraw: VideoPhase
    /// (b) BGRA → yuv420p alone (thread CPU summed over the calls).
    let convert: VideoPhase
    /// (c) x264 + mux alone on pre-made frames (this process); its peak is `encoderAlonePeak`'s.
    let encode: VideoPhase
    /// x264 + mux alone in a fresh process fed the same frames through a pipe: its peak RSS.
    let encoderAlonePeak: VideoPhase
    /// (d) the whole render, MovieMaker.add + finish, timed inside the fresh process.
    let render: VideoPhase
    /// (d) as the parent saw it: from spawn to exit, CPU from wait4 (what (e) is compared with).
    let renderProcess: VideoPhase
    /// (e) the ffmpeg command line, from spawn to exit, CPU and peak from wait4.
    let ffmpeg: VideoPhase
    let ffmpegCommand: [String]
    let cores: Int
    /// The video decoders a render may keep open (`EncoderSettings.videoDecoderLimit`).
    let decoderLimit: Int
    let encoderOnlyFileBytes: Int
    let renderFileBytes: Int
    let ffmpegFileBytes: Int
    /// The two movies' lengths as probed, in seconds (the same job: they should agree).
    let renderDuration: Double
    let ffmpegDuration: Double
    /// Seconds spent generating the clips before the phases (0 when cached; never part of a figure).
    let generationSeconds: Double
    /// The most video decoders (d) had open at once (the movie's `statistics.peakOpenVideoDecoders`).
    var peakOpenDecoders: Int? = nil
    /// (f) the same clips joined with hard cuts by MovieMaker, whole process, and (g) by ffmpeg's
    /// `concat` filter (nil when skipped).
    var hardCuts: VideoPhase? = nil
    var ffmpegConcat: VideoPhase? = nil
    /// (h) MoviePy 2.2.1 doing (e)'s job (bench/peers/moviepy_video.py), nil when its venv is missing.
    var moviePy: VideoPhase? = nil
    /// Why (h) did not run, when it did not.
    var moviePyNote: String? = nil

    static let ffmpegTarget = 1.15, moviePyTarget = 4.0, concatTarget = 1.05
    /// wall g ÷ wall f.
    var hardCutsVsConcat: Double? { hardCuts.flatMap { f in ffmpegConcat.map { $0.wallSeconds / f.wallSeconds } } }
    /// wall h ÷ wall d.
    var speedVsMoviePy: Double? { moviePy.map { $0.wallSeconds / renderProcess.wallSeconds } }

    static let throughputTarget = 0.95
    /// The memory budget over x264 alone: 64 MiB plus 48 MiB per open 1080p decoder.
    static let baseAllowanceMiB = 64.0
    static let perDecoderMiB = 48.0

    /// fps d ÷ fps c.
    var throughputVsEncoder: Double { render.framesPerSecond / encode.framesPerSecond }
    /// wall e ÷ wall d (process to process): above 1 when MovieMaker is faster.
    var speedVsFFmpeg: Double { ffmpeg.wallSeconds / renderProcess.wallSeconds }
    /// CPU(a + b + c) ÷ (cores × wall d).
    var efficiency: Double { (decodeDraw.cpuSeconds + convert.cpuSeconds + encode.cpuSeconds) / (Double(cores) * render.wallSeconds) }
    /// (CPU d − CPU(a + b + c)) ÷ CPU d, in percent.
    var overheadPercent: Double { 100 * (render.cpuSeconds - (decodeDraw.cpuSeconds + convert.cpuSeconds + encode.cpuSeconds)) / render.cpuSeconds }
    var memoryLimitMiB: Double { (encoderAlonePeak.peakRSSMiB ?? .nan) + Self.baseAllowanceMiB + Self.perDecoderMiB * Double(decoderLimit) }
    var throughputPasses: Bool { throughputVsEncoder >= Self.throughputTarget }
    var fasterThanFFmpeg: Bool { speedVsFFmpeg > 1 }
    var memoryPasses: Bool { (render.peakRSSMiB ?? .infinity) <= memoryLimitMiB }

    enum CodingKeys: String, CodingKey {
        case workload, decodeDraw, convert, encode, encoderAlonePeak, render, renderProcess, ffmpeg, ffmpegCommand, cores
        case decoderLimit, encoderOnlyFileBytes, renderFileBytes, ffmpegFileBytes, renderDuration, ffmpegDuration, peakOpenDecoders
        case generationSeconds, throughputVsEncoder, speedVsFFmpeg, efficiency, overheadPercent, memoryLimitMiB
        case throughputPasses, fasterThanFFmpeg, memoryPasses
        case hardCuts, ffmpegConcat, moviePy, moviePyNote, hardCutsVsConcat, speedVsMoviePy
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(workload, forKey: .workload); try c.encode(decodeDraw, forKey: .decodeDraw); try c.encode(convert, forKey: .convert)
        try c.encode(self.encode, forKey: .encode); try c.encode(encoderAlonePeak, forKey: .encoderAlonePeak)
        try c.encode(render, forKey: .render); try c.encode(renderProcess, forKey: .renderProcess); try c.encode(ffmpeg, forKey: .ffmpeg)
        try c.encode(ffmpegCommand, forKey: .ffmpegCommand); try c.encode(cores, forKey: .cores); try c.encode(decoderLimit, forKey: .decoderLimit)
        try c.encode(encoderOnlyFileBytes, forKey: .encoderOnlyFileBytes); try c.encode(renderFileBytes, forKey: .renderFileBytes)
        try c.encode(ffmpegFileBytes, forKey: .ffmpegFileBytes); try c.encode(renderDuration, forKey: .renderDuration)
        try c.encodeIfPresent(peakOpenDecoders, forKey: .peakOpenDecoders)
        try c.encode(ffmpegDuration, forKey: .ffmpegDuration); try c.encode(generationSeconds, forKey: .generationSeconds)
        try c.encode(throughputVsEncoder, forKey: .throughputVsEncoder); try c.encode(speedVsFFmpeg, forKey: .speedVsFFmpeg)
        try c.encode(efficiency, forKey: .efficiency); try c.encode(overheadPercent, forKey: .overheadPercent)
        try c.encode(memoryLimitMiB, forKey: .memoryLimitMiB); try c.encode(throughputPasses, forKey: .throughputPasses)
        try c.encode(fasterThanFFmpeg, forKey: .fasterThanFFmpeg); try c.encode(memoryPasses, forKey: .memoryPasses)
        try c.encodeIfPresent(hardCuts, forKey: .hardCuts); try c.encodeIfPresent(ffmpegConcat, forKey: .ffmpegConcat)
        try c.encodeIfPresent(moviePy, forKey: .moviePy); try c.encodeIfPresent(moviePyNote, forKey: .moviePyNote)
        try c.encodeIfPresent(hardCutsVsConcat, forKey: .hardCutsVsConcat); try c.encodeIfPresent(speedVsMoviePy, forKey: .speedVsMoviePy)
    }
}

/// Times a block and the CPU other processes took meanwhile.
private func withOthers<R>(_ body: () throws -> R) rethrows -> (R, Double) {
    let usage = MachineUsage.now()
    let r = try body()
    return (r, MachineUsage.now().othersCores(since: usage))
}

/// Runs the video line.
struct VideoBenchmark {
    var workload: VideoWorkload
    let folder: BenchVideoFolder
    let cores: Int

    func run() throws -> VideoResult {
        var w = workload
        let (urls, generation) = try folder.ensure(count: w.clips, seconds: w.secondsPerClip)
        w.sourceBytes = urls.reduce(0) { (sum: Int, url: URL) -> Int in
            let size: Int? = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
            return sum + (size ?? 0)
        }
        let base = VideoChildTask(mode: .decodeDraw, clips: urls.map(\.path), crossfadeSeconds: w.crossfadeSeconds, width: w.width,
                                  height: w.height, fps: w.fps, crf: w.crf, preset: w.preset)
        let clip = try base.clip()
        w.frames = w.frameRate.frameCount(for: clip.duration)
        w.chunkFrames = min(w.chunkFrames, w.frames)

        standardError("… video: (a) decoding + drawing alone, \(w.frames) frames (fresh process)")
        let ((drawResult, _), drawOthers) = try withOthers { try VideoChild.run(base) }
        let decodeDraw = VideoPhase(phase: "video-decode-draw", label: "(a) decode + draw (no encoder)", frames: drawResult.frames,
                                    wallSeconds: drawResult.wallSeconds, cpuSeconds: drawResult.cpuSeconds, cpuClock: "process",
                                    peakRSSMiB: drawResult.peakRSSMiB, otherProcessesCores: drawOthers)

        standardError("… video: (b), (c) x264 alone on pre-made frames, chunks of \(w.chunkFrames); then its peak in a fresh process")
        let encodeFile = TemporaryFile(tag: "video-encode"), aloneFile = TemporaryFile(tag: "video-encoder-alone")
        defer { encodeFile.remove(); aloneFile.remove() }
        let (convert, encode, alonePeak) = try measureEncoder(clip, workload: w, url: encodeFile.url, aloneURL: aloneFile.url)

        standardError("… video: (d) whole render, MovieMaker.add + finish (fresh process)")
        let renderFile = TemporaryFile(tag: "video-render")
        defer { renderFile.remove() }
        var renderTask = base
        renderTask.mode = .render
        renderTask.output = renderFile.url.path
        let ((renderResult, renderExit), renderOthers) = try withOthers { try VideoChild.run(renderTask) }
        let render = VideoPhase(phase: "video-render", label: "(d) whole render, add + finish", frames: renderResult.frames,
                                wallSeconds: renderResult.wallSeconds, cpuSeconds: renderResult.cpuSeconds, cpuClock: "process",
                                peakRSSMiB: renderResult.peakRSSMiB, otherProcessesCores: renderOthers)
        let renderProcess = VideoPhase(phase: "video-render-process", label: "(d) the same, whole process", frames: renderResult.frames,
                                       wallSeconds: renderExit.wallSeconds, cpuSeconds: renderExit.cpuSeconds, cpuClock: "child",
                                       peakRSSMiB: renderResult.peakRSSMiB, otherProcessesCores: renderOthers)

        standardError("… video: (e) ffmpeg xfade + acrossfade, libx264 \(w.preset) CRF \(w.crf)")
        let ffmpegFile = TemporaryFile(tag: "video-ffmpeg")
        defer { ffmpegFile.remove() }
        let command = try Self.ffmpegCommand(urls, workload: w, output: ffmpegFile.url)
        let measureTask = VideoChildTask(mode: .measureCommand, command: command)
        let ((ffmpegRun, _), ffmpegOthers) = try withOthers { try VideoChild.run(measureTask) }
        let ffmpegProbe = try VideoFile(url: ffmpegFile.url)
        let ffmpegFrames = ffmpegProbe.frameCount ?? w.frameRate.frameCount(for: ffmpegProbe.duration)
        let ffmpeg = VideoPhase(phase: "video-ffmpeg", label: "(e) ffmpeg CLI, whole process", frames: ffmpegFrames,
                                wallSeconds: ffmpegRun.wallSeconds, cpuSeconds: ffmpegRun.cpuSeconds, cpuClock: "child",
                                peakRSSMiB: ffmpegRun.peakRSSMiB, otherProcessesCores: ffmpegOthers)
        let renderProbe = try VideoFile(url: renderFile.url)

        var result = VideoResult(workload: w, decodeDraw: decodeDraw, convert: convert, encode: encode, encoderAlonePeak: alonePeak,
                           render: render, renderProcess: renderProcess, ffmpeg: ffmpeg, ffmpegCommand: command, cores: cores,
                           decoderLimit: EncoderSettings.defaultVideoDecoderLimit,
                           encoderOnlyFileBytes: encodeFile.size, renderFileBytes: renderFile.size, ffmpegFileBytes: ffmpegFile.size,
                           renderDuration: renderProbe.duration.seconds, ffmpegDuration: ffmpegProbe.duration.seconds,
                           generationSeconds: generation)
        result.peakOpenDecoders = renderResult.peakOpenDecoders

        standardError("… video: (f) the same clips with hard cuts (fresh process), (g) ffmpeg's concat filter")
        var cutTask = renderTask
        cutTask.crossfadeSeconds = 0
        let ((cutResult, cutExit), cutOthers) = try withOthers { try VideoChild.run(cutTask) }
        result.hardCuts = VideoPhase(phase: "video-hard-cuts", label: "(f) hard cuts, whole process", frames: cutResult.frames,
                                     wallSeconds: cutExit.wallSeconds, cpuSeconds: cutExit.cpuSeconds, cpuClock: "child",
                                     peakRSSMiB: cutResult.peakRSSMiB, otherProcessesCores: cutOthers)
        let concatCommand = try Self.ffmpegConcatCommand(urls, workload: w, output: ffmpegFile.url)
        let ((concatRun, _), concatOthers) = try withOthers { try VideoChild.run(VideoChildTask(mode: .measureCommand, command: concatCommand)) }
        let concatProbe = try VideoFile(url: ffmpegFile.url)
        result.ffmpegConcat = VideoPhase(phase: "video-ffmpeg-concat", label: "(g) ffmpeg concat filter", frames: concatProbe.frameCount ?? 0,
                                         wallSeconds: concatRun.wallSeconds, cpuSeconds: concatRun.cpuSeconds, cpuClock: "child",
                                         peakRSSMiB: concatRun.peakRSSMiB, otherProcessesCores: concatOthers)

        let python = URL(fileURLWithPath: ".build/peers-venv/bin/python"), script = URL(fileURLWithPath: "bench/peers/moviepy_video.py")
        if FileManager.default.isExecutableFile(atPath: python.path), FileManager.default.fileExists(atPath: script.path) {
            standardError("… video: (h) MoviePy 2.2.1, the same job as (e)")
            let moviePyFile = TemporaryFile(tag: "video-moviepy")
            defer { moviePyFile.remove() }
            let command = [python.path, script.path] + urls.map(\.path)
                + ["--out", moviePyFile.url.path, "--preset", w.preset, "--crf", "\(w.crf)", "--crossfade", "\(w.crossfadeSeconds)"]
            let ((run, _), others) = try withOthers { try VideoChild.run(VideoChildTask(mode: .measureCommand, command: command)) }
            let probe = try VideoFile(url: moviePyFile.url)
            result.moviePy = VideoPhase(phase: "video-moviepy", label: "(h) MoviePy 2.2.1, whole process", frames: probe.frameCount ?? 0,
                                        wallSeconds: run.wallSeconds, cpuSeconds: run.cpuSeconds, cpuClock: "child",
                                        peakRSSMiB: run.peakRSSMiB, otherProcessesCores: others)
        } else {
            result.moviePyNote = "MoviePy not run: \(python.path) is missing (make bench-peers installs it)"
        }
        return result
    }

    /// The ffmpeg command line joining the clips with hard cuts: the `concat` filter over pictures and
    /// sounds (re-encoded, as a join of phone clips into one movie must be), the same encoder settings as (e).
    static func ffmpegConcatCommand(_ urls: [URL], workload w: VideoWorkload, output: URL) throws -> [String] {
        var args = Array(try ffmpegCommand(urls, workload: w, output: output).prefix(6))
        for url in urls { args += ["-i", url.path] }
        let inputs = urls.indices.map { "[\($0):v][\($0):a]" }.joined()
        args += ["-filter_complex", "\(inputs)concat=n=\(urls.count):v=1:a=1[v][a]", "-map", "[v]", "-map", "[a]",
                 "-c:v", "libx264", "-preset", w.preset, "-crf", "\(w.crf)", "-profile:v", "high", "-pix_fmt", "yuv420p",
                 "-s", "\(w.width)x\(w.height)", "-r", "\(w.fps)",
                 "-c:a", "aac", "-b:a", "192k", "-ar", "48000", "-ac", "2", "-movflags", "+faststart", output.path]
        return args
    }

    /// (b) and (c) in one pass over chunks, and x264 alone's peak. Each chunk's frames are decoded,
    /// drawn and converted (untimed, except each conversion's thread CPU: (b)), then encoded here
    /// (process CPU: (c)), then sent raw through a pipe to a fresh encoder-alone process, which is
    /// left to go quiet before the next chunk's encoding is timed.
    private func measureEncoder(_ clip: Clip, workload w: VideoWorkload, url: URL, aloneURL: URL) throws -> (VideoPhase, VideoPhase, VideoPhase) {
        var aloneTask = VideoChildTask(mode: .encoderAlone, width: w.width, height: w.height, fps: w.fps, crf: w.crf, preset: w.preset)
        aloneTask.output = aloneURL.path
        aloneTask.frames = w.frames
        let alone = try VideoChild.start(aloneTask, feedsInput: true)
        var aloneStarted = false
        defer { if !aloneStarted { _ = try? alone.finish() } }

        let slots = DrawSlots(width: w.width, height: w.height, converting: true)
        let maker = try BenchmarkConverter(width: w.width, height: w.height)
        // One chunk of converted frames, allocated and pre-faulted before anything is timed.
        let frames = FrameChunk(try (0..<w.chunkFrames).map { _ in try maker.makeFrame() })
        let convertTime = ConvertTime()
        var encode = Stopwatch(clock: .process)
        var encodeOthers = 0.0
        var encoder: BenchmarkEncoder?
        let size = BenchmarkYUVFrame.packedSize(width: w.width, height: w.height)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer { buffer.deallocate() }
        let usage0 = MachineUsage.now()
        var next = 0
        while next < w.frames {
            let count = min(w.chunkFrames, w.frames - next)
            let start = next
            try FrameDrawer.draw(clip, frames: start..<(start + count), width: w.width, height: w.height, rate: w.frameRate, slots: slots) { index, slot in
                let cpu0 = CPUClock.thread.seconds(), wall0 = wallSeconds()
                try slot.converter!.convert(slot.canvas, into: frames.frames[index - start])
                convertTime.add(wall: wallSeconds() - wall0, cpu: CPUClock.thread.seconds() - cpu0)
            }
            waitUntilQuiet()
            alone.waitUntilQuiet()
            let usage = MachineUsage.now()
            try encode.time {
                if encoder == nil {
                    encoder = try BenchmarkEncoder(url: url, width: w.width, height: w.height, fps: w.frameRate, settings: w.settings)
                }
                for k in 0..<count { try encoder!.encode(frames.frames[k], index: start + k) }
                if start + count == w.frames { try encoder!.finish() } else { waitUntilQuiet() }
            }
            let after = MachineUsage.now()
            encodeOthers += after.othersCores(since: usage) * (after.wall - usage.wall)
            for k in 0..<count {
                frames.frames[k].pack(into: buffer)
                try alone.write(buffer, size)
            }
            next += count
        }
        aloneStarted = true
        let (aloneResult, aloneExit) = try alone.finishReporting(aloneTask)
        let others = MachineUsage.now().othersCores(since: usage0)
        let convert = VideoPhase(phase: "video-convert", label: "(b) BGRA→yuv420p", frames: w.frames,
                                 wallSeconds: convertTime.wall, cpuSeconds: convertTime.cpu, cpuClock: "thread",
                                 peakRSSMiB: nil, otherProcessesCores: others)
        let encodePhase = VideoPhase(phase: "video-encode", label: "(c) x264 + mux alone", frames: w.frames,
                                     wallSeconds: encode.wall, cpuSeconds: encode.cpu, cpuClock: "process", peakRSSMiB: nil,
                                     otherProcessesCores: encodeOthers / max(encode.wall, 1e-9))
        let alonePeak = VideoPhase(phase: "video-encoder-alone", label: "(c) peak: fresh x264 fed by a pipe", frames: aloneResult.frames,
                                   wallSeconds: aloneExit.wallSeconds, cpuSeconds: aloneExit.cpuSeconds, cpuClock: "child",
                                   peakRSSMiB: aloneResult.peakRSSMiB, otherProcessesCores: others)
        return (convert, encodePhase, alonePeak)
    }

    /// The ffmpeg command line doing the same job: the clips joined by xfade (fade, 0.5 s) and their
    /// sounds by acrossfade (0.5 s, equal power), libx264 at the same preset and CRF, High profile,
    /// yuv420p, AAC 192 kbit/s 48 kHz stereo, +faststart, as MovieMaker writes.
    static func ffmpegCommand(_ urls: [URL], workload w: VideoWorkload, output: URL) throws -> [String] {
        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("the video line compares with the ffmpeg command line, which is not installed (skip it with --skip-video)")
        }
        var args = [ffmpeg, "-nostdin", "-hide_banner", "-v", "error", "-y"]
        for url in urls { args += ["-i", url.path] }
        var graph: [String] = []
        var offset = 0.0
        var video = "[0:v]", audio = "[0:a]"
        for i in 1..<urls.count {
            offset += try VideoFile(url: urls[i - 1]).duration.seconds - w.crossfadeSeconds
            let last = i == urls.count - 1
            let v = last ? "[v]" : "[v\(i)]", a = last ? "[a]" : "[a\(i)]"
            graph.append("\(video)[\(i):v]xfade=transition=fade:duration=\(w.crossfadeSeconds):offset=\(String(format: "%.6f", offset))\(v)")
            graph.append("\(audio)[\(i):a]acrossfade=d=\(w.crossfadeSeconds):c1=qsin:c2=qsin\(a)")
            video = v; audio = a
        }
        args += ["-filter_complex", graph.joined(separator: ";"), "-map", "[v]", "-map", "[a]",
                 "-c:v", "libx264", "-preset", w.preset, "-crf", "\(w.crf)", "-profile:v", "high", "-pix_fmt", "yuv420p",
                 "-s", "\(w.width)x\(w.height)", "-r", "\(w.fps)",
                 "-c:a", "aac", "-b:a", "192k", "-ar", "48000", "-ac", "2", "-movflags", "+faststart", output.path]
        return args
    }
}

/// The converted frames of one chunk, written by the drawing threads (each its own index).
private final class FrameChunk: @unchecked Sendable {
    // @unchecked: each frame is written by one thread, then read after the render has finished.
    let frames: [BenchmarkYUVFrame]
    init(_ frames: [BenchmarkYUVFrame]) { self.frames = frames }
}

/// Conversion time summed over the drawing threads.
private final class ConvertTime: @unchecked Sendable {
    // @unchecked: only touched under `lock`.
    private let lock = NSLock()
    private var w = 0.0, c = 0.0
    func add(wall: Double, cpu: Double) { lock.withLock { w += wall; c += cpu } }
    var wall: Double { lock.withLock { w } }
    var cpu: Double { lock.withLock { c } }
}

// MARK: - Reverse line

/// The reverse line: one long-GOP clip decoded and drawn backwards, against forwards.
struct ReverseResult: Encodable, Sendable {
    let clip: String
    let seconds: Int
    let keyframeInterval: Int
    let forward: VideoPhase
    let reversed: VideoPhase
    /// fps reversed ÷ fps forwards.
    var speedRatio: Double { reversed.framesPerSecond / forward.framesPerSecond }
    /// CPU reversed ÷ CPU forwards.
    var cpuRatio: Double { reversed.cpuSeconds / forward.cpuSeconds }
    /// Peak reversed − peak forwards, in MiB.
    var extraPeakMiB: Double { (reversed.peakRSSMiB ?? .nan) - (forward.peakRSSMiB ?? .nan) }

    enum CodingKeys: String, CodingKey { case clip, seconds, keyframeInterval, forward, reversed, speedRatio, cpuRatio, extraPeakMiB }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(clip, forKey: .clip); try c.encode(seconds, forKey: .seconds); try c.encode(keyframeInterval, forKey: .keyframeInterval)
        try c.encode(forward, forKey: .forward); try c.encode(reversed, forKey: .reversed); try c.encode(speedRatio, forKey: .speedRatio)
        try c.encode(cpuRatio, forKey: .cpuRatio); try c.encode(extraPeakMiB, forKey: .extraPeakMiB)
    }

    /// Decodes and draws the first generated clip forwards, then reversed, each in a fresh process.
    static func run(folder: BenchVideoFolder, seconds: Int) throws -> ReverseResult {
        let (urls, _) = try folder.ensure(count: 1, seconds: seconds)
        var task = VideoChildTask(mode: .decodeDraw, clips: [urls[0].path])
        var phases: [VideoPhase] = []
        for reversed in [false, true] {
            task.reversed = reversed
            standardError("… reverse: \(urls[0].lastPathComponent) \(reversed ? "reversed" : "forwards"), decoding + drawing (fresh process)")
            let ((r, _), others) = try withOthers { try VideoChild.run(task) }
            phases.append(VideoPhase(phase: reversed ? "reverse-backwards" : "reverse-forwards",
                                     label: reversed ? "Clip.video(url).reversed()" : "Clip.video(url), forwards",
                                     frames: r.frames, wallSeconds: r.wallSeconds, cpuSeconds: r.cpuSeconds, cpuClock: "process",
                                     peakRSSMiB: r.peakRSSMiB, otherProcessesCores: others))
        }
        return ReverseResult(clip: urls[0].lastPathComponent, seconds: seconds, keyframeInterval: BenchVideoFolder.keyframeInterval,
                             forward: phases[0], reversed: phases[1])
    }
}

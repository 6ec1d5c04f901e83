import Foundation
import Glibc
import MovieMaker
import MovieMaker

// The video lines' fresh processes. Each phase whose peak memory is reported runs in a process of
// its own (this program re-executed with a hidden first argument, or the ffmpeg command line), started
// with posix_spawn and reaped with wait4, so its peak resident memory (VmHWM, and the kernel's
// ru_maxrss) and CPU time are its own, and no phase inherits another's heap.

/// What a video child process is asked to do (its arguments are `VideoChild.flag` and this as JSON).
struct VideoChildTask: Codable {
    enum Mode: String, Codable {
        /// Decode and draw the clip's frames at full size without encoding (see `FrameDrawer`).
        case decodeDraw
        /// The whole render: `MovieMaker.add(clip)` + `finish()`.
        case render
        /// x264 + MP4 muxer alone, fed raw yuv420p frames through standard input.
        case encoderAlone
        /// Runs `command` (the ffmpeg CLI) as this process's child and reports its wait4 figures.
        case measureCommand
    }
    var mode: Mode
    /// The clip files: several are stitched with crossfades, one is shown alone.
    var clips: [String] = []
    /// One clip played backwards (`Clip.video(url).reversed()`).
    var reversed = false
    var crossfadeSeconds = 0.5
    var width = 1920
    var height = 1080
    var fps = 30
    var crf = 20
    var preset = EncoderPreset.medium.rawValue
    /// Where the movie goes (`.render`, `.encoderAlone`; deleted by the parent).
    var output = ""
    /// `.encoderAlone`: how many frames come through standard input.
    var frames = 0
    /// `.measureCommand`: the program and its arguments.
    var command: [String] = []

    /// `.encoderAlone`: the video codec (`VideoCodec`'s raw value; nil: H.264).
    var codec: String? = nil
    /// `.encoderAlone`: a file of packed yuv420p frames to read instead of standard input.
    var inputFile: String? = nil

    var settings: EncoderSettings {
        var s = EncoderSettings(crf: crf, preset: EncoderPreset(rawValue: preset) ?? .medium)
        s.codec = codec.flatMap(VideoCodec.init(rawValue:))
        return s
    }
    var rate: FrameRate { FrameRate(fps) }

    /// The clip the task shows.
    func clip() throws -> Clip {
        let urls = clips.map { URL(fileURLWithPath: $0) }
        if urls.count == 1 {
            let video = try Clip.video(urls[0])
            return reversed ? video.reversed() : video
        }
        // No crossfade: hard cuts, the sounds joined by the stitch's default 20-ms crossfade.
        if crossfadeSeconds == 0 { return Clip.stitched(try urls.map { try Clip.video($0) }) }
        let crossfade = Time(seconds: crossfadeSeconds)
        return Clip.stitched(try urls.map { try Clip.video($0) }, transition: .crossfade(duration: crossfade), audioCrossfade: crossfade)
    }
}

/// What a child reports on its standard output (one JSON line).
struct VideoChildResult: Codable {
    var frames: Int
    /// VmHWM at the end: the process's peak resident memory over its whole life, in MiB.
    var peakRSSMiB: Double
    /// The most video decoders open at once during the work (the movie's `statistics.peakOpenVideoDecoders`).
    var peakOpenDecoders: Int? = nil
    /// Wall and process CPU seconds of the work alone (not the process's start).
    var wallSeconds: Double
    var cpuSeconds: Double
}

enum VideoChild {
    /// The hidden first argument that makes this program a video child.
    static let flag = "--internal-video-child"

    /// Runs the task given on the command line and prints its result; the process then exits.
    static func main(_ json: String) throws {
        LibraryLog.silence()
        let task = try JSONDecoder().decode(VideoChildTask.self, from: Data(json.utf8))
        var frames = 0
        var peakOpenDecoders = 0
        let wall0 = wallSeconds(), cpu0 = CPUClock.process.seconds()
        switch task.mode {
        case .decodeDraw:
            let clip = try task.clip()
            frames = task.rate.frameCount(for: clip.duration)
            let slots = DrawSlots(width: task.width, height: task.height, converting: false)
            try FrameDrawer.draw(clip, frames: 0..<frames, width: task.width, height: task.height, rate: task.rate, slots: slots) { _, _ in }
        case .render:
            let clip = try task.clip()
            frames = task.rate.frameCount(for: clip.duration)
            let movie = try MovieMaker(url: URL(fileURLWithPath: task.output), width: task.width, height: task.height,
                                       fps: task.rate, settings: task.settings)
            try movie.add(clip)
            peakOpenDecoders = try movie.finish().statistics.peakOpenVideoDecoders
        case .encoderAlone:
            let converter = try BenchmarkConverter(width: task.width, height: task.height)
            let frame = try converter.makeFrame()
            let encoder = try BenchmarkEncoder(url: URL(fileURLWithPath: task.output), width: task.width, height: task.height,
                                               fps: task.rate, settings: task.settings)
            let size = BenchmarkYUVFrame.packedSize(width: task.width, height: task.height)
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            defer { buffer.deallocate() }
            // From `inputFile` when given (as the ffmpeg command line reads its file), else standard input.
            let input = task.inputFile.map { open($0, O_RDONLY) } ?? STDIN_FILENO
            guard input >= 0 else { throw BenchError("cannot open \(task.inputFile ?? "")") }
            defer { if task.inputFile != nil { close(input) } }
            while frames < task.frames, try readFully(input, buffer, size) {
                try frame.unpack(from: buffer)
                try encoder.encode(frame, index: frames)
                frames += 1
            }
            try encoder.finish()
        case .measureCommand:
            // The kernel's peak for a process (ru_maxrss) starts from the peak of the memory it was
            // exec'ed from: posix_spawn from the benchmark (gigabytes of frames) would report the
            // benchmark's. Spawned from this small process, the command's own figure shows.
            let exit = try ChildProcess(path: task.command[0], arguments: Array(task.command.dropFirst()),
                                        pipeInput: false, captureOutput: false).finish()
            guard exit.status == 0 else {
                throw BenchError("\(task.command.joined(separator: " ")) failed (\(exit.statusDescription))")
            }
            let result = VideoChildResult(frames: 0, peakRSSMiB: exit.maxRSSMiB, wallSeconds: exit.wallSeconds, cpuSeconds: exit.cpuSeconds)
            output(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
            return
        }
        let result = VideoChildResult(frames: frames, peakRSSMiB: ProcessMemory.peakMiB() ?? -1,
                                      peakOpenDecoders: peakOpenDecoders,
                                      wallSeconds: wallSeconds() - wall0, cpuSeconds: CPUClock.process.seconds() - cpu0)
        output(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// Runs `task` in a fresh process and returns its report and the process's own figures.
    static func run(_ task: VideoChildTask) throws -> (VideoChildResult, ChildProcess.Exit) {
        let child = try start(task, feedsInput: false)
        return try child.finishReporting(task)
    }

    /// Starts `task` in a fresh process; with `feedsInput`, its standard input is a pipe to write frames to.
    static func start(_ task: VideoChildTask, feedsInput: Bool) throws -> ChildProcess {
        try ChildProcess(path: try ChildProcess.executablePath(),
                         arguments: [flag, String(decoding: try JSONEncoder().encode(task), as: UTF8.self)],
                         pipeInput: feedsInput, captureOutput: true)
    }
}

extension ChildProcess {
    /// Waits for a video child and decodes its report.
    func finishReporting(_ task: VideoChildTask) throws -> (VideoChildResult, ChildProcess.Exit) {
        let exit = try finish()
        guard exit.status == 0 else { throw BenchError("video child (\(task.mode.rawValue)) failed (\(exit.statusDescription))") }
        guard let line = String(decoding: exit.output, as: UTF8.self).split(separator: "\n").last,
              let result = try? JSONDecoder().decode(VideoChildResult.self, from: Data(line.utf8)) else {
            throw BenchError("video child (\(task.mode.rawValue)) reported nothing readable")
        }
        return (result, exit)
    }
}

/// A process started with posix_spawn and reaped with wait4, for its own CPU time and peak memory.
final class ChildProcess {
    /// How a child ended and what it used.
    struct Exit {
        /// The exit status (0–255), or 128 + the signal that killed it.
        let status: Int32
        /// Its standard output, when captured.
        let output: Data
        /// Wall seconds from start to exit.
        let wallSeconds: Double
        /// User + system CPU seconds of the child (all its threads), from wait4.
        let cpuSeconds: Double
        /// The child's peak resident memory (ru_maxrss), in MiB. Starts from the peak of the process
        /// that spawned it (see `VideoChildTask.Mode.measureCommand`): only meaningful from a small parent.
        let maxRSSMiB: Double

        var statusDescription: String { status > 128 ? "signal \(status - 128)" : "status \(status)" }
    }

    let pid: pid_t
    /// The write end of the child's standard input, when piped (-1 otherwise).
    private(set) var input: Int32 = -1
    private var outputRead: Int32 = -1
    private let start: Double

    /// Starts `path` with `arguments`; standard error is inherited, standard input is a pipe (or
    /// /dev/null), standard output is captured (or /dev/null).
    init(path: String, arguments: [String], pipeInput: Bool, captureOutput: Bool) throws {
        // A child that dies makes writes fail with EPIPE instead of killing this process.
        signal(SIGPIPE, SIG_IGN)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var toClose: [Int32] = []
        defer { for fd in toClose { close(fd) } }
        if pipeInput {
            let (r, w) = try Self.makePipe()
            posix_spawn_file_actions_adddup2(&actions, r, 0)
            toClose.append(r)
            input = w
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if captureOutput {
            let (r, w) = try Self.makePipe()
            posix_spawn_file_actions_adddup2(&actions, w, 1)
            toClose.append(w)
            outputRead = r
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        start = wallSeconds()
        let rc = posix_spawn(&child, path, &actions, nil, argv, environ)
        guard rc == 0 else {
            if input >= 0 { close(input) }
            if outputRead >= 0 { close(outputRead) }
            throw BenchError("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
    }

    /// Closes the child's input, reads its output to the end and waits for it.
    func finish() throws -> Exit {
        closeInput()
        var data = Data()
        if outputRead >= 0 {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(outputRead, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                data.append(contentsOf: chunk[..<n])
            }
            close(outputRead)
            outputRead = -1
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
        }
        let wall = wallSeconds() - start
        let signalled = status & 0x7f
        let code = signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return Exit(status: code, output: data, wallSeconds: wall, cpuSeconds: cpu, maxRSSMiB: Double(usage.ru_maxrss) / 1024)
    }

    /// Closes the write end of the child's standard input (end of the frames).
    func closeInput() {
        if input >= 0 { close(input); input = -1 }
    }

    /// Writes all of `count` bytes to the child's standard input.
    func write(_ buffer: UnsafeRawPointer, _ count: Int) throws {
        var done = 0
        while done < count {
            let n = Glibc.write(input, buffer + done, count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw BenchError("writing to the child process: \(String(cString: strerror(errno)))") }
            done += n
        }
    }

    /// The child's CPU seconds so far (/proc/PID/stat utime + stime), 0 when unreadable.
    var cpuSecondsSoFar: Double {
        let text = ProcessMemory.readProcFile("/proc/\(pid)/stat")
        // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Fields after ")" start at field 3 (state): utime is field 14, stime field 15.
        guard fields.count > 12, let u = Double(fields[11]), let s = Double(fields[12]) else { return 0 }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Waits until the child is idle (a 50 ms interval costing it under 5 ms of CPU; at most 20 s), so
    /// that its work does not overlap a phase timed in this process.
    func waitUntilQuiet() {
        let deadline = wallSeconds() + 20
        while wallSeconds() < deadline {
            let cpu0 = cpuSecondsSoFar, wall0 = wallSeconds()
            usleep(50_000)
            if cpuSecondsSoFar - cpu0 < 0.1 * (wallSeconds() - wall0) { return }
        }
    }

    private static func makePipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        // Close-on-exec: the child gets only the ends dup2'ed onto 0 and 1.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// This program's own file, to run it again.
    static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw BenchError("cannot find this program's path (/proc/self/exe)") }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Full-size canvases for drawing clip frames outside an encoder, each with its own converter when
/// frames are to be converted; taken by one drawing thread at a time.
final class DrawSlots: @unchecked Sendable {
    // @unchecked: `free` is only touched under `lock`; a slot is used by one thread at a time.
    final class Slot: @unchecked Sendable {
        let canvas: Canvas
        let converter: BenchmarkConverter?
        init(canvas: Canvas, converter: BenchmarkConverter?) { self.canvas = canvas; self.converter = converter }
    }
    let width: Int, height: Int, converting: Bool
    private let lock = NSLock()
    private var free: [Slot] = []

    init(width: Int, height: Int, converting: Bool) { self.width = width; self.height = height; self.converting = converting }

    func take() throws -> Slot {
        if let slot = lock.withLock({ free.popLast() }) { return slot }
        return Slot(canvas: try Canvas(width: width, height: height),
                    converter: converting ? try BenchmarkConverter(width: width, height: height) : nil)
    }
    func give(_ slot: Slot) { lock.withLock { free.append(slot) } }
}

/// Decodes and draws a clip's frames at full size on the render scheduler's threads, without an
/// encoder and without keeping the frames.
///
/// `Clip.renderFrames` runs the same scheduler and render session as `MovieMaker.add` (one drawing
/// thread per core, each video leaf's decoder lent to one thread at a time, the next clip's decoder
/// opened ahead), but keeps every frame it draws. So the clip is rendered at 16×16 through a clip
/// whose closure draws the real clip at full size into a canvas of its own (`Clip.draw` inside a
/// render uses that render's session and decoders), then hands the canvas to `after`; the 16×16
/// frames kept cost 1 KiB each.
enum FrameDrawer {
    static let outerSide = 16

    static func draw(_ clip: Clip, frames: Range<Int>, width: Int, height: Int, rate: FrameRate, slots: DrawSlots,
                     after: @escaping @Sendable (Int, DrawSlots.Slot) throws -> Void) throws {
        let outer = Clip(duration: clip.duration) { _, frame in
            let slot = try slots.take()
            defer { slots.give(slot) }
            try slot.canvas.draw { ctx in
                ctx.clear(.black)
                try clip.draw(in: ctx, at: frame)
            }
            try after(frame.index, slot)
        }
        _ = try outer.renderFrames(frames, width: outerSide, height: outerSide, rate: rate)
    }
}

import Foundation
import Glibc
import MovieMaker
import MovieMaker

// The slideshow memory line: does a slideshow of many 24-megapixel photos cost more memory than the
// encoder needs anyway, and does that cost grow with the number of photos? Each run is a fresh
// process (this program re-executed with a hidden first argument) whose peak resident memory
// (VmHWM) is read at its end, so runs cannot inherit each other's heap:
//
//   encoder alone   x264 + MP4 muxer fed the few-photo show's frames, converted in this process and
//                   sent raw (yuv420p) through a pipe: it holds only x264, the muxer and one frame.
//   show of A       the whole render (MovieMaker.add(slideshow clip) + finish) of A distinct photos.
//   show of B       the same with the A files listed B/A times: every entry is decoded afresh,
//                   since the photo provider keeps only 2 decoded photos.

/// What a child process is asked to do (its first arguments are `childFlag` and this as JSON).
struct MemoryChildTask: Codable {
    enum Mode: String, Codable { case encoderAlone, slideshow }
    var mode: Mode
    var width: Int
    var height: Int
    var fps: Int
    var crf: Int
    var preset: String
    /// Where the movie goes (deleted by the parent).
    var output: String
    /// `.slideshow`: the photo files in show order, and each photo's time on screen.
    var photos: [String] = []
    var secondsPerPhoto: Double = 0.5
    /// `.encoderAlone`: how many frames come through standard input.
    var frames = 0

    var settings: EncoderSettings { EncoderSettings(crf: crf, preset: EncoderPreset(rawValue: preset) ?? .medium) }
}

/// What a child process reports on its standard output (one JSON line).
struct MemoryChildResult: Codable {
    var frames: Int
    /// VmHWM at the end: the process's peak resident memory over its whole life, in MiB.
    var peakRSSMiB: Double
    var wallSeconds: Double
    var cpuSeconds: Double
}

enum MemoryChild {
    /// The hidden first argument that makes this program a memory-run child.
    static let flag = "--internal-memory-child"

    /// Runs the task given on the command line and prints its result; the process then exits.
    static func main(_ json: String) throws {
        LibraryLog.silence()
        let task = try JSONDecoder().decode(MemoryChildTask.self, from: Data(json.utf8))
        let wall0 = wallSeconds()
        var frames = 0
        switch task.mode {
        case .slideshow:
            let show = SlideshowWorkload.show(task.photos.map { URL(fileURLWithPath: $0) }, secondsPerPhoto: task.secondsPerPhoto)
            let clip = try show.clip(width: task.width, height: task.height)
            frames = FrameRate(task.fps).frameCount(for: clip.duration)
            let movie = try MovieMaker(url: URL(fileURLWithPath: task.output), width: task.width, height: task.height,
                                       fps: FrameRate(task.fps), settings: task.settings)
            try movie.add(clip)
            try movie.finish()
        case .encoderAlone:
            let converter = try BenchmarkConverter(width: task.width, height: task.height)
            let frame = try converter.makeFrame()
            let encoder = try BenchmarkEncoder(url: URL(fileURLWithPath: task.output), width: task.width, height: task.height,
                                               fps: FrameRate(task.fps), settings: task.settings)
            let size = BenchmarkYUVFrame.packedSize(width: task.width, height: task.height)
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            defer { buffer.deallocate() }
            while frames < task.frames, try readFully(STDIN_FILENO, buffer, size) {
                try frame.unpack(from: buffer)
                try encoder.encode(frame, index: frames)
                frames += 1
            }
            try encoder.finish()
        }
        let result = MemoryChildResult(frames: frames, peakRSSMiB: ProcessMemory.peakMiB() ?? -1,
                                       wallSeconds: wallSeconds() - wall0, cpuSeconds: CPUClock.process.seconds())
        output(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}

/// The memory line's result.
struct SlideshowMemoryResult: Encodable, Sendable {
    /// One child process.
    struct Run: Encodable, Sendable {
        let label: String
        let photos: Int
        let frames: Int
        let peakRSSMiB: Double
        let wallSeconds: Double
        let cpuSeconds: Double
    }

    var width = 1920
    var height = 1080
    var fps = 30
    var crf = 20
    var preset = EncoderPreset.medium.rawValue
    var secondsPerPhoto = 0.25
    var crossfadeSeconds: Double { min(1, secondsPerPhoto / 2) }
    /// Distinct 24 MP files; the larger show lists them repeatedly.
    var distinctPhotos = 20
    var photoBytes = 0
    var encoderAlone: Run?
    var shows: [Run] = []

    /// The most the whole render may exceed the encoder alone by (issue 20: x264's level + 64 MiB).
    static let limitMiB = 64.0
    /// How close the peaks of the small and the large show must be to count as the same.
    static let sameToleranceMiB = 20.0

    /// Peak of each show minus the encoder alone's.
    var excessMiB: [Double] { shows.map { $0.peakRSSMiB - (encoderAlone?.peakRSSMiB ?? .nan) } }
    /// Peak of the large show minus the small one's.
    var growthMiB: Double { (shows.last?.peakRSSMiB ?? .nan) - (shows.first?.peakRSSMiB ?? .nan) }
    var excessPasses: Bool { !excessMiB.isEmpty && excessMiB.allSatisfy { $0 < Self.limitMiB } }
    var flatPasses: Bool { abs(growthMiB) <= Self.sameToleranceMiB }

    enum CodingKeys: String, CodingKey {
        case width, height, fps, crf, preset, secondsPerPhoto, crossfadeSeconds, distinctPhotos, photoBytes, encoderAlone, shows
        case excessMiB, growthMiB, limitMiB, sameToleranceMiB, excessPasses, flatPasses
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width); try c.encode(height, forKey: .height); try c.encode(fps, forKey: .fps)
        try c.encode(crf, forKey: .crf); try c.encode(preset, forKey: .preset); try c.encode(secondsPerPhoto, forKey: .secondsPerPhoto)
        try c.encode(crossfadeSeconds, forKey: .crossfadeSeconds); try c.encode(distinctPhotos, forKey: .distinctPhotos)
        try c.encode(photoBytes, forKey: .photoBytes); try c.encodeIfPresent(encoderAlone, forKey: .encoderAlone)
        try c.encode(shows, forKey: .shows); try c.encode(excessMiB, forKey: .excessMiB); try c.encode(growthMiB, forKey: .growthMiB)
        try c.encode(Self.limitMiB, forKey: .limitMiB); try c.encode(Self.sameToleranceMiB, forKey: .sameToleranceMiB)
        try c.encode(excessPasses, forKey: .excessPasses); try c.encode(flatPasses, forKey: .flatPasses)
    }

    /// Runs the encoder alone and one show per entry of `photoCounts`, each in a fresh process.
    static func run(photoCounts: (Int, Int), secondsPerPhoto: Double, preset: EncoderPreset, folder: BenchPhotoFolder) throws -> SlideshowMemoryResult {
        var result = SlideshowMemoryResult()
        result.preset = preset.rawValue
        result.secondsPerPhoto = secondsPerPhoto
        result.distinctPhotos = photoCounts.0
        let specs = (0..<photoCounts.0).map(BenchPhotoSpec.memory)
        let (distinct, _) = try folder.ensure(specs)
        result.photoBytes = BenchPhotoFolder.bytes(of: distinct)
        func list(_ n: Int) -> [String] { (0..<n).map { distinct[$0 % distinct.count].path } }
        func task(_ mode: MemoryChildTask.Mode, tag: String) -> (MemoryChildTask, TemporaryFile) {
            let file = TemporaryFile(tag: "slideshow-memory-\(tag)")
            return (MemoryChildTask(mode: mode, width: result.width, height: result.height, fps: result.fps, crf: result.crf,
                                    preset: preset.rawValue, output: file.url.path, secondsPerPhoto: secondsPerPhoto), file)
        }

        // Encoder alone, on the small show's frames, drawn and converted here.
        standardError("… slideshow memory: encoder alone (fresh process) on the \(photoCounts.0)-photo show's frames")
        var (encoderTask, encoderFile) = task(.encoderAlone, tag: "encoder")
        defer { encoderFile.remove() }
        let show = SlideshowWorkload.show(list(photoCounts.0).map { URL(fileURLWithPath: $0) }, secondsPerPhoto: secondsPerPhoto)
        let clip = try show.clip(width: result.width, height: result.height)
        let rate = FrameRate(result.fps)
        encoderTask.frames = rate.frameCount(for: clip.duration)
        let encoderRun = try runChild(encoderTask) { fd in
            let canvas = try Canvas(width: result.width, height: result.height)
            let converter = try BenchmarkConverter(width: result.width, height: result.height)
            let frame = try converter.makeFrame()
            let size = BenchmarkYUVFrame.packedSize(width: result.width, height: result.height)
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            defer { buffer.deallocate() }
            for i in 0..<encoderTask.frames {
                try canvas.draw { ctx in
                    ctx.clear(.black)
                    try clip.draw(in: ctx, at: Frame(index: i, movieIndex: i, rate: rate, exactTime: rate.time(ofFrame: i), duration: clip.duration))
                }
                try converter.convert(canvas, into: frame)
                frame.pack(into: buffer)
                try writeFully(fd, buffer, size)
            }
        }
        result.encoderAlone = Run(label: "encoder alone (x264 + mux, frames through a pipe)", photos: photoCounts.0,
                                  frames: encoderRun.frames, peakRSSMiB: encoderRun.peakRSSMiB,
                                  wallSeconds: encoderRun.wallSeconds, cpuSeconds: encoderRun.cpuSeconds)

        for count in [photoCounts.0, photoCounts.1] {
            standardError("… slideshow memory: whole render of \(count) photos (fresh process)")
            var (showTask, file) = task(.slideshow, tag: "show-\(count)")
            defer { file.remove() }
            showTask.photos = list(count)
            let r = try runChild(showTask, feed: nil)
            let repeats = count > distinct.count ? ", \(distinct.count) files listed \(String(format: "%g", Double(count) / Double(distinct.count)))×" : ""
            result.shows.append(Run(label: "slideshow of \(count) photos\(repeats)", photos: count, frames: r.frames,
                                    peakRSSMiB: r.peakRSSMiB, wallSeconds: r.wallSeconds, cpuSeconds: r.cpuSeconds))
        }
        return result
    }

    /// Runs this program as a child on `task`, feeding its standard input with `feed` (given the pipe's
    /// file descriptor) when set, and returns what it reports.
    private static func runChild(_ task: MemoryChildTask, feed: ((Int32) throws -> Void)?) throws -> MemoryChildResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        process.arguments = [MemoryChild.flag, String(decoding: try JSONEncoder().encode(task), as: UTF8.self)]
        let stdout = Pipe()
        process.standardOutput = stdout
        let stdin = Pipe()
        process.standardInput = feed == nil ? FileHandle.nullDevice : stdin
        try process.run()
        var feedError: Error?
        if let feed {
            // A child that dies makes writes fail with EPIPE instead of killing this process.
            signal(SIGPIPE, SIG_IGN)
            do { try feed(stdin.fileHandleForWriting.fileDescriptor) } catch { feedError = error }
            try stdin.fileHandleForWriting.close()
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError("memory child (\(task.mode.rawValue)) failed with status \(process.terminationStatus)"
                             + (feedError.map { "; feeding it: \($0)" } ?? ""))
        }
        if let feedError { throw feedError }
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
              let result = try? JSONDecoder().decode(MemoryChildResult.self, from: Data(line.utf8)) else {
            throw BenchError("memory child (\(task.mode.rawValue)) reported nothing readable")
        }
        return result
    }

    /// This program's own file, to run it again.
    private static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw BenchError("cannot find this program's path (/proc/self/exe)") }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func writeFully(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) throws {
        var done = 0
        while done < count {
            let n = write(fd, buffer + done, count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw BenchError("sending frames to the encoder process: \(String(cString: strerror(errno)))") }
            done += n
        }
    }
}

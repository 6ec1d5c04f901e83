import ArgumentParser
import Foundation
import MovieMaker

/// `--chunk K/N`, `--frames A..<B` and `--chunk-dir DIR`: one part of a render split across workers
/// (a Slurm job array, a Kubernetes Indexed Job, GNU parallel). See `DistributedRender`.
struct ChunkOptions: ParsableArguments {
    /// `K/N`: the K-th (from 0) of N chunks.
    @Option(help: ArgumentHelp("Render only chunk K of N (K counts from 0, as $SLURM_ARRAY_TASK_ID and $JOB_COMPLETION_INDEX do) into --chunk-dir; chunks are balanced and at least one second long. A complete chunk already there is skipped.",
                               valueName: "K/N"))
    var chunk: String?

    /// `A..<B`: a frame range instead of a chunk index.
    @Option(help: ArgumentHelp("Render only the frames A..<B (from frame A up to, not including, B) into --chunk-dir.", valueName: "A..<B"))
    var frames: String?

    /// Render only the sound track.
    @Flag(help: ArgumentHelp("Render only the movie's whole sound track into --chunk-dir: a task of its own beside the chunks, so that assembly copies the sound instead of encoding it. The worker of chunk 0 does this after its frames unless given --no-sound-track."))
    var soundTrack = false

    /// Leave the sound track out of chunk 0's work.
    @Flag(help: ArgumentHelp("With --chunk 0/N: leave the sound track to a --sound-track task or to the assembly."))
    var noSoundTrack = false

    /// Where the chunks go.
    @Option(help: ArgumentHelp("The folder chunks are written to and assembled from (created if missing; shared by every worker).", valueName: "folder"))
    var chunkDir: String?

    /// Whether a chunk (or the sound track task) was asked for.
    var isChunked: Bool { chunk != nil || frames != nil || soundTrack }

    /// `K/N` as numbers; throws a usage error naming the value.
    static func parseChunk(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ValidationError("--chunk \(text): expected K/N, e.g. --chunk 0/4 (chunk 0 of 4; K counts from 0)")
        }
        guard n >= 1, n <= ChunkPlan.maximumCount else {
            throw ValidationError("--chunk \(text): N must be from 1 to \(ChunkPlan.maximumCount), got \(n)")
        }
        guard k >= 0, k < n else {
            throw ValidationError("--chunk \(text): K must be from 0 to \(n - 1) (chunks count from 0, as Slurm array and Kubernetes completion indices do), got \(k)")
        }
        return (k, n)
    }

    /// `A..<B` (also `A-B`, B exclusive) as a range; throws a usage error naming the value.
    static func parseFrames(_ text: String) throws -> Range<Int> {
        let separator = text.contains("..<") ? "..<" : "-"
        let parts = text.components(separatedBy: separator)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
            throw ValidationError("--frames \(text): expected A..<B, e.g. --frames 0..<300 (frames 0 to 299)")
        }
        guard a >= 0, b > a else { throw ValidationError("--frames \(text): expected 0 ≤ A < B, got \(a)..<\(b)") }
        return a..<b
    }

    func validate() throws {
        if chunk != nil && frames != nil { throw ValidationError("give --chunk K/N or --frames A..<B, not both") }
        if soundTrack && (chunk != nil || frames != nil) {
            throw ValidationError("--sound-track renders the sound track alone: give it without --chunk or --frames (the worker of chunk 0 renders the sound track anyway)")
        }
        if soundTrack && noSoundTrack { throw ValidationError("give --sound-track or --no-sound-track, not both") }
        if let chunk { _ = try Self.parseChunk(chunk) }
        if let frames { _ = try Self.parseFrames(frames) }
        if isChunked && chunkDir == nil { throw ValidationError("--chunk, --frames and --sound-track write into a folder: add --chunk-dir DIR (the same folder for every worker and for `moviemaker assemble`)") }
        if let chunkDir {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: chunkDir, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw InputError("--chunk-dir \(chunkDir) is a file: give a folder")
            }
        }
    }

    /// The chunk folder, created if missing (by several workers at once, harmlessly).
    func folder() throws -> URL {
        let url = URL(fileURLWithPath: chunkDir ?? ".")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw InputError("--chunk-dir \(url.path): cannot create the folder: \(error.localizedDescription)")
        }
        guard access(url.path, W_OK) == 0 else {
            throw InputError(MovieMakerError.destinationNotWritable(path: url.path, reason: String(cString: strerror(errno))).description)
        }
        return url
    }

    /// Renders the chunk asked for of `job` — and, for chunk 0 (unless `--no-sound-track`) or with
    /// `--sound-track`, the whole sound track — printing one line on standard output about each.
    func render(_ job: DistributedRender, progress: ProgressOptions) throws {
        let folder = try folder()
        if soundTrack {
            let path = folder.path
            Interruption.shared.describeOutcome { "the sound track was not written; \(path) holds only what it held before" }
            try renderSoundTrack(job, in: folder, progress: progress)
            return
        }
        let label: String, outcome: DistributedRender.ChunkOutcome
        var isFirstChunk = false
        let reporter = ProgressReporter(label: "chunk", output: folder.path, options: progress)
        try Interruption.shared.beginWriting()
        let started = Date()
        do {
            if let chunk {
                let (k, n) = try Self.parseChunk(chunk)
                label = "chunk \(k)/\(n)"
                isFirstChunk = k == 0
                outcome = try job.renderChunk(k, of: n, in: folder, cancellation: Interruption.shared.token) { reporter.update($0) }
            } else {
                let range = try Self.parseFrames(frames ?? "")
                label = "frames \(range.lowerBound)..<\(range.upperBound)"
                outcome = try job.renderFrames(range, in: folder, cancellation: Interruption.shared.token) { reporter.update($0) }
            }
        } catch {
            reporter.abandon()
            throw error
        }
        reporter.abandon()
        if progress.showsSummary {
            summarize(outcome, label: label, job: job, started: started)
        }
        if isFirstChunk && !noSoundTrack {
            let path = folder.path
            Interruption.shared.describeOutcome { "the chunk was written to \(path); its sound track was not" }
            try renderSoundTrack(job, in: folder, progress: progress)
        }
    }

    /// Renders `job`'s sound track into `folder` unless it is there already, printing what was done.
    private func renderSoundTrack(_ job: DistributedRender, in folder: URL, progress: ProgressOptions) throws {
        try Interruption.shared.beginWriting()
        let started = Date()
        let outcome = try job.renderSoundTrack(in: folder, cancellation: Interruption.shared.token)
        guard progress.showsSummary else { return }
        switch outcome {
        case let .rendered(url):
            Terminal.printLine(String(format: "sound track: rendered into %@ in %.1f s", url.path, Date().timeIntervalSince(started)))
        case let .alreadyComplete(url):
            Terminal.printLine("sound track: already complete in \(url.path); skipped")
        case .silent:
            if soundTrack { Terminal.printLine("sound track: the movie is silent; nothing to render") }
        }
    }

    /// The summary line of a chunk's `outcome`.
    private func summarize(_ outcome: DistributedRender.ChunkOutcome, label: String, job: DistributedRender, started: Date) {
        switch outcome {
        case let .rendered(url, frames):
            Terminal.printLine(String(format: "%@: frames %d..<%d rendered into %@ in %.1f s", label, frames.lowerBound, frames.upperBound, url.path,
                                      Date().timeIntervalSince(started)))
        case let .alreadyComplete(url, frames):
            Terminal.printLine("\(label): frames \(frames.lowerBound)..<\(frames.upperBound) already complete in \(url.path); skipped")
        case let .nothingToRender(k, count):
            Terminal.printLine("\(label): nothing to render: the movie's \(job.frameCount) frames make only \(count) chunk\(count == 1 ? "" : "s") of at least one second (chunk \(k) is beyond them)")
        }
    }
}

/// `moviemaker assemble`: the chunks of a description rendered by several workers, joined into one movie.
struct AssembleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assemble",
        abstract: "Join the chunks of a render split across workers (render --chunk K/N) into one movie, without re-encoding.",
        discussion: """
            Every chunk must be in --chunk-dir, rendered from the same description, slots and settings \
            (give the same --slot, --media, --crf, --preset, --lossless and --subtitles as the workers); \
            chunks of other descriptions or settings there are ignored. Chunks are H.264 (another \
            --codec, or output.encoder.codec, is refused). A missing chunk is named, with \
            the frames it holds. The sound track is rendered once for the whole movie: by the worker of \
            chunk 0 (or a render --sound-track task) into the chunk folder, and copied from there; \
            when it is missing, here. The result has exactly the frames, timestamps and sound of a \
            single render. With --hls, the chunks become an HLS stream's segments: the workers must \
            have been given the same --segment (render --chunk K/N --segment 4s).

            Examples:
              moviemaker render film.json --chunk 0/4 --chunk-dir chunks  # worker 0 of 4
              moviemaker assemble film.json --chunk-dir chunks -o film.mp4
              moviemaker assemble film.json --chunk-dir chunks --chunks 4 -o film.mp4
              moviemaker assemble film.json --chunk-dir chunks --hls stream --segment 4s
            """)

    @OptionGroup var description: DescriptionOptions

    /// The chunk folder.
    @Option(help: ArgumentHelp("The folder the workers rendered their chunks into.", valueName: "folder"))
    var chunkDir: String

    /// How many chunks the workers used.
    @Option(help: ArgumentHelp("The N the workers were given (--chunk K/N); found from the chunks when left out.", valueName: "N"))
    var chunks: Int?

    /// Where the movie goes.
    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the movie: .mp4, .mov or .mkv. The folder must exist.", valueName: "path"))
    var output: String?

    /// An HLS stream's folder instead of a movie.
    @Option(help: ArgumentHelp("Write an HLS stream into this folder instead of -o: the chunks' packets become its segments, not re-encoded. The workers must have been given --segment.", valueName: "folder"))
    var hls: String?

    /// The segment length the workers were given.
    @Option(help: ArgumentHelp("The --segment the workers were given (render --chunk … --segment). (default: 4s with --hls)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var segment: Time?

    /// --crf and --preset, as the workers were given them.
    @OptionGroup var quality: EncoderQualityOptions

    /// Lossless, as the workers were given.
    @Flag(help: "The workers rendered lossless chunks (render --lossless).")
    var lossless = false

    @OptionGroup(title: "Subtitles") var subtitles: SubtitleOptions

    @OptionGroup(title: "Progress") var progress: ProgressOptions

    /// Where it writes: the movie file or the HLS folder.
    private var destination: String { output ?? hls ?? "" }

    func validate() throws {
        try quality.checkBitDepth()
        switch (output, hls) {
        case (nil, nil): throw ValidationError("give -o movie.mp4, or --hls FOLDER for an HLS stream")
        case (_?, _?): throw ValidationError("give -o or --hls, not both")
        case (let output?, nil):
            guard segment == nil else { throw ValidationError("--segment is for --hls: leave it out with -o") }
            let extensions = ["mp4", "m4v", "mov", "mkv"]
            guard extensions.contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
                throw ValidationError(MovieMakerError.unsupportedContainer(extension: URL(fileURLWithPath: output).pathExtension, supported: extensions).description)
            }
            try OutputOptions.check(output)
        case (nil, let hls?):
            try OutputOptions.checkFolder(of: hls)
        }
        let output = destination
        if FileIdentity.same(output, description.spec) { throw InputError("-o \(output) is the description file itself: choose another destination") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: chunkDir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError("--chunk-dir \(chunkDir): no such folder (give the folder the workers rendered into)")
        }
        try RenderCommand.checkChunkable(quality)
        if let chunks, !(1...ChunkPlan.maximumCount).contains(chunks) {
            throw ValidationError("--chunks \(chunks): expected 1…\(ChunkPlan.maximumCount)")
        }
    }

    func run() throws {
        let output = destination
        Interruption.shared.install(destination: output)
        let job = try RenderCommand.distributedRender(description: description, subtitles: subtitles, crf: quality.crf, preset: quality.preset, lossless: lossless,
                                                      hlsSegment: hls == nil ? nil : segment ?? 4)
        if let input = job.inputs.first(where: { FileIdentity.same(output, $0.path) }) {
            throw InputError("-o \(output) is \(input.path), which the description reads: choose another destination")
        }
        if let chunk = try? FileManager.default.contentsOfDirectory(atPath: chunkDir).first(where: { FileIdentity.same(output, chunkDir + "/" + $0) }) {
            throw InputError("-o \(output) is the chunk \(chunk): write the movie outside the chunk folder's chunks")
        }
        // The chunks are checked first: a folder of other settings' chunks is said before any sound is rendered.
        _ = try job.render.chunkSequence(in: URL(fileURLWithPath: chunkDir), chunks: chunks)
        if progress.showsSummary {
            switch job.render.soundTrackStatus(in: URL(fileURLWithPath: chunkDir)) {
            case .silent: break
            case let .complete(url): Terminal.printLine("sound track: copied from \(url.path)")
            case .missing: Terminal.printLine("sound track: none in the chunk folder (render --sound-track, or chunk 0, writes it); rendering it here")
            case let .unusable(url, reason): Terminal.printLine("sound track: \(url.path) cannot be used (\(reason)); rendering it here")
            }
        }
        let reporter = ProgressReporter(label: "assemble", output: output, options: progress)
        try Interruption.shared.beginWriting()
        do {
            let summary = hls != nil
                ? try job.render.assemble(from: URL(fileURLWithPath: chunkDir), toHLS: OutputOptions.destinationURL(output), chunks: chunks,
                                          cancellation: Interruption.shared.token) { reporter.update($0) }
                : try job.render.assemble(from: URL(fileURLWithPath: chunkDir), to: OutputOptions.destinationURL(output), chunks: chunks,
                                          cancellation: Interruption.shared.token) { reporter.update($0) }
            reporter.finish(summary)
        } catch {
            reporter.abandon()
            throw error
        }
    }
}

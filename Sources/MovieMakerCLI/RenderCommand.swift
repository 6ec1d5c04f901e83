import ArgumentParser
import Foundation
import MovieMaker

/// A description file that is not valid, named with its path: `spec.json: tracks[0].items[2].duration: …`.
/// Exits with 64, as a usage error does.
struct DescriptionError: Error, CustomStringConvertible, LocalizedError {
    /// The description file as given on the command line.
    let file: String
    /// What is wrong, at which JSON path.
    let error: MovieMakerError
    /// `spec.json: tracks[0].items[2].duration: must be greater than 0, got "-1s"`.
    var description: String { "\(file): \(error.description)" }
    /// The same, for Foundation's error reporting.
    var errorDescription: String? { description }
}

/// The description file argument and the slot options that `render` and `validate` share.
struct DescriptionOptions: ParsableArguments {
    /// The description file.
    @Argument(help: ArgumentHelp("The description file (JSON, version 1; see `moviemaker schema`).", valueName: "spec.json"))
    var spec: String

    /// Slot values.
    @Option(name: .customLong("slot"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Fill a template slot: NAME=FILE for video, photo, media and audio slots, NAME=TEXT for text slots, NAME=COLOR for colour slots. Repeat for each slot.",
                               valueName: "name=value"))
    var slots: [String] = []

    /// Media files for the media slots, in order.
    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Fill the template's video, photo and media slots in the order the movie uses them (one-click editing).", valueName: "file"))
    var media: [String] = []

    /// The frame size instead of the description's.
    @Option(help: ArgumentHelp("Frame size instead of the description's output.size: WIDTHxHEIGHT (even) or 2160p, 1080p, 720p… (a vertical or smaller variant of a template without editing it; positions in pixels stay as written).",
                               valueName: "WxH"),
            transform: { (text: String) throws -> FrameSize in try FrameSize.parse(text) })
    var size: FrameSize?

    /// The aspect ratio the whole movie is reframed to.
    @Option(help: ArgumentHelp("Reframe the whole movie to this aspect ratio, e.g. 9:16: every video item without a reframe of its own follows its subject in a window of that shape (as output.reframe), and the frame takes that shape (the longer side of output.size kept) unless --size is given.",
                               valueName: "W:H"),
            transform: { (text: String) throws -> Reframe in try ReframeArgument.parse(text) })
    var reframe: Reframe?

    /// The platform the movie is for.
    @Option(name: .customLong("for"),
            help: ArgumentHelp("Make the movie for a platform: youtube, youtube-shorts, tiktok, instagram-reel, instagram-feed, linkedin or x (its size, frame rate, bit-rate ceiling, keyframes, loudness, longest length and safe area; over the description's output.preset and size).",
                               valueName: "platform"),
            transform: { (text: String) throws -> Platform in
                guard let platform = Platform(rawValue: text.lowercased()) else {
                    throw ValidationError("--for \(text): expected one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return platform
            })
    var platform: Platform?

    /// The frame rate instead of the description's.
    @Option(help: ArgumentHelp("Frames per second instead of the description's output.fps: 24, 25, 30, 60, 29.97 or a fraction (times written in frames, \"90f\", count frames of this rate).",
                               valueName: "rate"),
            transform: { (text: String) throws -> FrameRate in try FrameRateArgument.parse(text) })
    var fps: FrameRate?

    /// Normalise the sound.
    @Flag(help: "Normalise the sound track to --loudness (EBU R128 integrated loudness, true peak ≤ -1 dBTP), over the description's output.audio.loudness.")
    var normalize = false

    /// The loudness target for --normalize.
    @Option(parsing: .unconditional, help: ArgumentHelp("Loudness target for --normalize in LUFS: -16 for the web, -23 for broadcast. (default: the description's output.audio.loudness, else -16)",
                                                        valueName: "LUFS"))
    var loudness: Double?

    /// Every slot must be filled.
    @Flag(help: "Fail (64) naming every slot left at its template default, instead of rendering with the defaults (for CI renders of templates).")
    var requireSlots = false

    /// The spec's URL.
    var url: URL { URL(fileURLWithPath: spec) }

    /// Refuses `-` (and `/dev/stdin`) for a description: its relative paths start at its own folder,
    /// which standard input does not have.
    /// A pipe (`<(…)`, `/dev/fd/N`, a FIFO) or a device is refused the same way: a description is read
    /// more than once (checked, then rendered) and a pipe gives its text only once.
    static func refuseStandardInput(_ spec: String) throws {
        var info = stat()
        let streamed = spec != "-" && stat(spec, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR
        guard spec == "-" || spec == "/dev/stdin" || streamed else { return }
        throw InputError("\(spec): a description is read from a file, not standard input or a pipe (its relative paths start at the file's folder): "
                         + "save it first, e.g. `cat > spec.json`, and give spec.json")
    }

    func validate() throws {
        try validateOverrides()
        try Self.refuseStandardInput(spec)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError("\(spec): " + (isDirectory.boolValue ? "a folder, not a description file (to join the clips and photos in it: moviemaker stitch \(Terminal.shellWord(spec)))"
                                                               : "no such file (give a description file, e.g. examples/specs/travel.json)"))
        }
    }

    /// Reads the description and fills its slots (checking that every slot is filled when
    /// `--require-slots` is given and `requiringSlots`); every problem is a `DescriptionError` naming the file.
    func load(requiringSlots: Bool = true) throws -> Timeline {
        var filled: Timeline
        do {
            let timeline = try Timeline(contentsOf: url)
            let values = try timeline.slotValues(assignments: slots, media: media)
            if requireSlots && requiringSlots {
                let open = timeline.slots.keys.filter { values[$0] == nil }.sorted()
                if !open.isEmpty {
                    throw InputError("--require-slots: \(spec) has \(open.count) slot\(open.count == 1 ? "" : "s") left at the template's default: "
                                     + open.joined(separator: ", ") + "; fill \(open.count == 1 ? "it" : "them") with --slot NAME=VALUE (or --media for video and photo slots)")
                }
            }
            filled = try timeline.filled(with: values)
        } catch let error as MovieMakerError {
            throw DescriptionError(file: spec, error: error)
        }
        // The command line's output settings over the description's.
        if let size, platform == nil, let preset = filled.output.preset {
            // Refused as `--for … --size` is: the preset's size would win, with a warning calling --size output.size.
            throw ValidationError("--size \(size.width)x\(size.height): \(spec)'s output.preset \"\(preset.rawValue)\" sets the frame size "
                                  + "(\(preset.size.width)x\(preset.size.height)): leave out --size, or remove output.preset from the description")
        }
        if let platform { filled.output.preset = platform }
        if let reframe {
            filled.output.reframe = Timeline.ReframeSpec(aspect: reframe)
            if size == nil, let old = filled.output.size {
                let (w, h) = reframe.frameSize(from: old.width, height: old.height)
                filled.output.size = Timeline.FrameSize(width: w, height: h)
            }
        }
        if let size { filled.output.size = Timeline.FrameSize(width: size.width, height: size.height) }
        if let fps { filled.output.fps = fps }
        if normalize || loudness != nil {
            var audio = filled.output.audio ?? Timeline.AudioOptions()
            audio.loudness = loudness ?? audio.loudness ?? -16
            filled.output.audio = audio
        }
        return filled
    }

    /// The slot values `--slot` and `--media` give, in `template` (the description as `load` read it).
    func slotValuesFromOptions(in template: Timeline) throws -> [String: Timeline.SlotValue] {
        do { return try template.slotValues(assignments: slots, media: media) } catch {
            throw DescriptionError(file: spec, error: error)
        }
    }

    /// Checks the loudness target's range.
    func validateOverrides() throws {
        if let platform, size != nil {
            throw ValidationError("--for \(platform.rawValue) sets the frame size (\(platform.size.width)x\(platform.size.height)): leave out --size")
        }
        if let loudness, !(-70 ... -5).contains(loudness) {
            throw ValidationError("--loudness \(loudness) LUFS is out of range: give -70 to -5, e.g. -16 (web) or -23 (broadcast)")
        }
    }

    /// The composition, or a `DescriptionError` naming the file for a bad description or media file.
    func compose(_ timeline: Timeline, options: Timeline.RenderOptions) throws -> TimelineComposition {
        do {
            return try timeline.composition(options)
        } catch {
            // Anything found at a JSON path (a chart's CSV, a font) is about this file: named with it.
            // (A failure of the machine's, a Cairo or FFmpeg error, is not the file's fault, wherever it is.)
            let atPath = error.location?.jsonPath != nil && MovieMakerCommand.inputCodes.contains(error.code)
            if error.code == .invalidDescription || atPath { throw DescriptionError(file: spec, error: error) }
            throw error
        }
    }
}

/// `moviemaker render`: a description file (or a filled template) rendered to a movie.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a description file (a JSON timeline, or a template filled with your media and text).",
        discussion: """
            A description file lists tracks of items — video clips, photos, titles, colours, \
            slideshows, generators, music — with exact times ("1.5s", "90f", "1001/30000s"). Relative \
            paths are read from the file's folder. `moviemaker schema` prints its JSON Schema.

            A template has slots: fill them with --slot NAME=VALUE, or give --media files for its \
            video and photo slots in order. --save-spec writes the filled description, itself a \
            template you can edit and share.

            --cache DIR renders the movie as segments kept in DIR, each named by what it shows: \
            after an edit, a render with the same --cache re-renders only the segments the edit \
            changed and joins the movie without re-encoding.

            --batch renders the template once per row of a CSV file (a header of slot names) or JSON \
            Lines file, in one process, several rows at once. A row that fails is named with its line \
            and the others finish (exit 1 if any failed). Each movie records what it was made from: \
            running the batch again skips the rows already made (--force renders them again), and \
            --batch-index K/N shares the rows among N machines.

            Every file is opened and checked before the first frame. A description that is not \
            valid exits with status 64 and one line naming its JSON path, e.g. \
            tracks[0].items[2].duration: must be greater than 0, got "-1s".

            Examples:
              moviemaker render examples/specs/travel.json --preview -o travel.mp4
              moviemaker render examples/specs/birthday.json --slot name="Ana Lima" \\
                --media a.jpg b.jpg c.png --preview -o ana.mp4
              moviemaker render spec.json -o film.mp4
              moviemaker render spec.json --size 1080x1920 -o vertical.mp4
              moviemaker render spec.json --check
              moviemaker render spec.json --subtitles talk.vtt -o talk.mp4
              moviemaker render spec.json --captions talk.json --caption-style karaoke \\
                -o talk.mp4
              moviemaker render template.json --slot clip1=beach.mp4 \\
                --save-spec mine.json -o mine.mp4
              moviemaker render spec.json -o film.mp4 --cache film-cache
              moviemaker render template.json --batch people.csv \\
                --output-pattern 'out/{role}-{name}.mp4'
            """)

    @OptionGroup var description: DescriptionOptions

    /// Where the movie goes.
    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the movie: .mp4, .mov, .mkv or .webm, or an animated .gif, .apng or .webp. The folder must exist.", valueName: "path"))
    var output: String?

    /// The filled description's destination.
    @Option(help: ArgumentHelp("Write the resolved description to this file: a template of its own, its slots holding what was given (files inside its folder named relative to it, others by absolute path).", valueName: "file.json"))
    var saveSpec: String?

    /// A quick, small render.
    @Flag(help: "A quick look: a quarter of the width and height, x264 veryfast.")
    var preview = false

    /// Check and plan only (`--dry-run` too, as `slideshow` calls it).
    @Flag(name: [.customLong("check"), .customLong("dry-run")],
          help: "Validate, open every source, print the plan (each item's place and duration, the decoders needed) and exit without rendering (--dry-run is the same). With --batch, check every row so (its values, files, fonts and data) and name each row with a mistake.")
    var check = false

    /// --crf and --preset, instead of the description's output.encoder.
    @OptionGroup var quality: EncoderQualityOptions
    @OptionGroup(title: AnimatedImageOptions.title) var animatedImage: AnimatedImageOptions

    /// An HLS stream's folder.
    @Option(help: ArgumentHelp("Write an HLS stream into this folder instead of a movie file: playlist.m3u8 (VOD), init.mp4 and fMP4 segments, each starting with a keyframe (and chapters.vtt when the description has markers).", valueName: "folder"))
    var hls: String?

    /// Where an incremental render keeps its segments.
    @Option(help: ArgumentHelp("Render incrementally: keep the movie's segments (closed-GOP H.264, --segment long, default 2s) in this folder, each named by a hash of what it shows; a later render re-renders only the segments an edit changed and joins the movie without re-encoding.",
                               valueName: "folder"))
    var cache: String?

    /// The HLS segment length.
    @Option(help: ArgumentHelp("The length of each HLS segment, rounded to whole frames (the last may be shorter). With --chunk: chunks for `assemble --hls` (give assemble the same). With --cache: the cached segments' length (default 2s). (default: 4s)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var segment: Time?

    /// The sound alone.
    @Flag(name: .customLong("audio-only"),
          help: "Write only the sound, mixed and levelled as the movie's: -o sound.m4a, .mp3, .opus, .flac or .wav (those extensions imply it).")
    var audioOnly = false

    /// The chapters as YouTube description lines.
    @Flag(name: .customLong("print-chapters"),
          help: "Print the description's markers as chapter lines for a YouTube description (0:00 Intro), with a warning when YouTube would not show them; renders too when -o is given.")
    var printChapters = false

    /// The chapters as a WebVTT file.
    @Option(name: .customLong("chapters-vtt"),
            help: ArgumentHelp("Write the description's markers as a WebVTT chapters file (for <track kind=\"chapters\"> or an HLS player).", valueName: "file.vtt"))
    var chaptersVTT: String?

    /// Lossless H.264.
    @Flag(help: "Lossless video (h264: x264 qp 0; hevc; vp9): decoded frames equal the drawn ones exactly, at several times the size. (av1 and prores have no lossless mode)")
    var lossless = false

    @OptionGroup(title: "Subtitles") var subtitles: SubtitleOptions

    @OptionGroup(title: "Distributed rendering (then: moviemaker assemble)") var chunking: ChunkOptions

    @OptionGroup(title: "Batch (one movie per row)") var batching: RenderBatchOptions

    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        try animatedImage.check(destination: output ?? batching.outputPattern ?? hls, quality: quality)
        try batching.validate(output: output, others: [(hls != nil, "--hls"), (saveSpec != nil, "--save-spec"),
                                                        (chunking.isChunked, "--chunk"), (printChapters, "--print-chapters"),
                                                        (chaptersVTT != nil, "--chapters-vtt"), (audioOnly, "--audio-only"),
                                                        (subtitles.subtitles != nil || subtitles.captions != nil, "--subtitles and --captions"),
                                                        (cache != nil, "--cache"), (segment != nil, "--segment")])
        if batching.isBatch { return }
        if chunking.isChunked {
            guard output == nil else {
                throw ValidationError("--chunk and --frames write a chunk into --chunk-dir, not a movie: leave out -o and join the chunks with `moviemaker assemble \(Terminal.shellWord(description.spec)) --chunk-dir \(chunking.chunkDir.map(Terminal.shellWord) ?? "DIR") -o movie.mp4`")
            }
            guard !check else { throw ValidationError("--check only checks: leave out --chunk/--frames") }
            // A chunk is part of a movie that `assemble` joins: what concerns the whole movie is asked of it.
            if let (given, instead) = [(saveSpec != nil, ("--save-spec", "save the filled description with a render without --chunk")),
                                       (chaptersVTT != nil, ("--chapters-vtt", "write the chapters with a render without --chunk")),
                                       (printChapters, ("--print-chapters", "print them with `moviemaker validate` or a render without --chunk")),
                                       (preview, ("--preview", "`moviemaker assemble` joins chunks of the full-quality render only; render a preview on one machine"))]
                .first(where: { $0.0 })?.1 {
                throw ValidationError("\(given) is not written by a chunk (--chunk/--frames): leave it out (\(instead))")
            }
            try Self.checkChunkable(quality)
        }
        if let chaptersVTT {
            guard URL(fileURLWithPath: chaptersVTT).pathExtension.lowercased() == "vtt" else {
                throw ValidationError("--chapters-vtt \(chaptersVTT): give a .vtt file")
            }
            try OutputOptions.checkFolder(of: chaptersVTT)
            if FileIdentity.same(chaptersVTT, description.spec) || chaptersVTT == output {
                throw ValidationError("--chapters-vtt \(chaptersVTT) names the description or the movie: give a new .vtt file")
            }
        }
        if let hls {
            guard output == nil else { throw ValidationError("--hls \(hls) writes a stream instead of -o: give one of them") }
            guard !chunking.isChunked else { throw ValidationError("--hls renders on one machine; for chunks, render them and run `moviemaker assemble … --hls \(hls)`") }
            try OutputOptions.checkFolder(of: hls)
            // A folder holding other files is refused before any work, as a bad destination is (64).
            do { try MovieDestination.checkReplaceableSequenceFolder(OutputOptions.destinationURL(hls), hls: true) } catch {
                throw InputError("--hls \(hls): \(error.reason ?? error.message)")
            }
        } else if segment != nil && !chunking.isChunked && cache == nil {
            throw ValidationError("--segment is the length of an HLS stream's segments: give --hls FOLDER too (or, with --chunk, to assemble the chunks with --hls; or --cache DIR for an incremental render's segments)")
        }
        if let cache {
            guard let output, ["mp4", "m4v", "mov", "mkv"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
                throw ValidationError("--cache \(cache) renders a movie incrementally: give -o movie.mp4 (or .mov, .mkv)")
            }
            guard !chunking.isChunked, hls == nil, !audioOnly else { throw ValidationError("--cache renders one movie on this machine: leave out --chunk, --hls and --audio-only") }
            guard subtitles.subtitles == nil && subtitles.captions == nil else {
                throw ValidationError("--cache does not burn in --subtitles or --captions: put them in the description (a subtitles or captions item)")
            }
            if let quality = quality.codec, quality != .h264 { throw ValidationError("--cache joins H.264 segments: leave out --codec \(CodecArgument.name(quality))") }
        }
        guard output != nil || hls != nil || check || saveSpec != nil || chunking.isChunked || printChapters || chaptersVTT != nil else {
            throw ValidationError("give -o movie.mp4 to render, --check to only check, --save-spec file.json to save the filled description, --batch rows.csv --output-pattern 'out/{row}.mp4' to render one movie per row, or --chunk K/N --chunk-dir DIR to render one chunk")
        }
        let soundFile = output.flatMap { SoundFileFormat(fileExtension: URL(fileURLWithPath: $0).pathExtension) }
        if audioOnly && soundFile == nil {
            throw ValidationError("--audio-only writes a sound file: give -o sound.m4a (or .mp3, .opus, .flac, .wav)")
        }
        if let output, soundFile != nil {
            guard !chunking.isChunked else { throw ValidationError("a sound file is written in one go: leave out --chunk") }
            try OutputOptions.checkFolder(of: output)
            if FileIdentity.same(output, description.spec) { throw InputError("-o \(output) is the description file itself: choose another destination") }
            if let input = FileIdentity.inputMatching(output, in: Array(CommandLine.arguments.dropFirst())) {
                throw InputError("-o \(output) is \(input), an input of this command: writing there would destroy it; choose another destination")
            }
        } else if let output {
            // render writes movies, animated images and sound files, not stills: the list it gives says so.
            try OutputOptions.refuseFolder(output)
            let ext = URL(fileURLWithPath: output).pathExtension
            if !OutputOptions.movieExtensions.contains(ext.lowercased()) && !OutputOptions.stillExtensions.contains(ext.lowercased()) {
                throw ValidationError(MovieMakerError.unsupportedContainer(
                    extension: ext, supported: OutputOptions.movieExtensions + SoundFileFormat.allCases.map(\.rawValue)).description)
            }
            try OutputOptions.check(output)
            guard !OutputOptions.stillExtensions.contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
                throw ValidationError("render makes a movie, an animated image or a sound: use -o movie.mp4 (or .mov, .mkv, .webm; .gif, .apng, .webp; .m4a, .mp3, .wav…), not .\(URL(fileURLWithPath: output).pathExtension)")
            }
            if FileIdentity.same(output, description.spec) { throw InputError("-o \(output) is the description file itself: choose another destination") }
            // Files named on the command line (--subtitles, --media, --font-file…) are inputs too; those the
            // description names are checked once it is compiled.
            if let input = FileIdentity.inputMatching(output, in: Array(CommandLine.arguments.dropFirst())) {
                throw InputError("-o \(output) is \(input), an input of this command: writing there would destroy it; choose another destination")
            }
        }
        if let saveSpec {
            guard URL(fileURLWithPath: saveSpec).pathExtension.lowercased() == "json" else {
                throw ValidationError("--save-spec \(saveSpec): give a .json file")
            }
            try OutputOptions.checkFolder(of: saveSpec)
            if FileIdentity.same(saveSpec, description.spec) {
                throw InputError("--save-spec \(saveSpec) is the description file itself: write the filled description to a new file")
            }
            if let output, FileIdentity.same(saveSpec, output) || saveSpec == output {
                throw ValidationError("--save-spec and -o name the same file")
            }
        }
    }

    func run() throws {
        if let output { Interruption.shared.install(destination: output) }
        if let hls { Interruption.shared.install(destination: hls) }
        if chunking.isChunked {
            let chunkDir = chunking.chunkDir ?? "."
            Interruption.shared.install(destination: chunkDir)
            // The folder changes while a chunk is written (its partial file): the line must not read that
            // as a finished render.
            Interruption.shared.describeOutcome { "this chunk was not written; \(chunkDir) holds only what it held before" }
            try quality.checkBitDepth()   // chunks are H.264
            let job = try Self.distributedRender(description: description, subtitles: subtitles, crf: quality.crf, preset: quality.preset, lossless: lossless,
                                                 preview: preview, hlsSegment: segment)
            for warning in job.warnings { Terminal.writeError("moviemaker: warning: \(warning)\n") }
            try chunking.render(job.render, progress: progress)
            return
        }
        let specFolder = description.url.deletingLastPathComponent()
        var options = Timeline.RenderOptions(mediaFolder: specFolder, preview: preview, crf: quality.crf, preset: quality.preset)
        options.codec = quality.codec
        options.bitDepth = quality.bitDepth
        options.imageOverrides = animatedImage.overrides
        options.lossless = lossless
        if batching.isBatch { return try runBatch(options) }
        let burnIn = try subtitles.load()
        let timeline = try description.load()
        try quality.checkBitDepth(codecFrom: timeline.output.encoder?.codec)
        if cache != nil && quality.codec == nil {
            try Self.checkH264(timeline, description, "cannot be rendered incrementally: --cache joins H.264 segments without re-encoding", else: "leave out --cache")
        }
        let composition = try description.compose(timeline, options: options)
        let end = composition.frameRate.time(ofFrame: composition.frameCount)
        // --save-spec and --chapters-vtt: never over a file the description or the command reads, and,
        // beside a movie, written once it is made (a failed render leaves nothing behind).
        for (option, path) in [("--save-spec", saveSpec), ("--chapters-vtt", chaptersVTT)] {
            guard let path else { continue }
            if let input = composition.inputFiles.first(where: { FileIdentity.same(path, $0.path) })?.path
                ?? FileIdentity.inputMatching(path, in: Array(CommandLine.arguments.dropFirst())) {
                throw InputError("\(option) \(path) is \(input), an input of this render: writing there would destroy it; give a new file")
            }
        }
        let writeSideFiles = { [self] () throws in
            if let saveSpec {
                let destination = OutputOptions.destinationURL(saveSpec)
                try timeline.rebased(from: specFolder, to: destination.deletingLastPathComponent()).write(to: destination)
                if progress.showsSummary { Terminal.printLine("\(saveSpec): the filled description (a template: its slots hold what was given)") }
            }
            if let chaptersVTT {
                do {
                    try Data(Chapter.webVTT(composition.chapters, end: end).utf8).write(to: OutputOptions.destinationURL(chaptersVTT), options: .atomic)
                } catch {
                    throw InputError("--chapters-vtt \(chaptersVTT): cannot write it: \(error.localizedDescription)")
                }
            }
        }
        let rendersMovie = !check && (output != nil || hls != nil)
        if !rendersMovie { try writeSideFiles() }
        for warning in composition.warnings { Terminal.writeError("moviemaker: warning: \(warning)\n") }
        if printChapters {
            if composition.chapters.isEmpty {
                Terminal.writeError("moviemaker: warning: \(description.spec) has no markers: no chapters to print (add \"markers\": [{\"name\": \"Intro\", \"at\": \"0s\"}, …])\n")
            } else if let problem = Chapter.youTubeProblem(composition.chapters, end: end) {
                Terminal.writeError("moviemaker: warning: \(problem): it will not show these as chapters\n")
            }
            for line in Chapter.youTubeLines(composition.chapters) { Terminal.printLine(line) }
        }
        if check {
            // What the render would refuse once the description is compiled: an -o the description reads,
            // a codec, CRF or bit depth the container or codec does not take.
            if let output {
                if let input = composition.inputFiles.first(where: { FileIdentity.same(output, $0.path) }) {
                    throw InputError("-o \(output) is \(input.path), which the description reads: choose another destination")
                }
                if SoundFileFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) == nil {
                    try composition.checkMovie(at: OutputOptions.destinationURL(output))
                }
            } else if let hls {
                try composition.checkMovie(at: OutputOptions.destinationURL(hls), hls: true, segmentDuration: segment ?? 4)
            }
            Terminal.printLine("\(description.spec): valid")
            Terminal.printLine(composition.planDescription(warnings: false, destination: (output ?? hls).map(OutputOptions.destinationURL), hls: hls != nil))
            return
        }
        guard rendersMovie else { return }
        try renderMovie(composition, burnIn: burnIn)
        try writeSideFiles()
    }

    /// Renders `composition` to -o (incrementally with --cache, a sound file for a sound extension) or
    /// to --hls, with `burnIn` over the picture.
    private func renderMovie(_ composition: TimelineComposition, burnIn: SubtitleOptions.BurnIn) throws {
        if let cache, let output {
            if let input = composition.inputFiles.first(where: { FileIdentity.same(output, $0.path) }) {
                throw InputError("-o \(output) is \(input.path), which the description reads: choose another destination")
            }
            try Interruption.shared.beginWriting()
            let reporter = ProgressReporter(label: "render", output: output, options: progress)
            let summary: IncrementalRenderSummary
            do {
                summary = try composition.renderIncrementally(to: OutputOptions.destinationURL(output), cache: URL(fileURLWithPath: cache),
                                                              segmentDuration: segment ?? TimelineComposition.defaultSegmentDuration,
                                                              cancellation: Interruption.shared.token) { reporter.update($0) }
            } catch {
                reporter.abandon()
                throw error
            }
            reporter.finish(summary.movie)
            if progress.showsSummary { Terminal.printLine("\(cache): \(summary.description)") }
            return
        }
        let movie: MovieMaker, destination: String
        if let hls {
            destination = hls
            movie = try Interruption.shared.makeMovie { try composition.makeMovie(hlsIn: OutputOptions.destinationURL(hls), segmentDuration: segment ?? 4) }
        } else {
            guard let output else { return }
            if let input = composition.inputFiles.first(where: { FileIdentity.same(output, $0.path) }) {
                throw InputError("-o \(output) is \(input.path), which the description reads: choose another destination")
            }
            if SoundFileFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) != nil {
                let summary: SoundFileSummary
                do {
                    summary = try composition.renderSound(to: OutputOptions.destinationURL(output), cancellation: Interruption.shared.token)
                } catch {
                    // (A `catch where` on this typed error crashes Swift 6.3's SIL verifier.)
                    if error.code == .invalidDescription { throw DescriptionError(file: description.spec, error: error) }
                    throw error
                }
                if progress.showsSummary { Terminal.printLine(summary.description) }
                return
            }
            destination = output
            movie = try Interruption.shared.makeMovie { try composition.makeMovie(at: OutputOptions.destinationURL(output)) }
            // What the movie was made from, so a `--batch` over the same values skips it; not with
            // subtitles burned in, which the identity does not cover (a batch would skip its row and
            // keep a movie with words it would not draw).
            if burnIn.isEmpty {
                do { try composition.recordIdentity(in: movie) } catch {
                    movie.cancel()
                    throw error
                }
            }
        }
        let reporter = ProgressReporter(label: "render", output: destination, options: progress)
        burnIn.warnAboutTiming(movieLength: composition.picture.duration)
        do {
            try reporter.render(movie) {
                if !burnIn.isEmpty {
                    // As composition.render(into:) does, with the subtitles and captions over the whole picture.
                    if movie.expectedFrameCount == nil { movie.expectedFrameCount = movie.frameCount + composition.frameCount }
                    if let soundtrack = composition.soundtrack { try movie.addAudio(soundtrack) }
                    try movie.add(burnIn.apply(to: composition.picture, placing: composition.insideSafeArea))
                } else {
                    try composition.render(into: movie)
                }
            }
        } catch let error as MovieMakerError {
            // A sticker that fails to decode when the render opens is named with its JSON path.
            let located = composition.locating(error)
            if located.code == .invalidDescription { throw DescriptionError(file: description.spec, error: located) }
            throw error
        }
    }
}

/// `moviemaker validate`: checks a description file without rendering it.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a description file: its structure, its slots, and (unless --structure) every file it names.",
        discussion: """
            Prints one line saying the file is valid, with its size, rate, duration and items, and exits \
            0; or prints one error line naming the JSON path and exits 64.

            Examples:
              moviemaker validate examples/specs/travel.json
              moviemaker validate template.json --structure
            """)

    @OptionGroup var description: DescriptionOptions

    /// Structure only.
    @Flag(help: "Check only the file's structure and values: open no media, allow empty slots.")
    var structure = false

    func run() throws {
        let timeline = try description.load()
        let items = timeline.tracks.reduce(0) { $0 + $1.items.count }
        let counts = "\(timeline.tracks.count) track\(timeline.tracks.count == 1 ? "" : "s"), \(items) item\(items == 1 ? "" : "s")"
        if structure {
            let slots = timeline.slots.isEmpty ? "" : ", \(timeline.slots.count) slot\(timeline.slots.count == 1 ? "" : "s")"
            Terminal.printLine("\(description.spec): valid structure (version \(timeline.version), \(counts)\(slots))")
            return
        }
        let composition = try description.compose(timeline, options: Timeline.RenderOptions(mediaFolder: description.url.deletingLastPathComponent()))
        // Stickers are decoded when a render opens: validate opens them too, so a broken one is named here
        // with its JSON path rather than by the render.
        do { try composition.checkStickers() } catch { throw DescriptionError(file: description.spec, error: error) }
        for warning in composition.warnings { Terminal.writeError("moviemaker: warning: \(warning)\n") }
        Terminal.printLine("\(description.spec): valid: \(composition.lengthDescription), " + counts)
    }
}

/// `moviemaker schema`: the description file's JSON Schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of description files, for editors' completion and checking.",
        discussion: """
            The same schema is kept in the repository as schema/timeline-1.schema.json. Point an editor \
            at it with "$schema" in a description file, or with the editor's JSON schema settings.

            Examples:
              moviemaker schema > timeline.schema.json
              moviemaker schema -o timeline.schema.json
            """)

    /// Where to write it.
    @Option(name: [.short, .long], help: ArgumentHelp("Write the schema to this file instead of standard output.", valueName: "path"))
    var output: String?

    func validate() throws {
        if let output { try OutputOptions.checkFolder(of: output) }
    }

    func run() throws {
        let text = Timeline.jsonSchema.canonicalText
        guard let output else { Terminal.writeOutput(text); return }
        try PartialFiles.write(Data(text.utf8), to: OutputOptions.destinationURL(output))
    }
}

/// The inputs of a command line, found by file identity.
extension FileIdentity {
    /// The input among `arguments` (a command line without the program name) that is the same file as
    /// `destination`: an argument naming an existing file, or a photo directly inside a folder an
    /// argument names (a slideshow's photo folder). The destination's own argument (the value of
    /// `-o`/`--output`) is not an input. Photos, music, fonts, videos, subtitles and descriptions all
    /// arrive this way, so one check covers every command.
    static func inputMatching(_ destination: String, in arguments: [String]) -> String? {
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument == "-o" || argument == "--output" { skipNext = true; continue }
            if argument.hasPrefix("--output=") || (argument.hasPrefix("-o") && !argument.hasPrefix("--")) { continue }
            var isDirectory: ObjCBool = false
            let path = argument.hasPrefix("--") ? String(argument.drop { $0 != "=" }.dropFirst()) : argument
            guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                if same(destination, path) { return path }
            } else if let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
                // A folder is read for its photos only.
                let read = names.filter { PhotoDecoder.fileExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
                if let name = read.first(where: { same(destination, path + "/" + $0) }) { return path + "/" + name }
            }
        }
        return nil
    }

    /// The first argument among `arguments` (a command line without the program name) that names a file
    /// that is neither a regular file nor a folder — a named pipe, a device, a socket — with what it is.
    /// Reading one would wait forever for a writer (a FIFO) or never end (`/dev/zero`), so every
    /// command refuses it before any work, whatever option it was given to. The destination (`-o`,
    /// which may be `/dev/null`) is not an input.
    static func specialFile(in arguments: [String]) -> (path: String, kind: String)? {
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument == "-o" || argument == "--output" { skipNext = true; continue }
            if argument.hasPrefix("--output=") || (argument.hasPrefix("-o") && !argument.hasPrefix("--")) { continue }
            let path = argument.hasPrefix("--") ? String(argument.drop { $0 != "=" }.dropFirst()) : argument
            guard !path.isEmpty else { continue }
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG, S_IFDIR: continue
            case S_IFIFO: return (path, "a named pipe")
            case S_IFCHR, S_IFBLK: return (path, "a device")
            case S_IFSOCK: return (path, "a socket")
            default: return (path, "not a regular file")
            }
        }
        return nil
    }
}

extension RenderCommand {
    /// A description resolved for a distributed render, as every worker and the assembly resolve it.
    struct DistributedJob {
        /// The render.
        let render: DistributedRender
        /// The files the description reads (none may be the destination).
        let inputs: [URL]
        /// The composition's warnings.
        let warnings: [String]
    }

    /// Refuses a description whose `output.encoder.codec` is not H.264 for work that joins H.264 pieces
    /// (`why`), at the key's JSON path, saying to remove it or `otherwise`.
    static func checkH264(_ timeline: Timeline, _ description: DescriptionOptions, _ why: String, else otherwise: String) throws {
        guard let codec = timeline.output.encoder?.codec, codec != .h264 else { return }
        throw DescriptionError(file: description.spec, error: .invalidDescription(
            JSONPath.root.appending("output").appending("encoder").appending("codec"),
            "\(codec.rawValue) \(why); remove \"codec\" (or give \"h264\"), or \(otherwise)"))
    }

    /// Refuses what chunks cannot be: `assemble` joins H.264 chunks without re-encoding them.
    static func checkChunkable(_ quality: EncoderQualityOptions) throws {
        if let codec = quality.codec, codec != .h264 {
            throw ValidationError("--codec \(CodecArgument.name(codec)): chunks are joined as H.264 without re-encoding: leave out --codec (or render \(CodecArgument.name(codec)) on one machine with -o)")
        }
    }

    /// The description (slots filled, subtitles burned in, encoder overrides applied) as a
    /// `DistributedRender` whose chunks are named after the description file.
    static func distributedRender(description: DescriptionOptions, subtitles: SubtitleOptions, crf: Int?, preset: EncoderPreset?,
                                  lossless: Bool, preview: Bool = false, hlsSegment: Time? = nil) throws -> DistributedJob {
        let burnIn = try subtitles.load()
        let timeline = try description.load()
        // Said before any chunk is rendered: assemble joins H.264 only, and would refuse every chunk.
        try checkH264(timeline, description, "cannot be rendered in chunks: chunks are joined as H.264 without re-encoding", else: "render it on one machine with -o")
        var options = Timeline.RenderOptions(mediaFolder: description.url.deletingLastPathComponent(), preview: preview, crf: crf, preset: preset)
        options.lossless = lossless
        let composition = try description.compose(timeline, options: options)
        let picture = burnIn.isEmpty ? nil : try burnIn.apply(to: composition.picture, placing: composition.insideSafeArea)
        burnIn.warnAboutTiming(movieLength: composition.picture.duration)
        let name = description.url.deletingPathExtension().lastPathComponent
        let extra = subtitles.files
        let render = try DistributedRender(composition: composition, picture: picture, name: name.isEmpty || name.hasPrefix(".") ? "movie" : name,
                                           identity: subtitles.identity, inputFiles: extra, hlsSegmentDuration: hlsSegment)
        return DistributedJob(render: render, inputs: composition.inputFiles + extra, warnings: composition.warnings)
    }
}

/// `moviemaker format`: a description file in its canonical form.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Print a description file in its canonical form: sorted keys, two-space indentation, canonical times.",
        discussion: """
            The canonical form is what MovieMaker writes (--save-spec, otio import): decoding it and \
            writing it again gives the same bytes, so canonical files diff cleanly. The file is checked \
            as `validate --structure` checks it; no media is opened.

            --in-place rewrites the file in its canonical form (only when that changes it); --check \
            changes nothing and exits 1 when the file is not canonical, for CI.

            Examples:
              moviemaker format spec.json
              moviemaker format spec.json -o tidy.json
              moviemaker format --in-place spec.json
            """)

    /// The description file.
    @Argument(help: ArgumentHelp("The description file.", valueName: "spec.json"))
    var spec: String

    /// Where to write.
    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file (not the input) instead of standard output.", valueName: "path"))
    var output: String?

    /// Rewrite the file itself.
    @Flag(help: "Rewrite the description file itself in its canonical form (atomically; untouched when it already is).")
    var inPlace = false

    /// Only check.
    @Flag(help: "Change nothing: exit 1 when the file is not in its canonical form (for CI), 0 when it is.")
    var check = false

    func validate() throws {
        try DescriptionOptions.refuseStandardInput(spec)
        guard FileManager.default.fileExists(atPath: spec) else { throw InputError("\(spec): no such file") }
        if [output != nil, inPlace, check].filter({ $0 }).count > 1 {
            throw ValidationError("-o, --in-place and --check each say what to do with the canonical form: give one of them")
        }
        if let output, FileIdentity.same(output, spec) || output == spec {
            throw InputError("-o \(output) is the input file: write the canonical form to another file")
        }
        if let output { try OutputOptions.checkFolder(of: output) }
    }

    func run() throws {
        let text: String
        do {
            text = try Timeline(contentsOf: URL(fileURLWithPath: spec)).jsonText()
        } catch {
            throw DescriptionError(file: spec, error: error)
        }
        if check || inPlace {
            // Bytes, not text: a byte-order mark or another encoding is not the canonical form.
            let current = try? Data(contentsOf: URL(fileURLWithPath: spec))
            if current == Data(text.utf8) {
                if inPlace { Terminal.printLine("\(spec): already in its canonical form") }
                return
            }
            if check {
                Terminal.writeError("moviemaker: \(spec) is not in its canonical form: run `moviemaker format --in-place \(Terminal.shellWord(spec))`\n")
                throw ExitCode.failure
            }
            // Through a link, the file it names is rewritten (the link stays), keeping its permissions.
            let target = URL(fileURLWithPath: spec).resolvingSymlinksInPath().path
            guard FileManager.default.isWritableFile(atPath: target) else {
                throw InputError("\(spec) is read-only: make it writable to rewrite it, or write the canonical form elsewhere with -o")
            }
            var before = stat()
            guard stat(target, &before) == 0 else { throw InputError("\(spec): cannot read it (\(String(cString: strerror(errno))))") }
            if before.st_nlink > 1 {
                // A file with other names (hard links) is rewritten in place, so every name keeps it;
                // the text is a few kilobytes, written in one call.
                let fd = open(target, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw InputError("\(spec): cannot rewrite it (\(String(cString: strerror(errno))))") }
                defer { close(fd) }
                let bytes = Array(text.utf8)
                // The space is claimed before a byte changes: a full disk or a size limit fails here,
                // with the file as it was.
                let claimed = posix_fallocate(fd, 0, off_t(bytes.count))
                guard claimed == 0 || claimed == EOPNOTSUPP || claimed == EINVAL else {
                    throw InputError("\(spec): cannot rewrite it (\(String(cString: strerror(claimed)))); it is unchanged")
                }
                var failure = bytes.withUnsafeBytes { PartialFiles.writeAll($0, to: fd) }
                if failure == nil, ftruncate(fd, off_t(bytes.count)) != 0 { failure = errno }
                if let failure {
                    throw InputError("\(spec): rewriting it failed (\(String(cString: strerror(failure)))); it may be cut short: restore it from version control")
                }
            } else {
                try OTIOCommand.write(text, to: target)
                // The new file keeps the old one's permissions, and its owner when root rewrites it.
                chmod(target, before.st_mode & 0o7777)
                if getuid() == 0 { _ = chown(target, before.st_uid, before.st_gid) }
            }
            Terminal.printLine("\(spec): written in its canonical form")
            return
        }
        guard let output else { Terminal.writeOutput(text); return }
        try OTIOCommand.write(text, to: output)
    }
}

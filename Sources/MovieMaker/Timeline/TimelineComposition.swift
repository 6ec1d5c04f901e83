import Foundation

extension Timeline {
    /// How a description is resolved for rendering: where its relative paths point, preview or full
    /// size, encoder overrides and the generators it may name.
    public struct RenderOptions: Sendable {
        /// The folder relative paths are read from (the description file's folder).
        public var mediaFolder: URL
        /// A quick look: a quarter of the width and height (even, at least 16 pixels) and x264 `veryfast`.
        public var preview: Bool
        /// Overrides `output.encoder.codec` (`--codec`).
        public var codec: VideoCodec?
        /// Overrides `output.encoder.bitDepth` (`--bit-depth`).
        public var bitDepth: Int?
        /// Overrides `output.encoder.crf`.
        public var crf: Int?
        /// Overrides `output.encoder.preset` (and the preview's `veryfast`).
        public var preset: EncoderPreset?
        /// Lossless H.264 whatever `output.encoder` says (`--lossless`); false keeps the description's choice.
        public var lossless: Bool = false
        /// Animated-image settings that override `output.encoder`'s where set: `palette`, `dither`,
        /// `colors`, `plays`, `quality` and `maxSize` (`--gif-palette`, `--dither`, `--colors`,
        /// `--plays`, `--webp-quality`, `--max-size`).
        public var imageOverrides = Timeline.EncoderOptions()
        /// How many frames are drawn at once (0: one per core, up to 4).
        public var drawingThreads: Int
        /// Where `generator` items are looked up.
        public var generators: GeneratorRegistry

        /// Options for a description whose relative paths start at `mediaFolder` (default: the current folder).
        public init(mediaFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath), preview: Bool = false,
                    crf: Int? = nil, preset: EncoderPreset? = nil, drawingThreads: Int = 0, generators: GeneratorRegistry = .shared) {
            self.mediaFolder = mediaFolder; self.preview = preview; self.crf = crf; self.preset = preset
            self.drawingThreads = drawingThreads; self.generators = generators
        }
    }

    /// Resolves the description for rendering: every slot it uses must hold something (a default or
    /// a filled value), every file is opened and checked (a missing, unreadable or wrong kind of file
    /// throws `MovieMakerError.invalidDescription` naming the item's JSON path and the file), titles are
    /// laid out, generators built, the sound track planned. Nothing is drawn or written.
    public func composition(_ options: RenderOptions = RenderOptions()) throws(MovieMakerError) -> TimelineComposition {
        var compiler = TimelineCompiler(timeline: self, options: options)
        return try compiler.compile()
    }

    /// Renders the description to `url` (see `composition(_:)` and `TimelineComposition.render(to:)`).
    @discardableResult
    public func render(to url: URL, options: RenderOptions = RenderOptions(), cancellation: CancellationToken? = nil,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> MovieSummary {
        try composition(options).render(to: url, cancellation: cancellation, progress: progress)
    }
}

/// A description resolved for rendering: the picture as one clip tree, the sound track, the settings,
/// and a plan of where every item plays. Made by `Timeline.composition(_:)`.
public struct TimelineComposition: Sendable {
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// Frames per second.
    public let frameRate: FrameRate
    /// How long the movie lasts.
    public let duration: Time
    /// How the video is encoded.
    public let encoderSettings: EncoderSettings
    /// How the sound is encoded; nil when the movie has no sound.
    public let audioSettings: AudioSettings?
    /// The picture: every track stacked on the background. Its clips' own sounds are in it, unless
    /// `soundtrack` holds the whole mixed sound (then the picture is silent).
    public let picture: Clip
    /// The whole sound track, mixed (music ducked, levels normalised), when the description has audio
    /// tracks or a loudness target; nil when the picture's own sounds are the sound track.
    public let soundtrack: AudioMix?
    /// Where each item plays, in track order.
    package let plan: [PlannedItem]
    /// The most video decoders the render has open at once.
    package let videoDecoders: Int
    /// Things the render does differently from what the description asks (a transition shortened to
    /// fit, a clip fitted to its slot), one sentence each.
    public let warnings: [String]
    /// The movie's chapters: the description's `markers` (the timeline's own, in movie time), in order of
    /// time, those at or after the movie's end left out (with a warning).
    public let chapters: [Chapter]
    /// Which part of which file each media item plays, by the item's JSON path (for OpenTimelineIO).
    let sources: [String: SourceTiming]
    /// Every file the composition reads (videos, photos, sounds), standardized: a render must not write
    /// over one of them.
    package let inputFiles: [URL]
    /// A hash (hex SHA-256) of the filled description in canonical form, the media folder and the
    /// options that change the picture (preview, encoder overrides): equal on every machine resolving
    /// the same description the same way. Names a chunked render's chunks when the picture holds code
    /// (a registered generator), which has no content hash of its own (`DistributedRender`).
    package let descriptionHash: String
    /// The stickers the description shows from files: each one's JSON path and how it is decoded.
    var stickers: [StickerItem] = []
    /// The platform's safe area (`output.preset`), where captions and subtitles go; nil without a preset.
    package var safeArea: Rect? = nil

    /// `clip` (a frame-sized picture: captions, subtitles) shrunk into the safe area, centred there;
    /// `clip` itself without a preset. What the description's own captions get, for those burned in
    /// from the command line.
    package func insideSafeArea(_ clip: Clip) throws(MovieMakerError) -> Clip {
        try Self.placing(clip, inside: safeArea, width: width, height: height)
    }

    /// `clip` shrunk into `area` of a `width`×`height` frame and centred there (itself when nil).
    static func placing(_ clip: Clip, inside area: Rect?, width: Int, height: Int) throws(MovieMakerError) -> Clip {
        guard let area else { return clip }
        let scale = min(area.width / Double(width), area.height / Double(height))
        return try clip.positioned(at: Point(x: area.minX + area.width / 2, y: area.minY + area.height / 2)).scaled(by: scale)
    }

    /// A sticker item read from a file, for `checkStickers()`.
    struct StickerItem: Sendable {
        /// The item's `source`, e.g. `tracks[1].items[0].source`.
        var path: JSONPath
        /// The file.
        var url: URL
        /// The size it is shown at (nil: from the other side, or natural).
        var width: Double?, height: Double?
    }

    /// Decodes every sticker the description shows, as a render does when it opens (each at the size it is
    /// shown, within the same memory limit), and throws the first failure as `.invalidDescription` with
    /// the item's JSON path: what `moviemaker validate` checks, so a broken sticker (truncated, a GIF
    /// declaring 65535×65535 with 10,000 frames) is found before a render starts. Each decode is freed
    /// before the next.
    package func checkStickers() throws(MovieMakerError) {
        for sticker in stickers {
            do { _ = try AnimatedImageDecoder.decode(sticker.url, width: sticker.width, height: sticker.height) } catch {
                throw .invalidDescription(sticker.path, error.message, file: sticker.url.path)
            }
        }
    }

    /// `error` from rendering this composition with the JSON path of the sticker it is about, when it
    /// names a sticker's file (a render decodes stickers when it opens); otherwise `error` itself.
    package func locating(_ error: MovieMakerError) -> MovieMakerError {
        guard error.location?.jsonPath == nil, let file = error.location?.file,
              let sticker = stickers.first(where: { $0.url.path == file }) else { return error }
        return .invalidDescription(sticker.path, error.message, file: file)
    }

    /// Which part of a file an item plays, and how.
    struct SourceTiming: Sendable, Hashable {
        /// The file.
        var file: URL
        /// How long the file lasts (nil for a photo).
        var fileDuration: Time?
        /// Where in the file the item starts.
        var start: Time = .zero
        /// How fast it plays.
        var speed: Speed = .normal
        /// Whether it plays backwards.
        var isReversed = false
        /// Whether one frame is held.
        var isFrozen = false
    }

    /// The number of frames the movie has.
    public var frameCount: Int { frameRate.frameCount(for: duration) }

    /// Where one item of the description plays.
    package struct PlannedItem: Sendable, Hashable {
        /// The item's JSON path, e.g. `tracks[0].items[2]`.
        package let path: String
        /// The item's `type`.
        package let type: String
        /// The item's label, if it has one.
        package let name: String?
        /// When it starts in the movie.
        package let start: Time
        /// How long it plays.
        package let duration: Time
        /// What it shows or plays: a file, a text, a colour, a generator's name.
        package let what: String
        /// How it plays: trims, speed, fits, transitions.
        package let detail: String
    }

    /// A `MovieMaker` at `url` with this composition's size, rate and settings (with a sound track when
    /// it has sound).
    package func makeMovie(at url: URL) throws(MovieMakerError) -> MovieMaker {
        // An animated image has no sound track: the description's sound is left out.
        let holdsSound = Container(fileExtension: url.pathExtension).map { (try? $0.audioCodec()) != nil } ?? true
        let ext = url.pathExtension.lowercased()
        if let limit = encoderSettings.animatedImage.maxFileSize, ext != "gif", ext != "webp" {
            // A CI job must not believe a budget is kept that nothing keeps.
            LibraryWarnings.warn("output.encoder.maxSize (\(limit) bytes) applies to a .gif or .webp; this .\(ext.isEmpty ? "movie" : ext) is not held to it "
                                 + "(a movie's size follows crf, size and fps)")
        }
        let movie = try MovieMaker(url: url, width: width, height: height, fps: frameRate, settings: encoderSettings,
                                   audioSettings: holdsSound ? audioSettings : nil)
        return try withChapters(movie)
    }

    /// Checks, opening nothing, what `makeMovie(at:)` (or, with `hls`, `makeMovie(hlsIn:…)`) would refuse
    /// about `url`: its container, the codec it and the settings choose, the CRF and bit depth for that
    /// codec, and with `hls` the segment length `segmentDuration`. `render --check` answers as the render would.
    package func checkMovie(at url: URL, hls: Bool = false, segmentDuration: Time = 4) throws(MovieMakerError) {
        if hls { _ = try MovieMaker.segmentFrames(segmentDuration, rate: frameRate) }
        let holdsSound = hls || (Container(fileExtension: url.pathExtension).map { (try? $0.audioCodec()) != nil } ?? true)
        _ = try MovieMaker.checkedFormat(url: url, isPNGSequence: false, width: width, height: height, fps: frameRate, settings: encoderSettings,
                                         audioSettings: holdsSound ? audioSettings : nil, hls: hls)
    }

    /// A `MovieMaker` writing this composition as an HLS stream into `folder`, in segments of
    /// `segmentDuration` (`MovieMaker(hlsIn:…)`), its chapters in `chapters.vtt` beside the playlist.
    package func makeMovie(hlsIn folder: URL, segmentDuration: Time) throws(MovieMakerError) -> MovieMaker {
        try withChapters(MovieMaker(hlsIn: folder, width: width, height: height, fps: frameRate, segmentDuration: segmentDuration,
                                    settings: encoderSettings, audioSettings: audioSettings))
    }

    /// `movie` with this composition's chapters, where its container holds them (animated images do not:
    /// the markers are left out there).
    private func withChapters(_ movie: MovieMaker) throws(MovieMakerError) -> MovieMaker {
        if !chapters.isEmpty, [.mp4, .mov, .mkv, .webm, .hls].contains(movie.container) {
            do { try movie.setChapters(chapters, movieDuration: frameRate.time(ofFrame: frameCount)) } catch {
                movie.cancel()
                throw error
            }
        }
        return movie
    }

    /// Adds the composition to `movie`: the sound track first, then every frame of the picture.
    public func render(into movie: MovieMaker) throws {
        if movie.expectedFrameCount == nil { movie.expectedFrameCount = movie.frameCount + frameCount }
        if let soundtrack {
            if movie.audioCodec != nil { try movie.addAudio(soundtrack) } else { movie.tellSoundLeftOut() }
        }
        try movie.add(picture)
    }

    /// Renders the movie to `url`: written to a hidden file beside it and renamed into place when
    /// complete, so a failed or cancelled render leaves `url` as it was.
    @discardableResult
    public func render(to url: URL, cancellation: CancellationToken? = nil, progress: ((RenderProgress) -> Void)? = nil) throws -> MovieSummary {
        let movie = try makeMovie(at: url)
        movie.cancellation = cancellation
        movie.progressHandler = progress
        do {
            try render(into: movie)
            return try movie.finish()
        } catch {
            movie.cancel()
            throw error
        }
    }

    /// The movie's size, rate and length as `validate`, `--check` and the MCP tools say it: the length
    /// of its whole frames (`640x480 at 15 fps, 2.333 s (35 frames)`), and the length described
    /// when that is not whole frames, since the movie written lasts the former.
    package var lengthDescription: String {
        let written = frameRate.time(ofFrame: frameCount)
        return "\(width)x\(height) at \(frameRate) fps, \(Self.seconds(written)) s (\(frameCount) frames"
            + (written == duration ? ")" : ", the \(Self.seconds(duration)) s described rounded up to whole frames)")
    }

    /// What a platform preset (`--for tiktok`) or the description adds to the encoder: a bit-rate
    /// ceiling and a fixed keyframe interval (`, at most 8000 kb/s, a keyframe every 60 frames`).
    private var encoderLimits: String {
        var parts: [String] = []
        if let bitrate = encoderSettings.bitrate { parts.append("\(bitrate / 1000) kb/s") }
        if let ceiling = encoderSettings.maxBitrate { parts.append("at most \(ceiling / 1000) kb/s") }
        if let k = encoderSettings.keyframeInterval { parts.append("a keyframe every \(k) frames") }
        return parts.map { ", " + $0 }.joined()
    }

    /// The plan as text: the settings, then one line per item (`0.000–3.000 s  tracks[0].items[0]  title "Lisbon"`).
    /// `warnings`: end with the composition's warnings (the MCP tool, which has no standard error; the
    /// CLI prints them there instead, once).
    /// `destination`: the file or HLS folder it would be written to, whose container picks the codec
    /// when the description names none (`.webm` is VP9, not x264).
    package func planDescription(warnings includingWarnings: Bool = true, destination: URL? = nil, hls: Bool = false) -> String {
        let container: Container? = hls ? .hls : destination.flatMap { Container(fileExtension: $0.pathExtension) }
        let codec = (try? container?.videoCodec(encoderSettings.codec, transparency: encoderSettings.transparency,
                                                 fileExtension: destination?.pathExtension ?? "")) ?? encoderSettings.codec ?? .h264
        let quality: String
        switch codec {
        case .gif, .apng, .webp, .png, .proRes4444: quality = ""
        default: quality = encoderSettings.lossless ? (codec == .h264 ? " lossless (qp 0)" : " lossless") : " crf \(encoderSettings.crf(for: codec))"
        }
        let name = codec == .h264 ? "x264" : codec.messageName
        var lines = ["\(lengthDescription); \(name)\(quality) \(encoderSettings.preset.rawValue)\(encoderLimits); video decoders needed: \(videoDecoders)"]
        if let soundtrack {
            let target = soundtrack.loudnessTarget.map { ", normalised to \(SpecObject.show($0)) LUFS" } ?? ""
            lines.append("sound: \(soundtrack.tracks.count) sound\(soundtrack.tracks.count == 1 ? "" : "s") mixed\(target)")
        } else {
            lines.append(audioSettings == nil ? "sound: none" : "sound: the clips' own")
        }
        for item in plan {
            let range = "\(Self.seconds(item.start))–\(Self.seconds(item.start + item.duration)) s"
            let padded = range.padding(toLength: max(range.count, 18), withPad: " ", startingAt: 0)
            var line = "\(padded) \(item.path)  \(item.type) \(item.what)"
            if let name = item.name { line += " (\(name))" }
            if !item.detail.isEmpty { line += "; \(item.detail)" }
            lines.append(line)
        }
        if includingWarnings { lines += warnings.map { "warning: \($0)" } }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ t: Time) -> String { String(format: "%.3f", t.seconds) }
}

// MARK: The compiler

/// Turns a `Timeline` into a `TimelineComposition`: one pass over the tracks, opening and checking
/// every file with the JSON path of the item that names it.
struct TimelineCompiler {
    let timeline: Timeline
    let options: Timeline.RenderOptions
    let rate: FrameRate
    /// The size of the picture items are compiled for: the frame's, or while a split's cell is
    /// compiled, the cell's (`cell`).
    var width: Int
    var height: Int
    /// The rendered frame's size.
    let frameWidth: Int, frameHeight: Int
    /// Output pixels to rendered pixels (¼ in a preview), the same in a cell as in the frame.
    let pixelScale: Double
    /// While a split's cell drawn at its own size is compiled: its rectangle in the frame.
    var cell: Rect?
    var plan: [TimelineComposition.PlannedItem] = []
    var warnings: [String] = []
    var sources: [String: TimelineComposition.SourceTiming] = [:]
    var inputFiles: [URL] = []
    /// The stickers read from files, in order (`TimelineComposition.checkStickers()`).
    var stickerItems: [TimelineComposition.StickerItem] = []
    /// The text slots' values, for `{{name}}`.
    let texts: [String: String]
    /// While a split's cells are compiled: how long a cell without a duration of its own lasts.
    var cellDuration: Time?
    /// The narrations of the audio tracks by id, spoken before anything else is compiled.
    var narrations: [String: PlacedNarration] = [:]
    /// While an overlay item is compiled: where it starts in the movie (captions of a narration follow
    /// the narration wherever the item starts).
    var overlayItemStart = Time.zero
    /// While an item is compiled: where it starts in the movie, when an item needs it (a slideshow cut
    /// on the music's beats); zero otherwise.
    var videoItemStart = Time.zero

    init(timeline: Timeline, options: Timeline.RenderOptions) {
        self.timeline = timeline
        self.options = options
        rate = timeline.output.resolvedFrameRate
        let size = timeline.output.resolvedSize
        if options.preview {
            func quarter(_ side: Int) -> Int { max(16, (side / 4) & ~1) }
            width = quarter(size.width); height = quarter(size.height)
        } else {
            width = size.width; height = size.height
        }
        pixelScale = Double(width) / Double(size.width)
        frameWidth = width; frameHeight = height
        var texts: [String: String] = [:]
        for (name, slot) in timeline.slots where slot.kind == .text {
            if case let .text(t)? = slot.default { texts[name] = t }
        }
        self.texts = texts
    }

    /// The platform preset's safe area in this frame, when there is a preset.
    /// In a split's cell, the part of the frame's safe area the cell holds, in the cell's pixels (nil
    /// when it holds none: the cell is laid out whole).
    var safeArea: Rect? {
        guard let area = timeline.output.preset?.safeArea(width: frameWidth, height: frameHeight) else { return nil }
        guard let cell else { return area }
        let x0 = max(area.minX, cell.minX), y0 = max(area.minY, cell.minY)
        let x1 = min(area.maxX, cell.maxX), y1 = min(area.maxY, cell.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0 - cell.minX, y: y0 - cell.minY, width: x1 - x0, height: y1 - y0)
    }

    /// `clip` (a frame-sized picture: captions, subtitles) shrunk into the preset's safe area, centred
    /// there; `clip` itself without a preset.
    func insideSafeArea(_ clip: Clip) throws(MovieMakerError) -> Clip {
        try TimelineComposition.placing(clip, inside: safeArea, width: width, height: height)
    }

    mutating func compile() throws(MovieMakerError) -> TimelineComposition {
        if timeline.output.preset == nil, let reframe = timeline.output.reframe, let size = timeline.output.size {
            // A size of another shape is kept (a 9:16 window fitted into a 16:9 frame is a choice): said, since
            // `output.reframe` alone makes the frame that shape.
            let shaped = reframe.aspect.frameSize(from: size.width, height: size.height)
            if shaped.width != size.width || shaped.height != size.height {
                warnings.append("output.size \(size) is not output.reframe's \(reframe.aspect) shape: its windows are fitted into a \(size) frame "
                                + "(leave out size for \(reframe.aspect.frameSize(from: 1920, height: 1080).width)x\(reframe.aspect.frameSize(from: 1920, height: 1080).height), or give \(shaped.width)x\(shaped.height))")
            }
        }
        if let preset = timeline.output.preset {
            let size = timeline.output.size, fps = timeline.output.fps
            if let size, size.width != width || size.height != height, !options.preview {
                warnings.append("output.size \(size) is replaced by \(preset.rawValue)'s \(width)x\(height)")
            }
            if let fps, fps != rate {
                warnings.append("output.fps \(fps) is not a rate \(preset.title) takes: \(rate) fps is used")
            }
            if let loudness = timeline.output.audio?.loudness, loudness != preset.loudness {
                func lufs(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e6 ? String(Int(v)) : String(v) }
                warnings.append("output.audio.loudness \(lufs(loudness)) LUFS is replaced by \(preset.rawValue)'s \(lufs(preset.loudness)) LUFS, which its player normalises to")
            }
        }
        var layers: [Clip] = []
        /// Which layers are video tracks: a blurred backdrop is made from their pictures alone.
        var isVideoLayer: [Bool] = []
        var sounds: [(AudioClip, Time, Bool)] = []      // sound, start, ducked
        var pictureTrackDuration = Time.zero
        /// Where the subtitles without a duration of their own end, and the item ending last.
        var subtitlesEnd: (end: Time, path: JSONPath?, what: String) = (.zero, nil, "")
        /// The end of those subtitles and captions, holds included: the movie's length when nothing else has one.
        var textEnd = Time.zero
        /// Where the video tracks end, and the overlay item ending last (it may make the movie longer).
        var videoTracksEnd = Time.zero
        var overlayEnd: (end: Time, path: JSONPath?) = (.zero, nil)
        try speakNarrations()
        for (t, track) in timeline.tracks.enumerated() where track.enabled != false {
            let path = JSONPath().appending("tracks").appending(t)
            switch track.kind {
            case .video:
                let clip = try sequence(track, at: path)
                pictureTrackDuration = Time.max(pictureTrackDuration, clip.duration)
                videoTracksEnd = Time.max(videoTracksEnd, clip.duration)
                layers.append(clip)
                isVideoLayer.append(true)
            case .overlay:
                var placed: [Clip] = []
                var extent = Time.zero
                for (i, item) in track.items.enumerated() where item.enabled != false {
                    let itemPath = path.appending("items").appending(i)
                    let at = item.at?.time(at: rate) ?? .zero
                    overlayItemStart = at
                    videoItemStart = at
                    let compiled = try picture(try timedByNarration(item, start: at, at: itemPath), at: itemPath, onOverlay: true)
                    let clip = compiled.clip
                    placed.append(clip.delayed(by: at))
                    record(item, at: itemPath, start: at, duration: clip.duration, what: compiled.what, detail: compiled.detail)
                    // Subtitles and a transcript's captions without a duration of their own last as long as
                    // their cues or words (captions a hold longer), which may run past the movie (a stray
                    // cue at one hour, the hold after the last word): they do not make the movie longer.
                    if case let .subtitles(sub) = item.content, sub.duration == nil {
                        textEnd = Time.max(textEnd, at + clip.duration)
                        if at + clip.duration > subtitlesEnd.end { subtitlesEnd = (at + clip.duration, itemPath, "subtitles' cues") }
                    } else if case let .captions(captions) = item.content, captions.duration == nil, captions.narration == nil {
                        // Only words past the end are worth a warning, not the hold. (A narration's captions
                        // last as long as it speaks, which the movie plays out.)
                        textEnd = Time.max(textEnd, at + clip.duration)
                        let words = at + clip.duration - (captions.hold?.time(at: rate) ?? CaptionStyle().hold)
                        if words > subtitlesEnd.end { subtitlesEnd = (words, itemPath, "captions' words") }
                    } else {
                        extent = Time.max(extent, at + clip.duration)
                        if at + clip.duration > overlayEnd.end { overlayEnd = (at + clip.duration, itemPath) }
                    }
                }
                let clip = Clip.overlay(placed)
                pictureTrackDuration = Time.max(pictureTrackDuration, extent)
                layers.append(clip)
                isVideoLayer.append(false)
            case .audio:
                for (i, item) in track.items.enumerated() where item.enabled != false {
                    let itemPath = path.appending("items").appending(i)
                    let at = item.at?.time(at: rate) ?? .zero
                    switch try timedByNarration(item, start: at, at: itemPath).content {
                    case let .audio(audio):
                        let (clip, detail) = try sound(audio, at: itemPath)
                        sounds.append((clip, at, audio.ducking ?? audio.isMusic))
                        record(item, at: itemPath, start: at, duration: clip.duration ?? .zero, what: sources[itemPath.description]?.file.lastPathComponent ?? "",
                               detail: detail)
                    case let .narration(n):
                        // A voice: the music ducks under it, it never ducks.
                        let (clip, detail) = try sound(n, at: itemPath)
                        sounds.append((clip, at, false))
                        record(item, at: itemPath, start: at, duration: clip.duration ?? .zero, what: "\"\(n.id)\"", detail: detail)
                    default:
                        continue
                    }
                }
            }
        }
        let duration = timeline.output.duration?.time(at: rate) ?? (pictureTrackDuration > .zero ? pictureTrackDuration : textEnd)
        // An overlay (a sticker's default 3 s, an `at` past the clips) that outlasts the video tracks makes
        // the movie longer, over the bare canvas: said, unless output.duration sets the length.
        if timeline.output.duration == nil, videoTracksEnd > .zero, let path = overlayEnd.path, overlayEnd.end > videoTracksEnd {
            warnings.append("\(path): ends at \(TimelineComposition.seconds(overlayEnd.end)) s, after the video tracks end at "
                            + "\(TimelineComposition.seconds(videoTracksEnd)) s: the movie runs on over the bare canvas (give the item a shorter duration, "
                            + "or set output.duration)")
        }
        if let path = subtitlesEnd.path, subtitlesEnd.end > duration {
            warnings.append("\(path): the \(subtitlesEnd.what) run to \(TimelineComposition.seconds(subtitlesEnd.end)) s, past the movie's end at "
                            + "\(TimelineComposition.seconds(duration)) s: those after it are cut (give the item a duration, or output.duration, to say otherwise)")
        }
        guard duration > .zero else {
            throw .invalidDescription(JSONPath().appending("tracks"),
                                      "the movie would last 0 seconds: add a video or overlay track with at least one item, or give output.duration")
        }
        guard duration <= Timeline.TimeValue.maximum else {
            throw .invalidDescription(JSONPath().appending("tracks"), "the movie would last \(TimelineComposition.seconds(duration)) s, more than 24 hours: shorten it")
        }
        if let preset = timeline.output.preset, preset.maximumDuration < duration {
            throw .invalidDescription(JSONPath().appending("output").appending("preset"),
                                      "the movie lasts \(TimelineComposition.seconds(duration)) s, and \(preset.title) takes at most \(TimelineComposition.seconds(preset.maximumDuration)) s (\(preset.rawValue)): shorten it (output.duration) or choose another preset")
        }
        // An item that starts where the movie has ended (an `at` past output.duration) is neither seen
        // nor heard: said, as markers past the end are.
        for item in plan where item.start >= duration {
            warnings.append("\(item.path): starts at \(TimelineComposition.seconds(item.start)) s, at or after the movie's end at "
                            + "\(TimelineComposition.seconds(duration)) s: it is not seen or heard (move its at, or lengthen output.duration)")
        }
        // Sounds play at most to the movie's end (a looped music bed has no end of its own).
        plan = plan.map { item in
            guard item.start + item.duration > duration else { return item }
            return TimelineComposition.PlannedItem(path: item.path, type: item.type, name: item.name, start: item.start,
                                                   duration: Time.max(.zero, duration - item.start), what: item.what, detail: item.detail)
        }
        let backgroundPath = JSONPath().appending("output").appending("background")
        let background = try color(timeline.output.background, at: backgroundPath) ?? .black
        var film: Clip
        switch timeline.output.backdrop {
        case nil:
            film = Clip.overlay([Clip.color(background, duration: duration)] + layers)
        case .blur(let radius)?:
            // The backdrop is the video tracks' picture alone, enlarged and blurred: titles, subtitles and
            // stickers on overlay tracks are never in it, and where no video shows the background is the
            // plain colour. Video tracks are usually below every overlay track: then they are drawn once,
            // with the backdrop behind them; otherwise the backdrop goes at the bottom and every layer is
            // drawn over it in its own order.
            let blurRadius = (radius ?? 0.04 * Double(timeline.output.resolvedSize.height)) * pixelScale
            let videoLayers = zip(layers, isVideoLayer).filter(\.1).map(\.0)
            let videoFirst = isVideoLayer.prefix(videoLayers.count).allSatisfy { $0 }
            if videoLayers.isEmpty {
                film = Clip.overlay([Clip.color(background, duration: duration)] + layers)
            } else if videoFirst {
                let backdropped = Clip.overlay(videoLayers).filtered([.backdrop(blurRadius: blurRadius)])
                film = Clip.overlay([Clip.color(background, duration: duration), backdropped] + layers.dropFirst(videoLayers.count))
            } else {
                let backdropped = Clip.overlay(videoLayers).filtered([.backdrop(blurRadius: blurRadius)])
                film = Clip.overlay([Clip.color(background, duration: duration), backdropped] + layers)
            }
        case let backdrop?:
            film = Clip.overlay([try self.backdrop(backdrop, duration: duration, at: backgroundPath)] + layers)
        }
        if film.duration > duration { film = film.trimmed(to: duration) }

        // The sound: the clips' own, or one mix with the audio tracks (music ducked under the clips).
        var soundtrack: AudioMix? = nil
        var audioOptions = timeline.output.audio
        if let preset = timeline.output.preset {
            // The platform's loudness, which its player normalises to.
            var audio = audioOptions ?? Timeline.AudioOptions()
            audio.loudness = preset.loudness
            audioOptions = audio
        }
        let clipSounds = film.sounds.filter(\.isHeard)
        if !sounds.isEmpty || audioOptions?.loudness != nil {
            var ducking = AudioMix.Ducking()
            if let d = audioOptions?.ducking {
                let standard = AudioMix.Ducking()
                ducking = AudioMix.Ducking(depth: d.depth ?? standard.depth, attack: d.attack?.time(at: rate) ?? standard.attack,
                                           release: d.release?.time(at: rate) ?? standard.release, hold: d.hold?.time(at: rate) ?? standard.hold)
                do { try ducking.validate() } catch { throw error.located(jsonPath: "output.audio.ducking") }
            }
            // Ducked music dips under every other sound: the clips' own and the audio items that do not duck.
            let ducks = sounds.contains { $0.2 }
            let items = sounds.map { (clip, start, ducked) in AudioMix.Track(clip, at: start, role: ducked ? .ducked : ducks ? .sidechain : .unaffected) }
            let mix = AudioMix(soundOf: film, adding: items, ducking: ducking, normalizedTo: audioOptions?.loudness)
            if !mix.tracks.isEmpty {
                soundtrack = mix
                film = film.withoutSounds()
            }
        }
        let hasSound = soundtrack != nil || !clipSounds.isEmpty

        var settings = EncoderSettings()
        let encoder = timeline.output.encoder
        // A bit depth the description's own codec does not take, said at its key (`--codec` or
        // `--bit-depth` given for the render replace them, and are checked as options).
        if options.codec == nil, options.bitDepth == nil, let codec = encoder?.codec, let depth = encoder?.bitDepth,
           !codec.bitDepths.contains(depth), !(depth == 8 && codec == .proRes4444) {
            throw .invalidDescription(JSONPath().appending("output").appending("encoder").appending("bitDepth"),
                                      "\(depth)-bit needs hevc or av1; \(codec.messageName) is written at \(codec.bitDepths.map(String.init).joined(separator: " or ")) bits: "
                                      + "remove \"bitDepth\", or set \"codec\": \"hevc\"")
        }
        settings.codec = options.codec ?? encoder?.codec
        settings.bitDepth = options.bitDepth ?? encoder?.bitDepth ?? 8
        settings.crf = options.crf ?? encoder?.crf
        settings.preset = options.preset ?? (options.preview ? .veryfast : encoder?.preset ?? settings.preset)
        settings.keyframeInterval = encoder?.keyframeInterval
        if let preset = timeline.output.preset {
            // Capped so that no second of video exceeds the platform's ceiling, a keyframe every 2 seconds.
            settings.maxBitrate = preset.encoderMaxBitrate
            settings.bufferSize = preset.encoderBufferSize
            settings.keyframeInterval = encoder?.keyframeInterval ?? max(1, rate.frameCount(for: Time(value: Int64(preset.keyframeSeconds), timescale: 1)))
        }
        settings.lossless = options.lossless || encoder?.lossless == true
        let overrides = options.imageOverrides, defaults = AnimatedImageSettings()
        settings.animatedImage = AnimatedImageSettings(
            palette: overrides.palette ?? encoder?.palette ?? defaults.palette, dither: overrides.dither ?? encoder?.dither ?? defaults.dither,
            colors: overrides.colors ?? encoder?.colors ?? defaults.colors, plays: overrides.plays ?? encoder?.plays ?? defaults.plays,
            webpQuality: overrides.quality ?? encoder?.quality ?? defaults.webpQuality, maxFileSize: overrides.maxSize ?? encoder?.maxSize)
        settings.drawingThreads = options.drawingThreads
        let decoders = RenderSession.busiestVideoTime(in: film)?.files.count ?? 0
        settings.videoDecoderLimit = max(EncoderSettings.defaultVideoDecoderLimit, decoders)
        let audioSettings = hasSound ? AudioSettings(bitRate: audioOptions?.bitrate ?? AudioSettings().bitRate) : nil

        var hash = SHA256()
        hash.update(Data(((try? timeline.jsonText()) ?? "unwritable \(UUID())").utf8))
        hash.update(Data("\nmedia \(options.mediaFolder.standardizedFileURL.path)\npreview \(options.preview) \(width)x\(height)\ngenerators \(options.generators.names.sorted())".utf8))
        var chapters: [Chapter] = []
        for marker in timeline.markers.sorted(by: { $0.at.time(at: rate) < $1.at.time(at: rate) }) {
            let start = marker.at.time(at: rate)
            if !(start < duration) {
                warnings.append("the marker \"\(marker.name)\" at \(TimelineComposition.seconds(start)) s is at or after the movie's end (\(TimelineComposition.seconds(duration)) s): it is not a chapter")
            } else if let last = chapters.last, last.start == start {
                warnings.append("the markers \"\(last.title)\" and \"\(marker.name)\" are at the same time (\(TimelineComposition.seconds(start)) s): only the first is a chapter")
            } else {
                chapters.append(Chapter(marker.name.isEmpty ? "Chapter \(chapters.count + 1)" : marker.name, at: start))
            }
        }
        return TimelineComposition(width: width, height: height, frameRate: rate, duration: duration, encoderSettings: settings,
                                   audioSettings: audioSettings, picture: film, soundtrack: soundtrack, plan: plan,
                                   videoDecoders: decoders, warnings: warnings, chapters: chapters, sources: sources, inputFiles: inputFiles,
                                   descriptionHash: hash.hexDigest(), stickers: stickerItems, safeArea: safeArea)
    }

    mutating func record(_ item: Timeline.Item, at path: JSONPath, start: Time, duration: Time, what: String, detail: String) {
        // A picture shorter than a frame ("1/1000s" for "1s") is on one frame at most, or none: said.
        // (A sound is sample-exact, and a gap shows nothing anyway.)
        switch item.content {
        case .audio, .narration, .gap: break
        default:
            if duration > .zero, duration < rate.frameDuration {
                // A clip cut from a file's last moments ("in" near its end) cannot be lengthened: say so.
                let fix: String
                if case let .video(v) = item.content, v.`in` != nil, v.duration == nil {
                    fix = "move \"in\" earlier, so more of the file is left to play"
                } else {
                    fix = "give it a longer duration"
                }
                warnings.append("\(path): lasts \(TimelineComposition.seconds(duration)) s, less than a frame at \(rate) fps "
                                + "(\(TimelineComposition.seconds(rate.frameDuration)) s): it is seen on one frame at most; \(fix)")
            }
        }
        plan.append(TimelineComposition.PlannedItem(path: path.description, type: item.typeName, name: item.label, start: start,
                                                    duration: duration, what: what, detail: detail))
    }

    // MARK: Video tracks

    mutating func sequence(_ track: Timeline.Track, at path: JSONPath) throws(MovieMakerError) -> Clip {
        var clips: [Clip] = []
        var transitions: [Transition?] = []
        var described: [(Timeline.Item, JSONPath, String, String)] = []
        for (i, item) in track.items.enumerated() {
            let itemPath = path.appending("items").appending(i)
            var item = item
            if item.endsAt != nil {
                // Where the item starts: after the items before it, less the transition into it.
                let start = Clip.Track(clips + [Clip.empty(duration: Timeline.TimeValue.maximum)], transitions: transitions).starts[i]
                item = try timedByNarration(item, start: start, at: itemPath)
            }
            videoItemStart = .zero
            if case let .slideshow(show) = item.content, show.cutOn != nil {
                videoItemStart = Clip.Track(clips + [Clip.empty(duration: Timeline.TimeValue.maximum)], transitions: transitions).starts[i]
            }
            var compiled: CompiledItem
            if item.enabled == false, let length = Self.declaredLength(of: item)?.time(at: rate) {
                // A disabled clip whose length is written down keeps its place without its file being
                // opened (it may be missing: that is often why it was disabled).
                compiled = CompiledItem(clip: Clip.empty(duration: length), what: "", detail: "disabled: a gap")
            } else {
                compiled = try picture(item, at: itemPath, onOverlay: false)
                if item.enabled == false { compiled.clip = Clip.empty(duration: compiled.clip.duration); compiled.detail = "disabled: a gap" }
            }
            clips.append(compiled.clip)
            described.append((item, itemPath, compiled.what, compiled.detail))
            if i + 1 < track.items.count {
                transitions.append(try item.transition.flatMap { t throws(MovieMakerError) in try transition(t, at: itemPath.appending("transition")) })
            }
        }
        let laidOut = Clip.Track(clips, transitions: transitions)
        for (i, (item, itemPath, what, detail)) in described.enumerated() {
            var detail = detail
            if i < transitions.count, let asked = transitions[i] {
                let used = laidOut.transitions[i]?.duration ?? .zero
                detail += (detail.isEmpty ? "" : "; ") + "\(asked.name) into the next over \(TimelineComposition.seconds(used)) s"
                if used != asked.duration {
                    warnings.append("\(itemPath.appending("transition")): the \(asked.name) transition lasts \(TimelineComposition.seconds(used)) s, not \(TimelineComposition.seconds(asked.duration)) s: it has to fit in both items")
                }
            }
            record(item, at: itemPath, start: laidOut.starts[i], duration: clips[i].duration, what: what, detail: detail)
        }
        return Clip(.sequence(laidOut))
    }

    /// The transition `t` names, nil for `none` (a cut).
    func transition(_ t: Timeline.TransitionSpec, at path: JSONPath) throws(MovieMakerError) -> Transition? {
        if t.name == "none" { return nil }
        do {
            return try Transition(xfadeName: t.name, duration: t.duration?.time(at: rate) ?? 1, easing: t.easing ?? .linear)
        } catch {
            throw .invalidDescription(path.appending("name"), error.message)
        }
    }

    // MARK: Pictures

    /// What compiling one picture item gives: its clip, and for the plan what it shows (a file name, a
    /// quoted title) and how (Ken Burns, a speed, its filters).
    /// The length a video or photo item states (`duration`), which needs no file to know.
    static func declaredLength(of item: Timeline.Item) -> Timeline.TimeValue? {
        switch item.content {
        case let .video(v): return v.duration
        case let .photo(p): return p.duration
        default: return nil
        }
    }

    struct CompiledItem {
        /// The item's clip.
        var clip: Clip
        /// What it shows, for the plan.
        var what: String
        /// How it shows it, for the plan ("" when there is nothing to say).
        var detail: String
        /// What is drawn over the item after its filters and transform, not through them (a video's
        /// captions), as long as the item.
        var over: Clip? = nil
    }

    /// The clip an item of a video or overlay track shows (through its filters and transform), with
    /// what it shows and how, for the plan.
    mutating func picture(_ item: Timeline.Item, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> CompiledItem {
        var compiled = try pictureContent(item, at: path, onOverlay: onOverlay)
        try edit(&compiled.clip, detail: &compiled.detail, item: item, at: path)
        if let over = compiled.over {
            compiled.clip = Clip.overlay(compiled.clip, over)
            compiled.over = nil
        }
        return compiled
    }

    /// The clip an item's content shows, before its filters and transform.
    mutating func pictureContent(_ item: Timeline.Item, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> CompiledItem {
        try item.content.kind.compile(&self, at: path, onOverlay: onOverlay)
    }


    // MARK: Files, slots, colours, text

    /// The file a source names: a path resolved against the media folder, or the file in a slot; it
    /// must exist. `kinds`: the slot kinds the item takes (checked when read; repeated here for values
    /// built in code). `path` is the source object's (`{"file": …}` or `{"slot": …}`); `fileKey` nil when
    /// the path is given as a plain string there (`"image": "paper.jpg"`), so errors name `path` itself.
    mutating func file(_ source: Timeline.Source, at path: JSONPath, kinds: [Timeline.Slot.Kind], fileKey: String? = "file") throws(MovieMakerError) -> URL {
        let url: URL
        let shownPath: JSONPath
        var slotName: String? = nil
        switch source {
        case let .file(p):
            url = resolve(p)
            shownPath = fileKey.map { path.appending($0) } ?? path
        case let .slot(name):
            slotName = name
            shownPath = path.appending("slot")
            guard let slot = timeline.slots[name] else { throw .invalidDescription(shownPath, "no slot is named \"\(name)\"") }
            guard kinds.contains(slot.kind) else {
                throw .invalidDescription(shownPath, "the slot \"\(name)\" is \(SpecObject.article(slot.kind.rawValue)) slot, but this item takes \(SpecObject.article(SpecObject.list(kinds.map(\.rawValue)))) slot")
            }
            guard let value = slot.default else {
                // --media fills photo, video and media slots only.
                throw .invalidDescription(shownPath, "the slot \"\(name)\" has no default and was not filled: give --slot \(name)=FILE"
                                          + (slot.kind == .audio ? "" : " (or --media FILE…)"))
            }
            guard case let .file(p) = value else {
                throw .invalidDescription(shownPath, "the slot \"\(name)\" holds \(value), not a file")
            }
            url = resolve(p)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            if let slotName {
                // The slot's value (its default, or what --slot gave) names a file that is not there.
                let byMedia = timeline.slots[slotName]?.kind != .audio ? " (or --media FILE…)" : ""
                throw .invalidDescription(shownPath, "no such file: \(url.path), the slot \"\(slotName)\"'s file: "
                                          + "give the slot another with --slot \(slotName)=FILE\(byMedia)", file: url.path)
            }
            throw .invalidDescription(shownPath, "no such file: \(url.path)", file: url.path)
        }
        guard !isDirectory.boolValue else { throw .invalidDescription(shownPath, "\(url.path) is a folder, not a file", file: url.path) }
        if let problem = RegularFile.problem(url.path) {
            throw .invalidDescription(shownPath, "\(url.path): \(problem): name a file", file: url.path)
        }
        if !inputFiles.contains(url) { inputFiles.append(url) }
        return url
    }

    /// Whether FFmpeg opened `video` as a moving picture (a movie, an animated GIF or APNG), not as a
    /// still image it reads as a one-picture stream (`image2`, `png_pipe`, `webp_pipe`…).
    static func isMovie(_ video: VideoFile) -> Bool {
        !video.containerFormat.split(separator: ",").contains { $0 == "image2" || $0.hasSuffix("_pipe") }
    }

    /// `path` as a file URL: absolute as it is, relative from the media folder.
    func resolve(_ path: String) -> URL { Self.resolve(path, from: options.mediaFolder) }

    /// `path` (a description's file path: absolute, `file:` URL, or relative) as a file URL, relative
    /// paths from `folder`.
    static func resolve(_ path: String, from folder: URL) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        if path.hasPrefix("file:"), let url = URL(string: path), url.isFileURL { return url.standardizedFileURL }
        return folder.appendingPathComponent(path).standardizedFileURL
    }

    /// `mediaSlot`: the media slot of a photo item that `url` fills, if it is one.
    func checkPhoto(_ url: URL, at path: JSONPath, isItem: Bool = false, mediaSlot: String? = nil) throws(MovieMakerError) {
        do { _ = try PhotoDecoder.info(url) } catch {
            // A movie where a photo was expected: say so, not the photo folder's advice. (FFmpeg opens
            // many stills as one-picture "videos", an SVG or a JPEG XL: those are not movies.)
            if error.code == .notAnImage, let video = try? VideoFile.probed(url), Self.isMovie(video) {
                if let mediaSlot {
                    throw .invalidDescription(path, "the media slot \"\(mediaSlot)\" holds a video, \(url.path), and a photo item shows only photos: "
                                              + "make the item a video item (\"type\": \"video\"), which shows the slot's photo or video", file: url.path)
                }
                throw .invalidDescription(path, "\(url.path) is a video, not a photo"
                                          + (isItem ? ": show it with a video item (\"type\": \"video\"), or give the item a media slot, which takes either"
                                                    : ": give a photo (JPEG, PNG, WebP, HEIC…)"), file: url.path)
            }
            throw .invalidDescription(path, "\(url.path) cannot be shown as a photo: \(error.message)", file: url.path)
        }
        // Decoded whole at a small size (a JPEG at 1/8 scale in its DCT), as the slideshow command checks
        // its photos: a file cut short or damaged past its header fails here, naming where it is used,
        // not half way through the render.
        do { _ = try PhotoDecoder.decode(url, scaling: .fitting(Size(width: 64, height: 64))) } catch {
            throw .invalidDescription(path, "\(url.path) cannot be shown as a photo: \(error.message)", file: url.path)
        }
    }

    func kenBurnsPath(_ spec: Timeline.KenBurnsSpec?, url: URL, index: Int) throws(MovieMakerError) -> Clip.KenBurnsPath? {
        var settings = Slideshow.KenBurns()
        switch spec {
        case nil, .enabled(false)?: return nil
        case .enabled(true)?: break
        case let .settings(zoom, pan, direction, seed)?:
            settings = Slideshow.KenBurns(zoom: zoom ?? settings.zoom, pan: pan ?? settings.pan, direction: direction ?? settings.direction,
                                          seed: seed ?? settings.seed)
        case let .path(from, to)?:
            return Clip.KenBurnsPath(start: from, end: to)
        }
        var show = Slideshow(photos: [Slideshow.Photo(url: url)])
        show.kenBurns = settings
        let (start, end) = show.kenBurnsRects(for: show.photos[0], index: index)
        return Clip.KenBurnsPath(start: start, end: end)
    }

    /// `value` with every string that is a colour slot's `{{name}}` (at any depth) replaced by the
    /// slot's colour, for parameters the compiler hands on as JSON (a filter's, a generator's):
    /// a colour slot goes wherever a colour does. Other strings are left for their reader.
    func fillingColorSlots(_ value: JSONValue, at path: JSONPath) throws(MovieMakerError) -> JSONValue {
        switch value {
        case let .string(text):
            let written = Timeline.ColorText(text)
            guard let name = written.slotName, timeline.slots[name]?.kind == .color else { return value }
            return .string(try color(written, at: path)!.hexString)
        case let .array(elements):
            var filled: [JSONValue] = []
            for (i, element) in elements.enumerated() { filled.append(try fillingColorSlots(element, at: path.appending(i))) }
            return .array(filled)
        case let .object(members):
            var filled: [String: JSONValue] = [:]
            for (key, member) in members { filled[key] = try fillingColorSlots(member, at: path.appending(key)) }
            return .object(filled)
        default:
            return value
        }
    }

    /// A colour as written: CSS, or `{{slot}}` taking the colour slot's value. Nil for nil.
    func color(_ text: Timeline.ColorText?, at path: JSONPath) throws(MovieMakerError) -> Color? {
        guard var text else { return nil }
        if let name = text.slotName {
            guard let slot = timeline.slots[name], slot.kind == .color else {
                throw .invalidDescription(path, "{{\(name)}} names no color slot")
            }
            guard case let .color(value)? = slot.default else {
                throw .invalidDescription(path, "the color slot \"\(name)\" has no default and was not filled: give --slot \(name)=COLOR")
            }
            text = value
        }
        do { return try Color(css: text.text) } catch {
            throw .invalidDescription(path, "must be a colour such as \"#ff8000\", \"tomato\" or \"rgb(255, 128, 0)\", got \"\(text.text)\"")
        }
    }

    /// `text` with its `{{name}}` placeholders replaced by the text slots' values.
    func interpolate(_ text: String, at path: JSONPath) throws(MovieMakerError) -> String {
        let pieces = Timeline.pieces(of: text)
        for name in pieces.names where texts[name] == nil {
            guard let slot = timeline.slots[name], slot.kind == .text else {
                throw .invalidDescription(path, "{{\(name)}} names no text slot: declare \"\(name)\" under \"slots\" with \"kind\": \"text\"")
            }
            throw .invalidDescription(path, "the text slot \"\(name)\" has no default and was not filled: give --slot \(name)=TEXT")
        }
        // The size is known before the text is built: a title of a million characters is refused
        // without making it first.
        let estimate = pieces.filledLength(texts)
        guard estimate <= Timeline.maximumTitleTextLength + pieces.pieces.count else {
            throw .invalidDescription(path, "a text may have at most \(Timeline.maximumTitleTextLength) characters, got \(estimate)"
                                      + (pieces.names.isEmpty ? "" : " once its {{slots}} are filled") + ": a title or caption shows a few lines")
        }
        let filled = pieces.filled(texts)
        let length = filled.count
        guard length <= Timeline.maximumTitleTextLength else {
            throw .invalidDescription(path, "a text may have at most \(Timeline.maximumTitleTextLength) characters, got \(length)"
                                      + (filled == text ? "" : " once its {{slots}} are filled") + ": a title or caption shows a few lines")
        }
        return filled
    }
}

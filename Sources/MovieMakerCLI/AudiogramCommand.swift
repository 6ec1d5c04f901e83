import ArgumentParser
import Foundation
import MovieMaker

extension AudioVisualizer.Style: ExpressibleByArgument {}
extension AudioVisualizer.WaveformShape: ExpressibleByArgument {}

/// `moviemaker audiogram`: a podcast clip as a video, in one command.
struct AudiogramCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiogram",
        abstract: "Turn a sound (a podcast, a voice memo, a song) into a video: its spectrum or waveform moving with it, a cover, a title and word-by-word captions.",
        discussion: """
            The picture: the cover (--image) on its own blurred copy, the title under it, the sound's \
            spectrum (or waveform, level meter, circle) moving in sync with it, and the captions of \
            --captions at the bottom. Square (1080x1080, the default) and vertical (1080x1920) sizes \
            lay out the same way. The sound is the file's own, from --from to --to, normalised to \
            −16 LUFS unless --no-normalize.

            Examples:
              moviemaker audiogram episode12.mp3 --title "Episode 12" --size 360x360 \\
                -o clip.mp4
              moviemaker audiogram episode12.mp3 --title "Episode 12" --image cover.jpg \\
                --captions talk.json --size 360x640 --from 0:02 --to 0:06 -o vertical.mp4
              moviemaker audiogram memo.m4a --style circle --color "#00e5ff" \\
                --size 360x360 -o memo.mp4
            """)

    /// The sound.
    @Argument(help: ArgumentHelp("The sound: an audio file (MP3, M4A, WAV, FLAC, Opus…) or a video with sound.", valueName: "audio"))
    var audio: String

    /// The title.
    @Option(help: ArgumentHelp("A title under the cover (the episode's name).", valueName: "text"))
    var title: String?

    /// The cover picture.
    @Option(help: ArgumentHelp("A cover picture (JPEG, PNG, HEIC…), shown whole over a blurred copy of itself.", valueName: "file"))
    var image: String?

    /// Word-by-word captions.
    @Option(help: ArgumentHelp("Word-by-word captions from a transcript of the sound (whisper JSON, whisper.cpp JSON, karaoke WebVTT, SRT), timed from the sound's start (not from --from).",
                               valueName: "file"))
    var captions: String?

    /// How captions mark the spoken word.
    @Option(help: ArgumentHelp("How captions mark the spoken word: highlight, karaoke, pop, reveal or bounce.", valueName: "name"))
    var captionStyle: CaptionStyle.Animation = .pop

    /// What is drawn.
    @Option(help: ArgumentHelp("What moves with the sound: spectrum, waveform, level or circle.", valueName: "style"))
    var style: AudioVisualizer.Style = .spectrum

    /// A waveform's shape.
    @Option(help: ArgumentHelp("A waveform's shape: line, bars or mirrored.", valueName: "shape"))
    var shape: AudioVisualizer.WaveformShape = .mirrored

    /// The bars' colour.
    @Option(help: ArgumentHelp("The bars' colour (CSS). (default: #ffb703)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var color: Color = Color(hex: 0xFFB703)

    /// The background.
    @Option(help: ArgumentHelp("The background colour (CSS), under the blurred cover. (default: #14213d)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var background: Color = Color(hex: 0x14213D)

    /// Where the clip starts in the sound.
    @Option(help: ArgumentHelp("Where the clip starts in the sound: seconds (90, 12.5) or minutes:seconds (1:30). (default: the start)", valueName: "time"),
            transform: { (text: String) throws -> Time in try ClockTimeArgument.parse(text) })
    var from: Time?

    /// Where the clip ends in the sound.
    @Option(help: ArgumentHelp("Where the clip ends in the sound, as --from. (default: the end)", valueName: "time"),
            transform: { (text: String) throws -> Time in try ClockTimeArgument.parse(text) })
    var to: Time?

    /// Frame size.
    @Option(help: ArgumentHelp("Frame size, WIDTHxHEIGHT: 1080x1080 (square), 1080x1920 (vertical), 1920x1080… (default: 1080x1080)", valueName: "WxH"),
            transform: { (text: String) throws -> FrameSize in try FrameSize.parse(text) })
    var size: FrameSize = try! FrameSize.parse("1080x1080")

    /// Frame rate.
    @Option(help: ArgumentHelp("Frames per second. (default: 30)", valueName: "rate"),
            transform: { (text: String) throws -> FrameRate in try FrameRateArgument.parse(text) })
    var fps: FrameRate = 30

    /// Loudness normalisation.
    @Flag(inversion: .prefixedNo, help: "Normalise the sound to −16 LUFS (podcast loudness).")
    var normalize = true

    @OptionGroup var quality: EncoderQualityOptions
    @OptionGroup(title: "Output") var output: SoundMovieOutputOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        try quality.checkBitDepth()
        for (flag, file) in [("", audio), ("--image ", image), ("--captions ", captions)] {
            guard let file else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InputError("\(flag)\(file): no such file")
            }
        }
        if let to, from == nil, to <= .zero {
            throw ValidationError("--to \(to.seconds) s: give a time after the start, e.g. --to 30")
        }
        if let from, let to, to <= from {
            throw ValidationError("--to \(to.seconds) s is not after --from \(from.seconds) s: give a --to later than --from")
        }
        for path in [audio, image, captions].compactMap({ $0 }) where FileIdentity.same(output.output, path) {
            throw InputError("-o \(output.output) is \(path), an input: choose another destination")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: audio)
        let sound: AudioFile
        do { sound = try AudioFile(url: url) } catch {
            throw InputError("\(audio): \(error.message)")
        }
        guard let length = sound.duration, length > .zero else { throw InputError("\(audio): the sound has no length") }
        let start = from ?? .zero
        let end = to ?? length
        guard start < length else {
            throw ValidationError("--from \(start.seconds) s is at or past the end of \(url.lastPathComponent), which lasts \(String(format: "%.3f", length.seconds)) s")
        }
        guard end <= length else {
            throw ValidationError("--to \(end.seconds) s is past the end of \(url.lastPathComponent), which lasts \(String(format: "%.3f", length.seconds)) s")
        }
        let words = try captions.map { try Transcript(contentsOf: URL(fileURLWithPath: $0)) }
        // Decoded to the frame's size (EXIF orientation and colour profile applied), as photos are.
        let cover = try image.map { (path: String) throws -> Image in
            do { return try PhotoDecoder.decode(URL(fileURLWithPath: path), fitting: Size(width: Double(size.width), height: Double(size.height))).image } catch {
                throw InputError("--image \(path): \((error as? MovieMakerError)?.message ?? "\(error)")")
            }
        }
        let duration = end - start
        let (width, height) = (size.width, size.height)

        // The still part, drawn once: the background, the blurred cover filling the frame, the cover, the title.
        let layout = AudiogramLayout(width: Double(width), height: Double(height), hasCover: cover != nil, hasTitle: title != nil)
        let backdrop = try Canvas(width: width, height: height)
        try backdrop.draw { ctx in
            ctx.clear(background)
            if let cover {
                ctx.withBlur(radius: Double(min(width, height)) * 0.04) { ctx.draw(cover, in: ctx.bounds, fit: .fill, opacity: 0.45) }
                ctx.draw(cover, in: layout.cover, fit: .fit)
            }
            if let title {
                let style = TextStyle(font: TextFont(family: "DejaVu Sans", size: layout.titleSize, weight: .bold), color: .white, alignment: .center)
                try ctx.draw(title, in: layout.title, style: style, verticalAlignment: .center)
            }
        }
        let still = try backdrop.makeImage()
        var picture = Clip(duration: duration) { ctx, _ in ctx.draw(still, in: ctx.bounds) }
        let visualizer = AudioVisualizer(style, waveformShape: shape, color: color, barCount: style == .circle ? 64 : 48,
                                         area: layout.visualizer)
        picture = Clip.overlay(picture, try Clip.audiogram(of: sound, from: start, visualizer: visualizer, duration: duration))
        if let words {
            // The transcript is timed from the sound's start: the clip shows its words from --from on.
            let shifted = Transcript(words: words.words.compactMap { w in
                w.end > start && w.start < end ? TranscriptWord(w.text, start: Time.max(.zero, w.start - start), end: w.end - start) : nil })
            var captionStyle = CaptionStyle(captionStyle, highlightColor: color)
            captionStyle.position = .point(Point(x: 0.5, y: layout.captionsCentre))
            picture = picture.captioned(shifted, style: captionStyle)
        }
        var clipSound = AudioClip(sound)
        clipSound.trim(from: start, to: end)
        clipSound.fadeIn(over: AudioClip.minimumCrossfade)
        clipSound.fadeOut(over: AudioClip.minimumCrossfade)

        let reporter = ProgressReporter(label: "audiogram", output: output.output, options: progress)
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: output.url, width: width, height: height, fps: fps, settings: quality.encoderSettings())
        }
        try reporter.render(movie) {
            if normalize {
                try movie.addAudio(AudioMix([AudioMix.Track(clipSound, role: .unaffected)], loudnessTarget: -16))
            } else {
                try movie.addAudio(clipSound)
            }
            try movie.add(picture)
        }
    }
}

/// Where an audiogram's parts go in a frame of any proportions.
struct AudiogramLayout {
    /// The cover's square, the title's band and the visualizer's area (fractions of the frame), the
    /// captions' centre (fraction of the height) and the title's font size (pixels).
    let cover: Rect, title: Rect, visualizer: Rect, captionsCentre: Double, titleSize: Double

    init(width: Double, height: Double, hasCover: Bool, hasTitle: Bool) {
        let vertical = height > width * 1.2
        let side = min(width * (vertical ? 0.7 : 0.5), height * 0.42)
        let top = height * (vertical ? 0.12 : 0.07)
        cover = Rect(x: (width - side) / 2, y: top, width: side, height: hasCover ? side : 0)
        titleSize = max(12, height * (vertical ? 0.032 : 0.045))
        let titleTop = hasCover ? cover.maxY + height * 0.02 : top
        title = Rect(x: width * 0.08, y: titleTop, width: width * 0.84, height: hasTitle ? titleSize * 2.6 : 0)
        if !hasCover && !hasTitle {
            // Nothing above it: the visualizer takes the middle of the frame, larger, not a band at the top.
            visualizer = Rect(x: 0.08, y: 0.32, width: 0.84, height: 0.3)
        } else {
            let barsTop = (title.maxY + height * 0.03) / height
            visualizer = Rect(x: 0.08, y: barsTop, width: 0.84, height: min(0.2, max(0.08, 0.86 - barsTop - 0.16)))
        }
        captionsCentre = min(0.9, visualizer.maxY + 0.09)
    }
}

/// Reads times into a sound: seconds (`90`, `12.5`, `0`) or `minutes:seconds` (`1:30`, `12:05.5`), or
/// `hours:minutes:seconds`.
enum ClockTimeArgument {
    static func parse(_ text: String) throws(ArgumentValueError) -> Time {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        let expected = "expected a time into the sound: seconds (90, 12.5) or minutes:seconds (1:30)"
        guard (1...3).contains(parts.count) else { throw ArgumentValueError(expected) }
        var seconds = 0.0
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isNumber || (isLast && $0 == ".") }), let value = Double(part) else {
                throw ArgumentValueError(expected)
            }
            // Minutes and seconds after the first field are below 60.
            if i > 0, value >= 60 { throw ArgumentValueError(expected) }
            seconds = seconds * 60 + value
        }
        guard seconds <= 86_400 else { throw ArgumentValueError("a time of at most 24 hours: \(expected)") }
        return Time(roundTripping: seconds)
    }
}

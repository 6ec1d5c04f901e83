import ArgumentParser
import Foundation
import MovieMaker

/// The entrance styles `--style` accepts.
enum TitleStyleArgument: String, ExpressibleByArgument, CaseIterable {
    case fade, slide, typewriter, pop, letters, words, blur, none

    /// The animation for this style, lasting `duration` seconds (the style's own default when nil).
    func animation(duration: Double?, from edge: Edge) -> TitleAnimation {
        // The same names as a description file's title styles.
        var a = Timeline.TitleStyle(rawValue: rawValue)!.animation(from: edge)
        if let duration {
            // The seconds initializer keeps the exact time that reads back as `duration`.
            a = TitleAnimation(a.style, duration: duration, easing: a.easing, cascade: a.cascade.seconds)
        }
        return a
    }
}

extension Edge: ExpressibleByArgument {}

/// Full screen or lower third, as `--layout` spells them.
enum TitleLayoutArgument: String, ExpressibleByArgument, CaseIterable {
    case full, lowerThird = "lower-third"
}

/// `moviemaker title`: an animated title card as a movie, a transparent overlay or a still.
struct TitleCommand: RenderingCommand {
    static let configuration = CommandConfiguration(
        commandName: "title",
        abstract: "Render an animated title card (movie, transparent overlay, or one frame as PNG).",
        discussion: """
            Text is laid out by Pango, so every script works (Arabic and Hebrew right to left, CJK, \
            colour emoji) with the fonts installed (list them with: fc-list : family). The text \
            shrinks to fit the title-safe area.

            Transparent output (--transparent) keeps only the text: .mov is written as ProRes 4444, \
            .webm as VP9 with alpha, and a .png keeps its alpha channel.

            Examples:
              moviemaker title "Release 2.4" --subtitle "What's new" -d 2 -o title.mp4
              moviemaker title "Release 2.4" --style pop --transparent -d 2 -o title.mov
              moviemaker title "Jane Doe" --subtitle Director --layout lower-third \\
                --transparent --size 480p -o name.webm
              moviemaker title "Jane Doe" --layout lower-third --transparent -o name.png
              moviemaker title "Release 2.4" --still 1.5 -o frame.png
              moviemaker title "Jane Doe" --layout lower-third --size 720p --duration 2 \\
                --background-video interview.mp4 -o name.mp4
              moviemaker title --batch people.csv --subtitle "{role}" \\
                --layout lower-third --output-pattern '{name}.mp4'

            --batch renders one movie per row of a CSV file (or a .jsonl file, one object per line, its \
            keys in the order written being the columns) in one process (fonts and encoders set up \
            once, --jobs rows at a time). The file's first row names the columns; {column} in the title, \
            --subtitle, --body and --output-pattern is replaced by the row's value, {row} by its number. \
            Without a title argument the title is the "title" column, or else the first column. Every \
            row is checked (placeholders, destinations, duplicates) before the first movie starts; a \
            row that fails is reported and the others are still rendered (exit status 1 if any failed).

            A still (--still, or -o frame.png) is exactly the movie's frame at that time: with \
            --layout lower-third the frame is black outside the band unless --background-image or \
            --background-video puts something behind it.
            """)

    /// The title text (with `--batch`, a template, or left out to take a column).
    @Argument(help: ArgumentHelp("The title text. With --batch it may hold {column} placeholders, or be left out (then: the title column, or else the first).",
                                 valueName: "title"))
    var title: String?

    /// Optional subtitle.
    @Option(help: "A smaller line under the title.")
    var subtitle: String?

    /// Optional body text.
    @Option(help: "Paragraph text under the subtitle, wrapped to fit.")
    var body: String?

    /// Length of the card.
    @Option(name: [.short, .long], help: ArgumentHelp("Length in seconds, e.g. 4, 2.5 or 1500ms. (default: 4)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var duration: Time = 4

    /// Entrance style.
    @Option(help: ArgumentHelp("How the text comes on: \(TitleStyleArgument.allCases.map(\.rawValue).joined(separator: ", ")).",
                               valueName: "style"))
    var style: TitleStyleArgument = .fade

    /// Exit style.
    @Option(help: ArgumentHelp("How the text goes off (the same styles, played backwards).", valueName: "style"))
    var exitStyle: TitleStyleArgument = .fade

    /// The edge a slide comes from.
    @Option(help: ArgumentHelp("Where --style slide comes from: top, bottom, left, right.", valueName: "edge"))
    var from: Edge = .bottom

    /// A slide over a distance instead of from beyond the edge.
    @Option(help: ArgumentHelp("With --style slide: slide this many pixels (at 1080 lines, scaled to --size) into place instead of from beyond the frame's edge, e.g. 60.",
                               valueName: "px"))
    var slideDistance: Double?

    /// Entrance duration override.
    @Option(help: ArgumentHelp("Seconds the entrance takes (default: the style's own, 0.6–1.5 s).", valueName: "seconds"))
    var entranceDuration: Double?

    /// Easing override.
    @Option(help: ArgumentHelp("Easing of the entrance: a CSS timing function (ease-out, cubic-bezier(0.2,0,0,1), steps(4)) or a name like backOut.", valueName: "easing"),
            transform: { (text: String) throws -> Easing in try Easing(named: text) })
    var easing: Easing?

    /// Font family.
    @Option(help: ArgumentHelp("Font family, as fc-list names it.", valueName: "family"))
    var font: String = "DejaVu Sans"

    /// A font file instead of a family.
    @Option(help: ArgumentHelp("A .ttf/.otf font file to use instead of an installed family.", valueName: "path"))
    var fontFile: String?

    /// Largest title size (auto-fit may make it smaller).
    @Option(help: ArgumentHelp("Largest title font size in pixels at 1080 lines (scaled to --size; shrunk to fit).", valueName: "px"))
    var fontSize: Double = 120

    /// Text colour.
    @Option(help: ArgumentHelp("Text colour (CSS: #rrggbb, rgb(), hsl() or a name). (default: white)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var color: Color = .white

    /// Background colour.
    @Option(help: ArgumentHelp("Background colour (CSS). Ignored with --transparent. (default: #101820)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var background: Color = Color(red8: 0x10, green8: 0x18, blue8: 0x20)

    /// A picture behind the card.
    @Option(help: ArgumentHelp("A photo or picture (any format slideshows read) behind the card, filling the frame by --background-fit; a lower third's band is drawn over it.",
                               valueName: "file"))
    var backgroundImage: String?

    /// A video behind the card.
    @Option(help: ArgumentHelp("A video behind the card, filling the frame by --background-fit, looped or cut to --duration, with its own sound; a lower third's band is drawn over it.",
                               valueName: "file"))
    var backgroundVideo: String?

    /// How the background picture or video fills the frame.
    @Option(help: ArgumentHelp("How --background-image or --background-video fills the frame: fill (cover, cropping), fit (whole, on --background) or blur.",
                               valueName: "fit"))
    var backgroundFit: Slideshow.Fit = .fill

    /// Layout.
    @Option(help: ArgumentHelp("full (centred) or lower-third (a name band at the bottom left).", valueName: "layout"))
    var layout: TitleLayoutArgument = .full

    /// Transparent output.
    @Flag(help: "Keep only the text (alpha channel): write .mov (ProRes 4444), .webm or .mkv (VP9 alpha), .apng, .webp or .png.")
    var transparent = false

    /// Render one frame instead of a movie.
    @Option(help: ArgumentHelp("Render only the frame at this time (seconds) to the -o .png file.", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try TimeArgument.parse(text) })
    var still: Time?

    @OptionGroup(title: "Output") var output: TitleOutputOptions
    @OptionGroup(title: "Batch") var batching: TitleBatchOptions
    @OptionGroup(title: "Video") var video: VideoOptions
    @OptionGroup(title: "Video") var quality: EncoderQualityOptions
    @OptionGroup(title: "Video") var animatedImage: AnimatedImageOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    /// `-o`, or with `--batch` the `--output-pattern`.
    var destination: String { output.output ?? batching.outputPattern ?? "" }
    /// The destination's extension, lowercased (the pattern's, with `--batch`).
    var outputExtension: String { URL(fileURLWithPath: destination).pathExtension.lowercased() }
    /// Whether the destination is a still image.
    var outputIsStill: Bool { OutputOptions.stillExtensions.contains(outputExtension) }

    func validate() throws {
        try quality.checkBitDepth()
        try animatedImage.check(destination: output.output ?? batching.outputPattern, quality: quality)
        if batching.batch != nil {
            guard output.output == nil else {
                throw ValidationError("--batch writes one file per row: give --output-pattern 'out/{name}.mp4' instead of -o \(output.output ?? "")")
            }
            guard let pattern = batching.outputPattern else {
                throw ValidationError("--batch needs --output-pattern, the file each row goes to, e.g. --output-pattern 'out/{name}.mp4'")
            }
            guard OutputOptions.movieExtensions.contains(outputExtension) || outputIsStill else {
                throw ValidationError(MovieMakerError.unsupportedContainer(
                    extension: URL(fileURLWithPath: pattern).pathExtension,
                    supported: OutputOptions.movieExtensions + OutputOptions.stillExtensions).description + " (in --output-pattern \(pattern))")
            }
            if let jobs = batching.jobs, jobs < 1 || jobs > 64 {
                throw ValidationError("--jobs \(jobs): give from 1 to 64 rows at once (default: one per core)")
            }
        } else {
            if batching.outputPattern != nil || batching.jobs != nil || batching.report != nil {
                let option = batching.outputPattern != nil ? "--output-pattern" : batching.jobs != nil ? "--jobs" : "--report"
                throw ValidationError("\(option) is for --batch: give --batch rows.csv, or -o for one title")
            }
            guard let path = output.output else {
                throw ValidationError("missing -o: where to write the title, e.g. -o title.mp4 (or --batch rows.csv --output-pattern 'out/{name}.mp4')")
            }
            guard let title, !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ValidationError("the title is empty: give the text to show, e.g. moviemaker title \"Release 2.4\" -o title.mp4")
            }
            try OutputOptions.check(path)
        }
        guard duration > .zero else { throw ValidationError("--duration must be more than 0 seconds") }
        if let still {
            guard outputIsStill else {
                throw ValidationError("--still renders one frame to a PNG: use -o frame.png (got \(URL(fileURLWithPath: destination).lastPathComponent))")
            }
            guard still < duration else {
                throw ValidationError("--still \(still.seconds) is past the end of the card (--duration \(duration.seconds)): give a time from 0 to \(duration.seconds)")
            }
        }
        // The container's own answer (docs/OUTPUTS.md's table): .mov, .webm, .mkv, .apng and .webp carry alpha.
        if transparent && !outputIsStill, let container = Container(fileExtension: outputExtension) {
            do { _ = try container.videoCodec(quality.codec, transparency: true, fileExtension: outputExtension) } catch {
                let why = error.code == .transparencyUnsupported
                    ? "\(quality.codec.map(CodecArgument.name) ?? "h264") in a .\(outputExtension) file has no alpha channel" : error.message
                throw ValidationError("--transparent needs a format with alpha: -o title.mov (ProRes 4444), title.webm or .mkv (VP9), .apng, .webp or frame.png (\(why))")
            }
        }
        if let d = slideDistance {
            guard d >= 0 && d.isFinite else { throw ValidationError("--slide-distance \(d) must be 0 or more pixels") }
            guard style == .slide else { throw ValidationError("--slide-distance is for --style slide (the style is \(style.rawValue)): add --style slide or drop it") }
        }
        if let d = entranceDuration, !(d >= 0 && d.isFinite) {
            throw ValidationError("--entrance-duration \(d) must be 0 or more seconds")
        }
        if let d = entranceDuration, d > duration.seconds {
            throw ValidationError("--entrance-duration \(d) is longer than the card (--duration \(duration.seconds)): the title would never finish arriving; shorten one or lengthen the other")
        }
        if backgroundImage != nil && backgroundVideo != nil {
            throw ValidationError("--background-image and --background-video both put something behind the card: give one of them")
        }
        if transparent, let option = backgroundImage != nil ? "--background-image" : backgroundVideo != nil ? "--background-video" : nil {
            throw ValidationError("\(option) fills the frame, so --transparent would have nothing to keep clear: drop one of them")
        }
        for (option, path) in [("--background-image", backgroundImage), ("--background-video", backgroundVideo)] {
            guard let path else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                throw ValidationError("\(option) \(path): no such file; give the path of a \(option == "--background-image" ? "photo or picture" : "video") file")
            }
        }
        guard fontSize > 0, fontSize.isFinite else { throw ValidationError("--font-size \(fontSize) must be more than 0 pixels") }
        if fontFile == nil && !FontLibrary.hasFamily(font) {
            let closest = FontLibrary.closestFamilies(to: font)
            // A minimal container may have no fonts at all: say so, and what installs one.
            throw InputError(closest.isEmpty
                ? "font \"\(font)\" is not installed, and no font is (fc-list finds none): install one, e.g. apt-get install fonts-dejavu-core, or give --font-file"
                : "font \"\(font)\" is not installed; closest installed: \(closest.joined(separator: ", ")) (list all with: fc-list : family)")
        }
    }

    /// The card the options describe, with these texts (the options' own unless given: `--batch`
    /// fills them per row) in the font family `family` (the --font-file's, read once, or --font).
    func makeCard(title: String, subtitle: String?, body: String?, family: String) -> TitleCard {
        var card = TitleCard(title, subtitle: subtitle, body: body, duration: duration)
        card.setFontFamily(family)
        card.titleStyle.font.size = fontSize
        card.subtitleStyle.font.size = fontSize * 0.46
        card.bodyStyle.font.size = fontSize / 3
        card.titleStyle.color = color
        card.subtitleStyle.color = color.mixed(with: background, amount: 0.15)
        card.bodyStyle.color = color.mixed(with: background, amount: 0.2)
        card.layout = layout == .full ? .fullScreen : .lowerThird
        if transparent {
            card.background = layout == .full ? .none : .color(Color(white: 0, alpha: 0.6))
        } else if layout == .full && (backgroundImage != nil || backgroundVideo != nil) {
            card.background = .none   // the picture or video is the background
        } else {
            card.background = .color(background)
        }
        card.entrance = style.animation(duration: entranceDuration, from: from)
        if let slideDistance { card.entrance.style = .slide(from: from, distance: slideDistance) }
        if let easing { card.entrance.easing = easing }
        card.exit = exitStyle.animation(duration: exitStyle == .typewriter ? 0.8 : 0.5, from: from)
        return card
    }

    /// The picture or video behind the card, lasting the card's duration, or nil without one.
    func makeBackdrop() throws -> Clip? {
        if let backgroundImage {
            return .photo(URL(fileURLWithPath: backgroundImage), duration: duration, fit: backgroundFit, background: background)
        }
        if let backgroundVideo {
            let video = try Clip.video(URL(fileURLWithPath: backgroundVideo), fit: backgroundFit, background: background)
            return video.looped(toFill: duration)
        }
        return nil
    }

    /// The font family the card uses: --font, or the family of --font-file (read here, once).
    func fontFamily() throws -> String {
        guard let fontFile else { return font }
        return try TextFont.file(URL(fileURLWithPath: fontFile), size: fontSize).family
    }

    /// What one render needs, shared by every row of a batch.
    var renderSettings: TitleRender {
        var settings = quality.encoderSettings(animatedImage: animatedImage)
        settings.transparency = transparent
        return TitleRender(size: video.size, fps: video.fps, settings: settings, transparent: transparent,
                           still: still, duration: duration)
    }

    func run() throws {
        if let batch = batching.batch {
            try runBatch(TitleBatch(contentsOf: batch))
            return
        }
        let reporter = ProgressReporter(label: "title", output: destination, options: progress)
        let card = makeCard(title: title ?? "", subtitle: subtitle, body: body, family: try fontFamily())
        try renderSettings.render(card, backdrop: try makeBackdrop(), to: destination, reporter: reporter)
    }
}

/// How a title is rendered: the same for a single title and for every row of a batch.
struct TitleRender: Sendable {
    /// Frame size.
    let size: FrameSize
    /// Frame rate.
    let fps: FrameRate
    /// Encoder settings (transparency included).
    var settings: EncoderSettings
    /// Whether the output keeps only the text.
    let transparent: Bool
    /// `--still`'s time, if given.
    let still: Time?
    /// The card's length.
    let duration: Time

    /// Renders `card` over `backdrop` into `path` (a movie, or a PNG still), reporting to `reporter`.
    /// Renders `card` over `backdrop` to `path`: a movie (its summary returned), or a still (nil).
    @discardableResult
    func render(_ card: TitleCard, backdrop: Clip?, to path: String, reporter: ProgressReporter) throws -> MovieSummary? {
        var clip = try card.clip(width: size.width, height: size.height)
        if let backdrop { clip = .overlay(backdrop, clip) }
        let url = OutputOptions.destinationURL(path)
        // What the movie starts each frame with (see MovieMaker): the still is drawn on the same.
        let canvasColor: Color = transparent ? .clear : .black
        if OutputOptions.stillExtensions.contains(url.pathExtension.lowercased()) {
            // Without --still, the frame half way through (the text is on screen by then), at its exact
            // time on the movie's frame grid: the still is that frame of the movie.
            let time = still ?? fps.time(ofFrame: fps.frameCount(for: duration) / 2)
            let canvas = try clip.still(at: time, width: size.width, height: size.height, rate: fps,
                                        background: canvasColor)
            try Interruption.shared.writePNG(canvas, to: url)
            reporter.finishStill(url: url, width: size.width, height: size.height)
            return nil
        }
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: url, width: size.width, height: size.height, fps: fps, settings: settings)
        }
        return try reporter.render(movie) {
            try movie.add(clip)
        }
    }
}

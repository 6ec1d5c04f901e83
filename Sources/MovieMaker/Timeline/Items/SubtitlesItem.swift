import Foundation

// The `subtitles` item of overlay tracks: an SRT or WebVTT file burned in, each cue over its own times.

// MARK: Model

extension Timeline {
    /// Subtitles burned in from an SRT or WebVTT file (`"type": "subtitles"`), each cue shown over its
    /// own times (from the item's `at`).
    public struct Subtitles: Sendable, Hashable {
        /// The subtitle file, relative to the description.
        public var file: String
        /// `outline` (default) or `box`: white text outlined in black, or on a dark box.
        public var style: String?
        /// The text size as a fraction of the frame height (default 0.05).
        public var size: Double?
        /// The text colour (default white).
        public var color: ColorText?
        /// How long the item lasts (default: to the last cue's end).
        public var duration: TimeValue?

        /// Subtitles from `file`.
        public init(file: String, style: String? = nil, size: Double? = nil, color: ColorText? = nil, duration: TimeValue? = nil) {
            self.file = file; self.style = style; self.size = size; self.color = color; self.duration = duration
        }
        /// The style names a description accepts.
        package static let styleNames = ["outline", "box"]
    }
}

// MARK: Description file

extension Timeline.Subtitles: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("subtitles", doc: "Subtitles burned in from an SRT or WebVTT file (overlay tracks), from the item's at.", placement: .overlayTrack, fields: [
            SpecField("file", Schema.string(minLength: 1), required: true, "An SRT or WebVTT file, relative to the description."),
            SpecField("style", Schema.enumeration(Timeline.Subtitles.styleNames), "outline (default) or box."),
            SpecField("size", Schema.number(minimum: 0.01, maximum: 0.5), "Text size as a fraction of the frame height (default 0.05)."),
            SpecField("color", Schema.ref("color"), "Text colour (default white)."),
            SpecField("duration", Schema.ref("duration"), "How long the item lasts (default: to the last cue's end)."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let style = try i.string("style")
        if let style, !styleNames.contains(style) {
            throw i.fail("style", "must be \"outline\" or \"box\", got \"\(style)\"")
        }
        return Timeline.Subtitles(file: try i.string("file", required: true, nonEmpty: true)!, style: style,
                                  size: try i.double("size", in: 0.01...0.5), color: try i.color("color", context),
                                  duration: try i.time("duration", positive: true))
    }

    var content: Timeline.Content { .subtitles(self) }

    func write(to w: inout SpecWriter) {
        w.set("file", file)
        w.set("style", style)
        w.set("size", size)
        w.set("color", color)
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.subtitles(self, at: path)
    }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var s = self
        s.file = transform(file)
        return s
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var s = self; s.duration = length; return s }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A subtitles item's clip.
    mutating func subtitles(_ x: Timeline.Subtitles, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let url = try file(.file(x.file), at: path, kinds: [.media])
        let track: SubtitleTrack
        do { track = try SubtitleTrack(contentsOf: url) } catch {
            throw .invalidDescription(path.appending("file"), error.message, file: url.path)
        }
        var style = x.style == "box" ? SubtitleStyle.boxed : SubtitleStyle()
        if let size = x.size { style.size = size }
        if let c = try color(x.color, at: path.appending("color")) { style.color = c }
        let d = x.duration?.time(at: rate) ?? track.duration
        guard d > .zero else {
            throw .invalidDescription(path.appending("file"), "\(url.lastPathComponent) has no cues: give the item a \"duration\" or add cues")
        }
        sources[path.description] = .init(file: url)
        return CompiledItem(clip: try insideSafeArea(Clip.subtitles(track, style: style, duration: d)), what: url.lastPathComponent, detail: "\(track.cues.count) cue\(track.cues.count == 1 ? "" : "s")")
    }
}

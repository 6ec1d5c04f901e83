import Foundation

// The `captions` item of overlay tracks: word-by-word captions from a transcript file (whisper,
// whisper.cpp, karaoke WebVTT, SRT), each word marked over its own time from the item's `at`.

// MARK: Model

extension Timeline {
    /// Word-by-word captions (`"type": "captions"`) from a transcript file, in one of `CaptionStyle`'s
    /// animations; fields left nil take `CaptionStyle`'s defaults.
    ///
    /// ```json
    /// {"type": "captions", "source": {"file": "talk.words.json"}, "style": "pop", "at": "0s", "highlightColor": "#00e5ff"}
    /// ```
    public struct Captions: Sendable, Hashable {
        /// Where a page sits: `"bottom"`, `"center"`, `"top"`, or a point in fractions of the frame.
        public enum Position: Sendable, Hashable {
            /// `"bottom"`.
            case bottom
            /// `"center"`.
            case center
            /// `"top"`.
            case top
            /// `[x, y]`: the page's centre, in fractions of the frame's width and height.
            case point(Point)
        }

        /// The transcript file (or a slot holding one), relative to the description; nil when
        /// `narration` gives the words.
        public var source: Source?
        /// The id of a narration item whose words to show (instead of `source`): its exact word times,
        /// wherever it plays in the movie.
        public var narration: String?
        /// The animation (`"style"`; default `highlight`).
        public var style: CaptionStyle.Animation?
        /// The font family.
        public var font: String?
        /// The font size as a fraction of the frame's height (default 0.065).
        public var fontSize: Double?
        /// The font weight (default bold).
        public var weight: FontWeight?
        /// The words' colour (default white).
        public var color: ColorText?
        /// The spoken word's colour (default `#FFD60A`).
        public var highlightColor: ColorText?
        /// A box behind the spoken word (default none).
        public var highlightBackground: ColorText?
        /// The outline's colour, `"none"` for no outline (default black).
        public var outlineColor: ColorText?
        /// The outline's width as a fraction of the font size (default 0.14).
        public var outlineWidth: Double?
        /// A drop shadow's colour (default none).
        public var shadowColor: ColorText?
        /// A box behind the whole page (default none).
        public var background: ColorText?
        /// Whether the words are in capitals (default false).
        public var uppercase: Bool?
        /// Where pages sit (default bottom).
        public var position: Position?
        /// The most lines a page takes (default 2).
        public var maxLines: Int?
        /// The most words on a page (default 6).
        public var wordsPerPage: Int?
        /// The widest line, as a fraction of the frame's width (default 0.8).
        public var maxWidth: Double?
        /// A silence longer than this starts a new page (default 0.6 s).
        public var pauseBreak: TimeValue?
        /// How long a page stays after its last word (default 0.5 s).
        public var hold: TimeValue?
        /// The text's language, a BCP 47 tag (default: from the text).
        public var language: String?
        /// How long the item lasts (default: the last word's end plus the hold; a narration's captions
        /// last until it ends).
        public var duration: TimeValue?

        /// Captions from `source`, or of the narration `narration`; nil fields take their defaults.
        public init(source: Source? = nil, narration: String? = nil, style: CaptionStyle.Animation? = nil, font: String? = nil, fontSize: Double? = nil,
                    weight: FontWeight? = nil, color: ColorText? = nil, highlightColor: ColorText? = nil,
                    highlightBackground: ColorText? = nil, outlineColor: ColorText? = nil, outlineWidth: Double? = nil,
                    shadowColor: ColorText? = nil, background: ColorText? = nil, uppercase: Bool? = nil, position: Position? = nil,
                    maxLines: Int? = nil, wordsPerPage: Int? = nil, maxWidth: Double? = nil, pauseBreak: TimeValue? = nil,
                    hold: TimeValue? = nil, language: String? = nil, duration: TimeValue? = nil) {
            self.source = source; self.narration = narration; self.style = style; self.font = font; self.fontSize = fontSize; self.weight = weight
            self.color = color; self.highlightColor = highlightColor; self.highlightBackground = highlightBackground
            self.outlineColor = outlineColor; self.outlineWidth = outlineWidth; self.shadowColor = shadowColor
            self.background = background; self.uppercase = uppercase; self.position = position; self.maxLines = maxLines
            self.wordsPerPage = wordsPerPage; self.maxWidth = maxWidth; self.pauseBreak = pauseBreak; self.hold = hold
            self.language = language; self.duration = duration
        }
    }
}

// MARK: Description file

extension Timeline.Captions: TimelineItemKind {
    static let positionSchema = Schema.anyOf([Schema.enumeration(["bottom", "center", "top"]), TimelineShapes.pointSchema])

    static let itemTypes = [
        TimelineItemType("captions", doc: "Word-by-word captions from a transcript (whisper or whisper.cpp JSON, karaoke WebVTT, SRT), on overlay tracks from the item's at.",
                         placement: .overlayTrack, fields: [
            SpecField("source", Schema.ref("source"), "The transcript file or slot (or give narration)."),
            SpecField("narration", Schema.string(pattern: #"^[^#]+$"#), "The id of a narration item whose words to show, where it speaks (instead of source)."),
            SpecField("style", Schema.enumeration(CaptionStyle.Animation.allCases.map(\.rawValue)), "How the spoken word is shown (default highlight)."),
            SpecField("font", Schema.string(minLength: 1), "The font family (default DejaVu Sans)."),
            SpecField("fontSize", Schema.number(exclusiveMinimum: 0, maximum: 0.5), "Text size as a fraction of the frame height (default 0.065)."),
            SpecField("weight", Schema.enumeration(FontWeight.allCases.map(\.rawValue)), "Font weight (default bold)."),
            SpecField("color", Schema.ref("color"), "The words' colour (default white)."),
            SpecField("highlightColor", Schema.ref("color"), "The spoken word's colour (default #FFD60A)."),
            SpecField("highlightBackground", Schema.ref("color"), "A rounded box behind the spoken word (default none)."),
            SpecField("outlineColor", Schema.anyOf([Schema.ref("color"), Schema.constant("none")]), "The outline's colour, or none (default black)."),
            SpecField("outlineWidth", Schema.number(minimum: 0, maximum: 1), "The outline's width as a fraction of the font size (default 0.14)."),
            SpecField("shadowColor", Schema.ref("color"), "A drop shadow's colour (default none)."),
            SpecField("background", Schema.ref("color"), "A rounded box behind the page (default none)."),
            SpecField("uppercase", Schema.boolean, "Capitals (default false)."),
            SpecField("position", positionSchema, "bottom (default), center, top, or [x, y] in fractions of the frame."),
            SpecField("maxLines", Schema.integer(minimum: 1, maximum: 20), "The most lines a page takes (default 2)."),
            SpecField("wordsPerPage", Schema.integer(minimum: 1, maximum: 100), "The most words on a page (default 6)."),
            SpecField("maxWidth", Schema.number(exclusiveMinimum: 0, maximum: 1), "The widest line as a fraction of the frame width (default 0.8)."),
            SpecField("pauseBreak", Schema.ref("time"), "A silence longer than this starts a new page (default 0.6s)."),
            SpecField("hold", Schema.ref("time"), "How long a page stays after its last word (default 0.5s)."),
            SpecField("language", Schema.string(minLength: 1), "The text's language, a BCP 47 tag such as ja (default: from the text)."),
            SpecField("duration", Schema.ref("duration"), "How long the item lasts (default: the last word's end plus the hold; a narration's captions, to its end)."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        var position: Position? = nil
        if let v = i.value("position") {
            switch v {
            case .string("bottom"): position = .bottom
            case .string("center"): position = .center
            case .string("top"): position = .top
            case let .array(pair) where pair.count == 2:
                guard let x = pair[0].doubleValue, let y = pair[1].doubleValue, (0...1).contains(x), (0...1).contains(y) else {
                    throw i.fail("position", "must be a point [x, y] of fractions of the frame from 0 to 1, got \(v.shortDescription)")
                }
                position = .point(Point(x: x, y: y))
            default:
                throw i.fail("position", "must be \"bottom\", \"center\", \"top\" or [x, y] in fractions of the frame, got \(v.shortDescription)")
            }
        }
        let narration = try i.string("narration", nonEmpty: true)
        guard (i.value("source") == nil) != (narration == nil) else {
            throw .invalidDescription(narration == nil ? i.path : i.path.appending("narration"),
                                      narration == nil ? "needs \"source\" (a transcript file) or \"narration\" (a narration item's id)"
                                                       : "give \"source\" or \"narration\", not both")
        }
        return Timeline.Captions(
            source: i.value("source") == nil ? nil : try i.source("source", context, kinds: [.media], what: "a captions item"),
            narration: narration,
            style: try i.choice("style", CaptionStyle.Animation.self, what: "caption style"),
            font: try i.string("font", nonEmpty: true), fontSize: try i.double("fontSize", in: 0...0.5, above: 0),
            weight: try i.choice("weight", FontWeight.self, what: "font weight"),
            color: try i.color("color", context), highlightColor: try i.color("highlightColor", context),
            highlightBackground: try i.color("highlightBackground", context), outlineColor: try i.color("outlineColor", context, allowNone: true),
            outlineWidth: try i.double("outlineWidth", in: 0...1), shadowColor: try i.color("shadowColor", context),
            background: try i.color("background", context), uppercase: try i.bool("uppercase"), position: position,
            maxLines: try i.int("maxLines", in: 1...20), wordsPerPage: try i.int("wordsPerPage", in: 1...100),
            maxWidth: try i.double("maxWidth", in: 0...1, above: 0), pauseBreak: try i.time("pauseBreak"), hold: try i.time("hold"),
            language: try i.string("language", nonEmpty: true), duration: try i.time("duration", positive: true))
    }

    var content: Timeline.Content { .captions(self) }

    func write(to w: inout SpecWriter) {
        w.set("source", source?.json)
        w.set("narration", narration)
        w.set("style", style)
        w.set("font", font)
        w.set("fontSize", fontSize)
        w.set("weight", weight)
        w.set("color", color)
        w.set("highlightColor", highlightColor)
        w.set("highlightBackground", highlightBackground)
        w.set("outlineColor", outlineColor)
        w.set("outlineWidth", outlineWidth)
        w.set("shadowColor", shadowColor)
        w.set("background", background)
        w.set("uppercase", uppercase)
        switch position {
        case nil: break
        case .bottom?: w.set("position", "bottom")
        case .center?: w.set("position", "center")
        case .top?: w.set("position", "top")
        case let .point(p)?: w.set("position", Timeline.Transform.pointJSON(p))
        }
        w.set("maxLines", maxLines)
        w.set("wordsPerPage", wordsPerPage)
        w.set("maxWidth", maxWidth)
        w.set("pauseBreak", pauseBreak)
        w.set("hold", hold)
        w.set("language", language)
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.captions(self, at: path)
    }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var c = self
        c.source = source?.mappingFilePath(transform)
        return c
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var c = self; c.duration = length; return c }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A captions item's clip: the transcript read (errors name the file and its line or JSON path),
    /// the style from the item's fields.
    mutating func captions(_ x: Timeline.Captions, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let transcript: Transcript
        let what: String
        if let id = x.narration {
            // The narration's words where it speaks in the movie, in the item's time.
            let placed = try narration(id, at: path.appending("narration"))
            let offset = placed.start - overlayItemStart
            transcript = Transcript(words: placed.narration.transcript.words.compactMap { w in
                let start = w.start + offset, end = w.end + offset
                return end > .zero ? TranscriptWord(w.text, start: Time.max(.zero, start), end: end) : nil
            })
            what = "narration \"\(id)\""
        } else {
            guard let source = x.source else { throw .invalidDescription(path, "needs \"source\" (a transcript file) or \"narration\" (a narration item's id)") }
            let url = try file(source, at: path.appending("source"), kinds: [.media])
            do { transcript = try Transcript(contentsOf: url) } catch {
                let where_ = error.location?.jsonPath.map { " at \($0)" } ?? (error.position.map { " line \($0)" } ?? "")
                throw .invalidDescription(path.appending("source"), "\(url.lastPathComponent)\(where_): \(error.message)", file: url.path)
            }
            sources[path.description] = .init(file: url)
            what = url.lastPathComponent
        }
        var style = CaptionStyle(x.style ?? .highlight)
        if let font = x.font { try checkFont(font, at: path.appending("font")); style.fontFamily = font }
        if let size = x.fontSize { style.fontSize = size }
        if let weight = x.weight { style.weight = weight }
        if let c = try color(x.color, at: path.appending("color")) { style.color = c }
        if let c = try color(x.highlightColor, at: path.appending("highlightColor")) { style.highlightColor = c }
        style.highlightBackground = try color(x.highlightBackground, at: path.appending("highlightBackground"))
        if let outline = x.outlineColor {
            style.outlineColor = outline.isNone ? nil : try color(outline, at: path.appending("outlineColor"))
        }
        if let w = x.outlineWidth { style.outlineWidth = w }
        style.shadowColor = try color(x.shadowColor, at: path.appending("shadowColor"))
        style.background = try color(x.background, at: path.appending("background"))
        if let u = x.uppercase { style.uppercase = u }
        switch x.position {
        case nil, .bottom?: style.position = .bottom
        case .center?: style.position = .center
        case .top?: style.position = .top
        case let .point(p)?: style.position = .point(p)
        }
        if let n = x.maxLines { style.maximumLines = n }
        if let n = x.wordsPerPage { style.wordsPerPage = n }
        if let w = x.maxWidth { style.maximumWidth = w }
        if let t = x.pauseBreak { style.pauseBreak = t.time(at: rate) }
        if let t = x.hold { style.hold = t.time(at: rate) }
        style.language = x.language
        do { try style.validate() } catch { throw .invalidDescription(path, error.message) }
        // Captions of a narration last as long as it plays; others to their last word's end and the hold.
        let natural = try x.narration.map { id throws(MovieMakerError) in
            let placed = try narration(id, at: path.appending("narration"))
            return Time.max(.zero, placed.start + placed.narration.length - overlayItemStart)
        } ?? (transcript.duration + style.hold)
        let d = x.duration?.time(at: rate) ?? natural
        guard !transcript.words.isEmpty || x.duration != nil else {
            throw .invalidDescription(path.appending(x.narration == nil ? "source" : "narration"),
                                      "\(what) has no words\(x.narration == nil ? "" : " after the item's start"): give the item a \"duration\" or a transcript with words")
        }
        return CompiledItem(clip: try insideSafeArea(Clip.captions(transcript, style: style, duration: d)), what: what,
                            detail: "\(transcript.words.count) word\(transcript.words.count == 1 ? "" : "s"), \(style.animation.rawValue)")
    }
}

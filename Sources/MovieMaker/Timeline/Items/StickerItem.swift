import Foundation

// The `sticker` item of overlay tracks: an image, animated image or emoji over the pictures below.

// MARK: Model

extension Timeline {
    /// An image, animated image (GIF, APNG, animated WebP) or emoji placed over the pictures below
    /// (`"type": "sticker"`), centred on the frame unless its `transform` moves it.
    public struct Sticker: Sendable, Hashable {
        /// The picture (nil for an emoji).
        public var source: Source?
        /// An emoji (or short text) drawn in colour, instead of a picture.
        public var emoji: String?
        /// How long it shows (default 3s).
        public var duration: TimeValue?
        /// Its width in output pixels (default: the picture's own; an emoji: its size).
        public var width: Double?
        /// Its height in output pixels (default: from the width and the picture's aspect).
        public var height: Double?
        /// Whether an animation loops (default true).
        public var loop: Bool?
        /// How it comes on: pop, fade, or slide-left/right/top/bottom (from that edge); default none.
        public var enter: String?
        /// How it goes off: the same names; default none.
        public var exit: String?

        /// A sticker of `source` or `emoji`.
        public init(source: Source? = nil, emoji: String? = nil, duration: TimeValue? = nil, width: Double? = nil, height: Double? = nil,
                    loop: Bool? = nil, enter: String? = nil, exit: String? = nil) {
            self.source = source; self.emoji = emoji; self.duration = duration; self.width = width; self.height = height
            self.loop = loop; self.enter = enter; self.exit = exit
        }
        /// The entrance and exit names a description accepts.
        package static let animationNames = ["none", "pop", "fade", "slide-left", "slide-right", "slide-top", "slide-bottom"]
    }
}

// MARK: Description file

extension Timeline.Sticker: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("sticker", doc: "An image, animated GIF/WebP/APNG or emoji over the pictures below (overlay tracks), centred unless its transform moves it.", placement: .overlayTrack, fields: [
            SpecField("source", Schema.ref("source"), "The picture: PNG/WebP with alpha, animated GIF, animated WebP or APNG (or a photo)."),
            SpecField("emoji", Schema.string(minLength: 1), "An emoji drawn in colour, instead of a picture; {{name}} puts a text slot's value there."),
            SpecField("duration", Schema.ref("duration"), "How long it shows (default 3s)."),
            SpecField("width", Schema.number(exclusiveMinimum: 0, maximum: 16384), "Width in output pixels (default: the picture's own; an emoji's size, default 120)."),
            SpecField("height", Schema.number(exclusiveMinimum: 0, maximum: 16384), "Height in output pixels (default: from the width and the aspect)."),
            SpecField("loop", Schema.boolean, "Whether an animation loops (default true)."),
            SpecField("enter", Schema.enumeration(Timeline.Sticker.animationNames), "How it comes on (default none)."),
            SpecField("exit", Schema.enumeration(Timeline.Sticker.animationNames), "How it goes off (default none)."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let source = i.value("source") == nil ? nil : try i.source("source", context, kinds: [.photo, .media], what: "a sticker")
        // `{{slot}}` in it is a text slot's value (a reaction a template leaves to its user), as in a title.
        let emoji = try i.string("emoji", nonEmpty: true) == nil ? nil : try i.text("emoji", context)
        guard (source == nil) != (emoji == nil) else {
            throw .invalidDescription(path, "a sticker needs either \"source\" (a picture: {\"file\": \"star.gif\"}) or \"emoji\" (\"🎉\"), not both and not neither")
        }
        func animation(_ key: String) throws(MovieMakerError) -> String? {
            guard let name = try i.string(key) else { return nil }
            guard animationNames.contains(name) else {
                var message = "must be one of \(SpecObject.list(animationNames)), got \"\(name)\""
                if let near = SpecObject.nearest(name, in: animationNames) { message += " (did you mean \"\(near)\"?)" }
                throw i.fail(key, message)
            }
            return name
        }
        return Timeline.Sticker(source: source, emoji: emoji, duration: try i.time("duration", positive: true),
                                width: try i.double("width", in: 0...16384, above: 0), height: try i.double("height", in: 0...16384, above: 0),
                                loop: try i.bool("loop"), enter: try animation("enter"), exit: try animation("exit"))
    }

    var content: Timeline.Content { .sticker(self) }

    func write(to w: inout SpecWriter) {
        w.set("source", source?.json)
        w.set("emoji", emoji)
        w.set("duration", duration)
        w.set("width", width)
        w.set("height", height)
        w.set("loop", loop)
        w.set("enter", enter)
        w.set("exit", exit)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.sticker(self, at: path)
    }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var s = self
        s.source = source?.mappingFilePath(transform)
        return s
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var s = self; s.duration = length; return s }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A sticker item's clip: a picture or emoji centred on the frame (its transform moves it).
    mutating func sticker(_ x: Timeline.Sticker, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let d = x.duration?.time(at: rate) ?? 3
        func animation(_ name: String?, exit: Bool) -> StickerAnimation? {
            switch name {
            case "pop"?: return .pop()
            case "fade"?: return .fade()
            case let n? where n.hasPrefix("slide-"):
                return Edge(rawValue: String(n.dropFirst(6))).map { StickerAnimation.slide(from: $0) }
            default: return nil
            }
        }
        let enter = animation(x.enter, exit: false), exit = animation(x.exit, exit: true)
        if let written = x.emoji {
            let emoji = try interpolate(written, at: path.appending("emoji"))
            guard !emoji.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw .invalidDescription(path.appending("emoji"), "the emoji is empty once its {{slots}} are filled: give the slot an emoji such as \"🎉\"")
            }
            let size = (x.width ?? x.height ?? 120) * pixelScale
            return CompiledItem(clip: Clip.emoji(emoji, size: size, duration: d, enter: enter, exit: exit), what: emoji, detail: "emoji")
        }
        let url = try file(x.source!, at: path.appending("source"), kinds: [.photo, .media])
        sources[path.description] = .init(file: url)
        stickerItems.append(.init(path: path.appending("source"), url: url, width: x.width.map { $0 * pixelScale }, height: x.height.map { $0 * pixelScale }))
        let clip = Clip.sticker(url, duration: d, width: x.width.map { $0 * pixelScale }, height: x.height.map { $0 * pixelScale },
                                loop: x.loop ?? true, enter: enter, exit: exit)
        return CompiledItem(clip: clip, what: url.lastPathComponent, detail: "")
    }
}

import Foundation

// The `photo` item: a still picture for a while, optionally panning and zooming.

// MARK: Model

extension Timeline {
    /// A photo item (`"type": "photo"`).
    public struct Photo: Sendable, Hashable {
        /// The file or slot.
        public var source: Source
        /// How long it is shown (default 3 s).
        public var duration: TimeValue?
        /// How it fills the frame (default `fill`).
        public var fit: Slideshow.Fit?
        /// The colour around a fitted photo (default: none, so the canvas or the tracks below show, as through a PNG's transparency).
        public var background: ColorText?
        /// Pan and zoom (default none).
        public var kenBurns: KenBurnsSpec?

        /// A photo item; nil fields take their defaults.
        public init(_ source: Source, duration: TimeValue? = nil, fit: Slideshow.Fit? = nil, background: ColorText? = nil,
                    kenBurns: KenBurnsSpec? = nil) {
            self.source = source; self.duration = duration; self.fit = fit; self.background = background; self.kenBurns = kenBurns
        }
    }
}

// MARK: Description file

extension Timeline.Photo: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("photo", doc: "A still picture for a while.", splitCell: true, fields: [
                SpecField("source", Schema.ref("source"), required: true, "The file (\"a.jpg\" or {\"file\": \"a.jpg\", …}) or slot ({\"slot\": \"name\"})."),
                SpecField("duration", Schema.ref("duration"), "How long it is shown (default 3s)."),
                SpecField("fit", Schema.ref("fit"), "How it fills the frame (default fill)."),
                SpecField("background", Schema.ref("color"), "The colour around a fitted photo (default: none, so output.background or the tracks below show, as through a PNG's transparency)."),
                SpecField("kenBurns", Schema.ref("kenBurns"), "Pan and zoom: true, false, {zoom, pan, direction, seed} or {from, to}."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        Timeline.Photo(try i.source("source", context, kinds: [.photo, .media], what: "a photo item"),
                       duration: try i.time("duration", positive: true),
                       fit: try i.choice("fit", Slideshow.Fit.self, what: "fit"), background: try i.color("background", context),
                       kenBurns: try i.kenBurns("kenBurns", allowPath: true))
    }

    var content: Timeline.Content { .photo(self) }

    func write(to w: inout SpecWriter) {
        w.set("source", source.json)
        w.set("duration", duration)
        w.set("fit", fit)
        w.set("background", background)
        w.set("kenBurns", kenBurns?.json)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.photo(self, at: path)
    }

    var mediaSlotSources: [Timeline.Source] { [source] }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var p = self
        p.source = source.mappingFilePath(transform)
        return p
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var p = self; p.duration = length; return p }

    func fitting(_ fit: ImageFit) -> Self {
        var x = self
        if x.fit == nil { x.fit = fit == .fit ? .fit : .fill }
        return x
    }

    var lastsAsLongAsItsSplit: Bool { duration == nil }
    var hasDefaultLength: Bool { true }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A photo item's clip: the picture for its duration (3 s by default), fitted, maybe moving.
    mutating func photo(_ p: Timeline.Photo, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let url = try file(p.source, at: path.appending("source"), kinds: [.photo, .media])
        let mediaSlot: String? = if case let .slot(name) = p.source, timeline.slots[name]?.kind == .media { name } else { nil }
        try checkPhoto(url, at: path.appending("source"), isItem: true, mediaSlot: mediaSlot)
        let d = p.duration?.time(at: rate) ?? cellDuration ?? 3
        let kenBurns = try kenBurnsPath(p.kenBurns, url: url, index: path.components.last.flatMap { if case let .index(i) = $0 { return i } else { return nil } } ?? 0)
        // A photo far smaller than the frame renders, but looks soft: said, as the slideshow says it.
        if let pixels = try? PhotoDecoder.info(url).size {
            let closest = kenBurns.map { Swift.min($0.start.width, $0.end.width, $0.start.height, $0.end.height) } ?? 1
            let k = (p.fit ?? .fill).enlargement(of: pixels, in: Size(width: Double(width), height: Double(height)), zoom: closest > 0 ? 1 / closest : 1)
            if let soft = Slideshow.Fit.softWarning(url.lastPathComponent, pixels: pixels, enlargement: k, remedies: ["a smaller output.size"]) {
                warnings.append("\(path.appending("source")): \(soft)")
            }
        }
        let clip = Clip.photo(url, duration: d, fit: p.fit ?? .fill, background: try color(p.background, at: path.appending("background")) ?? defaultItemBackground,
                              kenBurns: kenBurns)
        sources[path.description] = .init(file: url)
        return CompiledItem(clip: clip, what: url.lastPathComponent, detail: kenBurns == nil ? "" : "Ken Burns")
    }
}

import Foundation

// One kind of description-file item per file, as OpenTimelineIO keeps one schema type per file: each
// file in this folder holds its kind's model (the public value), its keys (the shape the reader, the
// writer and the JSON Schema share), reading, writing and compiling. `Timeline.Content` below is the
// only list of kinds; the track reader, the writer, the schema, templates and the compiler go through
// `TimelineItemKind` and never switch over kinds themselves.
//
// Adding a kind: write its file (a value conforming to `TimelineItemKind`), then register it here with
// a case of `Content`, its line in `Content.kind` and its entry in `Content.kinds` (the compiler points
// at the first two when one is missing).

/// One kind of item in a description file: what the reader, the writer, the schema, templates and the
/// compiler need to know about it.
protocol TimelineItemKind: Sendable, Hashable {
    /// The `type` names the kind is written with (most have one; audio has `music` and `audio`), with
    /// their documentation, content keys and where they may go.
    static var itemTypes: [TimelineItemType] { get }

    /// Reads the content keys of an item of `type` from `item` (the keys every item has are read by
    /// `Timeline.Item`). `path` is the item's JSON path.
    static func read(_ item: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self

    /// The value as a `Timeline.Content`.
    var content: Timeline.Content { get }

    /// The `type` it is written with.
    var typeName: String { get }

    /// Writes the content keys (the writer's shape refuses keys the kind's fields do not list).
    func write(to writer: inout SpecWriter) throws(MovieMakerError)

    /// The clip the item shows, before its filters, mask and transform, with what it shows and how (for
    /// the plan). Items that are not pictures throw: the reader keeps them off picture tracks, but a
    /// value built in code can still put one there.
    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem

    /// The sources whose slots `--media` fills, in the order the item uses them.
    var mediaSlotSources: [Timeline.Source] { get }

    /// The value with `transform` applied to every file path it names, and `items` to the items it holds
    /// (a split's cells).
    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self

    /// Whether, as a split's cell, it takes its length from the split (it has no duration of its own).
    var lastsAsLongAsItsSplit: Bool { get }

    /// Whether, without a duration, it has a length of its own (a photo's 3 s, a title's 4 s) to take
    /// in a split that gives none.
    var hasDefaultLength: Bool { get }

    /// The value lasting `length`, as an editor trimmed it (OpenTimelineIO); kinds whose length follows
    /// from their content (a slideshow's photos) stay as they are.
    func withLength(_ length: Timeline.TimeValue) -> Self

    /// The value fitted by `fit` (`fill` or `fit`) where it gives no fit of its own: a split's `fit` for
    /// a cell drawn at the cell's size. Kinds without a fit stay as they are.
    func fitting(_ fit: ImageFit) -> Self
}

extension TimelineItemKind {
    var typeName: String { Self.itemTypes[0].name }
    var mediaSlotSources: [Timeline.Source] { [] }
    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self { self }
    var lastsAsLongAsItsSplit: Bool { false }
    var hasDefaultLength: Bool { false }
    func fitting(_ fit: ImageFit) -> Self { self }
}

/// One `type` of item as the description file writes it: its name, documentation, content keys, and
/// the tracks it may go on.
struct TimelineItemType: Sendable {
    /// Where an item of the type may go.
    enum Placement: Sendable {
        /// Video and overlay tracks (and, when `splitCell`, a split's cells and masks).
        case pictureTrack
        /// Overlay tracks only.
        case overlayTrack
        /// Audio tracks only.
        case audioTrack
    }

    /// The `type` name.
    let name: String
    /// One sentence for the schema.
    let doc: String
    /// The content keys, after the keys every item has.
    let fields: [SpecField]
    /// Where it may go.
    let placement: Placement
    /// Whether a split's cell (and a mask) may be one.
    let splitCell: Bool
    /// Whether it draws anything that `filters`, `transform` and `mask` could change (a gap does not).
    let drawsPicture: Bool

    init(_ name: String, doc: String, placement: Placement = .pictureTrack, splitCell: Bool = false, drawsPicture: Bool = true, fields: [SpecField]) {
        self.name = name; self.doc = doc; self.fields = fields; self.placement = placement; self.splitCell = splitCell
        self.drawsPicture = drawsPicture
    }

    /// Whether it shows a picture (anything not on an audio track).
    var isPicture: Bool { placement != .audioTrack }
    /// Whether it takes the picture items' `filters`, `transform` and `mask`.
    var takesPictureEdits: Bool { isPicture && drawsPicture }
}

// MARK: The kinds

extension Timeline {
    /// What an item shows or plays; its `type` in a description file.
    public enum Content: Sendable, Hashable {
        /// `"video"`: a video file (or slot), trimmed, sped up or slowed down, reversed or frozen.
        case video(Video)
        /// `"photo"`: a still picture for a while, optionally panning and zooming.
        case photo(Photo)
        /// `"title"`: an animated title card.
        case title(Title)
        /// `"color"`: the frame in one colour.
        case color(ColorFill)
        /// `"slideshow"`: photos one after another with a transition.
        case slideshow(SlideshowItem)
        /// `"music"` or `"audio"`: a sound file placed on an audio track.
        case audio(Audio)
        /// `"generator"`: a picture made by code registered under a name (`GeneratorRegistry`).
        case generator(Generator)
        /// `"gap"`: nothing for a while (what is below shows through).
        case gap(Gap)
        /// Several pictures at once: side by side, stacked, a grid, picture-in-picture.
        case split(Split)
        /// An image, animated image or emoji over the pictures below (overlay tracks).
        case sticker(Sticker)
        /// Subtitles from an SRT or WebVTT file, burned in (overlay tracks).
        case subtitles(Subtitles)
        /// `"chart"`: an animated chart (so far a counter).
        case chart(Chart)
        /// `"captions"`: word-by-word captions from a transcript (overlay tracks).
        case captions(Captions)
        /// `"narration"`: text spoken by eSpeak NG (audio tracks).
        case narration(NarrationItem)
        /// `"audiogram"`: a sound drawn as a picture.
        case audiogram(Audiogram)
        /// `"lottie"`: a Lottie animation drawn by rlottie.
        case lottie(Lottie)

        /// The value of the item's kind.
        var kind: any TimelineItemKind {
            switch self {
            case let .video(x): x
            case let .photo(x): x
            case let .title(x): x
            case let .color(x): x
            case let .slideshow(x): x
            case let .audio(x): x
            case let .generator(x): x
            case let .gap(x): x
            case let .split(x): x
            case let .sticker(x): x
            case let .subtitles(x): x
            case let .chart(x): x
            case let .captions(x): x
            case let .narration(x): x
            case let .audiogram(x): x
            case let .lottie(x): x
            }
        }

        /// Every kind, in the order the description file's documentation lists them.
        static let kinds: [any TimelineItemKind.Type] = [
            Video.self, Photo.self, Title.self, ColorFill.self, SlideshowItem.self, Audio.self, Generator.self, Gap.self,
            Split.self, Sticker.self, Subtitles.self, Chart.self, Captions.self, NarrationItem.self, Audiogram.self, Lottie.self,
        ]

        /// Every item type, in the order of `kinds`.
        static let itemTypes: [(type: TimelineItemType, kind: any TimelineItemKind.Type)] =
            kinds.flatMap { kind in kind.itemTypes.map { (type: $0, kind: kind) } }

        /// The kind written as `type`, with its type; nil for an unknown name.
        static func itemType(named type: String) -> (type: TimelineItemType, kind: any TimelineItemKind.Type)? {
            itemTypes.first { $0.type.name == type }
        }

        /// The `type` written in a description file.
        package var typeName: String { kind.typeName }

        /// Whether the item is a picture (anything but music and audio).
        package var isPicture: Bool { Self.itemType(named: typeName)?.type.isPicture ?? true }

        /// Every `type` name, in the order the description file's documentation lists them.
        package static let typeNames = itemTypes.map(\.type.name)
    }
}

import Foundation

/// A movie described as data: the description file (version 1) that `moviemaker render` reads, and
/// the value a Swift program builds to write one.
///
/// A timeline has `output` settings (size, rate, background, encoder, sound) and `tracks`, drawn in
/// order with the first at the bottom: a **video** track plays its items one after another, joined by
/// cuts or by each item's `transition` into the next; an **overlay** track places each item `at` a
/// time over what is below; an **audio** track places music and sounds `at` times. It maps one to one
/// onto the clip tree (`Clip`): a video track is a `sequence`, an overlay track a `stack` of `offset`
/// clips, the tracks together a `stack`; speed, reverse and trims are time maps.
///
/// ```json
/// {
///   "version": 1,
///   "output": {"size": "1280x720", "fps": 30},
///   "tracks": [
///     {"kind": "video", "items": [
///       {"type": "title", "text": "Lisbon", "duration": "2s", "transition": {"name": "fade", "duration": "0.5s"}},
///       {"type": "video", "source": {"file": "tram.mp4"}, "in": "1.5s", "duration": "4s"}
///     ]},
///     {"kind": "audio", "items": [{"type": "music", "source": {"file": "song.mp3"}, "volume": 0.8}]}
///   ]
/// }
/// ```
///
/// A **template** is a timeline with `template` metadata and named `slots` (`{"slot": "clip1"}` in
/// place of a file, `{{name}}` inside text): `filled(with:)` puts the user's media and text in.
///
/// Read one with `init(json:)` / `init(contentsOf:)` (strict: an unknown key, a bad value or a newer
/// `version` throws `MovieMakerError.invalidDescription` naming the JSON path); write one with
/// `jsonText` (canonical: sorted keys, fixed indentation, canonical times, so decoding and encoding
/// again gives the same bytes). `composition(_:)` resolves it for rendering; `render(to:options:)` renders it.
public struct Timeline: Sendable, Hashable {
    /// The description-file version this library reads and writes.
    package static let currentVersion = 1

    /// The most characters a title's text, subtitle or body may have once its `{{slots}}` are filled
    /// (`composition(_:)` refuses longer ones). Typewriter, letters and words titles draw every
    /// character clipped from the whole text, so a frame's cost grows with the square of the length
    /// (tens of thousands of characters take seconds a frame).
    package static let maximumTitleTextLength = 2_000

    /// The format version of the file (1).
    public var version: Int
    /// The `$schema` an editor uses for completion and checking (kept as written; not used otherwise).
    public var schema: String?
    /// Frame size, rate, background, encoder and sound settings.
    public var output: Output
    /// The tracks, drawn in order: the first at the bottom.
    public var tracks: [Track]
    /// What makes the timeline a template: a title, description and thumbnail.
    public var template: Template?
    /// The template's slots by name: what the user fills in.
    public var slots: [String: Slot]
    /// Marked points of the whole movie.
    public var markers: [Marker]
    /// Anything else a tool wants to keep with the timeline (OpenTimelineIO metadata lives here).
    public var metadata: [String: JSONValue]

    /// A timeline with `output` settings and `tracks`.
    public init(output: Output = Output(), tracks: [Track] = [], template: Template? = nil, slots: [String: Slot] = [:],
                markers: [Marker] = [], metadata: [String: JSONValue] = [:], schema: String? = nil) {
        version = Timeline.currentVersion
        self.output = output; self.tracks = tracks; self.template = template; self.slots = slots
        self.markers = markers; self.metadata = metadata; self.schema = schema
    }
}

// MARK: Output

extension Timeline {
    /// The movie's frame size, rate, background, encoder and sound settings. Every field may be left
    /// out: 1920×1080, 30 fps, black, CRF 18 `medium`, sound as it is.
    public struct Output: Sendable, Hashable {
        /// The frame size (default 1920×1080).
        public var size: FrameSize?
        /// Frames per second, exact (default 30).
        public var fps: FrameRate?
        /// The colour under every track (default black).
        public var background: ColorText?
        /// How long the movie lasts (default: as long as its longest video or overlay track).
        public var duration: TimeValue?
        /// How the video is encoded.
        public var encoder: EncoderOptions?
        /// How the sound is mixed and encoded.
        public var audio: AudioOptions?
        /// A canvas other than a plain colour under the tracks: a gradient, an image, or the movie itself
        /// blurred behind (written in `output.background` in place of the colour).
        public var backdrop: Backdrop?
        /// The platform the movie is made for (`"preset": "youtube-shorts"`): its size, frame rate,
        /// bit-rate ceiling, keyframes, loudness, longest length and safe area (`Platform`), over `size`.
        public var preset: Platform?
        /// The whole movie reframed to another aspect ratio (`"reframe": {"aspect": "9:16"}`): the frame
        /// gets that aspect ratio (the default size's longer side kept) and every video item without a
        /// `reframe` of its own follows its subject in a window of it.
        public var reframe: ReframeSpec?

        /// Output settings; anything left nil takes its default.
        public init(size: FrameSize? = nil, fps: FrameRate? = nil, background: ColorText? = nil, duration: TimeValue? = nil,
                    encoder: EncoderOptions? = nil, audio: AudioOptions? = nil, backdrop: Backdrop? = nil) {
            self.size = size; self.fps = fps; self.background = background; self.duration = duration
            self.encoder = encoder; self.audio = audio; self.backdrop = backdrop
        }

        /// The frame size used: `size` or 1920×1080.
        package var resolvedSize: FrameSize {
            if let preset { return FrameSize(width: preset.size.width, height: preset.size.height) }
            if size == nil, let reframe {
                let (w, h) = reframe.aspect.frameSize(from: 1920, height: 1080)
                return FrameSize(width: w, height: h)
            }
            return size ?? FrameSize(width: 1920, height: 1080)
        }
        /// The frame rate used: `fps` or 30.
        package var resolvedFrameRate: FrameRate {
            if let preset { return fps.flatMap { preset.acceptsFrameRate($0) ? $0 : nil } ?? Platform.defaultFrameRate }
            return fps ?? 30
        }
    }

    /// A frame size in pixels, written `"1920x1080"`.
    public struct FrameSize: Sendable, Hashable, CustomStringConvertible {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// The name it was given by (`1080p`), kept so the file is written back as it was; nil for `WxH`.
        public var name: String?
        /// `width`×`height`.
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        /// `1920x1080`, or the name it was given by.
        public var description: String { name ?? "\(width)x\(height)" }

        /// The sizes that can be given by name, as the `moviemaker` tool's `--size` takes them.
        package static let named: [(name: String, width: Int, height: Int)] = [
            ("2160p", 3840, 2160), ("4k", 3840, 2160), ("1440p", 2560, 1440), ("1080p", 1920, 1080),
            ("720p", 1280, 720), ("480p", 854, 480), ("360p", 640, 360),
        ]

        /// Reads `"1920x1080"` (or `×` between) or a name such as `"1080p"` (`named`); nil otherwise.
        package init?(text: String) {
            let lowered = text.lowercased()
            if let known = Self.named.first(where: { $0.name == lowered }) {
                self.init(width: known.width, height: known.height)
                name = known.name
                return
            }
            let parts = lowered.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "×" }
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                  parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return nil }
            self.init(width: w, height: h)
        }
    }

    /// The encoder settings a description may give (`output.encoder`).
    public struct EncoderOptions: Sendable, Hashable {
        /// The video codec (default: the container's, H.264 for `.mp4`; see `EncoderSettings.codec`).
        public var codec: VideoCodec?
        /// Bits per colour sample, 8 or 10 (HEVC and AV1); default 8.
        public var bitDepth: Int?
        /// Constant rate factor on the codec's scale (default: the codec's, 18 for H.264).
        public var crf: Int?
        /// x264 preset (default `medium`).
        public var preset: EncoderPreset?
        /// The longest distance between keyframes, in frames (default x264's, 250).
        public var keyframeInterval: Int?
        /// Lossless H.264 (x264's `qp 0`; see `EncoderSettings.lossless`); nil or false: lossy.
        public var lossless: Bool?
        /// How a GIF's palette is chosen (`.gif` output; default `movie`).
        public var palette: GIFPalette?
        /// How a GIF dithers (default `sierraLite`).
        public var dither: GIFDither?
        /// The colours in a GIF's palette, 4…256 (default 256).
        public var colors: Int?
        /// How many times an animated image plays: 0 forever (the default).
        public var plays: Int?
        /// A lossy WebP's quality, 0…100 (default 80).
        public var quality: Int?
        /// The largest GIF or WebP wanted, in bytes (`"maxSize": "5MB"`); nil: no limit.
        public var maxSize: Int?
        /// Encoder settings; nil fields keep their defaults.
        public init(codec: VideoCodec? = nil, bitDepth: Int? = nil, crf: Int? = nil, preset: EncoderPreset? = nil,
                    keyframeInterval: Int? = nil, lossless: Bool? = nil) {
            self.codec = codec; self.bitDepth = bitDepth
            self.crf = crf; self.preset = preset; self.keyframeInterval = keyframeInterval; self.lossless = lossless
        }
    }

    /// The sound settings a description may give (`output.audio`).
    public struct AudioOptions: Sendable, Hashable {
        /// The integrated loudness, in LUFS, the whole sound track is normalised to (EBU R128, true
        /// peak ≤ −1 dBTP); nil leaves the level as mixed.
        public var loudness: Double?
        /// AAC bit rate in bits per second (default 192000).
        public var bitrate: Int?
        /// How music marked `ducking` dips under the other sounds.
        public var ducking: Ducking?
        /// Sound settings; nil fields keep their defaults.
        public init(loudness: Double? = nil, bitrate: Int? = nil, ducking: Ducking? = nil) {
            self.loudness = loudness; self.bitrate = bitrate; self.ducking = ducking
        }
    }

    /// How ducked music dips (`AudioMix.Ducking`): every field may be left out.
    public struct Ducking: Sendable, Hashable {
        /// How far, in dB (default 12).
        public var depth: Double?
        /// How fast it dips (default 50 ms).
        public var attack: TimeValue?
        /// How fast it comes back (default 400 ms).
        public var release: TimeValue?
        /// How long the dip outlasts the sound that caused it (default 150 ms).
        public var hold: TimeValue?
        /// Ducking settings; nil fields keep their defaults.
        public init(depth: Double? = nil, attack: TimeValue? = nil, release: TimeValue? = nil, hold: TimeValue? = nil) {
            self.depth = depth; self.attack = attack; self.release = release; self.hold = hold
        }
    }
}

// MARK: Tracks and items

extension Timeline {
    /// A row of the timeline: items of one kind.
    public struct Track: Sendable, Hashable {
        /// What a track holds and how its items are placed.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// Pictures one after another (cuts, or each item's `transition` into the next).
            case video
            /// Pictures placed `at` times over the tracks below.
            case overlay
            /// Music and sounds placed `at` times.
            case audio
        }
        /// How the track's items are placed.
        public var kind: Kind
        /// A name to show in editors and errors.
        public var name: String?
        /// Whether the track plays (default true; a disabled track is kept but neither seen nor heard).
        public var enabled: Bool?
        /// The items, in order.
        public var items: [Item]
        /// Marked points, in the movie's time.
        public var markers: [Marker]
        /// Anything else a tool wants to keep with the track.
        public var metadata: [String: JSONValue]

        /// A track of `kind` holding `items`.
        public init(_ kind: Kind, name: String? = nil, enabled: Bool? = nil, items: [Item] = [], markers: [Marker] = [],
                    metadata: [String: JSONValue] = [:]) {
            self.kind = kind; self.name = name; self.enabled = enabled; self.items = items; self.markers = markers; self.metadata = metadata
        }
    }

    /// One item of a track: what it shows or plays (`content`), and how it sits in its track.
    public struct Item: Sendable, Hashable {
        /// What the item shows or plays.
        public var content: Content
        /// A name to show in editors and plans (`label` in a description file; OpenTimelineIO's clip name).
        public var label: String?
        /// Where the item starts, for items of overlay and audio tracks (default 0). Items of a video
        /// track follow each other and have none.
        public var at: TimeValue?
        /// The transition from this item into the next one of its video track (nil: a cut).
        public var transition: TransitionSpec?
        /// Whether the item plays (default true; a disabled item of a video track leaves a gap).
        public var enabled: Bool?
        /// Marked points, in the item's own time (from its start).
        public var markers: [Marker]
        /// Anything else a tool wants to keep with the item.
        public var metadata: [String: JSONValue]
        /// Picture filters applied to the item, in order (`"filters": [{"name": "grayscale"}, …]`; see
        /// `Clip.Filter.names`). Picture items only.
        public var filters: [FilterSpec]
        /// How the item is placed: `{"position": [x, y], "scale": 1.2, "rotation": 90, "opacity": 0.8,
        /// "anchor": [0.5, 0.5], "flip": "horizontal", "crop": {x, y, width, height}, "cornerRadius": 12,
        /// "blend": "multiply"}`; position, scale, rotation and opacity may be keyframes
        /// `[{"at": "0s", "value": …, "easing": …}, …]`. Picture items only.
        public var transform: Transform?
        /// Another picture item whose alpha or luma decides where this item shows
        /// (`"mask": {"item": {…}, "mode": "luma"}`). Picture items only.
        public var mask: Mask?
        /// When set, the item lasts until this point of a narration (`"duration": {"until": "n1"}` or
        /// `{"mark": "n1#cut"}`), whatever its content's own duration says (the reader leaves 1 s there).
        public var endsAt: NarrationPoint?

        /// An item showing or playing `content`.
        public init(_ content: Content, label: String? = nil, at: TimeValue? = nil, transition: TransitionSpec? = nil,
                    enabled: Bool? = nil, markers: [Marker] = [], metadata: [String: JSONValue] = [:],
                    filters: [FilterSpec] = [], transform: Transform? = nil, mask: Mask? = nil) {
            self.content = content; self.label = label; self.at = at; self.transition = transition
            self.enabled = enabled; self.markers = markers; self.metadata = metadata
            self.filters = filters; self.transform = transform; self.mask = mask
        }

        /// The item's `type` in a description file (`Content.typeNames` lists them).
        package var typeName: String { content.typeName }
    }

    /// Where an item's media comes from: a file, or a template's slot.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// `{"file": "clips/a.mp4"}`: a path, relative to the description file's folder unless absolute.
        case file(String)
        /// `{"slot": "clip1"}`: the media the user puts in the template's slot `clip1`.
        case slot(String)
        /// `file a.mp4` or `slot clip1`.
        public var description: String {
            switch self {
            case let .file(path): return "file \(path)"
            case let .slot(name): return "slot \(name)"
            }
        }

        /// The source with `transform` applied to its path (a slot stays as it is).
        func mappingFilePath(_ transform: (String) -> String) -> Source {
            if case let .file(path) = self { return .file(transform(path)) }
            return self
        }
    }

    /// A transition into the next item of a video track: an FFmpeg xfade name, a duration and an easing.
    public struct TransitionSpec: Sendable, Hashable {
        /// The xfade name (`fade`, `wipeleft`, `circleopen`… see `Transition.knownNames`).
        public var name: String
        /// How long the two items overlap (default 1 s).
        public var duration: TimeValue?
        /// The timing curve (default linear).
        public var easing: Easing?
        /// The transition `name` lasting `duration`.
        public init(_ name: String, duration: TimeValue? = nil, easing: Easing? = nil) {
            self.name = name; self.duration = duration; self.easing = easing
        }
    }

    /// A marked point or range (OpenTimelineIO's Marker): a name, a time, and optionally a length,
    /// colour and comment. Markers do not change the picture.
    public struct Marker: Sendable, Hashable {
        /// The marker's name.
        public var name: String
        /// Where it is: in the movie's time for the timeline's and tracks' markers, in the item's own
        /// time for an item's.
        public var at: TimeValue
        /// The length of the marked range (default 0: a point).
        public var duration: TimeValue?
        /// An editor's colour name (`RED`, `GREEN`…; OpenTimelineIO's names).
        public var color: String?
        /// A note.
        public var comment: String?
        /// A marker `name` at `at`.
        public init(_ name: String, at: TimeValue, duration: TimeValue? = nil, color: String? = nil, comment: String? = nil) {
            self.name = name; self.at = at; self.duration = duration; self.color = color; self.comment = comment
        }
    }
}

// MARK: Item contents

extension Timeline {
    /// Pan and zoom of a photo: on or off (`true`: a gentle seeded zoom), the settings of a
    /// slideshow's Ken Burns (`{"zoom": 0.2, "direction": "in"}`), or exact start and end views
    /// (`{"from": {…}, "to": {…}}`, unit rectangles of the fitted picture).
    public enum KenBurnsSpec: Sendable, Hashable {
        /// `true` (the defaults of `Slideshow.KenBurns`) or `false` (still).
        case enabled(Bool)
        /// Zoom, pan, direction and seed; nil fields take `Slideshow.KenBurns`'s defaults.
        case settings(zoom: Double?, pan: Double?, direction: Slideshow.KenBurns.Direction?, seed: UInt64?)
        /// The view at the start and at the end.
        case path(from: Rect, to: Rect)
    }

    /// A colour as written in a description: CSS text (`"#ff8000"`, `"tomato"`, `"rgb(…)"`), `"none"`
    /// where nothing may be drawn, or `"{{slot}}"` naming a colour slot. Kept as written (a name stays a
    /// name); checked when the description is read.
    public struct ColorText: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The text as written.
        public var text: String
        /// `text`, unchecked until the timeline is read or resolved.
        public init(_ text: String) { self.text = text }
        /// A colour literal, e.g. `"#ff8000"`.
        public init(stringLiteral value: String) { text = value }
        /// The colour as `#rrggbb` (or `#rrggbbaa`).
        public init(_ color: Color) { text = color.hexString }
        /// The text.
        public var description: String { text }
    }

    /// A picture item used as another item's mask: where its alpha (or luma, or their inverse) is high,
    /// the masked item shows. The mask item is drawn in the masked item's own time (its `at` delays it).
    public struct Mask: Sendable, Hashable {
        private var boxed: [Item]   // one item: an array gives the recursion (an item inside an item) a box
        /// The mask's picture.
        public var item: Item {
            get { boxed[0] }
            set { boxed = [newValue] }
        }
        /// How the mask's picture is read (default alpha).
        public var mode: Clip.MaskMode?
        /// A mask of `item` read by `mode`.
        public init(_ item: Item, mode: Clip.MaskMode? = nil) { boxed = [item]; self.mode = mode }
    }

    /// The canvas under the tracks when it is not a plain colour (`output.background`).
    public enum Backdrop: Sendable, Hashable {
        /// A linear gradient through the colours, at `angle` degrees as CSS measures them (90: left to
        /// right, 180: top to bottom; default 180): `{"gradient": ["#123", "#456"], "angle": 180}`.
        case gradient([ColorText], angle: Double?)
        /// A picture under the tracks: `{"image": "paper.jpg", "fit": "fill"}`; `fit` is `.fill` (the default,
        /// cropped to cover the frame) or `.fit` (whole, on black): a render refuses the others.
        case image(String, fit: ImageFit?)
        /// The movie itself, scaled to cover the frame and blurred, behind it: `"blur"` (as the slideshow's
        /// `blur` fit), or `{"blur": 40}` for another radius in output pixels (default: 4 % of the frame height). Items then leave the bars
        /// around fitted pictures transparent, so the blurred copy shows there.
        case blur(radius: Double?)
    }

}

// MARK: Templates

extension Timeline {
    /// What makes a timeline a template (seed 001's operation information): a title, a description
    /// and a thumbnail, shown where templates are chosen.
    public struct Template: Sendable, Hashable {
        /// The template's title.
        public var title: String
        /// What it makes, in a sentence or two.
        public var description: String?
        /// A picture of it (a path, relative to the description's folder).
        public var thumbnail: String?
        /// Template information.
        public init(title: String, description: String? = nil, thumbnail: String? = nil) {
            self.title = title; self.description = description; self.thumbnail = thumbnail
        }
    }

    /// A place in a template that the user fills: its kind, an optional default (so the template
    /// renders as its own preview), and for media, how a clip of another length is fitted.
    public struct Slot: Sendable, Hashable {
        /// What a slot takes.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A video file.
            case video
            /// A photo.
            case photo
            /// A video or a photo.
            case media
            /// Text, put in with `{{name}}`.
            case text
            /// A colour, put in with `"{{name}}"` where a colour goes.
            case color
            /// A sound file.
            case audio
        }
        /// How a video slot's clip is fitted to the item's `duration` when it is longer or shorter.
        public enum Fit: String, Sendable, Hashable, CaseIterable {
            /// Longer: its end is cut. Shorter: it plays whole and the item is that much shorter.
            case cutTail
            /// Longer: its start is cut (the last `duration` plays). Shorter: as `cutTail`.
            case cutHead
            /// Longer: both ends are cut equally (the middle plays). Shorter: as `cutTail`.
            case center
            /// Played faster or slower to last exactly `duration` (within ¼…4×; beyond that, as near as
            /// it gets, then as `cutTail`).
            case speedToFit
            /// Longer: as `cutTail`. Shorter: played again and again to fill `duration`.
            case loop
            /// Longer: as `cutTail`. Shorter: its last frame is held to fill `duration`.
            case freezeLast
        }
        /// What the slot takes.
        public var kind: Kind
        /// What the slot asks for, shown to the user.
        public var description: String?
        /// What the slot holds until filled (a source for media and audio, text for text, a colour for colour).
        public var `default`: SlotValue?
        /// For video and media slots: how a clip of another length fits the item (default `cutTail`).
        public var fit: Fit?
        /// For text slots: the most characters (grapheme clusters) a value may have; a longer one is
        /// refused by `Timeline.filled(with:)` rather than overflowing the layout.
        public var maxLength: Int?

        /// A slot of `kind`.
        public init(_ kind: Kind, description: String? = nil, default value: SlotValue? = nil, fit: Fit? = nil, maxLength: Int? = nil) {
            self.kind = kind; self.description = description; self.default = value; self.fit = fit; self.maxLength = maxLength
        }
    }

    /// What fills a slot: a media or sound file, a text, or a colour.
    public enum SlotValue: Sendable, Hashable, CustomStringConvertible {
        /// A file: `{"file": "a.mp4"}` in a description (relative to its folder).
        case file(String)
        /// A text.
        case text(String)
        /// A colour, as written.
        case color(ColorText)
        /// `file a.mp4`, `"Ana"` or `#ff8000`.
        public var description: String {
            switch self {
            case let .file(path): return "file \(path)"
            case let .text(text): return "\"\(text)\""
            case let .color(color): return color.text
            }
        }
    }
}

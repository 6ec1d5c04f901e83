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
    public static let currentVersion = 1

    /// The most characters a title's text, subtitle or body may have once its `{{slots}}` are filled
    /// (`composition(_:)` refuses longer ones). Typewriter, letters and words titles draw every
    /// character clipped from the whole text, so a frame's cost grows with the square of the length:
    /// 70,000 characters took 28 s a frame.
    public static let maximumTitleTextLength = 2_000

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

        /// Output settings; anything left nil takes its default.
        public init(size: FrameSize? = nil, fps: FrameRate? = nil, background: ColorText? = nil, duration: TimeValue? = nil,
                    encoder: EncoderOptions? = nil, audio: AudioOptions? = nil, backdrop: Backdrop? = nil) {
            self.size = size; self.fps = fps; self.background = background; self.duration = duration
            self.encoder = encoder; self.audio = audio; self.backdrop = backdrop
        }

        /// The frame size used: `size` or 1920×1080.
        public var resolvedSize: FrameSize { size ?? FrameSize(width: 1920, height: 1080) }
        /// The frame rate used: `fps` or 30.
        public var resolvedFrameRate: FrameRate { fps ?? 30 }
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
        public static let named: [(name: String, width: Int, height: Int)] = [
            ("2160p", 3840, 2160), ("4k", 3840, 2160), ("1440p", 2560, 1440), ("1080p", 1920, 1080),
            ("720p", 1280, 720), ("480p", 854, 480), ("360p", 640, 360),
        ]

        /// Reads `"1920x1080"` (or `×` between) or a name such as `"1080p"` (`named`); nil otherwise.
        public init?(text: String) {
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
        /// x264 constant rate factor, 0…51 (default 18).
        public var crf: Int?
        /// x264 preset (default `medium`).
        public var preset: EncoderPreset?
        /// The longest distance between keyframes, in frames (default x264's, 250).
        public var keyframeInterval: Int?
        /// Lossless H.264 (x264's `qp 0`; see `EncoderSettings.lossless`); nil or false: lossy.
        public var lossless: Bool?
        /// Encoder settings; nil fields keep their defaults.
        public init(crf: Int? = nil, preset: EncoderPreset? = nil, keyframeInterval: Int? = nil, lossless: Bool? = nil) {
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
        /// `[{"at": "0s", "value": …, "easing": …}, …]`. Kept as written; checked when read. Picture items only.
        public var transform: JSONValue?
        /// Another picture item whose alpha or luma decides where this item shows
        /// (`"mask": {"item": {…}, "mode": "luma"}`). Picture items only.
        public var mask: Mask?

        /// An item showing or playing `content`.
        public init(_ content: Content, label: String? = nil, at: TimeValue? = nil, transition: TransitionSpec? = nil,
                    enabled: Bool? = nil, markers: [Marker] = [], metadata: [String: JSONValue] = [:],
                    filters: [FilterSpec] = [], transform: JSONValue? = nil, mask: Mask? = nil) {
            self.content = content; self.label = label; self.at = at; self.transition = transition
            self.enabled = enabled; self.markers = markers; self.metadata = metadata
            self.filters = filters; self.transform = transform; self.mask = mask
        }

        /// The item's `type` in a description file: `video`, `photo`, `title`, `color`, `slideshow`,
        /// `music`, `audio`, `generator` or `gap`.
        public var typeName: String { content.typeName }
    }

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

        /// The `type` written in a description file.
        public var typeName: String {
            switch self {
            case .video: return "video"
            case .photo: return "photo"
            case .title: return "title"
            case .color: return "color"
            case .slideshow: return "slideshow"
            case let .audio(a): return a.isMusic ? "music" : "audio"
            case .generator: return "generator"
            case .gap: return "gap"
            case .split: return "split"
            case .sticker: return "sticker"
            case .subtitles: return "subtitles"
            }
        }

        /// Whether the item is a picture (anything but music and audio).
        public var isPicture: Bool {
            if case .audio = self { return false }
            return true
        }

        /// Every `type` name, in the order the description file's documentation lists them.
        public static let typeNames = ["video", "photo", "title", "color", "slideshow", "music", "audio", "generator", "gap", "split", "sticker", "subtitles"]
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
    /// A video item (`"type": "video"`).
    ///
    /// It shows the file from `in` (source time) for `duration` (time in the movie) at `speed`: the
    /// source span is `duration × speed`. With `reverse` that span plays backwards; with `freeze` the
    /// frame at `in` is held for `duration`. The file's own sound plays with it at `volume`.
    public struct Video: Sendable, Hashable {
        /// The file or slot.
        public var source: Source
        /// Where in the file it starts (default 0).
        public var `in`: TimeValue?
        /// How long it lasts in the movie (default: to the end of the file, at `speed`).
        public var duration: TimeValue?
        /// Playback speed, ¼…4 (default 1); written as a number or an exact fraction string (`"2/3"`).
        public var speed: Speed?
        /// Whether the span plays backwards (default false).
        public var reverse: Bool?
        /// Whether the frame at `in` is held still for `duration`, silent (default false).
        public var freeze: Bool?
        /// How the picture fills the frame (default `fill`).
        public var fit: Slideshow.Fit?
        /// The colour of the bars around a fitted picture (default black).
        public var background: ColorText?
        /// How loud its own sound plays (default 1; 0 mutes it).
        public var volume: Volume?

        /// A video item; nil fields take their defaults.
        public init(_ source: Source, in start: TimeValue? = nil, duration: TimeValue? = nil, speed: Speed? = nil, reverse: Bool? = nil,
                    freeze: Bool? = nil, fit: Slideshow.Fit? = nil, background: ColorText? = nil, volume: Volume? = nil) {
            self.source = source; self.in = start; self.duration = duration; self.speed = speed; self.reverse = reverse
            self.freeze = freeze; self.fit = fit; self.background = background; self.volume = volume
        }
    }

    /// A photo item (`"type": "photo"`).
    public struct Photo: Sendable, Hashable {
        /// The file or slot.
        public var source: Source
        /// How long it is shown (default 3 s).
        public var duration: TimeValue?
        /// How it fills the frame (default `fill`).
        public var fit: Slideshow.Fit?
        /// The colour around a fitted photo (default black).
        public var background: ColorText?
        /// Pan and zoom (default none).
        public var kenBurns: KenBurnsSpec?

        /// A photo item; nil fields take their defaults.
        public init(_ source: Source, duration: TimeValue? = nil, fit: Slideshow.Fit? = nil, background: ColorText? = nil,
                    kenBurns: KenBurnsSpec? = nil) {
            self.source = source; self.duration = duration; self.fit = fit; self.background = background; self.kenBurns = kenBurns
        }
    }

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

    /// The entrance and exit styles of a title (`TitleAnimation`'s, by name).
    public enum TitleStyle: String, Sendable, Hashable, CaseIterable {
        /// The style's animation with its own duration and easing (a `slide` coming from `edge`: from
        /// beyond the frame's edge, or over `distance` pixels at 1080 lines when given).
        public func animation(from edge: Edge = .bottom, distance: Double? = nil) -> TitleAnimation {
            switch self {
            case .fade: return .fade()
            case .slide: return .slide(from: edge, distance: distance)
            case .typewriter: return .typewriter()
            case .pop: return .pop()
            case .letters: return .letters()
            case .words: return .words()
            case .blur: return .blur()
            case .none: return .none
            }
        }

        /// Fade in.
        case fade
        /// Slide in from `from` (default the bottom).
        case slide
        /// Letters appear one by one, as typed.
        case typewriter
        /// Scale up with a slight overshoot.
        case pop
        /// Each letter fades and rises in turn.
        case letters
        /// Each word fades and rises in turn.
        case words
        /// Come into focus.
        case blur
        /// No animation.
        case none
    }

    /// A title card item (`"type": "title"`). Text fields may use `{{slot}}` to take a template's text.
    public struct Title: Sendable, Hashable {
        /// The main line.
        public var text: String
        /// A smaller line under it.
        public var subtitle: String?
        /// Paragraph text under the subtitle.
        public var body: String?
        /// How long it lasts (default 4 s).
        public var duration: TimeValue?
        /// How the text comes on (default `fade`).
        public var style: TitleStyle?
        /// Where a `slide` comes from (default the bottom).
        public var from: Edge?
        /// The entrance's timing curve (default: the style's own).
        public var easing: Easing?
        /// How long the entrance takes (default: the style's own, 0.6–1.5 s).
        public var entranceDuration: TimeValue?
        /// How the text goes off (default `fade`).
        public var exitStyle: TitleStyle?
        /// `fullScreen` (centred) or `lowerThird` (default `fullScreen`).
        public var layout: TitleCard.Layout?
        /// The text's colour (default white); may be `"{{slot}}"` for a colour slot.
        public var color: ColorText?
        /// Behind the text: a colour, or `"none"` (default: dark blue-grey on a video track, none on an overlay track).
        public var background: ColorText?
        /// The font family (default DejaVu Sans).
        public var font: String?
        /// The largest title size in pixels at 1080 lines (default 120; shrunk to fit).
        public var fontSize: Double?
        /// How far a `slide` travels, in pixels at 1080 lines (default: from beyond the frame's edge).
        public var slideDistance: Double?

        /// A title item; nil fields take their defaults.
        public init(_ text: String, subtitle: String? = nil, body: String? = nil, duration: TimeValue? = nil, style: TitleStyle? = nil,
                    from: Edge? = nil, easing: Easing? = nil, entranceDuration: TimeValue? = nil, exitStyle: TitleStyle? = nil,
                    layout: TitleCard.Layout? = nil, color: ColorText? = nil, background: ColorText? = nil, font: String? = nil,
                    fontSize: Double? = nil, slideDistance: Double? = nil) {
            self.text = text; self.subtitle = subtitle; self.body = body; self.duration = duration; self.style = style
            self.from = from; self.easing = easing; self.entranceDuration = entranceDuration; self.exitStyle = exitStyle
            self.layout = layout; self.color = color; self.background = background; self.font = font; self.fontSize = fontSize
            self.slideDistance = slideDistance
        }
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

    /// A colour item (`"type": "color"`): the frame in one colour.
    public struct ColorFill: Sendable, Hashable {
        /// The colour; may be `"{{slot}}"`.
        public var color: ColorText
        /// How long it lasts; nil only in a split's cell, which then lasts as long as the split.
        public var duration: TimeValue?
        /// `color` for `duration` (nil: as long as the split whose cell it is).
        public init(_ color: ColorText, duration: TimeValue?) { self.color = color; self.duration = duration }
    }

    /// A slideshow item (`"type": "slideshow"`): photos one after another, each for `duration`, joined
    /// by `photoTransition`, fitted and moved as a `Slideshow` does.
    public struct SlideshowItem: Sendable, Hashable {
        /// The photos (files or slots), in order.
        public var photos: [Source]
        /// How long each photo is shown (default 3 s).
        public var duration: TimeValue?
        /// How photos fill the frame (default `blur`).
        public var fit: Slideshow.Fit?
        /// The colour around fitted photos (default black).
        public var background: ColorText?
        /// The transition between photos (default a 1 s crossfade).
        public var photoTransition: TransitionSpec?
        /// Pan and zoom (default on: `Slideshow.KenBurns`'s defaults). The `from`/`to` form is not
        /// accepted here: each photo gets its own seeded movement.
        public var kenBurns: KenBurnsSpec?
        /// Captions (default none).
        public var captions: Slideshow.Captions?

        /// A slideshow item; nil fields take their defaults.
        public init(_ photos: [Source], duration: TimeValue? = nil, fit: Slideshow.Fit? = nil, background: ColorText? = nil,
                    photoTransition: TransitionSpec? = nil, kenBurns: KenBurnsSpec? = nil, captions: Slideshow.Captions? = nil) {
            self.photos = photos; self.duration = duration; self.fit = fit; self.background = background
            self.photoTransition = photoTransition; self.kenBurns = kenBurns; self.captions = captions
        }
    }

    /// A music or sound item of an audio track (`"type": "music"` or `"audio"`).
    ///
    /// Music (the default for `"music"`) loops to fill the movie, fades in over 0.5 s and out over 2 s
    /// at the movie's end, and ducks under the other sounds (the clips' own and audio items that do not
    /// duck, such as a voice-over); a sound (`"audio"`) plays once, as it is.
    public struct Audio: Sendable, Hashable {
        /// Whether this is `"music"` (true) or `"audio"` (false): only the defaults differ.
        public var isMusic: Bool
        /// The file or slot.
        public var source: Source
        /// Where in the file it starts (default 0).
        public var `in`: TimeValue?
        /// How long it plays (default: music to the movie's end, a sound to the file's end).
        public var duration: TimeValue?
        /// How loud (default 1).
        public var volume: Volume?
        /// Fade-in length (music: 0.5 s, sound: none).
        public var fadeIn: TimeValue?
        /// Fade-out length, at the item's end or the movie's (music: 2 s, sound: 10 ms).
        public var fadeOut: TimeValue?
        /// Whether a file shorter than `duration` repeats (music: yes, sound: no).
        public var loop: Bool?
        /// Whether it dips while the movie's other sounds play (music: yes, sound: no).
        public var ducking: Bool?

        /// A `"music"` (`isMusic`) or `"audio"` item; nil fields take their defaults.
        public init(music isMusic: Bool, _ source: Source, in start: TimeValue? = nil, duration: TimeValue? = nil, volume: Volume? = nil,
                    fadeIn: TimeValue? = nil, fadeOut: TimeValue? = nil, loop: Bool? = nil, ducking: Bool? = nil) {
            self.isMusic = isMusic; self.source = source; self.in = start; self.duration = duration; self.volume = volume
            self.fadeIn = fadeIn; self.fadeOut = fadeOut; self.loop = loop; self.ducking = ducking
        }
    }

    /// A picture made by code (`"type": "generator"`): the generator registered under `name`
    /// (`GeneratorRegistry`), given `params`, for `duration`.
    public struct Generator: Sendable, Hashable {
        /// The registered name (`confetti`, `gradient`, or one a program registered).
        public var name: String
        /// The generator's parameters, as JSON.
        public var params: [String: JSONValue]
        /// How long it lasts; nil only in a split's cell, which then lasts as long as the split.
        public var duration: TimeValue?
        /// The generator `name` with `params`, for `duration` (nil: as long as the split whose cell it is).
        public init(_ name: String, params: [String: JSONValue] = [:], duration: TimeValue?) {
            self.name = name; self.params = params; self.duration = duration
        }
    }

    /// Nothing, for a while (`"type": "gap"`): what is below shows through.
    public struct Gap: Sendable, Hashable {
        /// How long.
        public var duration: TimeValue
        /// A gap of `duration`.
        public init(duration: TimeValue) { self.duration = duration }
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
        /// A picture filling the frame: `{"image": "paper.jpg", "fit": "fill"}`.
        case image(String, fit: ImageFit?)
        /// The movie itself, scaled to cover the frame and blurred, behind it: `"blur"` (as the slideshow's
        /// `blur` fit), or `{"blur": 40}` for another radius in output pixels (default: 4 % of the frame height). Items then leave the bars
        /// around fitted pictures transparent, so the blurred copy shows there.
        case blur(radius: Double?)
    }

    /// Several pictures at once (`"type": "split"`): cells side by side, stacked, in a grid, or one small
    /// over another.
    public struct Split: Sendable, Hashable {
        /// `"2x1"`, `"1x2"`, `"3x1"`, `"2x2"`, `"3x3"` or `"pip"`.
        public var layout: Clip.SplitScreen.Layout
        /// The cells: picture items, in reading order (picture-in-picture: the main picture, then the
        /// inset). A cell item may have `at` (it starts later within the split).
        public var cells: [Item]
        /// How every cell's picture fits its cell (default fill).
        public var fit: ImageFit?
        /// How each cell's picture fits, by cell (overrides `fit`).
        public var fits: [ImageFit]?
        /// The space between and around cells, in output pixels (default 0).
        public var gutter: Double?
        /// The colour of the gutters and empty cells (default black; picture-in-picture: transparent).
        public var background: ColorText?
        /// The cells' border width in output pixels (default 0; picture-in-picture 2).
        public var borderWidth: Double?
        /// The border colour (default white).
        public var borderColor: ColorText?
        /// The cells' corner radius in output pixels (default 0; picture-in-picture 12).
        public var cornerRadius: Double?
        /// Picture-in-picture: the corner (default bottomRight).
        public var corner: Clip.SplitScreen.Corner?
        /// Picture-in-picture: the inset's width as a fraction of the frame's (default 0.3).
        public var size: Double?
        /// Picture-in-picture: the distance to the frame's edges in output pixels (default 24).
        public var margin: Double?
        /// How long the split lasts (default: its longest cell).
        public var duration: TimeValue?

        /// A split of `cells` in `layout`.
        public init(_ layout: Clip.SplitScreen.Layout, cells: [Item], fit: ImageFit? = nil, fits: [ImageFit]? = nil, gutter: Double? = nil,
                    background: ColorText? = nil, borderWidth: Double? = nil, borderColor: ColorText? = nil, cornerRadius: Double? = nil,
                    corner: Clip.SplitScreen.Corner? = nil, size: Double? = nil, margin: Double? = nil, duration: TimeValue? = nil) {
            self.layout = layout; self.cells = cells; self.fit = fit; self.fits = fits; self.gutter = gutter
            self.background = background; self.borderWidth = borderWidth; self.borderColor = borderColor
            self.cornerRadius = cornerRadius; self.corner = corner; self.size = size; self.margin = margin; self.duration = duration
        }
    }

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
        public static let animationNames = ["none", "pop", "fade", "slide-left", "slide-right", "slide-top", "slide-bottom"]
    }

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
        public static let styleNames = ["outline", "box"]
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

        /// A slot of `kind`.
        public init(_ kind: Kind, description: String? = nil, default value: SlotValue? = nil, fit: Fit? = nil) {
            self.kind = kind; self.description = description; self.default = value; self.fit = fit
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

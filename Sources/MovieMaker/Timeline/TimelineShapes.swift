import Foundation

// The shapes of the description file's objects: one list of fields per object, used three ways — the
// reader refuses keys a shape does not list, the writer may only write keys it lists, and the published
// JSON Schema is generated from the same lists (enums from the Swift cases). So the schema, the reader
// and the writer cannot drift apart; `TimelineSchemaTests` checks the committed schema file against
// the generated one.

/// Every shape of the description file, version 1.
enum TimelineShapes {
    /// An even number from 16 to 8192, a frame side the reader takes, as a regular expression.
    static let evenSide = "(1[68]|[2-9][02468]|[1-9][0-9][02468]|[1-7][0-9]{2}[02468]|80[0-9][02468]|81[0-8][02468]|819[02])"

    // Times: a number of seconds or a string with a unit. The patterns refuse what the reader refuses
    // (a sign, a missing unit, a zero denominator, line breaks around it: the reader trims spaces and
    // tabs only); the reader also refuses times over 24 hours, which a pattern cannot say of a string
    // (a number gets a maximum).
    static let timePattern = #"^[ \t]*(([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?(/(?!0*\.?0*([eE][+-]?[0-9]+)?[ \t]*m?s[ \t]*$)([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)?[ \t]*(s|ms)|[0-9]+[ \t]*f|[0-9]+h([0-9]+m)?(([0-9]+(\.[0-9]*)?|\.[0-9]+)s)?|[0-9]+m(([0-9]+(\.[0-9]*)?|\.[0-9]+)s)?)[ \t]*$"#
    /// The time pattern with zero refused: a lookahead rejects numbers whose digits are all 0.
    static let positiveTimePattern = #"^(?![ \t]*(0*\.?0*([eE][+-]?[0-9]+)?(/[^sm]*)?[ \t]*(s|ms)|0+[ \t]*f|(0+h)?(0+m)?(0*\.?0*s)?)[ \t]*$)"# + String(timePattern.dropFirst())

    /// `{"until": "n1"}` or `{"mark": "n1#cut"}`: one key, a string.
    /// `word` as a regular expression matching it in any case: each letter a class of both ("[Rr][Ee][Dd]").
    static func anyCase(_ word: String) -> String {
        word.map { $0.isLetter ? "[\($0.uppercased())\($0.lowercased())]" : String($0) }.joined()
    }

    static func narrationPoint(_ key: String, _ value: JSONValue) -> JSONValue {
        .object(["type": .string("object"), "properties": .object([key: value]), "required": .array([.string(key)]),
                 "additionalProperties": .bool(false)])
    }

    static let definitions: [String: JSONValue] = {
        var defs: [String: JSONValue] = [
            "time": Schema.oneOf([Schema.string(pattern: timePattern), Schema.number(minimum: 0, maximum: 86_400)]),
            "duration": Schema.oneOf([Schema.string(pattern: positiveTimePattern), Schema.number(exclusiveMinimum: 0, maximum: 86_400)]),
            // An item's duration may be a point of a narration instead (Timeline.NarrationPoint).
            "itemDuration": Schema.oneOf([Schema.ref("duration"),
                                          narrationPoint("until", Schema.string(pattern: #"^[^#]+$"#)),
                                          narrationPoint("mark", Schema.string(pattern: #"^[^#]+#.+$"#))]),
            // Colours: CSS hex, functions or names, in any case as MovieMaker reads them (the names also
            // as an enumeration, lower case as Color.cssNames lists them, for editors to offer), or
            // "{{slot}}" naming a colour slot. JSON Schema patterns have no case-insensitive flag, so
            // each letter is a class of both cases.
            "cssColor": Schema.anyOf([Schema.string(pattern: #"^\s*#?([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\s*$"#),
                                      Schema.string(pattern: #"^\s*([Rr][Gg][Bb][Aa]?|[Hh][Ss][Ll][Aa]?)\s*\(.*\)\s*$"#),
                                      Schema.enumeration(Color.cssNames + ["transparent"]),
                                      Schema.string(pattern: "^\\s*(" + (Color.cssNames + ["transparent"]).map(Self.anyCase).joined(separator: "|") + ")\\s*$")]),
            "color": Schema.anyOf([Schema.ref("cssColor"), Schema.string(pattern: #"^\s*\{\{\s*[A-Za-z_][A-Za-z0-9_-]*\s*\}\}\s*$"#)]),
            "titleBackground": Schema.anyOf([Schema.ref("color"), Schema.constant("none")]),
            "source": Schema.oneOf([Schema.ref("fileSource"), slotSource.schema, Schema.string(pattern: #"\S"#)]),
            "fileSource": fileSource.schema,
            "speed": Schema.oneOf([Schema.number(minimum: 0.25, maximum: 4),
                                   Schema.string(pattern: #"^\s*[0-9]+(\.[0-9]+)?\s*/\s*[0-9]+(\.[0-9]+)?\s*$"#)]),
            "volume": Schema.oneOf([Schema.number(minimum: 0, maximum: 16),
                                    Schema.string(pattern: #"^\s*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\s*dB\s*$"#)]),
            "fit": Schema.enumeration(Slideshow.Fit.allCases.map(\.rawValue)),
            // The names as listed (for editors to offer), and as the reader takes them: in any case, with
            // any "-", "_" or spaces between letters (`EaseInOut`, `ease_in_out`).
            "easing": Schema.anyOf([Schema.enumeration(Easing.allNames + Easing.alternativeNames),
                                    Schema.string(pattern: "^[-_ \\t\\r\\n]*(" + Set((Easing.allNames + Easing.alternativeNames).map { name in
                                        name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
                                    }).sorted().map { $0.map { Self.anyCase(String($0)) }.joined(separator: "[-_ ]*") }.joined(separator: "|") + ")[-_ \\t\\r\\n]*$"),
                                    Schema.string(pattern: #"^\s*(cubic-bezier|steps|spring)\s*\(|\.(reversed|mirrored|squished|then)"#)]),
            "transition": transition.schema,
            "transitionName": Schema.enumeration(TimelineShapes.transitionNames),
            "marker": marker.schema,
            "videoCaptions": Timeline.VideoCaptions.shape.schema,
            "rect": rect.schema,
            "kenBurns": Schema.oneOf([Schema.boolean, Schema.ref("kenBurnsSettings"), Schema.ref("kenBurnsPath")]),
            "kenBurnsSettings": kenBurnsSettings.schema,
            "kenBurnsPath": kenBurnsPath.schema,
            "metadata": Schema.anyObject,
            "output": output.schema,
            "encoder": encoder.schema,
            "audioSettings": audioSettings.schema,
            "ducking": ducking.schema,
            "template": template.schema,
            "slot": slotSchema,
            "videoTrack": videoTrack.schema,
            "overlayTrack": overlayTrack.schema,
            "audioTrack": audioTrack.schema,
            "filter": filterSchema,
            "transform": transformShape.schema,
            "cropRect": cropRect.schema,
            "mask": maskShape.schema,
        ]
        for shape in pictureItems(in: .video) + pictureItems(in: .overlay) + audioItems + splitCells { defs[shape.name] = shape.schema }
        return defs
    }()

    /// The transition names a description accepts: xfade's (`Transition.knownNames`) and the aliases
    /// `crossfade` and `pushleft`…`pushdown`.
    /// The transition names a description takes: FFmpeg's xfade names, `crossfade`, `push…`, and `none`
    /// (a cut: what a slideshow item's `photoTransition` needs to say, its default being a fade).
    static let transitionNames: [String] = Transition.knownNames + ["crossfade"] + Transition.Direction.allCases.map { "push" + $0.rawValue } + ["none"]

    // MARK: Top level

    static let timeline = SpecShape(name: "timeline", doc: "A MovieMaker description file, version 1: output settings and tracks (the first at the bottom), optionally a template with slots.", fields: [
        SpecField("$schema", Schema.string(), "The JSON Schema an editor checks this file against (ignored by MovieMaker)."),
        SpecField("version", .object(["const": .integer(1)]), required: true, "The description format version: 1."),
        SpecField("output", Schema.ref("output"), "Frame size, rate, background, encoder and sound settings."),
        SpecField("tracks", Schema.array(Schema.oneOf([Schema.ref("videoTrack"), Schema.ref("overlayTrack"), Schema.ref("audioTrack")])),
                  required: true, "The tracks, drawn in order: the first at the bottom."),
        SpecField("template", Schema.ref("template"), "Title, description and thumbnail: what makes this a template."),
        SpecField("slots", .object(["type": .string("object"), "additionalProperties": Schema.ref("slot"),
                                    "propertyNames": Schema.string(pattern: #"^[A-Za-z_][A-Za-z0-9_-]*$"#)]),
                  "The template's slots by name: what the user fills in."),
        SpecField("markers", Schema.array(Schema.ref("marker")), "Marked points of the movie (movie time)."),
        SpecField("metadata", Schema.ref("metadata"), "Anything else a tool keeps with the timeline."),
    ])

    static let output = SpecShape(name: "output", doc: "The movie's settings; every field may be left out.", fields: [
        // Any case, as the reader takes it ("320X240", "4K", "1080P"); the names also listed for completion.
        SpecField("size", Schema.anyOf([Schema.string(pattern: "^" + evenSide + "[xX×]" + evenSide + "$"),
                                        Schema.enumeration(Timeline.FrameSize.named.map(\.name)),
                                        Schema.string(pattern: "^(" + Timeline.FrameSize.named.map { Self.anyCase($0.name) }.joined(separator: "|") + ")$")]),
                  "Frame size, WIDTHxHEIGHT in pixels, both even, 16…8192, or a name: \(Timeline.FrameSize.named.map(\.name).joined(separator: ", ")) (default 1920x1080)."),
        SpecField("fps", Schema.oneOf([Schema.number(minimum: 1, maximum: 240),
                                       Schema.string(pattern: #"^\s*[0-9]+(\.[0-9]+)?\s*(/\s*[0-9]+(\.[0-9]+)?\s*)?$"#)]),
                  "Frames per second, 1…240: a number (30, 25, 12.5; a decimal within 0.005 of an NTSC rate N×1000/1001, such as 29.97, 23.976 or 59.94, means that rate) or an exact fraction string (\"30000/1001\", \"2997/100\"). Default 30."),
        SpecField("background", backgroundSchema, "The canvas under every track: a colour (CSS: #rrggbb, a name, rgb(), hsl()), \"blur\" (the movie itself blurred behind), {\"gradient\": [colours], \"angle\": 90}, {\"image\": \"file.jpg\", \"fit\": \"fill\"} or {\"blur\": radius}. Default black."),
        SpecField("duration", Schema.ref("duration"), "How long the movie lasts (default: as long as its longest video or overlay track)."),
        SpecField("preset", Schema.enumeration(Platform.allCases.map(\.rawValue)), "The platform the movie is for: youtube, youtube-shorts, tiktok, instagram-reel, instagram-feed, linkedin or x. Sets the size (over size), the frame rate (30 unless fps is one it takes), H.264 with a bit-rate ceiling, a keyframe every 2 s, loudness -14 LUFS, its longest length, and keeps titles and captions in its safe area."),
        SpecField("encoder", Schema.ref("encoder"), "How the video is encoded."),
        SpecField("audio", Schema.ref("audioSettings"), "How the sound is mixed and encoded."),
        SpecField("reframe", Timeline.ReframeSpec.schema, "The whole movie reframed: {\"aspect\": \"9:16\"} makes the frame that aspect ratio (the default size's longer side kept: 1080x1920) and reframes every video item without a reframe of its own, following the subject."),
    ])

    static let encoder = SpecShape(name: "encoder", doc: "How the video is encoded: the codec and its quality and speed.", fields: [
        SpecField("codec", Schema.enumeration(VideoCodec.allCases.filter { $0 != .png }.map(\.rawValue) + ["prores", "h265"]), "The video codec (default: the file's, h264 for .mp4/.mov/.mkv, vp9 for .webm): h264, hevc (tagged hvc1), av1 (SVT-AV1), vp9, proRes4444 (.mov, with alpha)."),
        SpecField("bitDepth", .object(["type": .string("integer"), "enum": .array([.integer(8), .integer(10)])]), "Bits per colour sample: 8, or 10 for hevc and av1 (default 8)."),
        SpecField("crf", Schema.integer(minimum: 0, maximum: 63), "Constant rate factor on the codec's scale (h264 and hevc 0…51, vp9 0…63, av1 1…63; not for proRes4444): lower is better and larger. Default: the codec's, about the quality of h264's 18 (h264 18, hevc 19, vp9 26, av1 30)."),
        SpecField("preset", Schema.enumeration(EncoderPreset.allCases.map(\.rawValue)), "Encoder speed (default medium)."),
        SpecField("keyframeInterval", Schema.integer(minimum: 1, maximum: 10_000), "The longest distance between keyframes, in frames (default 250)."),
        SpecField("lossless", Schema.boolean, "Lossless H.264 (x264 qp 0): decoded frames equal the drawn ones exactly, at several times the size; crf is then ignored (default false). For .webp: a lossless WebP."),
        SpecField("palette", Schema.enumeration(GIFPalette.allCases.map(\.rawValue)), "How a .gif's palette is chosen: movie (one for all frames, the default), movingParts (from the pixels that change), perScene (one per scene, cut where the picture changes), perFrame."),
        SpecField("dither", Schema.enumeration(GIFDither.allCases.map(\.rawValue)), "How a .gif shows colours between its palette's: sierraLite (the default), floydSteinberg, sierra2, heckbert, bayer (steady, compresses well) or none."),
        SpecField("colors", Schema.integer(minimum: 4, maximum: 256), "Colours in a .gif's palette (default 256)."),
        SpecField("plays", Schema.integer(minimum: 0, maximum: 65535), "How many times a .gif, .apng or .webp plays: 0 loops forever (the default)."),
        SpecField("quality", Schema.integer(minimum: 0, maximum: 100), "A lossy .webp's quality, 0…100 (default 80)."),
        SpecField("maxSize", .object(["oneOf": .array([Schema.string(), Schema.integer(minimum: 1000)])]), "The largest .gif or .webp wanted, as \"5MB\", \"800KB\", \"2MiB\" or bytes: lower frame rate, then size, then colours are tried until it fits."),
    ])

    static let audioSettings = SpecShape(name: "audioSettings", doc: "Sound mixing and encoding.", fields: [
        SpecField("loudness", Schema.number(minimum: -70, maximum: -5), "Normalise the sound track to this integrated loudness in LUFS (-16 for the web, -23 for broadcast); left out: as mixed."),
        SpecField("bitrate", Schema.integer(minimum: 32_000, maximum: 512_000), "AAC bit rate in bits per second (default 192000)."),
        SpecField("ducking", Schema.ref("ducking"), "How music marked ducking dips under the other sounds."),
    ])

    static let ducking = SpecShape(name: "ducking", doc: "How ducked music dips while other sounds play.", fields: [
        SpecField("depth", Schema.number(minimum: 0, maximum: 100), "How far it dips, in dB (default 12)."),
        SpecField("attack", Schema.ref("time"), "How fast it dips (default 50ms)."),
        SpecField("release", Schema.ref("time"), "How fast it comes back (default 400ms)."),
        SpecField("hold", Schema.ref("time"), "How long the dip outlasts the sound that caused it (default 150ms)."),
    ])

    static let template = SpecShape(name: "template", doc: "What makes the timeline a template.", fields: [
        SpecField("title", Schema.string(minLength: 1), required: true, "The template's title."),
        SpecField("description", Schema.string(), "What it makes."),
        SpecField("thumbnail", Schema.string(minLength: 1), "A picture of it: a path relative to this file."),
    ])

    static let slotFields = [
        SpecField("kind", Schema.enumeration(Timeline.Slot.Kind.allCases.map(\.rawValue)), required: true,
                  "What the slot takes: video, photo, media (either), text, color or audio."),
        SpecField("description", Schema.string(), "What the slot asks for, shown to the user."),
        SpecField("default", Schema.oneOf([Schema.ref("fileSource"), Schema.string()]),
                  "What the slot holds until filled: {\"file\": …} for media and audio, a string for text and colour."),
        SpecField("fit", Schema.enumeration(Timeline.Slot.Fit.allCases.map(\.rawValue)),
                  "For video and media slots: how a clip longer or shorter than the item fits it (default cutTail)."),
        SpecField("maxLength", Schema.integer(minimum: 1, maximum: 10_000),
                  "For text slots: the most characters a value may have (a longer one is refused, naming the slot, rather than overflowing the layout)."),
    ]
    static let slot = SpecShape(name: "slot", doc: "A place the user fills.", fields: slotFields)
    /// The slot's schema, with the default's form tied to the kind.
    static var slotSchema: JSONValue {
        guard case var .object(o) = slot.schema else { return slot.schema }
        let mediaKinds = JSONValue.array(["video", "photo", "media", "audio"].map(JSONValue.string))
        o["allOf"] = .array([
            .object(["if": .object(["properties": .object(["kind": .object(["enum": mediaKinds])])]),
                     "then": .object(["properties": .object(["default": Schema.ref("fileSource")])])]),
            .object(["if": .object(["properties": .object(["kind": .object(["const": .string("text")])])]),
                     "then": .object(["properties": .object(["default": Schema.string()])])]),
            .object(["if": .object(["properties": .object(["kind": .object(["const": .string("color")])])]),
                     "then": .object(["properties": .object(["default": Schema.ref("cssColor")])])]),
            // Only video and media slots have a fit.
            .object(["if": .object(["properties": .object(["kind": .object(["enum": .array(["photo", "text", "color", "audio"].map(JSONValue.string))])])]),
                     "then": .object(["not": .object(["required": .array([.string("fit")])])])]),
            // Only text slots have a maxLength.
            .object(["if": .object(["properties": .object(["kind": .object(["enum": .array(["video", "photo", "media", "color", "audio"].map(JSONValue.string))])])]),
                     "then": .object(["not": .object(["required": .array([.string("maxLength")])])])]),
        ])
        return .object(o)
    }

    static let fileSource = SpecShape(name: "fileSource", doc: "A file: a path relative to the description's folder, or absolute.", fields: [
        SpecField("file", Schema.string(minLength: 1), required: true, "The file's path."),
    ])
    static let slotSource = SpecShape(name: "slotSource", doc: "A template slot's media.", fields: [
        SpecField("slot", Schema.string(minLength: 1), required: true, "The slot's name (a key of slots)."),
    ])

    static let transition = SpecShape(name: "transition", doc: "The transition into the next item: an FFmpeg xfade name, a duration, an easing.", fields: [
        SpecField("name", Schema.ref("transitionName"), required: true, "The effect, by FFmpeg xfade's name."),
        SpecField("duration", Schema.ref("duration"), "How long the two items overlap (default 1s)."),
        SpecField("easing", Schema.ref("easing"), "The timing curve (default linear)."),
    ])

    static let marker = SpecShape(name: "marker", doc: "A marked point or range (OpenTimelineIO's Marker).", fields: [
        SpecField("name", Schema.string(), required: true, "The marker's name."),
        SpecField("at", Schema.ref("time"), required: true, "Where it is (movie time; an item's own time for an item's markers)."),
        SpecField("duration", Schema.ref("time"), "The length of the marked range (default 0)."),
        SpecField("color", Schema.string(), "An editor's colour name (GREEN, BLUE…; none is OpenTimelineIO's default, RED)."),
        SpecField("comment", Schema.string(), "A note."),
    ])

    static let rect = SpecShape(name: "rect", doc: "A rectangle in unit coordinates of the fitted picture (0…1).", fields: [
        SpecField("x", Schema.number(minimum: -1, maximum: 2), required: true, "Left edge."),
        SpecField("y", Schema.number(minimum: -1, maximum: 2), required: true, "Top edge."),
        SpecField("width", Schema.number(exclusiveMinimum: 0, maximum: 1), required: true, "Width."),
        SpecField("height", Schema.number(exclusiveMinimum: 0, maximum: 1), required: true, "Height."),
    ])

    static let kenBurnsSettings = SpecShape(name: "kenBurnsSettings", doc: "Seeded pan and zoom.", fields: [
        SpecField("zoom", Schema.number(minimum: 0, maximum: 4), "How far the zoom goes, as a fraction (default 0.12)."),
        SpecField("pan", Schema.number(minimum: 0, maximum: 1), "How far the view travels, as a fraction (default 0.06)."),
        SpecField("direction", Schema.enumeration(Slideshow.KenBurns.Direction.allCases.map(\.rawValue)), "in, out or alternate (default alternate)."),
        SpecField("seed", Schema.integer(minimum: 0), "Seeds the choices (default 1)."),
    ])

    static let kenBurnsPath = SpecShape(name: "kenBurnsPath", doc: "Exact start and end views.", fields: [
        SpecField("from", Schema.ref("rect"), required: true, "The view at the start."),
        SpecField("to", Schema.ref("rect"), required: true, "The view at the end."),
    ])

    // MARK: Tracks

    static func trackFields(_ kind: Timeline.Track.Kind, items: [SpecShape]) -> [SpecField] {
        [
            SpecField("kind", Schema.constant(kind.rawValue), required: true, "video: items in sequence; overlay: items placed at times; audio: sounds placed at times."),
            SpecField("name", Schema.string(), "A name for editors and errors."),
            SpecField("enabled", Schema.boolean, "Whether the track plays (default true)."),
            SpecField("items", Schema.array(Schema.oneOf(items.map { Schema.ref($0.name) })), required: true, "The items, in order."),
            SpecField("markers", Schema.array(Schema.ref("marker")), "Marked points (movie time)."),
            SpecField("metadata", Schema.ref("metadata"), "Anything else a tool keeps with the track."),
        ]
    }
    static let videoTrack = SpecShape(name: "videoTrack", doc: "Pictures one after another.", fields: trackFields(.video, items: pictureItems(in: .video)))
    static let overlayTrack = SpecShape(name: "overlayTrack", doc: "Pictures placed at times over the tracks below.", fields: trackFields(.overlay, items: pictureItems(in: .overlay)))
    static let audioTrack = SpecShape(name: "audioTrack", doc: "Music and sounds placed at times.", fields: trackFields(.audio, items: audioItems))

    // MARK: Items

    /// The keys every item has, and those depending on its track (`at` on overlay and audio tracks,
    /// `transition` on video tracks).
    static func commonItemFields(_ type: String, in kind: Timeline.Track.Kind) -> [SpecField] {
        var fields = [
            SpecField("type", Schema.constant(type), required: true, "What the item is."),
            SpecField("label", Schema.string(), "A name for editors and plans (OpenTimelineIO's clip name)."),
            SpecField("enabled", Schema.boolean, "Whether the item plays (default true)."),
            SpecField("markers", Schema.array(Schema.ref("marker")), "Marked points (the item's own time)."),
            SpecField("metadata", Schema.ref("metadata"), "Anything else a tool keeps with the item."),
        ]
        switch kind {
        case .video: fields.append(SpecField("transition", Schema.ref("transition"), "The transition into the next item (none: a cut)."))
        case .overlay, .audio: fields.append(SpecField("at", Schema.ref("time"), "Where the item starts in the movie (default 0)."))
        }
        return fields
    }

    /// The item shapes allowed in a picture track of `kind` (video or overlay), from the item kinds.
    static func pictureItems(in kind: Timeline.Track.Kind) -> [SpecShape] {
        Timeline.Content.itemTypes.map(\.type).filter { $0.isPicture && (kind != .video || $0.placement != .overlayTrack) }.map { type in
            SpecShape(name: "\(type.name)Item" + (kind == .video ? "" : "Overlay"), doc: type.doc,
                      // A slideshow's duration is each photo's time: no narration point there.
                      fields: commonItemFields(type.name, in: kind) + (type.name == "slideshow" ? type.fields : timedByNarration(type.fields))
                          + (type.takesPictureEdits ? pictureItemFields : []))
        }
    }

    /// `fields` with an item's `duration` that may also be a narration point (`{"until": "n1"}`).
    static func timedByNarration(_ fields: [SpecField]) -> [SpecField] {
        fields.map { field in
            guard field.key == "duration", field.schema == Schema.ref("duration") else { return field }
            return SpecField("duration", Schema.ref("itemDuration"), required: field.required,
                             "\(field.doc) Or until a narration ends or reaches a bookmark: {\"until\": \"n1\"}, {\"mark\": \"n1#cut\"}.")
        }
    }

    /// The shapes of a split's cells: overlay items whose duration may be left out (the cell then lasts
    /// as long as the split).
    static let splitCells: [SpecShape] = pictureItems(in: .overlay).filter { shape in
        Timeline.Split.cellTypes.contains { shape.name == "\($0)ItemOverlay" }
    }.map { shape in
        SpecShape(name: shape.name.replacingOccurrences(of: "ItemOverlay", with: "Cell"), doc: shape.doc, fields: shape.fields.map { field in
            // A gap's duration is all it is: a gap cell gives one too (the reader requires it).
            field.key != "duration" ? field
                : shape.name == "gapItemOverlay" ? SpecField("duration", Schema.ref("duration"), required: true, cellDoc(field.doc))
                : field.required ? SpecField("duration", Schema.ref("duration"), "\(cellDoc(field.doc)) In a split, it may be left out: the cell then lasts as long as the split.")
                : SpecField("duration", Schema.ref("duration"), cellDoc(field.doc))
        })
    }

    /// An item's duration documentation without the narration point, which cells cannot take.
    static func cellDoc(_ doc: String) -> String {
        doc.components(separatedBy: " Or until a narration").first ?? doc
    }

    /// The shape of a split's cell of `type`, nil when a cell cannot be one.
    static func cellShape(_ type: String) -> SpecShape? {
        splitCells.first { $0.name == "\(type)Cell" }
    }

    /// The item shapes allowed in an audio track.
    static let audioItems: [SpecShape] = Timeline.Content.itemTypes.map(\.type).filter { $0.placement == .audioTrack }.map { type in
        SpecShape(name: "\(type.name)Item", doc: type.doc, fields: commonItemFields(type.name, in: .audio) + timedByNarration(type.fields))
    }

    /// The shape of an item of `type` in a track of `kind`, nil when that track takes no such item.
    static func itemShape(_ type: String, in kind: Timeline.Track.Kind) -> SpecShape? {
        switch kind {
        case .video, .overlay: return pictureItems(in: kind).first { $0.fields.first?.schema == Schema.constant(type) }
        case .audio: return audioItems.first { $0.fields.first?.schema == Schema.constant(type) }
        }
    }

    // MARK: The schema

    /// The JSON Schema (draft 2020-12) of description files, version 1.
    static var jsonSchema: JSONValue {
        guard case var .object(root) = timeline.schema else { return timeline.schema }
        root["$schema"] = .string("https://json-schema.org/draft/2020-12/schema")
        root["title"] = .string("MovieMaker description file")
        root["$defs"] = .object(definitions)
        return .object(root)
    }
}

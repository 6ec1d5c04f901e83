import Foundation

// The `audiogram` item: a sound drawn as a picture (spectrum, waveform, level, circle), from a file or a
// narration of the description, in sync with where it plays.

// MARK: Model

extension Timeline {
    /// A sound drawn as a picture (`"type": "audiogram"`): see `AudioVisualizer`. The sound is a file (or
    /// slot), played from `in` at the item's start, or a narration of the description, drawn where it
    /// plays; fields left nil take `AudioVisualizer`'s defaults.
    ///
    /// ```json
    /// {"type": "audiogram", "source": {"file": "podcast.mp3"}, "style": "spectrum", "bars": 64, "color": "#ffb703",
    ///  "area": {"x": 0.1, "y": 0.6, "width": 0.8, "height": 0.25}}
    /// ```
    ///
    /// The item draws the sound; it does not play it (put the file on an audio track for that).
    public struct Audiogram: Sendable, Hashable {
        /// The sound file or slot (or give `narration`).
        public var source: Source?
        /// The id of a narration item to draw (instead of `source`).
        public var narration: String?
        /// Where in the file the item's start is (default 0).
        public var `in`: TimeValue?
        /// What is drawn (default spectrum).
        public var style: AudioVisualizer.Style?
        /// How a waveform is drawn (default mirrored).
        public var shape: AudioVisualizer.WaveformShape?
        /// The bars' colour (default white).
        public var color: ColorText?
        /// The meter's unlit part and the circle's ring (default: the colour at 25 %).
        public var trackColor: ColorText?
        /// How many bars, 2–512 (default 48).
        public var bars: Int?
        /// The empty part of each bar's slot, 0–0.9 (default 0.25).
        public var gap: Double?
        /// The lowest and highest frequency of the spectrum, in Hz (default 50 and 12,000).
        public var frequencies: [Double]?
        /// The level drawn with no height, in dBFS (default −60).
        public var floor: Double?
        /// How long a value takes to rise (default 0).
        public var attack: TimeValue?
        /// How long a value takes to fall (default 0.25 s).
        public var release: TimeValue?
        /// Where it is drawn, in fractions of the frame (default the whole frame).
        public var area: Rect?
        /// How long it lasts (default: the file from `in` to its end, or until the narration ends).
        public var duration: TimeValue?

        /// An audiogram of `source` or of the narration `narration`; nil fields take their defaults.
        public init(source: Source? = nil, narration: String? = nil, in start: TimeValue? = nil, style: AudioVisualizer.Style? = nil,
                    shape: AudioVisualizer.WaveformShape? = nil, color: ColorText? = nil, trackColor: ColorText? = nil, bars: Int? = nil,
                    gap: Double? = nil, frequencies: [Double]? = nil, floor: Double? = nil, attack: TimeValue? = nil,
                    release: TimeValue? = nil, area: Rect? = nil, duration: TimeValue? = nil) {
            self.source = source; self.narration = narration; self.in = start; self.style = style; self.shape = shape
            self.color = color; self.trackColor = trackColor; self.bars = bars; self.gap = gap; self.frequencies = frequencies
            self.floor = floor; self.attack = attack; self.release = release; self.area = area; self.duration = duration
        }
    }
}

// MARK: Description file

extension Timeline.Audiogram: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("audiogram", doc: "A sound drawn as a picture: spectrum bars, a waveform, a level meter or a circle, in sync with the sound.", fields: [
            SpecField("source", Schema.ref("source"), "The sound file or slot (or give narration); the item draws it, an audio track plays it."),
            SpecField("narration", Schema.string(pattern: #"^[^#]+$"#), "The id of a narration item to draw, where it plays (instead of source)."),
            SpecField("in", Schema.ref("time"), "Where in the file the item starts (default 0)."),
            SpecField("style", Schema.enumeration(AudioVisualizer.Style.allCases.map(\.rawValue)), "spectrum (default), waveform, level or circle."),
            SpecField("shape", Schema.enumeration(AudioVisualizer.WaveformShape.allCases.map(\.rawValue)), "A waveform's shape: line, bars or mirrored (default)."),
            SpecField("color", Schema.ref("color"), "The bars' colour (default white)."),
            SpecField("trackColor", Schema.ref("color"), "The meter's unlit part and the circle's ring (default: the colour at 25 %)."),
            SpecField("bars", Schema.integer(minimum: 2, maximum: 512), "How many bars (default 48)."),
            SpecField("gap", Schema.number(minimum: 0, maximum: 0.9), "The empty part of each bar's slot (default 0.25)."),
            SpecField("frequencies", Schema.array(Schema.number(minimum: 20, maximum: 24_000), minItems: 2),
                      "The spectrum's lowest and highest frequency in Hz, [low, high] (default [50, 12000])."),
            SpecField("floor", Schema.number(minimum: -120, maximum: -10), "The level drawn with no height, in dBFS (default -60)."),
            SpecField("attack", Schema.ref("time"), "How long a value takes to rise (default 0)."),
            SpecField("release", Schema.ref("time"), "How long a value takes to fall (default 0.25s)."),
            SpecField("area", Schema.ref("rect"), "Where it is drawn, {x, y, width, height} in fractions of the frame (default the whole frame)."),
            SpecField("duration", Schema.ref("duration"), "How long it lasts (default: the file from in to its end, or until the narration ends)."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let narration = try i.string("narration", nonEmpty: true)
        guard (i.value("source") == nil) != (narration == nil) else {
            throw .invalidDescription(narration == nil ? i.path : i.path.appending("narration"),
                                      narration == nil ? "needs \"source\" (a sound file) or \"narration\" (a narration item's id)"
                                                       : "give \"source\" or \"narration\", not both")
        }
        if narration != nil, i.value("in") != nil {
            throw i.fail("in", "a narration's audiogram follows the narration where it plays: \"in\" is for a source file")
        }
        var frequencies: [Double]? = nil
        if let v = i.value("frequencies") {
            guard case let .array(pair) = v, pair.count == 2, let lo = pair[0].doubleValue, let hi = pair[1].doubleValue,
                  lo >= 20, hi <= 24_000, hi >= lo * 1.5 else {
                throw i.fail("frequencies", "must be [low, high] in Hz within 20–24000 with high at least 1.5 times low, such as [50, 12000], got \(v.shortDescription)")
            }
            frequencies = [lo, hi]
        }
        return Timeline.Audiogram(
            source: i.value("source") == nil ? nil : try i.source("source", context, kinds: [.audio, .video, .media], what: "an audiogram item"),
            narration: narration, in: try i.time("in"),
            style: try i.choice("style", AudioVisualizer.Style.self, what: "audiogram style"),
            shape: try i.choice("shape", AudioVisualizer.WaveformShape.self, what: "waveform shape"),
            color: try i.color("color", context), trackColor: try i.color("trackColor", context),
            bars: try i.int("bars", in: 2...512), gap: try i.double("gap", in: 0...0.9), frequencies: frequencies,
            floor: try i.double("floor", in: -120 ... -10), attack: try i.time("attack"), release: try i.time("release"),
            area: try i.value("area").map { v throws(MovieMakerError) in
                let p = i.path.appending("area"), r = try i.rect(v, at: p)
                // The drawing takes a rectangle inside the frame: said here, at the key, with the sums.
                guard r.minX >= 0, r.minY >= 0, r.maxX <= 1 + 1e-12, r.maxY <= 1 + 1e-12 else {
                    throw .invalidDescription(p, "must lie inside the frame: x and y at least 0, x + width and y + height at most 1, got "
                                              + "x \(SpecObject.show(r.minX)), y \(SpecObject.show(r.minY)), x + width \(SpecObject.show(r.maxX)), y + height \(SpecObject.show(r.maxY))")
                }
                return r
            },
            duration: try i.time("duration", positive: true))
    }

    var content: Timeline.Content { .audiogram(self) }

    func write(to w: inout SpecWriter) {
        w.set("source", source?.json)
        w.set("narration", narration)
        w.set("in", self.in)
        w.set("style", style)
        w.set("shape", shape)
        w.set("color", color)
        w.set("trackColor", trackColor)
        w.set("bars", bars)
        w.set("gap", gap)
        w.set("frequencies", frequencies.map { f in JSONValue.array(f.compactMap(JSONValue.double)) })
        w.set("floor", floor)
        w.set("attack", attack)
        w.set("release", release)
        w.set("area", area?.specJSON)
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.audiogram(self, at: path, onOverlay: onOverlay)
    }

    var mediaSlotSources: [Timeline.Source] { source.map { [$0] } ?? [] }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var a = self
        a.source = source?.mappingFilePath(transform)
        return a
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var a = self; a.duration = length; return a }
}

// MARK: Compiling

extension TimelineCompiler {
    /// An audiogram item's clip: the file opened and checked (or the narration found), the visualizer
    /// from the item's fields.
    mutating func audiogram(_ x: Timeline.Audiogram, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> CompiledItem {
        var v = AudioVisualizer()
        if let s = x.style { v.style = s }
        if let s = x.shape { v.waveformShape = s }
        if let c = try color(x.color, at: path.appending("color")) { v.color = c }
        v.trackColor = try color(x.trackColor, at: path.appending("trackColor"))
        if let n = x.bars { v.barCount = n }
        if let g = x.gap { v.gap = g }
        if let f = x.frequencies, f.count == 2 { v.frequencies = f[0]...f[1] }
        if let f = x.floor { v.floor = f }
        if let t = x.attack { v.attack = t.time(at: rate) }
        if let t = x.release { v.release = t.time(at: rate) }
        if let a = x.area { v.area = a }
        do { try v.validate() } catch {
            // Named at the key holding the bad value.
            let key: String? = switch error.setting {
            case .audiogramBars?: "bars"
            case .audiogramGap?: "gap"
            case .audiogramFrequencies?: "frequencies"
            case .audiogramFloor?: "floor"
            case .audiogramSmoothing?: v.attack < .zero || v.attack > 10 ? "attack" : "release"
            case .audiogramArea?: "area"
            default: nil
            }
            throw .invalidDescription(key.map { path.appending($0) } ?? path, error.message)
        }

        let sound: any AudioSource
        let from: Time
        let natural: Time
        let what: String
        // Video tracks place items one after another: their start is not known here, so a narration's
        // audiogram belongs on an overlay track, placed by "at".
        let itemStart = onOverlay ? overlayItemStart : .zero
        if let id = x.narration {
            let placed = try narration(id, at: path.appending("narration"))
            let offset = placed.start - itemStart
            if offset >= .zero {
                var track = AudioTrack()
                track.place(AudioClip(placed.narration), at: offset)
                sound = track
                from = .zero
            } else {
                sound = placed.narration
                from = Time.zero - offset
            }
            natural = Time.max(.zero, placed.start + placed.narration.length - itemStart)
            what = "narration \"\(id)\""
        } else {
            guard let source = x.source else { throw .invalidDescription(path, "needs \"source\" (a sound file) or \"narration\" (a narration item's id)") }
            let url = try file(source, at: path.appending("source"), kinds: [.audio, .video, .media])
            let audio: AudioFile
            do { audio = try AudioFile(url: url) } catch {
                throw .invalidDescription(path.appending("source"), "\(url.lastPathComponent) has no sound to draw: \(error.message)", file: url.path)
            }
            from = x.in?.time(at: rate) ?? .zero
            let length = audio.duration ?? .zero
            if from >= length, x.in != nil {
                throw .invalidDescription(path.appending("in"), "\(x.in!) is at or past the end of \(url.lastPathComponent), which lasts \(TimelineComposition.seconds(length)) s")
            }
            sound = audio
            natural = length - from
            sources[path.description] = .init(file: url, fileDuration: length, start: from)
            what = url.lastPathComponent
        }
        if x.narration != nil, !onOverlay {
            throw .invalidDescription(path.appending("narration"), "a narration's audiogram goes on an overlay track, placed with \"at\" where the narration should be drawn")
        }
        let duration = x.duration?.time(at: rate) ?? natural
        guard duration > .zero else {
            throw .invalidDescription(path, "the audiogram would last no time: give it a \"duration\"")
        }
        let clip = try Clip.audiogram(of: sound, from: from, visualizer: v, duration: duration)
        return CompiledItem(clip: clip, what: what, detail: "\(v.style.rawValue), \(v.barCount) bars")
    }
}

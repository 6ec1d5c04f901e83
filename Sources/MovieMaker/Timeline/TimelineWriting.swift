import Foundation

// Writing a description file: Timeline → JSONValue → canonical text. Only what is set is written (a
// field left nil keeps its default and stays out of the file), times in their canonical form, keys
// sorted, so decoding a canonical file and encoding it again gives the same bytes.

/// Builds one JSON object, refusing keys its shape does not list (so the writer cannot write what the
/// reader and the schema would refuse).
struct SpecWriter {
    let shape: SpecShape
    private(set) var members: [String: JSONValue] = [:]

    init(_ shape: SpecShape) { self.shape = shape }

    mutating func set(_ key: String, _ value: JSONValue?) {
        precondition(shape.has(key), "the writer wrote \"\(key)\", which the shape \(shape.name) does not list")
        if let value { members[key] = value }
    }
    mutating func set(_ key: String, _ text: String?) { set(key, text.map(JSONValue.string)) }
    mutating func set(_ key: String, _ b: Bool?) { set(key, b.map(JSONValue.bool)) }
    mutating func set(_ key: String, _ n: Int?) { set(key, n.map { JSONValue.integer($0) }) }
    mutating func set(_ key: String, _ d: Double?) { set(key, d.flatMap(JSONValue.double)) }
    mutating func set(_ key: String, _ t: Timeline.TimeValue?) { set(key, t.map { JSONValue.string($0.description) }) }
    mutating func set(_ key: String, _ c: Timeline.ColorText?) { set(key, c.map { JSONValue.string($0.text) }) }
    mutating func set<E: RawRepresentable>(_ key: String, _ e: E?) where E.RawValue == String { set(key, e.map { JSONValue.string($0.rawValue) }) }
    mutating func set(_ key: String, markers: [Timeline.Marker]) {
        if !markers.isEmpty { set(key, .array(markers.map(\.json))) }
    }
    mutating func set(_ key: String, metadata: [String: JSONValue]) {
        if !metadata.isEmpty { set(key, .object(metadata)) }
    }

    var value: JSONValue { .object(members) }
}

extension Timeline {
    /// The description as a JSON value (see `jsonText`).
    ///
    /// Throws `MovieMakerError.notEncodable` for an easing made from a function (its name does not
    /// say what it does).
    public func json() throws(MovieMakerError) -> JSONValue {
        var w = SpecWriter(TimelineShapes.timeline)
        w.set("$schema", schema)
        w.set("version", version)
        let out = output.json
        if out != .object([:]) { w.set("output", out) }
        w.set("tracks", .array(try tracks.mapTyped { t throws(MovieMakerError) in try t.json() }))
        if let template {
            var t = SpecWriter(TimelineShapes.template)
            t.set("title", template.title)
            t.set("description", template.description)
            t.set("thumbnail", template.thumbnail)
            w.set("template", t.value)
        }
        if !slots.isEmpty { w.set("slots", .object(slots.mapValues(\.json))) }
        w.set("markers", markers: markers)
        w.set("metadata", metadata: metadata)
        return w.value
    }

    /// The description file's canonical text: sorted keys, two-space indentation, canonical times
    /// (`"1.5s"`, `"1001/30000s"`, `"90f"`), only the fields that are set, a final newline. Decoding it
    /// gives an equal `Timeline`, and encoding that gives the same bytes.
    public func jsonText() throws(MovieMakerError) -> String { try json().canonicalText }

    /// Writes `jsonText()` to `url` atomically (a temporary file beside it, renamed into place).
    public func write(to url: URL) throws(MovieMakerError) {
        try PartialFiles.write(Data(try jsonText().utf8), to: url)
    }
}

extension Timeline.Output {
    var json: JSONValue {
        var w = SpecWriter(TimelineShapes.output)
        w.set("size", size?.description)
        if let fps { w.set("fps", fps.denominator == 1 ? JSONValue.integer(fps.numerator) : .string(fps.description)) }
        w.set("background", background)
        switch backdrop {
        case nil: break
        case let .gradient(colors, angle)?:
            var o: [String: JSONValue] = ["gradient": .array(colors.map { .string($0.text) })]
            if let angle { o["angle"] = JSONValue.double(angle) }
            w.set("background", .object(o))
        case let .image(file, fit)?:
            var o: [String: JSONValue] = ["image": .string(file)]
            if let fit { o["fit"] = .string(fit.rawValue) }
            w.set("background", .object(o))
        case let .blur(radius)?:
            w.set("background", radius.flatMap { JSONValue.double($0).map { .object(["blur": $0]) } } ?? .string("blur"))
        }
        w.set("duration", duration)
        w.set("preset", preset)
        w.set("reframe", reframe?.json)
        if let encoder {
            var e = SpecWriter(TimelineShapes.encoder)
            e.set("codec", encoder.codec)
            e.set("bitDepth", encoder.bitDepth)
            e.set("crf", encoder.crf)
            e.set("preset", encoder.preset)
            e.set("keyframeInterval", encoder.keyframeInterval)
            e.set("lossless", encoder.lossless)
            e.set("palette", encoder.palette)
            e.set("dither", encoder.dither)
            e.set("colors", encoder.colors)
            e.set("plays", encoder.plays)
            e.set("quality", encoder.quality)
            e.set("maxSize", encoder.maxSize)
            w.set("encoder", e.value)
        }
        if let audio {
            var a = SpecWriter(TimelineShapes.audioSettings)
            a.set("loudness", audio.loudness)
            a.set("bitrate", audio.bitrate)
            if let d = audio.ducking {
                var dw = SpecWriter(TimelineShapes.ducking)
                dw.set("depth", d.depth)
                dw.set("attack", d.attack)
                dw.set("release", d.release)
                dw.set("hold", d.hold)
                a.set("ducking", dw.value)
            }
            w.set("audio", a.value)
        }
        return w.value
    }
}

extension Timeline.Marker {
    var json: JSONValue {
        var w = SpecWriter(TimelineShapes.marker)
        w.set("name", name)
        w.set("at", at)
        w.set("duration", duration)
        w.set("color", color)
        w.set("comment", comment)
        return w.value
    }
}

extension Timeline.Slot {
    var json: JSONValue {
        var w = SpecWriter(TimelineShapes.slot)
        w.set("kind", kind)
        w.set("description", description)
        w.set("default", self.default?.json)
        w.set("fit", fit)
        w.set("maxLength", maxLength.map { JSONValue.integer($0) })
        return w.value
    }
}

extension Timeline.SlotValue {
    var json: JSONValue {
        switch self {
        case let .file(path): return .object(["file": .string(path)])
        case let .text(text): return .string(text)
        case let .color(color): return .string(color.text)
        }
    }
}

extension Timeline.Source {
    var json: JSONValue {
        switch self {
        case let .file(path): return .object(["file": .string(path)])
        case let .slot(name): return .object(["slot": .string(name)])
        }
    }
}

extension Timeline.TransitionSpec {
    func json() throws(MovieMakerError) -> JSONValue {
        var w = SpecWriter(TimelineShapes.transition)
        w.set("name", name)
        w.set("duration", duration)
        if let easing { w.set("easing", try easing.specJSON()) }
        return w.value
    }
}

extension Easing {
    /// The easing's name, or `.notEncodable` when it is made from a function.
    func specJSON() throws(MovieMakerError) -> JSONValue {
        guard isBuiltIn, (try? Easing(named: name)) == self else {
            throw .notEncodable(what: "the easing \"\(name)\"",
                                reason: "it is made from a function; only named curves (ease-in-out, cubic-bezier(…), steps(…), spring(…)…) can be written")
        }
        return .string(name)
    }
}

extension Speed {
    /// A decimal number when the speed has one (`2`, `0.5`), else an exact fraction string (`"2/3"`).
    var specJSON: JSONValue {
        if let decimal = ExactNumber.decimalString(numerator, denominator) { return .number(decimal) }
        return .string("\(numerator)/\(denominator)")
    }
}

extension Volume {
    var json: JSONValue {
        switch self {
        case let .factor(f): return JSONValue.double(f) ?? .integer(1)
        case .decibels: return .string(description)
        }
    }
}

extension Timeline.KenBurnsSpec {
    var json: JSONValue {
        switch self {
        case let .enabled(b): return .bool(b)
        case let .settings(zoom, pan, direction, seed):
            var w = SpecWriter(TimelineShapes.kenBurnsSettings)
            w.set("zoom", zoom)
            w.set("pan", pan)
            w.set("direction", direction)
            if let seed { w.set("seed", JSONValue.integer(seed)) }
            return w.value
        case let .path(from, to):
            var w = SpecWriter(TimelineShapes.kenBurnsPath)
            w.set("from", from.specJSON)
            w.set("to", to.specJSON)
            return w.value
        }
    }
}

extension Rect {
    var specJSON: JSONValue {
        var w = SpecWriter(TimelineShapes.rect)
        w.set("x", minX)
        w.set("y", minY)
        w.set("width", width)
        w.set("height", height)
        return w.value
    }
}

extension Timeline.Track {
    func json() throws(MovieMakerError) -> JSONValue {
        let shape = kind == .video ? TimelineShapes.videoTrack : kind == .overlay ? TimelineShapes.overlayTrack : TimelineShapes.audioTrack
        var w = SpecWriter(shape)
        w.set("kind", kind)
        w.set("name", name)
        w.set("enabled", enabled)
        w.set("items", .array(try items.mapTyped { i throws(MovieMakerError) in try i.json(in: kind) }))
        w.set("markers", markers: markers)
        w.set("metadata", metadata: metadata)
        return w.value
    }
}

extension Timeline.Item {
    /// The item's object for a track of `kind`. Keys the track does not allow (`at` on a video track,
    /// `transition` elsewhere) are left out; an item whose type the track does not take is written
    /// anyway (reading it back names the mistake).
    func json(in kind: Timeline.Track.Kind) throws(MovieMakerError) -> JSONValue {
        let shape = TimelineShapes.itemShape(typeName, in: kind)
            ?? TimelineShapes.itemShape(typeName, in: content.isPicture ? .overlay : .audio)!
        var w = SpecWriter(shape)
        w.set("type", typeName)
        w.set("label", label)
        w.set("enabled", enabled)
        if shape.has("at") { w.set("at", at) }
        if shape.has("transition"), let transition { w.set("transition", try transition.json()) }
        w.set("markers", markers: markers)
        w.set("metadata", metadata: metadata)
        try content.kind.write(to: &w)
        if let endsAt, shape.has("duration") { w.set("duration", endsAt.json) }
        if shape.has("transform") {   // picture items that draw something (not a gap)
            if !filters.isEmpty { w.set("filters", .array(filters.map(\.json))) }
            w.set("transform", try transform?.json())
            if let mask {
                var o: [String: JSONValue] = ["item": try mask.item.json(in: .overlay)]
                if let mode = mask.mode { o["mode"] = .string(mode.rawValue) }
                w.set("mask", .object(o))
            }
        }
        return w.value
    }
}

extension Timeline {
    /// The JSON Schema (draft 2020-12) of description files, version 1, generated from the same field
    /// lists the reader and writer use: closed objects (`additionalProperties: false`), enums from the
    /// Swift cases (transition names, fits, easings, styles, slot kinds and fits, presets).
    package static var jsonSchema: JSONValue { TimelineShapes.jsonSchema }
}

import Foundation

// Reading a description file: JSONValue → Timeline, strictly. Every error is a
// `MovieMakerError.invalidDescription` at the JSON path of the bad value, saying what was found and
// what is expected: `tracks[0].items[2].duration: must be greater than 0, got "-1s"`.

extension Timeline {
    /// Reads a description file's text (see `init(json:)`).
    public init(jsonText text: String) throws(MovieMakerError) {
        try self.init(json: try JSONValue(parsing: text))
    }

    /// Reads a description file's bytes (see `init(json:)`).
    public init(jsonData data: Data) throws(MovieMakerError) {
        try self.init(json: try JSONValue(parsing: data))
    }

    /// Reads the description file at `url`; its errors name the file as well as the JSON path.
    public init(contentsOf url: URL) throws(MovieMakerError) {
        // A named pipe or device would block the read for good (the studio's reload stopped so).
        if let problem = RegularFile.problem(url.path) {
            throw MovieMakerError(code: .invalidDescription, message: "cannot read the description file \(url.path): \(problem)",
                                  location: .init(file: url.path), reason: problem)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MovieMakerError(code: .invalidDescription, message: "cannot read the description file \(url.path): \(Self.reason(error))",
                                  location: .init(file: url.path), reason: Self.reason(error))
        }
        do {
            try self.init(jsonData: data)
        } catch {
            throw error.located(file: url.path)
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }

    /// Reads a description from its JSON value, strictly: unknown keys, values of the wrong type or
    /// out of range, times that are malformed, negative or over 24 hours, unknown transitions, fits,
    /// easings and styles, slots that are not declared or are of the wrong kind, a transition after a
    /// track's last item, and a `version` newer than `Timeline.currentVersion` all throw
    /// `MovieMakerError.invalidDescription` at the value's JSON path. Files are not opened here:
    /// `composition(_:)` opens every source before the first frame.
    public init(json: JSONValue) throws(MovieMakerError) {
        guard case let .object(top) = json else {
            throw .invalidDescription(.root, "a description file is a JSON object such as {\"version\": 1, \"tracks\": […]}, got \(json.kindName)")
        }
        // The version first: a newer file may use keys this version does not know.
        guard let versionValue = top["version"] else {
            throw .invalidDescription(.root, "missing \"version\": add \"version\": 1 (the description format this MovieMaker reads)")
        }
        guard case let .number(text) = versionValue,
              let version = Int(text) ?? ExactNumber.decimal(text).flatMap({ $0.denominator == 1 ? Int(exactly: $0.numerator) : nil }) else {
            throw .invalidDescription(JSONPath().appending("version"), "must be the whole number 1, got \(versionValue.shortDescription)")
        }
        guard version <= Timeline.currentVersion else {
            throw .invalidDescription(JSONPath().appending("version"),
                                      "this file is description version \(version), but this MovieMaker reads version \(Timeline.currentVersion): update MovieMaker, or write the file for version \(Timeline.currentVersion)")
        }
        guard version == Timeline.currentVersion else {
            throw .invalidDescription(JSONPath().appending("version"), "must be 1 (the first description version), got \(version)")
        }
        let o = try SpecObject(json, at: .root, shape: TimelineShapes.timeline, what: "a description file")
        self.init()
        schema = try o.string("$schema")
        slots = try o.slots("slots")
        var context = SpecContext(slots: slots)
        if let out = try o.object("output", TimelineShapes.output) { output = try Output(reading: out, context) }
        context.rate = output.resolvedFrameRate
        tracks = try o.array("tracks", required: true).mapTyped { (value, path) throws(MovieMakerError) in try Track(reading: value, at: path, context) }
        if let t = try o.object("template", TimelineShapes.template) {
            template = Template(title: try t.string("title", required: true, nonEmpty: true)!, description: try t.string("description"),
                                thumbnail: try t.string("thumbnail", nonEmpty: true))
        }
        markers = try o.markers("markers")
        metadata = try o.metadata("metadata")
    }
}

/// What the reader knows beyond the object it reads: the template's slots (for checking references).
struct SpecContext {
    let slots: [String: Timeline.Slot]
    /// The track being read, for items.
    var trackKind: Timeline.Track.Kind = .video
    /// The movie's frame rate (keyframe times written in frames).
    var rate: FrameRate = 30
    /// Whether the item is a split's cell or a mask (whose duration may be left to the split, or to the
    /// masked item).
    var splitCell = false
    /// Whether the item is a mask (for the words of its errors).
    var mask = false
}

/// One JSON object being read against its shape: unknown keys and missing required keys are refused
/// when it is made; each accessor reads one key and says what is wrong with its value.
struct SpecObject {
    let members: [String: JSONValue]
    let path: JSONPath
    let shape: SpecShape

    /// Checks that `value` is an object with only the keys `shape` lists and all it requires.
    init(_ value: JSONValue, at path: JSONPath, shape: SpecShape, what: String) throws(MovieMakerError) {
        guard case let .object(members) = value else {
            throw .invalidDescription(path, "must be \(what) (a JSON object), got \(value.shortDescription)")
        }
        self.members = members; self.path = path; self.shape = shape
        for key in JSONValue.sortedKeys(members) where !shape.has(key) {
            var message = "unknown key \"\(key)\" in \(what): expected \(SpecObject.list(shape.keys))"
            if let near = SpecObject.nearest(key, in: shape.keys) ?? SpecObject.synonym(of: key, in: shape.keys) {
                message += " (did you mean \"\(near)\"?)"
            }
            throw .invalidDescription(path.appending(key), message)
        }
        for field in shape.fields where field.required && members[field.key] == nil {
            throw .invalidDescription(path, "\(what) needs \"\(field.key)\": \(field.doc.prefix(1).lowercased() + field.doc.dropFirst())")
        }
    }

    /// `word` after its indefinite article: `a video`, `an audio`, `an overlay` (by its first letter,
    /// which is right for every item, track and slot kind).
    static func article(_ word: String) -> String {
        ("aeiou".contains(word.first?.lowercased() ?? "") ? "an " : "a ") + word
    }

    /// `a, b, c or d` (or `a, b, c and d` with `conjunction: "and"`).
    static func list(_ names: [String], conjunction: String = "or") -> String {
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }

    /// The name in `names` within two edits of `word` (ignoring case), if one is. An edit is a letter
    /// added, removed, changed, or two neighbours swapped: `woh` is one edit from `who`, as a typist sees it.
    /// Failing that, a name starting with the same five letters or more (`rotate` → `rotation`).
    static func nearest(_ word: String, in names: [String]) -> String? {
        // Optimal string alignment: Levenshtein's rows plus the one before, for swaps.
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
            var before = [Int](repeating: 0, count: b.count + 1)
            var previous = Array(0...b.count)
            var row = previous
            for i in 1...a.count {
                row[0] = i
                for j in 1...b.count {
                    row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], before[j - 2] + 1) }
                }
                (before, previous) = (previous, row)
            }
            return previous[b.count]
        }
        let w = Array(word.lowercased())
        // Lengths more than two apart are more than two edits apart: a long word costs no distance table.
        let scored = names.filter { abs($0.count - w.count) <= 2 }.map { ($0, distance(w, Array($0.lowercased()))) }.filter { $0.1 <= 2 && $0.1 < max(2, w.count / 2 + 1) }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0 }
        // Else another form of the same word (`rotate` for `rotation`): the longest shared start of five
        // letters or more.
        let prefixes = names.map { name in (name, zip(w, name.lowercased()).prefix { $0 == $1 }.count) }.filter { $0.1 >= 5 }
        return prefixes.max { $0.1 < $1.1 }?.0
    }

    /// Keys people write for a key with another name (from the Swift API, other tools or habit), each
    /// with the names it may stand for, nearest first: `barCount` is `bars`, a subtitles item's `source`
    /// is its `file`.
    static let synonyms: [String: [String]] = [
        "source": ["file"], "file": ["source"], "path": ["file", "source"], "src": ["source", "file"], "url": ["source", "file"],
        "barcount": ["bars"], "bands": ["bars"], "bandcount": ["bars"],
        "length": ["duration"], "dur": ["duration"], "start": ["at", "in"], "begin": ["at", "in"], "offset": ["at", "in"], "end": ["out"],
        "gain": ["volume"], "level": ["volume"], "colour": ["color"], "colours": ["colors"], "textcolor": ["color"], "fontcolor": ["color"],
        "fontfamily": ["font"], "family": ["font"], "textsize": ["fontSize"], "size": ["fontSize"], "alpha": ["opacity"], "angle": ["rotation"],
        "resolution": ["size"], "framerate": ["fps"], "rate": ["fps"], "music": ["audio"], "sound": ["audio"],
        "transitions": ["transition"], "filter": ["filters"], "effects": ["filters"], "clips": ["items"], "children": ["items", "cells"],
    ]

    /// What `key` (not within reach of `nearest`) usually stands for among `names`, if any.
    static func synonym(of key: String, in names: [String]) -> String? {
        synonyms[key.lowercased()]?.first { names.contains($0) }
    }

    func value(_ key: String) -> JSONValue? {
        precondition(shape.has(key), "the reader asked for \"\(key)\", which the shape \(shape.name) does not list")
        return members[key]
    }

    func fail(_ key: String, _ message: String) -> MovieMakerError { .invalidDescription(path.appending(key), message) }

    // MARK: Scalars

    func string(_ key: String, required: Bool = false, nonEmpty: Bool = false) throws(MovieMakerError) -> String? {
        guard let v = value(key) else {
            if required { throw .invalidDescription(path, "needs \"\(key)\"") }
            return nil
        }
        guard case let .string(s) = v else { throw fail(key, "must be a string, got \(v.shortDescription)") }
        if nonEmpty && s.trimmingCharacters(in: .whitespaces).isEmpty { throw fail(key, "must not be empty") }
        return s
    }

    func bool(_ key: String) throws(MovieMakerError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case let .bool(b) = v else { throw fail(key, "must be true or false, got \(v.shortDescription)") }
        return b
    }

    func int(_ key: String, in range: ClosedRange<Int>, hint: String = "") throws(MovieMakerError) -> Int? {
        guard let v = value(key) else { return nil }
        // `32.0` is the whole number 32, as JSON tools (Python's, for one) write whole numbers.
        guard case let .number(text) = v, let n = Int(text) ?? ExactNumber.decimal(text).flatMap({ $0.denominator == 1 ? Int(exactly: $0.numerator) : nil }) else {
            throw fail(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound)\(hint), got \(v.shortDescription)")
        }
        guard range.contains(n) else { throw fail(key, "must be from \(range.lowerBound) to \(range.upperBound)\(hint), got \(n)") }
        return n
    }

    func double(_ key: String, in range: ClosedRange<Double>, above lower: Double? = nil, hint: String = "") throws(MovieMakerError) -> Double? {
        guard let v = value(key) else { return nil }
        let expected = lower.map { "a number greater than \(Self.show($0)) and at most \(Self.show(range.upperBound))" }
            ?? "a number from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound))"
        guard case let .number(text) = v, let d = Double(text), d.isFinite else { throw fail(key, "must be \(expected)\(hint), got \(v.shortDescription)") }
        guard range.contains(d), lower.map({ d > $0 }) ?? true else { throw fail(key, "must be \(expected)\(hint), got \(text)") }
        return d
    }

    static func show(_ d: Double) -> String { JSONValue.double(d).map { if case let .number(t) = $0 { return t } else { return "" } } ?? "\(d)" }

    /// A string that must be one of `E`'s raw values.
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type, what: String) throws(MovieMakerError) -> E? where E.RawValue == String {
        guard let v = value(key) else { return nil }
        let names = E.allCases.map(\.rawValue)
        guard case let .string(s) = v, let e = E(rawValue: s) else {
            var message = "unknown \(what) \(v.shortDescription): expected \(Self.list(names))"
            if let s = v.stringValue, let near = Self.nearest(s, in: names) { message += " (did you mean \"\(near)\"?)" }
            throw fail(key, message)
        }
        return e
    }

    // MARK: Times

    static let timeForms = "a time such as \"1.5s\", \"90f\", \"1001/30000s\", \"20ms\", \"1m20s\" or a number of seconds"

    /// A time: `"1.5s"`, `"90f"`, `"1001/30000s"`, `"20ms"` or a number of seconds; `positive` refuses 0.
    func time(_ key: String, required: Bool = false, positive: Bool = false) throws(MovieMakerError) -> Timeline.TimeValue? {
        guard let v = value(key) else {
            if required { throw .invalidDescription(path, "needs \"\(key)\": \(Self.timeForms)") }
            return nil
        }
        return try Self.time(v, at: path.appending(key), positive: positive)
    }

    static func time(_ v: JSONValue, at path: JSONPath, positive: Bool) throws(MovieMakerError) -> Timeline.TimeValue {
        let t: Timeline.TimeValue?
        switch v {
        case let .number(text): t = Timeline.TimeValue(secondsText: text)
        case let .string(text): t = Timeline.TimeValue(text: text)
        default: t = nil
        }
        guard let t else {
            // Tell an over-long time from a malformed one.
            if let text = v.stringValue ?? (v.doubleValue != nil ? v.shortDescription : nil),
               let d = Timeline.TimeValue.hoursAndMinutes(text.trimmingCharacters(in: .whitespaces)).map(\.seconds)
                   ?? Double(text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "smf"))), d.isFinite, abs(d) > 86_400 {
                throw .invalidDescription(path, "must be at most 24 hours (86400s), got \(v.shortDescription)")
            }
            throw .invalidDescription(path, "must be \(timeForms), got \(v.shortDescription)")
        }
        // Times finer than a nanosecond are refused: every real time (decimals, NTSC fractions, frames)
        // is coarser, and bounded terms keep sums of times exact.
        if case let .seconds(exact) = t, exact.timescale > Timeline.TimeValue.finestTimescale {
            throw .invalidDescription(path, "must be exact to a billionth of a second (a fraction's denominator of at most 1000000000), got \(v.shortDescription)")
        }
        if positive {
            guard !t.isNegative && !t.isZero else { throw .invalidDescription(path, "must be greater than 0, got \(v.shortDescription)") }
        } else if t.isNegative {
            throw .invalidDescription(path, "must be 0 or more, got \(v.shortDescription)")
        }
        return t
    }

    // MARK: Structured values

    func object(_ key: String, _ shape: SpecShape) throws(MovieMakerError) -> SpecObject? {
        guard let v = value(key) else { return nil }
        return try SpecObject(v, at: path.appending(key), shape: shape, what: "\(shape.doc.prefix(1).lowercased())\(shape.doc.dropFirst().prefix { $0 != "." && $0 != ":" })")
    }

    /// The elements of an array with their paths.
    func array(_ key: String, required: Bool = false) throws(MovieMakerError) -> [(JSONValue, JSONPath)] {
        guard let v = value(key) else {
            if required { throw .invalidDescription(path, "needs \"\(key)\" (an array)") }
            return []
        }
        guard case let .array(elements) = v else { throw fail(key, "must be an array, got \(v.shortDescription)") }
        return elements.enumerated().map { ($0.element, path.appending(key).appending($0.offset)) }
    }

    func metadata(_ key: String) throws(MovieMakerError) -> [String: JSONValue] {
        guard let v = value(key) else { return [:] }
        guard case let .object(o) = v else { throw fail(key, "must be an object, got \(v.shortDescription)") }
        return o
    }

    func markers(_ key: String) throws(MovieMakerError) -> [Timeline.Marker] {
        try array(key).mapTyped { (v, p) throws(MovieMakerError) in
            let m = try SpecObject(v, at: p, shape: TimelineShapes.marker, what: "a marker")
            return Timeline.Marker(try m.string("name", required: true)!, at: try m.time("at", required: true)!,
                                   duration: try m.time("duration"), color: try m.string("color"), comment: try m.string("comment"))
        }
    }

    func color(_ key: String, _ context: SpecContext, allowNone: Bool = false, required: Bool = false) throws(MovieMakerError) -> Timeline.ColorText? {
        guard let v = value(key) else {
            if required { throw .invalidDescription(path, "needs \"\(key)\": a colour such as \"#ff8000\" or \"tomato\"") }
            return nil
        }
        guard case let .string(text) = v else { throw fail(key, "must be a colour string such as \"#ff8000\", \"tomato\" or \"rgb(255, 128, 0)\", got \(v.shortDescription)") }
        let color = Timeline.ColorText(text)
        try color.check(at: path.appending(key), context, allowNone: allowNone)
        return color
    }

    func speed(_ key: String) throws(MovieMakerError) -> Speed? {
        guard let v = value(key) else { return nil }
        let text: String
        switch v {
        case let .number(t): text = t
        case let .string(t) where t.contains("/"): text = t
        default: throw fail(key, "must be a speed from 0.25 to 4: a number (2, 0.5) or an exact fraction string (\"2/3\"), got \(v.shortDescription)")
        }
        guard let (n, d) = ExactNumber.parse(text), n > 0 else {
            throw fail(key, "must be a speed from 0.25 to 4 (greater than 0), got \(v.shortDescription)")
        }
        guard n <= 1_000_000, d <= 1_000_000 else {
            throw fail(key, "must be a speed written with terms of at most 1000000 (such as \"1001/1000\"), got \(v.shortDescription)")
        }
        let speed = Speed(numerator: n, denominator: d)
        guard speed.isSupported else { throw fail(key, "must be a speed from 0.25 to 4, got \(v.shortDescription)") }
        return speed
    }

    func volume(_ key: String) throws(MovieMakerError) -> Volume? {
        guard let v = value(key) else { return nil }
        switch v {
        case let .number(text):
            guard let f = Double(text), f.isFinite, (0...16).contains(f) else {
                throw fail(key, "must be a factor from 0 to 16 (1 is as recorded, 0 mutes) or decibels such as \"-6dB\", got \(text)")
            }
            return .factor(f)
        case let .string(text):
            let t = text.trimmingCharacters(in: .whitespaces)
            guard t.hasSuffix("dB"), let d = Double(t.dropLast(2).trimmingCharacters(in: .whitespaces)), d.isFinite,
                  t.dropLast(2).trimmingCharacters(in: .whitespaces).allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else {
                throw fail(key, "must be a factor such as 0.5 or decibels such as \"-6dB\", got \(v.shortDescription)")
            }
            guard (-100...24).contains(d) else { throw fail(key, "must be from -100dB to 24dB, got \(v.shortDescription)") }
            return .decibels(d)
        default:
            throw fail(key, "must be a factor such as 0.5 or decibels such as \"-6dB\", got \(v.shortDescription)")
        }
    }

    func easing(_ key: String) throws(MovieMakerError) -> Easing? {
        guard let v = value(key) else { return nil }
        guard case let .string(text) = v else { throw fail(key, "must be an easing name such as \"ease-in-out\" or \"cubic-bezier(0.2, 0, 0, 1)\", got \(v.shortDescription)") }
        do {
            return try Easing(named: text)
        } catch {
            var message = "unknown easing \(v.shortDescription): expected \(error.expected ?? "one of \(Easing.allNames.joined(separator: ", "))")"
            if let near = Self.nearest(text, in: Easing.allNames) { message += " (did you mean \"\(near)\"?)" }
            throw fail(key, message)
        }
    }

    func transition(_ key: String) throws(MovieMakerError) -> Timeline.TransitionSpec? {
        guard let t = try object(key, TimelineShapes.transition) else { return nil }
        let name = try t.string("name", required: true)!
        guard TimelineShapes.transitionNames.contains(name) else {
            var message = "unknown transition \"\(name)\": expected an FFmpeg xfade name: \(TimelineShapes.transitionNames.joined(separator: ", "))"
            if Transition.unsupportedXfadeNames.contains(name) { message = "the xfade transition \"\(name)\" is not one MovieMaker draws: use one of \(TimelineShapes.transitionNames.joined(separator: ", "))" }
            if let near = Self.nearest(name, in: TimelineShapes.transitionNames) { message += " (did you mean \"\(near)\"?)" }
            throw t.fail("name", message)
        }
        return Timeline.TransitionSpec(name, duration: try t.time("duration", positive: true), easing: try t.easing("easing"))
    }

    func rect(_ value: JSONValue, at path: JSONPath) throws(MovieMakerError) -> Rect {
        let r = try SpecObject(value, at: path, shape: TimelineShapes.rect, what: "a rectangle {x, y, width, height}")
        return Rect(x: try r.double("x", in: -1...2)!, y: try r.double("y", in: -1...2)!,
                    width: try r.double("width", in: 0...1, above: 0)!, height: try r.double("height", in: 0...1, above: 0)!)
    }

    func kenBurns(_ key: String, allowPath: Bool) throws(MovieMakerError) -> Timeline.KenBurnsSpec? {
        guard let v = value(key) else { return nil }
        let p = path.appending(key)
        switch v {
        case let .bool(b): return .enabled(b)
        case let .object(o) where o["from"] != nil || o["to"] != nil:
            guard allowPath else { throw .invalidDescription(p, "a slideshow moves each photo its own way: give true, false or {zoom, pan, direction, seed}, not from/to") }
            let k = try SpecObject(v, at: p, shape: TimelineShapes.kenBurnsPath, what: "a Ken Burns path {from, to}")
            return .path(from: try rect(k.value("from")!, at: p.appending("from")), to: try rect(k.value("to")!, at: p.appending("to")))
        case .object:
            let k = try SpecObject(v, at: p, shape: TimelineShapes.kenBurnsSettings, what: "Ken Burns settings {zoom, pan, direction, seed}")
            var seed: UInt64? = nil
            if let s = k.value("seed") {
                guard case let .number(text) = s, let n = UInt64(text) ?? ExactNumber.decimal(text).flatMap({ $0.denominator == 1 && $0.numerator >= 0 ? UInt64(exactly: $0.numerator) : nil }) else {
                    throw k.fail("seed", "must be a whole number of 0 or more, got \(s.shortDescription)")
                }
                seed = n
            }
            return .settings(zoom: try k.double("zoom", in: 0...4), pan: try k.double("pan", in: 0...1),
                             direction: try k.choice("direction", Slideshow.KenBurns.Direction.self, what: "Ken Burns direction"), seed: seed)
        default:
            throw .invalidDescription(p, "must be true, false, {\"zoom\": 0.2, \"direction\": \"in\"}\(allowPath ? " or {\"from\": {…}, \"to\": {…}}" : ""), got \(v.shortDescription)")
        }
    }

    /// A media source: `{"file": …}` (or the file's path alone, `"a.mp4"`, as people first write it) or
    /// `{"slot": …}` naming a slot whose kind is one of `kinds`.
    func source(_ value: JSONValue, at path: JSONPath, _ context: SpecContext, kinds: [Timeline.Slot.Kind], what: String) throws(MovieMakerError) -> Timeline.Source {
        if case let .string(file) = value, !file.trimmingCharacters(in: .whitespaces).isEmpty { return .file(file) }
        guard case let .object(o) = value else {
            throw .invalidDescription(path, "must be a source: {\"file\": \"a.mp4\"} (or \"a.mp4\") or {\"slot\": \"name\"}, got \(value.shortDescription)")
        }
        if o["slot"] != nil {
            let s = try SpecObject(value, at: path, shape: TimelineShapes.slotSource, what: "a slot source {\"slot\": name}")
            let name = try s.string("slot", required: true, nonEmpty: true)!
            guard let slot = context.slots[name] else {
                let known = context.slots.keys.sorted()
                let near = Self.nearest(name, in: context.slots.filter { kinds.contains($0.value.kind) }.map(\.key).sorted())
                throw s.fail("slot", "no slot is named \"\(name)\"" + (near.map { " (did you mean \"\($0)\"?)" } ?? "") + ": "
                             + (known.isEmpty ? "declare it under \"slots\"" : "the slots are \(Self.list(known, conjunction: "and"))"))
            }
            guard kinds.contains(slot.kind) else {
                throw s.fail("slot", "the slot \"\(name)\" is \(SpecObject.article(slot.kind.rawValue)) slot, but \(what) takes \(SpecObject.article(Self.list(kinds.map(\.rawValue)))) slot")
            }
            return .slot(name)
        }
        let f = try SpecObject(value, at: path, shape: TimelineShapes.fileSource, what: "a file source {\"file\": path}")
        return .file(try f.string("file", required: true, nonEmpty: true)!)
    }

    func source(_ key: String, _ context: SpecContext, kinds: [Timeline.Slot.Kind], what: String) throws(MovieMakerError) -> Timeline.Source {
        guard let v = value(key) else { throw .invalidDescription(path, "needs \"\(key)\": a path such as \"a.mp4\", {\"file\": \"…\"} or {\"slot\": \"name\"}") }
        return try source(v, at: path.appending(key), context, kinds: kinds, what: what)
    }

    /// A text field, its `{{slot}}` references checked against the text slots.
    func text(_ key: String, _ context: SpecContext, required: Bool = false) throws(MovieMakerError) -> String? {
        guard let s = try string(key, required: required) else { return nil }
        let pieces = Timeline.pieces(of: s)
        for name in pieces.names {
            guard let slot = context.slots[name] else {
                let texts = context.slots.filter { $0.value.kind == .text }.map(\.key).sorted()
                if let near = Self.nearest(name, in: texts) {
                    throw fail(key, "{{\(name)}} names no slot (did you mean {{\(near)}}?): write {{\(near)}}, or declare \"\(name)\" under \"slots\" with \"kind\": \"text\"")
                }
                throw fail(key, "{{\(name)}} names no slot: declare \"\(name)\" under \"slots\" with \"kind\": \"text\"")
            }
            guard slot.kind == .text else { throw fail(key, "{{\(name)}} names \(SpecObject.article(slot.kind.rawValue)) slot: only text slots go into text") }
        }
        if let near = pieces.misspelled {
            let fixed = Timeline.suggestedSlotName(for: near)
            throw fail(key, "{{\(near)}} is not a slot name, so it would show as written: a slot name starts with a letter or _ and holds letters, digits, _ and - (no spaces); write {{\(fixed)}} and declare \"\(fixed)\" under \"slots\"")
        }
        return s
    }

    /// The template's slots.
    func slots(_ key: String) throws(MovieMakerError) -> [String: Timeline.Slot] {
        guard let v = value(key) else { return [:] }
        guard case let .object(o) = v else { throw fail(key, "must be an object of slots by name, got \(v.shortDescription)") }
        var slots: [String: Timeline.Slot] = [:]
        for name in JSONValue.sortedKeys(o) {
            let p = path.appending(key).appending(name)
            guard Timeline.isSlotName(name) else {
                throw .invalidDescription(p, "slot names start with a letter or _ and hold letters, digits, _ and -: \"\(name)\" does not")
            }
            let s = try SpecObject(o[name]!, at: p, shape: TimelineShapes.slot, what: "a slot {kind, description, default, fit, maxLength}")
            let kind = try s.choice("kind", Timeline.Slot.Kind.self, what: "slot kind")!
            var slot = Timeline.Slot(kind, description: try s.string("description"))
            if let fit = try s.choice("fit", Timeline.Slot.Fit.self, what: "slot fit") {
                guard kind == .video || kind == .media else { throw s.fail("fit", "only video and media slots have a fit, and this is \(SpecObject.article(kind.rawValue)) slot") }
                slot.fit = fit
            }
            if let maxLength = try s.int("maxLength", in: 1 ... 10_000, hint: " characters") {
                guard kind == .text else { throw s.fail("maxLength", "only text slots have a maxLength, and this is \(SpecObject.article(kind.rawValue)) slot") }
                slot.maxLength = maxLength
            }
            if let d = s.value("default") {
                slot.default = try Timeline.SlotValue(reading: d, at: p.appending("default"), kind: kind)
                // The default must be a value the slot takes: the template renders with it unfilled.
                if case let .text(text)? = slot.default, let maxLength = slot.maxLength, text.count > maxLength {
                    throw s.fail("default", "is \(text.count) characters, more than the slot's maxLength of \(maxLength): shorten the default or raise maxLength")
                }
            }
            slots[name] = slot
        }
        return slots
    }
}

extension Timeline {
    /// Whether `inside` (trimmed, not a slot name) reads like a slot reference: words of letters and
    /// digits joined by spaces, `_`, `-` or `.`, with at least one letter.
    static func looksLikeSlotReference(_ inside: String) -> Bool {
        !inside.isEmpty
            && inside.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || " _-.".unicodeScalars.contains($0) }
            && inside.unicodeScalars.contains { $0.properties.isAlphabetic }
    }

    /// A slot name for a misspelled reference: spaces and dots as `_`, and `_` first when it would
    /// start with a digit or `-`.
    static func suggestedSlotName(for inside: String) -> String {
        let joined = String(inside.map { $0 == " " || $0 == "." ? "_" : $0 })
        return isSlotName(joined) ? joined : "_" + joined
    }

    /// Whether `name` can name a slot: a letter or `_`, then letters, digits, `_` and `-`.
    static func isSlotName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    /// A text cut into literal runs and `{{name}}` placeholders (`pieces(of:)`): byte ranges of its UTF-8.
    struct TextPieces {
        /// One piece: literal bytes, or a placeholder (its trimmed slot name; `range` covers the braces).
        enum Piece {
            case literal(Range<Int>)
            case placeholder(name: String, range: Range<Int>)
        }
        /// The text's UTF-8.
        let bytes: [UInt8]
        /// The pieces, in order.
        let pieces: [Piece]
        /// The inside of the first `{{…}}` that reads like a slot reference but is not a slot name
        /// (`{{first name}}`, `{{user.name}}`), trimmed: literal text, though its author meant a slot.
        var misspelled: String? = nil

        /// The slot names, in order.
        var names: [String] { pieces.compactMap { if case let .placeholder(name, _) = $0 { return name } else { return nil } } }

        /// The characters in `range`.
        private func characters(_ range: Range<Int>) -> Int { String(decoding: bytes[range], as: UTF8.self).count }

        /// The text with each placeholder replaced by `values[name]` when there is one.
        func filled(_ values: [String: String]) -> String {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            for piece in pieces {
                switch piece {
                case let .literal(range): out += bytes[range]
                case let .placeholder(name, range): if let value = values[name] { out += value.utf8 } else { out += bytes[range] }
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// The text with each placeholder replaced by `values[name]`, as SSML markup: values are escaped
        /// (`&`, `<`, `>`, quotes), so a name such as "Tom & Jerry" or "I <3 Lisbon" is spoken as written
        /// and cannot add tags; literal text is escaped too when the text had no markup of its own
        /// (`literalIsMarkup` false), since a `<` in a value makes the whole text markup.
        func filledAsMarkup(_ values: [String: String], literalIsMarkup: Bool) -> String {
            func escaped(_ text: some Sequence<UInt8>) -> [UInt8] {
                var out: [UInt8] = []
                for byte in text {
                    switch byte {
                    case UInt8(ascii: "&"): out += Array("&amp;".utf8)
                    case UInt8(ascii: "<"): out += Array("&lt;".utf8)
                    case UInt8(ascii: ">"): out += Array("&gt;".utf8)
                    case UInt8(ascii: "\""): out += Array("&quot;".utf8)
                    case UInt8(ascii: "'"): out += Array("&apos;".utf8)
                    default: out.append(byte)
                    }
                }
                return out
            }
            var out: [UInt8] = []
            for piece in pieces {
                switch piece {
                case let .literal(range): out += literalIsMarkup ? Array(bytes[range]) : escaped(bytes[range])
                case let .placeholder(name, range): out += values[name].map { escaped($0.utf8) } ?? Array(bytes[range])
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// How many characters `filled(values)` would have, without building it (at most the number of
        /// pieces more than the exact count: characters may join across a seam).
        func filledLength(_ values: [String: String]) -> Int {
            pieces.reduce(0) { total, piece in
                switch piece {
                case let .literal(range): return total + characters(range)
                case let .placeholder(name, range): return total + (values[name]?.count ?? characters(range))
                }
            }
        }
    }

    /// `text` cut into literal runs and `{{name}}` placeholders, in one pass over its bytes (a text of
    /// 200,000 placeholders must not cost 200,000 searches of the rest: that was quadratic). A `{{`
    /// with no `}}` after it, and what follows, is literal; so is `{{…}}` around something that is not a
    /// slot name.
    static func pieces(of text: String) -> TextPieces {
        let bytes = Array(text.utf8)
        let n = bytes.count
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        var pieces: [TextPieces.Piece] = []
        var names: [ArraySlice<UInt8>: String?] = [:]      // a template repeats the same few names
        var misspelled: String? = nil
        var literalStart = 0
        var i = 0
        scanning: while i + 1 < n {
            guard bytes[i] == open, bytes[i + 1] == open else { i += 1; continue }
            // "{{" at i: find the first "}}" after it.
            var k = i + 2
            while k + 1 < n {
                if bytes[k] == close, bytes[k + 1] == close {
                    let inside = bytes[i + 2..<k]
                    let name: String?
                    if let known = names[inside] { name = known } else {
                        let trimmed = String(decoding: inside, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                        name = isSlotName(trimmed) ? trimmed : nil
                        names[inside] = name
                        if name == nil, misspelled == nil, looksLikeSlotReference(trimmed) { misspelled = trimmed }
                    }
                    if let name {
                        if literalStart < i { pieces.append(.literal(literalStart..<i)) }
                        pieces.append(.placeholder(name: name, range: i..<k + 2))
                        literalStart = k + 2
                    }
                    i = k + 2
                    continue scanning
                }
                k += 1
            }
            break   // no "}}" anywhere after: the rest is literal
        }
        if literalStart < n { pieces.append(.literal(literalStart..<n)) }
        return TextPieces(bytes: bytes, pieces: pieces, misspelled: misspelled)
    }

    /// The slot names `{{name}}` placeholders in `text` refer to, in order.
    static func placeholders(in text: String) -> [String] { pieces(of: text).names }

    /// `text` with every `{{name}}` replaced by `values[name]` (placeholders of other names left as they are).
    static func interpolate(_ text: String, _ values: [String: String]) -> String { pieces(of: text).filled(values) }
}

extension Timeline.ColorText {
    /// The slot a `"{{name}}"` colour names, if it is one.
    var slotName: String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("{{"), t.hasSuffix("}}") else { return nil }
        let name = t.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
        return Timeline.isSlotName(name) ? name : nil
    }
    /// Whether it is `"none"` (nothing drawn).
    var isNone: Bool { text.trimmingCharacters(in: .whitespaces).lowercased() == "none" }

    /// Checks the text: a CSS colour, `"none"` where allowed, or `"{{name}}"` of a colour slot.
    func check(at path: JSONPath, _ context: SpecContext, allowNone: Bool) throws(MovieMakerError) {
        if let name = slotName {
            guard let slot = context.slots[name] else {
                let colors = context.slots.filter { $0.value.kind == .color }.map(\.key).sorted()
                if let near = SpecObject.nearest(name, in: colors) {
                    throw .invalidDescription(path, "{{\(name)}} names no slot (did you mean {{\(near)}}?): write {{\(near)}}, or declare \"\(name)\" under \"slots\" with \"kind\": \"color\"")
                }
                throw .invalidDescription(path, "{{\(name)}} names no slot: declare \"\(name)\" under \"slots\" with \"kind\": \"color\"")
            }
            guard slot.kind == .color else { throw .invalidDescription(path, "{{\(name)}} names \(SpecObject.article(slot.kind.rawValue)) slot: a colour needs a color slot") }
            return
        }
        if isNone {
            guard allowNone else { throw .invalidDescription(path, "must be a colour here (\"none\" is only for a title's background), got \"\(text)\"") }
            return
        }
        do {
            _ = try Color(css: text)
        } catch {
            throw .invalidDescription(path, "must be a colour such as \"#ff8000\", \"tomato\" or \"rgb(255, 128, 0)\", got \"\(text)\"")
        }
    }
}

extension Timeline.SlotValue {
    /// Reads a slot's default: a file source for media and audio slots, a string for text and colour.
    init(reading v: JSONValue, at path: JSONPath, kind: Timeline.Slot.Kind) throws(MovieMakerError) {
        switch kind {
        case .video, .photo, .media, .audio:
            guard case .object = v else {
                throw .invalidDescription(path, "\(SpecObject.article(kind.rawValue)) slot's default is a file such as {\"file\": \"defaults/a.\(kind == .audio ? "mp3" : kind == .photo ? "jpg" : "mp4")\"}, got \(v.shortDescription)")
            }
            let f = try SpecObject(v, at: path, shape: TimelineShapes.fileSource, what: "a file {\"file\": path}")
            self = .file(try f.string("file", required: true, nonEmpty: true)!)
        case .text:
            guard case let .string(s) = v else { throw .invalidDescription(path, "a text slot's default is a string, got \(v.shortDescription)") }
            self = .text(s)
        case .color:
            guard case let .string(s) = v else { throw .invalidDescription(path, "a color slot's default is a colour string such as \"#ff8000\", got \(v.shortDescription)") }
            let c = Timeline.ColorText(s)
            guard c.slotName == nil, !c.isNone, (try? Color(css: s)) != nil else {
                throw .invalidDescription(path, "must be a colour such as \"#ff8000\", \"tomato\" or \"rgb(255, 128, 0)\", got \"\(s)\"")
            }
            self = .color(c)
        }
    }
}

// MARK: Output, tracks, items

extension Timeline.Output {
    init(reading o: SpecObject, _ context: SpecContext) throws(MovieMakerError) {
        self.init()
        if let v = o.value("size") {
            guard case let .string(text) = v, let size = Timeline.FrameSize(text: text) else {
                throw o.fail("size", "must be a frame size WIDTHxHEIGHT such as \"1920x1080\", or \(SpecObject.list(Timeline.FrameSize.named.map(\.name))), got \(v.shortDescription)")
            }
            guard (16...MovieMaker.maximumSide).contains(size.width), (16...MovieMaker.maximumSide).contains(size.height) else {
                throw o.fail("size", "each side must be from 16 to \(MovieMaker.maximumSide) pixels, got \(v.shortDescription)")
            }
            guard size.width * size.height <= MovieMaker.maximumPixels else {
                throw o.fail("size", "must be at most \(MovieMaker.maximumPixels) pixels (H.264 level 6.2), got \(v.shortDescription) (\(size.width * size.height)); try \"3840x2160\"")
            }
            guard size.width % 2 == 0, size.height % 2 == 0 else {
                throw o.fail("size", "width and height must be even (video stores colour at half resolution), got \(v.shortDescription); try \"\(size.width + size.width % 2)x\(size.height + size.height % 2)\"")
            }
            self.size = size
        }
        if let v = o.value("fps") {
            let text: String?
            switch v {
            case let .number(t): text = t
            case let .string(t): text = t
            default: text = nil
            }
            guard let text, let rate = FrameRate(reading: text) else {
                throw o.fail("fps", "must be frames per second from 1 to 240: a number (30, 25, 29.97 for 30000/1001) or an exact fraction string (\"30000/1001\"), got \(v.shortDescription)")
            }
            guard (1...240).contains(rate.framesPerSecond) else {
                throw o.fail("fps", "must be from 1 to 240 frames per second, got \(v.shortDescription)")
            }
            fps = rate
        }
        (background, backdrop) = try o.background("background", context)
        duration = try o.time("duration", positive: true)
        preset = try o.choice("preset", Platform.self, what: "platform preset")
        reframe = try Timeline.ReframeSpec.read(o)
        if let e = try o.object("encoder", TimelineShapes.encoder) {
            // The CLI's names (`prores`, `h265`) are read too; the canonical form writes the case name.
            var codec: VideoCodec?
            if let v = e.value("codec") {
                let names = VideoCodec.allCases.filter { $0 != .png }.map(\.rawValue)
                guard let text = v.stringValue, let named = VideoCodec.named(text), named != .png else {
                    var message = "unknown video codec \(v.shortDescription): expected \(SpecObject.list(names))"
                    if let s = v.stringValue, let near = SpecObject.nearest(s, in: names + ["prores", "h265"]) { message += " (did you mean \"\(near)\"?)" }
                    throw e.fail("codec", message)
                }
                codec = named
            }
            // Without a codec the file's extension picks it at render time (vp9 and av1 take up to 63),
            // where the CRF is checked against it.
            let crfs = codec?.crfRange ?? 0...63
            if codec == .proRes4444, e.value("crf") != nil {
                throw e.fail("crf", "does not apply to proRes4444, which is written at a fixed, near-lossless quality: remove \"crf\" (a \"preset\" of slow or slower searches each slice's quantiser instead)")
            }
            let bitDepth = try e.int("bitDepth", in: 8...10, hint: " (8, or 10 for hevc and av1)")
            if let bitDepth, bitDepth == 9 { throw e.fail("bitDepth", "must be 8 or 10 (10 for hevc and av1), got 9") }
            encoder = Timeline.EncoderOptions(codec: codec, bitDepth: bitDepth,
                                              crf: try e.int("crf", in: crfs, hint: " (\(codec.map { "\($0.rawValue)'s default is \($0.defaultCRF)" } ?? "18 is visually lossless; h264 and hevc take up to 51"))"),
                                              preset: try e.choice("preset", EncoderPreset.self, what: "x264 preset"),
                                              keyframeInterval: try e.int("keyframeInterval", in: 1...10_000),
                                              lossless: try e.bool("lossless"))
            encoder?.palette = try e.choice("palette", GIFPalette.self, what: "GIF palette")
            encoder?.dither = try e.choice("dither", GIFDither.self, what: "GIF dithering")
            encoder?.colors = try e.int("colors", in: 4...256, hint: " colours in a GIF's palette")
            encoder?.plays = try e.int("plays", in: 0...65535, hint: " (0 loops forever)")
            encoder?.quality = try e.int("quality", in: 0...100, hint: " (a lossy WebP's quality; 80 by default)")
            if let v = e.value("maxSize") {
                let bytes: Int?
                switch v {
                case let .string(text): bytes = ByteSize.parse(text)
                case let .number(text): bytes = Int(text)
                default: bytes = nil
                }
                guard let bytes, bytes >= 1000 else {
                    throw e.fail("maxSize", "must be a file size of at least 1 KB (1000 bytes), such as \"5MB\", \"800KB\" or a number of bytes, got \(v.shortDescription)")
                }
                encoder?.maxSize = bytes
            }
        }
        if let a = try o.object("audio", TimelineShapes.audioSettings) {
            var audio = Timeline.AudioOptions(loudness: try a.double("loudness", in: -70 ... -5, hint: " LUFS (-16 for the web, -23 for broadcast)"),
                                              bitrate: try a.int("bitrate", in: 32_000...512_000, hint: " bits per second"))
            if let d = try a.object("ducking", TimelineShapes.ducking) {
                audio.ducking = Timeline.Ducking(depth: try d.double("depth", in: 0...100, hint: " decibels, written as a plain number: 12 dips the music by 12 dB"), attack: try d.time("attack"),
                                                 release: try d.time("release"), hold: try d.time("hold"))
            }
            self.audio = audio
        }
    }
}

extension Timeline.Track {
    init(reading value: JSONValue, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) {
        // The kind decides which items and keys are allowed.
        guard case let .object(o) = value else { throw .invalidDescription(path, "must be a track (a JSON object with \"kind\" and \"items\"), got \(value.shortDescription)") }
        guard let kindValue = o["kind"] else { throw .invalidDescription(path, "a track needs \"kind\": video, overlay or audio") }
        let kinds = Timeline.Track.Kind.allCases.map(\.rawValue)
        guard case let .string(k) = kindValue, let kind = Kind(rawValue: k) else {
            var message = "unknown track kind \(kindValue.shortDescription): expected \(SpecObject.list(kinds))"
            if let s = kindValue.stringValue, let near = SpecObject.nearest(s, in: kinds) { message += " (did you mean \"\(near)\"?)" }
            throw .invalidDescription(path.appending("kind"), message)
        }
        let shape = kind == .video ? TimelineShapes.videoTrack : kind == .overlay ? TimelineShapes.overlayTrack : TimelineShapes.audioTrack
        let t = try SpecObject(value, at: path, shape: shape, what: "\(SpecObject.article(kind.rawValue)) track")
        var itemContext = context
        itemContext.trackKind = kind
        let elements = try t.array("items", required: true)
        var items: [Timeline.Item] = []
        for (value, itemPath) in elements {
            items.append(try Timeline.Item(reading: value, at: itemPath, itemContext))
        }
        if kind == .video, let last = items.last, let transition = last.transition, transition.name != "none" {
            throw .invalidDescription(path.appending("items").appending(items.count - 1).appending("transition"),
                                      "the last item of a video track has no next item to transition into: remove this transition (or add an item after it)")
        }
        self.init(kind, name: try t.string("name"), enabled: try t.bool("enabled"), items: items,
                  markers: try t.markers("markers"), metadata: try t.metadata("metadata"))
    }
}

extension Timeline.Item {
    init(reading value: JSONValue, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) {
        guard case let .object(o) = value else { throw .invalidDescription(path, "must be an item (a JSON object with a \"type\"), got \(value.shortDescription)") }
        guard let typeValue = o["type"] else {
            throw .invalidDescription(path, "an item needs \"type\": \(SpecObject.list(Timeline.Content.typeNames))")
        }
        guard case let .string(type) = typeValue, let itemType = Timeline.Content.itemType(named: type) else {
            var message = "unknown item type \(typeValue.shortDescription): expected \(SpecObject.list(Timeline.Content.typeNames))"
            if let s = typeValue.stringValue, let near = SpecObject.nearest(s, in: Timeline.Content.typeNames) { message += " (did you mean \"\(near)\"?)" }
            throw .invalidDescription(path.appending("type"), message)
        }
        let kind = context.trackKind
        if kind != .overlay, itemType.type.placement == .overlayTrack {
            throw .invalidDescription(path.appending("type"), "\(SpecObject.article(type)) item belongs on an overlay track, placed with \"at\": {\"kind\": \"overlay\", \"items\": [{\"type\": \"\(type)\", …}]}")
        }
        guard let shape = context.splitCell ? TimelineShapes.cellShape(type) : TimelineShapes.itemShape(type, in: kind) else {
            let advice = kind == .audio ? "an audio track holds music and audio items; put pictures on a video or overlay track"
                                        : "\(type) items belong in an audio track: {\"kind\": \"audio\", \"items\": [{\"type\": \"\(type)\", …}]}"
            throw .invalidDescription(path.appending("type"), "\(SpecObject.article(type)) item cannot be on \(SpecObject.article(kind.rawValue)) track: \(advice)")
        }
        // Keys a track of another kind would allow get their own explanation.
        if kind == .video, o["at"] != nil {
            throw .invalidDescription(path.appending("at"), "items of a video track follow each other and have no \"at\": put items placed at a time on an overlay track")
        }
        if context.splitCell, o["transition"] != nil {
            throw .invalidDescription(path.appending("transition"), context.mask ? "a mask plays with its item and has no transition: remove it"
                                      : "a split's cells play side by side and have no transition: remove it (a transition goes on the split item itself, into the next item of its video track)")
        }
        if kind != .video, o["transition"] != nil {
            throw .invalidDescription(path.appending("transition"), "only items of a video track have a transition into the next one; items of \(kind.rawValue) tracks are placed \"at\" times")
        }
        if itemType.type.isPicture, !itemType.type.drawsPicture, let key = ["filters", "transform", "mask"].first(where: { o[$0] != nil }) {
            throw .invalidDescription(path.appending(key), "\(SpecObject.article(type)) item draws nothing for \"\(key)\" to change: remove it, or put it on the item that shows")
        }
        // A narration point as the duration: the item's own reader sees a placeholder time (its
        // duration may be required), the item keeps the point.
        var value = value
        var endsAt: Timeline.NarrationPoint? = nil
        if let d = o["duration"], case .object = d {
            guard !context.splitCell else {
                throw .invalidDescription(path.appending("duration"), "a split's cell lasts as long as the split or its own duration: time the split itself by the narration")
            }
            guard shape.has("duration") else {
                throw .invalidDescription(path.appending("duration"), "\(SpecObject.article(type)) item has no duration to time by a narration")
            }
            // A slideshow's duration is each photo's time, not the item's length: a narration point there
            // would be a placeholder second per photo.
            guard type != "slideshow" else {
                throw .invalidDescription(path.appending("duration"), "a slideshow's duration is each photo's time, so it cannot end at a narration point: give each photo's time (\"3s\"), or time the next item by the narration")
            }
            endsAt = try Timeline.NarrationPoint(reading: d, at: path.appending("duration"))
            var placeholder = o
            placeholder["duration"] = .string("1s")
            value = .object(placeholder)
        }
        let i = try SpecObject(value, at: path, shape: shape, what: "\(SpecObject.article(type)) item")
        let content = try itemType.kind.read(i, type: type, at: path, context).content
        let picture = itemType.type.takesPictureEdits
        self.init(content, label: try i.string("label"), at: kind == .video ? nil : try i.time("at"),
                  transition: kind == .video ? try i.transition("transition") : nil, enabled: try i.bool("enabled"),
                  markers: try i.markers("markers"), metadata: try i.metadata("metadata"),
                  filters: picture ? try i.filters("filters", context) : [], transform: picture ? try i.transform("transform", context) : nil,
                  mask: picture ? try i.mask("mask", context) : nil)
        self.endsAt = endsAt
    }
}

/// The name in `names` within two edits of `word` (ignoring case; a swap of neighbours is one edit), as
/// description files suggest a misspelt key: for the command line's "did you mean" too.
package func nearestName(_ word: String, in names: [String]) -> String? {
    SpecObject.nearest(word, in: names)
}

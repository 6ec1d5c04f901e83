import Foundation

// Filters as data. Every filter is written the same way in a description file and in `Codable` JSON —
// `{"name": "brightness", "amount": 0.2}` — and one table of descriptors (name, parameters with their
// kinds and ranges, what it means, how to build it) drives the reader, the writer and the JSON Schema,
// as `TimelineShapes` does for the rest of the file.

/// A filter as a description file writes it: its name and its parameters (everything but `"name"`).
public struct FilterSpec: Sendable, Hashable {
    /// The filter's name, e.g. `"grayscale"`, `"lut"`, `"brightness"`.
    public var name: String
    /// The other keys of the filter's object, e.g. `["amount": 0.2]`.
    public var parameters: [String: JSONValue]

    /// A filter named `name` with `parameters`.
    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name; self.parameters = parameters
    }

    /// The JSON object: `{"name": …, parameters…}`.
    public var json: JSONValue {
        var o = parameters
        o["name"] = .string(name)
        return .object(o)
    }
}

/// One parameter of a filter: its key, what values it takes, its default and what it means.
struct FilterParameter: Sendable {
    /// What values a parameter takes.
    enum Kind: Sendable {
        /// A number in the range, or keyframes whose values are in it.
        case amount(ClosedRange<Double>)
        /// A number in the range.
        case number(ClosedRange<Double>)
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// A CSS colour (`"#ff8800"`, `"rgb(…)"`, a name).
        case color
        /// A file path, relative to the description file's folder.
        case file
        /// One of the strings.
        case choice([String])
        /// Points `[[x, y], …]` with x and y in 0…1 (a curve).
        case points
        /// true or false.
        case boolean
    }
    let key: String
    let kind: Kind
    let required: Bool
    let doc: String

    init(_ key: String, _ kind: Kind, required: Bool = false, _ doc: String) {
        self.key = key; self.kind = kind; self.required = required; self.doc = doc
    }

    /// The parameter's JSON Schema.
    var schema: JSONValue {
        switch kind {
        case let .amount(range):
            let n = Schema.number(minimum: range.lowerBound, maximum: range.upperBound)
            let keyframe = JSONValue.object([
                "type": .string("object"), "additionalProperties": .bool(false),
                "required": .array([.string("at"), .string("value")]),
                "properties": .object(["at": Schema.ref("time"), "value": n, "easing": Schema.ref("easing")]),
            ])
            return Schema.oneOf([n, Schema.array(keyframe, minItems: 1)])
        case let .number(range): return Schema.number(minimum: range.lowerBound, maximum: range.upperBound)
        case let .integer(range): return Schema.integer(minimum: range.lowerBound, maximum: range.upperBound)
        case .color: return Schema.ref("color")
        case .file: return Schema.string(minLength: 1)
        case let .choice(names): return Schema.enumeration(names)
        case .points:
            let unit = Schema.number(minimum: 0, maximum: 1)
            var pair = Schema.array(unit, minItems: 2).objectValue!
            pair["maxItems"] = .integer(2)
            return Schema.array(.object(pair), minItems: 2)
        case .boolean: return Schema.boolean
        }
    }
}

/// A kind of filter: its name, parameters, what it does, and how to build it from its parameters.
struct FilterDescriptor: Sendable {
    let name: String
    let doc: String
    let parameters: [FilterParameter]
    let make: @Sendable (FilterArguments) throws(MovieMakerError) -> Clip.Filter

    init(_ name: String, _ doc: String, _ parameters: [FilterParameter],
         make: @escaping @Sendable (FilterArguments) throws(MovieMakerError) -> Clip.Filter) {
        self.name = name; self.doc = doc; self.parameters = parameters; self.make = make
    }

    /// The JSON Schema of the filter's object.
    var schema: JSONValue {
        var properties: [String: JSONValue] = ["name": .object(["const": .string(name), "description": .string(doc)])]
        for p in parameters {
            var s = p.schema.objectValue ?? [:]
            s["description"] = .string(p.doc)
            properties[p.key] = .object(s)
        }
        let required = ["name"] + parameters.filter(\.required).map(\.key)
        return .object([
            "type": .string("object"), "description": .string(doc), "additionalProperties": .bool(false),
            "properties": .object(properties), "required": .array(required.map(JSONValue.string)),
        ])
    }
}

/// A filter object being read: its values, where it is in the file, and what relative paths and frame
/// counts are resolved against. Each accessor reads one parameter, checks it against the descriptor's
/// kind, and names the JSON path and the fix when it is wrong.
struct FilterArguments {
    let descriptor: FilterDescriptor
    let values: [String: JSONValue]
    /// The path of the filter's object.
    let path: JSONPath
    /// The folder relative file paths are read from (nil: the current directory).
    let baseDirectory: URL?
    /// The movie's frame rate (for keyframe times written in frames).
    let rate: FrameRate

    /// Reads `number` as a number within `range` at `path`.
    static func checkedNumber(_ v: JSONValue, at path: JSONPath, in range: ClosedRange<Double>) throws(MovieMakerError) -> Double {
        try number(v, at: path, in: range)
    }

    /// Checks the keys of `spec` against `descriptor` (unknown keys, missing required ones).
    init(_ spec: FilterSpec, descriptor: FilterDescriptor, at path: JSONPath, baseDirectory: URL?, rate: FrameRate) throws(MovieMakerError) {
        self.descriptor = descriptor; values = spec.parameters; self.path = path
        self.baseDirectory = baseDirectory; self.rate = rate
        let keys = descriptor.parameters.map(\.key)
        for key in JSONValue.sortedKeys(spec.parameters) where !keys.contains(key) {
            var message = "unknown key \"\(key)\" for filter \"\(descriptor.name)\": " + (keys.isEmpty ? "it takes no parameters" : "expected \(SpecObject.list(keys))")
            if let near = SpecObject.nearest(key, in: keys) { message += " (did you mean \"\(near)\"?)" }
            throw .invalidDescription(path.appending(key), message)
        }
        for p in descriptor.parameters where p.required && spec.parameters[p.key] == nil {
            throw .invalidDescription(path, "filter \"\(descriptor.name)\" needs \"\(p.key)\": \(p.doc.prefix(1).lowercased() + p.doc.dropFirst())")
        }
    }

    private func parameter(_ key: String) -> FilterParameter {
        guard let p = descriptor.parameters.first(where: { $0.key == key }) else {
            preconditionFailure("filter \(descriptor.name) reads undeclared parameter \(key)")
        }
        return p
    }
    private func fail(_ key: String, _ message: String) -> MovieMakerError { .invalidDescription(path.appending(key), message) }
    private static func show(_ d: Double) -> String { SpecObject.show(d) }

    /// Whether the parameter is present.
    func has(_ key: String) -> Bool { values[key] != nil }

    /// Reads every parameter present by its kind, so a description's filters are checked when it is
    /// read (before files are opened); what depends on several parameters is checked when built.
    func validateAll() throws(MovieMakerError) {
        for p in descriptor.parameters where values[p.key] != nil {
            switch p.kind {
            case .amount: _ = try amount(p.key, default: 0)
            case .number: _ = try number(p.key, default: 0)
            case .integer: _ = try integer(p.key, default: 0)
            case .color: _ = try color(p.key, default: .black)
            case .file: _ = try file(p.key)
            case let .choice(names): _ = try choice(p.key, default: names.first ?? "")
            case .points: _ = try points(p.key)
            case .boolean: _ = try bool(p.key, default: false)
            }
        }
    }

    /// A number in the parameter's range (`.number` or `.amount` kinds), or `defaultValue` when absent.
    func number(_ key: String, default defaultValue: Double) throws(MovieMakerError) -> Double {
        guard let v = values[key] else { return defaultValue }
        return try Self.number(v, at: path.appending(key), in: range(of: parameter(key)))
    }

    private func range(of p: FilterParameter) -> ClosedRange<Double> {
        switch p.kind {
        case let .amount(r), let .number(r): return r
        case let .integer(r): return Double(r.lowerBound)...Double(r.upperBound)
        default: preconditionFailure("parameter \(p.key) of \(descriptor.name) is not a number")
        }
    }

    private static func number(_ v: JSONValue, at path: JSONPath, in range: ClosedRange<Double>) throws(MovieMakerError) -> Double {
        guard let d = v.doubleValue else {
            throw .invalidDescription(path, "must be a number from \(show(range.lowerBound)) to \(show(range.upperBound)), got \(v.shortDescription)")
        }
        guard range.contains(d) else {
            throw .invalidDescription(path, "must be from \(show(range.lowerBound)) to \(show(range.upperBound)), got \(v.shortDescription)")
        }
        return d
    }

    /// A whole number in the parameter's range, or `defaultValue`.
    func integer(_ key: String, default defaultValue: Int) throws(MovieMakerError) -> Int {
        guard let v = values[key] else { return defaultValue }
        let r = range(of: parameter(key))
        // `7.0` is the whole number 7, as JSON tools write whole numbers (and as the schema's integer allows).
        guard case let .number(text) = v, let i = Int(text) ?? ExactNumber.decimal(text).flatMap({ $0.denominator == 1 ? Int(exactly: $0.numerator) : nil }) else {
            throw fail(key, "must be a whole number from \(Int(r.lowerBound)) to \(Int(r.upperBound)), got \(v.shortDescription)")
        }
        guard r.contains(Double(i)) else { throw fail(key, "must be from \(Int(r.lowerBound)) to \(Int(r.upperBound)), got \(v.shortDescription)") }
        return i
    }

    /// An amount: a number in range, or keyframes `[{"at": time, "value": number, "easing": name}, …]`.
    func amount(_ key: String, default defaultValue: Double) throws(MovieMakerError) -> FilterAmount {
        guard let v = values[key] else { return .constant(defaultValue) }
        let r = range(of: parameter(key))
        let at = path.appending(key)
        if case .number = v { return .constant(try Self.number(v, at: at, in: r)) }
        guard case let .array(elements) = v, !elements.isEmpty else {
            throw .invalidDescription(at, "must be a number from \(Self.show(r.lowerBound)) to \(Self.show(r.upperBound)) or a list of keyframes [{\"at\": \"0s\", \"value\": …}, …], got \(v.shortDescription)")
        }
        return .keyframes(try Self.keyframes(elements, at: at, rate: rate) { (v, p) throws(MovieMakerError) in try Self.number(v, at: p, in: r) })
    }

    /// Keyframes `[{"at": time, "value": …, "easing": name}, …]` (at least one), each value read by `value`.
    static func keyframes<V: Interpolatable & Sendable>(_ elements: [JSONValue], at path: JSONPath, rate: FrameRate,
                             value read: (JSONValue, JSONPath) throws(MovieMakerError) -> V) throws(MovieMakerError) -> KeyframeTrack<V> {
        guard !elements.isEmpty else { throw .invalidDescription(path, "must hold at least one keyframe {\"at\": \"0s\", \"value\": …}") }
        var keyframes: [Keyframe<V>] = []
        for (i, element) in elements.enumerated() {
            let p = path.appending(i)
            let o = try SpecObject(element, at: p, shape: keyframeShape, what: "a keyframe")
            let time = try o.time("at", required: true)!.time(at: rate)
            let value = try read(o.value("value")!, p.appending("value"))
            keyframes.append(Keyframe(time: time, value: value, easing: try o.easing("easing") ?? .linear))
        }
        return try KeyframeTrack(keyframes)
    }

    /// The shape of one keyframe.
    static let keyframeShape = SpecShape(name: "keyframe", doc: "A keyframe.", fields: [
        SpecField("at", Schema.ref("time"), required: true, "When the value is reached, in the item's own time."),
        SpecField("value", Schema.number(), required: true, "The value then."),
        SpecField("easing", Schema.ref("easing"), "How the value gets there from the keyframe before (default linear)."),
    ])

    /// A colour, or `defaultValue`.
    func color(_ key: String, default defaultValue: Color) throws(MovieMakerError) -> Color {
        guard let v = values[key] else { return defaultValue }
        guard case let .string(text) = v, let c = try? Color(css: text) else {
            throw fail(key, "must be a CSS colour such as \"#ff8800\", \"rgb(255, 136, 0)\" or \"orange\", got \(v.shortDescription)")
        }
        return c
    }

    /// A file path resolved against the description's folder (nil when absent).
    func file(_ key: String) throws(MovieMakerError) -> URL? {
        guard let v = values[key] else { return nil }
        guard case let .string(text) = v, !text.isEmpty else { throw fail(key, "must be a file path, got \(v.shortDescription)") }
        let expanded = (text as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") || baseDirectory == nil { return URL(fileURLWithPath: expanded) }
        return baseDirectory!.appendingPathComponent(expanded)
    }

    /// One of the parameter's choices, or `defaultValue`.
    func choice(_ key: String, default defaultValue: String) throws(MovieMakerError) -> String {
        guard let v = values[key] else { return defaultValue }
        guard case let .choice(names) = parameter(key).kind else { preconditionFailure("\(key) is not a choice") }
        guard case let .string(text) = v, names.contains(text) else {
            var message = "must be one of \(SpecObject.list(names.map { "\"\($0)\"" })), got \(v.shortDescription)"
            if let s = v.stringValue, let near = SpecObject.nearest(s, in: names) { message += " (did you mean \"\(near)\"?)" }
            throw fail(key, message)
        }
        return text
    }

    /// true or false, or `defaultValue`.
    func bool(_ key: String, default defaultValue: Bool) throws(MovieMakerError) -> Bool {
        guard let v = values[key] else { return defaultValue }
        guard case let .bool(b) = v else { throw fail(key, "must be true or false, got \(v.shortDescription)") }
        return b
    }

    /// Curve points `[[x, y], …]` (at least two, x increasing, each in 0…1), or nil when absent.
    func points(_ key: String) throws(MovieMakerError) -> [Point]? {
        guard let v = values[key] else { return nil }
        let form = "a list of at least two [x, y] points with x and y from 0 to 1 and x increasing, such as [[0, 0], [0.5, 0.6], [1, 1]]"
        guard case let .array(elements) = v, elements.count >= 2 else { throw fail(key, "must be \(form), got \(v.shortDescription)") }
        var points: [Point] = []
        for (i, e) in elements.enumerated() {
            guard case let .array(pair) = e, pair.count == 2, let x = pair[0].doubleValue, let y = pair[1].doubleValue,
                  (0...1).contains(x), (0...1).contains(y) else {
                throw .invalidDescription(path.appending(key).appending(i), "must be an [x, y] pair with x and y from 0 to 1, got \(e.shortDescription)")
            }
            if let last = points.last, x <= last.x {
                throw .invalidDescription(path.appending(key).appending(i), "x must increase from point to point: \(SpecObject.show(x)) follows \(SpecObject.show(last.x))")
            }
            points.append(Point(x: x, y: y))
        }
        return points
    }
}

/// Writing filter parameters back as JSON.
enum FilterJSON {
    /// A number as JSON.
    static func number(_ d: Double) -> JSONValue { JSONValue.double(d) ?? .number("0") }
    /// An amount: a number, or its keyframes with exact times (`"1.5s"`) and easing names.
    static func amount(_ a: FilterAmount) -> JSONValue {
        switch a {
        case let .constant(v): return number(v)
        case let .keyframes(track):
            return .array(track.keyframes.map { k in
                var o: [String: JSONValue] = ["at": .string(Timeline.TimeValue.seconds(k.time).description), "value": number(k.value)]
                if k.easing != .linear { o["easing"] = .string(k.easing.description) }
                return .object(o)
            })
        }
    }
    /// A colour as CSS hex text.
    static func color(_ c: Color) -> JSONValue { .string(c.hexString) }
    /// Points as `[[x, y], …]`.
    static func points(_ p: [Point]) -> JSONValue { .array(p.map { .array([number($0.x), number($0.y)]) }) }
}

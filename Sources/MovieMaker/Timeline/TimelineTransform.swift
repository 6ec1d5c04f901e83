import Foundation

// An item's `transform` in a description file: its model, reading, writing and compiling in one place
// (the shape is `TimelineShapes.transformShape`, beside the other picture-editing shapes). It is read
// into typed values once, where its JSON path is known, and compiled to a `Clip.Transform` at the
// movie's frame rate, the only thing reading needs from outside the object.

// MARK: Model

extension Timeline {
    /// How a picture item is placed (`"transform"`): moved, scaled, rotated, flipped, cropped, faded,
    /// blended. Fields left nil keep their defaults (where the item is, its centre as the anchor, scale 1,
    /// no rotation, opaque, normal blending).
    ///
    /// ```json
    /// "transform": {"position": [{"at": "0s", "value": [0, 540]}, {"at": "1s", "value": [960, 540], "easing": "ease-out"}],
    ///               "scale": 0.5, "cornerRadius": 24}
    /// ```
    public struct Transform: Sendable, Hashable {
        /// Which way a picture is mirrored.
        public enum Flip: String, Sendable, Hashable, CaseIterable {
            /// Left and right swapped.
            case horizontal
            /// Top and bottom swapped.
            case vertical
            /// Both: a half turn's picture without rotating the frame's geometry.
            case both
        }

        /// Where the anchor goes, in output pixels (default: where the item is).
        public var position: AnimatedValue<Point>?
        /// The point placed, scaled and rotated around, in unit coordinates of the item's picture
        /// (default (0.5, 0.5), its centre).
        public var anchor: Point?
        /// Size factor, 0…100 (default 1).
        public var scale: AnimatedValue<Double>?
        /// Clockwise rotation in degrees (default 0).
        public var rotation: AnimatedValue<Double>?
        /// Opacity, 0…1 (default 1).
        public var opacity: AnimatedValue<Double>?
        /// How the picture is mirrored (default not at all).
        public var flip: Flip?
        /// The part of the picture kept, in unit coordinates (default all of it).
        public var crop: Rect?
        /// Rounds the kept part's corners, in the picture's pixels: scaled with it, as CSS's `transform`
        /// scales a `border-radius` (default 0).
        public var cornerRadius: Double?
        /// How the picture combines with what is below (default normal).
        public var blend: BlendMode?

        /// A transform with the given fields; nil ones keep their defaults.
        public init(position: AnimatedValue<Point>? = nil, anchor: Point? = nil, scale: AnimatedValue<Double>? = nil,
                    rotation: AnimatedValue<Double>? = nil, opacity: AnimatedValue<Double>? = nil, flip: Flip? = nil,
                    crop: Rect? = nil, cornerRadius: Double? = nil, blend: BlendMode? = nil) {
            self.position = position; self.anchor = anchor; self.scale = scale; self.rotation = rotation
            self.opacity = opacity; self.flip = flip; self.crop = crop; self.cornerRadius = cornerRadius; self.blend = blend
        }
    }

    /// A value of a description that is the same all along or follows keyframes in the item's own time.
    public enum AnimatedValue<Value: Interpolatable & Sendable & Hashable>: Sendable, Hashable {
        /// The same value all along (`"scale": 1.5`).
        case constant(Value)
        /// Keyframes, at least one (`"scale": [{"at": "0s", "value": 1}, {"at": "2s", "value": 1.5}]`).
        case keyframes([KeyframeSpec<Value>])
    }

    /// One keyframe of a description: `{"at": "1s", "value": …, "easing": "ease-out"}`.
    public struct KeyframeSpec<Value: Interpolatable & Sendable & Hashable>: Sendable, Hashable {
        /// When the value is reached, in the item's own time.
        public var at: TimeValue
        /// The value then.
        public var value: Value
        /// How the value gets there from the keyframe before (default linear).
        public var easing: Easing?

        /// `value` reached at `at` along `easing`.
        public init(at: TimeValue, value: Value, easing: Easing? = nil) {
            self.at = at; self.value = value; self.easing = easing
        }
    }
}

// MARK: Reading

extension Timeline.Transform {
    /// Reads a transform object at `path`, checking every field and, at `rate`, the whole.
    init(reading v: JSONValue, at path: JSONPath, rate: FrameRate) throws(MovieMakerError) {
        let o = try SpecObject(v, at: path, shape: TimelineShapes.transformShape, what: "a transform")
        func point(_ v: JSONValue, _ p: JSONPath) throws(MovieMakerError) -> Point {
            guard case let .array(pair) = v, pair.count == 2, let x = pair[0].doubleValue, let y = pair[1].doubleValue,
                  abs(x) <= 1e6, abs(y) <= 1e6 else {
                throw .invalidDescription(p, "must be a point [x, y] of two numbers (within ±1000000), got \(v.shortDescription)")
            }
            return Point(x: x, y: y)
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws(MovieMakerError) -> Timeline.AnimatedValue<Double>? {
            guard let v = o.value(key) else { return nil }
            let p = path.appending(key)
            if case .array(let elements) = v {
                return .keyframes(try Self.keyframes(elements, at: p) { (e, ep) throws(MovieMakerError) in
                    try FilterArguments.checkedNumber(e, at: ep, in: range)
                })
            }
            return .constant(try FilterArguments.checkedNumber(v, at: p, in: range))
        }
        self.init()
        if let v = o.value("position") {
            let p = path.appending("position")
            if case let .array(elements) = v, elements.first.map({ if case .object = $0 { return true } else { return false } }) == true {
                position = .keyframes(try Self.keyframes(elements, at: p) { (e, ep) throws(MovieMakerError) in try point(e, ep) })
            } else {
                position = .constant(try point(v, p))
            }
        }
        if let v = o.value("anchor") { anchor = try point(v, path.appending("anchor")) }
        scale = try number("scale", 0...100)
        rotation = try number("rotation", -100_000...100_000)
        opacity = try number("opacity", 0...1)
        if let name = try o.string("flip") {
            guard let f = Flip(rawValue: name) else {
                let near = SpecObject.nearest(name, in: ["horizontal", "vertical", "both"]).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw o.fail("flip", "must be \"horizontal\", \"vertical\" or \"both\", got \"\(name)\"\(near)")
            }
            flip = f
        }
        if let v = o.value("crop") {
            let r = try SpecObject(v, at: path.appending("crop"), shape: TimelineShapes.cropRect, what: "a crop rectangle {x, y, width, height}")
            let rect = Rect(x: try r.double("x", in: 0...1)!, y: try r.double("y", in: 0...1)!,
                            width: try r.double("width", in: 0...1, above: 0)!, height: try r.double("height", in: 0...1, above: 0)!)
            guard rect.maxX <= 1 + 1e-12, rect.maxY <= 1 + 1e-12 else {
                throw .invalidDescription(path.appending("crop"), "must lie inside the picture: x + width and y + height at most 1, got \(SpecObject.show(rect.maxX)) and \(SpecObject.show(rect.maxY))")
            }
            crop = rect
        }
        cornerRadius = try o.double("cornerRadius", in: 0...5000)
        if let v = o.value("blend") {
            guard case let .string(name) = v, let mode = BlendMode(name: name) else {
                let names = BlendMode.allCases.map(\.name)
                var message = "must be a blend mode: \(names.joined(separator: ", ")), got \(v.shortDescription)"
                if let s = v.stringValue, let near = SpecObject.nearest(s, in: names) { message += " (did you mean \"\(near)\"?)" }
                throw o.fail("blend", message)
            }
            blend = mode
        }
        // What only the whole says (keyframes and crops that would leave nothing to show).
        _ = try clipTransform(at: rate, path: path)
    }

    /// Keyframes `[{"at": time, "value": …, "easing": name}, …]` (at least one), each value read by `read`.
    static func keyframes<V>(_ elements: [JSONValue], at path: JSONPath,
                             value read: (JSONValue, JSONPath) throws(MovieMakerError) -> V) throws(MovieMakerError) -> [Timeline.KeyframeSpec<V>] {
        guard !elements.isEmpty else { throw .invalidDescription(path, "must hold at least one keyframe {\"at\": \"0s\", \"value\": …}") }
        var keyframes: [Timeline.KeyframeSpec<V>] = []
        for (i, element) in elements.enumerated() {
            let p = path.appending(i)
            let o = try SpecObject(element, at: p, shape: FilterArguments.keyframeShape, what: "a keyframe")
            let at = try o.time("at", required: true)!
            let value = try read(o.value("value")!, p.appending("value"))
            keyframes.append(Timeline.KeyframeSpec(at: at, value: value, easing: try o.easing("easing")))
        }
        return keyframes
    }
}

extension SpecObject {
    /// `transform`, read and checked.
    func transform(_ key: String, _ context: SpecContext) throws(MovieMakerError) -> Timeline.Transform? {
        guard let v = value(key) else { return nil }
        return try Timeline.Transform(reading: v, at: path.appending(key), rate: context.rate)
    }
}

// MARK: Writing

extension Timeline.Transform {
    /// The transform's object, only the fields that are set.
    func json() throws(MovieMakerError) -> JSONValue {
        var w = SpecWriter(TimelineShapes.transformShape)
        if let position { w.set("position", try position.json(Self.pointJSON)) }
        if let anchor { w.set("anchor", Self.pointJSON(anchor)) }
        if let scale { w.set("scale", try scale.json(JSONValue.double)) }
        if let rotation { w.set("rotation", try rotation.json(JSONValue.double)) }
        if let opacity { w.set("opacity", try opacity.json(JSONValue.double)) }
        w.set("flip", flip)
        if let crop {
            var c = SpecWriter(TimelineShapes.cropRect)
            c.set("x", crop.minX); c.set("y", crop.minY); c.set("width", crop.width); c.set("height", crop.height)
            w.set("crop", c.value)
        }
        w.set("cornerRadius", cornerRadius)
        w.set("blend", blend?.name)
        return w.value
    }

    /// `[x, y]`.
    static func pointJSON(_ p: Point) -> JSONValue? {
        guard let x = JSONValue.double(p.x), let y = JSONValue.double(p.y) else { return nil }
        return .array([x, y])
    }
}

extension Timeline.AnimatedValue {
    /// The value, or the keyframes' array, each value written by `write`.
    func json(_ write: (Value) -> JSONValue?) throws(MovieMakerError) -> JSONValue? {
        switch self {
        case let .constant(v): return write(v)
        case let .keyframes(keyframes):
            return .array(try keyframes.mapTyped { k throws(MovieMakerError) -> JSONValue in
                var w = SpecWriter(FilterArguments.keyframeShape)
                w.set("at", k.at)
                w.set("value", write(k.value))
                if let easing = k.easing { w.set("easing", try easing.specJSON()) }
                return w.value
            })
        }
    }
}

// MARK: Compiling

extension Timeline.Transform {
    /// The clip transform at `rate` (keyframe times in frames become seconds), checked as a whole;
    /// errors name `path`.
    func clipTransform(at rate: FrameRate, path: JSONPath) throws(MovieMakerError) -> Clip.Transform {
        var t = Clip.Transform()
        if let position { t.position = try position.animated(at: rate) }
        if let anchor { t.anchor = anchor }
        if let scale { t.scale = try scale.animated(at: rate) }
        if let rotation { t.rotation = try rotation.animated(at: rate) }
        if let opacity { t.opacity = try opacity.animated(at: rate) }
        t.flipHorizontally = flip == .horizontal || flip == .both
        t.flipVertically = flip == .vertical || flip == .both
        t.crop = crop
        if let cornerRadius { t.cornerRadius = cornerRadius }
        if let blend { t.blendMode = blend }
        do { try t.validate() } catch { throw .invalidDescription(path, error.message) }
        return t
    }
}

extension Timeline.AnimatedValue {
    /// The clip transform's value at `rate`.
    func animated(at rate: FrameRate) throws(MovieMakerError) -> Animated<Value> {
        switch self {
        case let .constant(v): return .constant(v)
        case let .keyframes(keyframes):
            return .keyframes(try KeyframeTrack(keyframes.map { Keyframe(time: $0.at.time(at: rate), value: $0.value, easing: $0.easing ?? .linear) }))
        }
    }
}

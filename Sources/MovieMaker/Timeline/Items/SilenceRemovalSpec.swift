import Foundation

// A video item's `removeSilence`: the silent stretches of its sound cut out, picture and sound together
// (`"removeSilence": {"threshold": "-40dB", "min": "0.4s", "keep": "0.1s"}`, or `true` for those).

// MARK: Model

extension Timeline {
    /// Cutting the silent stretches out of a video item (its `removeSilence` key).
    public struct SilenceRemoval: Sendable, Hashable {
        /// The level below which sound is silence, in dBFS (default −40).
        public var threshold: Double?
        /// The shortest silence cut (default 0.4 s).
        public var min: TimeValue?
        /// How much of each silence stays, half on each side of the cut (default 0.1 s).
        public var keep: TimeValue?

        /// Silences below `threshold` dB lasting `min` or more, each cut down to `keep`; nil: defaults.
        public init(threshold: Double? = nil, min: TimeValue? = nil, keep: TimeValue? = nil) {
            self.threshold = threshold; self.min = min; self.keep = keep
        }
    }
}

// MARK: Description file

extension Timeline.SilenceRemoval {
    /// The keys of `removeSilence`.
    static let shape = SpecShape(name: "removeSilence", doc: "The silent stretches of the clip's sound cut out, picture and sound together.", fields: [
        SpecField("threshold", Schema.oneOf([Schema.string(pattern: #"^-?[0-9]+(\.[0-9]+)?\s*dB$"#), Schema.number(minimum: -120, maximum: 0)]),
                  "The level below which sound is silence: \"-40dB\" (default) or a number of dB."),
        SpecField("min", Schema.ref("duration"), "The shortest silence cut (default 0.4s)."),
        SpecField("keep", Schema.ref("time"), "How much of each silence stays, half on each side of the cut (default 0.1s)."),
    ])

    /// The schema: true, or the settings.
    static var schema: JSONValue { Schema.oneOf([Schema.boolean, shape.schema]) }

    /// Reads `removeSilence` of `item`, nil when absent or false.
    static func read(_ item: SpecObject) throws(MovieMakerError) -> Self? {
        guard let v = item.value("removeSilence") else { return nil }
        if case let .bool(b) = v { return b ? Self() : nil }
        guard case .object = v else {
            throw item.fail("removeSilence", "must be true or {\"threshold\": \"-40dB\", \"min\": \"0.4s\", \"keep\": \"0.1s\"}, got \(v.shortDescription)")
        }
        let r = try item.object("removeSilence", shape)!
        var threshold: Double? = nil
        if let t = r.value("threshold") {
            let text = t.stringValue.map { $0.trimmingCharacters(in: .whitespaces) } ?? t.shortDescription
            let number = text.hasSuffix("dB") ? String(text.dropLast(2)).trimmingCharacters(in: .whitespaces) : text
            guard let d = Double(number), d.isFinite, (-120...0).contains(d) else {
                throw r.fail("threshold", "must be a level from -120dB to 0dB such as \"-40dB\", got \(t.shortDescription)")
            }
            threshold = d
        }
        return Self(threshold: threshold, min: try r.time("min", positive: true), keep: try r.time("keep"))
    }

    /// The JSON object.
    var json: JSONValue {
        var w = SpecWriter(Self.shape)
        w.set("threshold", threshold.map { "\(SpecObject.show($0))dB" })
        w.set("min", min)
        w.set("keep", keep)
        return w.value
    }
}

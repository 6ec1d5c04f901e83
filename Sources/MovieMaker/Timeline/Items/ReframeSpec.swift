import Foundation

// `reframe` on a video item or on the whole movie (`output.reframe`): the picture cut to another aspect
// ratio by a window that follows the subject (`"reframe": {"aspect": "9:16"}`, or just `"9:16"`).

// MARK: Model

extension Timeline {
    /// Reframing a video (a video item's or `output`'s `reframe` key): see `Reframe`.
    public struct ReframeSpec: Sendable, Hashable {
        /// The window's aspect ratio, written `"9:16"`.
        public var aspect: Reframe

        /// A window of `aspect`.
        public init(aspect: Reframe) { self.aspect = aspect }
    }
}

// MARK: Description file

extension Timeline.ReframeSpec {
    /// The keys of `reframe`.
    static let shape = SpecShape(name: "reframe", doc: "The picture reframed to another aspect ratio by a window that follows the subject (faces, else motion).", fields: [
        SpecField("aspect", Schema.string(pattern: #"^\s*([1-9][0-9]?|100)\s*[:x/]\s*([1-9][0-9]?|100)\s*$"#), required: true,
                  "The window's aspect ratio W:H, such as \"9:16\" (vertical), \"1:1\" or \"4:5\"."),
    ])

    /// The schema: the object, or the aspect alone.
    static var schema: JSONValue { Schema.oneOf([shape.schema, Schema.string(pattern: #"^\s*([1-9][0-9]?|100)\s*[:x/]\s*([1-9][0-9]?|100)\s*$"#)]) }

    /// Reads `key` (default `reframe`) of `object`, nil when absent.
    static func read(_ object: SpecObject, key: String = "reframe") throws(MovieMakerError) -> Self? {
        guard let v = object.value(key) else { return nil }
        func aspect(_ text: JSONValue, _ at: SpecObject, _ field: String) throws(MovieMakerError) -> Reframe {
            guard let s = text.stringValue else { throw at.fail(field, "must be an aspect ratio such as \"9:16\", got \(text.shortDescription)") }
            do { return try Reframe(aspect: s) } catch {
                throw at.fail(field, "must be an aspect ratio W:H with whole numbers from 1 to 100 such as \"9:16\", \"1:1\" or \"4:5\", got \(text.shortDescription)")
            }
        }
        if case .string = v { return Self(aspect: try aspect(v, object, key)) }
        guard case .object = v else {
            throw object.fail(key, "must be {\"aspect\": \"9:16\"} or \"9:16\", got \(v.shortDescription)")
        }
        let r = try object.object(key, shape)!
        return Self(aspect: try aspect(r.value("aspect")!, r, "aspect"))
    }

    /// The JSON object.
    var json: JSONValue {
        var w = SpecWriter(Self.shape)
        w.set("aspect", aspect.description)
        return w.value
    }
}

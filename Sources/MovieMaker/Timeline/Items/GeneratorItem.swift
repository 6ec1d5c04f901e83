import Foundation

// The `generator` item: a picture made by code registered under a name (`GeneratorRegistry`).

// MARK: Model

extension Timeline {
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
}

// MARK: Description file

extension Timeline.Generator: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("generator", doc: "A picture made by code registered under a name.", splitCell: true, fields: [
                SpecField("name", Schema.string(minLength: 1), required: true, "The generator's registered name (confetti, gradient, …)."),
                SpecField("params", Schema.anyObject, "The generator's parameters."),
                SpecField("duration", Schema.ref("duration"), required: true, "How long it lasts."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        Timeline.Generator(try i.string("name", required: true, nonEmpty: true)!, params: try i.metadata("params"),
                           duration: try i.time("duration", required: !context.splitCell, positive: true))
    }

    var content: Timeline.Content { .generator(self) }

    func write(to w: inout SpecWriter) {
        w.set("name", name)
        if !params.isEmpty { w.set("params", .object(params)) }
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.generator(self, at: path)
    }

    var lastsAsLongAsItsSplit: Bool { duration == nil }

    func withLength(_ length: Timeline.TimeValue) -> Self { var g = self; g.duration = length; return g }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A generator item's clip, made by the generator registered under its name.
    mutating func generator(_ g: Timeline.Generator, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let d = try duration(g.duration, at: path)
        // A generator reads its own parameters: colour slots in them are filled here, where slots are known.
        var params: [String: JSONValue] = [:]
        for (key, value) in g.params { params[key] = try fillingColorSlots(value, at: path.appending("params").appending(key)) }
        let clip = try options.generators.make(g.name, params: params, path: path, duration: d, width: width, height: height, rate: rate)
        return CompiledItem(clip: clip, what: g.name, detail: g.params.isEmpty ? "" : JSONValue.object(g.params).compactText)
    }
}

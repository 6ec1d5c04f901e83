import Foundation

// The `color` item: the frame in one colour.

// MARK: Model

extension Timeline {
    /// A colour item (`"type": "color"`): the frame in one colour.
    public struct ColorFill: Sendable, Hashable {
        /// The colour; may be `"{{slot}}"`.
        public var color: ColorText
        /// How long it lasts; nil only in a split's cell, which then lasts as long as the split.
        public var duration: TimeValue?
        /// `color` for `duration` (nil: as long as the split whose cell it is).
        public init(_ color: ColorText, duration: TimeValue?) { self.color = color; self.duration = duration }
    }
}

// MARK: Description file

extension Timeline.ColorFill: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("color", doc: "The frame in one colour.", splitCell: true, fields: [
                SpecField("color", Schema.ref("color"), required: true, "The colour."),
                SpecField("duration", Schema.ref("duration"), required: true, "How long it lasts."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        Timeline.ColorFill(try i.color("color", context, required: true)!,
                           duration: try i.time("duration", required: !context.splitCell, positive: true))
    }

    var content: Timeline.Content { .color(self) }

    func write(to w: inout SpecWriter) {
        w.set("color", color)
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.colorFill(self, at: path)
    }

    var lastsAsLongAsItsSplit: Bool { duration == nil }

    func withLength(_ length: Timeline.TimeValue) -> Self { var c = self; c.duration = length; return c }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A colour item's clip.
    mutating func colorFill(_ c: Timeline.ColorFill, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let color = try self.color(c.color, at: path.appending("color"))!
        return CompiledItem(clip: Clip.color(color, duration: try duration(c.duration, at: path)), what: color.hexString, detail: "")
    }
}

import Foundation

// The `gap` item: nothing for a while, so what is below shows through.

// MARK: Model

extension Timeline {
    /// Nothing, for a while (`"type": "gap"`): what is below shows through.
    public struct Gap: Sendable, Hashable {
        /// How long.
        public var duration: TimeValue
        /// A gap of `duration`.
        public init(duration: TimeValue) { self.duration = duration }
    }
}

// MARK: Description file

extension Timeline.Gap: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("gap", doc: "Nothing for a while: what is below shows through.", splitCell: true, drawsPicture: false, fields: [
                SpecField("duration", Schema.ref("duration"), required: true, "How long."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        Timeline.Gap(duration: try i.time("duration", required: true, positive: true)!)
    }

    var content: Timeline.Content { .gap(self) }

    func write(to w: inout SpecWriter) {
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        TimelineCompiler.CompiledItem(clip: Clip.empty(duration: duration.time(at: compiler.rate)), what: "nothing", detail: "")
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { Timeline.Gap(duration: length) }
}

import Foundation

// The `title` item: an animated title card, its text able to take a template's `{{slots}}`.

// MARK: Model

extension Timeline {
    /// The entrance and exit styles of a title (`TitleAnimation`'s, by name).
    public enum TitleStyle: String, Sendable, Hashable, CaseIterable {
        /// The style's animation with its own duration and easing (a `slide` coming from `edge`: from
        /// beyond the frame's edge, or over `distance` pixels at 1080 lines when given).
        public func animation(from edge: Edge = .bottom, distance: Double? = nil) -> TitleAnimation {
            switch self {
            case .fade: return .fade()
            case .slide: return .slide(from: edge, distance: distance)
            case .typewriter: return .typewriter()
            case .pop: return .pop()
            case .letters: return .letters()
            case .words: return .words()
            case .blur: return .blur()
            case .none: return .none
            }
        }

        /// Fade in.
        case fade
        /// Slide in from `from` (default the bottom).
        case slide
        /// Letters appear one by one, as typed.
        case typewriter
        /// Scale up with a slight overshoot.
        case pop
        /// Each letter fades and rises in turn.
        case letters
        /// Each word fades and rises in turn.
        case words
        /// Come into focus.
        case blur
        /// No animation.
        case none
    }

    /// A title card item (`"type": "title"`). Text fields may use `{{slot}}` to take a template's text.
    public struct Title: Sendable, Hashable {
        /// The main line.
        public var text: String
        /// A smaller line under it.
        public var subtitle: String?
        /// Paragraph text under the subtitle.
        public var body: String?
        /// How long it lasts (default 4 s).
        public var duration: TimeValue?
        /// How the text comes on (default `fade`).
        public var style: TitleStyle?
        /// Where a `slide` comes from (default the bottom).
        public var from: Edge?
        /// The entrance's timing curve (default: the style's own).
        public var easing: Easing?
        /// How long the entrance takes (default: the style's own, 0.6–1.5 s).
        public var entranceDuration: TimeValue?
        /// How the text goes off (default `fade`).
        public var exitStyle: TitleStyle?
        /// `fullScreen` (centred) or `lowerThird` (default `fullScreen`).
        public var layout: TitleCard.Layout?
        /// The text's colour (default white); may be `"{{slot}}"` for a colour slot.
        public var color: ColorText?
        /// Behind the text: a colour, or `"none"` (default: dark blue-grey on a video track, none on an overlay track).
        public var background: ColorText?
        /// The font family (default DejaVu Sans).
        public var font: String?
        /// The largest title size in pixels at 1080 lines (default 120; shrunk to fit).
        public var fontSize: Double?
        /// How far a `slide` travels, in pixels at 1080 lines (default: from beyond the frame's edge).
        public var slideDistance: Double?

        /// A title item; nil fields take their defaults.
        public init(_ text: String, subtitle: String? = nil, body: String? = nil, duration: TimeValue? = nil, style: TitleStyle? = nil,
                    from: Edge? = nil, easing: Easing? = nil, entranceDuration: TimeValue? = nil, exitStyle: TitleStyle? = nil,
                    layout: TitleCard.Layout? = nil, color: ColorText? = nil, background: ColorText? = nil, font: String? = nil,
                    fontSize: Double? = nil, slideDistance: Double? = nil) {
            self.text = text; self.subtitle = subtitle; self.body = body; self.duration = duration; self.style = style
            self.from = from; self.easing = easing; self.entranceDuration = entranceDuration; self.exitStyle = exitStyle
            self.layout = layout; self.color = color; self.background = background; self.font = font; self.fontSize = fontSize
            self.slideDistance = slideDistance
        }
    }
}

// MARK: Description file

extension Timeline.Title: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("title", doc: "An animated title card. Text may use {{slot}}.", splitCell: true, fields: [
                SpecField("text", Schema.string(), required: true, "The main line."),
                SpecField("subtitle", Schema.string(), "A smaller line under it."),
                SpecField("body", Schema.string(), "Paragraph text under the subtitle."),
                SpecField("duration", Schema.ref("duration"), "How long it lasts (default 4s)."),
                SpecField("style", Schema.enumeration(Timeline.TitleStyle.allCases.map(\.rawValue)), "How the text comes on (default fade)."),
                SpecField("from", Schema.enumeration(Edge.allCases.map(\.rawValue)), "Where a slide comes from (default bottom)."),
                SpecField("easing", Schema.ref("easing"), "The entrance's timing curve (default: the style's own)."),
                SpecField("entranceDuration", Schema.ref("duration"), "How long the entrance takes (default: the style's own)."),
                SpecField("exitStyle", Schema.enumeration(Timeline.TitleStyle.allCases.map(\.rawValue)), "How the text goes off (default fade)."),
                SpecField("layout", Schema.enumeration(TitleCard.Layout.allCases.map(\.rawValue)), "fullScreen or lowerThird (default fullScreen)."),
                SpecField("color", Schema.ref("color"), "The text's colour (default white)."),
                SpecField("background", Schema.ref("titleBackground"), "Behind the text: a colour or none (default: dark on a video track, none on an overlay track)."),
                SpecField("font", Schema.string(minLength: 1), "The font family (default DejaVu Sans)."),
                SpecField("fontSize", Schema.number(exclusiveMinimum: 0, maximum: 1000), "The largest title size in pixels at 1080 lines (default 120)."),
                SpecField("slideDistance", Schema.number(minimum: 0, maximum: 10000),
                          "How far a slide travels, in pixels at 1080 lines (default: from beyond the frame's edge)."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        Timeline.Title(try i.text("text", context, required: true)!, subtitle: try i.text("subtitle", context),
                       body: try i.text("body", context), duration: try i.time("duration", positive: true),
                       style: try i.choice("style", Timeline.TitleStyle.self, what: "title style"),
                       from: try i.choice("from", Edge.self, what: "edge"), easing: try i.easing("easing"),
                       entranceDuration: try i.time("entranceDuration", positive: true),
                       exitStyle: try i.choice("exitStyle", Timeline.TitleStyle.self, what: "title style"),
                       layout: try i.choice("layout", TitleCard.Layout.self, what: "title layout"),
                       color: try i.color("color", context), background: try i.color("background", context, allowNone: true),
                       font: try i.string("font", nonEmpty: true),
                       fontSize: try i.double("fontSize", in: 0...1000, above: 0, hint: " pixels at 1080 lines"),
                       slideDistance: try i.double("slideDistance", in: 0...10000, hint: " pixels at 1080 lines"))
    }

    var content: Timeline.Content { .title(self) }

    func write(to w: inout SpecWriter) throws(MovieMakerError) {
        w.set("text", text)
        w.set("subtitle", subtitle)
        w.set("body", body)
        w.set("duration", duration)
        w.set("style", style)
        w.set("from", from)
        if let easing { w.set("easing", try easing.specJSON()) }
        w.set("entranceDuration", entranceDuration)
        w.set("exitStyle", exitStyle)
        w.set("layout", layout)
        w.set("color", color)
        w.set("background", background)
        w.set("font", font)
        w.set("fontSize", fontSize)
        w.set("slideDistance", slideDistance)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.title(self, at: path, onOverlay: onOverlay)
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var t = self; t.duration = length; return t }

    var lastsAsLongAsItsSplit: Bool { duration == nil }
    var hasDefaultLength: Bool { true }
}

// MARK: Compiling

extension TimelineCompiler {
    mutating func title(_ t: Timeline.Title, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> CompiledItem {
        let text = try interpolate(t.text, at: path.appending("text"))
        var card = TitleCard(text, subtitle: try t.subtitle.map { s throws(MovieMakerError) in try interpolate(s, at: path.appending("subtitle")) },
                             body: try t.body.map { s throws(MovieMakerError) in try interpolate(s, at: path.appending("body")) },
                             duration: t.duration?.time(at: rate) ?? cellDuration ?? 4, fontFamily: t.font ?? "DejaVu Sans")
        // A slot given no text (`--slot name=` from an empty shell variable) leaves a box or card with no
        // words; it renders, as a deliberate blank card would, but says so.
        let names = Timeline.pieces(of: t.text).names
        if !names.isEmpty, ([card.title] + [card.subtitle, card.body].compactMap { $0 }).allSatisfy({ $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
            warnings.append("\(path.appending("text")): the title is blank once \(names.map { "{{\($0)}}" }.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") filled, "
                            + "so it shows no words\(t.layout == .lowerThird ? ", only its box" : ""): give the slot\(names.count == 1 ? "" : "s") some text")
        }
        if let size = t.fontSize { card.titleStyle.font.size = size }
        if let c = try color(t.color, at: path.appending("color")) {
            card.titleStyle.color = c; card.subtitleStyle.color = c; card.bodyStyle.color = c
        }
        if let layout = t.layout { card.layout = layout }
        if let bg = t.background {
            card.background = bg.isNone ? .none : .color(try color(bg, at: path.appending("background"))!)
        } else if onOverlay {
            card.background = .none
        }
        if let entrance = t.entranceDuration?.time(at: rate), entrance > card.duration {
            throw .invalidDescription(path.appending("entranceDuration"), "the entrance takes \(entrance.seconds) s but the title lasts \(card.duration.seconds) s, so it would never finish arriving: shorten entranceDuration or lengthen the duration")
        }
        card.entrance = animation(t.style ?? .fade, from: t.from ?? .bottom, distance: t.slideDistance,
                                  duration: t.entranceDuration?.time(at: rate), easing: t.easing)
        if let exit = t.exitStyle {
            card.exit = animation(exit, from: t.from ?? .bottom, distance: t.slideDistance, duration: nil, easing: nil, exit: true)
        }
        do {
            // With a platform preset, the card is laid out in the platform's safe area and placed there.
            let clip: Clip
            if let area = safeArea {
                clip = try card.clip(width: Int(area.width.rounded()), height: Int(area.height.rounded()))
                    .positioned(at: Point(x: area.minX, y: area.minY), anchor: Point(x: 0, y: 0))
            } else {
                clip = try card.clip(width: width, height: height)
            }
            return CompiledItem(clip: clip, what: "\"\(text)\"", detail: (t.style ?? .fade).rawValue)
        } catch {
            // A font that is not installed is the `font` key's fault.
            throw error.located(jsonPath: (error.code == .fontNotFound && t.font != nil ? path.appending("font") : path).description)
        }
    }

    func animation(_ style: Timeline.TitleStyle, from edge: Edge, distance: Double? = nil, duration: Time?, easing: Easing?,
                   exit: Bool = false) -> TitleAnimation {
        var a = style == .fade && exit ? TitleAnimation.fade(duration: 0.5) : style.animation(from: edge, distance: distance)
        if duration != nil || easing != nil {
            a = TitleAnimation(a.style, duration: duration ?? a.duration, easing: easing ?? a.easing, cascade: a.cascade)
        }
        return a
    }
}

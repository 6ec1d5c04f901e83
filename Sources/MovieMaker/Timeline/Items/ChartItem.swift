import Foundation

// The `chart` item: a picture of numbers that moves. This file is the first kind added after the
// description file was split by kind, the proof that a kind is its file plus its registration in
// TimelineItemKind.swift. Of the chart kinds, `counter` is drawn so far (a number rolling from one
// value to another); bar races, bars, lines and pies come with their own keys.

// MARK: Model

extension Timeline {
    /// An animated chart (`"type": "chart"`). So far one kind: a `counter`, a number rolling from `from`
    /// to `to` over `countDuration` along `easing`, then holding, written with the grouping and decimal
    /// marks of `locale`, centred on the frame (its `transform` moves it).
    ///
    /// ```json
    /// {"type": "chart", "kind": "counter", "from": 0, "to": 12500, "prefix": "$", "duration": "3s"}
    /// ```
    public struct Chart: Sendable, Hashable {
        /// The kinds of chart.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A number rolling from `from` to `to`.
            case counter
        }

        /// What is drawn.
        public var kind: Kind
        /// The first value (default 0).
        public var from: Double?
        /// The last value.
        public var to: Double
        /// Digits after the decimal mark (default 0).
        public var decimals: Int?
        /// Text before the number (`"$"`).
        public var prefix: String?
        /// Text after the number (`" km"`, `"%"`).
        public var suffix: String?
        /// The locale whose grouping and decimal marks are used (default `en_US`: `12,500.5`).
        public var locale: String?
        /// How long the item lasts; nil only in a split's cell, which then lasts as long as the split.
        public var duration: TimeValue?
        /// How long the number takes to get from `from` to `to` (default: the duration less 1 s, or
        /// all of it when it is under 2 s); it holds `to` after that.
        public var countDuration: TimeValue?
        /// The timing curve of the count (default `easeOut`: fast, then settling).
        public var easing: Easing?
        /// The text colour (default white).
        public var color: ColorText?
        /// The font family (default DejaVu Sans).
        public var font: String?
        /// The text size in pixels at 1080 lines (default 160).
        public var fontSize: Double?

        /// A chart of `kind` ending at `to`; nil fields take their defaults.
        public init(_ kind: Kind, from: Double? = nil, to: Double, decimals: Int? = nil, prefix: String? = nil, suffix: String? = nil,
                    locale: String? = nil, duration: TimeValue?, countDuration: TimeValue? = nil, easing: Easing? = nil,
                    color: ColorText? = nil, font: String? = nil, fontSize: Double? = nil) {
            self.kind = kind; self.from = from; self.to = to; self.decimals = decimals; self.prefix = prefix; self.suffix = suffix
            self.locale = locale; self.duration = duration; self.countDuration = countDuration; self.easing = easing
            self.color = color; self.font = font; self.fontSize = fontSize
        }
    }
}

// MARK: Description file

extension Timeline.Chart: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("chart", doc: "An animated chart: so far a counter, a number rolling from one value to another.", splitCell: true, fields: [
            SpecField("kind", Schema.enumeration(Kind.allCases.map(\.rawValue)), required: true, "What is drawn: counter."),
            SpecField("from", Schema.number(minimum: -1e15, maximum: 1e15), "The first value (default 0)."),
            SpecField("to", Schema.number(minimum: -1e15, maximum: 1e15), required: true, "The last value."),
            SpecField("decimals", Schema.integer(minimum: 0, maximum: 6), "Digits after the decimal mark (default 0)."),
            SpecField("prefix", Schema.string(), "Text before the number."),
            SpecField("suffix", Schema.string(), "Text after the number."),
            SpecField("locale", Schema.string(pattern: #"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$"#), "Whose grouping and decimal marks: en_US (default), de_DE, fr_FR…"),
            SpecField("duration", Schema.ref("duration"), required: true, "How long it lasts."),
            SpecField("countDuration", Schema.ref("duration"), "How long the count takes (default: the duration less 1s, or all of it under 2s)."),
            SpecField("easing", Schema.ref("easing"), "The count's timing curve (default easeOut)."),
            SpecField("color", Schema.ref("color"), "The text colour (default white)."),
            SpecField("font", Schema.string(minLength: 1), "The font family (default DejaVu Sans)."),
            SpecField("fontSize", Schema.number(exclusiveMinimum: 0, maximum: 1000), "The text size in pixels at 1080 lines (default 160)."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let chart = Timeline.Chart(try i.choice("kind", Kind.self, what: "chart kind")!,
                                   from: try i.double("from", in: -1e15...1e15), to: try i.double("to", in: -1e15...1e15)!,
                                   decimals: try i.int("decimals", in: 0...6), prefix: try i.string("prefix"), suffix: try i.string("suffix"),
                                   locale: try i.string("locale", nonEmpty: true),
                                   duration: try i.time("duration", required: !context.splitCell, positive: true),
                                   countDuration: try i.time("countDuration", positive: true), easing: try i.easing("easing"),
                                   color: try i.color("color", context), font: try i.string("font", nonEmpty: true),
                                   fontSize: try i.double("fontSize", in: 0...1000, above: 0, hint: " pixels at 1080 lines"))
        if let locale = chart.locale, !Locale.availableIdentifiers.contains(locale.replacingOccurrences(of: "-", with: "_")) {
            throw i.fail("locale", "is not a locale this system knows, got \"\(locale)\": use an identifier such as en_US, de_DE or fr_FR")
        }
        return chart
    }

    var content: Timeline.Content { .chart(self) }

    func write(to w: inout SpecWriter) throws(MovieMakerError) {
        w.set("kind", kind)
        w.set("from", from)
        w.set("to", to)
        w.set("decimals", decimals)
        w.set("prefix", prefix)
        w.set("suffix", suffix)
        w.set("locale", locale)
        w.set("duration", duration)
        w.set("countDuration", countDuration)
        if let easing { w.set("easing", try easing.specJSON()) }
        w.set("color", color)
        w.set("font", font)
        w.set("fontSize", fontSize)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.chart(self, at: path)
    }

    var lastsAsLongAsItsSplit: Bool { duration == nil }

    func withLength(_ length: Timeline.TimeValue) -> Self { var c = self; c.duration = length; return c }

    /// `value` rounded to `decimals` and written with `locale`'s marks: `-12,500.50`.
    static func format(_ value: Double, decimals: Int, grouping: String, decimalMark: String) -> String {
        let scale = pow(10, Double(decimals))
        let scaled = (abs(value) * scale).rounded()
        let negative = value < 0 && scaled > 0
        let whole = Int64(scaled / scale)
        var digits = String(whole)
        var grouped = ""
        while digits.count > 3 {
            grouped = grouping + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        grouped = digits + grouped
        if decimals > 0 {
            let fraction = Int64(scaled - Double(whole) * scale)
            let text = String(fraction)
            grouped += decimalMark + String(repeating: "0", count: max(0, decimals - text.count)) + text
        }
        return (negative ? "-" : "") + grouped
    }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A chart item's clip: the counter's text laid out by Pango each frame, centred on the frame.
    mutating func chart(_ c: Timeline.Chart, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let length = try duration(c.duration, at: path)
        let count = c.countDuration?.time(at: rate) ?? (length >= 2 ? length - 1 : length)
        let color = try self.color(c.color, at: path.appending("color")) ?? .white
        let locale = Locale(identifier: (c.locale ?? "en_US").replacingOccurrences(of: "-", with: "_"))
        let grouping = locale.groupingSeparator ?? ",", decimalMark = locale.decimalSeparator ?? "."
        let from = c.from ?? 0, to = c.to, decimals = c.decimals ?? 0
        let easing = c.easing ?? .easeOut
        let prefix = c.prefix ?? "", suffix = c.suffix ?? ""
        let style = TextStyle(font: TextFont(family: c.font ?? "DejaVu Sans", size: (c.fontSize ?? 160) * Double(height) / 1080),
                              color: color, alignment: .center)
        let width = Double(self.width), height = Double(self.height)
        // Checked now, so a font or text Pango refuses fails before the first frame.
        _ = try TextLayout(prefix + Timeline.Chart.format(to, decimals: decimals, grouping: grouping, decimalMark: decimalMark) + suffix,
                           style: style, width: width)
        let clip = Clip(duration: length) { ctx, frame in
            let progress = count > .zero ? min(1, max(0, frame.exactTime.seconds / count.seconds)) : 1
            let value = from + (to - from) * easing(progress)
            let text = prefix + Timeline.Chart.format(value, decimals: decimals, grouping: grouping, decimalMark: decimalMark) + suffix
            let layout = try TextLayout(text, style: style, width: width)
            ctx.draw(layout, at: Point(x: 0, y: height / 2 - layout.logicalBounds.midY))
        }
        let what = prefix + Timeline.Chart.format(to, decimals: decimals, grouping: grouping, decimalMark: decimalMark) + suffix
        return CompiledItem(clip: clip, what: "\(c.kind.rawValue) to \(what)", detail: "")
    }
}

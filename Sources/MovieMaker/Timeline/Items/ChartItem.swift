import Foundation

// The `chart` item: a picture of numbers that moves. This file was the first kind added after the
// description file was split by kind, the proof that a kind is its file plus its registration in
// TimelineItemKind.swift. A `counter` is drawn here; the other kinds by `Chart` from a table (`data`).

/// The library's chart, which `Timeline.Chart` hides inside `Timeline`.
private typealias TableChart = Chart

// MARK: Model

extension Timeline {
    /// An animated chart (`"type": "chart"`): a `counter` rolling from `from` to `to`, or a `barRace`,
    /// `bar`, `line` or `pie` chart of a table (`data`: a CSV file or rows written in the file), drawn
    /// by `Chart`.
    ///
    /// ```json
    /// {"type": "chart", "kind": "counter", "from": 0, "to": 12500, "prefix": "$", "duration": "3s"}
    /// {"type": "chart", "kind": "barRace", "data": {"file": "cities.csv"}, "duration": "12s"}
    /// ```
    public struct Chart: Sendable, Hashable {
        /// The kinds of chart.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A number rolling from `from` to `to`.
            case counter
            /// A bar-chart race through the table's columns (`MovieMaker.Chart.Kind.barRace`).
            case barRace
            /// Grouped bars growing in.
            case bar
            /// Lines drawing themselves.
            case line
            /// A pie or donut sweeping in.
            case pie
        }

        /// Where a chart's table comes from.
        public enum DataSource: Sendable, Hashable {
            /// A CSV file (a header, then a row per series).
            case file(String)
            /// Rows written in the description: the header, then a row per series (its name, its values).
            case rows(columns: [String], series: [ChartData.Series])
        }

        /// What is drawn.
        public var kind: Kind
        /// A counter's first value (default 0).
        public var from: Double?
        /// A counter's last value (required for a counter).
        public var to: Double?
        /// The table of a bar race, bars, lines or pie.
        public var data: DataSource?
        /// A title above the chart.
        public var title: String?
        /// The series' colours (default: Tableau 10).
        public var colors: [ColorText]?
        /// A bar race's time from one period to the next (default: the duration shared by the periods).
        public var periodDuration: TimeValue?
        /// A pie's hole as a fraction of its radius (0 a pie, the default; 0.55 a donut).
        public var hole: Double?
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
        /// The timing curve of the count (default `easeOut`) or of the charts' motion (default `easeInOut`).
        public var easing: Easing?
        /// The text colour (default white).
        public var color: ColorText?
        /// The font family (default DejaVu Sans).
        public var font: String?
        /// The counter's largest text size in pixels at 1080 lines (default 160): smaller when the widest
        /// value it shows would not fit the frame on one line.
        public var fontSize: Double?

        /// A chart of `kind`; nil fields take their defaults.
        public init(_ kind: Kind, from: Double? = nil, to: Double? = nil, data: DataSource? = nil, title: String? = nil, colors: [ColorText]? = nil,
                    periodDuration: TimeValue? = nil, hole: Double? = nil, decimals: Int? = nil, prefix: String? = nil, suffix: String? = nil,
                    locale: String? = nil, duration: TimeValue?, countDuration: TimeValue? = nil, easing: Easing? = nil,
                    color: ColorText? = nil, font: String? = nil, fontSize: Double? = nil) {
            self.kind = kind; self.from = from; self.to = to; self.data = data; self.title = title; self.colors = colors
            self.periodDuration = periodDuration; self.hole = hole; self.decimals = decimals; self.prefix = prefix; self.suffix = suffix
            self.locale = locale; self.duration = duration; self.countDuration = countDuration; self.easing = easing
            self.color = color; self.font = font; self.fontSize = fontSize
        }
    }
}

// MARK: Description file

extension Timeline.Chart: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("chart", doc: "An animated chart: a counter, or a bar race, bars, lines or a pie of a table.", splitCell: true, fields: [
            SpecField("kind", Schema.enumeration(Kind.allCases.map(\.rawValue)), required: true, "What is drawn: counter, barRace, bar, line or pie."),
            SpecField("from", Schema.number(minimum: -1e15, maximum: 1e15), "A counter's first value (default 0)."),
            SpecField("to", Schema.number(minimum: -1e15, maximum: 1e15), "A counter's last value (required for a counter)."),
            SpecField("data", Schema.oneOf([Schema.ref("fileSource"), Schema.array(Schema.array(Schema.anyOf([Schema.string(), Schema.number()])), minItems: 2)]),
                      "The table of a bar race, bars, lines or pie: {\"file\": \"sales.csv\"} or rows [[\"name\", \"2019\", …], [\"Lisbon\", 12, …]]."),
            SpecField("title", Schema.string(), "A title above the chart."),
            SpecField("colors", Schema.array(Schema.ref("color"), minItems: 1), "The series' colours (default: Tableau 10)."),
            SpecField("periodDuration", Schema.ref("duration"), "A bar race's time from one period to the next (default: the duration shared by the periods)."),
            SpecField("hole", Schema.number(minimum: 0, maximum: 0.95), "A pie's hole, a fraction of its radius (0: a pie; 0.55: a donut)."),
            SpecField("decimals", Schema.integer(minimum: 0, maximum: 6), "Digits after the decimal mark (default 0)."),
            SpecField("prefix", Schema.string(), "Text before the number."),
            SpecField("suffix", Schema.string(), "Text after the number."),
            SpecField("locale", Schema.string(pattern: #"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$"#), "Whose grouping and decimal marks: en_US (default), de_DE, fr_FR…"),
            SpecField("duration", Schema.ref("duration"), required: true, "How long it lasts."),
            SpecField("countDuration", Schema.ref("duration"), "How long the count takes (default: the duration less 1s, or all of it under 2s)."),
            SpecField("easing", Schema.ref("easing"), "The timing curve of the count (default easeOut) or the charts' motion (default easeInOut)."),
            SpecField("color", Schema.ref("color"), "The text colour (default white)."),
            SpecField("font", Schema.string(minLength: 1), "The font family (default DejaVu Sans)."),
            SpecField("fontSize", Schema.number(exclusiveMinimum: 0, maximum: 1000), "A counter's largest text size in pixels at 1080 lines (default 160); smaller when its widest value would not fit the frame."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let kind = try i.choice("kind", Kind.self, what: "chart kind")!
        var colors: [Timeline.ColorText]? = nil
        if i.value("colors") != nil {
            colors = try i.array("colors").mapTyped { (v, p) throws(MovieMakerError) in
                guard case let .string(text) = v else { throw .invalidDescription(p, "must be a colour such as \"#ff8000\", got \(v.shortDescription)") }
                let c = Timeline.ColorText(text)
                try c.check(at: p, context, allowNone: false)
                return c
            }
        }
        let chart = Timeline.Chart(kind, from: try i.double("from", in: -1e15...1e15), to: try i.double("to", in: -1e15...1e15),
                                   data: try Self.data(i, at: path.appending("data")), title: try i.text("title", context), colors: colors,
                                   periodDuration: try i.time("periodDuration", positive: true), hole: try i.double("hole", in: 0...0.95),
                                   decimals: try i.int("decimals", in: 0...6), prefix: try i.text("prefix", context), suffix: try i.text("suffix", context),
                                   locale: try i.string("locale", nonEmpty: true),
                                   duration: try i.time("duration", required: !context.splitCell, positive: true),
                                   countDuration: try i.time("countDuration", positive: true), easing: try i.easing("easing"),
                                   color: try i.color("color", context), font: try i.string("font", nonEmpty: true),
                                   fontSize: try i.double("fontSize", in: 0...1000, above: 0, hint: " pixels at 1080 lines"))
        if let locale = chart.locale, !Locale.availableIdentifiers.contains(locale.replacingOccurrences(of: "-", with: "_")) {
            throw i.fail("locale", "is not a locale this system knows, got \"\(locale)\": use an identifier such as en_US, de_DE or fr_FR")
        }
        if kind == .counter {
            guard chart.to != nil else { throw .invalidDescription(path, "a counter needs \"to\": the number it ends on") }
            if chart.data != nil { throw i.fail("data", "a counter counts from \"from\" to \"to\"; a table is for barRace, bar, line and pie") }
            // A counter draws one number in `color`: the table charts' keys would do nothing.
            for key in ["title", "colors", "hole", "periodDuration"] where i.value(key) != nil {
                throw i.fail(key, "is for barRace, bar, line and pie charts; a counter shows one number (its colour is \"color\", its text around it \"prefix\" and \"suffix\")")
            }
        } else {
            guard chart.data != nil else {
                throw .invalidDescription(path, "\(SpecObject.article(kind.rawValue)) chart needs \"data\": {\"file\": \"sales.csv\"} or rows [[\"name\", \"2019\", \"2020\"], [\"Lisbon\", 12, 15]]")
            }
            for key in ["from", "to", "countDuration", "fontSize"] where i.value(key) != nil {
                throw i.fail(key, "is a counter's; a \(kind.rawValue) chart draws its table (\"data\")")
            }
        }
        return chart
    }

    /// `data`: `{"file": …}` or rows, the first the header.
    static func data(_ i: SpecObject, at path: JSONPath) throws(MovieMakerError) -> DataSource? {
        guard let v = i.value("data") else { return nil }
        if case .object = v {
            let f = try SpecObject(v, at: path, shape: TimelineShapes.fileSource, what: "a file source {\"file\": path}")
            return .file(try f.string("file", required: true, nonEmpty: true)!)
        }
        guard case let .array(rows) = v, rows.count >= 2 else {
            throw .invalidDescription(path, "must be {\"file\": \"sales.csv\"} or at least two rows: a header and a row per series, got \(v.shortDescription)")
        }
        guard case let .array(header) = rows[0], header.count >= 2, header.allSatisfy({ $0.stringValue != nil }) else {
            throw .invalidDescription(path.appending(0), "the header must be strings: the name column, then a name per column, such as [\"name\", \"2019\", \"2020\"]")
        }
        var series: [ChartData.Series] = []
        for (r, row) in rows.enumerated().dropFirst() {
            let p = path.appending(r)
            guard case let .array(cells) = row, cells.count == header.count else {
                throw .invalidDescription(p, "must be a name and \(header.count - 1) value\(header.count == 2 ? "" : "s") (as many cells as the header), got \(row.shortDescription)")
            }
            guard let name = cells[0].stringValue else { throw .invalidDescription(p.appending(0), "must be the series' name, a string, got \(cells[0].shortDescription)") }
            var values: [Double] = []
            for (k, cell) in cells.enumerated().dropFirst() {
                guard let d = cell.doubleValue, d.isFinite, abs(d) <= 1e15 else {
                    throw .invalidDescription(p.appending(k), "must be a number (\(header[k].stringValue ?? "")), got \(cell.shortDescription)")
                }
                values.append(d)
            }
            series.append(.init(name, values: values))
        }
        return .rows(columns: header.dropFirst().map { $0.stringValue ?? "" }, series: series)
    }

    var content: Timeline.Content { .chart(self) }

    func write(to w: inout SpecWriter) throws(MovieMakerError) {
        w.set("kind", kind)
        w.set("from", from)
        w.set("to", to)
        switch data {
        case let .file(path)?: w.set("data", JSONValue.object(["file": .string(path)]))
        case let .rows(columns, series)?:
            let header = JSONValue.array([.string("name")] + columns.map(JSONValue.string))
            w.set("data", JSONValue.array([header] + series.map { s in .array([.string(s.name)] + s.values.map { JSONValue.double($0) ?? .integer(0) }) }))
        case nil: break
        }
        w.set("title", title)
        if let colors { w.set("colors", JSONValue.array(colors.map { .string($0.text) })) }
        w.set("periodDuration", periodDuration)
        w.set("hole", hole)
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

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var c = self
        if case let .file(path)? = data { c.data = .file(transform(path)) }
        return c
    }

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
        if c.kind != .counter { return try tableChart(c, length: length, at: path) }
        let asked = c.countDuration?.time(at: rate) ?? (length >= 2 ? length - 1 : length)
        if asked > length {
            throw .invalidDescription(path.appending("countDuration"), "the count takes \(asked.seconds) s but the counter lasts \(length.seconds) s, so it would stop short of \(Timeline.Chart.format(c.to ?? 0, decimals: c.decimals ?? 0, grouping: ",", decimalMark: ".")): make countDuration at most the duration")
        }
        // The last frame starts a frame before the end: a count as long as the counter shows `to` there.
        let count = Time.min(asked, Time.max(.zero, length - rate.time(ofFrame: 1)))
        let color = try self.color(c.color, at: path.appending("color")) ?? .white
        let locale = Locale(identifier: (c.locale ?? "en_US").replacingOccurrences(of: "-", with: "_"))
        let grouping = locale.groupingSeparator ?? ",", decimalMark = locale.decimalSeparator ?? "."
        let from = c.from ?? 0, to = c.to ?? 0, decimals = c.decimals ?? 0
        let easing = c.easing ?? .easeOut
        // `{{slot}}` in them is a text slot's value (a currency, a unit), as in a title.
        let prefix = try interpolate(c.prefix ?? "", at: path.appending("prefix")), suffix = try interpolate(c.suffix ?? "", at: path.appending("suffix"))
        if let font = c.font { try checkFont(font, at: path.appending("font")) }
        var largest = TextStyle(font: TextFont(family: c.font ?? "DejaVu Sans", size: (c.fontSize ?? 160) * Double(height) / 1080),
                                color: color, alignment: .center)
        let width = Double(self.width), height = Double(self.height)
        // The size is the largest: shrunk, once for every frame, until the widest value the count shows
        // fits on one line inside the frame (a count in large type was cut at the frame's edges).
        // Laid out now, so a font or text Pango refuses fails before the first frame.
        // An easing that overshoots (backOut, elastic) passes values beyond `to`, which may take a digit more.
        let passed = (0...200).map { from + (to - from) * easing(Double($0) / 200) }
        let ends = [from, to, passed.min()!, passed.max()!].map { prefix + Timeline.Chart.format($0, decimals: decimals, grouping: grouping, decimalMark: decimalMark) + suffix }
        for _ in 0..<3 {
            let sizes = try ends.mapTyped { text throws(MovieMakerError) in try TextLayout(text, style: largest).size }
            let factor = min(0.94 * width / sizes.map(\.width).max()!, height / sizes.map(\.height).max()!)
            guard factor < 1 else { break }
            largest = largest.withFontSize(largest.font.size * factor * 0.99)
        }
        let style = largest
        // Everything the counter's frames depend on besides their time (its content key).
        struct Content: Encodable {
            let version = "counter 1"
            let from: Double, to: Double, count: Time, easing: Easing, prefix: String, suffix: String, decimals: Int
            let grouping: String, decimalMark: String, style: TextStyle, width: Double, height: Double
        }
        let content = Content(from: from, to: to, count: count, easing: easing, prefix: prefix, suffix: suffix, decimals: decimals,
                              grouping: grouping, decimalMark: decimalMark, style: style, width: width, height: height)
        let clip = Clip(duration: length, content: content) { ctx, frame in
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

extension TimelineCompiler {
    /// A bar race, bars, lines or pie: the table read (a CSV file's errors name it, its line and column,
    /// and the item), drawn by `Chart`.
    mutating func tableChart(_ c: Timeline.Chart, length: Time, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let table: ChartData
        var what = "\(c.kind.rawValue)"
        var csv: URL? = nil
        switch c.data! {
        case let .file(p):
            let url = try file(.file(p), at: path.appending("data"), kinds: [.media])
            csv = url
            // The CSV's own error (`invalidData`: its file, line and column), at the item's `data`.
            do { table = try ChartData(contentsOf: url) } catch { throw error.located(jsonPath: path.appending("data").description) }
            what += " of \(url.lastPathComponent)"
        case let .rows(columns, series):
            table = ChartData(columns: columns, series: series)
        }
        var palette = TableChart.tableau10
        if let colors = c.colors {
            palette = []
            for (k, text) in colors.enumerated() { palette.append(try color(text, at: path.appending("colors").appending(k)) ?? .white) }
        }
        let kind: TableChart.Kind
        switch c.kind {
        case .barRace: kind = .barRace
        case .bar: kind = .bar
        case .line: kind = .line
        case .pie, .counter: kind = .pie
        }
        let chart = TableChart(kind, data: table, palette: palette, textColor: try color(c.color, at: path.appending("color")) ?? .white,
                                     font: c.font ?? "DejaVu Sans", title: try c.title.map { t throws(MovieMakerError) in try interpolate(t, at: path.appending("title")) },
                                     decimals: c.decimals ?? 0, prefix: try interpolate(c.prefix ?? "", at: path.appending("prefix")),
                                     suffix: try interpolate(c.suffix ?? "", at: path.appending("suffix")), locale: c.locale ?? "en_US",
                                     easing: c.easing ?? .easeInOut, periodDuration: c.periodDuration?.time(at: rate), hole: c.hole ?? 0)
        let clip: Clip
        do { clip = try chart.clip(duration: length, width: width, height: height) } catch {
            if error.code == .invalidData {
                // A table that does not fit the kind (a pie's negative slice): about the CSV file, or
                // about the rows written in the description.
                if let csv { throw error.located(file: csv.path).located(jsonPath: path.appending("data").description) }
                throw .invalidDescription(path.appending("data"), error.reason ?? error.message)
            }
            // Any other error keeps its code and points at the key that caused it.
            let key = switch error.code {
            case .fontNotFound, .invalidMarkup: "font"
            case .invalidSetting where error.setting == .color: "colors"
            case .invalidSetting where error.setting == .decimals: "decimals"
            default: "data"
            }
            throw error.located(jsonPath: path.appending(key).description)
        }
        return CompiledItem(clip: clip, what: what, detail: "\(table.series.count) series × \(table.columns.count) columns")
    }
}

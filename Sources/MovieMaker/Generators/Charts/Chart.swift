import Foundation

/// An animated chart drawn from a table of numbers: a bar-chart race, grouped bars growing in, a line
/// drawing itself, a pie or donut sweeping in.
///
/// Every size is relative to the frame (text sized for 1080 lines and scaled), so the same chart reads
/// at 1080p and at 320×240; every frame is a function of its time alone.
///
/// ```swift
/// let race = Chart(.barRace, data: try ChartData(contentsOf: URL(fileURLWithPath: "cities.csv")))
/// let clip = try race.clip(duration: 12, width: 1920, height: 1080)
/// ```
public struct Chart: Sendable, Hashable {
    /// What is drawn.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Horizontal bars, one per series, racing through the columns (periods): values interpolated
        /// between periods, bars re-ordering smoothly, the period's name in a corner.
        case barRace
        /// Vertical bars grouped by column (category), one per series, growing in one group after another.
        case bar
        /// A line per series across the columns, drawing itself from left to right over axes with ticks.
        case line
        /// A pie (or donut) of the series' first values, sweeping in clockwise from the top.
        case pie
    }

    /// What is drawn.
    public var kind: Kind
    /// The numbers.
    public var data: ChartData
    /// The series' colours, in order, repeated when there are more series (default: Tableau 10).
    public var palette: [Color]
    /// The colour of text, axes and ticks (default white).
    public var textColor: Color
    /// The font family (default DejaVu Sans).
    public var font: String
    /// The title above the chart (none by default).
    public var title: String?
    /// Digits after the decimal mark in values shown (default 0).
    public var decimals: Int
    /// Text before and after values shown (`"$"`, `" km"`).
    public var prefix: String, suffix: String
    /// Whose grouping and decimal marks values are written with (default en_US: `12,500`).
    public var locale: String
    /// How motion is timed: a bar race's move from one period to the next, bars growing, the line
    /// drawing, the pie sweeping (default `easeInOut`).
    public var easing: Easing
    /// A bar race's time from one period to the next (default: the clip's duration shared by the periods).
    public var periodDuration: Time?
    /// A pie's hole, as a fraction of its radius (0: a pie, default; 0.55 a donut).
    public var hole: Double

    /// The default palette: Tableau 10, distinct for most colour vision.
    public static let tableau10: [Color] = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
        .map { try! Color(css: $0) }

    /// A `kind` chart of `data` with the default look.
    public init(_ kind: Kind, data: ChartData, palette: [Color] = Chart.tableau10, textColor: Color = .white, font: String = "DejaVu Sans",
                title: String? = nil, decimals: Int = 0, prefix: String = "", suffix: String = "", locale: String = "en_US",
                easing: Easing = .easeInOut, periodDuration: Time? = nil, hole: Double = 0) {
        self.kind = kind; self.data = data; self.palette = palette; self.textColor = textColor; self.font = font; self.title = title
        self.decimals = decimals; self.prefix = prefix; self.suffix = suffix; self.locale = locale; self.easing = easing
        self.periodDuration = periodDuration; self.hole = hole
    }

    /// The chart as a clip lasting `duration`, laid out for `width`×`height` frames. Throws
    /// `.invalidData` for a table that does not fit the kind (a series without a value per column, a
    /// pie with negative values or none above 0), `.fontNotFound` for an unknown font.
    public func clip(duration: Time, width: Int, height: Int) throws(MovieMakerError) -> Clip {
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        try data.check(source: "the chart's data")
        guard !palette.isEmpty else { throw .invalidSetting(.color, value: "[] (no colours)", expected: "a palette of at least one colour, such as [\"#e63946\", \"#457b9d\"]") }
        guard (0...6).contains(decimals) else { throw .invalidSetting(.decimals, value: "\(decimals) decimals", expected: "0 to 6 digits after the decimal mark") }
        if kind == .pie, let s = data.series.first(where: { $0.values[0] < 0 }) {
            throw .invalidData(path: "the chart's data", line: nil, column: nil, reason: "a pie's slices cannot be negative: \"\(s.name)\" is \(s.values[0])")
        }
        // Slices share out the total: with none, the pie would be an empty frame.
        if kind == .pie, !data.series.isEmpty, data.series.allSatisfy({ $0.values[0] == 0 }) {
            throw .invalidData(path: "the chart's data", line: nil, column: nil,
                               reason: "a pie needs a slice above 0: every value of its first column (\(data.columns.first ?? "")) is 0")
        }
        let layout = try ChartLayout(chart: self, frame: Size(width: Double(width), height: Double(height)), duration: duration)
        return Clip(duration: duration, content: Content(chart: self, width: width, height: height, duration: duration)) { ctx, frame in
            try layout.draw(in: ctx, at: frame.exactTime, frameLength: frame.rate.seconds(ofFrame: 1))
        }
    }

    /// Everything a chart's frames depend on besides their time: the clip's content key. A field that
    /// changes the drawing and is missing here would let an incremental render reuse a stale segment,
    /// so a new field of `Chart` or `ChartLayout`'s inputs belongs here too (and `version` goes up when
    /// the drawing itself changes).
    private struct Content: Encodable {
        let version = "chart 2"
        let kind: Kind, data: ChartData, palette: [Color], textColor: Color, font: String, title: String?
        let decimals: Int, prefix: String, suffix: String, locale: String, easing: Easing, periodDuration: Time?, hole: Double
        let width: Int, height: Int, duration: Time
        init(chart c: Chart, width: Int, height: Int, duration: Time) {
            kind = c.kind; data = c.data; palette = c.palette; textColor = c.textColor; font = c.font; title = c.title
            decimals = c.decimals; prefix = c.prefix; suffix = c.suffix; locale = c.locale; easing = c.easing
            periodDuration = c.periodDuration; hole = c.hole; self.width = width; self.height = height; self.duration = duration
        }
    }

    /// The grouping and decimal marks of `locale`.
    var marks: (grouping: String, decimal: String) {
        let l = Locale(identifier: locale.replacingOccurrences(of: "-", with: "_"))
        return (l.groupingSeparator ?? ",", l.decimalSeparator ?? ".")
    }

    /// The colour of series `i`.
    func color(_ i: Int) -> Color { palette[i % palette.count] }
}

/// A chart laid out for one frame size: where everything goes, and how each frame is drawn.
struct ChartLayout: Sendable {
    let chart: Chart
    let frame: Size
    let duration: Time
    /// Pixels per pixel of a 1080-line frame.
    let scale: Double
    /// The area the chart draws in (below the title).
    let area: Rect
    /// The locale's marks, looked up once rather than for every value of every frame.
    let marks: (grouping: String, decimal: String)

    init(chart: Chart, frame: Size, duration: Time) throws(MovieMakerError) {
        self.chart = chart; self.frame = frame; self.duration = duration
        scale = frame.height / 1080
        marks = chart.marks
        let top = frame.height * (chart.title == nil ? 0.08 : 0.16)
        area = Rect(x: frame.width * 0.05, y: top, width: frame.width * 0.9, height: frame.height * 0.86 - top)
        // Checked once, so a font Pango refuses fails before the first frame.
        _ = try TextLayout("Ag 0123", style: style(size: 36))
    }

    /// `value` written with the chart's decimals (or `decimals`), marks, prefix and suffix.
    func text(_ value: Double, decimals: Int? = nil) -> String {
        chart.prefix + Timeline.Chart.format(value, decimals: decimals ?? chart.decimals, grouping: marks.grouping, decimalMark: marks.decimal) + chart.suffix
    }

    func style(size: Double, weight: FontWeight = .regular, alignment: TextAlignment = .left, color: Color? = nil) -> TextStyle {
        TextStyle(font: TextFont(family: chart.font, size: size * scale, weight: weight), color: color ?? chart.textColor, alignment: alignment)
    }

    /// Draws `text` with its left (or right, or centre) edge at `x` and its middle at `y`.
    func label(_ text: String, x: Double, y: Double, size: Double, weight: FontWeight = .regular, align: TextAlignment = .left,
               in ctx: DrawingContext) throws {
        let layout = try TextLayout(text, style: style(size: size, weight: weight))
        let w = layout.logicalBounds.width
        let left = align == .right ? x - w : align == .center ? x - w / 2 : x
        ctx.draw(layout, at: Point(x: left - layout.logicalBounds.minX, y: y - layout.logicalBounds.midY))
    }

    /// The share of `span` (from `start`) passed at `t`, eased, from 0 to 1.
    func progress(_ t: Double, start: Double = 0, span: Double) -> Double {
        guard span > 0 else { return t >= start ? 1 : 0 }
        return chart.easing(min(1, max(0, (t - start) / span)))
    }

    /// Draws the frame at `time` of frames `frameLength` seconds long: what animates is complete by the
    /// last frame, however short the chart.
    func draw(in ctx: DrawingContext, at time: Time, frameLength: Double) throws {
        let lastFrame = max(0, duration.seconds - frameLength)
        if let title = chart.title {
            try label(title, x: frame.width / 2, y: frame.height * 0.08, size: 64, weight: .bold, align: .center, in: ctx)
        }
        let t = time.seconds
        switch chart.kind {
        case .barRace: try drawRace(at: t, in: ctx)
        case .bar: try drawBars(at: t, in: ctx)
        case .line: try drawLines(at: t, lastFrame: lastFrame, in: ctx)
        case .pie: try drawPie(at: t, lastFrame: lastFrame, in: ctx)
        }
    }

    // MARK: Bar race

    /// The bar race's time from one period to the next.
    var periodStep: Double {
        let n = Double(chart.data.columns.count)
        return chart.periodDuration?.seconds ?? duration.seconds / n
    }

    /// Where the race is at `t`: the period before, the one after, and the eased fraction between.
    func racePosition(at t: Double) -> (from: Int, to: Int, fraction: Double) {
        let n = chart.data.columns.count
        let p = max(0, t / periodStep)
        let k = min(n - 1, Int(p.rounded(.down)))
        guard k < n - 1 else { return (n - 1, n - 1, 0) }
        return (k, k + 1, chart.easing(p - Double(k)))
    }

    /// The bar race's geometry: the bars' left edge, the longest bar, each slot's height.
    var raceGeometry: (left: Double, longest: Double, slot: Double) {
        let left = area.minX + area.width * 0.2
        let longest = area.maxX - area.width * 0.14 - left
        return (left, longest, area.height / Double(max(1, chart.data.series.count)))
    }

    /// How long two bars take to change places, as a share of the eased way between two periods.
    static let raceSwap = 0.25

    /// The value and rank position of each series at `t`, and the largest value (the scale).
    ///
    /// Two bars change places around the moment their values cross, over `raceSwap` of the eased way
    /// between the periods, rather than over the whole way: the bars, and their labels, overlap only
    /// while they pass. A crossing nearer a period than half of that moves its swap inside the way, so
    /// at a period the bars are exactly in that period's order (ties by the series' order) and the
    /// bars never jump, not even when two values are equal at a period.
    func raceState(at t: Double) -> (values: [Double], positions: [Double], largest: Double) {
        let (a, b, f) = racePosition(at: t)
        let series = chart.data.series
        let values = series.map { $0.values[a] + ($0.values[b] - $0.values[a]) * f }
        // Easings that overshoot move the values past the periods' but not the places.
        let u = min(1, max(0, f))
        var positions = [Double](repeating: 0, count: series.count)
        for i in series.indices {
            for j in series.indices where j != i {
                let from = series[j].values[a] - series[i].values[a], to = series[j].values[b] - series[i].values[b]
                positions[i] += Self.shareAhead(from: from, to: to, firstOnTie: j < i, at: u)
            }
        }
        return (values, positions, max(values.max() ?? 0, 1e-12))
    }

    /// How far one bar is ahead of another (0: behind, 1: ahead) at `u` of the eased way, where their
    /// difference goes from `from` to `to` along it (ahead where it is positive, or zero and the bar
    /// comes first): a ramp of `raceSwap` centred on where the difference crosses zero, kept inside
    /// the way.
    static func shareAhead(from: Double, to: Double, firstOnTie: Bool, at u: Double) -> Double {
        func ahead(_ d: Double) -> Double { d > 0 || (d == 0 && firstOnTie) ? 1 : 0 }
        let start = ahead(from), end = ahead(to)
        guard start != end else { return start }
        let half = raceSwap / 2
        let crossing = from == to ? 0.5 : from / (from - to)
        let centre = min(1 - half, max(half, crossing))
        let share = min(1, max(0, (u - (centre - half)) / raceSwap))
        return start + (end - start) * share
    }

    func drawRace(at t: Double, in ctx: DrawingContext) throws {
        let (values, positions, largest) = raceState(at: t)
        let g = raceGeometry
        let thickness = g.slot * 0.72
        for (i, series) in chart.data.series.enumerated() {
            let y = area.minY + g.slot * positions[i] + (g.slot - thickness) / 2
            let length = max(0, values[i]) / largest * g.longest
            ctx.setFill(chart.color(i))
            ctx.fillRect(Rect(x: g.left, y: y, width: length, height: thickness))
            let size = min(40, g.slot / scale * 0.5)
            try label(series.name, x: g.left - 14 * scale, y: y + thickness / 2, size: size, weight: .medium, align: .right, in: ctx)
            try label(text(values[i]), x: g.left + length + 12 * scale, y: y + thickness / 2, size: size, in: ctx)
        }
        let (a, b, f) = racePosition(at: t)
        let period = chart.data.columns[f < 0.5 ? a : b]
        try label(period, x: area.maxX, y: area.maxY - 60 * scale, size: 120, weight: .bold, align: .right, in: ctx)
    }

    // MARK: Axes

    /// Round tick values covering `low…high`: about five steps of 1, 2 or 5 × 10ⁿ.
    static func ticks(low: Double, high: Double) -> [Double] {
        let span = max(high - low, 1e-9)
        let rough = span / 5
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let first = (low / step).rounded(.down) * step
        var ticks: [Double] = []
        var v = first
        while v <= high + step * 1e-9 { ticks.append(v); v += step }
        if (ticks.last ?? 0) < high { ticks.append(v) }
        return ticks
    }

    /// The decimals that tell `ticks` apart (0.2, 0.4… on a chart whose values have none), and at least
    /// `decimals`.
    static func tickDecimals(_ ticks: [Double], atLeast decimals: Int) -> Int {
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        return max(decimals, min(6, Int(-(log10(step) + 1e-9).rounded(.down))))
    }

    /// The plot area inside the axes' labels, and the value range its height spans.
    func plot(low: Double, high: Double) -> (rect: Rect, ticks: [Double]) {
        // Zero is on the axis whichever side of it the values are (bars grow from it).
        let ticks = Self.ticks(low: min(0, low), high: max(0, high, low + 1e-9))
        let rect = Rect(x: area.minX + area.width * 0.1, y: area.minY + area.height * 0.04,
                        width: area.width * 0.88, height: area.height * 0.84)
        return (rect, ticks)
    }

    /// The y of `value` in `rect` spanning `ticks`.
    func y(_ value: Double, in rect: Rect, ticks: [Double]) -> Double {
        let lo = ticks.first!, hi = ticks.last!
        return rect.maxY - (value - lo) / max(hi - lo, 1e-12) * rect.height
    }

    func drawAxes(_ rect: Rect, ticks: [Double], in ctx: DrawingContext) throws {
        ctx.withSavedState {
            ctx.setStroke(chart.textColor.withAlpha(0.25))
            ctx.lineWidth = max(1, 2 * scale)
            for v in ticks {
                let yy = y(v, in: rect, ticks: ticks)
                ctx.strokeLine(from: Point(x: rect.minX, y: yy), to: Point(x: rect.maxX, y: yy))
            }
            ctx.setStroke(chart.textColor)
            ctx.strokeLine(from: Point(x: rect.minX, y: rect.minY), to: Point(x: rect.minX, y: rect.maxY))
            ctx.strokeLine(from: Point(x: rect.minX, y: rect.maxY), to: Point(x: rect.maxX, y: rect.maxY))
        }
        let decimals = Self.tickDecimals(ticks, atLeast: chart.decimals)
        for v in ticks {
            try label(text(v, decimals: decimals), x: rect.minX - 12 * scale, y: y(v, in: rect, ticks: ticks), size: 30, align: .right, in: ctx)
        }
    }

    /// The series' names and colours in a row above the plot (when there are several).
    func drawLegend(above rect: Rect, in ctx: DrawingContext) throws {
        guard chart.data.series.count > 1 else { return }
        var x = rect.minX
        let y = rect.minY - 30 * scale
        for (i, s) in chart.data.series.enumerated() {
            ctx.setFill(chart.color(i))
            ctx.fillRect(Rect(x: x, y: y - 12 * scale, width: 24 * scale, height: 24 * scale))
            let layout = try TextLayout(s.name, style: style(size: 28))
            ctx.draw(layout, at: Point(x: x + 34 * scale - layout.logicalBounds.minX, y: y - layout.logicalBounds.midY))
            x += 34 * scale + layout.logicalBounds.width + 40 * scale
        }
    }

    // MARK: Bars

    func drawBars(at t: Double, in ctx: DrawingContext) throws {
        let all = chart.data.series.flatMap(\.values)
        let (rect, ticks) = plot(low: all.min() ?? 0, high: all.max() ?? 1)
        try drawAxes(rect, ticks: ticks, in: ctx)
        try drawLegend(above: rect, in: ctx)
        let columns = chart.data.columns.count, count = chart.data.series.count
        let group = rect.width / Double(columns)
        let bar = group * 0.8 / Double(count)
        // Groups grow in one after another over the first two thirds (at most 2 s), overlapping.
        let total = min(duration.seconds * 2 / 3, 2)
        let span = total / (1 + Double(columns - 1) * 0.3)
        let zero = y(0, in: rect, ticks: ticks)
        for k in 0..<columns {
            let grown = progress(t, start: Double(k) * span * 0.3, span: span)
            for (i, s) in chart.data.series.enumerated() {
                let top = y(s.values[k] * grown, in: rect, ticks: ticks)
                ctx.setFill(chart.color(i))
                ctx.fillRect(Rect(x: rect.minX + group * Double(k) + group * 0.1 + bar * Double(i), y: min(top, zero), width: bar, height: abs(zero - top)))
            }
            try label(chart.data.columns[k], x: rect.minX + group * (Double(k) + 0.5), y: rect.maxY + 30 * scale, size: 30, align: .center, in: ctx)
        }
    }

    // MARK: Lines

    func drawLines(at t: Double, lastFrame: Double, in ctx: DrawingContext) throws {
        let all = chart.data.series.flatMap(\.values)
        let (rect, ticks) = plot(low: all.min() ?? 0, high: all.max() ?? 1)
        try drawAxes(rect, ticks: ticks, in: ctx)
        try drawLegend(above: rect, in: ctx)
        let columns = chart.data.columns.count
        func x(_ k: Double) -> Double { columns == 1 ? rect.midX : rect.minX + rect.width * 0.04 + k / Double(columns - 1) * rect.width * 0.92 }
        let every = max(1, Int((Double(columns) / 12).rounded(.up)))
        for k in stride(from: 0, to: columns, by: every) {
            try label(chart.data.columns[k], x: x(Double(k)), y: rect.maxY + 30 * scale, size: 28, align: .center, in: ctx)
        }
        // The lines draw across the columns over the duration less a second's hold (all of it under 2 s,
        // reaching the end on the last frame).
        let drawing = min(duration.seconds >= 2 ? duration.seconds - 1 : duration.seconds, lastFrame)
        let reach = progress(t, span: drawing) * Double(max(1, columns - 1))
        for (i, s) in chart.data.series.enumerated() {
            ctx.withSavedState {
                ctx.setStroke(chart.color(i))
                ctx.lineWidth = 6 * scale
                ctx.lineJoin = .round
                ctx.lineCap = .round
                ctx.beginPath()
                ctx.move(to: Point(x: x(0), y: y(s.values[0], in: rect, ticks: ticks)))
                var head = Point(x: x(0), y: y(s.values[0], in: rect, ticks: ticks))
                var k = 1
                while k < columns, Double(k) <= reach {
                    head = Point(x: x(Double(k)), y: y(s.values[k], in: rect, ticks: ticks))
                    ctx.line(to: head)
                    k += 1
                }
                if k < columns, reach > Double(k - 1) {
                    let f = reach - Double(k - 1)
                    let v = s.values[k - 1] + (s.values[k] - s.values[k - 1]) * f
                    head = Point(x: x(Double(k - 1) + f), y: y(v, in: rect, ticks: ticks))
                    ctx.line(to: head)
                }
                ctx.stroke()
                ctx.setFill(chart.color(i))
                ctx.fillCircle(center: head, radius: 9 * scale)
            }
        }
    }

    // MARK: Pie

    func drawPie(at t: Double, lastFrame: Double, in ctx: DrawingContext) throws {
        let values = chart.data.series.map { max(0, $0.values[0]) }
        let total = values.reduce(0, +)
        guard total > 0 else { return }
        let radius = min(area.width * 0.3, area.height * 0.45)
        let centre = Point(x: area.minX + area.width * 0.35, y: area.midY)
        let sweep = progress(t, span: min(duration.seconds >= 2 ? min(duration.seconds - 1, 2) : duration.seconds, lastFrame)) * 2 * Double.pi
        var angle = -Double.pi / 2
        for (i, v) in values.enumerated() {
            let share = v / total * 2 * Double.pi
            let end = min(angle + share, -Double.pi / 2 + sweep)
            if end > angle {
                ctx.setFill(chart.color(i))
                ctx.beginPath()
                if chart.hole > 0 {
                    ctx.arc(center: centre, radius: radius, startAngle: angle, endAngle: end, clockwise: true)
                    ctx.arc(center: centre, radius: radius * chart.hole, startAngle: end, endAngle: angle, clockwise: false)
                } else {
                    ctx.move(to: centre)
                    ctx.arc(center: centre, radius: radius, startAngle: angle, endAngle: end, clockwise: true)
                }
                ctx.closePath()
                ctx.fill()
            }
            angle += share
        }
        // The legend: each slice's colour, name and share.
        let rowHeight = min(64 * scale, area.height / Double(max(1, values.count)))
        let top = area.midY - rowHeight * Double(values.count) / 2
        for (i, s) in chart.data.series.enumerated() {
            let y = top + rowHeight * (Double(i) + 0.5)
            let x = area.minX + area.width * 0.72
            ctx.setFill(chart.color(i))
            ctx.fillRect(Rect(x: x, y: y - 14 * scale, width: 28 * scale, height: 28 * scale))
            let percent = String(format: "%.0f %%", values[i] / total * 100)
            try label("\(s.name)  \(percent)", x: x + 40 * scale, y: y, size: min(34, rowHeight / scale * 0.55), in: ctx)
        }
    }
}

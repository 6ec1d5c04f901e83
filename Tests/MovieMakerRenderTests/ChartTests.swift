import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Animated charts drawn from tables and checked in their pixels: a bar race's order and lengths at each
/// period and between, a counter's last value, CSV mistakes named by line and column.
@Suite("Charts")
struct ChartTests {
    // 4 cities over 6 years; the order changes every year.
    static let csv = """
    name,2019,2020,2021,2022,2023,2024
    Lisbon,40,55,60,62,90,120
    Porto,60,50,70,95,85,80
    Braga,20,70,45,50,100,60
    Faro,80,30,50,70,40,100
    """

    /// Each series' bar in row `y` ranges: the run of pixels of its colour along the middle of its bar.
    static func barLengths(_ px: PixelBuffer, chart: Chart, layout: ChartLayout, at t: Double) -> [Double] {
        let (_, positions, _) = layout.raceState(at: t)
        let g = layout.raceGeometry
        return chart.data.series.indices.map { i in
            let y = Int(layout.area.minY + g.slot * (positions[i] + 0.5))
            let c = chart.color(i)
            let target = (Int(c.red * 255), Int(c.green * 255), Int(c.blue * 255))
            // Each pixel's coverage by the bar (its colour projected on the bar's, over black), summed from
            // the bar's start to where it ends: the length to a fraction of a pixel.
            let norm = Double(target.0 * target.0 + target.1 * target.1 + target.2 * target.2)
            var length = 0.0
            var started = false
            for x in max(0, Int(g.left) - 1)..<px.width {
                let p = px.rgba(x: x, y: y)
                let coverage = min(1, max(0, Double(Int(p.red) * target.0 + Int(p.green) * target.1 + Int(p.blue) * target.2) / norm))
                if coverage > 0.5 { started = true }
                if started && coverage < 0.02 { break }
                length += coverage
            }
            return length
        }
    }

    @Test("a bar race from a 4-row × 6-period CSV: at each period the bars are in that period's order with lengths proportional to its values (±2 px), and interpolated between")
    func barRace() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("cities.csv")
        try Data(Self.csv.utf8).write(to: url)
        let data = try ChartData(contentsOf: url)
        #expect(data.columns == ["2019", "2020", "2021", "2022", "2023", "2024"] && data.series.map(\.name) == ["Lisbon", "Porto", "Braga", "Faro"])
        let chart = Chart(.barRace, data: data, easing: .linear)
        let width = 640, height = 360
        let clip = try chart.clip(duration: 6, width: width, height: height)
        let layout = try ChartLayout(chart: chart, frame: Size(width: Double(width), height: Double(height)), duration: 6)
        let longest = layout.raceGeometry.longest
        // Period k is reached at k s (6 periods over 6 s); frame 30k at 30 fps.
        func frame(_ i: Int) throws -> PixelBuffer { try clip.renderFrames(i..<(i + 1), width: width, height: height, rate: 30, drawingThreads: 1)[0] }
        for k in 0..<6 {
            let px = try frame(30 * k)
            let values = data.series.map { $0.values[k] }
            let lengths = Self.barLengths(px, chart: chart, layout: layout, at: Double(k))
            let largest = values.max()!
            for i in values.indices {
                #expect(abs(lengths[i] - values[i] / largest * longest) <= 2,
                        "period \(data.columns[k]), \(data.series[i].name): bar \(lengths[i]) px, expected \(values[i] / largest * longest)")
            }
            // The order on screen: the bar rows from the top are the values from the largest.
            let shown = layout.raceState(at: Double(k)).positions
            let order = values.indices.sorted { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 }
            for (row, i) in order.enumerated() { #expect(shown[i] == Double(row), "period \(k): \(data.series[i].name) in row \(shown[i]), not \(row)") }
        }
        // 0.3 of the way from 2019 to 2020 (linear easing, frame 9): each value 0.3 of the way, each bar
        // between its two rows (none covering another's middle).
        let between = try frame(9)
        let values = data.series.map { $0.values[0] + ($0.values[1] - $0.values[0]) * 0.3 }
        let lengths = Self.barLengths(between, chart: chart, layout: layout, at: 0.3)
        for i in values.indices {
            #expect(abs(lengths[i] - values[i] / values.max()! * longest) <= 2, "0.3 of the way, \(data.series[i].name): \(lengths[i]) px, expected \(values[i] / values.max()! * longest)")
        }
    }

    @Test("two bars change places around the moment their values cross, over a quarter of the way, without jumps")
    func raceSwapsWhereValuesCross() throws {
        // A grows from 0 to 100 while B falls from 60 to 40: they cross half-way (linear easing).
        let data = ChartData(columns: ["2019", "2020"], series: [ChartData.Series("A", values: [0, 100]), ChartData.Series("B", values: [60, 40])])
        let chart = Chart(.barRace, data: data, easing: .linear)
        let layout = try ChartLayout(chart: chart, frame: Size(width: 640, height: 360), duration: 4)
        let step = layout.periodStep
        func positions(_ way: Double) -> [Double] { layout.raceState(at: way * step).positions }
        // Before the swap's window (0.375…0.625 of the way), each bar holds the first period's row; after it, the second's.
        for way in [0, 0.1, 0.3, 0.37] { #expect(positions(way) == [1, 0], "at \(way) of the way: \(positions(way))") }
        for way in [0.63, 0.8, 0.99] { #expect(positions(way) == [0, 1], "at \(way) of the way: \(positions(way))") }
        #expect(positions(1) == [0, 1])
        // Half-way, where the values are equal, the two bars are half-way between their rows.
        #expect(positions(0.5).map { abs($0 - 0.5) < 1e-9 } == [true, true], "\(positions(0.5))")
        // Moving smoothly: no step of 1/200 of the way moves a bar by more than 1/20 of a row.
        var previous = positions(0)
        for k in 1...200 {
            let now = positions(Double(k) / 200)
            #expect(zip(now, previous).allSatisfy { abs($0 - $1) <= 0.05 }, "\(k)/200 of the way: \(previous) → \(now)")
            previous = now
        }
    }

    @Test("values equal at a period: the bars are in the series' order there and change places without a jump on either side",
          arguments: [Easing.linear, .easeInOut, .backOut])
    func raceTiesAtAPeriod(easing: Easing) throws {
        // A and B are equal in 2020 (A first, by the series' order); B is ahead before and after.
        let data = ChartData(columns: ["2019", "2020", "2021"], series: [ChartData.Series("A", values: [20, 50, 20]), ChartData.Series("B", values: [80, 50, 80])])
        let chart = Chart(.barRace, data: data, easing: easing)
        let layout = try ChartLayout(chart: chart, frame: Size(width: 640, height: 360), duration: 3)
        let step = layout.periodStep
        // To rounding: backOut(0) is 9e-16, not 0.
        func near(_ a: [Double], _ b: [Double]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }
        #expect(near(layout.raceState(at: 0).positions, [1, 0]))
        #expect(near(layout.raceState(at: step).positions, [0, 1]), "at the tie, the series' order")
        #expect(near(layout.raceState(at: 2 * step).positions, [1, 0]))
        // Across both periods' ways and the tie between them, 1/400 of a period at a time: at most a
        // tenth of a row per step (the swap takes a quarter of the eased way; easeInOut is twice as fast
        // as linear at its middle).
        var previous = layout.raceState(at: 0).positions
        for k in 1...800 {
            let now = layout.raceState(at: Double(k) / 400 * step).positions
            #expect(zip(now, previous).allSatisfy { abs($0 - $1) <= 0.1 }, "\(easing) at \(k)/400 of a period: \(previous) → \(now)")
            previous = now
        }
    }

    @Test("a CSV with a bad number names its line and column; a short row names its line; inline rows name their JSON path")
    func badTables() throws {
        do {
            _ = try ChartData(csv: "name,a,b\nx,1,2\ny,3,4o\n", source: "t.csv")
            Issue.record("4o is not a number")
        } catch {
            #expect(error.code == .invalidData && error.message.contains("t.csv, line 3, column 3") && error.message.contains("\"4o\""), "\(error.message)")
        }
        do {
            _ = try ChartData(csv: "name,a,b\nx,1\n", source: "t.csv")
            Issue.record("a short row")
        } catch {
            #expect(error.code == .invalidData && error.message.contains("line 2"), "\(error.message)")
        }
        let quoted = try ChartData(csv: "name,a\n\"Lisbon, PT\", 1_200\n", source: "q.csv")
        #expect(quoted.series == [ChartData.Series("Lisbon, PT", values: [1200])])
        // A semicolon export where the comma is the decimal mark (and the point groups thousands).
        let european = try ChartData(csv: "name;2019;2020\nLisbon;1,5;1.234,25\nPorto;2;3.500\n", source: "eu.csv")
        #expect(european.series == [ChartData.Series("Lisbon", values: [1.5, 1234.25]), ChartData.Series("Porto", values: [2, 3500])])
        // Without a comma among its values such a file's points are decimal points.
        #expect(try ChartData(csv: "name;a\nx;3.5\n", source: "eu.csv").series[0].values == [3.5])
        // Thousands grouped by commas, with a decimal point: in a comma file (quoted) and a tab file.
        #expect(try ChartData(csv: "name,a,b\nx,\"1,234.5\",\"12,500\"\n", source: "en.csv").series[0].values == [1234.5, 12500])
        #expect(try ChartData(csv: "name\ta\tb\nx\t1,234\t12,500.25\n", source: "en.tsv").series[0].values == [1234, 12500.25])
        // A tab file whose values fit both readings is refused, naming both; a semicolon file's are decimal commas.
        do {
            _ = try ChartData(csv: "name\t2019\t2020\nLisbon\t1,234\t12,500\n", source: "t.tsv")
            Issue.record("1,234 in a tab file is ambiguous")
        } catch {
            #expect(error.code == .invalidData && error.message.contains("\"1,234\"") && error.message.contains("1.234") && error.message.contains("1234"), "\(error.message)")
        }
        #expect(try ChartData(csv: "name;2019\nLisbon;1,234\n", source: "s.csv").series[0].values == [1.234])
        #expect(try ChartData(csv: "name;2019;2020\nLisbon;1.234;12.500\n", source: "s.csv").series[0].values == [1234, 12500])
        #expect(throws: MovieMakerError.self) { try ChartData(csv: "name\t2019\nLisbon\t1.234\n", source: "t.tsv") }
        // A point after a 0 is a decimal point, never thousands: no ambiguity.
        #expect(try ChartData(csv: "name\t2019\nLisbon\t0.125\n", source: "t.tsv").series[0].values == [0.125])
        do {
            _ = try ChartData(csv: "name,a\nx,1.234.567\n", source: "p.csv")
            Issue.record("1.234.567 with decimal points")
        } catch {
            #expect(error.message.contains("which a number has once"), "\(error.message)")
        }
        // Beside decimal commas a point can only group thousands: `3.5` and `1,234.5` would be misread.
        for cell in ["3.5", "1,234.5", "1,2,3"] {
            do {
                _ = try ChartData(csv: "name;a;b\nx;1,5;\(cell)\n", source: "eu.csv")
                Issue.record("\(cell) beside a decimal comma")
            } catch {
                #expect(error.code == .invalidData && error.message.contains("\"\(cell)\"") && error.message.contains("decimal comma"), "\(error.message)")
            }
        }
        do {
            _ = try ChartData(csv: "name;a\nx;1,5x\n", source: "eu.csv")
            Issue.record("1,5x is not a number")
        } catch {
            #expect(error.message.contains("\"1,5x\"") && error.message.contains("decimal comma, as this file's other values, such as 1234,5"), "\(error.message)")
        }
        do {
            _ = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "160x120", "fps": 10},
             "tracks": [{"kind": "video", "items": [{"type": "chart", "kind": "bar", "data": [["name", "a"], ["x", "ten"]], "duration": "1s"}]}]}
            """)
            Issue.record("\"ten\" is not a number")
        } catch {
            #expect("\(error)".contains("tracks[0].items[0].data[1][1]"), "\(error)")
        }
    }

    @Test("in a description, a CSV mistake keeps its code, file, line and column at the item's data; an unknown font is reported at font")
    func tableMistakesInADescription() throws {
        let folder = try TemporaryFolder()
        let csv = folder.url.appendingPathComponent("sales.csv")
        try Data("name,a,b\nx,1,2\ny,3,4o\n".utf8).write(to: csv)
        func compile(_ item: String) throws(MovieMakerError) {
            let timeline = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "160x120", "fps": 10}, "tracks": [{"kind": "video", "items": [\(item)]}]}
            """)
            _ = try timeline.composition(Timeline.RenderOptions(drawingThreads: 1))
        }
        do {
            try compile(#"{"type": "chart", "kind": "bar", "data": {"file": "\#(csv.path)"}, "duration": "1s"}"#)
            Issue.record("4o is not a number")
        } catch {
            #expect(error.code == .invalidData, "\(error.code)")
            #expect(error.location?.jsonPath == "tracks[0].items[0].data" && error.location?.file == csv.path, "\(String(describing: error.location))")
            #expect("\(error)".contains("sales.csv, line 3, column 3"), "\(error)")
        }
        do {
            try compile(#"{"type": "chart", "kind": "bar", "data": [["name", "a"], ["x", 1]], "font": "No Such Font Family 42", "duration": "1s"}"#)
            Issue.record("the font is not installed")
        } catch {
            #expect(error.code == .fontNotFound && error.location?.jsonPath == "tracks[0].items[0].font", "\(error.code) at \(String(describing: error.location))")
        }
        // A table that does not fit the kind: from a CSV file, about the file; from rows, about the description.
        let negative = folder.url.appendingPathComponent("slices.csv")
        try Data("name,share\nx,-1\ny,3\n".utf8).write(to: negative)
        do {
            try compile(#"{"type": "chart", "kind": "pie", "data": {"file": "\#(negative.path)"}, "duration": "1s"}"#)
            Issue.record("a negative slice")
        } catch {
            #expect(error.code == .invalidData && error.location?.file == negative.path && error.location?.jsonPath == "tracks[0].items[0].data",
                    "\(error.code) at \(String(describing: error.location))")
        }
        do {
            try compile(#"{"type": "chart", "kind": "pie", "data": [["name", "share"], ["x", -1], ["y", 3]], "duration": "1s"}"#)
            Issue.record("a negative slice")
        } catch {
            #expect(error.code == .invalidDescription && error.location?.file == nil && error.location?.jsonPath == "tracks[0].items[0].data"
                    && error.message.contains("cannot be negative"), "\(error.code) at \(String(describing: error.location)): \(error.message)")
        }
        // A pie of zeros drew an empty frame.
        do {
            try compile(#"{"type": "chart", "kind": "pie", "data": [["name", "share"], ["x", 0], ["y", 0]], "duration": "1s"}"#)
            Issue.record("a pie without a slice above 0")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].data" && error.message.contains("a slice above 0"), "\(error)")
        }
    }

    @Test("bars, lines and a pie render from a description file; each changes as it grows in and holds at the end")
    func kindsRender() throws {
        for kind in ["bar", "line", "pie"] {
            let timeline = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "320x240", "fps": 10},
             "tracks": [{"kind": "video", "items": [{"type": "chart", "kind": "\(kind)", "title": "Sales", "hole": \(kind == "pie" ? 0.5 : 0),
               "data": [["name", "Q1", "Q2", "Q3"], ["North", 10, 30, 20], ["South", 25, 5, 15]], "duration": "3s"}]}]}
            """)
            let composition = try timeline.composition(Timeline.RenderOptions(drawingThreads: 2))
            let frames = try composition.picture.renderFrames(width: 320, height: 240, rate: composition.frameRate)
            #expect(frames.count == 30)
            #expect(frames[2] != frames[10], "\(kind): the chart does not move while it grows in")
            #expect(frames[28] == frames[29], "\(kind): the chart does not hold at its end")
            // The series' colours are on screen at the end.
            let end = frames[29]
            for color in Chart.tableau10.prefix(2) {
                let found = stride(from: 0, to: end.height, by: 2).contains { y in
                    stride(from: 0, to: end.width, by: 2).contains { x in
                        let p = end.rgba(x: x, y: y)
                        return abs(Int(p.red) - Int(color.red * 255)) < 8 && abs(Int(p.green) - Int(color.green * 255)) < 8 && abs(Int(p.blue) - Int(color.blue * 255)) < 8
                    }
                }
                #expect(found, "\(kind): no pixel of \(color)")
            }
        }
    }

    /// Under 2 s a chart animates over its whole length; its last frame starts a frame before the end,
    /// so a count or sweep timed to the end never got there (a counter to 12,500 ended on 12,489).
    @Test("a counter, a line and a pie shorter than 2 s show their finished state on their last frame", arguments: ["counter", "line", "pie"])
    func shortChartsFinish(_ kind: String) throws {
        func last(_ duration: String, from: Int = 0) throws -> PixelBuffer {
            let item = kind == "counter" ? #""kind": "counter", "from": \#(from), "to": 12500, "easing": "linear""#
                : #""kind": "\#(kind)", "easing": "linear", "data": [["name", "Q1", "Q2", "Q3"], ["North", 10, 30, 20], ["South", 25, 5, 15]]"#
            let timeline = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "320x240", "fps": 10},
             "tracks": [{"kind": "video", "items": [{"type": "chart", \(item), "duration": "\(duration)"}]}]}
            """)
            let composition = try timeline.composition(Timeline.RenderOptions(drawingThreads: 1))
            let n = composition.frameCount
            return try composition.picture.renderFrames((n - 1)..<n, width: 320, height: 240, rate: composition.frameRate)[0]
        }
        // The finished state: a counter that starts at its end, or the same chart held for a second.
        let finished = kind == "counter" ? try last("1s", from: 12500) : try last("3s")
        let short = try last(kind == "pie" ? "1s" : "1.5s")
        let same = short == finished   // compared apart, so a failure does not print every pixel
        #expect(same, "\(kind): the last frame is not the finished chart")
    }

    @Test("bars of values all below zero grow down from a zero line inside the plot, and the ticks of a chart of small values differ")
    func negativeBarsAndSmallTicks() throws {
        let timeline = try Timeline(jsonText: """
        {"version": 1, "output": {"size": "320x240", "fps": 10},
         "tracks": [{"kind": "video", "items": [{"type": "chart", "kind": "bar", "data": [["name", "Q1", "Q2"], ["Loss", -5, -3]], "duration": "2s"}]}]}
        """)
        let composition = try timeline.composition(Timeline.RenderOptions(drawingThreads: 1))
        let end = try composition.picture.renderFrames(19..<20, width: 320, height: 240, rate: composition.frameRate)[0]
        let color = Chart.tableau10[0]
        func isBar(_ x: Int, _ y: Int) -> Bool {
            let p = end.rgba(x: x, y: y)
            return abs(Int(p.red) - Int(color.red * 255)) < 8 && abs(Int(p.green) - Int(color.green * 255)) < 8 && abs(Int(p.blue) - Int(color.blue * 255)) < 8
        }
        let rows = (0..<240).filter { y in (0..<320).contains { isBar($0, y) } }
        #expect(!rows.isEmpty, "no bar on screen")
        // The plot starts about 27 rows down; the bars (drawn from 0 down to −5 and −3) stay in it.
        #expect((rows.first ?? 0) > 20, "bars run off the top of the frame: rows \(rows.first ?? -1)…\(rows.last ?? -1)")
        #expect(ChartLayout.tickDecimals(ChartLayout.ticks(low: 0, high: 0.8), atLeast: 0) == 1)
        #expect(ChartLayout.tickDecimals(ChartLayout.ticks(low: 0, high: 0.08), atLeast: 0) == 2)
        #expect(ChartLayout.tickDecimals(ChartLayout.ticks(low: 0, high: 40), atLeast: 0) == 0)
        #expect(ChartLayout.tickDecimals(ChartLayout.ticks(low: 0, high: 40), atLeast: 2) == 2)
    }

    @Test("a counter's end frame shows exactly its formatted last value, as Pango draws that text")
    func counterEndsOnItsValue() throws {
        let timeline = try Timeline(jsonText: """
        {"version": 1, "output": {"size": "320x240", "fps": 10},
         "tracks": [{"kind": "video", "items": [{"type": "chart", "kind": "counter", "from": 0, "to": 12500.5, "decimals": 1, "prefix": "$",
           "locale": "de_DE", "fontSize": 200, "duration": "2s"}]}]}
        """)
        let composition = try timeline.composition(Timeline.RenderOptions(drawingThreads: 1))
        let last = try composition.picture.renderFrames(19..<20, width: 320, height: 240, rate: composition.frameRate)[0]
        // The same text drawn the counter's way on black: "$12.500,5".
        let canvas = try Canvas(width: 320, height: 240)
        let style = TextStyle(font: TextFont(family: "DejaVu Sans", size: 200 * 240 / 1080), color: .white, alignment: .center)
        let layout = try TextLayout("$12.500,5", style: style, width: 320)
        try canvas.draw { ctx in
            ctx.clear(.black)
            ctx.draw(layout, at: Point(x: 0, y: 120 - layout.logicalBounds.midY))
        }
        #expect(last == canvas.pixels(), "the counter's last frame is not \"$12.500,5\"")
        let wrong = try TextLayout("$12.500,4", style: style, width: 320)
        try canvas.draw { ctx in
            ctx.clear(.black)
            ctx.draw(wrong, at: Point(x: 0, y: 120 - wrong.logicalBounds.midY))
        }
        #expect(last != canvas.pixels(), "the comparison cannot tell 12.500,5 from 12.500,4")
    }

    /// A counter in large type was cut at the frame's edges ("$1,000,000" at fontSize 1000 in a
    /// 320-pixel frame showed its middle digits): the size now shrinks until the widest value fits.
    @Test("a counter too large for the frame is shrunk so its whole last value shows, clear of both edges")
    func aLargeCounterFitsTheFrame() throws {
        let timeline = try Timeline(jsonText: """
        {"version": 1, "output": {"size": "320x240", "fps": 10},
         "tracks": [{"kind": "video", "items": [{"type": "chart", "kind": "counter", "to": 1000000, "prefix": "$", "fontSize": 1000, "duration": "2s"}]}]}
        """)
        let composition = try timeline.composition(Timeline.RenderOptions(drawingThreads: 1))
        let last = try composition.picture.renderFrames(19..<20, width: 320, height: 240, rate: composition.frameRate)[0]
        // Columns holding text: none at the edges, and the text spans most of the frame.
        var lit: [Int] = []
        for x in 0..<320 where (0..<240).contains(where: { last.rgba(x: x, y: $0).red > 128 }) { lit.append(x) }
        #expect(lit.first.map { $0 > 3 } == true && lit.last.map { $0 < 316 } == true, "text touches an edge: \(lit.first ?? -1)…\(lit.last ?? -1)")
        #expect((lit.last ?? 0) - (lit.first ?? 0) > 240, "the text was shrunk too far: \(lit.first ?? -1)…\(lit.last ?? -1)")
    }
}

import Foundation
import Testing
@testable import MovieMaker

/// The `chart` item (a counter so far): the first kind added as one file plus its registration.
@Suite("Description files: the chart item")
struct ChartItemTests {
    static func timeline(_ chart: String) throws -> Timeline {
        try Timeline(jsonText: """
        {"version": 1, "output": {"size": "160x120", "fps": 10},
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#203040", "duration": "2s"}]},
                    {"kind": "overlay", "items": [\(chart)]}]}
        """)
    }

    @Test("numbers are rounded to their decimals and written with the locale's grouping and decimal marks")
    func formatting() {
        #expect(Timeline.Chart.format(12500.5, decimals: 1, grouping: ",", decimalMark: ".") == "12,500.5")
        #expect(Timeline.Chart.format(12500.5, decimals: 0, grouping: ".", decimalMark: ",") == "12.501")
        #expect(Timeline.Chart.format(1234567.891, decimals: 2, grouping: " ", decimalMark: ",") == "1 234 567,89")
        #expect(Timeline.Chart.format(0.05, decimals: 2, grouping: ",", decimalMark: ".") == "0.05")
        #expect(Timeline.Chart.format(-999.4, decimals: 0, grouping: ",", decimalMark: ".") == "-999")
        #expect(Timeline.Chart.format(-0.004, decimals: 2, grouping: ",", decimalMark: ".") == "0.00")
        #expect(Timeline.Chart.format(999, decimals: 0, grouping: ",", decimalMark: ".") == "999")
    }

    @Test("a counter reads, writes back the same, and its mistakes name their JSON path")
    func reading() throws {
        let timeline = try Self.timeline(#"{"type": "chart", "kind": "counter", "from": 5, "to": 80, "suffix": "%", "locale": "de_DE", "duration": "2s", "easing": "linear"}"#)
        guard case let .chart(chart) = timeline.tracks[1].items[0].content else { Issue.record("not a chart"); return }
        #expect(chart.kind == .counter && chart.from == 5 && chart.to == 80 && chart.suffix == "%" && chart.locale == "de_DE")
        #expect(try Timeline(jsonText: timeline.jsonText()) == timeline)

        func message(_ chart: String) -> String {
            do { _ = try Self.timeline(chart); return "no error" } catch { return "\(error)" }
        }
        #expect(message(#"{"type": "chart", "kind": "donut", "to": 1, "duration": "1s"}"#).contains("tracks[1].items[0].kind"))
        #expect(message(#"{"type": "chart", "kind": "counter", "duration": "1s"}"#).contains("to"))
        #expect(message(#"{"type": "chart", "kind": "counter", "to": 1, "locale": "xx_NOWHERE", "duration": "1s"}"#).contains("tracks[1].items[0].locale"))
        #expect(message(#"{"type": "chart", "kind": "counter", "to": 1, "decimals": 9, "duration": "1s"}"#).contains("tracks[1].items[0].decimals"))
        // The table charts' keys would do nothing on a counter: refused, not ignored.
        for key in [#""title": "Sales""#, #""colors": ["red"]"#, #""hole": 0.5"#, #""periodDuration": "1s""#] {
            let text = message(#"{"type": "chart", "kind": "counter", "to": 1, "duration": "1s", "# + key + "}")
            let name = String(key.dropFirst().prefix { $0 != "\"" })
            #expect(text.contains("tracks[1].items[0].\(name)") && text.contains("a counter shows one number"), "\(text)")
        }
    }

    @Test("a count longer than the counter, which would stop short of its number, is refused at countDuration")
    func countLongerThanTheCounter() throws {
        let long = try Self.timeline(#"{"type": "chart", "kind": "counter", "to": 900, "duration": "1s", "countDuration": "3s"}"#)
        #expect { _ = try long.composition(Timeline.RenderOptions(drawingThreads: 1)) } throws: { error in
            "\(error)".contains("tracks[1].items[0].countDuration") && "\(error)".contains("stop short of 900")
        }
        let exact = try Self.timeline(#"{"type": "chart", "kind": "counter", "to": 900, "duration": "1s", "countDuration": "1s"}"#)
        #expect(try exact.composition(Timeline.RenderOptions(drawingThreads: 1)).frameCount == 20)
    }

    @Test("a counter moves while it counts and holds its last value after countDuration")
    func counting() throws {
        let timeline = try Self.timeline(#"{"type": "chart", "kind": "counter", "to": 900, "duration": "2s", "countDuration": "1s"}"#)
        let composition = try timeline.composition(Timeline.RenderOptions(drawingThreads: 1))
        #expect(composition.frameCount == 20)
        let frames = try composition.picture.renderFrames(width: composition.width, height: composition.height, rate: composition.frameRate)
        // Counting: each of the first frames shows another number.
        #expect(frames[1] != frames[3] && frames[3] != frames[6])
        // Holding: from 1 s on, the same picture (900), and it is not the first one (0).
        #expect(frames[10...].allSatisfy { $0 == frames[10] })
        #expect(frames[10] != frames[0])
        // A counter that has not started shows 0, as one counting from 0 to 0 does.
        let zero = try Self.timeline(#"{"type": "chart", "kind": "counter", "to": 0, "duration": "2s"}"#).composition(Timeline.RenderOptions(drawingThreads: 1))
        let still = try zero.picture.renderFrames(0..<1, width: zero.width, height: zero.height, rate: zero.frameRate)
        #expect(still[0] == frames[0])
    }

    @Test("a {{slot}} in a counter's prefix or suffix is the text slot's value, as in a title; an unknown one is named")
    func prefixAndSuffixTakeTextSlots() throws {
        func lastFrame(_ counter: String, slots: String = "") throws -> PixelBuffer {
            try OverlayFrame.render(counter, slots: slots, frame: 9)
        }
        let slotted = try lastFrame(#"{"type": "chart", "kind": "counter", "to": 90, "prefix": "{{currency}}", "suffix": "{{unit}}", "duration": "1s"}"#,
                                    slots: #""slots": {"currency": {"kind": "text", "default": "€"}, "unit": {"kind": "text", "default": "k"}},"#)
        let written = try lastFrame(#"{"type": "chart", "kind": "counter", "to": 90, "prefix": "€", "suffix": "k", "duration": "1s"}"#)
        let bare = try lastFrame(#"{"type": "chart", "kind": "counter", "to": 90, "duration": "1s"}"#)
        #expect(slotted == written && slotted != bare)
        #expect { _ = try Self.timeline(#"{"type": "chart", "kind": "counter", "to": 1, "prefix": "{{nope}}", "duration": "1s"}"#) } throws: { error in
            "\(error)".contains("tracks[1].items[0].prefix") && "\(error)".contains("{{nope}}")
        }
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `Clip.firstVisibleTime` and `Clip.contactSheet` on drawn clips: the frame found, and the sheet's
/// tiles checked pixel by pixel.
@Suite struct ThumbnailsTests {
    /// A clip with detail (a white square moving on `color`): not blank.
    static func detailed(_ color: Color, duration: Time) -> Clip {
        Clip(duration: duration) { ctx, f in
            ctx.clear(color)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: 10 + Double(f.index % 20), y: 10, width: 40, height: 30))
        }
    }

    @Test func aBlackStartIsSkippedToTheFirstColouredFrame() throws {
        let clip = Clip.sequence(.color(.black, duration: 1), .color(.red, duration: 1))
        #expect(try clip.firstVisibleTime(width: 64, height: 36, rate: 30) == 1)
        // Frame-exact, off a power of two: black for 21 frames at 30 fps.
        let odd = Clip.sequence(.color(.black, duration: Time(value: 7, timescale: 10)), Self.detailed(.blue, duration: 1))
        #expect(try odd.firstVisibleTime(width: 64, height: 36, rate: 30) == Time(value: 7, timescale: 10))
        // A visible first frame is found at once.
        #expect(try Self.detailed(.red, duration: 2).firstVisibleTime() == .zero)
    }

    @Test func blankFramesAreSkippedWhenDetailFollowsAndAllBlackGivesZero() throws {
        // Black, then flat grey (blank), then detail: the detail's first frame.
        let clip = Clip.sequence(.color(.black, duration: 0.5), .color(.gray, duration: 0.5), Self.detailed(.blue, duration: 1))
        #expect(try clip.firstVisibleTime(width: 64, height: 36, rate: 30) == 1)
        // Only flat colour after black: the first frame that is not black.
        let flat = Clip.sequence(.color(.black, duration: 0.5), .color(.gray, duration: 1))
        #expect(try flat.firstVisibleTime(width: 64, height: 36, rate: 30) == Time(value: 1, timescale: 2))
        // Very dark grey counts as black (mean luma 0.05 < 0.08).
        let dark = Clip.sequence(.color(Color(white: 0.05), duration: 0.5), .color(.white, duration: 0.5))
        #expect(try dark.firstVisibleTime(width: 64, height: 36, rate: 30) == Time(value: 1, timescale: 2))
        // Nothing but black: 0.
        #expect(try Clip.color(.black, duration: 1).firstVisibleTime(width: 32, height: 18, rate: 10) == .zero)
        // Only the first `within` is scanned: detail after 1 s is not seen when scanning 0.5 s.
        let late = Clip.sequence(.color(.black, duration: 1), Self.detailed(.red, duration: 1))
        #expect(try late.firstVisibleTime(width: 32, height: 18, rate: 10, within: 0.5) == .zero)
        #expect(try late.firstVisibleTime(width: 32, height: 18, rate: 10, within: 2) == 1)
    }

    @Test func lumaStatisticsOfFlatAndSplitFrames() throws {
        let canvas = try Canvas(width: 10, height: 10)
        try canvas.draw { ctx in ctx.clear(.white) }
        let white = canvas.pixels().lumaStatistics
        #expect(abs(white.mean - 1) < 1e-9 && white.standardDeviation < 1e-6)
        try canvas.draw { ctx in ctx.clear(.black); ctx.setFill(.white); ctx.fillRect(Rect(x: 0, y: 0, width: 5, height: 10)) }
        let half = canvas.pixels().lumaStatistics
        #expect(abs(half.mean - 0.5) < 1e-9 && abs(half.standardDeviation - 0.5) < 1e-9)
    }

    @Test func clockLabels() {
        #expect(Time(seconds: 4.26).clockLabel == "0:04.2")
        #expect(Time.zero.clockLabel == "0:00.0")
        #expect(Time(value: 1001, timescale: 30000).clockLabel == "0:00.0")
        #expect(Time(seconds: 750).clockLabel == "12:30.0")
        #expect(Time(seconds: 3723.45).clockLabel == "1:02:03.4")
    }

    @Test func contactSheetTimesAreTheMiddlesOfEqualPartsOnTheFrameGrid() {
        let clip = Clip.color(.red, duration: 4)
        #expect(clip.contactSheetTimes(count: 4, rate: 10) == [0.5, 1.5, 2.5, 3.5])
        // 4 s in 3 parts: middles 2/3, 2, 10/3 s, moved back to the frame shown then at 10 fps.
        #expect(clip.contactSheetTimes(count: 3, rate: 10) == [Time(value: 6, timescale: 10), 2, Time(value: 33, timescale: 10)])
    }

    @Test func contactSheetTilesShowTheRightFramesWithTheirTimes() throws {
        let colors: [(Color, (Double, Double, Double))] = [(.red, (255, 0, 0)), (.green, (0, 255, 0)), (.blue, (0, 0, 255)),
                                                           (.yellow, (255, 255, 0)), (.cyan, (0, 255, 255)), (.magenta, (255, 0, 255))]
        let clip = Clip.sequence(colors.map { Clip.color($0.0, duration: 1) })
        let sheet = try clip.contactSheet(columns: 3, rows: 2, width: 480, aspectRatio: 4.0 / 3.0, rate: 10)
        let layout = try ContactSheetLayout(columns: 3, rows: 2, width: 480, aspectRatio: 4.0 / 3.0)
        #expect(sheet.width == 480 && sheet.height == layout.height)
        // gap 4.8 → 4 (1 % of 480 rounded down, at least 4); tiles (480 − 16) / 3 = 154 × 116 (154 ÷ 4/3 = 115.5 → 116).
        #expect(layout.gap == 4 && layout.tileSize == Size(width: 154, height: 116))
        #expect(layout.height == 4 + 2 * (116 + layout.labelHeight + 4))
        let px = sheet.pixels()
        for (i, (_, expected)) in colors.enumerated() {
            let tile = layout.tileRect(i)
            let m = meanColor(px, x: Int(tile.midX), y: Int(tile.midY))
            #expect(abs(m.r - expected.0) < 2 && abs(m.g - expected.1) < 2 && abs(m.b - expected.2) < 2, "tile \(i): \(m)")
            // The gap beside the tile is the sheet's dark grey.
            let g = px.rgba(x: Int(tile.minX) - 2, y: Int(tile.midY))
            #expect(g.red == 0x18 && g.green == 0x18 && g.blue == 0x18, "gap left of tile \(i): \(g)")
            // The label strip has white text on the grey, and nothing of the tile's colour.
            let label = layout.labelRect(i)
            var bright = 0
            for y in Int(label.minY)..<Int(label.maxY) { for x in Int(label.minX)..<Int(label.maxX) {
                let c = px.rgba(x: x, y: y)
                if c.red > 200 && c.green > 200 && c.blue > 200 { bright += 1 }
            } }
            #expect(bright > 20, "tile \(i)'s label has text: \(bright) white pixels")
        }
        // The labels read the tiles' times: 0:00.5 … 0:05.5.
        #expect(clip.contactSheetTimes(count: 6, rate: 10).map(\.clockLabel) == ["0:00.5", "0:01.5", "0:02.5", "0:03.5", "0:04.5", "0:05.5"])
    }

    @Test func theLabelsAreTheTextOfTheTimes() throws {
        // The same sheet with the label drawn by hand matches the sheet's strip pixel for pixel.
        let clip = Clip.color(.black, duration: 2)
        let sheet = try clip.contactSheet(columns: 1, rows: 1, width: 200, aspectRatio: 2, rate: 10).pixels()
        let layout = try ContactSheetLayout(columns: 1, rows: 1, width: 200, aspectRatio: 2)
        let expected = try Canvas(width: 200, height: layout.height)
        try expected.draw { ctx in
            ctx.clear(Color(red8: 0x18, green8: 0x18, blue8: 0x18))
            ctx.setFill(.black)
            ctx.fillRect(layout.tileRect(0))
            try ctx.draw("0:01.0", in: layout.labelRect(0),
                         style: TextStyle(font: TextFont(size: layout.labelFontSize), color: .white, alignment: .center),
                         verticalAlignment: .center)
        }
        #expect(sheet == expected.pixels())
    }

    @Test func badGridsAndWidthsAreTypedErrors() {
        let clip = Clip.color(.red, duration: 1)
        for (c, r) in [(0, 3), (3, 0), (51, 1)] {
            #expect { try clip.contactSheet(columns: c, rows: r, width: 800) } throws: { error in
                (error as? MovieMakerError)?.setting == .contactSheetGrid && "\(error)".contains("\(c)x\(r)")
            }
        }
        #expect { try clip.contactSheet(columns: 10, rows: 1, width: 300) } throws: { error in
            (error as? MovieMakerError)?.setting == .contactSheetWidth && "\(error)".contains("300") && "\(error)".contains("364")
        }
        // The narrowest width named fits, one pixel less does not, every width above it fits (the gap
        // narrows rather than the tiles), and the example is one of them.
        for columns in [1, 10, 35, 50] {
            do {
                _ = try ContactSheetLayout(columns: columns, rows: 1, width: 32 * columns, aspectRatio: 16.0 / 9.0)
                Issue.record("\(columns) columns fitted in \(32 * columns) pixels")
            } catch {
                let numbers = error.expected.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
                #expect(numbers.count == 5, "\(error)")
                guard numbers.count == 5 else { continue }
                let (least, example) = (numbers[0], numbers[4])
                #expect(throws: MovieMakerError.self) { try ContactSheetLayout(columns: columns, rows: 1, width: least - 1, aspectRatio: 16.0 / 9.0) }
                let refused = (least...MovieMaker.maximumSide).filter {
                    ((try? ContactSheetLayout(columns: columns, rows: 1, width: $0, aspectRatio: 16.0 / 9.0))?.tileSize.width ?? 0) < 32
                }
                #expect(refused.isEmpty, "\(columns) columns: widths refused above \(least): \(refused.prefix(5))")
                #expect((least...MovieMaker.maximumSide).contains(example), "\(error)")
            }
        }
        #expect { try clip.firstVisibleTime(width: 0, height: 10) } throws: { ($0 as? MovieMakerError)?.setting == .visibleFrameSearch }
        #expect { try clip.firstVisibleTime(within: .zero) } throws: { ($0 as? MovieMakerError)?.setting == .visibleFrameSearch }
    }
}

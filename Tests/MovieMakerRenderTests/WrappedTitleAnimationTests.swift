import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Staggered entrances (words, letters, typewriter) on text that wraps onto several lines: a unit of
/// one line never uncovers pieces of the other lines, and lines are typed one after another.
@Suite("Wrapped title animations")
struct WrappedTitleAnimationTests {
    let w = 320, h = 240
    let rate: FrameRate = 30
    static let latin = "One two three four five six seven eight nine ten eleven twelve"
    static let arabic = "مرحبا بكم في هذا العرض الجميل للأفلام القصيرة من كل مكان"

    /// A black card with `text` entering by `entrance` and no exit within the sampled times.
    func card(_ text: String, _ entrance: TitleAnimation) -> TitleCard {
        var card = TitleCard(text, duration: 4)
        card.background = .color(.black)
        card.entrance = entrance
        card.entrance.easing = .linear
        card.exit = .none
        return card
    }

    func frame(_ card: TitleCard, at seconds: Double) throws -> PixelBuffer {
        try card.clip(width: w, height: h).still(at: Time(seconds: seconds), width: w, height: h, rate: rate).pixels()
    }

    /// The title's layout as the card draws it, and its origin in the frame.
    func placed(_ card: TitleCard) throws -> (layout: TextLayout, origin: Point, rise: Double) {
        let plan = try TitlePlan(card: card, size: Size(width: Double(w), height: Double(h)))
        let e = try #require(plan.elements.first)
        return (try TextLayout(e.text, style: e.style, width: e.wrapWidth), e.origin, e.style.font.size * 0.35)
    }

    /// Pixels brighter than `threshold` in any channel, among the rows `rows` (all columns).
    func lit(_ px: PixelBuffer, rows: Range<Int>, threshold: UInt8 = 48) -> Int {
        var n = 0
        for y in max(0, rows.lowerBound)..<min(px.height, rows.upperBound) {
            for x in 0..<px.width {
                let p = px.rgba(x: x, y: y)
                if max(p.red, p.green, p.blue) > threshold { n += 1 }
            }
        }
        return n
    }

    @Test("Words and letters on wrapped text: ink only inside the words' own boxes (plus the rise), later lines dark early, the end equals the static text",
          arguments: [(latin, false), (latin, true), (arabic, false), (arabic, true)])
    func staggeredUnitsStayOnTheirLine(text: String, letters: Bool) throws {
        let entrance: TitleAnimation = letters ? .letters(duration: 1.2) : .words(duration: 1.2)
        let animated = card(text, entrance)
        let (layout, origin, rise) = try placed(animated)
        let lines = layout.unitRects(.line).map { $0.offsetBy(origin) }
        try #require(lines.count >= 2, "the text wraps (\(lines.count) line)")
        let ink = layout.inkBounds.offsetBy(origin)
        // Each word's box, stretched down by the rise and out to the ink above the first line and below the last.
        let boxes = layout.unitRects(.word).map { $0.offsetBy(origin) }.map { r -> Rect in
            let line = lines.lastIndex { $0.minY <= r.midY } ?? 0
            let top = line == 0 ? min(r.minY, ink.minY) : lines[line].minY
            let bottom = (line == lines.count - 1 ? max(r.maxY, ink.maxY) : lines[line].maxY) + rise
            return Rect(x: r.minX - 1.5, y: top - 1.5, width: r.width + 3, height: bottom - top + 3)
        }
        for t in stride(from: 1.0 / 30, through: 1.2, by: 4.0 / 30) {
            let px = try frame(animated, at: t)
            var outside = 0
            for y in 0..<h {
                for x in 0..<w {
                    let p = px.rgba(x: x, y: y)
                    guard max(p.red, p.green, p.blue) > 48 else { continue }
                    let point = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    if !boxes.contains(where: { $0.minX <= point.x && point.x <= $0.maxX && $0.minY <= point.y && point.y <= $0.maxY }) { outside += 1 }
                }
            }
            #expect(outside == 0, "\(outside) lit pixels outside every word's box at \(t) s")
        }
        // Early on, only the first line's first units have started: nothing lit below the first line (and its rise).
        let early = try frame(animated, at: 0.1)
        #expect(lit(early, rows: 0..<Int(lines[0].maxY.rounded(.up))) > 0, "the first units have started")
        let below = Int((lines[0].maxY + rise).rounded(.up)) + 1
        #expect(lit(early, rows: below..<h) == 0, "pieces of later lines show at 0.1 s")
        // Settled, the frame is the static rendering.
        let still = try frame(card(text, .none), at: 2)
        #expect(psnr(try frame(animated, at: 2), still) == .infinity)
    }

    @Test("Typewriter on wrapped text types line after line, without holes", arguments: [latin, arabic])
    func typewriterTypesLineAfterLine(text: String) throws {
        let animated = card(text, .typewriter(duration: 2))
        let (layout, origin, _) = try placed(animated)
        let lines = layout.unitRects(.line).map { $0.offsetBy(origin) }
        try #require(lines.count >= 2, "the text wraps (\(lines.count) line)")
        let characters = layout.unitRects(.character).map { $0.offsetBy(origin) }
        let perLine = lines.map { line in characters.filter { line.minY <= $0.midY && $0.midY < line.maxY }.count }
        let n = Double(characters.count)
        // The time at which `k` characters are shown (linear typing over 2 s), half a character in.
        func time(showing k: Int) -> Double { (Double(k) + 0.5) / n * 2 }
        let still = try frame(card(text, .none), at: 3)
        let boundary = Int(lines[0].maxY.rounded())

        // Half of the first line typed: the lines below are empty.
        let half = try frame(animated, at: time(showing: perLine[0] / 2))
        #expect(lit(half, rows: 0..<boundary) > 0)
        #expect(lit(half, rows: boundary..<h) == 0, "later lines show ink before the first is typed")

        // The first line done and half of the second typed: the first line is exactly the static one, the
        // second partly there, any third still empty.
        let second = try frame(animated, at: time(showing: perLine[0] + perLine[1] / 2))
        var same = true
        for y in 0..<boundary { for x in 0..<w where second.rgba(x: x, y: y) != still.rgba(x: x, y: y) { same = false } }
        #expect(same, "the first line is complete, with no holes")
        let secondEnd = Int(lines[1].maxY.rounded())
        let typed = lit(second, rows: boundary..<secondEnd), full = lit(still, rows: boundary..<secondEnd)
        #expect(typed > 0 && typed < full, "the second line is part typed: \(typed) of \(full) lit pixels")
        if lines.count > 2 { #expect(lit(second, rows: secondEnd..<h) == 0, "the third line waits") }

        #expect(psnr(try frame(animated, at: 2.5), still) == .infinity, "typed out, the frame is the static text")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Complex scripts through Pango: Arabic joining, right-to-left order, CJK and colour-emoji fallback fonts.
@Suite struct TextShapingTests {
    let style = TextStyle(font: TextFont(size: 40), color: .black)

    @Test func arabicLettersJoinAndRunRightToLeft() throws {
        let word = "سلام"
        let joined = try TextLayout(word, style: style)
        // The drawn ink is as wide as Pango measured it.
        let p = try renderText(200, 70) { ctx in joined.draw(in: ctx, at: Point(x: 10, y: 5)) }
        let box = try #require(textInk(p))
        #expect(abs(Double(box.width) - joined.inkBounds.width) <= 2, "ink \(box.width) px, Pango \(joined.inkBounds.width)")
        // Joined letters take their connected forms: clearly narrower than the same letters isolated,
        // whether laid out one by one or kept apart by zero-width non-joiners.
        let letters = word.map { String($0) }
        let isolatedSum = try letters.map { try TextLayout($0, style: style).size.width }.reduce(0, +)
        let nonJoined = try TextLayout(letters.joined(separator: "\u{200C}"), style: style)
        #expect(joined.size.width < 0.85 * isolatedSum, "joined \(joined.size.width), isolated letters \(isolatedSum)")
        #expect(joined.size.width < 0.85 * nonJoined.size.width, "joined \(joined.size.width), with ZWNJ \(nonJoined.size.width)")
        let q = try renderText(200, 70) { ctx in nonJoined.draw(in: ctx, at: Point(x: 10, y: 5)) }
        #expect(try #require(textInk(q)).width > box.width + 10)
        // Right to left: the first letter read is the rightmost.
        let chars = joined.unitRects(.character)
        #expect(chars.count == 4)
        #expect(chars[0].minX > chars[3].maxX - 0.01, "\(chars)")
        let words = try TextLayout("مرحبا بالعالم", style: style).unitRects(.word)
        #expect(words.count == 2 && words[0].minX > words[1].maxX, "\(words)")
    }

    @Test func drawAtShapesArabicAndCJKLikeTheLayoutPath() throws {
        // `draw(_:at:)` places the baseline's start at the point; the same string through a layout whose
        // top is one first-baseline above it must give the same pixels (joined Arabic, CJK from the
        // fallback font), not unjoined letters or missing-glyph boxes.
        let font = try Font.dejaVuSans(size: 32)
        let baseline = Point(x: 10, y: 50)
        for text in ["مرحبا بالعالم", "日本語のテキスト", "Hello"] {
            let style = TextStyle(font: TextFont(family: "DejaVu Sans", size: 32), color: .white)
            let layout = try TextLayout(text, style: style)
            #expect(layout.unknownGlyphCount == 0)
            let viaAt = try renderText(340, 80, background: .black) { ctx in
                ctx.setFill(.white)
                try ctx.draw(text, at: baseline, font: font)
            }
            let viaLayout = try renderText(340, 80, background: .black) { ctx in
                try ctx.draw(text, in: Rect(x: baseline.x, y: baseline.y - layout.firstBaseline, width: 320, height: 80), style: style)
            }
            let db = psnr(viaAt, viaLayout)
            #expect(db >= 35, "\(text): draw(_:at:) differs from the Pango layout, PSNR \(db) dB")
            let ink = try #require(textInk(viaAt, isInk: { $0.red > 128 }))
            #expect(abs(Double(ink.width) - layout.inkBounds.width) <= 2, "\(text): ink \(ink.width) px wide, shaped \(layout.inkBounds.width)")
        }
        // The baseline sits at the point: "Hello" has no descender, so its ink ends on the baseline.
        let hello = try renderText(200, 80, background: .black) { ctx in ctx.setFill(.white); try ctx.draw("Hello", at: baseline, font: font) }
        let box = try #require(textInk(hello, isInk: { $0.red > 128 }))
        #expect(abs(box.maxY - 49) <= 1 && abs(box.minX - 12) <= 3, "\(box)")
        // The context's fill paint colours the text, and measuring agrees with the layout.
        let red = try renderText(200, 80, background: .black) { ctx in ctx.setFill(.red); try ctx.draw("Hello", at: baseline, font: font) }
        #expect(textInk(red, isInk: { $0.red > 128 && $0.green < 60 }) != nil)
        let c = try Canvas(width: 10, height: 10)
        let measured = try c.context.measure("مرحبا بالعالم", font: font)
        let shaped = try TextLayout("مرحبا بالعالم", style: TextStyle(font: TextFont(family: "DejaVu Sans", size: 32))).size
        #expect(abs(measured.width - shaped.width) < 0.5 && abs(measured.height - shaped.height) < 0.5, "\(measured) vs \(shaped)")
    }

    @Test func hebrewRunsRightToLeftAndAlignsPhysically() throws {
        let layout = try TextLayout("שלום עולם", style: style)
        let chars = layout.unitRects(.character)
        #expect(chars.count == 8)
        #expect(zip(chars, chars.dropFirst()).allSatisfy { $0.minX >= $1.maxX - 0.01 }, "each letter left of the one before: \(chars)")
        let p = try renderText(220, 60) { ctx in layout.draw(in: ctx, at: Point(x: 10, y: 5)) }
        #expect(textInkCount(p) > 300)
        #expect(layout.unknownGlyphCount == 0)
        // `.left` and `.right` are the physical sides, also for right-to-left paragraphs.
        let rect = Rect(x: 0, y: 0, width: 400, height: 60)
        let left = try #require(textInk(try renderText(400, 60) { ctx in try ctx.draw("שלום", in: rect, style: style) }))
        var rightStyle = style; rightStyle.alignment = .right
        let right = try #require(textInk(try renderText(400, 60) { ctx in try ctx.draw("שלום", in: rect, style: rightStyle) }))
        #expect(left.minX < 10 && right.maxX > 390, "left \(left), right \(right)")
    }

    @Test func japaneseUsesACJKFontWithoutTofu() throws {
        let layout = try TextLayout("こんにちは世界", style: style)   // DejaVu Sans requested: CJK comes from fallback
        #expect(layout.unknownGlyphCount == 0)
        #expect(layout.resolvedFamilies.first?.hasPrefix("Noto Sans CJK") == true, "\(layout.resolvedFamilies)")
        let chars = layout.unitRects(.character)
        #expect(chars.count == 7 && chars.allSatisfy { abs($0.width - 40) < 0.5 }, "full-width characters, one em each: \(chars)")
        let p = try renderText(300, 70) { ctx in layout.draw(in: ctx, at: Point(x: 5, y: 5)) }
        #expect(textInkCount(p) > 1000)
        #expect(try #require(textInk(p)).width > 250)
    }

    @Test func emojiRenderInColourWhateverTheTextColour() throws {
        for color in [Color.black, .white] {
            var s = style; s.color = color
            let layout = try TextLayout("🎬🙂", style: s)
            #expect(layout.resolvedFamilies == ["Noto Color Emoji"])
            #expect(layout.unknownGlyphCount == 0)
            let background = color == .black ? Color.white : .black
            let p = try renderText(120, 60, background: background) { ctx in layout.draw(in: ctx, at: Point(x: 5, y: 5)) }
            #expect(saturatedPixels(p) > 300, "colour pixels with \(color) text: \(saturatedPixels(p))")
        }
        // Control: plain black text has no colour at all.
        let plain = try renderText(120, 60, background: .white) { ctx in try TextLayout("AB", style: style).draw(in: ctx, at: Point(x: 5, y: 5)) }
        #expect(saturatedPixels(plain) == 0)
    }

    @Test func missingGlyphsFallBackInsideAFoundFamily() throws {
        let layout = try TextLayout("Hi 世界 🙂 مرحبا", style: style)
        #expect(layout.unknownGlyphCount == 0)
        let families = layout.resolvedFamilies
        #expect(families.contains("DejaVu Sans") && families.contains("Noto Color Emoji") && families.contains { $0.hasPrefix("Noto Sans CJK") },
                "\(families)")
    }

    @Test func writesSamplePNGsForEachScript() throws {
        // Set MM_TEXT_SAMPLES to a folder to keep the pictures and look at them.
        let folder = try TemporaryFolder()
        let directory = ProcessInfo.processInfo.environment["MM_TEXT_SAMPLES"].map { URL(fileURLWithPath: $0) } ?? folder.url
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let samples = [("english", "Hello, World!"), ("arabic", "مرحبا بالعالم"), ("hebrew", "שלום עולם"),
                       ("japanese", "こんにちは世界"), ("emoji", "🎬🙂 Action!")]
        for (name, text) in samples {
            let canvas = try Canvas(width: 320, height: 64)
            try canvas.draw { ctx in
                ctx.clear(.white)
                try ctx.draw(text, in: Rect(x: 10, y: 0, width: 300, height: 64), style: style, verticalAlignment: .center)
            }
            let url = directory.appendingPathComponent("\(name).png")
            try canvas.writePNG(to: url)
            let image = try Image(contentsOf: url)
            let back = try Canvas(width: 320, height: 64)
            try back.draw { ctx in ctx.draw(image, in: Rect(x: 0, y: 0, width: 320, height: 64)) }
            #expect(textInk(back.pixels()) { $0.red < 128 || $0.blue < 128 } != nil, "\(name) has ink")
        }
    }

    /// Pixels with clearly unequal red, green and blue.
    private func saturatedPixels(_ p: PixelBuffer) -> Int {
        var n = 0
        for y in 0..<p.height { for x in 0..<p.width {
            let c = p.rgba(x: x, y: y)
            let (r, g, b) = (Int(c.red), Int(c.green), Int(c.blue))
            if max(abs(r - g), abs(g - b), abs(r - b)) > 80 { n += 1 }
        } }
        return n
    }
}

import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// MARK: Pixel helpers shared by the text suites

/// Renders `body` on a transparent `w`×`h` canvas (or on `background`) and returns the pixels.
func renderText(_ w: Int, _ h: Int, background: Color = .clear, _ body: (DrawingContext) throws -> Void) throws -> PixelBuffer {
    let c = try Canvas(width: w, height: h)
    try c.draw { ctx in ctx.clear(background); try body(ctx) }
    return c.pixels()
}

/// The pixel rectangle (inclusive) holding every pixel for which `isInk` holds, or nil when there is none.
struct TextInkBox: Equatable {
    var minX: Int, minY: Int, maxX: Int, maxY: Int
    var width: Int { maxX - minX + 1 }
    var midX: Double { Double(minX + maxX + 1) / 2 }
}
func textInk(_ p: PixelBuffer, in area: (x: Range<Int>, y: Range<Int>)? = nil,
            isInk: ((red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool = { $0.alpha > 0 }) -> TextInkBox? {
    var box: TextInkBox? = nil
    for y in area?.y ?? 0..<p.height { for x in area?.x ?? 0..<p.width where isInk(p.rgba(x: x, y: y)) {
        if var b = box { b.minX = min(b.minX, x); b.maxX = max(b.maxX, x); b.minY = min(b.minY, y); b.maxY = max(b.maxY, y); box = b }
        else { box = TextInkBox(minX: x, minY: y, maxX: x, maxY: y) }
    } }
    return box
}
/// How many pixels have any coverage.
func textInkCount(_ p: PixelBuffer) -> Int { stride(from: 3, to: p.bytes.count, by: 4).reduce(0) { $0 + (p.bytes[$1] > 0 ? 1 : 0) } }

/// Real text with Pango: measuring, wrapping, alignment, spacing, markup, outlines, fonts, fitting, paths and threads.
@Suite struct TextTests {
    let sans = TextFont(size: 32)

    @Test func inkLiesWithinMeasuredBounds() throws {
        let layout = try TextLayout("Hello, Wörld", style: TextStyle(font: sans))
        let origin = Point(x: 12, y: 9.5)
        let p = try renderText(360, 80) { ctx in layout.draw(in: ctx, at: origin) }
        let box = try #require(textInk(p))
        let ink = layout.inkBounds
        // Pixels touched by the glyph outlines are those Pango's ink rectangle covers (±1 px of antialiasing).
        #expect(abs(box.minX - Int((origin.x + ink.minX).rounded(.down))) <= 1, "ink \(box) vs \(ink)")
        #expect(abs(box.maxX - (Int((origin.x + ink.maxX).rounded(.up)) - 1)) <= 1, "ink \(box) vs \(ink)")
        #expect(abs(box.minY - Int((origin.y + ink.minY).rounded(.down))) <= 1, "ink \(box) vs \(ink)")
        #expect(abs(box.maxY - (Int((origin.y + ink.maxY).rounded(.up)) - 1)) <= 1, "ink \(box) vs \(ink)")
        // The ink sits inside the logical box, which is what positioning uses.
        #expect(Double(box.minX) >= origin.x + layout.logicalBounds.minX - 1)
        #expect(Double(box.maxX) <= origin.x + layout.logicalBounds.maxX + 1)
        #expect(layout.size.width > 150 && layout.size.height > 32 && layout.size.height < 48, "size \(layout.size)")
        #expect(layout.firstBaseline > 20 && layout.firstBaseline < layout.size.height)
        let measured = try Canvas(width: 2, height: 2).context.measure("Hello, Wörld", style: TextStyle(font: sans))
        #expect(measured == layout.size)
    }

    @Test func sizesScaleLinearlyWithTheFontSize() throws {
        // Unhinted metrics: double the font size, double the advance width (no per-size rounding).
        let small = try TextLayout("Linear scaling", style: TextStyle(font: TextFont(size: 17)))
        let large = try TextLayout("Linear scaling", style: TextStyle(font: TextFont(size: 34)))
        #expect(abs(large.size.width - 2 * small.size.width) < 0.05, "\(small.size) vs \(large.size)")
    }

    @Test func wrappingAtAWidthProducesMoreLines() throws {
        let text = "The quick brown fox jumps over the lazy dog"
        let style = TextStyle(font: TextFont(size: 24))
        let single = try TextLayout(text, style: style)
        let wrapped = try TextLayout(text, style: style, width: 150)
        #expect(single.lineCount == 1)
        #expect(wrapped.lineCount >= 3)
        #expect(wrapped.size.width <= 150)
        #expect(abs(wrapped.size.height - Double(wrapped.lineCount) * single.size.height) < 2)
        let p = try renderText(200, 200) { ctx in wrapped.draw(in: ctx, at: .zero) }
        let box = try #require(textInk(p))
        #expect(Double(box.maxY) > 2 * single.size.height, "wrapped ink reaches the third line: \(box)")
        #expect(box.maxX <= 151)
    }

    @Test func lineSpacingMultipliesTheDistanceBetweenLines() throws {
        let lines = { (spacing: Double) in try TextLayout("first\nsecond", style: TextStyle(font: TextFont(size: 20), lineSpacing: spacing)).unitRects(.line) }
        let normal = try lines(1), double = try lines(2), tight = try lines(0.5)
        let step = normal[1].minY - normal[0].minY
        #expect(step > 20 && step < 30, "normal line step \(step)")
        #expect(abs((double[1].minY - double[0].minY) - 2 * step) < 0.01)
        #expect(abs((tight[1].minY - tight[0].minY) - 0.5 * step) < 0.01)
    }

    @Test func drawingFollowsTheContextTransformAndOpacity() throws {
        // Unhinted outlines scale exactly: 20 px text drawn at 2× covers the pixels 40 px text does.
        let small = try TextLayout("Scale", style: TextStyle(font: TextFont(size: 20)))
        let large = try TextLayout("Scale", style: TextStyle(font: TextFont(size: 40)))
        let scaled = try renderText(160, 60) { ctx in ctx.scale(x: 2, y: 2); small.draw(in: ctx, at: Point(x: 5, y: 2)) }
        let direct = try renderText(160, 60) { ctx in large.draw(in: ctx, at: Point(x: 10, y: 4)) }
        let a = try #require(textInk(scaled)), b = try #require(textInk(direct))
        #expect(abs(a.minX - b.minX) <= 1 && abs(a.maxX - b.maxX) <= 1 && abs(a.minY - b.minY) <= 1 && abs(a.maxY - b.maxY) <= 1, "\(a) vs \(b)")
        // Inside an opacity group the glyphs come out half transparent; a clip cuts them.
        let faded = try renderText(160, 60) { ctx in ctx.withOpacity(0.5) { large.draw(in: ctx, at: Point(x: 10, y: 4)) } }
        let maxAlpha = stride(from: 3, to: faded.bytes.count, by: 4).map { faded.bytes[$0] }.max() ?? 0
        #expect(abs(Int(maxAlpha) - 128) <= 1)
        let clipped = try renderText(160, 60) { ctx in ctx.clip(to: Rect(x: 0, y: 0, width: 40, height: 60)); large.draw(in: ctx, at: Point(x: 10, y: 4)) }
        #expect(try #require(textInk(clipped)).maxX < 40)
    }

    @Test func alignmentMovesInk() throws {
        func ink(_ alignment: TextAlignment) throws -> TextInkBox {
            let style = TextStyle(font: TextFont(size: 30), alignment: alignment)
            let p = try renderText(320, 50) { ctx in try ctx.draw("Hi", in: Rect(x: 0, y: 0, width: 300, height: 50), style: style) }
            return try #require(textInk(p))
        }
        let left = try ink(.left), center = try ink(.center), right = try ink(.right)
        #expect(left.minX < 10, "\(left)")
        #expect(abs(center.midX - 150) < 4, "\(center)")
        #expect(right.maxX >= 294 && right.maxX < 300, "\(right)")
        #expect(abs(left.width - center.width) <= 1 && abs(center.width - right.width) <= 1, "same text, only moved")
    }

    @Test func justifyStretchesAllButTheLastLine() throws {
        let text = "Justified text fills every line to the full width except the last one"
        let left = try TextLayout(text, style: TextStyle(font: TextFont(size: 20)), width: 200).unitRects(.line)
        let justified = try TextLayout(text, style: TextStyle(font: TextFont(size: 20), alignment: .justify), width: 200).unitRects(.line)
        #expect(left.count == justified.count && left.count >= 3)
        #expect(left[0].width < 195, "ragged first line \(left[0])")
        #expect(abs(justified[0].maxX - 200) < 1, "justified first line \(justified[0])")
        #expect(abs(justified.last!.width - left.last!.width) < 0.5, "last line keeps its natural width")
    }

    @Test func letterSpacingIncreasesWidth() throws {
        let plain = try TextLayout("Spacing", style: TextStyle(font: sans))
        let spaced = try TextLayout("Spacing", style: TextStyle(font: sans, letterSpacing: 4))
        let extra = spaced.size.width - plain.size.width
        #expect(extra >= 6 * 4 - 0.5 && extra <= 7 * 4 + 0.5, "7 letters, 4 px each: \(extra)")
        let a = try #require(textInk(try renderText(300, 60) { ctx in plain.draw(in: ctx, at: .zero) }))
        let b = try #require(textInk(try renderText(300, 60) { ctx in spaced.draw(in: ctx, at: .zero) }))
        #expect(b.width >= a.width + 20, "\(a) → \(b)")
    }

    @Test func markupBoldIsWiderAndSpansSetColours() throws {
        let regular = try TextLayout("Headline", style: TextStyle(font: sans, isMarkup: true))
        let bold = try TextLayout("<b>Headline</b>", style: TextStyle(font: sans, isMarkup: true))
        #expect(bold.size.width > regular.size.width * 1.05, "\(bold.size) vs \(regular.size)")
        let style = TextStyle(font: sans, color: .black, isMarkup: true)
        let layout = try TextLayout("<span foreground=\"#ff0000\">Red</span> black", style: style)
        let p = try renderText(260, 50, background: .white) { ctx in layout.draw(in: ctx, at: .zero) }
        let split = try #require(layout.unitRects(.word).first).maxX
        let red = textInk(p, in: (0..<Int(split), 0..<50)) { $0.red > 200 && $0.green < 60 && $0.blue < 60 }
        let black = textInk(p, in: (Int(split)..<260, 0..<50)) { $0.red < 40 && $0.green < 40 && $0.blue < 40 }
        #expect(red != nil && black != nil)
        #expect(textInk(p, in: (Int(split)..<260, 0..<50)) { $0.red > 200 && $0.green < 60 } == nil, "no red in the plain word")
        #expect(throws: MovieMakerError.self) { try TextLayout("<b>open", style: style) }
        do { _ = try TextLayout("a < b", style: style) } catch { #expect(error.description.contains("&lt;"), "\(error)") }
    }

    @Test func outlineDrawsStrokeColourAtEdges() throws {
        let font = TextFont(size: 100, weight: .bold)
        let outline = TextOutline(color: .red, width: 4)
        func stemRow(fill: Color) throws -> [(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)] {
            let layout = try TextLayout("I", style: TextStyle(font: font, color: fill, outline: outline))
            let p = try renderText(120, 130) { ctx in layout.draw(in: ctx, at: Point(x: 10, y: 5)) }
            let y = Int(5 + layout.inkBounds.midY)
            return (0..<120).map { p.rgba(x: $0, y: y) }
        }
        let filled = try stemRow(fill: .white)
        let first = try #require(filled.firstIndex { $0.alpha > 200 }), last = try #require(filled.lastIndex { $0.alpha > 200 })
        #expect(last - first > 12, "stem \(first)…\(last)")
        for edge in [first, last] {
            let c = filled[edge]
            #expect(c.red > 200 && c.green < 60 && c.blue < 60, "edge pixel \(edge) is \(c)")
        }
        let middle = filled[(first + last) / 2]
        #expect(middle.red > 240 && middle.green > 240 && middle.blue > 240, "fill inside the stroke: \(middle)")
        // With a clear fill, only the stroke is drawn: the middle of the stem stays empty.
        let hollow = try stemRow(fill: .clear)
        #expect(hollow[(first + last) / 2].alpha == 0)
        #expect(hollow[first].red > 200 && hollow[first].green < 60)
    }

    @Test func unknownFamilyThrowsFontNotFoundNamingClosestFamilies() throws {
        let style = TextStyle(font: TextFont(family: "DejaVu Sanz", size: 20))
        let closest = FontLibrary.closestFamilies(to: "DejaVu Sanz")
        #expect(closest.first == "DejaVu Sans")
        #expect(throws: MovieMakerError.fontNotFound(family: "DejaVu Sanz", closest: closest)) { try TextLayout("x", style: style) }
        let message = MovieMakerError.fontNotFound(family: "DejaVu Sanz", closest: ["DejaVu Sans", "DejaVu Serif"]).description
        #expect(message == "font \"DejaVu Sanz\" is not installed; closest installed: DejaVu Sans, DejaVu Serif (list all with fc-list : family)")
        // Every name in a family list must exist; the bad one is named.
        let list = TextStyle(font: TextFont(family: "DejaVu Sans, Nosuch Font", size: 20))
        #expect(throws: MovieMakerError.fontNotFound(family: "Nosuch Font", closest: FontLibrary.closestFamilies(to: "Nosuch Font"))) {
            try TextLayout("x", style: list)
        }
        // Families named in markup are checked too.
        let markup = TextStyle(font: TextFont(size: 20), isMarkup: true)
        #expect(throws: MovieMakerError.fontNotFound(family: "Nosuch Font", closest: FontLibrary.closestFamilies(to: "Nosuch Font"))) {
            try TextLayout("a <span font_family=\"Nosuch Font\">b</span>", style: markup)
        }
        #expect(throws: MovieMakerError.self) { try TextLayout("<span font=\"Nosuch Font Bold 12\">b</span>", style: markup) }
        _ = try TextLayout("a <span font_family=\"DejaVu Serif\">b</span> <tt>mono</tt>", style: markup)
        let canvas = try Canvas(width: 10, height: 10)
        #expect(throws: MovieMakerError.self) { try canvas.context.draw("x", in: Rect(x: 0, y: 0, width: 10, height: 10), style: style) }
        // Generic and case-insensitive names are accepted.
        _ = try TextLayout("x", style: TextStyle(font: TextFont(family: "monospace", size: 20)))
        _ = try TextLayout("x", style: TextStyle(font: TextFont(family: "dejavu serif", size: 20)))
    }

    @Test func invalidSizesThrow() {
        #expect(throws: MovieMakerError.self) { try TextLayout("x", style: TextStyle(font: TextFont(size: 0))) }
        #expect(throws: MovieMakerError.self) { try TextLayout("x", style: TextStyle(font: TextFont(size: .nan))) }
        #expect(throws: MovieMakerError.self) { try TextLayout("x", style: TextStyle(font: TextFont(size: 10)), width: -5) }
        #expect(throws: MovieMakerError.self) { try TextLayout("x", style: TextStyle(font: TextFont(size: 10), lineSpacing: -1)) }
    }

    @Test func fontLibraryListsAndFindsFamilies() {
        let families = FontLibrary.installedFamilies()
        #expect(families == Array(Set(families)).sorted())
        #expect(families.contains("DejaVu Sans") && families.contains("Noto Color Emoji"))
        #expect(families.contains { $0.hasPrefix("Noto Sans CJK") })
        #expect(FontLibrary.hasFamily("dejavu SANS"))
        #expect(FontLibrary.hasFamily("monospace") && FontLibrary.hasFamily("Sans") && FontLibrary.hasFamily("serif"))
        #expect(!FontLibrary.hasFamily("DejaVu Sanz") && !FontLibrary.hasFamily("DejaVu"))
        let cjk = FontLibrary.closestFamilies(to: "noto sans cjk", limit: 2)
        #expect(cjk.count == 2 && cjk.allSatisfy { $0.hasPrefix("Noto Sans CJK") }, "\(cjk)")
        #expect(FontLibrary.closestFamilies(to: "DejaVu Serf", limit: 1) == ["DejaVu Serif"])
    }

    @Test func fontFileRefersToItsFamilyAndBadPathsThrow() throws {
        let url = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
        let font = try TextFont.file(url, size: 30)
        #expect(font.family == "DejaVu Serif" && font.weight == .bold && font.slant == .normal)
        let viaFile = try TextLayout("Serif", style: TextStyle(font: font))
        let byName = try TextLayout("Serif", style: TextStyle(font: TextFont(family: "DejaVu Serif", size: 30, weight: .bold)))
        #expect(viaFile.resolvedFamilies == ["DejaVu Serif"])
        let a = try renderText(120, 40) { ctx in viaFile.draw(in: ctx, at: .zero) }
        let b = try renderText(120, 40) { ctx in byName.draw(in: ctx, at: .zero) }
        #expect(a == b && textInkCount(a) > 100)

        let missing = URL(fileURLWithPath: "/nonexistent/Font.ttf")
        #expect(throws: MovieMakerError.fontUnreadable(path: missing.path, reason: "no such file")) { try TextFont.file(missing, size: 10) }
        let folder = try TemporaryFolder()
        let notAFont = folder.file("notes.ttf")
        try Data("not a font".utf8).write(to: notAFont)
        #expect { try TextFont.file(notAFont, size: 10) } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .fontUnreadable, let path = e.location?.file else { return false }
            return path == notAFont.path
        }
    }

    @Test func fontFileWithANewFamilyBecomesUsable() throws {
        // A copy of DejaVu Serif whose name table says "Qwerty Serif" (same length, so offsets hold):
        // a family fontconfig has never seen, registered at run time.
        let original = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
        var bytes = [UInt8](original)
        func replace(_ from: [UInt8], _ to: [UInt8]) {
            var i = 0
            while i + from.count <= bytes.count {
                if bytes[i..<i + from.count].elementsEqual(from) { bytes.replaceSubrange(i..<i + from.count, with: to); i += from.count } else { i += 1 }
            }
        }
        let old = Array("DejaVu Serif".utf8), new = Array("Qwerty Serif".utf8)
        replace(old, new)
        replace(old.flatMap { [0, $0] }, new.flatMap { [0, $0] })   // UTF-16BE name records
        let folder = try TemporaryFolder()
        let url = folder.file("QwertySerif.ttf")
        try Data(bytes).write(to: url)

        let draw = { (layout: TextLayout) in try renderText(160, 50) { ctx in layout.draw(in: ctx, at: .zero) } }
        let reference = try draw(try TextLayout("Qwerty 123", style: TextStyle(font: TextFont(family: "DejaVu Serif", size: 30))))
        #expect(!FontLibrary.hasFamily("Qwerty Serif"))
        #expect(throws: MovieMakerError.self) { try TextLayout("x", style: TextStyle(font: TextFont(family: "Qwerty Serif", size: 30))) }

        let font = try TextFont.file(url, size: 30)
        #expect(font.family == "Qwerty Serif")
        #expect(FontLibrary.hasFamily("Qwerty Serif") && FontLibrary.installedFamilies().contains("Qwerty Serif"))
        let layout = try TextLayout("Qwerty 123", style: TextStyle(font: font))
        #expect(layout.resolvedFamilies == ["Qwerty Serif"])
        #expect(try draw(layout) == reference, "same outlines as DejaVu Serif")
    }

    @Test func fittingFindsTheLargestSizeThatFits() throws {
        let text = "Make movies from code"
        let style = TextStyle(font: TextFont(size: 10), alignment: .center)
        let big = try TextLayout.fitting(text, style: style, in: Size(width: 300, height: 100))
        #expect(big.size.width <= 300 && big.size.height <= 100, "\(big.size)")
        // Half a pixel larger no longer fits (fitting returns its minimum size even when that overflows).
        let over = try TextLayout.fitting(text, style: style, in: Size(width: 300, height: 100), minimumSize: big.style.font.size + 0.5)
        #expect(over.logicalBounds.maxX > 300 || over.size.height > 100, "\(over.style.font.size): \(over.logicalBounds)")
        let small = try TextLayout.fitting(text, style: style, in: Size(width: 150, height: 40))
        #expect(small.style.font.size < big.style.font.size)
        #expect(small.size.width <= 150 && small.size.height <= 40)
        let capped = try TextLayout.fitting("Hi", style: style, in: Size(width: 1000, height: 1000), maximumSize: 40)
        #expect(capped.style.font.size == 40)
        #expect(throws: MovieMakerError.self) { try TextLayout.fitting(text, style: style, in: Size(width: 0, height: 10)) }
        // A word wider than the box at every size (a URL, a hash) is broken inside, as drawing breaks it,
        // and fits: unbroken it ran past the box's side, which the fit did not see.
        let hash = String(repeating: "x", count: 60)
        let broken = try TextLayout.fitting(hash, style: style, in: Size(width: 150, height: 80), minimumSize: 8)
        #expect(broken.logicalBounds.maxX <= 150 + 0.01 && broken.size.height <= 80 + 0.01, "\(broken.style.font.size): \(broken.logicalBounds)")
        #expect(broken.lineCount > 1)
    }

    @Test("path(at:) outlines every glyph of a long line, wherever it is placed (glyphs far from the origin were dropped)")
    func pathKeepsGlyphsFarFromTheOrigin() throws {
        let layout = try TextLayout(String(repeating: "H", count: 20), style: TextStyle(font: TextFont(size: 88, weight: .bold)))
        for origin in [Point.zero, Point(x: 1000, y: 0), Point(x: 0, y: 2000), Point(x: -3000, y: -500)] {
            let path = layout.path(at: origin)
            // An "H" is one closed outline: 20 of them.
            #expect(path.subpaths.count == 20, "at \(origin): \(path.subpaths.count) glyph outlines of 20")
            let bounds = path.bounds, ink = layout.inkBounds
            #expect(abs(bounds.maxX - (origin.x + ink.maxX)) < 1.5 && abs(bounds.minX - (origin.x + ink.minX)) < 1.5,
                    "at \(origin): path x \(bounds.minX)…\(bounds.maxX), ink \(ink)")
        }
    }

    @Test func pathMatchesInkAndFillsLikeDrawing() throws {
        let layout = try TextLayout("Path é", style: TextStyle(font: TextFont(size: 40)))
        let origin = Point(x: 5, y: 5)
        let path = layout.path(at: origin)
        #expect(!path.isEmpty)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for element in path.elements {
            let points: [Point]
            switch element {
            case let .move(p), let .line(p): points = [p]
            case let .curve(p, c1, c2): points = [p, c1, c2]
            case let .quadCurve(p, c): points = [p, c]
            case .closeSubpath: points = []
            }
            for p in points { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
        }
        let ink = layout.inkBounds
        #expect(abs(minX - (origin.x + ink.minX)) < 1.5 && abs(maxX - (origin.x + ink.maxX)) < 1.5, "path x \(minX)…\(maxX), ink \(ink)")
        #expect(abs(minY - (origin.y + ink.minY)) < 1.5 && abs(maxY - (origin.y + ink.maxY)) < 1.5, "path y \(minY)…\(maxY), ink \(ink)")
        let drawn = try renderText(200, 60) { ctx in layout.draw(in: ctx, at: origin) }
        let filled = try renderText(200, 60) { ctx in ctx.setFill(.black); ctx.fill(path) }
        #expect(textInk(drawn) == textInk(filled))
        // Glyph rendering and path filling rasterise edges slightly differently; the shapes are the same.
        #expect(abs(textInkCount(drawn) - textInkCount(filled)) < textInkCount(drawn) / 20)
    }

    @Test func unitRectsSplitCharactersWordsAndLines() throws {
        let layout = try TextLayout("Hi, you all 👍🏽", style: TextStyle(font: TextFont(size: 30)))
        let chars = layout.unitRects(.character)
        #expect(chars.count == 10, "H i , y o u a l l 👍🏽 (spaces skipped, one emoji cluster): \(chars.count)")
        #expect(zip(chars, chars.dropFirst()).allSatisfy { $0.maxX <= $1.minX + 0.01 })
        let words = layout.unitRects(.word)
        #expect(words.count == 4)
        #expect(words[0].minX == chars[0].minX && abs(words[0].maxX - chars[2].maxX) < 0.01, "\"Hi,\" keeps its comma")
        let wrapped = try TextLayout("one two three four five six", style: TextStyle(font: TextFont(size: 30)), width: 120)
        let lines = wrapped.unitRects(.line)
        #expect(lines.count == wrapped.lineCount && lines.count > 1)
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.maxY <= $1.minY + 0.01 })
        // Clipping to one character's rectangle shows that character's ink and nothing else.
        let origin = Point(x: 10, y: 10)
        let first = chars[1].textTestOffset(origin)
        let p = try renderText(300, 60) { ctx in ctx.clip(to: first); layout.draw(in: ctx, at: origin) }
        let box = try #require(textInk(p))
        #expect(Double(box.minX) >= first.minX.rounded(.down) && Double(box.maxX) < first.maxX.rounded(.up))
    }

    @Test func drawInRectAlignsVertically() throws {
        let style = TextStyle(font: TextFont(size: 20))
        let rect = Rect(x: 10, y: 10, width: 200, height: 180)
        func ink(_ v: TextVerticalAlignment) throws -> TextInkBox {
            try #require(textInk(try renderText(220, 200) { ctx in try ctx.draw("Vertical", in: rect, style: style, verticalAlignment: v) }))
        }
        let top = try ink(.top), center = try ink(.center), bottom = try ink(.bottom)
        #expect(top.minY < 20 && abs(Double(center.minY + center.maxY) / 2 - 100) < 6 && bottom.maxY > 175 && bottom.maxY < 190,
                "\(top) \(center) \(bottom)")
    }

    @Test func layoutsDrawIdenticallyOnConcurrentThreads() throws {
        let texts = ["Concurrent text", "مرحبا بالعالم", "こんにちは世界", "🎬🙂 שלום"]
        let style = TextStyle(font: TextFont(size: 28), color: .black)
        @Sendable func render(_ layout: TextLayout) throws -> PixelBuffer { try renderText(240, 50, background: .white) { ctx in layout.draw(in: ctx, at: .zero) } }
        let sequential = try texts.map { try render(try TextLayout($0, style: style)) }
        let results = Mutex<[Int: PixelBuffer]>([:])
        let failures = Mutex<[String]>([])
        // Layouts made and drawn on worker threads, several rounds at once.
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            do {
                let p = try render(try TextLayout(texts[i % 4], style: style))
                results.withLock { $0[i] = p }
            } catch { failures.withLock { $0.append("\(error)") } }
        }
        // Layouts made here and drawn on other threads (each rebuilt with that thread's fonts).
        let made = try texts.map { UncheckedSendable(try TextLayout($0, style: style)) }
        let moved = Mutex<[Int: PixelBuffer]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do { let p = try render(made[i].value); moved.withLock { $0[i] = p } } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let r = results.withLock { $0 }, m = moved.withLock { $0 }
        for i in 0..<16 { #expect(r[i] == sequential[i % 4], "iteration \(i) differs") }
        for i in 0..<4 { #expect(m[i] == sequential[i], "moved layout \(i) differs") }
    }
}

extension Rect {
    /// This rectangle moved by `p`.
    func textTestOffset(_ p: Point) -> Rect { Rect(x: minX + p.x, y: minY + p.y, width: width, height: height) }
}

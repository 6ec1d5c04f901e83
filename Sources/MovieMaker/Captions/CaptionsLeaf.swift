internal import CCairo
import Foundation
import Synchronization

extension Clip {
    /// A transparent clip lasting `duration` that shows `transcript`'s words as word-by-word captions in
    /// `style`: pages of a few words inside the title-safe area, the spoken word marked as the style's
    /// animation says, each word marked exactly while `start <= time < end` of this clip's time.
    /// Put it over a picture with `Clip.overlay`, or use `captioned(_:style:)`.
    ///
    /// A font that is not installed or a style value out of range fails the render at the first frame
    /// with words (`.fontNotFound`, `.invalidSetting`).
    public static func captions(_ transcript: Transcript, style: CaptionStyle = .init(), duration: Time) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        return Clip(.generator(.captions(CaptionsLeaf(transcript: transcript, style: style)), duration: duration))
    }

    /// This clip with `transcript`'s words as captions over its whole duration (word times in this
    /// clip's time).
    public func captioned(_ transcript: Transcript, style: CaptionStyle = .init()) -> Clip {
        Clip.overlay(self, Clip.captions(transcript, style: style, duration: duration))
    }
}

/// A page of captions: a run of words shown together.
struct CaptionPage: Sendable, Equatable {
    /// The words' indices in the transcript.
    let words: Range<Int>
    /// When the page appears (its first word's start).
    let start: Time
    /// When it goes (the next page's start, or its last word's end plus the hold, whichever is first).
    let end: Time
}

/// A page laid out for one frame size: its text, font size, where it goes and where each word is.
struct CaptionPagePlan: Sendable {
    /// The page's text (the words joined by spaces, none between CJK words), uppercased if asked.
    let text: String
    /// The font size in pixels, after shrinking a word too wide for the line.
    let fontSize: Double
    /// The wrap width in pixels.
    let wrapWidth: Double
    /// The layout's top-left corner in the frame.
    let origin: Point
    /// The layout's logical bounds (layout coordinates).
    let logical: Rect
    /// Each word's rectangle in the frame, in the page's word order.
    let wordRects: [Rect]
    /// Whether each word runs right to left (karaoke sweeps it from the right).
    let rightToLeft: [Bool]
}

extension Clip {
    /// Captions as a generator leaf: a transcript paged and drawn in a style.
    ///
    /// Pages depend on the frame size (lines are measured), so they are made once per size and kept,
    /// with each page's plan, in a cache shared by the drawing threads (the most recent 256 plans);
    /// each draw shapes its page anew on its own thread, since Pango objects belong to one thread.
    package struct CaptionsLeaf: Sendable, Equatable {
        /// The words.
        package let transcript: Transcript
        /// How they look and page.
        package let style: CaptionStyle
        /// Pages and plans, shared by copies of the leaf.
        let cache: CaptionLayoutCache
        /// When the picture can change.
        let timing: CaptionTiming

        /// A leaf drawing `transcript` in `style`.
        package init(transcript: Transcript, style: CaptionStyle) {
            self.transcript = transcript; self.style = style
            cache = CaptionLayoutCache()
            timing = CaptionTiming(words: transcript.words, style: style)
        }

        /// Equal when the transcripts and styles are.
        package static func == (a: CaptionsLeaf, b: CaptionsLeaf) -> Bool { a.transcript == b.transcript && a.style == b.style }

        /// How long a `pop` word takes to scale in.
        static let popDuration = Time(value: 3, timescale: 20)
        /// How long a `bounce` word's jump lasts at most.
        static let bounceDuration = Time(value: 3, timescale: 10)

        /// The pages for frames of `size`.
        func pages(for size: Size) throws(MovieMakerError) -> [CaptionPage] {
            try cache.pages(for: size) { () throws(MovieMakerError) -> [CaptionPage] in
                try CaptionPaging.pages(of: transcript.words, style: style, frameSize: size)
            }
        }

        /// The index of the page showing at `time`, if any.
        func page(at time: Time, in pages: [CaptionPage]) -> Int? {
            var lo = 0, hi = pages.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pages[mid].start <= time { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0, time < pages[lo - 1].end else { return nil }
            return lo - 1
        }

        /// Draws the page showing at `frame.exactTime`, if any (package: the benchmark times it alone).
        package func draw(in ctx: DrawingContext, at frame: Frame) throws {
            try style.validate()
            let size = ctx.size
            let pages = try pages(for: size)
            let t = frame.exactTime
            guard let index = page(at: t, in: pages) else { return }
            let page = pages[index]
            let plan = try cache.plans.plan(index, frameSize: size) { () throws(MovieMakerError) -> CaptionPagePlan in
                try CaptionPaging.plan(page, words: transcript.words, style: style, frameSize: size)
            }
            let key = CaptionPageRaster.Key(leaf: cache, page: index, width: size.width, height: size.height)
            try CaptionDrawing(plan: plan, style: style, words: Array(transcript.words[page.words]), key: key).draw(in: ctx, at: t)
        }

        /// Whether the picture is the same at the leaf's times `a` and `b`: no page or word changes
        /// between them and no animation runs at either. Pages start at a word's start and end at one
        /// or `hold` after a word's end, whatever the frame size, so the answer needs no layout.
        func isStill(between a: Time, and b: Time) -> Bool {
            let (lo, hi) = a < b ? (a, b) : (b, a)
            // The first event after lo.
            var l = 0, h = timing.events.count
            while l < h { let m = (l + h) / 2; if timing.events[m] <= lo { l = m + 1 } else { h = m } }
            if l < timing.events.count, timing.events[l] <= hi { return false }
            // Inside an animation (a sweep, a pop, a bounce)? Windows start at events, so checking hi is enough.
            l = 0; h = timing.windows.count
            while l < h { let m = (l + h) / 2; if timing.windows[m].start <= hi { l = m + 1 } else { h = m } }
            return l == 0 || hi >= timing.windows[l - 1].end
        }
    }
}

/// The times at which a captions leaf's picture can change, for `isStill`.
struct CaptionTiming: Sendable {
    /// Every word's start, end, end plus the hold, and animation end, sorted.
    let events: [Time]
    /// The spans during which the picture moves (a karaoke sweep, a pop, a bounce), merged and sorted.
    let windows: [(start: Time, end: Time)]

    init(words: [TranscriptWord], style: CaptionStyle) {
        var events: [Time] = [], windows: [(start: Time, end: Time)] = []
        for w in words {
            events += [w.start, w.end, w.end + style.hold]
            let animationEnd: Time?
            switch style.animation {
            case .highlight, .reveal: animationEnd = nil
            case .karaoke: animationEnd = w.end
            case .pop: animationEnd = w.start + Clip.CaptionsLeaf.popDuration
            case .bounce: animationEnd = w.start + min(w.end - w.start, Clip.CaptionsLeaf.bounceDuration)
            }
            if let animationEnd, animationEnd > w.start {
                events.append(animationEnd)
                windows.append((w.start, animationEnd))
            }
        }
        self.events = events.sorted()
        var merged: [(start: Time, end: Time)] = []
        for window in windows.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, window.start <= last.end {
                merged[merged.count - 1].end = max(last.end, window.end)
            } else {
                merged.append(window)
            }
        }
        self.windows = merged
    }
}

/// Pages and plans of one captions leaf.
final class CaptionLayoutCache: Sendable {
    private struct SizeKey: Hashable { let width: Double; let height: Double }
    private let pages = Mutex([SizeKey: [CaptionPage]]())
    /// Each page's plan for a frame size.
    let plans = LayoutPlanCache<CaptionPagePlan>()

    /// The pages for `size`, made by `make` once.
    func pages(for size: Size, make: () throws(MovieMakerError) -> [CaptionPage]) throws(MovieMakerError) -> [CaptionPage] {
        let key = SizeKey(width: size.width, height: size.height)
        if let cached = pages.withLock({ $0[key] }) { return cached }
        let made = try make()
        pages.withLock { p in
            if p.count >= 4 { p.removeAll() }   // a render uses one size (two with previews)
            p[key] = made
        }
        return made
    }
}

/// Grouping words into pages and laying a page out.
enum CaptionPaging {
    /// Whether `word` ends a sentence (its last character, closing quotes and brackets aside).
    static func endsSentence(_ word: String) -> Bool {
        let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'”’»)]」』"))
        guard let last = trimmed.last else { return false }
        // Latin, CJK and Arabic script marks (؟ the Arabic question mark, ۔ the Urdu full stop).
        return ".!?…。！？؟۔".contains(last)
    }

    /// Whether `word` is written without spaces between words (Han, kana, Thai…), so no space joins it.
    static func isUnspaced(_ word: String) -> Bool {
        guard let scalar = word.unicodeScalars.first(where: { $0.properties.isAlphabetic }) else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x0E00...0x0E7F, 0x20000...0x2FFFF: return true
        default: return false
        }
    }

    /// The page's text and each word's UTF-8 byte range in it.
    static func text(of words: ArraySlice<TranscriptWord>, uppercase: Bool) -> (String, [Range<Int>]) {
        var text = "", ranges: [Range<Int>] = []
        var previous: String? = nil
        for w in words {
            let shown = uppercase ? w.text.uppercased() : w.text
            if let previous, !(isUnspaced(previous) && isUnspaced(shown)) { text += " " }
            let start = text.utf8.count
            text += shown
            ranges.append(start..<text.utf8.count)
            previous = shown
        }
        return (text, ranges)
    }

    /// The text style of a page at `size` pixels.
    static func textStyle(_ style: CaptionStyle, size: Double, color: Color, outline: Bool) -> TextStyle {
        var s = TextStyle(font: TextFont(family: style.fontFamily, size: size, weight: style.weight), color: color,
                          alignment: .center, isMarkup: false, language: style.language)
        if outline, let c = style.outlineColor, style.outlineWidth > 0 { s.outline = TextOutline(color: c, width: style.outlineWidth * size) }
        return s
    }

    /// The title-safe area (90 % of each side, as subtitles use) of a frame of `size`.
    static func safeArea(_ size: Size) -> Rect {
        Rect(x: size.width * 0.05, y: size.height * 0.05, width: size.width * 0.9, height: size.height * 0.9)
    }

    /// The wrap width in pixels for frames of `size`.
    static func wrapWidth(_ style: CaptionStyle, _ size: Size) -> Double {
        max(1, min(style.maximumWidth * size.width, safeArea(size).width))
    }

    /// Groups `words` into pages for frames of `frameSize`.
    static func pages(of words: [TranscriptWord], style: CaptionStyle, frameSize: Size) throws(MovieMakerError) -> [CaptionPage] {
        try style.validate()
        guard !words.isEmpty else { return [] }
        let nominal = style.fontSize * frameSize.height
        let width = wrapWidth(style, frameSize)
        var ranges: [Range<Int>] = []
        var first = 0
        for i in 1..<words.count {
            let count = i - first
            var breaks = count >= style.wordsPerPage
                || endsSentence(words[i - 1].text)
                || words[i].start - words[i - 1].end > style.pauseBreak
            if !breaks {
                // Lines: the page with this word must still fit the most lines at the nominal size.
                let (candidate, _) = text(of: words[first...i], uppercase: style.uppercase)
                let layout = try TextLayout(candidate, style: textStyle(style, size: nominal, color: style.color, outline: false), width: width)
                breaks = layout.lineCount > style.maximumLines
            }
            if breaks { ranges.append(first..<i); first = i }
        }
        ranges.append(first..<words.count)
        var pages: [CaptionPage] = []
        for (k, r) in ranges.enumerated() {
            let start = words[r.lowerBound].start
            let lastEnd = words[r].map(\.end).max() ?? start
            var end = lastEnd + style.hold
            if k + 1 < ranges.count { end = min(end, words[ranges[k + 1].lowerBound].start) }
            pages.append(CaptionPage(words: r, start: start, end: max(end, start)))
        }
        return pages
    }

    /// Lays `page` out for frames of `frameSize`: the largest size up to the nominal one at which no
    /// word is wider than the line, placed as the style says and kept inside the title-safe area.
    static func plan(_ page: CaptionPage, words: [TranscriptWord], style: CaptionStyle, frameSize: Size) throws(MovieMakerError) -> CaptionPagePlan {
        let (text, ranges) = text(of: words[page.words], uppercase: style.uppercase)
        let safe = safeArea(frameSize)
        let nominal = style.fontSize * frameSize.height
        let width = wrapWidth(style, frameSize)
        let layout = try TextLayout.fitting(text, style: textStyle(style, size: nominal, color: style.color, outline: false),
                                            in: Size(width: width, height: safe.height), minimumSize: min(1, nominal), maximumSize: nominal)
        let logical = layout.logicalBounds
        let fontSize = layout.style.font.size
        let pad = fontSize * (style.background != nil ? 0.3 : style.outlineWidth / 2)
        // The block (logical bounds plus padding) placed as asked, inside the safe area.
        let blockWidth = logical.width + 2 * pad, blockHeight = logical.height + 2 * pad
        var center: Point
        switch style.position {
        case .bottom: center = Point(x: frameSize.width / 2, y: safe.minY + safe.height * 0.82)
        case .center: center = Point(x: frameSize.width / 2, y: frameSize.height / 2)
        case .top: center = Point(x: frameSize.width / 2, y: safe.minY + safe.height * 0.12)
        case let .point(p): center = Point(x: p.x * frameSize.width, y: p.y * frameSize.height)
        }
        center.x = min(max(center.x, safe.minX + blockWidth / 2), safe.maxX - blockWidth / 2)
        center.y = min(max(center.y, safe.minY + blockHeight / 2), safe.maxY - blockHeight / 2)
        let origin = Point(x: center.x - logical.midX, y: center.y - logical.midY)
        let rects = layout.rects(ofByteRanges: ranges).map { Rect(x: $0.minX + origin.x, y: $0.minY + origin.y, width: $0.width, height: $0.height) }
        let rtl = words[page.words].map { SubtitleCuePlan.isRightToLeft($0.text) }
        return CaptionPagePlan(text: text, fontSize: fontSize, wrapWidth: width, origin: origin, logical: logical,
                               wordRects: rects, rightToLeft: rtl)
    }
}

/// A page's words drawn once, outline and fill, into a picture that the same thread's next frames
/// paint (clipped to the words they show) instead of stroking the outline again: the stroke is most
/// of a frame's cost, and a page shows for many frames. Always drawn through it, so a frame's pixels
/// do not depend on what was cached. Kept per thread (Cairo surfaces are not shared between threads),
/// the last few pages each.
final class CaptionPageRaster {
    /// Which page of which leaf at which size. The key holds the leaf's cache itself, not its address:
    /// a freed leaf's address can be a new leaf's, and its stale picture must not be found.
    struct Key: Equatable {
        let leaf: CaptionLayoutCache
        let page: Int
        let width: Double, height: Double
        static func == (a: Key, b: Key) -> Bool { a.leaf === b.leaf && a.page == b.page && a.width == b.width && a.height == b.height }
    }
    /// The page's words, outlined.
    let canvas: Canvas
    /// The glyphs alone in the highlight colour (painted over the marked words).
    let marked: Canvas
    /// The glyphs alone in the shadow's colour, offset, when the style has a shadow.
    let shadow: Canvas?
    /// Where their top-left corner goes in the frame (whole pixels, so painting does not resample).
    let left: Int, top: Int

    init(layout: TextLayout, plan: CaptionPagePlan, style: CaptionStyle) throws(MovieMakerError) {
        let pad = plan.fontSize * (style.outlineWidth + 0.2) + 2
        let ink = layout.inkBounds
        let l = Int((plan.origin.x + min(ink.minX, plan.logical.minX) - pad).rounded(.down))
        let t = Int((plan.origin.y + min(ink.minY, plan.logical.minY) - pad).rounded(.down))
        let r = Int((plan.origin.x + max(ink.maxX, plan.logical.maxX) + pad).rounded(.up))
        let b = Int((plan.origin.y + max(ink.maxY, plan.logical.maxY) + pad).rounded(.up))
        left = l; top = t
        let at = Point(x: plan.origin.x - Double(l), y: plan.origin.y - Double(t))
        func glyphs(_ color: Color, offset: Point) throws(MovieMakerError) -> Canvas {
            let c = try Canvas(width: max(1, r - l), height: max(1, b - t))
            cairo_set_source_rgba(c.context.cr, color.red, color.green, color.blue, color.alpha)
            layout.drawGlyphs(in: c.context, at: Point(x: at.x + offset.x, y: at.y + offset.y))
            return c
        }
        canvas = try Canvas(width: max(1, r - l), height: max(1, b - t))
        layout.draw(in: canvas.context, at: at)
        marked = try glyphs(style.highlightColor, offset: Point(x: 0, y: 0))
        shadow = try style.shadowColor.map { color throws(MovieMakerError) in
            try glyphs(color, offset: Point(x: plan.fontSize * 0.05, y: plan.fontSize * 0.07))
        }
    }

    /// Paints the outlined words in `ctx` (under its clip and transform).
    func paint(in ctx: DrawingContext) { paint(canvas, in: ctx) }
    /// Paints the highlight-coloured glyphs.
    func paintMarked(in ctx: DrawingContext) { paint(marked, in: ctx) }
    /// Paints the shadow, if any.
    func paintShadow(in ctx: DrawingContext) { if let shadow { paint(shadow, in: ctx) } }
    private func paint(_ c: Canvas, in ctx: DrawingContext) {
        cairo_set_source_surface(ctx.cr, c.surface.pointer, Double(left), Double(top))
        cairo_paint(ctx.cr)
    }

    /// The calling thread's rasters.
    private final class Slots { var entries: [(key: Key, raster: CaptionPageRaster)] = [] }
    private static let threadKey = "MovieMaker.CaptionPageRaster"
    /// How many pages a thread keeps (two captions items drawn on one frame, and the page before).
    static let perThread = 4

    /// The calling thread's raster for `key`, made by `make` when it has none.
    static func current(_ key: Key, make: () throws(MovieMakerError) -> CaptionPageRaster) throws(MovieMakerError) -> CaptionPageRaster {
        let dictionary = Thread.current.threadDictionary
        let slots = (dictionary[threadKey] as? Slots) ?? { let s = Slots(); dictionary[threadKey] = s; return s }()
        if let i = slots.entries.firstIndex(where: { $0.key == key }) {
            let entry = slots.entries.remove(at: i)
            slots.entries.append(entry)
            return entry.raster
        }
        let raster = try make()
        slots.entries.append((key, raster))
        if slots.entries.count > perThread { slots.entries.removeFirst() }
        return raster
    }
}

/// Drawing one planned page at one time.
struct CaptionDrawing {
    let plan: CaptionPagePlan
    let style: CaptionStyle
    /// The page's words, in order.
    let words: [TranscriptWord]
    /// Which page of which leaf at which size: the key of its raster.
    let key: CaptionPageRaster.Key

    /// The layout of the page in `color` (with the outline when `outline`).
    func layout(_ color: Color, outline: Bool) throws(MovieMakerError) -> TextLayout {
        try TextLayout(plan.text, style: CaptionPaging.textStyle(style, size: plan.fontSize, color: color, outline: outline), width: plan.wrapWidth)
    }

    /// A word's rectangle grown to hold its outline and the glyphs' overhang, but sideways never past
    /// half the gap to the next word on its line (none between Japanese or Chinese words), so marking
    /// one word never colours a piece of its neighbour.
    func inkRect(_ k: Int) -> Rect {
        let r = plan.wordRects[k]
        let grow = plan.fontSize * ((style.outlineColor == nil ? 0 : style.outlineWidth / 2) + 0.06)
        var left = grow, right = grow
        for j in [k - 1, k + 1] where plan.wordRects.indices.contains(j) {
            let o = plan.wordRects[j]
            guard o.maxY > r.minY + 0.5, o.minY < r.maxY - 0.5 else { continue }   // another line
            if o.maxX <= r.minX + 0.5 { left = min(left, max(0, (r.minX - o.maxX) / 2)) }
            if o.minX >= r.maxX - 0.5 { right = min(right, max(0, (o.minX - r.maxX) / 2)) }
        }
        return Rect(x: r.minX - left, y: r.minY - grow, width: r.width + left + right, height: r.height + 2 * grow)
    }

    /// Draws the page as it is at `t`.
    func draw(in ctx: DrawingContext, at t: Time) throws {
        let spoken = words.indices.filter { words[$0].start <= t && t < words[$0].end }
        let started = words.indices.filter { words[$0].start <= t }
        let raster = try CaptionPageRaster.current(key) { () throws(MovieMakerError) -> CaptionPageRaster in
            try CaptionPageRaster(layout: try layout(style.color, outline: true), plan: plan, style: style)
        }
        // What shows: every word, except in `reveal` and `pop`, where only words already started do.
        let visible: [Int] = (style.animation == .reveal || style.animation == .pop) ? started : Array(words.indices)
        guard !visible.isEmpty else { return }
        ctx.withSavedState {
            if let background = style.background {
                let pad = plan.fontSize * 0.3
                let l = plan.logical
                let box = Rect(x: plan.origin.x + l.minX - pad, y: plan.origin.y + l.minY - pad, width: l.width + 2 * pad, height: l.height + 2 * pad)
                ctx.setFill(background)
                ctx.beginPath()
                ctx.addRoundedRect(box, cornerRadius: plan.fontSize * 0.3)
                ctx.fill()
            }
        }
        if style.shadowColor != nil {
            clipped(to: visible, in: ctx) { raster.paintShadow(in: ctx) }
        }
        switch style.animation {
        case .highlight, .reveal:
            if style.animation == .highlight { drawHighlightBoxes(spoken, in: ctx) }
            clipped(to: visible, in: ctx) { raster.paint(in: ctx) }
            if style.animation == .highlight, !spoken.isEmpty {
                clipped(to: spoken, in: ctx) { raster.paintMarked(in: ctx) }
            }
        case .karaoke:
            raster.paint(in: ctx)
            ctx.withSavedState {
                ctx.beginPath()
                for k in words.indices where words[k].start <= t {
                    let r = inkRect(k)
                    let duration = words[k].end - words[k].start
                    let p = t >= words[k].end || duration <= .zero ? 1.0 : min(1, max(0, (t - words[k].start).seconds / duration.seconds))
                    let w = r.width * p
                    ctx.addRect(plan.rightToLeft[k] ? Rect(x: r.maxX - w, y: r.minY, width: w, height: r.height)
                                                    : Rect(x: r.minX, y: r.minY, width: w, height: r.height))
                }
                ctx.clip()
                raster.paintMarked(in: ctx)
            }
        case .pop:
            // Words that have finished popping are drawn together; each one still scaling, on its own.
            let settled = visible.filter { t >= words[$0].start + Clip.CaptionsLeaf.popDuration }
            let scaling = visible.filter { t < words[$0].start + Clip.CaptionsLeaf.popDuration }
            if !settled.isEmpty {
                clipped(to: settled, in: ctx) { raster.paint(in: ctx) }
                let marked = settled.filter { spoken.contains($0) }
                if !marked.isEmpty { clipped(to: marked, in: ctx) { raster.paintMarked(in: ctx) } }
            }
            for k in scaling {
                let p = min(1, max(0, (t - words[k].start).seconds / Clip.CaptionsLeaf.popDuration.seconds))
                let scale = Self.backOut(p) * 0.5 + 0.5
                let r = inkRect(k)
                ctx.withSavedState {
                    ctx.translate(x: r.midX, y: r.midY)
                    ctx.scale(x: scale, y: scale)
                    ctx.translate(x: -r.midX, y: -r.midY)
                    ctx.clip(to: r)
                    raster.paint(in: ctx)
                    if spoken.contains(k) { raster.paintMarked(in: ctx) }
                }
            }
        case .bounce:
            drawHighlightBoxes(spoken, in: ctx, lifted: true, at: t)
            // Everything but the spoken words where they are; the spoken words lifted.
            ctx.withSavedState {
                ctx.beginPath()
                ctx.addRect(Rect(x: 0, y: 0, width: ctx.size.width, height: ctx.size.height))
                for k in spoken { ctx.addRect(inkRect(k)) }
                ctx.fillRule = .evenOdd
                ctx.clip()
                raster.paint(in: ctx)
            }
            for k in spoken {
                let lift = self.lift(k, at: t)
                ctx.withSavedState {
                    ctx.translate(x: 0, y: -lift)
                    ctx.clip(to: inkRect(k))
                    raster.paint(in: ctx)
                    raster.paintMarked(in: ctx)
                }
            }
        }
    }

    /// How high a `bounce` word is at `t`: up and back along half a sine over its first 0.3 s (or its
    /// whole time when shorter), a quarter of the font size at the top.
    func lift(_ k: Int, at t: Time) -> Double {
        let length = min(words[k].end - words[k].start, Clip.CaptionsLeaf.bounceDuration)
        guard length > .zero else { return 0 }
        let p = min(1, max(0, (t - words[k].start).seconds / length.seconds))
        return plan.fontSize * 0.25 * sin(Double.pi * p)
    }

    /// Rounded boxes behind the spoken words (`highlightBackground`), lifted with them in `bounce`.
    func drawHighlightBoxes(_ spoken: [Int], in ctx: DrawingContext, lifted: Bool = false, at t: Time = .zero) {
        guard let color = style.highlightBackground else { return }
        for k in spoken {
            let r = plan.wordRects[k]
            let pad = plan.fontSize * 0.15
            let dy = lifted ? lift(k, at: t) : 0
            ctx.setFill(color)
            ctx.beginPath()
            ctx.addRoundedRect(Rect(x: r.minX - pad, y: r.minY - dy, width: r.width + 2 * pad, height: r.height), cornerRadius: plan.fontSize * 0.2)
            ctx.fill()
        }
    }

    /// Runs `body` clipped to the ink rectangles of `words`.
    func clipped(to indices: [Int], in ctx: DrawingContext, _ body: () -> Void) {
        ctx.withSavedState {
            ctx.beginPath()
            for k in indices { ctx.addRect(inkRect(k)) }
            ctx.clip()
            body()
        }
    }

    /// An ease-out with a small overshoot (CSS's `easeOutBack`), 0 → 1.
    static func backOut(_ p: Double) -> Double {
        let c1 = 1.70158, c3 = c1 + 1
        return 1 + c3 * pow(p - 1, 3) + c1 * pow(p - 1, 2)
    }
}

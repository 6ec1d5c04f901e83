import Foundation

extension Rect {
    /// The rectangle moved by `offset`.
    func offsetBy(_ offset: Point) -> Rect { Rect(x: minX + offset.x, y: minY + offset.y, width: width, height: height) }
}

/// A title card: a title with an optional subtitle and body on a background, animated on and off.
///
/// Build one, set its styles and animations, then turn it into a `Clip` for a frame size with
/// `clip(width:height:)`, which checks the fonts and fits the text once, before any frame is drawn:
///
/// <!-- prelude: let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
/// ```swift
/// var card = TitleCard("Release 2.4", subtitle: "What's new", duration: 4)
/// card.entrance = .letters()
/// try movie.add(card.clip(width: 1920, height: 1080))
/// ```
public struct TitleCard: Sendable, Equatable {
    /// Where the text sits.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// Centred in the title-safe area of the whole frame.
        case fullScreen
        /// A band in the lower third, left-aligned, with the background behind the band only.
        case lowerThird
    }

    /// What is drawn behind the text.
    public enum Background: Sendable, Equatable {
        /// Nothing: the card is transparent outside its text (for overlays and alpha output).
        case none
        /// A solid colour.
        case color(Color)
        /// A gradient or any paint.
        case paint(Paint)
        /// A picture, fitted to the frame (or the lower-third band). It holds pixels, so a card with it
        /// cannot be encoded; `imageFile(_:fit:)` names the picture's file instead.
        case image(Image, fit: ImageFit)
        /// The photo or picture in a file (any format `PhotoDecoder` reads), fitted like `image`. The
        /// file is read when the card is turned into a clip (`clip(width:height:)`), which throws if it
        /// cannot be.
        case imageFile(URL, fit: ImageFit)

        /// Same case and payload; pictures compare by identity (the same `Image` object).
        public static func == (a: Background, b: Background) -> Bool {
            switch (a, b) {
            case (.none, .none): return true
            case let (.color(x), .color(y)): return x == y
            case let (.paint(x), .paint(y)): return x == y
            case let (.image(x, f), .image(y, g)): return x === y && f == g
            case let (.imageFile(x, f), .imageFile(y, g)): return x == y && f == g
            default: return false
            }
        }
    }

    /// The main line.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?
    /// Paragraph text under the subtitle, wrapped to the safe area.
    public var body: String?
    /// How long the card lasts.
    public var duration: Time
    /// Full screen or lower third.
    public var layout: Layout = .fullScreen
    /// What is drawn behind the text.
    public var background: Background = .color(Color(red8: 0x10, green8: 0x18, blue8: 0x20))
    /// Style of the title; with `autoFit`, its font size is the largest allowed. Sizes in the card's
    /// styles are pixels of a 1080-line frame, scaled to the frame drawn (64 shows as about 43 px at
    /// 720p), unlike `Clip.text`'s, which are the frame's own pixels.
    public var titleStyle: TextStyle
    /// Style of the subtitle (sizes for a 1080-line frame, as `titleStyle`'s).
    public var subtitleStyle: TextStyle
    /// Style of the body (sizes for a 1080-line frame, as `titleStyle`'s).
    public var bodyStyle: TextStyle
    /// Margin kept clear on every side, as a fraction of the frame's width and height (0.1 is the
    /// broadcast "title-safe" area).
    public var safeMargin: Double = 0.1
    /// Shrinks each text's font (never grows it) until it fits its part of the safe area.
    public var autoFit: Bool = true
    /// How the text comes on.
    public var entrance: TitleAnimation = .fade()
    /// How the text goes off (the entrance movement played backwards).
    public var exit: TitleAnimation = .fade(duration: 0.5)

    /// A card with white DejaVu Sans text, sized relative to a 1080-line frame (scaled to the actual
    /// frame when the clip is made).
    public init(_ title: String, subtitle: String? = nil, body: String? = nil, duration: Time = 4,
                fontFamily: String = "DejaVu Sans") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.duration = duration
        titleStyle = TextStyle(font: TextFont(family: fontFamily, size: 120, weight: .bold), color: .white, alignment: .center)
        subtitleStyle = TextStyle(font: TextFont(family: fontFamily, size: 56), color: Color(white: 0.85), alignment: .center)
        bodyStyle = TextStyle(font: TextFont(family: fontFamily, size: 40), color: Color(white: 0.8), alignment: .center)
    }

    /// Sets the font family of all three texts.
    package mutating func setFontFamily(_ family: String) {
        titleStyle.font.family = family
        subtitleStyle.font.family = family
        bodyStyle.font.family = family
    }

    /// The card as a clip for frames of `width`×`height` pixels. Checks the fonts, scales the styles
    /// (designed for 1080 lines) to the frame and fits the text, so errors surface here, not mid-render.
    /// Drawn in a smaller frame, the card is shrunk to fit it, centred.
    /// Throws `.invalidSetting(.duration, …)` unless `duration` is above zero.
    public func clip(width: Int, height: Int) throws(MovieMakerError) -> Clip {
        return Clip(.generator(.titleCard(try Clip.TitleCardLeaf(card: self, width: width, height: height)), duration: duration))
    }
}

/// A card's text measured and placed for one frame size: the font sizes and positions are computed
/// once; each frame only lays out (Pango layouts are per thread) and draws.
struct TitlePlan: Sendable {
    struct Element: Sendable {
        var text: String
        var style: TextStyle
        var wrapWidth: Double
        var origin: Point          // where the layout is drawn (its top-left)
        var bounds: Rect           // the text's logical rectangle in the frame
        var delay: Double          // seconds after the card's start (entrance) / before the exit
    }

    let card: TitleCard
    let size: Size
    let elements: [Element]
    let band: Rect?                // lower third: the band behind the text
    let backgroundImage: Image?    // an `imageFile` background, read once

    /// `text` as warnings quote it: white space runs as one space, at most 40 characters.
    static func excerpt(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count > 40 ? words.prefix(40) + "…" : words
    }

    init(card: TitleCard, size: Size) throws(MovieMakerError) {
        self.card = card
        self.size = size
        if case let .imageFile(url, fit) = card.background {
            // Large enough to cover the frame (the band is inside it); at its own size when centred.
            backgroundImage = try PhotoDecoder.decode(url, scaling: fit == .center ? .fullSize : .filling(size)).image
        } else {
            backgroundImage = nil
        }
        let scale = size.height / 1080
        let margin = max(0, min(card.safeMargin, 0.4))
        let safe = Rect(x: size.width * margin, y: size.height * margin,
                        width: size.width * (1 - 2 * margin), height: size.height * (1 - 2 * margin))

        var texts: [(String, TextStyle, Double)] = [(card.title, card.titleStyle, 1)]   // text, style, share of height
        if let s = card.subtitle, !s.isEmpty { texts.append((s, card.subtitleStyle, 0.45)) }
        if let b = card.body, !b.isEmpty { texts.append((b, card.bodyStyle, 1)) }

        var box: Rect
        switch card.layout {
        case .fullScreen: box = safe
        case .lowerThird:
            // The band: the lower third of the frame, text kept inside the safe area's left edge.
            let bandHeight = size.height * 0.22
            box = Rect(x: safe.minX, y: safe.maxY - bandHeight, width: safe.width * 0.7, height: bandHeight)
            for i in texts.indices where texts[i].1.alignment == .center { texts[i].1.alignment = .left }
        }
        let padding = card.layout == .lowerThird ? box.height * 0.12 : 0
        let inner = box.insetBy(dx: padding, dy: padding)
        let totalShare = texts.map(\.2).reduce(0, +)
        let gap = 0.25 * (card.subtitleStyle.font.size * scale)

        var laid: [(String, TextStyle, TextLayout)] = []
        /// Texts that overflow their share even at the smallest size.
        var overflowing: [(text: String, size: Double)] = []
        /// Texts with letters no font has, and how many.
        var undrawable: [(text: String, count: Int)] = []
        for (text, style, share) in texts {
            var s = style
            s.font.size = style.font.size * scale
            s.letterSpacing = style.letterSpacing * scale
            if let o = s.outline { s.outline = TextOutline(color: o.color, width: o.width * scale) }
            let available = Size(width: inner.width, height: max(1, (inner.height - gap * Double(texts.count - 1)) * share / totalShare))
            let layout: TextLayout
            if card.autoFit {
                layout = try TextLayout.fitting(text, style: s, in: available, minimumSize: min(8, s.font.size), maximumSize: s.font.size)
                if layout.size.height > available.height + 0.5 { overflowing.append((text, layout.style.font.size)) }
            } else {
                layout = try TextLayout(text, style: s, width: inner.width)
            }
            laid.append((text, layout.style, layout))
            if layout.unknownGlyphCount > 0 { undrawable.append((text, layout.unknownGlyphCount)) }
        }
        // Letters no installed font has are drawn as boxes of their code: say so, once per card.
        if let (text, count) = undrawable.first {
            LibraryWarnings.warn("the text \"\(Self.excerpt(text))\" has \(count) letter\(count == 1 ? "" : "s") no installed font can draw "
                + "(they show as boxes): install a font for its script (Debian: fonts-noto-core, fonts-noto-cjk) or choose one that has them")
        }

        // Stack the texts and centre the stack vertically in the box (lower third: in the band).
        let totalHeight = laid.map { $0.2.size.height }.reduce(0, +) + gap * Double(laid.count - 1)
        // A text over its share at the smallest size is said only when the stack then runs out of the box
        // (a lower third's band, padding included; the safe area): in a small frame a one-letter subtitle
        // may take a pixel of the band's padding, which no one sees as running off.
        if let (text, size) = overflowing.first, totalHeight > box.height + 0.5 {
            LibraryWarnings.warn("the text \"\(Self.excerpt(text))\" (\(text.count) characters) does not fit the title card even at "
                + "\(Int(size.rounded())) px: it runs past the frame's safe area; shorten it, or split it over several cards")
        }
        var y = inner.minY + (inner.height - totalHeight) / 2
        var placed: [Element] = []
        for (i, (text, style, layout)) in laid.enumerated() {
            // Pango aligns each line within the wrap width itself; the logical bounds say where the text is.
            let origin = Point(x: inner.minX, y: y - layout.logicalBounds.minY)
            placed.append(Element(text: text, style: style, wrapWidth: inner.width, origin: origin,
                                  bounds: layout.logicalBounds.offsetBy(origin), delay: Double(i) * card.entrance.cascade.seconds))
            y += layout.size.height + gap
        }
        elements = placed
        band = card.layout == .lowerThird ? box : nil
    }

    func draw(in ctx: DrawingContext, frame: Frame) throws {
        drawBackground(in: ctx, frame: frame)
        let t = frame.time
        let end = frame.duration.seconds
        for (i, element) in elements.enumerated() {
            let (entering, leaving) = progress(of: i, at: t, duration: end, rate: frame.rate)
            let layout = try TextLayout(element.text, style: element.style, width: element.wrapWidth)
            if leaving < 1 && entering >= 1 {
                try draw(layout, element, progress: leaving, animation: card.exit, in: ctx)
            } else {
                try draw(layout, element, progress: min(entering, leaving), animation: card.entrance, in: ctx)
            }
        }
    }

    /// Element `i`'s linear entrance and exit progress at time `t` of a card lasting `end` seconds:
    /// the entrance rises 0→1 after the element's delay; the exit falls 1→0 towards the end, the last
    /// element leaving first. (`isStill(at:duration:rate:)` asks the same, so the two cannot disagree.)
    func progress(of i: Int, at t: Double, duration end: Double, rate: FrameRate) -> (entering: Double, leaving: Double) {
        let entering = phase(t - elements[i].delay, card.entrance)
        let exitDelay = Double(elements.count - 1 - i) * card.exit.cascade.seconds
        return (entering, phase(end - rate.frameDuration.seconds - exitDelay - t, card.exit))
    }

    /// The lower-third band's linear entrance and exit progress at time `t` of a card lasting `end` seconds.
    func bandProgress(at t: Double, duration end: Double, rate: FrameRate) -> (entering: Double, leaving: Double) {
        (phase(t, card.entrance), phase(end - rate.frameDuration.seconds - t, card.exit))
    }

    /// Linear progress 0…1 of an animation `elapsed` seconds after it starts (a step when it has no length).
    func phase(_ elapsed: Double, _ animation: TitleAnimation) -> Double {
        let duration = animation.duration.seconds
        if duration <= 0 || animation.style == .none { return elapsed >= 0 ? 1 : 0 }
        return min(max(elapsed / duration, 0), 1)
    }

    func drawBackground(in ctx: DrawingContext, frame: Frame) {
        let area = band.map { $0.insetBy(dx: -size.width * 0.02, dy: 0) } ?? ctx.bounds
        var alpha = 1.0
        if band != nil {
            // The band comes on and goes off with the text.
            let shown = bandProgress(at: frame.time, duration: frame.duration.seconds, rate: frame.rate)
            alpha = min(shown.entering, shown.leaving)
            alpha = card.entrance.easing(alpha)
            guard alpha > 0 else { return }
        }
        ctx.withSavedState {
            switch card.background {
            case .none: return
            case let .color(c):
                ctx.setFill(c.withAlpha(c.alpha * alpha))
                ctx.fillRect(area)
            case let .paint(p):
                ctx.withOpacity(alpha) { ctx.setFill(p); ctx.fillRect(area) }
            case let .image(image, fit):
                ctx.clip(to: area)
                ctx.draw(image, in: area, fit: fit, opacity: alpha)
            case let .imageFile(_, fit):
                guard let image = backgroundImage else { return }
                ctx.clip(to: area)
                ctx.draw(image, in: area, fit: fit, opacity: alpha)
            }
        }
    }

    /// Draws one text element at linear progress `p` (0 hidden, 1 in place) of `animation`.
    func draw(_ layout: TextLayout, _ e: Element, progress p: Double, animation: TitleAnimation, in ctx: DrawingContext) throws {
        // A slide over a distance is on screen at its start; every other animation shows nothing at 0.
        var startsVisible = false
        if case .slide(_, let distance?) = animation.style, distance > 0 { startsVisible = true }
        guard p > 0 || startsVisible else { return }
        let eased = animation.easing(p)
        if p >= 1 { layout.draw(in: ctx, at: e.origin); return }
        let center = e.bounds.center
        switch animation.style {
        case .none:
            layout.draw(in: ctx, at: e.origin)
        case .fade:
            ctx.withOpacity(min(max(eased, 0), 1)) { layout.draw(in: ctx, at: e.origin) }
        case let .slide(edge, distance):
            // Start just beyond the frame edge (or `distance` away, at 1080 lines) and travel to the resting place.
            var dx = 0.0, dy = 0.0
            if let distance {
                let d = max(0, distance) * size.height / 1080
                switch edge {
                case .left: dx = -d
                case .right: dx = d
                case .top: dy = -d
                case .bottom: dy = d
                }
            } else {
                switch edge {
                case .left: dx = -e.bounds.maxX
                case .right: dx = size.width - e.bounds.minX
                case .top: dy = -e.bounds.maxY
                case .bottom: dy = size.height - e.bounds.minY
                }
            }
            ctx.withSavedState {
                ctx.translate(x: dx * (1 - eased), y: dy * (1 - eased))
                layout.draw(in: ctx, at: e.origin)
            }
        case .pop:
            let s = max(0, eased)
            guard s > 0 else { return }
            ctx.withSavedState {
                ctx.translate(x: center.x, y: center.y)
                ctx.scale(x: s, y: s)
                ctx.translate(x: -center.x, y: -center.y)
                ctx.withOpacity(min(1, p * 3)) { layout.draw(in: ctx, at: e.origin) }
            }
        case .blur:
            let radius = (1 - min(max(eased, 0), 1)) * e.style.font.size * 0.25
            ctx.withOpacity(min(max(eased, 0), 1)) {
                ctx.withBlur(radius: radius) { layout.draw(in: ctx, at: e.origin) }
            }
        case .typewriter:
            // The first k characters, whole; the layout never reflows because the rest is clipped away.
            let units = layout.unitRects(.character)
            let shown = Int((Double(units.count) * min(max(eased, 0), 1)).rounded(.down))
            guard shown > 0 else { return }
            drawUnits(units.prefix(shown).map { ($0, 1.0, 0.0) }, layout, e, in: ctx)
        case .letters, .words:
            let units = layout.unitRects(animation.style == .letters ? .character : .word)
            guard !units.isEmpty else { return }
            // Each unit animates over `share` of the element's time; starts are spread evenly.
            let n = Double(units.count)
            let share = min(1, max(0.25, 3 / n))
            let rise = e.style.font.size * 0.35
            let parts = units.enumerated().map { i, rect -> (Rect, Double, Double) in
                let start = n > 1 ? Double(i) / (n - 1) * (1 - share) : 0
                let q = animation.easing(min(max((p - start) / share, 0), 1))
                return (rect, min(max(q, 0), 1), (1 - q) * rise)
            }
            drawUnits(parts, layout, e, in: ctx)
        }
    }

    /// Draws parts of a layout: for each unit (its logical rect, opacity and downward offset), the whole
    /// layout clipped to that unit. Shaping stays that of the whole text (Arabic letters keep their
    /// joined forms), which drawing letters one by one would break.
    ///
    /// A unit's clip spans its own line only (the first and last lines reach out to the ink above and
    /// below the text, for accents and descenders), so a unit of one line never uncovers the same
    /// columns of the other lines of wrapped text.
    func drawUnits(_ parts: [(Rect, Double, Double)], _ layout: TextLayout, _ e: Element, in ctx: DrawingContext) {
        let ink = layout.inkBounds
        let lines = layout.unitRects(.line)
        let reach = e.style.font.size * 0.5
        for (rect, opacity, offset) in parts where opacity > 0 {
            let line = lines.lastIndex { $0.minY <= rect.midY } ?? 0
            let top = line == 0 ? min(rect.minY, ink.minY) - reach : lines[line].minY
            let bottom = line == lines.count - 1 ? max(rect.maxY, ink.maxY) + reach : lines[line].maxY
            // Whole pixels, so neighbouring units meet without a half-covered seam.
            let left = (e.origin.x + rect.minX).rounded(), right = (e.origin.x + rect.maxX).rounded()
            let y0 = (e.origin.y + top).rounded(), y1 = (e.origin.y + bottom).rounded()
            let clip = Rect(x: left, y: y0, width: right - left, height: y1 - y0)
            ctx.withSavedState {
                ctx.translate(x: 0, y: offset)
                ctx.clip(to: clip)
                ctx.withOpacity(opacity) { layout.draw(in: ctx, at: e.origin) }
            }
        }
    }
}

import Foundation

extension DrawingContext {
    /// Draws `text` in `style` along `path`, its baseline on the path: glyphs follow the path's
    /// direction and bend with it (text on a circle, a wave, an arc).
    ///
    /// The text is shaped by Pango as one layout (ligatures, right-to-left text, joined Arabic), turned into
    /// glyph outlines (`TextLayout.path(at:)`), and every outline point is carried to the path: a point
    /// `x` pixels along the text's baseline and `y` pixels below it goes to the path's point `x` pixels
    /// along it, moved `y` pixels to the right of its direction of travel (for a path drawn left to
    /// right, below it). Where the text is longer than the path it runs straight on past the ends.
    ///
    /// `style.alignment` places the text along the path: `left` (and `justify`) starts it at the path's
    /// start, `center` centres it on the path's middle, `right` ends it at the path's end; `offset` moves it
    /// that many pixels further along (negative: back). The glyphs are filled with `style.color` and
    /// stroked with `style.outline` (under the fill, as `TextLayout` draws); colours from markup spans
    /// are not used (the outlines carry no colour), and a colour emoji comes out as the outline of its
    /// pixels. Lines after the first follow below it, parallel to the path. Throws for an unknown font.
    public func draw(_ text: String, along path: Path, style: TextStyle, offset: Double = 0) throws(MovieMakerError) {
        let layout = try TextLayout(text, style: style)
        let measure = PathMeasure(path)
        guard measure.total > 0, measure.total.isFinite, offset.isFinite else { return }
        let width = layout.logicalBounds.width
        let start: Double
        switch style.alignment {
        case .left, .justify: start = offset
        case .center: start = (measure.total - width) / 2 + offset
        case .right: start = measure.total - width + offset
        }
        // The outlines with the first baseline on y = 0 and the text's logical start at x = start.
        let flat = layout.path(at: Point(x: start - layout.logicalBounds.minX, y: -layout.firstBaseline))
            .flattened(tolerance: 0.05)
        let warped = Self.carry(flat, along: measure, step: max(0.5, style.font.size / 16))
        withSavedState {
            if let outline = style.outline, outline.width > 0, outline.color.alpha > 0 {
                setStroke(outline.color)
                lineWidth = outline.width
                lineJoin = .round
                stroke(warped)
            }
            if style.color.alpha > 0 {
                setFill(style.color)
                fill(warped)
            }
        }
        try checkStatus()
    }

    /// `flat` (moves, lines and closes) with every point carried onto `measure`'s path: x along it, y
    /// across it. Lines are cut into pieces of at most `step` pixels first, so long straight strokes bend.
    static func carry(_ flat: Path, along measure: PathMeasure, step: Double) -> Path {
        func place(_ p: Point) -> Point {
            let d = min(max(p.x, 0), measure.total)
            guard let at = measure.locate(d) else { return p }
            let segment = measure.subpaths[at.subpath].segments[at.segment]
            let direction = segment.direction(at: at.t) ?? PathVector(1, 0)
            let normal = PathVector(-direction.y, direction.x)
            return Point(pathVector: segment.point(at: at.t) + (p.x - d) * direction + p.y * normal)
        }
        var result = Path()
        var current: Point? = nil, subpathStart: Point? = nil
        func lineTo(_ p: Point) {
            if let from = current {
                let length = hypot(p.x - from.x, p.y - from.y)
                let pieces = max(1, Int((length / step).rounded(.up)))
                if pieces > 1 {
                    for k in 1..<pieces {
                        let f = Double(k) / Double(pieces)
                        result.line(to: place(Point(x: from.x + (p.x - from.x) * f, y: from.y + (p.y - from.y) * f)))
                    }
                }
            }
            result.line(to: place(p))
            current = p
        }
        for element in flat.elements {
            switch element {
            case let .move(p):
                result.move(to: place(p)); current = p; subpathStart = p
            case let .line(p):
                lineTo(p)
            case let .quadCurve(p, _), let .curve(p, _, _):
                lineTo(p)   // not in a flattened path; kept as a line
            case .closeSubpath:
                if let s = subpathStart { lineTo(s) }
                result.closeSubpath()
                current = subpathStart
            }
        }
        return result
    }
}

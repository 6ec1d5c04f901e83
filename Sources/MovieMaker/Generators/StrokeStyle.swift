import Foundation

/// How a path's outline is stroked: paint, width, caps, joins and dashes, as one value.
///
/// As data: `{"paint": …, "width": 4, "cap": "round", "join": "round", "dash": [8, 4]}`; every key may be
/// left out (the defaults of `init`).
public struct StrokeStyle: Hashable, Sendable {
    /// The paint the outline is drawn with.
    public var paint: Paint
    /// Line width in pixels.
    public var width: Double
    /// How open ends are drawn.
    public var cap: LineCap
    /// How corners are drawn.
    public var join: LineJoin
    /// Dash lengths (on, off, on, …); empty for a solid line.
    public var dash: [Double]

    /// A stroke style; the default is a 4-pixel white line with round caps and joins.
    public init(_ paint: Paint = .color(.white), width: Double = 4, cap: LineCap = .round, join: LineJoin = .round, dash: [Double] = []) {
        self.paint = paint; self.width = width; self.cap = cap; self.join = join; self.dash = dash
    }
    /// A solid stroke in one colour.
    public init(_ color: Color, width: Double = 4, cap: LineCap = .round, join: LineJoin = .round) {
        self.init(.color(color), width: width, cap: cap, join: join)
    }
}

extension StrokeStyle: Codable {
    private enum CodingKeys: String, CodingKey { case paint, width, cap, join, dash }

    /// Reads the fields given, the rest as `init()` sets them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(.paint, or: .color(.white)), width: try c.decode(.width, or: 4), cap: try c.decode(.cap, or: .round),
                  join: try c.decode(.join, or: .round), dash: try c.decode(.dash, or: []))
    }

    /// Writes every field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(paint, forKey: .paint)
        try c.encode(width, forKey: .width)
        try c.encode(cap, forKey: .cap)
        try c.encode(join, forKey: .join)
        try c.encode(dash, forKey: .dash)
    }
}

extension DrawingContext {
    /// Strokes `path` with `style` (the context's own stroke settings are left unchanged).
    public func stroke(_ path: Path, style: StrokeStyle) {
        withSavedState {
            setStroke(style.paint)
            lineWidth = style.width
            lineCap = style.cap
            lineJoin = style.join
            setLineDash(style.dash)
            stroke(path)
        }
    }
}

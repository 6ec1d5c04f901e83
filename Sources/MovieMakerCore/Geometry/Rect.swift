import Foundation

/// An axis-aligned rectangle; `{"origin": {"x": 0, "y": 0}, "size": {"width": 1, "height": 1}}` as data (or,
/// when decoding, the shorter `{"x": 0, "y": 0, "width": 1, "height": 1}`).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height.
    public var size: Size
    /// Creates a rectangle from its origin and size.
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// Creates a rectangle from its left, top, width and height.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    /// Left edge.
    public var minX: Double { origin.x }
    /// Top edge.
    public var minY: Double { origin.y }
    /// Right edge.
    public var maxX: Double { origin.x + size.width }
    /// Bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// Horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// Vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// Width.
    public var width: Double { size.width }
    /// Height.
    public var height: Double { size.height }
    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }
    /// This rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    /// A readable form.
    public var description: String { "(\(minX), \(minY), \(width)×\(height))" }
}

extension Rect: Codable {
    private enum CodingKeys: String, CodingKey { case origin, size, x, y, width, height }

    /// Reads `{"origin": {…}, "size": {…}}` or `{"x": …, "y": …, "width": …, "height": …}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.origin) || c.contains(.size) {
            self.init(origin: try c.decode(Point.self, forKey: .origin), size: try c.decode(Size.self, forKey: .size))
        } else {
            self.init(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y),
                      width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
        }
    }

    /// Writes `{"origin": {"x": …, "y": …}, "size": {"width": …, "height": …}}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(origin, forKey: .origin)
        try c.encode(size, forKey: .size)
    }
}

import Foundation

/// A point in drawing coordinates (pixels, origin at the top left, y growing downwards); `{"x": 10, "y": 20}` as data.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal coordinate in pixels.
    public var x: Double
    /// Vertical coordinate in pixels, growing downwards.
    public var y: Double
    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin (0, 0).
    public static let zero = Point(x: 0, y: 0)
    /// A readable form, e.g. `(10.0, 20.0)`.
    public var description: String { "(\(x), \(y))" }
}

import Foundation

/// A width and a height in pixels; `{"width": 1920, "height": 1080}` as data.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Double
    /// Height in pixels.
    public var height: Double
    /// Creates a size.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// A readable form, e.g. `1920×1080`.
    public var description: String { "\(width)×\(height)" }
}

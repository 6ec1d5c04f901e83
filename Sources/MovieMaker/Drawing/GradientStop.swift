internal import CCairo
import Foundation

/// A colour position in a gradient: `location` 0…1 along it; `{"location": 0.5, "color": "#ff8000"}` as data.
public struct GradientStop: Hashable, Sendable, Codable {
    /// Where the colour sits, 0 at the start … 1 at the end.
    public var location: Double
    /// The colour there.
    public var color: Color
    /// Creates a stop.
    public init(_ location: Double, _ color: Color) { self.location = location; self.color = color }
}

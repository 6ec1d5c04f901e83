internal import CPango
import Foundation

/// A stroke around each glyph; `{"color": "#000000", "width": 2}` as data.
public struct TextOutline: Sendable, Hashable, Codable {
    /// The stroke's colour.
    public var color: Color
    /// The stroke's full width in pixels, centred on the glyph edges. It is drawn under the fill, so
    /// half of it shows outside each glyph and the glyph keeps its fill colour.
    public var width: Double
    /// Creates an outline.
    public init(color: Color, width: Double) { self.color = color; self.width = width }
}

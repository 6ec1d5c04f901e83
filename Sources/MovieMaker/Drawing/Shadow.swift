internal import CCairo
import Foundation

/// A drop shadow: the alpha of what is drawn, blurred, tinted and moved.
///
/// Like Core Graphics' and the HTML canvas's shadows, `offset` and `blur` are in device pixels: the
/// current transform (scale, rotation) does not change them, so a rotated shape's shadow still falls
/// the same way. `blur` is a CSS blur radius: the shadow is blurred with a Gaussian of standard
/// deviation σ = blur / 2 (approximated by three box blurs), so it fades out over about `blur` pixels
/// on each side of the shape's edge.
///
/// As data: `{"offset": {"x": 0, "y": 4}, "blur": 8, "color": "#00000080"}` (`color` may be left out).
public struct Shadow: Hashable, Sendable {
    /// How far the shadow falls from the shape, in device pixels (y grows downwards).
    public var offset: Point
    /// Blur radius in device pixels (σ = blur / 2); 0 gives a hard-edged copy. At most 500.
    public var blur: Double
    /// The shadow's colour; its alpha scales the shadow's opacity.
    public var color: Color

    /// A shadow `offset` away, blurred by `blur` pixels, in `color` (default black at 50 %).
    public init(offset: Point, blur: Double, color: Color = Color.black.withAlpha(0.5)) {
        self.offset = offset; self.blur = blur; self.color = color
    }
}

extension Shadow: Codable {
    private enum CodingKeys: String, CodingKey { case offset, blur, color }

    /// Reads `{"offset": …, "blur": …, "color": …}`; `color` defaults to black at 50 %.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(offset: try c.decode(Point.self, forKey: .offset), blur: try c.decode(Double.self, forKey: .blur),
                  color: try c.decode(.color, or: Color.black.withAlpha(0.5)))
    }

    /// Writes all three fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(offset, forKey: .offset)
        try c.encode(blur, forKey: .blur)
        try c.encode(color, forKey: .color)
    }
}

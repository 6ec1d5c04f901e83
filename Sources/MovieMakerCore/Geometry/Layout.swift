import Foundation

/// Where a rectangle sits inside another (`Rect.aligned(in:alignment:)`): a horizontal and a vertical
/// fraction of the free space, 0 at the left or top, 0.5 centred, 1 at the right or bottom.
///
/// The nine named places (`topLeft` … `bottomRight`) cover most needs; any fractions work
/// (`Alignment(horizontal: 0.25, vertical: 1)`). The sides are physical: `left` is left also for
/// right-to-left text.
public struct Alignment: Sendable, Hashable, Codable {
    /// Where the rectangle sits across: 0 at the left edge, 0.5 centred, 1 at the right edge.
    public var horizontal: Double
    /// Where the rectangle sits down: 0 at the top edge, 0.5 centred, 1 at the bottom edge.
    public var vertical: Double

    /// An alignment at `horizontal` and `vertical` fractions of the free space (0…1 keeps the
    /// rectangle inside; other values place it partly outside).
    public init(horizontal: Double, vertical: Double) { self.horizontal = horizontal; self.vertical = vertical }

    /// At the top-left corner.
    public static let topLeft = Alignment(horizontal: 0, vertical: 0)
    /// Centred along the top edge.
    public static let top = Alignment(horizontal: 0.5, vertical: 0)
    /// At the top-right corner.
    public static let topRight = Alignment(horizontal: 1, vertical: 0)
    /// Centred along the left edge.
    public static let left = Alignment(horizontal: 0, vertical: 0.5)
    /// Centred.
    public static let center = Alignment(horizontal: 0.5, vertical: 0.5)
    /// Centred along the right edge.
    public static let right = Alignment(horizontal: 1, vertical: 0.5)
    /// At the bottom-left corner.
    public static let bottomLeft = Alignment(horizontal: 0, vertical: 1)
    /// Centred along the bottom edge.
    public static let bottom = Alignment(horizontal: 0.5, vertical: 1)
    /// At the bottom-right corner.
    public static let bottomRight = Alignment(horizontal: 1, vertical: 1)
}

extension Rect {
    /// A rectangle of this one's size placed inside `container` by `alignment` (centred by default):
    /// `logo.aligned(in: Rect.titleSafe(in: size), alignment: .bottomRight)` puts a logo in the
    /// bottom-right corner of the title-safe area. A rectangle larger than the container sticks out
    /// on both sides as the fractions say (centred: equally).
    public func aligned(in container: Rect, alignment: Alignment = .center) -> Rect {
        Rect(x: container.minX + (container.width - width) * alignment.horizontal,
             y: container.minY + (container.height - height) * alignment.vertical,
             width: width, height: height)
    }

    /// The action-safe area of a frame of `size`: the centred 93 % of its width and of its height
    /// (3.5 % margins on every side), inside which anything meant to be seen should happen.
    ///
    /// These are the safe areas of SMPTE ST 2046-1:2009 ("Safe Areas for 16:9 Television Production")
    /// and EBU R 95 ("Safe areas for 16:9 television production"): action-safe 93 %, title-safe
    /// (graphics-safe) 90 % of the frame, measured on the width and on the height. (`TitleCard` and
    /// subtitles keep the older, wider 10 % margins by default: `TitleCard.safeMargin`.)
    public static func actionSafe(in size: Size) -> Rect { centered(fraction: 0.93, of: size) }

    /// The title-safe (graphics-safe) area of a frame of `size`: the centred 90 % of its width and of
    /// its height (5 % margins on every side), inside which text and graphics should stay, per
    /// SMPTE ST 2046-1:2009 and EBU R 95 (see `actionSafe(in:)`).
    public static func titleSafe(in size: Size) -> Rect { centered(fraction: 0.90, of: size) }

    /// The centred `fraction` of `size`, on both axes.
    private static func centered(fraction: Double, of size: Size) -> Rect {
        let w = size.width * fraction, h = size.height * fraction
        return Rect(x: (size.width - w) / 2, y: (size.height - h) / 2, width: w, height: h)
    }
}

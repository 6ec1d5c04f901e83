internal import CCairo
import Foundation

/// How an image is sized into a rectangle by `draw(_:in:fit:opacity:anchor:)` (`"fit"`, `"fill"`,
/// `"stretch"`, `"center"` as data).
public enum ImageFit: String, Sendable, Hashable, CaseIterable, Codable {
    /// As large as fits inside the rectangle, aspect kept (letterboxed: the rest stays unpainted).
    case fit
    /// Covers the whole rectangle, aspect kept; what sticks out is cropped at the rectangle.
    case fill
    /// Stretched to the rectangle exactly (aspect not kept).
    case stretch
    /// At its natural size (1 image pixel = 1 unit), positioned by the anchor and cropped at the rectangle.
    case center
}

internal import CPango
import Foundation

/// Where text sits vertically in the rectangle given to `DrawingContext.draw(_:in:style:verticalAlignment:)`
/// (`"top"`, `"center"`, `"bottom"` as data).
public enum TextVerticalAlignment: String, Sendable, Hashable, Codable {
    /// At the top.
    case top
    /// Centred.
    case center
    /// At the bottom.
    case bottom
}

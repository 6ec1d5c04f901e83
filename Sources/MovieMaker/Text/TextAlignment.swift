internal import CPango
import Foundation

/// Where the lines of a paragraph sit horizontally within the layout's width.
///
/// `left` and `right` are physical sides, also for right-to-left text (decided by the first line's direction).
/// As data: `"left"`, `"center"`, `"right"`, `"justify"`.
public enum TextAlignment: String, Sendable, Hashable, Codable {
    /// Lines start at the left edge.
    case left
    /// Lines are centred.
    case center
    /// Lines end at the right edge.
    case right
    /// Lines are stretched to the full width, except each paragraph's last line, which sits at the reading start.
    case justify
}

import Foundation

/// A side of the frame, for slide animations (`"top"`, `"bottom"`, `"left"`, `"right"` as data).
public enum Edge: String, Sendable, Hashable, CaseIterable, Codable {
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom
    /// The left edge.
    case left
    /// The right edge.
    case right
}

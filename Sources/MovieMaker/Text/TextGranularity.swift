internal import CPango
import Foundation

/// The pieces `TextLayout.unitRects(_:)` splits text into.
public enum TextGranularity: Sendable {
    /// Grapheme clusters (what a reader sees as one character; "é", "🙂", "👍🏽" are one each), spaces skipped.
    case character
    /// Runs of text between line-break opportunities, trailing spaces dropped: words with their punctuation; each CJK character on its own.
    case word
    /// Laid-out lines, empty ones included.
    case line
}

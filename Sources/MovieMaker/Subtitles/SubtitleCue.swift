import Foundation

/// One subtitle: when it shows, what it says, and where (WebVTT cue settings).
///
/// A cue is visible on frame k of a clip at rate r iff `start <= k/r < end` (both exact `Time`s, never
/// rounded through `Double`). Its text keeps its line breaks; `<i>`, `<b>` and `<u>` survive into
/// `markup` (Pango markup, everything else escaped), while other tags (`<font>`, `<c.class>`,
/// `<v Speaker>`, `<ruby>`, `<lang>`, karaoke timestamps) are dropped and HTML entities decoded.
///
/// As data: `{"start": "1/2", "end": 2, "text": "Hello", "markup": "<i>Hello</i>", "placement": { … }, "line": 3}`.
public struct SubtitleCue: Sendable, Hashable, Codable {
    /// When the cue appears (inclusive).
    public var start: Time
    /// When the cue disappears (exclusive).
    public var end: Time
    /// The text without tags, entities decoded, lines separated by `\n`.
    public var text: String
    /// The text as Pango markup: `<i>`, `<b>`, `<u>` kept (always balanced), other text escaped.
    public var markup: String
    /// Where the cue is drawn (WebVTT `line`, `position`, `align`, `size`; SRT `{\an8}`); `.init()` is
    /// the style's default, centred at the bottom.
    public var placement: SubtitlePlacement
    /// The 1-based line of the file where the cue's timing line is (0 for a cue made in code).
    public var line: Int

    /// A cue from `start` to `end` showing `markup` (Pango markup limited to `<i>`, `<b>`, `<u>`; escape
    /// `&`, `<` and `>` in other text). Use `SubtitleCue(start:end:plainText:)` for text without markup.
    public init(start: Time, end: Time, markup: String, placement: SubtitlePlacement = .init(), line: Int = 0) {
        self.start = start; self.end = end; self.markup = markup; self.placement = placement; self.line = line
        self.text = CueText.plain(fromMarkup: markup)
    }

    /// A cue from `start` to `end` showing `plainText` as it is (no tags, no entities).
    public init(start: Time, end: Time, plainText: String, placement: SubtitlePlacement = .init(), line: Int = 0) {
        self.start = start; self.end = end; self.text = plainText; self.placement = placement; self.line = line
        self.markup = CueText.escape(plainText)
    }

    /// Whether the cue shows at `time`: `start <= time < end`.
    package func isActive(at time: Time) -> Bool { start <= time && time < end }
}

/// Where a cue sits on the frame: the WebVTT cue settings MovieMaker honours. Unset values use the
/// subtitle style's defaults (bottom of the safe area, centred, as wide as the safe area).
public struct SubtitlePlacement: Sendable, Hashable, Codable {
    /// A vertical position (WebVTT `line`).
    public enum Line: Sendable, Hashable, Codable {
        /// A percentage of the frame's height (0 top, 100 bottom), where the cue box's `lineAlign` edge goes.
        case percent(Double)
        /// A line number in lines of the cue's font: 0 is the top line of the safe area, 1 the next; −1
        /// is the bottom line, −2 the one above it.
        case number(Int)
    }
    /// Which edge of the cue box a `line` or `position` places (WebVTT `line:…,start|center|end`).
    public enum Anchor: String, Sendable, Hashable, Codable {
        /// The top (for `line`) or left (for `position`) edge.
        case start
        /// The middle.
        case center
        /// The bottom (for `line`) or right (for `position`) edge.
        case end
    }
    /// Horizontal alignment of the lines in the cue box (WebVTT `align`).
    public enum Alignment: String, Sendable, Hashable, Codable {
        /// At the reading start: left for left-to-right text, right for right-to-left text.
        case start
        /// Centred (WebVTT's default).
        case center
        /// At the reading end: right for left-to-right text, left for right-to-left text.
        case end
        /// At the left edge.
        case left
        /// At the right edge.
        case right
    }

    /// The vertical position; nil for the bottom of the safe area.
    public var line: Line?
    /// Which edge of the box `line` places, for a percentage (default: start, the top).
    public var lineAnchor: Anchor
    /// The horizontal position of the box as a percentage of the frame's width; nil to centre it.
    public var position: Double?
    /// Which edge of the box `position` places; nil follows `alignment` (left edge for start/left,
    /// right edge for end/right, middle for center).
    public var positionAnchor: Anchor?
    /// How the lines sit in the box.
    public var alignment: Alignment
    /// The box's width as a percentage of the frame's width; nil for the whole safe area (the box is
    /// never wider than the safe area).
    public var size: Double?

    /// A placement; every setting defaults to the style's own (bottom, centred, full safe width).
    public init(line: Line? = nil, lineAnchor: Anchor = .start, position: Double? = nil, positionAnchor: Anchor? = nil,
                alignment: Alignment = .center, size: Double? = nil) {
        self.line = line; self.lineAnchor = lineAnchor; self.position = position; self.positionAnchor = positionAnchor
        self.alignment = alignment; self.size = size
    }
}

import Foundation

/// How word-by-word captions look and page: the short-video style (a few bold words at a time, the
/// spoken one marked), drawn by `Clip.captions(_:style:duration:)`.
///
/// Sizes are fractions of the frame (the font size of its height, the width of its width), so one
/// style suits every resolution. Pages are made from the transcript's words: at most
/// `wordsPerPage` words and `maximumLines` lines of `maximumWidth`, a new page after a sentence's end
/// (`.`, `!`, `?`, `…` and their CJK forms) and after a pause longer than `pauseBreak`. A page shows
/// from its first word's start until the next page starts, or `hold` after its last word ends if
/// that comes first.
public struct CaptionStyle: Sendable, Hashable, Codable {
    /// How the spoken word is shown (`"style"` in a description file; the names are the interface).
    public enum Animation: String, Sendable, Hashable, CaseIterable, Codable {
        /// The page shows whole; the spoken word is in `highlightColor` (on `highlightBackground` when set).
        case highlight
        /// The page shows whole; `highlightColor` sweeps through each word over the time it is spoken.
        case karaoke
        /// Each word scales in as it starts and stays; the spoken word is in `highlightColor`.
        case pop
        /// Each word appears as it is spoken and stays.
        case reveal
        /// The page shows whole; the spoken word jumps up and comes back, in `highlightColor`.
        case bounce
    }

    /// Where a page sits.
    public enum Position: Sendable, Hashable, Codable {
        /// Near the bottom of the title-safe area (the default).
        case bottom
        /// Centred in the frame.
        case center
        /// Near the top of the title-safe area.
        case top
        /// The page's centre at this point, in fractions of the frame's width and height (`(0.5, 0.7)`),
        /// moved inside the title-safe area when it would leave it.
        case point(Point)
    }

    /// How the spoken word is shown (default `highlight`).
    public var animation: Animation
    /// The font family (default DejaVu Sans; any installed family, fallback fonts for other scripts).
    public var fontFamily: String
    /// The font size as a fraction of the frame's height (default 0.065: 70 px at 1080 lines).
    public var fontSize: Double
    /// The font weight (default bold).
    public var weight: FontWeight
    /// The words' colour (default white).
    public var color: Color
    /// The spoken word's colour (default a warm yellow, `#FFD60A`).
    public var highlightColor: Color
    /// A rounded box behind the spoken word (`highlight` and `bounce`), or nil for none (the default).
    public var highlightBackground: Color?
    /// The outline around every glyph, or nil for none (default black).
    public var outlineColor: Color?
    /// The outline's width as a fraction of the font size (default 0.14).
    public var outlineWidth: Double
    /// A soft drop shadow under the words, or nil for none (the default).
    public var shadowColor: Color?
    /// A rounded box behind the whole page, or nil for none (the default).
    public var background: Color?
    /// Whether the words are shown in capitals (default false).
    public var uppercase: Bool
    /// Where pages sit (default `bottom`).
    public var position: Position
    /// The most lines a page takes (default 2).
    public var maximumLines: Int
    /// The most words on a page (default 6).
    public var wordsPerPage: Int
    /// The widest a line may be, as a fraction of the frame's width (default 0.8; never beyond the
    /// title-safe area). A word wider than that is drawn smaller rather than cut.
    public var maximumWidth: Double
    /// A silence longer than this between two words starts a new page (default 0.6 s).
    public var pauseBreak: Time
    /// How long a page stays after its last word when the next one is not yet due (default 0.5 s).
    public var hold: Time
    /// The language of the text (a BCP 47 tag such as `"ja"`), for shaping and line breaking; nil:
    /// guessed from the text.
    public var language: String?

    /// A style; every parameter has the default the property documents.
    public init(_ animation: Animation = .highlight, fontFamily: String = "DejaVu Sans", fontSize: Double = 0.065,
                weight: FontWeight = .bold, color: Color = .white, highlightColor: Color = Color(hex: 0xFFD60A),
                highlightBackground: Color? = nil, outlineColor: Color? = .black, outlineWidth: Double = 0.14,
                shadowColor: Color? = nil, background: Color? = nil, uppercase: Bool = false, position: Position = .bottom,
                maximumLines: Int = 2, wordsPerPage: Int = 6, maximumWidth: Double = 0.8,
                pauseBreak: Time = Time(value: 3, timescale: 5), hold: Time = Time(value: 1, timescale: 2), language: String? = nil) {
        self.animation = animation; self.fontFamily = fontFamily; self.fontSize = fontSize; self.weight = weight
        self.color = color; self.highlightColor = highlightColor; self.highlightBackground = highlightBackground
        self.outlineColor = outlineColor; self.outlineWidth = outlineWidth; self.shadowColor = shadowColor
        self.background = background; self.uppercase = uppercase; self.position = position
        self.maximumLines = maximumLines; self.wordsPerPage = wordsPerPage; self.maximumWidth = maximumWidth
        self.pauseBreak = pauseBreak; self.hold = hold; self.language = language
    }

    /// Checks the numbers: sizes above zero and at most the frame, counts of at least one, times not negative.
    func validate() throws(MovieMakerError) {
        guard fontSize.isFinite, fontSize > 0, fontSize <= 1 else {
            throw .invalidSetting(.fontSize, value: "\(fontSize)", expected: "a fraction of the frame's height above 0 and at most 1 (0.065 is 70 px at 1080 lines)")
        }
        guard outlineWidth.isFinite, outlineWidth >= 0, outlineWidth <= 1 else {
            throw .invalidSetting(.outlineWidth, value: "\(outlineWidth)", expected: "a fraction of the font size from 0 to 1")
        }
        guard maximumWidth.isFinite, maximumWidth > 0, maximumWidth <= 1 else {
            throw .invalidSetting(.captionWidth, value: "\(maximumWidth)", expected: "a fraction of the frame's width above 0 and at most 1")
        }
        guard maximumLines >= 1, maximumLines <= 20 else {
            throw .invalidSetting(.captionLines, value: "\(maximumLines)", expected: "1 to 20 lines")
        }
        guard wordsPerPage >= 1, wordsPerPage <= 100 else {
            throw .invalidSetting(.captionWordsPerPage, value: "\(wordsPerPage)", expected: "1 to 100 words a page")
        }
        guard pauseBreak >= .zero, hold >= .zero else {
            throw .invalidSetting(.captionTiming, value: "\(pauseBreak), \(hold)", expected: "pause and hold times of 0 s or more")
        }
        if case let .point(p) = position, !(p.x.isFinite && p.y.isFinite && (0...1).contains(p.x) && (0...1).contains(p.y)) {
            throw .invalidSetting(.captionPosition, value: "\(p)", expected: "fractions of the frame from 0 to 1")
        }
    }
}

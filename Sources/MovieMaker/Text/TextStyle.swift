internal import CPango
import Foundation

/// How text looks: font, colour, alignment, spacing, optional outline, and whether it is Pango markup.
///
/// As data, an object keyed by the property names; only `font` is required (the rest default as in `init`).
public struct TextStyle: Sendable, Hashable {
    /// The font.
    public var font: TextFont
    /// The fill colour (markup `foreground` spans override it); `.clear` draws only the outline. Black
    /// unless given: text drawn with a style takes this colour, not the context's `setFill` colour.
    public var color: Color
    /// Horizontal placement of lines.
    public var alignment: TextAlignment
    /// Distance between baselines as a multiple of the font's normal line height (1 = normal).
    public var lineSpacing: Double
    /// Extra space between letters in pixels (may be negative).
    public var letterSpacing: Double
    /// A stroke drawn under the fill, so half its width shows outside each glyph (or alone, when
    /// `color` is clear); nil for none.
    public var outline: TextOutline?
    /// True when the text is Pango markup (`<b>`, `<i>`, `<span foreground="#f80" size="x-large">` …).
    public var isMarkup: Bool
    /// A BCP 47 language tag (e.g. "ja", "zh-Hans", "ar") that picks locale-specific glyphs and fonts; nil uses the process's locale.
    public var language: String?

    /// Creates a style.
    public init(font: TextFont, color: Color = .black, alignment: TextAlignment = .left, lineSpacing: Double = 1,
                letterSpacing: Double = 0, outline: TextOutline? = nil, isMarkup: Bool = false, language: String? = nil) {
        self.font = font; self.color = color; self.alignment = alignment; self.lineSpacing = lineSpacing
        self.letterSpacing = letterSpacing; self.outline = outline; self.isMarkup = isMarkup; self.language = language
    }

    /// The same style with another font size.
    package func withFontSize(_ size: Double) -> TextStyle { var s = self; s.font.size = size; return s }
}

extension TextStyle: Codable {
    private enum CodingKeys: String, CodingKey {
        case font, color, alignment, lineSpacing, letterSpacing, outline, isMarkup, language
    }

    /// Reads a style; every key but `font` may be left out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(font: try c.decode(TextFont.self, forKey: .font), color: try c.decode(.color, or: .black),
                  alignment: try c.decode(.alignment, or: .left), lineSpacing: try c.decode(.lineSpacing, or: 1),
                  letterSpacing: try c.decode(.letterSpacing, or: 0), outline: try c.decodeIfPresent(TextOutline.self, forKey: .outline),
                  isMarkup: try c.decode(.isMarkup, or: false), language: try c.decodeIfPresent(String.self, forKey: .language))
    }

    /// Writes every field (`outline` and `language` only when set).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(font, forKey: .font)
        try c.encode(color, forKey: .color)
        try c.encode(alignment, forKey: .alignment)
        try c.encode(lineSpacing, forKey: .lineSpacing)
        try c.encode(letterSpacing, forKey: .letterSpacing)
        try c.encodeIfPresent(outline, forKey: .outline)
        try c.encode(isMarkup, forKey: .isMarkup)
        try c.encodeIfPresent(language, forKey: .language)
    }
}

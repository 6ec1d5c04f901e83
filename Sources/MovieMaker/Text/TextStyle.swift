import CPango
import Foundation

/// How heavy a font's strokes are (CSS weights 100…900); as data its name (`"bold"`), or when decoding
/// also its number (700).
public enum FontWeight: String, Sendable, Hashable, CaseIterable, Codable {
    /// 100.
    case thin
    /// 300.
    case light
    /// 400, the normal weight.
    case regular
    /// 500.
    case medium
    /// 600.
    case semibold
    /// 700.
    case bold
    /// 900.
    case heavy

    /// The CSS / OpenType weight number, 100…900.
    public var value: Int {
        switch self {
        case .thin: 100
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 900
        }
    }
    var pango: PangoWeight { PangoWeight(rawValue: UInt32(value)) }

    /// The nearest weight to a fontconfig `FC_WEIGHT` value (0 thin … 80 regular … 200 bold … 210 black).
    init(fontconfigWeight w: Int) {
        switch w {
        case ..<25: self = .thin
        case ..<65: self = .light
        case ..<90: self = .regular
        case ..<140: self = .medium
        case ..<190: self = .semibold
        case ..<203: self = .bold
        default: self = .heavy
        }
    }
}

/// Upright or slanted letters (`"normal"`, `"italic"`, `"oblique"` as data).
public enum FontSlant: String, Sendable, Hashable, Codable {
    /// Upright.
    case normal
    /// The family's italic design.
    case italic
    /// Upright letters slanted (or the family's oblique design).
    case oblique

    var pango: PangoStyle {
        switch self {
        case .normal: PANGO_STYLE_NORMAL
        case .italic: PANGO_STYLE_ITALIC
        case .oblique: PANGO_STYLE_OBLIQUE
        }
    }
}

/// A font request: an installed family (looked up by fontconfig), a size in pixels, a weight and a slant.
///
/// The family must be installed (see `FontLibrary`); laying out text with an unknown family throws
/// `.fontNotFound` instead of silently using another font. Characters the family lacks (emoji, CJK
/// inside Latin text …) are still drawn with fontconfig's fallback fonts.
///
/// As data: `{"family": "DejaVu Sans", "size": 40, "weight": "bold", "slant": "italic"}`, and `"file"` (a
/// path) for a font made by `file(_:size:weight:slant:)`, which is registered again when decoded.
public struct TextFont: Sendable, Hashable {
    /// Family name, e.g. "DejaVu Sans", a generic name ("sans", "serif", "monospace"), or a comma-separated list.
    public var family: String
    /// The em size in pixels (independent of any resolution setting).
    public var size: Double
    /// Stroke weight.
    public var weight: FontWeight
    /// Upright or slanted.
    public var slant: FontSlant
    /// The font file `family` was registered from, for a font made by `file(_:size:weight:slant:)`
    /// (kept so the font can be written as data and registered again when read back); nil for an
    /// installed family.
    public var file: URL?

    /// Creates a font request.
    public init(family: String = "DejaVu Sans", size: Double, weight: FontWeight = .regular, slant: FontSlant = .normal) {
        self.family = family; self.size = size; self.weight = weight; self.slant = slant
    }

    /// Registers the font file at `url` with fontconfig (once per path) and refers to its family,
    /// with the file's own weight and slant unless given; throws `.fontUnreadable` for a missing or unreadable file.
    public static func file(_ url: URL, size: Double, weight: FontWeight? = nil, slant: FontSlant? = nil) throws(MovieMakerError) -> TextFont {
        let font = try FontLibrary.register(path: url.path)
        var result = TextFont(family: font.family, size: size, weight: weight ?? font.weight, slant: slant ?? font.slant)
        result.file = url
        return result
    }

    /// The same font at another size.
    public func withSize(_ size: Double) -> TextFont { var f = self; f.size = size; return f }

    /// The family names in `family` (split at commas, trimmed, empty ones dropped).
    var familyNames: [String] {
        family.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

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

/// A stroke around each glyph; `{"color": "#000000", "width": 2}` as data.
public struct TextOutline: Sendable, Hashable, Codable {
    /// The stroke's colour.
    public var color: Color
    /// The stroke's full width in pixels, centred on the glyph edges.
    public var width: Double
    /// Creates an outline.
    public init(color: Color, width: Double) { self.color = color; self.width = width }
}

/// How text looks: font, colour, alignment, spacing, optional outline, and whether it is Pango markup.
///
/// As data, an object keyed by the property names; only `font` is required (the rest default as in `init`).
public struct TextStyle: Sendable, Hashable {
    /// The font.
    public var font: TextFont
    /// The fill colour (markup `foreground` spans override it); `.clear` draws only the outline.
    public var color: Color
    /// Horizontal placement of lines.
    public var alignment: TextAlignment
    /// Distance between baselines as a multiple of the font's normal line height (1 = normal).
    public var lineSpacing: Double
    /// Extra space between letters in pixels (may be negative).
    public var letterSpacing: Double
    /// A stroke drawn over the fill (or alone, when `color` is clear); nil for none.
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
    public func withFontSize(_ size: Double) -> TextStyle { var s = self; s.font.size = size; return s }
}

extension FontWeight {
    /// Reads a weight's name (`"bold"`) or its CSS number (100, 300, 400, 500, 600, 700 or 900).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let name = c.decodeStringIfPossible(), let weight = FontWeight(rawValue: name) {
            self = weight
        } else if let number = try? c.decode(Int.self), let weight = FontWeight.allCases.first(where: { $0.value == number }) {
            self = weight
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription:
                "unknown font weight: expected one of \(FontWeight.allCases.map(\.rawValue).joined(separator: ", ")) or a number 100, 300, 400, 500, 600, 700, 900")
        }
    }
}

extension TextFont: Codable {
    private enum CodingKeys: String, CodingKey { case family, size, weight, slant, file }

    /// Reads a font request (`size` is required; `family` defaults to DejaVu Sans, `weight` to regular,
    /// `slant` to normal). With `file`, the file is registered (throwing if it cannot be read) and its
    /// family used; `weight` and `slant` then default to the file's own.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let size = try c.decode(Double.self, forKey: .size)
        if let file = try c.decodeIfPresent(FileLocation.self, forKey: .file) {
            let weight = try c.decodeIfPresent(FontWeight.self, forKey: .weight)
            let slant = try c.decodeIfPresent(FontSlant.self, forKey: .slant)
            self = try decodingErrors(at: c.codingPath + [CodingKeys.file]) {
                try TextFont.file(file.url, size: size, weight: weight, slant: slant)
            }
            return
        }
        self.init(family: try c.decode(.family, or: "DejaVu Sans"), size: size, weight: try c.decode(.weight, or: .regular),
                  slant: try c.decode(.slant, or: .normal))
    }

    /// Writes every field (`file` only when there is one).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(family, forKey: .family)
        try c.encode(size, forKey: .size)
        try c.encode(weight, forKey: .weight)
        try c.encode(slant, forKey: .slant)
        try c.encodeIfPresent(file.map(FileLocation.init), forKey: .file)
    }
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

/// The pieces `TextLayout.unitRects(_:)` splits text into.
public enum TextGranularity: Sendable {
    /// Grapheme clusters (what a reader sees as one character; "é", "🙂", "👍🏽" are one each), spaces skipped.
    case character
    /// Runs of text between line-break opportunities, trailing spaces dropped: words with their punctuation; each CJK character on its own.
    case word
    /// Laid-out lines, empty ones included.
    case line
}

import Foundation

/// How burned-in subtitles look: font, size, colour, an outline or a box behind the text, and the
/// safe area they stay in.
///
/// Sizes are relative to the frame, so one style suits every resolution: the font size is a fraction
/// of the frame's height, the outline width, box padding and corner radius fractions of the font size.
/// By default cues are white DejaVu Sans at 5% of the frame height with a black outline, centred at the
/// bottom of the title-safe area — the inner 80% of the width and of the height (10% margins on every
/// side, as broadcast title-safe and `TitleCard` use). Lines wrap to fit the safe area (or
/// `maxLineWidth`); a cue still too tall or too wide is drawn smaller until it fits, and nothing is
/// ever drawn outside the safe area (the drawing is clipped to it).
///
/// As data: `{"fontFamily": "DejaVu Sans", "size": 0.05, "color": "#ffffff", "background": {"outline": {"color": "#000000", "width": 0.12}}}`;
/// every key may be left out.
public struct SubtitleStyle: Sendable, Hashable, Codable {
    /// What makes the text readable over any picture.
    public enum Background: Sendable, Hashable, Codable {
        /// A stroke around every glyph, drawn under the fill; `width` is its full width as a fraction of
        /// the font size (0.12: 6.5 px for 54 px text).
        case outline(color: Color, width: Double)
        /// A rounded rectangle behind the cue's lines (use a colour with alpha for a translucent box);
        /// `padding` and `cornerRadius` are fractions of the font size.
        case box(color: Color, padding: Double, cornerRadius: Double)

        /// A black outline 0.12 of the font size wide (the default).
        public static let defaultOutline = Background.outline(color: .black, width: 0.12)
        /// A black box at 75% opacity, padded by 0.25 of the font size, corners rounded by 0.15.
        public static let defaultBox = Background.box(color: Color(red: 0, green: 0, blue: 0, alpha: 0.75), padding: 0.25, cornerRadius: 0.15)
    }

    /// The font family (installed, or a generic name such as "sans"); characters it lacks (Arabic,
    /// Japanese, emoji …) come from fontconfig's fallback fonts.
    public var fontFamily: String
    /// The font size as a fraction of the frame's height (0.05: 54 px at 1080 lines, 12 px at 240).
    public var size: Double
    /// The text's colour (markup `<i>`, `<b>`, `<u>` change only the shape).
    public var color: Color
    /// An outline around the glyphs, or a box behind the lines.
    public var background: Background
    /// The margin on the left and on the right, as a fraction of the frame's width (default 0.1).
    public var horizontalMargin: Double
    /// The margin at the top and at the bottom, as a fraction of the frame's height (default 0.1).
    public var verticalMargin: Double
    /// The widest a line may be, as a fraction of the frame's width; nil (the default) for the safe
    /// area's width. Never wider than the safe area.
    public var maxLineWidth: Double?
    /// Distance between baselines as a multiple of the font's normal line height (default 1).
    public var lineSpacing: Double
    /// A BCP 47 language tag ("ja", "ar", …) for locale-specific glyphs; nil for the process's locale.
    public var language: String?

    /// A style; every setting has a default (see the type's description).
    public init(fontFamily: String = "DejaVu Sans", size: Double = 0.05, color: Color = .white,
                background: Background = .defaultOutline, horizontalMargin: Double = 0.1, verticalMargin: Double = 0.1,
                maxLineWidth: Double? = nil, lineSpacing: Double = 1, language: String? = nil) {
        self.fontFamily = fontFamily; self.size = size; self.color = color; self.background = background
        self.horizontalMargin = horizontalMargin; self.verticalMargin = verticalMargin; self.maxLineWidth = maxLineWidth
        self.lineSpacing = lineSpacing; self.language = language
    }

    /// The default style with a translucent black box behind the text instead of an outline.
    public static var boxed: SubtitleStyle { SubtitleStyle(background: .defaultBox) }

    /// The safe area of a frame of `size`: inside the margins.
    package func safeArea(in size: Size) -> Rect {
        let mx = size.width * min(max(horizontalMargin, 0), 0.45), my = size.height * min(max(verticalMargin, 0), 0.45)
        return Rect(x: mx, y: my, width: size.width - 2 * mx, height: size.height - 2 * my)
    }

    /// Throws `.invalidSetting` for a size, margin, width or spacing out of range.
    func validate() throws(MovieMakerError) {
        guard size.isFinite, size > 0, size <= 1 else {
            throw .invalidSetting(.fontSize, value: "\(size)", expected: "a fraction of the frame height above 0 and at most 1 (0.05 is usual for subtitles)")
        }
        guard horizontalMargin.isFinite, verticalMargin.isFinite, (0...0.45).contains(horizontalMargin), (0...0.45).contains(verticalMargin) else {
            throw .invalidSetting(.fittingBox, value: "\(horizontalMargin), \(verticalMargin)", expected: "fractions of the frame from 0 to 0.45 (0.1 is title-safe)")
        }
        if let maxLineWidth, !(maxLineWidth.isFinite && maxLineWidth > 0 && maxLineWidth <= 1) {
            throw .invalidSetting(.textWidth, value: "\(maxLineWidth)", expected: "a fraction of the frame width above 0 and at most 1, or nil")
        }
        guard lineSpacing.isFinite, lineSpacing > 0, lineSpacing <= 10 else {
            throw .invalidSetting(.lineSpacing, value: "\(lineSpacing)", expected: "a multiple of the normal line height above 0 and at most 10 (1 is normal)")
        }
        switch background {
        case let .outline(_, width):
            guard width.isFinite, width >= 0, width <= 1 else {
                throw .invalidSetting(.outlineWidth, value: "\(width)", expected: "a fraction of the font size from 0 to 1 (0.12 is usual)")
            }
        case let .box(_, padding, radius):
            guard padding.isFinite, radius.isFinite, (0...2).contains(padding), (0...2).contains(radius) else {
                throw .invalidSetting(.fittingBox, value: "padding \(padding), corner radius \(radius)", expected: "fractions of the font size from 0 to 2")
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case fontFamily, size, color, background, horizontalMargin, verticalMargin, maxLineWidth, lineSpacing, language
    }

    /// Reads a style; every key may be left out (the defaults of `init`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(fontFamily: try c.decode(.fontFamily, or: "DejaVu Sans"), size: try c.decode(.size, or: 0.05),
                  color: try c.decode(.color, or: .white), background: try c.decode(.background, or: .defaultOutline),
                  horizontalMargin: try c.decode(.horizontalMargin, or: 0.1), verticalMargin: try c.decode(.verticalMargin, or: 0.1),
                  maxLineWidth: try c.decodeIfPresent(Double.self, forKey: .maxLineWidth), lineSpacing: try c.decode(.lineSpacing, or: 1),
                  language: try c.decodeIfPresent(String.self, forKey: .language))
    }

    /// Writes every setting (`maxLineWidth` and `language` only when set).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fontFamily, forKey: .fontFamily)
        try c.encode(size, forKey: .size)
        try c.encode(color, forKey: .color)
        try c.encode(background, forKey: .background)
        try c.encode(horizontalMargin, forKey: .horizontalMargin)
        try c.encode(verticalMargin, forKey: .verticalMargin)
        try c.encodeIfPresent(maxLineWidth, forKey: .maxLineWidth)
        try c.encode(lineSpacing, forKey: .lineSpacing)
        try c.encodeIfPresent(language, forKey: .language)
    }
}

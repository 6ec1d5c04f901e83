import Foundation

/// HSL/HSB, CSS names and parsing, mixing and WCAG contrast for `Color`.
extension Color {
    // MARK: HSL and HSB

    /// A colour from hue (degrees, any value, taken modulo 360), saturation and lightness (0…1, clamped),
    /// as CSS `hsl()` defines them.
    public init(hue: Double, saturation: Double, lightness: Double, alpha: Double = 1) {
        let h = Color.wrappedHue(hue), s = min(max(saturation, 0), 1), l = min(max(lightness, 0), 1)
        let a = s * min(l, 1 - l)
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        self.init(red: f(0), green: f(8), blue: f(4), alpha: alpha)
    }

    /// Hue (degrees, 0 ..< 360; 0 for greys), saturation and lightness (0…1) of the clamped components.
    public var hsl: (hue: Double, saturation: Double, lightness: Double) {
        let (r, g, b) = clampedComponents
        let high = max(r, g, b), low = min(r, g, b), d = high - low
        let l = (high + low) / 2
        let s = d == 0 ? 0 : d / (1 - abs(2 * l - 1))
        return (Color.hue(r, g, b, high: high, delta: d), min(s, 1), l)
    }

    /// A colour from hue (degrees, taken modulo 360), saturation and brightness (HSB/HSV, 0…1, clamped).
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double = 1) {
        let h = Color.wrappedHue(hue), s = min(max(saturation, 0), 1), v = min(max(brightness, 0), 1)
        func f(_ n: Double) -> Double {
            let k = (n + h / 60).truncatingRemainder(dividingBy: 6)
            return v - v * s * max(0, min(k, 4 - k, 1))
        }
        self.init(red: f(5), green: f(3), blue: f(1), alpha: alpha)
    }

    /// Hue (degrees, 0 ..< 360; 0 for greys), saturation and brightness (HSB/HSV, 0…1).
    public var hsb: (hue: Double, saturation: Double, brightness: Double) {
        let (r, g, b) = clampedComponents
        let high = max(r, g, b), d = high - min(r, g, b)
        return (Color.hue(r, g, b, high: high, delta: d), high == 0 ? 0 : d / high, high)
    }

    /// Red, green and blue clamped to 0…1.
    private var clampedComponents: (Double, Double, Double) {
        (min(max(red, 0), 1), min(max(green, 0), 1), min(max(blue, 0), 1))
    }

    /// `degrees` in 0 ..< 360 (0 for non-finite input).
    private static func wrappedHue(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let h = degrees.truncatingRemainder(dividingBy: 360)
        return h < 0 ? h + 360 : h
    }

    /// The hue angle shared by HSL and HSB.
    private static func hue(_ r: Double, _ g: Double, _ b: Double, high: Double, delta d: Double) -> Double {
        guard d > 0 else { return 0 }
        let h: Double
        if high == r { h = (g - b) / d } else if high == g { h = (b - r) / d + 2 } else { h = (r - g) / d + 4 }
        return wrappedHue(h * 60)
    }

    // MARK: Names and CSS

    /// The 148 named colours of CSS Color Module Level 4 (`gray`/`grey` spellings both), as 0xRRGGBB.
    private static let cssTable: [String: UInt32] = [
        "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4, "azure": 0xF0FFFF,
        "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF,
        "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0,
        "chartreuse": 0x7FFF00, "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED,
        "cornsilk": 0xFFF8DC, "crimson": 0xDC143C, "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B,
        "darkgoldenrod": 0xB8860B, "darkgray": 0xA9A9A9, "darkgreen": 0x006400, "darkgrey": 0xA9A9A9,
        "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B, "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00,
        "darkorchid": 0x9932CC, "darkred": 0x8B0000, "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F,
        "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1,
        "darkviolet": 0x9400D3, "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969,
        "dimgrey": 0x696969, "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0,
        "forestgreen": 0x228B22, "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700,
        "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F, "grey": 0x808080,
        "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C, "indigo": 0x4B0082, "ivory": 0xFFFFF0,
        "khaki": 0xF0E68C, "lavender": 0xE6E6FA, "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00,
        "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6, "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF,
        "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3, "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3,
        "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A, "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA,
        "lightslategray": 0x778899, "lightslategrey": 0x778899, "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0,
        "lime": 0x00FF00, "limegreen": 0x32CD32, "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000,
        "mediumaquamarine": 0x66CDAA, "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB,
        "mediumseagreen": 0x3CB371, "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A,
        "mediumturquoise": 0x48D1CC, "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA,
        "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6,
        "olive": 0x808000, "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6,
        "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093,
        "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB, "plum": 0xDDA0DD,
        "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xFF0000, "rosybrown": 0xBC8F8F,
        "royalblue": 0x4169E1, "saddlebrown": 0x8B4513, "salmon": 0xFA8072, "sandybrown": 0xF4A460,
        "seagreen": 0x2E8B57, "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB,
        "slateblue": 0x6A5ACD, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA,
        "springgreen": 0x00FF7F, "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8,
        "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF,
        "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00, "yellowgreen": 0x9ACD32,
    ]

    /// The 148 CSS colour names (CSS Color Module Level 4), sorted.
    package static let cssNames: [String] = cssTable.keys.sorted()

    /// The CSS named colour (`rebeccapurple`, `CornflowerBlue`; case and surrounding spaces do not
    /// matter); nil for anything else.
    public init?(named name: String) {
        guard let rgb = Color.cssTable[name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()] else { return nil }
        self.init(red8: UInt8(rgb >> 16), green8: UInt8((rgb >> 8) & 0xFF), blue8: UInt8(rgb & 0xFF))
    }

    /// Parses a CSS colour: a name (`tomato`, `transparent`), `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (the
    /// `#` may be left out), `rgb(255, 128, 0)`, `rgba(255, 128, 0, 0.5)`, `rgb(100% 50% 0% / 50%)`,
    /// `hsl(30, 100%, 50%)`, `hsla(30deg 100% 50% / 0.5)`. Out-of-range components are clamped, as CSS does.
    public init(css text: String) throws(MovieMakerError) {
        let s = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        func fail(_ expected: String) -> MovieMakerError {
            .invalidSetting(.color, value: "\"\(text)\"", expected: expected)
        }
        if s == "transparent" { self = .clear; return }
        if let named = Color(named: s) { self = named; return }
        let hexDigits = s.hasPrefix("#") ? String(s.dropFirst()) : s
        if !hexDigits.isEmpty, hexDigits.allSatisfy(\.isHexDigit) {
            // #rgba is #rrggbbaa with each digit doubled; Color(hex:) reads the rest.
            let expanded = hexDigits.count == 4 ? String(hexDigits.flatMap { [$0, $0] }) : hexDigits
            guard let c = Color(hex: expanded) else {
                throw fail("3, 4, 6 or 8 hexadecimal digits after #, e.g. #f80 or #ff8800")
            }
            self = c; return
        }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else {
            throw fail("a CSS colour: a name such as tomato (see Color.cssNames), #rrggbb, rgb(r, g, b) or hsl(h, s%, l%)")
        }
        let function = s[..<open].trimmingCharacters(in: .whitespaces)
        let inside = s[s.index(after: open)..<s.index(before: s.endIndex)]
        // Legacy syntax `rgb(1, 2, 3, 0.5)`, or modern `rgb(1 2 3 / 0.5)`.
        var parts: [String]
        var alphaPart: String?
        if let slash = inside.firstIndex(of: "/") {
            parts = inside[..<slash].split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            alphaPart = inside[inside.index(after: slash)...].trimmingCharacters(in: .whitespaces)
        } else if inside.contains(",") {
            parts = inside.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 4 { alphaPart = parts.removeLast() }
        } else {
            parts = inside.split(separator: " ").map(String.init)
        }
        let alpha: Double
        if let a = alphaPart {
            guard let v = Color.cssNumber(a, percentScale: 1) else {
                throw fail("an alpha of 0…1 or 0%…100% in \(function)(…)")
            }
            alpha = min(max(v, 0), 1)
        } else {
            alpha = 1
        }
        switch function {
        case "rgb", "rgba":
            let v = parts.compactMap { Color.cssNumber($0, percentScale: 255) }
            guard parts.count == 3, v.count == 3 else {
                throw fail("rgb(r, g, b) or rgba(r, g, b, a) with r, g, b in 0…255 or 0%…100%, e.g. rgb(255, 128, 0)")
            }
            let c = v.map { min(max($0, 0), 255) / 255 }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: alpha)
        case "hsl", "hsla":
            guard parts.count == 3, let h = Color.cssAngle(parts[0]),
                  let sat = Color.cssNumber(parts[1], percentScale: 100),
                  let light = Color.cssNumber(parts[2], percentScale: 100) else {
                throw fail("hsl(h, s%, l%) or hsla(h, s%, l%, a) with the hue in degrees (or deg, rad, grad, turn), e.g. hsl(30, 100%, 50%)")
            }
            self.init(hue: h, saturation: sat / 100, lightness: light / 100, alpha: alpha)
        default:
            throw fail("rgb(…), rgba(…), hsl(…) or hsla(…), a name such as tomato, or #rrggbb")
        }
    }

    /// A finite CSS number, or a percentage mapped so that 100% is `percentScale`.
    private static func cssNumber(_ s: String, percentScale: Double) -> Double? {
        let percent = s.hasSuffix("%")
        guard let v = Double(percent ? String(s.dropLast()) : s), v.isFinite else { return nil }
        return percent ? v / 100 * percentScale : v
    }

    /// A CSS angle in degrees: a plain number or one with `deg`, `rad`, `grad` or `turn`.
    private static func cssAngle(_ s: String) -> Double? {
        for (unit, degrees) in [("grad", 0.9), ("deg", 1.0), ("rad", 180 / Double.pi), ("turn", 360.0)] where s.hasSuffix(unit) {
            guard let v = Double(s.dropLast(unit.count)), v.isFinite else { return nil }
            return v * degrees
        }
        guard let v = Double(s), v.isFinite else { return nil }
        return v
    }

    /// `#rrggbb`, or `#rrggbbaa` when the colour is not fully opaque (components clamped and rounded).
    public var hexString: String {
        let text = description   // #rrggbbaa
        return text.hasSuffix("ff") ? String(text.dropLast(2)) : text
    }

    // MARK: Mixing

    /// Where `mixed(with:amount:in:)` blends colours.
    public enum MixingSpace: Sendable, Hashable {
        /// Blend the sRGB components as stored (what CSS gradients and most tools do).
        case sRGB
        /// Blend linear light (physically even mixing: red and green meet at a bright yellow, not a dull one).
        case linear
    }

    /// `amount` (clamped to 0…1) of the way from this colour to `other`, with premultiplied alpha so that
    /// mixing with `.clear` only fades. sRGB by default; `.linear` mixes light intensities.
    public func mixed(with other: Color, amount: Double = 0.5, in space: MixingSpace = .sRGB) -> Color {
        let t = amount.isNaN ? 0 : min(max(amount, 0), 1)
        switch space {
        case .sRGB:
            return interpolated(to: other, amount: t)
        case .linear:
            let a = linearized.interpolated(to: other.linearized, amount: t)
            return Color(red: Color.encode(a.red), green: Color.encode(a.green), blue: Color.encode(a.blue), alpha: a.alpha)
        }
    }

    /// This colour with its HSL lightness raised by `amount` (0…1, the result clamped), like Sass `lighten`.
    public func lighter(by amount: Double = 0.1) -> Color {
        let c = hsl
        return Color(hue: c.hue, saturation: c.saturation, lightness: c.lightness + amount, alpha: alpha)
    }

    /// This colour with its HSL lightness lowered by `amount` (0…1, the result clamped), like Sass `darken`.
    public func darker(by amount: Double = 0.1) -> Color { lighter(by: -amount) }

    // MARK: Contrast

    /// The same colour with linear-light components (sRGB transfer function removed).
    private var linearized: Color {
        let (r, g, b) = clampedComponents
        return Color(red: Color.decode(r), green: Color.decode(g), blue: Color.decode(b), alpha: alpha)
    }
    /// sRGB encoded value → linear light.
    private static func decode(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    /// Linear light → sRGB encoded value.
    private static func encode(_ c: Double) -> Double {
        let v = min(max(c, 0), 1)
        return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// WCAG relative luminance, 0 (black) … 1 (white); alpha is ignored.
    public var relativeLuminance: Double {
        let l = linearized
        return 0.2126 * l.red + 0.7152 * l.green + 0.0722 * l.blue
    }

    /// WCAG contrast ratio with `other`, 1 (same luminance) … 21 (black on white); alpha is ignored.
    /// WCAG AA asks for at least 4.5 for body text and 3 for large text.
    public func contrastRatio(with other: Color) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The candidate with the highest contrast against this colour (black or white by default): a
    /// readable text colour for this background. The first wins ties; `self` when there are no candidates.
    public func mostContrasting(among candidates: [Color] = [.black, .white]) -> Color {
        var best = candidates.first ?? self
        for c in candidates.dropFirst() where contrastRatio(with: c) > contrastRatio(with: best) { best = c }
        return best
    }
}

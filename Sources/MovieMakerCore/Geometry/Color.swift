import Foundation

/// A colour in sRGB with straight (not premultiplied) alpha, each component in 0…1.
///
/// As data it is a hex string (`"#ff8000"`, `"#ff800080"`) when that is exact (components that are whole
/// multiples of 1/255), otherwise `{"red": 1, "green": 0.5, "blue": 0, "alpha": 1}`. Decoding also takes any
/// CSS colour string (`"tomato"`, `"rgb(255 128 0 / 50%)"`, `"hsl(30, 100%, 50%)"`).
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// Creates a colour from components in 0…1 (values outside are clamped when drawn).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// Creates a colour from 8-bit components (0…255): what other tools call `Color(r:g:b:)` or `rgb(255, 128, 0)`.
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }
    /// Creates a grey of the given brightness (0 black … 1 white).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional); nil when it is not one of those.
    ///
    /// Kept for existing code (`Color(hex: "#2ec4b6")!`). New code: `Color(validatingHex:)` throws a
    /// `MovieMakerError` saying what is wrong, as `Color(css:)` does, and `Color(hex: 0x2ec4b6)` takes an
    /// integer literal and cannot fail.
    public init?(hex: String) {
        var s = Substring(hex.trimmingCharacters(in: .whitespaces))
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.allSatisfy(\.isHexDigit) else { return nil }
        func byte(_ sub: Substring) -> Double { Double(UInt8(sub, radix: 16)!) / 255 }
        let chars = Array(s)
        switch chars.count {
        case 3:
            let v = chars.map { byte(Substring(String([$0, $0]))) }
            self.init(red: v[0], green: v[1], blue: v[2])
        case 6, 8:
            let v = stride(from: 0, to: chars.count, by: 2).map { byte(Substring(String(chars[$0..<$0 + 2]))) }
            self.init(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
        default:
            return nil
        }
    }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional), throwing like `Color(css:)` when the
    /// text is not one of those: `try Color(validatingHex: "#2ec4b6")`. The error (`.invalidSetting`, setting
    /// `.color`) names the text and the forms expected.
    public init(validatingHex hex: String) throws(MovieMakerError) {
        guard let color = Color(hex: hex) else {
            throw .invalidSetting(.color, value: "\"\(hex)\"", expected: "3, 6 or 8 hexadecimal digits after an optional #, e.g. #f80, #ff8800 or #ff880080")
        }
        self = color
    }

    /// A colour from a 24-bit `0xRRGGBB` value, for literals: `Color(hex: 0x2ec4b6)`; `alpha`
    /// is 0…1. Bits above the low 24 are ignored (so an `0xAARRGGBB` value reads as its colour), which
    /// means `0xff800080` is not RRGGBBAA: it gives opaque `#800080`. For a colour with alpha write
    /// `Color(hex: 0xff8000, alpha: 0.5)` or `Color(hex: "#ff800080")`.
    public init(hex rgb: UInt32, alpha: Double = 1) {
        self.init(red8: UInt8((rgb >> 16) & 0xFF), green8: UInt8((rgb >> 8) & 0xFF), blue8: UInt8(rgb & 0xFF), alpha: alpha)
    }

    /// The same colour with a different opacity.
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Fully transparent.
    public static let clear = Color(white: 0, alpha: 0)
    /// Pure red.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Pure green, `#00ff00` (CSS's `green`, from `Color(css:)`, is the darker `#008000`).
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Pure blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Yellow.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Cyan.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// Magenta.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// Orange, `#ff8000` (CSS's `orange`, from `Color(css:)`, is `#ffa500`).
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// 50 % grey.
    public static let gray = Color(white: 0.5)

    /// A readable form, e.g. `#ff8000ff`.
    public var description: String {
        func h(_ v: Double) -> String {
            let b = Int((min(max(v, 0), 1) * 255).rounded())
            return String(format: "%02x", b)
        }
        return "#\(h(red))\(h(green))\(h(blue))\(h(alpha))"
    }
}

extension Color: Codable {
    private enum CodingKeys: String, CodingKey { case red, green, blue, alpha }

    /// Reads a CSS colour string (`"#ff8000"`, `"tomato"`, `"rgb(…)"`, `"hsl(…)"`) or
    /// `{"red": …, "green": …, "blue": …, "alpha": …}` (`alpha` may be left out: 1).
    public init(from decoder: any Decoder) throws {
        if let text = try decoder.singleValueContainer().decodeStringIfPossible() {
            self = try decodingErrors(at: decoder.codingPath) { try Color(css: text) }
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(red: try c.decode(Double.self, forKey: .red), green: try c.decode(Double.self, forKey: .green),
                  blue: try c.decode(Double.self, forKey: .blue), alpha: try c.decode(.alpha, or: 1))
    }

    /// Writes `hexString` when it reads back as exactly this colour, else the four components.
    public func encode(to encoder: any Encoder) throws {
        let hex = hexString
        if Color(hex: hex) == self {
            var c = encoder.singleValueContainer()
            try c.encode(hex)
        } else {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(red, forKey: .red)
            try c.encode(green, forKey: .green)
            try c.encode(blue, forKey: .blue)
            try c.encode(alpha, forKey: .alpha)
        }
    }
}

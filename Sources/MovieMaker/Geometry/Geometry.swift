import Foundation

/// A point in drawing coordinates (pixels, origin at the top left, y growing downwards); `{"x": 10, "y": 20}` as data.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal coordinate in pixels.
    public var x: Double
    /// Vertical coordinate in pixels, growing downwards.
    public var y: Double
    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin (0, 0).
    public static let zero = Point(x: 0, y: 0)
    /// A readable form, e.g. `(10.0, 20.0)`.
    public var description: String { "(\(x), \(y))" }
}

/// A width and a height in pixels; `{"width": 1920, "height": 1080}` as data.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Double
    /// Height in pixels.
    public var height: Double
    /// Creates a size.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// A readable form, e.g. `1920×1080`.
    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle; `{"origin": {"x": 0, "y": 0}, "size": {"width": 1, "height": 1}}` as data (or,
/// when decoding, the shorter `{"x": 0, "y": 0, "width": 1, "height": 1}`).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height.
    public var size: Size
    /// Creates a rectangle from its origin and size.
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// Creates a rectangle from its left, top, width and height.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    /// Left edge.
    public var minX: Double { origin.x }
    /// Top edge.
    public var minY: Double { origin.y }
    /// Right edge.
    public var maxX: Double { origin.x + size.width }
    /// Bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// Horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// Vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// Width.
    public var width: Double { size.width }
    /// Height.
    public var height: Double { size.height }
    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }
    /// This rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    /// A readable form.
    public var description: String { "(\(minX), \(minY), \(width)×\(height))" }
}

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
    /// Creates a colour from 8-bit components (0…255).
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }
    /// Creates a grey of the given brightness (0 black … 1 white).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional); nil when it is not one of those.
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
    /// Pure green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Pure blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Yellow.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Cyan.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// Magenta.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// Orange.
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

extension Rect: Codable {
    private enum CodingKeys: String, CodingKey { case origin, size, x, y, width, height }

    /// Reads `{"origin": {…}, "size": {…}}` or `{"x": …, "y": …, "width": …, "height": …}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.origin) || c.contains(.size) {
            self.init(origin: try c.decode(Point.self, forKey: .origin), size: try c.decode(Size.self, forKey: .size))
        } else {
            self.init(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y),
                      width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
        }
    }

    /// Writes `{"origin": {"x": …, "y": …}, "size": {"width": …, "height": …}}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(origin, forKey: .origin)
        try c.encode(size, forKey: .size)
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

import Foundation

extension Path: Codable {
    /// Reads SVG path data (`"M0 0 L10 0 C…Z"`, anything `init(svg:)` parses) or an array of elements.
    public init(from decoder: any Decoder) throws {
        if let data = try decoder.singleValueContainer().decodeStringIfPossible() {
            self = try decodingErrors(at: decoder.codingPath) { try Path(svg: data) }
            return
        }
        var list = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !list.isAtEnd { elements.append(try list.decode(Element.self)) }
        self.init(elements: elements)
    }

    /// Writes `svgString` when it reads back as exactly these elements (paths starting with a move, with
    /// finite coordinates), otherwise the elements as an array of objects.
    public func encode(to encoder: any Encoder) throws {
        let svg = svgString
        if let parsed = try? Path(svg: svg), parsed == self {
            var c = encoder.singleValueContainer()
            try c.encode(svg)
        } else {
            var c = encoder.unkeyedContainer()
            for element in elements { try c.encode(element) }
        }
    }
}

extension Path.Element: Codable {
    private enum CodingKeys: String, CodingKey { case type, to, control, control1, control2 }

    /// Reads `{"type": "move", "to": {…}}`, `line`, `quadCurve` (with `control`), `curve` (with `control1`
    /// and `control2`) or `{"type": "closeSubpath"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "move": self = .move(to: try c.decode(Point.self, forKey: .to))
        case "line": self = .line(to: try c.decode(Point.self, forKey: .to))
        case "quadCurve": self = .quadCurve(to: try c.decode(Point.self, forKey: .to), control: try c.decode(Point.self, forKey: .control))
        case "curve":
            self = .curve(to: try c.decode(Point.self, forKey: .to), control1: try c.decode(Point.self, forKey: .control1),
                          control2: try c.decode(Point.self, forKey: .control2))
        case "closeSubpath": self = .closeSubpath
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c,
                debugDescription: "unknown path element type \"\(type)\": expected move, line, quadCurve, curve or closeSubpath")
        }
    }

    /// Writes the element's `type` and its points.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .move(to):
            try c.encode("move", forKey: .type); try c.encode(to, forKey: .to)
        case let .line(to):
            try c.encode("line", forKey: .type); try c.encode(to, forKey: .to)
        case let .quadCurve(to, control):
            try c.encode("quadCurve", forKey: .type); try c.encode(to, forKey: .to); try c.encode(control, forKey: .control)
        case let .curve(to, control1, control2):
            try c.encode("curve", forKey: .type); try c.encode(to, forKey: .to)
            try c.encode(control1, forKey: .control1); try c.encode(control2, forKey: .control2)
        case .closeSubpath:
            try c.encode("closeSubpath", forKey: .type)
        }
    }
}

internal import CCairo
import Foundation

/// What fills or strokes a shape: a flat colour or a gradient.
///
/// As data: `{"type": "color", "color": "#ff8000"}`, `{"type": "linearGradient", "start": {…}, "end": {…},
/// "stops": […]}` or `{"type": "radialGradient", "startCenter": {…}, "startRadius": 0, "endCenter": {…},
/// "endRadius": 100, "stops": […]}`; decoding also takes a plain colour (`"#ff8000"`) for a flat paint.
public enum Paint: Hashable, Sendable {
    /// One colour everywhere.
    case color(Color)
    /// Colours blended along the line from `start` to `end`.
    case linearGradient(start: Point, end: Point, stops: [GradientStop])
    /// Colours blended from the circle (`startCenter`, `startRadius`) to (`endCenter`, `endRadius`).
    case radialGradient(startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double, stops: [GradientStop])

    /// A linear gradient from `start` to `end` through `stops`.
    public static func linear(from start: Point, to end: Point, stops: [GradientStop]) -> Paint {
        .linearGradient(start: start, end: end, stops: stops)
    }
    /// A radial gradient from `center` outwards to `radius` through `stops`.
    public static func radial(center: Point, radius: Double, stops: [GradientStop]) -> Paint {
        .radialGradient(startCenter: center, startRadius: 0, endCenter: center, endRadius: radius, stops: stops)
    }
    /// A linear gradient through evenly spaced colours.
    public static func linear(from start: Point, to end: Point, colors: [Color]) -> Paint {
        .linearGradient(start: start, end: end, stops: evenStops(colors))
    }
    /// A radial gradient from `center` outwards to `radius` through evenly spaced colours.
    public static func radial(center: Point, radius: Double, colors: [Color]) -> Paint {
        .radialGradient(startCenter: center, startRadius: 0, endCenter: center, endRadius: radius, stops: evenStops(colors))
    }
    private static func evenStops(_ colors: [Color]) -> [GradientStop] {
        colors.enumerated().map { GradientStop(colors.count > 1 ? Double($0.offset) / Double(colors.count - 1) : 0, $0.element) }
    }
}

extension Paint: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, color, start, end, stops, startCenter, startRadius, endCenter, endRadius
    }

    /// Reads a paint's object form, or a colour (string or object) for a flat paint.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self), keyed.contains(.type) {
            let type = try keyed.decode(String.self, forKey: .type)
            switch type {
            case "color":
                self = .color(try keyed.decode(Color.self, forKey: .color))
            case "linearGradient":
                self = .linearGradient(start: try keyed.decode(Point.self, forKey: .start), end: try keyed.decode(Point.self, forKey: .end),
                                       stops: try keyed.decode([GradientStop].self, forKey: .stops))
            case "radialGradient":
                self = .radialGradient(startCenter: try keyed.decode(Point.self, forKey: .startCenter),
                                       startRadius: try keyed.decode(.startRadius, or: 0),
                                       endCenter: try keyed.decode(Point.self, forKey: .endCenter),
                                       endRadius: try keyed.decode(Double.self, forKey: .endRadius),
                                       stops: try keyed.decode([GradientStop].self, forKey: .stops))
            default:
                throw DecodingError.dataCorruptedError(forKey: .type, in: keyed,
                    debugDescription: "unknown paint type \"\(type)\": expected color, linearGradient or radialGradient")
            }
            return
        }
        self = .color(try Color(from: decoder))
    }

    /// Writes the object form with its `type`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .color(color):
            try c.encode("color", forKey: .type)
            try c.encode(color, forKey: .color)
        case let .linearGradient(start, end, stops):
            try c.encode("linearGradient", forKey: .type)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encode(stops, forKey: .stops)
        case let .radialGradient(startCenter, startRadius, endCenter, endRadius, stops):
            try c.encode("radialGradient", forKey: .type)
            try c.encode(startCenter, forKey: .startCenter)
            try c.encode(startRadius, forKey: .startRadius)
            try c.encode(endCenter, forKey: .endCenter)
            try c.encode(endRadius, forKey: .endRadius)
            try c.encode(stops, forKey: .stops)
        }
    }
}

import Foundation

// Transitions as data: `{"kind": "wipeleft", "duration": 0.5, "easing": "ease-in-out"}`.

extension Transition.Direction: Codable {}

extension Transition.Corner: Codable {
    /// Reads a corner's xfade spelling (`"tl"`, `"tr"`, `"bl"`, `"br"`) or its case name (`"topLeft"`…).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        let byName: [String: Transition.Corner] = ["topLeft": .topLeft, "topRight": .topRight, "bottomLeft": .bottomLeft, "bottomRight": .bottomRight]
        guard let corner = Transition.Corner(rawValue: text) ?? byName[text] else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown corner \"\(text)\": expected tl, tr, bl or br")
        }
        self = corner
    }
}

extension Transition.Kind: Equatable {
    /// What tells two effects apart: the xfade-style name, plus the exact colour of a fade through a
    /// colour and the seed of a dissolve. Custom effects are told apart by their names only.
    private var identity: (name: String, color: Color?, seed: UInt64?) {
        switch self {
        case let .fadeThrough(color): ("fadethrough", color, nil)
        case let .dissolve(seed): ("dissolve", nil, seed)
        case let .custom(name, _): ("custom " + name, nil, nil)
        default: (name, nil, nil)
        }
    }

    /// The same effect with the same parameters. Custom effects are equal when their names are (their
    /// drawing closures cannot be compared).
    public static func == (a: Transition.Kind, b: Transition.Kind) -> Bool {
        a.identity == b.identity
    }
}

extension Transition.Kind: Codable {
    /// The object form's `type` for the cases with a payload, and which payload key each takes.
    private static let directionTypes = ["wipe", "slide", "cover", "reveal", "smooth", "slices"]
    private static let cornerTypes = ["wipeCorner", "diagonal"]
    /// The case names of the effects without a payload.
    private static let plainTypes: [String: Transition.Kind] = [
        "fade": .fade, "zoomIn": .zoomIn, "zoomOut": .zoomOut, "circleOpen": .circleOpen, "circleClose": .circleClose,
        "circleCrop": .circleCrop, "rectCrop": .rectCrop, "verticalOpen": .verticalOpen, "verticalClose": .verticalClose,
        "horizontalOpen": .horizontalOpen, "horizontalClose": .horizontalClose, "radial": .radial,
        "squeezeHorizontal": .squeezeHorizontal, "squeezeVertical": .squeezeVertical,
    ]

    /// Reads an xfade name (`"wipeleft"`, `"circleopen"`, `"fadeblack"`… see `Transition.knownNames`;
    /// `crossfade` and `pushleft`… too) or an object whose `type` is a case name with its payload:
    /// `{"type": "wipe", "direction": "left"}`, `{"type": "diagonal", "corner": "tl"}`,
    /// `{"type": "fadeThrough", "color": "#203040"}`, `{"type": "dissolve", "seed": 7}`, `{"type": "zoomIn"}`.
    public init(from decoder: any Decoder) throws {
        if let name = try decoder.singleValueContainer().decodeStringIfPossible() {
            self = try Transition.Kind.named(name, codingPath: decoder.codingPath)
            return
        }
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decodeType()
        if Self.directionTypes.contains(type) {
            let direction = try c.decode(Transition.Direction.self, forKey: AnyCodingKey("direction"))
            switch type {
            case "wipe": self = .wipe(direction)
            case "slide": self = .slide(direction)
            case "cover": self = .cover(direction)
            case "reveal": self = .reveal(direction)
            case "smooth": self = .smooth(direction)
            default: self = .slices(direction)
            }
        } else if Self.cornerTypes.contains(type) {
            let corner = try c.decode(Transition.Corner.self, forKey: AnyCodingKey("corner"))
            self = type == "wipeCorner" ? .wipeCorner(corner) : .diagonal(corner)
        } else if type == "fadeThrough" {
            self = .fadeThrough(try c.decode(Color.self, forKey: AnyCodingKey("color")))
        } else if type == "dissolve" {
            self = .dissolve(seed: try c.decode(AnyCodingKey("seed"), or: 0))
        } else if let kind = Self.plainTypes[type] {
            self = kind
        } else if type == "custom" {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c,
                debugDescription: "a custom transition draws with code and cannot be read from data: use one of \(Transition.knownNames.joined(separator: ", "))")
        } else {
            self = try Transition.Kind.named(type, codingPath: c.codingPath + [AnyCodingKey.type])
        }
    }

    /// The effect with xfade name `name` (aliases accepted), or a decoding error listing the known names.
    private static func named(_ name: String, codingPath: [any CodingKey]) throws -> Transition.Kind {
        try decodingErrors(at: codingPath) { try Transition(xfadeName: name).kind }
    }

    /// Writes the xfade name when it says everything (every effect but a fade through a colour other than
    /// black or white, and a dissolve with a seed other than 0, which are written as objects). Throws
    /// `MovieMakerError.notEncodable` for a custom effect, whose drawing is code.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case let .custom(name, _):
            throw MovieMakerError.notEncodable(
                what: "the custom transition \"\(name)\"",
                reason: "its effect is a drawing closure; only the built-in effects (\(Transition.knownNames.prefix(4).joined(separator: ", "))… see Transition.knownNames) can be written")
        case let .fadeThrough(color) where color != .black && color != .white:
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode("fadeThrough", forKey: .type)
            try c.encode(color, forKey: AnyCodingKey("color"))
        case let .dissolve(seed) where seed != 0:
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode("dissolve", forKey: .type)
            try c.encode(seed, forKey: AnyCodingKey("seed"))
        default:
            var c = encoder.singleValueContainer()
            try c.encode(name)
        }
    }
}

extension Transition: Equatable {
    /// The same effect (see `Kind`'s `==`), duration and easing.
    public static func == (a: Transition, b: Transition) -> Bool {
        a.kind == b.kind && a.duration == b.duration && a.easing == b.easing
    }
}

extension Transition: Codable {
    private enum CodingKeys: String, CodingKey { case kind, duration, easing }

    /// Reads `{"kind": "wipeleft", "duration": 0.5, "easing": "ease-in-out"}` (`duration` may be left out:
    /// 1 s; `easing`: linear), or just an xfade name (`"circleopen"`) for a one-second linear transition.
    public init(from decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeStringIfPossible() != nil {
            self.init(try Kind(from: decoder))
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(Kind.self, forKey: .kind)
        let duration: Time = try c.decode(.duration, or: 1)
        guard duration >= .zero else {
            throw MovieMakerError.invalidSetting(.transitionDuration, value: duration.description, expected: "0 seconds or more")
                .decodingError(at: c.codingPath + [CodingKeys.duration])
        }
        self.init(kind, duration: duration, easing: try c.decode(.easing, or: .linear))
    }

    /// Writes the effect, the exact duration and the easing's name. Throws `MovieMakerError.notEncodable`
    /// for a custom effect or an easing made from a function.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(duration, forKey: .duration)
        try c.encode(easing, forKey: .easing)
    }
}

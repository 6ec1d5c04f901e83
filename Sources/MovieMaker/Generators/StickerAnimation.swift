import Foundation

/// How a sticker comes on screen at its clip's start (`enter`) or goes off at its end (`exit`, the
/// movement played backwards, ending with the clip).
///
/// The vocabulary of the title card's entrances: `pop` (scales up from nothing with a slight
/// overshoot while fading in), `fade`, and `slide(from:)` (moves in from beyond an edge of the frame).
/// As data: `"pop"`, or `{"type": "slide", "from": "left", "duration": 0.5, "easing": "cubicOut"}`.
public struct StickerAnimation: Sendable, Hashable {
    /// The kind of movement.
    public enum Kind: Sendable, Hashable {
        /// Scales up from nothing around the sticker's centre, with a slight overshoot, while fading in.
        case pop
        /// Opacity from 0 to 1.
        case fade
        /// Moves in from just beyond `from`, the edge of the frame.
        case slide(from: Edge)
    }

    /// The movement.
    public var kind: Kind
    /// How long it lasts.
    public var duration: Time
    /// The easing of the movement (pop's default, `backOut`, overshoots).
    public var easing: Easing

    /// How long an animation lasts unless asked otherwise: 0.3 s.
    public static let defaultDuration = Time(value: 3, timescale: 10)

    /// A `kind` movement lasting `duration` (negative counts as 0), eased by `easing` (nil: the kind's
    /// own: `backOut` for pop, `cubicOut` for slide, `linear` for fade).
    public init(_ kind: Kind, duration: Time = StickerAnimation.defaultDuration, easing: Easing? = nil) {
        self.kind = kind
        self.duration = Time.max(.zero, duration)
        self.easing = easing ?? Self.defaultEasing(for: kind)
    }

    /// The easing a kind has unless asked otherwise.
    static func defaultEasing(for kind: Kind) -> Easing {
        switch kind {
        case .pop: .backOut
        case .slide: .cubicOut
        case .fade: .linear
        }
    }

    /// A pop: scales up from nothing with a slight overshoot, fading in.
    public static func pop(duration: Time = defaultDuration, easing: Easing? = nil) -> StickerAnimation {
        StickerAnimation(.pop, duration: duration, easing: easing)
    }
    /// A fade.
    public static func fade(duration: Time = defaultDuration, easing: Easing? = nil) -> StickerAnimation {
        StickerAnimation(.fade, duration: duration, easing: easing)
    }
    /// A slide in from beyond `edge` of the frame.
    public static func slide(from edge: Edge, duration: Time = defaultDuration, easing: Easing? = nil) -> StickerAnimation {
        StickerAnimation(.slide(from: edge), duration: duration, easing: easing)
    }

    /// Linear progress 0…1 of the animation `elapsed` seconds after it starts (a step when it has no length).
    func progress(_ elapsed: Double) -> Double {
        let d = duration.seconds
        if d <= 0 { return elapsed >= 0 ? 1 : 0 }
        return min(max(elapsed / d, 0), 1)
    }

    /// Draws a picture whose resting place is `rect` at linear progress `p` (0 hidden, 1 in place)
    /// of the movement, in a frame of `bounds`, by calling `draw` with the opacity to use once the
    /// context is moved or scaled.
    func apply(progress p: Double, rect: Rect, bounds: Rect, in ctx: DrawingContext, _ draw: (Double) -> Void) {
        guard p > 0 else { return }
        if p >= 1 { draw(1); return }
        let eased = easing(p)
        switch kind {
        case .fade:
            draw(min(max(eased, 0), 1))
        case let .slide(edge):
            // Starts just beyond the frame edge (wholly outside) and travels to the resting place.
            var dx = 0.0, dy = 0.0
            switch edge {
            case .left: dx = bounds.minX - rect.maxX
            case .right: dx = bounds.maxX - rect.minX
            case .top: dy = bounds.minY - rect.maxY
            case .bottom: dy = bounds.maxY - rect.minY
            }
            ctx.withSavedState {
                ctx.translate(x: dx * (1 - eased), y: dy * (1 - eased))
                draw(1)
            }
        case .pop:
            let s = max(0, eased)
            guard s > 0 else { return }
            let c = rect.center
            ctx.withSavedState {
                ctx.translate(x: c.x, y: c.y)
                ctx.scale(x: s, y: s)
                ctx.translate(x: -c.x, y: -c.y)
                draw(min(1, p * 3))
            }
        }
    }
}

extension StickerAnimation: Codable {
    private enum CodingKeys: String, CodingKey { case type, from, duration, easing }
    /// The kinds' names as data.
    private static let names = ["pop", "fade", "slide"]

    /// Reads `"pop"`, `"fade"`, `"slide"` (from the bottom) or `{"type": "slide", "from": "left",
    /// "duration": 0.5, "easing": "cubicOut"}` (all but `type` may be left out: 0.3 s, the kind's easing).
    public init(from decoder: any Decoder) throws {
        if let name = try decoder.singleValueContainer().decodeStringIfPossible() {
            self.init(try Self.kind(name, from: .bottom, codingPath: decoder.codingPath))
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .type)
        let kind = try Self.kind(name, from: try c.decode(.from, or: .bottom), codingPath: c.codingPath + [CodingKeys.type])
        let duration: Time = try c.decode(.duration, or: Self.defaultDuration)
        guard duration >= .zero else {
            throw MovieMakerError.invalidSetting(.duration, value: duration.description, expected: "0 seconds or more")
                .decodingError(at: c.codingPath + [CodingKeys.duration])
        }
        self.init(kind, duration: duration, easing: try c.decodeIfPresent(Easing.self, forKey: .easing))
    }

    private static func kind(_ name: String, from edge: Edge, codingPath: [any CodingKey]) throws -> Kind {
        switch name {
        case "pop": return .pop
        case "fade": return .fade
        case "slide": return .slide(from: edge)
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                debugDescription: "unknown sticker animation \"\(name)\": expected one of \(names.joined(separator: ", "))"))
        }
    }

    /// Writes `{"type": …, "from": … (a slide's edge), "duration": …, "easing": …}`, the duration exactly.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .pop: try c.encode("pop", forKey: .type)
        case .fade: try c.encode("fade", forKey: .type)
        case let .slide(edge):
            try c.encode("slide", forKey: .type)
            try c.encode(edge, forKey: .from)
        }
        try c.encode(duration, forKey: .duration)
        try c.encode(easing, forKey: .easing)
    }
}

import Foundation

/// How a title card's text comes on (or, played backwards, goes off) screen.
public struct TitleAnimation: Sendable, Hashable {
    /// The kind of movement: as data, its name (`"fade"`, `"pop"`…), or `{"type": "slide", "from": "left"}`.
    public enum Style: Sendable, Hashable {
        /// Appears at once.
        case none
        /// Opacity from 0 to 1.
        case fade
        /// Slides in from `edge`: from just beyond that edge of the frame when `distance` is nil (the
        /// text is off screen at the start), else over `distance` pixels at 1080 lines (scaled to the
        /// frame like the card's font sizes), starting that far from its place on `edge`'s side (60 from
        /// the bottom: starts 60 px low and rises into place). A slide over a distance is on screen
        /// from the start; it moves, it does not fade (an exit slide ends `distance` away).
        case slide(from: Edge, distance: Double? = nil)
        /// Scales up from nothing with a slight overshoot.
        case pop
        /// Characters appear one after another, as typed.
        case typewriter
        /// Each letter fades and rises into place, one after another.
        case letters
        /// Each word fades and rises into place, one after another.
        case words
        /// Goes from a strong blur to sharp while fading in.
        case blur
    }

    /// The movement.
    public var style: Style
    /// How long one element's animation lasts (a stagger spreads its units over it).
    public var duration: Time
    /// The easing of the movement.
    public var easing: Easing
    /// The time between the start of one element (title, subtitle, body) and the next.
    public var cascade: Time

    /// An animation of `style` lasting `duration` seconds, elements starting `cascade` seconds apart
    /// (negative times count as 0).
    public init(_ style: Style, duration: Double = 0.8, easing: Easing? = nil, cascade: Double = 0.2) {
        self.init(style, duration: Time(nonNegativeSeconds: duration), easing: easing, cascade: Time(nonNegativeSeconds: cascade))
    }
    /// An animation of `style` lasting `duration` exactly, elements starting `cascade` apart (negative
    /// times count as 0). Literals pick the seconds initializer.
    @_disfavoredOverload
    public init(_ style: Style, duration: Time, easing: Easing? = nil, cascade: Time = Time(value: 1, timescale: 5)) {
        self.style = style
        self.duration = Time.max(.zero, duration)
        self.easing = easing ?? TitleAnimation.defaultEasing(for: style)
        self.cascade = Time.max(.zero, cascade)
    }

    static func defaultEasing(for style: Style) -> Easing {
        switch style {
        case .pop: .backOut
        case .typewriter: .linear
        case .slide: .cubicOut
        default: .easeOut
        }
    }

    /// Appears and disappears at once.
    public static let none = TitleAnimation(.none, duration: 0, cascade: 0)
    /// A fade.
    public static func fade(duration: Double = 0.8) -> TitleAnimation { TitleAnimation(.fade, duration: duration) }
    /// A slide from `edge`: from beyond the frame's edge, or over `distance` pixels at 1080 lines
    /// (`slide(from: .bottom, distance: 60)` rises 60 px into place; negative distances count as 0).
    public static func slide(from edge: Edge = .bottom, distance: Double? = nil, duration: Double = 0.8) -> TitleAnimation {
        TitleAnimation(.slide(from: edge, distance: distance.map { $0.isFinite ? max(0, $0) : 0 }), duration: duration)
    }
    /// A scale-up pop with overshoot.
    public static func pop(duration: Double = 0.6) -> TitleAnimation { TitleAnimation(.pop, duration: duration) }
    /// Typed out character by character.
    public static func typewriter(duration: Double = 1.5) -> TitleAnimation { TitleAnimation(.typewriter, duration: duration) }
    /// Letters one after another.
    public static func letters(duration: Double = 1.2) -> TitleAnimation { TitleAnimation(.letters, duration: duration) }
    /// Words one after another.
    public static func words(duration: Double = 1.0) -> TitleAnimation { TitleAnimation(.words, duration: duration) }
    /// From blurred to sharp.
    public static func blur(duration: Double = 0.8) -> TitleAnimation { TitleAnimation(.blur, duration: duration) }
}

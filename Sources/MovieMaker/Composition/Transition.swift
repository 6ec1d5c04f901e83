import Foundation

/// How one clip gives way to the next: an effect, a duration and an easing.
///
/// A transition overlaps the end of the outgoing clip with the start of the incoming one, as FFmpeg's
/// `xfade` filter does: joining clips of lengths `a` and `b` with a transition of `d` lasts `a + b − d`,
/// and during those `d` seconds both clips play while the effect blends them.
///
/// <!-- prelude: let (intro, middle, end) = (Clip.color(.red, duration: 2), Clip.color(.green, duration: 2), Clip.color(.blue, duration: 2)); let (a, b) = (intro, end) -->
/// ```swift
/// let film = Clip.sequence([intro, middle, end], transition: .crossfade(duration: 0.5))
/// let swap = Clip.transition(from: a, to: b, using: .wipe(.left, duration: 1, easing: .easeInOut))
/// let named = try Transition(xfadeName: "circleopen", duration: 0.8)
/// ```
///
/// Effects carry FFmpeg `xfade` names where they are the same effect (`fade`, `wipeleft`, `slideup`,
/// `circleopen`, `dissolve`…), going the same way: `wipeleft` moves the edge leftwards, so the incoming
/// clip appears on the right. `Transition.knownNames` lists every name `init(xfadeName:)` accepts.
/// Progress runs from 0 (only the outgoing clip) to 1 (only the incoming one) and is shaped by `easing`.
public struct Transition: Sendable, CustomStringConvertible {
    /// A direction of motion: the way the edge (wipes) or the pictures (slides) travel.
    public enum Direction: String, Sendable, CaseIterable {
        /// Towards the left edge.
        case left
        /// Towards the right edge.
        case right
        /// Towards the top edge.
        case up
        /// Towards the bottom edge.
        case down
    }

    /// A corner of the frame.
    public enum Corner: String, Sendable, CaseIterable {
        /// The top left corner (`tl` in xfade names).
        case topLeft = "tl"
        /// The top right corner (`tr`).
        case topRight = "tr"
        /// The bottom left corner (`bl`).
        case bottomLeft = "bl"
        /// The bottom right corner (`br`).
        case bottomRight = "br"
    }

    /// What the transition draws. Each case says its xfade name; "A" is the outgoing clip, "B" the incoming one.
    public enum Kind: Sendable {
        /// `fade`: A and B mixed, B's share growing with progress (a crossfade).
        case fade
        /// A fades to `color` over the first half, then B fades in from it (`fadeblack`, `fadewhite`):
        /// at the midpoint the frame is `color` alone. (xfade's curves differ: its A is gone a fifth of
        /// the way in and its B only about a third in at the midpoint; this dip is symmetric.)
        case fadeThrough(Color)
        /// `wipeleft`…`wipedown`: a hard edge moves in `direction`, uncovering B behind it (wipe left: B
        /// appears on the right and grows leftwards). Neither picture moves.
        case wipe(Direction)
        /// `wipetl`…`wipebr`: A shrinks into `corner` as a rectangle, B fills the rest.
        case wipeCorner(Corner)
        /// `slideleft`…`slidedown`: A and B move together in `direction`, B pushing A out (what many
        /// editors call a push).
        case slide(Direction)
        /// `coverleft`…`coverdown`: B slides in moving in `direction` and covers A, which stays still.
        case cover(Direction)
        /// `revealleft`…`revealdown`: A slides away in `direction`, uncovering B, which stays still.
        case reveal(Direction)
        /// `smoothleft`…`smoothdown`: a soft-edged wipe moving in `direction`.
        case smooth(Direction)
        /// `zoomin`: A zooms into its centre over the first half, then B fades in over what is left.
        case zoomIn
        /// `zoomout` (not an xfade name): `zoomin` played backwards with the clips swapped, so B zooms out
        /// from its centre over the second half.
        case zoomOut
        /// `circleopen`: B appears in a soft-edged circle at the centre that grows over A.
        case circleOpen
        /// `circleclose`: A shrinks into a soft-edged circle at the centre, B around it.
        case circleClose
        /// `circlecrop`: A shrinks to a circle on black, which opens again on B.
        case circleCrop
        /// `rectcrop`: A shrinks to a rectangle on black, which opens again on B.
        case rectCrop
        /// `vertopen`: B appears in a soft vertical band at the centre that widens to the sides.
        case verticalOpen
        /// `vertclose`: B comes in from the left and right edges towards the centre.
        case verticalClose
        /// `horzopen`: B appears in a soft horizontal band at the centre that grows up and down.
        case horizontalOpen
        /// `horzclose`: B comes in from the top and bottom edges towards the centre.
        case horizontalClose
        /// `diagtl`…`diagbr`: a soft diagonal wipe; A recedes into `corner`.
        case diagonal(Corner)
        /// `radial`: a soft clock-hand sweep around the centre.
        case radial
        /// `hlslice`, `hrslice`, `vuslice`, `vdslice`: venetian blinds (ten slices) moving in `direction`.
        case slices(Direction)
        /// `squeezeh`: A is squeezed vertically into a horizontal line at the centre, B around it.
        case squeezeHorizontal
        /// `squeezev`: A is squeezed horizontally into a vertical line at the centre, B around it.
        case squeezeVertical
        /// `dissolve`: each pixel switches from A to B at its own random moment; `seed` picks the pattern
        /// (the same seed gives the same pattern every time).
        case dissolve(seed: UInt64)
        /// Your own effect: `draw` receives both pictures and the eased progress and draws the result.
        case custom(name: String, draw: @Sendable (TransitionFrames, Double) throws -> Void)
    }

    /// The effect.
    public var kind: Kind
    /// How long the clips overlap. Joining clips shortens it when a clip is too short to hold it.
    public var duration: Time
    /// The timing curve applied to progress before the effect sees it (`.linear`, as xfade, by default).
    public var easing: Easing

    /// A transition of `kind` lasting `duration` (not negative), timed by `easing`.
    public init(_ kind: Kind, duration: Time = 1, easing: Easing = .linear) {
        precondition(duration >= .zero, "a transition's duration cannot be negative, got \(duration)")
        self.kind = kind; self.duration = duration; self.easing = easing
    }

    /// The xfade-style name: `fade`, `wipeleft`, `circleopen`…; `fadethrough(#rrggbb)` for other colours,
    /// the given name for custom effects.
    public var name: String { kind.name }
    /// `wipeleft (1s, linear)`.
    public var description: String { "\(name) (\(duration.seconds)s, \(easing.name))" }

    // MARK: Constructors

    /// A crossfade: A and B mixed, B's share growing (xfade `fade`).
    public static func crossfade(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.fade, duration: duration, easing: easing)
    }
    /// A crossfade (xfade `fade`); the same as `crossfade(duration:easing:)`.
    public static func fade(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.fade, duration: duration, easing: easing)
    }
    /// A fades to black, then B fades in from black (xfade `fadeblack`).
    public static func fadeThroughBlack(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.fadeThrough(.black), duration: duration, easing: easing)
    }
    /// A fades to white, then B fades in from white (xfade `fadewhite`).
    public static func fadeThroughWhite(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.fadeThrough(.white), duration: duration, easing: easing)
    }
    /// A fades to `color`, then B fades in from it.
    public static func fadeThrough(_ color: Color, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.fadeThrough(color), duration: duration, easing: easing)
    }
    /// A hard edge moving in `direction` uncovers B (xfade `wipeleft`…`wipedown`).
    public static func wipe(_ direction: Direction, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.wipe(direction), duration: duration, easing: easing)
    }
    /// A and B move together in `direction`, B pushing A out (xfade `slideleft`…`slidedown`).
    public static func slide(_ direction: Direction, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.slide(direction), duration: duration, easing: easing)
    }
    /// B pushes A out in `direction`, both moving: the same effect as `slide(_:)` (xfade `slideleft`…),
    /// under the name most editors give it.
    public static func push(_ direction: Direction, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.slide(direction), duration: duration, easing: easing)
    }
    /// B slides in moving in `direction` over a still A (xfade `coverleft`…`coverdown`).
    public static func cover(_ direction: Direction, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.cover(direction), duration: duration, easing: easing)
    }
    /// A slides away in `direction` from a still B (xfade `revealleft`…`revealdown`).
    public static func reveal(_ direction: Direction, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.reveal(direction), duration: duration, easing: easing)
    }
    /// A zooms into its centre, then B fades in (xfade `zoomin`).
    public static func zoomIn(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.zoomIn, duration: duration, easing: easing)
    }
    /// A fades into B's centre, then B zooms out to its full frame (`zoomin` backwards).
    public static func zoomOut(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.zoomOut, duration: duration, easing: easing)
    }
    /// B appears in a growing circle at the centre (xfade `circleopen`).
    public static func circleOpen(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.circleOpen, duration: duration, easing: easing)
    }
    /// A shrinks into a circle at the centre, B around it (xfade `circleclose`).
    public static func circleClose(duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.circleClose, duration: duration, easing: easing)
    }
    /// Pixels switch from A to B at random moments; the same `seed` gives the same pattern (xfade `dissolve`).
    public static func dissolve(seed: UInt64 = 0, duration: Time = 1, easing: Easing = .linear) -> Transition {
        Transition(.dissolve(seed: seed), duration: duration, easing: easing)
    }
    /// Your own effect: `draw` receives both pictures (`frames.outgoing`, `frames.incoming`) and the
    /// eased progress 0…1, and draws the blended picture into `frames.context`.
    public static func custom(name: String = "custom", duration: Time = 1, easing: Easing = .linear,
                              draw: @escaping @Sendable (TransitionFrames, Double) throws -> Void) -> Transition {
        Transition(.custom(name: name, draw: draw), duration: duration, easing: easing)
    }

    // MARK: Names

    /// Every name `init(xfadeName:)` accepts, in xfade's order, then `zoomout`. (`crossfade` and
    /// `pushleft`…`pushdown` are accepted too, as other names of `fade` and `slideleft`….)
    public static let knownNames: [String] = namedKinds.map(\.name)

    /// xfade transitions MovieMaker does not draw (named in the error, so nobody looks for a typo).
    static let unsupportedXfadeNames: Set<String> = [
        "custom", "distance", "pixelize", "hblur", "fadegrays", "fadefast", "fadeslow",
        "hlwind", "hrwind", "vuwind", "vdwind",
    ]

    /// The effects reachable by name, in xfade's order.
    private static let namedKinds: [Kind] = {
        var kinds: [Kind] = [.fade]
        kinds += Direction.allCases.map { .wipe($0) }
        kinds += Direction.allCases.map { .slide($0) }
        kinds += [.circleCrop, .rectCrop, .fadeThrough(.black), .fadeThrough(.white), .radial]
        kinds += Direction.allCases.map { .smooth($0) }
        kinds += [.circleOpen, .circleClose, .verticalOpen, .verticalClose, .horizontalOpen, .horizontalClose,
                  .dissolve(seed: 0)]
        kinds += Corner.allCases.map { .diagonal($0) }
        kinds += [Direction.left, .right, .up, .down].map { .slices($0) }
        kinds += Corner.allCases.map { .wipeCorner($0) }
        kinds += [.squeezeHorizontal, .squeezeVertical, .zoomIn]
        kinds += Direction.allCases.map { .cover($0) }
        kinds += Direction.allCases.map { .reveal($0) }
        kinds += [.zoomOut]
        return kinds
    }()

    /// Lower case without hyphens, underscores or spaces, so `wipe-left` and `WipeLeft` find `wipeleft`.
    private static func normalized(_ s: String) -> String {
        String(s.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }

    /// The effect for each accepted (normalised) name, aliases included.
    private static let kindsByName: [String: Kind] = {
        var table: [String: Kind] = [:]
        for k in namedKinds { table[k.name] = k }
        table["crossfade"] = .fade
        for d in Direction.allCases { table["push" + d.rawValue] = .slide(d) }
        return table
    }()

    /// The transition FFmpeg's `xfade` calls `xfadeName` (`fade`, `wipeleft`, `circleopen`… see
    /// `knownNames`), lasting `duration`. Case, hyphens and underscores do not matter.
    ///
    /// Throws `.invalidSetting` listing the known names when the name is unknown, and when `duration`
    /// is negative.
    public init(xfadeName: String, duration: Time = 1, easing: Easing = .linear) throws(MovieMakerError) {
        let key = Transition.normalized(xfadeName.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let kind = Transition.kindsByName[key] else {
            let known = Transition.knownNames.joined(separator: ", ")
            if Transition.unsupportedXfadeNames.contains(key) {
                throw .invalidSetting(.transition, value: "\"\(xfadeName)\"",
                                      expected: "a transition MovieMaker draws (xfade's \(key) is not one of them): \(known)")
            }
            throw .invalidSetting(.transition, value: "\"\(xfadeName)\"", expected: "one of \(known)")
        }
        guard duration >= .zero else {
            throw .invalidSetting(.transitionDuration, value: duration.description, expected: "0 seconds or more")
        }
        self.init(kind, duration: duration, easing: easing)
    }
}

extension Transition.Kind {
    /// The xfade-style name of the effect.
    var name: String {
        switch self {
        case .fade: return "fade"
        case let .fadeThrough(c):
            if c == .black { return "fadeblack" }
            if c == .white { return "fadewhite" }
            func hex(_ v: Double) -> String { String(format: "%02x", Int((min(max(v, 0), 1) * 255).rounded())) }
            return "fadethrough(#\(hex(c.red))\(hex(c.green))\(hex(c.blue))\(c.alpha < 1 ? hex(c.alpha) : ""))"
        case let .wipe(d): return "wipe" + d.rawValue
        case let .wipeCorner(c): return "wipe" + c.rawValue
        case let .slide(d): return "slide" + d.rawValue
        case let .cover(d): return "cover" + d.rawValue
        case let .reveal(d): return "reveal" + d.rawValue
        case let .smooth(d): return "smooth" + d.rawValue
        case .zoomIn: return "zoomin"
        case .zoomOut: return "zoomout"
        case .circleOpen: return "circleopen"
        case .circleClose: return "circleclose"
        case .circleCrop: return "circlecrop"
        case .rectCrop: return "rectcrop"
        case .verticalOpen: return "vertopen"
        case .verticalClose: return "vertclose"
        case .horizontalOpen: return "horzopen"
        case .horizontalClose: return "horzclose"
        case let .diagonal(c): return "diag" + c.rawValue
        case .radial: return "radial"
        case let .slices(d):
            switch d {
            case .left: return "hlslice"
            case .right: return "hrslice"
            case .up: return "vuslice"
            case .down: return "vdslice"
            }
        case .squeezeHorizontal: return "squeezeh"
        case .squeezeVertical: return "squeezev"
        case .dissolve: return "dissolve"
        case let .custom(name, _): return name
        }
    }
}

extension Clip {
    /// `a` then `b`, overlapping for `transition.duration` while the transition blends them: the result
    /// lasts `a.duration + b.duration − transition.duration` (as FFmpeg's xfade with its offset at
    /// `a.duration − transition.duration`). A transition longer than either clip is shortened to fit.
    public static func transition(from a: Clip, to b: Clip, using transition: Transition) -> Clip {
        Clip(.sequence(Track([a, b], transitions: [transition])))
    }

    /// Clips played one after another, each joined to the next by `transition` (each overlap shortened
    /// where a clip is too short to hold its transitions).
    public static func sequence(_ clips: [Clip], transition: Transition) -> Clip {
        Clip(.sequence(Track(clips, transitions: Array(repeating: transition, count: max(0, clips.count - 1)))))
    }

    /// Clips played one after another, `transitions[i]` joining clip `i` to clip `i + 1` (`nil` for a cut).
    ///
    /// Throws `.invalidSetting` unless there is exactly one entry per pair of neighbours (`clips.count − 1`).
    public static func sequence(_ clips: [Clip], transitions: [Transition?]) throws(MovieMakerError) -> Clip {
        let needed = max(0, clips.count - 1)
        guard transitions.count == needed else {
            throw .invalidSetting(.transitions, value: "\(transitions.count) for \(clips.count) clips",
                                  expected: "\(needed): one transition (or nil for a cut) between each clip and the next")
        }
        return Clip(.sequence(Track(clips, transitions: transitions)))
    }
}

import Foundation

/// A piece of a movie: a duration, and what it shows at any time within it.
///
/// A clip is a value, and a tree (the shape of OpenTimelineIO's Track/Stack/Clip/Transition and of
/// Remotion's nested `Sequence`): its `node` is either a leaf that draws — a *generator* (a drawing
/// closure, a colour, a title card, a Bézier animation, a slideshow) or *media* (a photo) — or a node
/// that arranges other clips — a *sequence* with transitions between neighbours, a *stack* (overlay),
/// a *time map* (offset, trim, repeat) or a *filtered* clip. Combinators build new nodes and never
/// change the clips they are built from:
///
/// <!-- prelude: let show = Clip.color(.gray, duration: 5); let watermark = Clip.color(.white, duration: 3); let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
/// ```swift
/// let intro = try TitleCard("Holiday").clip(width: 1920, height: 1080)
/// let film = Clip.sequence([intro, show, .color(.black, duration: 1)], transition: .crossfade(duration: 0.5))
/// try movie.add(Clip.overlay(film, watermark.delayed(by: 2)))
/// ```
///
/// Because the tree is data, it can be asked what it holds: `duration`, `leafPlacements` and
/// `leaves(in:)` (which leaves are drawn in a time range, and where), `mediaLeaves(in:)` (for
/// prefetching and decoder planning) and `contentHash()` (a stable hash of a subtree made only of data).
/// One interpreter draws any node at any time, so a frame's pixels depend only on the clip and the
/// frame's time — never on which thread draws it or in what order frames are drawn.
public struct Clip: Sendable {
    /// What the clip is: a leaf that draws, or a node arranging other clips.
    package let node: Node
    /// How long the clip lasts.
    public let duration: Time
    /// Sounds attached at this level of the tree (`withSound(_:at:)`), in this clip's time.
    var attachedSounds: [ClipSound] = []

    /// A clip of `node`, lasting as long as the node does.
    package init(_ node: Node) {
        self.node = node
        duration = node.duration
    }

    /// A clip that draws with `draw`, which receives the time within this clip.
    ///
    /// The closure is a leaf of the tree that is not data: a clip containing one cannot be encoded
    /// (`Encodable`) and has no `contentHash`.
    public init(duration: Time, draw: @escaping @Sendable (DrawingContext, Frame) throws -> Void) {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        self.init(.generator(.drawing(DrawingClosure(draw)), duration: duration))
    }

    /// A clip that draws with `draw`, a picture the library makes from data: `content` describes all it
    /// depends on besides the frame's time, so the clip has a `contentHash` (and an incremental render
    /// reuses its segments) as a clip of data leaves does.
    package init(duration: Time, content: some Encodable, draw: @escaping @Sendable (DrawingContext, Frame) throws -> Void) {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        self.init(.generator(.drawing(DrawingClosure(content: content, draw)), duration: duration))
    }

    /// Draws the clip's picture for `frame` (whose `exactTime` is within this clip) into `context`.
    ///
    /// Inside a render (`MovieMaker.add`, `still(at:…)`, or a clip drawn from another clip's closure
    /// during one) this uses that render's opened media; called on its own it opens what it needs.
    public func draw(in context: DrawingContext, at frame: Frame) throws {
        if let session = RenderSession.current {
            try render(in: context, at: frame, session: session)
        } else {
            try render(in: context, at: frame, session: RenderSession.standalone(for: context))
        }
    }

    /// A clip that fills the frame with one colour. A negative `duration` stops the program (a
    /// precondition, as for every clip made with a duration).
    public static func color(_ color: Color, duration: Time) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        return Clip(.generator(.color(color), duration: duration))
    }
    /// A clip that draws nothing (leaves what is below it).
    public static func empty(duration: Time) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        return Clip(.generator(.empty, duration: duration))
    }

    /// Clips played one after another; the result lasts as long as all of them together.
    public static func sequence(_ clips: [Clip]) -> Clip {
        Clip(.sequence(Track(clips, transitions: Array(repeating: nil, count: max(0, clips.count - 1)))))
    }
    /// Clips played one after another.
    public static func sequence(_ clips: Clip...) -> Clip { sequence(clips) }

    /// Clips drawn on top of each other, the first at the bottom; each is drawn only while it lasts,
    /// and the result lasts as long as the longest.
    public static func overlay(_ clips: [Clip]) -> Clip { Clip(.stack(clips)) }
    /// Clips drawn on top of each other, the first at the bottom.
    public static func overlay(_ clips: Clip...) -> Clip { overlay(clips) }

    /// This clip starting `delay` later: nothing is drawn before it starts. A negative `delay` stops the
    /// program (a precondition): to start a clip earlier, trim its head (`trimmed(from:to:)`).
    public func delayed(by delay: Time) -> Clip {
        precondition(delay >= .zero, "a delay cannot be negative, got \(delay)")
        return Clip(.timeMap(.offset(delay), self))
    }
    /// This clip cut to its first `duration` (or as long as it is, if shorter). Its sounds stop there
    /// (with a 10 ms fade, so the cut does not click).
    public func trimmed(to duration: Time) -> Clip {
        Clip(.timeMap(.trim(from: .zero, to: Time.max(.zero, Time.min(duration, self.duration))), self))
    }
    /// This clip from `start` to `end` of its own time. Its sounds are cut to the same span (with
    /// 10 ms fades where a cut falls inside a sound).
    public func trimmed(from start: Time, to end: Time) -> Clip {
        let s = Time.max(.zero, start), e = Time.min(end, duration)
        return Clip(.timeMap(.trim(from: s, to: Time.max(s, e)), self))
    }
    /// This clip played `count` times in a row.
    public func repeated(_ count: Int) -> Clip {
        Clip(.timeMap(.repeating(count: max(0, count)), self))
    }
    /// This clip through `filters`, applied in order to its picture (drawn alone on a transparent
    /// layer, then drawn over what is below). See `Clip.Filter`, `ColorFilter`, `SpatialFilter`.
    public func filtered(_ filters: [Filter]) -> Clip {
        Clip(.filtered(filters, self))
    }
}

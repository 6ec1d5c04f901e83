import Foundation

/// Where a drawing closure is in time: the frame being drawn and the time within its clip.
public struct Frame: Sendable, Hashable {
    /// Index of the frame within the current clip or `addFrames` call, from 0.
    public let index: Int
    /// Index of the frame within the whole movie.
    public let movieIndex: Int
    /// The movie's frame rate.
    public let rate: FrameRate
    /// Exact time within the clip (or `addFrames` call).
    public let exactTime: Time
    /// The clip's duration (for `addFrames`, `count` frames).
    public let duration: Time

    /// Creates a frame description.
    public init(index: Int, movieIndex: Int, rate: FrameRate, exactTime: Time, duration: Time) {
        self.index = index; self.movieIndex = movieIndex; self.rate = rate; self.exactTime = exactTime; self.duration = duration
    }
    /// Time within the clip in seconds, computed from the exact time (never accumulated).
    public var time: Double { exactTime.seconds }
    /// Time in the whole movie in seconds, computed from the movie's frame index.
    public var movieTime: Double { rate.seconds(ofFrame: movieIndex) }
    /// How far through the clip this frame is: 0 at its start, approaching 1 at its end.
    public var progress: Double { duration > .zero ? min(max(exactTime.seconds / duration.seconds, 0), 1) : 0 }

    /// The same frame seen from a clip that starts `offset` later and lasts `duration`.
    func shifted(by offset: Time, duration: Time) -> Frame {
        let local = exactTime - offset
        return Frame(index: rate.frameCount(for: local), movieIndex: movieIndex, rate: rate, exactTime: local, duration: duration)
    }
}

/// A piece of a movie: a duration, and how to draw itself at any time within it.
///
/// Clips are values: combinators return new clips and never change the ones they are built from.
/// Build one from a closure, then put clips one after another (`Clip.sequence`), on top of each other
/// (`Clip.overlay`), shift, trim or loop them, and render the result with `MovieMaker.add(_:)`.
public struct Clip: Sendable {
    /// How long the clip lasts.
    public let duration: Time
    private let render: @Sendable (DrawingContext, Frame) throws -> Void
    /// The sounds that play with the clip (see `withSound(_:at:)`), in the clip's time.
    public internal(set) var sounds: [ClipSound] = []

    /// A clip that draws with `draw`, which receives the time within this clip.
    public init(duration: Time, draw: @escaping @Sendable (DrawingContext, Frame) throws -> Void) {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        self.duration = duration
        self.render = draw
    }

    /// Draws the clip's picture for `frame` (whose `exactTime` is within this clip) into `context`.
    public func draw(in context: DrawingContext, at frame: Frame) throws {
        try render(context, frame)
    }

    /// A clip that fills the frame with one colour.
    public static func color(_ color: Color, duration: Time) -> Clip {
        Clip(duration: duration) { ctx, _ in ctx.clear(color) }
    }
    /// A clip that draws nothing (leaves what is below it).
    public static func empty(duration: Time) -> Clip { Clip(duration: duration) { _, _ in } }

    /// Clips played one after another; the result lasts as long as all of them together.
    public static func sequence(_ clips: [Clip]) -> Clip {
        var offsets: [Time] = []
        var total = Time.zero
        for c in clips { offsets.append(total); total = total + c.duration }
        let starts = offsets
        var result = Clip(duration: total) { ctx, frame in
            // The last clip that starts at or before this time, skipping zero-length clips.
            var i = clips.count - 1
            while i > 0 && (starts[i] > frame.exactTime || clips[i].duration == .zero) { i -= 1 }
            guard i >= 0, clips[i].duration > .zero else { return }
            try clips[i].draw(in: ctx, at: frame.shifted(by: starts[i], duration: clips[i].duration))
        }
        result.sounds = zip(clips, starts).flatMap { clip, start in clip.sounds.map { $0.shifted(by: start) } }
        return result
    }
    /// Clips played one after another.
    public static func sequence(_ clips: Clip...) -> Clip { sequence(clips) }

    /// Clips drawn on top of each other, the first at the bottom; each is drawn only while it lasts,
    /// and the result lasts as long as the longest.
    public static func overlay(_ clips: [Clip]) -> Clip {
        let total = clips.map(\.duration).max() ?? .zero
        var result = Clip(duration: total) { ctx, frame in
            for c in clips where frame.exactTime < c.duration {
                try ctx.withSavedState { try c.draw(in: ctx, at: Frame(index: frame.index, movieIndex: frame.movieIndex, rate: frame.rate, exactTime: frame.exactTime, duration: c.duration)) }
            }
        }
        result.sounds = clips.flatMap(\.sounds)
        return result
    }
    /// Clips drawn on top of each other, the first at the bottom.
    public static func overlay(_ clips: Clip...) -> Clip { overlay(clips) }

    /// This clip starting `delay` later: nothing is drawn before it starts.
    public func delayed(by delay: Time) -> Clip {
        .sequence([.empty(duration: delay), self])
    }
    /// This clip cut to its first `duration` (or as long as it is, if shorter). Its sounds stop there
    /// (with a 10 ms fade, so the cut does not click).
    public func trimmed(to duration: Time) -> Clip {
        let d = Time.min(duration, self.duration)
        var result = Clip(duration: d) { ctx, frame in try self.draw(in: ctx, at: Frame(index: frame.index, movieIndex: frame.movieIndex, rate: frame.rate, exactTime: frame.exactTime, duration: self.duration)) }
        result.sounds = sounds.map { $0.limited(from: nil, until: d) }.filter(\.isHeard)
        return result
    }
    /// This clip from `start` to `end` of its own time. Its sounds are cut to the same span (with
    /// 10 ms fades where a cut falls inside a sound).
    public func trimmed(from start: Time, to end: Time) -> Clip {
        let s = Time.max(.zero, start), e = Time.min(end, duration)
        let d = Time.max(.zero, e - s)
        var result = Clip(duration: d) { ctx, frame in
            let t = frame.exactTime + s
            try self.draw(in: ctx, at: Frame(index: frame.rate.frameCount(for: t), movieIndex: frame.movieIndex, rate: frame.rate, exactTime: t, duration: self.duration))
        }
        result.sounds = sounds.map { $0.limited(from: s, until: e).shifted(by: .zero - s) }.filter(\.isHeard)
        return result
    }
    /// This clip played `count` times in a row.
    public func repeated(_ count: Int) -> Clip {
        .sequence(Array(repeating: self, count: max(0, count)))
    }
}

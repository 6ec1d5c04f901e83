import Foundation

extension Clip {
    /// Where a leaf of a clip tree is drawn: which leaf, when in the root's time, and from where in its own.
    public struct Placement: Sendable {
        /// The leaf (its `node` is a generator or media).
        public let clip: Clip
        /// The positions of the nodes from the root down to the leaf, each an index into its parent's
        /// `node.children` (for a slideshow's photos, the path continues into its `photos` clip: the
        /// slideshow's index, then 0 for `photos`, then on down).
        public let path: [Int]
        /// When the leaf is drawn, in the root's time (a leaf of a repeated clip has one placement per
        /// repetition).
        public let range: TimeRange
        /// The leaf's own time at `range.start`: within the placement the leaf shows its time
        /// `localStart + (t − range.start)` (a trim shows a leaf from later than its start).
        public let localStart: Time
        /// How much of the leaf's own time is shown over `range`: `range.duration` unless a speed change
        /// above the leaf plays it faster or slower (then times the speed), or a reverse, freeze or loop
        /// node spreads it (then the part its child showed).
        let localDuration: Time
        /// The reverse, freeze or loop nodes above the leaf, outermost first: each placed the leaf over
        /// its whole span (the leaf may show anywhere in it), and says where its child showed the leaf.
        var spreads: [Spread]

        /// A reverse, freeze or loop node that placed a leaf over its whole span.
        struct Spread: Sendable {
            /// The node's path from the root.
            let node: [Int]
            /// Where the node's child showed the leaf, in the child's own time. The node shows one moment
            /// of its child at a time, so two leaves it placed show at once only where these overlap.
            let range: TimeRange
        }

        /// The part of the leaf's own time shown over `range` (under `speed(_:)` longer or shorter than
        /// `range`; under a reverse, freeze or loop, what that node's child showed).
        public var localRange: TimeRange { TimeRange(start: localStart, duration: localDuration) }

        /// The leaf `clip` at `path`, drawn over `range` from its own `localStart` for `localDuration`
        /// (nil: `range.duration`).
        init(clip: Clip, path: [Int], range: TimeRange, localStart: Time, localDuration: Time? = nil, spreads: [Spread] = []) {
            self.clip = clip; self.path = path; self.range = range; self.localStart = localStart
            self.localDuration = localDuration ?? range.duration; self.spreads = spreads
        }

        /// The leaves of `placements` shown together at the moment that makes `score` of them largest,
        /// and when that moment is (in the root's time), or nil when there are none. Leaves a reverse,
        /// freeze or loop node placed count as shown together only where its child shows them together,
        /// so a reversed stitch shows one clip at a time.
        static func busiestMoment(of placements: [Placement], score: ([Placement]) -> Int) -> (time: Time, shown: [Placement])? {
            var best: (time: Time, shown: [Placement], score: Int)? = nil
            for t in Set(placements.map(\.range.start)).sorted() {
                let shown = choose(placements.filter { $0.range.start <= t && t < $0.range.end }, level: 0, adding: [], score: score)
                let s = score(shown)
                if s > (best?.score ?? 0) { best = (t, shown, s) }
            }
            return best.map { ($0.time, $0.shown) }
        }

        /// `chosen` and the leaves of `placements` (all shown at one root time, and under the same
        /// spreading nodes down to `level`) shown at one moment of each spreading node below, the
        /// moment chosen node by node to make `score` largest.
        private static func choose(_ placements: [Placement], level: Int, adding chosen: [Placement],
                                   score: ([Placement]) -> Int) -> [Placement] {
            var chosen = chosen + placements.filter { $0.spreads.count == level }
            let groups = Dictionary(grouping: placements.filter { $0.spreads.count > level }, by: { $0.spreads[level].node })
            for (_, group) in groups.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                var best: [Placement]? = nil
                for moment in Set(group.map { $0.spreads[level].range.start }).sorted() {
                    let here = group.filter { $0.spreads[level].range.start <= moment && moment < $0.spreads[level].range.end }
                    let picked = choose(here, level: level + 1, adding: chosen, score: score)
                    if best == nil || score(picked) > score(best!) { best = picked }
                }
                chosen = best ?? chosen
            }
            return chosen
        }
    }

    /// Every leaf of the tree where it is drawn, in the order the tree lists them (depth first), once per
    /// repetition of a repeated clip. A slideshow is one leaf here; `mediaLeaves(in:)` looks inside it.
    public var leafPlacements: [Placement] { leaves(in: .zero..<duration) }

    /// The leaves drawn at some time in `range` (root time), each with the part of `range` it is drawn
    /// in, in tree order. Computed from the tree alone: nothing is drawn or opened.
    public func leaves(in range: Range<Time>) -> [Placement] {
        var out: [Placement] = []
        visitLeaves(in: range, offset: .zero, path: [], intoSlideshows: false) { out.append($0) }
        return out
    }

    /// The media leaves (photos; a slideshow's photos included) drawn at some time in `range`, each with
    /// the part of its own time shown: what a render will need from which file, for prefetching and
    /// for planning how many decoders to keep open.
    public func mediaLeaves(in range: Range<Time>) -> [Placement] {
        var out: [Placement] = []
        visitLeaves(in: range, offset: .zero, path: [], intoSlideshows: true) { placement in
            if case .media = placement.clip.node { out.append(placement) }
        }
        return out
    }

    /// Calls `body` for each leaf drawn within `window` (this clip's time), whose time 0 is at `offset`
    /// in the root's time.
    private func visitLeaves(in window: Range<Time>, offset: Time, path: [Int], intoSlideshows: Bool,
                             _ body: (Placement) -> Void) {
        let shown = window.clamped(to: .zero..<Time.max(.zero, duration))
        guard !shown.isEmpty else { return }
        /// Visits `child`, drawn over `span` of this clip's time, whose time 0 is at `childZero` of this clip's time.
        func visit(_ child: Clip, index: Int, span: Range<Time>, childZero: Time) {
            let part = shown.clamped(to: span)
            guard !part.isEmpty else { return }
            child.visitLeaves(in: (part.lowerBound - childZero)..<(part.upperBound - childZero), offset: offset + childZero,
                              path: path + [index], intoSlideshows: intoSlideshows, body)
        }
        switch node {
        case let .generator(.slideshow(leaf), _) where intoSlideshows:
            visit(leaf.photos, index: 0, span: shown, childZero: .zero)
        case .generator, .media:
            body(Placement(clip: self, path: path, range: TimeRange(start: offset + shown.lowerBound, duration: shown.upperBound - shown.lowerBound),
                           localStart: shown.lowerBound))
        case let .sequence(track):
            for i in track.items.indices where track.items[i].duration > .zero {
                visit(track.items[i], index: i, span: track.span(of: i), childZero: track.starts[i])
            }
        case let .stack(clips):
            for (k, c) in clips.enumerated() { visit(c, index: k, span: .zero..<c.duration, childZero: .zero) }
        case let .timeMap(.offset(delay), child):
            visit(child, index: 0, span: delay..<(delay + child.duration), childZero: delay)
        case let .timeMap(.trim(from, _), child):
            visit(child, index: 0, span: shown, childZero: .zero - from)
        case let .timeMap(.repeating(count), child):
            let d = child.duration
            guard count > 0, d > .zero else { return }
            let first = max(0, Int(shown.lowerBound.quotient(dividingBy: d)))
            // The repetition holding the last instant before the window's (exclusive) end.
            let q = Int(shown.upperBound.quotient(dividingBy: d))
            let last = min(count - 1, d * q == shown.upperBound ? q - 1 : q)
            guard first <= last else { return }
            for k in first...last {
                let start = d * k
                visit(child, index: 0, span: start..<(start + d), childZero: start)
            }
        case let .filtered(_, child), let .transformed(_, child):
            visit(child, index: 0, span: shown, childZero: .zero)
        case let .masked(child, mask, _):
            visit(child, index: 0, span: shown, childZero: .zero)
            visit(mask, index: 1, span: .zero..<mask.duration, childZero: .zero)
        case let .split(split):
            for (k, cell) in split.cells.enumerated() { visit(cell.clip, index: k, span: .zero..<cell.clip.duration, childZero: .zero) }
        case let .timeMap(.speed(speed), child):
            // Linear: the child's time is the node's × speed. Leaves are placed over the part of the
            // node's time they show (their local start in the child's own time).
            let childShown = speed.sourceTime(at: shown.lowerBound)..<speed.sourceTime(at: shown.upperBound)
            child.visitLeaves(in: childShown, offset: .zero, path: path + [0], intoSlideshows: intoSlideshows) { p in
                let start = speed.outputTime(at: p.range.start), end = speed.outputTime(at: p.range.start + p.range.duration)
                body(Placement(clip: p.clip, path: p.path, range: TimeRange(start: offset + start, duration: end - start), localStart: p.localStart,
                               localDuration: p.localDuration, spreads: p.spreads))
            }
        case let .timeMap(.reverse, child), let .timeMap(.freeze, child), let .timeMap(.loop, child):
            // Not a shift: every leaf the child shows is placed over the whole span shown (a leaf may
            // show anywhere in it), starting from its own start.
            child.visitLeaves(in: .zero..<child.duration, offset: .zero, path: path + [0], intoSlideshows: intoSlideshows) { p in
                body(Placement(clip: p.clip, path: p.path, range: TimeRange(start: offset + shown.lowerBound, duration: shown.upperBound - shown.lowerBound),
                               localStart: p.localStart, localDuration: p.localDuration,
                               spreads: [Placement.Spread(node: path, range: p.range)] + p.spreads))
            }
        }
    }
}

import Foundation

// Morphing between paths: point-by-point when the structures match, otherwise through a common structure
// of cubic Béziers computed once by `PathMorph`.

extension Path: Interpolatable {
    /// The path `amount` of the way to `other`: point by point when both have the same element kinds in
    /// order, otherwise through a common cubic structure (see `PathMorph`, which also caches that work).
    public func interpolated(to other: Path, amount: Double) -> Path {
        PathMorph(from: self, to: other).path(at: amount)
    }
}

/// A precomputed morph between two paths, so a clip that morphs every frame does the matching only once.
///
/// Paths with the same element kinds in order are blended point by point. Otherwise both become cubic
/// Béziers; subpaths are paired in order (a subpath without a partner grows from, or shrinks to, its own
/// centre); each pair is subdivided at equal arc lengths until both have the same number of segments (at
/// least `minimumSegments`, so that corners can find their place); and for two closed subpaths the
/// direction is matched and the start point rotated to minimise travel.
/// At amounts 0 and 1 the morph returns the original paths exactly.
public struct PathMorph: Hashable, Sendable {
    /// The path at amount 0.
    public let start: Path
    /// The path at amount 1.
    public let end: Path
    private let pairs: [Pair]?   // nil when the structures match

    /// The fewest cubic segments per subpath in a common structure.
    package static let minimumSegments = 16

    /// A pair of matching subpaths as cubic chains (3·n + 1 points each).
    package struct Pair: Hashable, Sendable {
        package var from: PathMorph.Chain
        package var to: PathMorph.Chain
    }

    /// A subpath as a chain of cubic Béziers: the start point, then two controls and an end per segment.
    package struct Chain: Hashable, Sendable {
        package var points: [PathVector]
        package var isClosed: Bool
        package var segmentCount: Int { (points.count - 1) / 3 }
        package func segment(_ k: Int) -> PathSegment {
            .cubic(points[3 * k], points[3 * k + 1], points[3 * k + 2], points[3 * k + 3])
        }
    }

    /// Prepares the morph from `start` to `end`.
    public init(from start: Path, to end: Path) {
        self.start = start
        self.end = end
        pairs = PathMorph.sameStructure(start, end) ? nil : PathMorph.match(start, end)
    }

    /// The path `amount` of the way from `start` (0) to `end` (1); amounts outside 0…1 extrapolate.
    public func path(at amount: Double) -> Path {
        if amount == 0 { return start }
        if amount == 1 { return end }
        guard let pairs else {
            return Path(elements: zip(start.elements, end.elements).map { PathMorph.blend($0, $1, amount) })
        }
        return PathMorph.blend(pairs, amount)
    }

    /// The common-structure path at `amount`, without the exact originals at 0 and 1 (for tests).
    package func commonPath(at amount: Double) -> Path {
        guard let pairs else {
            return Path(elements: zip(start.elements, end.elements).map { PathMorph.blend($0, $1, amount) })
        }
        return PathMorph.blend(pairs, amount)
    }

    // MARK: Same structure

    private static func sameStructure(_ a: Path, _ b: Path) -> Bool {
        guard a.elements.count == b.elements.count else { return false }
        return zip(a.elements, b.elements).allSatisfy { pair in
            switch pair {
            case (.move, .move), (.line, .line), (.quadCurve, .quadCurve), (.curve, .curve), (.closeSubpath, .closeSubpath): return true
            default: return false
            }
        }
    }

    private static func blend(_ a: Path.Element, _ b: Path.Element, _ t: Double) -> Path.Element {
        switch (a, b) {
        case let (.move(p), .move(q)): return .move(to: p.interpolated(to: q, amount: t))
        case let (.line(p), .line(q)): return .line(to: p.interpolated(to: q, amount: t))
        case let (.quadCurve(p, c), .quadCurve(q, d)):
            return .quadCurve(to: p.interpolated(to: q, amount: t), control: c.interpolated(to: d, amount: t))
        case let (.curve(p, c1, c2), .curve(q, d1, d2)):
            return .curve(to: p.interpolated(to: q, amount: t), control1: c1.interpolated(to: d1, amount: t),
                          control2: c2.interpolated(to: d2, amount: t))
        default: return a   // unreachable: kinds were checked, and .closeSubpath has nothing to blend
        }
    }

    private static func blend(_ pairs: [Pair], _ t: Double) -> Path {
        var path = Path()
        for pair in pairs {
            let a = pair.from.points, b = pair.to.points
            func at(_ i: Int) -> Point { Point(pathVector: a[i].pathLerp(b[i], t)) }
            path.move(to: at(0))
            for k in 0..<pair.from.segmentCount {
                path.curve(to: at(3 * k + 3), control1: at(3 * k + 1), control2: at(3 * k + 2))
            }
            if t < 0.5 ? pair.from.isClosed : pair.to.isClosed { path.closeSubpath() }
        }
        return path
    }

    // MARK: Common structure

    private static func match(_ start: Path, _ end: Path) -> [Pair] {
        var a = chains(start), b = chains(end)
        while a.count < b.count { a.append(collapsed(b[a.count])) }
        while b.count < a.count { b.append(collapsed(a[b.count])) }
        return zip(a, b).map { pairUp($0, $1) }
    }

    /// The subpaths of `path` that draw something, as cubic chains; a closed chain ends on its start.
    package static func chains(_ path: Path) -> [Chain] {
        PathGeometry(path).subpaths.map { subpath in
            var segments = subpath.segments
            if subpath.isClosed, segments.count > 1,
               let close = segments.last, close.length <= 1e-9 * max(segments.map(\.controlPolygonLength).reduce(0, +), 1e-300) {
                segments.removeLast()   // a close of (almost) no length: the loop already ends at its start
            }
            var points = [subpath.start]
            for segment in segments { let c = segment.asCubic; points += [c.p1, c.p2, c.p3] }
            if subpath.isClosed { points[points.count - 1] = subpath.start }
            return Chain(points: points, isClosed: subpath.isClosed)
        }
    }

    /// A chain like `chain` collapsed to the centre of its control points.
    private static func collapsed(_ chain: Chain) -> Chain {
        var box = PathBox()
        for p in chain.points { box.add(p) }
        let centre = box.rect.center.pathVector
        return Chain(points: Array(repeating: centre, count: chain.points.count), isClosed: chain.isClosed)
    }

    private static func pairUp(_ first: Chain, _ second: Chain) -> Pair {
        var a = first, b = second
        let loops = a.isClosed && b.isClosed
        if loops, signedArea(a) * signedArea(b) < 0 { b.points.reverse() }
        let count = max(a.segmentCount, b.segmentCount, minimumSegments)
        a = subdivided(a, into: count)
        b = subdivided(b, into: count)
        if loops { b = rotated(b, by: bestRotation(a, b)) }
        return Pair(from: a, to: b)
    }

    /// The signed area enclosed by a closed chain, from a few samples per segment (shoelace).
    private static func signedArea(_ chain: Chain) -> Double {
        var samples: [PathVector] = []
        for k in 0..<chain.segmentCount {
            let s = chain.segment(k)
            for t in [0.0, 0.25, 0.5, 0.75] { samples.append(s.point(at: t)) }
        }
        var area = 0.0
        for i in samples.indices {
            let p = samples[i], q = samples[(i + 1) % samples.count]
            area += p.x * q.y - q.x * p.y
        }
        return area / 2
    }

    /// `chain` with its segments split at equal arc lengths into `count` segments in all, giving extra
    /// pieces to whichever segment has the longest pieces.
    private static func subdivided(_ chain: Chain, into count: Int) -> Chain {
        let n = chain.segmentCount
        guard count > n else { return chain }
        let segments = (0..<n).map(chain.segment)
        let lengths = segments.map(\.length)
        var pieces = Array(repeating: 1, count: n)
        for _ in 0..<(count - n) {
            var best = 0
            for j in 1..<n where lengths[j] * Double(pieces[best]) > lengths[best] * Double(pieces[j]) { best = j }
            pieces[best] += 1
        }
        var points = [chain.points[0]]
        for j in 0..<n {
            let m = pieces[j], segment = segments[j], length = lengths[j]
            var previous = 0.0
            for k in 1...m {
                let t = k == m ? 1 : (length > 0 ? segment.parameter(atLength: length * Double(k) / Double(m), total: length)
                                                 : Double(k) / Double(m))
                let piece = segment.piece(from: previous, to: t)
                points += [piece.p1, piece.p2, k == m ? segment.p3 : piece.p3]
                previous = t
            }
        }
        return Chain(points: points, isClosed: chain.isClosed)
    }

    /// The number of segments to turn closed chain `b` by so its segment ends land nearest `a`'s.
    private static func bestRotation(_ a: Chain, _ b: Chain) -> Int {
        let n = a.segmentCount
        var best = 0, bestCost = Double.infinity
        for r in 0..<n {
            var cost = 0.0
            for k in 0..<n {
                let d = a.points[3 * k] - b.points[3 * ((k + r) % n)]
                cost += d.x * d.x + d.y * d.y
                if cost >= bestCost { break }
            }
            if cost < bestCost { bestCost = cost; best = r }
        }
        return best
    }

    /// Closed chain `chain` starting `r` segments later.
    private static func rotated(_ chain: Chain, by r: Int) -> Chain {
        guard r > 0 else { return chain }
        let loop = chain.points.dropLast()   // the last point repeats the first
        let shifted = Array(loop[(3 * r)...] + loop[..<(3 * r)])
        return Chain(points: shifted + [shifted[0]], isClosed: true)
    }
}

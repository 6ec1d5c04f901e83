import Foundation

// Geometry of `Path`: transforms, exact bounds, arc length, points and tangents along the outline,
// trimming, flattening and reversal. Internally every drawing element becomes a `PathSegment` with an
// explicit start point, grouped into `PathGeometry.Subpath`s the way Cairo reads the elements.

/// A 2-D vector for the path maths (`SIMD2` brings `+`, `-` and scaling without new operators on `Point`).
package typealias PathVector = SIMD2<Double>

extension Point {
    /// The point as a vector.
    package var pathVector: PathVector { PathVector(x, y) }
    /// A point from a vector.
    package init(pathVector v: PathVector) { self.init(x: v.x, y: v.y) }
}

extension SIMD2 where Scalar == Double {
    /// Euclidean length.
    package var pathNorm: Double { (x * x + y * y).squareRoot() }
    /// `self` `t` of the way to `other`.
    package func pathLerp(_ other: PathVector, _ t: Double) -> PathVector { self + (other - self) * t }
}

/// Cubic Bézier approximations of circular arcs.
package enum PathArc {
    /// One cubic piece of a unit-circle arc (control points and end point; the start is the previous end).
    package struct Piece { var control1: PathVector; var control2: PathVector; var end: PathVector }

    /// The unit-circle arc from `startAngle` turning by `sweep` radians, in pieces of at most 90°.
    ///
    /// Each piece uses the standard handle length 4/3·tan(θ/4), which meets the circle at both ends and the
    /// middle and stays outside it by at most 2.7e-4 of the radius for a 90° piece.
    package static func unitCircleCubics(startAngle: Double, sweep: Double) -> [Piece] {
        guard sweep != 0, sweep.isFinite, startAngle.isFinite else { return [] }
        let count = max(1, Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        var pieces: [Piece] = []
        pieces.reserveCapacity(count)
        for i in 0..<count {
            let a0 = startAngle + step * Double(i)
            let a1 = i == count - 1 ? startAngle + sweep : startAngle + step * Double(i + 1)
            let p0 = PathVector(cos(a0), sin(a0))
            // A full turn ends exactly where it started (cos 2π and sin 2π are not exact).
            let p3 = i == count - 1 && abs(sweep) == 2 * .pi ? PathVector(cos(startAngle), sin(startAngle))
                                                            : PathVector(cos(a1), sin(a1))
            pieces.append(Piece(control1: p0 + k * PathVector(-p0.y, p0.x),
                                control2: p3 - k * PathVector(-p3.y, p3.x), end: p3))
        }
        return pieces
    }
}

/// Gauss–Legendre quadrature on [-1, 1], with nodes found by Newton's method on the Legendre polynomial.
package enum PathQuadrature {
    /// Order of the rule.
    package static let order = 8
    /// Nodes and weights.
    package static let rule: (nodes: [Double], weights: [Double]) = {
        let n = order
        var nodes: [Double] = [], weights: [Double] = []
        for i in 0..<n {
            var x = cos(.pi * (Double(i) + 0.75) / (Double(n) + 0.5))
            var derivative = 0.0
            for _ in 0..<100 {
                var p0 = 1.0, p1 = x
                for k in 1..<n { (p0, p1) = (p1, ((2 * Double(k) + 1) * x * p1 - Double(k) * p0) / Double(k + 1)) }
                derivative = Double(n) * (x * p1 - p0) / (x * x - 1)
                let dx = p1 / derivative
                x -= dx
                if abs(dx) < 1e-16 { break }
            }
            nodes.append(x)
            weights.append(2 / ((1 - x * x) * derivative * derivative))
        }
        return (nodes, weights)
    }()
}

/// One drawing element with its start point: a line, a quadratic or a cubic Bézier.
package struct PathSegment: Hashable, Sendable {
    /// The kind of curve.
    package enum Kind: Hashable, Sendable { case line, quad, cubic }
    /// The kind of curve.
    package var kind: Kind
    /// Start point.
    package var p0: PathVector
    /// First control point (the only one for a quadratic; unused for a line).
    package var p1: PathVector
    /// Second control point of a cubic (unused otherwise).
    package var p2: PathVector
    /// End point.
    package var p3: PathVector
    /// True for the line a `closeSubpath` adds back to the subpath's start.
    package var isClose = false

    /// A straight line.
    package static func line(_ a: PathVector, _ b: PathVector, isClose: Bool = false) -> PathSegment {
        PathSegment(kind: .line, p0: a, p1: a, p2: b, p3: b, isClose: isClose)
    }
    /// A quadratic Bézier.
    package static func quad(_ a: PathVector, _ c: PathVector, _ b: PathVector) -> PathSegment {
        PathSegment(kind: .quad, p0: a, p1: c, p2: c, p3: b)
    }
    /// A cubic Bézier.
    package static func cubic(_ a: PathVector, _ c1: PathVector, _ c2: PathVector, _ b: PathVector) -> PathSegment {
        PathSegment(kind: .cubic, p0: a, p1: c1, p2: c2, p3: b)
    }

    /// The element that draws this segment from its start point (a close segment gives `closeSubpath`).
    package var element: Path.Element {
        if isClose { return .closeSubpath }
        return drawingElement
    }
    /// The element that draws this segment from its start point (a close segment gives a line).
    package var drawingElement: Path.Element {
        switch kind {
        case .line: return .line(to: Point(pathVector: p3))
        case .quad: return .quadCurve(to: Point(pathVector: p3), control: Point(pathVector: p1))
        case .cubic: return .curve(to: Point(pathVector: p3), control1: Point(pathVector: p1), control2: Point(pathVector: p2))
        }
    }

    /// The same curve as a cubic (exact: lines get handles at thirds, quadratics are degree-raised).
    package var asCubic: PathSegment {
        switch kind {
        case .cubic: return self
        case .line: return .cubic(p0, p0.pathLerp(p3, 1.0 / 3.0), p0.pathLerp(p3, 2.0 / 3.0), p3)
        case .quad: return .cubic(p0, p0.pathLerp(p1, 2.0 / 3.0), p3.pathLerp(p1, 2.0 / 3.0), p3)
        }
    }

    /// The point at parameter `t` (0…1).
    package func point(at t: Double) -> PathVector {
        let s = 1 - t
        switch kind {
        case .line: return t == 1 ? p3 : p0 + (p3 - p0) * t
        case .quad: return s * s * p0 + 2 * s * t * p1 + t * t * p3
        case .cubic:
            let b0: Double = s * s * s, b1: Double = 3 * s * s * t, b2: Double = 3 * s * t * t, b3: Double = t * t * t
            let head: PathVector = b0 * p0 + b1 * p1
            return head + b2 * p2 + b3 * p3
        }
    }
    /// The first derivative at `t`.
    package func derivative(at t: Double) -> PathVector {
        let s = 1 - t
        switch kind {
        case .line: return p3 - p0
        case .quad: return 2 * (s * (p1 - p0) + t * (p3 - p1))
        case .cubic: return 3 * (s * s * (p1 - p0) + 2 * s * t * (p2 - p1) + t * t * (p3 - p2))
        }
    }
    /// The second derivative at `t`.
    package func secondDerivative(at t: Double) -> PathVector {
        switch kind {
        case .line: return .zero
        case .quad: return 2 * (p0 - 2 * p1 + p3)
        case .cubic:
            let first: PathVector = p0 - 2 * p1 + p2, second: PathVector = p1 - 2 * p2 + p3
            return 6 * ((1 - t) * first + t * second)
        }
    }

    /// The unit direction of travel at `t`, taking the limit where the derivative vanishes
    /// (a control point on an end point); nil for a segment of no extent.
    package func direction(at t: Double) -> PathVector? {
        let scale = max(controlPolygonLength, .leastNormalMagnitude)
        let d = derivative(at: t)
        if d.pathNorm > 1e-12 * scale { return d / d.pathNorm }
        // B'(t+h) ≈ h·B''(t): the direction leaving t (or arriving at t = 1) follows the second derivative.
        let dd = secondDerivative(at: t) * (t > 0.5 ? -1 : 1)
        if dd.pathNorm > 1e-12 * scale { return dd / dd.pathNorm }
        let chord = p3 - p0
        if chord.pathNorm > 1e-12 * scale { return chord / chord.pathNorm }
        return nil
    }

    /// Splits at parameter `t` into two curves of the same kind (de Casteljau).
    package func split(at t: Double) -> (PathSegment, PathSegment) {
        switch kind {
        case .line:
            let m = point(at: t)
            return (.line(p0, m), .line(m, p3))
        case .quad:
            let a = p0.pathLerp(p1, t), b = p1.pathLerp(p3, t), m = a.pathLerp(b, t)
            return (.quad(p0, a, m), .quad(m, b, p3))
        case .cubic:
            let a = p0.pathLerp(p1, t), b = p1.pathLerp(p2, t), c = p2.pathLerp(p3, t)
            let ab = a.pathLerp(b, t), bc = b.pathLerp(c, t), m = ab.pathLerp(bc, t)
            return (.cubic(p0, a, ab, m), .cubic(m, bc, c, p3))
        }
    }

    /// The exact piece between parameters `a` and `b` (0 ≤ a ≤ b ≤ 1), keeping the end points exact.
    package func piece(from a: Double, to b: Double) -> PathSegment {
        var result = self
        if b < 1 { result = result.split(at: b).0 }
        if a > 0, b > 0 { result = result.split(at: a / b).1 }
        result.isClose = false
        return result
    }

    /// The same curve traversed backwards.
    package var reversed: PathSegment {
        var r = PathSegment(kind: kind, p0: p3, p1: p2, p2: p1, p3: p0)
        if kind == .quad { r.p1 = p1; r.p2 = p1 }
        return r
    }

    /// The curve under an affine transform (exact: Béziers are affine-invariant).
    package func applying(_ t: AffineTransform) -> PathSegment {
        func map(_ v: PathVector) -> PathVector { PathVector(t.a * v.x + t.c * v.y + t.tx, t.b * v.x + t.d * v.y + t.ty) }
        return PathSegment(kind: kind, p0: map(p0), p1: map(p1), p2: map(p2), p3: map(p3), isClose: isClose)
    }

    /// The length of the control polygon, an upper bound of the arc length.
    package var controlPolygonLength: Double {
        switch kind {
        case .line: return (p3 - p0).pathNorm
        case .quad: return (p1 - p0).pathNorm + (p3 - p1).pathNorm
        case .cubic: return (p1 - p0).pathNorm + (p2 - p1).pathNorm + (p3 - p2).pathNorm
        }
    }

    /// The arc length.
    package var length: Double { length(to: 1) }

    /// The arc length from parameter 0 to `t`: exact for lines, adaptive Gauss–Legendre for curves
    /// (absolute error about 1e-12 of the control polygon's length).
    package func length(to t: Double) -> Double { length(from: 0, to: t) }

    /// The arc length between parameters `a` and `b` (negative when `b < a`).
    package func length(from a: Double, to b: Double) -> Double {
        if kind == .line { return (p3 - p0).pathNorm * (b - a) }
        guard a != b else { return 0 }
        let tolerance = 1e-12 * max(controlPolygonLength, .leastNormalMagnitude)
        return integrateSpeed(a, b, whole: gaussLegendre(a, b), tolerance: tolerance, depth: 0)
    }

    private func gaussLegendre(_ a: Double, _ b: Double) -> Double {
        let rule = PathQuadrature.rule, half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for i in 0..<rule.nodes.count { sum += rule.weights[i] * derivative(at: mid + half * rule.nodes[i]).pathNorm }
        return sum * half
    }

    private func integrateSpeed(_ a: Double, _ b: Double, whole: Double, tolerance: Double, depth: Int) -> Double {
        let m = (a + b) / 2
        let left = gaussLegendre(a, m), right = gaussLegendre(m, b)
        if depth >= 18 || abs(left + right - whole) <= tolerance { return left + right }
        return integrateSpeed(a, m, whole: left, tolerance: tolerance / 2, depth: depth + 1)
            + integrateSpeed(m, b, whole: right, tolerance: tolerance / 2, depth: depth + 1)
    }

    /// The parameter where the arc length from the start equals `distance` (clamped to 0…`total`, where
    /// `total` is this segment's length): Newton's method safeguarded by bisection.
    package func parameter(atLength distance: Double, total: Double) -> Double {
        guard total > 0, distance > 0 else { return 0 }
        guard distance < total else { return 1 }
        if kind == .line { return distance / total }
        var lo = 0.0, hi = 1.0, t = distance / total
        var walked = length(to: t)   // the length to t, updated by integrating only over each step
        for _ in 0..<60 {
            let error = walked - distance
            if abs(error) <= 1e-13 * total { break }
            if error > 0 { hi = t } else { lo = t }
            let speed = derivative(at: t).pathNorm
            var next = speed > 0 ? t - error / speed : .nan
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            if next == t { break }
            walked += length(from: t, to: next)
            t = next
        }
        return t
    }

    /// Parameters in (0, 1) where x or y has a turning point.
    package var extremaParameters: [Double] {
        var result: [Double] = []
        func roots(_ a: Double, _ b: Double, _ c: Double) {   // a·t² + b·t + c = 0
            let scale = abs(a) + abs(b) + abs(c)
            guard scale > 0 else { return }
            if abs(a) <= 1e-12 * scale {
                if b != 0 { result.append(-c / b) }
                return
            }
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return }
            let q = -0.5 * (b + (b < 0 ? -1 : 1) * disc.squareRoot())   // numerically stable pair
            result.append(q / a)
            if q != 0 { result.append(c / q) }
        }
        switch kind {
        case .line: return []
        case .quad:
            let d = p0 - 2 * p1 + p3
            for axis in 0..<2 where d[axis] != 0 { result.append((p0[axis] - p1[axis]) / d[axis]) }
        case .cubic:
            let a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0
            for axis in 0..<2 { roots(a[axis], b[axis], c[axis]) }
        }
        return result.filter { $0 > 0 && $0 < 1 }
    }

    /// The number of equal parameter steps whose chords stay within `tolerance` of the curve.
    package func flatteningSteps(tolerance: Double) -> Int {
        // A chord over a parameter step h deviates at most h²/8·max|B''| from the curve.
        let curvature: Double
        switch kind {
        case .line: return 1
        case .quad: curvature = 2 * (p0 - 2 * p1 + p3).pathNorm
        case .cubic: curvature = 6 * max((p0 - 2 * p1 + p2).pathNorm, (p1 - 2 * p2 + p3).pathNorm)
        }
        let steps = (curvature / (8 * tolerance)).squareRoot().rounded(.up)
        guard steps.isFinite else { return 1 }
        return Int(min(max(steps, 1), 100_000))
    }
}

/// A path read as Cairo reads it: subpaths of segments with explicit start points.
package struct PathGeometry: Sendable {
    /// One subpath that draws something.
    package struct Subpath: Hashable, Sendable {
        /// The start point.
        package var start: PathVector
        /// The segments in order; a closed subpath ends with its close segment (possibly of zero length).
        package var segments: [PathSegment]
        /// True when it ends with `closeSubpath`.
        package var isClosed: Bool

        /// The subpath as a stand-alone path.
        package var path: Path {
            Path(elements: [.move(to: Point(pathVector: start))] + segments.map(\.element))
        }
    }

    /// The subpaths in order, leaving out lone moves.
    package var subpaths: [Subpath] = []

    /// Reads `path`'s elements. Like Cairo, a line with no current point acts as a move, a curve with no
    /// current point starts at its first control point, and a drawing element after `closeSubpath` starts
    /// a new subpath at the closed subpath's start.
    package init(_ path: Path) {
        var subpaths: [Subpath] = []
        var openSubpath: Subpath?
        var current: PathVector?
        func flush() {
            if let s = openSubpath, !s.segments.isEmpty { subpaths.append(s) }
            openSubpath = nil
        }
        func begin(_ p: PathVector) {
            flush()
            openSubpath = Subpath(start: p, segments: [], isClosed: false)
            current = p
        }
        func add(_ segment: PathSegment) {
            openSubpath?.segments.append(segment)
            current = segment.p3
        }
        for element in path.elements {
            switch element {
            case let .move(p):
                begin(p.pathVector)
            case let .line(p):
                if openSubpath == nil {
                    guard let c = current else { begin(p.pathVector); continue }
                    begin(c)
                }
                add(.line(current!, p.pathVector))
            case let .quadCurve(p, c):
                if openSubpath == nil { begin(current ?? c.pathVector) }
                add(.quad(current!, c.pathVector, p.pathVector))
            case let .curve(p, c1, c2):
                if openSubpath == nil { begin(current ?? c1.pathVector) }
                add(.cubic(current!, c1.pathVector, c2.pathVector, p.pathVector))
            case .closeSubpath:
                guard let s = openSubpath else { continue }
                add(.line(current!, s.start, isClose: true))
                openSubpath?.isClosed = true
                flush()
                current = s.start
            }
        }
        flush()
        self.subpaths = subpaths
    }

    /// All segments in order.
    package var segments: [PathSegment] { subpaths.flatMap(\.segments) }
}

/// Segment lengths of a path, for walking along it by distance.
package struct PathMeasure: Sendable {
    /// The subpaths.
    package let subpaths: [PathGeometry.Subpath]
    /// The length of each segment of each subpath.
    package let lengths: [[Double]]
    /// The length of each subpath.
    package let subpathLengths: [Double]
    /// The total length.
    package let total: Double

    /// Measures `path`.
    package init(_ path: Path) {
        subpaths = PathGeometry(path).subpaths
        lengths = subpaths.map { $0.segments.map(\.length) }
        subpathLengths = lengths.map { $0.reduce(0, +) }
        total = subpathLengths.reduce(0, +)
    }

    /// The place at `distance` along the whole path (clamped): subpath, segment and parameter; a distance on
    /// a boundary goes to the later segment. Nil when the path draws nothing.
    package func locate(_ distance: Double) -> (subpath: Int, segment: Int, t: Double)? {
        guard !subpaths.isEmpty else { return nil }
        var walked = 0.0, chosen = 0, chosenStart = 0.0
        for (i, length) in subpathLengths.enumerated() where length > 0 {
            chosen = i; chosenStart = walked
            if distance < walked + length { break }
            walked += length
        }
        let place = locate(subpath: chosen, distance: distance - chosenStart)
        return (chosen, place.segment, place.t)
    }

    /// The place at `distance` along subpath `i` (clamped): segment and parameter. A distance on the boundary
    /// of two segments goes to the later one, or to the earlier one when `preferEarlier`; segments of no
    /// length are skipped unless the subpath has no length.
    package func locate(subpath i: Int, distance: Double, preferEarlier: Bool = false) -> (segment: Int, t: Double) {
        var walked = 0.0
        var last: Int?
        for (j, length) in lengths[i].enumerated() where length > 0 {
            let end = walked + length
            if preferEarlier ? distance <= end : distance < end {
                return (j, subpaths[i].segments[j].parameter(atLength: distance - walked, total: length))
            }
            walked = end
            last = j
        }
        return last.map { ($0, 1) } ?? (0, 0)
    }
}

extension Path {
    // MARK: Transforms

    /// This path with every point transformed by `transform` (exact for lines and Béziers).
    public func applying(_ transform: AffineTransform) -> Path {
        func map(_ p: Point) -> Point { transform.apply(to: p) }
        return Path(elements: elements.map { element in
            switch element {
            case let .move(p): return .move(to: map(p))
            case let .line(p): return .line(to: map(p))
            case let .quadCurve(p, c): return .quadCurve(to: map(p), control: map(c))
            case let .curve(p, c1, c2): return .curve(to: map(p), control1: map(c1), control2: map(c2))
            case .closeSubpath: return .closeSubpath
            }
        })
    }
    /// Transforms every point of this path by `transform`.
    public mutating func apply(_ transform: AffineTransform) { self = applying(transform) }

    // MARK: Bounds

    /// The smallest rectangle holding everything the path draws (curve extrema, not control points);
    /// lone moves are left out; `Rect(x: 0, y: 0, width: 0, height: 0)` when the path draws nothing.
    public var bounds: Rect {
        var box = PathBox()
        for segment in PathGeometry(self).segments {
            box.add(segment.p0); box.add(segment.p3)
            for t in segment.extremaParameters { box.add(segment.point(at: t)) }
        }
        return box.rect
    }

    /// The smallest rectangle holding every point of every element, control points and moves included.
    package var controlPointBounds: Rect {
        var box = PathBox()
        for element in elements {
            switch element {
            case let .move(p), let .line(p): box.add(p.pathVector)
            case let .quadCurve(p, c): box.add(p.pathVector); box.add(c.pathVector)
            case let .curve(p, c1, c2): box.add(p.pathVector); box.add(c1.pathVector); box.add(c2.pathVector)
            case .closeSubpath: break
            }
        }
        return box.rect
    }

    // MARK: Length and positions

    /// The total arc length of all subpaths (close segments count as lines; gaps between subpaths do not),
    /// accurate to about 1e-10 relative.
    public var length: Double { PathMeasure(self).total }

    /// The point `fraction` (0…1, clamped) of the way along the path's length; nil when it draws nothing.
    public func point(atFraction fraction: Double) -> Point? {
        let measure = PathMeasure(self)
        guard let place = measure.locate(fraction.pathClampedToUnit * measure.total) else { return nil }
        return Point(pathVector: measure.subpaths[place.subpath].segments[place.segment].point(at: place.t))
    }

    /// The unit direction of travel `fraction` (0…1, clamped) of the way along the path, as a vector in a
    /// `Point`; nil when the path has no length.
    public func tangent(atFraction fraction: Double) -> Point? {
        let measure = PathMeasure(self)
        guard measure.total > 0, let place = measure.locate(fraction.pathClampedToUnit * measure.total),
              let direction = measure.subpaths[place.subpath].segments[place.segment].direction(at: place.t)
        else { return nil }
        return Point(pathVector: direction)
    }

    /// The direction of travel `fraction` of the way along the path, in radians (0 points right, π/2 down);
    /// nil when the path has no length.
    public func angle(atFraction fraction: Double) -> Double? {
        tangent(atFraction: fraction).map { atan2($0.y, $0.x) }
    }

    // MARK: Trimming

    /// The part of the path from `start` to `end`, as fractions (0…1, clamped) of its length, with exact
    /// sub-curves; subpaths keep their gaps. Empty when `start >= end`; the whole path for 0…1.
    public func trimmed(from start: Double, to end: Double) -> Path {
        let a = start.pathClampedToUnit, b = end.pathClampedToUnit
        if a <= 0 && b >= 1 { return self }
        guard a < b else { return Path() }
        let measure = PathMeasure(self)
        guard measure.total > 0 else { return Path() }
        let d0 = a * measure.total, d1 = b * measure.total
        var result = Path()
        var walked = 0.0
        for (i, subpath) in measure.subpaths.enumerated() {
            let s0 = walked, s1 = walked + measure.subpathLengths[i]
            walked = s1
            let lo = max(d0, s0), hi = min(d1, s1)
            guard hi > lo else { continue }
            if lo <= s0 && hi >= s1 { result.append(subpath.path); continue }
            let first = measure.locate(subpath: i, distance: lo - s0)
            let last = measure.locate(subpath: i, distance: hi - s0, preferEarlier: true)
            for j in first.segment...max(first.segment, last.segment) {
                guard measure.lengths[i][j] > 0 else { continue }
                let ta = j == first.segment ? first.t : 0, tb = j == last.segment ? max(ta, last.t) : 1
                let piece = subpath.segments[j].piece(from: ta, to: tb)
                if j == first.segment { result.move(to: Point(pathVector: piece.p0)) }
                result.append(piece.drawingElement)
            }
        }
        return result
    }

    /// Keeps only the part of the path from `start` to `end` (fractions of its length, see `trimmed`).
    public mutating func trim(from start: Double, to end: Double) { self = trimmed(from: start, to: end) }

    // MARK: Flattening and reversal

    /// The path with every curve replaced by straight lines that stay within `tolerance` of it
    /// (moves, lines and closes only).
    public func flattened(tolerance: Double = 0.1) -> Path {
        let tolerance = tolerance > 0 ? tolerance : 0.1
        var result = Path()
        for subpath in PathGeometry(self).subpaths {
            result.move(to: Point(pathVector: subpath.start))
            for segment in subpath.segments {
                if segment.isClose { result.closeSubpath(); continue }
                let steps = segment.flatteningSteps(tolerance: tolerance)
                for k in 1...steps {
                    let p = k == steps ? segment.p3 : segment.point(at: Double(k) / Double(steps))
                    result.line(to: Point(pathVector: p))
                }
            }
        }
        return result
    }

    /// The same outline traversed backwards: subpaths in reverse order, each from its end to its start
    /// (a closed subpath keeps its start point and stays closed).
    public func reversed() -> Path {
        var result = Path()
        for subpath in PathGeometry(self).subpaths.reversed() {
            var segments = subpath.segments
            if subpath.isClosed {
                // Walk back from the start: first the close segment (as a line, if it has length), then the rest.
                let close = segments.removeLast()
                result.move(to: Point(pathVector: subpath.start))
                if close.p0 != close.p3 { result.line(to: Point(pathVector: close.p0)) }
                for segment in segments.reversed() { result.append(segment.reversed.drawingElement) }
                result.closeSubpath()
            } else {
                result.move(to: Point(pathVector: segments.last!.p3))
                for segment in segments.reversed() { result.append(segment.reversed.drawingElement) }
            }
        }
        return result
    }
}

/// A growing bounding box.
package struct PathBox {
    private var lo = PathVector(.infinity, .infinity), hi = PathVector(-.infinity, -.infinity)
    /// Grows the box to hold `p`.
    package mutating func add(_ p: PathVector) {
        lo = PathVector(min(lo.x, p.x), min(lo.y, p.y)); hi = PathVector(max(hi.x, p.x), max(hi.y, p.y))
    }
    /// The box, or a zero rectangle at the origin when nothing was added.
    package var rect: Rect {
        guard lo.x <= hi.x, lo.y <= hi.y else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}

extension Double {
    /// The value clamped to 0…1 (NaN becomes 0).
    package var pathClampedToUnit: Double { self >= 0 ? min(self, 1) : 0 }
}

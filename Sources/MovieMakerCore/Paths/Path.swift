import Foundation

/// A resolution-independent outline: subpaths of lines and Bézier curves, as a value.
///
/// Build it with `move(to:)`, `line(to:)`, `quadCurve(to:control:)`, `curve(to:control1:control2:)`
/// and `closeSubpath()`, then draw it with `DrawingContext.fill(_:)` / `stroke(_:)`.
public struct Path: Hashable, Sendable {
    /// One drawing command.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at a point.
        case move(to: Point)
        /// A straight line to a point.
        case line(to: Point)
        /// A quadratic Bézier curve.
        case quadCurve(to: Point, control: Point)
        /// A cubic Bézier curve.
        case curve(to: Point, control1: Point, control2: Point)
        /// Closes the current subpath with a straight line back to its start.
        case closeSubpath
    }

    /// The commands in order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}
    /// A path made of `elements`.
    public init(elements: [Element]) { self.elements = elements }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) { elements.append(.move(to: point)) }
    /// Adds a straight line to `point`.
    public mutating func line(to point: Point) { elements.append(.line(to: point)) }
    /// Adds a quadratic Bézier curve to `point`.
    public mutating func quadCurve(to point: Point, control: Point) {
        elements.append(.quadCurve(to: point, control: control))
    }
    /// Adds a cubic Bézier curve to `point`.
    public mutating func curve(to point: Point, control1: Point, control2: Point) {
        elements.append(.curve(to: point, control1: control1, control2: control2))
    }
    /// Closes the current subpath.
    public mutating func closeSubpath() { elements.append(.closeSubpath) }

    /// Adds a circular arc around `center` from `startAngle` to `endAngle` (radians; 0 points right and,
    /// as in `DrawingContext.arc`, `clockwise` means increasing angles, clockwise on screen since y grows
    /// downwards), as cubic Béziers of at most 90° each (at most one full turn); starts with a line from the
    /// current point, if any.
    public mutating func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, startAngle.isFinite, endAngle.isFinite else { return }
        var sweep = endAngle - startAngle
        // Like cairo_arc / cairo_arc_negative: turn the end angle until it lies on the requested side.
        if clockwise, sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: 2 * .pi) + 2 * .pi }
        if !clockwise, sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: 2 * .pi) - 2 * .pi }
        sweep = min(max(sweep, -2 * .pi), 2 * .pi)   // more than one turn would only retrace the circle
        let c = center.pathVector
        let start = c + radius * SIMD2(cos(startAngle), sin(startAngle))
        if let current = currentPoint {
            if current.pathVector != start { line(to: Point(pathVector: start)) }
        } else {
            move(to: Point(pathVector: start))
        }
        for piece in PathArc.unitCircleCubics(startAngle: startAngle, sweep: sweep) {
            curve(to: Point(pathVector: c + radius * piece.end),
                  control1: Point(pathVector: c + radius * piece.control1),
                  control2: Point(pathVector: c + radius * piece.control2))
        }
    }

    /// Appends one element.
    public mutating func append(_ element: Element) { elements.append(element) }
    /// Appends the elements of `other` (its subpaths stay separate).
    public mutating func append(_ other: Path) { elements.append(contentsOf: other.elements) }
    /// This path followed by the elements of `other`.
    public func appending(_ other: Path) -> Path { var copy = self; copy.append(other); return copy }

    // MARK: Shapes

    /// A closed rectangle, clockwise on screen from its top-left corner (as `DrawingContext.addRect`): other
    /// libraries' `Path.rect`.
    public init(rect: Rect) {
        self.init(elements: [
            .move(to: Point(x: rect.minX, y: rect.minY)), .line(to: Point(x: rect.maxX, y: rect.minY)),
            .line(to: Point(x: rect.maxX, y: rect.maxY)), .line(to: Point(x: rect.minX, y: rect.maxY)), .closeSubpath,
        ])
    }

    /// A closed rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        let r = max(0, min(cornerRadius, min(abs(rect.width), abs(rect.height)) / 2))
        guard r > 0 else { self.init(rect: rect); return }
        self.init()
        move(to: Point(x: rect.maxX - r, y: rect.minY))
        arc(center: Point(x: rect.maxX - r, y: rect.minY + r), radius: r, startAngle: -.pi / 2, endAngle: 0)
        arc(center: Point(x: rect.maxX - r, y: rect.maxY - r), radius: r, startAngle: 0, endAngle: .pi / 2)
        arc(center: Point(x: rect.minX + r, y: rect.maxY - r), radius: r, startAngle: .pi / 2, endAngle: .pi)
        arc(center: Point(x: rect.minX + r, y: rect.minY + r), radius: r, startAngle: .pi, endAngle: 3 * .pi / 2)
        closeSubpath()
    }

    /// The closed ellipse that fits `rect`: four cubic quarters, clockwise on screen from the right-hand point.
    public init(ellipseIn rect: Rect) {
        let c = rect.center.pathVector, radii = SIMD2(rect.width / 2, rect.height / 2)
        self.init()
        move(to: Point(x: rect.maxX, y: rect.midY))
        for piece in PathArc.unitCircleCubics(startAngle: 0, sweep: 2 * .pi) {
            curve(to: Point(pathVector: c + radii * piece.end),
                  control1: Point(pathVector: c + radii * piece.control1),
                  control2: Point(pathVector: c + radii * piece.control2))
        }
        closeSubpath()
    }

    /// A closed circle around `center` (four cubic quarters, radius error at most 0.027 %): other
    /// libraries' `Path.circle`. To fill or stroke one at once, `DrawingContext.fillCircle(center:radius:)`.
    public init(circleCenter center: Point, radius: Double) {
        self.init(ellipseIn: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// Straight lines through `points`, closed back to the first when `closed` (empty for no points).
    public init(polygon points: [Point], closed: Bool = true) {
        self.init()
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { line(to: p) }
        if closed { closeSubpath() }
    }

    /// A single straight line segment from `start` to `end`.
    public init(lineFrom start: Point, to end: Point) {
        self.init(elements: [.move(to: start), .line(to: end)])
    }

    /// A closed regular polygon with `sides` corners on a circle of `radius`; the first corner points up,
    /// turned clockwise by `rotation` radians.
    public static func regularPolygon(center: Point, radius: Double, sides: Int, rotation: Double = 0) throws(MovieMakerError) -> Path {
        guard sides >= 3 else {
            throw .invalidSetting(.regularPolygonSides, value: "\(sides)", expected: "at least 3 sides")
        }
        let corners = (0..<sides).map { i in
            let angle = rotation - .pi / 2 + 2 * .pi * Double(i) / Double(sides)
            return Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        return Path(polygon: corners)
    }

    /// A closed star with `points` tips on a circle of `outerRadius` and notches on `innerRadius`;
    /// the first tip points up, turned clockwise by `rotation` radians.
    public static func star(center: Point, outerRadius: Double, innerRadius: Double, points: Int, rotation: Double = 0) throws(MovieMakerError) -> Path {
        guard points >= 2 else {
            throw .invalidSetting(.starPoints, value: "\(points)", expected: "at least 2 tips")
        }
        let corners = (0..<(2 * points)).map { i in
            let angle = rotation - .pi / 2 + .pi * Double(i) / Double(points)
            let r = i.isMultiple(of: 2) ? outerRadius : innerRadius
            return Point(x: center.x + r * cos(angle), y: center.y + r * sin(angle))
        }
        return Path(polygon: corners)
    }

    // MARK: Structure

    /// The point the next element starts from (after `closeSubpath`, the subpath's start); nil when empty.
    public var currentPoint: Point? {
        guard let last = elements.last else { return nil }
        switch last {
        case let .move(p), let .line(p), let .quadCurve(p, _), let .curve(p, _, _): return p
        case .closeSubpath:
            // Subpaths started implicitly after a close share the start of the last move (or of the very
            // first element, which Cairo treats as a move when it is not one).
            for element in elements.reversed() { if case let .move(p) = element { return p } }
            switch elements[0] {
            case let .line(p): return p
            case let .quadCurve(_, c): return c
            case let .curve(_, c1, _): return c1
            case .move, .closeSubpath: return nil
            }
        }
    }

    /// The subpaths that draw something, each starting with `move(to:)` (a lone move draws nothing and is left out).
    public var subpaths: [Path] { PathGeometry(self).subpaths.map(\.path) }

    /// True when the path draws something and every subpath ends with `closeSubpath`.
    public var isClosed: Bool {
        let parts = PathGeometry(self).subpaths
        return !parts.isEmpty && parts.allSatisfy(\.isClosed)
    }
}

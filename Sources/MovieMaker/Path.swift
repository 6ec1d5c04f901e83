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
}

extension DrawingContext {
    /// Appends `path` to the current path (in the current transform).
    public func addPath(_ path: Path) {
        for element in path.elements {
            switch element {
            case let .move(p): move(to: p)
            case let .line(p): line(to: p)
            case let .quadCurve(p, c): quadCurve(to: p, control: c)
            case let .curve(p, c1, c2): curve(to: p, control1: c1, control2: c2)
            case .closeSubpath: closePath()
            }
        }
    }
    /// Fills `path` with the fill paint (replacing the current path).
    public func fill(_ path: Path) { beginPath(); addPath(path); fill() }
    /// Strokes `path` with the stroke paint and line style (replacing the current path).
    public func stroke(_ path: Path) { beginPath(); addPath(path); stroke() }
}

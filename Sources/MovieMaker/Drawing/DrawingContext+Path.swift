import Foundation

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

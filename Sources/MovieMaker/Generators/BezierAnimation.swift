import Foundation

/// Clips that animate paths: drawing a stroke on, morphing one shape into another, moving an object
/// along a path, and animating a path's control points (the seed article's Bézier movie).
///
/// Each animation runs over `animation` (the whole clip by default, ending on its last frame) and then
/// holds its final state until the clip ends. Progress is computed from the frame's exact time.
public enum BezierAnimation {
    /// How far through an animation of length `animation` the frame is, eased: 0 on the first frame,
    /// exactly 1 on the last frame of the clip (or once `animation` has elapsed).
    static func progress(_ frame: Frame, animation: Time?, easing: Easing) -> Double {
        let last = frame.duration - frame.rate.frameDuration
        let span = animation.map { Time.min($0, last) } ?? last
        guard span > .zero else { return easing(1) }
        return easing(min(max(frame.exactTime.seconds / span.seconds, 0), 1))
    }

    /// Reveals `path` as if drawn by a pen: the stroke grows from the path's start to its end.
    public static func drawOn(_ path: Path, duration: Time, stroke: StrokeStyle = StrokeStyle(),
                              easing: Easing = .easeInOut, animation: Time? = nil) -> Clip {
        clip(.drawOn(path, stroke: stroke, easing: easing, animation: animation), duration: duration)
    }

    /// Morphs `start` into `end` (any two paths; unlike structures are resampled to a common one once,
    /// not per frame), filled with `fill` and/or stroked with `stroke`.
    public static func morph(from start: Path, to end: Path, duration: Time, fill: Paint? = .color(.white),
                             stroke: StrokeStyle? = nil, easing: Easing = .easeInOut, animation: Time? = nil) -> Clip {
        clip(.morph(PathMorph(from: start, to: end), fill: fill, stroke: stroke, easing: easing, animation: animation), duration: duration)
    }

    /// Moves an object along `path`: `object` draws it around the origin (pointing along +x when
    /// `orientToTangent` is true, since the context is rotated to the path's direction). `trail`, when
    /// given, strokes the part of the path already travelled.
    public static func follow(_ path: Path, duration: Time, easing: Easing = .easeInOut, orientToTangent: Bool = true,
                              trail: StrokeStyle? = nil, animation: Time? = nil,
                              object: @escaping @Sendable (DrawingContext) throws -> Void) -> Clip {
        clip(.follow(path, easing: easing, orientToTangent: orientToTangent, trail: trail, animation: animation,
                     object: ObjectDrawing(object)), duration: duration)
    }

    /// Animates a path's points over time: `displace` receives each point of the path (anchor and
    /// control points, with the index of its element and its slot within it: 0 = end point, 1 and 2 =
    /// control points) and the time in seconds, and returns where the point is at that time. With
    /// `showControlPoints`, the handles are drawn as in a vector editor.
    public static func controlPoints(_ path: Path, duration: Time, fill: Paint? = nil,
                                     stroke: StrokeStyle? = StrokeStyle(), showControlPoints: Bool = false,
                                     displace: @escaping @Sendable (_ point: Point, _ element: Int, _ slot: Int, _ time: Double) -> Point) -> Clip {
        clip(.controlPoints(path, fill: fill, stroke: stroke, showControlPoints: showControlPoints,
                            displace: PointDisplacement(displace)), duration: duration)
    }

    /// The seed article's movie: every control point of `path` swings on its own sine wave of
    /// `amplitude` pixels and `frequency` hertz, with phases spread over the points.
    public static func wiggle(_ path: Path, duration: Time, amplitude: Double = 20, frequency: Double = 0.5,
                              fill: Paint? = nil, stroke: StrokeStyle? = StrokeStyle(), showControlPoints: Bool = true) -> Clip {
        clip(.wiggle(path, amplitude: amplitude, frequency: frequency, fill: fill, stroke: stroke,
                     showControlPoints: showControlPoints), duration: duration)
    }

    /// A generator leaf of `motion` lasting `duration`.
    static func clip(_ motion: Motion, duration: Time) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        return Clip(.generator(.bezier(motion), duration: duration))
    }

    /// A path animation as data: the generator leaf `drawOn`, `morph`, `follow`, `controlPoints` and
    /// `wiggle` make. `follow` and `controlPoints` hold closures, so those two are not data.
    package enum Motion: Sendable {
        /// The stroke of `path` grows from its start to its end (`drawOn`).
        case drawOn(Path, stroke: StrokeStyle, easing: Easing, animation: Time?)
        /// One path becomes another (`morph`): the morph between them, and how the shape is painted.
        case morph(PathMorph, fill: Paint?, stroke: StrokeStyle?, easing: Easing, animation: Time?)
        /// An object drawn by a closure moves along `path` (`follow`).
        case follow(Path, easing: Easing, orientToTangent: Bool, trail: StrokeStyle?, animation: Time?, object: ObjectDrawing)
        /// A closure moves the path's points over time (`controlPoints`).
        case controlPoints(Path, fill: Paint?, stroke: StrokeStyle?, showControlPoints: Bool, displace: PointDisplacement)
        /// Every control point swings on a sine wave (`wiggle`).
        case wiggle(Path, amplitude: Double, frequency: Double, fill: Paint?, stroke: StrokeStyle?, showControlPoints: Bool)

        /// Draws the animation at `frame`.
        func draw(in ctx: DrawingContext, at frame: Frame) throws {
            switch self {
            case let .drawOn(path, stroke, easing, animation):
                let p = BezierAnimation.progress(frame, animation: animation, easing: easing)
                guard p > 0 else { return }
                ctx.stroke(p >= 1 ? path : path.trimmed(from: 0, to: p), style: stroke)

            case let .morph(morph, fill, stroke, easing, animation):
                let shape = morph.path(at: BezierAnimation.progress(frame, animation: animation, easing: easing))
                if let fill { ctx.withSavedState { ctx.setFill(fill); ctx.fill(shape) } }
                if let stroke { ctx.stroke(shape, style: stroke) }

            case let .follow(path, easing, orientToTangent, trail, animation, object):
                let p = BezierAnimation.progress(frame, animation: animation, easing: easing)
                if let trail, p > 0 { ctx.stroke(path.trimmed(from: 0, to: p), style: trail) }
                // An empty path has nowhere to put the object.
                guard let point = path.point(atFraction: p) else { return }
                let direction = path.tangent(atFraction: p) ?? Point(x: 1, y: 0)
                try ctx.withSavedState {
                    ctx.translate(x: point.x, y: point.y)
                    if orientToTangent { ctx.rotate(by: atan2(direction.y, direction.x)) }
                    try object.body(ctx)
                }

            case let .controlPoints(path, fill, stroke, showControlPoints, displace):
                BezierAnimation.drawDisplaced(path, at: frame.time, fill: fill, stroke: stroke,
                                              showControlPoints: showControlPoints, in: ctx, displace: displace.body)

            case let .wiggle(path, amplitude, frequency, fill, stroke, showControlPoints):
                BezierAnimation.drawDisplaced(path, at: frame.time, fill: fill, stroke: stroke, showControlPoints: showControlPoints,
                                              in: ctx) { p, element, slot, t in
                    guard slot > 0 else { return p }   // anchors stay; control points swing
                    let phase = Double(element * 3 + slot) * 1.3
                    let a = 2 * Double.pi * frequency * t + phase
                    return Point(x: p.x + amplitude * cos(a), y: p.y + amplitude * sin(a * 1.3))
                }
            }
        }
    }

    /// The closure `follow` draws its object with, with an identity (the same call's closure is the same).
    package struct ObjectDrawing: Sendable {
        final class Box: Sendable {
            let body: @Sendable (DrawingContext) throws -> Void
            init(_ body: @escaping @Sendable (DrawingContext) throws -> Void) { self.body = body }
        }
        let box: Box
        /// Wraps `body`.
        package init(_ body: @escaping @Sendable (DrawingContext) throws -> Void) { box = Box(body) }
        /// The closure.
        var body: @Sendable (DrawingContext) throws -> Void { box.body }
        /// The closure's identity.
        package var identity: ObjectIdentifier { ObjectIdentifier(box) }
    }

    /// The closure `controlPoints` moves points with, with an identity.
    package struct PointDisplacement: Sendable {
        final class Box: Sendable {
            let body: @Sendable (Point, Int, Int, Double) -> Point
            init(_ body: @escaping @Sendable (Point, Int, Int, Double) -> Point) { self.body = body }
        }
        let box: Box
        /// Wraps `body`.
        package init(_ body: @escaping @Sendable (_ point: Point, _ element: Int, _ slot: Int, _ time: Double) -> Point) { box = Box(body) }
        /// The closure.
        var body: @Sendable (Point, Int, Int, Double) -> Point { box.body }
        /// The closure's identity.
        package var identity: ObjectIdentifier { ObjectIdentifier(box) }
    }

    /// Draws `path` with each point moved by `displace` at `time` seconds, filled and/or stroked, with
    /// its handles when `showControlPoints`.
    static func drawDisplaced(_ path: Path, at t: Double, fill: Paint?, stroke: StrokeStyle?, showControlPoints: Bool,
                              in ctx: DrawingContext, displace: (Point, Int, Int, Double) -> Point) {
        let moved = Path(elements: path.elements.enumerated().map { i, element in
            switch element {
            case let .move(p): .move(to: displace(p, i, 0, t))
            case let .line(p): .line(to: displace(p, i, 0, t))
            case let .quadCurve(p, c): .quadCurve(to: displace(p, i, 0, t), control: displace(c, i, 1, t))
            case let .curve(p, c1, c2):
                .curve(to: displace(p, i, 0, t), control1: displace(c1, i, 1, t), control2: displace(c2, i, 2, t))
            case .closeSubpath: .closeSubpath
            }
        })
        if let fill { ctx.withSavedState { ctx.setFill(fill); ctx.fill(moved) } }
        if let stroke { ctx.stroke(moved, style: stroke) }
        if showControlPoints { drawHandles(of: moved, in: ctx) }
    }

    /// Draws the handles of a path: a thin line from each curve's anchors to its control points and a dot
    /// on every point.
    static func drawHandles(of path: Path, in ctx: DrawingContext) {
        ctx.withSavedState {
            ctx.lineWidth = 1
            ctx.setStroke(Color(white: 1, alpha: 0.5))
            var current = Point.zero
            var dots: [(Point, Bool)] = []
            for element in path.elements {
                switch element {
                case let .move(p), let .line(p):
                    dots.append((p, true)); current = p
                case let .quadCurve(p, c):
                    ctx.beginPath(); ctx.move(to: current); ctx.line(to: c); ctx.line(to: p); ctx.stroke()
                    dots += [(c, false), (p, true)]; current = p
                case let .curve(p, c1, c2):
                    ctx.beginPath(); ctx.move(to: current); ctx.line(to: c1); ctx.move(to: c2); ctx.line(to: p); ctx.stroke()
                    dots += [(c1, false), (c2, false), (p, true)]; current = p
                case .closeSubpath: break
                }
            }
            for (p, anchor) in dots {
                ctx.setFill(anchor ? Color.white : Color(hex: "#ff8c42")!)
                ctx.fillEllipse(in: Rect(x: p.x - 3, y: p.y - 3, width: 6, height: 6))
            }
        }
    }
}

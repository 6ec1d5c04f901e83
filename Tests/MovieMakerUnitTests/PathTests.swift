import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `Path`: builders, SVG data, transforms, bounds, length, positions, trimming and morphing, checked
/// against closed-form geometry (and a few pixels for filling).
@Suite struct PathTests {
    // MARK: Helpers

    /// The cubic approximation of a circle (4 quarters, handle k = 4/3·tan(π/8)) meets the circle at the
    /// ends and middle of each quarter and elsewhere stays outside it, by at most 2.7253e-4 of the radius
    /// (the known maximum for this k; measured 2.72530e-4). Being convex and lying between the circles of
    /// radius r and r·(1 + 2.7253e-4), its length lies between their perimeters.
    static let circleRadiusError = 2.7253e-4

    private func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }
    private func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
            && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
    }
    /// The length of a cubic by summing `steps` chords: the reference for curves without a closed form
    /// (the chord sum falls short by O(1/steps²), about 1e-11 relative here).
    private func chordLength(_ p: [Point], steps: Int = 200_000) -> Double {
        let s = PathSegment.cubic(p[0].pathVector, p[1].pathVector, p[2].pathVector, p[3].pathVector)
        var total = 0.0, previous = s.p0
        for i in 1...steps { let q = s.point(at: Double(i) / Double(steps)); total += (q - previous).pathNorm; previous = q }
        return total
    }
    private func cubic(_ p: [Point]) -> Path {
        Path(elements: [.move(to: p[0]), .curve(to: p[3], control1: p[1], control2: p[2])])
    }
    private func pixels(_ w: Int = 100, _ h: Int = 100, _ body: (DrawingContext) throws -> Void) throws -> PixelBuffer {
        let c = try Canvas(width: w, height: h)
        try c.draw { ctx in ctx.clear(.black); try body(ctx) }
        return c.pixels()
    }

    // MARK: Length

    @Test func lineLengthIsThreeFourFive() {
        #expect(abs(Path(lineFrom: Point(x: 1, y: 1), to: Point(x: 4, y: 5)).length - 5) < 1e-12)
        // Subpaths add up; the gap between them does not count; a close counts as a line.
        var p = Path(lineFrom: .zero, to: Point(x: 3, y: 4))
        p.append(Path(polygon: [Point(x: 10, y: 0), Point(x: 13, y: 4), Point(x: 10, y: 4)]))
        #expect(abs(p.length - (5 + 5 + 3 + 4)) < 1e-12)
    }

    @Test func circleLengthIsTwoPiRWithinTheCubicApproximationBound() {
        let r = 37.5
        let length = Path(circleCenter: Point(x: 10, y: -4), radius: r).length
        let perimeter = 2 * Double.pi * r
        // Measured: +1.403e-4 relative, inside the rigorous bound [2πr, 2πr(1 + 2.7253e-4)].
        #expect(length >= perimeter * (1 - 1e-12))
        #expect(length <= perimeter * (1 + Self.circleRadiusError))
        #expect(abs(length / perimeter - 1 - 1.4029e-4) < 1e-7)
    }

    @Test func quadraticLengthMatchesTheParabolaClosedForm() {
        // B(t) = (t, t²): the parabola y = x² from 0 to 1, length (2√5 + asinh 2)/4.
        let q = Path(elements: [.move(to: .zero), .quadCurve(to: Point(x: 1, y: 1), control: Point(x: 0.5, y: 0))])
        #expect(abs(q.length - (2 * 5.0.squareRoot() + asinh(2)) / 4) < 1e-12)
    }

    @Test func cubicLengthMatchesFineChordSum() {
        for points in [[Point(x: 0, y: 0), Point(x: 30, y: 100), Point(x: 70, y: -50), Point(x: 100, y: 0)],
                       [Point(x: 0, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100), Point(x: 100, y: 0)],   // self-crossing
                       [Point(x: 0, y: 0), Point(x: 0, y: 0), Point(x: 50, y: 80), Point(x: 10, y: 20)]] {     // handle on the end
            let reference = chordLength(points)
            #expect(abs(cubic(points).length / reference - 1) < 1e-9)
        }
        // A cubic whose controls sit at thirds of a line is that line.
        let straight = cubic([Point(x: 0, y: 0), Point(x: 1, y: 2), Point(x: 2, y: 4), Point(x: 3, y: 6)])
        #expect(abs(straight.length - 45.0.squareRoot()) < 1e-12)
    }

    // MARK: Points and tangents

    @Test func pointAndTangentOnALine() throws {
        let line = Path(lineFrom: Point(x: 10, y: 10), to: Point(x: 110, y: 10))
        #expect(close(try #require(line.point(atFraction: 0.3)), Point(x: 40, y: 10)))
        #expect(close(try #require(line.point(atFraction: 1)), Point(x: 110, y: 10)))
        #expect(close(try #require(line.point(atFraction: 2)), Point(x: 110, y: 10)))   // clamped
        #expect(close(try #require(line.tangent(atFraction: 0.7)), Point(x: 1, y: 0), 1e-12))
        #expect(try #require(line.angle(atFraction: 0.5)) == 0)
        let up = Path(lineFrom: Point(x: 0, y: 0), to: Point(x: 0, y: -5))
        let upAngle: Double = try #require(up.angle(atFraction: 0.5))
        #expect(abs(upAngle + Double.pi / 2) < 1e-12)
        #expect(Path().point(atFraction: 0.5) == nil)
        #expect(Path(elements: [.move(to: .zero)]).tangent(atFraction: 0.5) == nil)
    }

    @Test func pointAndTangentOnACircle() throws {
        let r = 100.0, c = Point(x: 20, y: 30)
        let circle = Path(circleCenter: c, radius: r)
        // Starts at angle 0 and turns clockwise on screen (y down): a quarter of the length is a quarter turn.
        #expect(close(try #require(circle.point(atFraction: 0)), Point(x: 120, y: 30)))
        #expect(close(try #require(circle.point(atFraction: 0.25)), Point(x: 20, y: 130)))
        #expect(close(try #require(circle.point(atFraction: 0.5)), Point(x: -80, y: 30)))
        #expect(close(try #require(circle.tangent(atFraction: 0.25)), Point(x: -1, y: 0), 1e-12))
        // By symmetry the middle of each quarter's length is the curve's middle, which lies on the circle.
        let s = r / 2.0.squareRoot()
        #expect(close(try #require(circle.point(atFraction: 0.125)), Point(x: 20 + s, y: 30 + s)))
        let t = try #require(circle.tangent(atFraction: 0.125))
        #expect(close(t, Point(x: -1 / 2.0.squareRoot(), y: 1 / 2.0.squareRoot()), 1e-12))
        let angle: Double = try #require(circle.angle(atFraction: 0.125))
        #expect(abs(angle - 3 * Double.pi / 4) < 1e-12)
        // Everywhere else it is within the approximation's radius band.
        for i in 0..<40 {
            let p = try #require(circle.point(atFraction: Double(i) / 40 + 0.01))
            let radius = hypot(p.x - c.x, p.y - c.y)
            #expect(radius >= r * (1 - 1e-12) && radius <= r * (1 + Self.circleRadiusError))
        }
    }

    @Test func pointAndTangentOnABezierFollowArcLength() throws {
        // Symmetric about x = 50: half the length is at t = 0.5, (50, 75), heading right.
        let arch = cubic([Point(x: 0, y: 0), Point(x: 0, y: 100), Point(x: 100, y: 100), Point(x: 100, y: 0)])
        #expect(close(try #require(arch.point(atFraction: 0.5)), Point(x: 50, y: 75)))
        #expect(close(try #require(arch.tangent(atFraction: 0.5)), Point(x: 1, y: 0), 1e-12))
        #expect(close(try #require(arch.tangent(atFraction: 0)), Point(x: 0, y: 1), 1e-12))
        // Asymmetric: compare with walking a fine polyline to the same fraction of its length.
        let points = [Point(x: 0, y: 0), Point(x: 30, y: 100), Point(x: 70, y: -50), Point(x: 100, y: 0)]
        let s = PathSegment.cubic(points[0].pathVector, points[1].pathVector, points[2].pathVector, points[3].pathVector)
        let steps = 100_000
        let polyline = (0...steps).map { s.point(at: Double($0) / Double(steps)) }
        var cumulative = [0.0]
        for i in 1...steps { cumulative.append(cumulative[i - 1] + (polyline[i] - polyline[i - 1]).pathNorm) }
        for fraction in [0.1, 0.37, 0.5, 0.9] {
            let target = fraction * cumulative[steps]
            let i = cumulative.firstIndex { $0 >= target }!
            let u = (target - cumulative[i - 1]) / (cumulative[i] - cumulative[i - 1])
            let expected = Point(pathVector: polyline[i - 1].pathLerp(polyline[i], u))
            #expect(close(try #require(cubic(points).point(atFraction: fraction)), expected, 1e-6))
            // The tangent is the unit derivative there.
            let tangent = try #require(cubic(points).tangent(atFraction: fraction))
            let chord = (polyline[i] - polyline[i - 1]) / (polyline[i] - polyline[i - 1]).pathNorm
            #expect(abs(hypot(tangent.x, tangent.y) - 1) < 1e-12)
            #expect(close(tangent, Point(pathVector: chord), 1e-4))
        }
    }

    // MARK: Trimming

    @Test func trimmingALineGivesExactEndsAndHalfTheLength() {
        let line = Path(lineFrom: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
        #expect(line.trimmed(from: 0.25, to: 0.75).elements == [.move(to: Point(x: 25, y: 0)), .line(to: Point(x: 75, y: 0))])
        #expect(line.trimmed(from: 0, to: 0.5).length == 50)
        #expect(line.trimmed(from: -1, to: 2) == line)
        #expect(line.trimmed(from: 0.6, to: 0.4).isEmpty)
        #expect(line.trimmed(from: 0.5, to: 0.5).isEmpty)
        var trimmed = line
        trimmed.trim(from: 0.5, to: 3)
        #expect(trimmed.elements == [.move(to: Point(x: 50, y: 0)), .line(to: Point(x: 100, y: 0))])
    }

    @Test func trimmingAcrossSubpathsKeepsTheirGapsAndCloses() {
        var two = Path(lineFrom: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
        two.append(Path(lineFrom: Point(x: 0, y: 50), to: Point(x: 100, y: 50)))
        #expect(two.trimmed(from: 0.25, to: 0.75).elements == [
            .move(to: Point(x: 50, y: 0)), .line(to: Point(x: 100, y: 0)),
            .move(to: Point(x: 0, y: 50)), .line(to: Point(x: 50, y: 50)),
        ])
        // Exactly at the boundary: nothing of the second subpath.
        #expect(two.trimmed(from: 0.1, to: 0.5).elements == [.move(to: Point(x: 20, y: 0)), .line(to: Point(x: 100, y: 0))])
        // A square (length 400) then a line (100): a range covering the square keeps its close; a
        // range ending inside the square's closing side draws part of that side as a line.
        var shapes = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
        shapes.append(Path(lineFrom: Point(x: 200, y: 0), to: Point(x: 300, y: 0)))
        let whole = shapes.trimmed(from: 0, to: 0.9)
        #expect(whole.subpaths.count == 2 && whole.subpaths[0].isClosed)
        #expect(abs(whole.length - 450) < 1e-9)
        let part = shapes.trimmed(from: 0.1, to: 0.7)
        #expect(part.elements == [
            .move(to: Point(x: 50, y: 0)), .line(to: Point(x: 100, y: 0)), .line(to: Point(x: 100, y: 100)),
            .line(to: Point(x: 0, y: 100)), .line(to: Point(x: 0, y: 50)),
        ])
    }

    @Test func trimmingACurveGivesTheExactSubCurve() throws {
        let points = [Point(x: 0, y: 0), Point(x: 30, y: 100), Point(x: 70, y: -50), Point(x: 100, y: 0)]
        let path = cubic(points)
        let piece = path.trimmed(from: 0.2, to: 0.7)
        #expect(piece.elements.count == 2)
        #expect(abs(piece.length / path.length - 0.5) < 1e-9)
        #expect(close(try #require(piece.point(atFraction: 0)), try #require(path.point(atFraction: 0.2))))
        #expect(close(try #require(piece.point(atFraction: 1)), try #require(path.point(atFraction: 0.7))))
        // The piece is the original over [ta, tb], linearly re-parametrised (de Casteljau).
        let original = PathGeometry(path).segments[0], sub = PathGeometry(piece).segments[0]
        let ta = original.parameter(atLength: 0.2 * original.length, total: original.length)
        let tb = original.parameter(atLength: 0.7 * original.length, total: original.length)
        for u in [0.0, 0.3, 0.5, 0.9, 1.0] {
            #expect(close(Point(pathVector: sub.point(at: u)), Point(pathVector: original.point(at: ta + (tb - ta) * u))))
        }
        // A draw-on of a circle: a quarter of it is a quarter of its length and ends a quarter turn on.
        let circle = Path(circleCenter: .zero, radius: 10)
        let quarter = circle.trimmed(from: 0, to: 0.25)
        #expect(abs(quarter.length - circle.length / 4) < 1e-9)
        #expect(close(try #require(quarter.currentPoint), Point(x: 0, y: 10)))
    }

    // MARK: Bounds

    @Test func boundsUseCurveExtremaNotControlPoints() {
        // y(t) = 300·t(1 − t): top of the arch at t = ½, y = 75; the controls reach 100.
        let arch = cubic([Point(x: 0, y: 0), Point(x: 0, y: 100), Point(x: 100, y: 100), Point(x: 100, y: 0)])
        #expect(close(arch.bounds, Rect(x: 0, y: 0, width: 100, height: 75)))
        #expect(arch.controlPointBounds == Rect(x: 0, y: 0, width: 100, height: 100))
        // x overshoots both ends: x(t) = −150t + 750t² − 500t³, x'(t) = −150(1 − 10t + 10t²), turning at
        // t = (1 ∓ √0.6)/2; y(t) = 150·t(1 − t) tops out at 37.5.
        let overshoot = cubic([Point(x: 0, y: 0), Point(x: -50, y: 50), Point(x: 150, y: 50), Point(x: 100, y: 0)])
        func x(_ t: Double) -> Double { -150 * t + 750 * t * t - 500 * t * t * t }
        let t1 = (1 - 0.6.squareRoot()) / 2, t2 = (1 + 0.6.squareRoot()) / 2
        #expect(x(t1) < 0 && x(t2) > 100)
        #expect(close(overshoot.bounds, Rect(x: x(t1), y: 0, width: x(t2) - x(t1), height: 37.5)))
        // A quadratic's extremum, a circle's box, and nothing for a lone move.
        let q = Path(elements: [.move(to: .zero), .quadCurve(to: Point(x: 10, y: 0), control: Point(x: 5, y: -10))])
        #expect(close(q.bounds, Rect(x: 0, y: -5, width: 10, height: 5)))
        #expect(close(Path(circleCenter: Point(x: 5, y: 5), radius: 5).bounds, Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(Path(elements: [.move(to: Point(x: 3, y: 3))]).bounds == Rect(x: 0, y: 0, width: 0, height: 0))
    }

    // MARK: SVG

    @Test func parsesAbsoluteCommands() throws {
        let p = try Path(svg: "M10 10 C 20 20, 40 20, 50 10 Z")
        #expect(p.elements == [
            .move(to: Point(x: 10, y: 10)),
            .curve(to: Point(x: 50, y: 10), control1: Point(x: 20, y: 20), control2: Point(x: 40, y: 20)),
            .closeSubpath,
        ])
        let q = try Path(svg: "M0,0 L10,0 H20 V30 Q 40 40 50 30 L 0 0 z")
        #expect(q.elements == [
            .move(to: .zero), .line(to: Point(x: 10, y: 0)), .line(to: Point(x: 20, y: 0)), .line(to: Point(x: 20, y: 30)),
            .quadCurve(to: Point(x: 50, y: 30), control: Point(x: 40, y: 40)), .line(to: .zero), .closeSubpath,
        ])
    }

    @Test func parsesRelativeCommandsAndImplicitRepeats() throws {
        let p = try Path(svg: "m10 10 20 0 0 20 h-5 v5 l1 1 2 2 z m5 5 c1 1 2 2 3 3 q1 0 2 2")
        #expect(p.elements == [
            .move(to: Point(x: 10, y: 10)), .line(to: Point(x: 30, y: 10)), .line(to: Point(x: 30, y: 30)),
            .line(to: Point(x: 25, y: 30)), .line(to: Point(x: 25, y: 35)),
            .line(to: Point(x: 26, y: 36)), .line(to: Point(x: 28, y: 38)), .closeSubpath,
            // After z the current point is the subpath's start (10, 10).
            .move(to: Point(x: 15, y: 15)),
            .curve(to: Point(x: 18, y: 18), control1: Point(x: 16, y: 16), control2: Point(x: 17, y: 17)),
            .quadCurve(to: Point(x: 20, y: 20), control: Point(x: 19, y: 18)),
        ])
    }

    @Test func smoothCommandsReflectThePreviousControlPoint() throws {
        let s = try Path(svg: "M0 0 C10 0 20 10 20 20 S30 40 40 40 s10 0 10 10")
        #expect(s.elements[2] == .curve(to: Point(x: 40, y: 40), control1: Point(x: 20, y: 30), control2: Point(x: 30, y: 40)))
        #expect(s.elements[3] == .curve(to: Point(x: 50, y: 50), control1: Point(x: 50, y: 40), control2: Point(x: 50, y: 40)))
        // Without a cubic before, S's first control is the current point.
        #expect(try Path(svg: "M5 5 S10 10 20 0").elements[1]
                == .curve(to: Point(x: 20, y: 0), control1: Point(x: 5, y: 5), control2: Point(x: 10, y: 10)))
        let t = try Path(svg: "M0 0 Q5 10 10 0 T20 0 t10 0 L40 0 T50 0")
        #expect(t.elements[2] == .quadCurve(to: Point(x: 20, y: 0), control: Point(x: 15, y: -10)))
        #expect(t.elements[3] == .quadCurve(to: Point(x: 30, y: 0), control: Point(x: 25, y: 10)))
        #expect(t.elements[5] == .quadCurve(to: Point(x: 50, y: 0), control: Point(x: 40, y: 0)))   // after L: no reflection
    }

    @Test func parsesCompactNumbers() throws {
        #expect(try Path(svg: "M10-20.5.5.5L1e2-1E-1").elements == [
            .move(to: Point(x: 10, y: -20.5)), .line(to: Point(x: 0.5, y: 0.5)), .line(to: Point(x: 100, y: -0.1)),
        ])
        #expect(try Path(svg: " M-.5+.5\n\tl+2.5e+1,1.e1 ").elements == [
            .move(to: Point(x: -0.5, y: 0.5)), .line(to: Point(x: 24.5, y: 10.5)),
        ])
        // Arc flags need no separator: large-arc 1, sweep 0, then the end point 50 0.
        let arc = try Path(svg: "M0 0a25 25 0 1050 0")
        #expect(arc.currentPoint == Point(x: 50, y: 0))
        #expect(abs(try #require(arc.point(atFraction: 0.5)).y - 25) < 1e-9)   // sweep 0: below on screen
    }

    @Test func arcsBecomeCubicsOnTheRightEllipse() throws {
        let r = 50.0
        // A half circle above the chord (sweep 1 turns clockwise on screen, from the left point over the top).
        let half = try Path(svg: "M0 0 A50 50 0 0 1 100 0")
        #expect(half.length >= .pi * r * (1 - 1e-12) && half.length <= .pi * r * (1 + Self.circleRadiusError))
        #expect(close(try #require(half.point(atFraction: 0.5)), Point(x: 50, y: -50)))
        #expect(half.currentPoint == Point(x: 100, y: 0))
        // Radii too small are scaled up to reach: the same half circle.
        let scaled = try Path(svg: "M0 0 A1 1 0 0 1 100 0")
        #expect(abs(scaled.length - half.length) < 1e-9)
        // Relative, large arc: three quarters of a circle of radius 10 around (10, 0) from (0, 0) to (10, 10),
        // clockwise on screen over the top; a third of the way it is at the top, (10, −10).
        let large = try Path(svg: "M0 0 a10 10 0 1 1 10 10")
        #expect(abs(large.length / (1.5 * .pi * 10) - 1) < Self.circleRadiusError)
        #expect(close(try #require(large.point(atFraction: 1.0 / 3)), Point(x: 10, y: -10)))
        // A rotated ellipse: rx 100, ry 50 turned 30°, between opposite ends of its major axis.
        let phi = Double.pi / 6
        let a = Point(x: -100 * cos(phi), y: -100 * sin(phi)), b = Point(x: 100 * cos(phi), y: 100 * sin(phi))
        let ellipse = try Path(svg: "M\(a.x) \(a.y) A100 50 30 0 1 \(b.x) \(b.y)")
        for i in 0...20 {
            let p = try #require(ellipse.point(atFraction: Double(i) / 20))
            let u = cos(phi) * p.x + sin(phi) * p.y, v = -sin(phi) * p.x + cos(phi) * p.y
            let radius = ((u / 100) * (u / 100) + (v / 50) * (v / 50)).squareRoot()
            #expect(radius >= 1 - 1e-9 && radius <= 1 + Self.circleRadiusError)
        }
        // Zero radius: a straight line; identical end points: nothing.
        #expect(try Path(svg: "M0 0 A0 10 0 0 1 10 0").elements == [.move(to: .zero), .line(to: Point(x: 10, y: 0))])
        #expect(try Path(svg: "M5 5 A10 10 0 0 1 5 5").elements == [.move(to: Point(x: 5, y: 5))])
    }

    @Test func badPathDataNamesTheTokenAndItsPosition() {
        func failure(_ data: String) -> (position: Int, reason: String, message: String)? {
            do { _ = try Path(svg: data); return nil } catch {
                guard error.code == .invalidPathData, let d = error.value, let position = error.position, let reason = error.reason, d == data else { return nil }
                return (position, reason, error.description)
            }
        }
        let bad = failure("M10 10 L20 x")
        #expect(bad?.position == 11)
        #expect(bad?.reason.contains("\"x\"") == true)
        #expect(bad?.message.contains("position 11") == true)
        #expect(failure("L10 10")?.position == 0)                       // must start with a move
        #expect(failure("10 10")?.position == 0)
        #expect(failure("M10")?.reason.contains("end of the data") == true)
        #expect(failure("M10")?.position == 3)
        #expect(failure("M1 2 A5 5 0 2 0 10 10")?.position == 12)      // flags are 0 or 1
        #expect(failure("M1e 2")?.position == 2)                        // exponent without digits
        #expect(failure("M1 2 Z 3 4")?.position == 7)                   // numbers after Z
        #expect(failure("M1,,2")?.position == 3)
        #expect(failure("M1 2 L3 4,")?.position == 10)
        #expect(failure("M1 2 X 3")?.reason.contains("\"X\"") == true)
        #expect(failure("M1 2 L1e999 0")?.position == 6)                // out of range
    }

    @Test func svgStringRoundTrips() throws {
        var p = Path()
        p.move(to: Point(x: 0.1, y: -3))
        p.line(to: Point(x: 1e-7, y: 12345.678))
        p.quadCurve(to: Point(x: 3, y: 4), control: Point(x: 1 / 3, y: -0.0))
        p.curve(to: Point(x: 9, y: 9), control1: Point(x: 7, y: 8), control2: Point(x: -2.5, y: 1e20))
        p.closeSubpath()
        p.line(to: Point(x: 5, y: 5))
        p.append(Path(circleCenter: Point(x: 3, y: 3), radius: 2.2))
        let text = p.svgString
        #expect(text.hasPrefix("M0.1 -3L1e-07 12345.678Q"))
        #expect(try Path(svg: text) == p)
    }

    // MARK: Transforms

    @Test func transformsMapEveryPoint() throws {
        let square = Path(rect: Rect(x: 0, y: 0, width: 10, height: 20))
        let moved = square.applying(AffineTransform.scale(x: 2, y: 3).translatedBy(x: 5, y: -5))
        #expect(moved.bounds == Rect(x: 5, y: -5, width: 20, height: 60))
        var mutated = square
        mutated.apply(AffineTransform.scale(x: 2, y: 3).translatedBy(x: 5, y: -5))
        #expect(mutated == moved)
        #expect(square.applying(.identity) == square)
        // A similarity keeps fractions of length: points along map to points along.
        let curve = try Path(svg: "M0 0 C30 100 70 -50 100 0 Q150 50 100 100")
        let t = AffineTransform.rotation(0.7).scaledBy(x: 1.5, y: 1.5).translatedBy(x: 3, y: 4)
        let turned = curve.applying(t)
        #expect(abs(turned.length - 1.5 * curve.length) < 1e-9)
        for f in [0.0, 0.3, 0.8] {
            #expect(close(try #require(turned.point(atFraction: f)), t.apply(to: try #require(curve.point(atFraction: f))), 1e-8))
        }
    }

    // MARK: Builders

    @Test func shapeBuildersHaveTheExpectedGeometry() throws {
        let rounded = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 10)
        let straight = 2 * (100 + 60) - 8 * 10.0, arcs = 2 * Double.pi * 10
        #expect(rounded.length >= straight + arcs * (1 - 1e-12) && rounded.length <= straight + arcs * (1 + Self.circleRadiusError))
        #expect(close(rounded.bounds, Rect(x: 0, y: 0, width: 100, height: 60)))
        #expect(rounded.isClosed)
        #expect(Path(roundedRect: Rect(x: 0, y: 0, width: 4, height: 4), cornerRadius: 0) == Path(rect: Rect(x: 0, y: 0, width: 4, height: 4)))

        let hexagon = try Path.regularPolygon(center: Point(x: 5, y: 5), radius: 10, sides: 6)
        #expect(abs(hexagon.length - 60) < 1e-9)
        #expect(close(try #require(hexagon.point(atFraction: 0)), Point(x: 5, y: -5)))   // first corner up
        #expect(throws: MovieMakerError.self) { try Path.regularPolygon(center: .zero, radius: 1, sides: 2) }

        let star = try Path.star(center: .zero, outerRadius: 10, innerRadius: 4, points: 5, rotation: .pi)
        #expect(star.elements.count == 11)   // move, 9 lines, close
        #expect(close(try #require(star.point(atFraction: 0)), Point(x: 0, y: 10)))   // turned half-way: tip down
        #expect(throws: MovieMakerError.self) { try Path.star(center: .zero, outerRadius: 1, innerRadius: 0.5, points: 1) }

        #expect(!Path(polygon: [.zero, Point(x: 1, y: 0), Point(x: 1, y: 1)], closed: false).isClosed)
        #expect(Path(polygon: []).isEmpty)

        // arc(): a line from the current point to the start, then ≤ 90° cubics.
        var p = Path()
        p.move(to: .zero)
        p.arc(center: Point(x: 20, y: 0), radius: 10, startAngle: .pi, endAngle: 0)   // clockwise over the top
        #expect(p.elements.count == 4)
        guard case let .line(start) = p.elements[1] else { Issue.record("expected a line to the arc"); return }
        #expect(close(start, Point(x: 10, y: 0)))
        #expect(close(try #require(p.currentPoint), Point(x: 30, y: 0)))
        #expect(p.bounds.minY < -9.99)
        var q = Path()
        q.arc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)   // the long way round
        #expect(q.elements.count == 4 && q.elements.first == .move(to: Point(x: 10, y: 0)))
        #expect(abs(q.length / (1.5 * .pi * 10) - 1) < Self.circleRadiusError)
    }

    @Test func structureQueriesFollowCairo() {
        var p = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        p.line(to: Point(x: 5, y: 20))                 // after a close: a new subpath from (0, 0)
        p.move(to: Point(x: 50, y: 50))                // a lone move draws nothing
        p.move(to: Point(x: 60, y: 60))
        p.curve(to: Point(x: 70, y: 60), control1: Point(x: 62, y: 62), control2: Point(x: 68, y: 62))
        let parts = p.subpaths
        #expect(parts.count == 3)
        #expect(parts[1].elements == [.move(to: .zero), .line(to: Point(x: 5, y: 20))])
        #expect(parts[2].elements.first == .move(to: Point(x: 60, y: 60)))
        #expect(p.currentPoint == Point(x: 70, y: 60))
        #expect(!p.isClosed)
        #expect(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)).currentPoint == .zero)
        #expect(Path().currentPoint == nil && !Path().isClosed)
        // A first line acts as a move; after a close the current point is that start.
        let implicit = Path(elements: [.line(to: Point(x: 5, y: 5)), .line(to: Point(x: 9, y: 9)), .closeSubpath])
        #expect(implicit.currentPoint == Point(x: 5, y: 5))
        #expect(implicit.subpaths.first?.elements == [.move(to: Point(x: 5, y: 5)), .line(to: Point(x: 9, y: 9)), .closeSubpath])
        #expect(Path(elements: [.closeSubpath]).currentPoint == nil)
        #expect(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)).appending(Path(circleCenter: .zero, radius: 1)).isClosed)
    }

    @Test func flatteningStaysWithinTolerance() throws {
        let r = 50.0, tolerance = 0.05
        let circle = Path(circleCenter: .zero, radius: r)
        let flat = circle.flattened(tolerance: tolerance)
        #expect(flat.elements.allSatisfy { if case .quadCurve = $0 { return false }; if case .curve = $0 { return false }; return true })
        #expect(flat.isClosed)
        // Vertices lie on the curve; chord midpoints cannot be further than the tolerance (plus the
        // approximation's own distance from the true circle) from it.
        var previous: Point?
        for element in flat.elements {
            guard case let .line(p) = element else { continue }
            #expect(hypot(p.x, p.y) <= r * (1 + Self.circleRadiusError) + 1e-9)
            if let a = previous {
                let mid = Point(x: (a.x + p.x) / 2, y: (a.y + p.y) / 2)
                #expect(hypot(mid.x, mid.y) >= r - tolerance - 1e-9)
            }
            previous = p
        }
        #expect(flat.length < circle.length && flat.length > circle.length * 0.999)
    }

    @Test func reversalWalksBackwards() throws {
        let curve = try Path(svg: "M0 0 C30 100 70 -50 100 0 L120 40 Q150 50 100 100")
        let back = curve.reversed()
        #expect(abs(back.length - curve.length) < 1e-9)
        for f in [0.0, 0.2, 0.55, 1.0] {
            #expect(close(try #require(back.point(atFraction: f)), try #require(curve.point(atFraction: 1 - f)), 1e-8))
        }
        let square = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)).reversed()
        #expect(square.elements == [.move(to: .zero), .line(to: Point(x: 0, y: 10)), .line(to: Point(x: 10, y: 10)),
                                    .line(to: Point(x: 10, y: 0)), .line(to: .zero), .closeSubpath])
    }

    // MARK: Morphing

    @Test func sameStructureMorphsPointByPoint() {
        let a = Path(polygon: [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 0, y: 10)])
        let b = Path(polygon: [Point(x: 20, y: 20), Point(x: 40, y: 20), Point(x: 20, y: 30)])
        #expect(a.interpolated(to: b, amount: 0.5) == Path(polygon: [Point(x: 10, y: 10), Point(x: 25, y: 10), Point(x: 10, y: 20)]))
        #expect(a.interpolated(to: b, amount: 0) == a)
        #expect(a.interpolated(to: b, amount: 1) == b)
        #expect(PathMorph(from: a, to: b).commonPath(at: 1) == b)   // no resampling when the kinds match
    }

    @Test func squareToCircleMorphMatchesBothEnds() throws {
        let square = Path(rect: Rect(x: -50, y: -50, width: 100, height: 100))
        let r = 60.0
        let circle = Path(circleCenter: .zero, radius: r)
        let morph = PathMorph(from: square, to: circle)
        #expect(morph.path(at: 0) == square && morph.path(at: 1) == circle)
        // The common structure itself (no shortcut at the ends) draws the same shapes.
        let start = morph.commonPath(at: 0), end = morph.commonPath(at: 1)
        #expect(abs(start.length - square.length) < 1e-9 && close(start.bounds, square.bounds))
        #expect(abs(end.length - circle.length) < 1e-9 && close(end.bounds, circle.bounds))
        for i in 0..<50 {
            let p = try #require(start.point(atFraction: Double(i) / 50))
            #expect(abs(max(abs(p.x), abs(p.y)) - 50) < 1e-9)   // on the square's outline
            let q = try #require(end.point(atFraction: Double(i) / 50))
            let radius = hypot(q.x, q.y)
            #expect(radius >= r * (1 - 1e-12) && radius <= r * (1 + Self.circleRadiusError))
        }
        // Half-way: one closed loop, finite, between the two (the square's corners reach 50√2 ≈ 70.7).
        let middle = morph.path(at: 0.5)
        #expect(middle.subpaths.count == 1 && middle.isClosed)
        #expect(middle.elements.count == start.elements.count)
        for i in 0..<50 {
            let p = try #require(middle.point(atFraction: Double(i) / 50))
            #expect(p.x.isFinite && p.y.isFinite)
            #expect(hypot(p.x, p.y) > 49 && hypot(p.x, p.y) < 66)
        }
        // Corners travel to the circle's diagonal points (not a quarter-turn twist): the corner (50, 50)
        // meets 45° on the circle, so half-way an end point sits at their average.
        let corner = Point(x: (50 + r / 2.0.squareRoot()) / 2, y: (50 + r / 2.0.squareRoot()) / 2)
        #expect(middle.elements.contains { element in
            if case let .curve(p, _, _) = element { return close(p, corner, 1e-9) }
            return false
        })
        // Interpolatable goes through the same morph.
        #expect(square.interpolated(to: circle, amount: 0.5) == middle)
    }

    @Test func morphsBetweenDifferentSubpathCountsAndDirections() throws {
        let one = Path(circleCenter: Point(x: 0, y: 0), radius: 10)
        var two = Path(circleCenter: Point(x: 0, y: 0), radius: 20).reversed()   // opposite direction
        two.append(Path(polygon: [Point(x: 100, y: 0), Point(x: 110, y: 0), Point(x: 110, y: 10)]))
        let morph = PathMorph(from: one, to: two)
        // The missing subpath grows from its own centre: at 0 it has no length.
        let start = morph.commonPath(at: 0), end = morph.commonPath(at: 1)
        #expect(abs(start.length - one.length) < 1e-9)
        #expect(abs(end.length - two.length) < 1e-9)
        #expect(start.subpaths.count == 2 && end.subpaths.count == 2)
        // Directions were matched, so half-way the first loop is a circle of radius ≈ 15, not a collapse.
        let middle = morph.path(at: 0.5).subpaths[0]
        for i in 0..<20 {
            let p = try #require(middle.point(atFraction: Double(i) / 20))
            #expect(abs(hypot(p.x, p.y) - 15) < 15 * Self.circleRadiusError)
        }
        // A path morphing to nothing shrinks to its centre.
        let vanish = PathMorph(from: one, to: Path()).commonPath(at: 1)
        #expect(vanish.length == 0 && vanish.subpaths.count == 1)
    }

    // MARK: Drawing

    @Test func filledStarAndDrawOnStrokeCoverTheRightPixels() throws {
        let star = try Path.star(center: Point(x: 50, y: 50), outerRadius: 45, innerRadius: 20, points: 5)
        let line = Path(lineFrom: Point(x: 10, y: 95), to: Point(x: 90, y: 95))
        let p = try pixels { ctx in
            ctx.setFill(.white)
            ctx.fill(star)
            ctx.setStroke(.red)
            ctx.lineWidth = 4
            ctx.stroke(line.trimmed(from: 0, to: 0.5))
        }
        #expect(p.rgba(x: 50, y: 50) == (255, 255, 255, 255))   // centre
        #expect(p.rgba(x: 50, y: 15) == (255, 255, 255, 255))   // inside the top tip
        #expect(p.rgba(x: 50, y: 80) == (0, 0, 0, 255))         // below the bottom notch at (50, 70)
        #expect(p.rgba(x: 15, y: 15) == (0, 0, 0, 255))         // outside, between tips
        #expect(p.rgba(x: 30, y: 95) == (255, 0, 0, 255))       // drawn half of the line
        #expect(p.rgba(x: 70, y: 95) == (0, 0, 0, 255))         // not yet drawn
    }
}

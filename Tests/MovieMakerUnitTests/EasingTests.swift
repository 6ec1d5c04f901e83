import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Easing curves: browser-exact CSS curves, Penner families, steps, springs, combinators and names.
@Suite struct EasingTests {
    /// Every built-in curve with a plain name except `step-start`, which is 1 from the start by definition.
    private var namedCurves: [(String, Easing)] {
        get throws { try Easing.allNames.filter { $0 != "step-start" }.map { ($0, try Easing(named: $0)) } }
    }

    /// `t` from 0 to 1 in `n` equal steps.
    private func samples(_ n: Int = 1000) -> [Double] { (0...n).map { Double($0) / Double(n) } }

    @Test func cssCurvesMatchBrowserValues() {
        // Values browsers compute (and an independent 200-step bisection of the same Bézier agrees).
        #expect(abs(Easing.ease(0.5) - 0.8024) < 0.001)
        #expect(abs(Easing.ease(0.5) - 0.802403387584857) < 1e-6)
        #expect(abs(Easing.ease(0.25) - 0.4085105913553958) < 1e-6)
        #expect(abs(Easing.easeIn(0.5) - 0.31535681257253917) < 1e-6)
        #expect(abs(Easing.easeOut(0.5) - 0.6846431874274607) < 1e-6)
        #expect(abs(Easing.easeInOut(0.5) - 0.5) < 1e-6)
        #expect(abs(Easing.easeInOut(0.25) - 0.1291619310473198) < 1e-6)
        #expect(abs(Easing.cubicBezier(0.25, 0.1, 0.25, 1)(0.75) - Easing.ease(0.75)) < 1e-12)
        // A y outside 0…1 overshoots, like CSS.
        #expect(Easing.cubicBezier(0.3, 1.6, 0.7, 1)(0.5) > 1)
    }

    /// y at x of the CSS curve, by 200 bisection steps on x(t): slow, simple and independent of the solver.
    private func bisectedBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func cubic(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let mid = (lo + hi) / 2; if cubic(x1, x2, mid) < x { lo = mid } else { hi = mid } }
        return cubic(y1, y2, (lo + hi) / 2)
    }

    @Test func bezierSolverAgreesWithBisectionEverywhere() {
        let curves: [(Double, Double, Double, Double)] = [(0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1),
                                                          (0.42, 0, 0.58, 1), (0.68, -0.55, 0.265, 1.55)]
        for (x1, y1, x2, y2) in curves {
            let e = Easing.cubicBezier(x1, y1, x2, y2)
            let worst = samples(200).map { abs(e($0) - bisectedBezier(x1, y1, x2, y2, at: $0)) }.max()!
            #expect(worst < 1e-6, "cubic-bezier(\(x1), \(y1), \(x2), \(y2)) is off by \(worst)")
        }
        // (1, 0, 0, 1) has dx/dt = 0 at its middle, where Newton–Raphson gives up and bisection takes over.
        let flat = Easing.UnitBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        for x in samples(200) { #expect(abs(flat.sampleX(flat.solveX(x, epsilon: 1e-7)) - x) < 1e-7) }
    }

    @Test func everyNamedCurveRunsFromZeroToOne() throws {
        for (name, e) in try namedCurves {
            #expect(abs(e(0)) < 1e-12, "\(name)(0) = \(e(0))")
            #expect(abs(e(1) - 1) < 1e-12, "\(name)(1) = \(e(1))")
        }
        #expect(try Easing(named: "step-start")(0) == 1)
    }

    @Test func monotonicFamiliesNeverGoBack() throws {
        let monotonic = ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-end", "hold"]
            + ["sine", "quad", "cubic", "quart", "quint", "expo", "circ"].flatMap { f in ["In", "Out", "InOut"].map { f + $0 } }
        for name in monotonic {
            let e = try Easing(named: name)
            let values = samples().map { e($0) }
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "\(name) is not monotonic")
            #expect(values.allSatisfy { (0...1).contains($0) }, "\(name) leaves 0…1")
        }
    }

    @Test func inputsAreClampedToTheUnitInterval() throws {
        for (name, e) in try namedCurves {
            #expect(e(-1) == e(0), "\(name)")
            #expect(e(2) == e(1), "\(name)")
        }
        #expect(Easing.quadIn(.nan) == 0)
        // A custom function never sees anything outside 0…1.
        let guarded: @Sendable (Double) -> Double = { t in t < 0 || t > 1 ? .nan : t }
        let seen = Easing(guarded)
        #expect(seen(-5) == 0 && seen(5) == 1 && seen.name == "custom")
        #expect(Easing(name: "square") { $0 * $0 }(3) == 1)
    }

    @Test func pennerCurvesHaveTheirKnownValues() {
        #expect(Easing.quadIn(0.5) == 0.25)
        #expect(Easing.quadOut(0.5) == 0.75)
        #expect(Easing.cubicInOut(0.25) == 0.0625)            // 4 · 0.25³
        #expect(Easing.quintInOut(0.75) == 1 - pow(0.5, 5) / 2)
        #expect(abs(Easing.sineInOut(0.5) - 0.5) < 1e-15)
        #expect(abs(Easing.expoIn(0.5) - 0.03125) < 1e-15)     // 2^(−5)
        #expect(abs(Easing.circOut(0.5) - 0.75.squareRoot()) < 1e-15)
        #expect(Easing.bounceOut(0.5) == 0.765625)
        #expect(Easing.bounceIn(0.5) == 1 - 0.765625)
        #expect(abs(Easing.elasticOut(0.5) - 1.015625) < 1e-12)   // 1 + 2^(−5) · sin(4.25 · 2π/3)
        #expect(abs(Easing.elasticIn(0.5) + 0.015625) < 1e-12)
        #expect(abs(Easing.backIn(0.5) + 0.0876975) < 1e-7)       // 2.70158/8 − 1.70158/4
    }

    @Test func backAndElasticOvershoot() {
        let t = samples()
        #expect(t.map { Easing.backIn($0) }.min()! < -0.099)    // Penner's constant gives a 10 % pull-back
        #expect(t.map { Easing.backOut($0) }.max()! > 1.099)
        #expect(t.map { Easing.backInOut($0) }.min()! < 0)
        #expect(t.map { Easing.elasticOut($0) }.max()! > 1.3)
        #expect(t.map { Easing.bounceOut($0) }.allSatisfy { (0...1).contains($0) })
    }

    @Test func stepsFollowCSS() {
        let end = Easing.steps(4)
        #expect([0, 0.24, 0.25, 0.5, 0.74, 0.99, 1].map { end($0) } == [0, 0, 0.25, 0.5, 0.5, 0.75, 1])
        let start = Easing.steps(4, position: .jumpStart)
        #expect([0, 0.24, 0.25, 0.99, 1].map { start($0) } == [0.25, 0.25, 0.5, 1, 1])
        let none = Easing.steps(5, position: .jumpNone)          // five levels 0, ¼, ½, ¾, 1
        #expect([0, 0.19, 0.2, 0.5, 0.8, 1].map { none($0) } == [0, 0, 0.25, 0.5, 1, 1])
        let both = Easing.steps(3, position: .jumpBoth)          // four jumps of ¼
        #expect([0, 0.33, 0.34, 0.67, 1].map { both($0) } == [0.25, 0.25, 0.5, 0.75, 1])
        #expect(Easing.steps(0).name == "steps(1)" && Easing.steps(0)(0.5) == 0 && Easing.steps(0)(1) == 1, "n below 1 is raised to one step")
        #expect(Easing.hold(0.999) == 0 && Easing.hold(1) == 1)
    }

    /// The last of 20 001 samples of 0…1 where the curve is more than `tolerance` away from 1.
    private func lastExcursion(_ e: Easing, tolerance: Double = 0.001) -> Double {
        samples(20_000).last { abs(e($0) - 1) > tolerance + 1e-12 } ?? 0
    }

    @Test func underdampedSpringOvershootsAndSettles() {
        let e = Easing.spring(mass: 1, stiffness: 100, damping: 10)     // damping ratio 0.5
        let values = samples(20_000).map { e($0) }
        // Peak overshoot of a damping ratio ζ = 0.5 spring is exp(−ζπ/√(1−ζ²)) = 16.3 %.
        #expect(abs(values.max()! - (1 + exp(-0.5 * .pi / 0.75.squareRoot()))) < 1e-4)
        #expect(e(1) == 1)
        // It settles exactly at the end: the last time it is outside the 0.1 % band is in the last
        // 0.1 % of the animation, and it is right at the band's edge there.
        #expect(lastExcursion(e) > 0.999)
        #expect(abs(abs(e(0.99999) - 1) - 0.001) < 0.0001)
    }

    @Test func criticalAndOverdampedSpringsCreepWithoutOvershoot() {
        for ratio in [1.0, 2.5] {
            let e = Easing.spring(dampingFraction: ratio)
            let values = samples(5000).map { e($0) }
            #expect(values.allSatisfy { $0 <= 1 + 1e-12 }, "damping ratio \(ratio) overshoots")
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "damping ratio \(ratio) goes back")
            #expect(lastExcursion(e) > 0.999, "damping ratio \(ratio) settles early or late")
            #expect(abs(abs(e(0.9999) - 1) - 0.001) < 0.0001, "ratio \(ratio): \(e(0.9999))")
            #expect(e(0) == 0)
        }
        // Critically and overdamped springs thrown hard towards the target do overshoot, once, then settle.
        for damping in [20.0, 50] {
            let thrown = Easing.spring(mass: 1, stiffness: 100, damping: damping, initialVelocity: 60)
            let values = samples(20_000).map { thrown($0) }
            #expect(values.max()! > 1.1, "damping \(damping)")
            #expect(lastExcursion(thrown) > 0.999, "damping \(damping)")
            #expect(abs(abs(thrown(0.9999) - 1) - 0.001) < 0.0001, "damping \(damping): \(thrown(0.9999))")
        }
    }

    @Test func swiftUIStyleSpringMatchesTheExplicitOne() throws {
        // response 2π/10 s and damping fraction 0.5 is stiffness 100, damping 10 with mass 1.
        let a = Easing.spring(response: 2 * .pi / 10, dampingFraction: 0.5)
        let b = Easing.spring(mass: 1, stiffness: 100, damping: 10)
        for t in samples(100) { #expect(abs(a(t) - b(t)) < 1e-9) }
        // The default, also reachable as "spring", is SwiftUI's 0.825 damping fraction: about 1 % overshoot.
        let byName = try Easing(named: "spring")
        let overshoot = samples(20_000).map { byName($0) }.max()! - 1
        #expect(abs(overshoot - exp(-0.825 * .pi / (1 - 0.825 * 0.825).squareRoot())) < 1e-4)
        #expect(samples(100).allSatisfy { byName($0) == Easing.spring()($0) })
        // A barely damped spring still settles by the end.
        let ringing = Easing.spring(dampingFraction: 0.02)
        #expect(lastExcursion(ringing) > 0.999)
        #expect(samples(20_000).map { ringing($0) }.max()! > 1.9)
    }

    @Test func combinators() {
        for t in samples(100) {
            #expect(abs(Easing.quadIn.reversed(t) - Easing.quadOut(t)) < 1e-12)
        }
        let there = Easing.quadIn.mirrored
        #expect(there(0) == 0 && there(0.5) == 1 && there(1) == 0)
        #expect(there(0.25) == 0.25 && there(0.75) == 0.25)
        let squished = Easing.quadIn.squished(into: 0.25...0.75)
        #expect(squished(0.1) == 0 && squished(0.25) == 0 && squished(0.5) == 0.25 && squished(0.75) == 1 && squished(0.9) == 1)
        let chained = Easing.quadIn.then(.quadOut)
        #expect(chained(0.25) == 0.125 && chained(0.5) == 0.5 && chained(0.75) == 0.875 && chained(1) == 1)
    }

    @Test func namesParse() throws {
        #expect(try Easing(named: "ease-in-out")(0.25) == Easing.easeInOut(0.25))
        #expect(abs(try Easing(named: "cubic-bezier(0.25,0.1,0.25,1)")(0.5) - 0.8024) < 0.001)
        #expect(try Easing(named: " steps(4) ")(0.3) == 0.25)
        #expect(try Easing(named: "steps(4, start)")(0) == 0.25)
        #expect(try Easing(named: "steps(3, jump-both)")(0) == 0.25)
        for alias in ["quadOut", "quad-out", "QUAD_OUT", "easeOutQuad"] {
            #expect(try Easing(named: alias)(0.5) == 0.75, "\(alias)")
        }
        #expect(try Easing(named: "easeIn")(0.5) == Easing.easeIn(0.5))   // CSS ease-in, not a Penner curve
        #expect(abs(try Easing(named: "spring(1, 100, 10)")(0.3) - Easing.spring(mass: 1, stiffness: 100, damping: 10)(0.3)) < 1e-12)
        // Each built-in's name parses back to the same curve.
        let curves: [Easing] = [.cubicBezier(0.1, 0.7, 1, 0.1), .steps(5, position: .jumpNone), .spring(mass: 2, stiffness: 50, damping: 3, initialVelocity: 1.5), .backInOut]
        for e in curves {
            let parsed = try Easing(named: e.name)
            #expect(samples(50).allSatisfy { parsed($0) == e($0) }, "\(e.name)")
        }
        for name in Easing.allNames { #expect(try Easing(named: name).name == name) }
        #expect(Easing.allNames.count == 9 + 30)
        // The other spellings the schema lists (the charts' documented "easeOut") read as the curves they name.
        for (alternative, name) in [("easeOut", "ease-out"), ("easeInOut", "ease-in-out"), ("stepEnd", "step-end"), ("easeOutQuad", "quadOut"),
                                    ("easeInOutBounce", "bounceInOut")] {
            #expect(Easing.alternativeNames.contains(alternative))
            #expect(try Easing(named: alternative).name == name, "\(alternative)")
        }
        for alternative in Easing.alternativeNames { #expect(throws: Never.self, "\(alternative)") { _ = try Easing(named: alternative) } }
    }

    @Test func badNamesThrowSayingWhatIsExpected() {
        for bad in ["wobble", "", "cubic-bezier(2, 0, 1, 1)", "cubic-bezier(0.1, 0.2, 0.3)", "steps(0)", "steps(1, jump-none)",
                    "steps(4, sideways)", "steps(2.5)", "spring(0, 100, 10)", "bezier(0,0,1,1)"] {
            #expect(throws: MovieMakerError.self, "\(bad)") { try Easing(named: bad) }
        }
        do {
            _ = try Easing(named: "wobble")
            Issue.record("wobble parsed")
        } catch {
            #expect(error.description.contains("\"wobble\"") && error.description.contains("ease-in-out"))
        }
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Keyframe tracks, `animate` and staggered starts.
@Suite struct KeyframeTests {
    private func track() throws -> KeyframeTrack<Double> {
        // Given out of order on purpose.
        try KeyframeTrack([
            Keyframe(time: 3, value: 40, easing: .quadIn),
            Keyframe(time: 1, value: 10),
            Keyframe(time: 2, value: 20),
        ])
    }

    @Test func valuesBeforeAtBetweenAndAfterKeyframes() throws {
        let t = try track()
        #expect(t.keyframes.map(\.time) == [1, 2, 3])
        #expect(t.value(at: -5) == 10 && t.value(at: 0.999) == 10)   // before the first: its value
        #expect(t.value(at: 1) == 10 && t.value(at: 2) == 20 && t.value(at: 3) == 40)
        #expect(t.value(at: 1.5) == 15)                               // linear segment
        #expect(t.value(at: 3.001) == 40 && t.value(at: 1e9) == 40)   // after the last: its value
        #expect(t.startTime == 1 && t.endTime == 3 && t.duration == 2)
    }

    @Test func eachSegmentUsesTheEasingOfTheKeyframeItEndsAt() throws {
        let t = try track()
        // 2 s → 3 s eases in with quadIn: halfway is a quarter of the way from 20 to 40.
        #expect(t.value(at: 2.5) == 25)
        // The same segment with CSS ease-in is 31.5 % of the way at its midpoint.
        let css = KeyframeTrack(0.0).then(to: 100, at: 2, easing: .easeIn)
        #expect(abs(css.value(at: 1) - 31.535681257253917) < 1e-4)
        #expect(abs(css.value(at: 1) - KeyframeTrack(0.0).then(to: 100, at: 2).value(at: 1) + 18.464318742746083) < 1e-4)
    }

    @Test func holdAndStepsKeepTheValueUntilTheKeyframe() {
        let held = KeyframeTrack(1.0).then(to: 5, at: 1, easing: .hold).then(to: 9, at: 2, easing: .steps(2))
        #expect(held.value(at: 0.99) == 1 && held.value(at: 1) == 5)
        #expect(held.value(at: 1.49) == 5 && held.value(at: 1.5) == 7 && held.value(at: 2) == 9)
    }

    @Test func equalTimesMakeAJump() throws {
        let t = try KeyframeTrack([Keyframe(time: 0, value: 0.0), Keyframe(time: 1, value: 10), Keyframe(time: 1, value: 50),
                                   Keyframe(time: 2, value: 60)])
        #expect(t.value(at: 0.5) == 5)       // towards the first of the pair
        #expect(t.value(at: 1) == 50)        // the later one wins from its time on
        #expect(t.value(at: 1.5) == 55)
    }

    @Test func interpolatesPointsRectsAndColours() {
        let p = KeyframeTrack(Point(x: 0, y: 100)).then(to: Point(x: 200, y: 0), at: 4)
        #expect(p.value(at: 1) == Point(x: 50, y: 75))
        let r = KeyframeTrack.tween(from: Rect(x: 0, y: 0, width: 10, height: 10), to: Rect(x: 10, y: 20, width: 30, height: 50),
                                    over: 2, startingAt: 1, easing: .quadOut)
        #expect(r.value(at: 0) == Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(r.value(at: 2) == Rect(x: 7.5, y: 15, width: 25, height: 40))   // quadOut(0.5) = 0.75
        let c = KeyframeTrack(Color.red).then(to: .blue, at: 1)
        #expect(c.value(at: 0.25) == Color(red: 0.75, green: 0, blue: 0.25))
        // Fading to clear keeps the hue (premultiplied interpolation) instead of darkening.
        let fade = KeyframeTrack(Color.red).then(to: .clear, at: 1)
        #expect(fade.value(at: 0.5) == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    }

    @Test func exactTimesAtNTSCRates() {
        // Frame 150 at 30000/1001 fps starts at 150 × 1001/30000 = 5.005 s.
        let rate = FrameRate.ntsc
        let t = KeyframeTrack(0.0).then(to: 10, at: 10)
        #expect(abs(t.value(at: rate.time(ofFrame: 150)) - 5.005) < 1e-12)
        // A keyframe placed at an exact frame time is hit exactly on that frame.
        let onFrame = KeyframeTrack(0.0).then(to: 1, at: rate.seconds(ofFrame: 7)).then(to: 3, at: rate.seconds(ofFrame: 8), easing: .hold)
        #expect(onFrame.value(at: rate.time(ofFrame: 7)) == 1)
        #expect(onFrame.value(at: rate.time(ofFrame: 8)) == 3)
        #expect(Keyframe(time: rate.time(ofFrame: 3), value: 1.0).time == Time(value: 3 * 1001, timescale: 30000))
    }

    @Test func emptyOrNonFiniteKeyframesThrow() {
        #expect(throws: MovieMakerError.self) { try KeyframeTrack<Double>([]) }
        #expect(throws: MovieMakerError.self) { try KeyframeTrack([Keyframe(time: .infinity, value: 1.0)]) }
    }

    @Test func animateAppliesTheEasingAndClamps() {
        #expect(animate(10.0, 20.0, progress: 0.5) == 15)
        #expect(animate(10.0, 20.0, progress: 0.5, easing: .quadIn) == 12.5)
        #expect(animate(10.0, 20.0, progress: 3) == 20 && animate(10.0, 20.0, progress: -1) == 10)
        #expect(animate(Point.zero, Point(x: 4, y: 8), progress: 0.25) == Point(x: 1, y: 2))
    }

    // MARK: Stagger

    @Test func staggerStartsItemsDelayApart() {
        let s = Stagger(count: 5, delay: 0.1, duration: 1)
        #expect((0..<5).map { s.startTime(ofItem: $0) } == [0, 0.1, 0.2, 0.30000000000000004, 0.4])
        #expect(abs(s.totalDuration - 1.4) < 1e-12)
        #expect(s.progress(ofItem: 2, at: 0.1) == 0)
        #expect(abs(s.progress(ofItem: 2, at: 0.7) - 0.5) < 1e-12)
        #expect(s.progress(ofItem: 2, at: 5) == 1)
        let reverse = Stagger(count: 5, delay: 0.1, duration: 1, order: .reverse, easing: .quadIn)
        #expect(reverse.rank(ofItem: 4) == 0 && reverse.rank(ofItem: 0) == 4)
        #expect(abs(reverse.progress(ofItem: 4, at: 0.5) - 0.25) < 1e-12)
        #expect(reverse.progress(ofItem: 4, at: Time(value: 1, timescale: 2)) == reverse.progress(ofItem: 4, at: 0.5))
    }

    @Test func staggerFromCenterAndFromEdges() {
        #expect((0..<5).map { Stagger(count: 5, delay: 1, duration: 1, order: .fromCenter).rank(ofItem: $0) } == [2, 1, 0, 1, 2])
        #expect((0..<6).map { Stagger(count: 6, delay: 1, duration: 1, order: .fromCenter).rank(ofItem: $0) } == [2, 1, 0, 0, 1, 2])
        #expect((0..<5).map { Stagger(count: 5, delay: 1, duration: 1, order: .fromEdges).rank(ofItem: $0) } == [0, 1, 2, 1, 0])
        // Spread: the last rank starts exactly `spread` seconds after the first.
        let spread = Stagger(count: 7, spread: 0.6, duration: 0.5, order: .fromCenter)
        #expect(abs(spread.delay - 0.2) < 1e-12 && abs(spread.startTime(ofItem: 0) - 0.6) < 1e-12)
        #expect(spread.startTime(ofItem: 3) == 0 && spread.startTime(ofItem: 2) == spread.startTime(ofItem: 4))
        #expect(abs(spread.totalDuration - 1.1) < 1e-12)
    }

    @Test func randomOrderIsASeededPermutation() {
        let ranks = { (seed: UInt64) in (0..<20).map { Stagger(count: 20, delay: 0.1, duration: 1, order: .random(seed: seed)).rank(ofItem: $0) } }
        let a = ranks(42)
        #expect(a == ranks(42))                         // deterministic
        #expect(Set(a) == Set(0..<20))                  // every item gets its own start
        #expect(a != Array(0..<20) && a != ranks(43))   // shuffled, and differently for another seed
    }

    @Test func zeroDurationStaggerJumps() {
        let s = Stagger(count: 3, delay: 1, duration: 0)
        #expect(s.progress(ofItem: 1, at: 0.99) == 0 && s.progress(ofItem: 1, at: 1) == 1)
        #expect(Stagger(count: 0, delay: 1, duration: 1).totalDuration == 0)
    }
}

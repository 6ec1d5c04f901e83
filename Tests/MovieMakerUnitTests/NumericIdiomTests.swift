import Foundation
import Testing
import MovieMaker

// Issue 33, bug 4: `import MovieMaker` must leave ordinary arithmetic alone. `Time` is expressible by
// float and integer literals and has `Time * Int` and `Time / Int`; before those were disfavoured,
// `1.0 / 30` and `2.5 * 2` failed to compile ("ambiguous use of operator") in any file importing the
// library. This file is itself the check for a package target (it imports MovieMaker plainly, in the
// Swift 6 language mode): if an idiom below became ambiguous again, the test target would not build.
// The same idioms run as a `moviemaker run` script in NewcomerTests.

/// The common numeric idioms of a first script, as a newcomer writes them.
enum NumericIdioms {
    static func values(frame i: Int) -> [Double] {
        let dt = 1.0 / 30
        let twice = 2.5 * 2
        let t = Double(i) / 30
        let half = t * 0.5
        let sum = 0.25 + 1
        let ratio = 3 / 4.0
        let angle = 2 * Double.pi * t
        let fps = 30.0
        let seconds = 90 / fps
        return [dt, twice, t, half, sum, ratio, angle, seconds]
    }
}

@Suite("import MovieMaker leaves literal arithmetic Double")
struct NumericIdiomTests {
    @Test("1.0 / 30, 2.5 * 2, Double(i) / 30, t * 0.5 … are Doubles with their usual values")
    func literalArithmeticStaysDouble() {
        let dt = 1.0 / 30
        let twice = 2.5 * 2
        #expect(type(of: dt) == Double.self && type(of: twice) == Double.self)
        #expect(NumericIdioms.values(frame: 15) == [1.0 / 30, 5, 0.5, 0.25, 1.25, 0.75, Double.pi, 3])
    }

    @Test("Where a Time is expected, the same operators still give exact times")
    func timeArithmeticStillWorks() {
        let d: Time = 3
        #expect(d / 2 == Time(value: 3, timescale: 2))
        #expect(d * 2 == 6)
        let expected: Time = 2.5 * 2
        #expect(expected == 5)
        let clip = Clip.color(.black, duration: 1.5)
        #expect(clip.duration / 3 == Time(value: 1, timescale: 2))
    }
}

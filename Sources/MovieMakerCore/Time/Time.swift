import Foundation

/// An exact time or duration as a fraction of seconds (`value / timescale`), like CMTime.
///
/// Build it from seconds (`Time(seconds: 2.5)`, or a literal: `let d: Time = 3`) or from frames
/// (`rate.time(ofFrame: n)`). Arithmetic and comparison are exact.
public struct Time: Hashable, Comparable, Sendable, CustomStringConvertible,
                    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Numerator, in units of 1/`timescale` seconds.
    public let value: Int64
    /// Units per second (> 0).
    public let timescale: Int64

    /// Creates `value / timescale` seconds, reduced. `timescale` must be positive.
    public init(value: Int64, timescale: Int64) {
        precondition(timescale > 0, "timescale must be positive")
        var g = Swift.max(gcd64(value.magnitude, timescale.magnitude), 1)
        if g > UInt64(Int64.max) { g /= 2 }
        self.value = value / Int64(g)
        self.timescale = timescale / Int64(g)
    }
    /// Converts seconds to an exact time, rounded to the nearest microsecond (exact for decimal literals
    /// such as 2.5 or 0.1). Use `FrameRate.time(ofFrame:)` for frame-exact times such as 1001/30000.
    public init(seconds: Double) {
        precondition(seconds.isFinite, "time must be finite, got \(seconds)")
        self.init(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
    }
    /// The largest magnitude, in seconds, `init(checkedSeconds:)` accepts: about 292,000 years, the most
    /// whole microseconds an `Int64` holds.
    package static let maximumSeconds: Double = 9.2e12

    /// The longest movie the `moviemaker` tool renders unless asked with `--allow-long-movie`: 24 hours.
    package static let longMovieLimit: Time = 86_400

    /// Converts seconds to an exact time as `init(seconds:)` does, for values that come from a user (a
    /// command line, a file, a setting): throws `.invalidSetting` naming the value and the limit for a
    /// value that is not a number, infinite, or beyond ±`maximumSeconds`, where `init(seconds:)` traps.
    public init(checkedSeconds seconds: Double) throws(MovieMakerError) {
        guard seconds.isFinite, seconds.magnitude <= Self.maximumSeconds else {
            throw .invalidSetting(.time, value: "\(seconds) s", expected: "a finite number of seconds within ±\(Self.maximumSeconds) (about 292,000 years)")
        }
        self.init(seconds: seconds)
    }

    /// `seconds` as a time by `init(roundTripping:)`, 0 when negative or not a number, and at most 10^15
    /// seconds (an endless duration).
    package init(nonNegativeSeconds seconds: Double) {
        self.init(roundTripping: seconds > 0 ? Swift.min(seconds, 1e15) : 0)
    }

    /// The simplest fraction whose `seconds` is exactly `seconds` (0.1 is 1/10, `rate.seconds(ofFrame: 7)`
    /// at 30000/1001 is 7007/30000), so a `Double` convenience stores a time that reads back as the same
    /// `Double`; falls back to `init(seconds:)` when no fraction of 53-bit terms does.
    package init(roundTripping seconds: Double) {
        precondition(seconds.isFinite, "time must be finite, got \(seconds)")
        self = Time.simplestFraction(of: seconds) ?? Time(seconds: seconds)
    }

    /// The fraction with the smallest denominator among the continued-fraction approximations of `x`
    /// (convergents and the semiconvergents between them) that converts back to `x` exactly, or nil.
    package static func simplestFraction(of x: Double) -> Time? {
        let limit: UInt128 = 1 << 53          // numerator and denominator convert to Double exactly below this
        let v = x.magnitude
        if v == v.rounded() {
            guard v < 0x1p62 else { return nil }
            return Time(value: Int64(x), timescale: 1)
        }
        // v = n / 2^k exactly (v is not whole, so k ≥ 1; n < 2^53).
        let k = Int(v.significandWidth) - Int(v.exponent)
        guard k > 0, k <= 120 else { return nil }
        let n = UInt128(UInt64(Double(sign: .plus, exponent: k, significand: v)))
        let d = UInt128(1) << k
        func matches(_ p: UInt128, _ q: UInt128) -> Bool {
            p < limit && q > 0 && q < limit && Double(UInt64(p)) / Double(UInt64(q)) == v
        }
        // Euclid on n/d, with h/k the convergents (h₋₂/k₋₂ = 0/1, h₋₁/k₋₁ = 1/0).
        var (a, b) = (n, d)
        var (h0, h1): (UInt128, UInt128) = (0, 1)
        var (k0, k1): (UInt128, UInt128) = (1, 0)
        while b != 0 {
            let q = a / b
            (a, b) = (b, a % b)
            // The semiconvergents (j·h₁ + h₀)/(j·k₁ + k₀), j = 1…q, approach v from one side in order:
            // the first that converts back to v is the simplest (binary search over j).
            func term(_ j: UInt128) -> (UInt128, UInt128) { (j * h1 + h0, j * k1 + k0) }
            // The largest j whose terms stay below the limit.
            var jMax = q
            if h1 > 0 { jMax = Swift.min(jMax, (limit - 1 - h0) / h1) }
            if k1 > 0 { jMax = Swift.min(jMax, (limit - 1 - k0) / k1) }
            if jMax >= 1, matches(term(jMax).0, term(jMax).1) {
                var lo: UInt128 = 1, hi = jMax
                while lo < hi {
                    let mid = lo + (hi - lo) / 2
                    let t = term(mid)
                    if matches(t.0, t.1) { hi = mid } else { lo = mid + 1 }
                }
                let (p, r) = term(lo)
                let value = Int64(p)
                return Time(value: x < 0 ? -value : value, timescale: Int64(r))
            }
            guard jMax == q else { return nil }
            let next = term(q)
            (h0, h1) = (h1, next.0)
            (k0, k1) = (k1, next.1)
        }
        return nil
    }

    /// Whole seconds from an integer literal.
    public init(integerLiteral value: Int) { self.init(value: Int64(value), timescale: 1) }
    /// Seconds from a float literal (rounded to microseconds).
    public init(floatLiteral value: Double) { self.init(seconds: value) }

    /// No time at all.
    public static let zero = Time(value: 0, timescale: 1)
    /// The time in seconds as a floating-point number.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// Sum of two times.
    public static func + (a: Time, b: Time) -> Time { (Rational(a) + Rational(b)).time }
    /// Difference of two times.
    public static func - (a: Time, b: Time) -> Time { (Rational(a) - Rational(b)).time }
    // `Time * Int` and `Time / Int` are disfavoured overloads: `Time` is expressible by float literals, so
    // without it `1.0 / 30` or `2.5 * 2` in any file importing MovieMaker could be `Time / Int` as well
    // as `Double / Double`, and Swift calls the expression ambiguous. Disfavoured, they are chosen only
    // when nothing else fits (`clip.duration / 2`, or a `Time` expected: `trimmed(to: 2.5 * 2)`), so
    // literal arithmetic stays `Double`.

    /// A time scaled by a whole number (`clip.duration * 3`). Literal arithmetic such as `2.5 * 2` stays
    /// `Double` unless a `Time` is expected.
    @_disfavoredOverload
    public static func * (a: Time, n: Int) -> Time { (Rational(a) * Rational(Int64(n), 1)).time }
    /// A time divided by a whole number, exactly (`n` must not be 0): `clip.duration / 2`. Literal
    /// arithmetic such as `1.0 / 30` stays `Double` unless a `Time` is expected.
    @_disfavoredOverload
    public static func / (a: Time, n: Int) -> Time {
        precondition(n != 0, "a time cannot be divided by 0")
        return (Rational(a) * Rational(1, Int64(n))).time
    }
    /// Exact ordering.
    public static func < (a: Time, b: Time) -> Bool { Rational(a) < Rational(b) }
    /// Equality of the reduced fractions.
    public static func == (a: Time, b: Time) -> Bool { a.value == b.value && a.timescale == b.timescale }
    /// The larger of two times.
    public static func max(_ a: Time, _ b: Time) -> Time { a < b ? b : a }
    /// The smaller of two times.
    public static func min(_ a: Time, _ b: Time) -> Time { a < b ? a : b }
    /// `2.5s` or `1001/30000s`.
    public var description: String { timescale == 1 ? "\(value)s" : "\(value)/\(timescale)s (\(seconds)s)" }
}

extension Time: Codable {
    /// Reads a time written as a number of seconds (`2.5`, `3`: read as an exact decimal, so 0.1 is
    /// exactly 1/10) or as a string holding such a number or an exact fraction (`"1001/30000"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = container.decodeExactNumberText()
        if text == nil, let seconds = try? container.decode(Double.self), seconds.isFinite {
            self.init(roundTripping: seconds); return
        }
        guard let text, let (n, d) = ExactNumber.parse(text) else {
            let shown = text.map { "\"\($0)\"" } ?? "this value"
            throw MovieMakerError.invalidSetting(.time, value: shown,
                                                 expected: "seconds as a number (2.5) or an exact fraction string (\"1001/30000\")")
                .decodingError(at: decoder.codingPath)
        }
        self.init(value: n, timescale: d)
    }

    /// Writes whole seconds as an integer (`3`), other decimal times as an exact decimal number (`2.5`,
    /// `0.001`), and every other time as a fraction string (`"1001/30000"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if timescale == 1 {
            try container.encode(value)
        } else if let text = ExactNumber.decimalString(value, timescale), let decimal = Decimal(string: text) {
            try container.encode(decimal)
        } else {
            try container.encode("\(value)/\(timescale)")
        }
    }
}

package func gcd(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a.magnitude, b.magnitude)
    while b != 0 { (a, b) = (b, a % b) }
    return Int(a)
}

/// Exact fraction arithmetic for times; wider intermediate products avoid overflow in comparisons.
///
/// Sums and products are exact whenever the result fits 64-bit terms, which every frame-grid and
/// decimal time does. A result that does not fit (only contrived input gets there: times whose
/// denominators are large coprime numbers, such as `1/999983s` next to `1/999979s`) is rounded to the
/// nearest fraction that does, instead of trapping on overflow.
package struct Rational: Comparable {
    package var num: Int64
    package var den: Int64
    package init(_ num: Int64, _ den: Int64) {
        var g = Swift.max(gcd64(num.magnitude, den.magnitude), 1)
        if g > UInt64(Int64.max) { g /= 2 }              // both Int64.min
        var n = num / Int64(g), d = den / Int64(g)
        if d < 0 {
            let (nn, o1) = (0 as Int64).subtractingReportingOverflow(n)
            let (dd, o2) = (0 as Int64).subtractingReportingOverflow(d)
            if o1 || o2 { n = nn == .min ? .max : nn; d = dd == .min ? .max : dd } else { n = nn; d = dd }
        }
        self.num = n; self.den = Swift.max(d, 1)
    }
    package init(_ t: Time) { self.init(t.value, t.timescale) }
    package var time: Time { Time(value: num, timescale: den) }
    /// The value as a `Double` (for the rare result that does not fit exactly).
    package var double: Double { Double(num) / Double(den) }
    /// The fraction nearest `x` whose terms fit: the simplest one that reads back as `x`, else nanoseconds.
    package static func approximating(_ x: Double) -> Rational {
        guard x.isFinite else { return Rational(x > 0 ? Int64.max / 2 : -(Int64.max / 2), 1) }
        let limit = Double(Int64.max / 2)
        if abs(x) >= limit / 1e9 { return Rational(Int64(Swift.max(-limit, Swift.min(limit, x.rounded()))), 1) }
        if let t = Time.simplestFraction(of: x) { return Rational(t) }
        return Rational(Int64((x * 1e9).rounded()), 1_000_000_000)
    }
    package static func + (a: Rational, b: Rational) -> Rational {
        let g = Int64(gcd64(a.den.magnitude, b.den.magnitude))
        let (l, o1) = (a.den / g).multipliedReportingOverflow(by: b.den)
        if !o1 {
            let (x, o2) = a.num.multipliedReportingOverflow(by: l / a.den)
            let (y, o3) = b.num.multipliedReportingOverflow(by: l / b.den)
            let (sum, o4) = x.addingReportingOverflow(y)
            if !(o2 || o3 || o4) { return Rational(sum, l) }
        }
        return approximating(a.double + b.double)
    }
    package static func - (a: Rational, b: Rational) -> Rational {
        guard b.num != .min else { return approximating(a.double - b.double) }
        return a + Rational(-b.num, b.den)
    }
    package static func * (a: Rational, b: Rational) -> Rational {
        let g1 = Swift.max(Int64(gcd64(a.num.magnitude, b.den.magnitude) & UInt64(Int64.max)), 1)
        let g2 = Swift.max(Int64(gcd64(b.num.magnitude, a.den.magnitude) & UInt64(Int64.max)), 1)
        let (n, o1) = (a.num / g1).multipliedReportingOverflow(by: b.num / g2)
        let (d, o2) = (a.den / g2).multipliedReportingOverflow(by: b.den / g1)
        if !(o1 || o2) { return Rational(n, d) }
        return approximating(a.double * b.double)
    }
    package static func < (a: Rational, b: Rational) -> Bool {
        let l = a.num.multipliedFullWidth(by: b.den)
        let r = b.num.multipliedFullWidth(by: a.den)
        return (l.high, l.low) < (r.high, r.low)
    }
    package var floor: Int64 {
        let q = num / den
        return num % den != 0 && num < 0 ? q - 1 : q
    }
    package var ceil: Int64 {
        let q = num / den
        return num % den != 0 && num > 0 ? q + 1 : q
    }
}

/// The greatest common divisor of two magnitudes (0 when both are 0).
package func gcd64(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
}

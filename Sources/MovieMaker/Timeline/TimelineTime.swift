import Foundation

extension Timeline {
    /// A time or duration in a description file: exact seconds, or a whole number of frames at the
    /// movie's rate.
    ///
    /// Written as a string with a unit — `"1.5s"`, `"20ms"`, `"1001/30000s"`, `"90f"` (frames at the
    /// output rate) — or as a plain number of seconds (`2.5`). Every form is read from its decimal
    /// digits, never through a `Double`, so `0.1` is exactly 1/10 s and `"1001/30000s"` exactly one
    /// NTSC frame. The canonical form, which `Timeline`'s encoder writes, is `"<decimal>s"` when the
    /// time has a finite decimal expansion, `"<p>/<q>s"` otherwise, and `"<n>f"` for frames.
    public enum TimeValue: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
        /// An exact number of seconds.
        case seconds(Time)
        /// A whole number of frames at the movie's frame rate (`output.fps`).
        case frames(Int64)

        /// The longest time a description may name, 24 hours: longer ones are refused (a typo such as
        /// `"90000s"` for `"90s"` should not start a render of days).
        package static let maximum = Time(value: 86_400, timescale: 1)
        /// The finest time a description may name: a billionth of a second (a fraction's denominator of
        /// at most 10⁹). Decimals to nine places, NTSC fractions and frames are all coarser.
        package static let finestTimescale: Int64 = 1_000_000_000

        /// Whole seconds.
        public init(integerLiteral value: Int) { self = .seconds(Time(value: Int64(value), timescale: 1)) }
        /// Seconds from a literal such as `2.5` (the simplest fraction that reads back as the literal).
        public init(floatLiteral value: Double) { self = .seconds(Time(roundTripping: value)) }

        /// The time at `rate` (frames become `frames × rate.frameDuration`).
        public func time(at rate: FrameRate) -> Time {
            switch self {
            case let .seconds(t): return t
            case let .frames(n): return Time(value: n * Int64(rate.denominator), timescale: Int64(rate.numerator))
            }
        }

        /// Whether the time is below zero.
        package var isNegative: Bool {
            switch self {
            case let .seconds(t): return t < .zero
            case let .frames(n): return n < 0
            }
        }

        /// Whether the time is exactly zero.
        package var isZero: Bool {
            switch self {
            case let .seconds(t): return t == .zero
            case let .frames(n): return n == 0
            }
        }

        /// The canonical text: `"1.5s"`, `"1001/30000s"`, `"90f"`.
        public var description: String {
            switch self {
            case let .frames(n): return "\(n)f"
            case let .seconds(t):
                if let decimal = ExactNumber.decimalString(t.value, t.timescale) { return decimal + "s" }
                return "\(t.value)/\(t.timescale)s"
            }
        }

        /// Reads `"1.5s"`, `"20ms"`, `"1001/30000s"`, `"90f"` (white space around the number is allowed);
        /// nil for anything else, or a time beyond `maximum` either way.
        package init?(text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let clock = Self.hoursAndMinutes(trimmed) {
                self = .seconds(clock)
            } else if trimmed.hasSuffix("ms") {
                guard let (n, d) = ExactNumber.parse(String(trimmed.dropLast(2))),
                      let (dd, o) = Optional(d.multipliedReportingOverflow(by: 1000)), !o else { return nil }
                guard let r = ExactNumber.reduced(n, dd) else { return nil }
                self = .seconds(Time(value: r.numerator, timescale: r.denominator))
            } else if trimmed.hasSuffix("s") {
                guard let (n, d) = ExactNumber.parse(String(trimmed.dropLast())) else { return nil }
                self = .seconds(Time(value: n, timescale: d))
            } else if trimmed.hasSuffix("f") {
                let digits = trimmed.dropLast().trimmingCharacters(in: .whitespaces)
                guard let n = Int64(digits), digits.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "+" }) else { return nil }
                self = .frames(n)
            } else {
                return nil
            }
            guard isWithinLimit else { return nil }
        }

        /// `"1h"`, `"2m"`, `"1m20s"`, `"1h2m3.5s"`: whole hours and minutes, then exact seconds; nil for
        /// any other text (a plain `"20s"` or `"20ms"` has neither an `h` nor a minutes' `m`).
        static func hoursAndMinutes(_ text: String) -> Time? {
            guard !text.hasSuffix("ms"), text.contains("h") || text.contains("m") else { return nil }
            var rest = Substring(text), total = Time.zero
            for (unit, seconds) in [("h", Int64(3600)), ("m", Int64(60))] {
                guard let i = rest.firstIndex(of: Character(unit)) else { continue }
                guard let n = Int64(rest[..<i]), n >= 0, rest[..<i].allSatisfy(\.isNumber), n <= 86_400 else { return nil }
                total = total + Time(value: n * seconds, timescale: 1)
                rest = rest[rest.index(after: i)...]
            }
            if !rest.isEmpty {
                guard rest.hasSuffix("s"), rest.first?.isNumber == true || rest.first == ".",
                      let (n, d) = ExactNumber.parse(String(rest.dropLast())), n >= 0 else { return nil }
                total = total + Time(value: n, timescale: d)
            }
            return total
        }

        /// Reads a plain JSON number of seconds, from its text (`"2.5"`, `"3"`, `"1e-3"`); nil when it is
        /// not one or is beyond `maximum`.
        package init?(secondsText text: String) {
            guard let (n, d) = ExactNumber.parse(text), !text.contains("/") else { return nil }
            self = .seconds(Time(value: n, timescale: d))
            guard isWithinLimit else { return nil }
        }

        /// Whether the time is within ±`maximum` (frames counted at the fastest rate a movie may have, 240).
        var isWithinLimit: Bool {
            switch self {
            case let .seconds(t): return !(Rational(t) < Rational(-86_400, 1)) && !(Rational(86_400, 1) < Rational(t))
            case let .frames(n): return n.magnitude <= 86_400 * 240
            }
        }
    }
}

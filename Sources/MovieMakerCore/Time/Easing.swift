import Foundation

/// A timing curve: maps animation progress 0…1 to eased progress (0 at the start, 1 at the end).
///
/// The input is clamped to 0…1; the output may leave 0…1 for curves that overshoot (back, elastic,
/// spring). Build one from the static members (`.easeInOut`, `.quadOut`, `.cubicBezier(…)`,
/// `.steps(4)`, `.spring()`), from a CSS-like name (`try Easing(named: "ease-in-out")`), or from any
/// function (`Easing { t in t * t }`).
///
/// A built-in curve is data: its `name` describes it completely (`Easing(named: e.name)` gives the same
/// curve back), so easings compare, hash and encode (as that name, a JSON string) by name. An easing
/// made from a function cannot be encoded: encoding it throws `MovieMakerError.notEncodable`.
public struct Easing: Sendable, Hashable, CustomStringConvertible {
    /// The curve itself, applied to an input already clamped to 0…1.
    public let function: @Sendable (Double) -> Double
    /// The curve's name, e.g. `quadOut` or `cubic-bezier(0.25, 0.1, 0.25, 1)`; `Easing(named:)` parses
    /// the names of the built-in curves back.
    public let name: String
    /// True for the built-in curves and what the combinators make of them: their name says everything.
    package let isBuiltIn: Bool

    /// An easing from any function of progress 0…1; `function(0)` should be 0 and `function(1)` 1.
    public init(_ function: @escaping @Sendable (Double) -> Double) {
        self.init(name: "custom", function)
    }
    /// A named easing from any function of progress 0…1 (the name is for descriptions and logs).
    public init(name: String, _ function: @escaping @Sendable (Double) -> Double) {
        self.name = name
        self.function = function
        self.isBuiltIn = false
    }
    /// A built-in curve (or one combined from built-ins): `name` must parse back to it.
    package init(builtIn name: String, _ function: @escaping @Sendable (Double) -> Double) {
        self.name = name
        self.function = function
        self.isBuiltIn = true
    }
    /// A curve combined from `parts`: built-in when they all are.
    private init(combining parts: [Easing], name: String, _ function: @escaping @Sendable (Double) -> Double) {
        self.name = name
        self.function = function
        self.isBuiltIn = parts.allSatisfy(\.isBuiltIn)
    }

    /// Two easings are equal when they have the same name and both are built-in curves (whose name
    /// describes them completely) or both are made from functions (compared by name only).
    public static func == (a: Easing, b: Easing) -> Bool { a.name == b.name && a.isBuiltIn == b.isBuiltIn }
    /// Hashes the name and whether the curve is built in.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(isBuiltIn)
    }

    /// The eased progress for `t`, which is first clamped to 0…1 (NaN counts as 0).
    public func callAsFunction(_ t: Double) -> Double {
        function(t.isNaN ? 0 : min(max(t, 0), 1))
    }

    /// The curve's name.
    public var description: String { name }

    // MARK: Basic

    /// Constant speed: the output equals the input.
    public static let linear = Easing(builtIn: "linear") { $0 }
    /// Keeps the start value until the very end, then jumps: 0 for t < 1, 1 at t = 1.
    public static let hold = Easing(builtIn: "hold") { $0 < 1 ? 0 : 1 }

    // MARK: Penner families (formulas as on easings.net)

    /// Sine ease-in: `1 − cos(tπ/2)`.
    public static let sineIn = Easing(builtIn: "sineIn") { 1 - cos($0 * .pi / 2) }
    /// Sine ease-out: `sin(tπ/2)`.
    public static let sineOut = Easing(builtIn: "sineOut") { sin($0 * .pi / 2) }
    /// Sine ease-in-out: `(1 − cos(tπ)) / 2`.
    public static let sineInOut = Easing(builtIn: "sineInOut") { -(cos(.pi * $0) - 1) / 2 }

    /// Quadratic ease-in: `t²`.
    public static let quadIn = power("quad", 2).in
    /// Quadratic ease-out: `1 − (1 − t)²`.
    public static let quadOut = power("quad", 2).out
    /// Quadratic ease-in-out.
    public static let quadInOut = power("quad", 2).inOut
    /// Cubic ease-in: `t³`.
    public static let cubicIn = power("cubic", 3).in
    /// Cubic ease-out: `1 − (1 − t)³`.
    public static let cubicOut = power("cubic", 3).out
    /// Cubic ease-in-out.
    public static let cubicInOut = power("cubic", 3).inOut
    /// Quartic ease-in: `t⁴`.
    public static let quartIn = power("quart", 4).in
    /// Quartic ease-out: `1 − (1 − t)⁴`.
    public static let quartOut = power("quart", 4).out
    /// Quartic ease-in-out.
    public static let quartInOut = power("quart", 4).inOut
    /// Quintic ease-in: `t⁵`.
    public static let quintIn = power("quint", 5).in
    /// Quintic ease-out: `1 − (1 − t)⁵`.
    public static let quintOut = power("quint", 5).out
    /// Quintic ease-in-out.
    public static let quintInOut = power("quint", 5).inOut

    /// The in, out and in-out curves of `t^exponent`.
    private static func power(_ family: String, _ n: Double) -> (in: Easing, out: Easing, inOut: Easing) {
        (Easing(builtIn: family + "In") { pow($0, n) },
         Easing(builtIn: family + "Out") { 1 - pow(1 - $0, n) },
         Easing(builtIn: family + "InOut") { t in t < 0.5 ? pow(2, n - 1) * pow(t, n) : 1 - pow(-2 * t + 2, n) / 2 })
    }

    /// Exponential ease-in: `2^(10t − 10)`, exactly 0 at t = 0.
    public static let expoIn = Easing(builtIn: "expoIn") { $0 == 0 ? 0 : pow(2, 10 * $0 - 10) }
    /// Exponential ease-out: `1 − 2^(−10t)`, exactly 1 at t = 1.
    public static let expoOut = Easing(builtIn: "expoOut") { $0 == 1 ? 1 : 1 - pow(2, -10 * $0) }
    /// Exponential ease-in-out.
    public static let expoInOut = Easing(builtIn: "expoInOut") { t in
        if t == 0 { return 0 }
        if t == 1 { return 1 }
        return t < 0.5 ? pow(2, 20 * t - 10) / 2 : (2 - pow(2, -20 * t + 10)) / 2
    }

    /// Circular ease-in: `1 − √(1 − t²)`.
    public static let circIn = Easing(builtIn: "circIn") { 1 - (1 - $0 * $0).squareRoot() }
    /// Circular ease-out: `√(1 − (t − 1)²)`.
    public static let circOut = Easing(builtIn: "circOut") { (1 - ($0 - 1) * ($0 - 1)).squareRoot() }
    /// Circular ease-in-out.
    public static let circInOut = Easing(builtIn: "circInOut") { t in
        t < 0.5 ? (1 - (1 - 4 * t * t).squareRoot()) / 2
                : ((1 - (-2 * t + 2) * (-2 * t + 2)).squareRoot() + 1) / 2
    }

    /// Penner's overshoot constant for the back curves (10 % overshoot).
    private static let backC1 = 1.70158
    /// Back ease-in: pulls back below 0 (to about −0.1) before going to 1.
    public static let backIn = Easing(builtIn: "backIn") { t in (backC1 + 1) * t * t * t - backC1 * t * t }
    /// Back ease-out: overshoots above 1 (to about 1.1) and settles back.
    public static let backOut = Easing(builtIn: "backOut") { t in
        let u = t - 1
        return 1 + (backC1 + 1) * u * u * u + backC1 * u * u
    }
    /// Back ease-in-out: pulls back below 0 and overshoots above 1.
    public static let backInOut = Easing(builtIn: "backInOut") { t in
        let c2 = backC1 * 1.525
        return t < 0.5 ? (pow(2 * t, 2) * ((c2 + 1) * 2 * t - c2)) / 2
                       : (pow(2 * t - 2, 2) * ((c2 + 1) * (t * 2 - 2) + c2) + 2) / 2
    }

    /// Elastic ease-in: a growing oscillation that ends at 1.
    public static let elasticIn = Easing(builtIn: "elasticIn") { t in
        if t == 0 || t == 1 { return t }
        return -pow(2, 10 * t - 10) * sin((t * 10 - 10.75) * (2 * .pi / 3))
    }
    /// Elastic ease-out: shoots past 1 and rings down to it.
    public static let elasticOut = Easing(builtIn: "elasticOut") { t in
        if t == 0 || t == 1 { return t }
        return pow(2, -10 * t) * sin((t * 10 - 0.75) * (2 * .pi / 3)) + 1
    }
    /// Elastic ease-in-out.
    public static let elasticInOut = Easing(builtIn: "elasticInOut") { t in
        if t == 0 || t == 1 { return t }
        let c5 = 2 * Double.pi / 4.5
        return t < 0.5 ? -(pow(2, 20 * t - 10) * sin((20 * t - 11.125) * c5)) / 2
                       : (pow(2, -20 * t + 10) * sin((20 * t - 11.125) * c5)) / 2 + 1
    }

    /// Penner's bounce-out: parabolic bounces of decreasing height on the end value.
    private static func bounce(_ x: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 { let u = x - 1.5 / d1; return n1 * u * u + 0.75 }
        if x < 2.5 / d1 { let u = x - 2.25 / d1; return n1 * u * u + 0.9375 }
        let u = x - 2.625 / d1
        return n1 * u * u + 0.984375
    }
    /// Bounce ease-in: bounces on the start value, then leaves it.
    public static let bounceIn = Easing(builtIn: "bounceIn") { 1 - bounce(1 - $0) }
    /// Bounce ease-out: falls onto the end value and bounces on it.
    public static let bounceOut = Easing(builtIn: "bounceOut") { bounce($0) }
    /// Bounce ease-in-out.
    public static let bounceInOut = Easing(builtIn: "bounceInOut") { t in
        t < 0.5 ? (1 - bounce(1 - 2 * t)) / 2 : (1 + bounce(2 * t - 1)) / 2
    }

    // MARK: CSS

    /// CSS `cubic-bezier(x1, y1, x2, y2)`: the curve from (0, 0) to (1, 1) with control points (x1, y1)
    /// and (x2, y2), solved for x like browsers do (WebKit's UnitBezier: Newton–Raphson, then
    /// bisection, to 1e-7). `x1` and `x2` must lie in 0…1 (CSS rejects others); they are clamped here.
    public static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Easing {
        let cx1 = min(max(x1, 0), 1), cx2 = min(max(x2, 0), 1)
        let bezier = UnitBezier(x1: cx1, y1: y1, x2: cx2, y2: y2)
        return Easing(builtIn: "cubic-bezier(\(number(cx1)), \(number(y1)), \(number(cx2)), \(number(y2)))") { t in
            // Exact at the ends, whatever the solver's last bit says.
            if t == 0 { return 0 }
            if t == 1 { return 1 }
            return bezier.solve(t, epsilon: 1e-7)
        }
    }

    /// CSS `ease`: `cubic-bezier(0.25, 0.1, 0.25, 1)`, the browser default.
    public static let ease = named(cubicBezier(0.25, 0.1, 0.25, 1), "ease")
    /// CSS `ease-in`: `cubic-bezier(0.42, 0, 1, 1)`.
    public static let easeIn = named(cubicBezier(0.42, 0, 1, 1), "ease-in")
    /// CSS `ease-out`: `cubic-bezier(0, 0, 0.58, 1)`.
    public static let easeOut = named(cubicBezier(0, 0, 0.58, 1), "ease-out")
    /// CSS `ease-in-out`: `cubic-bezier(0.42, 0, 0.58, 1)`.
    public static let easeInOut = named(cubicBezier(0.42, 0, 0.58, 1), "ease-in-out")

    /// `easing` under another name.
    private static func named(_ easing: Easing, _ name: String) -> Easing { Easing(builtIn: name, easing.function) }

    /// Where the jumps of a `steps` easing fall, as in CSS.
    public enum StepPosition: String, Sendable, CaseIterable {
        /// The first jump happens at the start: the output is never 0 (CSS `jump-start`, `start`).
        case jumpStart = "jump-start"
        /// The last jump happens at the end: the output reaches 1 only at t = 1 (CSS `jump-end`, `end`).
        case jumpEnd = "jump-end"
        /// No jump at either end: `n` levels from 0 to 1 inclusive (CSS `jump-none`).
        case jumpNone = "jump-none"
        /// Jumps at both ends: `n + 1` jumps, never 0 nor 1 inside (CSS `jump-both`).
        case jumpBoth = "jump-both"
    }

    /// CSS `steps(n, position)`: `n` equal steps. `n` below the minimum (1, or 2 for `.jumpNone`) is raised
    /// to it. For progress t the output is `floor(t·n)` (+1 for jump-start/both) divided by the number of
    /// jumps, kept within 0…1, exactly as the CSS Easing Functions spec computes it.
    public static func steps(_ n: Int, position: StepPosition = .jumpEnd) -> Easing {
        let steps = max(n, position == .jumpNone ? 2 : 1)
        let jumps: Int
        switch position {
        case .jumpStart, .jumpEnd: jumps = steps
        case .jumpNone: jumps = steps - 1
        case .jumpBoth: jumps = steps + 1
        }
        let suffix = position == .jumpEnd ? "" : ", \(position.rawValue)"
        return Easing(builtIn: "steps(\(steps)\(suffix))") { t in
            var step = Int((t * Double(steps)).rounded(.down))
            if position == .jumpStart || position == .jumpBoth { step += 1 }
            step = min(max(step, 0), jumps)
            return Double(step) / Double(jumps)
        }
    }

    // MARK: Spring

    /// A damped spring pulling from 0 to 1, stretched over the whole animation.
    ///
    /// The spring's exact solution (under-, critically or over-damped) is evaluated at
    /// `t × settleTime`, where settleTime is the time after which it stays within 0.1 % of 1; the last
    /// instant (t = 1) lands exactly on 1. `initialVelocity` is in units (the whole 0→1 distance) per
    /// second of spring time. Each parameter is raised to a small positive minimum (damping so the
    /// damping ratio is at least 0.001, which still settles). E.g. `spring(stiffness: 100, damping: 10)`
    /// has damping ratio 0.5 and overshoots by 16 %.
    public static func spring(mass: Double = 1, stiffness: Double, damping: Double,
                              initialVelocity: Double = 0) -> Easing {
        let spring = DampedSpring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
        let settle = spring.settleTime(tolerance: 0.001)
        return Easing(builtIn: "spring(\(number(spring.mass)), \(number(spring.stiffness)), \(number(spring.damping)), \(number(spring.initialVelocity)))") { t in
            t >= 1 ? 1 : 1 + spring.displacement(at: t * settle)
        }
    }

    /// A spring described like SwiftUI's: `response` is the period of the undamped oscillation in seconds,
    /// `dampingFraction` the damping ratio (below 1 overshoots, 1 is critical, above 1 creeps).
    /// Because the curve is stretched over the animation's duration, `response` changes the shape only
    /// through `initialVelocity` (units per second). `spring()` (0.55 s, 0.825) overshoots by about 1 %.
    public static func spring(response: Double = 0.55, dampingFraction: Double = 0.825,
                              initialVelocity: Double = 0) -> Easing {
        let r = max(response, 1e-6)
        return spring(mass: 1, stiffness: pow(2 * .pi / r, 2), damping: 4 * .pi * max(dampingFraction, 0) / r,
                      initialVelocity: initialVelocity)
    }

    // MARK: Combinators

    /// The curve played backwards in time and value: `t ↦ 1 − f(1 − t)` (ease-in becomes ease-out).
    public var reversed: Easing {
        let f = function
        return Easing(combining: [self], name: "\(name).reversed") { 1 - f(1 - $0) }
    }

    /// There and back: `f(2t)` for the first half, `f(2 − 2t)` for the second, so 0 → 1 → 0.
    public var mirrored: Easing {
        let f = function
        return Easing(combining: [self], name: "\(name).mirrored") { t in t <= 0.5 ? f(2 * t) : f(2 - 2 * t) }
    }

    /// The curve run within `range` of the animation: `f(0)` before its lower bound, `f(1)` after its
    /// upper bound, `f` rescaled in between (a zero-length range jumps there).
    public func squished(into range: ClosedRange<Double>) -> Easing {
        let f = function
        let lo = range.lowerBound, hi = range.upperBound
        return Easing(combining: [self], name: "\(name).squished(into: \(number(lo))…\(number(hi)))") { t in
            if t < lo { return f(0) }
            if t >= hi { return f(1) }
            return f((t - lo) / (hi - lo))
        }
    }

    /// This curve, then `next`, end to end: self runs over `0…split` of the time and output, `next`
    /// over the rest (`split` is clamped to 0…1). Named `a.then(b)`, or `a.then(b, at: split)` when
    /// `split` is not 0.5. Named `a.then(b)`, or `a.then(b, at: split)` when
    /// `split` is not 0.5.
    public func then(_ next: Easing, at split: Double = 0.5) -> Easing {
        let f = function, g = next.function
        let s = min(max(split, 0), 1)
        let at = s == 0.5 ? "" : ", at: \(number(s))"
        return Easing(combining: [self, next], name: "\(name).then(\(next.name)\(at))") { t in
            if s > 0, t < s { return s * f(t / s) }
            if s >= 1 { return f(1) }
            return s + (1 - s) * g((t - s) / (1 - s))
        }
    }

    // MARK: Names

    /// The most steps `steps(n)` may have when read by name (far more than any animation has frames).
    package static let maximumSteps = 1_000_000

    /// The Penner family names, combined with `In`, `Out` and `InOut`.
    private static let families = ["sine", "quad", "cubic", "quart", "quint", "expo", "circ", "back", "elastic", "bounce"]

    /// Every built-in curve reachable by a plain name (parameterised ones such as `cubic-bezier(…)`,
    /// `steps(n)` and `spring(…)` are parsed too, but not listed).
    package static let allNames: [String] =
        ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end", "hold", "spring"]
        + families.flatMap { f in ["In", "Out", "InOut"].map { f + $0 } }

    /// Other spellings the reader takes for the same curves, for the JSON Schema's list (so editors
    /// accept what the tool reads): the CSS keywords in camel case (`easeOut`, the charts' documented
    /// default) and the easings.net names (`easeOutQuad`).
    package static let alternativeNames: [String] =
        ["easeIn", "easeOut", "easeInOut", "stepStart", "stepEnd"]
        + families.flatMap { f in ["In", "Out", "InOut"].map { "ease" + $0 + f.prefix(1).uppercased() + f.dropFirst() } }

    /// The curve with a plain name, keyed by its normalised form.
    private static let byName: [String: Easing] = {
        let all: [Easing] = [
            .linear, .ease, .easeIn, .easeOut, .easeInOut, .hold,
            named(steps(1, position: .jumpStart), "step-start"), named(steps(1), "step-end"),
            named(spring(), "spring"),
            .sineIn, .sineOut, .sineInOut, .quadIn, .quadOut, .quadInOut, .cubicIn, .cubicOut, .cubicInOut,
            .quartIn, .quartOut, .quartInOut, .quintIn, .quintOut, .quintInOut, .expoIn, .expoOut, .expoInOut,
            .circIn, .circOut, .circInOut, .backIn, .backOut, .backInOut,
            .elasticIn, .elasticOut, .elasticInOut, .bounceIn, .bounceOut, .bounceInOut,
        ]
        var table: [String: Easing] = [:]
        for e in all { table[normalized(e.name)] = e }
        // easings.net spelling: easeInQuad, easeOutBounce…
        for f in families {
            for kind in ["in", "out", "inout"] { table["ease" + kind + f] = table[f + kind] }
        }
        return table
    }()

    /// Lower case without hyphens, underscores or spaces: `ease-in-out`, `easeInOut` and `EASE_IN_OUT` meet.
    private static func normalized(_ s: String) -> String {
        String(s.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }

    /// Parses a curve by name: CSS keywords (`ease-in-out`, `linear`, `step-end`), `cubic-bezier(x1, y1,
    /// x2, y2)`, `steps(n[, jump-start|jump-end|jump-none|jump-both|start|end])`, Penner names (`quadOut`,
    /// `quad-out`, `easeOutQuad`), `hold`, `spring` or `spring(mass, stiffness, damping[, velocity])`,
    /// each optionally followed by modifiers as the combinators name them: `.reversed`, `.mirrored`,
    /// `.squished(into: 0.2…0.8)` (or `...`), `.then(other curve)` or `.then(other curve, at: 0.3)`.
    /// Case, hyphens and underscores in plain names do not matter.
    public init(named text: String) throws(MovieMakerError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        func fail(_ why: String) -> MovieMakerError {
            .invalidSetting(.easing, value: "\"\(text)\"", expected: why)
        }
        // The curve, then its modifiers: split at the dots outside parentheses (numbers' points are inside).
        let parts = Easing.split(Substring(trimmed), at: ".") ?? [Substring(trimmed)]
        var easing = try Easing.plainCurve(parts[0].trimmingCharacters(in: .whitespaces), fail: fail)
        for modifier in parts.dropFirst() {
            easing = try easing.modified(by: modifier, fail: fail)
        }
        self = easing
    }

    /// `text` split at `separator` where it is outside parentheses; nil when the parentheses do not balance.
    private static func split(_ text: Substring, at separator: Character) -> [Substring]? {
        var parts: [Substring] = [], depth = 0, start = text.startIndex
        for i in text.indices {
            switch text[i] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth < 0 { return nil }
            case separator where depth == 0:
                parts.append(text[start..<i])
                start = text.index(after: i)
            default: break
            }
        }
        guard depth == 0 else { return nil }
        parts.append(text[start...])
        return parts
    }

    /// A curve without modifiers: a plain name or `cubic-bezier(…)`, `steps(…)`, `spring(…)`.
    private static func plainCurve(_ trimmed: String, fail: (String) -> MovieMakerError) throws(MovieMakerError) -> Easing {
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            let function = Easing.normalized(String(trimmed[..<open]))
            let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            let args = inside.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            switch function {
            case "cubicbezier":
                let v = args.compactMap { Double($0) }.filter(\.isFinite)
                guard args.count == 4, v.count == 4 else {
                    throw fail("cubic-bezier(x1, y1, x2, y2) with four numbers, e.g. cubic-bezier(0.25, 0.1, 0.25, 1)")
                }
                guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                    throw fail("x1 and x2 of cubic-bezier between 0 and 1 (y1 and y2 may be anything)")
                }
                return .cubicBezier(v[0], v[1], v[2], v[3])
            case "steps":
                let usage = "steps(n) or steps(n, jump-start|jump-end|jump-none|jump-both|start|end) with a whole n from 1 (2 for jump-none) to \(Easing.maximumSteps)"
                guard (1...2).contains(args.count), let n = Int(args[0]) else { throw fail(usage) }
                var position = StepPosition.jumpEnd
                if args.count == 2 {
                    switch args[1].lowercased() {
                    case "start": position = .jumpStart
                    case "end": position = .jumpEnd
                    case let p: guard let q = StepPosition(rawValue: p) else { throw fail(usage) }; position = q
                    }
                }
                // Bounded: n near Int.max overflows `steps + 1` (jump-both) and `Int(t × n)` when drawn.
                guard n >= (position == .jumpNone ? 2 : 1), n <= Easing.maximumSteps else { throw fail(usage) }
                return .steps(n, position: position)
            case "spring":
                let v = args.compactMap { Double($0) }.filter(\.isFinite)
                guard (3...4).contains(args.count), v.count == args.count, v[0] > 0, v[1] > 0, v[2] > 0 else {
                    throw fail("spring(mass, stiffness, damping[, initial velocity]) with positive mass, stiffness and damping, e.g. spring(1, 100, 10)")
                }
                return .spring(mass: v[0], stiffness: v[1], damping: v[2], initialVelocity: v.count == 4 ? v[3] : 0)
            default:
                throw fail("cubic-bezier(…), steps(…) or spring(…), or one of \(Easing.allNames.joined(separator: ", "))")
            }
        }
        guard let e = Easing.byName[Easing.normalized(trimmed)] else {
            throw fail("one of \(Easing.allNames.joined(separator: ", ")), or cubic-bezier(x1, y1, x2, y2), steps(n[, position]) or spring(mass, stiffness, damping)")
        }
        return e
    }

    /// This curve with one modifier applied: `reversed`, `mirrored`, `squished(into: a…b)` or
    /// `then(curve[, at: split])` (the text after a dot).
    private func modified(by text: Substring, fail: (String) -> MovieMakerError) throws(MovieMakerError) -> Easing {
        let modifier = text.trimmingCharacters(in: .whitespaces)
        let usage = ".reversed, .mirrored, .squished(into: a…b) or .then(curve[, at: split]) after a curve, e.g. quadIn.reversed"
        switch Easing.normalized(modifier) {
        case "reversed": return reversed
        case "mirrored": return mirrored
        default: break
        }
        guard let open = modifier.firstIndex(of: "("), modifier.hasSuffix(")") else { throw fail(usage) }
        let function = Easing.normalized(String(modifier[..<open]))
        var inside = modifier[modifier.index(after: open)..<modifier.index(before: modifier.endIndex)]
            .trimmingCharacters(in: .whitespaces)
        switch function {
        case "squished":
            if inside.hasPrefix("into:") { inside = String(inside.dropFirst(5)) }
            let bounds = inside.replacingOccurrences(of: "...", with: "…").split(separator: "…", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard bounds.count == 2, let lo = Double(bounds[0]), let hi = Double(bounds[1]),
                  lo.isFinite, hi.isFinite, lo <= hi else {
                throw fail("squished(into: a…b) with two numbers a ≤ b, e.g. quadIn.squished(into: 0.2…0.8)")
            }
            return squished(into: lo...hi)
        case "then":
            // The split point is the last `at:` argument outside the inner curve's parentheses.
            let arguments = Easing.split(Substring(inside), at: ",") ?? [Substring(inside)]
            var split = 0.5, curve = Substring(inside)
            if arguments.count > 1, let last = arguments.last {
                let label = last.trimmingCharacters(in: .whitespaces)
                if label.hasPrefix("at:") {
                    guard let value = Double(label.dropFirst(3).trimmingCharacters(in: .whitespaces)), value.isFinite else {
                        throw fail("then(curve, at: split) with a number split between 0 and 1, e.g. quadIn.then(quadOut, at: 0.3)")
                    }
                    split = value
                    curve = inside[inside.startIndex..<last.startIndex].dropLast()   // without the comma
                }
            }
            return then(try Easing(named: String(curve)), at: split)
        default:
            throw fail(usage)
        }
    }
}

extension Easing: Codable {
    /// Reads a curve from its name, a JSON string: anything `Easing(named:)` parses, e.g. `"ease-in-out"`,
    /// `"cubic-bezier(0.2, 0, 0, 1)"` or `"quadIn.then(bounceOut, at: 0.4)"`.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = try decodingErrors(at: decoder.codingPath) { try Easing(named: name) }
    }

    /// Writes the curve's name. Throws `MovieMakerError.notEncodable` for an easing made from a function
    /// (its name does not say what the function does) or whose parameters are not finite numbers.
    public func encode(to encoder: any Encoder) throws {
        guard isBuiltIn else {
            throw MovieMakerError.notEncodable(
                what: "the easing \"\(name)\"",
                reason: "it is made from a function; only built-in curves (\(Easing.allNames.prefix(5).joined(separator: ", "))…, cubic-bezier(…), steps(…), spring(…)) and their .reversed, .mirrored, .squished(into:) and .then(…) can be written, by name")
        }
        guard let parsed = try? Easing(named: name), parsed == self else {
            throw MovieMakerError.notEncodable(what: "the easing \"\(name)\"", reason: "its parameters are not all finite numbers, so its name does not read back")
        }
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// `0.25` for 0.25, `1` for 1.0: short numbers for curve names.
private func number(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
}

extension Easing {
    /// WebKit's UnitBezier: a cubic Bézier from (0, 0) to (1, 1), solved for the parameter giving a given x.
    package struct UnitBezier: Sendable {
        package let ax, bx, cx, ay, by, cy: Double

        package init(x1: Double, y1: Double, x2: Double, y2: Double) {
            cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
            cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
        }
        /// x at parameter t.
        package func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
        /// y at parameter t.
        package func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
        /// dx/dt at parameter t.
        package func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

        /// The parameter t whose x is `x`, to within `epsilon`: eight Newton steps, then bisection.
        package func solveX(_ x: Double, epsilon: Double) -> Double {
            var t = x
            for _ in 0..<8 {
                let error = sampleX(t) - x
                if abs(error) < epsilon { return t }
                let d = sampleDerivativeX(t)
                if abs(d) < 1e-6 { break }
                t -= error / d
            }
            var lo = 0.0, hi = 1.0
            t = x
            if t < lo { return lo }
            if t > hi { return hi }
            while lo < hi {
                let value = sampleX(t)
                if abs(value - x) < epsilon { return t }
                if x > value { lo = t } else { hi = t }
                t = (hi - lo) * 0.5 + lo
            }
            return t
        }
        /// y for the given x.
        package func solve(_ x: Double, epsilon: Double) -> Double { sampleY(solveX(x, epsilon: epsilon)) }
    }

    /// A mass on a damped spring, displaced by −1 from its rest position with an initial velocity.
    package struct DampedSpring: Sendable {
        package let mass, stiffness, damping, initialVelocity: Double
        /// Undamped angular frequency √(k/m).
        package let omega0: Double
        /// Damping ratio c / (2√(km)).
        package let zeta: Double

        package init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
            let m = mass.isFinite ? max(mass, 1e-6) : 1
            let k = stiffness.isFinite ? max(stiffness, 1e-6) : 100
            let minimumDamping = 2 * 0.001 * (k * m).squareRoot()
            self.mass = m; self.stiffness = k
            self.damping = damping.isFinite ? max(damping, minimumDamping) : minimumDamping
            self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
            omega0 = (k / m).squareRoot()
            zeta = self.damping / (2 * (k * m).squareRoot())
        }

        /// Position minus rest position at time `t` (seconds): −1 at t = 0, tending to 0.
        package func displacement(at t: Double) -> Double {
            let x0 = -1.0, v0 = initialVelocity
            if abs(zeta - 1) < 1e-9 {
                return exp(-omega0 * t) * (x0 + (v0 + omega0 * x0) * t)
            }
            if zeta < 1 {
                let wd = omega0 * (1 - zeta * zeta).squareRoot()
                let b = (v0 + zeta * omega0 * x0) / wd
                return exp(-zeta * omega0 * t) * (x0 * cos(wd * t) + b * sin(wd * t))
            }
            let (r1, r2, c1, c2) = overdampedTerms()
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }

        /// Times after t = 0 where |displacement| has a local maximum, in increasing order (lazily; an
        /// underdamped spring has infinitely many).
        private func extrema() -> AnySequence<Double> {
            let x0 = -1.0, v0 = initialVelocity
            if abs(zeta - 1) < 1e-9 {
                // x = e^(−ω₀t)(A + Bt), x' = 0 at t = 1/ω₀ − A/B.
                let b = v0 + omega0 * x0
                guard b != 0 else { return AnySequence([]) }
                let t = 1 / omega0 - x0 / b
                return AnySequence(t > 0 ? [t] : [])
            }
            if zeta < 1 {
                // x = e^(−σt)(A cos ωt + B sin ωt), x' = 0 where tan ωt = (Bω − σA) / (σB + Aω): every π/ω.
                let sigma = zeta * omega0, w = omega0 * (1 - zeta * zeta).squareRoot()
                let b = (v0 + sigma * x0) / w
                let p = b * w - sigma * x0, q = sigma * b + x0 * w
                let base = q == 0 ? Double.pi / 2 : atan(p / q)
                let first = (-base / .pi).rounded(.down)
                return AnySequence(sequence(state: first) { k -> Double? in
                    defer { k += 1 }
                    return (base + k * .pi) / w
                }.lazy.filter { $0 > 0 })
            }
            // x = c₁e^(r₁t) + c₂e^(r₂t), x' = 0 where e^((r₁−r₂)t) = −c₂r₂ / (c₁r₁).
            let (r1, r2, c1, c2) = overdampedTerms()
            let ratio = -c2 * r2 / (c1 * r1)
            guard ratio > 0 else { return AnySequence([]) }
            let t = log(ratio) / (r1 - r2)
            return AnySequence(t > 0 ? [t] : [])
        }

        /// The first time after `s` where the displacement is zero, if there is one.
        private func zero(after s: Double) -> Double? {
            let x0 = -1.0, v0 = initialVelocity
            if abs(zeta - 1) < 1e-9 {
                let b = v0 + omega0 * x0
                guard b != 0 else { return nil }
                let t = -x0 / b
                return t > s ? t : nil
            }
            if zeta < 1 {
                // A cos ωt + B sin ωt = 0 where tan ωt = −A/B: every π/ω.
                let sigma = zeta * omega0, w = omega0 * (1 - zeta * zeta).squareRoot()
                let b = (v0 + sigma * x0) / w
                let base = b == 0 ? Double.pi / 2 : atan(-x0 / b)
                var t = (base + ((w * s - base) / .pi).rounded(.down) * .pi) / w
                while t <= s { t += .pi / w }
                return t
            }
            let (r1, r2, c1, c2) = overdampedTerms()
            // c₁e^(r₁t) + c₂e^(r₂t) = 0 where e^((r₁−r₂)t) = −c₂/c₁.
            let ratio = -c2 / c1
            guard ratio > 0 else { return nil }
            let t = log(ratio) / (r1 - r2)
            return t > s ? t : nil
        }

        /// Exponents (r₁ the slower decay) and coefficients of the overdamped solution.
        private func overdampedTerms() -> (r1: Double, r2: Double, c1: Double, c2: Double) {
            let x0 = -1.0, v0 = initialVelocity
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root), r2 = -omega0 * (zeta + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1)
            return (r1, r2, x0 - c2, c2)
        }

        /// The time after which the spring stays within `tolerance` of rest.
        ///
        /// Between a local maximum of |x| and the next zero, |x| only falls, and the maxima of a damped
        /// spring only shrink. So: take the last maximum still above the tolerance (or t = 0, where |x| = 1),
        /// and bisect for the crossing between it and the next zero (or, with no zero, a point found by
        /// doubling where |x| is within the tolerance).
        package func settleTime(tolerance: Double) -> Double {
            var start = 0.0
            for t in extrema() {
                guard abs(displacement(at: t)) > tolerance else { break }
                start = t
            }
            var end: Double
            if let z = zero(after: start) {
                end = z
            } else {
                end = max(start, 1 / omega0)
                while abs(displacement(at: end)) > tolerance { end *= 2 }
            }
            var lo = start, hi = end
            for _ in 0..<200 where lo < hi {
                let mid = (lo + hi) / 2
                if mid <= lo || mid >= hi { break }
                if abs(displacement(at: mid)) > tolerance { lo = mid } else { hi = mid }
            }
            return hi
        }
    }
}

import Foundation

/// Start times for a row of items animating one after another (letters, words, lines, tiles): each item
/// runs the same `duration`-long animation, starting `delay` seconds after the previous one in `order`.
///
/// <!-- prelude: let letters = Array("Hello"); let i = 0; struct Now { var time = 0.5 }; let frame = Now() -->
/// ```swift
/// let s = Stagger(count: letters.count, delay: 0.05, duration: 0.4, order: .fromCenter, easing: .backOut)
/// let p = s.progress(ofItem: i, at: frame.time)   // 0 … 1 (may overshoot with back/elastic/spring)
/// ```
public struct Stagger: Sendable, Hashable {
    /// The order in which items start: `"forward"`, `"reverse"`, `"fromCenter"`, `"fromEdges"` or
    /// `{"type": "random", "seed": 7}` as data.
    public enum Order: Sendable, Hashable {
        /// First item first.
        case forward
        /// Last item first.
        case reverse
        /// The middle item (or the middle two) first, spreading outwards; items equally far from the
        /// centre start together.
        case fromCenter
        /// Both ends first, closing in on the middle.
        case fromEdges
        /// A shuffled order, the same every time for the same seed and count (SplitMix64, Fisher–Yates).
        case random(seed: UInt64)
    }

    /// How many items there are.
    public let count: Int
    /// The time between the starts of consecutive ranks, exactly (`delay` in seconds).
    public let exactDelay: Time
    /// How long each item's animation lasts, exactly (`duration` in seconds).
    public let exactDuration: Time
    /// The order in which items start.
    public let order: Order
    /// The easing applied to each item's progress.
    public let easing: Easing
    /// The start rank of each item: item i starts at `ranks[i] × delay`.
    private let ranks: [Int]

    /// Seconds between the starts of consecutive ranks.
    public var delay: Double { exactDelay.seconds }
    /// Seconds each item's animation lasts.
    public var duration: Double { exactDuration.seconds }

    /// Items that start `delay` apart in `order`, each animating for `duration` with `easing`. `count`,
    /// `delay` and `duration` must not be negative.
    @_disfavoredOverload
    public init(count: Int, delay: Time, duration: Time, order: Order = .forward, easing: Easing = .linear) {
        precondition(count >= 0, "stagger count must be 0 or more, got \(count)")
        precondition(delay >= .zero, "stagger delay must be 0 or more seconds, got \(delay)")
        precondition(duration >= .zero, "stagger duration must be 0 or more seconds, got \(duration)")
        self.count = count; self.exactDelay = delay; self.exactDuration = duration; self.order = order; self.easing = easing
        ranks = Stagger.ranks(count: count, order: order)
    }

    /// Items that start `delay` seconds apart in `order`, each animating for `duration` seconds with
    /// `easing`. `count`, `delay` and `duration` must be finite and not negative.
    public init(count: Int, delay: Double, duration: Double, order: Order = .forward, easing: Easing = .linear) {
        precondition(delay.isFinite && delay >= 0, "stagger delay must be 0 or more seconds, got \(delay)")
        precondition(duration.isFinite && duration >= 0, "stagger duration must be 0 or more seconds, got \(duration)")
        self.init(count: count, delay: Time(roundTripping: delay), duration: Time(roundTripping: duration), order: order, easing: easing)
    }

    /// Items whose starts are spread evenly over `spread` seconds (the first rank starts at 0, the last at
    /// `spread`), each animating for `duration` seconds.
    public init(count: Int, spread: Double, duration: Double, order: Order = .forward, easing: Easing = .linear) {
        precondition(spread.isFinite && spread >= 0, "stagger spread must be 0 or more seconds, got \(spread)")
        let steps = (Stagger.ranks(count: count, order: order).max() ?? 0)
        self.init(count: count, delay: steps > 0 ? spread / Double(steps) : 0, duration: duration, order: order, easing: easing)
    }

    /// Items whose starts are spread evenly over `spread` (the first rank starts at 0, the last at
    /// `spread`, each start exact), each animating for `duration`.
    @_disfavoredOverload
    public init(count: Int, spread: Time, duration: Time, order: Order = .forward, easing: Easing = .linear) {
        precondition(spread >= .zero, "stagger spread must be 0 or more seconds, got \(spread)")
        let steps = (Stagger.ranks(count: count, order: order).max() ?? 0)
        self.init(count: count, delay: steps > 0 ? spread / steps : .zero, duration: duration, order: order, easing: easing)
    }

    /// Equal counts, times, orders and easings.
    public static func == (a: Stagger, b: Stagger) -> Bool {
        a.count == b.count && a.exactDelay == b.exactDelay && a.exactDuration == b.exactDuration
            && a.order == b.order && a.easing == b.easing
    }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count); hasher.combine(exactDelay); hasher.combine(exactDuration)
        hasher.combine(order); hasher.combine(easing)
    }

    /// The start rank of every item for `order`.
    private static func ranks(count: Int, order: Order) -> [Int] {
        guard count > 0 else { return [] }
        switch order {
        case .forward:
            return Array(0..<count)
        case .reverse:
            return (0..<count).map { count - 1 - $0 }
        case .fromCenter, .fromEdges:
            // Distance from the centre (count − 1)/2 is a whole number for odd counts and n + ½ for even
            // ones; rounding down gives ranks 0, 1, 2 … outwards either way.
            let center = Double(count - 1) / 2
            let fromCenter = (0..<count).map { Int((abs(Double($0) - center)).rounded(.down)) }
            guard order == .fromEdges else { return fromCenter }
            let last = fromCenter.max() ?? 0
            return fromCenter.map { last - $0 }
        case let .random(seed):
            var generator = SplitMix64(seed: seed)
            var permutation = Array(0..<count)
            for i in stride(from: count - 1, to: 0, by: -1) {
                let j = Int(generator.next() % UInt64(i + 1))
                permutation.swapAt(i, j)
            }
            // permutation[r] is the item that starts r-th.
            var ranks = [Int](repeating: 0, count: count)
            for (rank, item) in permutation.enumerated() { ranks[item] = rank }
            return ranks
        }
    }

    /// The start rank of item `index` (0 starts first; items may share a rank).
    package func rank(ofItem index: Int) -> Int {
        precondition(ranks.indices.contains(index), "item \(index) is outside the stagger's 0..<\(count)")
        return ranks[index]
    }

    /// When item `index` starts, in seconds.
    public func startTime(ofItem index: Int) -> Double { Double(rank(ofItem: index)) * delay }
    /// When item `index` starts, exactly.
    public func exactStartTime(ofItem index: Int) -> Time { exactDelay * rank(ofItem: index) }

    /// When the last item finishes, in seconds (0 with no items).
    public var totalDuration: Double { count == 0 ? 0 : Double(ranks.max() ?? 0) * delay + duration }

    /// Item `index`'s eased progress at `seconds`: `easing(0)` before it starts, `easing(1)` once done.
    public func progress(ofItem index: Int, at seconds: Double) -> Double {
        let local = seconds - startTime(ofItem: index)
        guard duration > 0 else { return easing(local >= 0 ? 1 : 0) }
        return easing(local / duration)
    }

    /// Item `index`'s eased progress at an exact time, e.g. `frame.exactTime` (literals pick seconds).
    @_disfavoredOverload
    public func progress(ofItem index: Int, at time: Time) -> Double { progress(ofItem: index, at: time.seconds) }
}

extension Stagger: Codable {
    private enum CodingKeys: String, CodingKey { case count, delay, duration, order, easing }

    /// Reads `{"count": 5, "delay": 0.1, "duration": 0.4, "order": "fromCenter", "easing": "backOut"}`
    /// (`delay` and `duration` are exact times; `order` may be left out: forward; `easing`: linear).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let count = try c.decode(Int.self, forKey: .count)
        let delay = try c.decode(Time.self, forKey: .delay), duration = try c.decode(Time.self, forKey: .duration)
        for (key, value) in [(CodingKeys.delay, delay), (.duration, duration)] where value < .zero {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "a stagger's \(key.stringValue) must be 0 or more seconds, got \(value)")
        }
        guard count >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .count, in: c, debugDescription: "a stagger's count must be 0 or more, got \(count)")
        }
        self.init(count: count, delay: delay, duration: duration, order: try c.decode(.order, or: .forward),
                  easing: try c.decode(.easing, or: .linear))
    }

    /// Writes the count, the exact delay and duration, the order and the easing's name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(count, forKey: .count)
        try c.encode(exactDelay, forKey: .delay)
        try c.encode(exactDuration, forKey: .duration)
        try c.encode(order, forKey: .order)
        try c.encode(easing, forKey: .easing)
    }
}

extension Stagger.Order: Codable {
    /// Reads a plain order's name (`"forward"`, `"reverse"`, `"fromCenter"`, `"fromEdges"`) or
    /// `{"type": "random", "seed": 7}`.
    public init(from decoder: any Decoder) throws {
        if let name = try decoder.singleValueContainer().decodeStringIfPossible() {
            switch name {
            case "forward": self = .forward
            case "reverse": self = .reverse
            case "fromCenter": self = .fromCenter
            case "fromEdges": self = .fromEdges
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "unknown stagger order \"\(name)\": expected forward, reverse, fromCenter, fromEdges or {\"type\": \"random\", \"seed\": n}"))
            }
            return
        }
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decodeType()
        guard type == "random" else { throw c.unknownType(type, of: "stagger order", known: ["random"]) }
        self = .random(seed: try c.decode(UInt64.self, forKey: AnyCodingKey("seed")))
    }

    /// Writes a plain order as its name, a random one as `{"type": "random", "seed": …}`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .forward, .reverse, .fromCenter, .fromEdges:
            var c = encoder.singleValueContainer()
            try c.encode("\(self)")
        case let .random(seed):
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode("random", forKey: .type)
            try c.encode(seed, forKey: AnyCodingKey("seed"))
        }
    }
}

/// Sebastiano Vigna's SplitMix64: a tiny, fast, well-mixed 64-bit generator for reproducible shuffles —
/// and for drawing closures, whose frames must depend only on the frame index: seed it from the index
/// (`var rng = SplitMix64(seed: UInt64(frame.index))`) and pass it to `Double.random(in:using:)`, and
/// every run, thread and machine draws the same frame. The same seed gives the same numbers everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator that always produces the same sequence for the same seed.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

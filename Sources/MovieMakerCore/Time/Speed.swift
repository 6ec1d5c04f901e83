import Foundation

/// How fast a clip plays: an exact ratio of source time to output time (2 plays twice as fast, 1/2 in
/// slow motion), and whether its sound keeps its pitch.
///
/// The ratio is a fraction, so a clip at speed 1/3 lasts exactly three times as long and output
/// frame k shows source time k/3 frames exactly. Build it from a number (`Speed(2)`, `Speed(0.25)`:
/// the simplest fraction equal to the `Double`) or from a fraction (`Speed(numerator: 2, denominator: 3)`).
public struct Speed: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Source time per output time, numerator (> 0).
    public let numerator: Int64
    /// Source time per output time, denominator (> 0).
    public let denominator: Int64
    /// Whether sound keeps its pitch when time-stretched (libavfilter's `atempo`); false makes the
    /// pitch follow the speed, as a tape played faster does.
    public var keepsPitch: Bool

    /// The slowest speed a clip may play at, 1/4.
    public static let minimum = Speed(numerator: 1, denominator: 4)
    /// The fastest speed a clip may play at, 4.
    public static let maximum = Speed(numerator: 4, denominator: 1)
    /// Normal speed.
    public static let normal = Speed(numerator: 1, denominator: 1)

    /// `numerator / denominator` (both > 0), reduced.
    public init(numerator: Int64, denominator: Int64, keepsPitch: Bool = true) {
        precondition(numerator > 0 && denominator > 0, "a speed is a positive fraction, got \(numerator)/\(denominator)")
        let g = Swift.max(Int64(gcd(Int(numerator), Int(denominator))), 1)
        self.numerator = numerator / g
        self.denominator = denominator / g
        self.keepsPitch = keepsPitch
    }

    /// The simplest fraction equal to `factor` (0.25 is 1/4, 1.5 is 3/2); `factor` must be positive and finite.
    public init(_ factor: Double, keepsPitch: Bool = true) {
        precondition(factor.isFinite && factor > 0, "a speed must be a positive number, got \(factor)")
        let t = Time(roundTripping: factor)
        self.init(numerator: t.value, denominator: t.timescale, keepsPitch: keepsPitch)
    }

    private enum CodingKeys: String, CodingKey { case numerator, denominator, keepsPitch }

    /// Reads `{"numerator", "denominator", "keepsPitch"}`, reduced, as `init(numerator:denominator:)`
    /// makes it; a fraction that is not positive (`1/0`, `-2/-1`) is a `DecodingError` naming it (the
    /// synthesised reader took `1/0` as given, and a clip at that speed lasted nothing).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let numerator = try c.decode(Int64.self, forKey: .numerator), denominator = try c.decode(Int64.self, forKey: .denominator)
        guard numerator > 0, denominator > 0 else {
            throw DecodingError.dataCorruptedError(forKey: numerator > 0 ? .denominator : .numerator, in: c,
                                                   debugDescription: "a speed is a fraction of two positive whole numbers, got \(numerator)/\(denominator)")
        }
        self.init(numerator: numerator, denominator: denominator, keepsPitch: try c.decodeIfPresent(Bool.self, forKey: .keepsPitch) ?? true)
    }

    /// Writes `{"numerator", "denominator", "keepsPitch"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(numerator, forKey: .numerator)
        try c.encode(denominator, forKey: .denominator)
        try c.encode(keepsPitch, forKey: .keepsPitch)
    }

    /// The speed as a number (for display and for filters that take one).
    public var factor: Double { Double(numerator) / Double(denominator) }

    /// Whether the speed is within `minimum`…`maximum` (what clips accept).
    package var isSupported: Bool { !(self < Self.minimum) && !(Self.maximum < self) }

    /// `a` is slower than `b`.
    package static func < (a: Speed, b: Speed) -> Bool { Rational(a.numerator, a.denominator) < Rational(b.numerator, b.denominator) }

    /// `4/1`, `1/2`, `3/2`, with " (pitch follows)" when the pitch is not kept.
    public var description: String {
        (denominator == 1 ? "\(numerator)×" : "\(numerator)/\(denominator)×") + (keepsPitch ? "" : " (pitch follows)")
    }

    /// The source time played at output time `time` (time × speed), exactly.
    package func sourceTime(at time: Time) -> Time {
        (Rational(time) * Rational(numerator, denominator)).time
    }

    /// The output time at which source time `time` plays (time ÷ speed), exactly.
    package func outputTime(at time: Time) -> Time {
        (Rational(time) * Rational(denominator, numerator)).time
    }
}

import Foundation

/// One value on a `KeyframeTrack`: where the track is at `time`, and how it gets there from the keyframe before.
public struct Keyframe<Value: Interpolatable & Sendable>: Sendable {
    /// When the track reaches `value`.
    public var time: Time {
        didSet { nonFiniteSeconds = nil }
    }
    /// The value at `time`.
    public var value: Value
    /// The easing of the segment that ends at this keyframe (ignored for the first keyframe).
    public var easing: Easing
    /// The seconds given to `init(time:value:easing:)` when they were not a finite number (`time` is then
    /// zero), so that `KeyframeTrack` can refuse the keyframe as it did when times were stored as seconds.
    package var nonFiniteSeconds: Double?

    /// A keyframe at `time` seconds, reached from the previous keyframe with `easing`. The seconds are
    /// kept as the simplest exact time that reads back as the same number (0.1 is 1/10); a time that is
    /// not a finite number makes `KeyframeTrack` throw.
    public init(time: Double, value: Value, easing: Easing = .linear) {
        if time.isFinite, time.magnitude < 0x1p53 {
            self.time = Time(roundTripping: time)
        } else {
            self.time = .zero
            nonFiniteSeconds = time
        }
        self.value = value; self.easing = easing
    }
    /// A keyframe at an exact time. Literals pick the `Double` initializer.
    @_disfavoredOverload
    public init(time: Time, value: Value, easing: Easing = .linear) {
        self.time = time; self.value = value; self.easing = easing
    }

    /// The time in seconds, or the non-finite number it was made with.
    package var seconds: Double { nonFiniteSeconds ?? time.seconds }
}

extension Keyframe: Equatable where Value: Equatable {
    /// Equal times (exactly), values and easings.
    public static func == (a: Keyframe, b: Keyframe) -> Bool {
        a.time == b.time && a.value == b.value && a.easing == b.easing
            && a.nonFiniteSeconds?.bitPattern == b.nonFiniteSeconds?.bitPattern
    }
}

extension Keyframe: Codable where Value: Codable {
    private enum CodingKeys: String, CodingKey { case time, value, easing }

    /// Reads `{"time": 1.5, "value": …, "easing": "quadOut"}` (`easing` may be left out: linear).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(time: try c.decode(Time.self, forKey: .time), value: try c.decode(Value.self, forKey: .value),
                  easing: try c.decode(.easing, or: .linear))
    }

    /// Writes the time (exact), the value and the easing's name.
    public func encode(to encoder: any Encoder) throws {
        if let nonFiniteSeconds {
            throw EncodingError.invalidValue(nonFiniteSeconds, EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "a keyframe time must be a finite number of seconds, got \(nonFiniteSeconds)"))
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(value, forKey: .value)
        try c.encode(easing, forKey: .easing)
    }
}

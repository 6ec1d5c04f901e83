import Foundation

/// A value that changes over time through keyframes, each segment with its own easing.
///
/// Before the first keyframe the track holds the first value, after the last it holds the last, and
/// exactly at a keyframe's time it has that keyframe's value. Two keyframes at the same time make a jump:
/// the later one (in the order given) wins from that time on. `Easing.hold` or `.steps(…)` on a keyframe
/// keep the previous value until it.
public struct KeyframeTrack<Value: Interpolatable & Sendable>: Sendable {
    /// The keyframes sorted by time (keyframes at equal times keep the order they were given in).
    public private(set) var keyframes: [Keyframe<Value>]

    /// A track through `keyframes`, in any order. Throws when there are none or a time is not finite.
    public init(_ keyframes: [Keyframe<Value>]) throws(MovieMakerError) {
        guard !keyframes.isEmpty else {
            throw .invalidSetting(.keyframes, value: "[] (none)", expected: "at least one keyframe")
        }
        if let bad = keyframes.first(where: { $0.nonFiniteSeconds != nil }) {
            throw .invalidSetting(.keyframeTime, value: "\(bad.seconds)", expected: "a finite number of seconds")
        }
        self.keyframes = keyframes.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// A track that starts at `value` at `time` seconds (which must be finite); add keyframes with
    /// `then(to:at:easing:)`.
    public init(_ value: Value, at time: Double = 0) {
        precondition(time.isFinite, "keyframe time must be a finite number of seconds, got \(time)")
        keyframes = [Keyframe(time: time, value: value)]
    }
    /// A track that starts at `value` at an exact `time`.
    @_disfavoredOverload
    public init(_ value: Value, at time: Time) {
        keyframes = [Keyframe(time: time, value: value)]
    }

    /// A tween: `from` at `start` seconds to `to` at `start + duration`, with `easing`.
    public static func tween(from: Value, to: Value, over duration: Double, startingAt start: Double = 0,
                             easing: Easing = .linear) -> KeyframeTrack {
        KeyframeTrack(from, at: start).then(to: to, at: start + max(duration, 0), easing: easing)
    }

    /// This track with one more keyframe: `value` at `time` seconds (finite), reached with `easing`. A time
    /// before the current last keyframe is inserted in order (after any keyframes at the same time).
    public func then(to value: Value, at time: Double, easing: Easing = .linear) -> KeyframeTrack {
        var copy = self
        copy.add(Keyframe(time: time, value: value, easing: easing))
        return copy
    }
    /// This track with one more keyframe at an exact `time` (see `then(to:at:easing:)`).
    @_disfavoredOverload
    public func then(to value: Value, at time: Time, easing: Easing = .linear) -> KeyframeTrack {
        var copy = self
        copy.add(Keyframe(time: time, value: value, easing: easing))
        return copy
    }

    /// Adds a keyframe in time order (after any keyframes at the same time); its time must be finite.
    public mutating func add(_ keyframe: Keyframe<Value>) {
        precondition(keyframe.nonFiniteSeconds == nil, "keyframe time must be a finite number of seconds, got \(keyframe.seconds)")
        let index = keyframes.firstIndex { $0.time > keyframe.time } ?? keyframes.endIndex
        keyframes.insert(keyframe, at: index)
    }

    /// The time of the first keyframe.
    public var startTime: Time { keyframes[0].time }
    /// The time of the last keyframe.
    public var endTime: Time { keyframes[keyframes.count - 1].time }
    /// From the first keyframe to the last.
    public var duration: Time { endTime - startTime }

    /// The value at `seconds`.
    public func value(at seconds: Double) -> Value {
        // The first keyframe later than `seconds` ends the segment we are in (binary search).
        var lo = 0, hi = keyframes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keyframes[mid].time.seconds > seconds { hi = mid } else { lo = mid + 1 }
        }
        if lo == 0 { return keyframes[0].value }
        let from = keyframes[lo - 1]
        let fromSeconds = from.time.seconds
        if lo == keyframes.count || seconds == fromSeconds { return from.value }
        let to = keyframes[lo]
        let progress = (seconds - fromSeconds) / (to.time.seconds - fromSeconds)
        return from.value.interpolated(to: to.value, amount: to.easing(progress))
    }

    /// The value at an exact time, e.g. `frame.exactTime` (literals pick the seconds overload).
    @_disfavoredOverload
    public func value(at time: Time) -> Value { value(at: time.seconds) }
}

extension KeyframeTrack: Equatable where Value: Equatable {
    /// Equal keyframes in the same order.
    public static func == (a: KeyframeTrack, b: KeyframeTrack) -> Bool { a.keyframes == b.keyframes }
}

extension KeyframeTrack: Codable where Value: Codable {
    private enum CodingKeys: String, CodingKey { case keyframes }

    /// Reads `{"keyframes": [{"time": 0, "value": …}, …]}`: at least one keyframe, in any order.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let keyframes = try c.decode([Keyframe<Value>].self, forKey: .keyframes)
        self = try decodingErrors(at: c.codingPath + [CodingKeys.keyframes]) { try KeyframeTrack(keyframes) }
    }

    /// Writes the keyframes in time order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(keyframes, forKey: .keyframes)
    }
}

/// The value `progress` (0…1, clamped) of the way from `from` to `to`, shaped by `easing`.
package func animate<Value: Interpolatable>(_ from: Value, _ to: Value, progress: Double, easing: Easing = .linear) -> Value {
    from.interpolated(to: to, amount: easing(progress))
}

import Foundation

/// One value on a `KeyframeTrack`: where the track is at `time`, and how it gets there from the keyframe before.
public struct Keyframe<Value: Interpolatable & Sendable>: Sendable {
    /// When the track reaches `value`, in seconds.
    public var time: Double
    /// The value at `time`.
    public var value: Value
    /// The easing of the segment that ends at this keyframe (ignored for the first keyframe).
    public var easing: Easing

    /// A keyframe at `time` seconds, reached from the previous keyframe with `easing`.
    public init(time: Double, value: Value, easing: Easing = .linear) {
        self.time = time; self.value = value; self.easing = easing
    }
    /// A keyframe at an exact time (stored as seconds). Literals pick the `Double` initializer.
    @_disfavoredOverload
    public init(time: Time, value: Value, easing: Easing = .linear) {
        self.init(time: time.seconds, value: value, easing: easing)
    }
}

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
        if let bad = keyframes.first(where: { !$0.time.isFinite }) {
            throw .invalidSetting(.keyframeTime, value: "\(bad.time)", expected: "a finite number of seconds")
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

    /// Adds a keyframe in time order (after any keyframes at the same time); its time must be finite.
    public mutating func add(_ keyframe: Keyframe<Value>) {
        precondition(keyframe.time.isFinite, "keyframe time must be a finite number of seconds, got \(keyframe.time)")
        let index = keyframes.firstIndex { $0.time > keyframe.time } ?? keyframes.endIndex
        keyframes.insert(keyframe, at: index)
    }

    /// The time of the first keyframe, in seconds.
    public var startTime: Double { keyframes[0].time }
    /// The time of the last keyframe, in seconds.
    public var endTime: Double { keyframes[keyframes.count - 1].time }
    /// From the first keyframe to the last, in seconds.
    public var duration: Double { endTime - startTime }

    /// The value at `seconds`.
    public func value(at seconds: Double) -> Value {
        // The first keyframe later than `seconds` ends the segment we are in (binary search).
        var lo = 0, hi = keyframes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keyframes[mid].time > seconds { hi = mid } else { lo = mid + 1 }
        }
        if lo == 0 { return keyframes[0].value }
        let from = keyframes[lo - 1]
        if lo == keyframes.count || seconds == from.time { return from.value }
        let to = keyframes[lo]
        let progress = (seconds - from.time) / (to.time - from.time)
        return from.value.interpolated(to: to.value, amount: to.easing(progress))
    }

    /// The value at an exact time, e.g. `frame.exactTime` (literals pick the seconds overload).
    @_disfavoredOverload
    public func value(at time: Time) -> Value { value(at: time.seconds) }
}

/// The value `progress` (0…1, clamped) of the way from `from` to `to`, shaped by `easing`.
public func animate<Value: Interpolatable>(_ from: Value, _ to: Value, progress: Double, easing: Easing = .linear) -> Value {
    from.interpolated(to: to, amount: easing(progress))
}

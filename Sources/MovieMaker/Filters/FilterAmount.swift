import Foundation

/// A filter's strength (or any number a filter takes) that is either constant or follows a keyframe
/// track in the filtered clip's own time.
///
/// Write a literal for a constant (`0.3`), or a track for a changing amount:
/// `.keyframes(.tween(from: 0, to: 1, over: 2, easing: .quadOut))`. In a description file an amount is a
/// number or a list of keyframes: `[{"at": "0s", "value": 0}, {"at": "2s", "value": 1, "easing": "ease-out"}]`.
public enum FilterAmount: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The same value on every frame.
    case constant(Double)
    /// A value read from a keyframe track at the frame's time in the filtered clip.
    case keyframes(KeyframeTrack<Double>)

    /// A constant from a literal.
    public init(floatLiteral value: Double) { self = .constant(value) }
    /// A constant from a literal.
    public init(integerLiteral value: Int) { self = .constant(Double(value)) }

    /// The value at `seconds` of the clip's time.
    public func value(at seconds: Double) -> Double {
        switch self {
        case let .constant(v): return v
        case let .keyframes(track): return track.value(at: seconds)
        }
    }

    /// The amount multiplied by `factor` (every keyframe's value).
    public func scaled(by factor: Double) -> FilterAmount {
        switch self {
        case let .constant(v): return .constant(v * factor)
        case let .keyframes(track):
            return .keyframes((try? KeyframeTrack(track.keyframes.map { Keyframe(time: $0.time, value: $0.value * factor, easing: $0.easing) })) ?? track)
        }
    }

    /// The constant value, or nil when the amount changes over time.
    package var constantValue: Double? { if case let .constant(v) = self { return v } else { return nil } }

    /// Every value the amount takes at a keyframe (the constant alone for a constant). Used to check
    /// ranges: between keyframes an easing that overshoots can leave them, and filters clamp.
    package var keyValues: [Double] {
        switch self {
        case let .constant(v): return [v]
        case let .keyframes(track): return track.keyframes.map(\.value)
        }
    }

    /// The constant, or a description of the track.
    public var description: String {
        switch self {
        case let .constant(v): return "\(v)"
        case let .keyframes(track): return "keyframes(\(track.keyframes.map { "\($0.time.seconds)s: \($0.value)" }.joined(separator: ", ")))"
        }
    }
}

extension Keyframe: Hashable where Value: Hashable {
    /// Hashes the time, value and easing (what `==` compares).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(time); hasher.combine(value); hasher.combine(easing)
        hasher.combine(nonFiniteSeconds?.bitPattern)
    }
}

extension KeyframeTrack: Hashable where Value: Hashable {
    /// Hashes the keyframes in order.
    public func hash(into hasher: inout Hasher) { hasher.combine(keyframes) }
}

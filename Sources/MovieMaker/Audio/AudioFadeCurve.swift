import Foundation

/// How a fade's gain moves from silence to full level.
///
/// Every curve is exactly 0 at the silent end and exactly 1 at the full end. A fade-out is the fade-in
/// read backwards, so a fade-out and a fade-in over the same samples cross as a crossfade.
public enum AudioFadeCurve: String, Sendable, Hashable, CaseIterable {
    /// Gain rises in a straight line (amplitude). Two linear fades of the same material sum to exactly
    /// the original: the right crossfade for identical, in-phase signals.
    case linear
    /// Gain follows a quarter sine (the fade-out a quarter cosine), so the two sides' powers sum to 1:
    /// the level stays constant across a crossfade of unrelated signals (music into music).
    case equalPower
    /// Gain rises linearly in decibels, from −60 dB to 0 dB (lifted to reach exactly 0 at the silent
    /// end): sounds even to the ear, the usual choice for a long fade-out.
    case exponential

    /// The decibel range an exponential fade covers.
    package static let exponentialRange = 60.0

    /// The gain of a fade-in `progress` (clamped to 0…1) of the way through: 0 at 0, 1 at 1. A
    /// fade-out at the same point uses `gain(1 - progress)`.
    public func gain(_ progress: Double) -> Double {
        let t = progress.isNaN ? 0 : min(max(progress, 0), 1)
        switch self {
        case .linear: return t
        case .equalPower: return t >= 1 ? 1 : sin(t * .pi / 2)
        case .exponential:
            if t <= 0 { return 0 }
            if t >= 1 { return 1 }
            let floor = pow(10, -Self.exponentialRange / 20)
            return (pow(10, Self.exponentialRange * (t - 1) / 20) - floor) / (1 - floor)
        }
    }

    /// The gain at sample `index` of a fade `count` samples long, counted from the silent end: 0 at
    /// index 0, 1 from index `count − 1` on.
    func gain(index: Int64, of count: Int64) -> Double {
        if index <= 0 { return 0 }
        if index >= count - 1 { return 1 }
        return gain(Double(index) / Double(count - 1))
    }
}

import Foundation

/// A fade: how long it lasts and the curve it follows.
public struct AudioFade: Sendable, Hashable {
    /// How long the fade lasts.
    public var duration: Time
    /// The shape of the gain over the fade.
    public var curve: AudioFadeCurve

    /// A fade of `duration` following `curve`.
    public init(duration: Time, curve: AudioFadeCurve = .equalPower) {
        self.duration = duration
        self.curve = curve
    }
}

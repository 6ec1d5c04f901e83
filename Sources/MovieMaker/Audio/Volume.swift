import Foundation

/// How loud a sound plays: a factor of its amplitude (`.factor(0.5)`; 1 as recorded, 0 silent) or a
/// gain in decibels (`.decibels(-6)`). One type wherever a volume is asked for — `addMusic(_:volume:)`,
/// `AudioClip.musicBed(volume:)`, a description file's `"volume"` (`0.5` or `"-6dB"`) — so a bare
/// number never has to be guessed at: `.factor(0.8)` is a little quieter, `.decibels(0.8)` a little louder.
/// Two lower-level calls take a bare number and say its unit in their documentation: `AudioMix`'s
/// `gain:` is in decibels (`gain: 0.5` is slightly louder) and `AudioClip.setVolume(_:at:)` takes a factor.
public enum Volume: Sendable, Hashable, CustomStringConvertible {
    /// The sound's amplitude times this factor (0…16).
    case factor(Double)
    /// The sound's gain in decibels (−100…24).
    case decibels(Double)

    /// As recorded: a factor of 1 (0 dB).
    public static let unchanged = Volume.factor(1)

    /// The gain in dB (−∞ for a factor of 0).
    package var decibelValue: Double {
        switch self {
        case let .factor(f): return f > 0 ? 20 * log10(f) : -.infinity
        case let .decibels(d): return d
        }
    }
    /// Whether the sound is silenced.
    package var isSilent: Bool { if case let .factor(f) = self { return f == 0 } else { return false } }

    /// Throws `.invalidSetting(key, …)` for a factor outside 0…16 or a gain outside −100…24 dB (or not a number).
    func check(_ key: SettingKey) throws(MovieMakerError) {
        switch self {
        case let .factor(f):
            guard f.isFinite, (0...16).contains(f) else { throw .invalidSetting(key, value: "factor \(f)", expected: "a factor from 0 (silent) to 16, 1 as recorded, e.g. .factor(0.8)") }
        case let .decibels(d):
            guard d.isFinite, (-100...24).contains(d) else { throw .invalidSetting(key, value: "\(d) dB", expected: "a gain from -100 to 24 dB, e.g. .decibels(-6)") }
        }
    }

    /// `0.5` or `-6dB` (as a description file writes it).
    public var description: String {
        switch self {
        case let .factor(f): return JSONValue.double(f).map { if case let .number(t) = $0 { return t } else { return "" } } ?? "\(f)"
        case let .decibels(d):
            // Plain digits ("-0.00001dB", not "-1e-05dB"): the form people write and the schema's pattern shows.
            if let (p, q) = ExactNumber.decimal("\(d)"), let plain = ExactNumber.decimalString(p, q) { return plain + "dB" }
            return "\(d)dB"
        }
    }
}

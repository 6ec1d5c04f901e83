import Foundation

extension ClipSound {
    /// This sound as heard under a `.speed(speed)` node: its times divided by the speed, its source
    /// time-stretched (`TempoSound`, pitch kept unless the speed says otherwise).
    func played(at speed: Speed) -> ClipSound? {
        nil   // TODO: TempoSound (libavfilter atempo) lands with the audio branch.
    }

    /// This sound as heard under a `.reverse` node over a child lasting `duration`: mirrored in time
    /// (d − t), its source played backwards (`ReversedSound`), its fades swapped. Nil when the
    /// source's length is unknown.
    func reversed(within duration: Time) -> ClipSound? {
        nil   // TODO: ReversedSound lands with the audio branch.
    }
}

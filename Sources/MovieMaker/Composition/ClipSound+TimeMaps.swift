import Foundation

extension ClipSound {
    /// This sound as heard under a `.speed(speed)` node: its times divided by the speed, its source
    /// time-stretched (`TempoSound`: libavfilter's `atempo`, pitch kept unless the speed says
    /// otherwise). Material beyond its cut points is stretched too, so crossfades at cuts still have it.
    func played(at speed: Speed) -> ClipSound? {
        guard speed != .normal || !speed.keepsPitch else { return self }
        var s = self
        s.source = TempoSound(source, speed: speed)
        s.start = speed.outputTime(at: start)
        s.heardFrom = heardFrom.map { speed.outputTime(at: $0) }
        s.heardUntil = heardUntil.map { speed.outputTime(at: $0) }
        s.fadeIn = speed.outputTime(at: fadeIn)
        s.fadeOut = speed.outputTime(at: fadeOut)
        return s
    }

    /// This sound as heard under a `.reverse` node over a child lasting `duration`: mirrored in time
    /// (t ↦ d − t), its source played backwards (`ReversedSound`), its fades swapped. Nil (silent) when
    /// the source's length is unknown (an endless sound cannot be played from its end).
    func reversed(within duration: Time) -> ClipSound? {
        guard let length = source.duration, let backwards = try? ReversedSound(source) else { return nil }
        var s = self
        s.source = backwards
        s.start = duration - (start + length)
        s.heardFrom = heardUntil.map { duration - $0 }
        s.heardUntil = heardFrom.map { duration - $0 }
        (s.fadeIn, s.fadeOut) = (fadeOut, fadeIn)
        return s
    }
}

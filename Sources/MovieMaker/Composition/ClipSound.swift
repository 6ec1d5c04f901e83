import Foundation

/// A sound attached to a clip. It moves with the clip when clips are sequenced, overlaid, delayed,
/// repeated or joined by transitions, and is cut where the clip is trimmed.
///
/// <!-- prelude: let whoosh = URL(fileURLWithPath: "whoosh.wav") -->
/// ```swift
/// let card = try TitleCard("Hello").clip(width: 1920, height: 1080)
///     .withSound(try AudioFile(url: whoosh), at: 0.2)
/// ```
public struct ClipSound: Sendable {
    /// The sound.
    public var source: any AudioSource
    /// When the sound starts, in the clip's time (negative when the clip was trimmed after it began).
    public var start: Time
    /// From when in the clip's time it is heard (nil: from its start).
    public var heardFrom: Time?
    /// Until when in the clip's time it is heard (nil: to its end).
    public var heardUntil: Time?
    /// How long it takes to rise at `heardFrom` (equal-power; at least 10 ms where it cuts into the sound).
    public var fadeIn: Time
    /// How long it takes to fall before `heardUntil` (equal-power; at least 10 ms).
    public var fadeOut: Time

    /// `source` starting at `start` of the clip's time, heard whole.
    package init(_ source: any AudioSource, start: Time = .zero) {
        self.source = source
        self.start = start
        heardFrom = nil; heardUntil = nil
        fadeIn = .zero; fadeOut = .zero
    }

    /// The shortest fade at a cut: short enough not to be heard as a fade, long enough not to click.
    package static let minimumCutFade = Time(value: 1, timescale: 100)

    /// This sound with the clip's time moved later by `offset` (the clip now starts at `offset`).
    func shifted(by offset: Time) -> ClipSound {
        var s = self
        s.start = start + offset
        s.heardFrom = heardFrom.map { $0 + offset }
        s.heardUntil = heardUntil.map { $0 + offset }
        return s
    }

    /// This sound heard only from `from` until `until` of the clip's time, fading in and out over the
    /// given lengths there (fades already set at tighter limits are kept; at the same limit, the longer
    /// fade: a video's own sound already stops at the clip's end, and a transition there fades it).
    package func limited(from: Time?, until: Time?, fadeIn newFadeIn: Time = .zero, fadeOut newFadeOut: Time = .zero) -> ClipSound {
        var s = self
        if let from, from > (heardFrom ?? start) {
            s.heardFrom = from
            s.fadeIn = newFadeIn
        } else if let from, from == (heardFrom ?? start) {
            s.fadeIn = Time.max(fadeIn, newFadeIn)
        }
        if let until, until < (heardUntil ?? .init(value: Int64.max / 4, timescale: 1)) {
            s.heardUntil = until
            s.fadeOut = newFadeOut
        } else if let until, until == heardUntil {
            s.fadeOut = Time.max(fadeOut, newFadeOut)
        }
        return s
    }

    /// Whether `next` is the rest of this sound from `cut` on: the same sound (`isSame`) placed at the
    /// same time, this one heard until `cut` and `next` from it, neither fading there.
    func continues(into next: ClipSound, at cut: Time) -> Bool {
        heardUntil == cut && next.heardFrom == cut && next.start == start && fadeOut == .zero && next.fadeIn == .zero
            && Self.isSame(source, next.source)
    }

    /// Whether two sounds are known to give the same samples: equal values of a `Hashable` sound (a
    /// file), or clips that only change such a sound's gain by the same amount (a video's sound at its
    /// `volume`). Other sounds are not compared (false).
    static func isSame(_ a: any AudioSource, _ b: any AudioSource) -> Bool {
        if let x = a as? any Hashable, let y = b as? any Hashable { return AnyHashable(x) == AnyHashable(y) }
        guard let x = a as? AudioClip, let y = b as? AudioClip, x.isGainOnly, y.isGainOnly,
              x.gainDecibels == y.gainDecibels else { return false }
        return isSame(x.source, y.source)
    }

    /// When it is first heard in the clip's time.
    public var firstHeard: Time { Time.max(start, heardFrom ?? start) }
    /// When it stops being heard in the clip's time (nil: it plays as long as it lasts, when that is
    /// not known).
    var lastHeard: Time? {
        let end = source.duration.map { start + $0 }
        switch (heardUntil, end) {
        case let (u?, e?): return Time.min(u, e)
        case let (u?, nil): return u
        case let (nil, e): return e
        }
    }
    /// Whether any of it is heard.
    public var isHeard: Bool { heardUntil.map { $0 > firstHeard } ?? true }

    /// The sound as heard, to place at `firstHeard`: cut to `heardFrom`…`heardUntil`, with its fades
    /// (equal power; at least 10 ms where a cut falls inside the sound). What `MovieMaker.add(_:)` adds
    /// for each of a clip's sounds; use it to mix a clip's sounds yourself (e.g. as the sidechain that
    /// ducks music, `AudioMix.Track.Role.sidechain`).
    public var heardSound: any AudioSource { heardSource }

    /// The sound as heard: starting at `firstHeard` (in the clip's time), with the cuts and fades applied.
    var heardSource: HeardSound {
        HeardSound(source: source, skip: firstHeard - start, length: heardUntil.map { $0 - firstHeard },
                   fadeIn: heardFrom.map { $0 > start ? Time.max(fadeIn, Self.minimumCutFade) : fadeIn } ?? .zero,
                   fadeOut: heardUntil != nil ? Time.max(fadeOut, Self.minimumCutFade) : .zero)
    }
}

/// A sound from `skip` into it, lasting at most `length`, with equal-power fades at both ends.
struct HeardSound: AudioSource {
    let source: any AudioSource
    let skip: Time
    let length: Time?
    let fadeIn: Time
    let fadeOut: Time

    var duration: Time? {
        switch (source.duration.map { $0 - skip }, length) {
        case let (d?, l?): return Time.max(.zero, Time.min(d, l))
        case let (d?, nil): return Time.max(.zero, d)
        case let (nil, l): return l
        }
    }

    var endFadeDuration: Time { source.endFadeDuration }

    /// How long it is heard: `length`, or less when the source ends sooner (its fade-out then ends where
    /// the source does, not in silence after it).
    private var heardLength: Time? {
        guard let length else { return nil }
        guard let d = source.duration else { return length }
        return Time.max(.zero, Time.min(length, d - skip))
    }

    func makeReader(format: AudioFormat) throws -> any AudioReader {
        // Sources that seek (files, stretched and reversed sounds) start at the skip point directly.
        HeardSoundReader(inner: try source.makeReader(format: format, from: format.frame(at: skip)), format: format,
                         skip: 0, length: heardLength.map { format.frame(at: $0) },
                         fadeIn: format.frame(at: fadeIn), fadeOut: format.frame(at: fadeOut))
    }
}

/// Reads a `HeardSound`: discards the skipped start once, passes the heard part through with its
/// fades, then gives silence.
final class HeardSoundReader: AudioReader {
    let inner: any AudioReader
    let format: AudioFormat
    private let skip: Int64
    private let length: Int64?
    private let fadeIn: Int64
    private let fadeOut: Int64
    private var position: Int64 = 0
    private var skipped = false

    init(inner: any AudioReader, format: AudioFormat, skip: Int64, length: Int64?, fadeIn: Int64, fadeOut: Int64) {
        self.inner = inner; self.format = format
        self.skip = max(0, skip); self.length = length.map { max(0, $0) }
        self.fadeIn = max(0, fadeIn); self.fadeOut = max(0, fadeOut)
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount
        if !skipped {
            skipped = true
            var left = skip
            if left > 0 {
                let chunk = 4096
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
                defer { scratch.deallocate() }
                while left > 0 {
                    let n = Int(min(Int64(chunk), left))
                    try inner.read(into: scratch, frameCount: n)
                    left -= Int64(n)
                }
            }
        }
        let heard = length.map { Int(max(0, min(Int64(frameCount), $0 - position))) } ?? frameCount
        if heard > 0 { try inner.read(into: buffer, frameCount: heard) }
        if heard < frameCount { (buffer + heard * channels).update(repeating: 0, count: (frameCount - heard) * channels) }
        // Fades: equal power, sin rising over fadeIn, cos falling over the last fadeOut frames.
        if fadeIn > 0, position < fadeIn {
            let end = Int(min(Int64(heard), fadeIn - position))
            for i in 0..<end {
                let g = Float(sin(Double.pi / 2 * (Double(position + Int64(i)) + 0.5) / Double(fadeIn)))
                for c in 0..<channels { buffer[i * channels + c] *= g }
            }
        }
        if fadeOut > 0, let length, position + Int64(heard) > length - fadeOut {
            let first = Int(max(0, length - fadeOut - position))
            for i in first..<heard {
                let remaining = Double(length - position - Int64(i)) - 0.5   // frames left after this one
                let g = Float(sin(Double.pi / 2 * max(0, remaining) / Double(fadeOut)))
                for c in 0..<channels { buffer[i * channels + c] *= g }
            }
        }
        position += Int64(frameCount)
    }

    func willEnd(atFrame frame: Int64) {
        inner.willEnd(atFrame: frame + skip)
    }
}

extension Clip {
    /// This clip with `source` playing from `time` of the clip's time (default its start).
    public func withSound(_ source: any AudioSource, at time: Time = .zero) -> Clip {
        var copy = self
        copy.addSound(source, at: time)
        return copy
    }

    /// Adds `source`, playing from `time` of the clip's time (default its start).
    public mutating func addSound(_ source: any AudioSource, at time: Time = .zero) {
        attachedSounds.append(ClipSound(source, start: time))
    }

    /// The sounds that play with the clip (see `withSound(_:at:)`), in the clip's time: those attached
    /// to it and to every clip inside it, moved, cut and faded as the tree places them. Sounds move with
    /// their clips through sequences, stacks, offsets and repeats; trims cut them (with 10 ms fades
    /// where a cut falls inside a sound); across a transition the outgoing clip's sounds fall to
    /// silence over the overlap and the incoming clip's rise over it, or over what is left of it for a
    /// sound that begins inside it (equal power, A/B overlap).
    public var sounds: [ClipSound] { childSounds + attachedSounds }

    /// The sounds of the clips under this node, in this clip's time.
    private var childSounds: [ClipSound] {
        switch node {
        case let .media(media):
            return media.ownSounds
        case .generator:
            return []
        case let .sequence(track):
            return track.sounds
        case let .stack(clips):
            return clips.flatMap(\.sounds)
        case let .timeMap(.offset(delay), child):
            return child.sounds.map { $0.shifted(by: delay) }
        case let .timeMap(.trim(from, to), child):
            // A trim from the start leaves sounds that began before the clip as they are.
            if from == .zero { return child.sounds.map { $0.limited(from: nil, until: to) }.filter(\.isHeard) }
            return child.sounds.map { $0.limited(from: from, until: to).shifted(by: .zero - from) }.filter(\.isHeard)
        case let .timeMap(.repeating(count), child):
            let inner = child.sounds
            return (0..<max(0, count)).flatMap { k in inner.map { $0.shifted(by: child.duration * k) } }
        case let .filtered(_, child), let .transformed(_, child), let .masked(child, _, _):
            return child.sounds
        case let .split(split):
            return split.cells.flatMap(\.clip.sounds)
        case let .timeMap(.speed(speed), child):
            return child.sounds.compactMap { $0.played(at: speed) }
        case .timeMap(.reverse, let child):
            return child.sounds.compactMap { $0.reversed(within: child.duration) }
        case .timeMap(.freeze, _):
            return []
        case let .timeMap(.loop(duration), child):
            let d = child.duration
            guard d > .zero, duration > .zero else { return [] }
            let count = Int((duration - Time(value: 1, timescale: 1_000_000_000)).quotient(dividingBy: d)) + 1
            let inner = child.sounds
            return (0..<count).flatMap { k in inner.map { $0.shifted(by: d * k) } }
                .map { $0.limited(from: nil, until: duration) }.filter(\.isHeard)
        }
    }
}

extension Clip.Media {
    /// The sound of a video leaf, in the leaf's time: the file's sound from the in point, where the
    /// container places it relative to the picture (its audio/video offset kept), heard while the leaf
    /// lasts. The sound before the in point and after the out point stays available to crossfades at
    /// cuts (`Track.sounds`).
    var ownSounds: [ClipSound] {
        guard case let .video(video) = source, let sound = video.sound else { return [] }
        let offset = video.file.audioOffset ?? .zero
        let source: any AudioSource = video.soundGain == 0 ? sound : AudioClip(sound).amplified(by: video.soundGain)
        let s = ClipSound(source, start: offset - sourceRange.start).limited(from: .zero, until: sourceRange.duration)
        return s.isHeard ? [s] : []
    }
}

extension Clip.Track {
    /// The items' sounds in the track's time. Across each transition the sounds cross-fade as sound
    /// editors join clips (A/B overlap): the outgoing clip's sounds fall to silence over the overlap and
    /// stop at its end, the incoming clip's sounds that are playing at its start rise over it, and those
    /// that begin during it rise from their start to its end.
    var sounds: [ClipSound] {
        if items.count == 1 { return items[0].sounds }
        var all: [ClipSound] = []
        var placed: [[ClipSound]] = []
        for (i, clip) in items.enumerated() {
            let start = starts[i], end = starts[i] + clip.duration
            let overlapIn = i > 0 ? transitions[i - 1]?.duration ?? .zero : .zero
            let overlapOut = i < transitions.count ? transitions[i]?.duration ?? .zero : .zero
            for sound in clip.sounds {
                var s = sound.shifted(by: start)
                if overlapIn > .zero, s.start <= start {
                    s.heardFrom = Time.max(s.heardFrom ?? start, start)
                    s.fadeIn = Time.max(s.fadeIn, overlapIn)
                } else if overlapIn > .zero, s.firstHeard < start + overlapIn {
                    // Begins during the overlap (a video whose sound starts a little after its picture, an
                    // effect attached there): it rises over the rest of it, as the picture does, instead of
                    // entering at full level while the outgoing sound is still fading.
                    s.heardFrom = s.firstHeard
                    s.fadeIn = Time.max(s.fadeIn, start + overlapIn - s.firstHeard)
                }
                if overlapOut > .zero {
                    s = s.limited(from: nil, until: end, fadeOut: overlapOut)
                }
                if s.isHeard { all.append(s) }
            }
            placed.append(all)
            all = []
        }
        // Cuts: the sounds cut by the outgoing clip's end and those starting with the incoming clip
        // crossfade over `audioCrossfade`, centred on the cut where both have sound beyond it.
        for i in items.indices.dropLast() where transitions[i] == nil {
            var outgoing = placed[i], incoming = placed[i + 1]
            joinAtCut(starts[i + 1], outgoing: &outgoing, incoming: &incoming)
            placed[i] = outgoing; placed[i + 1] = incoming
        }
        return placed.flatMap { $0 }
    }

    /// Crossfades, at a cut at `cut`, the `outgoing` sounds heard until the cut with the `incoming`
    /// sounds heard from it: equal-power fades over `audioCrossfade`, as much of it before the cut as
    /// the incoming sounds have material before their in point and after it as the outgoing ones have
    /// after their out point (half each when both have enough: centred on the cut).
    ///
    /// Each side fades over the whole `audioCrossfade` whatever the other side has: a whole recorded
    /// clip has no sound beyond its ends, so its sound fades out before the cut (or in after it)
    /// instead of stopping or starting at full level, which clicks (seed 000's join of separate
    /// recordings). An outgoing sound whose file ends a little before the cut (an audio track a few
    /// milliseconds shorter than its picture) fades out over the same length, ending where it ends.
    private func joinAtCut(_ cut: Time, outgoing: inout [ClipSound], incoming: inout [ClipSound]) {
        // A recording cut and joined again where it was cut (two pieces of one take, a razor cut in an
        // editor's timeline) plays on as one sound: crossfading it with itself would swell it by 3 dB
        // over the fade (equal-power gains sum to √2 on a signal added to itself).
        for i in outgoing.indices.reversed() {
            guard let j = incoming.indices.first(where: { outgoing[i].continues(into: incoming[$0], at: cut) }) else { continue }
            var whole = outgoing.remove(at: i)
            whole.heardUntil = incoming[j].heardUntil
            whole.fadeOut = incoming[j].fadeOut
            incoming[j] = whole
        }
        let endless = Time(value: Int64.max / 4, timescale: 1)
        let x = audioCrossfade
        let outs = outgoing.indices.filter { i in
            guard let last = outgoing[i].lastHeard else { return false }
            return last == cut || (outgoing[i].heardUntil != nil && last < cut && last > cut - x)
        }
        let ins = incoming.indices.filter { incoming[$0].firstHeard == cut }
        guard !outs.isEmpty || !ins.isEmpty else { return }
        // Material beyond the cut: after it for outgoing sounds, before it for incoming ones.
        let after = outs.map { i -> Time in
            let s = outgoing[i]
            return s.source.duration.map { Time.max(.zero, s.start + $0 - cut) } ?? endless
        }.min() ?? endless
        let before = ins.map { Time.max(.zero, cut - incoming[$0].start) }.min() ?? endless
        let half = Time(value: x.value, timescale: x.timescale * 2)
        var a = Time.min(before, half)
        let b = Time.min(after, x - a)
        a = Time.min(before, x - b)
        for i in outs {
            if outgoing[i].lastHeard == cut { outgoing[i].heardUntil = cut + b }
            outgoing[i].fadeOut = x
        }
        for i in ins {
            incoming[i].heardFrom = cut - a
            incoming[i].fadeIn = x
        }
    }
}

extension Clip {
    /// The same pictures without any sound: attached sounds dropped and video leaves silenced (their
    /// decoders' identities kept, so copies still share one). Play it with a mix of its sounds made
    /// elsewhere, such as `AudioMix(soundOf:adding:ducking:normalizedTo:)`, so they are not heard twice.
    public func withoutSounds() -> Clip {
        var copy: Clip
        switch node {
        case .generator:
            copy = self
        case let .media(media):
            if case var .video(video) = media.source, video.sound != nil {
                video.sound = nil
                copy = Clip(.media(media.replacingSource(.video(video))))
            } else {
                copy = self
            }
        case let .sequence(track):
            copy = Clip(.sequence(Track(track.items.map { $0.withoutSounds() }, transitions: track.requestedTransitions,
                                        audioCrossfade: track.audioCrossfade)))
        case let .stack(clips):
            copy = Clip(.stack(clips.map { $0.withoutSounds() }))
        case let .timeMap(map, child):
            copy = Clip(.timeMap(map, child.withoutSounds()))
        case let .filtered(filters, child):
            copy = Clip(.filtered(filters, child.withoutSounds()))
        case let .transformed(transform, child):
            copy = Clip(.transformed(transform, child.withoutSounds()))
        case let .masked(child, mask, mode):
            copy = Clip(.masked(child.withoutSounds(), mask: mask, mode))
        case let .split(split):
            var quiet = split
            quiet.cells = split.cells.map { var c = $0; c.clip = $0.clip.withoutSounds(); return c }
            copy = Clip(.split(quiet))
        }
        copy.attachedSounds = []
        return copy
    }
}

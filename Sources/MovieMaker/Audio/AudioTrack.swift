import Foundation

/// One track of sound clips played one after another, each join crossfaded automatically.
///
/// Where two clips meet they overlap by a crossfade (equal-power by default, at least 10 ms): the
/// outgoing clip's volume ramps 1 → 0 while the incoming one's ramps 0 → 1 over the same samples, and
/// the two are summed. As in a video editor's A/B roll, clips alternate between two internal lanes
/// (even clips on A, odd on B), so neighbours can overlap while each lane plays one clip at a time.
///
/// Appended clips are placed so the crossfade is centred on the cut, using source sound beyond the
/// clips' trim points (handles) where the source has it: with handles of at least half the crossfade
/// on both sides the incoming clip starts exactly where the outgoing one ends; without them the clips
/// are pulled together by the missing amount so the overlap is real sound (no dip, no gap). With a
/// `frameRate`, each crossfade's centre is moved back to a video-frame boundary, so cuts in the
/// sound fall between frames as cuts in the picture do.
///
/// Clips placed at explicit times (`place(_:at:)`) keep their times: an overlap of at least the
/// crossfade duration becomes the crossfade; clips that touch or overlap less get a crossfade centred
/// on the overlap, as long as the handles allow (shorter when the material is not there). A gap
/// between clips is silence.
///
/// Readers stream: at most two clips are open at any time.
public struct AudioTrack: AudioSource {
    /// Where a clip goes.
    public enum Placement: Sendable, Hashable {
        /// Right after the previous clip, joined by a crossfade.
        case afterPrevious
        /// With its in point at this time of the track.
        case at(Time)
    }

    /// A clip and where it goes.
    public struct Item: Sendable {
        /// The clip.
        public var clip: AudioClip
        /// Where it goes.
        public var placement: Placement
    }

    /// Where a clip ended up and how it plays (all times on the track).
    package struct PlacedClip: Sendable, Hashable {
        /// When the clip's in point plays.
        package var start: Time
        /// When the clip's sound starts (earlier than `start` when a crossfade uses sound before its in point).
        package var playStart: Time
        /// When the clip's sound stops; nil when it plays as long as it is read.
        package var playEnd: Time?
        /// The crossfade with the previous clip, if any.
        package var fadeIn: Range<Time>?
        /// The crossfade with the next clip, if any.
        package var fadeOut: Range<Time>?
        /// The internal lane: 0 (A) for even clips, 1 (B) for odd ones.
        package var lane: Int
    }

    /// The clips and their placements, in playing order.
    public private(set) var items: [Item] = []
    /// The crossfade where clips meet (at least 10 ms; 20 ms by default).
    public var crossfade: AudioFade
    /// When set, appended clips' crossfades are centred on this rate's frame boundaries.
    public var frameRate: FrameRate?

    /// A track of `clips` one after another, joined by crossfades of `crossfade` with `curve`.
    public init(_ clips: [AudioClip] = [], crossfade: Time = Time(value: 1, timescale: 50),
                curve: AudioFadeCurve = .equalPower, frameRate: FrameRate? = nil) {
        self.crossfade = AudioFade(duration: crossfade, curve: curve)
        self.frameRate = frameRate
        items = clips.map { Item(clip: $0, placement: .afterPrevious) }
    }

    /// Adds `clip` right after the last clip, joined by a crossfade.
    public mutating func append(_ clip: AudioClip) { items.append(Item(clip: clip, placement: .afterPrevious)) }
    /// A copy with `clip` added after the last clip.
    public func appending(_ clip: AudioClip) -> AudioTrack {
        var copy = self; copy.append(clip); return copy
    }

    /// Adds `clip` with its in point at `time` (times must not decrease along the track).
    public mutating func place(_ clip: AudioClip, at time: Time) { items.append(Item(clip: clip, placement: .at(time))) }
    /// A copy with `clip` placed at `time`.
    public func placing(_ clip: AudioClip, at time: Time) -> AudioTrack {
        var copy = self; copy.place(clip, at: time); return copy
    }

    /// How long the track lasts (to the end of its last clip's sound); nil if that clip's length is unknown.
    public var duration: Time? {
        guard let placed = try? layout() else { return nil }
        return placed.last.map { $0.playEnd } ?? .zero
    }

    /// The longest movie-end fade among the clips.
    public var endFadeDuration: Time {
        items.map(\.clip.endFadeDuration).max() ?? .zero
    }

    /// Opens the track for one render; the first clip's source is opened (and checked) here.
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try AudioTrackReader(track: self, format: format, from: 0)
    }

    /// Where each clip plays and where the crossfades are. Throws `.invalidSetting` when the
    /// crossfade is shorter than 10 ms, a clip other than the last has no known length, placements go
    /// back in time, or a clip is too short for its crossfades.
    package func layout() throws(MovieMakerError) -> [PlacedClip] {
        let c = crossfade.duration
        guard c >= AudioClip.minimumCrossfade else {
            throw .invalidSetting(.audioTrackCrossfade, value: "\(c)", expected: "at least 10 ms (0.01 s), so joins do not click")
        }
        let halfC = half(c)
        var placed: [PlacedClip] = []
        for (i, item) in items.enumerated() {
            let clip = item.clip
            // Every clip's settings are checked here, before the first sample, not when the track reaches it.
            try clip.validate()
            let length = clip.duration
            if length == nil && i < items.count - 1 {
                throw .invalidSetting(.audioTrackClip(i + 1), value: "a sound of unknown length",
                                      expected: "a known length for every clip but the last: trim it or loop it to a duration")
            }
            let headRoom = Time.min(halfC, Self.head(of: clip))
            guard i > 0 else {
                let start: Time
                if case .at(let t) = item.placement { start = t } else { start = .zero }
                placed.append(PlacedClip(start: start, playStart: start, playEnd: length.map { start + $0 },
                                         fadeIn: nil, fadeOut: nil, lane: 0))
                continue
            }
            let prev = placed[i - 1]
            let prevEnd = prev.start + items[i - 1].clip.duration!
            let tailRoom = Time.min(halfC, Self.tail(of: items[i - 1].clip))
            var start: Time
            var region: Range<Time>?
            switch item.placement {
            case .afterPrevious:
                var centre = prevEnd + tailRoom - halfC
                if let frameRate { centre = frameRate.time(ofFrame: frameRate.frameIndex(at: centre)) }
                region = (centre - halfC)..<(centre + halfC)
                start = centre - halfC + headRoom
            case .at(let t):
                start = t
                guard !(t < prev.start) else {
                    throw .invalidSetting(.audioTrackClipTime(i + 1), value: "\(t)",
                                          expected: "a time at or after the previous clip's start \(prev.start): place clips in time order")
                }
                if t < prevEnd && c <= prevEnd - t {
                    region = t..<prevEnd
                } else if !(prevEnd < t) {
                    // Touching or a short overlap: centre the crossfade on it, as far as the handles allow.
                    let low = t - headRoom, high = prevEnd + tailRoom
                    let centre = half(t + prevEnd)
                    var lo = Time.max(low, centre - halfC)
                    let hi = Time.min(high, lo + c)
                    lo = Time.max(low, hi - c)
                    if lo < hi { region = lo..<hi }
                }
            }
            placed[i - 1].fadeOut = region
            placed[i - 1].playEnd = region?.upperBound ?? prevEnd
            placed.append(PlacedClip(start: start, playStart: region?.lowerBound ?? start,
                                     playEnd: length.map { start + $0 }, fadeIn: region, fadeOut: nil, lane: i % 2))
        }
        for (i, p) in placed.enumerated() {
            if let fadeIn = p.fadeIn, let fadeOut = p.fadeOut, fadeOut.lowerBound < fadeIn.upperBound {
                throw .invalidSetting(.audioTrackClip(i + 1), value: "\(items[i].clip.duration.map { "\($0)" } ?? "?") long",
                                      expected: "a clip longer than its two crossfades (\(c) each): lengthen it or shorten the crossfade")
            }
            if i >= 2, let end = placed[i - 2].playEnd, p.playStart < end {
                throw .invalidSetting(.audioTrackClip(i), value: "\(items[i - 1].clip.duration.map { "\($0)" } ?? "?") long",
                                      expected: "a clip long enough that its neighbours do not overlap each other: lengthen it or shorten the crossfade")
            }
        }
        return placed
    }

    /// Sound available before a clip's in point (none for loops).
    private static func head(of clip: AudioClip) -> Time {
        clip.loopDuration == nil ? clip.sourceStart : .zero
    }
    /// Sound available after a clip's out point (none for loops or unknown lengths).
    private static func tail(of clip: AudioClip) -> Time {
        guard clip.loopDuration == nil, let end = clip.sourceEnd, let total = clip.source.duration else { return .zero }
        return Time.max(.zero, total - end)
    }
}

/// Half of a time, exactly.
private func half(_ t: Time) -> Time { Time(value: t.value, timescale: t.timescale * 2) }

extension AudioTrack: SeekableAudioSource {
    /// Opens the track with its first sample at track frame `frame`.
    func makeReader(format: AudioFormat, startingAtFrame frame: Int64) throws -> any AudioReader {
        try AudioTrackReader(track: self, format: format, from: frame)
    }
}

/// Plays an `AudioTrack`: two lanes (A, B), each playing its clips in turn; clips open when they start
/// and close when they end.
final class AudioTrackReader: AudioReader {
    let format: AudioFormat

    /// A clip's placement in frames.
    private struct Slot {
        let clip: AudioClip
        /// Track frame of the clip's frame 0 (its in point).
        let start: Int64
        let playStart: Int64
        let playEnd: Int64?
        let fadeIn: (start: Int64, length: Int64)?
        let fadeOut: (start: Int64, length: Int64)?
        let lane: Int

        func gain(at t: Int64, curve: AudioFadeCurve) -> Double {
            var g = 1.0
            if let f = fadeIn, t < f.start + f.length { g *= curve.gain(index: t - f.start, of: f.length) }
            if let f = fadeOut, t >= f.start { g *= curve.gain(index: f.start + f.length - 1 - t, of: f.length) }
            return g
        }
    }

    private let slots: [Slot]
    private let curve: AudioFadeCurve
    private var lanes: [(slot: Int, reader: AudioClipReader)?] = [nil, nil]
    private var nextSlot = 0
    private var position: Int64
    /// The track frame of the first sample read (`willEnd` counts from it).
    private var firstFrame: Int64 = 0
    /// The movie's end, in track frames.
    private var movieEnd: Int64?
    private var scratch: [Float] = []

    init(track: AudioTrack, format: AudioFormat, from start: Int64) throws {
        self.format = format
        curve = track.crossfade.curve
        let placed = try track.layout()
        slots = zip(track.items, placed).map { item, p in
            func range(_ r: Range<Time>?) -> (Int64, Int64)? {
                guard let r else { return nil }
                let a = format.frame(at: r.lowerBound), b = format.frame(at: r.upperBound)
                return b > a ? (a, b - a) : nil
            }
            return Slot(clip: item.clip, start: format.frame(at: p.start), playStart: format.frame(at: p.playStart),
                        playEnd: p.playEnd.map { format.frame(at: $0) }, fadeIn: range(p.fadeIn), fadeOut: range(p.fadeOut), lane: p.lane)
        }
        position = max(start, 0)
        firstFrame = position
        try open(before: position + 1)
    }

    /// Opens the clips that start before track frame `limit`, skipping those already over.
    private func open(before limit: Int64) throws {
        while nextSlot < slots.count, slots[nextSlot].playStart < limit {
            let slot = slots[nextSlot]
            let index = nextSlot
            nextSlot += 1
            if let end = slot.playEnd, end <= position { continue }
            let at = max(position, slot.playStart)
            let head = slot.start - slot.playStart
            let tail = slot.playEnd.map { end in end - slot.start - (slot.clip.duration.map { format.frame(at: $0) } ?? 0) } ?? 0
            let reader = try AudioClipReader(clip: slot.clip, format: format, from: at - slot.start, head: head, tail: tail)
            if let movieEnd { reader.willEnd(atFrame: movieEnd - slot.start - reader.firstFrame) }
            lanes[slot.lane] = (index, reader)
        }
    }

    func willEnd(atFrame frame: Int64) {
        // `frame` counts from this reader's first sample; `movieEnd` and the clips' readers from their own.
        let end = firstFrame + frame
        movieEnd = end
        for case let (index, reader)? in lanes { reader.willEnd(atFrame: end - slots[index].start - reader.firstFrame) }
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount
        var done = 0
        while done < frameCount {
            let n = min(4096, frameCount - done)
            let out = buffer + done * channels
            out.update(repeating: 0, count: n * channels)
            let t0 = position, t1 = position + Int64(n)
            // A lane's next clip never starts before its current one ends (the layout checks), so
            // splitting the block at clip starts keeps each lane reading in order.
            var t = t0
            while t < t1 {
                try open(before: t + 1)
                var u = t1
                if nextSlot < slots.count { u = min(u, max(slots[nextSlot].playStart, t + 1)) }
                for lane in 0..<2 {
                    guard let (index, reader) = lanes[lane] else { continue }
                    let slot = slots[index]
                    let b = min(u, slot.playEnd ?? Int64.max)
                    guard b > t else { continue }
                    try mix(reader, slot: slot, from: t, to: b, into: out + Int(t - t0) * channels)
                    if let end = slot.playEnd, b >= end { lanes[lane] = nil }
                }
                t = u
            }
            position = t1
            done += n
        }
    }

    /// Reads frames [a, b) of a clip and adds them, times its crossfade gains, into `out`.
    private func mix(_ reader: any AudioReader, slot: Slot, from a: Int64, to b: Int64, into out: UnsafeMutablePointer<Float>) throws {
        let channels = format.channelCount
        let count = Int(b - a)
        if scratch.count < count * channels { scratch = [Float](repeating: 0, count: count * channels) }
        try scratch.withUnsafeMutableBufferPointer { s in
            try reader.read(into: s.baseAddress!, frameCount: count)
            let fading = (slot.fadeIn.map { a < $0.start + $0.length } ?? false) || (slot.fadeOut.map { b > $0.start } ?? false)
            if fading {
                for i in 0..<count {
                    let g = Float(slot.gain(at: a + Int64(i), curve: curve))
                    for c in 0..<channels { out[i * channels + c] += g * s[i * channels + c] }
                }
            } else {
                for i in 0..<(count * channels) { out[i] += s[i] }
            }
        }
    }
}

import Foundation

/// A sound with edits: a part of any `AudioSource` (trimmed by source in and out points), its gain in
/// decibels, fades in and out with a curve, volume changes by keyframes (like AVFoundation's volume
/// ramps), looping to fill a duration, and a fade-out where the movie ends.
///
/// It is a value: each editing method comes in a mutating form (`trim(from:to:)`) and one returning an
/// edited copy (`trimmed(from:to:)`). All positions become whole sample frames through
/// `AudioFormat.frame(at:)` from exact `Time`s, so edits are sample-exact at any rate.
///
/// The gain applied to sample frame `n` of the clip is the product of: the gain in dB, the fade-in,
/// the fade-out, the volume keyframes at `n / rate` seconds, and the movie-end fade.
public struct AudioClip: AudioSource {
    /// The sound being edited.
    public var source: any AudioSource
    /// Where in the source the clip starts (its in point).
    public var sourceStart: Time = .zero
    /// Where in the source the clip ends (its out point); nil plays to the source's end.
    public var sourceEnd: Time?
    /// Gain in decibels (−6 halves the amplitude, +6 doubles it).
    public var gainDecibels: Double = 0
    /// The fade at the clip's start, if any: the first sample is silent.
    public var fadeIn: AudioFade?
    /// The fade at the clip's end, if any: the last sample is silent.
    public var fadeOut: AudioFade?
    /// Volume (a linear multiplier) over the clip's time in seconds; nil is 1 throughout. Before its first
    /// keyframe it holds the first value, after its last keyframe the last.
    public var volume: KeyframeTrack<Double>?
    /// When set, the trimmed part repeats until the clip lasts this long (see `loop(toFill:crossfade:curve:)`).
    public var loopDuration: Time?
    /// The crossfade at each loop join (at least 10 ms).
    public var loopCrossfade = AudioFade(duration: Time(value: 1, timescale: 50))
    /// The fade-out over the movie's last seconds when the clip runs past the movie's end.
    public var movieEndFade: AudioFade?

    /// A clip of all of `source`.
    public init(_ source: any AudioSource) {
        self.source = source
    }

    /// A clip of the sound file at `url` (probed at once, see `AudioFile`).
    public init(url: URL) throws(MovieMakerError) {
        self.init(try AudioFile(url: url))
    }

    /// The shortest crossfade that does not click: 10 ms.
    package static let minimumCrossfade = Time(value: 1, timescale: 100)

    /// How long the trimmed part of the source lasts; nil when the source's length is unknown and no
    /// out point is set.
    package var trimmedDuration: Time? {
        let ends = [sourceEnd, source.duration].compactMap { $0 }
        guard let end = ends.min() else { return nil }
        return Time.max(.zero, end - sourceStart)
    }

    /// Whether the clip only changes its source's gain (no trim, fade, volume keyframes, loop or end fade).
    package var isGainOnly: Bool {
        sourceStart == .zero && sourceEnd == nil && fadeIn == nil && fadeOut == nil && volume == nil
            && loopDuration == nil && movieEndFade == nil
    }

    /// When the clip loops, the time from one repeat's in point to the next: the trimmed part's length,
    /// less the crossfade when the source has no sound before the in point to start a repeat early with
    /// (see `loop(toFill:crossfade:curve:)`); nil when it does not loop or its length is unknown.
    public var loopPeriod: Time? {
        guard loopDuration != nil, let trimmed = trimmedDuration else { return nil }
        return trimmed - (loopCrossfade.duration - Time.min(sourceStart, loopCrossfade.duration))
    }

    /// How long the clip lasts: the loop duration when looping, else the trimmed part's length.
    public var duration: Time? { loopDuration ?? trimmedDuration }

    /// How far before the movie's end the clip wants to be told where that end is.
    public var endFadeDuration: Time { movieEndFade?.duration ?? .zero }

    // MARK: Editing

    /// Keeps the part of the source from `start` to `end` (source times; nil: to the source's end).
    public mutating func trim(from start: Time, to end: Time? = nil) {
        sourceStart = start
        sourceEnd = end
    }
    /// A copy keeping the part of the source from `start` to `end` (source times; nil: to its end).
    public func trimmed(from start: Time, to end: Time? = nil) -> AudioClip {
        var copy = self; copy.trim(from: start, to: end); return copy
    }

    /// Changes the gain by `decibels` (−6 dB halves the amplitude).
    public mutating func amplify(by decibels: Double) { gainDecibels += decibels }
    /// A copy with the gain changed by `decibels`.
    public func amplified(by decibels: Double) -> AudioClip {
        var copy = self; copy.amplify(by: decibels); return copy
    }

    /// Fades in from silence over the first `duration` of the clip.
    public mutating func fadeIn(over duration: Time, curve: AudioFadeCurve = .equalPower) {
        fadeIn = AudioFade(duration: duration, curve: curve)
    }
    /// A copy that fades in over its first `duration`.
    public func fadedIn(over duration: Time, curve: AudioFadeCurve = .equalPower) -> AudioClip {
        var copy = self; copy.fadeIn(over: duration, curve: curve); return copy
    }

    /// Fades out to silence over the last `duration` of the clip (its length must be known).
    public mutating func fadeOut(over duration: Time, curve: AudioFadeCurve = .equalPower) {
        fadeOut = AudioFade(duration: duration, curve: curve)
    }
    /// A copy that fades out over its last `duration`.
    public func fadedOut(over duration: Time, curve: AudioFadeCurve = .equalPower) -> AudioClip {
        var copy = self; copy.fadeOut(over: duration, curve: curve); return copy
    }

    /// Sets the volume to `value` (a factor of the amplitude: 0.5 is half, 1 as recorded) from `time`
    /// (clip time) on, until the next volume change, like AVFoundation's `setVolume(_:at:)`. Before the
    /// first change the volume is 1.
    public mutating func setVolume(_ value: Double, at time: Time) {
        var track = volume ?? KeyframeTrack(1.0, at: 0)
        track.add(Keyframe(time: time, value: value, easing: .hold))
        volume = track
    }
    /// A copy whose volume is `value` from `time` on.
    public func withVolume(_ value: Double, at time: Time) -> AudioClip {
        var copy = self; copy.setVolume(value, at: time); return copy
    }

    /// Ramps the volume linearly from `fromStartVolume` at the start of `timeRange` (clip time) to
    /// `toEndVolume` at its end, holding the end volume after it, like AVFoundation's
    /// `setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`. Before the first ramp the volume is 1.
    public mutating func setVolumeRamp(fromStartVolume: Double, toEndVolume: Double, timeRange: Range<Time>) {
        var track = volume ?? KeyframeTrack(1.0, at: 0)
        track.add(Keyframe(time: timeRange.lowerBound, value: fromStartVolume, easing: .hold))
        track.add(Keyframe(time: timeRange.upperBound, value: toEndVolume, easing: .linear))
        volume = track
    }
    /// A copy with a volume ramp (see `setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`).
    public func withVolumeRamp(fromStartVolume: Double, toEndVolume: Double, timeRange: Range<Time>) -> AudioClip {
        var copy = self
        copy.setVolumeRamp(fromStartVolume: fromStartVolume, toEndVolume: toEndVolume, timeRange: timeRange)
        return copy
    }

    /// Repeats the trimmed part until the clip lasts `duration` exactly. Each repeat starts `crossfade`
    /// before the previous one ends and the two crossfade with `curve`, so joins do not click. When the
    /// source has at least `crossfade` of sound before the in point, a repeat starts that much early
    /// and reaches its in point exactly one trimmed length after the previous one: the loop keeps its
    /// period. Otherwise each repeat comes `crossfade` early (the period shortens by it).
    public mutating func loop(toFill duration: Time, crossfade: Time = Time(value: 1, timescale: 50),
                              curve: AudioFadeCurve = .equalPower) {
        loopDuration = duration
        loopCrossfade = AudioFade(duration: crossfade, curve: curve)
    }
    /// A copy that loops to fill `duration` (see `loop(toFill:crossfade:curve:)`).
    public func looped(toFill duration: Time, crossfade: Time = Time(value: 1, timescale: 50),
                       curve: AudioFadeCurve = .equalPower) -> AudioClip {
        var copy = self; copy.loop(toFill: duration, crossfade: crossfade, curve: curve); return copy
    }

    /// When the clip runs past the movie's end, fades it out over the movie's last `duration` (the
    /// movie tells the reader where it ends, see `AudioReader.willEnd(atFrame:)`).
    public mutating func fadeOutAtMovieEnd(over duration: Time, curve: AudioFadeCurve = .equalPower) {
        movieEndFade = AudioFade(duration: duration, curve: curve)
    }
    /// A copy that fades out over the movie's last `duration` when it runs past the movie's end.
    public func fadedOutAtMovieEnd(over duration: Time, curve: AudioFadeCurve = .equalPower) -> AudioClip {
        var copy = self; copy.fadeOutAtMovieEnd(over: duration, curve: curve); return copy
    }

    // MARK: Reading

    /// Opens the source (a file is opened and checked here) for one render in `format`.
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try AudioClipReader(clip: self, format: format, from: 0, head: 0, tail: 0)
    }

    /// Checks the edits; throws `.invalidSetting` naming the bad one.
    func validate() throws(MovieMakerError) {
        if sourceStart < .zero {
            throw .invalidSetting(.audioClipInPoint, value: "\(sourceStart)", expected: "a time ≥ 0 in the source")
        }
        if let sourceEnd, !(sourceStart < sourceEnd) {
            throw .invalidSetting(.audioClipOutPoint, value: "\(sourceEnd)", expected: "a time after the in point \(sourceStart)")
        }
        guard gainDecibels.isFinite else {
            throw .invalidSetting(.audioClipGain, value: "\(gainDecibels) dB", expected: "a finite number of decibels, e.g. -6")
        }
        for (key, fade) in [(SettingKey.audioClipFadeIn, fadeIn), (.audioClipFadeOut, fadeOut), (.audioClipMovieEndFade, movieEndFade)] {
            if let fade, fade.duration < .zero {
                throw .invalidSetting(key, value: "\(fade.duration)", expected: "a duration ≥ 0")
            }
        }
        if fadeOut != nil && duration == nil {
            throw .invalidSetting(.audioClipFadeOut, value: "on a sound of unknown length",
                                  expected: "a clip with a known end: trim it (trim(from:to:)) or loop it to a duration")
        }
        if let loopDuration {
            guard loopDuration >= .zero else {
                throw .invalidSetting(.audioLoopDuration, value: "\(loopDuration)", expected: "a duration ≥ 0")
            }
            guard let length = trimmedDuration else {
                throw .invalidSetting(.audioLoop, value: "a sound of unknown length",
                                      expected: "a source with a known duration, or an out point (trim(from:to:))")
            }
            guard loopCrossfade.duration >= Self.minimumCrossfade else {
                throw .invalidSetting(.audioLoopCrossfade, value: "\(loopCrossfade.duration)", expected: "at least 10 ms (0.01 s), so joins do not click")
            }
            guard loopCrossfade.duration * 2 < length else {
                throw .invalidSetting(.audioLoopCrossfade, value: "\(loopCrossfade.duration) on a loop of \(length)",
                                      expected: "less than half the looped part: shorten the crossfade or loop a longer part")
            }
        }
    }
}

extension AudioClip: SeekableAudioSource {
    /// Opens the clip with its first sample at clip frame `frame`.
    func makeReader(format: AudioFormat, startingAtFrame frame: Int64) throws -> any AudioReader {
        try AudioClipReader(clip: self, format: format, from: frame, head: 0, tail: 0)
    }
}

// MARK: - Starting part-way

/// A source that can start reading part-way in without producing what comes before (files seek;
/// clips and tracks open their parts at the right offsets).
protocol SeekableAudioSource: AudioSource {
    /// A reader whose first sample is the source's frame `frame` (≥ 0).
    func makeReader(format: AudioFormat, startingAtFrame frame: Int64) throws -> any AudioReader
}

extension AudioSource {
    /// A reader whose first sample is this source's frame `frame`: seeks when the source can, reads
    /// and discards otherwise; a negative `frame` gives that much silence first.
    package func makeReader(format: AudioFormat, from frame: Int64) throws -> any AudioReader {
        if frame < 0 { return SilencePrefixReader(try makeReader(format: format), silence: -frame) }
        if frame == 0 { return try makeReader(format: format) }
        if let seekable = self as? any SeekableAudioSource { return try seekable.makeReader(format: format, startingAtFrame: frame) }
        let reader = try makeReader(format: format)
        var scratch = [Float](repeating: 0, count: 4096 * format.channelCount)
        var left = frame
        while left > 0 {
            let n = Int(min(left, 4096))
            try scratch.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frameCount: n) }
            left -= Int64(n)
        }
        return SkippedPrefixReader(reader, skipped: frame)
    }
}

/// A reader that was read `skipped` frames into before it was handed on: its frames count from there,
/// as a seeking reader's do, so an end it is told is moved back into the inner reader's frames.
final class SkippedPrefixReader: AudioReader {
    private let inner: any AudioReader
    private let skipped: Int64
    var format: AudioFormat { inner.format }
    init(_ inner: any AudioReader, skipped: Int64) { self.inner = inner; self.skipped = skipped }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws { try inner.read(into: buffer, frameCount: frameCount) }
    func willEnd(atFrame frame: Int64) { inner.willEnd(atFrame: frame + skipped) }
}

/// `silence` frames of silence, then another reader's sound.
final class SilencePrefixReader: AudioReader {
    private let inner: any AudioReader
    /// The frame the inner reader's first sample plays at.
    private let offset: Int64
    /// Silent frames still to come.
    private var silence: Int64
    var format: AudioFormat { inner.format }
    init(_ inner: any AudioReader, silence: Int64) { self.inner = inner; self.offset = silence; self.silence = silence }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let quiet = Int(min(Int64(frameCount), silence))
        buffer.update(repeating: 0, count: quiet * format.channelCount)
        silence -= Int64(quiet)
        if frameCount > quiet { try inner.read(into: buffer + quiet * format.channelCount, frameCount: frameCount - quiet) }
    }
    func willEnd(atFrame frame: Int64) { inner.willEnd(atFrame: frame - offset) }
}

// MARK: - The clip's reader

/// One stretch of the source inside a clip: the whole trimmed part, or one repeat of a loop.
private final class ClipSegment {
    /// Clip frames [start, end) it plays.
    let start: Int64
    let end: Int64
    /// Its crossfade with the previous repeat: frames [start, start + fadeInLength).
    let fadeInLength: Int64
    /// Its crossfade with the next repeat: frames [end − fadeOutLength, end).
    let fadeOutLength: Int64
    let curve: AudioFadeCurve
    let reader: any AudioReader
    /// The clip frame the reader delivers next.
    var cursor: Int64

    init(start: Int64, end: Int64, fadeIn: Int64, fadeOut: Int64, curve: AudioFadeCurve, reader: any AudioReader, cursor: Int64) {
        self.start = start; self.end = end
        self.fadeInLength = fadeIn; self.fadeOutLength = fadeOut
        self.curve = curve; self.reader = reader; self.cursor = cursor
    }

    /// The crossfade gain at clip frame `t`.
    func gain(at t: Int64) -> Double {
        var g = 1.0
        if fadeInLength > 0 && t < start + fadeInLength { g *= curve.gain(index: t - start, of: fadeInLength) }
        if fadeOutLength > 0 && t >= end - fadeOutLength { g *= curve.gain(index: end - 1 - t, of: fadeOutLength) }
        return g
    }
    var hasFades: Bool { fadeInLength > 0 || fadeOutLength > 0 }
}

/// Plays an `AudioClip`: opens the source (one reader, or one per loop repeat, at most two at a time),
/// and applies the clip's gains. `head`/`tail` extend the clip by source sound before its in point and
/// after its out point (the handles a track's crossfades use).
final class AudioClipReader: AudioReader {
    let format: AudioFormat
    private let clip: AudioClip
    /// The clip frame the next read delivers.
    private(set) var position: Int64
    /// Frames from here on are silent: the clip's end plus its tail (nil: the source decides).
    private let stop: Int64?
    /// The clip's length in frames, when known.
    private let length: Int64?
    private let baseGain: Double
    private let fadeInFrames: Int64
    private let fadeOutFrames: Int64
    /// The clip frame of the first sample read: `willEnd` counts from it, as `AudioReader` says.
    private(set) var firstFrame: Int64 = 0
    /// Movie end: silence from `movieEnd`, fading over [movieEndFadeStart, movieEnd).
    private var movieEnd: Int64?
    private var movieEndFadeStart: Int64 = 0

    // Sources.
    private let sourceIn: Int64
    private let head: Int64
    private let loop: (segment: Int64, crossfade: Int64, preroll: Int64)?
    private var segments: [ClipSegment] = []
    /// The next loop repeat to open (or 1 after the single segment of a clip that does not loop).
    private var nextRepeat = 0
    private var scratch: [Float] = []
    private var gains: [Double] = []

    init(clip: AudioClip, format: AudioFormat, from start: Int64, head: Int64, tail: Int64) throws {
        try clip.validate()
        self.clip = clip
        self.format = format
        sourceIn = format.frame(at: clip.sourceStart)
        length = clip.duration.map { format.frame(at: $0) }
        baseGain = pow(10, clip.gainDecibels / 20)
        fadeInFrames = clip.fadeIn.map { format.frame(at: $0.duration) } ?? 0
        fadeOutFrames = clip.fadeOut.map { format.frame(at: $0.duration) } ?? 0
        if clip.loopDuration != nil, let trimmed = clip.trimmedDuration {
            let s = format.frame(at: clip.sourceStart + trimmed) - sourceIn
            let c = format.frame(at: clip.loopCrossfade.duration)
            loop = (s, c, min(sourceIn, c))
            self.head = 0
            stop = length
        } else {
            loop = nil
            self.head = max(0, head)
            stop = length.map { $0 + max(0, tail) }
        }
        position = max(start, -self.head)
        firstFrame = position
        try openSegments(before: position + 1)
    }

    /// Loop repeat `k`: clip frames [start, end), the source frame at its start, its fades.
    private func loopRepeat(_ k: Int) -> (start: Int64, end: Int64, sourceFrame: Int64, fadeIn: Int64, fadeOut: Int64)? {
        guard let loop, let length else { return nil }
        let (s, c, pre) = loop
        let period = s + pre - c
        let start: Int64 = k == 0 ? 0 : s - c + Int64(k - 1) * period
        guard start < length else { return nil }
        let end = start + (k == 0 ? s : s + pre)
        let nextStart = end - c
        let last = nextStart >= length
        return (start, min(end, length), k == 0 ? sourceIn : sourceIn - pre, k == 0 ? 0 : c, last ? 0 : c)
    }

    /// Opens every segment that starts before clip frame `limit` and has not been opened, at the
    /// offset `position` requires.
    private func openSegments(before limit: Int64) throws {
        if loop == nil {
            guard nextRepeat == 0 else { return }
            nextRepeat = 1
            let end = stop ?? Int64.max
            guard position < end else { return }
            let reader = try clip.source.makeReader(format: format, from: sourceIn + position)
            segments.append(ClipSegment(start: -head, end: end, fadeIn: 0, fadeOut: 0, curve: .linear, reader: reader, cursor: position))
            return
        }
        while let r = loopRepeat(nextRepeat), r.start < limit {
            nextRepeat += 1
            guard r.end > position else { continue }
            let at = max(position, r.start)
            let reader = try clip.source.makeReader(format: format, from: r.sourceFrame + (at - r.start))
            segments.append(ClipSegment(start: r.start, end: r.end, fadeIn: r.fadeIn, fadeOut: r.fadeOut,
                                        curve: clip.loopCrossfade.curve, reader: reader, cursor: at))
        }
    }

    func willEnd(atFrame frame: Int64) {
        guard let fade = clip.movieEndFade else { return }
        let n = format.frame(at: fade.duration)
        let end = firstFrame + frame
        movieEnd = end
        movieEndFadeStart = max(end - n, position)
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount
        var done = 0
        while done < frameCount {
            let n = min(4096, frameCount - done)
            let out = buffer + done * channels
            out.update(repeating: 0, count: n * channels)
            let t0 = position
            var t1 = t0 + Int64(n)
            if let stop { t1 = min(t1, stop) }
            if let movieEnd { t1 = min(t1, movieEnd) }
            if t1 > t0 {
                try render(into: out, from: t0, to: t1)
            } else {
                segments.removeAll()
            }
            position += Int64(n)
            done += n
        }
    }

    /// Mixes the segments playing in clip frames [t0, t1) into `out` and applies the clip's gains.
    private func render(into out: UnsafeMutablePointer<Float>, from t0: Int64, to t1: Int64) throws {
        let channels = format.channelCount
        try openSegments(before: t1)
        let count = Int(t1 - t0)
        if scratch.count < count * channels { scratch = [Float](repeating: 0, count: count * channels) }
        for segment in segments where segment.start < t1 && segment.end > t0 {
            let a = max(t0, segment.start), b = min(t1, segment.end)
            guard b > a, segment.cursor == a else { continue }
            let k = Int(b - a)
            try scratch.withUnsafeMutableBufferPointer { s in
                try segment.reader.read(into: s.baseAddress!, frameCount: k)
                let dst = out + Int(a - t0) * channels
                if segment.hasFades {
                    for i in 0..<k {
                        let g = Float(segment.gain(at: a + Int64(i)))
                        for c in 0..<channels { dst[i * channels + c] += g * s[i * channels + c] }
                    }
                } else {
                    for i in 0..<(k * channels) { dst[i] += s[i] }
                }
            }
            segment.cursor = b
        }
        segments.removeAll { $0.end <= t1 }
        applyGains(to: out, from: t0, to: t1)
    }

    /// Multiplies clip frames [t0, t1) by the clip's gain, fades, volume and movie-end fade.
    private func applyGains(to out: UnsafeMutablePointer<Float>, from t0: Int64, to t1: Int64) {
        let fadingIn = fadeInFrames > 0 && t0 < fadeInFrames
        var fadingOut = false
        if fadeOutFrames > 0, let length { fadingOut = t1 > length - fadeOutFrames }
        let endFading = movieEnd != nil && t1 > movieEndFadeStart
        if !fadingIn && !fadingOut && !endFading && clip.volume == nil && baseGain == 1 { return }
        let channels = format.channelCount
        let rate = Double(format.sampleRate)
        let inCurve = clip.fadeIn?.curve ?? .linear, outCurve = clip.fadeOut?.curve ?? .linear
        let endCurve = clip.movieEndFade?.curve ?? .linear
        for i in 0..<Int(t1 - t0) {
            let t = t0 + Int64(i)
            var g = baseGain
            if fadingIn { g *= inCurve.gain(index: t, of: fadeInFrames) }
            if fadingOut, let length { g *= outCurve.gain(index: length - 1 - t, of: fadeOutFrames) }
            if let volume = clip.volume { g *= volume.value(at: Double(t) / rate) }
            if endFading, let movieEnd, t >= movieEndFadeStart {
                g *= endCurve.gain(index: movieEnd - 1 - t, of: movieEnd - movieEndFadeStart)
            }
            let f = Float(g)
            for c in 0..<channels { out[i * channels + c] *= f }
        }
    }
}

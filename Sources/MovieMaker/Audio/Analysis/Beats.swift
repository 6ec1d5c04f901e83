internal import CAubio
import Foundation
import Synchronization

/// A piece of music's beats and tempo, found by aubio: what cuts on the beat snap to.
///
/// aubio's beat tracker follows the tempo on 11.6 ms hops; each beat is then placed on the onset aubio's
/// onset detectors find within 50 ms of it (2.9 ms hops), which is where the drum hit or click that
/// makes the beat starts: one detector weighs high frequencies (clicks, snares, hi-hats), the other
/// loudness (a low kick drum, which has almost nothing high, as an 808's). Beats before the tracker has
/// settled (its first second or two), and after its last (it lags the sound), are filled in at the
/// tempo where onsets are there to hold them.
public struct Beats: Sendable, Hashable, Codable {
    /// The beats' times from the sound's first sample, in order, exact to the analysis sample (1/44100 s),
    /// the time music is played in (`--music`, a description's `music` item). For a video whose sound
    /// starts after its picture, add `VideoFile.audioOffset` to place them on the picture.
    public let times: [Time]
    /// The tempo in beats per minute, from the beats' spacing (a least-squares fit over all of them);
    /// 0 when fewer than two beats were found, or the sound has no steady pulse (a held tone, noise:
    /// then `times` is empty too).
    public let tempo: Double

    /// Beats at `times` (sorted here) with `tempo`.
    public init(times: [Time], tempo: Double) {
        self.times = times.sorted(); self.tempo = tempo
    }

    /// The sample rate the sound is analysed at.
    static let sampleRate = 44_100
    /// The tempo tracker's window and hop (aubio's defaults for music).
    static let window = 1024, hop = 512
    /// The onset detector's window and hop: four onset hops per tracker hop.
    static let onsetWindow = 512, onsetHop = 128
    /// How far from the tracker's beat an onset may be and still be the beat.
    static let snap = 0.05

    /// Finds the beats of the sound file at `url` (any file FFmpeg reads: MP3, AAC, WAV, FLAC, a video's
    /// sound). Reads the whole sound once, in blocks (memory does not grow with its length beyond the
    /// beat and onset lists). Throws `.audioUnreadable` or `.noAudioStream` for a file without usable
    /// sound, `.cancelled` when `cancellation` is cancelled.
    public init(analysing url: URL, cancellation: CancellationToken? = nil) throws(MovieMakerError) {
        let sound = try AnalysedSound(url, format: AudioFormat(sampleRate: Self.sampleRate, channelCount: 1))
        let analysis = try Analysis()
        var block = [Float](repeating: 0, count: Self.hop)
        var position: Int64 = 0
        var blocks = 0
        while position < sound.frames {
            blocks += 1
            if blocks % 256 == 0, cancellation?.isCancelled == true { throw .cancelled }
            try sound.read(into: &block)
            analysis.feed(block)
            position += Int64(Self.hop)
        }
        // aubio's tracker keeps ticking through sound with no pulse (a held tone, noise), at a tempo it
        // makes up; its confidence says so: at most 0.02 for a tone, pink or brown noise, from 0.1 for a
        // kick drum under noise as loud, and above 1 for ordinary music.
        guard analysis.confidence >= Self.minimumConfidence else {
            self = Beats(times: [], tempo: 0)
            return
        }
        self = Self.placed(beats: analysis.beats, onsets: analysis.onsets)
    }

    /// The tracker confidence below which a sound has no steady beat.
    static let minimumConfidence = 0.05

    /// Why aubio may have found no tempo in the sound at `url`, for messages: too short (its tempo
    /// tracker needs about 4.5 s of music before it settles), or no pulse.
    package static func noTempoReason(_ url: URL) -> String {
        if let length = (try? AudioFile(url: url))?.duration, length < 5 {
            return String(format: "it lasts %.1f s, too short for aubio to find a tempo (it needs about 5 s of music)", length.seconds)
        }
        return "aubio found no tempo: a held tone, speech or ambient sound?"
    }

    /// The tracker's beats (samples) placed on the onsets near them, the early beats filled in, and the
    /// tempo fitted.
    static func placed(beats tracked: [Int64], onsets: [Int64]) -> Beats {
        let rate = Double(sampleRate)
        let reach = Int64(snap * rate)
        /// The onset nearest `t` within `reach`, if any.
        func onset(near t: Int64) -> Int64? {
            var lo = 0, hi = onsets.count
            while lo < hi { let mid = (lo + hi) / 2; if onsets[mid] < t { lo = mid + 1 } else { hi = mid } }
            let candidates = [lo - 1, lo].filter { onsets.indices.contains($0) }.map { onsets[$0] }
            return candidates.filter { abs($0 - t) <= reach }.min { abs($0 - t) < abs($1 - t) }
        }
        var beats: [Int64] = []
        var snapped = 0
        let placements = tracked.map { b in (b, onset(near: b)) }
        // Music with clear onsets (most beats on one): a beat with no onset near it is the tracker
        // drifting between hits, not a beat anyone hears; it is left out.
        let onsetRich = placements.filter { $0.1 != nil }.count * 2 >= max(1, placements.count)
        for (b, near) in placements {
            if near == nil && onsetRich { continue }
            let placed = near ?? b
            if near != nil { snapped += 1 }
            if let last = beats.last, placed <= last { continue }
            beats.append(placed)
        }
        _ = snapped
        guard beats.count >= 2 else { return Beats(times: beats.map { Time(value: $0, timescale: Int64(sampleRate)) }, tempo: 0) }
        let intervals = zip(beats.dropFirst(), beats).map { $0 - $1 }.sorted()
        let period = intervals[intervals.count / 2]
        // Fill in the gaps the tracker left, a period at a time from each beat, where an onset is there:
        // its period is whole hops (11.6 ms), so on a steady track its beats drift off the hits until
        // none is within reach of one, and drop out for seconds before it locks on again.
        var filled = [beats[0]]
        for next in beats.dropFirst() {
            var t = filled[filled.count - 1] + period
            while next - t > period / 2 {
                if let o = onset(near: t), o - filled[filled.count - 1] > period / 2, next - o > period / 2 {
                    filled.append(o)
                    t = o + period
                } else {
                    t += period
                }
            }
            filled.append(next)
        }
        beats = filled
        // Fill in before the first beat, a period at a time, while an onset is there.
        var t = beats[0] - period
        while t > -reach, let o = onset(near: t), o < beats[0] - period / 2 {
            beats.insert(max(0, o), at: 0)
            t = o - period
        }
        // And after the last one: the tracker's beats lag the sound, so the song's last ones never come.
        t = beats[beats.count - 1] + period
        while let o = onset(near: t), o > beats[beats.count - 1] + period / 2 {
            beats.append(o)
            t = o + period
        }
        // The tempo: a least-squares line through (beat number, time), numbering by the median period
        // so a beat the tracker skipped does not halve the estimate.
        let first = Double(beats[0]), p = Double(period)
        let k = beats.map { ((Double($0) - first) / p).rounded() }
        let y = beats.map(Double.init)
        let n = Double(beats.count)
        let sk = k.reduce(0, +), sy = y.reduce(0, +)
        let skk = k.map { $0 * $0 }.reduce(0, +), sky = zip(k, y).map { $0 * $1 }.reduce(0, +)
        let slope = (n * sky - sk * sy) / (n * skk - sk * sk)
        let tempo = slope > 0 && slope.isFinite ? 60 * rate / slope : 0
        return Beats(times: beats.map { Time(value: $0, timescale: Int64(sampleRate)) }, tempo: tempo)
    }

    /// The beats of the music looped: the beats in `[start, start + period)` (one repeat of the looped
    /// part, `AudioClip.loopPeriod` long) again `period` later, and again, up to `end`; the beats before
    /// `start + period` as they are. A looped song's repeats come a crossfade early when it loops from its
    /// first sample, so cuts on beats past its end follow the repeats rather than the tempo alone.
    public func repeating(from start: Time = .zero, every period: Time, until end: Time) -> Beats {
        guard period > .zero else { return self }
        let first = times.filter { $0 < start + period }
        let looped = first.filter { $0 >= start }
        var all = first
        var shift = period
        while let earliest = looped.first, earliest + shift < end {
            all += looped.map { $0 + shift }.filter { $0 < end }
            shift = shift + period
        }
        return Beats(times: all, tempo: tempo)
    }

    /// The times to cut at between `start` and `end` (exclusive): every `every`-th beat (the first one
    /// counted from the first beat at or after `start`), skipping beats closer than `minimumShot` to
    /// the previous cut (or to `start`).
    public func cuts(from start: Time = .zero, to end: Time, every: Int = 1, minimumShot: Time = .zero) -> [Time] {
        precondition(every >= 1, "every must be 1 or more, got \(every)")
        var cuts: [Time] = []
        var previous = start
        var counted = 0
        for t in times where t > start && t < end {
            defer { counted += 1 }
            guard counted % every == 0 else { continue }
            guard t - previous >= minimumShot else { continue }
            cuts.append(t)
            previous = t
        }
        return cuts
    }
}

extension Beats {
    /// The beats of `url`, analysed once per process while the file keeps its size and modification
    /// time (a template batch cutting forty movies on one song analyses it once).
    package static func analysed(_ url: URL) throws(MovieMakerError) -> Beats {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let key = "\(url.standardizedFileURL.path)|\((attributes?[.size] as? NSNumber)?.int64Value ?? -1)|\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if let known = cache.withLock({ $0.first { $0.key == key }?.beats }) { return known }
        let beats = try Beats(analysing: url)
        cache.withLock { cache in
            cache.removeAll { $0.key == key }
            cache.insert((key, beats), at: 0)
            if cache.count > 8 { cache.removeLast(cache.count - 8) }
        }
        return beats
    }

    /// The last few analyses, most recent first.
    private static let cache = Mutex<[(key: String, beats: Beats)]>([])
}

/// aubio's tempo tracker and onset detector, fed a mono 44.1 kHz sound a hop at a time. Owns its aubio
/// objects and frees them.
private final class Analysis {
    private let tempo: OpaquePointer        // owned aubio_tempo_t
    private let onset: OpaquePointer        // owned aubio_onset_t, "hfc": high-frequency hits
    private let lowOnset: OpaquePointer     // owned aubio_onset_t, "energy": hits of any pitch, low kicks too
    private let input: UnsafeMutablePointer<fvec_t>         // owned, Beats.hop samples
    private let onsetInput: UnsafeMutablePointer<fvec_t>    // owned, Beats.onsetHop samples
    private let output: UnsafeMutablePointer<fvec_t>        // owned, 2 values
    private let onsetOutput: UnsafeMutablePointer<fvec_t>   // owned, 1 value
    private var lastBeat: uint_t = 0
    /// The last onset each detector reported (hfc, energy).
    private var lastOnsets: [Int64] = [-1, -1]
    /// The most recent samples (a ring of `historyLength`), for placing onsets on the sample.
    private var history = [Float](repeating: 0, count: Analysis.historyLength)
    /// How many samples have been fed.
    private var fed: Int64 = 0
    static let historyLength = 8192
    /// How far around aubio's onset its attack is looked for: ±8.7 ms.
    static let attackReach: Int64 = 384
    /// How close the two detectors' onsets are to be one hit: 20 ms.
    static let sameHit: Int64 = 882
    /// The beats found so far, in samples from the start.
    private(set) var beats: [Int64] = []
    /// The onsets each detector found so far (attacks, in samples from the start, in order).
    private var highOnsets: [Int64] = [], lowOnsets: [Int64] = []
    /// The hits heard: every high-frequency onset, and the loudness onsets not within `sameHit` of one
    /// (the high-frequency detector places a hit it hears more closely), in order.
    var onsets: [Int64] {
        var merged = highOnsets
        var i = 0
        for low in lowOnsets {
            while i < highOnsets.count && highOnsets[i] < low - Self.sameHit { i += 1 }
            if i < highOnsets.count && highOnsets[i] <= low + Self.sameHit { continue }
            merged.append(low)
        }
        return merged.sorted()
    }
    /// The tracker's highest confidence in its tempo at any beat (aubio's, 0 when it heard no pulse).
    private(set) var confidence = 0.0

    init() throws(MovieMakerError) {
        let rate = uint_t(Beats.sampleRate)
        guard let tempo = new_aubio_tempo("default", uint_t(Beats.window), uint_t(Beats.hop), rate) else {
            throw .audioUnreadable(path: "aubio", reason: "aubio could not make its tempo tracker")
        }
        guard let onset = new_aubio_onset("hfc", uint_t(Beats.onsetWindow), uint_t(Beats.onsetHop), rate) else {
            del_aubio_tempo(tempo)
            throw .audioUnreadable(path: "aubio", reason: "aubio could not make its onset detector")
        }
        guard let lowOnset = new_aubio_onset("energy", uint_t(Beats.onsetWindow), uint_t(Beats.onsetHop), rate) else {
            del_aubio_tempo(tempo); del_aubio_onset(onset)
            throw .audioUnreadable(path: "aubio", reason: "aubio could not make its onset detector")
        }
        // At aubio's default threshold (0.3) the loudness detector also fires on a hi-hat's noise and a
        // bass note's swell, tens of milliseconds before the hit; at 1.5 it keeps the kicks alone.
        aubio_onset_set_threshold(lowOnset, 1.5)
        self.tempo = tempo; self.onset = onset; self.lowOnset = lowOnset
        input = new_fvec(uint_t(Beats.hop)); onsetInput = new_fvec(uint_t(Beats.onsetHop))
        output = new_fvec(2); onsetOutput = new_fvec(1)
    }

    deinit {
        del_aubio_tempo(tempo); del_aubio_onset(onset); del_aubio_onset(lowOnset)
        del_fvec(input); del_fvec(onsetInput); del_fvec(output); del_fvec(onsetOutput)
    }

    /// Analyses the next `Beats.hop` samples.
    func feed(_ samples: [Float]) {
        for i in 0..<Beats.hop {
            input.pointee.data[i] = samples[i]
            history[Int((fed + Int64(i)) % Int64(Self.historyLength))] = samples[i]
        }
        fed += Int64(Beats.hop)
        aubio_tempo_do(tempo, input, output)
        // A beat moves `last`; the output value is only the beat's fraction of a hop, which can be 0.
        let beat = aubio_tempo_get_last(tempo)
        if beat != lastBeat {
            lastBeat = beat; beats.append(Int64(beat))
            confidence = max(confidence, Double(aubio_tempo_get_confidence(tempo)))
        }
        for part in 0..<(Beats.hop / Beats.onsetHop) {
            for i in 0..<Beats.onsetHop { onsetInput.pointee.data[i] = samples[part * Beats.onsetHop + i] }
            for (k, detector) in [onset, lowOnset].enumerated() {
                aubio_onset_do(detector, onsetInput, onsetOutput)
                // The output says an onset was found in this hop; `last` alone could not tell the first
                // onset, at sample 0 (a song starting on its downbeat), from none.
                guard onsetOutput.pointee.data[0] != 0 else { continue }
                let found = Int64(aubio_onset_get_last(detector))
                guard found > lastOnsets[k] else { continue }
                lastOnsets[k] = found
                guard let start = attack(near: found) else { continue }
                if k == 0 { highOnsets.append(start) } else { lowOnsets.append(start) }
            }
        }
    }

    /// Where the attack aubio reported at `onset` starts, to the sample: the first sample within
    /// `attackReach` of it at 30 % of the loudest there (aubio's onset times are whole onset hops,
    /// 2.9 ms, and may fall just before the sound starts). Nil when all there is below −50 dBFS: an
    /// onset in silence (aubio reports one as it starts) is no beat.
    private func attack(near onset: Int64) -> Int64? {
        let from = max(onset - Self.attackReach, fed - Int64(Self.historyLength), 0)
        let to = min(onset + Self.attackReach, fed)
        guard to > from else { return onset }
        func sample(_ i: Int64) -> Float { abs(history[Int(i % Int64(Self.historyLength))]) }
        var peak: Float = 0
        for i in from..<to { peak = max(peak, sample(i)) }
        guard peak >= 0.003 else { return nil }
        for i in from..<to where sample(i) >= 0.3 * peak { return i }
        return onset
    }
}

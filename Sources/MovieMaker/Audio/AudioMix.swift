import Foundation

/// Any number of sounds played together: each track placed at a start time with a gain, summed in float
/// (no clipping inside the mix), then through a true-peak limiter so the result never passes −1 dBTP.
/// Music can duck under a voice (sidechain), and the whole mix can be normalised to a loudness target
/// (−16 LUFS by default) measured per ITU-R BS.1770-4. The mix streams: memory does not grow with length.
///
/// <!-- prelude: let music = try AudioFile(url: URL(fileURLWithPath: "music.m4a")); let voice = try AudioFile(url: URL(fileURLWithPath: "voice.m4a")) -->
/// ```swift
/// var mix = AudioMix()
/// mix.add(music, gain: -6)
/// mix.add(voice, at: 2, role: .sidechain)      // the music dips under the voice
/// let sound = mix.normalized(to: -16)
/// ```
public struct AudioMix: AudioSource {
    /// One sound in the mix.
    public struct Track: Sendable {
        /// How a track takes part in ducking.
        public enum Role: Sendable, Hashable {
            /// Dips under the sidechain tracks while they sound (music, ambience). The default.
            case ducked
            /// Makes the `.ducked` tracks dip while it sounds (a voice, effects); it is not ducked itself.
            case sidechain
            /// Neither ducks nor is ducked.
            case unaffected
        }
        /// The sound.
        public var source: any AudioSource
        /// When it starts in the mix.
        public var start: Time
        /// Its gain in dB (0 leaves it as it is, −6 about halves its amplitude).
        public var gain: Double
        /// Its part in ducking.
        public var role: Role

        /// `source` starting at `start` with `gain` dB, taking `role` in ducking.
        public init(_ source: any AudioSource, at start: Time = .zero, gain: Double = 0, role: Role = .ducked) {
            self.source = source; self.start = start; self.gain = gain; self.role = role
        }

        /// When the track ends in the mix, or nil when its sound has no end.
        public var end: Time? { source.duration.map { start + $0 } }
    }

    /// How `.ducked` tracks dip while a `.sidechain` track sounds: the sidechain's level (its peak, held
    /// for `hold` after it was last above `threshold`) switches the dip on; the ducked tracks' gain moves
    /// down by `depth` dB in `attack` and back up in `release`, in straight lines in dB (no clicks).
    public struct Ducking: Sendable, Hashable {
        /// How far the ducked tracks dip, in dB (12 by default).
        public var depth: Double
        /// Sidechain level, in dBFS, above which ducking starts (−40 by default).
        public var threshold: Double
        /// How long the dip takes to reach `depth` (50 ms by default).
        public var attack: Time
        /// How long the ducked tracks take to come back up (400 ms by default).
        public var release: Time
        /// How long the dip lasts after the sidechain was last above the threshold, bridging the gaps
        /// between words (150 ms by default).
        public var hold: Time

        /// Ducking by `depth` dB above `threshold` dBFS with the given attack, release and hold.
        public init(depth: Double = 12, threshold: Double = -40, attack: Time = Time(value: 1, timescale: 20),
                    release: Time = Time(value: 2, timescale: 5), hold: Time = Time(value: 3, timescale: 20)) {
            self.depth = depth; self.threshold = threshold; self.attack = attack; self.release = release; self.hold = hold
        }

        func validate() throws(MovieMakerError) {
            guard depth.isFinite, (0...100).contains(depth) else {
                throw .invalidSetting(.duckingDepth, value: "\(depth) dB", expected: "0 to 100 dB, e.g. 12")
            }
            guard threshold.isFinite, threshold <= 0 else {
                throw .invalidSetting(.duckingThreshold, value: "\(threshold) dBFS", expected: "a level of 0 dBFS or less, e.g. -40")
            }
            for (key, t) in [(SettingKey.duckingAttack, attack), (.duckingRelease, release), (.duckingHold, hold)] where t < .zero || t > 60 {
                throw .invalidSetting(key, value: "\(t)", expected: "0 to 60 seconds")
            }
        }
    }

    /// The tracks, mixed in order.
    public var tracks: [Track]
    /// Gain in dB applied to the sum before the limiter (0 by default).
    public var gain: Double
    /// The limiter after the sum; nil for none (then samples may pass full scale).
    public var limiter: Limiter?
    /// How `.ducked` tracks dip under `.sidechain` ones (only when there is a sidechain track).
    public var ducking: Ducking
    /// The integrated loudness, in LUFS, the mix is normalised to; nil to leave its level alone.
    public var loudnessTarget: Double?
    /// The mix's duration when set; otherwise it lasts until its last track ends. Tracks are cut off there.
    public var fixedDuration: Time?

    /// A mix of `tracks`.
    public init(_ tracks: [Track] = [], gain: Double = 0, limiter: Limiter? = Limiter(), ducking: Ducking = Ducking(),
                loudnessTarget: Double? = nil, duration: Time? = nil) {
        self.tracks = tracks; self.gain = gain; self.limiter = limiter; self.ducking = ducking
        self.loudnessTarget = loudnessTarget; self.fixedDuration = duration
    }

    /// Adds `source` starting at `start` with `gain` dB, taking `role` in ducking.
    public mutating func add(_ source: any AudioSource, at start: Time = .zero, gain: Double = 0, role: Track.Role = .ducked) {
        tracks.append(Track(source, at: start, gain: gain, role: role))
    }

    /// This mix with `source` added at `start` with `gain` dB, taking `role` in ducking.
    public func adding(_ source: any AudioSource, at start: Time = .zero, gain: Double = 0, role: Track.Role = .ducked) -> AudioMix {
        var copy = self
        copy.add(source, at: start, gain: gain, role: role)
        return copy
    }

    /// This mix normalised to `target` LUFS integrated loudness (EBU R128 streaming: −16; broadcast: −23),
    /// its true peak held under the limiter's ceiling. Needs a mix with an end (it is measured first).
    /// A mix is raised by at most 30 dB (a warning says when that leaves it quieter than `target`), so
    /// a nearly silent soundtrack does not become loud hiss; silence is left alone.
    public func normalized(to target: Double = -16) -> AudioMix {
        var copy = self
        copy.loudnessTarget = target
        return copy
    }

    /// How long the mix lasts: `fixedDuration`, or until its last track ends; nil when a track never ends.
    public var duration: Time? {
        if let fixedDuration { return fixedDuration }
        var end = Time.zero
        for t in tracks {
            guard let e = t.end else { return nil }
            end = Time.max(end, e)
        }
        return end
    }

    /// How much of a mix of `length` normalisation measures: all of it, unless a track loops without
    /// end (a music bed, looped to fill whatever movie it is in: `MovieMaker.endlessLoop`, 48 hours).
    /// Then what will be heard is unknown until the movie ends, and a loop's loudness is one pass's:
    /// the mix is measured up to the end of the latest track that ends and of one pass of each loop
    /// (at least 10 s when there is that much), never hours of repeats.
    func measuredLength(_ length: Time) -> Time {
        guard length >= MovieMaker.endlessLoop else { return length }
        var end = Time.zero
        for track in tracks {
            if let clip = track.source as? AudioClip, clip.loopDuration.map({ $0 >= MovieMaker.endlessLoop }) ?? false {
                end = Time.max(end, track.start + (clip.trimmedDuration ?? 10))
            } else if let e = track.end, e < MovieMaker.endlessLoop {
                end = Time.max(end, e)
            }
        }
        return Time.min(length, Time.max(end, 10))
    }

    /// The longest end fade a track asks for, plus the limiter's latency (the mix reads that far ahead).
    public var endFadeDuration: Time {
        let fade = tracks.map(\.source.endFadeDuration).max() ?? .zero
        guard fade > .zero else { return .zero }
        return fade + (limiter?.lookahead ?? .zero) + Time(value: 1, timescale: 100)
    }

    /// Opens every track once (so a broken file fails here), and for normalisation first renders the whole
    /// mix once through a loudness meter to find the gain (and, when that gain drives peaks into the
    /// limiter, up to three more times through it, to make up the loudness the limiter takes away).
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try format.validateForMixing()
        try validate()
        // Every track opens once here, so a broken file fails before the first sample; the mix then
        // opens each again only while it sounds.
        for t in tracks { _ = try t.source.makeReader(format: format) }
        var masterGain = gain
        if let target = loudnessTarget {
            guard let length = duration else {
                throw MovieMakerError.invalidSetting(
                    .loudnessNormalization, value: "a mix without an end",
                    expected: "a mix that ends, to measure it first: give it a duration (AudioMix(duration:)) or tracks that end")
            }
            let frames = format.frame(at: measuredLength(length))
            // Pass 1: the mix as it is.
            var meter = LoudnessMeter(format: format)
            try MixBus(self, format: format, gain: gain).readInChunks(totalFrames: frames) { chunk, n in meter.add(chunk, frameCount: n) }
            let measured = meter.integratedLoudness
            // Silence (nothing above the −70 LUFS gate) is left alone.
            if measured.isFinite {
                // A nearly silent mix (clips of room noise, a far-off microphone) would be raised by 40 dB
                // or more, and its hiss with it: normalisation adds at most `maximumBoost`, and says so.
                var boost = target - measured
                if boost > Self.maximumBoost {
                    LibraryWarnings.warn("the sound measures \(Self.decibels(measured)) LUFS, \(Self.decibels(boost)) dB below the \(Self.decibels(target)) LUFS asked: "
                        + "normalisation raises it by \(Self.decibels(Self.maximumBoost)) dB only, to \(Self.decibels(measured + Self.maximumBoost)) LUFS, "
                        + "as more would raise its background noise as much (a track's own gain raises it further)")
                    boost = Self.maximumBoost
                }
                let target = measured + boost
                masterGain += boost
                // When that gain drives peaks into the limiter, shaving them lowers the loudness: measure
                // through the limiter and correct the gain (secant steps; at most three more passes,
                // only for such mixes).
                if let limiter, meter.truePeakDecibels + target - measured > limiter.ceiling - TruePeakLimiter.margin - 0.5 {
                    try limiter.validate()
                    var previous: (gain: Double, loudness: Double)?
                    var slope = 1.0
                    for _ in 0..<3 {
                        let limiting = AudioMixReader(bus: try MixBus(self, format: format, gain: masterGain),
                                                      limiter: TruePeakLimiter(limiter, format: format))
                        var check = LoudnessMeter(format: format)
                        try limiting.readInChunks(totalFrames: frames) { chunk, n in check.add(chunk, frameCount: n) }
                        let limited = check.integratedLoudness
                        guard limited.isFinite, abs(limited - target) > 0.2 else { break }
                        if let previous, masterGain != previous.gain {
                            slope = min(1, max(0.1, (limited - previous.loudness) / (masterGain - previous.gain)))
                        }
                        previous = (masterGain, limited)
                        masterGain += min(max((target - limited) / slope, -12), 12)
                    }
                }
            }
        }
        let bus = try MixBus(self, format: format, gain: masterGain)
        return AudioMixReader(bus: bus, limiter: try limiter.map { l in try l.validate(); return TruePeakLimiter(l, format: format) })
    }

    /// The most normalisation raises a mix, in dB.
    static let maximumBoost = 30.0

    /// `value` with one decimal, for messages.
    private static func decibels(_ value: Double) -> String { String(format: "%.1f", value) }

    func validate() throws(MovieMakerError) {
        for (i, t) in tracks.enumerated() {
            guard t.gain.isFinite, t.gain <= 60 else {
                throw .invalidSetting(.trackGain(i), value: "\(t.gain) dB", expected: "a finite number of dB up to 60, e.g. -6")
            }
            guard t.start >= .zero else {
                throw .invalidSetting(.trackStart(i), value: "\(t.start)", expected: "zero or more seconds")
            }
        }
        guard gain.isFinite, gain <= 60 else {
            throw .invalidSetting(.mixGain, value: "\(gain) dB", expected: "a finite number of dB up to 60, e.g. 0")
        }
        if let loudnessTarget {
            guard loudnessTarget.isFinite, (-70...0).contains(loudnessTarget) else {
                throw .invalidSetting(.loudnessTarget, value: "\(loudnessTarget) LUFS", expected: "-70 to 0 LUFS, e.g. -16 or -23")
            }
        }
        if let fixedDuration, fixedDuration < .zero {
            throw .invalidSetting(.mixDuration, value: "\(fixedDuration)", expected: "zero or more seconds, or nil")
        }
        try ducking.validate()
    }
}

/// The decibel value `db` as a linear factor.
@inline(__always)
fileprivate func linearGain(decibels db: Double) -> Double { pow(10, db / 20) }

/// The mix before the limiter: every track read where it sounds, scaled, ducked and summed.
final class MixBus: AudioReader {
    let format: AudioFormat
    /// A track, its reader open only from a second before it sounds until it ends: a mix of a thousand
    /// clips' sounds holds the few that play now, not a thousand open files.
    private struct OpenTrack {
        let source: any AudioSource
        var reader: (any AudioReader)?
        /// Whether its reader was opened and, the track over, closed.
        var done = false
        let start: Int64
        let end: Int64?
        let gain: Float
        let role: AudioMix.Track.Role
    }
    private var tracks: [OpenTrack]
    /// Where the movie ends (bus frames), once known: told to each reader as it opens.
    private var movieEnd: Int64?
    /// How far ahead of its start a track's reader opens (a file's first read may seek).
    private let openAhead: Int64
    private let masterGain: Float
    private let end: Int64?
    private var position: Int64 = 0
    private let hasSidechain: Bool
    private let hasDucked: Bool
    private var ducker: Ducker
    static let blockSize = 1024
    private var scratch: [Float]
    private var duckedBus: [Float]
    private var keyBus: [Float]

    init(_ mix: AudioMix, format: AudioFormat, gain: Double) throws {
        self.format = format
        tracks = mix.tracks.map { t in
            let start = format.frame(at: t.start)
            return OpenTrack(source: t.source, reader: nil, start: start,
                             end: t.source.duration.map { start + format.frame(at: $0) },
                             gain: Float(linearGain(decibels: t.gain)), role: t.role)
        }
        openAhead = Int64(format.sampleRate)
        masterGain = Float(linearGain(decibels: gain))
        end = mix.fixedDuration.map { format.frame(at: $0) }
        // A mix with a set length ends there: its sounds are told as they open (a music bed fades out
        // over its end fade), in the measuring pass of normalisation as in the final one.
        movieEnd = end
        hasSidechain = tracks.contains { $0.role == .sidechain }
        hasDucked = tracks.contains { $0.role == .ducked }
        ducker = Ducker(mix.ducking, format: format)
        let size = Self.blockSize * format.channelCount
        scratch = Array(repeating: 0, count: size)
        duckedBus = Array(repeating: 0, count: size)
        keyBus = Array(repeating: 0, count: size)
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        var done = 0
        while done < frameCount {
            let n = min(Self.blockSize, frameCount - done)
            try renderBlock(into: buffer + done * format.channelCount, frameCount: n)
            done += n
        }
    }

    func willEnd(atFrame frame: Int64) {
        // A mix with a set length is silent after it: its sounds end there even when the movie runs a
        // little longer (a film of clips that do not end on a frame), or their end fades would be cut.
        let end = self.end.map { Swift.min(frame, $0) } ?? frame
        movieEnd = end
        for t in tracks { t.reader?.willEnd(atFrame: max(0, end - t.start)) }
    }

    /// Opens the readers of the tracks that sound before bus frame `limit` (plus `openAhead`) and closes
    /// those that ended before `from`.
    private func updateReaders(from: Int64, before limit: Int64) throws {
        for i in tracks.indices where !tracks[i].done {
            if let end = tracks[i].end, end <= from {
                tracks[i].reader = nil
                tracks[i].done = true
            } else if tracks[i].reader == nil, tracks[i].start < limit + openAhead {
                let reader = try tracks[i].source.makeReader(format: format)
                if let movieEnd { reader.willEnd(atFrame: max(0, movieEnd - tracks[i].start)) }
                tracks[i].reader = reader
            }
        }
    }

    private func renderBlock(into out: UnsafeMutablePointer<Float>, frameCount n: Int) throws {
        let channels = format.channelCount
        let count = n * channels
        out.update(repeating: 0, count: count)
        let ducking = hasSidechain && hasDucked
        let s = position
        var e = position + Int64(n)
        if let end { e = min(e, end) }
        defer { position += Int64(n) }
        guard e > s else { return }
        try updateReaders(from: s, before: e)
        var keyActive = false
        try scratch.withUnsafeMutableBufferPointer { scratchBuffer in
            try duckedBus.withUnsafeMutableBufferPointer { duckedBuffer in
                try keyBus.withUnsafeMutableBufferPointer { keyBuffer in
                    let scratchPtr = scratchBuffer.baseAddress!
                    let ducked = duckedBuffer.baseAddress!, key = keyBuffer.baseAddress!
                    if ducking {
                        ducked.update(repeating: 0, count: count)
                        key.update(repeating: 0, count: count)
                    }
                    for t in tracks {
                        // The part of this block the track sounds in.
                        let from = max(s, t.start)
                        let to = min(e, t.end ?? e)
                        guard to > from else { continue }
                        let frames = Int(to - from)
                        guard let reader = t.reader else { continue }     // opened above: it sounds here
                        try reader.read(into: scratchPtr, frameCount: frames)
                        let target: UnsafeMutablePointer<Float>
                        switch (ducking, t.role) {
                        case (true, .ducked): target = ducked
                        case (true, .sidechain): target = key; keyActive = true
                        default: target = out
                        }
                        let dst = target + Int(from - s) * channels
                        let g = t.gain
                        if g == 1 {
                            for i in 0..<frames * channels { dst[i] += scratchPtr[i] }
                        } else {
                            for i in 0..<frames * channels { dst[i] += scratchPtr[i] * g }
                        }
                    }
                    if ducking {
                        ducker.apply(key: key, ducked: ducked, into: out, frameCount: n, channels: channels, keySounds: keyActive)
                    }
                }
            }
        }
        if masterGain != 1 {
            for i in 0..<count { out[i] *= masterGain }
        }
    }
}

/// The ducking gain: a peak-hold detector on the sidechain and a dB ramp on the ducked tracks.
struct Ducker {
    private let threshold: Float
    private let holdFrames: Int
    private let depth: Double
    private let downStep: Double
    private let upStep: Double
    private var heldFor = Int.max
    private var level = 0.0          // current gain in dB, 0 … −depth
    private var levelGain: Float = 1

    init(_ settings: AudioMix.Ducking, format: AudioFormat) {
        threshold = Float(linearGain(decibels: settings.threshold))
        holdFrames = Int(format.frame(at: settings.hold))
        depth = settings.depth
        let attackFrames = Double(format.frame(at: settings.attack))
        let releaseFrames = Double(format.frame(at: settings.release))
        downStep = attackFrames > 0 ? settings.depth / attackFrames : .infinity
        upStep = releaseFrames > 0 ? settings.depth / releaseFrames : .infinity
    }

    /// `out += key + ducked × gain`, frame by frame, the gain following the key.
    mutating func apply(key: UnsafePointer<Float>, ducked: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>,
                        frameCount: Int, channels: Int, keySounds: Bool) {
        for f in 0..<frameCount {
            let base = f * channels
            if keySounds {
                var peak: Float = 0
                for c in 0..<channels { peak = max(peak, abs(key[base + c])) }
                if peak > threshold { heldFor = 0 } else if heldFor < Int.max { heldFor += 1 }
            } else if heldFor < Int.max {
                heldFor += 1
            }
            let target = heldFor <= holdFrames ? -depth : 0
            if level != target {
                level = level > target ? max(target, level - downStep) : min(target, level + upStep)
                levelGain = Float(linearGain(decibels: level))
            }
            let g = levelGain
            for c in 0..<channels { out[base + c] += key[base + c] + ducked[base + c] * g }
        }
    }
}

/// Reads a mix: the bus through the limiter, read ahead by the limiter's latency so that output frame n
/// is input frame n.
final class AudioMixReader: AudioReader {
    private let bus: MixBus
    private let limiter: TruePeakLimiter?
    private var primed = false
    var format: AudioFormat { bus.format }

    init(bus: MixBus, limiter: TruePeakLimiter?) {
        self.bus = bus; self.limiter = limiter
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        guard frameCount > 0 else { return }
        guard let limiter else { return try bus.read(into: buffer, frameCount: frameCount) }
        if !primed {
            primed = true
            let latency = limiter.latency
            let warmUp = UnsafeMutablePointer<Float>.allocate(capacity: latency * format.channelCount)
            defer { warmUp.deallocate() }
            try bus.read(into: warmUp, frameCount: latency)
            limiter.process(warmUp, frameCount: latency)
        }
        var done = 0
        while done < frameCount {
            let n = min(MixBus.blockSize, frameCount - done)
            let chunk = buffer + done * format.channelCount
            try bus.read(into: chunk, frameCount: n)
            limiter.process(chunk, frameCount: n)
            done += n
        }
    }

    func willEnd(atFrame frame: Int64) { bus.willEnd(atFrame: frame) }
}

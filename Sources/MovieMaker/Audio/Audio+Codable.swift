import Foundation

// Sound as data. Files are paths; clips, tracks and mixes are objects keyed by their property names; a
// source inside a clip or mix carries a `type` ("file", "clip", "track", "mix"), or is just a path for a
// file. Sounds made by code (`ProceduralSound`, any other `AudioSource`) throw `.notEncodable`.

extension AudioCodec: Codable {}
extension AudioFadeCurve: Codable {}

extension AudioSettings: Codable {
    private enum CodingKeys: String, CodingKey { case sampleRate, channelCount, bitRate }

    /// Reads the settings given; the rest keep their defaults (48 kHz, stereo, 192 kb/s).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sampleRate: try c.decode(.sampleRate, or: 48_000), channelCount: try c.decode(.channelCount, or: 2),
                  bitRate: try c.decode(.bitRate, or: 192_000))
    }

    /// Writes every setting.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sampleRate, forKey: .sampleRate)
        try c.encode(channelCount, forKey: .channelCount)
        try c.encode(bitRate, forKey: .bitRate)
    }
}

extension AudioFade: Codable {
    private enum CodingKeys: String, CodingKey { case duration, curve }

    /// Reads `{"duration": 0.5, "curve": "exponential"}` (`curve` may be left out: equal power).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(duration: try c.decode(Time.self, forKey: .duration), curve: try c.decode(.curve, or: .equalPower))
    }

    /// Writes the exact duration and the curve.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(duration, forKey: .duration)
        try c.encode(curve, forKey: .curve)
    }
}

extension AudioFile: Codable {
    private enum CodingKeys: String, CodingKey { case url }

    /// Reads `{"url": "/music/song.mp3"}` or just the path, and probes the file again as `init(url:)` does:
    /// a missing or unreadable file is an error here (a `DecodingError` whose underlying error is the
    /// `MovieMakerError` naming the file).
    public init(from decoder: any Decoder) throws {
        let location: FileLocation
        if try decoder.singleValueContainer().decodeStringIfPossible() != nil {
            location = try FileLocation(from: decoder)
        } else {
            location = try decoder.container(keyedBy: CodingKeys.self).decode(FileLocation.self, forKey: .url)
        }
        self = try decodingErrors(at: decoder.codingPath) { try AudioFile(url: location.url) }
    }

    /// Writes `{"url": path}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileLocation(url), forKey: .url)
    }
}

/// Any `AudioSource` that is data, with a `type` naming what it is.
enum AudioSourceCoding {
    /// The `type` of each source that can be written.
    static let types = ["file", "clip", "track", "mix", "heard", "tempo", "reversed", "narration"]

    /// Writes `source`'s own fields and its `type` in one object. Throws `MovieMakerError.notEncodable`,
    /// naming the source's type, for anything but a file, clip, track or mix.
    static func encode(_ source: any AudioSource, to encoder: any Encoder) throws {
        let type: String
        switch source {
        case is AudioFile: type = "file"
        case is AudioClip: type = "clip"
        case is AudioTrack: type = "track"
        case is AudioMix: type = "mix"
        case is HeardSound: type = "heard"
        case is TempoSound: type = "tempo"
        case is ReversedSound: type = "reversed"
        case is Narration: type = "narration"
        default:
            throw MovieMakerError.notEncodable(
                what: "a sound of type \(Swift.type(of: source))",
                reason: "only sound files (AudioFile) and the clips, tracks and mixes made of them can be written; a sound made by code (ProceduralSound, a closure) cannot")
        }
        // The source's fields first (so nothing is written for a source that throws), then the type.
        guard let encodable = source as? any Encodable else { return }
        try encodable.encode(to: encoder)
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(type, forKey: .type)
    }

    /// Reads a path (a file) or an object with a `type` of file, clip, track or mix.
    static func decode(from decoder: any Decoder) throws -> any AudioSource {
        if try decoder.singleValueContainer().decodeStringIfPossible() != nil { return try AudioFile(from: decoder) }
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decodeType()
        switch type {
        case "file": return try AudioFile(from: decoder)
        case "clip": return try AudioClip(from: decoder)
        case "track": return try AudioTrack(from: decoder)
        case "mix": return try AudioMix(from: decoder)
        case "heard": return try HeardSound(from: decoder)
        case "tempo": return try TempoSound(from: decoder)
        case "reversed": return try ReversedSound(from: decoder)
        case "narration": return try Narration(from: decoder)
        default: throw c.unknownType(type, of: "sound", known: types)
        }
    }

    /// Whether two sources are equal: both of the same `Equatable` type and equal. Sources that are not
    /// `Equatable` (sounds made by code) are never equal.
    static func equal(_ a: any AudioSource, _ b: any AudioSource) -> Bool {
        guard let a = a as? any Equatable else { return false }
        return a.isEqual(toAny: b)
    }
}

private extension Equatable {
    /// True when `other` is a `Self` equal to this value.
    func isEqual(toAny other: Any) -> Bool { (other as? Self).map { $0 == self } ?? false }
}

/// A source inside a clip, track or mix, coded by `AudioSourceCoding`.
private struct CodedSource: Codable {
    var source: any AudioSource
    init(_ source: any AudioSource) { self.source = source }
    init(from decoder: any Decoder) throws { source = try AudioSourceCoding.decode(from: decoder) }
    func encode(to encoder: any Encoder) throws { try AudioSourceCoding.encode(source, to: encoder) }
}

extension AudioClip: Equatable {
    /// The same source (see below) and the same edits. Sources compare with their own `==`; a sound made by
    /// code is not `Equatable`, so clips of one are never equal.
    public static func == (a: AudioClip, b: AudioClip) -> Bool {
        AudioSourceCoding.equal(a.source, b.source) && a.sourceStart == b.sourceStart && a.sourceEnd == b.sourceEnd
            && a.gainDecibels == b.gainDecibels && a.fadeIn == b.fadeIn && a.fadeOut == b.fadeOut && a.volume == b.volume
            && a.loopDuration == b.loopDuration && a.loopCrossfade == b.loopCrossfade && a.movieEndFade == b.movieEndFade
    }
}

extension AudioClip: Codable {
    private enum CodingKeys: String, CodingKey {
        case source, sourceStart, sourceEnd, gainDecibels, fadeIn, fadeOut, volume, loopDuration, loopCrossfade, movieEndFade
    }

    /// Reads a clip: `source` is required (a path, or a sound object with its `type`); every edit may be
    /// left out. E.g. `{"source": "song.mp3", "sourceStart": 12, "sourceEnd": 42.5, "gainDecibels": -6,
    /// "fadeIn": {"duration": 2}, "fadeOut": {"duration": 3, "curve": "exponential"}}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(CodedSource.self, forKey: .source).source)
        sourceStart = try c.decode(.sourceStart, or: .zero)
        sourceEnd = try c.decodeIfPresent(Time.self, forKey: .sourceEnd)
        gainDecibels = try c.decode(.gainDecibels, or: 0)
        fadeIn = try c.decodeIfPresent(AudioFade.self, forKey: .fadeIn)
        fadeOut = try c.decodeIfPresent(AudioFade.self, forKey: .fadeOut)
        volume = try c.decodeIfPresent(KeyframeTrack<Double>.self, forKey: .volume)
        loopDuration = try c.decodeIfPresent(Time.self, forKey: .loopDuration)
        loopCrossfade = try c.decode(.loopCrossfade, or: loopCrossfade)
        movieEndFade = try c.decodeIfPresent(AudioFade.self, forKey: .movieEndFade)
    }

    /// Writes the source and every edit that is set. Throws `MovieMakerError.notEncodable` when the
    /// source (or one inside it) is a sound made by code, or a volume keyframe's easing is a function.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(CodedSource(source), forKey: .source)
        try c.encode(sourceStart, forKey: .sourceStart)
        try c.encodeIfPresent(sourceEnd, forKey: .sourceEnd)
        try c.encode(gainDecibels, forKey: .gainDecibels)
        try c.encodeIfPresent(fadeIn, forKey: .fadeIn)
        try c.encodeIfPresent(fadeOut, forKey: .fadeOut)
        try c.encodeIfPresent(volume, forKey: .volume)
        try c.encodeIfPresent(loopDuration, forKey: .loopDuration)
        try c.encode(loopCrossfade, forKey: .loopCrossfade)
        try c.encodeIfPresent(movieEndFade, forKey: .movieEndFade)
    }
}

extension AudioTrack.Placement: Codable {
    /// Reads `"afterPrevious"` or `{"type": "at", "time": 12.5}`.
    public init(from decoder: any Decoder) throws {
        if let name = try decoder.singleValueContainer().decodeStringIfPossible() {
            guard name == "afterPrevious" else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "unknown placement \"\(name)\": expected afterPrevious or {\"type\": \"at\", \"time\": seconds}"))
            }
            self = .afterPrevious
            return
        }
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decodeType()
        guard type == "at" else { throw c.unknownType(type, of: "placement", known: ["at"]) }
        self = .at(try c.decode(Time.self, forKey: AnyCodingKey("time")))
    }

    /// Writes `"afterPrevious"` or `{"type": "at", "time": …}`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .afterPrevious:
            var c = encoder.singleValueContainer()
            try c.encode("afterPrevious")
        case let .at(time):
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode("at", forKey: .type)
            try c.encode(time, forKey: AnyCodingKey("time"))
        }
    }
}

extension AudioTrack.Item: Equatable, Codable {
    private enum CodingKeys: String, CodingKey { case clip, placement }

    /// The same clip, placed the same way.
    public static func == (a: AudioTrack.Item, b: AudioTrack.Item) -> Bool { a.clip == b.clip && a.placement == b.placement }

    /// Reads `{"clip": {…}, "placement": …}` (`placement` may be left out: after the previous clip).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(clip: try c.decode(AudioClip.self, forKey: .clip), placement: try c.decode(.placement, or: .afterPrevious))
    }

    /// Writes the clip and its placement.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(clip, forKey: .clip)
        try c.encode(placement, forKey: .placement)
    }
}

extension AudioTrack: Equatable {
    /// The same items, crossfade and frame rate.
    public static func == (a: AudioTrack, b: AudioTrack) -> Bool {
        a.items == b.items && a.crossfade == b.crossfade && a.frameRate == b.frameRate
    }
}

extension AudioTrack: Codable {
    private enum CodingKeys: String, CodingKey { case items, crossfade, frameRate }

    /// Reads `{"items": [{"clip": …, "placement": …}, …], "crossfade": {"duration": 0.02}, "frameRate": 30}`
    /// (all optional: no clips, a 20 ms equal-power crossfade, no frame rate).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(frameRate: try c.decodeIfPresent(FrameRate.self, forKey: .frameRate))
        crossfade = try c.decode(.crossfade, or: crossfade)
        for item in try c.decode(.items, or: [Item]()) {
            switch item.placement {
            case .afterPrevious: append(item.clip)
            case let .at(time): place(item.clip, at: time)
            }
        }
    }

    /// Writes the items, the crossfade and the frame rate (when set).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items, forKey: .items)
        try c.encode(crossfade, forKey: .crossfade)
        try c.encodeIfPresent(frameRate, forKey: .frameRate)
    }
}

extension AudioMix.Track.Role: Codable {
    /// Reads `"ducked"`, `"sidechain"` or `"unaffected"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        switch try container.decode(String.self) {
        case "ducked": self = .ducked
        case "sidechain": self = .sidechain
        case "unaffected": self = .unaffected
        case let other: throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown track role \"\(other)\": expected ducked, sidechain or unaffected")
        }
    }

    /// Writes the role's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(self)")
    }
}

extension AudioMix.Track: Equatable, Codable {
    private enum CodingKeys: String, CodingKey { case source, start, gain, role }

    /// The same source (compared as `AudioClip` compares sources), start, gain and role.
    public static func == (a: AudioMix.Track, b: AudioMix.Track) -> Bool {
        AudioSourceCoding.equal(a.source, b.source) && a.start == b.start && a.gain == b.gain && a.role == b.role
    }

    /// Reads `{"source": …, "start": 2, "gain": -6, "role": "sidechain"}` (all but `source` optional).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(CodedSource.self, forKey: .source).source, at: try c.decode(.start, or: .zero),
                  gain: try c.decode(.gain, or: 0), role: try c.decode(.role, or: .ducked))
    }

    /// Writes every field. Throws `MovieMakerError.notEncodable` for a sound made by code.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(CodedSource(source), forKey: .source)
        try c.encode(start, forKey: .start)
        try c.encode(gain, forKey: .gain)
        try c.encode(role, forKey: .role)
    }
}

extension AudioMix.Ducking: Codable {
    private enum CodingKeys: String, CodingKey { case depth, threshold, attack, release, hold }

    /// Reads the fields given; the rest default as in `init()` (12 dB below −40 dBFS, 50/400/150 ms).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AudioMix.Ducking()
        self.init(depth: try c.decode(.depth, or: defaults.depth), threshold: try c.decode(.threshold, or: defaults.threshold),
                  attack: try c.decode(.attack, or: defaults.attack), release: try c.decode(.release, or: defaults.release),
                  hold: try c.decode(.hold, or: defaults.hold))
    }

    /// Writes every field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(depth, forKey: .depth)
        try c.encode(threshold, forKey: .threshold)
        try c.encode(attack, forKey: .attack)
        try c.encode(release, forKey: .release)
        try c.encode(hold, forKey: .hold)
    }
}

extension Limiter: Codable {
    private enum CodingKeys: String, CodingKey { case ceiling, lookahead, release }

    /// Reads the fields given; the rest default as in `init()` (−1 dBTP, 5 ms lookahead, 100 ms release).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Limiter()
        self.init(ceiling: try c.decode(.ceiling, or: defaults.ceiling), lookahead: try c.decode(.lookahead, or: defaults.lookahead),
                  release: try c.decode(.release, or: defaults.release))
    }

    /// Writes every field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ceiling, forKey: .ceiling)
        try c.encode(lookahead, forKey: .lookahead)
        try c.encode(release, forKey: .release)
    }
}

extension AudioMix: Equatable {
    /// The same tracks (see `Track`'s `==`) and master settings.
    public static func == (a: AudioMix, b: AudioMix) -> Bool {
        a.tracks == b.tracks && a.gain == b.gain && a.limiter == b.limiter && a.ducking == b.ducking
            && a.loudnessTarget == b.loudnessTarget && a.fixedDuration == b.fixedDuration
    }
}

extension AudioMix: Codable {
    private enum CodingKeys: String, CodingKey { case tracks, gain, limiter, ducking, loudnessTarget, fixedDuration }

    /// Reads a mix; every key may be left out (no tracks, 0 dB, the default limiter, default ducking, no
    /// normalisation, no fixed duration). `"limiter": null` turns the limiter off.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(.tracks, or: []), gain: try c.decode(.gain, or: 0), limiter: try c.decodeOptional(.limiter, or: Limiter()),
                  ducking: try c.decode(.ducking, or: Ducking()), loudnessTarget: try c.decodeIfPresent(Double.self, forKey: .loudnessTarget),
                  duration: try c.decodeIfPresent(Time.self, forKey: .fixedDuration))
    }

    /// Writes every field (`limiter` as `null` when off). Throws `MovieMakerError.notEncodable` when a
    /// track's sound is made by code.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tracks, forKey: .tracks)
        try c.encode(gain, forKey: .gain)
        if let limiter { try c.encode(limiter, forKey: .limiter) } else { try c.encodeNil(forKey: .limiter) }
        try c.encode(ducking, forKey: .ducking)
        try c.encodeIfPresent(loudnessTarget, forKey: .loudnessTarget)
        try c.encodeIfPresent(fixedDuration, forKey: .fixedDuration)
    }
}

/// A clip's sound as heard (a description's clip sounds, mixed under its music): its source and the
/// part of it heard, so a mix holding them is data too.
extension HeardSound: Codable {
    private enum CodingKeys: String, CodingKey { case source, skip, length, fadeIn, fadeOut }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(source: try c.decode(CodedSource.self, forKey: .source).source, skip: try c.decode(Time.self, forKey: .skip),
                  length: try c.decodeIfPresent(Time.self, forKey: .length), fadeIn: try c.decode(Time.self, forKey: .fadeIn),
                  fadeOut: try c.decode(Time.self, forKey: .fadeOut))
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(CodedSource(source), forKey: .source)
        try c.encode(skip, forKey: .skip)
        try c.encodeIfPresent(length, forKey: .length)
        try c.encode(fadeIn, forKey: .fadeIn)
        try c.encode(fadeOut, forKey: .fadeOut)
    }
}

/// A sound played faster or slower (a clip's sound at its speed): its source and speed.
extension TempoSound: Codable {
    private enum CodingKeys: String, CodingKey { case source, speed }

    /// Reads `{"source": …, "speed": …}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(CodedSource.self, forKey: .source).source, speed: try c.decode(Speed.self, forKey: .speed))
    }

    /// Writes `{"source": …, "speed": …}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(CodedSource(source), forKey: .source)
        try c.encode(speed, forKey: .speed)
    }
}

/// A sound played backwards: its source.
extension ReversedSound: Codable {
    private enum CodingKeys: String, CodingKey { case source }

    /// Reads `{"source": …}` (the source is read whole again, as `init(_:)` does).
    public init(from decoder: any Decoder) throws {
        let source = try decoder.container(keyedBy: CodingKeys.self).decode(CodedSource.self, forKey: .source).source
        self = try decodingErrors(at: decoder.codingPath) { try ReversedSound(source) }
    }

    /// Writes `{"source": …}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(CodedSource(source), forKey: .source)
    }
}

/// Text spoken by eSpeak NG: what is spoken and how (the speech is synthesised again when read).
extension Narration: Codable {
    private enum CodingKeys: String, CodingKey { case text, voice, rate, pitch }

    /// Reads `{"text": …, "voice": …, "rate": …, "pitch": …}` and speaks it again.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .text), voice = try c.decode(String.self, forKey: .voice)
        let rate = try c.decode(Int.self, forKey: .rate), pitch = try c.decode(Int.self, forKey: .pitch)
        self = try decodingErrors(at: decoder.codingPath) { try Narration(text, voice: voice, rate: rate, pitch: pitch) }
    }

    /// Writes `{"text": …, "voice": …, "rate": …, "pitch": …}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(voice, forKey: .voice)
        try c.encode(rate, forKey: .rate)
        try c.encode(pitch, forKey: .pitch)
    }
}

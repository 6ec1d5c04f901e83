import Foundation

// The `music` and `audio` items of audio tracks: a sound file placed at a time, music looping, fading and ducking by default.

// MARK: Model

extension Timeline {
    /// A music or sound item of an audio track (`"type": "music"` or `"audio"`).
    ///
    /// Music (the default for `"music"`) loops to fill the movie, fades in over 0.5 s and out over 2 s
    /// at the movie's end, and ducks under the other sounds (the clips' own and audio items that do not
    /// duck, such as a voice-over); a sound (`"audio"`) plays once, as it is.
    public struct Audio: Sendable, Hashable {
        /// Whether this is `"music"` (true) or `"audio"` (false): only the defaults differ.
        public var isMusic: Bool
        /// The file or slot.
        public var source: Source
        /// Where in the file it starts (default 0).
        public var `in`: TimeValue?
        /// How long it plays (default: music to the movie's end, a sound to the file's end).
        public var duration: TimeValue?
        /// How loud (default 1).
        public var volume: Volume?
        /// Fade-in length (music: 0.5 s, sound: none).
        public var fadeIn: TimeValue?
        /// Fade-out length, at the item's end or the movie's (music: 2 s, sound: 10 ms).
        public var fadeOut: TimeValue?
        /// Whether a file shorter than `duration` repeats (music: yes, sound: no).
        public var loop: Bool?
        /// Whether it dips while the movie's other sounds play (music: yes, sound: no).
        public var ducking: Bool?

        /// A `"music"` (`isMusic`) or `"audio"` item; nil fields take their defaults.
        public init(music isMusic: Bool, _ source: Source, in start: TimeValue? = nil, duration: TimeValue? = nil, volume: Volume? = nil,
                    fadeIn: TimeValue? = nil, fadeOut: TimeValue? = nil, loop: Bool? = nil, ducking: Bool? = nil) {
            self.isMusic = isMusic; self.source = source; self.in = start; self.duration = duration; self.volume = volume
            self.fadeIn = fadeIn; self.fadeOut = fadeOut; self.loop = loop; self.ducking = ducking
        }
    }
}

// MARK: Description file

extension Timeline.Audio: TimelineItemKind {
    /// The content keys of both types.
    static let fields: [SpecField] = [
        SpecField("source", Schema.ref("source"), required: true, "The file (\"song.m4a\" or {\"file\": \"song.m4a\", …}) or slot ({\"slot\": \"name\"})."),
        SpecField("in", Schema.ref("time"), "Where in the file it starts (default 0)."),
        SpecField("duration", Schema.ref("duration"), "How long it plays (default: music to the movie's end, a sound to the file's end)."),
        SpecField("volume", Schema.ref("volume"), "How loud: a factor (default 1) or \"-6dB\"."),
        SpecField("fadeIn", Schema.ref("time"), "Fade-in length (music 0.5s, sound 0)."),
        SpecField("fadeOut", Schema.ref("time"), "Fade-out length (music 2s, sound 10ms)."),
        SpecField("loop", Schema.boolean, "Repeat when shorter than its duration (music true, sound false)."),
        SpecField("ducking", Schema.boolean, "Dip while the movie's other sounds play (music true, sound false)."),
    ]
    static let itemTypes = [
        TimelineItemType("music", doc: "Music: loops to fill the movie, fades in and out, ducks under other sounds.", placement: .audioTrack, fields: fields),
        TimelineItemType("audio", doc: "A sound: plays once, as it is.", placement: .audioTrack, fields: fields),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        Timeline.Audio(music: type == "music", try i.source("source", context, kinds: [.audio], what: "\(SpecObject.article(type)) item"),
                       in: try i.time("in"), duration: try i.time("duration", positive: true),
                       volume: try i.volume("volume"), fadeIn: try i.time("fadeIn"), fadeOut: try i.time("fadeOut"),
                       loop: try i.bool("loop"), ducking: try i.bool("ducking"))
    }

    var content: Timeline.Content { .audio(self) }

    var typeName: String { isMusic ? "music" : "audio" }

    func write(to w: inout SpecWriter) {
        w.set("source", source.json)
        w.set("in", self.in)
        w.set("duration", duration)
        w.set("volume", volume?.json)
        w.set("fadeIn", fadeIn)
        w.set("fadeOut", fadeOut)
        w.set("loop", loop)
        w.set("ducking", ducking)
    }

    /// Refused when read; a value built in code can still put one on a picture track.
    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        throw .invalidDescription(path.appending("type"), "\(SpecObject.article(typeName)) item belongs in an audio track")
    }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var a = self
        a.source = source.mappingFilePath(transform)
        return a
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var a = self; a.duration = length; return a }
}

// MARK: Compiling

extension TimelineCompiler {
    mutating func sound(_ a: Timeline.Audio, at path: JSONPath) throws(MovieMakerError) -> (AudioClip, String) {
        let sourcePath = path.appending("source")
        let url = try file(a.source, at: sourcePath, kinds: [.audio])
        var clip: AudioClip
        do { clip = try AudioClip(url: url) } catch { throw .invalidDescription(sourcePath, "\(url.path) cannot be played: \(error.message)", file: url.path) }
        var details: [String] = []
        let start = a.in?.time(at: rate) ?? .zero
        sources[path.description] = .init(file: url, fileDuration: clip.source.duration, start: start)
        if let length = clip.source.duration, start >= length {
            throw .invalidDescription(path.appending("in"), "\(a.in!) is at or past the end of \(url.lastPathComponent), which lasts \(TimelineComposition.seconds(length)) s")
        }
        let loop = a.loop ?? a.isMusic
        let duration = a.duration?.time(at: rate)
        if start > .zero { clip.trim(from: start); details.append("from \(TimelineComposition.seconds(start)) s") }
        // A loop crossfades its ends (20 ms): a part too short for that was refused only when the render
        // opened the sound, after `validate` had said the file was valid, naming no key.
        if loop, let part = clip.trimmedDuration, clip.loopCrossfade.duration * 2 >= part {
            throw .invalidDescription(path.appending(a.in != nil ? "in" : "source"),
                                      "leaves \(TimelineComposition.seconds(part)) s of \(url.lastPathComponent) to loop, too short to loop (more than \(TimelineComposition.seconds(clip.loopCrossfade.duration * 2)) s is needed): start earlier, or \"loop\": false")
        }
        if let duration {
            if loop {
                clip.loop(toFill: duration)
            } else {
                clip.trim(from: start, to: start + duration)
            }
        } else if loop {
            clip.loop(toFill: MovieMaker.endlessLoop)
            details.append("looped to the end")
        }
        if let volume = a.volume {
            clip.amplify(by: volume.isSilent ? -200 : volume.decibelValue)
            details.append("volume \(volume)")
        }
        var fadeIn = a.fadeIn?.time(at: rate) ?? (a.isMusic ? Time(value: 1, timescale: 2) : .zero)
        var fadeOut = a.fadeOut?.time(at: rate) ?? (a.isMusic ? 2 : AudioClip.minimumCrossfade)
        let fadesOut = duration != nil || !loop
        if let length = clip.duration, fadeIn + (fadesOut ? fadeOut : .zero) > length, length > .zero {
            // Fades longer together than the sound multiplied: its middle played near silence. They share
            // its length in their proportion instead, full level reached where one hands over to the other.
            let total = fadeIn + (fadesOut ? fadeOut : .zero)
            let shortenedIn = Time(seconds: length.seconds * fadeIn.seconds / total.seconds)
            if a.fadeIn != nil || a.fadeOut != nil {
                warnings.append("\(path): fadeIn \(TimelineComposition.seconds(fadeIn)) s\(fadesOut ? " and fadeOut \(TimelineComposition.seconds(fadeOut)) s are" : " is") longer than the sound's \(TimelineComposition.seconds(length)) s: shortened to \(TimelineComposition.seconds(shortenedIn)) s\(fadesOut ? " and \(TimelineComposition.seconds(length - shortenedIn)) s" : "")")
            }
            if fadesOut { fadeOut = length - shortenedIn }
            fadeIn = shortenedIn
        }
        if fadeIn > .zero { clip.fadeIn(over: fadeIn) }
        if fadesOut, fadeOut > .zero, clip.duration != nil { clip.fadeOut(over: fadeOut) }
        // Never a hard cut where the movie ends.
        clip.fadeOutAtMovieEnd(over: Time.max(fadeOut, AudioClip.minimumCrossfade))
        if a.ducking ?? a.isMusic { details.append("ducks") }
        return (clip, details.joined(separator: ", "))
    }
}

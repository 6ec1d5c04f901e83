import Foundation

// The `narration` item of audio tracks (text spoken by eSpeak NG), and the narration points other items
// are timed by: `"duration": {"until": "n1"}` (until the narration ends) or `{"mark": "n1#cut"}` (until
// it reaches a bookmark), so scenes follow the voice.

// MARK: Model

extension Timeline {
    /// A voice-over spoken in-process by eSpeak NG (`"type": "narration"`), with an `id` other items are
    /// timed by and captions can show word by word. See `Narration` for how words and bookmarks are timed.
    ///
    /// ```json
    /// {"type": "narration", "id": "n1", "text": "Lisbon. <mark name=\"trams\"/> Its trams climb.", "voice": "en-us", "rate": 175}
    /// ```
    ///
    /// The voice never ducks; music ducks under it.
    public struct NarrationItem: Sendable, Hashable {
        /// What names it in narration points (`{"until": "n1"}`) and captions (`"narration": "n1"`).
        public var id: String
        /// What is spoken: plain text, or SSML as eSpeak NG reads it (`<mark name="cut"/>` bookmarks,
        /// `<break time="500ms"/>`); `{{slot}}` takes a text slot's value.
        public var text: String
        /// The eSpeak NG voice or language (default `en-us`).
        public var voice: String?
        /// Words per minute, 80–450 (default 175).
        public var rate: Int?
        /// Base pitch, 0–100 (default 50).
        public var pitch: Int?
        /// How loud (default 1).
        public var volume: Volume?

        /// The narration `id` speaking `text`; nil fields take their defaults.
        public init(id: String, text: String, voice: String? = nil, rate: Int? = nil, pitch: Int? = nil, volume: Volume? = nil) {
            self.id = id; self.text = text; self.voice = voice; self.rate = rate; self.pitch = pitch; self.volume = volume
        }
    }

    /// A point of a narration that an item lasts until (`Item.endsAt`): written as the item's `duration`.
    public enum NarrationPoint: Sendable, Hashable, CustomStringConvertible {
        /// `{"until": "n1"}`: where the narration `n1` ends.
        case end(narration: String)
        /// `{"mark": "n1#cut"}`: where the narration `n1` reaches its bookmark `cut` (the start of the
        /// word after it).
        case mark(narration: String, name: String)

        /// The narration's id.
        public var narration: String {
            switch self {
            case let .end(id), let .mark(id, _): id
            }
        }

        /// As written: `until n1` or `mark n1#cut`.
        public var description: String {
            switch self {
            case let .end(id): "until \(id)"
            case let .mark(id, name): "mark \(id)#\(name)"
            }
        }

        /// The JSON object it is written as.
        var json: JSONValue {
            switch self {
            case let .end(id): .object(["until": .string(id)])
            case let .mark(id, name): .object(["mark": .string("\(id)#\(name)")])
            }
        }

        /// Reads `{"until": "n1"}` or `{"mark": "n1#cut"}` at `path`.
        init(reading value: JSONValue, at path: JSONPath) throws(MovieMakerError) {
            let forms = "a time such as \"3s\", or a narration point {\"until\": \"n1\"} or {\"mark\": \"n1#cut\"}"
            guard case let .object(o) = value, o.count == 1, let (key, v) = o.first else {
                throw .invalidDescription(path, "must be \(forms), got \(value.shortDescription)")
            }
            guard case let .string(text) = v, !text.isEmpty else {
                throw .invalidDescription(path.appending(key), "must be a narration's id (with \"#bookmark\" for mark), got \(v.shortDescription)")
            }
            switch key {
            case "until":
                guard !text.contains("#") else {
                    throw .invalidDescription(path.appending(key), "\"until\" names a narration's id; for one of its bookmarks write {\"mark\": \"\(text)\"}")
                }
                self = .end(narration: text)
            case "mark":
                let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw .invalidDescription(path.appending(key), "must be \"narration#bookmark\", such as \"n1#cut\", got \"\(text)\"")
                }
                self = .mark(narration: String(parts[0]), name: String(parts[1]))
            default:
                var message = "unknown key \"\(key)\": must be \(forms)"
                if let near = SpecObject.nearest(key, in: ["until", "mark"]) { message += " (did you mean \"\(near)\"?)" }
                throw .invalidDescription(path, message)
            }
        }
    }
}

// MARK: Description file

extension Timeline.NarrationItem: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("narration", doc: "A voice-over spoken by eSpeak NG, with exact word times and bookmarks other items are timed by.",
                         placement: .audioTrack, fields: [
            SpecField("id", Schema.string(pattern: #"^[^#]+$"#), required: true, "Names it in {\"until\": id}, {\"mark\": \"id#bookmark\"} and captions' \"narration\"."),
            SpecField("text", Schema.string(minLength: 1), required: true, "What is spoken; SSML as eSpeak NG reads it (<mark name=\"cut\"/>, <break time=\"500ms\"/>)."),
            SpecField("voice", Schema.string(minLength: 1), "An eSpeak NG voice or language such as en-us, en-gb, fr, ar, ja (default en-us)."),
            SpecField("rate", Schema.integer(minimum: Narration.rates.lowerBound, maximum: Narration.rates.upperBound), "Words per minute (default 175)."),
            SpecField("pitch", Schema.integer(minimum: Narration.pitches.lowerBound, maximum: Narration.pitches.upperBound), "Base pitch (default 50)."),
            SpecField("volume", Schema.ref("volume"), "How loud: a factor (default 1) or \"-6dB\"."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let id = try i.string("id", required: true, nonEmpty: true)!
        guard !id.contains("#") else { throw i.fail("id", "must not hold \"#\", which separates a narration from its bookmark in {\"mark\": \"id#bookmark\"}: got \"\(id)\"") }
        return Timeline.NarrationItem(id: id, text: try i.string("text", required: true, nonEmpty: true)!,
                                      voice: try i.string("voice", nonEmpty: true),
                                      rate: try i.int("rate", in: Narration.rates, hint: " words per minute (175 is eSpeak NG's default)"),
                                      pitch: try i.int("pitch", in: Narration.pitches), volume: try i.volume("volume"))
    }

    var content: Timeline.Content { .narration(self) }

    func write(to w: inout SpecWriter) {
        w.set("id", id)
        w.set("text", text)
        w.set("voice", voice)
        w.set("rate", rate)
        w.set("pitch", pitch)
        w.set("volume", volume?.json)
    }

    /// Refused when read; a value built in code can still put one on a picture track.
    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        throw .invalidDescription(path.appending("type"), "a narration item belongs in an audio track")
    }

    /// A narration lasts as long as its speech.
    func withLength(_ length: Timeline.TimeValue) -> Self { self }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A narration spoken for a render, where it starts in the movie, and its item's JSON path.
    struct PlacedNarration {
        var narration: Narration
        var start: Time
        var path: JSONPath
    }

    /// Speaks every narration of the audio tracks (disabled ones too: they are silent but still time
    /// what names them), before any item is compiled, so items can be timed by them.
    mutating func speakNarrations() throws(MovieMakerError) {
        for (t, track) in timeline.tracks.enumerated() where track.kind == .audio {
            for (i, item) in track.items.enumerated() {
                guard case let .narration(n) = item.content else { continue }
                let path = JSONPath().appending("tracks").appending(t).appending("items").appending(i)
                if let other = narrations[n.id] {
                    throw .invalidDescription(path.appending("id"), "\"\(n.id)\" is already the id of the narration at \(other.path): give each narration its own id")
                }
                let text = try fill(n.text, at: path.appending("text"))
                let narration: Narration
                do {
                    narration = try Narration(text, voice: n.voice ?? "en-us", rate: n.rate ?? 175, pitch: n.pitch ?? 50)
                } catch {
                    let key = switch error.setting {
                    case .narrationVoice?: "voice"
                    case .narrationRate?: "rate"
                    case .narrationPitch?: "pitch"
                    default: "text"
                    }
                    throw .invalidDescription(path.appending(key), error.message)
                }
                narrations[n.id] = PlacedNarration(narration: narration, start: item.at?.time(at: rate) ?? .zero, path: path)
            }
        }
    }

    /// `text` with its `{{name}}` placeholders replaced by the text slots' values (no length limit:
    /// `Narration` has its own). A `<` anywhere makes the spoken text SSML markup, so when the text has
    /// markup or a value holds a `<`, the values (and, for text without markup of its own, the
    /// rest) are escaped: a value is always spoken as written, never read as tags.
    func fill(_ text: String, at path: JSONPath) throws(MovieMakerError) -> String {
        let pieces = Timeline.pieces(of: text)
        for name in pieces.names where texts[name] == nil {
            guard let slot = timeline.slots[name], slot.kind == .text else {
                throw .invalidDescription(path, "{{\(name)}} names no text slot: declare \"\(name)\" under \"slots\" with \"kind\": \"text\"")
            }
            throw .invalidDescription(path, "the text slot \"\(name)\" has no default and was not filled: give --slot \(name)=TEXT")
        }
        let markup = text.contains("<")
        let values = pieces.names.compactMap { texts[$0] }
        guard markup || values.contains(where: { $0.contains("<") }) else { return pieces.filled(texts) }
        return pieces.filledAsMarkup(texts, literalIsMarkup: markup)
    }

    /// The narration `id`, or an error at `path` naming the ids there are.
    func narration(_ id: String, at path: JSONPath) throws(MovieMakerError) -> PlacedNarration {
        guard let placed = narrations[id] else {
            let ids = narrations.keys.sorted()
            var message = "no narration has the id \"\(id)\": "
            message += ids.isEmpty ? "add a narration item to an audio track, {\"type\": \"narration\", \"id\": \"\(id)\", \"text\": \"…\"}"
                                   : "the narrations are \(SpecObject.list(ids))"
            if let near = SpecObject.nearest(id, in: ids) { message += " (did you mean \"\(near)\"?)" }
            throw .invalidDescription(path, message)
        }
        return placed
    }

    /// Where `point` is in the movie. `path` is the item's `duration`.
    func time(of point: Timeline.NarrationPoint, at path: JSONPath) throws(MovieMakerError) -> Time {
        switch point {
        case let .end(id):
            let placed = try narration(id, at: path.appending("until"))
            return placed.start + placed.narration.length
        case let .mark(id, name):
            let placed = try narration(id, at: path.appending("mark"))
            guard let t = placed.narration.time(ofMark: name) else {
                let names = placed.narration.marks.map(\.name)
                var message = "the narration \"\(id)\" has no bookmark \"\(name)\": "
                message += names.isEmpty ? "put <mark name=\"\(name)\"/> in its text where the cut should come" : "its bookmarks are \(SpecObject.list(names))"
                if let near = SpecObject.nearest(name, in: names) { message += " (did you mean \"\(near)\"?)" }
                throw .invalidDescription(path.appending("mark"), message)
            }
            return placed.start + t
        }
    }

    /// `item` lasting from `start` until its narration point (unchanged without one). Throws at the item's
    /// `duration` when the point is not after `start`.
    func timedByNarration(_ item: Timeline.Item, start: Time, at path: JSONPath) throws(MovieMakerError) -> Timeline.Item {
        guard let point = item.endsAt else { return item }
        let end = try time(of: point, at: path.appending("duration"))
        guard end > start else {
            throw .invalidDescription(path.appending("duration"), "\(point) is at \(TimelineComposition.seconds(end)) s, not after the item's start at "
                                      + "\(TimelineComposition.seconds(start)) s: the item would last no time; time it by a later point")
        }
        var timed = item
        timed.content = item.content.kind.withLength(.seconds(end - start)).content
        return timed
    }

    /// A narration item's sound: its speech at its volume, with a fade where the movie ends.
    mutating func sound(_ n: Timeline.NarrationItem, at path: JSONPath) throws(MovieMakerError) -> (AudioClip, String) {
        let placed = try narration(n.id, at: path.appending("id"))
        var clip = AudioClip(placed.narration)
        var details = ["\(placed.narration.transcript.words.count) words, \(placed.narration.voice) at \(placed.narration.rate) wpm"]
        if let volume = n.volume {
            clip.amplify(by: volume.isSilent ? -200 : volume.decibelValue)
            details.append("volume \(volume)")
        }
        clip.fadeOutAtMovieEnd(over: AudioClip.minimumCrossfade)
        return (clip, details.joined(separator: ", "))
    }
}

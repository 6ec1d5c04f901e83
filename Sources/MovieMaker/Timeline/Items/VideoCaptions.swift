import Foundation
import Synchronization

// A video item's `captions`: word-by-word captions of its own speech, from a transcript file or by
// aligning a script to its sound (`{"transcript": {"file": "talk.words.json"}}`, `{"align": {"file":
// "talk.txt"}}`).

// MARK: Model

extension Timeline {
    /// Word-by-word captions of a video item's own speech (its `captions` key), timed from the file: the
    /// words of the part the item plays are shown while it plays, at its speed.
    public struct VideoCaptions: Sendable, Hashable {
        /// Where the words come from.
        public enum Words: Sendable, Hashable {
            /// A transcript of the file (whisper or whisper.cpp JSON, karaoke WebVTT, SRT), timed from
            /// the file's start.
            case transcript(Source)
            /// A text of what is said, placed on the file's sound by `Transcript(aligning:to:)`.
            case align(Source)
        }

        /// Where the words come from.
        public var words: Words
        /// How the spoken word is shown (default highlight).
        public var style: CaptionStyle.Animation?

        /// Captions of `words` in `style`.
        public init(_ words: Words, style: CaptionStyle.Animation? = nil) {
            self.words = words; self.style = style
        }
    }
}

// MARK: Description file

extension Timeline.VideoCaptions {
    /// The keys of a video item's `captions`.
    static let shape = SpecShape(name: "videoCaptions", doc: "Word-by-word captions of the video's own speech.", fields: [
        SpecField("transcript", Schema.ref("source"), "A transcript of the file: whisper or whisper.cpp JSON, karaoke WebVTT or SRT, timed from the file's start."),
        SpecField("align", Schema.ref("source"), "A text of what is said, placed on the file's sound (PocketSphinx, English)."),
        SpecField("style", Schema.enumeration(CaptionStyle.Animation.allCases.map(\.rawValue)), "How the spoken word is shown (default highlight)."),
    ])

    /// Reads `captions` of `item`, nil when absent.
    static func read(_ item: SpecObject, _ context: SpecContext) throws(MovieMakerError) -> Self? {
        guard let c = try item.object("captions", shape) else { return nil }
        let hasTranscript = c.value("transcript") != nil, hasAlign = c.value("align") != nil
        guard hasTranscript != hasAlign else {
            throw .invalidDescription(item.path.appending("captions"), hasTranscript ? "give \"transcript\" or \"align\", not both"
                                      : "needs \"transcript\" (a transcript file) or \"align\" (a text of what is said)")
        }
        let words: Words = hasTranscript ? .transcript(try c.source("transcript", context, kinds: [.media], what: "a transcript"))
                                         : .align(try c.source("align", context, kinds: [.media], what: "a text to align"))
        return Self(words, style: try c.choice("style", CaptionStyle.Animation.self, what: "caption style"))
    }

    /// The JSON object.
    var json: JSONValue {
        var w = SpecWriter(Self.shape)
        switch words {
        case let .transcript(s): w.set("transcript", s.json)
        case let .align(s): w.set("align", s.json)
        }
        w.set("style", style)
        return w.value
    }

    /// The value with `transform` applied to its file path.
    func mappingFilePath(_ transform: (String) -> String) -> Self {
        switch words {
        case let .transcript(s): Self(.transcript(s.mappingFilePath(transform)), style: style)
        case let .align(s): Self(.align(s.mappingFilePath(transform)), style: style)
        }
    }
}

// MARK: Compiling

extension TimelineCompiler {
    /// Alignments already made in this process, by file, its size and date, the text, and the part of the
    /// file: a studio composes a description again at every edit, and an alignment takes seconds.
    private static let alignments = Mutex<[(key: String, transcript: Transcript)]>([])

    /// `t × p / q`, exactly.
    static func scaled(_ t: Time, _ p: Int64, _ q: Int64) -> Time { (Rational(t) * Rational(p, q)).time }

    /// The captions of `clip` (the video item `v` as compiled), as long as it, inside the preset's safe
    /// area: drawn over the item after its filters and transform (`CompiledItem.over`), so they stay
    /// readable on a blurred or shrunk video.
    mutating func captions(of clip: Clip, video v: Timeline.Video, captions: Timeline.VideoCaptions, at path: JSONPath) throws(MovieMakerError) -> Clip {
        let captionsPath = path.appending("captions")
        guard v.reverse != true, v.freeze != true else {
            throw .invalidDescription(captionsPath, "captions follow speech played forwards: remove \"captions\", or \"reverse\" and \"freeze\"")
        }
        guard case let .file(videoPath) = v.source else {
            throw .invalidDescription(captionsPath, "captions need the video's file: give the item a file source, not a slot")
        }
        let video = resolve(videoPath)
        let start = v.in?.time(at: rate) ?? .zero
        let speed = v.speed ?? .normal
        // The part of the file the item plays.
        let span = Self.scaled(clip.duration, speed.numerator, speed.denominator)
        var words: [TranscriptWord]
        switch captions.words {
        case let .transcript(source):
            let url = try file(source, at: captionsPath.appending("transcript"), kinds: [.media])
            do { words = try Transcript(contentsOf: url).words } catch {
                let where_ = error.location?.jsonPath.map { " at \($0)" } ?? (error.position.map { " line \($0)" } ?? "")
                throw .invalidDescription(captionsPath.appending("transcript"), "\(url.lastPathComponent)\(where_): \(error.message)", file: url.path)
            }
        case let .align(source):
            let textPath = captionsPath.appending("align")
            let url = try file(source, at: textPath, kinds: [.media])
            let text: String
            do { text = try String(contentsOf: url, encoding: .utf8) } catch {
                throw .invalidDescription(textPath, "\(url.lastPathComponent) cannot be read as UTF-8 text", file: url.path)
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: video.path)
            let key = "\(video.path) \(attributes?[.size] ?? 0) \(attributes?[.modificationDate] ?? 0) \(start) \(span)\n\(text)"
            let aligned: Transcript
            if let cached = Self.alignments.withLock({ $0.first { $0.key == key }?.transcript }) {
                aligned = cached
            } else {
                var sound: AudioClip
                do { sound = try AudioClip(url: video) } catch {
                    throw .invalidDescription(textPath, "\(video.lastPathComponent) has no sound to align the text to: \(error.message)", file: video.path)
                }
                sound.trim(from: start, to: start + span)
                do { aligned = try Transcript(aligning: text, to: sound) } catch {
                    throw .invalidDescription(textPath, error.message, file: url.path)
                }
                Self.alignments.withLock { list in
                    list.removeAll { $0.key == key }
                    list.append((key, aligned))
                    if list.count > 8 { list.removeFirst() }
                }
            }
            // Aligned on the part played: its times count from `start`.
            words = aligned.words.map { TranscriptWord($0.text, start: $0.start + start, end: $0.end + start) }
        }
        // File time → item time: from `start`, at `speed`; words outside the part played are left out.
        let shown = words.compactMap { w -> TranscriptWord? in
            let a = Self.scaled(w.start - start, speed.denominator, speed.numerator), b = Self.scaled(w.end - start, speed.denominator, speed.numerator)
            guard b > .zero, a < clip.duration else { return nil }
            return TranscriptWord(w.text, start: Time.max(.zero, a), end: Time.min(b, clip.duration))
        }
        return try insideSafeArea(Clip.captions(Transcript(words: shown), style: CaptionStyle(captions.style ?? .highlight), duration: clip.duration))
    }
}

import Foundation

/// One spoken word and when it is spoken: what word-by-word captions show.
public struct TranscriptWord: Sendable, Hashable, Codable {
    /// The word as shown, punctuation attached (`"Hello,"`), without surrounding spaces.
    public var text: String
    /// When the word starts (inclusive).
    public var start: Time
    /// When the word ends (exclusive); never before `start`.
    public var end: Time

    /// `text` spoken from `start` to `end`.
    public init(_ text: String, start: Time, end: Time) {
        self.text = text; self.start = start; self.end = end
    }
}

/// Words with exact times, read from a speech recogniser's output or a subtitle file, or made in code:
/// the input of `Clip.captions(_:style:)`.
///
/// `Transcript(contentsOf:)` reads, by content (not by extension):
/// - the word-timestamp JSON that openai-whisper, faster-whisper and WhisperX write
///   (`{"segments": [{"words": [{"word": " Hello", "start": 0.5, "end": 0.82}, …]}, …]}`);
/// - whisper.cpp's full JSON (`whisper-cli -ojf`: `{"transcription": [{"tokens": [{"text": …,
///   "offsets": {"from": 500, "to": 820}}, …]}, …]}`, milliseconds; tokens without a leading space join
///   the word before, special tokens such as `[_BEG_]` are skipped);
/// - WebVTT with inline karaoke timestamps (`<00:00:01.250>`): each timestamp starts the word after it;
/// - plain SRT or WebVTT (cue times only): each cue's words share its time in proportion to their
///   weights (see `Transcript.spreadWeight(of:)`: vowel groups, at least one per word, so "extraordinary"
///   takes longer than "a").
///
/// JSON numbers are read exactly from their text (`0.82` is 41/50 s). Malformed input is a
/// `.invalidSubtitles` error naming the file and the line (subtitle files) or JSON path (JSON files).
public struct Transcript: Sendable, Hashable, Codable {
    /// The words in the order spoken (sorted by start; words starting together keep their order).
    public var words: [TranscriptWord]

    /// A transcript of `words`, sorted by start time.
    public init(words: [TranscriptWord]) {
        self.words = words.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    /// When the last word ends (zero when there are none).
    public var duration: Time { words.map(\.end).max() ?? .zero }
}

extension Transcript {
    /// The transcript as the word-timestamp JSON openai-whisper writes, which `init(contentsOf:)` reads
    /// back: `{"segments": [{"start", "end", "text", "words": [{"word": " Hello,", "start": 0.5, "end": 0.9}, …]}, …]}`,
    /// one segment a sentence. Times are written exactly when they have at most six decimals (the
    /// recogniser's 10 ms frames do), otherwise to the microsecond.
    public func whisperJSON() -> String {
        func seconds(_ t: Time) -> JSONValue {
            if let exact = ExactNumber.decimalString(t.value, t.timescale), (exact.split(separator: ".").last?.count ?? 0) <= 6 || !exact.contains(".") {
                return .number(exact)
            }
            return .number(String(format: "%.6f", t.seconds))
        }
        var segments: [JSONValue] = []
        var current: [TranscriptWord] = []
        func close() {
            guard let first = current.first, let last = current.last else { return }
            let words = current.map { w in JSONValue.object(["word": .string(" " + w.text), "start": seconds(w.start), "end": seconds(w.end)]) }
            segments.append(.object(["start": seconds(first.start), "end": seconds(last.end),
                                     "text": .string(current.map { " " + $0.text }.joined()), "words": .array(words)]))
            current = []
        }
        for w in words {
            current.append(w)
            let trimmed = w.text.trimmingCharacters(in: CharacterSet(charactersIn: "\"'”’)]»"))
            if let end = trimmed.last, ".!?…。！？".contains(end) { close() }
        }
        close()
        return JSONValue.object(["segments": .array(segments)]).canonicalText + "\n"
    }
}

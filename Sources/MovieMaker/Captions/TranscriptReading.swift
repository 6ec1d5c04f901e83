import Foundation

// Reading transcripts: whisper's and whisper.cpp's JSON, karaoke WebVTT, and plain SRT/WebVTT whose cue
// times are spread over their words. Every time is exact (JSON numbers from their decimal text, subtitle
// timestamps in milliseconds, shares of a cue as fractions); malformed input is a `.invalidSubtitles`
// error naming the file and the line or JSON path, so a user can find the word at fault.

extension Transcript {
    /// The formats `Transcript(contentsOf:)` reads.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// The JSON openai-whisper, faster-whisper and WhisperX write with word timestamps:
        /// `{"segments": [{"words": [{"word": " Hello,", "start": 0.5, "end": 0.9}, …]}, …]}`, seconds.
        case whisperJSON
        /// whisper.cpp's full JSON (`whisper-cli -ojf`): `{"transcription": [{"tokens": [{"text": " Hello",
        /// "offsets": {"from": 500, "to": 900}}, …]}, …]}`, milliseconds.
        case whisperCppJSON
        /// WebVTT whose cues carry inline timestamps (`Hello <00:00:00.900>and`): each starts the word after it.
        case karaokeVTT
        /// SRT or WebVTT with cue times only: each cue's time is shared by its words.
        case subtitles
    }

    /// Reads the words of the file at `url`, its format told by its content (see the type's documentation).
    ///
    /// The file is read as `SubtitleTrack(contentsOf:)` reads one, with the same limits and errors (a
    /// missing file, a folder, a file over `SubtitleTrack.maximumFileSize`, UTF-8/UTF-16/Windows-1252
    /// text), so a transcript and a subtitle file fail the same way.
    public init(contentsOf url: URL) throws(MovieMakerError) {
        try self.init(parsing: SubtitleTrack.readText(url), name: url.path)
    }

    /// Reads `text` (the contents of a file named `name`, used in errors) in `format`, or by content when nil.
    ///
    /// A JSON document is read once: by content, its top-level key picks the reader.
    public init(parsing text: String, name: String, format: Format? = nil) throws(MovieMakerError) {
        guard text.utf8.count <= SubtitleTrack.maximumFileSize else {
            throw .subtitlesTooLarge(path: name, bytes: text.utf8.count, limit: SubtitleTrack.maximumFileSize)
        }
        var parsed: JSONValue? = nil
        let chosen: Format
        if let format {
            chosen = format
        } else if Self.startsLikeJSON(text) {
            let document = try Self.parseJSON(text, name: name)
            guard let found = Self.jsonFormat(of: document) else {
                throw TranscriptJSONReader(name: name).error(
                    .root, "the JSON has neither \"segments\" (whisper) nor \"transcription\" (whisper.cpp)", found: document,
                    expected: "whisper JSON with word timestamps ({\"segments\": [{\"words\": […]}]}) or whisper.cpp full JSON ({\"transcription\": […]}, whisper-cli -ojf)")
            }
            parsed = document
            chosen = found
        } else if let found = Self.textFormat(of: text) {
            chosen = found
        } else {
            throw Self.unknownFormat(text, name: name)
        }

        let words: [TranscriptWord]
        switch chosen {
        case .whisperJSON, .whisperCppJSON:
            let document: JSONValue
            if let parsed { document = parsed } else { document = try Self.parseJSON(text, name: name) }
            let reader = TranscriptJSONReader(name: name)
            if chosen == .whisperJSON {
                words = try reader.whisperWords(document)
            } else {
                words = try reader.whisperCppWords(document)
            }
        case .karaokeVTT:
            words = try KaraokeReader(text: text, name: name).words()
        case .subtitles:
            let track: SubtitleTrack
            if SubtitleParser.startsWithWebVTTHeader(text) {
                track = try SubtitleTrack(webVTT: text, name: name)
            } else {
                track = try SubtitleTrack(srt: text, name: name)
            }
            var found: [TranscriptWord] = []
            for cue in track.cues {
                found += Self.spread(Self.words(in: cue.text), from: cue.start, to: cue.end)
            }
            words = found
        }
        self.init(words: words)
    }

    /// The format of `text`, by content: JSON with "segments" → whisperJSON, JSON with "transcription" →
    /// whisperCppJSON, WebVTT with an inline `<hh:mm:ss.ttt>` or `<mm:ss.ttt>` timestamp in a cue →
    /// karaokeVTT, else SRT/WebVTT → subtitles. nil when none.
    ///
    /// By content rather than by extension, because whisper's and whisper.cpp's JSON both end in `.json`
    /// and karaoke WebVTT is a `.vtt` like any other.
    package static func format(of text: String) -> Format? {
        if startsLikeJSON(text) {
            guard let document = try? JSONValue(parsing: text) else { return nil }
            return jsonFormat(of: document)
        }
        return textFormat(of: text)
    }

    /// The weight a word gets when a cue's time is spread over its words: its groups of vowels (a, e, i, o, u,
    /// y and accented Latin vowels; for scripts without such vowels, its letter count divided by 2, at least
    /// 1), at least 1.
    ///
    /// Vowel groups approximate syllables, which is what takes time to say; a word without Latin vowels
    /// (another script, an abbreviation) falls back to its length.
    package static func spreadWeight(of word: String) -> Int {
        var groups = 0, letters = 0
        var inVowelGroup = false
        for character in word {
            if character.isLetter { letters += 1 }
            let vowel = isLatinVowel(character)
            if vowel && !inVowelGroup { groups += 1 }
            inVowelGroup = vowel
        }
        return groups > 0 ? groups : max(1, letters / 2)
    }
}

// MARK: Helpers shared by the readers

extension Transcript {
    /// Whether `character` is a Latin vowel (a, e, i, o, u, y), accented or not, in either case.
    ///
    /// Accented letters are recognised by the first scalar of their canonical decomposition (é is e and an
    /// accent), which covers every precomposed Latin vowel without a table; æ, œ, ø and dotless ı do not
    /// decompose and are listed.
    static func isLatinVowel(_ character: Character) -> Bool {
        if let ascii = character.asciiValue {
            switch ascii | 0x20 {   // ASCII lowercase
            case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"), UInt8(ascii: "y"):
                return true
            default:
                return false
            }
        }
        guard character.isLetter else { return false }
        let decomposed = String(character).lowercased().decomposedStringWithCanonicalMapping
        guard let base = decomposed.unicodeScalars.first else { return false }
        switch base {
        case "a", "e", "i", "o", "u", "y", "æ", "œ", "ø", "ı": return true
        default: return false
        }
    }

    /// Whether `character` separates words: white space (line breaks included), except the no-break
    /// spaces (U+00A0, U+2007, U+202F) that a file uses precisely to keep two words together.
    static func isWordSeparator(_ character: Character) -> Bool {
        guard character.isWhitespace else { return false }
        return !character.unicodeScalars.contains { $0.value == 0xA0 || $0.value == 0x2007 || $0.value == 0x202F }
    }

    /// Whether `text` shows nothing: only white space and invisible marks (left-to-right and right-to-left
    /// marks, zero-width space, byte order mark), which are not words however a file spells them.
    static func isInvisible(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy {
            $0.properties.isWhitespace || [0x200B, 0x200E, 0x200F, 0xFEFF].contains($0.value)
        }
    }

    /// The words of `text`: split at white space (line breaks included, no-break spaces not), punctuation
    /// kept with its word (`"Hello,"`), invisible leftovers dropped.
    static func words(in text: String) -> [String] {
        text.split(whereSeparator: isWordSeparator).map(String.init).filter { !isInvisible($0) }
    }

    /// `texts` said one after another from `start` to `end`, each taking a share of the time in proportion
    /// to its `spreadWeight(of:)`: word k starts at start + (end − start) × W_k / W, W_k the weights before it
    /// and W their total; each word ends where the next starts, the last at `end`.
    static func spread(_ texts: [String], from start: Time, to end: Time) -> [TranscriptWord] {
        let starts = spreadStarts(weights: texts.map { spreadWeight(of: $0) }, from: start, to: end)
        return texts.indices.map { k in
            TranscriptWord(texts[k], start: starts[k], end: k + 1 < texts.count ? starts[k + 1] : end)
        }
    }

    /// The start of each of the items weighing `weights` when `start..<end` is shared in proportion to the
    /// weights (see `spread(_:from:to:)`); the first starts at `start` exactly.
    static func spreadStarts(weights: [Int], from start: Time, to end: Time) -> [Time] {
        let total = weights.reduce(0, +)
        var starts: [Time] = []
        starts.reserveCapacity(weights.count)
        var before = 0
        for weight in weights {
            starts.append(point(before, of: total, from: start, to: end))
            before += weight
        }
        return starts
    }

    /// start + (end − start) × part / whole, exactly (`0 <= part <= whole`, `whole > 0`, `start <= end`).
    static func point(_ part: Int, of whole: Int, from start: Time, to end: Time) -> Time {
        if part == 0 || whole <= 0 { return start }
        if part >= whole { return end }
        let span = end - start
        // (v / t) × (p / q), cross-reduced first so that the products overflow only when the exact fraction
        // truly does not fit 64 bits.
        let g = Int64(max(gcd(part, whole), 1))
        var p = Int64(part) / g, q = Int64(whole) / g
        var v = span.value, t = span.timescale
        let gvq = Int64(max(gcd64(v.magnitude, q.magnitude), 1))
        v /= gvq; q /= gvq
        let gpt = Int64(max(gcd64(p.magnitude, t.magnitude), 1))
        p /= gpt; t /= gpt
        let (numerator, overflowN) = v.multipliedReportingOverflow(by: p)
        let (denominator, overflowD) = t.multipliedReportingOverflow(by: q)
        if !overflowN && !overflowD {
            return start + Time(value: numerator, timescale: denominator)
        }
        // The exact share does not fit 64-bit terms (only contrived timescales get here; cue times are
        // milliseconds): round it to the nearest millisecond instead, in 128-bit integers, never through Double.
        let wideNumerator = Int128(span.value) * Int128(part) * 1000
        let wideDenominator = Int128(span.timescale) * Int128(whole)
        let milliseconds = (wideNumerator + wideDenominator / 2) / wideDenominator
        return start + Time(value: Int64(clamping: milliseconds), timescale: 1000)
    }

    /// Whether `text` starts (after a byte order mark and white space) like a JSON document: `{` or `[`.
    static func startsLikeJSON(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            if scalar == "\u{FEFF}" || scalar.properties.isWhitespace { continue }
            return scalar == "{" || scalar == "["
        }
        return false
    }

    /// The JSON transcript format `document` is in, by its top-level key; nil when neither.
    static func jsonFormat(of document: JSONValue) -> Format? {
        if document["segments"] != nil { return .whisperJSON }
        if document["transcription"] != nil { return .whisperCppJSON }
        return nil
    }

    /// The text format of `text`: WebVTT with an inline timestamp in a cue is karaoke, other WebVTT and
    /// anything with an SRT timing line is subtitles; nil when there is no timing line at all.
    static func textFormat(of text: String) -> Format? {
        let parser = SubtitleParser(text: text, name: "", format: .webVTT)
        let lines = parser.lines
        guard SubtitleParser.startsWithWebVTTHeader(text) else {
            return lines.contains(where: looksLikeTiming) ? .subtitles : nil
        }
        var i = 0
        while i < lines.count && !isBlank(lines[i]) { i += 1 }   // the header block
        while i < lines.count {
            if isBlank(lines[i]) { i += 1; continue }
            let keyword = lines[i].prefix { $0 != " " && $0 != "\t" }
            let skipped = keyword == "NOTE" || keyword == "STYLE" || keyword == "REGION"
            var afterTiming = false
            // A cue ends at an empty line only (YouTube opens each with a line of one space).
            while i < lines.count && !lines[i].isEmpty {
                if !skipped {
                    if afterTiming && containsInlineTimestamp(lines[i], parser: parser) { return .karaokeVTT }
                    if lines[i].contains("-->") { afterTiming = true }
                }
                i += 1
            }
        }
        return .subtitles
    }

    /// Whether `line` holds a karaoke timestamp tag, `<mm:ss.ttt>` or `<hh:mm:ss.ttt>`.
    static func containsInlineTimestamp(_ line: Substring, parser: SubtitleParser) -> Bool {
        var rest = line[...]
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(where: { $0 == ">" || $0 == "<" }) else { return false }
            if after[close] == ">", parser.timestamp(String(after[..<close])) != nil { return true }
            rest = after[close...]
        }
        return false
    }

    /// Whether a line holds only spaces and tabs (a block separator in SRT and WebVTT).
    static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    /// Whether a line is meant as a timing line: a timestamp, then `-->` (as `SubtitleParser` decides).
    static func looksLikeTiming(_ line: Substring) -> Bool {
        guard let arrow = line.range(of: "-->") else { return false }
        let before = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        return before.first?.isNumber ?? false
    }

    /// `text` read as JSON; a syntax error becomes a transcript error naming the file, the line and column,
    /// and the JSON path reached.
    static func parseJSON(_ text: String, name: String) throws(MovieMakerError) -> JSONValue {
        do throws(MovieMakerError) {
            return try JSONValue(parsing: text)
        } catch {
            let at = error.location?.jsonPath ?? JSONPath.root.description
            let expected = "JSON as whisper (--output_format json --word_timestamps True) or whisper.cpp (-ojf) write it"
            throw MovieMakerError(code: .invalidSubtitles, message: "invalid transcript \(name): \(error.message); expected \(expected)",
                                  location: MovieMakerError.Location(file: name, jsonPath: at), reason: error.message, expected: expected)
        }
    }

    /// The error for text that is no transcript format: names the first line that is not blank.
    static func unknownFormat(_ text: String, name: String) -> MovieMakerError {
        let lines = SubtitleParser(text: text, name: name, format: .srt).lines
        let index = lines.firstIndex { !isBlank($0) }
        let expected = "whisper JSON with word timestamps ({\"segments\": [{\"words\": […]}]}), whisper.cpp full JSON ({\"transcription\": […]}), "
            + "WebVTT (starting with WEBVTT) or SRT (cues with timing lines such as 00:00:01,000 --> 00:00:02,500)"
        guard let index else {
            return .invalidSubtitles(path: name, line: 1, text: "", reason: "the file is empty", expected: expected)
        }
        return .invalidSubtitles(path: name, line: index + 1, text: String(lines[index]),
                                 reason: "this is not a transcript: no JSON, no WEBVTT header and no timing line", expected: expected)
    }
}

// MARK: JSON

/// Reads whisper's and whisper.cpp's JSON, naming the JSON path of anything wrong.
private struct TranscriptJSONReader {
    /// The file's name, for errors.
    let name: String

    /// A transcript error at `path`: what is wrong, the value found (when there is one) and what belongs there.
    func error(_ path: JSONPath, _ reason: String, found: JSONValue?, expected: String) -> MovieMakerError {
        let at = path.description
        return MovieMakerError(code: .invalidSubtitles, message: "invalid transcript \(name): \(reason); expected \(expected)",
                               location: MovieMakerError.Location(file: name, jsonPath: at), reason: reason,
                               value: found?.shortDescription, expected: expected)
    }

    /// The reason for a value of the wrong type (or none): "missing", or "found a string "0.5"".
    func mismatch(_ value: JSONValue?) -> String {
        guard let value else { return "missing" }
        switch value {
        case .string, .number, .bool: return "found \(value.kindName) \(value.shortDescription)"
        case .null, .array, .object: return "found \(value.shortDescription)"
        }
    }

    /// The members of the object at `path`.
    func object(_ value: JSONValue?, at path: JSONPath, expected: String) throws(MovieMakerError) -> [String: JSONValue] {
        guard let value, case let .object(members) = value else { throw error(path, mismatch(value), found: value, expected: expected) }
        return members
    }

    /// The elements of the array at `path`.
    func array(_ value: JSONValue?, at path: JSONPath, expected: String) throws(MovieMakerError) -> [JSONValue] {
        guard let value, case let .array(elements) = value else { throw error(path, mismatch(value), found: value, expected: expected) }
        return elements
    }

    /// The string at `path`.
    func string(_ value: JSONValue?, at path: JSONPath, expected: String) throws(MovieMakerError) -> String {
        guard let value, case let .string(text) = value else { throw error(path, mismatch(value), found: value, expected: expected) }
        return text
    }

    /// The unit a file's times are written in.
    enum Unit {
        /// whisper: seconds (`0.5`).
        case seconds
        /// whisper.cpp: milliseconds (`500`).
        case milliseconds

        /// What a time in this unit looks like, for errors.
        var expected: String {
            switch self {
            case .seconds: return "a number of seconds such as 1.25, from 0 to 86400 (24 hours)"
            case .milliseconds: return "a number of milliseconds such as 1250, from 0 to 86400000 (24 hours)"
            }
        }
    }

    /// The time at `path`, read exactly from the number's text (`0.82` is 41/50 s), never through `Double`;
    /// negative times and times beyond 24 hours are refused (no speech recogniser writes them, so they
    /// mean a damaged file).
    func time(_ value: JSONValue?, at path: JSONPath, unit: Unit) throws(MovieMakerError) -> Time {
        guard let value, case let .number(text) = value else { throw error(path, mismatch(value), found: value, expected: unit.expected) }
        var time: Time
        if let (numerator, denominator) = ExactNumber.parse(text) {
            time = Time(value: numerator, timescale: denominator)
        } else if let rounded = Self.nanosecondsRounded(text) {
            time = rounded
        } else {
            throw error(path, "the number \(text) is out of range", found: value, expected: unit.expected)
        }
        if unit == .milliseconds { time = time / 1000 }
        guard time >= .zero else { throw error(path, "a negative time, \(text)", found: value, expected: unit.expected) }
        guard time <= Time.longMovieLimit else { throw error(path, "\(text) is more than 24 hours", found: value, expected: unit.expected) }
        return time
    }

    /// A JSON number rounded to whole nanoseconds, for the rare number whose exact fraction does not fit
    /// 64 bits (a float printed with 17 digits, such as `0.0012345678901234567`): rounded on its decimal
    /// digits, never through `Double`. nil when it is not a decimal number or the result does not fit.
    static func nanosecondsRounded(_ text: String) -> Time? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative || rest.first == "+" { rest = rest.dropFirst() }
        var exponent = 0
        if let e = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(rest[rest.index(after: e)...]), x.magnitude < 40 else { return nil }
            exponent = x
            rest = rest[..<e]
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first else { return nil }
        let fraction = parts.count > 1 ? parts[1] : ""
        let digits = Array(whole + fraction)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // value = digits × 10^(exponent − fraction.count) = digits × 10^shift nanoseconds.
        let shift = exponent - fraction.count + 9
        let kept: [Character]
        var roundUp = false
        if shift >= 0 {
            kept = digits + Array(repeating: "0", count: shift)
        } else {
            let dropped = min(-shift, digits.count)
            kept = Array(digits.dropLast(dropped))
            roundUp = -shift <= digits.count && digits[digits.count + shift] >= "5"
        }
        guard var nanoseconds = Int64(kept.isEmpty ? "0" : String(kept)) else { return nil }
        if roundUp {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(1)
            guard !overflow else { return nil }
            nanoseconds = sum
        }
        return Time(value: negative ? -nanoseconds : nanoseconds, timescale: 1_000_000_000)
    }

    /// The words of whisper's JSON: `segments[i].words[k]` with `word`, `start` and `end` (seconds); every
    /// other key is ignored (whisper writes `id`, `seek`, `tokens`, `probability`, …).
    func whisperWords(_ document: JSONValue) throws(MovieMakerError) -> [TranscriptWord] {
        let root = try object(document, at: .root, expected: "a whisper JSON object {\"segments\": […]}")
        let segmentsPath = JSONPath.root.appending("segments")
        let segments = try array(root["segments"], at: segmentsPath,
                                 expected: "an array of segments, each with its \"words\" (run whisper with --word_timestamps True)")
        let wordShape = "a word object such as {\"word\": \" Hello,\", \"start\": 0.5, \"end\": 0.9}"
        // nil times: a word WhisperX could not align (numbers, as "1,"), placed between its neighbours below.
        var entries: [(text: String, start: Time?, end: Time?, path: JSONPath)] = []
        for (i, segmentValue) in segments.enumerated() {
            let segmentPath = segmentsPath.appending(i)
            let segment = try object(segmentValue, at: segmentPath, expected: "a segment object with \"words\"")
            guard let wordsValue = segment["words"] else {
                throw error(segmentPath, "the segment has no \"words\": the file was written without word timestamps", found: nil,
                            expected: "segments with \"words\" arrays: run whisper with word timestamps (--word_timestamps True)")
            }
            let wordsPath = segmentPath.appending("words")
            let list = try array(wordsValue, at: wordsPath, expected: "an array of words, each \(wordShape)")
            for (k, wordValue) in list.enumerated() {
                let wordPath = wordsPath.appending(k)
                let word = try object(wordValue, at: wordPath, expected: wordShape)
                let text = try string(word["word"], at: wordPath.appending("word"), expected: "the word as a string, such as \" Hello,\"")
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.isEmpty { continue }
                if word["start"] == nil && word["end"] == nil {
                    entries.append((trimmed, nil, nil, wordPath))
                    continue
                }
                let start = try time(word["start"], at: wordPath.appending("start"), unit: .seconds)
                let endPath = wordPath.appending("end")
                let end = try time(word["end"], at: endPath, unit: .seconds)
                guard end >= start else {
                    throw error(endPath, "the word ends before it starts (at \(word["start"]?.shortDescription ?? "?"))", found: word["end"],
                                expected: "an end no earlier than the word's start")
                }
                entries.append((trimmed, start, end, wordPath))
            }
        }
        guard entries.isEmpty || entries.contains(where: { $0.start != nil }) else {
            let path = entries[0].path.appending("start")
            throw error(path, "no word has a time: the file was written without word timestamps", found: nil,
                        expected: "words with \"start\" and \"end\" (run whisper with --word_timestamps True)")
        }
        var words: [TranscriptWord] = []
        var k = 0
        while k < entries.count {
            guard entries[k].start == nil else {
                words.append(TranscriptWord(entries[k].text, start: entries[k].start!, end: entries[k].end!))
                k += 1
                continue
            }
            // A run of untimed words shares the time between the word before and the word after.
            var run = k
            while run < entries.count, entries[run].start == nil { run += 1 }
            // At most a third of a second each, next to the timed word (not across a long silence, nor
            // from the file's start before a long intro); a run at the end follows the last word.
            let count = run - k
            let most = Time(value: Int64(count), timescale: 3)
            var from = words.last?.end ?? .zero
            var to = run < entries.count ? Time.max(from, entries[run].start!) : from + most
            if to - from > most {
                if words.isEmpty { from = to - most } else { to = from + most }
            }
            for (n, entry) in entries[k..<run].enumerated() {
                words.append(TranscriptWord(entry.text, start: from + (to - from) * n / count, end: from + (to - from) * (n + 1) / count))
            }
            k = run
        }
        // A word of no length (openai-whisper writes some, start = end) lasts until the next one starts,
        // so it is highlighted at all.
        for i in words.indices where words[i].end == words[i].start && i + 1 < words.count && words[i + 1].start > words[i].start {
            // Not across a pause (a page of captions breaks there): a third of a second at most.
            words[i] = TranscriptWord(words[i].text, start: words[i].start,
                                      end: Time.min(words[i + 1].start, words[i].start + Time(value: 1, timescale: 3)))
        }
        return words
    }

    /// Whether a whisper.cpp token is a special one (`[_BEG_]`, `[_TT_150]`, `<|endoftext|>`): not speech.
    static func isSpecialToken(_ text: String) -> Bool {
        (text.hasPrefix("[_") && text.hasSuffix("]")) || (text.hasPrefix("<|") && text.hasSuffix("|>"))
    }

    /// The `offsets` object at `path`: `from` and `to` in milliseconds, `to` not before `from`.
    func offsets(_ value: JSONValue?, at path: JSONPath) throws(MovieMakerError) -> (from: Time, to: Time) {
        let members = try object(value, at: path, expected: "an offsets object such as {\"from\": 500, \"to\": 900} (milliseconds)")
        let from = try time(members["from"], at: path.appending("from"), unit: .milliseconds)
        let to = try time(members["to"], at: path.appending("to"), unit: .milliseconds)
        guard to >= from else {
            throw error(path.appending("to"), "it ends before it starts (from \(members["from"]?.shortDescription ?? "?"))", found: members["to"],
                        expected: "a \"to\" no earlier than \"from\"")
        }
        return (from, to)
    }

    /// The words of whisper.cpp's full JSON: tokens joined into words (a token starting with a space starts
    /// a word, others continue the word before: `" Movie"` + `"Maker."`), special tokens skipped; a segment
    /// without tokens (or whose tokens hold no word) shares its own `offsets` among the words of its `text`.
    func whisperCppWords(_ document: JSONValue) throws(MovieMakerError) -> [TranscriptWord] {
        let root = try object(document, at: .root, expected: "a whisper.cpp JSON object {\"transcription\": […]}")
        let segmentsPath = JSONPath.root.appending("transcription")
        let segments = try array(root["transcription"], at: segmentsPath,
                                 expected: "an array of segments, each with \"tokens\" (whisper-cli -ojf writes them)")
        let tokenShape = "a token object such as {\"text\": \" Hello\", \"offsets\": {\"from\": 500, \"to\": 900}}"
        var words: [TranscriptWord] = []
        for (i, segmentValue) in segments.enumerated() {
            let segmentPath = segmentsPath.appending(i)
            let segment = try object(segmentValue, at: segmentPath, expected: "a segment object with \"tokens\"")
            var segmentWords: [TranscriptWord] = []
            if let tokensValue = segment["tokens"] {
                let tokensPath = segmentPath.appending("tokens")
                let tokens = try array(tokensValue, at: tokensPath, expected: "an array of tokens, each \(tokenShape)")
                // Words do not run across segments: the first token of a segment starts one.
                var breakBefore = true
                for (k, tokenValue) in tokens.enumerated() {
                    let tokenPath = tokensPath.appending(k)
                    let token = try object(tokenValue, at: tokenPath, expected: tokenShape)
                    let raw = try string(token["text"], at: tokenPath.appending("text"), expected: "the token's text as a string")
                    let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                    if trimmed.isEmpty {
                        if !raw.isEmpty { breakBefore = true }   // a bare space still ends the word before
                        continue
                    }
                    if Self.isSpecialToken(trimmed) || Transcript.isInvisible(trimmed) { continue }
                    let (from, to) = try offsets(token["offsets"], at: tokenPath.appending("offsets"))
                    let startsWord = breakBefore || (raw.first?.isWhitespace ?? false)
                    if startsWord || segmentWords.isEmpty {
                        segmentWords.append(TranscriptWord(trimmed, start: from, end: to))
                    } else {
                        let last = segmentWords.count - 1
                        segmentWords[last].text += trimmed
                        segmentWords[last].end = Time.max(segmentWords[last].end, to)
                    }
                    breakBefore = raw.last?.isWhitespace ?? false
                }
            } else if segment["text"] == nil {
                throw error(segmentPath, "the segment has neither \"tokens\" nor \"text\"", found: segmentValue,
                            expected: "segments with \"tokens\" (whisper-cli -ojf), or at least \"text\" and \"offsets\"")
            }
            if segmentWords.isEmpty, let textValue = segment["text"] {
                let text = try string(textValue, at: segmentPath.appending("text"), expected: "the segment's text as a string")
                let pieces = Transcript.words(in: text).filter { !Self.isSpecialToken($0) }
                if !pieces.isEmpty {
                    let (from, to) = try offsets(segment["offsets"], at: segmentPath.appending("offsets"))
                    segmentWords = Transcript.spread(pieces, from: from, to: to)
                }
            }
            words += segmentWords
        }
        return words
    }
}

// MARK: Karaoke WebVTT

/// Reads WebVTT with inline karaoke timestamps: the cues (and their errors) come from `SubtitleTrack`,
/// the timestamps from each cue's payload lines, found again by the cue's line number.
private struct KaraokeReader {
    /// The whole file's text.
    let text: String
    /// The file's name, for errors.
    let name: String
    /// The file's lines, split exactly as `SubtitleTrack` splits them (so cue line numbers index them),
    /// and its WebVTT timestamp reader.
    let parser: SubtitleParser

    /// A reader of `text`, named `name` in errors.
    init(text: String, name: String) {
        self.text = text
        self.name = name
        self.parser = SubtitleParser(text: text, name: name, format: .webVTT)
    }

    /// One piece of a cue's payload: text, or a timestamp with the index of its line.
    enum Piece {
        /// Text, tags removed and entities decoded.
        case text(String)
        /// A karaoke timestamp as read and as written (between `<` and `>`), on line `lineIndex` (from 0).
        case timestamp(Time, written: String, lineIndex: Int)
    }

    /// Every cue's words. A line without timestamps that repeats the last timed line before it is left
    /// out: YouTube's captions roll, each cue showing the line just spoken again above the one being
    /// spoken (and a 10 ms cue of that line alone between them). Cues without timestamps that repeat
    /// each other (a sung "Hey!" twice) are all kept.
    func words() throws(MovieMakerError) -> [TranscriptWord] {
        let track = try SubtitleTrack(webVTT: text, name: name)
        var result: [TranscriptWord] = []
        var lastTimedLine: String? = nil
        for cue in track.cues {
            let (words, timedLine) = try self.words(of: cue, leavingOut: lastTimedLine)
            result += words
            if let timedLine { lastTimedLine = timedLine }
        }
        return result
    }

    /// A transcript error on line `index` (from 0).
    func error(_ index: Int, _ reason: String, expected: String) -> MovieMakerError {
        .invalidSubtitles(path: name, line: index + 1, text: String(parser.lines[index]), reason: reason, expected: expected)
    }

    /// The indices of the payload lines of the cue timed on line `timingIndex` (from 0), lines of spaces
    /// left out: up to an empty line or the next cue, by the rule `SubtitleParser` reads WebVTT with
    /// (YouTube opens each cue with a line of one space).
    func payloadLines(afterTiming timingIndex: Int) -> [Int] {
        let lines = parser.lines
        var payload: [Int] = []
        var j = timingIndex + 1
        while j < lines.count && !lines[j].isEmpty {
            if Transcript.looksLikeTiming(lines[j]) { break }
            if j > timingIndex + 1, Transcript.isBlank(lines[j - 1]), j + 1 < lines.count, Transcript.looksLikeTiming(lines[j + 1]) { break }
            if j + 1 < lines.count, Transcript.looksLikeTiming(lines[j + 1]), !payload.isEmpty,
               lines[j].trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) { break }
            payload.append(j)
            j += 1
        }
        return payload.filter { !Transcript.isBlank(lines[$0]) }
    }

    /// The pieces of line `index`: timestamps read, other tags (`<c>`, `</c>`, `<v Name>`, `<i>`, …)
    /// dropped, entities decoded; a `<` that starts no tag stays as text.
    func pieces(ofLine index: Int) throws(MovieMakerError) -> [Piece] {
        let characters = Array(parser.lines[index])
        var pieces: [Piece] = []
        var text = ""
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == "<", let close = characters[(i + 1)...].firstIndex(where: { $0 == ">" || $0 == "<" }), characters[close] == ">" {
                let body = String(characters[(i + 1)..<close])
                if let first = body.first {
                    if first.isNumber, body.contains(":"), body.allSatisfy({ $0.isNumber || $0 == ":" || $0 == "." || $0 == "," }) {
                        guard let time = parser.timestamp(body) else {
                            throw error(index, "<\(body)> is not a valid timestamp", expected: "inline timestamps such as <00:00:01.250> or <00:01.250>")
                        }
                        if !text.isEmpty { pieces.append(.text(text)); text = "" }
                        pieces.append(.timestamp(time, written: body, lineIndex: index))
                        i = close + 1
                        continue
                    }
                    if first.isLetter || first == "/" {
                        i = close + 1   // a tag: class, voice, italic, …
                        continue
                    }
                }
            }
            // Entities as in a plain cue (`&amp;`, `&#39;`, `&quot;`…).
            if c == "&", let semi = characters[(i + 1)...].prefix(12).firstIndex(of: ";"),
               let decoded = CueText.entity(String(characters[(i + 1)..<semi])) {
                text += decoded
                i = semi + 1
                continue
            }
            text.append(c)
            i += 1
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    /// The start and end of the cue timed on line `timingIndex`, as written, for errors.
    func writtenBounds(_ timingIndex: Int) -> String {
        let line = parser.lines[timingIndex]
        guard let arrow = line.range(of: "-->") else { return String(line) }
        let start = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        let end = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        return "\(start) --> \(end)"
    }

    /// The words of `cue`: the text before the first timestamp starts at the cue's start, each timestamp
    /// starts the text after it; a span holding several words is shared among them by weight; a word ends
    /// where the next starts, the last at the cue's end. Text that runs across a timestamp without a space
    /// (`Hel<00:00:01.300>lo`, karaoke by syllable) stays one word.
    /// A line without timestamps whose text is `repeated` is left out; `timedLine` is the text of the
    /// cue's last line with timestamps, if it has one.
    func words(of cue: SubtitleCue, leavingOut repeated: String? = nil) throws(MovieMakerError) -> (words: [TranscriptWord], timedLine: String?) {
        let timingIndex = cue.line - 1
        guard timingIndex >= 0, timingIndex < parser.lines.count else { return ([], nil) }
        var spans = [Span(start: cue.start, text: "")]
        var timedLine: String? = nil
        var kept = 0
        for index in payloadLines(afterTiming: timingIndex) {
            let pieces = try pieces(ofLine: index)
            let plain = pieces.map { if case let .text(t) = $0 { t } else { "" } }.joined().trimmingCharacters(in: .whitespaces)
            let timed = pieces.contains { if case .timestamp = $0 { true } else { false } }
            if timed { timedLine = plain } else if plain == repeated { continue }
            if kept > 0 { spans[spans.count - 1].text += "\n" }
            kept += 1
            for piece in pieces {
                switch piece {
                case let .text(s):
                    spans[spans.count - 1].text += s
                case let .timestamp(time, written, lineIndex):
                    let bounds = writtenBounds(timingIndex)
                    let expected = "inline timestamps within the cue's time (\(bounds)), each no earlier than the one before"
                    guard time >= cue.start, time <= cue.end else {
                        throw error(lineIndex, "the timestamp <\(written)> is outside its cue (\(bounds))", expected: expected)
                    }
                    guard time >= spans[spans.count - 1].start else {
                        throw error(lineIndex, "the timestamp <\(written)> goes back before the one before it", expected: expected)
                    }
                    spans.append(Span(start: time, text: ""))
                }
            }
        }

        // Each span's fragments; the first continues the word before when no space separates them.
        var groups: [Group] = []
        var insideWord = false
        for span in spans {
            let fragments = span.text.split(whereSeparator: Transcript.isWordSeparator).map(String.init)
            if !fragments.isEmpty {
                let startsInsideWord = span.text.first.map { !Transcript.isWordSeparator($0) } ?? false
                groups.append(Group(start: span.start, fragments: fragments, continuesWord: insideWord && startsInsideWord))
            }
            if let last = span.text.last { insideWord = !Transcript.isWordSeparator(last) }
        }

        // Word starts (ends are set below, from the next word's start).
        var found: [TranscriptWord] = []
        for (g, group) in groups.enumerated() {
            let end = g + 1 < groups.count ? groups[g + 1].start : cue.end
            let weights = group.fragments.map { Transcript.spreadWeight(of: $0) }
            let starts = Transcript.spreadStarts(weights: weights, from: group.start, to: end)
            for (k, fragment) in group.fragments.enumerated() {
                if k == 0, group.continuesWord, !found.isEmpty {
                    found[found.count - 1].text += fragment
                } else {
                    found.append(TranscriptWord(fragment, start: starts[k], end: starts[k]))
                }
            }
        }
        var visible = found.filter { !Transcript.isInvisible($0.text) }
        for k in visible.indices {
            visible[k].end = k + 1 < visible.count ? visible[k + 1].start : cue.end
        }
        return (visible, timedLine)
    }

    /// Payload text from one timestamp (or the cue's start) to the next.
    struct Span {
        /// When the text starts being spoken.
        var start: Time
        /// The text, tags removed, entities decoded, lines joined by `\n`.
        var text: String
    }

    /// A span that holds words: its start and its fragments (words, or the end of a word begun before).
    struct Group {
        /// When the span starts.
        var start: Time
        /// The span's text split at white space.
        var fragments: [String]
        /// Whether the first fragment continues the word before (no white space at the timestamp).
        var continuesWord: Bool
    }
}

internal import CFFmpeg
import Foundation
import Synchronization

/// A bookmark in a narration's text (`<mark name="cut"/>`) and when the narration reaches it.
public struct NarrationMark: Sendable, Hashable {
    /// The bookmark's name, as written in `name="…"`.
    public var name: String
    /// When it is reached, from the narration's start: the start of the first word after it (the
    /// narration's end when no word follows).
    public var time: Time

    /// The bookmark `name`, reached at `time`.
    public init(name: String, time: Time) {
        self.name = name; self.time = time
    }
}

/// Text spoken by eSpeak NG (linked in; each text in a child process, see `SpeechSynthesizer`), with
/// exact word times: a sound to mix like any other, a `transcript` for word-by-word captions that match
/// the voice by construction, and bookmarks whose times a timeline can cut on.
///
/// <!-- prelude: let pictures = Clip.color(.black, duration: 5); let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
/// ```swift
/// let voice = try Narration("Lisbon, <mark name=\"tram\"/> city of trams.", voice: "en-us", rate: 160)
/// let tram = voice.time(ofMark: "tram")!        // when "city" starts
/// try movie.addAudio(voice)                      // the voice, from the movie's start
/// let film = pictures.captioned(voice.transcript, style: CaptionStyle(.pop))
/// ```
///
/// The speech is made when the value is made (eSpeak NG is fast: many times real time) and kept for
/// the value's life, 44 KB per second of speech; values with the same text and settings share it.
///
/// - **Words and their times.** eSpeak NG reports where each word starts, to the sample; a word ends
///   where the next starts, less the silence before it (quieter than 1 % of full scale), so a
///   highlighted word goes out in the pause after it. The words are the text's runs between spaces,
///   tags left out, so punctuation stays on the word it follows (`"Lisbon,"`). eSpeak NG speaks some
///   short words with the word before as one (`"in the"`) and reports one start for both: they share
///   that word's time by their vowel groups, as `Transcript`'s subtitle cues do. eSpeak NG times the
///   words it separates by spaces: write Japanese and Chinese with a space between words (captions join
///   such words without one).
/// - **Markup.** Text holding `<` (or an XML entity such as `&lt;`) is read as SSML, as eSpeak NG reads it (`<break time="500ms"/>`,
///   `<emphasis>`, `<prosody rate="slow">`, `&amp;`; a `<` that is text is written `&lt;`). A bookmark `<mark name="cut"/>` is reached when
///   the first word after it starts: the reliable rule, since eSpeak NG 1.51 drops a bookmark that
///   follows a sentence's last punctuation.
/// - **The same in every process.** A text and its settings give the same samples and word times
///   whatever the process spoke before, so a studio, a batch and a render farm's chunks agree. For
///   that, MovieMaker speaks with eSpeak NG's pitch flutter and roughness off (eSpeak NG 1.51 runs both
///   on counters that no call resets), from a copy of its voice files kept in the user's cache folder
///   (`$XDG_CACHE_HOME/moviemaker`, else `~/.cache/moviemaker`, else the temporary folder).
public struct Narration: AudioSource, Hashable {
    /// What is spoken, as given (markup included).
    public let text: String
    /// The eSpeak NG voice: a language such as `"en-us"`, `"en-gb"`, `"fr"`, `"ar"` or `"ja"`, or a
    /// voice's name.
    public let voice: String
    /// How fast, in words per minute (80–450; eSpeak NG's default 175).
    public let rate: Int
    /// The voice's base pitch (0–100; 50 is the voice's own).
    public let pitch: Int
    /// Every spoken word with its exact time from the narration's start.
    public let transcript: Transcript
    /// For each word of `transcript`, whether its start is the synthesiser's own (false for the words
    /// it spoke with the one before, which share that word's time): the reference the alignment tests
    /// and benchmark measure against.
    package let startsFromSynthesizer: [Bool]
    /// The bookmarks, in the order written.
    public let marks: [NarrationMark]
    /// How long the speech lasts, to its last sample.
    public let length: Time
    /// The speech's samples, shared by copies.
    private let speech: SpeechSamples

    /// The fastest and slowest rates eSpeak NG speaks at, in words per minute.
    public static let rates = 80...450
    /// The pitches eSpeak NG takes.
    public static let pitches = 0...100
    /// The longest text a narration speaks: 100,000 characters, about two hours of speech at the
    /// default rate (a script longer than that is a mistake, and each narration's speech is in memory).
    public static let maximumTextLength = 100_000

    /// Speaks `text` with eSpeak NG's `voice` at `rate` words per minute and base `pitch`. Throws
    /// `.invalidSetting` for an empty or over-long text, an unknown voice (naming the nearest), a rate or
    /// pitch out of range, or a bookmark without a name or named twice.
    public init(_ text: String, voice: String = "en-us", rate: Int = 175, pitch: Int = 50) throws(MovieMakerError) {
        guard Self.rates.contains(rate) else {
            throw .invalidSetting(.narrationRate, value: "\(rate)", expected: "\(Self.rates.lowerBound) to \(Self.rates.upperBound) words per minute (175 is eSpeak NG's default)")
        }
        guard Self.pitches.contains(pitch) else {
            throw .invalidSetting(.narrationPitch, value: "\(pitch)", expected: "\(Self.pitches.lowerBound) to \(Self.pitches.upperBound) (50 is the voice's own)")
        }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= Self.maximumTextLength else {
            throw .invalidSetting(.narrationText, value: "of \(scalars.count) characters",
                                  expected: "at most \(Self.maximumTextLength) characters: split a long script into several narrations")
        }
        // Markup holds a tag, or an entity alone (`one &lt; two`, as a < that is text must be written).
        let markup = scalars.contains("<") || ["&lt;", "&gt;", "&amp;", "&quot;", "&apos;"].contains { text.contains($0) }
        if markup { try Self.checkTags(in: scalars) }
        guard !Self.spokenText(scalars[...], markup: markup).allSatisfy(\.isWhitespace) else {
            throw .invalidSetting(.narrationText, value: "\"\(text)\"", expected: "words to speak")
        }
        let bookmarks = try Self.bookmarks(in: scalars)
        let key = CacheKey(text: text, voice: voice, rate: rate, pitch: pitch)
        let spoken: Spoken
        if let cached = Self.cache.withLock({ cache in cache.first { $0.key == key }?.spoken }) {
            spoken = cached
        } else {
            let speech = try SpeechSynthesizer.speak(text, voice: voice, rate: rate, pitch: pitch, markup: markup)
            spoken = Self.spoken(speech, text: scalars, markup: markup, bookmarks: bookmarks)
            Self.cache.withLock { cache in
                cache.removeAll { $0.key == key }
                cache.insert((key, spoken), at: 0)
                // A few recent texts: a studio or a template batch asks for the same narration again and again.
                var kept = 0, total = 0
                cache = cache.prefix { entry in
                    total += entry.spoken.samples.samples.count; kept += 1
                    return kept <= 8 && (kept == 1 || total <= Self.cachedSamples)
                }.map { $0 }
            }
        }
        self.text = text; self.voice = voice; self.rate = rate; self.pitch = pitch
        transcript = spoken.transcript
        startsFromSynthesizer = spoken.startsFromSynthesizer
        marks = spoken.marks
        length = spoken.length
        speech = spoken.samples
    }

    /// How long the narration lasts (never nil).
    public var duration: Time? { length }

    /// When the bookmark `name` is reached, from the narration's start; nil when the text has none of that name.
    public func time(ofMark name: String) -> Time? {
        marks.first { $0.name == name }?.time
    }

    /// Opens the speech for one render in `format` (resampled from eSpeak NG's rate with libswresample).
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try format.validateForMixing()
        return try NarrationReader(speech: speech, format: format, frameCount: format.frame(at: length))
    }

    /// Narrations are equal when they speak the same text the same way (the speech follows from that).
    public static func == (a: Narration, b: Narration) -> Bool {
        a.text == b.text && a.voice == b.voice && a.rate == b.rate && a.pitch == b.pitch
    }

    /// Hashes what the speech follows from.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text); hasher.combine(voice); hasher.combine(rate); hasher.combine(pitch)
    }

    // MARK: Reading the speech

    /// A speech and what follows from it.
    private struct Spoken: Sendable {
        var samples: SpeechSamples
        var transcript: Transcript
        var startsFromSynthesizer: [Bool]
        var marks: [NarrationMark]
        var length: Time
    }

    private struct CacheKey: Hashable, Sendable {
        var text: String, voice: String, rate: Int, pitch: Int
    }

    /// Recent speeches, newest first.
    private static let cache = Mutex<[(key: CacheKey, spoken: Spoken)]>([])
    /// How many samples the cache keeps beyond the newest speech: ten minutes at 22,050 Hz (26 MB).
    private static let cachedSamples = 10 * 60 * 22_050

    /// The words, their times and the bookmarks' times in `speech` of the text `scalars`.
    ///
    /// eSpeak NG's word events point at characters of the text, but not always the first character of a
    /// word: an entity, or a tag after a sentence's end, shifts them by one or more. So the words are the
    /// text's own runs between spaces, and each event starts the run whose first character is nearest
    /// its position (never an earlier run than the event before). Several events on one run (a number
    /// read as three words, a hyphenated word, unspaced Japanese) start it once; a run no event starts
    /// (a lone dash) joins the word before it.
    private static func spoken(_ speech: Speech, text scalars: [Unicode.Scalar], markup: Bool,
                               bookmarks: [(name: String, character: Int)]) -> Spoken {
        let rate = Int64(speech.sampleRate)
        let total = speech.samples.count
        let runs = runs(of: scalars, markup: markup)
        var started: [(run: Int, sample: Int)] = []
        for e in speech.words where !runs.isEmpty {
            // The run the position is in; between runs, the nearer of the two.
            var lo = 0, hi = runs.count
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if runs[mid].character <= e.character { lo = mid } else { hi = mid }
            }
            var run = lo
            if lo + 1 < runs.count, runs[lo].character <= e.character, e.character >= runs[lo].end,
               runs[lo + 1].character - e.character < e.character - (runs[lo].end - 1) { run = lo + 1 }
            if let last = started.last {
                guard run > last.run else { continue }
                started.append((run, max(e.sample, last.sample)))
            } else {
                started.append((run, e.sample))
            }
        }
        var words: [TranscriptWord] = []
        var fromSynthesizer: [Bool] = []
        // When each run's word starts (the end for runs never spoken), for the bookmarks.
        var runStarts = [Time](repeating: Time(value: Int64(total), timescale: rate), count: runs.count)
        for (k, s) in started.enumerated() {
            let next = k + 1 < started.count ? started[k + 1] : nil
            let first = k == 0 ? 0 : s.run      // runs before the first spoken one join it
            // Punctuation alone ("—") joins the word before it.
            var texts: [String] = []
            var wordOfRun: [Int] = []   // for each run of the group, its word among `texts`
            for run in runs[first..<(next?.run ?? runs.count)] {
                if let last = texts.last, !run.text.contains(where: { $0.isLetter || $0.isNumber }) {
                    texts[texts.count - 1] = last + " " + run.text
                } else {
                    texts.append(run.text)
                }
                wordOfRun.append(texts.count - 1)
            }
            let end = audibleEnd(speech.samples, from: s.sample, before: max(s.sample, next?.sample ?? total))
            let start = Time(value: Int64(s.sample), timescale: rate), stop = Time(value: Int64(end), timescale: rate)
            // eSpeak NG speaks some short words with the one before as one ("in the", "with the") and
            // reports one start: the words share its time by their vowel groups, as a subtitle cue's do.
            let group = texts.count == 1 ? [TranscriptWord(texts[0], start: start, end: stop)] : Transcript.spread(texts, from: start, to: stop)
            for (offset, w) in wordOfRun.enumerated() { runStarts[first + offset] = group[w].start }
            words += group
            fromSynthesizer += texts.indices.map { $0 == 0 }
        }
        // A mark is reached when the first word after it starts, as the transcript times that word (a
        // word eSpeak NG spoke with the one before included); punctuation alone ("…"), joined to the word
        // before, is not a word after it.
        let marks = bookmarks.map { mark in
            let next = runs.indices.first { runs[$0].character > mark.character && runs[$0].text.contains { $0.isLetter || $0.isNumber } }
            return NarrationMark(name: mark.name, time: next.map { runStarts[$0] } ?? Time(value: Int64(total), timescale: rate))
        }
        return Spoken(samples: SpeechSamples(speech.samples, rate: speech.sampleRate), transcript: Transcript(words: words),
                      startsFromSynthesizer: fromSynthesizer, marks: marks,
                      length: Time(value: Int64(total), timescale: rate))
    }

    /// A run of the text between spaces, tags left out and entities read: a word as shown.
    private struct Run {
        /// The run's text.
        var text: String
        /// Where its first character is in the text (a Unicode scalar index).
        var character: Int
        /// Just after its last character.
        var end: Int
    }

    /// The runs of `scalars` between white space; in markup, tags are left out (they do not split a run)
    /// and entities are read.
    private static func runs(of scalars: [Unicode.Scalar], markup: Bool) -> [Run] {
        var runs: [Run] = []
        var current = String.UnicodeScalarView()
        var start = 0, end = 0
        var inTag = false
        func flush() {
            if !current.isEmpty { runs.append(Run(text: markup ? readEntities(String(current)) : String(current), character: start, end: end)) }
            current = String.UnicodeScalarView()
        }
        for (i, s) in scalars.enumerated() {
            if inTag { if s == ">" { inTag = false }; continue }
            if markup, s == "<" { inTag = true; continue }
            if s.properties.isWhitespace { flush(); continue }
            if current.isEmpty { start = i }
            current.append(s)
            end = i + 1
        }
        flush()
        return runs
    }

    /// Where the sound between `start` and `boundary` ends: `boundary` less the quiet run before it,
    /// in 5 ms steps (at least one step after `start`, and never past `boundary`).
    private static func audibleEnd(_ samples: [Int16], from start: Int, before boundary: Int) -> Int {
        let step = 110, quiet: Int32 = 328    // 5 ms at 22,050 Hz; 1 % of full scale
        var end = boundary
        while end - step > start + step {
            let loudest = samples[(end - step)..<end].reduce(Int32(0)) { max($0, abs(Int32($1))) }
            if loudest >= quiet { break }
            end -= step
        }
        return end
    }

    /// `scalars` with tags removed and, in markup, the five XML entities read.
    private static func spokenText(_ scalars: ArraySlice<Unicode.Scalar>, markup: Bool) -> String {
        var out = String.UnicodeScalarView()
        var inTag = false
        for s in scalars {
            if markup, s == "<" { inTag = true; continue }
            if inTag { if s == ">" { inTag = false }; continue }
            out.append(s)
        }
        return markup ? readEntities(String(out)) : String(out)
    }

    /// Refuses a `<` that starts no tag (`one < two`) or a tag that is never closed: eSpeak NG, reading
    /// the text as SSML, silently drops the words up to the next `>` it finds.
    private static func checkTags(in scalars: [Unicode.Scalar]) throws(MovieMakerError) {
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "<" else { i += 1; continue }
            let next = i + 1 < scalars.count ? scalars[i + 1] : " "
            let startsTag = next.properties.isAlphabetic || next == "/" || next == "!" || next == "?"
            let close = scalars[(i + 1)...].firstIndex { $0 == ">" || $0 == "<" }
            guard startsTag, let close, scalars[close] == ">" else {
                let shown = String(String.UnicodeScalarView(scalars[i..<min(scalars.count, i + 24)]))
                throw .invalidSetting(.narrationText, value: "\"\(shown)\(i + 24 < scalars.count ? "…" : "")\"",
                                      expected: "a tag such as <break time=\"500ms\"/> after each < (text holding < is read as SSML): write a < that is text as &lt;")
            }
            i = close + 1
        }
    }

    /// `text` with the five XML entities read.
    private static func readEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var text = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// The bookmarks `<mark name="…"/>` in `scalars`: each name and the position of its `<`.
    private static func bookmarks(in scalars: [Unicode.Scalar]) throws(MovieMakerError) -> [(name: String, character: Int)] {
        let text = String(String.UnicodeScalarView(scalars))
        guard text.contains("<mark") else { return [] }
        var found: [(name: String, character: Int)] = []
        var i = 0
        let opening = Array("<mark".unicodeScalars)
        while i + opening.count <= scalars.count {
            guard Array(scalars[i..<(i + opening.count)]) == opening,
                  i + opening.count < scalars.count, [" ", "\t", "\n", "/", ">"].contains(scalars[i + opening.count]) else { i += 1; continue }
            let close = scalars[i...].firstIndex(of: ">") ?? scalars.count
            let tag = String(String.UnicodeScalarView(scalars[i..<close]))
            guard let name = attribute("name", in: tag), !name.isEmpty else {
                throw .invalidSetting(.narrationText, value: "\(tag)>", expected: "a bookmark with a name: <mark name=\"cut\"/>")
            }
            guard !name.contains("#") else {
                throw .invalidSetting(.narrationText, value: "<mark name=\"\(name)\"/>", expected: "a bookmark name without \"#\" (a timeline names it as \"narration#\(name.replacingOccurrences(of: "#", with: ""))\")")
            }
            guard !found.contains(where: { $0.name == name }) else {
                throw .invalidSetting(.narrationText, value: "<mark name=\"\(name)\"/>", expected: "each bookmark named once: \"\(name)\" is used twice")
            }
            found.append((name, i))
            i = close
        }
        return found
    }

    /// The value of `name="…"` (or `'…'`) in a tag's text.
    private static func attribute(_ name: String, in tag: String) -> String? {
        for quote in ["\"", "'"] {
            if let r = tag.range(of: "\(name)=\(quote)"), let end = tag[r.upperBound...].range(of: quote) {
                return String(tag[r.upperBound..<end.lowerBound])
            }
        }
        return nil
    }
}

/// eSpeak NG's samples for one text, shared by the narrations that speak it and their readers.
final class SpeechSamples: Sendable {
    /// The samples, mono, 16-bit.
    let samples: [Int16]
    /// Samples per second.
    let rate: Int

    init(_ samples: [Int16], rate: Int) {
        self.samples = samples; self.rate = rate
    }
}

/// Plays a narration's samples in a render's format: libswresample converts blocks as they are read.
final class NarrationReader: AudioReader {
    let format: AudioFormat
    private let speech: SpeechSamples
    /// The resampler (its only owner).
    private let resampler: OwnedResampler
    /// How many sample frames the narration lasts in `format`; past them it is silent.
    private let frameCount: Int64
    /// Sample frames produced so far (given out and waiting in `pending`).
    private var produced: Int64 = 0
    /// The next input sample to convert.
    private var inputPosition = 0
    /// Whether the resampler was drained.
    private var drained = false
    /// Converted frames not yet read.
    private var pending: [Float] = []
    private var pendingStart = 0

    init(speech: SpeechSamples, format: AudioFormat, frameCount: Int64) throws(MovieMakerError) {
        self.format = format; self.speech = speech; self.frameCount = frameCount
        var inLayout = AVChannelLayout(), outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, 1)
        av_channel_layout_default(&outLayout, Int32(format.channelCount))
        defer { av_channel_layout_uninit(&inLayout); av_channel_layout_uninit(&outLayout) }
        let operation = "narration \(speech.rate) Hz → \(format.sampleRate) Hz × \(format.channelCount)"
        resampler = try OwnedResampler(from: &inLayout, format: AV_SAMPLE_FMT_S16.rawValue, rate: Int32(speech.rate),
                                       to: &outLayout, format: AV_SAMPLE_FMT_FLT, rate: Int32(format.sampleRate), operation: operation)
        if format.channelCount > 1 {
            // The voice at full level on every channel (swresample's default puts mono at −3 dB).
            let matrix = [Double](repeating: 1, count: format.channelCount)
            try ffCheck(swr_set_matrix(resampler.pointer, matrix, 1), "swr_set_matrix (mono → \(format.channelCount))")
        }
        try resampler.initialise(operation: operation)
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount count: Int) throws {
        let channels = format.channelCount
        var written = 0
        while written < count {
            let available = (pending.count - pendingStart) / channels
            if available == 0 {
                if drained { break }
                try convertMore()
                continue
            }
            let n = min(available, count - written)
            pending.withUnsafeBufferPointer { p in
                (buffer + written * channels).update(from: p.baseAddress! + pendingStart, count: n * channels)
            }
            pendingStart += n * channels
            written += n
        }
        if written < count { (buffer + written * channels).update(repeating: 0, count: (count - written) * channels) }
    }

    /// Converts the next block of input (or drains the resampler at the end) into `pending`, keeping
    /// only the narration's `frameCount` frames in all.
    private func convertMore() throws(MovieMakerError) {
        let channels = format.channelCount
        let block = min(4096, speech.samples.count - inputPosition)
        let capacity = Int(swr_get_out_samples(resampler.pointer, Int32(block))) + 32
        var out = [Float](repeating: 0, count: capacity * channels)
        let r: Int32 = out.withUnsafeMutableBufferPointer { o in
            o.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: capacity * channels * 4) { bytes in
                var outPlanes: [UnsafeMutablePointer<UInt8>?] = [bytes]
                if block == 0 { return swr_convert(resampler.pointer, &outPlanes, Int32(capacity), nil, 0) }
                return speech.samples.withUnsafeBufferPointer { s in
                    (s.baseAddress! + inputPosition).withMemoryRebound(to: UInt8.self, capacity: block * 2) { input in
                        var inPlanes: [UnsafePointer<UInt8>?] = [UnsafePointer(input)]
                        return swr_convert(resampler.pointer, &outPlanes, Int32(capacity), &inPlanes, Int32(block))
                    }
                }
            }
        }
        guard r >= 0 else { throw .ffmpeg(operation: "swr_convert (narration)", code: r, message: ffmpegMessage(r)) }
        if block == 0 { drained = true } else { inputPosition += block }
        let kept = Int(max(0, min(Int64(r), frameCount - produced)))
        produced += Int64(kept)
        if produced >= frameCount { drained = true }
        pending = Array(out.prefix(kept * channels))
        pendingStart = 0
    }
}

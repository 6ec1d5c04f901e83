import Foundation

extension Transcript {
    /// The words of `text` placed on the speech in `sound`, in-process with PocketSphinx (Debian's
    /// `libpocketsphinx-dev` and its `pocketsphinx-en-us` model): the accurate way to caption a script
    /// someone read.
    ///
    /// The method: the text's words are a grammar, one chain in order, and the recogniser finds where
    /// each starts and ends. It goes a sentence at a time, each window of audio running from where the
    /// last sentence ended to a generous estimate past this one, its grammar the sentence's words and the
    /// next eight (which it may stop after any of), so long recordings cost time in proportion to their
    /// length and a stumble stays local. A window that does not match is tried again letting its first
    /// words be skipped; a word still not found is given a share of the time around it. A faint noise
    /// floor (−80 dBFS, the same on every run) is added, since the recogniser's front end fails on the
    /// exact digital silence of synthesised speech. Words missing from the en-us dictionary are
    /// pronounced as eSpeak NG would say them.
    ///
    /// Measured on eSpeak NG speech of 300 words (`make bench-transcribe`): the median error of a word's
    /// start is about 10 ms, 95 % within 60 ms, at about 0.05× real time on one core. English only.
    ///
    /// The words are the text's runs between spaces, punctuation kept (`"Lisbon,"`); times are exact to
    /// the recogniser's 10 ms frames. Throws `.speechModelMissing` when the model is not installed, and
    /// `.invalidSetting` for a text with no words or a sound without an end.
    public init(aligning text: String, to sound: any AudioSource) throws(MovieMakerError) {
        let script = SpokenScript(text)
        guard !script.words.isEmpty else {
            throw .invalidSetting(.transcriptText, value: "\"\(text.prefix(80))\"", expected: "a text with words to place on the speech")
        }
        let audio = try SpeechAudio(sound)
        let decoder = try SphinxDecoder(languageModel: false)
        let chain = try script.pronounceable(by: decoder)
        let times = try Self.align(chain, audio: audio, decoder: decoder)
        self.init(words: script.transcriptWords(chain: chain, times: times, length: audio.length))
    }

    /// English speech in `sound` recognised word by word, in-process with PocketSphinx's en-us language
    /// model: a best effort. Its accuracy is low on anything but clear, close speech (a word error
    /// rate of about 60 % on eSpeak NG's voices, see `make bench-transcribe`); when the words are known,
    /// `init(aligning:to:)` is the accurate way. The sound is recognised in pieces of about 20 s, cut at
    /// their quietest moment. Words come in lower case without punctuation.
    public init(recognizing sound: any AudioSource) throws(MovieMakerError) {
        let audio = try SpeechAudio(sound)
        let decoder = try SphinxDecoder(languageModel: true)
        var words: [TranscriptWord] = []
        var start = 0
        let piece = 20 * SphinxDecoder.sampleRate
        while start < audio.total {
            var end = min(audio.total, start + piece)
            let samples = try audio.samples(start..<min(audio.total, end + 2 * SphinxDecoder.sampleRate))
            if end < audio.total { end = start + SpeechAudio.quietest(samples, in: (piece - 2 * SphinxDecoder.sampleRate)..<min(samples.count, piece + 2 * SphinxDecoder.sampleRate)) }
            let heard = samples.withUnsafeBufferPointer { p in decoder.decode(UnsafeBufferPointer(rebasing: p[0..<(end - start)])) }
            let offset = Time(value: Int64(start), timescale: Int64(SphinxDecoder.sampleRate))
            for s in heard {
                words.append(TranscriptWord(s.word, start: offset + Self.frameTime(s.firstFrame), end: offset + Self.frameTime(s.lastFrame + 1)))
            }
            audio.discard(before: end)
            start = end
        }
        self.init(words: words)
    }

    /// The time of a recogniser frame.
    static func frameTime(_ frame: Int) -> Time { Time(value: Int64(frame), timescale: Int64(SphinxDecoder.framesPerSecond)) }

    /// Each chain word's start and end (nil where it was not found), by the sentence window.
    private static func align(_ chain: [SpokenScript.ChainWord], audio: SpeechAudio,
                              decoder: SphinxDecoder) throws(MovieMakerError) -> [(start: Time, end: Time)?] {
        var times = [(start: Time, end: Time)?](repeating: nil, count: chain.count)
        let rate = SphinxDecoder.sampleRate
        let lookAhead = 8
        // A generous 0.45 s a word, and a second more.
        let secondsPerWord = 0.45
        var cursor = 0
        var w0 = 0
        while w0 < chain.count {
            var w1 = w0
            while w1 < chain.count, chain[w1].sentence == chain[w0].sentence { w1 += 1 }
            let ahead = min(lookAhead, chain.count - w1)
            var end = cursor + Int(Double(w1 - w0 + ahead) * secondsPerWord * Double(rate)) + rate
            if end > audio.total || ahead < lookAhead { end = audio.total }
            var matched = 0
            for skippable in [false, true] {
                try decoder.setChain(chain[w0..<(w1 + ahead)].map(\.word), lookAhead: ahead, skippable: skippable)
                let samples = try audio.samples(cursor..<end)
                let heard = samples.withUnsafeBufferPointer { decoder.decode($0) }
                let offset = Time(value: Int64(cursor), timescale: Int64(rate))
                // Each heard word is the next expected one (up to three may have been skipped).
                var next = w0
                var found: [(Int, Time, Time)] = []
                for s in heard {
                    var k = next
                    while k < w1, k < next + 4, chain[k].word != s.word { k += 1 }
                    if k >= w1 { break }
                    guard k < next + 4 else { continue }
                    found.append((k, offset + frameTime(s.firstFrame), offset + frameTime(s.lastFrame + 1)))
                    next = k + 1
                }
                matched = next - w0
                if !skippable, matched == w1 - w0 {
                    for (k, a, b) in found { times[k] = (a, b) }
                    break
                }
                if skippable {
                    // The last word found may be stretched over what follows it: kept only when it is not the last.
                    if found.count >= 2 {
                        found.removeLast()
                        for (k, a, b) in found { times[k] = (a, b) }
                        matched = found.last!.0 + 1 - w0
                    } else {
                        matched = 0
                    }
                }
            }
            if matched == 0 {
                // Nothing matched: leave the word to the interpolation and move on a little.
                w0 += 1
                cursor = min(audio.total, cursor + rate * 3 / 10)
                continue
            }
            let last = (w0..<(w0 + matched)).last { times[$0] != nil }
            if let last, let t = times[last] { cursor = max(cursor, audio.sampleIndex(at: t.end)) }
            audio.discard(before: cursor)
            w0 += matched
        }
        return times
    }
}

/// A text as the aligner reads it: its runs between spaces (the words shown), each with the dictionary
/// words in it (letters and apostrophes, lower case: `"Well-known,"` holds `well` and `known`), and the
/// sentence it belongs to.
struct SpokenScript {
    /// A run between spaces.
    struct Run {
        var text: String
        var words: [String]
        var sentence: Int
    }
    /// A word of the chain the recogniser follows: its dictionary form, its run and sentence.
    struct ChainWord {
        var word: String
        var run: Int
        var sentence: Int
    }

    let runs: [Run]

    init(_ text: String) {
        var runs: [Run] = []
        var sentence = 0
        for piece in text.split(whereSeparator: \.isWhitespace) {
            let words = piece.split { !($0.isLetter || $0 == "'" || $0 == "’") }
                .map { $0.lowercased().replacingOccurrences(of: "’", with: "'").trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
                .filter { !$0.isEmpty }
            runs.append(Run(text: String(piece), words: words, sentence: sentence))
            let trimmed = piece.trimmingCharacters(in: CharacterSet(charactersIn: "\"'”’)]»"))
            if let last = trimmed.last, ".!?…".contains(last) { sentence += 1 }
        }
        self.runs = runs
    }

    /// Every dictionary word, in order.
    var words: [ChainWord] {
        runs.enumerated().flatMap { (i, run) in run.words.map { ChainWord(word: $0, run: i, sentence: run.sentence) } }
    }

    /// The chain the decoder can follow: words it does not know are added with eSpeak NG's pronunciation,
    /// or left out (then timed by interpolation).
    func pronounceable(by decoder: SphinxDecoder) throws(MovieMakerError) -> [ChainWord] {
        var known: [String: Bool] = [:]
        var unknown: [String] = []
        for w in words where known[w.word] == nil {
            known[w.word] = decoder.knows(w.word)
            if known[w.word] == false { unknown.append(w.word) }
        }
        // eSpeak NG's pronunciations of all the unknown words at once (one child process).
        for (word, phonemes) in zip(unknown, try SpeechSynthesizer.phonemes(of: unknown)) {
            if let phonemes, let phones = ARPAbet.phones(fromESpeak: phonemes) { known[word] = decoder.add(word, phones: phones) }
        }
        return words.filter { known[$0.word] == true }
    }

    /// The runs as transcript words, from the chain's times: a run lasts from its first timed word's
    /// start to its last's end; runs without letters join the run before; runs not found share the time
    /// between their neighbours (or, when there is none, the time of the run before) by vowel groups.
    func transcriptWords(chain: [ChainWord], times: [(start: Time, end: Time)?], length: Time) -> [TranscriptWord] {
        var runTimes = [(start: Time, end: Time)?](repeating: nil, count: runs.count)
        for (word, time) in zip(chain, times) {
            guard let time else { continue }
            if let t = runTimes[word.run] {
                runTimes[word.run] = (Time.min(t.start, time.start), Time.max(t.end, time.end))
            } else {
                runTimes[word.run] = time
            }
        }
        // Punctuation alone joins the run before it (or the one after, at the start).
        var shown: [(text: String, time: (start: Time, end: Time)?)] = []
        var pending = ""
        for (run, time) in zip(runs, runTimes) {
            if run.words.isEmpty {
                if shown.isEmpty { pending += (pending.isEmpty ? "" : " ") + run.text } else { shown[shown.count - 1].text += " " + run.text }
                continue
            }
            shown.append(((pending.isEmpty ? "" : pending + " ") + run.text, time))
            pending = ""
        }
        var result: [TranscriptWord] = []
        var i = 0
        while i < shown.count {
            if let time = shown[i].time {
                result.append(TranscriptWord(shown[i].text, start: time.start, end: Time.max(time.start, time.end)))
                i += 1
                continue
            }
            // A run of untimed words: the gap between the neighbours, or a share of the word before.
            var j = i
            while j < shown.count, shown[j].time == nil { j += 1 }
            let texts = shown[i..<j].map(\.text)
            let before = result.last?.end ?? .zero
            let after = j < shown.count ? shown[j].time!.start : length
            if after > before {
                result += Transcript.spread(texts, from: before, to: after)
            } else if let previous = result.popLast() {
                result += Transcript.spread([previous.text] + texts, from: previous.start, to: previous.end)
            } else if j < shown.count, let next = shown[j].time {
                // The sound starts on a later word (a clip played from past the script's first words): the
                // words before it share its time, so they stay in order and none overlaps another.
                result += Transcript.spread(texts + [shown[j].text], from: next.start, to: Time.max(next.end, next.start))
                i = j + 1
                continue
            } else {
                result += Transcript.spread(texts, from: .zero, to: Time.max(after, Time(value: 1, timescale: 100)))
            }
            i = j
        }
        return result
    }
}

/// Word error rate's numerator: the fewest insertions, deletions and substitutions turning one list of
/// words into another (Levenshtein over words). For the tests and the benchmark's transcription line.
package enum WordErrorRate {
    /// The edits from `reference` to `hypothesis`.
    package static func edits(_ reference: [String], _ hypothesis: [String]) -> Int {
        var previous = Array(0...hypothesis.count)
        for (i, r) in reference.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: hypothesis.count)
            for (j, h) in hypothesis.enumerated() {
                current[j + 1] = min(previous[j] + (r == h ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        return previous[hypothesis.count]
    }
}

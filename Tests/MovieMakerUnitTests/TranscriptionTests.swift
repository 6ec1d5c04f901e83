import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Transcripts from speech with PocketSphinx: a known text aligned to eSpeak NG speech (the
/// synthesiser's own word starts are the reference), and free recognition as a best effort.
@Suite("Transcription (PocketSphinx)")
struct TranscriptionTests {
    /// `Tests/Fixtures/captions/lighthouse.txt`: 314 words of plain prose in four paragraphs.
    static let lighthouse = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captions/lighthouse.txt")

    /// The `p`-quantile of `xs` (nearest rank).
    static func quantile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        return s[max(0, Int((p * Double(s.count)).rounded(.up)) - 1)]
    }

    @Test("a 314-word text aligned to its eSpeak NG speech: median word-start error ≤ 60 ms, 95th percentile ≤ 200 ms, every word in order")
    func alignment() throws {
        let text = try String(contentsOf: Self.lighthouse, encoding: .utf8)
        let voice = try Narration(text, voice: "en-gb")
        let aligned = try Transcript(aligning: text, to: voice)
        let reference = voice.transcript.words
        #expect(aligned.words.map(\.text) == reference.map(\.text))
        #expect(reference.count >= 200)
        var errors: [Double] = []
        for (k, (r, a)) in zip(reference, aligned.words).enumerated() where voice.startsFromSynthesizer[k] {
            errors.append(abs((a.start - r.start).seconds) * 1000)
        }
        #expect(errors.count >= 200)
        let median = Self.quantile(errors, 0.5), p95 = Self.quantile(errors, 0.95)
        #expect(median <= 60 && p95 <= 200, "median \(median) ms, 95th percentile \(p95) ms over \(errors.count) words")
        for (a, b) in zip(aligned.words, aligned.words.dropFirst()) { #expect(a.start < b.start && a.end <= b.start + Time(value: 1, timescale: 100)) }
        #expect(aligned.words.last!.end <= voice.length)
    }

    @Test("words the dictionary lacks are pronounced as eSpeak NG says them; punctuation alone joins the word before; an unspoken word gets a share of its neighbours' time")
    func unknownWordsAndMismatches() throws {
        let spoken = "The vlogger filmed a timelapse of the harbour — boats, cranes and gulls — before the storm came in."
        let voice = try Narration(spoken, voice: "en-us")
        let aligned = try Transcript(aligning: spoken, to: voice)
        let texts = aligned.words.map(\.text)
        #expect(texts.contains("vlogger") && texts.contains("timelapse") && texts.contains("harbour —") && texts.contains("gulls —"), "\(texts)")
        for word in ["vlogger", "timelapse"] {
            let a = try #require(aligned.words.first { $0.text == word }), r = try #require(voice.transcript.words.first { $0.text == word })
            #expect(abs((a.start - r.start).seconds) < 0.1, "\(word): \(a.start.seconds) s against \(r.start.seconds) s")
        }
        // "quietly" is in the text but not spoken: every word is still there, in order, inside the sound.
        let withExtra = spoken.replacingOccurrences(of: "before the storm", with: "quietly before the storm")
        let words = try Transcript(aligning: withExtra, to: voice).words
        var written: [String] = []
        for w in withExtra.split(separator: " ") { if w == "—" { written[written.count - 1] += " —" } else { written.append(String(w)) } }
        #expect(words.map(\.text) == written)
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.start <= $1.start } && words.last!.end <= voice.length)
    }

    @Test("free recognition gives timed lower-case words inside the sound, a best effort (under 90 % word errors on eSpeak NG's en-us voice)")
    func recognition() throws {
        let text = "The keeper climbed the narrow stairs and lit the great lamp, so that sailors could find their way home through the fog."
        let voice = try Narration(text, voice: "en-us", rate: 150)
        let heard = try Transcript(recognizing: voice).words
        #expect(!heard.isEmpty)
        #expect(heard.allSatisfy { $0.text == $0.text.lowercased() && $0.start >= .zero && $0.end <= voice.length + Time(value: 1, timescale: 100) })
        let reference = text.lowercased().split { !($0.isLetter || $0 == "'") }.map { String($0) }
        let errors = WordErrorRate.edits(reference, heard.map(\.text))
        #expect(Double(errors) / Double(reference.count) < 0.9, "\(errors) edits for \(reference.count) words: \(heard.map(\.text))")
    }

    /// A clip played from past the script's first words: the aligner finds "fox" at 0 s and nothing
    /// before it; the words before were spread over no time and sorted among the found ones.
    @Test("words before the first one found, with no time before it, share its time: in script order, none overlapping")
    func wordsBeforeTheFirstFoundShareItsTime() {
        let script = SpokenScript("The quick brown fox jumps over.")
        let t = { (a: Int, b: Int) in (start: Time(value: Int64(a), timescale: 100), end: Time(value: Int64(b), timescale: 100)) }
        let words = script.transcriptWords(chain: script.words, times: [nil, nil, nil, t(0, 14), t(14, 50), t(50, 80)], length: 1)
        #expect(words.map(\.text) == ["The", "quick", "brown", "fox", "jumps", "over."])
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.end <= $1.start && $0.start < $1.start }, "\(words.map { ($0.text, $0.start.seconds, $0.end.seconds) })")
        #expect(words[3].end == Time(value: 14, timescale: 100) && words[0].start == .zero)
    }

    @Test("a sound without an end, or a text without words, is a typed error naming it")
    func errors() throws {
        do { _ = try Transcript(aligning: "Hello.", to: ProceduralSound(duration: nil) { _, _ in }); Issue.record("an endless sound was accepted") } catch {
            #expect(error.setting == .transcriptSound)
        }
        do { _ = try Transcript(aligning: " — ... ", to: ProceduralSound.silence(duration: 1)); Issue.record("a text without words was accepted") } catch {
            #expect(error.setting == .transcriptText)
        }
    }
}

import Foundation
import MovieMaker

/// The transcription line of `make bench` (issue 37): how well and how fast a known text is placed on
/// speech (`Transcript(aligning:to:)`), and how many words free recognition (`Transcript(recognizing:)`)
/// gets wrong, on eSpeak NG speech of a 314-word text (`Tests/Fixtures/captions/lighthouse.txt`) in two
/// voices. The reference times are the synthesiser's own word starts (words it spoke with the one
/// before, which have none, are left out). Targets for alignment: median error ≤ 60 ms, 95th percentile
/// ≤ 200 ms; free recognition has none (its word error rate is reported, as the README states it).
struct TranscriptionBenchmark {
    /// The voices the text is spoken in.
    var voices = ["en-us", "en-gb"]

    struct VoiceResult: Encodable, Sendable {
        let voice: String
        let words: Int
        let compared: Int
        let speechSeconds: Double
        let medianMilliseconds: Double
        let p95Milliseconds: Double
        let maxMilliseconds: Double
        let alignSeconds: Double
        let wordErrorRate: Double
        let recogniseSeconds: Double
        var passes: Bool { medianMilliseconds <= 60 && p95Milliseconds <= 200 }
    }

    struct Result: Encodable, Sendable {
        let voices: [VoiceResult]
    }

    static let text = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/captions/lighthouse.txt")

    func run() throws -> Result {
        let text = try String(contentsOf: Self.text, encoding: .utf8)
        var results: [VoiceResult] = []
        for voice in voices {
            let speech = try Narration(text, voice: voice)
            var started = CPUClock.thread.seconds()
            let aligned = try Transcript(aligning: text, to: speech)
            let alignSeconds = CPUClock.thread.seconds() - started
            var errors: [Double] = []
            for (k, (a, r)) in zip(aligned.words, speech.transcript.words).enumerated() where speech.startsFromSynthesizer[k] && a.text == r.text {
                errors.append(abs((a.start - r.start).seconds) * 1000)
            }
            errors.sort()
            func quantile(_ p: Double) -> Double { errors.isEmpty ? .nan : errors[max(0, Int((p * Double(errors.count)).rounded(.up)) - 1)] }
            started = CPUClock.thread.seconds()
            let heard = try Transcript(recognizing: speech)
            let recogniseSeconds = CPUClock.thread.seconds() - started
            let reference = text.lowercased().split { !($0.isLetter || $0 == "'") }.map(String.init)
            let wer = Double(WordErrorRate.edits(reference, heard.words.map(\.text))) / Double(reference.count)
            results.append(VoiceResult(voice: voice, words: aligned.words.count, compared: errors.count, speechSeconds: speech.length.seconds,
                                       medianMilliseconds: quantile(0.5), p95Milliseconds: quantile(0.95), maxMilliseconds: errors.last ?? .nan,
                                       alignSeconds: alignSeconds, wordErrorRate: wer, recogniseSeconds: recogniseSeconds))
        }
        return Result(voices: results)
    }

    static func line(_ r: Result) -> String {
        var lines = ["transcription: a 314-word text spoken by eSpeak NG, aligned to its speech and recognised freely (PocketSphinx en-us), one thread"]
        for v in r.voices {
            lines.append(String(format: "    %@  %.1f s of speech: alignment median %.0f ms, 95th percentile %.0f ms, max %.0f ms over %d words (target ≤ 60 / ≤ 200 ms: %@), %.2f s CPU (%.3f× real time)",
                                v.voice, v.speechSeconds, v.medianMilliseconds, v.p95Milliseconds, v.maxMilliseconds, v.compared,
                                v.passes ? "met" : "MISSED", v.alignSeconds, v.alignSeconds / v.speechSeconds))
            lines.append(String(format: "    %@  free recognition: word error rate %.1f %%, %.1f s CPU (%.2f× real time)",
                                v.voice, 100 * v.wordErrorRate, v.recogniseSeconds, v.recogniseSeconds / v.speechSeconds))
        }
        return lines.joined(separator: "\n")
    }
}

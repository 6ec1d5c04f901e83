import Foundation
import Testing
import Synchronization
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Narration (eSpeak NG in a child process per text, word times from the synthesiser)")
struct NarrationTests {
    let format = AudioFormat.standard

    /// The narration's sound in `format`, to its last frame.
    func sound(_ n: Narration) throws -> [Float] {
        try AudioInTesting.render(n, frames: Int(format.frame(at: n.length)), format: format)
    }

    /// The loudest sample of `samples` (interleaved stereo) between two times.
    func peak(_ samples: [Float], from a: Time, to b: Time) -> Float {
        let lo = Int(format.frame(at: a)), hi = min(Int(format.frame(at: b)), samples.count / 2)
        guard hi > lo else { return 0 }
        return (lo..<hi).reduce(0) { max($0, abs(samples[$1 * 2])) }
    }

    @Test("English: one word per written word, punctuation kept, in order, each sounding within its time and silent in the pauses between",
          arguments: [("en-us", 175), ("en-gb", 140), ("en-us", 300)])
    func englishWords(voice: String, rate: Int) throws {
        let text = "Hello world, this is a narration. It speaks every word; then it pauses!"
        let n = try Narration(text, voice: voice, rate: rate)
        #expect(n.transcript.words.map(\.text) == text.split(separator: " ").map { String($0) })
        let samples = try sound(n)
        #expect(samples.count == 2 * Int(format.frame(at: n.length)))
        var previousEnd = Time.zero
        for w in n.transcript.words {
            #expect(w.start >= previousEnd && w.end > w.start && w.end <= n.length, "\(w)")
            // Times are eSpeak NG's samples, exactly.
            #expect(22_050 % w.start.timescale == 0 || w.start == .zero, "\(w.start)")
            #expect(peak(samples, from: w.start, to: w.end) > 0.05, "\"\(w.text)\" is silent within its time")
            previousEnd = w.end
        }
        // The pauses after "world," and "narration." are silent: the words end where the voice stops.
        for (a, b) in zip(n.transcript.words, n.transcript.words.dropFirst()) where b.start - a.end > Time(value: 1, timescale: 20) {
            #expect(peak(samples, from: a.end + Time(value: 1, timescale: 200), to: b.start - Time(value: 1, timescale: 200)) < 0.02, "after \"\(a.text)\"")
        }
        let pauses = zip(n.transcript.words, n.transcript.words.dropFirst()).filter { $1.start - $0.end > Time(value: 1, timescale: 20) }.map(\.0.text)
        #expect(pauses.contains("narration."), "\(pauses)")
    }

    @Test("Arabic and Japanese (words separated by spaces) give their written words, in order, with increasing times",
          arguments: [("ar", "مرحبا بالعالم، هذا اختبار للكلام."), ("ja", "きょう は いい てんき です。 あした も はれ です。")])
    func otherScripts(voice: String, text: String) throws {
        let n = try Narration(text, voice: voice)
        #expect(n.transcript.words.map(\.text) == text.split(separator: " ").map { String($0) })
        let starts = n.transcript.words.map(\.start)
        #expect(starts == starts.sorted() && Set(starts).count == starts.count)
        let samples = try sound(n)
        for w in n.transcript.words { #expect(peak(samples, from: w.start, to: w.end) > 0.05, "\(w.text)") }
    }

    @Test("words eSpeak NG speaks as one (\"in the\", \"with the\") are still words, sharing its time by their vowel groups")
    func mergedWords() throws {
        let n = try Narration("In the morning, boats come in with the catch.", voice: "en-gb")
        let words = n.transcript.words
        #expect(words.map(\.text) == ["In", "the", "morning,", "boats", "come", "in", "with", "the", "catch."])
        // "In the": one vowel group each, so the second starts halfway through their shared time.
        #expect(words[1].start == words[0].start + (words[1].end - words[0].start) / 2, "\(words[0]) \(words[1])")
        #expect(words[0].end == words[1].start)
    }

    @Test("bookmarks are reached when the next word starts, even after a sentence's last punctuation; the end mark at the narration's end")
    func bookmarks() throws {
        let n = try Narration("First part, <mark name=\"mid\"/> still first. <mark name=\"cut\"/>Second part. <mark name='end'/>")
        #expect(n.marks.map(\.name) == ["mid", "cut", "end"])
        let words = n.transcript.words
        #expect(words.map(\.text) == ["First", "part,", "still", "first.", "Second", "part."])
        #expect(n.time(ofMark: "mid") == words[2].start)
        #expect(n.time(ofMark: "cut") == words[4].start)
        #expect(n.time(ofMark: "end") == n.length)
        #expect(n.time(ofMark: "nowhere") == nil)
        // eSpeak NG speaks "in the" as one: a mark before "the" is reached when the transcript's "the"
        // starts, not with the word after it.
        let merged = try Narration("In <mark name=\"m\"/>the morning, boats come in.", voice: "en-gb")
        let spoken = merged.transcript.words
        #expect(spoken.map(\.text).prefix(2) == ["In", "the"])
        #expect(merged.startsFromSynthesizer.prefix(2) == [true, false], "eSpeak NG gave \"the\" no start of its own here")
        #expect(merged.time(ofMark: "m") == spoken[1].start, "\(String(describing: merged.time(ofMark: "m"))) vs \(spoken)")
        // Punctuation alone after a mark joins the word before it, but the mark waits for the next word.
        let dash = try Narration("Wait <mark name=\"x\"/>— then go.", voice: "en-gb")
        let dashWords = dash.transcript.words
        #expect(dashWords.map(\.text) == ["Wait —", "then", "go."], "\(dashWords)")
        #expect(dash.time(ofMark: "x") == dashWords[1].start, "\(String(describing: dash.time(ofMark: "x"))) vs \(dashWords)")
    }

    @Test("markup: a break makes the pause it asks for, entities are read, tags never show in the words")
    func markup() throws {
        let plain = try Narration("Fish and chips. Tea.")
        let marked = try Narration("Fish &amp; chips. <break time=\"1s\"/> Tea.")
        #expect(marked.transcript.words.map(\.text) == ["Fish", "&", "chips.", "Tea."])
        let gap = { (n: Narration) in n.transcript.words.last!.start - n.transcript.words[n.transcript.words.count - 2].end }
        // eSpeak NG's break replaces the sentence's own pause.
        #expect(gap(plain) < Time(value: 1, timescale: 2) && gap(marked) > Time(value: 9, timescale: 10), "\(gap(plain)) \(gap(marked))")
    }

    @Test("the same text and settings give the same words and samples; the rate changes the length")
    func deterministic() throws {
        let text = "The quick brown fox jumps over the lazy dog."
        let a = try Narration(text), b = try Narration(text)
        #expect(a == b && a.transcript == b.transcript && a.length == b.length)
        #expect(try sound(a) == sound(b))
        let slow = try Narration(text, rate: 100)
        #expect(slow.length > a.length + Time(value: 1, timescale: 1))
        #expect(slow.transcript.words.map(\.text) == a.transcript.words.map(\.text))
    }

    @Test("a text gives the same samples and word times whatever eSpeak NG spoke before: other voices, SSML left open, phonemes",
          arguments: ["en-us", "en-gb", "fr", "en-us+f3"])
    func independentOfHistory(voice: String) throws {
        // Straight to the synthesiser: `Narration` keeps recent speech, which would hide the synthesiser's state.
        func say() throws -> Speech { try SpeechSynthesizer.speak("Words follow the voice, softly.", voice: voice, rate: 175, pitch: 50, markup: false) }
        let first = try say()
        let detours: [() throws -> Void] = [
            { _ = try SpeechSynthesizer.speak("Bonjour le monde, ceci est un test.", voice: "fr", rate: 300, pitch: 80, markup: false) },
            { _ = try SpeechSynthesizer.speak("a <prosody rate=\"slow\" pitch=\"high\" volume=\"loud\">b c d", voice: "en-us", rate: 175, pitch: 50, markup: true) },
            { _ = try SpeechSynthesizer.phonemes(of: ["shipwrecks"]) },
            { _ = try SpeechSynthesizer.speak("Hello there.", voice: "en-us", rate: 175, pitch: 50, markup: false) },
        ]
        for (i, detour) in detours.enumerated() {
            try detour()
            let again = try say()
            #expect(again.words == first.words, "after detour \(i): \(again.words.map(\.sample)) vs \(first.words.map(\.sample))")
            #expect(again.samples == first.samples, "after detour \(i): the samples differ")
        }
    }

    @Test("a child stuck before its first record is replaced by a new one, which speaks the same; three stuck in a row are a typed error")
    func stuckChildren() throws {
        let text = "Words follow the voice, softly."
        func say(_ stall: SpeechSynthesizer.Stall?) throws(MovieMakerError) -> Speech {
            try SpeechSynthesizer.speak(text, voice: "en-us", rate: 175, pitch: 50, markup: false, stall: stall)
        }
        let alone = try say(nil)
        // The first two children stall: each is stopped after 300 ms and the third speaks.
        let retried = try say(SpeechSynthesizer.Stall(stalledChildren: 2, firstRecordMilliseconds: 300))
        #expect(retried.samples == alone.samples && retried.words == alone.words)
        let start = ContinuousClock.now
        do {
            _ = try say(SpeechSynthesizer.Stall(stalledChildren: 3, firstRecordMilliseconds: 300))
            Issue.record("three stuck children in a row spoke")
        } catch {
            #expect(error.code == .invalidSetting && error.setting == .narrationText && error.message.contains("took too long"), "\(error)")
        }
        // Three children of 300 ms each, not the 120-s timeout of a child that has started speaking.
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("texts spoken on several threads at once: each the same speech it is alone, and unlike each other")
    func concurrentSpeech() throws {
        let texts = ["Words follow the voice, softly.", "A second text, spoken at the same time.", "Three, two, one."]
        let alone = try texts.map { try SpeechSynthesizer.speak($0, voice: "en-us", rate: 175, pitch: 50, markup: false) }
        let results = Mutex<[Int: Speech]>([:])
        DispatchQueue.concurrentPerform(iterations: 9) { i in
            if let speech = try? SpeechSynthesizer.speak(texts[i % 3], voice: "en-us", rate: 175, pitch: 50, markup: false) {
                results.withLock { $0[i] = speech }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 9)
        for (i, speech) in all {
            #expect(speech.samples == alone[i % 3].samples && speech.words == alone[i % 3].words, "text \(i % 3) spoken on thread \(i) differs")
        }
        #expect(alone[0].samples != alone[1].samples)
    }

    @Test("a word list's phonemes in one go: each as eSpeak NG gives it alone; a voice it lacks gives none")
    func phonemesOfAList() throws {
        let list = try SpeechSynthesizer.phonemes(of: ["shipwrecks", "hello", "", "zebra"])
        #expect(list.count == 4)
        #expect(list[0] == (try SpeechSynthesizer.phonemes(of: ["shipwrecks"]))[0] && list[0]?.isEmpty == false, "\(list)")
        #expect(list[1] == (try SpeechSynthesizer.phonemes(of: ["hello"]))[0] && list[1] != list[0], "\(list)")
        #expect(list[2] == nil, "no phonemes for an empty word: \(list)")
        #expect(try SpeechSynthesizer.phonemes(of: ["hello"], voice: "no-such-voice") == [nil])
    }

    @Test("many narrations start no threads here: eSpeak NG (1.51 starts a thread that never ends per initialisation) runs in child processes")
    func noThreadPerNarration() throws {
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0 }
        _ = try SpeechSynthesizer.speak("Warm up.", voice: "en-us", rate: 175, pitch: 50, markup: false)
        let before = threads()
        for i in 0..<40 {
            _ = try SpeechSynthesizer.speak("Text number \(i).", voice: i % 2 == 0 ? "en-us" : "fr", rate: 175, pitch: 50, markup: false)
        }
        // Other tests start and end threads meanwhile: 40 leaked threads would stand far above that noise.
        #expect(threads() - before < 20, "\(before) threads before 40 narrations, \(threads()) after")
    }

    @Test("the steady voices: a copy of eSpeak NG's voice files with flutter and roughness off, links for the rest, made once and atomically")
    func steadyVoices() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("steady-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let system = root.appendingPathComponent("system/espeak-ng-data")
        for (path, text) in [("phontab", "P"), ("en_dict", "D"), ("voices/!v/f3", "name f3\nflutter 10"), ("lang/gmw/en-US", "name English\nlanguage en-us")] {
            let url = system.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let unwritable = URL(fileURLWithPath: "/proc/no-such-folder")
        let cache = root.appendingPathComponent("cache")
        let folder = try SteadyVoices.folder(copying: system, voice: "en-us", in: [unwritable, cache])
        #expect(folder.deletingLastPathComponent().standardizedFileURL.path == cache.path)
        let data = folder.appendingPathComponent("espeak-ng-data")
        for voice in ["voices/!v/f3", "lang/gmw/en-US"] {
            let text = try String(contentsOf: data.appendingPathComponent(voice), encoding: .utf8)
            #expect(text.hasSuffix("\nflutter 0\nroughness 8\n") && text.hasPrefix("name "), "\(voice): \(text)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data.appendingPathComponent("en_dict").path) == system.appendingPathComponent("en_dict").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path) == [folder.lastPathComponent], "a building folder was left behind")
        // Made once: a second call finds it.
        let marker = data.appendingPathComponent("voices/!v/f3")
        try Data("kept".utf8).write(to: marker)
        #expect(try SteadyVoices.folder(copying: system, voice: "en-us", in: [cache]).path == folder.path)
        #expect(try String(contentsOf: marker, encoding: .utf8) == "kept")
        // Nowhere to write: a typed error that says what to set.
        do {
            _ = try SteadyVoices.folder(copying: system, voice: "en-us", in: [unwritable])
            Issue.record("expected an error")
        } catch {
            #expect(error.setting == .narrationVoice && error.message.contains("XDG_CACHE_HOME"), "\(error.message)")
        }
    }

    @Test("bad settings are typed errors naming the value and what is accepted")
    func errors() throws {
        func failure(_ make: () throws -> Narration) -> MovieMakerError? {
            do { _ = try make(); return nil } catch { return error as? MovieMakerError }
        }
        let voice = try #require(failure { try Narration("Hello", voice: "en-usa") })
        #expect(voice.setting == .narrationVoice && voice.message.contains("en-usa") && voice.message.contains("did you mean \"en-us\""), "\(voice.message)")
        let rate = try #require(failure { try Narration("Hello", rate: 30) })
        #expect(rate.setting == .narrationRate && rate.message.contains("80 to 450"))
        let pitch = try #require(failure { try Narration("Hello", pitch: 101) })
        #expect(pitch.setting == .narrationPitch)
        for text in ["", "   ", "<break time=\"1s\"/>"] {
            #expect(failure { try Narration(text) }?.setting == .narrationText, "\(text)")
        }
        let twice = try #require(failure { try Narration("a <mark name=\"x\"/> b <mark name=\"x\"/> c") })
        #expect(twice.message.contains("used twice"))
        #expect(failure { try Narration("a <mark/> b") }?.message.contains("with a name") == true)
        // A < that starts no tag, or a tag never closed, made eSpeak NG drop the words up to the next >.
        for text in ["One is < two and three. <mark name=\"river\"/> Four.", "Three <5 and more", "a <break time=\"1s\" b"] {
            let stray = try #require(failure { try Narration(text) }, "\(text)")
            #expect(stray.setting == .narrationText && stray.message.contains("&lt;"), "\(text): \(stray.message)")
        }
        #expect(failure { try Narration("One is &lt; two. <mark name=\"river\"/> Four.") } == nil)
        // An entity alone is markup too: the words read "<", not "&lt;".
        let entity = try Narration("One is &lt; two.")
        #expect(entity.transcript.words.map(\.text).joined(separator: " ") == "One is < two.",
                "\(entity.transcript.words.map(\.text))")
    }
}

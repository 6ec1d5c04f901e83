internal import CESpeakNG
internal import CMovieMakerSpeech
import Foundation
import Synchronization

/// What eSpeak NG made of one text: its samples and where each word it spoke starts.
struct Speech: Sendable {
    /// One word eSpeak NG reported (`espeakEVENT_WORD`).
    struct WordEvent: Sendable, Hashable {
        /// Its first character: an index into the text's Unicode scalars, from 0.
        var character: Int
        /// How many characters eSpeak NG counted in it.
        var length: Int
        /// The sample it starts at.
        var sample: Int
    }

    /// The samples, mono, 16-bit.
    var samples: [Int16]
    /// Samples per second (eSpeak NG's 22,050).
    var sampleRate: Int
    /// The words as eSpeak NG reported them, in the order spoken.
    var words: [WordEvent]
}

/// The one door to eSpeak NG; nothing of it escapes but Swift values.
///
/// **Determinism.** The same text and settings give the same samples and word times in every process,
/// whatever was spoken before:
/// - eSpeak NG 1.51 keeps synthesis state in function statics no call resets (the pitch wobble's phase,
///   the glottal cycle count, the end-of-utterance buffers, the clause pause factor), so in one
///   long-lived process a text could come out differently after other texts: a busy test process once
///   spoke a word 40–50 ms later than a fresh one did (issue 37). So this process never synthesises:
///   each text is spoken by a child forked for it (`CMovieMakerSpeech`: C only, no Swift runtime in
///   the child), which initialises eSpeak NG, speaks, streams the samples and word events back through
///   a pipe and ends. The child starts from eSpeak NG's pristine state every time. It costs a fork and
///   an initialisation per text, and texts can be spoken on several threads at once;
/// - the voice and every speech parameter are set before each synthesis, and the C library's `rand()`
///   (eSpeak NG's breath and fricative noise) is seeded the same way, in the child;
/// - MovieMaker speaks from a copy of eSpeak NG's voice files with `flutter 0` and `roughness 8` (none)
///   added (`SteadyVoices`), made once in the user's cache folder: a fresh process would be steady
///   without it, but the voices keep the sound the first releases of this type gave them.
enum SpeechSynthesizer {
    /// What this process knows of eSpeak NG (only its data paths and voice list; it never initialises
    /// synthesis). Only touched with `engine` locked.
    private struct Engine {
        /// The folder holding the steady `espeak-ng-data`, once made.
        var steadyData: String?
        /// The languages its voices speak, once listed.
        var voiceNames: [String]?
    }

    private static let engine = Mutex(Engine())

    /// How long one child may take: generous, as a long text takes seconds; a child stuck longer is
    /// stopped and the error says so.
    private static func timeout(forBytes bytes: Int) -> Int32 { Int32(clamping: 120_000 + bytes * 20) }

    /// For tests: children that stall before their first record, as one stuck on a lock inherited at
    /// fork would, and how soon such a child is replaced by a new one (up to three children in all).
    struct Stall {
        /// How many children in a row stall.
        var stalledChildren: Int
        /// How long a child may take to send its first record, in milliseconds.
        var firstRecordMilliseconds: Int
    }

    /// The steady data folder and the voices' languages, made and listed once.
    private static func prepare(voice: String) throws(MovieMakerError) -> (data: String, names: [String]) {
        try engine.withLock { (engine: inout Engine) throws(MovieMakerError) -> (data: String, names: [String]) in
            if engine.steadyData == nil {
                // Where eSpeak NG's own data is, from eSpeak NG itself (ESPEAK_DATA_PATH or its built-in
                // folder), then a steady copy of its voices. Neither call starts synthesis.
                espeak_ng_InitializePath(nil)
                var home: UnsafePointer<CChar>?
                _ = espeak_Info(&home)
                guard let home else { throw .invalidSetting(.narrationVoice, value: voice, expected: "a working eSpeak NG: it names no data folder") }
                engine.steadyData = try SteadyVoices.folder(copying: URL(fileURLWithPath: String(cString: home)), voice: voice).path
            }
            let data = engine.steadyData!
            if engine.voiceNames == nil {
                // espeak_ListVoices reads the voice files under the data path; no initialisation needed.
                espeak_ng_InitializePath(data)
                engine.voiceNames = voiceNames()
            }
            return (data, engine.voiceNames!)
        }
    }

    /// The error for a child's outcome other than success.
    private static func failure(_ code: Int32, systemError: Int32, voice: String, names: [String], what: String) -> MovieMakerError {
        switch Int(code) {
        case Int(MM_SPEECH_NO_VOICE):
            var expected = "one of eSpeak NG's \(names.count) voices, such as \"en-us\", \"en-gb\", \"fr\", \"de\", \"ar\" or \"ja\""
            if let near = SpecObject.nearest(voice, in: names) { expected += " (did you mean \"\(near)\"?)" }
            return .invalidSetting(.narrationVoice, value: "\"\(voice)\"", expected: expected)
        case Int(MM_SPEECH_INIT_FAILED):
            return .invalidSetting(.narrationVoice, value: voice,
                                   expected: "a working eSpeak NG: its voice data (espeak-ng-data) could not be loaded; install libespeak-ng-dev (scripts/install-deps.sh)")
        case Int(MM_SPEECH_SYNTH_FAILED):
            return .invalidSetting(.narrationText, value: what, expected: "text eSpeak NG can speak (espeak_Synth failed)")
        case Int(MM_SPEECH_TIMED_OUT):
            return .invalidSetting(.narrationText, value: what, expected: "text eSpeak NG speaks in time (its process took too long and was stopped)")
        case Int(MM_SPEECH_SYSTEM_FAILED):
            return .invalidSetting(.narrationText, value: what,
                                   expected: "a process to speak it in (fork or pipe failed: \(String(cString: strerror(systemError))))")
        default:
            return .invalidSetting(.narrationText, value: what,
                                   expected: "text eSpeak NG can speak (its process ended without a result\(systemError < 0 ? ", killed by signal \(-systemError)" : systemError > 0 ? ", exit status \(systemError)" : ""))")
        }
    }

    /// Speaks `text` (UTF-8; SSML when `markup`) with `voice` at `rate` words per minute and base `pitch`,
    /// in a child process (see the type's comment). Throws `.invalidSetting` for a voice eSpeak NG does
    /// not have (naming the nearest it has).
    static func speak(_ text: String, voice: String, rate: Int, pitch: Int, markup: Bool, stall: Stall? = nil) throws(MovieMakerError) -> Speech {
        let (data, names) = try prepare(voice: voice)
        let flags = UInt32(espeakCHARS_UTF8) | (markup ? UInt32(espeakSSML) : 0)
        var speech = mm_speech()
        defer { mm_speech_free(&speech) }
        let code = data.withCString { dataPath in
            voice.withCString { voiceName in
                text.withCString { p in
                    let bytes = strlen(p) + 1
                    var request = mm_speech_request(data_path: dataPath, voice: voiceName, by_language: names.contains(voice) ? 1 : 0,
                                                    rate: Int32(rate), pitch: Int32(pitch), seed: 0x4D4D, timeout_ms: timeout(forBytes: bytes),
                                                    first_record_ms: Int32(clamping: stall?.firstRecordMilliseconds ?? 0),
                                                    stalled_attempts: Int32(clamping: stall?.stalledChildren ?? 0))
                    return mm_speech_speak(&request, p, bytes, flags, &speech)
                }
            }
        }
        guard code == Int32(MM_SPEECH_OK) else {
            throw failure(code, systemError: speech.system_error, voice: voice, names: names, what: "of \(text.unicodeScalars.count) characters")
        }
        let samples = speech.sample_count > 0 ? Array(UnsafeBufferPointer(start: speech.samples, count: speech.sample_count)) : []
        let total = samples.count
        // Word events carry the sample they start at; they never point past the speech.
        let words = UnsafeBufferPointer(start: speech.words, count: speech.word_count).map { w in
            Speech.WordEvent(character: Int(w.text_position) - 1, length: Int(w.length), sample: min(Int(max(0, w.sample)), total))
        }
        return Speech(samples: samples, sampleRate: Int(speech.sample_rate), words: words)
    }

    /// eSpeak NG's phonemes for each of `words` in `voice` (ASCII phoneme names, e.g. `S'IprEks`), nil
    /// for a word it has none for: how the aligner pronounces words its dictionary lacks. One child
    /// process for the whole list.
    static func phonemes(of words: [String], voice: String = "en-us") throws(MovieMakerError) -> [String?] {
        guard !words.isEmpty else { return [] }
        let (data, names) = try prepare(voice: voice)
        // The words end to end, each with its NUL (a word holding a NUL would split: cut it there).
        var list: [CChar] = []
        for word in words {
            list.append(contentsOf: word.utf8CString.prefix { $0 != 0 })
            list.append(0)
        }
        var result: UnsafeMutablePointer<CChar>?
        var size = 0
        var systemError: Int32 = 0
        defer { mm_speech_free_phonemes(result) }
        let code = data.withCString { dataPath in
            voice.withCString { voiceName in
                list.withUnsafeBufferPointer { buffer in
                    var request = mm_speech_request(data_path: dataPath, voice: voiceName, by_language: names.contains(voice) ? 1 : 0,
                                                    rate: 175, pitch: 50, seed: 0x4D4D, timeout_ms: timeout(forBytes: buffer.count),
                                                    first_record_ms: 0, stalled_attempts: 0)
                    return mm_speech_phonemes(&request, buffer.baseAddress, buffer.count, Int32(words.count), &result, &size, &systemError)
                }
            }
        }
        guard code == Int32(MM_SPEECH_OK), let result else {
            if code == Int32(MM_SPEECH_NO_VOICE) { return words.map { _ in nil } }
            throw failure(code, systemError: systemError, voice: voice, names: names, what: "\(words.count) words for their phonemes")
        }
        var phonemes: [String?] = []
        var at = 0
        while at < size, phonemes.count < words.count {
            let text = String(cString: result + at)
            at += text.utf8.count + 1
            phonemes.append(text.isEmpty ? nil : text)
        }
        return phonemes
    }

    /// The languages eSpeak NG's voices speak (`en-us`, `en-gb`, `ar`, `ja`…), sorted.
    /// Only with `engine` locked and the data path set.
    private static func voiceNames() -> [String] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var names = Set<String>()
        var i = 0
        while let voice = list[i] {
            // `languages` is a run of (priority byte, NUL-terminated name) pairs ending with a 0 byte.
            if var p = voice.pointee.languages {
                while p.pointee != 0 {
                    let name = String(cString: p + 1)
                    if name.isEmpty { break }
                    names.insert(name)
                    p += 1 + name.utf8.count + 1
                }
            }
            i += 1
        }
        return names.sorted()
    }
}

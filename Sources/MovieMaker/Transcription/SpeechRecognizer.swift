internal import CPocketSphinx
import Foundation

/// One PocketSphinx decoder with Debian's en-us model, and its configuration: the only owner of both
/// (freed in `deinit`). A decoder is not thread-safe: each transcription makes its own.
///
/// The settings that make alignment work on clean speech (measured on eSpeak NG speech, see
/// `Transcript(aligning:to:)`): for grammars, search beams wide open (`-beam`, `-pbeam`, `-wbeam`
/// 1e-200, no limit on active HMMs), since a grammar of one sentence is a single path the default beams
/// prune away (the language model keeps the defaults: wide beams there cost ten times the time); and
/// `-remove_silence no`, so frame numbers stay times (the voice-activity detector drops silent frames).
final class SphinxDecoder {
    /// One word the decoder heard: its dictionary form and its frames (100 a second), inclusive.
    struct Segment {
        var word: String
        var firstFrame: Int
        var lastFrame: Int
    }

    /// The model folder: `MOVIEMAKER_SPHINX_MODEL` or Debian's pocketsphinx-en-us.
    static var modelFolder: URL {
        if let path = ProcessInfo.processInfo.environment["MOVIEMAKER_SPHINX_MODEL"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us")
    }

    /// PocketSphinx's frames a second.
    static let framesPerSecond = 100
    /// The sample rate the model takes.
    static let sampleRate = 16_000

    private let config: OpaquePointer
    private let decoder: OpaquePointer

    /// Logging is process-wide: silenced once, before the first decoder.
    private static let quiet: Void = { err_set_logfp(nil) }()

    /// A decoder for grammars (`languageModel` false) or for free recognition with the en-us language model.
    init(languageModel: Bool) throws(MovieMakerError) {
        _ = Self.quiet
        let folder = Self.modelFolder
        let acoustic = folder.appendingPathComponent("en-us"), dictionary = folder.appendingPathComponent("cmudict-en-us.dict")
        let lm = folder.appendingPathComponent("en-us.lm.bin")
        for needed in [acoustic, dictionary] + (languageModel ? [lm] : []) where !FileManager.default.fileExists(atPath: needed.path) {
            throw MovieMakerError.speechModelMissing(path: needed.path)
        }
        var arguments = ["-hmm", acoustic.path, "-dict", dictionary.path, "-samprate", "\(Self.sampleRate)", "-remove_silence", "no"]
        // Wide beams for grammars only: a language model's search with them takes ten times as long.
        arguments += languageModel ? ["-lm", lm.path] : ["-beam", "1e-200", "-pbeam", "1e-200", "-wbeam", "1e-200", "-maxhmmpf", "-1"]
        let cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var argv: [UnsafeMutablePointer<CChar>?] = cStrings
        guard let config = cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), &argv, 1) else {
            throw MovieMakerError.speechModelMissing(path: folder.path)
        }
        guard let decoder = ps_init(config) else {
            cmd_ln_free_r(config)
            throw MovieMakerError.speechModelMissing(path: folder.path)
        }
        self.config = config
        self.decoder = decoder
    }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(config)
    }

    /// Whether the dictionary has `word` (lower case).
    func knows(_ word: String) -> Bool {
        guard let p = ps_lookup_word(decoder, word) else { return false }
        ckd_free(p)
        return true
    }

    /// Adds `word` with `phones` (ARPAbet, e.g. `"SH IH P R EH K S"`); `update` refreshes the language
    /// model's search (free recognition). False when the decoder refuses it.
    func add(_ word: String, phones: String, update: Bool = false) -> Bool {
        ps_add_word(decoder, word, phones, update ? 1 : 0) >= 0
    }

    /// Makes the search a chain of `words` in order, then `lookAhead` more which the speech may stop
    /// after any of (a window that cuts the next sentence short still matches); `skippable` lets the first
    /// three words be skipped, at a cost (the fallback when a window does not match).
    func setChain(_ words: [String], lookAhead: Int, skippable: Bool) throws(MovieMakerError) {
        let n = words.count
        let weight = Float(cmd_ln_float_r(config, "-lw"))
        guard n > 0, let fsg = fsg_model_init("chain", ps_get_logmath(decoder), weight, Int32(n + 1)) else {
            throw MovieMakerError(code: .invalidSetting, message: "the speech recogniser could not make a grammar of \(n) words")
        }
        fsg.pointee.start_state = 0
        fsg.pointee.final_state = Int32(n)
        for (i, w) in words.enumerated() {
            fsg_model_trans_add(fsg, Int32(i), Int32(i + 1), 0, fsg_model_word_add(fsg, w))
        }
        // The speech may stop after any look-ahead word (after any word at all, when skippable).
        let firstStop = skippable ? 1 : n - lookAhead + 1
        if firstStop < n {
            for i in max(1, firstStop)..<n { fsg_model_null_trans_add(fsg, Int32(i), Int32(n), 0) }
        }
        if skippable {
            let logmath = ps_get_logmath(decoder)
            for i in 1..<min(4, n) {
                fsg_model_null_trans_add(fsg, 0, Int32(i), logmath_log(logmath, 1e-10 * Double(i)))
            }
        }
        let set = ps_set_fsg(decoder, "chain", fsg)
        fsg_model_free(fsg)
        guard set >= 0, ps_set_search(decoder, "chain") >= 0 else {
            throw MovieMakerError(code: .invalidSetting, message: "the speech recogniser refused a grammar of \(n) words (a word missing from its dictionary?)")
        }
    }

    /// Decodes `samples` (16 kHz mono) as one utterance and returns the words heard, fillers and
    /// silences left out, alternate pronunciations' marks (`the(2)`) removed.
    func decode(_ samples: UnsafeBufferPointer<Int16>) -> [Segment] {
        ps_start_utt(decoder)
        ps_process_raw(decoder, samples.baseAddress, samples.count, 0, 1)
        ps_end_utt(decoder)
        guard ps_get_hyp(decoder, nil) != nil else { return [] }
        var segments: [Segment] = []
        var seg = ps_seg_iter(decoder)
        while let s = seg {
            if let cWord = ps_seg_word(s) {
                var word = String(cString: cWord)
                if let paren = word.firstIndex(of: "("), paren != word.startIndex { word = String(word[..<paren]) }
                if !(word.hasPrefix("<") || word.hasPrefix("[") || word == "(NULL)") {
                    var first: Int32 = 0, last: Int32 = 0
                    ps_seg_frames(s, &first, &last)
                    segments.append(Segment(word: word, firstFrame: Int(first), lastFrame: Int(last)))
                }
            }
            seg = ps_seg_next(s)    // frees the iterator at the end
        }
        return segments
    }
}

extension MovieMakerError {
    /// PocketSphinx's English model is not installed (or not where it is looked for).
    package static func speechModelMissing(path: String) -> MovieMakerError {
        MovieMakerError(code: .speechModelMissing,
                        message: "the speech model is missing at \(path): install pocketsphinx-en-us (scripts/install-deps.sh), or set MOVIEMAKER_SPHINX_MODEL to a folder holding en-us/, cmudict-en-us.dict and en-us.lm.bin",
                        location: Location(file: path))
    }
}

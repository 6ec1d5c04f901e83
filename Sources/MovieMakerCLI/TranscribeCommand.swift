import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker transcribe`: word times from a clip's own sound, as whisper-style JSON.
struct TranscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcribe",
        abstract: "Write the words spoken in a clip or sound, with their times, as whisper-style JSON (for --captions and captions items).",
        discussion: """
            With --text, the words of a script the speaker read are placed on the speech (PocketSphinx \
            with a grammar made from the text, in-process): accurate, the way to caption a script. \
            Without it, English speech is recognised freely, a best effort with many wrong words on \
            anything but clear speech. English only, with Debian's pocketsphinx-en-us model.

            The JSON is what openai-whisper writes with word timestamps (segments of words with start \
            and end in seconds), one segment a sentence: --captions, a captions item and \
            Transcript(contentsOf:) read it.

            Examples:
              moviemaker transcribe talk.mp4 --text script.txt -o talk.json
              moviemaker transcribe memo.m4a -o memo.json
            """)

    /// The clip or sound.
    @Argument(help: ArgumentHelp("A video with sound, or a sound file (MP3, M4A, WAV, FLAC, Opus…).", valueName: "clip"))
    var clip: String

    /// The script, for alignment.
    @Option(help: ArgumentHelp("The text that is spoken (a UTF-8 text file): its words are placed on the speech, instead of recognised.",
                               valueName: "file"))
    var text: String?

    /// Where the JSON goes.
    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the JSON (a .json file; the folder must exist).", valueName: "path"))
    var output: String

    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        for (flag, file) in [("", clip), ("--text ", text)] {
            guard let file else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InputError("\(flag)\(file): no such file")
            }
        }
        guard URL(fileURLWithPath: output).pathExtension.lowercased() == "json" else {
            throw ValidationError("-o \(output): the transcript is JSON: give a path ending in .json, e.g. -o talk.json")
        }
        try OutputOptions.checkFolder(of: output)
        for input in [clip, text].compactMap({ $0 }) where FileIdentity.same(output, input) {
            throw InputError("-o \(output) is \(input), an input: choose another destination")
        }
    }

    func run() throws {
        let sound: AudioFile
        do { sound = try AudioFile(url: URL(fileURLWithPath: clip)) } catch { throw InputError(error.message.contains(URL(fileURLWithPath: clip).path) ? error.message : "\(clip): \(error.message)") }
        let script: String?
        if let text {
            do { script = try String(contentsOf: URL(fileURLWithPath: text), encoding: .utf8) } catch {
                throw InputError("--text \(text): cannot be read as UTF-8 text (\((error as NSError).localizedDescription))")
            }
        } else {
            script = nil
        }
        let seconds = String(format: "%.1f", (sound.duration ?? .zero).seconds)
        if progress.showsProgress {
            Terminal.writeError("transcribe: \(script == nil ? "recognising the speech in" : "placing the words of \(text!) on") \(clip) (\(seconds) s)…\n")
        }
        let started = Date()
        let transcript: Transcript
        do {
            transcript = try script.map { try Transcript(aligning: $0, to: sound) } ?? Transcript(recognizing: sound)
        } catch let error as MovieMakerError {
            // A text without words: a mistake in the input, not a failure.
            if error.code == .invalidSetting { throw InputError(error.message) }
            throw error
        }
        // PocketSphinx places a script's words somewhere even on silence (spreading the ones it cannot
        // find): a sound that is nearly all below -50 dB is said, so a wrong file is not captioned quietly.
        let quiet = (try? SilenceDetection(threshold: -50, minimum: Time(value: 1, timescale: 2)).silences(in: URL(fileURLWithPath: clip))) ?? []
        if let length = sound.duration, length > .zero, quiet.reduce(Time.zero, { $0 + $1.duration }).seconds >= 0.95 * length.seconds {
            Terminal.writeError("moviemaker: warning: \(clip) is almost silent (95 % of it below -50 dB): "
                                + (script == nil ? "there is little or no speech to recognise" : "the words of \(text!) are spread over it rather than placed on speech") + "\n")
        }
        try PartialFiles.write(Data(transcript.whisperJSON().utf8), to: OutputOptions.destinationURL(output))
        if progress.showsProgress {
            Terminal.printLine("\(output): \(transcript.words.count) words over \(seconds) s, in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        }
    }
}

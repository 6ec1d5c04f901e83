import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker transcribe`, run as a subprocess on a movie whose sound is eSpeak NG speech: the JSON it
/// writes reads back as the script's words at the voice's times; its errors exit 64 (or 1 for a
/// missing model) and write nothing.
@Suite("moviemaker transcribe")
struct TranscribeCommandTests {
    static let script = "Every evening the keeper climbed the narrow stairs. He lit the great lamp, so that sailors could find their way home."

    /// A movie of `seconds` of black with the script spoken (AAC) from its start.
    static func speechMovie(_ url: URL) throws -> Narration {
        let voice = try Narration(script, voice: "en-us")
        let movie = try MovieMaker(url: url, width: 64, height: 48, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.addAudio(voice)
        try movie.add(Clip.color(.black, duration: voice.length))
        try movie.finish()
        return voice
    }

    @Test("--text places the script's words on the movie's speech, written as whisper JSON that reads back within 100 ms of the voice")
    func alignsAScript() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("talk.mp4")
        let voice = try Self.speechMovie(movie)
        try Self.script.write(to: folder.file("script.txt"), atomically: true, encoding: .utf8)
        let out = folder.file("talk.json")
        let r = try CLI.run(["transcribe", movie.path, "--text", folder.file("script.txt").path, "-o", out.path])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(voice.transcript.words.count) words"), "\(r.stdout)")
        let words = try Transcript(contentsOf: out).words
        #expect(words.map(\.text) == Self.script.split(separator: " ").map { String($0) })
        for (k, (a, v)) in zip(words, voice.transcript.words).enumerated() where voice.startsFromSynthesizer[k] {
            #expect(abs((a.start - v.start).seconds) < 0.1, "\(a.text): \(a.start.seconds) s against \(v.start.seconds) s")
        }
        // Without --text: recognised words, timed, in the same format.
        let free = folder.file("free.json")
        let f = try CLI.run(["transcribe", movie.path, "-o", free.path, "-q"])
        try #require(f.status == 0, "\(f.stderr)")
        #expect(!(try Transcript(contentsOf: free).words.isEmpty))
        #expect(!r.stderr.contains("warning") && !f.stderr.contains("warning"), "speech is not called silent: \(r.stderr)\(f.stderr)")
    }

    @Test("a script placed on a silent sound is still written, with a warning that its words are only spread over it")
    func aSilentSoundIsWarnedAbout() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let quiet = folder.file("quiet.wav")
        try ProceduralSound(duration: 3) { _ in 0 }.writeWAV(to: quiet)
        try "hello world".write(to: folder.file("s.txt"), atomically: true, encoding: .utf8)
        let out = folder.file("quiet.json")
        let r = try CLI.run(["transcribe", quiet.path, "--text", folder.file("s.txt").path, "-o", out.path, "-q"])
        #expect(r.status == 0 && r.stderr.contains("warning: \(quiet.path) is almost silent (95 % of it below -50 dB): the words of"), "\(r.stderr)")
        #expect(try Transcript(contentsOf: out).words.count == 2)
    }

    @Test("errors: no audio stream, a missing --text, a non-JSON -o, a text without words exit 64; a missing model names pocketsphinx-en-us; nothing is written")
    func errors() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let silent = folder.file("silent.mp4")
        try VideoFixtures.solid(silent, .black, tone: nil, width: 64, height: 48)
        let talk = folder.file("talk.mp4")
        _ = try Self.speechMovie(talk)
        try "— ...".write(to: folder.file("empty.txt"), atomically: true, encoding: .utf8)
        let out = folder.file("out.json")
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            ([silent.path, "-o", out.path], 64, "no audio stream"),
            ([talk.path, "--text", folder.file("none.txt").path, "-o", out.path], 64, "no such file"),
            ([talk.path, "-o", folder.file("out.txt").path], 64, "ending in .json"),
            ([talk.path, "--text", folder.file("empty.txt").path, "-o", out.path], 64, "a text with words"),
        ]
        for (arguments, status, message) in cases {
            let r = try CLI.run(["transcribe"] + arguments)
            #expect(r.status == status && r.stderr.contains(message), "\(arguments): \(r.status) \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
        let r = try CLI.run(["transcribe", talk.path, "-o", out.path], environment: ["MOVIEMAKER_SPHINX_MODEL": folder.file("no-model").path])
        #expect(r.status != 0 && r.stderr.contains("pocketsphinx-en-us"), "\(r.status) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker render --chunk K/N --chunk-dir DIR` and `moviemaker assemble`, run as a user (or a Slurm
/// worker) would: usage errors, a killed worker whose re-run renders only the missing chunk, a missing
/// chunk named by the assembly, and the assembled movie decoded.
@Suite("moviemaker render --chunk and assemble", .serialized)
struct ChunkCommandTests {
    /// A 4 s, 30 fps, 320×240 description: a turning gradient, confetti, a title; `song.wav` as music.
    static let spec = """
        {"version": 1, "output": {"size": "320x240", "fps": 30},
         "tracks": [
           {"kind": "video", "items": [{"type": "generator", "name": "gradient", "duration": "4s", "params": {"rotation": 45}}]},
           {"kind": "overlay", "items": [{"type": "generator", "name": "confetti", "duration": "4s", "params": {"count": 120}},
                                         {"type": "title", "text": "Workers", "duration": "2s", "at": "1s"}]},
           {"kind": "audio", "items": [{"type": "music", "source": {"file": "song.wav"}}]}]}
        """

    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try Self.spec.write(to: folder.file("film.json"), atomically: true, encoding: .utf8)
        try ProceduralSound.tone(frequency: 330, amplitude: 0.3, duration: 5).writeWAV(to: folder.file("song.wav"))
        return folder
    }

    @Test("bad chunk arguments are usage errors naming the value")
    func usageErrors() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.folder()
        let spec = folder.file("film.json").path
        let cases: [([String], String)] = [
            (["--chunk", "4/4", "--chunk-dir", "c"], "K must be from 0 to 3"),
            (["--chunk", "1of4", "--chunk-dir", "c"], "expected K/N"),
            (["--chunk", "0/0", "--chunk-dir", "c"], "N must be from 1"),
            (["--chunk", "0/4"], "add --chunk-dir DIR"),
            (["--chunk", "0/4", "--frames", "0..<30", "--chunk-dir", "c"], "not both"),
            (["--frames", "30..<10", "--chunk-dir", "c"], "expected 0 ≤ A < B"),
            (["--chunk", "0/4", "--chunk-dir", "c", "-o", "x.mp4"], "moviemaker assemble"),
            (["--sound-track", "--chunk", "0/4", "--chunk-dir", "c"], "renders the sound track alone"),
            (["--sound-track"], "add --chunk-dir DIR"),
            (["--sound-track", "--no-sound-track", "--chunk-dir", "c"], "not both"),
            (["--chunk", "0/2", "--chunk-dir", "c", "--codec", "hevc"], "--codec hevc: chunks are joined as H.264"),
            (["--chunk", "0/2", "--chunk-dir", "c", "--preview"], "--preview is not written by a chunk"),
            (["--frames", "0..<10", "--chunk-dir", "c", "--save-spec", "f.json"], "--save-spec is not written by a chunk"),
            (["--chunk", "0/2", "--chunk-dir", "c", "--chapters-vtt", "c.vtt"], "--chapters-vtt is not written by a chunk"),
            (["--chunk", "0/2", "--chunk-dir", "c", "--print-chapters"], "--print-chapters is not written by a chunk"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(["render", spec] + arguments, in: folder.url)
            #expect(r.status == 64 && r.stderr.contains(message), "\(arguments): \(r.status) \(r.stderr)")
        }
        let noFolder = try CLI.run(["assemble", spec, "--chunk-dir", "nowhere", "-o", "x.mp4"], in: folder.url)
        #expect(noFolder.status == 64 && noFolder.stderr.contains("--chunk-dir nowhere: no such folder"), "\(noFolder.stderr)")
        let otherCodec = try CLI.run(["assemble", spec, "--chunk-dir", ".", "--codec", "vp9", "-o", "x.mp4"], in: folder.url)
        #expect(otherCodec.status == 64 && otherCodec.stderr.contains("--codec vp9: chunks are joined as H.264"), "\(otherCodec.stderr)")
        // A description asking for another codec is refused at its JSON path before any chunk is made.
        let hevc = folder.file("hevc.json")
        try Self.spec.replacingOccurrences(of: #""fps": 30}"#, with: #""fps": 30, "encoder": {"codec": "hevc"}}"#)
            .write(to: hevc, atomically: true, encoding: .utf8)
        for arguments in [["render", hevc.path, "--chunk", "0/2", "--chunk-dir", "hc"], ["assemble", hevc.path, "--chunk-dir", ".", "-o", "x.mp4"]] {
            let r = try CLI.run(arguments, in: folder.url)
            #expect(r.status == 64 && r.stderr.contains("hevc.json: output.encoder.codec: hevc cannot be rendered in chunks"), "\(arguments): \(r.stderr)")
        }
        let made = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("hc").path)) ?? []
        #expect(made.isEmpty, "no chunk of an HEVC description: \(made)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.mp4").path))
        let help = try CLI.help(["assemble"])
        #expect(help.status == 0 && help.stdout.contains("--chunk-dir") && help.stdout.contains("without re-encoding"))
    }

    @Test("a worker killed mid-chunk: the re-run renders only that chunk; assembly names a missing chunk, then gives the whole movie")
    func killedWorkerAndAssembly() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.folder()
        let spec = folder.file("film.json").path, chunks = folder.file("chunks").path
        // slower: slow enough per frame to be caught part way. The kill follows the first progress line
        // (10 %), not a later one: in a loaded parallel run the remaining frames of a late line could finish
        // before the signal arrives, and the worker would exit normally.
        let worker = { (k: Int) in ["render", spec, "--chunk", "\(k)/2", "--chunk-dir", chunks, "--preset", "slower"] }
        let first = try CLI.run(worker(0))
        #expect(first.status == 0 && first.stdout.contains("chunk 0/2: frames 0..<60 rendered into"), "\(first.stdout) \(first.stderr)")
        #expect(first.stdout.contains("sound track: rendered into \(chunks)/film.sound."), "chunk 0's worker renders the sound track: \(first.stdout)")

        let running = try CLI.Running(worker(1))
        guard running.waitForStderr(containing: "10% (") else {
            Issue.record("no 10% progress line: \(running.waitForExit().stderr)")
            return
        }
        running.send(SIGKILL)
        #expect(running.waitForExit().reason == .uncaughtSignal)
        let names = try FileManager.default.contentsOfDirectory(atPath: chunks)
        #expect(names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".check") }.count == 2, "only chunk 0 and the sound track look complete: \(names)")
        #expect(Set(names.filter { $0.hasSuffix(".check") })
                == Set(names.filter { ($0.hasPrefix("film.0-60.") && $0.hasSuffix(".mp4")) || ($0.hasPrefix("film.sound.") && $0.hasSuffix(".m4a")) }.map { $0 + ".check" }),
                "chunk 0 and the sound track alone have their records: \(names)")
        #expect(names.contains { $0.hasPrefix(".film.60-120.") && $0.contains(".partial-") }, "the killed worker's partial file: \(names)")

        let missing = try CLI.run(["assemble", spec, "--chunk-dir", chunks, "--preset", "slower", "-o", folder.file("film.mp4").path])
        #expect(missing.status != 0 && missing.stderr.contains("chunk 1/2 (frames 60..<120)"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("film.mp4").path))

        // The job runs again: chunk 0 is skipped, chunk 1 rendered (and the dead worker's partial removed).
        let again0 = try CLI.run(worker(0)), again1 = try CLI.run(worker(1))
        #expect(again0.status == 0 && again0.stdout.contains("already complete") && again0.stdout.contains("skipped"), "\(again0.stdout)")
        #expect(again1.status == 0 && again1.stdout.contains("chunk 1/2: frames 60..<120 rendered"), "\(again1.stdout) \(again1.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: chunks).filter { $0.hasPrefix(".") }.isEmpty)

        // Assembled with other settings, the chunks are not this movie's.
        let otherSettings = try CLI.run(["assemble", spec, "--chunk-dir", chunks, "-o", folder.file("film.mp4").path])
        #expect(otherSettings.status != 0 && otherSettings.stderr.contains("none of the 2 chunk files in \(chunks) is of this movie as it is described and set now")
                && otherSettings.stderr.contains("the same --slot, --media, --crf, --preset"), "\(otherSettings.stderr)")
        #expect(!otherSettings.stdout.contains("sound track"), "no sound is rendered for chunks that are not there: \(otherSettings.stdout)")
        let done = try CLI.run(["assemble", spec, "--chunk-dir", chunks, "--preset", "slower", "-o", folder.file("film.mp4").path])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("sound track: copied from \(chunks)/film.sound."), "\(done.stdout)")
        let frames = try decodeAll(folder.file("film.mp4"))
        #expect(frames.count == 120 && frames.last?.presentationTime == Time(value: 119, timescale: 30))
        let streams = try FFTools.available ? probeStreams(folder.file("film.mp4")) : [:]
        if FFTools.available { #expect(streams["audio"]?["codec_name"] as? String == "aac" && double(streams["audio"], "duration") == 4) }
    }

    @Test("--frames renders a range; a worker whose index is beyond a short movie's chunks has nothing to do")
    func framesAndNothingToDo() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.folder()
        let spec = folder.file("film.json").path
        let range = try CLI.run(["render", spec, "--frames", "0..<30", "--chunk-dir", "c", "--preset", "ultrafast"], in: folder.url)
        #expect(range.status == 0 && range.stdout.contains("frames 0..<30: frames 0..<30 rendered"), "\(range.stdout) \(range.stderr)")
        let chunk = try FileManager.default.contentsOfDirectory(atPath: folder.file("c").path).first { $0.hasPrefix("film.0-30.") && $0.hasSuffix(".mp4") }
        #expect(chunk != nil)
        if let chunk { #expect(try decodeAll(folder.file("c").appendingPathComponent(chunk)).count == 30) }
        let beyond = try CLI.run(["render", spec, "--chunk", "24/25", "--chunk-dir", "c"], in: folder.url)
        #expect(beyond.status == 0 && beyond.stdout.contains("nothing to render") && beyond.stdout.contains("only 4 chunks"), "\(beyond.stdout) \(beyond.stderr)")
    }

    @Test("--sound-track renders the sound track alone; --no-sound-track leaves it out of chunk 0; assembly says where the sound came from, and copying it gives the same file")
    func soundTrackTask() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.folder()
        let spec = folder.file("film.json").path, chunks = folder.file("chunks").path
        let worker = { (k: Int) in ["render", spec, "--chunk", "\(k)/2", "--chunk-dir", chunks, "--preset", "ultrafast"] }
        let first = try CLI.run(worker(0) + ["--no-sound-track"]), second = try CLI.run(worker(1))
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        #expect(!first.stdout.contains("sound track") && !second.stdout.contains("sound track"), "\(first.stdout) \(second.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: chunks).filter { $0.contains(".sound.") }.isEmpty)
        let assemble = { (name: String) in ["assemble", spec, "--chunk-dir", chunks, "--preset", "ultrafast", "-o", folder.file(name).path] }
        let encoded = try CLI.run(assemble("encoded.mp4"))
        #expect(encoded.status == 0 && encoded.stdout.contains("sound track: none in the chunk folder") && encoded.stdout.contains("rendering it here"),
                "\(encoded.stdout) \(encoded.stderr)")
        let task = try CLI.run(["render", spec, "--sound-track", "--chunk-dir", chunks, "--preset", "ultrafast"])
        #expect(task.status == 0 && task.stdout.contains("sound track: rendered into \(chunks)/film.sound.") && task.stdout.contains(".m4a in "),
                "\(task.stdout) \(task.stderr)")
        let again = try CLI.run(["render", spec, "--sound-track", "--chunk-dir", chunks, "--preset", "ultrafast"])
        #expect(again.status == 0 && again.stdout.contains("already complete") && again.stdout.contains("skipped"), "\(again.stdout)")
        let copied = try CLI.run(assemble("copied.mp4"))
        #expect(copied.status == 0 && copied.stdout.contains("sound track: copied from \(chunks)/film.sound."), "\(copied.stdout) \(copied.stderr)")
        #expect(try Data(contentsOf: folder.file("copied.mp4")) == Data(contentsOf: folder.file("encoded.mp4")))
        #expect(try decodeAll(folder.file("copied.mp4")).count == 120)
        // Bytes damaged inside the sound track (its packets still read): its record catches it, and the
        // sound is rendered again rather than copied with glitches.
        let sound = try #require(try FileManager.default.contentsOfDirectory(atPath: chunks).first { $0.contains(".sound.") && $0.hasSuffix(".m4a") })
        var bytes = try Data(contentsOf: URL(fileURLWithPath: chunks).appendingPathComponent(sound))
        for i in (bytes.count - 2_000)..<(bytes.count - 1_600) { bytes[i] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: chunks).appendingPathComponent(sound))
        let damaged = try CLI.run(assemble("damaged.mp4"))
        #expect(damaged.status == 0 && damaged.stdout.contains("cannot be used") && damaged.stdout.contains("not what was written")
                && damaged.stdout.contains("rendering it here"), "\(damaged.stdout) \(damaged.stderr)")
        #expect(try Data(contentsOf: folder.file("damaged.mp4")) == Data(contentsOf: folder.file("encoded.mp4")))
    }

    /// Issue 33, reliability 3: a named pipe in place of a chunk hung `assemble` for good; it is now a
    /// chunk that cannot be used, named, at once.
    @Test("a named pipe in place of a chunk is refused at once, naming the chunk")
    func aNamedPipeChunkIsRefusedAtOnce() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.folder()
        let spec = folder.file("film.json").path
        for k in 0..<2 {
            let r = try CLI.run(["render", spec, "--chunk", "\(k)/2", "--chunk-dir", "c", "--no-sound-track", "-q"], in: folder.url)
            #expect(r.status == 0, "chunk \(k): \(r.stderr)")
        }
        let chunks = try FileManager.default.contentsOfDirectory(atPath: folder.file("c").path).filter { $0.hasSuffix(".mp4") }.sorted()
        try #require(chunks.count == 2, "\(chunks)")
        let victim = folder.file("c/\(chunks[1])")
        try FileManager.default.removeItem(at: victim)
        #expect(mkfifo(victim.path, 0o644) == 0)
        let started = Date()
        let running = try CLI.Running(["assemble", spec, "--chunk-dir", folder.file("c").path, "-o", folder.file("film.mp4").path])
        let outcome = running.waitForExit(timeout: 60)
        #expect(outcome.reason == .exit && outcome.status != 0 && outcome.stderr.contains(chunks[1]) && outcome.stderr.contains("named pipe"),
                "\(outcome.status): \(outcome.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(!FileManager.default.fileExists(atPath: folder.file("film.mp4").path))
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Renders that lose their reader or their process: a closed progress pipe does not kill a render,
/// and a program that exits without `finish()` leaves no partial file.
@Suite("moviemaker hardening")
struct HardeningTests {
    @Test("a closed progress pipe (… 2>&1 | head -1) does not kill the render: the movie is finished")
    func closedPipeDoesNotKillTheRender() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("piped.mp4")
        // CI=1: progress comes as lines; head takes the first and exits, closing the pipe.
        let command = "set -o pipefail; CI=1 '\(CLI.executable.path)' title 'Piped' --duration 3 --size 320x240 --preset slow -o '\(movie.path)' 2>&1 | head -1; echo \"status=${PIPESTATUS[0]}\""
        let r = try run("/bin/bash", ["-c", command])
        #expect(r.stdout.contains("status=0"), "moviemaker died of the closed pipe: \(r.stdout) \(r.stderr)")
        #expect(try decodeAll(movie).count == 90)
        #expect(folder.contents == ["piped.mp4"], "\(folder.contents)")
    }

    @Test("a script that calls exit() without finish() leaves no partial file, and is told which movie was not written")
    func exitWithoutFinishLeavesNothing() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = folder.file("quits.swift")
        try """
            import Foundation
            import MovieMaker
            let url = URL(fileURLWithPath: CommandLine.arguments[1])
            let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 30)
            try movie.addFrames(count: 20) { ctx, frame in ctx.clear(.white) }
            // An animated image spools its frames: its file is only created by finish().
            let gif = try MovieMaker(url: url.deletingPathExtension().appendingPathExtension("gif"), width: 160, height: 120, fps: 10)
            try gif.addFrames(count: 5) { ctx, frame in ctx.clear(.white) }
            print("quitting")
            exit(3)
            """.write(to: script, atomically: true, encoding: .utf8)
        let movies = folder.file("out")
        try FileManager.default.createDirectory(at: movies, withIntermediateDirectories: false)
        let r = try CLI.run(["run", script.path, "--", movies.appendingPathComponent("never.mp4").path])
        #expect(r.stdout.contains("quitting") && r.status == 3, "\(r.status) \(r.stdout) \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: movies.path) == [], "left behind")
        for name in ["never.mp4", "never.gif"] {
            #expect(r.stderr.contains("\(movies.appendingPathComponent(name).path) was not written") && r.stderr.contains("finish()"),
                    "the forgotten finish() is named: \(r.stderr)")
        }
    }

    @Test("durations of 1e9, 1e13 and 1e308 s are usage errors naming the limit, not a trap or a month-long render")
    func hugeDurationsAreRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        for (value, limit) in [("1e9", "24-hour limit"), ("1e13", "longest time MovieMaker can count"), ("1e308", "longest time MovieMaker can count"),
                               ("90000", "add --allow-long-movie")] {
            for command in [["title", "X"], ["color", "red"]] {
                let r = try CLI.run(command + ["--duration", value, "-o", folder.file("x.mp4").path])
                #expect(r.status == 64 && r.stderr.contains(limit) && !r.stderr.contains("Fatal error"), "\(command) \(value): \(r.status) \(r.stderr)")
            }
        }
        let still = try CLI.run(["still", "none.mp4", "--at", "1e13", "-o", folder.file("x.png").path])
        #expect(still.status == 64 && !still.stderr.contains("Fatal error"), "\(still.stderr)")
        #expect(folder.contents.isEmpty)
        #expect(throws: MovieMakerError.self) { try Time(checkedSeconds: .nan) }
        #expect(throws: MovieMakerError.self) { try Time(checkedSeconds: -1e300) }
        #expect(try Time(checkedSeconds: 2.5) == Time(value: 5, timescale: 2))
    }

    @Test("an output that is an input — a photo or video, the music, a symbolic link to one — is refused with 64 and the input is untouched")
    func outputEqualToAnInputIsRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: false)
        let photo = try TestPhotos.photo(.red, "a", in: folder)
        let clip = try CLI.run(["color", "--color", "blue", "--duration", "1", "--size", "320x240", "-o", photos.appendingPathComponent("clip.mp4").path, "-q"])
        #expect(clip.status == 0, "\(clip.stderr)")
        try ProceduralSound.tone(frequency: 440, duration: 1).writeWAV(to: folder.file("song.wav"))
        let song = folder.file("song.mp4")
        let encoded = try CLI.run(["slideshow", photo.path, "--size", "320x240", "--music", folder.file("song.wav").path, "-o", song.path, "-q"])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        try FileManager.default.createSymbolicLink(at: folder.file("link.mp4"), withDestinationURL: song)
        let video = photos.appendingPathComponent("clip.mp4")
        let before = try [video, song].map { try Data(contentsOf: $0) }
        let cases: [[String]] = [
            ["slideshow", video.path, photo.path, "-o", video.path],
            ["slideshow", photo.path, "--music", song.path, "-o", song.path],
            ["slideshow", photo.path, "--music=\(song.path)", "-o", folder.file("link.mp4").path],
            ["stitch", video.path, "-o", video.path],
        ]
        for arguments in cases {
            let r = try CLI.run(arguments)
            #expect(r.status == 64 && r.stderr.contains("an input of this command"), "\(arguments): \(r.status) \(r.stderr)")
        }
        #expect(try [video, song].map { try Data(contentsOf: $0) } == before, "an input was changed")
    }

    /// `-o nosuch/../clip.mp4` was simplified as text to `clip.mp4` and overwrote the input, past the
    /// check (which reads paths as the system does); `link/../clip.mp4` wrote beside the link instead of
    /// beside its target. Both now mean what the system says they mean.
    @Test("-o with .. after a missing folder is refused (64) and after a linked folder goes beside the link's target; the input is untouched")
    func dotDotInTheDestinationIsReadAsTheSystemReadsIt() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        let made = try CLI.run(["color", "--color", "blue", "--duration", "0.5", "--size", "64x48", "-o", clip.path, "-q"])
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Data(contentsOf: clip)
        let missing = try CLI.run(["stitch", "clip.mp4", "-o", "nosuch/../clip.mp4"], in: folder.url)
        #expect(missing.status == 64 && missing.stderr.contains("nosuch/.. does not exist"), "\(missing.status) \(missing.stderr)")
        try FileManager.default.createDirectory(at: folder.file("deep/inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link").path, withDestinationPath: "deep/inner")
        let linked = try CLI.run(["stitch", "clip.mp4", "-o", "link/../out.mp4", "-q"], in: folder.url)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("deep/out.mp4").path), "not written beside the link's target")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.mp4").path), "written beside the link")
        let over = try CLI.run(["stitch", "clip.mp4", "-o", "link/../../clip.mp4"], in: folder.url)
        #expect(over.status == 64 && over.stderr.contains("an input of this command"), "\(over.status) \(over.stderr)")
        // A `..` after a missing folder anywhere in the path, not only the first `..`.
        let later = try CLI.run(["stitch", "clip.mp4", "-o", "../" + folder.url.lastPathComponent + "/nosuch/../clip.mp4"], in: folder.url)
        #expect(later.status == 64 && later.stderr.contains("nosuch/.. does not exist"), "\(later.status) \(later.stderr)")
        // A batch's pattern too: the folder it would make later must not decide where `..` leads.
        try "name\nclip\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let batch = try CLI.run(["title", "--batch", "rows.csv", "--background-video", "clip.mp4", "--output-pattern", "nosuch/../{name}.mp4"], in: folder.url)
        #expect(batch.status == 64 && batch.stderr.contains("does not exist"), "\(batch.status) \(batch.stderr)")
        #expect(try Data(contentsOf: clip) == before, "the input was changed")
    }

    @Test("a misspelt command is answered with the one meant (64), not \"2 unexpected arguments\"")
    func aMisspeltCommandIsSuggested() throws {
        guard CLI.isBuilt else { return }
        for (typed, meant) in [("rendr", "render"), ("titel", "title"), ("stich", "stitch")] {
            let r = try CLI.run([typed, "x.json"])
            #expect(r.status == 64 && r.stderr.contains("unknown command '\(typed)': did you mean '\(meant)'?"), "\(typed): \(r.stderr)")
        }
    }

    /// ArgumentParser checks a command's values before its unknown options, so a missing -o hid a misspelt
    /// option: the option is named first, with the one meant, for subcommands of subcommands too.
    @Test("an unknown option is named even when a required value is missing too")
    func anUnknownOptionIsNamedBeforeAMissingValue() throws {
        guard CLI.isBuilt else { return }
        let cases: [([String], String)] = [
            (["render", "film.json", "--chek"], "unknown option '--chek'. Did you mean '--check'? (see 'moviemaker render --help')"),
            (["otio", "import", "edit.otio", "--bogus=1"], "unknown option '--bogus' (see 'moviemaker otio import --help')"),
            (["title", "Hi", "--duraton", "2"], "unknown option '--duraton'. Did you mean '--duration'?"),
        ]
        let folder = try TemporaryFolder()
        try #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#
            .write(to: folder.file("film.json"), atomically: true, encoding: .utf8)
        for (arguments, message) in cases {
            let r = try CLI.run(arguments, in: folder.url)
            #expect(r.status == 64 && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
        }
        // Named before a missing file, too; known options alone still get the command's own message.
        let absent = try CLI.run(["render", "none.json", "--chek"], in: folder.url)
        #expect(absent.status == 64 && absent.stderr.contains("unknown option '--chek'"), "\(absent.stderr)")
        let missing = try CLI.run(["render", "film.json", "--quiet"], in: folder.url)
        #expect(missing.status == 64 && missing.stderr.contains("give -o movie.mp4"), "\(missing.stderr)")
    }

    @Test("-o through a symbolic link writes the file it names and keeps the link, as ffmpeg and cp do; a dangling link makes its file")
    func outputThroughASymbolicLinkKeepsTheLink() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movies = folder.file("movies")
        try FileManager.default.createDirectory(at: movies, withIntermediateDirectories: false)
        let first = try CLI.run(["color", "--color", "red", "--duration", "1", "--size", "320x240", "-o", movies.appendingPathComponent("real.mp4").path, "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.mp4").path, withDestinationPath: "movies/real.mp4")
        try FileManager.default.createSymbolicLink(atPath: folder.file("dangling.mp4").path, withDestinationPath: "movies/new.mp4")
        try FileManager.default.createSymbolicLink(atPath: folder.file("schema.json").path, withDestinationPath: "movies/schema.json")
        for name in ["link.mp4", "dangling.mp4"] {
            let r = try CLI.run(["color", "--color", "blue", "--duration", "2", "--size", "320x240", "-o", name, "-q"], in: folder.url)
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
        let schema = try CLI.run(["schema", "-o", "schema.json"], in: folder.url)
        #expect(schema.status == 0, "\(schema.stderr)")
        for (link, target) in [("link.mp4", "movies/real.mp4"), ("dangling.mp4", "movies/new.mp4"), ("schema.json", "movies/schema.json")] {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.file(link).path)) == target, "\(link) is no longer a link to \(target)")
        }
        #expect(try MovieReader(url: movies.appendingPathComponent("real.mp4")).decodedFrameCount() == 60, "the link's file holds the new 2-second movie")
        #expect(try MovieReader(url: movies.appendingPathComponent("new.mp4")).decodedFrameCount() == 60)
        #expect(try Data(contentsOf: movies.appendingPathComponent("schema.json")).starts(with: Data("{".utf8)))
        #expect(folder.contents.sorted() == ["dangling.mp4", "link.mp4", "movies", "schema.json"], "\(folder.contents)")
        // A relative link with `..`, in a folder reached through a linked folder: `..` leaves the real
        // folder, as the kernel reads it (real/a/out.mp4 → ../shared/out.mp4, reached as top/a/out.mp4).
        let real = try TemporaryFolder()
        for name in ["a", "shared", "top"] { try FileManager.default.createDirectory(at: real.file(name), withIntermediateDirectories: false) }
        try FileManager.default.createSymbolicLink(atPath: real.file("a/out.mp4").path, withDestinationPath: "../shared/out.mp4")
        try FileManager.default.createSymbolicLink(atPath: real.file("top/a").path, withDestinationPath: real.file("a").path)
        let through = try CLI.run(["color", "--color", "blue", "--duration", "1", "--size", "320x240", "-o", real.file("top/a/out.mp4").path, "-q"])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(try MovieReader(url: real.file("shared/out.mp4")).decodedFrameCount() == 30, "written where the link points")
    }

    /// Issue 33, reliability 4: `render --subtitles s.mp4 -o s.mp4` and a description's LUT given as `-o`
    /// were replaced by the movie (exit 0). Both are inputs: refused with 64, the file untouched.
    @Test("render refuses to write over its --subtitles file or a filter's .cube file (64, both untouched)")
    func renderRefusesItsSubtitlesAndLUTAsOutput() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let subtitles = folder.file("s.mp4")
        try "1\n00:00:00,000 --> 00:00:01,000\nHello\n".write(to: subtitles, atomically: true, encoding: .utf8)
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(r) \(g) \(b)\n" } } }
        let lut = folder.file("look.mov")
        try cube.write(to: lut, atomically: true, encoding: .utf8)
        let spec = folder.file("spec.json")
        try #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1, "filters": [{"name": "lut", "file": "look.mov"}]}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let before = try [subtitles, lut].map { try Data(contentsOf: $0) }
        for arguments in [["render", spec.path, "--subtitles", subtitles.path, "-o", subtitles.path], ["render", spec.path, "-o", lut.path]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64 && r.stderr.contains("-o \(arguments.last!) is"), "\(arguments): \(r.status) \(r.stderr)")
        }
        #expect(try [subtitles, lut].map { try Data(contentsOf: $0) } == before, "an input was changed")
        #expect(folder.contents == ["look.mov", "s.mp4", "spec.json"], "left behind: \(folder.contents)")
    }

    /// Issue 33, reliability 3: a named pipe given as --music, --font-file or --subtitles, or named by a
    /// description's music item (render and validate), hung the tool for good (and validate then ignored
    /// Ctrl-C). Each is now refused at once with 64, naming the pipe (and, in a description, its JSON path).
    @Test("a named pipe as --music, --font-file, --subtitles or a description's music is refused at once with 64")
    func namedPipeInputsAreRefusedAtOnce() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let photo = try TestPhotos.photo(.red, "a.png", in: folder)
        let fifo = folder.file("song.mp3")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let spec = folder.file("spec.json")
        try #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1}]}, {"kind": "audio", "items": [{"type": "music", "source": {"file": "song.mp3"}}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let plain = folder.file("plain.json")
        try #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1}]}]}"#
            .write(to: plain, atomically: true, encoding: .utf8)
        let cases: [([String], [String])] = [
            (["slideshow", photo.path, "--music", fifo.path, "-o", folder.file("a.mp4").path], [fifo.path, "named pipe"]),
            (["stitch", photo.path, "--music=\(fifo.path)", "-o", folder.file("b.mp4").path], [fifo.path, "named pipe"]),
            (["title", "Hello", "--font-file", fifo.path, "-o", folder.file("c.mp4").path], [fifo.path, "named pipe"]),
            (["render", plain.path, "--subtitles", fifo.path, "-o", folder.file("d.mp4").path], [fifo.path, "named pipe"]),
            (["render", spec.path, "-o", folder.file("e.mp4").path], ["tracks[1].items[0].source", "named pipe"]),
            (["validate", spec.path], ["tracks[1].items[0].source", "named pipe"]),
        ]
        for (arguments, named) in cases {
            let started = Date()
            let running = try CLI.Running(arguments)
            let outcome = running.waitForExit(timeout: 30)
            #expect(outcome.reason == .exit && outcome.status == 64, "\(arguments): \(outcome.status) \(outcome.stderr)")
            for name in named { #expect(outcome.stderr.contains(name), "\(arguments): \(outcome.stderr) does not name \(name)") }
            #expect(Date().timeIntervalSince(started) < 20, "\(arguments) took \(Date().timeIntervalSince(started)) s")
        }
        #expect(folder.contents == ["a.png", "plain.json", "song.mp3", "spec.json"], "left behind: \(folder.contents)")
    }

    /// Issue 33, reliability 7: `validate` did not open stickers, so broken ones passed it and then failed
    /// `render` with a message lacking the JSON path. Now both name `tracks[1].items[0].source`.
    @Test("a truncated sticker and a GIF declaring 65535×65535 fail validate (and render) with the item's JSON path")
    func brokenStickersFailValidateWithTheirJSONPath() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let whole = FixtureAPNG.data(width: 64, height: 64, frames: StickerFixtures.frames())
        try Data(whole.prefix(whole.count / 2)).write(to: folder.file("cut.png"))
        var huge = FixtureGIF.data(width: 8, height: 8, frames: [AnimationFrame.make(width: 8, height: 8, milliseconds: 100) { _, _ in (255, 0, 0, 255) }])
        huge[6] = 0xFF; huge[7] = 0xFF; huge[8] = 0xFF; huge[9] = 0xFF     // the logical screen: 65535×65535
        try Data(huge).write(to: folder.file("huge.gif"))
        for name in ["cut.png", "huge.gif"] {
            let spec = folder.file("\(name).json")
            try #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1}]}, {"kind": "overlay", "items": [{"type": "sticker", "source": {"file": "\#(name)"}, "duration": 1}]}]}"#
                .write(to: spec, atomically: true, encoding: .utf8)
            let validated = try CLI.run(["validate", spec.path])
            #expect(validated.status == 64 && validated.stderr.contains("tracks[1].items[0].source"), "validate \(name): \(validated.status) \(validated.stderr)")
            let rendered = try CLI.run(["render", spec.path, "-o", folder.file("\(name).mp4").path])
            #expect(rendered.status != 0 && rendered.stderr.contains("tracks[1].items[0].source"), "render \(name): \(rendered.status) \(rendered.stderr)")
        }
    }

    /// A small progressive JPEG whose frame header is patched to declare `width`×`height`.
    static func bombJPEG(width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](FixtureJPEG.data(RGBAPicture.quadrants(width: 64, height: 64), progressive: true))
        for i in 0..<(bytes.count - 9) where bytes[i] == 0xFF && (bytes[i + 1] == 0xC2 || bytes[i + 1] == 0xC0) {
            bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
            bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
            break
        }
        return Data(bytes)
    }

    /// A 16-bit mono WAV whose header says `rate` samples per second, with `samples` samples.
    static func wav(rate: UInt32, samples: Int) -> Data {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + samples * 2)); d.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(UInt32(samples * 2))
        for i in 0..<samples { u16(UInt16(bitPattern: Int16(truncatingIfNeeded: (i % 100) * 300))) }
        return d
    }

    @Test("decompression bombs: a JPEG declaring 40000×40000 and a WAV declaring 1 Hz are refused at once, naming the file and the limit, in little memory")
    func decompressionBombsAreRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let jpeg = folder.file("bomb.jpg"), wav = folder.file("bomb.wav")
        try Self.bombJPEG(width: 40000, height: 40000).write(to: jpeg)
        try Self.wav(rate: 1, samples: 20_000).write(to: wav)
        #expect(try Data(contentsOf: jpeg).count < 30_000)

        // In the library: typed errors, fast.
        let start = ContinuousClock.now
        do {
            _ = try AudioFile(url: wav).makeReader(format: .standard)
            Issue.record("a 1 Hz WAV should be refused")
        } catch let error as MovieMakerError {
            #expect(error.code == .audioUnreadable && error.message.contains(wav.path) && error.message.contains("8000…384000"), "\(error.message)")
        }
        // Before: the whole 1 Hz file resampled (minutes). A bound only a return to that breaks.
        #expect(ContinuousClock.now - start < .seconds(10))

        // Through the tool, measured by /usr/bin/time: refused with 50 MB and a second of CPU more than a bare start
        // (resampling or decoding the bomb took minutes and gigabytes; the margin keeps a loaded CI machine from failing it).
        for (arguments, what) in [(["slideshow", jpeg.path, "--size", "320x240", "-o", folder.file("a.mp4").path], "200 megapixels"),
                                  (["slideshow", try TestPhotos.photo(.red, "ok", in: folder).path, "--size", "320x240", "--music", wav.path, "-o", folder.file("b.mp4").path], "8000…384000")] {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { break }
            let r = try run("/usr/bin/time", ["-f", "MAXRSS=%M CPU=%U+%S", CLI.executable.path] + arguments)
            #expect(r.status != 0 && r.stderr.contains(what), "\(arguments): \(r.stderr)")
            let kb = r.stderr.components(separatedBy: "MAXRSS=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? .max
            let bare = try run("/usr/bin/time", ["-f", "MAXRSS=%M CPU=%U+%S", CLI.executable.path, "--version"])
            let baseKB = bare.stderr.components(separatedBy: "MAXRSS=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
            #expect(kb - baseKB < 50_000, "peak \(kb) KiB, a bare start \(baseKB) KiB")
            func cpu(_ stderr: String) -> Double? {
                stderr.components(separatedBy: "CPU=").last.map { $0.split(separator: "+").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.reduce(0, +) }
            }
            let used = cpu(r.stderr) ?? 99, bareCPU = cpu(bare.stderr) ?? 0
            #expect(used - bareCPU < 1.0, "CPU \(used) s, a bare start \(bareCPU) s")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("a.mp4").path) && !FileManager.default.fileExists(atPath: folder.file("b.mp4").path))
    }

    @Test("no FFmpeg log line reaches standard error under --quiet, whatever decodes (a damaged GIF photo)")
    func ffmpegStaysQuiet() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let frames = (0..<4).map { i in AnimationFrame.make(width: 64, height: 64, milliseconds: 100) { x, y in (UInt8(x / 16 * 60), UInt8(y / 16 * 60), UInt8(i * 60), 255) } }
        var gif = FixtureGIF.data(width: 64, height: 64, frames: frames)
        // Damage the image data after the first frame's start: libavcodec's GIF decoder complains about it.
        for i in stride(from: gif.count / 3, to: gif.count - 2, by: 7) { gif[i] ^= 0x5A }
        try Data(gif).write(to: folder.file("damaged.gif"))
        let r = try CLI.run(["slideshow", folder.file("damaged.gif").path, "--size", "320x240", "--duration", "1", "-q", "-o", folder.file("s.mp4").path])
        #expect(!r.stderr.contains(" @ 0x") && !r.stderr.contains("[gif"), "FFmpeg's own log reached stderr: \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count <= 1, "at most our own one line: \(r.stderr)")
    }

    @Test("a default adapts to what was asked: slideshow photo.jpg --duration 1 renders; only a typed transition length is refused")
    func defaultTransitionFitsShortPhotos() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let a = try TestPhotos.photo(.red, "a", in: folder), b = try TestPhotos.photo(.blue, "b", in: folder)
        let one = try CLI.run(["slideshow", a.path, "--duration", "1", "--size", "320x240", "-q", "-o", folder.file("one.mp4").path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try decodeAll(folder.file("one.mp4")).count == 30)
        // Without -q, the adapted default is said once (under -q, notes are kept quiet).
        let two = try CLI.run(["slideshow", a.path, b.path, "--duration", "1", "--size", "320x240", "-o", folder.file("two.mp4").path])
        #expect(two.status == 0 && two.stderr.contains("0.5 s"), "\(two.stderr)")
        #expect(try decodeAll(folder.file("two.mp4")).count == 60, "two photos of 1 s each")
        let typed = try CLI.run(["slideshow", a.path, b.path, "--duration", "1", "--transition-duration", "1", "-o", folder.file("typed.mp4").path])
        #expect(typed.status == 64 && typed.stderr.contains("--transition-duration 1.0 must be shorter"), "\(typed.stderr)")
    }

    @Test("a named pipe called b.jpg in a photo folder is skipped with a warning, not waited on forever")
    func fifoInPhotoFolderIsSkipped() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: false)
        let photo = try TestPhotos.photo(.green, "a", in: folder)
        try FileManager.default.copyItem(at: photo, to: photos.appendingPathComponent("a.png"))
        #expect(mkfifo(photos.appendingPathComponent("b.jpg").path, 0o644) == 0)
        let running = try CLI.Running(["slideshow", photos.path, "--duration", "1", "--size", "320x240", "-o", folder.file("s.mp4").path])
        let outcome = running.waitForExit(timeout: 60)
        #expect(outcome.status == 0 && outcome.stderr.contains("b.jpg") && outcome.stderr.contains("not a regular file"), "\(outcome.status) \(outcome.stderr)")
        #expect(try decodeAll(folder.file("s.mp4")).count == 30)
    }

    @Test("a photo whose name is not UTF-8 (ph\\xFFoto.jpg) is used, not skipped as 'no such file'; the aliases are gone after the run")
    func nonUTF8PhotoNameIsUsed() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: try TestPhotos.photo(.red, "a", in: folder), to: photos.appendingPathComponent("a.png"))
        // b: blue, under a name with the byte 0xFF (not UTF-8), written through the C API.
        let blue = try Data(contentsOf: try TestPhotos.photo(.blue, "b", in: folder))
        let raw = Array(photos.path.utf8) + Array("/b".utf8) + [0xFF] + Array("oto.png".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) } }
        #expect(fd >= 0)
        _ = blue.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let tmp = folder.file("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: false)
        let r = try CLI.run(["slideshow", photos.path, "--duration", "1", "--transition", "none", "--size", "320x240", "-o", folder.file("s.mp4").path],
                            environment: ["TMPDIR": tmp.path])
        #expect(r.status == 0 && !r.stderr.contains("skipping"), "\(r.stderr)")
        let frames = try decodeAll(folder.file("s.mp4"))
        #expect(frames.count == 60, "two photos of 1 s each")
        if frames.count == 60 {
            let first = meanColor(frames[10].pixels, x: 160, y: 120), second = meanColor(frames[50].pixels, x: 160, y: 120)
            #expect(first.r > 200 && first.b < 60, "the first photo (a.png) is red: \(first)")
            #expect(second.b > 200 && second.r < 60, "the second photo (the non-UTF-8 name) is blue: \(second)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [], "the alias folder is removed at exit")
    }

    @Test("a write that fails (file-size limit: EFBIG) names the destination and what to do, exits 1 and leaves nothing")
    func failedWriteNamesTheDestination() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let out = folder.file("big.mp4")
        // ulimit -f counts 1024-byte blocks in bash: 16 KB, far less than ten seconds of a moving title.
        let r = try CLI.run(["-c", "ulimit -f 16; exec \"$0\" \"$@\"", CLI.executable.path, "title", "A title that moves", "--style", "typewriter",
                             "--duration", "10", "--size", "640x480", "-q", "-o", out.path], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(r.status == 1, "a failed render exits 1: \(r.status) \(r.stderr)")
        #expect(r.stderr.contains(out.path) && r.stderr.contains("ulimit -f"), "the line names the destination and the limit: \(r.stderr)")
        #expect(!r.stderr.contains("FFmpeg failed") && !r.stderr.contains("choose a folder you can write to"),
                "the limit's own advice, not a folder's: \(r.stderr)")
        #expect(folder.contents == [], "nothing left behind: \(folder.contents)")
    }

    @Test("a command whose product is its standard output fails (exit 1, one line) when a full disk or a file-size limit cuts it off; a reader that leaves does not")
    func lostStandardOutputFails() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let bash = URL(fileURLWithPath: "/bin/bash")
        let full = try CLI.run(["-c", "exec \"$0\" schema > /dev/full", CLI.executable.path], executable: bash)
        #expect(full.status == 1 && full.stderr.contains("could not write all of the output to standard output (No space left on device)"), "\(full.status) \(full.stderr)")
        let cut = try CLI.run(["-c", "ulimit -f 4; exec \"$0\" schema > \"$1\"", CLI.executable.path, folder.file("schema.json").path], executable: bash)
        #expect(cut.status == 1 && cut.stderr.contains("File too large"), "\(cut.status) \(cut.stderr)")
        let head = try CLI.run(["-c", "set -o pipefail; \"$0\" schema | head -c 10 > /dev/null", CLI.executable.path], executable: bash)
        #expect(head.status == 0 && head.stderr.isEmpty, "a reader that leaves early is no failure: \(head.status) \(head.stderr)")
        // A render's product is its movie: its summary line lost to a full disk does not undo it.
        let movie = folder.file("t.mp4")
        let render = try CLI.run(["-c", "exec \"$0\" title Hi -d 0.5 --size 64x48 -q -o \"$1\" > /dev/full", CLI.executable.path, movie.path], executable: bash)
        #expect(render.status == 0 && FileManager.default.fileExists(atPath: movie.path), "\(render.status) \(render.stderr)")
        let spec = folder.file("spec.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "0.5s"}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let rendered = try CLI.run(["-c", "exec \"$0\" render \"$1\" -q -o \"$2\" > /dev/full", CLI.executable.path, spec.path, folder.file("r.mp4").path], executable: bash)
        #expect(rendered.status == 0, "\(rendered.status) \(rendered.stderr)")
        let plan = try CLI.run(["-c", "exec \"$0\" render \"$1\" --check > /dev/full", CLI.executable.path, spec.path], executable: bash)
        #expect(plan.status == 1, "render --check's product is its plan: \(plan.status) \(plan.stderr)")
        // Written to a file instead, the limit is named in words, and no file is left.
        let file = try CLI.run(["-c", "ulimit -f 4; exec \"$0\" schema -o \"$1\"", CLI.executable.path, folder.file("cut.json").path], executable: bash)
        #expect(file.status == 1 && file.stderr.contains("ulimit -f") && !file.stderr.contains("error 512"), "\(file.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("cut.json").path))
        // A folder given where a description goes is named as one, with the command that joins its media.
        let folderSpec = try CLI.run(["render", folder.url.path, "-o", folder.file("x.mp4").path])
        #expect(folderSpec.status == 64 && folderSpec.stderr.contains("a folder, not a description file") && folderSpec.stderr.contains("moviemaker stitch"), "\(folderSpec.stderr)")
    }

    @Test("docs/CLI.md's exit-status table, row by row (signals: CLICancellationTests)")
    func exitStatusTable() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let out = folder.file("out.mp4").path
        let photo = try TestPhotos.photo(.red, "p", in: folder)
        try Data("not a font".utf8).write(to: folder.file("bogus.ttf"))
        try Data("not music".utf8).write(to: folder.file("song.mp3"))
        try "notes".write(to: folder.file("notes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.file("empty"), withIntermediateDirectories: false)
        try "import MovieMaker\nlet x: Int = \"three\"\n".write(to: folder.file("broken.swift"), atomically: true, encoding: .utf8)
        try #"{"version": 1, "output": {"size": "320x240"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "-1s"}]}]}"#
            .write(to: folder.file("bad.json"), atomically: true, encoding: .utf8)
        let rows: [(status: Int32, arguments: [String], says: String)] = [
            (0, ["title", "Fine", "--duration", "0.5", "--size", "320x240", "-q", "-o", out], ""),
            (64, ["title", "X", "--fps", "-1", "-o", out], "'-1' is invalid for '--fps"),
            (64, ["title", "X", "--duration", "-1", "-o", out], "'-1' is invalid for '--duration"),
            (64, ["title", "X", "-d", "-1", "-o", out], "'-1' is invalid for '-d"),
            (64, ["title", "X", "--duration", "1e9", "-o", out], "24-hour limit"),
            (64, ["title", "X", "--font", "No Such Font Family", "-o", out], "No Such Font Family"),
            (64, ["slideshow", photo.path, "--music", folder.file("missing.mp3").path, "-o", out], "missing.mp3"),
            (64, ["slideshow", photo.path, "--music", folder.file("song.mp3").path, "-o", out], "song.mp3"),
            (64, ["title", "X", "--font-file", folder.file("bogus.ttf").path, "-o", out], "bogus.ttf"),
            (64, ["slideshow", folder.file("empty").path, "-o", out], "the folder is empty"),
            (64, ["run", folder.file("missing.swift").path], "missing.swift"),
            (64, ["run", folder.file("notes.txt").path], "not a Swift file"),
            (64, ["slideshow", photo.path, "-o", out, "--music", out], "an input of this command"),
            (64, ["render", folder.file("bad.json").path, "-o", out], "tracks[0].items[0].duration"),
            (1, ["run", folder.file("broken.swift").path], "did not compile"),
        ]
        for row in rows {
            let r = try CLI.run(row.arguments, in: folder.url)
            #expect(r.status == row.status && (row.says.isEmpty || r.stderr.contains(row.says)), "\(row.arguments): \(r.status) \(r.stderr)")
            if row.status != 0 {
                #expect(r.stderrLines.last?.hasPrefix("moviemaker: error: ") == true, "\(row.arguments): \(r.stderr)")
            }
        }
    }

    /// Damaged sound was skipped without a word (damaged video is named); each library warning is said
    /// once, though a file is opened by more than one reader.
    @Test("a sound with damaged packets plays on with one warning naming the file")
    func damagedSoundIsNamedOnce() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        _ = try DamagedSound.write(in: folder)
        let r = try CLI.run(["silences", folder.file("damaged.m4a").path])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderrLines.filter { $0.contains("its sound is damaged") }
        #expect(warnings.count == 1 && warnings[0].contains("damaged.m4a"), "\(r.stderr)")
    }

    /// `beats`, `silences` and `transcribe` of a video without sound named the file twice
    /// ("noaudio.mp4: /path/noaudio.mp4 has no audio stream").
    @Test("a sound command on a video without sound names the file once")
    func noAudioStreamNamesTheFileOnce() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let clip = try CLI.run(["color", "--color", "blue", "--duration", "0.5", "--size", "64x48", "-o", folder.file("mute.mp4").path, "-q"])
        #expect(clip.status == 0, "\(clip.stderr)")
        for command in [["beats"], ["silences"], ["transcribe", "-o", "words.json"]] {
            let r = try CLI.run([command[0], "mute.mp4"] + command.dropFirst(), in: folder.url)
            #expect(r.status == 64 && r.stderr.contains("has no audio stream"), "\(command): \(r.stderr)")
            #expect(r.stderr.components(separatedBy: "mute.mp4").count == 2, "\(command) names the file once: \(r.stderr)")
        }
    }
}

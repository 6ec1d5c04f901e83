import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// Media for the description-file tests: clips whose frames carry their index as a code
/// (`VideoFixtures.draw(index:…)`), so which source frame a movie shows can be read back.
enum SpecFixtures {
    /// The frame rate of the fixtures and of the test descriptions.
    static let rate: FrameRate = 15

    /// A `seconds`-long 320×240 clip at 15 fps whose frame k shows code k, with a `tone` Hz sound.
    static func codedClip(_ url: URL, seconds: Int, tone: Double? = 440) throws {
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: rate, settings: EncoderSettings(crf: 16, preset: .ultrafast))
        var clip = Clip(duration: Time(value: Int64(seconds), timescale: 1)) { ctx, frame in
            MovieMakerTestSupport.VideoFixtures.draw(index: frame.index, in: ctx, width: 320, height: 240)
        }
        if let tone { clip = clip.withSound(ProceduralSound.tone(frequency: tone, amplitude: 0.3, duration: Time(value: Int64(seconds), timescale: 1))) }
        try movie.add(clip)
        _ = try movie.finish()
    }

    /// A folder with `clip.mp4` (1 s), `four.mp4` (4 s), `nine.mp4` (9 s), `photo.png`, `song.wav` (3 s).
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try codedClip(folder.file("clip.mp4"), seconds: 1)
        try codedClip(folder.file("four.mp4"), seconds: 4, tone: 660)
        try codedClip(folder.file("nine.mp4"), seconds: 9, tone: 880)
        _ = try TestPhotos.photo(.orange, "photo.png", in: folder, w: 64, h: 48)
        try ProceduralSound.tone(frequency: 330, amplitude: 0.2, duration: 3).writeWAV(to: folder.file("song.wav"), sampleFormat: .int16)
        return folder
    }

    /// The code index each decoded frame of `url` shows (nil where none reads).
    static func codes(_ url: URL) throws -> [Int?] {
        try decodeAll(url).map { MovieMakerTestSupport.VideoFixtures.frameIndex(of: $0.pixels) }
    }
}

/// `moviemaker render`, `validate`, `format` and `schema`, run as subprocesses: templates filled and
/// fitted, saved specs re-rendered, previews, plans, and every kind of invalid description refused with
/// status 64 and its JSON path — and refused by the published schema through an independent validator.
@Suite("moviemaker render")
struct RenderCommandTests {
    /// A template of three video slots with `fit`, each item 4 s, joined by cuts.
    static func fitTemplate(_ fit: Timeline.Slot.Fit) -> String {
        """
        {"version": 1, "output": {"size": "320x240", "fps": 15, "encoder": {"preset": "ultrafast"}},
         "slots": {"a": {"kind": "video", "fit": "\(fit.rawValue)"}, "b": {"kind": "video", "fit": "\(fit.rawValue)"},
                   "c": {"kind": "media", "fit": "\(fit.rawValue)"}},
         "tracks": [{"kind": "video", "items": [
           {"type": "video", "source": {"slot": "a"}, "duration": "4s"},
           {"type": "video", "source": {"slot": "b"}, "duration": "4s"},
           {"type": "video", "source": {"slot": "c"}, "duration": "4s"}]}]}
        """
    }

    /// The source frame codes each fit should show, for clips of 1 s, 4 s and 9 s in 4 s slots at 15 fps.
    static func expectedCodes(_ fit: Timeline.Slot.Fit) -> [Int] {
        let whole1 = Array(0..<15), whole4 = Array(0..<60)
        switch fit {
        case .cutTail: return whole1 + whole4 + Array(0..<60)
        case .cutHead: return whole1 + whole4 + Array(75..<135)         // the last 4 s of 9
        case .center: return whole1 + whole4 + Array(38..<98)           // 2.5 s in: frame 37.5 → the frame showing at 2.5 s
        case .speedToFit:
            // 1 s at 1/4 speed (each frame 4 times), 9 s at 9/4 (frame ⌊k·9/4⌋).
            return (0..<60).map { $0 / 4 } + whole4 + (0..<60).map { $0 * 9 / 4 }
        case .loop: return (0..<60).map { $0 % 15 } + whole4 + Array(0..<60)
        case .freezeLast: return whole1 + Array(repeating: 14, count: 45) + whole4 + Array(0..<60)
        }
    }

    @Test("a 3-slot template filled with 1 s, 4 s and 9 s clips gives the durations and frames each fit documents",
          arguments: Timeline.Slot.Fit.allCases)
    func slotFits(_ fit: Timeline.Slot.Fit) throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        let spec = folder.file("fit.json")
        try Self.fitTemplate(fit).write(to: spec, atomically: true, encoding: .utf8)
        let movie = folder.file("fit.mp4")
        let r = try CLI.run(["render", spec.path, "--media", "clip.mp4", "four.mp4", "nine.mp4", "-o", movie.path, "-q"], in: folder.url)
        #expect(r.status == 0, "\(fit): \(r.stderr)")
        let codes = try SpecFixtures.codes(movie)
        var expected = Self.expectedCodes(fit)
        if fit == .center {
            // Where the 2.5 s point falls between two source frames, the decoder shows the one before or after.
            #expect(codes.count == expected.count, "\(fit): \(codes.count) frames")
            let tail = codes.suffix(60).compactMap { $0 }
            #expect(tail.count == 60 && (tail.first == 37 || tail.first == 38) && zip(tail, tail.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(tail.prefix(5))")
            expected = Array(expected.prefix(codes.count - 60))
            #expect(Array(codes.prefix(expected.count)) == expected.map { Optional($0) })
            return
        }
        #expect(codes.count == expected.count, "\(fit): \(codes.count) frames, expected \(expected.count)")
        let mismatch = zip(codes, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(mismatch == nil, "\(fit): frame \(mismatch?.offset ?? -1) shows \(String(describing: mismatch?.element.0)), expected \(mismatch?.element.1 ?? -1)")
    }

    @Test("--save-spec writes a template whose render is byte-identical, from another folder")
    func saveSpecRerendersByteIdentically() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        let spec = folder.file("t.json")
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 15, "encoder": {"preset": "ultrafast"}},
             "slots": {"clip": {"kind": "video"}, "name": {"kind": "text", "default": "nobody"}, "tint": {"kind": "color", "default": "navy"},
                       "song": {"kind": "audio", "default": {"file": "song.wav"}}},
             "tracks": [{"kind": "video", "items": [
                {"type": "title", "text": "Hi {{name}}", "duration": "1s", "background": "{{tint}}", "transition": {"name": "wipeleft", "duration": "0.4s"}},
                {"type": "video", "source": {"slot": "clip"}, "duration": "2s"},
                {"type": "photo", "source": {"file": "photo.png"}, "duration": "1s", "kenBurns": true}]},
               {"kind": "audio", "items": [{"type": "music", "source": {"slot": "song"}, "volume": 0.5}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        let elsewhere = try TemporaryFolder()
        let saved = elsewhere.file("mine.json")
        let first = folder.file("first.mp4")
        let r = try CLI.run(["render", spec.path, "--slot", "name=Ana", "--slot", "tint=#804000", "--media", "four.mp4",
                             "--save-spec", saved.path, "-o", first.path, "-q"], in: folder.url)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: saved, encoding: .utf8)
        #expect(text.contains("\"default\": \"Ana\"") && text.contains("\"default\": \"#804000\""), "\(text)")
        #expect(text.contains(folder.file("four.mp4").path), "the filled clip is named by its absolute path from another folder")
        #expect(text.contains("Hi {{name}}"), "the saved spec is still a template")
        let second = elsewhere.file("second.mp4")
        let r2 = try CLI.run(["render", saved.path, "-o", second.path, "-q"])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try Data(contentsOf: first) == Data(contentsOf: second), "the saved spec renders the same bytes")
        // It is canonical: formatting it changes nothing.
        let formatted = try CLI.run(["format", saved.path])
        #expect(formatted.status == 0 && formatted.stdout == text)
    }

    @Test("{{name}} is replaced by the text slot: the same movie as the text written in, another for another name")
    func placeholdersAreReplaced() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let template = folder.file("template.json"), literal = folder.file("literal.json")
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 15, "encoder": {"preset": "ultrafast"}},
             "slots": {"name": {"kind": "text", "default": "you"}},
             "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Happy birthday, {{name}}!", "subtitle": "for {{name}}", "duration": "1s", "style": "none"}]}]}
            """.write(to: template, atomically: true, encoding: .utf8)
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 15, "encoder": {"preset": "ultrafast"}},
             "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Happy birthday, Ana!", "subtitle": "for Ana", "duration": "1s", "style": "none"}]}]}
            """.write(to: literal, atomically: true, encoding: .utf8)
        var movies: [Data] = []
        for (url, args) in [(template, ["--slot", "name=Ana"]), (literal, []), (template, ["--slot", "name=Bob"])] {
            let out = folder.file("m\(movies.count).mp4")
            let r = try CLI.run(["render", url.path] + args + ["-o", out.path, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            movies.append(try Data(contentsOf: out))
        }
        #expect(movies[0] == movies[1], "the template filled with Ana renders exactly the text written in")
        #expect(movies[0] != movies[2], "another name gives another picture")
        let check = try CLI.run(["render", template.path, "--slot", "name=Zoë", "--check"])
        #expect(check.stdout.contains("\"Happy birthday, Zoë!\""), "\(check.stdout)")
        // A photo far smaller than the frame is named as looking soft; one as large is not.
        let photos = folder.file("photos.json")
        for (name, side) in [("tiny.png", 16), ("big.png", 400)] {
            let c = try Canvas(width: side, height: side)
            try c.draw { $0.clear(.green) }
            try c.writePNG(to: folder.file(name))
        }
        try #"{"version": 1, "output": {"size": "320x240"}, "tracks": [{"kind": "video", "items": [{"type": "photo", "source": {"file": "tiny.png"}, "duration": "1s"}, {"type": "photo", "source": {"file": "big.png"}, "duration": "1s"}]}]}"#
            .write(to: photos, atomically: true, encoding: .utf8)
        let soft = try CLI.run(["render", photos.path, "--check"])
        #expect(soft.status == 0 && soft.stderr.contains("tracks[0].items[0].source: tiny.png is 16×16 and is shown 20.0× larger: it will look soft")
                && !soft.stderr.contains("big.png"), "\(soft.stderr)")
        // A slot given no text (an empty shell variable) renders, and says the title shows no words.
        let bare = folder.file("bare.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "slots": {"name": {"kind": "text", "default": "you"}}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{name}}", "layout": "lowerThird", "duration": "1s"}]}]}"#
            .write(to: bare, atomically: true, encoding: .utf8)
        let empty = try CLI.run(["render", bare.path, "--slot", "name= ", "--check"])
        #expect(empty.status == 0 && empty.stderr.contains("tracks[0].items[0].text: the title is blank once {{name}} is filled, so it shows no words, only its box"), "\(empty.stderr)")
        let filled = try CLI.run(["render", bare.path, "--slot", "name=Ana", "--check"])
        #expect(filled.status == 0 && !filled.stderr.contains("no words"), "\(filled.stderr)")
    }

    @Test("--preview renders a quarter of the width and height, every frame; --check prints the plan and writes nothing")
    func previewAndCheck() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        let spec = folder.file("p.json")
        try """
            {"version": 1, "output": {"size": "640x480", "fps": 15},
             "tracks": [{"kind": "video", "items": [
               {"type": "video", "source": {"file": "four.mp4"}, "in": "1s", "duration": "1s", "speed": 2, "transition": {"name": "fade", "duration": "10f"}},
               {"type": "video", "source": {"file": "nine.mp4"}, "duration": "2s", "reverse": true}]},
               {"kind": "overlay", "items": [{"type": "title", "text": "Hello", "at": "0.5s", "duration": "1s"}]}]}
            """.write(to: spec, atomically: true, encoding: .utf8)
        let preview = folder.file("preview.mp4")
        let r = try CLI.run(["render", spec.path, "--preview", "-o", preview.path], environment: ["CI": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(preview)
        #expect(frames.count == 35, "1 s + 2 s − 10 frames at 15 fps")
        #expect(frames.first.map { ($0.pixels.width, $0.pixels.height) } ?? (0, 0) == (160, 120))
        #expect(r.stdout.contains("160x120"), "\(r.stdout)")
        #expect(r.stderr.contains("render \(preview.path): 100% (35/35 frames)"), "\(r.stderr)")

        let planned = folder.file("never.mp4")
        let check = try CLI.run(["render", spec.path, "--check", "-o", planned.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!FileManager.default.fileExists(atPath: planned.path))
        #expect(check.stdout.contains("640x480 at 15 fps, 2.333 s (35 frames)"), "\(check.stdout)")
        // A platform preset's bit-rate ceiling and keyframes are in the plan; its warning is said once, on standard error.
        let tiktok = try CLI.run(["render", spec.path, "--for", "tiktok", "--check"])
        #expect(tiktok.status == 0 && tiktok.stdout.contains("at most 6000 kb/s, a keyframe every") && !tiktok.stdout.contains("warning"), "\(tiktok.stdout)")
        #expect(tiktok.stderr.components(separatedBy: "is replaced by tiktok's").count == 2, "\(tiktok.stderr)")
        // --dry-run, as slideshow calls it, is the same.
        let dryRun = try CLI.run(["render", spec.path, "--dry-run", "-o", planned.path])
        #expect(dryRun.status == 0 && dryRun.stdout == check.stdout, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(check.stdout.contains("0.000–1.000 s") && check.stdout.contains("tracks[0].items[0]  video four.mp4; from 1.000 s, speed 2×"), "\(check.stdout)")
        #expect(check.stdout.contains("0.333–2.333 s") && check.stdout.contains("reversed"), "\(check.stdout)")
        #expect(check.stdout.contains("video decoders needed: 2"), "\(check.stdout)")
        let valid = try CLI.run(["validate", spec.path])
        #expect(valid.status == 0 && valid.stdout.contains("valid: 640x480 at 15 fps, 2.333 s (35 frames), 2 tracks, 3 items"), "\(valid.stdout)\(valid.stderr)")
        // A length that is not whole frames is given as the movie will last, and as described.
        let ragged = folder.file("ragged.json")
        try #"{"version": 1, "output": {"size": "320x240", "fps": 30}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1.01}]}]}"#
            .write(to: ragged, atomically: true, encoding: .utf8)
        let raggedValid = try CLI.run(["validate", ragged.path])
        #expect(raggedValid.status == 0 && raggedValid.stdout.contains("valid: 320x240 at 30 fps, 1.033 s (31 frames, the 1.010 s described rounded up to whole frames)"), "\(raggedValid.stdout)\(raggedValid.stderr)")
    }

    @Test("a CRF above 51 without a codec is the .webm's VP9 to take: --check names the codec the file gets; .mp4's x264 refuses it")
    func crfWithoutACodecIsCheckedAgainstTheFilesCodec() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("c.json")
        try #"{"version": 1, "output": {"size": "160x120", "fps": 10, "encoder": {"crf": 55}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let webm = try CLI.run(["render", spec.path, "--check", "-o", folder.file("x.webm").path])
        #expect(webm.status == 0 && webm.stdout.contains("vp9 crf 55"), "\(webm.stdout)\(webm.stderr)")
        let mp4 = try CLI.run(["render", spec.path, "--check", "-o", folder.file("x.mp4").path])
        #expect(mp4.status == 64 && mp4.stderr.contains("crf 55") && mp4.stderr.contains("0…51"), "\(mp4.stderr)")
    }

    @Test("a description given as - (standard input) is refused saying to save it to a file, by render, validate and format")
    func standardInputIsRefusedClearly() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        for command in [["render", "-", "-o", folder.file("x.mp4").path], ["validate", "-"], ["format", "-"], ["render", "/dev/stdin", "--check"]] {
            let r = try CLI.run(command)
            #expect(r.status == 64 && r.stderr.contains("a description is read from a file, not standard input") && r.stderr.contains("cat > spec.json"),
                    "\(command): \(r.stderr)")
        }
        #expect(folder.contents.isEmpty)
        // A named pipe (as `<(…)` gives) is refused the same way, without waiting for a writer.
        let fifo = folder.file("spec.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for command in [["render", fifo.path, "--check"], ["validate", fifo.path], ["format", fifo.path]] {
            let r = try CLI.run(command)
            #expect(r.status == 64 && r.stderr.contains("not standard input or a pipe"), "\(command): \(r.stderr)")
        }
    }

    @Test("-o naming one of the description's inputs (or the description) is refused before any work, the input untouched")
    func outputIsNotAnInput() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        let spec = folder.file("s.json")
        try Self.base.write(to: spec, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: folder.file("clip.mp4"))
        let link = folder.file("link.mp4")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder.file("clip.mp4"))
        for target in [folder.file("clip.mp4"), link] {
            let r = try CLI.run(["render", spec.path, "-o", target.path], in: folder.url)
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.contains("which the description reads"), "\(r.stderr)")
        }
        #expect(try Data(contentsOf: folder.file("clip.mp4")) == before)
        let same = try CLI.run(["render", spec.path, "--save-spec", spec.path])
        #expect(same.status == 64 && same.stderr.contains("is the description file itself"), "\(same.stderr)")
        #expect(try String(contentsOf: spec, encoding: .utf8) == Self.base)
    }

    @Test("the new commands are listed and their help names the flags users' scripts rely on")
    func help() throws {
        guard CLI.isBuilt else { return }
        let root = try CLI.help([])
        for name in ["render", "validate", "format", "schema", "otio"] {
            #expect(root.stdout.contains("  \(name) "), "\(name) is not listed: \(root.stdout)")
        }
        let render = try CLI.help(["render"])
        #expect(render.status == 0)
        for flag in ["--slot <name=value>", "--media <file>", "--save-spec <file.json>", "--preview", "--check", "--crf", "--preset", "-o, --output"] {
            #expect(render.stdout.contains(flag), "render --help lacks \(flag)")
        }
        let otio = try CLI.help(["otio"])
        #expect(otio.stdout.contains("export") && otio.stdout.contains("import") && otio.stdout.contains("in_offset"))
        let missing = try CLI.run(["render", "/nonexistent/spec.json", "-o", "/tmp/x.mp4"])
        #expect(missing.status == 64 && missing.stderr.contains("/nonexistent/spec.json: no such file"), "\(missing.stderr)")
        let folder = try TemporaryFolder()
        try Self.base.write(to: folder.file("s.json"), atomically: true, encoding: .utf8)
        let nothing = try CLI.run(["render", folder.file("s.json").path])
        #expect(nothing.status == 64 && nothing.stderr.contains("give -o movie.mp4 to render, --check to only check"), "\(nothing.stderr)")
    }

    @Test("moviemaker schema prints the committed schema")
    func schemaCommand() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.run(["schema"])
        #expect(r.status == 0)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        #expect(r.stdout == (try String(contentsOf: root.appendingPathComponent("schema/timeline-1.schema.json"), encoding: .utf8)))
        #expect(r.stdout.contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
    }

    // MARK: Invalid descriptions

    /// A valid description using the fixtures, as a JSON value to take apart.
    static let base = """
        {"version": 1, "output": {"size": "320x240", "fps": 15},
         "tracks": [
          {"kind": "video", "items": [
             {"type": "title", "text": "Hi", "duration": "1s", "transition": {"name": "fade", "duration": "0.5s"}},
             {"type": "video", "source": {"file": "clip.mp4"}, "duration": "1s"},
             {"type": "color", "color": "red", "duration": "1s"}]},
          {"kind": "audio", "items": [{"type": "music", "source": {"file": "song.wav"}}]}]}
        """

    /// One invalid description: how it is made from `base`, the JSON path and words the error must
    /// name, whether the published schema can refuse it (some mistakes need the files or other parts of
    /// the file to be seen), and extra arguments.
    struct Invalid: CustomStringConvertible, Sendable {
        let name: String
        let text: String
        let path: String
        let words: String
        let schemaRefuses: Bool
        var arguments: [String] = []
        var description: String { name }
    }

    /// `base` with `change` applied to its JSON value.
    static func edited(_ change: (inout JSONValue) -> Void) -> String {
        var v = try! JSONValue(parsing: base)
        change(&v)
        return v.canonicalText
    }

    static func set(_ v: inout JSONValue, _ path: [Any], _ new: JSONValue?) {
        guard let first = path.first else { if let new { v = new }; return }
        let rest = Array(path.dropFirst())
        switch (v, first) {
        case (.object(var o), let key as String):
            if rest.isEmpty { o[key] = new } else { var child = o[key] ?? .object([:]); set(&child, rest, new); o[key] = child }
            v = .object(o)
        case (.array(var a), let i as Int):
            if rest.isEmpty { if let new { if i < a.count { a[i] = new } else { a.append(new) } } else { a.remove(at: i) } }
            else { set(&a[i], rest, new) }
            v = .array(a)
        default: break
        }
    }

    static let invalid: [Invalid] = {
        func e(_ name: String, _ path: [Any], _ value: JSONValue?, at jsonPath: String, _ words: String, schema: Bool = true, _ more: [([Any], JSONValue?)] = []) -> Invalid {
            Invalid(name: name, text: edited { v in set(&v, path, value); for (p, x) in more { set(&v, p, x) } }, path: jsonPath, words: words, schemaRefuses: schema)
        }
        let item0 = ["tracks", 0, "items", 0] as [Any], item1 = ["tracks", 0, "items", 1] as [Any], item2 = ["tracks", 0, "items", 2] as [Any]
        let videoSlot: JSONValue = .object(["kind": .string("video")])
        return [
            e("negative duration", item2 + ["duration"], .string("-1s"), at: "tracks[0].items[2].duration", "must be greater than 0, got \"-1s\""),
            e("a gap cell without a duration", item2, .object(["type": .string("split"), "layout": .string("2x2"), "duration": .string("1s"),
                                                                "cells": .array([.object(["type": .string("gap")])])]),
              at: "tracks[0].items[2].cells[0]", "needs \"duration\""),
            e("time without a unit", item2 + ["duration"], .string("1.5"), at: "tracks[0].items[2].duration", "must be a time such as"),
            e("zero duration", item2 + ["duration"], .string("0s"), at: "tracks[0].items[2].duration", "must be greater than 0"),
            e("unknown unit", item2 + ["duration"], .string("2min"), at: "tracks[0].items[2].duration", "must be a time such as"),
            e("fractional frames", item2 + ["duration"], .string("90.5f"), at: "tracks[0].items[2].duration", "must be a time such as"),
            e("negative in", item1 + ["in"], .number("-0.5"), at: "tracks[0].items[1].in", "must be 0 or more"),
            e("unknown top-level key", ["colour"], .string("red"), at: "colour", "unknown key \"colour\""),
            e("unknown item key", item2 + ["durration"], .string("1s"), at: "tracks[0].items[2].durration", "did you mean \"duration\""),
            e("unknown transition", item0 + ["transition", "name"], .string("wipe-sideways"), at: "tracks[0].items[0].transition.name", "unknown transition \"wipe-sideways\""),
            e("unknown item type", item2 + ["type"], .string("hologram"), at: "tracks[0].items[2].type", "unknown item type \"hologram\""),
            e("unknown track kind", ["tracks", 1, "kind"], .string("subtitle"), at: "tracks[1].kind", "unknown track kind \"subtitle\""),
            e("unknown fit", item1 + ["fit"], .string("stretch"), at: "tracks[0].items[1].fit", "unknown fit \"stretch\""),
            e("unknown easing", item0 + ["transition", "easing"], .string("wobbly"), at: "tracks[0].items[0].transition.easing", "unknown easing \"wobbly\""),
            e("newer version", ["version"], .integer(2), at: "version", "version 2, but this MovieMaker reads version 1"),
            e("missing version", ["version"], nil, at: "$", "missing \"version\""),
            e("speed too high", item1 + ["speed"], .integer(10), at: "tracks[0].items[1].speed", "must be a speed from 0.25 to 4, got 10"),
            e("speed zero", item1 + ["speed"], .integer(0), at: "tracks[0].items[1].speed", "must be a speed from 0.25 to 4"),
            e("odd frame size", ["output", "size"], .string("321x240"), at: "output.size", "must be even"),
            e("zero frame size", ["output", "size"], .string("0x0"), at: "output.size", "each side must be from 16 to 8192 pixels"),
            e("frame side over 8192", ["output", "size"], .string("8194x240"), at: "output.size", "each side must be from 16 to 8192 pixels"),
            e("zero fps", ["output", "fps"], .integer(0), at: "output.fps", "frames per second from 1 to 240"),
            e("crf out of range", ["output", "encoder", "crf"], .integer(70), at: "output.encoder.crf", "must be from 0 to 63"),
            e("music on a video track", item2, .object(["type": .string("music"), "source": .object(["file": .string("song.wav")])]),
              at: "tracks[0].items[2].type", "cannot be on a video track"),
            e("at on a video-track item", item1 + ["at"], .string("1s"), at: "tracks[0].items[1].at", "have no \"at\""),
            e("transition on an overlay item", ["tracks", 2], .object(["kind": .string("overlay"), "items": .array([.object([
                "type": .string("color"), "color": .string("blue"), "duration": .string("1s"),
                "transition": .object(["name": .string("fade")])])])]), at: "tracks[2].items[0].transition", "only items of a video track have a transition"),
            e("a video slot's default is a text", ["slots"], .object(["clip": .object(["kind": .string("video"), "default": .string("Ana")])]),
              at: "slots.clip.default", "a video slot's default is a file"),
            e("unknown slot kind", ["slots"], .object(["s": .object(["kind": .string("sticker")])]), at: "slots.s.kind", "unknown slot kind \"sticker\""),
            e("fit on a text slot", ["slots"], .object(["name": .object(["kind": .string("text"), "fit": .string("loop")])]),
              at: "slots.name.fit", "only video and media slots have a fit"),
            e("video without a source", item1 + ["source"], nil, at: "tracks[0].items[1]", "needs \"source\": the file (\"a.mp4\""),
            e("a blank source path", item1 + ["source"], .string(" "), at: "tracks[0].items[1].source", "must be a source"),
            e("volume in words", item1 + ["volume"], .string("-6 decibels"), at: "tracks[0].items[1].volume", "decibels such as \"-6dB\""),
            e("colour that is not one", item2 + ["color"], .string("#zzzzzz"), at: "tracks[0].items[2].color", "must be a colour"),
            e("speed as a word", item1 + ["speed"], .string("fast"), at: "tracks[0].items[1].speed", "must be a speed"),
            e("empty items of a slideshow", item2, .object(["type": .string("slideshow"), "photos": .array([])]),
              at: "tracks[0].items[2].photos", "at least one photo"),
            Invalid(name: "NaN", text: base.replacingOccurrences(of: "\"duration\": \"1s\"}]},", with: "\"duration\": NaN}]},"),
                    path: "tracks[0].items[2].duration", words: "NaN and Infinity are not JSON numbers", schemaRefuses: true),
            Invalid(name: "Infinity", text: base.replacingOccurrences(of: "\"file\": \"clip.mp4\"}, ", with: "\"file\": \"clip.mp4\"}, \"speed\": Infinity, "),
                    path: "tracks[0].items[1].speed", words: "NaN and Infinity", schemaRefuses: true),
            Invalid(name: "a key twice", text: base.replacingOccurrences(of: "\"color\": \"red\",", with: "\"color\": \"red\", \"color\": \"blue\","),
                    path: "tracks[0].items[2]", words: "the key \"color\" appears twice", schemaRefuses: true),
            Invalid(name: "a trailing comma", text: base.replacingOccurrences(of: "\"fps\": 15}", with: "\"fps\": 15,}"),
                    path: "output", words: "not valid JSON at line 1", schemaRefuses: true),
            // What only the files, the slots or the generators can tell: the schema cannot refuse these.
            e("unfilled slot without a default", item1 + ["source"], .object(["slot": .string("clip")]), at: "tracks[0].items[1].source.slot",
              "the slot \"clip\" has no default and was not filled", schema: false, [(["slots"], .object(["clip": videoSlot]))]),
            e("missing file", item1 + ["source", "file"], .string("missing.mp4"), at: "tracks[0].items[1].source.file", "no such file", schema: false),
            e("undeclared slot", item1 + ["source"], .object(["slot": .string("nope")]), at: "tracks[0].items[1].source.slot", "no slot is named \"nope\"", schema: false),
            e("unknown placeholder", item0 + ["text"], .string("Hi {{who}}"), at: "tracks[0].items[0].text", "{{who}} names no slot", schema: false),
            e("a placeholder with a space", item0 + ["text"], .string("Hi {{first name}}"), at: "tracks[0].items[0].text",
              "write {{first_name}}", schema: false),
            e("transition after the last item", item2 + ["transition"], .object(["name": .string("fade")]), at: "tracks[0].items[2].transition",
              "the last item of a video track", schema: false),
            e("a video item given a text slot", item1 + ["source"], .object(["slot": .string("name")]), at: "tracks[0].items[1].source.slot",
              "is a text slot, but a video item takes a video or media slot", schema: false, [(["slots"], .object(["name": .object(["kind": .string("text")])]))]),
            e("over 24 hours", item2 + ["duration"], .string("90000s"), at: "tracks[0].items[2].duration", "at most 24 hours", schema: false),
            e("unknown generator", item2, .object(["type": .string("generator"), "name": .string("fireworks"), "duration": .string("1s")]),
              at: "tracks[0].items[2].name", "no generator is registered as \"fireworks\"", schema: false),
            e("a text file as a photo", item2, .object(["type": .string("photo"), "source": .object(["file": .string("notes.jpg")])]),
              at: "tracks[0].items[2].source", "cannot be shown as a photo", schema: false),
            Invalid(name: "a video slot given a text", text: edited { v in
                set(&v, ["slots"], .object(["clip": videoSlot]))
                set(&v, item1 + ["source"], .object(["slot": .string("clip")]))
            }, path: "slots.clip", words: "takes a video file, but \"Ana\" is not a file", schemaRefuses: false, arguments: ["--slot", "clip=Ana"]),
        ]
    }()

    @Test("at least 25 kinds of invalid description exit 64 with one line naming the file and the JSON path, writing nothing",
          arguments: RenderCommandTests.invalid)
    func invalidSpec(_ case_: Invalid) throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try Self.sharedFixtures()
        let spec = folder.appendingPathComponent("bad-\(case_.name.filter { $0.isLetter }).json")
        try case_.text.write(to: spec, atomically: true, encoding: .utf8)
        let movie = folder.appendingPathComponent("bad-\(case_.name.filter { $0.isLetter }).mp4")
        let r = try CLI.run(["render", spec.path] + case_.arguments + ["-o", movie.path], in: folder)
        #expect(r.status == 64, "\(case_): status \(r.status), \(r.stderr)")
        let lines = r.stderrLines.filter { $0.hasPrefix("moviemaker: error: ") }
        #expect(lines.count == 1, "\(case_): \(r.stderr)")
        #expect(r.stderr.contains("\(spec.path): \(case_.path): "), "\(case_): \(r.stderr)")
        #expect(r.stderr.contains(case_.words), "\(case_): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie.path))
        #expect(r.stdout.isEmpty)
    }

    @Test("there are at least 25 invalid descriptions, at least 25 of them the schema can refuse")
    func enoughInvalidSpecs() {
        #expect(Self.invalid.count >= 25)
        #expect(Self.invalid.filter(\.schemaRefuses).count >= 25)
    }

    /// The fixtures the invalid-spec cases share (made once), with `notes.jpg`, a text file.
    static func sharedFixtures() throws -> URL {
        try fixtureStore.withLock { stored in
            if let (folder, _) = stored { return folder.url }
            let folder = try SpecFixtures.folder()
            try "not a photo".write(to: folder.file("notes.jpg"), atomically: true, encoding: .utf8)
            stored = (folder, ())
            return folder.url
        }
    }
    static let fixtureStore = LockedBox<(TemporaryFolder, Void)?>(nil)

    // MARK: The published schema, through an independent validator

    /// Debian's python3 with python3-jsonschema, when installed.
    static let python = "/usr/bin/python3"
    static var jsonschemaAvailable: Bool {
        (try? run(python, ["-c", "import jsonschema"]).status) == 0
    }

    /// Validates each file with the published schema (draft 2020-12), reading JSON strictly (no NaN,
    /// no repeated keys), and returns which the validator accepts.
    static func schemaAccepts(_ files: [URL]) throws -> [String: Bool] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            def constant(name): raise ValueError("not JSON: " + name)
            def pairs(items):
                keys = [k for k, _ in items]
                if len(keys) != len(set(keys)): raise ValueError("repeated key")
                return dict(items)
            for path in sys.argv[2:]:
                try:
                    doc = json.loads(open(path, encoding="utf-8").read(), parse_constant=constant, object_pairs_hook=pairs)
                    errors = list(validator.iter_errors(doc))
                    print(path + "\\t" + ("valid" if not errors else "invalid\\t" + errors[0].message[:200]))
                except ValueError as e:
                    print(path + "\\tinvalid\\t" + str(e)[:200])
            """
        let r = try run(python, ["-c", script, root.appendingPathComponent("schema/timeline-1.schema.json").path] + files.map(\.path))
        guard r.status == 0 else { throw SchemaOracleFailed(stderr: r.stderr) }
        var result: [String: Bool] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 2)
            if parts.count >= 2 { result[String(parts[0])] = parts[1] == "valid" }
        }
        return result
    }
    struct SchemaOracleFailed: Error { let stderr: String }

    @Test("the published schema refuses the invalid descriptions it can judge and accepts the valid ones (python3-jsonschema)",
          .enabled(if: RenderCommandTests.jsonschemaAvailable, "python3-jsonschema is not installed: apt-get install python3-jsonschema (scripts/install-deps.sh does)"))
    func schemaOracle() throws {
        let folder = try TemporaryFolder()
        var files: [(URL, Bool, String)] = []
        for (i, c) in Self.invalid.enumerated() {
            let url = folder.file("invalid-\(i).json")
            try c.text.write(to: url, atomically: true, encoding: .utf8)
            files.append((url, !c.schemaRefuses, c.name))
        }
        let valid = folder.file("valid.json")
        try Self.base.write(to: valid, atomically: true, encoding: .utf8)
        files.append((valid, true, "base"))
        for fit in Timeline.Slot.Fit.allCases {
            let url = folder.file("fit-\(fit.rawValue).json")
            try Self.fitTemplate(fit).write(to: url, atomically: true, encoding: .utf8)
            files.append((url, true, "fit template \(fit)"))
        }
        // Values the reader takes in any case or spacing, and a stray separator it refuses, judged alike.
        for (i, (output, accepted)) in [(#""size": "320X240""#, true), (#""size": "4K""#, true), (#""size": "1080P""#, true),
                                        (#""reframe": " 9 x 16 ""#, true), (#""reframe": "9:17x""#, false), (#""reframe": "999:1""#, false)].enumerated() {
            let url = folder.file("output-\(i).json")
            try #"{"version": 1, "output": {\#(output)}, "tracks": []}"#.write(to: url, atomically: true, encoding: .utf8)
            files.append((url, accepted, "output {\(output)}"))
            let read = (try? Timeline(contentsOf: url)) != nil
            #expect(read == accepted, "the reader \(read ? "takes" : "refuses") output {\(output)}")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let examples = root.appendingPathComponent("examples/specs")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? [] where name.hasSuffix(".json") {
            files.append((examples.appendingPathComponent(name), true, "example \(name)"))
        }
        let verdicts = try Self.schemaAccepts(files.map(\.0))
        for (url, shouldPass, name) in files {
            #expect(verdicts[url.path] == shouldPass, "\(name): the schema \(verdicts[url.path] == true ? "accepts" : "refuses") it")
        }
        #expect(files.filter { !$0.1 }.count >= 25)
    }
}

/// A value behind a lock, for fixtures made once and shared by parallel tests.
final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}

/// `--codec` and `--bit-depth` on the command line.
@Suite("render --codec/--bit-depth")
struct CodecOptionTests {
    static let spec = #"{"version": 1, "output": {"size": "128x96", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "1s"}]}]}"#

    @Test("--codec hevc --bit-depth 10 writes 10-bit HEVC tagged hvc1 (in HLS too); --codec av1 overrides a description's h264; bad values name the option")
    func codecOption() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("teal.json")
        try Self.spec.write(to: spec, atomically: true, encoding: .utf8)
        let hevc = try CLI.run(["render", spec.path, "-o", folder.file("teal.mp4").path, "--codec", "hevc", "--bit-depth", "10", "-q"])
        #expect(hevc.status == 0, "\(hevc.stderr)")
        let s = try FFTools.videoStream(folder.file("teal.mp4"))
        #expect(s["codec_name"] as? String == "hevc" && s["pix_fmt"] as? String == "yuv420p10le" && s["codec_tag_string"] as? String == "hvc1"
                && s["nb_read_frames"] as? String == "10", "\(s)")
        // An HLS stream's HEVC is tagged hvc1 too: Apple's players, HLS's main audience, need it.
        let stream = folder.url.appendingPathComponent("stream")
        let hls = try CLI.run(["render", spec.path, "--hls", stream.path, "--codec", "hevc", "-q"])
        #expect(hls.status == 0, "\(hls.stderr)")
        let h = try FFTools.videoStream(stream.appendingPathComponent("init.mp4"), countFrames: false)
        #expect(h["codec_name"] as? String == "hevc" && h["codec_tag_string"] as? String == "hvc1", "\(h)")
        let av1 = try CLI.run(["render", spec.path, "-o", folder.file("teal.webm").path, "--codec", "AV1", "-q"])
        #expect(av1.status == 0, "\(av1.stderr)")
        #expect(try FFTools.videoStream(folder.file("teal.webm"))["codec_name"] as? String == "av1")
        let unknown = try CLI.run(["render", spec.path, "-o", folder.file("x.mp4").path, "--codec", "h266"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--codec") && unknown.stderr.contains("hevc"), "\(unknown.stderr)")
        let tenBitH264 = try CLI.run(["render", spec.path, "-o", folder.file("x.mp4").path, "--bit-depth", "10"])
        #expect(tenBitH264.status == 64 && tenBitH264.stderr.contains("--codec hevc"), "\(tenBitH264.stderr)")
        // A description that asks for HEVC takes --bit-depth 10 without --codec; one asking for H.264 is named.
        let hevcSpec = folder.file("hevc.json")
        try Self.spec.replacingOccurrences(of: #""fps": 10}"#, with: #""fps": 10, "encoder": {"codec": "hevc"}}"#)
            .write(to: hevcSpec, atomically: true, encoding: .utf8)
        let described = try CLI.run(["render", hevcSpec.path, "-o", folder.file("described.mp4").path, "--bit-depth", "10", "-q"])
        #expect(described.status == 0, "\(described.stderr)")
        if described.status == 0 {
            let d = try FFTools.videoStream(folder.file("described.mp4"))
            #expect(d["codec_name"] as? String == "hevc" && d["pix_fmt"] as? String == "yuv420p10le", "\(d)")
        }
        let h264Spec = folder.file("h264.json")
        try Self.spec.replacingOccurrences(of: #""fps": 10}"#, with: #""fps": 10, "encoder": {"codec": "h264"}}"#)
            .write(to: h264Spec, atomically: true, encoding: .utf8)
        let named = try CLI.run(["render", h264Spec.path, "-o", folder.file("x.mp4").path, "--bit-depth", "10"])
        #expect(named.status == 64 && named.stderr.contains("the description's codec is h264"), "\(named.stderr)")
        let stitchTenBit = try CLI.run(["stitch", spec.path, "-o", folder.file("x.mp4").path, "--bit-depth", "10"])
        #expect(stitchTenBit.status == 64 && stitchTenBit.stderr.contains("--codec hevc"), "\(stitchTenBit.stderr)")
        let hlsVP9 = try CLI.run(["render", spec.path, "--hls", folder.file("stream-vp9").path, "--codec", "vp9"])
        #expect(hlsVP9.status != 0 && hlsVP9.stderr.contains("vp9 in an HLS stream: expected one of the codecs an HLS stream holds (h264, hevc)"), "\(hlsVP9.stderr)")
        for extra in [["--check"], []] {
            let tinySegment = try CLI.run(["render", spec.path, "--hls", folder.file("stream-tiny").path, "--segment", "10ms"] + extra)
            #expect(tinySegment.status != 0 && tinySegment.stderr.contains("invalid segment duration 0.01 s: expected at least one frame"),
                    "\(extra) answers as the render does: \(tinySegment.stderr)")
        }
        // ProRes 4444 is always 10-bit: --bit-depth 10 asks for what it is.
        let proResTenBit = try CLI.run(["title", "Hi", "--size", "160x120", "-d", "0.3", "--codec", "prores", "--bit-depth", "10", "-o", folder.file("p.mov").path, "-q"])
        #expect(proResTenBit.status == 0, "\(proResTenBit.stderr)")
        let proResCRF = try CLI.run(["render", spec.path, "-o", folder.file("x.mov").path, "--codec", "prores", "--crf", "20"])
        #expect(proResCRF.status == 64 && proResCRF.stderr.contains("--crf 20 does not apply to --codec prores"), "\(proResCRF.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.mov").path))
        let wrongBox = try CLI.run(["render", spec.path, "-o", folder.file("x.webm").path, "--codec", "hevc"])
        #expect(wrongBox.status != 0 && wrongBox.stderr.contains("hevc") && wrongBox.stderr.contains("vp9, av1"), "\(wrongBox.stderr)")
        let proResInMP4 = try CLI.run(["render", spec.path, "-o", folder.file("x.mp4").path, "--codec", "prores"])
        #expect(proResInMP4.status != 0 && proResInMP4.stderr.contains("proRes4444 (prores) in .mp4")
                && proResInMP4.stderr.contains("a .mov/.mkv file for proRes4444 (prores)"), "the option's own name is in the message: \(proResInMP4.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.mp4").path) && !FileManager.default.fileExists(atPath: folder.file("x.webm").path))
    }
}

/// `render -o x.gif/.apng/.webp` with the animated-image options and the description's keys.
@Suite("render: animated images (.gif, .apng, .webp), --max-size, output.encoder's palette keys")
struct AnimatedImageOptionTests {
    /// A photo-like moving gradient with a music-free sound item, 2 s at 15 fps.
    static let spec = #"""
    {"version": 1, "output": {"size": "160x120", "fps": 15, "encoder": {"palette": "perScene", "dither": "bayer", "colors": 64, "plays": 2}},
     "tracks": [{"kind": "video", "items": [
        {"type": "color", "color": "#204080", "duration": "1s"},
        {"type": "color", "color": "#c04020", "duration": "1s"}]},
      {"kind": "overlay", "items": [{"type": "title", "text": "Hello GIF", "at": "0s", "duration": "2s"}]}]}
    """#

    @Test("a .gif from a description takes output.encoder's keys; --plays overrides; --max-size fits and says what it chose; options the format ignores (a .png still's --codec, a movie's maxSize) are refused or warned about")
    func gifFromDescription() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("card.json")
        try Self.spec.write(to: spec, atomically: true, encoding: .utf8)
        let gif = try CLI.run(["render", spec.path, "-o", folder.file("card.gif").path, "-q"])
        #expect(gif.status == 0, "\(gif.stderr)")
        let parsed = try AnimatedImageFiles.gif(folder.file("card.gif"))
        #expect(parsed.delays.count == 30 && parsed.delays.reduce(0, +) == 200 && parsed.loopCount == 1, "plays 2 → 1 repeat: \(parsed.loopCount as Any)")
        let forever = try CLI.run(["render", spec.path, "-o", folder.file("forever.gif").path, "--plays", "0", "-q"])
        #expect(forever.status == 0, "\(forever.stderr)")
        #expect(try AnimatedImageFiles.gif(folder.file("forever.gif")).loopCount == 0)

        let size = try FileManager.default.attributesOfItem(atPath: folder.file("card.gif").path)[.size] as! Int
        let budget = size * 2 / 3
        let fitted = try CLI.run(["render", spec.path, "-o", folder.file("small.gif").path, "--max-size", "\(budget)"])
        #expect(fitted.status == 0, "\(fitted.stderr)")
        #expect(fitted.stdout.contains("made smaller to fit") && fitted.stdout.contains("fps"), "\(fitted.stdout)")
        let small = try FileManager.default.attributesOfItem(atPath: folder.file("small.gif").path)[.size] as! Int
        #expect(small <= budget, "\(small) > \(budget)")

        let webp = try CLI.run(["render", spec.path, "-o", folder.file("card.webp").path, "--webp-quality", "60", "-q"])
        #expect(webp.status == 0, "\(webp.stderr)")
        let decoded = try AnimatedImageFiles.webp(folder.file("card.webp"))
        #expect(decoded.endTimes.last == 2000 && decoded.loopCount == 2)

        for (arguments, fragment) in [(["--max-size", "lots"], "--max-size lots"), (["--colors", "999"], "--colors 999"), (["--colors", "3"], "--colors 3"),
                                      (["--gif-palette", "rainbow"], "--gif-palette rainbow"), (["--dither", "wobbly"], "--dither wobbly")] {
            let bad = try CLI.run(["render", spec.path, "-o", folder.file("bad.gif").path] + arguments)
            #expect(bad.status == 64 && bad.stderr.contains(fragment), "\(arguments): \(bad.stderr)")
        }
        let apng = try CLI.run(["render", spec.path, "-o", folder.file("bad.apng").path, "--max-size", "10KB"])
        #expect(apng.status != 0 && apng.stderr.contains(".gif or .webp"), "\(apng.stderr)")
        // An option the destination's format would ignore is refused, not silently dropped: a size
        // budget on an .mp4 is not kept.
        for (ext, arguments) in [("mp4", ["--max-size", "30KB"]), ("mp4", ["--colors", "64"]), ("webp", ["--dither", "bayer"]), ("gif", ["--webp-quality", "50"])] {
            let ignored = try CLI.run(["render", spec.path, "-o", folder.file("ignored.\(ext)").path] + arguments)
            #expect(ignored.status == 64 && ignored.stderr.contains("\(arguments[0]) applies to a") && ignored.stderr.contains("not to a .\(ext)"),
                    "\(arguments) with .\(ext): \(ignored.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("ignored.\(ext)").path))
        }
        // Nor has an animated image a rate factor or an encoder preset: --crf and --preset were dropped.
        for (ext, arguments) in [("gif", ["--crf", "20"]), ("webp", ["--crf", "20"]), ("apng", ["--preset", "slow"])] {
            let ignored = try CLI.run(["render", spec.path, "-o", folder.file("ignored.\(ext)").path] + arguments)
            #expect(ignored.status == 64 && ignored.stderr.contains("\(arguments[0]) \(arguments[1]) does not apply to a .\(ext)"), "\(arguments) with .\(ext): \(ignored.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("ignored.\(ext)").path))
        }
        // A PNG still is written without a video encoder: its options would be dropped.
        for arguments in [["--codec", "hevc"], ["--crf", "20"], ["--preset", "slow"]] {
            let still = try CLI.run(["title", "Hi", "--size", "160x120", "-o", folder.file("still.png").path] + arguments)
            #expect(still.status == 64 && still.stderr.contains("\(arguments[0]) \(arguments[1]) does not apply to a .png"), "\(arguments): \(still.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("still.png").path))
        }
        // A description's maxSize is a GIF's or WebP's budget: a movie rendered from it says it is not kept.
        let budgetSpec = folder.file("budget.json")
        try ##"{"version": 1, "output": {"size": "160x120", "fps": 15, "encoder": {"maxSize": "5KB"}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#204080", "duration": "0.5s"}]}]}"##
            .write(to: budgetSpec, atomically: true, encoding: .utf8)
        let movie = try CLI.run(["render", budgetSpec.path, "-o", folder.file("budget.mp4").path])
        #expect(movie.status == 0 && movie.stderr.contains("output.encoder.maxSize (5000 bytes) applies to a .gif or .webp; this .mp4 is not held to it"), "\(movie.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad.gif").path) && !FileManager.default.fileExists(atPath: folder.file("bad.apng").path))
    }
}

/// `render --print-chapters` and `--chapters-vtt` from a description's markers.
@Suite("render: --print-chapters and --chapters-vtt")
struct ChapterOptionTests {
    static let spec = #"""
    {"version": 1, "output": {"size": "128x96", "fps": 10},
     "markers": [{"name": "Intro", "at": "0s"}, {"name": "Part two", "at": "1m20s"}, {"name": "Credits", "at": "2m"}],
     "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "2m10s"}]}]}
    """#

    @Test("--print-chapters prints YouTube's lines; --chapters-vtt writes a WebVTT file ffmpeg reads; neither renders without -o")
    func chapterOptions() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("talk.json")
        try Self.spec.write(to: spec, atomically: true, encoding: .utf8)
        let vtt = folder.file("talk.vtt")
        let r = try CLI.run(["render", spec.path, "--print-chapters", "--chapters-vtt", vtt.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n") == ["0:00 Intro", "1:20 Part two", "2:00 Credits"], "\(r.stdout)")
        #expect(r.stderr.isEmpty, "YouTube's rules hold: \(r.stderr)")
        // The webvtt demuxer reads every cue with its times.
        let packets = try run(FFTools.ffprobe, ["-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", vtt.path])
        #expect(packets.status == 0 && packets.stdout.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
                == ["0.000000,80.000000", "80.000000,40.000000", "120.000000,10.000000"], "\(packets.stdout) \(packets.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["talk.json", "talk.vtt"], "nothing rendered")
        let bad = try CLI.run(["render", spec.path, "--chapters-vtt", folder.file("talk.txt").path])
        #expect(bad.status == 64 && bad.stderr.contains(".vtt"), "\(bad.stderr)")
    }

    @Test("--chapters-vtt and --save-spec never write over a file the description or the command reads; beside a movie they come after it")
    func sideFilesSpareInputs() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let subs = "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"
        try subs.write(to: folder.file("subs.vtt"), atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:00.000 --> 00:01.000\nBurned\n".write(to: folder.file("burn.vtt"), atomically: true, encoding: .utf8)
        let spec = folder.file("talk.json")
        try #"""
        {"version": 1, "output": {"size": "64x48", "fps": 10},
         "markers": [{"name": "Intro", "at": "0s"}],
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "1s"}]},
                    {"kind": "overlay", "items": [{"type": "subtitles", "file": "subs.vtt"}]}]}
        """#.write(to: spec, atomically: true, encoding: .utf8)
        for arguments in [["--chapters-vtt", folder.file("subs.vtt").path],                                   // the description reads it
                          ["--chapters-vtt", folder.file("burn.vtt").path, "--subtitles", folder.file("burn.vtt").path, "-o", folder.file("m.mp4").path]] {
            let r = try CLI.run(["render", spec.path] + arguments)
            #expect(r.status == 64 && r.stderr.contains("an input of this render"), "\(arguments): \(r.stderr)")
        }
        #expect(try String(contentsOf: folder.file("subs.vtt"), encoding: .utf8) == subs)
        #expect(try String(contentsOf: folder.file("burn.vtt"), encoding: .utf8).contains("Burned"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("m.mp4").path))
        // With a movie: the chapters and the saved description are written once it is made.
        let ok = try CLI.run(["render", spec.path, "--chapters-vtt", folder.file("chapters.vtt").path, "--save-spec", folder.file("saved.json").path,
                              "-o", folder.file("m.mp4").path, "--preset", "ultrafast"])
        #expect(ok.status == 0, "\(ok.stderr)")
        for name in ["chapters.vtt", "saved.json", "m.mp4"] { #expect(FileManager.default.fileExists(atPath: folder.file(name).path), "\(name)") }
    }
}

/// `render -o sound.m4a` / `--audio-only`: the sound alone.
@Suite("render: the sound alone (.m4a, .mp3, .opus, .flac, .wav, --audio-only)")
struct AudioOnlyOptionTests {
    @Test("-o x.flac writes only the sound, as long as the movie; --audio-only with a movie extension and a silent description are refused")
    func audioOnly() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        try ProceduralSound(duration: 2) { t in 0.3 * sin(2 * .pi * 440 * t) }.writeWAV(to: folder.file("tone.wav"))
        let spec = folder.file("talk.json")
        try #"""
        {"version": 1, "output": {"size": "64x48", "fps": 10},
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "1.5s"}]},
                    {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}]}
        """#.write(to: spec, atomically: true, encoding: .utf8)
        let flac = try CLI.run(["render", spec.path, "--audio-only", "-o", folder.file("talk.flac").path])
        #expect(flac.status == 0 && flac.stdout.contains("flac, 1.500 s"), "\(flac.stdout) \(flac.stderr)")
        let s = try probeStreams(folder.file("talk.flac"))
        #expect(s["audio"]?["codec_name"] as? String == "flac" && s["video"] == nil)
        #expect(double(s["audio"], "duration") == 1.5)
        let movie = try CLI.run(["render", spec.path, "--audio-only", "-o", folder.file("talk.mp4").path])
        #expect(movie.status == 64 && movie.stderr.contains("--audio-only"), "\(movie.stderr)")
        let silentSpec = folder.file("silent.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#
            .write(to: silentSpec, atomically: true, encoding: .utf8)
        let silent = try CLI.run(["render", silentSpec.path, "-o", folder.file("silent.wav").path])
        #expect(silent.status == 64 && silent.stderr.contains("no sound"), "\(silent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("talk.mp4").path) && !FileManager.default.fileExists(atPath: folder.file("silent.wav").path))
    }
}

/// `render --for PLATFORM`.
@Suite("render --for: platform presets")
struct PlatformOptionTests {
    @Test("--for sets the preset over the description (a 1080x1920 plan for tiktok); too long for x exits 64 naming the limit; --for with --size is refused")
    func forOption() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("long.json")
        try #"{"version": 1, "output": {"size": "1280x720"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "150s"}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let tiktok = try CLI.run(["render", spec.path, "--for", "tiktok", "--check"])
        #expect(tiktok.status == 0 && tiktok.stdout.contains("1080x1920"), "\(tiktok.stdout) \(tiktok.stderr)")
        #expect(tiktok.stderr.contains("replaced by tiktok"), "\(tiktok.stderr)")
        // A loudness of the description's own is replaced too, and said so.
        let loud = folder.file("loud.json")
        try #"{"version": 1, "output": {"size": "1280x720", "preset": "youtube", "audio": {"loudness": -23}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "2s"}]}]}"#
            .write(to: loud, atomically: true, encoding: .utf8)
        let youtube = try CLI.run(["render", loud.path, "--check"])
        // An item that starts after the movie's end is named.
        let late = folder.file("late.json")
        try #"{"version": 1, "output": {"size": "64x48", "duration": "2s"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "2s"}]}, {"kind": "overlay", "items": [{"type": "title", "text": "Hi", "at": "3s", "duration": "1s"}]}]}"#
            .write(to: late, atomically: true, encoding: .utf8)
        // A picture shorter than a frame is named; a sound as short is not (sounds are sample-exact).
        let flash = folder.file("flash.json")
        try #"{"version": 1, "output": {"size": "64x48", "fps": 30}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1/1000s"}, {"type": "color", "color": "teal", "duration": "1s"}]}]}"#
            .write(to: flash, atomically: true, encoding: .utf8)
        let flashCheck = try CLI.run(["render", flash.path, "--check"])
        #expect(flashCheck.status == 0 && flashCheck.stderr.contains("tracks[0].items[0]: lasts 0.001 s, less than a frame at 30 fps (0.033 s)")
                && !flashCheck.stderr.contains("items[1]: lasts"), "\(flashCheck.stderr)")
        #expect(flashCheck.stderr.contains("give it a longer duration"), "\(flashCheck.stderr)")
        // A clip cut from a file's last moment cannot be made longer: the fix is an earlier "in".
        try VideoFixtures.solid(folder.file("one.mp4"), .red, seconds: 1, tone: nil, width: 64, height: 48)
        let tail = folder.file("tail.json")
        try #"{"version": 1, "output": {"size": "64x48", "fps": 30}, "tracks": [{"kind": "video", "items": [{"type": "video", "source": "one.mp4", "in": "0.99s"}, {"type": "color", "color": "teal", "duration": "1s"}]}]}"#
            .write(to: tail, atomically: true, encoding: .utf8)
        let tailCheck = try CLI.run(["render", tail.path, "--check"])
        #expect(tailCheck.stderr.contains("less than a frame") && tailCheck.stderr.contains("move \"in\" earlier"), "\(tailCheck.stderr)")
        let lateCheck = try CLI.run(["render", late.path, "--check"])
        #expect(lateCheck.status == 0 && lateCheck.stderr.contains("tracks[1].items[0]: starts at 3") && lateCheck.stderr.contains("not seen or heard"), "\(lateCheck.stderr)")
        // An overlay outlasting the clips (a sticker's default 3 s) makes the movie longer: said, unless output.duration is given.
        let long = folder.file("outlasting.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "2s"}]}, {"kind": "overlay", "items": [{"type": "sticker", "emoji": "🎉", "at": "0.5s"}]}]}"#
            .write(to: long, atomically: true, encoding: .utf8)
        let longCheck = try CLI.run(["render", long.path, "--check"])
        #expect(longCheck.status == 0 && longCheck.stderr.contains("tracks[1].items[0]: ends at 3.500 s, after the video tracks end at 2.000 s"), "\(longCheck.stderr)")
        let late2 = try CLI.run(["render", late.path, "--check"])
        #expect(!late2.stderr.contains("bare canvas"), "output.duration is given: \(late2.stderr)")
        #expect(youtube.status == 0 && youtube.stderr.contains("output.audio.loudness -23 LUFS is replaced by youtube's -14 LUFS"), "\(youtube.stderr)")
        let x = try CLI.run(["render", spec.path, "--for", "x", "--check"])
        #expect(x.status == 64 && x.stderr.contains("output.preset") && x.stderr.contains("at most 140"), "\(x.stderr)")
        let both = try CLI.run(["render", spec.path, "--for", "youtube", "--size", "720p", "--check"])
        #expect(both.status == 64 && both.stderr.contains("--size"), "\(both.stderr)")
        let unknown = try CLI.run(["render", spec.path, "--for", "myspace", "--check"])
        #expect(unknown.status == 64 && unknown.stderr.contains("youtube-shorts"), "\(unknown.stderr)")
    }
}

/// Mistakes found while compiling (a chart's CSV, a title's font) read as every other mistake in a
/// description: the file and the JSON path first, exit 64.
@Suite("render: mistakes found while compiling")
struct CompileMistakeTests {
    @Test func aChartsBadCSVAndAMissingFontExit64NamingTheDescriptionAndPath() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try "city,2019,2020\nLisbon,1,2\nPorto,3,4o\n".write(to: folder.file("c.csv"), atomically: true, encoding: .utf8)
        let chart = folder.file("chart.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "chart", "kind": "barRace", "data": {"file": "c.csv"}, "duration": "1s"}]}]}"#
            .write(to: chart, atomically: true, encoding: .utf8)
        for command in [["validate", chart.path], ["render", chart.path, "--check"], ["render", chart.path, "-o", folder.file("chart.mp4").path]] {
            let r = try CLI.run(command)
            #expect(r.status == 64 && r.stderr.contains("chart.json: tracks[0].items[0].data:") && r.stderr.contains("line 3, column 3"),
                    "\(command[0]): \(r.status) \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("chart.mp4").path))
        let title = folder.file("title.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Hi", "font": "Comic Snas", "duration": "1s"}]}]}"#
            .write(to: title, atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", title.path, "--check"])
        #expect(r.status == 64 && r.stderr.contains("title.json: tracks[0].items[0].font:") && r.stderr.contains("Comic Snas"), "\(r.status) \(r.stderr)")
    }

    @Test func aPhotoWhereAVideoGoesAndAVideoWhereAPhotoGoesAreNamedAsSuch() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        _ = try TestPhotos.photo(.red, "p.png", in: folder)
        _ = try TestPhotos.photo(.red, "q.jpg", in: folder)
        try Clip.color(.blue, duration: 0.5).render(to: folder.file("v.mp4"), width: 64, height: 48, fps: 10)
        func check(_ item: String, _ words: [String], slots: String = "", extra: [String] = []) throws {
            let spec = folder.file("spec.json")
            try (#"{"version": 1, "output": {"size": "64x48"}, "# + slots + #""tracks": [{"kind": "video", "items": ["# + item + "]}]}")
                .write(to: spec, atomically: true, encoding: .utf8)
            let r = try CLI.run(["render", spec.path, "--check"] + extra)
            #expect(r.status == 64 && words.allSatisfy { r.stderr.contains($0) }, "\(item): \(r.status) \(r.stderr)")
        }
        for photo in ["p.png", "q.jpg"] {
            try check(#"{"type": "video", "source": {"file": ""# + photo + #""}, "duration": "1s"}"#,
                      ["tracks[0].items[0].source", "is a photo, not a video", #""type": "photo""#])
        }
        try check(#"{"type": "video", "source": {"slot": "clip"}, "duration": "1s"}"#, [#"the slot "clip" takes a video"#, "q.jpg is a photo"],
                  slots: #""slots": {"clip": {"kind": "video", "default": {"file": "v.mp4"}}}, "#, extra: ["--slot", "clip=" + folder.file("q.jpg").path])
        try check(#"{"type": "photo", "source": {"file": "v.mp4"}, "duration": "1s"}"#,
                  ["tracks[0].items[0].source", "is a video, not a photo", #""type": "video""#])
        // A photo item's media slot holding a video: the item is what to change, not the slot.
        try check(#"{"type": "photo", "source": {"slot": "pic"}, "duration": "1s"}"#,
                  [#"the media slot "pic" holds a video"#, "v.mp4", "a photo item shows only photos", #""type": "video""#],
                  slots: #""slots": {"pic": {"kind": "media", "default": {"file": "p.png"}}}, "#, extra: ["--slot", "pic=" + folder.file("v.mp4").path])
        // An animated GIF is a moving picture FFmpeg plays: still a video item.
        try Clip.sequence([Clip.color(.red, duration: 0.3), Clip.color(.blue, duration: 0.3)]).render(to: folder.file("anim.gif"), width: 64, height: 48, fps: 10)
        let spec = folder.file("gif.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "anim.gif"}}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let gif = try CLI.run(["render", spec.path, "--check"])
        #expect(gif.status == 0 && gif.stdout.contains("anim.gif"), "\(gif.stderr)")
    }

    @Test func aSlotsMissingFileNamesTheSlotAndHowToFillIt() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("t.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "slots": {"snap": {"kind": "photo", "default": {"file": "media/party-1.jpg"}}}, "tracks": [{"kind": "video", "items": [{"type": "slideshow", "photos": [{"slot": "snap"}], "duration": "1s"}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", spec.path])
        #expect(r.status == 64 && r.stderr.contains("tracks[0].items[0].photos[0].slot") && r.stderr.contains("party-1.jpg")
                && r.stderr.contains(#"the slot "snap"'s file"#) && r.stderr.contains("--slot snap=FILE"), "\(r.stderr)")
    }

    @Test func formatInPlaceRewritesOnlyWhatIsNotCanonicalAndCheckSaysSo() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("spec.json")
        let untidy = #"{"tracks": [{"items": [{"duration": "2.50s", "type": "color", "color": "red"}], "kind": "video"}], "version": 1}"#
        try untidy.write(to: spec, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: folder.file("link.json"), withDestinationURL: spec)
        let check = try CLI.run(["format", "--check", spec.path])
        #expect(check.status == 1 && check.stderr.contains("not in its canonical form") && check.stderr.contains("--in-place"), "\(check.stderr)")
        #expect(try String(contentsOf: spec, encoding: .utf8) == untidy, "--check changes nothing")
        let canonical = try CLI.run(["format", spec.path]).stdout
        let inPlace = try CLI.run(["format", "--in-place", folder.file("link.json").path])
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        #expect(try String(contentsOf: spec, encoding: .utf8) == canonical, "the file the link names is rewritten")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.json").path)) != nil, "the link stays a link")
        let again = try CLI.run(["format", "--check", spec.path])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let both = try CLI.run(["format", "--check", "--in-place", spec.path])
        #expect(both.status == 64, "\(both.stderr)")
        let bad = folder.file("bad.json")
        try #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "duration": "-1s"}]}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["format", "--in-place", bad.path])
        #expect(refused.status == 64 && refused.stderr.contains("bad.json: tracks[0].items[0]"), "\(refused.stderr)")
        // A file with another name (a hard link) is rewritten in place: both names show the new text.
        let linked = folder.file("linked.json"), other = folder.file("other-name.json")
        try untidy.write(to: linked, atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(at: linked, to: other)
        let viaLink = try CLI.run(["format", "--in-place", linked.path])
        #expect(viaLink.status == 0, "\(viaLink.stderr)")
        let text = try String(contentsOf: linked, encoding: .utf8), viaOther = try String(contentsOf: other, encoding: .utf8)
        #expect(text != untidy && viaOther == text, "the other name keeps the file")
    }

    /// `--size` against a description's platform preset is refused as `--for … --size` is (the preset's
    /// size won, with a warning calling --size output.size); `output.reframe` with a size of another shape
    /// keeps the size and says so.
    @Test func aDescriptionsPresetRefusesSizeAndReframeWarnsOfAnotherShape() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let item = #"{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1}]}"#
        try #"{"version": 1, "output": {"preset": "tiktok"}, "tracks": [\#(item)]}"#.write(to: folder.file("preset.json"), atomically: true, encoding: .utf8)
        let sized = try CLI.run(["validate", folder.file("preset.json").path, "--size", "640x480"])
        #expect(sized.status == 64 && sized.stderr.contains("--size 640x480") && sized.stderr.contains("output.preset \"tiktok\" sets the frame size (1080x1920)"), "\(sized.stderr)")
        try #"{"version": 1, "output": {"size": "320x240", "reframe": "9:16"}, "tracks": [\#(item)]}"#.write(to: folder.file("reframe.json"), atomically: true, encoding: .utf8)
        let shaped = try CLI.run(["validate", folder.file("reframe.json").path])
        #expect(shaped.status == 0 && shaped.stdout.contains("320x240") && shaped.stderr.contains("output.size 320x240 is not output.reframe's 9:16 shape")
                && shaped.stderr.contains("or give 180x320"), "\(shaped.stdout)\(shaped.stderr)")
    }

    @Test func anUnknownExtensionListsWhatRenderWrites() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("spec.json")
        try #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", spec.path, "-o", folder.file("x.xyz").path])
        #expect(r.status == 64 && r.stderr.contains(".xyz") && r.stderr.contains(".wav") && r.stderr.contains(".m4a") && r.stderr.contains(".gif"), "\(r.stderr)")
        #expect(!r.stderr.contains(".png"), "render refuses a still: \(r.stderr)")
        let still = try CLI.run(["render", spec.path, "-o", folder.file("x.png").path])
        #expect(still.status == 64 && still.stderr.contains("render makes a movie, an animated image or a sound") && still.stderr.contains("not .png"), "\(still.stderr)")
        // A folder given as -o is called one, not a name without an extension.
        try FileManager.default.createDirectory(at: folder.file("chunks"), withIntermediateDirectories: true)
        for command in [["render", spec.path], ["title", "Hi"], ["still", spec.path]] {
            let r = try CLI.run(command + ["-o", folder.file("chunks").path])
            #expect(r.status == 64 && r.stderr.contains("chunks is a folder: give a file to write, e.g. -o"), "\(command): \(r.stderr)")
        }
        // --hls into a folder holding other files: refused before any work (64), the file untouched.
        try FileManager.default.createDirectory(at: folder.file("stream"), withIntermediateDirectories: true)
        try "keep me".write(to: folder.file("stream/notes.txt"), atomically: true, encoding: .utf8)
        let hls = try CLI.run(["render", spec.path, "--hls", folder.file("stream").path])
        #expect(hls.status == 64 && hls.stderr.contains("the folder holds notes.txt"), "\(hls.status) \(hls.stderr)")
        #expect(try String(contentsOf: folder.file("stream/notes.txt"), encoding: .utf8) == "keep me")
    }

    /// `render --check` (and `validate`) said "valid" for what the render then refused: an -o the
    /// description reads, a codec the container does not hold, a CRF out of the codec's range, a 10-bit
    /// H.264, a captions or counter font that is not installed. A CI job uses --check as its preflight.
    @Test("render --check and validate refuse what the render would: -o a file the description reads, webm with h264, crf 60, 10-bit h264, a missing font")
    func checkRefusesWhatTheRenderWould() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try SpecFixtures.codedClip(folder.file("clip.mp4"), seconds: 1, tone: nil)
        try #"{"segments": [{"words": [{"word": "Hi", "start": 0.1, "end": 0.5}]}]}"#.write(to: folder.file("words.json"), atomically: true, encoding: .utf8)
        func spec(_ name: String, output: String = "", items: String = #"{"type": "video", "source": {"file": "clip.mp4"}}"#) throws -> String {
            let text = #"{"version": 1, "output": {"size": "320x240", "fps": 15\#(output)}, "tracks": [{"kind": "video", "items": [\#(items)]}]}"#
            try text.write(to: folder.file(name), atomically: true, encoding: .utf8)
            return folder.file(name).path
        }
        let plain = try spec("plain.json")
        for (extra, words) in [(["-o", folder.file("clip.mp4").path], "which the description reads"),
                               (["-o", folder.file("x.webm").path, "--codec", "h264"], "h264 in .webm"),
                               (["-o", folder.file("x.mp4").path, "--crf", "60"], "crf 60")] {
            let r = try CLI.run(["render", plain, "--check"] + extra)
            #expect(r.status == 64 && r.stderr.contains(words), "\(extra): \(r.status) \(r.stderr)")
        }
        #expect(try CLI.run(["render", plain, "--check", "-o", folder.file("x.mp4").path, "--crf", "30"]).status == 0)
        let cases = [
            (try spec("deep.json", output: #", "encoder": {"codec": "h264", "bitDepth": 10}"#), "output.encoder.bitDepth"),
            (try spec("counter.json", items: #"{"type": "chart", "kind": "counter", "to": 10, "font": "NoSuchFont", "duration": 1}"#), "tracks[0].items[0].font"),
            (try spec("captions.json", items: #"{"type": "color", "color": "red", "duration": 1}]}, {"kind": "overlay", "items": [{"type": "captions", "source": {"file": "words.json"}, "font": "NoSuchFont"}"#),
             "tracks[1].items[0].font"),
        ]
        for (path, jsonPath) in cases {
            for command in [["validate", path], ["render", path, "--check"]] {
                let r = try CLI.run(command)
                #expect(r.status == 64 && r.stderr.contains(jsonPath), "\(command): \(r.status) \(r.stderr)")
            }
        }
        // An option for the render replaces the description's codec or bit depth: then the pair is fine.
        for override in [["--codec", "hevc"], ["--bit-depth", "8"]] {
            let r = try CLI.run(["render", cases[0].0, "--check", "-o", folder.file("x.mp4").path] + override)
            #expect(r.status == 0, "\(override): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".webm") || $0 == "x.mp4" }.isEmpty)
    }
}

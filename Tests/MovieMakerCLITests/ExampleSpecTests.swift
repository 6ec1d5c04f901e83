import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// The example templates in `examples/specs/`, run through the built `moviemaker` as a user would:
/// each is in canonical form, and each renders as its own preview from the media that
/// `scripts/make-demo-media.sh` makes (checked by decoding the movie).
@Suite("examples/specs templates")
struct ExampleSpecTests {
    /// The checkout: three folders up from this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `examples/specs`.
    static let specFolder = repository.appendingPathComponent("examples/specs")
    /// The media script.
    static let mediaScript = repository.appendingPathComponent("scripts/make-demo-media.sh")

    /// The example description files' names (`birthday.json`, …), sorted.
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: specFolder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    /// The spec's JSON as Foundation objects.
    static func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(url.path) is not a JSON object")
    }

    /// A temporary folder holding the spec as `spec.json` and its default media (made by the media
    /// script at 320x240, `sharedMedia`) as `media/`: a link to the shared folder, or a copy when the
    /// test needs the files inside its folder (the test is skipped when ffmpeg is missing).
    static func prepare(_ name: String, copyingMedia: Bool = false, function: String = #function) throws -> (TemporaryFolder, URL) {
        if !FFTools.available { try Test.cancel("skipped: scripts/make-demo-media.sh needs the ffmpeg CLI, not installed at \(FFTools.ffmpeg)") }
        let folder = try TemporaryFolder(function)
        let spec = folder.file("spec.json")
        try FileManager.default.copyItem(at: specFolder.appendingPathComponent(name), to: spec)
        if copyingMedia {
            try FileManager.default.copyItem(at: try sharedMedia.get(), to: folder.file("media"))
        } else {
            try FileManager.default.createSymbolicLink(at: folder.file("media"), withDestinationURL: try sharedMedia.get())
        }
        return (folder, spec)
    }

    /// The templates' media at 320x240, made once into the build folder (the script keeps the files
    /// already there and writes each through a temporary name) and linked into each test's folder as
    /// `media`: the renders only read it.
    static let sharedMedia: Result<URL, any Error> = Result {
        let folder = CLI.binFolder.appendingPathComponent("example-spec-media-320x240")
        let r = try run("/bin/bash", [mediaScript.path, folder.path, "320x240"])
        guard r.status == 0 else { throw MediaFailure(description: "make-demo-media.sh failed (\(r.status)): \(r.stderr)") }
        return folder
    }

    struct MediaFailure: Error, CustomStringConvertible { let description: String }

    /// The frame count `moviemaker render SPEC --check` plans: `… s (N frames); …` on its plan's first line.
    static func checkedFrameCount(_ spec: URL, _ extra: [String] = []) throws -> (Int, CLI.Result) {
        let r = try CLI.run(["render", spec.path, "--check"] + extra)
        #expect(r.status == 0, "render --check: \(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains(" frames)") }, "no frame count in \(r.stdout)")
        let open = try #require(line.range(of: " s ("), "\(line)")
        let count = line[open.upperBound...].prefix { $0.isNumber }
        return (try #require(Int(count), "\(line)"), r)
    }

    @Test("every description file under examples/ (not only examples/specs) is in canonical form, as the docs say")
    func otherExamplesAreCanonical() throws {
        guard CLI.isBuilt else { return }
        let examples = Self.repository.appendingPathComponent("examples")
        let all = FileManager.default.enumerator(atPath: examples.path)?.compactMap { $0 as? String } ?? []
        // Description files only: a JSON object with a "version" (Lottie animations have "v").
        let descriptions = all.filter { $0.hasSuffix(".json") && !$0.hasPrefix("specs/") }
            .filter { (try? Self.json(examples.appendingPathComponent($0)))?["version"] != nil }
        #expect(descriptions.contains("distributed/spec.json"), "\(descriptions)")
        for name in descriptions {
            let r = try CLI.run(["format", "--check", examples.appendingPathComponent(name).path])
            #expect(r.status == 0, "examples/\(name): \(r.stderr)")
        }
    }

    @Test func thereAreAtLeastThreeExamples() {
        #expect(Set(Self.names).isSuperset(of: ["travel.json", "promo.json", "birthday.json"]), "examples/specs: \(Self.names)")
    }

    @Test(arguments: names)
    func formatGivesTheFileByteForByte(_ name: String) throws {
        guard CLI.isBuilt else { return }
        let url = Self.specFolder.appendingPathComponent(name)
        let r = try CLI.run(["format", url.path])
        #expect(r.status == 0, "format \(name): \(r.stderr)")
        let original = try Data(contentsOf: url)
        #expect(Data(r.stdout.utf8) == original, "\(name) is not in canonical form: commit the output of `moviemaker format \(name) -o …`")
        // Editors find the published schema from the file's own folder.
        let schema = try #require(try Self.json(url)["$schema"] as? String, "\(name) has no $schema")
        #expect(FileManager.default.fileExists(atPath: Self.specFolder.appendingPathComponent(schema).path), "\(name): $schema \(schema) names no file")
    }

    @Test(arguments: names)
    func isATemplateWhoseSlotsAllHaveDefaults(_ name: String) throws {
        let json = try Self.json(Self.specFolder.appendingPathComponent(name))
        #expect(json["template"] is [String: Any], "\(name) has no template metadata")
        let slots = try #require(json["slots"] as? [String: [String: Any]], "\(name) has no slots")
        #expect(!slots.isEmpty)
        for (slot, fields) in slots {
            #expect(fields["default"] != nil, "\(name): slot \(slot) has no default, so the template cannot render as its own preview")
        }
    }

    @Test(arguments: names)
    func previewDecodesToTheCheckedFrameCountAtAQuarterOfTheSizeWithMusic(_ name: String) throws {
        guard CLI.isBuilt else { return }
        let (folder, spec) = try Self.prepare(name)
        defer { withExtendedLifetime(folder) {} }
        let (frames, _) = try Self.checkedFrameCount(spec)
        #expect(frames > 0)
        let movie = folder.file("out.mp4")
        let r = try CLI.run(["render", spec.path, "--preview", "-q", "-o", movie.path])
        try #require(r.status == 0, "render --preview \(name): \(r.stderr)")

        // The size the spec asks for, a quarter of each side, rounded down to even.
        let json = try Self.json(spec)
        let size = ((json["output"] as? [String: Any])?["size"] as? String) ?? "1920x1080"
        let sides = size.split(separator: "x").compactMap { Int($0) }
        try #require(sides.count == 2, "output.size \(size)")
        let (width, height) = ((sides[0] / 4) & ~1, (sides[1] / 4) & ~1)

        var decoded = 0
        var sizes = Set<String>()
        try MovieReader(url: movie).decodeFrames { frame in
            decoded += 1
            sizes.insert("\(frame.pixels.width)x\(frame.pixels.height)")
            return true
        }
        #expect(decoded == frames, "\(name): \(decoded) frames decoded, render --check planned \(frames)")
        #expect(sizes == ["\(width)x\(height)"], "\(name): frames of \(sizes), expected \(width)x\(height) (a quarter of \(size))")

        let hasMusic = ((json["tracks"] as? [[String: Any]]) ?? []).contains { track in
            track["kind"] as? String == "audio" && ((track["items"] as? [[String: Any]]) ?? []).contains { $0["type"] as? String == "music" }
        }
        if hasMusic {
            let streams = try probeStreams(movie)
            try #require(streams["audio"] != nil, "\(name) has music but the movie has no audio stream")
            let sound = try decodeAudio(movie, in: folder)
            let rms = (sound.samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, sound.samples.count))).squareRoot()
            #expect(rms > 0.01, "\(name): the music is heard (RMS \(rms))")
            let fps = ((json["output"] as? [String: Any])?["fps"] as? NSNumber)?.doubleValue ?? 30
            let seconds = Double(sound.samples.count) / Double(max(1, sound.rate))
            #expect(abs(seconds - Double(frames) / fps) < 0.1, "\(name): the sound lasts the movie (\(seconds) s for \(frames) frames at \(fps) fps)")
        }
    }

    /// Issue 33 (friction): templates were rendered at −31 LUFS when their clips were quiet; each example
    /// sets a loudness target, as a template's author should.
    @Test(arguments: names)
    func setsALoudnessTarget(_ name: String) throws {
        let json = try Self.json(Self.specFolder.appendingPathComponent(name))
        let audio = (json["output"] as? [String: Any])?["audio"] as? [String: Any]
        #expect((audio?["loudness"] as? NSNumber)?.doubleValue == -16, "\(name): output.audio.loudness \(String(describing: audio))")
    }

    /// Issue 33 (friction): `render` takes `--size`, `--fps` and `--normalize` as `stitch` and `slideshow` do,
    /// so a vertical variant of a template needs no edit. (A small vertical size keeps the test quick; the
    /// same options at 1080x1920 and 30 fps were run by hand on every example.) The options do not depend
    /// on the template: two of them are enough, one with music and clips, one with a narration (every
    /// template renders in `previewDecodesToTheCheckedFrameCountAtAQuarterOfTheSizeWithMusic`).
    @Test(arguments: ["travel.json", "explainer.json"])
    func renderTakesSizeRateAndNormalize(_ name: String) throws {
        guard CLI.isBuilt else { return }
        let (folder, spec) = try Self.prepare(name)
        defer { withExtendedLifetime(folder) {} }
        let (frames, _) = try Self.checkedFrameCount(spec, ["--size", "180x320", "--fps", "15"])
        let movie = folder.file("vertical.mp4")
        let r = try CLI.run(["render", spec.path, "--normalize", "--loudness", "-18", "--size", "180x320", "--fps", "15", "--preset", "ultrafast", "-q", "-o", movie.path])
        try #require(r.status == 0, "\(name): \(r.stderr)")
        let stream = try FFTools.videoStream(movie)
        #expect(stream["width"] as? Int == 180 && stream["height"] as? Int == 320, "\(name): \(stream)")
        #expect(stream["r_frame_rate"] as? String == "15/1", "\(name): \(String(describing: stream["r_frame_rate"]))")
        #expect((stream["nb_read_frames"] as? String).flatMap(Int.init) == frames, "\(name): \(String(describing: stream["nb_read_frames"])) frames, planned \(frames)")
        // The loudness asked for, measured by FFmpeg's EBU R128 meter.
        let meter = try run(FFTools.ffmpeg, ["-nostdin", "-hide_banner", "-i", movie.path, "-map", "0:a:0", "-af", "ebur128", "-f", "null", "-"])
        let summary = meter.stderr.components(separatedBy: "Summary:").last ?? ""
        let integrated = summary.split(separator: "\n").first { $0.contains("I:") && $0.contains("LUFS") }
            .flatMap { line in line.split(separator: " ").compactMap { Double($0) }.first }
        #expect(integrated.map { abs($0 + 18) <= 1 } ?? false, "\(name): integrated loudness \(String(describing: integrated)) LUFS, asked -18")
    }

    /// Issue 33 (friction): `--require-slots` makes a slot left at its default an error, for CI, naming
    /// every such slot.
    @Test func requireSlotsNamesTheUnfilledSlots() throws {
        guard CLI.isBuilt, Self.names.contains("birthday.json") else { return }
        let (folder, spec) = try Self.prepare("birthday.json")
        defer { withExtendedLifetime(folder) {} }
        let json = try Self.json(spec)
        let slots = ((json["slots"] as? [String: Any]) ?? [:]).keys.sorted()
        let bare = try CLI.run(["render", spec.path, "--require-slots", "--check"])
        #expect(bare.status == 64 && slots.allSatisfy { bare.stderr.contains($0) } && bare.stderr.contains("--require-slots"), "\(bare.status): \(bare.stderr)")
        let name = try CLI.run(["render", spec.path, "--require-slots", "--slot", "name=Ana", "--check"])
        #expect(name.status == 64 && !name.stderr.contains("name,") && name.stderr.contains(slots.first { $0 != "name" } ?? "?"), "\(name.stderr)")
    }

    @Test func birthdayTakesTheNameFromTheSlot() throws {
        guard CLI.isBuilt, Self.names.contains("birthday.json") else { return }
        let (folder, spec) = try Self.prepare("birthday.json")
        defer { withExtendedLifetime(folder) {} }
        let (_, filled) = try Self.checkedFrameCount(spec, ["--slot", "name=Zoë"])
        #expect(filled.stdout.contains("\"Happy birthday, Zoë!\""), "the plan names the filled title: \(filled.stdout)")
        let (_, preview) = try Self.checkedFrameCount(spec)
        let json = try Self.json(spec)
        let standard = try #require(((json["slots"] as? [String: Any])?["name"] as? [String: Any])?["default"] as? String)
        #expect(preview.stdout.contains("\"Happy birthday, \(standard)!\"") && !preview.stdout.contains("Zoë"),
                "unfilled, the title has the slot's default \(standard): \(preview.stdout)")
    }

    @Test(arguments: names)
    func validatesAgainstThePublishedSchema(_ name: String) throws {
        // An independent validator (python3-jsonschema, a test oracle scripts/install-deps.sh installs).
        let python = "/usr/bin/python3"
        let probe = try? run(python, ["-c", "import jsonschema"])
        if probe?.status != 0 { try Test.cancel("skipped: python3 with jsonschema is not installed (scripts/install-deps.sh installs python3-jsonschema)") }
        let program = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2])))]
            print("\\n".join(errors)); sys.exit(1 if errors else 0)
            """
        let r = try run(python, ["-c", program, Self.repository.appendingPathComponent("schema/timeline-1.schema.json").path,
                                 Self.specFolder.appendingPathComponent(name).path])
        #expect(r.status == 0, "\(name) does not validate against schema/timeline-1.schema.json: \(r.stdout) \(r.stderr.suffix(400))")
    }
}

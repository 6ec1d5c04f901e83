import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// `moviemaker otio export` and `import`, run as subprocesses: exported files read by the
/// `opentimelineio` Python package with the same durations and ranges, an editor's file with a
/// dissolve, a gap, a 2× and a reversed clip at 23.976 imported and rendered, metadata kept.
@Suite("moviemaker otio", .serialized)
struct OTIOCommandTests {
    /// A description with a cut-centred transition of an odd length, a 2× clip, a reversed clip, a
    /// photo, a title and colour, an overlay and music.
    static let spec = """
        {"version": 1, "output": {"size": "320x240", "fps": 15, "encoder": {"preset": "ultrafast"}},
         "metadata": {"studio": {"project": "X"}},
         "tracks": [
          {"kind": "video", "name": "main", "items": [
             {"type": "title", "text": "Start", "duration": "1s", "label": "opening", "transition": {"name": "fade", "duration": "9f"}},
             {"type": "video", "source": {"file": "nine.mp4"}, "in": "1s", "duration": "2s", "speed": 2, "transition": {"name": "wipeleft", "duration": "6f"}},
             {"type": "video", "source": {"file": "four.mp4"}, "duration": "2s", "reverse": true, "markers": [{"name": "here", "at": "10f"}]},
             {"type": "photo", "source": {"file": "photo.png"}, "duration": "1s"},
             {"type": "color", "color": "teal", "duration": "1s"}]},
          {"kind": "overlay", "items": [{"type": "title", "text": "Over", "at": "2s", "duration": "1s"}]},
          {"kind": "audio", "items": [{"type": "music", "source": {"file": "song.wav"}}]}]}
        """

    /// A Python with the `opentimelineio` package, in a virtual environment inside the build folder
    /// (made once; later runs reuse it). Cancels the test, saying why, when it cannot be made (no
    /// python3-venv, or the package index out of reach).
    static func otioPython() throws -> String {
        try venv.withLock { stored in
            if let stored { return stored }
            let folder = CLI.binFolder.appendingPathComponent("otio-venv")
            let python = folder.appendingPathComponent("bin/python").path
            if (try? run(python, ["-c", "import opentimelineio"]).status) != 0 {
                let made = try run("/usr/bin/python3", ["-m", "venv", folder.path])
                guard made.status == 0 else {
                    try Test.cancel("skipped: cannot make a Python virtual environment (install python3-venv): \(made.stderr.prefix(200))")
                }
                let pip = try run(folder.appendingPathComponent("bin/pip").path,
                                  ["install", "-q", "--timeout", "20", "--retries", "1", "opentimelineio"])
                guard pip.status == 0 else {
                    try Test.cancel("skipped: the opentimelineio package could not be installed (package index out of reach?): \(pip.stderr.suffix(300))")
                }
            }
            stored = python
            return python
        }
    }
    static let venv = LockedBox<String?>(nil)

    /// What `opentimelineio` reads from `otio`: the duration in frames, and per track its clips' and
    /// gaps' ranges in their parent and source ranges in frames, and its transitions' offsets.
    static func readWithOpenTimelineIO(_ otio: URL) throws -> JSONValue {
        let script = """
            import json, sys
            import opentimelineio as otio
            t = otio.adapters.read_from_file(sys.argv[1])
            out = {"duration": t.duration().to_frames(), "rate": t.duration().rate, "tracks": []}
            for track in t.tracks:
                items = []
                for c in track:
                    if isinstance(c, otio.schema.Transition):
                        items.append({"kind": "transition", "in": c.in_offset.to_frames(), "out": c.out_offset.to_frames()})
                    else:
                        r = c.range_in_parent()
                        item = {"kind": type(c).__name__, "name": c.name, "start": r.start_time.to_frames(), "duration": r.duration.to_frames(),
                                "sourceStart": c.source_range.start_time.to_frames(), "metadata": dict(c.metadata)}
                        if isinstance(c, otio.schema.Clip):
                            item["effects"] = [type(e).__name__ + ":" + str(getattr(e, "time_scalar", "")) for e in c.effects]
                            item["markers"] = [m.marked_range.start_time.to_frames() for m in c.markers]
                        items.append(item)
                out["tracks"].append({"kind": track.kind, "duration": track.duration().to_frames(), "items": items})
            print(json.dumps(out, default=str))
            """
        let r = try run(try otioPython(), ["-c", script, otio.path])
        guard r.status == 0 else { throw PythonFailed(stderr: r.stderr) }
        return try JSONValue(parsing: r.stdout)
    }
    struct PythonFailed: Error, CustomStringConvertible { let stderr: String; var description: String { stderr } }

    @Test("an exported file loads in the opentimelineio package with the movie's duration and every clip's range in frames")
    func exportReadsInOpenTimelineIO() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        try Self.spec.write(to: folder.file("spec.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["otio", "export", folder.file("spec.json").path, "-o", folder.file("edit.otio").path])
        #expect(r.status == 0, "\(r.stderr)")
        let check = try CLI.run(["render", folder.file("spec.json").path, "--check"])
        #expect(check.stdout.contains("(90 frames)"), "\(check.stdout)")   // 1 + 2 + 2 + 1 + 1 s − 9 − 6 frames = 90
        let read = try Self.readWithOpenTimelineIO(folder.file("edit.otio"))
        func n(_ v: JSONValue?) -> Int? { v?.doubleValue.map { Int($0) } }
        #expect(n(read["duration"]) == 90)
        #expect(read["rate"]?.doubleValue == 15)
        let tracks = read["tracks"]?.arrayValue ?? []
        #expect(tracks.count == 3 && n(tracks.first?["duration"]) == 90)
        // The video track, cut-centred: 9 frames → 4 before the cut and 5 after; 6 → 3 and 3.
        let items = tracks.first?["items"]?.arrayValue ?? []
        let shape = items.map { item -> [Int?] in
            item["kind"]?.stringValue == "transition" ? [n(item["in"]), n(item["out"])] : [n(item["start"]), n(item["duration"]), n(item["sourceStart"])]
        }
        #expect(shape == [[0, 10, 0],           // title 15 frames − 5 after the cut
                          [4, 5],
                          [10, 23, 23],          // the 2× clip: 30 − 4 − 3 frames, its source from 1 s + 4 frames at 2× = 15 + 8
                          [3, 3],
                          [33, 27, 0],           // reversed: 30 − 3; its range starts where its source span starts
                          [60, 15, 0], [75, 15, 0]], "\(shape)")
        #expect(items[2]["effects"]?.arrayValue?.first?.stringValue == "LinearTimeWarp:2.0")
        #expect(items[4]["effects"]?.arrayValue?.first?.stringValue == "LinearTimeWarp:-1.0")
        #expect(items[4]["markers"] == .array([.number("7")]), "a marker 10 frames into the item: 7 into its range, which starts 3 frames later")
        #expect(items[0]["name"]?.stringValue == "opening")
        // The overlay on its own track after a gap; the music to the movie's end.
        let overlay = tracks[1]["items"]?.arrayValue ?? []
        #expect(overlay.map { [n($0["start"]), n($0["duration"])] } == [[0, 30], [30, 15]])
        #expect(tracks[2]["kind"]?.stringValue == "Audio" && n(tracks[2]["items"]?.arrayValue?.first?["duration"]) == 90)
    }

    /// The later of two overlapping overlay items is drawn on top; the lanes an export splits them into
    /// are ordered by time, and an import put them back by time: the other one came on top.
    @Test("overlapping overlay items come back in their track's order, so the same one is on top; markers in seconds")
    func overlappingOverlaysKeepTheirStacking() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try """
            {"version": 1, "output": {"size": "160x120", "fps": 10}, "markers": [{"name": "One", "at": "1s"}],
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "2s"}]},
                        {"kind": "overlay", "items": [{"type": "color", "color": "red", "at": "1s", "duration": "1s"},
                                                      {"type": "color", "color": "blue", "at": "0s", "duration": "2s"}]}]}
            """.write(to: folder.file("spec.json"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["otio", "export", folder.file("spec.json").path, "-o", folder.file("edit.otio").path]).status == 0)
        #expect(try CLI.run(["otio", "import", folder.file("edit.otio").path, "-o", folder.file("back.json").path]).status == 0)
        let back = try Timeline(jsonText: String(contentsOf: folder.file("back.json"), encoding: .utf8))
        let original = try Timeline(jsonText: String(contentsOf: folder.file("spec.json"), encoding: .utf8))
        #expect(back.tracks[1].items == original.tracks[1].items, "\(back.tracks[1].items)")
        // Marker times come back in seconds, as written, not in frames that a render at another rate moves.
        #expect(back.markers == original.markers, "\(back.markers)")
        #expect(try !String(contentsOf: folder.file("back.json"), encoding: .utf8).contains("moviemaker.index"), "the place is not kept")
    }

    @Test("export then import renders byte-identically to the description itself")
    func roundTripRendersTheSame() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        try Self.spec.write(to: folder.file("spec.json"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["otio", "export", folder.file("spec.json").path, "-o", folder.file("edit.otio").path]).status == 0)
        let imported = try CLI.run(["otio", "import", folder.file("edit.otio").path, "-o", folder.file("back.json").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty, "no warnings for a file MovieMaker wrote: \(imported.stderr)")
        for name in ["spec", "back"] {
            let r = try CLI.run(["render", folder.file("\(name).json").path, "-o", folder.file("\(name).mp4").path, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try Data(contentsOf: folder.file("spec.mp4")) == Data(contentsOf: folder.file("back.mp4")))
        let back = try String(contentsOf: folder.file("back.json"), encoding: .utf8)
        #expect(back.contains("\"project\": \"X\""), "timeline metadata kept")
        #expect(!back.contains("\"color\": \"RED\""), "a marker without a colour comes back without one (RED is OpenTimelineIO's default): \(back)")
    }

    /// Issue 33, bug 5: the README's round trip, into another folder: `otio export examples/specs/travel.json`,
    /// then `otio import travel.otio -o elsewhere/edit.json`. The template's slot defaults and items name
    /// files relative to examples/specs; the imported description names them from its own folder, so it
    /// validates and renders the same frames (it failed validate: "no such file media/clip-8s.mp4").
    @Test("otio import into another folder rewrites every path for the new description, which validates and renders the same movie")
    func importIntoAnotherFolderValidatesAndRenders() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let (folder, spec) = try ExampleSpecTests.prepare("travel.json", copyingMedia: true)
        let elsewhere = folder.file("elsewhere/deeper")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let otio = folder.file("otio/travel.otio")
        try FileManager.default.createDirectory(at: otio.deletingLastPathComponent(), withIntermediateDirectories: true)
        let exported = try CLI.run(["otio", "export", spec.path, "-o", otio.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let edit = elsewhere.appendingPathComponent("edit.json")
        let imported = try CLI.run(["otio", "import", otio.path, "-o", edit.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let validated = try CLI.run(["validate", edit.path])
        #expect(validated.status == 0, "the imported description does not validate: \(validated.stdout) \(validated.stderr)")
        for (name, description) in [("original", spec), ("imported", edit)] {
            // Small: the claim is that both descriptions give the same movie, at any size.
            let r = try CLI.run(["render", description.path, "--preset", "ultrafast", "--size", "320x180",
                                 "-o", folder.file("\(name).mp4").path, "-q"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
        #expect(try Data(contentsOf: folder.file("original.mp4")) == Data(contentsOf: folder.file("imported.mp4")),
                "the imported description renders another movie")
        // Inside its folder a file is named relatively; the media beside the original is outside it: absolute.
        let text = try String(contentsOf: edit, encoding: .utf8)
        #expect(text.contains(folder.file("media/clip-8s.mp4").standardizedFileURL.path), "slot default not rewritten: \(text.prefix(600))")
    }

    /// An editor's timeline at 23.976 (as the Python package writes it): A, a 24-frame dissolve, B at 2×,
    /// a 1 s gap, C reversed; metadata of another tool at every level and an effect MovieMaker lacks.
    static func editorsFile(_ folder: TemporaryFolder) -> String {
        let rate = "23.976023976023978"
        func rt(_ frames: Int) -> String { #"{"OTIO_SCHEMA": "RationalTime.1", "rate": \#(rate), "value": \#(frames).0}"# }
        func range(_ start: Int, _ duration: Int) -> String { #"{"OTIO_SCHEMA": "TimeRange.1", "start_time": \#(rt(start)), "duration": \#(rt(duration))}"# }
        func clip(_ name: String, _ file: String, _ start: Int, _ duration: Int, effects: String = "[]", metadata: String = "{}") -> String {
            #"""
            {"OTIO_SCHEMA": "Clip.1", "name": "\#(name)", "source_range": \#(range(start, duration)), "effects": \#(effects), "markers": [],
             "metadata": \#(metadata), "enabled": true,
             "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "file://\#(folder.file(file).path)", "available_range": null, "metadata": {}, "name": ""}}
            """#
        }
        func warp(_ scalar: String) -> String { #"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "name": "", "effect_name": "LinearTimeWarp", "time_scalar": \#(scalar), "metadata": {}}]"# }
        return #"""
            {"OTIO_SCHEMA": "Timeline.1", "name": "edit", "global_start_time": null, "metadata": {"studio": {"reel": "A012", "take": 3}},
             "tracks": {"OTIO_SCHEMA": "Stack.1", "name": "tracks", "children": [
               {"OTIO_SCHEMA": "Track.1", "name": "V1", "kind": "Video", "source_range": null, "effects": [], "markers": [], "enabled": true,
                "metadata": {"studio": {"lane": "picture"}}, "children": [
                  \#(clip("A", "nine.mp4", 12, 48, metadata: #"{"studio": {"shot": "sh010", "notes": [1, 2.50]}}"#)),
                  {"OTIO_SCHEMA": "Transition.1", "name": "", "transition_type": "SMPTE_Dissolve", "in_offset": \#(rt(12)), "out_offset": \#(rt(12)), "metadata": {}},
                  \#(clip("B", "nine.mp4", 24, 48, effects: warp("2.0"))),
                  {"OTIO_SCHEMA": "Gap.1", "name": "", "source_range": \#(range(0, 24)), "effects": [], "markers": [], "enabled": true, "metadata": {}},
                  \#(clip("C", "four.mp4", 0, 48, effects: #"[{"OTIO_SCHEMA": "LinearTimeWarp.1", "name": "", "effect_name": "LinearTimeWarp", "time_scalar": -1.0, "metadata": {}}, {"OTIO_SCHEMA": "Effect.1", "name": "grade", "effect_name": "ColorCorrection", "metadata": {"lift": 0.1}}]"#))
                ]}],
               "source_range": null, "effects": [], "markers": [], "enabled": true, "metadata": {}}}
            """#
    }

    @Test("an editor's file with a dissolve, a gap, a 2× and a reversed clip at 23.976 imports and renders with its frame count")
    func importsAnEditorsTimeline() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        try Self.editorsFile(folder).write(to: folder.file("edit.otio"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["otio", "import", folder.file("edit.otio").path, "-o", folder.file("edit.json").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("ColorCorrection does not map onto MovieMaker; kept under metadata.otio"), "\(r.stderr)")
        #expect(r.stderr.contains("1920x1080 is used"), "\(r.stderr)")
        let spec = try Timeline(contentsOf: folder.file("edit.json"))
        #expect(spec.output.fps == .ntscFilm, "23.976… is read as exactly 24000/1001")
        let items = spec.tracks.first?.items ?? []
        #expect(items.count == 4)
        // The dissolve's 24 frames overlap A and B again: A lasts 48 + 12, B starts 12 frames (at 2×, 24 source frames) earlier.
        if case let .video(a) = items[0].content { #expect(a.in == .frames(12) && a.duration == .frames(60)) }
        #expect(items[0].transition == Timeline.TransitionSpec("fade", duration: .frames(24)))
        if case let .video(b) = items[1].content { #expect(b.in == nil && b.speed == Speed(2) && b.duration == .frames(60), "\(b)") }
        if case .gap = items[2].content {} else { Issue.record("the gap is kept") }
        if case let .video(c) = items[3].content { #expect(c.reverse == true && c.duration == .frames(48)) }
        #expect(items[0].metadata["studio"]?["shot"]?.stringValue == "sh010")

        let movie = folder.file("edit.mp4")
        let render = try CLI.run(["render", folder.file("edit.json").path, "--preview", "-o", movie.path, "-q"])
        #expect(render.status == 0, "\(render.stderr)")
        let stream = try FFTools.videoStream(movie)
        #expect(stream["r_frame_rate"] as? String == "24000/1001")
        #expect(stream["nb_read_frames"] as? String == "168", "48 + 48 + 24 + 48 frames, as the OpenTimelineIO track lasts")
        // The reversed clip plays backwards: its frame codes fall.
        let codes = try SpecFixtures.codes(movie).suffix(40).compactMap { $0 }
        #expect(codes.count > 30 && zip(codes, codes.dropFirst()).allSatisfy { $1 <= $0 } && codes.first! > codes.last!, "\(codes)")
    }

    @Test("a clip trimmed in an editor comes back with the new range; a slot's clip is then named by its file")
    func editedRangesAreTaken() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        try RenderCommandTests.fitTemplate(.cutHead).write(to: folder.file("t.json"), atomically: true, encoding: .utf8)
        let export = try CLI.run(["otio", "export", folder.file("t.json").path, "--media", "clip.mp4", "four.mp4", "nine.mp4",
                                  "-o", folder.file("t.otio").path], in: folder.url)
        #expect(export.status == 0, "\(export.stderr)")
        // The editor trims 15 frames off the end of the third clip (the last 4 s of nine.mp4).
        var doc = try JSONValue(parsing: Data(contentsOf: folder.file("t.otio")))
        guard case var .object(root) = doc, case var .object(stack) = root["tracks"], case var .array(tracks) = stack["children"],
              case var .object(track) = tracks[0], case var .array(children) = track["children"], case var .object(clip) = children[2],
              case var .object(range) = clip["source_range"], case var .object(duration) = range["duration"] else {
            Issue.record("unexpected export shape"); return
        }
        #expect(duration["value"]?.doubleValue == 60)
        duration["value"] = .number("45.0"); range["duration"] = .object(duration); clip["source_range"] = .object(range)
        children[2] = .object(clip); track["children"] = .array(children); tracks[0] = .object(track)
        stack["children"] = .array(tracks); root["tracks"] = .object(stack); doc = .object(root)
        try doc.canonicalData.write(to: folder.file("edited.otio"))
        let imported = try CLI.run(["otio", "import", folder.file("edited.otio").path, "-o", folder.file("edited.json").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("the clip of slot \"c\" was edited in OpenTimelineIO: the item now names its file"), "\(imported.stderr)")
        let r = try CLI.run(["render", folder.file("edited.json").path, "-o", folder.file("edited.mp4").path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let codes = try SpecFixtures.codes(folder.file("edited.mp4"))
        #expect(codes.count == 15 + 60 + 45, "the third clip lasts 45 frames now")
        #expect(Array(codes.suffix(45)) == (75..<120).map { Optional($0) }, "from where the editor's range starts")
    }

    @Test("metadata of other tools survives import then export, at the timeline, track and clip")
    func unknownMetadataSurvives() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try SpecFixtures.folder()
        try Self.editorsFile(folder).write(to: folder.file("edit.otio"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["otio", "import", folder.file("edit.otio").path, "-o", folder.file("edit.json").path]).status == 0)
        let r = try CLI.run(["otio", "export", folder.file("edit.json").path, "-o", folder.file("again.otio").path])
        #expect(r.status == 0, "\(r.stderr)")
        let original = try JSONValue(parsing: Data(contentsOf: folder.file("edit.otio")))
        let again = try JSONValue(parsing: Data(contentsOf: folder.file("again.otio")))
        #expect(again["metadata"]?["studio"] == original["metadata"]?["studio"])
        let track = again["tracks"]?["children"]?.arrayValue?.first
        #expect(track?["metadata"]?["studio"] == .object(["lane": .string("picture")]))
        let firstClip = track?["children"]?.arrayValue?.first
        #expect(firstClip?["metadata"]?["studio"] == .object(["shot": .string("sh010"), "notes": .array([.number("1"), .number("2.50")])]))
        // The effect MovieMaker has no use for travels under metadata.otio.
        let clips = track?["children"]?.arrayValue?.filter { $0["OTIO_SCHEMA"]?.stringValue == "Clip.2" } ?? []
        #expect(clips.last?["metadata"]?["otio"]?["unmapped"]?.arrayValue?.first?["effect_name"]?.stringValue == "ColorCorrection")
        // And the Python package reads it too.
        let read = try Self.readWithOpenTimelineIO(folder.file("again.otio"))
        #expect(read["duration"]?.doubleValue == 168)
    }
}

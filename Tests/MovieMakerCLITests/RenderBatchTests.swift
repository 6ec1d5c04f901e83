import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// `moviemaker render template.json --batch rows.csv --output-pattern …`: a template filled and rendered
/// once per row, in one process.
@Suite("moviemaker render --batch")
struct RenderBatchTests {
    /// A 3-slot template (name, photo, clip): the clip, a crossfade, the photo; the name in a lower third.
    /// Small and short (160x120, 15 fps, 1.4 s: 21 frames) so forty rows stay cheap.
    static let template = """
        {
          "version": 1,
          "output": {"size": "160x120", "fps": 15, "encoder": {"preset": "ultrafast"}},
          "slots": {
            "name": {"kind": "text", "default": "Sam", "maxLength": 20},
            "photo": {"kind": "photo", "default": {"file": "photo-0.png"}},
            "clip": {"kind": "video", "default": {"file": "clip-0.mp4"}, "fit": "loop"}
          },
          "tracks": [
            {"kind": "video", "items": [
              {"type": "video", "source": {"slot": "clip"}, "duration": "0.8s", "transition": {"name": "fade", "duration": "0.2s"}},
              {"type": "photo", "source": {"slot": "photo"}, "duration": "0.8s"}
            ]},
            {"kind": "overlay", "items": [
              {"type": "title", "at": "0s", "duration": "1.4s", "layout": "lowerThird", "style": "none", "text": "{{name}}",
               "background": "#ffb703", "color": "#10141f"}
            ]}
          ]
        }
        """

    /// A folder with the template, two clips (one shorter than its item: it loops) and three photos.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try template.write(to: folder.file("card.json"), atomically: true, encoding: .utf8)
        // clip-0: 1 s of five colours; clip-1: 0.4 s of two others (shorter than its item: it loops).
        for (index, count) in [5, 2].enumerated() {
            let colors = (0..<count).map { k in Color(red: Double(k) / 5, green: index == 0 ? 0.2 : 0.9, blue: index == 0 ? 0.8 : 0.1) }
            try Clip.sequence(colors.map { Clip.color($0, duration: 0.2) }).render(to: folder.file("clip-\(index).mp4"), width: 160, height: 120, fps: 15)
        }
        for index in 0..<3 { try writePhoto(folder.file("photo-\(index).png"), shade: index) }
        return folder
    }

    /// A 64x48 PNG of a colour picked by `shade`.
    static func writePhoto(_ url: URL, shade: Int) throws {
        let canvas = try Canvas(width: 64, height: 48)
        try canvas.draw { ctx in ctx.clear(Color(red: Double(shade % 4) / 3, green: 0.4, blue: 1 - Double(shade % 4) / 3)) }
        try canvas.writePNG(to: url)
    }

    /// `count` rows: names, a photo and a clip each (relative paths: read from the rows file's folder).
    static func rows(_ count: Int, missingPhoto: Int? = nil, longName: Int? = nil) -> String {
        var csv = "name,photo,clip\n"
        for n in 1...count {
            let name = n == longName ? "A name far too long for the slot" : "Person \(n)"
            let photo = n == missingPhoto ? "missing.png" : "photo-\(n % 3).png"
            csv += "\(name),\(photo),clip-\(n % 2).mp4\n"
        }
        return csv
    }

    /// The rows listed in a summary table (its first column), with what became of each.
    static func summary(_ stdout: String) -> [Int: String] {
        var rows: [Int: String] = [:]
        for line in stdout.split(separator: "\n") {
            let cells = line.split(separator: " ", omittingEmptySubsequences: true)
            // A table row: its number, then the output's path (the tally line after the table starts with a count too).
            if cells.count > 2, cells[1].hasPrefix("/"), let n = Int(cells[0]), let last = cells.last {
                rows[n] = line.contains("failed") ? "failed" : String(last)
            }
        }
        return rows
    }

    @Test func eachRowIsByteForByteTheMovieASeparateRenderOfItsSlotsMakes() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(4).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                             "--output-pattern", folder.url.path + "/out/{row}-{name}.mp4", "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("4 of 4 rows written (4 rendered, 0 skipped"), "\(r.stdout)")
        var frames: [[DecodedFrame]] = []
        for n in 1...4 {
            let batchMovie = folder.file("out/\(n)-Person \(n).mp4")
            let single = folder.file("single-\(n).mp4")
            let s = try CLI.run(["render", folder.file("card.json").path, "--slot", "name=Person \(n)",
                                 "--slot", "photo=\(folder.file("photo-\(n % 3).png").path)",
                                 "--slot", "clip=\(folder.file("clip-\(n % 2).mp4").path)", "-o", single.path, "-q"])
            #expect(s.status == 0, "\(s.stderr)")
            #expect(try Data(contentsOf: batchMovie) == Data(contentsOf: single), "row \(n) equals its separate render byte for byte")
            frames.append(try decodeAll(batchMovie))
        }
        #expect(frames.allSatisfy { $0.count == 21 }, "\(frames.map(\.count))")
        // The rows differ where their slots do: the clip (frame 2) and the photo (frame 18).
        #expect(psnr(frames[0][2].pixels, frames[1][2].pixels) < 30, "rows 1 and 2 show different clips")
        #expect(psnr(frames[0][18].pixels, frames[1][18].pixels) < 30, "rows 1 and 2 show different photos")
    }

    @Test func failingRowsAreNamedTheOthersFinishAndARerunRendersOnlyWhatChanged() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(40, missingPhoto: 7, longName: 23).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let arguments = ["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                         "--output-pattern", folder.url.path + "/out/{row}.mp4"]
        let r = try CLI.run(arguments)
        #expect(r.status == 1, "some rows failed: \(r.stderr)")
        #expect(r.stderr.contains("row 7 (line 8)") && r.stderr.contains("slots.photo") && r.stderr.contains("missing.png"), "\(r.stderr)")
        #expect(r.stderr.contains("row 23 (line 24)") && r.stderr.contains("maxLength of 20"), "\(r.stderr)")
        #expect(r.stdout.contains("38 of 40 rows written"), "\(r.stdout)")
        #expect(r.stderr.contains("2 of 40 rows failed") && r.stderr.contains("the other 38 were written"), "\(r.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path)
        #expect(Set(written) == Set((1...40).filter { $0 != 7 && $0 != 23 }.map { "\($0).mp4" }), "38 movies and nothing else: \(written.sorted())")
        #expect(try decodeAll(folder.file("out/40.mp4")).count == 21)

        // Fixed: the photo exists, the name is shorter. Only those two rows render.
        try Self.writePhoto(folder.file("missing.png"), shade: 3)
        try Self.rows(40, missingPhoto: 7).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: folder.file("out/1.mp4"))
        let again = try CLI.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("40 of 40 rows written (2 rendered, 38 skipped"), "\(again.stdout)")
        let outcomes = Self.summary(again.stdout)
        #expect(outcomes[7] == "rendered" && outcomes[23] == "rendered" && outcomes[1] == "skipped", "\(again.stdout)")
        #expect(try Data(contentsOf: folder.file("out/1.mp4")) == before)

        // Changing nothing renders nothing; a new photo under the same name renders the rows that show it;
        // other settings render every row again.
        let unchanged = try CLI.run(arguments)
        #expect(unchanged.stdout.contains("40 of 40 rows done (0 rendered, 40 skipped"), "nothing is said to be written: \(unchanged.stdout)")
        // A movie cut short (its header, and so its identity, kept) is rendered again, not trusted.
        let whole = try Data(contentsOf: folder.file("out/2.mp4"))
        try whole.prefix(whole.count / 2).write(to: folder.file("out/2.mp4"))
        let cut = try CLI.run(arguments)
        #expect(Self.summary(cut.stdout)[2] == "rendered" && cut.stdout.contains("(1 rendered, 39 skipped"), "\(cut.stdout)")
        #expect(try decodeAll(folder.file("out/2.mp4")).count == 21)
        try Self.writePhoto(folder.file("photo-0.png"), shade: 2)
        let newPhoto = try CLI.run(arguments)
        let rerendered = Self.summary(newPhoto.stdout).filter { $0.value == "rendered" }.keys.sorted()
        #expect(rerendered == (1...40).filter { $0 % 3 == 0 }, "the rows showing photo-0.png: \(newPhoto.stdout)")
        // (A tenth of the rows is enough to see it.)
        let crf = try CLI.run(arguments + ["--crf", "30", "--batch-index", "0/10"])
        #expect(crf.stdout.contains("4 of 4 rows written (4 rendered, 0 skipped"), "\(crf.stdout)")
    }

    /// A nightly pipeline reads what became of each row from a file, not from the terminal's words.
    @Test("--report writes one JSON line per row, in row order: rendered with its frames, skipped, failed with its error's code and message")
    func reportGivesEachRowsOutcome() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(3, missingPhoto: 2).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let arguments = ["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                         "--output-pattern", folder.url.path + "/out/{row}.mp4", "--report", folder.file("report.jsonl").path, "-q"]
        func report() throws -> [[String: Any]] {
            try String(contentsOf: folder.file("report.jsonl"), encoding: .utf8).split(separator: "\n")
                .map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
        let r = try CLI.run(arguments)
        #expect(r.status == 1, "row 2 fails: \(r.stderr)")
        let first = try report()
        #expect(first.map { $0["row"] as? Int } == [1, 2, 3] && first.map { $0["line"] as? Int } == [2, 3, 4], "\(first)")
        #expect(first.map { $0["status"] as? String } == ["rendered", "failed", "rendered"], "\(first)")
        #expect(first[0]["frames"] as? Int == 21 && first[0]["output"] as? String == folder.file("out/1.mp4").path, "\(first[0])")
        let error = first[1]["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalidDescription" && (error?["message"] as? String)?.contains("missing.png") == true, "\(first[1])")
        // A re-run after the fix: the rendered rows skipped, the failed one rendered.
        try Self.writePhoto(folder.file("missing.png"), shade: 1)
        let again = try CLI.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try report().map { $0["status"] as? String } == ["skipped", "rendered", "skipped"])
        // Never over an input.
        for input in ["rows.csv", "photo-0.png"] {   // the rows, and a file the template names
            let over = try CLI.run(Array(arguments.dropLast(3)) + ["--report", folder.file(input).path])
            #expect(over.status == 64 && over.stderr.contains("--report") && over.stderr.contains(input), "\(over.stderr)")
        }
        // Nor over the command's own output: the atomic rename replaced a CI log that stdout went to.
        let log = folder.file("ci.log")
        try "an earlier line of the log\n".write(to: log, atomically: true, encoding: .utf8)
        let quoted = (Array(arguments.dropLast(3)) + ["--report", "/dev/stdout"]).map { "'\($0)'" }.joined(separator: " ")
        let stdout = try run("/bin/sh", ["-c", "'\(CLI.executable.path)' \(quoted) >> '\(log.path)'"])
        #expect(stdout.status == 64 && stdout.stderr.contains("--report /dev/stdout is not a file of its own"), "\(stdout.stderr)")
        #expect(try String(contentsOf: log, encoding: .utf8).hasPrefix("an earlier line of the log"), "the log is kept")
        // --check renders nothing, so it writes no report: said, not silently skipped.
        let check = try CLI.run(arguments + ["--check"])
        #expect(check.status == 64 && check.stderr.contains("--check renders nothing"), "\(check.stderr)")
    }

    /// Matroska indexes the video only: a movie with sound had its sound stream's empty index taken
    /// for a file without Cues, so every .mkv and .webm row rendered again on every run.
    @Test(arguments: ["mkv", "webm"])
    func aMatroskaRowWithSoundIsSkippedOnTheNextRun(ext: String) throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try ProceduralSound.tone(frequency: 440, duration: 2).writeWAV(to: folder.file("tone.wav"))
        let withMusic = Self.template.replacingOccurrences(of: "\"tracks\": [", with: """
            "tracks": [
              {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]},
            """)
        try withMusic.write(to: folder.file("music.json"), atomically: true, encoding: .utf8)
        try Self.rows(2).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let arguments = ["render", folder.file("music.json").path, "--batch", folder.file("rows.csv").path,
                         "--output-pattern", folder.url.path + "/out/{row}.\(ext)"]
        let first = try CLI.run(arguments)
        #expect(first.status == 0 && first.stdout.contains("(2 rendered, 0 skipped"), "\(first.stdout) \(first.stderr)")
        let sound = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                              folder.file("out/1.\(ext)").path]).stdout
        #expect(!sound.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "the row has sound")
        let again = try CLI.run(arguments)
        #expect(again.status == 0 && again.stdout.contains("(0 rendered, 2 skipped"), "\(again.stdout) \(again.stderr)")
        // Two renders of one description are the same bytes here too (Matroska's UIDs were random).
        var renders: [Data] = []
        for k in 1...2 {
            let single = try CLI.run(["render", folder.file("music.json").path, "-o", folder.file("single\(k).\(ext)").path, "-q"])
            #expect(single.status == 0, "\(single.stderr)")
            renders.append(try Data(contentsOf: folder.file("single\(k).\(ext)")))
        }
        #expect(renders[0] == renders[1], "two renders of the same description differ")
        // Cut short, it is still rendered again.
        let whole = try Data(contentsOf: folder.file("out/2.\(ext)"))
        try whole.prefix(whole.count / 2).write(to: folder.file("out/2.\(ext)"))
        let cut = try CLI.run(arguments)
        #expect(Self.summary(cut.stdout)[2] == "rendered" && cut.stdout.contains("(1 rendered, 1 skipped"), "\(cut.stdout)")
    }

    @Test("a photo cut short past its header fails validate, render --check and a batch's --check, naming where it is used, before any frame")
    func aPhotoCutShortIsFoundBeforeTheRender() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        let canvas = try Canvas(width: 640, height: 480)
        try canvas.draw { ctx in
            for k in 0..<48 { ctx.setFill(Color(hue: Double(k) * 7.5, saturation: 0.8, lightness: 0.5)); ctx.fillRect(Rect(x: Double(k % 8) * 80, y: Double(k / 8) * 80, width: 80, height: 80)) }
        }
        try canvas.writePNG(to: folder.file("whole.png"))
        let whole = try Data(contentsOf: folder.file("whole.png"))
        try whole.prefix(whole.count / 3).write(to: folder.file("cut.png"))
        let card = folder.file("card.json").path
        try "name,photo\nAna,whole.png\nBo,cut.png\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        for arguments in [["validate", card, "--slot", "photo=\(folder.file("cut.png").path)"],
                          ["render", card, "--slot", "photo=\(folder.file("cut.png").path)", "--check"],
                          ["render", card, "--slot", "photo=\(folder.file("cut.png").path)", "-o", folder.file("one.mp4").path],
                          ["render", card, "--batch", folder.file("rows.csv").path, "--output-pattern", folder.url.path + "/out/{row}.mp4", "--check"]] {
            let r = try CLI.run(arguments)
            #expect(r.status != 0 && r.stderr.contains("tracks[0].items[1].source") && r.stderr.contains("cut.png"), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("%"), "no frame was rendered: \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("one.mp4").path) && !FileManager.default.fileExists(atPath: folder.file("out").path))
    }

    @Test("every row failing alike on bad input (the template's default file missing) is a usage error, exit 64, as one render's is")
    func aTemplateMistakeIsAUsageError() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.template.replacingOccurrences(of: #"{"file": "clip-0.mp4"}"#, with: #"{"file": "nope.mp4"}"#)
            .write(to: folder.file("broken.json"), atomically: true, encoding: .utf8)
        try "name\nAna\nBo\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("broken.json").path, "--batch", folder.file("rows.csv").path,
                             "--output-pattern", folder.url.path + "/out/{row}.mp4", "-q"])
        #expect(r.status == 64 && r.stderr.contains("every row failed with the same error") && r.stderr.contains("nope.mp4"), "\(r.stderr)")
        let single = try CLI.run(["render", folder.file("broken.json").path, "-o", folder.file("one.mp4").path, "-q"])
        #expect(single.status == 64, "\(single.stderr)")
        // A row of its own failing is the rows' fault: exit 1.
        try "name,photo\nAna,photo-0.png\nBo,missing.png\n".write(to: folder.file("mixed.csv"), atomically: true, encoding: .utf8)
        let mixed = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("mixed.csv").path,
                                 "--output-pattern", folder.url.path + "/mixed/{row}.mp4", "-q"])
        #expect(mixed.status == 1 && mixed.stderr.contains("1 of 2 rows failed"), "\(mixed.stderr)")
    }

    @Test("in a log (not a terminal) each row's render prints plain 10 % lines naming its movie, as a single render does; --quiet prints none")
    func rowsPrintProgressLinesInALog() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(2).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let arguments = ["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                         "--output-pattern", folder.url.path + "/out/{row}.mp4", "--jobs", "1"]
        let r = try CLI.run(arguments, environment: ["CI": "true"])
        #expect(r.status == 0, "\(r.stderr)")
        for row in 1...2 {
            let lines = r.stderrLines.filter { $0.hasPrefix("render \(folder.url.path)/out/\(row).mp4: ") && $0.contains("% (") }
            #expect(lines.count >= 5 && lines.count <= 9, "row \(row): \(r.stderr)")
        }
        let quiet = try CLI.run(arguments + ["--force", "-q"], environment: ["CI": "true"])
        #expect(quiet.status == 0 && !quiet.stderr.contains("% ("), "\(quiet.stderr)")
    }

    @Test("options for one movie (--cache, --hls, --save-spec) are refused with --batch, not ignored")
    func optionsForOneMovieAreRefusedWithBatch() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(2).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        for extra in [["--cache", folder.file("cache").path], ["--hls", folder.file("stream").path], ["--save-spec", folder.file("s.json").path], ["--segment", "4s"]] {
            let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                                 "--output-pattern", folder.url.path + "/out/{row}.mp4"] + extra)
            #expect(r.status == 64 && r.stderr.contains("\(extra[0]) renders one movie: leave it out with --batch"), "\(extra): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out").path) && !FileManager.default.fileExists(atPath: folder.file("cache").path))
    }

    @Test func requireSlotsRefusesABlankCellNamingItsRow() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try "name,photo,clip\nAna,photo-0.png,clip-0.mp4\n,photo-1.png,clip-1.mp4\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                             "--output-pattern", folder.url.path + "/out/{row}.mp4", "--require-slots"])
        #expect(r.status == 64 && r.stderr.contains("row 2 (line 3) leaves name blank"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out").path), "nothing written")
        // Given by --slot, the blank cell is filled (and the other rows keep their own: said).
        let filled = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                                  "--output-pattern", folder.url.path + "/out/{row}.mp4", "--require-slots", "--slot", "name=Bo"])
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(filled.stderr.contains("--slot name=… fills only the rows whose name cell is blank"), "\(filled.stderr)")
    }

    @Test func aJSONLinesRowThatIsNotJSONIsNamedByItsLineAndColumnOnly() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try "{\"name\": \"Ana\"}\n{name: \"Bo\"}\n".write(to: folder.file("rows.jsonl"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.jsonl").path,
                             "--output-pattern", folder.url.path + "/out/{row}.mp4"])
        #expect(r.status == 64 && r.stderr.contains("rows.jsonl, line 2") && r.stderr.contains("at column") && !r.stderr.contains("at line 1"), "\(r.stderr)")
    }

    @Test("a row's render warnings are printed with its row, even with --silent, as a single render's are")
    func rowWarningsArePrinted() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        // cutTail does not fill: clip-1 (0.4 s) leaves its 0.8 s item short, which a render warns of.
        try Self.template.replacingOccurrences(of: #""fit": "loop""#, with: #""fit": "cutTail""#)
            .write(to: folder.file("cut.json"), atomically: true, encoding: .utf8)
        try "name,clip\nShort,clip-1.mp4\nLong,clip-0.mp4\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("cut.json").path, "--batch", folder.file("rows.csv").path,
                             "--output-pattern", folder.url.path + "/out/{row}.mp4", "--silent", "--jobs", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("shorter than the item") }
        #expect(warnings.count == 1 && warnings.first?.contains("row 1 (line 2)") == true && warnings.first?.contains("clip-1.mp4") == true,
                "row 1's short clip is warned of, row 2's is not: \(r.stderr)")
        #expect(try decodeAll(folder.file("out/1.mp4")).count == 21 && decodeAll(folder.file("out/2.mp4")).count == 21, "both rows rendered")
    }

    /// What the library warns of while a row is made (its title does not fit) is that row's: named with
    /// it, once per row, with --check too (two rows with one too-long title were one warning naming neither).
    @Test func aLibraryWarningAboutARowNamesTheRow() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try #"{"version": 1, "output": {"size": "160x120", "fps": 10, "encoder": {"preset": "ultrafast"}}, "slots": {"title": {"kind": "text", "default": "Hi"}}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{title}}", "duration": "0.5s"}]}]}"#
            .write(to: folder.file("card.json"), atomically: true, encoding: .utf8)
        let long = String(repeating: "x", count: 1900)
        try "title\n\(long)\nShort\n\(long)\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        for extra in [["--check"], ["--jobs", "2"]] {
            let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path, "--quiet",
                                 "--output-pattern", folder.url.path + "/out/{row}.mp4"] + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            let warnings = r.stderrLines.filter { $0.contains("does not fit") }
            #expect(warnings.count == 2 && warnings.contains { $0.contains("row 1 (line 2)") } && warnings.contains { $0.contains("row 3 (line 4)") },
                    "\(extra): \(r.stderr)")
        }
    }

    /// `--check` with `--batch` checks every row as its render would, before any is rendered, and writes nothing.
    @Test func checkFindsEveryRowsMistakesWritingNothing() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(4, missingPhoto: 2, longName: 4).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                             "--output-pattern", folder.url.path + "/out/{row}.mp4", "--check"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("row 2 (line 3)") && r.stderr.contains("missing.png"), "\(r.stderr)")
        #expect(r.stderr.contains("row 4 (line 5)") && r.stderr.contains("maxLength"), "\(r.stderr)")
        // (Rows 1 and 3 may be warned about — their small photos look soft — but have no error.)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains("error:") }.joined(separator: "\n")
        #expect(!errors.contains("row 1 ") && !errors.contains("row 3 "), "\(r.stderr)")
        #expect(r.stdout.contains("2 of 4 rows"), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out").path), "nothing written")
        try Self.rows(2).write(to: folder.file("good.csv"), atomically: true, encoding: .utf8)
        let good = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("good.csv").path,
                                "--output-pattern", folder.url.path + "/out/{row}.mp4", "--check"])
        #expect(good.status == 0 && good.stdout.contains("2 of 2 rows"), "\(good.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out").path), "nothing written")
    }

    /// `--media` fills its slots for every row, as `--slot` does: `--require-slots` counts them as filled.
    @Test func requireSlotsCountsSlotsFilledByMedia() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try "name\nAna\nBo\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let base = ["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                    "--output-pattern", folder.url.path + "/out/{row}.mp4", "--require-slots", "--slot", "photo=" + folder.file("photo-1.png").path]
        let open = try CLI.run(base)
        #expect(open.status == 64 && open.stderr.contains("fills clip"), "\(open.status): \(open.stderr)")
        let r = try CLI.run(base + ["--media", folder.file("clip-1.mp4").path])
        #expect(r.status == 0, "\(r.stderr)")
        // Row 2 shows clip-1 (not the template's clip-0): the same bytes as a render given it by --slot.
        let single = folder.file("single.mp4")
        let s = try CLI.run(["render", folder.file("card.json").path, "--slot", "name=Bo", "--slot", "photo=" + folder.file("photo-1.png").path,
                             "--slot", "clip=" + folder.file("clip-1.mp4").path, "-o", single.path, "-q"])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(try Data(contentsOf: folder.file("out/2.mp4")) == Data(contentsOf: single))
        #expect(try decodeAll(single).count == 21)
    }

    @Test func aRowNeverWritesOverAFileAnotherRowOrTheTemplateReads() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        let original = try Data(contentsOf: folder.file("clip-0.mp4"))
        try FileManager.default.createSymbolicLink(at: folder.file("same"), withDestinationURL: folder.url)
        // Row 1 would make clip-0.mp4, which row 2 reads; row 2 would make clip-1.mp4, which row 1 reads —
        // named directly, and through a link to the folder (another path, the same files).
        try "name,clip,out\nAna,clip-1.mp4,clip-0\nBo,clip-0.mp4,clip-1\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        for prefix in [folder.url.path, folder.file("same").path] {
            let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                                 "--output-pattern", prefix + "/{out}.mp4"])
            #expect(r.status == 64 && r.stderr.contains("line 2: row 1 would write") && r.stderr.contains("which row 2 (line 3) names as an input"), "\(r.stderr)")
        }
        // A row whose output is the template's own default clip (the row itself reads another).
        try "name,clip,out\nAna,clip-1.mp4,clip-0\n".write(to: folder.file("one.csv"), atomically: true, encoding: .utf8)
        let own = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("one.csv").path,
                               "--output-pattern", folder.url.path + "/{out}.mp4"])
        #expect(own.status == 64 && own.stderr.contains("which the template names as an input"), "\(own.stderr)")
        // The template naming it as a file: URL.
        try Self.template.replacingOccurrences(of: "\"clip-0.mp4\"", with: "\"\(folder.file("clip-0.mp4").absoluteString)\"")
            .write(to: folder.file("url.json"), atomically: true, encoding: .utf8)
        let url = try CLI.run(["render", folder.file("url.json").path, "--batch", folder.file("one.csv").path,
                               "--output-pattern", folder.url.path + "/{out}.mp4"])
        #expect(url.status == 64 && url.stderr.contains("which the template names as an input"), "\(url.stderr)")
        #expect(try Data(contentsOf: folder.file("clip-0.mp4")) == original, "the input is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == ["card.json", "clip-0.mp4", "clip-1.mp4", "one.csv", "photo-0.png", "photo-1.png", "photo-2.png", "rows.csv", "same", "url.json"])
    }

    @Test func batchIndexSplitsTheRowsSoEveryRowIsRenderedExactlyOnce() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try Self.rows(7).write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        var seen: [Int] = []
        for k in 0..<3 {
            let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                                 "--output-pattern", folder.url.path + "/out/{row}.mp4", "--batch-index", "\(k)/3"])
            #expect(r.status == 0, "\(r.stderr)")
            let rows = Self.summary(r.stdout)
            #expect(rows.values.allSatisfy { $0 == "rendered" }, "\(r.stdout)")
            seen += rows.keys
        }
        #expect(seen.sorted() == Array(1...7), "each row once: \(seen.sorted())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path).count == 7)
        let forced = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.csv").path,
                                  "--output-pattern", folder.url.path + "/out/{row}.mp4", "--batch-index", "1/3", "--force"])
        #expect(Self.summary(forced.stdout) == [2: "rendered", 5: "rendered"], "--force renders rows 2 and 5 again: \(forced.stdout)")
    }

    @Test func mistakesInTheRowsOrThePatternStopTheBatchBeforeAnyMovie() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        let cases: [(rows: String, file: String, pattern: String, expected: String)] = [
            ("name,photo\nAna,photo-0.png\n", "rows.csv", "{nme}.mp4", "{nme} is not a column"),
            ("name,phot\nAna,photo-0.png\n", "rows.csv", "{row}.mp4", "the column \"phot\" names no slot"),
            ("name\nAna\nAna\n", "rows.csv", "{name}.mp4", "row 1 (line 2) and row 2 (line 3) both write"),
            ("name\nAna\n", "rows.csv", "rows.csv/{row}.mp4", "is a file, not a folder"),
            ("name,photo\nAna\n", "rows.csv", "{row}.mp4", "line 2: 1 field where the header has 2 (name, photo); write a separator for each value, a blank one too: Ana,"),
            ("name;photo\nAna;x;y\n", "rows.csv", "{row}.mp4", "quote a value that holds a semicolon: \"Doe; Jane\""),
            ("name\tphoto\nAna\tx\ty\n", "rows.tsv", "{row}.mp4", "quote a value that holds a tab: \"Doe<TAB> Jane\""),
            ("name,photo\n\"Doe, Jane\"\n", "rows.csv", "{row}.mp4", "a blank one too: \"Doe, Jane\","),
            ("name\n", "rows.csv", "{row}.mp4", "but no rows"),
            ("{\"name\": \"Ana\"}\n{\"name\": [1]}\n", "rows.jsonl", "{row}.mp4", "line 2: \"name\" holds"),
            ("{\"name\": \"Ana\"}\n{\"name\": \"Bo\", \"nmae\": \"x\"}\n", "rows.jsonl", "{row}.mp4", "line 2: the column \"nmae\" names no slot"),
            ("name\nAna\n", "rows.csv", "{row}.txt", "give a movie extension"),
            // Used in the pattern, so not unused: but "Name" is not the slot "name", which every movie would keep at its default.
            ("Name\nAna\n", "rows.csv", "{Name}.mp4", "the column \"Name\" names no slot, and the template has the slot \"name\""),
        ]
        for (index, c) in cases.enumerated() {
            let sub = folder.file("case\(index)")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try c.rows.write(to: sub.appendingPathComponent(c.file), atomically: true, encoding: .utf8)
            let r = try CLI.run(["render", folder.file("card.json").path, "--batch", sub.appendingPathComponent(c.file).path,
                                 "--output-pattern", sub.path + "/" + c.pattern])
            #expect(r.status == 64 && r.stderr.contains(c.expected), "\(c.rows.debugDescription): \(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: sub.path) == [c.file], "nothing written for \(c.rows.debugDescription)")
        }
        // Two rows naming one movie are refused also when each machine renders only its share.
        let split = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("case2/rows.csv").path,
                                 "--output-pattern", folder.file("case2").path + "/{name}.mp4", "--batch-index", "0/2"])
        #expect(split.status == 64 && split.stderr.contains("both write"), "\(split.stderr)")
        let noPattern = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("case0/rows.csv").path])
        #expect(noPattern.status == 64 && noPattern.stderr.contains("--batch needs --output-pattern"), "\(noPattern.stderr)")
        let withOutput = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("case0/rows.csv").path,
                                      "--output-pattern", "{row}.mp4", "-o", "x.mp4"])
        #expect(withOutput.status == 64 && withOutput.stderr.contains("instead of -o"), "\(withOutput.stderr)")
        let indexAlone = try CLI.run(["render", folder.file("card.json").path, "--batch-index", "0/2", "-o", folder.file("x.mp4").path])
        #expect(indexAlone.status == 64 && indexAlone.stderr.contains("--batch-index is for --batch"), "\(indexAlone.stderr)")
        let badIndex = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("case0/rows.csv").path,
                                    "--output-pattern", "{row}.mp4", "--batch-index", "3/3"])
        #expect(badIndex.status == 64 && badIndex.stderr.contains("K must be from 0 to 2"), "\(badIndex.stderr)")
    }

    @Test func jsonLinesRowsRenderAsCSVRowsDo() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        try "{\"name\": \"Ana\", \"photo\": \"photo-1.png\", \"id\": 17}\n\n{\"name\": \"Bo\", \"clip\": \"clip-1.mp4\", \"id\": 18}\n"
            .write(to: folder.file("rows.jsonl"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", folder.file("card.json").path, "--batch", folder.file("rows.jsonl").path,
                             "--output-pattern", folder.url.path + "/{id}-{name}.mp4", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        // A missing key keeps the slot's default: Bo's photo is photo-0.png.
        let bo = try decodeAll(folder.file("18-Bo.mp4")), ana = try decodeAll(folder.file("17-Ana.mp4"))
        #expect(bo.count == 21 && ana.count == 21)
        let single = folder.file("bo.mp4")
        #expect(try CLI.run(["render", folder.file("card.json").path, "--slot", "name=Bo", "--slot", "clip=\(folder.file("clip-1.mp4").path)",
                             "-o", single.path, "-q"]).status == 0)
        #expect(try Data(contentsOf: single) == Data(contentsOf: folder.file("18-Bo.mp4")))
    }

    @Test("names made from rows: a line break in a cell is a space, a blank value the pattern names or a name too long for its partial file is refused, a share with no rows is fine, CRLF JSON Lines read")
    func namesMadeFromRows() throws {
        guard CLI.isBuilt else { return }
        let folder = try Self.project()
        let card = folder.file("card.json").path
        func batch(_ rows: String, _ file: String, _ pattern: String, _ extra: [String] = []) throws -> CLI.Result {
            try rows.write(to: folder.file(file), atomically: true, encoding: .utf8)
            return try CLI.run(["render", card, "--batch", folder.file(file).path, "--output-pattern", folder.url.path + "/" + pattern, "-q"] + extra)
        }
        let broken = try batch("name,id\n\"Line one\nLine two\",q1\n", "broken.csv", "out/{id}-{name}.mp4")
        #expect(broken.status == 0, "\(broken.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("out/q1-Line one Line two.mp4").path), "\(broken.stdout)")
        let blank = try batch("name,id\nAna,a1\nBo,\n", "blank.csv", "out/{id}.mp4", ["--check"])
        #expect(blank.status == 64 && blank.stderr.contains("row 2 (line 3) has no id, which {id} in the pattern names"), "\(blank.stderr)")
        let missing = try batch("{\"name\": \"Ana\", \"id\": \"a1\"}\r\n{\"name\": \"Bo\"}\r\n", "missing.jsonl", "out/{row}-{id}.mp4", ["--check"])
        #expect(missing.status == 64 && missing.stderr.contains("has no id") && !missing.stderr.contains("not JSON"), "CRLF lines read, the blank id named: \(missing.stderr)")
        let long = try batch("name,id\nAna,\(String(repeating: "x", count: 300))\n", "long.csv", "out/{id}.mp4", ["--check"])
        #expect(long.status == 64 && long.stderr.contains("more than the 255 a file name may have"), "\(long.stderr)")
        // A name just under the limit renders: the partial file it is written under first keeps what fits.
        let longest = String(repeating: "y", count: 251)
        let fits = try batch("name,id\nAna,\(longest)\n", "fits.csv", "out/{id}.mp4")
        #expect(fits.status == 0 && FileManager.default.fileExists(atPath: folder.file("out/\(longest).mp4").path), "\(fits.stderr)")
        // More machines than rows: the spare ones have nothing to render, and say so.
        let spare = try batch("name,id\nAna,a1\nBo,b2\n", "two.csv", "spare/{id}.mp4", ["--batch-index", "4/5"])
        #expect(spare.status == 0, "\(spare.stderr)")
        // A folder where a movie goes, or a file system that takes no files: found before any movie.
        try FileManager.default.createDirectory(at: folder.file("dirs/a1.mp4"), withIntermediateDirectories: true)
        let dir = try batch("name,id\nAna,a1\n", "dir.csv", "dirs/{id}.mp4", ["--check"])
        #expect(dir.status == 64 && dir.stderr.contains("a folder has that name"), "\(dir.stderr)")
        try "name\nAna\n".write(to: folder.file("proc.csv"), atomically: true, encoding: .utf8)
        let proc = try CLI.run(["render", card, "--batch", folder.file("proc.csv").path, "--output-pattern", "/proc/moviemaker-nowhere/{row}.mp4", "--check"])
        #expect(proc.status == 64 && proc.stderr.contains("/proc"), "\(proc.stderr)")
    }
}

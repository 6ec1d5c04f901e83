import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// `moviemaker title --batch rows.csv --output-pattern …`: one movie per CSV row in one process.
@Suite("moviemaker title --batch")
struct TitleBatchTests {
    /// The common options: small, short movies.
    static let small = ["--size", "320x240", "--fps", "10", "--duration", "1", "--layout", "lower-third"]

    /// Names in Latin (one with a comma, quoted), Arabic and Japanese, with a role each.
    static let csv = "name,role\nAna Souza,Director\n\"Doe, Jane\",Camera\nسارة أحمد,مخرجة\n山田太郎,監督\n"

    @Test func rendersOneMoviePerRowEachTheSameAsASingleTitleOfThatRow() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try Self.csv.write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        // The folder is made, as render --batch makes it.
        let r = try CLI.run(["title", "--batch", folder.file("rows.csv").path, "--subtitle", "{role}", "--jobs", "2",
                             "--output-pattern", folder.url.path + "/out/{row}-{name}.mp4"] + Self.small,
                            environment: ["CI": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = ["1-Ana Souza", "2-Doe, Jane", "3-سارة أحمد", "4-山田太郎"]
        let roles = ["Director", "Camera", "مخرجة", "監督"]
        #expect(r.stdout.split(separator: "\n").count == 4, "one summary line per movie: \(r.stdout)")
        #expect(r.stderr.contains("4/4 rows done"), "progress counts rows: \(r.stderr)")
        // In a log (CI), each row's own 10 % lines name its movie, so a long row is not silent.
        #expect(r.stderrLines.contains { $0.hasPrefix("title \(folder.url.path)/out/1-Ana Souza.mp4: ") && $0.contains("% (") }, "\(r.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path)) == Set(names.map { $0 + ".mp4" }),
                "exactly the four movies, no partial file")
        var middles: [PixelBuffer] = []
        for (index, name) in names.enumerated() {
            let frames = try decodeAll(folder.file("out/\(name).mp4"))
            #expect(frames.count == 10, "\(name): 1 s at 10 fps")
            guard frames.count == 10 else { continue }
            middles.append(frames[5].pixels)
            // The same title rendered alone (its own process, all cores): the same pictures.
            let single = folder.file("single\(index).mp4")
            let text = String(name.drop { $0 != "-" }.dropFirst())
            let s = try CLI.run(["title", text, "--subtitle", roles[index], "-o", single.path, "-q"] + Self.small)
            #expect(s.status == 0, "\(s.stderr)")
            let alone = try decodeAll(single)
            #expect(alone.count == 10)
            if alone.count == 10 {
                for f in [3, 5, 9] {
                    let db = psnr(frames[f].pixels, alone[f].pixels)
                    #expect(db > 45, "\(name) frame \(f): \(db) dB against the single render")
                }
            }
        }
        // Each row's own text: the middle frames differ from one another.
        for i in middles.indices { for j in middles.indices where j > i {
            #expect(psnr(middles[i], middles[j]) < 35, "rows \(i + 1) and \(j + 1) should show different names")
        } }
    }

    /// A nightly log must say which movies came out wrong: a title that does not fit is warned about once
    /// per row, naming the row and its movie (two rows with one too-long title were one warning naming
    /// neither).
    @Test func aWarningInABatchNamesItsRow() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let long = String(repeating: "x", count: 2000)
        try "title\n\(long)\nShort\n\(long)\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["title", "--batch", folder.file("rows.csv").path, "--output-pattern", folder.url.path + "/{row}.mp4", "--quiet",
                             "--report", folder.file("report.jsonl").path] + Self.small)
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderrLines.filter { $0.contains("does not fit") }
        #expect(warnings.count == 2, "\(r.stderr)")
        for (line, row) in [(2, 1), (4, 3)] {
            #expect(warnings.contains { $0.contains("rows.csv, line \(line) (\(folder.url.path)/\(row).mp4): the text") }, "line \(line): \(warnings)")
        }
        // --report: a JSON line per row, in row order, with its warnings.
        let report = try String(contentsOf: folder.file("report.jsonl"), encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(report.map { $0["row"] as? Int } == [1, 2, 3] && report.map { $0["line"] as? Int } == [2, 3, 4], "\(report)")
        #expect(report.allSatisfy { $0["status"] as? String == "rendered" }, "\(report)")
        #expect(report.map { ($0["warnings"] as? [String])?.count } == [1, 0, 1], "\(report)")
        // Never over an input: the rows, or the backdrop photo the command reads.
        let canvas = try Canvas(width: 8, height: 8)
        try canvas.draw { $0.clear(.gray) }
        try canvas.writePNG(to: folder.file("bg.png"))
        for input in ["rows.csv", "bg.png"] {
            let over = try CLI.run(["title", "--batch", folder.file("rows.csv").path, "--output-pattern", folder.url.path + "/{row}.mp4", "--quiet",
                                    "--background-image", folder.file("bg.png").path, "--report", folder.file(input).path] + Self.small)
            #expect(over.status == 64 && over.stderr.contains("--report") && over.stderr.contains(input), "\(over.stderr)")
        }
    }

    @Test func withoutATitleTheTitleColumnOrElseTheFirstIsTheTitle() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try "id,title\nx1,Hello\n".write(to: folder.file("t.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["title", "--batch", folder.file("t.csv").path, "--output-pattern", folder.url.path + "/{id}.mp4", "-q"] + Self.small)
        #expect(r.status == 0, "\(r.stderr)")
        let s = try CLI.run(["title", "Hello", "-o", folder.file("hello.mp4").path, "-q"] + Self.small)
        #expect(s.status == 0)
        let a = try decodeAll(folder.file("x1.mp4")), b = try decodeAll(folder.file("hello.mp4"))
        #expect(a.count == 10 && b.count == 10)
        if a.count == 10 && b.count == 10 { #expect(psnr(a[5].pixels, b[5].pixels) > 45, "the title column is the title") }
    }

    @Test("two rows writing one file through a folder and a link to it are refused, naming both lines; nothing is written")
    func rowsWritingOneFileThroughALinkedFolderAreRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("a"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.file("b").path, withDestinationPath: "a")
        try "name,dir\nFirst,a\nSecond,b\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["title", "--batch", folder.file("rows.csv").path, "--output-pattern", folder.url.path + "/{dir}/x.mp4", "-q"] + Self.small)
        #expect(r.status == 64 && r.stderr.contains("lines 2 and 3 both write"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("a").path).isEmpty, "nothing written")
        let card = folder.file("card.json")
        try """
            {"version": 1, "output": {"size": "160x120", "fps": 10},
             "slots": {"name": {"kind": "text", "default": "Sam"}, "dir": {"kind": "text", "default": "a"}},
             "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{name}}", "duration": "1s"}]}]}
            """.write(to: card, atomically: true, encoding: .utf8)
        let render = try CLI.run(["render", card.path, "--batch", folder.file("rows.csv").path, "--output-pattern", folder.url.path + "/{dir}/x.mp4"])
        #expect(render.status == 64 && render.stderr.contains("row 1 (line 2) and row 2 (line 3) both write"), "\(render.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("a").path).isEmpty, "nothing written")
    }

    /// Every mistake is found before the first movie starts: 64, a message naming the line or the
    /// placeholder, and no file written.
    @Test func mistakesInTheFileOrPatternAreFoundBeforeAnyMovieNamingTheLine() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let cases: [(csv: String, pattern: String, expected: String)] = [
            ("name\nAna\n", "{nme}.mp4", "{nme} is not a column"),
            ("name\nAna\nBo\nAna\n", "{name}.mp4", "lines 2 and 4 both write"),
            ("name\nAna\nBo\nAna\n", "{name}/card.mp4", "lines 2 and 4 both write"),   // and no folder is made for Ana or Bo
            ("name,role\nAna,Director\nBo\n", "{name}.mp4", "line 3: 1 field where the header has 2"),
            ("name\nAna\n\"Bo\n", "{name}.mp4", "line 3: a quoted field is never closed"),
            ("name,name\nAna,B\n", "{name}.mp4", "columns 1 and 2 are both called \"name\""),
            ("name\n", "{name}.mp4", "but no rows"),
            ("name\nAna\n \n", "rows.csv/{name}.mp4", "line 2: \(folder.url.path)/case7/rows.csv is a file, not a folder"),
            ("name,team\nAna,red\nBo,\n", "{team}/{name}.mp4", "line 3: --output-pattern"),   // Bo's movie went to another folder
            ("name\nAna\n\n", "made/{name}.mp4", ""),   // blank lines are skipped, and the folder is made: this one renders
        ]
        for (index, c) in cases.enumerated() {
            let sub = folder.file("case\(index)")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try c.csv.write(to: sub.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
            let r = try CLI.run(["title", "--batch", sub.appendingPathComponent("rows.csv").path,
                                 "--output-pattern", sub.path + "/" + c.pattern, "-q"] + Self.small)
            if c.expected.isEmpty {
                #expect(r.status == 0, "\(r.stderr)")
                #expect(try decodeAll(sub.appendingPathComponent("made/Ana.mp4")).count == 10)
                continue
            }
            #expect(r.status == 64 && r.stderr.contains(c.expected), "\(c.csv.debugDescription): \(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: sub.path) == ["rows.csv"], "nothing written for \(c.csv.debugDescription)")
        }
        let blank = try CLI.run(["title", "--batch", folder.file("case8/rows.csv").path, "--output-pattern", folder.file("case8").path + "/{team}/{name}.mp4"] + Self.small)
        #expect(blank.stderr.contains("uses {team}, which is blank in this row"), "\(blank.stderr)")
        // Values with semicolons under a comma header are values, not columns.
        let semicolons = folder.file("semicolons.csv")
        try "title,subtitle\nPart 1; Intro,Day 1\n".write(to: semicolons, atomically: true, encoding: .utf8)
        let parts = try CLI.run(["title", "--batch", semicolons.path, "--output-pattern", folder.file("parts").path + "/{row}.mp4", "-q"] + Self.small)
        #expect(parts.status == 0, "\(parts.stderr)")
        let noPattern = try CLI.run(["title", "--batch", folder.file("case0/rows.csv").path])
        #expect(noPattern.status == 64 && noPattern.stderr.contains("--batch needs --output-pattern"), "\(noPattern.stderr)")
        let patternAlone = try CLI.run(["title", "X", "--output-pattern", "{name}.mp4"])
        #expect(patternAlone.status == 64 && patternAlone.stderr.contains("--output-pattern is for --batch"), "\(patternAlone.stderr)")
    }

    /// A value with a slash cannot move its movie into another folder, and a row whose file would be
    /// the batch file (or another input) is refused.
    @Test func valuesCannotEscapeTheFolderOrOverwriteAnInput() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try "name\n../escape\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.file("out"), withIntermediateDirectories: true)
        let r = try CLI.run(["title", "--batch", folder.file("rows.csv").path, "--output-pattern", folder.url.path + "/out/{name}.mp4", "-q"] + Self.small)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out").path) == ["..-escape.mp4"])
        #expect(!FileManager.default.fileExists(atPath: folder.file("escape.mp4").path))

        try "name\nposter\n".write(to: folder.file("inputs.csv"), atomically: true, encoding: .utf8)
        let poster = folder.file("poster.png")
        let canvas = try Canvas(width: 32, height: 32)
        try canvas.writePNG(to: poster)
        let before = try Data(contentsOf: poster)
        let clash = try CLI.run(["title", "--batch", folder.file("inputs.csv").path, "--background-image", poster.path,
                                 "--output-pattern", folder.url.path + "/{name}.png", "-q"] + Self.small)
        #expect(clash.status == 64 && clash.stderr.contains("an input of this command"), "\(clash.stderr)")
        #expect(try Data(contentsOf: poster) == before, "the input is untouched")
        // A backdrop that is not an image fails every row alike: one usage error (64) before any row, as a single title's.
        let notImage = folder.file("notes.png")
        try "not a picture".write(to: notImage, atomically: true, encoding: .utf8)
        try "name\nA\nB\n".write(to: folder.file("two.csv"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["title", "--batch", folder.file("two.csv").path, "--background-image", notImage.path,
                               "--output-pattern", folder.url.path + "/bad/{name}.mp4", "-q"] + Self.small)
        #expect(bad.status == 64 && bad.stderrLines.count == 1 && bad.stderr.contains("notes.png"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad").path))
    }
}

/// `moviemaker title --slide-distance`: a slide over a set distance instead of from beyond the edge.
@Suite("moviemaker title --slide-distance")
struct TitleSlideDistanceTests {
    /// The mean row of bright pixels (the text), or nil when there are none.
    static func inkRow(_ p: PixelBuffer) -> Double? {
        var sum = 0.0, n = 0.0
        for y in 0..<p.height { for x in 0..<p.width where p.rgba(x: x, y: y).red > 200 { sum += Double(y); n += 1 } }
        return n > 0 ? sum / n : nil
    }

    @Test func theTitleStartsTheDistanceBelowItsPlaceAndIsOnScreenFromTheStart() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        func still(_ t: String) throws -> PixelBuffer {
            let png = folder.file("s\(t).png")
            let r = try CLI.run(["title", "Rise", "--style", "slide", "--slide-distance", "60", "--entrance-duration", "1",
                                 "--easing", "linear", "--size", "320x180", "--fps", "30", "--still", t, "-o", png.path, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            let c = try Canvas(width: 320, height: 180)
            let image = try Image(contentsOf: png)
            try c.draw { ctx in ctx.draw(image, in: ctx.bounds) }
            return c.pixels()
        }
        let start = try #require(Self.inkRow(try still("0")), "on screen at the first frame (--still 0)")
        let rest = try #require(Self.inkRow(try still("2")))
        // 60 px at 1080 lines is 10 px at 180.
        #expect(abs((start - rest) - 10) <= 1, "starts \(start - rest) px below its place, expected 10")
        let bad = try CLI.run(["title", "Rise", "--slide-distance", "60", "-o", folder.file("x.mp4").path])
        #expect(bad.status == 64 && bad.stderr.contains("--slide-distance is for --style slide"), "\(bad.stderr)")
    }

    /// A codec or CRF that every row's movie would refuse (`--codec h264` with a `.webm` pattern) made
    /// each row fail in turn and the batch exit 1, as if the rows were at fault: now it is a usage error
    /// (64) before any row renders, for `title --batch` and `render --batch` alike.
    @Test("a format every row would refuse (--codec h264 into .webm, --crf 60) is a usage error before any row renders")
    func aFormatEveryRowWouldRefuseIsAUsageError() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try "name\nAna\nBo\n".write(to: folder.file("rows.csv"), atomically: true, encoding: .utf8)
        try #"{"version": 1, "output": {"size": "64x48", "fps": 10}, "slots": {"name": {"kind": "text", "default": "x"}}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{name}}", "duration": 1}]}]}"#
            .write(to: folder.file("card.json"), atomically: true, encoding: .utf8)
        let rows = folder.file("rows.csv").path
        for arguments in [["title", "--batch", rows, "--size", "320x240", "-d", "1", "--codec", "h264", "--output-pattern", folder.url.path + "/{name}.webm"],
                          ["title", "--batch", rows, "--size", "320x240", "-d", "1", "--crf", "60", "--output-pattern", folder.url.path + "/{name}.mp4"],
                          ["render", folder.file("card.json").path, "--batch", rows, "--codec", "h264", "--output-pattern", folder.url.path + "/{name}.webm"],
                          ["render", folder.file("card.json").path, "--batch", rows, "--crf", "60", "--output-pattern", folder.url.path + "/{name}.mp4"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64 && r.stderr.contains("line 2") && !r.stderr.contains("line 3"), "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stdout.isEmpty, "no row was tried: \(r.stdout)")
        }
        #expect(folder.contents.sorted() == ["card.json", "rows.csv"], "\(folder.contents)")
    }
}

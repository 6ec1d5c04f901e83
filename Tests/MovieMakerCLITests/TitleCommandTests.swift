import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker title`, run as the built binary: help, movies, transparent overlays, stills, errors.
@Suite("moviemaker title")
struct TitleCommandTests {
    static let size = "320x240"

    /// Glyph cores and clear background of a transparent still: pixels whose 5×5 neighbourhood is all
    /// opaque, and pixels at least 4 px from any ink.
    static func cores(of px: PixelBuffer) -> (inside: [(Int, Int)], outside: [(Int, Int)]) {
        var inside: [(Int, Int)] = [], outside: [(Int, Int)] = []
        for y in 4..<(px.height - 4) {
            for x in 4..<(px.width - 4) {
                var allOpaque = true, allClear = true
                for dy in -4...4 { for dx in -4...4 {
                    let a = px.rgba(x: x + dx, y: y + dy).alpha
                    if abs(dx) <= 2 && abs(dy) <= 2 && a < 255 { allOpaque = false }
                    if a > 0 { allClear = false }
                } }
                if allOpaque { inside.append((x, y)) }
                if allClear && (x + y) % 7 == 0 { outside.append((x, y)) }
            }
        }
        return (inside, outside)
    }

    @Test func helpListsStylesTransparencyAndStill() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.help(["title"])
        #expect(r.status == 0)
        for word in ["--subtitle", "--duration", "--style", "fade", "slide", "typewriter", "pop", "--font", "--size",
                     "--fps", "--background", "--transparent", "--still", "--quiet", "-o"] {
            #expect(r.stdout.contains(word), "help lacks \(word)")
        }
        let root = try CLI.help([])
        #expect(root.stdout.contains("title"))
    }

    @Test("a title too long to fit even at the smallest size says so (the text, its length, the fix); one that fits says nothing")
    func aTitleThatCannotFitWarns() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let long = (0..<1000).map { "word\($0)" }.joined(separator: " ")
        let r = try CLI.run(["title", long, "--duration", "0.5", "--size", Self.size, "-o", folder.file("long.mp4").path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("moviemaker: warning: the text \"word0 word1") && r.stderr.contains("(\(long.count) characters) does not fit the title card")
                && r.stderr.contains("shorten it"), "\(r.stderr)")
        #expect(try decodeAll(folder.file("long.mp4")).count == 15)
        let fits = try CLI.run(["title", (0..<40).map { "word\($0)" }.joined(separator: " "), "--duration", "0.5", "--size", Self.size,
                                "-o", folder.file("fits.mp4").path, "-q"])
        #expect(fits.status == 0 && fits.stderr.isEmpty, "\(fits.stderr)")
        // A one-letter subtitle in a small frame's lower third takes a pixel of the band's padding, which
        // is not running off the frame: no warning (there was one).
        let small = try CLI.run(["title", "Lisbon", "--subtitle", "D", "--layout", "lower-third", "--duration", "0.5", "--size", "320x180",
                                 "-o", folder.file("small.mp4").path, "-q"])
        #expect(small.status == 0 && small.stderr.isEmpty, "\(small.stderr)")
    }

    /// U+10FFFD (a private-use letter no font has) stands for a script no installed font covers.
    @Test("letters no installed font can draw (shown as boxes) are said once, with the text and the fix; Latin, CJK and emoji say nothing")
    func lettersNoFontDrawsWarn() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let r = try CLI.run(["title", "Hello \u{10FFFD}\u{10FFFD}", "--subtitle", "\u{10FFFD}", "--still", "0.2", "--size", Self.size,
                             "-o", folder.file("boxes.png").path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderrLines.filter { $0.contains("no installed font can draw") }
        #expect(said.count == 1 && said[0].contains("the text \"Hello \u{10FFFD}\u{10FFFD}\" has 2 letters") && said[0].contains("install a font"), "\(r.stderr)")
        let covered = try CLI.run(["title", "Café 東京 🎬", "--still", "0.2", "--size", Self.size, "-o", folder.file("covered.png").path, "-q"])
        #expect(covered.status == 0 && covered.stderr.isEmpty, "\(covered.stderr)")
    }

    @Test("a file name near the 255-byte limit is written (its partial file's name is shortened); one over it is refused up front")
    func longFileNames() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let longest = String(repeating: "é", count: 125) + "x.mp4"     // 255 bytes
        let r = try CLI.run(["title", "Long", "--duration", "0.2", "--size", Self.size, "-o", folder.file(longest).path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(folder.contents == [longest], "\(folder.contents)")
        let over = try CLI.run(["title", "Long", "--duration", "0.2", "--size", Self.size, "-o", folder.file("z" + longest).path, "-q"])
        #expect(over.status == 64 && over.stderr.contains("the file name is 256 bytes, more than the 255"), "\(over.stderr)")
        #expect(folder.contents == [longest])
    }

    @Test func rendersTheIssuesExampleAsH264WithTextOnTheBackground() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("title.mp4")
        let r = try CLI.run(["title", "Release 2.4", "--subtitle", "What's new", "--duration", "1.5", "--style", "fade",
                             "--font", "DejaVu Sans", "--size", Self.size, "--fps", "30", "--background", "#101820", "-o", url.path],
                            environment: ["CI": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(url.path), "summary names the file: \(r.stdout)")
        #expect(r.stderr.contains("title \(url.path): 100%"), "plain progress lines in CI: \(r.stderr)")
        let reader = try MovieReader(url: url)
        #expect(reader.info.codec == "h264" && reader.info.width == 320 && reader.info.height == 240)
        let frames = try decodeAll(url)
        #expect(frames.count == 45)
        let first = frames[0].pixels.rgba(x: 160, y: 120)
        #expect(abs(Int(first.red) - 0x10) <= 3 && abs(Int(first.green) - 0x18) <= 3 && abs(Int(first.blue) - 0x20) <= 3,
                "first frame is the background: \(first)")
        #expect(inkBox(frames[22].pixels) != nil, "text on screen mid-card")
        #expect(inkBox(frames[0].pixels) == nil && inkBox(frames[44].pixels) == nil, "faded in and out")
    }

    @Test(arguments: ["mov", "webm", "mkv", "apng"])
    func transparentMovieHasAlphaZeroOutsideAndOpaqueGlyphCores(ext: String) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let movie = folder.file("title.\(ext)"), still = folder.file("still.png")
        let common = ["title", "Hi", "--duration", "1", "--style", "none", "--exit-style", "none", "--font-size", "400", "--size", Self.size, "--transparent", "--silent"]
        var r = try CLI.run(common + ["-o", movie.path])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(r.stderr)")
        r = try CLI.run(common + ["--still", "0.5", "-o", still.path])
        #expect(r.status == 0, "\(r.stderr)")

        // The still (what was drawn) says where the glyph cores and the clear background are.
        let drawn = try Canvas(width: 320, height: 240)
        let image = try Image(contentsOf: still)
        try drawn.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        let (inside, outside) = Self.cores(of: drawn.pixels())
        #expect(inside.count > 200 && outside.count > 200, "\(inside.count) core and \(outside.count) background pixels")

        let reader = try MovieReader(url: movie)
        #expect(reader.info.hasAlpha, "pixel format \(reader.info.pixelFormat)")
        #expect(reader.info.codec == ["mov": "prores", "apng": "apng"][ext, default: "vp9"])
        let frames = try decodeAll(movie)
        #expect(frames.count == 30)
        let px = frames[15].pixels
        #expect(inside.allSatisfy { px.rgba(x: $0.0, y: $0.1).alpha >= 250 }, "glyph cores opaque")
        #expect(outside.allSatisfy { px.rgba(x: $0.0, y: $0.1).alpha <= 3 }, "background transparent")

        if FFTools.available {
            // A second opinion on the pixel format: ffprobe for ProRes; for VP9 the libvpx decoder's view
            // (the native vp9 decoder ignores the alpha plane, and ffprobe 5.1 cannot choose a decoder).
            if ext == "mov" || ext == "apng" {
                let stream = try FFTools.videoStream(movie, countFrames: false)
                #expect((stream["pix_fmt"] as? String)?.hasPrefix(ext == "mov" ? "yuva444p" : "rgba") == true, "\(stream["pix_fmt"] ?? "nil")")
            } else {
                let probe = try run(FFTools.ffmpeg, ["-hide_banner", "-c:v", "libvpx-vp9", "-i", movie.path])
                #expect(probe.stderr.contains("yuva420p"), "\(probe.stderr)")
            }
        }
    }

    @Test func stillWritesOnePNGFrameAtTheGivenTime() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let early = folder.file("early.png"), late = folder.file("late.png")
        let common = ["title", "Release 2.4", "--style", "typewriter", "--duration", "4", "--size", Self.size]
        #expect(try CLI.run(common + ["--still", "0.3", "-o", early.path]).status == 0)
        #expect(try CLI.run(common + ["--still", "2", "-o", late.path]).status == 0)
        func pixels(_ url: URL) throws -> PixelBuffer {
            let c = try Canvas(width: 320, height: 240)
            let image = try Image(contentsOf: url)
            #expect(image.width == 320 && image.height == 240)
            try c.draw { ctx in ctx.draw(image, in: ctx.bounds) }
            return c.pixels()
        }
        let a = try #require(inkBox(try pixels(early))), b = try #require(inkBox(try pixels(late)))
        #expect(a.maxX < b.maxX - 20, "typing in progress at 0.3 s, done at 2 s")
        #expect(folder.contents == ["early.png", "late.png"])
    }

    /// Runs `title` with `arguments` and checks for exit 64, one stderr line containing every `needle`, and no file.
    func expectUsageError(_ arguments: [String], naming needles: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryFolder()
        let r = try CLI.run(["title", "X"] + arguments.map { $0 == "OUT" ? folder.file("out.mp4").path : $0 }, in: folder.url)
        #expect(r.status == 64, "status \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("moviemaker: error: "), "\(r.stderr)", sourceLocation: sourceLocation)
        for n in needles { #expect(r.stderr.contains(n), "\(r.stderr) does not name \(n)", sourceLocation: sourceLocation) }
        #expect(folder.contents.isEmpty, "nothing written: \(folder.contents)", sourceLocation: sourceLocation)
    }

    @Test func badInputIsOneLineErrorWithExitCode64() throws {
        guard CLI.isBuilt else { return }
        try expectUsageError(["--font", "DejaVu Sanz", "-o", "OUT"], naming: ["DejaVu Sanz", "closest installed: DejaVu Sans"])
        try expectUsageError(["--background", "#12345", "-o", "OUT"], naming: ["#12345"])
        try expectUsageError(["--color", "notacolour", "-o", "OUT"], naming: ["notacolour"])
        try expectUsageError(["--size", "1920x", "-o", "OUT"], naming: ["1920x"])
        try expectUsageError(["--style", "spin", "-o", "OUT"], naming: ["spin", "typewriter"])
        // In the command's own words, not the library's call (it named MovieMaker(pngSequenceIn:)).
        try expectUsageError(["--transparent", "-o", "OUT"], naming: ["--transparent", ".mov", ".webm", "h264 in a .mp4 file has no alpha channel"])
        try expectUsageError(["--transparent", "-o", "OUT"], naming: ["(see 'moviemaker title --help')"])
        try expectUsageError(["--duration", "2", "--still", "3", "-o", "x.png"], naming: ["--still"])
        try expectUsageError(["--still", "1", "-o", "OUT"], naming: ["--still", ".png"])
        try expectUsageError(["-o", "/nonexistent-folder/x.mp4"], naming: ["/nonexistent-folder"])
        try expectUsageError(["--duration", "1", "--entrance-duration", "3", "-o", "OUT"], naming: ["--entrance-duration 3", "never finish arriving"])
    }

    @Test func existingFileSurvivesAFailedRender() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("keep.mp4")
        try Data("precious".utf8).write(to: url)
        // A font file that is not a font is bad input (exit 64), found after the destination was checked.
        let bogus = folder.file("bogus.ttf")
        try Data("not a font".utf8).write(to: bogus)
        let r = try CLI.run(["title", "X", "--font-file", bogus.path, "--size", Self.size, "-o", url.path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains("bogus.ttf"), "\(r.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "precious")
        #expect(folder.contents == ["bogus.ttf", "keep.mp4"])
    }
}

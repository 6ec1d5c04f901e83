import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker contact-sheet`, run as a subprocess: the sheet it writes (read back: size, each tile's
/// colour, labels) and its errors.
@Suite("moviemaker contact-sheet")
struct ContactSheetCommandTests {
    static let colors: [(Color, (Double, Double, Double))] = [
        (.red, (255, 0, 0)), (.green, (0, 255, 0)), (.blue, (0, 0, 255)),
        (.yellow, (255, 255, 0)), (.cyan, (0, 255, 255)), (.magenta, (255, 0, 255)),
    ]

    /// A 3 s 320×240 movie at 30 fps: six colours, half a second each.
    static func movie() throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder()
        let url = folder.file("clip.mp4")
        try VideoFixtures.write(Clip.sequence(colors.map { Clip.color($0.0, duration: 0.5) }), to: url)
        return (folder, url)
    }

    @Test func theSheetHasTheGridsTilesInOrderWithTheirTimes() throws {
        guard CLI.isBuilt else { return }
        let (folder, video) = try Self.movie()
        let out = folder.file("sheet.png")
        let r = try CLI.run(["contact-sheet", video.path, "--grid", "3x2", "--width", "480", "-o", out.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let layout = try ContactSheetLayout(columns: 3, rows: 2, width: 480, aspectRatio: 320.0 / 240.0)
        #expect(r.stdout.contains(out.path) && r.stdout.contains("480x\(layout.height)"), "summary: \(r.stdout)")
        let px = try Image(contentsOf: out).pixels()
        #expect(px.width == 480 && px.height == layout.height)
        for (i, (_, c)) in Self.colors.enumerated() {
            let tile = layout.tileRect(i)
            let m = meanColor(px, x: Int(tile.midX), y: Int(tile.midY), radius: 10)
            #expect(VideoFixtures.near((m.r, m.g, m.b), c), "tile \(i): \(m), expected \(c)")
            let label = layout.labelRect(i)
            var white = 0
            for y in Int(label.minY)..<Int(label.maxY) { for x in Int(label.minX)..<Int(label.maxX) {
                let p = px.rgba(x: x, y: y)
                if p.red > 200 && p.green > 200 && p.blue > 200 { white += 1 }
            } }
            #expect(white > 20, "tile \(i) has its time written under it (\(white) white pixels)")
        }
        // The default grid is 4x4 at 1600 pixels.
        let big = folder.file("big.png")
        #expect(try CLI.run(["contact-sheet", video.path, "-q", "-o", big.path]).status == 0)
        let defaultLayout = try ContactSheetLayout(columns: 4, rows: 4, width: 1600, aspectRatio: 320.0 / 240.0)
        let image = try Image(contentsOf: big)
        #expect(image.width == 1600 && image.height == defaultLayout.height)
        // Tile 5 of 16 shows 3 s × 5.5/16 = 1.03 s: green's successor blue (1.0–1.5 s).
        let t5 = defaultLayout.tileRect(5)
        let m = meanColor(image.pixels(), x: Int(t5.midX), y: Int(t5.midY), radius: 10)
        #expect(VideoFixtures.near((m.r, m.g, m.b), (0, 0, 255)), "tile 5: \(m)")
    }

    @Test func badGridsWidthsAndFilesAreClearErrors() throws {
        guard CLI.isBuilt else { return }
        let (folder, video) = try Self.movie()
        let out = folder.file("sheet.png")
        try VideoFixtures.expectError(["contact-sheet", video.path, "--grid", "4by4", "-o", out.path], naming: ["'4by4'", "COLUMNSxROWS"], status: 64)
        try VideoFixtures.expectError(["contact-sheet", video.path, "--grid", "0x3", "-o", out.path], naming: ["'0x3'", "1 to 50"], status: 64)
        try VideoFixtures.expectError(["contact-sheet", video.path, "--grid", "10x1", "--width", "300", "-o", out.path],
                                      naming: ["--width 300", "10x1", "364"], status: 64)
        try VideoFixtures.expectError(["contact-sheet", video.path, "-o", folder.file("sheet.mp4").path], naming: ["-o sheet.png"], status: 64)
        let text = folder.file("text.mkv")
        try "not a video".write(to: text, atomically: true, encoding: .utf8)
        try VideoFixtures.expectError(["contact-sheet", text.path, "-o", out.path], naming: [text.path], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(folder.contents.filter { $0.contains("partial") }.isEmpty, "no partial file: \(folder.contents)")
    }

    /// A clip with fewer frames than tiles still makes a sheet, and says its frames repeat.
    @Test func aClipShorterThanTheGridIsWarnedAbout() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.movie()
        let short = folder.file("five.mp4")
        try VideoFixtures.write(Clip.color(.red, duration: Time(value: 5, timescale: 30)), to: short)
        let r = try CLI.run(["contact-sheet", short.path, "-o", folder.file("sheet.png").path])
        #expect(r.status == 0 && r.stderr.contains("warning: \(short.path) has 5 frames, fewer than the 16 tiles of a 4x4 grid: frames repeat (--grid 5x1 shows each once)"),
                "\(r.stderr)")
        let fits = try CLI.run(["contact-sheet", short.path, "--grid", "5x1", "-o", folder.file("fits.png").path])
        #expect(fits.status == 0 && !fits.stderr.contains("warning"), "\(fits.stderr)")
        // The grid suggested shows each frame once: five different tiles.
        let times = Clip.color(.red, duration: Time(value: 5, timescale: 30)).contactSheetTimes(count: 5, rate: 30)
        #expect(Set(times).count == 5, "\(times)")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker still`, run as a subprocess: the PNG it writes (read back: size and pixels) and its errors.
@Suite("moviemaker still")
struct StillCommandTests {
    /// A 2 s 320×240 movie at 30 fps: black for `blackFor`, then red until 1 s, then blue; each coloured
    /// frame with a white square at the top left (so it is not blank).
    static func movie(blackFor: Time = .zero) throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder()
        let url = folder.file("clip.mp4")
        func coloured(_ color: Color, _ duration: Time) -> Clip {
            Clip(duration: duration) { ctx, _ in
                ctx.clear(color)
                ctx.setFill(.white)
                ctx.fillRect(Rect(x: 10, y: 10, width: 60, height: 40))
            }
        }
        var parts: [Clip] = []
        if blackFor > .zero { parts.append(.color(.black, duration: blackFor)) }
        parts += [coloured(.red, 1 - blackFor), coloured(.blue, 1)]
        try VideoFixtures.write(Clip.sequence(parts), to: url)
        return (folder, url)
    }

    /// The PNG's pixels.
    static func png(_ url: URL) throws -> PixelBuffer { try Image(contentsOf: url).pixels() }

    @Test("still and contact-sheet write a .png: their help says so, and another extension is refused with the fix, before any work")
    func onlyAPNGIsWritten() throws {
        guard CLI.isBuilt else { return }
        let (folder, movie) = try Self.movie()
        for command in ["still", "contact-sheet"] {
            let help = try CLI.help([command])
            #expect(help.stdout.contains("Where to write the .png image") && !help.stdout.contains(".webm movie"), "\(help.stdout)")
            for name in ["st.jpg", "st.mp4"] {
                let r = try CLI.run([command, movie.path, "-o", folder.file(name).path])
                #expect(r.status == 64 && r.stderr.contains("writes one image, as .png") && r.stderr.contains("-o st.png"), "\(command) \(name): \(r.stderr)")
            }
        }
        #expect(!folder.contents.contains { $0.hasPrefix("st.") })
    }

    @Test func atPicksTheFrameShownThenAtTheVideosSize() throws {
        guard CLI.isBuilt else { return }
        let (folder, video) = try Self.movie()
        for (at, expected) in [("0.5", (255.0, 0.0, 0.0)), ("0.95", (255, 0, 0)), ("1", (0, 0, 255)), ("0:01.5", (0, 0, 255)), ("1900ms", (0, 0, 255))] {
            let out = folder.file("at-\(at).png")
            let r = try CLI.run(["still", video.path, "--at", at, "-o", out.path])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stdout.contains(out.path) && r.stdout.contains("320x240"), "summary: \(r.stdout)")
            let px = try Self.png(out)
            #expect(px.width == 320 && px.height == 240)
            let m = VideoFixtures.middle(px)
            #expect(VideoFixtures.near(m, expected), "--at \(at): \(m), expected \(expected)")
        }
        // --size scales (and crops to fill): the white square is still at the top left.
        let small = folder.file("small.png")
        let r = try CLI.run(["still", video.path, "--at", "0.2", "--size", "160x120", "--silent", "-o", small.path])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(r.stdout) \(r.stderr)")
        let px = try Self.png(small)
        #expect(px.width == 160 && px.height == 120)
        let corner = meanColor(px, x: 20, y: 15, radius: 3), body = meanColor(px, x: 100, y: 80)
        #expect(corner.r > 230 && corner.g > 230 && corner.b > 230, "white square: \(corner)")
        #expect(body.r > 230 && body.g < 25 && body.b < 25, "red: \(body)")
    }

    @Test func withoutAtTheBlackStartIsSkipped() throws {
        guard CLI.isBuilt else { return }
        let (folder, video) = try Self.movie(blackFor: Time(value: 2, timescale: 3))
        let out = folder.file("thumb.png")
        let r = try CLI.run(["still", video.path, "-o", out.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // Black for 20 frames at 30 fps: the first visible frame is at 0.667 s.
        #expect(r.stderr.contains("still: the first frame that is not black or blank is at 0:00.6"), "\(r.stderr)")
        let px = try Self.png(out)
        #expect(px.width == 320 && px.height == 240)
        #expect(VideoFixtures.near(VideoFixtures.middle(px), (255, 0, 0)), "red, not black: \(VideoFixtures.middle(px))")
        // The same frame as --at 0.667 gives (the first red frame, frame 20).
        let at = folder.file("at.png")
        #expect(try CLI.run(["still", video.path, "--at", "0.667", "-o", at.path]).status == 0)
        #expect(psnr(px, try Self.png(at)) == .infinity, "the first visible frame is frame 20")
    }

    /// A photo is saved upright, as its EXIF orientation says (FFmpeg would read a JPEG as a sideways
    /// one-frame video); a contact sheet of a photo is refused, pointing here.
    @Test func aPhotoIsSavedUprightAndAContactSheetOfOneIsRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        // Stored 72×96, red on the left, blue on the right; orientation 6 turns it a quarter clockwise,
        // so it shows 96×72 with red on top.
        let stored = RGBAPicture(width: 72, height: 96) { x, _ in x < 36 ? (230, 20, 20, 255) : (20, 20, 230, 255) }
        let photo = folder.file("turned.jpg")
        try FixtureJPEG.data(stored, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 6))]).write(to: photo)
        let out = folder.file("upright.png")
        let r = try CLI.run(["still", photo.path, "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let px = try Image(contentsOf: out).pixels()
        #expect(px.width == 96 && px.height == 72, "\(px.width)x\(px.height)")
        let top = meanColor(px, x: 48, y: 12), bottom = meanColor(px, x: 48, y: 60)
        #expect(top.r > 180 && top.b < 80 && bottom.b > 180 && bottom.r < 80, "top \(top), bottom \(bottom)")
        try VideoFixtures.expectError(["still", photo.path, "--at", "2", "-o", folder.file("x.png").path], naming: ["is a photo", "leave out --at"], status: 64)
        try VideoFixtures.expectError(["contact-sheet", photo.path, "-o", folder.file("sheet.png").path], naming: ["is a photo", "moviemaker still"], status: 64)
    }

    @Test func badTimesFilesAndDestinationsAreClearErrors() throws {
        guard CLI.isBuilt else { return }
        let (folder, video) = try Self.movie()
        let out = folder.file("thumb.png")
        try VideoFixtures.expectError(["still", video.path, "--at", "-1", "-o", out.path], naming: ["'-1'", "--at", "cannot be negative"], status: 64)
        try VideoFixtures.expectError(["still", video.path, "--at", "2", "-o", out.path], naming: ["--at 2", "past the end", "2.000 s"], status: 64)
        // A one-frame clip's end is said to the millisecond, not rounded to 0:00.0.
        let one = folder.file("one.mp4")
        try VideoFixtures.write(Clip.color(.red, duration: Time(value: 1, timescale: 30)), to: one)
        try VideoFixtures.expectError(["still", one.path, "--at", "0.5", "-o", out.path], naming: ["lasts 0.033 s", "its last frame starts at 0.000 s"], status: 64)
        try VideoFixtures.expectError(["still", video.path, "--at", "soon", "-o", out.path], naming: ["'soon'", "0:04.2"], status: 64)
        try VideoFixtures.expectError(["still", video.path, "--at", "0:75", "-o", out.path], naming: ["'0:75'"], status: 64)
        try VideoFixtures.expectError(["still", video.path, "-o", folder.file("thumb.mp4").path], naming: ["-o thumb.png"], status: 64)
        try VideoFixtures.expectError(["still", folder.file("none.mp4").path, "-o", out.path], naming: ["none.mp4: no such file"], status: 64)
        let text = folder.file("text.mp4")
        try "not a video".write(to: text, atomically: true, encoding: .utf8)
        try VideoFixtures.expectError(["still", text.path, "-o", out.path], naming: [text.path, "cannot read"], status: 64)
        let target = geteuid() == 0 ? "/proc" : "/"
        try VideoFixtures.expectError(["still", video.path, "-o", target + "/thumb.png"], naming: [target, "cannot write"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // A failed still leaves an existing file as it was.
        let before = try plantExistingFile(out)
        try VideoFixtures.expectError(["still", video.path, "--at", "9", "-o", out.path], naming: ["past the end"], status: 64)
        #expect(try Data(contentsOf: out) == before)
    }
}

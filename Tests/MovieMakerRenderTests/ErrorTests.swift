import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Every error says what went wrong, and no failed render leaves a file behind or touches an existing one.
@Suite struct ErrorTests {
    private func expectError(_ expected: MovieMakerError, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
        } catch let e as MovieMakerError {
            #expect(e == expected, sourceLocation: sourceLocation)
            #expect(!e.description.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Checks that after a failure the folder holds only the planted file, unchanged.
    private func expectUntouched(_ dir: TemporaryFolder, _ url: URL, _ original: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(dir.contents == [url.lastPathComponent], "left behind: \(dir.contents)", sourceLocation: sourceLocation)
        #expect((try? Data(contentsOf: url)) == original, "the existing file was changed", sourceLocation: sourceLocation)
    }

    @Test func rejectsZeroAndNegativeSizes() throws {
        let dir = try TemporaryFolder()
        expectError(.invalidSize(width: 0, height: 240)) { _ = try MovieMaker(url: dir.file("a.mp4"), width: 0, height: 240) }
        expectError(.invalidSize(width: 320, height: -2)) { _ = try MovieMaker(url: dir.file("a.mp4"), width: 320, height: -2) }
        #expect(dir.contents.isEmpty)
    }

    @Test func rejectsOddSizesSayingWhy() throws {
        let dir = try TemporaryFolder()
        expectError(.oddSize(width: 321, height: 240)) { _ = try MovieMaker(url: dir.file("a.mp4"), width: 321, height: 240) }
        #expect(MovieMakerError.oddSize(width: 321, height: 240).description.contains("4:2:0"))
        #expect(MovieMakerError.oddSize(width: 321, height: 240).description.contains("322×240"))
        #expect(dir.contents.isEmpty)
    }

    @Test func padsOddSizesWhenAsked() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("odd.mp4")
        let movie = try MovieMaker(url: url, width: 321, height: 241, fps: 30, settings: EncoderSettings(oddSizePolicy: .pad))
        #expect(movie.currentPixels().width == 321)
        try movie.addFrames(count: 3) { ctx, _ in ctx.setFill(.white); ctx.fillRect(ctx.bounds) }
        let summary = try movie.finish()
        #expect(summary.width == 322 && summary.height == 242, "the summary gives the encoded size: \(summary.width)×\(summary.height)")
        let frames = try decodeAll(url)
        #expect(frames.count == 3)
        let p = try #require(frames.last).pixels
        #expect(p.width == 322 && p.height == 242)
        #expect(meanColor(p, x: 160, y: 120).r > 250)              // drawn area: white
        #expect(p.rgba(x: 321, y: 100).red < 30)                    // padding column: black
        #expect(p.rgba(x: 100, y: 241).red < 30)                    // padding row: black
    }

    @Test func rejectsHugeSizes() throws {
        let dir = try TemporaryFolder()
        expectError(.sizeTooLarge(width: 20000, height: 1080, maxSide: 8192, maxPixels: 139_264 * 256)) {
            _ = try MovieMaker(url: dir.file("a.mp4"), width: 20000, height: 1080)
        }
        expectError(.sizeTooLarge(width: 8192, height: 8192, maxSide: 8192, maxPixels: 139_264 * 256)) {
            _ = try MovieMaker(url: dir.file("a.mp4"), width: 8192, height: 8192)
        }
    }

    @Test func rejectsNonPositiveFrameRates() throws {
        let dir = try TemporaryFolder()
        #expect(FrameRate(numerator: 0) == nil)
        #expect(FrameRate(numerator: -30, denominator: 1) == nil)
        #expect(FrameRate(numerator: 30, denominator: 0) == nil)
        expectError(.invalidFrameRate("0/1")) { _ = try MovieMaker(url: dir.file("a.mp4"), width: 320, height: 240, fpsNumerator: 0) }
        expectError(.invalidFrameRate("-25/1")) { _ = try MovieMaker(url: dir.file("a.mp4"), width: 320, height: 240, fpsNumerator: -25) }
        #expect(dir.contents.isEmpty)
    }

    @Test func rejectsBadEncoderSettings() throws {
        let dir = try TemporaryFolder()
        expectError(.invalidSetting(.crf, value: "60", expected: "0…51 (18 is visually lossless, 23 is x264's default)")) {
            _ = try MovieMaker(url: dir.file("a.mp4"), width: 320, height: 240, settings: EncoderSettings(crf: 60))
        }
        #expect(dir.contents.isEmpty)
    }

    @Test func reportsAMissingDestinationFolder() throws {
        let dir = try TemporaryFolder()
        let missing = dir.url.appendingPathComponent("no/such/folder")
        expectError(.destinationFolderMissing(path: missing.path)) {
            _ = try MovieMaker(url: missing.appendingPathComponent("a.mp4"), width: 320, height: 240)
        }
    }

    @Test func reportsAnUnwritableDestinationFolder() throws {
        // /proc refuses new files even for root (CI runs as root, where chmod would not stop it).
        do {
            _ = try MovieMaker(url: URL(fileURLWithPath: "/proc/movie.mp4"), width: 320, height: 240)
            Issue.record("writing into /proc succeeded")
        } catch {
            guard error.code == .destinationNotWritable, let path = error.location?.file, let reason = error.reason else { Issue.record("got \(error)"); return }
            #expect(path == "/proc")
            #expect(!reason.isEmpty)
        }
        if getuid() != 0 {
            let dir = try TemporaryFolder()
            let locked = dir.file("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            #expect(throws: MovieMakerError.self) { _ = try MovieMaker(url: locked.appendingPathComponent("a.mp4"), width: 320, height: 240) }
        }
    }

    @Test func reportsADestinationThatIsAFolder() throws {
        let dir = try TemporaryFolder()
        try FileManager.default.createDirectory(at: dir.file("movie.mp4"), withIntermediateDirectories: false)
        #expect(throws: MovieMakerError.destinationNotWritable(path: dir.file("movie.mp4").path, reason: "a folder has that name")) {
            _ = try MovieMaker(url: dir.file("movie.mp4"), width: 320, height: 240)
        }
    }

    /// The finished movie is renamed into place: through a link to /dev/null (made to throw the output away,
    /// as root in a CI container) it replaced the device with a plain file.
    @Test("a destination that is a named pipe, or a link to one, is refused before the first frame and stays a pipe")
    func refusesADestinationThatIsAPipe() throws {
        let dir = try TemporaryFolder()
        let pipe = dir.file("pipe.mp4"), link = dir.file("link.mp4")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: pipe)
        for url in [pipe, link] {
            #expect(throws: MovieMakerError.destinationNotWritable(path: pipe.path, reason: "a named pipe has that name, which the finished movie would replace")) {
                _ = try MovieMaker(url: url, width: 320, height: 240)
            }
        }
        var info = stat()
        #expect(stat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a pipe")
    }

    @Test("a still or sound file written through a link to a named pipe is refused, and the pipe stays a pipe")
    func filesWrittenWholeRefuseAPipe() throws {
        let dir = try TemporaryFolder()
        let pipe = dir.file("pipe"), still = dir.file("still.png"), sound = dir.file("tone.wav")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(at: still, withDestinationURL: pipe)
        try FileManager.default.createSymbolicLink(at: sound, withDestinationURL: pipe)
        let refused = { (error: any Error) -> Bool in
            guard let e = error as? MovieMakerError, e.code == .destinationNotWritable else { return false }
            return e.message.contains("a named pipe has that name")
        }
        #expect { try Clip.color(.red, duration: 1).writeStill(at: 0, width: 32, height: 32, to: still) } throws: { refused($0) }
        #expect { try ProceduralSound.tone(frequency: 440, amplitude: 0.1, duration: 0.1).writeWAV(to: sound) } throws: { refused($0) }
        var info = stat()
        #expect(stat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a pipe")
        #expect(dir.contents.sorted() == ["pipe", "still.png", "tone.wav"], "no partial file left: \(dir.contents)")
    }

    @Test(arguments: ["avi", "tiff", "", "MP5"])
    func rejectsUnknownExtensions(ext: String) throws {
        let dir = try TemporaryFolder()
        let name = ext.isEmpty ? "movie" : "movie.\(ext)"
        expectError(.unsupportedContainer(extension: ext, supported: ["mp4", "m4v", "mov", "mkv", "webm", "gif", "apng", "webp"])) {
            _ = try MovieMaker(url: dir.file(name), width: 320, height: 240)
        }
        #expect(MovieMakerError.unsupportedContainer(extension: ext, supported: Container.supportedExtensions).description.contains(".mp4"))
        #expect(dir.contents.isEmpty)
    }

    @Test func reportsAMissingEncoder() throws {
        let dir = try TemporaryFolder()
        #expect(throws: MovieMakerError.encoderUnavailable(name: "libx265-not-built")) {
            _ = try VideoEncoder(path: dir.file("a.mp4").path, container: .mp4, width: 320, height: 240, rate: 30,
                                 settings: EncoderSettings(), encoderName: "libx265-not-built")
        }
    }

    @Test func reportsFFmpegFailuresWithFFmpegsMessage() throws {
        do {
            _ = try VideoEncoder(path: "/nonexistent-folder/a.mp4", container: .mp4, width: 320, height: 240, rate: 30, settings: EncoderSettings())
            Issue.record("opening a file in a missing folder succeeded")
        } catch {
            guard let ff = error.underlying as? FFmpegError, case let (op, code, message) = (ff.operation, ff.code, ff.message) else { Issue.record("got \(error)"); return }
            #expect(op.hasPrefix("avio_open"))
            #expect(code < 0)
            #expect(message == "No such file or directory")
        }
        let dir = try TemporaryFolder()
        let notAMovie = dir.file("notes.mp4")
        try Data("just text".utf8).write(to: notAMovie)
        #expect(throws: MovieMakerError.movieUnreadable(path: notAMovie.path, reason: "Invalid data found when processing input")) {
            _ = try MovieReader(url: notAMovie)
        }
    }

    @Test func reportsCairoFailuresWithCairosMessageAndDiscardsTheRender() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("movie.mp4")
        let original = try plantExistingFile(url)
        let movie = try MovieMaker(url: url, width: 320, height: 240)
        try movie.addFrame { ctx in ctx.clear(.black) }
        do {
            try movie.addFrame { ctx in ctx.setLineDash([-1, 2]); ctx.strokeRect(Rect(x: 1, y: 1, width: 5, height: 5)) }
            Issue.record("a negative dash length was accepted")
        } catch let e as MovieMakerError {
            #expect(e == .cairo(operation: "drawing", message: "invalid value (typically too big) for a dash setting") || e.description.contains("dash"), "\(e)")
        }
        expectUntouched(dir, url, original)
        #expect(throws: MovieMakerError.self) { try movie.addFrame { _ in } }
    }

    @Test func reportsAnUnreadableImageByName() throws {
        let dir = try TemporaryFolder()
        let fake = dir.file("photo.png")
        try Data("not a png".utf8).write(to: fake)
        do {
            _ = try Image(contentsOf: fake)
            Issue.record("a text file loaded as a PNG")
        } catch {
            guard error.code == .imageUnreadable, let path = error.location?.file, let reason = error.reason else { Issue.record("got \(error)"); return }
            #expect(path == fake.path)
            #expect(!reason.isEmpty)
        }
        #expect(throws: MovieMakerError.imageUnreadable(path: dir.file("missing.png").path, reason: "no such file")) {
            _ = try Image(contentsOf: dir.file("missing.png"))
        }
        #expect(throws: MovieMakerError.fontUnreadable(path: fake.path, reason: "fontconfig cannot read it as a font (expected a .ttf, .otf or .ttc file)")) {
            _ = try Font(contentsOf: fake, size: 12)
        }
    }

    /// A newcomer loading a JPEG logo with `Image(contentsOf:)` (PNG only) is told the call that reads it,
    /// and that call does read it.
    @Test func aJPEGGivenToImageNamesTheCallThatReadsIt() throws {
        let dir = try TemporaryFolder()
        let logo = dir.file("logo.jpg")
        try FixtureJPEG.data(RGBAPicture.quadrants(width: 16, height: 16)).write(to: logo)
        do {
            _ = try Image(contentsOf: logo)
            Issue.record("a JPEG loaded as a PNG")
        } catch {
            #expect(error.code == .imageUnreadable && error.location?.file == logo.path, "\(error)")
            #expect(error.reason?.contains("PhotoDecoder.decode(url).image") == true, "\(error)")
        }
        let image = try PhotoDecoder.decode(logo).image
        #expect(image.width == 16 && image.height == 16)
    }
    @Test func refusesFramesAfterFinishAndASecondFinish() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("done.mp4")
        let movie = try MovieMaker(url: url, width: 320, height: 240)
        try movie.addFrame { ctx in ctx.clear(.blue) }
        try movie.finish()
        let written = try Data(contentsOf: url)
        expectError(.frameAfterFinish) { try movie.addFrame { ctx in ctx.clear(.red) } }
        expectError(.frameAfterFinish) { try movie.addFrames(count: 2) { _, _ in } }
        expectError(.alreadyFinished) { try movie.finish() }
        #expect(try Data(contentsOf: url) == written, "the finished movie changed")
        #expect(try MovieReader(url: url).decodedFrameCount() == 1)
    }

    @Test func refusesToFinishWithZeroFramesAndWritesNothing() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("empty.mp4")
        let original = try plantExistingFile(url)
        let movie = try MovieMaker(url: url, width: 320, height: 240)
        expectError(.noFrames) { try movie.finish() }
        expectUntouched(dir, url, original)
    }

    struct DrawingFailed: Error {}

    @Test func aThrowingDrawingClosureLeavesNoFileAndKeepsTheExistingOne() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("movie.mp4")
        let original = try plantExistingFile(url)
        let movie = try MovieMaker(url: url, width: 320, height: 240)
        #expect(throws: DrawingFailed.self) {
            try movie.addFrames(count: 30) { ctx, f in
                ctx.clear(.green)
                if f.index == 20 { throw DrawingFailed() }
            }
        }
        expectUntouched(dir, url, original)
        #expect(throws: MovieMakerError.self) { try movie.finish() }
        expectUntouched(dir, url, original)
    }

    @Test func anAbandonedRenderLeavesNoFileAndKeepsTheExistingOne() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("movie.mp4")
        let original = try plantExistingFile(url)
        do {
            let movie = try MovieMaker(url: url, width: 320, height: 240)
            try movie.addFrames(count: 10) { ctx, _ in ctx.clear(.red) }
            #expect(dir.contents.count == 2, "the partial file should exist beside the destination while rendering")
            // dropped here without finish()
        }
        expectUntouched(dir, url, original)

        let cancelled = try MovieMaker(url: url, width: 320, height: 240)
        try cancelled.addFrames(count: 10) { ctx, _ in ctx.clear(.red) }
        cancelled.cancel()
        expectUntouched(dir, url, original)
        #expect(throws: MovieMakerError.self) { try cancelled.finish() }
    }

    @Test func aSuccessfulRenderReplacesTheExistingFile() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("movie.mp4")
        _ = try plantExistingFile(url)
        let movie = try MovieMaker(url: url, width: 320, height: 240)
        try movie.addFrames(count: 5) { ctx, _ in ctx.clear(.red) }
        try movie.finish()
        #expect(dir.contents == ["movie.mp4"])
        #expect(try MovieReader(url: url).decodedFrameCount() == 5)
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `moviemaker slideshow`, run as a subprocess: the film it writes (decoded) and its errors.
@Suite("moviemaker slideshow")
struct SlideshowCommandTests {
    /// A folder with JPEGs named so that natural order differs from plain string order (p2 before p10):
    /// p1 red, p2 green (stored sideways, EXIF orientation 6), p10 blue; each a solid colour.
    static func photoFolder() throws -> (TemporaryFolder, colors: [(String, (Double, Double, Double))]) {
        let folder = try TemporaryFolder()
        func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, w: Int = 96, h: Int = 72) -> RGBAPicture {
            RGBAPicture(width: w, height: h) { _, _ in (r, g, b, 255) }
        }
        try FixtureJPEG.data(solid(230, 20, 20)).write(to: folder.file("p1.jpg"))
        try FixtureJPEG.data(solid(20, 200, 20, w: 72, h: 96), markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 6))])
            .write(to: folder.file("p2.jpg"))
        try FixtureJPEG.data(solid(20, 20, 230)).write(to: folder.file("p10.jpg"))
        return (folder, [("p1", (230, 20, 20)), ("p2", (20, 200, 20)), ("p10", (20, 20, 230))])
    }

    static func mean(_ px: PixelBuffer) -> (Double, Double, Double) {
        TestPhotos.mean(px, x: 100..<220, y: 80..<160)
    }

    @Test func rendersTheFolderInNaturalOrderWithBlendedTransitionsAndASummary() throws {
        guard CLI.isBuilt else { return }
        let (folder, colors) = try Self.photoFolder()
        try "not a photo".write(to: folder.file("notes.jpg"), atomically: true, encoding: .utf8)
        let movie = folder.file("trip.mp4")
        let r = try CLI.run(["slideshow", folder.url.path, "--size", "320x240", "--fps", "20", "--duration", "1",
                             "--transition", "fade", "--transition-duration", "0.5", "--fit", "fill", "--no-ken-burns", "-o", movie.path],
                            environment: ["CI": "1"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // The text file is skipped with a warning naming it, and listed in the summary.
        #expect(r.stderr.contains("moviemaker: warning: skipping \(folder.file("notes.jpg").path): not an image"), "\(r.stderr)")
        #expect(r.stdout.contains("3 photos used, 1 skipped") && r.stdout.contains("notes.jpg"), "summary: \(r.stdout)")
        #expect(r.stdout.contains(movie.path) && r.stdout.contains("60 frames"), "summary: \(r.stdout)")
        #expect(r.stderr.contains("slideshow \(movie.path): 100% (60/60 frames)"), "progress lines in CI: \(r.stderr)")

        let frames = try decodeAll(movie)
        #expect(frames.count == 60, "3 photos × 1 s at 20 fps")
        // Photo k fills frames 20k…20k+19; after the first, its first 10 frames are the fade in.
        for (k, (name, c)) in colors.enumerated() {
            for f in [20 * k + 12, 20 * k + 19] {
                let m = Self.mean(frames[f].pixels)
                #expect(abs(m.0 - c.0) < 14 && abs(m.1 - c.1) < 14 && abs(m.2 - c.2) < 14, "frame \(f) should show \(name): \(m)")
            }
        }
        // Half way through each fade the picture is a mix of both neighbours.
        for (k, f) in [25, 45].enumerated() {
            let m = Self.mean(frames[f].pixels), a = colors[k].1, b = colors[k + 1].1
            let expected = ((a.0 + b.0) / 2, (a.1 + b.1) / 2, (a.2 + b.2) / 2)
            #expect(abs(m.0 - expected.0) < 30 && abs(m.1 - expected.1) < 30 && abs(m.2 - expected.2) < 30,
                    "frame \(f): \(m), expected about \(expected)")
        }
    }

    @Test func filesKeepTheGivenOrderAndOrderNameSortsThemNaturally() throws {
        guard CLI.isBuilt else { return }
        let (folder, colors) = try Self.photoFolder()
        let files = ["p10.jpg", "p1.jpg"].map { folder.file($0).path }
        for (extra, expected) in [([String](), [colors[2], colors[0]]), (["--order", "name"], [colors[0], colors[2]])] {
            let movie = folder.file("files\(extra.count).mp4")
            let r = try CLI.run(["slideshow"] + files + extra + ["--size", "320x240", "--fps", "10", "--duration", "1",
                                                                 "--transition", "none", "--no-ken-burns", "-q", "-o", movie.path])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stderr.isEmpty && r.stdout.split(separator: "\n").count == 1 && r.stdout.hasPrefix(movie.path + ": "),
                    "--quiet prints the summary line only: \(r.stdout) \(r.stderr)")
            let frames = try decodeAll(movie)
            #expect(frames.count == 20)
            for (k, (name, c)) in expected.enumerated() {
                let m = Self.mean(frames[10 * k + 5].pixels)
                #expect(abs(m.0 - c.0) < 14 && abs(m.2 - c.2) < 14, "\(extra): slot \(k) should show \(name): \(m)")
            }
        }
    }

    func expectError(_ arguments: [String], naming named: [String], status: Int32,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try CLI.run(["slideshow"] + arguments)
        #expect(r.status == status, "\(arguments): status \(r.status), stderr \(r.stderr)", sourceLocation: sourceLocation)
        let errors = r.stderrLines.filter { $0.hasPrefix("moviemaker: error: ") }
        #expect(errors.count == 1, "one error line: \(r.stderr)", sourceLocation: sourceLocation)
        for name in named {
            #expect(r.stderr.contains(name), "\(r.stderr) does not name \(name)", sourceLocation: sourceLocation)
        }
        #expect(r.stdout.isEmpty, "stdout: \(r.stdout)", sourceLocation: sourceLocation)
    }

    @Test func emptyFolderAndFoldersWithoutPhotosAreClearErrors() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let empty = folder.url.appendingPathComponent("empty"), texts = folder.url.appendingPathComponent("texts"),
            broken = folder.url.appendingPathComponent("broken")
        for f in [empty, texts, broken] { try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true) }
        try "hello".write(to: texts.appendingPathComponent("readme.txt"), atomically: true, encoding: .utf8)
        try "hello".write(to: broken.appendingPathComponent("photo.jpg"), atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        try expectError([empty.path, "-o", out.path], naming: [empty.path, "the folder is empty"], status: 64)
        try expectError([texts.path, "-o", out.path], naming: [texts.path, "none of its 1 file has a photo extension"], status: 64)
        try expectError([broken.path, "-o", out.path], naming: [broken.path, "unreadable"], status: 64)
        try expectError([folder.url.appendingPathComponent("missing").path, "-o", out.path], naming: ["missing: no such file or folder"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func unwritableOutputIsRefusedBeforeAnyWork() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        // Root may write anywhere on disk; /proc refuses new files even to root.
        let locked = folder.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
        let target = geteuid() == 0 ? "/proc" : locked.path
        try expectError([folder.url.path, "-o", target + "/trip.mp4"], naming: [target, "cannot write"], status: 64)
        try expectError([folder.url.path, "-o", folder.url.appendingPathComponent("nowhere/trip.mp4").path], naming: ["nowhere"], status: 64)
        try expectError([folder.url.path, "-o", folder.file("trip.png").path], naming: ["a slideshow is a movie"], status: 64)
    }

    @Test func unknownTransitionListsTheKnownOnes() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        try expectError([folder.url.path, "--transition", "sparkle", "-o", folder.file("t.mp4").path],
                        naming: ["\"sparkle\"", "fade", "wipeleft", "slideup", "circleopen", "dissolve", "zoomin"], status: 64)
        try expectError([folder.url.path, "--fit", "stretch", "-o", folder.file("t.mp4").path], naming: ["'stretch'", "fill", "blur"], status: 64)
        try expectError([folder.url.path, "--transition-duration", "3", "-o", folder.file("t.mp4").path], naming: ["--transition-duration"], status: 64)
    }

    @Test func strictStopsAtTheFirstUnreadablePhotoAndWritesNothing() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        let good = try Data(contentsOf: folder.file("p1.jpg"))
        try good.prefix(good.count / 2).write(to: folder.file("p5.jpg"))   // header intact, data cut short
        let movie = folder.file("strict.mp4")
        try Data("keep me".utf8).write(to: movie)
        try expectError([folder.url.path, "--strict", "--size", "320x240", "-o", movie.path], naming: ["p5.jpg", "truncated"], status: 64)
        #expect(try Data(contentsOf: movie) == Data("keep me".utf8), "an existing file is left as it was")
        // Without --strict the same folder renders, skipping p5.
        let r = try CLI.run(["slideshow", folder.url.path, "--size", "160x120", "--duration", "0.5", "--transition-duration", "0.2", "-o", movie.path])
        #expect(r.status == 0 && r.stdout.contains("3 photos used, 1 skipped") && r.stdout.contains("p5.jpg"), "\(r.stdout) \(r.stderr)")
        #expect(try decodeAll(movie).count == 45)
    }
}

/// `moviemaker slideshow --music`: the sound track in the film.
@Suite("moviemaker slideshow --music")
struct SlideshowMusicCommandTests {
    @Test func musicIsLoopedToTheFilmAndNormalisedToTheTarget() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try SlideshowCommandTests.photoFolder()
        let wav = folder.file("song.wav")
        try AudioInTesting.makeWAV(wav, seconds: 1.5)
        for (target, extra) in [(-16.0, ["--music-volume", "-3"]), (-23.0, ["--loudness", "-23"])] {
            let movie = folder.file("music\(Int(-target)).mp4")
            let r = try CLI.run(["slideshow", folder.url.path, "--size", "160x120", "--duration", "2", "--transition-duration", "0.5",
                                 "--music", wav.path, "--normalize"] + extra + ["-o", movie.path], environment: ["CI": "1"])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let streams = try probeStreams(movie)
            let v = double(streams["video"], "duration") ?? .nan, a = double(streams["audio"], "duration") ?? .nan
            #expect(abs(v - 6) < 0.001 && abs(a - v) <= 1.0 / 30, "video \(v) s, audio \(a) s")
            // ffmpeg's EBU R128 meter as the second opinion on the loudness.
            let m = try run(FFTools.ffmpeg, ["-hide_banner", "-nostats", "-i", movie.path, "-map", "0:a", "-af", "ebur128=peak=true", "-f", "null", "-"])
            let summary = m.stderr.components(separatedBy: "Summary:").last ?? ""
            let numbers = summary.split(separator: "\n").compactMap { line -> (String, Double)? in
                let parts = line.split(separator: ":")
                guard parts.count == 2, let v = Double(parts[1].split(separator: " ").first ?? "") else { return nil }
                return (parts[0].trimmingCharacters(in: .whitespaces), v)
            }
            let integrated = try #require(numbers.first { $0.0 == "I" }?.1, "no integrated loudness in \(summary)")
            #expect(abs(integrated - target) <= 1, "integrated loudness \(integrated) LUFS, target \(target)")
            // Looped: sound all the way to the last second.
            let decoded = try decodeAudio(movie, in: folder)
            let tail = decoded.samples[(48_000 * 4)..<(48_000 * 5)]
            #expect((tail.map { Double($0 * $0) }.reduce(0, +) / Double(tail.count)).squareRoot() > 0.02, "music still playing at 4–5 s")
        }
    }

    @Test func aBrokenMusicFileStopsTheRunBeforeAnyWork() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try SlideshowCommandTests.photoFolder()
        let bad = folder.file("song.mp3")
        try "not music".write(to: bad, atomically: true, encoding: .utf8)
        let movie = folder.file("never.mp4")
        let r = try CLI.run(["slideshow", folder.url.path, "--music", bad.path, "-o", movie.path], environment: ["CI": "1"])
        #expect(r.status == 64, "a music file that is not music is bad input")
        #expect(r.stderr.hasPrefix("moviemaker: error: ") && r.stderr.contains(bad.path), "\(r.stderr)")
        #expect(!r.stderr.contains("checking"), "fails before the photos are checked: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie.path))
        let missing = try CLI.run(["slideshow", folder.url.path, "--music", folder.file("nope.mp3").path, "-o", movie.path])
        #expect(missing.status == 64 && missing.stderr.contains("nope.mp3: no such file"), "\(missing.stderr)")
        let normalizeAlone = try CLI.run(["slideshow", folder.url.path, "--normalize", "-o", movie.path])
        #expect(normalizeAlone.status == 64 && normalizeAlone.stderr.contains("--music"), "\(normalizeAlone.stderr)")
    }
}

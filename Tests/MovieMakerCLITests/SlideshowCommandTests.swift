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

    @Test("--order date says which photos have no capture date (they keep name order), and says nothing without --order date")
    func orderDateNamesTheUndatedPhotos() throws {
        guard CLI.isBuilt else { return }
        let (folder, colors) = try Self.photoFolder()
        let dated = try CLI.run(["slideshow", folder.url.path, "--order", "date", "--dry-run", "-o", folder.file("x.mp4").path])
        // p2 carries an EXIF date; p1 and p10 have none.
        #expect(dated.status == 0 && dated.stderr.contains("--order date: 2 of the 3 photos have no capture date")
                && dated.stderr.contains("(\(colors[0].0).jpg, \(colors[2].0).jpg)"), "\(dated.stderr)")
        let plain = try CLI.run(["slideshow", folder.url.path, "--dry-run", "-o", folder.file("x.mp4").path])
        #expect(plain.status == 0 && !plain.stderr.contains("capture date"), "\(plain.stderr)")
    }

    @Test("beat options without --cut-on beats, and music with no beat to cut on, are refused with the fix")
    func beatOptionsNeedABeat() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        for extra in [["--every", "4"], ["--min-shot", "3"]] {
            let r = try CLI.run(["slideshow", folder.url.path, "--dry-run", "-o", folder.file("x.mp4").path] + extra)
            #expect(r.status == 64 && r.stderr.contains("\(extra[0]) is for cuts on the beat: add --cut-on beats"), "\(extra): \(r.stderr)")
        }
        try ProceduralSound(duration: 8) { t in 0.3 * sin(2 * .pi * 440 * t) }.writeWAV(to: folder.file("tone.wav"), sampleFormat: .int16)
        let tone = try CLI.run(["slideshow", folder.url.path, "--cut-on", "beats", "--music", folder.file("tone.wav").path, "-o", folder.file("x.mp4").path])
        #expect(tone.status == 64 && tone.stderr.contains("has no steady beat to cut on") && tone.stderr.contains("tone.wav")
                && tone.stderr.contains("leave out --cut-on beats") && tone.stderr.contains("a held tone"), "\(tone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.mp4").path))
        // A transition as long as --duration's default is no mistake when the beats set the photos' times.
        let long = try CLI.run(["slideshow", folder.url.path, "--cut-on", "beats", "--min-shot", "4", "--transition-duration", "3",
                                "--music", folder.file("tone.wav").path, "-o", folder.file("x.mp4").path])
        #expect(long.status == 64 && !long.stderr.contains("must be shorter than --duration") && long.stderr.contains("has no steady beat"), "\(long.stderr)")
        // Clicks too short for a tempo are said to be too short, not to have no pulse.
        try ProceduralSound(duration: 4) { t in t.truncatingRemainder(dividingBy: 0.5) < 0.01 ? 0.8 : 0 }.writeWAV(to: folder.file("short.wav"), sampleFormat: .int16)
        let short = try CLI.run(["beats", folder.file("short.wav").path])
        #expect(short.stdout.contains("no steady beat found: it lasts 4.0 s, too short for aubio to find a tempo"), "\(short.stdout)\(short.stderr)")
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
            // Warnings (these 96×72 photos are shown 3.3× larger) are not progress: --quiet keeps them.
            let progressLines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("moviemaker: warning: ") }
            #expect(progressLines.isEmpty && r.stdout.split(separator: "\n").count == 1 && r.stdout.hasPrefix(movie.path + ": "),
                    "--quiet prints the summary line and warnings only: \(r.stdout) \(r.stderr)")
            let frames = try decodeAll(movie)
            #expect(frames.count == 20)
            for (k, (name, c)) in expected.enumerated() {
                let m = Self.mean(frames[10 * k + 5].pixels)
                #expect(abs(m.0 - c.0) < 14 && abs(m.2 - c.2) < 14, "\(extra): slot \(k) should show \(name): \(m)")
            }
        }
    }

    @Test func aFileNamedBeforeAFolderStaysFirstAndTheFolderKeepsItsOwnOrder() throws {
        guard CLI.isBuilt else { return }
        let (folder, colors) = try Self.photoFolder()
        let album = folder.file("album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.file("p10.jpg"), to: album.appendingPathComponent("p10.jpg"))
        try FileManager.default.copyItem(at: folder.file("p1.jpg"), to: album.appendingPathComponent("p1.jpg"))
        try FileManager.default.copyItem(at: folder.file("p2.jpg"), to: folder.file("zz-cover.jpg"))
        let movie = folder.file("cover.mp4")
        let r = try CLI.run(["slideshow", folder.file("zz-cover.jpg").path, album.path, "--size", "320x240", "--fps", "10",
                             "--duration", "1", "--transition", "none", "--no-ken-burns", "-q", "-o", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 30)
        for (k, (name, c)) in [colors[1], colors[0], colors[2]].enumerated() where 10 * k + 5 < frames.count {
            let m = Self.mean(frames[10 * k + 5].pixels)
            #expect(abs(m.0 - c.0) < 14 && abs(m.1 - c.1) < 14 && abs(m.2 - c.2) < 14, "slot \(k) should show \(name): \(m)")
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

    /// Photos in folders inside the folder given were left out without a word, and a folder holding only
    /// folders was "none of its 2 files has a photo extension": both now name the folders and the fix.
    @Test("folders of photos inside the folder given are named, with the command that includes them")
    func photoFoldersInsideAreNamed() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        let trip = folder.url.appendingPathComponent("trip")
        for day in ["day1", "day2"] {
            let inner = trip.appendingPathComponent(day)
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: folder.file("p1.jpg"), to: inner.appendingPathComponent("a.jpg"))
        }
        try expectError([trip.path, "-o", folder.file("out.mp4").path],
                        naming: ["its photos are in 2 folders inside it (day1, day2)", "moviemaker slideshow \(trip.path)/*"], status: 64)
        try FileManager.default.copyItem(at: folder.file("p1.jpg"), to: trip.appendingPathComponent("top.jpg"))
        let r = try CLI.run(["slideshow", trip.path, "--dry-run", "-o", folder.file("out.mp4").path])
        #expect(r.status == 0 && r.stderr.contains("\(trip.path) holds 2 folders of photos a slideshow does not read (day1, day2)"), "\(r.stderr)")
        let all = try CLI.run(["slideshow", trip.appendingPathComponent("day1").path, trip.appendingPathComponent("day2").path, trip.appendingPathComponent("top.jpg").path,
                               "--dry-run", "-o", folder.file("out.mp4").path])
        #expect(all.status == 0 && all.stdout.contains("3 photos") && !all.stderr.contains("does not read"), "\(all.stdout) \(all.stderr)")
    }

    @Test func videosInAPhotoFolderAreNamedNotSilentlyLeftOut() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        let phone = folder.url.appendingPathComponent("phone")
        try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: true)
        for name in ["VID_2.mp4", "VID_10.MOV"] {
            try Data("not decoded: only the name counts".utf8).write(to: folder.file(name))
            try Data("not decoded: only the name counts".utf8).write(to: phone.appendingPathComponent(name))
        }
        let r = try CLI.run(["slideshow", folder.url.path, "--dry-run", "-o", folder.file("out.mp4").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(folder.url.path) holds 2 videos a slideshow does not show (VID_2.mp4, VID_10.MOV)")
                && r.stderr.contains("moviemaker stitch"), "\(r.stderr)")
        try expectError([phone.path, "-o", folder.file("out.mp4").path],
                        naming: ["holds 2 videos (VID_2.mp4, VID_10.MOV) and no photos", "moviemaker stitch \(phone.path)"], status: 64)
        // With a broken photo beside it, the error is about the photo, and the warning still names the videos.
        let broken = folder.file("broken.jpg")
        try Data("not a photo".utf8).write(to: broken)
        try expectError([phone.path, broken.path, "-o", folder.file("out.mp4").path],
                        naming: ["\(phone.path) holds 2 videos a slideshow does not show", "unreadable"], status: 64)
        // A phone's "Camera Roll": the suggested command quotes the folder, so it can be pasted.
        let roll = folder.url.appendingPathComponent("Camera Roll")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        try Data("not decoded".utf8).write(to: roll.appendingPathComponent("IMG_1.MOV"))
        try expectError([roll.path, "-o", folder.file("out.mp4").path], naming: ["`moviemaker stitch '\(roll.path)'`"], status: 64)
    }

    @Test func musicFadeOutOfZeroIsACutWrittenAnyWayAndFadeInIsAnOption() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        let song = folder.file("song.wav")
        try ProceduralSound(duration: 4) { t in 0.2 * sin(2 * .pi * 440 * t) }.writeWAV(to: song)
        for value in ["0", "0s", "0ms", "0.0"] {
            let r = try CLI.run(["slideshow", folder.url.path, "--music", song.path, "--music-fade-out", value, "--dry-run", "-o", folder.file("out.mp4").path])
            #expect(r.status == 0, "--music-fade-out \(value): \(r.stderr)")
        }
        let negative = try CLI.run(["slideshow", folder.url.path, "--music", song.path, "--music-fade-out", "-1s", "--dry-run", "-o", folder.file("out.mp4").path])
        #expect(negative.status == 64, "\(negative.stderr)")
        // The fade-in (0.5 s unless --music-fade-in says otherwise): 0 starts at full level, on the first downbeat.
        func firstTenth(_ extra: [String]) throws -> Double {
            let movie = folder.file("fade\(extra.count).mp4")
            let r = try CLI.run(["slideshow", folder.url.path, "--music", song.path, "--size", "160x120", "-d", "1", "-q", "-o", movie.path] + extra)
            try #require(r.status == 0, "\(r.stderr)")
            let sound = try decodeAudio(movie, in: folder)
            let head = sound.samples.prefix(sound.rate / 10)
            return (head.map { Double($0 * $0) }.reduce(0, +) / Double(max(1, head.count))).squareRoot()
        }
        let faded = try firstTenth([]), cut = try firstTenth(["--music-fade-in", "0"])
        #expect(cut > 0.12 && faded < cut / 2, "first 0.1 s: \(faded) faded in, \(cut) without (the song's level is 0.141)")
        // Options that would do nothing are said to.
        let idle = try CLI.run(["slideshow", folder.url.path, "--loudness", "-23", "--music-volume", "-6", "--dry-run", "-o", folder.file("out.mp4").path])
        #expect(idle.status == 0 && idle.stderr.contains("--loudness is the target of --normalize") && idle.stderr.contains("--music-volume sets the level of --music"),
                "\(idle.stderr)")
    }

    /// Warnings go to standard error whatever -q says: a caption naming no photo among them; and a photo named twice.
    @Test func aCaptionNamingNoPhotoIsWarnedEvenWhenQuiet() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        let captions = folder.file("captions.csv")
        try "file,text\nnomatch.jpg,Hello\n".write(to: captions, atomically: true, encoding: .utf8)
        for quiet in [[], ["-q"]] {
            let r = try CLI.run(["slideshow", folder.url.path, "--captions", captions.path, "--dry-run", "-o", folder.file("out.mp4").path] + quiet)
            #expect(r.status == 0 && r.stderr.contains("no photo named nomatch.jpg"), "\(quiet): \(r.stderr)")
        }
        // Two rows for one photo: the later is used, and both lines are named.
        try "file,text\np1.jpg,First\np2.jpg,Green\nP1.JPG,Second\n".write(to: captions, atomically: true, encoding: .utf8)
        let twice = try CLI.run(["slideshow", folder.url.path, "--captions", captions.path, "--dry-run", "-o", folder.file("out.mp4").path])
        #expect(twice.status == 0 && twice.stderr.contains("lines 2 and 4 both name p1.jpg: line 4 is used"), "\(twice.stderr)")
        #expect(!twice.stderr.contains("name p2.jpg"), "a photo named once is not warned about: \(twice.stderr)")
        // Date captions for photos without a capture date: none shows, and that is said.
        let dates = try CLI.run(["slideshow", folder.url.path, "--captions", "date", "--dry-run", "-q", "-o", folder.file("out.mp4").path])
        #expect(dates.status == 0 && dates.stderr.contains("warning: --captions date: 2 of the 3 photos have no capture date (EXIF DateTimeOriginal), so they show no caption (p1.jpg, p10.jpg)"), "\(dates.stderr)")
    }

    /// A song that cannot be read, has no sound or is too short to loop is named as --music, with what to do.
    @Test func unusableMusicIsNamedAsTheOption() throws {
        guard CLI.isBuilt else { return }
        let (folder, _) = try Self.photoFolder()
        let blip = folder.file("blip.wav"), notes = folder.file("notes.mp3"), silent = folder.file("silent.mp4")
        try ProceduralSound(duration: 0.01) { t in 0.2 * sin(2 * .pi * 440 * t) }.writeWAV(to: blip)
        try "not a song".write(to: notes, atomically: true, encoding: .utf8)
        try Clip.color(.red, duration: 0.2).render(to: silent, width: 64, height: 48, fps: 10)
        let out = folder.file("out.mp4")
        try expectError([folder.url.path, "--music", blip.path, "-o", out.path], naming: ["--music", "blip.wav", "too short to loop", "--no-music-loop"], status: 64)
        try expectError([folder.url.path, "--music", notes.path, "-o", out.path], naming: ["--music", "notes.mp3"], status: 64)
        try expectError([folder.url.path, "--music", silent.path, "-o", out.path], naming: ["--music", "silent.mp4", "no audio stream"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // Played once, the blip is fine.
        let once = try CLI.run(["slideshow", folder.url.path, "--music", blip.path, "--no-music-loop", "--size", "64x48", "-o", out.path])
        #expect(once.status == 0, "\(once.stderr)")
        #expect(try decodeAll(out).count > 0)
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
        try expectError([folder.url.path, "-o", folder.file("trip.avi").path], naming: ["avi"], status: 64)
    }

    /// Bright pixels (every channel ≥ `floor`) in a region: white text on the dark test photos and cards.
    static func ink(_ px: PixelBuffer, x: Range<Int>, y: Range<Int>, floor: UInt8 = 170) -> Int {
        var n = 0
        for yy in y { for xx in x { let c = px.rgba(x: xx, y: yy); if min(c.red, c.green, c.blue) >= floor { n += 1 } } }
        return n
    }

    /// Two dark photos, an MP3 of 9.3 s made by ffmpeg, and a captions.csv for them, in one folder.
    static func songFolder() throws -> (TemporaryFolder, song: URL, captions: URL) {
        let folder = try TemporaryFolder()
        _ = try TestPhotos.photo(Color(red8: 30, green8: 30, blue8: 110), "a.png", in: folder)
        _ = try TestPhotos.photo(Color(red8: 30, green8: 100, blue8: 30), "b.png", in: folder)
        let song = folder.file("song.mp3")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=9.3", "-c:a", "libmp3lame", "-b:a", "96k", song.path])
        let captions = folder.file("captions.csv")
        try "file,text\na.png,HHHH\nb,\"Sunny, warm\"\n".write(to: captions, atomically: true, encoding: .utf8)
        return (folder, song, captions)
    }

    @Test func durationAutoMakesTheFilmAsLongAsTheSongWithCardsAndCaptionsFromAFile() throws {
        guard CLI.isBuilt else { return }
        let (folder, song, captions) = try Self.songFolder()
        let songLength = try #require(try AudioFile(url: song).duration)
        #expect(abs(songLength.seconds - 9.3) < 0.1, "the fixture song: \(songLength.seconds) s")
        let movie = folder.file("trip.mp4")
        let r = try CLI.run(["slideshow", folder.url.path, "--music", song.path, "--duration", "auto", "--title", "Summer",
                             "--end-title", "Thanks", "--captions", captions.path, "--caption-size", "120",
                             "--size", "320x240", "--fps", "10", "-o", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let frames = try decodeAll(movie)
        let expected = Int((songLength.seconds * 10).rounded(.up))
        #expect(abs(frames.count - expected) <= 1, "\(frames.count) frames for a \(songLength.seconds) s song at 10 fps (\(expected))")
        guard frames.count > 80 else { return }

        // The intro card: its dark background in the corner, the title's white ink in the middle.
        let intro = frames[15].pixels
        let corner = meanColor(intro, x: 10, y: 10)
        #expect(abs(corner.r - 0x10) < 12 && abs(corner.g - 0x18) < 12 && abs(corner.b - 0x20) < 12, "card background: \(corner)")
        #expect(Self.ink(intro, x: 60..<260, y: 80..<160) > 100, "the title's ink on the intro card")
        // The outro card, likewise, a second and a half before the end.
        let outro = frames[frames.count - 15].pixels
        #expect(Self.ink(outro, x: 60..<260, y: 80..<160) > 100, "the end title's ink on the outro card")
        let outroCorner = meanColor(outro, x: 10, y: 10)
        #expect(abs(outroCorner.r - 0x10) < 12 && abs(outroCorner.b - 0x20) < 12, "outro background: \(outroCorner)")

        // The photos share what the 3 s cards leave; each shows its caption from the file, in the bottom band,
        // while it is on screen alone (the middle of its time after the transition in).
        let perPhoto = (frames.count - 60) / 2
        for (k, color) in [(0, (30.0, 30.0, 110.0)), (1, (30.0, 100.0, 30.0))] {
            let f = 30 + k * perPhoto + perPhoto * 3 / 4
            let px = frames[f].pixels
            let m = meanColor(px, x: 160, y: 60)
            #expect(abs(m.r - color.0) < 20 && abs(m.g - color.1) < 20 && abs(m.b - color.2) < 20, "frame \(f) shows photo \(k): \(m)")
            #expect(Self.ink(px, x: 0..<320, y: 150..<240) > 40, "frame \(f): photo \(k)'s caption is in the caption band")
        }
    }

    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        guard CLI.isBuilt else { return }
        let (folder, song, captions) = try Self.songFolder()
        try "not a photo".write(to: folder.file("notes.jpg"), atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let movie = folder.file("plan.mp4")
        let r = try CLI.run(["slideshow", folder.url.path, "--music", song.path, "--fit-music", "--title", "Summer",
                             "--end-title", "Thanks", "--captions", captions.path, "--size", "320x240", "--fps", "10",
                             "--dry-run", "-o", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie.path), "a dry run writes no movie")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == before, "nor anything else")
        let lines = r.stdout.split(separator: "\n").map { String($0) }
        #expect(lines.first?.contains("dry run") == true && r.stdout.contains("2 photos"), "\(r.stdout)")
        // The order, each photo's time and caption, the cards, the music and the skipped file.
        let a = try #require(lines.firstIndex { $0.contains("a.png") }), b = try #require(lines.firstIndex { $0.contains("b.png") })
        #expect(a < b, "name order: \(r.stdout)")
        #expect(lines[a].contains("HHHH") && lines[b].contains("Sunny, warm"), "captions: \(r.stdout)")
        let intro = try #require(lines.firstIndex { $0.contains("intro") && $0.contains("Summer") })
        let outro = try #require(lines.firstIndex { $0.contains("outro") && $0.contains("Thanks") })
        #expect(intro < a && b < outro)
        // Both photos get the same time (±1 frame), and the parts add up to the song.
        // Each line: its start, "s", its number, its time on screen, "s", …
        func seconds(_ line: String) -> [Double] {
            let words = line.split(separator: " ").map { String($0) }
            return words.indices.dropLast().filter { words[$0 + 1] == "s" }.compactMap { Double(words[$0]) }
        }
        let ta = try #require(seconds(lines[a]).dropFirst().first), tb = try #require(seconds(lines[b]).dropFirst().first)
        #expect(abs(ta - tb) <= 0.1 + 1e-9 && abs(3 + ta + tb + 3 - 9.3) <= 0.1 + 1e-9, "\(ta) + \(tb): \(r.stdout)")
        #expect(r.stdout.contains("song.mp3") && r.stdout.contains("skipped: 1") && r.stdout.contains("notes.jpg"), "\(r.stdout)")
    }

    @Test func photoFilmOptionsAreCheckedAndAPosterIsAStillOfTheFirstPhoto() throws {
        guard CLI.isBuilt else { return }
        let (folder, song, _) = try Self.songFolder()
        let out = folder.file("t.mp4")
        try expectError([folder.url.path, "--duration", "auto", "-o", out.path], naming: ["--music"], status: 64)
        try expectError([folder.url.path, "--duration", "soon", "-o", out.path], naming: ["soon", "auto"], status: 64)
        try expectError([folder.url.path, "--captions", folder.file("nope.csv").path, "-o", out.path], naming: ["nope.csv"], status: 64)
        try expectError([folder.url.path, "--captions", "emoji", "-o", out.path], naming: ["emoji", "filename", ".csv"], status: 64)
        try expectError([folder.url.path, "--caption-position", "left", "-o", out.path], naming: ["left", "top", "bottom", "center"], status: 64)
        try expectError([folder.url.path, "--caption-size", "0", "-o", out.path], naming: ["--caption-size 0"], status: 64)
        try expectError([folder.url.path, "--subtitle", "x", "-o", out.path], naming: ["--title"], status: 64)
        try expectError([folder.url.path, "--fit-music", "--duration", "2", "--music", song.path, "-o", out.path], naming: ["--fit-music", "--duration"], status: 64)
        // Six photos cannot share a 1 s song after the cards: the error says what to change.
        try expectError([folder.url.path, "--music", song.path, "--duration", "auto", "--title", "T", "--title-duration", "4.9",
                         "--end-title", "E", "-o", out.path], naming: ["photo", "longer music"], status: 64)
        // Cards as long as the song leave the photos nothing: said so, in plain seconds.
        try expectError([folder.url.path, "--music", song.path, "--duration", "auto", "--title", "T", "--title-duration", "5",
                         "--end-title", "E", "-o", out.path], naming: ["the 10 s of title cards, which would take all of it"], status: 64)
        let badCaptions = folder.file("bad.csv")
        try "a.png,\"never closed\n".write(to: badCaptions, atomically: true, encoding: .utf8)
        try expectError([folder.url.path, "--captions", badCaptions.path, "-o", out.path], naming: ["bad.csv", "line 1"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))

        // -o poster.png: one still, the middle of the first photo.
        let poster = folder.file("poster.png")
        let r = try CLI.run(["slideshow", folder.url.path, "--title", "Summer", "--music", song.path, "--size", "320x240", "-o", poster.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("warning: a .png still has no sound: --music is not used"), "a poster says the music is left out: \(r.stderr)")
        let image = try Image(contentsOf: poster)
        #expect(image.width == 320 && image.height == 240)
        let px = image.pixels()
        let m = meanColor(px, x: 160, y: 120)
        #expect(abs(m.r - 30) < 12 && abs(m.g - 30) < 12 && abs(m.b - 110) < 12, "the poster shows the first photo, not the card: \(m)")

        // A small photo blown up past 2× is called out.
        let small = try TemporaryFolder()
        _ = try TestPhotos.photo(.gray, "tiny.png", in: small, w: 40, h: 30)
        let w = try CLI.run(["slideshow", small.url.path, "--size", "320x240", "--dry-run", "-o", small.file("t.mp4").path])
        #expect(w.status == 0 && w.stderr.contains("tiny.png") && w.stderr.contains("soft"), "\(w.stderr)")
        // A poster shows the first photo only: a soft photo after it is not warned about.
        _ = try TestPhotos.photo(.gray, "a-first.png", in: small, w: 320, h: 240)
        let p = try CLI.run(["slideshow", small.url.path, "--size", "320x240", "-o", small.file("poster.png").path])
        #expect(p.status == 0 && !p.stderr.contains("soft"), "\(p.stderr)")
    }

    @Test func kenBurnsEasingLinearZoomsAtAConstantRateAndUnknownNamesAreRefused() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        // A black photo with a white line 2 px wide at x = 100…102 (219 px left of the middle of 640).
        let c = try Canvas(width: 640, height: 360)
        try c.draw { ctx in ctx.clear(.black); ctx.setFill(.white); ctx.fillRect(Rect(x: 100, y: 0, width: 2, height: 360)) }
        try c.writePNG(to: folder.file("line.png"))
        func zoom(at frame: Int, easing: [String]) throws -> Double {
            let out = folder.file("kb.mp4")
            let r = try CLI.run(["slideshow", folder.file("line.png").path, "--fit", "fill", "--ken-burns-zoom", "0.1", "--ken-burns-direction", "in",
                                 "--duration", "3", "--transition", "none", "--size", "640x360", "-q", "-o", out.path] + easing)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let px = try decodeAll(out)[frame].pixels
            var sum = 0.0, weight = 0.0
            for x in 40..<160 { let v = Double(px.rgba(x: x, y: 180).green); if v > 40 { sum += Double(x) * v; weight += v } }
            return (320 - sum / weight) / (320 - 101)
        }
        // Frame 22 of 90 (amount 22/90): linear 1 + 0.1·0.244 = 1.0244; sine in-out 1 + 0.1·0.139 = 1.0139.
        let linear = try zoom(at: 22, easing: ["--ken-burns-easing", "linear"])
        #expect(abs(linear - 1.0244) < 0.004, "linear: \(linear)")
        let standard = try zoom(at: 22, easing: [])
        #expect(abs(standard - 1.0139) < 0.004, "sine in-out by default: \(standard)")
        try expectError([folder.file("line.png").path, "--ken-burns-easing", "wobbly", "-o", folder.file("x.mp4").path], naming: ["wobbly"], status: 64)
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
            let rms: Double = (tail.map { (v: Float) -> Double in Double(v * v) }.reduce(0, +) / Double(tail.count)).squareRoot()
            #expect(rms > 0.02, "music still playing at 4–5 s")
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

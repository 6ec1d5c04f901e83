import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Small input videos for the video commands' tests, made with MovieMaker itself.
enum VideoFixtures {
    /// Writes a `seconds`-long `width`×`height` movie of `clip`-like content to `url`: `color` filling
    /// the frame, a `tone` Hz sine (amplitude 0.3) as its sound unless nil.
    static func solid(_ url: URL, _ color: Color, seconds: Time = 1, tone: Double? = 440, width: Int = 320, height: Int = 240,
                      fps: FrameRate = 30) throws {
        var clip = Clip.color(color, duration: seconds)
        if let tone { clip = clip.withSound(ProceduralSound.tone(frequency: tone, amplitude: 0.3, duration: seconds)) }
        try write(clip, to: url, width: width, height: height, fps: fps)
    }

    /// Writes `clip` as a movie (x264, quality 18) to `url`.
    static func write(_ clip: Clip, to url: URL, width: Int = 320, height: Int = 240, fps: FrameRate = 30) throws {
        let movie = try MovieMaker(url: url, width: width, height: height, fps: fps, settings: EncoderSettings(crf: 18, preset: .ultrafast))
        try movie.add(clip)
        _ = try movie.finish()
    }

    /// The mean colour of the middle of a decoded frame (160×120 pixels around its centre, or less).
    static func middle(_ px: PixelBuffer) -> (Double, Double, Double) {
        let w = min(160, px.width / 2), h = min(120, px.height / 2)
        return TestPhotos.mean(px, x: (px.width - w) / 2..<(px.width + w) / 2, y: (px.height - h) / 2..<(px.height + h) / 2)
    }

    /// Whether `m` is within `tolerance` of `c` in every channel.
    static func near(_ m: (Double, Double, Double), _ c: (Double, Double, Double), _ tolerance: Double = 14) -> Bool {
        abs(m.0 - c.0) < tolerance && abs(m.1 - c.1) < tolerance && abs(m.2 - c.2) < tolerance
    }

    /// The amplitude of the `frequency` Hz component of `samples[range]` at `rate` Hz (Goertzel), as a
    /// sine's peak amplitude.
    static func amplitude(of frequency: Double, in samples: ArraySlice<Float>, rate: Int) -> Double {
        let w = 2 * Double.pi * frequency / Double(rate), coefficient = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for x in samples { let s = Double(x) + coefficient * s1 - s2; s2 = s1; s1 = s }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// The expectation helper the error tests share: one `moviemaker: error:` line naming every string in
    /// `named`, the exit status, nothing on standard output.
    static func expectError(_ arguments: [String], naming named: [String], status: Int32,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == status, "\(arguments): status \(r.status), stderr \(r.stderr)", sourceLocation: sourceLocation)
        let errors = r.stderrLines.filter { $0.hasPrefix("moviemaker: error: ") }
        #expect(errors.count == 1, "one error line: \(r.stderr)", sourceLocation: sourceLocation)
        for name in named {
            #expect(r.stderr.contains(name), "\(r.stderr) does not name \(name)", sourceLocation: sourceLocation)
        }
        #expect(r.stdout.isEmpty, "stdout: \(r.stdout)", sourceLocation: sourceLocation)
    }
}

/// `moviemaker stitch`, run as a subprocess: the movie it writes (decoded: frames, size, colours, sound)
/// and its errors.
@Suite("moviemaker stitch")
struct StitchCommandTests {
    static let colors: [(Color, (Double, Double, Double), tone: Double)] = [
        (.red, (255, 0, 0), 440), (.green, (0, 255, 0), 660), (.blue, (0, 0, 255), 880),
    ]

    /// red.mp4, green.mp4, blue.mp4: 320×240, 1 s at 30 fps, each with its own tone.
    static func clips() throws -> (TemporaryFolder, [URL]) {
        let folder = try TemporaryFolder()
        let urls = try colors.map { color, _, tone in
            let url = folder.file("\(tone).mp4")
            try VideoFixtures.solid(url, color, tone: tone)
            return url
        }
        return (folder, urls)
    }

    @Test("a first clip slower than a later one sets the movie's rate, and says the later one loses frames; --fps or the faster clip first says nothing")
    func aSlowFirstClipWarnsAboutTheRate() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let slow = folder.file("slow.mp4"), fast = folder.file("fast.mp4")
        try VideoFixtures.solid(slow, .red, seconds: 1, tone: nil, width: 64, height: 48, fps: 10)
        try VideoFixtures.solid(fast, .blue, seconds: 1, tone: nil, width: 64, height: 48, fps: 30)
        let r = try CLI.run(["stitch", slow.path, fast.path, "-o", folder.file("a.mp4").path, "-q"])
        #expect(r.status == 0 && r.stderr.contains("the movie is at 10 fps, the first clip's (slow.mp4); fast.mp4 is 30 fps and loses frames at that rate: give --fps 30"),
                "\(r.stderr)")
        for arguments in [[slow.path, fast.path, "--fps", "10"], [fast.path, slow.path]] {
            let quiet = try CLI.run(["stitch"] + arguments + ["-o", folder.file("b.mp4").path, "-q"])
            #expect(quiet.status == 0 && !quiet.stderr.contains("loses frames"), "\(arguments): \(quiet.stderr)")
        }
        // A variable-rate first clip (30 fps for 1 s, then 20 fps, as a phone slows in dim light) plays at
        // its nominal rate, 30: none of its frames or the 30 fps clip's is lost (at the standard rate
        // nearest its average, 23.976, its 30 fps second lost frames), so nothing is said.
        guard FFTools.available else { return }
        let vfr = folder.file("vfr.mp4")
        let made = try run(FFTools.ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=30", "-t", "3",
                                            "-vf", "setpts='if(lt(N,30),N/30,1+(N-30)/20)/TB'", "-fps_mode", "vfr", vfr.path])
        try #require(made.status == 0, "\(made.stderr)")
        let v = try CLI.run(["stitch", vfr.path, fast.path, "-o", folder.file("c.mp4").path, "-q"])
        #expect(v.status == 0 && !v.stderr.contains("loses frames"), "\(v.stderr)")
        #expect(try FFTools.videoStream(folder.file("c.mp4"))["r_frame_rate"] as? String == "30/1")
        #expect(try decodeAll(folder.file("c.mp4")).count >= 30 + 40 + 30, "every frame of the variable-rate clip (70) and the 30 fps one (30)")
    }

    @Test func clipsPlayInOrderAtTheFirstClipsSizeAndRateWithTheirSound() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let (folder, urls) = try Self.clips()
        let movie = folder.file("day.mp4")
        let r = try CLI.run(["stitch"] + urls.map(\.path) + ["-o", movie.path], environment: ["CI": "1"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains(movie.path) && r.stdout.contains("90 frames") && r.stdout.contains("320x240"), "summary: \(r.stdout)")
        #expect(r.stdout.contains("stitch: 3 clips used, 0 skipped"), "summary: \(r.stdout)")
        #expect(r.stderr.contains("stitch \(movie.path): 100% (90/90 frames)"), "progress lines in CI: \(r.stderr)")

        let frames = try decodeAll(movie)
        #expect(frames.count == 90, "3 clips × 1 s at the first clip's 30 fps")
        #expect(frames.allSatisfy { $0.pixels.width == 320 && $0.pixels.height == 240 })
        for (k, (_, c, _)) in Self.colors.enumerated() {
            for f in [30 * k, 30 * k + 15, 30 * k + 29] {
                let m = VideoFixtures.middle(frames[f].pixels)
                #expect(VideoFixtures.near(m, c), "frame \(f) should show clip \(k + 1): \(m)")
            }
        }
        // Each clip's own tone plays in its second, and not in the others'.
        let sound = try decodeAudio(movie, in: folder)
        #expect(sound.rate == 48_000)
        for (k, (_, _, tone)) in Self.colors.enumerated() {
            let second = sound.samples[(48_000 * k + 4_800)..<(48_000 * k + 43_200)]
            let own = VideoFixtures.amplitude(of: tone, in: second, rate: 48_000)
            #expect(abs(own - 0.3) < 0.05, "clip \(k + 1)'s \(tone) Hz tone at 0.3: \(own)")
            for (_, _, other) in Self.colors where other != tone {
                #expect(VideoFixtures.amplitude(of: other, in: second, rate: 48_000) < 0.01, "no \(other) Hz in clip \(k + 1)'s second")
            }
        }
        let streams = try probeStreams(movie)
        #expect(abs((double(streams["audio"], "duration") ?? 0) - 3) < 0.03, "sound lasts the movie: \(streams["audio"] ?? [:])")
    }

    @Test("into an animated image, which has no sound track, the clips' sound is left out and stitch says so once")
    func anAnimatedImageSaysOnceThatTheSoundIsLeftOut() throws {
        guard CLI.isBuilt else { return }
        let (folder, urls) = try Self.clips()
        let gif = folder.file("day.gif")
        let r = try CLI.run(["stitch"] + urls.map(\.path) + ["-o", gif.path, "-q"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let said = r.stderrLines.filter { $0.contains("the sound is left out") }
        #expect(said.count == 1 && said[0].contains("day.gif is an animated image") && said[0].contains(".mp4"), "\(r.stderr)")
        #expect(try decodeAll(gif).count == 90, "the picture is all there")
        // A description's sound track (its music) too.
        try ProceduralSound.tone(frequency: 440, amplitude: 0.2, duration: 1).writeWAV(to: folder.file("tone.wav"))
        try #"{"version": 1, "output": {"size": "160x120", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}, {"kind": "audio", "items": [{"type": "audio", "source": "tone.wav"}]}]}"#
            .write(to: folder.file("music.json"), atomically: true, encoding: .utf8)
        let described = try CLI.run(["render", folder.file("music.json").path, "-o", folder.file("music.gif").path, "-q"])
        #expect(described.status == 0 && described.stderrLines.filter { $0.contains("music.gif is an animated image") && $0.contains("the sound is left out") }.count == 1,
                "\(described.stderr)")
        // A movie file keeps the sound and says nothing of it.
        let mp4 = try CLI.run(["stitch"] + urls.map(\.path) + ["-o", folder.file("day.mp4").path, "-q"])
        #expect(mp4.status == 0 && !mp4.stderr.contains("left out"), "\(mp4.stderr)")
    }

    /// A 29.97 fps clip of 28 frames lasts 0.934 s: at 25 fps the next clip's picture waited for the
    /// frame at 0.96 s while its sound started at 0.934 s, 26 ms early.
    @Test("after a clip that is not a whole number of the movie's frames, the next clip's sound starts with its first frame")
    func theNextClipsSoundStartsWithItsFirstFrame() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let first = folder.file("ntsc.mp4"), second = folder.file("tone.mp4")
        try VideoFixtures.solid(first, .red, seconds: Time(value: 28 * 1001, timescale: 30_000), tone: nil, fps: .ntsc)
        try VideoFixtures.solid(second, .blue, seconds: 1, tone: 440, fps: 25)
        let movie = folder.file("joined.mp4")
        let r = try CLI.run(["stitch", first.path, second.path, "--fps", "25", "-o", movie.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(movie)
        let firstBlue = try #require(frames.firstIndex { VideoFixtures.near(VideoFixtures.middle($0.pixels), (0, 0, 255)) })
        let sound = try decodeAudio(movie, in: folder)
        let onset = try #require(sound.samples.firstIndex { abs($0) > 0.02 })
        let picture = Double(firstBlue) / 25, heard = Double(onset) / Double(sound.rate) + sound.start
        #expect(abs(heard - picture) <= 0.005, "the tone starts at \(heard) s, the blue picture at \(picture) s (frame \(firstBlue))")

        // A description's video items without a duration, one after the other, likewise.
        let description = folder.file("joined.json")
        try """
            {"version": 1, "output": {"size": "320x240", "fps": 25},
             "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "ntsc.mp4"}}, {"type": "video", "source": {"file": "tone.mp4"}}]}]}
            """.write(to: description, atomically: true, encoding: .utf8)
        let rendered = folder.file("rendered.mp4")
        let d = try CLI.run(["render", description.path, "-o", rendered.path, "-q"])
        #expect(d.status == 0, "\(d.stderr)")
        let blue = try #require(try decodeAll(rendered).firstIndex { VideoFixtures.near(VideoFixtures.middle($0.pixels), (0, 0, 255)) })
        let toned = try decodeAudio(rendered, in: folder)
        let start = try #require(toned.samples.firstIndex { abs($0) > 0.02 })
        let (shown, played) = (Double(blue) / 25, Double(start) / Double(toned.rate) + toned.start)
        #expect(abs(played - shown) <= 0.005, "described: the tone starts at \(played) s, the blue picture at \(shown) s (frame \(blue))")

        // A slot's clip shorter than its item, under the fits that do not fill ("cutTail", and
        // "speedToFit" beyond 4×), likewise.
        for (fit, duration) in [("cutTail", "2s"), ("speedToFit", "6s")] {
            let template = folder.file("slot-\(fit).json")
            try """
                {"version": 1, "output": {"size": "320x240", "fps": 25}, "slots": {"clip": {"kind": "video", "fit": "\(fit)"}},
                 "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"slot": "clip"}, "duration": "\(duration)"}, {"type": "video", "source": {"file": "tone.mp4"}}]}]}
                """.write(to: template, atomically: true, encoding: .utf8)
            let slotted = folder.file("slot-\(fit).mp4")
            let t = try CLI.run(["render", template.path, "--slot", "clip=ntsc.mp4", "-o", slotted.path, "-q"], in: folder.url)
            #expect(t.status == 0, "\(t.stderr)")
            let blueAt = try #require(try decodeAll(slotted).firstIndex { VideoFixtures.near(VideoFixtures.middle($0.pixels), (0, 0, 255)) })
            let heard = try decodeAudio(slotted, in: folder)
            let onset = try #require(heard.samples.firstIndex { abs($0) > 0.02 })
            let (seen, sounded) = (Double(blueAt) / 25, Double(onset) / Double(heard.rate) + heard.start)
            #expect(abs(sounded - seen) <= 0.005, "\(fit): the tone starts at \(sounded) s, the blue picture at \(seen) s (frame \(blueAt))")
        }
    }

    @Test("an audio crossfade over half the shortest clip is shortened to half, saying so, so every clip reaches its own level")
    func aLongAudioCrossfadeIsShortenedToHalfTheShortestClip() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let (folder, urls) = try Self.clips()
        let movie = folder.file("long.mp4")
        let r = try CLI.run(["stitch"] + urls.map(\.path) + ["--audio-crossfade", "3", "-o", movie.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("--audio-crossfade 3.00 s is more than half of the shortest clip") && r.stderr.contains("over 0.50 s"), "\(r.stderr)")
        let sound = try decodeAudio(movie, in: folder)
        // The middle clip (its 660 Hz tone) at its own level half-way through, between its fade in and out.
        let middle = VideoFixtures.amplitude(of: 660, in: sound.samples[(48_000 + 22_800)..<(48_000 + 25_200)], rate: 48_000)
        #expect(abs(middle - 0.3) < 0.03, "the second clip half-way: \(middle), its own level 0.3")
    }

    @Test func aFadeTransitionShortensTheMovieByExactlyTheOverlaps() throws {
        guard CLI.isBuilt else { return }
        let (folder, urls) = try Self.clips()
        let movie = folder.file("fade.mp4")
        let r = try CLI.run(["stitch"] + urls.map(\.path) + ["--transition", "fade", "--transition-duration", "0.5",
                                                             "--size", "160x120", "--fps", "20", "-q", "-o", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.isEmpty && r.stdout.split(separator: "\n").count == 1 && r.stdout.hasPrefix(movie.path + ": "),
                "--quiet prints the summary line only: \(r.stdout) \(r.stderr)")
        let frames = try decodeAll(movie)
        // 3 × 1 s − 2 × 0.5 s = 2 s at 20 fps; at --size.
        #expect(frames.count == 40)
        #expect(frames[0].pixels.width == 160 && frames[0].pixels.height == 120)
        #expect(frames.last?.presentationTime == Time(value: 39, timescale: 20))
        // Clip 2 starts at 0.5 s and is alone from 1 s to 1 s (its fades in and out touch); half way
        // through the first fade (0.25 s into it, frame 15) red and green are mixed.
        let c = Self.colors.map(\.1)
        #expect(VideoFixtures.near(VideoFixtures.middle(frames[2].pixels), c[0]), "red first")
        #expect(VideoFixtures.near(VideoFixtures.middle(frames[39].pixels), c[2]), "blue last")
        let mid = VideoFixtures.middle(frames[15].pixels)
        #expect(mid.0 > 60 && mid.1 > 60 && mid.2 < 30, "frame 15 mixes red and green: \(mid)")
    }

    @Test func strictStopsAtAnUnreadableClipOtherwiseItIsSkippedWithAWarning() throws {
        guard CLI.isBuilt else { return }
        let (folder, urls) = try Self.clips()
        let bad = folder.file("broken.mp4")
        try "not a video".write(to: bad, atomically: true, encoding: .utf8)
        let movie = folder.file("strict.mp4")
        let before = try plantExistingFile(movie)
        try VideoFixtures.expectError(["stitch", urls[0].path, bad.path, urls[1].path, "--strict", "-o", movie.path],
                                      naming: [bad.path, "cannot read"], status: 64)
        #expect(try Data(contentsOf: movie) == before, "an existing file is left as it was")
        #expect(folder.contents.filter { $0.contains("partial") }.isEmpty, "no partial file: \(folder.contents)")

        let r = try CLI.run(["stitch", urls[0].path, bad.path, urls[1].path, "--size", "160x120", "-o", movie.path], environment: ["CI": "1"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("moviemaker: warning: skipping \(bad.path): not a media file"), "\(r.stderr)")
        #expect(r.stdout.contains("2 clips used, 1 skipped:") && r.stdout.contains("  \(bad.path): "), "summary: \(r.stdout)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 60)
        #expect(VideoFixtures.near(VideoFixtures.middle(frames[10].pixels), Self.colors[0].1)
                && VideoFixtures.near(VideoFixtures.middle(frames[45].pixels), Self.colors[1].1))
    }

    @Test func aTruncatedPhotoIsSkippedBeforeTheRenderNotFoundHalfWay() throws {
        guard CLI.isBuilt else { return }
        let (folder, urls) = try Self.clips()
        let photo = try Self.patterned("cut.png", .red, in: folder)
        let bytes = try Data(contentsOf: photo)
        try bytes.prefix(bytes.count / 3).write(to: photo)     // its header reads; its pixels end early
        let movie = folder.file("cut.mp4")
        let r = try CLI.run(["stitch", urls[0].path, photo.path, urls[1].path, "--size", "160x120", "-o", movie.path], environment: ["CI": "1"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let warning = r.stderrLines.first { $0.hasPrefix("moviemaker: warning: skipping") } ?? ""
        #expect(warning.contains(photo.path) && warning.contains("truncated"), "\(r.stderr)")
        #expect(try decodeAll(movie).count == 60)
    }

    // MARK: Photos (issue 33, bug 3: `stitch a.jpg b.jpg` made a 0.08 s movie, a photo among clips one frame)

    /// A photo with a pattern (quarters of two colours and a white corner), so Ken Burns movement shows.
    static func patterned(_ name: String, _ color: Color, in folder: TemporaryFolder) throws -> URL {
        let url = folder.file(name)
        let c = try Canvas(width: 640, height: 480)
        try c.draw { ctx in
            ctx.clear(color)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: 0, y: 0, width: 320, height: 240))
            ctx.setFill(.black)
            ctx.fillRect(Rect(x: 320, y: 240, width: 40, height: 40))
        }
        try c.writePNG(to: url)
        return url
    }

    @Test("a GIF of one frame is a photo: shown for --photo-duration, the movie at 30 fps; an animated GIF stays a clip")
    func aStillGIFIsAPhoto() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let a = try Self.patterned("a.png", .red, in: folder)
        let still = folder.file("still.gif"), animated = folder.file("animated.gif")
        #expect(try run(FFTools.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=blue:s=320x240", "-frames:v", "1", still.path]).status == 0)
        #expect(try run(FFTools.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=10:d=1", animated.path]).status == 0)
        let movie = folder.file("with-still.mp4")
        let r = try CLI.run(["stitch", a.path, still.path, "--photo-duration", "1", "--no-ken-burns", "--size", "320x240", "--preset", "ultrafast", "-o", movie.path])
        #expect(r.status == 0 && r.stdout.contains("0 clips and 2 photos used"), "\(r.stdout) \(r.stderr)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 60, "two photos of 1 s at 30 fps: \(frames.count) frames")
        if frames.count == 60 { #expect(VideoFixtures.near(VideoFixtures.middle(frames[45].pixels), (0, 0, 255), 40), "the GIF shows for its second") }
        let moving = try CLI.run(["stitch", animated.path, "--size", "320x240", "--preset", "ultrafast", "-o", folder.file("animated.mp4").path])
        #expect(moving.status == 0 && moving.stdout.contains("1 clip used"), "\(moving.stdout) \(moving.stderr)")
    }

    @Test func photosAreShownForThePhotoDurationWithKenBurns() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let a = try Self.patterned("a.png", .red, in: folder), b = try Self.patterned("b.png", .blue, in: folder)
        let movie = folder.file("photos.mp4")
        let r = try CLI.run(["stitch", a.path, b.path, "--photo-duration", "1.5", "--size", "320x240", "--preset", "ultrafast", "-o", movie.path])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 90, "two photos of 1.5 s at 30 fps: \(frames.count) frames")
        guard frames.count == 90 else { return }
        // Each photo in its turn (the bottom-right quarter shows its colour).
        #expect(VideoFixtures.near(TestPhotos.mean(frames[20].pixels, x: 250..<300, y: 190..<230), (255, 0, 0), 40), "frame 20 shows a.png")
        #expect(VideoFixtures.near(TestPhotos.mean(frames[70].pixels, x: 250..<300, y: 190..<230), (0, 0, 255), 40), "frame 70 shows b.png")
        // Ken Burns: the picture moves within a photo's time; with --no-ken-burns it holds still.
        #expect(psnr(frames[2].pixels, frames[40].pixels) < 30, "the first photo does not move")
        let still = folder.file("still.mp4")
        let s = try CLI.run(["stitch", a.path, "--photo-duration", "1", "--no-ken-burns", "--size", "320x240", "--preset", "ultrafast", "-o", still.path])
        #expect(s.status == 0, "\(s.stderr)")
        let held = try decodeAll(still)
        #expect(held.count == 30 && psnr(held[2].pixels, held[25].pixels) > 40, "--no-ken-burns holds the photo still")
        #expect(!r.stderr.contains("look soft") && !s.stderr.contains("look soft"), "640x480 photos in 320x240 are not enlarged: \(r.stderr)")
        // A photo far smaller than the frame plays, and is named as looking soft, as the slideshow does.
        let tiny = folder.file("tiny.png")
        let c = try Canvas(width: 16, height: 16)
        try c.draw { $0.clear(.green) }
        try c.writePNG(to: tiny)
        let small = try CLI.run(["stitch", tiny.path, "--photo-duration", "0.5", "--no-ken-burns", "--size", "320x240", "--preset", "ultrafast", "-o", folder.file("tiny.mp4").path])
        #expect(small.status == 0 && small.stderr.contains("\(tiny.path) is 16×16 and is shown 15.0× larger: it will look soft"), "\(small.stderr)")
    }

    @Test func aFolderOfPhotosAndClipsPlaysInNameOrder() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let (clipsFolder, urls) = try Self.clips()
        let folder = try TemporaryFolder()
        let media = folder.file("Holiday")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        _ = try TestPhotos.photo(.red, "Holiday/10 last.png", in: folder, w: 320, h: 240)
        _ = try TestPhotos.photo(.blue, "Holiday/1 first.png", in: folder, w: 320, h: 240)
        try FileManager.default.copyItem(at: urls[1], to: media.appendingPathComponent("2 green clip.mp4"))
        try "a hidden file".write(to: media.appendingPathComponent(".DS_Store"), atomically: true, encoding: .utf8)
        let movie = folder.file("holiday.mp4")
        let r = try CLI.run(["stitch", media.path, "--photo-duration", "1", "--no-ken-burns", "--preset", "ultrafast", "-o", movie.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1 clip and 2 photos used"), "\(r.stdout)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 90, "1 s + 1 s + 1 s: \(frames.count) frames")
        guard frames.count == 90 else { return }
        let expected: [(Int, (Double, Double, Double))] = [(15, (0, 0, 255)), (45, (0, 255, 0)), (75, (255, 0, 0))]
        for (index, color) in expected {
            #expect(VideoFixtures.near(VideoFixtures.middle(frames[index].pixels), color, 30), "frame \(index): \(VideoFixtures.middle(frames[index].pixels)), expected \(color)")
        }
        _ = clipsFolder
    }

    /// A phone's folder: photos whose EXIF time has no UTC offset (a wall-clock time) and videos whose
    /// container records when they were recorded (in UTC), copied off the phone (new modification times).
    @Test func orderDateComparesPhotosInLocalTimeWithVideosRecordingTimes() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let media = folder.file("Phone")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        // c: taken at 14:00 on the camera's clock in Paris (12:00 UTC); no offset recorded (six blanks).
        let red = RGBAPicture(width: 320, height: 240) { _, _ in (230, 20, 20, 255) }
        try FixtureJPEG.data(red, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2024:06:01 14:00:00", offset: "      "))])
            .write(to: media.appendingPathComponent("c photo.jpg"))
        // a: recorded at 12:05 UTC (creation_time), copied at 11:00 UTC (an earlier modification time).
        let a = media.appendingPathComponent("a video.mp4")
        let movie = try MovieMaker(url: a, width: 320, height: 240, fps: 30, settings: EncoderSettings(crf: 18, preset: .ultrafast))
        try movie.setMetadata("creation_time", "2024-06-01T12:05:00.000000Z")
        try movie.add(Clip.color(.green, duration: 1))
        try movie.finish()
        try FileManager.default.setAttributes([.modificationDate: utc("2024-06-01T11:00:00Z")], ofItemAtPath: a.path)
        #expect(try VideoFile(url: a).creationDate == utc("2024-06-01T12:05:00Z"))
        // b: no recording time; modified at 12:10 UTC.
        let b = media.appendingPathComponent("b video.mp4")
        try VideoFixtures.solid(b, .blue, tone: nil)
        try FileManager.default.setAttributes([.modificationDate: utc("2024-06-01T12:10:00Z")], ofItemAtPath: b.path)
        let out = folder.file("film.mp4")
        let r = try CLI.run(["stitch", media.path, "--order", "date", "--photo-duration", "1", "--no-ken-burns", "--transition", "none",
                             "--preset", "ultrafast", "-o", out.path], environment: ["TZ": "Europe/Paris"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try decodeAll(out)
        #expect(frames.count == 90, "\(frames.count) frames")
        guard frames.count == 90 else { return }
        // The photo (12:00 UTC), then a (12:05), then b (12:10).
        let expected: [(Int, (Double, Double, Double))] = [(15, (230, 20, 20)), (45, (0, 255, 0)), (75, (0, 0, 255))]
        for (index, color) in expected {
            #expect(VideoFixtures.near(VideoFixtures.middle(frames[index].pixels), color, 30), "frame \(index): \(VideoFixtures.middle(frames[index].pixels)), expected \(color)")
        }
    }

    /// An iPhone clip edited or exported on the phone: creation_time is the export's time, Apple's own
    /// creationdate (with its UTC offset) the recording's. The recording's is the one to order by.
    @Test func anAppleCreationDateIsPreferredToAnExportsCreationTime() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let clip = folder.file("IMG_0001.mov")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "color=red:s=64x48:d=0.2", "-metadata", "creation_time=2030-01-01T00:00:00Z",
                                   "-metadata", "com.apple.quicktime.creationdate=2024-06-01T14:05:00+0200", "-movflags", "use_metadata_tags", clip.path])
        #expect(try VideoFile(url: clip).creationDate == ISO8601DateFormatter().date(from: "2024-06-01T12:05:00Z"))
        let plain = folder.file("export.mov")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "color=red:s=64x48:d=0.2", "-metadata", "creation_time=2030-01-01T00:00:00Z", plain.path])
        #expect(try VideoFile(url: plain).creationDate == ISO8601DateFormatter().date(from: "2030-01-01T00:00:00Z"))
    }

    /// A phone clip whose picture reads but whose sound does not (here a header saying 500 kHz; an empty
    /// or damaged AAC track, a codec FFmpeg cannot decode) plays silent, named in a warning: it was
    /// skipped, picture and all. `--strict` still stops at it.
    @Test func aClipWhoseSoundCannotBeReadPlaysSilentInsteadOfLeavingTheFilm() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let (folder, urls) = try Self.clips()
        let broken = folder.file("broken-sound.mkv")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "color=blue:s=320x240:r=30:d=1", "-f", "lavfi", "-i", "sine=f=440:r=500000",
                                   "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-c:a", "pcm_s16le", "-t", "1", broken.path])
        let movie = folder.file("film.mp4")
        let r = try CLI.run(["stitch", urls[0].path, broken.path, "-o", movie.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains { $0.contains(broken.path) && $0.contains("500000") && $0.contains("plays without sound") }, "\(r.stderr)")
        let frames = try decodeAll(movie)
        #expect(frames.count == 60, "both clips' pictures, 1 s each: \(frames.count)")
        if frames.count == 60 {
            #expect(VideoFixtures.near(VideoFixtures.middle(frames[45].pixels), (0, 0, 255)), "the second second shows the clip whose sound was broken")
        }
        let sound = try decodeAudio(movie, in: folder)
        let first = sound.samples[4_800..<43_200], second = sound.samples[52_800..<91_200]
        #expect(VideoFixtures.amplitude(of: Self.colors[0].2, in: first, rate: 48_000) > 0.2, "the first clip's tone plays")
        #expect(second.allSatisfy { abs($0) < 0.001 }, "the clip whose sound could not be read is silent")

        let strict = folder.file("strict.mp4")
        let s = try CLI.run(["stitch", urls[0].path, broken.path, "-o", strict.path, "--strict", "--quiet"])
        #expect(s.status != 0 && s.stderr.contains(broken.path), "\(s.stderr)")
        #expect(!FileManager.default.fileExists(atPath: strict.path))
    }

    @Test func aFileThatIsNeitherAPictureNorAMovieIsRefusedNamingIt() throws {
        guard CLI.isBuilt else { return }
        let (folder, urls) = try Self.clips()
        let notes = folder.file("notes.txt")
        try "shot list".write(to: notes, atomically: true, encoding: .utf8)
        let movie = folder.file("never.mp4")
        try VideoFixtures.expectError(["stitch", urls[0].path, notes.path, "-o", movie.path], naming: [notes.path, "neither a picture nor a movie"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: movie.path))
    }

    /// Issue 33, small things: a clip whose name is not UTF-8 (`cl\xFFip.mp4`, as a Latin-1 camera or an
    /// old archive names it), typed or globbed, was "no such file": Swift's arguments replace the bad byte
    /// with U+FFFD. It is stitched, as `--music=` is read; a missing one is still named.
    @Test func clipsWhoseNamesAreNotUTF8AreStitched() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try VideoFixtures.solid(folder.file("plain.mp4"), .blue)
        try VideoFixtures.solid(folder.file("latin.mp4"), .red)
        // The file gets its name from the shell, since Foundation's paths are Strings.
        let bash = URL(fileURLWithPath: "/bin/bash")
        let rename = try CLI.run(["-c", "mv latin.mp4 $'cl\\xffip.mp4'"], in: folder.url, executable: bash)
        #expect(rename.status == 0, "\(rename.stderr)")
        let stitched = try CLI.run(["-c", "exec \"$0\" stitch $'cl\\xffip.mp4' plain.mp4 --music=$'cl\\xffip.mp4' -o out.mp4 --quiet", CLI.executable.path],
                                   in: folder.url, executable: bash)
        #expect(stitched.status == 0, "\(stitched.stderr)")
        let frames = try decodeAll(folder.file("out.mp4"))
        #expect(frames.count == 60)
        #expect(VideoFixtures.near(VideoFixtures.middle(frames[10].pixels), (255, 0, 0)), "the Latin-1-named clip plays first")
        let missing = try CLI.run(["-c", "exec \"$0\" stitch $'gone\\xff.mp4' plain.mp4 -o never.mp4", CLI.executable.path],
                                  in: folder.url, executable: bash)
        #expect(missing.status == 64 && missing.stderr.contains("gone\u{FFFD}.mp4") && missing.stderr.contains("no such file"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("never.mp4").path))
    }

    /// Issue 33, reliability 9: clips of extreme proportions (8192×16, 16×8192, 4097×3) filling a frame
    /// failed with Cairo's "invalid value (typically too big)" (the picture was converted at its covering
    /// size, 491,520 pixels wide). They are fitted: each fill frame shows the clip's colour.
    @Test func clipsOfExtremeProportionsAreFitted() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        let sizes = [("wide.mp4", "8192x16", "libx264"), ("tall.mp4", "16x8192", "libx264"), ("odd.mkv", "4097x3", "ffv1")]
        for (name, size, codec) in sizes {
            let r = try run(FFTools.ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=\(size):r=30:d=1",
                                             "-c:v", codec] + (codec == "libx264" ? ["-preset", "ultrafast", "-pix_fmt", "yuv420p"] : []) + [folder.file(name).path])
            try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        }
        for fit in ["fill", "blur", "fit"] {
            let movie = folder.file("\(fit).mp4")
            let r = try CLI.run(["stitch"] + sizes.map { folder.file($0.0).path } + ["--fit", fit, "--size", "320x240", "--preset", "ultrafast", "-o", movie.path])
            #expect(r.status == 0, "--fit \(fit): \(r.stderr)")
            let frames = try decodeAll(movie)
            #expect(frames.count == 90, "--fit \(fit): \(frames.count) frames")
            if fit == "fill", frames.count == 90 {
                for k in [15, 45, 75] {
                    #expect(VideoFixtures.near(VideoFixtures.middle(frames[k].pixels), (0, 0, 255), 30), "fill frame \(k): \(VideoFixtures.middle(frames[k].pixels))")
                }
            }
        }
        let still = try CLI.run(["still", folder.file("wide.mp4").path, "--size", "320x240", "-o", folder.file("wide.png").path])
        #expect(still.status == 0, "still: \(still.stderr)")
    }

    @Test func errorsNameTheBadValueAndLeaveNothingBehind() throws {
        guard CLI.isBuilt else { return }
        let (folder, urls) = try Self.clips()
        let bad = folder.file("notes.mov")
        try "hello".write(to: bad, atomically: true, encoding: .utf8)
        let out = folder.file("out.mp4")
        try VideoFixtures.expectError(["stitch", "-o", out.path], naming: ["give the video clips"], status: 64)
        try VideoFixtures.expectError(["stitch", bad.path, "-o", out.path], naming: ["nothing to stitch", bad.path], status: 64)
        try VideoFixtures.expectError(["stitch", folder.file("missing.mp4").path, "-o", out.path], naming: ["missing.mp4: no such file"], status: 64)
        let target = geteuid() == 0 ? "/proc" : "/"
        try VideoFixtures.expectError(["stitch", urls[0].path, "-o", target + "/out.mp4"], naming: [target, "cannot write"], status: 64)
        try VideoFixtures.expectError(["stitch", urls[0].path, "-o", folder.file("nowhere/out.mp4").path], naming: ["nowhere"], status: 64)
        try VideoFixtures.expectError(["stitch", urls[0].path, "-o", folder.file("out.png").path], naming: ["make a movie", "not .png"], status: 64)
        let help = try CLI.help(["stitch"])
        #expect(help.stdout.contains("animated .gif, .apng or .webp") && !help.stdout.contains(".png still"), "the help offers only what stitch writes: \(help.stdout)")
        try VideoFixtures.expectError(["stitch", urls[0].path, "--transition", "sparkle", "-o", out.path],
                                      naming: ["\"sparkle\"", "fade", "wipeleft"], status: 64)
        try VideoFixtures.expectError(["stitch", urls[0].path, "--fit", "stretch", "-o", out.path], naming: ["'stretch'", "fill", "blur"], status: 64)
        try VideoFixtures.expectError(["stitch", urls[0].path, "--audio-crossfade", "5ms", "-o", out.path], naming: ["--audio-crossfade", "10ms"], status: 64)
        try VideoFixtures.expectError(["stitch", urls[0].path, "--music", folder.file("song.mp3").path, "-o", out.path],
                                      naming: ["song.mp3: no such file"], status: 64)
        // A phone's DCIM folder holds its pictures in folders inside it: said, with the glob that gives them.
        let dcim = folder.file("DCIM")
        try FileManager.default.createDirectory(at: dcim.appendingPathComponent("100APPLE"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: urls[0], to: dcim.appendingPathComponent("100APPLE/IMG_0001.mp4"))
        try VideoFixtures.expectError(["stitch", dcim.path, "-o", out.path],
                                      naming: ["holds no pictures or movies", "1 folder inside it (100APPLE)", "moviemaker stitch \(dcim.path)/*"], status: 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A folder copied off an iPhone holds each Live Photo as `IMG_0001.HEIC` and its motion
    /// `IMG_0001.MOV`: the motion is left out, named, so each moment plays once and the 4:3 motion does not
    /// set the film's size; a long movie that happens to share a photo's name stays, and so does a motion
    /// given by name.
    @Test func aLivePhotosMotionBesideItsPhotoIsLeftOutNamed() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let iphone = folder.file("iphone")
        try FileManager.default.createDirectory(at: iphone, withIntermediateDirectories: true)
        let photo = try Canvas(width: 160, height: 120)
        try photo.draw { $0.clear(.red) }
        try photo.writePNG(to: iphone.appendingPathComponent("IMG_0001.png"))
        try photo.writePNG(to: iphone.appendingPathComponent("IMG_0003.png"))
        try VideoFixtures.solid(iphone.appendingPathComponent("IMG_0001.mov"), .green, seconds: 2, tone: nil, width: 160, height: 120)
        try VideoFixtures.solid(iphone.appendingPathComponent("IMG_0002.mp4"), .blue, seconds: 1, tone: nil, width: 320, height: 240)
        try VideoFixtures.solid(iphone.appendingPathComponent("IMG_0003.mp4"), .blue, seconds: 5, tone: nil, width: 320, height: 240)
        let movie = folder.file("film.mp4")
        let r = try CLI.run(["stitch", iphone.path, "--photo-duration", "1s", "-o", movie.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains { $0.contains("1 Live Photo movie left out (IMG_0001.mov)") && $0.contains("give it by name") }, "\(r.stderr)")
        let frames = try decodeAll(movie)
        // IMG_0001.png 1 s, IMG_0002.mp4 1 s, IMG_0003.png 1 s, IMG_0003.mp4 5 s; the film at the first movie's size.
        #expect(frames.count == 8 * 30, "\(frames.count) frames")
        #expect(frames.first.map { $0.pixels.width == 320 && $0.pixels.height == 240 } == true, "the film takes a real movie's size")

        let given = folder.file("given.mp4")
        let g = try CLI.run(["stitch", iphone.appendingPathComponent("IMG_0001.png").path, iphone.appendingPathComponent("IMG_0001.mov").path,
                             "--photo-duration", "1s", "-o", given.path, "--quiet"])
        #expect(g.status == 0 && !g.stderr.contains("Live Photo"), "\(g.stderr)")
        #expect(try decodeAll(given).count == 3 * 30, "a motion given by name plays")
    }

    @Test func musicDipsWhileTheClipsOwnSoundIsHeard() throws {
        guard CLI.isBuilt, FFTools.available else { return }
        let folder = try TemporaryFolder()
        // Silent 1 s, a 660 Hz tone 1 s, silent 3 s; the music is a steady 220 Hz, longer than the movie.
        let silent = folder.file("silent.mp4"), loud = folder.file("loud.mp4"), quiet = folder.file("quiet.mp4")
        let music = folder.file("music.wav")
        try VideoFixtures.solid(silent, .red, seconds: 1, tone: nil, width: 160, height: 120)
        try VideoFixtures.solid(loud, .green, seconds: 1, tone: 660, width: 160, height: 120)
        try VideoFixtures.solid(quiet, .blue, seconds: 3, tone: nil, width: 160, height: 120)
        try AudioInTesting.makeWAV(music, expression: "0.2*sin(2*PI*220*t)|0.2*sin(2*PI*220*t)", seconds: 6)
        let movie = folder.file("music.mp4")
        let r = try CLI.run(["stitch", silent.path, loud.path, quiet.path, "--music", music.path, "-o", movie.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try decodeAll(movie).count == 150)
        let sound = try decodeAudio(movie, in: folder)
        func window(_ from: Double, _ to: Double) -> ArraySlice<Float> { sound.samples[Int(from * 48_000)..<Int(to * 48_000)] }
        // Away from the music's fade-in (0.5 s), the dip's attack (50 ms) and release (150 ms hold + 400 ms),
        // and the fade-out over the movie's last 2 s.
        let before = VideoFixtures.amplitude(of: 220, in: window(0.6, 0.95), rate: 48_000)
        let under = VideoFixtures.amplitude(of: 220, in: window(1.3, 1.65), rate: 48_000)
        let after = VideoFixtures.amplitude(of: 220, in: window(2.65, 2.95), rate: 48_000)
        #expect(abs(before - 0.2) < 0.03 && abs(after - 0.2) < 0.03, "music at its level around the tone: \(before), \(after)")
        let drop = 20 * log10(before / under)
        #expect(drop > 9 && drop < 15, "music dips (12 dB) under the clip's sound: \(before) → \(under) (\(drop) dB)")
        #expect(abs(VideoFixtures.amplitude(of: 660, in: window(1.3, 1.65), rate: 48_000) - 0.3) < 0.05, "the clip's own tone is heard over it")
    }
}

/// `moviemaker stitch` stopped half way by SIGINT or SIGTERM, as every rendering command is.
@Suite("moviemaker stitch cancellation", .serialized)
struct StitchCancellationTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aStitchCancelledHalfWayExitsWithTheSignalsStatusAndLeavesTheDestinationAsItWas(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try VideoFixtures.solid(clip, .orange, seconds: 6, tone: 440)
        let destination = folder.file("out.mp4")
        let before = try plantExistingFile(destination)
        // 3 × 6 s at 90 fps with placebo: 1620 slow frames, so half way can be reached.
        let arguments = ["stitch", clip.path, clip.path, clip.path, "--fps", "90", "--preset", "placebo", "-o", destination.path]
        guard let (outcome, elapsed) = try CLICancellationTests.signalHalfWay(arguments, signal) else { return }
        CLICancellationTests.expectCancelled(outcome, by: signal, in: elapsed)
        #expect(outcome.stderr.contains("\(destination.path) was left as it was"), "\(outcome.stderr)")
        #expect(try Data(contentsOf: destination) == before, "the earlier file's bytes changed")
        #expect(folder.contents == ["clip.mp4", "out.mp4"], "left behind: \(folder.contents)")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Slideshow")
struct SlideshowTests {
    @Test func naturalOrderComparesNumbersAsNumbers() {
        let names = ["img10.jpg", "IMG2.jpg", "img1.jpg", "img02b.jpg", "a.png", "img2a.jpg"]
        #expect(names.sorted(by: Slideshow.naturalOrder) == ["a.png", "img1.jpg", "IMG2.jpg", "img2a.jpg", "img02b.jpg", "img10.jpg"])
        #expect(Slideshow.naturalOrder("img2", "img10"))
        // Accented initials among their letters, as file managers list them, not after "z".
        #expect(["zebra.jpg", "Église 2.jpg", "banana.jpg", "éclair.jpg", "Ábaco.jpg", "eclair.jpg"].sorted(by: Slideshow.naturalOrder)
                == ["Ábaco.jpg", "banana.jpg", "eclair.jpg", "éclair.jpg", "Église 2.jpg", "zebra.jpg"])
        #expect(!Slideshow.naturalOrder("img10", "img2"))
        // Numbers count before accents or case do anywhere in the name.
        #expect(["eglise 10.jpg", "Église 2.jpg", "EGLISE 3.jpg"].sorted(by: Slideshow.naturalOrder) == ["Église 2.jpg", "EGLISE 3.jpg", "eglise 10.jpg"])
        // A name before its numbered siblings and copies (the extension compared last), as `ls -v` and file managers list them.
        #expect(["holiday.jpg", "holiday2.jpg", "holiday10.jpg", "beach.jpg", "beach 2.jpg", "IMG_0001.jpg", "IMG_0001-2.jpg", "photo (1).jpg", "photo.jpg"].sorted(by: Slideshow.naturalOrder)
                == ["beach.jpg", "beach 2.jpg", "holiday.jpg", "holiday2.jpg", "holiday10.jpg", "IMG_0001.jpg", "IMG_0001-2.jpg", "photo.jpg", "photo (1).jpg"])
        #expect(["b.png", "b.jpg"].sorted(by: Slideshow.naturalOrder) == ["b.jpg", "b.png"], "the extension breaks a tie")
        #expect(["x/.hidden", "x/a"].sorted(by: Slideshow.naturalOrder) == ["x/.hidden", "x/a"])
    }

    /// `stitch` of a folder makes a photo group per photo: a render keeps the photos of the few groups
    /// drawn lately, not of every group it has drawn.
    @Test func aMovieOfManyPhotoClipsKeepsOnlyTheLatestPhotos() throws {
        let folder = try TemporaryFolder()
        let colors: [Color] = [.red, .green, .blue]
        let clips = try (0..<30).map { k in
            Clip.photo(try TestPhotos.photo(colors[k % 3], "p\(k).png", in: folder, w: 32, h: 24), duration: 2)
        }
        let film = Clip.sequence(clips)
        let session = try RenderSession(opening: film, width: 64, height: 48, drawingThreads: 1)
        defer { session.close() }
        let canvas = try Canvas(width: 64, height: 48)
        let rate = FrameRate(10)
        var most = 0
        for index in 0..<rate.frameCount(for: film.duration) {
            try session.drawFrame(of: film, index: index, rate: rate, background: .black, on: canvas)
            most = max(most, session.photosHeld)
        }
        #expect(most <= 4, "\(most) decoded photos held at once by a movie of 30 photo clips")
    }

    @Test func folderListingKeepsImagesInNaturalOrderAndSkipsOthers() throws {
        let folder = try TemporaryFolder()
        for name in ["img10.png", "img2.png", "img1.png", ".hidden.png"] { _ = try TestPhotos.photo(.red, name, in: folder, w: 8, h: 8) }
        try "notes".write(to: folder.file("notes.txt"), atomically: true, encoding: .utf8)
        try Data().write(to: folder.file("empty.png"))
        var skipped: [MovieMakerError] = []
        let show = try Slideshow(folder: folder.url) { skipped.append($0) }
        #expect(show.photos.map(\.url.lastPathComponent) == ["img1.png", "img2.png", "img10.png"])
        #expect(skipped.count == 1 && "\(skipped)".contains("empty.png"), "the empty .png is reported: \(skipped)")
        #expect(throws: MovieMakerError.self) { try Slideshow(folder: folder.url, strict: true) }
    }

    @Test func dateOrderAndDateCaptionsUseTheEXIFCaptureDate() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture.quadrants(width: 32, height: 16)
        // File names in the opposite order to the capture dates.
        try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2024:07:14 10:00:00", offset: "+00:00"))])
            .write(to: folder.file("a.jpg"))
        try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2021:03:02 10:00:00", offset: "+00:00"))])
            .write(to: folder.file("b.jpg"))
        let show = try Slideshow(folder: folder.url, order: .captureDate)
        #expect(show.photos.map(\.url.lastPathComponent) == ["b.jpg", "a.jpg"])
        var dated = show
        dated.captions = .date
        #expect(dated.photos.map { dated.captionText(for: $0) } == ["2 March 2021", "14 July 2024"])
        // A photo given by URL alone has its date read from the file when the caption needs it.
        var byURL = Slideshow(photos: [Slideshow.Photo(url: folder.file("a.jpg"))])
        byURL.captions = .date
        #expect(byURL.captionText(for: byURL.photos[0]) == "14 July 2024")
        byURL.captions = .filename
        #expect(byURL.captionText(for: byURL.photos[0]) == "a")
    }

    @Test("Ken Burns .alternate zooms in and out by turns, photo after photo, for every seed")
    func alternateTakesTurns() {
        for seed: UInt64 in [1, 2, 3, 7, 42] {
            let motion = Slideshow.KenBurns(direction: .alternate, seed: seed)
            let zoomsIn = (0..<6).map { i -> Bool in let r = motion.rects(index: i); return r.end.width < r.start.width }
            #expect(zoomsIn == (0..<6).map { $0.isMultiple(of: 2) == zoomsIn[0] }, "seed \(seed): \(zoomsIn)")
        }
        #expect(Set([1, 2, 3, 4, 5, 6, 7, 8].map { Slideshow.KenBurns(direction: .alternate, seed: $0).rects(index: 0) }.map { $0.end.width < $0.start.width }).count == 2,
                "the seed picks the first direction")
    }

    @Test("a date caption is the day the camera's calendar showed, not the day in the rendering machine's zone")
    func dateCaptionsAreTheCamerasDay() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture.quadrants(width: 32, height: 16)
        // 08:00 in Tokyo is 23:00 the day before in UTC (and in every zone west of +08:00).
        try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2025:06:02 08:00:00", offset: "+09:00"))])
            .write(to: folder.file("tokyo.jpg"))
        // 23:30 with no offset recorded: that wall-clock day, whatever the zone.
        try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2025:06:01 23:30:00", offset: ""))])
            .write(to: folder.file("camera.jpg"))
        var show = try Slideshow(folder: folder.url)
        show.captions = .date
        #expect(show.photos.map { show.captionText(for: $0) } == ["1 June 2025", "2 June 2025"], "camera.jpg, tokyo.jpg")
    }

    @Test func unreadablePhotosAreLeftOutWithTheirReasonsOrThrownWhenStrict() throws {
        let folder = try TemporaryFolder()
        let good = try TestPhotos.photo(.blue, "good.png", in: folder)
        let jpeg = FixtureJPEG.data(RGBAPicture.quadrants(width: 64, height: 64))
        let truncated = folder.file("truncated.jpg")
        try jpeg.prefix(jpeg.count / 2).write(to: truncated)   // header intact, data cut
        let text = folder.file("text.jpg")
        try "hello".write(to: text, atomically: true, encoding: .utf8)
        let show = Slideshow(photos: [good, truncated, text].map { Slideshow.Photo(url: $0) })
        let (checked, skipped) = try show.removingUnreadablePhotos()
        #expect(checked.photos.map(\.url) == [good])
        #expect(skipped.count == 2)
        #expect(skipped.contains { if $0.code == .imageUnreadable, let path = $0.location?.file { return path == truncated.path } else { return false } }, "\(skipped)")
        #expect(skipped.contains { if $0.code == .notAnImage, let path = $0.location?.file { return path == text.path } else { return false } }, "\(skipped)")
        #expect(throws: MovieMakerError.self) { try show.removingUnreadablePhotos(strict: true) }
        // The show renders from what is left.
        let px = try checked.clip(width: 160, height: 120).still(at: 1, width: 160, height: 120).pixels()
        #expect(px.rgba(x: 80, y: 60).blue > 240)
    }

    @Test("totalDuration is the clip's duration, also when photos are shorter than the transition")
    func totalDurationMatchesTheClip() throws {
        let folder = try TemporaryFolder()
        let urls = try [Color.red, .green, .blue, .white].enumerated().map { try TestPhotos.photo($0.element, "p\($0.offset).png", in: folder) }
        var show = Slideshow(photos: urls.map { Slideshow.Photo(url: $0) })
        show.kenBurns = .off
        for (photo, transition) in [(Time(2), Time(1)), (Time(value: 1, timescale: 2), Time(1)), (Time(value: 1, timescale: 4), Time(2))] {
            show.duration = photo
            show.transition = .crossfade(duration: transition)
            show.intro = TitleCard("Intro", duration: 1)
            let clip = try show.clip(width: 160, height: 120)
            #expect(show.totalDuration == clip.duration, "\(photo) s photos, \(transition) s transition: \(show.totalDuration) vs \(clip.duration)")
        }
        show.duration = Time(value: 1, timescale: 4)
        show.transition = .crossfade(duration: 2)
        #expect(show.totalDuration != show.duration * 4 + 1, "the short photos' transitions shrink, so the film is not the plain sum: \(show.totalDuration)")
    }

    @Test("a slideshow or title card whose duration is not above zero throws, naming it")
    func nonPositiveDurationsThrow() throws {
        let folder = try TemporaryFolder()
        let url = try TestPhotos.photo(.red, "beach.png", in: folder)
        var show = Slideshow(photos: [Slideshow.Photo(url: url)])
        show.duration = -1
        #expect { try show.clip(width: 160, height: 120) } throws: { error in
            guard let e = error as? MovieMakerError else { return false }
            return e.code == .invalidSetting && e.message.contains("-1 s for each photo")
        }
        show.duration = 2
        show.photos[0].duration = 0
        #expect { try show.clip(width: 160, height: 120) } throws: { error in
            guard let e = error as? MovieMakerError else { return false }
            return e.code == .invalidSetting && e.message.contains("photo 1, beach.png")
        }
        show.photos[0].duration = nil
        show.transition = .crossfade(duration: 0.5)
        show.intro = TitleCard("Welcome", duration: 0)
        #expect { try show.clip(width: 160, height: 120) } throws: { error in
            guard let e = error as? MovieMakerError else { return false }
            return e.code == .invalidSetting && e.message.contains("0 s for the slideshow's intro card \"Welcome\"")
        }
        #expect { try TitleCard("Hello", duration: -2).clip(width: 160, height: 120) } throws: { error in
            guard let e = error as? MovieMakerError else { return false }
            return e.code == .invalidSetting && e.message.contains("-2 s for the title card \"Hello\"")
        }
    }

    @Test func eachPhotoIsOnScreenInItsSlotAndTransitionsBlendNeighbours() throws {
        let folder = try TemporaryFolder()
        let colors: [Color] = [.red, .green, .blue]
        let urls = try colors.enumerated().map { try TestPhotos.photo($0.element, "p\($0.offset).png", in: folder) }
        var show = Slideshow(photos: urls.map { Slideshow.Photo(url: $0) })
        show.duration = 1
        show.kenBurns = .off
        show.transition = .crossfade(duration: 0.5)
        let clip = try show.clip(width: 160, height: 120)
        #expect(clip.duration == 3, "three 1 s slots")
        let movie = folder.file("show.mp4")
        let writer = try MovieMaker(url: movie, width: 160, height: 120, fps: 20)
        try writer.add(clip)
        _ = try writer.finish()
        let frames = try decodeAll(movie)
        #expect(frames.count == 60)
        // Slot k is frames 20k…20k+19; its first 10 frames are the transition in (after the first).
        for (k, color) in colors.enumerated() {
            for f in [20 * k + 12, 20 * k + 19] {
                let m = TestPhotos.mean(frames[f].pixels, x: 60..<100, y: 50..<90)
                #expect(abs(m.0 - color.red * 255) < 12 && abs(m.1 - color.green * 255) < 12 && abs(m.2 - color.blue * 255) < 12,
                        "frame \(f) shows photo \(k): \(m)")
            }
        }
        // Half way through the crossfade from red to green (frame 25 of the 20…29 transition).
        let mid = TestPhotos.mean(frames[25].pixels, x: 60..<100, y: 50..<90)
        #expect(mid.0 > 80 && mid.0 < 175 && mid.1 > 80 && mid.1 < 175 && mid.2 < 20, "blend of red and green: \(mid)")
    }

    @Test func fitModesFillLetterboxAndBlurredBackground() throws {
        let folder = try TemporaryFolder()
        let wide = try TestPhotos.photo(.red, "wide.png", in: folder, w: 200, h: 100)   // 2:1 into 4:3
        func frame(_ fit: Slideshow.Fit) throws -> PixelBuffer {
            var show = Slideshow(photos: [Slideshow.Photo(url: wide)])
            show.fit = fit; show.kenBurns = .off; show.transition = nil; show.background = Color(white: 0.5)
            return try show.clip(width: 160, height: 120).still(at: 0.5, width: 160, height: 120).pixels()
        }
        let fill = try frame(.fill), fit = try frame(.fit), blur = try frame(.blur)
        // Fill: red to the top edge. Fit: a grey bar above (80 px tall picture centred in 120). Blur: a dark red bar.
        #expect(fill.rgba(x: 80, y: 2).red > 240)
        let bar = fit.rgba(x: 80, y: 5)
        #expect(abs(Int(bar.red) - 128) <= 2 && abs(Int(bar.green) - 128) <= 2, "grey letterbox: \(bar)")
        #expect(fit.rgba(x: 80, y: 60).red > 240)
        let blurred = blur.rgba(x: 80, y: 5)
        #expect(blurred.red > 60 && blurred.red < 220 && blurred.green < 40, "darkened red enlargement behind: \(blurred)")
    }

    @Test func kenBurnsIsDeterministicPerSeedAndMovesThePicture() throws {
        let folder = try TemporaryFolder()
        let url = try TestPhotos.photo(.blue, "p.png", in: folder)
        func frames(seed: UInt64) throws -> [PixelBuffer] {
            var show = Slideshow(photos: [Slideshow.Photo(url: url)])
            show.kenBurns = Slideshow.KenBurns(zoom: 0.3, pan: 0.1, direction: .zoomIn, seed: seed)
            show.transition = nil
            let clip = try show.clip(width: 160, height: 120)
            return try [0.0, 2.9].map { try clip.still(at: Time(seconds: $0), width: 160, height: 120).pixels() }
        }
        let a = try frames(seed: 7), b = try frames(seed: 7), c = try frames(seed: 8)
        #expect(a == b, "same seed, same film")
        #expect(a[1] != c[1], "another seed moves differently")
        // Zooming in: the white corner marker (20×15 px at the start) is bigger at the end, or pushed out of frame.
        let white = { (px: PixelBuffer) in (0..<120).reduce(0) { n, y in n + (0..<160).filter { px.rgba(x: $0, y: y).green > 200 }.count } }
        #expect(white(a[0]) >= 290 && white(a[0]) <= 310)
        #expect(white(a[1]) != white(a[0]))
        // Explicit rectangles are honoured: a view of the top-left quarter at the end shows the marker 2× larger.
        var show = Slideshow(photos: [Slideshow.Photo(url: url, kenBurnsStart: Rect(x: 0, y: 0, width: 1, height: 1),
                                                      kenBurnsEnd: Rect(x: 0, y: 0, width: 0.5, height: 0.5))])
        show.transition = nil
        let end = try show.clip(width: 160, height: 120).still(at: Time(seconds: 2.95), width: 160, height: 120).pixels()
        #expect(white(end) > 1000, "marker scaled by about 2 (×4 area): \(white(end))")
    }

    @Test func aPhotosOwnCloseViewIsDrawnFromPixelsDecodedForItNotEnlarged() throws {
        // 1-pixel stripes, four times the frame's size: a view a quarter of the picture wide shows them
        // one photo pixel per frame pixel, at full contrast, only if the photo was decoded for that view.
        let folder = try TemporaryFolder()
        let url = folder.file("stripes.png")
        let canvas = try Canvas(width: 640, height: 480)
        try canvas.draw { ctx in
            ctx.clear(.black)
            ctx.setFill(.white)
            for x in stride(from: 0, to: 640, by: 2) { ctx.fillRect(Rect(x: Double(x), y: 0, width: 1, height: 480)) }
        }
        try canvas.writePNG(to: url)
        let view = Rect(x: 0.375, y: 0.375, width: 0.25, height: 0.25)
        var show = Slideshow(photos: [Slideshow.Photo(url: url, kenBurnsStart: view, kenBurnsEnd: view)])
        show.transition = nil
        let px = try show.clip(width: 160, height: 120).still(at: 1, width: 160, height: 120).pixels()
        let row = (20..<140).map { Double(px.rgba(x: $0, y: 60).green) }
        let mean = row.reduce(0, +) / Double(row.count)
        let spread = (row.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(row.count)).squareRoot()
        #expect(spread > 100, "stripes at full contrast (about 127), not blurred to grey: \(spread)")
        // Only that photo is decoded larger: the others keep the show's zoom (memory stays as it was).
        var mixed = Slideshow(photos: [Slideshow.Photo(url: url), Slideshow.Photo(url: url, kenBurnsStart: view, kenBurnsEnd: view), Slideshow.Photo(url: url)])
        mixed.transition = nil
        let leaves = try mixed.clip(width: 160, height: 120).mediaLeaves(in: .zero..<9)
        let zooms = leaves.compactMap { p -> [Double]? in
            guard case let .media(media) = p.clip.node else { return nil }
            return media.group?.zooms
        }.first
        #expect(zooms == [1 + mixed.kenBurns.zoom, 4, 1 + mixed.kenBurns.zoom], "\(String(describing: zooms))")
    }

    @Test func captionsShowTheFileName() throws {
        let folder = try TemporaryFolder()
        let url = try TestPhotos.photo(.black, "Beach.png", in: folder)
        var show = Slideshow(photos: [Slideshow.Photo(url: url)])
        show.kenBurns = .off; show.transition = nil
        let plain = try show.clip(width: 320, height: 240).still(at: 1, width: 320, height: 240).pixels()
        show.captions = .filename
        let captioned = try show.clip(width: 320, height: 240).still(at: 1, width: 320, height: 240).pixels()
        let lowBand = (x: 0..<320, y: 160..<240)
        #expect(inkBox(plain, in: lowBand) == nil)
        let ink = try #require(inkBox(captioned, in: lowBand))
        #expect(abs(Double(ink.minX + ink.maxX) / 2 - 160) < 8, "centred caption")
    }

    /// Pixels of `px` in the region brighter than `floor` in every channel (a white caption's ink on a dark photo).
    static func brightPixels(_ px: PixelBuffer, x: Range<Int>, y: Range<Int>, floor: UInt8) -> Int {
        var n = 0
        for yy in y { for xx in x { let c = px.rgba(x: xx, y: yy); if min(c.red, c.green, c.blue) >= floor { n += 1 } } }
        return n
    }

    /// Issue 33 (friction): with `--duration 2` each caption showed for about half a second (only while
    /// its photo was alone). Captions now stay into the transitions and hand over at their middle: the
    /// outgoing caption until then, the incoming one after, never the two drawn over each other.
    @Test func captionsStayThroughTransitionsAndHandOverAtTheirMiddle() throws {
        // Two dark photos, each captioned; a 1 s crossfade between 2 s photos.
        let folder = try TemporaryFolder()
        let a = try TestPhotos.photo(Color(red8: 30, green8: 30, blue8: 110), "a.png", in: folder)
        let b = try TestPhotos.photo(Color(red8: 30, green8: 110, blue8: 30), "b.png", in: folder)
        var show = Slideshow(photos: [Slideshow.Photo(url: a, caption: "HHHH"), Slideshow.Photo(url: b, caption: "IIII")])
        show.duration = 2
        show.kenBurns = .off
        show.transition = .crossfade(duration: 1)
        show.captionStyle.font.size = 120
        let clip = try show.clip(width: 320, height: 240)
        /// Ink in the caption band: pixels brighter than either photo (each has a channel at 30) in every channel.
        func ink(at t: Double, floor: UInt8 = 100) throws -> Set<Int> {
            let px = try clip.still(at: Time(seconds: t), width: 320, height: 240, rate: 10).pixels()
            var found = Set<Int>()
            for y in 150..<240 { for x in 0..<320 { let c = px.rgba(x: x, y: y); if min(c.red, c.green, c.blue) >= floor { found.insert(y * 320 + x) } } }
            return found
        }
        let h = try ink(at: 1.0), i = try ink(at: 3.5)
        #expect(h.count > 40 && i.count > 40, "each photo shows its caption while alone: \(h.count), \(i.count)")
        // The transition runs from 2.0 to 3.0 s: the first caption stays through its first half…
        for t in [2.1, 2.3] {
            let now = try ink(at: t)
            #expect(now.count > 40 && now.subtracting(h).count <= 4, "at \(t) s: \(now.count) ink pixels, \(now.subtracting(h).count) outside the first caption")
        }
        // …the second shows through its second half, and at no time are both drawn.
        for t in [2.7, 2.9] {
            let now = try ink(at: t)
            #expect(now.count > 40 && now.subtracting(i).count <= 4, "at \(t) s: \(now.count) ink pixels, \(now.subtracting(i).count) outside the second caption")
        }
    }

    @Test func aWhiteCaptionStaysWhiteUnderItsOutline() throws {
        let folder = try TemporaryFolder()
        let url = try TestPhotos.photo(Color(red8: 20, green8: 20, blue8: 90), "dark.png", in: folder)
        var show = Slideshow(photos: [Slideshow.Photo(url: url, caption: "Hill")])
        show.kenBurns = .off; show.transition = nil
        // A regular-weight caption whose outline (5 px at this size) is as wide as its stems: stroked over
        // the fill it would turn the letters grey; under it, their insides stay white.
        show.captionStyle = TextStyle(font: TextFont(size: 200), color: .white, alignment: .center,
                                      outline: TextOutline(color: .black, width: 24))
        let px = try show.clip(width: 320, height: 240).still(at: 1, width: 320, height: 240).pixels()
        let white = Self.brightPixels(px, x: 0..<320, y: 100..<240, floor: 250)
        #expect(white > 60, "the fill's pixels are white (≥ 250), not grey: \(white) white pixels")
        // The outline is there too: black pixels around the letters, darker than the photo.
        var black = 0
        for y in 100..<240 { for x in 0..<320 { let c = px.rgba(x: x, y: y); if c.red < 10 && c.blue < 30 { black += 1 } } }
        #expect(black > 60, "the black outline shows around the letters: \(black)")
    }

    @Test func fillKeepsTheTopOfAPortraitAndHonoursAFocusPoint() throws {
        // A portrait photo: a red band across its top quarter, blue in the middle, a green band across its bottom sixth.
        let folder = try TemporaryFolder()
        let canvas = try Canvas(width: 90, height: 160)
        try canvas.draw { ctx in
            ctx.clear(.blue)
            ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 90, height: 40))
            ctx.setFill(.green); ctx.fillRect(Rect(x: 0, y: 134, width: 90, height: 26))
        }
        let url = folder.file("portrait.png")
        try canvas.writePNG(to: url)
        func frame(focus: Point?) throws -> PixelBuffer {
            var show = Slideshow(photos: [Slideshow.Photo(url: url, focus: focus)])
            show.fit = .fill; show.kenBurns = .off; show.transition = nil
            return try show.clip(width: 320, height: 180).still(at: 0.5, width: 320, height: 180).pixels()
        }
        // A centred crop would show only the blue middle; the upper-third bias keeps the red top in frame.
        let auto = try frame(focus: nil)
        let top = TestPhotos.mean(auto, x: 100..<220, y: 2..<10)
        #expect(top.0 > 200 && top.2 < 60, "the top band is in frame: \(top)")
        let middle = TestPhotos.mean(auto, x: 100..<220, y: 120..<170)
        #expect(middle.2 > 200, "the rest is the photo's blue: \(middle)")
        // A focus at the bottom edge shows the green bottom band instead, and no red.
        let bottom = try frame(focus: Point(x: 0.5, y: 1))
        let low = TestPhotos.mean(bottom, x: 100..<220, y: 170..<178), high = TestPhotos.mean(bottom, x: 100..<220, y: 2..<10)
        #expect(low.1 > 100 && low.0 < 60, "the bottom band is in frame: \(low)")
        #expect(high.0 < 60, "and the top band is not: \(high)")
    }

    @Test func captionSheetsReadCSVAndTextFiles() throws {
        let csv = try CaptionSheet(csv: "file,text,focus\nbeach.jpg,\"Lisbon, at dawn\",\"0.5,0.2\"\r\nhills,Hills\n\n\"q.jpg\",\"She said \"\"hi\"\"\"\n")
        #expect(csv.entries.map(\.name) == ["beach.jpg", "hills", "q.jpg"])
        #expect(csv.entries.map(\.text) == ["Lisbon, at dawn", "Hills", "She said \"hi\""])
        #expect(csv.entries[0].focus == Point(x: 0.5, y: 0.2) && csv.entries[1].focus == nil)
        #expect(csv.entries.map(\.line) == [2, 3, 5])
        // Without a header, the first row is a photo.
        #expect(try CaptionSheet(csv: "a.jpg,First\n").entries.map(\.text) == ["First"])
        let txt = try CaptionSheet(lines: "# captions\nbeach.jpg: Lisbon: the first morning\nhills\tHills at noon\t0.3 0.4\n")
        #expect(txt.entries.map(\.text) == ["Lisbon: the first morning", "Hills at noon"])
        #expect(txt.entries[1].focus == Point(x: 0.3, y: 0.4))
        // Names match a photo's file name or its name without the extension, ignoring case.
        var show = Slideshow(photos: ["/p/Beach.JPG", "/p/hills.png", "/p/other.png"].map { Slideshow.Photo(url: URL(fileURLWithPath: $0)) })
        let unmatched = show.applyCaptions(try CaptionSheet(csv: "beach.jpg,Lisbon\nhills,Hills\nnope.jpg,Lost\n"))
        #expect(show.photos.map(\.caption) == ["Lisbon", "Hills", nil])
        #expect(unmatched.map(\.name) == ["nope.jpg"])
        // Malformed lines are typed errors naming the file and the line.
        for (bad, line) in [("a.jpg,\"open\n", 1), ("a.jpg,x\nb.jpg,y,\"2,2\"\n", 2), ("a.jpg,one,two,three\n", 1)] {
            #expect { _ = try CaptionSheet(csv: bad, path: "c.csv") } throws: {
                let e = $0 as? MovieMakerError
                return e?.code == .invalidCaptions && e?.position == line && "\(e!)".contains("c.csv")
            }
        }
        #expect(throws: MovieMakerError.self) { _ = try CaptionSheet(lines: "no separator here\n") }
        // An unquoted focus after a quoted caption is named as the focus, with the two ways to write it.
        #expect { _ = try CaptionSheet(csv: "IMG_0001.jpg,\"Lisbon, at dawn\",0.2,0.8\n", path: "c.csv") } throws: {
            "\($0)".contains("the focus 0.2,0.8 holds a comma: quote it (\"0.2,0.8\") or write it with a space (0.2 0.8)")
        }
    }

    @Test func anUnreadablePhotoIsATypedErrorNamingTheFile() throws {
        let folder = try TemporaryFolder()
        let bad = folder.file("broken.png")
        try Data("not an image".utf8).write(to: bad)
        var show = Slideshow(photos: [Slideshow.Photo(url: bad)])
        show.transition = nil
        let clip = try show.clip(width: 64, height: 48)
        #expect { _ = try clip.still(at: 0, width: 64, height: 48) } throws: { "\($0)".contains("broken.png") }
        #expect(throws: MovieMakerError.self) { _ = try Slideshow(photos: []).clip(width: 64, height: 48) }
    }
}

/// A slideshow of the photo fixtures (every EXIF orientation, CMYK, 16-bit and palette PNG, WebP,
/// HEIC, Display P3), rendered to H.264 and decoded: each photo is upright in its own slot.
@Suite("Slideshow of camera photos")
struct SlideshowOfCameraPhotosTests {
    /// Quadrants (red, green / blue, white) with a centre square whose grey level says which photo it is.
    static func picture(index: Int) -> RGBAPicture {
        let w = 64, h = 48
        let grey = UInt8(20 + 16 * index)
        return RGBAPicture(width: w, height: h) { x, y in
            if abs(x - w / 2) < w / 8, abs(y - h / 2) < h / 8 { return (grey, grey, grey, 255) }
            switch (x < w / 2, y < h / 2) {
            case (true, true): return (255, 0, 0, 255)
            case (false, true): return (0, 255, 0, 255)
            case (true, false): return (0, 0, 255, 255)
            case (false, false): return (255, 255, 255, 255)
            }
        }
    }

    @Test func eachPhotoIsUprightInItsScheduledSlot() throws {
        let folder = try TemporaryFolder()
        var urls: [URL] = []
        func add(_ name: String, _ write: (URL) throws -> Void) rethrows { let u = folder.file(name); try write(u); urls.append(u) }
        for o in 1...8 {
            let p = Self.picture(index: urls.count).stored(for: o)
            try add("orientation\(o).jpg") { try FixtureJPEG.data(p, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: o))]).write(to: $0) }
        }
        let rgb = Self.picture(index: urls.count)
        let inks = RGBAPicture(width: rgb.width, height: rgb.height) { x, y in   // C, M, Y, K = 255 − R, G, B and no black
            let c = rgb.at(x, y); return (255 - c.0, 255 - c.1, 255 - c.2, 0)
        }
        try add("cmyk.jpg") { try FixtureJPEG.data(inks, colors: .cmykInverted).write(to: $0) }
        add("deep.png") { FixturePNG.write(Self.picture(index: urls.count), kind: .rgb16, to: $0) }
        add("palette.png") { FixturePNG.write(Self.picture(index: urls.count), kind: .palette, to: $0) }
        try add("lossless.webp") { try Data(FixtureWebP.lossless(Self.picture(index: urls.count))).write(to: $0) }
        if FixtureHEIC.encoderAvailable {
            let p = Self.picture(index: urls.count)
            try add("photo.heic") { try FixtureHEIC.write(p.stored(for: 6), to: $0, orientation: 6) }
        } else {
            Issue.record("libheif has no HEVC encoder here: the HEIC photo is left out of the show")
        }

        var show = Slideshow(photos: urls.map { Slideshow.Photo(url: $0) })
        show.duration = 0.5
        show.fit = .fit
        show.kenBurns = .off
        show.transition = .crossfade(duration: 0.2)
        let movie = folder.file("cameras.mp4")
        let writer = try MovieMaker(url: movie, width: 160, height: 120, fps: 10)
        try writer.add(show.clip(width: 160, height: 120))
        _ = try writer.finish()
        let frames = try decodeAll(movie)
        #expect(frames.count == 5 * urls.count)
        // Slot k is frames 5k…5k+4; after the first, its first two frames are the crossfade in.
        for (k, url) in urls.enumerated() where 5 * k + 4 < frames.count {
            let px = frames[5 * k + 3].pixels
            let what = "\(url.lastPathComponent) in frame \(5 * k + 3)"
            expectColor(px, 40, 30, (255, 0, 0, 255), tolerance: 40, "\(what): red top-left")
            expectColor(px, 120, 30, (0, 255, 0, 255), tolerance: 40, "\(what): green top-right")
            expectColor(px, 40, 90, (0, 0, 255, 255), tolerance: 40, "\(what): blue bottom-left")
            expectColor(px, 120, 90, (255, 255, 255, 255), tolerance: 40, "\(what): white bottom-right")
            let grey = 20 + 16 * k
            expectColor(px, 80, 60, (grey, grey, grey, 255), tolerance: 8, "\(what): the centre says photo \(k)")
        }
    }

    @Test("a description's slideshow item with photoTransition none cuts from photo to photo: no frame blends the two")
    func aSlideshowItemCanCut() throws {
        let folder = try TemporaryFolder()
        _ = try TestPhotos.photo(.red, "a.png", in: folder, w: 64, h: 48)
        _ = try TestPhotos.photo(.blue, "b.png", in: folder, w: 64, h: 48)
        func frames(_ transition: String) throws -> [PixelBuffer] {
            let spec = #"{"version": 1, "output": {"size": "64x48", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "slideshow", "photos": [{"file": "a.png"}, {"file": "b.png"}], "duration": "2s", "kenBurns": false, "fit": "fill", "photoTransition": "# + transition + #"}]}]}"#
            let composition = try Timeline(jsonText: spec).composition(Timeline.RenderOptions(mediaFolder: folder.url))
            return try composition.picture.renderFrames(width: 64, height: 48, rate: composition.frameRate)
        }
        func blended(_ px: PixelBuffer) -> Bool {
            let c = px.rgba(x: 48, y: 36)
            return c.red > 60 && c.blue > 60
        }
        let cut = try frames(#"{"name": "none"}"#)     // two photos of 2 s each
        #expect(cut.count == 40 && !cut.contains(where: blended), "\(cut.count) frames; blended: \(cut.indices.filter { blended(cut[$0]) })")
        #expect(cut.first.map { $0.rgba(x: 48, y: 36).red > 200 } == true && cut.last.map { $0.rgba(x: 48, y: 36).blue > 200 } == true)
        let faded = try frames(#"{"name": "fade", "duration": "0.5s"}"#)
        #expect(faded.contains(where: blended), "the fade mixes them (the check can fail)")
        // A transition as long as the photos left none on screen alone and ran the show long: refused at
        // the transition's duration.
        do {
            _ = try frames(#"{"name": "fade", "duration": "2s"}"#)
            Issue.record("a 2 s transition between 2 s photos was accepted")
        } catch {
            let error = error as? MovieMakerError
            #expect(error?.location?.jsonPath == "tracks[0].items[0].photoTransition.duration" && error?.message.contains("not shorter than each photo's") == true,
                    "\(String(describing: error))")
        }
        // The default crossfade (1 s) takes half of 1-s photos, as `moviemaker slideshow` does: the show
        // lasts the photos' 2 s and the first photo is seen alone.
        let spec = #"{"version": 1, "output": {"size": "64x48", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "slideshow", "photos": [{"file": "a.png"}, {"file": "b.png"}], "duration": "1s", "kenBurns": false, "fit": "fill"}]}]}"#
        let composition = try Timeline(jsonText: spec).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let short = try composition.picture.renderFrames(width: 64, height: 48, rate: composition.frameRate)
        #expect(short.count == 20 && !blended(short[0]) && short.contains(where: blended), "\(short.count) frames")
    }
}

import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Stickers: animated image decoding, limits, drawing")
struct StickerDecodingTests {
    let side = StickerFixtures.side

    /// The fixture written as `name` with `bytes`.
    func write(_ bytes: [UInt8], _ name: String, in folder: TemporaryFolder) throws -> URL {
        let url = folder.file(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Checks a decoded fixture: three frames of the fixture's colours and exact durations, the second
    /// transparent in its border.
    func expectFixture(_ image: AnimatedImage, loopCount: Int, halfAlpha: Bool = false, _ what: String) {
        #expect(image.frames.count == 3, "\(what): frames")
        #expect(image.durations == [Time(value: 1, timescale: 10), Time(value: 1, timescale: 5), Time(value: 3, timescale: 10)], "\(what): \(image.durations)")
        #expect(image.totalDuration == Time(value: 3, timescale: 5), "\(what)")
        #expect(image.loopCount == loopCount, "\(what): loop count \(image.loopCount)")
        #expect(image.naturalSize == Size(width: 64, height: 64))
        for (i, frame) in image.frames.enumerated() where i < 3 {
            let p = frame.pixels()
            let c = StickerFixtures.colors[i]
            let centre = p.rgba(x: 32, y: 32)
            let alpha: UInt8 = i == 2 && halfAlpha ? 128 : 255
            // Premultiplied: a channel at 255 and alpha 128 is stored as 128.
            let expected = (Int(c.0) * Int(alpha) / 255, Int(c.1) * Int(alpha) / 255, Int(c.2) * Int(alpha) / 255)
            #expect(abs(Int(centre.red) - expected.0) <= 1 && abs(Int(centre.green) - expected.1) <= 1
                    && abs(Int(centre.blue) - expected.2) <= 1 && abs(Int(centre.alpha) - Int(alpha)) <= 1,
                    "\(what): frame \(i) centre \(centre)")
        }
        if image.frames.count > 1 {
            let border = image.frames[1].pixels().rgba(x: 4, y: 32)
            #expect(border.alpha == 0, "\(what): the second frame's border is transparent, got \(border)")
        }
    }

    @Test("An animated GIF decodes to its frames with their exact delays (1/100 s), loop count and transparency")
    func gif() throws {
        let folder = try TemporaryFolder()
        let url = try write(FixtureGIF.data(width: side, height: side, frames: StickerFixtures.frames(), loopCount: 0), "a.gif", in: folder)
        expectFixture(try AnimatedImageDecoder.decode(url, width: nil, height: nil), loopCount: 0, "GIF")
        let once = try write(FixtureGIF.data(width: side, height: side, frames: StickerFixtures.frames(), loopCount: nil), "once.gif", in: folder)
        #expect(try AnimatedImageDecoder.decode(once, width: nil, height: nil).loopCount == 1, "no NETSCAPE extension: plays once")
        let thrice = try write(FixtureGIF.data(width: side, height: side, frames: StickerFixtures.frames(), loopCount: 3), "3.gif", in: folder)
        #expect(try AnimatedImageDecoder.decode(thrice, width: nil, height: nil).loopCount == 3)
    }

    @Test("An APNG decodes to its frames with their exact delays, play count and partial alpha")
    func apng() throws {
        let folder = try TemporaryFolder()
        let url = try write(FixtureAPNG.data(width: side, height: side, frames: StickerFixtures.frames(halfAlpha: true), plays: 2), "a.png", in: folder)
        expectFixture(try AnimatedImageDecoder.decode(url, width: nil, height: nil), loopCount: 2, halfAlpha: true, "APNG")
    }

    @Test("An animated WebP decodes to its frames with their millisecond durations and loop count")
    func webp() throws {
        let folder = try TemporaryFolder()
        let url = try write(try FixtureAnimatedWebP.data(width: side, height: side, frames: StickerFixtures.frames(halfAlpha: true), loopCount: 4),
                            "a.webp", in: folder)
        expectFixture(try AnimatedImageDecoder.decode(url, width: nil, height: nil), loopCount: 4, halfAlpha: true, "WebP")
    }

    @Test("A still PNG is one frame shown forever; a sticker shown smaller is decoded smaller")
    func stillAndScaling() throws {
        let folder = try TemporaryFolder()
        let url = try TestPhotos.photo(.red, "still.png", in: folder, w: 160, h: 120)
        let still = try AnimatedImageDecoder.decode(url, width: nil, height: nil)
        #expect(still.frames.count == 1 && still.frameSize == Size(width: 160, height: 120))
        #expect(still.frameIndex(at: Time(value: 1000, timescale: 1), loop: true) == 0)
        let small = try AnimatedImageDecoder.decode(url, width: 40, height: nil)
        #expect(small.frameSize == Size(width: 40, height: 30), "\(small.frameSize)")
        #expect(small.naturalSize == Size(width: 160, height: 120))
        let gif = try write(FixtureGIF.data(width: side, height: side, frames: StickerFixtures.frames()), "a.gif", in: folder)
        let halfGIF = try AnimatedImageDecoder.decode(gif, width: nil, height: 32)
        #expect(halfGIF.frameSize == Size(width: 32, height: 32) && halfGIF.frames.count == 3)
    }

    @Test("Frame lookup is exact: frame i shows from the sum of earlier delays, looping or holding the last")
    func frameLookup() throws {
        let folder = try TemporaryFolder()
        let url = try write(FixtureGIF.data(width: side, height: side, frames: StickerFixtures.frames()), "a.gif", in: folder)
        let image = try AnimatedImageDecoder.decode(url, width: nil, height: nil)
        func at(_ n: Int64, _ d: Int64, loop: Bool = true) -> Int { image.frameIndex(at: Time(value: n, timescale: d), loop: loop) }
        #expect(at(0, 1) == 0 && at(99, 1000) == 0 && at(1, 10) == 1 && at(299, 1000) == 1 && at(3, 10) == 2 && at(599, 1000) == 2)
        #expect(at(6, 10) == 0 && at(7, 10) == 1 && at(9, 10) == 2, "loops after 0.6 s")
        #expect(at(6, 10, loop: false) == 2 && at(100, 1, loop: false) == 2, "without loop the last frame is held")
        // On a 30 fps grid: frame 3 (0.1 s) is the first to show the second picture.
        #expect(at(2, 30) == 0 && at(3, 30) == 1 && at(8, 30) == 1 && at(9, 30) == 2 && at(17, 30) == 2 && at(18, 30) == 0)
    }

    @Test("Limits: a canvas over 16384 pixels a side and frames over the memory limit are refused with .imageTooLarge")
    func limits() throws {
        let folder = try TemporaryFolder()
        // A tiny image on a declared 20000×20000 screen: refused from the declared size.
        let huge = try write(FixtureGIF.data(width: 2, height: 2, frames: [AnimationFrame.make(width: 2, height: 2, milliseconds: 100) { _, _ in (1, 2, 3, 255) }],
                                             screenWidth: 20000, screenHeight: 20000), "huge.gif", in: folder)
        let sideError = try #require(throws: MovieMakerError.self) { try AnimatedImageDecoder.decode(huge, width: nil, height: nil) }
        #expect(sideError.code == .imageTooLarge && sideError.location?.file == huge.path && sideError.value == "16384 pixels per side", "\(sideError)")
        #expect(sideError.message.contains("huge.gif") && sideError.message.contains("20000×20000"), "\(sideError.message)")

        // Three 64×64 frames take 48 KiB: a 40 KiB limit refuses the third frame, for every format.
        let frames = StickerFixtures.frames()
        let files = [try write(FixtureGIF.data(width: side, height: side, frames: frames), "a.gif", in: folder),
                     try write(FixtureAPNG.data(width: side, height: side, frames: frames), "a.png", in: folder),
                     try write(try FixtureAnimatedWebP.data(width: side, height: side, frames: frames), "a.webp", in: folder)]
        for url in files {
            let error = try #require(throws: MovieMakerError.self) { try AnimatedImageDecoder.decode(url, width: nil, height: nil, memoryLimit: 40 << 10) }
            #expect(error.code == .imageTooLarge && error.location?.file == url.path && error.value == "40.0 KiB", "\(url.lastPathComponent): \(error)")
            // Shown at half size the frames take a quarter: accepted.
            #expect(try AnimatedImageDecoder.decode(url, width: 32, height: nil, memoryLimit: 40 << 10).frames.count == 3)
        }
        #expect(AnimatedImage.memoryLimit == 256 << 20 && AnimatedImage.maximumSide == 16384)

        // Issue 33: 100,000 1×1 frames are 400 KB of pixels but took 558 MB. Each frame's bookkeeping
        // counts: 40,000 1×1 frames (160 KB of pixels) are refused under a 256 MiB limit.
        let tiny = (0..<40_000).map { k in AnimationFrame.make(width: 1, height: 1, milliseconds: 10) { _, _ in (UInt8(k % 200), 0, 0, 255) } }
        let many = try write(FixtureAPNG.data(width: 1, height: 1, frames: tiny), "many.png", in: folder)
        let manyError = try #require(throws: MovieMakerError.self) { try AnimatedImageDecoder.decode(many, width: nil, height: nil) }
        #expect(manyError.code == .imageTooLarge && manyError.message.contains("bookkeeping"), "\(manyError)")
    }

    @Test("A missing sticker file fails when the render opens, before any frame is drawn")
    func missingFileFailsAtOpen() throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("nowhere.gif")
        let drawn = Atomic<Int>(0)
        let clip = Clip.sequence(Clip(duration: 1) { _, _ in drawn.add(1, ordering: .relaxed) }, .sticker(missing, duration: 1))
        let error = try #require(throws: MovieMakerError.self) { try RenderSession(opening: clip, width: 64, height: 64) }
        #expect(error.code == .imageUnreadable && error.location?.file == missing.path, "\(error)")
        let movie = try MovieMaker(url: folder.file("out.mp4"), width: 64, height: 64)
        #expect(throws: MovieMakerError.self) { try movie.add(clip) }
        #expect(drawn.load(ordering: .relaxed) == 0, "no frame was drawn before the failure")
        let garbage = try write(Array("not an image".utf8), "text.gif", in: folder)
        let notImage = try #require(throws: MovieMakerError.self) { try RenderSession(opening: .sticker(garbage, duration: 1), width: 64, height: 64) }
        #expect(notImage.code == .notAnImage)
    }

    @Test("A render decodes each sticker once, shared by copies of the clip, and frees it at close")
    func sessionDecodesOnce() throws {
        let folder = try TemporaryFolder()
        let url = try write(FixtureGIF.data(width: side, height: side, frames: StickerFixtures.frames()), "a.gif", in: folder)
        let sticker = Clip.sticker(url, duration: 1)
        let session = try RenderSession(opening: .sequence(sticker, sticker, .sticker(url, duration: 1)), width: 64, height: 64)
        #expect(session.stickers.count == 2, "two leaves, one shared by both copies")
        session.close()
        #expect(session.stickers.count == 0)
    }

    @Test("An emoji sticker draws coloured ink, centred on the frame")
    func emoji() throws {
        let clip = Clip.emoji("🎉", size: 64, duration: 1)
        let p = try clip.still(at: 0, width: 160, height: 120).pixels()
        var coloured = 0, minX = Int.max, maxX = 0, minY = Int.max, maxY = 0
        for y in 0..<p.height {
            for x in 0..<p.width {
                let c = p.rgba(x: x, y: y)
                let hi = max(c.red, c.green, c.blue), lo = min(c.red, c.green, c.blue)
                if Int(hi) - Int(lo) > 60 {
                    coloured += 1
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        #expect(coloured > 300, "colour emoji pixels: \(coloured)")
        #expect(abs((minX + maxX) / 2 - 80) <= 6 && abs((minY + maxY) / 2 - 60) <= 6, "centred: \(minX)…\(maxX) × \(minY)…\(maxY)")
    }

    /// The bounding box of pixels with red above 100 (the red sticker on black).
    func redBox(_ p: PixelBuffer) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
        colorBox(p, red: 101...255)
    }

    /// The sticker fixture's first (red) frame drawn alone (1 s, not looping into other colours: a still).
    func redSquare(in folder: TemporaryFolder) throws -> URL {
        try write(FixtureGIF.data(width: side, height: side, frames: [StickerFixtures.frames()[0]]), "red.gif", in: folder)
    }

    @Test("Fade: at the middle of the entrance the sticker is half transparent, and gone on the last frame with an exit")
    func fade() throws {
        let folder = try TemporaryFolder()
        let url = try redSquare(in: folder)
        let clip = Clip.sticker(url, duration: 2, enter: .fade(duration: 0.4), exit: .fade(duration: 0.4))
        func red(_ t: Time) throws -> Int { Int(try clip.still(at: t, width: 160, height: 120).pixels().rgba(x: 80, y: 60).red) }
        #expect(try red(0) == 0)
        let half = try red(Time(value: 1, timescale: 5))
        #expect(abs(half - 128) <= 3, "half way through the fade: \(half)")
        #expect(try red(1) == 255)
        #expect(try red(Time(value: 59, timescale: 30)) == 0, "the exit ends with the clip")
        #expect(try red(Time(value: 2, timescale: 1) - Time(value: 1, timescale: 30) - Time(value: 1, timescale: 5)) > 100)
    }

    @Test("Slide from the left: the sticker starts off-centre (left of it) and ends centred; pop grows around the centre")
    func slideAndPop() throws {
        let folder = try TemporaryFolder()
        let url = try redSquare(in: folder)
        let slide = Clip.sticker(url, duration: 2, enter: .slide(from: .left, duration: 0.5))
        func box(_ clip: Clip, _ t: Time) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
            redBox(try clip.still(at: t, width: 160, height: 120).pixels())
        }
        #expect(try box(slide, 0) == nil, "wholly beyond the left edge at the start")
        let early = try #require(try box(slide, Time(value: 1, timescale: 10)))
        let settled = try #require(try box(slide, 1))
        #expect(early.maxX < settled.maxX - 10, "\(early) then \(settled)")
        #expect(settled.minX == 48 && settled.maxX == 111 && settled.minY == 28 && settled.maxY == 91, "centred 64×64: \(settled)")
        let pop = Clip.sticker(url, duration: 2, enter: .pop(duration: 0.6, easing: .linear))
        let growing = try #require(try box(pop, Time(value: 1, timescale: 5)))
        #expect(growing.maxX - growing.minX < 40 && abs((growing.minX + growing.maxX) / 2 - 80) <= 1, "\(growing)")
        let centred = Clip.sticker(url, duration: 1, width: 32, center: Point(x: 20, y: 20))
        let small = try #require(try box(centred, 0))
        #expect(small.minX == 4 && small.maxX == 35 && small.minY == 4 && small.maxY == 35, "32 wide, aspect kept, centred on (20, 20): \(small)")
    }

    @Test("A sticker moved by its item's transform slides in from the frame's real edge, not from the edge of its moved frame")
    func slideUnderATransform() throws {
        let folder = try TemporaryFolder()
        let url = try redSquare(in: folder)
        // Moved 40 px left: resting centred on (40, 60), 8…71 across; its own frame, moved, ends at x = 120.
        let sticker = Clip.sticker(url, duration: 2, enter: .slide(from: .right, duration: 1, easing: .linear))
        let moved = try sticker.transformed(Clip.Transform(position: .constant(Point(x: 40, y: 60))))
        func box(_ t: Time) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
            redBox(try moved.still(at: t, width: 160, height: 120).pixels())
        }
        // Half way, linear: half of the way from just beyond the frame's right edge (8 + 152) to rest.
        let half = try #require(try box(Time(value: 1, timescale: 2)))
        #expect(half.minX == 84 && half.maxX == 147 && half.count == 64 * 64, "half way in: \(half)")
        let settled = try #require(try box(Time(value: 3, timescale: 2)))
        #expect(settled.minX == 8 && settled.maxX == 71, "it rests where the transform put it: \(settled)")
    }

    @Test("A sticker clip is data: it encodes, decodes equal, and has a content hash")
    func codable() throws {
        let clip = Clip.overlay(.color(.black, duration: 2),
                                .sticker(URL(fileURLWithPath: "/stickers/star.gif"), duration: 2, width: 120, loop: false,
                                         enter: .pop(), exit: .slide(from: .right, duration: 0.5, easing: .quadIn)),
                                .emoji("🎉", size: 96, duration: 1, center: Point(x: 10, y: 20), enter: .fade()))
        let data = try JSONEncoder().encode(clip)
        let back = try JSONDecoder().decode(Clip.self, from: data)
        #expect(back == clip)
        #expect(try back.contentHash() == clip.contentHash())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"type\":\"sticker\"") && text.contains("star.gif"), "\(text)")
        let short = try JSONDecoder().decode(Clip.self, from: Data(#"{"type": "sticker", "file": "/s/a.gif", "enter": "pop", "exit": {"type": "slide", "from": "top"}, "duration": 2}"#.utf8))
        guard case let .generator(.sticker(leaf), duration) = short.node else { Issue.record("not a sticker: \(short.node)"); return }
        #expect(duration == 2 && leaf.enter == .pop() && leaf.exit == .slide(from: .top) && leaf.loop && leaf.content == .file(URL(fileURLWithPath: "/s/a.gif")))
        #expect(throws: (any Error).self) { try JSONDecoder().decode(StickerAnimation.self, from: Data(#""spin""#.utf8)) }
    }

    @Test("A sticker's emoji takes a text slot, as a title does: the same pixels as the emoji written out; an empty value is named")
    func emojiTakesATextSlot() throws {
        func frame(_ emoji: String, slots: String = "") throws -> PixelBuffer {
            try OverlayFrame.render(#"{"type": "sticker", "emoji": ""# + emoji + #"", "duration": "1s", "width": 64}"#, slots: slots, frame: 5)
        }
        let slotted = try frame("{{reaction}}", slots: #""slots": {"reaction": {"kind": "text", "default": "🎉"}},"#)
        let written = try frame("🎉"), other = try frame("⭐")
        #expect(slotted == written && slotted != other)
        #expect { _ = try frame("{{reaction}}", slots: #""slots": {"reaction": {"kind": "text", "default": " "}},"#) } throws: { error in
            "\(error)".contains("tracks[1].items[0].emoji") && "\(error)".contains("empty")
        }
    }
}

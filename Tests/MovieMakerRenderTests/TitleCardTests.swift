import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Title cards")
struct TitleCardTests {
    let w = 320, h = 180
    let rate: FrameRate = 30

    func frame(_ card: TitleCard, at seconds: Double) throws -> PixelBuffer {
        try card.clip(width: w, height: h).still(at: Time(seconds: seconds), width: w, height: h, rate: rate).pixels()
    }

    @Test("A fading card shows only its background at the first and last frames and centred text in between")
    func fadeInAndOut() throws {
        var card = TitleCard("Hello", subtitle: "World", duration: 2)
        card.background = .color(Color(hex: "#102030")!)
        let first = try frame(card, at: 0)
        let middle = try frame(card, at: 1)
        let last = try frame(card, at: 2 - 1.0 / 30)
        #expect(inkBox(first) == nil)
        #expect(inkBox(last) == nil)
        let bg = first.rgba(x: 5, y: 5)
        #expect(bg.red == 0x10 && bg.green == 0x20 && bg.blue == 0x30)
        let ink = try #require(inkBox(middle))
        let centre = Double(ink.minX + ink.maxX) / 2
        #expect(abs(centre - Double(w) / 2) < Double(w) * 0.03, "text centred: ink spans \(ink.minX)…\(ink.maxX)")
        // Inside the title-safe area (10% margins).
        #expect(ink.minX >= w / 10 - 1 && ink.maxX <= w - w / 10 + 1 && ink.minY >= h / 10 - 1 && ink.maxY <= h - h / 10 + 1)
        // Part way through the fade the text is dimmer than when held.
        let fading = try frame(card, at: 0.3)
        let peak = { (px: PixelBuffer) -> Int in
            var m = 0
            for y in 0..<px.height { for x in 0..<px.width { m = max(m, Int(px.rgba(x: x, y: y).green)) } }
            return m
        }
        #expect(peak(fading) < peak(middle) - 30)
    }

    @Test("Auto-fit shrinks a long title into the safe area; without it the text overflows")
    func autoFit() throws {
        var card = TitleCard("A very long title that cannot possibly fit on one line at this size", duration: 2)
        card.entrance = .none
        let fitted = try #require(inkBox(try frame(card, at: 1)))
        #expect(fitted.minX >= w / 10 - 1 && fitted.maxX <= w - w / 10 + 1)
        #expect(fitted.minY >= h / 10 - 1 && fitted.maxY <= h - h / 10 + 1)
        card.titleStyle.font.size = 400      // 67 px at 180 lines: needs several lines taller than the frame
        let big = try #require(inkBox(try frame(card, at: 1)))
        #expect(big.minX >= w / 10 - 1 && big.maxX <= w - w / 10 + 1 && big.minY >= h / 10 - 1 && big.maxY <= h - h / 10 + 1)
        card.autoFit = false
        let overflowing = try #require(inkBox(try frame(card, at: 1)))
        #expect(overflowing.minY < h / 10 || overflowing.maxY > h - h / 10, "unfitted 120/1080-scaled text wraps beyond the safe area")
        // One long word (a URL, a hash) is broken inside and fitted too.
        var hash = TitleCard(String(repeating: "x", count: 150), duration: 2)
        hash.entrance = .none
        let word = try #require(inkBox(try frame(hash, at: 1)))
        #expect(word.minX >= w / 10 - 1 && word.maxX <= w - w / 10 + 1 && word.minY >= h / 10 - 1 && word.maxY <= h - h / 10 + 1, "\(word)")
    }

    @Test("Typewriter reveals the text from the start: the ink grows rightwards over the entrance")
    func typewriter() throws {
        var card = TitleCard("Typewriter", duration: 3)
        card.entrance = .typewriter(duration: 1.5)
        let widths = try [0.3, 0.75, 1.2, 2.0].map { t in inkBox(try frame(card, at: t))?.maxX ?? -1 }
        #expect(widths[0] > 0)
        #expect(widths[0] < widths[1] && widths[1] < widths[2] && widths[2] <= widths[3], "\(widths)")
        let start = try #require(inkBox(try frame(card, at: 0.3))).minX
        let full = try #require(inkBox(try frame(card, at: 2.0))).minX
        #expect(abs(start - full) <= 1, "the first letter is in its final place from the start")
    }

    @Test("Slide from the left starts beyond the left edge and ends in place")
    func slide() throws {
        var card = TitleCard("Slide", duration: 3)
        card.entrance = .slide(from: .left, duration: 1)
        card.exit = .none
        let early = try #require(inkBox(try frame(card, at: 0.2)))
        let settled = try #require(inkBox(try frame(card, at: 1.5)))
        #expect(early.maxX < settled.maxX - 10)
        #expect(inkBox(try frame(card, at: 0)) == nil, "starts fully off screen")
        #expect(abs(early.minY - settled.minY) <= 1, "a horizontal slide keeps the height")
    }

    @Test("Pop scales the text up around its centre")
    func pop() throws {
        var card = TitleCard("Pop", duration: 2)
        card.entrance = .pop(duration: 0.8)
        let small = try #require(inkBox(try frame(card, at: 0.2)))
        let full = try #require(inkBox(try frame(card, at: 1.5)))
        #expect(small.maxX - small.minX < full.maxX - full.minX)
        #expect(abs(Double(small.minX + small.maxX) / 2 - Double(full.minX + full.maxX) / 2) <= 2)
    }

    @Test("Per-letter stagger: early in the entrance the first letter is visible and the last is not")
    func letters() throws {
        var card = TitleCard("ABCDEFGH", duration: 3)
        card.entrance = .letters(duration: 1.2)
        card.entrance.easing = .linear
        let full = try #require(inkBox(try frame(card, at: 2)))
        let early = try frame(card, at: 0.4)
        let firstQuarter = (x: full.minX..<(full.minX + (full.maxX - full.minX) / 4), y: 0..<h)
        let lastQuarter = (x: (full.maxX - (full.maxX - full.minX) / 4)..<(full.maxX + 1), y: 0..<h)
        #expect(inkBox(early, threshold: 60, in: firstQuarter) != nil)
        #expect(inkBox(early, threshold: 60, in: lastQuarter) == nil)
    }

    @Test("Blur-in: early frames are softer (lower peak, wider spread) than the settled text")
    func blurIn() throws {
        var card = TitleCard("Blur", duration: 2)
        card.entrance = .blur(duration: 1)
        card.entrance.easing = .linear
        card.exit = .none
        let early = try frame(card, at: 0.5)
        let settled = try frame(card, at: 1.5)
        let faint = inkBox(early, threshold: 40)
        let sharp = try #require(inkBox(settled, threshold: 40))
        let f = try #require(faint)
        #expect(f.maxX - f.minX > sharp.maxX - sharp.minX, "blur spreads the ink")
        #expect(inkBox(early, threshold: 200) == nil || inkBox(early, threshold: 200)!.count < sharp.count / 4)
    }

    @Test("A lower third puts its text in the bottom of the frame and leaves the top transparent")
    func lowerThird() throws {
        var card = TitleCard("Jane Doe", subtitle: "Director", duration: 2)
        card.layout = .lowerThird
        card.background = .color(Color(white: 0, alpha: 0.6))
        card.entrance = .none
        let px = try card.clip(width: w, height: h).still(at: 1, width: w, height: h, background: .clear).pixels()
        let ink = try #require(inkBox(px))
        #expect(ink.minY > h / 2, "text in the lower part: \(ink)")
        #expect(ink.minX < w / 3, "left-aligned")
        #expect(px.rgba(x: w / 2, y: 5).alpha == 0, "top untouched (transparent)")
    }

    @Test("An unknown font fails when the clip is made, naming the font and the closest installed family")
    func unknownFont() throws {
        let card = TitleCard("X", fontFamily: "DejaVu Sanz")
        #expect {
            _ = try card.clip(width: w, height: h)
        } throws: { error in
            let text = "\(error)"
            return text.contains("DejaVu Sanz") && text.contains("DejaVu Sans")
        }
    }

    @Test("Title cards sequence with other clips in a movie: decoded frames show the card, then the colour")
    func composesInAMovie() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("title.mp4")
        var card = TitleCard("Hi", duration: 1)
        card.entrance = .none
        card.exit = .none
        card.background = .color(.black)
        let movie = try MovieMaker(url: url, width: w, height: h, fps: rate)
        try movie.add(.sequence(try card.clip(width: w, height: h), .color(.blue, duration: 1)))
        let summary = try movie.finish()
        #expect(summary.frameCount == 60)
        let frames = try decodeAll(url)
        #expect(frames.count == 60)
        #expect(inkBox(frames[15].pixels) != nil, "card frame has white text")
        let blue = frames[45].pixels.rgba(x: w / 2, y: h / 2)
        #expect(blue.blue > 200 && blue.red < 40 && blue.green < 40)
    }

    @Test("A card laid out for 1080p and drawn in a 640×360 frame is shrunk to fit it, as if laid out there")
    func aCardLaidOutForAnotherSizeIsScaledToTheFrame() throws {
        var card = TitleCard("Hello world")
        card.entrance = .none
        let large = try card.clip(width: 1920, height: 1080).still(at: Time(1), width: 640, height: 360).pixels()
        let native = try card.clip(width: 640, height: 360).still(at: Time(1), width: 640, height: 360).pixels()
        let a = try #require(inkBox(large), "the 1080p card shows in the 360p frame")
        let b = try #require(inkBox(native))
        #expect(abs(a.minX - b.minX) <= 3 && abs(a.maxX - b.maxX) <= 3 && abs(a.minY - b.minY) <= 3 && abs(a.maxY - b.maxY) <= 3,
                "the same place and size as laid out for the frame: \(a) against \(b)")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Stickers in movies")
struct StickerTests {
    let w = 320, h = 240
    let rate: FrameRate = 30
    /// The clip below the sticker: magenta, unlike any of the fixture's frames.
    let below = Color(red: 1, green: 0, blue: 1)

    /// The fixture frame shown at movie frame `n` at 30 fps: delays of 100, 200 and 300 ms are 3, 6
    /// and 9 frames, so the animation repeats every 18 frames.
    func expectedFrame(_ n: Int) -> Int {
        let m = n % 18
        return m < 3 ? 0 : m < 9 ? 1 : 2
    }

    /// Renders `sticker` over the magenta clip for 2 s and decodes the movie.
    func render(_ sticker: Clip, in folder: TemporaryFolder) throws -> [DecodedFrame] {
        let url = folder.file("sticker.mp4")
        let movie = try MovieMaker(url: url, width: w, height: h, fps: rate)
        try movie.add(.overlay(.color(below, duration: 2), sticker))
        let summary = try movie.finish()
        #expect(summary.frameCount == 60)
        let frames = try decodeAll(url)
        #expect(frames.count == 60)
        return frames
    }

    func close(_ c: (r: Double, g: Double, b: Double), _ e: (Double, Double, Double), tolerance: Double = 12) -> Bool {
        abs(c.r - e.0) <= tolerance && abs(c.g - e.1) <= tolerance && abs(c.b - e.2) <= tolerance
    }

    @Test("An animated GIF sticker shows, on every frame, the picture its delays say, looping; its transparent border shows the clip below")
    func gifTiming() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("star.gif")
        try Data(FixtureGIF.data(width: StickerFixtures.side, height: StickerFixtures.side, frames: StickerFixtures.frames())).write(to: url)
        let frames = try render(.sticker(url, duration: 2), in: folder)
        var wrong: [String] = []
        for (n, frame) in frames.enumerated() {
            let i = expectedFrame(n)
            let c = StickerFixtures.colors[i]
            let centre = meanColor(frame.pixels, x: w / 2, y: h / 2, radius: 3)
            if !close(centre, (Double(c.0), Double(c.1), Double(c.2))) { wrong.append("frame \(n): expected GIF frame \(i), centre \(centre)") }
            // 12 pixels in from the sticker's left edge (x = 128): inside the second frame's transparent border.
            let border = meanColor(frame.pixels, x: w / 2 - 32 + 7, y: h / 2, radius: 2)
            let expected = i == 1 ? (255.0, 0.0, 255.0) : (Double(c.0), Double(c.1), Double(c.2))
            if !close(border, expected) { wrong.append("frame \(n): border \(border), expected \(expected)") }
            // Outside the sticker: the clip below.
            if !close(meanColor(frame.pixels, x: 40, y: 40), (255, 0, 255)) { wrong.append("frame \(n): outside the sticker") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(8))")
    }

    @Test("An APNG sticker plays at its delays too, and its half-transparent frame blends with the clip below")
    func apngBlends() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("star.png")
        try Data(FixtureAPNG.data(width: StickerFixtures.side, height: StickerFixtures.side, frames: StickerFixtures.frames(halfAlpha: true))).write(to: url)
        let frames = try render(.sticker(url, duration: 2, width: 128), in: folder)
        // Shown at 128×128: the border of the second frame is 32 pixels wide.
        for n in [0, 2, 3, 8, 9, 17, 18, 21, 30] {
            let i = expectedFrame(n)
            let centre = meanColor(frames[n].pixels, x: w / 2, y: h / 2, radius: 3)
            let border = meanColor(frames[n].pixels, x: w / 2 - 64 + 12, y: h / 2, radius: 3)
            switch i {
            case 0:
                #expect(close(centre, (255, 0, 0)) && close(border, (255, 0, 0)), "frame \(n): red, got \(centre) \(border)")
            case 1:
                #expect(close(centre, (0, 255, 0)) && close(border, (255, 0, 255)), "frame \(n): green with the clip below in the border, got \(centre) \(border)")
            default:
                // Blue at alpha 128 over magenta: red halves, blue stays.
                #expect(close(centre, (127, 0, 255)) && close(border, (127, 0, 255)), "frame \(n): blended, got \(centre) \(border)")
            }
        }
    }
}

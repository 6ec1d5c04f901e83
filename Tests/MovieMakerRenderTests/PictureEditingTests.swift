import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Transforms, split screens, picture-in-picture and masks on any clip, checked on decoded movies (and,
/// for the lossless quarter turn, on frames drawn in memory).
@Suite("Picture editing: transforms, split screens, masks", .serialized)
struct PictureEditingTests {
    private static func movie(_ clip: Clip, width: Int = 320, height: Int = 240, name: String = #function) throws -> [DecodedFrame] {
        let dir = try TemporaryFolder(name)
        let url = dir.file("t.mp4")
        let movie = try MovieMaker(url: url, width: width, height: height, fps: 30,
                                   settings: EncoderSettings(crf: 10, preset: .ultrafast, drawingThreads: 2))
        try movie.add(clip)
        try movie.finish()
        return try decodeAll(url)
    }

    private static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * p.width + x) * 4
        return (Int(p.bytes[i + 2]), Int(p.bytes[i + 1]), Int(p.bytes[i]))
    }

    /// The centroid of pixels matching `test`.
    private static func centroid(_ p: PixelBuffer, _ test: ((r: Int, g: Int, b: Int)) -> Bool) -> (x: Double, y: Double, count: Int)? {
        var sx = 0.0, sy = 0.0, n = 0
        for y in 0..<p.height { for x in 0..<p.width where test(pixel(p, x, y)) { sx += Double(x) + 0.5; sy += Double(y) + 0.5; n += 1 } }
        return n == 0 ? nil : (sx / Double(n), sy / Double(n), n)
    }

    private static func crop(_ p: PixelBuffer, x: Range<Int>, y: Range<Int>) -> PixelBuffer {
        var out: [UInt8] = []
        out.reserveCapacity(x.count * y.count * 4)
        for row in y {
            let start: Int = (row * p.width + x.lowerBound) * 4, end: Int = (row * p.width + x.upperBound) * 4
            out += p.bytes[start..<end]
        }
        return PixelBuffer(width: x.count, height: y.count, bytes: out)
    }

    @Test func aKeyframedTransformPutsTheMarkersWhereTheMathsSays() throws {
        // A white marker at the picture's centre (the anchor) and a red one 40 px to its right.
        let markers = Clip(duration: 1) { ctx, _ in
            ctx.setFill(.white); ctx.fillRect(Rect(x: 155, y: 115, width: 10, height: 10))
            ctx.setFill(.red); ctx.fillRect(Rect(x: 195, y: 116, width: 8, height: 8))
        }
        let position = KeyframeTrack(Point(x: 80, y: 60)).then(to: Point(x: 240, y: 180), at: 1)
        let scale = KeyframeTrack(1.0).then(to: 1.5, at: 1)
        let rotation = KeyframeTrack(0.0).then(to: 90, at: 1, easing: .quadOut)
        let clip = Clip.overlay(.color(.black, duration: 1),
                                try markers.transformed(Clip.Transform(position: .keyframes(position), scale: .keyframes(scale), rotation: .keyframes(rotation))))
        let frames = try Self.movie(clip)
        #expect(frames.count == 30)
        for k in [0, 7, 15, 22, 29] {
            let t = Double(k) / 30
            let p = (x: 80 + 160 * t, y: 60 + 120 * t), s = 1 + 0.5 * t
            let theta = 90 * Easing.quadOut(t) * .pi / 180
            let red = (x: p.x + s * 39 * cos(theta), y: p.y + s * 39 * sin(theta))
            let white = try #require(Self.centroid(frames[k].pixels) { $0.r > 160 && $0.g > 160 && $0.b > 160 }, "frame \(k): no white marker")
            let redSeen = try #require(Self.centroid(frames[k].pixels) { $0.r > 140 && $0.g < 90 && $0.b < 90 }, "frame \(k): no red marker")
            #expect(abs(white.x - p.x) <= 1 && abs(white.y - p.y) <= 1, "frame \(k): white at \(white), expected \(p)")
            #expect(abs(redSeen.x - red.x) <= 1 && abs(redSeen.y - red.y) <= 1, "frame \(k): red at \(redSeen), expected \(red)")
        }
    }

    @Test func aQuarterTurnMovesPixelsWithoutResampling() throws {
        // Noise, so any resampling shows; 240×240 frame turned about its centre maps pixels onto pixels.
        var bytes = [UInt8](repeating: 255, count: 240 * 240 * 4)
        var seed: UInt64 = 0x9E3779B97F4A7C15
        for i in 0..<(240 * 240) {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            bytes[i * 4] = UInt8(truncatingIfNeeded: seed >> 24); bytes[i * 4 + 1] = UInt8(truncatingIfNeeded: seed >> 32)
            bytes[i * 4 + 2] = UInt8(truncatingIfNeeded: seed >> 40)
        }
        let noise = try Image(PixelBuffer(width: 240, height: 240, bytes: bytes))
        let source = Clip(duration: 1) { ctx, _ in ctx.draw(noise, in: Rect(x: 0, y: 0, width: 240, height: 240)) }
        for degrees in [90.0, 180, 270, -90] {
            let turned = try source.transformed(Clip.Transform(rotation: .constant(degrees)))
            let canvas = try Canvas(width: 240, height: 240)
            try canvas.draw { ctx in try turned.draw(in: ctx, at: Frame(index: 0, movieIndex: 0, rate: 30, exactTime: .zero, duration: 1)) }
            let out = canvas.pixels()
            var mismatches = 0
            for y in 0..<240 {
                for x in 0..<240 {
                    // Clockwise by 90°: source (x, y) lands at (239 − y, x).
                    let (dx, dy): (Int, Int)
                    switch (Int(degrees) + 360) % 360 {
                    case 90: (dx, dy) = (239 - y, x)
                    case 180: (dx, dy) = (239 - x, 239 - y)
                    default: (dx, dy) = (y, 239 - x)
                    }
                    let a = (y * 240 + x) * 4, b = (dy * 240 + dx) * 4
                    if bytes[a..<a + 4] != out.bytes[b..<b + 4] { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "\(degrees)°: \(mismatches) pixels differ from the exact turn")
        }
    }

    @Test func aTwoByTwoSplitShowsEachClipInItsQuadrantAtItsTimes() throws {
        // Four clips showing frame codes offset by 0, 100, 200, 300; the third starts later (it is delayed
        // by 10 frames, so its quadrant shows code 200 + k − 10 from frame 10 on).
        func coded(_ offset: Int) -> Clip {
            Clip(duration: 1) { ctx, frame in VideoFixtures.draw(index: offset + frame.index, in: ctx, width: 640, height: 480) }
        }
        let third = coded(200).trimmed(to: Time(value: 20, timescale: 30)).delayed(by: Time(value: 10, timescale: 30))
        let split = try Clip.split(.grid2x2, [coded(0), coded(100), third, coded(300)])
        let frames = try Self.movie(split, width: 640, height: 480)
        #expect(frames.count == 30)
        for k in [0, 5, 12, 29] {
            let p = frames[k].pixels
            let quadrants = [(0..<320, 0..<240), (320..<640, 0..<240), (0..<320, 240..<480), (320..<640, 240..<480)]
            let read = quadrants.map { VideoFixtures.frameIndex(of: Self.crop(p, x: $0.0, y: $0.1)) }
            #expect(read[0] == k, "frame \(k), top left: \(String(describing: read[0]))")
            #expect(read[1] == 100 + k, "frame \(k), top right: \(String(describing: read[1]))")
            #expect(read[2] == (k >= 10 ? 200 + k - 10 : nil), "frame \(k), bottom left: \(String(describing: read[2]))")
            #expect(read[3] == 300 + k, "frame \(k), bottom right: \(String(describing: read[3]))")
        }
    }

    /// Two moments of one take side by side, from one `Clip` value: each half shows its own frames, from
    /// a decoder of its own (one decoder for both sought back and forth on every frame: 26 times as slow
    /// for two 3-second halves of a 1080p take), played forwards or the whole split reversed.
    @Test(arguments: [false, true])
    func oneVideoClipShownAtTwoMomentsSideBySide(reversed: Bool) throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 90, withSound: false))
        let take = try Clip.video(url)
        // Cells show the clip as drawn on the whole frame, scaled down: in the top half of a 2×2 grid of
        // a 640×480 frame, the 320×240 take keeps its shape.
        let split = try Clip.split(.grid2x2, [take.trimmed(from: 0, to: 1), take.trimmed(from: 2, to: 3)])
        let dir = try TemporaryFolder()
        let movie = try MovieMaker(url: dir.file("t.mp4"), width: 640, height: 480, fps: 30,
                                   settings: EncoderSettings(crf: 10, preset: .ultrafast, drawingThreads: 2))
        try movie.add(reversed ? split.reversed() : split)
        let summary = try movie.finish()
        #expect(summary.statistics.peakOpenVideoDecoders == 2)
        let frames = try decodeAll(dir.file("t.mp4"))
        #expect(frames.count == 30)
        for k in [0, 1, 2, 15, 29] where k < frames.count {
            let p = frames[k].pixels, shown = reversed ? 29 - k : k
            #expect(VideoFixtures.frameIndex(of: Self.crop(p, x: 0..<320, y: 0..<240)) == shown, "frame \(k), left")
            #expect(VideoFixtures.frameIndex(of: Self.crop(p, x: 320..<640, y: 0..<240)) == 60 + shown, "frame \(k), right")
        }
    }

    @Test func pictureInPictureLandsInItsCornerWithTheMarginAsked() throws {
        let main = Clip.color(Color(red: 0, green: 0, blue: 1), duration: 1)
        let inset = Clip.color(Color(red: 1, green: 0, blue: 0), duration: 1)
        for (corner, expectedX, expectedY) in [(Clip.SplitScreen.Corner.bottomRight, 320 - 20 - 96, 240 - 20 - 72),
                                                (.topLeft, 20, 20)] {
            let clip = try main.withPictureInPicture(inset, corner: corner, size: 0.3, margin: 20, borderWidth: 0, cornerRadius: 0)
            let frames = try Self.movie(clip, name: "pip\(corner)")
            let p = frames[15].pixels
            var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            for y in 0..<240 { for x in 0..<320 where Self.pixel(p, x, y).r > 128 { minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y) } }
            #expect(abs(minX - expectedX) <= 1 && abs(minY - expectedY) <= 1, "\(corner): inset from (\(minX), \(minY)), expected (\(expectedX), \(expectedY))")
            #expect(abs(maxX - minX + 1 - 96) <= 2 && abs(maxY - minY + 1 - 72) <= 2, "\(corner): inset \(maxX - minX + 1)×\(maxY - minY + 1), expected 96×72")
            let outside = Self.pixel(p, corner == .topLeft ? 300 : 10, corner == .topLeft ? 220 : 10)
            #expect(outside.b > 200 && outside.r < 40, "the main picture shows outside the inset: \(outside)")
        }
    }

    /// The main picture of a picture-in-picture had the inset's white border and rounded corners drawn
    /// round the whole frame: they are the inset's alone.
    @Test("a picture-in-picture's border and rounded corners frame the inset only, not the whole frame")
    func pictureInPictureFramesTheInsetOnly() throws {
        let main = Clip.color(Color(red: 0, green: 0, blue: 1), duration: 1)
        let inset = Clip.color(Color(red: 1, green: 0, blue: 0), duration: 1)
        let clip = try main.withPictureInPicture(inset, corner: .bottomRight, size: 0.3, margin: 20, borderWidth: 4, cornerRadius: 12)
        let p = try #require(try clip.renderFrames(0..<1, width: 320, height: 240).first)
        for (x, y) in [(0, 0), (319, 0), (0, 239), (160, 0), (0, 120)] {
            let c = Self.pixel(p, x, y)
            #expect(c.b > 240 && c.r < 15 && c.g < 15, "the main picture reaches the frame's edge at (\(x), \(y)): \(c)")
        }
        // The inset has its border: white at its edge.
        let edge = Self.pixel(p, 320 - 20 - 48, 240 - 20 - 72 + 1)
        #expect(edge.r > 200 && edge.g > 200 && edge.b > 200, "the inset's border: \(edge)")
    }

    @Test func aLumaMaskShowsTheClipWhereTheMaskIsBright() throws {
        let red = Clip.color(.red, duration: 1)
        // Mask: white left half, black right half.
        let mask = Clip(duration: 1) { ctx, _ in
            ctx.clear(.black)
            ctx.setFill(.white); ctx.fillRect(Rect(x: 0, y: 0, width: 160, height: 240))
        }
        for (mode, leftRed, rightRed) in [(Clip.MaskMode.luma, true, false), (.inverseLuma, false, true), (.alpha, true, true)] {
            let clip = Clip.overlay(.color(.blue, duration: 1), red.masked(by: mask, mode: mode))
            let f = try #require(try clip.renderFrames(0..<1, width: 320, height: 240).first)
            let l = Self.pixel(f, 40, 120), r = Self.pixel(f, 280, 120)
            #expect((l.r > 250 && l.b < 5) == leftRed, "\(mode) left: \(l)")
            #expect((r.r > 250 && r.b < 5) == rightRed, "\(mode) right: \(r)")
            #expect(leftRed || l.b > 250, "\(mode): the clip below shows where masked out")
        }
    }

    @Test func transformsAndSplitsRoundTripAsData() throws {
        let transform = Clip.Transform(position: .keyframes(KeyframeTrack(Point(x: 1, y: 2)).then(to: Point(x: 3, y: 4), at: 1, easing: .quadOut)),
                                       anchor: Point(x: 0, y: 1), scale: .constant(2), rotation: .constant(45), flipHorizontally: true,
                                       crop: Rect(x: 0.1, y: 0.1, width: 0.5, height: 0.5), cornerRadius: 4, opacity: .constant(0.5), blendMode: .multiply)
        let clip = try Clip.split(Clip.SplitScreen(.pictureInPicture, cells: [.init(.color(.red, duration: 2)), .init(try Clip.color(.blue, duration: 1).transformed(transform), fit: .fit)],
                                                   gutter: 4, borderWidth: 3, cornerRadius: 6, corner: .topLeft))
            .masked(by: .color(.white, duration: 2), mode: .luma)
        let data = try JSONEncoder().encode(clip)
        let back = try JSONDecoder().decode(Clip.self, from: data)
        #expect(back == clip)
        #expect(try back.contentHash() == clip.contentHash())
    }

    @Test func badTransformValuesAreRefusedNamingThem() {
        #expect(throws: MovieMakerError.self) { try Clip.color(.red, duration: 1).transformed(Clip.Transform(scale: .constant(-1))) }
        do {
            _ = try Clip.color(.red, duration: 1).transformed(Clip.Transform(opacity: .constant(2)))
            Issue.record("an opacity of 2 was accepted")
        } catch {
            #expect(error.message.contains("opacity 2"), "\(error.message)")
        }
        #expect(throws: MovieMakerError.self) { try Clip.split(.sideBySide, [.color(.red, duration: 1), .color(.red, duration: 1), .color(.red, duration: 1)]) }
    }
}

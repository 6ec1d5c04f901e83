import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Decoded frames against the frames that were drawn.
@Suite struct ColorAccuracyTests {
    /// Vector art: gradient background, stroked and filled Bézier shapes, text; designed at 320×240 and
    /// scaled to the frame (the tool README's PSNR thresholds were measured at 1280×720).
    static func drawVectorArt(_ ctx: DrawingContext, _ frame: Frame) throws {
        ctx.scale(x: ctx.bounds.width / 320, y: ctx.bounds.height / 240)
        let w = 320.0, h = 240.0, t = frame.time
        ctx.setFill(.linear(from: .zero, to: Point(x: w, y: h), colors: [Color(hex: "#203a60")!, Color(hex: "#0e1420")!]))
        ctx.fillRect(Rect(x: 0, y: 0, width: w, height: h))
        for i in 0..<6 {
            let k = Double(i)
            ctx.move(to: Point(x: 10, y: 30 + k * 35))
            ctx.curve(to: Point(x: w - 10, y: 40 + k * 30),
                      control1: Point(x: w * 0.3, y: 20 + k * 30 + 40 * sin(t * 2 + k)),
                      control2: Point(x: w * 0.7, y: 60 + k * 30 - 40 * cos(t * 3 + k)))
            ctx.setStroke(Color(red: 0.5 + 0.08 * k, green: 0.9 - 0.1 * k, blue: 0.3 + 0.1 * k))
            ctx.lineWidth = 3
            ctx.stroke()
        }
        ctx.setFill(.radial(center: Point(x: w * 0.7, y: h * 0.6), radius: 50, colors: [.yellow, Color.red.withAlpha(0.6)]))
        ctx.fillEllipse(in: Rect(x: w * 0.7 - 50 + 20 * sin(t), y: h * 0.6 - 40, width: 100, height: 80))
        ctx.setFill(.white)
        try ctx.draw("Frame \(frame.index)", at: Point(x: 12, y: h - 16), font: try Font.dejaVuSans(size: 20))
    }

    @Test(arguments: [18, 23])
    func decodedFramesMatchDrawnFramesAbove34dB(crf: Int) throws {
        let dir = try TemporaryFolder()
        let url = dir.file("psnr.mp4")
        let (w, h, n) = (1280, 720, 8)
        let movie = try MovieMaker(url: url, width: w, height: h, fps: 30, settings: EncoderSettings(crf: crf, preset: .veryfast))
        var drawn: [PixelBuffer] = []
        try movie.addFrames(count: n) { ctx, frame in try Self.drawVectorArt(ctx, frame) }
        // Draw the same frames again on a canvas to keep the references (MovieMaker's buffer is reused).
        let canvas = try Canvas(width: w, height: h)
        for i in 0..<n {
            try canvas.draw { ctx in try Self.drawVectorArt(ctx, Frame(index: i, movieIndex: i, rate: 30, exactTime: FrameRate(30).time(ofFrame: i), duration: FrameRate(30).time(ofFrame: n))) }
            drawn.append(canvas.pixels())
        }
        try movie.finish()
        let decoded = try decodeAll(url)
        #expect(decoded.count == n)
        for (i, frame) in decoded.enumerated() {
            let score = psnr(frame.pixels, drawn[i])
            #expect(score >= 34, "frame \(i): PSNR \(score) dB at CRF \(crf)")
        }
        // A frame compared with its neighbour's drawing scores lower: the check can tell frames apart.
        #expect(psnr(decoded[2].pixels, drawn[2]) > psnr(decoded[2].pixels, drawn[7]) + 3)
    }

    @Test func currentPixelsAreTheDrawnFrame() throws {
        let dir = try TemporaryFolder()
        let movie = try MovieMaker(url: dir.file("p.mp4"), width: 64, height: 48, fps: 30)
        try movie.addFrame { ctx in ctx.clear(.black); ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 32, height: 48)) }
        let p = movie.currentPixels()
        #expect(p.rgba(x: 10, y: 10) == (255, 0, 0, 255))
        #expect(p.rgba(x: 50, y: 10) == (0, 0, 0, 255))
        movie.cancel()
    }

    /// Pure red, green, blue, white, black and mid-grey patches: a BT.601/709 or range mix-up misses by 20+ levels.
    @Test func colourPatchesDecodeWithinThreeLevelsForGreysAndSixForColours() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("patches.mp4")
        let patches: [(String, Color)] = [("red", .red), ("green", .green), ("blue", .blue),
                                          ("white", .white), ("black", .black), ("mid-grey", Color(red8: 128, green8: 128, blue8: 128))]
        let w = 480, h = 160, pw = w / patches.count
        let movie = try MovieMaker(url: url, width: w, height: h, fps: 30)
        try movie.addFrames(count: 3) { ctx, _ in
            for (i, p) in patches.enumerated() {
                ctx.setFill(p.1); ctx.fillRect(Rect(x: Double(i * pw), y: 0, width: Double(pw), height: Double(h)))
            }
        }
        try movie.finish()
        let frame = try #require(try decodeAll(url).last)
        for (i, p) in patches.enumerated() {
            let got = meanColor(frame.pixels, x: i * pw + pw / 2, y: h / 2)
            let want = (r: p.1.red * 255, g: p.1.green * 255, b: p.1.blue * 255)
            let err = max(abs(got.r - want.r), abs(got.g - want.g), abs(got.b - want.b))
            let isGrey = p.1.red == p.1.green && p.1.green == p.1.blue
            #expect(err <= (isGrey ? 3 : 6), "\(p.0): drew \(want), decoded \(got), off by \(err) levels")
        }
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Exact time, frame rates and the clip combinators.
@Suite struct TimeModelTests {
    @Test func frameRatesAreReducedFractions() {
        #expect(FrameRate(numerator: 60, denominator: 2) == FrameRate(30))
        #expect(FrameRate.ntsc.numerator == 30000 && FrameRate.ntsc.denominator == 1001)
        #expect(FrameRate.ntscFilm.description == "24000/1001")
        #expect(abs(FrameRate.ntsc.framesPerSecond - 29.97002997) < 1e-8)
    }

    @Test func frameTimesAreExactAfterHours() {
        // Ten hours at 30000/1001: frame 1,078,920 starts at exactly 1,078,920 × 1001 / 30000 s = 35999.9640 s.
        let rate = FrameRate.ntsc
        let t = rate.time(ofFrame: 1_078_920)
        #expect(t == Time(value: 1_078_920 * 1001, timescale: 30_000))
        #expect(t.seconds == 35_999.964)
        // Adding frame durations one by one gives the same exact value (no float accumulation anywhere).
        var sum = Time.zero
        for _ in 0..<3000 { sum = sum + rate.frameDuration }
        #expect(sum == rate.time(ofFrame: 3000))
        #expect(sum == Time(value: 3003, timescale: 30))
        // Whole-second rates land on whole seconds.
        #expect(FrameRate(25).time(ofFrame: 90_000) == Time(value: 3600, timescale: 1))
    }

    @Test func frameCountCoversTheDuration() {
        #expect(FrameRate(30).frameCount(for: 2) == 60)
        #expect(FrameRate(30).frameCount(for: 2.01) == 61)
        #expect(FrameRate(30).frameCount(for: .zero) == 0)
        #expect(FrameRate.ntsc.frameCount(for: 1) == 30)          // 29.97 frames → 30 frame starts before 1 s
        #expect(FrameRate.ntsc.frameCount(for: FrameRate.ntsc.time(ofFrame: 300)) == 300)
        #expect(FrameRate(24).frameIndex(at: 1.5) == 36)
    }

    @Test func timeArithmeticAndLiterals() {
        let a: Time = 2.5
        #expect(a == Time(value: 5, timescale: 2))
        #expect(a + 0.5 == 3)
        #expect(Time(seconds: 0.1) * 3 == Time(seconds: 0.3))
        #expect(Time(value: 1001, timescale: 30000) < Time(value: 1, timescale: 29))
        #expect(Time.max(1, 2) == 2)
    }

    /// Draws each clip at a few times onto a canvas and reads the colour in the middle.
    private func colour(of clip: Clip, at seconds: Time, rate: FrameRate = 30) throws -> (UInt8, UInt8, UInt8) {
        let canvas = try Canvas(width: 8, height: 8)
        try canvas.draw { ctx in
            ctx.clear(.black)
            try clip.draw(in: ctx, at: Frame(index: rate.frameIndex(at: seconds), movieIndex: 0, rate: rate, exactTime: seconds, duration: clip.duration))
        }
        let c = canvas.pixels().rgba(x: 4, y: 4)
        return (c.red, c.green, c.blue)
    }

    @Test func sequencePlaysClipsOneAfterAnother() throws {
        let s = Clip.sequence(.color(.red, duration: 1), .color(.green, duration: 0.5), .color(.blue, duration: 1))
        #expect(s.duration == 2.5)
        #expect(try colour(of: s, at: 0) == (255, 0, 0))
        #expect(try colour(of: s, at: 0.999) == (255, 0, 0))
        #expect(try colour(of: s, at: 1) == (0, 255, 0))
        #expect(try colour(of: s, at: 1.4) == (0, 255, 0))
        #expect(try colour(of: s, at: 1.5) == (0, 0, 255))
        #expect(try colour(of: s, at: 2.4) == (0, 0, 255))
    }

    @Test func sequencePassesLocalTimeToEachClip() throws {
        let probe = Clip(duration: 1) { ctx, f in ctx.clear(Color(red: f.time, green: f.progress, blue: 0)) }
        let s = Clip.sequence(.color(.black, duration: 2), probe)
        let c = try colour(of: s, at: 2.5)
        #expect(c.0 == 128 && c.1 == 128, "local time 0.5 expected, got \(c)")
    }

    @Test func overlayDrawsLaterClipsOnTopWhileTheyLast() throws {
        let square = Clip(duration: 1) { ctx, _ in ctx.setFill(.white); ctx.fillRect(Rect(x: 2, y: 2, width: 4, height: 4)) }
        let o = Clip.overlay(.color(.red, duration: 2), square)
        #expect(o.duration == 2)
        #expect(try colour(of: o, at: 0.5) == (255, 255, 255))
        #expect(try colour(of: o, at: 1.5) == (255, 0, 0))
    }

    @Test func delayedTrimmedAndRepeatedClips() throws {
        let ramp = Clip(duration: 2) { ctx, f in ctx.clear(Color(white: f.time / 2)) }
        let d = ramp.delayed(by: 1)
        #expect(d.duration == 3)
        #expect(try colour(of: d, at: 0.5) == (0, 0, 0))
        #expect(try colour(of: d, at: 2) == (128, 128, 128))
        #expect(ramp.trimmed(to: 0.5).duration == 0.5)
        let middle = ramp.trimmed(from: 1, to: 2)
        #expect(middle.duration == 1)
        #expect(try colour(of: middle, at: 0) == (128, 128, 128))
        let twice = Clip.color(.red, duration: 1).repeated(2)
        #expect(twice.duration == 2)
        // Combinators return new clips: the original is unchanged.
        #expect(ramp.duration == 2)
    }

    @Test func movieRendersAClipFrameByFrame() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("clip.mp4")
        let clip = Clip.sequence(.color(.red, duration: 1), .overlay(.color(.blue, duration: 1), Clip(duration: 0.5) { ctx, _ in
            ctx.setFill(.white); ctx.fillRect(Rect(x: 0, y: 0, width: 80, height: 80))
        }))
        let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 10)
        try movie.add(clip)
        let summary = try movie.finish()
        #expect(summary.frameCount == 20)
        let frames = try decodeAll(url)
        #expect(frames.count == 20)
        for (i, f) in frames.enumerated() {
            let corner = meanColor(f.pixels, x: 40, y: 40), far = meanColor(f.pixels, x: 130, y: 100)
            switch i {
            case 0..<10:
                #expect(corner.r > 240 && corner.b < 15, "frame \(i) should be red")
            case 10..<15:
                #expect(corner.r > 240 && corner.g > 240 && corner.b > 240, "frame \(i) should have the white square")
                #expect(far.b > 240 && far.r < 15, "frame \(i) should be blue outside the square")
            default:
                #expect(corner.b > 240 && corner.r < 15, "frame \(i) should be blue")
            }
        }
    }

    /// A clip whose every frame is different: a white bar at x = 4 × frame index, grey level from the time.
    static let marker = Clip(duration: 2) { ctx, f in
        ctx.setFill(Color(white: 0.2 + 0.3 * f.progress)); ctx.fillRect(ctx.bounds)
        ctx.setFill(.white); ctx.fillRect(Rect(x: Double(f.index * 4), y: 0, width: 4, height: 16))
    }

    @Test(arguments: [1, 2, 3])
    func clipFramesDrawnInParallelArriveInOrder(drawingThreads: Int) throws {
        let dir = try TemporaryFolder()
        let url = dir.file("order.mp4")
        let movie = try MovieMaker(url: url, width: 160, height: 32, fps: 20, settings: EncoderSettings(crf: 12, preset: .ultrafast, drawingThreads: drawingThreads))
        try movie.add(Self.marker)
        // The pixel buffer holds the clip's last frame afterwards, whichever canvas drew it.
        #expect(movie.currentPixels().rgba(x: 39 * 4 + 2, y: 8).red == 255)
        try movie.finish()
        let frames = try decodeAll(url)
        #expect(frames.count == 40)
        for (i, f) in frames.enumerated() {
            #expect(f.pixels.rgba(x: i * 4 + 2, y: 8).red > 230, "frame \(i): its bar is missing")
            if i > 0 { #expect(f.pixels.rgba(x: (i - 1) * 4 + 1, y: 8).red < 150, "frame \(i) shows frame \(i - 1)'s bar") }
        }
    }

    @Test func parallelAndSequentialClipDrawingGiveTheSamePictures() throws {
        let dir = try TemporaryFolder()
        var decoded: [[PixelBuffer]] = []
        for threads in [1, 4] {
            let url = dir.file("t\(threads).mp4")
            let movie = try MovieMaker(url: url, width: 160, height: 32, fps: 20, settings: EncoderSettings(preset: .ultrafast, drawingThreads: threads))
            try movie.add(.sequence(Self.marker, .overlay(.color(.blue, duration: 0.5), Self.marker.trimmed(to: 0.5))))
            try movie.finish()
            decoded.append(try decodeAll(url).map(\.pixels))
        }
        #expect(decoded[0].count == 50)
        #expect(decoded[0] == decoded[1])
    }

    struct ClipFailed: Error {}

    @Test func aFailingClipFrameStopsTheRenderAndLeavesNoFile() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("fail.mp4")
        let failing = Clip(duration: 2) { ctx, f in
            if f.index == 17 { throw ClipFailed() }
            ctx.clear(.red)
        }
        let movie = try MovieMaker(url: url, width: 64, height: 48, fps: 20, settings: EncoderSettings(preset: .ultrafast, drawingThreads: 3))
        #expect(throws: ClipFailed.self) { try movie.add(failing) }
        #expect(dir.contents.isEmpty, "left behind: \(dir.contents)")
        #expect(throws: MovieMakerError.self) { try movie.finish() }
    }
}

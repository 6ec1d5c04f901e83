import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// GIF, APNG and animated WebP: each decoded back (GIF and APNG by FFmpeg, WebP by libwebp) and checked
/// for frame count, per-frame timing, looping and pixels against the drawn frames.
@Suite("Animated images: GIF, APNG and WebP decoded back — timing, looping, pixels, --max-size")
struct AnimatedImageTests {
    static let (width, height) = (320, 240)

    /// Flat graphics: a few solid shapes moving over a plain background (what a GIF of a title or a
    /// chart is).
    static let flat: @Sendable (DrawingContext, Frame) throws -> Void = { ctx, frame in
        ctx.clear(Color(red8: 245, green8: 240, blue8: 228))
        ctx.setFill(Color(red8: 30, green8: 90, blue8: 200))
        ctx.fillRect(Rect(x: 20 + frame.time * 120, y: 40, width: 90, height: 60))
        ctx.setFill(Color(red8: 220, green8: 60, blue8: 40))
        ctx.fillEllipse(in: Rect(x: 180, y: 120 + frame.time * 30, width: 80, height: 80))
        ctx.setFill(Color(red8: 20, green8: 20, blue8: 20))
        ctx.fillRect(Rect(x: 0, y: 220, width: Double(width) * frame.time / 1.5, height: 20))
    }

    /// A photo-like picture: the Mandelbrot picture of `CodecTests`, panning.
    static func photo(in folder: TemporaryFolder) throws -> @Sendable (DrawingContext, Frame) throws -> Void {
        let image = try PhotoDecoder.decode(CodecTests.photo(in: folder), fitting: Size(width: 640, height: 640)).image
        return { ctx, frame in
            ctx.draw(image, in: Rect(x: -frame.time * 40, y: -frame.time * 10, width: 480, height: 480 * Double(image.height) / Double(image.width)))
        }
    }

    /// Renders `count` frames at `fps` with `draw` into `name`; returns the file, what `finish` said and the drawn frames.
    static func render(_ name: String, in folder: TemporaryFolder, count: Int = 45, fps: FrameRate = 30, settings: EncoderSettings = EncoderSettings(),
                       draw: @escaping @Sendable (DrawingContext, Frame) throws -> Void) throws -> (URL, MovieSummary, [PixelBuffer]) {
        let url = folder.file(name)
        let movie = try MovieMaker(url: url, width: width, height: height, fps: fps, settings: settings)
        try movie.addFrames(count: count) { ctx, frame in try draw(ctx, frame) }
        let summary = try movie.finish()
        let canvas = try Canvas(width: width, height: height)
        var drawn: [PixelBuffer] = []
        for i in 0..<count {
            let frame = Frame(index: i, movieIndex: i, rate: fps, exactTime: fps.time(ofFrame: i), duration: fps.time(ofFrame: count))
            try canvas.draw { ctx in try draw(ctx, frame) }
            drawn.append(canvas.pixels())
        }
        return (url, summary, drawn)
    }

    /// The lowest and mean PSNR of `decoded` against `drawn` frame by frame (`step`: every how many drawn frames one was kept).
    static func scores(_ decoded: [PixelBuffer], _ drawn: [PixelBuffer], step: Int = 1) -> (lowest: Double, mean: Double) {
        let s = decoded.enumerated().map { psnr($0.element, drawn[$0.offset * step]) }
        return (s.min() ?? 0, s.reduce(0, +) / Double(max(1, s.count)))
    }

    /// Each frame's GIF delay is the centisecond rounding of its movie time, so they add up to the movie's length.
    static func expectCentiseconds(_ delays: [Int], frames: Int, fps: FrameRate, step: Int = 1, _ what: String) {
        let shown = Array(stride(from: 0, to: frames, by: step)) + [frames]
        let cs = shown.map { Int((Double($0) * 100 * Double(fps.denominator) / Double(fps.numerator)).rounded()) }
        let expected = zip(cs.dropFirst(), cs).map { $0 - $1 }
        #expect(delays == expected, "\(what): GIF delays")
        #expect(delays.reduce(0, +) == Int((Double(frames) * 100 * Double(fps.denominator) / Double(fps.numerator)).rounded()), "\(what): total")
    }

    @Test("a GIF of flat graphics: every frame, its timing to the centisecond, looping, ≥ 40 dB")
    func gifFlatGraphics() throws {
        let folder = try TemporaryFolder()
        let (url, summary, drawn) = try Self.render("flat.gif", in: folder, draw: Self.flat)
        #expect(summary.frameCount == 45 && summary.fit == nil)
        let gif = try AnimatedImageFiles.gif(url)
        #expect(gif.delays.count == 45 && gif.width == Self.width && gif.height == Self.height)
        Self.expectCentiseconds(gif.delays, frames: 45, fps: 30, "30 fps")
        #expect(gif.loopCount == 0, "loops forever")
        // FFmpeg decodes the same frames: 45 of them, lasting 1.5 s.
        let decoded = try decodeAll(url).map(\.pixels)
        #expect(decoded.count == 45)
        let (lowest, mean) = Self.scores(decoded, drawn)
        #expect(lowest >= 40, "flat graphics: lowest PSNR \(lowest) dB (mean \(mean))")
        #expect(try probeFormatDuration(url) == 1.5)
    }

    /// A GIF's delays are whole centiseconds and browsers play 1 cs as 10: a 60 fps movie (a screen
    /// recording stitched to a GIF) keeps every 2nd frame, 120 fps every 3rd, so no delay is under 2 cs
    /// and the length holds (at 60 fps the delays were 2, 1, 2, 2, 1 and 1.5 s played as about 4 s; at
    /// 120 fps the muxer refused the file after every frame was drawn).
    @Test(arguments: [(FrameRate(60), 2), (FrameRate(120), 3), (FrameRate(50), 1)])
    func aGIFFasterThan50fpsKeepsEveryNthFrame(fps: FrameRate, step: Int) throws {
        let folder = try TemporaryFolder()
        let frames = 3 * Int(fps.framesPerSecond) / 2
        let (url, summary, _) = try Self.render("fast.gif", in: folder, count: frames, fps: fps, draw: Self.flat)
        #expect(summary.frameCount == frames)
        let gif = try AnimatedImageFiles.gif(url)
        #expect(gif.delays.count == (frames + step - 1) / step, "\(gif.delays.count) frames kept of \(frames)")
        #expect(gif.delays.allSatisfy { $0 >= 2 }, "no delay a browser would stretch: \(gif.delays.prefix(8))")
        Self.expectCentiseconds(gif.delays, frames: frames, fps: fps, step: step, "\(fps) fps")
    }

    @Test("a GIF of a photo, with each palette kind and dithering: ≥ 30 dB; played once has no loop block")
    func gifPhoto() throws {
        let folder = try TemporaryFolder()
        let draw = try Self.photo(in: folder)
        var results: [String: Double] = [:]
        for (palette, dither) in [(GIFPalette.movie, GIFDither.sierraLite), (.movingParts, .bayer), (.perScene, .floydSteinberg), (.perFrame, .sierraLite)] {
            var settings = EncoderSettings()
            settings.animatedImage = AnimatedImageSettings(palette: palette, dither: dither, plays: palette == .movie ? 1 : 3)
            let (url, _, drawn) = try Self.render("photo-\(palette.rawValue).gif", in: folder, count: 15, settings: settings, draw: draw)
            let gif = try AnimatedImageFiles.gif(url)
            Self.expectCentiseconds(gif.delays, frames: 15, fps: 30, palette.rawValue)
            #expect(gif.loopCount == (palette == .movie ? nil : 2), "\(palette): plays once → no loop block; 3 plays → 2 repeats")
            let (lowest, mean) = Self.scores(try decodeAll(url).map(\.pixels), drawn)
            #expect(lowest >= 30, "\(palette)/\(dither): lowest PSNR \(lowest) dB")
            results[palette.rawValue] = mean
        }
        // A palette per frame fits each frame best.
        #expect(results["perFrame"]! >= results["movie"]! - 0.1, "\(results)")
    }

    @Test("per-scene palettes: scdet finds the cut, and each scene's colours beat one palette for both")
    func gifPerScene() throws {
        let folder = try TemporaryFolder()
        // Two scenes of unrelated colours: warm gradients, then cold ones.
        let draw: @Sendable (DrawingContext, Frame) throws -> Void = { ctx, frame in
            let warm = frame.index < 10
            let colors = warm ? [Color(red8: 255, green8: 200, blue8: 0), Color(red8: 200, green8: 20, blue8: 10)]
                              : [Color(red8: 0, green8: 220, blue8: 255), Color(red8: 20, green8: 10, blue8: 180)]
            let (w, h) = (Double(AnimatedImageTests.width), Double(AnimatedImageTests.height))
            ctx.setFill(Paint.linear(from: Point(x: frame.time * 50, y: 0), to: Point(x: w, y: h), colors: colors))
            ctx.fillRect(Rect(x: 0, y: 0, width: w, height: h))
        }
        var means: [GIFPalette: Double] = [:]
        for palette in [GIFPalette.movie, .perScene] {
            var settings = EncoderSettings()
            settings.animatedImage = AnimatedImageSettings(palette: palette, dither: .none, colors: 16)
            let (url, _, drawn) = try Self.render("scenes-\(palette.rawValue).gif", in: folder, count: 20, settings: settings, draw: draw)
            means[palette] = Self.scores(try decodeAll(url).map(\.pixels), drawn).mean
        }
        #expect(means[.perScene]! > means[.movie]! + 1, "16 colours per scene against 16 for both: \(means)")
    }

    @Test("an APNG is lossless, timed exactly (fcTL fractions) and loops as asked; with transparency it keeps alpha")
    func apng() throws {
        let folder = try TemporaryFolder()
        var settings = EncoderSettings()
        settings.animatedImage.plays = 2
        let fps = FrameRate(numerator: 30000, denominator: 1001)!
        let (url, _, drawn) = try Self.render("flat.apng", in: folder, count: 20, fps: fps, settings: settings, draw: Self.flat)
        let apng = try AnimatedImageFiles.apng(url)
        #expect(apng.plays == 2 && apng.hasSRGB)
        #expect(apng.delays.count == 20)
        #expect(apng.delays.allSatisfy { $0.num * 30000 == $0.den * 1001 }, "each frame lasts exactly 1001/30000 s: \(apng.delays.prefix(3))")
        let decoded = try decodeAll(url).map(\.pixels)
        #expect(decoded.count == 20)
        #expect(decoded.enumerated().allSatisfy { psnr($0.element, drawn[$0.offset]) == .infinity }, "lossless")

        var alpha = EncoderSettings(transparency: true)
        alpha.animatedImage.plays = 0
        let clear = folder.file("alpha.apng")
        let movie = try MovieMaker(url: clear, width: 64, height: 48, fps: 10, settings: alpha)
        try movie.addFrames(count: 3) { ctx, frame in
            ctx.setFill(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
            ctx.fillRect(Rect(x: 0, y: 0, width: 32, height: 48))
        }
        try movie.finish()
        #expect(try AnimatedImageFiles.apng(clear).plays == 0)
        let frames = try AnimatedImageFiles.ffmpegFrames(clear, width: 64, height: 48)
        #expect(frames.count == 3)
        let left = frames[0].bytes[(24 * 64 + 10) * 4 ..< (24 * 64 + 10) * 4 + 4], right = frames[0].bytes[(24 * 64 + 50) * 4 ..< (24 * 64 + 50) * 4 + 4]
        #expect(Array(left) == [0, 0, 255, 128] || Array(left) == [0, 0, 255, 127], "half-transparent red: \(Array(left))")
        #expect(right.last == 0, "transparent")
    }

    @Test("an animated WebP, lossy and lossless, decoded by libwebp: frames, millisecond timing, loop count")
    func webp() throws {
        let folder = try TemporaryFolder()
        var lossless = EncoderSettings()
        lossless.lossless = true
        lossless.animatedImage.plays = 4
        let (exactURL, _, drawn) = try Self.render("flat-lossless.webp", in: folder, count: 30, settings: lossless, draw: Self.flat)
        let exact = try AnimatedImageFiles.webp(exactURL)
        #expect(exact.frames.count == 30 && exact.loopCount == 4)
        let movieTimes: [Int] = (1...30).map { (i: Int) -> Int in Int((Double(i) * 1000 / 30).rounded()) }
        #expect(exact.endTimes == movieTimes, "each frame ends at its movie time, to the millisecond")
        #expect(exact.frames.enumerated().allSatisfy { psnr($0.element, drawn[$0.offset]) == .infinity }, "lossless")

        let (lossyURL, _, photoDrawn) = try Self.render("photo.webp", in: folder, count: 15, draw: try Self.photo(in: folder))
        let lossy = try AnimatedImageFiles.webp(lossyURL)
        #expect(lossy.frames.count == 15 && lossy.loopCount == 0)
        #expect(lossy.endTimes.last == 500)
        // Lossy WebP is VP8: 4:2:0 colour, which on this saturated fractal costs the RGB PSNR most
        // (about 25 dB at any quality); luma, what VP8 spends its bits on, is compared.
        let luma = lossy.frames.enumerated().map { CodecTests.lumaPSNR($0.element, photoDrawn[$0.offset]) }
        #expect(luma.min()! >= 30, "lossy WebP at quality 80: lowest luma PSNR \(luma.min()!) dB")
    }

    @Test("--max-size: a GIF too large is made again at a lower frame rate, then smaller, until it fits; still ≥ 25 dB")
    func maxSize() throws {
        let folder = try TemporaryFolder()
        let draw = try Self.photo(in: folder)
        let (full, fullSummary, drawn) = try Self.render("full.gif", in: folder, count: 30, draw: draw)
        let budget = fullSummary.fileSize * 2 / 5
        var settings = EncoderSettings()
        settings.animatedImage.maxFileSize = budget
        let (url, summary, _) = try Self.render("fitted.gif", in: folder, count: 30, settings: settings, draw: draw)
        #expect(summary.fileSize <= budget && summary.fileSize > 0, "\(summary.fileSize) bytes for a budget of \(budget)")
        let fit = try #require(summary.fit, "it says what it chose")
        #expect(fit.frameRate.framesPerSecond < 30, "the frame rate is lowered first: \(fit)")
        #expect(summary.description.contains("to fit \(budget) bytes"))
        let step = 30 * fit.frameRate.denominator / fit.frameRate.numerator
        let gif = try AnimatedImageFiles.gif(url)
        #expect(gif.delays.count == summary.frameCount && gif.width == fit.width && gif.height == fit.height)
        Self.expectCentiseconds(gif.delays, frames: 30, fps: 30, step: step, "fitted")
        let decoded = try AnimatedImageFiles.ffmpegFrames(url, width: Self.width, height: Self.height, scaled: true)
        let (lowest, mean) = Self.scores(decoded, drawn, step: step)
        #expect(lowest >= 25, "fitted: lowest PSNR \(lowest) dB (mean \(mean))")
        _ = full

        // A budget nothing fits: a typed error naming the smallest it could make, and nothing left behind.
        let kept = try plantExistingFile(folder.file("tiny.gif"))
        settings.animatedImage.maxFileSize = 1024
        let error = try #require(throws: MovieMakerError.self) {
            _ = try Self.render("tiny.gif", in: folder, count: 30, settings: settings, draw: draw)
        }
        #expect(error.setting == .maxFileSize && error.description.contains("the smallest this movie makes"), "\(error)")
        #expect(try Data(contentsOf: folder.file("tiny.gif")) == kept, "the file that was there is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).allSatisfy { !$0.hasPrefix(".") }, "no partial file")

        // A lossless WebP has no quality to lower: the error says so instead of naming a quality it never used.
        var lossless = EncoderSettings()
        lossless.lossless = true
        lossless.animatedImage.maxFileSize = 1024
        let webpError = try #require(throws: MovieMakerError.self) {
            _ = try Self.render("tiny.webp", in: folder, count: 30, settings: lossless, draw: draw)
        }
        #expect(webpError.description.contains("lossless") && !webpError.description.contains("quality 20"), "\(webpError)")
    }

    @Test("what animated images cannot do is refused before the first frame, naming the fix")
    func refusals() throws {
        let folder = try TemporaryFolder()
        #expect(throws: MovieMakerError.self) { try MovieMaker(url: folder.file("a.gif"), width: 64, height: 64, settings: EncoderSettings(transparency: true)) }
        var apng = EncoderSettings()
        apng.animatedImage.maxFileSize = 100_000
        let e = try #require(throws: MovieMakerError.self) { try MovieMaker(url: folder.file("a.apng"), width: 64, height: 64, settings: apng) }
        #expect(e.setting == .maxFileSize)
        var colors = EncoderSettings()
        colors.animatedImage.colors = 300
        let expected = "4…256 colours in a GIF's palette (256 is the most a GIF holds, 4 the fewest FFmpeg's palette maker makes)"
        #expect(throws: MovieMakerError.invalidSetting(.gifColors, value: "300", expected: expected)) {
            try MovieMaker(url: folder.file("a.gif"), width: 64, height: 64, settings: colors)
        }
        // Fewer than 4 failed after every frame was drawn (libavfilter's palettegen refuses them).
        colors.animatedImage.colors = 3
        #expect(throws: MovieMakerError.invalidSetting(.gifColors, value: "3", expected: expected)) {
            try MovieMaker(url: folder.file("a.gif"), width: 64, height: 64, settings: colors)
        }
        let gif = try MovieMaker(url: folder.file("b.gif"), width: 64, height: 64)
        #expect(throws: MovieMakerError.self) { try gif.addAudio(FunctionSound.sine(seconds: 1)) }
        gif.cancel()
        // Odd sizes are fine: no 4:2:0 here.
        let odd = try MovieMaker(url: folder.file("odd.gif"), width: 65, height: 33)
        try odd.addFrames(count: 2) { ctx, _ in ctx.clear(.white) }
        #expect(try odd.finish().width == 65)
        #expect(try AnimatedImageFiles.gif(folder.file("odd.gif")).width == 65)
    }
}

/// The format's duration as ffprobe reads it.
func probeFormatDuration(_ url: URL) throws -> Double? {
    let r = try run(FFTools.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
    return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
}

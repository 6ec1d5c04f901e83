import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport
import MovieMakerWorkloads

/// MovieMaker's own BGRA → yuv420p conversion (`YUV420Conversion`, used for every opaque yuv420p
/// output) against the swscale path it replaced: within one level on every byte of every plane, on the
/// benchmark workloads' own 1080p frames and on a chart made to be hard for a chroma filter; and the
/// same bytes with or without AVX2, so a frame does not depend on the machine that converted it.
@Suite("YUV conversion")
struct YUVConversionTests {
    /// Converts `canvas` both ways and returns the largest difference over Y, U and V, with where it is.
    static func largestDifference(_ canvas: Canvas) throws -> (level: Int, plane: String, x: Int, y: Int) {
        let w = canvas.width, h = canvas.height
        let ours = try BenchmarkConverter(width: w, height: h), reference = try BenchmarkConverter(width: w, height: h, method: .swscale)
        let a = try ours.makeFrame(), b = try reference.makeFrame()
        try ours.convert(canvas, into: a)
        try reference.convert(canvas, into: b)
        let size = BenchmarkYUVFrame.packedSize(width: w, height: h)
        var pa = [UInt8](repeating: 0, count: size), pb = [UInt8](repeating: 0, count: size)
        pa.withUnsafeMutableBytes { a.pack(into: $0.baseAddress!) }
        pb.withUnsafeMutableBytes { b.pack(into: $0.baseAddress!) }
        var worst = (level: -1, plane: "", x: 0, y: 0)
        let chroma = (w / 2) * (h / 2)
        for i in 0..<size {
            let d = abs(Int(pa[i]) - Int(pb[i]))
            guard d > worst.level else { continue }
            if i < w * h { worst = (d, "Y", i % w, i / w) } else {
                let j = (i - w * h) % chroma
                worst = (d, i < w * h + chroma ? "U" : "V", j % (w / 2), j / (w / 2))
            }
        }
        return worst
    }

    /// The three planes of `canvas` converted by `YUV420Conversion`, with or without AVX2.
    static func planes(_ canvas: Canvas, withoutAVX2: Bool) throws -> [UInt8] {
        let conversion = try #require(YUV420Conversion(width: canvas.width, height: canvas.height))
        let frame = try BenchmarkConverter(width: canvas.width, height: canvas.height).makeFrame()
        canvas.surface.flush()
        conversion.convert(from: UnsafePointer(canvas.surface.data), stride: canvas.surface.stride, into: frame.frame.pointer, withoutAVX2: withoutAVX2)
        var bytes = [UInt8](repeating: 0, count: BenchmarkYUVFrame.packedSize(width: canvas.width, height: canvas.height))
        bytes.withUnsafeMutableBytes { frame.pack(into: $0.baseAddress!) }
        return bytes
    }

    /// A canvas holding `pixels` (straight RGBA, as `renderFrames` returns them; opaque).
    static func canvas(_ pixels: PixelBuffer) throws -> Canvas {
        let canvas = try Canvas(width: pixels.width, height: pixels.height)
        canvas.surface.flush()
        let data = canvas.surface.data, stride = canvas.surface.stride
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let p = pixels.rgba(x: x, y: y), o = y * stride + 4 * x
                data[o] = p.blue; data[o + 1] = p.green; data[o + 2] = p.red; data[o + 3] = 255
            }
        }
        canvas.surface.markDirty()
        return canvas
    }

    /// A chart that is hard on a chroma filter: every red × green at eight blues, a saturated hue sweep
    /// over a grey ramp, one-pixel stripes of primaries (the largest chroma swings there are), and noise.
    static func chart(width w: Int, height h: Int) throws -> Canvas {
        let canvas = try Canvas(width: w, height: h)
        canvas.surface.flush()
        let data = canvas.surface.data, stride = canvas.surface.stride
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<h {
            for x in 0..<w {
                let (r, g, b): (Int, Int, Int)
                switch y * 4 / h {
                case 0: (r, g, b) = (x * 256 / w, (y * 4 * 256 / h) % 256, (x * 8 / w) * 36)
                case 1:
                    let hue = Double(x) / Double(w), c = PeerScene.hsv(hue, 1, 1), grey = Double(y % 64) / 63
                    let mix = { (v: Double) in Int(((y / 64) % 2 == 0 ? v : grey) * 255) }
                    (r, g, b) = (mix(c.red), mix(c.green), mix(c.blue))
                case 2:
                    let k = (x + (y / 3) % 3) % 3
                    (r, g, b) = (k == 0 ? 255 : 0, k == 1 ? 255 : 0, k == 2 ? 255 : 0)
                default:
                    state ^= state << 13; state ^= state >> 7; state ^= state << 17
                    (r, g, b) = (Int(state & 255), Int((state >> 8) & 255), Int((state >> 16) & 255))
                }
                let o = y * stride + 4 * x
                data[o] = UInt8(b); data[o + 1] = UInt8(g); data[o + 2] = UInt8(r); data[o + 3] = 255
            }
        }
        canvas.surface.markDirty()
        return canvas
    }

    /// A W2 photo as bench/peers/make_photos.py draws one (a two-colour gradient, soft discs, white
    /// outlines), drawn here with the library and stored as a 4:2:0 JPEG like a camera's.
    static func photo(_ k: Int, in folder: TemporaryFolder) throws -> URL {
        let w = 1280, h = 720
        let canvas = try Canvas(width: w, height: h)
        try canvas.draw { ctx in
            let angle = Double(k)
            ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: Double(w) * cos(angle), y: Double(h) * sin(angle)),
                                colors: [PeerScene.hsv(Double(k) * 0.137, 0.6, 0.9), PeerScene.hsv(Double(k) * 0.137 + 0.4, 0.7, 0.35)]))
            ctx.fillRect(ctx.bounds)
            for j in 0..<12 {
                let cx = (0.5 + 0.45 * sin(Double(k) * 3.1 + Double(j) * 1.7)) * Double(w)
                let cy = (0.5 + 0.45 * cos(Double(k) * 1.3 + Double(j) * 2.3)) * Double(h), r = 40 + 30 * Double(j % 5)
                let color = PeerScene.hsv(Double(j) * 0.09 + Double(k) * 0.3, 0.5, 1)
                ctx.setFill(.radial(center: Point(x: cx, y: cy), radius: r, colors: [color.withAlpha(0.63), color.withAlpha(0.5), color.withAlpha(0)]))
                ctx.fillRect(Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
            }
            ctx.setStroke(.white)
            ctx.lineWidth = 3
            for j in 0..<6 {
                let x0 = Double((j * 397 + k * 211) % (w - 150)), y0 = Double((j * 263 + k * 97) % (h - 100))
                ctx.strokeRect(Rect(x: x0, y: y0, width: 110, height: 60))
            }
        }
        let px = canvas.pixels()
        let picture = RGBAPicture(width: w, height: h) { x, y in let p = px.rgba(x: x, y: y); return (p.red, p.green, p.blue, 255) }
        let url = folder.file("photo-\(k).jpg")
        try FixtureJPEG.data(picture, quality: 90, fullChroma: false).write(to: url)
        return url
    }

    @Test("W1's frames convert within one level of swscale's", arguments: [0, 131, 299])
    func workloadOne(frame: Int) throws {
        let canvas = try Canvas(width: 1920, height: 1080)
        try canvas.draw { ctx in try PeerScene.drawW1(ctx, index: frame) }
        let worst = try Self.largestDifference(canvas)
        #expect(worst.level <= 1, "W1 frame \(frame): \(worst.level) levels apart in \(worst.plane) at (\(worst.x), \(worst.y))")
    }

    @Test("W3's frames convert within one level of swscale's", arguments: [0.4, 1.25, 4.0])
    func workloadThree(seconds: Double) throws {
        let canvas = try Canvas(width: 1920, height: 1080)
        try canvas.draw { ctx in try PeerScene.drawW3(ctx, time: seconds) }
        let worst = try Self.largestDifference(canvas)
        #expect(worst.level <= 1, "W3 at \(seconds) s: \(worst.level) levels apart in \(worst.plane) at (\(worst.x), \(worst.y))")
    }

    @Test("W2's frames (Ken Burns and a crossfade over JPEG photos) convert within one level of swscale's")
    func workloadTwo() throws {
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: try (1...2).map { Slideshow.Photo(url: try Self.photo($0, in: folder)) })
        show.fit = .fill
        show.duration = 3
        show.transition = .crossfade(duration: 0.5)
        show.kenBurns = Slideshow.KenBurns(zoom: 0.10, pan: 0, direction: .zoomIn, easing: .linear)
        let clip = try show.clip(width: 1920, height: 1080)
        for index in [20, 80] {   // zooming; halfway through the crossfade
            let frame = try #require(try clip.renderFrames(index..<(index + 1), width: 1920, height: 1080, drawingThreads: 1).first)
            let worst = try Self.largestDifference(try Self.canvas(frame))
            #expect(worst.level <= 1, "W2 frame \(index): \(worst.level) levels apart in \(worst.plane) at (\(worst.x), \(worst.y))")
        }
    }

    @Test("A chart of ramps, hues, one-pixel primary stripes and noise converts within one level of swscale's",
          arguments: [(1000, 512), (16, 16), (18, 18), (34, 20), (1922, 36)])
    func chart(width: Int, height: Int) throws {
        // Chroma rows of 500, 8, 9, 17 and 961 samples: the vector loops, their scalar tails, a single
        // vector step; 16 and 18 rows: every chroma row reaches both edges of the ring of 8.
        let worst = try Self.largestDifference(try Self.chart(width: width, height: height))
        #expect(worst.level <= 1, "chart \(width)×\(height): \(worst.level) levels apart in \(worst.plane) at (\(worst.x), \(worst.y))")
    }

    @Test("The portable path and the AVX2 path give the same bytes", .enabled(if: YUV420Conversion.hasAVX2, "this CPU has no AVX2: one path only"))
    func sameBytesWithoutAVX2() throws {
        let chart = try Self.chart(width: 1000, height: 512)
        #expect(try Self.planes(chart, withoutAVX2: true) == Self.planes(chart, withoutAVX2: false))
        let w1 = try Canvas(width: 640, height: 360)
        try w1.draw { ctx in try PeerScene.drawW1(ctx, index: 42) }
        #expect(try Self.planes(w1, withoutAVX2: true) == Self.planes(w1, withoutAVX2: false))
    }

    @Test("Sizes the conversion does not take (under 16 pixels) still convert, through swscale")
    func smallSizesFallBack() throws {
        #expect(YUV420Conversion(width: 8, height: 8) == nil)
        #expect(YUV420Conversion(width: 15, height: 16) == nil)
        let canvas = try Canvas(width: 8, height: 8)
        try canvas.draw { ctx in ctx.clear(.red) }
        let frame = try BenchmarkConverter(width: 8, height: 8).makeFrame()
        try BenchmarkConverter(width: 8, height: 8).convert(canvas, into: frame)
        var bytes = [UInt8](repeating: 0, count: BenchmarkYUVFrame.packedSize(width: 8, height: 8))
        bytes.withUnsafeMutableBytes { frame.pack(into: $0.baseAddress!) }
        // BT.709 limited-range red: Y 63, Cb 102, Cr 240.
        #expect(bytes[0] == 63 && bytes[64] == 102 && bytes[80] == 240, "\(bytes[0]) \(bytes[64]) \(bytes[80])")
    }
}

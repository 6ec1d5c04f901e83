import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The spatial filters (sharpen, vignette, grain, pixelate, chroma key) on the pixels of small
/// canvases, and against FFmpeg's filters where the maths agree.
@Suite struct SpatialFilterTests {
    // MARK: Helpers

    /// A photo-like opaque test picture: smooth waves, hard-edged shapes and fine noise. `gray` makes
    /// red, green and blue equal.
    private func picture(_ w: Int, _ h: Int, gray: Bool = false) -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var h32 = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
                h32 = SpatialKernels.mix32(h32)
                let noise = Double(Int(h32 & 31) - 16)
                let wave = 60 * sin(Double(x) / 7) * cos(Double(y) / 11)
                let block = (x / 23 + y / 17) % 3 == 0 ? 50.0 : -20
                let base = 120 + wave + block + noise
                let c = gray ? [base, base, base] : [base, base * 0.8 + 30 + Double(x % 40), 255 - base * 0.9]
                let i = (y * w + x) * 4
                bytes[i] = UInt8(min(max(c[2], 0), 255).rounded())
                bytes[i + 1] = UInt8(min(max(c[1], 0), 255).rounded())
                bytes[i + 2] = UInt8(min(max(c[0], 0), 255).rounded())
            }
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    /// A clip that draws `pixels` at the frame's origin, one image pixel per frame pixel.
    private func clip(_ pixels: PixelBuffer) throws -> Clip {
        let image = try Image(pixels)
        return Clip(duration: 2) { ctx, _ in ctx.draw(image, in: Rect(x: 0, y: 0, width: Double(pixels.width), height: Double(pixels.height))) }
    }

    /// `clip` drawn on a transparent `w`×`h` canvas at `t` (30 fps).
    private func render(_ clip: Clip, _ w: Int, _ h: Int, at t: Time = .zero) throws -> PixelBuffer {
        let c = try Canvas(width: w, height: h)
        let rate: FrameRate = 30
        try c.draw { ctx in
            ctx.clear(.clear)
            try clip.draw(in: ctx, at: Frame(index: rate.frameCount(for: t), movieIndex: 0, rate: rate, exactTime: t, duration: clip.duration))
        }
        return c.pixels()
    }

    /// `pixels` through `filters`.
    private func filtered(_ pixels: PixelBuffer, _ filters: [Clip.Filter], at t: Time = .zero) throws -> PixelBuffer {
        try render(clip(pixels).filtered(filters), pixels.width, pixels.height, at: t)
    }

    /// Runs ffmpeg on raw video of `format` and returns its raw output of `outFormat`.
    private func ffmpeg(_ input: [UInt8], format: String, size: (Int, Int), filter: String, outFormat: String, in folder: TemporaryFolder) throws -> [UInt8] {
        let inURL = folder.file("in.raw"), outURL = folder.file("out.raw")
        try Data(input).write(to: inURL)
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", format, "-s", "\(size.0)x\(size.1)", "-i", inURL.path,
                                         "-vf", filter, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", outFormat, outURL.path])
        #expect(r.status == 0, "ffmpeg failed: \(r.stderr)")
        return [UInt8](try Data(contentsOf: outURL))
    }

    /// Mean and largest absolute difference of two byte sequences.
    private func difference(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, max: Int) {
        precondition(a.count == b.count)
        var sum = 0, largest = 0
        for i in a.indices { let d = abs(Int(a[i]) - Int(b[i])); sum += d; largest = max(largest, d) }
        return (Double(sum) / Double(max(a.count, 1)), largest)
    }

    /// R, G, B bytes of `p` (dropping alpha), in that order.
    private func rgb(_ p: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(p.width * p.height * 3)
        for i in stride(from: 0, to: p.bytes.count, by: 4) { out += [p.bytes[i + 2], p.bytes[i + 1], p.bytes[i]] }
        return out
    }

    // MARK: Descriptions

    @Test func everySpatialFilterRoundTripsThroughItsSpecAndCodable() throws {
        let track = try KeyframeTrack<Double>([Keyframe(time: Time.zero, value: 0.2), Keyframe(time: Time(value: 1, timescale: 1), value: 0.8, easing: .quadOut)])
        let filters: [Clip.Filter] = [
            .spatial(.blur(radius: 4)),
            .spatial(.sharpen(amount: 1.5, radius: .keyframes(track))),
            .spatial(.vignette(amount: .keyframes(track), angle: 0.7, radius: 1.2, color: Color(red: 1, green: 0, blue: 0))),
            .spatial(.grain(amount: 0.3, seed: 42, monochrome: false)),
            .spatial(.pixelate(size: 12)),
            .spatial(.chromaKey(color: Color(red: 0, green: 0, blue: 1), similarity: 0.2, blend: 0.05, spill: .keyframes(track))),
        ]
        for f in filters {
            #expect(try Clip.Filter(f.spec) == f, "spec round trip of \(f.spec.name)")
            let data = try JSONEncoder().encode(f)
            #expect(try JSONDecoder().decode(Clip.Filter.self, from: data) == f, "Codable round trip of \(f.spec.name)")
        }
        for name in ["sharpen", "vignette", "grain", "pixelate", "chromaKey"] {
            #expect(Clip.Filter.names.contains(name))
            let f = try Clip.Filter(FilterSpec(name: name))
            #expect(try Clip.Filter(f.spec) == f)
        }
        #expect(try Clip.Filter(FilterSpec(name: "chromaKey")) == .spatial(.chromaKey(color: Color(red: 0, green: 1, blue: 0), similarity: 0.15, blend: 0.1, spill: 0.5)))
        #expect(throws: MovieMakerError.self) { try Clip.Filter(FilterSpec(name: "vignette", parameters: ["angle": .integer(3)])) }
    }

    // MARK: Sharpen

    @Test func sharpenMatchesFFmpegUnsharpWithTheSameVariance() throws {
        guard FFTools.available else { return }
        let w = 160, h = 120
        let source = picture(w, h, gray: true)
        let ours = try filtered(source, [.spatial(.sharpen(amount: 1, radius: 2))])
        // FFmpeg's unsharp on the Y plane of yuv444p (no conversion: Y is our grey), msize 5 ↔ radius 2.
        let y = stride(from: 0, to: source.bytes.count, by: 4).map { source.bytes[$0] }
        let input = y + [UInt8](repeating: 128, count: 2 * w * h)
        let folder = try TemporaryFolder()
        let out = try ffmpeg(input, format: "yuv444p", size: (w, h), filter: "unsharp=lx=5:ly=5:la=1.0:cx=5:cy=5:ca=0", outFormat: "yuv444p", in: folder)
        let theirs = Array(out[0..<(w * h)])
        let mine = stride(from: 0, to: ours.bytes.count, by: 4).map { ours.bytes[$0 + 1] }
        let d = difference(mine, theirs)
        print("sharpen vs ffmpeg unsharp 5x5 amount 1: mean \(d.mean), max \(d.max)")
        #expect(d.mean <= 2, "mean difference \(d.mean) levels")
        // It did sharpen: the detail grew.
        #expect(difference(mine, y).mean > 3)
    }

    @Test func sharpenKeepsFlatAreasAndTheFrameEdges() throws {
        let flat = PixelBuffer(width: 40, height: 30, bytes: [UInt8](repeating: 0, count: 40 * 30 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : 90 })
        let out = try filtered(flat, [.spatial(.sharpen(amount: 2, radius: 3))])
        #expect(out == flat, "a flat picture (edges included) is unchanged by sharpening")
    }

    /// A flat picture over transparency keeps its colour up to its edge: the detail is taken on
    /// unpremultiplied colour (the premultiplied blur made a bright rim, up to +60 levels).
    @Test func sharpenAddsNoRimBesideTransparency() throws {
        let w = 60, h = 40
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for y in 10..<30 { for x in 15..<45 { let i = (y * w + x) * 4; bytes[i] = 128; bytes[i + 1] = 128; bytes[i + 2] = 128; bytes[i + 3] = 255 } }
        let card = PixelBuffer(width: w, height: h, bytes: bytes)
        let out = try filtered(card, [.spatial(.sharpen(amount: 1, radius: 10))])
        var worst = 0
        for y in 10..<30 { for x in 15..<45 { worst = max(worst, abs(Int(out.rgba(x: x, y: y).red) - 128)) } }
        #expect(worst <= 2, "the flat card changed by up to \(worst) levels beside the transparency (the blur rounds to 8 bits)")
        #expect(out.rgba(x: 5, y: 5).alpha == 0 && out.rgba(x: 20, y: 20).alpha == 255, "alpha is kept")
    }

    /// The frame's edges blur with what is beside them, as FFmpeg's gblur does: nothing beyond the frame
    /// is mixed in (a full-frame blur darkened the edges into a vignette).
    @Test func blurKeepsAFlatFrameFlatToItsEdges() throws {
        let w = 80, h = 60
        let white = PixelBuffer(width: w, height: h, bytes: [UInt8](repeating: 255, count: w * h * 4))
        let out = try filtered(white, [.spatial(.blur(radius: 20))])
        #expect(out == white, "corner \(out.rgba(x: 0, y: 0)), top \(out.rgba(x: 40, y: 0))")
    }

    // MARK: Vignette

    @Test func vignetteMatchesFFmpegVignette() throws {
        guard FFTools.available else { return }
        let w = 200, h = 120
        let source = picture(w, h)
        let ours = try filtered(source, [.spatial(.vignette(amount: 1, angle: .constant(Double.pi / 5), radius: 1, color: .black))])
        let folder = try TemporaryFolder()
        let theirs = try ffmpeg(rgb(source), format: "rgb24", size: (w, h), filter: "vignette=angle=PI/5", outFormat: "rgb24", in: folder)
        let d = difference(rgb(ours), theirs)
        print("vignette vs ffmpeg vignette (PI/5): mean \(d.mean), max \(d.max)")
        #expect(d.mean <= 2 && d.max <= 8, "mean \(d.mean), max \(d.max)")
        // Alpha is kept; the corners are darkened to about cos⁴(π/5) ≈ 43 %.
        #expect(ours.rgba(x: 0, y: 0).alpha == 255)
        let corner = Double(ours.rgba(x: 0, y: 0).blue) / Double(source.rgba(x: 0, y: 0).blue)
        #expect(abs(corner - pow(cos(Double.pi / 5), 4)) < 0.03, "corner keeps \(corner)")
    }

    @Test func vignetteAmountColourAndTransparency() throws {
        let w = 64, h = 64
        let white = PixelBuffer(width: w, height: h, bytes: [UInt8](repeating: 255, count: w * h * 4))
        let none = try filtered(white, [.spatial(.vignette(amount: 0, angle: 1, radius: 1, color: .black))])
        #expect(none == white)
        let half = try filtered(white, [.spatial(.vignette(amount: 0.5, angle: 1, radius: 1, color: .black))])
        let full = try filtered(white, [.spatial(.vignette(amount: 1, angle: 1, radius: 1, color: .black))])
        let fc = Double(full.rgba(x: 0, y: 0).red), hc = Double(half.rgba(x: 0, y: 0).red)
        #expect(abs(hc - (255 + fc) / 2) <= 1, "amount 0.5 is halfway: \(hc) vs \(fc)")
        #expect(full.rgba(x: 32, y: 32).red >= 254, "the centre is untouched")
        // Towards red on black: the corners turn red, alpha stays.
        let black = PixelBuffer(width: w, height: h, bytes: (0..<(w * h * 4)).map { $0 % 4 == 3 ? 255 : 0 })
        let red = try filtered(black, [.spatial(.vignette(amount: 1, angle: 1.4, radius: 1, color: Color(red: 1, green: 0, blue: 0)))])
        #expect(red.rgba(x: 0, y: 0).red > 200 && red.rgba(x: 0, y: 0).green == 0 && red.rgba(x: 32, y: 32).red < 3)
        // A transparent picture stays transparent.
        let clear = PixelBuffer(width: w, height: h, bytes: [UInt8](repeating: 0, count: w * h * 4))
        #expect(try filtered(clear, [.spatial(.vignette(amount: 1, angle: 1.4, radius: 1, color: Color(red: 1, green: 0, blue: 0)))]) == clear)
    }

    // MARK: Grain

    @Test func grainIsDeterministicPerFrameAndKeepsBrightness() throws {
        let w = 160, h = 120
        let grey = PixelBuffer(width: w, height: h, bytes: (0..<(w * h * 4)).map { $0 % 4 == 3 ? 255 : 128 })
        let f: [Clip.Filter] = [.spatial(.grain(amount: 0.2, seed: 7, monochrome: true))]
        let a = try filtered(grey, f, at: Time(value: 1, timescale: 30))
        let b = try filtered(grey, f, at: Time(value: 1, timescale: 30))
        let c = try filtered(grey, f, at: Time(value: 2, timescale: 30))
        let otherSeed = try filtered(grey, [.spatial(.grain(amount: 0.2, seed: 8, monochrome: true))], at: Time(value: 1, timescale: 30))
        #expect(a == b, "the same frame twice is identical")
        #expect(a != c, "two frames differ")
        #expect(a != otherSeed, "two seeds differ")
        let mean = stride(from: 0, to: a.bytes.count, by: 4).reduce(0.0) { $0 + Double(a.bytes[$1 + 1]) } / Double(w * h)
        #expect(abs(mean - 128) <= 1, "mean \(mean)")
        let sd = (stride(from: 0, to: a.bytes.count, by: 4).reduce(0.0) { $0 + pow(Double(a.bytes[$1 + 1]) - mean, 2) } / Double(w * h)).squareRoot()
        #expect(abs(sd - 0.2 * 64) < 1.5, "standard deviation \(sd), expected \(0.2 * 64)")
        #expect(a.rgba(x: 10, y: 10).red == a.rgba(x: 10, y: 10).green, "monochrome")
        // The pattern depends on the pixel's position, not on the picture's size (nor its split over threads).
        let small = try filtered(PixelBuffer(width: 50, height: 40, bytes: (0..<(50 * 40 * 4)).map { $0 % 4 == 3 ? 255 : 128 }), f, at: Time(value: 1, timescale: 30))
        var same = true
        for y in 0..<40 { for x in 0..<50 where small.rgba(x: x, y: y).green != a.rgba(x: x, y: y).green { same = false } }
        #expect(same, "the grain of a smaller picture is the top-left of the larger one's")
        // Colour grain differs per channel; transparent pixels stay transparent.
        let colour = try filtered(grey, [.spatial(.grain(amount: 0.2, seed: 7, monochrome: false))])
        #expect((0..<20).contains { colour.rgba(x: $0, y: 3).red != colour.rgba(x: $0, y: 3).green })
        let clear = PixelBuffer(width: 20, height: 20, bytes: [UInt8](repeating: 0, count: 1600))
        #expect(try filtered(clear, f) == clear)
    }

    // MARK: Pixelate

    @Test func pixelateFillsEachBlockWithItsAverage() throws {
        let w = 100, h = 60, s = 8
        let source = picture(w, h)
        let out = try filtered(source, [.spatial(.pixelate(size: .keyframes(try KeyframeTrack([Keyframe(time: Time.zero, value: 8), Keyframe(time: Time(value: 1, timescale: 1), value: 20)]))))])
        for by in stride(from: 0, to: h, by: s) {
            for bx in stride(from: 0, to: w, by: s) {
                var sum = [0, 0, 0, 0], n = 0
                for y in by..<min(by + s, h) { for x in bx..<min(bx + s, w) {
                    let i = (y * w + x) * 4
                    for c in 0..<4 { sum[c] += Int(source.bytes[i + c]) }
                    n += 1
                } }
                let mean = sum.map { UInt8(($0 + n / 2) / n) }
                for y in by..<min(by + s, h) { for x in bx..<min(bx + s, w) {
                    let i = (y * w + x) * 4
                    #expect(Array(out.bytes[i..<i + 4]) == mean, "block at (\(bx), \(by)), pixel (\(x), \(y))")
                } }
            }
        }
        // Size 1 changes nothing.
        #expect(try filtered(source, [.spatial(.pixelate(size: 1))]) == source)
    }

    // MARK: Chroma key

    /// A green screen (30, 200, 40) with a subject disc (200, 120, 100) in the middle, ringed by
    /// green-spilled edge pixels (150, 190, 110).
    private func greenScreen(_ w: Int, _ h: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h { for x in 0..<w {
            let d = hypot(Double(x - w / 2), Double(y - h / 2))
            let c: (Int, Int, Int) = d < 20 ? (200, 120, 100) : d < 24 ? (150, 190, 110) : (30, 200, 40)
            let i = (y * w + x) * 4
            bytes[i] = UInt8(c.2); bytes[i + 1] = UInt8(c.1); bytes[i + 2] = UInt8(c.0)
        } }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    @Test func chromaKeyRemovesTheScreenKeepsTheSubjectAndReducesSpill() throws {
        let w = 80, h = 80
        let source = greenScreen(w, h)
        let out = try filtered(source, [.spatial(.chromaKey(color: Color(red: 0, green: 1, blue: 0), similarity: 0.15, blend: 0.1, spill: 1))])
        #expect(out.rgba(x: 3, y: 3).alpha == 0, "the screen is transparent")
        #expect(Array(out.bytes[(3 * w + 3) * 4..<(3 * w + 3) * 4 + 4]) == [0, 0, 0, 0])
        let centre = out.rgba(x: 40, y: 40)
        #expect(centre.alpha == 255 && centre.red == 200 && centre.green == 120 && centre.blue == 100, "the subject is kept: \(centre)")
        // An edge pixel (on the spill ring, away from the screen): still opaque, its green limited to (r + b) / 2.
        let edge = out.rgba(x: 40 + 22, y: 40)
        #expect(edge.alpha == 255, "edge \(edge)")
        #expect(edge.green <= 131 && edge.red == 150 && edge.blue == 110, "spill removed: \(edge)")
        let half = try filtered(source, [.spatial(.chromaKey(color: Color(red: 0, green: 1, blue: 0), similarity: 0.15, blend: 0.1, spill: 0.5))])
        let g = Int(half.rgba(x: 62, y: 40).green)
        #expect(abs(g - 160) <= 1, "half the spill removed: \(g)")
        // Spill 0 keeps the colour.
        let kept = try filtered(source, [.spatial(.chromaKey(color: Color(red: 0, green: 1, blue: 0), similarity: 0.15, blend: 0.1, spill: 0))])
        #expect(kept.rgba(x: 62, y: 40).green == 190)
    }

    @Test func chromaKeyAlphaMatchesFFmpegChromakey() throws {
        guard FFTools.available else { return }
        let w = 120, h = 90
        // A photo-like picture over part of a green screen.
        let photo = picture(w, h), screen = greenScreen(w, h)
        var bytes = photo.bytes
        for y in 0..<h { for x in 0..<w where (x / 10 + y / 15) % 2 == 0 || x < 30 {
            let i = (y * w + x) * 4
            for c in 0..<4 { bytes[i + c] = screen.bytes[i + c] }
        } }
        let source = PixelBuffer(width: w, height: h, bytes: bytes)
        let ours = try filtered(source, [.spatial(.chromaKey(color: Color(red: 0, green: 1, blue: 0), similarity: 0.15, blend: 0.1, spill: 0))])
        // yuva444p with U and V as the filter computes them (BT.601 full range, rounded), Y unused.
        var yPlane = [UInt8](), uPlane = [UInt8](), vPlane = [UInt8]()
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let b = Float(bytes[i]), g = Float(bytes[i + 1]), r = Float(bytes[i + 2])
            yPlane.append(UInt8(min(max((0.299 * r + 0.587 * g + 0.114 * b).rounded(), 0), 255)))
            uPlane.append(UInt8(min(max((128 + (-0.16874 * r - 0.33126 * g + 0.5 * b)).rounded(), 0), 255)))
            vPlane.append(UInt8(min(max((128 + (0.5 * r - 0.41869 * g - 0.08131 * b)).rounded(), 0), 255)))
        }
        let input = yPlane + uPlane + vPlane + [UInt8](repeating: 255, count: w * h)
        let folder = try TemporaryFolder()
        let out = try ffmpeg(input, format: "yuva444p", size: (w, h), filter: "chromakey=color=0x00ff00:similarity=0.15:blend=0.1", outFormat: "yuva444p", in: folder)
        var mine: [UInt8] = [], theirs: [UInt8] = []
        for y in 1..<(h - 1) { for x in 1..<(w - 1) {
            mine.append(ours.rgba(x: x, y: y).alpha)
            theirs.append(out[3 * w * h + y * w + x])
        } }
        let d = difference(mine, theirs)
        print("chromaKey alpha vs ffmpeg chromakey (similarity 0.15, blend 0.1): mean \(d.mean), max \(d.max)")
        #expect(d.mean <= 1 && d.max <= 2, "mean \(d.mean), max \(d.max)")
        #expect(mine.contains(0) && mine.contains(255))
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Blend modes, layers, shadows, blur and image fitting, checked on the pixels of small canvases.
@Suite struct DrawingEffectsTests {
    private func canvas(_ w: Int = 100, _ h: Int = 100, background: Color = .clear, _ body: (DrawingContext) throws -> Void) throws -> PixelBuffer {
        let c = try Canvas(width: w, height: h)
        try c.draw { ctx in ctx.clear(background); try body(ctx) }
        return c.pixels()
    }
    private func close(_ a: UInt8, _ b: Int, _ tolerance: Int = 1) -> Bool { abs(Int(a) - b) <= tolerance }
    private func alpha(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Int { Int(p.rgba(x: x, y: y).alpha) }
    private func totalAlpha(_ p: PixelBuffer) -> Int { stride(from: 3, to: p.bytes.count, by: 4).reduce(0) { $0 + Int(p.bytes[$1]) } }

    // MARK: Blend modes

    /// Opaque backdrop (200, 100, 50) under an opaque source (128, 255, 64) drawn with `mode`.
    private func blend(_ mode: BlendMode) throws -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let p = try canvas(10, 10, background: Color(red8: 200, green8: 100, blue8: 50)) { ctx in
            ctx.blendMode = mode
            ctx.setFill(Color(red8: 128, green8: 255, blue8: 64))
            ctx.fillRect(Rect(x: 0, y: 0, width: 10, height: 10))
        }
        return p.rgba(x: 5, y: 5)
    }

    @Test func multiplyScreenAndDifferenceFollowTheirFormulas() throws {
        let a = [200, 100, 50], b = [128, 255, 64]
        let m = try blend(.multiply), s = try blend(.screen), d = try blend(.difference)
        for (i, got) in [(m.red, m.green, m.blue), (s.red, s.green, s.blue), (d.red, d.green, d.blue)].enumerated() {
            let channels = [got.0, got.1, got.2]
            for c in 0..<3 {
                let expected = switch i {
                case 0: (a[c] * b[c] + 127) / 255
                case 1: 255 - ((255 - a[c]) * (255 - b[c]) + 127) / 255
                default: abs(a[c] - b[c])
                }
                #expect(close(channels[c], expected), "mode \(i) channel \(c): got \(channels[c]), expected \(expected)")
            }
        }
        #expect(m.alpha == 255 && s.alpha == 255 && d.alpha == 255)
    }

    @Test func destinationOutErasesWhereTheShapeIs() throws {
        let p = try canvas(background: .red) { ctx in
            ctx.blendMode = .destinationOut
            ctx.setFill(.black); ctx.fillRect(Rect(x: 0, y: 0, width: 50, height: 100))
            ctx.setFill(Color.black.withAlpha(0.5)); ctx.fillRect(Rect(x: 50, y: 0, width: 25, height: 100))
        }
        #expect(p.rgba(x: 25, y: 50) == (0, 0, 0, 0))
        #expect(close(p.rgba(x: 60, y: 50).alpha, 128) && p.rgba(x: 60, y: 50).red == p.rgba(x: 60, y: 50).alpha)
        #expect(p.rgba(x: 90, y: 50) == (255, 0, 0, 255))
    }

    @Test func everyBlendModeGivesItsOwnResult() throws {
        // Half-transparent, differently saturated colours on both sides, so no two modes coincide.
        func render(_ mode: BlendMode) throws -> PixelBuffer {
            try canvas(40, 40) { ctx in
                ctx.setFill(Color(red: 0.2, green: 0.6, blue: 0.9)); ctx.fillRect(Rect(x: 0, y: 0, width: 20, height: 30))
                ctx.setFill(Color(red: 0.8, green: 0.3, blue: 0.5, alpha: 0.5)); ctx.fillRect(Rect(x: 20, y: 0, width: 20, height: 30))
                ctx.blendMode = mode
                ctx.setFill(Color(red: 0.9, green: 0.45, blue: 0.1, alpha: 0.7)); ctx.fillRect(Rect(x: 10, y: 10, width: 20, height: 25))
            }
        }
        let results = try BlendMode.allCases.map { try render($0) }
        for i in results.indices {
            for j in results.indices where j > i {
                #expect(results[i] != results[j], "\(BlendMode.allCases[i]) and \(BlendMode.allCases[j]) give the same pixels")
            }
        }
    }

    @Test func blendModeIsPartOfTheSavedStateAndScoped() throws {
        let p = try canvas(background: .white) { ctx in
            #expect(ctx.blendMode == .normal)
            ctx.withSavedState { ctx.blendMode = .clear }
            #expect(ctx.blendMode == .normal)
            ctx.withBlendMode(.multiply) {
                #expect(ctx.blendMode == .multiply)
                ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 50, height: 100))
            }
            #expect(ctx.blendMode == .normal)
            ctx.setFill(Color.red.withAlpha(0.5)); ctx.fillRect(Rect(x: 50, y: 0, width: 50, height: 100))
        }
        #expect(p.rgba(x: 25, y: 50) == (255, 0, 0, 255))       // white × red
        #expect(close(p.rgba(x: 75, y: 50).green, 127))          // plain over: half-way to red
        for mode in BlendMode.allCases { #expect(BlendMode(cairoOperator: mode.cairoOperator) == mode) }
    }

    // MARK: Groups

    @Test func opacityGroupsShowOverlapsUniformly() throws {
        func draw(grouped: Bool) throws -> PixelBuffer {
            try canvas(background: .white) { ctx in
                let shapes = {
                    ctx.setFill(grouped ? .red : Color.red.withAlpha(0.5))
                    ctx.fillRect(Rect(x: 10, y: 10, width: 50, height: 50))
                    ctx.fillRect(Rect(x: 40, y: 40, width: 50, height: 50))
                }
                if grouped { ctx.withGroup(opacity: 0.5, shapes) } else { shapes() }
            }
        }
        let g = try draw(grouped: true), plain = try draw(grouped: false)
        #expect(g.rgba(x: 20, y: 20) == g.rgba(x: 50, y: 50), "the overlap must not be darker inside a group")
        #expect(close(g.rgba(x: 50, y: 50).green, 127))
        #expect(plain.rgba(x: 50, y: 50).green < plain.rgba(x: 20, y: 20).green - 30, "without a group the overlap is darker")
    }

    @Test func groupsCompositeWithTheirBlendModeAndResetItInside() throws {
        let p = try canvas(background: Color(white: 0.5)) { ctx in
            ctx.withGroup(opacity: 1, blendMode: .multiply) {
                #expect(ctx.blendMode == .normal)
                ctx.setFill(Color(white: 0.5)); ctx.fillRect(Rect(x: 0, y: 0, width: 50, height: 100))
                ctx.setFill(Color(white: 0.5)); ctx.fillRect(Rect(x: 0, y: 0, width: 50, height: 100))   // over itself: still 0.5
            }
            ctx.blendMode = .screen
            ctx.withOpacity(1) { ctx.setFill(Color(white: 0.5)); ctx.fillRect(Rect(x: 50, y: 0, width: 50, height: 100)) }
        }
        #expect(close(p.rgba(x: 25, y: 50).red, 64))      // 0.5 × 0.5
        #expect(close(p.rgba(x: 75, y: 50).red, 191))     // withOpacity uses the current mode: 1 − 0.5 × 0.5
    }

    // MARK: Shadows

    @Test func hardShadowIsAnOffsetCopyInTheShadowColour() throws {
        let p = try canvas(background: .white) { ctx in
            ctx.withShadow(Shadow(offset: Point(x: 10, y: 10), blur: 0, color: Color.black.withAlpha(0.5))) {
                ctx.setFill(.blue); ctx.fillRect(Rect(x: 20, y: 20, width: 30, height: 30))
            }
        }
        #expect(p.rgba(x: 30, y: 30) == (0, 0, 255, 255))          // the shape on top
        let shadow = p.rgba(x: 55, y: 55)                           // offset area outside the shape
        #expect(close(shadow.red, 128) && shadow.red == shadow.green && shadow.green == shadow.blue)
        #expect(p.rgba(x: 45, y: 55) == shadow && p.rgba(x: 55, y: 35) == shadow)
        #expect(p.rgba(x: 61, y: 55) == (255, 255, 255, 255))     // just past the copy: no shadow
        #expect(p.rgba(x: 55, y: 61) == (255, 255, 255, 255))
        #expect(p.rgba(x: 25, y: 15) == (255, 255, 255, 255))     // no shadow on the other side
    }

    @Test func blurredShadowSpreadsSymmetricallyAndFades() throws {
        let p = try canvas { ctx in
            ctx.withShadow(Shadow(offset: .zero, blur: 16, color: .black)) {
                ctx.setFill(.black); ctx.fillRect(Rect(x: 40, y: 40, width: 20, height: 20))
            }
        }
        #expect(alpha(p, 50, 50) == 255)
        var previous = 255
        for d in 1...24 {
            let left = alpha(p, 40 - d, 50), right = alpha(p, 59 + d, 50), up = alpha(p, 50, 40 - d)
            #expect(left == right && left == up, "asymmetric at distance \(d): \(left) \(right) \(up)")
            #expect(left <= previous, "alpha grows at distance \(d)")
            previous = left
        }
        #expect(alpha(p, 38, 50) > 60 && alpha(p, 38, 50) < 128)   // spreads past the edge (Gaussian σ 8: about 85)…
        #expect(alpha(p, 10, 50) < 3)                              // …and fades out
        #expect(alpha(p, 20, 50) > 0)
    }

    @Test func shadowOffsetIsInDevicePixelsAndTheClipApplies() throws {
        let scaled = try canvas { ctx in
            ctx.scale(x: 3, y: 3)
            ctx.withShadow(Shadow(offset: Point(x: 10, y: 0), blur: 0, color: .black)) {
                ctx.setFill(.red); ctx.fillRect(Rect(x: 10, y: 10, width: 10, height: 10))   // device 30…60
            }
        }
        #expect(scaled.rgba(x: 45, y: 45) == (255, 0, 0, 255))
        #expect(scaled.rgba(x: 65, y: 45) == (0, 0, 0, 255))      // shadow to 70, not 90
        #expect(alpha(scaled, 75, 45) == 0)
        let clipped = try canvas { ctx in
            ctx.clip(to: Rect(x: 0, y: 0, width: 50, height: 100))
            ctx.withShadow(Shadow(offset: Point(x: 20, y: 0), blur: 0, color: .black)) {
                ctx.setFill(.red); ctx.fillRect(Rect(x: 20, y: 20, width: 20, height: 20))
            }
        }
        #expect(clipped.rgba(x: 45, y: 30) == (0, 0, 0, 255))
        #expect(alpha(clipped, 55, 30) == 0)
    }

    @Test func shapesBeyondTheFrameStillCastTheirShadowIntoIt() throws {
        let p = try canvas { ctx in
            ctx.withShadow(Shadow(offset: Point(x: 20, y: 0), blur: 0, color: .black)) {
                ctx.setFill(.red); ctx.fillRect(Rect(x: -30, y: 20, width: 40, height: 20))   // visible 0…10
            }
        }
        #expect(p.rgba(x: 5, y: 30) == (255, 0, 0, 255))
        #expect(p.rgba(x: 15, y: 30) == (0, 0, 0, 255))           // cast by the part at x −5
        #expect(p.rgba(x: 25, y: 30) == (0, 0, 0, 255))
        #expect(alpha(p, 31, 30) == 0)
    }

    @Test func effectsNestAndCompositeWithTheCurrentBlendMode() throws {
        let nested = try canvas { ctx in
            ctx.withShadow(Shadow(offset: Point(x: 20, y: 0), blur: 0, color: .black)) {
                ctx.withOpacity(0.5) { ctx.setFill(.white); ctx.fillRect(Rect(x: 10, y: 10, width: 20, height: 20)) }
                ctx.withBlur(radius: 4) { ctx.setFill(.white); ctx.fillRect(Rect(x: 10, y: 60, width: 20, height: 20)) }
            }
        }
        #expect(close(nested.rgba(x: 15, y: 20).alpha, 128))                 // half-opaque layer inside
        #expect(close(nested.rgba(x: 45, y: 20).alpha, 128) && nested.rgba(x: 45, y: 20).red == 0)   // its shadow, half as dense
        #expect(nested.rgba(x: 20, y: 70) == (255, 255, 255, 255))          // blurred square's middle
        #expect(nested.rgba(x: 40, y: 70) == (0, 0, 0, 255))                // shadow of the blurred square
        #expect(alpha(nested, 20, 59) > 0 && alpha(nested, 20, 59) < 255)   // its blurred edge
        let erased = try canvas(background: .red) { ctx in
            ctx.blendMode = .destinationOut
            ctx.withShadow(Shadow(offset: Point(x: 20, y: 0), blur: 0, color: .black)) {
                #expect(ctx.blendMode == .normal)
                ctx.fillRect(Rect(x: 10, y: 10, width: 20, height: 20))
            }
        }
        #expect(erased.rgba(x: 15, y: 20).alpha == 0 && erased.rgba(x: 45, y: 20).alpha == 0)   // shape and shadow both erase
        #expect(erased.rgba(x: 60, y: 20) == (255, 0, 0, 255) && erased.rgba(x: 20, y: 50) == (255, 0, 0, 255))
    }

    @Test func badShadowAndBlurArgumentsAreReported() throws {
        let bodies: [(DrawingContext) -> Void] = [
            { ctx in ctx.withShadow(Shadow(offset: .zero, blur: -1)) { ctx.fillRect(Rect(x: 0, y: 0, width: 5, height: 5)) } },
            { ctx in ctx.withBlur(radius: .nan) { ctx.fillRect(Rect(x: 0, y: 0, width: 5, height: 5)) } },
            { ctx in ctx.withGroup(opacity: .infinity) {} },
        ]
        for (i, body) in bodies.enumerated() {
            let c = try Canvas(width: 10, height: 10)
            let error = #expect(throws: MovieMakerError.self, "case \(i)") { try c.draw { body($0) } }
            let named = ["invalid shadow blur -1.0", "invalid blur radius nan", "invalid group opacity inf"][i]
            #expect(error?.description.hasPrefix(named) == true, "\(String(describing: error))")
            #expect(c.pixels().rgba(x: 2, y: 2).alpha == (i < 2 ? 255 : 0), "case \(i): the body is still drawn")
        }
    }

    // MARK: Blur

    @Test func blurPreservesEnergy() throws {
        // A single pixel at radius 1, and 6×6 and 10×10 dots at larger radii: a lone pixel blurred wider spreads
        // to less than 1/255 per pixel, which 8-bit pixels round away (4 % lost at radius 3; the
        // blur's 16-bit intermediate loses nothing, see coreBlurMatchesItsGaussianSigma).
        for (side, radius) in [(1.0, 1.0), (6.0, 10.0), (10.0, 20.0)] {
            let p = try canvas(128, 128) { ctx in
                ctx.withBlur(radius: radius) { ctx.setFill(.white); ctx.fillRect(Rect(x: 60, y: 60, width: side, height: side)) }
            }
            let total = Double(totalAlpha(p)) / (255 * side * side)
            #expect(abs(total - 1) < 0.01, "radius \(radius): energy \(total)")
            #expect(alpha(p, 60, 60) < (side == 1 ? 200 : 60), "the dot is spread out")
            #expect(alpha(p, 60 + Int(side) + Int(radius / 2), 60) > 0)
        }
    }

    @Test func blurredEdgeIsMonotonicAndKeepsColour() throws {
        let p = try canvas { ctx in
            ctx.withBlur(radius: 12) { ctx.setFill(.red); ctx.fillRect(Rect(x: -100, y: -100, width: 150, height: 300)) }
        }
        let row = (0..<100).map { alpha(p, $0, 50) }
        #expect(row[0] == 255, "drawing beyond the frame blurs in: no fade at the frame's edge")
        for x in 1..<100 { #expect(row[x] <= row[x - 1], "alpha rises at x \(x)") }
        #expect(row[49] > 128 && row[50] < 128 && row[35] > 250 && row[65] < 5)
        #expect(abs(row[49] + row[50] - 255) <= 2, "the edge is centred")
        for x in 40..<60 { let px = p.rgba(x: x, y: 50); #expect(px.red == px.alpha && px.green == 0 && px.blue == 0) }
    }

    @Test func blurRadiusZeroChangesNothing() throws {
        let scene: (DrawingContext) throws -> Void = { ctx in
            ctx.translate(x: 10, y: 5); ctx.rotate(by: 0.3)
            ctx.setFill(.linear(from: .zero, to: Point(x: 80, y: 0), stops: [GradientStop(0, .red), GradientStop(1, .blue)]))
            ctx.fillEllipse(in: Rect(x: 5, y: 5, width: 70, height: 40))
            try ctx.draw("Ag", at: Point(x: 10, y: 60))
        }
        let plain = try canvas { try scene($0) }
        let zero = try canvas { ctx in try ctx.withBlur(radius: 0) { try scene(ctx) } }
        #expect(plain == zero)
        #expect(try canvas { ctx in try ctx.withBlur(radius: 3) { try scene(ctx) } } != plain)
    }

    @Test func coreBlurMatchesItsGaussianSigma() throws {
        for radius in [1.0, 7.0, 20.0] {
            let b = GaussianBlur(radius: radius)
            let r = Double(b.boxRadius), f = Double(b.edgeWeight) / 256
            let passVariance = (r * (r + 1) * (2 * r + 1) / 3 + 2 * f * (r + 1) * (r + 1)) / (2 * r + 1 + 2 * f)
            let sigma = radius / 2
            #expect(abs(3 * passVariance - sigma * sigma) <= 0.02 * sigma * sigma + 0.02, "radius \(radius)")
        }
        // A vertical white line blurred sideways: the middle row's profile has variance σ² = 25.
        let w = 101, h = 101, stride = w * 4 + 12
        var data = [UInt8](repeating: 0, count: stride * h)
        for y in 0..<h { for c in 0..<4 { data[y * stride + 50 * 4 + c] = 255 } }
        data.withUnsafeMutableBufferPointer { boxBlurPremultipliedARGB(data: $0.baseAddress!, width: w, height: h, stride: stride, radius: 10) }
        let profile = (0..<w).map { Double(data[50 * stride + $0 * 4 + 3]) }
        let mass = profile.reduce(0, +)
        let variance = profile.enumerated().reduce(0) { $0 + $1.element * Double(($1.offset - 50) * ($1.offset - 50)) } / mass
        #expect(abs(mass - 255) < 3, "mass \(mass)")
        #expect(abs(variance - 25) < 1.5, "variance \(variance)")
        #expect(data[50 * stride + w * 4] == 0, "row padding untouched")
        #expect((0..<w).allSatisfy { x in (0..<3).allSatisfy { data[50 * stride + x * 4 + $0] <= data[50 * stride + x * 4 + 3] } })
    }

    /// Direct box sums of what the blur documents: three boxes of 2r+1 taps plus two end taps of
    /// weight f, each with zeros beyond the ends.
    private func directBoxes(_ line: [Double], _ b: GaussianBlur) -> [Double] {
        let f = Double(b.edgeWeight) / 256, r = b.boxRadius, norm = Double(2 * r + 1) + 2 * f
        var line = line, next = line
        let n = line.count
        for _ in 0..<3 {
            for i in 0..<n {
                var sum = 0.0
                for j in max(0, i - r - 1)...min(n - 1, i + r + 1) { sum += line[j] * (abs(j - i) == r + 1 ? f : 1) }
                next[i] = sum / norm
            }
            swap(&line, &next)
        }
        return line
    }

    @Test(arguments: [(channels: 4, width: 260, height: 400, vector: false), (channels: 1, width: 1100, height: 403, vector: false),
                      (channels: 4, width: 40, height: 30, vector: true), (channels: 1, width: 40, height: 30, vector: true)])
    func coreBlurMatchesDirectBoxSums(_ shape: (channels: Int, width: Int, height: Int, vector: Bool)) throws {
        // The large cases have two 1024-sample column strips, enough samples to be split over threads
        // and (one channel) a height that leaves a partial group of four rows. The small ones check the
        // SIMD loops, which release builds use (in debug builds they are slow, so the plain loops run).
        let (c, w, h, vector) = shape
        let stride = w * c + 8, blur = GaussianBlur(radius: 3)
        var rng = SplitMix64(seed: 7)
        var data = [UInt8](repeating: 0, count: stride * h)
        for y in 0..<h { for x in 0..<w {
            let i = y * stride + x * c, a = UInt8(truncatingIfNeeded: rng.next())
            for k in 0..<c - 1 { data[i + k] = UInt8(Int(rng.next() % 256) * Int(a) / 255) }   // premultiplied: colour ≤ alpha
            data[i + c - 1] = a
        } }
        // Checked columns: both edges and the strip seam. Along a row, a column's value depends only on
        // pixels within the blur's extent, so each group is summed over that much of the row around it.
        let groups = w * c > 1024 ? [0..<8, 1024 / c - 12 ..< 1024 / c + 4, w - 8 ..< w] : [0..<w]
        var rowsBlurred = [[Int: Double]](repeating: [:], count: h * c)     // [y * c + channel][x]
        for y in 0..<h { for k in 0..<c { for g in groups {
            let window = max(0, g.lowerBound - blur.extent) ..< min(w, g.upperBound + blur.extent)
            let sums = directBoxes(window.map { Double(data[y * stride + $0 * c + k]) }, blur)
            for x in g { rowsBlurred[y * c + k][x] = sums[x - window.lowerBound] }
        } } }
        data.withUnsafeMutableBufferPointer { blur.apply(to: $0.baseAddress!, width: w, height: h, stride: stride, channels: c, vectorLoops: vector) }
        var worst = 0.0
        for x in groups.joined() { for k in 0..<c {
            let expected = directBoxes((0..<h).map { rowsBlurred[$0 * c + k][x]! }, blur)
            for y in 0..<h { worst = max(worst, abs(Double(data[y * stride + x * c + k]) - expected[y])) }
        } }
        #expect(worst <= 0.75, "largest difference from direct sums: \(worst)")
        #expect((0..<h).allSatisfy { y in data[y * stride + w * c ..< (y + 1) * stride].allSatisfy { $0 == 0 } }, "row padding untouched")
    }

    @Test func premultipliedARGBEntryPointBlursAllFourChannels() throws {
        let w = 21, h = 21, stride = w * 4
        var data = [UInt8](repeating: 0, count: stride * h)
        for k in 0..<4 { data[10 * stride + 10 * 4 + k] = 255 }
        data.withUnsafeMutableBufferPointer { boxBlurPremultipliedARGB(data: $0.baseAddress!, width: w, height: h, stride: stride, radius: 2) }
        let centre = 10 * stride + 10 * 4, beside = 10 * stride + 11 * 4
        #expect(data[centre + 3] < 255 && data[beside + 3] > 0)
        #expect((0..<3).allSatisfy { data[centre + $0] == data[centre + 3] && data[beside + $0] == data[beside + 3] })
    }

    // MARK: Images

    /// A 40×20 image: blue 10-pixel ends around a red 20×20 square.
    private func twoToOneImage() throws -> Image {
        let c = try Canvas(width: 40, height: 20)
        try c.draw { ctx in
            ctx.setFill(.blue); ctx.fillRect(Rect(x: 0, y: 0, width: 40, height: 20))
            ctx.setFill(.red); ctx.fillRect(Rect(x: 10, y: 0, width: 20, height: 20))
        }
        return try c.makeImage()
    }

    @Test func imageFitLetterboxesFillCropsStretchFillsAndCenterKeepsSize() throws {
        let image = try twoToOneImage()
        let square = Rect(x: 50, y: 50, width: 100, height: 100)
        let fit = try canvas(200, 200) { $0.draw(image, in: square, fit: .fit) }
        #expect(alpha(fit, 100, 60) == 0 && alpha(fit, 100, 140) == 0)          // bars above and below
        #expect(fit.rgba(x: 100, y: 100) == (255, 0, 0, 255))
        #expect(fit.rgba(x: 52, y: 76) == (0, 0, 255, 255) && fit.rgba(x: 147, y: 123) == (0, 0, 255, 255))
        #expect(alpha(fit, 100, 74) == 0 && alpha(fit, 100, 125) == 0)

        let fill = try canvas(200, 200) { $0.draw(image, in: square, fit: .fill) }
        // Scaled 5×, the red square covers the rectangle exactly; bilinear upscaling blends the
        // neighbouring blue into the outermost 2 px columns only.
        for y in stride(from: 50, to: 150, by: 7) { for x in stride(from: 53, to: 147, by: 7) {
            #expect(fill.rgba(x: x, y: y) == (255, 0, 0, 255), "fill at \(x),\(y)")
        } }
        #expect(fill.rgba(x: 53, y: 50) == (255, 0, 0, 255) && fill.rgba(x: 146, y: 149) == (255, 0, 0, 255))
        #expect(fill.rgba(x: 50, y: 100).red > fill.rgba(x: 50, y: 100).blue)   // mostly red even there
        #expect(alpha(fill, 45, 100) == 0 && alpha(fill, 155, 100) == 0)        // cropped at the square

        let stretch = try canvas(200, 200) { $0.draw(image, in: square, fit: .stretch) }
        #expect(stretch.rgba(x: 55, y: 55) == (0, 0, 255, 255) && stretch.rgba(x: 145, y: 145) == (0, 0, 255, 255))
        #expect(stretch.rgba(x: 100, y: 52) == (255, 0, 0, 255) && alpha(stretch, 100, 48) == 0)

        let center = try canvas(200, 200) { $0.draw(image, in: square, fit: .center) }
        #expect(center.rgba(x: 100, y: 100) == (255, 0, 0, 255))
        #expect(center.rgba(x: 85, y: 100) == (0, 0, 255, 255) && center.rgba(x: 80, y: 90) == (0, 0, 255, 255))
        #expect(alpha(center, 79, 100) == 0 && alpha(center, 120, 100) == 0 && alpha(center, 100, 89) == 0 && alpha(center, 100, 110) == 0)

        let top = try canvas(200, 200) { $0.draw(image, in: square, fit: .fit, anchor: .zero) }
        #expect(top.rgba(x: 100, y: 52) == (255, 0, 0, 255) && alpha(top, 100, 110) == 0)
    }

    @Test func imageOpacityAndDownscaleFiltering() throws {
        let image = try twoToOneImage()
        let half = try canvas { $0.draw(image, in: Rect(x: 0, y: 0, width: 100, height: 100), fit: .stretch, opacity: 0.5) }
        #expect(close(half.rgba(x: 50, y: 50).alpha, 128) && half.rgba(x: 50, y: 50).red == half.rgba(x: 50, y: 50).alpha)
        // One-pixel stripes shrunk 5×: a good filter averages them to grey instead of picking pixels.
        let stripes = try Canvas(width: 100, height: 10)
        try stripes.draw { ctx in
            ctx.setFill(.white)
            for x in stride(from: 0, to: 100, by: 2) { ctx.fillRect(Rect(x: Double(x), y: 0, width: 1, height: 10)) }
        }
        let small = try canvas(20, 2) { $0.draw(try stripes.makeImage(), in: Rect(x: 0, y: 0, width: 20, height: 2), fit: .stretch) }
        for x in 0..<20 { #expect(alpha(small, x, 1) > 60 && alpha(small, x, 1) < 195, "column \(x): \(alpha(small, x, 1))") }
    }
}

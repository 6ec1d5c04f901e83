import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Colour filters: each against the FFmpeg filter that computes the same thing, 3D LUTs (identity exact,
/// `lut3d` in both interpolations, malformed files), looks, keyframed amounts and the description form.
@Suite struct ColorFilterTests {
    static let width = 128, height = 96

    /// Grey ramp, a hue sweep at rising saturation, an RGB ramp, and colour patches; opaque.
    static func testPixels(alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> PixelBuffer {
        let patches: [(Double, Double, Double)] = [
            (0.9, 0.75, 0.65), (0.55, 0.38, 0.3), (0.35, 0.55, 0.85), (0.2, 0.45, 0.2), (0.95, 0.85, 0.2), (0.8, 0.1, 0.1),
            (0.1, 0.1, 0.5), (0.5, 0.5, 0.5), (0.05, 0.05, 0.05), (0.98, 0.98, 0.98), (0.6, 0.2, 0.7), (0.2, 0.7, 0.7),
            (1, 0.5, 0), (0, 0.3, 0.1), (0.7, 0.6, 0.4), (0.3, 0.3, 0.35),
        ]
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var r = 0.0, g = 0.0, b = 0.0
                let fx = Double(x) / Double(width - 1)
                switch y {
                case 0..<24: r = fx; g = fx; b = fx
                case 24..<48:
                    let s = Double(y - 24) / 23, h = fx * 6
                    let c = s, xx = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)), m = 1 - c
                    switch Int(h) { case 0: (r, g, b) = (c, xx, 0); case 1: (r, g, b) = (xx, c, 0); case 2: (r, g, b) = (0, c, xx)
                    case 3: (r, g, b) = (0, xx, c); case 4: (r, g, b) = (xx, 0, c); default: (r, g, b) = (c, 0, xx) }
                    r += m; g += m; b += m
                case 48..<72: r = fx; g = Double(y - 48) / 23; b = 1 - fx
                default: (r, g, b) = patches[x / 16 + 8 * ((y - 72) / 12)]
                }
                let a = alpha(x, y), i = (y * width + x) * 4
                func pm(_ v: Double) -> UInt8 { UInt8(min(255, ((v * 255).rounded() * Double(a) / 255).rounded())) }
                bytes[i] = pm(b); bytes[i + 1] = pm(g); bytes[i + 2] = pm(r); bytes[i + 3] = a
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    /// `filters` applied through a filtered drawing clip, drawn into a fresh canvas at `time`.
    static func filtered(_ pixels: PixelBuffer, _ filters: [ColorFilter], at time: Double = 0) throws -> PixelBuffer {
        let image = try Image(pixels)
        let clip = Clip(duration: 2) { ctx, _ in ctx.draw(image, in: Rect(x: 0, y: 0, width: Double(pixels.width), height: Double(pixels.height))) }
            .filtered(filters.map { .color($0) })
        let canvas = try Canvas(width: pixels.width, height: pixels.height)
        let frame = Frame(index: Int(time * 30), movieIndex: Int(time * 30), rate: 30, exactTime: Time(seconds: time), duration: 2)
        try clip.draw(in: canvas.context, at: frame)
        return canvas.pixels()
    }

    /// The FFmpeg CLI's output (rgb24) for `vf` on the test picture.
    /// Issue 34, item 7: values made in code beyond a parameter's range are clamped to the range its
    /// descriptor gives (the one a description may say), not to literals repeated in `apply`.
    @Test("values beyond a parameter's range are clamped to the descriptor's range when applied")
    func outOfRangeValuesAreClampedToTheDescriptorsRange() throws {
        let pixels = Self.testPixels()
        // Each pair: a value beyond the range, and the range's end it is clamped to.
        let pairs: [(ColorFilter, ColorFilter, ClosedRange<Double>)] = [
            (.tint(5), .tint(1), ColorFilter.range("tint", "amount")),
            (.exposure(stops: -10), .exposure(stops: -3), ColorFilter.range("exposure", "stops")),
            (.vibrance(9), .vibrance(2), ColorFilter.range("vibrance", "amount")),
            (.temperature(kelvin: 100_000), .temperature(kelvin: 40_000), ColorFilter.range("temperature", "kelvin")),
            (.sepia(amount: 4), .sepia(amount: 1), ColorFilter.mixRange),
        ]
        for (beyond, edge, range) in pairs {
            #expect(range.lowerBound < range.upperBound)
            #expect(try Self.filtered(pixels, [beyond]) == Self.filtered(pixels, [edge]), "\(beyond.spec.name) clamps to \(range)")
        }
    }

    static func ffmpeg(_ vf: String, input: PixelBuffer, folder: TemporaryFolder) throws -> [UInt8] {
        let png = folder.file("in.png"), raw = folder.file("out.rgb")
        let canvas = try Canvas(width: input.width, height: input.height)
        let image = try Image(input)
        try canvas.draw { $0.draw(image, in: Rect(x: 0, y: 0, width: Double(input.width), height: Double(input.height))) }
        #expect(canvas.pixels() == input, "the test picture must draw exactly")
        try canvas.writePNG(to: png)
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-y", "-i", png.path, "-vf", vf, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        #expect(r.status == 0, "ffmpeg -vf \(vf) failed: \(r.stderr)")
        return [UInt8]((try? Data(contentsOf: raw)) ?? Data())
    }

    /// Mean and largest absolute difference over every colour sample.
    static func difference(_ ours: PixelBuffer, _ theirs: [UInt8]) -> (mean: Double, max: Int) {
        guard theirs.count == ours.width * ours.height * 3 else { return (.infinity, .max) }
        var sum = 0, worst = 0
        for i in 0..<(ours.width * ours.height) {
            for (c, o) in [(0, 2), (1, 1), (2, 0)] {
                let d = abs(Int(ours.bytes[4 * i + o]) - Int(theirs[3 * i + c]))
                sum += d; worst = max(worst, d)
            }
        }
        return (Double(sum) / Double(ours.width * ours.height * 3), worst)
    }

    /// A colour from HSL as FFmpeg's colorize computes it.
    static func hsl(_ h: Double, _ s: Double, _ l: Double) -> Color {
        func hue2rgb(_ p: Double, _ q: Double, _ t0: Double) -> Double {
            var t = t0; if t < 0 { t += 1 }; if t > 1 { t -= 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 0.5 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q, hh = h / 360
        // 8-bit, so that the colour survives a description file's hex form.
        func q8(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        return Color(red8: q8(hue2rgb(p, q, hh + 1.0 / 3)), green8: q8(hue2rgb(p, q, hh)), blue8: q8(hue2rgb(p, q, hh - 1.0 / 3)))
    }

    /// A smooth non-identity test LUT (channel cross-talk and a curve), as .cube text.
    static func testLUT(size: Int = 9) -> CubeLUT {
        var t: [Float] = []
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            let R = Double(r) / Double(size - 1), G = Double(g) / Double(size - 1), B = Double(b) / Double(size - 1)
            t += [Float(pow(R, 0.8) * 0.9 + 0.1 * G), Float(G * G * 0.7 + 0.3 * B), Float(min(1, 0.2 + 0.6 * B + 0.2 * R))]
        } } }
        return CubeLUT(size: size, table: t, title: "test")
    }

    static let mixer = ChannelMatrix(rr: 0.5, rg: 0.3, rb: 0.2, gr: 0.1, gg: 0.8, gb: 0.1, br: 0, bg: 0.2, bb: 0.9)
    static let oracleCases: [(String, ColorFilter, String)] = [
        ("grayscale", .grayscale(amount: 1), "colorchannelmixer=.2126:.7152:.0722:0:.2126:.7152:.0722:0:.2126:.7152:.0722"),
        ("grayscale half", .grayscale(amount: 0.5), "colorchannelmixer=.6063:.3576:.0361:0:.1063:.8576:.0361:0:.1063:.3576:.5361"),
        ("brightness", .brightness(0.15), "eq=brightness=0.15"),
        ("brightness down", .brightness(-0.2), "eq=brightness=-0.2"),
        ("contrast", .contrast(1.4), "eq=contrast=1.4"),
        ("contrast low", .contrast(0.6), "eq=contrast=0.6"),
        ("saturation", .saturation(1.6), "eq=saturation=1.6"),
        ("desaturation", .saturation(0.4), "eq=saturation=0.4"),
        ("gamma", .gamma(1.8), "eq=gamma=1.8"),
        ("hue", .hue(degrees: 60), "hue=h=60"),
        ("temperature", .temperature(kelvin: 4000, amount: 1), "colortemperature=temperature=4000"),
        ("temperature cool mix", .temperature(kelvin: 12000, amount: 0.5), "colortemperature=temperature=12000:mix=0.5"),
        ("tint", .tint(0.5), "colorchannelmixer=gg=0.85"),
        ("exposure", .exposure(stops: 0.7), "exposure=exposure=0.7"),
        ("exposure down", .exposure(stops: -1), "exposure=exposure=-1"),
        ("vibrance", .vibrance(0.8), "vibrance=intensity=0.8"),
        ("vibrance down", .vibrance(-0.6), "vibrance=intensity=-0.6"),
        ("sepia", .sepia(amount: 1), "colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131"),
        ("invert", .invert(amount: 1), "negate"),
        ("colorize", .colorize(hsl(200, 0.6, 0.5), amount: 1), "colorize=hue=200:saturation=0.6:lightness=0.5"),
        ("channel mixer", .channelMixer(mixer, amount: 1), "colorchannelmixer=.5:.3:.2:0:.1:.8:.1:0:0:.2:.9"),
        ("curves", .curves(CurveSet(master: [Point(x: 0, y: 0.1), Point(x: 1, y: 0.9)], red: [Point(x: 0, y: 0), Point(x: 0.5, y: 0.6), Point(x: 1, y: 1)],
                                    blue: [Point(x: 0, y: 0.05), Point(x: 0.3, y: 0.2), Point(x: 0.7, y: 0.85), Point(x: 1, y: 1)]), amount: 1),
         "curves=master='0/0.1 1/0.9':red='0/0 0.5/0.6 1/1':blue='0/0.05 0.3/0.2 0.7/0.85 1/1'"),
    ]

    @Test(arguments: oracleCases.map(\.0))
    func matchesFFmpeg(_ name: String) throws {
        if !FFTools.available { try Test.cancel("skipped: the ffmpeg CLI is not installed at \(FFTools.ffmpeg)") }
        let (_, filter, vf) = Self.oracleCases.first { $0.0 == name }!
        let folder = try TemporaryFolder()
        let input = Self.testPixels()
        let theirs = try Self.ffmpeg(vf, input: input, folder: folder)
        let ours = try Self.filtered(input, [filter])
        let d = Self.difference(ours, theirs)
        if let dir = ProcessInfo.processInfo.environment["COLOR_FILTER_DUMP"] {
            try Data(ours.bytes).write(to: URL(fileURLWithPath: "\(dir)/\(name)-ours.bgra"))
            try Data(theirs).write(to: URL(fileURLWithPath: "\(dir)/\(name)-ffmpeg.rgb"))
            try Data(input.bytes).write(to: URL(fileURLWithPath: "\(dir)/\(name)-in.bgra"))
        }
        print("ColorFilter \(name) vs ffmpeg \(vf): mean \(String(format: "%.3f", d.mean)), max \(d.max)")
        #expect(d.mean <= 2 && d.max <= 8, "\(name) against ffmpeg -vf \(vf): mean \(d.mean), max \(d.max)")
        #expect(ours != input, "\(name) changed nothing")
    }

    @Test(arguments: LUTInterpolation.allCases)
    func lutMatchesLut3d(_ interpolation: LUTInterpolation) throws {
        if !FFTools.available { try Test.cancel("skipped: the ffmpeg CLI is not installed at \(FFTools.ffmpeg)") }
        let folder = try TemporaryFolder()
        let cube = folder.file("test.cube")
        try Self.testLUT().cubeText.write(to: cube, atomically: true, encoding: .utf8)
        let lut = try CubeLUT(contentsOf: cube)
        let input = Self.testPixels()
        let theirs = try Self.ffmpeg("lut3d=file=\(cube.path):interp=\(interpolation.rawValue)", input: input, folder: folder)
        let d = Self.difference(try Self.filtered(input, [.lut(lut, interpolation: interpolation, amount: 1)]), theirs)
        print("ColorFilter lut \(interpolation) vs ffmpeg lut3d: mean \(String(format: "%.3f", d.mean)), max \(d.max)")
        #expect(d.mean <= 2 && d.max <= 8, "lut \(interpolation): mean \(d.mean), max \(d.max)")
    }

    @Test(arguments: Look.allCases)
    func looksMatchLut3dOfTheirBakedLUT(_ look: Look) throws {
        if !FFTools.available { try Test.cancel("skipped: the ffmpeg CLI is not installed at \(FFTools.ffmpeg)") }
        let folder = try TemporaryFolder()
        let cube = folder.file("\(look).cube")
        try look.lut.cubeText.write(to: cube, atomically: true, encoding: .utf8)
        let input = Self.testPixels()
        let theirs = try Self.ffmpeg("lut3d=file=\(cube.path):interp=tetrahedral", input: input, folder: folder)
        let ours = try Self.filtered(input, [.look(look, amount: 1)])
        let d = Self.difference(ours, theirs)
        #expect(d.mean <= 2 && d.max <= 8, "look \(look): mean \(d.mean), max \(d.max)")
        #expect(ours != input, "look \(look) changed nothing")
        if look == .mono || look == .noir {
            for i in stride(from: 0, to: ours.bytes.count, by: 4) { #expect(ours.bytes[i] == ours.bytes[i + 1] && ours.bytes[i + 1] == ours.bytes[i + 2]) }
        }
    }

    @Test func identityLUTLeavesPixelsExactlyUnchanged() throws {
        let folder = try TemporaryFolder()
        let input = Self.testPixels(alpha: { x, y in y >= 48 ? UInt8((x * 2 + y) % 256) : 255 })
        for size in [2, 17, 33] {
            let cube = folder.file("identity\(size).cube")
            try ("# identity\nTITLE \"identity\"\n" + CubeLUT.identity(size: size).cubeText).write(to: cube, atomically: true, encoding: .utf8)
            let lut = try CubeLUT(contentsOf: cube)
            #expect(lut == CubeLUT.identity(size: size))
            // A Windows editor's byte order mark is not part of the first keyword (it was "unknown keyword TITLE").
            let marked = folder.file("marked\(size).cube")
            try Data([0xEF, 0xBB, 0xBF] + Array(("TITLE \"identity\"\n" + CubeLUT.identity(size: size).cubeText).utf8)).write(to: marked)
            #expect(try CubeLUT(contentsOf: marked) == lut)
            for interpolation in LUTInterpolation.allCases {
                #expect(try Self.filtered(input, [.lut(lut, interpolation: interpolation, amount: 1)]) == input, "size \(size) \(interpolation)")
            }
        }
    }

    @Test func malformedCubeFilesNameTheLine() throws {
        func error(_ text: String) -> MovieMakerError? {
            do { _ = try CubeLUT(parsing: text, path: "bad.cube"); return nil } catch { return error }
        }
        let badNumber = error("TITLE \"x\"\nLUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 zero\n")
        #expect(badNumber?.code == .lutUnreadable)
        #expect(badNumber?.message.contains("bad.cube at line 5") == true, "\(String(describing: badNumber))")
        #expect(error("LUT_1D_SIZE 1024\n")?.message.contains("line 1: this is a 1D LUT") == true)
        #expect(error("LUT_3D_SIZE 99\n")?.message.contains("line 1") == true)
        #expect(error("LUT_3D_SIZE 2\nFOO 1\n")?.message.contains("line 2: unknown keyword \"FOO\"") == true)
        #expect(error("LUT_3D_SIZE 2\n0 0 0\n")?.message.contains("needs 8 colours, the file has 1") == true)
        #expect(error("0 0 0\nLUT_3D_SIZE 2\n")?.message.contains("line 1") == true)
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).cube")
        #expect(throws: MovieMakerError.self) { try CubeLUT(contentsOf: missing) }
        // Through a description: the filter fails when built, naming the file key.
        let spec = FilterSpec(name: "lut", parameters: ["file": .string(missing.path)])
        do { _ = try Clip.Filter(spec, at: .root); Issue.record("a missing LUT was accepted") } catch {
            #expect(error.code == .lutUnreadable && error.location?.jsonPath == "file")
        }
    }

    @Test func keyframedAmountGivesTheInterpolatedValueMidway() throws {
        let input = Self.testPixels()
        let track = try KeyframeTrack([Keyframe(time: 0.0, value: 0.0), Keyframe(time: 1.0, value: 0.2)])
        let keyed = try Self.filtered(input, [.brightness(.keyframes(track))], at: 0.5)
        #expect(keyed == (try Self.filtered(input, [.brightness(0.1)], at: 0.5)))
        #expect(keyed != input)
        let sepia = try KeyframeTrack([Keyframe(time: 0.0, value: 0.0), Keyframe(time: 1.0, value: 1.0)])
        #expect(try Self.filtered(input, [.sepia(amount: .keyframes(sepia))], at: 0.25) == (try Self.filtered(input, [.sepia(amount: 0.25)], at: 0.25)))
        #expect(try Self.filtered(input, [.sepia(amount: .keyframes(sepia))], at: 0) == input)
    }

    @Test func partlyTransparentPixelsKeepAlphaAndTransparentOnesStayTransparent() throws {
        let input = Self.testPixels(alpha: { x, _ in UInt8(x * 2) })
        let out = try Self.filtered(input, [.invert(amount: 1)])
        for i in stride(from: 0, to: out.bytes.count, by: 4) {
            #expect(out.bytes[i + 3] == input.bytes[i + 3])
            #expect(out.bytes[i] <= out.bytes[i + 3] && out.bytes[i + 1] <= out.bytes[i + 3] && out.bytes[i + 2] <= out.bytes[i + 3])
        }
    }

    @Test func everyFilterRoundTripsThroughItsSpecAndCodable() throws {
        let folder = try TemporaryFolder()
        let cube = folder.file("look.cube")
        try Self.testLUT(size: 3).cubeText.write(to: cube, atomically: true, encoding: .utf8)
        let lut = try CubeLUT(contentsOf: cube)
        let keyed = FilterAmount.keyframes(try KeyframeTrack([Keyframe(time: 0.0, value: 0.0), Keyframe(time: 2.0, value: 0.5, easing: .quadOut)]))
        var filters: [ColorFilter] = Self.oracleCases.map(\.1)
        filters += [.brightness(keyed), .lut(lut, interpolation: .trilinear, amount: 0.7), .lut(lut, interpolation: .tetrahedral, amount: keyed),
                    .colorize(Color(red8: 255, green8: 128, blue8: 0), amount: 0.4)]
        filters += Look.allCases.map { .look($0, amount: 0.8) }
        var names = Set<String>()
        for f in filters {
            let spec = Clip.Filter.color(f).spec
            names.insert(spec.name)
            #expect(try Clip.Filter(spec) == .color(f), "\(spec.json)")
            let data = try JSONEncoder().encode(f)
            #expect(try JSONDecoder().decode(ColorFilter.self, from: data) == f, "\(String(decoding: data, as: UTF8.self))")
        }
        #expect(names.count == 17, "every colour filter kind is covered: \(names.sorted())")
        #expect(Look.allCases.count >= 8)
        let look = try Clip.Filter(FilterSpec(name: "look", parameters: ["look": .string("vintage"), "amount": .number("0.8")]))
        #expect(look == .color(.look(.vintage, amount: 0.8)))
    }
}

import Foundation

/// Filters that change each pixel's colour on its own (brightness, contrast, LUTs, looks…).
///
/// Each works on unpremultiplied colour and keeps alpha, so it applies to a clip's own pixels whatever
/// shows through them. Every number is a `FilterAmount` (constant or keyframed), evaluated once per
/// frame; the filter is then compiled to per-channel tables, a colour matrix, a YUV plane operation or a
/// 3D LUT and run over the rows on several cores. Where FFmpeg has a filter that computes the same thing,
/// the case says which, and the tests compare the two on the same picture.
public enum ColorFilter: Sendable, Hashable {
    /// Grey by BT.709 luma, mixed with the original by `amount` (0: unchanged, 1: fully grey). FFmpeg:
    /// `colorchannelmixer` with every row `.2126:.7152:.0722` (mixed with the identity by `amount`).
    case grayscale(amount: FilterAmount = 1)
    /// FFmpeg `eq=brightness=…` (−1…1): adds `brightness × 256` to luma in FFmpeg's own pipeline, which
    /// converts RGB to BT.601 limited-range Y′CbCr (`yuva444p`), runs eq's integer luma code and converts
    /// back; this does the same per pixel.
    case brightness(FilterAmount)
    /// FFmpeg `eq=contrast=…` (−1000…1000, 1 unchanged): luma scaled around mid-grey, as eq does it on
    /// BT.601 limited-range luma (see `brightness`).
    case contrast(FilterAmount)
    /// FFmpeg `eq=saturation=…` (0…3, 1 unchanged): Cb and Cr scaled around 128, as eq does it on
    /// BT.601 limited-range chroma (see `brightness`).
    case saturation(FilterAmount)
    /// FFmpeg `eq=gamma=…` (0.1…10, 1 unchanged): luma raised to 1/gamma through eq's table (see
    /// `brightness`).
    case gamma(FilterAmount)
    /// FFmpeg `hue=h=…`: Cb and Cr rotated by `degrees` in BT.601 limited-range Y′CbCr, in hue's 16-bit
    /// fixed point.
    case hue(degrees: FilterAmount)
    /// FFmpeg `colortemperature=temperature=…:mix=…` (pl=0): each channel multiplied by the colour of a
    /// black body at `kelvin` (1000…40000; 6500 is nearly neutral, lower is warmer), mixed with the
    /// original by `amount`.
    case temperature(kelvin: FilterAmount, amount: FilterAmount = 1)
    /// Green–magenta balance, −1…1 (positive: magenta). FFmpeg has no tint filter; this is
    /// `colorchannelmixer=gg=1−0.3×tint`.
    case tint(FilterAmount)
    /// FFmpeg `exposure=exposure=…` (−3…3 stops, black 0): each channel × 2^stops.
    case exposure(stops: FilterAmount)
    /// FFmpeg `vibrance=intensity=…` (−2…2): saturates dull colours more than vivid ones. As FFmpeg
    /// computes it, with its default luma weights (red 0.072186, green 0.715158, blue 0.212656).
    case vibrance(FilterAmount)
    /// Sepia tone, mixed with the original by `amount`. FFmpeg: `colorchannelmixer` with the sepia
    /// matrix `.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131` (mixed with the identity).
    case sepia(amount: FilterAmount = 1)
    /// The negative (255 − level per channel), mixed with the original by `amount`. FFmpeg: `negate`.
    case invert(amount: FilterAmount = 1)
    /// Tint with a colour: the picture's luma with the colour's chroma, mixed with the original by
    /// `amount`. FFmpeg: `colorize` with the colour's hue, saturation and lightness and `mix=1` (its
    /// BT.709-weighted chroma written into BT.601 limited-range planes, as colorize does).
    case colorize(Color, amount: FilterAmount = 1)
    /// Each output channel a weighted sum of the input channels, mixed with the original by `amount`.
    /// FFmpeg: `colorchannelmixer=rr:rg:rb:0:gr:gg:gb:0:br:bg:bb`.
    case channelMixer(ChannelMatrix, amount: FilterAmount = 1)
    /// Tone curves per channel and for all (master, applied after the channel's), natural cubic splines
    /// through the points, mixed with the original by `amount`. FFmpeg: `curves` (natural interpolation).
    case curves(CurveSet, amount: FilterAmount = 1)
    /// A 3D LUT (`.cube`), mixed with the original by `amount`. FFmpeg: `lut3d=file=…:interp=…`.
    case lut(CubeLUT, interpolation: LUTInterpolation = .tetrahedral, amount: FilterAmount = 1)
    /// A named look (a graded combination of the filters above, baked into a 33-point 3D LUT and read
    /// tetrahedrally), mixed with the original by `amount`.
    case look(Look, amount: FilterAmount = 1)
}

/// A 3×3 channel mixer: each output channel a weighted sum of red, green and blue (FFmpeg
/// `colorchannelmixer`'s `rr rg rb`, `gr gg gb`, `br bg bb`).
public struct ChannelMatrix: Sendable, Hashable {
    /// Red out from red, green, blue in.
    public var rr: Double, rg: Double, rb: Double
    /// Green out from red, green, blue in.
    public var gr: Double, gg: Double, gb: Double
    /// Blue out from red, green, blue in.
    public var br: Double, bg: Double, bb: Double

    /// A matrix with the given weights (the identity by default).
    public init(rr: Double = 1, rg: Double = 0, rb: Double = 0, gr: Double = 0, gg: Double = 1, gb: Double = 0,
                br: Double = 0, bg: Double = 0, bb: Double = 1) {
        self.rr = rr; self.rg = rg; self.rb = rb; self.gr = gr; self.gg = gg; self.gb = gb; self.br = br; self.bg = bg; self.bb = bb
    }
    /// Every channel unchanged.
    public static let identity = ChannelMatrix()
    /// The classic sepia matrix.
    public static let sepia = ChannelMatrix(rr: 0.393, rg: 0.769, rb: 0.189, gr: 0.349, gg: 0.686, gb: 0.168, br: 0.272, bg: 0.534, bb: 0.131)
    /// Grey by BT.709 luma in every channel.
    package static let luma709 = ChannelMatrix(rr: 0.2126, rg: 0.7152, rb: 0.0722, gr: 0.2126, gg: 0.7152, gb: 0.0722, br: 0.2126, bg: 0.7152, bb: 0.0722)

    /// The weights in `colorchannelmixer` order without alpha: rr rg rb gr gg gb br bg bb.
    package var weights: [Double] { [rr, rg, rb, gr, gg, gb, br, bg, bb] }
    /// The JSON keys, in `weights` order.
    static let keys = ["rr", "rg", "rb", "gr", "gg", "gb", "br", "bg", "bb"]
    var matrix: ColorMatrix { ColorMatrix(m: weights.map(Float.init), offset: [0, 0, 0]) }
}

/// Tone curves: points `(x, y)` in 0…1 per channel and for all channels (`master`, applied after the
/// channel's own curve); nil is the identity.
public struct CurveSet: Sendable, Hashable {
    /// The curve for all channels, applied after each channel's.
    public var master: [Point]?
    /// The red channel's curve.
    public var red: [Point]?
    /// The green channel's curve.
    public var green: [Point]?
    /// The blue channel's curve.
    public var blue: [Point]?

    /// Curves through the given points (at least two each, x increasing).
    public init(master: [Point]? = nil, red: [Point]? = nil, green: [Point]? = nil, blue: [Point]? = nil) {
        self.master = master; self.red = red; self.green = green; self.blue = blue
    }

    /// 256 levels through a natural cubic spline through `points` (FFmpeg `curves`' `natural`
    /// interpolation): flat before the first point and after the last.
    static func table(_ points: [Point]?) -> [Double] {
        guard let points, points.count >= 2 else { return (0..<256).map(Double.init) }
        let n = points.count
        let x = points.map { $0.x * 255 }, y = points.map { $0.y * 255 }
        // Second derivatives with natural ends (zero), by the tridiagonal algorithm.
        var m = [Double](repeating: 0, count: n)
        if n > 2 {
            var c = [Double](repeating: 0, count: n), d = [Double](repeating: 0, count: n)
            for i in 1..<(n - 1) {
                let h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i]
                let a = h0 / 6, b = (h0 + h1) / 3, cc = h1 / 6
                let r = (y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0
                let den = b - a * c[i - 1]
                c[i] = cc / den; d[i] = (r - a * d[i - 1]) / den
            }
            for i in stride(from: n - 2, through: 1, by: -1) { m[i] = d[i] - c[i] * m[i + 1] }
        }
        return (0..<256).map { xi -> Double in
            let v = Double(xi)
            if v <= x[0] { return y[0] }
            if v >= x[n - 1] { return y[n - 1] }
            var k = 0
            while k < n - 2 && v > x[k + 1] { k += 1 }
            let h = x[k + 1] - x[k], a = (x[k + 1] - v) / h, b = (v - x[k]) / h
            return a * y[k] + b * y[k + 1] + ((a * a * a - a) * m[k] + (b * b * b - b) * m[k + 1]) * h * h / 6
        }
    }

    var tables: ChannelTables {
        let master = Self.table(master)
        func channel(_ p: [Point]?) -> [UInt8] {
            Self.table(p).map { v in
                let i = Int(min(max(v, 0), 255).rounded())
                return UInt8(ColorPixels.level(Float(master[i])))
            }
        }
        return ChannelTables(r: channel(red), g: channel(green), b: channel(blue))
    }
}

/// Named looks, each a combination of colour filters baked into a 3D LUT.
public enum Look: String, Sendable, Hashable, CaseIterable {
    /// Richer colour and a little contrast: vibrance, saturation, contrast.
    case vivid
    /// Neutral black and white with a touch of contrast.
    case mono
    /// Hard black and white: grey, an S curve and strong contrast.
    case noir
    /// Warmer light (a 4800 K colour temperature at 60 %).
    case warm
    /// Cooler light (a 10 000 K colour temperature at 60 %).
    case cool
    /// Lifted blacks, softened whites, less saturation.
    case fade
    /// Old print: some sepia, faded curve, warm, less vibrance.
    case vintage
    /// Strong contrast, muted colour, deep shadows.
    case dramatic
    /// Bleach bypass: half the saturation, strong contrast.
    case bleach
    /// Matte: lifted blacks and lowered whites, colour kept.
    case matte

    /// The filters the look is made of, in order.
    public var filters: [ColorFilter] {
        let p = { (x: Double, y: Double) in Point(x: x, y: y) }
        switch self {
        case .vivid: return [.vibrance(0.4), .saturation(1.25), .contrast(1.1)]
        case .mono: return [.grayscale(amount: 1), .contrast(1.05)]
        case .noir: return [.grayscale(amount: 1), .curves(CurveSet(master: [p(0, 0), p(0.25, 0.15), p(0.75, 0.88), p(1, 1)]), amount: 1), .contrast(1.2)]
        case .warm: return [.temperature(kelvin: 4800, amount: 0.6)]
        case .cool: return [.temperature(kelvin: 10000, amount: 0.6)]
        case .fade: return [.curves(CurveSet(master: [p(0, 0.1), p(0.5, 0.52), p(1, 0.92)]), amount: 1), .saturation(0.8)]
        case .vintage:
            return [.sepia(amount: 0.3), .curves(CurveSet(master: [p(0, 0.08), p(0.5, 0.5), p(1, 0.9)], blue: [p(0, 0.05), p(1, 0.9)]), amount: 1),
                    .temperature(kelvin: 5500, amount: 0.5), .vibrance(-0.2)]
        case .dramatic: return [.contrast(1.35), .saturation(0.8), .curves(CurveSet(master: [p(0, 0), p(0.3, 0.22), p(1, 1)]), amount: 1)]
        case .bleach: return [.saturation(0.45), .contrast(1.35)]
        case .matte: return [.curves(CurveSet(master: [p(0, 0.08), p(0.25, 0.25), p(0.75, 0.78), p(1, 0.95)]), amount: 1)]
        }
    }

    /// The look as a 33-point 3D LUT (built once per process).
    public var lut: CubeLUT { LookCache.shared.lut(for: self) }
}

/// Looks baked to LUTs, built on first use.
final class LookCache: @unchecked Sendable {
    // @unchecked: `luts` is only touched under `lock`.
    static let shared = LookCache()
    private let lock = NSLock()
    private var luts: [Look: CubeLUT] = [:]

    func lut(for look: Look) -> CubeLUT {
        if let l = lock.withLock({ luts[look] }) { return l }
        let n = 33, count = n * n * n
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: count * 4)
        defer { data.deallocate() }
        var i = 0
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            data[4 * i] = UInt8((Double(b) * 255 / 32).rounded()); data[4 * i + 1] = UInt8((Double(g) * 255 / 32).rounded())
            data[4 * i + 2] = UInt8((Double(r) * 255 / 32).rounded()); data[4 * i + 3] = 255
            i += 1
        } } }
        let image = FilterImage(data: data, width: count, height: 1, stride: count * 4)
        let time = FilterTime(exactTime: .zero, rate: 30)
        for f in look.filters { try? f.apply(to: image, at: time) }
        var table = [Float](repeating: 0, count: count * 3)
        for j in 0..<count {
            table[3 * j] = Float(data[4 * j + 2]) / 255; table[3 * j + 1] = Float(data[4 * j + 1]) / 255; table[3 * j + 2] = Float(data[4 * j]) / 255
        }
        let lut = CubeLUT(size: n, table: table, title: look.rawValue)
        lock.withLock { luts[look] = lut }
        return lut
    }
}

extension ColorFilter {
    private static func one(_ name: String, _ doc: String, _ key: String, _ range: ClosedRange<Double>, _ def: Double, _ pdoc: String,
                            _ make: @escaping @Sendable (FilterAmount) -> ColorFilter) -> FilterDescriptor {
        FilterDescriptor(name, doc, [FilterParameter(key, .amount(range), pdoc)]) { a throws(MovieMakerError) in
            .color(make(try a.amount(key, default: def)))
        }
    }
    private static let amountParameter = FilterParameter("amount", .amount(mixRange), "How much: 0 unchanged, 1 fully (default 1).")
    /// How much of a filter's effect is mixed with the original: 0 unchanged, 1 fully.
    static let mixRange: ClosedRange<Double> = 0...1

    static let descriptors: [FilterDescriptor] = [
        one("grayscale", "Shades of grey by luma (BT.709 weights); amount mixes with the original.", "amount", mixRange, 1,
            "How grey: 0 unchanged, 1 fully grey (default 1).") { .grayscale(amount: $0) },
        one("brightness", "FFmpeg eq's brightness: added to BT.601 limited-range luma (×256).", "amount", -1...1, 0,
            "The brightness change, −1…1 (0 unchanged).") { .brightness($0) },
        one("contrast", "FFmpeg eq's contrast: luma scaled around mid-grey.", "amount", -1000...1000, 1,
            "The contrast, 1 unchanged, 0 flat grey, negative inverts.") { .contrast($0) },
        one("saturation", "FFmpeg eq's saturation: chroma scaled.", "amount", 0...3, 1,
            "The saturation, 1 unchanged, 0 grey, up to 3.") { .saturation($0) },
        one("gamma", "FFmpeg eq's gamma: luma raised to 1/gamma.", "amount", 0.1...10, 1,
            "The gamma, 1 unchanged; above 1 brightens the mid-tones.") { .gamma($0) },
        one("hue", "FFmpeg hue's h: chroma rotated by an angle.", "degrees", -360...360, 0,
            "The rotation in degrees.") { .hue(degrees: $0) },
        FilterDescriptor("temperature", "FFmpeg colortemperature: channels multiplied by a black body's colour.", [
            FilterParameter("kelvin", .amount(1000...40000), "The colour temperature in kelvin (default 6500; lower is warmer)."),
            amountParameter,
        ]) { a throws(MovieMakerError) in .color(.temperature(kelvin: try a.amount("kelvin", default: 6500), amount: try a.amount("amount", default: 1))) },
        one("tint", "Green–magenta balance (colorchannelmixer gg = 1 − 0.3 × tint).", "amount", -1...1, 0,
            "−1 greener … 1 more magenta (0 unchanged).") { .tint($0) },
        one("exposure", "FFmpeg exposure: every channel × 2^stops.", "stops", -3...3, 0,
            "The exposure change in stops.") { .exposure(stops: $0) },
        one("vibrance", "FFmpeg vibrance: dull colours saturated more than vivid ones.", "amount", -2...2, 0,
            "The intensity, −2…2 (0 unchanged).") { .vibrance($0) },
        one("sepia", "Sepia tone (colorchannelmixer's sepia matrix).", "amount", mixRange, 1,
            "How much: 0 unchanged, 1 fully sepia (default 1).") { .sepia(amount: $0) },
        one("invert", "The negative (FFmpeg negate).", "amount", mixRange, 1,
            "How much: 0 unchanged, 1 fully inverted (default 1).") { .invert(amount: $0) },
        FilterDescriptor("colorize", "Tint with a colour: the picture's luma with the colour's chroma (FFmpeg colorize).", [
            FilterParameter("color", .color, required: true, "The colour to tint with, such as \"#ff8800\" or \"orange\"."),
            amountParameter,
        ]) { a throws(MovieMakerError) in .color(.colorize(try a.color("color", default: .white), amount: try a.amount("amount", default: 1))) },
        FilterDescriptor("channelMixer", "Each channel a weighted sum of the channels (FFmpeg colorchannelmixer).",
                         ChannelMatrix.keys.map { FilterParameter($0, .number(-2...2), "Weight of input \($0.last!) in output \($0.first!) (default \($0.first == $0.last ? 1 : 0)).") }
                         + [amountParameter]) { a throws(MovieMakerError) in
            var w: [Double] = []
            for k in ChannelMatrix.keys { w.append(try a.number(k, default: k.first == k.last ? 1 : 0)) }
            let m = ChannelMatrix(rr: w[0], rg: w[1], rb: w[2], gr: w[3], gg: w[4], gb: w[5], br: w[6], bg: w[7], bb: w[8])
            return .color(.channelMixer(m, amount: try a.amount("amount", default: 1)))
        },
        FilterDescriptor("curves", "Tone curves through points, per channel and master (FFmpeg curves).", [
            FilterParameter("master", .points, "The curve for all channels, applied after each channel's."),
            FilterParameter("red", .points, "The red curve."),
            FilterParameter("green", .points, "The green curve."),
            FilterParameter("blue", .points, "The blue curve."),
            amountParameter,
        ]) { a throws(MovieMakerError) in
            .color(.curves(CurveSet(master: try a.points("master"), red: try a.points("red"), green: try a.points("green"), blue: try a.points("blue")),
                           amount: try a.amount("amount", default: 1)))
        },
        FilterDescriptor("lut", "A 3D LUT from a .cube file (FFmpeg lut3d).", [
            FilterParameter("file", .file, required: true, "The .cube file (Adobe/Resolve format), relative to the description file."),
            FilterParameter("interpolation", .choice(LUTInterpolation.allCases.map(\.rawValue)), "How colours between grid points are read (default tetrahedral)."),
            amountParameter,
        ]) { a throws(MovieMakerError) in
            let url = try a.file("file")!
            let lut: CubeLUT
            do throws(MovieMakerError) { lut = try CubeLUT(contentsOf: url) } catch { throw error.located(jsonPath: a.path.appending("file").description) }
            let interpolation = LUTInterpolation(rawValue: try a.choice("interpolation", default: "tetrahedral"))!
            return .color(.lut(lut, interpolation: interpolation, amount: try a.amount("amount", default: 1)))
        },
        FilterDescriptor("look", "A named look (a combination of colour filters baked into a 3D LUT).", [
            FilterParameter("look", .choice(Look.allCases.map(\.rawValue)), required: true, "The look."),
            amountParameter,
        ]) { a throws(MovieMakerError) in
            .color(.look(Look(rawValue: try a.choice("look", default: "vivid"))!, amount: try a.amount("amount", default: 1)))
        },
    ]

    /// The filter as a description file writes it.
    var spec: FilterSpec {
        let A = FilterJSON.amount
        switch self {
        case let .grayscale(a): return FilterSpec(name: "grayscale", parameters: ["amount": A(a)])
        case let .brightness(a): return FilterSpec(name: "brightness", parameters: ["amount": A(a)])
        case let .contrast(a): return FilterSpec(name: "contrast", parameters: ["amount": A(a)])
        case let .saturation(a): return FilterSpec(name: "saturation", parameters: ["amount": A(a)])
        case let .gamma(a): return FilterSpec(name: "gamma", parameters: ["amount": A(a)])
        case let .hue(d): return FilterSpec(name: "hue", parameters: ["degrees": A(d)])
        case let .temperature(k, a): return FilterSpec(name: "temperature", parameters: ["kelvin": A(k), "amount": A(a)])
        case let .tint(a): return FilterSpec(name: "tint", parameters: ["amount": A(a)])
        case let .exposure(s): return FilterSpec(name: "exposure", parameters: ["stops": A(s)])
        case let .vibrance(a): return FilterSpec(name: "vibrance", parameters: ["amount": A(a)])
        case let .sepia(a): return FilterSpec(name: "sepia", parameters: ["amount": A(a)])
        case let .invert(a): return FilterSpec(name: "invert", parameters: ["amount": A(a)])
        case let .colorize(c, a): return FilterSpec(name: "colorize", parameters: ["color": FilterJSON.color(c), "amount": A(a)])
        case let .channelMixer(m, a):
            var p: [String: JSONValue] = ["amount": A(a)]
            for (k, w) in zip(ChannelMatrix.keys, m.weights) { p[k] = FilterJSON.number(w) }
            return FilterSpec(name: "channelMixer", parameters: p)
        case let .curves(c, a):
            var p: [String: JSONValue] = ["amount": A(a)]
            for (k, v) in [("master", c.master), ("red", c.red), ("green", c.green), ("blue", c.blue)] { if let v { p[k] = FilterJSON.points(v) } }
            return FilterSpec(name: "curves", parameters: p)
        case let .lut(l, i, a):
            return FilterSpec(name: "lut", parameters: ["file": .string(l.file?.path ?? l.title ?? "lut.cube"), "interpolation": .string(i.rawValue), "amount": A(a)])
        case let .look(l, a): return FilterSpec(name: "look", parameters: ["look": .string(l.rawValue), "amount": A(a)])
        }
    }

    /// The range the descriptor of filter `name` gives its parameter `key`: what a description may
    /// say, and what a value made in code is clamped to when the filter is applied.
    static func range(_ name: String, _ key: String) -> ClosedRange<Double> {
        guard let range = ranges[name]?[key] else { preconditionFailure("no numeric parameter \(key) in the \(name) filter's descriptor") }
        return range
    }

    /// Every colour filter's numeric parameter ranges, from the descriptors (read once).
    private static let ranges: [String: [String: ClosedRange<Double>]] = {
        var table: [String: [String: ClosedRange<Double>]] = [:]
        for descriptor in descriptors {
            for parameter in descriptor.parameters {
                switch parameter.kind {
                case let .amount(range), let .number(range): table[descriptor.name, default: [:]][parameter.key] = range
                default: break
                }
            }
        }
        return table
    }()

    /// Applies the filter to `image` in place.
    func apply(to image: FilterImage, at time: FilterTime) throws(MovieMakerError) {
        let t = time.seconds
        /// `a` at this time, within the range the descriptor gives `key` of `filter`.
        func clamped(_ a: FilterAmount, _ filter: String, _ key: String = "amount") -> Double {
            let range = Self.range(filter, key)
            return min(max(a.value(at: t), range.lowerBound), range.upperBound)
        }
        /// A mix with the original, within the shared `amount` parameter's range.
        func unit(_ a: FilterAmount) -> Double { min(max(a.value(at: t), Self.mixRange.lowerBound), Self.mixRange.upperBound) }
        switch self {
        case let .grayscale(a):
            let k = unit(a); guard k > 0 else { return }
            ChannelMatrix.luma709.matrix.mixed(Float(k)).apply(to: image)
        case let .brightness(a):
            let v = a.value(at: t); guard v != 0 else { return }
            YUVOperation.eq(brightness: v).apply(to: image)
        case let .contrast(a):
            let v = a.value(at: t); guard v != 1 else { return }
            YUVOperation.eq(contrast: v).apply(to: image)
        case let .saturation(a):
            let v = a.value(at: t); guard v != 1 else { return }
            YUVOperation.eq(saturation: v).apply(to: image)
        case let .gamma(a):
            let v = a.value(at: t); guard v != 1 else { return }
            YUVOperation.eq(gamma: v).apply(to: image)
        case let .hue(d):
            let v = d.value(at: t); guard v.truncatingRemainder(dividingBy: 360) != 0 else { return }
            YUVOperation.hue(degrees: v).apply(to: image)
        case let .temperature(kelvin, a):
            let k = unit(a); guard k > 0 else { return }
            let c = Self.kelvinToRGB(Float(clamped(kelvin, "temperature", "kelvin")))
            ColorMatrix(m: [c.0, 0, 0, 0, c.1, 0, 0, 0, c.2], offset: [0, 0, 0]).mixed(Float(k)).apply(to: image)
        case let .tint(a):
            let v = clamped(a, "tint"); guard v != 0 else { return }
            ChannelMatrix(gg: 1 - 0.3 * v).matrix.apply(to: image)
        case let .exposure(s):
            let v = clamped(s, "exposure", "stops"); guard v != 0 else { return }
            let scale = 1 / exp2(-v)
            ChannelTables { $0 * scale }.apply(to: image)
        case let .vibrance(a):
            let v = Float(clamped(a, "vibrance")); guard v != 0 else { return }
            Self.vibrance(v, image)
        case let .sepia(a):
            let k = unit(a); guard k > 0 else { return }
            ChannelMatrix.sepia.matrix.mixed(Float(k)).apply(to: image)
        case let .invert(a):
            let k = unit(a); guard k > 0 else { return }
            ChannelTables { 255 - $0 }.mixed(k).apply(to: image)
        case let .colorize(c, a):
            let k = unit(a); guard k > 0 else { return }
            YUVOperation.colorize(c, mix: Float(k)).apply(to: image)
        case let .channelMixer(m, a):
            let k = unit(a); guard k > 0 else { return }
            m.matrix.mixed(Float(k)).apply(to: image)
        case let .curves(c, a):
            let k = unit(a); guard k > 0 else { return }
            c.tables.mixed(k).apply(to: image)
        case let .lut(l, i, a):
            let k = unit(a); guard k > 0 else { return }
            l.apply(to: image, interpolation: i, amount: Float(k))
        case let .look(l, a):
            let k = unit(a); guard k > 0 else { return }
            l.lut.apply(to: image, interpolation: .tetrahedral, amount: Float(k))
        }
    }

    /// FFmpeg `colortemperature`'s kelvin2rgb.
    static func kelvinToRGB(_ k: Float) -> (Float, Float, Float) {
        func sat(_ v: Float) -> Float { min(max(v, 0), 1) }
        let kelvin = k / 100
        var r: Float, g: Float, b: Float
        if kelvin <= 66 {
            r = 1; g = sat(0.39008157876901960784 * logf(kelvin) - 0.63184144378862745098)
        } else {
            let t = max(kelvin - 60, 0)
            r = sat(1.29293618606274509804 * powf(t, -0.1332047592)); g = sat(1.12989086089529411765 * powf(t, -0.0755148492))
        }
        if kelvin >= 66 { b = 1 } else if kelvin <= 19 { b = 0 } else { b = sat(0.54320678911019607843 * logf(kelvin - 10) - 1.19625408914) }
        return (r, g, b)
    }

    /// FFmpeg `vibrance` with balance 1 and its default luma weights.
    static func vibrance(_ intensity: Float, _ image: FilterImage) {
        ColorPixels.map(image, VibranceKernel(intensity: intensity, s: -(intensity > 0 ? 1 : -1)))
    }

    /// One pixel through FFmpeg `vibrance` (balance 1, default luma weights).
    struct VibranceKernel: ColorKernel {
        let intensity: Float, s: Float
        @inline(__always) func callAsFunction(_ r8: Int32, _ g8: Int32, _ b8: Int32) -> (Int32, Int32, Int32) {
            let rc: Float = 0.072186, gc: Float = 0.715158, bc: Float = 0.212656
            let r = Float(r8) / 255, g = Float(g8) / 255, b = Float(b8) / 255
            let sat = max(r, g, b) - min(r, g, b)
            let luma = g * gc + r * rc + b * bc
            let c = 1 + intensity * (1 - s * sat)
            return (ColorPixels.level((luma + (r - luma) * c) * 255), ColorPixels.level((luma + (g - luma) * c) * 255),
                    ColorPixels.level((luma + (b - luma) * c) * 255))
        }
    }
}

extension ColorFilter: Codable {
    /// Reads the description file's form, `{"name": "brightness", "amount": 0.2}` (a colour filter).
    public init(from decoder: any Decoder) throws {
        guard case let .color(f) = try Clip.Filter(from: decoder) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a spatial filter where a colour filter was expected"))
        }
        self = f
    }
    /// Writes the description file's form.
    public func encode(to encoder: any Encoder) throws { try Clip.Filter.color(self).encode(to: encoder) }
}

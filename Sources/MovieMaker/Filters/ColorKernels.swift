import Foundation

// The pixel loops colour filters compile to, once per frame (an amount is constant within a frame):
// 256-entry tables per channel, a 3×4 affine matrix, FFmpeg-style YUV plane operations, a 3D LUT, or a
// per-pixel function for the few non-linear ones. Every loop runs over row ranges on several cores,
// unpremultiplies only pixels that are partly transparent, and skips fully transparent ones.

enum ColorPixels {
    /// A level 0…255 from a Float, rounded to nearest.
    @inline(__always) static func level(_ v: Float) -> Int32 {
        v >= 254.5 ? 255 : (v <= 0 ? 0 : Int32(v + 0.5))
    }

    /// Replaces each pixel's colour by `f(r, g, b)` (unpremultiplied levels 0…255 in and out), in
    /// parallel over rows; alpha is kept.
    @inline(__always)
    static func map(_ image: FilterImage, _ f: (Int32, Int32, Int32) -> (Int32, Int32, Int32)) {
        image.forEachRowRange { rows in
            for y in rows {
                let p = image.row(y)
                for x in 0..<image.width {
                    let q = p + 4 * x
                    let a = q[3]
                    if a == 255 {
                        let (r, g, b) = f(Int32(q[2]), Int32(q[1]), Int32(q[0]))
                        q[2] = UInt8(truncatingIfNeeded: r); q[1] = UInt8(truncatingIfNeeded: g); q[0] = UInt8(truncatingIfNeeded: b)
                    } else if a != 0 {
                        let ai = Int32(a), half = ai / 2
                        let r0 = min(255, (Int32(q[2]) * 255 + half) / ai)
                        let g0 = min(255, (Int32(q[1]) * 255 + half) / ai)
                        let b0 = min(255, (Int32(q[0]) * 255 + half) / ai)
                        let (r, g, b) = f(r0, g0, b0)
                        q[2] = UInt8(truncatingIfNeeded: (r * ai + 127) / 255)
                        q[1] = UInt8(truncatingIfNeeded: (g * ai + 127) / 255)
                        q[0] = UInt8(truncatingIfNeeded: (b * ai + 127) / 255)
                    }
                }
            }
        }
    }
}

/// A 3×4 affine colour transform on levels 0…255: `out = m · (r, g, b) + offset`, rows r, g, b.
struct ColorMatrix: Equatable {
    /// Row-major 3×3 coefficients followed by nothing; `offset` holds the constants.
    var m: [Float]
    var offset: [Float]

    static let identity = ColorMatrix(m: [1, 0, 0, 0, 1, 0, 0, 0, 1], offset: [0, 0, 0])

    /// This transform mixed with the identity: `k` = 0 is the identity, 1 this.
    func mixed(_ k: Float) -> ColorMatrix {
        ColorMatrix(m: zip(m, Self.identity.m).map { i, m in m + (i - m) * k }, offset: offset.map { $0 * k })
    }

    /// `other` after `self`.
    func then(_ o: ColorMatrix) -> ColorMatrix {
        var r = [Float](repeating: 0, count: 9), off = [Float](repeating: 0, count: 3)
        for i in 0..<3 {
            for j in 0..<3 { r[3 * i + j] = (0..<3).reduce(0) { $0 + o.m[3 * i + $1] * m[3 * $1 + j] } }
            off[i] = o.offset[i] + (0..<3).reduce(0) { $0 + o.m[3 * i + $1] * offset[$1] }
        }
        return ColorMatrix(m: r, offset: off)
    }

    func apply(to image: FilterImage) {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let o0 = offset[0] + 0.5, o1 = offset[1] + 0.5, o2 = offset[2] + 0.5
        ColorPixels.map(image) { r, gg, bb in
            let R = Float(r), G = Float(gg), B = Float(bb)
            let x = a * R + b * G + c * B + o0, y = d * R + e * G + f * B + o1, z = g * R + h * G + i * B + o2
            return (Int32(min(max(x, 0), 255)), Int32(min(max(y, 0), 255)), Int32(min(max(z, 0), 255)))
        }
    }
}

/// Three 256-entry tables, one per channel (r, g, b), applied to unpremultiplied levels.
struct ChannelTables {
    var r: [UInt8], g: [UInt8], b: [UInt8]

    /// The same table for every channel.
    init(all t: [UInt8]) { r = t; g = t; b = t }
    init(r: [UInt8], g: [UInt8], b: [UInt8]) { self.r = r; self.g = g; self.b = b }
    /// Tables from a function of the level (0…255 → any real, rounded and clamped).
    init(_ f: (Double) -> Double) { self.init(all: (0..<256).map { UInt8(ColorPixels.level(Float(f(Double($0))))) }) }

    /// These tables mixed with the identity by `k`.
    func mixed(_ k: Double) -> ChannelTables {
        func mix(_ t: [UInt8]) -> [UInt8] { (0..<256).map { UInt8(ColorPixels.level(Float(Double($0) + (Double(t[$0]) - Double($0)) * k))) } }
        return k >= 1 ? self : ChannelTables(r: mix(r), g: mix(g), b: mix(b))
    }

    func apply(to image: FilterImage) {
        r.withUnsafeBufferPointer { tr in g.withUnsafeBufferPointer { tg in b.withUnsafeBufferPointer { tb in
            ColorPixels.map(image) { r, g, b in (Int32(tr[Int(r)]), Int32(tg[Int(g)]), Int32(tb[Int(b)])) }
        } } }
    }
}

/// A change made the way FFmpeg's YUV filters (`eq`, `hue`, `colorize`) make it on an RGB picture:
/// FFmpeg converts RGB to 8-bit BT.601 limited-range Y′CbCr (`yuva444p`), the filter changes the planes,
/// and FFmpeg converts back. This does the same per pixel: Y through a table, (U, V) through tables, a
/// rotation or a constant; the result is mixed with the original by `mix`.
struct YUVOperation {
    enum Chroma {
        /// U and V through their own tables.
        case tables([Int32], [Int32])
        /// `hue`'s rotation in 16-bit fixed point: (c·u − s·v, s·u + c·v) around 128.
        case rotation(cos: Int32, sin: Int32)
        /// Both replaced by constants (`colorize`).
        case constant(Int32, Int32)
    }
    var y: [Int32]
    var chroma: Chroma
    var mix: Float = 1

    static let identityTable = (0..<256).map { Int32($0) }

    func apply(to image: FilterImage) {
        let k = min(max(mix, 0), 1)
        y.withUnsafeBufferPointer { ty in
            let (tu, tv): ([Int32], [Int32]) = { if case let .tables(u, v) = chroma { return (u, v) } else { return ([], []) } }()
            tu.withUnsafeBufferPointer { tu in tv.withUnsafeBufferPointer { tv in
                ColorPixels.map(image) { r, g, b in
                    let R = Float(r), G = Float(g), B = Float(b)
                    let Y = Int32(16.5 + (65.481 * R + 128.553 * G + 24.966 * B) / 255)
                    let U = Int32(128.5 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255)
                    let V = Int32(128.5 + (112.0 * R - 93.786 * G - 18.214 * B) / 255)
                    let y2 = ty[Int(Y)]
                    var u2: Int32, v2: Int32
                    switch chroma {
                    case .tables: u2 = tu[Int(U)]; v2 = tv[Int(V)]
                    case let .rotation(c, s):
                        let u = U - 128, v = V - 128
                        u2 = min(max((c * u - s * v + (1 << 15) + (128 << 16)) >> 16, 0), 255)
                        v2 = min(max((s * u + c * v + (1 << 15) + (128 << 16)) >> 16, 0), 255)
                    case let .constant(u, v): u2 = u; v2 = v
                    }
                    let l = 1.164383 * Float(y2 - 16), cu = Float(u2 - 128), cv = Float(v2 - 128)
                    var nr = l + 1.596027 * cv, ng = l - 0.391762 * cu - 0.812968 * cv, nb = l + 2.017232 * cu
                    if k < 1 { nr = R + (nr - R) * k; ng = G + (ng - G) * k; nb = B + (nb - B) * k }
                    return (ColorPixels.level(nr), ColorPixels.level(ng), ColorPixels.level(nb))
                }
            } }
        }
    }

    /// FFmpeg `eq`'s three plane operations for `brightness`, `contrast`, `saturation`, `gamma`, as its
    /// C code computes them (the integer path when gamma is 1 and |contrast| < 7.9, else the table).
    static func eq(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1, gamma: Double = 1) -> YUVOperation {
        func plane(contrast: Double, brightness: Double, gamma: Double) -> [Int32] {
            if contrast == 1, brightness == 0, gamma == 1 { return identityTable }
            if gamma == 1, abs(contrast) < 7.9 {
                let c = Int(contrast * 256 * 16)
                let b = (Int(100 * brightness + 100) * 511) / 200 - 128 - c / 32
                return (0..<256).map { Int32(min(max((($0 * c) >> 12) + b, 0), 255)) }
            }
            return (0..<256).map { i in
                var v = contrast * (Double(i) / 255 - 0.5) + 0.5 + brightness
                if v <= 0 { return 0 }
                v = pow(v, 1 / gamma)
                return v >= 1 ? 255 : Int32(256 * v)
            }
        }
        // eq keeps its parameters as floats (av_clipf): −0.2 becomes −0.2000000030, and
        // Int(100 × b + 100) is then 79 where the double −0.2 would give 80.
        func f(_ v: Double) -> Double { Double(Float(v)) }
        let b = f(min(max(brightness, -1), 1)), c = f(min(max(contrast, -1000), 1000))
        let s = f(min(max(saturation, 0), 3)), g = f(min(max(gamma, 0.1), 10))
        let uv = plane(contrast: s, brightness: 0, gamma: 1)
        return YUVOperation(y: plane(contrast: c, brightness: b, gamma: g), chroma: .tables(uv, uv))
    }

    /// FFmpeg `hue=h=degrees` (saturation 1, brightness 0): a rotation of (U, V).
    static func hue(degrees: Double) -> YUVOperation {
        let h = degrees * .pi / 180
        return YUVOperation(y: identityTable, chroma: .rotation(cos: Int32(lrint(cos(h) * 65536)), sin: Int32(lrint(sin(h) * 65536))))
    }

    /// FFmpeg `colorize` with the hue, saturation and lightness of `color` and `mix=1` (the picture's own
    /// luma): U and V become the colour's (computed as `colorize` does, with BT.709 weights).
    static func colorize(_ color: Color, mix: Float) -> YUVOperation {
        let r = Float(min(max(color.red, 0), 1)), g = Float(min(max(color.green, 0), 1)), b = Float(min(max(color.blue, 0), 1))
        // colorize goes colour → HSL (its parameters) → RGB → YUV; the round trip through HSL is exact.
        let u = Int32((-(0.11457 * 224.0 / 255.0) * r - (0.38543 * 224.0 / 255.0) * g + (0.50000 * 224.0 / 255.0) * b + 0.5) * 255)
        let v = Int32(((0.50000 * 224.0 / 255.0) * r - (0.45415 * 224.0 / 255.0) * g - (0.04585 * 224.0 / 255.0) * b + 0.5) * 255)
        return YUVOperation(y: identityTable, chroma: .constant(u, v), mix: mix)
    }
}

import Foundation

// The pixel loops colour filters compile to, once per frame (an amount is constant within a frame):
// 256-entry tables per channel, a 3×4 affine matrix, FFmpeg-style YUV plane operations, a 3D LUT, or a
// per-pixel function for the few non-linear ones. Each is a `ColorKernel` value holding everything
// precomputed for the frame (tables as unsafe buffers, coefficients as scalars); `ColorPixels.map`
// is generic over it, so the compiler specialises one loop per kind with the per-pixel maths inlined.
// Every loop runs over row ranges on several cores, unpremultiplies only pixels that are partly
// transparent, and skips fully transparent ones.

/// A colour change of one pixel: unpremultiplied levels 0…255 in, levels 0…255 out (alpha is kept).
protocol ColorKernel {
    func callAsFunction(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32)
    /// The same change on a colour packed as 0x00RRGGBB, giving 0x00RRGGBB (what opaque pixels go
    /// through; by default unpacked, `callAsFunction`, packed again).
    func packed(_ rgb: UInt32) -> UInt32
}

extension ColorKernel {
    @inline(__always) func packed(_ rgb: UInt32) -> UInt32 {
        let (r, g, b) = self(Int32(rgb >> 16 & 255), Int32(rgb >> 8 & 255), Int32(rgb & 255))
        return UInt32(truncatingIfNeeded: r) << 16 | UInt32(truncatingIfNeeded: g) << 8 | UInt32(truncatingIfNeeded: b)
    }
}

enum ColorPixels {
    /// A level 0…255 from a Float, rounded to nearest.
    @inline(__always) static func level(_ v: Float) -> Int32 {
        v >= 254.5 ? 255 : (v <= 0 ? 0 : Int32(v + 0.5))
    }

    /// Replaces each pixel's colour by `kernel(r, g, b)`, in place, in parallel over rows; alpha is kept.
    /// Opaque pixels go straight to the kernel (packed); partly transparent ones are unpremultiplied first
    /// and premultiplied after; transparent ones are skipped.
    static func map<K: ColorKernel>(_ image: FilterImage, _ kernel: K) {
        image.forEachRowRange { rows in
            let width = image.width
            for y in rows {
                let f = kernel
                // Cairo's ARGB32: one native-endian 32-bit word per pixel, A R G B from the top byte.
                let p = UnsafeMutableRawPointer(image.row(y))
                // A row of opaque pixels (the usual case) in a loop without the alpha tests.
                var all: UInt32 = 0xFFFF_FFFF
                for x in 0..<width { all &= p.load(fromByteOffset: 4 &* x, as: UInt32.self) }
                if all >= 0xFF00_0000 {
                    var x = 0
                    while x < width {
                        let px = p.load(fromByteOffset: 4 &* x, as: UInt32.self)
                        p.storeBytes(of: 0xFF00_0000 | f.packed(px & 0x00FF_FFFF), toByteOffset: 4 &* x, as: UInt32.self)
                        x &+= 1
                    }
                    continue
                }
                var x = 0
                while x < width {
                    let px = p.load(fromByteOffset: 4 &* x, as: UInt32.self)
                    if px >= 0xFF00_0000 {
                        p.storeBytes(of: 0xFF00_0000 | f.packed(px & 0x00FF_FFFF), toByteOffset: 4 &* x, as: UInt32.self)
                    } else if px > 0x00FF_FFFF {
                        let ai = Int32(px >> 24), half = ai / 2
                        let r0 = min(255, (Int32(px >> 16 & 255) &* 255 &+ half) / ai)
                        let g0 = min(255, (Int32(px >> 8 & 255) &* 255 &+ half) / ai)
                        let b0 = min(255, (Int32(px & 255) &* 255 &+ half) / ai)
                        let (r, g, b) = f(r0, g0, b0)
                        let r1 = UInt32(truncatingIfNeeded: (r &* ai &+ 127) / 255), g1 = UInt32(truncatingIfNeeded: (g &* ai &+ 127) / 255)
                        let b1 = UInt32(truncatingIfNeeded: (b &* ai &+ 127) / 255)
                        p.storeBytes(of: px & 0xFF00_0000 | r1 << 16 | g1 << 8 | b1, toByteOffset: 4 &* x, as: UInt32.self)
                    }
                    x &+= 1
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

    /// The matrix's nine coefficients and three offsets; each output level rounded to nearest and
    /// clamped to 0…255.
    ///
    /// Written so the compiler vectorises the opaque-pixel loop on the x86-64 baseline (SSE2): Float
    /// multiplies and adds, clamps with `min`/`max`, and rounding by adding 1.5 × 2²³ and reading the
    /// low bits (a float-to-integer conversion checks its range one lane at a time, and SSE2 has no
    /// 32-bit integer vector multiply): about three times faster than either scalar form (docs/BENCHMARKS.md,
    /// filters line). An exact half rounds to even, where `(x + 0.5)` truncated rounded it up: a level differs
    /// only at such ties.
    struct Kernel: ColorKernel {
        let a: Float, b: Float, c: Float, d: Float, e: Float, f: Float, g: Float, h: Float, i: Float, o0: Float, o1: Float, o2: Float
        /// 1.5 × 2²³: a Float in [0, 255] plus this has the nearest whole number in its low mantissa bits.
        static let roundingMagic: Float = 12_582_912

        init(_ matrix: ColorMatrix) {
            let m = matrix.m
            a = m[0]; b = m[1]; c = m[2]; d = m[3]; e = m[4]; f = m[5]; g = m[6]; h = m[7]; i = m[8]
            o0 = matrix.offset[0]; o1 = matrix.offset[1]; o2 = matrix.offset[2]
        }

        /// The three output levels of levels (r, g, b), each in the low 8 bits of a word.
        @inline(__always) func levels(_ R: Float, _ G: Float, _ B: Float) -> (UInt32, UInt32, UInt32) {
            let x = min(max(a * R + b * G + c * B + o0, 0), 255)
            let y = min(max(d * R + e * G + f * B + o1, 0), 255)
            let z = min(max(g * R + h * G + i * B + o2, 0), 255)
            return ((x + Self.roundingMagic).bitPattern & 255, (y + Self.roundingMagic).bitPattern & 255, (z + Self.roundingMagic).bitPattern & 255)
        }
        @inline(__always) func callAsFunction(_ r: Int32, _ gg: Int32, _ bb: Int32) -> (Int32, Int32, Int32) {
            let (x, y, z) = levels(Float(r), Float(gg), Float(bb))
            return (Int32(bitPattern: x), Int32(bitPattern: y), Int32(bitPattern: z))
        }
        @inline(__always) func packed(_ rgb: UInt32) -> UInt32 {
            let (x, y, z) = levels(Float(rgb >> 16 & 255), Float(rgb >> 8 & 255), Float(rgb & 255))
            return x << 16 | y << 8 | z
        }
    }

    func apply(to image: FilterImage) {
        ColorPixels.map(image, Kernel(self))
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

    /// The three tables as 256 entries each of one buffer (r, then g, then b).
    struct Kernel: ColorKernel {
        let t: UnsafePointer<UInt8>
        @inline(__always) func callAsFunction(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
            (Int32(t[Int(r)]), Int32(t[256 + Int(g)]), Int32(t[512 + Int(b)]))
        }
    }

    func apply(to image: FilterImage) {
        (r + g + b).withUnsafeBufferPointer { ColorPixels.map(image, Kernel(t: $0.baseAddress!)) }
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

    /// Per input level: the terms of Y′, Cb, Cr before the division by 255 (four Floats: y, u, v, unused), for
    /// red, green and blue; Float products exactly as the per-pixel formula computes them.
    static let toYUV: [Float] = Array([(0..<256).map { (v: Int) -> [Float] in
        let R = Float(v); return [65.481 * R, -37.797 * R, 112.0 * R, 0]
    }, (0..<256).map { (v: Int) -> [Float] in
        let G = Float(v); return [128.553 * G, -(74.203 * G), -(93.786 * G), 0]
    }, (0..<256).map { (v: Int) -> [Float] in
        let B = Float(v); return [24.966 * B, 112.0 * B, -(18.214 * B), 0]
    }].joined().joined())
    /// Per output level: the terms of r, g, b from Y′ (four Floats: 1.164383 × (y − 16) three times, then 0), from Cb and
    /// from Cr, summed in that order (the same sums as the per-pixel formula).
    static let toRGB: [Float] = Array([(0..<256).map { (v: Int) -> [Float] in
        let l = 1.164383 * Float(Int32(v) - 16); return [l, l, l, 0]
    }, (0..<256).map { (v: Int) -> [Float] in
        let cu = Float(Int32(v) - 128); return [0, -(0.391762 * cu), 2.017232 * cu, 0]
    }, (0..<256).map { (v: Int) -> [Float] in
        let cv = Float(Int32(v) - 128); return [1.596027 * cv, -(0.812968 * cv), 0, 0]
    }].joined().joined())

    /// What happens to (U, V).
    protocol ChromaStep { func callAsFunction(_ u: Int32, _ v: Int32) -> (Int32, Int32) }
    struct ChromaTables: ChromaStep {
        let u: UnsafePointer<Int32>, v: UnsafePointer<Int32>
        @inline(__always) func callAsFunction(_ u: Int32, _ v: Int32) -> (Int32, Int32) { (self.u[Int(u)], self.v[Int(v)]) }
    }
    struct ChromaRotation: ChromaStep {
        let c: Int32, s: Int32
        @inline(__always) func callAsFunction(_ U: Int32, _ V: Int32) -> (Int32, Int32) {
            let u = U - 128, v = V - 128
            return (min(max((c * u - s * v + (1 << 15) + (128 << 16)) >> 16, 0), 255),
                    min(max((s * u + c * v + (1 << 15) + (128 << 16)) >> 16, 0), 255))
        }
    }
    struct ChromaConstant: ChromaStep {
        let u: Int32, v: Int32
        @inline(__always) func callAsFunction(_: Int32, _: Int32) -> (Int32, Int32) { (u, v) }
    }

    /// RGB → Y′CbCr (rounded as FFmpeg's conversion does), the plane operations, back to RGB, mixed.
    struct Kernel<C: ChromaStep>: ColorKernel {
        let toYUV: UnsafePointer<Float>, toRGB: UnsafePointer<Float>, y: UnsafePointer<Int32>
        let chroma: C, mix: Float
        @inline(__always) func callAsFunction(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
            let t = toYUV, pr = 4 * Int(r), pg = 1024 + 4 * Int(g), pb = 2048 + 4 * Int(b)
            let Y = Int32(16.5 + (t[pr] + t[pg] + t[pb]) / 255)
            let U = Int32(128.5 + (t[pr + 1] + t[pg + 1] + t[pb + 1]) / 255)
            let V = Int32(128.5 + (t[pr + 2] + t[pg + 2] + t[pb + 2]) / 255)
            let y2 = y[Int(Y)], (u2, v2) = chroma(U, V)
            let q = toRGB, py = 4 * Int(y2), pu = 1024 + 4 * Int(u2), pv = 2048 + 4 * Int(v2)
            var nr = q[py] + q[pu] + q[pv], ng = q[py + 1] + q[pu + 1] + q[pv + 1], nb = q[py + 2] + q[pu + 2] + q[pv + 2]
            if mix < 1 {
                let R = Float(r), G = Float(g), B = Float(b)
                nr = R + (nr - R) * mix; ng = G + (ng - G) * mix; nb = B + (nb - B) * mix
            }
            return (ColorPixels.level(nr), ColorPixels.level(ng), ColorPixels.level(nb))
        }
    }

    func apply(to image: FilterImage) {
        let k = min(max(mix, 0), 1)
        Self.toYUV.withUnsafeBufferPointer { f in Self.toRGB.withUnsafeBufferPointer { t in y.withUnsafeBufferPointer { ty in
            func run<C: ChromaStep>(_ c: C) {
                ColorPixels.map(image, Kernel(toYUV: f.baseAddress!, toRGB: t.baseAddress!, y: ty.baseAddress!, chroma: c, mix: k))
            }
            switch chroma {
            case let .tables(u, v):
                u.withUnsafeBufferPointer { u in v.withUnsafeBufferPointer { v in run(ChromaTables(u: u.baseAddress!, v: v.baseAddress!)) } }
            case let .rotation(c, s): run(ChromaRotation(c: c, s: s))
            case let .constant(u, v): run(ChromaConstant(u: min(max(u, 0), 255), v: min(max(v, 0), 255)))
            }
        } } }
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

import Foundation

/// The pixel loops of the spatial filters, on premultiplied BGRA bytes in place (see `SpatialFilter`
/// for what each computes and how it relates to FFmpeg). Rows are split over the cores with
/// `FilterImage.forEachRowRange`; per-pixel work is SIMD-friendly (four channels as one vector).
enum SpatialKernels {
    // MARK: Pixels as vectors

    /// The four bytes at `p` as floats (2²³ + byte as bits, minus 2²³: no conversion call).
    @inline(__always) static func load(_ p: UnsafeMutablePointer<UInt8>) -> SIMD4<Float> {
        let bytes = SIMD4<UInt32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self))
        return unsafeBitCast(bytes | SIMD4(repeating: 0x4B00_0000), to: SIMD4<Float>.self) - SIMD4(repeating: 8_388_608)
    }
    /// Stores `v` (already within 0…255) rounded to the nearest integer (ties to even), without a
    /// float-to-integer conversion: adding 1.5 × 2²³ leaves the integer in the low mantissa bits (the
    /// generic SIMD conversion is a per-lane library call, many times slower).
    @inline(__always) static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        let bits = unsafeBitCast(v + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self)
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: bits), as: SIMD4<UInt8>.self)
    }
    /// `v` clamped lane by lane to `low`…`high` (scalar min/max: the generic SIMD ones are not inlined).
    @inline(__always) static func clamp(_ v: SIMD4<Float>, _ low: SIMD4<Float>, _ high: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(min(max(v[0], low[0]), high[0]), min(max(v[1], low[1]), high[1]),
              min(max(v[2], low[2]), high[2]), min(max(v[3], low[3]), high[3]))
    }

    // MARK: Blur

    /// `image` with its edge pixels repeated `blur.extent` times on each side, blurred: a frame's edge
    /// blurs with what is beside it, not with the nothing beyond it (which darkened the edges), as
    /// FFmpeg's `gblur` does. The caller reads rows from `blur.extent` on and deallocates it.
    static func blurredWithEdgesRepeated(_ image: FilterImage, _ blur: GaussianBlur) -> UnsafeMutablePointer<UInt8> {
        let w = image.width, h = image.height
        let e = blur.extent, pw = w + 2 * e, ph = h + 2 * e, ps = pw * 4
        let padded = UnsafeMutablePointer<UInt8>.allocate(capacity: ps * ph)
        FilterImage.inParallel(count: ph, work: pw * ph) { rows in
            for py in rows {
                let src = image.row(min(max(py - e, 0), h - 1)), dst = padded + py * ps
                for x in 0..<e { (dst + 4 * x).update(from: src, count: 4) }
                (dst + 4 * e).update(from: src, count: 4 * w)
                let last = src + 4 * (w - 1)
                for x in 0..<e { (dst + 4 * (e + w + x)).update(from: last, count: 4) }
            }
        }
        blur.apply(to: padded, width: pw, height: ph, stride: ps, channels: 4)
        return padded
    }

    /// Blurs `image` by `radius`, its edges repeated beyond the frame (`blurredWithEdgesRepeated`).
    static func blur(_ image: FilterImage, radius: Double) {
        let blur = GaussianBlur(radius: radius)
        let w = image.width, h = image.height
        guard !blur.isIdentity, w > 0, h > 0 else { return }
        let e = blur.extent, ps = (w + 2 * e) * 4
        let padded = blurredWithEdgesRepeated(image, blur)
        defer { padded.deallocate() }
        image.forEachRowRange { rows in
            for y in rows { image.row(y).update(from: padded + (y + e) * ps + 4 * e, count: 4 * w) }
        }
    }

    // MARK: Sharpen

    /// `out = in + amount × (in − blur(in))` on unpremultiplied colour, the frame's edges repeated for
    /// the blur; alpha kept as it is.
    static func sharpen(_ image: FilterImage, amount k: Float, radius: Double) {
        let blur = GaussianBlur(radius: radius)
        let w = image.width, h = image.height
        guard k != 0, !blur.isIdentity, w > 0, h > 0 else { return }
        let e = blur.extent, ps = (w + 2 * e) * 4
        let padded = blurredWithEdgesRepeated(image, blur)
        defer { padded.deallocate() }
        let kv = SIMD4<Float>(repeating: k)
        image.forEachRowRange { rows in
            for y in rows {
                let q = image.row(y), b = padded + (y + e) * ps + 4 * e
                for x in 0..<w {
                    let s = load(q + 4 * x)
                    let a = s[3]
                    if a == 255, load(b + 4 * x)[3] == 255 {
                        // Opaque here and all around: the plain unsharp mask.
                        let r = s + (s - load(b + 4 * x)) * kv
                        store(clamp(r, .zero, SIMD4(repeating: 255)), q + 4 * x)
                        continue
                    }
                    // By a transparent edge the premultiplied blur is darker than the picture: the detail is
                    // taken on unpremultiplied colour (the blur divided by its own alpha), and alpha is kept,
                    // so a flat picture over transparency stays flat (it gained a bright rim).
                    guard a > 0 else { continue }
                    let bl = load(b + 4 * x)
                    let u = s * (255 / a), ub = bl * (255 / max(bl[3], 1e-3))
                    var r = clamp(u + (u - ub) * kv, .zero, SIMD4(repeating: 255)) * (a / 255)
                    r[3] = a
                    store(r, q + 4 * x)
                }
            }
        }
    }

    // MARK: Vignette

    /// Entries of the vignette table: cos⁴(angle × √s) for s = i / steps, i = 0…steps (s is the squared
    /// distance over the squared radius, so a pixel needs no square root).
    static let vignetteSteps = 16_384

    /// Natural vignette tables by angle: a few kept (frames are drawn concurrently and a constant
    /// angle is the common case; a keyframed one makes a new table per frame, 16 K cosines).
    final class VignetteTables: @unchecked Sendable {
        // @unchecked: `entries` is only touched under `lock`; the tables are immutable arrays.
        static let shared = VignetteTables()
        static let capacity = 8
        private let lock = NSLock()
        private var entries: [(angle: Double, table: [Float])] = []

        func table(angle: Double) -> [Float] {
            if let hit = lock.withLock({ entries.first { $0.angle == angle }?.table }) { return hit }
            let n = SpatialKernels.vignetteSteps
            let table = (0...n).map { i -> Float in
                let c = cos(angle * (Double(i) / Double(n)).squareRoot())
                return Float((c * c) * (c * c))
            }
            lock.withLock {
                entries.removeAll { $0.angle == angle }
                entries.append((angle, table))
                if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
            }
            return table
        }
    }

    /// Per-pixel vignette factors for a frame size, angle, radius and amount, in 15-bit fixed point
    /// (32 768 = keep all): a few kept (a constant vignette is the common case, so a frame costs one
    /// table lookup and a multiply per pixel; a keyframed one makes a new table per frame).
    final class VignetteFactors: @unchecked Sendable {
        // @unchecked: `entries` is only touched under `lock`; the tables are immutable once made.
        struct Key: Equatable { let width: Int, height: Int, angle: Double, radius: Double, amount: Float }
        final class Table: @unchecked Sendable {
            let factors: UnsafeMutablePointer<UInt16>
            init(count: Int) { factors = .allocate(capacity: count) }
            deinit { factors.deallocate() }
        }
        static let shared = VignetteFactors()
        static let capacity = 4
        private let lock = NSLock()
        private var entries: [(key: Key, table: Table)] = []

        func table(_ key: Key) -> Table {
            if let hit = lock.withLock({ entries.first { $0.key == key }?.table }) { return hit }
            let w = key.width, h = key.height, n = SpatialKernels.vignetteSteps
            let gain = VignetteTables.shared.table(angle: key.angle).map { UInt16((1 - key.amount * (1 - $0)) * 32_768 + 0.5) }
            let cx = Double(w) / 2, cy = Double(h) / 2
            let reach = (cx * cx + cy * cy) * key.radius * key.radius
            let scale = Float(Double(n) / reach), limit = Float(n)
            let dx2 = (0..<w).map { x -> Float in let d = Float(Double(x) + 0.5 - cx); return d * d * scale }
            let table = Table(count: w * h)
            gain.withUnsafeBufferPointer { g in dx2.withUnsafeBufferPointer { dx in
                FilterImage.inParallel(count: h, work: w * h) { rows in
                    for y in rows {
                        let d = Float(Double(y) + 0.5 - cy), dy2 = d * d * scale
                        let out = table.factors + y * w
                        for x in 0..<w { out[x] = g[Int(min(dx[x] + dy2, limit))] }
                    }
                }
            } }
            lock.withLock {
                entries.removeAll { $0.key == key }
                entries.append((key, table))
                if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
            }
            return table
        }
    }

    /// Colour × (1 − amount × (1 − cos⁴(angle × d / (radius × D)))) plus `color` × alpha × the rest;
    /// alpha kept.
    static func vignette(_ image: FilterImage, amount: Float, angle: Double, radius: Double, color: Color) {
        let w = image.width, h = image.height
        guard amount > 0, angle > 0, w > 0, h > 0 else { return }
        let table = VignetteFactors.shared.table(.init(width: w, height: h, angle: angle, radius: radius, amount: amount))
        let factors = table.factors
        let tint = SIMD4<Float>(Float(color.blue), Float(color.green), Float(color.red), 0)
            .clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
        if tint == .zero {
            // Towards black: whole-number arithmetic, alpha multiplied by 1 (32 768).
            // Blue and red in two 32-bit fields of one word (one multiplication for both), green alone:
            // each channel (c × k + 2¹⁴) >> 15, alpha untouched.
            image.forEachRowRange { rows in
                for y in rows {
                    let q = UnsafeMutableRawPointer(image.row(y)), f = factors + y * w
                    var x = 0
                    while x < w {
                        let px = q.load(fromByteOffset: 4 &* x, as: UInt32.self), k = UInt64(f[x])
                        let br = (UInt64(px & 0xFF) | UInt64(px & 0xFF_0000) << 16) &* k &+ 0x0000_4000_0000_4000
                        let g = (UInt64(px >> 8 & 0xFF) &* k &+ 0x4000) >> 15
                        let out = px & 0xFF00_0000 | UInt32(truncatingIfNeeded: (br >> 15) & 0xFF)
                            | UInt32(truncatingIfNeeded: (br >> 31) & 0xFF_0000) | UInt32(truncatingIfNeeded: g) << 8
                        q.storeBytes(of: out, toByteOffset: 4 &* x, as: UInt32.self)
                        x &+= 1
                    }
                }
            }
            withExtendedLifetime(table) {}
            return
        }
        image.forEachRowRange { rows in
            for y in rows {
                let q = image.row(y), fr = factors + y * w
                for x in 0..<w {
                    let f = Float(fr[x]) * (1 / 32_768)
                    let p = load(q + 4 * x)
                    store(p * SIMD4(f, f, f, 1) + tint * (p[3] * (1 - f)), q + 4 * x)
                }
            }
        }
        withExtendedLifetime(table) {}
    }

    // MARK: Grain

    /// A 32-bit integer hash with good avalanche (Chris Wellons's lowbias32).
    @inline(__always) static func mix32(_ x: UInt32) -> UInt32 {
        var h = x
        h ^= h >> 16; h &*= 0x7feb_352d
        h ^= h >> 15; h &*= 0x846c_a68b
        h ^= h >> 16
        return h
    }
    /// SplitMix64's finaliser.
    @inline(__always) static func mix64(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// The key of a frame's grain: the seed and the exact time (a reduced fraction, so equal times
    /// give equal keys whatever their timescale).
    static func grainKey(seed: Int, time: Time) -> UInt32 {
        let k = mix64(mix64(mix64(UInt64(bitPattern: Int64(seed))) ^ UInt64(bitPattern: time.value)) ^ UInt64(bitPattern: time.timescale))
        return UInt32(truncatingIfNeeded: k ^ (k >> 32))
    }

    /// The standard deviation of the sum of four uniform bytes (monochrome grain) and of two (each
    /// channel of colour grain): √(4 × (256² − 1) / 12) and √(2 × (256² − 1) / 12).
    static let sigma4: Float = 147.80_0, sigma2: Float = 104.51_0

    /// The 64 random bits of column `x` in a row: SplitMix64's finaliser over the row's key plus `x`
    /// times the golden ratio (a Weyl sequence), two multiplies.
    @inline(__always) static func grainBits(_ rowKey: UInt64, _ x: Int) -> UInt64 {
        var z = rowKey &+ UInt64(truncatingIfNeeded: x) &* 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Adds zero-mean noise of standard deviation `amount` × 64 levels, scaled by alpha and clamped to
    /// 0…alpha; the noise of pixel (x, y) is a hash of the frame's key, y and x. One 64-bit hash gives
    /// two pixels of monochrome grain (each the sum of four of its bytes) or one pixel of colour grain
    /// (each channel the sum of two bytes).
    ///
    /// A row whose pixels are all opaque (the usual case) goes in two steps: the hashes give each pixel's
    /// change of blue, green and red as 16-bit numbers in a row buffer (from a table per byte sum), then
    /// one loop adds the buffer to the row's bytes and clamps them to 0…255, which the compiler turns into
    /// vector instructions. Other rows take the general per-pixel path. Both give the same pixels.
    static func grain(_ image: FilterImage, amount: Float, seed: Int, monochrome: Bool, time: FilterTime) {
        let w = image.width
        guard amount > 0, w > 0 else { return }
        let key = UInt64(grainKey(seed: seed, time: time.exactTime))
        // Noise in levels per unit of the byte sum and per level of alpha, in 20-bit fixed point: the
        // change of a channel is (sum × alpha × kq + 2¹⁹) >> 20 (at most 510 × 255 × 1 780 < 2³¹).
        let kq = Int32((Double(amount) * 64 / Double(monochrome ? sigma4 : sigma2) / 255 * 1_048_576).rounded())
        let pairs: UInt64 = 0x00ff_00ff_00ff_00ff
        @inline(__always) func add(_ p: UnsafeMutableRawPointer, _ n: SIMD4<Int32>) {
            let c = SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self))
            let a = c[3]
            guard a != 0 else { return }
            let v = c &+ ((n &* (a &* kq) &+ 524_288) &>> 20)
            let r = SIMD4<Int32>(min(max(v[0], 0), a), min(max(v[1], 0), a), min(max(v[2], 0), a), a)
            p.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: r), as: SIMD4<UInt8>.self)
        }
        // For opaque pixels, the change (n × 255 × kq + 2¹⁹) >> 20 of a channel whose noise is n: monochrome,
        // by the sum of four bytes (n = sum − 510) as the same change in the blue, green and red lanes of a
        // word of four 16-bit numbers; colour, by the sum of two bytes (n = sum − 255) as one 16-bit number.
        @inline(__always) func change(_ n: Int32) -> UInt16 { UInt16(truncatingIfNeeded: (n &* (255 &* kq) &+ 524_288) &>> 20) }
        let tableCount = monochrome ? 1021 : 511
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: tableCount)
        defer { table.deallocate() }
        for sum in 0..<tableCount {
            if monochrome { let d = UInt64(change(Int32(sum) - 510)); table[sum] = d | d << 16 | d << 32 }
            else { table[sum] = UInt64(change(Int32(sum) - 255)) }
        }
        image.forEachRowRange { rows in
            // The row's changes, four 16-bit numbers per pixel (blue, green, red, 0: the bytes' order).
            // (Raw memory: written as words, read as 16-bit numbers.)
            let changes = UnsafeMutableRawPointer.allocate(byteCount: 8 * (w + 1), alignment: 16)
            defer { changes.deallocate() }
            for y in rows {
                let rowKey = mix64(key ^ mix64(UInt64(truncatingIfNeeded: y) &+ 0x7f4a_7c15_0000_0000))
                let q = UnsafeMutableRawPointer(image.row(y))
                var all: UInt32 = 0xFFFF_FFFF
                for x in 0..<w { all &= q.load(fromByteOffset: 4 &* x, as: UInt32.self) }
                if all >= 0xFF00_0000 {
                    if monochrome {
                        var x = 0
                        while x < w {
                            let bits = grainBits(rowKey, x >> 1)
                            // Bytes summed in pairs (four 16-bit lanes of 0…510), then the pairs of pairs.
                            let s = (bits & pairs) &+ ((bits >> 8) & pairs)
                            changes.storeBytes(of: table[Int(truncatingIfNeeded: (s & 0x3ff) &+ ((s >> 16) & 0x3ff))],
                                               toByteOffset: 8 &* x, as: UInt64.self)
                            changes.storeBytes(of: table[Int(truncatingIfNeeded: ((s >> 32) & 0x3ff) &+ (s >> 48))],
                                               toByteOffset: 8 &* x &+ 8, as: UInt64.self)
                            x &+= 2
                        }
                    } else {
                        for x in 0..<w {
                            let bits = grainBits(rowKey, x)
                            let s = (bits & pairs) &+ ((bits >> 8) & pairs)
                            let word = table[Int(truncatingIfNeeded: s & 0x3ff)] | table[Int(truncatingIfNeeded: (s >> 16) & 0x3ff)] << 16
                                | table[Int(truncatingIfNeeded: (s >> 32) & 0x3ff)] << 32
                            changes.storeBytes(of: word, toByteOffset: 8 &* x, as: UInt64.self)
                        }
                    }
                    let b = image.row(y)
                    for i in 0..<(4 * w) {
                        let v = Int16(b[i]) &+ changes.load(fromByteOffset: 2 &* i, as: Int16.self)
                        b[i] = UInt8(truncatingIfNeeded: min(max(v, 0), 255))
                    }
                } else if monochrome {
                    var x = 0
                    while x < w {
                        let bits = grainBits(rowKey, x >> 1)
                        let s = (bits & pairs) &+ ((bits >> 8) & pairs)
                        let n0 = Int32(truncatingIfNeeded: (s & 0x3ff) &+ ((s >> 16) & 0x3ff)) &- 510
                        add(q + 4 * x, SIMD4(n0, n0, n0, 0))
                        if x + 1 < w {
                            let n1 = Int32(truncatingIfNeeded: ((s >> 32) & 0x3ff) &+ (s >> 48)) &- 510
                            add(q + 4 * (x + 1), SIMD4(n1, n1, n1, 0))
                        }
                        x += 2
                    }
                } else {
                    for x in 0..<w {
                        let bits = grainBits(rowKey, x)
                        let s = (bits & pairs) &+ ((bits >> 8) & pairs)
                        let n = SIMD4<Int32>(Int32(truncatingIfNeeded: s & 0x3ff), Int32(truncatingIfNeeded: (s >> 16) & 0x3ff),
                                             Int32(truncatingIfNeeded: (s >> 32) & 0x3ff), 255) &- 255
                        add(q + 4 * x, n)
                    }
                }
            }
        }
    }

    // MARK: Pixelate

    /// Each `size` × `size` block (from the top-left corner) filled with its average, rounded.
    static func pixelate(_ image: FilterImage, size s: Int) {
        let w = image.width, h = image.height
        guard s > 1, w > 0, h > 0 else { return }
        let blockRows = (h + s - 1) / s, blocks = (w + s - 1) / s
        FilterImage.inParallel(count: blockRows, work: w * h) { range in
            var sums = [SIMD4<UInt32>](repeating: .zero, count: blocks)
            for br in range {
                let y0 = br * s, y1 = min(y0 + s, h)
                for i in 0..<blocks { sums[i] = .zero }
                for y in y0..<y1 {
                    let q = image.row(y)
                    for b in 0..<blocks {
                        var sum = SIMD4<UInt32>.zero
                        for x in (b * s)..<min(b * s + s, w) {
                            sum &+= SIMD4<UInt32>(truncatingIfNeeded: UnsafeRawPointer(q + 4 * x).loadUnaligned(as: SIMD4<UInt8>.self))
                        }
                        sums[b] &+= sum
                    }
                }
                for b in 0..<blocks {
                    let x0 = b * s, x1 = min(x0 + s, w)
                    let count = UInt32((x1 - x0) * (y1 - y0))
                    let mean = SIMD4<UInt8>(truncatingIfNeeded: (sums[b] &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count))
                    for y in y0..<y1 {
                        let q = image.row(y)
                        for x in x0..<x1 { UnsafeMutableRawPointer(q + 4 * x).storeBytes(of: mean, as: SIMD4<UInt8>.self) }
                    }
                }
            }
        }
    }

    // MARK: Chroma key

    /// A colour's chroma (U, V) by FFmpeg's `chromakey` conversion of its key colour: BT.601
    /// full-range coefficients in 10-bit fixed point, rounded as FFmpeg does.
    static func keyChroma(_ c: Color) -> (u: Int, v: Int) {
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        let r = byte(c.red), g = byte(c.green), b = byte(c.blue)
        func fix(_ x: Double) -> Int { Int((x * 1024).rounded(.toNearestOrEven)) }
        let u = ((-fix(0.16874) * r - fix(0.33126) * g + fix(0.5) * b + 511) >> 10) + 128
        let v = ((fix(0.5) * r - fix(0.41869) * g - fix(0.08131) * b + 511) >> 10) + 128
        return (u, v)
    }

    /// U and V of an unpremultiplied colour (levels 0…255): BT.601 full range, rounded to whole 8-bit
    /// steps as in a yuv444p frame (by adding and subtracting 1.5 × 2²³: ties to even, no library call).
    @inline(__always) static func chromaUV(_ r: Float, _ g: Float, _ b: Float) -> SIMD2<Float> {
        let u = (128 + (-0.16874 * r - 0.33126 * g + 0.5 * b)) + 12_582_912 - 12_582_912
        let v = (128 + (0.5 * r - 0.41869 * g - 0.08131 * b)) + 12_582_912 - 12_582_912
        return SIMD2(u, v)
    }

    /// The chroma distance of (U, V) from the key's: √((ΔU² + ΔV²) / (2 × 255²)).
    @inline(__always) static func chromaDistance(uv: SIMD2<Float>, key: SIMD2<Float>) -> Float {
        let d = uv - key
        return ((d * d).sum() / (2 * 255 * 255)).squareRoot()
    }

    /// A pixel's chroma distance from the key, by definition: `chromaUV` of its unpremultiplied colour,
    /// then `chromaDistance(uv:key:)`. The key's first pass (`chromaDistances`) gives exactly this through
    /// a table; the tests hold it to this definition.
    @inline(__always) static func chromaDistance(_ p: SIMD4<Float>, key: SIMD2<Float>) -> Float {
        let unpremultiply = 255 / p[3]
        return chromaDistance(uv: chromaUV(p[2] * unpremultiply, p[1] * unpremultiply, p[0] * unpremultiply), key: key)
    }

    /// Every pixel's chroma distance from the key, row after row into `distance` (−1 where transparent):
    /// `chromaDistance` of each pixel, exactly, with the square root and division looked up. U and V are
    /// whole numbers 0…256 once rounded, so the distance is a table of 257 × 257 entries of
    /// `chromaDistance(uv:key:)`; an opaque pixel needs no unpremultiplying (its factor is 1).
    static func chromaDistances(_ image: FilterImage, keyUV: SIMD2<Float>, into distance: UnsafeMutablePointer<Float>) {
        let w = image.width
        let side = 257
        let table = UnsafeMutablePointer<Float>.allocate(capacity: side * side)
        defer { table.deallocate() }
        for u in 0..<side {
            for v in 0..<side { table[u * side + v] = chromaDistance(uv: SIMD2(Float(u), Float(v)), key: keyUV) }
        }
        image.forEachRowRange { rows in
            for y in rows {
                let q = UnsafeRawPointer(image.row(y)), d = distance + y * w
                for x in 0..<w {
                    // Cairo's ARGB32: one native-endian word, A R G B from the top byte.
                    let px = q.load(fromByteOffset: 4 &* x, as: UInt32.self)
                    let a = px >> 24
                    if a == 0 { d[x] = -1; continue }
                    var r = Float(px >> 16 & 255), g = Float(px >> 8 & 255), b = Float(px & 255)
                    if a != 255 {
                        let unpremultiply = 255 / Float(a)
                        r *= unpremultiply; g *= unpremultiply; b *= unpremultiply
                    }
                    let uv = chromaUV(r, g, b)
                    // 0…256 for a valid premultiplied pixel; clamped for one whose colour exceeds its alpha.
                    let ui = min(max(Int(uv.x), 0), side - 1), vi = min(max(Int(uv.y), 0), side - 1)
                    d[x] = table[ui * side + vi]
                }
            }
        }
    }

    /// Alpha × clamp((mean 3 × 3 chroma distance − similarity) / blend, 0, 1), then spill removed from
    /// the key's strongest channel: `c −= spill × max(0, c − (other two) / 2)`.
    static func chromaKey(_ image: FilterImage, key: Color, similarity: Float, blend: Float, spill: Float) {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return }
        let kc = keyChroma(key), keyUV = SIMD2(Float(kc.u), Float(kc.v))
        // The key's strongest channel (in BGRA order) and the other two.
        let channels = [key.blue, key.green, key.red]
        let main = channels.indices.max { channels[$0] < channels[$1] }!
        let others = (0..<3).filter { $0 != main }
        // Pass 1: every pixel's distance (−1 where transparent: not counted in its neighbours' means).
        let distance = UnsafeMutablePointer<Float>.allocate(capacity: w * h)
        defer { distance.deallocate() }
        chromaDistances(image, keyUV: keyUV, into: distance)
        // Pass 2: the 3 × 3 mean (the frame's edge repeated), the new alpha, the spill. Rows whose window
        // holds no transparent pixel (the usual case: a keyed video is opaque) sum their nine neighbours
        // without the selects, in the same order, so the sums are the same.
        let clear = UnsafeMutablePointer<Bool>.allocate(capacity: h)
        defer { clear.deallocate() }
        image.forEachRowRange { rows in
            for y in rows {
                let d = distance + y * w
                var lowest: Float = 0
                for x in 0..<w { lowest = min(lowest, d[x]) }
                clear[y] = lowest >= 0
            }
        }
        let hard = blend <= 0.0001
        // The spill's channels as lane weights (no per-pixel array or lane indexing): the key's strongest
        // channel, and half of each of the other two. The products and sums are exact (whole levels).
        var mainLane = SIMD4<Float>.zero, otherHalf = SIMD4<Float>.zero
        mainLane[main] = 1
        for c in others { otherHalf[c] = 0.5 }
        image.forEachRowRange { rows in
            for y in rows {
                let q = image.row(y)
                let above = max(y - 1, 0), below = min(y + 1, h - 1)
                let up = distance + above * w, mid = distance + y * w, down = distance + below * w
                @inline(__always) func finish(_ x: Int, _ sum: Float) {
                    let mean = sum / 9
                    let m: Float = hard ? (mean > similarity ? 1 : 0) : min(max((mean - similarity) / blend, 0), 1)
                    var p = load(q + 4 * x)
                    if spill > 0 {
                        let excess = (p * mainLane).sum() - (p * otherHalf).sum()
                        if excess > 0 { p = p - mainLane * (spill * excess) }
                    }
                    store(p * m, q + 4 * x)
                }
                if clear[above] && clear[y] && clear[below] {
                    for x in 0..<w {
                        let xl = max(x - 1, 0), xr = min(x + 1, w - 1)
                        finish(x, up[xl] + up[x] + up[xr] + mid[xl] + mid[x] + mid[xr] + down[xl] + down[x] + down[xr])
                    }
                    continue
                }
                for x in 0..<w {
                    let centre = mid[x]
                    if centre < 0 { continue }
                    let xl = max(x - 1, 0), xr = min(x + 1, w - 1)
                    @inline(__always) func at(_ v: Float) -> Float { v < 0 ? centre : v }
                    finish(x, at(up[xl]) + at(up[x]) + at(up[xr]) + at(mid[xl]) + centre + at(mid[xr])
                        + at(down[xl]) + at(down[x]) + at(down[xr]))
                }
            }
        }
    }
}

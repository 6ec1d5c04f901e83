import Foundation

/// A Gaussian-like blur made of three box blurs in each direction, on 8-bit pixels.
///
/// `radius` is a CSS-style blur radius in pixels: the Gaussian it approximates has a standard
/// deviation σ = radius / 2 (as CSS `blur()` and `box-shadow` define it). Three passes of a box of
/// equal variance σ²/3 approximate the Gaussian closely (the central limit theorem); each box has a
/// whole-pixel core and fractionally weighted end taps, so σ changes continuously with `radius` (no
/// jumps when a blur is animated). Each pass keeps running sums, so the cost per pixel does not grow
/// with the radius. Intermediate values keep 8 extra bits of precision; only the result is rounded.
///
/// Pixels outside the buffer count as transparent (zero) at every pass, so within `extent` pixels of
/// the buffer's edges the result differs slightly from blurring an unbounded picture: callers pad the
/// buffer by `extent` pixels where content near its edge matters (the effects do). The value is immutable and every call allocates its
/// own work buffers (about 2 bytes per sample plus a few rows per worker thread), so separate
/// buffers can be blurred on separate threads at once. Large buffers are split over the processor
/// cores (rows for the horizontal passes, column strips for the vertical ones).
struct GaussianBlur: Sendable, Hashable {
    /// The largest radius accepted (σ = 250 px); larger blurs would need buffers far larger than a frame.
    static let maximumRadius = 500.0

    /// The CSS blur radius in pixels (σ × 2).
    let radius: Double
    /// The core half-width of each box pass: it averages 2 × `boxRadius` + 1 pixels…
    let boxRadius: Int
    /// …plus one pixel on each side weighted `edgeWeight` / 256.
    let edgeWeight: Int

    /// The blur for a CSS radius in pixels (σ = radius / 2); `radius` must be finite and 0 … `maximumRadius`.
    init(radius: Double) {
        precondition(radius.isFinite && radius >= 0 && radius <= Self.maximumRadius, "blur radius \(radius) out of range")
        self.radius = radius
        let sigma = radius / 2
        // Variance of one pass: t = σ²/3. A box of core radius r and end weight f has variance
        // (r(r+1)(2r+1)/3 + 2f(r+1)²) / (2r+1+2f); f = 0 gives r(r+1)/3 and f = 1 equals r+1 with f = 0.
        let t = sigma * sigma / 3
        var r = Int(((-1 + (1 + 12 * t).squareRoot()) / 2).rounded(.down))
        while Double((r + 1) * (r + 2)) / 3 <= t { r += 1 }
        while r > 0 && Double(r * (r + 1)) / 3 > t { r -= 1 }
        let a = Double(r * (r + 1) * (2 * r + 1)) / 3, b = Double(2 * r + 1)
        let f = max(0, (t * b - a) / (2 * (Double((r + 1) * (r + 1)) - t)))
        var w = Int((f * 256).rounded())
        if w >= 256 { r += 1; w = 0 }
        boxRadius = r
        edgeWeight = w
    }

    /// Whether `apply` uses SIMD vectors for the horizontal passes by default. They are 2–3 times
    /// faster when optimised but many times slower than plain loops in unoptimised (debug) builds.
    #if DEBUG
    static let vectorLoopsByDefault = false
    #else
    static let vectorLoopsByDefault = true
    #endif

    /// True when the blur changes nothing (radius 0 or too small to move any weight).
    var isIdentity: Bool { boxRadius == 0 && edgeWeight == 0 }
    /// How many pixels a pixel's colour spreads to each side.
    var extent: Int { 3 * (boxRadius + (edgeWeight > 0 ? 1 : 0)) }

    /// The per-pass weights: a box output is `sum × core + (the two end taps) × edge`, on 16-bit
    /// samples (value × 256). Float arithmetic keeps every step vectorisable; its error (< 0.01 of a
    /// 16-bit step) is far below the final 8-bit rounding.
    private var weights: (core: Float, edge: Float) {
        let total = Float(256 * (2 * boxRadius + 1) + 2 * edgeWeight)
        return (256 / total, Float(edgeWeight) / total)
    }

    /// Blurs `height` rows of `width` pixels of `channels` interleaved bytes each (4 for premultiplied
    /// ARGB32, 1 for an alpha mask), rows `stride` bytes apart, in place. Every channel is blurred
    /// with the same weights, so premultiplied colour never exceeds its alpha afterwards.
    /// `vectorLoops` chooses the SIMD or the plain horizontal loop (same results).
    func apply(to data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int,
               vectorLoops: Bool = GaussianBlur.vectorLoopsByDefault) {
        precondition(width >= 0 && height >= 0 && channels >= 1 && stride >= width * channels)
        guard !isIdentity, width > 0, height > 0 else { return }
        let rowLength = width * channels
        let r = boxRadius, (core, edge) = weights
        // The horizontally blurred region, 16 bits a sample.
        var plane = [UInt16](repeating: 0, count: rowLength * height)
        plane.withUnsafeMutableBufferPointer { planeBuffer in
            let planeStart = UncheckedSendable(planeBuffer.baseAddress!), pixels = UncheckedSendable(data)
            // Horizontal: each row through two padded line buffers (zeros beyond the ends). One-channel
            // rows go four at a time, interleaved as the lanes of one vector like the channels of ARGB.
            let lanes = channels == 1 ? 4 : channels, rowsPerLine = channels == 1 ? 4 : 1
            Self.inParallel(count: (height + rowsPerLine - 1) / rowsPerLine, work: rowLength * height) { lines in
                let pad = (r + 1) * lanes
                var lineA = [UInt16](repeating: 0, count: width * lanes + 2 * pad), lineB = lineA
                lineA.withUnsafeMutableBufferPointer { aBuffer in
                    lineB.withUnsafeMutableBufferPointer { bBuffer in
                        let a = aBuffer.baseAddress! + pad, b = bBuffer.baseAddress! + pad
                        for line in lines {
                            if rowsPerLine == 1 {
                                let row = pixels.value + line * stride
                                for j in 0..<rowLength { a[j] = UInt16(row[j]) &<< 8 }
                                Self.horizontalPass(from: a, to: b, count: width, channels: lanes, r: r, core: core, edge: edge, vector: vectorLoops)
                                Self.horizontalPass(from: b, to: a, count: width, channels: lanes, r: r, core: core, edge: edge, vector: vectorLoops)
                                Self.horizontalPass(from: a, to: planeStart.value + line * rowLength, count: width, channels: lanes, r: r, core: core, edge: edge, vector: vectorLoops)
                                continue
                            }
                            for lane in 0..<4 {
                                let y = line * 4 + lane
                                if y < height {
                                    let row = pixels.value + y * stride
                                    for x in 0..<width { a[x &* 4 &+ lane] = UInt16(row[x]) &<< 8 }
                                } else {
                                    for x in 0..<width { a[x &* 4 &+ lane] = 0 }
                                }
                            }
                            Self.horizontalPass(from: a, to: b, count: width, channels: 4, r: r, core: core, edge: edge, vector: vectorLoops)
                            Self.horizontalPass(from: b, to: a, count: width, channels: 4, r: r, core: core, edge: edge, vector: vectorLoops)
                            Self.horizontalPass(from: a, to: b, count: width, channels: 4, r: r, core: core, edge: edge, vector: vectorLoops)
                            for lane in 0..<4 where line * 4 + lane < height {
                                let out = planeStart.value + (line * 4 + lane) * rowLength
                                for x in 0..<width { out[x] = b[x &* 4 &+ lane] }
                            }
                        }
                    }
                }
            }
            // Vertical: strips of columns, each through two strip buffers, then rounded to 8 bits.
            let stripWidth = min(rowLength, 1024)
            let strips = (rowLength + stripWidth - 1) / stripWidth
            Self.inParallel(count: strips, work: rowLength * height) { stripRange in
                var q1 = [UInt16](repeating: 0, count: stripWidth * height), q2 = q1
                var zero = [UInt16](repeating: 0, count: stripWidth)
                var sums = [Int32](repeating: 0, count: stripWidth)
                q1.withUnsafeMutableBufferPointer { q1b in q2.withUnsafeMutableBufferPointer { q2b in
                    zero.withUnsafeMutableBufferPointer { zb in sums.withUnsafeMutableBufferPointer { sb in
                        let q1 = q1b.baseAddress!, q2 = q2b.baseAddress!, z = zb.baseAddress!, s = sb.baseAddress!
                        for strip in stripRange {
                            let x0 = strip * stripWidth, n = min(stripWidth, rowLength - x0)
                            Self.verticalPass(from: planeStart.value + x0, stride: rowLength, to: q1, stride: n, count: n, height: height, r: r, core: core, edge: edge, zero: z, sums: s)
                            Self.verticalPass(from: q1, stride: n, to: q2, stride: n, count: n, height: height, r: r, core: core, edge: edge, zero: z, sums: s)
                            Self.verticalPass(from: q2, stride: n, to: q1, stride: n, count: n, height: height, r: r, core: core, edge: edge, zero: z, sums: s)
                            for y in 0..<height {
                                let src = q1 + y * n, dst = pixels.value + y * stride + x0
                                for j in 0..<n { dst[j] = UInt8(truncatingIfNeeded: (src[j] &+ 128) &>> 8) }
                            }
                        }
                    } }
                } }
            }
        }
    }

    /// Runs `body` over `0..<count` split into chunks on several threads when `work` (samples) is
    /// large enough to pay for it; each chunk runs on one thread.
    private static func inParallel(count: Int, work: Int, _ body: (Range<Int>) -> Void) {
        let threads = min(UsableCores.count, count, max(1, work / 200_000))
        guard threads > 1 else { body(0..<count); return }
        withoutActuallyEscaping(body) { body in
            let task = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: threads) { i in
                task.value(count * i / threads ..< count * (i + 1) / threads)
            }
        }
    }

    /// Rounds a non-negative value below 2²² to the nearest integer and keeps the low 16 bits,
    /// without a trapping conversion (adding 1.5 × 2²³ leaves the integer in the mantissa).
    @inline(__always)
    private static func round16(_ v: Float) -> UInt16 { UInt16(truncatingIfNeeded: (v + 12_582_912).bitPattern) }
    @inline(__always)
    private static func round16(_ v: SIMD4<Float>) -> SIMD4<UInt16> {
        SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(v + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self))
    }

    /// One box pass along a line of `count` pixels of `channels` samples; `src` is readable `r + 1`
    /// pixels beyond both ends (and `dst` is only written within them).
    @inline(__always)
    private static func horizontalPass(from src: UnsafeMutablePointer<UInt16>, to dst: UnsafeMutablePointer<UInt16>,
                                       count n: Int, channels c: Int, r: Int, core: Float, edge: Float, vector: Bool) {
        if c == 4 && vector {
            // The four channels of a pixel as one vector.
            @inline(__always) func load(_ p: UnsafeMutablePointer<UInt16>) -> SIMD4<Int32> {
                SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt16>.self))
            }
            var s = SIMD4<Int32>()
            for k in -r...r { s &+= load(src + 4 * k) }
            let reach = 4 * (r + 1), back = 4 * r
            let vc = SIMD4<Float>(repeating: core), ve = SIMD4<Float>(repeating: edge)
            var p = src, q = dst
            for _ in 0..<n {
                let entering = load(p + reach)
                let ends = load(p - reach) &+ entering
                UnsafeMutableRawPointer(q).storeBytes(of: round16(SIMD4<Float>(s) * vc + SIMD4<Float>(ends) * ve), as: SIMD4<UInt16>.self)
                s &+= entering &- load(p - back)
                p += 4; q += 4
            }
            return
        }
        for ch in 0..<c {
            var s: Int32 = 0
            for k in -r...r { s &+= Int32(src[k * c + ch]) }
            let reach = (r + 1) * c, back = r * c
            var i = ch
            while i < n * c {
                let entering = Int32(src[i + reach])
                dst[i] = round16(Float(s) * core + Float(Int32(src[i - reach]) &+ entering) * edge)
                s &+= entering &- Int32(src[i - back])
                i += c
            }
        }
    }

    /// One box pass down `count` columns of `height` rows (row strides in samples), `src` to `dst`.
    private static func verticalPass(from src: UnsafeMutablePointer<UInt16>, stride srcStride: Int,
                                     to dst: UnsafeMutablePointer<UInt16>, stride dstStride: Int,
                                     count n: Int, height: Int, r: Int, core: Float, edge: Float,
                                     zero: UnsafeMutablePointer<UInt16>, sums: UnsafeMutablePointer<Int32>) {
        sums.update(repeating: 0, count: n)
        for k in 0...min(r, height - 1) {
            let row = src + k * srcStride
            for j in 0..<n { sums[j] &+= Int32(row[j]) }
        }
        for y in 0..<height {
            let out = dst + y * dstStride
            let above = y - r - 1 >= 0 ? src + (y - r - 1) * srcStride : zero
            let below = y + r + 1 < height ? src + (y + r + 1) * srcStride : zero
            let leaving = y - r >= 0 ? src + (y - r) * srcStride : zero
            for j in 0..<n {
                let s = sums[j], entering = Int32(below[j])
                out[j] = round16(Float(s) * core + Float(Int32(above[j]) &+ entering) * edge)
                sums[j] = s &+ entering &- Int32(leaving[j])
            }
        }
    }
}

/// Blurs premultiplied ARGB32 pixels in place with `GaussianBlur(radius:)` (σ = radius / 2); pixels
/// beyond the buffer count as transparent. `radius` must be 0 … `GaussianBlur.maximumRadius`.
func boxBlurPremultipliedARGB(data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Double) {
    GaussianBlur(radius: radius).apply(to: data, width: width, height: height, stride: stride, channels: 4)
}

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
/// Pixels outside the buffer count as transparent (zero), so callers pad the buffer by `extent`
/// pixels where content near its edge matters. The value is immutable and the work buffers belong to
/// one call: separate buffers can be blurred on separate threads at once.
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

    /// True when the blur changes nothing (radius 0 or too small to move any weight).
    var isIdentity: Bool { boxRadius == 0 && edgeWeight == 0 }
    /// How many pixels a pixel's colour spreads to each side.
    var extent: Int { 3 * (boxRadius + (edgeWeight > 0 ? 1 : 0)) }

    /// Blurs `height` rows of `width` pixels of `channels` interleaved bytes each (4 for premultiplied
    /// ARGB32, 1 for an alpha mask), rows `stride` bytes apart, in place. Every channel is blurred
    /// with the same weights, so premultiplied colour never exceeds its alpha afterwards.
    func apply(to data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int) {
        precondition(width >= 0 && height >= 0 && channels >= 1 && stride >= width * channels)
        guard !isIdentity, width > 0, height > 0 else { return }
        let rowLength = width * channels
        // One 16-bit work plane (value × 256) for the whole region, one padded line pair for the
        // horizontal passes, and a ring of original rows plus column sums for the vertical ones:
        // 2 bytes a sample plus O(width × radius), nothing that grows with the number of passes.
        var work = [UInt16](repeating: 0, count: rowLength * height)
        let pad = (boxRadius + 1) * channels
        var lineA = [UInt16](repeating: 0, count: rowLength + 2 * pad)
        var lineB = lineA
        let ringRows = boxRadius + 2
        var ring = [UInt16](repeating: 0, count: rowLength * ringRows)
        var zero = [UInt16](repeating: 0, count: rowLength)
        var sums = [Int](repeating: 0, count: rowLength)
        let weightSum = 256 * (2 * boxRadius + 1) + 2 * edgeWeight
        let reciprocal = ((1 << 32) + weightSum / 2) / weightSum   // value / weightSum ≈ value × reciprocal >> 32
        let r = boxRadius, fw = edgeWeight

        work.withUnsafeMutableBufferPointer { workBuffer in
            let work = workBuffer.baseAddress!
            lineA.withUnsafeMutableBufferPointer { aBuffer in
                lineB.withUnsafeMutableBufferPointer { bBuffer in
                    let a = aBuffer.baseAddress! + pad, b = bBuffer.baseAddress! + pad
                    for y in 0..<height {
                        let row = data + y * stride
                        for j in 0..<rowLength { a[j] = UInt16(row[j]) << 8 }
                        Self.horizontalPass(from: a, to: b, count: width, channels: channels, r: r, fw: fw, reciprocal: reciprocal)
                        Self.horizontalPass(from: b, to: a, count: width, channels: channels, r: r, fw: fw, reciprocal: reciprocal)
                        Self.horizontalPass(from: a, to: work + y * rowLength, count: width, channels: channels, r: r, fw: fw, reciprocal: reciprocal)
                    }
                }
            }
            ring.withUnsafeMutableBufferPointer { ringBuffer in
                zero.withUnsafeMutableBufferPointer { zeroBuffer in
                    sums.withUnsafeMutableBufferPointer { sumsBuffer in
                        for _ in 0..<3 {
                            Self.verticalPass(work, rowLength: rowLength, height: height, r: r, fw: fw, reciprocal: reciprocal,
                                              ring: ringBuffer.baseAddress!, ringRows: ringRows, zero: zeroBuffer.baseAddress!, sums: sumsBuffer.baseAddress!)
                        }
                    }
                }
            }
            for y in 0..<height {
                let row = data + y * stride, src = work + y * rowLength
                for j in 0..<rowLength { row[j] = UInt8(truncatingIfNeeded: (Int(src[j]) + 128) >> 8) }
            }
        }
    }

    /// One box pass along a line; `src` is readable `r + 1` pixels beyond both ends (zeros there).
    @inline(__always)
    private static func horizontalPass(from src: UnsafeMutablePointer<UInt16>, to dst: UnsafeMutablePointer<UInt16>,
                                       count n: Int, channels c: Int, r: Int, fw: Int, reciprocal: Int) {
        for ch in 0..<c {
            var s = 0
            for k in -r...r { s += Int(src[k * c + ch]) }
            var i = ch
            let end = n * c
            let reach = (r + 1) * c, back = r * c
            while i < end {
                let edges = Int(src[i - reach]) + Int(src[i + reach])
                dst[i] = UInt16(truncatingIfNeeded: (((s << 8) + fw * edges) * reciprocal + (1 << 31)) >> 32)
                s += Int(src[i + reach]) - Int(src[i - back])
                i += c
            }
        }
    }

    /// One box pass down the columns of `plane`, in place: rows already overwritten are read back
    /// from a ring holding the last `r + 2` original rows.
    private static func verticalPass(_ plane: UnsafeMutablePointer<UInt16>, rowLength: Int, height: Int, r: Int, fw: Int, reciprocal: Int,
                                     ring: UnsafeMutablePointer<UInt16>, ringRows: Int, zero: UnsafeMutablePointer<UInt16>, sums: UnsafeMutablePointer<Int>) {
        for j in 0..<rowLength { sums[j] = 0 }
        for k in 0...min(r, height - 1) {
            let row = plane + k * rowLength
            for j in 0..<rowLength { sums[j] += Int(row[j]) }
        }
        for y in 0..<height {
            let out = plane + y * rowLength
            let saved = ring + (y % ringRows) * rowLength
            saved.update(from: out, count: rowLength)
            let above = y - r - 1 >= 0 ? ring + ((y - r - 1) % ringRows) * rowLength : zero
            let below = y + r + 1 < height ? plane + (y + r + 1) * rowLength : zero
            let leaving = y - r >= 0 ? ring + ((y - r) % ringRows) * rowLength : zero
            for j in 0..<rowLength {
                let s = sums[j]
                let edges = Int(above[j]) + Int(below[j])
                out[j] = UInt16(truncatingIfNeeded: (((s << 8) + fw * edges) * reciprocal + (1 << 31)) >> 32)
                sums[j] = s + Int(below[j]) - Int(leaving[j])
            }
        }
    }
}

/// Blurs premultiplied ARGB32 pixels in place with `GaussianBlur(radius:)` (σ = radius / 2); pixels
/// beyond the buffer count as transparent. `radius` must be 0 … `GaussianBlur.maximumRadius`.
func boxBlurPremultipliedARGB(data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Double) {
    GaussianBlur(radius: radius).apply(to: data, width: width, height: height, stride: stride, channels: 4)
}

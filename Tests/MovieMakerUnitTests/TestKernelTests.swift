import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport
import CMovieMakerTestKernels

/// The test helpers' analysis loops moved from Swift to C (`CMovieMakerTestKernels`, fast in the debug
/// build the suite runs in); these tests hold each kernel to the Swift loop it replaced, kept here as
/// the reference: the same result, bit for bit, on random pictures and sounds of awkward sizes.
@Suite("Test kernels: the C loops against the Swift helpers they replaced")
struct TestKernelTests {
    /// A reproducible source of bytes and numbers.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
        mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func unit() -> Double { Double(next() % 2_000_001) / 1_000_000 - 1 }
    }

    /// A BGRA picture of random bytes, with flat runs (0, 255 and equal channels) so that ties and the
    /// extremes occur.
    static func picture(width: Int, height: Int, random: inout Random) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<bytes.count {
            switch (i / 97) % 4 {
            case 0: bytes[i] = random.byte()
            case 1: bytes[i] = 255
            case 2: bytes[i] = 0
            default: bytes[i] = UInt8(truncatingIfNeeded: i / 4)
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    static let sizes: [(Int, Int)] = [(1, 1), (3, 5), (33, 17), (64, 48), (321, 239)]

    @Test("PSNR's squared error: the integer sum equals the Swift loop's Double sum")
    func squaredError() {
        var random = Random(state: 1)
        for (w, h) in Self.sizes {
            let a = Self.picture(width: w, height: h, random: &random), b = Self.picture(width: w, height: h, random: &random)
            // The reference: psnr's loop before the kernel.
            var sum = 0.0
            var i = 0
            while i < a.bytes.count {
                for c in 0..<3 { let d = Double(a.bytes[i + c]) - Double(b.bytes[i + c]); sum += d * d }
                i += 4
            }
            let kernel = a.bytes.withUnsafeBufferPointer { pa in
                b.bytes.withUnsafeBufferPointer { pb in mmt_rgb_squared_error(pa.baseAddress, pb.baseAddress, w * h) }
            }
            #expect(Double(kernel) == sum, "\(w)x\(h)")
            let mse = sum / Double(w * h * 3)
            let reference = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
            #expect(psnr(a, b) == reference, "\(w)x\(h)")
            #expect(psnr(a, a) == .infinity)
        }
    }

    @Test("luma profiles: each line's mean luma, the same bits as the Swift reduce")
    func lumaProfile() {
        var random = Random(state: 2)
        for (w, h) in Self.sizes where w >= 3 && h >= 3 {
            let p = Self.picture(width: w, height: h, random: &random)
            func luma(_ x: Int, _ y: Int) -> Double {
                let i = (y * p.width + x) * 4
                return 0.299 * Double(p.bytes[i + 2]) + 0.587 * Double(p.bytes[i + 1]) + 0.114 * Double(p.bytes[i])
            }
            for alongX in [true, false] {
                let count = alongX ? w : h, across = alongX ? h : w
                let k = max(1, across / 20), c = across / 2
                let reference: [Double] = (0..<count).map { (i: Int) -> Double in
                    (c - k...c + k).reduce(0.0) { (sum: Double, j: Int) -> Double in sum + (alongX ? luma(i, j) : luma(j, i)) } / Double(2 * k + 1)
                }
                var out = [Double](repeating: -1, count: count)
                p.bytes.withUnsafeBufferPointer { bytes in
                    out.withUnsafeMutableBufferPointer { o in
                        mmt_luma_profile(bytes.baseAddress, Int32(w), alongX ? 1 : 0, Int32(count), Int32(c), Int32(k), o.baseAddress)
                    }
                }
                let first = out.indices.first { out[$0].bitPattern != reference[$0].bitPattern }
                #expect(first == nil, "\(w)x\(h), along x: \(alongX): line \(first ?? 0) is \(out[first ?? 0]), the Swift reduce gives \(reference[first ?? 0])")
            }
        }
    }

    @Test("saturation sums: max − min of B, G and R over a rectangle")
    func saturation() {
        var random = Random(state: 3)
        for (w, h) in Self.sizes {
            let p = Self.picture(width: w, height: h, random: &random)
            for _ in 0..<8 {
                let x0 = random.int(0..<w), y0 = random.int(0..<h)
                let x1 = random.int(x0..<w + 1), y1 = random.int(y0..<h + 1)
                var reference = 0.0
                for y in y0..<y1 { for x in x0..<x1 {
                    let i = (y * w + x) * 4
                    let c = [p.bytes[i], p.bytes[i + 1], p.bytes[i + 2]]
                    reference += Double(c.max()! - c.min()!)
                } }
                let kernel = p.bytes.withUnsafeBufferPointer {
                    mmt_saturation_sum($0.baseAddress, Int32(w), Int32(x0), Int32(x1), Int32(y0), Int32(y1))
                }
                #expect(Double(kernel) == reference, "\(w)x\(h) at \(x0)..<\(x1), \(y0)..<\(y1)")
            }
        }
    }

    @Test("ink boxes: the box and count of the pixels above a threshold, in a whole picture or an area")
    func inkBoxes() {
        var random = Random(state: 4)
        for (w, h) in Self.sizes {
            let p = Self.picture(width: w, height: h, random: &random)
            for threshold: UInt8 in [0, 128, 254, 255] {
                let x0 = random.int(0..<w), y0 = random.int(0..<h)
                let areas: [(x: Range<Int>, y: Range<Int>)?] = [nil, (x0..<random.int(x0..<w + 1), y0..<random.int(y0..<h + 1))]
                for area in areas {
                    // The reference: inkBox's loop before the kernel.
                    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
                    for y in area?.y ?? 0..<h {
                        for x in area?.x ?? 0..<w {
                            let c = p.rgba(x: x, y: y)
                            if c.red > threshold && c.green > threshold && c.blue > threshold && c.alpha > threshold {
                                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y); count += 1
                            }
                        }
                    }
                    let box = inkBox(p, threshold: threshold, in: area)
                    if count == 0 {
                        #expect(box == nil, "\(w)x\(h), threshold \(threshold), \(String(describing: area))")
                    } else {
                        let found = box.map { [$0.minX, $0.minY, $0.maxX, $0.maxY, $0.count] }
                        #expect(found == [minX, minY, maxX, maxY, count], "\(w)x\(h), threshold \(threshold), \(String(describing: area))")
                    }
                }
            }
        }
    }

    @Test("colour boxes: the box and count of the pixels whose channels lie in given ranges")
    func colorBoxes() {
        var random = Random(state: 7)
        for (w, h) in Self.sizes {
            let p = Self.picture(width: w, height: h, random: &random)
            let cases: [(red: ClosedRange<UInt8>, green: ClosedRange<UInt8>, blue: ClosedRange<UInt8>, alpha: ClosedRange<UInt8>)] = [
                (151...255, 0...79, 0...79, 0...255), (101...255, 0...255, 0...255, 0...255), (0...0, 255...255, 0...255, 1...254),
            ]
            for (red, green, blue, alpha) in cases {
                var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
                for y in 0..<h {
                    for x in 0..<w {
                        let c = p.rgba(x: x, y: y)
                        if red.contains(c.red) && green.contains(c.green) && blue.contains(c.blue) && alpha.contains(c.alpha) {
                            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y); count += 1
                        }
                    }
                }
                let found = colorBox(p, red: red, green: green, blue: blue, alpha: alpha).map { [$0.minX, $0.minY, $0.maxX, $0.maxY, $0.count] }
                #expect(found == (count == 0 ? nil : [minX, minY, maxX, maxY, count]), "\(w)x\(h), \(red) \(green) \(blue) \(alpha)")
            }
        }
    }

    @Test("channel ranges: each of red, green and blue's lowest and highest value")
    func channelRangesMatch() {
        var random = Random(state: 8)
        for (w, h) in Self.sizes {
            let p = Self.picture(width: w, height: h, random: &random)
            var low = [255, 255, 255], high = [0, 0, 0]
            for i in stride(from: 0, to: p.bytes.count, by: 4) {
                for c in 0..<3 { low[c] = min(low[c], Int(p.bytes[i + c])); high[c] = max(high[c], Int(p.bytes[i + c])) }
            }
            let r = channelRanges(p)
            #expect([r.blue, r.green, r.red] == (0..<3).map { low[$0]...high[$0] }, "\(w)x\(h)")
        }
        let empty = channelRanges(PixelBuffer(width: 0, height: 0, bytes: []))
        #expect(empty.red == nil && empty.green == nil && empty.blue == nil)
    }

    @Test("correlation sums: the same bits as the Swift loop, with lags that run off either end")
    func correlationSums() {
        var random = Random(state: 9)
        for channels in [1, 2] {
            let a = (0..<(1_001 * channels)).map { _ in Float(random.unit()) }, b = (0..<(997 * channels)).map { _ in Float(random.unit()) }
            for (lag, range) in [(0, 0..<1_001), (-5, 0..<1_001), (7, 100..<990), (-2_000, 0..<10), (3, 500..<500)] {
                var ab = 0.0, aa = 0.0, bb = 0.0
                for n in range where n + lag >= 0 && (n + lag + 1) * channels <= b.count && (n + 1) * channels <= a.count {
                    for c in 0..<channels {
                        let x = Double(a[n * channels + c]), y = Double(b[(n + lag) * channels + c])
                        ab += x * y; aa += x * x; bb += y * y
                    }
                }
                var sums = [Double](repeating: -1, count: 3)
                mmt_correlation_sums(a, a.count, b, b.count, Int32(channels), lag, range.lowerBound, range.upperBound, &sums)
                #expect(sums.map(\.bitPattern) == [ab, aa, bb].map(\.bitPattern), "\(channels) channels, lag \(lag), \(range)")
                let reference = aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
                #expect(AudioInTesting.correlation(a, b, channels: channels, lag: lag, range: range) == reference)
            }
        }
    }

    @Test("Goertzel's power: the same bits as the Swift loop, for tones and noise of several lengths")
    func goertzel() {
        var random = Random(state: 5)
        for n in [0, 1, 7, 480, 4_801] {
            let x: [Double] = (0..<n).map { (i: Int) -> Double in i % 3 == 0 ? random.unit() : sin(Double(i) * 0.0577) }
            for f in [20.0, 440.0, 997.3, 23_999.0] {
                let c = 2 * cos(2 * Double.pi * f / 48_000)
                var s1 = 0.0, s2 = 0.0
                for v in x { let s0 = v + c * s1 - s2; s2 = s1; s1 = s0 }
                let reference = s1 * s1 + s2 * s2 - c * s1 * s2
                let kernel = x.withUnsafeBufferPointer { mmt_goertzel_power($0.baseAddress, $0.count, c) }
                #expect(kernel.bitPattern == reference.bitPattern, "\(n) samples at \(f) Hz: \(kernel) against \(reference)")
            }
        }
    }

    @Test("RGBA to BGRA swaps red and blue and keeps green and alpha")
    func rgbaToBGRA() {
        var random = Random(state: 6)
        let rgba = (0..<(37 * 4)).map { _ in random.byte() }
        var bgra = [UInt8](repeating: 0, count: rgba.count)
        rgba.withUnsafeBufferPointer { s in bgra.withUnsafeMutableBufferPointer { mmt_rgba_to_bgra(s.baseAddress, $0.baseAddress, 37) } }
        var reference = [UInt8](repeating: 0, count: rgba.count)
        for i in stride(from: 0, to: rgba.count, by: 4) {
            reference[i] = rgba[i + 2]; reference[i + 1] = rgba[i + 1]; reference[i + 2] = rgba[i]; reference[i + 3] = rgba[i + 3]
        }
        #expect(bgra == reference)
    }
}

import Foundation
import Testing
@testable import MovieMaker

/// The chroma key's first pass: the distances it looks up equal, bit for bit, the ones
/// `SpatialKernels.chromaDistance` computes pixel by pixel, for opaque, partly transparent and
/// transparent pixels and for several keys.
@Suite struct ChromaKeyKernelTests {
    @Test("every looked-up chroma distance equals the per-pixel computation exactly; transparent pixels are -1",
          arguments: [Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0, blue: 1), Color(red: 0.8, green: 0.3, blue: 0.55)])
    func tableDistancesEqualComputedOnes(key: Color) {
        // Every red and green in steps of 3 against every blue in steps of 5 (a 86 × 52 × … picture), each
        // at one of several alphas, premultiplied as Cairo stores it.
        let alphas: [UInt32] = [255, 255, 255, 0, 1, 17, 128, 200, 254]
        var pixels: [UInt32] = []
        var index = 0
        for r in stride(from: UInt32(0), through: 255, by: 3) {
            for g in stride(from: UInt32(0), through: 255, by: 3) {
                for b in stride(from: UInt32(0), through: 255, by: 5) {
                    let a = alphas[index % alphas.count]
                    index += 1
                    let pr = (r * a + 127) / 255, pg = (g * a + 127) / 255, pb = (b * a + 127) / 255
                    pixels.append(a << 24 | pr << 16 | pg << 8 | pb)
                }
            }
        }
        let width = 52, height = pixels.count / width
        let kc = SpatialKernels.keyChroma(key), keyUV = SIMD2(Float(kc.u), Float(kc.v))
        var distances = [Float](repeating: .nan, count: width * height)
        var mismatches: [String] = []
        pixels.withUnsafeMutableBytes { bytes in
            let image = FilterImage(data: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: width, height: height, stride: 4 * width)
            distances.withUnsafeMutableBufferPointer { SpatialKernels.chromaDistances(image, keyUV: keyUV, into: $0.baseAddress!) }
            for i in 0..<(width * height) {
                let p = SpatialKernels.load(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + 4 * i)
                let expected = p[3] == 0 ? -1 : SpatialKernels.chromaDistance(p, key: keyUV)
                if distances[i].bitPattern != expected.bitPattern, mismatches.count < 5 {
                    mismatches.append("pixel \(i): \(distances[i]), computed \(expected)")
                }
            }
        }
        #expect(pixels.count == 86 * 86 * 52 && mismatches.isEmpty, "\(mismatches)")
    }

    /// The chroma key as it was written before its passes were made faster (kept as the reference): the
    /// distance computed per pixel, the 3 × 3 mean with a select per neighbour, the spill by lane index.
    static func referenceChromaKey(_ image: FilterImage, key: Color, similarity: Float, blend: Float, spill: Float) {
        let w = image.width, h = image.height
        let kc = SpatialKernels.keyChroma(key), keyUV = SIMD2(Float(kc.u), Float(kc.v))
        let channels = [key.blue, key.green, key.red]
        let main = channels.indices.max { channels[$0] < channels[$1] }!
        let others = (0..<3).filter { $0 != main }
        var distance = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let p = SpatialKernels.load(image.row(y) + 4 * x)
                distance[y * w + x] = p[3] == 0 ? -1 : SpatialKernels.chromaDistance(p, key: keyUV)
            }
        }
        let hard = blend <= 0.0001
        for y in 0..<h {
            let q = image.row(y)
            let up = max(y - 1, 0) * w, mid = y * w, down = min(y + 1, h - 1) * w
            for x in 0..<w {
                let centre = distance[mid + x]
                if centre < 0 { continue }
                let xl = max(x - 1, 0), xr = min(x + 1, w - 1)
                func at(_ v: Float) -> Float { v < 0 ? centre : v }
                let sum = at(distance[up + xl]) + at(distance[up + x]) + at(distance[up + xr]) + at(distance[mid + xl]) + centre
                    + at(distance[mid + xr]) + at(distance[down + xl]) + at(distance[down + x]) + at(distance[down + xr])
                let mean = sum / 9
                let m: Float = hard ? (mean > similarity ? 1 : 0) : min(max((mean - similarity) / blend, 0), 1)
                var p = SpatialKernels.load(q + 4 * x)
                if spill > 0 {
                    let excess = p[main] - (p[others[0]] + p[others[1]]) / 2
                    if excess > 0 { p[main] -= spill * excess }
                }
                SpatialKernels.store(p * m, q + 4 * x)
            }
        }
    }

    @Test("the chroma key gives the reference's bytes exactly: opaque pictures, holes of transparency, hard and soft edges, spill on every key channel",
          arguments: [(Color(red: 0, green: 1, blue: 0), Float(0.15), Float(0.1), Float(0.5)),
                      (Color(red: 0, green: 0, blue: 1), Float(0.2), Float(0), Float(1)),
                      (Color(red: 0.9, green: 0.2, blue: 0.1), Float(0.1), Float(0.3), Float(0.25)),
                      (Color(red: 0, green: 1, blue: 0), Float(0.15), Float(0.1), Float(0))])
    func chromaKeyMatchesTheReference(key: Color, similarity: Float, blend: Float, spill: Float) {
        let width = 97, height = 61
        for transparentHoles in [false, true] {
            // A green-screen-like picture: a keyed background, a subject of other colours, a soft border,
            // and (in the second case) transparent holes and partly transparent pixels.
            var pixels = [UInt32](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let i = UInt32(truncatingIfNeeded: (x &* 7919 &+ y &* 104_729) % 251)
                    let inSubject = (x - 48) * (x - 48) + (y - 30) * (y - 30) < 400
                    var r = UInt32(20 + i % 60), g = UInt32(170 + i % 80), b = UInt32(30 + i % 50)
                    if inSubject { r = UInt32(120 + i % 120); g = UInt32(60 + i % 140); b = UInt32(40 + i % 100) }
                    if y < 16 {
                        // A ramp from the key colour towards its opposite, with a little noise: its chroma
                        // distances sweep through the similarity and blend band, whatever the key.
                        let t = Double(x) / Double(width - 1), n = Double(i % 41) / 255
                        func ramp(_ k: Double) -> UInt32 { UInt32((min(max(k + (1 - 2 * k) * t * 0.6 + n, 0), 1) * 255).rounded()) }
                        (r, g, b) = (ramp(key.red), ramp(key.green), ramp(key.blue))
                    }
                    var a: UInt32 = 255
                    if transparentHoles && (x % 11 == 3 || (y % 13 == 5 && x % 3 == 0)) { a = x % 2 == 0 ? 0 : UInt32(40 + i % 200) }
                    let pr = (r * a + 127) / 255, pg = (g * a + 127) / 255, pb = (b * a + 127) / 255
                    pixels[y * width + x] = a << 24 | pr << 16 | pg << 8 | pb
                }
            }
            var expected = pixels
            pixels.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) -> Void in
                SpatialKernels.chromaKey(FilterImage(data: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: width, height: height, stride: 4 * width),
                                         key: key, similarity: similarity, blend: blend, spill: spill)
            }
            expected.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) -> Void in
                Self.referenceChromaKey(FilterImage(data: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: width, height: height, stride: 4 * width),
                                        key: key, similarity: similarity, blend: blend, spill: spill)
            }
            let differing = zip(pixels, expected).filter { $0 != $1 }.count
            let total = pixels.count
            #expect(differing == 0, "holes \(transparentHoles): \(differing) of \(total) pixels differ from the reference")
        }
    }
}

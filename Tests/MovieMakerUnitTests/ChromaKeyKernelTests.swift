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
}

import Foundation
import Testing
@testable import MovieMaker

/// The whole-number tetrahedral LUT kernel: its corner choice is made without branches, and it must sum
/// exactly what FFmpeg `lut3d`'s case-by-case choice sums (kept here as the reference).
@Suite struct LUTKernelTests {
    /// FFmpeg `lut3d`'s tetrahedron, case by case (the kernel's former code): the weighted sum of the
    /// four corners for a colour 0x00RRGGBB, each level × 8 192 in its 21-bit field.
    static func referenceSums(_ rgb: UInt32, points: UnsafePointer<UInt64>, index: UnsafePointer<UInt32>, size n: Int) -> UInt64 {
        let sG = n, sB = n * n, sRG = 1 + n, sRB = 1 + n * n, sGB = n + n * n, far = 1 + n + n * n
        let er = index[Int(rgb >> 16 & 255)], eg = index[256 + Int(rgb >> 8 & 255)], eb = index[512 + Int(rgb & 255)]
        let base = points + Int(er >> 8 + eg >> 8 + eb >> 8)
        let dr = UInt64(er & 255), dg = UInt64(eg & 255), db = UInt64(eb & 255)
        let c1: Int, c2: Int, w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64
        if dr > dg {
            if dg > db { c1 = 1; c2 = sRG; w0 = 255 - dr; w1 = dr - dg; w2 = dg - db; w3 = db }
            else if dr > db { c1 = 1; c2 = sRB; w0 = 255 - dr; w1 = dr - db; w2 = db - dg; w3 = dg }
            else { c1 = sB; c2 = sRB; w0 = 255 - db; w1 = db - dr; w2 = dr - dg; w3 = dg }
        } else {
            if db > dg { c1 = sB; c2 = sGB; w0 = 255 - db; w1 = db - dg; w2 = dg - dr; w3 = dr }
            else if db > dr { c1 = sG; c2 = sGB; w0 = 255 - dg; w1 = dg - db; w2 = db - dr; w3 = dr }
            else { c1 = sG; c2 = sRG; w0 = 255 - dg; w1 = dg - dr; w2 = dr - db; w3 = db }
        }
        return base[0] &* w0 &+ base[c1] &* w1 &+ base[c2] &* w2 &+ base[far] &* w3
    }

    @Test("the branch-free tetrahedron gives lut3d's case-by-case sums exactly, ties included", arguments: [2, 9, 33])
    func branchFreeCornersSumAsFFmpeg(size: Int) throws {
        // A non-linear table (every channel depends on all three), so a wrong corner changes the sum.
        var t: [Float] = []
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            let R = Double(r) / Double(size - 1), G = Double(g) / Double(size - 1), B = Double(b) / Double(size - 1)
            t += [Float(pow(R, 0.8) * 0.7 + 0.2 * G * B + 0.1 * B), Float(G * G * 0.6 + 0.3 * R * B + 0.1), Float(0.9 * sqrt(B) * (0.5 + 0.5 * R))]
        } } }
        let lut = CubeLUT(size: size, table: t)
        let packed = try #require(lut.grid.packedPoints)
        var compared = 0, differing = 0
        packed.withUnsafeBufferPointer { p in lut.grid.packedIndex.withUnsafeBufferPointer { i in
            let kernel = PackedTetrahedralKernel(grid: p.baseAddress!, index: i.baseAddress!, size: size, amount: 1)
            // Every red and blue with a spread of greens, and the whole grey axis and equal pairs (ties).
            var colours: [UInt32] = []
            for r in UInt32(0)...255 { for g in stride(from: UInt32(0), through: 255, by: 17) { for b in UInt32(0)...255 { colours.append(r << 16 | g << 8 | b) } } }
            for v in UInt32(0)...255 { for w in UInt32(0)...255 { colours += [v << 16 | v << 8 | w, v << 16 | w << 8 | v, w << 16 | v << 8 | v] } }
            for c in colours {
                compared += 1
                if kernel.sums(c) != Self.referenceSums(c, points: p.baseAddress!, index: i.baseAddress!, size: size) { differing += 1 }
            }
        } }
        #expect(compared == 256 * 16 * 256 + 3 * 65_536)
        #expect(differing == 0, "size \(size): \(differing) of \(compared) colours sum differently")
    }
}

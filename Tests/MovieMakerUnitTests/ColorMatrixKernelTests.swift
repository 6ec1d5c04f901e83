import Foundation
import Testing
@testable import MovieMaker

/// The colour matrix's two kernels (grayscale, sepia, temperature, channel mixer): the fixed-point one
/// that runs gives the levels the Float one computes, within the rounding the fixed point allows.
@Suite struct ColorMatrixKernelTests {
    @Test("the fixed-point colour matrix gives the Float matrix's levels: never more than 1 apart, and apart only where the exact result is a tie of the rounding")
    func fixedPointMatrixMatchesFloat() throws {
        let matrices: [(String, ColorMatrix)] = [
            ("grayscale", ChannelMatrix.luma709.matrix), ("sepia", ChannelMatrix.sepia.matrix),
            ("sepia at 0.37", ChannelMatrix.sepia.matrix.mixed(0.37)),
            ("temperature", ColorMatrix(m: [1.08, 0, 0, 0, 1.01, 0, 0, 0, 0.87], offset: [0, 0, 0])),
            ("mixer", ChannelMatrix(rr: 0.5, rg: -1.2, rb: 2, gr: 1.5, gg: 0.3, gb: -0.4, br: -2, bg: 1, bb: 1).matrix),
            ("with offsets", ColorMatrix(m: [0.9, 0.1, 0, 0, 0.8, 0.2, 0.1, 0, 0.7], offset: [12.25, -7.5, 30])),
        ]
        for (name, matrix) in matrices {
            guard let fixed = ColorMatrix.FixedKernel(matrix) else { Issue.record("\(name): no fixed-point form"); continue }
            let float = ColorMatrix.Kernel(a: matrix.m[0], b: matrix.m[1], c: matrix.m[2], d: matrix.m[3], e: matrix.m[4], f: matrix.m[5],
                                           g: matrix.m[6], h: matrix.m[7], i: matrix.m[8],
                                           o0: matrix.offset[0] + 0.5, o1: matrix.offset[1] + 0.5, o2: matrix.offset[2] + 0.5)
            // The exact value each output level truncates (offsets and the rounding half included).
            func exact(_ row: Int, _ r: Int32, _ g: Int32, _ b: Int32) -> Double {
                Double(matrix.m[3 * row]) * Double(r) + Double(matrix.m[3 * row + 1]) * Double(g) + Double(matrix.m[3 * row + 2]) * Double(b)
                    + Double(matrix.offset[row]) + 0.5
            }
            var compared = 0, differing = 0, largest: Int32 = 0, awayFromTies = 0
            for r in stride(from: Int32(0), through: 255, by: 5) {
                for g in stride(from: Int32(0), through: 255, by: 7) {
                    for b in stride(from: Int32(0), through: 255, by: 3) {
                        let x = fixed(r, g, b), y = float(r, g, b)
                        let pairs = [(x.0, y.0), (x.1, y.1), (x.2, y.2)]
                        compared += 1
                        for (row, (p, q)) in pairs.enumerated() where p != q {
                            differing += 1
                            largest = max(largest, abs(p - q))
                            // Only where the exact result is (nearly) a whole level — a tie of the rounding,
                            // which Float and fixed point may each break either way — and inside 0…255.
                            let v = exact(row, r, g, b)
                            if abs(v - v.rounded()) > 0.006 && v > 0 && v < 256 { awayFromTies += 1 }
                        }
                    }
                }
            }
            #expect(largest <= 1, "\(name): levels \(largest) apart")
            #expect(awayFromTies == 0, "\(name): \(awayFromTies) of \(differing) differences (in \(compared) colours) are not at a tie of the rounding")
        }
        #expect(ColorMatrix.FixedKernel(ColorMatrix(m: [9, 0, 0, 0, 1, 0, 0, 0, 1], offset: [0, 0, 0])) == nil, "too large for 32-bit sums")
    }
}

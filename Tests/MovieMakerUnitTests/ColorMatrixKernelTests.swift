import Foundation
import Testing
@testable import MovieMaker

/// The colour matrix's kernel (grayscale, sepia, temperature, channel mixer), written for the
/// vectoriser: every level it gives is the exact result rounded to nearest, except at ties of the
/// rounding, where it may be the other neighbour.
@Suite struct ColorMatrixKernelTests {
    @Test("the colour matrix kernel gives every level as the exact maths rounded, off by one only at a tie of the rounding")
    func matrixKernelMatchesExactMaths() throws {
        let matrices: [(String, ColorMatrix)] = [
            ("grayscale", ChannelMatrix.luma709.matrix), ("sepia", ChannelMatrix.sepia.matrix),
            ("sepia at 0.37", ChannelMatrix.sepia.matrix.mixed(0.37)),
            ("temperature", ColorMatrix(m: [1.08, 0, 0, 0, 1.01, 0, 0, 0, 0.87], offset: [0, 0, 0])),
            ("mixer", ChannelMatrix(rr: 0.5, rg: -1.2, rb: 2, gr: 1.5, gg: 0.3, gb: -0.4, br: -2, bg: 1, bb: 1).matrix),
            ("with offsets", ColorMatrix(m: [0.9, 0.1, 0, 0, 0.8, 0.2, 0.1, 0, 0.7], offset: [12.25, -7.5, 30])),
        ]
        for (name, matrix) in matrices {
            let kernel = ColorMatrix.Kernel(matrix)
            // The exact output of row `row` (in Double, from the Float coefficients the kernel holds).
            func exact(_ row: Int, _ r: Int32, _ g: Int32, _ b: Int32) -> Double {
                Double(matrix.m[3 * row]) * Double(r) + Double(matrix.m[3 * row + 1]) * Double(g) + Double(matrix.m[3 * row + 2]) * Double(b)
                    + Double(matrix.offset[row])
            }
            var compared = 0, atTies = 0, wrong: [String] = []
            for r in stride(from: Int32(0), through: 255, by: 5) {
                for g in stride(from: Int32(0), through: 255, by: 7) {
                    for b in stride(from: Int32(0), through: 255, by: 3) {
                        let out = kernel(r, g, b)
                        let packed = kernel.packed(UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
                        #expect(packed == UInt32(out.0) << 16 | UInt32(out.1) << 8 | UInt32(out.2), "\(name): packed and unpacked disagree")
                        for (row, level) in [out.0, out.1, out.2].enumerated() {
                            compared += 1
                            let v = exact(row, r, g, b)
                            let expected = Int32(min(max(v, 0), 255).rounded(.toNearestOrAwayFromZero))
                            guard level != expected else { continue }
                            // A tie: the exact value is (within Float's error) halfway between two levels.
                            if abs(level - expected) == 1 && abs(abs(v - v.rounded(.down)) - 0.5) < 0.002 { atTies += 1; continue }
                            if wrong.count < 5 { wrong.append("(\(r), \(g), \(b)) row \(row): \(level), exact \(v)") }
                        }
                    }
                }
            }
            #expect(wrong.isEmpty, "\(name): \(wrong)")
            #expect(compared == 52 * 37 * 86 * 3 && atTies < compared / 10, "\(name): \(atTies) of \(compared) levels at ties")
        }
    }
}

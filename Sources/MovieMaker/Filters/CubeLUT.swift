import Foundation

/// A 3D colour lookup table, as Adobe and DaVinci Resolve write it in `.cube` files: `size`³ output
/// colours on a grid over the input cube, red changing fastest.
///
/// Read a file with `CubeLUT(contentsOf:)` (parsed files are cached by path and modification date), or
/// build one from a table. Applied by `ColorFilter.lut(_:interpolation:amount:)`, which matches FFmpeg's
/// `lut3d` filter.
public struct CubeLUT: Sendable, Hashable {
    /// Points per side of the grid (2…65).
    public let size: Int
    /// The output colours, `size`³ × 3 numbers (r, g, b), red index changing fastest, then green, then blue.
    public let table: [Float]
    /// The input value that maps to the first grid point, per channel (r, g, b; default 0).
    public let domainMin: [Float]
    /// The input value that maps to the last grid point, per channel (r, g, b; default 1).
    public let domainMax: [Float]
    /// The file's `TITLE`, if any.
    public let title: String?
    /// The file the table was read from (written back by a description), or nil for a table built in code.
    public let file: URL?
    /// The table laid out for applying it (built once with the LUT).
    let grid: LUTGrid

    /// The sizes a LUT may have.
    public static let sizes: ClosedRange<Int> = 2...65

    /// A LUT from a table of `size`³ × 3 numbers (red index fastest).
    public init(size: Int, table: [Float], domainMin: [Float] = [0, 0, 0], domainMax: [Float] = [1, 1, 1],
                title: String? = nil, file: URL? = nil) {
        precondition(Self.sizes.contains(size), "a LUT's size must be 2…65, got \(size)")
        precondition(table.count == size * size * size * 3, "a size-\(size) LUT needs \(size * size * size * 3) numbers, got \(table.count)")
        precondition(domainMin.count == 3 && domainMax.count == 3, "the domain has three numbers, r g b")
        self.size = size; self.table = table; self.domainMin = domainMin; self.domainMax = domainMax
        self.title = title; self.file = file
        grid = LUTGrid(size: size, table: table, domainMin: domainMin, domainMax: domainMax)
    }

    /// The identity LUT of `size` points a side: every colour maps to itself.
    public static func identity(size: Int = 17) -> CubeLUT {
        var t = [Float](); t.reserveCapacity(size * size * size * 3)
        let s = Float(size - 1)
        for b in 0..<size { for g in 0..<size { for r in 0..<size { t += [Float(r) / s, Float(g) / s, Float(b) / s] } } }
        return CubeLUT(size: size, table: t, title: "identity")
    }

    /// Reads a `.cube` file (cached by path and modification date). Throws `.lutUnreadable` naming the
    /// file and the line for a missing file, an unknown keyword, a bad number, a 1D LUT or a wrong count.
    public init(contentsOf url: URL) throws(MovieMakerError) {
        let path = url.path
        let mtime = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
        if let mtime, let cached = LUTCache.shared.lut(path: path, modified: mtime) { self = cached; return }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .lutUnreadable(path: path, line: nil, reason: FileManager.default.fileExists(atPath: path) ? "the file cannot be read" : "no such file")
        }
        self = try CubeLUT(parsing: String(decoding: data, as: UTF8.self), path: path, file: url)
        if let mtime { LUTCache.shared.store(self, path: path, modified: mtime) }
    }

    /// Parses `.cube` text; `path` names it in errors.
    public init(parsing text: String, path: String = "<text>", file: URL? = nil) throws(MovieMakerError) {
        var size: Int?
        var title: String?
        var lo: [Float] = [0, 0, 0], hi: [Float] = [1, 1, 1]
        var values: [Float] = []
        var lineNumber = 0
        // A byte order mark (Windows editors write one) is not part of the first keyword.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = words.first else { continue }
            func numbers(_ count: Int) throws(MovieMakerError) -> [Float] {
                let ns = words.dropFirst().compactMap { Float($0) }
                guard ns.count == count, words.count == count + 1 else {
                    throw .lutUnreadable(path: path, line: lineNumber, reason: "\(first) needs \(count) number\(count == 1 ? "" : "s"), got \"\(line.trimmingCharacters(in: .whitespaces))\"")
                }
                return ns
            }
            if let c = first.first, c.isNumber || c == "-" || c == "+" || c == "." {
                guard let n = size else {
                    throw .lutUnreadable(path: path, line: lineNumber, reason: "a colour comes before LUT_3D_SIZE")
                }
                let triple = words.compactMap { Float($0) }
                guard words.count == 3, triple.count == 3, triple.allSatisfy(\.isFinite) else {
                    throw .lutUnreadable(path: path, line: lineNumber, reason: "expected three numbers (r g b), got \"\(line.trimmingCharacters(in: .whitespaces))\"")
                }
                guard values.count < n * n * n * 3 else {
                    throw .lutUnreadable(path: path, line: lineNumber, reason: "more than \(n)³ = \(n * n * n) colours for LUT_3D_SIZE \(n)")
                }
                values += triple
                continue
            }
            switch first {
            case "TITLE":
                title = line.drop(while: { $0 == " " || $0 == "\t" }).dropFirst(5).trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            case "LUT_3D_SIZE":
                let n = try numbers(1)[0]
                // Range first: Int(n) would trap on 1e30 or NaN (found by make fuzz).
                guard n == n.rounded(), n >= Float(Self.sizes.lowerBound), n <= Float(Self.sizes.upperBound) else {
                    throw .lutUnreadable(path: path, line: lineNumber, reason: "LUT_3D_SIZE must be a whole number from 2 to 65, got \(words.dropFirst().joined(separator: " "))")
                }
                guard size == nil else { throw .lutUnreadable(path: path, line: lineNumber, reason: "LUT_3D_SIZE is given twice") }
                size = Int(n)
            case "LUT_1D_SIZE":
                throw .lutUnreadable(path: path, line: lineNumber, reason: "this is a 1D LUT (LUT_1D_SIZE); only 3D LUTs are supported (use the curves filter for per-channel curves)")
            case "DOMAIN_MIN": lo = try numbers(3)
            case "DOMAIN_MAX": hi = try numbers(3)
            case "LUT_3D_INPUT_RANGE":
                let r = try numbers(2); lo = [r[0], r[0], r[0]]; hi = [r[1], r[1], r[1]]
            case "LUT_1D_INPUT_RANGE": break
            default:
                throw .lutUnreadable(path: path, line: lineNumber, reason: "unknown keyword \"\(first)\" (expected TITLE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX or three numbers)")
            }
        }
        guard let n = size else { throw .lutUnreadable(path: path, line: nil, reason: "no LUT_3D_SIZE line") }
        guard values.count == n * n * n * 3 else {
            throw .lutUnreadable(path: path, line: nil, reason: "LUT_3D_SIZE \(n) needs \(n * n * n) colours, the file has \(values.count / 3)")
        }
        for c in 0..<3 where !(hi[c] > lo[c]) {
            throw .lutUnreadable(path: path, line: nil, reason: "DOMAIN_MAX must be greater than DOMAIN_MIN in every channel")
        }
        self.init(size: n, table: values, domainMin: lo, domainMax: hi, title: title, file: file)
    }

    /// The LUT as `.cube` text.
    package var cubeText: String {
        var s = ""
        if let title { s += "TITLE \"\(title)\"\n" }
        s += "LUT_3D_SIZE \(size)\n"
        if domainMin != [0, 0, 0] { s += "DOMAIN_MIN \(domainMin.map { "\($0)" }.joined(separator: " "))\n" }
        if domainMax != [1, 1, 1] { s += "DOMAIN_MAX \(domainMax.map { "\($0)" }.joined(separator: " "))\n" }
        for i in 0..<(size * size * size) {
            s += String(format: "%.6f %.6f %.6f\n", table[3 * i], table[3 * i + 1], table[3 * i + 2])
        }
        return s
    }

    /// Equal when the tables and domains are (not the title or file).
    public static func == (a: CubeLUT, b: CubeLUT) -> Bool {
        a.size == b.size && a.domainMin == b.domainMin && a.domainMax == b.domainMax && a.table == b.table
    }
    /// Hashes the size, domain and a sample of the table.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size); hasher.combine(domainMin); hasher.combine(domainMax)
        let step = max(1, table.count / 64)
        for i in Swift.stride(from: 0, to: table.count, by: step) { hasher.combine(table[i]) }
    }
}

/// How a 3D LUT is read between its grid points (FFmpeg `lut3d`'s `interp`).
public enum LUTInterpolation: String, Sendable, Hashable, CaseIterable {
    /// Weighted from the eight surrounding points (`interp=trilinear`).
    case trilinear
    /// Weighted from the four corners of the tetrahedron the colour is in (`interp=tetrahedral`, the
    /// usual choice in grading tools: exact on the grey axis).
    case tetrahedral
}

/// Parsed `.cube` files by path and modification date, at most 16.
final class LUTCache: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    static let shared = LUTCache()
    private let lock = NSLock()
    private var entries: [(path: String, modified: Date, lut: CubeLUT)] = []

    func lut(path: String, modified: Date) -> CubeLUT? {
        lock.withLock { entries.first { $0.path == path && $0.modified == modified }?.lut }
    }
    func store(_ lut: CubeLUT, path: String, modified: Date) {
        lock.withLock {
            entries.removeAll { $0.path == path }
            entries.append((path, modified, lut))
            if entries.count > 16 { entries.removeFirst(entries.count - 16) }
        }
    }
}

/// A LUT laid out for lookups: each grid point's colour as four Floats (r, g, b, 0), and per input level
/// (0…255) and channel the offset of the grid cell's lower corner and the fraction towards the next point;
/// and, when every value is within 0…1 (the usual case), the same in whole numbers for `PackedTetrahedralKernel`.
final class LUTGrid: Sendable {
    /// `size`³ colours of four Floats, red index fastest.
    let points: [Float]
    /// 3 × 256 offsets into `points` (red, green, blue): the lower grid index times 4, 4 `size`, 4 `size`².
    let offsets: [Int32]
    /// 3 × 256 fractions (red, green, blue) towards the next grid point, 0…1.
    let fractions: [Float]
    /// `size`³ colours in whole numbers, red index fastest: r, g and b times 8 192 (rounded) in three 21-bit
    /// fields of one word, blue in the lowest bits, then green, then red, so that one multiplication weights
    /// all three and four weighted corners (weights summing to 255) still fit their fields. Nil when a value
    /// is outside 0…1 (beyond a rounding error): such a LUT is read in Float.
    let packedPoints: [UInt64]?
    /// 3 × 256 entries (red, green, blue) for `packedPoints`: the cell's lower grid index times 1, `size`
    /// and `size`² (an offset in points), shifted left 8 bits, plus the weight of the next grid point in
    /// 255ths (0…255). For the usual domain 0…1 the weight is exact: level v lies v × (size − 1) / 255
    /// grid steps in.
    let packedIndex: [UInt32]

    /// The scale of `packedPoints` (2¹³) and the sum that rounds each field's ÷ 2¹³ to nearest.
    static let packedOne = 8192
    static let packedRound: UInt64 = 4096 | 4096 << 21 | 4096 << 42

    init(size n: Int, table: [Float], domainMin: [Float], domainMax: [Float]) {
        var points = [Float](repeating: 0, count: 4 * n * n * n)
        for i in 0..<(n * n * n) { for c in 0..<3 { points[4 * i + c] = table[3 * i + c] } }
        self.points = points
        var offsets = [Int32](), fractions = [Float]()
        offsets.reserveCapacity(768); fractions.reserveCapacity(768)
        for c in 0..<3 {
            let scale = Float(n - 1) / (domainMax[c] - domainMin[c]), step = Int32([4, 4 * n, 4 * n * n][c])
            for v in 0..<256 {
                let x = min(max((Float(v) / 255 - domainMin[c]) * scale, 0), Float(n - 1))
                let i = min(Int32(x), Int32(n - 2))
                offsets.append(i * step); fractions.append(x - Float(i))
            }
        }
        self.offsets = offsets; self.fractions = fractions

        // Whole numbers. A value a little outside 0…1 (a .cube file's 1.000001) is clamped: the change is
        // below 0.03 of a level.
        let slack: Float = 1e-4
        if table.allSatisfy({ $0 >= -slack && $0 <= 1 + slack }) {
            let one = Double(Self.packedOne)
            func q(_ v: Float) -> UInt64 { UInt64((Double(min(max(v, 0), 1)) * one).rounded()) }
            var packed = [UInt64](repeating: 0, count: n * n * n)
            for i in 0..<(n * n * n) { packed[i] = q(table[3 * i + 2]) | q(table[3 * i + 1]) << 21 | q(table[3 * i]) << 42 }
            packedPoints = packed
        } else {
            packedPoints = nil
        }
        var index = [UInt32](repeating: 0, count: 768)
        let usual = domainMin == [0, 0, 0] && domainMax == [1, 1, 1]
        for c in 0..<3 {
            let step = [1, n, n * n][c]
            for v in 0..<256 {
                var i: Int, w: Int
                if usual {
                    (i, w) = (v * (n - 1)).quotientAndRemainder(dividingBy: 255)
                } else {
                    let scale = Double(n - 1) / Double(domainMax[c] - domainMin[c])
                    let x = min(max((Double(v) / 255 - Double(domainMin[c])) * scale, 0), Double(n - 1))
                    i = Int(x); w = Int(((x - Double(i)) * 255).rounded())
                    if w == 255 { i += 1; w = 0 }
                }
                // The last grid point is reached from the cell below it, at weight 1.
                if i > n - 2 { w += 255 * (i - (n - 2)); i = n - 2 }
                index[c * 256 + v] = UInt32(i * step) << 8 | UInt32(w)
            }
        }
        packedIndex = index
    }
}

/// How a colour is read from the eight points of its grid cell, given the fractions (FFmpeg `lut3d`'s
/// corners and weights, summed in its order). `p` is the cell's first point; the next point along red,
/// green, blue is 4, `oG`, `oB` Floats on.
protocol LUTInterpolator {
    static func read(_ p: UnsafePointer<Float>, _ dr: Float, _ dg: Float, _ db: Float, oG: Int, oB: Int) -> (Float, Float, Float)
}

enum TrilinearLUT: LUTInterpolator {
    @inline(__always) static func read(_ p: UnsafePointer<Float>, _ dr: Float, _ dg: Float, _ db: Float, oG: Int, oB: Int) -> (Float, Float, Float) {
        let ur = 1 - dr, ug = 1 - dg, ub = 1 - db
        let w0 = ur * ug * ub, w1 = dr * ug * ub, w2 = ur * dg * ub, w3 = dr * dg * ub
        let w4 = ur * ug * db, w5 = dr * ug * db, w6 = ur * dg * db, w7 = dr * dg * db
        let c2 = oG, c3 = 4 + oG, c4 = oB, c5 = 4 + oB, c6 = oG + oB, c7 = 4 + oG + oB
        var r = p[0] * w0, g = p[1] * w0, b = p[2] * w0
        r += p[4] * w1; g += p[5] * w1; b += p[6] * w1
        r += p[c2] * w2; g += p[c2 + 1] * w2; b += p[c2 + 2] * w2
        r += p[c3] * w3; g += p[c3 + 1] * w3; b += p[c3 + 2] * w3
        r += p[c4] * w4; g += p[c4 + 1] * w4; b += p[c4 + 2] * w4
        r += p[c5] * w5; g += p[c5 + 1] * w5; b += p[c5 + 2] * w5
        r += p[c6] * w6; g += p[c6 + 1] * w6; b += p[c6 + 2] * w6
        r += p[c7] * w7; g += p[c7 + 1] * w7; b += p[c7 + 2] * w7
        return (r, g, b)
    }
}

enum TetrahedralLUT: LUTInterpolator {
    @inline(__always) static func read(_ p: UnsafePointer<Float>, _ dr: Float, _ dg: Float, _ db: Float, oG: Int, oB: Int) -> (Float, Float, Float) {
        // The tetrahedron's two middle corners and the four weights (first corner 000, last 111).
        let c1: Int, c2: Int, w0: Float, w1: Float, w2: Float, w3: Float
        if dr > dg {
            if dg > db { c1 = 4; c2 = 4 + oG; w0 = 1 - dr; w1 = dr - dg; w2 = dg - db; w3 = db }
            else if dr > db { c1 = 4; c2 = 4 + oB; w0 = 1 - dr; w1 = dr - db; w2 = db - dg; w3 = dg }
            else { c1 = oB; c2 = 4 + oB; w0 = 1 - db; w1 = db - dr; w2 = dr - dg; w3 = dg }
        } else {
            if db > dg { c1 = oB; c2 = oG + oB; w0 = 1 - db; w1 = db - dg; w2 = dg - dr; w3 = dr }
            else if db > dr { c1 = oG; c2 = oG + oB; w0 = 1 - dg; w1 = dg - db; w2 = db - dr; w3 = dr }
            else { c1 = oG; c2 = 4 + oG; w0 = 1 - dg; w1 = dg - dr; w2 = dr - db; w3 = db }
        }
        let c3 = 4 + oG + oB
        var r = p[0] * w0, g = p[1] * w0, b = p[2] * w0
        r += p[c1] * w1; g += p[c1 + 1] * w1; b += p[c1 + 2] * w1
        r += p[c2] * w2; g += p[c2 + 1] * w2; b += p[c2 + 2] * w2
        r += p[c3] * w3; g += p[c3 + 1] * w3; b += p[c3 + 2] * w3
        return (r, g, b)
    }
}

/// Tetrahedral interpolation in whole numbers on `LUTGrid.packedPoints`: FFmpeg `lut3d`'s corners and
/// weights (as `TetrahedralLUT`), the weights in 255ths and the colours in 8 192ths, so a pixel costs
/// three table reads, four colour reads and four multiplications (one per corner for all three channels).
/// It gives the Float result rounded, but for values within 0.02 of a level of a half (a level apart then).
struct PackedTetrahedralKernel: ColorKernel {
    let points: UnsafePointer<UInt64>, index: UnsafePointer<UInt32>
    /// Offsets in points of the next grid point along green and blue (along red: 1), and of the far
    /// corner.
    let sG: Int, sB: Int, far: Int
    /// The amount in 4 096ths (4 096: the LUT's colour alone).
    let mix: Int

    init(grid: UnsafePointer<UInt64>, index: UnsafePointer<UInt32>, size n: Int, amount: Float) {
        points = grid; self.index = index
        sG = n; sB = n * n; far = 1 + n + n * n
        mix = Int((min(max(amount, 0), 1) * 4096).rounded())
    }

    /// The three weighted sums for a colour 0x00RRGGBB, each level × 8 192 in its 21-bit field.
    @inline(__always) func sums(_ rgb: UInt32) -> UInt64 {
        let er = index[Int(rgb >> 16 & 255)], eg = index[256 &+ Int(rgb >> 8 & 255)], eb = index[512 &+ Int(rgb & 255)]
        let base = points + Int(er >> 8 &+ eg >> 8 &+ eb >> 8)
        let dr = UInt64(er & 255), dg = UInt64(eg & 255), db = UInt64(eb & 255)
        // FFmpeg's choice of tetrahedron: the corners 000, one step along the largest fraction, then also
        // along the middle one, and 111, weighted by the differences of the sorted fractions. Sorted
        // without branches (selects), since the fractions of a picture's colours change direction from
        // pixel to pixel and a mispredicted branch costs more than the sums. Where two fractions are
        // equal, the corner between them gets weight 0, so the sum is FFmpeg's whichever is taken first.
        let greenOverRed = dg > dr
        let high = greenOverRed ? dg : dr, highStep = greenOverRed ? sG : 1
        let low = greenOverRed ? dr : dg, lowStep = greenOverRed ? 1 : sG
        let blueHighest = db > high, blueOverLow = db > low
        let largest = blueHighest ? db : high, largestStep = blueHighest ? sB : highStep
        let middle = blueHighest ? high : (blueOverLow ? db : low)
        let middleStep = blueHighest ? highStep : (blueOverLow ? sB : lowStep)
        let smallest = blueOverLow ? low : db
        let c1 = largestStep, c2 = largestStep &+ middleStep
        let w0 = 255 &- largest, w1 = largest &- middle, w2 = middle &- smallest, w3 = smallest
        return base[0] &* w0 &+ base[c1] &* w1 &+ base[c2] &* w2 &+ base[far] &* w3
    }

    @inline(__always) func packed(_ rgb: UInt32) -> UInt32 {
        let s = sums(rgb)
        if mix >= 4096 {
            let t = s &+ LUTGrid.packedRound
            return UInt32(truncatingIfNeeded: (t >> 13) & 0xFF) | UInt32(truncatingIfNeeded: (t >> 26) & 0xFF00)
                | UInt32(truncatingIfNeeded: (t >> 39) & 0xFF_0000)
        }
        // in + (lut − in) × amount per channel, in 2²⁵ths of a level.
        @inline(__always) func channel(_ v: UInt32, _ field: UInt64) -> UInt32 {
            let lut = Int(truncatingIfNeeded: field & 0x1F_FFFF), original = Int(v) << 13
            return UInt32(truncatingIfNeeded: (original &* (4096 &- mix) &+ lut &* mix &+ (1 << 24)) >> 25)
        }
        return channel(rgb & 255, s) | channel(rgb >> 8 & 255, s >> 21) << 8 | channel(rgb >> 16 & 255, s >> 42) << 16
    }

    @inline(__always) func callAsFunction(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
        let o = packed(UInt32(truncatingIfNeeded: r) << 16 | UInt32(truncatingIfNeeded: g) << 8 | UInt32(truncatingIfNeeded: b))
        return (Int32(o >> 16), Int32(o >> 8 & 255), Int32(o & 255))
    }
}

extension CubeLUT {
    /// One pixel through the grid, mixed with the original by `mix`.
    struct Kernel<I: LUTInterpolator>: ColorKernel {
        let points: UnsafePointer<Float>, offsets: UnsafePointer<Int32>, fractions: UnsafePointer<Float>
        let oG: Int, oB: Int, mix: Float
        @inline(__always) func callAsFunction(_ r: Int32, _ g: Int32, _ b: Int32) -> (Int32, Int32, Int32) {
            let ri = Int(r), gi = 256 + Int(g), bi = 512 + Int(b)
            var o = I.read(points + Int(offsets[ri] + offsets[gi] + offsets[bi]), fractions[ri], fractions[gi], fractions[bi], oG: oG, oB: oB)
            if mix < 1 {
                let R = Float(r) / 255, G = Float(g) / 255, B = Float(b) / 255
                o.0 = R + (o.0 - R) * mix; o.1 = G + (o.1 - G) * mix; o.2 = B + (o.2 - B) * mix
            }
            return (ColorPixels.level(o.0 * 255), ColorPixels.level(o.1 * 255), ColorPixels.level(o.2 * 255))
        }
    }

    /// Applies the LUT to 8-bit colours, in place on premultiplied BGRA rows, mixed with the original by
    /// `amount` (0…1). The interpolation follows FFmpeg's `lut3d` (same corners and weights): tetrahedral
    /// in whole numbers when the table allows (`LUTGrid.packedPoints`), otherwise in Float32.
    func apply(to image: FilterImage, interpolation: LUTInterpolation, amount: Float) {
        let k = min(max(amount, 0), 1)
        if interpolation == .tetrahedral, let packed = grid.packedPoints {
            packed.withUnsafeBufferPointer { p in grid.packedIndex.withUnsafeBufferPointer { i in
                ColorPixels.map(image, PackedTetrahedralKernel(grid: p.baseAddress!, index: i.baseAddress!, size: size, amount: k))
            } }
            return
        }
        grid.points.withUnsafeBufferPointer { p in grid.offsets.withUnsafeBufferPointer { o in grid.fractions.withUnsafeBufferPointer { f in
            func run<I: LUTInterpolator>(_: I.Type) {
                ColorPixels.map(image, Kernel<I>(points: p.baseAddress!, offsets: o.baseAddress!, fractions: f.baseAddress!,
                                                 oG: 4 * size, oB: 4 * size * size, mix: k))
            }
            switch interpolation {
            case .trilinear: run(TrilinearLUT.self)
            case .tetrahedral: run(TetrahedralLUT.self)
            }
        } } }
    }
}

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
                guard n == n.rounded(), Self.sizes.contains(Int(n)) else {
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
    public var cubeText: String {
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

extension CubeLUT {
    /// Applies the LUT to 8-bit colours, in place on premultiplied BGRA rows, mixed with the original by
    /// `amount` (0…1). The interpolation follows FFmpeg's `lut3d` (same corners and weights, Float32).
    func apply(to image: FilterImage, interpolation: LUTInterpolation, amount: Float) {
        let n = size
        // Per input level: the lower grid index and the fraction towards the next one, per channel.
        var index = [[Int32]](repeating: [], count: 3), frac = [[Float]](repeating: [], count: 3)
        for c in 0..<3 {
            let scale = Float(n - 1) / (domainMax[c] - domainMin[c])
            for v in 0..<256 {
                let x = min(max((Float(v) / 255 - domainMin[c]) * scale, 0), Float(n - 1))
                let i = min(Int32(x), Int32(n - 2))
                index[c].append(i); frac[c].append(x - Float(i))
            }
        }
        let k = min(max(amount, 0), 1)
        table.withUnsafeBufferPointer { lut in
            let L = lut.baseAddress!
            let ir = index[0], ig = index[1], ib = index[2], fr = frac[0], fg = frac[1], fb = frac[2]
            let sg = Int32(n), sb = Int32(n * n)
            ColorPixels.map(image) { r, g, b in
                let i0 = Int(ir[Int(r)] + ig[Int(g)] * sg + ib[Int(b)] * sb) * 3
                let dr = fr[Int(r)], dg = fg[Int(g)], db = fb[Int(b)]
                let oR = 3, oG = Int(sg) * 3, oB = Int(sb) * 3
                var o0: Float = 0, o1: Float = 0, o2: Float = 0
                @inline(__always) func add(_ off: Int, _ w: Float) {
                    o0 += L[i0 + off] * w; o1 += L[i0 + off + 1] * w; o2 += L[i0 + off + 2] * w
                }
                switch interpolation {
                case .trilinear:
                    let ur = 1 - dr, ug = 1 - dg, ub = 1 - db
                    add(0, ur * ug * ub); add(oR, dr * ug * ub); add(oG, ur * dg * ub); add(oR + oG, dr * dg * ub)
                    add(oB, ur * ug * db); add(oR + oB, dr * ug * db); add(oG + oB, ur * dg * db); add(oR + oG + oB, dr * dg * db)
                case .tetrahedral:
                    let c111 = oR + oG + oB
                    if dr > dg {
                        if dg > db {
                            add(0, 1 - dr); add(oR, dr - dg); add(oR + oG, dg - db); add(c111, db)
                        } else if dr > db {
                            add(0, 1 - dr); add(oR, dr - db); add(oR + oB, db - dg); add(c111, dg)
                        } else {
                            add(0, 1 - db); add(oB, db - dr); add(oR + oB, dr - dg); add(c111, dg)
                        }
                    } else {
                        if db > dg {
                            add(0, 1 - db); add(oB, db - dg); add(oG + oB, dg - dr); add(c111, dr)
                        } else if db > dr {
                            add(0, 1 - dg); add(oG, dg - db); add(oG + oB, db - dr); add(c111, dr)
                        } else {
                            add(0, 1 - dg); add(oG, dg - dr); add(oR + oG, dr - db); add(c111, db)
                        }
                    }
                }
                if k < 1 {
                    o0 = Float(r) / 255 + (o0 - Float(r) / 255) * k
                    o1 = Float(g) / 255 + (o1 - Float(g) / 255) * k
                    o2 = Float(b) / 255 + (o2 - Float(b) / 255) * k
                }
                return (ColorPixels.level(o0 * 255), ColorPixels.level(o1 * 255), ColorPixels.level(o2 * 255))
            }
        }
    }
}

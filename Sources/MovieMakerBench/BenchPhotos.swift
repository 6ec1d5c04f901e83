import CJPEG
import Foundation
import Glibc

// The slideshow lines' photos: JPEGs written once into a cache folder with libjpeg and reused by
// every later run (their generation is never timed). The content imitates a photo closely enough
// for JPEG to spend a photo's bits on it: a sky-and-ground gradient, soft shapes, two octaves of
// texture and per-pixel grain, at quality 92 with 4:2:0 chroma, which gives a few MB per 24 MP.

/// One photo of the benchmark set: its stored size and EXIF orientation.
struct BenchPhotoSpec: Hashable, Sendable {
    /// Stored width in pixels (before the orientation).
    let width: Int
    /// Stored height in pixels.
    let height: Int
    /// EXIF orientation: 1 (upright) or 6 (turn 90° clockwise to show: a portrait photo).
    let orientation: Int
    /// Seeds the picture, so every photo looks different.
    let seed: UInt64
    /// File name in the cache folder.
    let name: String

    var megapixels: Double { Double(width * height) / 1_000_000 }

    /// The camera sizes the set mixes (3:2 or 4:3, landscape as stored).
    static let sizes: [Int: (Int, Int)] = [2: (1728, 1152), 8: (3456, 2304), 12: (4000, 3000), 24: (6000, 4000)]

    /// The slideshow line's photo `index` (0-based): per ten photos four of 24 MP (one a portrait,
    /// EXIF orientation 6), three of 12 MP (one a portrait), two of 8 MP and one of 2 MP.
    static func show(_ index: Int) -> BenchPhotoSpec {
        let pattern: [(mp: Int, orientation: Int)] = [(24, 1), (12, 1), (8, 1), (24, 1), (2, 1),
                                                      (12, 6), (24, 6), (8, 1), (24, 1), (12, 1)]
        let p = pattern[index % pattern.count]
        let (w, h) = sizes[p.mp]!
        return BenchPhotoSpec(width: w, height: h, orientation: p.orientation, seed: UInt64(1000 + index),
                              name: String(format: "show-%03d-%dmp%@.jpg", index + 1, p.mp, p.orientation == 6 ? "-portrait" : ""))
    }

    /// The memory line's distinct 24 MP photo `index` (0-based), all landscape.
    static func memory(_ index: Int) -> BenchPhotoSpec {
        let (w, h) = sizes[24]!
        return BenchPhotoSpec(width: w, height: h, orientation: 1, seed: UInt64(5000 + index),
                              name: String(format: "memory-%03d-24mp.jpg", index + 1))
    }
}

/// The folder of generated photos, filled on first use.
struct BenchPhotoFolder {
    /// Where the photos are kept.
    let url: URL
    /// Bump when the generator changes, so old caches are rewritten.
    private static let version = "bench-photos v1: gradient+shapes+texture+grain, q92 4:2:0"

    /// The default cache: `.build/bench-photos` when run from the package (as `make bench` does),
    /// otherwise a folder in the temporary directory.
    static var defaultURL: URL {
        let build = URL(fileURLWithPath: ".build", isDirectory: true)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: build.path, isDirectory: &isFolder), isFolder.boolValue {
            return build.appendingPathComponent("bench-photos", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-photos", isDirectory: true)
    }

    /// The files for `specs`, writing the ones missing (or all, if the cache is from another generator version).
    /// Returns the seconds spent generating (0 when everything was cached).
    func ensure(_ specs: [BenchPhotoSpec]) throws -> (urls: [URL], generationSeconds: Double) {
        let fm = FileManager.default
        try fm.createDirectory(at: url, withIntermediateDirectories: true)
        let stamp = url.appendingPathComponent("VERSION")
        if (try? String(contentsOf: stamp, encoding: .utf8)) != Self.version {
            for name in (try? fm.contentsOfDirectory(atPath: url.path)) ?? [] where name.hasSuffix(".jpg") {
                try? fm.removeItem(at: url.appendingPathComponent(name))
            }
            try Self.version.write(to: stamp, atomically: true, encoding: .utf8)
        }
        let start = wallSeconds()
        let missing = Array(Set(specs.filter { !fm.fileExists(atPath: url.appendingPathComponent($0.name).path) }))
            .sorted { $0.name < $1.name }
        if !missing.isEmpty {
            standardError("… generating \(missing.count) benchmark photo(s) in \(url.path) (once; reused by later runs)")
            // Each photo is written to a temporary name and renamed, so an interrupted run leaves no half file.
            let failures = LockedList()
            DispatchQueue.concurrentPerform(iterations: missing.count) { i in
                let spec = missing[i]
                let final = url.appendingPathComponent(spec.name)
                let partial = url.appendingPathComponent(".\(spec.name).partial")
                if let problem = BenchPhotoWriter.write(spec, to: partial.path) {
                    failures.append("\(spec.name): \(problem)")
                } else if rename(partial.path, final.path) != 0 {
                    failures.append("\(spec.name): rename failed: \(String(cString: strerror(errno)))")
                }
            }
            if let first = failures.items.first { throw BenchError("could not write benchmark photos: \(first)") }
        }
        let generated = missing.isEmpty ? 0 : wallSeconds() - start
        return (specs.map { url.appendingPathComponent($0.name) }, generated)
    }

    /// Total bytes of the files.
    static func bytes(of urls: [URL]) -> Int {
        Set(urls).reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
    }
}

/// A list appended to from several threads.
final class LockedList: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ s: String) { lock.withLock { storage.append(s) } }
    var items: [String] { lock.withLock { storage } }
}

/// A benchmark setup failure (not a MovieMaker error), with the text to show.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes one generated photo with libjpeg, row by row (the picture is never held whole).
enum BenchPhotoWriter {
    /// A small, fast generator (xorshift64*), deterministic per photo.
    struct Random {
        var state: UInt64
        init(_ seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
    }

    /// A soft-edged ellipse of one colour.
    private struct Shape {
        var cx, cy, rx, ry: Double
        var color: (Double, Double, Double)
        var alpha: Double
    }

    /// Writes `spec` as a JPEG file at `path`; returns a problem description, or nil on success.
    static func write(_ spec: BenchPhotoSpec, to path: String) -> String? {
        guard let file = fopen(path, "wb") else { return "cannot create \(path): \(String(cString: strerror(errno)))" }
        defer { fclose(file) }
        let cinfo = UnsafeMutablePointer<jpeg_compress_struct>.allocate(capacity: 1)
        let jerr = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)
        defer { cinfo.deallocate(); jerr.deallocate() }
        cinfo.initialize(to: jpeg_compress_struct())
        cinfo.pointee.err = jpeg_std_error(jerr)
        // libjpeg's default would exit() without a word; writing a local file only fails on a full disk.
        jerr.pointee.error_exit = { _ in fatalError("libjpeg failed writing a benchmark photo (disk full?)") }
        jpeg_CreateCompress(cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        defer { jpeg_destroy_compress(cinfo) }
        jpeg_stdio_dest(cinfo, file)
        let width = spec.width, height = spec.height
        cinfo.pointee.image_width = JDIMENSION(width)
        cinfo.pointee.image_height = JDIMENSION(height)
        cinfo.pointee.input_components = 3
        cinfo.pointee.in_color_space = JCS_RGB
        jpeg_set_defaults(cinfo)
        jpeg_set_quality(cinfo, 92, 1)
        jpeg_start_compress(cinfo, 1)
        let exif = Array("Exif\0\0".utf8) + exifTIFF(orientation: spec.orientation, seed: spec.seed)
        jpeg_write_marker(cinfo, JPEG_APP0 + 1, exif, UInt32(exif.count))

        var rng = Random(spec.seed)
        // The scene: horizon, sky and ground colours, shapes.
        let horizon = rng.range(0.35, 0.65) * Double(height)
        func color(_ r: inout Random, _ lo: Double, _ hi: Double) -> (Double, Double, Double) {
            (r.range(lo, hi), r.range(lo, hi), r.range(lo, hi))
        }
        let skyTop = color(&rng, 40, 140), skyLow = color(&rng, 140, 240)
        let groundHigh = color(&rng, 60, 170), groundLow = color(&rng, 10, 90)
        let w = Double(width), h = Double(height)
        var shapes: [Shape] = []
        for _ in 0..<24 {
            let r = rng.range(0.02, 0.18) * w
            shapes.append(Shape(cx: rng.range(0, w), cy: rng.range(0, h), rx: r * rng.range(0.5, 1.6), ry: r * rng.range(0.5, 1.6),
                                color: color(&rng, 0, 255), alpha: rng.range(0.5, 1)))
        }
        // Texture: two octaves of value noise (a random grid, bilinearly interpolated).
        let octaves: [(cell: Int, amplitude: Double)] = [(160, 36), (14, 14)]
        let grids: [(columns: Int, values: [Double])] = octaves.map { o in
            let columns = width / o.cell + 2, rows = height / o.cell + 2
            return (columns, (0..<(columns * rows)).map { _ in rng.range(-1, 1) * o.amplitude })
        }
        var rowTexture = [Double](repeating: 0, count: width)
        var rowRGB = [Double](repeating: 0, count: width * 3)
        var row = [UInt8](repeating: 0, count: width * 3)
        var grain = Random(spec.seed ^ 0xA5A5_A5A5)

        for y in 0..<height {
            let fy = Double(y)
            // Base gradient.
            let base: (Double, Double, Double)
            if fy < horizon {
                let t = fy / horizon
                base = (skyTop.0 + (skyLow.0 - skyTop.0) * t, skyTop.1 + (skyLow.1 - skyTop.1) * t, skyTop.2 + (skyLow.2 - skyTop.2) * t)
            } else {
                let t = (fy - horizon) / max(1, h - horizon)
                base = (groundHigh.0 + (groundLow.0 - groundHigh.0) * t, groundHigh.1 + (groundLow.1 - groundHigh.1) * t,
                        groundHigh.2 + (groundLow.2 - groundHigh.2) * t)
            }
            for x in 0..<width {
                let tilt = Double(x) / w * 24 - 12
                rowRGB[x * 3] = base.0 + tilt; rowRGB[x * 3 + 1] = base.1 + tilt; rowRGB[x * 3 + 2] = base.2 - tilt
            }
            // Shapes: each covers a span of this row.
            for s in shapes {
                let dy = (fy - s.cy) / s.ry
                guard abs(dy) < 1 else { continue }
                let half = s.rx * (1 - dy * dy).squareRoot()
                let x0 = max(0, Int(s.cx - half)), x1 = min(width - 1, Int(s.cx + half))
                guard x0 <= x1 else { continue }
                for x in x0...x1 {
                    // Soft edge over the outer tenth, and shading across the shape.
                    let dx = (Double(x) - s.cx) / s.rx
                    let d = (dx * dx + dy * dy).squareRoot()
                    let a = s.alpha * min(1, (1 - d) * 10)
                    let shade = 1 - 0.35 * (dx + dy) / 2
                    rowRGB[x * 3] += (s.color.0 * shade - rowRGB[x * 3]) * a
                    rowRGB[x * 3 + 1] += (s.color.1 * shade - rowRGB[x * 3 + 1]) * a
                    rowRGB[x * 3 + 2] += (s.color.2 * shade - rowRGB[x * 3 + 2]) * a
                }
            }
            // Texture.
            for i in 0..<width { rowTexture[i] = 0 }
            for (o, grid) in zip(octaves, grids) {
                let gy = fy / Double(o.cell)
                let r0 = Int(gy), ty = gy - Double(r0)
                for x in 0..<width {
                    let gx = Double(x) / Double(o.cell)
                    let c0 = Int(gx), tx = gx - Double(c0)
                    let a = grid.values[r0 * grid.columns + c0], b = grid.values[r0 * grid.columns + c0 + 1]
                    let c = grid.values[(r0 + 1) * grid.columns + c0], d = grid.values[(r0 + 1) * grid.columns + c0 + 1]
                    rowTexture[x] += (a + (b - a) * tx) * (1 - ty) + (c + (d - c) * tx) * ty
                }
            }
            // Grain: mostly luminance, a little colour, as a camera's sensor noise.
            for x in 0..<width {
                let n = grain.next()
                let luma = Double(Int(n & 31) - 16) * 0.55 + rowTexture[x]
                for c in 0..<3 {
                    let chroma = Double(Int(n >> (8 + 8 * UInt64(c)) & 7) - 4) * 0.5
                    row[x * 3 + c] = UInt8(max(0, min(255, rowRGB[x * 3 + c] + luma + chroma)))
                }
            }
            row.withUnsafeMutableBufferPointer { b in
                var p: JSAMPROW? = b.baseAddress
                _ = jpeg_write_scanlines(cinfo, &p, 1)
            }
        }
        jpeg_finish_compress(cinfo)
        return nil
    }

    /// An EXIF TIFF block (big-endian) with Orientation and DateTimeOriginal, as a camera writes.
    static func exifTIFF(orientation: Int, seed: UInt64) -> [UInt8] {
        var b: [UInt8] = []
        func u16(_ v: Int) { b += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) { b += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        b += Array("MM".utf8)
        u16(42); u32(8)
        u16(2)
        u16(0x0112); u16(3); u32(1); u16(orientation); u16(0)
        let exifIFD = 8 + 2 + 2 * 12 + 4
        u16(0x8769); u16(4); u32(1); u32(exifIFD)
        u32(0)
        let dateAt = exifIFD + 2 + 12 + 4
        u16(1)
        u16(0x9003); u16(2); u32(20); u32(dateAt)
        u32(0)
        let minute = Int(seed % 60), hour = 8 + Int(seed / 60 % 10)
        b += Array(String(format: "2024:07:14 %02d:%02d:00", hour, minute).utf8) + [0]
        return b
    }
}

internal import CCairo
internal import CMovieMakerShim
import Foundation

// Linear-gradient fills, rasterized here and composited by pixman's fast path.
//
// Cairo hands a linear gradient to pixman, which fills it through its general compositing path:
// per pixel it computes the gradient parameter, walks the stops in floating point, writes a
// scanline, then combines it with the shape's coverage in a second pass. On W1 of the peers'
// benchmark (50 gradient-filled shapes and a gradient background a frame) that is about 60 % of the
// drawing time. Here the same colours are written once into a scratch image covering the fill's
// bounding box (a table lookup a pixel), and that image is the fill's source: pixman composites an
// ARGB32 image through a coverage mask with its SIMD fast path.
//
// The table holds what pixman's gradient walker computes (the stops' colours as Cairo passes them,
// 16 bits a channel, interpolated in single precision, premultiplied, rounded the same way) at
// sixteen entries per device pixel of gradient length, so each filled pixel is within one level of
// Cairo's own (tests check it against Cairo, switched on with `GradientFills.native`). Where that cannot be
// promised — a non-OVER operator, a scaled or fractionally offset device, stops sharing a location —
// or where the fill is too small to pay for the table or larger than 4 Mi px (the scratch's bound), the
// fill is Cairo's own.

/// Switches for comparing the rasterized gradient fills against Cairo's own (tests and benchmarks).
package enum GradientFills {
    /// When true, every gradient is filled by Cairo itself (the reference for tests and A/B runs).
    @TaskLocal package static var native = false
    /// Tests set this (for their own task) to count the fills rasterized there.
    @TaskLocal static var rasterized: EventCounter?
}

/// The colours of a linear gradient at evenly spaced parameters, premultiplied ARGB32, as pixman's
/// gradient walker computes them.
struct LinearGradientTable {
    /// A stop as Cairo hands it to pixman: the location in 16.16 fixed point, channels in 16 bits.
    private struct Stop {
        var x: Float          // location, from its 16.16 fixed-point value
        var a, r, g, b: Float // 0…255 (the 16-bit channel ÷ 257, as pixman reads it)
    }
    private let stops: [Stop]

    /// Nil when the stops cannot be matched within a level: fewer than two, or two sharing a location
    /// (a hard edge, which a table would move by a fraction of a pixel).
    init?(_ gradientStops: [GradientStop]) {
        guard gradientStops.count >= 2 else { return nil }
        // Cairo clamps locations and channels to 0…1 and keeps stops sorted, ties in insertion order.
        let sorted = gradientStops.enumerated().map { (min(max($0.element.location, 0), 1), $0.offset, $0.element.color) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        func short(_ v: Double) -> Float { Float(UInt16(min(max(v, 0), 1) * (65536.0 - 1e-5))) / 257 }   // _cairo_color_double_to_short
        func fixed(_ v: Double) -> Float { Float((v * 65536).rounded()) / 65536 }
        var stops: [Stop] = []
        for (location, _, color) in sorted {
            let x = fixed(location)
            if let last = stops.last, last.x >= x { return nil }
            stops.append(Stop(x: x, a: short(color.alpha), r: short(color.red), g: short(color.green), b: short(color.blue)))
        }
        self.stops = stops
    }

    /// Writes `count` entries (at least 2) for parameters 0, 1 ⁄ (count − 1), …, 1 into `table`.
    func fill(_ table: UnsafeMutablePointer<UInt32>, count: Int) {
        let last = Float(count - 1)
        var segment = 0   // stops[segment] ≤ t < stops[segment + 1] inside the stops' span
        for i in 0..<count {
            let t = Float(i) / last
            let a, r, g, b: Float
            if t < stops[0].x || t >= stops[stops.count - 1].x {
                // Outside the stops pixman pads with the end stop: a constant colour.
                let s = t < stops[0].x ? stops[0] : stops[stops.count - 1]
                a = s.a; r = a * (s.r / 255); g = a * (s.g / 255); b = a * (s.b / 255)
            } else {
                while t >= stops[segment + 1].x { segment += 1 }
                let l = stops[segment], h = stops[segment + 1]
                let w = 1 / (h.x - l.x)
                let aS = (h.a - l.a) * w, aB = (l.a * h.x - h.a * l.x) * w
                func channel(_ lc: Float, _ hc: Float) -> Float {
                    ((hc - lc) * w * (1 / 255)) * t + (lc * h.x - hc * l.x) * w * (1 / 255)
                }
                a = aS * t + aB
                r = a * channel(l.r, h.r); g = a * channel(l.g, h.g); b = a * channel(l.b, h.b)
            }
            func byte(_ v: Float) -> UInt32 { UInt32(min(max(v + 0.5, 0), 255)) }
            table[i] = byte(a) << 24 | byte(r) << 16 | byte(g) << 8 | byte(b)
        }
    }
}

/// The memory a drawing context rasterizes gradients into: a pixel buffer that grows to the largest
/// fill's bounding box (at most `DrawingContext.largestRasterizedGradientArea` pixels, 16 MiB) and a
/// table, both kept for the next fill and freed with the context.
final class GradientScratch {
    /// Owned: allocated here, freed when grown and in deinit.
    private var pixelStorage: (pointer: UnsafeMutableRawPointer, bytes: Int)?
    private var tableStorage: (pointer: UnsafeMutablePointer<UInt32>, count: Int)?

    deinit {
        pixelStorage?.pointer.deallocate()
        tableStorage?.pointer.deallocate()
    }

    /// A buffer of at least `bytes`, 64-byte aligned (its contents are not kept).
    func pixels(bytes: Int) -> UnsafeMutableRawPointer {
        if let pixelStorage, pixelStorage.bytes >= bytes { return pixelStorage.pointer }
        pixelStorage?.pointer.deallocate()
        let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        pixelStorage = (p, bytes)
        return p
    }

    /// A table of at least `count` entries (its contents are not kept).
    func table(count: Int) -> UnsafeMutablePointer<UInt32> {
        if let tableStorage, tableStorage.count >= count { return tableStorage.pointer }
        tableStorage?.pointer.deallocate()
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        tableStorage = (p, count)
        return p
    }
}

extension DrawingContext {
    /// The smallest bounding box (in pixels) worth a table: below it Cairo's own fill is as fast.
    static let smallestRasterizedGradientArea = 32 * 32
    /// Table entries per device pixel of gradient length: the colour between neighbouring entries
    /// changes by at most 1⁄16 of what it changes across a pixel.
    static let gradientEntriesPerPixel = 16.0
    /// The most table entries (a gradient longer than 1024 pixels gets fewer than 16 a pixel).
    static let gradientTableLimit = 16_384
    /// The largest bounding box (in pixels) rasterized: 4 Mi px, a 16 MiB scratch image at most per
    /// drawing context (a full 1080p frame fits; a full 4K frame's fill is left to Cairo).
    static let largestRasterizedGradientArea = 4 << 20

    /// Sets as the source an image holding the linear gradient over the current path's bounding box,
    /// pixel for pixel what Cairo's gradient would put there (within a level), and returns true; or
    /// returns false and sets nothing when the fill is better left to Cairo (see the file's comment).
    func setRasterizedLinearGradientSource(start: Point, end: Point, stops: [GradientStop], scratch: GradientScratch) -> Bool {
        guard !GradientFills.native, cairo_get_operator(cr) == CAIRO_OPERATOR_OVER,
              let gradient = LinearGradientTable(stops) else { return false }
        let dx = end.x - start.x, dy = end.y - start.y, length2 = dx * dx + dy * dy
        guard length2 > 0, length2.isFinite else { return false }

        // The target must be an image whose pixels are the device grid, one to one.
        let target = cairo_get_group_target(cr)
        guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else { return false }
        let format = cairo_image_surface_get_format(target)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { return false }
        var scaleX = 0.0, scaleY = 0.0, offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_scale(target, &scaleX, &scaleY)
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        guard scaleX == 1, scaleY == 1, offsetX == offsetX.rounded(), offsetY == offsetY.rounded() else { return false }

        // The device-space box the fill can touch: the path's (control points included), the clip's and the target's.
        func deviceBox(_ extents: (OpaquePointer, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>) -> Void)
            -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
            var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
            extents(cr, &x0, &y0, &x1, &y1)
            var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
            for (ux, uy) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                var x = ux, y = uy
                cairo_user_to_device(cr, &x, &y)
                box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
            }
            return box
        }
        let path = deviceBox { cairo_path_extents($0, $1, $2, $3, $4) }
        let clip = deviceBox { cairo_clip_extents($0, $1, $2, $3, $4) }
        let left = max(path.minX, clip.minX, -offsetX), top = max(path.minY, clip.minY, -offsetY)
        let right = min(path.maxX, clip.maxX, Double(cairo_image_surface_get_width(target)) - offsetX)
        let bottom = min(path.maxY, clip.maxY, Double(cairo_image_surface_get_height(target)) - offsetY)
        guard left.isFinite, top.isFinite, right.isFinite, bottom.isFinite, right > left, bottom > top else { return false }
        let x0 = Int(left.rounded(.down)), y0 = Int(top.rounded(.down))
        let width = Int(right.rounded(.up)) - x0, height = Int(bottom.rounded(.up)) - y0
        guard width * height >= Self.smallestRasterizedGradientArea, width * height <= Self.largestRasterizedGradientArea else { return false }

        // The gradient parameter is affine in device space: t at the first pixel's centre and its steps.
        func parameter(_ x: Double, _ y: Double) -> Double {
            var ux = x, uy = y
            cairo_device_to_user(cr, &ux, &uy)
            return ((ux - start.x) * dx + (uy - start.y) * dy) / length2
        }
        let t0 = parameter(Double(x0) + 0.5, Double(y0) + 0.5)
        let stepX = parameter(Double(x0) + 1.5, Double(y0) + 0.5) - t0
        let stepY = parameter(Double(x0) + 0.5, Double(y0) + 1.5) - t0
        let perPixel = (stepX * stepX + stepY * stepY).squareRoot()
        guard t0.isFinite, perPixel.isFinite else { return false }
        let entries = perPixel > 0 ? min(max(Int((Self.gradientEntriesPerPixel / perPixel).rounded(.up)), 64), Self.gradientTableLimit) : 64
        let table = scratch.table(count: entries)
        gradient.fill(table, count: entries)

        // The image: one table entry a pixel (nearest), parameters outside 0…1 padded with the ends.
        let stride = width * 4
        let pixels = scratch.pixels(bytes: stride * height)
        let scale = Double(entries - 1), highest = scale
        let rowStep = stepY * scale, columnStep = stepX * scale
        // In C (the shim's gradient.c): a loop over every pixel, slow in Swift's debug builds.
        mm_gradient_rows(pixels.assumingMemoryBound(to: UInt8.self), stride, Int32(width), Int32(height), table,
                         highest, t0 * scale + 0.5, rowStep, columnStep)

        guard let image = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                              Int32(width), Int32(height), Int32(stride)) else { return false }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let pattern = cairo_pattern_create_for_surface(image) else { return false }
        defer { cairo_pattern_destroy(pattern) }
        // User space → the image's pixels: the CTM, then the box's corner to the origin.
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        matrix.x0 -= Double(x0)
        matrix.y0 -= Double(y0)
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
        cairo_set_source(cr, pattern)
        GradientFills.rasterized?.add()
        return true
    }
}

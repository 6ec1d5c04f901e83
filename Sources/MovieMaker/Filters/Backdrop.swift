internal import CCairo
import Foundation

/// The `backdrop` filter: what the layer holds, enlarged to cover the frame and blurred, drawn behind it.
enum Backdrop {
    /// Fills `image` behind its content with the content's bounding box scaled to cover the image and
    /// blurred by `radius` pixels. A layer that is empty, or already opaque edge to edge, is unchanged.
    static func apply(radius: Double, to image: FilterImage) throws(MovieMakerError) {
        // The bounding box of pixels with any alpha.
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        for y in 0..<image.height {
            let row = image.row(y)
            var first = -1, last = -1
            for x in 0..<image.width where row[4 * x + 3] != 0 { if first < 0 { first = x }; last = x }
            if first >= 0 { minX = min(minX, first); maxX = max(maxX, last); minY = min(minY, y); maxY = y }
        }
        guard maxX >= 0 else { return }
        let boxW = Double(maxX - minX + 1), boxH = Double(maxY - minY + 1)
        let opaque = minX == 0 && minY == 0 && maxX == image.width - 1 && maxY == image.height - 1
        if opaque {
            // Covered edge to edge: only transparent holes inside would show a backdrop; none to fill
            // unless some pixel is not opaque.
            var anyClear = false
            for y in 0..<image.height where !anyClear {
                let row = image.row(y)
                for x in 0..<image.width where row[4 * x + 3] != 255 { anyClear = true; break }
            }
            if !anyClear { return }
        }
        let w = image.width, h = image.height
        let source = cairo_image_surface_create_for_data(image.data, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(image.stride))!
        defer { cairo_surface_destroy(source) }
        // Drawn on a surface padded by the blur's reach (edge pixels extended), so the frame's edges do
        // not fade towards transparent.
        let blur = GaussianBlur(radius: min(max(radius, 0), GaussianBlur.maximumRadius))
        let pad = blur.extent + 1
        let back = try CairoSurface(width: w + 2 * pad, height: h + 2 * pad)
        let cr = cairo_create(back.pointer)!
        // Cover: the box scaled by the larger ratio, centred.
        let s = max(Double(w) / boxW, Double(h) / boxH)
        cairo_translate(cr, Double(pad) + Double(w) / 2, Double(pad) + Double(h) / 2)
        cairo_scale(cr, s, s)
        cairo_translate(cr, -(Double(minX) + boxW / 2), -(Double(minY) + boxH / 2))
        // Only the box's pixels are sampled (a sub-surface), extended beyond its edges.
        let box = cairo_surface_create_for_rectangle(source, Double(minX), Double(minY), boxW, boxH)!
        defer { cairo_surface_destroy(box) }
        cairo_set_source_surface(cr, box, Double(minX), Double(minY))
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        back.flush()
        blur.apply(to: back.data, width: w + 2 * pad, height: h + 2 * pad, stride: back.stride, channels: 4)
        back.markDirty()
        let top = cairo_create(back.pointer)!
        cairo_set_source_surface(top, source, Double(pad), Double(pad))
        cairo_paint(top)
        cairo_destroy(top)
        back.flush()
        cairo_surface_mark_dirty(source)
        for y in 0..<h { (image.row(y)).update(from: back.data + (y + pad) * back.stride + 4 * pad, count: w * 4) }
    }
}

import CCairo
import Foundation
import MovieMaker

/// Frames as PNG bytes in memory, optionally scaled down, with Cairo (the library that drew them).
enum PNGEncoding {
    /// Collects what `cairo_surface_write_to_png_stream` writes.
    private final class Sink {
        /// The PNG so far.
        var data = Data()
    }

    /// `pixels` (premultiplied BGRA, as a `Canvas` holds them) as a PNG of `width`×`height` pixels: the
    /// same pixels when the size is the buffer's, otherwise scaled with Cairo's good filter.
    static func png(_ pixels: PixelBuffer, width: Int, height: Int) throws -> Data {
        let w = Int32(pixels.width), h = Int32(pixels.height)
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, w)
        guard let source = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else { throw StudioFailure.internal("no surface") }
        defer { cairo_surface_destroy(source) }
        guard cairo_surface_status(source) == CAIRO_STATUS_SUCCESS, let base = cairo_image_surface_get_data(source) else {
            throw StudioFailure.internal("could not make a \(w)x\(h) surface")
        }
        cairo_surface_flush(source)
        pixels.bytes.withUnsafeBufferPointer { src in
            for y in 0..<pixels.height {
                (base + y * Int(stride)).update(from: src.baseAddress! + y * pixels.width * 4, count: pixels.width * 4)
            }
        }
        cairo_surface_mark_dirty(source)
        var output = source
        var scaled: OpaquePointer?
        if width != pixels.width || height != pixels.height {
            guard let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
                throw StudioFailure.internal("no surface")
            }
            scaled = target
            let cr = cairo_create(target)
            cairo_scale(cr, Double(width) / Double(pixels.width), Double(height) / Double(pixels.height))
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_flush(target)
            output = target
        }
        defer { if let scaled { cairo_surface_destroy(scaled) } }
        let sink = Sink()
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        let status = cairo_surface_write_to_png_stream(output, { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, box.toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw StudioFailure.internal("PNG encoding failed: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.data
    }
}

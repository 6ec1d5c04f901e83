internal import CCairo
import Foundation

/// Throws `.cairo` when `status` is not success.
func cairoCheck(_ status: cairo_status_t, _ operation: @autoclosure () -> String) throws(MovieMakerError) {
    if status != CAIRO_STATUS_SUCCESS {
        throw .cairo(operation: operation(), message: String(cString: cairo_status_to_string(status)))
    }
}

/// Owns one Cairo image surface: premultiplied ARGB32 pixels, stored B, G, R, A in memory on
/// little-endian machines (FFmpeg's `bgra`).
final class CairoSurface {
    let pointer: OpaquePointer   // owned cairo_surface_t
    let width: Int
    let height: Int

    /// A new transparent surface; `format` is ARGB32 unless asked otherwise (A8 for alpha masks).
    init(width: Int, height: Int, format: cairo_format_t = CAIRO_FORMAT_ARGB32) throws(MovieMakerError) {
        let s = cairo_image_surface_create(format, Int32(width), Int32(height))!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            try cairoCheck(status, "cairo_image_surface_create (\(width)×\(height))")
        }
        pointer = s; self.width = width; self.height = height
    }
    /// A new transparent ARGB32 surface whose pixels are a memory mapping of their own (`MappedMemory`),
    /// unmapped by Cairo when the surface is destroyed: for large pictures made on one thread and
    /// dropped on another (decoded photos), whose memory must go back to the system at once.
    init(mappedWidth width: Int, height: Int) throws(MovieMakerError) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        let byteCount = stride * height
        guard stride > 0, let memory = MappedMemory.allocate(byteCount: byteCount) else {
            throw .cairo(operation: "mmap for a \(width)×\(height) surface", message: "out of memory")
        }
        let s = cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                    Int32(width), Int32(height), Int32(stride))!
        // The mapping's address and size, freed with the surface by `unmapSurfacePixels`.
        let mapping = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        mapping[0] = Int(bitPattern: memory); mapping[1] = byteCount
        let status = cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
            ? cairo_surface_set_user_data(s, mappedPixelsKey, mapping, unmapSurfacePixels) : cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            mapping.deallocate()
            MappedMemory.deallocate(memory, byteCount: byteCount)
            try cairoCheck(status, "cairo_image_surface_create_for_data (\(width)×\(height))")
        }
        pointer = s; self.width = width; self.height = height
    }
    /// Takes ownership of a surface Cairo created (after its status was checked).
    init(adopting s: OpaquePointer) {
        pointer = s
        width = Int(cairo_image_surface_get_width(s)); height = Int(cairo_image_surface_get_height(s))
    }
    /// Bytes per row.
    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }
    /// The pixels, valid until the surface is drawn to again; call `flush()` first.
    var data: UnsafeMutablePointer<UInt8> { cairo_image_surface_get_data(pointer) }
    /// Finishes pending drawing so `data` is up to date.
    func flush() { cairo_surface_flush(pointer) }
    /// Tells Cairo the pixels were changed directly.
    func markDirty() { cairo_surface_mark_dirty(pointer) }
    /// Makes this surface's pixels a copy of `other`'s (same size and stride: made alike).
    func copyPixels(from other: CairoSurface) {
        precondition(other.stride == stride && other.height == height, "copyPixels between surfaces of different layouts")
        other.flush(); flush()
        data.update(from: other.data, count: stride * height)
        markDirty()
    }
    /// Whether every pixel of this ARGB32 surface has alpha 255 (one pass over the pixels).
    func isOpaque() -> Bool {
        if cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_RGB24 { return true }
        guard cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_ARGB32 else { return false }
        flush()
        let base = UnsafeRawPointer(data), stride = self.stride
        for y in 0..<height {
            let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
            var all: UInt32 = 0xFF00_0000
            for x in 0..<width { all &= row[x] }
            if all & 0xFF00_0000 != 0xFF00_0000 { return false }
        }
        return true
    }
    deinit { cairo_surface_destroy(pointer) }
}

/// The key under which a mapped surface keeps its mapping (only its address matters to Cairo). A
/// global Cairo reads and never writes: `nonisolated(unsafe)` because Swift cannot see that.
nonisolated(unsafe) private let mappedPixelsKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

/// Cairo's destroy callback for a mapped surface's pixels: unmaps them and frees the record.
private func unmapSurfacePixels(_ data: UnsafeMutableRawPointer?) {
    guard let mapping = data?.assumingMemoryBound(to: Int.self) else { return }
    if let memory = UnsafeMutableRawPointer(bitPattern: mapping[0]) { MappedMemory.deallocate(memory, byteCount: mapping[1]) }
    mapping.deallocate()
}

import CCairo
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
    deinit { cairo_surface_destroy(pointer) }
}

/// A picture loaded from a PNG file, ready to be drawn any number of times.
public final class Image: @unchecked Sendable {
    // @unchecked: the surface is never drawn into after loading; Cairo allows reading one image
    // surface as a source from several threads.
    let surface: CairoSurface
    /// Width in pixels.
    public var width: Int { surface.width }
    /// Height in pixels.
    public var height: Int { surface.height }
    /// The picture's size.
    public var size: Size { Size(width: Double(width), height: Double(height)) }

    /// Loads a PNG file; throws `.imageUnreadable` naming the file and Cairo's reason.
    public init(contentsOf url: URL) throws(MovieMakerError) {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .imageUnreadable(path: url.path, reason: "no such file")
        }
        let s = cairo_image_surface_create_from_png(url.path)!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            throw .imageUnreadable(path: url.path, reason: String(cString: cairo_status_to_string(status)) + " (MovieMaker reads PNG here)")
        }
        surface = CairoSurface(adopting: s)
    }

    /// Takes a surface nothing else draws into any more (decoded photos).
    init(surface: CairoSurface) {
        self.surface = surface
    }

    /// A copy of a buffer's pixels as an image.
    public init(_ pixels: PixelBuffer) throws(MovieMakerError) {
        surface = try CairoSurface(width: pixels.width, height: pixels.height)
        surface.flush()
        pixels.bytes.withUnsafeBufferPointer { src in
            for y in 0..<pixels.height {
                (surface.data + y * surface.stride).update(from: src.baseAddress! + y * pixels.width * 4, count: pixels.width * 4)
            }
        }
        surface.markDirty()
    }

    /// Writes the image as a PNG file.
    public func writePNG(to url: URL) throws(MovieMakerError) {
        try cairoCheck(cairo_surface_write_to_png(surface.pointer, url.path), "cairo_surface_write_to_png (\(url.path))")
    }
}

/// A copy of drawn pixels: premultiplied BGRA, 4 bytes a pixel, rows packed without padding.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// B, G, R, A bytes row by row.
    public var bytes: [UInt8]

    /// Creates a buffer from packed BGRA bytes (`bytes.count` must be width × height × 4).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "expected \(width * height * 4) bytes, got \(bytes.count)")
        self.width = width; self.height = height; self.bytes = bytes
    }
    /// The colour at a pixel, as 8-bit (red, green, blue, alpha).
    public func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let i = (y * width + x) * 4
        return (bytes[i + 2], bytes[i + 1], bytes[i], bytes[i + 3])
    }
    /// Copies a Cairo surface's visible pixels.
    init(surface: CairoSurface, width: Int, height: Int) {
        surface.flush()
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                (dst.baseAddress! + y * width * 4).update(from: surface.data + y * surface.stride, count: width * 4)
            }
        }
        self.init(width: width, height: height, bytes: out)
    }
}

/// A TrueType/OpenType font loaded from a file with FreeType, at a size in pixels.
public final class Font: @unchecked Sendable {
    // @unchecked: a cairo font face is reference-counted and immutable once created.
    let face: OpaquePointer      // owned cairo_font_face_t; it owns the FT_Face (see FreeTypeFaces)
    /// The file the font came from.
    public let url: URL
    /// Size in pixels (the em height).
    public let size: Double

    /// Loads the font file at `url` (`.ttf`, `.otf`, `.ttc` face 0); throws `.fontUnreadable` when FreeType cannot.
    public init(contentsOf url: URL, size: Double) throws(MovieMakerError) {
        guard size > 0, size.isFinite else { throw .invalidSetting(.fontSize, value: "\(size)", expected: "a positive number of pixels") }
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fontUnreadable(path: url.path, reason: "no such file") }
        self.face = try FreeTypeFaces.makeCairoFace(path: url.path)
        self.url = url; self.size = size
    }
    private init(face: OpaquePointer, url: URL, size: Double) {
        cairo_font_face_reference(face)
        self.face = face; self.url = url; self.size = size
    }
    /// The same face at another size (no reload).
    public func withSize(_ size: Double) -> Font { Font(face: face, url: url, size: size) }

    /// DejaVu Sans, the font the set-up script installs, at `size` pixels.
    public static func dejaVuSans(size: Double) throws(MovieMakerError) -> Font {
        try Font(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), size: size)
    }
    deinit { cairo_font_face_destroy(face) }
}

internal import CCairo
import Foundation

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

    /// Loads a PNG file; throws `.imageUnreadable` naming the file and Cairo's reason. For a JPEG, HEIC,
    /// WebP or any photo (turned upright, colour-managed), use `PhotoDecoder.decode(url).image`.
    public init(contentsOf url: URL) throws(MovieMakerError) {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .imageUnreadable(path: url.path, reason: "no such file")
        }
        let s = cairo_image_surface_create_from_png(url.path)!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            throw .imageUnreadable(path: url.path, reason: String(cString: cairo_status_to_string(status)) + " (Image(contentsOf:) reads PNG; for a JPEG, HEIC or WebP use PhotoDecoder.decode(url).image)")
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

    /// A copy of the image's pixels (premultiplied BGRA).
    public func pixels() -> PixelBuffer { PixelBuffer(surface: surface, width: width, height: height) }

    /// Writes the image as a PNG file.
    public func writePNG(to url: URL) throws(MovieMakerError) {
        try cairoCheck(cairo_surface_write_to_png(surface.pointer, url.path), "cairo_surface_write_to_png (\(url.path))")
    }
}

import Foundation
internal import CCairo

/// An offscreen picture to draw into with a `DrawingContext`, for stills, tests and images to reuse.
public final class Canvas {
    // Not Sendable: a canvas is drawn by one thread at a time.
    let surface: CairoSurface
    /// The drawing context over this canvas's pixels.
    public let context: DrawingContext
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// A transparent canvas of `width`×`height` pixels.
    public convenience init(width: Int, height: Int) throws(MovieMakerError) {
        guard width >= 1, height >= 1 else { throw .invalidSize(width: width, height: height) }
        try self.init(width: width, height: height, encodedWidth: width, encodedHeight: height)
    }
    /// A canvas whose pixel buffer is larger than its drawable area (padding for odd video sizes).
    init(width: Int, height: Int, encodedWidth: Int, encodedHeight: Int) throws(MovieMakerError) {
        surface = try CairoSurface(width: encodedWidth, height: encodedHeight)
        self.width = width; self.height = height
        context = try DrawingContext(surface: surface, width: width, height: height)
    }

    /// Draws with `body` (state changes are undone afterwards) and reports Cairo errors.
    public func draw(_ body: (DrawingContext) throws -> Void) throws {
        try context.withSavedState { try body(context) }
        try context.checkStatus()
    }
    /// A copy of the pixels.
    public func pixels() -> PixelBuffer { PixelBuffer(surface: surface, width: width, height: height) }
    /// A copy of the pixels as an `Image` to draw elsewhere.
    public func makeImage() throws(MovieMakerError) -> Image { try Image(pixels()) }
    /// Writes the canvas as a PNG file.
    public func writePNG(to url: URL) throws(MovieMakerError) {
        surface.flush()
        try cairoCheck(cairo_surface_write_to_png(surface.pointer, url.path), "cairo_surface_write_to_png (\(url.path))")
    }
}

/// Carries a non-Sendable value into concurrent code whose caller guarantees exclusive use per
/// element (MovieMaker's parallel clip drawing gives each iteration its own canvas).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

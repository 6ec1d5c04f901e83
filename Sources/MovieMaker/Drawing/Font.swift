internal import CCairo
import Foundation

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

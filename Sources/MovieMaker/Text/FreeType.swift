internal import CCairo
internal import CFreeType
import Foundation
import Synchronization

/// The process's FreeType library and the bridge from a font file to a Cairo font face.
///
/// Ownership: `makeCairoFace` creates an FT_Face and a cairo face over it, and attaches the FT_Face
/// to the cairo face as user data with a destroy callback, so the cairo face (owned by `Font`) is
/// the FT_Face's single owner: it calls FT_Done_Face when its last reference goes.
enum FreeTypeFaces {
    /// FT_Library is not thread-safe for FT_New_Face/FT_Done_Face; this lock serialises them.
    private static let library = Mutex<FT_Library?>(nil)
    // nonisolated(unsafe): only its address is used, as Cairo's user-data key; nothing reads or writes it.
    nonisolated(unsafe) private static let faceKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    static func makeCairoFace(path: String) throws(MovieMakerError) -> OpaquePointer {
        let result: Result<OpaquePointer, MovieMakerError> = library.withLock { lib in
            if lib == nil {
                var l: FT_Library? = nil
                let e = FT_Init_FreeType(&l)
                guard e == 0, l != nil else { return .failure(.fontUnreadable(path: path, reason: "FreeType failed to start (error \(e))")) }
                lib = l
            }
            var ftFace: FT_Face? = nil
            let e = FT_New_Face(lib, path, 0, &ftFace)
            guard e == 0, let ftFace else {
                return .failure(.fontUnreadable(path: path, reason: "FreeType error \(e): not a font file FreeType can read"))
            }
            let cface = cairo_ft_font_face_create_for_ft_face(ftFace, 0)!
            let status = cairo_font_face_set_user_data(cface, faceKey, UnsafeMutableRawPointer(ftFace)) { raw in
                FreeTypeFaces.doneFace(raw)
            }
            if status != CAIRO_STATUS_SUCCESS {
                cairo_font_face_destroy(cface)
                FT_Done_Face(ftFace)
                return .failure(.fontUnreadable(path: path, reason: String(cString: cairo_status_to_string(status))))
            }
            return .success(cface)
        }
        return try result.get()
    }

    /// Cairo's destroy callback for the FT_Face attached to a font face.
    private static func doneFace(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        library.withLock { _ in _ = FT_Done_Face(raw.assumingMemoryBound(to: FT_FaceRec_.self)) }
    }
}

internal import CFFmpeg
internal import CMovieMakerShim

/// Owns the scratch rows of MovieMaker's own BGRA → yuv420p conversion (`mm_bgra_to_yuv420p`,
/// Sources/CMovieMakerShim/pixel_conversion.c): BT.709 limited range with the chroma filter swscale's
/// bicubic accurate path uses, within one level of it on every pixel at about half its cost.
///
/// Only for opaque yuv420p output of an even size of at least 16×16; `init` returns nil otherwise and
/// swscale converts. One per drawing lane: a conversion rewrites the scratch.
final class YUV420Conversion {
    /// The scratch (owned: freed in `deinit`).
    private let scratch: OpaquePointer
    /// The picture size it converts.
    let width: Int, height: Int

    /// A conversion for `width`×`height` pictures, or nil for a size it does not handle.
    init?(width: Int, height: Int) {
        guard let s = mm_yuv420_scratch_create(Int32(width), Int32(height)) else { return nil }
        scratch = s
        self.width = width; self.height = height
    }

    /// Converts `height` rows of BGRA at `source` (`stride` bytes apart) into `frame`'s three planes.
    /// `withoutAVX2` takes the portable path, which gives the same bytes (a test checks it).
    func convert(from source: UnsafePointer<UInt8>, stride: Int, into frame: UnsafeMutablePointer<AVFrame>, withoutAVX2: Bool = false) {
        let f = frame.pointee
        let convert = withoutAVX2 ? mm_bgra_to_yuv420p_generic : mm_bgra_to_yuv420p
        convert(scratch, source, stride, f.data.0, Int(f.linesize.0), f.data.1, Int(f.linesize.1), f.data.2, Int(f.linesize.2))
    }

    /// Whether this CPU takes the AVX2 path.
    static var hasAVX2: Bool { mm_has_avx2() != 0 }

    deinit { mm_yuv420_scratch_free(scratch) }
}

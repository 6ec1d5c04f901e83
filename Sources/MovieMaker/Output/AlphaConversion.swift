internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// Premultiplied ↔ straight alpha on 8-bit BGRA pixels.
///
/// Cairo stores colour premultiplied by alpha (a half-transparent red is 128, 0, 0, 128); swscale,
/// video codecs' alpha planes and PNG files all mean straight colour (255, 0, 0, 128). Converting
/// without this step would darken every soft edge and translucent fill.
enum AlphaConversion {
    /// `unpremultiplyTable[a << 8 | c]` = round(c × 255 / a) clamped to 255, the same rounding as
    /// Cairo's PNG writer; a = 0 gives 0. 64 KiB, built once.
    static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 { table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return table
    }()

    /// Writes `source`'s premultiplied BGRA rows into `destination` as straight BGRA.
    static func unpremultiply(_ source: UnsafePointer<UInt8>, sourceStride: Int,
                              into destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
                              width: Int, height: Int) {
        unpremultiplyTable.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            for y in 0..<height {
                let src = source + y * sourceStride, dst = destination + y * destinationStride
                for x in 0..<width {
                    let i = x * 4
                    let a = src[i + 3]
                    if a == 255 {
                        dst[i] = src[i]; dst[i + 1] = src[i + 1]; dst[i + 2] = src[i + 2]; dst[i + 3] = 255
                    } else if a == 0 {
                        dst[i] = 0; dst[i + 1] = 0; dst[i + 2] = 0; dst[i + 3] = 0
                    } else {
                        let row = t + Int(a) << 8
                        dst[i] = row[Int(src[i])]; dst[i + 1] = row[Int(src[i + 1])]; dst[i + 2] = row[Int(src[i + 2])]
                        dst[i + 3] = a
                    }
                }
            }
        }
    }

    /// Premultiplies `count` straight BGRA pixels in place: c × a / 255, rounded.
    static func premultiply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        for p in 0..<count {
            let i = p * 4
            let a = UInt32(pixels[i + 3])
            if a == 255 { continue }
            for k in 0..<3 { pixels[i + k] = UInt8((UInt32(pixels[i + k]) * a + 127) / 255) }
        }
    }
}

/// Which code converts opaque BGRA into yuv420p: MovieMaker's own (the default) or swscale's accurate
/// path it was measured against (for the test and the benchmark that compare them).
package enum YUVConversionMethod: Sendable { case standard, swscale }

/// Turns a drawn Cairo surface (premultiplied BGRA) into an encoder's frame: BT.709 limited range for
/// YUV, a plain reordering for RGB. Opaque yuv420p (the usual H.264 output) goes through
/// `YUV420Conversion`, the rest through swscale. When the output keeps alpha, the surface is first
/// unpremultiplied into a buffer allocated once, so converting allocates nothing per frame.
final class FrameConverter {

    /// swscale flags for BGRA → yuv420p: accurate rounding, full-resolution chroma input and a bicubic
    /// chroma filter: on vector art, bicubic chroma decimation keeps colours closer than bilinear after a
    /// round trip, within a level or two of what was drawn.
    static let scalerFlags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP

    private let scaler: OwnedScaler?
    private let yuv420: YUV420Conversion?
    private let straight: UnsafeMutableRawPointer?   // owned: freed in deinit; nil for opaque output
    private let straightStride: Int
    private let width: Int, height: Int
    /// The encoder's pixel format and whether it keeps alpha.
    private let format: AVPixelFormat, alpha: Bool
    /// A reference to the decoded video frame a passed-through frame is copied from, between
    /// `holdVideoFrame` (before an encoder frame is reserved) and `copyHeldVideoFrame` (owned).
    private var held: OwnedFrame?
    /// In a crossfade: a reference to the incoming video's decoded frame (owned), mixed over `held`.
    private var heldIncoming: OwnedFrame?
    /// The incoming frame's share of each sample, in 0…65536 (`mm_mix_plane`'s weight).
    private var incomingWeight: Int32 = 0

    /// A converter for `width`×`height` surfaces into frames of `format`; `alpha` keeps the alpha channel.
    init(width: Int, height: Int, format: AVPixelFormat, alpha: Bool, method: YUVConversionMethod = .standard) throws(MovieMakerError) {
        self.width = width; self.height = height; self.format = format; self.alpha = alpha
        let isRGB = format == AV_PIX_FMT_RGBA || format == AV_PIX_FMT_RGB24
        yuv420 = method == .standard && format == AV_PIX_FMT_YUV420P && !alpha ? YUV420Conversion(width: width, height: height) : nil
        if yuv420 != nil {
            scaler = nil
        } else {
            let scaler = try OwnedScaler(srcWidth: Int32(width), srcHeight: Int32(height), srcFormat: AV_PIX_FMT_BGRA,
                                         dstWidth: Int32(width), dstHeight: Int32(height), dstFormat: format,
                                         flags: isRGB ? SWS_POINT : FrameConverter.scalerFlags)
            if !isRGB { try setBT709(on: scaler, rgbIsSource: true) }
            self.scaler = scaler
        }
        // Rows 64-byte aligned, so swscale's SIMD paths read them directly.
        straightStride = (width * 4 + 63) & ~63
        straight = alpha ? UnsafeMutableRawPointer.allocate(byteCount: straightStride * height, alignment: 64) : nil
    }

    /// Flushes `surface` and converts all of it into `frame`; throws `.ffmpeg` (sws_scale) when rows are missing.
    func convertAll(_ surface: CairoSurface, into frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        surface.flush()
        let rows = convert(surface, into: frame)
        guard rows == Int32(surface.height) else {
            throw .ffmpeg(operation: "sws_scale", code: rows, message: "converted \(rows) of \(surface.height) rows")
        }
    }

    /// Converts `surface` (already flushed) into `frame`; returns the rows written.
    func convert(_ surface: CairoSurface, into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        guard let scaler else {
            yuv420!.convert(from: UnsafePointer(surface.data), stride: surface.stride, into: frame)
            return Int32(height)
        }
        guard let straight else {
            return scaler.convert(from: UnsafePointer(surface.data), stride: surface.stride, height: height, into: frame)
        }
        let buffer = straight.assumingMemoryBound(to: UInt8.self)
        AlphaConversion.unpremultiply(UnsafePointer(surface.data), sourceStride: surface.stride,
                                      into: buffer, destinationStride: straightStride, width: width, height: height)
        return scaler.convert(from: UnsafePointer(buffer), stride: straightStride, height: height, into: frame)
    }

    /// Whether the encoder's frames can take a passed-through video frame at all: opaque yuv420p.
    var takesVideoFrames: Bool { format == AV_PIX_FMT_YUV420P && !alpha }

    /// Takes a reference to a decoded video frame that is a whole movie frame (`Clip.videoPassThrough`),
    /// for `copyHeldVideoFrame(into:)`, when it can go to the encoder as it is: 8-bit 4:2:0, limited
    /// range, BT.709 (what phones record), at the movie's size. Returns false, holding nothing, for any
    /// other frame (the file's probe said so, but a stream may change mid-way), which is then drawn:
    /// swscale does not convert matrices between YUV formats, and when it drops bits it dithers, while
    /// the drawn path of a 10-bit frame sits 0.3 level lower, so the two would not agree within rounding.
    func holdVideoFrame(_ decoded: UnsafeMutablePointer<AVFrame>, file: VideoFile) throws(MovieMakerError) -> Bool {
        guard takes(decoded, file: file) else { return false }
        if held == nil { held = try OwnedFrame() }
        av_frame_unref(held!.pointer)
        if let heldIncoming { av_frame_unref(heldIncoming.pointer) }
        try ffCheck(av_frame_ref(held!.pointer, decoded), "av_frame_ref (video frame)")
        return true
    }

    /// After `holdVideoFrame`, takes a reference to a crossfade's incoming frame (`Clip.videoPassThrough`'s
    /// `incoming`), to be mixed over the held one with B's share `weight` (0…1) by `copyHeldVideoFrame`.
    /// Returns false, letting both go, when the incoming frame cannot go to the encoder as it is.
    func holdIncomingVideoFrame(_ decoded: UnsafeMutablePointer<AVFrame>, file: VideoFile, weight: Double) throws(MovieMakerError) -> Bool {
        guard let held else { preconditionFailure("holdIncomingVideoFrame before holdVideoFrame") }
        guard takes(decoded, file: file) else {
            av_frame_unref(held.pointer)
            return false
        }
        if heldIncoming == nil { heldIncoming = try OwnedFrame() }
        av_frame_unref(heldIncoming!.pointer)
        try ffCheck(av_frame_ref(heldIncoming!.pointer, decoded), "av_frame_ref (video frame)")
        incomingWeight = Int32((min(max(weight, 0), 1) * 65536).rounded())
        return true
    }

    /// Lets go of the frames `holdVideoFrame` and `holdIncomingVideoFrame` took (after a failure between
    /// holding and copying them).
    func releaseHeldVideoFrames() {
        if let held { av_frame_unref(held.pointer) }
        if let heldIncoming { av_frame_unref(heldIncoming.pointer) }
    }

    /// Whether a decoded frame can go to the encoder as it is: 8-bit 4:2:0, limited range, BT.709, at the movie's size.
    private func takes(_ decoded: UnsafeMutablePointer<AVFrame>, file: VideoFile) -> Bool {
        let f = decoded.pointee
        return takesVideoFrames && f.format == AV_PIX_FMT_YUV420P.rawValue && Int(f.width) == width && Int(f.height) == height
            && f.color_range != AVCOL_RANGE_JPEG && !file.isFullRange
            && VideoPictureConverter.matrix(of: decoded, file: file) == AVCOL_SPC_BT709
    }

    /// Copies the frame `holdVideoFrame` kept into the encoder's `frame` (pixels only: no timestamps,
    /// picture types or side data reach the encoder), or the crossfade of it and the incoming frame,
    /// and lets them go.
    func copyHeldVideoFrame(into frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        guard let held else { preconditionFailure("copyHeldVideoFrame without a held frame") }
        defer { releaseHeldVideoFrames() }
        guard let incoming = heldIncoming, incoming.pointer.pointee.buf.0 != nil else {
            try ffCheck(av_frame_copy(frame, held.pointer), "av_frame_copy (video frame)")
            return
        }
        let a = held.pointer.pointee, b = incoming.pointer.pointee, d = frame.pointee
        precondition(d.format == AV_PIX_FMT_YUV420P.rawValue && Int(d.width) == width && Int(d.height) == height,
                     "a crossfade mixed into an encoder frame that is not \(width)×\(height) yuv420p")
        let planes = [(d.data.0, d.linesize.0, a.data.0, a.linesize.0, b.data.0, b.linesize.0, width, height),
                      (d.data.1, d.linesize.1, a.data.1, a.linesize.1, b.data.1, b.linesize.1, (width + 1) / 2, (height + 1) / 2),
                      (d.data.2, d.linesize.2, a.data.2, a.linesize.2, b.data.2, b.linesize.2, (width + 1) / 2, (height + 1) / 2)]
        for (dst, ds, pa, sa, pb, sb, w, h) in planes {
            guard let dst, let pa, let pb else { preconditionFailure("a yuv420p frame without its three planes") }
            mm_mix_plane(dst, ptrdiff_t(ds), pa, ptrdiff_t(sa), pb, ptrdiff_t(sb), Int32(w), Int32(h), incomingWeight)
        }
    }

    deinit { straight?.deallocate() }
}

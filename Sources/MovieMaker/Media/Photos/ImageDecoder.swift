internal import CFFmpeg
internal import CHeif
internal import CMovieMakerImageShim
internal import CMovieMakerShim
internal import CWebP
import Foundation

// Which library decodes which format, and why:
//
// - JPEG: libjpeg-turbo (through CMovieMakerImageShim). SIMD-accelerated, the reference for
//   correctness, and it scales in the DCT (scale_num/8): a 24-megapixel photo shown at 1080p is
//   decoded at 3/8 size, touching a seventh of the pixels, instead of at full size and then shrunk.
//   It also reads CMYK/YCCK (press and Photoshop files), which libavcodec's MJPEG decoder does not
//   convert, and it assembles multi-segment APP2 ICC profiles.
// - PNG: libpng (through the shim). 16-bit, palette, grey, tRNS and Adam7, with rows streamed into a
//   box filter so a large PNG is never held at full size.
// - WebP: libwebp. Its decoder scales while decoding (use_scaling) and its demuxer gives the ICC and
//   EXIF chunks and the first frame of an animation.
// - HEIC/HEIF and AVIF: libheif (libde265 for HEVC, dav1d/aom for AV1). It applies the container's
//   rotation/mirror/crop boxes itself and reassembles the tiled grids iPhones write.
// - TIFF, BMP, GIF: libavcodec, already linked for video. These are rare among photos and need no
//   special scaling; GIF yields its first frame.
//
// Formats are recognised by their first bytes, never by the file name, so a text file named
// `.jpg` is reported as not an image.

/// The file formats the photo decoder reads.
public enum PhotoFormat: String, Sendable, CaseIterable {
    /// JPEG (baseline, progressive, grey, CMYK).
    case jpeg
    /// PNG (8/16-bit, palette, grey, alpha).
    case png
    /// WebP (lossy, lossless, first frame of an animation).
    case webp
    /// HEIC/HEIF (HEVC stills, as iPhones write them).
    case heif
    /// AVIF (AV1 stills in HEIF).
    case avif
    /// TIFF.
    case tiff
    /// Windows bitmap.
    case bmp
    /// GIF (the first frame).
    case gif

    /// File-name extensions (lower case) usually used for the format.
    package var fileExtensions: [String] {
        switch self {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .png: ["png"]
        case .webp: ["webp"]
        case .heif: ["heic", "heif", "hif"]
        case .avif: ["avif"]
        case .tiff: ["tif", "tiff"]
        case .bmp: ["bmp", "dib"]
        case .gif: ["gif"]
        }
    }

    /// Recognises a format by its first bytes (magic numbers, the HEIF `ftyp` brand).
    static func sniff(_ b: UnsafeRawBufferPointer) -> PhotoFormat? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + bytes.count && bytes.indices.allSatisfy { b[offset + $0] == bytes[$0] }
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && b.count >= 26 { return .bmp }
        if starts(Array("ftyp".utf8), at: 4), b.count >= 12 {
            // The major brand, then compatible brands up to the end of the ftyp box.
            let boxSize = min(b.count, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
            var brands: [String] = []
            var offset = 8
            while offset + 4 <= max(boxSize, 12) {
                if offset != 12 { brands.append(String(decoding: b[offset..<offset + 4], as: UTF8.self)) }
                offset += 4
            }
            if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
            if brands.contains(where: { ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains($0) }) { return .heif }
        }
        return nil
    }

    /// A short guess at what a non-image file is, for the error message.
    static func describeNonImage(_ b: UnsafeRawBufferPointer) -> String {
        if b.isEmpty { return "the file is empty" }
        let head = b.prefix(512)
        if head.allSatisfy({ $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return "it contains text, not image data"
        }
        if b.count >= 8, String(decoding: b[4..<8], as: UTF8.self) == "ftyp" { return "it is an ISO media file (a movie?), not a still image" }
        let hex = b.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "its first bytes (\(hex)) match no image format"
    }
}

/// Decoded pixels before orientation and premultiplication: 4 bytes a pixel, straight alpha.
final class PhotoRaster {
    /// The byte order of a pixel.
    enum Layout: Equatable {
        case bgra
        case rgba
        /// C, M, Y, K; `inverted` when 0 means full ink (Adobe).
        case cmyk(inverted: Bool)
    }
    let width: Int
    let height: Int
    let stride: Int
    var layout: Layout
    /// Whether the pixels came from a grey image (B = G = R), so a grey ICC profile applies.
    var isGray = false
    /// Whether any pixel may be transparent.
    var hasAlpha = false
    let pixels: UnsafeMutablePointer<UInt8>
    /// When set, `pixels` are this surface's own (decoded straight into it, no copy later).
    let surface: CairoSurface?

    /// Cairo's limit for either side of an image surface.
    static let maximumSide = 32767

    /// Throws when a decoded picture this large could not become a Cairo image.
    static func checkSize(width: Int, height: Int, path: String) throws(MovieMakerError) {
        guard width > maximumSide || height > maximumSide else { return }
        throw .imageUnreadable(path: path, reason: "decoded at \(width)×\(height) it would exceed \(maximumSide) pixels per side, the most an image can have: decode it smaller, e.g. with PhotoScaling.fitting(Size(width: 3840, height: 2160))")
    }

    /// A new Cairo surface for a decoded photo, its size checked first.
    static func makeSurface(width: Int, height: Int, path: String) throws(MovieMakerError) -> CairoSurface {
        try checkSize(width: width, height: height, path: path)
        // Its own mapping: photos are decoded and dropped on different threads (see `MappedMemory`).
        let surface = try CairoSurface(mappedWidth: width, height: height)
        surface.flush()
        return surface
    }

    /// Allocates `width` × `height` pixels; throws when the size is too large or memory runs out.
    init(width: Int, height: Int, layout: Layout, path: String) throws(MovieMakerError) {
        try Self.checkSize(width: width, height: height, path: path)
        guard let memory = malloc(max(1, width * height * 4)) else {
            throw .imageUnreadable(path: path, reason: "out of memory for \(width)×\(height) pixels")
        }
        self.width = width; self.height = height; self.stride = width * 4; self.layout = layout
        pixels = memory.assumingMemoryBound(to: UInt8.self)
        surface = nil
    }
    /// Uses a new Cairo surface's memory, for photos that need no reordering afterwards.
    init(surfaceWidth width: Int, height: Int, path: String) throws(MovieMakerError) {
        let s = try Self.makeSurface(width: width, height: height, path: path)
        surface = s
        self.width = width; self.height = height; stride = s.stride; layout = .bgra
        pixels = s.data
    }
    deinit { if surface == nil { free(pixels) } }
}

/// What a decoder learned from a file's header.
struct PhotoHeader {
    var format: PhotoFormat
    /// Size as stored, before orientation.
    var storedWidth: Int
    var storedHeight: Int
    var hasAlpha = false
    var exif: EXIFMetadata?
    var icc: [UInt8]?
    /// False when the decoder already turned the picture upright (HEIF applies its own irot/imir).
    var exifOrientationApplies = true
    var progressive = false

    /// The orientation MovieMaker applies after decoding.
    var orientationToApply: EXIFOrientation { exifOrientationApplies ? (exif?.orientation ?? .up) : .up }
    /// The orientation the file records (for PhotoInfo).
    var recordedOrientation: EXIFOrientation { exif?.orientation ?? .up }
    /// Upright size.
    var uprightWidth: Int { orientationToApply.swapsWidthAndHeight ? storedHeight : storedWidth }
    var uprightHeight: Int { orientationToApply.swapsWidthAndHeight ? storedWidth : storedHeight }

    /// The smallest stored size that still covers what `scaling` asks for (never more than stored).
    func neededStoredSize(_ scaling: PhotoScaling) -> (width: Int, height: Int) {
        let s = scaling.scale(forWidth: uprightWidth, height: uprightHeight)
        func need(_ side: Int) -> Int { max(1, min(side, Int((Double(side) * s - 1e-6).rounded(.up)))) }
        return (need(storedWidth), need(storedHeight))
    }

    /// The largest whole-number box factor whose output still covers `needed`, and at least the one
    /// that brings it within an image's largest side (a panorama filling the frame).
    func reductionFactor(for needed: (width: Int, height: Int)) -> Int {
        var f = max(1, min(storedWidth / max(1, needed.width), storedHeight / max(1, needed.height)))
        while f > 1 && ((storedWidth + f - 1) / f < needed.width || (storedHeight + f - 1) / f < needed.height) { f -= 1 }
        if needed.width <= PhotoRaster.maximumSide && needed.height <= PhotoRaster.maximumSide {
            while (storedWidth + f - 1) / f > PhotoRaster.maximumSide || (storedHeight + f - 1) / f > PhotoRaster.maximumSide { f += 1 }
        }
        return min(f, 256)
    }
}

/// The format-specific decoders. Each reads the header, and with a `scaling` also the pixels.
enum ImageDecoders {
    static func decode(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat, path: String,
                       scaling: PhotoScaling?) throws(MovieMakerError) -> (PhotoHeader, PhotoRaster?) {
        if scaling != nil {
            // The declared size is checked before any pixel is decoded (see PhotoLimits).
            let (header, _) = try decode(bytes, format: format, path: path, scaling: nil)
            try PhotoLimits.check(width: header.storedWidth, height: header.storedHeight, path: path)
        }
        switch format {
        case .jpeg: return try jpeg(.bytes(bytes), path: path, scaling: scaling)
        case .png: return try png(bytes, path: path, scaling: scaling)
        case .webp: return try webp(bytes, path: path, scaling: scaling)
        case .heif, .avif: return try heif(bytes, format: format, path: path, scaling: scaling)
        case .tiff, .bmp, .gif: return try libavcodec(bytes, format: format, path: path, scaling: scaling)
        }
    }

    private static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the decoded pixels can go straight into the final Cairo surface (no reordering).
    private static func decodesInPlace(_ header: PhotoHeader) -> Bool {
        header.orientationToApply == .up && !header.hasAlpha
    }

    // MARK: JPEG

    /// Where a JPEG's bytes come from.
    enum JPEGSource {
        /// All of them, in memory.
        case bytes(UnsafeRawBufferPointer)
        /// An open file, read as the decoder goes (the caller keeps it open and closes it).
        case file(Int32)
    }

    static func jpeg(_ source: JPEGSource, path: String, scaling: PhotoScaling?) throws(MovieMakerError) -> (PhotoHeader, PhotoRaster?) {
        var messageBuffer = [CChar](repeating: 0, count: Int(MM_IMAGE_MESSAGE_SIZE))
        var h = mm_jpeg_header()
        let opened: OpaquePointer?
        switch source {
        case let .bytes(bytes): opened = mm_jpeg_open(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &h, &messageBuffer)
        case let .file(fd): opened = mm_jpeg_open_file(fd, &h, &messageBuffer)
        }
        guard let jpeg = opened else {
            throw .imageUnreadable(path: path, reason: "damaged JPEG: \(message(messageBuffer))")
        }
        defer { mm_jpeg_close(jpeg) }
        var header = PhotoHeader(format: .jpeg, storedWidth: Int(h.width), storedHeight: Int(h.height))
        header.progressive = h.progressive != 0
        if let exif = h.exif { header.exif = EXIFMetadata(tiff: UnsafeRawBufferPointer(start: exif, count: h.exif_size)) }
        if let icc = h.icc { header.icc = Array(UnsafeBufferPointer(start: icc, count: h.icc_size)) }
        guard let scaling else { return (header, nil) }
        // The declared size is checked before any pixel is decoded (`decode` does it for bytes in memory).
        if case .file = source { try PhotoLimits.check(width: header.storedWidth, height: header.storedHeight, path: path) }

        // The smallest DCT scale of 1/8, 2/8, 3/8, 4/8 and 8/8 whose output covers the need: at most
        // twice the need per side. libjpeg-turbo also offers 5/8, 6/8 and 7/8, but only the powers of
        // two have SIMD inverse DCTs, so 5/8 … 7/8 decode slower than full size. 3/8 is a little slower
        // than 4/8 but gives a 24 MP photo at 2250×1500, what 1080p with Ken Burns needs, where 4/8 gives
        // 3000×2000: twice the memory, and shrinking it to the size shown costs Cairo about as much as
        // the decode (`make bench`, slideshow lines).
        let needed = header.neededStoredSize(scaling)
        var width: Int32 = 0, height: Int32 = 0
        var scale = 8
        for m in [1, 2, 3, 4, 8] {
            guard mm_jpeg_output_size(jpeg, Int32(m), &width, &height, &messageBuffer) == 0 else {
                throw .imageUnreadable(path: path, reason: "damaged JPEG: \(message(messageBuffer))")
            }
            if Int(width) >= needed.width && Int(height) >= needed.height { scale = m; break }
        }
        guard mm_jpeg_output_size(jpeg, Int32(scale), &width, &height, &messageBuffer) == 0 else {
            throw .imageUnreadable(path: path, reason: "damaged JPEG: \(message(messageBuffer))")
        }
        let isCMYK = h.color == Int32(MM_JPEG_CMYK.rawValue)
        // A DCT scale overshoots by up to twice per side (a 2560×1440 photo for 1080p with a 10 % zoom
        // is decoded whole, where 2112×1188 is needed). More than 3 % over, the rows are averaged down
        // to the size needed as they are decoded, so the larger picture never exists: a slideshow's
        // photo in memory is 9.6 MiB instead of 14.1, and so is the one being read ahead.
        var r = min(1, max(Double(needed.width) / Double(width), Double(needed.height) / Double(height)))
        // A panorama whose DCT output is wider than an image can be is averaged down to the largest side.
        let largest = Double(PhotoRaster.maximumSide)
        let tooLarge = Int(width) > PhotoRaster.maximumSide || Int(height) > PhotoRaster.maximumSide
        if tooLarge, needed.width <= PhotoRaster.maximumSide, needed.height <= PhotoRaster.maximumSide {
            r = min(r, largest / Double(width), largest / Double(height))
        }
        let reduce = (r < PhotoProvider.reductionThreshold || (tooLarge && r < 1)) && !isCMYK
        let outWidth = reduce ? min(Int(width), Int((Double(width) * r - 1e-6).rounded(.up))) : Int(width)
        let outHeight = reduce ? min(Int(height), Int((Double(height) * r - 1e-6).rounded(.up))) : Int(height)
        let raster = decodesInPlace(header) && !isCMYK
            ? try PhotoRaster(surfaceWidth: outWidth, height: outHeight, path: path)
            : try PhotoRaster(width: outWidth, height: outHeight, layout: .bgra, path: path)
        let status = reduce
            ? mm_jpeg_decode_reduced(jpeg, raster.pixels, raster.stride, Int32(outWidth), Int32(outHeight), &messageBuffer)
            : mm_jpeg_decode(jpeg, raster.pixels, raster.stride, &messageBuffer)
        guard status == 0 else {
            throw .imageUnreadable(path: path, reason: "damaged JPEG: \(message(messageBuffer))")
        }
        if isCMYK { raster.layout = .cmyk(inverted: h.adobe_inverted != 0) }
        raster.isGray = h.color == Int32(MM_JPEG_GRAY.rawValue)
        return (header, raster)
    }

    // MARK: PNG

    static func png(_ bytes: UnsafeRawBufferPointer, path: String, scaling: PhotoScaling?) throws(MovieMakerError) -> (PhotoHeader, PhotoRaster?) {
        var messageBuffer = [CChar](repeating: 0, count: Int(MM_IMAGE_MESSAGE_SIZE))
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var info = mm_png_info()
        guard mm_png_read_info(base, bytes.count, &info, &messageBuffer) == 0 else {
            throw .imageUnreadable(path: path, reason: "damaged PNG: \(message(messageBuffer))")
        }
        defer { mm_image_free(info.icc); mm_image_free(info.exif) }
        var header = PhotoHeader(format: .png, storedWidth: Int(info.width), storedHeight: Int(info.height))
        header.hasAlpha = info.has_alpha != 0
        header.progressive = info.interlaced != 0
        if let icc = info.icc { header.icc = Array(UnsafeBufferPointer(start: icc, count: info.icc_size)) }
        if let exif = info.exif { header.exif = EXIFMetadata(tiff: UnsafeRawBufferPointer(start: exif, count: info.exif_size)) }
        guard let scaling else { return (header, nil) }

        let factor = header.reductionFactor(for: header.neededStoredSize(scaling))
        let width = (header.storedWidth + factor - 1) / factor, height = (header.storedHeight + factor - 1) / factor
        let raster = decodesInPlace(header)
            ? try PhotoRaster(surfaceWidth: width, height: height, path: path)
            : try PhotoRaster(width: width, height: height, layout: .bgra, path: path)
        guard mm_png_decode(base, bytes.count, Int32(factor), raster.pixels, raster.stride, &messageBuffer) == 0 else {
            throw .imageUnreadable(path: path, reason: "damaged PNG: \(message(messageBuffer))")
        }
        raster.hasAlpha = header.hasAlpha
        raster.isGray = info.color_type & 2 == 0 && info.color_type != 3   // PNG_COLOR_MASK_COLOR, not palette
        return (header, raster)
    }

    // MARK: WebP

    static func webp(_ bytes: UnsafeRawBufferPointer, path: String, scaling: PhotoScaling?) throws(MovieMakerError) -> (PhotoHeader, PhotoRaster?) {
        var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demux = WebPDemux(&data) else {
            throw .imageUnreadable(path: path, reason: "damaged or truncated WebP: its RIFF container does not parse")
        }
        defer { WebPDemuxDelete(demux) }
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        var header = PhotoHeader(format: .webp, storedWidth: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)),
                                 storedHeight: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)))
        func chunk(_ fourcc: String, flag: UInt32) -> [UInt8]? {
            guard flags & flag != 0 else { return nil }
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, fourcc, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            return Array(UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
        }
        header.icc = chunk("ICCP", flag: ICCP_FLAG.rawValue)
        if var exif = chunk("EXIF", flag: EXIF_FLAG.rawValue) {
            // Some writers keep JPEG's "Exif\0\0" prefix in the chunk.
            if exif.starts(with: Array("Exif\0\0".utf8)) { exif.removeFirst(6) }
            header.exif = EXIFMetadata(tiff: exif)
        }
        var frame = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &frame) != 0 else {
            throw .imageUnreadable(path: path, reason: "damaged WebP: it has no frame")
        }
        defer { WebPDemuxReleaseIterator(&frame) }
        header.hasAlpha = frame.has_alpha != 0
        // An animation's first frame may cover only part of the canvas: MovieMaker shows the frame.
        header.storedWidth = Int(frame.width); header.storedHeight = Int(frame.height)
        guard let scaling else { return (header, nil) }

        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .imageUnreadable(path: path, reason: "libwebp version mismatch")
        }
        let needed = header.neededStoredSize(scaling)
        var width = header.storedWidth, height = header.storedHeight
        if needed.width < width || needed.height < height {
            // libwebp scales while decoding (area averaging), so the full size is never stored.
            width = needed.width; height = needed.height
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width); config.options.scaled_height = Int32(height)
        }
        let raster = decodesInPlace(header)
            ? try PhotoRaster(surfaceWidth: width, height: height, path: path)
            : try PhotoRaster(width: width, height: height, layout: .bgra, path: path)
        config.output.colorspace = MODE_BGRA
        config.output.is_external_memory = 1
        config.output.u.RGBA = WebPRGBABuffer(rgba: raster.pixels, stride: Int32(raster.stride), size: raster.stride * height)
        let status = WebPDecode(frame.fragment.bytes, frame.fragment.size, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else {
            let reason = switch status {
            case VP8_STATUS_NOT_ENOUGH_DATA: "the file ends early (truncated WebP data)"
            case VP8_STATUS_BITSTREAM_ERROR: "corrupt WebP bitstream"
            case VP8_STATUS_UNSUPPORTED_FEATURE: "a WebP feature libwebp does not support"
            case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
            default: "libwebp error \(status.rawValue)"
            }
            throw .imageUnreadable(path: path, reason: "damaged WebP: \(reason)")
        }
        raster.hasAlpha = header.hasAlpha
        return (header, raster)
    }

    // MARK: HEIF / AVIF

    static func heif(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat, path: String, scaling: PhotoScaling?) throws(MovieMakerError) -> (PhotoHeader, PhotoRaster?) {
        let name = format == .avif ? "AVIF" : "HEIF"
        func check(_ error: heif_error, _ what: String) throws(MovieMakerError) {
            guard error.code != heif_error_Ok else { return }
            // libheif's messages may end in a line break, which left blank lines in warnings and summaries.
            let text = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "error \(error.code.rawValue)"
            throw .imageUnreadable(path: path, reason: "\(what) \(name): \(text)")
        }
        guard let context = heif_context_alloc() else { throw .imageUnreadable(path: path, reason: "out of memory") }
        defer { heif_context_free(context) }
        try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), "damaged")
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), "damaged")
        guard let handle else { throw .imageUnreadable(path: path, reason: "damaged \(name): no primary image") }
        defer { heif_image_handle_release(handle) }

        // The handle's size is after the file's own rotation/mirror/crop, which libheif applies.
        var header = PhotoHeader(format: format, storedWidth: Int(heif_image_handle_get_width(handle)),
                                 storedHeight: Int(heif_image_handle_get_height(handle)))
        header.exifOrientationApplies = false
        header.hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        let profileType = heif_image_handle_get_color_profile_type(handle)
        if profileType == heif_color_profile_type_prof || profileType == heif_color_profile_type_rICC {
            var icc = [UInt8](repeating: 0, count: heif_image_handle_get_raw_color_profile_size(handle))
            if !icc.isEmpty, heif_image_handle_get_raw_color_profile(handle, &icc).code == heif_error_Ok { header.icc = icc }
        } else if profileType == heif_color_profile_type_nclx {
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            let result = heif_image_handle_get_nclx_color_profile(handle, &nclx)
            // libheif may allocate the structure even when it reports an error (a corrupt file): free it
            // whatever the result (52 bytes per corrupt HEIC leaked before).
            defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
            if result.code == heif_error_Ok, let nclx {
                // An HDR still (a Canon .HIF in HDR PQ mode, a Sony HLG still) cut to 8 bits with an SDR
                // curve shows dim and flat: refused, as HDR video is, with the way to a picture that works.
                let transfer = nclx.pointee.transfer_characteristics
                if transfer == heif_transfer_characteristic_ITU_R_BT_2100_0_PQ || transfer == heif_transfer_characteristic_ITU_R_BT_2100_0_HLG {
                    let curve = transfer == heif_transfer_characteristic_ITU_R_BT_2100_0_PQ ? "PQ" : "HLG"
                    throw .imageUnreadable(path: path, reason: "it is an HDR photo (\(curve)), which would show dim and flat here: export it as an SDR JPEG or HEIC first (the camera's or photo app's SDR export)")
                }
                header.icc = ColorManagement.profileData(forH273Primaries: Int(nclx.pointee.color_primaries.rawValue))
            }
        }
        let exifCount = heif_image_handle_get_number_of_metadata_blocks(handle, "Exif")
        if exifCount > 0 {
            var ids = [heif_item_id](repeating: 0, count: Int(exifCount))
            _ = heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &ids, exifCount)
            var block = [UInt8](repeating: 0, count: heif_image_handle_get_metadata_size(handle, ids[0]))
            if block.count > 4, heif_image_handle_get_metadata(handle, ids[0], &block).code == heif_error_Ok {
                // The block starts with a 4-byte big-endian offset to the TIFF header.
                let skip = 4 + (Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3]))
                if skip < block.count { header.exif = EXIFMetadata(tiff: Array(block[skip...])) }
            }
        }
        guard let scaling else { return (header, nil) }

        guard let options = heif_decoding_options_alloc() else { throw .imageUnreadable(path: path, reason: "out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options), "cannot decode")
        guard let image else { throw .imageUnreadable(path: path, reason: "cannot decode \(name): no image") }
        defer { heif_image_release(image) }
        var planeStride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &planeStride) else {
            throw .imageUnreadable(path: path, reason: "cannot decode \(name): no interleaved RGBA plane")
        }
        let fullWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let fullHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        header.storedWidth = fullWidth; header.storedHeight = fullHeight
        // libheif decodes at full size; the box filter then brings it down to the size asked for.
        let factor = header.reductionFactor(for: header.neededStoredSize(scaling))
        let raster = try PhotoRaster(width: (fullWidth + factor - 1) / factor, height: (fullHeight + factor - 1) / factor, layout: .bgra, path: path)
        mm_box_reduce(plane, Int32(fullWidth), Int32(fullHeight), Int(planeStride), Int32(factor), 1, raster.pixels, raster.stride)
        raster.hasAlpha = header.hasAlpha
        return (header, raster)
    }

    // MARK: TIFF, BMP, GIF (libavcodec)

    static func libavcodec(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat, path: String, scaling: PhotoScaling?) throws(MovieMakerError) -> (PhotoHeader, PhotoRaster?) {
        let name = format.rawValue.uppercased()
        var header = PhotoHeader(format: format, storedWidth: 0, storedHeight: 0)
        func u16le(_ at: Int) -> Int { at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : 0 }
        func i32le(_ at: Int) -> Int {
            at + 4 <= bytes.count ? Int(Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)) : 0
        }
        switch format {
        case .tiff:
            // A TIFF file is itself the structure EXIF uses: orientation and dates sit in IFD0.
            header.exif = EXIFMetadata(tiff: bytes)
            header.storedWidth = header.exif?.imageWidth ?? 0
            header.storedHeight = header.exif?.imageHeight ?? 0
        case .bmp:
            header.storedWidth = i32le(18); header.storedHeight = abs(i32le(22))
        default:
            header.storedWidth = u16le(6); header.storedHeight = u16le(8)
        }
        guard header.storedWidth > 0, header.storedHeight > 0 else {
            throw .imageUnreadable(path: path, reason: "damaged \(name): its header gives no size")
        }
        guard let scaling else { return (header, nil) }

        // The file is already in memory: demux it from there with libavformat's image demuxer for the
        // format (one packet holding the picture; GIF's first frame), then decode with the one CodecDecoder loop.
        let demuxerName = format == .tiff ? "tiff_pipe" : format == .bmp ? "bmp_pipe" : "gif"
        let describe: MediaReadFailureDescription = { failure in
            switch failure.step {
            case .noDecoder: .imageUnreadable(path: path, reason: "this FFmpeg build has no \(name) decoder")
            case .openDecoder: .imageUnreadable(path: path, reason: "damaged \(name): cannot open the decoder: \(failure.message)")
            case .open, .findStreamInfo, .read, .seek, .truncated: .imageUnreadable(path: path, reason: "damaged \(name): cannot read it: \(failure.message)")
            case .send, .flush, .receive, .damagedFrame, .damagedData:
                .imageUnreadable(path: path, reason: "damaged \(name): decoding failed: \(failure.message)")
            }
        }
        let demuxer = try Demuxer(bytes: bytes, format: demuxerName, describe: describe)
        guard demuxer.streamCount > 0 else { throw .imageUnreadable(path: path, reason: "damaged \(name): it holds no picture") }
        let decoder = try CodecDecoder(stream: demuxer.borrowedStream(0), describe: describe)
        // `frame` below is the decoder's: both must live until the pixels are converted.
        defer { withExtendedLifetime((demuxer, decoder)) {} }
        let nextPacket = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: 0) }
        guard try decoder.receiveFrame(nextPacket: nextPacket) else {
            throw describe(MediaReadFailure(.receive, code: averrorEOF))
        }
        let frame = decoder.frame
        let f = frame.pointee
        guard f.width > 0, f.height > 0 else { throw .imageUnreadable(path: path, reason: "damaged \(name): decoded an empty picture") }
        header.storedWidth = Int(f.width); header.storedHeight = Int(f.height)
        let pixelFormat = AVPixelFormat(rawValue: f.format)
        header.hasAlpha = pixelFormatHasAlpha(pixelFormat) || pixelFormat == AV_PIX_FMT_PAL8
        if let side = av_frame_get_side_data(frame, AV_FRAME_DATA_ICC_PROFILE), side.pointee.size > 0 {
            header.icc = Array(UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size)))
        }
        let bgra = try OwnedFrame(width: f.width, height: f.height, format: AV_PIX_FMT_BGRA)
        let scaler = try OwnedScaler(srcWidth: f.width, srcHeight: f.height, srcFormat: pixelFormat,
                                     dstWidth: f.width, dstHeight: f.height, dstFormat: AV_PIX_FMT_BGRA,
                                     flags: SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        let rows = scaler.convert(UnsafePointer(frame), into: bgra.pointer)
        guard rows == f.height else { throw .imageUnreadable(path: path, reason: "cannot convert the \(name) pixels (\(av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "?"))") }
        let factor = header.reductionFactor(for: header.neededStoredSize(scaling))
        let raster = try PhotoRaster(width: (header.storedWidth + factor - 1) / factor, height: (header.storedHeight + factor - 1) / factor,
                                     layout: .bgra, path: path)
        mm_box_reduce(bgra.pointer.pointee.data.0, f.width, f.height, Int(bgra.pointer.pointee.linesize.0), Int32(factor), 0,
                      raster.pixels, raster.stride)
        raster.hasAlpha = header.hasAlpha
        return (header, raster)
    }
}

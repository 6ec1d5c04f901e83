import CHeif
import CJPEG
import CLCMS
import CPNG
import CWebP
import Foundation
import Synchronization
import Testing
import MovieMaker

/// A straight-alpha RGBA picture, the source every fixture is encoded from.
public struct RGBAPicture {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// R, G, B, A bytes row by row.
    public var pixels: [UInt8]   // R, G, B, A

    /// A picture whose pixel (x, y) is `fill(x, y)`.
    public init(width: Int, height: Int, fill: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        self.width = width; self.height = height
        pixels = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { let c = fill(x, y); pixels += [c.0, c.1, c.2, c.3] } }
    }
    /// The pixel at (x, y).
    public func at(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
    /// Red top-left, green top-right, blue bottom-left, white bottom-right.
    public static func quadrants(width: Int, height: Int) -> RGBAPicture {
        RGBAPicture(width: width, height: height) { x, y in
            switch (x < width / 2, y < height / 2) {
            case (true, true): (255, 0, 0, 255)
            case (false, true): (0, 255, 0, 255)
            case (true, false): (0, 0, 255, 255)
            case (false, false): (255, 255, 255, 255)
            }
        }
    }
    /// The picture as a camera would store it for EXIF `orientation`: showing the stored picture
    /// with that orientation gives back `self`. Written from the EXIF definitions (where the stored
    /// row 0 and column 0 end up), independently of the decoder's own placement table.
    public func stored(for orientation: Int) -> RGBAPicture {
        let W = width, H = height
        let swaps = orientation >= 5
        let sw = swaps ? H : W, sh = swaps ? W : H
        return RGBAPicture(width: sw, height: sh) { sx, sy in
            let (dx, dy): (Int, Int) = switch orientation {
            case 1: (sx, sy)                      // row 0 top, column 0 left
            case 2: (W - 1 - sx, sy)              // row 0 top, column 0 right
            case 3: (W - 1 - sx, H - 1 - sy)      // row 0 bottom, column 0 right
            case 4: (sx, H - 1 - sy)              // row 0 bottom, column 0 left
            case 5: (sy, sx)                      // row 0 left, column 0 top
            case 6: (W - 1 - sy, sx)              // row 0 right, column 0 top
            case 7: (W - 1 - sy, H - 1 - sx)      // row 0 right, column 0 bottom
            default: (sy, H - 1 - sx)             // 8: row 0 left, column 0 bottom
            }
            return at(dx, dy)
        }
    }
    /// The picture premultiplied, as BGRA bytes (what MovieMaker draws).
    public var bgra: [UInt8] {
        var out = pixels
        for i in stride(from: 0, to: out.count, by: 4) { out.swapAt(i, i + 2) }
        return out
    }
}

// MARK: - Fixture encoders

/// JPEG files written with libjpeg-turbo: colour spaces, progressive, EXIF orientation, ICC profiles.
public enum FixtureJPEG {
    /// The colour spaces a fixture can be written in.
    public enum Colors { case rgb, gray, cmykInverted }

    /// Writes a JPEG with libjpeg. `.gray` uses the red channel; `.cmykInverted` reads R, G, B, A as
    /// C, M, Y, K amounts of ink (0 … 255) and stores them inverted, as Photoshop does (libjpeg adds the
    /// Adobe APP14 marker for CMYK). `markers` are written as given (APPn code, payload).
    public static func data(_ picture: RGBAPicture, colors: Colors = .rgb, quality: Int32 = 95, progressive: Bool = false,
                     fullChroma: Bool = true, markers: [(Int32, [UInt8])] = []) -> Data {
        let components: Int, space: J_COLOR_SPACE
        switch colors {
        case .rgb: (components, space) = (3, JCS_RGB)
        case .gray: (components, space) = (1, JCS_GRAYSCALE)
        case .cmykInverted: (components, space) = (4, JCS_CMYK)
        }
        return compress(width: picture.width, height: picture.height, components: components, colorSpace: space, quality: quality,
                        configure: { cinfo in
            if fullChroma && colors == .rgb {
                cinfo.pointee.comp_info[0].h_samp_factor = 1
                cinfo.pointee.comp_info[0].v_samp_factor = 1
            }
            if progressive { jpeg_simple_progression(cinfo) }
        }, markers: markers) { y, row in
            for x in 0..<picture.width {
                let p = picture.at(x, y)
                switch colors {
                case .rgb: row[x * 3] = p.0; row[x * 3 + 1] = p.1; row[x * 3 + 2] = p.2
                case .gray: row[x] = p.0
                case .cmykInverted: row[x * 4] = 255 - p.0; row[x * 4 + 1] = 255 - p.1; row[x * 4 + 2] = 255 - p.2; row[x * 4 + 3] = 255 - p.3
                }
            }
        }
    }

    /// A large RGB JPEG made of two alternating rows (red|green above, blue|white below), written
    /// without building the whole picture in memory.
    public static func largeQuadrants(width: Int, height: Int) -> Data {
        func row(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
            (0..<width).flatMap { $0 < width / 2 ? left : right }
        }
        let top = row([255, 0, 0], [0, 255, 0]), bottom = row([0, 0, 255], [255, 255, 255])
        return compress(width: width, height: height, components: 3, colorSpace: JCS_RGB, quality: 80) { y, r in
            r = y < height / 2 ? top : bottom
        }
    }

    /// The libjpeg compressor to memory that both writers share: sets size, colour space and quality,
    /// lets `configure` adjust the settings, writes `markers` (APPn code, payload), then asks `fill`
    /// for each row (`width * components` bytes, row index first) and returns the file's bytes.
    private static func compress(width: Int, height: Int, components: Int, colorSpace: J_COLOR_SPACE, quality: Int32,
                                 configure: (UnsafeMutablePointer<jpeg_compress_struct>) -> Void = { _ in },
                                 markers: [(Int32, [UInt8])] = [],
                                 fill: (Int, inout [UInt8]) -> Void) -> Data {
        let cinfo = UnsafeMutablePointer<jpeg_compress_struct>.allocate(capacity: 1)
        let jerr = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        defer { cinfo.deallocate(); jerr.deallocate(); buffer.deallocate(); size.deallocate() }
        cinfo.initialize(to: jpeg_compress_struct())
        buffer.initialize(to: nil); size.initialize(to: 0)
        cinfo.pointee.err = jpeg_std_error(jerr)
        // libjpeg's default would exit(); a fixture that cannot be written is a broken test.
        jerr.pointee.error_exit = { _ in fatalError("libjpeg failed writing a test fixture") }
        jpeg_CreateCompress(cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        jpeg_mem_dest(cinfo, buffer, size)
        cinfo.pointee.image_width = JDIMENSION(width)
        cinfo.pointee.image_height = JDIMENSION(height)
        cinfo.pointee.input_components = Int32(components)
        cinfo.pointee.in_color_space = colorSpace
        jpeg_set_defaults(cinfo)
        jpeg_set_quality(cinfo, quality, 1)
        configure(cinfo)
        jpeg_start_compress(cinfo, 1)
        for (code, payload) in markers {
            jpeg_write_marker(cinfo, code, payload, UInt32(payload.count))
        }
        var row = [UInt8](repeating: 0, count: width * components)
        for y in 0..<height {
            fill(y, &row)
            row.withUnsafeMutableBufferPointer { r in
                var rowPointer: JSAMPROW? = r.baseAddress
                _ = jpeg_write_scanlines(cinfo, &rowPointer, 1)
            }
        }
        jpeg_finish_compress(cinfo)
        jpeg_destroy_compress(cinfo)
        // jpeg_mem_dest's buffer is malloc'd by libjpeg and becomes ours after finishing: copy, then free.
        let data = Data(bytes: buffer.pointee!, count: Int(size.pointee))
        free(buffer.pointee)
        return data
    }

    /// An APP1 EXIF payload, by hand: IFD0 with Orientation and a pointer to the EXIF IFD holding
    /// DateTimeOriginal and OffsetTimeOriginal (and SubSecTimeOriginal, `subSeconds`: up to three digits,
    /// stored in its entry as short ASCII values are). Either byte order. `adobeRGB` adds ColorSpace
    /// "uncalibrated" (0xFFFF) and an Interoperability IFD with index "R03", as a camera set to Adobe RGB
    /// marks a JPEG it embeds no profile in. A nil `offset` writes none, as a camera without a time zone.
    public static func exifTIFF(orientation: Int, date: String = "2024:05:17 14:30:05", offset: String? = "+02:00", bigEndian: Bool = true,
                                subSeconds: String? = nil, adobeRGB: Bool = false) -> [UInt8] {
        var b: [UInt8] = []
        func u16(_ v: Int) { b += bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) {
            let bytes = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            b += bigEndian ? bytes : bytes.reversed()
        }
        b += bigEndian ? Array("MM".utf8) : Array("II".utf8)
        u16(42); u32(8)
        // IFD0 at 8: two entries, then the next-IFD offset.
        u16(2)
        u16(0x0112); u16(3); u32(1); u16(orientation); u16(0)
        let exifIFD = 8 + 2 + 2 * 12 + 4
        u16(0x8769); u16(4); u32(1); u32(exifIFD)
        u32(0)
        // EXIF IFD: DateTimeOriginal (20 bytes) and OffsetTimeOriginal (7 bytes), stored after it.
        let entries = (subSeconds == nil ? 1 : 2) + (offset == nil ? 0 : 1) + (adobeRGB ? 2 : 0)
        let dateAt = exifIFD + 2 + entries * 12 + 4
        u16(entries)
        u16(0x9003); u16(2); u32(20); u32(dateAt)
        if offset != nil { u16(0x9011); u16(2); u32(7); u32(dateAt + 20) }
        if let subSeconds {
            precondition(subSeconds.utf8.count <= 3, "up to three digits fit in the entry")
            u16(0x9291); u16(2); u32(subSeconds.utf8.count + 1)
            b += Array(subSeconds.utf8) + [UInt8](repeating: 0, count: 4 - subSeconds.utf8.count)
        }
        if adobeRGB {
            u16(0xA001); u16(3); u32(1); u16(0xFFFF); u16(0)
            u16(0xA005); u16(4); u32(1); u32(dateAt + 20 + (offset == nil ? 0 : 7))
        }
        u32(0)
        b += Array(date.utf8) + [0]
        if let offset { b += Array(offset.utf8) + [0] }
        if adobeRGB {
            // The Interoperability IFD: InteroperabilityIndex "R03" (DCF's option file: Adobe RGB).
            u16(1)
            u16(0x0001); u16(2); u32(4); b += Array("R03".utf8) + [0]
            u32(0)
        }
        return b
    }

    /// An APP1 marker holding `tiff` as EXIF data.
    public static func app1(_ tiff: [UInt8]) -> (Int32, [UInt8]) { (JPEG_APP0 + 1, Array("Exif\0\0".utf8) + tiff) }

    /// APP2 ICC_PROFILE segments, by hand, split into chunks of `chunkSize` to exercise reassembly.
    public static func app2(icc: [UInt8], chunkSize: Int = 60_000) -> [(Int32, [UInt8])] {
        let chunks = stride(from: 0, to: icc.count, by: chunkSize).map { Array(icc[$0..<min(icc.count, $0 + chunkSize)]) }
        return chunks.enumerated().map { i, chunk in
            (JPEG_APP0 + 2, Array("ICC_PROFILE\0".utf8) + [UInt8(i + 1), UInt8(chunks.count)] + chunk)
        }
    }
}

/// PNG files written with libpng: 8/16-bit, palette, grey, alpha.
public enum FixturePNG {
    /// The PNG pixel layouts a fixture can have.
    public enum Kind {
        case rgba8
        case rgb16
        case grayAlpha8
        case palette
    }

    /// Writes a PNG with libpng. `.rgb16` widens each 8-bit value v to v·257 (so it decodes back to v);
    /// `.grayAlpha8` uses red as grey; `.palette` indexes the picture's distinct colours (alpha in tRNS).
    public static func write(_ picture: RGBAPicture, kind: Kind, to url: URL, icc: [UInt8]? = nil, exif: [UInt8]? = nil, interlaced: Bool = false) {
        guard let file = fopen(url.path, "wb") else { fatalError("cannot create \(url.path)") }
        defer { fclose(file) }
        var png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, { _, message in
            fatalError("libpng failed writing a test fixture: \(message.map { String(cString: $0) } ?? "")")
        }, { _, _ in })
        var info = png_create_info_struct(png)
        png_init_io(png, file)
        let colorType: Int32, depth: Int32
        switch kind {
        case .rgba8: colorType = PNG_COLOR_TYPE_RGB_ALPHA; depth = 8
        case .rgb16: colorType = PNG_COLOR_TYPE_RGB; depth = 16
        case .grayAlpha8: colorType = PNG_COLOR_TYPE_GRAY_ALPHA; depth = 8
        case .palette: colorType = PNG_COLOR_TYPE_PALETTE; depth = 8
        }
        png_set_IHDR(png, info, png_uint_32(picture.width), png_uint_32(picture.height), depth, colorType,
                     interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        var paletteIndex: [[UInt8]: UInt8] = [:]
        if kind == .palette {
            var colors: [[UInt8]] = []
            for i in stride(from: 0, to: picture.pixels.count, by: 4) {
                let c = Array(picture.pixels[i..<i + 4])
                if paletteIndex[c] == nil { paletteIndex[c] = UInt8(colors.count); colors.append(c) }
            }
            var palette = colors.map { png_color(red: $0[0], green: $0[1], blue: $0[2]) }
            png_set_PLTE(png, info, &palette, Int32(palette.count))
            var alphas = colors.map { $0[3] }
            png_set_tRNS(png, info, &alphas, Int32(alphas.count), nil)
        }
        if var icc { png_set_iCCP(png, info, "test profile", 0, &icc, png_uint_32(icc.count)) }
        if var exif { png_set_eXIf_1(png, info, png_uint_32(exif.count), &exif) }
        png_write_info(png, info)
        var rows: [[UInt8]] = (0..<picture.height).map { y in
            (0..<picture.width).flatMap { x -> [UInt8] in
                let p = picture.at(x, y)
                switch kind {
                case .rgba8: return [p.0, p.1, p.2, p.3]
                case .rgb16: return [p.0, p.0, p.1, p.1, p.2, p.2]
                case .grayAlpha8: return [p.0, p.3]
                case .palette: return [paletteIndex[[p.0, p.1, p.2, p.3]]!]
                }
            }
        }
        var pointers: [UnsafeMutablePointer<UInt8>?] = []
        for i in rows.indices { rows[i].withUnsafeMutableBufferPointer { pointers.append($0.baseAddress) } }
        // The row arrays are not mutated again, so their storage stays where `pointers` says.
        withExtendedLifetime(rows) {
            png_write_image(png, &pointers)
        }
        png_write_end(png, info)
        png_destroy_write_struct(&png, &info)
    }
}

/// WebP files written with libwebp.
public enum FixtureWebP {
    /// A lossless WebP (simple format: RIFF + VP8L).
    public static func lossless(_ picture: RGBAPicture) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let bgra = picture.bgra
        let size = WebPEncodeLosslessBGRA(bgra, Int32(picture.width), Int32(picture.height), Int32(picture.width * 4), &output)
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
    /// A lossy WebP.
    public static func lossy(_ picture: RGBAPicture, quality: Float = 95) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let bgra = picture.bgra
        let size = WebPEncodeBGRA(bgra, Int32(picture.width), Int32(picture.height), Int32(picture.width * 4), quality, &output)
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
    /// Rewraps a simple WebP in the extended format, by hand: VP8X, ICCP, the image chunk(s), EXIF.
    public static func extended(_ simple: [UInt8], width: Int, height: Int, icc: [UInt8]?, exif: [UInt8]?) -> [UInt8] {
        func chunk(_ fourcc: String, _ payload: [UInt8]) -> [UInt8] {
            let n = payload.count
            return Array(fourcc.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)]
                + payload + (n % 2 == 1 ? [0] : [])
        }
        func u24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        let flags: UInt8 = (icc != nil ? 0x20 : 0) | (exif != nil ? 0x08 : 0)
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [flags, 0, 0, 0] + u24(width - 1) + u24(height - 1))
        if let icc { body += chunk("ICCP", icc) }
        body += simple[12...]   // the image chunk(s) after "RIFF" size "WEBP"
        if let exif { body += chunk("EXIF", exif) }
        let n = body.count
        return Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)] + body
    }
}

/// HEIC/AVIF files written with libheif, where an encoder is installed.
public enum FixtureHEIC {
    /// Whether libheif has an HEVC encoder (x265) on this machine.
    public static var encoderAvailable: Bool { hasEncoder(heif_compression_HEVC) }

    /// Whether libheif can encode `compression` here.
    public static func hasEncoder(_ compression: heif_compression_format) -> Bool {
        guard let context = heif_context_alloc() else { return false }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        let error = heif_context_get_encoder_for_format(context, compression, &encoder)
        if let encoder { heif_encoder_release(encoder) }
        return error.code == heif_error_Ok
    }

    /// Encodes an opaque picture as HEIC with x265, with an optional ICC profile and orientation
    /// (libheif writes irot/imir boxes for it).
    /// `exif` (a TIFF block, as `FixtureJPEG.exifTIFF` makes) is stored as an Exif item after the
    /// picture's data, as libheif and phones write it.
    public static func write(_ picture: RGBAPicture, to url: URL, icc: [UInt8]? = nil, orientation: Int = 1, quality: Int32 = 90,
                      compression: heif_compression_format = heif_compression_HEVC, exif: [UInt8]? = nil,
                      nclxTransfer: heif_transfer_characteristics? = nil) throws {
        func check(_ e: heif_error) throws {
            if e.code != heif_error_Ok { throw MovieMakerError.imageUnreadable(path: url.path, reason: String(cString: e.message)) }
        }
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, compression, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, quality))
        // 4:4:4 chroma keeps the flat colour areas exact enough to compare.
        try check(heif_encoder_set_parameter_string(encoder, "chroma", "444"))
        if compression == heif_compression_AV1 { _ = heif_encoder_set_parameter_integer(encoder, "speed", 8) }   // fastest it takes, if it knows it
        var image: OpaquePointer?
        try check(heif_image_create(Int32(picture.width), Int32(picture.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image))
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(picture.width), Int32(picture.height), 8))
        var stride: Int32 = 0
        let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)!
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture.at(x, y), o = y * Int(stride) + x * 3
                plane[o] = p.0; plane[o + 1] = p.1; plane[o + 2] = p.2
            }
        }
        if let icc { try check(heif_image_set_raw_color_profile(image, "prof", icc, icc.count)) }
        if let nclxTransfer {
            // BT.2020 primaries with the given curve, as an HDR camera writes its stills.
            let nclx = heif_nclx_color_profile_alloc()!
            defer { heif_nclx_color_profile_free(nclx) }
            nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_2020_2_and_2100_0
            nclx.pointee.transfer_characteristics = nclxTransfer
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_2020_2_non_constant_luminance
            nclx.pointee.full_range_flag = 1
            try check(heif_image_set_nclx_color_profile(image, nclx))
        }
        let options = heif_encoding_options_alloc()!
        defer { heif_encoding_options_free(options) }
        // By default libheif leaves the nclx box out of RGB pictures, for macOS's sake.
        if nclxTransfer != nil { options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0 }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, options, &handle))
        defer { heif_image_handle_release(handle) }
        if let exif { try check(heif_context_add_exif_metadata(context, handle, exif, Int32(exif.count))) }
        try check(heif_context_write_to_file(context, url.path))
    }
}

// MARK: - Checks

/// The decoded photo's pixels (premultiplied BGRA, read back as RGBA).
public func pixels(_ photo: DecodedPhoto) -> PixelBuffer {
    photo.image.pixels()
}

/// Expects the pixel at (x, y) to be within `tolerance` of (r, g, b, a) per channel.
public func expectColor(_ p: PixelBuffer, _ x: Int, _ y: Int, _ expected: (Int, Int, Int, Int), tolerance: Int,
                 _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let c = p.rgba(x: x, y: y)
    let got = (Int(c.red), Int(c.green), Int(c.blue), Int(c.alpha))
    let close = abs(got.0 - expected.0) <= tolerance && abs(got.1 - expected.1) <= tolerance
        && abs(got.2 - expected.2) <= tolerance && abs(got.3 - expected.3) <= tolerance
    #expect(close, "\(what): pixel (\(x), \(y)) is \(got), expected \(expected) ± \(tolerance)", sourceLocation: sourceLocation)
}

/// Checks the four quadrant colours near each corner of an upright picture.
public func expectQuadrants(_ p: PixelBuffer, tolerance: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let w = p.width, h = p.height
    let ix = max(1, w / 8), iy = max(1, h / 8)
    expectColor(p, ix, iy, (255, 0, 0, 255), tolerance: tolerance, "\(what): red top-left", sourceLocation: sourceLocation)
    expectColor(p, w - 1 - ix, iy, (0, 255, 0, 255), tolerance: tolerance, "\(what): green top-right", sourceLocation: sourceLocation)
    expectColor(p, ix, h - 1 - iy, (0, 0, 255, 255), tolerance: tolerance, "\(what): blue bottom-left", sourceLocation: sourceLocation)
    expectColor(p, w - 1 - ix, h - 1 - iy, (255, 255, 255, 255), tolerance: tolerance, "\(what): white bottom-right", sourceLocation: sourceLocation)
}

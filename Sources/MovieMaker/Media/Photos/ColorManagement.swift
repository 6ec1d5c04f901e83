internal import CLCMS
import Foundation

/// Converts decoded photos to sRGB with LittleCMS, so a photo carrying an ICC profile (Display P3
/// from iPhones, Adobe RGB from cameras, a CMYK press profile) shows the colours it was taken with.
///
/// Each conversion creates its own LittleCMS context, so decodes on several threads never share
/// LittleCMS state.
enum ColorManagement {
    // lcms2.h's TYPE_* pixel formats are built with function-like macros, which Swift does not import;
    // these are the same bit fields (COLORSPACE_SH(s) = s << 16, SWAPFIRST << 14, FLAVOR << 13,
    // DOSWAP << 10, EXTRA << 7, CHANNELS << 3, BYTES).
    private static let ptGray: UInt32 = 3, ptRGB: UInt32 = 4, ptCMYK: UInt32 = 6
    /// TYPE_BGRA_8.
    static let typeBGRA8: UInt32 = ptRGB << 16 | 1 << 14 | 1 << 10 | 1 << 7 | 3 << 3 | 1
    /// TYPE_RGBA_8.
    static let typeRGBA8: UInt32 = ptRGB << 16 | 1 << 7 | 3 << 3 | 1
    /// TYPE_CMYK_8.
    static let typeCMYK8: UInt32 = ptCMYK << 16 | 4 << 3 | 1
    /// TYPE_CMYK_8_REV: inverted CMYK (0 = full ink), as Adobe writes it.
    static let typeCMYK8Reversed: UInt32 = typeCMYK8 | 1 << 13
    /// One grey byte followed by three ignored bytes: a grey JPEG decoded to BGRA (B = G = R).
    static let typeGrayInBGRA: UInt32 = ptGray << 16 | 3 << 7 | 1 << 3 | 1

    /// The profile's description (its `desc` tag), or nil when LittleCMS cannot read the profile.
    static func description(ofICC icc: [UInt8]) -> String? {
        withProfile(icc) { _, profile in profileDescription(profile) } ?? nil
    }

    /// Whether a profile is (by its own name) sRGB, so converting would change nothing.
    static func namesSRGB(_ description: String?) -> Bool {
        guard let d = description?.lowercased() else { return false }
        return d.contains("srgb") || d.contains("iec61966-2.1") || d.contains("iec 61966-2-1")
    }

    /// Converts the raster to sRGB in place from the colour space `icc` describes. Grey and colour
    /// rasters stay in their layout; a CMYK raster becomes BGRA. Returns false (raster untouched)
    /// when the profile cannot be read, does not match the pixels, or is already sRGB.
    @discardableResult
    static func convertToSRGB(_ raster: PhotoRaster, icc: [UInt8]) -> Bool {
        withProfile(icc) { context, source -> Bool in
            let space = cmsGetColorSpace(source)
            let inputFormat: UInt32
            switch (raster.layout, space) {
            case (.bgra, cmsSigRgbData):
                if namesSRGB(profileDescription(source)) { return false }
                inputFormat = typeBGRA8
            case (.rgba, cmsSigRgbData):
                if namesSRGB(profileDescription(source)) { return false }
                inputFormat = typeRGBA8
            case (.bgra, cmsSigGrayData) where raster.isGray:
                inputFormat = typeGrayInBGRA
            case (.cmyk(let inverted), cmsSigCmykData):
                inputFormat = inverted ? typeCMYK8Reversed : typeCMYK8
            default:
                return false
            }
            // Matrix/TRC profiles (Display P3, Adobe RGB, most camera profiles) take the fast path.
            if space == cmsSigRgbData, let fast = MatrixShaperConversion(source: source, context: context) {
                fast.apply(to: raster)
                return true
            }
            let outputFormat = raster.layout == .rgba ? typeRGBA8 : typeBGRA8
            // Colour in, colour out: alpha is copied by LittleCMS and each row copied back whole.
            let rgbToRGB = space == cmsSigRgbData
            guard let srgb = cmsCreate_sRGBProfileTHR(context) else { return false }
            defer { cmsCloseProfile(srgb) }
            // Perceptual: LUT profiles (CMYK, some camera profiles) map out-of-gamut colours gently;
            // matrix/TRC profiles (Display P3, Adobe RGB) have no perceptual table, and LittleCMS then
            // uses relative colorimetric: exact for in-gamut colours, clipped outside.
            let flags = rgbToRGB ? UInt32(cmsFLAGS_COPY_ALPHA) : 0
            guard let transform = cmsCreateTransformTHR(context, source, inputFormat, srgb, outputFormat, UInt32(INTENT_PERCEPTUAL), flags) else {
                return false
            }
            defer { cmsDeleteTransform(transform) }
            // Each row is converted into a scratch row and copied back: LittleCMS does not promise
            // in-place conversion, and the alpha byte is kept as it was (255 for CMYK).
            let width = raster.width
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
            defer { scratch.deallocate() }
            let keepsAlpha: Bool = if case .cmyk = raster.layout { false } else { true }
            for y in 0..<raster.height {
                let row = raster.pixels + y * raster.stride
                cmsDoTransform(transform, row, scratch, UInt32(width))
                if rgbToRGB {
                    row.update(from: scratch, count: width * 4)
                    continue
                }
                for x in 0..<width {
                    let i = x * 4
                    row[i] = scratch[i]; row[i + 1] = scratch[i + 1]; row[i + 2] = scratch[i + 2]
                    if !keepsAlpha { row[i + 3] = 255 }
                }
            }
            if case .cmyk = raster.layout { raster.layout = .bgra }
            return true
        } ?? false
    }

    /// Converts CMYK to BGRA without a profile, the way browsers do: R = (1 − C)(1 − K) and so on.
    static func convertCMYKNaively(_ raster: PhotoRaster) {
        guard case .cmyk(let inverted) = raster.layout else { return }
        for y in 0..<raster.height {
            let row = raster.pixels + y * raster.stride
            for x in 0..<raster.width {
                let p = row + x * 4
                // Ink-free amounts (255 = no ink).
                var c = UInt32(p[0]), m = UInt32(p[1]), yy = UInt32(p[2]), k = UInt32(p[3])
                if !inverted { c = 255 - c; m = 255 - m; yy = 255 - yy; k = 255 - k }
                p[0] = UInt8((yy * k + 127) / 255)   // blue
                p[1] = UInt8((m * k + 127) / 255)    // green
                p[2] = UInt8((c * k + 127) / 255)    // red
                p[3] = 255
            }
        }
        raster.layout = .bgra
    }

    /// An RGB matrix/TRC profile with the given CIE xy primaries and white point and the sRGB tone
    /// curve, as ICC bytes: Display P3 for `displayP3ProfileData`, and HEIF files whose colour is
    /// described by primaries (nclx) rather than an embedded profile.
    static func rgbProfileData(red: (Double, Double), green: (Double, Double), blue: (Double, Double),
                               white: (Double, Double), description: String, gamma: Double? = nil) -> [UInt8]? {
        guard let context = cmsCreateContext(nil, nil) else { return nil }
        defer { cmsDeleteContext(context) }
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: red.0, y: red.1, Y: 1),
                                        Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
                                        Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        // A pure gamma (type 1), or IEC 61966-2-1 (type 4): Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below.
        let curve = if let gamma {
            cmsBuildParametricToneCurve(context, 1, [gamma])
        } else {
            cmsBuildParametricToneCurve(context, 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        }
        guard let curve else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfileTHR(context, &whitePoint, &primaries, &curves) else { return nil }
        defer { cmsCloseProfile(profile) }
        if let mlu = cmsMLUalloc(context, 1) {
            cmsMLUsetASCII(mlu, "en", "US", description)
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
            cmsMLUfree(mlu)
        }
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return bytes
    }

    /// Adobe RGB (1998): its primaries, D65 white and a 2.2 (563/256) gamma, as cameras embed it.
    static func adobeRGBProfileData() -> [UInt8]? {
        rgbProfileData(red: (0.640, 0.330), green: (0.210, 0.710), blue: (0.150, 0.060),
                       white: (0.3127, 0.3290), description: "Adobe RGB (1998)", gamma: 563.0 / 256.0)
    }

    /// Display P3 (DCI-P3 primaries, D65 white, sRGB tone curve): the profile iPhones embed.
    static func displayP3ProfileData() -> [UInt8]? {
        rgbProfileData(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
                       white: (0.3127, 0.3290), description: "Display P3")
    }

    /// A profile for H.273 colour primaries (a HEIF nclx box) other than BT.709/sRGB, or nil.
    static func profileData(forH273Primaries code: Int) -> [UInt8]? {
        switch code {
        case 9:  // BT.2020
            return rgbProfileData(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046),
                                  white: (0.3127, 0.3290), description: "BT.2020 primaries (nclx)")
        case 11:  // DCI-P3, DCI white
            return rgbProfileData(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
                                  white: (0.314, 0.351), description: "DCI-P3 primaries (nclx)")
        case 12:  // Display P3 (SMPTE EG 432-1)
            return displayP3ProfileData()
        default:
            return nil
        }
    }

    /// Opens `icc` in a fresh context and calls `body`; nil when the profile cannot be read.
    private static func withProfile<T>(_ icc: [UInt8], _ body: (cmsContext, cmsHPROFILE) -> T) -> T? {
        guard !icc.isEmpty, let context = cmsCreateContext(nil, nil) else { return nil }
        defer { cmsDeleteContext(context) }
        let opened = icc.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, UInt32($0.count)) }
        guard let profile = opened else { return nil }
        defer { cmsCloseProfile(profile) }
        return body(context, profile)
    }

    private static func profileDescription(_ profile: cmsHPROFILE) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        guard n > 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}

/// RGB → sRGB for matrix/TRC profiles without LittleCMS's per-pixel pipeline: a 256-entry table
/// per channel to linear light, one 3 × 3 matrix (the profile's colorants into sRGB's, both adapted
/// to the ICC D50 white, so relative colorimetric), and a table back through the sRGB curve. The
/// same arithmetic LittleCMS does for these profiles, about five times faster; a test checks the
/// two agree within a level.
struct MatrixShaperConversion {
    /// Per channel (R, G, B), the linear value of each 8-bit code.
    private let toLinear: [[Float]]
    /// Row-major: sRGB linear = matrix × source linear.
    private let matrix: [Float]
    /// The sRGB 8-bit code of linear values 0 … 1 in `steps` steps.
    private let toSRGB: [UInt8]
    private static let steps = 16384

    /// The conversion for `source`, or nil when it is not a matrix/TRC RGB profile.
    init?(source: cmsHPROFILE, context: cmsContext) {
        guard cmsIsMatrixShaper(source) != 0, cmsGetColorSpace(source) == cmsSigRgbData,
              let p = Self.colorants(source), let srgb = cmsCreate_sRGBProfileTHR(context) else { return nil }
        defer { cmsCloseProfile(srgb) }
        guard let s = Self.colorants(srgb), let sInverse = Self.invert(s) else { return nil }
        var curves: [[Float]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(source, tag) else { return nil }
            let curve = OpaquePointer(raw)
            curves.append((0..<256).map { cmsEvalToneCurveFloat(curve, Float($0) / 255) })
        }
        toLinear = curves
        var m = [Float](repeating: 0, count: 9)
        for r in 0..<3 { for c in 0..<3 { m[r * 3 + c] = Float((0..<3).reduce(0.0) { $0 + sInverse[r][$1] * p[$1][c] }) } }
        matrix = m
        toSRGB = (0...Self.steps).map { i in
            let v = Double(i) / Double(Self.steps)
            let e = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8((min(1, max(0, e)) * 255).rounded())
        }
    }

    /// Converts BGRA or RGBA pixels in place; alpha is kept.
    func apply(to raster: PhotoRaster) {
        let redIndex = raster.layout == .rgba ? 0 : 2, blueIndex = 2 - redIndex
        let steps = Float(Self.steps)
        let m = matrix
        toLinear[0].withUnsafeBufferPointer { lr in
        toLinear[1].withUnsafeBufferPointer { lg in
        toLinear[2].withUnsafeBufferPointer { lb in
        toSRGB.withUnsafeBufferPointer { out in
            func encode(_ v: Float) -> UInt8 {
                let clipped = min(1, max(0, v))
                return out[Int(clipped * steps + 0.5)]
            }
            for y in 0..<raster.height {
                let row = raster.pixels + y * raster.stride
                for x in 0..<raster.width {
                    let p = row + x * 4
                    let r = lr[Int(p[redIndex])], g = lg[Int(p[1])], b = lb[Int(p[blueIndex])]
                    p[redIndex] = encode(m[0] * r + m[1] * g + m[2] * b)
                    p[1] = encode(m[3] * r + m[4] * g + m[5] * b)
                    p[blueIndex] = encode(m[6] * r + m[7] * g + m[8] * b)
                }
            }
        }
        }
        }
        }
    }

    /// The profile's colorants as a matrix whose columns are rXYZ, gXYZ, bXYZ.
    private static func colorants(_ profile: cmsHPROFILE) -> [[Double]]? {
        var columns: [[Double]] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            let xyz = raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
            columns.append([xyz.X, xyz.Y, xyz.Z])
        }
        return (0..<3).map { r in (0..<3).map { c in columns[c][r] } }
    }

    private static func invert(_ m: [[Double]]) -> [[Double]]? {
        let a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][0], e = m[1][1], f = m[1][2], g = m[2][0], h = m[2][1], i = m[2][2]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard abs(det) > 1e-12 else { return nil }
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }
}

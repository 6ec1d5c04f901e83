import CHeif
import CJPEG
import CLCMS
import CPNG
import CWebP
import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Every fixture is written by the tests themselves with the libraries' own encoders (libjpeg,
// libpng, libwebp, libheif/x265, LittleCMS for the ICC profile, the ffmpeg CLI for TIFF/BMP/GIF);
// EXIF and ICC segments are assembled by hand. No binary test data is checked in.

// MARK: - Fixture pictures

/// Display P3 → sRGB, computed analytically (RGB→XYZ matrices from the primaries, same D65 white,
/// the sRGB curve on both sides), as 0 … 255 values clipped to the sRGB gamut.
func analyticP3ToSRGB(_ rgb: (Int, Int, Int)) -> (Int, Int, Int) {
    func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
    func toXYZ(_ p: [(Double, Double)], white: (Double, Double)) -> [[Double]] {
        let cols = p.map { [$0.0 / $0.1, 1, (1 - $0.0 - $0.1) / $0.1] }
        let P = [[cols[0][0], cols[1][0], cols[2][0]], [cols[0][1], cols[1][1], cols[2][1]], [cols[0][2], cols[1][2], cols[2][2]]]
        let W = [white.0 / white.1, 1, (1 - white.0 - white.1) / white.1]
        let S = multiply(invert(P), W)
        return P.map { row in (0..<3).map { row[$0] * S[$0] } }
    }
    func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { r in (0..<3).reduce(0) { $0 + r[$1] * v[$1] } } }
    func invert(_ m: [[Double]]) -> [[Double]] {
        let a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][0], e = m[1][1], f = m[1][2], g = m[2][0], h = m[2][1], i = m[2][2]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }
    let d65 = (0.3127, 0.3290)
    let p3 = toXYZ([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], white: d65)
    let srgb = toXYZ([(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)], white: d65)
    let linear = [rgb.0, rgb.1, rgb.2].map { decode(Double($0) / 255) }
    let out = multiply(invert(srgb), multiply(p3, linear)).map { Int((encode(min(1, max(0, $0))) * 255).rounded()) }
    return (out[0], out[1], out[2])
}

/// Decodes for a 16×16 box, the error as a value.
func decodeResult(_ url: URL) -> Result<DecodedPhoto, MovieMakerError> {
    do throws(MovieMakerError) {
        return .success(try PhotoDecoder.decode(url, fitting: Size(width: 16, height: 16)))
    } catch {
        return .failure(error)
    }
}

// MARK: - Tests

@Suite("Photo decoding")
struct PhotoDecodingTests {
    @Test("all eight EXIF orientations: the red corner lands top-left, sides swap for 5–8, dates read")
    func exifOrientations() throws {
        let folder = try TemporaryFolder()
        let upright = RGBAPicture.quadrants(width: 64, height: 48)
        for orientation in 1...8 {
            let stored = upright.stored(for: orientation)
            let exif = FixtureJPEG.exifTIFF(orientation: orientation, bigEndian: orientation % 2 == 0)
            let url = folder.file("orientation-\(orientation).jpg")
            try FixtureJPEG.data(stored, markers: [FixtureJPEG.app1(exif)]).write(to: url)
            let photo = try PhotoDecoder.decode(url)
            #expect(photo.info.orientation.rawValue == orientation)
            #expect(photo.image.width == 64 && photo.image.height == 48,
                    "orientation \(orientation): stored \(stored.width)×\(stored.height), decoded \(photo.image.width)×\(photo.image.height)")
            #expect(photo.info.width == 64 && photo.info.height == 48)
            expectQuadrants(pixels(photo), tolerance: 24, "orientation \(orientation)")
            // 2024-05-17 14:30:05 at +02:00 is 12:30:05 UTC.
            #expect(photo.info.captureDate == Date(timeIntervalSince1970: 1_715_949_005), "capture date \(String(describing: photo.info.captureDate))")
        }
        // The header alone gives the upright size without decoding.
        let info = try PhotoDecoder.info(folder.file("orientation-6.jpg"))
        #expect(info.width == 64 && info.height == 48 && info.orientation == .right && info.format == .jpeg)
    }

    @Test("CMYK JPEG (Adobe inverted) decodes to the right RGB colours")
    func cmykJPEG() throws {
        let folder = try TemporaryFolder()
        // Ink amounts in R, G, B, A = C, M, Y, K: cyan, magenta, yellow, half black.
        let inks = RGBAPicture(width: 64, height: 64) { x, y in
            switch (x < 32, y < 32) {
            case (true, true): (255, 0, 0, 0)
            case (false, true): (0, 255, 0, 0)
            case (true, false): (0, 0, 255, 0)
            case (false, false): (0, 0, 0, 128)
            }
        }
        let url = folder.file("cmyk.jpg")
        try FixtureJPEG.data(inks, colors: .cmykInverted, quality: 98).write(to: url)
        let p = pixels(try PhotoDecoder.decode(url))
        expectColor(p, 8, 8, (0, 255, 255, 255), tolerance: 6, "cyan")
        expectColor(p, 56, 8, (255, 0, 255, 255), tolerance: 6, "magenta")
        expectColor(p, 8, 56, (255, 255, 0, 255), tolerance: 6, "yellow")
        expectColor(p, 56, 56, (127, 127, 127, 255), tolerance: 6, "half black")
    }

    @Test("greyscale and progressive JPEGs decode to the right pixels")
    func grayAndProgressiveJPEG() throws {
        let folder = try TemporaryFolder()
        let grays = RGBAPicture(width: 64, height: 32) { x, _ in x < 32 ? (50, 50, 50, 255) : (200, 200, 200, 255) }
        let grayURL = folder.file("gray.jpg")
        try FixtureJPEG.data(grays, colors: .gray).write(to: grayURL)
        let g = pixels(try PhotoDecoder.decode(grayURL))
        expectColor(g, 8, 16, (50, 50, 50, 255), tolerance: 2, "dark grey")
        expectColor(g, 56, 16, (200, 200, 200, 255), tolerance: 2, "light grey")

        // A grey profile with a linear (gamma 1) curve: code 128 is half the light, sRGB 188.
        let context = try #require(cmsCreateContext(nil, nil))
        defer { cmsDeleteContext(context) }
        var d50 = cmsCIExyY(x: 0.3457, y: 0.3585, Y: 1)
        let linear = try #require(cmsBuildGamma(context, 1.0))
        defer { cmsFreeToneCurve(linear) }
        let grayProfile = try #require(cmsCreateGrayProfileTHR(context, &d50, linear))
        defer { cmsCloseProfile(grayProfile) }
        var profileSize: UInt32 = 0
        cmsSaveProfileToMem(grayProfile, nil, &profileSize)
        var grayICC = [UInt8](repeating: 0, count: Int(profileSize))
        cmsSaveProfileToMem(grayProfile, &grayICC, &profileSize)
        let half = RGBAPicture(width: 16, height: 16) { _, _ in (128, 128, 128, 255) }
        let linearURL = folder.file("gray-linear.jpg")
        try FixtureJPEG.data(half, colors: .gray, markers: FixtureJPEG.app2(icc: grayICC)).write(to: linearURL)
        expectColor(pixels(try PhotoDecoder.decode(linearURL)), 8, 8, (188, 188, 188, 255), tolerance: 2, "linear grey 128 in sRGB")

        let progressiveURL = folder.file("progressive.jpg")
        try FixtureJPEG.data(.quadrants(width: 64, height: 64), progressive: true, fullChroma: false).write(to: progressiveURL)
        let photo = try PhotoDecoder.decode(progressiveURL)
        #expect(photo.info.isProgressive)
        expectQuadrants(pixels(photo), tolerance: 24, "progressive")
    }

    @Test("a 4000×3000 JPEG asked for 1000×750 is decoded by DCT scaling, at most twice the target per side")
    func dctScaling() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("large.jpg")
        try FixtureJPEG.largeQuadrants(width: 4000, height: 3000).write(to: url)
        let photo = try PhotoDecoder.decode(url, fitting: Size(width: 1000, height: 750))
        #expect(photo.image.width >= 1000 && photo.image.width <= 2000, "decoded width \(photo.image.width)")
        #expect(photo.image.height >= 750 && photo.image.height <= 1500, "decoded height \(photo.image.height)")
        #expect(photo.info.width == 4000 && photo.info.height == 3000)
        expectQuadrants(pixels(photo), tolerance: 24, "scaled")
        // Filling a wide box needs more height: still covered, still scaled down.
        let filled = try PhotoDecoder.decode(url, scaling: .filling(Size(width: 1000, height: 1000)))
        #expect(filled.image.width >= 1333 && filled.image.height >= 1000 && filled.image.width < 4000, "filled \(filled.image.width)×\(filled.image.height)")
    }

    @Test("PNG: 16-bit, palette with transparency, grey + alpha, interlaced and reduced while streaming")
    func pngVariants() throws {
        let folder = try TemporaryFolder()
        // 16-bit RGB: each value v stored as v·257 decodes back to v.
        let colors = RGBAPicture(width: 32, height: 16) { x, _ in x < 16 ? (200, 100, 7, 255) : (1, 128, 255, 255) }
        let url16 = folder.file("deep.png")
        FixturePNG.write(colors, kind: .rgb16, to: url16)
        let p16 = pixels(try PhotoDecoder.decode(url16))
        expectColor(p16, 4, 8, (200, 100, 7, 255), tolerance: 0, "16-bit left")
        expectColor(p16, 28, 8, (1, 128, 255, 255), tolerance: 0, "16-bit right")

        // Palette with a half-transparent yellow (tRNS): decoded premultiplied.
        let paletted = RGBAPicture(width: 16, height: 16) { x, y in
            switch (x < 8, y < 8) {
            case (true, true): (255, 0, 0, 255)
            case (false, true): (0, 255, 0, 255)
            case (true, false): (0, 0, 255, 255)
            case (false, false): (255, 255, 0, 128)
            }
        }
        let paletteURL = folder.file("palette.png")
        FixturePNG.write(paletted, kind: .palette, to: paletteURL)
        let pp = pixels(try PhotoDecoder.decode(paletteURL))
        expectColor(pp, 2, 2, (255, 0, 0, 255), tolerance: 0, "palette red")
        expectColor(pp, 12, 2, (0, 255, 0, 255), tolerance: 0, "palette green")
        expectColor(pp, 2, 12, (0, 0, 255, 255), tolerance: 0, "palette blue")
        expectColor(pp, 12, 12, (128, 128, 0, 128), tolerance: 1, "palette yellow at half alpha (premultiplied)")

        // Grey + alpha.
        let grayAlpha = RGBAPicture(width: 16, height: 8) { x, _ in x < 8 ? (200, 200, 200, 255) : (100, 100, 100, 64) }
        let gaURL = folder.file("gray-alpha.png")
        FixturePNG.write(grayAlpha, kind: .grayAlpha8, to: gaURL)
        let ga = pixels(try PhotoDecoder.decode(gaURL))
        expectColor(ga, 2, 4, (200, 200, 200, 255), tolerance: 0, "opaque grey")
        expectColor(ga, 12, 4, (25, 25, 25, 64), tolerance: 1, "grey at quarter alpha (premultiplied)")

        // EXIF orientation in an eXIf chunk.
        let exifURL = folder.file("rotated.png")
        FixturePNG.write(RGBAPicture.quadrants(width: 32, height: 16).stored(for: 3), kind: .rgba8, to: exifURL,
                         exif: FixtureJPEG.exifTIFF(orientation: 3, bigEndian: false))
        let rotated = try PhotoDecoder.decode(exifURL)
        #expect(rotated.info.orientation == .down)
        expectQuadrants(pixels(rotated), tolerance: 0, "PNG eXIf orientation 3")

        // Interlaced 640×480 RGBA, and the same non-interlaced, reduced 4× for a 160×120 box.
        let big = RGBAPicture.quadrants(width: 640, height: 480)
        for interlaced in [false, true] {
            let url = folder.file("big-\(interlaced).png")
            FixturePNG.write(big, kind: .rgba8, to: url, interlaced: interlaced)
            let photo = try PhotoDecoder.decode(url, fitting: Size(width: 160, height: 120))
            #expect(photo.image.width == 160 && photo.image.height == 120, "interlaced \(interlaced): \(photo.image.width)×\(photo.image.height)")
            #expect(photo.info.isProgressive == interlaced)
            expectQuadrants(pixels(photo), tolerance: 0, "reduced PNG, interlaced \(interlaced)")
        }
    }

    @Test("WebP: lossless exact; extended with ICC and EXIF orientation; scaled while decoding")
    func webp() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture(width: 32, height: 32) { x, y in
            x < 16 ? (10, 200, 30, 255) : (y < 16 ? (250, 5, 128, 255) : (0, 0, 255, 102))
        }
        let url = folder.file("lossless.webp")
        try Data(FixtureWebP.lossless(picture)).write(to: url)
        let p = pixels(try PhotoDecoder.decode(url))
        expectColor(p, 4, 4, (10, 200, 30, 255), tolerance: 0, "lossless green")
        expectColor(p, 28, 4, (250, 5, 128, 255), tolerance: 0, "lossless pink")
        expectColor(p, 28, 28, (0, 0, 102, 102), tolerance: 1, "lossless blue at 40% alpha (premultiplied)")

        // Extended WebP: the stored picture needs orientation 6, and it carries a Display P3 profile.
        let p3 = try #require(ColorManagement.displayP3ProfileData())
        let upright = RGBAPicture.quadrants(width: 64, height: 48)
        let stored = upright.stored(for: 6)
        let simple = FixtureWebP.lossy(stored)
        let extended = FixtureWebP.extended(simple, width: stored.width, height: stored.height, icc: p3,
                                            exif: FixtureJPEG.exifTIFF(orientation: 6))
        let extURL = folder.file("extended.webp")
        try Data(extended).write(to: extURL)
        let photo = try PhotoDecoder.decode(extURL)
        #expect(photo.info.orientation == .right && photo.info.colorProfile == "Display P3")
        #expect(photo.image.width == 64 && photo.image.height == 48)
        // Pure P3 primaries fall outside sRGB: red stays red (clipped), and so on.
        expectQuadrants(pixels(photo), tolerance: 40, "extended WebP")

        let scaled = try PhotoDecoder.decode(extURL, fitting: Size(width: 32, height: 24))
        #expect(scaled.image.width == 32 && scaled.image.height == 24, "scaled \(scaled.image.width)×\(scaled.image.height)")
        expectQuadrants(pixels(scaled), tolerance: 40, "scaled WebP")
    }

    @Test("HEIC written by libheif/x265: irot orientation, Display P3 colour, reduced to a box; AVIF")
    func heic() throws {
        guard FixtureHEIC.encoderAvailable else {
            Issue.record("libheif has no HEVC encoder (x265) here: HEIC decoding is untested")
            return
        }
        let folder = try TemporaryFolder()
        // libheif writes the orientation as irot/imir boxes: decoding must show the picture upright,
        // which also checks the test's own stored-picture table against libheif's reading of EXIF.
        let upright = RGBAPicture.quadrants(width: 64, height: 48)
        for orientation in [1, 2, 6, 8] {
            let url = folder.file("o\(orientation).heic")
            try FixtureHEIC.write(upright.stored(for: orientation), to: url, orientation: orientation)
            let photo = try PhotoDecoder.decode(url)
            #expect(photo.info.format == .heif)
            #expect(photo.image.width == 64 && photo.image.height == 48, "HEIC orientation \(orientation): \(photo.image.width)×\(photo.image.height)")
            expectQuadrants(pixels(photo), tolerance: 24, "HEIC orientation \(orientation)")
        }
        // An HDR still (BT.2020 with the PQ or HLG curve, a Canon .HIF in HDR mode) is refused naming the
        // file and the way out, as HDR video is: cut to 8 bits with an SDR curve it showed dim and flat.
        for (curve, transfer) in [("PQ", heif_transfer_characteristic_ITU_R_BT_2100_0_PQ), ("HLG", heif_transfer_characteristic_ITU_R_BT_2100_0_HLG)] {
            let hdr = folder.file("hdr-\(curve).heic")
            try FixtureHEIC.write(upright, to: hdr, nclxTransfer: transfer)
            for attempt in [{ _ = try PhotoDecoder.decode(hdr) }, { _ = try PhotoDecoder.info(hdr) }] as [() throws -> Void] {
                do {
                    try attempt()
                    Issue.record("the \(curve) HDR photo was read")
                } catch let error as MovieMakerError {
                    #expect(error.code == .imageUnreadable && error.location?.file == hdr.path && error.description.contains("HDR photo (\(curve))")
                            && error.description.contains("SDR"), "\(error)")
                }
            }
        }
        // An iPhone-like HEIC: Display P3 profile, a colour inside sRGB.
        let p3 = try #require(ColorManagement.displayP3ProfileData())
        let flat = RGBAPicture(width: 64, height: 64) { _, _ in (204, 102, 77, 255) }
        let url = folder.file("p3.heic")
        try FixtureHEIC.write(flat, to: url, icc: p3, quality: 95)
        let photo = try PhotoDecoder.decode(url)
        #expect(photo.info.colorProfile == "Display P3")
        let e = analyticP3ToSRGB((204, 102, 77))
        expectColor(pixels(photo), 32, 32, (e.0, e.1, e.2, 255), tolerance: 4, "HEIC P3 (0.8, 0.4, 0.3) in sRGB")

        let reduced = try PhotoDecoder.decode(folder.file("o1.heic"), fitting: Size(width: 16, height: 12))
        #expect(reduced.image.width == 16 && reduced.image.height == 12, "reduced HEIC \(reduced.image.width)×\(reduced.image.height)")

        // AVIF goes through the same libheif path (AV1 via dav1d/aom).
        if FixtureHEIC.hasEncoder(heif_compression_AV1) {
            let avifURL = folder.file("picture.avif")
            try FixtureHEIC.write(upright.stored(for: 8), to: avifURL, orientation: 8, compression: heif_compression_AV1)
            let avif = try PhotoDecoder.decode(avifURL)
            #expect(avif.info.format == .avif && avif.image.width == 64 && avif.image.height == 48)
            expectQuadrants(pixels(avif), tolerance: 24, "AVIF orientation 8")
        }
    }

    @Test("A HEIC whose Exif item lies past the first 256 KB (after a large picture's data) still gives its capture date")
    func heicExifAfterThePicture() throws {
        guard FixtureHEIC.encoderAvailable else { return }
        let folder = try TemporaryFolder()
        // Noise compresses badly: the picture's data alone is well over 256 KB.
        var seed: UInt64 = 1
        let noise = RGBAPicture(width: 512, height: 512) { _, _ in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (UInt8(truncatingIfNeeded: seed >> 33), UInt8(truncatingIfNeeded: seed >> 41), UInt8(truncatingIfNeeded: seed >> 49), 255)
        }
        let url = folder.file("late-exif.heic")
        try FixtureHEIC.write(noise, to: url, quality: 100, exif: FixtureJPEG.exifTIFF(orientation: 1, date: "2024:05:17 14:30:05", offset: "+02:00"))
        let bytes = try Data(contentsOf: url)
        let at = try #require(bytes.range(of: Data("2024:05:17 14:30:05".utf8))?.lowerBound)
        #expect(at > 256 * 1024, "the fixture must put its Exif item past the first 256 KB: at byte \(at)")
        let info = try PhotoDecoder.info(url)
        #expect(info.captureDate == ISO8601DateFormatter().date(from: "2024-05-17T12:30:05Z"), "\(String(describing: info.captureDate))")
        #expect(info.width == 512 && info.height == 512)
    }

    @Test("A capture time without an offset is a moment in the given zone, with the offset in force then, also across a DST change")
    func captureMomentReadsTheWallClockInAZone() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture(width: 8, height: 8) { _, _ in (9, 9, 9, 255) }
        func info(_ date: String, offset: String) throws -> PhotoInfo {
            let url = folder.file("\(date.filter(\.isNumber))\(offset.filter(\.isNumber)).jpg")
            try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: date, offset: offset))]).write(to: url)
            return try PhotoDecoder.info(url)
        }
        func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        let newYork = try #require(TimeZone(identifier: "America/New_York")), sydney = try #require(TimeZone(identifier: "Australia/Sydney"))
        // New York's clocks went from 02:00 EST to 03:00 EDT (07:00 UTC) on 2024-03-10: 04:30 that
        // morning is EDT (UTC−4), though 04:30 read as UTC falls before the change.
        #expect(try info("2024:03:10 04:30:00", offset: "      ").captureMoment(in: newYork) == utc("2024-03-10T08:30:00Z"))
        #expect(try info("2024:03:10 12:00:00", offset: "      ").captureMoment(in: newYork) == utc("2024-03-10T16:00:00Z"))
        // Sydney left daylight time at 03:00 AEDT on 2024-04-07 (16:00 UTC the day before): 20:00 on the
        // 6th is still AEDT (UTC+11), though 20:00 read as UTC falls after the change.
        #expect(try info("2024:04:06 20:00:00", offset: "      ").captureMoment(in: sydney) == utc("2024-04-06T09:00:00Z"))
        // A recorded offset wins over the zone; no date, no moment.
        #expect(try info("2024:03:10 04:30:00", offset: "+02:00").captureMoment(in: newYork) == utc("2024-03-10T02:30:00Z"))
        let plain = folder.file("plain.jpg")
        try FixtureJPEG.data(picture).write(to: plain)
        #expect(try PhotoDecoder.info(plain).captureMoment(in: newYork) == nil)
        // A burst without an offset keeps its fractions of a second (they were dropped, so photos taken
        // in one second fell back to name order).
        let burst = try ["250", "750"].map { sub -> Date? in
            let url = folder.file("burst\(sub).jpg")
            try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2024:03:10 12:00:00", offset: "      ", subSeconds: sub))]).write(to: url)
            return try PhotoDecoder.info(url).captureMoment(in: newYork)
        }
        #expect(burst[0].map { abs($0.timeIntervalSince(utc("2024-03-10T16:00:00Z")) - 0.25) < 1e-6 } == true, "\(String(describing: burst[0]))")
        #expect(burst[1].map { abs($0.timeIntervalSince(utc("2024-03-10T16:00:00Z")) - 0.75) < 1e-6 } == true, "\(String(describing: burst[1]))")
    }

    @Test("Display P3 ICC profile: P3 (0.8, 0.4, 0.3) decodes to its sRGB value; P3 red clips to sRGB red")
    func displayP3() throws {
        let folder = try TemporaryFolder()
        let p3 = try #require(ColorManagement.displayP3ProfileData())
        let picture = RGBAPicture(width: 32, height: 16) { x, _ in x < 16 ? (204, 102, 77, 255) : (255, 0, 0, 255) }
        let expected = analyticP3ToSRGB((204, 102, 77))
        // The conversion must change the colour, or the test proves nothing.
        #expect(abs(expected.0 - 204) + abs(expected.1 - 102) + abs(expected.2 - 77) > 15, "analytic \(expected)")

        // PNG (lossless): within 2 levels of the analytic conversion.
        let pngURL = folder.file("p3.png")
        FixturePNG.write(picture, kind: .rgba8, to: pngURL, icc: p3)
        let png = try PhotoDecoder.decode(pngURL)
        #expect(png.info.colorProfile == "Display P3")
        expectColor(pixels(png), 4, 8, (expected.0, expected.1, expected.2, 255), tolerance: 2, "PNG P3 (0.8, 0.4, 0.3)")
        let red = pixels(png).rgba(x: 28, y: 8)
        #expect(red.red >= 250 && red.green <= 8 && red.blue <= 8, "P3 red in sRGB: \(red)")

        // JPEG with the profile split across two APP2 segments, as large profiles are.
        let jpegURL = folder.file("p3.jpg")
        try FixtureJPEG.data(picture, quality: 100, markers: FixtureJPEG.app2(icc: p3, chunkSize: p3.count / 2 + 1)).write(to: jpegURL)
        let jpeg = try PhotoDecoder.decode(jpegURL)
        #expect(jpeg.info.colorProfile == "Display P3")
        expectColor(pixels(jpeg), 4, 8, (expected.0, expected.1, expected.2, 255), tolerance: 3, "JPEG P3 (0.8, 0.4, 0.3)")
    }

    /// A camera set to Adobe RGB marks its JPEGs in EXIF (ColorSpace uncalibrated, Interoperability
    /// index "R03") instead of embedding the profile: decoded as the same JPEG with the profile embedded
    /// would be, not as sRGB (washed out).
    @Test func aJPEGMarkedAdobeRGBInEXIFIsConvertedAsIfItsProfileWereEmbedded() throws {
        let folder = try TemporaryFolder()
        let flat = RGBAPicture(width: 32, height: 32) { _, _ in (200, 60, 60, 255) }
        let adobe = try #require(ColorManagement.adobeRGBProfileData())
        let marked = folder.file("_MG_0001.jpg"), embedded = folder.file("embedded.jpg"), plain = folder.file("plain.jpg")
        try FixtureJPEG.data(flat, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, adobeRGB: true))]).write(to: marked)
        try FixtureJPEG.data(flat, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1))] + FixtureJPEG.app2(icc: adobe)).write(to: embedded)
        try FixtureJPEG.data(flat, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1))]).write(to: plain)
        let m = pixels(try PhotoDecoder.decode(marked)).rgba(x: 16, y: 16)
        let e = pixels(try PhotoDecoder.decode(embedded)).rgba(x: 16, y: 16)
        let p = pixels(try PhotoDecoder.decode(plain)).rgba(x: 16, y: 16)
        #expect(abs(Int(m.red) - Int(e.red)) <= 1 && abs(Int(m.green) - Int(e.green)) <= 1 && abs(Int(m.blue) - Int(e.blue)) <= 1, "marked \(m), embedded \(e)")
        #expect(abs(Int(m.red) - Int(p.red)) + abs(Int(m.green) - Int(p.green)) > 10, "converted, unlike sRGB: marked \(m), plain \(p)")
    }

    /// A panorama long enough that filling a frame needs more than an image's 32767 pixels a side: kept
    /// to that side, a PNG and a JPEG alike (it decoded at 34000 px and failed the render when drawn,
    /// after passing the small check before the first frame).
    @Test func aPanoramaFillingTheFrameIsKeptWithinAnImagesLargestSide() throws {
        let folder = try TemporaryFolder()
        let panorama = RGBAPicture(width: 34_000, height: 40) { x, _ in x < 17_000 ? (200, 40, 40, 255) : (40, 40, 200, 255) }
        let png = folder.file("pano.png"), jpeg = folder.file("pano.jpg")
        FixturePNG.write(panorama, kind: .rgba8, to: png)
        try FixtureJPEG.data(panorama).write(to: jpeg)
        for url in [png, jpeg] {
            let photo = try PhotoDecoder.decode(url, scaling: .filling(Size(width: 2150, height: 1210)))
            #expect(photo.image.width <= 32_767 && photo.image.width >= 16_000, "\(url.lastPathComponent): \(photo.image.width)×\(photo.image.height)")
            let p = pixels(photo)
            expectColor(p, p.width / 4, p.height / 2, (200, 40, 40, 255), tolerance: 6, "\(url.lastPathComponent) left half")
            expectColor(p, 3 * p.width / 4, p.height / 2, (40, 40, 200, 255), tolerance: 6, "\(url.lastPathComponent) right half")
        }
    }

    @Test("the matrix/TRC fast path agrees with LittleCMS within one level (Display P3, Adobe RGB)")
    func matrixShaperMatchesLittleCMS() throws {
        for icc in [ColorManagement.displayP3ProfileData(), ColorManagement.adobeRGBProfileData()] {
            let icc = try #require(icc)
            let context = try #require(cmsCreateContext(nil, nil))
            defer { cmsDeleteContext(context) }
            let source = try #require(icc.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, UInt32($0.count)) })
            defer { cmsCloseProfile(source) }
            let srgb = try #require(cmsCreate_sRGBProfileTHR(context))
            defer { cmsCloseProfile(srgb) }
            let fast = try #require(MatrixShaperConversion(source: source, context: context))
            let raster = try PhotoRaster(width: 4096, height: 1, layout: .bgra, path: "test")
            var rng: UInt64 = 42
            for i in 0..<4096 * 4 {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                raster.pixels[i] = UInt8(truncatingIfNeeded: rng >> 33)
            }
            let original = Array(UnsafeBufferPointer(start: raster.pixels, count: 4096 * 4))
            var reference = [UInt8](repeating: 0, count: 4096 * 4)
            let transform = try #require(cmsCreateTransformTHR(context, source, ColorManagement.typeBGRA8, srgb, ColorManagement.typeBGRA8,
                                                               UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_COPY_ALPHA)))
            defer { cmsDeleteTransform(transform) }
            cmsDoTransform(transform, original, &reference, 4096)
            fast.apply(to: raster)
            var worst = 0
            for i in 0..<4096 * 4 { worst = max(worst, abs(Int(raster.pixels[i]) - Int(reference[i]))) }
            #expect(worst <= 1, "\(ColorManagement.description(ofICC: icc) ?? "?"): largest difference \(worst) levels")
            #expect(original != Array(UnsafeBufferPointer(start: raster.pixels, count: 4096 * 4)), "the conversion changed nothing")
        }
    }

    @Test("TIFF, BMP and GIF (via libavcodec; fixtures made by the ffmpeg CLI from a PNG)")
    func tiffBMPGIF() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let source = folder.file("source.png")
        FixturePNG.write(.quadrants(width: 64, height: 48), kind: .rgba8, to: source)
        for (name, format) in [("tiff", PhotoFormat.tiff), ("bmp", .bmp), ("gif", .gif)] {
            let url = folder.file("picture.\(name)")
            let r = try run(FFTools.ffmpeg, ["-v", "error", "-y", "-i", source.path, url.path])
            try #require(r.status == 0, "ffmpeg could not write \(name): \(r.stderr)")
            let info = try PhotoDecoder.info(url)
            #expect(info.format == format && info.width == 64 && info.height == 48, "\(name): \(info)")
            let photo = try PhotoDecoder.decode(url)
            #expect(photo.image.width == 64 && photo.image.height == 48)
            expectQuadrants(pixels(photo), tolerance: name == "gif" ? 8 : 0, name)
            let reduced = try PhotoDecoder.decode(url, fitting: Size(width: 32, height: 24))
            #expect(reduced.image.width == 32 && reduced.image.height == 24, "\(name) reduced \(reduced.image.width)×\(reduced.image.height)")
        }
    }

    @Test("a truncated JPEG and a text file named .jpg give typed errors naming the file")
    func badFiles() throws {
        let folder = try TemporaryFolder()
        let good = FixtureJPEG.data(.quadrants(width: 64, height: 64))
        let truncated = folder.file("truncated.jpg")
        try good.prefix(good.count * 2 / 3).write(to: truncated)
        #expect {
            try PhotoDecoder.decode(truncated)
        } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .imageUnreadable, let path = e.location?.file, let reason = e.reason else { return false }
            return path == truncated.path && reason.contains("truncated") && "\(error)".contains("truncated.jpg")
        }
        // Only its end marker missing (a transfer that stopped two bytes short): the picture is whole,
        // and shown, as FFmpeg and viewers show it.
        #expect(good.suffix(2) == Data([0xFF, 0xD9]))
        let noEnd = folder.file("no-end-marker.jpg")
        try good.dropLast(2).write(to: noEnd)
        try good.write(to: folder.file("whole.jpg"))
        let whole = try PhotoDecoder.decode(folder.file("whole.jpg")).image, shown = try PhotoDecoder.decode(noEnd).image
        let same = whole.pixels().bytes == shown.pixels().bytes
        #expect(same, "the same picture as the whole file")
        // One that ends in its rows is still refused.
        let bytes = [UInt8](good)
        let scan = try #require((0..<bytes.count - 1).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }, "the scan's start")
        for cut in [scan + (bytes.count - scan) / 2, bytes.count - 4] {
            let inRows = folder.file("cut-\(cut).jpg")
            try Data(bytes.prefix(cut)).write(to: inRows)
            #expect(throws: MovieMakerError.self, "cut at \(cut) of \(bytes.count) (scan at \(scan))") { try PhotoDecoder.decode(inRows) }
        }
        let text = folder.file("notes.jpg")
        try "Shopping list: milk, eggs.\n".write(to: text, atomically: true, encoding: .utf8)
        #expect {
            try PhotoDecoder.decode(text)
        } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .notAnImage, let path = e.location?.file, let reason = e.reason else { return false }
            return path == text.path && reason.contains("text") && "\(error)".contains("notes.jpg")
        }
        #expect(throws: MovieMakerError.self) { try PhotoDecoder.info(text) }
        let missing = folder.file("missing.jpg")
        #expect(throws: MovieMakerError.imageUnreadable(path: missing.path, reason: "no such file")) { try PhotoDecoder.decode(missing) }
    }

    @Test("damaged files of every format throw or decode, never crash")
    func damagedFiles() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture.quadrants(width: 32, height: 32)
        let pngURL = folder.file("source.png")
        FixturePNG.write(picture, kind: .rgba8, to: pngURL)
        var samples: [(String, [UInt8])] = [
            ("jpg", Array(FixtureJPEG.data(picture))),
            ("progressive.jpg", Array(FixtureJPEG.data(picture, progressive: true))),
            ("png", Array(try Data(contentsOf: pngURL))),
            ("webp", FixtureWebP.lossy(picture)),
        ]
        if FixtureHEIC.encoderAvailable {
            let heicURL = folder.file("source.heic")
            try FixtureHEIC.write(picture, to: heicURL)
            samples.append(("heic", Array(try Data(contentsOf: heicURL))))
        }
        var failures = 0, total = 0
        for (name, bytes) in samples {
            var variants: [[UInt8]] = [10, 40, 100, bytes.count / 2, bytes.count - 3].map { Array(bytes.prefix($0)) }
            for seed in 0..<3 {
                var damaged = bytes
                var rng = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
                for _ in 0..<8 {
                    rng = rng &* 6364136223846793005 &+ 1442695040888963407
                    let i = 20 + Int(rng >> 33) % max(1, bytes.count - 20)
                    damaged[i] ^= UInt8(truncatingIfNeeded: rng >> 17) | 1
                }
                variants.append(damaged)
            }
            for (i, variant) in variants.enumerated() {
                let url = folder.file("damaged-\(i).\(name)")
                try Data(variant).write(to: url)
                total += 1
                switch decodeResult(url) {
                case let .success(photo):
                    #expect(photo.image.width > 0)
                case let .failure(error):
                    failures += 1
                    #expect("\(error)".contains(url.lastPathComponent))
                    #expect(error.reason?.contains("\n") != true, "one line: \(error)")
                }
            }
        }
        // Every truncation before the last bytes must be an error at least.
        #expect(failures >= samples.count * 4, "\(failures) of \(total) damaged files were reported")
    }

    @Test("a burst taken within one second is ordered by EXIF SubSecTimeOriginal, as it was shot; each photo's date keeps its fraction")
    func aBurstIsOrderedByItsFractionsOfASecond() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture.quadrants(width: 32, height: 16)
        for (name, fraction, bigEndian) in [("b1.jpg", "90", true), ("b2.jpg", "1", false), ("b3.jpg", "505", true)] {
            try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2022:05:05 10:00:00", offset: "+00:00",
                                                                                         bigEndian: bigEndian, subSeconds: fraction))])
                .write(to: folder.file(name))
        }
        let byDate = try PhotoDecoder.photos(in: folder.url, order: .captureDate)
        #expect(byDate.map(\.url.lastPathComponent) == ["b2.jpg", "b3.jpg", "b1.jpg"], "0.1 s, 0.505 s, 0.9 s")
        let first = try #require(try PhotoDecoder.info(folder.file("b2.jpg")).captureDate)
        #expect(abs(first.timeIntervalSince1970 - 1_651_744_800.1) < 1e-6, "\(first.timeIntervalSince1970)")
    }

    @Test("a camera's capture time without a zone is read in the zone of the set's phone photos, wherever the set renders")
    func aCamerasTimeIsReadInThePhonesZone() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture.quadrants(width: 32, height: 16)
        // A trip to Tokyo: a camera without a zone at 10:00, phone photos at 09:30 and 10:30 (+09:00). Read
        // in a zone that is not the trip's (this machine's, unless it is in Tokyo), the camera's photo came last.
        for (name, date, offset) in [("a_camera.jpg", "2024:06:01 10:00:00", nil), ("b_phone.jpg", "2024:06:01 10:30:00", "+09:00"),
                                     ("c_phone.jpg", "2024:06:01 09:30:00", "+09:00")] as [(String, String, String?)] {
            try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: date, offset: offset))]).write(to: folder.file(name))
        }
        #expect(try PhotoDecoder.photos(in: folder.url, order: .captureDate).map(\.url.lastPathComponent) == ["c_phone.jpg", "a_camera.jpg", "b_phone.jpg"])
        var show = try Slideshow(folder: folder.url)
        show.sortPhotos(by: .captureDate)
        #expect(show.photos.map(\.url.lastPathComponent) == ["c_phone.jpg", "a_camera.jpg", "b_phone.jpg"])
        #expect(PhotoOrder.zoneForUnzonedTimes(of: []) == .current, "without a zoned photo, this machine's zone")
    }

    @Test("a folder: photos listed header-only, bad files reported and skipped, or thrown when strict")
    func folderListing() throws {
        let folder = try TemporaryFolder()
        let picture = RGBAPicture.quadrants(width: 32, height: 16)
        try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: "2023:01:02 03:04:05", offset: "+00:00"))])
            .write(to: folder.file("IMG_10.JPG"))
        try FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 8, date: "2022:01:02 03:04:05", offset: "+00:00"))])
            .write(to: folder.file("IMG_2.jpg"))
        FixturePNG.write(picture, kind: .rgba8, to: folder.file("drawing.png"))
        try "not a photo".write(to: folder.file("broken.jpg"), atomically: true, encoding: .utf8)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: folder.file("cut.jpeg"))
        try "ignored: not a photo extension".write(to: folder.file("README.txt"), atomically: true, encoding: .utf8)

        var skipped: [String] = []
        let byName = try PhotoDecoder.photos(in: folder.url) { skipped.append("\($0)") }
        #expect(byName.map(\.url.lastPathComponent) == ["drawing.png", "IMG_2.jpg", "IMG_10.JPG"])
        #expect(byName[1].width == 16 && byName[1].height == 32, "orientation 8 swaps the listed size")
        #expect(skipped.count == 2 && skipped.contains { $0.contains("broken.jpg") } && skipped.contains { $0.contains("cut.jpeg") }, "\(skipped)")

        let byDate = try PhotoDecoder.photos(in: folder.url, order: .captureDate)
        #expect(byDate.map(\.url.lastPathComponent) == ["IMG_2.jpg", "IMG_10.JPG", "drawing.png"])

        #expect(throws: MovieMakerError.self) { try PhotoDecoder.photos(in: folder.url, strict: true) }
    }

    @Test("Slideshow(folder:) of a folder that does not exist says so, not \"cannot read the image\"")
    func missingFolderSaysTheFolderDoesNotExist() throws {
        do {
            _ = try Slideshow(folder: URL(fileURLWithPath: "/nope-\(UUID().uuidString)"))
            Issue.record("a missing folder should throw")
        } catch {
            #expect(error.code == .noPhotos, "\(error)")
            #expect(error.message.contains("does not exist") && error.message.contains("/nope-"), "\(error.message)")
            #expect(!error.message.contains("cannot read the image"), "\(error.message)")
        }
        let folder = try TemporaryFolder()
        try "x".write(to: folder.file("file.jpg"), atomically: true, encoding: .utf8)
        do {
            _ = try Slideshow(folder: folder.file("file.jpg"))
            Issue.record("a file given as the folder should throw")
        } catch {
            #expect(error.code == .noPhotos && error.message.contains("is a file, not a folder"), "\(error.message)")
        }
    }

    @Test("decoding on several threads at once gives the same pixels as one at a time")
    func concurrentDecoding() throws {
        let folder = try TemporaryFolder()
        let p3 = try #require(ColorManagement.displayP3ProfileData())
        let picture = RGBAPicture.quadrants(width: 64, height: 48)
        let jpegURL = folder.file("a.jpg"), pngURL = folder.file("b.png"), webpURL = folder.file("c.webp")
        try FixtureJPEG.data(picture.stored(for: 6), markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 6))] + FixtureJPEG.app2(icc: p3))
            .write(to: jpegURL)
        FixturePNG.write(picture, kind: .rgba8, to: pngURL, icc: p3)
        try Data(FixtureWebP.lossless(picture)).write(to: webpURL)
        let urls = [jpegURL, pngURL, webpURL]
        let expected = try urls.map { pixels(try PhotoDecoder.decode($0)) }
        let results = Mutex<[Int: PixelBuffer]>([:])
        DispatchQueue.concurrentPerform(iterations: 12) { i in
            if let photo = try? PhotoDecoder.decode(urls[i % 3]) { results.withLock { $0[i] = pixels(photo) } }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 12)
        for (i, buffer) in all { #expect(buffer == expected[i % 3], "decode \(i) of \(urls[i % 3].lastPathComponent) differs") }
    }

    @Test("the photo cache keeps at most its capacity decoded")
    func cache() throws {
        let folder = try TemporaryFolder()
        let urls = (0..<4).map { folder.file("p\($0).png") }
        for url in urls { FixturePNG.write(.quadrants(width: 16, height: 16), kind: .rgba8, to: url) }
        let cache = PhotoCache(capacity: 2)
        let first = try cache.photo(urls[0], scaling: .fullSize)
        #expect(try cache.photo(urls[0], scaling: .fullSize).image === first.image, "a second request is served from the cache")
        for url in urls { _ = try cache.photo(url, scaling: .fullSize) }
        #expect(cache.count == 2)
        #expect(try cache.photo(urls[0], scaling: .fullSize).image !== first.image, "the oldest photo was dropped")
    }
}

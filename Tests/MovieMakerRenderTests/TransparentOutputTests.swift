import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Movies and PNG sequences with an alpha channel: ProRes 4444 `.mov`, VP9 `.webm`, RGBA PNG frames.
@Suite struct TransparentOutputTests {
    static let width = 320, height = 240, frames = 12
    static let transparent = EncoderSettings(preset: .ultrafast, transparency: true)

    /// The opaque white block: x from 80 + index to 240 + index, y 60…180.
    static func block(_ index: Int) -> Rect { Rect(x: 80 + Double(index), y: 60, width: 160, height: 120) }
    /// The half-transparent red block, fixed.
    static let halfRed = Rect(x: 16, y: 170, width: 48, height: 48)

    /// Draws on what the movie starts as (transparent) and never clears, as frames keep the previous
    /// frame's pixels: an opaque white block that moves one pixel a frame (leaving a trail), and in the
    /// first frame a 50 % red square. Nothing else is drawn.
    static func draw(_ ctx: DrawingContext, _ frame: Frame) {
        ctx.setFill(.white)
        ctx.fillRect(block(frame.index))
        if frame.index == 0 {
            ctx.setFill(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
            ctx.fillRect(halfRed)
        }
    }

    /// Renders the test scene with `settings` into `name` (a movie file, or a PNG folder when `png`).
    static func render(_ name: String, png: Bool = false, settings: EncoderSettings = transparent) throws -> (TemporaryFolder, URL, MovieSummary) {
        let dir = try TemporaryFolder(name)
        let url = dir.file(name)
        let movie = png ? try MovieMaker(pngSequenceIn: url, width: width, height: height, fps: 30, settings: settings)
                        : try MovieMaker(url: url, width: width, height: height, fps: 30, settings: settings)
        try movie.addFrames(count: frames, draw)
        return (dir, url, try movie.finish())
    }

    /// Points well inside the white block in every frame, and well outside everything drawn.
    static let inside = [(110, 80), (160, 120), (225, 165)]
    static let outside = [(20, 20), (300, 20), (300, 220), (160, 225), (40, 120)]

    /// Checks premultiplied BGRA pixels of one decoded frame: transparent outside, opaque white inside,
    /// and (when `halfRedTolerance` is given) the 50 % red square as premultiplied (128, 0, 0, 128).
    static func expectAlpha(_ p: PixelBuffer, frame: Int, _ what: String, halfRedTolerance: Int? = nil) {
        for (x, y) in outside {
            let c = p.rgba(x: x, y: y)
            #expect(c.alpha <= 2, "\(what) frame \(frame): alpha \(c.alpha) at (\(x), \(y)) outside the shapes")
        }
        for (x, y) in inside {
            let c = p.rgba(x: x, y: y)
            #expect(c.alpha >= 253, "\(what) frame \(frame): alpha \(c.alpha) at (\(x), \(y)) inside the block")
            #expect(min(c.red, c.green, c.blue) >= 250, "\(what) frame \(frame): colour \(c) inside the white block")
        }
        if let tolerance = halfRedTolerance {
            let c = p.rgba(x: 40, y: 194)
            #expect(abs(Int(c.alpha) - 128) <= tolerance, "\(what) frame \(frame): half-red alpha \(c.alpha)")
            #expect(abs(Int(c.red) - 128) <= tolerance && c.green <= UInt8(tolerance) && c.blue <= UInt8(tolerance),
                    "\(what) frame \(frame): half-red premultiplied colour \(c)")
        }
    }

    /// Every frame as straight RGBA bytes, decoded by the ffmpeg CLI (`inputOptions` go before `-i`).
    static func ffmpegRGBA(_ url: URL, inputOptions: [String] = []) throws -> [[UInt8]] {
        // `run` decodes stdout as UTF-8, so the raw bytes go through a file.
        let out = url.deletingLastPathComponent().appendingPathComponent("decoded-\(UUID().uuidString.prefix(6)).rgba")
        let r2 = try run(FFTools.ffmpeg, ["-v", "error", "-y"] + inputOptions + ["-i", url.path, "-pix_fmt", "rgba", "-f", "rawvideo", out.path])
        #expect(r2.status == 0, "ffmpeg failed: \(r2.stderr)")
        let bytes = [UInt8](try Data(contentsOf: out))
        try? FileManager.default.removeItem(at: out)
        let size = width * height * 4
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// Checks straight RGBA bytes from ffmpeg: transparent outside, opaque white inside.
    static func expectStraightAlpha(_ rgba: [UInt8], frame: Int, _ what: String) {
        func px(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * width + x) * 4; return Array(rgba[i..<i + 4]) }
        for (x, y) in outside {
            #expect(px(x, y)[3] <= 2, "\(what) frame \(frame): alpha \(px(x, y)[3]) at (\(x), \(y)) outside")
        }
        for (x, y) in inside {
            let c = px(x, y)
            #expect(c[3] >= 253, "\(what) frame \(frame): alpha \(c[3]) at (\(x), \(y)) inside")
            #expect(c[0...2].allSatisfy { $0 >= 250 }, "\(what) frame \(frame): colour \(c) inside the white block")
        }
    }

    /// Whether the file holds Matroska's AlphaMode element (ID 0x53C0, one byte, value 1).
    static func hasAlphaModeElement(_ url: URL) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: url))
        let element: [UInt8] = [0x53, 0xC0, 0x81, 0x01]
        return bytes.indices.dropLast(3).contains { bytes[$0] == 0x53 && Array(bytes[$0..<$0 + 4]) == element }
    }

    @Test("An opaque ProRes 4444 movie has no alpha plane (editors would treat it as a movie with transparency), and keeps its colours")
    func opaqueProResHasNoAlphaPlane() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("opaque.mov")
        var settings = EncoderSettings()
        settings.codec = .proRes4444
        let movie = try MovieMaker(url: url, width: 64, height: 48, fps: 10, settings: settings)
        try movie.addFrames(count: 3) { ctx, _ in ctx.clear(Color(red: 1, green: 0.5, blue: 0)) }
        try movie.finish()
        let reader = try MovieReader(url: url)
        #expect(reader.info.codec == "prores" && !reader.info.hasAlpha && !reader.info.pixelFormat.hasPrefix("yuva"), "pixel format \(reader.info.pixelFormat)")
        var colours: [(Int, Int, Int, Int)] = []
        try reader.decodeFrames { f in
            let p = f.pixels.bytes
            colours.append((Int(p[2]), Int(p[1]), Int(p[0]), Int(p[3])))
            return true
        }
        #expect(colours.count == 3 && colours.allSatisfy { abs($0.0 - 255) <= 3 && abs($0.1 - 128) <= 3 && $0.2 <= 3 && $0.3 == 255 }, "\(colours)")
    }

    @Test func proResMovHasAlphaPixelFormatAndKeepsAlphaWhenDecoded() throws {
        let (dir, url, summary) = try Self.render("alpha.mov")
        defer { withExtendedLifetime(dir) {} }
        #expect(summary.frameCount == Self.frames)

        let reader = try MovieReader(url: url)
        #expect(reader.info.codec == "prores")
        #expect(reader.info.profile == "4444")
        #expect(reader.info.pixelFormat.hasPrefix("yuva444p"), "pixel format \(reader.info.pixelFormat)")
        #expect(reader.info.hasAlpha)
        #expect(reader.info.colorPrimaries == "bt709" && reader.info.colorMatrix == "bt709" && reader.info.colorRange == "tv")
        var count = 0
        try reader.decodeFrames { f in
            Self.expectAlpha(f.pixels, frame: f.index, "ProRes (MovieReader)", halfRedTolerance: 3)
            count += 1
            return true
        }
        #expect(count == Self.frames)

        if FFTools.available {
            let s = try FFTools.videoStream(url)
            #expect(s["codec_name"] as? String == "prores")
            #expect(s["profile"] as? String == "4444")
            #expect(["yuva444p10le", "yuva444p12le"].contains(s["pix_fmt"] as? String ?? ""), "ffprobe pix_fmt \(s["pix_fmt"] ?? "none")")
            #expect(s["color_space"] as? String == "bt709")
            #expect(s["nb_read_frames"] as? String == "\(Self.frames)")
            let decoded = try Self.ffmpegRGBA(url)
            #expect(decoded.count == Self.frames)
            for (i, frame) in decoded.enumerated() { Self.expectStraightAlpha(frame, frame: i, "ProRes (ffmpeg)") }
        }
    }

    @Test func vp9WebmIsFlaggedAlphaModeAndLibvpxDecodesAlpha() throws {
        let (dir, url, summary) = try Self.render("alpha.webm")
        defer { withExtendedLifetime(dir) {} }
        #expect(summary.frameCount == Self.frames)

        let reader = try MovieReader(url: url)
        #expect(reader.info.codec == "vp9")
        #expect(reader.info.containerFormat.contains("webm"))
        #expect(reader.info.pixelFormat == "yuva420p")
        #expect(reader.info.hasAlpha)
        #expect(reader.info.colorMatrix == "bt709" && reader.info.colorRange == "tv")
        var count = 0
        try reader.decodeFrames { f in
            Self.expectAlpha(f.pixels, frame: f.index, "VP9 (MovieReader)", halfRedTolerance: 8)
            count += 1
            return true
        }
        #expect(count == Self.frames)
        #expect(try Self.hasAlphaModeElement(url), "no Matroska AlphaMode = 1 element in the file")

        if FFTools.available {
            let s = try FFTools.videoStream(url)
            #expect(s["codec_name"] as? String == "vp9")
            #expect((s["tags"] as? [String: Any])?["alpha_mode"] as? String == "1", "stream tags: \(s["tags"] ?? "none")")
            #expect(s["nb_read_frames"] as? String == "\(Self.frames)")
            // This ffprobe cannot force a decoder; ffmpeg can, and names the pixel format libvpx gives.
            let probe = try run(FFTools.ffmpeg, ["-hide_banner", "-c:v", "libvpx-vp9", "-i", url.path])
            let streamLine = probe.stderr.split(separator: "\n").first { $0.contains("Video:") } ?? ""
            #expect(streamLine.contains("yuva420p"), "ffmpeg: \(streamLine)")
            let decoded = try Self.ffmpegRGBA(url, inputOptions: ["-c:v", "libvpx-vp9"])
            #expect(decoded.count == Self.frames)
            for (i, frame) in decoded.enumerated() { Self.expectStraightAlpha(frame, frame: i, "VP9 (ffmpeg)") }
        }
    }

    @Test func pngSequenceHasOneRGBAFilePerFrameWithStraightAlpha() throws {
        let (dir, url, summary) = try Self.render("frames", png: true)
        defer { withExtendedLifetime(dir) {} }
        #expect(summary.frameCount == Self.frames)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        #expect(names == (1...Self.frames).map { String(format: "frame-%05d.png", $0) })
        #expect(dir.contents == ["frames"], "left behind: \(dir.contents)")
        #expect(summary.fileSize > 0)

        for (i, name) in names.enumerated() {
            let file = url.appendingPathComponent(name)
            let bytes = [UInt8](try Data(contentsOf: file))
            // IHDR: width, height, bit depth 8, colour type 6 (RGBA).
            #expect(Array(bytes[12..<16]) == Array("IHDR".utf8))
            #expect(Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19]) == Self.width)
            #expect(bytes[24] == 8 && bytes[25] == 6, "bit depth \(bytes[24]), colour type \(bytes[25])")
            // In-process: the image2 demuxer and PNG decoder give exact values (premultiplied here).
            let pixels = try #require(try decodeAll(file).first).pixels
            Self.expectAlpha(pixels, frame: i, "PNG (MovieReader)", halfRedTolerance: 1)

            if FFTools.available {
                let rgba = try #require(try Self.ffmpegRGBA(file).first)
                Self.expectStraightAlpha(rgba, frame: i, "PNG (ffmpeg)")
                for (x, y) in Self.outside { #expect(rgba[(y * Self.width + x) * 4 + 3] == 0) }
                // Straight colour: the 50 % red square is stored as red 255 with alpha 128, not 128, 0, 0, 128.
                let j = (194 * Self.width + 40) * 4
                #expect(Array(rgba[j..<j + 4]) == [255, 0, 0, 128], "half-red stored as \(Array(rgba[j..<j + 4]))")
            }
        }
    }

    @Test func opaquePNGSequenceIsRGBOnBlack() throws {
        let (dir, url, _) = try Self.render("opaque", png: true, settings: EncoderSettings())
        defer { withExtendedLifetime(dir) {} }
        let bytes = [UInt8](try Data(contentsOf: url.appendingPathComponent("frame-00001.png")))
        #expect(bytes[25] == 2, "colour type \(bytes[25]) (2 is RGB)")
        let p = try #require(try decodeAll(url.appendingPathComponent("frame-00001.png")).first).pixels
        #expect(p.rgba(x: 20, y: 20) == (0, 0, 0, 255))
        #expect(p.rgba(x: 160, y: 120) == (255, 255, 255, 255))
    }

    @Test(arguments: ["mp4", "m4v", "MP4"])
    func mp4WithTransparencyThrowsTypedErrorAndLeavesNothing(ext: String) throws {
        let dir = try TemporaryFolder()
        let url = dir.file("alpha.\(ext)")
        #expect(throws: MovieMakerError.transparencyUnsupported(extension: ext)) {
            _ = try MovieMaker(url: url, width: 320, height: 240, settings: Self.transparent)
        }
        #expect(dir.contents.isEmpty)
        let message = MovieMakerError.transparencyUnsupported(extension: ext).description
        #expect(message.contains(".mov") && message.contains(".webm") && message.contains("ProRes 4444") && message.contains("VP9"))
        // An existing file there is left as it was.
        let old = try plantExistingFile(url)
        #expect(throws: MovieMakerError.transparencyUnsupported(extension: ext)) {
            _ = try MovieMaker(url: url, width: 320, height: 240, settings: Self.transparent)
        }
        #expect(try Data(contentsOf: url) == old)
        #expect(dir.contents == ["alpha.\(ext)"])
    }

    /// VP9 can carry alpha, but only as Matroska side data, which the MP4 muxer drops: a transparent
    /// `.mp4` asked with VP9 (or any codec) is refused as the default one is; it came out opaque.
    @Test(arguments: [VideoCodec.vp9, .av1, .hevc])
    func mp4WithTransparencyIsRefusedWhateverTheCodec(codec: VideoCodec) throws {
        let dir = try TemporaryFolder()
        var settings = Self.transparent
        settings.codec = codec
        #expect(throws: MovieMakerError.transparencyUnsupported(extension: "mp4")) {
            _ = try MovieMaker(url: dir.file("alpha.mp4"), width: 320, height: 240, settings: settings)
        }
        #expect(dir.contents.isEmpty)
    }

    @Test func defaultOutputsStayOpaqueH264AndWebmWithoutAlphaIsPlainVP9() throws {
        for name in ["plain.mp4", "plain.mov"] {
            let (dir, url, _) = try Self.render(name, settings: EncoderSettings(preset: .ultrafast))
            defer { withExtendedLifetime(dir) {} }
            let info = try MovieReader(url: url).info
            #expect(info.codec == "h264" && info.pixelFormat == "yuv420p" && !info.hasAlpha, "\(name): \(info)")
            // Frames start black: the corner decodes as opaque black.
            let first = try #require(try decodeAll(url).first)
            let c = first.pixels.rgba(x: 20, y: 20)
            #expect(c.alpha == 255 && c.red <= 20 && c.green <= 20 && c.blue <= 20, "\(name): corner \(c)")
        }
        let (dir, url, _) = try Self.render("plain.webm", settings: EncoderSettings(preset: .ultrafast))
        defer { withExtendedLifetime(dir) {} }
        let reader = try MovieReader(url: url)
        #expect(reader.info.codec == "vp9" && reader.info.pixelFormat == "yuv420p" && !reader.info.hasAlpha)
        #expect(try reader.decodedFrameCount() == Self.frames)
        #expect(try !Self.hasAlphaModeElement(url))
        if FFTools.available {
            let s = try FFTools.videoStream(url, countFrames: false)
            #expect((s["tags"] as? [String: Any])?["alpha_mode"] == nil)
            #expect(s["color_space"] as? String == "bt709")
        }
    }

    /// A clip whose square jumps 60 px a frame: any frame not cleared to transparent would still show
    /// an earlier square. Checked for the sequential path and for parallel lanes.
    @Test(arguments: [1, 3])
    func clipFramesStartTransparent(drawingThreads: Int) throws {
        let dir = try TemporaryFolder()
        let url = dir.file("clip")
        var settings = Self.transparent
        settings.drawingThreads = drawingThreads
        let movie = try MovieMaker(pngSequenceIn: url, width: Self.width, height: Self.height, fps: 10, settings: settings)
        let clip = Clip(duration: Time(value: 5, timescale: 10)) { ctx, f in
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: 10 + 60 * Double(f.index), y: 100, width: 40, height: 40))
        }
        try movie.add(clip)
        try movie.finish()
        for i in 0..<5 {
            let p = try #require(try decodeAll(url.appendingPathComponent(String(format: "frame-%05d.png", i + 1))).first).pixels
            for j in 0..<5 {
                let c = p.rgba(x: 30 + 60 * j, y: 120)
                if j == i {
                    #expect(c == (255, 255, 255, 255), "frame \(i): its square is \(c)")
                } else {
                    #expect(c.alpha == 0, "frame \(i): square \(j)'s place has alpha \(c.alpha)")
                }
            }
        }
    }

    @Test func pngSequenceReplacesEarlierFramesButNeverOtherFiles() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("frames")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        for n in 1...20 { try Data("old".utf8).write(to: url.appendingPathComponent(String(format: "frame-%05d.png", n))) }
        let movie = try MovieMaker(pngSequenceIn: url, width: 64, height: 48, fps: 30, settings: Self.transparent)
        try movie.addFrames(count: 3) { ctx, _ in ctx.setFill(.white); ctx.fillRect(Rect(x: 0, y: 0, width: 8, height: 8)) }
        try movie.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() == ["frame-00001.png", "frame-00002.png", "frame-00003.png"])
        #expect(dir.contents == ["frames"], "left behind: \(dir.contents)")

        try Data("keep me".utf8).write(to: url.appendingPathComponent("notes.txt"))
        #expect(throws: MovieMakerError.destinationNotWritable(path: url.path, reason: "the folder holds notes.txt, not only frame-N.png files; choose a new or empty folder")) {
            _ = try MovieMaker(pngSequenceIn: url, width: 64, height: 48, settings: Self.transparent)
        }
        #expect(try String(contentsOf: url.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me")
        #expect(dir.contents == ["frames"])
    }

    @Test func cancelledPNGSequenceLeavesNothing() throws {
        let dir = try TemporaryFolder()
        let movie = try MovieMaker(pngSequenceIn: dir.file("frames"), width: 64, height: 48, settings: Self.transparent)
        try movie.addFrames(count: 4) { ctx, _ in ctx.clear(.white) }
        movie.cancel()
        #expect(dir.contents.isEmpty, "left behind: \(dir.contents)")
    }

    /// ProRes 4444 and PNG store colour at full resolution, so odd sizes need no padding (H.264 still rejects them).
    @Test func oddSizesWorkForProResAndPNGWithoutPadding() throws {
        let dir = try TemporaryFolder()
        let mov = try MovieMaker(url: dir.file("odd.mov"), width: 321, height: 241, settings: Self.transparent)
        try mov.addFrames(count: 2) { ctx, _ in ctx.setFill(.white); ctx.fillRect(Rect(x: 300, y: 220, width: 21, height: 21)) }
        try mov.finish()
        let reader = try MovieReader(url: dir.file("odd.mov"))
        #expect(reader.info.width == 321 && reader.info.height == 241)
        let last = try #require(try decodeAll(dir.file("odd.mov")).last).pixels
        #expect(last.rgba(x: 320, y: 240).alpha >= 253, "bottom-right pixel \(last.rgba(x: 320, y: 240))")
        #expect(last.rgba(x: 10, y: 10).alpha <= 2)

        let png = try MovieMaker(pngSequenceIn: dir.file("odd"), width: 321, height: 241, settings: Self.transparent)
        try png.addFrame { ctx in ctx.setFill(.white); ctx.fillRect(Rect(x: 320, y: 0, width: 1, height: 1)) }
        try png.finish()
        let p = try #require(try decodeAll(dir.file("odd/frame-00001.png")).first).pixels
        #expect(p.width == 321 && p.height == 241)
        #expect(p.rgba(x: 320, y: 0) == (255, 255, 255, 255))

        #expect(throws: MovieMakerError.oddSize(width: 321, height: 241)) {
            _ = try MovieMaker(url: dir.file("odd.webm"), width: 321, height: 241, settings: Self.transparent)
        }
    }

    @Test func unpremultiplyThenPremultiplyGivesBackEveryCairoPixel() {
        // Every premultiplied value Cairo can store (colour ≤ alpha) survives the round trip exactly.
        var mismatches = 0
        var src = [UInt8](repeating: 0, count: 4), straight = [UInt8](repeating: 0, count: 4)
        for a in 0...255 {
            for c in 0...a {
                src = [UInt8(c), UInt8(c / 2), 0, UInt8(a)]
                AlphaConversion.unpremultiply(src, sourceStride: 4, into: &straight, destinationStride: 4, width: 1, height: 1)
                if a > 0 && c == a && straight[0] != 255 { mismatches += 1 }
                var back = straight
                AlphaConversion.premultiply(&back, count: 1)
                if back != src { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        // Half-transparent red: premultiplied 128, 0, 0, 128 is straight 255, 0, 0, 128.
        AlphaConversion.unpremultiply([0, 0, 128, 128], sourceStride: 4, into: &straight, destinationStride: 4, width: 1, height: 1)
        #expect(straight == [0, 0, 255, 128])
    }
}

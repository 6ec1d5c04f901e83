import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// HEVC, AV1 and VP9 beside H.264: each decoded back and compared with the drawn frames.
@Suite("Codecs: HEVC (8/10-bit, hvc1), AV1 (8/10-bit), VP9, decoded and compared with the drawn frames")
struct CodecTests {
    static let (width, height, frames) = (640, 360, 12)
    /// A detailed picture standing in for a photo: FFmpeg's Mandelbrot set, as the demo's
    /// `photo-harbour.jpg` (smooth gradients and fine detail), written once per folder.
    static func photo(in folder: TemporaryFolder) throws -> URL {
        let url = folder.file("photo.png")
        if !FileManager.default.fileExists(atPath: url.path) {
            let r = try run(FFTools.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i",
                                             "mandelbrot=size=1280x854:maxiter=160:start_scale=2.2:start_x=-0.75:start_y=0.0",
                                             "-frames:v", "1", "-vf", "hue=h=200:s=1.2", url.path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        return url
    }

    /// The harbour photo at twice the frame's width, panning.
    static func drawPhoto(_ image: Image) -> @Sendable (DrawingContext, Frame) throws -> Void {
        { ctx, frame in
            let w = Double(width) * 1.2, h = w * Double(image.height) / Double(image.width)
            ctx.draw(image, in: Rect(x: -frame.time * 60, y: -frame.time * 20, width: w, height: h))
        }
    }

    /// Renders `draw` (default: the harbour photo) with `settings` to `name`, returning the file and the drawn frames.
    static func render(_ name: String, settings: EncoderSettings, in folder: TemporaryFolder,
                       draw: (@Sendable (DrawingContext, Frame) throws -> Void)? = nil) throws -> (URL, [PixelBuffer]) {
        let draw = try draw ?? drawPhoto(PhotoDecoder.decode(photo(in: folder), fitting: Size(width: 1280, height: 1280)).image)
        let url = folder.file(name)
        let movie = try MovieMaker(url: url, width: width, height: height, fps: 30, settings: settings)
        try movie.addFrames(count: frames) { ctx, frame in try draw(ctx, frame) }
        try movie.finish()
        let canvas = try Canvas(width: width, height: height)
        var drawn: [PixelBuffer] = []
        for i in 0..<frames {
            let frame = Frame(index: i, movieIndex: i, rate: 30, exactTime: FrameRate(30).time(ofFrame: i), duration: FrameRate(30).time(ofFrame: frames))
            try canvas.draw { ctx in try draw(ctx, frame) }
            drawn.append(canvas.pixels())
        }
        return (url, drawn)
    }

    /// Luma PSNR (BT.709 weights of R, G and B): how codecs are compared, since a codec codes luma
    /// and colour apart and errors in colour are weighted differently by each RGB channel.
    static func lumaPSNR(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var sum = 0.0
        a.bytes.withUnsafeBufferPointer { pa in
            b.bytes.withUnsafeBufferPointer { pb in
                var i = 0
                while i < pa.count {
                    // BGRA in memory.
                    let ya = 0.0722 * Double(pa[i]) + 0.7152 * Double(pa[i + 1]) + 0.2126 * Double(pa[i + 2])
                    let yb = 0.0722 * Double(pb[i]) + 0.7152 * Double(pb[i + 1]) + 0.2126 * Double(pb[i + 2])
                    sum += (ya - yb) * (ya - yb)
                    i += 4
                }
            }
        }
        let mse = sum / Double(a.width * a.height)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The mean luma PSNR of the decoded frames against `reference`, checking the frame count and that
    /// each frame scores at least `minimum`.
    static func meanPSNR(_ url: URL, against drawn: [PixelBuffer], minimum: Double, _ what: String) throws -> Double {
        let decoded = try decodeAll(url)
        #expect(decoded.count == drawn.count, "\(what): \(decoded.count) frames decoded")
        let scores = zip(decoded, drawn).map { lumaPSNR($0.pixels, $1) }
        for (i, s) in scores.enumerated() { #expect(s >= minimum, "\(what) frame \(i): PSNR \(s) dB") }
        return scores.reduce(0, +) / Double(max(1, scores.count))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var codec: VideoCodec, file: String, bitDepth: Int, ffprobeName: String, pixelFormat: String
        var testDescription: String { "\(codec.rawValue) \(bitDepth)-bit in \(file)" }
    }

    /// What every codec is measured against, made once for the suite.
    struct References: Sendable {
        /// The frames handed to the encoder, in 4:2:0 YUV, which lossless H.264 keeps exactly. Against
        /// the drawn RGB frames, 4:2:0's halved colour alone costs a detailed picture more than the
        /// codecs do (about 34 dB whatever the codec).
        var handed: [PixelBuffer]
        /// H.264 at its default, each frame's luma PSNR against `handed`: the quality the other codecs'
        /// defaults were chosen to match.
        var h264: [Double]
    }

    static let references = Result { () throws -> References in
        let folder = try TemporaryFolder()
        var lossless = EncoderSettings()
        lossless.lossless = true
        let (exact, drawn) = try render("exact.mkv", settings: lossless, in: folder)
        let handed = try decodeAll(exact).map(\.pixels)
        // The reference follows the drawing, frame by frame.
        guard handed.count == drawn.count, psnr(handed[3], drawn[3]) > psnr(handed[3], drawn[9]) + 3 else {
            throw MovieMakerError.invalidSetting(.frameCount, value: "\(handed.count)", expected: "the \(drawn.count) drawn frames, in order")
        }
        let (reference, _) = try render("reference.mp4", settings: EncoderSettings(), in: folder)
        let h264 = try zip(decodeAll(reference), handed).map { lumaPSNR($0.pixels, $1) }
        return References(handed: handed, h264: h264)
    }

    @Test("at its default CRF each codec decodes at ≥ 40 dB, about H.264's default quality, with BT.709 tags (and hvc1 for HEVC in MP4/MOV)",
          arguments: [
              Case(codec: .hevc, file: "hevc.mp4", bitDepth: 8, ffprobeName: "hevc", pixelFormat: "yuv420p"),
              Case(codec: .hevc, file: "hevc10.mov", bitDepth: 10, ffprobeName: "hevc", pixelFormat: "yuv420p10le"),
              Case(codec: .av1, file: "av1.webm", bitDepth: 8, ffprobeName: "av1", pixelFormat: "yuv420p"),
              Case(codec: .av1, file: "av1-10.mp4", bitDepth: 10, ffprobeName: "av1", pixelFormat: "yuv420p10le"),
              Case(codec: .vp9, file: "vp9.webm", bitDepth: 8, ffprobeName: "vp9", pixelFormat: "yuv420p"),
              Case(codec: .h264, file: "h264.mkv", bitDepth: 8, ffprobeName: "h264", pixelFormat: "yuv420p"),
          ])
    func defaultQuality(_ c: Case) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        var settings = EncoderSettings()
        settings.codec = c.codec
        settings.bitDepth = c.bitDepth
        let (url, _) = try Self.render(c.file, settings: settings, in: folder)
        let info = try MovieReader(url: url).info
        #expect(info.codec == c.ffprobeName && info.pixelFormat == c.pixelFormat, "\(info)")
        let references = try Self.references.get()
        #expect(references.h264.allSatisfy { $0 >= 40 }, "H.264 at its default: \(references.h264) dB")
        let quality = try Self.meanPSNR(url, against: references.handed, minimum: 40, c.testDescription)
        let h264 = references.h264.reduce(0, +) / Double(references.h264.count)
        #expect(abs(quality - h264) <= 2.5, "\(c.testDescription): \(quality) dB against H.264's \(h264) dB")
        let s = try FFTools.videoStream(url, countFrames: true)
        #expect(s["codec_name"] as? String == c.ffprobeName && s["nb_read_frames"] as? String == "\(Self.frames)", "\(s)")
        #expect(s["color_space"] as? String == "bt709" && s["color_primaries"] as? String == "bt709"
                && s["color_transfer"] as? String == "bt709" && s["color_range"] as? String == "tv", "tags: \(s)")
        if c.codec == .hevc {
            #expect(s["codec_tag_string"] as? String == "hvc1", "\(s["codec_tag_string"] ?? "none")")
        }
    }

    @Test("a lower CRF gives a better picture and a bigger file on each codec's own scale")
    func crfScale() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        for codec in [VideoCodec.hevc, .av1] {
            var fine = EncoderSettings(crf: codec == .av1 ? 20 : 12, preset: .fast), coarse = fine
            fine.codec = codec; coarse.codec = codec
            coarse.crf = codec == .av1 ? 55 : 40
            let (a, drawn) = try Self.render("fine-\(codec).mkv", settings: fine, in: folder)
            let (b, _) = try Self.render("coarse-\(codec).mkv", settings: coarse, in: folder)
            let qa = try Self.meanPSNR(a, against: drawn, minimum: 0, "fine"), qb = try Self.meanPSNR(b, against: drawn, minimum: 0, "coarse")
            let size = { (u: URL) in (try? FileManager.default.attributesOfItem(atPath: u.path)[.size] as? Int) ?? 0 }
            #expect(qa > qb + 3 && size(a) > size(b), "\(codec): \(qa) dB \(size(a)) B against \(qb) dB \(size(b)) B")
        }
    }

    @Test("a codec the container cannot hold, alpha without an alpha codec, 10-bit H.264 and a CRF off the codec's scale are typed errors; nothing is written")
    func errors() throws {
        let folder = try TemporaryFolder()
        func failure(_ name: String, _ change: (inout EncoderSettings) -> Void) -> MovieMakerError? {
            var settings = EncoderSettings()
            change(&settings)
            do {
                _ = try MovieMaker(url: folder.file(name), width: 64, height: 48, fps: 30, settings: settings)
                return nil
            } catch {
                #expect(!FileManager.default.fileExists(atPath: folder.file(name).path), "\(name) was left behind")
                return error
            }
        }
        let webm = try #require(failure("a.webm") { $0.codec = .hevc })
        #expect(webm.setting == .videoCodec && webm.message.contains("hevc") && webm.message.contains("vp9, av1"), "\(webm.message)")
        let mov = try #require(failure("a.mov") { $0.codec = .av1 })
        #expect(mov.setting == .videoCodec && mov.message.contains(".mp4/.mkv/.webm"), "\(mov.message)")
        let alpha = try #require(failure("a.mkv") { $0.codec = .hevc; $0.transparency = true })
        #expect(alpha.setting == .videoCodec && alpha.message.contains("alpha"), "\(alpha.message)")
        let depth = try #require(failure("a.mp4") { $0.bitDepth = 10 })
        #expect(depth.setting == .bitDepth && depth.message.contains("hevc or av1"), "\(depth.message)")
        let crf = try #require(failure("a.mp4") { $0.codec = .hevc; $0.crf = 60 })
        #expect(crf.setting == .crf && crf.message.contains("0…51 for hevc"), "\(crf.message)")
        // FFmpeg's SVT-AV1 wrapper reads a CRF of 0 as "none given" and encodes at SVT's 35.
        let zero = try #require(failure("a.mp4") { $0.codec = .av1; $0.crf = 0 })
        #expect(zero.setting == .crf && zero.message.contains("1…63 for av1"), "\(zero.message)")
        // 60 is on AV1's scale; SVT-AV1 takes no picture smaller than 64×64.
        let small = try #require(failure("b.webm") { $0.codec = .av1; $0.crf = 60 })
        #expect(small.setting == .videoCodec && small.message.contains("64"), "\(small.message)")
    }

    @Test("codec and bit depth in settings as data and in a description's output.encoder, with JSON paths in errors")
    func asData() throws {
        var settings = EncoderSettings(crf: 30)
        settings.codec = .av1; settings.bitDepth = 10
        let json = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(EncoderSettings.self, from: json) == settings)
        #expect(try JSONDecoder().decode(EncoderSettings.self, from: Data("{}".utf8)) == EncoderSettings())
        func read(_ encoder: String) throws(MovieMakerError) -> Timeline {
            try Timeline(jsonData: Data(#"{"version": 1, "output": {"size": "320x240", "encoder": \#(encoder)}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#.utf8))
        }
        let av1 = try read(#"{"codec": "av1", "bitDepth": 10, "crf": 55}"#)
        #expect(av1.output.encoder == Timeline.EncoderOptions(codec: .av1, bitDepth: 10, crf: 55))
        let composition = try av1.composition()
        #expect(composition.encoderSettings.codec == .av1 && composition.encoderSettings.bitDepth == 10 && composition.encoderSettings.crf == 55)
        for (encoder, path, words) in [(#"{"codec": "h266"}"#, "output.encoder.codec", "did you mean \"h264\""),
                                       // Without a codec, the file's codec checks it at render (vp9 and av1 take up to 63).
                                       (#"{"crf": 70}"#, "output.encoder.crf", "from 0 to 63"),
                                       (#"{"codec": "hevc", "crf": 55}"#, "output.encoder.crf", "hevc's default is 19"),
                                       (#"{"codec": "hevc", "bitDepth": 9}"#, "output.encoder.bitDepth", "8 or 10"),
                                       (#"{"codec": "proRes4444", "crf": 20}"#, "output.encoder.crf", "does not apply to proRes4444")] {
            do {
                _ = try read(encoder)
                Issue.record("\(encoder) was accepted")
            } catch {
                #expect("\(error)".contains(path) && "\(error)".contains(words), "\(encoder): \(error)")
            }
        }
    }
}

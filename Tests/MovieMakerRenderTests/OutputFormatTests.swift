import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// What MovieMaker writes, checked by decoding it in-process (libavformat) and with ffprobe.
@Suite struct OutputFormatTests {
    /// Draws a moving ball over a gradient: enough motion for real P/B frames.
    static func drawBall(_ ctx: DrawingContext, _ frame: Frame) {
        ctx.setFill(.linear(from: .zero, to: Point(x: ctx.bounds.maxX, y: ctx.bounds.maxY), colors: [.blue, .black]))
        ctx.fillRect(ctx.bounds)
        ctx.setFill(.orange)
        let x = 20 + (ctx.bounds.width - 40) * frame.progress
        ctx.fillEllipse(in: Rect(x: x - 15, y: ctx.bounds.midY - 15, width: 30, height: 30))
    }

    /// Renders `frames` frames of the moving ball into a new folder; keep the folder alive while using the file.
    static func renderBall(_ name: String, fps: FrameRate = 30, frames: Int, settings: EncoderSettings = EncoderSettings()) throws -> (TemporaryFolder, URL, MovieSummary) {
        let dir = try TemporaryFolder(name)
        let url = dir.file(name)
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: fps, settings: settings)
        try movie.addFrames(count: frames, drawBall)
        return (dir, url, try movie.finish())
    }

    @Test func writesExactFrameCountSizeRateAndPixelFormat() throws {
        let (dir, url, summary) = try Self.renderBall("ball.mp4", frames: 45)
        defer { withExtendedLifetime(dir) {} }
        #expect(summary.frameCount == 45)
        #expect(summary.duration == Time(value: 3, timescale: 2))

        let reader = try MovieReader(url: url)
        #expect(reader.info.codec == "h264")
        #expect(reader.info.profile == "High")
        #expect(reader.info.width == 320 && reader.info.height == 240)
        #expect(reader.info.frameRate == FrameRate(30))
        #expect(reader.info.pixelFormat == "yuv420p")
        #expect(try reader.decodedFrameCount() == 45)

        if FFTools.available {
            let s = try FFTools.videoStream(url)
            #expect(s["codec_name"] as? String == "h264")
            #expect(s["profile"] as? String == "High")
            #expect(s["width"] as? Int == 320)
            #expect(s["height"] as? Int == 240)
            #expect(s["pix_fmt"] as? String == "yuv420p")
            #expect(s["r_frame_rate"] as? String == "30/1")
            #expect(s["avg_frame_rate"] as? String == "30/1")
            #expect(s["nb_read_frames"] as? String == "45")
            #expect(s["sample_aspect_ratio"] as? String == "1:1")
        }
    }

    @Test func tagsBT709LimitedRangeInStreamAndContainer() throws {
        let (dir, url, _) = try Self.renderBall("tags.mp4", fps: 25, frames: 5)
        defer { withExtendedLifetime(dir) {} }

        let info = try MovieReader(url: url).info
        #expect(info.colorPrimaries == "bt709")
        #expect(info.colorTransfer == "bt709")
        #expect(info.colorMatrix == "bt709")
        #expect(info.colorRange == "tv")
        // The container's own `colr` box: nclx 1/1/1 (BT.709), full-range flag clear.
        let colr = try #require(try colrBox(url), "no colr box in the file")
        #expect(colr.primaries == 1 && colr.transfer == 1 && colr.matrix == 1 && !colr.fullRange)

        if FFTools.available {
            // The H.264 bitstream's VUI itself, read by FFmpeg's header tracer (not the container).
            let r = try run(FFTools.ffmpeg, ["-v", "trace", "-i", url.path, "-c", "copy", "-bsf:v", "trace_headers", "-frames:v", "1", "-f", "null", "-"])
            #expect(r.status == 0)
            let vui = r.stderr.split(separator: "\n").filter { $0.contains("video_full_range_flag") || $0.contains("colour_primaries") || $0.contains("transfer_characteristics") || $0.contains("matrix_coefficients") }
            func value(_ name: String) -> Int? { vui.first { $0.contains(name) }.flatMap { Int($0.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)) } }
            #expect(value("colour_primaries") == 1, "VUI: \(vui)")
            #expect(value("transfer_characteristics") == 1, "VUI: \(vui)")
            #expect(value("matrix_coefficients") == 1, "VUI: \(vui)")
            #expect(value("video_full_range_flag") == 0, "VUI: \(vui)")
            let s = try FFTools.videoStream(url, countFrames: false)
            #expect(s["color_primaries"] as? String == "bt709")
            #expect(s["color_transfer"] as? String == "bt709")
            #expect(s["color_space"] as? String == "bt709")
            #expect(s["color_range"] as? String == "tv")
        }
    }

    @Test(arguments: ["mp4", "mov"])
    func putsMoovBeforeMdat(ext: String) throws {
        let (dir, url, _) = try Self.renderBall("fast.\(ext)", frames: 10)
        defer { withExtendedLifetime(dir) {} }
        let boxes = try topLevelBoxes(url)
        let moov = try #require(boxes.firstIndex(of: "moov"), "no moov in \(boxes)")
        let mdat = try #require(boxes.firstIndex(of: "mdat"), "no mdat in \(boxes)")
        #expect(moov < mdat, "boxes: \(boxes)")
    }

    @Test func writesMatroskaByExtension() throws {
        let (dir, url, _) = try Self.renderBall("clip.mkv", fps: 24, frames: 12)
        defer { withExtendedLifetime(dir) {} }
        let reader = try MovieReader(url: url)
        #expect(reader.info.containerFormat.contains("matroska"))
        #expect(reader.info.codec == "h264")
        #expect(try reader.decodedFrameCount() == 12)
    }

    @Test(arguments: [(30, 1), (25, 1), (24, 1), (60, 1), (24000, 1001), (30000, 1001)])
    func timestampsAreExactlyFrameIndexOverRate(num: Int, den: Int) throws {
        let dir = try TemporaryFolder()
        let url = dir.file("ts.mp4")
        let rate = try #require(FrameRate(numerator: num, denominator: den))
        let movie = try MovieMaker(url: url, width: 64, height: 48, fps: rate, settings: EncoderSettings(preset: .ultrafast))
        let count = 90
        try movie.addFrames(count: count) { ctx, f in ctx.clear(Color(white: Double(f.index % 10) / 10)) }
        try movie.finish()
        let expected = (0..<count).map { rate.time(ofFrame: $0) }
        #expect(try MovieReader(url: url).packetTimestamps().sorted() == expected)
        var decodedTimes: [Time] = []
        try MovieReader(url: url).decodeFrames { decodedTimes.append($0.presentationTime); return true }
        #expect(decodedTimes == expected, "decoded frames are not in order at exactly N/fps")
        if FFTools.available {
            #expect(try FFTools.packetTimes(url).sorted() == expected)
        }
    }

    /// 100,000 frames at 30000/1001 (55.6 minutes): the last timestamp is still exactly 99,999 × 1001/30000 s.
    @Test func timestampsDoNotDriftOver100kFramesAtNTSCRate() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("long.mp4")
        let rate = FrameRate.ntsc
        let movie = try MovieMaker(url: url, width: 16, height: 16, fps: rate, settings: EncoderSettings(crf: 30, preset: .ultrafast))
        let count = 100_000
        try movie.addFrames(count: count) { ctx, f in
            if f.index % 1000 == 0 { ctx.clear(Color(white: Double(f.index / 1000 % 2))) }
        }
        try movie.finish()
        let times = try MovieReader(url: url).packetTimestamps().sorted()
        #expect(times.count == count)
        #expect(times.first == .zero)
        #expect(times.last == Time(value: 99_999 * 1001, timescale: 30_000))
        let mismatches = times.enumerated().filter { $0.element != rate.time(ofFrame: $0.offset) }.count
        #expect(mismatches == 0)
        if FFTools.available {
            let probed = try FFTools.packetTimes(url).sorted()
            #expect(probed.count == count)
            #expect(probed.enumerated().allSatisfy { $0.element == rate.time(ofFrame: $0.offset) })
        }
    }

    @Test func everyFrameDecodesWithoutErrorInBothDecoders() throws {
        let (dir, url, _) = try Self.renderBall("strict.mp4", frames: 40, settings: EncoderSettings(keyframeInterval: 10))
        defer { withExtendedLifetime(dir) {} }
        // MovieReader decodes with AV_EF_EXPLODE and throws on any error or damaged frame.
        #expect(try MovieReader(url: url).decodedFrameCount() == 40)
        if FFTools.available {
            let r = try run(FFTools.ffmpeg, ["-v", "error", "-xerror", "-err_detect", "explode", "-i", url.path, "-f", "null", "-"])
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "ffmpeg reported: \(r.stderr)")
        }
    }
}

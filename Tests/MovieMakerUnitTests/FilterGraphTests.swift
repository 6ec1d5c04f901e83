import CFFmpeg
import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Filter graph (libavfilter)")
struct FilterGraphTests {
    /// A 64×48 yuv420p picture: luma rising by 2 per column plus `index` (so frames differ), flat chroma.
    static func picture(_ index: Int, width: Int32 = 64, height: Int32 = 48) throws -> OwnedFrame {
        let frame = try OwnedFrame(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        let f = frame.pointer.pointee
        for y in 0..<Int(height) {
            for x in 0..<Int(width) { f.data.0![y * Int(f.linesize.0) + x] = UInt8((16 + 2 * x + index) & 0xFF) }
        }
        for y in 0..<Int(height / 2) {
            for x in 0..<Int(width / 2) {
                f.data.1![y * Int(f.linesize.1) + x] = 128
                f.data.2![y * Int(f.linesize.2) + x] = 128
            }
        }
        frame.pointer.pointee.pts = Int64(index)
        return frame
    }

    /// Sends `count` pictures then the end of the input, and collects what comes out (as copies of the
    /// size, format, timestamp and first luma row).
    static func run(_ graph: FilterGraph, count: Int) throws -> [(width: Int32, height: Int32, format: Int32, pts: Int64, row: [UInt8])] {
        var out: [(width: Int32, height: Int32, format: Int32, pts: Int64, row: [UInt8])] = []
        let received = try OwnedFrame()
        func drain() throws {
            while try graph.receive(into: received) == .frame {
                let f = received.pointer.pointee
                out.append((f.width, f.height, f.format, f.pts, Array(UnsafeBufferPointer(start: f.data.0!, count: Int(f.width)))))
            }
        }
        for i in 0..<count {
            let picture = try picture(i)
            try graph.send(picture.pointer)
            try drain()
        }
        try graph.send(nil)
        try drain()
        #expect(try graph.receive(into: received) == .ended)
        return out
    }

    let videoInput = FilterGraph.Input.video(width: 64, height: 48, pixelFormat: AV_PIX_FMT_YUV420P,
                                             timeBase: AVRational(num: 1, den: 25), sampleAspectRatio: AVRational(num: 1, den: 1))

    @Test("bwdif (send_frame, all frames) gives one 64×48 yuv420p picture per picture sent, in order")
    func bwdifOnVideoFrames() throws {
        let graph = try FilterGraph(input: videoInput, filters: "bwdif=mode=send_frame:deint=all",
                                    output: .video(pixelFormats: [AV_PIX_FMT_YUV420P]))
        let out = try Self.run(graph, count: 5)
        #expect(out.count == 5)
        // bwdif halves the time base (it can send a frame per field); each picture keeps its time i/25 s.
        let tb = graph.outputTimeBase
        #expect(tb.num == 1 && tb.den == 50)
        for (i, frame) in out.enumerated() {
            #expect(frame.width == 64 && frame.height == 48)
            #expect(frame.format == AV_PIX_FMT_YUV420P.rawValue)
            #expect(frame.pts * Int64(tb.num) * 25 == Int64(i) * Int64(tb.den), "picture \(i) at \(frame.pts) × \(tb.num)/\(tb.den)")
        }
        #expect(graph.outputWidth == 64 && graph.outputHeight == 48)
    }

    @Test("null passes pictures through unchanged; the sink's format is reached by conversion (yuv420p → rgba)")
    func nullAndConversion() throws {
        let same = try Self.run(try FilterGraph(input: videoInput, filters: "null", output: .video(pixelFormats: [])), count: 3)
        #expect(same.count == 3)
        for (i, frame) in same.enumerated() {
            #expect(frame.row == (0..<64).map { UInt8(16 + 2 * $0 + i) })
        }
        let rgba = try FilterGraph(input: videoInput, filters: "null", output: .video(pixelFormats: [AV_PIX_FMT_RGBA]))
        let converted = try Self.run(rgba, count: 2)
        #expect(converted.count == 2)
        #expect(converted.allSatisfy { $0.format == AV_PIX_FMT_RGBA.rawValue && $0.width == 64 && $0.height == 48 })
        #expect(rgba.outputFormat == AV_PIX_FMT_RGBA.rawValue)
    }

    @Test("Scaling changes the size the sink reports and the frames have")
    func scaleChangesSize() throws {
        let graph = try FilterGraph(input: videoInput, filters: "scale=32:24", output: .video(pixelFormats: [AV_PIX_FMT_YUV420P]))
        let out = try Self.run(graph, count: 2)
        #expect(out.count == 2)
        #expect(out.allSatisfy { $0.width == 32 && $0.height == 24 })
        #expect(graph.outputWidth == 32 && graph.outputHeight == 24)
    }

    @Test("Audio: volume=0.5 halves float samples exactly; the output keeps the rate, layout and format")
    func audioVolume() throws {
        let graph = try FilterGraph(
            input: .audio(sampleRate: 48_000, sampleFormat: AV_SAMPLE_FMT_FLT, channelCount: 2, timeBase: AVRational(num: 1, den: 48_000)),
            filters: "volume=0.5:precision=float",
            output: .audio(sampleRate: 48_000, sampleFormat: AV_SAMPLE_FMT_FLT, channelCount: 2))
        let frame = try OwnedFrame()
        frame.pointer.pointee.nb_samples = 1000
        frame.pointer.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointer.pointee.sample_rate = 48_000
        av_channel_layout_default(&frame.pointer.pointee.ch_layout, 2)
        frame.pointer.pointee.pts = 0
        try #require(av_frame_get_buffer(frame.pointer, 0) >= 0)
        let input = UnsafeMutableRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
        for i in 0..<2000 { input[i] = Float(i % 200) / 100 - 1 }
        try graph.send(frame.pointer)
        try graph.send(nil)
        var output: [Float] = []
        let received = try OwnedFrame()
        while try graph.receive(into: received) == .frame {
            let f = received.pointer.pointee
            #expect(f.format == AV_SAMPLE_FMT_FLT.rawValue && f.sample_rate == 48_000 && f.ch_layout.nb_channels == 2)
            output += UnsafeBufferPointer(start: UnsafeRawPointer(f.data.0!).assumingMemoryBound(to: Float.self), count: Int(f.nb_samples) * 2)
        }
        let expected: [Float] = (0..<2000).map { i in (Float(i % 200) / 100 - 1) * 0.5 }
        #expect(output == expected)
        #expect(graph.outputSampleRate == 48_000)
    }

    @Test("An unknown filter is named in the error")
    func unknownFilter() {
        let error = #expect(throws: MovieMakerError.self) {
            try FilterGraph(input: videoInput, filters: "null,deinterlace_please=1", output: .video(pixelFormats: []))
        }
        #expect(error?.code == .ffmpeg)
        #expect(error?.message.contains("\"null,deinterlace_please=1\"") == true)
        #expect(error?.message.contains("no filter named \"deinterlace_please\"") == true, "\(String(describing: error))")
        #expect((error?.underlying as? FFmpegError)?.operation.hasPrefix("avfilter_graph_parse_ptr") == true)
    }

    @Test("Bad options (atempo out of its range) are reported with the filter to check")
    func badOptions() {
        let error = #expect(throws: MovieMakerError.self) {
            try FilterGraph(
                input: .audio(sampleRate: 48_000, sampleFormat: AV_SAMPLE_FMT_FLT, channelCount: 1, timeBase: AVRational(num: 1, den: 48_000)),
                filters: "atempo=1000",
                output: .audio(sampleRate: 48_000, sampleFormat: AV_SAMPLE_FMT_FLT, channelCount: 1))
        }
        #expect(error?.code == .ffmpeg)
        #expect(error?.message.contains("check the options of atempo") == true, "\(String(describing: error))")
    }

    @Test("An audio filter in a video graph is named as such")
    func wrongKindOfFilter() {
        let error = #expect(throws: MovieMakerError.self) {
            try FilterGraph(input: videoInput, filters: "atempo=2", output: .video(pixelFormats: []))
        }
        #expect(error?.message.contains("the filter atempo does not take video frames") == true, "\(String(describing: error))")
    }

    @Test("Filter names are read past labels, options, quotes and escapes")
    func filterNames() {
        #expect(FilterGraph.filterNames(in: "[in]scale=640:-2,bwdif=mode=0[out]") == ["scale", "bwdif"])
        #expect(FilterGraph.filterNames(in: "drawtext=text='a,b;c':x=1 ; volume@v=0.5") == ["drawtext", "volume"])
        #expect(FilterGraph.filterNames(in: "atempo=0.5,atempo=0.5") == ["atempo", "atempo"])
    }
}

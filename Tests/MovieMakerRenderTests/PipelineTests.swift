import Foundation
import Logging
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The drawing/encoding pipeline: bounded memory, progress, logs.
@Suite struct PipelineTests {
    /// 20,000 frames go through the same three buffers: nothing is allocated per frame and memory stays flat.
    @Test func twentyThousandFramesReuseAFixedPoolOfBuffers() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("long.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(crf: 30, preset: .ultrafast, bufferCount: 3))
        var maxInFlight = 0
        movie.progressHandler = { p in maxInFlight = max(maxInFlight, p.framesAdded - p.framesEncoded) }
        try movie.addFrames(count: 20_000) { ctx, f in
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: Double(f.index % 60), y: 10, width: 4, height: 4))
        }
        #expect(movie.buffersAllocated == 3)
        // Back-pressure: never more frames waiting than the pool holds, plus the serial frames staged
        // for conversion (copies of the drawn frame, converted while the next is drawn).
        #expect(maxInFlight <= 3 + SerialConversion.stagingCount)
        try movie.finish()
        #expect(try MovieReader(url: url).packetTimestamps().count == 20_000)
    }

    @Test func progressReportsFramesTotalElapsedAndEstimate() throws {
        let dir = try TemporaryFolder()
        let movie = try MovieMaker(url: dir.file("p.mp4"), width: 64, height: 48, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        var reports: [RenderProgress] = []
        movie.progressHandler = { reports.append($0) }
        try movie.addFrames(count: 30) { ctx, f in ctx.clear(Color(white: f.progress)) }
        try movie.finish()
        #expect(reports.count == 31)   // one per frame and one at the end
        #expect(reports.map(\.framesAdded) == Array(1...30) + [30])
        #expect(reports.allSatisfy { $0.totalFrames == 30 })
        #expect(reports.allSatisfy { $0.framesEncoded <= $0.framesAdded })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.elapsed <= $1.elapsed && $0.framesEncoded <= $1.framesEncoded })
        let last = try #require(reports.last)
        #expect(last.framesEncoded == 30 && last.fractionCompleted == 1 && last.estimatedTimeRemaining == 0)
        let mid = reports[14]
        #expect(mid.fractionCompleted == 0.5)
        #expect(mid.estimatedTimeRemaining != nil)
    }

    @Test func libraryLogsAreRoutedToSwiftLogWhenAskedAndQuietOtherwise() throws {
        let lines = Mutex<[String]>([])
        struct Collector: LogHandler {
            let lines: @Sendable (String) -> Void
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? { get { metadata[key] } set { metadata[key] = newValue } }
            func log(event: LogEvent) { lines(event.message.description) }
        }
        let logger = Logger(label: "test") { _ in Collector { line in lines.withLock { $0.append(line) } } }
        let dir = try TemporaryFolder()
        func render() throws {
            let movie = try MovieMaker(url: dir.file("log.mp4"), width: 64, height: 48, fps: 30, settings: EncoderSettings(preset: .ultrafast))
            try movie.addFrame { ctx in ctx.clear(.red) }
            try movie.finish()
        }
        LibraryLog.route(to: logger, level: .info)
        try render()
        LibraryLog.silence()
        let routed = lines.withLock { $0 }
        // x264 announces its CPU features and frame statistics at info level, through libavcodec's av_log.
        #expect(routed.contains { $0.contains("using cpu capabilities") }, "got: \(routed.prefix(5))")
        lines.withLock { $0.removeAll() }
        try render()
        #expect(lines.withLock { $0.isEmpty }, "logs arrived after silence()")
    }
}

@Suite struct LibraryVersionTests {
    @Test func reportsTheLibrariesInUse() {
        let v = LibraryVersions.current
        #expect(v.hasLibx264)
        #expect(v.x264Build >= 148, "x264 build \(v.x264Build) is older than Debian 10's")
        #expect(v.cairo.split(separator: ".").count == 3)
        #expect(Int(v.libavcodec.split(separator: ".").first ?? "") ?? 0 >= 58)
        #expect(v.description.contains("x264 build \(v.x264Build)"))
    }
}

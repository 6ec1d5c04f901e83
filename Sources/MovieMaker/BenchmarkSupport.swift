import CFFmpeg
import Foundation

// The pieces of the pipeline, one at a time, for `moviemaker-bench` to time separately. Not API:
// import with `@_spi(Benchmark) import MovieMaker`.

/// A converted yuv420p frame held in memory.
@_spi(Benchmark) public final class BenchmarkYUVFrame {
    let frame: OwnedFrame
    init(frame: OwnedFrame) { self.frame = frame }
}

/// BGRA → yuv420p (BT.709, limited range) exactly as `MovieMaker` does it.
@_spi(Benchmark) public final class BenchmarkConverter {
    private let scaler: OwnedScaler
    private let width: Int32, height: Int32
    /// A converter for canvases of this size.
    public init(width: Int, height: Int) throws(MovieMakerError) {
        self.width = Int32(width); self.height = Int32(height)
        scaler = try OwnedScaler(srcWidth: self.width, srcHeight: self.height, srcFormat: AV_PIX_FMT_BGRA,
                                 dstWidth: self.width, dstHeight: self.height, dstFormat: VideoEncoder.pixelFormat,
                                 flags: MovieMaker.scalerFlags)
        try setBT709(on: scaler, rgbIsSource: true)
    }
    /// A new frame for `convert(_:into:)`, with its pages already touched so that timing a conversion
    /// into it does not count first-touch page faults (the pipeline's pooled frames have none).
    public func makeFrame() throws(MovieMakerError) -> BenchmarkYUVFrame {
        let f = try OwnedFrame(width: width, height: height, format: VideoEncoder.pixelFormat)
        let heights = [Int(height), Int(height + 1) / 2, Int(height + 1) / 2]
        withUnsafePointer(to: f.pointer.pointee.data) { data in
            withUnsafePointer(to: f.pointer.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 3) { strides in
                        for i in 0..<3 { if let p = planes[i] { memset(p, 0, Int(strides[i]) * heights[i]) } }
                    }
                }
            }
        }
        return BenchmarkYUVFrame(frame: f)
    }
    /// Converts the canvas into `frame`, as the pipeline does.
    public func convert(_ canvas: Canvas, into frame: BenchmarkYUVFrame) throws(MovieMakerError) {
        canvas.surface.flush()
        let rows = scaler.convert(from: UnsafePointer(canvas.surface.data), stride: canvas.surface.stride, height: Int(height), into: frame.frame.pointer)
        if rows != height { throw .ffmpeg(operation: "sws_scale", code: rows, message: "converted \(rows) of \(height) rows") }
    }
}

/// The encoder and muxer alone, fed with already converted frames.
@_spi(Benchmark) public final class BenchmarkEncoder {
    private let encoder: VideoEncoder
    /// An encoder writing `url` (no temporary file, no pipeline thread).
    public init(url: URL, width: Int, height: Int, fps: FrameRate, settings: EncoderSettings) throws(MovieMakerError) {
        LibraryLog.ensureConfigured()
        encoder = try VideoEncoder(path: url.path, container: Container(fileExtension: url.pathExtension) ?? .mp4,
                                   width: Int32(width), height: Int32(height), rate: fps, settings: settings)
    }
    /// Encodes one frame with presentation index `index`.
    public func encode(_ frame: BenchmarkYUVFrame, index: Int) throws(MovieMakerError) {
        try ffCheck(av_frame_make_writable(frame.frame.pointer), "av_frame_make_writable")
        frame.frame.pointer.pointee.pts = Int64(index)
        try encoder.encode(frame.frame.pointer)
    }
    /// Flushes and closes the file.
    public func finish() throws(MovieMakerError) { try encoder.finish() }
}

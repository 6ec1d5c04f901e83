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
    /// Converts the canvas into a newly allocated frame.
    public func convert(_ canvas: Canvas) throws(MovieMakerError) -> BenchmarkYUVFrame {
        let f = try OwnedFrame(width: width, height: height, format: VideoEncoder.pixelFormat)
        canvas.surface.flush()
        _ = scaler.convert(from: UnsafePointer(canvas.surface.data), stride: canvas.surface.stride, height: Int(height), into: f.pointer)
        return BenchmarkYUVFrame(frame: f)
    }
}

/// The encoder and muxer alone, fed with already converted frames.
@_spi(Benchmark) public final class BenchmarkEncoder {
    private let encoder: VideoEncoder
    /// An encoder writing `url` (no temporary file, no pipeline thread).
    public init(url: URL, width: Int, height: Int, fps: FrameRate, settings: EncoderSettings) throws(MovieMakerError) {
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

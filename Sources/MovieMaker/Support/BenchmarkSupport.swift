internal import CFFmpeg
import Foundation
import Synchronization

// The pieces of the pipeline, one at a time, for `moviemaker-bench` to time separately. Not API:
// import with `import MovieMaker`.

/// A converted yuv420p frame held in memory.
package final class BenchmarkYUVFrame {
    let frame: OwnedFrame
    init(frame: OwnedFrame) { self.frame = frame }
}

/// BGRA → yuv420p (BT.709, limited range) exactly as `MovieMaker` does it, or (`method: .swscale`)
/// with the swscale path it replaced.
package final class BenchmarkConverter {
    private let converter: FrameConverter
    private let width: Int32, height: Int32
    /// A converter for canvases of this size.
    package init(width: Int, height: Int, method: YUVConversionMethod = .standard) throws(MovieMakerError) {
        self.width = Int32(width); self.height = Int32(height)
        converter = try FrameConverter(width: width, height: height, format: VideoEncoder.pixelFormat, alpha: false, method: method)
    }
    /// A new frame for `convert(_:into:)`, with its pages already touched so that timing a conversion
    /// into it does not count first-touch page faults (the pipeline's pooled frames have none).
    package func makeFrame() throws(MovieMakerError) -> BenchmarkYUVFrame {
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
    package func convert(_ canvas: Canvas, into frame: BenchmarkYUVFrame) throws(MovieMakerError) {
        try converter.convertAll(canvas.surface, into: frame.frame.pointer)
    }
}

/// The encoder and muxer alone, fed with already converted frames.
package final class BenchmarkEncoder {
    private let encoder: VideoEncoder
    /// An encoder writing `url` (no temporary file, no pipeline thread).
    package init(url: URL, width: Int, height: Int, fps: FrameRate, settings: EncoderSettings) throws(MovieMakerError) {
        LibraryLog.ensureConfigured()
        encoder = try VideoEncoder(path: url.path, container: Container(fileExtension: url.pathExtension) ?? .mp4,
                                   width: Int32(width), height: Int32(height), rate: fps, settings: settings)
    }
    /// Encodes one frame with presentation index `index`.
    package func encode(_ frame: BenchmarkYUVFrame, index: Int) throws(MovieMakerError) {
        try ffCheck(av_frame_make_writable(frame.frame.pointer), "av_frame_make_writable")
        frame.frame.pointer.pointee.pts = Int64(index)
        try encoder.encode(frame.frame.pointer)
    }
    /// Flushes and closes the file.
    package func finish() throws(MovieMakerError) { try encoder.finish() }

    /// The `asm` value MovieMaker gives x264 (its CPU flags without AVX-512; nil: x264's own), so the
    /// ffmpeg command line compared with it can be given the same.
    package static var x264AssemblyFlags: UInt32? { VideoEncoder.x264AssemblyWithoutAVX512 }
    /// The CRF MovieMaker encodes `codec` with by default.
    package static func defaultCRF(_ codec: VideoCodec) -> Int { codec.defaultCRF }
}

extension BenchmarkYUVFrame {
    /// Bytes of the packed planes of a `width`×`height` yuv420p frame: luma, then the two chroma planes.
    package static func packedSize(width: Int, height: Int) -> Int {
        width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    }

    /// Calls `body` with each plane's start, row stride, bytes per row and rows (Y, U, V).
    private func forEachPlane(_ body: (UnsafeMutablePointer<UInt8>, Int, Int, Int) -> Void) {
        let f = frame.pointer.pointee
        let w = Int(f.width), h = Int(f.height)
        let planes = [f.data.0, f.data.1, f.data.2], strides = [f.linesize.0, f.linesize.1, f.linesize.2]
        for i in 0..<3 {
            guard let p = planes[i] else { continue }
            body(p, Int(strides[i]), i == 0 ? w : (w + 1) / 2, i == 0 ? h : (h + 1) / 2)
        }
    }

    /// Copies the planes, without row padding, into `destination` (at least `packedSize` bytes).
    package func pack(into destination: UnsafeMutableRawPointer) {
        var offset = 0
        forEachPlane { plane, stride, rowBytes, rows in
            for y in 0..<rows { (destination + offset).copyMemory(from: plane + y * stride, byteCount: rowBytes); offset += rowBytes }
        }
    }

    /// Fills the planes from packed bytes as `pack(into:)` writes them.
    package func unpack(from source: UnsafeRawPointer) throws(MovieMakerError) {
        try ffCheck(av_frame_make_writable(frame.pointer), "av_frame_make_writable")
        var offset = 0
        forEachPlane { plane, stride, rowBytes, rows in
            for y in 0..<rows { (plane + y * stride).update(from: (source + offset).assumingMemoryBound(to: UInt8.self), count: rowBytes); offset += rowBytes }
        }
    }
}


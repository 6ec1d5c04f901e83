internal import CFFmpeg
import Foundation

/// Frames of one size and packed pixel format (RGB24 or RGBA) kept in a temporary file, to be read
/// back in any order: an animated image is encoded from them once the movie ends (a GIF's palette
/// needs every frame first), as often as `AnimatedImageSettings.maxFileSize` asks. Memory stays
/// constant however long the movie; the disk holds width × height × 3 (4 with alpha) bytes a frame.
///
/// Owns the file descriptor; the file is unlinked as soon as it is made, so nothing is left behind
/// whatever happens to the process.
final class FrameSpool {
    private let descriptor: Int32
    let width: Int32, height: Int32
    let format: AVPixelFormat
    /// Bytes per packed row and per frame.
    private let rowBytes: Int, frameBytes: Int
    /// Frames appended so far.
    private(set) var count = 0

    /// An empty spool for `width`×`height` frames of `format` (RGB24 or RGBA), in `folder`.
    init(width: Int32, height: Int32, format: AVPixelFormat, folder: URL = FileManager.default.temporaryDirectory) throws(MovieMakerError) {
        precondition(format == AV_PIX_FMT_RGB24 || format == AV_PIX_FMT_RGBA, "FrameSpool keeps packed RGB24 or RGBA")
        self.width = width; self.height = height; self.format = format
        rowBytes = Int(width) * (format == AV_PIX_FMT_RGBA ? 4 : 3)
        frameBytes = rowBytes * Int(height)
        var template = Array(folder.appendingPathComponent("moviemaker-frames-XXXXXX").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .destinationNotWritable(path: folder.path, reason: "cannot make the temporary file an animated image is made from: \(String(cString: strerror(errno))); set TMPDIR to a folder with room")
        }
        descriptor = fd
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { close(descriptor) }

    /// Appends `frame` (of the spool's size and format).
    func append(_ frame: UnsafePointer<AVFrame>) throws(MovieMakerError) {
        let f = frame.pointee
        precondition(f.width == width && f.height == height && f.format == format.rawValue, "FrameSpool: a frame of another size or format")
        let base = off_t(count) * off_t(frameBytes)
        let stride = Int(f.linesize.0)
        guard let data = f.data.0 else { preconditionFailure("FrameSpool: a frame without pixels") }
        if stride == rowBytes {
            try write(UnsafeRawPointer(data), count: frameBytes, at: base)
        } else {
            for y in 0..<Int(height) {
                try write(UnsafeRawPointer(data + y * stride), count: rowBytes, at: base + off_t(y * rowBytes))
            }
        }
        count += 1
    }

    /// Frame `index` in a new frame (new buffers, so it can be handed to a filter graph and kept there).
    func frame(_ index: Int) throws(MovieMakerError) -> OwnedFrame {
        precondition(index >= 0 && index < count, "FrameSpool: frame \(index) of \(count)")
        let frame = try OwnedFrame(width: width, height: height, format: format)
        let f = frame.pointer.pointee
        let stride = Int(f.linesize.0)
        let base = off_t(index) * off_t(frameBytes)
        for y in 0..<Int(height) {
            let destination = UnsafeMutableRawPointer(f.data.0! + y * stride)
            var done = 0
            while done < rowBytes {
                let n = pread(descriptor, destination + done, rowBytes - done, base + off_t(y * rowBytes + done))
                guard n > 0 else { throw Self.failure("read", errno) }
                done += n
            }
        }
        return frame
    }

    private func write(_ bytes: UnsafeRawPointer, count: Int, at offset: off_t) throws(MovieMakerError) {
        var done = 0
        while done < count {
            let n = pwrite(descriptor, bytes + done, count - done, offset + off_t(done))
            guard n > 0 else { throw Self.failure("write", errno) }
            done += n
        }
    }

    private static func failure(_ operation: String, _ code: Int32) -> MovieMakerError {
        .destinationNotWritable(path: FileManager.default.temporaryDirectory.path,
                                reason: "cannot \(operation) the temporary frames of the animated image: \(String(cString: strerror(code))); set TMPDIR to a folder with room (it takes width × height × 3 bytes a frame)")
    }
}

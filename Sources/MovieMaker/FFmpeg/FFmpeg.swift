import CFFmpeg
import CMovieMakerShim

// Small owners for FFmpeg handles. Each class owns exactly one C handle and frees it in `deinit`;
// pointers that belong to someone else (a stream inside a format context, a codec descriptor) are
// stored in properties named `borrowed…` and never freed.

/// The message FFmpeg gives for an error code (av_err2str, through the shim).
func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    return buffer.withUnsafeMutableBufferPointer { String(cString: mm_av_error_string(code, $0.baseAddress, 256)) }
}

/// Returns `code` when it is ≥ 0; throws `.ffmpeg` naming `operation` otherwise.
@discardableResult
func ffCheck(_ code: Int32, _ operation: @autoclosure () -> String) throws(MovieMakerError) -> Int32 {
    if code < 0 { throw .ffmpeg(operation: operation(), code: code, message: ffmpegMessage(code)) }
    return code
}

/// Whether a pixel format has an alpha component (yuva420p, yuva444p12le, rgba…).
func pixelFormatHasAlpha(_ format: AVPixelFormat) -> Bool {
    guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
    return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
}

let averrorEAGAIN = mm_averror_eagain()
let averrorEOF = mm_averror_eof()

/// Owns one `AVFrame` (and, through it, its reference-counted picture buffers).
final class OwnedFrame: @unchecked Sendable {
    // @unchecked: a frame is handed between the drawing thread and the encoder thread, but only ever
    // through FramePipeline's lock, so exactly one thread touches it at a time.
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MovieMakerError) {
        guard let f = av_frame_alloc() else {
            throw .ffmpeg(operation: "av_frame_alloc", code: mm_averror(12), message: "out of memory")
        }
        pointer = f
    }
    /// Allocates picture buffers for a video frame of the given format and size.
    convenience init(width: Int32, height: Int32, format: AVPixelFormat) throws(MovieMakerError) {
        try self.init()
        pointer.pointee.width = width
        pointer.pointee.height = height
        pointer.pointee.format = format.rawValue
        try ffCheck(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer (\(width)×\(height))")
    }
    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }
}

/// Owns one `AVPacket`.
final class OwnedPacket {
    let pointer: UnsafeMutablePointer<AVPacket>
    init() throws(MovieMakerError) {
        guard let p = av_packet_alloc() else {
            throw .ffmpeg(operation: "av_packet_alloc", code: mm_averror(12), message: "out of memory")
        }
        pointer = p
    }
    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}

/// Owns one `AVCodecContext`.
final class OwnedCodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    init(codec: UnsafePointer<AVCodec>) throws(MovieMakerError) {
        guard let c = avcodec_alloc_context3(codec) else {
            throw .ffmpeg(operation: "avcodec_alloc_context3", code: mm_averror(12), message: "out of memory")
        }
        pointer = c
    }
    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&p)
    }
}

/// Owns one `SwsContext` (libswscale converter between two fixed formats and sizes).
final class OwnedScaler {
    let pointer: OpaquePointer
    init(srcWidth: Int32, srcHeight: Int32, srcFormat: AVPixelFormat,
         dstWidth: Int32, dstHeight: Int32, dstFormat: AVPixelFormat, flags: Int32) throws(MovieMakerError) {
        guard let s = sws_getContext(srcWidth, srcHeight, srcFormat, dstWidth, dstHeight, dstFormat, flags, nil, nil, nil) else {
            throw .ffmpeg(operation: "sws_getContext (\(srcWidth)×\(srcHeight) → \(dstWidth)×\(dstHeight))",
                          code: mm_averror(22), message: "unsupported conversion")
        }
        pointer = s
    }
    /// Converts one packed picture (e.g. BGRA) into `frame`'s planes; returns the rows written.
    func convert(from source: UnsafePointer<UInt8>, stride: Int, height: Int, into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        let srcData: [UnsafePointer<UInt8>?] = [source, nil, nil, nil]
        let srcStride: [Int32] = [Int32(stride), 0, 0, 0]
        return scale(srcData, srcStride, height: height, into: frame)
    }
    /// Converts `source`'s planes into `frame`'s planes; returns the rows written.
    func convert(_ source: UnsafePointer<AVFrame>, into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        let f = source.pointee
        let srcData: [UnsafePointer<UInt8>?] = [f.data.0, f.data.1, f.data.2, f.data.3].map { $0.map { UnsafePointer($0) } }
        let srcStride: [Int32] = [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3]
        return scale(srcData, srcStride, height: Int(f.height), into: frame)
    }
    private func scale(_ srcData: [UnsafePointer<UInt8>?], _ srcStride: [Int32], height: Int, into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        let d = frame.pointee
        let dstData: [UnsafeMutablePointer<UInt8>?] = [d.data.0, d.data.1, d.data.2, d.data.3]
        let dstStride: [Int32] = [d.linesize.0, d.linesize.1, d.linesize.2, d.linesize.3]
        return sws_scale(pointer, srcData, srcStride, 0, Int32(height), dstData, dstStride)
    }
    deinit { sws_freeContext(pointer) }
}

/// Owns an `AVDictionary` of options until it is handed to an FFmpeg call that consumes entries.
final class OwnedDictionary {
    var pointer: OpaquePointer?
    init(_ entries: [(String, String)] = []) {
        for (k, v) in entries { av_dict_set(&pointer, k, v, 0) }
    }
    func set(_ key: String, _ value: String) { av_dict_set(&pointer, key, value, 0) }
    deinit { av_dict_free(&pointer) }
}

/// The BT.709 limited-range conversion settings on a scaler. swscale defaults to BT.601 for YUV,
/// which decoders then read as BT.709 (the tag we write): the classic colour shift. `rgbIsSource`
/// says which side is RGB (full range by definition).
func setBT709(on scaler: OwnedScaler, rgbIsSource: Bool, yuvFullRange: Bool = false, matrix: Int32 = SWS_CS_ITU709) throws(MovieMakerError) {
    let coefficients = sws_getCoefficients(matrix)
    let srcRange: Int32 = rgbIsSource ? 1 : (yuvFullRange ? 1 : 0)
    let dstRange: Int32 = rgbIsSource ? (yuvFullRange ? 1 : 0) : 1
    let r = sws_setColorspaceDetails(scaler.pointer, coefficients, srcRange, coefficients, dstRange, 0, 1 << 16, 1 << 16)
    if r < 0 { throw .ffmpeg(operation: "sws_setColorspaceDetails (BT.709)", code: r, message: "not supported for this conversion") }
}

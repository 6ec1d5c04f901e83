internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

// Small owners for FFmpeg handles. Each class owns exactly one C handle and frees it in `deinit`,
// and nowhere else: a half-built owner that throws is released by Swift, and so is every owner a
// failing initialiser already made, so no error path frees anything by hand. Pointers that belong to
// someone else (a stream inside a format context, a codec descriptor) are stored in properties named
// `borrowed…` and never freed.
//
// The owners are the bottom layer; `Muxer`, `CodecEncoder`, `Demuxer` and `CodecDecoder` (one file each beside
// this one) are built from them in the order of FFmpeg's doc/examples (mux.c, encode_video.c,
// demux_decode.c, transcode.c).

/// The message FFmpeg gives for an error code (av_err2str, through the shim).
func ffmpegMessage(_ code: Int32) -> String {
    if code == averrorPlaylist {
        return "it is a playlist of other files (HLS, DASH or an FFmpeg concat list), not a media file: give one of the files it lists"
    }
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

/// AVERROR(EAGAIN): "not now" from the send/receive calls (through the shim: a function-like macro).
let averrorEAGAIN = mm_averror_eagain()
/// AVERROR_EOF: the end of a stream or of a drained codec (through the shim: FFERRTAG is a macro).
let averrorEOF = mm_averror_eof()
/// AVERROR_INVALIDDATA, through the shim (FFERRTAG is a macro Swift does not import).
let averrorInvalidData: Int32 = mm_averror_invaliddata()
/// AVERROR_EXPERIMENTAL, through the shim (not imported as a Swift constant).
let averrorExperimental: Int32 = mm_averror_experimental()
/// MovieMaker's own code (no FFmpeg call returns it) for a playlist refused before libavformat opens
/// it (`OwnedInputFormatContext.playlistKind`): FFERRTAG('P','L','S','T').
let averrorPlaylist: Int32 = -Int32(bitPattern: UInt32(0x50) | UInt32(0x4C) << 8 | UInt32(0x53) << 16 | UInt32(0x54) << 24)
/// AVERROR(ENOMEM), which the owners throw when an allocation returns NULL.
let averrorENOMEM = mm_averror(12)

/// Owns one `AVFrame` (and, through it, its reference-counted picture buffers).
final class OwnedFrame: @unchecked Sendable {
    // @unchecked: a frame is handed between the drawing thread and the encoder thread, but only ever
    // through FramePipeline's lock, so exactly one thread touches it at a time.
    /// The frame (owned: freed in `deinit`).
    let pointer: UnsafeMutablePointer<AVFrame>

    /// An empty frame (av_frame_alloc): no picture buffers until a decoder or `av_frame_get_buffer` fills it.
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
    /// Frees the frame and drops its references to picture buffers (av_frame_free).
    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }
}

/// Owns one `AVPacket`.
final class OwnedPacket {
    /// The packet (owned: freed in `deinit`).
    let pointer: UnsafeMutablePointer<AVPacket>
    /// An empty packet (av_packet_alloc).
    init() throws(MovieMakerError) {
        guard let p = av_packet_alloc() else {
            throw .ffmpeg(operation: "av_packet_alloc", code: mm_averror(12), message: "out of memory")
        }
        pointer = p
    }
    /// Frees the packet and its data reference (av_packet_free).
    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}

/// Owns one `AVCodecContext`.
final class OwnedCodecContext {
    /// The codec context (owned: freed in `deinit`).
    let pointer: UnsafeMutablePointer<AVCodecContext>
    /// A context for `codec` (avcodec_alloc_context3), not opened yet.
    init(codec: UnsafePointer<AVCodec>) throws(MovieMakerError) {
        // Every decoder and encoder starts here: FFmpeg's own log lines are silenced (or routed) first,
        // whatever path reached it (a GIF photo, a probe, a sticker), not only when a movie starts.
        LibraryLog.ensureConfigured()
        guard let c = avcodec_alloc_context3(codec) else {
            throw .ffmpeg(operation: "avcodec_alloc_context3", code: mm_averror(12), message: "out of memory")
        }
        pointer = c
    }
    /// Closes and frees the context (avcodec_free_context).
    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&p)
    }
}

/// Owns one `SwsContext` (libswscale converter between two fixed formats and sizes).
final class OwnedScaler {
    /// The `SwsContext` (owned: freed in `deinit`).
    let pointer: OpaquePointer
    /// The destination's width in pixels and bytes per pixel of a packed destination format.
    private let dstWidth: Int, dstHeight: Int, dstBytesPerPixel: Int
    /// Rows padded for swscale's vector code (owned: freed in `deinit`), made on first need.
    private var padded: UnsafeMutableRawPointer?
    /// `padded`'s row length in bytes and row count.
    private var paddedStride = 0, paddedRows = 0

    /// A converter from one size and pixel format to another (sws_getContext).
    init(srcWidth: Int32, srcHeight: Int32, srcFormat: AVPixelFormat,
         dstWidth: Int32, dstHeight: Int32, dstFormat: AVPixelFormat, flags: Int32) throws(MovieMakerError) {
        LibraryLog.ensureConfigured()
        guard let s = sws_getContext(srcWidth, srcHeight, srcFormat, dstWidth, dstHeight, dstFormat, flags, nil, nil, nil) else {
            throw .ffmpeg(operation: "sws_getContext (\(srcWidth)×\(srcHeight) → \(dstWidth)×\(dstHeight))",
                          code: mm_averror(22), message: "unsupported conversion")
        }
        pointer = s
        self.dstWidth = Int(dstWidth)
        self.dstHeight = Int(dstHeight)
        dstBytesPerPixel = Int(av_get_padded_bits_per_pixel(av_pix_fmt_desc_get(dstFormat))) / 8
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
    /// Converts `source`'s planes into one packed picture at `destination`, rows `stride` bytes apart
    /// (e.g. BGRA into a reused buffer); returns the rows written.
    ///
    /// swscale's vector code writes whole blocks of pixels: for a width that is not a multiple of the
    /// block, each row's last block runs past its end — into the next row (rewritten just after), but
    /// past the end of the buffer after the last row (a 1080-pixel-wide picture filling a canvas
    /// corrupted the heap). Such widths are converted into rows padded to 64 pixels, then copied.
    func convert(_ source: UnsafePointer<AVFrame>, into destination: UnsafeMutablePointer<UInt8>, stride: Int) -> Int32 {
        let f = source.pointee
        let srcData: [UnsafePointer<UInt8>?] = [f.data.0, f.data.1, f.data.2, f.data.3].map { $0.map { UnsafePointer($0) } }
        let srcStride: [Int32] = [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3]
        let rowBytes = dstWidth * dstBytesPerPixel
        guard dstWidth % 64 != 0 || stride < rowBytes, dstBytesPerPixel > 0 else {
            let dstData: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
            let dstStride: [Int32] = [Int32(stride), 0, 0, 0]
            return sws_scale(pointer, srcData, srcStride, 0, f.height, dstData, dstStride)
        }
        let rows = dstHeight
        let neededStride = (dstWidth + 63) / 64 * 64 * dstBytesPerPixel
        if padded == nil || paddedStride < neededStride || paddedRows < rows + 1 {
            padded?.deallocate()
            paddedStride = neededStride
            paddedRows = rows + 1
            padded = UnsafeMutableRawPointer.allocate(byteCount: paddedStride * paddedRows, alignment: 64)
        }
        let base = padded!.assumingMemoryBound(to: UInt8.self)
        let dstData: [UnsafeMutablePointer<UInt8>?] = [base, nil, nil, nil]
        let dstStride: [Int32] = [Int32(paddedStride), 0, 0, 0]
        let written = sws_scale(pointer, srcData, srcStride, 0, f.height, dstData, dstStride)
        for y in 0..<max(0, Int(written)) {
            (destination + y * stride).update(from: base + y * paddedStride, count: rowBytes)
        }
        return written
    }
    /// sws_scale over whole pictures, from `srcData`/`srcStride` into `frame`'s planes.
    private func scale(_ srcData: [UnsafePointer<UInt8>?], _ srcStride: [Int32], height: Int, into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        let d = frame.pointee
        let dstData: [UnsafeMutablePointer<UInt8>?] = [d.data.0, d.data.1, d.data.2, d.data.3]
        let dstStride: [Int32] = [d.linesize.0, d.linesize.1, d.linesize.2, d.linesize.3]
        return sws_scale(pointer, srcData, srcStride, 0, Int32(height), dstData, dstStride)
    }
    /// Frees the converter (sws_freeContext) and the padded rows.
    deinit {
        sws_freeContext(pointer)
        padded?.deallocate()
    }
}

/// Owns an `AVDictionary` of options until it is handed to an FFmpeg call that consumes entries.
final class OwnedDictionary {
    /// The dictionary (owned: freed in `deinit`); nil while empty, and FFmpeg calls may replace it.
    var pointer: OpaquePointer?
    /// A dictionary holding `entries`, in order.
    init(_ entries: [(String, String)] = []) {
        for (k, v) in entries { av_dict_set(&pointer, k, v, 0) }
    }
    /// Sets `key` to `value` (replacing an earlier value).
    func set(_ key: String, _ value: String) { av_dict_set(&pointer, key, value, 0) }
    /// Frees what is left of the dictionary (av_dict_free).
    deinit { av_dict_free(&pointer) }
}

/// Owns one output `AVFormatContext` (a muxer's), from avformat_alloc_output_context2 to
/// avformat_free_context, and the file it writes to while open (avio_open … avio_closep), as mux.c
/// does. Streams created in it (`avformat_new_stream`) belong to it and are freed with it.
final class OwnedOutputFormatContext {
    /// The context (owned: freed in `deinit`).
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// Whether `pointer.pb` is a file this owner opened and has not closed yet.
    private(set) var fileIsOpen = false

    /// A context for libavformat's muxer `formatName`, writing `path` (avformat_alloc_output_context2).
    init(formatName: String, path: String) throws(MovieMakerError) {
        var fc: UnsafeMutablePointer<AVFormatContext>? = nil
        try ffCheck(avformat_alloc_output_context2(&fc, nil, formatName, path), "avformat_alloc_output_context2 (\(formatName))")
        guard let fc else { throw .ffmpeg(operation: "avformat_alloc_output_context2", code: -1, message: "no context") }
        pointer = fc
    }

    /// Opens `path` for writing as the context's I/O (avio_open); returns FFmpeg's code (negative on
    /// failure) for the muxer to phrase with the destination's name.
    func openFile(_ path: String) -> Int32 {
        precondition(!fileIsOpen, "the output file is opened once")
        let code = avio_open(&pointer.pointee.pb, path, AVIO_FLAG_WRITE)
        fileIsOpen = code >= 0
        return code
    }

    /// Flushes and closes the file (avio_closep); returns FFmpeg's code, negative when the final write
    /// failed; 0 when none is open.
    func closeFile() -> Int32 {
        guard fileIsOpen else { return 0 }
        fileIsOpen = false
        return avio_closep(&pointer.pointee.pb)
    }

    /// Closes the file if it is still open, then frees the context and its streams.
    deinit {
        if fileIsOpen { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }
}

/// Owns one input `AVFormatContext` (a demuxer's), from avformat_open_input to avformat_close_input,
/// as demux_decode.c does. Its streams belong to it. When it reads from memory it also keeps the
/// `OwnedMemoryInput` alive, which libavformat does not free (AVFMT_FLAG_CUSTOM_IO), until it is closed.
final class OwnedInputFormatContext {
    /// The context (owned: closed and freed in `deinit`).
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The in-memory input `pointer.pb` reads, released only after the context is closed.
    private let memoryInput: OwnedMemoryInput?

    /// Opens `path` (avformat_open_input), probing its format unless `format` is given. A failure is
    /// thrown as `.ffmpeg` with FFmpeg's code, for the caller to phrase.
    init(path: String, format: UnsafePointer<AVInputFormat>? = nil) throws(MovieMakerError) {
        LibraryLog.ensureConfigured()   // before the demuxer can log (see OwnedCodecContext)
        if format == nil, let playlist = Self.playlistKind(path) {
            throw .ffmpeg(operation: "avformat_open_input (\(path))", code: averrorPlaylist,
                          message: "it is \(playlist), a list of other files, not a media file: give one of the files it lists")
        }
        var fc: UnsafeMutablePointer<AVFormatContext>? = nil
        let r = avformat_open_input(&fc, path, format, nil)
        guard r >= 0, let fc else {
            throw .ffmpeg(operation: "avformat_open_input (\(path))", code: r < 0 ? r : averrorENOMEM, message: ffmpegMessage(r < 0 ? r : averrorENOMEM))
        }
        pointer = fc
        memoryInput = nil
    }

    /// What playlist the file at `path` is (an HLS or DASH playlist, an FFmpeg concat list), or nil. Their
    /// demuxers open the files they list, wherever those are (a folder a tool was not allowed to read,
    /// a named pipe): MovieMaker reads media files, not lists of them.
    static func playlistKind(_ path: String) -> String? {
        guard RegularFile.problem(path) == nil, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 1024), !head.isEmpty else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if start.hasPrefix("#EXTM3U") { return "an HLS playlist" }
        if start.hasPrefix("ffconcat") { return "an FFmpeg concat list" }
        if start.hasPrefix("<"), text.contains("<MPD") { return "a DASH manifest" }
        return nil
    }

    /// Opens `input` (bytes in memory) as `format`: the context is allocated here, given the custom
    /// I/O, and on failure freed by avformat_open_input itself.
    init(memory input: OwnedMemoryInput, format: UnsafePointer<AVInputFormat>) throws(MovieMakerError) {
        LibraryLog.ensureConfigured()
        guard let allocated = avformat_alloc_context() else {
            throw .ffmpeg(operation: "avformat_alloc_context", code: averrorENOMEM, message: "out of memory")
        }
        allocated.pointee.pb = input.pointer
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var fc: UnsafeMutablePointer<AVFormatContext>? = allocated
        let r = avformat_open_input(&fc, nil, format, nil)
        guard r >= 0, let fc else {
            throw .ffmpeg(operation: "avformat_open_input (memory)", code: r < 0 ? r : averrorENOMEM, message: ffmpegMessage(r < 0 ? r : averrorENOMEM))
        }
        pointer = fc
        memoryInput = input
    }

    /// Closes the input and frees the context and its streams (avformat_close_input); the memory
    /// input, if any, is released after.
    deinit {
        var p: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&p)
    }
}

/// Owns one `AVIOContext` (and its read buffer) that reads a caller's bytes, for demuxing a file that
/// is already in memory. The bytes are borrowed: the caller keeps them alive and unchanged while this
/// object (and any `OwnedInputFormatContext` reading it) lives.
final class OwnedMemoryInput {
    /// Where the read and seek callbacks are in the borrowed bytes. A class, so the callbacks can reach
    /// it through the context's opaque pointer while this owner keeps it alive.
    private final class Cursor {
        /// The borrowed bytes.
        let bytes: UnsafeRawBufferPointer
        /// The next byte a read returns.
        var position = 0
        /// A cursor at the start of `bytes`.
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    /// The I/O context (owned: freed with its buffer in `deinit`); nil only while `init` fails.
    private var context: UnsafeMutablePointer<AVIOContext>?
    /// The read buffer while no context holds it yet (owned: freed in `deinit` if `init` fails).
    private var looseBuffer: UnsafeMutableRawPointer?
    /// The read position, reached by the callbacks (owned here, so it outlives every read).
    private let cursor: Cursor
    /// libavformat's read-buffer size.
    private static let bufferSize: Int32 = 64 * 1024

    /// An input reading `bytes` from their start; seekable, and it reports its size (AVSEEK_SIZE).
    init(bytes: UnsafeRawBufferPointer) throws(MovieMakerError) {
        let cursor = Cursor(bytes)
        self.cursor = cursor
        context = nil
        looseBuffer = av_malloc(Int(Self.bufferSize))
        // From here on every property is set: a throw runs `deinit`, which frees what was allocated.
        guard let buffer = looseBuffer else {
            throw .ffmpeg(operation: "av_malloc (I/O buffer)", code: averrorENOMEM, message: "out of memory")
        }
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, destination, size in
            let cursor = Unmanaged<Cursor>.fromOpaque(opaque!).takeUnretainedValue()
            let count = min(Int(size), cursor.bytes.count - cursor.position)
            guard count > 0, let destination else { return averrorEOF }
            destination.update(from: cursor.bytes.baseAddress!.advanced(by: cursor.position).assumingMemoryBound(to: UInt8.self), count: count)
            cursor.position += count
            return Int32(count)
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            let cursor = Unmanaged<Cursor>.fromOpaque(opaque!).takeUnretainedValue()
            if whence & AVSEEK_SIZE != 0 { return Int64(cursor.bytes.count) }
            let base: Int
            switch whence & ~AVSEEK_FORCE {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = cursor.position
            case SEEK_END: base = cursor.bytes.count
            default: return Int64(mm_averror(22))
            }
            let target = Int64(base) + offset
            guard target >= 0, target <= Int64(cursor.bytes.count) else { return Int64(mm_averror(22)) }
            cursor.position = Int(target)
            return target
        }
        let opaque = Unmanaged.passUnretained(cursor).toOpaque()
        guard let io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque, read, nil, seek) else {
            throw .ffmpeg(operation: "avio_alloc_context", code: averrorENOMEM, message: "out of memory")
        }
        // The context owns the buffer now (and may replace it).
        context = io
        looseBuffer = nil
    }

    /// The I/O context, for an input format context's `pb`.
    var pointer: UnsafeMutablePointer<AVIOContext> { context! }

    /// Frees the context's current read buffer (libavformat may have replaced the one given) and the
    /// context, as doc/examples/avio_reading.c does; or, if `init` failed before the context was
    /// made, the buffer alone.
    deinit {
        if let io = context {
            av_freep(&io.pointee.buffer)
            var p: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&p)
        } else {
            av_freep(&looseBuffer)
        }
    }
}

/// Owns one `SwrContext` (libswresample converter between two fixed sample formats, rates and channel
/// layouts), and the copy of the input layout it was made for.
final class OwnedResampler {
    /// The resampler (owned: freed in `deinit`), configured but not initialised: set options such as a
    /// mixing matrix, then call `initialise`.
    let pointer: OpaquePointer
    /// The input sample format it converts from (an `AVSampleFormat` raw value).
    let inputFormat: Int32
    /// The input sample rate it converts from.
    let inputRate: Int32
    /// The input channel layout it converts from (owned copy: uninitialised in `deinit`).
    private(set) var inputLayout: AVChannelLayout

    /// A resampler from (`inputLayout`, `inputFormat`, `inputRate`) to (`outputLayout`, `outputFormat`,
    /// `outputRate`) (swr_alloc_set_opts2). The layouts are copied. `operation` names the conversion in errors.
    init(from inputLayout: UnsafeMutablePointer<AVChannelLayout>, format inputFormat: Int32, rate inputRate: Int32,
         to outputLayout: UnsafeMutablePointer<AVChannelLayout>, format outputFormat: AVSampleFormat, rate outputRate: Int32,
         operation: String) throws(MovieMakerError) {
        var s: OpaquePointer? = nil
        LibraryLog.ensureConfigured()
        let r = swr_alloc_set_opts2(&s, outputLayout, outputFormat, outputRate,
                                    inputLayout, AVSampleFormat(rawValue: inputFormat), inputRate, 0, nil)
        guard r >= 0, let s else {
            let code = r < 0 ? r : averrorENOMEM
            throw .ffmpeg(operation: "swr_alloc_set_opts2 (\(operation))", code: code, message: ffmpegMessage(code))
        }
        var layout = AVChannelLayout()
        let copied = av_channel_layout_copy(&layout, inputLayout)
        pointer = s
        self.inputFormat = inputFormat
        self.inputRate = inputRate
        self.inputLayout = layout
        try ffCheck(copied, "av_channel_layout_copy")
    }

    /// Whether it was made for input of this format, rate and layout.
    func accepts(format: Int32, rate: Int32, layout: UnsafePointer<AVChannelLayout>) -> Bool {
        format == inputFormat && rate == inputRate && av_channel_layout_compare(&inputLayout, layout) == 0
    }

    /// Initialises the resampler once its options are set (swr_init).
    func initialise(operation: String) throws(MovieMakerError) {
        try ffCheck(swr_init(pointer), "swr_init (\(operation))")
    }

    /// Frees the resampler (swr_free) and the input layout copy.
    deinit {
        var p: OpaquePointer? = pointer
        swr_free(&p)
        av_channel_layout_uninit(&inputLayout)
    }
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

/// Owns one `AVTXContext` (libavutil's FFT): a forward real-to-complex transform of a fixed length.
/// Not for use from two threads at once.
final class OwnedRealFFT {
    /// The context (owned: freed in `deinit`).
    private var context: OpaquePointer?
    /// The transform function `av_tx_init` chose for it.
    private let transform: av_tx_fn
    /// How many real samples it transforms.
    let length: Int

    /// A transform of `length` real samples (a power of two) to `length / 2 + 1` complex values
    /// (`AV_TX_FLOAT_RDFT`, unscaled).
    init(length: Int) throws(MovieMakerError) {
        var ctx: OpaquePointer? = nil
        var fn: av_tx_fn? = nil
        var scale: Float = 1
        // Unaligned: the buffers are Swift arrays (16-byte aligned; av_tx's AVX code wants 32).
        let r = av_tx_init(&ctx, &fn, AV_TX_FLOAT_RDFT, 0, Int32(length), &scale, UInt64(AV_TX_UNALIGNED.rawValue))
        guard r >= 0, let ctx, let fn else {
            throw .ffmpeg(operation: "av_tx_init (real FFT of \(length))", code: r < 0 ? r : averrorENOMEM, message: ffmpegMessage(r < 0 ? r : averrorENOMEM))
        }
        context = ctx; transform = fn; self.length = length
    }

    /// Transforms `input` (`length` floats; av_tx may use it as scratch) into `output` (`length + 2`
    /// floats: `length / 2 + 1` interleaved complex values).
    func forward(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        transform(context, output, input, MemoryLayout<Float>.stride)
    }

    /// Frees the context (av_tx_uninit).
    deinit { av_tx_uninit(&context) }
}

import CFFmpeg
import CMovieMakerShim
import Foundation

/// The container a movie is written in, chosen from the destination's extension.
public enum Container: String, Sendable, CaseIterable {
    /// MPEG-4 (`.mp4`, `.m4v`): plays in every browser; written with `moov` before `mdat` (faststart).
    case mp4
    /// QuickTime (`.mov`), also with `moov` first.
    case mov
    /// Matroska (`.mkv`). Its timestamps are whole milliseconds, so 30000/1001 fps is rounded there.
    case mkv

    /// The extensions MovieMaker writes.
    public static let supportedExtensions = ["mp4", "m4v", "mov", "mkv"]

    /// The container for a file extension (case-insensitive), or nil when none fits.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "mkv": self = .mkv
        default: return nil
        }
    }
    /// libavformat's muxer name.
    var muxerName: String { self == .mkv ? "matroska" : rawValue }
}

/// x264's speed/size trade-off: slower presets make smaller files at the same quality.
public enum EncoderPreset: String, Sendable, CaseIterable {
    /// Fastest, largest files.
    case ultrafast, superfast, veryfast, faster, fast
    /// x264's default balance.
    case medium
    /// Slower, smaller files.
    case slow, slower, veryslow, placebo
}

/// x264's tuning for a kind of content.
public enum EncoderTune: String, Sendable, CaseIterable {
    /// Live-action film.
    case film
    /// Flat areas and sharp edges: motion graphics, vector drawing.
    case animation
    /// Keeps film grain.
    case grain
    /// Slideshow-like content.
    case stillimage
    /// Cheaper to decode.
    case fastdecode
    /// No frame delay (streaming).
    case zerolatency
}

/// What to do with an odd width or height, which 4:2:0 video cannot store.
public enum OddSizePolicy: Sendable {
    /// Throw `MovieMakerError.oddSize` (the default: the caller decides).
    case reject
    /// Encode one extra black row/column; drawing still sees the requested size.
    case pad
}

/// How the video is encoded. The defaults give a visually lossless H.264 High profile movie.
public struct EncoderSettings: Sendable, Equatable {
    /// Constant rate factor, 0…51: lower is better quality and larger. Ignored when `bitrate` is set.
    public var crf: Int = 18
    /// x264 preset.
    public var preset: EncoderPreset = .medium
    /// Target average bitrate in bits per second; nil uses `crf` (recommended).
    public var bitrate: Int? = nil
    /// The largest distance between keyframes, in frames; nil uses x264's default (250).
    public var keyframeInterval: Int? = nil
    /// x264 tuning; nil for none.
    public var tune: EncoderTune? = nil
    /// What to do with odd frame sizes.
    public var oddSizePolicy: OddSizePolicy = .reject
    /// Frames in flight between drawing and encoding (≥ 2). More smooths uneven frames at the cost of memory.
    public var bufferCount: Int = 3
    /// Encoder threads; 0 lets x264 choose for the machine.
    public var threads: Int = 0
    /// How many clip frames `MovieMaker.add(_:)` draws at once; 0 means one per core, up to 4.
    public var drawingThreads: Int = 0

    /// `drawingThreads` with 0 resolved for this machine.
    var resolvedDrawingThreads: Int {
        drawingThreads > 0 ? drawingThreads : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// The defaults: CRF 18, preset `medium`, no tune.
    public init() {}
    /// Settings with the given values; anything not named keeps its default.
    public init(crf: Int = 18, preset: EncoderPreset = .medium, bitrate: Int? = nil, keyframeInterval: Int? = nil,
                tune: EncoderTune? = nil, oddSizePolicy: OddSizePolicy = .reject, bufferCount: Int = 3, threads: Int = 0,
                drawingThreads: Int = 0) {
        self.crf = crf; self.preset = preset; self.bitrate = bitrate; self.keyframeInterval = keyframeInterval
        self.tune = tune; self.oddSizePolicy = oddSizePolicy; self.bufferCount = bufferCount; self.threads = threads
        self.drawingThreads = drawingThreads
    }

    func validate() throws(MovieMakerError) {
        guard (0...51).contains(crf) else { throw .invalidSetting(name: "crf", value: "\(crf)", expected: "0…51 (18 is visually lossless, 23 is x264's default)") }
        if let b = bitrate, b <= 0 { throw .invalidSetting(name: "bitrate", value: "\(b)", expected: "a positive number of bits per second, e.g. 8_000_000") }
        if let k = keyframeInterval, k < 1 { throw .invalidSetting(name: "keyframe interval", value: "\(k)", expected: "at least 1 frame") }
        guard bufferCount >= 2 else { throw .invalidSetting(name: "buffer count", value: "\(bufferCount)", expected: "at least 2 (one drawing, one encoding)") }
        guard drawingThreads >= 0 else { throw .invalidSetting(name: "drawing threads", value: "\(drawingThreads)", expected: "0 (one per core) or more") }
        guard threads >= 0 else { throw .invalidSetting(name: "threads", value: "\(threads)", expected: "0 (automatic) or more") }
    }
}

/// H.264 encoder plus muxer for one output file: the whole libav call sequence lives here, in the
/// order of FFmpeg's doc/examples/mux.c.
///
/// We drive x264 through libavcodec's `libx264` wrapper rather than x264's own API: libavcodec turns
/// x264's Annex-B output and SPS/PPS into the MP4 `avcC` box and length-prefixed samples, hands
/// correct pts/dts for B-frames to the muxer, maps our colour tags into x264's VUI, and routes x264's
/// log through av_log. The same send/receive path then serves every other codec (ProRes, VP9, AAC).
final class VideoEncoder {
    private let format: UnsafeMutablePointer<AVFormatContext>     // owned: freed in deinit
    private let codec: OwnedCodecContext
    private let borrowedStream: UnsafeMutablePointer<AVStream>    // borrowed: owned by `format`
    private let packet: OwnedPacket
    private var ioOpen = false

    /// The pixel format frames must be in.
    static let pixelFormat = AV_PIX_FMT_YUV420P

    init(path: String, container: Container, width: Int32, height: Int32, rate: FrameRate, settings: EncoderSettings,
         encoderName: String = "libx264") throws(MovieMakerError) {
        var fc: UnsafeMutablePointer<AVFormatContext>? = nil
        try ffCheck(avformat_alloc_output_context2(&fc, nil, container.muxerName, path), "avformat_alloc_output_context2 (\(container.muxerName))")
        guard let fc else { throw .ffmpeg(operation: "avformat_alloc_output_context2", code: -1, message: "no context") }
        format = fc
        // From here on, `deinit` frees `format` if a later step throws.
        packet = try Self.makePacket(format: fc)
        guard let encoder = avcodec_find_encoder_by_name(encoderName) else {
            avformat_free_context(fc)
            throw .encoderUnavailable(name: encoderName)
        }
        guard let st = avformat_new_stream(fc, nil) else {
            avformat_free_context(fc)
            throw .ffmpeg(operation: "avformat_new_stream", code: mm_averror(12), message: "out of memory")
        }
        borrowedStream = st
        do {
            codec = try OwnedCodecContext(codec: encoder)
        } catch {
            avformat_free_context(fc); throw error
        }
        let c = codec.pointer
        c.pointee.width = width
        c.pointee.height = height
        c.pointee.pix_fmt = Self.pixelFormat
        c.pointee.time_base = AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
        c.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.thread_count = Int32(settings.threads)
        if let k = settings.keyframeInterval { c.pointee.gop_size = Int32(k) }
        if let b = settings.bitrate { c.pointee.bit_rate = Int64(b) }
        // The colour description: BT.709 primaries, transfer and matrix, limited ("tv") range. libx264
        // writes these into the stream's VUI; avcodec_parameters_from_context carries them to the container.
        c.pointee.color_primaries = AVCOL_PRI_BT709
        c.pointee.color_trc = AVCOL_TRC_BT709
        c.pointee.colorspace = AVCOL_SPC_BT709
        c.pointee.color_range = AVCOL_RANGE_MPEG
        c.pointee.chroma_sample_location = AVCHROMA_LOC_LEFT
        // Containers that keep SPS/PPS out of band (MP4, MOV, MKV) need them as extradata: set this
        // before avcodec_open2, as mux.c does.
        if fc.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        let options = OwnedDictionary([("preset", settings.preset.rawValue)])
        // High profile plays everywhere. CRF 0 is lossless, which only x264's High 4:4:4 Predictive
        // profile can express; x264 picks that itself when no profile is forced.
        if settings.bitrate != nil || settings.crf > 0 { options.set("profile", "high") }
        if settings.bitrate == nil { options.set("crf", "\(settings.crf)") }
        if let tune = settings.tune { options.set("tune", tune.rawValue) }
        do {
            try ffCheck(avcodec_open2(c, encoder, &options.pointer), "avcodec_open2 (libx264 \(width)×\(height) @ \(rate) fps)")
            try ffCheck(avcodec_parameters_from_context(st.pointee.codecpar, c), "avcodec_parameters_from_context")
            st.pointee.time_base = c.pointee.time_base
            st.pointee.avg_frame_rate = c.pointee.framerate
            st.pointee.r_frame_rate = c.pointee.framerate
            st.pointee.sample_aspect_ratio = c.pointee.sample_aspect_ratio
            try ffCheck(avio_open(&fc.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open (\(path))")
            ioOpen = true
            let muxOptions = OwnedDictionary()
            if container != .mkv {
                // faststart: rewrite the file at the end with `moov` before `mdat`, so browsers can
                // start playing before the whole file has arrived. write_colr: always write the `colr` box.
                muxOptions.set("movflags", "+faststart+write_colr")
            }
            try ffCheck(avformat_write_header(fc, &muxOptions.pointer), "avformat_write_header (\(container.rawValue))")
        } catch {
            closeAndFree()
            throw error
        }
    }

    private static func makePacket(format: UnsafeMutablePointer<AVFormatContext>) throws(MovieMakerError) -> OwnedPacket {
        do { return try OwnedPacket() } catch { avformat_free_context(format); throw error }
    }

    /// Sends one frame (nil flushes) and writes every packet the encoder has ready.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        try ffCheck(avcodec_send_frame(codec.pointer, frame), frame == nil ? "avcodec_send_frame (flush)" : "avcodec_send_frame")
        while true {
            let r = avcodec_receive_packet(codec.pointer, packet.pointer)
            if r == averrorEAGAIN || r == averrorEOF { return }
            try ffCheck(r, "avcodec_receive_packet")
            av_packet_rescale_ts(packet.pointer, codec.pointer.pointee.time_base, borrowedStream.pointee.time_base)
            packet.pointer.pointee.stream_index = borrowedStream.pointee.index
            // av_interleaved_write_frame takes the packet's reference and leaves it blank for reuse.
            try ffCheck(av_interleaved_write_frame(format, packet.pointer), "av_interleaved_write_frame")
        }
    }

    /// Flushes the encoder, writes the trailer (and the faststart rewrite) and closes the file.
    func finish() throws(MovieMakerError) {
        try encode(nil)
        try ffCheck(av_write_trailer(format), "av_write_trailer")
        try ffCheck(avio_closep(&format.pointee.pb), "avio_closep")
        ioOpen = false
    }

    private func closeAndFree() {
        if ioOpen { avio_closep(&format.pointee.pb); ioOpen = false }
    }

    deinit {
        closeAndFree()
        avformat_free_context(format)
    }
}

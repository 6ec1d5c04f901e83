import CFFmpeg
import CMovieMakerShim
import Foundation

/// What a movie file's video stream says about itself.
public struct VideoStreamInfo: Sendable, Equatable {
    /// Codec name, e.g. `h264`.
    public let codec: String
    /// Profile name, e.g. `High`.
    public let profile: String?
    /// Coded width in pixels.
    public let width: Int
    /// Coded height in pixels.
    public let height: Int
    /// Pixel format name, e.g. `yuv420p`.
    public let pixelFormat: String
    /// The stream's average frame rate.
    public let frameRate: FrameRate?
    /// Colour primaries name, e.g. `bt709`.
    public let colorPrimaries: String
    /// Transfer characteristics name, e.g. `bt709`.
    public let colorTransfer: String
    /// Matrix name, e.g. `bt709`.
    public let colorMatrix: String
    /// Range: `tv` (limited) or `pc` (full).
    public let colorRange: String
    /// The container's name for the format, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public let containerFormat: String
    /// Whether the stream carries an alpha channel (an alpha pixel format such as `yuva444p12le`, or
    /// VP9 flagged with Matroska's `alpha_mode`).
    public let hasAlpha: Bool
}

/// One decoded picture.
public struct DecodedFrame: Sendable {
    /// Position in presentation order, from 0.
    public let index: Int
    /// Presentation time, exact in the stream's time base.
    public let presentationTime: Time
    /// The picture converted to premultiplied BGRA (as MovieMaker draws), using the stream's own colour
    /// tags: opaque, unless the stream has alpha, whose values are then kept.
    public let pixels: PixelBuffer
}

/// Reads a movie file with libavformat/libavcodec: stream facts, packet timestamps and decoded frames.
///
/// VP9 with alpha (WebM's `alpha_mode` = 1) is decoded with libvpx (`libvpx-vp9`), since FFmpeg's own
/// VP9 decoder ignores the alpha plane; ProRes 4444 keeps its alpha with the native decoder.
public final class MovieReader {
    private let format: UnsafeMutablePointer<AVFormatContext>   // owned: closed in deinit
    private let borrowedStream: UnsafeMutablePointer<AVStream>  // borrowed: owned by `format`
    /// The decoder chosen by name instead of FFmpeg's default for the codec (libvpx-vp9 for VP9 alpha).
    private let borrowedDecoder: UnsafePointer<AVCodec>?        // borrowed: libavcodec's static table
    /// The file.
    public let url: URL
    /// The video stream's description.
    public let info: VideoStreamInfo

    /// Opens `url` and finds its video stream.
    public init(url: URL) throws(MovieMakerError) {
        self.url = url
        var fc: UnsafeMutablePointer<AVFormatContext>? = nil
        let r = avformat_open_input(&fc, url.path, nil, nil)
        guard r >= 0, let fc else { throw .movieUnreadable(path: url.path, reason: ffmpegMessage(r)) }
        // Matroska's header already says whether VP9 carries alpha: then probe (and later decode) with
        // libvpx, so the stream info reports yuva420p as well.
        let alphaDecoder = Self.vp9AlphaDecoder(fc)
        if let alphaDecoder { fc.pointee.video_codec = alphaDecoder }
        borrowedDecoder = alphaDecoder
        let r2 = avformat_find_stream_info(fc, nil)
        let index = av_find_best_stream(fc, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard r2 >= 0, index >= 0 else {
            var p: UnsafeMutablePointer<AVFormatContext>? = fc
            avformat_close_input(&p)
            throw .movieUnreadable(path: url.path, reason: r2 < 0 ? ffmpegMessage(r2) : "no video stream")
        }
        format = fc
        borrowedStream = fc.pointee.streams[Int(index)]!
        let par = borrowedStream.pointee.codecpar.pointee
        func name(_ s: UnsafePointer<CChar>?) -> String { s.map { String(cString: $0) } ?? "unknown" }
        let fr = borrowedStream.pointee.avg_frame_rate
        let pixelFormat = AVPixelFormat(rawValue: par.format)
        let alphaTag = av_dict_get(borrowedStream.pointee.metadata, "alpha_mode", nil, 0).map { String(cString: $0.pointee.value) == "1" } ?? false
        info = VideoStreamInfo(
            codec: name(avcodec_get_name(par.codec_id)),
            profile: avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) },
            width: Int(par.width), height: Int(par.height),
            pixelFormat: name(av_get_pix_fmt_name(pixelFormat)),
            frameRate: FrameRate(numerator: Int(fr.num), denominator: Int(fr.den)),
            colorPrimaries: name(av_color_primaries_name(par.color_primaries)),
            colorTransfer: name(av_color_transfer_name(par.color_trc)),
            colorMatrix: name(av_color_space_name(par.color_space)),
            colorRange: name(av_color_range_name(par.color_range)),
            containerFormat: name(fc.pointee.iformat.pointee.name),
            hasAlpha: pixelFormatHasAlpha(pixelFormat) || alphaTag)
    }

    /// libvpx's VP9 decoder when a VP9 stream is flagged `alpha_mode` = 1 and libvpx is built in.
    private static func vp9AlphaDecoder(_ fc: UnsafeMutablePointer<AVFormatContext>) -> UnsafePointer<AVCodec>? {
        for i in 0..<Int(fc.pointee.nb_streams) {
            guard let st = fc.pointee.streams[i], st.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_VP9,
                  let tag = av_dict_get(st.pointee.metadata, "alpha_mode", nil, 0), String(cString: tag.pointee.value) == "1"
            else { continue }
            return avcodec_find_decoder_by_name("libvpx-vp9")
        }
        return nil
    }
    deinit {
        var p: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&p)
    }

    /// The stream's time base (seconds per timestamp unit).
    public var timeBase: Time { Time(value: Int64(borrowedStream.pointee.time_base.num), timescale: Int64(borrowedStream.pointee.time_base.den)) }

    /// Presentation timestamps of every video packet, in stream order, exactly (time base × pts).
    /// Reads the file without decoding; rewinds first.
    public func packetTimestamps() throws(MovieMakerError) -> [Time] {
        try rewind()
        let packet = try OwnedPacket()
        var result: [Time] = []
        let tb = borrowedStream.pointee.time_base
        while true {
            let r = av_read_frame(format, packet.pointer)
            if r == averrorEOF { break }
            if r < 0 { throw .movieUnreadable(path: url.path, reason: ffmpegMessage(r)) }
            if packet.pointer.pointee.stream_index == borrowedStream.pointee.index {
                let pts = packet.pointer.pointee.pts
                if pts == mm_av_nopts_value() { throw .movieUnreadable(path: url.path, reason: "packet \(result.count) has no timestamp") }
                result.append(Time(value: pts * Int64(tb.num), timescale: Int64(tb.den)))
            }
            av_packet_unref(packet.pointer)
        }
        return result
    }

    private func rewind() throws(MovieMakerError) {
        let r = av_seek_frame(format, borrowedStream.pointee.index, 0, AVSEEK_FLAG_BACKWARD)
        if r < 0 { throw .movieUnreadable(path: url.path, reason: "cannot seek: \(ffmpegMessage(r))") }
    }

    /// Decodes every frame in presentation order and hands each to `body` (return false to stop).
    /// Decoding is strict: any decoder error is thrown, naming the frame.
    public func decodeFrames(_ body: (DecodedFrame) throws -> Bool) throws {
        try rewind()
        let par = borrowedStream.pointee.codecpar!
        guard let decoder = borrowedDecoder ?? avcodec_find_decoder(par.pointee.codec_id) else {
            throw MovieMakerError.movieUnreadable(path: url.path, reason: "no decoder for \(info.codec)")
        }
        let codec = try OwnedCodecContext(codec: decoder)
        try ffCheck(avcodec_parameters_to_context(codec.pointer, par), "avcodec_parameters_to_context")
        codec.pointer.pointee.err_recognition = AV_EF_EXPLODE | AV_EF_CRCCHECK | AV_EF_BITSTREAM
        try ffCheck(avcodec_open2(codec.pointer, decoder, nil), "avcodec_open2 (decoder)")
        let packet = try OwnedPacket()
        let frame = try OwnedFrame()
        let tb = borrowedStream.pointee.time_base
        var scaler: OwnedScaler?
        var index = 0
        var keepGoing = true

        func drain() throws {
            while keepGoing {
                let r = avcodec_receive_frame(codec.pointer, frame.pointer)
                if r == averrorEAGAIN || r == averrorEOF { return }
                try ffCheck(r, "avcodec_receive_frame (frame \(index))")
                if frame.pointer.pointee.decode_error_flags != 0 {
                    throw MovieMakerError.movieUnreadable(path: url.path, reason: "frame \(index) decoded with errors")
                }
                let f = frame.pointer.pointee
                if scaler == nil {
                    let s = try OwnedScaler(srcWidth: f.width, srcHeight: f.height, srcFormat: AVPixelFormat(rawValue: f.format),
                                            dstWidth: f.width, dstHeight: f.height, dstFormat: AV_PIX_FMT_BGRA,
                                            flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
                    let matrix: Int32 = f.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : f.colorspace == AVCOL_SPC_BT2020_NCL ? SWS_CS_BT2020 : SWS_CS_ITU601
                    try setBT709(on: s, rgbIsSource: false, yuvFullRange: f.color_range == AVCOL_RANGE_JPEG, matrix: matrix)
                    scaler = s
                }
                let out = try OwnedFrame(width: f.width, height: f.height, format: AV_PIX_FMT_BGRA)
                let hasAlpha = pixelFormatHasAlpha(AVPixelFormat(rawValue: f.format))
                let rows = scaler!.convert(UnsafePointer(frame.pointer), into: out.pointer)
                guard rows == f.height else { throw MovieMakerError.ffmpeg(operation: "sws_scale (decode)", code: rows, message: "short conversion") }
                let w = Int(f.width), h = Int(f.height)
                var bytes = [UInt8](repeating: 0, count: w * h * 4)
                let stride = Int(out.pointer.pointee.linesize.0)
                let base = out.pointer.pointee.data.0!
                bytes.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<h { (dst.baseAddress! + y * w * 4).update(from: base + y * stride, count: w * 4) }
                    // swscale keeps alpha straight; PixelBuffer holds premultiplied colour, as Cairo draws.
                    if hasAlpha { AlphaConversion.premultiply(dst.baseAddress!, count: w * h) }
                }
                let pts = f.best_effort_timestamp == mm_av_nopts_value() ? f.pts : f.best_effort_timestamp
                let decoded = DecodedFrame(index: index, presentationTime: Time(value: pts * Int64(tb.num), timescale: Int64(tb.den)),
                                           pixels: PixelBuffer(width: w, height: h, bytes: bytes))
                index += 1
                av_frame_unref(frame.pointer)
                keepGoing = try body(decoded)
            }
        }

        while keepGoing {
            let r = av_read_frame(format, packet.pointer)
            if r == averrorEOF { break }
            if r < 0 { throw MovieMakerError.movieUnreadable(path: url.path, reason: ffmpegMessage(r)) }
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == borrowedStream.pointee.index else { continue }
            try ffCheck(avcodec_send_packet(codec.pointer, packet.pointer), "avcodec_send_packet (packet near frame \(index))")
            try drain()
        }
        if keepGoing {
            try ffCheck(avcodec_send_packet(codec.pointer, nil), "avcodec_send_packet (flush)")
            try drain()
        }
    }

    /// The number of frames that decode (decodes the whole stream).
    public func decodedFrameCount() throws -> Int {
        var n = 0
        try decodeFrames { _ in n += 1; return true }
        return n
    }
}

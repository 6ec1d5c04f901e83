internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// Reads a movie file with libavformat/libavcodec: stream facts, packet timestamps and decoded frames.
///
/// Built on `Demuxer` (which owns the open file) and `Decoder` (the one decode loop, strict here: any
/// corruption or damaged frame is an error). Decoded pictures are converted straight into one reused
/// BGRA buffer; `decodeFrames` copies each into the `DecodedFrame` it promises, while the internal
/// `withDecodedFrames` lends the buffer for the call, with no allocation per frame.
///
/// VP9 with alpha (WebM's `alpha_mode` = 1) is decoded with libvpx (`libvpx-vp9`), since FFmpeg's own
/// VP9 decoder ignores the alpha plane; ProRes 4444 keeps its alpha with the native decoder.
public final class MovieReader {
    /// The open file and the packet reads fill (owned).
    private let demuxer: Demuxer
    /// The video stream's index in the file.
    private let streamIndex: Int32
    /// The video stream, borrowed: owned by the demuxer's format context.
    private let borrowedStream: UnsafeMutablePointer<AVStream>
    /// The decoder chosen by name instead of FFmpeg's default for the codec (libvpx-vp9 for VP9 alpha),
    /// borrowed from libavcodec's static table.
    private let borrowedDecoder: UnsafePointer<AVCodec>?
    /// The reused conversion to BGRA: one scaler and one destination buffer for every frame.
    private let converter = BGRAFrameConverter()
    /// Checked once per decoded frame: decoding throws `.cancelled` once it is cancelled.
    let cancellation: CancellationToken?
    /// The file.
    public let url: URL
    /// The video stream's description.
    public let info: VideoStreamInfo

    /// Opens `url` and finds its video stream.
    public convenience init(url: URL) throws(MovieMakerError) {
        try self.init(url: url, cancellation: nil)
    }

    /// Opens `url` and finds its video stream; decoding checks `cancellation` once per frame.
    init(url: URL, cancellation: CancellationToken?) throws(MovieMakerError) {
        self.url = url
        self.cancellation = cancellation
        let demuxer = try Demuxer(path: url.path, detectsTruncation: true, describe: Self.describe(path: url.path, codec: nil))
        // Matroska's header already says whether VP9 carries alpha: then probe (and later decode) with
        // libvpx, so the stream info reports yuva420p as well.
        let alphaDecoder = Self.vp9AlphaDecoder(demuxer)
        if let alphaDecoder { demuxer.borrowedContext.pointee.video_codec = alphaDecoder }
        borrowedDecoder = alphaDecoder
        try demuxer.findStreamInfo()
        guard let index = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .movieUnreadable(path: url.path, reason: "no video stream") }
        self.demuxer = demuxer
        streamIndex = index
        borrowedStream = demuxer.borrowedStream(index)
        let par = borrowedStream.pointee.codecpar.pointee
        func name(_ s: UnsafePointer<CChar>?) -> String { s.map { String(cString: $0) } ?? "unknown" }
        // A file that is not a picture but carries a picture's extension (text saved as .jpg) opens as
        // an image stream whose size probing never found: refuse it here rather than as 0×0 frames.
        guard par.width > 0, par.height > 0 else {
            throw .movieUnreadable(path: url.path, reason: "its \(name(avcodec_get_name(par.codec_id))) stream has no picture size "
                                   + "(\(par.width)×\(par.height)): the file is not a movie or picture FFmpeg can decode")
        }
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
            containerFormat: demuxer.formatName.isEmpty ? "unknown" : demuxer.formatName,
            hasAlpha: pixelFormatHasAlpha(pixelFormat) || alphaTag)
    }

    /// How MovieReader words a failed demuxing or decoding step: `.movieUnreadable` naming the file.
    /// `codec` (the stream's codec name) is known once the file is open.
    private static func describe(path: String, codec: String?) -> MediaReadFailureDescription {
        { failure in
            switch failure.step {
            case .open, .findStreamInfo, .read:
                return .movieUnreadable(path: path, reason: failure.message)
            case .seek:
                return .movieUnreadable(path: path, reason: "cannot seek: \(failure.message)")
            case .truncated:
                return .movieUnreadable(path: path, reason: "it is truncated: \(failure.truncation)")
            case .noDecoder:
                return .movieUnreadable(path: path, reason: "no decoder for \(codec ?? "its codec")")
            case .openDecoder:
                return .movieUnreadable(path: path, reason: "the \(codec ?? "video") decoder cannot open this stream (\(failure.message))")
            case .send, .damagedData:
                return .movieUnreadable(path: path, reason: "the packet near frame \(failure.frameIndex) does not decode: \(failure.message)")
            case .receive:
                return .movieUnreadable(path: path, reason: "frame \(failure.frameIndex) does not decode: \(failure.message)")
            case .flush:
                return .movieUnreadable(path: path, reason: "the last frames do not decode: \(failure.message)")
            case .damagedFrame:
                return .movieUnreadable(path: path, reason: "frame \(failure.frameIndex) decoded with errors")
            }
        }
    }

    /// libvpx's VP9 decoder when a VP9 stream is flagged `alpha_mode` = 1 and libvpx is built in.
    private static func vp9AlphaDecoder(_ demuxer: Demuxer) -> UnsafePointer<AVCodec>? {
        for i in 0..<Int32(demuxer.streamCount) {
            let st = demuxer.borrowedStream(i)
            guard st.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_VP9,
                  let tag = av_dict_get(st.pointee.metadata, "alpha_mode", nil, 0), String(cString: tag.pointee.value) == "1"
            else { continue }
            return avcodec_find_decoder_by_name("libvpx-vp9")
        }
        return nil
    }

    /// The stream's time base (seconds per timestamp unit).
    package var timeBase: Time { Time(value: Int64(borrowedStream.pointee.time_base.num), timescale: Int64(borrowedStream.pointee.time_base.den)) }

    /// Presentation timestamps of every video packet, in stream order, exactly (time base × pts).
    /// Reads the file without decoding; rewinds first.
    public func packetTimestamps() throws(MovieMakerError) -> [Time] {
        try rewind()
        var result: [Time] = []
        while let packet = try demuxer.readPacket(ofStream: streamIndex) {
            let pts = packet.pointee.pts
            if pts == mm_av_nopts_value() { throw .movieUnreadable(path: url.path, reason: "packet \(result.count) has no timestamp") }
            result.append(demuxer.time(ofTimestamp: pts, inStream: streamIndex))
        }
        return result
    }

    /// Seeks back to the start of the video stream.
    private func rewind() throws(MovieMakerError) {
        try demuxer.seek(toTimestamp: 0, stream: streamIndex)
    }

    /// Decodes every frame in presentation order and hands each to `body` (return false to stop).
    /// Decoding is strict: any decoder error is thrown, naming the frame.
    public func decodeFrames(_ body: (DecodedFrame) throws -> Bool) throws {
        try withDecodedFrames { view in try body(view.decodedFrame()) }
    }

    /// The number of frames that decode (decodes the whole stream; no frame is converted).
    public func decodedFrameCount() throws -> Int {
        var n = 0
        try forEachDecodedFrame(from: nil) { _, _, _ in n += 1; return true }
        return n
    }

    /// Every frame's three planes packed without row padding (Y, then U, then V), as decoded, for a
    /// yuv420p stream: what the tests compare when the question is the encoder's input, not its
    /// conversion to BGRA (a lossless movie decodes to exactly the frames the encoder was given).
    package func decodedYUV420Frames() throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        try forEachDecodedFrame(from: nil) { frame, _, _ in
            let f = frame.pointee
            guard f.format == AV_PIX_FMT_YUV420P.rawValue else {
                throw MovieMakerError.movieUnreadable(path: url.path, reason: "frames are \(String(cString: av_get_pix_fmt_name(AVPixelFormat(rawValue: f.format)))), not yuv420p")
            }
            let w = Int(f.width), h = Int(f.height)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(w * h * 3 / 2)
            for (plane, stride, rowBytes, rows) in [(f.data.0, f.linesize.0, w, h), (f.data.1, f.linesize.1, (w + 1) / 2, (h + 1) / 2),
                                                   (f.data.2, f.linesize.2, (w + 1) / 2, (h + 1) / 2)] {
                guard let plane else { continue }
                for y in 0..<rows { bytes.append(contentsOf: UnsafeBufferPointer(start: plane + y * Int(stride), count: rowBytes)) }
            }
            frames.append(bytes)
            return true
        }
        return frames
    }

    /// Decodes frames in presentation order, from the start or from the first frame at or after
    /// `start`, converts each into the reused BGRA buffer and lends it to `body` (return false to stop).
    /// The view is valid only during the call: copy what must outlive it (`decodedFrame()`).
    func withDecodedFrames(from start: Time? = nil, _ body: (DecodedFrameView) throws -> Bool) throws {
        let converter = converter
        try forEachDecodedFrame(from: start) { frame, index, time in
            let pixels = try converter.convert(frame)
            return try body(DecodedFrameView(index: index, presentationTime: time, pixels: pixels))
        }
    }

    /// The decode loop over `Decoder`: seeks (to the start, or to the keyframe before `start`), decodes
    /// the video stream's packets and hands `body` each frame with its index and presentation time,
    /// skipping frames before `start` (decoded only to reach it). After a seek the index is the frame's
    /// position computed from its time and the stream's average frame rate. `lenient` skips packets
    /// that do not decode (up to 100, as drawing a clip does) instead of throwing at the first.
    func forEachDecodedFrame(from start: Time?, lenient: Bool = false,
                                     _ body: (UnsafeMutablePointer<AVFrame>, Int, Time) throws -> Bool) throws {
        let decoder = try CodecDecoder(stream: borrowedStream, decoder: borrowedDecoder, strict: !lenient,
                                       invalidDataLimit: lenient ? 100 : 0, cancellation: cancellation,
                                  describe: Self.describe(path: url.path, codec: info.codec))
        let firstTimestamp: Int64?
        if let start {
            try demuxer.seek(to: start, stream: streamIndex)
            firstTimestamp = demuxer.timestamp(of: start, inStream: streamIndex)
        } else {
            try rewind()
            firstTimestamp = nil
        }
        let demuxer = demuxer, stream = streamIndex
        let nextPacket = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: stream) }
        let rate = info.frameRate
        var index = 0
        while try decoder.receiveFrame(nextPacket: nextPacket) {
            let f = decoder.frame.pointee
            let pts = f.best_effort_timestamp == mm_av_nopts_value() ? f.pts : f.best_effort_timestamp
            if let firstTimestamp, pts < firstTimestamp { continue }
            let time = demuxer.time(ofTimestamp: pts, inStream: stream)
            if index == 0, start != nil, let rate {
                // The nearest frame start to `time` (a container may round timestamps, e.g. Matroska's milliseconds).
                index = max(0, rate.frameIndex(at: time + Time(value: Int64(rate.denominator), timescale: 2 * Int64(rate.numerator))))
            }
            let keepGoing = try body(decoder.frame, index, time)
            index += 1
            guard keepGoing else { return }
        }
    }
}

/// One decoded picture lent by `MovieReader.withDecodedFrames`: premultiplied BGRA in the reader's
/// reused buffer, valid only during the call it is handed to.
struct DecodedFrameView {
    /// Position in presentation order, from 0.
    let index: Int
    /// Presentation time, exact in the stream's time base.
    let presentationTime: Time
    /// The pixels, borrowed from the reader's buffer.
    let pixels: BGRAFrameConverter.Pixels

    /// A copy as the public `DecodedFrame` (packed rows, owned bytes).
    func decodedFrame() -> DecodedFrame {
        DecodedFrame(index: index, presentationTime: presentationTime, pixels: pixels.makePixelBuffer())
    }
}

/// Converts decoded pictures to premultiplied BGRA (as MovieMaker draws) into one reused, 64-byte
/// aligned buffer, with one scaler made for the stream's format, size and colour tags and remade only
/// when they change. Owns the buffer (freed in `deinit`) and the scaler (`OwnedScaler`).
final class BGRAFrameConverter {
    /// A converted picture, borrowed from the converter's buffer until its next conversion.
    struct Pixels {
        /// Width in pixels.
        let width: Int
        /// Height in pixels.
        let height: Int
        /// Bytes from one row to the next (≥ width × 4; rows are padded for alignment).
        let bytesPerRow: Int
        /// B, G, R, A bytes, `bytesPerRow` apart: `bytesPerRow × height` bytes.
        let bytes: UnsafeRawBufferPointer

        /// The colour at a pixel, as 8-bit (red, green, blue, alpha).
        func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            let i = y * bytesPerRow + x * 4
            return (bytes[i + 2], bytes[i + 1], bytes[i], bytes[i + 3])
        }

        /// A packed copy (rows `width × 4` bytes apart) as a `PixelBuffer`.
        func makePixelBuffer() -> PixelBuffer {
            let rowBytes = width * 4
            let packed = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, count in
                for y in 0..<height {
                    UnsafeMutableRawPointer(out.baseAddress! + y * rowBytes)
                        .copyMemory(from: bytes.baseAddress! + y * bytesPerRow, byteCount: rowBytes)
                }
                count = rowBytes * height
            }
            return PixelBuffer(width: width, height: height, bytes: packed)
        }
    }

    /// What the scaler was made for: source size, pixel format, matrix and range.
    private struct Key: Equatable {
        /// Source width and height.
        var width: Int32, height: Int32
        /// Source pixel format (raw value).
        var format: Int32
        /// Source colour matrix and range.
        var colorspace: AVColorSpace, range: AVColorRange
    }

    /// The scaler for `key` (owned).
    private var scaler: OwnedScaler?
    /// What `scaler` converts.
    private var key: Key?
    /// The reused destination (owned: freed in `deinit`), `capacity` bytes.
    private var buffer: UnsafeMutableRawPointer?
    /// The buffer's size in bytes.
    private var capacity = 0

    /// A converter with no scaler or buffer yet (made for the first frame).
    init() {}

    /// Converts `frame` into the buffer (using the frame's own colour tags, swscale keeping alpha
    /// straight, then premultiplied here); the result is valid until the next call.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) -> Pixels {
        let f = frame.pointee
        let wanted = Key(width: f.width, height: f.height, format: f.format, colorspace: f.colorspace, range: f.color_range)
        if key != wanted {
            let s = try OwnedScaler(srcWidth: f.width, srcHeight: f.height, srcFormat: AVPixelFormat(rawValue: f.format),
                                    dstWidth: f.width, dstHeight: f.height, dstFormat: AV_PIX_FMT_BGRA,
                                    flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
            let matrix: Int32 = f.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : f.colorspace == AVCOL_SPC_BT2020_NCL ? SWS_CS_BT2020 : SWS_CS_ITU601
            try setBT709(on: s, rgbIsSource: false, yuvFullRange: f.color_range == AVCOL_RANGE_JPEG, matrix: matrix)
            scaler = s
            key = wanted
        }
        let w = Int(f.width), h = Int(f.height)
        let bytesPerRow = (w * 4 + 63) & ~63
        if capacity < bytesPerRow * h {
            buffer?.deallocate()
            buffer = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * h, alignment: 64)
            capacity = bytesPerRow * h
        }
        let destination = buffer!.assumingMemoryBound(to: UInt8.self)
        let rows = scaler!.convert(UnsafePointer(frame), into: destination, stride: bytesPerRow)
        guard rows == f.height else { throw .ffmpeg(operation: "sws_scale (decode)", code: rows, message: "short conversion") }
        if pixelFormatHasAlpha(AVPixelFormat(rawValue: f.format)) {
            // swscale keeps alpha straight; PixelBuffer holds premultiplied colour, as Cairo draws.
            for y in 0..<h { AlphaConversion.premultiply(destination + y * bytesPerRow, count: w) }
        }
        return Pixels(width: w, height: h, bytesPerRow: bytesPerRow, bytes: UnsafeRawBufferPointer(start: buffer, count: bytesPerRow * h))
    }

    /// Frees the buffer (the scaler frees itself).
    deinit { buffer?.deallocate() }
}

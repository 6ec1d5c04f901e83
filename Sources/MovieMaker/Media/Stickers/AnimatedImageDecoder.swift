internal import CFFmpeg
internal import CMovieMakerShim
internal import CWebP
import Foundation

// Which library decodes which animated format, and why:
//
// - GIF and APNG: libavformat's `gif` and `apng` demuxers give each frame's timestamp and duration
//   (GIF delays in 1/100 s, APNG's delay fractions in 1/100000 s), and libavcodec's decoders composite
//   each frame onto the canvas (disposal and blending done), with alpha. Both demuxers ignore the
//   file's loop count by default (they would otherwise seek back and play again), so it is read from
//   the bytes here: GIF's NETSCAPE2.0 extension, APNG's acTL chunk.
// - Animated WebP: libwebpdemux's WebPAnimDecoder, which composites frames into premultiplied BGRA
//   (MODE_bgrA, Cairo's own layout) and gives each frame's end time in milliseconds.
// - Anything else (a still PNG, WebP, JPEG, HEIC, TIFF…): the photo decoder, one frame shown forever.

/// Decodes stickers: animated GIF, APNG and WebP, and stills, into `AnimatedImage`s.
enum AnimatedImageDecoder {
    /// Decodes the image at `url`, its frames at about the size they are shown at for `width`/`height`
    /// (see `AnimatedImage.shownSize`; nil and nil: the file's own size) when that is smaller.
    /// Throws `.imageUnreadable`/`.notAnImage` for a missing or damaged file and `.imageTooLarge` beyond
    /// the limits of `AnimatedImage` (`memoryLimit`: the most bytes the decoded frames may take).
    static func decode(_ url: URL, width: Double?, height: Double?, memoryLimit: Int = AnimatedImage.memoryLimit) throws(MovieMakerError) -> AnimatedImage {
        let path = url.path
        let file = try FileBytes(url)
        let bytes = file.bytes
        guard let format = PhotoFormat.sniff(bytes) else {
            throw .notAnImage(path: path, reason: PhotoFormat.describeNonImage(bytes))
        }
        switch format {
        case .gif:
            return try libavformat(bytes, demuxer: "gif", name: "GIF", loopCount: gifLoopCount(bytes), path: path, width: width, height: height, limit: memoryLimit)
        case .png where apngLoopCount(bytes) != nil:
            return try libavformat(bytes, demuxer: "apng", name: "APNG", loopCount: apngLoopCount(bytes) ?? 0, path: path, width: width, height: height, limit: memoryLimit)
        case .webp where isAnimatedWebP(bytes):
            return try webpAnimation(bytes, path: path, width: width, height: height, limit: memoryLimit)
        default:
            return try still(url, path: path, width: width, height: height, limit: memoryLimit)
        }
    }

    /// A still through the photo decoder: one frame, shown forever.
    private static func still(_ url: URL, path: String, width: Double?, height: Double?, limit: Int) throws(MovieMakerError) -> AnimatedImage {
        let info = try PhotoDecoder.info(url)
        try AnimatedImage.checkSide(width: info.width, height: info.height, path: path)
        let size = AnimatedImage.decodeSize(natural: (info.width, info.height), width: width, height: height)
        try AnimatedImage.checkMemory(frames: 1, width: size.width, height: size.height, path: path, limit: limit)
        let photo = try PhotoDecoder.decode(url, scaling: width == nil && height == nil ? .fullSize : .filling(Size(width: Double(size.width), height: Double(size.height))))
        let image: Image
        do {
            image = try AnimatedImage.resized(photo.image, width: size.width, height: size.height)
        } catch {
            throw .imageUnreadable(path: path, reason: "cannot scale it: \(error)")
        }
        return AnimatedImage(still: image, naturalSize: Size(width: Double(info.width), height: Double(info.height)))
    }

    // MARK: GIF, APNG (libavformat + libavcodec)

    /// Demuxes and decodes every frame in the order of FFmpeg's doc/examples/demux_decode.c (open the
    /// input, find the stream info, pick the video stream, open its decoder, read packets and receive
    /// frames, then drain).
    private static func libavformat(_ bytes: UnsafeRawBufferPointer, demuxer name: String, name display: String, loopCount: Int,
                                    path: String, width: Double?, height: Double?, limit: Int) throws(MovieMakerError) -> AnimatedImage {
        let describe: MediaReadFailureDescription = { failure in
            switch failure.step {
            case .noDecoder: .imageUnreadable(path: path, reason: "this FFmpeg build has no \(display) decoder")
            case .openDecoder: .imageUnreadable(path: path, reason: "damaged \(display): cannot open the decoder: \(failure.message)")
            case .open, .findStreamInfo, .read, .seek, .truncated: .imageUnreadable(path: path, reason: "damaged \(display): cannot read it: \(failure.message)")
            case .send, .flush, .receive, .damagedFrame, .damagedData:
                .imageUnreadable(path: path, reason: "damaged \(display): decoding frame \(failure.frameIndex) failed: \(failure.message)")
            }
        }
        // The size the header declares, checked before libavformat or libavcodec allocate anything
        // (GIF's logical screen; PNG's IHDR).
        func u16le(_ at: Int) -> Int { at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : 0 }
        func u32be(_ at: Int) -> Int { at + 4 <= bytes.count ? Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) : 0 }
        let header = name == "gif" ? (u16le(6), u16le(8)) : (u32be(16), u32be(20))
        try AnimatedImage.checkSide(width: header.0, height: header.1, path: path)
        let demuxer = try Demuxer(bytes: bytes, format: name, describe: describe)
        try demuxer.findStreamInfo()
        guard let index = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw .imageUnreadable(path: path, reason: "damaged \(display): it holds no picture")
        }
        let stream = demuxer.borrowedStream(index)
        let parameters = stream.pointee.codecpar.pointee
        let declared = parameters.width > 0 && parameters.height > 0 ? (Int(parameters.width), Int(parameters.height)) : header
        try AnimatedImage.checkSide(width: declared.0, height: declared.1, path: path)
        let decoder = try CodecDecoder(stream: stream, describe: describe)
        let nextPacket = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: index) }

        var frames: [Image] = []
        var starts: [Int64] = []
        var lengths: [Int64] = []
        var natural = declared
        var target = AnimatedImage.decodeSize(natural: declared, width: width, height: height)
        var scaler: OwnedScaler?
        var scalerKey: (Int32, Int32, Int32) = (0, 0, -1)
        var raster: PhotoRaster?
        while try decoder.receiveFrame(nextPacket: nextPacket) {
            let frame = decoder.frame
            let f = frame.pointee
            guard f.width > 0, f.height > 0 else { throw .imageUnreadable(path: path, reason: "damaged \(display): decoded an empty picture") }
            if frames.isEmpty {
                natural = (Int(f.width), Int(f.height))
                try AnimatedImage.checkSide(width: natural.0, height: natural.1, path: path)
                target = AnimatedImage.decodeSize(natural: natural, width: width, height: height)
            }
            // Each frame is checked before it is kept: the limit is never exceeded, even for a file
            // that does not say how many frames it holds.
            try AnimatedImage.checkMemory(frames: frames.count + 1, width: target.width, height: target.height, path: path, limit: limit)
            let pixelFormat = AVPixelFormat(rawValue: f.format)
            if scalerKey != (f.width, f.height, f.format) {
                scaler = try OwnedScaler(srcWidth: f.width, srcHeight: f.height, srcFormat: pixelFormat,
                                         dstWidth: f.width, dstHeight: f.height, dstFormat: AV_PIX_FMT_BGRA,
                                         flags: SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
                raster = try PhotoRaster(width: Int(f.width), height: Int(f.height), layout: .bgra, path: path)
                scalerKey = (f.width, f.height, f.format)
            }
            guard let scaler, let raster else { break }
            guard scaler.convert(UnsafePointer(frame), into: raster.pixels, stride: raster.stride) == f.height else {
                throw .imageUnreadable(path: path, reason: "cannot convert the \(display) pixels (\(av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "?"))")
            }
            raster.hasAlpha = true
            let surface = try PhotoDecoder.upright(raster, orientation: .up, path: path)
            let image: Image
            do {
                image = try AnimatedImage.resized(Image(surface: surface), width: target.width, height: target.height)
            } catch {
                throw .imageUnreadable(path: path, reason: "cannot scale frame \(frames.count): \(error)")
            }
            frames.append(image)
            let pts = f.best_effort_timestamp != mm_av_nopts_value() ? f.best_effort_timestamp : f.pts
            starts.append(pts != mm_av_nopts_value() ? pts : (starts.last.map { $0 + (lengths.last ?? 0) } ?? 0))
            lengths.append(f.pkt_duration)
        }
        guard !frames.isEmpty else { throw .imageUnreadable(path: path, reason: "damaged \(display): it holds no frame") }
        // A frame lasts its packet's duration; where that is missing, until the next frame starts.
        var durations: [Time] = []
        for i in frames.indices {
            var length = lengths[i]
            if length <= 0, i + 1 < frames.count { length = starts[i + 1] - starts[i] }
            durations.append(length > 0 ? demuxer.time(ofTimestamp: length, inStream: index) : .zero)
        }
        return AnimatedImage(frames: frames, durations: durations, loopCount: loopCount,
                             naturalSize: Size(width: Double(natural.0), height: Double(natural.1)))
    }

    /// The loop count of a GIF's NETSCAPE2.0 (or ANIMEXTS1.0) application extension: 0 forever; a GIF
    /// without one plays once (1).
    static func gifLoopCount(_ b: UnsafeRawBufferPointer) -> Int {
        // 21 FF 0B "NETSCAPE2.0" 03 01 <count, 16-bit little-endian> 00
        let signatures = [Array("NETSCAPE2.0".utf8), Array("ANIMEXTS1.0".utf8)]
        guard b.count > 19 else { return 1 }
        for i in 0..<(b.count - 18) where b[i] == 0x21 && b[i + 1] == 0xFF && b[i + 2] == 0x0B {
            let id = Array(b[(i + 3)..<(i + 14)])
            if signatures.contains(id), b[i + 14] == 3, b[i + 15] == 1 {
                return Int(b[i + 16]) | Int(b[i + 17]) << 8
            }
        }
        return 1
    }

    /// The play count of a PNG's acTL chunk (0: forever), or nil when the PNG is not animated (no acTL
    /// before its first IDAT).
    static func apngLoopCount(_ b: UnsafeRawBufferPointer) -> Int? {
        func u32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
        var offset = 8
        while offset + 8 <= b.count {
            let length = u32(offset)
            let type = String(decoding: b[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "acTL" { return offset + 16 <= b.count ? u32(offset + 12) : nil }
            if type == "IDAT" || type == "IEND" { return nil }
            offset += 12 + length
        }
        return nil
    }

    /// Whether a WebP file is an animation (its VP8X chunk has the animation flag).
    static func isAnimatedWebP(_ b: UnsafeRawBufferPointer) -> Bool {
        // RIFF size WEBP VP8X <size> <flags>: the animation flag is bit 1 of the flags byte.
        b.count >= 21 && String(decoding: b[12..<16], as: UTF8.self) == "VP8X" && b[20] & 0x02 != 0
    }

    // MARK: Animated WebP (libwebpdemux)

    private static func webpAnimation(_ bytes: UnsafeRawBufferPointer, path: String, width: Double?, height: Double?, limit: Int) throws(MovieMakerError) -> AnimatedImage {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .imageUnreadable(path: path, reason: "libwebp version mismatch") }
        options.color_mode = MODE_bgrA      // premultiplied B, G, R, A: Cairo's ARGB32 in memory
        options.use_threads = 0
        var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        // The canvas size, read by the demuxer (which allocates no pixels) and checked before
        // WebPAnimDecoderNew allocates two canvases of it: a 200-byte file declaring a
        // 3,000,000,000-pixel canvas once took gigabytes there (found by make fuzz).
        guard let demux = WebPDemux(&data) else {
            throw .imageUnreadable(path: path, reason: "damaged or truncated animated WebP: its container does not parse")
        }
        let declared = (Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)))
        WebPDemuxDelete(demux)
        try AnimatedImage.checkSide(width: declared.0, height: declared.1, path: path)
        try AnimatedImage.checkMemory(frames: 2, width: declared.0, height: declared.1, path: path, limit: limit, overhead: 0)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw .imageUnreadable(path: path, reason: "damaged or truncated animated WebP: its frames do not parse")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw .imageUnreadable(path: path, reason: "damaged animated WebP: no canvas information") }
        let natural = (Int(info.canvas_width), Int(info.canvas_height))
        try AnimatedImage.checkSide(width: natural.0, height: natural.1, path: path)
        let target = AnimatedImage.decodeSize(natural: natural, width: width, height: height)
        // The frame count is in the file: refuse before decoding anything.
        try AnimatedImage.checkMemory(frames: max(1, Int(info.frame_count)), width: target.width, height: target.height, path: path, limit: limit)
        var frames: [Image] = []
        var durations: [Time] = []
        var previousEnd: Int32 = 0
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var buffer: UnsafeMutablePointer<UInt8>?
            var end: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &end) != 0, let buffer else {
                throw .imageUnreadable(path: path, reason: "damaged animated WebP: frame \(frames.count) does not decode")
            }
            try AnimatedImage.checkMemory(frames: frames.count + 1, width: target.width, height: target.height, path: path, limit: limit)
            // The decoder's canvas is its own (reused for the next frame): copy it into a surface.
            let surface = try PhotoRaster.makeSurface(width: natural.0, height: natural.1, path: path)
            let rowBytes = natural.0 * 4
            for y in 0..<natural.1 {
                (surface.data + y * surface.stride).update(from: buffer + y * rowBytes, count: rowBytes)
            }
            surface.markDirty()
            do {
                frames.append(try AnimatedImage.resized(Image(surface: surface), width: target.width, height: target.height))
            } catch {
                throw .imageUnreadable(path: path, reason: "cannot scale frame \(frames.count): \(error)")
            }
            // Timestamps are each frame's end, in milliseconds.
            durations.append(Time(value: Int64(end - previousEnd), timescale: 1000))
            previousEnd = end
        }
        guard !frames.isEmpty else { throw .imageUnreadable(path: path, reason: "damaged animated WebP: it holds no frame") }
        return AnimatedImage(frames: frames, durations: durations, loopCount: Int(info.loop_count),
                             naturalSize: Size(width: Double(natural.0), height: Double(natural.1)))
    }
}

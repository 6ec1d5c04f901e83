internal import CFFmpeg
internal import CMovieMakerShim

/// Reads a media file's packets with libavformat, in the order of FFmpeg's doc/examples/demux_decode.c:
/// open the input (`init`), find the stream info (`findStreamInfo`), pick a stream (`bestStream`),
/// then read its packets (`readPacket`) until the end, seeking (`seek`) where asked.
///
/// It owns the input format context (`OwnedInputFormatContext`) and the one packet every read fills
/// (`OwnedPacket`); streams are borrowed from the context. Every failure goes through `describe`, so
/// the client's error names its file in its own words.
final class Demuxer {
    /// The open input (owned).
    private let input: OwnedInputFormatContext
    /// The packet `readPacket` fills; it holds the last packet read until the next read (owned).
    private let packet: OwnedPacket
    /// Phrases a failed step as the client's error.
    let describe: MediaReadFailureDescription
    /// Whether a file that ends before its index says is an error (`.truncated`) rather than a normal
    /// end: a packet cut short by the end of the file, or, when reading from the start, fewer packets
    /// of the stream read than it declares (`nb_frames`, which MP4/MOV give).
    let detectsTruncation: Bool
    /// Packets read per stream since the start of the file; nil after a seek elsewhere (unknown).
    private var packetsSinceStart: [Int32: Int]? = [:]

    /// Opens the file at `path`, probing its format unless `format` (a libavformat demuxer name such
    /// as "matroska") is given. Does not read stream info yet: see `findStreamInfo`.
    init(path: String, format: String? = nil, detectsTruncation: Bool = false,
         describe: @escaping MediaReadFailureDescription = { $0.ffmpegError }) throws(MovieMakerError) {
        self.describe = describe
        self.detectsTruncation = detectsTruncation
        let forced = format.flatMap { av_find_input_format($0) }
        do {
            input = try OwnedInputFormatContext(path: path, format: forced)
        } catch {
            throw describe(MediaReadFailure(.open, code: Self.code(of: error)))
        }
        packet = try OwnedPacket()
    }

    /// Demuxes `bytes` (a whole file already in memory, borrowed: the caller keeps them alive and
    /// unchanged while the demuxer lives) as the libavformat demuxer `format`, e.g. "tiff_pipe".
    init(bytes: UnsafeRawBufferPointer, format: String, describe: @escaping MediaReadFailureDescription = { $0.ffmpegError }) throws(MovieMakerError) {
        self.describe = describe
        detectsTruncation = false
        guard let demuxer = av_find_input_format(format) else {
            throw describe(MediaReadFailure(.open, code: mm_averror_demuxer_not_found()))
        }
        do {
            input = try OwnedInputFormatContext(memory: try OwnedMemoryInput(bytes: bytes), format: demuxer)
        } catch {
            throw describe(MediaReadFailure(.open, code: Self.code(of: error)))
        }
        packet = try OwnedPacket()
    }

    /// The FFmpeg code an owner's `.ffmpeg` error carries (ENOMEM for anything else).
    private static func code(of error: MovieMakerError) -> Int32 {
        (error.underlying as? FFmpegError)?.code ?? averrorENOMEM
    }

    /// The format context, borrowed from the owner: for reading fields and setting options before
    /// `findStreamInfo` (e.g. a forced decoder). Never freed through this pointer.
    var borrowedContext: UnsafeMutablePointer<AVFormatContext> { input.pointer }

    /// libavformat's name for the demuxer that opened the file, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    var formatName: String { input.pointer.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "" }

    /// The container's metadata entry `key` (av_dict_get, case-insensitive), e.g. `comment`.
    func metadata(_ key: String) -> String? {
        av_dict_get(input.pointer.pointee.metadata, key, nil, 0).map { String(cString: $0.pointee.value) }
    }

    /// Reads the start of every stream to fill in codec parameters the header does not give
    /// (avformat_find_stream_info).
    func findStreamInfo() throws(MovieMakerError) {
        let r = avformat_find_stream_info(input.pointer, nil)
        if r < 0 { throw describe(MediaReadFailure(.findStreamInfo, code: r)) }
    }

    /// How many streams the file has.
    var streamCount: Int { Int(input.pointer.pointee.nb_streams) }

    /// Whether every stream's index (an MP4's sample table, read from its header) ends within the
    /// file: false for a file cut short after its header was written. True when the size is not known
    /// or no stream has an index yet (Matroska reads its Cues at the first seek: see
    /// `RenderIdentity.matroskaSegmentIsWhole`).
    var indexesEndWithinFile: Bool {
        guard let pb = input.pointer.pointee.pb else { return true }
        let fileSize = avio_size(pb)
        guard fileSize > 0 else { return true }
        for index in 0..<Int32(streamCount) {
            let stream = borrowedStream(index)
            let entries = avformat_index_get_entries_count(stream)
            guard entries > 0, let last = avformat_index_get_entry(stream, entries - 1) else { continue }
            if last.pointee.pos >= 0 && last.pointee.pos + Int64(last.pointee.size) > fileSize { return false }
        }
        return true
    }

    /// Stream `index` (0 ..< `streamCount`), borrowed: it belongs to the format context.
    func borrowedStream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && Int(index) < streamCount, "stream \(index) of \(streamCount)")
        return input.pointer.pointee.streams[Int(index)]!
    }

    /// The index of the best stream of `type` (av_find_best_stream), or nil when there is none.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let index = av_find_best_stream(input.pointer, type, -1, -1, nil, 0)
        return index >= 0 ? index : nil
    }

    /// Reads the next packet of stream `stream` (every stream's when nil), skipping others; nil at the
    /// end of the file. The packet is borrowed: it stays valid until the next read or seek. With
    /// `detectsTruncation`, a file that ends early throws `.truncated` instead (see there).
    func readPacket(ofStream stream: Int32?) throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? {
        while true {
            av_packet_unref(packet.pointer)
            let r = av_read_frame(input.pointer, packet.pointer)
            if r == averrorEOF {
                if detectsTruncation { try checkComplete(stream) }
                return nil
            }
            if r < 0 { throw describe(MediaReadFailure(.read, code: r)) }
            let index = packet.pointer.pointee.stream_index
            let count = packetsSinceStart.map { $0[index, default: 0] } ?? 0
            packetsSinceStart?[index] = count + 1
            guard stream == nil || index == stream else { continue }
            if detectsTruncation && packet.pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                // av_get_packet marks a packet the file ended in the middle of.
                throw describe(MediaReadFailure(.truncated, code: averrorEOF, packetsRead: count,
                                                packetsExpected: Int(borrowedStream(index).pointee.nb_frames)))
            }
            return packet.pointer
        }
    }

    /// At the end of the file: throws `.truncated` when, reading from the start, stream `stream` (every
    /// stream when nil) gave fewer packets than it declares.
    private func checkComplete(_ stream: Int32?) throws(MovieMakerError) {
        guard let counts = packetsSinceStart else { return }
        for index in stream.map({ [$0] }) ?? Array(0..<Int32(streamCount)) {
            let expected = Int(borrowedStream(index).pointee.nb_frames), read = counts[index, default: 0]
            if expected > 0 && read < expected {
                throw describe(MediaReadFailure(.truncated, code: averrorEOF, packetsRead: read, packetsExpected: expected))
            }
        }
    }

    /// Seeks stream `stream` to timestamp `timestamp` in its time base (av_seek_frame): with
    /// AVSEEK_FLAG_BACKWARD (the default), to the keyframe at or before it.
    func seek(toTimestamp timestamp: Int64, stream: Int32, flags: Int32 = AVSEEK_FLAG_BACKWARD) throws(MovieMakerError) {
        av_packet_unref(packet.pointer)
        let r = av_seek_frame(input.pointer, stream, timestamp, flags)
        if r < 0 { throw describe(MediaReadFailure(.seek, code: r)) }
        // Back at the first packet only when seeking a stream to (or before) where it starts.
        let start = stream >= 0 ? borrowedStream(stream).pointee.start_time : mm_av_nopts_value()
        let fromStart = flags & AVSEEK_FLAG_BYTE == 0 && stream >= 0 && timestamp <= (start == mm_av_nopts_value() ? 0 : start)
        packetsSinceStart = fromStart ? [:] : nil
    }

    /// Seeks stream `stream` to the keyframe at or before `time` (its presentation time, converted to
    /// the stream's time base rounding down), so decoding from there reaches the frame at `time`.
    func seek(to time: Time, stream: Int32) throws(MovieMakerError) {
        try seek(toTimestamp: timestamp(of: time, inStream: stream), stream: stream)
    }

    /// `time` as a timestamp of stream `stream` (its time base), rounded down.
    func timestamp(of time: Time, inStream stream: Int32) -> Int64 {
        let tb = borrowedStream(stream).pointee.time_base
        // time.value / time.timescale seconds in units of tb.num / tb.den seconds.
        return av_rescale_rnd(time.value, Int64(tb.den), time.timescale * Int64(tb.num), AV_ROUND_DOWN)
    }

    /// A timestamp of stream `stream` as an exact time (time base × `timestamp`).
    func time(ofTimestamp timestamp: Int64, inStream stream: Int32) -> Time {
        let tb = borrowedStream(stream).pointee.time_base
        return Time(value: timestamp * Int64(tb.num), timescale: Int64(tb.den))
    }
}

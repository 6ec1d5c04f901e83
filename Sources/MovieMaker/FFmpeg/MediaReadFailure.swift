internal import CFFmpeg

/// One demuxing or decoding step that failed, with FFmpeg's code. `Demuxer` and `Decoder` do not
/// choose the error they throw: they hand this to their client's `describe` closure, so MovieReader
/// keeps saying `.movieUnreadable`, AudioDecoder `.audioUnreadable` and the photo decoder
/// `.imageUnreadable`, each with its own wording and the file's path.
struct MediaReadFailure {
    /// Which call failed.
    enum Step: Equatable {
        /// avformat_open_input.
        case open
        /// avformat_find_stream_info.
        case findStreamInfo
        /// av_read_frame, with an error other than the end of the file.
        case read
        /// av_seek_frame.
        case seek
        /// The file ends before its index says (a stream has fewer packets than it declares, or a packet
        /// is cut short): only when the demuxer was asked to detect truncation.
        case truncated
        /// No decoder for the stream's codec is built in (avcodec_find_decoder).
        case noDecoder
        /// avcodec_open2 on the decoder.
        case openDecoder
        /// avcodec_send_packet with a packet.
        case send
        /// avcodec_send_packet(NULL), the start of draining.
        case flush
        /// avcodec_receive_frame.
        case receive
        /// A frame came out flagged with decode errors (strict decoding only).
        case damagedFrame
        /// More packets than the decoder tolerates were rejected as invalid data.
        case damagedData
    }

    /// Which call failed.
    let step: Step
    /// FFmpeg's error code (0 for `damagedFrame` and `noDecoder`, which have none).
    let code: Int32
    /// How many frames the decoder had delivered before the failure (the index of the frame it was on).
    let frameIndex: Int
    /// For `truncated`: the packets of the stream read from the start of the file.
    let packetsRead: Int
    /// For `truncated`: the packets the stream declares (0 when it does not say).
    let packetsExpected: Int

    /// A failure of `step` with `code`, `frameIndex` frames in (`packetsRead` of `packetsExpected`
    /// packets for `truncated`).
    init(_ step: Step, code: Int32 = 0, frameIndex: Int = 0, packetsRead: Int = 0, packetsExpected: Int = 0) {
        self.step = step; self.code = code; self.frameIndex = frameIndex
        self.packetsRead = packetsRead; self.packetsExpected = packetsExpected
    }

    /// For `truncated`: what is missing, e.g. "the file ends after 29 of 60 packets" or "packet 29 is
    /// cut short by the end of the file".
    var truncation: String {
        packetsExpected > 0 && packetsRead < packetsExpected
            ? "the file ends after \(packetsRead) of \(packetsExpected) packets"
            : "packet \(packetsRead) is cut short by the end of the file"
    }

    /// FFmpeg's message for `code` (av_err2str).
    var message: String { ffmpegMessage(code) }

    /// The libav call, as `.ffmpeg(operation:…)` names it.
    var operation: String {
        switch step {
        case .open: "avformat_open_input"
        case .findStreamInfo: "avformat_find_stream_info"
        case .read: "av_read_frame"
        case .seek: "av_seek_frame"
        case .truncated: "av_read_frame (\(truncation))"
        case .noDecoder: "avcodec_find_decoder"
        case .openDecoder: "avcodec_open2 (decoder)"
        case .send: "avcodec_send_packet (packet near frame \(frameIndex))"
        case .flush: "avcodec_send_packet (flush)"
        case .receive: "avcodec_receive_frame (frame \(frameIndex))"
        case .damagedFrame: "frame \(frameIndex) decoded with errors"
        case .damagedData: "avcodec_send_packet (packet near frame \(frameIndex))"
        }
    }

    /// The plain `.ffmpeg` error for this failure: what a client without wording of its own throws.
    var ffmpegError: MovieMakerError { .ffmpeg(operation: operation, code: code, message: message) }
}

/// Turns a failed step into the error a reader throws (naming its file in its own words).
typealias MediaReadFailureDescription = (MediaReadFailure) -> MovieMakerError

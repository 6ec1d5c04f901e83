internal import CFFmpeg
internal import CMovieMakerShim

/// Decodes one stream's packets into frames with libavcodec: the one send/receive/drain loop of the
/// library, in the order of FFmpeg's doc/examples/demux_decode.c and transcode.c. Packets go in
/// (`avcodec_send_packet`), frames come out (`avcodec_receive_frame`); AVERROR(EAGAIN) and
/// AVERROR_EOF are handled here and nowhere else; at the end of the input it sends NULL and drains
/// the frames the codec still holds (B-frames, lookahead, an audio codec's last frame).
///
/// It owns the codec context (`OwnedCodecContext`) and the frame frames are received into
/// (`OwnedFrame`); the codec itself is borrowed from libavcodec's static table. An optional
/// `CancellationToken` is checked once per decoded frame.
final class CodecDecoder {
    /// The opened decoder (owned).
    private let codec: OwnedCodecContext
    /// The frame `receiveFrame` fills (owned).
    private let received: OwnedFrame
    /// Phrases a failed step as the client's error.
    private let describe: MediaReadFailureDescription
    /// Strict decoding: corruption is an error (AV_EF_EXPLODE), and so is any frame flagged with errors.
    let strict: Bool
    /// How many packets or frames rejected as invalid data are skipped (damaged MP3s play on) before
    /// `.damagedData` is thrown; 0 throws the first.
    let invalidDataLimit: Int
    /// Whether any refusal but running out of memory counts as damage (sound: a damaged AAC packet reads
    /// as "not yet implemented" or a made-up error number), or only invalid data (pictures, where a
    /// feature FFmpeg lacks should fail rather than conceal frames).
    let skipsAnyDecodeError: Bool
    /// Checked once per decoded frame: when cancelled, `receiveFrame` throws `.cancelled`.
    let cancellation: CancellationToken?
    /// The decoder's codec, borrowed from libavcodec's static table.
    let borrowedCodec: UnsafePointer<AVCodec>
    /// Whether the end of the input was reached and the codec told so (NULL sent): it is draining.
    private(set) var inputEnded = false
    /// Frames delivered since the decoder was made.
    private(set) var framesDecoded = 0
    /// Packets or frames rejected as damaged (and skipped) since the decoder was made.
    private(set) var rejectedCount = 0

    /// Opens a decoder for `stream` (avcodec_find_decoder unless `decoder` names one, e.g. libvpx-vp9
    /// for VP9 with alpha; avcodec_alloc_context3; avcodec_parameters_to_context with the stream's
    /// time base as the packet time base; avcodec_open2).
    /// `threads` is libavcodec's `thread_count` (1: decode on the calling thread only; 0: one per core).
    init(stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>? = nil, strict: Bool = false,
         invalidDataLimit: Int = 0, skipsAnyDecodeError: Bool = false, threads: Int = 1, cancellation: CancellationToken? = nil,
         describe: @escaping MediaReadFailureDescription = { $0.ffmpegError }) throws(MovieMakerError) {
        let parameters = stream.pointee.codecpar!
        guard let found = decoder ?? avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw describe(MediaReadFailure(.noDecoder))
        }
        borrowedCodec = found
        self.describe = describe
        self.strict = strict
        self.invalidDataLimit = invalidDataLimit
        self.skipsAnyDecodeError = skipsAnyDecodeError
        self.cancellation = cancellation
        codec = try OwnedCodecContext(codec: found)
        received = try OwnedFrame()
        let c = codec.pointer
        try ffCheck(avcodec_parameters_to_context(c, parameters), "avcodec_parameters_to_context")
        // The packets' time base: libavcodec needs it to move frame timestamps past skipped priming samples.
        c.pointee.pkt_timebase = stream.pointee.time_base
        c.pointee.thread_count = Int32(threads)
        if strict { c.pointee.err_recognition = AV_EF_EXPLODE | AV_EF_CRCCHECK | AV_EF_BITSTREAM }
        let r = avcodec_open2(c, found, nil)
        if r < 0 { throw describe(MediaReadFailure(.openDecoder, code: r)) }
    }

    /// The opened codec context, borrowed (for reading what the decoder found: sample rate, layout…).
    var borrowedContext: UnsafeMutablePointer<AVCodecContext> { codec.pointer }

    /// The last frame `receiveFrame` delivered, borrowed: valid until the next `receiveFrame` or `reset`.
    var frame: UnsafeMutablePointer<AVFrame> { received.pointer }

    /// Decodes the next frame into `frame`; false when the stream has ended and the codec is drained.
    ///
    /// Asks the codec for a frame first; only when it wants input (EAGAIN) does it send the next packet
    /// from `nextPacket` (nil: the input has ended, so it sends NULL to drain). Because every frame
    /// ready is received before a packet is sent, avcodec_send_packet cannot answer EAGAIN
    /// (libavcodec's contract), so it is an error like any other. A packet or frame the decoder
    /// refuses as invalid data (with `skipsAnyDecodeError`, for any reason but running out of memory) is
    /// skipped up to `invalidDataLimit` times per call; any other error goes through `describe`. Throws `.cancelled`
    /// when the token was cancelled, once per frame.
    func receiveFrame(nextPacket: () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>?) throws(MovieMakerError) -> Bool {
        let c = codec.pointer
        var rejected = 0
        /// Counts one rejected packet or frame; throws once more than `invalidDataLimit` were rejected.
        func reject(_ step: MediaReadFailure.Step, _ code: Int32) throws(MovieMakerError) {
            // Damaged bytes read as invalid data; in sound also as a feature the decoder lacks (AAC's "not
            // yet implemented") or whatever error its parser stumbles into (an AAC packet of garbage gave
            // "Error number -50531338"). Such a packet is skipped, as the ffmpeg tool and players do. A
            // stream that never decodes reaches the limit and is reported with its last error.
            let damaged = code == averrorInvalidData || (skipsAnyDecodeError && code != averrorENOMEM)
            guard damaged, rejected < invalidDataLimit else {
                let limitReached = code == averrorInvalidData && invalidDataLimit > 0
                throw describe(MediaReadFailure(limitReached ? .damagedData : step, code: code, frameIndex: framesDecoded))
            }
            rejected += 1
            rejectedCount += 1
        }
        while true {
            let r = avcodec_receive_frame(c, received.pointer)
            if r >= 0 {
                if let cancellation, cancellation.isCancelled { throw .cancelled }
                if strict && received.pointer.pointee.decode_error_flags != 0 {
                    throw describe(MediaReadFailure(.damagedFrame, frameIndex: framesDecoded))
                }
                framesDecoded += 1
                return true
            }
            if r == averrorEOF { return false }
            if r != averrorEAGAIN { try reject(.receive, r); continue }
            // EAGAIN: the codec wants input. After NULL was sent it should not: treat that as the end.
            if inputEnded { return false }
            guard let packet = try nextPacket() else {
                inputEnded = true
                let s = avcodec_send_packet(c, nil)
                if s < 0 && s != averrorEOF { throw describe(MediaReadFailure(.flush, code: s, frameIndex: framesDecoded)) }
                continue
            }
            let s = avcodec_send_packet(c, packet)
            if s < 0 { try reject(.send, s) }
        }
    }

    /// Forgets the frames and packets in flight (avcodec_flush_buffers), before decoding from a seek.
    func reset() {
        avcodec_flush_buffers(codec.pointer)
        av_frame_unref(received.pointer)
        inputEnded = false
    }
}

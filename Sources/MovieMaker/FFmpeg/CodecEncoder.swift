internal import CFFmpeg
internal import CMovieMakerShim

/// Encodes frames into packets with libavcodec, in the order of FFmpeg's doc/examples/encode_video.c
/// and mux.c: find the encoder and allocate its context (`init`), set the context's fields (through
/// `context`), open it with the codec's private options (`open`), copy its parameters to the muxer's
/// stream (`describe`), then send each frame and receive every packet it makes (`encode`), and at the
/// end send NULL and drain the packets the codec still holds (`drain`).
///
/// It owns the codec context (`OwnedCodecContext`) and the packet packets are received into
/// (`OwnedPacket`); the codec is borrowed from libavcodec's static table.
final class CodecEncoder {
    /// The encoder's context (owned).
    private let codec: OwnedCodecContext
    /// The packet `encode` receives into and hands to its caller (owned).
    private let packet: OwnedPacket
    /// The encoder, borrowed from libavcodec's static table (its supported formats, rates, layouts).
    let borrowedCodec: UnsafePointer<AVCodec>
    /// What the encoder is for in error messages ("audio"), or nil for the video encoder.
    let label: String?

    /// The encoder libavcodec calls `name` (avcodec_find_encoder_by_name), borrowed from its static
    /// table; throws `.encoderUnavailable` when it is not built in.
    static func find(name: String) throws(MovieMakerError) -> UnsafePointer<AVCodec> {
        guard let found = avcodec_find_encoder_by_name(name) else { throw .encoderUnavailable(name: name) }
        return found
    }

    /// An encoder for `codec` (from `find(name:)`): allocates its packet and its context
    /// (avcodec_alloc_context3), not opened yet.
    init(codec found: UnsafePointer<AVCodec>, label: String? = nil) throws(MovieMakerError) {
        borrowedCodec = found
        self.label = label
        packet = try OwnedPacket()
        codec = try OwnedCodecContext(codec: found)
    }

    /// Finds the encoder libavcodec calls `name` (throws `.encoderUnavailable` when it is not built in)
    /// and allocates its context.
    convenience init(name: String, label: String? = nil) throws(MovieMakerError) {
        try self.init(codec: Self.find(name: name), label: label)
    }

    /// The codec context, borrowed from this encoder: set its fields before `open`.
    var context: UnsafeMutablePointer<AVCodecContext> { codec.pointer }

    /// The time base of the packets' timestamps (the context's, once opened).
    var timeBase: AVRational { codec.pointer.pointee.time_base }

    /// `operation` with this encoder's label, e.g. "avcodec_send_frame (audio)".
    private func named(_ operation: String) -> String {
        label.map { "\(operation) (\($0))" } ?? operation
    }

    /// Opens the encoder with its private `options` (avcodec_open2); entries it did not take stay in
    /// `options`. `operation` names the open in errors, e.g. "avcodec_open2 (libx264 320×240 @ 30 fps)".
    func open(options: OwnedDictionary?, operation: String) throws(MovieMakerError) {
        if let options {
            try ffCheck(avcodec_open2(codec.pointer, borrowedCodec, &options.pointer), operation)
        } else {
            try ffCheck(avcodec_open2(codec.pointer, borrowedCodec, nil), operation)
        }
    }

    /// Copies the opened encoder's parameters and time base to `stream` (a muxer's), as mux.c does
    /// after avcodec_open2 (avcodec_parameters_from_context).
    func describe(_ stream: UnsafeMutablePointer<AVStream>) throws(MovieMakerError) {
        try ffCheck(avcodec_parameters_from_context(stream.pointee.codecpar, codec.pointer), named("avcodec_parameters_from_context"))
        stream.pointee.time_base = codec.pointer.pointee.time_base
    }

    /// Sends one frame (avcodec_send_frame) and hands every packet the encoder has ready to `write`
    /// (avcodec_receive_packet until EAGAIN). `write` may keep the packet's reference (the muxer takes
    /// it); the packet is reused for the next one. Passing nil drains the encoder (see `drain`).
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?,
                write: (UnsafeMutablePointer<AVPacket>) throws(MovieMakerError) -> Void) throws(MovieMakerError) {
        let operation = frame == nil ? (label.map { "avcodec_send_frame (\($0) flush)" } ?? "avcodec_send_frame (flush)") : named("avcodec_send_frame")
        try ffCheck(avcodec_send_frame(codec.pointer, frame), operation)
        while true {
            let r = avcodec_receive_packet(codec.pointer, packet.pointer)
            if r == averrorEAGAIN || r == averrorEOF { return }
            try ffCheck(r, named("avcodec_receive_packet"))
            try write(packet.pointer)
        }
    }

    /// Sends NULL and hands every packet the encoder still holds (B-frames, lookahead) to `write`.
    func drain(write: (UnsafeMutablePointer<AVPacket>) throws(MovieMakerError) -> Void) throws(MovieMakerError) {
        try encode(nil, write: write)
    }
}

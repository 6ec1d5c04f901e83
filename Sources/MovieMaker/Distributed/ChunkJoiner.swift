internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// Writes one movie from the video packets of chunk files, copied without re-encoding, plus a sound
/// track for the whole movie: encoded here, or copied from a sound track file a worker rendered
/// beside the chunks (`SoundTrackFile`), packet for packet what encoding it here gives.
///
/// The libav calls follow FFmpeg's doc/examples/remux.c: an output context; a video stream whose
/// codec parameters are copied from the first chunk (avcodec_parameters_copy, codec_tag cleared); the
/// file opened; the sound's stream added (`AudioEncoder.attach`, or copied as the video's is); the
/// header written with the options of a single render; then each chunk's packets read in decode
/// order, their timestamps moved to the chunk's place and rescaled to the stream, and written
/// interleaved with the sound; the trailer last.
///
/// Owns its `Muxer` (which owns the format context and file), its `AudioEncoder` or the sound track
/// file's `Demuxer`; the streams are borrowed from the muxer and the demuxer. Used by
/// `DistributedRender.assemble`, on one thread.
final class ChunkJoiner {
    /// Where the movie's sound comes from.
    enum Sound {
        /// No sound track.
        case none
        /// Encoded here: the sounds, placed in time, encoded with the settings.
        case encode(AudioSettings, [(source: any AudioSource, at: Time)])
        /// Copied from a complete sound track file (checked by `SoundTrackFile.open`).
        case copy(SoundTrackFile)
    }

    /// The output file (owned).
    private let muxer: Muxer
    /// The video stream, borrowed: owned by `muxer`'s format context.
    private let borrowedVideo: UnsafeMutablePointer<AVStream>
    /// The sound track's encoder, when the movie's sound is encoded here (owned).
    private let audio: AudioEncoder?
    /// The sound track file whose packets are copied, when one was rendered beside the chunks (owned).
    private let soundFile: SoundTrackFile?
    /// The copied sound stream in the output, borrowed: owned by `muxer`'s format context.
    private let borrowedCopiedSound: UnsafeMutablePointer<AVStream>?
    /// A sound packet read but not yet written, because it ends after the video written so far;
    /// borrowed from the sound file's demuxer, valid until its next read.
    private var waitingSoundPacket: UnsafeMutablePointer<AVPacket>?
    private let container: Container
    private let rate: FrameRate
    /// One tick per frame: the time base packets are stamped in before the muxer rescales them.
    private let frameTimeBase: AVRational
    /// The first chunk's codec header (SPS/PPS): every chunk must carry the same.
    private let extradata: [UInt8]
    private let width: Int32, height: Int32
    /// Video packets written so far.
    private(set) var framesWritten = 0

    /// A movie at `path` (a partial file beside `destination`, which errors name) taking its video
    /// stream's description from `first` (a chunk's video stream, borrowed for the call), with `sound`.
    init(path: String, destination: String, container: Container, rate: FrameRate, first: UnsafeMutablePointer<AVStream>,
         sound: Sound, chapters: [Chapter] = [], end: Time = .zero,
         hls: (segmentFrames: Int, rate: FrameRate, folder: String)? = nil) throws(MovieMakerError) {
        self.container = container
        self.rate = rate
        frameTimeBase = AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
        let parameters = first.pointee.codecpar!
        extradata = Self.extradata(of: parameters)
        width = parameters.pointee.width; height = parameters.pointee.height
        muxer = try Muxer(path: path, formatName: container.muxerName, destination: destination)
        borrowedVideo = try muxer.addStream(label: "video")
        try ffCheck(avcodec_parameters_copy(borrowedVideo.pointee.codecpar, parameters), "avcodec_parameters_copy (video)")
        // The input's codec tag (e.g. `avc1`) is the input container's; let the muxer choose its own.
        borrowedVideo.pointee.codecpar.pointee.codec_tag = 0
        borrowedVideo.pointee.time_base = frameTimeBase
        borrowedVideo.pointee.avg_frame_rate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        borrowedVideo.pointee.r_frame_rate = borrowedVideo.pointee.avg_frame_rate
        borrowedVideo.pointee.sample_aspect_ratio = parameters.pointee.sample_aspect_ratio
        try muxer.openFile()
        switch sound {
        case .none:
            audio = nil; soundFile = nil; borrowedCopiedSound = nil
        case let .encode(audioSettings, sounds):
            let codec = try container.audioCodec()
            try audioSettings.validate(for: codec)
            let encoder = try AudioEncoder(codec: codec, settings: audioSettings, globalHeader: muxer.needsGlobalHeader,
                                           delayInTimestamps: codec == .opus && (container == .webm || container == .mkv))
            // Every sound is opened before the first packet, so a broken file fails here.
            for sound in sounds { try VideoEncoder.place(sound.source, at: sound.at, on: encoder) }
            try encoder.attach(to: muxer)
            audio = encoder; soundFile = nil; borrowedCopiedSound = nil
        case let .copy(file):
            // As remux.c: the stream's parameters copied, the input container's codec tag cleared.
            let stream = try muxer.addStream(label: "audio")
            let input = file.borrowedStream
            try ffCheck(avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar), "avcodec_parameters_copy (audio)")
            stream.pointee.codecpar.pointee.codec_tag = 0
            // The MP4 muxer writes the codec's bit rate as the stream's largest (`esds`, `btrt`): the encoder
            // gives the rate asked, the demuxer the average it found. The rate asked, as a single render has.
            stream.pointee.codecpar.pointee.bit_rate = Int64(file.bitRate)
            // The MOV muxer writes a `chan` box when the channel layout is known: the encoder's is; the
            // demuxer gives a count of channels in no order. The encoder's layout, as a single render has.
            if let encoder = avcodec_find_encoder_by_name(AudioCodec.aac.encoderName),
               var layout = AudioSettings.channelLayout(encoder, Int(input.pointee.codecpar.pointee.ch_layout.nb_channels)) {
                defer { av_channel_layout_uninit(&layout) }
                try ffCheck(av_channel_layout_copy(&stream.pointee.codecpar.pointee.ch_layout, &layout), "av_channel_layout_copy (audio)")
            }
            // And the samples a packet holds (QuickTime's sound description): 1024 for AAC-LC, the profile
            // `AudioEncoder` uses; the demuxer leaves it unknown.
            if stream.pointee.codecpar.pointee.frame_size == 0 { stream.pointee.codecpar.pointee.frame_size = 1024 }
            stream.pointee.time_base = input.pointee.time_base
            audio = nil; soundFile = file; borrowedCopiedSound = stream
        }
        // The chapters a single render writes, before the header as it does.
        try muxer.addChapters(chapters, end: end)
        try muxer.writeHeader(options: VideoEncoder.headerOptions(container, audioSampleRate: audio?.settings.sampleRate ?? soundFile?.sampleRate, hls: hls),
                              description: container.rawValue)
    }

    /// The codec header bytes of `parameters`.
    static func extradata(of parameters: UnsafeMutablePointer<AVCodecParameters>) -> [UInt8] {
        guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
    }

    /// Whether a chunk's video stream can be joined to this movie: the same codec, size and header.
    /// Returns the reason it cannot, or nil.
    func mismatch(_ stream: UnsafeMutablePointer<AVStream>) -> String? {
        let p = stream.pointee.codecpar!
        if p.pointee.codec_id != borrowedVideo.pointee.codecpar.pointee.codec_id { return "it holds another codec than the first chunk" }
        if p.pointee.width != width || p.pointee.height != height {
            return "its frames are \(p.pointee.width)×\(p.pointee.height), the first chunk's \(width)×\(height)"
        }
        if Self.extradata(of: p) != extradata { return "it was encoded with other settings than the first chunk (its H.264 header differs)" }
        return nil
    }

    /// Copies every video packet of `demuxer`'s stream `stream` (a chunk whose first frame is movie
    /// frame `start`), in decode order, stamping each at its place in the movie; after each, encodes the
    /// sound up to that frame (minus the sound's lag), as a single render does. Returns the packets copied.
    func append(_ demuxer: Demuxer, stream: Int32, start: Int, path: String, cancellation: CancellationToken?) throws(MovieMakerError) -> Int {
        let input = demuxer.borrowedStream(stream)
        let inputTimeBase = input.pointee.time_base
        var copied = 0
        while let packet = try demuxer.readPacket(ofStream: stream) {
            if let cancellation, cancellation.isCancelled { throw MovieMakerError.cancelled }
            let p = packet.pointee
            guard p.pts != mm_av_nopts_value(), p.dts != mm_av_nopts_value() else {
                throw .chunkMismatch(path: path, reason: "packet \(copied) has no timestamp")
            }
            let pts = av_rescale_q(p.pts, inputTimeBase, frameTimeBase)
            let dts = av_rescale_q(p.dts, inputTimeBase, frameTimeBase)
            // A chunk starts with a keyframe presented first, at its own frame 0.
            if copied == 0 && (pts != 0 || p.flags & AV_PKT_FLAG_KEY == 0) {
                throw .chunkMismatch(path: path, reason: "it does not start with a keyframe at its frame 0 (first packet at frame \(pts))")
            }
            packet.pointee.pts = pts + Int64(start)
            packet.pointee.dts = dts + Int64(start)
            packet.pointee.duration = 1
            packet.pointee.pos = -1
            try muxer.write(packet, from: frameTimeBase, to: borrowedVideo)
            copied += 1
            framesWritten += 1
            try audio?.encode(throughVideoFrame: framesWritten, rate: rate)
            try copySound(through: rate.time(ofFrame: framesWritten))
        }
        return copied
    }

    /// Copies the sound track file's packets that end by `time` (all of them when nil), in order, with
    /// their timestamps, flags and bytes as the encoder gave them.
    private func copySound(through time: Time?) throws(MovieMakerError) {
        guard let soundFile, let stream = borrowedCopiedSound else { return }
        let timeBase = soundFile.borrowedStream.pointee.time_base
        let limit = time.map { soundFile.timestamp(of: $0) }
        while true {
            let packet: UnsafeMutablePointer<AVPacket>
            if let waiting = waitingSoundPacket {
                packet = waiting
            } else {
                guard let next = try soundFile.readPacket() else { return }
                packet = next
            }
            if let limit, packet.pointee.pts + packet.pointee.duration > limit { waitingSoundPacket = packet; return }
            // The demuxer marks the encoder's priming packet to be discarded and says so in side data;
            // the encoder's own packet carried neither, and the muxer records the priming itself.
            packet.pointee.flags &= ~AV_PKT_FLAG_DISCARD
            av_packet_free_side_data(packet)
            packet.pointee.pos = -1
            try muxer.write(packet, from: timeBase, to: stream)
            waitingSoundPacket = nil
        }
    }

    /// Ends the sound track exactly at the video's end (its encoder drained, or the rest of its file
    /// copied), and writes the trailer (with the faststart rewrite) and closes the file.
    func finish() throws(MovieMakerError) {
        try audio?.finish(atVideoFrame: framesWritten, rate: rate)
        try copySound(through: nil)
        try muxer.finish()
    }
}

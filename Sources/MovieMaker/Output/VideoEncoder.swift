internal import CFFmpeg
internal import CMovieMakerShim
internal import CX264
import Foundation

/// Video encoder plus muxer for one output file, built from `Muxer` and `Encoder` in the order of
/// FFmpeg's doc/examples/mux.c: allocate the output context; find the video encoder, create its stream
/// and open the encoder (GLOBAL_HEADER first); open the file; optionally create the audio stream and
/// open its encoder (`addAudio`); write the header (`writeHeader`, before the first frame); encode,
/// rescale each packet's timestamps to its stream and hand it to av_interleaved_write_frame; at the
/// end drain the video encoder, then the audio one (`AudioEncoder.finish`), write the trailer and
/// close the file. The owners inside `Muxer` and `Encoder` free everything, also when a step throws.
///
/// With sound, each video frame is followed by the audio up to that frame's end minus a lag (at least
/// the longest end fade of the sounds and 0.1 s), so audio is read in step with the video, memory stays
/// constant however long the movie is, and the muxer interleaves the two.
///
/// We drive x264 through libavcodec's `libx264` wrapper rather than x264's own API: libavcodec turns
/// x264's Annex-B output and SPS/PPS into the MP4 `avcC` box and length-prefixed samples, hands
/// correct pts/dts for B-frames to the muxer, maps our colour tags into x264's VUI, and routes x264's
/// log through av_log. The same send/receive path serves ProRes 4444 (prores_ks), VP9 (libvpx, with
/// its alpha plane) and PNG sequences (the image2 muxer writes one file per packet).
final class VideoEncoder {
    /// The output file: format context, streams, file (owned).
    private let muxer: Muxer
    /// The video encoder (owned).
    private let video: CodecEncoder
    /// The video stream, borrowed: owned by `muxer`'s format context.
    private let borrowedStream: UnsafeMutablePointer<AVStream>
    /// The container written.
    private let container: Container
    /// The frame rate, for the audio position of each frame.
    private let rate: FrameRate
    /// Video frames handed to the encoder so far.
    private var framesEncoded = 0
    /// The audio encoder, once a sound track was added.
    private(set) var audio: AudioEncoder?
    /// The codec frames are encoded with.
    let videoCodec: VideoCodec
    /// The pixel format frames must be in (`makeFrame()` allocates it).
    let framePixelFormat: AVPixelFormat
    /// The encoded picture size.
    private let width: Int32, height: Int32
    /// An HLS stream's segment length in frames (each segment starts with an IDR frame).
    private let hlsSegmentFrames: Int?

    /// H.264's pixel format, the default output's.
    static let pixelFormat = AV_PIX_FMT_YUV420P

    /// An encoder writing `path` (for a PNG sequence, a pattern such as `folder/frame-%05d.png`). The
    /// codec follows from `container` and `settings.transparency`; `encoderName` overrides libavcodec's
    /// encoder (for tests of a missing encoder). `destination` is the file the user asked for, named in
    /// write errors when `path` is a partial file beside it.
    init(path: String, container: Container, width: Int32, height: Int32, rate: FrameRate, settings: EncoderSettings,
         encoderName: String? = nil, destination: String? = nil) throws(MovieMakerError) {
        let videoCodec = try container.videoCodec(settings.codec, transparency: settings.transparency, fileExtension: (path as NSString).pathExtension)
        let alpha = settings.transparency
        self.videoCodec = videoCodec
        self.width = width; self.height = height
        self.container = container; self.rate = rate
        framePixelFormat = videoCodec.pixelFormat(alpha: alpha, bitDepth: settings.bitDepth)
        let encoderName = encoderName ?? videoCodec.encoderName
        // mux.c's add_stream: find the encoder, create the stream, allocate the codec context.
        muxer = try Muxer(path: path, formatName: container.muxerName, destination: destination)
        let codec = try CodecEncoder.find(name: encoderName)
        borrowedStream = try muxer.addStream()
        video = try CodecEncoder(codec: codec)
        let c = video.context
        c.pointee.width = width
        c.pointee.height = height
        c.pointee.pix_fmt = framePixelFormat
        c.pointee.time_base = AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
        c.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.thread_count = Int32(settings.threads)
        hlsSegmentFrames = container == .hls ? settings.hlsSegmentFrames : nil
        if [.h264, .hevc, .av1, .vp9].contains(videoCodec) {
            if let k = settings.hlsSegmentFrames ?? settings.keyframeInterval { c.pointee.gop_size = Int32(k) }
            if let b = settings.bitrate, !(videoCodec == .h264 && settings.lossless) { c.pointee.bit_rate = Int64(b) }
            // VBV: a ceiling over CRF (x264, x265 and SVT-AV1 take it from the context).
            if let m = settings.maxBitrate, !(videoCodec == .h264 && settings.lossless) {
                c.pointee.rc_max_rate = Int64(m)
                c.pointee.rc_buffer_size = Int32(clamping: settings.bufferSize ?? 2 * m)
                // libvpx refuses a ceiling without a bitrate ("Rate control parameters set without a
                // bitrate"); with CRF and a bitrate it is constrained quality: the CRF, capped there.
                if videoCodec == .vp9 && settings.bitrate == nil { c.pointee.bit_rate = Int64(m) }
            }
        }
        if videoCodec == .proRes4444 && settings.usesFixedProResQuantiser {
            // A fixed quantiser skips prores_ks's search for each slice's quantiser (most of its time).
            c.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            c.pointee.global_quality = Int32(EncoderSettings.proResQuantiser) * FF_QP2LAMBDA
        }
        if videoCodec == .png {
            // PNG holds RGB as drawn: tag it sRGB (BT.709 primaries, sRGB curve), which the PNG
            // encoder writes as an `sRGB` chunk; there is no YUV matrix or range.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
        } else {
            // The colour description: BT.709 primaries, transfer and matrix, limited ("tv") range. libx264
            // writes these into the stream's VUI, prores_ks into its frame headers, libvpx into the VP9
            // colour space; avcodec_parameters_from_context carries them to the container. Alpha is
            // always full range.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_BT709
            c.pointee.colorspace = AVCOL_SPC_BT709
            c.pointee.color_range = AVCOL_RANGE_MPEG
            c.pointee.chroma_sample_location = videoCodec == .h264 ? AVCHROMA_LOC_LEFT : AVCHROMA_LOC_UNSPECIFIED
        }
        // Containers that keep SPS/PPS out of band (MP4, MOV, MKV) need them as extradata: set this
        // before avcodec_open2, as mux.c does.
        if muxer.needsGlobalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try video.open(options: Self.encoderOptions(videoCodec, settings: settings),
                       operation: "avcodec_open2 (\(encoderName) \(width)×\(height) @ \(rate) fps)")
        try video.describe(borrowedStream)
        if videoCodec == .hevc && (container == .mp4 || container == .mov || container == .hls) {
            // `hvc1` (parameter sets only in the sample entry) rather than libavformat's `hev1`:
            // QuickTime and Safari play only `hvc1`.
            borrowedStream.pointee.codecpar.pointee.codec_tag = Self.hvc1
        }
        borrowedStream.pointee.avg_frame_rate = c.pointee.framerate
        borrowedStream.pointee.r_frame_rate = c.pointee.framerate
        borrowedStream.pointee.sample_aspect_ratio = c.pointee.sample_aspect_ratio
        // VP9 with alpha: libvpx encodes the alpha plane as a second VP9 stream carried in each
        // block's BlockAdditions, and the Matroska/WebM muxer writes the track's AlphaMode = 1
        // element itself because the stream's pixel format is yuva420p (demuxers report it as the
        // `alpha_mode` tag). Setting an `alpha_mode` metadata entry as well would only add a
        // duplicate, upper-cased `ALPHA_MODE` tag that hides the demuxer's own.
        // The image2 muxer opens one file per frame itself.
        try muxer.openFile()
    }

    /// Opens an audio encoder for `settings` (validated) and adds its stream. Only before `writeHeader`.
    func addAudio(codec audioCodec: AudioCodec, settings: AudioSettings) throws(MovieMakerError) -> AudioEncoder {
        precondition(!muxer.headerWritten && audio == nil, "the audio stream is added once, before the header")
        // Open the codec before creating the stream, so a failure leaves the format context as it was.
        // Matroska/WebM records Opus's pre-skip as the track's CodecDelay, which demuxers subtract from
        // every timestamp: packets must be stamped with the delay included. MP4/MOV record AAC's
        // priming as an edit list over packets stamped from −1024 instead (and Matroska has no delay
        // field for AAC: its timestamps shift, video's too, keeping them in sync).
        let delayInTimestamps = audioCodec == .opus && (container == .webm || container == .mkv)
        let encoder = try AudioEncoder(codec: audioCodec, settings: settings, globalHeader: muxer.needsGlobalHeader,
                                       delayInTimestamps: delayInTimestamps)
        try encoder.attach(to: muxer)
        audio = encoder
        return encoder
    }

    /// Adds `chapters` to the container (MP4, MOV, Matroska, WebM), each to the next one's start and the
    /// last to `end`. Before `writeHeader`.
    func setChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError) { try muxer.addChapters(chapters, end: end) }

    /// Sets a container metadata entry; before `writeHeader`.
    func setMetadata(_ key: String, _ value: String) { muxer.setMetadata(key, value) }

    /// Writes the container header; called once, before the first frame (after any `addAudio`).
    func writeHeader() throws(MovieMakerError) {
        guard !muxer.headerWritten else { return }
        let hls = hlsSegmentFrames.map { (segmentFrames: $0, rate: rate, folder: (muxer.path as NSString).deletingLastPathComponent) }
        try muxer.writeHeader(options: Self.headerOptions(container, audioSampleRate: audio?.settings.sampleRate, hls: hls), description: container.rawValue)
    }

    /// The muxer options every movie of `container` is written with (also by `ChunkJoiner`, so an
    /// assembled movie is muxed as a single render is).
    static func headerOptions(_ container: Container, audioSampleRate: Int?,
                              hls: (segmentFrames: Int, rate: FrameRate, folder: String)? = nil) -> OwnedDictionary {
        let muxOptions = OwnedDictionary()
        if let hls {
            // libavformat's hls muxer: a VOD playlist of fMP4 (CMAF) segments. It cuts at a keyframe once
            // `hls_time` has passed since the segment began; IDR frames come exactly every `segmentFrames`
            // frames and nowhere else, so half a frame short of that cuts at each one.
            let seconds = (Double(hls.segmentFrames) - 0.5) * Double(hls.rate.denominator) / Double(hls.rate.numerator)
            muxOptions.set("hls_time", String(format: "%.6f", seconds))
            muxOptions.set("hls_playlist_type", "vod")
            muxOptions.set("hls_segment_type", "fmp4")
            muxOptions.set("hls_fmp4_init_filename", MovieDestination.hlsInitSegment)
            muxOptions.set("hls_segment_filename", (hls.folder as NSString).appendingPathComponent(MovieDestination.hlsSegmentPattern))
            muxOptions.set("hls_flags", "independent_segments")
            return muxOptions
        }
        if container == .mp4 || container == .mov {
            // faststart: rewrite the file at the end with `moov` before `mdat`, so browsers can
            // start playing before the whole file has arrived. write_colr: always write the `colr` box.
            muxOptions.set("movflags", "+faststart+write_colr")
            // The edit lists (which hide AAC's priming) count in the movie timescale, by default 1000:
            // the sound track's end would be cut to the millisecond. In samples, it ends exactly.
            if let audioSampleRate { muxOptions.set("movie_timescale", "\(audioSampleRate)") }
        }
        return muxOptions
    }

    /// Adds `source` to `audio`'s sounds from `time` (movie time), opening its reader once now so a
    /// broken file fails before any frame (it opens again a second before it plays). What
    /// `MovieMaker.addAudio` and `ChunkJoiner` share.
    static func place(_ source: any AudioSource, at time: Time, on audio: AudioEncoder) throws(MovieMakerError) {
        let format = audio.settings.format
        _ = try openReader(source, format: format)
        audio.sources.add(source, start: format.frame(at: time), duration: source.duration.map { format.frame(at: $0) },
                          endFade: format.frame(at: source.endFadeDuration))
    }

    /// Opens `source`'s reader in `format` (a broken file fails here), checking it reads that format.
    static func openReader(_ source: any AudioSource, format: AudioFormat) throws(MovieMakerError) -> any AudioReader {
        let reader: any AudioReader
        do {
            reader = try source.makeReader(format: format)
        } catch let error as MovieMakerError {
            throw error
        } catch {
            throw .audioUnreadable(path: "\(type(of: source))", reason: "\(error)")
        }
        guard reader.format == format else {
            throw .invalidSetting(.audioReaderFormat, value: "\(reader.format.sampleRate) Hz × \(reader.format.channelCount)",
                                  expected: "the format asked of makeReader(format:), \(format.sampleRate) Hz × \(format.channelCount)")
        }
        return reader
    }

    /// x264's own choice of assembly for this CPU without its AVX-512 functions, as the number x264's
    /// `asm` option takes; nil on a CPU without AVX-512 (nothing to leave out).
    ///
    /// Why: with the AVX-512 functions of x264 core 164 (Debian 12's libx264-164), the same frames encode
    /// to different bytes from one render to the next when the encoder's heap memory was used before
    /// (another render in the same process, a busy test run): an AVX-512 path reads bytes it never
    /// wrote. Measured in EncoderDeterminismTests: two renders of the same frames differ in about one
    /// case in three with AVX-512 and never without it, and MALLOC_PERTURB_ (fresh memory filled with a
    /// fixed byte) also makes them agree. Valgrind, which has no AVX-512, sees no uninitialised read.
    /// The AVX2 functions encode as fast and as well (the A/B is in docs/BENCHMARKS.md).
    static let x264AssemblyWithoutAVX512: UInt32? = {
        var parameters = x264_param_t()
        x264_param_default(&parameters)   // fills `cpu` with x264_cpu_detect()'s flags
        let avx512 = UInt32(X264_CPU_AVX512)
        guard parameters.cpu & avx512 != 0 else { return nil }
        return parameters.cpu & ~avx512
    }()

    /// The `hvc1` sample entry tag (MKTAG('h','v','c','1')).
    static let hvc1 = UInt32(UInt8(ascii: "h")) | UInt32(UInt8(ascii: "v")) << 8 | UInt32(UInt8(ascii: "c")) << 16 | UInt32(UInt8(ascii: "1")) << 24

    /// SVT-AV1 writes its banner and settings to standard error unless `SVT_LOG` says otherwise (it
    /// does not log through av_log): fatal errors only, unless the user set a level. (Its errors
    /// reach the user as libavcodec's return codes and libsvtav1's av_log lines; at level 1 a
    /// cancelled render also printed "deinit called without sending EOS!", which sending EOS would
    /// avoid only by waiting for SVT to encode its lookahead, or for ever if it had failed.)
    private static let quietSVT: Void = { setenv("SVT_LOG", "0", 0) }()

    /// The codec's private options for `settings`.
    private static func encoderOptions(_ videoCodec: VideoCodec, settings: EncoderSettings) -> OwnedDictionary {
        switch videoCodec {
        case .h264:
            let options = OwnedDictionary([("preset", settings.preset.rawValue)])
            var parameters: [String] = []
            if let flags = x264AssemblyWithoutAVX512 { parameters.append("asm=\(flags)") }
            // HLS: an IDR frame at every segment start and nowhere else (no scene-cut keyframes).
            if let n = settings.hlsSegmentFrames { parameters.append("keyint=\(n):min-keyint=\(n):scenecut=0") }
            if !parameters.isEmpty { options.set("x264-params", parameters.joined(separator: ":")) }
            if let tune = settings.tune { options.set("tune", tune.rawValue) }
            // Lossless is a constant quantiser of 0 (x264's `--qp 0`), which only the High 4:4:4
            // Predictive profile can express; x264 picks that itself when no profile is forced.
            if settings.lossless {
                options.set("qp", "0")
                return options
            }
            // High profile plays everywhere. CRF 0 is lossless, which only x264's High 4:4:4 Predictive
            // profile can express; x264 picks that itself when no profile is forced.
            let crf = settings.crf(for: .h264)
            if settings.bitrate != nil || crf > 0 { options.set("profile", "high") }
            if settings.bitrate == nil { options.set("crf", "\(crf)") }
            return options
        case .hevc:
            // x265 logs through its own printf, not av_log: errors only. An HLS segment must decode on its
            // own: x265's open GOPs start a segment with a CRA whose leading pictures refer to the
            // segment before, so GOPs are closed there (x264's are closed by default).
            let keyframes = settings.hlsSegmentFrames.map { ":keyint=\($0):min-keyint=\($0):scenecut=0:open-gop=0" } ?? ""
            let lossless = settings.lossless ? ":lossless=1" : ""
            let options = OwnedDictionary([("preset", settings.preset.rawValue), ("x265-params", "log-level=error" + keyframes + lossless)])
            if let tune = settings.tune, EncoderTune.x265Tunes.contains(tune) { options.set("tune", tune.rawValue) }
            if settings.bitrate == nil && !settings.lossless { options.set("crf", "\(settings.crf(for: .hevc))") }
            return options
        case .av1:
            _ = quietSVT
            let options = OwnedDictionary([("preset", "\(settings.av1Preset)")])
            if settings.bitrate == nil { options.set("crf", "\(settings.crf(for: .av1))") }
            return options
        case .proRes4444:
            // Profile 4444, with a 16-bit alpha plane only for a transparent movie (editors take an opaque
            // one with an alpha plane for one with transparency); vendor `apl0` as Apple's encoder
            // writes, which some players check.
            return OwnedDictionary([("profile", "4444"), ("alpha_bits", settings.transparency ? "16" : "0"), ("vendor", "apl0")])
        case .vp9:
            let speed = settings.vp9Speed
            // Constant quality (crf with no target bitrate) unless a bitrate is given; row-based
            // multithreading so `threads` helps at every size.
            let options = OwnedDictionary([("deadline", speed.deadline), ("cpu-used", "\(speed.cpuUsed)"), ("row-mt", "1")])
            if settings.lossless {
                options.set("lossless", "1")
            } else if settings.bitrate == nil {
                options.set("crf", "\(settings.crf(for: .vp9))")
            }
            return options
        case .png, .gif, .apng, .webp:
            return OwnedDictionary()
        }
    }

    /// A frame of the size and pixel format this encoder takes, for the pipeline's pool.
    func makeFrame() throws(MovieMakerError) -> OwnedFrame {
        let frame = try OwnedFrame(width: width, height: height, format: framePixelFormat)
        if videoCodec != .h264 {
            // The PNG and ProRes encoders read the colour tags from each frame, not from the codec
            // context (libx264 and libvpx take the context's); tagging every frame costs nothing.
            let c = video.context.pointee, f = frame.pointer
            f.pointee.color_primaries = c.color_primaries
            f.pointee.color_trc = c.color_trc
            f.pointee.colorspace = c.colorspace
            f.pointee.color_range = c.color_range
        }
        return frame
    }

    /// Encodes one video frame (nil drains the video encoder) and writes every packet ready; after a
    /// frame, encodes the sound up to that frame's end minus the audio lag.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        try writeHeader()
        let muxer = muxer, stream = borrowedStream, timeBase = video.timeBase
        try video.encode(frame) { (packet) throws(MovieMakerError) in try muxer.write(packet, from: timeBase, to: stream) }
        guard frame != nil else { return }
        framesEncoded += 1
        try audio?.encode(throughVideoFrame: framesEncoded, rate: rate)
    }

    /// Drains the video encoder; with sound, tells the sounds where the movie ends, encodes them up to
    /// exactly the video's duration and drains the audio encoder; then writes the trailer (and the
    /// faststart rewrite) and closes the file.
    func finish() throws(MovieMakerError) {
        try encode(nil)
        if let audio {
            try audio.finish(atVideoFrame: framesEncoded, rate: rate)
        }
        try muxer.finish()
    }
}

internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// A video file, probed: what a clip made from it will show and for how long.
///
/// Creating one opens the file with libavformat, finds the video stream, opens its decoder and decodes
/// the first frame, so a missing, empty, truncated, audio-only or undecodable file fails here, naming
/// the file, before any frame of a movie is drawn. It reads anything this FFmpeg build decodes
/// (H.264, HEVC including 10-bit, VP8/VP9, AV1, ProRes, MPEG-4 Part 2, MJPEG, Theora… in MP4, MOV,
/// MKV, WebM, AVI, MPEG-TS/MTS, Ogg). Nothing stays open: each render opens its own decoder.
public struct VideoFile: Sendable, Hashable {
    /// The file.
    public let url: URL
    /// How long the video stream lasts, from its first frame.
    public let duration: Time
    /// The displayed width in pixels: after the display matrix's rotation (a portrait phone clip is
    /// narrower than it is tall) and the sample aspect ratio.
    public let width: Int
    /// The displayed height in pixels (see `width`).
    public let height: Int
    /// The coded width: the decoded pictures' width before rotation.
    public let codedWidth: Int
    /// The coded height: the decoded pictures' height before rotation.
    public let codedHeight: Int
    /// How far the picture is turned clockwise for display (the display matrix phones write): 0, 90,
    /// 180 or 270 degrees.
    public let rotation: Int
    /// Whether the display matrix mirrors the picture (left and right swapped after the rotation, as
    /// the matrix's factors apply: turned 90° and mirrored is a transpose, its top-left corner kept).
    public let isMirrored: Bool
    /// The nominal frame rate: the stream's average (for variable frame rate video, the average over
    /// the file).
    public let frameRate: FrameRate
    /// Whether the frames are not evenly spaced (phones record variable frame rate): then each output
    /// frame shows the source frame whose time it falls in.
    public let isVariableFrameRate: Bool
    /// The rate the stream's timestamps are laid out on (FFmpeg's `r_frame_rate`): a phone's variable
    /// rate clip's nominal rate (30), where `frameRate` is its average (27.2). Nil when not given.
    package let nominalFrameRate: FrameRate?
    /// Frames in the stream as the container declares them (nil when it does not say).
    public let frameCount: Int?
    /// The codec's FFmpeg name, e.g. `h264`, `hevc`, `vp9`, `av1`, `prores`.
    public let codec: String
    /// The decoded pixel format's FFmpeg name, e.g. `yuv420p`, `yuv420p10le`.
    public let pixelFormat: String
    /// The colour matrix (`bt709`, `bt470bg`, `smpte170m`, `bt2020nc`, or `unknown`: then BT.601 below
    /// 720 lines and BT.709 from 720 lines up, as players assume).
    public let colorMatrix: String
    /// Whether the samples use the full 0…255 range (JPEG, many phones' MJPEG) rather than 16…235.
    public let isFullRange: Bool
    /// The transfer function (`bt709`, `smpte2084` for PQ, `arib-std-b67` for HLG, …).
    public let colorTransfer: String
    /// Whether the stream is HDR (PQ or HLG transfer).
    public var isHDR: Bool { colorTransfer == "smpte2084" || colorTransfer == "arib-std-b67" }
    /// Whether the first frame is interlaced (it is deinterlaced when shown).
    public let isInterlaced: Bool
    /// Whether the file has a sound stream.
    public let hasAudio: Bool
    /// When the sound starts relative to the first frame (positive: later), as the container says;
    /// nil without sound.
    public let audioOffset: Time?
    /// libavformat's name for the container, e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`.
    public let containerFormat: String
    /// When the first frame is presented in the file's own timeline (streams may start after 0).
    let startTime: Time
    /// When the video was recorded, if the container says: an iPhone's `com.apple.quicktime.creationdate`
    /// (the capture time with its UTC offset, kept when the clip is edited or exported), else
    /// `creation_time` (a moment: MP4/MOV store it in UTC, and an export sets it to the export's time).
    /// Unlike the file's modification time it survives copying off the phone.
    package let creationDate: Date?

    /// Probes the video at `url` (see the type's description). Throws `.movieUnreadable` (missing,
    /// empty, not a media file, undecodable), `.movieTruncated`, `.noVideoStream` (a sound file, a
    /// picture-only file) or `.videoUnsupported` (no decoder for its codec), each naming the file.
    public init(url: URL) throws(MovieMakerError) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .movieUnreadable(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .movieUnreadable(path: path, reason: "it is a folder, not a video file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard size != 0 else { throw .movieUnreadable(path: path, reason: "the file is empty (0 bytes)") }
        let opened = try OpenVideo(url: url)
        self.url = url
        let s = opened.borrowedStream.pointee
        let par = s.codecpar.pointee
        func name(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "unknown" }
        codec = name(avcodec_get_name(par.codec_id))
        containerFormat = opened.demuxer.formatName
        creationDate = opened.demuxer.metadata("com.apple.quicktime.creationdate").flatMap(Self.date(iso8601:))
            ?? opened.demuxer.metadata("creation_time").flatMap(Self.date(iso8601:))
        startTime = opened.startTime
        codedWidth = Int(par.width); codedHeight = Int(par.height)
        let orientation = Orientation(stream: opened.borrowedStream)
        rotation = orientation.rotation; isMirrored = orientation.isMirrored
        // Non-square pixels widen (or narrow) the displayed picture before it is turned.
        let sar = par.sample_aspect_ratio
        var shownWidth = Int(par.width)
        if sar.num > 0 && sar.den > 0 && sar.num != sar.den {
            shownWidth = max(2, Int((Double(par.width) * Double(sar.num) / Double(sar.den)).rounded()))
        }
        (width, height) = orientation.rotation % 180 == 0 ? (shownWidth, Int(par.height)) : (Int(par.height), shownWidth)
        let avg = s.avg_frame_rate, real = s.r_frame_rate
        frameRate = (avg.num > 0 && avg.den > 0 ? FrameRate(numerator: Int(avg.num), denominator: Int(avg.den)) : nil)
            ?? (real.num > 0 && real.den > 0 ? FrameRate(numerator: Int(real.num), denominator: Int(real.den)) : nil)
            ?? 30
        nominalFrameRate = real.num > 0 && real.den > 0 ? FrameRate(numerator: Int(real.num), denominator: Int(real.den)) : nil
        if avg.num > 0, avg.den > 0, real.num > 0, real.den > 0 {
            let a = Double(avg.num) / Double(avg.den), r = Double(real.num) / Double(real.den)
            isVariableFrameRate = abs(a - r) / r > 0.002
        } else {
            isVariableFrameRate = false
        }
        frameCount = s.nb_frames > 0 ? Int(s.nb_frames) : nil
        // The first frame says what the stream's header may not: pixel format, colour, interlacing.
        let first = opened.borrowedFirstFrame.pointee
        let format = AVPixelFormat(rawValue: first.format)
        pixelFormat = name(av_get_pix_fmt_name(format))
        let space = first.colorspace != AVCOL_SPC_UNSPECIFIED ? first.colorspace : par.color_space
        colorMatrix = space == AVCOL_SPC_UNSPECIFIED ? "unknown" : name(av_color_space_name(space))
        let range = first.color_range != AVCOL_RANGE_UNSPECIFIED ? first.color_range : par.color_range
        isFullRange = range == AVCOL_RANGE_JPEG || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P].contains(format)
        let trc = first.color_trc != AVCOL_TRC_UNSPECIFIED ? first.color_trc : par.color_trc
        colorTransfer = trc == AVCOL_TRC_UNSPECIFIED ? "unknown" : name(av_color_transfer_name(trc))
        isInterlaced = first.interlaced_frame != 0
            || (par.field_order != AV_FIELD_PROGRESSIVE && par.field_order != AV_FIELD_UNKNOWN)
        duration = opened.duration
        if opened.demuxer.bestStream(AVMEDIA_TYPE_AUDIO) != nil {
            hasAudio = true
            audioOffset = (Self.firstAudioTime(path: path) ?? startTime) - startTime
        } else {
            hasAudio = false
            audioOffset = nil
        }
    }

    /// `2024-06-01T12:05:00.000000Z` (libavformat's form of `creation_time`) or `2024-06-01T14:05:00+0200`
    /// (Apple's), with or without fractions of a second; nil for anything else, or for the zero time some
    /// cameras write when their clock is unset.
    static func date(iso8601 text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = fractional.date(from: text) ?? plain.date(from: text),
              date > Date(timeIntervalSince1970: 0) else { return nil }
        return date
    }

    /// Probes the video at `path` (see `init(url:)`).
    public init(path: String) throws(MovieMakerError) { try self.init(url: URL(fileURLWithPath: path)) }

    /// The standard rate (23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60) a movie made from a variable
    /// frame rate clip should use: its nominal rate when that is a standard one at or above its average
    /// (a phone's 30 fps clip slowed to 27.2 on average in dim light: every frame kept, as players show
    /// it), else the one nearest its average (the nearest 25 dropped one frame in six of its 30 fps parts).
    package var standardFrameRate: FrameRate {
        let standard: [FrameRate] = [FrameRate(numerator: 24000, denominator: 1001)!, 24, 25, FrameRate(numerator: 30000, denominator: 1001)!, 30,
                                     48, 50, FrameRate(numerator: 60000, denominator: 1001)!, 60]
        let fps = frameRate.framesPerSecond
        if let nominal = nominalFrameRate?.framesPerSecond, nominal >= fps,
           let match = standard.filter({ abs($0.framesPerSecond - nominal) / nominal < 0.002 })
               .min(by: { abs($0.framesPerSecond - nominal) < abs($1.framesPerSecond - nominal) }) {
            return match
        }
        return standard.min { abs($0.framesPerSecond - fps) < abs($1.framesPerSecond - fps) } ?? 30
    }

    /// When the first sound sample is presented: the first decoded audio frame's timestamp, after the
    /// codec's priming samples are dropped (libavcodec moves the timestamp past them), which is where
    /// `AudioFile` starts the sound. (The stream's `start_time` alone would count AAC's priming in
    /// Matroska, putting the sound 21 ms early.) Nil when no audio frame decodes.
    private static func firstAudioTime(path: String) -> Time? {
        guard let demuxer = try? Demuxer(path: path), (try? demuxer.findStreamInfo()) != nil,
              let index = demuxer.bestStream(AVMEDIA_TYPE_AUDIO),
              let decoder = try? CodecDecoder(stream: demuxer.borrowedStream(index)) else { return nil }
        let next = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: index) }
        guard (try? decoder.receiveFrame(nextPacket: next)) == true else { return nil }
        let f = decoder.frame.pointee
        let pts = f.best_effort_timestamp != mm_av_nopts_value() ? f.best_effort_timestamp : f.pts
        return pts == mm_av_nopts_value() ? nil : demuxer.time(ofTimestamp: pts, inStream: index)
    }

    /// Whether the stream's pictures can go to an H.264 movie as they are decoded (see
    /// `Clip.videoPassThrough`): 8-bit 4:2:0, limited range, in the BT.709 matrix the drawn path would
    /// give them (tagged so, or untagged at 720 lines or more, as `VideoPictureConverter` reads them).
    var passesThrough: Bool {
        pixelFormat == "yuv420p" && !isFullRange && (colorMatrix == "bt709" || (colorMatrix == "unknown" && codedHeight >= 720))
    }

    /// Refuses what the clip cannot show faithfully: HDR (PQ/HLG) would look washed out converted as SDR,
    /// so it is tone mapped (`VideoFrameSource`), or refused where FFmpeg lacks the filters.
    func checkShowable() throws(MovieMakerError) {
        if isHDR && !VideoFrameSource.canToneMap {
            throw .videoUnsupported(path: url.path, reason: "it is HDR (\(colorTransfer == "smpte2084" ? "PQ" : "HLG") transfer, \(colorMatrix) colour), which would look washed out shown as SDR",
                                    fix: "convert it to SDR BT.709 first, e.g. ffmpeg -i in.mov -vf zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p out.mp4")
        }
    }
}

/// How the display matrix turns the coded picture: a clockwise rotation by a multiple of 90° after an
/// optional mirror (left–right).
struct Orientation: Sendable, Hashable {
    /// Clockwise degrees: 0, 90, 180, 270.
    var rotation: Int
    /// Mirrored left–right before turning.
    var isMirrored: Bool

    /// The orientation the stream's display matrix asks for (none without one).
    init(stream: UnsafeMutablePointer<AVStream>) {
        rotation = 0; isMirrored = false
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return }
        var m = [Int32](repeating: 0, count: 9)
        UnsafeRawPointer(data).withMemoryRebound(to: Int32.self, capacity: 9) { p in for i in 0..<9 { m[i] = p[i] } }
        // A negative determinant of the 2×2 part mirrors; undo the mirror (negate the first column, as
        // av_display_matrix_flip does) to read the rotation alone.
        let det = Double(m[0]) * Double(m[4]) - Double(m[1]) * Double(m[3])
        if det < 0 {
            isMirrored = true
            m[0] = -m[0]; m[3] = -m[3]; m[6] = -m[6]
        }
        let counterClockwise = m.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress!) }
        guard counterClockwise.isFinite else { return }
        // FFmpeg's own autorotation: theta = −angle, normalised to 0…360 and rounded to 90°.
        var theta = -counterClockwise
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        rotation = (Int((theta / 90).rounded()) * 90) % 360
    }
}

/// A video file opened for reading: the demuxer, the chosen stream, an opened decoder and the first
/// decoded frame. Used to probe (`VideoFile`) and by each render's decoder (`VideoFrameSource`).
final class OpenVideo {
    /// The open file (owned).
    let demuxer: Demuxer
    /// The video stream's index.
    let streamIndex: Int32
    /// The video stream, borrowed from the demuxer's format context.
    let borrowedStream: UnsafeMutablePointer<AVStream>
    /// The decoder (owned).
    let decoder: CodecDecoder
    /// When the first frame is presented, in the file's timeline.
    let startTime: Time
    /// How long the stream lasts from its first frame.
    let duration: Time
    /// The first decoded frame, borrowed from `firstFrameOwner`; only until `releaseFirstFrame()`.
    var borrowedFirstFrame: UnsafeMutablePointer<AVFrame> {
        guard let firstFrameOwner else { preconditionFailure("the first frame of an OpenVideo was asked for after it was released") }
        return firstFrameOwner.pointer
    }
    /// Owns the first decoded frame (a reference taken from the decoder's output) until it is released.
    private var firstFrameOwner: OwnedFrame?

    /// Lets the first frame go once a reader holds its own reference: kept, it would hold one of the
    /// decoder's pictures (3 MiB at 1080p) for as long as the decoder lives.
    func releaseFirstFrame() { firstFrameOwner = nil }

    /// Opens `url`, finds its video stream and decoder, checks the index against the file's size and
    /// decodes the first frame. Errors name the file. `knownDuration`: the stream's duration as the
    /// probe (`VideoFile`) found it, so a decoder opened for a render does not work it out again (for a
    /// recording without one in its header, by reading the whole file).
    init(url: URL, threads: Int = 1, knownDuration: Time? = nil) throws(MovieMakerError) {
        let path = url.path
        let describe: MediaReadFailureDescription = { failure in
            switch failure.step {
            case .open:
                if let missing = Self.missingIndex(path) { return .movieTruncated(path: path, reason: missing) }
                return .movieUnreadable(path: path, reason: "not a media file libavformat recognises (\(failure.message))")
            case .truncated: return .movieTruncated(path: path, reason: failure.truncation)
            case .noDecoder: return .videoUnsupported(path: path, reason: "this FFmpeg build has no decoder for its codec", fix: "convert it to H.264 first")
            default: return .movieUnreadable(path: path, reason: failure.message)
            }
        }
        let demuxer = try Demuxer(path: path, describe: describe)
        try demuxer.findStreamInfo()
        // A stream that is only a picture (an MP3's cover art) is not a video.
        var index: Int32? = nil
        if let best = demuxer.bestStream(AVMEDIA_TYPE_VIDEO),
           demuxer.borrowedStream(best).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 {
            index = best
        }
        guard let index else {
            let found = demuxer.bestStream(AVMEDIA_TYPE_AUDIO) != nil ? "only sound" : "no picture stream"
            throw .noVideoStream(path: path, found: found)
        }
        self.demuxer = demuxer
        streamIndex = index
        borrowedStream = demuxer.borrowedStream(index)
        try Self.checkIndex(demuxer: demuxer, stream: borrowedStream, path: path)
        let codecName = String(cString: avcodec_get_name(borrowedStream.pointee.codecpar.pointee.codec_id))
        // A damaged stretch of a recorded clip (a bad sector, a camera that lost power mid-write) is
        // skipped, as players and ffmpeg do: its frames hold the last good picture. Only a run of 100
        // rejected packets in a row, a stream that is not really video, stops the render.
        decoder = try CodecDecoder(stream: borrowedStream, invalidDataLimit: 100, threads: threads, describe: { failure in
            switch failure.step {
            case .noDecoder, .openDecoder:
                return .videoUnsupported(path: path, reason: "no working decoder for its \(codecName) video (\(failure.message))",
                                         fix: "convert it to H.264 first")
            case .read where failure.code == averrorEOF, .truncated:
                return .movieTruncated(path: path, reason: failure.message)
            default:
                return .movieUnreadable(path: path, reason: "its \(codecName) video does not decode (\(failure.message))")
            }
        })
        let st = borrowedStream.pointee
        let streamStart: Time? = st.start_time == mm_av_nopts_value() ? nil : demuxer.time(ofTimestamp: st.start_time, inStream: index)
        let decoder = decoder
        let stream = index
        let next = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: stream) }
        guard try decoder.receiveFrame(nextPacket: next) else {
            throw .movieUnreadable(path: path, reason: "its video stream has no frame that decodes")
        }
        let first = try OwnedFrame()
        try ffCheck(av_frame_ref(first.pointer, decoder.frame), "av_frame_ref (first frame)")
        firstFrameOwner = first
        let pts = first.pointer.pointee.best_effort_timestamp != mm_av_nopts_value() ? first.pointer.pointee.best_effort_timestamp : first.pointer.pointee.pts
        let firstTime = pts != mm_av_nopts_value() ? demuxer.time(ofTimestamp: pts, inStream: index) : (streamStart ?? .zero)
        startTime = Time.min(streamStart ?? firstTime, firstTime)
        // The duration: the stream's own (MP4/MOV give it exactly); else the end Matroska and WebM
        // writers (FFmpeg, mkvmerge, OBS) tag each track with, the segment's duration counting from
        // the start of an Opus track's pre-skip and so a few milliseconds short of the picture's end
        // (a whole frame lost); else the container's from the start; else, for a recording whose
        // header never got a duration (a browser's MediaRecorder, a pipe), where its last packet ends.
        let ctx = demuxer.borrowedContext.pointee
        if let knownDuration {
            duration = knownDuration
        } else if st.duration > 0 && st.duration != mm_av_nopts_value() {
            duration = demuxer.time(ofTimestamp: st.duration, inStream: index)
        } else if ctx.duration > 0 {
            let total = Time(value: ctx.duration, timescale: Int64(AV_TIME_BASE))
            let containerStart = ctx.start_time != mm_av_nopts_value() ? Time(value: ctx.start_time, timescale: Int64(AV_TIME_BASE)) : .zero
            let estimate = Time.max(.zero, total - (startTime - containerStart))
            // The track's tag: FFmpeg writes where the track ends, mkvmerge how long it lasts. The reading
            // nearer the container's estimate, when within 50 ms of it (a stale tag is not believed).
            let tagged = av_dict_get(st.metadata, "DURATION", nil, 0).flatMap { Self.matroskaTime(String(cString: $0.pointee.value)) }
            let start = startTime
            let readings = tagged.map { [$0 - start, $0] } ?? []
            let nearest = readings.filter { $0 > .zero }.min { abs(($0 - estimate).seconds) < abs(($1 - estimate).seconds) }
            if let nearest, abs((nearest - estimate).seconds) <= 0.05 { duration = nearest } else { duration = estimate }
        } else {
            duration = Time.max(.zero, try Self.lastPacketEnd(path: path, stream: index, describe: describe) - startTime)
        }
        guard duration > .zero else { throw .movieUnreadable(path: path, reason: "its video stream has no duration") }
    }

    /// A Matroska `DURATION` tag (`HH:MM:SS.nnnnnnnnn`) as an exact time; nil when it is not one.
    static func matroskaTime(_ text: String) -> Time? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let hours = Int64(parts[0]), let minutes = Int64(parts[1]), minutes < 60 else { return nil }
        let seconds = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count <= 2, let whole = Int64(seconds[0]), whole < 60 else { return nil }
        var nanoseconds: Int64 = 0
        if seconds.count == 2 {
            let digits = seconds[1].prefix(9)
            guard !digits.isEmpty, let fraction = Int64(digits) else { return nil }
            nanoseconds = fraction * Int64(pow(10, Double(9 - digits.count)))
        }
        return Time(value: ((hours * 60 + minutes) * 60 + whole) * 1_000_000_000 + nanoseconds, timescale: 1_000_000_000)
    }

    /// Where the last packet of `stream` ends, read through the whole file (its packets only, nothing
    /// decoded): the length of a recording whose header has none.
    static func lastPacketEnd(path: String, stream: Int32, describe: @escaping MediaReadFailureDescription) throws(MovieMakerError) -> Time {
        let demuxer = try Demuxer(path: path, describe: describe)
        try demuxer.findStreamInfo()
        guard Int(stream) < demuxer.streamCount else { return .zero }
        let st = demuxer.borrowedStream(stream).pointee
        // A packet without a duration lasts a frame of the stream's rate.
        let rate = st.avg_frame_rate.num > 0 ? st.avg_frame_rate : st.r_frame_rate
        var end: Time = .zero
        while let packet = try demuxer.readPacket(ofStream: stream) {
            let p = packet.pointee
            let ts = p.pts != mm_av_nopts_value() ? p.pts : p.dts
            guard ts != mm_av_nopts_value() else { continue }
            var packetEnd = demuxer.time(ofTimestamp: ts, inStream: stream)
            if p.duration > 0 {
                packetEnd = packetEnd + demuxer.time(ofTimestamp: p.duration, inStream: stream)
            } else if rate.num > 0 && rate.den > 0 {
                packetEnd = packetEnd + Time(value: Int64(rate.den), timescale: Int64(rate.num))
            }
            end = Time.max(end, packetEnd)
        }
        return end
    }

    /// Why an MP4, MOV or M4A file (one starting with an `ftyp` box) that libavformat cannot open is a
    /// cut-off recording: its top-level boxes (the last of which may run past the file's end) hold no
    /// `moov`, the index a camera, phone or recorder writes last. Nil for anything else.
    static func missingIndex(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let fileSize = try? handle.seekToEnd(), fileSize >= 16 else { return nil }
        var offset: UInt64 = 0
        var first = true
        while offset + 8 <= fileSize {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16), header.count >= 8 else { return nil }
            let bytes = [UInt8](header)
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if first && type != "ftyp" { return nil }
            first = false
            if type == "moov" { return nil }
            var size = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if size == 1, bytes.count >= 16 { size = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            if size == 0 { size = fileSize - offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return "its moov index, which a camera, phone or recorder writes when the recording stops, is missing: the file was cut off "
            + "or the recording never finished; untrunc can rebuild the index from a good clip of the same camera"
    }

    /// Throws `.movieTruncated` when the stream's last indexed packet (MP4/MOV index every packet;
    /// AVI and Matroska cues some) lies beyond the end of the file.
    private static func checkIndex(demuxer: Demuxer, stream: UnsafeMutablePointer<AVStream>, path: String) throws(MovieMakerError) {
        guard let pb = demuxer.borrowedContext.pointee.pb else { return }
        let fileSize = avio_size(pb)
        guard fileSize > 0 else { return }
        let entries = avformat_index_get_entries_count(stream)
        guard entries > 0, let last = avformat_index_get_entry(stream, entries - 1) else { return }
        let end = last.pointee.pos + Int64(last.pointee.size)
        if last.pointee.pos >= 0 && end > fileSize {
            throw .movieTruncated(path: path, reason: "its index ends at byte \(end) but the file has \(fileSize) bytes")
        }
    }
}

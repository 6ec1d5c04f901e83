internal import CFFmpeg
internal import CMovieMakerShim
import Foundation
import Synchronization

/// One open video decoder of a render: finds the frame to show at a source time, decoding forward or
/// seeking as needed, and converts it to the size it is drawn at.
///
/// **Which frame**: the one whose presentation interval holds the time — the last frame with a
/// timestamp at or before it, with a tolerance (`tolerance`) for timestamps a little late: rounded
/// ones, and phones' capture clocks. Times before the first frame show the first, times after the last
/// show the last. Because a frame is found by its timestamp alone (never by counting frames), variable
/// frame rate, edit lists and streams that start after 0 need nothing special, and a frame reached by
/// seeking is the frame reached by decoding straight through.
///
/// **Memory**: decoded frames are kept (as references to libavcodec's pictures in the stream's own
/// format, about 3 MiB each at 1080p 4:2:0 8-bit) in a window: two more than the drawing threads (at
/// least three) while playing forwards; after a seek backwards while playing backwards (a reversed
/// clip) `backwardWindow` frames, so reversing decodes each group of pictures in slices of that many
/// frames, from its keyframe, never the whole file. Plus
/// the last `convertedCapacity` converted picture at its drawn size (none when pictures are converted
/// straight into the canvas, as upright opaque video on whole pixels is). So one open decoder of a
/// 1080p H.264 stream, drawn on 2 threads, holds at most about 4 × 3 + 8 = 20 MiB playing forwards and
/// 32 × 3 + 8 = 104 MiB reversed, besides the decoder's own reference frames.
///
/// Not thread-safe: `VideoDecoderPool` lends it to one drawing thread at a time.
final class VideoFrameSource {
    /// The probed file.
    let file: VideoFile
    /// The open file and decoder (owned).
    private let video: OpenVideo
    /// Decoded frames in presentation order, consecutive as decoded (owned references).
    private var window: [RetainedFrame] = []
    /// Whether the decoder has delivered the stream's last frame (the window's last frame is it).
    private var reachedEnd = false
    /// How many decoded frames the window keeps.
    private var windowCapacity: Int
    /// Frames kept while playing forwards (see `forwardWindow(drawingThreads:)`).
    private let forwardWindow: Int
    /// How far ahead of the decoder a keyframe must be for a jump forward to seek to it:
    /// `forwardSeekGain`, or for a stream of keyframes only (ProRes, MJPEG…), where a seek costs one
    /// frame's decoding, a window's frames.
    private let seekGain: Time
    /// Whether the demuxer builds its index as it reads (`AVFMT_GENERIC_INDEX`: Ogg, raw H.264), so
    /// that the index ends where reading has got to.
    private let indexGrowsWhileReading: Bool
    /// The first frame's timestamp (times before it show it).
    private let firstTimestamp: Int64
    /// How late a frame's timestamp may be and still show at a time, in ticks: an eighth of the
    /// stream's frame interval, at most 2 ms, rounded down to whole ticks (at least one where a tick is
    /// 1 ms or finer). Matroska's milliseconds round 30000/1001 frame times either way, and phones stamp
    /// each frame when its sensor read it, a fraction of a millisecond either side of its slot (in a
    /// 1/90000 or 1/600 time base): taking only frames at or before the time, every late one showed a
    /// frame late, as a repeat then a skip, all through the clip. Between the common rates only 24 fps
    /// against 25 or 50 has frames that close to the other's frame times (1.7 ms apart); there the frame
    /// just after, the nearer one, shows. An AVI's 1/30 s tick is a whole frame: its timestamps are exact
    /// frame numbers and get none.
    private let tolerance: Int64
    /// The stream's time base.
    private let timeBase: AVRational
    /// Converts frames to drawn pictures (owns its scaler).
    private let converter = VideoPictureConverter()
    /// The last pictures converted, most recent last.
    private var converted: [(timestamp: Int64, width: Int, height: Int, image: Image)] = []
    /// libavfilter's `bwdif` (one frame per frame, interlaced frames only), made for the first
    /// interlaced frame, and for an HDR clip its tone mapping to SDR BT.709 (`makeDeinterlacer`), made
    /// for the first frame; remade after a seek. Owned.
    private var deinterlacer: FilterGraph?
    /// The frame the deinterlacer's output is received into (owned).
    private var deinterlaced: OwnedFrame?
    /// The timestamps of the last three different frames returned, oldest first: which way playback goes.
    private var recentlyShown: [Int64] = []
    /// Frames decoded since the source opened (for tests and the benchmark).
    private(set) var framesDecoded = 0
    /// Seeks made since the source opened (for tests and the benchmark).
    private(set) var seeks = 0
    /// Times damage met after a seek sent decoding back to the start (for tests).
    private(set) var restarts = 0
    /// Damaged frames decoded: frames after rejected packets, or concealed (for tests).
    private(set) var damagedFrames = 0
    /// Whether the decoder has decoded every packet since the stream's start (no seek since, or a
    /// seek to the start): its pictures are the ones decoding straight through gives, damaged or not.
    private var decodingFromStart = true
    /// The decoder's count of rejected packets when the last frame was delivered.
    private var rejectedSeen = 0

    /// Frames kept while playing forwards for a render on `drawingThreads` threads: two more than the
    /// threads, which ask for frames about that far out of order, so none has to seek back (a seek
    /// back costs decoding from the keyframe, up to a whole group of pictures).
    static func forwardWindow(drawingThreads: Int) -> Int { max(3, drawingThreads + 2) }
    /// Frames kept after seeking backwards while playing backwards (a reversed clip).
    static let backwardWindow = 32
    /// Converted pictures kept (a frame shown twice in slow motion is converted once). Upright opaque
    /// video drawn on whole pixels is converted straight into the canvas and keeps none.
    static let convertedCapacity = 1
    /// Without an index, a jump forward of more than this seeks instead of decoding through.
    static let seekThreshold = Time(value: 2, timescale: 1)
    /// With an index, a jump forward seeks only when the keyframe it lands on is more than this after
    /// the frame the decoder is at. Decoding a few frames through costs less than what a seek throws
    /// away: the window, which the other drawing threads still ask for (one asking for a frame just
    /// before the keyframe would then seek back a whole group of pictures).
    static let forwardSeekGain = Time(value: 1, timescale: 2)

    /// Opens `file` for decoding. Throws what `VideoFile` throws, and `.videoUnsupported` for HDR.
    init(file: VideoFile, drawingThreads: Int = 1) throws(MovieMakerError) {
        try file.checkShowable()
        self.file = file
        forwardWindow = Self.forwardWindow(drawingThreads: drawingThreads)
        windowCapacity = forwardWindow
        video = try OpenVideo(url: file.url, knownDuration: file.duration)
        timeBase = video.borrowedStream.pointee.time_base
        tolerance = Self.tolerance(timeBase: timeBase, frameRate: file.frameRate)
        let codec = video.borrowedStream.pointee.codecpar.pointee.codec_id
        let intraOnly = avcodec_descriptor_get(codec).map { $0.pointee.props & AV_CODEC_PROP_INTRA_ONLY != 0 } ?? false
        seekGain = intraOnly ? file.frameRate.time(ofFrame: forwardWindow) : Self.forwardSeekGain
        indexGrowsWhileReading = video.demuxer.borrowedContext.pointee.iformat.map { $0.pointee.flags & AVFMT_GENERIC_INDEX != 0 } ?? false
        let first = try RetainedFrame(referencing: video.borrowedFirstFrame)
        video.releaseFirstFrame()
        firstTimestamp = first.timestamp
        if first.pointer.pointee.interlaced_frame != 0 || file.isHDR {
            // The probe's frame is deinterlaced (with the frame after it) and tone mapped like every
            // other, as it is when a seek lands on it.
            deinterlacer = try Self.makeDeinterlacer(for: first.pointer, timeBase: timeBase, toneMapping: file.isHDR)
            try deinterlacer!.send(first.pointer)
            guard try decodeOne() else { throw .movieUnreadable(path: file.url.path, reason: "its first interlaced frame did not come out of the deinterlacer") }
        } else {
            window = [first]
        }
    }

    /// The picture at `time` of the source (0 is its first frame), converted to `width`×`height`
    /// (the coded orientation: the caller turns it for display).
    func picture(at time: Time, width: Int, height: Int) throws(MovieMakerError) -> Image {
        let frame = try frame(at: time)
        if let hit = converted.last(where: { $0.timestamp == frame.timestamp && $0.width == width && $0.height == height }) {
            return hit.image
        }
        let image = try converter.convert(frame.pointer, width: width, height: height, file: file)
        converted.append((frame.timestamp, width, height, image))
        if converted.count > Self.convertedCapacity {
            // A picture no drawing thread holds any more lends its surface to the next conversion
            // (a fresh 8 MiB surface per 1080p frame costs its page faults every time).
            var oldest = converted.removeFirst().image
            if isKnownUniquelyReferenced(&oldest) { converter.recycle(oldest.surface) }
        }
        return image
    }

    /// Writes the picture at `time`, converted to `width`×`height`, straight into `destination` (rows
    /// `stride` bytes apart: a canvas's memory), with no intermediate picture. For opaque sources only.
    func write(at time: Time, width: Int, height: Int, into destination: UnsafeMutablePointer<UInt8>, stride: Int) throws(MovieMakerError) {
        let frame = try frame(at: time)
        try converter.convert(frame.pointer, width: width, height: height, file: file, into: destination, stride: stride)
    }

    /// The part `crop` (in coded pixels: x, y, width, height) of the picture at `time`, converted to
    /// `width`×`height` (a reframing window). Not kept among the converted pictures: the window moves.
    func picture(at time: Time, crop: PixelWindow, width: Int, height: Int) throws(MovieMakerError) -> Image {
        let part = try cropped(try frame(at: time), to: crop)
        return try converter.convert(part.pointer, width: width, height: height, file: file)
    }

    /// Writes the part `crop` of the picture at `time`, converted to `width`×`height`, straight into
    /// `destination` (as `write(at:width:height:into:stride:)` does the whole picture).
    func write(at time: Time, crop: PixelWindow, width: Int, height: Int, into destination: UnsafeMutablePointer<UInt8>, stride: Int) throws(MovieMakerError) {
        let part = try cropped(try frame(at: time), to: crop)
        try converter.convert(part.pointer, width: width, height: height, file: file, into: destination, stride: stride)
    }

    /// A new reference to `frame` whose planes start at `crop` (av_frame_apply_cropping: no pixel is copied).
    private func cropped(_ frame: RetainedFrame, to crop: PixelWindow) throws(MovieMakerError) -> RetainedFrame {
        let part = try RetainedFrame(referencing: frame.pointer)
        let f = part.pointer
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        let x = min(max(0, crop.x), w - 1), y = min(max(0, crop.y), h - 1)
        let cw = min(max(1, crop.width), w - x), ch = min(max(1, crop.height), h - y)
        f.pointee.crop_left = x
        f.pointee.crop_top = y
        f.pointee.crop_right = w - x - cw
        f.pointee.crop_bottom = h - y - ch
        try ffCheck(av_frame_apply_cropping(f, Int32(AV_FRAME_CROP_UNALIGNED)), "av_frame_apply_cropping")
        return part
    }

    /// The decoded frame shown at `time` of the source, in the stream's own format (borrowed: valid
    /// until the next call on this source), for a frame that passes it to the encoder as it is.
    func decodedFrame(at time: Time) throws(MovieMakerError) -> UnsafeMutablePointer<AVFrame> {
        try frame(at: time).pointer
    }

    /// Whether decoded pictures carry alpha (then they are drawn, never written over the canvas).
    var hasAlpha: Bool { window.first.map { pixelFormatHasAlpha(AVPixelFormat(rawValue: $0.pointer.pointee.format)) } ?? true }

    /// The timestamp (in the stream's time base) of the frame shown at `time`.
    func timestamp(at time: Time) throws(MovieMakerError) -> Int64 { try frame(at: time).timestamp }

    /// The decoded frame shown at `time` of the source.
    private func frame(at time: Time) throws(MovieMakerError) -> RetainedFrame {
        let found = try frame(before: limitTimestamp(for: time), time: time)
        if recentlyShown.last != found.timestamp {
            recentlyShown.append(found.timestamp)
            if recentlyShown.count > 3 { recentlyShown.removeFirst() }
        }
        return found
    }

    /// The decoded frame with the latest timestamp at or before `limit` (the first frame before it),
    /// from the window, decoding forwards or seeking as needed.
    private func frame(before limit: Int64, time: Time) throws(MovieMakerError) -> RetainedFrame {
        if let found = lookUp(limit) { return found }
        if let last = window.last, last.timestamp <= limit, !shouldSeek(from: last.timestamp, to: limit) {
            // Forwards from where the decoder is: playing forwards again, the small window. (Playing
            // backwards asks for the window's last frame too, whose end a decoded frame more settles:
            // the backward window stays.)
            if !isPlayingBackwards { windowCapacity = forwardWindow }
            try decode(until: limit)
        } else {
            // Backwards (a reversed clip, a still earlier than the window, a drawing thread running
            // behind, a loop starting again) or far ahead: seek. Only playing backwards keeps the
            // backward window: every frame it holds stays allocated in the decoder's pool of pictures
            // until the decoder closes (about 3 MiB each at 1080p), which forward playback after one
            // step back would carry to the end of the clip for nothing.
            let back = window.first.map { limit < $0.timestamp } ?? false
            windowCapacity = back && isPlayingBackwards ? Self.backwardWindow : forwardWindow
            try seek(before: limit)
            try decode(until: limit)
        }
        guard let found = lookUp(limit) else {
            throw .movieUnreadable(path: file.url.path, reason: "no frame decodes at \(String(format: "%.3f", time.seconds)) s")
        }
        return found
    }

    /// Whether the frame shown at `time` is in the window.
    func holds(_ time: Time) -> Bool { lookUp(limitTimestamp(for: time)) != nil }

    /// Whether the frame shown at `time` is in the window or a short decode after it: reached without
    /// seeking (what a leaf shown in two places at once asks of each of its decoders).
    func reaches(_ time: Time) -> Bool {
        let limit = limitTimestamp(for: time)
        if lookUp(limit) != nil { return true }
        guard let last = window.last, last.timestamp <= limit else { return false }
        return !shouldSeek(from: last.timestamp, to: limit) && !isLonger(from: last.timestamp, to: limit, than: Self.forwardSeekGain)
    }

    /// Whether the last three different frames shown went backwards overall. Drawing threads ask a frame
    /// or two out of order, so one step against the direction of play does not turn it.
    private var isPlayingBackwards: Bool {
        guard let first = recentlyShown.first, let last = recentlyShown.last else { return false }
        return last < first
    }

    /// How many decoded frames the window holds (for tests).
    var framesHeld: Int { window.count }

    /// The most `tolerance` can be: a time this close before a frame's timestamp may show that frame.
    /// What holds a clip's last picture samples before its end by more (`Clip.lastPictureTime`).
    static let largestTolerance = Time(value: 2, timescale: 1000)

    /// `tolerance` for a stream with `timeBase` and nominal `frameRate`.
    static func tolerance(timeBase: AVRational, frameRate: FrameRate) -> Int64 {
        guard timeBase.num > 0, timeBase.den > 0 else { return 0 }
        // min(frame interval / 8, 2 ms) in ticks of num/den seconds, rounded down.
        let eighth = av_rescale_rnd(Int64(frameRate.denominator), Int64(timeBase.den), 8 * Int64(frameRate.numerator) * Int64(timeBase.num), AV_ROUND_DOWN)
        let twoMilliseconds = av_rescale_rnd(2, Int64(timeBase.den), 1000 * Int64(timeBase.num), AV_ROUND_DOWN)
        let ticks = min(eighth, twoMilliseconds)
        return Int64(timeBase.num) * 1000 <= Int64(timeBase.den) ? max(1, ticks) : ticks
    }

    /// The latest timestamp a frame shown at `time` may have: the time in the stream's time base,
    /// rounded down, plus the tolerance.
    private func limitTimestamp(for time: Time) -> Int64 {
        let t = file.startTime + time
        // t.value / t.timescale seconds in units of tb.num / tb.den seconds, rounded down.
        return av_rescale_rnd(t.value, Int64(timeBase.den), t.timescale * Int64(timeBase.num), AV_ROUND_DOWN) + tolerance
    }

    /// The window's frame for `limit` when the window settles it: the last frame at or before it,
    /// provided a later frame (or the end) shows where that frame's interval ends; the first frame for
    /// times before it.
    private func lookUp(_ limit: Int64) -> RetainedFrame? {
        guard let first = window.first, let last = window.last else { return nil }
        if limit < first.timestamp { return first.timestamp == firstTimestamp ? first : nil }
        if last.timestamp <= limit { return reachedEnd ? last : nil }
        // first ≤ limit < last: binary search for the last frame ≤ limit.
        var lo = 0, hi = window.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if window[mid].timestamp <= limit { lo = mid } else { hi = mid - 1 }
        }
        return window[lo]
    }

    /// Whether reaching `limit` from `current` is quicker by seeking: when the index has a keyframe
    /// at or before `limit` more than `seekGain` after `current`; without an index, or past the end of
    /// one the demuxer builds as it reads, when the jump is longer than `seekThreshold`.
    private func shouldSeek(from current: Int64, to limit: Int64) -> Bool {
        let stream = video.borrowedStream
        let count = avformat_index_get_entries_count(stream)
        if count > 0 {
            let i = av_index_search_timestamp(stream, limit, AVSEEK_FLAG_BACKWARD)
            if i >= 0, let entry = avformat_index_get_entry(stream, i), isLonger(from: current, to: entry.pointee.timestamp, than: seekGain) {
                return true
            }
            // A complete index has no keyframe to gain from; one built while reading may not reach `limit`.
            guard indexGrowsWhileReading, let last = avformat_index_get_entry(stream, count - 1), last.pointee.timestamp < limit else {
                return false
            }
        }
        return isLonger(from: current, to: limit, than: Self.seekThreshold)
    }

    /// Whether `end` is more than `gap` after `start` (timestamps in the stream's time base; true when
    /// the difference overflows, as from a missing timestamp).
    private func isLonger(from start: Int64, to end: Int64, than gap: Time) -> Bool {
        let (ticks, overflow) = end.subtractingReportingOverflow(start)
        if overflow { return true }
        let (value, overflowed) = ticks.multipliedReportingOverflow(by: Int64(timeBase.num))
        return overflowed || Time(value: value, timescale: Int64(timeBase.den)) > gap
    }

    /// Seeks to the keyframe before `limit` and empties the window; the next frame decoded is at or
    /// before `limit` (stepping further back when the demuxer lands on a keyframe presented later,
    /// as it can with reordered frames).
    ///
    /// An interlaced frame is deinterlaced from its neighbours, and the deinterlacer starts again after
    /// a seek, so the frame a seek lands on would not be the one decoding straight through gives: it
    /// is decoded and let go (unless it is the stream's first), and the seek steps back far enough
    /// for the frame after it to be at or before `limit`.
    private func seek(before limit: Int64) throws(MovieMakerError) {
        let stream = video.streamIndex
        var target = limit
        let oneSecond = av_rescale_q(1, AVRational(num: 1, den: 1), timeBase)
        var step = max(1, oneSecond / 2)
        for _ in 0..<7 {
            seeks += 1
            try video.demuxer.seek(toTimestamp: max(target, firstTimestamp), stream: stream)
            startDecoding(fromStart: false)
            // Where nothing decodes from the seek point (an MPEG-TS seek can land past the keyframe
            // of a long group of pictures) or the first frame is too late, step further back.
            var decoded = try decodeOne()
            if decoded, deinterlacer != nil, window[0].timestamp > firstTimestamp {
                window.removeAll(keepingCapacity: true)     // deinterlaced without the frame before it
                decoded = try decodeOne()
            }
            if decoded, window[0].timestamp <= limit || window[0].timestamp <= firstTimestamp { return }
            target = (decoded ? min(window[0].timestamp, target) : target) - step
            step *= 2
        }
        // The last resort, always right: decoding from the start.
        try rewind()
        _ = try decodeOne()
    }

    /// Goes back to the stream's start with an empty window and a fresh decoder, so that what is
    /// decoded next is what decoding straight through gives: to the first frame's keyframe; in an
    /// MPEG program or transport stream, whose timestamp seeks can land past a keyframe and whose
    /// packets carry their own timestamps, to the first byte. (A byte seek skips the demuxer's own
    /// seeking, which is what resets timestamps counted from packets, as AVI's are.)
    private func rewind() throws(MovieMakerError) {
        seeks += 1
        if ["mpegts", "mpeg"].contains(video.demuxer.formatName),
           (try? video.demuxer.seek(toTimestamp: 0, stream: -1, flags: AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_BYTE)) != nil {
            startDecoding(fromStart: true)
            return
        }
        try video.demuxer.seek(toTimestamp: firstTimestamp, stream: video.streamIndex)
        startDecoding(fromStart: true)
    }

    /// Forgets the decoder's state and the window after a seek; `fromStart` when the seek went to the
    /// stream's start.
    private func startDecoding(fromStart: Bool) {
        video.decoder.reset()
        deinterlacer = nil
        window.removeAll(keepingCapacity: true)
        reachedEnd = false
        decodingFromStart = fromStart
        rejectedSeen = video.decoder.rejectedCount
    }

    /// Whether the frame the decoder just delivered is damaged: packets were rejected since the one
    /// before it, or its picture was concealed. Forgets the rejections it counted; the first time,
    /// warns that the file is damaged there.
    private func deliveredDamage() -> Bool {
        let rejected = video.decoder.rejectedCount != rejectedSeen
        rejectedSeen = video.decoder.rejectedCount
        guard rejected || video.decoder.frame.pointee.decode_error_flags != 0 else { return false }
        damagedFrames += 1
        if damagedFrames == 1 {
            let timestamp = RetainedFrame.timestamp(of: video.decoder.frame)
            let seconds = timestamp == mm_av_nopts_value() ? "" : String(format: " near %.2f s", max(0, Double(timestamp - firstTimestamp) * av_q2d(timeBase)))
            LibraryWarnings.warn("\(file.url.path): its video is damaged\(seconds): the packets that do not decode are skipped and the picture there is concealed, as players do (an undamaged copy of the clip avoids it)")
        }
        return true
    }

    /// The decoder concealed damage after a seek: decodes again from the stream's start up to the
    /// damaged frame, so the window ends with it as decoding straight through shows it. (How
    /// libavcodec conceals a damaged picture depends on every picture decoded since it was flushed,
    /// not only on those since the last keyframe, so a render in chunks, a trim or a reversed clip
    /// would otherwise show other pictures there than a single pass.) False when the stream ends first.
    private func decodeFromStart(through damaged: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) -> Bool {
        let until = RetainedFrame.timestamp(of: damaged)
        restarts += 1
        try rewind()
        while true {
            guard try decodeOne() else { return false }
            if let last = window.last, last.timestamp >= until { return true }
        }
    }

    /// Decodes until the window holds a frame after `limit`, or the stream ends.
    private func decode(until limit: Int64) throws(MovieMakerError) {
        while let last = window.last, last.timestamp <= limit, !reachedEnd {
            guard try decodeOne() else { return }
        }
        if window.isEmpty { _ = try decodeOne() }
    }

    /// Decodes the next frame into the window (dropping the oldest beyond its capacity); false at the end.
    /// Interlaced frames go through the deinterlacer first.
    private func decodeOne() throws(MovieMakerError) -> Bool {
        let demuxer = video.demuxer, stream = video.streamIndex
        let next = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: stream) }
        while true {
            var decoded: UnsafeMutablePointer<AVFrame>
            if let deinterlacer {
                let out = try deinterlacedFrame()
                switch try deinterlacer.receive(into: out) {
                case .frame:
                    // Back to the stream's time base (bwdif counts in fields).
                    out.pointer.pointee.pts = av_rescale_q(out.pointer.pointee.pts, deinterlacer.outputTimeBase, timeBase)
                    out.pointer.pointee.best_effort_timestamp = out.pointer.pointee.pts
                    decoded = out.pointer
                case .ended:
                    reachedEnd = true
                    return false
                case .needsInput:
                    if try video.decoder.receiveFrame(nextPacket: next) {
                        framesDecoded += 1
                        if deliveredDamage(), !decodingFromStart, RetainedFrame.timestamp(of: video.decoder.frame) != mm_av_nopts_value() {
                            return try decodeFromStart(through: video.decoder.frame)
                        }
                        try deinterlacer.send(video.decoder.frame)
                    } else {
                        try deinterlacer.send(nil)
                    }
                    continue
                }
            } else {
                guard try video.decoder.receiveFrame(nextPacket: next) else {
                    reachedEnd = true
                    return false
                }
                framesDecoded += 1
                decoded = video.decoder.frame
                if deliveredDamage(), !decodingFromStart, RetainedFrame.timestamp(of: decoded) != mm_av_nopts_value() {
                    return try decodeFromStart(through: decoded)
                }
                if decoded.pointee.interlaced_frame != 0 || file.isHDR {
                    // The first interlaced frame (any frame of an HDR clip) starts the graph; this frame
                    // is its first input.
                    deinterlacer = try Self.makeDeinterlacer(for: decoded, timeBase: timeBase, toneMapping: file.isHDR)
                    try deinterlacer!.send(decoded)
                    continue
                }
            }
            let frame = try RetainedFrame(referencing: decoded)
            if frame.timestamp == mm_av_nopts_value() {
                // No timestamp: one frame after the previous one.
                let step = av_rescale_q(1, av_inv_q(video.borrowedStream.pointee.avg_frame_rate), timeBase)
                frame.timestamp = (window.last?.timestamp ?? firstTimestamp) + max(1, step)
            }
            // Frames out of order (leading pictures before a keyframe after a seek) are dropped.
            if let last = window.last, frame.timestamp <= last.timestamp { continue }
            window.append(frame)
            if window.count > windowCapacity { window.removeFirst(window.count - windowCapacity) }
            return true
        }
    }
}

extension VideoFrameSource {
    /// A fresh frame for the deinterlacer's next output (the window keeps references to earlier ones).
    fileprivate func deinterlacedFrame() throws(MovieMakerError) -> OwnedFrame {
        let f = try OwnedFrame()
        deinterlaced = f
        return f
    }

    /// A graph for frames like `frame`: when it is interlaced, `bwdif` (motion-adaptive, one output
    /// frame per input frame, deinterlacing only the frames flagged interlaced, as FFmpeg's
    /// `-deinterlace` defaults do); with `toneMapping`, an HDR picture (PQ or HLG, BT.2020) tone mapped
    /// to SDR BT.709 limited range as FFmpeg's documented recipe does (`zscale` to linear light at 100
    /// nits, `tonemap=hable` without desaturation, back to BT.709), into 10 bits so the drawn picture
    /// gets no banding from the step.
    fileprivate static func makeDeinterlacer(for frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational,
                                             toneMapping: Bool = false) throws(MovieMakerError) -> FilterGraph {
        let f = frame.pointee
        let sar = f.sample_aspect_ratio.num > 0 ? f.sample_aspect_ratio : AVRational(num: 1, den: 1)
        var filters: [String] = []
        if f.interlaced_frame != 0 { filters.append("bwdif=mode=send_frame:parity=auto:deint=interlaced") }
        if toneMapping { filters.append(toneMappingFilters) }
        return try FilterGraph(input: .video(width: f.width, height: f.height, pixelFormat: AVPixelFormat(rawValue: f.format),
                                             timeBase: timeBase, sampleAspectRatio: sar),
                               filters: filters.joined(separator: ","),
                               output: .video(pixelFormats: [toneMapping ? AV_PIX_FMT_YUV420P10LE : AVPixelFormat(rawValue: f.format)]), threads: 1)
    }

    /// HDR to SDR BT.709 (see `makeDeinterlacer`); the tests compare it with the ffmpeg command's output.
    package static let toneMappingFilters = "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p10le"

    /// Whether this FFmpeg has the filters tone mapping needs (`zscale` comes with libzimg).
    package static var canToneMap: Bool { FilterGraph.hasFilters(["zscale", "tonemap"]) }
}

/// A rectangle of a picture in whole pixels.
struct PixelWindow: Hashable, Sendable {
    var x: Int, y: Int, width: Int, height: Int
}

/// A decoded frame kept in a `VideoFrameSource`'s window: a reference to libavcodec's picture (owned).
final class RetainedFrame {
    /// The frame (owned: unreferenced and freed by `OwnedFrame`).
    private let owner: OwnedFrame
    /// Presentation timestamp in the stream's time base.
    var timestamp: Int64

    /// A new reference to `frame`'s picture (av_frame_ref).
    init(referencing frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        owner = try OwnedFrame()
        try ffCheck(av_frame_ref(owner.pointer, frame), "av_frame_ref")
        timestamp = Self.timestamp(of: frame)
    }

    /// A decoded frame's presentation timestamp: libavcodec's best guess, else its pts (either may be
    /// AV_NOPTS_VALUE).
    static func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64 {
        frame.pointee.best_effort_timestamp != mm_av_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
    }

    /// The frame, borrowed from the owner.
    var pointer: UnsafeMutablePointer<AVFrame> { owner.pointer }
}

/// Converts decoded video frames to drawable pictures at the size they are drawn at, in one swscale
/// pass (fast bilinear scaling, the source's own colour matrix and range), straight into a Cairo
/// surface. Owns its scaler, remade when the source format or the size changes.
final class VideoPictureConverter {
    /// What the scaler converts: source size and format, matrix and range, destination size.
    private struct Key: Equatable {
        var width: Int32, height: Int32, format: Int32
        var colorspace: AVColorSpace, range: AVColorRange
        var outWidth: Int, outHeight: Int
    }
    private var scaler: OwnedScaler?
    private var key: Key?
    /// A surface no picture uses any more, for the next conversion of its size.
    private var spare: CairoSurface?

    /// Keeps `surface` (whose picture nothing holds any more) for the next conversion.
    func recycle(_ surface: CairoSurface) { spare = surface }

    /// The matrix `frame`'s colours are read with: its own tag; untagged, the file's, and for an
    /// untagged file BT.709 from 720 lines up, else BT.601. (Video pass-through asks the same.)
    /// (Untagged video is told apart by the file's height, not the frame's: a reframing window cut from
    /// a 720p picture is still 720p video.)
    static func matrix(of frame: UnsafeMutablePointer<AVFrame>, file: VideoFile) -> AVColorSpace {
        let f = frame.pointee
        return f.colorspace != AVCOL_SPC_UNSPECIFIED ? f.colorspace
            : file.colorMatrix == "unknown" ? (file.codedHeight >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M) : f.colorspace
    }

    /// `frame` as a `width`×`height` picture (premultiplied BGRA; opaque unless the stream has alpha).
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, file: VideoFile) throws(MovieMakerError) -> Image {
        let surface: CairoSurface
        if let spare, spare.width == width, spare.height == height {
            surface = spare
        } else {
            surface = try CairoSurface(width: width, height: height)
        }
        spare = nil
        surface.flush()
        try convert(frame, width: width, height: height, file: file, into: surface.data, stride: surface.stride)
        surface.markDirty()
        return Image(surface: surface)
    }

    /// Converts `frame` to `width`×`height` premultiplied BGRA into `destination`, rows `stride` bytes apart.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, file: VideoFile,
                 into destination: UnsafeMutablePointer<UInt8>, stride: Int) throws(MovieMakerError) {
        let f = frame.pointee
        let wanted = Key(width: f.width, height: f.height, format: f.format, colorspace: f.colorspace, range: f.color_range,
                         outWidth: width, outHeight: height)
        if key != wanted {
            // swscale's fast path, as FFmpeg's own tools convert by default: bilinear scaling, chroma
            // shared by each 2×2 block (not interpolated: the full-chroma, accurate-rounding path is
            // what makes the test reader's conversion slow), the source's matrix and range.
            let s = try OwnedScaler(srcWidth: f.width, srcHeight: f.height, srcFormat: AVPixelFormat(rawValue: f.format),
                                    dstWidth: Int32(width), dstHeight: Int32(height), dstFormat: AV_PIX_FMT_BGRA,
                                    flags: SWS_BILINEAR)
            let space = Self.matrix(of: frame, file: file)
            let matrix: Int32 = space == AVCOL_SPC_BT709 ? SWS_CS_ITU709
                : (space == AVCOL_SPC_BT2020_NCL || space == AVCOL_SPC_BT2020_CL) ? SWS_CS_BT2020 : SWS_CS_ITU601
            let fullRange = f.color_range == AVCOL_RANGE_JPEG || file.isFullRange
            try setBT709(on: s, rgbIsSource: false, yuvFullRange: fullRange, matrix: matrix)
            scaler = s
            key = wanted
        }
        let rows = scaler!.convert(UnsafePointer(frame), into: destination, stride: stride)
        guard rows == height else { throw .ffmpeg(operation: "sws_scale (video frame)", code: rows, message: "short conversion") }
        if pixelFormatHasAlpha(AVPixelFormat(rawValue: f.format)) {
            for y in 0..<height { AlphaConversion.premultiply(destination + y * stride, count: width) }
        }
    }
}

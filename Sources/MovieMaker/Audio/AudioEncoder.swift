internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

extension Container {
    /// The audio codec this container gets; throws for a PNG sequence, which has no sound.
    func audioCodec() throws(MovieMakerError) -> AudioCodec {
        switch self {
        case .mp4, .mov, .mkv, .hls: return .aac
        case .webm: return .opus
        case .pngSequence: throw .audioUnsupported(container: "a PNG sequence")
        case .gif, .apng, .webp: throw .audioUnsupported(container: "an animated image (.\(rawValue))")
        }
    }
}

/// The sounds added to a movie, each at its start sample, summed into one stream of samples.
///
/// `add` runs on the caller's thread (even while frames are being encoded); `mix` and the rest run on
/// the encoder thread, or on the caller's thread once that has stopped. The lock guards `incoming`
/// and `lag`, the only state both threads touch.
final class PlacedAudio {
    /// One sound and where it plays, in sample frames of the movie. Its reader is open only from a
    /// second before it plays until it ends: a movie of a thousand clips' sounds holds the few that play
    /// now, not a thousand open files.
    private struct Entry {
        let source: any AudioSource
        var reader: (any AudioReader)?
        let start: Int64
        /// Where its sound ends (start + duration), or nil for a sound that lasts as long as asked.
        let end: Int64?
    }

    let format: AudioFormat
    /// How far audio is held back behind the video, in sample frames, when no sound asks for more:
    /// 0.1 s, which also keeps the last 10 ms unread until `finish` (the end fade).
    let minimumLag: Int64
    private let lock = NSLock()
    private var incoming: [Entry] = []
    private var sharedLag: Int64
    private var active: [Entry] = []
    /// Where the movie ends, once `willEnd` said (told to each reader as it opens).
    private var movieEnd: Int64?
    /// How far ahead of its start a sound's reader opens (a file's first read may seek).
    var openAhead: Int64 { Int64(format.sampleRate) }
    /// Where each reader writes before its samples are added in (`chunk` sample frames); owned, freed in deinit.
    private let scratch: UnsafeMutablePointer<Float>
    private let chunk: Int

    init(format: AudioFormat, chunk: Int) {
        self.format = format
        self.chunk = chunk
        minimumLag = Int64(format.sampleRate / 10)
        sharedLag = minimumLag
        scratch = .allocate(capacity: chunk * format.channelCount)
        scratch.initialize(repeating: 0, count: chunk * format.channelCount)
    }

    deinit { scratch.deallocate() }

    /// How many sample frames the audio is held back behind the video: at least the longest end fade
    /// of any sound added, so no reader is read past where the movie may end minus its fade before
    /// `willEnd` tells it the end.
    var lag: Int64 { lock.withLock { sharedLag } }

    /// Adds `source` to play from sample frame `start` for `duration` frames (nil: as long as asked),
    /// wanting to know the end `endFade` frames ahead. The caller has opened it once already (a broken
    /// file fails there); it opens again a second before it plays, unless that reader is handed over
    /// as `reader` (a sound that plays within `openAhead` of where the movie is).
    func add(_ source: any AudioSource, start: Int64, duration: Int64?, endFade: Int64, reader: (any AudioReader)? = nil) {
        lock.withLock {
            incoming.append(Entry(source: source, reader: reader, start: start, end: duration.map { start + $0 }))
            sharedLag = max(sharedLag, endFade)
        }
    }

    /// Takes in the sounds added since the last call and returns the lag now in force (encoder thread).
    /// Both are read under one lock, so a sound added with a longer end fade is never read with the
    /// shorter lag.
    func refresh() -> Int64 {
        lock.withLock {
            active.append(contentsOf: incoming)
            incoming.removeAll()
            return sharedLag
        }
    }

    /// Writes the sum of every sound over sample frames `position ..< position + count` into `buffer`
    /// (interleaved, `count * channelCount` floats; `count` ≤ the chunk size), unclamped. Sounds are
    /// read only over the frames they play, in order; those that have ended are closed.
    func mix(into buffer: UnsafeMutablePointer<Float>, position: Int64, count: Int) throws(MovieMakerError) {
        precondition(count <= chunk)
        let channels = format.channelCount
        buffer.update(repeating: 0, count: count * channels)
        let stop = position + Int64(count)
        for i in active.indices where active[i].reader == nil && active[i].start < stop + openAhead {
            let reader = try VideoEncoder.openReader(active[i].source, format: format)
            if let movieEnd, active[i].start < movieEnd { reader.willEnd(atFrame: movieEnd - active[i].start) }
            active[i].reader = reader
        }
        for entry in active {
            let from = max(position, entry.start), to = min(stop, entry.end ?? .max)
            guard from < to, let reader = entry.reader else { continue }
            let n = Int(to - from), destination = buffer + Int(from - position) * channels
            do {
                try reader.read(into: scratch, frameCount: n)
                for i in 0..<(n * channels) { destination[i] += scratch[i] }
            } catch let error as MovieMakerError {
                throw error
            } catch {
                throw .audioUnreadable(path: "\(type(of: entry.source))", reason: "reading at \(format.time(ofFrame: from).seconds) s failed: \(error)")
            }
        }
        active.removeAll { $0.end.map { $0 <= stop } ?? false }
    }

    /// Tells every sound that has not ended where the movie ends (sample frame `end` of the movie, in
    /// each reader's own frames), before reading up to it.
    func willEnd(atFrame end: Int64) {
        _ = refresh()
        movieEnd = end
        for entry in active where entry.start < end {
            entry.reader?.willEnd(atFrame: end - entry.start)
        }
    }
}

/// Owns the audio encoder of one movie: its `Encoder` (AAC or Opus) and the `AVFrame` samples are
/// handed over in; its stream is borrowed from the `Muxer` it is attached to. It pulls the summed
/// sounds from `PlacedAudio` in the codec's frame size (1024 sample frames for AAC) and writes packets
/// through `Muxer.write(_:from:to:)`.
///
/// Timestamps count sample frames from 0 in the codec's time base 1/sampleRate; the encoder's own
/// delay (`initial_padding`, 1024 for AAC) makes its first packet start at −1024, which the MP4/MOV
/// muxer records as an edit list so players start the sound at exactly time 0.
final class AudioEncoder {
    /// The codec's encoder: its context and packet (owned).
    let encoder: CodecEncoder
    /// Which codec it encodes with.
    let audioCodec: AudioCodec
    /// Rate, channels and bit rate.
    let settings: AudioSettings
    /// The sounds summed into the stream.
    let sources: PlacedAudio
    /// The frame samples are handed to the encoder in (owned).
    private let frame: OwnedFrame
    /// The muxer packets go to, once attached.
    private var muxer: Muxer?
    /// The audio stream, borrowed: owned by the muxer's format context.
    private var borrowedStream: UnsafeMutablePointer<AVStream>?
    /// Sample frames per encoder frame (1024 for AAC, 960 for Opus at 48 kHz).
    let frameSize: Int
    /// Whether the codec takes planar samples (AAC: one plane per channel) rather than interleaved (Opus).
    private let planar: Bool
    /// Whether it takes interleaved 16-bit integers (FLAC, PCM) rather than floats.
    private let integer16: Bool
    /// The sample frames of the next encoder frame, interleaved as sources give them; owned, freed in deinit.
    private let staging: UnsafeMutablePointer<Float>
    private var filled = 0
    /// Sample frames taken from the sources so far.
    private(set) var position: Int64 = 0
    /// Sample frames handed to the encoder so far (the next frame's pts).
    private var sent: Int64 = 0
    /// Where the movie ends once known (`finish`): the last `endFadeFrames` before it fade to silence.
    private var end: Int64?
    /// The fade at the very end, so a sound cut by the movie's end does not click: 10 ms.
    let endFadeFrames: Int64
    /// Added to every frame's pts: the encoder delay, for containers that want it in the timestamps.
    private let timestampOffset: Int64
    /// The true-peak limiter on the summed sound (ceiling −1 dBTP), so several loud sounds never clip.
    /// It delays its input by `limiter.latency` frames; the sum is read that far ahead, so sample
    /// frame n of the output is still movie sample frame n.
    private let limiter: TruePeakLimiter
    /// Whether the limiter's delay line has been filled with the first `latency` frames.
    private var primed = false

    /// Opens the encoder for `settings` (already validated); `globalHeader` when the container keeps
    /// codec headers out of band (MP4, MOV, MKV), which must be set before avcodec_open2 as in mux.c.
    /// `delayInTimestamps`: stamp frames `initial_padding` later, so the first packet is at 0, for a
    /// container that records the delay itself and subtracts it when reading (Opus in Matroska).
    init(codec audioCodec: AudioCodec, settings: AudioSettings, globalHeader: Bool, delayInTimestamps: Bool = false) throws(MovieMakerError) {
        let name = audioCodec.encoderName
        let audioEncoder = try CodecEncoder(name: name, label: "audio")
        self.encoder = audioEncoder
        let encoder = audioEncoder.borrowedCodec
        self.audioCodec = audioCodec
        self.settings = settings
        let c = audioEncoder.context
        // Planar float is what libavcodec's AAC encoder takes; libopus takes interleaved float.
        var formats: [AVSampleFormat] = []
        if var p = encoder.pointee.sample_fmts {
            while p.pointee != AV_SAMPLE_FMT_NONE { formats.append(p.pointee); p += 1 }
        }
        // FLAC and PCM take integers: 16-bit interleaved, rounded from the float mix in `send()`.
        if formats.isEmpty || formats.contains(AV_SAMPLE_FMT_FLTP) {
            c.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        } else if formats.contains(AV_SAMPLE_FMT_FLT) {
            c.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        } else if formats.contains(AV_SAMPLE_FMT_S16) {
            c.pointee.sample_fmt = AV_SAMPLE_FMT_S16
        } else {
            throw .encoderUnavailable(name: "\(name) with float or 16-bit samples")
        }
        planar = c.pointee.sample_fmt == AV_SAMPLE_FMT_FLTP
        integer16 = c.pointee.sample_fmt == AV_SAMPLE_FMT_S16
        c.pointee.sample_rate = Int32(settings.sampleRate)
        guard var layout = AudioSettings.channelLayout(encoder, settings.channelCount) else {
            throw .invalidSetting(.audioChannelCount, value: "\(settings.channelCount)", expected: "a count \(name) takes, e.g. 2")
        }
        defer { av_channel_layout_uninit(&layout) }
        try ffCheck(av_channel_layout_copy(&c.pointee.ch_layout, &layout), "av_channel_layout_copy")
        if !audioCodec.isLossless { c.pointee.bit_rate = Int64(settings.bitRate) }
        c.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        if audioCodec == .aac { c.pointee.profile = FF_PROFILE_AAC_LOW }
        if globalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try audioEncoder.open(options: nil,
                              operation: "avcodec_open2 (\(name) \(settings.sampleRate) Hz, \(settings.channelCount) channels, \(settings.bitRate) b/s)")
        let size = Int(c.pointee.frame_size)
        frameSize = size > 0 ? size : 1024
        frame = try OwnedFrame()
        let f = frame.pointer
        f.pointee.format = c.pointee.sample_fmt.rawValue
        f.pointee.sample_rate = c.pointee.sample_rate
        f.pointee.nb_samples = Int32(frameSize)
        try ffCheck(av_channel_layout_copy(&f.pointee.ch_layout, &c.pointee.ch_layout), "av_channel_layout_copy")
        try ffCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer (\(frameSize) audio samples)")
        staging = .allocate(capacity: frameSize * settings.channelCount)
        staging.initialize(repeating: 0, count: frameSize * settings.channelCount)
        sources = PlacedAudio(format: settings.format, chunk: frameSize)
        endFadeFrames = Int64(settings.sampleRate / 100)
        timestampOffset = delayInTimestamps ? Int64(c.pointee.initial_padding) : 0
        limiter = TruePeakLimiter(Limiter(), format: settings.format)
    }

    /// Adds the audio stream to `muxer` and copies the opened codec's parameters to it, as mux.c does
    /// after avcodec_open2; packets are written to it from then on.
    func attach(to muxer: Muxer) throws(MovieMakerError) {
        let stream = try muxer.addStream(label: "audio")
        try encoder.describe(stream)
        borrowedStream = stream
        self.muxer = muxer
    }

    /// Encodes the summed, limited sounds so that the sum is read up to sample frame `target`
    /// (exclusive; when `finishing`, the output reaches `target` and the sum is read the limiter's
    /// latency beyond it), in whole encoder frames; a partial frame waits for more. Packets go to the
    /// muxer.
    func encode(through target: Int64, finishing: Bool = false) throws(MovieMakerError) {
        let channels = settings.channelCount
        let latency = Int64(limiter.latency)
        let outputTarget = finishing ? target : target - latency
        if !primed && position < outputTarget {
            // Fill the limiter's delay line with the first `latency` frames; what comes out is silence.
            primed = true
            var done: Int64 = 0
            while done < latency {
                let n = Int(min(Int64(frameSize), latency - done))
                try sources.mix(into: staging, position: done, count: n)
                limiter.process(staging, frameCount: n)
                done += Int64(n)
            }
        }
        while position < outputTarget {
            let n = Int(min(Int64(frameSize - filled), outputTarget - position))
            try sources.mix(into: staging + filled * channels, position: position + latency, count: n)
            limiter.process(staging + filled * channels, frameCount: n)
            filled += n
            position += Int64(n)
            if filled == frameSize { try send() }
        }
    }

    /// Encodes the sound up to the start of video frame `index` of a movie at `rate`, less what the
    /// sounds hold back to learn where the movie ends (`PlacedAudio.refresh()`): the step every writer
    /// of a sound track takes after each video frame. A single render, an assembly and a sound track
    /// rendered on its own all step alike, so their packets are the same.
    func encode(throughVideoFrame index: Int, rate: FrameRate) throws(MovieMakerError) {
        let lag = sources.refresh()
        try encode(through: settings.format.frame(at: rate.time(ofFrame: index)) - lag)
    }

    /// `finish(atFrame:)` at the start of video frame `index` of a movie at `rate` (its end when `index`
    /// is the frame count): exact, rounded to the nearest sample frame.
    func finish(atVideoFrame index: Int, rate: FrameRate) throws(MovieMakerError) {
        try finish(atFrame: settings.format.frame(at: rate.time(ofFrame: index)))
    }

    /// Tells the sources where the movie ends (`end` sample frames, the video's exact duration), encodes
    /// up to exactly there (the last frame may be short: AAC and Opus take a small last frame) and
    /// drains the encoder.
    func finish(atFrame end: Int64) throws(MovieMakerError) {
        precondition(position <= end, "audio was read past the movie's end")
        self.end = end
        sources.willEnd(atFrame: end)
        try encode(through: end, finishing: true)
        if filled > 0 { try send() }
        try drain(nil)
    }

    /// Hands the staged `filled` sample frames to the encoder as one frame: clamped to [-1, 1] (a
    /// safety net: the limiter already keeps them under −1 dBTP), faded over the movie's last 10 ms,
    /// and in the codec's sample layout.
    private func send() throws(MovieMakerError) {
        let f = frame.pointer
        // The encoder may still hold a reference to the previous frame's buffers: copy them if so.
        try ffCheck(av_frame_make_writable(f), "av_frame_make_writable (audio)")
        let channels = settings.channelCount, count = filled
        // Clamp in place, then fade the samples that fall in the movie's last 10 ms.
        for i in 0..<(count * channels) { staging[i] = min(max(staging[i], -1), 1) }
        if let end, sent + Int64(count) > end - endFadeFrames {
            for i in max(0, Int(end - endFadeFrames - sent))..<count {
                let gain = Float(max(0, end - (sent + Int64(i)) - 1)) / Float(endFadeFrames)
                for ch in 0..<channels { staging[i * channels + ch] *= gain }
            }
        }
        if planar {
            for ch in 0..<channels {
                let plane = UnsafeMutableRawPointer(f.pointee.extended_data[ch]!).assumingMemoryBound(to: Float.self)
                for i in 0..<count { plane[i] = staging[i * channels + ch] }
            }
        } else if integer16 {
            let samples = UnsafeMutableRawPointer(f.pointee.extended_data[0]!).assumingMemoryBound(to: Int16.self)
            for i in 0..<(count * channels) { samples[i] = Int16((staging[i] * 32767).rounded()) }
        } else {
            UnsafeMutableRawPointer(f.pointee.extended_data[0]!).assumingMemoryBound(to: Float.self).update(from: staging, count: count * channels)
        }
        f.pointee.nb_samples = Int32(count)
        f.pointee.pts = sent + timestampOffset
        sent += Int64(count)
        filled = 0
        try drain(f)
    }

    /// Frees the staging samples.
    deinit { staging.deallocate() }

    /// Sends one frame (nil drains) and writes every packet the encoder has ready to the muxer.
    private func drain(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        guard let stream = borrowedStream, let muxer else { preconditionFailure("audio encoder used before attach(to:)") }
        let timeBase = encoder.timeBase
        try encoder.encode(frame) { (packet) throws(MovieMakerError) in try muxer.write(packet, from: timeBase, to: stream) }
    }
}

internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// What a sound file says about its audio stream, read when it is opened.
struct AudioStreamInfo: Sendable, Hashable {
    /// Codec name, e.g. `mp3`, `aac`, `vorbis`, `opus`, `flac`, `pcm_s16le`.
    var codec: String
    /// The stream's own sample rate.
    var sampleRate: Int
    /// The stream's own channel count.
    var channelCount: Int
    /// How long the real sound lasts (encoder priming and padding excluded), exactly, when known.
    var duration: Time?
}

/// Decodes the best audio stream of a file (an audio file or a video's sound) with libavformat and
/// libavcodec and resamples it with libswresample to `format` (32-bit float, interleaved).
///
/// It is built on `Demuxer` (the input format context and its packet), the library's one `Decoder`
/// loop (codec context and frame; tolerant here: up to 100 packets rejected as invalid data are
/// skipped, so damaged MP3s play on) and an `OwnedResampler`; each owner frees its handle itself.
///
/// Sample frame 0 is the first real sample of the sound: the encoder's priming (AAC's 1024 or 2048
/// samples, MP3's encoder delay plus the decoder's 529, Opus's pre-skip) is removed through the skip
/// side data libavformat attaches to packets (from MP4 edit lists, the LAME/Xing header, Ogg's
/// pre-skip), which libavcodec applies, moving the frame's timestamps with it. Positions are then
/// counted in samples from the first decoded frame's timestamp; after a seek, the first frame's
/// timestamp says which sample it starts at, and samples before the target are decoded and discarded,
/// so a read from any frame is sample-exact. Trailing padding is cut at the stream's exact duration.
///
/// Memory stays constant: it holds at most one decoded frame's worth of resampled sound.
final class AudioDecoder: AudioReader {
    /// The file.
    let url: URL
    /// The format samples come out in.
    let format: AudioFormat
    /// The stream's facts (codec, rate, channels, exact duration).
    private(set) var info: AudioStreamInfo

    /// The open file and the packet reads fill (owned).
    private let demuxer: Demuxer
    /// The audio stream's index in the file.
    private let streamIndex: Int32
    /// The decoder and the frame it decodes into (owned).
    private let decoder: CodecDecoder
    /// The resampler, made for the first decoded frame's format (and remade if that changes) (owned).
    private var resampler: OwnedResampler?
    /// The audio stream, borrowed: owned by the demuxer's format context.
    private let borrowedStream: UnsafeMutablePointer<AVStream>

    /// Timestamp (stream time base) of sample 0: the first decoded frame's, after priming was skipped.
    private var originPTS: Int64 = 0
    /// Timestamp of the stream's first packet (before priming: MP4's is negative), where a rewind goes.
    private var firstPacketPTS: Int64?
    /// Whether `decoder.frame` holds a decoded frame that has not been fed to the resampler yet.
    private var frameIsPending = false
    /// Whether the next decoded frame's position must come from its timestamp (after open or a seek).
    private var positionFromTimestamp = true
    /// The source sample (at the file's own rate) the next decoded frame starts at.
    private var sourcePosition: Int64 = 0
    /// Silence still to be played before the pending frame: the gap before its timestamp.
    private var pendingSilence: Int64 = 0
    /// Samples at the head of the pending frame already played (its timestamp is that far back).
    private var pendingOverlap: Int64 = 0
    /// Source samples before this one are discarded, not resampled (the resampling anchor of a seek).
    private var sourceAnchor: Int64 = 0
    /// The output frame the resampler's next output sample is.
    private var producedPosition: Int64 = 0
    /// Output frames before this one are discarded (the seek target).
    private var outputTarget: Int64 = 0
    /// The output frame `read` delivers next.
    private(set) var position: Int64 = 0
    /// Resampled sound not yet read: frames [producedPosition - available, producedPosition).
    private var output: [Float] = []
    /// Floats of `output` already read.
    private var outputRead = 0
    /// Where the resampler writes before `append` keeps what falls inside the target and the duration.
    private var scratch: [Float] = []
    /// Nothing more will be produced (decoder and resampler drained, or the duration reached).
    private var finished = false
    /// Output frames of real sound (the exact duration), when known.
    private let frameLimit: Int64?

    /// Opens `url`, finds its best audio stream, opens its decoder and decodes the first frame (so a
    /// file that opens but does not decode fails here). `knownInfo` (from an earlier probe of the same
    /// file) saves scanning the file again for its exact duration. Decoding checks `cancellation` once
    /// per decoded frame and throws `.cancelled` once it is cancelled.
    init(url: URL, format: AudioFormat = .standard, knownInfo: AudioStreamInfo? = nil,
         cancellation: CancellationToken? = nil) throws(MovieMakerError) {
        LibraryLog.ensureConfigured()
        let path = url.path
        guard format.sampleRate > 0, format.sampleRate <= 768_000 else {
            throw .invalidSetting(.audioSampleRate, value: "\(format.sampleRate)", expected: "1…768000 frames per second, e.g. 48000")
        }
        guard format.channelCount > 0, format.channelCount <= 16 else {
            throw .invalidSetting(.audioChannelCount, value: "\(format.channelCount)", expected: "1…16, e.g. 2 for stereo")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .audioUnreadable(path: path, reason: "the file does not exist")
        }
        guard !isDirectory.boolValue else { throw .audioUnreadable(path: path, reason: "it is a folder, not a file") }

        let demuxer = try Demuxer(path: path, describe: Self.describe(path: path, codec: nil))
        try demuxer.findStreamInfo()
        guard let index = demuxer.bestStream(AVMEDIA_TYPE_AUDIO) else { throw .noAudioStream(path: path) }
        let stream = demuxer.borrowedStream(index)
        let par = stream.pointee.codecpar!
        let codecName = Self.codecName(par.pointee)
        let decoder = try CodecDecoder(stream: stream, invalidDataLimit: 100, skipsAnyDecodeError: true, cancellation: cancellation,
                                  describe: Self.describe(path: path, codec: codecName))
        let context = decoder.borrowedContext
        let sourceRate = Int(context.pointee.sample_rate > 0 ? context.pointee.sample_rate : par.pointee.sample_rate)
        guard sourceRate > 0 else { throw .audioUnreadable(path: path, reason: "the stream does not say its sample rate") }
        // Checked before anything is decoded or resampled: a header claiming 1 Hz would make the
        // resampler produce 48,000 samples for each one read (gigabytes from a small file).
        guard Self.sampleRates.contains(sourceRate) else {
            throw .audioUnreadable(path: path, reason: "its header says \(sourceRate) samples per second, outside the \(Self.sampleRates.lowerBound)…\(Self.sampleRates.upperBound) Hz MovieMaker reads (a damaged header?)")
        }
        let channels = Int(context.pointee.ch_layout.nb_channels)
        guard channels > 0 else { throw .audioUnreadable(path: path, reason: "the stream does not say how many channels it has") }
        guard channels <= Self.maximumChannels else {
            throw .audioUnreadable(path: path, reason: "its header says \(channels) channels, more than the \(Self.maximumChannels) MovieMaker reads")
        }

        var info = knownInfo ?? AudioStreamInfo(codec: codecName, sampleRate: sourceRate, channelCount: channels, duration: nil)
        if knownInfo == nil {
            info.duration = Self.exactDuration(demuxer, stream, path: path, sampleRate: sourceRate)
        }

        self.url = url
        self.format = format
        self.info = info
        self.demuxer = demuxer
        self.streamIndex = index
        self.decoder = decoder
        self.borrowedStream = stream
        self.frameLimit = info.duration.map { format.frame(at: $0) }

        // Decode the first frame: it proves the stream decodes, and its timestamp is sample 0's.
        guard try receiveFrame() else {
            throw .audioUnreadable(path: path, reason: "no sound could be decoded from its \(codecName) stream")
        }
        let f = decoder.frame
        if knownInfo == nil && f.pointee.sample_rate > 0 && f.pointee.ch_layout.nb_channels > 0 {
            // What the decoder really produces (HE-AAC's SBR doubles the rate the container states).
            self.info.sampleRate = Int(f.pointee.sample_rate)
            self.info.channelCount = Int(f.pointee.ch_layout.nb_channels)
        }
        originPTS = Self.timestamp(of: f) ?? 0
        sourcePosition = 0
        positionFromTimestamp = false
        frameIsPending = true
        // The resampler now, for the first frame: a layout swresample refuses fails here, before the
        // first frame of a render, not minutes into it.
        try prepareResampler(for: f)
    }

    /// How AudioDecoder words a failed demuxing or decoding step: `.audioUnreadable` naming the file,
    /// or `.unsupportedAudioCodec` when FFmpeg has no usable decoder for `codec`.
    private static func describe(path: String, codec: String?) -> MediaReadFailureDescription {
        { failure in
            let codec = codec ?? "an unknown codec"
            switch failure.step {
            case .open, .findStreamInfo:
                // A voice memo or camera clip cut off before its index was written: say so, not "not a file".
                if failure.step == .open, let missing = OpenVideo.missingIndex(path) { return .audioUnreadable(path: path, reason: missing) }
                return .audioUnreadable(path: path, reason: unreadableReason(failure.code))
            case .read:
                return .audioUnreadable(path: path, reason: "reading failed: \(failure.message)")
            case .seek:
                return .audioUnreadable(path: path, reason: "cannot go back to the start (\(failure.message))")
            case .truncated:
                return .audioUnreadable(path: path, reason: "it is truncated: \(failure.truncation)")
            case .noDecoder:
                return .unsupportedAudioCodec(path: path, codec: codec)
            case .openDecoder where failure.code == averrorExperimental:
                return .unsupportedAudioCodec(path: path, codec: "\(codec) (FFmpeg's decoder for it is experimental)")
            case .openDecoder:
                return .audioUnreadable(path: path, reason: "the \(codec) decoder cannot open this stream (\(failure.message))")
            case .send, .receive:
                return .audioUnreadable(path: path, reason: "decoding failed: \(failure.message)")
            case .flush:
                return .audioUnreadable(path: path, reason: "decoding failed at the end: \(failure.message)")
            case .damagedData:
                return .audioUnreadable(path: path, reason: "the \(codec) data is damaged (\(failure.message))")
            case .damagedFrame:
                return .audioUnreadable(path: path, reason: "decoding failed: frame \(failure.frameIndex) decoded with errors")
            }
        }
    }

    // MARK: Reading

    /// Writes the next `frameCount` frames; silence past the sound's end.
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        try readFrames(into: buffer, frameCount: frameCount)
    }

    /// `read(into:frameCount:)` with the typed error; returns how many frames were real sound (the rest is silence).
    @discardableResult
    func readFrames(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws(MovieMakerError) -> Int {
        let channels = format.channelCount
        var written = 0
        var real = 0
        while written < frameCount {
            let available = (output.count - outputRead) / channels
            if available == 0 {
                if finished {
                    (buffer + written * channels).update(repeating: 0, count: (frameCount - written) * channels)
                    position += Int64(frameCount - written)
                    written = frameCount
                    break
                }
                try produce()
                continue
            }
            let take = min(available, frameCount - written)
            output.withUnsafeBufferPointer { src in
                (buffer + written * channels).update(from: src.baseAddress! + outputRead, count: take * channels)
            }
            outputRead += take * channels
            written += take
            real += take
            position += Int64(take)
        }
        if outputRead > 0 && outputRead * 2 >= output.count {
            output.removeFirst(outputRead)
            outputRead = 0
        }
        return real
    }

    /// Moves to the sample frame that plays at `time` (see `seek(toFrame:)`).
    func seek(to time: Time) throws(MovieMakerError) {
        try seek(toFrame: format.frame(at: time))
    }

    /// Moves to output frame `target`: the next read starts exactly there.
    ///
    /// Seeks the demuxer to well before the target (so the decoder has settled, MP3's bit reservoir
    /// and AAC's overlap filled, Opus's pre-roll done), reads the first frame's timestamp to know which
    /// sample it starts at, then decodes and discards up to the target. The resampler restarts at a
    /// source sample that falls exactly on an output sample (a multiple of rate/gcd), so the output
    /// grid is the same as when reading from the start. When the demuxer cannot land early enough,
    /// it decodes from the start.
    func seek(toFrame target: Int64) throws(MovieMakerError) {
        let target = max(target, 0)
        resetPipeline()
        position = target
        outputTarget = target
        if let frameLimit, target >= frameLimit { finished = true; return }
        let srcRate = Int64(info.sampleRate), outRate = Int64(format.sampleRate)
        let g = Int64(gcd(Int(srcRate), Int(outRate)))
        let q = srcRate / g, p = outRate / g
        let sourceTarget = target * srcRate / outRate
        let par = borrowedStream.pointee.codecpar.pointee
        let warmUp = max(Int64(par.seek_preroll), 4 * Int64(max(par.frame_size, 0)), 8192)
        let resamplerMargin: Int64 = 256
        var margin = warmUp + q + 4096 + resamplerMargin * srcRate / outRate
        for _ in 0..<4 {
            let seekSample = sourceTarget - margin
            if seekSample <= 0 { break }
            let tb = borrowedStream.pointee.time_base
            guard tb.num > 0, tb.den > 0 else { break }
            let ts = originPTS + seekSample * Int64(tb.den) / (Int64(tb.num) * srcRate)
            guard (try? demuxer.seek(toTimestamp: ts, stream: streamIndex)) != nil else { break }
            resetPipeline()
            guard try receiveFrame(), let start = sourceIndex(ofFrameTimestamp: Self.timestamp(of: decoder.frame)) else { break }
            let anchor = start <= 0 ? 0 : (start + warmUp + q - 1) / q * q
            if anchor / q * p + (start <= 0 ? 0 : resamplerMargin) <= target {
                sourcePosition = start
                sourceAnchor = anchor
                producedPosition = anchor / q * p
                positionFromTimestamp = false
                frameIsPending = true
                return
            }
            margin *= 4
        }
        resetPipeline()
        try rewindToStart()
    }

    /// Forgets decoded and resampled sound and the decoder's state (before a seek).
    private func resetPipeline() {
        decoder.reset()
        resampler = nil
        output.removeAll(keepingCapacity: true)
        outputRead = 0
        frameIsPending = false
        finished = false
        positionFromTimestamp = true
        pendingSilence = 0
        pendingOverlap = 0
    }

    /// Seeks the demuxer to the stream's first packet; the next frame is positioned by its timestamp
    /// (priming the demuxer does not mark again is then discarded by position).
    private func rewindToStart() throws(MovieMakerError) {
        let st = borrowedStream.pointee
        var ts = min(originPTS, firstPacketPTS ?? 0)
        if st.start_time != mm_av_nopts_value() { ts = min(ts, st.start_time) }
        do {
            try demuxer.seek(toTimestamp: ts, stream: st.index)
        } catch {
            // The demuxer cannot seek by timestamp: go to the first byte (throws "cannot go back to the start").
            try demuxer.seek(toTimestamp: 0, stream: -1, flags: AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_BYTE)
        }
        decoder.reset()
        positionFromTimestamp = true
        sourceAnchor = 0
        producedPosition = 0
    }

    /// How far a frame's timestamp may be from the samples counted before it is followed: 40 ms, under
    /// the 45 ms by which sound ahead of the picture is noticed (ITU-R BT.1359), and about two AAC
    /// packets, well over the few milliseconds phones' timestamps wander.
    ///
    /// Sound is played by counting samples, so timestamps that wander a little (phones stamp each
    /// buffer by their clock) never cut or pad it. A larger gap is silence: packets a phone dropped or
    /// skipped as damaged (each AAC one 21 ms) or a join of copied streams; counted through, the rest of
    /// the clip's sound played that much early, while a seek, which goes by timestamp, put it right. An
    /// overlap as large is dropped.
    private var gapThreshold: Int64 { max(1, Int64(info.sampleRate) / 25) }

    /// Decodes one more frame and resamples it into `output`; at the end, drains the resampler. Before
    /// a frame whose timestamp is `gapThreshold` or more after the samples counted, the gap is played
    /// as silence (a block at a time, so a long gap takes no more memory than a short one).
    private func produce() throws(MovieMakerError) {
        if !frameIsPending {
            guard try receiveFrame() else {
                try flushResampler()
                finished = true
                return
            }
            if !positionFromTimestamp, let stamped = sourceIndex(ofFrameTimestamp: Self.timestamp(of: decoder.frame)) {
                let gap = stamped - sourcePosition
                if gap >= gapThreshold {
                    pendingSilence = gap
                } else if gap <= -gapThreshold {
                    pendingOverlap = min(-gap, Int64(decoder.frame.pointee.nb_samples))
                }
            }
        }
        frameIsPending = false
        let frame = decoder.frame
        if pendingSilence > 0 {
            let count = min(pendingSilence, 8192)
            pendingSilence -= count
            frameIsPending = true
            try playSilence(count, before: frame)
            return
        }
        defer { av_frame_unref(frame) }
        if positionFromTimestamp {
            positionFromTimestamp = false
            // Without a timestamp the demuxer gives no position; only the start can be assumed.
            sourcePosition = sourceIndex(ofFrameTimestamp: Self.timestamp(of: frame)) ?? 0
        }
        let count = Int64(frame.pointee.nb_samples)
        let overlap = pendingOverlap
        pendingOverlap = 0
        let start = sourcePosition - overlap
        sourcePosition = max(sourcePosition, start + count)
        let skip = max(overlap, sourceAnchor - start)
        guard skip < count else { return }
        try prepareResampler(for: frame)
        try convert(frame, skipping: Int(skip))
    }

    /// Plays `count` samples of silence at `sourcePosition`, in the format of `frame` (which follows them).
    private func playSilence(_ count: Int64, before frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        let start = sourcePosition
        sourcePosition += count
        let skip = max(0, sourceAnchor - start)
        guard skip < count else { return }
        try prepareResampler(for: frame)
        guard let resampler else { return }
        let sampleFormat = AVSampleFormat(rawValue: resampler.inputFormat)
        let planar = av_sample_fmt_is_planar(sampleFormat) != 0
        let channels = Int(resampler.inputLayout.nb_channels)
        let samples = Int(count - skip)
        let bytes = Int(av_get_bytes_per_sample(sampleFormat)) * samples * (planar ? 1 : channels)
        // Unsigned 8-bit samples are silent at 128; every other format at 0.
        let unsigned = sampleFormat == AV_SAMPLE_FMT_U8 || sampleFormat == AV_SAMPLE_FMT_U8P
        let silence = [UInt8](repeating: unsigned ? 0x80 : 0, count: bytes)
        try silence.withUnsafeBufferPointer { buffer throws(MovieMakerError) in
            var planes = [UnsafePointer<UInt8>?](repeating: buffer.baseAddress, count: planar ? channels : 1)
            try resample(resampler.pointer, planes: &planes, count: samples)
        }
    }

    /// The source sample index a frame timestamp stands for, relative to sample 0.
    private func sourceIndex(ofFrameTimestamp pts: Int64?) -> Int64? {
        let tb = borrowedStream.pointee.time_base
        guard let pts, tb.num > 0, tb.den > 0 else { return nil }
        let num = (pts - originPTS) * Int64(tb.num) * Int64(info.sampleRate)
        let den = Int64(tb.den)
        // Round to the nearest sample (timestamps in a finer time base than the sample rate, e.g. MP3's).
        let (q, r) = num.quotientAndRemainder(dividingBy: den)
        if 2 * r.magnitude >= UInt64(den) { return q + (num < 0 ? -1 : 1) }
        return q
    }

    /// A decoded frame's timestamp: its pts, else libavcodec's best guess, else nil.
    private static func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        let none = mm_av_nopts_value()
        if frame.pointee.pts != none { return frame.pointee.pts }
        if frame.pointee.best_effort_timestamp != none { return frame.pointee.best_effort_timestamp }
        return nil
    }

    /// Gets the next decoded frame into `decoder.frame`; false when the stream has ended. Reads the
    /// audio stream's packets for the decoder (noting the first packet's timestamp, where a rewind
    /// goes); packets the decoder rejects as invalid data are skipped (damaged MP3s play on), unless
    /// nothing ever decodes.
    private func receiveFrame() throws(MovieMakerError) -> Bool {
        let demuxer = demuxer, index = streamIndex
        let received = try decoder.receiveFrame { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in
            guard let packet = try demuxer.readPacket(ofStream: index) else { return nil }
            if self.firstPacketPTS == nil, packet.pointee.pts != mm_av_nopts_value() { self.firstPacketPTS = packet.pointee.pts }
            return packet
        }
        // Said once, as damaged video is: the sound there is missing, not the render.
        if decoder.rejectedCount > 0 && !warnedDamage {
            warnedDamage = true
            LibraryWarnings.warn("\(url.path): its sound is damaged: the packets that do not decode are skipped, as players do (an undamaged copy of the file avoids it)")
        }
        return received
    }

    // MARK: Resampling

    /// Makes the resampler for `frame`'s format, rate and layout, draining the old one if they changed.
    private func prepareResampler(for frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        do {
            try makeResampler(for: frame)
        } catch where error.code == .ffmpeg {
            // swresample's own words name neither the file nor what was asked of it.
            let layout = frame.pointee.ch_layout.nb_channels
            throw .audioUnreadable(path: url.path, reason: "its \(info.codec) sound (\(layout) channel\(layout == 1 ? "" : "s"), \(frame.pointee.sample_rate) Hz) cannot be converted to \(format.sampleRate) Hz × \(format.channelCount): \(error.message)")
        }
    }

    /// `prepareResampler(for:)` with FFmpeg's errors as FFmpeg words them.
    private func makeResampler(for frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels <= 0 {
            let n = frame.pointee.ch_layout.nb_channels > 0 ? frame.pointee.ch_layout.nb_channels : Int32(info.channelCount)
            av_channel_layout_default(&layout, n)
        } else {
            try ffCheck(av_channel_layout_copy(&layout, &frame.pointee.ch_layout), "av_channel_layout_copy")
        }
        if let current = resampler {
            if current.accepts(format: frame.pointee.format, rate: frame.pointee.sample_rate, layout: &layout) { return }
            // The stream changed format mid-way (rare: e.g. HE-AAC switching): drain, then start anew.
            try flushResampler()
            resampler = nil
        }
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(format.channelCount))
        defer { av_channel_layout_uninit(&outLayout) }
        let conversion = "\(info.codec) → \(format.sampleRate) Hz × \(format.channelCount)"
        let s = try OwnedResampler(from: &layout, format: frame.pointee.format, rate: frame.pointee.sample_rate,
                                   to: &outLayout, format: AV_SAMPLE_FMT_FLT, rate: Int32(format.sampleRate), operation: conversion)
        let inChannels = Int(layout.nb_channels), outChannels = format.channelCount
        if inChannels == 1 && outChannels > 1 {
            // Mono plays at full level on every channel (swresample's default puts it at −3 dB).
            let matrix = [Double](repeating: 1, count: outChannels)
            try ffCheck(swr_set_matrix(s.pointer, matrix, 1), "swr_set_matrix (mono → \(outChannels))")
        } else if inChannels == 2 && outChannels == 1 {
            try ffCheck(swr_set_matrix(s.pointer, [0.5, 0.5], 2), "swr_set_matrix (stereo → mono)")
        }
        // Any other downmix (5.1 → stereo…) keeps swresample's standard matrix unscaled, as the ffmpeg
        // CLI and players apply it: centre and surrounds at −3 dB (ITU-R BS.775), LFE left out. Scaling
        // it so the plain sum cannot clip would put a film's dialogue (its centre) 10.7 dB down. Float
        // samples carry the rare peaks above full scale to the mix, whose true-peak limiter holds them.
        try s.initialise(operation: conversion)
        resampler = s
    }

    /// Resamples `frame` from sample `skip` on and appends the result to `output`.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, skipping skip: Int) throws(MovieMakerError) {
        guard let resampler else { return }
        let count = Int(frame.pointee.nb_samples) - skip
        guard count > 0 else { return }
        let sampleFormat = AVSampleFormat(rawValue: resampler.inputFormat)
        let bytes = Int(av_get_bytes_per_sample(sampleFormat))
        let planar = av_sample_fmt_is_planar(sampleFormat) != 0
        let channels = Int(resampler.inputLayout.nb_channels)
        var planes: [UnsafePointer<UInt8>?] = []
        if planar {
            for c in 0..<channels { planes.append(UnsafePointer(frame.pointee.extended_data[c]! + skip * bytes)) }
        } else {
            planes.append(UnsafePointer(frame.pointee.extended_data[0]! + skip * bytes * channels))
        }
        try resample(resampler.pointer, planes: &planes, count: count)
    }

    /// Drains what the resampler still holds (its filter delay) at the end of the stream.
    private func flushResampler() throws(MovieMakerError) {
        guard let resampler else { return }
        var none: [UnsafePointer<UInt8>?] = []
        try resample(resampler.pointer, planes: &none, count: 0)
    }

    /// Runs `count` input sample frames from `planes` (none: drain) through the resampler `s` (borrowed
    /// from `resampler`) into `scratch` and appends them.
    private func resample(_ s: OpaquePointer, planes: inout [UnsafePointer<UInt8>?], count: Int) throws(MovieMakerError) {
        let channels = format.channelCount
        let capacity = Int(swr_get_out_samples(s, Int32(count))) + 32
        guard capacity > 0 else { return }
        if scratch.count < capacity * channels { scratch = [Float](repeating: 0, count: capacity * channels) }
        let produced: Int32 = scratch.withUnsafeMutableBufferPointer { out in
            out.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: capacity * channels * 4) { bytes in
                var outPlanes: [UnsafeMutablePointer<UInt8>?] = [bytes]
                if count == 0 { return swr_convert(s, &outPlanes, Int32(capacity), nil, 0) }
                return swr_convert(s, &outPlanes, Int32(capacity), &planes, Int32(count))
            }
        }
        guard produced >= 0 else {
            throw .ffmpeg(operation: "swr_convert (\(url.path): \(info.codec) → \(format.sampleRate) Hz)", code: produced, message: ffmpegMessage(produced))
        }
        append(Int(produced))
    }

    /// Appends the first `frames` frames of `scratch` to `output`, dropping frames before the seek
    /// target and after the exact duration.
    private func append(_ frames: Int) {
        let channels = format.channelCount
        let first = producedPosition
        producedPosition += Int64(frames)
        var lo = Int64(0), hi = Int64(frames)
        if first < outputTarget { lo = min(hi, outputTarget - first) }
        if let frameLimit {
            hi = max(lo, min(hi, frameLimit - first))
            if producedPosition >= frameLimit { finished = true }
        }
        guard hi > lo else { return }
        let start = output.count
        scratch.withUnsafeBufferPointer { src in
            output.append(contentsOf: UnsafeBufferPointer(start: src.baseAddress! + Int(lo) * channels, count: Int(hi - lo) * channels))
        }
        // A damaged or hand-made float file can hold NaN or infinite samples, which would poison the mix
        // and make the AAC encoder refuse the frame: they are played as silence, with one warning per file.
        var replaced = 0
        output.withUnsafeMutableBufferPointer { samples in
            for i in start..<samples.count where !samples[i].isFinite {
                samples[i] = 0
                replaced += 1
            }
        }
        if replaced > 0 && !warnedNonFinite {
            warnedNonFinite = true
            LibraryWarnings.warn("\(url.path) holds samples that are not numbers (NaN or infinite): they are played as silence")
        }
    }

    /// The sample rates a file may declare: 8 kHz (telephone) to 384 kHz (studio).
    static let sampleRates = 8_000...384_000
    /// The most channels a file may declare (22.2 sound has 24).
    static let maximumChannels = 64

    /// Whether the warning about non-finite samples was given (once per reader).
    private var warnedNonFinite = false
    /// Whether the warning about damaged sound was given (once per decoder).
    private var warnedDamage = false

    // MARK: Probing

    /// The codec's name, or its container tag when FFmpeg has no codec for it.
    private static func codecName(_ par: AVCodecParameters) -> String {
        if par.codec_id == AV_CODEC_ID_NONE {
            let tag = par.codec_tag
            return tag == 0 ? "an unknown codec" : "an unknown codec (tag 0x\(String(tag, radix: 16)))"
        }
        return avcodec_get_name(par.codec_id).map { String(cString: $0) } ?? "an unknown codec"
    }

    /// A reason for a file FFmpeg cannot open as media.
    private static func unreadableReason(_ code: Int32) -> String {
        if code == averrorInvalidData || code == mm_averror(EINVAL) {
            return "it is not a sound or video file FFmpeg recognises (\(ffmpegMessage(code)))"
        }
        if code == mm_averror(EACCES) { return "permission denied (\(ffmpegMessage(code)))" }
        return ffmpegMessage(code)
    }

    /// The exact length of the real sound. MP4/MOV (edit lists), FLAC, WAV… state it; MP3 and Ogg
    /// state the length with priming and padding included, so for them (and when nothing is stated)
    /// the packets are scanned, without decoding, through a second opening of the file, summing their
    /// durations minus the samples their skip side data tells the decoder to drop.
    private static func exactDuration(_ demuxer: Demuxer, _ stream: UnsafeMutablePointer<AVStream>,
                                      path: String, sampleRate: Int) -> Time? {
        let fc = demuxer.borrowedContext
        let none = mm_av_nopts_value()
        let tb = stream.pointee.time_base
        var stated: Time? = nil
        if stream.pointee.duration != none && stream.pointee.duration > 0 && tb.num > 0 && tb.den > 0 {
            stated = Time(value: stream.pointee.duration * Int64(tb.num), timescale: Int64(tb.den))
        } else if fc.pointee.duration != none && fc.pointee.duration > 0 {
            stated = Time(value: fc.pointee.duration, timescale: Int64(AV_TIME_BASE))
        }
        let names = demuxer.formatName.split(separator: ",")
        guard stated == nil || names.contains("mp3") || names.contains("ogg") || names.contains("aac") else { return stated }
        guard let scanned = scannedDuration(path: path, streamIndex: stream.pointee.index, sampleRate: sampleRate,
                                            ogg: names.contains("ogg")) else { return stated }
        if let stated { return Time.min(stated, scanned) }
        return scanned
    }

    /// The length of the stream's real sound from its packets, read without decoding; nil when a packet
    /// has no duration or the file cannot be read to its end. Ogg timestamps count real samples from 0
    /// (granule positions; the last packet's duration is already trimmed), so there it is the last
    /// packet's end; elsewhere (MP3, raw AAC) it is the sum of the durations minus the samples the skip
    /// side data tells the decoder to drop at the start and the end.
    private static func scannedDuration(path: String, streamIndex: Int32, sampleRate: Int, ogg: Bool) -> Time? {
        guard let demuxer = try? Demuxer(path: path), (try? demuxer.findStreamInfo()) != nil,
              streamIndex < Int32(demuxer.streamCount) else { return nil }
        let stream = demuxer.borrowedStream(streamIndex)
        let tb = stream.pointee.time_base
        let none = mm_av_nopts_value()
        var ticks: Int64 = 0
        var end = Int64.min
        var skipped: Int64 = 0
        while true {
            let read: UnsafeMutablePointer<AVPacket>?
            do { read = try demuxer.readPacket(ofStream: streamIndex) } catch { return nil }
            guard let packet = read else { break }
            if packet.pointee.duration <= 0 { return nil }
            ticks += packet.pointee.duration
            if packet.pointee.pts != none { end = max(end, packet.pointee.pts + packet.pointee.duration) }
            var size: Int = 0
            if let side = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
                func le32(_ o: Int) -> Int64 {
                    var value: UInt32 = 0
                    for k in 0..<4 { value |= UInt32(side[o + k]) << UInt32(8 * k) }
                    return Int64(value)
                }
                skipped += le32(0) + le32(4)
            }
        }
        guard ticks > 0, tb.num > 0, tb.den > 0 else { return nil }
        func samples(_ t: Int64) -> Int64 {
            let num = t * Int64(tb.num) * Int64(sampleRate)
            return (num + Int64(tb.den) / 2) / Int64(tb.den)
        }
        let count: Int64
        if ogg {
            guard end != Int64.min else { return nil }
            let start = stream.pointee.start_time != none ? max(stream.pointee.start_time, 0) : 0
            count = samples(end - start)
        } else {
            count = samples(ticks) - skipped
        }
        guard count > 0 else { return nil }
        return Time(value: count, timescale: Int64(sampleRate))
    }
}

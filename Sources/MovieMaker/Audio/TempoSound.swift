internal import CFFmpeg
import Foundation

/// A sound played faster or slower: `source` at `speed` (1/4× to 4×).
///
/// With `speed.keepsPitch` (the default) the sound is time-stretched with libavfilter's `atempo`, so a
/// voice at 2× speaks twice as fast in its own voice; atempo takes 0.5 to 100 per stage, so speeds
/// below 1/2 chain stages (1/4 is two stages of 0.5). Without it the pitch follows the speed, as a tape
/// played faster does: 2× is an octave higher (the samples are resampled by the ratio, `asetrate` and
/// `aresample`, band-limited so nothing aliases).
///
/// It lasts `source.duration / speed` exactly (`speed.outputTime(at:)`), and its reader delivers
/// exactly that many sample frames: the filter's own tail is cut or padded with silence to the sample.
/// With the pitch following, source frame n plays at output frame n / speed (to a sample or two, the
/// resampler's precision). atempo places each window of sound (2048 frames at 48 kHz) where it best
/// continues the previous one, up to half a window either way, so a sound may come out up to about
/// 20 ms of source time early or late, and the last few milliseconds of the output may be silence.
/// Readers stream in constant memory (the source is read in blocks of 4096 frames). It can start
/// part-way: output frame F opens the source at frame F × speed (seeking when the source can).
///
/// <!-- prelude: let voice = try AudioFile(url: URL(fileURLWithPath: "voice.m4a")) -->
/// ```swift
/// let fast = TempoSound(try AudioFile(path: "voice.m4a"), speed: Speed(2))
/// let chipmunk = TempoSound(voice, speed: Speed(2, keepsPitch: false))
/// ```
public struct TempoSound: AudioSource {
    /// The sound being played faster or slower.
    public let source: any AudioSource
    /// How fast: source time per output time (2 plays twice as fast), and whether the pitch is kept.
    public let speed: Speed

    /// `source` played at `speed`. Speeds outside 1/4…4 (`Speed.minimum`…`Speed.maximum`) are refused
    /// when a reader is made, with `.invalidSetting(.audioSpeed, …)`.
    public init(_ source: any AudioSource, speed: Speed) {
        self.source = source
        self.speed = speed
    }

    /// The source's duration divided by the speed, exactly; nil when the source's is unknown.
    public var duration: Time? { source.duration.map { speed.outputTime(at: $0) } }

    /// The source's end fade, in output time (it lasts 1/speed as long).
    public var endFadeDuration: Time { speed.outputTime(at: source.endFadeDuration) }

    /// Opens the source and the filter graph for one render in `format`.
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try makeReader(format: format, startingAtFrame: 0)
    }

    /// Throws `.invalidSetting(.audioSpeed, …)` unless the speed is within 1/4…4.
    func validate() throws(MovieMakerError) {
        guard speed.isSupported else {
            throw .invalidSetting(.audioSpeed, value: "\(speed)",
                                  expected: "a speed from 1/4× to 4× (Speed.minimum…Speed.maximum), e.g. Speed(2) or Speed(0.5)")
        }
    }

    /// The libavfilter chain that plays sound at `sampleRate` at `speed`: atempo stages (each 0.5…100)
    /// when the pitch is kept, else the samples relabelled at rate × numerator, resampled to rate ×
    /// denominator and relabelled at rate (a resampling by numerator/denominator).
    static func filterDescription(speed: Speed, sampleRate: Int) -> String {
        if speed.numerator == speed.denominator { return "anull" }
        if speed.keepsPitch {
            var stages: [String] = []
            var rest = speed.factor
            while rest < 0.5 {
                stages.append("atempo=0.5")
                rest *= 2
            }
            stages.append("atempo=\(rest)")
            return stages.joined(separator: ",")
        }
        // The rates are ints in libavfilter: reduce the ratio when rate × numerator would not fit.
        var p = speed.numerator, q = speed.denominator
        let limit = Int64(Int32.max) / Int64(sampleRate)
        if p > limit || q > limit {
            var n: Int32 = 0, d: Int32 = 0
            av_reduce(&n, &d, p, q, limit)
            p = Int64(n); q = Int64(d)
        }
        let rate = Int64(sampleRate)
        return "asetrate=\(rate * p),aresample=\(rate * q),asetrate=\(rate)"
    }

    /// `frame × speed`, rounded to the nearest frame (half up), without overflowing.
    static func sourceFrame(ofOutputFrame frame: Int64, speed: Speed) -> Int64 {
        // In 128 bits: a speed read from a description may have terms near 2^63, so even 2 × numerator overflows 64.
        let (twice, o1) = Int128(frame).multipliedReportingOverflow(by: 2 * Int128(speed.numerator))
        let (sum, o2) = twice.addingReportingOverflow(Int128(speed.denominator))
        if o1 || o2 { return Int64((Double(frame) * speed.factor).rounded()) }
        return Int64(clamping: sum / (2 * Int128(speed.denominator)))
    }
}

extension TempoSound: SeekableAudioSource {
    /// Opens the sound with its first sample at output frame `frame`: the source is opened at
    /// `frame × speed` (rounded to the nearest frame).
    func makeReader(format: AudioFormat, startingAtFrame frame: Int64) throws -> any AudioReader {
        try validate()
        try format.validateForMixing()
        let start = max(frame, 0)
        if speed.numerator == speed.denominator { return try source.makeReader(format: format, from: start) }
        let outputLength = duration.map { format.frame(at: $0) }
        if let outputLength, start >= outputLength {
            return try ProceduralSound.silence.makeReader(format: format)
        }
        let sourceStart = Self.sourceFrame(ofOutputFrame: start, speed: speed)
        let sourceLength = source.duration.map { format.frame(at: $0) }
        return try TempoSoundReader(
            inner: try source.makeReader(format: format, from: sourceStart), format: format, speed: speed,
            firstOutputFrame: start, firstSourceFrame: sourceStart,
            outputFrames: outputLength.map { $0 - start }, sourceFrames: sourceLength.map { max(0, $0 - sourceStart) })
    }
}

/// Reads a `TempoSound`: source blocks go into a `FilterGraph` (abuffer → atempo or resampling →
/// abuffersink, packed float at the movie's rate and channels), filtered frames come out into a
/// pending buffer that holds at most one of them; the output is cut or padded to its exact length.
final class TempoSoundReader: AudioReader {
    let format: AudioFormat
    /// The source's reader, from `firstSourceFrame`.
    private let inner: any AudioReader
    private let graph: FilterGraph
    private let speed: Speed
    /// The output frame this reader started at, and the source frame it opened the source at.
    private let firstOutputFrame: Int64, firstSourceFrame: Int64
    /// Output frames still to deliver before silence (nil: endless).
    private var outputLeft: Int64?
    /// Source frames still to send into the graph (nil: endless).
    private var sourceLeft: Int64?
    /// Frames of silence still to send after the source's end, before the end of the input: atempo
    /// drops its last partial window when flushed, so the source's last samples come out only when
    /// something follows them (what comes out of the silence is cut at the exact length).
    private var tailPaddingLeft: Int64
    /// The timestamp (in source frames) of the next block sent.
    private var nextTimestamp: Int64 = 0
    /// The block sent into the graph (new buffers for each block: the graph keeps references).
    private let block: OwnedFrame
    /// The frame received from the graph.
    private let filtered: OwnedFrame
    /// Filtered samples not delivered yet (interleaved), from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    /// Whether the graph has delivered everything (the end of the input was sent and drained).
    private var graphEnded = false
    /// Source frames per block sent into the graph.
    static let blockFrames: Int64 = 4096

    init(inner: any AudioReader, format: AudioFormat, speed: Speed, firstOutputFrame: Int64, firstSourceFrame: Int64,
         outputFrames: Int64?, sourceFrames: Int64?) throws(MovieMakerError) {
        self.inner = inner
        self.format = format
        self.speed = speed
        self.firstOutputFrame = firstOutputFrame
        self.firstSourceFrame = firstSourceFrame
        outputLeft = outputFrames
        sourceLeft = sourceFrames
        tailPaddingLeft = Int64(format.sampleRate / 10)
        let rate = Int32(format.sampleRate), channels = Int32(format.channelCount)
        graph = try FilterGraph(
            input: .audio(sampleRate: rate, sampleFormat: AV_SAMPLE_FMT_FLT, channelCount: channels, timeBase: AVRational(num: 1, den: rate)),
            filters: TempoSound.filterDescription(speed: speed, sampleRate: format.sampleRate),
            output: .audio(sampleRate: rate, sampleFormat: AV_SAMPLE_FMT_FLT, channelCount: channels),
            threads: 1)
        block = try OwnedFrame()
        filtered = try OwnedFrame()
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount
        var done = 0
        while done < frameCount {
            var want = frameCount - done
            if let left = outputLeft { want = Int(min(Int64(want), left)) }
            if want == 0 {
                // Past the end: silence.
                (buffer + done * channels).update(repeating: 0, count: (frameCount - done) * channels)
                return
            }
            let available = (pending.count - pendingStart) / channels
            if available > 0 {
                let n = min(want, available)
                pending.withUnsafeBufferPointer { p in
                    (buffer + done * channels).update(from: p.baseAddress! + pendingStart, count: n * channels)
                }
                pendingStart += n * channels
                if pendingStart == pending.count { pending.removeAll(keepingCapacity: true); pendingStart = 0 }
                advance(by: n, &done)
            } else if graphEnded {
                // The filter's output came out short of the exact length: pad with silence.
                (buffer + done * channels).update(repeating: 0, count: want * channels)
                advance(by: want, &done)
            } else {
                try pump()
            }
        }
    }

    /// Counts `n` frames delivered.
    private func advance(by n: Int, _ done: inout Int) {
        done += n
        if let left = outputLeft { outputLeft = left - Int64(n) }
    }

    /// Takes one filtered frame into `pending`, or sends the graph the next source block (or the end
    /// of the input) when it needs one.
    private func pump() throws {
        switch try graph.receive(into: filtered) {
        case .frame:
            let f = filtered.pointer.pointee
            let count = Int(f.nb_samples) * format.channelCount
            guard count > 0, let data = f.data.0 else { return }
            let samples = UnsafeRawPointer(data).assumingMemoryBound(to: Float.self)
            pending.append(contentsOf: UnsafeBufferPointer(start: samples, count: count))
        case .needsInput:
            if graph.inputEnded { graphEnded = true } else { try sendBlock() }
        case .ended:
            graphEnded = true
        }
    }

    /// Reads the next block of the source into new buffers and sends it; after the source's end, sends
    /// 100 ms of silence (`tailPaddingLeft`), then the end of the input so the graph gives its tail.
    private func sendBlock() throws {
        let fromSource = sourceLeft.map { min($0, Self.blockFrames) } ?? Self.blockFrames
        let n = fromSource > 0 ? fromSource : min(tailPaddingLeft, Self.blockFrames)
        guard n > 0 else { try graph.send(nil); return }
        let frame = block.pointer
        av_frame_unref(frame)
        frame.pointee.nb_samples = Int32(n)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = Int32(format.sampleRate)
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(format.channelCount))
        frame.pointee.pts = nextTimestamp
        try ffCheck(av_frame_get_buffer(frame, 0), "av_frame_get_buffer (\(n) sound frames)")
        guard let data = frame.pointee.data.0 else {
            throw MovieMakerError.ffmpeg(operation: "av_frame_get_buffer", code: averrorENOMEM, message: "no sample buffer")
        }
        let samples = UnsafeMutableRawPointer(data).assumingMemoryBound(to: Float.self)
        if fromSource > 0 {
            try inner.read(into: samples, frameCount: Int(n))
            if let left = sourceLeft { sourceLeft = left - n }
        } else {
            samples.update(repeating: 0, count: Int(n) * format.channelCount)
            tailPaddingLeft -= n
        }
        try graph.send(frame)
        nextTimestamp += n
    }

    /// Tells the source where the movie ends, in its own frames (the output frame × speed).
    func willEnd(atFrame frame: Int64) {
        inner.willEnd(atFrame: TempoSound.sourceFrame(ofOutputFrame: firstOutputFrame + frame, speed: speed) - firstSourceFrame)
    }
}

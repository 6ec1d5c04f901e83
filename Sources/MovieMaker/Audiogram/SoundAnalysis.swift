import Foundation
import Synchronization

/// The sound an audiogram leaf draws, from its time `start`. A reference type so copies of a clip share
/// it: a render reads each signal once (`RenderSession.audiograms`).
final class SoundSignal: Sendable {
    /// The sound.
    let sound: any AudioSource
    /// Where in the sound the leaf's time 0 is.
    let start: Time
    /// How much of the sound before `start` the pictures need (the FFT's half window, the smoothing):
    /// it is read too, so the first frames of a clip cut from the middle of a sound show that sound,
    /// not a silence before it.
    let lead: Time
    /// The analysis used when the leaf is drawn outside any render, made on first use and kept while
    /// the clip lives.
    private let standalone = Mutex<SoundAnalysis?>(nil)

    init(sound: any AudioSource, start: Time, lookBack: Time) {
        self.sound = sound; self.start = start
        lead = Time.min(start, lookBack)
    }

    /// The analysis for drawing outside a render.
    func standaloneAnalysis() throws(MovieMakerError) -> SoundAnalysis {
        if let a = standalone.withLock({ $0 }) { return a }
        let a = try SoundAnalysis(self)
        return standalone.withLock { stored in
            if let existing = stored { return existing }
            stored = a
            return a
        }
    }
}

/// One render's reading of a sound for audiograms: its samples (48 kHz mono) read in order from the
/// signal's start, kept in a few blocks, and what the pictures need from them: spectra, levels and
/// waveforms at sample positions. Every value is a function of the samples alone, whichever thread
/// asks and in whatever order, so frames are the same in every render; one lock serialises it (an
/// analysis costs tens of microseconds).
final class SoundAnalysis: @unchecked Sendable {
    // @unchecked: every mutable property is touched only under `lock`.
    /// The format the sound is read in.
    static let format = AudioFormat(sampleRate: 48_000, channelCount: 1)
    /// The FFT's length: 4096 samples (85 ms, 11.7 Hz per bin).
    static let fftLength = 4096
    /// The samples a waveform shows: 2048 (43 ms) around the frame's middle.
    static let waveformLength = 2048
    /// Samples per block read.
    static let blockLength = 16_384
    /// Blocks kept (about 11 s): frames drawn a little out of order find their samples.
    static let keptBlocks = 32

    private let lock = NSLock()
    private let signal: SoundSignal
    /// The reader's first sample's index in the leaf's time (zero or below: `signal.lead` earlier).
    private let origin: Int64
    /// The reader (its only owner), positioned at the start of block `nextBlock`.
    private var reader: any AudioReader
    private var nextBlock: Int64 = 0
    /// The blocks kept, by index, and their order of use (the last is the newest).
    private var blocks: [Int64: [Float]] = [:]
    private var blockUse: [Int64] = []
    private let fft: OwnedRealFFT
    private let window: [Float]
    private var fftInput: [Float]
    private var fftOutput: [Float]
    /// Raw spectra (band values) by centre sample, and raw levels by the frame's first sample.
    private var spectra: [Int64: [Float]] = [:]
    private var spectrumUse: [Int64] = []
    private var levels: [Int64: Float] = [:]
    private var levelUse: [Int64] = []
    /// The bands the cached spectra were made for (they are dropped when another layout asks).
    private var bandLayout: BandLayout?

    /// Opens the sound for reading (a missing or broken file throws now, before any frame).
    init(_ signal: SoundSignal) throws(MovieMakerError) {
        self.signal = signal
        origin = -Self.format.frame(at: signal.lead)
        reader = try Self.openReader(signal)
        fft = try OwnedRealFFT(length: Self.fftLength)
        // A Hann window.
        let n = Self.fftLength
        window = (0..<n).map { i in Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n))) }
        fftInput = [Float](repeating: 0, count: n)
        fftOutput = [Float](repeating: 0, count: n + 2)
    }

    private static func openReader(_ signal: SoundSignal) throws(MovieMakerError) -> any AudioReader {
        var clip = AudioClip(signal.sound)
        if signal.start > signal.lead { clip.trim(from: signal.start - signal.lead) }
        do { return try clip.makeReader(format: format) } catch let error as MovieMakerError {
            throw error
        } catch {
            throw MovieMakerError.audioUnreadable(path: "the audiogram's sound", reason: "\(error)")
        }
    }

    // MARK: Samples

    /// The block `b`: read now if it is not kept (reading on from where the reader is, or from the
    /// start again for a block behind it).
    private func block(_ b: Int64) throws(MovieMakerError) -> [Float] {
        if let kept = blocks[b] {
            if blockUse.last != b { blockUse.removeAll { $0 == b }; blockUse.append(b) }
            return kept
        }
        if b < nextBlock {
            reader = try Self.openReader(signal)
            nextBlock = 0
        }
        var samples = [Float](repeating: 0, count: Self.blockLength)
        while nextBlock <= b {
            do {
                try samples.withUnsafeMutableBufferPointer { p in try reader.read(into: p.baseAddress!, frameCount: Self.blockLength) }
            } catch let error as MovieMakerError { throw error } catch {
                throw MovieMakerError.audioUnreadable(path: "the audiogram's sound", reason: "\(error)")
            }
            // Blocks far behind the one asked for are not kept.
            if nextBlock > b - Int64(Self.keptBlocks) {
                blocks[nextBlock] = samples
                blockUse.append(nextBlock)
                if blockUse.count > Self.keptBlocks { blocks[blockUse.removeFirst()] = nil }
            }
            nextBlock += 1
        }
        return blocks[b] ?? samples
    }

    /// Copies samples `first ..< first + count` (in the leaf's time) into `out` (zeros before the sound).
    private func samples(from first: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws(MovieMakerError) {
        var i = 0
        while i < count {
            let position = first + Int64(i) - origin
            if position < 0 {
                let n = Int(min(Int64(count - i), -position))
                out.advanced(by: i).update(repeating: 0, count: n)
                i += n
                continue
            }
            let b = position / Int64(Self.blockLength)
            let offset = Int(position - b * Int64(Self.blockLength))
            let n = min(count - i, Self.blockLength - offset)
            let data = try block(b)
            data.withUnsafeBufferPointer { p in out.advanced(by: i).update(from: p.baseAddress! + offset, count: n) }
            i += n
        }
    }

    // MARK: Values

    /// The bands of a spectrum: their edges in FFT bins.
    struct BandLayout: Equatable {
        /// Each band's lowest and highest bin (inclusive), or, for a band narrower than a bin, its centre as a fractional bin.
        var bands: [(low: Int, high: Int, centre: Double)]
        /// The level (dBFS) drawn with no height.
        var floor: Double

        init(count: Int, frequencies: ClosedRange<Double>, floor: Double) {
            let binHz = Double(SoundAnalysis.format.sampleRate) / Double(SoundAnalysis.fftLength)
            let ratio = frequencies.upperBound / frequencies.lowerBound
            bands = (0..<count).map { i in
                let lo = frequencies.lowerBound * pow(ratio, Double(i) / Double(count))
                let hi = frequencies.lowerBound * pow(ratio, Double(i + 1) / Double(count))
                return (Int((lo / binHz).rounded(.up)), Int((hi / binHz).rounded(.up)) - 1, (lo * hi).squareRoot() / binHz)
            }
            self.floor = floor
        }

        static func == (a: BandLayout, b: BandLayout) -> Bool {
            a.floor == b.floor && a.bands.count == b.bands.count
                && zip(a.bands, b.bands).allSatisfy { $0.low == $1.low && $0.high == $1.high && $0.centre == $1.centre }
        }
    }

    /// `decibels` as a height from 0 (at or below `floor`) to 1 (0 dBFS).
    static func height(decibels: Double, floor: Double) -> Float {
        Float(min(1, max(0, (decibels - floor) / -floor)))
    }

    /// The spectrum's band heights around sample `centre` (see `AudioVisualizer`).
    func spectrum(centre: Int64, layout: BandLayout) throws(MovieMakerError) -> [Float] {
        lock.lock()
        defer { lock.unlock() }
        do {
            if bandLayout != layout { bandLayout = layout; spectra.removeAll(); spectrumUse.removeAll() }
            if let kept = spectra[centre] { return kept }
            let n = Self.fftLength
            try fftInput.withUnsafeMutableBufferPointer { (p) throws(MovieMakerError) in
                try samples(from: centre - Int64(n / 2), count: n, into: p.baseAddress!)
            }
            for i in 0..<n { fftInput[i] *= window[i] }
            fftInput.withUnsafeMutableBufferPointer { input in
                fftOutput.withUnsafeMutableBufferPointer { output in fft.forward(input.baseAddress!, into: output.baseAddress!) }
            }
            // A sine of amplitude A gives a peak of A·n/4 through a Hann window: that is 0 dB.
            let reference = Double(n) / 4
            func magnitude(_ k: Int) -> Double {
                let re = Double(fftOutput[2 * k]), im = Double(fftOutput[2 * k + 1])
                return (re * re + im * im).squareRoot()
            }
            let values: [Float] = layout.bands.map { band in
                var m = 0.0
                if band.high >= band.low {
                    for k in band.low...min(band.high, n / 2) { m = max(m, magnitude(k)) }
                } else {
                    let k = min(band.centre, Double(n / 2 - 1))
                    let k0 = Int(k), f = k - Double(k0)
                    m = magnitude(k0) * (1 - f) + magnitude(k0 + 1) * f
                }
                return Self.height(decibels: 20 * log10(max(m / reference, 1e-12)), floor: layout.floor)
            }
            spectra[centre] = values
            spectrumUse.append(centre)
            if spectrumUse.count > 512 { spectra[spectrumUse.removeFirst()] = nil }
            return values
        }
    }

    /// The height of the loudest sample in `first ..< end` (see `AudioVisualizer`).
    func level(from first: Int64, to end: Int64, floor: Double) throws(MovieMakerError) -> Float {
        lock.lock()
        defer { lock.unlock() }
        do {
            if let kept = levels[first] { return kept }
            let count = Int(max(1, end - first))
            var buffer = [Float](repeating: 0, count: count)
            try buffer.withUnsafeMutableBufferPointer { (p) throws(MovieMakerError) in try samples(from: first, count: count, into: p.baseAddress!) }
            let peak = buffer.reduce(Float(0)) { max($0, abs($1)) }
            let value = Self.height(decibels: 20 * log10(max(Double(peak), 1e-12)), floor: floor)
            levels[first] = value
            levelUse.append(first)
            if levelUse.count > 512 { levels[levelUse.removeFirst()] = nil }
            return value
        }
    }

    /// The `count` buckets of the samples around `centre`: each its loudest sample, with its sign.
    func waveform(centre: Int64, count: Int) throws(MovieMakerError) -> [Float] {
        lock.lock()
        defer { lock.unlock() }
        do {
            let n = Self.waveformLength
            var buffer = [Float](repeating: 0, count: n)
            try buffer.withUnsafeMutableBufferPointer { (p) throws(MovieMakerError) in try samples(from: centre - Int64(n / 2), count: n, into: p.baseAddress!) }
            return (0..<count).map { k in
                let lo = k * n / count, hi = max(lo + 1, (k + 1) * n / count)
                var best: Float = 0
                for i in lo..<hi where abs(buffer[i]) > abs(best) { best = buffer[i] }
                return max(-1, min(1, best))
            }
        }
    }
}

extension Clip {
    /// The signal of every audiogram leaf in the tree.
    var soundSignals: [SoundSignal] {
        generatorSources { if case let .audiogram(leaf) = $0 { leaf.signal } else { nil } }
    }
}

extension RenderSession {
    /// The analysis of an audiogram's sound: the session's (opened when it opened), or, outside any
    /// render, the clip's own.
    func soundAnalysis(for signal: SoundSignal) throws(MovieMakerError) -> SoundAnalysis {
        if isStandalone { return try signal.standaloneAnalysis() }
        return try audiograms.value(for: signal)
    }
}

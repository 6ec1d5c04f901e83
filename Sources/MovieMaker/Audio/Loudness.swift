import Foundation

// Loudness and true peak per ITU-R BS.1770-4 (and EBU R128 / Tech 3341–3342 for momentary, short-term
// and loudness range): K-weighting, 400 ms gating blocks with 75 % overlap, an absolute gate at −70 LUFS
// and a relative gate 10 LU below the ungated mean, and true peak by 4× polyphase oversampling (Annex 2).

/// The two filters of BS.1770's K-weighting for any sample rate.
enum KWeighting {
    /// A second-order IIR section (direct form II transposed), in double precision.
    struct Biquad: Sendable, Hashable {
        /// Feed-forward coefficients.
        var b0, b1, b2: Double
        /// Feedback coefficients (a0 is 1).
        var a1, a2: Double
    }

    /// Stage 1, the head's acoustic effect: a high shelf of about +4 dB above 1.5 kHz; and stage 2, the
    /// revised low-frequency B-curve: a high-pass at about 38 Hz. The coefficients come from the analog
    /// prototypes (centre frequency, gain, Q) fitted to the spec's 48 kHz table, through the bilinear
    /// transform, so 48 kHz gives the table's values and other rates get the same response.
    static func filters(sampleRate: Int) -> (shelf: Biquad, highPass: Biquad) {
        let rate = Double(sampleRate)
        // Stage 1: high shelf.
        var f0 = 1681.974450955533
        let gain = 3.999843853973347
        var q = 0.7071752369554196
        var k = tan(Double.pi * f0 / rate)
        let vh = pow(10, gain / 20)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        let shelf = Biquad(b0: (vh + vb * k / q + k * k) / a0,
                           b1: 2 * (k * k - vh) / a0,
                           b2: (vh - vb * k / q + k * k) / a0,
                           a1: 2 * (k * k - 1) / a0,
                           a2: (1 - k / q + k * k) / a0)
        // Stage 2: high-pass. The spec's 48 kHz table keeps b = (1, −2, 1) unnormalised, which leaves a
        // passband gain of a0 (+0.043 dB at 48 kHz; the −0.691 offset assumes it). Other rates get the
        // same passband gain as 48 kHz: b = (1, −2, 1) · a0(48 kHz) / a0(rate).
        f0 = 38.13547087602444
        q = 0.5003270373238773
        func a0HighPass(_ r: Double) -> Double { let k = tan(Double.pi * f0 / r); return 1 + k / q + k * k }
        k = tan(Double.pi * f0 / rate)
        a0 = a0HighPass(rate)
        let b = a0HighPass(48_000) / a0
        let highPass = Biquad(b0: b, b1: -2 * b, b2: b, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        return (shelf, highPass)
    }

    /// BS.1770's channel weights: 1 for left, right and centre, 1.41 (+1.5 dB) for the surround
    /// channels, 0 for the LFE. Layouts follow FFmpeg's default order (5.1: L R C LFE Ls Rs).
    static func channelWeights(channelCount: Int) -> [Double] {
        switch channelCount {
        case 5: return [1, 1, 1, 1.41, 1.41]
        case 6: return [1, 1, 1, 0, 1.41, 1.41]
        case 8: return [1, 1, 1, 0, 1.41, 1.41, 1.41, 1.41]
        default: return Array(repeating: 1, count: max(channelCount, 0))
        }
    }
}

/// A bank of polyphase FIR interpolators for true-peak detection: `phases` filters (a multiple of 4) of
/// `taps` taps, each computing one point between samples from the last `taps` samples.
struct Interpolator: Sendable {
    /// Points per sample period (the oversampling factor).
    let phases: Int
    /// Taps per phase.
    let taps: Int
    /// Phase-major: coefficient `k` of phase `p` is `coefficients[p * taps + k]`.
    let coefficients: [Float]
    /// The largest Σ|coefficient| of a phase: no interpolated value exceeds this times the largest
    /// sample magnitude in its window.
    let gainBound: Float

    init(phases: [[Float]]) {
        precondition(phases.count % 4 == 0 && phases.allSatisfy { $0.count == phases[0].count }, "phases of equal length, a multiple of 4")
        self.phases = phases.count
        taps = phases[0].count
        coefficients = phases.flatMap { $0 }
        gainBound = phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1
    }

    /// BS.1770-4 Annex 2's interpolator: a 48-tap FIR in 4 phases of 12 taps, as published. Phase 0
    /// and 3, and 1 and 2, are each other reversed (the filter is symmetric), so the largest of the four
    /// values does not depend on which end of the taps multiplies the newest sample.
    static let bs1770 = Interpolator(phases: [
        [0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
         0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500],
        [-0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
         0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375],
        [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
         0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875],
        [-0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
         0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750],
    ])

    /// The limiter's interpolator, sharper and denser than BS.1770's: 8× (a point every 1/8 sample, so a
    /// peak cannot hide between points by more than about 0.1 dB below 20 kHz at 48 kHz), from a 256-tap
    /// Kaiser-windowed sinc (β = 9) in 8 phases of 32 taps, flat to 0.01 dB up to 20 kHz. The Annex 2
    /// filter rolls off above about 15 kHz and its 4× grid leaves room between points: a limiter that
    /// pushes every peak it sees to the ceiling would leave bright material over the ceiling for other
    /// meters (and for the Annex 2 grid itself).
    static let sharp = windowedSinc(factor: 8, tapsPerPhase: 32, beta: 9)

    /// A Kaiser-windowed sinc low-pass at the input's Nyquist frequency, split into `factor` phases.
    static func windowedSinc(factor: Int, tapsPerPhase: Int, beta: Double) -> Interpolator {
        let n = factor * tapsPerPhase
        func besselI0(_ x: Double) -> Double {
            var sum = 1.0, term = 1.0, k = 1.0
            while term > 1e-12 * sum { term *= (x / (2 * k)) * (x / (2 * k)); sum += term; k += 1 }
            return sum
        }
        let centre = Double(n - 1) / 2
        let h: [Double] = (0..<n).map { i in
            let t = Double(i) - centre
            let x = t / Double(factor)
            let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            let r = t / centre
            return sinc * besselI0(beta * max(0, 1 - r * r).squareRoot()) / besselI0(beta)
        }
        return Interpolator(phases: (0..<factor).map { p in stride(from: p, to: n, by: factor).map { Float(h[$0]) } })
    }
}

/// Finds the true peak of interleaved audio, frame by frame: for each frame, the largest magnitude among
/// its samples and the points an interpolator puts between the last `taps` samples of each channel.
/// Keeps the last `taps − 1` samples of each channel between calls, so chunking does not matter.
struct TruePeakDetector: Sendable {
    let channelCount: Int
    let interpolator: Interpolator
    /// Per channel, the last `taps − 1` samples, oldest first.
    private var history: [Float]
    /// One channel's history followed by a block of its samples.
    private var lane: [Float] = []

    init(channelCount: Int, interpolator: Interpolator = .bs1770) {
        self.channelCount = channelCount
        self.interpolator = interpolator
        history = Array(repeating: 0, count: channelCount * (interpolator.taps - 1))
    }

    /// Writes each frame's peak (the largest over channels of the sample and its interpolated
    /// neighbours) into `peaks` when given, and returns the largest of them all. With `ignoringBelow`,
    /// runs of frames whose interpolated values provably cannot exceed it (from the interpolator's gain
    /// bound) get their sample peak instead, which saves the filtering of quiet passages.
    @discardableResult
    mutating func process(_ samples: UnsafePointer<Float>, frameCount: Int, peaks: UnsafeMutablePointer<Float>?,
                          ignoringBelow threshold: Float? = nil) -> Float {
        guard frameCount > 0, channelCount > 0 else { return 0 }
        let taps = interpolator.taps, groups = interpolator.phases / 4
        let keep = taps - 1
        if lane.count < keep + frameCount { lane = Array(repeating: 0, count: keep + frameCount) }
        if let peaks { peaks.update(repeating: 0, count: frameCount) }
        var overall: Float = 0
        let channels = channelCount
        let bound = interpolator.gainBound
        lane.withUnsafeMutableBufferPointer { laneBuffer in
            history.withUnsafeMutableBufferPointer { hist in
                interpolator.coefficients.withUnsafeBufferPointer { coefficientBuffer in
                    let lanePtr = laneBuffer.baseAddress!
                    let coefficients = coefficientBuffer.baseAddress!
                    for ch in 0..<channels {
                        let h = hist.baseAddress! + ch * keep
                        lanePtr.update(from: h, count: keep)
                        var src = samples + ch
                        for i in 0..<frameCount { lanePtr[keep + i] = src.pointee; src += channels }
                        // Plain while loops and comparisons: this is the hottest loop of the audio path, and
                        // they stay fast in debug builds too (no iterators, no generic abs/max).
                        var channelMax: Float = 0
                        var runStart = 0
                        while runStart < frameCount {
                            let runEnd = min(runStart + 64, frameCount)
                            // The largest magnitude any interpolated value of this run can reach.
                            var skip = false
                            if let threshold {
                                var windowMax: Float = 0
                                var j = runStart
                                while j < runEnd + keep {
                                    let v = lanePtr[j]
                                    if v > windowMax { windowMax = v } else if -v > windowMax { windowMax = -v }
                                    j += 1
                                }
                                skip = windowMax * bound <= threshold
                            }
                            var i = runStart
                            // Four frames at a time, four phases at a time: sixteen independent sums that
                            // share each coefficient load, so they pipeline (and vectorise).
                            while !skip && i + 4 <= runEnd {
                                let x = lanePtr + i
                                var m0 = x[keep] < 0 ? -x[keep] : x[keep]
                                var m1 = x[keep + 1] < 0 ? -x[keep + 1] : x[keep + 1]
                                var m2 = x[keep + 2] < 0 ? -x[keep + 2] : x[keep + 2]
                                var m3 = x[keep + 3] < 0 ? -x[keep + 3] : x[keep + 3]
                                var group = 0
                                while group < groups {
                                    let c0 = coefficients + 4 * group * taps, c1 = c0 + taps, c2 = c1 + taps, c3 = c2 + taps
                                    var a0: Float = 0, a1: Float = 0, a2: Float = 0, a3: Float = 0
                                    var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0
                                    var d0: Float = 0, d1: Float = 0, d2: Float = 0, d3: Float = 0
                                    var e0: Float = 0, e1: Float = 0, e2: Float = 0, e3: Float = 0
                                    var k = 0
                                    while k < taps {
                                        let w0 = c0[k], w1 = c1[k], w2 = c2[k], w3 = c3[k]
                                        let v0 = x[k], v1 = x[k + 1], v2 = x[k + 2], v3 = x[k + 3]
                                        a0 += w0 * v0; a1 += w1 * v0; a2 += w2 * v0; a3 += w3 * v0
                                        b0 += w0 * v1; b1 += w1 * v1; b2 += w2 * v1; b3 += w3 * v1
                                        d0 += w0 * v2; d1 += w1 * v2; d2 += w2 * v2; d3 += w3 * v2
                                        e0 += w0 * v3; e1 += w1 * v3; e2 += w2 * v3; e3 += w3 * v3
                                        k += 1
                                    }
                                    m0 = Self.largestMagnitude(m0, a0, a1, a2, a3)
                                    m1 = Self.largestMagnitude(m1, b0, b1, b2, b3)
                                    m2 = Self.largestMagnitude(m2, d0, d1, d2, d3)
                                    m3 = Self.largestMagnitude(m3, e0, e1, e2, e3)
                                    group += 1
                                }
                                if let peaks {
                                    if m0 > peaks[i] { peaks[i] = m0 }
                                    if m1 > peaks[i + 1] { peaks[i + 1] = m1 }
                                    if m2 > peaks[i + 2] { peaks[i + 2] = m2 }
                                    if m3 > peaks[i + 3] { peaks[i + 3] = m3 }
                                }
                                let m = Self.largestMagnitude(m0, m1, m2, m3, 0)
                                if m > channelMax { channelMax = m }
                                i += 4
                            }
                            while i < runEnd {
                                let x = lanePtr + i
                                var m = x[keep] < 0 ? -x[keep] : x[keep]
                                var phase = 0
                                while !skip && phase < 4 * groups {
                                    let c = coefficients + phase * taps
                                    var acc: Float = 0
                                    var k = 0
                                    while k < taps { acc += c[k] * x[k]; k += 1 }
                                    if acc > m { m = acc } else if -acc > m { m = -acc }
                                    phase += 1
                                }
                                if let peaks, m > peaks[i] { peaks[i] = m }
                                if m > channelMax { channelMax = m }
                                i += 1
                            }
                            runStart = runEnd
                        }
                        overall = max(overall, channelMax)
                        h.update(from: lanePtr + frameCount, count: keep)
                    }
                }
            }
        }
        return overall
    }

    /// The largest magnitude of five values (plain comparisons: fast in debug builds too).
    @inline(__always)
    static func largestMagnitude(_ a: Float, _ b: Float, _ c: Float, _ d: Float, _ e: Float) -> Float {
        var m = a < 0 ? -a : a
        if b > m { m = b } else if -b > m { m = -b }
        if c > m { m = c } else if -c > m { m = -c }
        if d > m { m = d } else if -d > m { m = -d }
        if e > m { m = e } else if -e > m { m = -e }
        return m
    }
}

/// What a loudness meter found in a sound: the numbers EBU R128 asks for.
public struct LoudnessMeasurement: Sendable, Hashable, CustomStringConvertible {
    /// Integrated (programme) loudness in LUFS, gated per BS.1770-4; −∞ when nothing is louder than −70 LUFS.
    public var integrated: Double
    /// Loudness range in LU (EBU Tech 3342), 0 when shorter than 3 s.
    public var range: Double
    /// True peak in dBTP (4× oversampled per BS.1770-4 Annex 2); −∞ for silence.
    public var truePeak: Double
    /// The largest sample magnitude in dBFS; −∞ for silence.
    public var samplePeak: Double
    /// `I: -16.0 LUFS, LRA: 3.2 LU, TP: -1.0 dBTP, peak: -1.4 dBFS`.
    public var description: String {
        func f(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "-inf" }
        return "I: \(f(integrated)) LUFS, LRA: \(f(range)) LU, TP: \(f(truePeak)) dBTP, peak: \(f(samplePeak)) dBFS"
    }
}

/// Measures loudness per ITU-R BS.1770-4 / EBU R128 as interleaved float samples stream through it, in
/// constant memory: integrated loudness (absolute gate −70 LUFS, relative gate −10 LU), momentary (400 ms)
/// and short-term (3 s) loudness, loudness range, sample peak and true peak (4× oversampling).
///
/// Feed it with `add(_:frameCount:)` in chunks of any size; read the results at any time.
public struct LoudnessMeter: Sendable {
    /// The rate and channel count of the samples fed in.
    public let format: AudioFormat

    private let shelf: KWeighting.Biquad
    private let highPass: KWeighting.Biquad
    private let weights: [Double]
    /// Per channel: shelf state (2), high-pass state (2).
    private var filterState: [Double]
    /// K-weighted, channel-weighted sum of squares of the current 100 ms sub-block, and its frames.
    private var subBlockEnergy = 0.0
    private var subBlockFrames = 0
    private var subBlockIndex: Int64 = 0
    private var framesSeen: Int64 = 0
    /// The last 30 completed sub-blocks (3 s), as (energy sum, frames), in a ring.
    private var recent: [(energy: Double, frames: Int)] = Array(repeating: (0, 0), count: 30)
    private var completedSubBlocks = 0
    /// Gating blocks above the absolute gate, binned by loudness (0.01 LU bins from −70 LUFS):
    /// the energies summed and counted per bin, so the relative gate can be applied at any time.
    private var blockEnergy: [Double] = Array(repeating: 0, count: LoudnessMeter.binCount)
    private var blockCount: [Int] = Array(repeating: 0, count: LoudnessMeter.binCount)
    /// Short-term (3 s) loudness values above the absolute gate, binned the same way, for the range.
    private var shortTermEnergy: [Double] = Array(repeating: 0, count: LoudnessMeter.binCount)
    private var shortTermCount: [Int] = Array(repeating: 0, count: LoudnessMeter.binCount)
    private var peakDetector: TruePeakDetector
    private var maxTruePeak: Float = 0
    private var maxSample: Float = 0

    static let binCount = 10_000          // −70 … +30 LUFS in 0.01 LU steps
    static let absoluteGate = -70.0

    /// A meter for samples in `format`.
    public init(format: AudioFormat = .standard) {
        self.format = format
        (shelf, highPass) = KWeighting.filters(sampleRate: max(format.sampleRate, 1))
        weights = KWeighting.channelWeights(channelCount: format.channelCount)
        filterState = Array(repeating: 0, count: 4 * max(format.channelCount, 0))
        peakDetector = TruePeakDetector(channelCount: max(format.channelCount, 0))
    }

    /// The first frame of 100 ms sub-block `k` (rounded, so rates that are not a multiple of 10 work).
    private func subBlockStart(_ k: Int64) -> Int64 { (k * Int64(format.sampleRate) + 5) / 10 }

    /// Adds `frameCount` interleaved frames (`format.channelCount` floats each) that follow the ones added before.
    public mutating func add(_ samples: UnsafePointer<Float>, frameCount: Int) {
        guard frameCount > 0, format.channelCount > 0 else { return }
        maxTruePeak = max(maxTruePeak, peakDetector.process(samples, frameCount: frameCount, peaks: nil))
        var peak = maxSample
        var i = 0
        while i < frameCount * format.channelCount {
            let x = samples[i]
            if x > peak { peak = x } else if -x > peak { peak = -x }
            i += 1
        }
        maxSample = peak
        var done = 0
        while done < frameCount {
            let boundary = subBlockStart(subBlockIndex + 1)
            let n = Int(min(Int64(frameCount - done), boundary - framesSeen))
            subBlockEnergy += weightedEnergy(samples + done * format.channelCount, frameCount: n)
            subBlockFrames += n
            framesSeen += Int64(n)
            done += n
            if framesSeen == boundary { completeSubBlock() }
        }
    }

    /// Adds interleaved samples (a whole number of frames) that follow the ones added before.
    public mutating func add(_ samples: [Float]) {
        precondition(format.channelCount > 0 && samples.count % format.channelCount == 0,
                     "LoudnessMeter.add: \(samples.count) samples is not a whole number of \(format.channelCount)-channel frames")
        samples.withUnsafeBufferPointer { add($0.baseAddress!, frameCount: samples.count / format.channelCount) }
    }

    /// K-weights `frameCount` frames (carrying the filters' state) and returns Σ channel weight × square.
    private mutating func weightedEnergy(_ samples: UnsafePointer<Float>, frameCount: Int) -> Double {
        let channels = format.channelCount
        var total = 0.0
        let s = shelf, h = highPass
        for ch in 0..<channels where weights[ch] != 0 {
            var z1 = filterState[4 * ch], z2 = filterState[4 * ch + 1]
            var w1 = filterState[4 * ch + 2], w2 = filterState[4 * ch + 3]
            var sum = 0.0
            var p = samples + ch
            var n = frameCount
            while n > 0 {
                n -= 1
                let x = Double(p.pointee)
                let y = s.b0 * x + z1
                z1 = s.b1 * x - s.a1 * y + z2
                z2 = s.b2 * x - s.a2 * y
                let v = h.b0 * y + w1
                w1 = h.b1 * y - h.a1 * v + w2
                w2 = h.b2 * y - h.a2 * v
                sum += v * v
                p += channels
            }
            filterState[4 * ch] = z1; filterState[4 * ch + 1] = z2
            filterState[4 * ch + 2] = w1; filterState[4 * ch + 3] = w2
            total += weights[ch] * sum
        }
        return total
    }

    private mutating func completeSubBlock() {
        recent[completedSubBlocks % 30] = (subBlockEnergy, subBlockFrames)
        completedSubBlocks += 1
        subBlockIndex += 1
        subBlockEnergy = 0
        subBlockFrames = 0
        // Every 100 ms a new 400 ms gating block ends (75 % overlap), and a new 3 s short-term window.
        if let z = meanSquare(lastSubBlocks: 4) {
            Self.bin(z, energies: &blockEnergy, counts: &blockCount)
        }
        if let z = meanSquare(lastSubBlocks: 30) {
            Self.bin(z, energies: &shortTermEnergy, counts: &shortTermCount)
        }
    }

    /// The weighted mean square over the last `count` sub-blocks, or nil before there are that many.
    private func meanSquare(lastSubBlocks count: Int) -> Double? {
        guard completedSubBlocks >= count else { return nil }
        var e = 0.0, n = 0
        for i in 1...count {
            let r = recent[(completedSubBlocks - i) % 30]
            e += r.energy; n += r.frames
        }
        return n > 0 ? e / Double(n) : nil
    }

    static func loudness(meanSquare z: Double) -> Double { z > 0 ? -0.691 + 10 * log10(z) : -.infinity }

    private static func bin(_ z: Double, energies: inout [Double], counts: inout [Int]) {
        let l = loudness(meanSquare: z)
        guard l > absoluteGate else { return }
        let i = min(max(Int((l - absoluteGate) * 100), 0), binCount - 1)
        energies[i] += z
        counts[i] += 1
    }

    /// Integrated loudness in LUFS so far (BS.1770-4 gating); −∞ when no block is above −70 LUFS.
    public var integratedLoudness: Double {
        Self.gatedMean(energies: blockEnergy, counts: blockCount, relativeGate: -10).loudness
    }

    /// The mean loudness of the binned values above the relative gate (`relativeGate` LU below the mean
    /// of all of them), and the index of the first bin kept.
    private static func gatedMean(energies: [Double], counts: [Int], relativeGate: Double) -> (loudness: Double, firstBin: Int) {
        var e = 0.0, n = 0
        for i in 0..<binCount where counts[i] > 0 { e += energies[i]; n += counts[i] }
        guard n > 0 else { return (-.infinity, binCount) }
        let gate = loudness(meanSquare: e / Double(n)) + relativeGate
        var kept = 0.0, keptCount = 0, first = binCount
        for i in 0..<binCount where counts[i] > 0 {
            // All of a bin's values lie within 0.01 LU of each other: its mean stands for them.
            guard loudness(meanSquare: energies[i] / Double(counts[i])) > gate else { continue }
            kept += energies[i]; keptCount += counts[i]
            first = min(first, i)
        }
        return keptCount > 0 ? (loudness(meanSquare: kept / Double(keptCount)), first) : (-.infinity, binCount)
    }

    /// Loudness range in LU (EBU Tech 3342): the spread between the 10th and 95th percentiles of the
    /// short-term loudness, gated at −70 LUFS and 20 LU below the mean; 0 before 3 s have been measured.
    public var loudnessRange: Double {
        let (mean, first) = Self.gatedMean(energies: shortTermEnergy, counts: shortTermCount, relativeGate: -20)
        guard mean.isFinite else { return 0 }
        var values: [(loudness: Double, count: Int)] = []
        var total = 0
        for i in first..<Self.binCount where shortTermCount[i] > 0 {
            let l = Self.loudness(meanSquare: shortTermEnergy[i] / Double(shortTermCount[i]))
            values.append((l, shortTermCount[i])); total += shortTermCount[i]
        }
        func percentile(_ p: Double) -> Double {
            let rank = Int((Double(total - 1) * p).rounded())
            var seen = 0
            for v in values { seen += v.count; if seen > rank { return v.loudness } }
            return values.last?.loudness ?? 0
        }
        return total > 0 ? percentile(0.95) - percentile(0.10) : 0
    }

    /// Momentary loudness (the last 400 ms) in LUFS, or nil before 400 ms have been measured.
    public var momentaryLoudness: Double? { meanSquare(lastSubBlocks: 4).map(Self.loudness(meanSquare:)) }
    /// Short-term loudness (the last 3 s) in LUFS, or nil before 3 s have been measured.
    public var shortTermLoudness: Double? { meanSquare(lastSubBlocks: 30).map(Self.loudness(meanSquare:)) }
    /// The largest true peak so far, linear (1 is full scale); never below the sample peak.
    public var truePeak: Double { Double(max(maxTruePeak, maxSample)) }
    /// The largest true peak so far in dBTP.
    public var truePeakDecibels: Double { 20 * log10(truePeak) }
    /// The largest sample magnitude so far, linear.
    public var samplePeak: Double { Double(maxSample) }
    /// Everything measured so far.
    public var measurement: LoudnessMeasurement {
        LoudnessMeasurement(integrated: integratedLoudness, range: loudnessRange,
                            truePeak: truePeakDecibels, samplePeak: 20 * log10(samplePeak))
    }
}

extension AudioSource {
    /// Measures the loudness of the first `duration` of this sound (its own duration when nil) in
    /// `format`, reading it through a `LoudnessMeter` in constant memory.
    public func measureLoudness(duration: Time? = nil, format: AudioFormat = .standard) throws -> LoudnessMeasurement {
        guard let length = duration ?? self.duration else {
            throw MovieMakerError.invalidSetting(.duration, value: "nil (the sound has no end)",
                                                 expected: "a duration to measure, e.g. measureLoudness(duration: 30)")
        }
        guard length >= .zero else {
            throw MovieMakerError.invalidSetting(.duration, value: "\(length)", expected: "a duration of zero or more")
        }
        try format.validateForMixing()
        let reader = try makeReader(format: format)
        var meter = LoudnessMeter(format: format)
        try reader.readInChunks(totalFrames: format.frame(at: length)) { chunk, n in meter.add(chunk, frameCount: n) }
        return meter.measurement
    }
}

extension AudioReader {
    /// Reads the next `totalFrames` frames in chunks of up to 4096 and hands each to `body`.
    func readInChunks(totalFrames: Int64, _ body: (UnsafePointer<Float>, Int) throws -> Void) throws {
        let chunk = 4096
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * format.channelCount)
        defer { buffer.deallocate() }
        var left = totalFrames
        while left > 0 {
            let n = Int(min(Int64(chunk), left))
            try read(into: buffer, frameCount: n)
            try body(buffer, n)
            left -= Int64(n)
        }
    }
}

extension AudioFormat {
    /// Throws when the rate or channel count cannot be processed (zero, negative, absurd).
    func validateForMixing() throws(MovieMakerError) {
        guard (1...768_000).contains(sampleRate) else {
            throw .invalidSetting(.sampleRate, value: "\(sampleRate)", expected: "1 to 768000 frames per second, e.g. 48000")
        }
        guard (1...64).contains(channelCount) else {
            throw .invalidSetting(.channelCount, value: "\(channelCount)", expected: "1 to 64 channels, e.g. 2 for stereo")
        }
    }
}

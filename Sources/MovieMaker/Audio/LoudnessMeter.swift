import Foundation

/// Measures loudness per ITU-R BS.1770-4 / EBU R128 as interleaved float samples stream through it, in
/// constant memory: integrated loudness (absolute gate −70 LUFS, relative gate −10 LU), momentary (400 ms)
/// and short-term (3 s) loudness, loudness range, sample peak and true peak (4× oversampling).
///
/// Feed it with `add(_:frameCount:)` in chunks of any size; read the results at any time.
package struct LoudnessMeter: Sendable {
    /// The rate and channel count of the samples fed in.
    package let format: AudioFormat

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
    package init(format: AudioFormat = .standard) {
        self.format = format
        (shelf, highPass) = KWeighting.filters(sampleRate: max(format.sampleRate, 1))
        weights = KWeighting.channelWeights(channelCount: format.channelCount)
        filterState = Array(repeating: 0, count: 4 * max(format.channelCount, 0))
        peakDetector = TruePeakDetector(channelCount: max(format.channelCount, 0))
    }

    /// The first frame of 100 ms sub-block `k` (rounded, so rates that are not a multiple of 10 work).
    private func subBlockStart(_ k: Int64) -> Int64 { (k * Int64(format.sampleRate) + 5) / 10 }

    /// Adds `frameCount` interleaved frames (`format.channelCount` floats each) that follow the ones added before.
    package mutating func add(_ samples: UnsafePointer<Float>, frameCount: Int) {
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
    package mutating func add(_ samples: [Float]) {
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
    package var integratedLoudness: Double {
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
    package var loudnessRange: Double {
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
    package var momentaryLoudness: Double? { meanSquare(lastSubBlocks: 4).map(Self.loudness(meanSquare:)) }
    /// Short-term loudness (the last 3 s) in LUFS, or nil before 3 s have been measured.
    package var shortTermLoudness: Double? { meanSquare(lastSubBlocks: 30).map(Self.loudness(meanSquare:)) }
    /// The largest true peak so far, linear (1 is full scale); never below the sample peak.
    package var truePeak: Double { Double(max(maxTruePeak, maxSample)) }
    /// The largest true peak so far in dBTP.
    package var truePeakDecibels: Double { 20 * log10(truePeak) }
    /// The largest sample magnitude so far, linear.
    package var samplePeak: Double { Double(maxSample) }
    /// Everything measured so far.
    package var measurement: LoudnessMeasurement {
        LoudnessMeasurement(integrated: integratedLoudness, range: loudnessRange,
                            truePeak: truePeakDecibels, samplePeak: 20 * log10(samplePeak))
    }
}

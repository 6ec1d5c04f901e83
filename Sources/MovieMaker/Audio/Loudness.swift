import Foundation
internal import CMovieMakerShim

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
    /// The same, four phases at a time and tap-major within them: coefficient `k` of phase `4g + q`
    /// is `interleaved[(g * taps + k) * 4 + q]`, so one vector load gives four phases' tap `k`.
    let interleaved: [Float]
    /// The largest Σ|coefficient| of a phase: no interpolated value exceeds this times the largest
    /// sample magnitude in its window.
    let gainBound: Float

    init(phases: [[Float]]) {
        precondition(phases.count % 4 == 0 && phases.allSatisfy { $0.count == phases[0].count }, "phases of equal length, a multiple of 4")
        self.phases = phases.count
        taps = phases[0].count
        coefficients = phases.flatMap { $0 }
        let taps = taps
        var interleaved: [Float] = []
        for g in 0..<phases.count / 4 { for k in 0..<taps { for q in 0..<4 { interleaved.append(phases[4 * g + q][k]) } } }
        self.interleaved = interleaved
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
                    interpolator.interleaved.withUnsafeBufferPointer { interleavedBuffer in
                        let lanePtr = laneBuffer.baseAddress!
                        for ch in 0..<channels {
                            let h = hist.baseAddress! + ch * keep
                            lanePtr.update(from: h, count: keep)
                            var src = samples + ch
                            for i in 0..<frameCount { lanePtr[keep + i] = src.pointee; src += channels }
                            // The filtering is C (the shim's true_peak.c): the hottest loop of the audio
                            // path, and Swift's is slow in debug builds, where the test suite runs.
                            let channelMax = mm_true_peak_lane(lanePtr, Int32(frameCount), Int32(keep), coefficientBuffer.baseAddress!,
                                                               interleavedBuffer.baseAddress!, Int32(groups), Int32(taps), peaks,
                                                               threshold == nil ? 0 : 1, threshold ?? 0, bound)
                            overall = max(overall, channelMax)
                            h.update(from: lanePtr + frameCount, count: keep)
                        }
                    }
                }
            }
        }
        return overall
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

import Foundation

/// How a true-peak limiter keeps sound under a ceiling: it looks ahead, finds the peaks between samples
/// too (4× oversampling as in BS.1770-4 Annex 2, with a sharper interpolation filter), and lowers the gain
/// smoothly before they arrive, so nothing exceeds the ceiling and nothing clips, without the clicks of a
/// hard clipper.
public struct Limiter: Sendable, Hashable {
    /// The highest level allowed, in dBTP (true peak, dB relative to full scale); −1 by default (EBU R128).
    public var ceiling: Double
    /// How long before a peak the gain starts to come down (1.5–5 ms is typical; 5 ms by default).
    /// The gain ramps down over this time, so longer is smoother.
    public var lookahead: Time
    /// How fast the gain recovers after a peak: the time constant of its return to unity (100 ms by default).
    public var release: Time

    /// A limiter with the given ceiling (dBTP), lookahead and release.
    public init(ceiling: Double = -1, lookahead: Time = Time(value: 5, timescale: 1000), release: Time = Time(value: 1, timescale: 10)) {
        self.ceiling = ceiling
        self.lookahead = lookahead
        self.release = release
    }

    /// Throws when a setting is out of range.
    func validate() throws(MovieMakerError) {
        guard ceiling.isFinite, ceiling <= 0, ceiling >= -60 else {
            throw .invalidSetting(.limiterCeiling, value: "\(ceiling) dBTP", expected: "a level from -60 to 0 dBTP, e.g. -1")
        }
        guard lookahead >= Time(value: 1, timescale: 2000), lookahead <= Time(value: 1, timescale: 10) else {
            throw .invalidSetting(.limiterLookahead, value: "\(lookahead)", expected: "0.5 ms to 100 ms, e.g. 0.005 (5 ms)")
        }
        guard release >= .zero, release <= 10 else {
            throw .invalidSetting(.limiterRelease, value: "\(release)", expected: "0 to 10 seconds, e.g. 0.1")
        }
    }
}

/// A streaming true-peak limiter for interleaved float audio, processed in place. Its output is the input
/// delayed by `latency` frames, times a gain that keeps the (oversampled) peaks under the ceiling.
///
/// How the gain is made, for each incoming frame `n`:
/// 1. `r[n]`: the gain that would bring the frame's true peak (its samples and the interpolated points
///    between the last 32 samples of each channel) down to the ceiling, or 1;
/// 2. `h[n]`: the smallest `r` over the last `L + 32` frames (a sliding minimum, `L` the lookahead);
/// 3. release: `h` may rise back towards 1 no faster than an exponential of time constant `release`;
/// 4. the gain is the mean of the last `L` values of that: a ramp of `L` frames, so it moves smoothly.
/// Every value averaged at step 4 is at most `r[k]` for each frame `k` whose samples reach the output
/// with that gain (the sliding minimum covers the lookahead plus the interpolator's 32 taps), so the
/// output's peaks stay under the ceiling. Peaks are found with a sharper, denser interpolator than
/// BS.1770's (`Interpolator.sharp`, 8×), so BS.1770 meters and long-filter ones (FFmpeg's ebur128) agree;
/// a small margin (0.15 dB) covers the points between the interpolated ones and samples whose gains
/// differ slightly.
final class TruePeakLimiter {
    let channelCount: Int
    /// Frames between a sample going in and coming out.
    let latency: Int
    private let ceiling: Float
    private let rampLength: Int
    private let window: Int
    private let releaseStep: Double
    private var detector: TruePeakDetector
    /// The delay line: the last `latency` frames, interleaved, in a ring.
    private var delay: [Float]
    private var delayPosition = 0
    /// Sliding minimum of `r` as a monotonic queue of (frame, value) in a ring.
    private var queueFrames: [Int64]
    private var queueValues: [Float]
    private var queueHead = 0
    private var queueCount = 0
    /// The last `rampLength` released values and their running sum.
    private var ramp: [Double]
    private var rampPosition = 0
    private var rampSum: Double
    private var released = 1.0
    private var frame: Int64 = 0
    private var peaks: [Float] = []

    /// Margin under the ceiling the limiter aims for, in dB.
    static let margin = 0.15

    init(_ settings: Limiter, format: AudioFormat) {
        channelCount = format.channelCount
        ceiling = Float(pow(10, (settings.ceiling - Self.margin) / 20))
        rampLength = max(1, Int(format.frame(at: settings.lookahead)))
        let taps = Interpolator.sharp.taps
        window = rampLength + taps
        latency = rampLength + taps - 1
        let releaseFrames = Double(format.sampleRate) * settings.release.seconds
        releaseStep = releaseFrames > 0 ? 1 - exp(-1 / releaseFrames) : 1
        detector = TruePeakDetector(channelCount: channelCount, interpolator: .sharp)
        delay = Array(repeating: 0, count: latency * channelCount)
        queueFrames = Array(repeating: 0, count: window + 1)
        queueValues = Array(repeating: 1, count: window + 1)
        ramp = Array(repeating: 1, count: rampLength)
        rampSum = Double(rampLength)
    }

    /// Limits `frameCount` interleaved frames in place: on return they hold the output, which lags the
    /// input by `latency` frames (the first `latency` output frames of a stream are silence).
    func process(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) {
        guard frameCount > 0 else { return }
        if peaks.count < frameCount { peaks = Array(repeating: 0, count: frameCount) }
        let channels = channelCount
        let capacity = window + 1
        peaks.withUnsafeMutableBufferPointer { peakBuffer in
            let peakPtr = peakBuffer.baseAddress!
            detector.process(samples, frameCount: frameCount, peaks: peakPtr, ignoringBelow: ceiling)
            delay.withUnsafeMutableBufferPointer { delayBuffer in
                queueFrames.withUnsafeMutableBufferPointer { qf in
                    queueValues.withUnsafeMutableBufferPointer { qv in
                        ramp.withUnsafeMutableBufferPointer { rampBuffer in
                            let d = delayBuffer.baseAddress!
                            // The state in locals for the loop (class properties cost an access check each).
                            var queueHead = self.queueHead, queueCount = self.queueCount
                            var released = self.released, rampSum = self.rampSum, rampPosition = self.rampPosition
                            var delayPosition = self.delayPosition, frame = self.frame
                            let ceiling = self.ceiling, window = Int64(self.window), rampLength = self.rampLength
                            let releaseStep = self.releaseStep, latency = self.latency
                            var i = 0
                            while i < frameCount {
                                // 1. The gain this frame's peak asks for.
                                let p = peakPtr[i]
                                let r: Float = p > ceiling ? ceiling / p : 1
                                // 2. Sliding minimum over the last `window` frames.
                                while queueCount > 0 && qv[(queueHead + queueCount - 1) % capacity] >= r { queueCount -= 1 }
                                let tail = (queueHead + queueCount) % capacity
                                qf[tail] = frame; qv[tail] = r; queueCount += 1
                                if qf[queueHead] <= frame - window { queueHead = (queueHead + 1) % capacity; queueCount -= 1 }
                                let held = Double(qv[queueHead])
                                // 3. Release: rise back towards 1 no faster than the release allows.
                                if released < 1 { released += (1 - released) * releaseStep }
                                if held < released { released = held }
                                // 4. Ramp: the mean of the last `rampLength` released values.
                                rampSum += released - rampBuffer[rampPosition]
                                rampBuffer[rampPosition] = released
                                rampPosition += 1
                                if rampPosition == rampLength { rampPosition = 0 }
                                let mean = rampSum / Double(rampLength)
                                let gain = Float(mean < 1 ? mean : 1)
                                // The frame leaving the delay line goes out with this gain.
                                let slot = d + delayPosition * channels
                                let io = samples + i * channels
                                var c = 0
                                while c < channels {
                                    let out = slot[c] * gain
                                    slot[c] = io[c]
                                    io[c] = out
                                    c += 1
                                }
                                delayPosition += 1
                                if delayPosition == latency { delayPosition = 0 }
                                frame += 1
                                i += 1
                            }
                            self.queueHead = queueHead; self.queueCount = queueCount
                            self.released = released; self.rampSum = rampSum; self.rampPosition = rampPosition
                            self.delayPosition = delayPosition; self.frame = frame
                        }
                    }
                }
            }
        }
        // The running sum is exact while the gain rests at 1; after limiting, re-add it now and then
        // so rounding cannot drift.
        if frame % 65_536 < Int64(frameCount) { rampSum = ramp.reduce(0, +) }
    }
}

import Foundation
import Testing
@testable import MovieMaker

/// The true-peak detector's filtering moved from Swift to C (the shim's `mm_true_peak_lane`, fast in
/// debug builds too); these tests hold it to the Swift loop it replaced, kept here as the reference:
/// the same peaks, bit for bit, for both interpolators, with and without the quiet-run shortcut, in
/// blocks of every awkward size (history carried between calls).
@Suite("True peak: the C filtering against the Swift reference")
struct TruePeakKernelTests {
    /// A reproducible signal: sines, a square edge, full-scale clipping, quiet stretches and noise.
    static func signal(frames: Int, channels: Int, seed: UInt64) -> [Float] {
        var state = seed
        func noise() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2_000_000) / 1_000_000 - 1
        }
        // A few values where IEEE arithmetic is easy to get wrong: −0, ±∞ (0 × ∞ is NaN) and NaN.
        let special: [Int: Float] = [1_234: -0.0, 2_345: .infinity, 2_346: -.infinity, 3_456: .nan]
        return (0..<frames * channels).map { n in
            let i = n / channels, c = n % channels
            if let value = special[i] { return value }
            let t = Float(i) / 48_000
            switch (i / 300) % 4 {
            case 0: return 0.9 * sin(2 * .pi * 997 * t + Float(c))
            case 1: return (i / 7) % 2 == 0 ? 1 : -1
            case 2: return 0.001 * noise()
            default: return 0.7 * noise()
            }
        }
    }

    @Test("the same peaks and maximum as the Swift loop, bit for bit", arguments: [1, 2])
    func sameAsReference(channels: Int) {
        for interpolator in [Interpolator.bs1770, Interpolator.sharp] {
            for threshold in [nil, Float(0.5)] {
                let input = Self.signal(frames: 5_000, channels: channels, seed: UInt64(channels * 7 + interpolator.taps))
                var kernel = TruePeakDetector(channelCount: channels, interpolator: interpolator)
                var reference = ReferenceTruePeakDetector(channelCount: channels, interpolator: interpolator)
                var offset = 0
                // Blocks of every remainder modulo 4 and 64, and one frame alone.
                for count in [1, 3, 5, 63, 64, 65, 130, 1, 1_000, 2_000, 1_668] where offset < 5_000 {
                    let n = min(count, 5_000 - offset)
                    var peaks = [Float](repeating: -1, count: n), expected = [Float](repeating: -1, count: n)
                    let got = input.withUnsafeBufferPointer { b in
                        peaks.withUnsafeMutableBufferPointer { kernel.process(b.baseAddress! + offset * channels, frameCount: n, peaks: $0.baseAddress!, ignoringBelow: threshold) }
                    }
                    let want = input.withUnsafeBufferPointer { b in
                        expected.withUnsafeMutableBufferPointer { reference.process(b.baseAddress! + offset * channels, frameCount: n, peaks: $0.baseAddress!, ignoringBelow: threshold) }
                    }
                    #expect(got.bitPattern == want.bitPattern, "taps \(interpolator.taps), threshold \(String(describing: threshold)), frames \(offset)+\(n): \(got) against \(want)")
                    let differing = zip(peaks, expected).filter { $0.bitPattern != $1.bitPattern }.count
                    #expect(differing == 0, "taps \(interpolator.taps), threshold \(String(describing: threshold)), frames \(offset)+\(n): \(differing) peaks differ")
                    offset += n
                }
                // Without a peaks buffer, the maximum alone.
                var again = TruePeakDetector(channelCount: channels, interpolator: interpolator)
                var referenceAgain = ReferenceTruePeakDetector(channelCount: channels, interpolator: interpolator)
                let got = input.withUnsafeBufferPointer { again.process($0.baseAddress!, frameCount: 5_000, peaks: nil, ignoringBelow: threshold) }
                let want = input.withUnsafeBufferPointer { referenceAgain.process($0.baseAddress!, frameCount: 5_000, peaks: nil, ignoringBelow: threshold) }
                #expect(got.bitPattern == want.bitPattern && got > 1, "\(got) against \(want)")
            }
        }
    }
}

/// The Swift loop `TruePeakDetector` used before its filtering moved to C (as it was, for the comparison).
struct ReferenceTruePeakDetector {
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

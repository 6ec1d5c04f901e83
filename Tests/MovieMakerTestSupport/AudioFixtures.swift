import Foundation
import Testing
import MovieMaker
internal import CMovieMakerTestKernels

/// Helpers for the audio input tests: fixtures made with the ffmpeg CLI, raw references, rendering, correlation.
public enum AudioInTesting {
    /// A stereo test signal: a rising chirp on the left, a falling one on the right (so lags and
    /// channel swaps show), as an aevalsrc expression.
    public static let chirps = "0.5*sin(2*PI*(100*t+475*t*t))|0.4*sin(2*PI*(3000*t-400*t*t))"

    /// Runs the ffmpeg CLI (quiet, overwriting) and fails the test on error.
    public static func ffmpeg(_ arguments: [String]) throws {
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-y"] + arguments)
        #expect(r.status == 0, "ffmpeg \(arguments.joined(separator: " ")) failed: \(r.stderr)")
    }

    /// Writes a 16-bit WAV of `expression` (aevalsrc, one expression per channel separated by |).
    public static func makeWAV(_ url: URL, expression: String = chirps, rate: Int = 48_000, seconds: Double = 1.5) throws {
        try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=exprs='\(expression)':s=\(rate):d=\(seconds)", "-c:a", "pcm_s16le", url.path])
    }

    /// The file decoded by the ffmpeg CLI to interleaved floats (the second opinion).
    public static func ffmpegSamples(_ url: URL, channels: Int = 2) throws -> [Float] {
        let raw = url.deletingPathExtension().appendingPathExtension("reference.raw")
        try ffmpeg(["-i", url.path, "-f", "f32le", "-ac", "\(channels)", raw.path])
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Reads `frames` frames of `source` in `format`, in uneven chunks (to cross block boundaries).
    public static func render(_ source: any AudioSource, frames: Int, format: AudioFormat = .standard,
                       startingAt start: Int64 = 0, endingAt end: Int64? = nil) throws -> [Float] {
        let reader = try source.makeReader(format: format, from: start)
        if let end { reader.willEnd(atFrame: end) }
        return try read(reader, frames: frames)
    }

    /// Reads `frames` frames from `reader` in uneven chunks.
    public static func read(_ reader: any AudioReader, frames: Int) throws -> [Float] {
        let channels = reader.format.channelCount
        var out = [Float](repeating: .nan, count: frames * channels)
        var done = 0
        let chunks = [1000, 4097, 17, 2500]
        var k = 0
        while done < frames {
            let n = min(chunks[k % chunks.count], frames - done)
            try out.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress! + done * channels, frameCount: n) }
            done += n
            k += 1
        }
        return out
    }

    /// Normalised cross-correlation of `a` and `b` (interleaved, `channels` per frame) with `b` shifted by
    /// `lag` frames, over frames `range` of `a`.
    public static func correlation(_ a: [Float], _ b: [Float], channels: Int, lag: Int, range: Range<Int>) -> Double {
        // In frame then channel order, in Double, as the Swift loop it replaced (TestKernelTests). A
        // negative start indexed outside `a` there (a trap); here it would read outside it.
        precondition(range.lowerBound >= 0 && channels > 0, "correlation: frames \(range), \(channels) channels")
        var sums = [Double](repeating: 0, count: 3)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                mmt_correlation_sums(pa.baseAddress, pa.count, pb.baseAddress, pb.count, Int32(channels), lag, range.lowerBound, range.upperBound, &sums)
            }
        }
        let (ab, aa, bb) = (sums[0], sums[1], sums[2])
        return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
    }

    /// The lag in -maxLag…maxLag with the highest correlation, and the correlation at lag 0.
    public static func alignment(_ reference: [Float], _ decoded: [Float], channels: Int, maxLag: Int = 48) -> (lag: Int, atZero: Double) {
        let frames = min(reference.count, decoded.count) / channels
        let range = (maxLag + 100)..<(frames - maxLag - 100)
        var best = (lag: 0, value: -2.0)
        for lag in -maxLag...maxLag {
            let c = correlation(reference, decoded, channels: channels, lag: lag, range: range)
            if c > best.value { best = (lag, c) }
        }
        return (best.lag, correlation(reference, decoded, channels: channels, lag: 0, range: range))
    }

    /// The largest sample-to-sample step in channel `channel` over frames `range`.
    public static func maxStep(_ x: [Float], channels: Int, channel: Int = 0, range: Range<Int>) -> Float {
        var m: Float = 0
        for n in max(range.lowerBound, 1)..<range.upperBound {
            m = max(m, abs(x[n * channels + channel] - x[(n - 1) * channels + channel]))
        }
        return m
    }

    /// RMS of channel `channel` over frames `range`.
    public static func rms(_ x: [Float], channels: Int, channel: Int = 0, range: Range<Int>) -> Double {
        var s = 0.0
        for n in range { let v = Double(x[n * channels + channel]); s += v * v }
        return (s / Double(range.count)).squareRoot()
    }
}

/// A test sound: `value(n)` at sample frame n, the same on every channel, lasting `frames` frames.
public struct FunctionSound: AudioSource {
    /// How many frames the sound lasts (nil: endless).
    public let frames: Int64?
    /// The sample at each frame, the same on every channel.
    public let value: @Sendable (Int64) -> Float
    /// A sound of `frames` frames (nil: endless) whose sample at frame `i` is `value(i)` on every channel.
    public init(frames: Int64?, value: @escaping @Sendable (Int64) -> Float) { self.frames = frames; self.value = value }
    /// The duration at 48 kHz.
    public var duration: Time? { frames.map { Time(value: $0, timescale: 48_000) } }
    /// A reader from the first frame.
    public func makeReader(format: AudioFormat) throws -> any AudioReader { Reader(source: self, format: format) }

    /// Reads a `FunctionSound` frame by frame.
    public final class Reader: AudioReader {
        /// The sound read.
        public let source: FunctionSound
        /// The format asked for.
        public let format: AudioFormat
        /// The next frame to read.
        public var position: Int64 = 0
        /// A reader of `source` in `format`.
        public init(source: FunctionSound, format: AudioFormat) { self.source = source; self.format = format }
        /// Writes the next `frameCount` frames (silence after the end).
        public func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
            for i in 0..<frameCount {
                let n = position + Int64(i)
                let v = source.frames.map { n < $0 } ?? true ? source.value(n) : 0
                for c in 0..<format.channelCount { buffer[i * format.channelCount + c] = v }
            }
            position += Int64(frameCount)
        }
    }

    /// A 440 Hz sine at amplitude 0.5.
    public static func sine(seconds: Double? = nil) -> FunctionSound {
        FunctionSound(frames: seconds.map { Int64($0 * 48_000) }) { n in Float(0.5 * sin(2 * Double.pi * 440 * Double(n) / 48_000)) }
    }
    /// A constant level of 1.
    public static let constant = FunctionSound(frames: nil) { _ in 1 }
}

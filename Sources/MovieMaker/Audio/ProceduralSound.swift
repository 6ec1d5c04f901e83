import Foundation

/// Sound made by code, the way clips make pictures: a closure fills blocks of samples, given where they
/// are in time. Tones, beeps, clicks, noise and silence are ready-made.
///
/// ```swift
/// let a440 = ProceduralSound(duration: 2) { t in 0.3 * sin(2 * .pi * 440 * t) }
/// let sync = ProceduralSound.beeps(frequency: 1000, every: 1)
/// ```
public struct ProceduralSound: AudioSource {
    /// Fills `samples` (interleaved, `block.frameCount × block.format.channelCount` floats, zeroed
    /// beforehand) with the sound of `block`'s frames. Called for consecutive blocks from frame 0.
    public typealias Fill = @Sendable (_ samples: UnsafeMutableBufferPointer<Float>, _ block: SoundBlock) throws -> Void
    /// A fill function that may keep state between blocks (filters, oscillators); one per render.
    public typealias Renderer = (_ samples: UnsafeMutableBufferPointer<Float>, _ block: SoundBlock) throws -> Void

    /// How long the sound lasts (silence after it), or nil when it lasts as long as it is asked to.
    public let duration: Time?
    private let makeRenderer: @Sendable (AudioFormat) throws -> Renderer

    /// A sound whose samples `fill` writes, block by block; it must depend only on the block (its
    /// frames and format), so every render is the same.
    public init(duration: Time?, fill: @escaping Fill) {
        self.duration = duration
        self.makeRenderer = { _ in fill }
    }

    /// A sound whose renderer keeps state between consecutive blocks: `makeRenderer` is called once
    /// per render (with its format; it may throw to reject it) and returns the function that fills blocks.
    public init(duration: Time?, makeRenderer: @escaping @Sendable (AudioFormat) throws -> Renderer) {
        self.duration = duration
        self.makeRenderer = makeRenderer
    }

    /// A sound that is `signal(t)` on every channel, `t` the time in seconds computed from each sample's index.
    public init(duration: Time?, signal: @escaping @Sendable (_ seconds: Double) -> Double) {
        self.init(duration: duration) { samples, block in
            let channels = block.format.channelCount
            for i in 0..<block.frameCount {
                let v = Float(signal(block.seconds(ofFrame: i)))
                for c in 0..<channels { samples[i * channels + c] = v }
            }
        }
    }

    /// Opens the sound for one render in `format`.
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try format.validateForMixing()
        var end: Int64? = nil
        if let duration {
            guard duration >= .zero else {
                throw MovieMakerError.invalidSetting(.soundDuration, value: "\(duration)", expected: "zero or more seconds, or nil for an endless sound")
            }
            end = format.frame(at: duration)
        }
        return ProceduralSoundReader(format: format, end: end, render: try makeRenderer(format))
    }
}

/// Reads a procedural sound: zeroes each block, lets the renderer fill the part before the sound's end.
final class ProceduralSoundReader: AudioReader {
    let format: AudioFormat
    private let end: Int64?
    private let render: ProceduralSound.Renderer
    private var position: Int64 = 0

    init(format: AudioFormat, end: Int64?, render: @escaping ProceduralSound.Renderer) {
        self.format = format; self.end = end; self.render = render
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        guard frameCount > 0 else { return }
        buffer.update(repeating: 0, count: frameCount * format.channelCount)
        var n = frameCount
        if let end { n = Int(max(0, min(Int64(frameCount), end - position))) }
        if n > 0 {
            try render(UnsafeMutableBufferPointer(start: buffer, count: n * format.channelCount),
                       SoundBlock(startFrame: position, frameCount: n, format: format))
        }
        position += Int64(frameCount)
    }
}

// MARK: - Ready-made sounds

extension ProceduralSound {
    /// The colour of noise: white (equal power per hertz) or pink (equal power per octave, −3 dB/octave).
    public enum NoiseColor: Sendable, Hashable {
        /// Flat spectrum.
        case white
        /// −3 dB per octave (Paul Kellet's filter on white noise), as loud music is on average.
        case pink
    }

    /// Silence that lasts as long as it is asked to.
    public static let silence = ProceduralSound(duration: nil) { _, _ in }

    /// Silence lasting `duration`.
    public static func silence(duration: Time) -> ProceduralSound { ProceduralSound(duration: duration) { _, _ in } }

    /// A sine tone of `frequency` Hz and peak `amplitude` (1 is full scale) on every channel. Its phase
    /// (plus `phase` radians) is computed from each sample's absolute index, so it is exact and continuous
    /// however it is read, for any length.
    public static func tone(frequency: Double, amplitude: Double = 0.5, phase: Double = 0, duration: Time? = nil) -> ProceduralSound {
        ProceduralSound(duration: duration) { format in
            try checkFrequency(frequency, format: format)
            try checkAmplitude(amplitude)
            let rate = Double(format.sampleRate)
            return { samples, block in
                let channels = block.format.channelCount
                for i in 0..<block.frameCount {
                    // f·n is exact for whole frequencies (n < 2^53 / f); the remainder keeps the argument small.
                    let cycles = (frequency * Double(block.startFrame + Int64(i))).truncatingRemainder(dividingBy: rate) / rate
                    let v = Float(amplitude * sin(2 * Double.pi * cycles + phase))
                    for c in 0..<channels { samples[i * channels + c] = v }
                }
            }
        }
    }

    /// One beep: a `frequency` Hz tone burst starting exactly at sample frame `round(start × rate)`, lasting
    /// `length`, with raised-cosine ramps of `ramp` at both ends (no clicks). The wave starts at its crest
    /// (cosine phase), so the onset frame is already sounding. The sound ends with the beep.
    public static func beep(frequency: Double = 1000, at start: Time, length: Time = Time(value: 1, timescale: 10),
                            amplitude: Double = 0.5, ramp: Time = Time(value: 1, timescale: 1000)) -> ProceduralSound {
        bursts(.once(start), length: length, duration: start + length) { format in
            try checkFrequency(frequency, format: format)
            return try beepShape(frequency: frequency, amplitude: amplitude, ramp: ramp, length: length, format: format)
        }
    }

    /// Beeps every `interval` from time 0: beep `k` starts exactly at sample frame `round(k × interval × rate)`
    /// (never accumulated, so there is no drift), each as `beep(frequency:at:length:amplitude:ramp:)`.
    public static func beeps(frequency: Double = 1000, every interval: Time = 1, length: Time = Time(value: 1, timescale: 10),
                             amplitude: Double = 0.5, ramp: Time = Time(value: 1, timescale: 1000),
                             duration: Time? = nil) -> ProceduralSound {
        bursts(.every(interval), length: length, duration: duration) { format in
            try checkFrequency(frequency, format: format)
            return try beepShape(frequency: frequency, amplitude: amplitude, ramp: ramp, length: length, format: format)
        }
    }

    /// One click at `start`: full `amplitude` at exactly frame `round(start × rate)`, decaying exponentially
    /// to nothing over `length`. The sound ends with the click.
    public static func click(at start: Time, amplitude: Double = 0.8, length: Time = Time(value: 2, timescale: 1000)) -> ProceduralSound {
        bursts(.once(start), length: length, duration: start + length) { format in
            try clickShape(amplitude: amplitude, length: length, format: format)
        }
    }

    /// Clicks every `interval` from time 0, click `k` at exactly frame `round(k × interval × rate)` (a metronome).
    public static func clicks(every interval: Time, amplitude: Double = 0.8, length: Time = Time(value: 2, timescale: 1000),
                              duration: Time? = nil) -> ProceduralSound {
        bursts(.every(interval), length: length, duration: duration) { format in
            try clickShape(amplitude: amplitude, length: length, format: format)
        }
    }

    /// Noise from a seed: the same seed gives the same samples every time, however it is read. White noise
    /// is uniform in ±`amplitude` (RMS `amplitude / √3`); pink noise has the same RMS (its peaks go higher).
    /// Channels get independent noise.
    public static func noise(seed: UInt64 = 0, amplitude: Double = 0.5, color: NoiseColor = .white, duration: Time? = nil) -> ProceduralSound {
        ProceduralSound(duration: duration) { format in
            try checkAmplitude(amplitude)
            switch color {
            case .white:
                return { samples, block in
                    let channels = block.format.channelCount
                    for i in 0..<block.frameCount {
                        for c in 0..<channels {
                            samples[i * channels + c] = Float(amplitude * whiteSample(seed: seed, frame: block.startFrame + Int64(i), channel: c))
                        }
                    }
                }
            case .pink:
                // Paul Kellet's refined pink filter, per channel, fed with the white noise above and scaled
                // to white's RMS. Its state runs from frame 0, so renders are identical.
                var filters = Array(repeating: PinkFilter(), count: format.channelCount)
                let scale = amplitude / (PinkFilter.rmsGain * 3.0.squareRoot())
                return { samples, block in
                    let channels = block.format.channelCount
                    for i in 0..<block.frameCount {
                        for c in 0..<channels {
                            let w = whiteSample(seed: seed, frame: block.startFrame + Int64(i), channel: c)
                            samples[i * channels + c] = Float(scale * filters[c].step(w * 3.0.squareRoot()))
                        }
                    }
                }
            }
        }
    }
}

// MARK: - Helpers

/// Paul Kellet's "refined" pink-noise filter: six one-pole low-passes in parallel plus a direct path,
/// accurate to ±0.05 dB from 9 Hz to Nyquist at 44.1 kHz.
struct PinkFilter {
    private var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0

    static let poles: [Double] = [0.99886, 0.99332, 0.96900, 0.86650, 0.55000, -0.7616]
    static let gains: [Double] = [0.0555179, 0.0750759, 0.1538520, 0.3104856, 0.5329522, -0.0168980]
    static let direct = 0.5362
    static let delayed = 0.115926

    /// The next output sample for input `x`.
    @inline(__always)
    mutating func step(_ x: Double) -> Double {
        b0 = 0.99886 * b0 + x * 0.0555179
        b1 = 0.99332 * b1 + x * 0.0750759
        b2 = 0.96900 * b2 + x * 0.1538520
        b3 = 0.86650 * b3 + x * 0.3104856
        b4 = 0.55000 * b4 + x * 0.5329522
        b5 = -0.7616 * b5 - x * 0.0168980
        let out = b0 + b1 + b2 + b3 + b4 + b5 + b6 + x * 0.5362
        b6 = x * 0.115926
        return out
    }

    /// The filter's RMS gain for white input: √(Σ h[n]²) of its impulse response, in closed form.
    static let rmsGain: Double = {
        var energy = direct * direct + delayed * delayed
        var h0 = 0.0, h1 = 0.0
        for j in 0..<6 {
            h0 += gains[j]; h1 += gains[j] * poles[j]
            for k in 0..<6 { energy += gains[j] * gains[k] / (1 - poles[j] * poles[k]) }
        }
        energy += 2 * direct * h0 + 2 * delayed * h1
        return energy.squareRoot()
    }()
}

/// Uniform in [−1, 1): SplitMix64's finaliser over the seed, frame and channel.
@inline(__always)
fileprivate func whiteSample(seed: UInt64, frame: Int64, channel: Int) -> Double {
    var z = seed &+ UInt64(bitPattern: frame) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: channel) &* 0xC2B2_AE3D_27D4_EB4F
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) * 0x1p-52 - 1
}

/// When bursts start.
fileprivate enum BurstTiming: Sendable {
    /// Once, at this time.
    case once(Time)
    /// At 0, interval, 2·interval, …
    case every(Time)
}

extension ProceduralSound {
    /// Bursts of `length`, each sample `i` of a burst (0 at its onset) given by the shape that
    /// `makeShape` returns for the format, added to every channel.
    fileprivate static func bursts(_ timing: BurstTiming, length: Time, duration: Time?,
                       makeShape: @escaping @Sendable (AudioFormat) throws -> (Int) -> Double) -> ProceduralSound {
        ProceduralSound(duration: duration) { format in
            guard length > .zero else {
                throw MovieMakerError.invalidSetting(.burstLength, value: "\(length)", expected: "a positive duration, e.g. 0.1")
            }
            let lengthFrames = max(1, format.frame(at: length))
            let shape = try makeShape(format)
            let onset: (Int64) -> Int64
            let firstBurst: (Int64) -> Int64   // a burst index at or before the first one reaching frame s
            switch timing {
            case .once(let at):
                guard at >= .zero else {
                    throw MovieMakerError.invalidSetting(.burstTime, value: "\(at)", expected: "zero or more seconds")
                }
                let frame = format.frame(at: at)
                onset = { k in k == 0 ? frame : .max }
                firstBurst = { _ in 0 }
            case .every(let interval):
                guard interval > .zero else {
                    throw MovieMakerError.invalidSetting(.burstInterval, value: "\(interval)", expected: "a positive duration, e.g. 1")
                }
                let framesPerBurst = interval.seconds * Double(format.sampleRate)
                onset = { k in format.frame(at: interval * Int(k)) }
                firstBurst = { s in max(0, Int64((Double(s - lengthFrames) / framesPerBurst).rounded(.down)) - 1) }
            }
            return { samples, block in
                let channels = block.format.channelCount
                let s = block.startFrame, e = s + Int64(block.frameCount)
                var k = firstBurst(s)
                while true {
                    let o = onset(k)
                    if o >= e { break }
                    k += 1
                    guard o + lengthFrames > s else { continue }
                    let from = max(o, s), to = min(o + lengthFrames, e)
                    for f in from..<to {
                        let v = Float(shape(Int(f - o)))
                        let base = Int(f - s) * channels
                        for c in 0..<channels { samples[base + c] += v }
                    }
                    if case .once = timing { break }
                }
            }
        }
    }

    /// A cosine-phase tone burst with raised-cosine ramps, sampled so its first frame is already non-zero.
    static func beepShape(frequency: Double, amplitude: Double, ramp: Time, length: Time, format: AudioFormat) throws -> (Int) -> Double {
        try checkAmplitude(amplitude)
        guard ramp >= .zero else {
            throw MovieMakerError.invalidSetting(.beepRamp, value: "\(ramp)", expected: "zero or more seconds, e.g. 0.001")
        }
        let lengthFrames = Int(max(1, format.frame(at: length)))
        let rampFrames = min(Int(format.frame(at: ramp)), lengthFrames / 2)
        let rate = Double(format.sampleRate)
        return { i in
            var envelope = 1.0
            let fromEdge = min(i, lengthFrames - 1 - i)
            if fromEdge < rampFrames {
                let s = sin(Double.pi / 2 * Double(fromEdge + 1) / Double(rampFrames + 1))
                envelope = s * s
            }
            let cycles = (frequency * Double(i)).truncatingRemainder(dividingBy: rate) / rate
            return amplitude * envelope * cos(2 * Double.pi * cycles)
        }
    }

    /// An exponentially decaying pulse: `amplitude` at its first frame, e^−6 of it at its end.
    static func clickShape(amplitude: Double, length: Time, format: AudioFormat) throws -> (Int) -> Double {
        try checkAmplitude(amplitude)
        let lengthFrames = Double(max(1, format.frame(at: length)))
        return { i in amplitude * exp(-6 * Double(i) / lengthFrames) }
    }

    static func checkFrequency(_ frequency: Double, format: AudioFormat) throws(MovieMakerError) {
        let nyquist = Double(format.sampleRate) / 2
        guard frequency.isFinite, frequency >= 0, frequency < nyquist else {
            throw .invalidSetting(.frequency, value: "\(frequency) Hz",
                                  expected: "0 to below \(nyquist) Hz (half the sample rate \(format.sampleRate))")
        }
    }

    static func checkAmplitude(_ amplitude: Double) throws(MovieMakerError) {
        guard amplitude.isFinite else {
            throw .invalidSetting(.amplitude, value: "\(amplitude)", expected: "a finite number; 1 is full scale, e.g. 0.5")
        }
    }
}

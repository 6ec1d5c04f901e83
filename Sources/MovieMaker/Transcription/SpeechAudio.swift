import Foundation

/// A sound read for the recogniser: 16 kHz mono 16-bit, read in order and kept only from the earliest
/// sample still wanted (`discard(before:)`), so memory follows the window, not the recording's length.
/// A faint Gaussian noise floor (σ = 4 of 32,768, about −80 dBFS) is added from a fixed seed: the
/// recogniser's front end fails on exact digital silence, and the same sound gives the same samples.
final class SpeechAudio {
    /// How many samples the sound has.
    let total: Int
    /// How long it lasts.
    let length: Time
    private let reader: any AudioReader
    private var buffer: [Int16] = []
    /// The index of `buffer[0]` in the sound.
    private var bufferStart = 0
    private var noiseState: UInt64 = 0x2545_F491_4F6C_DD1D
    private var spareNoise: Double?

    /// Opens `sound` (a sound without an end is refused).
    init(_ sound: any AudioSource) throws(MovieMakerError) {
        guard let duration = sound.duration else {
            throw .invalidSetting(.transcriptSound, value: "a sound without an end", expected: "a sound of finite length (a file, a clip, a narration)")
        }
        let format = AudioFormat(sampleRate: SphinxDecoder.sampleRate, channelCount: 1)
        length = duration
        total = Int(format.frame(at: duration))
        do { reader = try sound.makeReader(format: format) } catch let error as MovieMakerError { throw error } catch {
            throw MovieMakerError.audioUnreadable(path: "the sound to transcribe", reason: "\(error)")
        }
    }

    /// The sample at `time` (rounded).
    func sampleIndex(at time: Time) -> Int {
        Int(AudioFormat(sampleRate: SphinxDecoder.sampleRate, channelCount: 1).frame(at: time))
    }

    /// Samples `range` (clamped to the sound); `range.lowerBound` must not be before a discarded sample.
    func samples(_ range: Range<Int>) throws(MovieMakerError) -> [Int16] {
        let upper = min(range.upperBound, total)
        guard upper > range.lowerBound else { return [] }
        precondition(range.lowerBound >= bufferStart, "samples before \(bufferStart) were discarded")
        let have = bufferStart + buffer.count
        if upper > have {
            let count = upper - have
            var floats = [Float](repeating: 0, count: count)
            do {
                try floats.withUnsafeMutableBufferPointer { p in try reader.read(into: p.baseAddress!, frameCount: count) }
            } catch let error as MovieMakerError { throw error } catch {
                throw MovieMakerError.audioUnreadable(path: "the sound to transcribe", reason: "\(error)")
            }
            buffer.reserveCapacity(buffer.count + count)
            for v in floats {
                let x = Double(v) * 32_767 + 4 * gaussian()
                buffer.append(Int16(max(-32_768, min(32_767, x.rounded()))))
            }
        }
        return Array(buffer[(range.lowerBound - bufferStart)..<(upper - bufferStart)])
    }

    /// Forgets the samples before `index`.
    func discard(before index: Int) {
        let drop = min(buffer.count, index - bufferStart)
        guard drop > 0 else { return }
        buffer.removeFirst(drop)
        bufferStart += drop
    }

    /// A standard normal value (Box–Muller on a 64-bit LCG): the same sequence on every run.
    private func gaussian() -> Double {
        if let spare = spareNoise { spareNoise = nil; return spare }
        func uniform() -> Double {
            noiseState = noiseState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(noiseState >> 11) + 1) / Double(1 << 53 + 1)
        }
        let u1 = uniform(), u2 = uniform()
        let r = (-2 * log(u1)).squareRoot()
        spareNoise = r * sin(2 * .pi * u2)
        return r * cos(2 * .pi * u2)
    }

    /// The start of the quietest 10 ms within `range` of `samples`: where a long recording is cut into
    /// pieces for free recognition.
    static func quietest(_ samples: [Int16], in range: Range<Int>) -> Int {
        let step = SphinxDecoder.sampleRate / 100
        var best = range.lowerBound, bestEnergy = Int64.max
        var i = range.lowerBound
        while i + step <= min(range.upperBound, samples.count) {
            var e: Int64 = 0
            for k in i..<(i + step) { e += Int64(samples[k]) * Int64(samples[k]) }
            if e < bestEnergy { bestEnergy = e; best = i }
            i += step
        }
        return best
    }
}

/// eSpeak NG's phoneme names (its ASCII output, e.g. `S'IprEks`) as the CMU dictionary's ARPAbet
/// (`SH IH P R EH K S`), for words the recogniser's dictionary lacks. Stress and length marks are left
/// out; a symbol without an equivalent is dropped.
enum ARPAbet {
    /// eSpeak NG names and their ARPAbet phones, longest first where one name begins another.
    static let table: [(String, String)] = [
        ("aI@", "AY ER"), ("aU@", "AW ER"), ("i@3", "IY ER"), ("A@", "AA R"), ("O@", "AO R"), ("e@", "EH R"),
        ("i@", "IH R"), ("U@", "UH R"), ("aI", "AY"), ("aU", "AW"), ("eI", "EY"), ("oU", "OW"), ("OI", "OY"),
        ("A:", "AA"), ("O:", "AO"), ("3:", "ER"), ("i:", "IY"), ("u:", "UW"), ("a#", "AH"), ("@L", "AH L"),
        ("@2", "AH"), ("@5", "AH"), ("I2", "IH"), ("I#", "IH"), ("e#", "EH"), ("tS", "CH"), ("dZ", "JH"),
        ("t#", "T"), ("d#", "D"), ("n-", "N"), ("l-", "L"), ("r-", "R"), ("3", "ER"), ("@", "AH"), ("a", "AE"),
        ("A", "AA"), ("E", "EH"), ("e", "EH"), ("I", "IH"), ("i", "IY"), ("0", "AA"), ("O", "AO"), ("V", "AH"),
        ("U", "UH"), ("u", "UW"), ("p", "P"), ("b", "B"), ("t", "T"), ("d", "D"), ("k", "K"), ("g", "G"),
        ("f", "F"), ("v", "V"), ("T", "TH"), ("D", "DH"), ("s", "S"), ("z", "Z"), ("S", "SH"), ("Z", "ZH"),
        ("h", "HH"), ("m", "M"), ("n", "N"), ("N", "NG"), ("l", "L"), ("r", "R"), ("w", "W"), ("j", "Y"),
        ("x", "K"), ("?", ""),
    ]

    /// The ARPAbet phones of eSpeak NG's `phonemes`, nil when none are left.
    static func phones(fromESpeak phonemes: String) -> String? {
        var out: [String] = []
        var rest = Substring(phonemes)
        let marks = Set("',%=_:;| \t\n-")
        while let c = rest.first {
            if marks.contains(c) { rest = rest.dropFirst(); continue }
            if let (name, phones) = table.first(where: { rest.hasPrefix($0.0) }) {
                if !phones.isEmpty { out.append(phones) }
                rest = rest.dropFirst(name.count)
            } else {
                rest = rest.dropFirst()
            }
        }
        return out.isEmpty ? nil : out.joined(separator: " ")
    }
}

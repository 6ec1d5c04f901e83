import Foundation

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

import Foundation
import MovieMaker

/// The movie's sound for the page: a 16-bit stereo WAV to play along, and peaks to draw as a waveform.
///
/// Made from the composition's mixed sound track when it has one; otherwise from the sounds of the
/// picture's clips, each placed where the movie places it (`ClipSound.firstHeard`) in an `AudioMix`
/// without a limiter — what a preview needs, not the encoder's exact samples. Cut at the movie's end.
struct SoundPreview: Sendable {
    /// The sample rate (48 kHz) and channel count (2) of `wav`.
    static let format = AudioFormat(sampleRate: 48_000, channelCount: 2)
    /// The longest sound previewed (a WAV of 30 min is about 330 MB).
    static let longest = Time(value: 30 * 60, timescale: 1)

    /// The sound as a WAV file's bytes.
    let wav: Data
    /// The largest absolute sample in each of `peaks.count` equal parts of the movie, 0…1.
    let peaks: [Float]

    /// The sound of `composition` with `buckets` peaks, or nil when the movie has no sound; throws when a
    /// sound cannot be read or the movie is too long to preview.
    static func make(_ composition: TimelineComposition, buckets: Int = 2_000) throws -> SoundPreview? {
        let mix: AudioMix
        if let soundtrack = composition.soundtrack {
            mix = soundtrack
        } else {
            // Cut at the movie's start, as a render places them (a sound attached before it is heard from 0).
            let heard = composition.picture.sounds.map { $0.limited(from: .zero, until: nil) }.filter(\.isHeard)
            guard !heard.isEmpty else { return nil }
            mix = AudioMix(heard.map { AudioMix.Track($0.heardSound, at: $0.firstHeard, role: .unaffected) }, limiter: nil)
        }
        guard composition.duration <= longest else {
            throw StudioFailure.conflict("the movie is longer than \(Int(longest.seconds / 60)) minutes: its sound is not previewed")
        }
        let format = Self.format
        let total = Int((composition.duration.seconds * Double(format.sampleRate)).rounded(.up))
        let reader = try mix.makeReader(format: format)
        reader.willEnd(atFrame: Int64(total))
        let channels = format.channelCount
        var pcm = [Int16](repeating: 0, count: total * channels)
        var peaks = [Float](repeating: 0, count: max(1, buckets))
        let block = 4_800
        var buffer = [Float](repeating: 0, count: block * channels)
        var done = 0
        while done < total {
            let n = min(block, total - done)
            try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frameCount: n) }
            for f in 0..<n {
                let bucket = min(peaks.count - 1, (done + f) * peaks.count / max(1, total))
                for c in 0..<channels {
                    let v = buffer[f * channels + c]
                    let clipped = v.isFinite ? max(-1, min(1, v)) : 0
                    pcm[(done + f) * channels + c] = Int16((clipped * 32_767).rounded())
                    peaks[bucket] = max(peaks[bucket], abs(clipped))
                }
            }
            done += n
        }
        return SoundPreview(wav: wavFile(pcm, format: format), peaks: peaks)
    }

    /// A RIFF WAVE file of 16-bit PCM samples, interleaved.
    static func wavFile(_ samples: [Int16], format: AudioFormat) -> Data {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(UInt16(format.channelCount))
        u32(UInt32(format.sampleRate)); u32(UInt32(format.sampleRate * format.channelCount * 2)); u16(UInt16(format.channelCount * 2)); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(bytes)
        // WAV is little-endian, as every machine Swift runs on here.
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }
}

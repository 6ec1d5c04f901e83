import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Audio decoding")
struct AudioDecodingTests {
    /// Each format: how to make it from the WAV reference, and how far its alignment may be off.
    static let formats: [(ext: String, args: [String], lossy: Bool)] = [
        ("wav", ["-c:a", "pcm_s16le"], false),
        ("flac", ["-c:a", "flac"], false),
        ("mp3", ["-c:a", "libmp3lame", "-b:a", "192k"], true),
        ("m4a", ["-c:a", "aac", "-b:a", "192k"], true),
        ("ogg", ["-c:a", "libvorbis", "-q:a", "6"], true),
        ("opus", ["-c:a", "libopus", "-b:a", "160k"], true),
    ]

    @Test("Each format decodes in line with the source: correlation > 0.99 at lag 0, exact duration",
          arguments: ["wav", "flac", "mp3", "m4a", "ogg", "opus"])
    func decodesInLine(ext: String) throws {
        guard FFTools.available else { return }
        let spec = Self.formats.first { $0.ext == ext }!
        let folder = try TemporaryFolder()
        let wav = folder.file("reference.wav")
        try AudioInTesting.makeWAV(wav)
        let reference = try AudioInTesting.ffmpegSamples(wav)
        let encoded = folder.file("sound.\(ext)")
        try AudioInTesting.ffmpeg(["-i", wav.path] + spec.args + [encoded.path])

        let file = try AudioFile(url: encoded)
        #expect(file.duration == Time(value: 3, timescale: 2), "\(ext): duration \(String(describing: file.duration)), expected 1.5 s")
        #expect(file.sampleRate == 48_000 && file.channelCount == 2)
        let frames = 72_000
        let decoded = try AudioInTesting.render(file, frames: frames + 480)
        let (lag, atZero) = AudioInTesting.alignment(reference, decoded, channels: 2)
        #expect(abs(lag) <= (spec.lossy ? 1 : 0), "\(ext): correlation peaks at lag \(lag)")
        #expect(atZero > (spec.lossy ? 0.99 : 0.9999), "\(ext): correlation at lag 0 is \(atZero)")
        // Past the exact duration: silence (the AAC frame's padding is cut).
        #expect(decoded[(frames * 2)...].allSatisfy { $0 == 0 }, "\(ext): sound after the end")
        // The sound reaches the end: the last 10 ms are not silent.
        #expect(decoded[((frames - 480) * 2)..<(frames * 2)].contains { abs($0) > 0.01 }, "\(ext): the end is missing")
        if !spec.lossy {
            let maxDiff = zip(reference, decoded.prefix(frames * 2)).map { abs($0 - $1) }.max() ?? 1
            #expect(maxDiff < 1e-6, "\(ext): lossless decode differs by \(maxDiff)")
        }
    }

    @Test("The sound of a video file decodes in line with the source")
    func decodesVideoSound() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("reference.wav")
        try AudioInTesting.makeWAV(wav)
        let reference = try AudioInTesting.ffmpegSamples(wav)
        let movie = folder.file("movie.mp4")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=1.5", "-i", wav.path,
                                   "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", movie.path])
        let file = try AudioFile(url: movie)
        #expect(file.codec == "aac")
        let duration = try #require(file.duration)
        #expect(abs(duration.seconds - 1.5) < 0.001, "duration \(duration)")
        let decoded = try AudioInTesting.render(file, frames: 72_000)
        let (lag, atZero) = AudioInTesting.alignment(reference, decoded, channels: 2)
        #expect(abs(lag) <= 1, "correlation peaks at lag \(lag)")
        #expect(atZero > 0.99, "correlation at lag 0 is \(atZero)")
    }

    @Test("44.1 kHz mono resamples to 48 kHz stereo: 1 kHz stays 1 kHz, in phase, full level on both sides, same length")
    func resamplesMonoToStereo() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("mono44.wav")
        try AudioInTesting.makeWAV(wav, expression: "0.5*sin(2*PI*1000*t)", rate: 44_100, seconds: 1)
        let file = try AudioFile(url: wav)
        #expect(file.sampleRate == 44_100 && file.channelCount == 1)
        #expect(file.duration == 1)
        let x = try AudioInTesting.render(file, frames: 48_200)
        // Both channels carry the mono signal at its own level (duplicated, not −3 dB).
        #expect((0..<48_000).allSatisfy { (i: Int) -> Bool in x[2 * i] == x[2 * i + 1] })
        let peak = (1000..<47_000).map { abs(x[2 * $0]) }.max()!
        #expect(abs(peak - 0.5) < 0.005, "peak \(peak), expected 0.5")
        // Frequency from zero crossings (interpolated), over the middle of the sound.
        var crossings: [Double] = []
        for n in 1000..<47_000 where x[2 * (n - 1)] < 0 && x[2 * n] >= 0 {
            let a = Double(x[2 * (n - 1)]), b = Double(x[2 * n])
            crossings.append(Double(n - 1) + a / (a - b))
        }
        let frequency = Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / 48_000)
        #expect(abs(frequency - 1000) < 0.1, "frequency \(frequency) Hz")
        // In phase with the ideal 48 kHz sine: no resampler delay.
        let ideal = (0..<48_000).flatMap { n -> [Float] in let v = Float(0.5 * sin(2 * Double.pi * 1000 * Double(n) / 48_000)); return [v, v] }
        let (lag, atZero) = AudioInTesting.alignment(ideal, Array(x.prefix(96_000)), channels: 2, maxLag: 20)
        #expect(lag == 0 && atZero > 0.9999, "lag \(lag), correlation \(atZero)")
        // Length: the sound lasts 48,000 frames (±1), then silence.
        let last = (0..<48_200).last { abs(x[2 * $0]) > 1e-4 } ?? 0
        #expect(abs(last - 47_999) <= 2, "last sounding frame \(last)")
        #expect(x[(48_001 * 2)...].allSatisfy { $0 == 0 })
    }

    @Test("Surround downmixes to stereo at the ffmpeg CLI's levels: centre and surrounds at -3 dB, LFE left out; stereo folds to mono")
    func downmixes() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("surround.wav")
        // A film's 5.1: a different tone on each of FL, FR, FC (the dialogue), LFE, BL and BR.
        let tones = [220, 330, 440, 60, 550, 660].map { "0.2*sin(2*PI*\($0)*t)" }.joined(separator: "|")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "aevalsrc=exprs='\(tones)':s=48000:d=0.5:c=5.1", "-c:a", "pcm_f32le", wav.path])
        let file = try AudioFile(url: wav)
        #expect(file.channelCount == 6)
        let x = try AudioInTesting.render(file, frames: 24_000)
        // Sample by sample what `ffmpeg -ac 2` gives (its second opinion) …
        let reference = try AudioInTesting.ffmpegSamples(wav)
        #expect(reference.count >= x.count)
        let worst = zip(x, reference).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "largest difference from ffmpeg -ac 2: \(worst)")
        // … which is left = FL + 0.707·FC + 0.707·BL (BS.775), so the centre's dialogue is 3 dB down.
        let h = 1 / 2.0.squareRoot()
        for n in stride(from: 0, to: 24_000, by: 997) {
            let t = Double(n) / 48_000
            let tone = { (f: Double) in 0.2 * sin(2 * Double.pi * f * t) }
            #expect(abs(Double(x[2 * n]) - (tone(220) + h * tone(440) + h * tone(550))) < 1e-4, "left at sample \(n)")
            #expect(abs(Double(x[2 * n + 1]) - (tone(330) + h * tone(440) + h * tone(660))) < 1e-4, "right at sample \(n)")
        }

        let stereo = folder.file("stereo.wav")
        try AudioInTesting.makeWAV(stereo, expression: "0.4|0.2", seconds: 0.2)
        let mono = try AudioInTesting.render(try AudioFile(url: stereo), frames: 4800, format: AudioFormat(channelCount: 1))
        #expect(abs(mono[1000] - 0.3) < 1e-3, "stereo → mono is \(mono[1000]), expected the mean 0.3")
    }

    @Test("Reading from any frame is sample-exact (seek, then decode and discard)", arguments: ["wav", "flac", "mp3", "m4a", "ogg", "opus"])
    func seeksExactly(ext: String) throws {
        guard FFTools.available else { return }
        let spec = Self.formats.first { $0.ext == ext }!
        let folder = try TemporaryFolder()
        let wav = folder.file("reference.wav")
        try AudioInTesting.makeWAV(wav, seconds: 2)
        let encoded = folder.file("sound.\(ext)")
        // AAC's perceptual noise substitution draws noise from a generator whose state depends on all
        // that was decoded before, so after a seek those bands differ (by up to 0.01, FFmpeg's own
        // decoder too); without it AAC decodes bit for bit the same from any frame.
        let noPNS = ext == "m4a" ? ["-aac_pns", "0"] : []
        try AudioInTesting.ffmpeg(["-i", wav.path] + spec.args + noPNS + [encoded.path])
        let file = try AudioFile(url: encoded)
        let full = try AudioInTesting.render(file, frames: 96_000)
        for target in [1, 4_801, 30_011, 71_999] {
            let part = try AudioInTesting.render(file, frames: 2_000, startingAt: Int64(target))
            let expected = full[(target * 2)..<((target + 2_000) * 2)]
            let maxDiff = zip(expected, part).map { abs($0 - $1) }.max()!
            // Bit for bit, except Opus, whose decoder state converges over its pre-roll rather than matching.
            let tolerance: Float = ext == "opus" ? 0.02 : 1e-6
            #expect(maxDiff <= tolerance, "\(ext) from frame \(target): differs by \(maxDiff)")
            let (lag, _) = AudioInTesting.alignment(Array(expected), part, channels: 2, maxLag: 8)
            #expect(lag == 0, "\(ext) from frame \(target): off by \(lag) frames")
        }
    }

    @Test("Reading a resampled file from any frame matches reading it from the start")
    func seeksExactlyWhileResampling() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let wav = folder.file("s44.wav")
        try AudioInTesting.makeWAV(wav, rate: 44_100, seconds: 2)
        let encoded = folder.file("s44.mp3")
        try AudioInTesting.ffmpeg(["-i", wav.path, "-c:a", "libmp3lame", "-b:a", "192k", encoded.path])
        for url in [wav, encoded] {
            let file = try AudioFile(url: url)
            let full = try AudioInTesting.render(file, frames: 96_000)
            for target in [7, 40_001, 80_000] {
                let part = try AudioInTesting.render(file, frames: 1_500, startingAt: Int64(target))
                let maxDiff = zip(full[(target * 2)...], part).map { abs($0 - $1) }.max()!
                #expect(maxDiff <= 1e-5, "\(url.lastPathComponent) from frame \(target): differs by \(maxDiff)")
            }
        }
    }

    @Test("A missing file is audioUnreadable naming the file")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("no-such-song.mp3")
        #expect {
            _ = try AudioFile(url: url)
        } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .audioUnreadable, let path = e.location?.file, let reason = e.reason else { return false }
            return path == url.path && reason.contains("does not exist") && "\(error)".contains("no-such-song.mp3")
        }
    }

    @Test("A text file named .mp3 is audioUnreadable with a reason")
    func textFileNamedMP3() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("notes.mp3")
        try Data("These are my notes, not a song.\nSecond line.\n".utf8).write(to: url)
        #expect {
            _ = try AudioFile(url: url)
        } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .audioUnreadable, let path = e.location?.file, let reason = e.reason else { return false }
            return path == url.path && reason.contains("not a sound") && "\(error)".contains("notes.mp3")
        }
    }

    @Test("A video without sound is noAudioStream naming the file")
    func videoWithoutSound() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("silent-movie.mp4")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
        #expect(throws: MovieMakerError.noAudioStream(path: url.path)) { _ = try AudioFile(url: url) }
        #expect(MovieMakerError.noAudioStream(path: url.path).description.contains("silent-movie.mp4"))
    }

    @Test("A codec without a decoder is unsupportedAudioCodec naming the file and the codec")
    func codecWithoutDecoder() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        // An MP4 whose sample entry says MPEG-H 3D Audio ('mhm1', no esds), which FFmpeg cannot decode.
        let aac = folder.file("aac.m4a")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "sine=duration=0.3", "-c:a", "aac", aac.path])
        var bytes = [UInt8](try Data(contentsOf: aac))
        func replace(_ a: String, _ b: String) {
            let (x, y) = (Array(a.utf8), Array(b.utf8))
            for i in 0..<(bytes.count - 4) where Array(bytes[i..<i + 4]) == x { bytes.replaceSubrange(i..<i + 4, with: y) }
        }
        replace("mp4a", "mhm1")
        replace("esds", "free")
        let url = folder.file("mpegh.m4a")
        try Data(bytes).write(to: url)
        #expect(throws: MovieMakerError.unsupportedAudioCodec(path: url.path, codec: "mpegh_3d_audio")) { _ = try AudioFile(url: url) }

        // A codec whose only decoder is experimental (Sonic lossless in NUT) is unsupported too.
        let sonic = folder.file("sonic.nut")
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "sine=duration=0.3", "-c:a", "sonicls", "-strict", "-2", sonic.path])
        #expect {
            _ = try AudioFile(url: sonic)
        } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .unsupportedAudioCodec, let path = e.location?.file, let codec = e.value else { return false }
            return path == sonic.path && codec.contains("sonic") && "\(error)".contains("sonic.nut")
        }
    }

    @Test("A broken file fails in AudioClip(url:), before any reader is made")
    func brokenFileFailsEarly() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("broken.ogg")
        try Data(repeating: 0x42, count: 5000).write(to: url)
        #expect(throws: MovieMakerError.self) { _ = try AudioClip(url: url) }
    }
}

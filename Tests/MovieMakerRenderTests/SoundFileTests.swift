import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The sound of a description written alone — `.m4a`, `.mp3`, `.opus`, `.flac`, `.wav` — decoded by
/// FFmpeg and compared with the movie's own sound track: the same samples (exactly, for AAC), the same
/// length, the same loudness (EBU R128 by FFmpeg's ebur128 filter, within 0.5 LU).
@Suite("Sound files: the movie's sound alone as m4a, mp3, opus, flac, wav — samples, length, loudness")
struct SoundFileTests {
    /// 2 s at 15 fps: music (a chord with a tremolo) normalised to −16 LUFS, over two colours.
    static let description = """
        {"version": 1, "output": {"size": "160x120", "fps": 15, "audio": {"loudness": -16}},
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "1s"}, {"type": "color", "color": "navy", "duration": "1s"}]},
                    {"kind": "audio", "items": [{"type": "music", "source": {"file": "chord.wav"}, "fadeOut": "0.3s"}]}]}
        """

    /// Interleaved stereo samples as FFmpeg decodes `url` (encoder delays trimmed as its demuxer says).
    static func stereo(_ url: URL) throws -> [Float] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("mm-sound-\(UUID().uuidString.prefix(8)).f32")
        defer { try? FileManager.default.removeItem(at: raw) }
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-y", "-i", url.path, "-map", "0:a:0", "-ac", "2", "-c:a", "pcm_f32le", "-f", "f32le", raw.path])
        #expect(r.status == 0, "\(r.stderr)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Integrated loudness (LUFS) by FFmpeg's ebur128 filter.
    static func loudness(_ url: URL) throws -> Double {
        let r = try run(FFTools.ffmpeg, ["-hide_banner", "-nostats", "-i", url.path, "-map", "0:a:0", "-af", "ebur128", "-f", "null", "-"])
        let line = r.stderr.components(separatedBy: "\n").last { $0.trimmingCharacters(in: .whitespaces).hasPrefix("I:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first.map { String($0) } ?? "") ?? .nan
    }

    @Test("each format holds the movie's sound: m4a the same samples exactly, flac and wav the same 16-bit samples, all as long and as loud")
    func formats() throws {
        let folder = try TemporaryFolder()
        let chord = ProceduralSound(duration: 3) { (t: Double) -> Double in
            let tone: Double = sin(2 * Double.pi * 220 * t) + 0.5 * sin(2 * Double.pi * 330 * t)
            let tremolo: Double = 0.7 + 0.3 * sin(2 * Double.pi * 2 * t)
            return 0.3 * tone * tremolo
        }
        try chord.writeWAV(to: folder.file("chord.wav"))
        let composition = try Timeline(jsonText: Self.description).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let movie = folder.file("movie.mp4")
        try composition.render(to: movie)
        let reference = try Self.stereo(movie)
        // The command line's MP4 demuxer trims AAC's priming but not its last frame's padding (up to 1023
        // sample frames): the movie's track decodes a little long here (the project's own decoder trims it).
        #expect(reference.count >= 2 * 96_000 && reference.count < 2 * (96_000 + 1024), "the movie's sound: \(reference.count / 2) sample frames")
        let referenceLoudness = try Self.loudness(movie)
        #expect(abs(referenceLoudness + 16) < 1, "normalised to −16 LUFS: \(referenceLoudness)")

        var pcm: [SoundFileFormat: [Float]] = [:]
        for format in SoundFileFormat.allCases {
            let url = folder.file("sound.\(format.rawValue)")
            let summary = try composition.renderSound(to: url)
            #expect(summary.duration == Time(2) && summary.format == format && summary.fileSize > 0)
            let samples = try Self.stereo(url)
            // Exactly 2 s: Opus's pre-skip, FLAC and WAV are exact; MP3's LAME header gives its delay and
            // padding, which FFmpeg trims to within a frame; AAC as the movie's (above).
            let expected = format == .m4a ? reference.count : 2 * 96_000
            let tolerance = format == .mp3 ? 2 * 1152 : 0
            #expect(abs(samples.count - expected) <= tolerance, "\(format): \(samples.count / 2) sample frames against \(expected / 2)")
            let loud = try Self.loudness(url)
            #expect(abs(loud - referenceLoudness) <= 0.5, "\(format): \(loud) LUFS against the movie's \(referenceLoudness)")
            pcm[format] = samples
        }
        #expect(pcm[.m4a] == reference, "the m4a holds the movie's AAC packets: the same decoded samples")
        #expect(pcm[.flac] == pcm[.wav], "flac and wav hold the same 16-bit samples")
        // 16-bit PCM against the movie's AAC: the codec's error only.
        let wav = pcm[.wav]!
        let error = zip(wav, reference.prefix(wav.count)).map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +) / Double(wav.count)
        let power = reference.map { Double($0) * Double($0) }.reduce(0, +) / Double(reference.count)
        #expect(10 * log10(power / error) > 30, "wav against the movie's sound: SNR \(10 * log10(power / error)) dB")
    }

    @Test("a description without sound, and an unknown extension, are refused before anything is written")
    func refusals() throws {
        let folder = try TemporaryFolder()
        let silent = try Timeline(jsonText: #"{"version": 1, "output": {"size": "64x64"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#)
            .composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let error = try #require(throws: MovieMakerError.self) { try silent.renderSound(to: folder.file("x.wav")) }
        #expect(error.code == .invalidDescription && error.description.contains("no sound"))
        #expect(throws: MovieMakerError.self) { try silent.renderSound(to: folder.file("x.aiff")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// A WAV's header holds 32-bit sizes: a sound past 4 GiB (6.2 h of 48 kHz stereo) is refused before
    /// anything is written (libavformat wrote sizes that wrapped); FLAC, which has no such limit, is named.
    @Test func aWAVPastFourGigabytesIsRefusedBeforeWriting() throws {
        let folder = try TemporaryFolder()
        try ProceduralSound.tone(frequency: 440, duration: 1).writeWAV(to: folder.file("tone.wav"))
        let long = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "64x64", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "7h"}]},
                        {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}]}
            """).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let error = try #require(throws: MovieMakerError.self) { try long.renderSound(to: folder.file("long.wav")) }
        #expect(error.code == .invalidSetting && error.description.contains("4 GB") && error.description.contains(".flac"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["tone.wav"])
    }
}

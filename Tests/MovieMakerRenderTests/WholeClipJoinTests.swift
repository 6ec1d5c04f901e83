import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Issue 33, bug 1: whole recorded clips joined end to end. Each file's sound starts and ends at the
// file's own boundaries, so there is no sound beyond a trim to crossfade with; the join must still not
// click. The clips are made by ffmpeg (a grey picture and a steady tone at its own phase), as separate
// recordings are, and the stitched movie's sound is decoded and high-passed at every join.

/// 30 fps, the clips' rate and the movie's.
private let rate: FrameRate = 30
/// The tone's peak level in every clip.
private let amplitude = 0.3

/// A 1-second clip at 320×240: a grey picture and, when `phase` is given, a steady 440 Hz tone starting
/// at that phase (radians); `audio` picks the sound codec (`pcm_s16le` in MOV, `aac` in MP4).
private func recordedClip(_ name: String, phase: Double?, audio: String = "pcm_s16le", in folder: TemporaryFolder) throws -> URL {
    let url = folder.file(name + (audio == "aac" ? ".mp4" : ".mov"))
    var args = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=320x240:r=30:d=1"]
    if let phase {
        args += ["-f", "lavfi", "-i", "aevalsrc=\(amplitude)*sin(2*PI*440*t+\(phase)):s=48000:d=1"]
    }
    args += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    if phase != nil { args += ["-c:a", audio] }
    args.append(url.path)
    let r = try run(FFTools.ffmpeg, args)
    try #require(r.status == 0, "ffmpeg could not make \(name): \(r.stderr)")
    return url
}

/// Renders `clip` at 320×240 (H.264 ultrafast, AAC) and returns its decoded sound.
private func stitchedSound(_ clip: Clip, in folder: TemporaryFolder) throws -> (samples: [Float], start: Double, rate: Int) {
    let url = folder.file("joined-\(UUID().uuidString.prefix(6)).mp4")
    let settings = EncoderSettings(crf: 23, preset: .ultrafast, threads: 1, drawingThreads: 1)
    let movie = try MovieMaker(url: url, width: 320, height: 240, fps: rate, settings: settings, audioSettings: AudioSettings())
    try movie.add(clip)
    try movie.finish()
    return try decodeAudio(url, in: folder)
}

/// The high-passed peak around each join (by default within ±20 ms; `window` in samples from the join),
/// in dB against the tone (click-free: ≤ −40).
private func joinPeaks(_ audio: (samples: [Float], start: Double, rate: Int), at joins: [Double], window: Range<Int> = -960..<960) -> [Double] {
    joins.map { t in
        let at = Int(((t - audio.start) * Double(audio.rate)).rounded())
        let peak = VideoFixtures.highPassedPeak(audio.samples, range: (at + window.lowerBound)..<(at + window.upperBound))
        return 20 * log10(Double(peak.value) / amplitude)
    }
}

/// The RMS level from `from` to `to` seconds of the movie, against a full tone's (1 = the tone at full level).
private func level(_ audio: (samples: [Float], start: Double, rate: Int), from: Double, to: Double) -> Double {
    let a = max(0, Int(((from - audio.start) * Double(audio.rate)).rounded()))
    let b = min(audio.samples.count, Int(((to - audio.start) * Double(audio.rate)).rounded()))
    guard b > a else { return 0 }
    let power = audio.samples[a..<b].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(b - a)
    return power.squareRoot() / (amplitude / 2.squareRoot())
}

@Suite("Joining whole recorded clips (no sound beyond the trims)", .serialized)
struct WholeClipJoinTests {
    @Test("Ten whole 1-s clips, each a tone at its own phase, stitched: no join clicks (≤ −40 dB) and each clip is heard at full level",
          arguments: ["pcm_s16le"])
    // PCM, as the issue's clips: an AAC file made from an abrupt tone holds its encoder's own ringing in
    // its first and last 15 ms (ffmpeg's AAC: −13 to −26 dB high-passed in the file itself, whoever plays
    // it), which would hide what the join does.
    func wholeClips(audio codec: String) throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let clips = try (0..<10).map { k in
            try Clip.video(recordedClip("clip\(k)", phase: Double(k) * 0.9 + 0.4, audio: codec, in: folder))
        }
        let film = Clip.stitched(clips)
        #expect(film.duration == 10, "10 whole clips of a second last \(film.duration)")
        let audio = try stitchedSound(film, in: folder)
        let peaks = joinPeaks(audio, at: (1..<10).map(Double.init))
        for (k, db) in peaks.enumerated() {
            #expect(db <= -40, "join \(k + 1) at \(k + 1) s (\(codec)): high-passed peak \(String(format: "%.1f", db)) dB against the tone (a click)")
        }
        for k in 0..<10 {
            let l = level(audio, from: Double(k) + 0.1, to: Double(k) + 0.9)
            #expect(abs(l - 1) <= 0.05, "clip \(k) (\(codec)) is heard at \(l) of the tone's level in its middle")
        }
        print("whole clips (\(codec)): high-passed peaks at the joins \(peaks.map { String(format: "%.1f", $0) }) dB")
    }

    @Test("Clips with sound beyond their trim on one side only: no join clicks, and the handle is used where there is one")
    func handlesOnOneSide() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let files = try (0..<4).map { k in try recordedClip("clip\(k)", phase: Double(k) * 1.3 + 0.2, in: folder) }
        // a: whole (nothing after its end) → b: in point at 0.2 s (sound before it): a handle on the incoming side only.
        // b: out point at 0.8 s (sound after it) → c: whole (nothing before it): a handle on the outgoing side only.
        // c: whole → d: whole.
        let a = try Clip.video(files[0])
        let b = try Clip.video(files[1]).trimmed(from: Time(value: 1, timescale: 5), to: Time(value: 4, timescale: 5))
        let c = try Clip.video(files[2])
        let d = try Clip.video(files[3])
        let film = Clip.stitched([a, b, c, d])
        let joins = [1.0, 1.6, 2.6]
        #expect(film.duration == Time(value: 18, timescale: 5), "length \(film.duration)")
        let audio = try stitchedSound(film, in: folder)
        let peaks = joinPeaks(audio, at: joins)
        for (k, db) in peaks.enumerated() {
            #expect(db <= -40, "join at \(joins[k]) s: high-passed peak \(String(format: "%.1f", db)) dB against the tone (a click)")
        }
        // Where one side has a handle the two sounds cross (equal power): the level never dips to half.
        for t in joins.prefix(2) {
            let l = level(audio, from: t - 0.004, to: t + 0.004)
            #expect(l >= 0.6, "at the join at \(t) s the level is \(l) of the tone's: the handle was not crossfaded")
        }
        print("handles on one side: high-passed peaks at the joins \(peaks.map { String(format: "%.1f", $0) }) dB")
    }

    @Test("Silence to tone and tone to silence: the sound fades in and out over the crossfade instead of starting or stopping at full level")
    func silenceAndTone() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let silent = try Clip.video(recordedClip("silent", phase: nil, in: folder))
        let tone = try Clip.video(recordedClip("tone", phase: 0.7, in: folder))
        let film = Clip.stitched([silent, tone, silent])
        let audio = try stitchedSound(film, in: folder)
        let peaks = joinPeaks(audio, at: [1, 2])
        #expect(peaks[0] <= -40, "silence → tone: high-passed peak \(String(format: "%.1f", peaks[0])) dB (the tone starts at full level)")
        #expect(peaks[1] <= -40, "tone → silence: high-passed peak \(String(format: "%.1f", peaks[1])) dB (the tone stops at full level)")
        #expect(abs(level(audio, from: 1.1, to: 1.9) - 1) <= 0.05, "the tone plays at full level between the joins")
        #expect(level(audio, from: 0.1, to: 0.9) < 0.01 && level(audio, from: 2.1, to: 2.9) < 0.01, "the silent clips stay silent")
        print("silence ↔ tone: high-passed peaks \(peaks.map { String(format: "%.1f", $0) }) dB")
    }

    @Test("Whole clips joined by a crossfade: the outgoing clip's sound falls over the overlap as the incoming one rises, no jump at its end",
          arguments: ["tone to silence", "silence to tone"])
    func crossfadedWholeClips(order: String) throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let silent = try Clip.video(recordedClip("silent", phase: nil, in: folder))
        let tone = try Clip.video(recordedClip("tone", phase: 0.7, in: folder))
        let outgoing = order == "tone to silence"
        // The second clip starts at 0.5 s: the first one's last half second is the overlap.
        let film = Clip.stitched(outgoing ? [tone, silent] : [silent, tone], transition: .crossfade(duration: 0.5))
        let audio = try stitchedSound(film, in: folder)
        // Equal power across the overlap: the middle at cos(π/4) ≈ 0.71 of the tone, its far end near 0.
        let middle = level(audio, from: 0.74, to: 0.76), edge = outgoing ? level(audio, from: 0.97, to: 0.99) : level(audio, from: 0.51, to: 0.53)
        #expect(abs(middle - 0.71) <= 0.1, "\(order): the tone at \(middle) of its level in the overlap's middle")
        #expect(edge <= 0.12, "\(order): the tone at \(edge) of its level at the overlap's \(outgoing ? "end" : "start")")
        let peak = joinPeaks(audio, at: [outgoing ? 1 : 0.5])[0]
        #expect(peak <= -40, "\(order): high-passed peak \(String(format: "%.1f", peak)) dB where the overlap \(outgoing ? "ends" : "starts") (a jump)")
    }
}

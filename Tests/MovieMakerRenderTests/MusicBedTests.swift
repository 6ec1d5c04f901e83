import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `MovieMaker.addMusic` and sounds attached to clips, rendered to MP4 and decoded with ffmpeg.
@Suite("Music beds and clip sounds in movies")
struct MusicBedTests {
    /// Renders `seconds` of black 64×64 frames at 30 fps with a music bed from `music`.
    func movieWithMusic(_ music: URL, seconds: Int, in folder: TemporaryFolder, fadeOut: Time = 0.5, loop: Bool) throws -> URL {
        let url = folder.file("music-\(loop)-\(seconds).mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.addMusic(music, fadeOut: fadeOut, loop: loop)
        try movie.addFrames(count: 30 * seconds) { ctx, _ in ctx.clear(.black) }
        _ = try movie.finish()
        return url
    }

    func durations(_ url: URL) throws -> (video: Double, audio: Double) {
        let s = try probeStreams(url)
        return (double(s["video"], "duration") ?? .nan, double(s["audio"], "duration") ?? .nan)
    }

    func rms(_ x: [Float], _ from: Double, _ to: Double) -> Double {
        let r = Int(from * 48_000)..<min(x.count, Int(to * 48_000))
        return (r.reduce(0.0) { $0 + Double(x[$1]) * Double(x[$1]) } / Double(max(1, r.count))).squareRoot()
    }

    /// The left channel of a 16-bit WAV as floats.
    func leftChannel(_ wav: URL) throws -> [Float] {
        let both = try AudioInTesting.ffmpegSamples(wav)
        return stride(from: 0, to: both.count, by: 2).map { both[$0] }
    }

    @Test func aShortBedLoopsToTheEndAndFadesOutThere() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("bed.wav")
        try AudioInTesting.makeWAV(wav, seconds: 1.5)
        let url = try movieWithMusic(wav, seconds: 4, in: folder, loop: true)
        let d = try durations(url)
        #expect(abs(d.audio - d.video) <= 1.0 / 30, "audio \(d.audio) s, video \(d.video) s")
        let decoded = try decodeAudio(url, in: folder)
        #expect(abs(decoded.start) < 1e-6, "the sound starts at 0: \(decoded.start)")
        // The first pass is the file itself, at lag 0 (no offset, no resampling artefacts).
        let source = try leftChannel(wav)
        let first = AudioInTesting.correlation(source, decoded.samples, channels: 1, lag: 0, range: 2_400..<67_000)
        #expect(first > 0.99, "correlation with the file over 0.05–1.4 s: \(first)")
        // Looped: still sounding at 2–3 s; faded to nothing at the very end.
        let middle = rms(decoded.samples, 2, 3)
        #expect(middle > 0.25, "looped music at 2–3 s: RMS \(middle)")
        #expect(rms(decoded.samples, 3.98, 4) < middle * 0.1, "the last 20 ms are faded out")
        // Equal-power fade over the last 0.5 s: gain sin(π/2 · 0.2/0.5) ≈ 0.59 with 0.2 s left.
        let late = rms(decoded.samples, 3.78, 3.82)
        #expect(late > middle * 0.45 && late < middle * 0.72, "the fade-out is under way 0.2 s before the end: \(late) vs \(middle)")
    }

    @Test func aShortBedWithoutLoopIsFollowedBySilence() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("bed.wav")
        try AudioInTesting.makeWAV(wav, seconds: 1.5)
        let url = try movieWithMusic(wav, seconds: 3, in: folder, loop: false)
        let d = try durations(url)
        #expect(abs(d.audio - d.video) <= 1.0 / 30, "audio \(d.audio) s, video \(d.video) s")
        let decoded = try decodeAudio(url, in: folder)
        #expect(rms(decoded.samples, 0.5, 1.4) > 0.25)
        #expect(rms(decoded.samples, 1.6, 3) < 1e-3, "silence after the music")
    }

    @Test func aLongBedIsTrimmedAtTheMovieEndWithAFade() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("long.wav")
        try AudioInTesting.makeWAV(wav, seconds: 6)
        let url = try movieWithMusic(wav, seconds: 3, in: folder, fadeOut: 1, loop: true)
        let d = try durations(url)
        #expect(abs(d.audio - d.video) <= 1.0 / 30, "audio \(d.audio) s, video \(d.video) s")
        #expect(abs(d.video - 3) < 0.001)
        let decoded = try decodeAudio(url, in: folder)
        let source = try leftChannel(wav)
        let c = AudioInTesting.correlation(source, decoded.samples, channels: 1, lag: 0, range: 2_400..<(48_000 * 19 / 10))
        #expect(c > 0.99, "correlation with the file over 0.05–1.9 s: \(c)")
        let middle = rms(decoded.samples, 0.5, 1.5)
        #expect(rms(decoded.samples, 2.98, 3) < middle * 0.1, "faded at the end")
    }

    /// The movie tells each sound where it ends counting from the sound's first sample heard; a clip
    /// trimmed from later hears its bed from part-way in, and the bed still fades at the movie's end.
    @Test(arguments: ["clip", "track"])
    func aBedOnAClipTrimmedFromLaterFadesAtTheMovieEnd(bedKind: String) throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("long.wav")
        try AudioInTesting.makeWAV(wav, seconds: 8)
        let bed = try AudioClip(url: wav).fadedOutAtMovieEnd(over: 1)
        let sound: any AudioSource = bedKind == "clip" ? bed : AudioTrack([bed])
        let clip = Clip.color(.black, duration: 8).withSound(sound).trimmed(from: 2, to: 6)
        let url = folder.file("trimmed-bed-\(bedKind).mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.add(clip)
        _ = try movie.finish()
        let decoded = try decodeAudio(url, in: folder)
        let middle = rms(decoded.samples, 0.5, 2.5)
        #expect(middle > 0.25, "\(bedKind): the bed is heard before its fade: RMS \(middle)")
        // Equal-power fade over the last second: about sin(π/4) ≈ 0.71 of the level half-way through it.
        let fading = rms(decoded.samples, 3.45, 3.55)
        #expect(fading > middle * 0.55 && fading < middle * 0.85, "\(bedKind): half-way through the fade \(fading) vs \(middle)")
        #expect(rms(decoded.samples, 3.98, 4) < middle * 0.1, "\(bedKind): faded out at the movie's end")
    }

    /// How many of this process's open files are `url`.
    static func openCount(of url: URL) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let target = url.resolvingSymlinksInPath().path
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == target }.count
    }

    /// Memory and open files stay bounded by what plays at once, not by how many sounds the movie has.
    @Test(arguments: ["placed one by one", "mixed"])
    func aMovieOfManySoundsOpensOnlyThoseThatPlay(how: String) throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("blip.wav")
        try AudioInTesting.makeWAV(wav, seconds: 0.1)
        let movie = try MovieMaker(url: folder.file("many.mp4"), width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        // 200 sounds, one every 0.1 s: 20 seconds.
        let starts = (0..<200).map { Time(value: Int64($0), timescale: 10) }
        if how == "mixed" {
            try movie.addAudio(AudioMix(try starts.map { AudioMix.Track(try AudioFile(url: wav), at: $0) }))
        } else {
            for start in starts { try movie.addAudio(try AudioFile(url: wav), at: start) }
        }
        let peak = Mutex(0)
        try movie.addFrames(count: 600) { ctx, i in
            ctx.clear(.black)
            if i.index % 15 == 0 { let n = Self.openCount(of: wav); peak.withLock { $0 = max($0, n) } }
        }
        _ = try movie.finish()
        let most = peak.withLock { $0 }
        #expect(most <= 40, "\(how): \(most) readers of the file open at once, for 200 sounds of which at most 2 play at once")
        let decoded = try decodeAudio(folder.file("many.mp4"), in: folder)
        #expect(rms(decoded.samples, 19.92, 19.98) > 0.05, "\(how): the last sound plays")
    }

    @Test func aBrokenMusicFileFailsBeforeAnyFrameNamingTheFile() throws {
        let folder = try TemporaryFolder()
        let bad = folder.file("song.mp3")
        try "not music".write(to: bad, atomically: true, encoding: .utf8)
        let url = folder.file("never.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30)
        #expect {
            try movie.addMusic(bad)
        } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .audioUnreadable, let path = e.location?.file else { return false }
            return path == bad.path && e.description.contains("song.mp3")
        }
        #expect(movie.frameCount == 0)
        movie.cancel()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0 != "song.mp3" }
        #expect(leftovers.isEmpty, "nothing written: \(leftovers)")
    }

    @Test func aClipAddedInTwoRangesPlaysItsSoundOnce() throws {
        let folder = try TemporaryFolder()
        // Four seconds of 440 Hz at 0.25 on a clip added as frames 0..<60 and then 60..<120.
        let tone = FunctionSound(frames: 4 * 48_000) { n in Float(0.25 * sin(2 * Double.pi * 440 * Double(n) / 48_000)) }
        let clip = Clip.color(.black, duration: 4).withSound(tone)
        let url = folder.file("two-ranges.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.add(clip, frames: 0..<60)
        try movie.add(clip, frames: 60..<120)
        _ = try movie.finish()
        let decoded = try decodeAudio(url, in: folder)
        let first = rms(decoded.samples, 0.5, 1.5), second = rms(decoded.samples, 2.5, 3.5)
        #expect(abs(second / first - 1) < 0.05, "the second range at \(second), the first at \(first): the sound played twice")
    }

    @Test func aClipsSoundPlaysAtTheClipsPlaceInTheMovie() throws {
        let folder = try TemporaryFolder()
        // 100 ms of 1 kHz at 0.5, silent otherwise.
        let beep = FunctionSound(frames: 4_800) { n in Float(0.5 * sin(2 * Double.pi * 1_000 * Double(n) / 48_000)) }
        let intro = Clip.color(.black, duration: 1)
        let second = Clip.color(.white, duration: 1).withSound(beep, at: 0.25)
        let url = folder.file("clip-sound.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.add(.sequence(intro, second).delayed(by: 0.5))
        _ = try movie.finish()
        let decoded = try decodeAudio(url, in: folder)
        let onset = decoded.samples.firstIndex { abs($0) > 0.1 }.map { Double($0) / 48_000 + decoded.start }
        // 0.5 s delay + 1 s intro + 0.25 s into the second clip.
        #expect(onset.map { abs($0 - 1.75) < 0.002 } == true, "beep onset at \(String(describing: onset)) s, expected 1.75 s")
        #expect(rms(decoded.samples, 1.76, 1.84) > 0.3 && rms(decoded.samples, 1.9, 2.5) < 1e-3)
        let d = try durations(url)
        #expect(abs(d.audio - d.video) <= 1.0 / 30 && abs(d.video - 2.5) < 0.001, "\(d)")
    }
}

@Suite("Loud sounds in a movie")
struct LoudSoundsInMovieTests {
    @Test func threeLoudSoundsAddedToAMovieStayUnderTheCeiling() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("loud.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        try movie.addAudio(ProceduralSound.tone(frequency: 220, amplitude: 0.9, duration: 3))
        try movie.addAudio(ProceduralSound.tone(frequency: 331, amplitude: 0.9, duration: 3))
        try movie.addAudio(ProceduralSound.tone(frequency: 497, amplitude: 0.8, duration: 3))
        try movie.addFrames(count: 90) { ctx, _ in ctx.clear(.black) }
        _ = try movie.finish()
        // The second opinion: ffmpeg's true-peak meter on the decoded AAC.
        let r = try run(FFTools.ffmpeg, ["-hide_banner", "-nostats", "-i", url.path, "-map", "0:a", "-af", "ebur128=peak=true", "-f", "null", "-"])
        let peakLine = r.stderr.split(separator: "\n").last { $0.contains("Peak:") }
        let peak = peakLine.flatMap { line in line.split(separator: " ").compactMap { Double($0) }.first }
        let measured = try #require(peak, "no true peak in ffmpeg's output: \(r.stderr.suffix(600))")
        // The sum would reach +7 dBFS; the limiter holds it under −1 dBTP (aiming 0.15 dB lower), and
        // AAC's coding error on tones stays inside that margin. (Full-band noise limited this hard
        // comes back from AAC up to ~2 dB over: lossy coding of noise adds peaks no limiter before it
        // can see.) ffmpeg prints one decimal.
        #expect(measured <= -1.0, "true peak \(measured) dBTP")
        let decoded = try decodeAudio(url, in: folder)
        #expect((decoded.samples.map(abs).max() ?? 2) < 1, "no sample clips")
    }

}

extension MusicBedTests {
    /// Issue 33 (friction): `addMusic(url, volume: 0.8)` was +0.8 dB while a description's `volume` is a
    /// factor. Volume is one type now: `.factor(0.5)` halves the amplitude, `.decibels(-6)` is the same
    /// within 0.03 dB, and out-of-range values are refused naming them.
    @Test func musicVolumeIsAFactorOrDecibelsNeverABareNumber() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("bed.wav")
        try AudioInTesting.makeWAV(wav, seconds: 2)
        func level(_ volume: Volume) throws -> Double {
            let url = folder.file("v-\(volume).mp4")
            let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
            try movie.addMusic(wav, volume: volume, fadeOut: 0.01, loop: false)
            try movie.addFrames(count: 45) { ctx, _ in ctx.clear(.black) }
            _ = try movie.finish()
            return rms(try decodeAudio(url, in: folder).samples, 0.3, 1.2)
        }
        let full = try level(.unchanged), half = try level(.factor(0.5)), minus6 = try level(.decibels(-6))
        #expect(abs(half / full - 0.5) < 0.01, "factor 0.5 gave \(half / full) of the level")
        #expect(abs(20 * log10(minus6 / full) + 6) < 0.05, "-6 dB gave \(20 * log10(minus6 / full)) dB")
        let movie = try MovieMaker(url: folder.file("bad.mp4"), width: 64, height: 64, fps: 30)
        for bad in [Volume.factor(20), .factor(-1), .decibels(40), .decibels(.nan)] {
            do { try movie.addMusic(wav, volume: bad); Issue.record("\(bad) was accepted") } catch {
                #expect(error.code == .invalidSetting && error.message.contains(bad.description.replacingOccurrences(of: "dB", with: "")), "\(error.message)")
            }
        }
        movie.cancel()
    }

    /// Issue 33 (friction): `Clip.photo` takes the slideshow's `KenBurns` too (it took only a path of
    /// rectangles), giving the very path a slideshow gives its first photo.
    @Test func aPhotoClipTakesTheSlideshowsKenBurns() throws {
        let motion = Slideshow.KenBurns(zoom: 0.2, pan: 0.1, direction: .zoomIn, seed: 7)
        let path = try #require(motion.path())
        #expect(path.start.width == 1 && abs(path.end.width - 1 / 1.2) < 1e-12, "zooms in by 20 %: \(path)")
        let url = URL(fileURLWithPath: "/tmp/p.jpg")
        #expect(Clip.photo(url, duration: 2, kenBurns: motion) == Clip.photo(url, duration: 2, kenBurns: path))
        #expect(Slideshow.KenBurns.off.path() == nil)
        var show = Slideshow(photos: [Slideshow.Photo(url: url)])
        show.kenBurns = motion
        #expect(show.kenBurnsRects(for: show.photos[0], index: 0) == (path.start, path.end))
    }
}

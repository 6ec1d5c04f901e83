import Foundation
import Testing
@testable import MovieMaker
import CFFmpeg
import MovieMakerTestSupport

// Video clips as ordinary clips (issue 13): the Done-when tests. Every movie here is decoded and every
// frame's block code read back (VideoFixtures), so a frame shows the source frame it should or the
// test says which one it showed; sounds are decoded by ffmpeg and measured (pitch, clicks, fades).

/// Frames per second of every render here (the fixtures' own rate unless a test says otherwise).
private let rate: FrameRate = 30

/// Renders `clip` in memory at 320×240 (or the given size).
private func frames(_ clip: Clip, width: Int = 320, height: Int = 240, at rate: FrameRate = rate, threads: Int = 2) throws -> [PixelBuffer] {
    try clip.renderFrames(width: width, height: height, rate: rate, drawingThreads: threads)
}

/// The block index each frame shows (nil where none reads).
private func indices(_ frames: [PixelBuffer]) -> [Int?] { frames.map { VideoFixtures.frameIndex(of: $0) } }

/// `[0, 1, ?, 3]`: a compact list for failure messages.
private func show(_ indices: [Int?]) -> String { "[" + indices.map { $0.map { String($0) } ?? "?" }.joined(separator: ", ") + "]" }

/// Positions where `got` differs from `expected`, as "k: expected e, got g" (at most `limit`).
private func mismatches(_ got: [Int?], _ expected: [Int], limit: Int = 8) -> [String] {
    var out: [String] = []
    for k in 0..<max(got.count, expected.count) where (k < got.count ? got[k] : nil) != (k < expected.count ? expected[k] : nil) {
        out.append("frame \(k): expected \(k < expected.count ? String(expected[k]) : "none"), got \(k < got.count ? got[k].map { String($0) } ?? "?" : "none")")
        if out.count == limit { out.append("…"); break }
    }
    return out
}

/// Writes `clip` as an H.264/AAC movie at 320×240 (fast settings, deterministic: one x264 thread).
/// Renders `clip` to `url` and returns the most video decoders the render had open at once (counted
/// for this movie alone, so tests running alongside cannot change it).
@discardableResult
private func renderMovie(_ clip: Clip, to url: URL, width: Int = 320, height: Int = 240, drawingThreads: Int = 2) throws -> Int {
    let settings = EncoderSettings(crf: 16, preset: .ultrafast, threads: 1, drawingThreads: drawingThreads)
    let movie = try MovieMaker(url: url, width: width, height: height, fps: rate, settings: settings, audioSettings: AudioSettings())
    try movie.add(clip)
    try movie.finish()
    return movie.videoDecoderPeak
}

/// `n` frames of the fixture rate as a time.
private func frameTime(_ n: Int) -> Time { rate.time(ofFrame: n) }

/// Whether two times are the same instant (Time's == compares value and timescale).
private func same(_ a: Time, _ b: Time) -> Bool { !(a < b) && !(b < a) }

/// A seeded generator (SplitMix64), so the random times are the same on every run.
private struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One piece of a stitched edit: source frames `start ..< start + count` of a fixture.
private struct Piece { var start: Int; var count: Int }

/// Ten pieces cut at frame boundaries all over a 90-frame source (so every cut falls mid-tone, at a
/// different phase), each with sound beyond its trim on both sides: 96 frames in all.
private let tenPieces: [Piece] = [Piece(start: 3, count: 9), Piece(start: 40, count: 8), Piece(start: 11, count: 12), Piece(start: 60, count: 10),
                                  Piece(start: 25, count: 7), Piece(start: 70, count: 11), Piece(start: 5, count: 9), Piece(start: 50, count: 8),
                                  Piece(start: 33, count: 10), Piece(start: 15, count: 12)]

/// The source frame each output frame of `pieces` stitched together should show.
private func expectedIndices(_ pieces: [Piece]) -> [Int] { pieces.flatMap { p in (p.start..<p.start + p.count).map { $0 } } }
/// The output frame at which each cut falls (between piece i and i + 1).
private func cutFrames(_ pieces: [Piece]) -> [Int] { pieces.dropLast().reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.count) } }

@Suite("Video clips")
struct VideoClipTests {
    // MARK: Time maps

    @Test("Reversed: output frame k shows source frame n−1−k, for every k (long GOP with B-frames)",
          arguments: [FrameRate(30), FrameRate.ntsc])
    func reversed(sourceRate: FrameRate) throws {
        let spec = VideoFixtures.Spec(frameCount: 45, rate: sourceRate)
        let clip = try Clip.video(try VideoFixtures.movie(spec)).reversed()
        let got = indices(try frames(clip, at: sourceRate))
        let expected = (0..<spec.frameCount).reversed().map { $0 }
        #expect(got.count == spec.frameCount, "\(got.count) frames, expected \(spec.frameCount)")
        #expect(got == expected.map { Optional($0) }, "\(mismatches(got, expected))")
    }

    @Test("Reversed: the clip's own sound plays backwards with its picture (each click at its mirrored time, ±2 ms)")
    func reversedSound() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let spec = VideoFixtures.Spec(frameCount: 45, clickFrames: [5, 17, 30])
        let clip = try Clip.video(try VideoFixtures.movie(spec)).reversed()
        let url = folder.file("reversed.mp4")
        try renderMovie(clip, to: url)
        let audio = try decodeAudio(url, in: folder)
        let found = VideoFixtures.clickCentres(in: audio.samples, rate: audio.rate).map { $0 + audio.start }
        // A click centred at source time c plays at D − c, late in the output frame showing its frame.
        let expected = spec.clickFrames.reversed().map { spec.duration.seconds - VideoFixtures.clickCentre(frame: $0, rate: spec.rate) }
        #expect(found.count == expected.count, "clicks found at \(found) s, expected at \(expected) s")
        for e in expected {
            let nearest = found.min { abs($0 - e) < abs($1 - e) }
            #expect(nearest.map { abs($0 - e) <= 0.002 } ?? false, "click expected at \(e) s, nearest at \(nearest.map { "\($0) s" } ?? "none")")
        }
    }

    @Test("Speed 2×: ⌈n/2⌉ frames, frame k shows source 2k; 0.5×: every source frame exactly twice")
    func speedFrames() throws {
        let spec = VideoFixtures.Spec(frameCount: 45)
        let video = try Clip.video(try VideoFixtures.movie(spec))
        let fast = video.speed(2)
        #expect(same(fast.duration, spec.duration / 2), "2× lasts \(fast.duration)")
        let fastIndices = indices(try frames(fast))
        #expect(fastIndices.count == (spec.frameCount + 1) / 2)
        #expect(fastIndices == (0..<(spec.frameCount + 1) / 2).map { Optional(2 * $0) }, "\(mismatches(fastIndices, (0..<23).map { 2 * $0 }))")
        let slow = video.speed(0.5)
        #expect(same(slow.duration, spec.duration * 2), "0.5× lasts \(slow.duration)")
        let slowIndices = indices(try frames(slow))
        #expect(slowIndices.count == 2 * spec.frameCount)
        #expect(slowIndices == (0..<2 * spec.frameCount).map { Optional($0 / 2) }, "\(mismatches(slowIndices, (0..<90).map { $0 / 2 }))")
        var shown: [Int: Int] = [:]
        for i in slowIndices.compactMap({ $0 }) { shown[i, default: 0] += 1 }
        #expect(shown.count == spec.frameCount && shown.values.allSatisfy { $0 == 2 }, "times shown: \(shown.sorted { $0.key < $1.key })")
    }

    @Test("Speed 2× and 0.5×: the tone keeps its pitch (±5 cents); the sound lasts as long as the picture (±1024 samples)",
          arguments: [2.0, 0.5])
    func speedKeepsPitch(factor: Double) throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let spec = VideoFixtures.Spec(frameCount: 90)
        let clip = try Clip.video(try VideoFixtures.movie(spec)).speed(factor)
        // Silence after the clip, so a sound longer than the picture would show.
        let url = folder.file("speed.mp4")
        try renderMovie(Clip.sequence([clip, Clip.color(.black, duration: Time(value: 1, timescale: 2))]), to: url)
        let audio = try decodeAudio(url, in: folder)
        let length = clip.duration.seconds
        let middle = Int(0.1 * length * Double(audio.rate))..<Int(0.9 * length * Double(audio.rate))
        let pitch = VideoFixtures.toneFrequency(in: audio.samples, rate: audio.rate, range: middle)
        let cents = VideoFixtures.cents(pitch, from: spec.toneFrequency)
        #expect(abs(cents) <= 5, "at \(factor)× the tone measures \(pitch) Hz: \(cents) cents off 440 Hz")
        // Where the tone is at half its level (a 25 ms window, 11 periods).
        let envelope = VideoFixtures.envelope(of: audio.samples, rate: audio.rate, frequency: spec.toneFrequency, window: 1200)
        let half = Double(VideoFixtures.toneAmplitude) / 2
        let first = envelope.firstIndex { $0 >= half }, last = envelope.lastIndex { $0 >= half }
        let pictureEnd = Int((length * Double(audio.rate)).rounded())
        let endGap = (last ?? 0) - pictureEnd
        #expect(last != nil && abs(endGap) <= 1024, "at \(factor)× the tone ends \(endGap) samples from the picture's end (\(length) s)")
        // The window hides its first and last 600 samples: a tone from the start reaches half level at 600.
        #expect(first != nil && first! <= 600 + 1024, "at \(factor)× the tone first reaches half level at sample \(first ?? -1)")
        print("speed \(factor)×: pitch \(pitch) Hz (\(cents) cents), tone ends \(endGap) samples from the picture's end, reaches half level at \(first ?? -1)")
    }

    @Test("Variable frame rate: every output frame shows the source frame with the largest pts ≤ its time (and the frame's tolerance); none that should show is dropped")
    func variableFrameRate() throws {
        let spec = VideoFixtures.Spec(frameCount: 60)
        let url = try VideoFixtures.require(spec, .variableFrameRate)
        let file = try VideoFile(url: url)
        #expect(file.isVariableFrameRate, "the VFR fixture probes as constant (\(file.frameRate))")
        // The source's frames as decoded straight through: each one's time and index.
        let source = try decodeAll(url).map { (time: $0.presentationTime.seconds, index: VideoFixtures.frameIndex(of: $0.pixels)) }
        try #require(source.allSatisfy { $0.index != nil })
        let first = source[0].time
        let clip = Clip.video(file)
        let got = indices(try frames(clip))
        #expect(got.count == rate.frameCount(for: file.duration))
        var wrong: [String] = []
        var expectedShown = Set<Int>()
        // A frame may be up to min(an eighth of the frame interval, 2 ms) late (VideoFrameSource.tolerance).
        let late = min(file.frameRate.frameDuration.seconds / 8, 0.002)
        for (k, shown) in got.enumerated() {
            let t = first + rate.seconds(ofFrame: k)
            // The last frame at or before t + late; one time-base tick (1/90000 s) of rounding either way allowed.
            let strict = source.last { $0.time <= t + late + 1e-9 } ?? source[0]
            let lenient = source.last { $0.time <= t + late + 1.0 / 90_000 } ?? source[0]
            expectedShown.insert(strict.index!)
            if shown != strict.index && shown != lenient.index {
                wrong.append("output \(k) at \(String(format: "%.4f", t)) s shows \(shown.map { String($0) } ?? "?"), expected #\(strict.index!) (pts \(String(format: "%.4f", strict.time)))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(8))")
        let dropped = expectedShown.subtracting(got.compactMap { $0 })
        #expect(dropped.isEmpty, "source frames that should show but never do: \(dropped.sorted())")
    }

    /// A phone stamps each frame when its sensor read it, a fraction of a millisecond off its slot: at
    /// the clip's own rate every frame shows once, in order (every late one showed a frame late, as a
    /// repeat then a skip).
    @Test func framesStampedAFractionOfAMillisecondOffTheirSlotEachShowOnce() throws {
        let spec = VideoFixtures.Spec(frameCount: 60)
        let url = try VideoFixtures.require(spec, .jittered(microseconds: 600))
        let source = try decodeAll(url).map(\.presentationTime.seconds)
        let slot = spec.rate.frameDuration.seconds
        let late = source.enumerated().filter { $0.element > Double($0.offset) * slot + 1.0 / 90_000 }.count
        try #require(late >= 20, "the fixture has frames stamped after their slot (\(late))")
        let got = indices(try frames(Clip.video(try VideoFile(url: url))))
        #expect(got == (0..<60).map { Optional($0) }, "\(got)")
    }

    /// Holding a trimmed clip's last frame (`frozen(at:for:)` at its end) shows that frame, not the one
    /// after the out point (a scene after it showed for the whole hold).
    @Test func aFreezeAtTheEndOfATrimHoldsItsLastFrame() throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 90))
        let trimmed = try Clip.video(url).trimmed(from: 1, to: 2)
        let held = indices(try frames(trimmed.frozen(at: 1, for: 1)))
        #expect(held.count == 30 && held.allSatisfy { $0 == 59 }, "\(held.prefix(4))")
    }

    /// A reversed clip that is not whole frames long shows the frames forward play shows, each once, in
    /// reverse: of 0…1.01 s (31 frames at 30 fps) 30 down to 0 (it never showed 30, and showed 0 twice).
    @Test func aReversedClipOfPartFramesShowsEveryFrameForwardPlayShows() throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 90))
        let clip = try Clip.video(url).trimmed(from: 0, to: Time(value: 101, timescale: 100))
        let forward = indices(try frames(clip))
        let backward = indices(try frames(clip.reversed()))
        #expect(forward == (0...30).map { Optional($0) }, "\(forward)")
        #expect(backward == forward.reversed(), "\(backward)")
    }

    @Test func theToleranceForLateTimestampsIsAnEighthOfAFrameAtMostTwoMilliseconds() {
        let thirty = FrameRate(30), ntsc = FrameRate(numerator: 30000, denominator: 1001)!
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1, den: 90_000), frameRate: thirty) == 180)
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1, den: 90_000), frameRate: FrameRate(240)) == 46)
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1, den: 600), frameRate: thirty) == 1)
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1, den: 1000), frameRate: ntsc) == 2)
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1, den: 1000), frameRate: FrameRate(500)) == 1)
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1, den: 30), frameRate: thirty) == 0)
        #expect(VideoFrameSource.tolerance(timeBase: AVRational(num: 1001, den: 30000), frameRate: ntsc) == 0)
    }

    // MARK: Seeking and threads

    @Test("Still at 50 seeded random times of a long-GOP source equals the frame from a straight decode")
    func stillsMatchStraightDecode() throws {
        let spec = VideoFixtures.Spec(frameCount: 90, keyframeInterval: 250)
        let clip = try Clip.video(try VideoFixtures.movie(spec))
        let straight = try clip.renderFrames(width: 320, height: 240, rate: rate, drawingThreads: 1)
        try #require(straight.count == 90)
        #expect(indices(straight) == (0..<90).map { Optional($0) })
        var random = SeededRandom(state: 13)
        var differing: [String] = []
        for _ in 0..<50 {
            let t = Time(value: Int64(random.next() % UInt64(3 * 48_000)), timescale: 48_000)
            let k = rate.frameIndex(at: t)
            let still = try clip.still(at: t, width: 320, height: 240, rate: rate).pixels()
            if still != straight[k] {
                differing.append("t = \(t.seconds) s: index \(VideoFixtures.frameIndex(of: still).map { String($0) } ?? "?"), expected \(k), PSNR \(psnr(still, straight[k])) dB")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of 50 stills differ: \(differing.prefix(6))")
    }

    @Test("4 drawing threads give the same decoded movie as 1, byte for byte (trims, reverse, speed, stitching)")
    func drawingThreadsDoNotChangeFrames() throws {
        let folder = try TemporaryFolder()
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 90))
        let video = try Clip.video(url)
        let clip = Clip.stitched([
            video.trimmed(from: frameTime(5), to: frameTime(25)),
            video.trimmed(from: frameTime(30), to: frameTime(60)).reversed(),
            video.speed(2).trimmed(from: frameTime(3), to: frameTime(20)),
            video.trimmed(from: frameTime(60), to: frameTime(80)).speed(0.5),
        ])
        // In memory first …
        let one = try clip.renderFrames(width: 320, height: 240, rate: rate, drawingThreads: 1)
        let four = try clip.renderFrames(width: 320, height: 240, rate: rate, drawingThreads: 4)
        #expect(one.count == four.count && one == four, "in memory: \(zip(one, four).filter { $0 != $1 }.count) of \(one.count) frames differ")
        // … then encoded and decoded again.
        let a = folder.file("one.mp4"), b = folder.file("four.mp4")
        try renderMovie(clip, to: a, drawingThreads: 1)
        try renderMovie(clip, to: b, drawingThreads: 4)
        let fa = try decodeAll(a).map(\.pixels), fb = try decodeAll(b).map(\.pixels)
        #expect(fa.count == one.count && fa == fb, "decoded: \(fa.count) and \(fb.count) frames, \(zip(fa, fb).filter { $0 != $1 }.count) differ")
    }

    /// The decoder pool lends one take's decoders to whichever place asks; which decoder serves which
    /// frame depends on the threads' timing and the limit, the frames must not.
    @Test("one take in two places at once (side by side, crossfaded, reversed, looped): the same frames on 1 and 4 threads, with 1 or 4 decoders",
          arguments: ["side by side", "side by side reversed", "crossfaded", "a crossfade looped", "beside itself reversed"])
    func oneTakeInTwoPlacesGivesTheSameFramesWhateverServesIt(composition: String) throws {
        let video = try Clip.video(try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 90)))
        let a = video.trimmed(from: frameTime(0), to: frameTime(20)), b = video.trimmed(from: frameTime(50), to: frameTime(70))
        let clip: Clip = switch composition {
        case "side by side": try Clip.split(.sideBySide, [a, b])
        case "side by side reversed": try Clip.split(.sideBySide, [a, b]).reversed()
        case "crossfaded": Clip.sequence([a, b, a], transition: .crossfade(duration: frameTime(8)))
        case "a crossfade looped": Clip.sequence([a, b], transition: .crossfade(duration: frameTime(8))).looped(toFill: frameTime(70))
        default: try Clip.split(.sideBySide, [a, a.reversed()])
        }
        let one = try clip.renderFrames(width: 320, height: 240, rate: rate, drawingThreads: 1, videoDecoderLimit: 1)
        #expect(one.count == rate.frameCount(for: clip.duration))
        for (threads, limit) in [(1, 4), (4, 1), (4, 4)] {
            let other = try clip.renderFrames(width: 320, height: 240, rate: rate, drawingThreads: threads, videoDecoderLimit: limit)
            #expect(other == one, "\(threads) threads, \(limit) decoders: \(zip(other, one).filter { $0 != $1 }.count) of \(one.count) frames differ")
        }
    }

    // MARK: Orientation

    /// The YUV → RGB conversion the video leaf makes (VideoPictureConverter), to tell its colour
    /// conversion from its geometry in messages.
    private static let leafConversion = "bilinear+accurate_rnd+full_chroma_int"

    @Test("Rotation 90°/180°/270°: probed size swapped for 90/270, every frame turned as ffmpeg auto-rotates it (luma PSNR ≥ 40 dB)",
          arguments: [90, 180, 270])
    func rotation(degrees: Int) throws {
        let spec = VideoFixtures.Spec(frameCount: 20)
        let url = try VideoFixtures.require(spec, .rotated(degrees))
        let file = try VideoFile(url: url)
        #expect(file.rotation == degrees && !file.isMirrored, "probed rotation \(file.rotation), mirrored \(file.isMirrored)")
        #expect(file.codedWidth == 320 && file.codedHeight == 240)
        #expect(degrees == 180 ? (file.width == 320 && file.height == 240) : (file.width == 240 && file.height == 320),
                "probed size \(file.width)×\(file.height)")
        try checkAgainstFFmpeg(url, file: file, expected: { VideoFixtures.FrameCode(index: $0, rotation: degrees, isMirrored: false) })
    }

    /// A mirroring display matrix, alone or with a quarter turn: a transpose, whose order matters (ffmpeg
    /// turns, then mirrors, keeping the top-left corner; mirroring before turning showed it upside down).
    /// The frame code reads a picture mirrored first, then turned: a transpose is mirrored, then 270°.
    @Test("Mirrored and transposed display matrices: probed as mirrored (and turned), every frame as ffmpeg shows it (luma PSNR ≥ 40 dB)",
          arguments: [(VideoFixtures.Variant.mirrored, 0, 0), (.transposed, 90, 270)])
    func mirrored(variant: VideoFixtures.Variant, rotation: Int, codeRotation: Int) throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 20), variant)
        let file = try VideoFile(url: url)
        #expect(file.rotation == rotation && file.isMirrored, "probed rotation \(file.rotation), mirrored \(file.isMirrored)")
        #expect(rotation == 0 ? (file.width == 320 && file.height == 240) : (file.width == 240 && file.height == 320), "probed size \(file.width)×\(file.height)")
        try checkAgainstFFmpeg(url, file: file, expected: { VideoFixtures.FrameCode(index: $0, rotation: codeRotation, isMirrored: true) })
    }

    /// Renders the whole clip at the probed (displayed) size and compares every frame with ffmpeg's
    /// auto-rotated decode: luma PSNR ≥ 40 dB (the geometry: a turn the wrong way or a pixel off
    /// scores far lower), and the frame's code, turn and mirror as `expected`. The RGB PSNR, which also
    /// measures the colour conversion (tested by `pictureMatchesDefaultDecode`), is printed.
    private func checkAgainstFFmpeg(_ url: URL, file: VideoFile, expected: (Int) -> VideoFixtures.FrameCode) throws {
        let rendered = try Clip.video(file).renderFrames(width: file.width, height: file.height, rate: rate, drawingThreads: 2)
        let oracle = try VideoFixtures.ffmpegFrames(url)
        let sameConversion = try VideoFixtures.ffmpegFrames(url, swsFlags: Self.leafConversion)
        #expect(rendered.count == oracle.count, "\(rendered.count) frames rendered, ffmpeg decodes \(oracle.count)")
        var worstLuma = Double.infinity, worstRGB = Double.infinity, worstSame = Double.infinity, problems: [String] = []
        for (k, (r, o)) in zip(rendered, oracle).enumerated() {
            guard r.width == o.width && r.height == o.height else { Issue.record("frame \(k): \(r.width)×\(r.height) vs ffmpeg \(o.width)×\(o.height)"); return }
            let luma = VideoFixtures.lumaPSNR(r, o)
            worstLuma = min(worstLuma, luma); worstRGB = min(worstRGB, psnr(r, o)); worstSame = min(worstSame, psnr(r, sameConversion[k]))
            if luma < 40 { problems.append("frame \(k): luma PSNR \(luma) dB") }
            let code = VideoFixtures.frameCode(of: r)
            if code != expected(k) { problems.append("frame \(k) reads \(code.map(\.description) ?? "nothing"), expected \(expected(k))") }
        }
        #expect(problems.isEmpty, "\(url.lastPathComponent): \(problems.prefix(6))")
        print("\(url.lastPathComponent): lowest PSNR against ffmpeg's auto-rotated frames over \(rendered.count) frames: luma \(worstLuma) dB, RGB \(worstRGB) dB (RGB \(worstSame) dB with the leaf's own conversion flags)")
    }

    @Test("Picture: an unturned clip frame is within 40 dB PSNR of ffmpeg's default decode, and no further from the drawn frame than MovieReader's")
    func pictureMatchesDefaultDecode() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 20))
        let clip = try Clip.video(url).renderFrames(width: 320, height: 240, rate: rate, drawingThreads: 2)
        let ffmpeg = try VideoFixtures.ffmpegFrames(url)
        let reader = try decodeAll(url).map(\.pixels)
        let drawn = try VideoFixtures.drawnFrame(index: 7)
        let vsFFmpeg = psnr(clip[7], ffmpeg[7])
        let clipVsDrawn = psnr(clip[7], drawn), readerVsDrawn = psnr(reader[7], drawn), ffmpegVsDrawn = psnr(ffmpeg[7], drawn)
        print("frame 7: clip vs ffmpeg \(vsFFmpeg) dB; against the drawn frame: clip \(clipVsDrawn), MovieReader \(readerVsDrawn), ffmpeg \(ffmpegVsDrawn) dB")
        #expect(vsFFmpeg >= 40, "clip vs ffmpeg's default decode: \(vsFFmpeg) dB (the leaf converts with \(Self.leafConversion))")
        #expect(clipVsDrawn >= readerVsDrawn - 1, "against the drawn frame the clip scores \(clipVsDrawn) dB, MovieReader \(readerVsDrawn) dB, ffmpeg \(ffmpegVsDrawn) dB")
    }

    // MARK: Stitching

    @Test("Stitching 10 clips cut mid-tone: no click at any cut (high-passed peak ≥ 40 dB under the tone), exact length, right frames, ≤ 2 decoders")
    func stitchedCutsDoNotClick() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let video = try Clip.video(try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 90)))
        let clip = Clip.stitched(tenPieces.map { video.trimmed(from: frameTime($0.start), to: frameTime($0.start + $0.count)) })
        #expect(same(clip.duration, frameTime(96)), "stitched length \(clip.duration), expected 96 frames (3.2 s)")
        let url = folder.file("stitched.mp4")
        let peak = try renderMovie(clip, to: url)
        #expect(peak >= 1 && peak <= 2, "peak open video decoders: \(peak)")
        // The frames.
        let decoded = try decodeAll(url)
        let got = indices(decoded.map(\.pixels))
        #expect(got == expectedIndices(tenPieces).map { Optional($0) }, "\(mismatches(got, expectedIndices(tenPieces)))")
        #expect(abs((decoded.last?.presentationTime.seconds ?? 0) - rate.seconds(ofFrame: 95)) < 1e-6)
        // The sound at each cut.
        let audio = try decodeAudio(url, in: folder)
        #expect(audio.samples.count == 153_600, "\(audio.samples.count) samples, expected 3.2 s × 48 kHz")
        var report: [String] = []
        for c in cutFrames(tenPieces) {
            let at = Int((rate.seconds(ofFrame: c) - audio.start) * Double(audio.rate))
            let peak = VideoFixtures.highPassedPeak(audio.samples, range: (at - 960)..<(at + 960))
            let db = 20 * log10(Double(peak.value) / Double(VideoFixtures.toneAmplitude))
            report.append(String(format: "%.1f", db))
            #expect(db <= -40, "cut at frame \(c): high-passed peak \(db) dB against the tone, \(peak.at - at) samples from the cut")
        }
        print("stitched 10 × 440 Hz: high-passed peaks at the cuts \(report) dB; peak decoders \(peak)")
    }

    @Test("Stitching: each audio crossfade is equal-power, ≥ 10 ms and centred on the cut's frame boundary (±1 ms), also when asked for 0",
          arguments: [Time(value: 1, timescale: 50), Time.zero])
    func stitchedCrossfades(asked: Time) throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        // Alternate a 500 Hz and a 750 Hz source, so each side of a cut can be measured on its own.
        let low = try Clip.video(try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 90, toneFrequency: 500)))
        let high = try Clip.video(try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 90, toneFrequency: 750)))
        let clips = tenPieces.enumerated().map { i, p in (i % 2 == 0 ? low : high).trimmed(from: frameTime(p.start), to: frameTime(p.start + p.count)) }
        let clip = Clip.stitched(clips, audioCrossfade: asked)
        #expect(same(clip.duration, frameTime(96)))
        let url = folder.file("alternating.mp4")
        let peak = try renderMovie(clip, to: url)
        #expect(peak >= 1 && peak <= 2, "peak open video decoders: \(peak)")
        let audio = try decodeAudio(url, in: folder)
        // The fade asked for, but never under 10 ms (the measurement is good to ±0.3 ms).
        let expected = max(0.010, asked.seconds)
        var report: [String] = []
        for (i, c) in cutFrames(tenPieces).enumerated() {
            let cutTime = rate.seconds(ofFrame: c)
            let at = Int(((cutTime - audio.start) * Double(audio.rate)).rounded())
            let (f1, f2) = i % 2 == 0 ? (500.0, 750.0) : (750.0, 500.0)
            guard let fade = VideoFixtures.measureCrossfade(audio.samples, rate: audio.rate, cut: at, outgoing: f1, incoming: f2) else {
                Issue.record("cut \(i) at frame \(c): no crossfade found (the sounds do not cross, or the incoming one never reaches 80 %, within ±40 ms)")
                continue
            }
            let offset = fade.centre + audio.start - cutTime
            report.append(String(format: "%+.2f ms, %.1f ms, level %.2f, power ±%.2f", offset * 1000, fade.length * 1000, fade.levelAtCentre, fade.powerDeviation))
            #expect(abs(offset) <= 0.001, "cut \(i) at frame \(c): the crossfade is centred \(offset * 1000) ms from the frame boundary")
            #expect(fade.length >= 0.0097, "cut \(i): the crossfade lasts \(fade.length * 1000) ms (at least 10 ms wanted; asked \(asked.seconds * 1000) ms)")
            #expect(abs(fade.length - expected) <= 0.001, "cut \(i): the crossfade lasts \(fade.length * 1000) ms, expected \(expected * 1000) ms")
            #expect(abs(fade.levelAtCentre - 0.7071) <= 0.05 && fade.powerDeviation <= 0.1,
                    "cut \(i): not equal-power: both at \(fade.levelAtCentre) where they cross (0.71 wanted, linear gives 0.5), power off by up to \(fade.powerDeviation)")
            let hp = VideoFixtures.highPassedPeak(audio.samples, range: (at - 960)..<(at + 960))
            #expect(20 * log10(Double(hp.value) / Double(VideoFixtures.toneAmplitude)) <= -40, "cut \(i): high-passed peak \(hp.value) (a click)")
        }
        print("crossfades asked \(asked.seconds * 1000) ms: \(report)")
    }

    // MARK: Audio/video offset

    @Test("A 21 ms audio/video offset in the source survives trim and stitch (clicks vs frames, ±2 ms)")
    func audioOffsetSurvives() throws {
        let folder = try TemporaryFolder()
        let spec = VideoFixtures.Spec(frameCount: 90, clickFrames: [8, 20, 33, 47, 61, 75])
        let url = try VideoFixtures.require(spec, .audioOffset(milliseconds: 21))
        let file = try VideoFile(url: url)
        print("audio-offset fixture probes audioOffset = \(file.audioOffset.map { "\($0.seconds * 1000) ms" } ?? "nil")")
        let video = Clip.video(file)
        let edits: [(String, Clip)] = [
            ("untouched", video),
            ("trimmed 15…70", video.trimmed(from: frameTime(15), to: frameTime(70))),
            ("stitched 0…30 + 40…85", Clip.stitched([video.trimmed(from: .zero, to: frameTime(30)), video.trimmed(from: frameTime(40), to: frameTime(85))])),
        ]
        for (name, clip) in edits {
            let movie = folder.file("offset-\(name.prefix(4)).mp4")
            try renderMovie(clip, to: movie)
            // When each source frame is shown in the output (its first appearance).
            var shownAt: [Int: Double] = [:]
            for f in try decodeAll(movie) {
                if let i = VideoFixtures.frameIndex(of: f.pixels), shownAt[i] == nil { shownAt[i] = f.presentationTime.seconds }
            }
            let expected = spec.clickFrames.compactMap { f in shownAt[f].map { $0 + 0.021 + VideoFixtures.clickLength.seconds / 2 } }
            let audio = try decodeAudio(movie, in: folder)
            let found = VideoFixtures.clickCentres(in: audio.samples, rate: audio.rate).map { $0 + audio.start }
            #expect(found.count == expected.count, "\(name): clicks at \(found), expected at \(expected)")
            var errors: [String] = []
            for e in expected {
                let nearest = found.min { abs($0 - e) < abs($1 - e) } ?? .nan
                errors.append(String(format: "%+.2f", (nearest - e) * 1000))
                #expect(abs(nearest - e) <= 0.002, "\(name): click expected at \(e) s (21 ms after its frame), nearest at \(nearest) s")
            }
            print("offset \(name): click errors \(errors) ms")
        }
    }

    // MARK: Broken files

    @Test("Truncated, audio-only, empty, non-video and missing files each give their typed error naming the file, before any frame",
          arguments: ["truncated", "audio-only", "empty", "not-video", "missing"])
    func brokenFiles(kind: String) throws {
        let folder = try TemporaryFolder()
        let spec = VideoFixtures.Spec(frameCount: 60)
        let (url, code): (URL, MovieMakerError.Code) = switch kind {
        case "truncated": (try VideoFixtures.movie(spec, .truncated), .movieTruncated)
        case "audio-only": (try VideoFixtures.require(spec, .audioOnly), .noVideoStream)
        case "empty": (try VideoFixtures.movie(spec, .empty), .movieUnreadable)
        case "not-video": (try VideoFixtures.movie(spec, .notVideo), .movieUnreadable)
        default: (folder.file("no-such-video.mp4"), .movieUnreadable)
        }
        let movie = try MovieMaker(url: folder.file("out.mp4"), width: 320, height: 240, fps: rate,
                                   settings: EncoderSettings(preset: .ultrafast, threads: 1))
        do {
            try movie.add(try Clip.video(url))
            Issue.record("\(kind): no error; \(movie.frameCount) frames added")
        } catch let error as MovieMakerError {
            #expect(error.code == code, "\(kind): \(error.code) (\(error.message)), expected \(code)")
            #expect(error.location?.file == url.path, "\(kind): the error's file is \(error.location?.file ?? "nil")")
            #expect(error.message.contains(url.lastPathComponent), "\(kind): the message does not name the file: \(error.message)")
        }
        #expect(movie.frameCount == 0, "\(kind): \(movie.frameCount) frames were added before the error")
        movie.cancel()
    }

    /// A phone or camera writes the MP4's index (moov) when the recording stops: a copy cut off before it
    /// was called "not a media file libavformat recognises", as if it were some other kind of file.
    @Test("an MP4 cut off before its index (moov at the end) is truncated, saying the index is missing; other junk is not a media file")
    func aClipCutOffBeforeItsIndexIsTruncated() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let whole = folder.file("whole.mp4"), cut = folder.file("cut.mp4"), junk = folder.file("junk.mp4")
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=2", "-c:v", "libx264", "-preset", "ultrafast", whole.path])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: whole)
        try data.prefix(data.count / 2).write(to: cut)
        try Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }).write(to: junk)
        #expect(OpenVideo.missingIndex(whole.path) == nil, "a whole file has its index")
        for (url, code, words) in [(cut, MovieMakerError.Code.movieTruncated, "moov index"), (junk, .movieUnreadable, "not a media file")] {
            do {
                _ = try VideoFile(url: url)
                Issue.record("\(url.lastPathComponent) opened")
            } catch {
                #expect(error.code == code && error.message.contains(words), "\(url.lastPathComponent): \(error.message)")
            }
        }
        // A voice memo (M4A, its index written last) cut off the same way is said to be, too.
        let memo = folder.file("memo.m4a"), cutMemo = folder.file("memo-cut.m4a")
        let m = try run(FFTools.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=d=2", "-c:a", "aac", memo.path])
        #expect(m.status == 0, "\(m.stderr)")
        let memoData = try Data(contentsOf: memo)
        try memoData.prefix(memoData.count / 2).write(to: cutMemo)
        _ = try AudioFile(url: memo)     // whole, it opens
        do {
            _ = try AudioFile(url: cutMemo)
            Issue.record("the cut memo opened")
        } catch {
            #expect(error.code == .audioUnreadable && error.message.contains("moov index") && error.message.contains("memo-cut.m4a"), "\(error.message)")
        }
    }

    // MARK: Codecs and containers

    @Test("Every codec/container variant decodes with the right block indices; HDR is refused or not washed out; interlaced decodes",
          arguments: VideoFixtures.Codec.allCases)
    func codecs(codec: VideoFixtures.Codec) throws {
        let spec = VideoFixtures.Spec(frameCount: 30)
        let url = try VideoFixtures.require(spec, .encoded(codec))
        let opened: Result<Clip, MovieMakerError> = Result { () throws(MovieMakerError) in try Clip.video(url) }
        if codec == .hdrHEVC, case .failure(let error) = opened {
            #expect(error.code == .videoUnsupported, "HDR refused with \(error.code): \(error.message)")
            #expect(error.message.contains(url.lastPathComponent))
            return
        }
        let clip = try opened.get()
        let file = try VideoFile(url: url)
        if codec == .interlacedH264 { #expect(file.isInterlaced, "the interlaced fixture probes as progressive") }
        // What each output frame should show: the frame ffmpeg decodes with the largest timestamp at or
        // before the output time (from the first frame's), allowing 1 ms for containers that round
        // timestamps to the millisecond (Matroska, WebM). For a clean file that is frame k; a file
        // whose re-encode dropped and repeated a frame (ffmpeg's MPEG-4 AVI here) differs.
        let times = try VideoFixtures.ffprobeFrameTimes(url)
        let shown = try VideoFixtures.ffmpegFrames(url).map { VideoFixtures.frameIndex(of: $0) }
        try #require(times.count == shown.count && !times.isEmpty, "ffprobe lists \(times.count) frames, ffmpeg decodes \(shown.count)")
        let rendered = try frames(clip)
        let got = indices(rendered)
        let expected = (0..<rendered.count).map { k -> Int in
            let t = times[0] + rate.seconds(ofFrame: k) + 0.001
            return (times.lastIndex { $0 <= t }.flatMap { shown[$0] }) ?? -1
        }
        #expect(got == expected.map { Optional($0) }, "\(codec) (\(file.codec), \(file.pixelFormat), \(rendered.count) frames for \(file.duration.seconds) s): \(mismatches(got, expected))")
        #expect(Set(got.compactMap { $0 }) == Set(0..<spec.frameCount), "\(codec): source frames never shown: \(Set(0..<spec.frameCount).subtracting(got.compactMap { $0 }).sorted())")
        if codec == .hdrHEVC, let f = rendered.first {
            // Tone-mapped rather than refused: the black cells still dark, the white ones bright.
            let code = VideoFixtures.codeRect(width: 320, height: 240)
            let cell = code.width / Double(VideoFixtures.codeCells)
            let black = meanColor(f, x: Int(code.minX + 1.5 * cell), y: Int(code.midY)), white = meanColor(f, x: Int(code.minX + 0.5 * cell), y: Int(code.midY))
            #expect(black.r < 40 && white.r > 200, "HDR shown washed out: black cell \(black), white cell \(white)")
        }
    }

    @Test("An HDR (PQ, BT.2020) phone clip is tone mapped to SDR BT.709 as FFmpeg's documented recipe maps it, not refused")
    func hdrIsToneMapped() throws {
        guard VideoFrameSource.canToneMap else { return }
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 30), .encoded(.hdrHEVC))
        let rendered = try frames(try Clip.video(url))
        #expect(rendered.count == 30)
        // The same filters through the ffmpeg command, converted to RGB with bilinear scaling and exact
        // rounding, as the library's converter does.
        let reference = try VideoFixtures.ffmpegFrames(url, filter: VideoFrameSource.toneMappingFilters, swsFlags: "bilinear+accurate_rnd+full_chroma_int")
        try #require(reference.count == 30)
        for k in [0, 15, 29] {
            let db = psnr(rendered[k], reference[k])
            #expect(db >= 35, "frame \(k): \(db) dB against ffmpeg's tone mapping")
        }
    }
}

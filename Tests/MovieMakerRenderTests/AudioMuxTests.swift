import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Test-only sounds, each sample computed from its absolute index (so nothing accumulates).

/// A sum of sines at `frequencies` (each of peak `amplitude`), starting at phase 0 at sample 0 and
/// lasting `length` (nil: as long as asked).
private struct TestTone: AudioSource {
    var frequencies: [Double] = [440]
    var amplitude: Float = 0.5
    var length: Time? = nil
    var duration: Time? { length }
    func makeReader(format: AudioFormat) throws -> any AudioReader {
        TestToneReader(tone: self, format: format)
    }
    /// The value of sample frame `n` at `rate` (every channel the same).
    func sample(_ n: Int64, rate: Int) -> Float {
        var v = 0.0
        for f in frequencies { v += sin(2 * Double.pi * f * Double(n) / Double(rate)) }
        return amplitude * Float(v)
    }
}

private final class TestToneReader: AudioReader {
    let tone: TestTone
    let format: AudioFormat
    private var position: Int64 = 0
    private let end: Int64
    init(tone: TestTone, format: AudioFormat) {
        self.tone = tone; self.format = format
        end = tone.length.map { format.frame(at: $0) } ?? .max
    }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount
        for i in 0..<frameCount {
            let n = position + Int64(i)
            let v = n < end ? tone.sample(n, rate: format.sampleRate) : 0
            for c in 0..<channels { buffer[i * channels + c] = v }
        }
        position += Int64(frameCount)
    }
}

/// A `frequency` Hz beep of `beepLength` at peak `amplitude`, starting at phase 0 at each of `onsets`.
private struct BeepTrain: AudioSource {
    var onsets: [Time]
    var frequency = 1000.0
    var amplitude: Float = 0.5
    var beepLength: Time = 0.1
    var duration: Time? { nil }
    func makeReader(format: AudioFormat) throws -> any AudioReader {
        BeepTrainReader(onsets: onsets.map { format.frame(at: $0) }, length: format.frame(at: beepLength),
                        frequency: frequency, amplitude: amplitude, format: format)
    }
}

private final class BeepTrainReader: AudioReader {
    let onsets: [Int64]
    /// One beep, sample by sample from its onset (each beep is the same, starting at phase 0).
    let beep: [Float]
    let format: AudioFormat
    private var position: Int64 = 0
    private var next = 0   // index of the first onset whose beep has not ended before `position`
    init(onsets: [Int64], length: Int64, frequency: Double, amplitude: Float, format: AudioFormat) {
        self.onsets = onsets; self.format = format
        beep = (0..<Int(length)).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(format.sampleRate))) }
    }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount, length = Int64(beep.count)
        buffer.update(repeating: 0, count: frameCount * channels)
        var next = self.next
        let start = position, stop = position + Int64(frameCount)
        onsets.withUnsafeBufferPointer { onsets in
            beep.withUnsafeBufferPointer { beep in
                while next < onsets.count && onsets[next] + length <= start { next += 1 }
                var k = next
                while k < onsets.count && onsets[k] < stop {
                    for n in max(start, onsets[k])..<min(stop, onsets[k] + length) {
                        let v = beep[Int(n - onsets[k])]
                        for c in 0..<channels { buffer[Int(n - start) * channels + c] = v }
                    }
                    k += 1
                }
            }
        }
        self.next = next
        position = stop
    }
}

/// A tone whose reader throws once `failAt` has been read (a file that breaks mid-render).
private struct FailingSound: AudioSource {
    var failAt: Time
    var duration: Time? { nil }
    func makeReader(format: AudioFormat) throws -> any AudioReader { FailingReader(failAt: format.frame(at: failAt), format: format) }
}

private struct ReadFailure: Error, CustomStringConvertible {
    var description: String { "the test reader broke on purpose" }
}

private final class FailingReader: AudioReader {
    let failAt: Int64, format: AudioFormat
    private var position: Int64 = 0
    init(failAt: Int64, format: AudioFormat) { self.failAt = failAt; self.format = format }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        if position + Int64(frameCount) > failAt { throw ReadFailure() }
        buffer.update(repeating: 0.1, count: frameCount * format.channelCount)
        position += Int64(frameCount)
    }
}

/// Counts the readers made of a tone (a normalised mix measures its whole sound each time one is made).
private final class OpenCount: @unchecked Sendable {
    // @unchecked: incremented under the lock, from whichever thread opens a reader.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private struct CountedSound: AudioSource {
    let opened: OpenCount
    var duration: Time? { 1 }
    func makeReader(format: AudioFormat) throws -> any AudioReader {
        opened.add()
        return try TestTone(length: 1).makeReader(format: format)
    }
}

/// A sound whose file cannot be opened: `makeReader` throws.
private struct UnopenableSound: AudioSource {
    var duration: Time? { 1 }
    func makeReader(format: AudioFormat) throws -> any AudioReader {
        throw MovieMakerError.audioUnreadable(path: "/nowhere/missing.mp3", reason: "No such file or directory")
    }
}

/// Records the `willEnd` it is told, and whether it was read past that end minus its fade.
private final class EndProbe: @unchecked Sendable {
    // @unchecked: written by the encoder thread, read by the test after finish() has joined it.
    var toldEnd: Int64?
    var readBeforeTold: Int64 = 0
}

private struct EndFadingSound: AudioSource {
    var fade: Time
    let probe: EndProbe
    var duration: Time? { nil }
    var endFadeDuration: Time { fade }
    func makeReader(format: AudioFormat) throws -> any AudioReader { EndProbeReader(probe: probe, format: format) }
}

private final class EndProbeReader: AudioReader {
    let probe: EndProbe, format: AudioFormat
    private var position: Int64 = 0
    init(probe: EndProbe, format: AudioFormat) { self.probe = probe; self.format = format }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        buffer.update(repeating: 0, count: frameCount * format.channelCount)
        position += Int64(frameCount)
        if probe.toldEnd == nil { probe.readBeforeTold = position }
    }
    func willEnd(atFrame frame: Int64) { probe.toldEnd = frame }
}

/// White noise of peak `amplitude`, each sample hashed from its index (a sound the encoder must spend bits on).
private struct TestNoise: AudioSource {
    var amplitude: Float = 0.5
    var duration: Time? { nil }
    func makeReader(format: AudioFormat) throws -> any AudioReader { TestNoiseReader(amplitude: amplitude, format: format) }
}

private final class TestNoiseReader: AudioReader {
    let amplitude: Float, format: AudioFormat
    private var position: Int64 = 0
    init(amplitude: Float, format: AudioFormat) { self.amplitude = amplitude; self.format = format }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        for i in 0..<(frameCount * format.channelCount) {
            var g = SplitMix64(seed: UInt64(position) &* 8 &+ UInt64(i))
            buffer[i] = amplitude * (Float(g.next() >> 40) / Float(1 << 24) * 2 - 1)
        }
        position += Int64(frameCount)
    }
}

/// How many sample frames a `PositionProbe`'s reader has produced, shared with the test.
private final class ReadCounter: Sendable {
    let frames = Mutex<Int64>(0)
}

/// Silence whose reader publishes how far it has been read (from the encoder thread).
private struct PositionProbe: AudioSource {
    let counter: ReadCounter
    var duration: Time? { nil }
    func makeReader(format: AudioFormat) throws -> any AudioReader { PositionProbeReader(probe: self, format: format) }
}

private final class PositionProbeReader: AudioReader {
    let probe: PositionProbe, format: AudioFormat
    init(probe: PositionProbe, format: AudioFormat) { self.probe = probe; self.format = format }
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        buffer.update(repeating: 0, count: frameCount * format.channelCount)
        probe.counter.frames.withLock { $0 += Int64(frameCount) }
    }
}

// Decoding with ffmpeg, the second opinion.

/// The first sample at or after `from` where a 1 ms RMS envelope reaches half the level the sound
/// holds 20…60 ms later: the onset of a beep, in seconds of the decoded stream.
private func onset(in samples: [Float], near t: Double, start: Double, rate: Int, search: Double = 0.05) -> Double? {
    let half = rate / 2000
    let centre = Int(((t - start) * Double(rate)).rounded())
    // Samples before the stream's start count as silence (the first beep starts at sample 0).
    let lo = centre - Int(search * Double(rate)) - half, hi = min(samples.count, centre + Int(0.06 * Double(rate)) + half)
    guard hi - lo > 4 * half else { return nil }
    // Running sums of squares over the window, so each 1 ms RMS costs two lookups.
    var sums = [Double](repeating: 0, count: hi - lo + 1)
    samples.withUnsafeBufferPointer { s in
        for i in lo..<hi { sums[i - lo + 1] = sums[i - lo] + (i >= 0 ? Double(s[i]) * Double(s[i]) : 0) }
    }
    func rms(_ c: Int) -> Double { ((sums[c + half - lo] - sums[c - half - lo]) / Double(2 * half)).squareRoot() }
    let from = lo + half, to = min(hi - half, centre + Int(search * Double(rate)))
    // The level the beep holds from 20 ms to 60 ms after the expected onset.
    let steadyFrom = centre + Int(0.02 * Double(rate)), steadyTo = hi - half
    guard steadyFrom < steadyTo, from < to else { return nil }
    let steady = ((sums[steadyTo - lo] - sums[steadyFrom - lo]) / Double(steadyTo - steadyFrom)).squareRoot()
    for c in from..<to where rms(c) >= steady / 2 { return start + Double(c) / Double(rate) }
    return nil
}

/// The presentation times of decoded frames that are white (the flashes), in seconds.
private func flashTimes(_ url: URL) throws -> [Double] {
    var times: [Double] = []
    try MovieReader(url: url).decodeFrames { frame in
        if meanColor(frame.pixels, x: frame.pixels.width / 2, y: frame.pixels.height / 2).r > 200 { times.append(frame.presentationTime.seconds) }
        return true
    }
    return times
}

@Suite("Audio encoding and muxing")
struct AudioMuxTests {
    /// Renders a movie of `seconds` at `rate` where frame ⌈k·rate⌉ is white (all others black) and a
    /// 1 kHz beep starts at exactly that frame's time, for every whole second k.
    private func flashAndBeepMovie(_ url: URL, seconds: Int, rate: FrameRate, audio: AudioSettings,
                                   video: EncoderSettings = EncoderSettings(preset: .ultrafast, threads: 1, drawingThreads: 1)) throws -> (flashes: [Int], onsets: [Time]) {
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: rate, settings: video, audioSettings: audio)
        let frames = rate.frameCount(for: Time(value: Int64(seconds), timescale: 1))
        let flashes = (0..<seconds).map { rate.frameCount(for: Time(value: Int64($0), timescale: 1)) }
        let onsets = flashes.map { rate.time(ofFrame: $0) }
        try movie.addAudio(BeepTrain(onsets: onsets))
        var nextFlash = 0
        try movie.addFrames(count: frames) { ctx, frame in
            var white = false
            if nextFlash < flashes.count && flashes[nextFlash] == frame.index { white = true; nextFlash += 1 }
            ctx.setFill(white ? .white : .black)
            ctx.fillRect(ctx.bounds)
        }
        try movie.finish()
        return (flashes, onsets)
    }

    /// Checks every flash against its beep's onset in the decoded audio; returns the largest gap (s).
    private func checkSync(_ url: URL, flashes expected: [Int], rate: FrameRate, in folder: TemporaryFolder,
                           tolerance: Double = 0.005) throws -> Double {
        let flashes = try flashTimes(url)
        #expect(flashes.count == expected.count, "\(flashes.count) white frames decoded, \(expected.count) drawn")
        // The flashes decode at their frames' exact times (so comparing with them checks the audio),
        // after the video's start (0, except in Matroska with AAC, where every stream moves by the
        // encoder delay).
        let videoStart = double(try probeStreams(url)["video"], "start_time") ?? 0
        for (t, f) in zip(flashes, expected) where abs(t - videoStart - rate.seconds(ofFrame: f)) > 0.001 {
            Issue.record("flash of frame \(f) decoded at \(t) s, not \(rate.seconds(ofFrame: f)) s")
            break
        }
        let audio = try decodeAudio(url, in: folder)
        var worst = 0.0, checked = 0
        for (k, t) in flashes.enumerated() {
            guard let o = onset(in: audio.samples, near: t, start: audio.start, rate: audio.rate) else {
                Issue.record("no beep found near the flash at \(t) s (#\(k))"); continue
            }
            worst = max(worst, abs(o - t)); checked += 1
            if abs(o - t) > tolerance { Issue.record("beep #\(k) starts at \(o) s, the flash at \(t) s: \((o - t) * 1000) ms apart") }
        }
        #expect(checked == flashes.count)
        return worst
    }

    // At 30000/1001 fps only: the drift a non-integer rate accumulates is what ten minutes can show (30 fps
    // is checked over shorter movies in the other sync tests).
    @Test("Sync: beeps start within 5 ms of their flash frames across a 10-minute movie", arguments: [FrameRate.ntsc])
    func syncOverTenMinutes(rate: FrameRate) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("sync.mp4")
        // Mono at a low bit rate keeps the encode fast; timing does not depend on either.
        let (flashes, _) = try flashAndBeepMovie(url, seconds: 600, rate: rate, audio: AudioSettings(channelCount: 1, bitRate: 48_000))
        let worst = try checkSync(url, flashes: flashes, rate: rate, in: folder)
        #expect(worst <= 0.005, "largest flash-to-beep gap \(worst * 1000) ms at \(rate) fps")
    }

    @Test("Sync holds with B-frames and in other containers: AAC in .mov and .mkv, Opus in .webm",
          arguments: ["mp4 with B-frames", "mov", "mkv", "webm"])
    func syncInOtherContainers(name: String) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let ext = String(name.prefix(while: { $0 != " " }))
        let url = folder.file("sync.\(ext)")
        let rate = FrameRate.ntsc
        // x264's default preset uses B-frames (video packets then start before 0, behind an edit list).
        let video = ext == "mp4" ? EncoderSettings(threads: 1) : EncoderSettings(preset: .ultrafast, threads: 1)
        let (flashes, _) = try flashAndBeepMovie(url, seconds: 4, rate: rate, audio: AudioSettings(channelCount: 1, bitRate: 64_000), video: video)
        let streams = try probeStreams(url)
        #expect(streams["audio"]?["codec_name"] as? String == (ext == "webm" ? "opus" : "aac"))
        // Matroska keeps whole milliseconds, so allow its rounding on top of the 5 ms.
        let worst = try checkSync(url, flashes: flashes, rate: rate, in: folder, tolerance: ext.hasPrefix("m") && ext != "mkv" ? 0.005 : 0.006)
        #expect(worst <= 0.006, "largest flash-to-beep gap \(worst * 1000) ms in .\(ext)")
    }

    /// ffprobe's audio and video stream durations of `url` (seconds).
    private func streamDurations(_ url: URL) throws -> (video: Double, audio: Double, audioSamples: Int?) {
        let streams = try probeStreams(url)
        let v = double(streams["video"], "duration"), a = double(streams["audio"], "duration")
        #expect(v != nil && a != nil, "ffprobe gave no durations: \(streams)")
        return (v ?? .nan, a ?? .nan, streams["audio"]?["duration_ts"] as? Int)
    }

    @Test("Duration: the sound track lasts exactly as long as the video, padded or trimmed",
          arguments: [FrameRate(30), FrameRate.ntsc], [1, 7, 45, 100])
    func audioDurationMatchesVideo(rate: FrameRate, frames: Int) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let movieLength = rate.time(ofFrame: frames)
        let expectedSamples = AudioFormat.standard.frame(at: movieLength)
        // A sound half as long as the movie (padded with silence), twice as long (trimmed), and endless.
        for (name, length) in [("short", Optional(Time(seconds: movieLength.seconds / 2))), ("long", movieLength * 2), ("endless", nil)] {
            let url = folder.file("\(name)-\(frames).mp4")
            let movie = try MovieMaker(url: url, width: 64, height: 64, fps: rate, settings: EncoderSettings(preset: .ultrafast, threads: 1))
            try movie.addAudio(TestTone(length: length))
            try movie.addFrames(count: frames) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
            try movie.finish()
            let d = try streamDurations(url)
            #expect(abs(d.video - movieLength.seconds) < 1e-4, "video lasts \(d.video) s, not \(movieLength.seconds) s")
            #expect(abs(d.audio - d.video) <= rate.frameDuration.seconds,
                    "\(name) sound, \(frames) frames at \(rate): audio \(d.audio) s, video \(d.video) s")
            // In fact exact to the sample: round(video duration × 48000) real samples.
            #expect(d.audioSamples == Int(expectedSamples), "\(name): \(d.audioSamples ?? -1) samples, expected \(expectedSamples)")
        }
    }

    @Test("Duration: .mov, .mkv and .webm sound tracks also last as long as the video", arguments: ["mov", "mkv", "webm"])
    func audioDurationInOtherContainers(ext: String) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let rate = FrameRate.ntsc
        for frames in [13, 50] {
            let url = folder.file("d\(frames).\(ext)")
            let movie = try MovieMaker(url: url, width: 64, height: 64, fps: rate, settings: EncoderSettings(preset: .ultrafast, threads: 1))
            try movie.addAudio(TestTone(length: 10))
            try movie.addFrames(count: frames) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
            try movie.finish()
            // Matroska gives stream durations only as tags, so compare the last packets' ends.
            let r = try run(FFTools.ffprobe, ["-v", "error", "-show_entries", "packet=stream_index,pts_time,duration_time",
                                              "-of", "csv=p=0", url.path])
            var ends: [Int: Double] = [:], starts: [Int: Double] = [:]
            for line in r.stdout.split(separator: "\n") {
                let f = line.split(separator: ",").map { String($0) }
                guard f.count >= 3, let i = Int(f[0]), let p = Double(f[1]), let d = Double(f[2]) else { continue }
                ends[i] = max(ends[i] ?? -.infinity, p + d); starts[i] = min(starts[i] ?? .infinity, p)
            }
            let streams = try probeStreams(url)
            let videoIndex = streams["video"]?["index"] as? Int ?? 0, audioIndex = streams["audio"]?["index"] as? Int ?? 1
            let audioStart = double(streams["audio"], "start_time") ?? 0, videoStart = double(streams["video"], "start_time") ?? 0
            let videoLength = (ends[videoIndex] ?? .nan) - videoStart, audioLength = (ends[audioIndex] ?? .nan) - max(audioStart, videoStart)
            #expect(abs(videoLength - rate.time(ofFrame: frames).seconds) <= 0.002, ".\(ext) video lasts \(videoLength) s")
            #expect(abs(audioLength - videoLength) <= rate.frameDuration.seconds,
                    ".\(ext), \(frames) frames: audio \(audioLength) s, video \(videoLength) s")
        }
    }

    @Test("Priming: the first decoded sample of a tone starting at t = 0 plays at t = 0")
    func primingIsRecorded() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("prime.mp4")
        let tone = TestTone(frequencies: [220, 347, 1013], amplitude: 0.25)
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        try movie.addAudio(tone)
        try movie.addFrames(count: 30) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        // The encoder delay is recorded: a priming packet before 0 and an edit list that hides it.
        let packets = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts",
                                                "-of", "csv=p=0", url.path]).stdout.split(separator: "\n")
            .compactMap { $0.split(separator: ",").first.flatMap { Int($0) } }
        #expect(packets.first == -1024, "first audio packet at \(packets.first ?? 0), not -1024 (AAC priming)")
        let streams = try probeStreams(url)
        #expect(double(streams["audio"], "start_time") == 0)
        let decoded = try decodeAudio(url, in: folder)
        #expect(decoded.start == 0, "first decoded audio frame at \(decoded.start) s")
        // Cross-correlate 0.5 s of the decoded sound with the tone over ±100 samples of offset.
        let n = 24_000
        try #require(decoded.samples.count >= n + 100)
        let reference = (0..<(n + 200)).map { tone.sample(Int64($0) - 100, rate: 48_000) }
        var best = (lag: 0, score: -Double.infinity)
        for lag in -100...100 {
            var s = 0.0
            for i in 0..<n { s += Double(decoded.samples[i]) * Double(reference[i + 100 - lag]) }
            if s > best.score { best = (lag, s) }
        }
        #expect(abs(best.lag) <= 1, "the decoded tone is \(best.lag) samples off")
        // And sample by sample it is the tone (AAC's error is small at this level).
        var err = 0.0, ref = 0.0
        for i in 0..<n { let r = Double(tone.sample(Int64(i), rate: 48_000)); err += pow(Double(decoded.samples[i]) - r, 2); ref += r * r }
        #expect(10 * log10(ref / err) > 20, "signal-to-error \(10 * log10(ref / err)) dB")
    }

    @Test("A sound cut by the movie's end fades out over the last 10 ms instead of clicking")
    func trimmedSoundEndsWithAFade() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("fade.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: .ntsc, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        try movie.addAudio(TestTone(frequencies: [440], amplitude: 0.5, length: 10))
        try movie.addFrames(count: 31) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        let end = Int(AudioFormat.standard.frame(at: FrameRate.ntsc.time(ofFrame: 31)))
        let samples = try decodeAudio(url, in: folder).samples
        try #require(samples.count >= end)
        func rms(_ r: Range<Int>) -> Double { (r.reduce(0.0) { $0 + Double(samples[$1]) * Double(samples[$1]) } / Double(r.count)).squareRoot() }
        let steady = rms((end - 4_800)..<(end - 960)), last = rms((end - 96)..<end)
        #expect(abs(steady - 0.5 / 2.0.squareRoot()) < 0.03, "tone RMS \(steady) before the end")
        #expect(last < steady * 0.2, "the last 2 ms hold RMS \(last), the tone \(steady)")
    }

    @Test("The sound track is AAC-LC at the asked sample rate, channel count and bit rate",
          arguments: [AudioSettings(), AudioSettings(sampleRate: 44_100, channelCount: 1, bitRate: 96_000)])
    func trackMatchesSettings(audio: AudioSettings) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("aac.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1),
                                   audioSettings: audio)
        #expect(movie.hasAudio && movie.audioCodec == .aac && movie.audioSettings == audio)
        try movie.addAudio(TestNoise())
        try movie.addFrames(count: 60) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        let a = try #require(try probeStreams(url)["audio"])
        #expect(a["codec_name"] as? String == "aac")
        #expect(a["profile"] as? String == "LC")
        #expect(a["sample_rate"] as? String == "\(audio.sampleRate)")
        #expect(a["channels"] as? Int == audio.channelCount)
        let bitRate = try #require(double(a, "bit_rate"))
        #expect(abs(bitRate / Double(audio.bitRate) - 1) < 0.2, "audio bit rate \(bitRate), asked \(audio.bitRate)")
    }

    @Test("Added sounds are summed, each from where it is placed")
    func soundsAreSummedAtTheirTimes() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("sum.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        let tone = TestTone(frequencies: [500], amplitude: 0.2)
        try movie.addAudio(tone)
        try movie.addAudio(tone, at: 1)   // the same tone from 1 s, in phase (500 Hz fits whole periods in 1 s): twice as loud
        try movie.addFrames(count: 60) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        let decoded = try decodeAudio(url, in: folder).samples
        func peak(_ from: Double, _ to: Double) -> Float { decoded[Int(from * 48_000)..<Int(to * 48_000)].map(abs).max() ?? 0 }
        #expect(abs(peak(0.2, 0.9) - 0.2) < 0.02, "one tone peaks at \(peak(0.2, 0.9))")
        #expect(abs(peak(1.1, 1.8) - 0.4) < 0.03, "two tones peak at \(peak(1.1, 1.8))")
    }

    @Test("A sound added while rendering plays from where it is placed; one placed too early is refused")
    func soundsAddedDuringTheRender() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("late.mp4")
        let rate = FrameRate(30)
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: rate, settings: EncoderSettings(preset: .ultrafast, threads: 1),
                                   audioSettings: AudioSettings())
        try movie.addFrames(count: 60) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        // Sound may already be written up to 2 s minus the 0.1 s lag: 1 s is refused, 1.95 s and later are not.
        #expect(throws: MovieMakerError.audioTooLate(start: 1, earliest: Time(value: 1_900, timescale: 1_000))) {
            try movie.addAudio(BeepTrain(onsets: [0]), at: 1)
        }
        try movie.addAudio(BeepTrain(onsets: [0]), at: 2)
        try movie.addAudio(BeepTrain(onsets: [0.55]), at: 1.95)   // a beep at 2.5 s
        try movie.addFrames(count: 60) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        let decoded = try decodeAudio(url, in: folder)
        for t in [2.0, 2.5] {
            let o = try #require(onset(in: decoded.samples, near: t, start: decoded.start, rate: decoded.rate))
            #expect(abs(o - t) <= 0.002, "beep placed at \(t) s starts at \(o) s")
        }
        #expect(decoded.samples[..<Int(1.9 * 48_000)].allSatisfy { abs($0) < 0.01 }, "sound before the first beep")
    }

    @Test("Audio is encoded in step with the video, a bounded lag behind it, and interleaved with it")
    func audioLagsVideoByABoundedWindow() throws {
        let folder = try TemporaryFolder()
        let rate = FrameRate(30)
        let settings = EncoderSettings(preset: .ultrafast, bufferCount: 3, threads: 1)
        let url = folder.file("lag.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: rate, settings: settings)
        let counter = ReadCounter()
        try movie.addAudio(PositionProbe(counter: counter))
        try movie.addAudio(TestTone(), at: 4)
        let lag: Int64 = 4_800   // 0.1 s, no sound asks for more
        var checked = 0
        try movie.addFrames(count: 600) { ctx, frame in
            ctx.setFill(.black); ctx.fillRect(ctx.bounds)
            let read = counter.frames.withLock { $0 }
            // Frames 0..<index were submitted, and all but `bufferCount` of them (and the serial frames
            // staged for conversion) encoded (back-pressure).
            let upper = AudioFormat.standard.frame(at: rate.time(ofFrame: frame.index)) - lag
            let lower = AudioFormat.standard.frame(at: rate.time(ofFrame: frame.index - settings.bufferCount - SerialConversion.stagingCount - 1)) - lag
            #expect(read <= max(upper, 0), "frame \(frame.index): sound read up to \(read), beyond \(upper)")
            if frame.index > 10 {
                #expect(read >= lower, "frame \(frame.index): sound read only up to \(read), behind \(lower)")
                checked += 1
            }
        }
        try movie.finish()
        #expect(checked == 589)
        // To the movie's end, and the limiter's look-ahead beyond it (its delay is compensated by reading ahead).
        let latency = Int64(TruePeakLimiter(Limiter(), format: .standard).latency)
        #expect(counter.frames.withLock { $0 } == AudioFormat.standard.frame(at: 20) + latency)
        // In the file, packets follow each other in time: none lies more than 0.5 s behind one before it.
        guard FFTools.available else { return }
        let r = try run(FFTools.ffprobe, ["-v", "error", "-show_entries", "packet=stream_index,dts_time,pos", "-of", "csv=p=0", url.path])
        let packets = r.stdout.split(separator: "\n").compactMap { line -> (dts: Double, pos: Int)? in
            let f = line.split(separator: ",")
            guard f.count >= 3, let d = Double(f[1]), let p = Int(f[2]) else { return nil }
            return (d, p)
        }.sorted { $0.pos < $1.pos }
        #expect(packets.count > 1_000)
        var latest = -Double.infinity, worst = 0.0
        for p in packets { worst = max(worst, latest - p.dts); latest = max(latest, p.dts) }
        #expect(worst < 0.5, "a packet is \(worst) s behind one written before it")
    }

    @Test("Sounds learn where the movie ends before they are read that far")
    func willEndComesBeforeTheEnd() throws {
        let folder = try TemporaryFolder()
        let probe = EndProbe()
        let movie = try MovieMaker(url: folder.file("end.mp4"), width: 64, height: 64, fps: .ntsc,
                                   settings: EncoderSettings(preset: .ultrafast, threads: 1))
        try movie.addAudio(EndFadingSound(fade: 0.5, probe: probe), at: 0.25)
        try movie.addFrames(count: 90) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        let end = AudioFormat.standard.frame(at: FrameRate.ntsc.time(ofFrame: 90)) - 12_000   // in the sound's own frames
        #expect(probe.toldEnd == end)
        #expect(probe.readBeforeTold <= end - 24_000, "read \(probe.readBeforeTold) frames before learning the end \(end)")
        #expect(probe.readBeforeTold > 0)
    }

    @Test("A sound that fails mid-render fails the render and leaves the destination as it was", arguments: [0.5, 1.95])
    func failingReaderLeavesNothing(failAt: Double) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("movie.mp4")
        let existing = try plantExistingFile(url)
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        try movie.addAudio(FailingSound(failAt: Time(seconds: failAt)))
        var thrown: (any Error)?
        do {
            try movie.addFrames(count: 60) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
            try movie.finish()
        } catch {
            thrown = error
        }
        // At 0.5 s the failure reaches a later frame; at 1.95 s (inside the held-back tail) it reaches finish().
        guard let e = thrown as? MovieMakerError, e.code == .audioUnreadable, let reason = e.reason else {
            Issue.record("expected .audioUnreadable, got \(String(describing: thrown))"); return
        }
        #expect(reason.contains("broke on purpose"))
        #expect(try Data(contentsOf: url) == existing)
        #expect(folder.contents == ["movie.mp4"], "left behind: \(folder.contents)")
        #expect(throws: MovieMakerError.self) { try movie.finish() }
    }

    @Test("A sound that cannot be opened fails addAudio, before any frame, and changes nothing")
    func unopenableSoundFailsAtOnce() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("movie.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        #expect(throws: MovieMakerError.audioUnreadable(path: "/nowhere/missing.mp3", reason: "No such file or directory")) {
            try movie.addAudio(UnopenableSound())
        }
        #expect(!movie.hasAudio)
        try movie.addFrames(count: 3) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        #expect(FFTools.available ? (try probeStreams(url)["audio"]) == nil : true)
    }

    @Test("A sound that plays at once is opened once: the reader opened to check it is the one encoded (a normalised mix is measured once)")
    func aSoundPlayingAtOnceIsOpenedOnce() throws {
        let folder = try TemporaryFolder()
        let movie = try MovieMaker(url: folder.file("movie.mp4"), width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        let now = OpenCount(), later = OpenCount()
        try movie.addAudio(CountedSound(opened: now))
        try movie.addAudio(CountedSound(opened: later), at: 2)
        try movie.add(Clip.color(.red, duration: 3))
        try movie.finish()
        #expect(now.value == 1, "opened \(now.value) times")
        #expect(later.value == 2, "checked when added, opened again a second before it plays: \(later.value)")
    }

    @Test("A clip whose second sound cannot be opened adds none of its sounds")
    func aClipsSoundsGoInTogetherOrNotAtAll() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("movie.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        let clip = Clip.color(.red, duration: 1).withSound(TestTone(length: 1)).withSound(UnopenableSound(), at: 0.5)
        #expect(throws: MovieMakerError.audioUnreadable(path: "/nowhere/missing.mp3", reason: "No such file or directory")) {
            try movie.add(clip)
        }
        #expect(!movie.hasAudio, "the first sound was not added on its own")
        try movie.add(Clip.color(.blue, duration: 0.1))
        let summary = try movie.finish()
        #expect(summary.frameCount == 3)
        #expect(FFTools.available ? (try probeStreams(url)["audio"]) == nil : true)
    }

    @Test("Bad audio settings and misplaced sounds are typed errors naming the value")
    func badInputIsATypedError() throws {
        let folder = try TemporaryFolder()
        func make(_ name: String, _ audio: AudioSettings) throws(MovieMakerError) -> MovieMaker {
            try MovieMaker(url: folder.file(name), width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast), audioSettings: audio)
        }
        for (audio, name, value) in [(AudioSettings(sampleRate: 44_000), "audio sample rate", "44000"),
                                     (AudioSettings(channelCount: 0), "audio channel count", "0"),
                                     (AudioSettings(channelCount: 9), "audio channel count", "9"),
                                     (AudioSettings(bitRate: 1_000), "audio bit rate", "1000")] {
            do {
                _ = try make("bad.mp4", audio)
                Issue.record("\(audio) was accepted")
            } catch {
                guard error.code == .invalidSetting, let n = error.setting?.description, let v = error.value else { Issue.record("unexpected \(error)"); continue }
                #expect(n == name && v == value)
                #expect(error.description.contains(value))
            }
        }
        // Opus (WebM) has no 44.1 kHz.
        #expect { _ = try make("bad.webm", AudioSettings(sampleRate: 44_100)) } throws: { error in
            guard let e = error as? MovieMakerError, e.code == .invalidSetting, e.value == "44100", let expected = e.expected else { return false }
            return expected.contains("48000") && expected.contains("opus")
        }
        #expect(folder.contents.isEmpty, "left behind: \(folder.contents)")

        // A PNG sequence has no sound track.
        let frames = try MovieMaker(pngSequenceIn: folder.file("frames"), width: 64, height: 64)
        #expect(throws: MovieMakerError.audioUnsupported(container: "a PNG sequence")) { try frames.addAudio(TestTone()) }
        frames.cancel()

        // The first sound after the first frame, a negative start.
        let movie = try MovieMaker(url: folder.file("m.mp4"), width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        #expect(throws: MovieMakerError.self) { try movie.addAudio(TestTone(), at: -1) }
        try movie.addFrame { ctx in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        #expect(throws: MovieMakerError.audioAfterFirstFrame(framesDrawn: 1)) { try movie.addAudio(TestTone()) }
        movie.cancel()
        #expect(MovieMakerError.audioAfterFirstFrame(framesDrawn: 1).description.contains("audioSettings"))
    }

    @Test("A movie without sound has no audio stream")
    func videoOnlyHasNoAudioStream() throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let url = folder.file("silent.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(preset: .ultrafast, threads: 1))
        try movie.addFrames(count: 10) { ctx, _ in ctx.setFill(.black); ctx.fillRect(ctx.bounds) }
        try movie.finish()
        let streams = try probeStreams(url)
        #expect(streams["video"] != nil && streams["audio"] == nil)
        #expect(!movie.hasAudio)
    }
}

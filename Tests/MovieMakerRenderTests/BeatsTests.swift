import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Beats found by aubio in click tracks the test makes: where each click is and the tempo are known.
@Suite("Beats")
struct BeatsTests {
    /// A click track at `bpm`: a 3 ms-decaying noise burst and a 2 kHz ping on every beat from `first`,
    /// `seconds` long.
    static func clickTrack(bpm: Double, first: Double = 0.5, seconds: Double = 16) -> (sound: ProceduralSound, clicks: [Double]) {
        let period = 60 / bpm
        let clicks = Array(stride(from: first, to: seconds, by: period))
        let sound = ProceduralSound(duration: Time(seconds: seconds)) { t in click(at: t, period: period, first: first) }
        return (sound, clicks)
    }

    /// The click track's sample at `t`: the click sounding then, if any (the last one at or before t).
    @Sendable static func click(at t: Double, period: Double, first: Double) -> Double {
        let k = ((t - first) / period).rounded(.down)
        guard k >= 0 else { return 0 }
        let age = t - (first + k * period)
        guard age < 0.03 else { return 0 }
        // Deterministic noise: a hash of the sample time.
        let n = sin(t * 12_345_678.9) * 43_758.545
        let noise = (n - n.rounded(.down)) * 2 - 1
        return 0.7 * exp(-age / 0.003) * (0.6 * noise + 0.4 * sin(2 * .pi * 2000 * age))
    }

    @Test("on click tracks at 90, 120 and 128 BPM every beat found is within 20 ms of a click, nearly every click has one, and the tempo is within 1 BPM",
          arguments: [90.0, 120.0, 128.0])
    func clickTracks(bpm: Double) throws {
        let folder = try TemporaryFolder()
        let (sound, clicks) = Self.clickTrack(bpm: bpm)
        let url = folder.file("clicks.wav")
        try sound.writeWAV(to: url, sampleFormat: .int16)
        let beats = try Beats(analysing: url)
        #expect(abs(beats.tempo - bpm) <= 1, "tempo \(beats.tempo) for \(bpm) BPM")
        let times = beats.times.map(\.seconds)
        for t in times {
            let nearest = clicks.min { abs($0 - t) < abs($1 - t) }!
            #expect(abs(nearest - t) <= 0.02, "a beat at \(t) s is \(Int((t - nearest) * 1000)) ms from the click at \(nearest) s")
        }
        let matched = clicks.filter { c in times.contains { abs($0 - c) <= 0.02 } }
        #expect(matched.count >= clicks.count - 2, "\(matched.count) of \(clicks.count) clicks have a beat: \(times.map { (($0 * 1000).rounded()) / 1000 })")
    }

    /// A song starting on its downbeat (a hit at 0 s, or at 0.25 s after a breath) lost its first beat:
    /// the onset at sample 0 could not be told from none, and `--every 4` then counted bars from beat 2.
    @Test("the first hit is a beat: at 0 s and at 0.25 s", arguments: [0.0, 0.25])
    func theFirstHitIsABeat(first: Double) throws {
        let folder = try TemporaryFolder()
        let (sound, clicks) = Self.clickTrack(bpm: 120, first: first, seconds: 12)
        let url = folder.file("clicks.wav")
        try sound.writeWAV(to: url, sampleFormat: .int16)
        let beats = try Beats(analysing: url)
        let firstBeat = try #require(beats.times.first).seconds
        #expect(abs(firstBeat - clicks[0]) <= 0.02, "the first beat is at \(firstBeat) s, the first click at \(clicks[0]) s")
    }

    /// aubio's tracker keeps its period in whole hops (11.6 ms), so on a steady track its beats drift off
    /// the clicks and, once out of reach of them, dropped out for 7–20 s about once a minute: a slideshow
    /// cut on them held a photo that long. The gaps are filled from the onsets.
    @Test("on a two-minute click track at 120 BPM no beat goes missing: no gap longer than one beat and a half")
    func aLongSteadyTrackKeepsEveryBeat() throws {
        let folder = try TemporaryFolder()
        let (sound, clicks) = Self.clickTrack(bpm: 120, seconds: 120)
        let url = folder.file("clicks.wav")
        try sound.writeWAV(to: url, format: AudioFormat(sampleRate: 44_100, channelCount: 1), sampleFormat: .int16)
        let beats = try Beats(analysing: url)
        let times = beats.times.map(\.seconds)
        let gaps = zip(times.dropFirst(), times).filter { $0 - $1 > 0.75 }.map { "\($1) → \($0)" }
        #expect(gaps.isEmpty, "beats missing between \(gaps)")
        let matched = clicks.filter { c in times.contains { abs($0 - c) <= 0.02 } }
        #expect(matched.count >= clicks.count - 2, "\(matched.count) of \(clicks.count) clicks have a beat")
        #expect(abs(beats.tempo - 120) <= 0.5, "tempo \(beats.tempo)")
    }

    /// A kick drum of a 55 Hz sine and nothing high (an 808's) under steady noise: the high-frequency onset
    /// detector alone heard none of them, so beats were the tracker's own, up to 25 ms off, and the first
    /// ones were missing.
    @Test("a low kick drum under noise: every kick is a beat, within 5 ms", arguments: [0.02, 0.1])
    func lowKicksUnderNoiseAreBeats(noise: Double) throws {
        let folder = try TemporaryFolder()
        let period = 0.5
        let kicks = Array(stride(from: 0.0, to: 12, by: period))
        let sound = ProceduralSound(duration: 12) { t in
            let age = t.truncatingRemainder(dividingBy: period)
            let n = sin(t * 12_345_678.9) * 43_758.545
            let hiss = (n - n.rounded(.down)) * 2 - 1
            return 0.6 * sin(2 * .pi * 55 * age) * exp(-age * 15) + noise * hiss
        }
        let url = folder.file("kicks.wav")
        try sound.writeWAV(to: url, sampleFormat: .int16)
        let times = try Beats(analysing: url).times.map(\.seconds)
        for k in kicks {
            let nearest = times.min { abs($0 - k) < abs($1 - k) } ?? -1
            #expect(abs(nearest - k) <= 0.005, "the kick at \(k) s: the nearest beat is at \(nearest) s")
        }
        #expect(times.count == kicks.count, "\(times.count) beats for \(kicks.count) kicks: \(times)")
    }

    @Test("a held tone and a gliding one have no beat (no tempo, no beats), while clicks over a held chord keep their tempo")
    func noPulseNoBeat() throws {
        let folder = try TemporaryFolder()
        let sounds: [(String, ProceduralSound)] = [
            ("tone", ProceduralSound(duration: 8) { t in 0.3 * sin(2 * .pi * 440 * t) }),
            ("gliding tone", ProceduralSound(duration: 8) { t in 0.3 * sin(2 * .pi * (220 * t + 50 * sin(2 * .pi * 0.3 * t))) }),
        ]
        for (name, sound) in sounds {
            let url = folder.file("\(name).wav")
            try sound.writeWAV(to: url, sampleFormat: .int16)
            let beats = try Beats(analysing: url)
            #expect(beats.tempo == 0 && beats.times.isEmpty, "\(name): tempo \(beats.tempo), \(beats.times.count) beats")
        }
        // 100 BPM clicks over a held chord: the beat is kept.
        let song = ProceduralSound(duration: 10) { t in
            Self.click(at: t, period: 0.6, first: 0.5) + 0.2 * sin(2 * .pi * 220 * t) + 0.15 * sin(2 * .pi * 277.2 * t)
        }
        try song.writeWAV(to: folder.file("song.wav"), sampleFormat: .int16)
        let beats = try Beats(analysing: folder.file("song.wav"))
        #expect(abs(beats.tempo - 100) <= 1 && beats.times.count >= 12, "tempo \(beats.tempo), \(beats.times.count) beats for 100 BPM clicks over a chord")
    }

    @Test("cuts: every second beat, none closer than the minimum shot, only inside the range")
    func cutsOnBeats() {
        let beats = Beats(times: (0..<20).map { Time(value: Int64($0), timescale: 2) }, tempo: 120)   // every 0.5 s
        #expect(beats.cuts(to: 3) == [0.5, 1, 1.5, 2, 2.5].map { Time(seconds: $0) })
        #expect(beats.cuts(to: 5, every: 2) == [0.5, 1.5, 2.5, 3.5, 4.5].map { Time(seconds: $0) })
        #expect(beats.cuts(from: 1, to: 5, minimumShot: Time(seconds: 1.2)) == [2.5, 4].map { Time(seconds: $0) })
    }

    /// Photos left when the beats run out keep the tempo on the beat: whole periods, as many as a photo
    /// needs to outlast its transition (they got a period rounded up to a frame past the transition,
    /// 1.033 s, and drifted off the beat).
    @Test("photos after the last beat keep the tempo: whole beat periods, on the beat, each outlasting the transition")
    func photosAfterTheBeatsKeepTheTempo() throws {
        let beats = Beats(times: (1..<16).map { Time(value: Int64($0), timescale: 2) }, tempo: 120)   // 0.5 … 7.5 s
        var show = Slideshow(photos: (0..<6).map { Slideshow.Photo(url: URL(fileURLWithPath: "/photos/p\($0).jpg")) })
        show.transition = .crossfade(duration: 1)
        show.intro = TitleCard("Beat", duration: 3)
        try show.cutOnBeats(beats, fps: 30, every: 2, minimumShot: 1)
        var start = 90
        for photo in show.photos {
            let frames = FrameRate(30).frameCount(for: try #require(photo.duration))
            #expect(start % 15 == 0, "photo at frame \(start) starts on a beat (every 15 frames)")
            #expect(frames > 30 && frames % 15 == 0, "\(frames) frames: whole beats, longer than the 30-frame transition")
            start += frames
        }
        // From the third photo on (the beats end at 7.5 s), each lasts 2 s: the 1 s period (every 2
        // beats), doubled to outlast the 1 s transition.
        #expect(show.photos.dropFirst(2).allSatisfy { $0.duration == Time(2) }, "\(show.photos.map(\.duration))")
    }

    @Test("a slideshow cut on the beats of a 120 BPM click track has every cut on the frame holding a beat (and a click)")
    func slideshowCutsOnBeats() throws {
        let folder = try TemporaryFolder()
        let (sound, clicks) = Self.clickTrack(bpm: 120, seconds: 6)
        let music = folder.file("clicks.wav")
        try sound.writeWAV(to: music, sampleFormat: .int16)
        let beats = try Beats(analysing: music)
        let colors: [Color] = [.red, .green, .blue, .white, Color(red: 1, green: 1, blue: 0)]
        var show = Slideshow(photos: try colors.enumerated().map { Slideshow.Photo(url: try TestPhotos.photo($0.element, "p\($0.offset)", in: folder)) })
        show.transition = nil
        show.kenBurns = .off
        show.fit = .fill
        try show.cutOnBeats(beats, fps: 30, minimumShot: Time(value: 2, timescale: 5))
        let frames = try show.clip(width: 160, height: 120).renderFrames(width: 160, height: 120, rate: 30, drawingThreads: 2)
        // The cuts: frames whose middle pixel differs from the frame before's.
        let cuts = (1..<frames.count).filter { frames[$0].rgba(x: 80, y: 60) != frames[$0 - 1].rgba(x: 80, y: 60) }
        #expect(cuts.count == colors.count - 1, "cuts at frames \(cuts)")
        let beatFrames = Set(beats.times.map { FrameRate(30).frameIndex(at: $0) })
        let clickFrames = Set(clicks.map { FrameRate(30).frameIndex(at: Time(seconds: $0)) })
        for cut in cuts {
            #expect(beatFrames.contains(cut), "the cut at frame \(cut) holds no beat (beats at frames \(beatFrames.sorted()))")
            #expect(clickFrames.contains(cut), "the cut at frame \(cut) holds no click (clicks at frames \(clickFrames.sorted()))")
        }
    }

    /// A song looped from its first sample repeats a crossfade (20 ms) early, so its beats come 20 ms
    /// earlier every loop; cuts past its end followed the tempo alone and landed 20, 40, 60 ms late.
    /// They now follow the repeats: `AudioClip.loopPeriod` and `Beats.repeating`.
    @Test("cuts past a looped song's end fall on its repeats' beats, which come a crossfade earlier each loop")
    func cutsFollowALoopedSongsRepeats() throws {
        let song = AudioClip(ProceduralSound.tone(frequency: 440, duration: 6)).looped(toFill: 60)
        let period = try #require(song.loopPeriod)
        #expect(period == Time(6) - Time(value: 1, timescale: 50), "from its first sample: \(period)")
        #expect(AudioClip(ProceduralSound.tone(frequency: 440, duration: 6)).trimmed(from: 1).looped(toFill: 60).loopPeriod == Time(5),
                "with sound before its in point a repeat starts early and the period is the trimmed length")
        let beats = Beats(times: (1..<12).map { Time(value: Int64($0), timescale: 2) }, tempo: 120)   // 0.5 … 5.5 s
        let looped = beats.repeating(every: period, until: 30)
        #expect(looped.times.contains(Time(value: 1, timescale: 2) + period) && looped.times.contains(Time(value: 1, timescale: 2) + period * 2))
        #expect(!looped.times.contains(Time(6) + Time(value: 1, timescale: 2)), "a beat at the tempo's 6.5 s is not a repeat's")
        var show = Slideshow(photos: (0..<10).map { Slideshow.Photo(url: URL(fileURLWithPath: "/photos/p\($0).jpg")) })
        show.transition = nil
        try show.cutOnBeats(beats, fps: 100, every: 3, minimumShot: 1, musicLoop: (.zero, period))
        var start = 0, cuts: [Double] = []
        for photo in show.photos.dropLast() { start += FrameRate(100).frameCount(for: try #require(photo.duration)); cuts.append(Double(start) / 100) }
        // Every 3rd beat from 1.5 s: 1.5, 3, 4.5, then the repeats' 5.98 + 0.5 = 6.48 … each loop 20 ms earlier.
        let heard = looped.times.map(\.seconds)
        for cut in cuts { #expect(heard.contains { abs($0 - cut) < 0.0101 }, "the cut at \(cut) s is on no beat heard: \(heard)") }
        #expect(cuts.contains { $0 > 12 }, "the cuts reach the third loop: \(cuts)")
    }
}

import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

@Suite("Time edits: speed, reverse, freeze, loop, and sounds joined at cuts")
struct TimeEditTests {
    @Test func speedMapsTimeExactlyAndScalesTheDuration() {
        let clip = Clip.color(.red, duration: 3)
        #expect(clip.speed(2).duration == Time(value: 3, timescale: 2))
        #expect(clip.speed(Speed(numerator: 1, denominator: 3)).duration == 9)
        #expect(Clip.TimeMap.speed(Speed(0.5)).childTime(Time(value: 7, timescale: 30), childDuration: 3, rate: 30) == Time(value: 7, timescale: 60))
        #expect(Speed(0.25) == Speed(numerator: 1, denominator: 4))
        #expect(Speed(3).isSupported && !Speed(5).isSupported && !Speed(0.2).isSupported)
    }

    @Test func reverseSamplesTheMiddleOfTheMirroredFrame() throws {
        let rate: FrameRate = 30
        let map = Clip.TimeMap.reverse
        // A 2 s child at 30 fps: output frame k shows the child's frame 59 − k.
        for k in 0..<60 {
            let t = try #require(map.childTime(rate.time(ofFrame: k), childDuration: 2, rate: rate))
            #expect(rate.frameIndex(at: t) == 59 - k, "frame \(k)")
        }
    }

    @Test func freezeHoldsOneTimeAndLoopWraps() {
        #expect(Clip.TimeMap.freeze(at: 0.5, duration: 2).childTime(1.75, childDuration: 1, rate: 30) == 0.5)
        #expect(Clip.TimeMap.loop(duration: 5).childTime(2.5, childDuration: 1, rate: 30) == 0.5)
        #expect(Clip.color(.red, duration: 1).looped(toFill: 2.5).duration == 2.5)
        #expect(Clip.color(.red, duration: 1).frozen(at: 0.5, for: 4).duration == 4)
    }

    @Test func timeEditsRoundTripAsData() throws {
        let clip = Clip.sequence([
            Clip.color(.red, duration: 2).speed(Speed(numerator: 2, denominator: 3, keepsPitch: false)),
            Clip.color(.blue, duration: 1).reversed(),
            Clip.color(.green, duration: 1).frozen(at: 0.25, for: 2),
            Clip.color(.white, duration: 1).looped(toFill: 3),
        ])
        let data = try JSONEncoder().encode(clip)
        let back = try JSONDecoder().decode(Clip.self, from: data)
        #expect(try back.contentHash() == clip.contentHash())
        #expect(back.duration == clip.duration)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"speed\"") && json.contains("\"reverse\"") && json.contains("\"freeze\"") && json.contains("\"loop\""))
    }

    @Test func aSpeedOutsideTheRangeIsAnErrorWithItsPath() throws {
        let json = ##"{"type": "speed", "speed": {"numerator": 8, "denominator": 1, "keepsPitch": true}, "clip": {"type": "color", "color": "#ff0000", "duration": 1}}"##
        do {
            _ = try JSONDecoder().decode(Clip.self, from: Data(json.utf8))
            Issue.record("a speed of 8 was accepted")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == ["speed"])
            let underlying = try #require(context.underlyingError as? MovieMakerError)
            #expect(underlying.setting == .speed && underlying.message.contains("8"))
        }
    }

    /// Two 1 s clips cut from the middle of one long sound, joined by a cut at 1 s.
    private func cutFromTheMiddle(crossfade: Time = Clip.Track.defaultAudioCrossfade) -> [ClipSound] {
        let long = FunctionSound(frames: 48_000 * 10) { _ in 0.5 }
        let a = Clip.color(.red, duration: 5).withSound(long).trimmed(from: 2, to: 3)
        let b = Clip.color(.blue, duration: 5).withSound(long).trimmed(from: 3, to: 4)
        return Clip.stitched([a, b], audioCrossfade: crossfade).sounds
    }

    @Test func soundsCrossfadeCentredOnTheCutUsingMaterialBeyondTheTrim() throws {
        let sounds = cutFromTheMiddle()
        #expect(sounds.count == 2)
        let outgoing = sounds[0], incoming = sounds[1]
        // 20 ms, 10 ms each side of the cut at 1 s.
        #expect(outgoing.heardUntil == Time(value: 101, timescale: 100) && outgoing.fadeOut == Time(value: 1, timescale: 50))
        #expect(incoming.heardFrom == Time(value: 99, timescale: 100) && incoming.fadeIn == Time(value: 1, timescale: 50))
        let wide = cutFromTheMiddle(crossfade: Time(value: 1, timescale: 10))
        #expect(wide[0].heardUntil == Time(value: 105, timescale: 100) && wide[1].heardFrom == Time(value: 95, timescale: 100))
    }

    @Test func theEqualPowerCrossfadeKeepsTheLevelOfUncorrelatedSoundAndNeverDips() throws {
        // Constant 0.5 in both: the sum of the two heard sounds across the cut stays at or above 0.5
        // (equal power sums amplitudes to between 1 and √2 of the level): no dip.
        let sounds = cutFromTheMiddle()
        let frames = 48_000 * 2
        var sum = [Float](repeating: 0, count: frames)
        for s in sounds {
            let start = Int((s.firstHeard.seconds * 48_000).rounded())
            let heard = try samples(of: s, frames: frames - start)
            for i in 0..<(frames - start) { sum[start + i] += heard[i] }
        }
        let around = sum[(48_000 - 960)..<(48_000 + 960)]
        #expect(around.min()! >= 0.5 - 1e-3, "the level dips to \(around.min()!) at the cut")
        #expect(around.max()! <= 0.5 * 1.4143, "the level rises to \(around.max()!) at the cut")
    }

    @Test func withoutMaterialBeforeTheInPointTheOutgoingSoundCarriesTheWholeCrossfade() throws {
        let long = FunctionSound(frames: 48_000 * 10) { _ in 0.5 }
        let a = Clip.color(.red, duration: 5).withSound(long).trimmed(from: 2, to: 3)
        let b = Clip.color(.blue, duration: 1).withSound(long)      // starts at the sound's first sample
        let sounds = Clip.stitched([a, b]).sounds
        #expect(sounds[0].heardUntil == Time(value: 102, timescale: 100) && sounds[0].fadeOut == Time(value: 1, timescale: 50))
        #expect(sounds[1].firstHeard == 1 && sounds[1].fadeIn == Time(value: 1, timescale: 50))
    }

    /// `frame.index` inside a time map or a clip starting off the movie's frame grid is the frame showing
    /// then (rounded down, within the clip): rounded up, a reversed one-second clip's first frame had
    /// index 30 of 30 (`pictures[frame.index]` trapped), a slowed one reached 30, and a clip after a whole
    /// second at 30000/1001 fps never saw 0.
    @Test func frameIndexInsideTimeMapsIsTheFrameShowing() throws {
        func indices(_ make: (Clip) -> Clip, rate: FrameRate = 30, child: Time = 1) throws -> [Int] {
            let seen = Mutex<[Int: Int]>([:])
            let leaf = Clip(duration: child) { _, frame in seen.withLock { $0[frame.movieIndex] = frame.index } }
            _ = try make(leaf).renderFrames(width: 16, height: 16, rate: rate, drawingThreads: 1)
            return seen.withLock { d in d.keys.sorted().map { d[$0]! } }
        }
        #expect(try indices { $0.reversed() } == Array((0..<30).reversed()))
        let slowed = try indices { $0.speed(0.5) }
        #expect(slowed.count == 60 && slowed.max() == 29 && slowed.first == 0, "\(slowed)")
        let ntsc = FrameRate(numerator: 30000, denominator: 1001)!
        let after = try indices({ Clip.sequence([Clip.color(.black, duration: 1), $0]) }, rate: ntsc, child: 3)
        #expect(after.first == 0 && after.max()! < 90 && after.count == 90, "\(after.prefix(3))…\(after.suffix(3)) (\(after.count))")
    }

    /// A speed read from JSON is reduced and positive, as one made in Swift is: `1/0` made a clip that
    /// lasted nothing, and `4/2` was not equal to `Speed(2)`.
    @Test func aDecodedSpeedIsReducedAndPositive() throws {
        func decode(_ json: String) throws -> Speed { try JSONDecoder().decode(Speed.self, from: Data(json.utf8)) }
        #expect(try decode(#"{"numerator": 4, "denominator": 2}"#) == Speed(2))
        #expect(try decode(#"{"numerator": 1, "denominator": 2, "keepsPitch": false}"#) == Speed(numerator: 1, denominator: 2, keepsPitch: false))
        for bad in [#"{"numerator": 1, "denominator": 0}"#, #"{"numerator": -2, "denominator": -1}"#] {
            #expect(throws: DecodingError.self) { try decode(bad) }
        }
        let speed = Speed(numerator: 3, denominator: 2, keepsPitch: false)
        #expect(try JSONDecoder().decode(Speed.self, from: JSONEncoder().encode(speed)) == speed)
    }
}

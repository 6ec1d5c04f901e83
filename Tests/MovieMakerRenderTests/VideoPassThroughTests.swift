import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Frames whose whole picture is one video go from the decoder to the encoder in YUV (`Clip.videoPassThrough`):
/// the frames handed to the encoder must be what drawing them gives, within rounding (≥ 50 dB, no
/// shift of the mean), crossfades between two such videos mixed there too, and the frames beside a
/// transition must not jump. Movies are lossless so
/// that decoding them gives back exactly the frames the encoder was handed.
@Suite("Video pass-through")
struct VideoPassThroughTests {
    /// Three recorded clips (two seconds each, with sound) stitched with half-second crossfades: 150 frames.
    static func stitched(_ variant: VideoFixtures.Variant = .plain) throws -> Clip {
        let urls = try [440.0, 550, 660].map { try VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: $0), variant) }
        return Clip.stitched(try urls.map { try Clip.video($0) }, transition: .crossfade(duration: 0.5))
    }

    /// Renders `clip` at 320×240 losslessly, passing video through or drawing every frame; returns the
    /// frames as decoded (packed yuv420p planes) and the render's statistics.
    static func render(_ clip: Clip, passingThrough: Bool, in folder: TemporaryFolder) throws -> (frames: [[UInt8]], statistics: RenderStatistics) {
        var settings = EncoderSettings(preset: .ultrafast)
        settings.lossless = true
        settings.passesVideoThrough = passingThrough
        let url = folder.file(passingThrough ? "through.mp4" : "drawn.mp4")
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: settings)
        try movie.add(clip)
        let summary = try movie.finish()
        return (try MovieReader(url: url).decodedYUV420Frames(), summary.statistics)
    }

    /// PSNR over all planes of two packed frames, in dB (infinity when equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0
        for i in a.indices { let d = Double(a[i]) - Double(b[i]); sum += d * d }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count)))
    }

    /// The mean of a − b over one plane of packed 320×240 frames (0: Y, 1: U, 2: V).
    static func meanDifference(_ a: [UInt8], _ b: [UInt8], plane: Int) -> Double {
        let ranges = [0..<76_800, 76_800..<96_000, 96_000..<115_200]
        var sum = 0
        for i in ranges[plane] { sum += Int(a[i]) - Int(b[i]) }
        return Double(sum) / Double(ranges[plane].count)
    }

    @Test("Stitched clips and their crossfades pass through: ≥ 50 dB against drawing them, no colour shift, no jump at the seams")
    func stitchedBodiesPassThrough() throws {
        let folder = try TemporaryFolder()
        let clip = try Self.stitched()
        let through = try Self.render(clip, passingThrough: true, in: folder)
        let drawn = try Self.render(clip, passingThrough: false, in: folder)
        #expect(through.frames.count == 150 && drawn.frames.count == 150)
        // 150 frames: 120 bodies copied, 2 × 15 crossfade frames mixed from the two decoded pictures.
        #expect(through.statistics.framesPassedThrough == 150, "\(through.statistics.framesPassedThrough) frames passed through")
        #expect(drawn.statistics.framesPassedThrough == 0)
        for i in 0..<min(through.frames.count, drawn.frames.count) {
            let a = through.frames[i], b = drawn.frames[i]
            let db = Self.psnr(a, b)
            #expect(db >= 50, "frame \(i): \(String(format: "%.1f", db)) dB between passing through and drawing")
            for plane in 0..<3 {
                let shift = Self.meanDifference(a, b, plane: plane)
                #expect(abs(shift) <= 0.5, "frame \(i) plane \(plane): mean shifted by \(shift) levels")
            }
        }
        // The seams: what each crossfade's first and last frames show differs from their neighbours by
        // the same amount whichever way the frames were made (within a level).
        for (body, edge) in [(44, 45), (60, 59), (89, 90), (105, 104)] {
            for plane in 0..<3 {
                let jumpThrough = Self.meanDifference(through.frames[edge], through.frames[body], plane: plane)
                let jumpDrawn = Self.meanDifference(drawn.frames[edge], drawn.frames[body], plane: plane)
                #expect(abs(jumpThrough - jumpDrawn) <= 1, "seam \(body)|\(edge) plane \(plane): \(jumpThrough) against \(jumpDrawn) levels")
            }
        }
    }

    @Test("Transitions other than a crossfade are drawn, and the bodies beside them still pass through")
    func otherTransitionsAreDrawn() throws {
        let folder = try TemporaryFolder()
        let urls = try [440.0, 550, 660].map { try VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: $0)) }
        let clip = Clip.stitched(try urls.map { try Clip.video($0) }, transition: .wipe(.left, duration: 0.5))
        let through = try Self.render(clip, passingThrough: true, in: folder)
        let drawn = try Self.render(clip, passingThrough: false, in: folder)
        #expect(through.frames.count == 150 && drawn.frames.count == 150)
        // The wipes' 2 × 15 frames are drawn in both renders, so they are the same.
        #expect(through.statistics.framesPassedThrough == 120, "\(through.statistics.framesPassedThrough) frames passed through")
        for i in Array(45..<60) + Array(90..<105) where i < min(through.frames.count, drawn.frames.count) {
            #expect(through.frames[i] == drawn.frames[i], "frame \(i) is drawn in both renders, so it must be the same")
        }
    }

    @Test("Which frames pass through does not depend on chunks: a stitch rendered in 1 and in 4 lossless chunks decodes to the same frames")
    func chunksAgree() throws {
        let folder = try TemporaryFolder()
        for (k, tone) in [440.0, 550, 660].enumerated() {
            try FileManager.default.copyItem(at: try VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: tone)), to: folder.file("clip\(k).mp4"))
        }
        let json = """
        {"version": 1, "output": {"size": "320x240", "fps": 30, "encoder": {"preset": "ultrafast", "lossless": true}},
         "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "clip0.mp4"}},
                                               {"type": "video", "source": {"file": "clip1.mp4"}, "transition": {"name": "fade", "duration": "0.5s"}},
                                               {"type": "video", "source": {"file": "clip2.mp4"}}]}]}
        """
        let (job, composition) = try DistributedRenderTests.job(json, in: folder)
        let single = folder.file("single.mp4")
        let summary = try composition.render(to: single)
        #expect(summary.statistics.framesPassedThrough > 100, "\(summary.statistics.framesPassedThrough) frames passed through")
        let chunks = folder.file("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
        for k in 0..<4 {
            let outcome = try job.renderChunk(k, of: 4, in: chunks)
            guard case .rendered = outcome else { Issue.record("chunk \(k): \(outcome)"); continue }
        }
        let joined = folder.file("joined.mp4")
        _ = try job.assemble(from: chunks, to: joined)
        let a = try MovieReader(url: single).decodedYUV420Frames(), b = try MovieReader(url: joined).decodedYUV420Frames()
        let different = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(a.count == b.count && a.count > 100 && different.isEmpty, "frames \(different.prefix(10)) differ")
    }

    @Test("10-bit HEVC clips are drawn, not passed through (dropping bits would not match the drawn colours within rounding)")
    func tenBitClipsAreDrawn() throws {
        guard FFTools.available else { return }   // the fixture is made with the ffmpeg CLI (required in CI)
        let clip = try Self.stitched(.encoded(.hevc10MP4))
        let folder = try TemporaryFolder()
        let through = try Self.render(clip, passingThrough: true, in: folder)
        let drawn = try Self.render(clip, passingThrough: false, in: folder)
        #expect(through.statistics.framesPassedThrough == 0)
        #expect(through.frames.count == 150 && through.frames == drawn.frames)
    }

    @Test("A serial frame added after a passed-through clip builds on the clip's last picture, as when it is drawn")
    func serialFrameAfterPassedThroughClip() throws {
        let folder = try TemporaryFolder()
        let clip = try Clip.video(try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 30)))
        var last: [[UInt8]] = []
        for passing in [true, false] {
            var settings = EncoderSettings(preset: .ultrafast)
            settings.lossless = true
            settings.passesVideoThrough = passing
            let url = folder.file("serial-\(passing).mp4")
            let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: settings)
            try movie.add(clip)
            try movie.addFrame { ctx in ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 20, height: 20)) }
            let summary = try movie.finish()
            #expect(summary.statistics.framesPassedThrough == (passing ? 30 : 0))
            let frames = try MovieReader(url: url).decodedYUV420Frames()
            #expect(frames.count == 31)
            last.append(frames.last ?? [])
        }
        #expect(last[0] == last[1], "the serial frame differs with the clip passed through")
        // The picture under the red square is the clip's last frame, not a cleared canvas.
        #expect(Set(last[0][30 * 320..<31 * 320]).count > 2)
    }

    @Test("What the tree lets through: only a whole-frame, upright, untouched video; not a transform, a filter, an overlay or another size")
    func whatPassesThrough() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec())
        let video = try Clip.video(url)
        let t = Time(value: 1, timescale: 2)
        #expect(video.videoPassThrough(at: t, width: 320, height: 240, rate: 30) != nil)
        #expect(video.trimmed(from: Time(value: 1, timescale: 10), to: 2).speed(Speed(2)).videoPassThrough(at: t, width: 320, height: 240, rate: 30)?.sourceTime
                == Time(value: 11, timescale: 10))
        #expect(video.videoPassThrough(at: t, width: 640, height: 480, rate: 30) == nil, "another size is scaled by drawing")
        #expect((try video.transformed(Clip.Transform(scale: .constant(0.5)))).videoPassThrough(at: t, width: 320, height: 240, rate: 30) == nil)
        #expect((try video.transformed(Clip.Transform(cornerRadius: 12))).videoPassThrough(at: t, width: 320, height: 240, rate: 30) == nil)
        #expect(video.filtered([.color(.grayscale(amount: 1))]).videoPassThrough(at: t, width: 320, height: 240, rate: 30) == nil)
        let overlay = Clip.overlay([video, Clip.color(.red, duration: 1)])
        #expect(overlay.videoPassThrough(at: t, width: 320, height: 240, rate: 30) == nil, "a layer over it")
        #expect(overlay.videoPassThrough(at: Time(value: 3, timescale: 2), width: 320, height: 240, rate: 30) != nil, "the layer has ended")
        #expect(Clip.overlay([Clip.color(.red, duration: 2), video]).videoPassThrough(at: t, width: 320, height: 240, rate: 30) != nil,
                "a layer under it is hidden")
        let later = Clip.color(.red, duration: 1).delayed(by: 1)
        #expect(Clip.overlay([video, later]).videoPassThrough(at: t, width: 320, height: 240, rate: 30) != nil, "a layer over it not started yet")
        // A layer over it frozen at its own end still draws (its last frame): that layer is the picture.
        let other = try VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 550))
        let frozen = try Clip.video(other).frozen(at: Time(value: 2, timescale: 1), for: 2)
        #expect(Clip.overlay([video, frozen]).videoPassThrough(at: t, width: 320, height: 240, rate: 30)?.file.url == other)
        let rotated = try Clip.video(try VideoFixtures.movie(VideoFixtures.Spec(), .rotated(180)))
        #expect(rotated.videoPassThrough(at: t, width: 320, height: 240, rate: 30) == nil, "turned for display")
    }
}

/// A render's video decoders (`VideoDecoderPool`): a clip the movie has moved past closes.
@Suite("Video decoder pool")
struct VideoDecoderPoolTests {
    /// Two video leaves, each a recorded two-second fixture clip.
    static func twoLeaves() throws -> (VideoLeafKey, VideoLeafKey) {
        try (VideoLeafKey(file: VideoFile(url: VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 440)))),
             VideoLeafKey(file: VideoFile(url: VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 550)))))
    }

    @Test("A decoder that drew frames and then sat unused while another drew 64 closes; asked again, it reopens at the right frame")
    func idleDecoderCloses() throws {
        let (a, b) = try Self.twoLeaves()
        let pool = VideoDecoderPool(limit: 2, drawingThreads: 2)
        defer { pool.close() }
        let rate = FrameRate(30)
        let before = try pool.withSource(for: a) { try $0.timestamp(at: rate.time(ofFrame: 10)) }
        try pool.withSource(for: b) { _ = try $0.timestamp(at: .zero) }
        #expect(pool.openCount == 2)
        for i in 1..<63 { try pool.withSource(for: b) { _ = try $0.timestamp(at: rate.time(ofFrame: i)) } }
        #expect(pool.openCount == 2, "63 loans of another decoder: still open")
        try pool.withSource(for: b) { _ = try $0.timestamp(at: rate.time(ofFrame: 40)) }
        #expect(pool.openCount == 1, "64 loans of another decoder: closed")
        let after = try pool.withSource(for: a) { try $0.timestamp(at: rate.time(ofFrame: 10)) }
        #expect(after == before && pool.openCount == 2)
    }

    /// A 90-frame fixture with one keyframe, as a leaf a pool of two decoders allows two.
    static func oneLeafAllowedTwoDecoders() throws -> (VideoLeafKey, VideoDecoderPool) {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 90, keyframeInterval: 250, withSound: false))
        let key = VideoLeafKey(file: try VideoFile(url: url))
        let pool = VideoDecoderPool(limit: 2, drawingThreads: 1)
        pool.allowDecoders(2, for: key)
        return (key, pool)
    }

    @Test("A leaf allowed two decoders, asked for two moments two seconds apart frame by frame, keeps one decoder at each: no seek")
    func oneLeafAtTwoMoments() throws {
        let (key, pool) = try Self.oneLeafAllowedTwoDecoders()
        defer { pool.close() }
        let rate = FrameRate(30)
        var seeks = Set<ObjectIdentifier>(), decoders = Set<ObjectIdentifier>()
        for k in 0..<30 {
            for moment in [k, 60 + k] {
                let shown = try pool.withSource(for: key, at: rate.time(ofFrame: moment)) { source in
                    decoders.insert(ObjectIdentifier(source))
                    let picture = try source.picture(at: rate.time(ofFrame: moment), width: 320, height: 240)
                    if source.seeks > 0 { seeks.insert(ObjectIdentifier(source)) }
                    return picture
                }
                #expect(VideoFixtures.frameIndex(of: shown) == moment, "frame \(moment)")
            }
        }
        #expect(decoders.count == 2 && pool.openCount == 2)
        #expect(seeks.isEmpty, "a decoder sought back and forth")
        // One decoder for both moments (the pool before leaves could have more than one) seeks on every frame.
        let shared = VideoDecoderPool(limit: 2, drawingThreads: 1)
        defer { shared.close() }
        var sharedSeeks = 0
        for k in 0..<10 {
            for moment in [k, 60 + k] {
                sharedSeeks = try shared.withSource(for: key, at: rate.time(ofFrame: moment)) { source in
                    _ = try source.timestamp(at: rate.time(ofFrame: moment))
                    return source.seeks
                }
            }
        }
        #expect(shared.openCount == 1 && sharedSeeks >= 9, "one decoder: \(sharedSeeks) seeks")
    }

    @Test("Of a leaf's two decoders that both reach a frame, the one nearest it decodes it: the other place keeps its own, no seek")
    func nearestDecoderServes() throws {
        let (key, pool) = try Self.oneLeafAllowedTwoDecoders()
        defer { pool.close() }
        let rate = FrameRate(30)
        var seeks = 0
        func show(_ frame: Int) throws {
            let shown = try pool.withSource(for: key, at: rate.time(ofFrame: frame)) { source in
                defer { seeks = max(seeks, source.seeks) }
                return try source.picture(at: rate.time(ofFrame: frame), width: 320, height: 240)
            }
            #expect(VideoFixtures.frameIndex(of: shown) == frame, "frame \(frame)")
        }
        // Place A at 0 and place B 20 frames on (too far to reach: a second decoder); B runs ahead to 25,
        // then A to 14. Both decoders now reach B's next frames, 26 on: the one at 14 (the first opened)
        // would decode over A's place, which would then seek.
        try show(0)
        for frame in 20...25 { try show(frame) }
        for frame in 1...14 { try show(frame) }
        for j in 0..<10 {
            try show(26 + j)
            try show(15 + j)
        }
        #expect(pool.openCount == 2)
        #expect(seeks == 0, "a decoder sought \(seeks) times")
    }

    @Test("A leaf the composition shows in two places at once is allowed two decoders; shown one place after another, one",
          arguments: ["side by side", "crossfade", "beside itself reversed", "side by side reversed", "a reversed crossfade",
                      "cut", "twice in a row", "a reversed sequence", "a looped sequence", "reversed, twice in a row",
                      "a reversed sequence looped"])
    func placesAtOnce(composition: String) throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 90, withSound: false))
        let c = try Clip.video(url)
        let first = c.trimmed(from: 0, to: 1), second = c.trimmed(from: 2, to: 3)
        let clip: Clip
        switch composition {
        case "side by side": clip = try Clip.split(.sideBySide, [first, second])
        case "crossfade": clip = Clip.sequence([first, second], transition: .crossfade(duration: 0.5))
        case "beside itself reversed": clip = try Clip.split(.sideBySide, [first, first.reversed()])
        // Reversing shows each moment of its child at one moment: what the child shows at once stays at once.
        case "side by side reversed": clip = try Clip.split(.sideBySide, [first, second]).reversed()
        case "a reversed crossfade": clip = Clip.sequence([first, second], transition: .crossfade(duration: 0.5)).reversed()
        case "cut": clip = Clip.sequence([first, second])
        case "twice in a row": clip = c.trimmed(to: 1).repeated(2)
        // A reversed or looped node places its leaves over its whole span; these two never show at once.
        case "a reversed sequence": clip = Clip.sequence([first, second]).reversed()
        case "reversed, twice in a row": clip = Clip.sequence([first, second]).reversed().repeated(2)
        case "a reversed sequence looped": clip = Clip.sequence([first, second]).reversed().looped(toFill: 5)
        default: clip = Clip.sequence([first, second]).looped(toFill: 5)
        }
        let places = RenderSession.videoPlacesAtOnce(in: clip)
        let expected = ["side by side", "crossfade", "beside itself reversed", "side by side reversed", "a reversed crossfade"]
            .contains(composition) ? 2 : nil
        #expect(places.first?.1 == expected && places.count == (expected == nil ? 0 : 1), "\(composition): \(places.map(\.1))")
    }

    @Test("A clip that fails to open ahead gives its slot back: another clip opens in it, and drawing the failed clip throws its own error")
    func failedOpeningAheadFreesItsSlot() throws {
        let folder = try TemporaryFolder()
        let copy = folder.file("gone.mp4")
        try FileManager.default.copyItem(at: try VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 440)), to: copy)
        let gone = VideoLeafKey(file: try VideoFile(url: copy))
        try FileManager.default.removeItem(at: copy)     // probed, then deleted before the render opens it
        let (other, _) = try Self.twoLeaves()
        let pool = VideoDecoderPool(limit: 1, drawingThreads: 1)
        defer { pool.close() }
        pool.prefetch(gone, at: .zero)
        pool.waitForOpening()
        // Stop here if the failed decoder kept its slot: the next loan would wait for it forever.
        try #require(pool.openCount == 0, "a decoder that failed to open still holds a slot")
        let shown = try pool.withSource(for: other) { try $0.timestamp(at: .zero) }
        #expect(shown == .zero && pool.openCount == 1)
        #expect(throws: MovieMakerError.self) { try pool.withSource(for: gone) { _ = try $0.timestamp(at: .zero) } }
    }

    @Test("Opening a clip ahead never closes a decoder used within one frame's loans (drawing threads × limit)")
    func openingAheadKeepsADecoderEveryFrameUses() throws {
        let (a, b) = try Self.twoLeaves()
        let c = VideoLeafKey(file: try VideoFile(url: VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 660))))
        let d = VideoLeafKey(file: try VideoFile(url: VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 770))))
        // Three videos on every frame, four frames in flight: up to 12 loans of others between two of `a`.
        let pool = VideoDecoderPool(limit: 3, drawingThreads: 4)
        defer { pool.close() }
        // Held here, so a decoder opened again cannot be allocated where the first one was.
        let first = try pool.withSource(for: a) { source in _ = try source.timestamp(at: .zero); return source }
        for i in 0..<14 { try pool.withSource(for: i % 2 == 0 ? b : c) { _ = try $0.timestamp(at: FrameRate(30).time(ofFrame: i / 2)) } }
        pool.prefetch(d, at: .zero)
        pool.waitForOpening()
        let again = try pool.withSource(for: a) { source in _ = try source.timestamp(at: FrameRate(30).time(ofFrame: 1)); return source }
        #expect(again === first, "a's decoder was closed to open d's ahead, and opened again")
    }

    @Test("A decoder opened ahead and not used yet is not closed as idle")
    func prefetchedDecoderStays() throws {
        let (a, b) = try Self.twoLeaves()
        let pool = VideoDecoderPool(limit: 2, drawingThreads: 1)
        defer { pool.close() }
        pool.prefetch(b, at: .zero)
        pool.waitForOpening()    // open before the loans, so only its never having drawn keeps it
        for i in 0..<80 { try pool.withSource(for: a) { _ = try $0.timestamp(at: FrameRate(30).time(ofFrame: i % 60)) } }
        #expect(pool.openCount == 2)
    }
}

/// A sink that readies every frame for pass-through and counts what each lane holds, failing where told.
private final class HoldingSink: FrameSink, @unchecked Sendable {
    // @unchecked: each lane's count is touched only by the thread drawing on that lane.
    final class Held: @unchecked Sendable { var count = 0 }
    struct Broke: Error {}
    typealias Slot = Int
    typealias Tool = Held
    let capacity: Int
    let failReserve: Bool, failCommit: Bool
    init(capacity: Int, failReserve: Bool = false, failCommit: Bool = false) {
        self.capacity = capacity; self.failReserve = failReserve; self.failCommit = failCommit
    }
    func reserve() throws -> Int { if failReserve { throw Broke() }; return 0 }
    func fill(_ slot: Int, from lane: DrawingLane<Held>, index: Int) throws {}
    func commit(_ slot: Int, index: Int, keepForRepeat: Bool) throws { if failCommit { throw Broke() } }
    func commitRepeat(_ slot: Int, index: Int) throws {}
    func prepare(passingThrough video: VideoPassThrough, on lane: DrawingLane<Held>) throws -> Bool { lane.tool.count += 1; return true }
    func fillPassedThrough(_ slot: Int, from lane: DrawingLane<Held>) throws { lane.tool.count -= 1 }
    func abandonPassedThrough(on lane: DrawingLane<Held>) { lane.tool.count -= 1 }
    func release(_ slot: Int) {}
}

@Suite("Frame scheduler")
struct FrameSchedulerPassThroughTests {
    @Test("A frame readied to pass through is let go when the render fails before it is filled: drawing, reserving or waiting for a slot")
    func readiedFramesAreLetGoOnFailure() throws {
        let file = try VideoFile(url: VideoFixtures.movie(VideoFixtures.Spec(toneFrequency: 440)))
        let video = VideoPassThrough(key: VideoLeafKey(file: file), file: file, sourceTime: .zero)
        let cases: [(frames: Range<Int>, sink: HoldingSink, drawFails: Bool)] = [
            (0..<1, HoldingSink(capacity: 2), true),                  // the last frame's drawing fails after it was readied
            (0..<8, HoldingSink(capacity: 2, failReserve: true), false),
            (0..<8, HoldingSink(capacity: 1, failCommit: true), false),   // a frame waiting for the one slot sees the failure
        ]
        for (n, c) in cases.enumerated() {
            for _ in 0..<20 {
                let lanes = try (0..<2).map { _ in DrawingLane(canvas: try Canvas(width: 16, height: 16), tool: HoldingSink.Held()) }
                let scheduler = FrameScheduler(frames: c.frames, sink: c.sink, cancellation: nil, passThrough: { _ in video }) { _, _ in
                    if c.drawFails { throw HoldingSink.Broke() }
                }
                #expect(throws: HoldingSink.Broke.self) { _ = try scheduler.run(lanes: lanes) { _ in } }
                #expect(lanes.allSatisfy { $0.tool.count == 0 }, "case \(n): lanes still hold \(lanes.map(\.tool.count))")
            }
        }
    }
}

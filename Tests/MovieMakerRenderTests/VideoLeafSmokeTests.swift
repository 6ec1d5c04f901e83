import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The ffmpeg command-line tool that makes the fixtures, when installed.
private let smokeFFmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile)

/// Quick checks of the video leaf against a straight decode, on a clip made by the ffmpeg CLI
/// (testsrc2: every frame differs). The full suite with MovieMaker-made fixtures is VideoClipTests.
/// Serialized: its tests share fixture files, each made by the first test that needs it.
@Suite("Video leaf: quick checks against a straight decode", .serialized,
       .enabled(if: smokeFFmpeg != nil, "the ffmpeg command-line tool is not installed (apt-get install ffmpeg) — needed to make the fixtures"))
struct VideoLeafSmokeTests {

    private func fixture() throws -> URL {
        try fixture(named: "testsrc.mp4", ["-c:v", "libx264", "-g", "250", "-pix_fmt", "yuv420p"])
    }

    /// testsrc2 (2 s at 30 fps, 320×240) with a 440 Hz tone, encoded by the ffmpeg CLI with `video` options.
    private func fixture(named name: String, source: String = "testsrc2=size=320x240:rate=30", _ video: [String]) throws -> URL {
        let ffmpeg = try #require(smokeFFmpeg)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mm-video-smoke-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: url.path) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ffmpeg)
            p.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-f", "lavfi", "-i", "sine=f=440:r=48000",
                           "-t", "2"] + video + ["-c:a", "aac", "-shortest", url.path]
            try withLaunchLock { try p.run() }
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
        }
        return url
    }

    private func straightDecode(_ url: URL) throws -> [PixelBuffer] {
        var frames: [PixelBuffer] = []
        try MovieReader(url: url).decodeFrames { frames.append($0.pixels); return true }
        return frames
    }

    /// The index of the straight-decoded frame most like `frame` among those within 3 of `expected`,
    /// and its PSNR.
    private func bestMatch(_ frame: PixelBuffer, in frames: [PixelBuffer], near expected: Int) -> (Int, Double) {
        var best = (0, -1.0)
        for i in max(0, expected - 3)...min(frames.count - 1, expected + 3) {
            let p = psnr(frame, frames[i]); if p > best.1 { best = (i, p) }
        }
        return best
    }

    @Test func probeAndForwardFramesMatchStraightDecode() throws {
        let url = try fixture()
        let file = try VideoFile(url: url)
        #expect(file.width == 320); #expect(file.height == 240)
        #expect(file.duration == Time(value: 2, timescale: 1))
        #expect(file.frameRate == 30)
        #expect(!file.isVariableFrameRate)
        #expect(file.hasAudio)
        let straight = try straightDecode(url)
        #expect(straight.count == 60)
        let frames = try Clip.video(url).renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        #expect(frames.count == 60)
        for (k, f) in frames.enumerated() {
            let (i, p) = bestMatch(f, in: straight, near: k)
            #expect(i == k, "frame \(k) looks like source frame \(i)")
            // Block-shared chroma (FFmpeg's default) against the reader's interpolated chroma, on
            // testsrc2's sharp colour edges (a worst case): about 29 dB. Exactness against FFmpeg's
            // own frames is VideoClipTests' job; here a wrong matrix or range would fall far below.
            #expect(p > 27, "frame \(k) (PSNR against the reader's interpolated-chroma conversion)")
        }
    }

    @Test func reversedAndSpeed() throws {
        let url = try fixture()
        let straight = try straightDecode(url)
        let reversed = try Clip.video(url).reversed().renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        #expect(reversed.count == 60)
        for (k, f) in reversed.enumerated() { #expect(bestMatch(f, in: straight, near: 59 - k).0 == 59 - k, "reversed frame \(k)") }
        let fast = try Clip.video(url).speed(2).renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        #expect(fast.count == 30)
        for (k, f) in fast.enumerated() { #expect(bestMatch(f, in: straight, near: 2 * k).0 == 2 * k, "2× frame \(k)") }
        let slow = try Clip.video(url).speed(0.5).renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        #expect(slow.count == 120)
        for (k, f) in slow.enumerated() { #expect(bestMatch(f, in: straight, near: k / 2).0 == k / 2, "0.5× frame \(k)") }
    }

    /// How combed a picture is: the mean difference of each row from the average of its neighbours,
    /// in luma (BT.601 weights, so how chroma is upsampled hardly matters), which the two fields of a
    /// moving interlaced picture make large.
    private func combing(_ p: PixelBuffer) -> Double {
        var total = 0.0
        for y in 1..<(p.height - 1) {
            for x in 0..<p.width {
                let g = { (yy: Int) -> Double in
                    let i = (yy * p.width + x) * 4
                    return 0.114 * Double(p.bytes[i]) + 0.587 * Double(p.bytes[i + 1]) + 0.299 * Double(p.bytes[i + 2])
                }
                total += abs(g(y) - (g(y - 1) + g(y + 1)) / 2)
            }
        }
        return total / Double(p.width * (p.height - 2))
    }

    @Test func interlacedVideoIsDeinterlacedFrameForFrame() throws {
        // Fields from different instants (60 fields/s woven into 30 frames/s): moving content combs.
        let url = try fixture(named: "interlaced.mp4", source: "testsrc2=size=320x240:rate=60", ["-vf", "tinterlace=mode=interleave_top,setfield=tff", "-c:v", "libx264",
                                                        "-flags", "+ildct+ilme", "-x264opts", "tff=1", "-pix_fmt", "yuv420p"])
        let file = try VideoFile(url: url)
        #expect(file.isInterlaced)
        let woven = try straightDecode(url)
        let frames = try Clip.video(url).renderFrames(width: 320, height: 240, rate: file.frameRate, drawingThreads: 2)
        #expect(frames.count == woven.count)
        for k in [1, 17, 30, 45] {
            let raw = combing(woven[k]), shown = combing(frames[k])
            #expect(shown < raw * 0.7, "frame \(k): combing \(shown) shown, \(raw) in the woven frame")
        }
    }

    /// bwdif deinterlaces a frame from its neighbours; a seek restarts it. A frame the decoder reached by
    /// seeking to its keyframe (a chunk, a trim starting there, playing backwards) must be the frame
    /// decoding straight through gives, the first frame included.
    @Test func anInterlacedFrameIsTheSameReachedBySeekingAsStraightThrough() throws {
        let url = try fixture(named: "interlaced-gop10.mp4", source: "testsrc2=size=320x240:rate=60", ["-vf", "tinterlace=mode=interleave_top,setfield=tff", "-c:v", "libx264",
                                                                 "-flags", "+ildct+ilme", "-x264opts", "tff=1:keyint=10:min-keyint=10:scenecut=0", "-pix_fmt", "yuv420p"])
        let file = try VideoFile(url: url)
        #expect(file.isInterlaced)
        let clip = try Clip.video(url)
        let all = try clip.renderFrames(width: 320, height: 240, rate: file.frameRate, drawingThreads: 1)
        // The first frame too (the one the file's probe decodes) is deinterlaced.
        let raw = combing(try straightDecode(url)[0]), shown = combing(all[0])
        #expect(shown < raw * 0.7, "frame 0: combing \(shown) shown, \(raw) in the woven frame")
        // Frames 20 and 40 are keyframes more than half a second in: the decoder seeks to them.
        for first in [20, 21, 40] {
            let chunk = try clip.renderFrames(first..<(first + 3), width: 320, height: 240, rate: file.frameRate, drawingThreads: 1)
            let differing = zip(chunk, all[first...]).map { a, b in zip(a.bytes, b.bytes).filter { $0 != $1 }.count }
            #expect(differing.allSatisfy { $0 == 0 }, "frames \(first)…\(first + 2): \(differing) bytes differ from the straight decode")
        }
        let trimmed = try clip.trimmed(from: file.frameRate.time(ofFrame: 40), to: clip.duration).renderFrames(0..<1, width: 320, height: 240, rate: file.frameRate)
        #expect(trimmed[0] == all[40], "a trim starting at the keyframe shows another picture")
        // Played backwards, every group of pictures is reached by a seek.
        let backwards = try clip.reversed().renderFrames(width: 320, height: 240, rate: file.frameRate, drawingThreads: 2)
        let wrong = zip(backwards, all.reversed()).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(backwards.count == all.count && wrong.isEmpty, "reversed: frames \(wrong) differ from the straight decode's")
    }

    /// A keyframe damaged on disk (a bad sector in a phone clip): decoding straight through, the frames
    /// after it are concealed from the pictures before; a chunk or trim that seeks near it must show the
    /// same frames, so a chunked render is the single pass's (frames depend only on the composition).
    @Test func framesAfterADamagedKeyframeAreTheSameReachedBySeeking() throws {
        let url = try fixture(named: "gop15.mp4", ["-c:v", "libx264", "-x264opts", "keyint=15:min-keyint=15:scenecut=0", "-pix_fmt", "yuv420p"])
        let packets = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,size,flags",
                                                              "-of", "csv=p=0", url.path]).stdout
        let keyframes = packets.split(separator: "\n").map { $0.split(separator: ",") }.filter { $0.count >= 3 && $0[2].hasPrefix("K") }
        try #require(keyframes.count == 4, "keyframes: \(keyframes)")
        // Garble the middle of the third keyframe (frame 30), leaving its first bytes (the slice header).
        let position = try #require(Int(keyframes[2][1])), size = try #require(Int(keyframes[2][0]))
        var data = try Data(contentsOf: url)
        var state: UInt32 = 777
        for i in (position + 40)..<(position + size - 8) {
            state = state &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: state >> 16)
        }
        let damaged = url.deletingLastPathComponent().appendingPathComponent("gop15-damaged-keyframe.mp4")
        try data.write(to: damaged)
        let file = try VideoFile(url: damaged)
        let clip = Clip.video(file)
        let all = try clip.renderFrames(width: 320, height: 240, rate: file.frameRate, drawingThreads: 1)
        #expect(all.count == 60)
        for first in [20, 30, 31, 36, 44, 45] {
            let chunk = try clip.renderFrames(first..<(first + 3), width: 320, height: 240, rate: file.frameRate, drawingThreads: 1)
            let differing = zip(chunk, all[first...]).map { a, b in zip(a.bytes, b.bytes).filter { $0 != $1 }.count }
            #expect(differing.allSatisfy { $0 == 0 }, "frames \(first)…\(first + 2): \(differing) bytes differ from the straight decode")
        }
        // A chunk that seeks to the clean keyframe before and decodes through the damage.
        let across = try clip.renderFrames(20..<50, width: 320, height: 240, rate: file.frameRate, drawingThreads: 1)
        let differ = zip(across, all[20...]).enumerated().filter { $0.element.0.bytes != $0.element.1.bytes }.map { $0.offset + 20 }
        #expect(differ.isEmpty, "frames \(differ) of a chunk from frame 20 differ from the straight decode")
        let trimmed = try clip.trimmed(from: file.frameRate.time(ofFrame: 33), to: clip.duration).renderFrames(0..<1, width: 320, height: 240, rate: file.frameRate)
        #expect(trimmed[0].bytes == all[33].bytes, "a trim starting after the damaged keyframe shows another picture")
        // Played backwards, the groups of pictures are reached by seeks.
        let backwards = try clip.reversed().renderFrames(width: 320, height: 240, rate: file.frameRate, drawingThreads: 2)
        let wrong = zip(backwards, all.reversed()).enumerated().filter { $0.element.0.bytes != $0.element.1.bytes }.map { 59 - $0.offset }
        #expect(backwards.count == all.count && wrong.isEmpty, "reversed: frames \(wrong) differ from the straight decode's")
        let source = try VideoFrameSource(file: file, drawingThreads: 1)
        _ = try source.picture(at: file.frameRate.time(ofFrame: 40), width: 32, height: 24)
        #expect(source.restarts == 1, "a seek meeting the damage decodes again from the start once")
        #expect(source.damagedFrames > 0)
    }

    /// Decoding again from the start is for damage only: clean streams whose seeks land on pictures
    /// the decoder handles specially (open groups of pictures, HEVC's CRA with its leading pictures,
    /// B-frames) never restart, played backwards from the end.
    @Test(arguments: [
        ("open-gop.mp4", ["-c:v", "libx264", "-x264opts", "keyint=15:min-keyint=15:scenecut=0:open-gop=1:bframes=3", "-pix_fmt", "yuv420p"]),
        ("hevc-cra.mp4", ["-c:v", "libx265", "-x265-params", "keyint=15:min-keyint=15:scenecut=0:open-gop=1:bframes=4:log-level=error", "-pix_fmt", "yuv420p", "-tag:v", "hvc1"]),
        // A transport stream (AVCHD's .MTS): its seeks can land inside a group of pictures.
        ("gop15.ts", ["-c:v", "libx264", "-x264opts", "keyint=15:min-keyint=15:scenecut=0:bframes=3", "-pix_fmt", "yuv420p", "-f", "mpegts"]),
    ])
    func cleanStreamsNeverDecodeAgainFromTheStart(name: String, options: [String]) throws {
        let url = try fixture(named: name, options)
        let file = try VideoFile(url: url)
        let source = try VideoFrameSource(file: file, drawingThreads: 1)
        for k in stride(from: 59, through: 0, by: -1) {
            _ = try source.picture(at: file.frameRate.time(ofFrame: k), width: 32, height: 24)
        }
        #expect(source.seeks > 3, "playing backwards seeks")
        #expect(source.restarts == 0, "\(source.restarts) restarts from the start in a clean stream")
        #expect(source.damagedFrames == 0, "\(source.damagedFrames) frames of a clean stream taken for damaged")
    }

    @Test func theVideosSoundFollowsItsTimeEdits() throws {
        let url = try fixture()
        let clip = try Clip.video(url)
        #expect(clip.sounds.count == 1)
        #expect(clip.sounds[0].heardSource.duration == 2)
        let fast = clip.speed(2).sounds
        #expect(fast.count == 1)
        #expect(fast[0].source is TempoSound)
        #expect(fast[0].heardSource.duration == 1)
        let back = clip.trimmed(from: 0.5, to: 1.5).reversed().sounds
        #expect(back.count == 1)
        #expect(back[0].source is ReversedSound)
        #expect(back[0].firstHeard == .zero)
        #expect(back[0].heardSource.duration == 1)
        #expect(clip.frozen(at: 1, for: 2).sounds.isEmpty)
    }

    @Test func moreVideosAtOnceThanTheLimitFailBeforeTheFirstFrame() throws {
        let url = try fixture()
        let quad = Clip.overlay(try Clip.video(url), try Clip.video(url), try Clip.video(url))
        do {
            _ = try quad.renderFrames(0..<1, width: 320, height: 240)
            Issue.record("three videos at once rendered under the default limit")
        } catch {
            let e = error as? MovieMakerError
            #expect(e?.code == .videoDecoderLimit)
            #expect(e?.message.contains("3 videos at once") ?? false, "\(e?.message ?? "")")
        }
        #expect(try quad.renderFrames(0..<1, width: 320, height: 240, videoDecoderLimit: 3).count == 1)
    }

    /// A reverse, loop or freeze node places its leaves over its whole span; the limit counts what its
    /// child shows at once, so a reversed stitch of three clips (one at a time) renders under the
    /// default limit of two, while three videos overlaid and reversed still fail.
    @Test(arguments: ["reversed", "looped", "frozen", "crossfaded and reversed", "reversed and looped", "reversed twice"])
    func aTimeMappedStitchOfThreeVideosNeedsTheDecodersItsChildDoes(map: String) throws {
        let url = try fixture()
        let clips = try (0..<3).map { _ in try Clip.video(url).trimmed(from: 0, to: 0.5) }
        let stitch = Clip.stitched(clips)
        let clip = switch map {
        case "reversed": stitch.reversed()
        case "looped": stitch.looped(toFill: 2)
        case "frozen": stitch.frozen(at: 0.75, for: 0.5)
        case "reversed and looped": stitch.reversed().looped(toFill: 2)
        case "reversed twice": stitch.reversed().reversed()
        default: Clip.sequence(clips, transition: .crossfade(duration: 0.2)).reversed()
        }
        #expect(RenderSession.busiestVideoTime(in: clip)?.files.count == (map == "crossfaded and reversed" ? 2 : 1))
        let rate = FrameRate(10)
        #expect(try clip.renderFrames(width: 320, height: 240, rate: rate).count == rate.frameCount(for: clip.duration))
        let overlaid = Clip.overlay(clips[0], clips[1], clips[2]).reversed()
        #expect(RenderSession.busiestVideoTime(in: overlaid)?.files.count == 3)
        #expect(throws: MovieMakerError.self) { try overlaid.renderFrames(0..<1, width: 320, height: 240) }
        // The first of three videos over the second and a reversed stitch of the first and the third:
        // all three show at once while the stitch shows the third.
        let beside = Clip.overlay(clips[0], clips[1], Clip.stitched([clips[0], clips[2]]).reversed())
        #expect(RenderSession.busiestVideoTime(in: beside)?.files.count == 3)
    }

    /// Runs the ffmpeg CLI with `arguments` (the fixture check already found it).
    private func ffmpeg(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-v", "error", "-y"] + arguments
        try withLaunchLock { try p.run() }
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " "))")
    }

    @Test func theAudioOffsetIsWhereTheContainerPutsTheFirstSample() throws {
        let url = try fixture()
        let dir = url.deletingLastPathComponent()
        let offset = try #require(try VideoFile(url: url).audioOffset)
        #expect(abs(offset.seconds) <= 0.001, "\(offset.seconds)")
        // Matroska (FFmpeg 5.1) keeps AAC's 1024 priming samples in the stream, 21.3 ms before the sine
        // starts, and starts the video 21 ms later: the sound stream begins 21 ms before the picture.
        let mkv = dir.appendingPathComponent("remuxed.mkv")
        try ffmpeg(["-i", url.path, "-c", "copy", mkv.path])
        let mkvOffset = try #require(try VideoFile(url: mkv).audioOffset)
        #expect(abs(mkvOffset.seconds + 0.021) <= 0.002, "\(mkvOffset.seconds)")
        // PCM sound (no priming) delayed by 21 ms in the container.
        let late = dir.appendingPathComponent("late.mkv")
        try ffmpeg(["-i", url.path, "-itsoffset", "0.021", "-i", url.path, "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "pcm_s16le", late.path])
        let lateOffset = try #require(try VideoFile(url: late).audioOffset)
        #expect(abs(lateOffset.seconds - 0.021) <= 0.002, "\(lateOffset.seconds)")
    }

    @Test func writingStraightIntoTheCanvasGivesTheDrawnPicturesPixels() throws {
        let url = try fixture()
        let file = try VideoFile(url: url)
        // The direct path (frames converted into the canvas)…
        let direct = try Clip.video(file).renderFrames(0..<5, width: 320, height: 240)
        // …and the picture the drawn path (rotated, mirrored or alpha video) converts and paints: Cairo
        // copies an opaque picture placed on whole pixels exactly, so the two must agree byte for byte.
        let source = try VideoFrameSource(file: file)
        for k in 0..<5 {
            let picture = try source.picture(at: FrameRate(30).time(ofFrame: k), width: 320, height: 240).pixels()
            #expect(picture.bytes == direct[k].bytes, "frame \(k)")
        }
    }
}

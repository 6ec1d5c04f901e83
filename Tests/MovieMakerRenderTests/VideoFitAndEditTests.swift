import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// How a video fills the frame (`fill`, `fit`, `blur`), and the freeze and loop time edits, on the
/// index-block fixture (made by MovieMaker itself: no ffmpeg needed).
@Suite("Video clips: fit modes, freeze and loop", .serialized)
struct VideoFitAndEditTests {
    private func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * p.width + x) * 4
        return (Int(p.bytes[i + 2]), Int(p.bytes[i + 1]), Int(p.bytes[i]))
    }

    /// The standard deviation of the green channel over a rectangle.
    private func spread(_ p: PixelBuffer, x: Range<Int>, y: Range<Int>) -> Double {
        var values: [Double] = []
        for yy in y { for xx in x { values.append(Double(pixel(p, xx, yy).g)) } }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    @Test func fitShowsTheWholePictureBetweenBarsOfTheBackground() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 10, withSound: false))
        // 320×240 into 320×400: the picture keeps its 320×240, bars of 80 above and below.
        let frames = try Clip.video(url, fit: .fit, background: .red).renderFrames(0..<3, width: 320, height: 400)
        for (k, f) in frames.enumerated() {
            let bar = pixel(f, 160, 20), bottom = pixel(f, 160, 390)
            #expect(bar.r > 250 && bar.g < 5 && bar.b < 5, "top bar \(bar)")
            #expect(bottom.r > 250 && bottom.g < 5 && bottom.b < 5, "bottom bar \(bottom)")
            // The picture between the bars carries its index, whole.
            let picture = try Image(f).pixels()
            #expect(VideoFixtures.frameIndex(of: crop(picture, y: 80..<320)) == k)
        }
    }

    @Test func fillCoversTheFrameCroppingTheSides() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 10, withSound: false))
        let straight = try MovieReader(url: url).decodeFramesCollected()
        // 320×240 into 240×240: scale 1, 40 columns cropped on each side.
        let frames = try Clip.video(url, fit: .fill, background: .red).renderFrames(0..<3, width: 240, height: 240)
        for (k, f) in frames.enumerated() {
            var worst = 0
            for y in stride(from: 0, to: 240, by: 7) {
                for x in stride(from: 0, to: 240, by: 7) {
                    let a = pixel(f, x, y), b = pixel(straight[k], x + 40, y)
                    worst = max(worst, abs(a.g - b.g))
                }
            }
            // The same pixels as the source shifted by the crop (green: luma-dominated, so the
            // chroma conversions of the two readers hardly differ).
            #expect(worst <= 24, "frame \(k): largest green difference \(worst)")
            let corner = pixel(f, 0, 0)
            #expect(!(corner.r > 250 && corner.g < 5), "no background shows with fill")
        }
    }

    @Test func blurFillsTheBarsWithABlurredCopyNotTheBackground() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 10, withSound: false))
        let f = try #require(try Clip.video(url, fit: .blur, background: .red).renderFrames(0..<1, width: 320, height: 400).first)
        // The bars are neither the red background nor flat: a darkened, blurred enlargement.
        let bar = pixel(f, 160, 20)
        #expect(!(bar.r > 250 && bar.g < 5 && bar.b < 5), "the bar is the plain background \(bar)")
        #expect(spread(f, x: 0..<320, y: 0..<80) > 2, "the bar is flat")
        let sharp = try Image(f).pixels()
        #expect(VideoFixtures.frameIndex(of: crop(sharp, y: 80..<320)) == 0)
    }

    @Test func aFreezeHoldsOneSourceFrameAndIsSilent() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 30))
        let clip = try Clip.video(url).frozen(at: Time(value: 17, timescale: 30), for: 1)
        let frames = try clip.renderFrames(width: 320, height: 240)
        #expect(frames.count == 30)
        #expect(frames.map(VideoFixtures.frameIndex(of:)) == Array(repeating: 17, count: 30))
        #expect(clip.sounds.isEmpty)
    }

    @Test func aLoopRepeatsTheClipAndCutsTheLastRepeatShort() throws {
        let url = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 20))
        let clip = try Clip.video(url).looped(toFill: Time(value: 50, timescale: 30))
        let frames = try clip.renderFrames(width: 320, height: 240, drawingThreads: 2)
        #expect(frames.count == 50)
        #expect(frames.map(VideoFixtures.frameIndex(of:)) == (0..<50).map { $0 % 20 })
        // The sound repeats with the picture: one piece per repeat, the last cut at the end.
        #expect(clip.sounds.count == 3)
        #expect(clip.sounds.last?.heardUntil == Time(value: 50, timescale: 30))
    }

    /// Rows `y` of `p` as a picture of their own.
    private func crop(_ p: PixelBuffer, y: Range<Int>) -> PixelBuffer {
        let row = p.width * 4
        return PixelBuffer(width: p.width, height: y.count, bytes: Array(p.bytes[(y.lowerBound * row)..<(y.upperBound * row)]))
    }
}

extension MovieReader {
    /// Every frame's pixels, in order.
    func decodeFramesCollected() throws -> [PixelBuffer] {
        var frames: [PixelBuffer] = []
        try decodeFrames { frames.append($0.pixels); return true }
        return frames
    }
}

/// Seeking backwards in every container: a frame asked for after a later one (a reversed clip, a
/// still, a drawing thread running behind) is the frame a straight decode gives.
@Suite("Video clips: seeking back", .serialized)
struct VideoSeekBackTests {
    @Test("Frames asked for backwards are right in every container, long GOP included",
          arguments: [VideoFixtures.Variant.plain, .encoded(.h264MTS), .encoded(.h264MKV), .encoded(.mpeg4AVI), .encoded(.vp9WebM)])
    func framesAskedForBackwards(variant: VideoFixtures.Variant) throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 40, withSound: false), variant)
        let source = try VideoFrameSource(file: try VideoFile(url: url), drawingThreads: 1)
        for k in [30, 1, 25, 0, 12, 11, 39, 2] {
            let t = FrameRate(30).time(ofFrame: k)
            let picture = try source.picture(at: t, width: 320, height: 240)
            #expect(VideoFixtures.frameIndex(of: picture) == k, "\(variant): frame \(k) after a jump")
        }
    }
}

/// A 60-frame, 30-fps fixture with a keyframe every 30 frames, opened for `drawingThreads` threads.
private func keyframeEvery30(drawingThreads: Int) throws -> VideoFrameSource {
    let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 60, keyframeInterval: 30, withSound: false))
    return try VideoFrameSource(file: try VideoFile(url: url), drawingThreads: drawingThreads)
}

/// Asks `source` for the frames `order` one after another, checking the frame code each picture shows;
/// returns the most decoded frames its window held meanwhile.
@discardableResult
private func show(_ order: [Int], from source: VideoFrameSource) throws -> Int {
    var most = 0
    for k in order {
        let picture = try source.picture(at: FrameRate(30).time(ofFrame: k), width: 320, height: 240)
        #expect(VideoFixtures.frameIndex(of: picture) == k, "frame \(k)")
        most = max(most, source.framesHeld)
    }
    return most
}

/// Two drawing threads ask for neighbouring frames in either order. Where the frames cross a keyframe,
/// a step of two frames forwards used to seek to the keyframe and empty the window, so the thread
/// asking for the frame just before it then sought back to the previous keyframe and decoded the whole
/// group of pictures again, keeping the 32-frame backward window (in the video benchmark: 345 frames
/// decoded twice and 90 MiB more at the peak, now and then).
@Suite("Video clips: playing forwards across a keyframe", .serialized)
struct VideoForwardSeekTests {
    @Test("frames asked for a step or two out of order across a keyframe decode each frame once, without seeking")
    func neighboursAcrossAKeyframe() throws {
        let source = try keyframeEvery30(drawingThreads: 2)
        // Two threads' requests around the keyframe at 30: 28 before 27, 30 before 29, 32 before 31.
        var order = Array(0..<27)
        order += [28, 27, 30, 29, 32, 31]
        order += Array(33..<60)
        try show(order, from: source)
        #expect(source.seeks == 0)
        // Each frame decoded once: the first comes decoded with the opened file, the source decodes the other 59.
        #expect(source.framesDecoded == 59)
    }

    @Test("a jump forward seeks when the keyframe it passes is more than half a second ahead of the decoder (0.6 s), not when it is 0.4 s",
          arguments: [(lastAsked: 10, seeks: 1), (lastAsked: 16, seeks: 0)])
    func jumpForwardSeeksPastHalfASecond(lastAsked: Int, seeks: Int) throws {
        let source = try keyframeEvery30(drawingThreads: 2)
        // Frames 0…lastAsked leave the decoder one frame further (the next shows where the last ends):
        // at 11, the keyframe at 30 is 19 frames (0.63 s) ahead; at 17, 13 frames (0.43 s).
        try show(Array(0...lastAsked) + [31, 32], from: source)
        #expect(source.seeks == seeks)
        // Seeking decodes from the keyframe (30…33), not through the frames before it.
        #expect(source.framesDecoded == (seeks == 1 ? lastAsked + 1 + 4 : 33), "\(source.framesDecoded) frames decoded")
    }
}

/// A step back while playing forwards (a drawing thread running behind, a trimmed clip looped) seeks
/// and keeps the small forward window: only playing backwards keeps the 32-frame backward window, whose
/// pictures stay in the decoder's pool until it closes (90 MiB more at 1080p, for the rest of the clip).
@Suite("Video clips: the window after a step back", .serialized)
struct VideoBackwardWindowTests {
    @Test("a frame asked for behind the window while playing forwards is found by a seek that keeps the forward window")
    func stepBackWhilePlayingForwards() throws {
        let source = try keyframeEvery30(drawingThreads: 2)
        let forward = VideoFrameSource.forwardWindow(drawingThreads: 2)
        // Frames 0…50, then 44 (behind the window: decoded from the keyframe at 30), then on to the end.
        let most = try show(Array(0...50) + [44] + Array(51..<60), from: source)
        #expect(source.seeks == 1)
        #expect(most <= forward, "the window held \(most) frames (forward window: \(forward))")
    }

    @Test("a loop of a trimmed clip going back to its first frame keeps the forward window")
    func loopBackToATrimmedStart() throws {
        let source = try keyframeEvery30(drawingThreads: 2)
        let forward = VideoFrameSource.forwardWindow(drawingThreads: 2)
        let most = try show(Array(20..<40) + Array(20..<40), from: source)
        #expect(most <= forward, "the window held \(most) frames (forward window: \(forward))")
    }

    @Test("played backwards, frames are decoded in slices of the backward window: one seek per slice, not one per frame or two",
          arguments: [1, 2])
    func playedBackwards(drawingThreads: Int) throws {
        let source = try keyframeEvery30(drawingThreads: drawingThreads)
        // Two threads ask neighbours out of order: 59, 58, 56, 57, 54, 55, …
        var order = Array((0..<60).reversed())
        if drawingThreads == 2 {
            for i in stride(from: 2, to: 58, by: 2) { order.swapAt(i, i + 1) }
        }
        try show(order, from: source)
        // To 59 from the keyframe at 30; back into 30…55 from it (the backward window); back into 0…29.
        #expect(source.seeks == 3, "\(source.seeks) seeks")
        #expect(source.framesDecoded <= 30 + 32 + 30, "\(source.framesDecoded) frames decoded")
    }
}

/// Ogg's (and raw H.264's) index grows as the file is read, so a jump past what has been read finds no
/// keyframe in it to seek to: such a jump is judged by its length, as in a file without an index.
@Suite("Video clips: a jump past an index still being built", .serialized)
struct VideoGrowingIndexTests {
    @Test("a jump of six seconds in an Ogg file, past what has been read, seeks instead of decoding every frame on the way")
    func jumpIntoOgg() throws {
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 300, withSound: false), .encoded(.theoraOgg))
        let source = try VideoFrameSource(file: try VideoFile(url: url), drawingThreads: 2)
        // Two seconds played (the index has the keyframes read so far: one every 12 frames), then a jump.
        for k in Array(0..<60) + [250, 251] {
            let picture = try source.picture(at: FrameRate(30).time(ofFrame: k), width: 320, height: 240)
            #expect(VideoFixtures.frameIndex(of: picture) == k, "frame \(k)")
        }
        #expect(source.seeks >= 1)
        // 60 for the first two seconds, then from a keyframe at most 12 frames before 250, not 190 more.
        #expect(source.framesDecoded < 60 + 30, "\(source.framesDecoded) frames decoded")
    }
}

/// A heap corruption found rendering a template at 1080×1920: swscale's vector code writes whole blocks
/// of pixels, so converting to a width that is not a multiple of the block ran past the end of each row —
/// past the end of the buffer after the last row. `travel.json --size 1080x1920` aborted ("corrupted
/// double-linked list") three times out of three before the fix.
@Suite("Video frames converted to any width stay inside their buffer")
struct VideoConversionBoundsTests {
    @Test("converting to widths that are not multiples of 16, scaled or at the source's own size, writes nothing past the last row",
          arguments: [(1080, 1080), (1080, 720), (360, 360), (200, 333), (320, 1078)])
    func conversionStaysInItsRows(source sourceWidth: Int, width: Int) throws {
        let height = 64
        let url = try VideoFixtures.require(VideoFixtures.Spec(frameCount: 2, width: sourceWidth, height: height, withSound: false))
        let source = try VideoFrameSource(file: try VideoFile(url: url), drawingThreads: 1)
        let stride = width * 4, guardBytes = 512
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height + guardBytes)
        defer { buffer.deallocate() }
        buffer.update(repeating: 0xA5, count: stride * height + guardBytes)
        try source.write(at: .zero, width: width, height: height, into: buffer, stride: stride)
        let after = (0..<guardBytes).filter { buffer[stride * height + $0] != 0xA5 }
        #expect(after.isEmpty, "width \(width): \(after.count) bytes written past the last row (the first at +\(after.first ?? 0))")
        // The rows themselves were written (opaque pixels: alpha 255).
        #expect(buffer[3] == 255 && buffer[stride * height - 1] == 255)
    }
}

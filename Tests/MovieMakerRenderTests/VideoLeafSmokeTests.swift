import Foundation
import XCTest
@testable import MovieMaker
import MovieMakerTestSupport

/// Quick checks of the video leaf against a straight decode, on a clip made by the ffmpeg CLI
/// (testsrc2: every frame differs). The full suite with MovieMaker-made fixtures is VideoClipTests.
final class VideoLeafSmokeTests: XCTestCase {
    private func fixture() throws -> URL {
        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("the ffmpeg command-line tool is not installed (apt-get install ffmpeg) — needed to make this fixture")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mm-video-smoke-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("testsrc.mp4")
        if !FileManager.default.fileExists(atPath: url.path) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ffmpeg)
            p.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=f=440:r=48000",
                           "-t", "2", "-c:v", "libx264", "-g", "250", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", url.path]
            try p.run(); p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
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

    func testProbeAndForwardFramesMatchStraightDecode() throws {
        let url = try fixture()
        let file = try VideoFile(url: url)
        XCTAssertEqual(file.width, 320); XCTAssertEqual(file.height, 240)
        XCTAssertEqual(file.duration, Time(value: 2, timescale: 1))
        XCTAssertEqual(file.frameRate, 30)
        XCTAssertFalse(file.isVariableFrameRate)
        XCTAssertTrue(file.hasAudio)
        let straight = try straightDecode(url)
        XCTAssertEqual(straight.count, 60)
        let frames = try Clip.video(url).renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        XCTAssertEqual(frames.count, 60)
        for (k, f) in frames.enumerated() {
            let (i, p) = bestMatch(f, in: straight, near: k)
            XCTAssertEqual(i, k, "frame \(k) looks like source frame \(i)")
            XCTAssertGreaterThan(p, 35, "frame \(k) (PSNR against the accurate conversion)")
        }
    }

    func testReversedAndSpeed() throws {
        let url = try fixture()
        let straight = try straightDecode(url)
        let reversed = try Clip.video(url).reversed().renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        XCTAssertEqual(reversed.count, 60)
        for (k, f) in reversed.enumerated() { XCTAssertEqual(bestMatch(f, in: straight, near: 59 - k).0, 59 - k, "reversed frame \(k)") }
        let fast = try Clip.video(url).speed(2).renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        XCTAssertEqual(fast.count, 30)
        for (k, f) in fast.enumerated() { XCTAssertEqual(bestMatch(f, in: straight, near: 2 * k).0, 2 * k, "2× frame \(k)") }
        let slow = try Clip.video(url).speed(0.5).renderFrames(width: 320, height: 240, rate: 30, drawingThreads: 2)
        XCTAssertEqual(slow.count, 120)
        for (k, f) in slow.enumerated() { XCTAssertEqual(bestMatch(f, in: straight, near: k / 2).0, k / 2, "0.5× frame \(k)") }
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Issue 20, item 6: `addFrames(count:independent: true)` draws in the parallel lanes and makes the
/// same movie as the serial path for a closure that paints every pixel from its frame alone.
@Suite("Independent frames")
struct IndependentFramesTests {
    /// A deterministic picture: a gradient background, moving gradient-filled curves and the frame number.
    static let draw: @Sendable (DrawingContext, Frame) throws -> Void = { ctx, frame in
        let t = frame.time, w = ctx.bounds.width, h = ctx.bounds.height
        ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: w, y: h * (0.5 + 0.5 * sin(t))),
                            colors: [Color(red: 0.1, green: 0.1, blue: 0.3), Color(red: 0.4, green: 0.2, blue: 0.5)]))
        ctx.fillRect(ctx.bounds)
        for k in 0..<8 {
            let cx = w * (0.5 + 0.4 * sin(t * 1.3 + Double(k))), cy = h * (0.5 + 0.4 * cos(t * 0.9 + 2 * Double(k)))
            let r = 12 + 3 * Double(k)
            ctx.beginPath()
            ctx.move(to: Point(x: cx - r, y: cy))
            ctx.curve(to: Point(x: cx + r, y: cy), control1: Point(x: cx - r, y: cy - 2 * r), control2: Point(x: cx + r, y: cy - 2 * r))
            ctx.curve(to: Point(x: cx - r, y: cy), control1: Point(x: cx + r, y: cy + 2 * r), control2: Point(x: cx - r, y: cy + 2 * r))
            ctx.closePath()
            ctx.setFill(.linear(from: Point(x: cx - r, y: cy - r), to: Point(x: cx + r, y: cy + r),
                                colors: [Color(red: 1, green: 0.8, blue: 0.2, alpha: 0.85), Color(red: 0.9, green: 0.2, blue: 0.3, alpha: 0.85)]))
            ctx.setStroke(.white)
            ctx.lineWidth = 2
            ctx.fillAndStroke()
        }
        ctx.setFill(.white)
        try ctx.draw("frame \(frame.index) of \(frame.movieIndex)", at: Point(x: 8, y: h - 8), font: TextFont(size: 14))
    }

    static func render(to url: URL, independent: Bool?, threads: Int = 0) throws -> MovieSummary {
        var settings = EncoderSettings(crf: 20, preset: .veryfast)
        settings.drawingThreads = threads
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: settings)
        // A first serial frame, so the independent frames start mid-movie (movie indices, pts).
        try movie.addFrame { ctx in ctx.clear(.red) }
        if let independent {
            try movie.addFrames(count: 24, independent: independent, draw)
        } else {
            try movie.addFrames(count: 24, draw)
        }
        try movie.addFrame { ctx in ctx.clear(.blue) }
        return try movie.finish()
    }

    @Test("addFrames(independent: true) makes the same movie, byte for byte, as the serial addFrames")
    func sameBytesAsTheSerialPath() throws {
        let folder = try TemporaryFolder()
        let serial = folder.file("serial.mp4"), parallel = folder.file("parallel.mp4"), explicit = folder.file("explicit.mp4")
        let a = try Self.render(to: serial, independent: nil)
        let b = try Self.render(to: parallel, independent: true, threads: 3)
        let c = try Self.render(to: explicit, independent: false)
        #expect(a.frameCount == 26 && b.frameCount == 26 && c.frameCount == 26)
        let frames = try decodeAll(serial), parallelFrames = try decodeAll(parallel)
        #expect(frames.count == 26 && parallelFrames.count == 26)
        // On a mismatch, say which source frame each decoded frame is closest to (PSNR against the
        // closure's own pictures), so a frame with the wrong content is told apart from encoder noise.
        let mismatched = zip(frames, parallelFrames).contains { $0.pixels != $1.pixels }
        let reference = mismatched ? try Clip(duration: FrameRate(30).time(ofFrame: 24), draw: Self.draw).renderFrames(width: 320, height: 240) : []
        func diagnosis(_ f: DecodedFrame) -> String {
            guard f.index >= 1, f.index <= 24, reference.count == 24 else { return "" }
            return (max(0, f.index - 3)..<min(24, f.index + 2)).map { "src\($0): \(Int(psnr(f.pixels, reference[$0]))) dB" }.joined(separator: ", ")
        }
        for (x, y) in zip(frames, parallelFrames) where x.pixels != y.pixels {
            Issue.record("frame \(x.index) differs: serial [\(diagnosis(x))], parallel [\(diagnosis(y))]")
        }
        #expect(try Data(contentsOf: serial) == Data(contentsOf: parallel), "the same bytes")
        #expect(try Data(contentsOf: serial) == Data(contentsOf: explicit))
    }

    @Test("Serial frames converted on the conversion thread make the same bytes as converting them on the calling thread")
    func serialConversionOffTheCallingThreadKeepsTheBytes() throws {
        let folder = try TemporaryFolder()
        func render(_ url: URL, inline: Bool) throws -> MovieSummary {
            let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: EncoderSettings(crf: 20, preset: .veryfast))
            movie.convertsSerialFramesOnCallingThread = inline
            // A slow conversion thread: staged frames are still waiting when the clip starts.
            if !inline { movie.serialConversionDelayForTests = .milliseconds(30) }
            // Serial frames that build on each other, a clip in between (its frames go to the encoder
            // directly: the staged serial frames must reach it first), then serial frames over the clip's last.
            var x = 0.0
            try movie.addFrames(count: 12) { ctx, frame in
                if frame.index == 0 { ctx.clear(Color(red: 0.1, green: 0.1, blue: 0.2)) }
                x += 20
                ctx.setFill(Color(red: 0.9, green: 0.6, blue: 0.1))
                ctx.fillEllipse(in: Rect(x: x, y: 100, width: 18, height: 18))
            }
            try movie.add(Clip(duration: FrameRate(30).time(ofFrame: 6), draw: Self.draw))
            try movie.addFrames(count: 12, Self.draw)
            return try movie.finish()
        }
        let inline = folder.file("inline.mp4"), staged = folder.file("staged.mp4")
        let a = try render(inline, inline: true), b = try render(staged, inline: false)
        #expect(a.frameCount == 30 && b.frameCount == 30)
        let x = try decodeAll(inline), y = try decodeAll(staged)
        #expect(x.count == 30 && y.count == 30)
        for (p, q) in zip(x, y) where p.pixels != q.pixels { Issue.record("frame \(p.index) differs") }
        // Frame 11 shows all twelve dots: each serial frame built on the last.
        #expect(y[11].pixels.rgba(x: 249, y: 109).red > 200 && y[11].pixels.rgba(x: 29, y: 109).red > 200)
        #expect(try Data(contentsOf: inline) == Data(contentsOf: staged), "the same bytes")
    }

    @Test("A render stopped while serial frames wait to be converted leaves nothing behind")
    func cancellingWithStagedFrames() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("cancelled.mp4")
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: EncoderSettings(preset: .medium))
        let token = CancellationToken()
        movie.cancellation = token
        var thrown: (any Error)?
        do {
            try movie.addFrames(count: 200) { ctx, frame in
                if frame.index == 40 { token.cancel() }
                try Self.draw(ctx, frame)
            }
        } catch { thrown = error }
        #expect((thrown as? MovieMakerError)?.code == .cancelled)
        #expect(folder.contents.isEmpty, "no partial file: \(folder.contents)")
    }

    @Test("Independent frames start from black, not from the previous frame")
    func independentFramesStartBlank() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("blank.mp4")
        let movie = try MovieMaker(url: url, width: 64, height: 64, fps: 30, settings: EncoderSettings(crf: 10, preset: .ultrafast))
        try movie.addFrame { ctx in ctx.clear(.white) }
        try movie.addFrames(count: 16, independent: true) { ctx, frame in
            // Only even frames paint: odd ones must come out black.
            if frame.index % 2 == 0 { ctx.clear(Color(white: 0.5)) }
        }
        try movie.finish()
        let frames = try decodeAll(url)
        #expect(frames.count == 17)
        for f in frames.dropFirst() {
            let g = f.pixels.rgba(x: 32, y: 32).green
            if (f.index - 1) % 2 == 0 { #expect(abs(Int(g) - 128) < 6, "frame \(f.index): \(g)") } else { #expect(g < 6, "frame \(f.index) starts black: \(g)") }
        }
    }
}

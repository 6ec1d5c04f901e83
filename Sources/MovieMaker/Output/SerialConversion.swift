internal import CFFmpeg
import Foundation

/// Overlaps the conversion of a serial frame (`addFrame`, `addFrames(count:_:)`) with the drawing of
/// the next: the caller copies the drawn pixel buffer into a free staging surface (one `memcpy`, about
/// a millisecond at 1080p) and goes on drawing on its own buffer, which the next frame builds on; one
/// converter thread converts the staged frames in order (BGRA → the encoder's format, with the movie's
/// converter, exactly as the caller's thread did before) into pooled encoder frames and submits them.
///
/// Memory: `stagingCount` surfaces of the movie's size (2 by default: 16 MiB at 1080p), made when the
/// first serial frame is added. When both are waiting to be converted the caller waits (back-pressure).
/// Conversion does not change: the bytes converted are the bytes drawn, so the encoded movie is the
/// same, byte for byte, as converting on the calling thread (tested).
final class SerialConversion: Sendable {
    /// A staging surface and the presentation time of the frame copied into it.
    private final class StagedFrame: @unchecked Sendable {
        // @unchecked: written by the caller between `take()` and `submit`, read by the worker after.
        let surface: CairoSurface
        var pts: Int64 = 0
        init(surface: CairoSurface) { self.surface = surface }
    }
    private let worker: RecyclingWorker<StagedFrame>
    /// A pause before each conversion, for tests that check frames stay in order however slow it is.
    let delayForTests: Duration

    /// Staging surfaces a movie's serial frames use: frames drawn but not yet handed to the pipeline.
    static let stagingCount = 2

    /// A converter thread feeding `pipeline` with frames converted by `converter` (exactly as `MovieMaker`
    /// did on the calling thread), staging up to `stagingCount` frames of `width`×`height` (the pixel
    /// buffer's size, padding included).
    init(pipeline: FramePipeline, converter: FrameConverter, width: Int, height: Int, stagingCount: Int = SerialConversion.stagingCount,
         delayForTests: Duration = .zero) throws(MovieMakerError) {
        self.delayForTests = delayForTests
        var staged: [StagedFrame] = []
        for _ in 0..<max(1, stagingCount) { staged.append(StagedFrame(surface: try CairoSurface(width: width, height: height))) }
        worker = RecyclingWorker(name: "MovieMaker conversion", items: staged) { frame throws(MovieMakerError) in
            if delayForTests > .zero {
                Thread.sleep(forTimeInterval: Double(delayForTests.components.attoseconds) / 1e18 + Double(delayForTests.components.seconds))
            }
            try pipeline.submitConverted(frame.surface, with: converter, pts: frame.pts)
        }
    }

    /// Copies `surface` (the drawn frame) into a staging surface and queues it to be converted and
    /// submitted with presentation time `pts`. Waits while every staging surface is queued; throws the
    /// converter's (or encoder's) failure, or `.cancelled`.
    func submit(copying surface: CairoSurface, pts: Int64) throws(MovieMakerError) {
        let staged = try worker.take()
        staged.surface.copyPixels(from: surface)
        staged.pts = pts
        worker.submit(staged)
    }

    /// Waits until every queued frame has reached the encoder pipeline (before a clip's frames, which
    /// go to the pipeline directly, so frames stay in order); throws the conversion's failure.
    func drain() throws(MovieMakerError) { try worker.drain() }

    /// Converts and submits what is queued, then stops the thread; throws the conversion's failure.
    func finish() throws(MovieMakerError) { try worker.finish() }

    /// Stops without converting what is queued. Cancel the pipeline first: the worker may be waiting in
    /// `FramePipeline.acquire` for a frame only the pipeline's worker would give back.
    func cancel() { worker.cancel() }
}

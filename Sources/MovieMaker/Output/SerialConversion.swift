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
final class SerialConversion: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition`; a staging surface is written only
    // by the caller while it is out of `free` and not yet in `pending`, then read only by the worker.
    private let condition = NSCondition()
    private var free: [CairoSurface]
    private var pending: [(surface: CairoSurface, pts: Int64)] = []
    private var busy = false
    private var ended = false
    private var cancelled = false
    private var workerDone = false
    private var failure: MovieMakerError?
    private let pipeline: FramePipeline
    private let converter: FrameConverter
    /// A pause before each conversion, for tests that check frames stay in order however slow it is.
    let delayForTests: Duration

    /// A converter thread feeding `pipeline` with frames converted by `converter`, staging up to
    /// `stagingCount` frames of `width`×`height` (the pixel buffer's size, padding included).
    /// Staging surfaces a movie's serial frames use: frames drawn but not yet handed to the pipeline.
    static let stagingCount = 2

    init(pipeline: FramePipeline, converter: FrameConverter, width: Int, height: Int, stagingCount: Int = SerialConversion.stagingCount,
         delayForTests: Duration = .zero) throws(MovieMakerError) {
        self.pipeline = pipeline
        self.converter = converter
        self.delayForTests = delayForTests
        var surfaces: [CairoSurface] = []
        for _ in 0..<max(1, stagingCount) { surfaces.append(try CairoSurface(width: width, height: height)) }
        free = surfaces
        let thread = Thread { [self] in self.run() }
        thread.name = "MovieMaker conversion"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Copies `surface` (the drawn frame) into a staging surface and queues it to be converted and
    /// submitted with presentation time `pts`. Waits while every staging surface is queued; throws the
    /// converter's (or encoder's) failure, or `.cancelled`.
    func submit(copying surface: CairoSurface, pts: Int64) throws(MovieMakerError) {
        condition.lock()
        while free.isEmpty && failure == nil && !cancelled { condition.wait() }
        if let failure { condition.unlock(); throw failure }
        if cancelled { condition.unlock(); throw .cancelled }
        let staging = free.removeLast()
        condition.unlock()
        staging.copyPixels(from: surface)
        condition.withLock {
            pending.append((staging, pts))
            condition.broadcast()
        }
    }

    /// Waits until every queued frame has reached the encoder pipeline (before a clip's frames, which
    /// go to the pipeline directly, so frames stay in order); throws the conversion's failure.
    func drain() throws(MovieMakerError) {
        condition.lock(); defer { condition.unlock() }
        while (!pending.isEmpty || busy) && failure == nil && !workerDone { condition.wait() }
        if let failure { throw failure }
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && !ended && !cancelled { condition.wait() }
            if cancelled || (pending.isEmpty && ended) {
                workerDone = true; condition.broadcast(); condition.unlock(); return
            }
            let (staging, pts) = pending.removeFirst()
            let failed = failure != nil
            busy = true
            condition.unlock()

            var error: MovieMakerError?
            if !failed {
                if delayForTests > .zero { Thread.sleep(forTimeInterval: Double(delayForTests.components.attoseconds) / 1e18 + Double(delayForTests.components.seconds)) }
                do { try convert(staging, pts: pts) } catch let e { error = e }
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            busy = false
            free.append(staging)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Converts `staging` into a pooled frame and submits it, as `MovieMaker` did on the calling thread.
    private func convert(_ staging: CairoSurface, pts: Int64) throws(MovieMakerError) {
        try pipeline.submitConverted(staging, with: converter, pts: pts)
    }

    private func stopWorker(cancel: Bool) {
        condition.lock()
        if cancel { cancelled = true } else { ended = true }
        condition.broadcast()
        while !workerDone { condition.wait() }
        condition.unlock()
    }

    /// Converts and submits what is queued, then stops the thread; throws the conversion's failure.
    func finish() throws(MovieMakerError) {
        stopWorker(cancel: false)
        if let failure = condition.withLock({ failure }) { throw failure }
    }

    /// Stops without converting what is queued. Cancel the pipeline first: the worker may be waiting in
    /// `FramePipeline.acquire` for a frame only the pipeline's worker would give back.
    func cancel() { stopWorker(cancel: true) }
}

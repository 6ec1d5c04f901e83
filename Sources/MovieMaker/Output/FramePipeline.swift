internal import CFFmpeg
import Foundation

/// Overlaps drawing and encoding: a drawing lane (or, for serial frames, the `SerialConversion`
/// thread) converts each drawn frame into a pooled `AVFrame` in the encoder's pixel format (yuv420p
/// for H.264) and hands it over; one encoder thread sends it to the codec and writes packets, then
/// returns the frame to the pool.
///
/// The pool holds `capacity` frames, allocated once. When every frame is in flight the drawing
/// thread waits (back-pressure), so memory does not depend on the movie's length.
final class FramePipeline: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition`; the encoder is used only by the
    // worker thread until `finish`/`cancel` has joined it, then only by the caller's thread.
    private let condition = NSCondition()
    private var free: [OwnedFrame]
    private var pending: [OwnedFrame] = []    // FIFO, at most `capacity` long
    private var ended = false
    private var cancelled = false
    private var workerDone = false
    private var failure: MovieMakerError?
    private var encodedCount = 0
    private let encoder: VideoEncoder
    /// How many picture buffers were ever allocated (constant: the pool's capacity).
    let buffersAllocated: Int
    /// Checked each time a frame is asked for: once cancelled, `acquire` throws `.cancelled`.
    var cancellation: CancellationToken? {
        get { condition.withLock { token } }
        set { condition.withLock { token = newValue } }
    }
    private var token: CancellationToken?

    init(encoder: VideoEncoder, capacity: Int) throws(MovieMakerError) {
        self.encoder = encoder
        var frames: [OwnedFrame] = []
        for _ in 0..<capacity { frames.append(try encoder.makeFrame()) }
        free = frames
        buffersAllocated = capacity
        let thread = Thread { [self] in self.run() }
        thread.name = "MovieMaker encoder"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// How many frames the pool holds.
    var capacity: Int { buffersAllocated }

    /// Frames the encoder has accepted so far.
    var framesEncoded: Int { condition.withLock { encodedCount } }

    /// Waits for a free frame, or throws the encoder's failure.
    func acquire() throws(MovieMakerError) -> OwnedFrame {
        condition.lock(); defer { condition.unlock() }
        if token?.isCancelled == true { throw .cancelled }
        // `cancel()` wakes a wait here (the serial converter's thread may be waiting when a render stops).
        while free.isEmpty && failure == nil && !cancelled { condition.wait() }
        if let failure { throw failure }
        if cancelled { throw .cancelled }
        return free.removeLast()
    }

    /// A free frame made writable (the encoder may still hold a reference to its buffers:
    /// `av_frame_make_writable` copies them if so); given back if that fails.
    func acquireWritable() throws(MovieMakerError) -> OwnedFrame {
        let frame = try acquire()
        do { try ffCheck(av_frame_make_writable(frame.pointer), "av_frame_make_writable") } catch {
            giveBack(frame)
            throw error
        }
        return frame
    }

    /// Converts `surface` (flushed first) into a free frame with `converter`, stamps it `pts` and queues
    /// it: how a serial frame reaches the encoder, converted on the calling thread or on `SerialConversion`'s.
    func submitConverted(_ surface: CairoSurface, with converter: FrameConverter, pts: Int64) throws(MovieMakerError) {
        let frame = try acquireWritable()
        do { try converter.convertAll(surface, into: frame.pointer) } catch {
            giveBack(frame)
            throw error
        }
        frame.pointer.pointee.pts = pts
        submit(frame)
    }

    /// Queues a filled frame for encoding.
    func submit(_ frame: OwnedFrame) {
        condition.lock()
        pending.append(frame)
        condition.broadcast()
        condition.unlock()
    }

    /// Gives back a frame that was acquired but not submitted.
    func giveBack(_ frame: OwnedFrame) {
        condition.withLock { free.append(frame); condition.broadcast() }
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && !ended && !cancelled { condition.wait() }
            if cancelled || (pending.isEmpty && ended) {
                workerDone = true; condition.broadcast(); condition.unlock(); return
            }
            let frame = pending.removeFirst()
            let failed = failure != nil
            condition.unlock()

            var error: MovieMakerError?
            if !failed {
                do { try encoder.encode(frame.pointer) } catch let e { error = e }
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            if error == nil && !failed { encodedCount += 1 }
            free.append(frame)
            condition.broadcast()
            condition.unlock()
        }
    }

    private func stopWorker(cancel: Bool) {
        condition.lock()
        if cancel { cancelled = true } else { ended = true }
        condition.broadcast()
        while !workerDone { condition.wait() }
        condition.unlock()
    }

    /// Encodes what is queued, flushes the encoder and closes the file.
    func finish() throws(MovieMakerError) {
        stopWorker(cancel: false)
        if let failure = condition.withLock({ failure }) { throw failure }
        try encoder.finish()
    }

    /// Stops without encoding what is queued. The caller deletes the partial file.
    func cancel() { stopWorker(cancel: true) }
}

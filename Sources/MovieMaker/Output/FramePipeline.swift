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
    // @unchecked: `encoder` is used by the worker thread until `finish`/`cancel` has joined it, then
    // only by the caller's thread; the worker guards the rest.
    private let worker: RecyclingWorker<OwnedFrame>
    private let encoder: any FrameEncoder
    /// How many picture buffers were ever allocated (constant: the pool's capacity).
    let buffersAllocated: Int
    /// Checked each time a frame is asked for: once cancelled, `acquire` throws `.cancelled`.
    var cancellation: CancellationToken? {
        get { worker.cancellation }
        set { worker.cancellation = newValue }
    }

    init(encoder: any FrameEncoder, capacity: Int) throws(MovieMakerError) {
        self.encoder = encoder
        var frames: [OwnedFrame] = []
        for _ in 0..<capacity { frames.append(try encoder.makeFrame()) }
        buffersAllocated = capacity
        worker = RecyclingWorker(name: "MovieMaker encoder", items: frames) { frame throws(MovieMakerError) in
            try encoder.encode(frame.pointer)
        }
    }

    /// How many frames the pool holds.
    var capacity: Int { buffersAllocated }

    /// Frames the encoder has accepted so far.
    var framesEncoded: Int { worker.processedCount }

    /// Waits for a free frame, or throws the encoder's failure (`cancel()` wakes a wait here: the serial
    /// converter's thread may be waiting when a render stops).
    func acquire() throws(MovieMakerError) -> OwnedFrame { try worker.take() }

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
    func submit(_ frame: OwnedFrame) { worker.submit(frame) }

    /// Gives back a frame that was acquired but not submitted.
    func giveBack(_ frame: OwnedFrame) { worker.giveBack(frame) }

    /// Encodes what is queued, flushes the encoder and closes the file.
    func finish() throws(MovieMakerError) {
        try worker.finish()
        try encoder.finish(cancellation: cancellation)
    }

    /// Stops without encoding what is queued. The caller deletes the partial file.
    func cancel() { worker.cancel() }
}

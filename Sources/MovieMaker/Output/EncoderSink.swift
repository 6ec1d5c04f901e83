internal import CFFmpeg
import Foundation

/// The frame sink of a movie: each slot is a pooled encoder frame from the `FramePipeline`, filled by
/// converting the drawn canvas on the drawing thread (BGRA → the encoder's format, with that thread's
/// own converter) and submitted to the encoder thread in frame order.
final class EncoderSink: FrameSink, @unchecked Sendable {
    // @unchecked: each lane's converter is used only by the thread drawing on that lane; the pipeline
    // is thread-safe.
    private let pipeline: FramePipeline
    /// The presentation time stamp of frame index 0 (frame `i` gets `firstPTS + i`).
    private let firstPTS: Int64
    /// A reference to the picture buffers of the last frame committed with `keepForRepeat`, which the
    /// frames repeating it share (the encoder only reads them; a pooled frame sharing them is copied
    /// before it is written again, by `acquireWritable`).
    private let kept: OwnedFrame
    /// The render session whose video decoders frames passed through come from (nil: none are).
    private let session: RenderSession?

    /// A sink into `pipeline`, converting each lane's canvas with the lane's converter; frame `i` is
    /// stamped `firstPTS + i`. Frames passed through take their pictures from `session`'s decoders.
    init(pipeline: FramePipeline, firstPTS: Int64, session: RenderSession? = nil) throws(MovieMakerError) {
        self.pipeline = pipeline; self.firstPTS = firstPTS; self.session = session
        kept = try OwnedFrame()
    }

    /// The pipeline's pool size.
    var capacity: Int { pipeline.capacity }

    /// A free pooled frame, made writable (the encoder may still reference its previous buffers).
    func reserve() throws -> OwnedFrame { try pipeline.acquireWritable() }

    /// Converts the lane's canvas into `slot` with the lane's converter.
    func fill(_ slot: OwnedFrame, from lane: DrawingLane<FrameConverter>, index: Int) throws {
        try lane.tool.convertAll(lane.canvas.surface, into: slot.pointer)
    }

    /// Holds a reference to the decoded video frame (and a crossfade's incoming one) in the lane's
    /// converter, if it can go to the encoder as it is (decoded now, before a slot is reserved).
    func prepare(passingThrough video: VideoPassThrough, on lane: DrawingLane<FrameConverter>) throws -> Bool {
        guard let session, lane.tool.takesVideoFrames else { return false }
        let held = try session.withVideoSource(for: video.key, at: video.sourceTime) { source in
            try lane.tool.holdVideoFrame(try source.decodedFrame(at: video.sourceTime), file: video.file)
        }
        // A crossfade's incoming frame, from its own decoder (borrowed after the first is given back).
        guard held, let incoming = video.incoming else { return held }
        do {
            return try session.withVideoSource(for: incoming.key, at: incoming.sourceTime) { source in
                try lane.tool.holdIncomingVideoFrame(try source.decodedFrame(at: incoming.sourceTime), file: incoming.file, weight: incoming.weight)
            }
        } catch {
            lane.tool.releaseHeldVideoFrames()    // the outgoing picture is not kept by a failed render
            throw error
        }
    }

    /// Copies the frame the lane's converter holds into `slot` (or mixes the two of a crossfade there).
    func fillPassedThrough(_ slot: OwnedFrame, from lane: DrawingLane<FrameConverter>) throws {
        try lane.tool.copyHeldVideoFrame(into: slot.pointer)
    }

    /// Lets go of the video frames the lane's converter holds.
    func abandonPassedThrough(on lane: DrawingLane<FrameConverter>) { lane.tool.releaseHeldVideoFrames() }

    /// Stamps the frame and queues it for the encoder (keeping a reference to its picture when the next
    /// frame repeats it).
    func commit(_ slot: OwnedFrame, index: Int, keepForRepeat: Bool) throws {
        slot.pointer.pointee.pts = firstPTS + Int64(index)
        if keepForRepeat {
            av_frame_unref(kept.pointer)
            try ffCheck(av_frame_ref(kept.pointer, slot.pointer), "av_frame_ref")
        }
        pipeline.submit(slot)
    }

    /// Queues the kept picture again as frame `index`, in `slot` (its own buffers let go: it shares the
    /// kept ones), so the encoder gets the same converted picture without drawing or converting it.
    func commitRepeat(_ slot: OwnedFrame, index: Int) throws {
        av_frame_unref(slot.pointer)
        try ffCheck(av_frame_ref(slot.pointer, kept.pointer), "av_frame_ref")
        slot.pointer.pointee.pts = firstPTS + Int64(index)
        pipeline.submit(slot)
    }

    /// Returns the frame to the pool.
    func release(_ slot: OwnedFrame) { pipeline.giveBack(slot) }
}

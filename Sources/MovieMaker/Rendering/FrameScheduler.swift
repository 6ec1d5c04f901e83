import Foundation

/// Where the scheduler delivers drawn frames: a slot is reserved for each frame, filled from the canvas
/// it was drawn on, and committed in frame order.
///
/// `reserve` may block (back-pressure: a pool of encoder frames is full) and may be called for frames
/// out of order; `fill` runs on the drawing threads, several at once; `commit` is called in frame
/// order, one at a time, and must not block. A slot that will not be committed (a failure elsewhere,
/// a cancellation) is handed back with `release`.
protocol FrameSink: AnyObject, Sendable {
    /// Room for one frame (a pooled encoder frame; a pixel buffer).
    associatedtype Slot
    /// What each drawing thread needs of its own to fill slots (a converter), carried by its lane.
    associatedtype Tool = Void
    /// How many slots can be reserved at once (the pool's size); at least 1.
    var capacity: Int { get }
    /// Reserves a slot, waiting for one to be free.
    func reserve() throws -> Slot
    /// Fills `slot` with the picture drawn on `lane`'s canvas for frame `index` (converting it with the
    /// lane's tool: swscale…).
    func fill(_ slot: Slot, from lane: DrawingLane<Tool>, index: Int) throws
    /// Hands on the filled slot of frame `index`; frames arrive here in order. `keepForRepeat`: the
    /// next frame repeats this one's picture (`commitRepeat`), so the sink keeps what it needs of it.
    func commit(_ slot: Slot, index: Int, keepForRepeat: Bool) throws
    /// Hands on frame `index` as the same picture as the frame committed just before it (the clip tree
    /// showed it is: see `Clip.repeatsPreviousFrame`). `slot` was reserved but neither drawn nor filled.
    /// Called in order, like `commit`, after a commit with `keepForRepeat` or another repeat.
    func commitRepeat(_ slot: Slot, index: Int) throws
    /// Readies a frame whose whole picture is a decoded video frame (`video`, from
    /// `Clip.videoPassThrough`) to go to the sink without drawing, with what `lane` holds: called before
    /// a slot is reserved, so decoding never holds one. False when the sink cannot take it (the frame is
    /// then drawn and filled as any other).
    func prepare(passingThrough video: VideoPassThrough, on lane: DrawingLane<Tool>) throws -> Bool
    /// Fills `slot` with the frame `prepare(passingThrough:on:)` readied on `lane`, letting go of it.
    func fillPassedThrough(_ slot: Slot, from lane: DrawingLane<Tool>) throws
    /// Lets go of what `prepare(passingThrough:on:)` readied on `lane` for a frame that will not be
    /// filled (the render failed or was cancelled meanwhile).
    func abandonPassedThrough(on lane: DrawingLane<Tool>)
    /// Gives back a slot that will not be committed.
    func release(_ slot: Slot)
}

extension FrameSink {
    /// Sinks that keep drawn pixels draw every frame.
    func prepare(passingThrough video: VideoPassThrough, on lane: DrawingLane<Tool>) throws -> Bool { false }
    /// Never called when `prepare` always answers false.
    func fillPassedThrough(_ slot: Slot, from lane: DrawingLane<Tool>) throws {
        preconditionFailure("fillPassedThrough on a sink that prepares no frame")
    }
    /// Nothing is readied when `prepare` always answers false.
    func abandonPassedThrough(on lane: DrawingLane<Tool>) {}
}

/// Which movie frames a render's drawing threads are drawing now, so photo providers know when no
/// thread can still ask for a photo: every frame before `oldest` has been drawn. The scheduler
/// registers a frame under its own lock as a thread takes it, and removes it once it is drawn.
final class FramesInFlight: @unchecked Sendable {
    // @unchecked: `drawing` and `next` are only touched under `lock`.
    private let lock = NSLock()
    private var drawing: [Int: Int] = [:]    // movie frame → threads drawing it (1)
    private var next: Int?                   // the frame after the latest taken
    /// A thread took movie frame `frame`.
    func begin(_ frame: Int) {
        lock.withLock { drawing[frame, default: 0] += 1; next = max(next ?? frame + 1, frame + 1) }
    }
    /// Movie frame `frame` is drawn.
    func end(_ frame: Int) {
        lock.withLock {
            if let n = drawing[frame], n > 1 { drawing[frame] = n - 1 } else { drawing[frame] = nil }
        }
    }
    /// The earliest movie frame not drawn yet (being drawn, or the next to be taken); nil before any.
    var oldest: Int? { lock.withLock { drawing.keys.min() ?? next } }
}

/// Renders a range of a clip's frames on several threads into a `FrameSink`, keeping every thread busy.
///
/// Each worker thread pulls the next frame index, draws that frame on its own canvas (cleared to the
/// background: a clip's frame depends only on its time), reserves a sink slot and fills it (the
/// conversion to the encoder's format runs on the worker too), then hands it to a reorder buffer that
/// commits slots in frame order. Workers never wait for the slowest frame of a batch: a worker that
/// is ahead goes on to its next frame while earlier ones finish. Memory stays flat: a worker may
/// reserve a slot ahead of the earliest unfinished frame only while another stays free for that frame,
/// so the frames waiting to be committed never exceed the sink's capacity, and the earliest frame can
/// always get a slot (which rules out deadlock).
///
/// The calling thread only waits and reports progress, so progress handlers run where they were set
/// up. Cancellation (the session's token) is checked before each frame; the first error (or the
/// cancellation) stops every worker and is thrown once all have stopped.
final class FrameScheduler<Sink: FrameSink>: @unchecked Sendable {
    // @unchecked: the mutable state below is only touched under `condition`; canvases are each used by
    // one worker; the sink is called as its protocol allows (reserve/fill concurrently, commit in order
    // under the lock).
    private let condition = NSCondition()
    private var nextToDraw = 0            // the next frame index a worker takes
    private var committed = 0             // frames committed so far (in order)
    private var reservedAhead: Set<Int> = []   // frames that reserved a slot while not the earliest uncommitted one
    private var ready: [Int: (slot: Sink.Slot, repeats: Bool)] = [:]
    /// How many frames were committed as repeats of the frame before (not drawn, not converted).
    private(set) var repeatedFrames = 0
    /// How many frames went from the video decoder to the sink without being drawn.
    private(set) var passedThroughFrames = 0
    private var failure: (any Error)?
    private var workersRunning = 0
    private var lastLane: DrawingLane<Sink.Tool>?

    private let frames: Range<Int>
    private let sink: Sink
    private let draw: @Sendable (Int, Canvas) throws -> Void
    private let cancellation: CancellationToken?
    /// Where the frames being drawn are registered (movie frame = `movieBase` + index), if anywhere.
    private let inFlight: FramesInFlight?
    private let movieBase: Int
    /// Whether frame `index` shows exactly the picture of frame `index − 1` (from the clip tree), if known.
    private let repeatsPrevious: (@Sendable (Int) -> Bool)?
    /// The decoded video frame that is frame `index`'s whole picture (from the clip tree), if any.
    private let passThrough: (@Sendable (Int) -> VideoPassThrough?)?

    /// A scheduler for the frames `frames` (indices passed to `draw` and the sink), drawing with `draw`
    /// into `sink`, stopping when `cancellation` is cancelled.
    /// Frames being drawn are registered in `inFlight` as movie frames `movieBase + index`.
    /// Frames for which `repeatsPrevious` answers true are neither drawn nor filled: the sink repeats the
    /// frame before (the first and the last frame of the range are always drawn: the last one's canvas is
    /// returned). Frames for which `passThrough` names a video frame go to the sink without drawing,
    /// when the sink takes them (the last one is drawn on its canvas as well, for the returned canvas).
    init(frames: Range<Int>, sink: Sink, cancellation: CancellationToken?, inFlight: FramesInFlight? = nil, movieBase: Int = 0,
         repeatsPrevious: (@Sendable (Int) -> Bool)? = nil, passThrough: (@Sendable (Int) -> VideoPassThrough?)? = nil,
         draw: @escaping @Sendable (Int, Canvas) throws -> Void) {
        self.frames = frames; self.sink = sink; self.cancellation = cancellation; self.draw = draw
        self.inFlight = inFlight; self.movieBase = movieBase; self.repeatsPrevious = repeatsPrevious
        self.passThrough = passThrough
        nextToDraw = frames.lowerBound
    }

    /// Draws every frame on `lanes.count` threads (one lane each), calling `progress` on this thread
    /// with the number of frames committed so far each time it grows. Returns the canvas holding the
    /// last frame's picture. Throws the first failure, after every worker has stopped and every
    /// uncommitted slot was released.
    func run(lanes: [DrawingLane<Sink.Tool>], progress: (Int) -> Void) throws -> Canvas? {
        precondition(!lanes.isEmpty, "the scheduler needs at least one lane")
        let count = frames.count
        guard count > 0 else { return nil }
        let threads = min(lanes.count, count)
        condition.withLock { workersRunning = threads }
        for k in 0..<threads {
            let lane = lanes[k]
            let thread = Thread(block: LibraryWarnings.inheritingCollector { [self] in self.work(on: lane) })
            thread.name = "MovieMaker drawing \(k + 1)"
            thread.stackSize = 4 << 20
            thread.start()
        }
        var reported = 0
        condition.lock()
        while true {
            while committed == reported && workersRunning > 0 { condition.wait() }
            let now = committed
            let done = workersRunning == 0
            condition.unlock()
            while reported < now { reported += 1; progress(reported) }
            if done { break }
            condition.lock()
        }
        condition.lock(); defer { condition.unlock() }
        for (_, entry) in ready { sink.release(entry.slot) }
        ready.removeAll()
        if let failure { throw failure }
        precondition(committed == count, "the scheduler stopped after \(committed) of \(count) frames without an error")
        return lastLane?.canvas
    }

    /// Records the first failure and wakes everyone, so workers stop.
    private func fail(_ error: any Error) {
        condition.withLock {
            if failure == nil { failure = error }
            condition.broadcast()
        }
    }

    /// Whether frame `index` is committed as a repeat of the one before instead of being drawn.
    private func repeats(_ index: Int) -> Bool {
        guard let repeatsPrevious, index > frames.lowerBound, index < frames.upperBound - 1 else { return false }
        return repeatsPrevious(index)
    }

    /// The video frame that is frame `index`'s whole picture, when it may go to the sink undrawn. Any
    /// frame may, the first and last of the range too: which frames pass through must not depend on how
    /// a movie is cut into ranges (chunks), or their bytes would.
    private func passedThrough(_ index: Int) -> VideoPassThrough? {
        guard let passThrough else { return nil }
        return passThrough(index)
    }

    private func work(on lane: DrawingLane<Sink.Tool>) {
        let canvas = lane.canvas
        defer {
            condition.withLock {
                workersRunning -= 1
                condition.broadcast()
            }
        }
        while true {
            // Take the next frame.
            let index: Int? = condition.withLock {
                guard failure == nil, nextToDraw < frames.upperBound else { return nil }
                defer { nextToDraw += 1 }
                inFlight?.begin(movieBase + nextToDraw)
                return nextToDraw
            }
            guard let index else { return }
            let repeated = repeats(index)
            var passed = false
            do {
                defer { inFlight?.end(movieBase + index) }
                if cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
                if !repeated, let video = passedThrough(index) {
                    // Straight from the decoder when the sink takes it; drawn otherwise.
                    passed = try sink.prepare(passingThrough: video, on: lane)
                    // The last frame's canvas is returned holding its picture (a serial frame added next
                    // may draw over it): drawn there too, though not converted.
                    if !passed || index == frames.upperBound - 1 { try draw(index, canvas) }
                } else if !repeated {
                    try draw(index, canvas)
                }
            } catch {
                // The video frame readied before the last frame's drawing failed is not kept by the lane
                // (its decoder's buffers would stay pinned until the lane's next pass-through).
                if passed { sink.abandonPassedThrough(on: lane) }
                fail(error); return
            }
            // Reserve a slot: the earliest uncommitted frame always may; a later one only while another
            // slot stays free for the earliest (so slots held by waiting frames never starve it).
            let allowed: Bool = condition.withLock {
                while failure == nil {
                    if index == frames.lowerBound + committed { return true }
                    if reservedAhead.count + 1 < sink.capacity { reservedAhead.insert(index); return true }
                    condition.wait()
                }
                return false
            }
            guard allowed else {
                if passed { sink.abandonPassedThrough(on: lane) }
                return
            }
            let slot: Sink.Slot
            do {
                slot = try sink.reserve()
            } catch {
                if passed { sink.abandonPassedThrough(on: lane) }
                condition.withLock { _ = reservedAhead.remove(index) }
                fail(error); return
            }
            do {
                if passed {
                    try sink.fillPassedThrough(slot, from: lane)
                } else if !repeated {
                    try sink.fill(slot, from: lane, index: index)
                }
            } catch {
                sink.release(slot)
                condition.withLock { _ = reservedAhead.remove(index) }
                fail(error); return
            }
            // Hand it to the reorder buffer; commit every frame that is now next in order.
            let stop: Bool = condition.withLock {
                if index == frames.upperBound - 1 { lastLane = lane }
                guard failure == nil else {
                    sink.release(slot)
                    reservedAhead.remove(index)
                    return true
                }
                ready[index] = (slot, repeated)
                if passed { passedThroughFrames += 1 }
                while let next = ready.removeValue(forKey: frames.lowerBound + committed) {
                    let nextIndex = frames.lowerBound + committed
                    reservedAhead.remove(nextIndex)
                    do {
                        if next.repeats {
                            try sink.commitRepeat(next.slot, index: nextIndex)
                            repeatedFrames += 1
                        } else {
                            try sink.commit(next.slot, index: nextIndex, keepForRepeat: repeats(nextIndex + 1))
                        }
                    } catch {
                        sink.release(next.slot)
                        if failure == nil { failure = error }
                        condition.broadcast()
                        return true
                    }
                    committed += 1
                }
                condition.broadcast()
                return false
            }
            if stop { return }
        }
    }
}

import Foundation

/// One worker thread that processes items in order, drawn from a fixed pool: a producer takes a free
/// item (waiting while every item is in flight: back-pressure, so memory does not grow with the
/// movie), fills it and submits it; the worker processes each submitted item in submission order and
/// returns it to the pool. The encoder thread (`FramePipeline`: items are encoder frames) and the serial
/// frames' conversion thread (`SerialConversion`: items are staging surfaces) are both this.
///
/// The first failure is kept: items queued after it are returned unprocessed, and `take()`, `drain()`
/// and `finish()` throw it. `finish()` processes what is queued and joins the thread; `cancel()` joins
/// it without processing the rest (and wakes a producer waiting in `take()`, which throws `.cancelled`).
final class RecyclingWorker<Item>: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition`; an item is touched by the
    // producer only between `take()` and `submit`/`giveBack`, and by the worker only while processing it.
    private let condition = NSCondition()
    private var free: [Item]
    private var pending: [Item] = []      // FIFO, at most the pool's size
    private var busy = false
    private var ended = false
    private var cancelled = false
    private var workerDone = false
    private var failure: MovieMakerError?
    private var processed = 0
    private var token: CancellationToken?
    private let process: (Item) throws(MovieMakerError) -> Void

    /// A worker named `name` (the thread's name, seen in profilers) processing `items`' submissions with `process`.
    init(name: String, items: [Item], process: @escaping (Item) throws(MovieMakerError) -> Void) {
        free = items
        self.process = process
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Checked each time an item is taken: once cancelled, `take()` throws `.cancelled`.
    var cancellation: CancellationToken? {
        get { condition.withLock { token } }
        set { condition.withLock { token = newValue } }
    }

    /// Items processed without failure so far.
    var processedCount: Int { condition.withLock { processed } }

    /// Waits for a free item; throws the worker's failure, or `.cancelled`.
    func take() throws(MovieMakerError) -> Item {
        condition.lock(); defer { condition.unlock() }
        if token?.isCancelled == true { throw .cancelled }
        while free.isEmpty && failure == nil && !cancelled { condition.wait() }
        if let failure { throw failure }
        if cancelled { throw .cancelled }
        return free.removeLast()
    }

    /// Queues a filled item for the worker.
    func submit(_ item: Item) {
        condition.withLock {
            pending.append(item)
            condition.broadcast()
        }
    }

    /// Gives back an item that was taken but not submitted.
    func giveBack(_ item: Item) {
        condition.withLock { free.append(item); condition.broadcast() }
    }

    /// Waits until every queued item has been processed; throws the worker's failure.
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
            let item = pending.removeFirst()
            let failed = failure != nil
            busy = true
            condition.unlock()

            var error: MovieMakerError?
            if !failed {
                do { try process(item) } catch let e { error = e }
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            if error == nil && !failed { processed += 1 }
            busy = false
            free.append(item)
            condition.broadcast()
            condition.unlock()
        }
    }

    private func stop(cancel: Bool) {
        condition.lock()
        if cancel { cancelled = true } else { ended = true }
        condition.broadcast()
        while !workerDone { condition.wait() }
        condition.unlock()
    }

    /// Processes what is queued, then stops the thread; throws the worker's failure.
    func finish() throws(MovieMakerError) {
        stop(cancel: false)
        if let failure = condition.withLock({ failure }) { throw failure }
    }

    /// Stops the thread without processing what is queued.
    func cancel() { stop(cancel: true) }
}

import Foundation

/// Frame-sized scratch objects (canvases, sets of canvases) shared by the drawing threads, so frames
/// do not allocate full-size pictures.
///
/// Clips draw on several threads at once (`MovieMaker.add` with `drawingThreads`), so each use checks
/// an object out and gives it back when done. Idle objects are kept up to the largest number ever in
/// use at once (capped at `maximumIdle`), the oldest dropped first, so memory stays constant over a
/// render of any length. Each render session has its own pools (`RenderScratch`): transitions
/// (`TransitionScratchPool`) and layers (`LayerPool`: filters, masks, opaque fades).
class SizedPool<Item: AnyObject>: @unchecked Sendable {
    // @unchecked: `idle`, `inUse` and `peak` are only touched under `lock`; a checked-out object
    // belongs to one thread until it is given back; `make` and `size` are immutable.
    /// The most idle objects kept, whatever the peak.
    static var maximumIdle: Int { 16 }

    private let lock = NSLock()
    private var idle: [Item] = []
    private var inUse = 0
    private var peak = 0
    private let make: @Sendable (Int, Int) throws(MovieMakerError) -> Item
    private let size: @Sendable (Item) -> (width: Int, height: Int)

    /// A pool making objects with `make(width, height)`, whose size `size` tells.
    init(make: @escaping @Sendable (Int, Int) throws(MovieMakerError) -> Item, size: @escaping @Sendable (Item) -> (width: Int, height: Int)) {
        self.make = make; self.size = size
    }

    /// Runs `body` with a `width`×`height` object, reused from the pool when one is idle (its pixels
    /// are whatever the last user left).
    func withItem<R>(width: Int, height: Int, _ body: (Item) throws -> R) throws -> R {
        let reused: Item? = lock.withLock {
            inUse += 1
            peak = max(peak, inUse)
            guard let i = idle.lastIndex(where: { size($0) == (width, height) }) else { return nil }
            return idle.remove(at: i)
        }
        let item: Item
        if let reused { item = reused } else {
            do { item = try make(width, height) } catch {
                lock.withLock { inUse -= 1 }
                throw error
            }
        }
        defer {
            lock.withLock {
                inUse -= 1
                idle.append(item)
                let keep = min(peak, Self.maximumIdle)
                if idle.count > keep { idle.removeFirst(idle.count - keep) }
            }
        }
        return try body(item)
    }

    /// Idle objects held now (for tests).
    var idleCount: Int { lock.withLock { idle.count } }
    /// Drops every idle object and forgets the peak, so the next render keeps only what it uses.
    func removeIdleAndPeak() { lock.withLock { idle.removeAll(); peak = inUse } }
}

/// The process's scratch pools as one.
/// A render's scratch canvases: layers (filters, masks, opaque fades) and transition scratch sets,
/// reused from frame to frame and given back when its render session closes. Each render has its own,
/// so one movie ending never empties the pools of another still drawing (`title --batch` renders
/// several movies at once in one process).
final class RenderScratch: Sendable {
    /// Frame-sized transparent layers.
    let layers = LayerPool()
    /// Transitions' scratch sets.
    let transitions = TransitionScratchPool()

    /// Drops every idle canvas (the render is over).
    func release() {
        layers.removeIdleAndPeak()
        transitions.removeIdleAndPeak()
    }
}

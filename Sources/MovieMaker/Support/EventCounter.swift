import Synchronization

/// A thread-safe count of events, for tests that check a path was taken: set as a task-local value
/// on the test's own task (`TransitionRenderer.inPlaceFades`, `GradientFills.rasterized`), so tests
/// running in parallel do not add to each other's counts.
final class EventCounter: Sendable {
    private let value = Atomic<Int>(0)
    /// The events counted so far.
    var count: Int { value.load(ordering: .relaxed) }
    /// Counts one event.
    func add() { value.add(1, ordering: .relaxed) }
}

import Foundation
import Synchronization

/// What a render opens once per source that copies of a clip share (a sticker's decode, an
/// audiogram's sound, a Lottie file): every source in the tree opened when the session opens, so a
/// missing or broken file fails before the first frame, and freed when it closes. Drawing threads read
/// it concurrently; a source the session did not see when it opened (a clip drawn from inside another
/// clip's closure) is opened on first use.
///
/// Keyed by the source's identity: the clip being rendered keeps every source alive while its session
/// is open.
final class SessionStore<Source: AnyObject & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[ObjectIdentifier: Value]>([:])
    private let make: @Sendable (Source) throws(MovieMakerError) -> Value

    /// An empty store that opens a source with `make`.
    init(_ make: @escaping @Sendable (Source) throws(MovieMakerError) -> Value) { self.make = make }

    /// Opens each of `sources` not opened yet, in order; throws the first that fails.
    func open(_ sources: [Source]) throws(MovieMakerError) {
        var seen = Set<ObjectIdentifier>()
        for source in sources where seen.insert(ObjectIdentifier(source)).inserted {
            let id = ObjectIdentifier(source)
            guard values.withLock({ $0[id] == nil }) else { continue }
            let value = try make(source)
            values.withLock { $0[id] = value }
        }
    }

    /// The opened `source`, opening it now if the store has none (two threads racing here both open
    /// it; the first result is kept).
    func value(for source: Source) throws(MovieMakerError) -> Value {
        let id = ObjectIdentifier(source)
        if let value = values.withLock({ $0[id] }) { return value }
        let value = try make(source)
        return values.withLock { stored in
            if let existing = stored[id] { return existing }
            stored[id] = value
            return value
        }
    }

    /// Frees every opened source.
    func close() { values.withLock { $0.removeAll() } }

    /// How many sources are open (for tests).
    var count: Int { values.withLock { $0.count } }
}

extension Clip {
    /// The values `leaf` finds in each generator leaf of the tree, in the tree's order, once per place.
    func generatorSources<S>(_ leaf: (Generator) -> S?) -> [S] {
        var found: [S] = []
        func visit(_ clip: Clip) {
            switch clip.node {
            case let .generator(generator, _): if let s = leaf(generator) { found.append(s) }
            case .media: break
            default: for child in clip.node.children { visit(child) }
            }
        }
        visit(self)
        return found
    }
}

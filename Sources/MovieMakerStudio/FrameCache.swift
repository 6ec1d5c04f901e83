import Foundation

/// Encoded frames by key, least recently used first out, bounded by the bytes it holds.
///
/// A key names everything a frame's pixels depend on (`StudioProject.frameKey`): the resolved picture's
/// content hash, the frame's index and the scale. A changed description gives new keys; entries for the
/// old ones age out. Not thread-safe: the `StudioProject` actor owns it.
struct FrameCache {
    /// The most bytes of encoded frames kept.
    let capacity: Int
    /// The frames, with when each was last used.
    private var entries: [String: (data: Data, tick: UInt64)] = [:]
    /// A counter standing for time.
    private var tick: UInt64 = 0
    /// The bytes held now.
    private(set) var bytes = 0
    /// How many lookups found their frame, and how many did not.
    private(set) var hits = 0, misses = 0

    /// A cache holding at most `capacity` bytes.
    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// How many frames are held.
    var count: Int { entries.count }

    /// The frame for `key`, marked as just used; nil when absent.
    mutating func get(_ key: String) -> Data? {
        guard let entry = entries[key] else { misses += 1; return nil }
        hits += 1
        tick += 1
        entries[key] = (entry.data, tick)
        return entry.data
    }

    /// Whether `key` is held (without counting a hit or marking it used).
    func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Stores `data` under `key`, then drops the least recently used frames until within capacity
    /// (a frame larger than the whole capacity is not kept).
    mutating func put(_ key: String, _ data: Data) {
        guard data.count <= capacity else { return }
        if let old = entries[key] { bytes -= old.data.count }
        tick += 1
        entries[key] = (data, tick)
        bytes += data.count
        while bytes > capacity, let oldest = entries.min(by: { $0.value.tick < $1.value.tick }) {
            bytes -= oldest.value.data.count
            entries[oldest.key] = nil
        }
    }

    /// Forgets every frame.
    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }
}

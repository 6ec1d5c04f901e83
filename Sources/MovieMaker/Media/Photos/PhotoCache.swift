internal import CCairo
import Foundation
import Synchronization

/// A small cache of decoded photos, so a slideshow over hundreds of files holds only the few it is
/// showing: at most `capacity` photos stay decoded, the least recently used is dropped first.
/// Safe to use from several threads (two threads asking for the same missing photo may both decode it).
package final class PhotoCache: Sendable {
    private struct Key: Hashable { let url: URL; let scaling: PhotoScaling }
    private let entries = Mutex<[(key: Key, photo: DecodedPhoto)]>([])
    /// How many decoded photos are kept.
    package let capacity: Int

    /// A cache keeping at most `capacity` (≥ 1) decoded photos.
    package init(capacity: Int = 3) { self.capacity = max(1, capacity) }

    /// The photo at `url` decoded with `scaling`, from the cache or decoded now.
    package func photo(_ url: URL, scaling: PhotoScaling) throws(MovieMakerError) -> DecodedPhoto {
        let key = Key(url: url, scaling: scaling)
        let cached = entries.withLock { list -> DecodedPhoto? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let hit = list.remove(at: i)
            list.insert(hit, at: 0)
            return hit.photo
        }
        if let cached { return cached }
        let photo = try PhotoDecoder.decode(url, scaling: scaling)
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.insert((key, photo), at: 0)
            if list.count > capacity { list.removeLast(list.count - capacity) }
        }
        return photo
    }

    /// How many decoded photos the cache holds now.
    package var count: Int { entries.withLock { $0.count } }

    /// Drops every decoded photo.
    package func removeAll() { entries.withLock { $0.removeAll() } }
}

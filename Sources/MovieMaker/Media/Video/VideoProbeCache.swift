import Foundation
import Synchronization

extension VideoFile {
    /// The facts of the video at `url`, probed once per process while the file is unchanged (its size
    /// and modification time): a batch of rows sharing a background clip, or a studio reloading its
    /// description, opens and decodes the file's first frame once. At most `probeCacheCapacity` files
    /// are remembered, the least recently used forgotten first. Failures are not remembered.
    package static func probed(_ url: URL) throws(MovieMakerError) -> VideoFile {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let stamp = ProbeKey(path: url.standardizedFileURL.path, size: (attributes?[.size] as? NSNumber)?.int64Value ?? -1,
                             modified: (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        if let known = probeCache.withLock({ cache -> VideoFile? in
            guard let index = cache.firstIndex(where: { $0.key == stamp }) else { return nil }
            let hit = cache.remove(at: index)
            cache.insert(hit, at: 0)
            return hit.file
        }), known.url == url {
            return known
        }
        let file = try VideoFile(url: url)
        probeCache.withLock { cache in
            cache.removeAll { $0.key == stamp }
            cache.insert((stamp, file), at: 0)
            if cache.count > probeCacheCapacity { cache.removeLast(cache.count - probeCacheCapacity) }
        }
        return file
    }

    /// What identifies a file's contents for the probe cache.
    private struct ProbeKey: Hashable, Sendable {
        let path: String
        let size: Int64
        let modified: Double
    }

    /// How many probed files are remembered.
    package static let probeCacheCapacity = 64
    /// The remembered probes, most recently used first.
    private static let probeCache = Mutex<[(key: ProbeKey, file: VideoFile)]>([])
}

internal import CMovieMakerShim
import Foundation

/// How many cores this process may run on: the CPUs in its affinity mask (`taskset`, a container's
/// cpuset, `sched_setaffinity`), at most the cores online. Foundation's `activeProcessorCount` counts
/// the cores online whatever the mask says, so a render started with `taskset -c 0` would still make
/// two drawing lanes on a two-core machine; x264 counts the mask too (`sched_getaffinity`), so the
/// lanes and the encoder's threads now agree.
package enum UsableCores {
    /// The cores this process may run on now (at least 1).
    package static var count: Int {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let inMask = Int(mm_affinity_cpus(nil, 0))
        return inMask > 0 ? min(online, inMask) : online
    }

    /// The CPUs this process may run on now, by number; nil when the mask cannot be read.
    static var cpus: [Int]? {
        let n = mm_affinity_cpus(nil, 0)
        guard n > 0 else { return nil }
        var numbers = [Int32](repeating: 0, count: Int(n))
        let read = numbers.withUnsafeMutableBufferPointer { mm_affinity_cpus($0.baseAddress, n) }
        guard read == n else { return nil }
        return numbers.map(Int.init)
    }

    /// Limits this process (every thread made from now on, and its children) to `n` of the CPUs it
    /// may run on now: the first `n` of its mask. Returns the CPUs kept, or nil when the mask cannot be
    /// read or set. For benchmarks measuring how a render scales with cores.
    @discardableResult
    package static func limit(to n: Int) -> [Int]? {
        guard n >= 1, let allowed = cpus else { return nil }
        let kept = Array(allowed.prefix(n))
        let numbers = kept.map(Int32.init)
        guard numbers.withUnsafeBufferPointer({ mm_set_affinity($0.baseAddress, Int32($0.count)) }) == 0 else { return nil }
        return kept
    }
}

import Foundation
import Synchronization

/// One lock around starting child processes with Foundation's `Process`.
///
/// On Linux, `Process` learns that a child ended when the child's copy of a socket pair closes (then it
/// reaps the child and `isRunning`, `waitUntilExit` and the termination handler see the end). To keep
/// this process's other descriptors out of a child, `run()` lists the open ones just before it spawns
/// and closes them in the child. A pipe or socket pair another thread makes between that listing and
/// the spawn is not on the list and stays open in the new child: the *first* child then seems to run,
/// and its pipes to stay open, for as long as the second one lives. Two script runs in the studio, or
/// two tests each starting `moviemaker`, are enough. Making the pipes and calling `run()` inside
/// `serialized` closes the window for every launch that goes through it.
package enum ProcessLaunch {
    private static let lock = Mutex<Void>(())

    /// Runs `body` (make the pipes or file handles, configure the `Process`, call `run()`) while no other
    /// launch through this lock does.
    package static func serialized<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock { _ throws(E) -> T in try body() }
    }
}

import Foundation

/// Clean-up for a process that has to exit before its renders finish (a tool's second Ctrl-C, or a
/// deadline after SIGTERM), and partial-file names for files a tool writes itself.
///
/// ```
/// // On an emergency exit, after asking the renders to stop:
/// RenderCleanup.removeOpenPartialFiles()
/// _exit(130)
/// ```
package enum RenderCleanup {
    /// Deletes every partial file of a `MovieMaker` in this process that is still being written, and
    /// returns how many were removed. Destinations are never touched. Safe from any thread, but not
    /// from a raw C signal handler (it allocates and takes a lock): call it from a dispatch source's
    /// handler or an ordinary thread. A render still running afterwards fails at its next write.
    @discardableResult
    package static func removeOpenPartialFiles() -> Int { PartialFiles.removeAllOpen().count }

    /// A new hidden file beside `destination` to write before renaming it into place, named like
    /// MovieMaker's own partial files (`.<name>.partial-<pid>-<host>-<random>.<extension>`): if this
    /// process is killed before the rename, the next render into the folder removes it.
    package static func partialFileURL(beside destination: URL) -> URL {
        PartialFiles.url(beside: destination, stem: destination.lastPathComponent, extension: destination.pathExtension)
    }
}

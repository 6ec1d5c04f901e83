import Foundation

/// Which file a path names: its device and inode, through symbolic links. Two paths name the same
/// file exactly when their identities are equal, however they are spelled (`./a.mp4`, a link to its
/// folder, a hard link), so "never write over an input" is checked on files, not on strings.
package struct FileIdentity: Hashable, Sendable {
    /// The device holding the file (`st_dev`).
    package let device: UInt64
    /// The file's number on that device (`st_ino`).
    package let inode: UInt64

    /// The file at `path` (symbolic links followed), or nil when there is none.
    package init?(path: String) {
        var status = stat()
        guard !path.isEmpty, stat(path, &status) == 0 else { return nil }
        self.init(status: status)
    }

    /// The file `status` (from `stat`) describes.
    package init(status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// True when both paths exist and name the same file.
    package static func same(_ a: String, _ b: String) -> Bool {
        guard let x = FileIdentity(path: a), let y = FileIdentity(path: b) else { return false }
        return x == y
    }
}

/// Which file a path names and how it was last written (identity, size, modification time): equal
/// stamps taken at two moments mean the file was left as it was.
package struct FileStamp: Equatable, Sendable {
    /// Which file it is; nil when there was none.
    package let identity: FileIdentity?
    /// `st_size` (-1 when there was no file).
    package let size: Int64
    /// `st_mtim`: when it was last written.
    package let seconds: Int, nanoseconds: Int

    /// The stamp of a path naming no file.
    package static let missing = FileStamp(identity: nil, size: -1, seconds: 0, nanoseconds: 0)

    private init(identity: FileIdentity?, size: Int64, seconds: Int, nanoseconds: Int) {
        self.identity = identity; self.size = size; self.seconds = seconds; self.nanoseconds = nanoseconds
    }

    /// The stamp of the file at `path` (symbolic links followed); `missing` when there is none.
    package init(path: String) {
        var status = stat()
        // One `stat`: the identity, size and time are of the same file even if it is being replaced.
        guard !path.isEmpty, stat(path, &status) == 0 else { self = .missing; return }
        self.init(identity: FileIdentity(status: status), size: Int64(status.st_size), seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
    }
}

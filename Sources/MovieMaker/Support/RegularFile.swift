import Foundation

/// Whether a path names a file that can be read to its end.
package enum RegularFile {
    /// Why `path` cannot be read as a file — "it is a named pipe, not a regular file" — or nil when it is
    /// a regular file (through symbolic links), a folder, or not there (other checks say those). A
    /// named pipe blocks the first read until a writer comes, and a device such as `/dev/zero` never
    /// ends, so every file a description names is checked before it is opened.
    package static func problem(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "it is a named pipe, not a regular file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a regular file"
        case S_IFSOCK: return "it is a socket, not a regular file"
        default: return "it is not a regular file"
        }
    }
}

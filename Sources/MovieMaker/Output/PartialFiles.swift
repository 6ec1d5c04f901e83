internal import CMovieMakerShim
import Foundation
import Synchronization

/// The hidden files a render writes before renaming them into place, named so that a later render can
/// tell whose they are: `.<name>.partial-<pid>-<host>-<random>[.<extension>]`.
///
/// A render that fails or is cancelled deletes its own partial file. A process killed with SIGKILL
/// cannot; the next render into the same folder removes partial files whose writing process (on this
/// host) no longer exists. Files of live processes, of other hosts (a folder shared over the network)
/// and of older versions (without a process ID) are left alone.
package enum PartialFiles {
    /// This host's name as a partial file's name records it (`token(forHost:)`).
    static let hostToken: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "host"
        return token(forHost: name)
    }()

    /// `name` reduced to letters, digits and `_` (so a partial file's name splits unambiguously), at most
    /// 32 characters. A longer name keeps its first 23 and a hash of the whole (`_` and 8 hex digits):
    /// the pods of one Kubernetes job differ only at the end of their names, and a pod that took
    /// another's partial file for its own would delete it while that pod writes it.
    static func token(forHost name: String) -> String {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        guard !cleaned.isEmpty else { return "host" }
        guard cleaned.count > 32 else { return cleaned }
        var hash = SHA256()
        hash.update(Data(name.utf8))
        return cleaned.prefix(23) + "_" + hash.hexDigest().prefix(8)
    }

    /// A new partial file's URL beside `destination`: hidden, unique, naming this process and host.
    /// `extension` (without the dot) is appended when given, so tools recognise the format.
    /// A destination whose name is near the 255-byte limit keeps only as much of `stem` as fits: the
    /// name only has to be unique and recognisable, and the movie is renamed to its own name after.
    static func url(beside destination: URL, stem: String, extension ext: String?) -> URL {
        let random = UUID().uuidString.prefix(8).lowercased()
        let tail = ".partial-\(getpid())-\(hostToken)-\(random)" + (ext.map { $0.isEmpty ? "" : ".\($0)" } ?? "")
        var kept = Substring(stem)
        while 1 + kept.utf8.count + tail.utf8.count > 255, !kept.isEmpty { kept = kept.dropLast() }
        return destination.deletingLastPathComponent().appendingPathComponent("." + kept + tail)
    }

    /// The process ID and host a partial file's name records, or nil when `name` is not one (or is from
    /// a version that did not record them).
    static func owner(ofPartialNamed name: String) -> (pid: pid_t, host: String)? {
        guard name.hasPrefix("."), let marker = name.range(of: ".partial-") else { return nil }
        let rest = name[marker.upperBound...]
        let fields = rest.prefix { $0 != "." }.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, let pid = pid_t(fields[0]), pid > 0, !fields[1].isEmpty, fields[2].count == 8 else { return nil }
        return (pid, String(fields[1]))
    }

    /// Whether the process `pid` exists (on this host).
    static func processExists(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Removes, from `folder`, the partial files (or folders) left by processes of this host that no
    /// longer exist. Returns the names removed.
    @discardableResult
    static func removeStale(in folder: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let owner = owner(ofPartialNamed: name), owner.host == hostToken, owner.pid != getpid(),
                  !processExists(owner.pid) else { continue }
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        return removed
    }

    /// Where writing `destination` really goes: when its last component is a symbolic link (a chain of
    /// them), the file it points to, which may not exist yet; otherwise `destination` itself. A partial
    /// file renamed over a link would replace the link and leave the file it names as it was, where
    /// every other program writing to the path (ffmpeg, `cp`, a shell's `>`) writes through it.
    package static func target(of destination: URL) -> URL {
        var path = destination.path
        var followed = false
        for _ in 0..<40 {      // the kernel's own limit on links followed in a row
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { break }
            // A relative link is read from its own folder as the kernel reads it: that folder with its
            // own links resolved, so a `..` in the link leaves the real folder, not the path's text.
            path = link.hasPrefix("/") ? link
                : URL(fileURLWithPath: path).deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(link).path
            followed = true
        }
        return followed ? URL(fileURLWithPath: path) : destination
    }

    /// The path writing `destination` really reaches, for telling two destinations apart: `target(of:)`
    /// with the links in its folders resolved as far as they exist (`a/x.mp4` and `b/x.mp4` are one file
    /// when `b` links to `a`; a folder not made yet is taken as written).
    package static func identity(of destination: URL) -> String {
        /// `path` with its links resolved (realpath(3)), or nil when it does not exist.
        func resolved(_ path: String) -> String? {
            guard let real = realpath(path, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        }
        let target = target(of: destination.standardizedFileURL)
        var folder = target.deletingLastPathComponent()
        var rest = [target.lastPathComponent]
        var real = resolved(folder.path)
        while real == nil, folder.path != "/" {
            rest.insert(folder.lastPathComponent, at: 0)
            folder = folder.deletingLastPathComponent()
            real = resolved(folder.path)
        }
        guard let real else { return target.path }
        return rest.reduce(URL(fileURLWithPath: real)) { $0.appendingPathComponent($1) }.path
    }

    /// Writes `destination` atomically: `write` fills a new partial file beside it (registered, so an
    /// exit removes it), which is renamed over `destination` once `write` returns. When `write` throws or
    /// the rename fails, the partial file is deleted and `destination` is left as it was. Partial files
    /// of dead processes in the folder are removed first. `extension` as for `url(beside:stem:extension:)`.
    /// A symbolic link at `destination` is written through (`target(of:)`).
    static func writeAtomically<T>(to link: URL, extension ext: String?,
                                   _ write: (URL) throws(MovieMakerError) -> T) throws(MovieMakerError) -> T {
        let destination = target(of: link)
        if let kind = MovieDestination.specialFileKind(destination.path) {
            // The rename would replace a device (a link to /dev/null, as root) or a pipe with a plain file.
            throw .destinationNotWritable(path: link.path, reason: "\(kind) has that name, which the finished file would replace")
        }
        removeStale(in: destination.deletingLastPathComponent())
        let temporary = url(beside: destination, stem: destination.deletingPathExtension().lastPathComponent, extension: ext)
        register(temporary)
        defer { unregister(temporary) }
        do throws(MovieMakerError) {
            let result = try write(temporary)
            // rename(2) replaces the destination atomically: readers see the old file or the new one.
            guard rename(temporary.path, destination.path) == 0 else {
                throw MovieMakerError.destinationNotWritable(path: destination.path, reason: String(cString: strerror(errno)))
            }
            return result
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes `data` to `destination` atomically (`writeAtomically`): readers see the old file or the
    /// new one, and a failure leaves neither half a file nor a partial one.
    package static func write(_ data: Data, to destination: URL) throws(MovieMakerError) {
        try writeAtomically(to: destination, extension: destination.pathExtension.isEmpty ? nil : destination.pathExtension) {
            (temporary) throws(MovieMakerError) in
            // write(2) itself, so a failure says why in words (Foundation's says "error 512").
            let fd = Glibc.open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o666)     // less the umask, as Data.write
            guard fd >= 0 else { throw .destinationNotWritable(path: destination.path, reason: reason(errno: errno)) }
            defer { close(fd) }
            if let failure = data.withUnsafeBytes({ writeAll($0, to: fd) }) {
                throw .destinationNotWritable(path: destination.path, reason: reason(errno: failure))
            }
        }
    }

    /// Writes all of `bytes` to `fd` with write(2), again after EINTR and short writes; the errno that
    /// stopped it (EIO for a write of nothing), or nil when all was written.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return n < 0 ? errno : EIO }
        }
        return nil
    }

    /// What to do about a write that failed with these errors: every writer of the library (the muxer,
    /// the small files written whole) says the same.
    package static let writeFailures: [(errno: Int32, reason: String)] = [
        (ENOSPC, "no space left on the device: free some space or write to another disk"),
        (EDQUOT, "the disk quota is used up: free some space or write to another disk"),
        (EFBIG, "the file grew beyond the largest size allowed, by a file-size limit (ulimit -f) or by the file system: raise the limit or write elsewhere"),
        (EIO, "the device reported an input/output error: check the disk, or write to another one"),
    ]

    /// Why a write failed with `code`, in words: `writeFailures`' advice, else the system's message.
    static func reason(errno code: Int32) -> String {
        writeFailures.first { $0.errno == code }?.reason ?? String(cString: strerror(code))
    }

    /// Partial files this process is writing now, so that an emergency exit can remove them, each with
    /// its slot in the signal handler's table (-1: none).
    private static let open = Mutex<[String: (slot: Int32, movie: String?)]>([:])

    /// Records that `url` is being written (until `unregister`); `movie` is the destination it becomes
    /// when it is a movie's. The first call installs an exit handler: a program that calls `exit()` (or
    /// returns from `main`) with a movie not finished leaves no partial file behind, and is told which
    /// movie was not written (a script that forgot `finish()` would otherwise end in silence). (A crash
    /// or SIGKILL runs no handler; the next render in the folder removes what it left: `removeStale`.)
    static func register(_ url: URL, movie: URL? = nil) {
        _ = exitHandlerInstalled
        let slot = signalCleanupInstalled ? mm_partial_add(url.path) : -1
        let previous = open.withLock { $0.updateValue((slot, movie?.path), forKey: url.path) }
        if let previous { mm_partial_remove(previous.slot) }
    }

    /// Installs the exit handler once (a `static let` is initialised exactly once, thread-safely).
    private static let exitHandlerInstalled: Bool = {
        atexit {
            for movie in PartialFiles.removeAllOpen().movies.sorted() {
                LibraryWarnings.warn("\(movie) was not written: the program ended before the movie's finish() "
                                     + "(call finish() after the last frame)")
            }
        }
        return true
    }()
    /// The environment variable that asks the library to remove its partial files when the process is
    /// stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE (`moviemaker run` sets it for the scripts it runs:
    /// a script is a program of its own, with no code of the tool left to clean up after it). A
    /// library must not take a process's signals unasked, so without it nothing is installed.
    package static let signalCleanupVariable = "MOVIEMAKER_REMOVE_PARTIAL_FILES_ON_SIGNALS"

    /// The signals watched when `signalCleanupVariable` is "1".
    static let cleanupSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    /// When `signalCleanupVariable` is "1", installs (once) a signal handler for `cleanupSignals`: the
    /// first signal removes the open partial files, then the process dies of it with its default
    /// action, as it would have. A plain handler in C (`mm_partial_install_signal_cleanup`), not a
    /// Dispatch signal source: Dispatch sees a signal only once every thread has it blocked, and one
    /// that reached a drawing thread first was lost (the script ran on, its partial file left).
    private static let signalCleanupInstalled: Bool = {
        guard ProcessInfo.processInfo.environment[signalCleanupVariable] == "1" else { return false }
        cleanupSignals.withUnsafeBufferPointer { mm_partial_install_signal_cleanup($0.baseAddress, Int32($0.count)) }
        return true
    }()

    /// Records that `url` was renamed into place or deleted.
    static func unregister(_ url: URL) {
        if let entry = open.withLock({ $0.removeValue(forKey: url.path) }) { mm_partial_remove(entry.slot) }
    }
    /// Deletes every partial file this process is writing (for a process about to exit without
    /// finishing its renders, e.g. on a second interrupt). Returns how many were removed, and the
    /// movies among them (their destinations' paths).
    @discardableResult
    static func removeAllOpen() -> (count: Int, movies: [String]) {
        let paths = open.withLock { table in defer { table.removeAll() }; return table }
        for entry in paths.values { mm_partial_remove(entry.slot) }
        let removed = paths.filter { (try? FileManager.default.removeItem(atPath: $0.key)) != nil }
        // Every open movie, removed or not: an animated image's file is only created by finish().
        return (removed.count, paths.values.compactMap(\.movie))
    }
}

import FlyingFox
import FlyingSocks
import Foundation

/// Serves the project folder's files (`/files/…`) without ever blocking a thread of the server's
/// cooperative pool: the checks and the `open` run on a dispatch queue, only regular files are opened
/// (decided with `lstat` first, then `fstat` on what was opened), the open is non-blocking, and the
/// file is read on the dispatch queue as the response is sent.
///
/// A named pipe opened for reading blocks until a writer comes, forever if none does; FlyingFox's
/// `HTTPBodySequence(file:)` opened it on a cooperative thread, so two such requests stopped a
/// two-core machine's whole studio, Ctrl-C included.
enum StudioFiles {
    /// Why a file is not served: 404 (no such file, a folder, a dot-file, outside the folder) or 403
    /// (a named pipe, socket or device).
    enum Refusal: Error, Equatable {
        /// Nothing the studio serves has that name.
        case notFound
        /// The name is a named pipe, a socket or a device: never opened.
        case notRegular(kind: String)
    }

    /// The queue files are checked, opened and read on (never a cooperative thread).
    private static let queue = DispatchQueue(label: "moviemaker.studio.files", qos: .userInitiated, attributes: .concurrent)

    /// The open file `segments` names inside `folder`, checked as `StudioPaths.file` says and opened
    /// only if it is a regular file.
    static func open(_ segments: [String], in folder: URL) async throws(Refusal) -> OpenFile {
        let result: Result<OpenFile, Refusal> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(Refusal) in try openBlocking(segments, in: folder) }) }
        }
        return try result.get()
    }

    /// `open`, on the calling thread.
    static func openBlocking(_ segments: [String], in folder: URL) throws(Refusal) -> OpenFile {
        guard let url = StudioPaths.file(segments, in: folder) else { throw .notFound }
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw .notFound }
        try checkRegular(info)
        // O_NONBLOCK: should the name have become a pipe since the lstat, the open returns at once
        // instead of waiting for a writer; O_NOFOLLOW: nor may it have become a link.
        let fd = Glibc.open(url.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .notFound }
        guard fstat(fd, &info) == 0 else { close(fd); throw .notFound }
        do { try checkRegular(info) } catch { close(fd); throw error }
        return OpenFile(descriptor: fd, size: Int(info.st_size))
    }

    /// Throws unless `info` describes a regular file (a folder is "not found", as the studio lists none).
    private static func checkRegular(_ info: stat) throws(Refusal) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .notFound
        case S_IFIFO: throw .notRegular(kind: "a named pipe")
        case S_IFSOCK: throw .notRegular(kind: "a socket")
        case S_IFCHR, S_IFBLK: throw .notRegular(kind: "a device")
        default: throw .notFound
        }
    }

    /// Reads up to `count` bytes at `offset` on the files' queue.
    static func read(_ file: OpenFile, at offset: Int, count: Int) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
                        let n = pread(file.descriptor, buffer.baseAddress, count, off_t(offset))
                        filled = max(0, n)
                    }
                    // A file that shrank while it was sent: the response cannot be completed, and the
                    // connection is closed rather than left waiting for bytes that will not come.
                    guard !bytes.isEmpty else { throw StudioFailure.internal("the file changed while it was sent") }
                    return bytes
                })
            }
        }
    }

    /// A response body streaming `file` (its whole size, as found when it was opened).
    static func body(_ file: OpenFile) -> HTTPBodySequence {
        HTTPBodySequence(from: FileBytes(file: file), count: file.size, suggestedBufferSize: 64 << 10)
    }
}

/// A file descriptor the studio opened, closed when the last response using it is gone.
final class OpenFile: Sendable {
    /// The descriptor (opened read-only).
    let descriptor: Int32
    /// The size when it was opened.
    let size: Int

    /// Takes ownership of `descriptor`.
    init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }
}

/// An open file's bytes as the buffered sequence FlyingFox sends as a body, read on the files' queue.
struct FileBytes: AsyncBufferedSequence {
    typealias Element = UInt8
    /// The file.
    let file: OpenFile

    func makeAsyncIterator() -> Iterator { Iterator(file: file) }

    /// Reads the file from its start to the size it had when opened.
    struct Iterator: AsyncBufferedIteratorProtocol {
        /// The file.
        let file: OpenFile
        /// The next byte's offset.
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard offset < file.size else { return nil }
            let bytes = try await StudioFiles.read(file, at: offset, count: Swift.min(Swift.max(count, 1), file.size - offset))
            offset += bytes.count
            return bytes
        }
    }
}

internal import CFFmpeg
import Foundation

/// Owns one `AVHashContext` (libavutil's hashes, optimised C), from av_hash_alloc to av_hash_freep.
final class OwnedHash {
    /// The context (owned: freed in `deinit`).
    private var pointer: OpaquePointer?

    /// A context for `algorithm` ("SHA256", "MD5", "CRC32"…), initialised.
    init(_ algorithm: String) throws(MovieMakerError) {
        let status = av_hash_alloc(&pointer, algorithm)
        guard status >= 0, pointer != nil else {
            throw .ffmpeg(operation: "av_hash_alloc(\(algorithm))", code: status, message: "no such hash")
        }
        av_hash_init(pointer)
    }

    /// Adds `bytes` to the hash.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        av_hash_update(pointer, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The digest as lowercase hex digits (the context is then spent).
    func hexDigest() -> String {
        var text = [CChar](repeating: 0, count: 2 * Int(AV_HASH_MAX_SIZE) + 1)
        av_hash_final_hex(pointer, &text, Int32(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Frees the context (av_hash_freep).
    deinit { av_hash_freep(&pointer) }
}

/// Whole-file content hashes.
enum FileHash {
    /// The SHA-256 of the file at `path` (hex), read in 1 MiB pieces (constant memory), or nil when it
    /// cannot be read.
    static func sha256(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path), let hash = try? OwnedHash("SHA256") else { return nil }
        defer { try? handle.close() }
        while true {
            let piece: Data?
            do { piece = try handle.read(upToCount: 1 << 20) } catch { return nil }
            // nil or empty: the end of the file.
            guard let piece, !piece.isEmpty else { break }
            piece.withUnsafeBytes { hash.update($0) }
        }
        return hash.hexDigest()
    }
}

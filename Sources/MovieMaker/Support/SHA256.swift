/// SHA-256, for content hashes of clip trees and descriptions and for naming the `moviemaker` tool's
/// cached script builds by their inputs: libavutil's (`av_hash`, through `OwnedHash`), which the
/// library links already. swift-crypto's `SHA256` was the other candidate; it would add BoringSSL to
/// every build (minutes on two cores, against a `make test` kept under 20) for the same digest, and
/// the hand-written textbook version this replaces was slower than both. `package`: shared with the
/// tool and the studio, not public API.
///
/// Not a value to copy mid-way: copies share one context, and `hexDigest()` ends it.
package struct SHA256 {
    private let context: OwnedHash

    /// A hash of nothing yet.
    package init() {
        // av_hash_alloc fails only when memory does, and "SHA256" is always compiled into libavutil.
        do { context = try OwnedHash("SHA256") } catch { preconditionFailure("libavutil cannot hash SHA-256: \(error)") }
    }

    /// Adds bytes to the hash.
    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ context.update(UnsafeRawBufferPointer($0)) }) { return done }
        Array(bytes).withUnsafeBytes { context.update($0) }
    }

    /// Adds a string's UTF-8 bytes and a terminating zero, so consecutive strings cannot run together.
    package mutating func update(field: String) {
        var text = field
        text.withUTF8 { context.update(UnsafeRawBufferPointer($0)) }
        update(CollectionOfOne(0))
    }

    /// The digest as 64 lowercase hex digits. Call it once, when everything has been added.
    package func hexDigest() -> String { context.hexDigest() }
}

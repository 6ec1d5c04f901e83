import Foundation
import MovieMaker

// `Clip` is not `Codable` in public (programs persist description files, not clip trees); the package's
// tests still round-trip trees through the tree's own JSON, as `contentHash()` writes it. These
// overloads are more specific than `encode<T: Encodable>` and `decode<T: Decodable>`, so a test writes
// `JSONEncoder().encode(clip)` and `JSONDecoder().decode(Clip.self, from: data)` as before.

extension JSONEncoder {
    /// `clip` as the tree's own JSON.
    public func encode(_ clip: Clip) throws -> Data { try encode(ClipJSON(clip)) }
}

extension JSONDecoder {
    /// A clip read from the tree's own JSON.
    public func decode(_ type: Clip.Type, from data: Data) throws -> Clip { try decode(ClipJSON.self, from: data).clip }
}

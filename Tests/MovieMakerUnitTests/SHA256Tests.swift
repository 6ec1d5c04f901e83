import Foundation
import Testing
@testable import MovieMaker

/// The content hashes' SHA-256 (libavutil's) gives FIPS 180-4's digests, whatever the pieces.
@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-4 test vectors, fed whole, byte by byte and as fields")
    func knownDigests() {
        #expect(SHA256().hexDigest() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var abc = SHA256()
        abc.update(Array("abc".utf8))
        #expect(abc.hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var long = SHA256()
        for byte in "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8 { long.update(CollectionOfOne(byte)) }
        #expect(long.hexDigest() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // A field is its bytes and a zero: "a" then "b" differs from "ab".
        var fields = SHA256(), joined = SHA256(), spelled = SHA256()
        fields.update(field: "a"); fields.update(field: "b")
        joined.update(field: "ab")
        spelled.update([0x61, 0, 0x62, 0])
        let digest = fields.hexDigest()
        #expect(digest != joined.hexDigest() && digest == spelled.hexDigest())
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `FileIdentity` and `FileStamp`: the one place paths are compared as files (the CLI's "never write
/// over an input", a batch's rows, the studio's watch and the cancellation line all ask it).
@Suite("File identity and stamps")
struct FileIdentityTests {
    @Test("another spelling, a link to the file, a link to its folder and a hard link are the same file; a copy is not")
    func identity() throws {
        let folder = try TemporaryFolder()
        let a = folder.file("a.mp4"), copy = folder.file("copy.mp4")
        try Data("x".utf8).write(to: a)
        try Data("x".utf8).write(to: copy)
        try FileManager.default.createSymbolicLink(at: folder.file("link.mp4"), withDestinationURL: a)
        try FileManager.default.createSymbolicLink(at: folder.file("same"), withDestinationURL: folder.url)
        try FileManager.default.linkItem(at: a, to: folder.file("hard.mp4"))
        for other in [folder.url.path + "/./a.mp4", folder.file("link.mp4").path, folder.file("same").path + "/a.mp4", folder.file("hard.mp4").path] {
            #expect(FileIdentity.same(a.path, other), "\(other)")
            #expect(FileIdentity(path: other) == FileIdentity(path: a.path))
        }
        #expect(!FileIdentity.same(a.path, copy.path))
        #expect(FileIdentity(path: folder.file("missing.mp4").path) == nil && !FileIdentity.same(a.path, folder.file("missing.mp4").path))
        #expect(FileIdentity(path: "") == nil)
    }

    @Test("a stamp changes when the file is written, and a missing file's stamp equals another missing file's")
    func stamps() throws {
        let folder = try TemporaryFolder()
        let a = folder.file("a.txt")
        #expect(FileStamp(path: a.path) == .missing)
        try Data("one".utf8).write(to: a)
        let first = FileStamp(path: a.path)
        #expect(first != .missing && first.size == 3 && first.identity == FileIdentity(path: a.path))
        #expect(FileStamp(path: a.path) == first)
        try Data("three".utf8).write(to: a)
        #expect(FileStamp(path: a.path) != first)
    }
}

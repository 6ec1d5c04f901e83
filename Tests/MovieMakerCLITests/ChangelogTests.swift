import Foundation
import Testing
import MovieMaker

/// The version is written once (`MovieMaker.version`): the tool prints it and the changelog names it.
@Suite("the version, in one place")
struct ChangelogTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("CHANGELOG.md's newest entry is MovieMaker.version")
    func changelogNamesTheVersion() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") }, "CHANGELOG.md has no '## ' entry")
        #expect(newest.dropFirst(3).hasPrefix(MovieMaker.version + " ") || newest.dropFirst(3) == MovieMaker.version,
                "CHANGELOG.md's newest entry is '\(newest)', the library says \(MovieMaker.version)")
        let parts = MovieMaker.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "not a semantic version: \(MovieMaker.version)")
    }

    @Test("moviemaker --version prints MovieMaker.version")
    func toolPrintsTheVersion() throws {
        guard CLI.isBuilt else { return }
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("moviemaker \(MovieMaker.version) "), "got: \(r.stdout)")
    }
}

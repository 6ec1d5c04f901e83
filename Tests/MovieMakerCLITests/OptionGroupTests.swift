import Foundation
import Testing
import MovieMakerTestSupport

/// The CLI's option groups stay one level deep: a command holds option groups, and no option group
/// holds another. A debug build of ArgumentParser validates every group, and every group inside it,
/// once per check it makes, so each level of nesting multiplies the work of parsing the arguments by
/// about five: with three levels (`title` → video → quality → animated images) a debug `moviemaker title`
/// spent most of a second before drawing, and `make test` launches the debug CLI hundreds of times.
@Suite("the CLI's option groups")
struct OptionGroupTests {
    /// The top-level types of `text` declared `struct Name: ParsableArguments` that declare an
    /// `@OptionGroup` themselves, as "File.swift: Name".
    static func nestingGroups(in text: String, file: String) -> [String] {
        var found: [String] = []
        var current: String? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A declaration at the start of a line begins the next top-level type.
            if let first = line.first, first.isLetter || first == "@" {
                current = nil
                let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," || $0 == "{" })
                if let s = words.firstIndex(of: "struct"), s + 1 < words.count, words[(s + 2)...].contains("ParsableArguments") {
                    current = String(words[s + 1])
                }
            } else if let current, line.contains("@OptionGroup") {
                found.append("\(file): \(current)")
            }
        }
        return Array(Set(found)).sorted()
    }

    @Test("the finder sees an option group that holds another")
    func finderSeesNesting() {
        let nested = """
        struct Inner: ParsableArguments {
            @Option var crf: Int?
        }

        struct Outer: ParsableArguments {
            @OptionGroup var inner: Inner
        }

        struct Command: ParsableCommand {
            @OptionGroup var outer: Outer
        }
        """
        #expect(Self.nestingGroups(in: nested, file: "Example.swift") == ["Example.swift: Outer"])
    }

    @Test("no option group of the CLI holds another option group")
    func noGroupHoldsAGroup() throws {
        let folder = LayeringTests.repository.appendingPathComponent("Sources/MovieMakerCLI")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        var groups = 0
        var nesting: [String] = []
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            groups += text.components(separatedBy: ": ParsableArguments").count - 1
            nesting += Self.nestingGroups(in: text, file: url.lastPathComponent)
        }
        #expect(groups >= 10, "found only \(groups) option groups under \(folder.path)")
        #expect(nesting.isEmpty, "declare these groups beside the others in each command instead: \(nesting)")
    }
}

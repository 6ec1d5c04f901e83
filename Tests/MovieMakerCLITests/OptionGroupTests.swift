import Foundation
import Testing
import MovieMakerTestSupport

/// The CLI's option groups stay one level deep: a command holds option groups, and no option group
/// holds another. A debug build of ArgumentParser validates every group, and every group inside it,
/// once per check it makes, so each level of nesting multiplies the work of parsing the arguments by
/// about five: with three levels (`title` → video → quality → animated images) a debug `moviemaker title`
/// spent about a third of a second before drawing (and a usage error a whole CPU second), and `make
/// test` launches the debug CLI hundreds of times.
@Suite("the CLI's option groups")
struct OptionGroupTests {
    /// The code of `text` with comments and string literals (interpolations included) blanked out,
    /// so braces and words inside them do not count. Line breaks are kept.
    static func code(_ text: String) -> [Character] {
        let c = Array(text)
        var out: [Character] = []
        var i = 0
        // Open string literals, innermost last: whether multi-line, and the parenthesis depth of the
        // interpolation being read inside it (nil while reading the literal's own characters).
        var strings: [(multiline: Bool, interpolation: Int?)] = []
        func at(_ s: String) -> Bool { Array(s).enumerated().allSatisfy { i + $0.offset < c.count && c[i + $0.offset] == $0.element } }
        while i < c.count {
            if var top = strings.last, top.interpolation == nil {
                // Inside a literal's characters.
                if c[i] == "\\" && i + 1 < c.count && c[i + 1] == "(" {
                    top.interpolation = 0; strings[strings.count - 1] = top; out += ["(", "("]; i += 2; continue
                }
                if c[i] == "\\" { out += [" ", " "]; i += 2; continue }
                if top.multiline ? at("\"\"\"") : c[i] == "\"" {
                    strings.removeLast(); let n = top.multiline ? 3 : 1; out += Array(repeating: " ", count: n); i += n; continue
                }
                out.append(c[i] == "\n" ? "\n" : " "); i += 1; continue
            }
            // Code (at the top, or inside an interpolation).
            if at("//") { while i < c.count && c[i] != "\n" { out.append(" "); i += 1 }; continue }
            if at("/*") { while i < c.count && !at("*/") { out.append(c[i] == "\n" ? "\n" : " "); i += 1 }; out += [" ", " "]; i += 2; continue }
            // A raw string (#"…"# or #"""…"""#): no escapes to read, blanked to its end.
            if at("#\"") {
                let end = at("#\"\"\"") ? "\"\"\"#" : "\"#"
                out += [" ", " "]; i += 2
                while i < c.count && !at(end) { out.append(c[i] == "\n" ? "\n" : " "); i += 1 }
                out += Array(repeating: " ", count: end.count); i += end.count; continue
            }
            if at("\"\"\"") { strings.append((true, nil)); out += [" ", " ", " "]; i += 3; continue }
            if c[i] == "\"" { strings.append((false, nil)); out.append(" "); i += 1; continue }
            if var top = strings.last, let depth = top.interpolation {
                if c[i] == "(" { top.interpolation = depth + 1 }
                if c[i] == ")" { top.interpolation = depth == 0 ? nil : depth - 1 }
                strings[strings.count - 1] = top
                out.append(c[i] == ")" && depth == 0 ? " " : c[i]); i += 1; continue
            }
            out.append(c[i]); i += 1
        }
        return out
    }

    /// The types of `text` that conform to `ParsableArguments` (in their declaration or an extension
    /// of the file) and declare an `@OptionGroup` themselves, as "File.swift: Name". Nested types and
    /// any indentation count; braces and words in comments and strings do not.
    static func nestingGroups(in text: String, file: String) -> [String] {
        let code = code(text)
        var depth = 0
        // Open type bodies: name and the depth inside them.
        var types: [(name: String, depth: Int)] = []
        var holdingGroups = Set<String>(), parsable = Set<String>()
        var header: [Character] = []
        var i = 0
        while i < code.count {
            let ch = code[i]
            if ch == "{" {
                depth += 1
                // The words before this brace since the last statement: a type's or extension's header?
                // `struct A.B<T>: P, Q` → keyword, the name's last component, the words after it.
                let tokens = String(header).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map { String($0) }
                if let k = tokens.lastIndex(where: { ["struct", "class", "enum", "extension", "actor"].contains($0) }), k + 1 < tokens.count {
                    let written = tokens[k + 1].prefix { $0 != ":" && $0 != "<" && $0 != "{" }
                    let name = String(written.split(separator: ".").last ?? "")
                    let rest = tokens[(k + 1)...].joined(separator: " ").split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
                    if rest.contains("ParsableArguments") { parsable.insert(name) }
                    if tokens[k] != "extension" { types.append((name, depth)) }
                }
                header = []
            } else if ch == "}" {
                if let last = types.last, last.depth == depth { types.removeLast() }
                depth -= 1
                header = []
            } else if ch == ";" {
                header = []
            } else {
                header.append(ch)
            }
            if ch == "@", let type = types.last, type.depth == depth, String(code[i..<min(code.count, i + 12)]) == "@OptionGroup" {
                holdingGroups.insert(type.name)
            }
            i += 1
        }
        return holdingGroups.intersection(parsable).map { "\(file): \($0)" }.sorted()
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
        // Indented, conforming in an extension, with braces and the attribute's name in strings and comments.
        let hidden = """
        enum Commands {
            struct Quality: ParsableArguments {
                @Option(help: "a { brace and \\("}") in a string") var crf: Int?
                // not a group: @OptionGroup var x: X
            }
            struct Wrapper {
                @OptionGroup var quality: Quality
            }
        }
        extension Commands.Wrapper: ParsableArguments {}
        struct Plain: ParsableArguments {
            let text = "@OptionGroup"
            let raw = #"a "quoted" { brace"#
        }
        """
        #expect(Self.nestingGroups(in: hidden, file: "Hidden.swift") == ["Hidden.swift: Wrapper"])
    }

    @Test("no option group of the CLI holds another option group")
    func noGroupHoldsAGroup() throws {
        let folder = LayeringTests.repository.appendingPathComponent("Sources/MovieMakerCLI")
        let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        let files = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
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

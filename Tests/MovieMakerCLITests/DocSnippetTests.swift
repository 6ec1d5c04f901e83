import Foundation
import Testing
import MovieMakerTestSupport

/// Every Swift snippet in the README and the docs compiles against the library (issue 33, bug 6: the
/// README's filter snippet did not). Each ```swift block is compiled as a `moviemaker run` script
/// (`--compile-only`): a block that uses names it does not declare gets them from an HTML comment on
/// the line before it, `<!-- prelude: let clip = Clip.color(.gray, duration: 2) -->`, invisible on the
/// page. A block starting `// Package.swift` is a fragment of a manifest: it is put inside `Package(…)`
/// and evaluated by `swift package dump-package`.
@Suite("Swift snippets in the documentation compile", .serialized)
struct DocSnippetTests {
    /// The checkout: three folders up from this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One ```swift block: where it is, its prelude and its text.
    struct Snippet: CustomStringConvertible {
        var file: String
        var line: Int
        var prelude: String
        var code: String
        var description: String { "\(file):\(line)" }
    }

    /// The Markdown files with documentation: README.md, ARCHITECTURE.md, docs/ and examples/ (recursively).
    static func markdownFiles() -> [URL] {
        var files = [repository.appendingPathComponent("README.md"), repository.appendingPathComponent("ARCHITECTURE.md")]
        for folder in ["docs", "examples", "Sources"] {
            let root = repository.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "md" { files.append(url) }
        }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }.sorted { $0.path < $1.path }
    }

    /// The ```swift blocks of `url`, each with the prelude from the comment just before it.
    static func snippets(in url: URL) throws -> [Snippet] {
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let name = String(url.path.dropFirst(repository.path.count + 1))
        var result: [Snippet] = []
        var i = 0
        while i < lines.count {
            guard lines[i].trimmingCharacters(in: .whitespaces) == "```swift" else { i += 1; continue }
            // The prelude: an HTML comment ending on the line before the fence.
            var prelude = ""
            if i > 0, lines[i - 1].trimmingCharacters(in: .whitespaces).hasSuffix("-->") {
                var j = i - 1
                while j > 0, !lines[j].contains("<!--") { j -= 1 }
                let comment = lines[j..<i].joined(separator: "\n")
                if let open = comment.range(of: "<!-- prelude:"), let close = comment.range(of: "-->", options: .backwards) {
                    prelude = String(comment[open.upperBound..<close.lowerBound])
                }
            }
            var code: [String] = []
            var k = i + 1
            while k < lines.count, lines[k].trimmingCharacters(in: .whitespaces) != "```" { code.append(lines[k]); k += 1 }
            result.append(Snippet(file: name, line: i + 1, prelude: prelude, code: code.joined(separator: "\n")))
            i = k + 1
        }
        return result
    }

    /// The ```swift blocks in the library's doc comments (what DocC and editors show), with `///`
    /// taken off; a `/// <!-- prelude: … -->` line before the fence gives names the block uses.
    static func docCommentSnippets() throws -> [Snippet] {
        var result: [Snippet] = []
        for folder in ["Sources/MovieMaker", "Sources/MovieMakerCore"] {
            let root = repository.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                guard text.contains("/// ```swift") else { continue }
                // The doc-comment lines as Markdown (other lines blank, so line numbers stay).
                let markdown = text.components(separatedBy: "\n").map { line -> String in
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard trimmed.hasPrefix("///") else { return "" }
                    let rest = trimmed.dropFirst(3)
                    return String(rest.hasPrefix(" ") ? rest.dropFirst() : rest)
                }.joined(separator: "\n")
                let copy = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString).md")
                try markdown.write(to: copy, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: copy) }
                let name = String(url.path.dropFirst(repository.path.count + 1))
                result += try snippets(in: copy).map { var s = $0; s.file = name; return s }
            }
        }
        return result.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    @Test("every Swift snippet in the library's doc comments compiles against the library")
    func everyDocCommentSnippetCompiles() throws {
        let all = try Self.docCommentSnippets()
        #expect(all.count >= 15, "found \(all)")
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try Self.compileAll(all.map { ("\($0)", $0.prelude + "\n" + $0.code) }, in: folder, label: "doc")
    }

    @Test("the README and the docs have Swift snippets, and the finder sees them")
    func snippetsAreFound() throws {
        let all = try Self.markdownFiles().flatMap(Self.snippets(in:))
        #expect(all.filter { $0.file == "README.md" }.count >= 3, "found \(all)")
    }

    @Test("every Swift snippet compiles against the library")
    func everySnippetCompiles() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let all = try Self.markdownFiles().flatMap(Self.snippets(in:))
        var scripts: [(name: String, body: String)] = []
        for (n, snippet) in all.enumerated() {
            if snippet.code.hasPrefix("// Package.swift") {
                try checkManifest(snippet, in: folder, index: n)
                continue
            }
            scripts.append(("\(snippet)", snippet.prelude + "\n" + snippet.code))
        }
        try Self.compileAll(scripts, in: folder, label: "snippet")
    }

    /// Compiles each of `scripts` as a `moviemaker run` script (`import Foundation` and `import
    /// MovieMaker` added), recording an issue naming each one that does not compile.
    ///
    /// First all together, one compiler run instead of one each (each costs about 5 CPU s, and the
    /// suite runs on 2 cores): every script becomes a `do { … }` block of one file, its imports hoisted.
    /// Only when that file does not compile is each script compiled alone, so an error still names its
    /// script; and a script that compiles alone passes even when the joined file could not take it.
    static func compileAll(_ scripts: [(name: String, body: String)], in folder: TemporaryFolder, label: String) throws {
        // Each script's lines without its own imports of the two modules (the header has them).
        let bodies = scripts.map { script in
            script.body.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !["import Foundation", "import MovieMaker"].contains($0.trimmingCharacters(in: .whitespaces)) }
                .joined(separator: "\n")
        }
        let header = "import Foundation\nimport MovieMaker\n"
        let joined = header + zip(scripts, bodies).map { script, body in "// \(script.name)\ndo {\n\(body)\n}\n" }.joined()
        let together = folder.file("\(label)s-together.swift")
        try joined.write(to: together, atomically: true, encoding: .utf8)
        if try CLI.run(["run", "--compile-only", "--debug", together.path]).status == 0 { return }
        for (n, (script, body)) in zip(scripts, bodies).enumerated() {
            let file = folder.file("\(label)\(n).swift")
            try (header + body + "\n").write(to: file, atomically: true, encoding: .utf8)
            let r = try CLI.run(["run", "--compile-only", "--debug", file.path])
            #expect(r.status == 0, "\(script.name) does not compile:\n\(r.stderr.prefix(3000))")
        }
    }

    /// The code steps of the DocC tutorials (`MovieMaker.docc/Resources/*.swift`), each a whole script.
    static func tutorialSteps() throws -> [URL] {
        let folder = repository.appendingPathComponent("Sources/MovieMaker/MovieMaker.docc/Resources")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    @Test("every code step of the DocC tutorials compiles as a moviemaker run script, and every step file is used")
    func tutorialStepsCompile() throws {
        let steps = try Self.tutorialSteps()
        // Five tutorials, at least two steps each.
        #expect(steps.count >= 10, "found \(steps.map(\.lastPathComponent))")
        let tutorials = Self.repository.appendingPathComponent("Sources/MovieMaker/MovieMaker.docc/Tutorials")
        let text = try FileManager.default.contentsOfDirectory(at: tutorials, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "tutorial" }.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for step in steps { #expect(text.contains("file: \"\(step.lastPathComponent)\""), "\(step.lastPathComponent) is in no tutorial") }
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        try Self.compileAll(try steps.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }, in: folder, label: "step")
    }

    /// Evaluates a Package.swift fragment inside `Package(name:…)` with `swift package dump-package`.
    func checkManifest(_ snippet: Snippet, in folder: TemporaryFolder, index: Int) throws {
        let package = folder.file("package\(index)/MyFilm")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        let body = snippet.code.split(separator: "\n").filter { !$0.hasPrefix("// Package.swift") }.joined(separator: "\n")
        let manifest = "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n    name: \"MyFilm\",\n\(body)\n)\n"
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let r = try run("/usr/bin/env", ["swift", "package", "--package-path", package.path, "dump-package"])
        #expect(r.status == 0, "\(snippet) is not a valid Package.swift fragment:\n\(r.stderr.prefix(2000))")
    }
}

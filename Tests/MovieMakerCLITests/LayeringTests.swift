import Foundation
import Testing
import MovieMakerTestSupport

/// The core target (`Sources/MovieMakerCore`: time, geometry, paths, colours, easing, errors, JSON) stays
/// pure Swift with nothing above it (issue 34, item 1). SwiftPM refuses an import of a module a target
/// does not depend on only in a clean build (an incremental build may find the module's file anyway), so
/// both halves are checked here: the manifest gives the core no dependency, and no core file imports
/// anything but the standard library's own modules.
@Suite("the core target's layering")
struct LayeringTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Package.swift gives MovieMakerCore no dependency, and MovieMaker depends on it")
    func manifest() throws {
        // A scratch folder of its own: `swift test` holds the lock on the checkout's .build while it runs.
        let scratch = try TemporaryFolder()
        let r = try run("/usr/bin/env", ["swift", "package", "--package-path", Self.repository.path, "--scratch-path", scratch.url.path, "dump-package"])
        #expect(r.status == 0, "dump-package failed: \(r.stderr.prefix(1000))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        let core = try #require(targets.first { $0["name"] as? String == "MovieMakerCore" }, "no MovieMakerCore target")
        #expect((core["dependencies"] as? [Any] ?? []).isEmpty, "MovieMakerCore must depend on nothing: \(core["dependencies"] ?? "")")
        let library = try #require(targets.first { $0["name"] as? String == "MovieMaker" })
        #expect("\(library["dependencies"] ?? "")".contains("MovieMakerCore"))
    }

    @Test("no file of the core imports a C module or a MovieMaker module")
    func imports() throws {
        let allowed: Set<String> = ["Foundation", "Synchronization"]
        let root = Self.repository.appendingPathComponent("Sources/MovieMakerCore")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var files = 0
        var offending: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            files += 1
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").map { String($0) }
                guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) }),
                      i + 1 < words.count else { continue }
                let module = words[i + 1].split(separator: ".").first.map { String($0) } ?? ""
                if !allowed.contains(module) { offending.append("\(url.lastPathComponent): \(line)") }
            }
        }
        #expect(files >= 30, "found only \(files) Swift files under \(root.path)")
        #expect(offending.isEmpty, "the core imports modules outside \(allowed.sorted()): \(offending)")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// MovieMaker as a dependency of someone else's package, as the README's "In your own package" shows
/// it: a package outside the repository (in a temporary folder) depends on this checkout by path.
/// `make test` checks that its Package.swift resolves and that its main.swift renders the movie (run as
/// a script against the library already built); `make test-package` also builds that package from
/// scratch in debug, runs it and reads its movie back.
@Suite("MovieMaker as a dependency of another package")
struct DependencyTests {
    /// The README's two snippets of the section: the Package.swift fragment and main.swift.
    static func readmeSnippets() throws -> (manifest: String, main: String) {
        let readme = try String(contentsOf: DocSnippetTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let snippets = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        guard let manifest = snippets.first(where: { $0.hasPrefix("// Package.swift") }),
              let main = snippets.first(where: { $0.hasPrefix("// Sources/MyFilm/main.swift") }) else {
            throw MovieMakerError(code: .invalidSetting, message: "README.md has no Package.swift and main.swift snippets for MyFilm")
        }
        return (manifest, main)
    }

    @Test("The README's apt-get command and the set-up script install every system package Package.swift's libraries come from")
    func theReadmeInstallsEverySystemPackageTheBuildNeeds() throws {
        let root = DocSnippetTests.repository
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Every `.apt([...])` provider's packages.
        var needed: [String] = []
        for part in manifest.components(separatedBy: ".apt([").dropFirst() {
            let list = part.components(separatedBy: "])")[0]
            needed += list.components(separatedBy: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"\n")) }.filter { !$0.isEmpty }
        }
        #expect(needed.count >= 20, "Package.swift's providers were read: \(needed)")
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let command = readme.components(separatedBy: "sudo apt-get install").dropFirst().first?.components(separatedBy: "```")[0] ?? ""
        let readmePackages = Set(command.split(whereSeparator: { $0 == " " || $0 == "\\" || $0 == "\n" }).map(String.init))
        let script = try String(contentsOf: root.appendingPathComponent("scripts/install-deps.sh"), encoding: .utf8)
        let scriptPackages = Set(script.components(separatedBy: "PACKAGES=(").dropFirst().first?.components(separatedBy: "\n)")[0]
            .split(separator: "\n").flatMap { $0.components(separatedBy: "#")[0].split(separator: " ").map(String.init) } ?? [])
        let missingFromReadme = needed.filter { !readmePackages.contains($0) }
        let missingFromScript = needed.filter { !scriptPackages.contains($0) }
        #expect(missingFromReadme.isEmpty, "README.md's apt-get command lacks \(missingFromReadme): a package depending on MovieMaker would not build")
        #expect(missingFromScript.isEmpty, "scripts/install-deps.sh lacks \(missingFromScript)")
    }

    /// Whether the slow check (a whole debug build of the library outside the repository, about 200
    /// CPU seconds) runs: `make test-package` sets `MOVIEMAKER_TEST_PACKAGE=1`; `make test` runs the two
    /// quick checks below instead.
    static let buildsThePackage = ProcessInfo.processInfo.environment["MOVIEMAKER_TEST_PACKAGE"] == "1"

    /// A package `MyFilm` in a temporary folder, beside a link named `MovieMaker` to this checkout (the
    /// README's path is ../MovieMaker, and a path dependency is named after its folder), whose
    /// Package.swift is the README's fragment and whose main.swift is `main`.
    static func outsidePackage(main: String) throws -> (folder: TemporaryFolder, package: URL) {
        let (fragment, _) = try readmeSnippets()
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(at: folder.file("MovieMaker"), withDestinationURL: DocSnippetTests.repository)
        let package = folder.file("MyFilm")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/MyFilm"), withIntermediateDirectories: true)
        let body = fragment.split(separator: "\n").filter { !$0.hasPrefix("// Package.swift") }.joined(separator: "\n")
        let manifest = "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n    name: \"MyFilm\",\n\(body)\n)\n"
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try main.write(to: package.appendingPathComponent("Sources/MyFilm/main.swift"), atomically: true, encoding: .utf8)
        return (folder, package)
    }

    /// The README's main.swift at 320×240, so a test renders it quickly.
    static func smallMain() throws -> String {
        let readmeMain = try readmeSnippets().main
        let main = readmeMain.replacingOccurrences(of: "1920", with: "320").replacingOccurrences(of: "1080", with: "240")
        #expect(main != readmeMain, "the README's main.swift no longer names 1920×1080: update this test's size change")
        return main
    }

    /// Two 4-second title cards crossfading over 1 s at 30 fps, 320×240: "My film" then "The end".
    static func checkFilm(_ movie: URL) throws {
        let reader = try MovieReader(url: movie)
        #expect(reader.info.width == 320 && reader.info.height == 240)
        #expect(reader.info.frameRate == 30)
        let frames = try decodeAll(movie)
        #expect(frames.count == 210)
        if frames.count == 210 { #expect(frames[30].pixels != frames[180].pixels) }
    }

    @Test("the README's Package.swift, in a package beside this checkout, resolves: SwiftPM finds the product MovieMaker in the package named after the folder")
    func theReadmeManifestResolves() throws {
        let (folder, package) = try Self.outsidePackage(main: "print(\"MyFilm\")\n")
        defer { withExtendedLifetime(folder) {} }
        // show-dependencies loads the whole package graph: a product or package name that does not
        // match, or a build setting SwiftPM refuses in a dependency, fails here as it would in a build.
        let r = try run("/usr/bin/env", ["swift", "package", "--package-path", package.path, "show-dependencies"])
        #expect(r.status == 0, "the README's Package.swift does not resolve against this checkout:\n\(r.stderr.suffix(3000))")
        #expect(r.stdout.lowercased().contains("moviemaker"), "the dependency is not in the graph: \(r.stdout)")
    }

    @Test("the README's main.swift, as a script against the built library, renders the two title cards that read back")
    func theReadmeMainRenders() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let script = folder.file("main.swift")
        try Self.smallMain().write(to: script, atomically: true, encoding: .utf8)
        // Swift 6 mode, as the README's package (swift-tools-version 6.0) compiles main.swift.
        let r = try CLI.run(["run", "--debug", "--swift-version", "6", script.path], in: folder.url)
        #expect(r.status == 0, "the README's main.swift failed:\n\(r.stderr.suffix(3000))")
        guard r.status == 0 else { return }
        try Self.checkFilm(folder.file("film.mp4"))
    }

    @Test("a package outside the repository that depends on this checkout by path, as the README says, builds and renders a movie that reads back (make test-package)",
          .enabled(if: buildsThePackage, "a whole second build of the library: make test-package"))
    func anOutsidePackageBuildsAndRenders() throws {
        let (folder, package) = try Self.outsidePackage(main: try Self.smallMain())
        defer { withExtendedLifetime(folder) {} }
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", package.path])
        #expect(build.status == 0, "swift build failed:\n\(build.stderr.suffix(3000))\n\(build.stdout.suffix(3000))")
        guard build.status == 0 else { return }
        let binary = package.appendingPathComponent(".build/debug/MyFilm")
        let film = try run("/bin/sh", ["-c", "cd '\(package.path)' && '\(binary.path)'"])
        #expect(film.status == 0, "MyFilm failed:\n\(film.stderr)")
        try Self.checkFilm(package.appendingPathComponent("film.mp4"))
    }
}

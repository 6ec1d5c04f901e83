import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// MovieMaker as a dependency of someone else's package, as the README's "In your own package" shows
/// it: a package outside the repository (in a temporary folder) depends on this checkout by path,
/// builds in debug, renders a movie, and the movie is read back.
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

    @Test("a package outside the repository that depends on this checkout by path, as the README says, builds and renders a movie that reads back")
    func anOutsidePackageBuildsAndRenders() throws {
        let (fragment, readmeMain) = try Self.readmeSnippets()
        let folder = try TemporaryFolder()
        // The README's path is ../MovieMaker, so the checkout is linked under that name beside the package
        // (a path dependency is named after its folder).
        try FileManager.default.createSymbolicLink(at: folder.file("MovieMaker"), withDestinationURL: DocSnippetTests.repository)
        let package = folder.file("MyFilm")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/MyFilm"), withIntermediateDirectories: true)
        let body = fragment.split(separator: "\n").filter { !$0.hasPrefix("// Package.swift") }.joined(separator: "\n")
        let manifest = "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n    name: \"MyFilm\",\n\(body)\n)\n"
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // The README's main.swift, at 320×240 so the test renders quickly.
        let main = readmeMain.replacingOccurrences(of: "1920", with: "320").replacingOccurrences(of: "1080", with: "240")
        #expect(main != readmeMain, "the README's main.swift no longer names 1920×1080: update this test's size change")
        try main.write(to: package.appendingPathComponent("Sources/MyFilm/main.swift"), atomically: true, encoding: .utf8)

        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", package.path])
        #expect(build.status == 0, "swift build failed:\n\(build.stderr.suffix(3000))\n\(build.stdout.suffix(3000))")
        guard build.status == 0 else { return }
        let binary = package.appendingPathComponent(".build/debug/MyFilm")
        let film = try run("/bin/sh", ["-c", "cd '\(package.path)' && '\(binary.path)'"])
        #expect(film.status == 0, "MyFilm failed:\n\(film.stderr)")

        // Read back: two 4-second title cards crossfading over 1 s at 30 fps, 320×240.
        let movie = package.appendingPathComponent("film.mp4")
        let reader = try MovieReader(url: movie)
        #expect(reader.info.width == 320 && reader.info.height == 240)
        #expect(reader.info.frameRate == 30)
        let frames = try decodeAll(movie)
        #expect(frames.count == 210)
        // "My film" then "The end": the two cards are different pictures.
        if frames.count == 210 { #expect(frames[30].pixels != frames[180].pixels) }
    }
}

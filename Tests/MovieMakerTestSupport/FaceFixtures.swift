import Foundation
import MovieMaker

/// A photo of a face for the reframing tests: the `astronaut` picture (Eileen Collins, NASA, public
/// domain) that scikit-image ships, taken from its wheel on the Python package index (a pinned file,
/// checked by SHA-256) into `.build/test-fixtures/` once. Nil, with the reason, when the index is out of
/// reach (the tests that need it are then skipped with that reason).
public enum FaceFixtures {
    /// scikit-image 0.26.0's wheel for CPython 3.12 on x86-64 Linux, and its SHA-256 (from PyPI).
    static let wheel = URL(string: "https://files.pythonhosted.org/packages/f4/a2/70401a107d6d7466d64b466927e6b96fcefa99d57494b972608e2f8be50f/scikit_image-0.26.0-cp312-cp312-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl")!
    static let wheelSHA256 = "7df650e79031634ac90b11e64a9eedaf5a5e06fcd09bcd03a34be01745744466"

    /// The astronaut photo (512×512 PNG; her face is the box x 177…270, y 67…160), or why there is none.
    public static let astronaut: Result<URL, FixtureUnavailable> = fetchAstronaut()

    /// Whether the photo is at hand (for `.enabled(if:)`).
    public static var hasAstronaut: Bool { (try? astronaut.get()) != nil }

    /// Why a fixture could not be had.
    public struct FixtureUnavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private static func fetchAstronaut() -> Result<URL, FixtureUnavailable> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent(".build/test-fixtures")
        let png = folder.appendingPathComponent("astronaut.png")
        if FileManager.default.fileExists(atPath: png.path) { return .success(png) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let whl = folder.appendingPathComponent("scikit-image.whl.partial-\(ProcessInfo.processInfo.processIdentifier)")
            defer { try? FileManager.default.removeItem(at: whl) }
            let got = try run("/usr/bin/env", ["curl", "-sSfL", "--max-time", "120", "-o", whl.path, wheel.absoluteString])
            guard got.status == 0 else { return .failure(FixtureUnavailable(description: "the Python package index is out of reach (curl: \(got.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")) }
            let sum = try run("/usr/bin/env", ["sha256sum", whl.path])
            guard sum.stdout.hasPrefix(wheelSHA256) else { return .failure(FixtureUnavailable(description: "scikit-image's wheel did not match its SHA-256")) }
            let extracted = folder.appendingPathComponent("astronaut.png.partial-\(ProcessInfo.processInfo.processIdentifier)")
            let unzip = try run("/bin/sh", ["-c", "unzip -p '\(whl.path)' skimage/data/astronaut.png > '\(extracted.path)'"])
            guard unzip.status == 0 else { return .failure(FixtureUnavailable(description: "cannot unpack astronaut.png: \(unzip.stderr)")) }
            // Renamed into place: a test running at the same time never reads half a file.
            if rename(extracted.path, png.path) != 0 { try? FileManager.default.removeItem(at: extracted) }
            return .success(png)
        } catch {
            return .failure(FixtureUnavailable(description: "cannot fetch scikit-image's astronaut photo: \(error)"))
        }
    }
}

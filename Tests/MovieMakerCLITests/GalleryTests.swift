import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// The example gallery (issue 35, item 3): every script in `examples/gallery/` is run through the built
/// `moviemaker run` as a user would, with `--small`, and the movie it makes is decoded and looked at:
/// a short preview at the small size, whose picture moves and is never one flat colour. So the examples
/// keep compiling and keep making what they claim as the library changes.
@Suite("examples/gallery scripts")
struct GalleryTests {
    /// The checkout: three folders up from this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `examples/gallery`.
    static let galleryFolder = repository.appendingPathComponent("examples/gallery")
    /// The gallery scripts' file names (`bar-chart.swift`, …), sorted.
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: galleryFolder.path)) ?? [])
        .filter { $0.hasSuffix(".swift") }.sorted()
    /// The size every script renders with `--small`.
    static let smallSize = (width: 320, height: 180)

    @Test func thereAreAtLeastTwelveExamples() {
        #expect(Self.names.count >= 12, "examples/gallery: \(Self.names)")
    }

    /// Each script is listed in the gallery's README and shown on docs/gallery.md (with its poster,
    /// which `scripts/gallery.sh` writes).
    @Test func everyExampleIsListedInTheReadmeAndTheDocs() throws {
        let readme = try String(contentsOf: Self.galleryFolder.appendingPathComponent("README.md"), encoding: .utf8)
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/gallery.md"), encoding: .utf8)
        for name in Self.names {
            let stem = String(name.dropLast(".swift".count))
            #expect(readme.contains(name), "examples/gallery/README.md does not list \(name)")
            #expect(page.contains("gallery/\(stem).png") && page.contains("examples/gallery/\(name)"),
                    "docs/gallery.md does not show \(name) (its poster gallery/\(stem).png and its command)")
        }
    }

    /// The widest spread of one channel over the picture: 0 for a frame of one flat colour.
    static func colourSpread(_ p: PixelBuffer) -> Int {
        let ranges = channelRanges(p)
        return [ranges.red, ranges.green, ranges.blue].map { $0.map { $0.upperBound - $0.lowerBound } ?? 0 }.max() ?? 0
    }

    /// The fraction of pixels where `a` and `b` differ by more than `tolerance` in some channel (more
    /// than the encoder's noise).
    static func changedFraction(_ a: PixelBuffer, _ b: PixelBuffer, tolerance: Int = 24) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        var changed = 0
        a.bytes.withUnsafeBufferPointer { x in
            b.bytes.withUnsafeBufferPointer { y in
                for i in stride(from: 0, to: x.count, by: 4) {
                    if (0..<3).contains(where: { abs(Int(x[i + $0]) - Int(y[i + $0])) > tolerance }) { changed += 1 }
                }
            }
        }
        return Double(changed) / Double(a.width * a.height)
    }

    @Test(arguments: names)
    func makesASmallMovieThatMoves(_ name: String) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let script = Self.galleryFolder.appendingPathComponent(name)
        let movie = folder.file(String(name.dropLast(".swift".count)) + ".mp4")
        // From the temporary folder, so anything a script writes beside its output stays there.
        let r = try CLI.run(["run", script.path, "--", movie.path, "--small"], in: folder.url)
        try #require(r.status == 0, "moviemaker run \(name) -- OUT --small: exit status \(r.status): \(r.stderr)")

        var frames: [PixelBuffer] = []
        try MovieReader(url: movie).decodeFrames { frames.append($0.pixels); return true }
        #expect((10...60).contains(frames.count), "\(name): \(frames.count) frames; --small should make about a second (10 to 60)")
        let sizes = Set(frames.map { "\($0.width)x\($0.height)" })
        #expect(sizes == ["\(Self.smallSize.width)x\(Self.smallSize.height)"], "\(name): frames of \(sizes), expected \(Self.smallSize.width)x\(Self.smallSize.height)")
        guard let first = frames.first, let last = frames.last, frames.count > 1 else { return }

        let changed = Self.changedFraction(first, last)
        #expect(changed > 0.01, "\(name): the first and last frames differ in \(String(format: "%.2f", changed * 100)) % of the pixels; the picture should move")
        // A flat colour decodes with a spread of a few levels; a dark gradient alone has over 20.
        for (i, frame) in frames.enumerated() {
            let spread = Self.colourSpread(frame)
            #expect(spread > 16, "\(name): frame \(i) is (nearly) one flat colour (channel spread \(spread))")
            if spread <= 16 { break }
        }
    }
}

import CHeif
import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Issue 17, item 12: the fuzz targets' corpora. `make fuzz` runs the libFuzzer binary
// (`moviemaker-fuzz`, Sources/MovieMakerFuzz) on each `FuzzTarget` starting from the seeds this suite
// generates (written out when MOVIEMAKER_FUZZ_SEEDS names a folder) and from the stored corpus in
// `Tests/FuzzCorpus/<target>/`, where inputs worth keeping go: every input that once crashed, once
// fixed, and a minimised corpus from past runs. Here both are replayed through the same entry point, so
// a fixed crash stays fixed. A crash or trap ends the test process, naming nothing; the suite therefore
// prints each stored file's name before feeding it when MOVIEMAKER_FUZZ_VERBOSE is set.

/// Seeds for each fuzz target: small valid inputs of every kind the target reads, made by the test
/// fixtures (libjpeg, libpng, libwebp, libheif, ffmpeg for sound) or written out here.
enum FuzzTargetSeeds {
    /// The seeds of `target`, each with a file name.
    static func make(_ target: FuzzTarget, in folder: TemporaryFolder) throws -> [(name: String, data: Data)] {
        switch target {
        case .photo: return try photos(in: folder)
        case .audio: return try sounds(in: folder)
        case .svgPath:
            return texts("path", ["M10 10 L90 90 Z", "M10-20.5.5.5h5v5H0V0z", "m0 0c1 2 3 4 5 6s7 8 9 10",
                                  "M0 0q10 10 20 0t20 0", "M10 80 A45 45 0 0 0 125 125 L125 80 Z",
                                  "M0,0 a25,25 -30 1,1 50,-25", "M 1e2 1E-2 l .5.5"])
        case .cssColor:
            return texts("color", ["#fff", "#ffcc00", "#ffcc0080", "rgb(255 0 0)", "rgba(0, 128, 255, 0.5)",
                                   "hsl(120deg 100% 50%)", "hsla(240, 100%, 50%, .3)", "rebeccapurple", "transparent",
                                   "rgb(100% 0% 0% / 50%)"])
        case .easing:
            return texts("easing", ["linear", "quadOut", "ease-in-out", "cubic-bezier(0.25, 0.1, 0.25, 1)",
                                    "spring", "spring(1, 100, 10, 0)", "hold", "sineInOut.reversed",
                                    "expoOut.squished(into: 0.2...0.8)", "quadIn.then(bounceOut, at: 0.3)", "back-out.mirrored"])
        case .description: return try descriptions()
        case .subtitles:
            return texts("subtitles", [
                "1\n00:00:00,000 --> 00:00:01,500\nHello <i>there</i>\n\n2\n00:00:01,500 --> 00:00:03,000\n<b>Two</b>\nlines\n",
                "WEBVTT\n\n00:00.000 --> 00:01.000 line:10% position:20% align:start\nHello\n\nNOTE a note\n\ncue-2\n00:01.000 --> 00:02.000\n<i>مرحبا</i> 世界\n",
            ])
        case .cubeLUT:
            return texts("lut", [
                "TITLE \"identity\"\nLUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n",
                "# comment\nLUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 1\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n",
            ])
        case .sticker:
            let frames = StickerFixtures.frames(halfAlpha: true)
            let side = StickerFixtures.side
            return [("sticker.gif", Data(FixtureGIF.data(width: side, height: side, frames: frames))),
                    ("sticker.png", Data(FixtureAPNG.data(width: side, height: side, frames: frames))),
                    ("sticker.webp", Data(try FixtureAnimatedWebP.data(width: side, height: side, frames: frames)))]
        }
    }

    /// Each text as a seed named `<stem>-<n>.txt`.
    private static func texts(_ stem: String, _ texts: [String]) -> [(name: String, data: Data)] {
        texts.enumerated().map { ("\(stem)-\($0.offset).txt", Data($0.element.utf8)) }
    }

    /// Small photos in every format the decoder reads natively, with EXIF orientation and ICC variants.
    private static func photos(in folder: TemporaryFolder) throws -> [(name: String, data: Data)] {
        let picture = RGBAPicture.quadrants(width: 24, height: 16)
        var seeds: [(name: String, data: Data)] = [
            ("rgb.jpg", FixtureJPEG.data(picture)),
            ("gray.jpg", FixtureJPEG.data(picture, colors: .gray)),
            ("cmyk.jpg", FixtureJPEG.data(picture, colors: .cmykInverted)),
            ("progressive.jpg", FixtureJPEG.data(picture, progressive: true, fullChroma: false)),
            ("exif6.jpg", FixtureJPEG.data(picture, markers: [FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 6))])),
            ("lossless.webp", Data(FixtureWebP.lossless(picture))),
            ("lossy.webp", Data(FixtureWebP.lossy(picture))),
        ]
        for (name, kind) in [("rgba8", FixturePNG.Kind.rgba8), ("rgb16", .rgb16), ("gray-alpha", .grayAlpha8), ("palette", .palette)] {
            let url = folder.file("\(name).png")
            FixturePNG.write(picture, kind: kind, to: url, interlaced: name == "palette")
            seeds.append(("\(name).png", try Data(contentsOf: url)))
        }
        if FixtureHEIC.hasEncoder(heif_compression_HEVC) {
            let url = folder.file("photo.heic")
            try FixtureHEIC.write(picture, to: url, orientation: 6)
            seeds.append(("photo.heic", try Data(contentsOf: url)))
        }
        return seeds
    }

    /// A fifth of a second of sound in the containers and codecs people hand over.
    private static func sounds(in folder: TemporaryFolder) throws -> [(name: String, data: Data)] {
        var seeds: [(name: String, data: Data)] = []
        let wav = folder.file("tone.wav")
        try AudioInTesting.makeWAV(wav, rate: 8_000, seconds: 0.2)
        seeds.append(("tone.wav", try Data(contentsOf: wav)))
        for (name, codec) in [("tone.flac", "flac"), ("tone.mp3", "libmp3lame"), ("tone.m4a", "aac"), ("tone.ogg", "libvorbis"), ("tone.opus", "libopus")] {
            let url = folder.file(name)
            try AudioInTesting.ffmpeg(["-i", wav.path, "-c:a", codec, "-ar", codec == "libopus" ? "48000" : "8000", url.path])
            seeds.append((name, try Data(contentsOf: url)))
        }
        return seeds
    }

    /// The example description files and a few of every item kind.
    private static func descriptions() throws -> [(name: String, data: Data)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var seeds: [(name: String, data: Data)] = []
        for folder in ["examples/specs", "examples/distributed"] {
            let url = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".json") {
                seeds.append((name, try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        // The description fuzz test's seeds: every item type, transition, template slot and setting.
        for (i, text) in FuzzSeeds.all.enumerated() { seeds.append(("mutation-seed-\(i).json", Data(text.utf8))) }
        return seeds
    }
}

@Suite("Fuzz corpora: seeds and stored inputs replay through each fuzz target")
struct FuzzCorpusTests {
    /// `Tests/FuzzCorpus` in this checkout.
    static let corpusRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus")

    /// Every target has seeds, and each seed goes through its entry point (and is written to
    /// `$MOVIEMAKER_FUZZ_SEEDS/<target>/` for `make fuzz`).
    @Test(arguments: FuzzTarget.allCases)
    func seedsReplay(target: FuzzTarget) throws {
        let folder = try TemporaryFolder("fuzz-seeds-\(target.rawValue)")
        let seeds = try FuzzTargetSeeds.make(target, in: folder)
        #expect(seeds.count >= 2, "too few seeds for \(target.rawValue)")
        if let out = ProcessInfo.processInfo.environment["MOVIEMAKER_FUZZ_SEEDS"], !out.isEmpty {
            let dir = URL(fileURLWithPath: out).appendingPathComponent(target.rawValue)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for seed in seeds { try seed.data.write(to: dir.appendingPathComponent(seed.name)) }
        }
        for seed in seeds { target.consume(seed.data) }
    }

    /// The seeds are meaningful: valid ones parse (a target whose seeds all fail would fuzz only the
    /// first bytes of its parser).
    @Test func seedsAreValidInput() throws {
        let folder = try TemporaryFolder()
        for seed in try FuzzTargetSeeds.make(.photo, in: folder) {
            let url = folder.file("check-" + seed.name)
            try seed.data.write(to: url)
            #expect(throws: Never.self, "\(seed.name)") { _ = try PhotoDecoder.decode(url, fitting: Size(width: 64, height: 64)) }
        }
        for seed in try FuzzTargetSeeds.make(.audio, in: folder) {
            let url = folder.file("check-" + seed.name)
            try seed.data.write(to: url)
            #expect(throws: Never.self, "\(seed.name)") { _ = try AudioFile(url: url) }
        }
        for seed in try FuzzTargetSeeds.make(.description, in: folder) {
            #expect(throws: Never.self, "\(seed.name)") { _ = try Timeline(jsonData: seed.data) }
        }
        for seed in try FuzzTargetSeeds.make(.svgPath, in: folder) {
            #expect(throws: Never.self, "\(seed.name)") { _ = try Path(svg: String(decoding: seed.data, as: UTF8.self)) }
        }
        for seed in try FuzzTargetSeeds.make(.cssColor, in: folder) {
            #expect(throws: Never.self, "\(seed.name)") { _ = try Color(css: String(decoding: seed.data, as: UTF8.self)) }
        }
        for seed in try FuzzTargetSeeds.make(.easing, in: folder) {
            #expect(throws: Never.self, "\(seed.name)") { _ = try Easing(named: String(decoding: seed.data, as: UTF8.self)) }
        }
        for seed in try FuzzTargetSeeds.make(.cubeLUT, in: folder) {
            #expect(throws: Never.self, "\(seed.name)") { _ = try CubeLUT(parsing: String(decoding: seed.data, as: UTF8.self)) }
        }
        let subtitles = try FuzzTargetSeeds.make(.subtitles, in: folder)
        #expect(throws: Never.self) { _ = try SubtitleTrack(srt: String(decoding: subtitles[0].data, as: UTF8.self)) }
        #expect(throws: Never.self) { _ = try SubtitleTrack(webVTT: String(decoding: subtitles[1].data, as: UTF8.self)) }
    }

    /// The stored corpus of each target (inputs that once crashed and a minimised corpus from past
    /// `make fuzz` runs) goes through its entry point without a trap.
    @Test(arguments: FuzzTarget.allCases)
    func storedCorpusReplays(target: FuzzTarget) throws {
        let folder = Self.corpusRoot.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(!names.isEmpty, "no stored corpus in \(folder.path)")
        let verbose = ProcessInfo.processInfo.environment["MOVIEMAKER_FUZZ_VERBOSE"] != nil
        for name in names {
            if verbose { print("fuzz corpus: \(target.rawValue)/\(name)") }
            target.consume(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }
}

import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Incremental renders (`render --cache`): segments named by what they show, so an edit re-renders only
/// the segments it changed; the joined movie decodes to a full render's frames (lossless), or keeps its
/// frame count, timestamps and sound (lossy). Movies are decoded, never trusted.
@Suite("Incremental renders", .serialized)
struct IncrementalRenderTests {
    /// A 3-minute description at 128x96, 5 fps (small and sparse: the test is about which segments render): a video, photos (one moving in close) and colours on
    /// the video track with crossfades, and a title every 30 s on the overlay track. `title4` is the
    /// text of the title at 100–103 s.
    static func spec(title4: String = "Fourth", crf: Int? = nil, lossless: Bool = true, music: Bool = false, items count: Int = 12) -> String {
        var items: [String] = []
        for k in 0..<count {
            let source: String
            switch k % 4 {
            case 0: source = #"{"type": "video", "source": {"file": "clip.mp4"}, "duration": "15s", "fit": "fill"}"#
            case 1: source = #"{"type": "photo", "source": {"file": "a.png"}, "duration": "15s", "kenBurns": {"from": {"x": 0, "y": 0, "width": 1, "height": 1}, "to": {"x": 0.2, "y": 0.2, "width": 0.6, "height": 0.6}}}"#
            case 2: source = #"{"type": "photo", "source": {"file": "b.png"}, "duration": "15s"}"#
            default: source = "{\"type\": \"color\", \"color\": \"#" + String(format: "%02x", 20 * k) + "4080\", \"duration\": \"15s\"}"
            }
            // The last item lasts 11 s longer: 12 items of 15 s less 11 one-second crossfades, plus 11 s, make 3 minutes.
            items.append(k == count - 1 ? source.replacingOccurrences(of: "\"15s\"", with: "\"26s\"") : String(source.dropLast()) + #", "transition": {"name": "fade", "duration": "1s"}}"#)
        }
        let titles = ["First", "Second", "Third", title4, "Fifth", "Sixth"].prefix(count / 2).enumerated().map { k, text in
            #"{"type": "title", "text": "\#(text)", "at": "\#(10 + 30 * k)s", "duration": "3s"}"#
        }
        let encoder = #"{"preset": "ultrafast""# + (lossless ? #", "lossless": true"# : "") + (crf.map { #", "crf": \#($0)"# } ?? "") + "}"
        let audio = music ? #", {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}"# : ""
        return """
            {"version": 1, "output": {"size": "128x96", "fps": 5, "encoder": \(encoder)},
             "tracks": [{"kind": "video", "items": [\(items.joined(separator: ", "))]},
                        {"kind": "overlay", "items": [\(titles.joined(separator: ", "))]}\(audio)]}
            """
    }

    /// A folder with the media: a 15-s clip of fifteen colours, two photos and a 45-s tone.
    static func media() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let colors = (0..<15).map { k in Color(red: Double(k) / 15, green: 1 - Double(k) / 15, blue: 0.5) }
        try Clip.sequence(colors.map { Clip.color($0, duration: 1) }).render(to: folder.file("clip.mp4"), width: 128, height: 96, fps: 5)
        for (name, color) in [("a.png", Color(red: 0.9, green: 0.5, blue: 0.1)), ("b.png", Color(red: 0.1, green: 0.6, blue: 0.5))] {
            let canvas = try Canvas(width: 200, height: 150)
            try canvas.draw { ctx in
                ctx.clear(color)
                ctx.setFill(.black)
                ctx.fillRect(Rect(x: 20, y: 20, width: 60, height: 40))
            }
            try canvas.writePNG(to: folder.file(name))
        }
        let tone = ProceduralSound(duration: 45) { t in 0.3 * sin(2 * .pi * 330 * t) }
        try tone.writeWAV(to: folder.file("tone.wav"))
        return folder
    }

    static func composition(_ json: String, in folder: TemporaryFolder) throws -> TimelineComposition {
        try Timeline(jsonText: json).composition(Timeline.RenderOptions(mediaFolder: folder.url))
    }

    /// A SHA-256 of every decoded frame's pixels, in order, decoded by MovieMaker's own reader.
    static func frameHashes(_ url: URL) throws -> [String] {
        var hashes: [String] = []
        try MovieReader(url: url).decodeFrames { frame in
            var hash = SHA256()
            hash.update(frame.pixels.bytes)
            hashes.append(hash.hexDigest())
            return true
        }
        return hashes
    }

    @Test("lossless: an edited title re-renders only its segments, and the movie decodes to a full render's frames")
    func anEditReRendersOnlyItsSegments() throws {
        let folder = try Self.media()
        let cache = folder.file("cache")
        let first = try Self.composition(Self.spec(), in: folder).renderIncrementally(to: folder.file("a.mp4"), cache: cache)
        #expect(first.rendered.count == 90 && first.reused.isEmpty, "\(first.description)")
        #expect(first.movie.frameCount == 900)

        // The fourth title (100–103 s: frames 500..<515) changes: the two 2-s segments under it render again.
        let edited = try Self.composition(Self.spec(title4: "Changed"), in: folder)
        let second = try edited.renderIncrementally(to: folder.file("b.mp4"), cache: cache)
        #expect(second.rendered == [500..<510, 510..<520], "\(second.description)")
        #expect(second.reused.count == 88)
        #expect(second.pruned == 2, "the two segments of the old title are gone from the cache")

        try edited.render(to: folder.file("full.mp4"))
        let incremental = try Self.frameHashes(folder.file("b.mp4")), full = try Self.frameHashes(folder.file("full.mp4"))
        #expect(incremental.count == 900)
        let different = zip(incremental, full).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(incremental.count == full.count && different.isEmpty, "frames \(different.prefix(10)) differ from a full render")
        if FFTools.available {
            // A second decoder's opinion: ffmpeg's per-frame MD5 of the decoded YUV.
            let a = try run(FFTools.ffmpeg, ["-v", "error", "-i", folder.file("b.mp4").path, "-map", "0:v", "-f", "framemd5", "-"])
            let b = try run(FFTools.ffmpeg, ["-v", "error", "-i", folder.file("full.mp4").path, "-map", "0:v", "-f", "framemd5", "-"])
            let hashes = { (s: String) in s.split(separator: "\n").filter { !$0.hasPrefix("#") } }
            #expect(hashes(a.stdout).count == 900 && hashes(a.stdout) == hashes(b.stdout), "ffmpeg framemd5 differs")
        }
        let changed = try Self.frameHashes(folder.file("a.mp4")).enumerated().filter { $0.element != full[$0.offset] }.map(\.offset)
        // (The title's first frame of fading in shows nothing of it.)
        #expect(changed.count >= 12 && changed.allSatisfy { (500..<515).contains($0) },
                "the first movie differs from the edited one only under the title: \(changed)")

        let again = try edited.renderIncrementally(to: folder.file("c.mp4"), cache: cache)
        #expect(again.rendered.isEmpty && again.reused.count == 90, "changing nothing renders nothing: \(again.description)")
        let lossy = try Self.composition(Self.spec(title4: "Changed", lossless: false), in: folder)
            .renderIncrementally(to: folder.file("d.mp4"), cache: cache)
        #expect(lossy.rendered.count == 90 && lossy.reused.isEmpty, "other encoder settings render everything: \(lossy.description)")
    }

    @Test("lossy: the joined movie keeps a full render's frame count, timestamps and sound")
    func lossyKeepsTimestampsAndSound() throws {
        let folder = try Self.media()
        // 40 s (two items of 15 s, less a crossfade, plus 11 s) with music.
        let composition = try Self.composition(Self.spec(lossless: false, music: true, items: 2), in: folder)
        let summary = try composition.renderIncrementally(to: folder.file("inc.mp4"), cache: folder.file("cache"))
        #expect(summary.rendered.count == 20 && composition.frameCount == 200)
        try composition.render(to: folder.file("full.mp4"))
        func times(_ url: URL) throws -> [Time] {
            var out: [Time] = []
            try MovieReader(url: url).decodeFrames { out.append($0.presentationTime); return true }
            return out
        }
        let a = try times(folder.file("inc.mp4")), b = try times(folder.file("full.mp4"))
        #expect(a.count == 200 && a == b, "timestamps")
        let soundA = try AudioInTesting.read(AudioFile(url: folder.file("inc.mp4")).makeReader(format: .standard), frames: 40 * 48_000)
        let soundB = try AudioInTesting.read(AudioFile(url: folder.file("full.mp4")).makeReader(format: .standard), frames: 40 * 48_000)
        #expect(soundA == soundB, "the sound track's samples")
    }

    @Test("charts, counters and the built-in generators are reused from the cache: an edit after them renders only its own segment, and the joined movie equals a full render")
    func drawnPicturesAreReused() throws {
        let folder = try TemporaryFolder()
        func spec(last: String, values: String = "[\"x\", 1, 2]") -> String {
            """
            {"version": 1, "output": {"size": "64x48", "fps": 5, "encoder": {"preset": "ultrafast", "lossless": true}},
             "tracks": [{"kind": "video", "items": [
               {"type": "chart", "kind": "bar", "data": [["name", "a", "b"], \(values), ["y", 3, 4]], "duration": "2s"},
               {"type": "chart", "kind": "counter", "to": 120, "duration": "2s"},
               {"type": "generator", "name": "gradient", "params": {"rotation": 90}, "duration": "2s"},
               {"type": "generator", "name": "confetti", "params": {"count": 20}, "duration": "2s"},
               {"type": "color", "color": "\(last)", "duration": "2s"}]}]}
            """
        }
        let cache = folder.file("cache")
        let first = try Timeline(jsonText: spec(last: "red")).composition().renderIncrementally(to: folder.file("a.mp4"), cache: cache)
        #expect(first.rendered.count == 5)
        let edited = try Timeline(jsonText: spec(last: "blue")).composition()
        let second = try edited.renderIncrementally(to: folder.file("b.mp4"), cache: cache)
        #expect(second.rendered == [40..<50] && second.reused.count == 4, "\(second.description)")
        try edited.render(to: folder.file("full.mp4"))
        #expect(try Self.frameHashes(folder.file("b.mp4")) == Self.frameHashes(folder.file("full.mp4")), "the joined movie decodes to a full render's frames")
        // The chart's table is what its segment is named by: a value changed renders that segment again.
        let data = try Timeline(jsonText: spec(last: "blue", values: "[\"x\", 1, 5]")).composition().renderIncrementally(to: folder.file("c.mp4"), cache: cache)
        #expect(data.rendered == [0..<10] && data.reused.count == 4, "\(data.description)")
        // A closure written by hand still has no content of its own to be named by.
        #expect(throws: MovieMakerError.self) { try Clip(duration: 1) { _, _ in }.contentHash() }
        let chart = Chart(.pie, data: ChartData(columns: ["v"], series: [.init("a", values: [1])]))
        #expect(try chart.clip(duration: 1, width: 64, height: 48).contentHash() == chart.clip(duration: 1, width: 64, height: 48).contentHash())
        #expect(try chart.clip(duration: 1, width: 64, height: 48).contentHash() != chart.clip(duration: 1, width: 48, height: 64).contentHash())
        // The key is for hashing only: written as JSON anywhere else, the chart is code, as before.
        #expect(throws: (any Error).self) { try JSONEncoder().encode(ClipJSON(chart.clip(duration: 1, width: 64, height: 48))) }
        var custom = chart
        custom.easing = Easing { $0 * $0 }
        #expect(throws: MovieMakerError.self, "an easing made from a function leaves the chart without a content key") {
            try custom.clip(duration: 1, width: 64, height: 48).contentHash()
        }
    }

    @Test("two renders sharing a cache take turns: both movies are whole, neither loses a segment to the other's pruning")
    func aSharedCacheIsTakenInTurn() throws {
        let folder = try TemporaryFolder()
        let cache = folder.file("cache")
        let specs = ["red", "blue"].map { color in
            #"{"version": 1, "output": {"size": "64x48", "fps": 5, "encoder": {"preset": "ultrafast", "lossless": true}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "4s"}, {"type": "color", "color": ""# + color + #"", "duration": "4s"}]}]}"#
        }
        let outcomes = Mutex<[Int: String]>([:])
        let movies = (0..<4).map { folder.file("m\($0).mp4") }
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            let result: String
            do {
                result = "\(try Timeline(jsonText: specs[k % 2]).composition().renderIncrementally(to: movies[k], cache: cache).movie.frameCount) frames"
            } catch { result = "\(error)" }
            outcomes.withLock { $0[k] = result }
        }
        for k in 0..<4 {
            let outcome = outcomes.withLock { $0[k] }
            #expect(outcome == "40 frames", "render \(k): \(String(describing: outcome))")
            #expect(try Self.frameHashes(folder.file("m\(k).mp4")).count == 40)
        }
    }

    @Test func aCachedRenderIsRefusedForOtherCodecsAndContainers() throws {
        let folder = try Self.media()
        let composition = try Self.composition(Self.spec(), in: folder)
        #expect(throws: MovieMakerError.self) { try composition.renderIncrementally(to: folder.file("x.webm"), cache: folder.file("cache")) }
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.webm").path))
    }
}

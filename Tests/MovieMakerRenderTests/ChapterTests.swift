import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Chapters: written into MP4, MOV, MKV and WebM and read back by ffprobe at their exact times (to the
/// container's precision: milliseconds in a QuickTime chapter track, nanoseconds in Matroska); a
/// description's markers become them, also in a movie assembled from chunks; bad chapters are refused.
@Suite("Chapters: MP4, MOV, MKV, WebM read back by ffprobe; markers; assembled movies; refusals")
struct ChapterTests {
    /// `ffprobe -show_chapters`: each chapter's start and end as exact fractions of a second, and title.
    static func chapters(_ url: URL) throws -> [(start: Rational, end: Rational, title: String)] {
        let r = try run(FFTools.ffprobe, ["-v", "error", "-show_chapters", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return (json["chapters"] as? [[String: Any]] ?? []).map { c in
            let base = (c["time_base"] as? String ?? "1/1").split(separator: "/").map { Int64($0)! }
            func t(_ key: String) -> Rational { Rational((c[key] as! NSNumber).int64Value * base[0], base[1]) }
            return (t("start"), t("end"), (c["tags"] as? [String: String])?["title"] ?? "")
        }
    }

    static let marked = [Chapter("Intro", at: .zero), Chapter("Part two", at: Time(value: 6, timescale: 5)),
                         Chapter("The end", at: Time(value: 61, timescale: 30))]

    @Test("setChapters: ffprobe lists them with their times and titles in .mp4, .mov, .mkv and .webm", arguments: ["mp4", "mov", "mkv", "webm"])
    func written(_ ext: String) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("movie.\(ext)")
        let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 30)
        try movie.setChapters(Self.marked, movieDuration: 3)
        try movie.addFrames(count: 90) { ctx, frame in ctx.clear(frame.index < 36 ? .black : .white) }
        try movie.finish()
        let read = try Self.chapters(url)
        #expect(read.map(\.title) == ["Intro", "Part two", "The end"])
        // MP4 and MOV keep chapters in a QuickTime text track counted in milliseconds; Matroska in nanoseconds.
        let unit: Int64 = ext == "mp4" || ext == "mov" ? 1000 : 1_000_000_000
        func rounded(_ t: Time) -> Rational { Rational((t.value * unit * 2 + t.timescale) / (2 * t.timescale), unit) }
        let expected = [(Time.zero, Time(value: 6, timescale: 5)), (Time(value: 6, timescale: 5), Time(value: 61, timescale: 30)), (Time(value: 61, timescale: 30), Time(3))]
        #expect(read.map(\.start) == expected.map { rounded($0.0) }, "\(ext) starts")
        #expect(read.map(\.end) == expected.map { rounded($0.1) }, "\(ext) ends")
    }

    /// The mov muxer writes its chapter track with no edit list, so its first sample starts at 0 s:
    /// ffprobe and QuickTime read a first chapter at 1 s from 0 s.
    @Test("a first chapter after 0 s starts where it was set: in .mp4 and .mov after an untitled chapter before it", arguments: ["mp4", "mov", "mkv"])
    func aFirstChapterAfterTheStart(_ ext: String) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("late.\(ext)")
        let movie = try MovieMaker(url: url, width: 160, height: 120, fps: 30)
        try movie.setChapters([Chapter("One", at: 1), Chapter("Two", at: 2)], movieDuration: 3)
        try movie.addFrames(count: 90) { ctx, _ in ctx.clear(.black) }
        try movie.finish()
        let read = try Self.chapters(url)
        let named = read.filter { !$0.title.isEmpty }
        #expect(named.map(\.title) == ["One", "Two"] && named.map(\.start) == [Rational(1, 1), Rational(2, 1)], "\(ext): \(read)")
        #expect(read.allSatisfy { $0.title == "One" || $0.title == "Two" || ($0.start == Rational(0, 1) && $0.end == Rational(1, 1)) }, "\(ext): \(read)")
    }

    @Test("bad chapters, chapters after the first frame and chapters in an animated image are refused, naming why")
    func refused() throws {
        let folder = try TemporaryFolder()
        func fresh(_ name: String = "m.mp4") throws -> MovieMaker { try MovieMaker(url: folder.file(name), width: 64, height: 64, fps: 10) }
        let cases: [([Chapter], String)] = [
            ([Chapter("B", at: 1), Chapter("A", at: 0)], "in order"),
            ([Chapter("A", at: 1), Chapter("B", at: 1)], "in order"),
            ([Chapter(" ", at: 0)], "title"),
            ([Chapter("Late", at: 5)], "before the movie ends"),
            ([Chapter("Early", at: Time(value: -1, timescale: 10))], "from 0 s"),
        ]
        for (chapters, fragment) in cases {
            let movie = try fresh()
            let error = try #require(throws: MovieMakerError.self) { try movie.setChapters(chapters, movieDuration: 2) }
            #expect(error.setting == .chapters && error.description.contains(fragment), "\(error)")
            movie.cancel()
        }
        let started = try fresh()
        try started.addFrames(count: 1) { ctx, _ in ctx.clear(.black) }
        #expect(throws: MovieMakerError.self) { try started.setChapters(Self.marked, movieDuration: 3) }
        started.cancel()
        let gif = try fresh("m.gif")
        let error = try #require(throws: MovieMakerError.self) { try gif.setChapters(Self.marked, movieDuration: 3) }
        #expect(error.description.contains(".mp4, .mov, .mkv or .webm"))
        gif.cancel()
        // A movie that ends before its last chapter fails at finish and leaves nothing.
        let short = try fresh("short.mp4")
        try short.setChapters([Chapter("Start", at: 0), Chapter("Later", at: Time(value: 3, timescale: 2))], movieDuration: 2)
        try short.addFrames(count: 10) { ctx, _ in ctx.clear(.black) }
        #expect(throws: MovieMakerError.self) { try short.finish() }
        #expect(!FileManager.default.fileExists(atPath: folder.file("short.mp4").path))
    }

    static let description = """
        {"version": 1, "output": {"size": "160x120", "fps": 15, "encoder": {"preset": "ultrafast"}},
         "markers": [{"name": "Part two", "at": "1s"}, {"name": "Intro", "at": "0s"}, {"name": "Too late", "at": "9s"}],
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "1s"}, {"type": "color", "color": "navy", "duration": "1s"}]}]}
        """

    @Test("a description's markers become chapters (sorted; one past the end left out with a warning), in a single render and an assembled one")
    func markers() throws {
        let folder = try TemporaryFolder()
        let composition = try Timeline(jsonText: Self.description).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(composition.chapters == [Chapter("Intro", at: 0), Chapter("Part two", at: 1)])
        #expect(composition.warnings.contains { $0.contains("Too late") })
        let single = folder.file("single.mkv")
        try composition.render(to: single)
        let expected = [(Rational(0, 1), Rational(1, 1), "Intro"), (Rational(1, 1), Rational(2, 1), "Part two")]
        #expect(try Self.chapters(single).map { "\($0.start) \($0.end) \($0.title)" } == expected.map { "\($0.0) \($0.1) \($0.2)" })
        // Chunks have no chapters; the assembled movie has the description's.
        let job = try DistributedRender(composition: composition, name: "film")
        let chunks = folder.url.appendingPathComponent("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        for k in 0..<2 { try job.renderChunk(k, of: 2, in: chunks) }
        let assembled = folder.file("assembled.mp4")
        try job.assemble(from: chunks, to: assembled)
        #expect(try Self.chapters(assembled).map { "\($0.start) \($0.end) \($0.title)" } == expected.map { "\($0.0) \($0.1) \($0.2)" })
        // A GIF of it simply has none.
        try composition.render(to: folder.file("card.gif"))
    }

    @Test("WebVTT chapters and YouTube lines")
    func texts() throws {
        let vtt = Chapter.webVTT(Self.marked, end: 3)
        let track = try SubtitleTrack(webVTT: vtt, name: "chapters.vtt")
        #expect(track.cues.map(\.text) == ["Intro", "Part two", "The end"])
        #expect(vtt.contains("00:00:01.200 --> 00:00:02.033"))
        #expect(Chapter.youTubeLines([Chapter("Intro", at: 0), Chapter("Part two", at: 80), Chapter("Late", at: 3725)])
                == ["0:00:00 Intro", "0:01:20 Part two", "1:02:05 Late"])
        #expect(Chapter.youTubeLines([Chapter("Intro", at: 0), Chapter("Part two", at: 80)]) == ["0:00 Intro", "1:20 Part two"])
        #expect(Chapter.youTubeProblem(Self.marked, end: 3)?.contains("10 seconds") == true)
        #expect(Chapter.youTubeProblem([Chapter("A", at: 0), Chapter("B", at: 10), Chapter("C", at: 20)], end: 30) == nil)
        #expect(Chapter.youTubeProblem([Chapter("A", at: 5)], end: 30)?.contains("0:00") == true)
    }
}

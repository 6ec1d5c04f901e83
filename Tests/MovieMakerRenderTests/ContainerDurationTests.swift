import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// How long a video stream lasts when its container does not say it per stream: Matroska and WebM
/// with Opus sound (the segment's duration counts from the Opus pre-skip, before the picture), and
/// recordings whose header has no duration at all (a browser's MediaRecorder, a pipe).
@Suite("Video length from Matroska, WebM and recordings without a duration", .serialized)
struct ContainerDurationTests {
    /// 2 s at 30 fps, each frame a grey one level of 3 brighter, with a tone.
    static let source = ["-f", "lavfi", "-i", "color=black:s=160x120:r=30:d=2,format=yuv420p,geq=lum='16+3*N':cb=128:cr=128",
                         "-f", "lavfi", "-i", "sine=d=2"]

    static func frameCount(_ url: URL, in folder: TemporaryFolder) throws -> Int {
        let out = folder.file("out-\(url.deletingPathExtension().lastPathComponent).mp4")
        let movie = try MovieMaker(url: out, width: 160, height: 120, fps: 30, settings: EncoderSettings(crf: 18, preset: .ultrafast))
        try movie.add(try Clip.video(url))
        try movie.finish()
        return try decodeAll(out).count
    }

    @Test("An MKV with Opus sound plays all 60 of its frames, and a trim to its end is accepted")
    func matroskaWithOpusKeepsItsLastFrame() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let mkv = folder.file("opus.mkv")
        try AudioInTesting.ffmpeg(Self.source + ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "libopus", mkv.path])
        let file = try OpenVideo(url: mkv)
        #expect(file.duration == Time(2), "the track's tagged end: \(file.duration.seconds) s")
        #expect(try Self.frameCount(mkv, in: folder) == 60)
        let trimmed = try Timeline(jsonText: #"{"version": 1, "output": {"size": "160x120", "fps": 30}, "tracks": [{"kind": "video", "items": [{"type": "video", "source": "opus.mkv", "in": "1s", "duration": "1s"}]}]}"#)
        let url = folder.file("trimmed.mp4")
        try trimmed.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(try decodeAll(url).count == 30)
    }

    @Test("A WebM written as a live stream (no duration in its header) is read through for its length")
    func liveWebMIsReadThrough() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let webm = folder.file("live.webm")
        try AudioInTesting.ffmpeg(Self.source + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus", "-live", "1", "-f", "webm", webm.path])
        let probe = try run(FFTools.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", webm.path])
        #expect(probe.stdout.contains("N/A"), "the fixture has no duration in its header: \(probe.stdout)")
        let file = try OpenVideo(url: webm)
        #expect(abs(file.duration.seconds - 2) < 0.002, "\(file.duration.seconds) s")
        #expect(try Self.frameCount(webm, in: folder) == 60)
    }

    @Test("Matroska's DURATION tags are read exactly")
    func matroskaTimes() {
        #expect(OpenVideo.matroskaTime("00:00:02.000000000") == Time(2))
        #expect(OpenVideo.matroskaTime("01:02:03.5") == Time(3723.5))
        #expect(OpenVideo.matroskaTime("00:00:01.033000000") == Time(value: 1033, timescale: 1000))
        #expect(OpenVideo.matroskaTime("2.0") == nil && OpenVideo.matroskaTime("00:61:00.0") == nil && OpenVideo.matroskaTime("00:00:01.") == nil)
    }
}

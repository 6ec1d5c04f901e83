import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// `moviemaker beats`, `moviemaker silences` and `stitch --remove-silence` on clips made here.
@Suite("moviemaker beats, silences and stitch --remove-silence")
struct AnalysisCommandTests {
    @Test("silences prints the two silences of a tone clip; stitch --remove-silence keeps 0.1 s of each; beats prints a click track's tempo")
    func commands() throws {
        guard CLI.isBuilt else { return }
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        // 5 s: a tone in [0, 1), [2, 3) and [4, 5) s, silence between, under a test picture.
        let clip = folder.file("talk.mov")
        let made = try run(FFTools.ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=5",
                                            "-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*440*t)*lt(mod(t\\,2)\\,1):s=48000:d=5",
                                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", clip.path])
        try #require(made.status == 0, "\(made.stderr)")

        let silences = try CLI.run(["silences", clip.path, "--json"])
        try #require(silences.status == 0, "\(silences.stderr)")
        let ranges = try JSONSerialization.jsonObject(with: Data(silences.stdout.utf8)) as? [[String: Double]] ?? []
        #expect(ranges.count == 2, "\(silences.stdout)")
        for (r, start) in zip(ranges, [1.0, 3.0]) {
            #expect(abs((r["start"] ?? 0) - start) < 0.003 && abs((r["end"] ?? 0) - start - 1) < 0.003, "\(r)")
        }

        let out = folder.file("tight.mp4")
        let stitched = try CLI.run(["stitch", clip.path, "--remove-silence", "--preset", "ultrafast", "-q", "-o", out.path])
        try #require(stitched.status == 0, "\(stitched.stderr)")
        let stream = try FFTools.videoStream(out)
        // 150 frames less 27 for each silence: [1.05, 1.95) and [3.05, 3.95) s rounded to frames.
        #expect((stream["nb_read_frames"] as? String).flatMap(Int.init) == 96, "\(stream)")

        let clicks = folder.file("clicks.wav")
        let beat = try run(FFTools.ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                                            "aevalsrc=0.8*exp(-mod(t\\,0.5)*60)*sin(2*PI*1000*t):s=44100:d=12", clicks.path])
        try #require(beat.status == 0, "\(beat.stderr)")
        let beats = try CLI.run(["beats", clicks.path, "--json"])
        try #require(beats.status == 0, "\(beats.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(beats.stdout.utf8)) as? [String: Any]
        let tempo = (json?["tempo"] as? NSNumber)?.doubleValue ?? 0
        #expect(abs(tempo - 120) <= 1, "\(beats.stdout)")

        let bad = try CLI.run(["stitch", clip.path, "--silence-threshold", "-30", "-o", folder.file("x.mp4").path])
        #expect(bad.status == 64 && bad.stderr.contains("--remove-silence"), "\(bad.stderr)")
        // Subtitles timed on the clips as recorded would come late after the cuts: refused, as description files do.
        try "1\n00:00:00,000 --> 00:00:01,000\nHello\n".write(to: folder.file("talk.srt"), atomically: true, encoding: .utf8)
        let late = try CLI.run(["stitch", clip.path, "--remove-silence", "--subtitles", folder.file("talk.srt").path, "-o", folder.file("y.mp4").path])
        #expect(late.status == 64 && late.stderr.contains("--subtitles is timed on the clips as recorded"), "\(late.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("y.mp4").path))
    }
}

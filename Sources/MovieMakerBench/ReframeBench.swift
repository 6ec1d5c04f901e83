import Foundation
import MovieMaker

/// The reframe line of `make bench` (issue 40): what following the subject costs. A 1080p30 clip of the
/// video lines (`BenchVideoFolder`) is analysed once on this thread (faces, motion, cuts: every frame
/// decoded, 6 a second searched), timed by the thread's CPU and the wall clock; then the same clip is
/// stitched reframed to 9:16 (1080x1920, x264 `medium`, every core), the analysis now cached, timed by
/// the process's CPU. The analysis's share of a reframed stitch is A / (A + R). Target: under 15 %.
struct ReframeBenchmark {
    let folder: BenchVideoFolder
    var seconds = 10

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let width: Int
        let height: Int
        let frames: Int
        let samples: Int
        let analysisWallSeconds: Double
        let analysisCPUSeconds: Double
        let stitchWallSeconds: Double
        let stitchCPUSeconds: Double
        /// Frames analysed a second (wall clock, one thread).
        var analysisFPS: Double { Double(frames) / max(1e-9, analysisWallSeconds) }
        /// The analysis's share of the CPU of a reframed stitch that analyses.
        var share: Double { analysisCPUSeconds / max(1e-9, analysisCPUSeconds + stitchCPUSeconds) }
        var passes: Bool { share < 0.15 }
    }

    func run() throws -> Result {
        let (urls, _) = try folder.ensure(count: 1, seconds: seconds)
        let url = urls[0]
        let file = try VideoFile(url: url)
        SubjectCache.forget(url)
        let wall0 = wallSeconds(), cpu0 = CPUClock.thread.seconds()
        let samples = try SubjectAnalyser.analyseForBenchmark(url)
        let analysisCPU = CPUClock.thread.seconds() - cpu0, analysisWall = wallSeconds() - wall0

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-reframe-\(getpid()).mp4")
        defer { try? FileManager.default.removeItem(at: out) }
        let clip = try Clip.video(url).reframed(try Reframe(aspect: "9:16"))
        let wall1 = wallSeconds(), cpu1 = CPUClock.process.seconds()
        let movie = try MovieMaker(url: out, width: 1080, height: 1920, fps: FrameRate(BenchVideoFolder.fps), settings: EncoderSettings(preset: .medium))
        try movie.add(clip)
        try movie.finish()
        let stitchCPU = CPUClock.process.seconds() - cpu1, stitchWall = wallSeconds() - wall1
        return Result(width: file.width, height: file.height, frames: file.frameCount ?? Int(file.duration.seconds * 30), samples: samples,
                      analysisWallSeconds: analysisWall, analysisCPUSeconds: analysisCPU,
                      stitchWallSeconds: stitchWall, stitchCPUSeconds: stitchCPU)
    }

    static func line(_ r: Result) -> String {
        [
            "reframe: the analysis of a \(r.width)x\(r.height) clip of \(r.frames) frames (\(r.samples) of them searched for faces), then the clip stitched to 9:16 (1080x1920, medium) with the analysis cached",
            String(format: "    analysis     %.2f s wall, %.2f s CPU on one thread: %.0f frames a second", r.analysisWallSeconds, r.analysisCPUSeconds, r.analysisFPS),
            String(format: "    9:16 stitch  %.2f s wall, %.2f s CPU (every core)", r.stitchWallSeconds, r.stitchCPUSeconds),
            String(format: "    analysis share of a reframed stitch's CPU %.1f %% (target < 15 %%): %@", 100 * r.share,
                   r.passes ? "met" : String(format: "MISSED by %.1f points", 100 * r.share - 15)),
        ].joined(separator: "\n")
    }
}

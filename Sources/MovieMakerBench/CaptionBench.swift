import Foundation
import MovieMaker

/// The captions line of `make bench` (issue 37): what word-by-word captions cost to draw per 1080p
/// frame. Target: under 3 ms.
///
/// A transcript of 2.5 words a second (a talk's pace, words of 3–11 letters, a sentence every eight)
/// is drawn in the `pop` style (a word still scaling in is drawn on its own) over `seconds` at
/// 30 fps into one 1080p canvas, cleared before each frame, on this thread. Clearing alone is timed
/// the same way, A/B/A/B/A/B, so the difference of the thread's CPU, per frame, is the captions' own
/// cost (the warm-up pass pages the transcript and plans its pages, as a render's first frames do).
struct CaptionBenchmark {
    var width = 1920, height = 1080, fps = 30
    /// Length of the captioned clip, in seconds.
    var seconds = 20
    /// The style timed.
    var animation: CaptionStyle.Animation = .pop

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let width: Int
        let height: Int
        let frames: Int
        let words: Int
        let style: String
        /// Process CPU seconds of each pass without captions, and with.
        let emptyCPUSeconds: [Double]
        let captionsCPUSeconds: [Double]
        /// The captions' own CPU per frame, in ms (medians of the passes).
        var perFrameMilliseconds: Double {
            (FilterBenchmark.median(captionsCPUSeconds) - FilterBenchmark.median(emptyCPUSeconds)) * 1000 / Double(max(1, frames))
        }
        var passes: Bool { perFrameMilliseconds < 3 }
    }

    /// The transcript: `seconds × 2.5` words, each spoken for 0.3 s of its 0.4 s slot.
    func transcript() -> Transcript {
        let vocabulary = ["so", "today", "we", "render", "captions", "that", "follow", "every", "spoken", "word",
                          "in", "real", "time", "without", "a", "browser", "or", "cloud", "service", "anywhere"]
        let count = seconds * 5 / 2
        return Transcript(words: (0..<count).map { k in
            let word = vocabulary[(k * 7) % vocabulary.count] + (k % 8 == 7 ? "." : "")
            let start = Time(value: Int64(k * 2), timescale: 5)
            return TranscriptWord(word, start: start, end: start + Time(value: 3, timescale: 10))
        })
    }

    func run() throws -> Result {
        let duration = Time(value: Int64(seconds), timescale: 1)
        let words = transcript()
        guard case let .generator(.captions(leaf), _) = Clip.captions(words, style: CaptionStyle(animation), duration: duration).node else {
            preconditionFailure("Clip.captions makes a captions leaf")
        }
        let rate = FrameRate(fps)
        let frames = rate.frameCount(for: duration)
        let canvas = try Canvas(width: width, height: height)
        // Thread CPU of clearing the canvas alone, and of clearing it and drawing the frame's captions.
        func pass(drawing: Bool) throws -> Double {
            let start = CPUClock.thread.seconds()
            for k in 0..<frames {
                canvas.context.clear()
                if drawing {
                    let t = rate.time(ofFrame: k)
                    try leaf.draw(in: canvas.context, at: Frame(index: k, movieIndex: k, rate: rate, exactTime: t, duration: duration))
                }
            }
            return CPUClock.thread.seconds() - start
        }
        _ = try pass(drawing: true)   // warm-up: fonts, the pages and their plans
        var emptyRuns: [Double] = [], captionRuns: [Double] = []
        for _ in 0..<3 {
            emptyRuns.append(try pass(drawing: false))
            captionRuns.append(try pass(drawing: true))
        }
        return Result(width: width, height: height, frames: frames, words: words.words.count, style: animation.rawValue,
                      emptyCPUSeconds: emptyRuns, captionsCPUSeconds: captionRuns)
    }

    static func line(_ r: Result) -> String {
        var lines = ["captions: \(r.words) words in the \(r.style) style over \(r.frames) frames at \(r.width)x\(r.height), one thread (A/B against clearing the canvas alone)"]
        func runs(_ xs: [Double]) -> String { xs.map { String(format: "%.2f s", $0) }.joined(separator: ", ") }
        lines.append("    clear only   \(runs(r.emptyCPUSeconds)) CPU")
        lines.append("    captions     \(runs(r.captionsCPUSeconds)) CPU")
        lines.append(String(format: "    captions cost %.2f ms CPU a frame (target < 3 ms): %@", r.perFrameMilliseconds,
                            r.passes ? "met" : String(format: "MISSED by %.0f %%", 100 * (r.perFrameMilliseconds / 3 - 1))))
        return lines.joined(separator: "\n")
    }
}

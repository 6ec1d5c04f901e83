import Foundation
import MovieMaker

/// The audiogram line of `make bench` (issue 37): what an audiogram costs to draw per 1080p frame,
/// reading and analysing its sound included. Target: under 2 ms.
///
/// A spectrum of 64 bars over the lower third of a 1080p frame, from 20 s of a voice-like sound (noise
/// through a moving band, coming and going), at 30 fps into one canvas, cleared before each frame, on
/// this thread; clearing alone is timed the same way, A/B/A/B/A/B, so the difference of the thread's
/// CPU, per frame, is the audiogram's own: its sound read, one 4096-point FFT a frame (the release's
/// past frames come from the analysis's cache), the bars drawn. Each pass draws a new clip, so every
/// pass reads and analyses the sound anew.
struct AudiogramBenchmark {
    var width = 1920, height = 1080, fps = 30
    /// Length of the clip, in seconds.
    var seconds = 20

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let width: Int
        let height: Int
        let frames: Int
        let style: String
        let bars: Int
        /// Thread CPU seconds of each pass without the audiogram, and with.
        let emptyCPUSeconds: [Double]
        let audiogramCPUSeconds: [Double]
        /// The audiogram's own CPU per frame, in ms (medians of the passes).
        var perFrameMilliseconds: Double {
            (FilterBenchmark.median(audiogramCPUSeconds) - FilterBenchmark.median(emptyCPUSeconds)) * 1000 / Double(max(1, frames))
        }
        var passes: Bool { perFrameMilliseconds < 2 }
    }

    /// Noise through a band sweeping 300–3000 Hz, fading in and out three times a second (a voice's rhythm).
    func sound() -> ProceduralSound {
        ProceduralSound(duration: Time(value: Int64(seconds), timescale: 1)) { (format: AudioFormat) in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            var low = 0.0, band = 0.0
            return { samples, block in
                let channels = block.format.channelCount
                for i in 0..<block.frameCount {
                    let t = block.seconds(ofFrame: i)
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Double(Int64(bitPattern: state) >> 11) / Double(1 << 52)
                    let centre = 300 + 2700 * (0.5 + 0.5 * sin(2 * .pi * 0.2 * t))
                    let k = min(1, 2 * .pi * centre / Double(format.sampleRate))
                    low += k * (noise - low)
                    band += k * (low - band)
                    let v = Float((low - band) * 4 * (0.5 + 0.5 * sin(2 * .pi * 3 * t)))
                    for c in 0..<channels { samples[i * channels + c] = v }
                }
            }
        }
    }

    func run() throws -> Result {
        let duration = Time(value: Int64(seconds), timescale: 1)
        let visualizer = AudioVisualizer(.spectrum, color: .white, barCount: 64, area: Rect(x: 0.1, y: 0.62, width: 0.8, height: 0.25))
        let rate = FrameRate(fps)
        let frames = rate.frameCount(for: duration)
        let canvas = try Canvas(width: width, height: height)
        let source = sound()
        func pass(drawing: Bool) throws -> Double {
            // A new clip each pass: its sound is read and analysed from the start.
            guard case let .generator(.audiogram(leaf), _) = try Clip.audiogram(of: source, visualizer: visualizer, duration: duration).node else {
                preconditionFailure("Clip.audiogram makes an audiogram leaf")
            }
            let start = CPUClock.thread.seconds()
            for k in 0..<frames {
                canvas.context.clear()
                if drawing {
                    try leaf.draw(in: canvas.context, at: Frame(index: k, movieIndex: k, rate: rate, exactTime: rate.time(ofFrame: k), duration: duration))
                }
            }
            return CPUClock.thread.seconds() - start
        }
        _ = try pass(drawing: true)   // warm-up
        var emptyRuns: [Double] = [], drawnRuns: [Double] = []
        for _ in 0..<3 {
            emptyRuns.append(try pass(drawing: false))
            drawnRuns.append(try pass(drawing: true))
        }
        return Result(width: width, height: height, frames: frames, style: visualizer.style.rawValue, bars: visualizer.barCount,
                      emptyCPUSeconds: emptyRuns, audiogramCPUSeconds: drawnRuns)
    }

    static func line(_ r: Result) -> String {
        var lines = ["audiogram: a \(r.bars)-bar \(r.style) of a voice-like sound over \(r.frames) frames at \(r.width)x\(r.height), one thread (A/B against clearing the canvas alone)"]
        func runs(_ xs: [Double]) -> String { xs.map { String(format: "%.2f s", $0) }.joined(separator: ", ") }
        lines.append("    clear only   \(runs(r.emptyCPUSeconds)) CPU")
        lines.append("    audiogram    \(runs(r.audiogramCPUSeconds)) CPU")
        lines.append(String(format: "    audiogram cost %.2f ms CPU a frame (target < 2 ms): %@", r.perFrameMilliseconds,
                            r.passes ? "met" : String(format: "MISSED by %.0f %%", 100 * (r.perFrameMilliseconds / 2 - 1))))
        return lines.joined(separator: "\n")
    }
}

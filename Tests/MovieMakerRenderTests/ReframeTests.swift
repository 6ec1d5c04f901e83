import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Reframing a landscape clip to 9:16, checked on the decoded movie: a face photo moving across a wider
/// picture stays near the window's middle, the window moves smoothly except at the cut, holds still on
/// a still shot, and the analysis runs once per file content.
// Serialized: both tests analyse clips of the same content, which the subject cache keys by content, so
// one test's `SubjectCache.forget` could drop the other's analysis between its two renders.
@Suite("Reframing", .serialized, .enabled(if: FaceFixtures.hasAstronaut, "\((try? FaceFixtures.astronaut.get()) == nil ? "\(FaceFixtures.astronaut)" : "")"))
struct ReframeTests {
    static let width = 640, height = 360
    static let rate: FrameRate = 30
    /// Shot A: 4 s, the face moving from x 150 to 450; shot B (from frame 120): 2 s, a blue picture, the face still at x 520.
    static let cutFrame = 120, frameCount = 180
    /// The face photo's side in the clip.
    static let faceSide = 150.0

    /// Where the face's centre is in frame `i` of the clip.
    static func faceX(_ i: Int) -> Double { i < cutFrame ? 150 + 300 * Double(i) / Double(cutFrame - 1) : 520 }

    /// The clip: rulers (red = x) in the top and bottom 60 rows, a plain middle band (grey in shot A,
    /// blue in shot B) and the astronaut's face on it.
    static func clip(in folder: TemporaryFolder) throws -> URL {
        let photo = try FaceFixtures.astronaut.get()
        let face = try Image(contentsOf: photo)
        let url = folder.file("walk.mp4")
        let movie = try MovieMaker(url: url, width: width, height: height, fps: rate, settings: EncoderSettings(crf: 16, preset: .ultrafast, drawingThreads: 1))
        try movie.add(Clip(duration: Time(value: Int64(frameCount), timescale: 30)) { ctx, frame in
            let i = frame.index
            ctx.clear(i < cutFrame ? Color(red: 0.43, green: 0.43, blue: 0.43) : Color(red: 0.15, green: 0.25, blue: 0.6))
            for x in 0..<width {
                ctx.setFill(Color(red: Double(x) / Double(width - 1), green: 0, blue: 0.3))
                ctx.fillRect(Rect(x: Double(x), y: 0, width: 1, height: 60))
                ctx.fillRect(Rect(x: Double(x), y: 300, width: 1, height: 60))
            }
            // The photo's 190-pixel square around her face (x 130…320, y 20…210 of 512), at faceSide.
            let s = faceSide / 190
            ctx.withSavedState {
                ctx.clip(to: Rect(x: faceX(i) - faceSide / 2, y: 180 - faceSide / 2, width: faceSide, height: faceSide))
                ctx.draw(face, in: Rect(x: faceX(i) - faceSide / 2 - 130 * s, y: 180 - faceSide / 2 - 20 * s, width: 512 * s, height: 512 * s))
            }
        })
        try movie.finish()
        return url
    }

    /// The window's centre in the clip's x, read from the top ruler of a decoded 9:16 frame.
    static func windowCenter(_ frame: DecodedFrame) -> Double {
        var sum = 0.0, n = 0.0
        for y in Swift.stride(from: 10, to: 50, by: 4) {
            for x in 0..<frame.pixels.width {
                sum += Double(frame.pixels.rgba(x: x, y: y).red); n += 1
            }
        }
        return sum / n / 255 * Double(width - 1)
    }

    /// The first and last columns of a decoded frame's middle band that differ from the plain
    /// background (the face photo's), nil when none does.
    static func faceBox(_ frame: DecodedFrame, background: (Int, Int, Int)) -> (first: Int, last: Int)? {
        var first: Int? = nil, last: Int? = nil
        for x in 0..<frame.pixels.width {
            let differs = Swift.stride(from: 110, to: 250, by: 3).contains { y in
                let p = frame.pixels.rgba(x: x, y: y)
                return abs(Int(p.red) - background.0) + abs(Int(p.green) - background.1) + abs(Int(p.blue) - background.2) > 90
            }
            if differs { first = first ?? x; last = x }
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    @Test("a 9:16 reframe keeps the face in the window's central 60 % in ≥ 95 % of frames, moves ≤ 1 % of the width per frame except at the cut, holds still on the still shot, and analyses the file once")
    func followsTheFace() throws {
        let folder = try TemporaryFolder()
        let url = try Self.clip(in: folder)
        SubjectCache.forget(url)
        let reframe = try Reframe(aspect: "9:16")
        #expect(reframe.window(inWidth: Self.width, height: Self.height) == (202, 360))
        let clip = try Clip.video(url).reframed(reframe)
        let before = SubjectAnalyser.runs(of: url)
        var outputs: [URL] = []
        for (n, threads) in [2, 1].enumerated() {
            let out = folder.file("vertical\(n).mp4")
            let movie = try MovieMaker(url: out, width: 202, height: 360, fps: Self.rate, settings: EncoderSettings(crf: 16, preset: .ultrafast, drawingThreads: threads))
            try movie.add(clip)
            try movie.finish()
            outputs.append(out)
            // The first render analysed the file; the second found it in the cache.
            #expect(SubjectAnalyser.runs(of: url) == before + 1, "after render \(n + 1)")
        }
        let frames = try decodeAll(outputs[0])
        try #require(frames.count == Self.frameCount)
        let centers = frames.map(Self.windowCenter)
        // The face inside the central 60 %: its centre within 30 % of the window's width of the middle.
        // Where the face is in each output frame: where the clip put it, less the window's left edge read
        // from the ruler; checked against the face seen in the frame where none of it is cut off.
        var inside = 0
        for (i, frame) in frames.enumerated() {
            let face = Self.faceX(i) - (centers[i] - 101)
            if abs(face - 101) <= 0.3 * 202 { inside += 1 }
            let bg = i < Self.cutFrame ? (110, 110, 110) : (38, 64, 153)
            guard let seen = Self.faceBox(frame, background: bg) else {
                Issue.record("frame \(i): no face seen (window centred at \(centers[i]))")
                continue
            }
            if seen.first > 0 && seen.last < frame.pixels.width - 1 {
                #expect(abs(Double(seen.first + seen.last) / 2 - face) < 8, "frame \(i): the face is seen at \(seen), expected centred at \(face) (±8 px: the ruler and the face's edges are read from compressed pixels)")
            }
        }
        #expect(Double(inside) >= 0.95 * Double(Self.frameCount), "the face was in the central 60 % in \(inside) of \(Self.frameCount) frames")
        // Smooth: at most 1 % of the source's width (6.4 px) per frame, except at the cut.
        for i in 1..<frames.count where i != Self.cutFrame {
            #expect(abs(centers[i] - centers[i - 1]) <= 0.01 * Double(Self.width), "frame \(i): the window moved \(centers[i] - centers[i - 1]) px")
        }
        // The window moves with the face in shot A, and jumps to it at the cut.
        #expect(centers[Self.cutFrame - 1] - centers[0] > 200, "\(centers[0]) → \(centers[Self.cutFrame - 1])")
        #expect(abs(centers[Self.cutFrame] - centers[Self.cutFrame - 1]) > 20)
        // The still shot: one window throughout (within the ruler's reading noise).
        let still = centers[Self.cutFrame...]
        #expect(still.max()! - still.min()! < 1, "the still shot's window moved between \(still.min()!) and \(still.max()!)")
        // Deterministic: 2 drawing threads and 1 give the same pictures.
        let again = try decodeAll(outputs[1])
        #expect(again.count == frames.count)
        #expect(zip(frames, again).allSatisfy { $0.pixels == $1.pixels }, "the renders on 2 threads and on 1 differ")
    }

    @Test("an analysis cut short by a render of the first shot keeps that shot; the next render resumes at the cut and draws what one whole analysis gives")
    func resumesAfterACut() throws {
        let folder = try TemporaryFolder()
        let url = try Self.clip(in: folder)
        let reframe = try Reframe(aspect: "9:16")
        func render(_ clip: Clip, _ name: String) throws -> [DecodedFrame] {
            let out = folder.file(name)
            let movie = try MovieMaker(url: out, width: 202, height: 360, fps: Self.rate, settings: EncoderSettings(crf: 16, preset: .ultrafast, drawingThreads: 2))
            try movie.add(clip)
            try movie.finish()
            return try decodeAll(out)
        }
        // One whole analysis.
        SubjectCache.forget(url)
        let whole = try render(try Clip.video(url).reframed(reframe), "whole.mp4")
        // Again from nothing: a render of the first 2 s stops the analysis after the first shot…
        SubjectCache.forget(url)
        let runs = SubjectAnalyser.runs(of: url)
        let start = try render(try Clip.video(url).trimmed(from: 0, to: 2).reframed(reframe), "start.mp4")
        #expect(start.count == 60)
        // The render's end stopped the analysis in the second shot (kept: the first shot, and the cut
        // where it stopped) — unless the analysis was quicker and finished: then it is made partial
        // here, so the next render resumes all the same.
        let key = try #require(SubjectCache.key(for: url))
        var kept = try #require(SubjectCache.track(for: key))
        #expect(kept.shots.first?.start == .zero)
        if kept.end == nil {
            kept.shots = Array(kept.shots.prefix(1))
            kept.end = Self.rate.time(ofFrame: Self.cutFrame)
            SubjectCache.store(kept, for: key)
        }
        #expect(kept.shots.count == 1 && kept.end == Self.rate.time(ofFrame: Self.cutFrame), "\(kept.shots.map(\.start)), \(String(describing: kept.end))")
        // …which the next render takes from the cache, analysing only from the cut on.
        let resumed = try render(try Clip.video(url).reframed(reframe), "resumed.mp4")
        #expect(SubjectAnalyser.runs(of: url) == runs + 2)
        #expect(resumed.count == whole.count)
        #expect(zip(resumed, whole).allSatisfy { $0.pixels == $1.pixels }, "the resumed analysis gave other windows than one whole analysis")
        #expect(zip(start, whole).allSatisfy { $0.pixels == $1.pixels })
    }

    /// The analysis sees a turned clip as it is drawn: turned, then mirrored (the display matrix's order),
    /// so a transposing matrix keeps the top-left corner.
    @Test func theAnalysisTurnsThenMirrorsAsTheDisplayMatrixSays() {
        let picture: [UInt8] = [0, 1, 2,
                                3, 4, 5]
        var out: [UInt8] = []
        func turned(_ rotation: Int, _ mirrored: Bool) -> [UInt8] {
            out = [UInt8](repeating: 255, count: 6)
            SubjectAnalyser.turn(picture, width: 3, height: 2, rotation: rotation, mirrored: mirrored, into: &out)
            return out
        }
        #expect(turned(0, true) == [2, 1, 0, 5, 4, 3])
        #expect(turned(90, false) == [3, 0, 4, 1, 5, 2])
        #expect(turned(90, true) == [0, 3, 1, 4, 2, 5], "a transpose")
        #expect(turned(270, true) == [5, 2, 4, 1, 3, 0], "the other diagonal")
        #expect(turned(180, true) == [3, 4, 5, 0, 1, 2], "upside down")
    }
}

import Foundation
import Testing
@testable import MovieMaker

/// How a movie's frames are split into chunks: balanced, contiguous, at least a second each, the
/// same on every worker; and the errors for bad counts and indices.
@Suite("Chunk plans")
struct ChunkPlanTests {
    @Test("ranges cover the movie without gaps or overlaps and differ in length by at most one frame",
          arguments: [(1, 300, 30), (3, 300, 30), (7, 301, 30), (8, 1800, 30), (4, 217, 24)])
    func balancedAndContiguous(chunks: Int, frames: Int, fps: Int) throws {
        let plan = try ChunkPlan(frameCount: frames, frameRate: FrameRate(integerLiteral: fps), count: chunks)
        #expect(plan.count == chunks)
        #expect(plan.ranges.first?.lowerBound == 0 && plan.ranges.last?.upperBound == frames)
        for (a, b) in zip(plan.ranges, plan.ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        let sizes = plan.ranges.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1, "\(sizes)")
        #expect(sizes.min()! >= fps, "every chunk lasts at least a second: \(sizes)")
    }

    @Test("a movie shorter than the chunk count in seconds gets one chunk per whole second; the rest have nothing")
    func shortMovieGetsFewerChunks() throws {
        let plan = try ChunkPlan(frameCount: 75, frameRate: 30, count: 8)  // 2.5 s
        #expect(plan.count == 2 && plan.requestedCount == 8)
        #expect(try plan.range(ofChunk: 0) == 0..<37 && plan.range(ofChunk: 1) == 37..<75)
        #expect(try plan.range(ofChunk: 2) == nil && plan.range(ofChunk: 7) == nil)
        let tiny = try ChunkPlan(frameCount: 10, frameRate: 30, count: 4)
        #expect(tiny.ranges == [0..<10], "a movie under a second is one chunk")
    }

    @Test("30000/1001 fps: a second is 30 frames; the plan depends only on frames, rate and count")
    func ntscRate() throws {
        let rate = FrameRate(numerator: 30000, denominator: 1001)!
        let a = try ChunkPlan(frameCount: 1000, frameRate: rate, count: 7)
        let b = try ChunkPlan(frameCount: 1000, frameRate: rate, count: 7)
        #expect(a == b && a.ranges.map(\.count).min()! >= 30)
        #expect(a.index(of: a.ranges[3]) == 3 && a.index(of: 1..<2) == nil)
    }

    @Test("bad counts and indices name the value and what is allowed")
    func errors() throws {
        #expect(throws: MovieMakerError.self) { try ChunkPlan(frameCount: 100, frameRate: 30, count: 0) }
        do {
            _ = try ChunkPlan(frameCount: 100, frameRate: 30, count: 4).range(ofChunk: 4)
            Issue.record("chunk 4 of 4 should be refused")
        } catch {
            #expect(error.code == .invalidSetting && error.message.contains("4/4") && error.message.contains("from 0 to 3"), "\(error.message)")
        }
        #expect(throws: MovieMakerError.self) { try ChunkPlan(frameCount: 0, frameRate: 30, count: 1) }
        #expect(throws: MovieMakerError.self) { try ChunkPlan(frameCount: 10, frameRate: 30, count: ChunkPlan.maximumCount + 1) }
    }

    @Test("the description says how many chunks of how many frames")
    func describes() throws {
        #expect(try ChunkPlan(frameCount: 301, frameRate: 30, count: 3).description == "3 chunks of 100…101 frames (301 frames at 30 fps)")
    }
}

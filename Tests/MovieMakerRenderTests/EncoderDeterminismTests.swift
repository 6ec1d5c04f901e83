import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The same frames make the same bytes, whatever the process did before: distributed chunks,
/// `addFrames(independent:)` and re-runs rely on it.
@Suite("Encoder determinism")
struct EncoderDeterminismTests {
    /// Fills and frees heap blocks of many sizes with pseudo-random bytes, so memory the encoder gets
    /// next holds garbage (as after other renders in a busy process), not the zeroes of fresh pages.
    static func dirtyTheHeap(seed: UInt64) {
        var state = seed | 1
        var blocks: [UnsafeMutableRawPointer] = []
        for i in 0..<400 {
            let size = 256 << (i % 9)   // 256 B … 64 KiB: below glibc's mmap threshold, so reused
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            let words = block.bindMemory(to: UInt64.self, capacity: size / 8)
            for w in 0..<(size / 8) {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                words[w] = state
            }
            blocks.append(block)
        }
        for block in blocks { block.deallocate() }
    }

    /// A small movie of the independent-frames pictures, encoded as the CI runs do (CRF 20, veryfast).
    static func render(_ url: URL, threads: Int) throws {
        var settings = EncoderSettings(crf: 20, preset: .veryfast)
        settings.threads = threads
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: settings)
        try movie.addFrames(count: 24, IndependentFramesTests.draw)
        try movie.finish()
    }

    @Test("Renders of the same frames are byte-identical, even when run at once on a dirtied heap", arguments: [0, 1])
    func sameBytesOnADirtyHeap(threads: Int) throws {
        // Without the fix about one batch of eight in three disagreed: three batches make a failure likely.
        for round in 0..<3 {
            let folder = try TemporaryFolder()
            let runs = 8
            let urls = (0..<runs).map { folder.file("run\($0).mp4") }
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: runs) { i in
                Self.dirtyTheHeap(seed: UInt64(round * runs + i + 1) &* 0x9E37_79B9_7F4A_7C15)
                do { try Self.render(urls[i], threads: threads) } catch {
                    failures.withLock { $0.append("run \(i): \(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let first = try Data(contentsOf: urls[0])
            #expect(try decodeAll(urls[0]).count == 24)
            for i in 1..<runs {
                let data = try Data(contentsOf: urls[i])
                #expect(data == first, "round \(round): run \(i) (\(data.count) bytes) differs from run 0 (\(first.count) bytes), x264 threads \(threads)")
            }
        }
    }

    @Test("On a CPU with AVX-512, x264 is given its own CPU flags without AVX-512")
    func x264LeavesOutAVX512() throws {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let hasAVX512 = cpuinfo.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.contains(" avx512f") }
        if let flags = VideoEncoder.x264AssemblyWithoutAVX512 {
            #expect(hasAVX512, "flags given although /proc/cpuinfo lists no avx512f")
            #expect(flags & (1 << 16) == 0, "X264_CPU_AVX512 is left out")
            #expect(flags & (1 << 15) != 0, "an AVX-512 CPU keeps AVX2 (X264_CPU_AVX2)")
        } else {
            #expect(!hasAVX512, "/proc/cpuinfo lists avx512f but x264 keeps its AVX-512 functions")
        }
    }
}

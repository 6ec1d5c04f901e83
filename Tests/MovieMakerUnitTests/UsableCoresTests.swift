import Foundation
import Testing
@testable import MovieMaker

/// The cores a render sizes its lanes by: the process's affinity mask, not every core online.
@Suite("Usable cores")
struct UsableCoresTests {
    /// The CPUs the kernel says this process may use (`Cpus_allowed_list` in /proc/self/status: `0-3,6`).
    static func allowedByTheKernel() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        return line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces).split(separator: ",").reduce(0) { total, part in
            let ends = part.split(separator: "-").compactMap { Int($0) }
            return total + (ends.count == 2 ? ends[1] - ends[0] + 1 : 1)
        }
    }

    @Test("The count is the affinity mask's, at most the cores online, and the default lanes follow it")
    func countFollowsTheMask() throws {
        let expected = min(try Self.allowedByTheKernel(), ProcessInfo.processInfo.activeProcessorCount)
        #expect(UsableCores.count == expected)
        #expect(UsableCores.cpus?.count == (try Self.allowedByTheKernel()))
        #expect(EncoderSettings.drawingThreads(0) == min(4, expected))
        #expect(EncoderSettings.drawingThreads(3) == 3)
    }
}

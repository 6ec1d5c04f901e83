import Foundation
import Glibc

/// Which CPU clock a phase was timed with.
///
/// `thread` is the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): right for work that runs
/// on the calling thread only (Cairo drawing, swscale with its default single thread). `process` is
/// user + system time of every thread of the process (`getrusage(RUSAGE_SELF)`), including threads
/// that have already exited: right for x264's worker threads and MovieMaker's encoder thread.
enum CPUClock: String, Encodable, Sendable {
    case thread, process

    /// CPU seconds consumed so far on this clock.
    func seconds() -> Double {
        switch self {
        case .thread:
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        case .process:
            let u = Self.usage(Self.processScope)
            return u.ru_utime.seconds + u.ru_stime.seconds
        }
    }

    /// Minor page faults so far on this clock's scope (the thread or the whole process).
    func minorFaults() -> Int {
        Int(Self.usage(self == .thread ? Self.threadScope : Self.processScope).ru_minflt)
    }

    // getrusage's `who`: RUSAGE_SELF, and RUSAGE_THREAD (a GNU extension Swift's Glibc module does not export).
    private static let processScope = Int32(RUSAGE_SELF.rawValue)
    private static let threadScope: Int32 = 1

    private static func usage(_ who: Int32) -> rusage {
        var u = rusage()
        getrusage(who, &u)
        return u
    }
}

private extension timeval {
    var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}

/// Monotonic wall-clock seconds.
func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Accumulates wall time, CPU time and minor page faults over the blocks passed to `time(_:)`, so a
/// phase can time only some of its work (e.g. the conversions, not the drawing between them).
struct Stopwatch {
    /// The CPU clock the blocks are measured with.
    let clock: CPUClock
    /// Wall seconds summed over the timed blocks.
    private(set) var wall = 0.0
    /// CPU seconds summed over the timed blocks.
    private(set) var cpu = 0.0
    /// Minor page faults summed over the timed blocks.
    private(set) var minorFaults = 0

    init(clock: CPUClock) { self.clock = clock }

    /// Runs `body` and adds its wall time, CPU time and page faults to the totals.
    mutating func time<R>(_ body: () throws -> R) rethrows -> R {
        let faults0 = clock.minorFaults(), cpu0 = clock.seconds(), wall0 = wallSeconds()
        defer {
            wall += wallSeconds() - wall0
            cpu += clock.seconds() - cpu0
            minorFaults += clock.minorFaults() - faults0
        }
        return try body()
    }
}

/// The process's resident memory, from `/proc/self/status`, and the kernel's high-water mark of it.
enum ProcessMemory {
    /// Resets the peak-RSS high-water mark (VmHWM) to the current RSS by writing "5" to
    /// `/proc/self/clear_refs` (Linux ≥ 4.0). Returns false when the kernel refused.
    @discardableResult
    static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// Peak resident set size since the last reset (VmHWM), in MiB; nil when unreadable.
    static func peakMiB() -> Double? { field("VmHWM") }
    /// Current resident set size (VmRSS), in MiB; nil when unreadable.
    static func currentMiB() -> Double? { field("VmRSS") }

    /// Returns memory freed with `free` to the kernel (glibc keeps it otherwise), so the next phase's
    /// baseline does not carry the previous phase's freed frames.
    static func releaseFreed() { _ = mallocTrim?(0) }

    /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not part of Swift's Glibc module.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// A `kB` field of `/proc/self/status`, in MiB.
    private static func field(_ name: String) -> Double? {
        for line in readProcFile("/proc/self/status").split(separator: "\n") where line.hasPrefix(name + ":") {
            if let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
               let kB = Double(number) {
                return kB / 1024
            }
        }
        return nil
    }

    /// A procfs file (`/proc/self/status`, `/proc/stat`), read with read(2): procfs files report
    /// size 0, which Foundation's `String(contentsOfFile:)` takes at its word.
    static func readProcFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One timed phase: wall and CPU seconds, throughput and peak resident memory.
struct Measurement: Encodable, Sendable {
    /// Short machine-readable name ("draw", "convert", "encode", "pipeline", "memory-2000"…).
    let phase: String
    /// What was timed, for people.
    let label: String
    /// Frames processed.
    let frames: Int
    /// Wall seconds (for accumulated phases, the sum over the timed calls).
    let wallSeconds: Double
    /// CPU seconds on `cpuClock`.
    let cpuSeconds: Double
    /// The clock `cpuSeconds` was read from.
    let cpuClock: CPUClock
    /// Frames per wall second.
    let framesPerSecond: Double
    /// Minor page faults during the timed work (on `cpuClock`'s scope).
    let minorPageFaults: Int
    /// Resident memory just before the phase, in MiB (the baseline the peak includes); nil if unreadable.
    let rssBeforeMiB: Double?
    /// Peak resident memory during the phase (VmHWM after a reset), in MiB; nil if unreadable.
    let peakRSSMiB: Double?
    /// The peak above the phase's starting memory, in MiB.
    let peakAboveBaselineMiB: Double?
    /// Whether the high-water mark could be reset before the phase; if not, the peak is since process start.
    let peakWasReset: Bool

    /// Measures one phase: resets the peak-RSS mark, runs `body` (which times its work with the
    /// stopwatch it is given), then reads the peak.
    static func run(phase: String, label: String, frames: Int, clock: CPUClock,
                    _ body: (inout Stopwatch) throws -> Void) rethrows -> Measurement {
        ProcessMemory.releaseFreed()
        let reset = ProcessMemory.resetPeak()
        let before = ProcessMemory.currentMiB()
        var stopwatch = Stopwatch(clock: clock)
        try body(&stopwatch)
        let peak = ProcessMemory.peakMiB()
        return Measurement(phase: phase, label: label, frames: frames, wallSeconds: stopwatch.wall,
                           cpuSeconds: stopwatch.cpu, cpuClock: clock,
                           framesPerSecond: stopwatch.wall > 0 ? Double(frames) / stopwatch.wall : 0,
                           minorPageFaults: stopwatch.minorFaults,
                           rssBeforeMiB: before, peakRSSMiB: peak, peakAboveBaselineMiB: peak.flatMap { p in before.map { p - $0 } },
                           peakWasReset: reset)
    }
}

/// CPU time used by the whole machine and by this process (with its finished child processes), to
/// tell how much other processes competed with a benchmark line.
struct MachineUsage {
    /// Non-idle CPU seconds summed over all cores since boot (/proc/stat); nil when unreadable.
    let machineBusy: Double?
    /// This process's and its waited-for children's CPU seconds.
    let own: Double
    let wall: Double

    static func now() -> MachineUsage {
        var children = rusage()
        getrusage(Int32(RUSAGE_CHILDREN.rawValue), &children)
        let own = CPUClock.process.seconds() + Double(children.ru_utime.tv_sec) + Double(children.ru_utime.tv_usec) / 1e6
            + Double(children.ru_stime.tv_sec) + Double(children.ru_stime.tv_usec) / 1e6
        return MachineUsage(machineBusy: busySeconds(), own: own, wall: wallSeconds())
    }

    /// Cores' worth of CPU that other processes used on average since `start` (0 when unknown).
    func othersCores(since start: MachineUsage) -> Double {
        guard let b1 = machineBusy, let b0 = start.machineBusy, wall > start.wall else { return 0 }
        return max(0, (b1 - b0) - (own - start.own)) / (wall - start.wall)
    }

    /// The first line of /proc/stat: user nice system idle iowait irq softirq steal, in clock ticks.
    private static func busySeconds() -> Double? {
        guard let line = ProcessMemory.readProcFile("/proc/stat").split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 8 else { return nil }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Reads exactly `count` bytes; false at the end of the input before the first byte.
func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws -> Bool {
    var done = 0
    while done < count {
        let n = read(fd, buffer + done, count - done)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { throw BenchError("reading frames: \(String(cString: strerror(errno)))") }
        if n == 0 {
            if done == 0 { return false }
            throw BenchError("the frame stream ended inside a frame")
        }
        done += n
    }
    return true
}

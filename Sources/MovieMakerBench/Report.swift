import Foundation
import MovieMaker

/// Everything one run of the benchmark measured: printed as a table, and written as JSON for scripts.
struct BenchmarkReport: Encodable {
    /// The machine the figures come from.
    struct Machine: Encodable {
        /// `ProcessInfo.activeProcessorCount`, the `cores` of the efficiency figure.
        let cores: Int
        let physicalMemoryGiB: Double
        let operatingSystem: String

        static var current: Machine {
            let info = ProcessInfo.processInfo
            return Machine(cores: info.activeProcessorCount,
                           physicalMemoryGiB: Double(info.physicalMemory) / 1_073_741_824,
                           operatingSystem: info.operatingSystemVersionString)
        }
    }

    let date: String
    let machine: Machine
    let workload: Workload
    var presets: [PresetResult] = []
    var memory: MemoryFlatness?

    init(machine: Machine, workload: Workload) {
        self.date = ISO8601DateFormatter().string(from: Date())
        self.machine = machine
        self.workload = workload
    }

    /// The report as pretty-printed JSON.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }
}

/// Formats the report as human-readable text.
enum TableFormatter {
    static func header(_ machine: BenchmarkReport.Machine, _ w: Workload, presets: [String]) -> String {
        """
        MovieMaker benchmark — machine: \(machine.cores) cores (activeProcessorCount), \
        \(format(machine.physicalMemoryGiB, 1)) GiB RAM, \(machine.operatingSystem)
        Libraries: \(LibraryVersions.current)
        Workload: \(w.width)×\(w.height) @ \(w.fps) fps, \(w.frames) frames; per frame \(w.pathsPerFrame) animated \
        cubic-Bézier paths filled with gradients and stroked, plus \(w.textLinesPerFrame) line of text (DejaVu Sans); \
        CRF \(w.crf); x264 presets: \(presets.joined(separator: ", "))
        """
    }

    private static let columns: [(title: String, width: Int)] = [
        ("phase", 30), ("wall s", 9), ("CPU s", 9), ("CPU clock", 10), ("frames/s", 10),
        ("RSS before MiB", 15), ("peak RSS MiB", 13), ("peak−before", 12),
    ]

    static func preset(_ r: PresetResult) -> String {
        var lines = ["", "preset \(r.preset)", row(columns.map(\.title))]
        for m in r.phases {
            lines.append(row([m.label, format(m.wallSeconds, 2), format(m.cpuSeconds, 2), m.cpuClock.rawValue,
                              format(m.framesPerSecond, 1), format(m.rssBeforeMiB, 1), format(m.peakRSSMiB, 1),
                              format(m.peakAboveBaselineMiB, 1)]))
        }
        lines += [
            "  efficiency   (CPU a + CPU b + CPU c) ÷ (\(r.cores) × wall d)   = \(format(r.efficiency, 3))",
            "  overhead     (CPU d − CPU(a+b+c)) ÷ CPU d              = \(format(r.overheadPercent, 1)) %",
            "  throughput   fps d ÷ fps c (pipeline vs x264 alone)      = \(format(r.pipelineVsEncoderThroughput, 3))",
            "  clip path    efficiency (a+b+c) ÷ (\(r.cores) × wall e) = \(format(r.clipEfficiency, 3)), overhead \(format(r.clipOverheadPercent, 1)) %, fps e ÷ fps c = \(format(r.clipVsEncoderThroughput, 3))",
            "  files        (c) \(mib(r.encoderOnlyFileBytes)) MiB, (d) \(mib(r.pipelineFileBytes)) MiB; "
                + "(b) minor page faults \(r.convert.minorPageFaults) (\(r.convert.minorPageFaults / max(r.convert.frames, 1)) per frame)",
        ]
        return lines.joined(separator: "\n")
    }

    /// Printed when the kernel refused to reset the high-water mark: peaks are then since process start.
    static let resetWarning = "warning: /proc/self/clear_refs could not be written; peak RSS figures are since process start"

    static var notes: String {
        """

        notes: (b) draws each frame untimed, then times only the convert call (wall and thread CPU summed over the calls);
               its RSS grows by one stored yuv420p frame per frame, and that is (c)'s baseline ("RSS before").
               (c) and (d) use process CPU (getrusage: all threads). Peak RSS is VmHWM after writing 5 to /proc/self/clear_refs.
        """
    }

    static func memory(_ m: MemoryFlatness) -> String {
        var lines = ["", "memory flatness: whole pipeline, \(m.width)×\(m.height) @ \(m.fps) fps, \(m.preset), CRF \(m.crf)"]
        for r in m.runs {
            lines.append("  \(pad(String(r.frames), 6, left: true)) frames: peak RSS \(format(r.peakRSSMiB, 1)) MiB "
                         + "(before \(format(r.rssBeforeMiB, 1)) MiB), wall \(format(r.wallSeconds, 1)) s, \(format(r.framesPerSecond, 0)) frames/s")
        }
        let sign = (m.differenceMiB ?? 0) >= 0 ? "+" : ""
        lines.append("  difference (\(m.runs.last?.frames ?? 0) − \(m.runs.first?.frames ?? 0) frames): \(sign)\(format(m.differenceMiB, 1)) MiB")
        return lines.joined(separator: "\n")
    }

    private static func row(_ cells: [String]) -> String {
        "  " + zip(cells, columns).enumerated().map { i, pair in pad(pair.0, pair.1.width, left: i > 0) }.joined(separator: " ")
    }
    private static func pad(_ s: String, _ width: Int, left: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
    private static func format(_ x: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", x) }
    private static func format(_ x: Double?, _ decimals: Int) -> String { x.map { format($0, decimals) } ?? "n/a" }
    private static func mib(_ bytes: Int) -> String { format(Double(bytes) / 1_048_576, 2) }
}

import Foundation
import MovieMaker

/// The command line of `moviemaker-bench`.
struct Options {
    /// Where JSON goes, when asked for.
    enum JSONDestination: Equatable {
        case standardOutput
        case file(String)
    }

    /// Frames per preset run (the standard workload is 300).
    var frames = 300
    /// x264 presets to measure, in order.
    var presets: [EncoderPreset] = [.medium, .veryfast]
    /// Skip the memory-flatness runs.
    var skipMemory = false
    /// Frame counts of the memory-flatness runs (short, long).
    var memoryFrames = (2_000, 20_000)
    /// Also write the results as JSON.
    var json: JSONDestination?

    static let usage = """
        usage: moviemaker-bench [--frames N] [--presets medium,veryfast] [--skip-memory]
                                [--memory-frames A,B] [--json [PATH]]

          --frames N           frames per preset run (default 300)
          --presets LIST       comma-separated x264 presets (default medium,veryfast)
          --skip-memory        skip the memory-flatness line
          --memory-frames A,B  frame counts of the two memory runs (default 2000,20000)
          --json [PATH]        write the figures as JSON to PATH, or to stdout after the table
        """

    /// Parses `arguments` (without the program name); throws a message for people on bad input.
    init(arguments: [String]) throws(OptionError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--frames":
                frames = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--presets":
                presets = try Self.presetList(rest.popFirst())
            case "--skip-memory":
                skipMemory = true
            case "--memory-frames":
                let parts = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
                guard parts.count == 2 else { throw OptionError("--memory-frames needs two counts, e.g. 2000,20000") }
                memoryFrames = (try Self.positiveInt(parts[0], flag: flag), try Self.positiveInt(parts[1], flag: flag))
            case "--json":
                if let next = rest.first, !next.hasPrefix("--") {
                    json = .file(next); rest = rest.dropFirst()
                } else {
                    json = .standardOutput
                }
            case "-h", "--help":
                throw OptionError(Self.usage, isHelp: true)
            default:
                throw OptionError("unknown option \(flag)\n\n\(Self.usage)")
            }
        }
    }

    private static func positiveInt(_ text: String?, flag: String) throws(OptionError) -> Int {
        guard let text, let n = Int(text), n > 0 else { throw OptionError("\(flag) needs a positive whole number, got \(text ?? "nothing")") }
        return n
    }

    private static func presetList(_ text: String?) throws(OptionError) -> [EncoderPreset] {
        let names = (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty else { throw OptionError("--presets needs a list, e.g. medium,veryfast") }
        return try names.map { name throws(OptionError) in
            guard let preset = EncoderPreset(rawValue: name) else {
                throw OptionError("unknown preset \(name); one of \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return preset
        }
    }
}

/// A command-line mistake (or `--help`), with the text to show.
struct OptionError: Error {
    let message: String
    let isHelp: Bool
    init(_ message: String, isHelp: Bool = false) { self.message = message; self.isHelp = isHelp }
}

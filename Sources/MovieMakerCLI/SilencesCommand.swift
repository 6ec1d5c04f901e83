import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker silences`: the silent stretches of a clip's sound.
struct SilencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "silences",
        abstract: "Print the silent stretches of a clip's or sound's sound: what stitch --remove-silence cuts out.",
        discussion: """
            One line per stretch: its start, end and length in seconds. A stretch is sound whose level \
            (RMS over 10 ms) stays below --threshold for at least --min; it ends when the level rises \
            3 dB above the threshold, and its edges are exact to the sample. With --json, one JSON \
            array of {"start", "end"} objects.

            Examples:
              moviemaker silences clip.mp4
              moviemaker silences talk.m4a --threshold -35 --min 0.6
            """)

    @Argument(help: ArgumentHelp("A video with sound, or a sound file.", valueName: "clip"))
    var clip: String

    @Option(help: ArgumentHelp("The level below which sound is silence, in dB.", valueName: "dB"))
    var threshold: Double = -40

    @Option(help: ArgumentHelp("The shortest silence that counts, in seconds.", valueName: "seconds"))
    var min: Double = 0.4

    @Flag(help: "Print one JSON array instead of lines.")
    var json = false

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: clip, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError("\(clip): no such file")
        }
        guard (-120...0).contains(threshold) else { throw ValidationError("--threshold \(threshold): give a level from -120 to 0 dB, e.g. --threshold -40") }
        guard min > 0, min <= 3600 else { throw ValidationError("--min \(min): give a length above 0 seconds, e.g. --min 0.4") }
    }

    func run() throws {
        let detection = SilenceDetection(threshold: threshold, minimum: Time(seconds: min))
        let found: [TimeRange]
        do { found = try detection.silences(in: URL(fileURLWithPath: clip)) } catch { throw InputError(error.message.contains(URL(fileURLWithPath: clip).path) ? error.message : "\(clip): \(error.message)") }
        func s(_ t: Time) -> String { String(format: "%.3f", t.seconds) }
        if json {
            Terminal.printLine("[" + found.map { "{\"start\": \(s($0.start)), \"end\": \(s($0.end))}" }.joined(separator: ", ") + "]")
        } else if found.isEmpty {
            Terminal.printLine("no silences of \(min) s or more below \(threshold) dB")
        } else {
            for r in found { Terminal.printLine("\(s(r.start))\t\(s(r.end))\t\(s(r.duration))") }
        }
    }
}

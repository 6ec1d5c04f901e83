import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker beats`: a music file's tempo and beat times, found by aubio.
struct BeatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beats",
        abstract: "Print a music file's tempo and beat times (aubio), the beats cuts snap to with --cut-on beats.",
        discussion: """
            The first line is the tempo in beats per minute, then one beat time in seconds per line. With \
            --json, one JSON object: {"tempo": 120.0, "beats": [0.5, 1.0, …]}. Music without a steady \
            beat gives a tempo of 0 and few or no beats. Times count from the sound's first sample, as \
            --music plays it (in a video whose sound starts after its picture, that is not the picture's 0).

            Examples:
              moviemaker beats music.mp3
              moviemaker beats music.mp3 --json
            """)

    /// The music.
    @Argument(help: ArgumentHelp("A sound file (MP3, M4A, WAV, FLAC, Opus…) or a video's sound.", valueName: "music"))
    var music: String

    /// JSON instead of lines.
    @Flag(help: "Print one JSON object instead of lines.")
    var json = false

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: music, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError("\(music): no such file")
        }
    }

    func run() throws {
        let beats: Beats
        do { beats = try Beats(analysing: URL(fileURLWithPath: music)) } catch { throw InputError(error.message.contains(URL(fileURLWithPath: music).path) ? error.message : "\(music): \(error.message)") }
        let times = beats.times.map { String(format: "%.3f", $0.seconds) }
        if json {
            Terminal.printLine("{\"tempo\": \(String(format: "%.2f", beats.tempo)), \"beats\": [\(times.joined(separator: ", "))]}")
        } else {
            Terminal.printLine(beats.tempo > 0 ? String(format: "tempo %.2f BPM, %d beats", beats.tempo, times.count)
                  : times.isEmpty ? "no steady beat found: \(Beats.noTempoReason(URL(fileURLWithPath: music)))" : "no steady beat found (\(times.count) beats)")
            for t in times { Terminal.printLine(t) }
        }
    }
}

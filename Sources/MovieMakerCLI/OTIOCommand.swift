import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker otio`: OpenTimelineIO files in and out.
struct OTIOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otio",
        abstract: "Convert between description files and OpenTimelineIO (.otio), the format editors exchange timelines in.",
        discussion: """
            What maps: tracks, clips with their file and range, gaps, transitions, speed and reverse \
            (LinearTimeWarp), freeze frames and markers. Titles, colours, slideshows and generators \
            travel as GeneratorReference clips, and every item keeps its full description under \
            metadata.moviemaker, so a file MovieMaker wrote reads back exactly. Anything else is kept \
            under metadata.otio and reported as a warning.

            MovieMaker's transitions overlap the two items (as FFmpeg's xfade); OpenTimelineIO's are \
            centred on a cut: a transition is written with the cut at the middle of the overlap, the \
            outgoing clip ending out_offset early and the incoming one starting in_offset late. The \
            duration and every frame stay the same.

            Examples:
              moviemaker otio export examples/specs/travel.json -o travel.otio
              moviemaker otio import edit.otio -o edit.json
            """,
        subcommands: [Export.self, Import.self])

    /// `moviemaker otio export`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a description file as OpenTimelineIO (every file it names is opened to know its length).",
            discussion: """
                Examples:
                  moviemaker otio export examples/specs/travel.json -o travel.otio
                  moviemaker otio export spec.json --size 1080x1920 -o vertical.otio
                """)

        @OptionGroup var description: DescriptionOptions

        /// Where the .otio goes.
        @Option(name: [.short, .long], help: ArgumentHelp("The .otio file to write.", valueName: "edit.otio"))
        var output: String

        func validate() throws {
            guard URL(fileURLWithPath: output).pathExtension.lowercased() == "otio" else {
                throw ValidationError("-o \(output): give a .otio file")
            }
            if FileIdentity.same(output, description.spec) { throw InputError("-o \(output) is the description file itself") }
            try OutputOptions.checkFolder(of: output)
        }

        func run() throws {
            let timeline = try description.load()
            let exported = try export(timeline)
            for warning in exported.warnings { Terminal.writeError("moviemaker: warning: \(warning)\n") }
            try OTIOCommand.write(exported.document.canonicalText, to: output)
            let clips = OTIOCommand.count(exported.document)
            Terminal.printLine("\(output): OpenTimelineIO, \(clips.tracks) track\(clips.tracks == 1 ? "" : "s"), \(clips.clips) clip\(clips.clips == 1 ? "" : "s")")
        }

        /// The timeline as OpenTimelineIO, or a `DescriptionError` naming the file for a bad description or media file.
        func export(_ timeline: Timeline) throws -> OpenTimelineIO.Exported {
            do {
                return try OpenTimelineIO.export(timeline, options: Timeline.RenderOptions(mediaFolder: description.url.deletingLastPathComponent()))
            } catch where error.code == .invalidDescription {
                throw DescriptionError(file: description.spec, error: error)
            }
        }
    }

    /// `moviemaker otio import`.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read an OpenTimelineIO file into a description file (media in its folder named relative to it, other paths kept absolute).",
            discussion: """
                Examples:
                  moviemaker otio import edit.otio -o edit.json
                """)

        /// The .otio file.
        @Argument(help: ArgumentHelp("The OpenTimelineIO file (.otio, JSON).", valueName: "edit.otio"))
        var input: String

        /// Where the description goes.
        @Option(name: [.short, .long], help: ArgumentHelp("The description file to write (.json).", valueName: "spec.json"))
        var output: String

        func validate() throws {
            guard FileManager.default.fileExists(atPath: input) else { throw InputError("\(input): no such file") }
            guard URL(fileURLWithPath: output).pathExtension.lowercased() == "json" else {
                throw ValidationError("-o \(output): give a .json file")
            }
            if FileIdentity.same(output, input) { throw InputError("-o \(output) is the input file itself") }
            try OutputOptions.checkFolder(of: output)
        }

        func run() throws {
            let url = URL(fileURLWithPath: input)
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw MovieMakerError(code: .movieUnreadable, message: "cannot read \(input): \(error.localizedDescription)")
            }
            let imported = try read(data, from: url)
            for warning in imported.warnings { Terminal.writeError("moviemaker: warning: \(warning)\n") }
            try OTIOCommand.write(try imported.timeline.jsonText(), to: output)
            let items = imported.timeline.tracks.reduce(0) { $0 + $1.items.count }
            Terminal.printLine("\(output): description version \(imported.timeline.version), \(imported.timeline.tracks.count) track\(imported.timeline.tracks.count == 1 ? "" : "s"), \(items) item\(items == 1 ? "" : "s")")
        }

        /// The description in the .otio bytes `data`, or a `DescriptionError` naming the file.
        func read(_ data: Data, from url: URL) throws -> OpenTimelineIO.Imported {
            let document: JSONValue
            do { document = try JSONValue(parsing: data) } catch { throw DescriptionError(file: input, error: error) }
            do {
                return try OpenTimelineIO.import(document, otioFolder: url.deletingLastPathComponent(),
                                                 specFolder: OutputOptions.destinationURL(output).deletingLastPathComponent())
            } catch {
                throw DescriptionError(file: input, error: error)
            }
        }
    }

    /// Writes `text` to `path` atomically.
    static func write(_ text: String, to path: String) throws {
        try PartialFiles.write(Data(text.utf8), to: OutputOptions.destinationURL(path))
    }

    /// How many tracks and clips an OpenTimelineIO document has.
    static func count(_ document: JSONValue) -> (tracks: Int, clips: Int) {
        let tracks = document["tracks"]?["children"]?.arrayValue ?? []
        let clips = tracks.reduce(0) { n, t in n + (t["children"]?.arrayValue ?? []).filter { $0["OTIO_SCHEMA"]?.stringValue?.hasPrefix("Clip.") == true }.count }
        return (tracks.count, clips)
    }
}

import ArgumentParser
import MovieMaker

/// `moviemaker`: make movies from the command line.
@main
struct MovieMakerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moviemaker",
        abstract: "Make movies from code: title cards, stills and Swift scripts.",
        subcommands: [])
}

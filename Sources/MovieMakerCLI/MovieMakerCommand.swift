import ArgumentParser
import Foundation
import Synchronization
import MovieMaker

/// `moviemaker`: make movies from the command line.
@main
struct MovieMakerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moviemaker",
        abstract: "Make movies from code: title cards, photo slideshows, stitched clips, description files and templates, stills, contact sheets and Swift scripts.",
        discussion: """
            Each subcommand renders one file. Progress goes to standard error (a bar on a terminal; \
            plain lines naming the output when piped or when CI is set; none with --quiet), and one \
            summary line naming the file goes to standard output (--silent: nothing on success).

            Exit status: 0 on success; 1 when the work fails (one line on standard error, \
            "moviemaker: error: …", says what went wrong and how to fix it); 64 for a usage error \
            (an unknown option or a bad value, or a description file that is not valid: the \
            message names its JSON path); 130 after Ctrl-C (SIGINT), 143 after SIGTERM and 129 \
            after SIGHUP (a closed terminal), which cancel a render and leave the destination as it was. `run` exits with the \
            script's own status.
            """,
        version: MovieMakerVersion.versionText,
        subcommands: [TitleCommand.self, SlideshowCommand.self, StitchCommand.self, AudiogramCommand.self, TranscribeCommand.self, BeatsCommand.self, SilencesCommand.self, RenderCommand.self, AssembleCommand.self, ValidateCommand.self, FormatCommand.self,
                      SchemaCommand.self, OTIOCommand.self, StillCommand.self, ContactSheetCommand.self, RunCommand.self, ColorCommand.self, StudioCommand.self, MCPCommand.self])

    /// Parses the command line and runs the subcommand; every failure ends as one line on standard error.
    /// A rendering command is cancelled by SIGINT or SIGTERM (see `Interruption`): one line says so and
    /// the exit status is 130 or 143.
    static func main() {
        // A closed progress or output pipe (`moviemaker … 2>&1 | head -1`) must not kill a render:
        // with SIGPIPE ignored, writes fail with EPIPE, Terminal stops writing there, the movie is finished.
        signal(SIGPIPE, SIG_IGN)
        // Likewise a file-size limit (`ulimit -f`): with SIGXFSZ ignored the write fails with EFBIG and
        // the render stops with a line naming the destination and the limit, leaving no partial file,
        // instead of the process being killed half way.
        signal(SIGXFSZ, SIG_IGN)
        // The library's warnings (a damaged clip, a title that does not fit) read like the command's own,
        // each once: a file opened by several readers (its beats, its silences, the render) is damaged once.
        let said = SaidOnce()
        LibraryWarnings.setHandler { message in
            guard said.first(message) else { return }
            Terminal.writeError("moviemaker: warning: \(message)\n")
        }
        // File names that are not UTF-8 (typed, or globbed by the shell) reach their files through aliases.
        let arguments = FolderListing.commandLineArguments()
        // A misspelt command (`moviemaker rendr x.json`) would read as "2 unexpected arguments".
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
            if !names.contains(first), let near = nearestName(first, in: names) {
                Terminal.writeError("moviemaker: error: unknown command '\(first)': did you mean '\(near)'? (see 'moviemaker --help')\n")
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
        }
        do {
            var command: ParsableCommand
            do {
                command = try parseAsRoot(Self.joiningNegativeNumbers(arguments))
            } catch {
                // ArgumentParser checks a command's values before it looks for options it does not have, so
                // `render x.json --chek` would be told to give -o: the unknown option is said first.
                if exitCode(for: error) == .validationFailure || underlying(error, as: InputError.self) != nil,
                   let unknown = dashedText(in: arguments) ?? unknownOption(in: arguments) {
                    Terminal.writeError("moviemaker: error: \(FolderListing.shownText(unknown))\n")
                    Foundation.exit(ExitCode.validationFailure.rawValue)
                }
                throw error
            }
            // A named pipe, device or socket given as an input (--music, --font-file, a clip, a
            // description…) would block the first read for good: refused before any work. `run` passes
            // its arguments to the script, which may well read a pipe.
            if !(command is RunCommand), let special = FileIdentity.specialFile(in: arguments) {
                throw InputError("\(special.path) is \(special.kind), not a regular file: give a file (reading it would wait for a writer, or never end)")
            }
            if let rendering = command as? any RenderingCommand {
                // Writing over an input (`slideshow photo.mp4 b.png -o photo.mp4`, `--music song.mp4 -o
                // song.mp4`, a symbolic link to either) would destroy it: refused before any work.
                let destination = rendering.destination
                if let input = FileIdentity.inputMatching(destination, in: arguments) {
                    throw InputError("-o \(destination) is \(input), an input of this command: writing there would destroy it; choose another destination")
                }
                Interruption.shared.install(destination: destination)
            }
            try command.run()
            Interruption.shared.exitIfSignalled()
            // A command whose product is its standard output (`schema`, `format`, `validate`, `beats`)
            // has failed when part of it was lost: a CI job must not keep a cut-off schema.json.
            if (command as? any StandardOutputProduct)?.productIsStandardOutput == true, let reason = Terminal.standardOutputFailure {
                throw Terminal.OutputLost("could not write all of the output to standard output (\(reason)): free space or write it to a file with -o where the command has one")
            }
        } catch {
            Interruption.shared.exitIfSignalled()
            exitReporting(error)
        }
    }

    /// The first `--option` in `arguments` that the subcommand they name does not have (its help, hidden
    /// options included, lists every one it has), as an error line with the nearest option; nil when
    /// there is none, and for `run`, whose later arguments are the script's.
    static func unknownOption(in arguments: [String]) -> String? {
        var command: ParsableCommand.Type = Self.self
        var rest = arguments[...]
        var path: [String] = []
        while let next = rest.first, let sub = command.configuration.subcommands.first(where: { $0._commandName == next || $0.configuration.aliases.contains(next) }) {
            command = sub
            path.append(sub._commandName)
            rest = rest.dropFirst()
        }
        guard command != Self.self, command != RunCommand.self else { return nil }
        let help = helpMessage(for: command, includeHidden: true, columns: 10_000)
        var known: Set<String> = ["--help", "--version"]
        for match in help.matches(of: /--[A-Za-z0-9][A-Za-z0-9-]*/) { known.insert(String(match.output)) }
        for token in rest {
            if token == "--" { break }
            guard token.hasPrefix("--"), token.count > 2 else { continue }
            let name = String(token.split(separator: "=", maxSplits: 1)[0])
            guard !known.contains(name) else { continue }
            let near = nearestName(name, in: known.sorted()).map { ". Did you mean '\($0)'?" } ?? ""
            return "unknown option '\(name)'\(near) (see 'moviemaker \(path.joined(separator: " ")) --help')"
        }
        return nil
    }

    /// A text that begins with `-` (`title "-5% off"`) is read by ArgumentParser as an option, which
    /// reports "unknown option" or "missing value": say how to give it instead. Only a token no option
    /// could be (it holds a space or a `%`, or a `-` before something that is neither a letter nor a number).
    static func dashedText(in arguments: [String]) -> String? {
        guard arguments.first != "run" else { return nil }
        for (index, token) in arguments.enumerated() {
            if token == "--" { break }
            guard token.hasPrefix("-"), !token.hasPrefix("--"), token.count > 1, Double(token) == nil else { continue }
            let second = token.dropFirst().first!
            guard token.contains(where: { $0.isWhitespace || $0 == "%" }) || !(second.isLetter || second.isNumber) else { continue }
            let previous = index > 0 ? arguments[index - 1] : ""
            let shown = Terminal.shellWord(token)
            let afterDashes = "after '--', which ends the options (moviemaker \(arguments.first ?? "title") … -- \(shown))"
            if previous.hasPrefix("--"), !previous.contains("=") {
                return "\(shown) begins with '-', so it is read as an option: give it as \(previous)=\(shown) if it is that option's value, or a text \(afterDashes)"
            }
            // After a one-letter option (-o) it is most likely a file: a path that does not begin with '-'.
            if previous.count == 2, previous.hasPrefix("-"), previous.last!.isLetter {
                return "\(shown) begins with '-', so it is read as an option: give a file as \(previous) \(Terminal.shellWord("./" + token)), or a text \(afterDashes)"
            }
            return "\(shown) begins with '-', so it is read as an option: give it \(afterDashes)"
        }
        return nil
    }

    /// Exits for `error`: help and version print normally; anything else prints
    /// `moviemaker: error: <reason>` on one line and exits 1 (work failed) or 64 (usage).
    static func exitReporting(_ error: Error) -> Never {
        // A named file or folder that will not do: bad input (64), but no pointer to --help, which cannot help.
        if let input = underlying(error, as: InputError.self) {
            Terminal.writeError("moviemaker: error: \(FolderListing.shownText(input.description))\n")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        var code = exitCode(for: error)
        // A bad description file (or slot value) is the user's input being wrong, as a bad option is.
        var badDescription = (error as? MovieMakerError).map { Self.inputCodes.contains($0.code) } ?? false || error is DescriptionError
        // A script that is missing, a folder, unreadable or not a Swift file is bad input too.
        switch error as? ScriptError {
        case .scriptMissing?, .scriptIsFolder?, .scriptUnreadable?: badDescription = true
        default: break
        }
        if badDescription { code = .validationFailure }
        // --help, --version and clean exits print their text to standard output as usual.
        if code == .success { exit(withError: error) }
        // An ExitCode thrown on purpose carries no message.
        if error is ExitCode { Foundation.exit(code.rawValue) }
        // Stopped by a signal: its own line (not an error) and 128 + the signal.
        if case let .interrupted(signal, _)? = error as? ScriptError {
            Terminal.writeError("moviemaker: \(error)\n")
            Foundation.exit(StopSignal.exitStatus(signal))
        }
        var reason = message(for: error).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        // ArgumentParser's sentences start with a capital ("Missing expected argument"); ours do not.
        if let first = reason.first, first.isUppercase, reason.dropFirst().first?.isLowercase == true {
            reason = first.lowercased() + reason.dropFirst()
        }
        if reason.isEmpty { reason = String(describing: error) }
        if code == .validationFailure && !badDescription { reason += " (see '\(helpCommand())')" }
        Terminal.writeError("moviemaker: error: \(FolderListing.shownText(reason))\n")
        Foundation.exit(code.rawValue)
    }

    /// `error` as a `T`, also when a command's `validate()` threw it: ArgumentParser then wraps it in its
    /// own error type (internal to it: `CommandError(parserError: .userValidationError(error))`), which is
    /// searched with `Mirror`, a few levels deep.
    static func underlying<T: Error>(_ error: Error, as type: T.Type, depth: Int = 3) -> T? {
        func search(_ value: Any, depth: Int) -> T? {
            if let match = value as? T { return match }
            guard depth > 0 else { return nil }
            for child in Mirror(reflecting: value).children {
                if let found = search(child.value, depth: depth - 1) { return found }
            }
            return nil
        }
        return search(error, depth: depth)
    }

    /// `--fps -1` as `--fps=-1`, so a negative number reaches the option's own check ("--fps -1: must
    /// be …") instead of being read as an unknown option and reported as "missing value". Arguments after
    /// `--`, and `run`'s (a script's own arguments), are left as they are.
    static func joiningNegativeNumbers(_ arguments: [String]) -> [String] {
        guard arguments.first != "run" else { return arguments }
        var out: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { out += arguments[index...]; break }
            // `--duration -1` and `-d -1`: a long option, or a one-letter short one, before a negative number.
            let isShort = argument.count == 2 && argument.hasPrefix("-") && argument.last!.isLetter
            if argument.hasPrefix("--") || isShort, !argument.contains("="), index + 1 < arguments.count,
               let next = arguments[index + 1].first, next == "-", arguments[index + 1].count > 1,
               Double(arguments[index + 1]) != nil {
                out.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            out.append(argument)
            index += 1
        }
        return out
    }

    /// The library's errors that mean the user's input is wrong (a file given is missing, unreadable,
    /// not what it should be, too large, or a description is invalid): exit status 64, as a bad option.
    /// Everything else (an encoder or disk failure mid-render) is a failed render: 1. The README's table
    /// of exit statuses lists them.
    static let inputCodes: Set<MovieMakerError.Code> = [
        .invalidDescription, .invalidSubtitles, .imageUnreadable, .notAnImage, .imageTooLarge, .fontUnreadable, .fontNotFound,
        .movieUnreadable, .movieTruncated, .noVideoStream, .videoUnsupported, .audioUnreadable, .noAudioStream,
        .unsupportedAudioCodec, .noPhotos, .lutUnreadable, .invalidMarkup, .invalidPathData, .chunksMissing, .chunkMismatch,
        .invalidSize, .oddSize, .sizeTooLarge, .invalidFrameRate, .invalidSetting, .unsupportedContainer, .destinationFolderMissing,
        .transparencyUnsupported, .invalidCaptions, .invalidData,
    ]

    /// `moviemaker <subcommand> --help` for the subcommand on the command line, else `moviemaker --help`.
    private static func helpCommand() -> String {
        let names = configuration.subcommands.map { $0.configuration.commandName ?? "" }
        if let sub = CommandLine.arguments.dropFirst().first(where: { names.contains($0) }) { return "moviemaker \(sub) --help" }
        return "moviemaker --help"
    }
}

/// The version `--version` prints.
enum MovieMakerVersion {
    /// MovieMaker's release number: the library's, so the tool and the library cannot disagree.
    static let number = MovieMaker.version
    /// `moviemaker 0.3.0` and a line with the C libraries' versions.
    static var versionText: String {
        "moviemaker \(number) (MovieMaker \(number))\n\(LibraryVersions.current)"
    }
}

/// A command whose product, in some uses, is what it prints on standard output (a schema, a formatted
/// description, a plan, beat times): losing part of it is the command failing.
protocol StandardOutputProduct {
    /// Whether this run's product is its standard output.
    var productIsStandardOutput: Bool { get }
}

extension ValidateCommand: StandardOutputProduct { var productIsStandardOutput: Bool { true } }
extension SchemaCommand: StandardOutputProduct { var productIsStandardOutput: Bool { output == nil } }
extension FormatCommand: StandardOutputProduct { var productIsStandardOutput: Bool { output == nil && !inPlace } }
extension BeatsCommand: StandardOutputProduct { var productIsStandardOutput: Bool { true } }
extension SilencesCommand: StandardOutputProduct { var productIsStandardOutput: Bool { true } }
/// `render --check` prints the plan; a render's product is its movie, and its summary line only news.
extension RenderCommand: StandardOutputProduct { var productIsStandardOutput: Bool { check } }

/// The messages said so far, so each is said once.
final class SaidOnce: Sendable {
    private let said = Mutex(Set<String>())
    /// Whether `message` is said for the first time (it is remembered).
    func first(_ message: String) -> Bool { said.withLock { $0.insert(message).inserted } }
}

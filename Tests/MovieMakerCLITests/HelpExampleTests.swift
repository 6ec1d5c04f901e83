import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every example in every `moviemaker … --help` works verbatim from a fresh clone (issue 35, item 5).
///
/// The subcommands are read from `moviemaker --help` (and nested ones from their parent's help), and
/// the examples from each help's `Examples:` block as printed. Each example runs in a fresh folder
/// holding the inputs it names — clips, photos, a `Holiday` folder (`~` is that folder: `HOME` is set
/// to it), music, subtitles, CSV files, description files, an `.otio`, the repository's `examples/`
/// with the demo media `scripts/make-demo-media.sh` makes — split into words as a shell splits them
/// (quotes, `\` line continuations, `~`, `*.mp4`, `> file`, `# comment`). It must exit with 0 and write
/// what it names (`-o`, `--save-spec`, `--output-pattern`, `> file`): a movie is decoded, a PNG and a
/// JSON file checked; `--dry-run` and `--check` must write nothing and print their plan. `studio` runs
/// until it prints its URL and listens, then gets SIGINT and must exit 0; `--open` finds a stand-in
/// `xdg-open` first in `PATH` (no browser opens), which must be given the URL.
///
/// Shared inputs are made once into the build folder (`help-example-fixtures-1`, removed by `make
/// clean`). Examples that render are kept small in the help texts themselves (`--size 360p`, `-d 2`,
/// `--preview`): the ~50 examples take about 80 s on two cores.
@Suite("Help examples run verbatim")
struct HelpExampleTests {
    /// The checkout: three folders up from this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // MARK: - The examples, as the help prints them

    /// One example in a subcommand's help.
    struct Example: Sendable, CustomTestStringConvertible {
        /// The subcommand whose help shows it, e.g. ["otio", "export"].
        var command: [String]
        /// The command line a shell reads: continuation lines joined.
        var text: String
        /// Its lines as printed.
        var lines: [String]
        /// Whether the help printer broke a line of it (a line longer than 80 columns), so the
        /// printed example cannot be copied as it stands.
        var wrapped = false
        var testDescription: String { text }
    }

    /// `moviemaker COMMAND… --help`, or nil when it cannot be run.
    static func help(_ command: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: CLI.executable.path),
              let r = try? CLI.help(command), r.status == 0 else { return nil }
        return r.stdout
    }

    /// The names in a help's `SUBCOMMANDS:` block: lines of two spaces and a lower-case name (a longer
    /// indent is the wrapped abstract), up to the blank line after them.
    static func subcommands(in help: String) -> [String] {
        var names: [String] = []
        var inside = false
        for line in help.components(separatedBy: "\n") {
            if line == "SUBCOMMANDS:" { inside = true; continue }
            guard inside else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { if names.isEmpty { continue } else { break } }
            let rest = line.dropFirst(2)
            if line.hasPrefix("  "), let first = rest.first, first.isLowercase {
                names.append(String(rest.prefix { !$0.isWhitespace }))
            }
        }
        return names
    }

    /// Every subcommand with its help, parents before their subcommands (empty when the executable is missing).
    static let helps: [(command: [String], text: String)] = {
        var result: [(command: [String], text: String)] = []
        func visit(_ command: [String]) {
            guard let text = help(command) else { return }
            if !command.isEmpty { result.append((command, text)) }
            for name in subcommands(in: text) { visit(command + [name]) }
        }
        visit([])
        return result
    }()

    /// The examples of a help: the lines after `Examples:` up to a blank line. An example starts with
    /// `  moviemaker `; a line after one ending in ` \` continues it (as in a shell, the backslash and
    /// the line break go); any other line that does not start an example is the help printer's wrapping
    /// of a long line, joined back with a space.
    static func examples(in help: String, command: [String]) -> [Example] {
        var result: [Example] = []
        var inside = false
        for line in help.components(separatedBy: "\n") {
            if line == "Examples:" { inside = true; continue }
            guard inside else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { inside = false; continue }
            if line.hasPrefix("  moviemaker ") {
                result.append(Example(command: command, text: String(line.dropFirst(2)), lines: [line]))
            } else if var example = result.popLast() {
                let piece = line.trimmingCharacters(in: .whitespaces)
                if example.text.hasSuffix("\\") {
                    example.text = String(example.text.dropLast()) + piece
                } else {
                    example.text += " " + piece
                    example.wrapped = true
                }
                example.lines.append(line)
                result.append(example)
            }
        }
        return result
    }

    /// Every example of every subcommand, each once (a parent's help may repeat its subcommands' examples).
    static let allExamples: [Example] = {
        var seen = Set<String>()
        return helps.flatMap { examples(in: $0.text, command: $0.command) }.filter { seen.insert($0.text).inserted }
    }()

    /// The examples that serve (`studio`): they run one at a time, since two may name the same port.
    /// The others, each in a folder of its own, run side by side.
    static let servingExamples = allExamples.filter { $0.command.first == "studio" }
    static let otherExamples = allExamples.filter { $0.command.first != "studio" }

    // MARK: - Splitting a line as a shell does

    /// A word of a command line.
    struct Word {
        /// The word with quotes and backslashes removed.
        var text = ""
        /// Whether it has an unquoted `*` or `?`: a pattern for file names.
        var isPattern = false
        /// Whether it starts with an unquoted `~` (alone or before `/`): the home folder.
        var hasTilde = false
    }

    /// A line with shell syntax the test does not run, or an input that could not be made.
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `line` split into words, and the file standard output is redirected to (`> file`). Handles what
    /// the examples use: blanks, '…', "…" (with \" \\ \$ \`), \x, # comments, > FILE, ~ and * ? patterns;
    /// anything else a shell would treat specially ($, `, |, ;, &, <, parentheses) is refused.
    static func split(_ line: String) throws -> (words: [Word], stdout: Word?) {
        var words: [Word] = []
        var stdout: Word?
        var redirecting = false
        var current: Word?
        func finish() {
            guard let word = current else { return }
            current = nil
            if redirecting { stdout = word; redirecting = false } else { words.append(word) }
        }
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case " ", "\t":
                finish()
            case "#" where current == nil:
                i = chars.count
                continue
            case ">":
                finish()
                if redirecting || stdout != nil { throw Failure(description: "more than one > in \(line)") }
                redirecting = true
            case "'":
                guard let close = chars[(i + 1)...].firstIndex(of: "'") else { throw Failure(description: "unclosed ' in \(line)") }
                current = current ?? Word()
                current!.text += String(chars[(i + 1)..<close])
                i = close
            case "\"":
                current = current ?? Word()
                var j = i + 1
                while j < chars.count, chars[j] != "\"" {
                    if chars[j] == "\\", j + 1 < chars.count, "\"\\$`".contains(chars[j + 1]) { j += 1 }
                    else if "$`".contains(chars[j]) { throw Failure(description: "\(chars[j]) inside double quotes in \(line)") }
                    current!.text.append(chars[j])
                    j += 1
                }
                guard j < chars.count else { throw Failure(description: "unclosed \" in \(line)") }
                i = j
            case "\\":
                guard i + 1 < chars.count else { throw Failure(description: "a \\ at the end of \(line)") }
                current = current ?? Word()
                current!.text.append(chars[i + 1])
                i += 1
            case "$", "`", "|", ";", "&", "<", "(", ")":
                throw Failure(description: "\(c) is shell syntax the test does not run, in \(line)")
            case "~" where current == nil && (i + 1 == chars.count || chars[i + 1] == "/" || chars[i + 1] == " "):
                current = Word(text: "", isPattern: false, hasTilde: true)
            case "*", "?":
                current = current ?? Word()
                current!.text.append(c)
                current!.isPattern = true
            default:
                current = current ?? Word()
                current!.text.append(c)
            }
            i += 1
        }
        finish()
        if redirecting { throw Failure(description: "> without a file in \(line)") }
        return (words, stdout)
    }

    /// `path` inside `folder`, unless it is absolute.
    static func resolve(_ path: String, in folder: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
    }

    /// The path a word names, `~` being `home`.
    static func path(_ word: Word, home: URL) -> String {
        word.hasTilde ? home.path + word.text : word.text
    }

    /// The arguments a word becomes: a pattern is the sorted names it matches in `folder` (not hidden
    /// ones), or itself when none does, as in a shell.
    static func expand(_ word: Word, home: URL, folder: URL) -> [String] {
        let text = path(word, home: home)
        guard word.isPattern, !text.contains("/") else { return [text] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.hasPrefix(".") && fnmatch(text, $0, 0) == 0 }.sorted()
        return names.isEmpty ? [text] : names
    }

    // MARK: - What an example reads and writes

    /// Extensions of the files an example may name as inputs.
    static let inputExtensions: Set<String> = ["mp4", "mov", "mkv", "webm", "jpg", "jpeg", "png", "heic", "webp",
                                               "mp3", "wav", "m4a", "srt", "vtt", "csv", "txt", "json", "otio"]
    /// Extensions of movies.
    static let movieExtensions: Set<String> = ["mp4", "mov", "mkv", "webm"]

    /// The files an example reads and writes, from its words.
    struct Plan {
        /// Inputs to make, as written (`~` already the home folder); a pattern stands for two clips.
        var inputs: [String] = []
        /// Files it must write.
        var outputs: [String] = []
        /// `--output-pattern`.
        var outputPattern: String?
        /// `--batch`.
        var batch: String?
        /// `--chunk-dir`.
        var chunkFolder: String?
        /// `--dry-run` or `--check`: the plan is printed and nothing written.
        var writesNothing = false
    }

    /// What an example reads and writes. Its inputs are the words (and `--slot NAME=FILE` values) with a
    /// file extension the test can make, `Holiday` folders and `examples/…` paths; its outputs are the
    /// values of `-o`, `--output` and `--save-spec`, the `> file`, and a movie among a `run` script's
    /// arguments.
    static func plan(_ words: [Word], stdout: Word?, home: URL) -> Plan {
        var plan = Plan()
        let subcommand = words.count > 1 ? words[1].text : ""
        var scriptArguments = false
        for (k, word) in words.enumerated().dropFirst() {
            let previous = words[k - 1].text
            let name = path(word, home: home)
            if scriptArguments {
                // `run SCRIPT -- ARGS…`: a movie among the script's arguments is what it writes.
                if movieExtensions.contains((name as NSString).pathExtension.lowercased()) { plan.outputs.append(name) }
                continue
            }
            switch previous {
            case "-o", "--output", "--save-spec": plan.outputs.append(name); continue
            case "--output-pattern": plan.outputPattern = name; continue
            case "--chunk-dir": plan.chunkFolder = name; continue
            case "--batch": plan.batch = name
            case "--allow": plan.inputs.append(name); continue   // mcp: a folder the agent may use
            default: break
            }
            if subcommand == "run" && word.text == "--" { scriptArguments = true; continue }
            if word.text == "--dry-run" || word.text == "--check" { plan.writesNothing = true }
            var input = name
            if previous == "--slot", let equals = input.firstIndex(of: "=") { input = String(input[input.index(after: equals)...]) }
            if input.hasPrefix("-") { continue }
            let ext = (input as NSString).pathExtension.lowercased()
            if input.hasPrefix("examples/") || (input as NSString).lastPathComponent == "Holiday" || inputExtensions.contains(ext) {
                plan.inputs.append(input)
            }
        }
        if let stdout { plan.outputs.append(path(stdout, home: home)) }
        return plan
    }

    // MARK: - Inputs

    /// Inputs made once and copied into each example's folder.
    struct Fixtures: Sendable {
        let folder: URL
        /// 65 s, 320x240, with a tone: long enough for `still --at 1:02.5`.
        var longClip: URL { folder.appendingPathComponent("long.mp4") }
        /// 2 s, 320x240 H.264 + AAC.
        var clip: URL { folder.appendingPathComponent("short.mp4") }
        /// 2 s, QuickTime.
        var movClip: URL { folder.appendingPathComponent("short.mov") }
        /// 12 s, Matroska.
        var mkvClip: URL { folder.appendingPathComponent("film.mkv") }
        /// 8 s of two tones: long enough for a slideshow's title cards and photos with --duration auto.
        var song: URL { folder.appendingPathComponent("song.mp3") }
        /// What `scripts/make-demo-media.sh` makes at 320x240: the media of examples/specs.
        var demoMedia: URL { folder.appendingPathComponent("demo-media") }
    }

    /// Runs ffmpeg, writing `output` through a temporary name (so an interrupted run leaves nothing).
    static func ffmpeg(_ arguments: [String], _ output: URL) throws {
        if FileManager.default.fileExists(atPath: output.path) { return }
        let partial = output.deletingLastPathComponent().appendingPathComponent("partial-\(UUID().uuidString.prefix(8))-\(output.lastPathComponent)")
        let r = try run(FFTools.ffmpeg, ["-loglevel", "error", "-nostdin", "-y"] + arguments + [partial.path])
        guard r.status == 0, rename(partial.path, output.path) == 0 else {
            try? FileManager.default.removeItem(at: partial)
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(r.stderr)")
        }
    }

    /// The shared inputs, in the build folder, made when missing.
    static func makeFixtures() throws -> Fixtures {
        let fixtures = Fixtures(folder: CLI.binFolder.appendingPathComponent("help-example-fixtures-1"))
        try FileManager.default.createDirectory(at: fixtures.folder, withIntermediateDirectories: true)
        func clip(_ source: String, seconds: Int, tone: Int) -> [String] {
            ["-f", "lavfi", "-i", "\(source)=s=320x240:r=30:d=\(seconds)", "-f", "lavfi", "-i", "sine=f=\(tone):d=\(seconds)",
             "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"]
        }
        try ffmpeg(clip("testsrc2", seconds: 65, tone: 440), fixtures.longClip)
        try ffmpeg(clip("testsrc2", seconds: 2, tone: 330), fixtures.clip)
        try ffmpeg(clip("smptebars", seconds: 2, tone: 550), fixtures.movClip)
        try ffmpeg(["-i", fixtures.longClip.path, "-t", "12", "-c", "copy"], fixtures.mkvClip)
        try ffmpeg(["-f", "lavfi", "-i", "sine=f=262:d=8", "-f", "lavfi", "-i", "sine=f=330:d=8",
                    "-filter_complex", "amix=inputs=2", "-c:a", "libmp3lame", "-b:a", "128k"], fixtures.song)
        // The script keeps the files already there and writes each through a temporary name.
        let script = repository.appendingPathComponent("scripts/make-demo-media.sh")
        let r = try run("/bin/bash", [script.path, fixtures.demoMedia.path, "320x240"])
        guard r.status == 0 else { throw Failure(description: "make-demo-media.sh failed (\(r.status)): \(r.stderr)") }
        return fixtures
    }

    /// The shared inputs, or why they could not be made.
    static let fixtures: Result<Fixtures, any Error> = Result { try makeFixtures() }

    /// A 480x360 picture: a gradient, its blue from `index`.
    static func picture(_ index: Int) -> RGBAPicture {
        RGBAPicture(width: 480, height: 360) { x, y in (UInt8(x * 255 / 480), UInt8(y * 255 / 360), UInt8((60 + index * 70) % 256), 255) }
    }

    /// Writes a JPEG taken on day `index` of July 2025 (EXIF), for --order date and --captions date.
    static func writeJPEG(_ url: URL, index: Int) throws {
        let exif = FixtureJPEG.app1(FixtureJPEG.exifTIFF(orientation: 1, date: String(format: "2025:07:%02d 10:30:00", index + 1)))
        try FixtureJPEG.data(picture(index), markers: [exif]).write(to: url)
    }

    /// Copies the repository's examples/ into `folder` (not the media folders git ignores), with the
    /// demo media where examples/specs expects it.
    static func copyExamples(into folder: URL, fixtures: Fixtures) throws {
        let fm = FileManager.default
        func copy(_ source: URL, _ destination: URL) throws {
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: source.path, isDirectory: &isFolder) else { return }
            guard isFolder.boolValue else { try fm.copyItem(at: source, to: destination); return }
            try fm.createDirectory(at: destination, withIntermediateDirectories: true)
            for name in try fm.contentsOfDirectory(atPath: source.path) where name != "media" {
                try copy(source.appendingPathComponent(name), destination.appendingPathComponent(name))
            }
        }
        try copy(repository.appendingPathComponent("examples"), folder.appendingPathComponent("examples"))
        try fm.copyItem(at: fixtures.demoMedia, to: folder.appendingPathComponent("examples/specs/media"))
    }

    /// A 2 s description at 320x240 (4 s for `assemble`, so that it makes four chunks of a second).
    static func description(seconds: Int) -> String {
        """
        {"version": 1, "output": {"size": "320x240", "fps": 30}, "tracks": [{"kind": "video", "items": [
          {"type": "title", "text": "Hello", "subtitle": "From the help", "duration": "\(seconds / 2)s", "background": "#1d3557"},
          {"type": "color", "color": "#e63946", "duration": "\(seconds / 2)s"}]}]}
        """
    }

    /// A template: a text slot and a video slot, with defaults.
    static let template = """
        {"version": 1, "output": {"size": "320x240", "fps": 30},
         "slots": {"clip1": {"kind": "video", "default": {"file": "default.mp4"}, "fit": "freezeLast"},
                   "name": {"kind": "text", "default": "Sam"}},
         "tracks": [{"kind": "video", "items": [
           {"type": "title", "text": "{{name}}", "duration": "1s"},
           {"type": "video", "source": {"slot": "clip1"}, "duration": "2s"}]}]}
        """

    /// The rows `people.csv` (a --batch file) has.
    static let people = [["name": "Ana Lima", "role": "Director"], ["name": "Bo Chen", "role": "Camera"]]

    /// Makes the input `name` (a path inside `folder`) of an example of `command`, unless it is there.
    static func makeInput(_ name: String, in folder: URL, for command: [String], fixtures: Fixtures) throws {
        let fm = FileManager.default
        let url = resolve(name, in: folder)
        if name.hasPrefix("examples/") {
            if !fm.fileExists(atPath: folder.appendingPathComponent("examples").path) { try copyExamples(into: folder, fixtures: fixtures) }
            return
        }
        if fm.fileExists(atPath: url.path) { return }
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let ext = url.pathExtension.lowercased()
        switch ext {
        case "": // Holiday: photos, and a phone clip among them for stitch (which takes both)
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
            try writeJPEG(url.appendingPathComponent("IMG_0001.jpg"), index: 0)
            if command.first == "stitch" {
                try fm.copyItem(at: fixtures.clip, to: url.appendingPathComponent("IMG_0002.mp4"))
                try writeJPEG(url.appendingPathComponent("IMG_0003.jpg"), index: 2)
            } else {
                try writeJPEG(url.appendingPathComponent("IMG_0002.jpg"), index: 1)
            }
        case "mp4", "webm":
            try fm.copyItem(at: url.lastPathComponent == "clip.mp4" ? fixtures.longClip : fixtures.clip, to: url)
        case "mov": try fm.copyItem(at: fixtures.movClip, to: url)
        case "mkv": try fm.copyItem(at: fixtures.mkvClip, to: url)
        case "jpg", "jpeg": try writeJPEG(url, index: Int(url.lastPathComponent.unicodeScalars.first?.value ?? 0) % 4)
        case "png": FixturePNG.write(picture(3), kind: .rgba8, to: url)
        case "webp": try Data(FixtureWebP.lossy(picture(4))).write(to: url)
        case "heic":
            // MovieMaker recognises photos by content: without an HEVC encoder for libheif, a JPEG stands in.
            if FixtureHEIC.encoderAvailable { try FixtureHEIC.write(picture(5), to: url) } else { try writeJPEG(url, index: 5) }
        case "mp3", "wav", "m4a": try fm.copyItem(at: fixtures.song, to: url)
        case "srt":
            try "1\n00:00:00,200 --> 00:00:01,500\nHello there\n\n2\n00:00:01,600 --> 00:00:03,000\nA second cue\n".write(to: url, atomically: true, encoding: .utf8)
        case "vtt":
            try "WEBVTT\n\n00:00.200 --> 00:01.500\nHello there\n\n00:01.600 --> 00:03.000\nA second cue\n".write(to: url, atomically: true, encoding: .utf8)
        case "csv" where url.lastPathComponent.contains("caption"):
            try "file,text\nIMG_0001.jpg,\"Arrival, day one\"\nIMG_0002,The beach\n".write(to: url, atomically: true, encoding: .utf8)
        case "txt":
            try "IMG_0001: Arrival\nIMG_0002: The beach\n".write(to: url, atomically: true, encoding: .utf8)
        case "csv":
            let rows = people.map { "\($0["name"]!),\($0["role"]!)" }
            try (["name,role"] + rows).joined(separator: "\n").appending("\n").write(to: url, atomically: true, encoding: .utf8)
        case "json" where url.lastPathComponent.hasPrefix("talk"):
            // A whisper transcript with word timestamps (--captions talk.json).
            try #"{"segments": [{"words": [{"word": " Hello", "start": 0.2, "end": 0.6}, {"word": " there.", "start": 0.6, "end": 1.1}]}]}"#
                .write(to: url, atomically: true, encoding: .utf8)
        case "json" where url.lastPathComponent.contains("template"):
            try template.write(to: url, atomically: true, encoding: .utf8)
            try fm.copyItem(at: fixtures.clip, to: url.deletingLastPathComponent().appendingPathComponent("default.mp4"))
        case "json":
            try description(seconds: command.first == "assemble" ? 4 : 2).write(to: url, atomically: true, encoding: .utf8)
        case "otio":
            let source = folder.appendingPathComponent("otio-source.json")
            try description(seconds: 2).write(to: source, atomically: true, encoding: .utf8)
            let r = try CLI.run(["otio", "export", source.path, "-o", url.path])
            guard r.status == 0 else { throw Failure(description: "making \(name): \(r.stderr)") }
        default:
            throw Failure(description: "the test has no generator for the input \(name)")
        }
    }

    /// A stand-in `xdg-open` in `folder`/bin that writes its arguments to `folder`/xdg-open.log.
    static func makeStandInBrowser(in folder: URL) throws -> URL {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("xdg-open")
        try "#!/bin/sh\necho \"$@\" >> \"\(folder.path)/xdg-open.log\"\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return bin
    }

    // MARK: - Outputs

    /// Checks the file an example wrote: there and not empty; a movie has a frame that decodes; a PNG
    /// has the signature; a JSON or OTIO file parses.
    static func checkOutput(_ url: URL, of example: Example) {
        let data = (try? Data(contentsOf: url)) ?? Data()
        guard !data.isEmpty else {
            Issue.record("\(example.text): \(url.lastPathComponent) was not written, or is empty")
            return
        }
        switch url.pathExtension.lowercased() {
        case let ext where movieExtensions.contains(ext):
            var frames = 0
            do { try MovieReader(url: url).decodeFrames { _ in frames += 1; return false } } catch {
                Issue.record("\(example.text): \(url.lastPathComponent) does not decode: \(error)")
            }
            #expect(frames == 1, "\(example.text): no frame of \(url.lastPathComponent) decodes")
        case "png":
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(example.text): \(url.lastPathComponent) is not a PNG")
        case "json", "otio":
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(example.text): \(url.lastPathComponent) is not JSON")
        default:
            break
        }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds.
    static func listens(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Runs `studio` in `folder` until it prints its URL and listens there (and, with `--open`, has
    /// called the stand-in browser), then sends SIGINT: it must exit 0.
    static func runStudio(_ arguments: [String], environment: [String: String], in folder: URL, example: Example) throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.environment = CLI.environment(environment)
        process.currentDirectoryURL = folder
        // Files, not pipes: nothing to drain while the server runs.
        let outFile = folder.appendingPathComponent("studio-stdout.txt"), errFile = folder.appendingPathComponent("studio-stderr.txt")
        try Data().write(to: outFile)
        try Data().write(to: errFile)
        let out = try FileHandle(forWritingTo: outFile), err = try FileHandle(forWritingTo: errFile)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        try withLaunchLock { try process.run() }
        func wait(seconds: Double, until done: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if done() { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return done()
        }
        var url: URL?
        _ = wait(seconds: 60) {
            let text = (try? String(contentsOf: outFile, encoding: .utf8)) ?? ""
            url = text.split(separator: "\n").first { $0.hasPrefix("http://") }.flatMap { URL(string: String($0)) }
            return url != nil || !process.isRunning
        }
        let stderrText = { (try? String(contentsOf: errFile, encoding: .utf8)) ?? "" }
        if let url {
            #expect(url.port.map { listens(UInt16($0)) } == true, "\(example.text): nothing listens at \(url)")
            if arguments.contains("--open") {
                let log = folder.appendingPathComponent("xdg-open.log")
                let opened = wait(seconds: 10) { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(url.absoluteString) }
                #expect(opened, "\(example.text): --open did not hand \(url) to xdg-open")
            }
        } else {
            Issue.record("\(example.text): printed no URL: \(stderrText())")
        }
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
        if !wait(seconds: 10, until: { !process.isRunning }) {
            Issue.record("\(example.text): still running 10 s after SIGINT: killed")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "\(example.text): exit \(process.terminationStatus) after SIGINT: \(stderrText())")
    }

    // MARK: - Tests

    @Test("every subcommand's help, nested ones too, has at least one example")
    func everySubcommandHasAnExample() {
        guard CLI.isBuilt else { return }
        let names = Self.helps.map { $0.command.joined(separator: " ") }
        #expect(names.count >= 14 && names.contains("otio export") && names.contains("otio import"), "subcommands found: \(names)")
        for (command, text) in Self.helps {
            #expect(!Self.examples(in: text, command: command).isEmpty, "moviemaker \(command.joined(separator: " ")) --help has no example")
        }
    }

    @Test("every example is printed as written: no line is longer than the help's 80 columns")
    func noExampleIsWrapped() {
        guard CLI.isBuilt else { return }
        for example in Self.allExamples where example.wrapped {
            Issue.record("""
                moviemaker \(example.command.joined(separator: " ")) --help: the help printer broke this example, so it \
                cannot be copied as printed; shorten it or continue it with \\ on a new line: \(example.lines)
                """)
        }
    }

    @Test("the help's example runs verbatim and writes what it names", arguments: otherExamples)
    func runs(_ example: Example) throws {
        try check(example)
    }

    @Test("the help's studio example runs verbatim, serves and stops on SIGINT", .serialized, arguments: servingExamples)
    func serves(_ example: Example) throws {
        try check(example)
    }

    /// Runs `example` in a folder of its own with the inputs it names, and checks what it writes.
    func check(_ example: Example) throws {
        guard CLI.isBuilt else { return }
        if !FFTools.available { try Test.cancel("skipped: the inputs are made with the ffmpeg CLI, not installed at \(FFTools.ffmpeg)") }
        let fixtures = try Self.fixtures.get()
        let folder = try TemporaryFolder("help-\(example.command.joined(separator: "-"))")
        let home = folder.url

        let (words, stdout) = try Self.split(example.text)
        try #require(words.first?.text == "moviemaker", "an example starts with moviemaker: \(example.text)")
        let plan = Self.plan(words, stdout: stdout, home: home)

        // The inputs it names; a pattern (*.mp4) stands for two clips.
        for input in plan.inputs {
            if input.contains("*") || input.contains("?") {
                let ext = (input as NSString).pathExtension
                for name in ["a", "b"] { try Self.makeInput("\(name).\(ext)", in: folder.url, for: example.command, fixtures: fixtures) }
            } else {
                try Self.makeInput(input, in: folder.url, for: example.command, fixtures: fixtures)
            }
        }
        // assemble joins the chunks the workers rendered: render them as assemble's first example says
        // (--chunk 0/4; the workers render 1/4, 2/4 and 3/4).
        if words.count > 2, words[1].text == "assemble", let chunks = plan.chunkFolder {
            let spec = words[2].text
            // Chunks for an HLS stream are rendered with the segment the example gives assemble.
            let segment = words.firstIndex { $0.text == "--segment" }.map { ["--segment", words[$0 + 1].text] } ?? []
            for k in 0..<4 {
                let r = try CLI.run(["render", spec, "--chunk", "\(k)/4", "--chunk-dir", chunks, "--quiet"] + segment, in: folder.url)
                try #require(r.status == 0, "rendering chunk \(k)/4 of \(spec): \(r.stderr)")
            }
        }

        let bin = try Self.makeStandInBrowser(in: folder.url)
        let environment = ["HOME": home.path, "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        let arguments = words.dropFirst().flatMap { Self.expand($0, home: home, folder: folder.url) }

        if words.count > 1, words[1].text == "studio" {
            // A port the example names may be taken on this machine (8080 often is).
            if let flag = arguments.firstIndex(of: "--port"), flag + 1 < arguments.count, let port = UInt16(arguments[flag + 1]), Self.listens(port) {
                try Test.cancel("skipped: port \(port), which the example names, is in use here")
            }
            try Self.runStudio(arguments, environment: environment, in: folder.url, example: example)
            return
        }
        let r = try CLI.run(arguments, environment: environment, in: folder.url)
        try #require(r.status == 0, "\(example.text): exit \(r.status): \(r.stderr)")
        if let stdout { try Data(r.stdout.utf8).write(to: Self.resolve(Self.path(stdout, home: home), in: folder.url)) }

        var outputs = plan.outputs
        if let pattern = plan.outputPattern {
            // One file per row of the --batch CSV (the test wrote it: people).
            #expect(plan.batch != nil, "\(example.text): --output-pattern without --batch")
            for (n, row) in Self.people.enumerated() {
                var name = pattern.replacingOccurrences(of: "{row}", with: "\(n + 1)")
                for (column, value) in row { name = name.replacingOccurrences(of: "{\(column)}", with: value) }
                outputs.append(name)
            }
        }
        let urls = outputs.map { Self.resolve($0, in: folder.url) }
        if plan.writesNothing {
            for url in urls { #expect(!FileManager.default.fileExists(atPath: url.path), "\(example.text) wrote \(url.lastPathComponent)") }
            #expect(!r.stdout.isEmpty, "\(example.text) printed no plan")
        } else if urls.isEmpty && plan.chunkFolder == nil && words[1].text != "mcp" {
            // (`mcp` serves a client on standard input: with none, it ends at once, printing nothing.)
            #expect(!r.stdout.isEmpty, "\(example.text) names no output and printed nothing")
        }
        if !plan.writesNothing {
            for url in urls { Self.checkOutput(url, of: example) }
        }
        if let chunks = plan.chunkFolder, words[1].text == "render" {
            let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.file(chunks).path)) ?? []
            #expect(!written.isEmpty, "\(example.text) wrote no chunk into \(chunks)")
        }
    }
}

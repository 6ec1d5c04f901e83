import Foundation
import MCP
import MovieMaker

/// The tools `moviemaker mcp` offers a coding agent over the Model Context Protocol: what an agent needs
/// to write a description file, check it, look at its frames and render it.
///
/// Every file a tool reads or writes must be inside one of `allowed` (symbolic links resolved); a
/// description naming a file elsewhere, or a URL, is refused before anything is opened. Nothing is
/// reached over a network. Tools that fail return their error as text with `isError` set, so the
/// agent reads the JSON path and fixes the description.
struct MCPTools: Sendable {
    /// The folders files may be read from and written to, resolved.
    let allowed: [URL]

    /// A tool's failure, shown to the agent as the tool's text.
    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The tools, with their input schemas.
    static let tools: [Tool] = {
        /// An input schema of `properties`; with `description`, also the keys every description tool takes.
        func schema(_ properties: [String: Value], required: [String] = [], description: Bool = true) -> Value {
            var merged = properties
            if description {
                merged["description"] = .object(["description": .string("The description: a JSON object, or its text, as `schema` describes. Give this or `file`.")])
                merged["file"] = .object(["type": "string", "description": "A description file inside an allowed folder, instead of `description`."])
                merged["folder"] = .object(["type": "string", "description": "Where the description's relative paths start (default: the file's folder, else the first allowed folder)."])
                merged["slots"] = .object(["type": "object", "description": "Template slot values by name: a path for media and audio slots, text, or a CSS colour.",
                                           "additionalProperties": .object(["type": "string"])])
            }
            return .object(["type": "object", "properties": .object(merged), "required": .array(required.map { .string($0) })])
        }
        return [
            Tool(name: "schema", description: "The JSON Schema (draft 2020-12) of MovieMaker description files: every key, its type and meaning.",
                 inputSchema: schema([:], description: false)),
            Tool(name: "validate", description: "Check a description: its structure and values, and every file it names. Returns \"valid\" with the size, rate and duration, or the error with its JSON path (e.g. tracks[0].items[2].duration).",
                 inputSchema: schema(["structureOnly": .object(["type": "boolean", "description": "Check only the JSON: open no file."])])),
            Tool(name: "check", description: "The resolved plan of a description: size, rate, frames, and each item's place, duration, source and fit; warnings.",
                 inputSchema: schema([:])),
            Tool(name: "still", description: "The frame a render of the description shows at a time, as a PNG image (to look at your work).",
                 inputSchema: schema(["time": .object(["type": "string", "description": "When: seconds (\"2.5s\", 2.5) or frames (\"75f\")."]),
                                      "width": .object(["type": "integer", "description": "Width of the image (default: the movie's, at most 1920); the height keeps the movie's shape."])],
                                     required: ["time"])),
            Tool(name: "contact_sheet", description: "A grid of frames across the whole description, each labelled with its time, as one PNG image.",
                 inputSchema: schema(["columns": .object(["type": "integer"]), "rows": .object(["type": "integer"])])),
            Tool(name: "probe", description: "A media file's facts: video (size, rate, duration, codec, colour), photo (size, format) or sound (duration, rate, channels).",
                 inputSchema: schema(["file": .object(["type": "string", "description": "A file inside an allowed folder."])], required: ["file"], description: false)),
            Tool(name: "render", description: "Render the description to a movie (.mp4, .mov, .mkv, .webm, .gif, .apng, .webp) inside an allowed folder, with progress notifications; cancelling stops it and leaves no file.",
                 inputSchema: schema(["output": .object(["type": "string", "description": "The movie's path, inside an allowed folder."]),
                                      "preview": .object(["type": "boolean", "description": "A quarter of the size, x264 veryfast: a quick look."])],
                                     required: ["output"])),
            Tool(name: "templates", description: "The templates in the allowed folders and MovieMaker's example templates: their titles, files and slots (name, kind, description, default).",
                 inputSchema: schema([:], description: false)),
        ]
    }()

    /// Runs tool `name` with `arguments`; `progress` is called from the render's thread.
    func call(_ name: String, _ arguments: [String: Value], cancellation: CancellationToken,
              progress: @escaping @Sendable (RenderProgress) -> Void) throws -> [Tool.Content] {
        switch name {
        case "schema":
            return [text(Timeline.jsonSchema.canonicalText)]
        case "validate":
            return [text(try validate(arguments))]
        case "check":
            let (composition, _) = try compose(arguments)
            return [text(composition.planDescription())]
        case "still":
            return try still(arguments)
        case "contact_sheet":
            return try contactSheet(arguments)
        case "probe":
            return [text(try probe(arguments))]
        case "render":
            return [text(try render(arguments, cancellation: cancellation, progress: progress))]
        case "templates":
            return [text(try templates())]
        default:
            throw Failure("no tool \"\(name)\": the tools are \(Self.tools.map(\.name).joined(separator: ", "))")
        }
    }

    func text(_ s: String) -> Tool.Content { .text(text: s, annotations: nil, _meta: nil) }

    // MARK: - Files inside the allowed folders

    /// `path` (relative to `base`) resolved, or a failure when it is a URL or outside every allowed folder.
    func allowedURL(_ path: String, relativeTo base: URL, what: String) throws -> URL {
        if path.contains("://") || path.hasPrefix("file:") {
            throw Failure("\(what) \(path) is a URL: MovieMaker's agent interface reads only files inside the allowed folders (nothing over a network)")
        }
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)).standardizedFileURL
        // Symbolic links are followed: a link inside pointing outside is outside. A file not there yet
        // (an output) is judged by its folder.
        let resolved = FileManager.default.fileExists(atPath: url.path)
            ? url.resolvingSymlinksInPath()
            : url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent)
        guard allowed.contains(where: { resolved.path == $0.path || resolved.path.hasPrefix($0.path.hasSuffix("/") ? $0.path : $0.path + "/") }) else {
            throw Failure("\(what) \(path) is outside the allowed folders (\(allowed.map(\.path).joined(separator: ", "))): move it inside one, or start `moviemaker mcp --allow FOLDER` with its folder")
        }
        // A named pipe or a device would block the tool call (and the server) on its first read.
        if let problem = RegularFile.problem(resolved.path) { throw Failure("\(what) \(path): \(problem): name a file") }
        return resolved
    }

    /// The description the arguments give (`description` as an object or JSON text, or `file`), its folder,
    /// with `slots` filled; every file it names checked to be inside the allowed folders.
    func load(_ arguments: [String: Value]) throws -> (Timeline, URL) {
        let first = allowed.first ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var folder = try arguments["folder"]?.stringValue.map { try allowedURL($0, relativeTo: first, what: "the folder") } ?? first
        var timeline: Timeline
        do {
            if let file = arguments["file"]?.stringValue {
                let url = try allowedURL(file, relativeTo: first, what: "the description file")
                if arguments["folder"] == nil { folder = url.deletingLastPathComponent() }
                timeline = try Timeline(contentsOf: url)
            } else if let given = arguments["description"] {
                let json: String
                if let text = given.stringValue { json = text } else {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    json = String(decoding: try encoder.encode(given), as: UTF8.self)
                }
                timeline = try Timeline(json: JSONValue(parsing: json))
            } else {
                throw Failure("give `description` (the description as a JSON object or its text) or `file` (a description file)")
            }
            if case let .object(slots)? = arguments["slots"] {
                let assignments = slots.keys.sorted().compactMap { name in slots[name]?.stringValue.map { "\(name)=\($0)" } }
                timeline = try timeline.filled(with: timeline.slotValues(assignments: assignments, relativeTo: folder))
            }
        } catch let error as MovieMakerError {
            throw Failure(error.description)
        }
        for path in timeline.namedFiles {
            let url = try allowedURL(path, relativeTo: folder, what: "the description names")
            // A Lottie animation's images are read by rlottie while the description is resolved: checked
            // before that, as the files the description names are.
            if url.pathExtension.lowercased() == "json", let lottie = try? LottieFile(url: url) {
                for asset in lottie.externalAssets { _ = try allowedURL(asset.path, relativeTo: folder, what: "the animation \(path) names the image") }
            }
        }
        return (timeline, folder)
    }

    /// The composition of the arguments' description (every file opened and checked).
    func compose(_ arguments: [String: Value], preview: Bool = false) throws -> (TimelineComposition, URL) {
        let (timeline, folder) = try load(arguments)
        let composition: TimelineComposition
        do {
            composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder, preview: preview))
        } catch {
            throw Failure(error.description)
        }
        // Every file the render reads, the ones files name (a Lottie animation's images) too.
        for url in composition.inputFiles {
            _ = try allowedURL(url.path, relativeTo: folder, what: "the description reads")
        }
        return (composition, folder)
    }

    // MARK: - Tools

    func validate(_ arguments: [String: Value]) throws -> String {
        do {
            if arguments["structureOnly"]?.boolValue == true {
                let (timeline, _) = try load(arguments)
                return "valid structure: version \(timeline.version), \(timeline.tracks.count) track\(timeline.tracks.count == 1 ? "" : "s")"
            }
            let (composition, _) = try compose(arguments)
            try composition.checkStickers()
            return "valid: \(composition.lengthDescription)"
                + composition.warnings.map { "\nwarning: \($0)" }.joined()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure("\(error)")
        }
    }

    /// The time a `time` argument gives: seconds ("2.5s", 2.5) or frames ("75f") at `rate`.
    /// A client's value never stops the server: a time that is not finite, negative or beyond a day
    /// is refused with a message (`Time(seconds:)` would trap on infinity).
    func time(_ value: Value?, rate: FrameRate) throws -> Time {
        func checked(_ seconds: Double, _ shown: String) throws -> Time {
            guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw Failure("time \(shown): give seconds from 0 to 86400 (\"2.5s\") or frames (\"75f\")")
            }
            do { return try Time(checkedSeconds: seconds) } catch { throw Failure("time \(shown): \(error)") }
        }
        if let seconds = value?.doubleValue ?? value?.intValue.map(Double.init) { return try checked(seconds, "\(seconds)") }
        guard let text = value?.stringValue?.trimmingCharacters(in: .whitespaces) else { throw Failure("give `time`, e.g. \"2.5s\" or \"75f\"") }
        if text.hasSuffix("f"), let frames = Int(text.dropLast()) {
            guard (0...10_000_000).contains(frames) else { throw Failure("time \"\(text)\": give a frame from 0 to 10000000") }
            return rate.time(ofFrame: frames)
        }
        let number = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let seconds = Double(number) else { throw Failure("time \"\(text)\": give seconds (\"2.5s\") or frames (\"75f\")") }
        return try checked(seconds, "\"\(text)\"")
    }

    func still(_ arguments: [String: Value]) throws -> [Tool.Content] {
        let (composition, _) = try compose(arguments)
        let at = try time(arguments["time"], rate: composition.frameRate)
        var width = composition.width, height = composition.height
        if let asked = arguments["width"]?.intValue, asked > 0, asked < width {
            height = max(2, Int((Double(height) * Double(asked) / Double(width)).rounded()))
            width = asked
        } else if width > 1920 {
            height = height * 1920 / width
            width = 1920
        }
        let canvas: Canvas
        do { canvas = try composition.picture.still(at: at, width: width, height: height, rate: composition.frameRate) } catch {
            throw Failure("\(error)")
        }
        let index = composition.frameRate.frameIndex(at: at)
        return [.image(data: try pngData { try canvas.writePNG(to: $0) }.base64EncodedString(), mimeType: "image/png", annotations: nil, _meta: nil),
                text("frame \(index) (\(String(format: "%.3f", composition.frameRate.time(ofFrame: index).seconds)) s) of \(composition.frameCount), \(width)x\(height)")]
    }

    func contactSheet(_ arguments: [String: Value]) throws -> [Tool.Content] {
        let (composition, _) = try compose(arguments)
        let columns = arguments["columns"]?.intValue ?? 4, rows = arguments["rows"]?.intValue ?? 3
        // Checked before any arithmetic with them (columns × 160 could overflow and stop the server).
        guard (1...50).contains(columns), (1...50).contains(rows) else {
            throw Failure("columns \(columns) and rows \(rows): give each from 1 to 50, e.g. 4 and 3")
        }
        let sheet: Image
        do {
            sheet = try composition.picture.contactSheet(columns: columns, rows: rows, width: min(1600, max(columns * 160, 320)),
                                                         aspectRatio: Double(composition.width) / Double(composition.height), rate: composition.frameRate)
        } catch {
            throw Failure("\(error)")
        }
        return [.image(data: try pngData { try sheet.writePNG(to: $0) }.base64EncodedString(), mimeType: "image/png", annotations: nil, _meta: nil)]
    }

    /// The bytes a PNG writer puts in a temporary file.
    func pngData(_ write: (URL) throws -> Void) throws -> Data {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("moviemaker-mcp-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try write(url)
        return try Data(contentsOf: url)
    }

    func probe(_ arguments: [String: Value]) throws -> String {
        guard let path = arguments["file"]?.stringValue else { throw Failure("give `file`, a media file inside an allowed folder") }
        let url = try allowedURL(path, relativeTo: allowed.first ?? URL(fileURLWithPath: "."), what: "the file")
        if let video = try? VideoFile(url: url) {
            return """
                video \(url.path): \(video.width)x\(video.height) at \(video.frameRate) fps\(video.isVariableFrameRate ? " (variable)" : ""), \
                \(String(format: "%.3f", video.duration.seconds)) s, \(video.codec) \(video.pixelFormat), colour \(video.colorMatrix)\(video.isFullRange ? " full range" : ""), \
                \(video.hasAudio ? "with sound" : "no sound"), container \(video.containerFormat)
                """
        }
        if let photo = try? PhotoDecoder.info(url) {
            return "photo \(url.path): \(photo.width)x\(photo.height) \(photo.format)"
        }
        do {
            let sound = try AudioFile(url: url)
            return "sound \(url.path): \(sound.duration.map { String(format: "%.3f s", $0.seconds) } ?? "unknown length"), \(sound.codec), \(sound.sampleRate) Hz, \(sound.channelCount) channel\(sound.channelCount == 1 ? "" : "s")"
        } catch {
            throw Failure("\(path) is not a video, photo or sound MovieMaker reads: \(error)")
        }
    }

    func render(_ arguments: [String: Value], cancellation: CancellationToken, progress: @escaping @Sendable (RenderProgress) -> Void) throws -> String {
        guard let output = arguments["output"]?.stringValue else { throw Failure("give `output`, the movie's path inside an allowed folder (e.g. out.mp4)") }
        let url = try allowedURL(output, relativeTo: allowed.first ?? URL(fileURLWithPath: "."), what: "the output")
        let (composition, _) = try compose(arguments, preview: arguments["preview"]?.boolValue == true)
        if composition.inputFiles.contains(where: { $0.resolvingSymlinksInPath().path == url.path }) {
            throw Failure("the output \(output) is a file the description reads: choose another")
        }
        do {
            let summary = try composition.render(to: url, cancellation: cancellation, progress: progress)
            return summary.description
        } catch {
            throw Failure((error as? MovieMakerError)?.code == .cancelled ? "cancelled: nothing was written to \(output)" : "\(error)")
        }
    }

    func templates() throws -> String {
        var found: [(URL, Timeline)] = []
        var folders = allowed
        if let root = LibraryLocation.currentExecutable().flatMap({ LibraryLocation.packageRoot(above: $0.deletingLastPathComponent()) }) {
            folders.append(root.appendingPathComponent("examples/specs"))
        }
        var seen = Set<String>()
        for folder in folders {
            // Two levels deep and no hidden folders (.git), without walking what lies below them: a
            // client may start the server in a home folder.
            var files: [URL] = []
            if let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) {
                while let url = walk.nextObject() as? URL {
                    let depth = url.standardizedFileURL.pathComponents.count - folder.standardizedFileURL.pathComponents.count
                    if depth >= 2 { walk.skipDescendants() }
                    if url.pathExtension == "json", depth <= 2 { files.append(url) }
                }
            }
            for file in files.sorted(by: { $0.path < $1.path }) where seen.insert(file.standardizedFileURL.path).inserted {
                if let timeline = try? Timeline(contentsOf: file), timeline.template != nil || !timeline.slots.isEmpty {
                    found.append((file, timeline))
                }
            }
        }
        guard !found.isEmpty else { return "no templates in \(folders.map(\.path).joined(separator: ", "))" }
        return found.map { file, timeline in
            // The built-in examples are outside the allowed folders: the other tools read them once copied in.
            let inside = (try? allowedURL(file.path, relativeTo: file.deletingLastPathComponent(), what: "")) != nil
            let copy = inside ? "" : " (a built-in example, outside the allowed folders: copy it and its media into one to use it)"
            var lines = ["\(timeline.template?.title ?? file.lastPathComponent): \(file.path)\(copy)"]
            if let about = timeline.template?.description { lines.append("  \(about)") }
            for name in timeline.slots.keys.sorted() {
                let slot = timeline.slots[name]!
                lines.append("  slot \(name) (\(slot.kind.rawValue))\(slot.description.map { ": \($0)" } ?? "")\(slot.default.map { "; default \($0)" } ?? "")")
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}

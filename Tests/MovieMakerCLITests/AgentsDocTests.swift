import Foundation
import Testing
import MovieMaker
import MovieMakerTestSupport

/// `docs/agents.md` kept true: its examples are valid descriptions, its format section names every item
/// type and top-level key the schema has, and its tool table lists exactly the tools `moviemaker mcp`
/// offers (asked over the protocol itself).
@Suite("docs/agents.md")
struct AgentsDocTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let page = (try? String(contentsOf: repository.appendingPathComponent("docs/agents.md"), encoding: .utf8)) ?? ""

    /// The fenced blocks of `language` on the page.
    static func blocks(_ language: String) -> [String] {
        var found: [String] = [], current: [String]? = nil
        for line in page.components(separatedBy: "\n") {
            if current == nil, line == "```" + language { current = []; continue }
            if current != nil, line == "```" { found.append(current!.joined(separator: "\n")); current = nil; continue }
            current?.append(line)
        }
        return found
    }

    @Test func theExamplesAreValidDescriptions() throws {
        let examples = Self.blocks("json").filter { $0.contains("\"version\": 1") }
        #expect(examples.count == 2, "two examples")
        for example in examples {
            let timeline = try Timeline(jsonText: example)
            #expect(!timeline.tracks.isEmpty)
        }
    }

    @Test func theFormatSectionNamesEveryItemTypeAndTopLevelKey() throws {
        let start = try #require(Self.page.range(of: "<!-- agents-format: start -->")), end = try #require(Self.page.range(of: "<!-- agents-format: end -->"))
        let section = String(Self.page[start.upperBound..<end.lowerBound])
        guard case let .object(schema) = Timeline.jsonSchema, case let .object(properties)? = schema["properties"],
              case let .object(definitions)? = schema["$defs"] else {
            Issue.record("the schema has no properties or $defs")
            return
        }
        for key in properties.keys where key != "$schema" {
            #expect(section.contains("`\(key)`"), "the format section does not name the top-level key \(key)")
        }
        var types = Set<String>()
        for case let .object(definition) in definitions.values {
            guard case let .object(fields)? = definition["properties"], case let .object(type)? = fields["type"] else { continue }
            if case let .string(name)? = type["const"] { types.insert(name) }
            if case let .array(names)? = type["enum"] { for case let .string(name) in names { types.insert(name) } }
        }
        #expect(types.count >= 16, "item types found in the schema: \(types.sorted())")
        for type in types.sorted() {
            #expect(section.contains("`\(type)`"), "the format section does not name the item type \(type)")
        }
    }

    @Test func theToolTableListsExactlyTheToolsTheServerOffers() throws {
        guard CLI.isBuilt else { return }
        var documented = Set<String>()
        for line in Self.page.components(separatedBy: "\n") where line.hasPrefix("| `") {
            if let name = line.split(separator: "`").dropFirst().first { documented.insert(String(name)) }
        }
        // The protocol's own question, over standard input and output: initialize, then tools/list.
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["mcp", "--allow", FileManager.default.temporaryDirectory.path]
        process.standardError = FileHandle.nullDevice
        let (input, output) = try withLaunchLock {
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            return (input, output)
        }
        let messages = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        ]
        for message in messages { input.fileHandleForWriting.write(Data((message + "\n").utf8)) }
        var offered = Set<String>(), buffer = Data()
        let deadline = Date().addingTimeInterval(20)
        reading: while Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                guard let json = try? JSONSerialization.jsonObject(with: line) as? [String: Any], json["id"] as? Int == 2 else { continue }
                let tools = ((json["result"] as? [String: Any])?["tools"] as? [[String: Any]]) ?? []
                offered = Set(tools.compactMap { $0["name"] as? String })
                break reading
            }
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(!offered.isEmpty, "the server answered tools/list")
        #expect(documented == offered, "docs/agents.md lists \(documented.sorted()); the server offers \(offered.sorted())")
        #expect(process.terminationStatus == 0, "the server exits cleanly when the client closes its input")
    }
}

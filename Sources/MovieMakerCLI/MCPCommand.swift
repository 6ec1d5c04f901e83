import ArgumentParser
import Foundation
import MCP
import MovieMaker
import Synchronization

/// `moviemaker mcp`: a Model Context Protocol server over standard input and output, for coding agents.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve MovieMaker's tools to a coding agent over the Model Context Protocol (standard input and output).",
        discussion: """
            An MCP client (an agent, an editor) starts this command and talks JSON-RPC over its standard \
            input and output. Tools: schema, validate, check, still (a frame as a PNG image), \
            contact_sheet, probe, render (with progress; cancelling leaves no file) and templates.

            Files are read and written only inside the --allow folders (default: the current folder); \
            a description naming a file elsewhere, or a URL, is refused. Nothing is reached over a \
            network. See docs/agents.md for registering it with a client.

            Examples:
              moviemaker mcp --allow ~/videos
              moviemaker mcp --allow . --allow ~/media
            """)

    /// The folders files may be read from and written to.
    @Option(name: .customLong("allow"), help: ArgumentHelp("A folder the tools may read and write (repeat for more; default: the current folder).", valueName: "folder"))
    var allowed: [String] = []

    func validate() throws {
        for folder in allowed {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw InputError("--allow \(folder): no such folder; give a folder the agent may read and write")
            }
        }
    }

    func run() throws {
        let folders = (allowed.isEmpty ? [FileManager.default.currentDirectoryPath] : allowed)
            .map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath() }
        let tools = MCPTools(allowed: folders)
        let done = DispatchSemaphore(value: 0)
        let failure = ErrorBox()
        Task {
            do { try await Self.serve(tools) } catch { failure.set(error) }
            done.signal()
        }
        done.wait()
        if let error = failure.get() { throw error }
    }

    /// Serves `tools` until the client closes standard input.
    static func serve(_ tools: MCPTools) async throws {
        let server = Server(name: "moviemaker", version: MovieMaker.version,
                            instructions: "MovieMaker makes movies from JSON description files. Call `schema` for the format, `validate` and `still` to check your work, `render` to make the movie.",
                            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: MCPTools.tools) }
        await server.withMethodHandler(CallTool.self) { [server] params in
            let token = params._meta?.progressToken
            let cancellation = CancellationToken()
            let arguments = params.arguments ?? [:]
            let (updates, continuation) = AsyncStream<RenderProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
            // The tool runs on a thread of its own (a render blocks for its whole length); its progress
            // comes back through the stream and goes out as notifications, in order.
            let outcome = Task<[Tool.Content], Error> {
                try await withCheckedThrowingContinuation { (result: CheckedContinuation<[Tool.Content], Error>) in
                    toolThreads.withLock { $0 += 1 }
                    Thread {
                        defer { continuation.finish(); toolThreads.withLock { $0 -= 1 } }
                        do {
                            result.resume(returning: try tools.call(params.name, arguments, cancellation: cancellation) { continuation.yield($0) })
                        } catch {
                            result.resume(throwing: error)
                        }
                    }.start()
                }
            }
            return try await withTaskCancellationHandler {
                // At most ten a second (one per frame was hundreds), and the last one always.
                var lastSent: ContinuousClock.Instant?
                for await update in updates {
                    guard let token else { continue }
                    let now = ContinuousClock.now
                    let finished = update.totalFrames.map { update.framesAdded >= $0 } ?? false
                    if !finished, let lastSent, now - lastSent < .milliseconds(100) { continue }
                    lastSent = now
                    let percent = update.fractionCompleted.map { String(format: "%.0f %%", $0 * 100) } ?? "\(update.framesAdded) frames"
                    try? await server.notify(ProgressNotification.message(
                        .init(progressToken: token, progress: Double(update.framesAdded), total: update.totalFrames.map(Double.init), message: "rendering: \(percent)")))
                }
                do {
                    return CallTool.Result(content: try await outcome.value, isError: false)
                } catch let failure as MCPTools.Failure {
                    if Task.isCancelled { throw CancellationError() }
                    return CallTool.Result(content: [tools.text(failure.message)], isError: true)
                }
            } onCancel: {
                cancellation.cancel()
            }
        }
        try await server.start(transport: DrainingTransport())
        await server.waitUntilCompleted()
        await server.stop()
        // A cancelled render gets no reply, so the input may end while it still stops: let it remove its
        // partial file itself (a few frames) rather than leave it to the exit clean-up, which would say
        // a movie's finish() was never called.
        let deadline = ContinuousClock.now + .seconds(10)
        while toolThreads.withLock({ $0 }) > 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }
}

/// Tool calls running on their own threads.
private let toolThreads = Mutex(0)

/// An error handed from the server's task to the command's thread.
final class ErrorBox: Sendable {
    private let error = Mutex<(any Error)?>(nil)
    func set(_ e: any Error) { error.withLock { $0 = e } }
    func get() -> (any Error)? { error.withLock { $0 } }
}

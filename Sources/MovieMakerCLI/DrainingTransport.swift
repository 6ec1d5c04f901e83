import Foundation
import Logging
import MCP

/// The MCP SDK's standard input and output transport, except that the end of standard input waits
/// for the replies to every request read before it.
///
/// The SDK's server handles each request in a task of its own and, once standard input ends, is
/// stopped with those tasks still running: `printf '…initialize…\n…tools/list…\n' | moviemaker mcp`
/// got no reply at all. Requests (messages with an `id` and a `method`) are counted as they are read
/// and replies (an `id` and a `result` or `error`) as they are sent; the stream of received messages
/// ends only when the input has ended and the count is back to zero.
actor DrainingTransport: Transport {
    private let base = StdioTransport()
    /// Requests read whose reply has not been sent.
    private var unanswered = 0
    /// The end of input, waiting for the count to reach zero.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    nonisolated var logger: Logger { base.logger }

    func connect() async throws { try await base.connect() }

    func disconnect() async { await base.disconnect() }

    func send(_ data: Data) async throws {
        try await base.send(data)
        unanswered = max(0, unanswered - Self.count(in: data, { $0["id"] != nil && ($0["result"] != nil || $0["error"] != nil) }))
        if unanswered == 0 {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
        }
    }

    func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, Swift.Error>.makeStream()
        let source = base
        Task {
            do {
                for try await data in await source.receive() {
                    self.noteReceived(data)
                    continuation.yield(data)
                }
                await self.untilAnswered()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    private func noteReceived(_ data: Data) {
        unanswered += Self.count(in: data) { $0["id"] != nil && $0["method"] != nil }
    }

    private func untilAnswered() async {
        guard unanswered > 0 else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// How many of the JSON-RPC messages in `data` (one object, or a batch array of them) match `test`.
    private static func count(in data: Data, _ test: ([String: Any]) -> Bool) -> Int {
        switch try? JSONSerialization.jsonObject(with: data) {
        case let object as [String: Any]: test(object) ? 1 : 0
        case let batch as [Any]: batch.compactMap { $0 as? [String: Any] }.filter(test).count
        default: 0
        }
    }
}

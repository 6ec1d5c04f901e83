import Foundation
import Logging
import MCP

/// The MCP SDK's standard input and output transport, except that the end of standard input waits
/// for the replies to every request read before it.
///
/// The SDK's server handles each request in a task of its own and, once standard input ends, is
/// stopped with those tasks still running: `printf '…initialize…\n…tools/list…\n' | moviemaker mcp`
/// got no reply at all. The ids of requests read are kept until their reply is sent (or a
/// `notifications/cancelled` names them: a cancelled request gets no reply); the stream of received
/// messages ends only when the input has ended and no id is left. Replies are matched by id, not
/// counted: the SDK answers an unreadable line with a parse error under an id of its own making,
/// which is sent with `"id": null` as JSON-RPC asks and answers no request.
actor DrainingTransport: Transport {
    private let base = StdioTransport()
    /// The ids (as `idKey` writes them) of requests read whose reply has not been sent.
    private var pending: Set<String> = []
    /// The end of input, waiting for `pending` to empty.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    nonisolated var logger: Logger { base.logger }

    func connect() async throws { try await base.connect() }

    func disconnect() async { await base.disconnect() }

    func send(_ data: Data) async throws {
        var data = data
        let messages = Self.messages(in: data)
        var answered: [String] = []
        var rewrite = false
        for message in messages where message["result"] != nil || message["error"] != nil {
            if let key = Self.idKey(message["id"]), pending.contains(key) {
                answered.append(key)
            } else if let code = (message["error"] as? [String: Any])?["code"] as? Int, [-32700, -32600].contains(code),
                      !(message["id"] is NSNull) {
                rewrite = true          // a parse error (or an invalid request) answering no request read
            }
        }
        if rewrite, messages.count == 1, var object = messages.first {
            object["id"] = NSNull()
            if let rewritten = try? JSONSerialization.data(withJSONObject: object) { data = rewritten }
        }
        try await base.send(data)
        for key in answered { pending.remove(key) }
        wakeIfDrained()
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
        for message in Self.messages(in: data) {
            if message["method"] as? String == "notifications/cancelled",
               let params = message["params"] as? [String: Any], let key = Self.idKey(params["requestId"]) {
                pending.remove(key)
            } else if message["method"] != nil, let key = Self.idKey(message["id"]) {
                pending.insert(key)
            }
        }
        wakeIfDrained()
    }

    private func wakeIfDrained() {
        guard pending.isEmpty else { return }
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }

    private func untilAnswered() async {
        guard !pending.isEmpty else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// A JSON-RPC id (a number or a string) as one key: `n:3`, `s:abc`; nil for none or null.
    private static func idKey(_ id: Any?) -> String? {
        switch id {
        case let text as String: "s:" + text
        case let number as NSNumber: "n:" + number.stringValue
        default: nil
        }
    }

    /// The JSON-RPC messages in `data`: one object, or a batch array of them.
    private static func messages(in data: Data) -> [[String: Any]] {
        switch try? JSONSerialization.jsonObject(with: data) {
        case let object as [String: Any]: [object]
        case let batch as [Any]: batch.compactMap { $0 as? [String: Any] }
        default: []
        }
    }
}

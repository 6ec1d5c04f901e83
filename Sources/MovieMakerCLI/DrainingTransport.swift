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
            } else if let code = (message["error"] as? [String: Any])?["code"] as? Int, code == -32700,
                      !(message["id"] is NSNull) {
                rewrite = true          // a parse error answering no request read
            }
        }
        if rewrite, (try? JSONSerialization.jsonObject(with: data)) is [String: Any], var object = messages.first {
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
        // One message per line: MCP (2025-06-18) has no JSON-RPC batches, and the SDK answers a batch it
        // cannot read with one parse error, which would leave its ids waiting.
        guard let message = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return }
        for message in [message] {
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

    /// A JSON-RPC id as one key, as the SDK reads ids: `s:abc` for a string, `n:3` for a whole number
    /// (`3.0` too, which the SDK reads as 3); nil for none, null, a boolean or a fraction (the SDK
    /// takes such a message for a notification and never answers it).
    private static func idKey(_ id: Any?) -> String? {
        switch id {
        case let text as String: return "s:" + text
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return nil }          // true/false
            let value = number.doubleValue
            guard value.isFinite, value == value.rounded(), abs(value) < 9.0e15 else { return nil }
            return "n:\(Int64(value))"
        default: return nil
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

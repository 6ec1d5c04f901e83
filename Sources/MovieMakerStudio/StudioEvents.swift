import FlyingFox
import FlyingSocks
import Foundation

/// One server-sent event: a name (`reload`, `error`, `render`, `hello`) and a JSON payload.
public struct StudioEvent: Sendable, Equatable {
    /// The event's name, the `event:` field.
    public let name: String
    /// The JSON payload, the `data:` field (one line).
    public let json: String

    /// An event named `name` carrying `json`.
    public init(name: String, json: String) { self.name = name; self.json = json }

    /// The event in the text/event-stream format: `event: NAME\ndata: JSON\n\n`.
    var wireFormat: Data { Data("event: \(name)\ndata: \(json)\n\n".utf8) }
}

/// The open event streams (`GET /api/events`), each fed every event published.
actor StudioEventHub {
    /// The streams' continuations by subscriber.
    private var subscribers: [UUID: AsyncStream<Data>.Continuation] = [:]
    /// Set by `finishAll`: later subscribers get a stream that has ended.
    private var finished = false

    /// How many streams are open.
    var count: Int { subscribers.count }

    /// A new stream that starts with `first`, then carries every event published until the client goes
    /// away or the hub finishes. A comment line every 10 s keeps idle connections open.
    func subscribe(first: StudioEvent) -> AsyncStream<Data> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.yield(Data("retry: 500\n\n".utf8))
        continuation.yield(first.wireFormat)
        if finished { continuation.finish(); return stream }
        subscribers[id] = continuation
        let keepAlive = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(10))
                if Task.isCancelled { break }
                continuation.yield(Data(": keep-alive\n\n".utf8))
            }
        }
        continuation.onTermination = { [weak self] _ in
            keepAlive.cancel()
            Task { await self?.remove(id) }
        }
        return stream
    }

    /// Sends `event` to every open stream.
    func publish(_ event: StudioEvent) {
        let data = event.wireFormat
        for continuation in subscribers.values { continuation.yield(data) }
    }

    /// Ends every stream (the server is stopping).
    func finishAll() {
        finished = true
        let all = subscribers.values
        subscribers.removeAll()
        for continuation in all { continuation.finish() }
    }

    /// Forgets a stream whose client went away.
    private func remove(_ id: UUID) { subscribers[id] = nil }
}

/// An `AsyncStream` of byte chunks as the buffered byte sequence FlyingFox sends as a response body of
/// unknown length (chunked transfer encoding): each event goes out as soon as it is published.
struct StreamedBody: AsyncBufferedSequence {
    typealias Element = UInt8
    /// The chunks.
    let chunks: AsyncStream<Data>

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks.makeAsyncIterator()) }

    /// Reads the chunks one after another.
    struct Iterator: AsyncBufferedIteratorProtocol {
        /// The chunks still to come.
        var chunks: AsyncStream<Data>.Iterator
        /// The bytes of the current chunk not yet handed out.
        var pending: [UInt8] = []

        mutating func next() async -> UInt8? {
            if pending.isEmpty { guard let chunk = await chunks.next() else { return nil }; pending = Array(chunk) }
            return pending.isEmpty ? nil : pending.removeFirst()
        }

        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            while pending.isEmpty {
                guard let chunk = await chunks.next() else { return nil }
                pending = Array(chunk)
            }
            let n = Swift.min(Swift.max(1, count), pending.count)
            let out = Array(pending.prefix(n))
            pending.removeFirst(n)
            return out
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client over a plain socket, so the tests can send paths exactly as written
/// (`/../../etc/passwd`, `%2e%2e`), any `Host` header, and read server-sent events as they arrive.
struct RawHTTP {
    /// A response: status, headers (lower-cased names) and body.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Connects to `host`:`port` (IPv4), with a receive timeout.
    static func connect(host: String = "127.0.0.1", port: UInt16, timeout: TimeInterval = 60) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw Failure(description: "connect to \(host):\(port) failed: \(String(cString: strerror(errno)))") }
        return fd
    }

    /// Sends one request and reads the whole response (the connection is closed after it).
    static func request(_ method: String = "GET", _ target: String, port: UInt16, host: String? = nil,
                        headers: [String: String] = [:], body: Data = Data()) throws -> Response {
        let fd = try connect(port: port)
        defer { close(fd) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        try send(fd, Data(head.utf8) + body)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(buffer, count: n)
            if let response = try? parse(data), response.body.count >= Int(response.headers["content-length"] ?? "-1") ?? Int.max { return response }
        }
        return try parse(data)
    }

    /// Writes all of `data`.
    static func send(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw Failure(description: "send failed") }
                offset += n
            }
        }
    }

    /// Parses a complete response (Content-Length or chunked).
    static func parse(_ data: Data) throws -> Response {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no header end in \(data.count) bytes") }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.contains("chunked") == true { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    /// The body of a chunked transfer (as much as has arrived).
    static func dechunk(_ data: Data) -> Data {
        var out = Data(), rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            guard let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { out.append(rest[start...]); break }
            let stop = rest.index(start, offsetBy: size)
            out.append(rest[start..<stop])
            rest = rest[rest.index(stop, offsetBy: min(2, rest.distance(from: stop, to: rest.endIndex)))...]
        }
        return out
    }
}

/// Runs blocking socket work on a thread of its own and awaits it: the tests' requests must not hold one
/// of the few cooperative threads that the in-process server itself needs to answer them (on a 2-core
/// machine there are two, and other suites' synchronous tests may hold the other).
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

extension RawHTTP {
    /// `request`, on a thread of its own (see `offPool`).
    static func send(_ method: String = "GET", _ target: String, port: UInt16, host: String? = nil,
                     headers: [String: String] = [:], body: Data = Data()) async throws -> Response {
        try await offPool { try request(method, target, port: port, host: host, headers: headers, body: body) }
    }
}

/// An open `GET /api/events` stream, read as events arrive.
///
/// `@unchecked Sendable`: one test reads it at a time; `next` runs its blocking reads on a thread of its own.
final class EventStream: @unchecked Sendable {
    /// The socket.
    private let fd: Int32
    /// Bytes read so far (headers and chunk framing included: events are found by their text).
    private var received = Data()
    /// The events already returned, by position in the text.
    private var consumed = 0

    /// Opens the stream on `port`.
    init(port: UInt16, path: String = "/api/events") throws {
        fd = try RawHTTP.connect(port: port, timeout: 0.2)
        try RawHTTP.send(fd, Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8))
    }

    deinit { close(fd) }

    /// The next event (name and data) within `timeout` seconds, or nil.
    func next(timeout: TimeInterval = 30) async -> (name: String, data: String)? {
        let result = try? await offPool { [self] in self.nextBlocking(timeout: timeout).map { Event(name: $0.name, data: $0.data) } }
        return (result ?? nil).map { ($0.name, $0.data) }
    }

    /// An event, as a value that can cross threads.
    private struct Event: Sendable { let name: String; let data: String }

    /// `next`, blocking the calling thread.
    private func nextBlocking(timeout: TimeInterval) -> (name: String, data: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            let rest = text.dropFirst(consumed)
            if let range = rest.range(of: "event: "), let end = rest.range(of: "\n\n", range: range.upperBound..<rest.endIndex) {
                let block = rest[range.lowerBound..<end.lowerBound]
                consumed = text.distance(from: text.startIndex, to: end.upperBound)
                var name = "", data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                return (name, data)
            }
            if Date() > deadline { return nil }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { received.append(buffer, count: n) } else if n == 0 { return nil }
        }
    }
}

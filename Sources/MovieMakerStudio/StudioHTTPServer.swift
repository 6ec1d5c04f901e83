import FlyingFox
import FlyingSocks
import Foundation

/// The studio's HTTP/1.1 server: FlyingSocks' non-blocking sockets and event loop, FlyingFox's request,
/// response and handler types, and the studio's own bounded request reader (`HTTPRequestReader`).
///
/// FlyingFox's `HTTPServer` reads requests with a decoder that takes quadratic time in a line's length
/// and has no size limit, and it gives no way to put a reader in front of it; so the accepting and
/// reading are done here, and everything after the request is read is FlyingFox's. A request over a
/// limit gets its status (414, 431, 413) or 400 and the connection is closed; a connection silent for
/// too long is closed. Nothing here blocks a thread: every wait is on the socket pool.
final class StudioHTTPServer: Sendable {
    /// The listening socket (bound and listening from `init`).
    private let listener: Socket
    /// The event loop every socket waits on.
    private let pool: any AsyncSocketPool
    /// Answers each request.
    private let handler: any HTTPHandler
    /// What a request may hold.
    let limits: HTTPRequestLimits
    /// How long a connection may stay silent between requests before it is closed.
    let idleTimeout: Duration
    /// How long a client may pause in the middle of sending a request.
    let requestTimeout: Duration

    /// Why the server cannot listen, in words a user can act on.
    struct ListenFailure: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        let description: String
    }

    /// Binds to `host` (an IPv4 or IPv6 address) and `port` (0: a free one) and starts listening;
    /// throws `ListenFailure` when the address is not one or cannot be used.
    init(host: String, port: UInt16, handler: any HTTPHandler, limits: HTTPRequestLimits = .studio,
         idleTimeout: Duration = .seconds(120), requestTimeout: Duration = .seconds(30)) throws {
        self.handler = handler
        self.limits = limits
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        pool = Self.makePool()
        let socket: Socket
        do {
            if host.contains(":") {
                var address = sockaddr_in6.inet6(port: port)
                guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw Self.notAnAddress(host) }
                socket = try Self.listen(on: address)
            } else {
                var address = sockaddr_in.inet(port: port)
                guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw Self.notAnAddress(host) }
                socket = try Self.listen(on: address)
            }
        } catch let failure as ListenFailure {
            throw failure
        } catch {
            throw ListenFailure(description: "cannot listen on \(host) port \(port): \(Self.reason(error))")
        }
        listener = socket
    }

    /// The address and port listened on.
    var listeningAddress: Socket.Address? { try? listener.sockname() }

    /// Serves connections until the calling task is cancelled; then every connection is closed (an
    /// event stream ends, a request being read is dropped) and the listening socket too.
    func run() async throws {
        defer { try? listener.close() }
        try await pool.prepare()
        let listening = try AsyncSocket(socket: listener, pool: pool)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { [pool] in try await pool.run() }
            while !Task.isCancelled {
                let client: AsyncSocket
                do {
                    client = try await listening.accept()
                } catch is CancellationError {
                    break
                } catch {
                    // Out of file descriptors, or a client that went away before it was accepted: the
                    // server goes on (after a pause, so a persistent error does not spin).
                    try? await Task.sleep(for: .milliseconds(50))
                    continue
                }
                group.addTask { await self.serve(client) }
            }
            group.cancelAll()
        }
    }

    // MARK: A connection

    /// Reads requests from `socket` and answers them until the client closes, asks to close, sends a
    /// request that is refused, or stays silent too long.
    private func serve(_ socket: AsyncSocket) async {
        defer { try? socket.close() }
        var reader = HTTPRequestReader(limits: limits)
        do {
            while !Task.isCancelled {
                guard let read = try reader.next() else {
                    let timeout = reader.isMidRequest ? requestTimeout : idleTimeout
                    guard let bytes = try await Self.read(socket, timeout: timeout) else { return }
                    reader.append(bytes)
                    continue
                }
                let keepAlive = read.keepAlive
                let response = await answer(read)
                try await send(response, to: socket, method: read.method, version: read.version, keepAlive: keepAlive)
                if !keepAlive { return }
            }
        } catch let refusal as HTTPRequestRefusal {
            let response = StudioHandler.json(["error": refusal.message], status: HTTPStatusCode(refusal.status, phrase: refusal.phrase))
            try? await send(response, to: socket, method: "GET", version: "HTTP/1.1", keepAlive: false)
            await Self.lingeringClose(socket)
        } catch {
            // The client went away, or the server is stopping: nothing more to say on this connection.
        }
    }

    /// The handler's response to `read` (500 if it throws, which the studio's handler does not).
    private func answer(_ read: HTTPReadRequest) async -> HTTPResponse {
        var headers = HTTPHeaders()
        for field in read.headers { headers.addValue(field.value, for: HTTPHeader(field.name)) }
        let parts = read.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let target = HTTPRequest.Target(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "")
        let request = HTTPRequest(method: HTTPMethod(read.method), version: HTTPVersion(read.version), target: target,
                                  headers: headers, body: HTTPBodySequence(data: Data(read.body)))
        do {
            return try await handler.handleRequest(request)
        } catch {
            return HTTPResponse(statusCode: .internalServerError)
        }
    }

    /// Writes `response`: its head, then its body unless the request was `HEAD`. A body of unknown
    /// length is already chunk-encoded by FlyingFox's `HTTPBodySequence`.
    private func send(_ response: HTTPResponse, to socket: AsyncSocket, method: String, version: String, keepAlive: Bool) async throws {
        guard case let .httpBody(body) = response.payload else {
            throw ListenFailure(description: "WebSocket responses are not served")
        }
        var headers = response.headers
        if let count = body.count {
            headers[.contentLength] = String(count)
        } else {
            headers[.transferEncoding] = "chunked"
        }
        if !keepAlive {
            headers[.connection] = "close"
        } else if version == "HTTP/1.0" {
            headers[.connection] = "keep-alive"
        }
        var head = "HTTP/1.1 \(response.statusCode.code) \(response.statusCode.phrase)\r\n"
        for (name, value) in headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            // A value the handler built from request data must not be able to start a header of its own.
            guard !name.rawValue.contains(where: \.isNewline), !value.contains(where: \.isNewline) else { continue }
            head += "\(name.rawValue): \(value)\r\n"
        }
        head += "\r\n"
        try await socket.write(Data(head.utf8))
        guard method != "HEAD" else { return }
        for try await chunk in body {
            try await socket.write(chunk)
        }
    }

    // MARK: Plumbing

    /// Up to 64 KB from `socket`, nil when the client closed; throws `SocketError.timeout` after `timeout`
    /// of silence.
    private static func read(_ socket: AsyncSocket, timeout: Duration) async throws -> [UInt8]? {
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                do { return try await socket.read(atMost: 65_536) } catch SocketError.disconnected { return nil }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw SocketError.timeout(message: "no bytes for \(timeout)")
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// Stops sending, then reads and drops what the client is still sending (at most 4 MB, for at most
    /// a second of silence) before the socket is closed. Closing a socket with unread bytes makes the
    /// kernel answer with a reset, which can destroy the refusal just sent before the client reads it:
    /// a client still sending a 1 MB URL would see "connection reset" instead of 414.
    private static func lingeringClose(_ socket: AsyncSocket) async {
        _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        var drained = 0
        while drained < 4 << 20, let bytes = try? await read(socket, timeout: .seconds(1)) {
            drained += bytes.count
        }
    }

    /// A socket bound to `address` and listening.
    private static func listen(on address: some SocketAddress) throws -> Socket {
        let socket = try Socket(domain: Int32(type(of: address).family))
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: address)
            try socket.listen()
        } catch {
            try? socket.close()
            throw error
        }
        return socket
    }

    /// The platform's event loop.
    private static func makePool() -> any AsyncSocketPool {
        #if canImport(Darwin)
        return .kQueue()
        #else
        return .ePoll()
        #endif
    }

    /// The failure for a host that is not a numeric address.
    private static func notAnAddress(_ host: String) -> ListenFailure {
        ListenFailure(description: "\(host) is not a valid IP address (give one of this machine's addresses, e.g. 127.0.0.1, 0.0.0.0 or ::1)")
    }

    /// The system's reason for a socket error (FlyingSocks' messages name the call, and quote errno
    /// even when it is stale).
    private static func reason(_ error: any Error) -> String {
        if case let SocketError.failed(type, errno, message) = error {
            return "\(message.isEmpty ? String(cString: strerror(errno)) : message) (\(type))"
        }
        return String(describing: error)
    }
}

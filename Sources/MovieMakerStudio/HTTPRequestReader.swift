// The studio's HTTP/1.1 request reader: bytes from a connection in, whole requests (or the status to
// refuse them with) out. Only the standard library, so that the fuzz target (Sources/MovieMakerFuzz,
// which links this file) can feed it arbitrary bytes without a server.
//
// Why not FlyingFox's own decoder: it reads a line by appending one byte at a time and comparing the
// whole buffer's `Sequence.suffix` with the separator after every byte, so a line of n bytes costs n²/2
// steps (a 25 KB URL took 23 s, a 400 KB URL 86 s in a release build), and it has no size limit at all.
// Here every byte is looked at a bounded number of times, and the request line, the header block, a
// chunk-size line and the body each have a limit checked as the bytes arrive.

/// The most a studio request may hold. Browsers send request lines and headers of a few hundred bytes;
/// the page's largest body is a JSON object of slot values.
struct HTTPRequestLimits: Sendable, Equatable {
    /// The request line (`GET /path?query HTTP/1.1`), without its line end: longer is 414.
    var requestLine = 8 << 10
    /// The header block (every header line and its line end, up to the empty line): more is 431.
    var headers = 16 << 10
    /// The body, after removing any chunked framing: more is 413.
    var body = 4 << 20
    /// A chunk-size line (hex size and extensions): longer is 400.
    var chunkSizeLine = 1 << 10

    /// The studio's limits.
    static let studio = HTTPRequestLimits()
}

/// Why a request is refused before it reaches the handler: the status to answer with (the connection is
/// closed after it, since the reader no longer knows where the next request would start).
struct HTTPRequestRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status code: 400, 413, 414, 431, 501 or 505.
    let status: Int
    /// One line saying what was wrong, for the response's body.
    let message: String

    /// The standard reason phrase of `status`.
    var phrase: String {
        switch status {
        case 400: "Bad Request"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }

    /// `414 URI Too Long: the request line is longer than 8192 bytes`.
    var description: String { "\(status) \(phrase): \(message)" }

    /// 400 with `message`.
    static func malformed(_ message: String) -> HTTPRequestRefusal { HTTPRequestRefusal(status: 400, message: message) }
}

/// A request as read from the connection: the request line's three parts, the headers in order and
/// the whole body (chunked framing removed).
struct HTTPReadRequest: Sendable, Equatable {
    /// The method, e.g. `GET` (a token; case kept, as methods are case-sensitive).
    var method: String
    /// The request target as sent, e.g. `/api/frame/3?scale=0.5` (visible ASCII, not decoded).
    var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    /// The header fields in the order sent, names as sent, values without surrounding blanks.
    var headers: [(name: String, value: String)]
    /// The body.
    var body: [UInt8]

    /// The first value of header `name` (compared without regard to case).
    func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// Whether the client asked for the connection to stay open: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var keepAlive: Bool {
        let tokens = headers.filter { Self.sameName($0.name, "connection") }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingBlanks.lowercased() } }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }

    /// Field by field (headers in order; tuples are not `Equatable`, hence written out).
    static func == (a: HTTPReadRequest, b: HTTPReadRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version && a.body == b.body
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// ASCII case-insensitive equality of header names.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { HTTPRequestReader.lower($0) == HTTPRequestReader.lower($1) }
    }
}

/// Reads requests from a connection's bytes as they arrive, in time linear in their number.
///
/// `append` the bytes received, then call `next()` until it returns nil (more bytes are needed). A thrown
/// refusal ends the connection: answer it and close. Pipelined requests come out one after another.
struct HTTPRequestReader: Sendable {
    /// The limits checked.
    let limits: HTTPRequestLimits
    /// Bytes received and not yet consumed start at `start`.
    private var buffer: [UInt8] = []
    /// Where the unconsumed bytes begin (consumed bytes are dropped in bulk, not one by one).
    private var start = 0
    /// How far past `start` the search for the current line's or head's end has already looked, so no
    /// byte is searched twice.
    private var scanned = 0
    /// What is being read.
    private var state: State = .head
    /// The request whose body is being read.
    private var pending: HTTPReadRequest?
    /// What the search for the head's end has found so far.
    private var head = HeadScan()

    /// Where the request line ended and the line being searched began, relative to `start`.
    private struct HeadScan: Sendable {
        /// The request line's LF, once found.
        var requestLineEnd: Int?
        /// The first byte of the line being searched.
        var lineStart = 0
    }

    /// What the reader expects next.
    private enum State: Sendable {
        /// The request line and the headers, up to the empty line.
        case head
        /// `remaining` more body bytes (Content-Length).
        case body(remaining: Int)
        /// A chunk-size line.
        case chunkSize
        /// `remaining` more bytes of the current chunk.
        case chunkData(remaining: Int)
        /// The line end after a chunk's data.
        case chunkEnd
        /// Trailer lines up to the empty line (`bytes` so far, counted against the header limit).
        case trailers(bytes: Int)
    }

    /// A reader with `limits`.
    init(limits: HTTPRequestLimits = .studio) {
        self.limits = limits
    }

    /// Bytes received and not yet made into a request.
    var bufferedCount: Int { buffer.count - start }

    /// Whether part of a request has been received (a connection closing now cuts a request short).
    var isMidRequest: Bool {
        if case .head = state { return bufferedCount > 0 && !buffer[start...].allSatisfy { $0 == 13 || $0 == 10 } }
        return true
    }

    /// Adds bytes received from the connection.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        // Drop what was consumed once it is at least half the buffer: each byte is moved at most once
        // more on average, which keeps appending linear.
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, nil when more bytes are needed; throws the refusal for a request that
    /// breaks a limit or is not HTTP/1.1.
    mutating func next() throws(HTTPRequestRefusal) -> HTTPReadRequest? {
        while true {
            switch state {
            case .head:
                guard let request = try readHead() else { return nil }
                if let framing = try bodyFraming(of: request) {
                    pending = request
                    state = framing
                } else {
                    return request
                }
            case let .body(remaining):
                let n = min(remaining, bufferedCount)
                pending!.body.append(contentsOf: buffer[start..<(start + n)])
                consume(n)
                guard n == remaining else { state = .body(remaining: remaining - n); return nil }
                return finishBody()
            case .chunkSize:
                guard let line = try line(limit: limits.chunkSizeLine, refusal: .malformed("a chunk-size line longer than \(limits.chunkSizeLine) bytes")) else { return nil }
                let size = try Self.chunkSize(line)
                guard size <= limits.body - pending!.body.count else {
                    throw HTTPRequestRefusal(status: 413, message: "the body is larger than \(limits.body) bytes")
                }
                state = size == 0 ? .trailers(bytes: 0) : .chunkData(remaining: size)
            case let .chunkData(remaining):
                let n = min(remaining, bufferedCount)
                pending!.body.append(contentsOf: buffer[start..<(start + n)])
                consume(n)
                guard n == remaining else { state = .chunkData(remaining: remaining - n); return nil }
                state = .chunkEnd
            case .chunkEnd:
                guard let line = try line(limit: 0, refusal: .malformed("a chunk's data is longer than its size says")) else { return nil }
                guard line.isEmpty else { throw .malformed("a chunk's data is longer than its size says") }
                state = .chunkSize
            case let .trailers(bytes):
                let before = bufferedCount
                guard let line = try line(limit: limits.headers - bytes, refusal: HTTPRequestRefusal(status: 431, message: "the trailer fields are larger than \(limits.headers) bytes")) else { return nil }
                if line.isEmpty { return finishBody() }
                state = .trailers(bytes: bytes + before - bufferedCount)
            }
        }
    }

    // MARK: The head

    /// The request line and headers, once the empty line after them has arrived.
    private mutating func readHead() throws(HTTPRequestRefusal) -> HTTPReadRequest? {
        // A client may send empty lines between requests (RFC 9112 §2.2): skipped.
        while scanned == 0, bufferedCount > 0, buffer[start] == 13 || buffer[start] == 10 {
            consume(1)
        }
        // Resume the search where it stopped: offsets are kept relative to `start`, which `append` may move.
        let end = buffer.count
        var i = start + scanned
        var requestLineEnd = head.requestLineEnd.map { start + $0 }
        var lineStart = start + head.lineStart
        while i < end {
            if buffer[i] == 10 {
                if let requestLineEnd {
                    let length = i - lineStart
                    if length == 0 || (length == 1 && buffer[lineStart] == 13) {
                        return try parseHead(requestLineEnd: requestLineEnd, headEnd: i + 1)
                    }
                } else {
                    requestLineEnd = i
                }
                lineStart = i + 1
            }
            i += 1
            if let requestLineEnd {
                if i - (requestLineEnd + 1) > limits.headers {
                    throw HTTPRequestRefusal(status: 431, message: "the header fields are larger than \(limits.headers) bytes")
                }
            } else if i - start > limits.requestLine + 1 {
                // (One byte over the limit may still be the CR of a CRLF line end.)
                throw HTTPRequestRefusal(status: 414, message: "the request line is longer than \(limits.requestLine) bytes")
            }
        }
        scanned = end - start
        head = HeadScan(requestLineEnd: requestLineEnd.map { $0 - start }, lineStart: lineStart - start)
        return nil
    }

    /// The request whose head is `buffer[start..<headEnd]` (its request line ending at `requestLineEnd`).
    private mutating func parseHead(requestLineEnd: Int, headEnd: Int) throws(HTTPRequestRefusal) -> HTTPReadRequest {
        var lineEnd = requestLineEnd
        if lineEnd > start, buffer[lineEnd - 1] == 13 { lineEnd -= 1 }
        guard lineEnd - start <= limits.requestLine else {
            throw HTTPRequestRefusal(status: 414, message: "the request line is longer than \(limits.requestLine) bytes")
        }
        let line = buffer[start..<lineEnd]
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("the request line is not \"METHOD target HTTP/1.1\"") }
        let method = parts[0], target = parts[1], version = parts[2]
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte) else { throw .malformed("the method is not a token") }
        guard !target.isEmpty, target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .malformed("the request target is empty or has a byte that is not visible ASCII")
        }
        let versionText = String(decoding: version, as: UTF8.self)
        guard versionText.hasPrefix("HTTP/"), versionText.utf8.count == 8 else { throw .malformed("no HTTP version on the request line") }
        guard versionText == "HTTP/1.1" || versionText == "HTTP/1.0" else {
            throw HTTPRequestRefusal(status: 505, message: "\(versionText) is not supported; use HTTP/1.1")
        }
        var headers: [(name: String, value: String)] = []
        var lineStart = requestLineEnd + 1
        while lineStart < headEnd {
            var stop = buffer[lineStart..<headEnd].firstIndex(of: 10)!
            let next = stop + 1
            if stop > lineStart, buffer[stop - 1] == 13 { stop -= 1 }
            if stop == lineStart { break }
            let field = buffer[lineStart..<stop]
            guard let colon = field.firstIndex(of: 58) else { throw .malformed("a header line has no colon") }
            let name = field[lineStart..<colon]
            // Whitespace before the colon or at the start (obsolete line folding) is refused, as RFC 9112
            // §5.1 requires: proxies and servers would read such a field differently.
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else { throw .malformed("a header name is empty or not a token") }
            let value = field[(colon + 1)...]
            guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { throw .malformed("a header value holds a control character") }
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimmingBlanks))
            lineStart = next
        }
        let request = HTTPReadRequest(method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                                      version: versionText, headers: headers, body: [])
        consume(headEnd - start)
        if versionText == "HTTP/1.1" {
            let hosts = headers.filter { HTTPReadRequest.sameName($0.name, "host") }
            guard hosts.count == 1 else { throw .malformed("an HTTP/1.1 request needs exactly one Host header") }
        }
        return request
    }

    /// How the body of `request` is framed (nil when it has none), checked against RFC 9112 §6.
    private func bodyFraming(of request: HTTPReadRequest) throws(HTTPRequestRefusal) -> State? {
        let encodings = request.headers.filter { HTTPReadRequest.sameName($0.name, "transfer-encoding") }
        let lengths = request.headers.filter { HTTPReadRequest.sameName($0.name, "content-length") }
        if !encodings.isEmpty {
            // Both at once is how requests are smuggled past proxies: refused rather than guessed.
            guard lengths.isEmpty else { throw .malformed("Content-Length and Transfer-Encoding together") }
            let codings = encodings.flatMap { $0.value.split(separator: ",").map { $0.trimmingBlanks.lowercased() } }
            guard codings == ["chunked"] else {
                throw HTTPRequestRefusal(status: 501, message: "only the chunked transfer coding is understood")
            }
            return .chunkSize
        }
        guard !lengths.isEmpty else { return nil }
        var length: Int?
        for field in lengths {
            for part in field.value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = part.trimmingBlanks
                guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(digits) else {
                    throw .malformed("Content-Length is not a number")
                }
                guard length == nil || length == value else { throw .malformed("Content-Length values differ") }
                length = value
            }
        }
        guard let length, length > 0 else { return nil }
        guard length <= limits.body else { throw HTTPRequestRefusal(status: 413, message: "the body is larger than \(limits.body) bytes") }
        return .body(remaining: length)
    }

    // MARK: Bodies

    /// The size on a chunk-size line: hex digits, then optional `;extensions`.
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPRequestRefusal) -> Int {
        let digits = line.prefix { $0 != 59 && $0 != 32 && $0 != 9 }
        guard !digits.isEmpty, digits.count <= 15 else { throw .malformed("a chunk size is not a hexadecimal number") }
        var size = 0
        for byte in digits {
            guard let digit = hexValue(byte) else { throw .malformed("a chunk size is not a hexadecimal number") }
            size = size * 16 + digit
        }
        return size
    }

    /// The request being read, its body complete; the reader goes back to reading a head.
    private mutating func finishBody() -> HTTPReadRequest {
        state = .head
        defer { pending = nil }
        return pending!
    }

    /// The next line (without its line end) if it has arrived; throws `refusal` when it is longer than
    /// `limit` bytes. The search resumes where the last call stopped.
    private mutating func line(limit: Int, refusal: HTTPRequestRefusal) throws(HTTPRequestRefusal) -> ArraySlice<UInt8>? {
        // The line end may be CRLF: one byte over the limit may be its CR, the next its LF.
        let windowEnd = min(buffer.count, start + limit + 2)
        guard let newline = buffer[min(start + scanned, windowEnd)..<windowEnd].firstIndex(of: 10) else {
            if windowEnd - start >= limit + 2 { throw refusal }
            scanned = windowEnd - start
            return nil
        }
        var stop = newline
        if stop > start, buffer[stop - 1] == 13 { stop -= 1 }
        guard stop - start <= limit else { throw refusal }
        let line = buffer[start..<stop]
        consume(newline + 1 - start)
        return line
    }

    /// Marks `n` bytes as read.
    private mutating func consume(_ n: Int) {
        start += n
        scanned = 0
        head = HeadScan()
    }

    // MARK: Bytes

    /// RFC 9110 `tchar`: the bytes of methods and header names.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// The value of a hexadecimal digit.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 65...70: Int(byte - 55)
        case 97...102: Int(byte - 87)
        default: nil
        }
    }

    /// ASCII lower case of a byte.
    static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Reads `bytes` as one connection would deliver them, in pieces of `pieceSize`, returning the
    /// requests read and the refusal that ended it, if any (the fuzz target's and the tests' entry).
    static func readAll(_ bytes: some Collection<UInt8>, pieceSize: Int = 4096, limits: HTTPRequestLimits = .studio)
        -> (requests: [HTTPReadRequest], refusal: HTTPRequestRefusal?) {
        var reader = HTTPRequestReader(limits: limits)
        var requests: [HTTPReadRequest] = []
        var rest = bytes[...]
        repeat {
            let piece = rest.prefix(max(1, pieceSize))
            rest = rest.dropFirst(piece.count)
            reader.append(piece)
            do {
                while let request = try reader.next() { requests.append(request) }
            } catch {
                return (requests, error)
            }
        } while !rest.isEmpty
        return (requests, nil)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingBlanks: String {
        let text = String(self)
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = text.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(text[first...last])
    }
}

// MARK: Fuzzing

extension HTTPRequestReader {
    /// The `studio-http` fuzz target (`make fuzz`, `moviemaker-fuzz studio-http FILE`): reads `bytes` as
    /// one connection's bytes, whole and in small pieces, and traps when the two readings disagree (the
    /// reader must not depend on how the bytes arrive) or when a request read breaks a limit. A refusal
    /// is the expected answer to bad bytes; a trap, a hang or unbounded memory is a bug.
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        let limits = HTTPRequestLimits.studio
        let whole = readAll(bytes, pieceSize: bytes.count, limits: limits)
        // Piece sizes from 1 to 64 bytes, chosen by the input so the fuzzer explores the boundaries.
        let pieceSize = 1 + Int(bytes.last ?? 0) % 64
        let pieces = readAll(bytes, pieceSize: pieceSize, limits: limits)
        precondition(whole.requests == pieces.requests, "the requests read depend on how the bytes arrived (pieces of \(pieceSize))")
        precondition(whole.refusal == pieces.refusal,
                     "the refusal depends on how the bytes arrived: \(String(describing: whole.refusal)) whole, \(String(describing: pieces.refusal)) in pieces of \(pieceSize)")
        // Sizes in Unicode scalars: a byte that is not UTF-8 is read as U+FFFD, one scalar but three bytes of
        // UTF-8, so scalars (never more than the bytes received) bound what was read; UTF-8 counts did not
        // (the first `make fuzz` run stopped on a header with 88 such bytes that was within the limit).
        for request in whole.requests {
            precondition(request.method.unicodeScalars.count + request.target.unicodeScalars.count + request.version.unicodeScalars.count + 2 <= limits.requestLine,
                         "a request line over the limit was read")
            precondition(request.headers.reduce(0) { $0 + $1.name.unicodeScalars.count + $1.value.unicodeScalars.count } <= limits.headers,
                         "headers over the limit were read")
            precondition(request.body.count <= limits.body, "a body over the limit was read")
        }
    }
}

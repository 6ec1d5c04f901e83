import Foundation
import MovieMakerTestSupport
import Testing
@testable import MovieMakerStudio
#if canImport(Glibc)
import Glibc
#endif

/// Issue 33, reliability items 1, 2 and 10: hostile requests to `moviemaker studio` (the built binary, as
/// `StudioServerTests` runs it). Each test sends the reproducer from the issue; before the fixes a named
/// pipe froze the studio for good, a long URL took minutes, and a cross-site POST changed the slots.
/// `MOVIEMAKER_STUDIO_EXECUTABLE=/path/to/old/moviemaker` runs them against another build.
@Suite("Studio server under hostile requests", .serialized)
struct StudioHardeningTests {
    /// Sends `bytes` on a new connection and reads until the server closes it or `timeout` passes
    /// (then throws). A send cut short by the server (it may answer and close before reading all of a
    /// huge request) is not an error: the answer is what counts.
    static func exchange(_ bytes: Data, port: UInt16, timeout: TimeInterval = 30) async throws -> RawHTTP.Response {
        try await offPool {
            let fd = try RawHTTP.connect(port: port, timeout: timeout)
            defer { close(fd) }
            try? RawHTTP.send(fd, bytes)
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                data.append(buffer, count: n)
                if let response = try? RawHTTP.parse(data),
                   response.body.count >= Int(response.headers["content-length"] ?? "-1") ?? Int.max { return response }
            }
            guard !data.isEmpty else { throw RawHTTP.Failure(description: "no answer within \(timeout) s") }
            return try RawHTTP.parse(data)
        }
    }

    /// A request's bytes: `head` lines (the request line first), then `body`.
    static func request(_ lines: [String], body: String = "") -> Data {
        Data((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    }

    @Test("A named pipe in the folder is refused, not waited on; the studio still answers after, and SIGINT stops it")
    func namedPipeIsRefused() async throws {
        let studio = try await StudioServerTests.Running()
        let fifo = studio.folder.file("fifo.txt")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        try FileManager.default.createDirectory(at: studio.folder.file("folder"), withIntermediateDirectories: true)
        // Before: the first two requests each held one of the two threads forever, opening the pipe.
        // An answer at all is what tells the fix from the bug (a held request never answers), so the
        // deadline is only there to end the test: a few milliseconds on a quiet machine, but 43 s was seen
        // in CI with every other suite rendering on the same 2 cores. Speed belongs in `make bench`.
        for target in ["/files/fifo.txt", "/files/fifo.txt", "/files/fifo.txt", "/files/folder"] {
            let response = try await Self.exchange(Self.request(["GET \(target) HTTP/1.1", "Host: 127.0.0.1:\(studio.port)", "Connection: close"]),
                                                   port: studio.port, timeout: 180)
            #expect([403, 404].contains(response.status), "\(target): \(response.status)")
        }
        #expect(try await studio.get("/api/movie").status == 200)
        #expect(try await studio.get("/files/spec.json").status == 200)
        // SIGINT stops it whatever it is doing: here with a request half sent and an event stream open.
        let partial = try RawHTTP.connect(port: studio.port, timeout: 5)
        defer { close(partial) }
        try RawHTTP.send(partial, Data("GET /api/movie HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
        let events = try EventStream(port: studio.port)
        #expect(await events.next()?.name == "hello")
        let stopped = ContinuousClock.now
        #expect(await studio.stop() == 0)
        // The studio forces its exit 5 s after a signal; the bound only catches a studio that never stops.
        #expect(ContinuousClock.now - stopped < .seconds(120))
    }

    @Test("A description replaced by a named pipe is an error on the page, not a studio stopped for good; a file again reloads")
    func descriptionBecomingANamedPipeIsAnError() async throws {
        let studio = try await StudioServerTests.Running()
        defer { studio.server.kill() }
        let events = try EventStream(port: studio.port)
        #expect(await events.next()?.name == "hello")
        // Before: the reload opened the pipe and waited for a writer for good.
        // The pipe replaces the file in one rename: removing the file first let the watcher see it
        // missing in between and report that instead (seen once under a full test run).
        let pipe = studio.spec.deletingLastPathComponent().appendingPathComponent("pipe.tmp")
        #expect(mkfifo(pipe.path, 0o644) == 0)
        #expect(rename(pipe.path, studio.spec.path) == 0)
        let event = try #require(await events.next(timeout: 60))
        #expect(event.name == "error" && event.data.contains("named pipe"), "\(event.name): \(event.data)")
        #expect(try await studio.get("/api/movie").status == 200)
        try FileManager.default.removeItem(at: studio.spec)
        try studio.edit(StudioServerTests.spec())
        // The watcher may poll between the removal and the write and say the file is missing first
        // (an `error` event, seen once in CI); the file written again must then bring a reload.
        var seen: [String] = []
        var reloaded = false
        let deadline = Date().addingTimeInterval(60)
        while !reloaded, seen.count < 3, Date() < deadline, let next = await events.next(timeout: deadline.timeIntervalSinceNow) {
            if next.name == "reload" { reloaded = true } else { seen.append("\(next.name): \(next.data.prefix(200))") }
        }
        #expect(reloaded, "no reload after the file came back; events: \(seen)")
    }

    @Test("A 1 MB URL gets 414 within a second, 20 KB of headers get 431, and the studio keeps answering")
    func oversizedRequestsAreRefusedFast() async throws {
        let studio = try await StudioServerTests.Running()
        defer { studio.server.kill() }
        let url = "/" + String(repeating: "a", count: 1 << 20)
        var start = ContinuousClock.now
        let long = try await Self.exchange(Self.request(["GET \(url) HTTP/1.1", "Host: 127.0.0.1:\(studio.port)"]), port: studio.port)
        let elapsed = ContinuousClock.now - start
        #expect(long.status == 414)
        // 1–2 ms on a quiet machine (linear reading; the quadratic one never answered a 100 KB line in
        // 120 s, so a 1 MB one would take hours). The bound leaves room for a busy test run, where the
        // studio process waits for a core behind the suites that render and compile (42 s seen on 2 cores).
        #expect(elapsed < .seconds(100), "took \(elapsed)")
        start = ContinuousClock.now
        let headers = (0..<20).map { "X-Filler-\($0): " + String(repeating: "b", count: 1_000) }
        let big = try await Self.exchange(Self.request(["GET /api/movie HTTP/1.1", "Host: 127.0.0.1:\(studio.port)"] + headers), port: studio.port)
        #expect(big.status == 431)
        // One header line of 1 MB (before: never answered).
        let huge = try await Self.exchange(Self.request(["GET /api/movie HTTP/1.1", "Host: 127.0.0.1:\(studio.port)", "X-Huge: " + String(repeating: "c", count: 1 << 20)]),
                                           port: studio.port)
        #expect(huge.status == 431)
        #expect(ContinuousClock.now - start < .seconds(100), "the two refusals took \(ContinuousClock.now - start)")
        #expect(try await studio.get("/api/movie").status == 200)
    }

    @Test("A malformed chunked body gets 400; a well-formed one is read")
    func malformedChunkedBodyIs400() async throws {
        let text = StudioServerTests.spec().replacingOccurrences(of: "\"text\": \"Studio\"", with: "\"text\": \"{{name}}\"")
            .replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \"slots\": {\"name\": {\"kind\": \"text\", \"default\": \"Ana\"}},")
        let studio = try await StudioServerTests.Running(spec: text)
        defer { studio.server.kill() }
        let head = ["POST /api/slots HTTP/1.1", "Host: 127.0.0.1:\(studio.port)", "Transfer-Encoding: chunked", "Connection: close"]
        let bad = try await Self.exchange(Self.request(head, body: "zz\r\n{\"name\": \"B\"}\r\n0\r\n\r\n"), port: studio.port)
        #expect(bad.status == 400, "before: 500")
        let overrun = try await Self.exchange(Self.request(head, body: "2\r\n{\"name\": \"B\"}\r\n0\r\n\r\n"), port: studio.port)
        #expect(overrun.status == 400)
        let good = try await Self.exchange(Self.request(head, body: "5\r\n{\"nam\r\nA\r\ne\": \"Bea\"}\r\n0\r\n\r\n"), port: studio.port)
        #expect(good.status == 200)
        #expect(good.text.contains("Bea"))
    }

    @Test("Cross-site POSTs are refused with 403; the page's own POSTs and non-browser clients still work")
    func crossSitePostsAreRefused() async throws {
        let studio = try await StudioServerTests.Running(spec: StudioServerTests.spec(titleDuration: "20s"))
        defer { studio.server.kill() }
        let host = "127.0.0.1:\(studio.port)"
        let body = #"{"title": "pwned"}"#
        let hostile: [[String]] = [
            ["Origin: http://evil.example", "Sec-Fetch-Site: cross-site"],
            ["Origin: http://evil.example"],
            ["Sec-Fetch-Site: cross-site"],
            ["Origin: http://127.0.0.1:1", "Sec-Fetch-Site: same-site"],
            ["Origin: null"],
        ]
        for path in ["/api/slots", "/api/render", "/api/proxies"] {
            for extra in hostile {
                let lines = ["POST \(path) HTTP/1.1", "Host: \(host)", "Content-Type: text/plain", "Content-Length: \(body.utf8.count)", "Connection: close"] + extra
                let response = try await Self.exchange(Self.request(lines, body: body), port: studio.port)
                #expect(response.status == 403, "\(path) with \(extra): \(response.status)")
            }
        }
        #expect(studio.folder.contents == ["spec.json"], "no render was started")
        // The page itself (same origin), and curl (no Origin).
        let own = ["POST /api/slots HTTP/1.1", "Host: \(host)", "Origin: http://\(host)", "Sec-Fetch-Site: same-origin",
                   "Content-Type: application/json", "Content-Length: 2", "Connection: close"]
        #expect(try await Self.exchange(Self.request(own, body: "{}"), port: studio.port).status == 200)
        #expect(try await RawHTTP.send("POST", "/api/slots", port: studio.port, body: Data("{}".utf8)).status == 200)
        // Reading stays open to any loopback client (a GET changes nothing).
        #expect(try await studio.get("/api/movie", headers: ["Sec-Fetch-Site": "cross-site"]).status == 200)
    }

    @Test("Dot-files are not served, // is one slash, and unknown paths are 404 \"no such endpoint\"")
    func pathsAreNormalisedAndDotFilesHidden() async throws {
        let studio = try await StudioServerTests.Running()
        defer { studio.server.kill() }
        try FileManager.default.createDirectory(at: studio.folder.file(".git"), withIntermediateDirectories: true)
        try Data("[core]\nsecret = yes\n".utf8).write(to: studio.folder.file(".git/config"))
        try Data("TOKEN=secret\n".utf8).write(to: studio.folder.file(".env"))
        try FileManager.default.createSymbolicLink(atPath: studio.folder.file("config-link").path, withDestinationPath: ".git/config")
        for target in ["/files/.git/config", "/files/.env", "/files/%2egit/config", "/files/config-link", "//files/.env"] {
            let response = try await studio.get(target)
            #expect(response.status == 404, "\(target): \(response.status)")
            #expect(!response.text.contains("secret"), "\(target) leaked a dot-file")
        }
        let movie = try await studio.get("//api/movie")
        #expect(movie.status == 200, "before: 403")
        #expect(movie.text.contains("\"frameCount\""))
        #expect(try await studio.get("/api//movie").status == 200)
        let unknown = try await studio.get("/api/nope")
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("no such endpoint"))
    }

    @Test("studio --host 999.1.1.1 says the address is not valid (exit 64)")
    func invalidHostIsNamed() async throws {
        let folder = try TemporaryFolder()
        let spec = folder.file("spec.json")
        try Data(StudioServerTests.spec().utf8).write(to: spec)
        let result = try await offPool { () -> (status: Int32, errors: String) in
            let process = Process()
            process.executableURL = StudioProcess.executable
            process.arguments = ["studio", spec.path, "--host", "999.1.1.1"]
            process.standardOutput = FileHandle.nullDevice
            let errors = try withLaunchLock {
                let errors = Pipe()
                process.standardError = errors
                try process.run()
                return errors
            }
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        #expect(result.status == 64, "\(result.errors)")
        #expect(result.errors.contains("999.1.1.1: not a valid IP address"), "\(result.errors)")
        #expect(!result.errors.contains("inet_pton"))
    }
}

/// The request reader on its own: limits, framing, and independence from how the bytes arrive.
@Suite("Studio HTTP request reader")
struct HTTPRequestReaderTests {
    /// `HTTPRequestReader.readAll` on text.
    static func read(_ text: String, pieceSize: Int = 4096) -> (requests: [HTTPReadRequest], refusal: HTTPRequestRefusal?) {
        HTTPRequestReader.readAll(Array(text.utf8), pieceSize: pieceSize)
    }

    @Test("A 1 MB request line is refused with 414 in linear time, fed as a socket would")
    func longRequestLine() {
        let bytes = Array("GET /".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let start = ContinuousClock.now
        #expect(HTTPRequestReader.readAll(bytes, pieceSize: 1_000).refusal?.status == 414)
        // Milliseconds when linear; the quadratic reader took hours. Generous for a loaded test run.
        #expect(ContinuousClock.now - start < .seconds(10))
        // Exactly at the limit is read; one byte over is refused.
        let atLimit = "GET /" + String(repeating: "a", count: 8_192 - 14) + " HTTP/1.1"
        #expect(atLimit.utf8.count == 8_192)
        #expect(Self.read(atLimit + "\r\nHost: x\r\n\r\n", pieceSize: 7).requests.count == 1)
        #expect(Self.read("GET /a" + atLimit.dropFirst(5) + "\r\nHost: x\r\n\r\n").refusal?.status == 414)
    }

    @Test("Headers over 16 KB are 431, however they arrive, and a header line of 1 MB too, in linear time")
    func largeHeaders() {
        let filler = (0..<20).map { "X-\($0): " + String(repeating: "b", count: 1_000) + "\r\n" }.joined()
        for piece in [1, 13, 4096, 1 << 20] {
            #expect(Self.read("GET / HTTP/1.1\r\nHost: x\r\n" + filler + "\r\n", pieceSize: piece).refusal?.status == 431)
        }
        let start = ContinuousClock.now
        let huge = Array("GET / HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: UInt8(ascii: "c"), count: 1 << 20)
        #expect(HTTPRequestReader.readAll(huge, pieceSize: 1_000).refusal?.status == 431)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("Bodies: Content-Length, chunked (with extensions and trailers), pipelining; malformed framing is 400")
    func bodies() throws {
        let chunked = "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nabcd\r\n2\r\nef\r\n0\r\nT: 1\r\n\r\n"
        let pipelined = chunked + "GET /b HTTP/1.1\r\nHost: x\r\n\r\nPOST /c HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz"
        for piece in [1, 2, 5, 64, 100_000] {
            let result = Self.read(pipelined, pieceSize: piece)
            #expect(result.refusal == nil)
            #expect(result.requests.map(\.target) == ["/a", "/b", "/c"], "pieces of \(piece)")
            #expect(result.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["abcdef", "", "xyz"])
        }
        let head = "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        for body in ["zz\r\nabc\r\n0\r\n\r\n", "2\r\nabcd\r\n0\r\n\r\n", "-1\r\n", "\r\n", String(repeating: "f", count: 2_000)] {
            #expect(Self.read(head + body).refusal?.status == 400, "\(body.prefix(20))")
        }
        #expect(Self.read("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n").refusal?.status == 400)
        #expect(Self.read("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 2\r\n\r\n").refusal?.status == 400)
        #expect(Self.read("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n").refusal?.status == 501)
        #expect(Self.read("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n").refusal?.status == 413)
        #expect(Self.read("GET / HTTP/2.0\r\nHost: x\r\n\r\n").refusal?.status == 505)
        #expect(Self.read("GET / HTTP/1.1\r\n\r\n").refusal?.status == 400, "HTTP/1.1 needs Host")
        #expect(Self.read("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n").refusal?.status == 400)
        #expect(Self.read("GET /\u{7f} HTTP/1.1\r\nHost: x\r\n\r\n").refusal?.status == 400)
        let keep = try #require(Self.read("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").requests.first)
        #expect(keep.keepAlive)
        #expect(!(try #require(Self.read("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").requests.first)).keepAlive)
    }

    @Test("The stored fuzz corpus (Tests/FuzzCorpus/studio-http) replays through the fuzz target")
    func fuzzCorpusReplays() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzCorpus/studio-http")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names.count >= 5)
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            data.withUnsafeBytes { HTTPRequestReader.fuzz($0) }
        }
    }
}

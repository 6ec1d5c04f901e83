import FlyingFox
import Foundation

/// Answers every request of the studio: the page's assets, the API, and the project's files.
///
/// Before routing: with the default binding (127.0.0.1) the `Host` header must name the loopback
/// (`127.0.0.1`, `localhost` or `[::1]`), so a web page elsewhere cannot reach the studio by DNS
/// rebinding; with `--host`, every request must carry the token (query `token=`, header
/// `X-Studio-Token`, or the `studio_token` cookie the page is given). A request that changes something
/// (any method but GET, HEAD and OPTIONS) from another origin is refused with 403: a web page elsewhere
/// could otherwise fill slots and start renders with a form or `fetch` (see `crossSiteReason`). A path
/// with a `..` or `.` part (after percent-decoding) is refused with 403; runs of slashes count as one.
struct StudioHandler: HTTPHandler {
    /// The previewed file.
    let project: StudioProject
    /// The open event streams.
    let events: StudioEventHub
    /// The page's files, by name (read once from the package's resources).
    let assets: [String: Data]
    /// The token every request must carry; nil on the loopback.
    let token: String?

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await route(request)
        } catch let failure as StudioFailure {
            return Self.json(["error": failure.description], status: HTTPStatusCode(failure.status, phrase: Self.phrase(failure.status)))
        } catch {
            return Self.json(["error": StudioProblem(error).summary], status: .internalServerError)
        }
    }

    /// Checks the request, then dispatches on its path.
    private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard authorized(request) else { return Self.json(["error": "forbidden: this studio needs its token (see the URL it printed)"], status: .forbidden) }
        if let reason = Self.crossSiteReason(request) {
            return Self.json(["error": "forbidden: \(reason)"], status: .forbidden)
        }
        let raw = request.target.path(percentEncoded: true)
        guard let segments = StudioPaths.safeSegments(raw) else {
            return Self.json(["error": "forbidden: the studio serves only its own page and the files of the project's folder"], status: .forbidden)
        }
        let method = request.method
        let path = segments.joined(separator: "/")
        if method == .GET, segments.isEmpty || path == "index.html" {
            return asset("index.html", setCookie: true)
        }
        if method == .GET, segments.count == 1, assets[path] != nil {
            return asset(path, setCookie: false)
        }
        if method == .GET, path == "api/movie" {
            return Self.response(StudioJSON.data(await project.info()), type: "application/json; charset=utf-8")
        }
        if method == .GET, segments.count == 3, segments[0] == "api", segments[1] == "frame" {
            guard let index = Int(segments[2]) else { throw StudioFailure.badRequest("frame \(segments[2]): give a frame number from 0") }
            let scaleText = request.query.first(where: { $0.name == "scale" })?.value
            var scale = 1.0
            if let scaleText {
                guard let value = Double(scaleText) else { throw StudioFailure.badRequest("scale \(scaleText): give a number in (0, 1]") }
                scale = value
            }
            let (png, cached) = try await project.frame(index, scale: scale)
            var response = Self.response(png, type: "image/png")
            response.headers[HTTPHeader("X-Studio-Cache")] = cached ? "hit" : "miss"
            return response
        }
        if method == .GET, path == "api/events" {
            let stream = await events.subscribe(first: StudioEvent(name: "hello", json: StudioJSON.text(["version": await project.version])))
            var headers = HTTPHeaders()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[HTTPHeader("Cache-Control")] = "no-store"
            headers[HTTPHeader("X-Accel-Buffering")] = "no"
            return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: StreamedBody(chunks: stream), suggestedBufferSize: 4096))
        }
        if method == .POST, path == "api/render" {
            let events = self.events
            let status = try await project.startRender { event in await events.publish(event) }
            return Self.response(StudioJSON.data(status), type: "application/json; charset=utf-8", status: .accepted)
        }
        if method == .GET, path == "api/audio.wav" {
            guard let sound = try await project.soundPreview() else { throw StudioFailure.notFound("the movie has no sound") }
            return Self.response(sound.wav, type: "audio/wav")
        }
        if method == .GET, path == "api/waveform" {
            struct Waveform: Encodable { let peaks: [Float]; let sampleRate: Int }
            let sound = try await project.soundPreview()
            return Self.response(StudioJSON.data(Waveform(peaks: sound?.peaks ?? [], sampleRate: SoundPreview.format.sampleRate)),
                                 type: "application/json; charset=utf-8")
        }
        if method == .POST, path == "api/proxies" {
            let query = { (name: String) in request.query.first(where: { $0.name == name })?.value }
            guard let scale = Double(query("scale") ?? "0.25"), let from = Int(query("from") ?? "0") else {
                throw StudioFailure.badRequest("give scale (0…1] and from (a frame number)")
            }
            try await project.startProxies(scale: scale, from: from)
            return Self.json(["proxies": "drawing"], status: .accepted)
        }
        if method == .POST, path == "api/slots" {
            let body = try await request.bodyData
            guard let values = try? JSONDecoder().decode([String: String].self, from: body) else {
                throw StudioFailure.badRequest("give the slots as a JSON object of names and values: {\"title\": \"Hello\"}")
            }
            let event = await project.setSlots(values)
            await events.publish(event)
            return Self.response(StudioJSON.data(await project.info()), type: "application/json; charset=utf-8")
        }
        if method == .GET || method == .HEAD, segments.count >= 2, segments[0] == "files" {
            let file: OpenFile
            do {
                file = try await StudioFiles.open(Array(segments.dropFirst()), in: project.folder)
            } catch .notFound {
                throw StudioFailure.notFound("no such file in the project's folder")
            } catch let .notRegular(kind) {
                throw StudioFailure.forbidden("\(segments.dropFirst().joined(separator: "/")) is \(kind), not a regular file: only files are served")
            }
            var headers = HTTPHeaders()
            headers[.contentType] = StudioPaths.contentType(segments.last ?? "")
            headers[HTTPHeader("Cache-Control")] = "no-store"
            return HTTPResponse(statusCode: .ok, headers: headers, body: StudioFiles.body(file))
        }
        throw StudioFailure.notFound("no such endpoint: \(method.rawValue) /\(path)")
    }

    /// Why `request` is refused as a cross-site request that changes state, or nil when it is not one.
    ///
    /// Browsers send `Origin` with every POST and `Sec-Fetch-Site` with every request, and a page cannot
    /// forge either; a form or a "simple" `fetch` (`text/plain`, no preflight) from another site would
    /// otherwise reach `/api/slots` and `/api/render`. The studio's own page sends `Origin` equal to
    /// `http://` and the `Host` it was loaded from, and `Sec-Fetch-Site: same-origin`. `same-site` is
    /// refused too: it is another origin on the same site (another port of this machine). Clients that
    /// send neither header (curl, scripts) are not browsers and are let through.
    static func crossSiteReason(_ request: HTTPRequest) -> String? {
        guard ![.GET, .HEAD, .OPTIONS].contains(request.method) else { return nil }
        if let site = request.headers[HTTPHeader("Sec-Fetch-Site")]?.lowercased(), site == "cross-site" || site == "same-site" {
            return "a \(site) request may not change the studio (Sec-Fetch-Site: \(site))"
        }
        if let origin = request.headers[HTTPHeader("Origin")] {
            guard let host = request.headers[.host], origin.lowercased() == "http://" + host.lowercased() else {
                return "a request from \(origin) may not change the studio (only its own page may)"
            }
        }
        return nil
    }

    /// Whether the request may be answered: the token when one is set, else a loopback `Host`.
    private func authorized(_ request: HTTPRequest) -> Bool {
        if let token {
            let given = request.query.first(where: { $0.name == "token" })?.value
                ?? request.headers[HTTPHeader("X-Studio-Token")]
                ?? Self.cookie("studio_token", in: request.headers[HTTPHeader("Cookie")])
            guard let given else { return false }
            return Self.constantTimeEqual(given, token)
        }
        guard let host = request.headers[.host] else { return true }
        let name: Substring
        if host.hasPrefix("[") { name = host.prefix(through: host.firstIndex(of: "]") ?? host.index(before: host.endIndex)) }
        else { name = host.split(separator: ":", maxSplits: 1).first ?? "" }
        return ["127.0.0.1", "localhost", "[::1]"].contains(name.lowercased())
    }

    /// The page's file `name`; the index page also sets the token cookie, so the image and event requests carry it.
    private func asset(_ name: String, setCookie: Bool) -> HTTPResponse {
        var response = Self.response(assets[name] ?? Data(), type: StudioPaths.contentType(name))
        if setCookie, let token {
            response.headers[HTTPHeader("Set-Cookie")] = "studio_token=\(token); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }

    /// A response carrying `body` as `type`, not to be cached.
    static func response(_ body: Data, type: String, status: HTTPStatusCode = .ok) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[HTTPHeader("Cache-Control")] = "no-store"
        return HTTPResponse(statusCode: status, headers: headers, body: body)
    }

    /// A JSON object answer.
    static func json(_ object: [String: String], status: HTTPStatusCode) -> HTTPResponse {
        response(StudioJSON.data(object), type: "application/json; charset=utf-8", status: status)
    }

    /// The reason phrase for the statuses `StudioFailure` uses.
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        default: "Internal Server Error"
        }
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }

    /// Compares two strings in time independent of where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}

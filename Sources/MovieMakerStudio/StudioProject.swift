import Dispatch
import Foundation
import MovieMaker

/// The previewed file and everything made from it: the description as last loaded (and the last one
/// that loaded without error), its composition, the frame cache, the slot values typed on the page,
/// and the render started from the page.
actor StudioProject {
    /// A description that loaded: the filled timeline, its composition and the key its frames are cached under.
    struct Loaded: Sendable {
        /// The description with its slots filled.
        let timeline: Timeline
        /// The description as written (slots unfilled), for the slots panel.
        let template: Timeline
        /// What renders.
        let composition: TimelineComposition
        /// Everything a frame's pixels depend on but its index and size: the picture's content hash (or the
        /// description's hash when the picture holds code), the size, the rate, the background, and the
        /// size and modification time of every file the picture reads.
        let treeKey: String
        /// Per-frame keys that change only where an edit reaches (nil: every frame uses `treeKey`).
        let frameKeys: FrameKeys?

        /// The key of frame `index` at `width`×`height`.
        func key(frame index: Int, width: Int, height: Int) -> String {
            StudioProject.frameKey(tree: frameKeys?.key(for: index) ?? treeKey, index: index, width: width, height: height)
        }
    }

    /// Frame keys made from the description's items rather than the whole picture, so an edit to one item
    /// leaves the cached frames where that item is not drawn: a frame's key hashes what applies to every
    /// frame (the output's size, rate and background, the template's slots and their values, the tracks'
    /// kinds and order, the picture's settings, the media files' stamps) and, for each picture item drawn at some time within the frame (by the
    /// plan's start and duration, rounded outwards to frames), its track, JSON path, place in time and its
    /// canonical JSON. An edit that moves later items changes their times, hence their frames' keys.
    struct FrameKeys: Sendable {
        /// What every frame's key includes.
        let global: String
        /// Each picture item's frames and key.
        let items: [(frames: Range<Int>, key: String)]

        /// The key for frame `index`.
        func key(for index: Int) -> String {
            var hash = SHA256()
            hash.update(Data(global.utf8))
            for item in items where item.frames.contains(index) { hash.update(Data("\n\(item.key)".utf8)) }
            return hash.hexDigest()
        }

        /// The keys for `timeline` as `composition` resolved it; nil when an item cannot be written as JSON
        /// or the plan does not account for every picture item (then the whole picture's hash is used).
        init?(timeline: Timeline, composition: TimelineComposition) {
            var output = timeline.output
            output.encoder = nil
            output.audio = nil
            let headers = timeline.tracks.enumerated().map { "\($0.offset) \($0.element.kind.rawValue) \($0.element.enabled ?? true)" }
            // Items name slots (`{{name}}`, `{"slot": …}`) whose values are the slots' defaults: every slot counts.
            guard let outputText = try? Timeline(output: output, template: timeline.template, slots: timeline.slots).jsonText() else { return nil }
            var inputs: [String] = []
            for url in composition.inputFiles {
                let stamp = FileStamp(path: url.path)
                inputs.append("\(url.path) \(stamp.size) \(stamp.seconds).\(stamp.nanoseconds)")
            }
            global = ([outputText, "\(composition.width)x\(composition.height)", composition.frameRate.description,
                       composition.encoderSettings.transparency ? "clear" : "black"] + headers + inputs).joined(separator: "\n")
            let rate = composition.frameRate
            var items: [(Range<Int>, String)] = []
            var planned = Set<String>()
            for item in composition.plan {
                guard let (t, i) = MovieInfo.Movie.trackAndItem(item.path), timeline.tracks.indices.contains(t),
                      timeline.tracks[t].items.indices.contains(i) else { return nil }
                let track = timeline.tracks[t]
                guard track.kind != .audio else { continue }
                // What does not reach the picture (its label, markers, metadata) is left out of the key.
                var spec = track.items[i]
                spec.label = nil
                spec.markers = []
                spec.metadata = [:]
                guard let text = try? Timeline(tracks: [Timeline.Track(track.kind, items: [spec])]).jsonText() else { return nil }
                let first = rate.frameIndex(at: item.start), end = rate.frameCount(for: item.start + item.duration)
                items.append((first..<Swift.max(end, first + 1),
                              [item.path, item.start.description, item.duration.description, item.what, item.detail, text].joined(separator: "\n")))
                planned.insert(item.path)
            }
            // Every enabled picture item must be in the plan, or a frame could miss one that it draws.
            for (t, track) in timeline.tracks.enumerated() where track.kind != .audio && track.enabled != false {
                for (i, item) in track.items.enumerated() where item.enabled != false && !planned.contains("tracks[\(t)].items[\(i)]") {
                    if case .gap = item.content { continue }
                    return nil
                }
            }
            self.items = items
        }
    }

    /// The file as given.
    let file: URL
    /// Its folder: relative paths in the description, and the only folder whose files are served.
    let folder: URL
    /// Whether the file is a Swift script rather than a description.
    let isScript: Bool
    /// Compiles a Swift script (as `moviemaker run` does, cached), giving the executable or the compiler's first error.
    let scriptBuilder: (@Sendable (URL) async -> Result<URL, StudioProblem>)?
    /// The script's movie, once it has run (kept while a later edit is broken).
    private(set) var script: ScriptMovie?
    /// Stops the script run drawing proxies, if any.
    private var scriptProxyStop: CancellationToken?
    /// Counts loads: every reload makes a new version, which the page uses to fetch the movie again.
    private(set) var version = 0
    /// The last description that loaded (kept while a later edit is broken, so the page keeps its timeline).
    private(set) var loaded: Loaded?
    /// What is wrong with the file as it is now; nil when it loaded.
    private(set) var problem: StudioProblem?
    /// Slot values set from the page, by slot name (text, a colour, or a file path).
    private(set) var slotValues: [String: String] = [:]
    /// Encoded frames.
    private var cache: FrameCache
    /// Frames being rendered, by key, so two requests for one frame render it once.
    private var inFlight: [String: Task<Data, any Error>] = [:]
    /// Where frames are drawn, one at a time (the page asks for the latest frame only).
    private let frameQueue = DispatchQueue(label: "moviemaker.studio.frames")
    /// The files watched for changes (the description and every file it reads), with their stamps.
    private var watched: [String: FileStamp] = [:]
    /// The render started from the page, if any.
    private var render: RenderJob?
    /// Where proxies (low-resolution frames for playback) are drawn, behind the frames asked for.
    private let proxyQueue = DispatchQueue(label: "moviemaker.studio.proxies", qos: .utility)
    /// The task drawing proxies ahead of playback, if any.
    private var proxies: Task<Void, Never>?
    /// The sound of the load `version`, once asked for (nil inside: the movie has no sound).
    private var sound: (version: Int, preview: SoundPreview?)?

    /// A project for `file`, caching at most `cacheBytes` bytes of encoded frames. Nothing is read yet: call `reload()`.
    init(file: URL, cacheBytes: Int, scriptBuilder: (@Sendable (URL) async -> Result<URL, StudioProblem>)?) {
        self.file = file.standardizedFileURL
        folder = self.file.deletingLastPathComponent()
        isScript = file.pathExtension.lowercased() == "swift"
        cache = FrameCache(capacity: cacheBytes)
        self.scriptBuilder = scriptBuilder
    }

    // MARK: Loading

    /// Reads the file again: a new version, with the new composition or the problem. Returns the event
    /// announcing it (`reload`, or `error` with the message and JSON path).
    @discardableResult
    func reload() async -> StudioEvent {
        let file = self.file, folder = self.folder
        proxies?.cancel()
        proxies = nil
        scriptProxyStop?.cancel()
        scriptProxyStop = nil
        if isScript {
            watched = Self.stamps(of: [file])
            guard let scriptBuilder else {
                problem = StudioProblem(message: "this studio cannot compile Swift scripts: start it with `moviemaker studio \(file.lastPathComponent)`",
                                        file: file.path, code: "compilerNotFound")
                version += 1
                return event()
            }
            switch await scriptBuilder(file) {
            case let .failure(failure):
                problem = failure
            case let .success(executable):
                let result: Result<ScriptMovie, StudioProblem> = await Self.onQueue(DispatchQueue.global(qos: .userInitiated)) {
                    Self.loadScript(executable, file: file)
                }
                switch result {
                case let .success(movie): script = movie; problem = nil
                case let .failure(failure): problem = failure
                }
            }
            version += 1
            return event()
        }
        let assignments = slotValues.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // Stamped before it is read: a save made while a slow load runs is then a change, loaded next.
        let described = FileStamp(path: file.path)
        let result: Result<Loaded, StudioProblem> = await Self.onQueue(DispatchQueue.global(qos: .userInitiated)) {
            Self.load(file: file, folder: folder, assignments: assignments)
        }
        switch result {
        case let .success(new):
            loaded = new
            problem = nil
            watched = Self.stamps(of: [file] + new.composition.inputFiles)
        case let .failure(failure):
            problem = failure
            // Keep watching the media of the last good version, and the file the error names: adding a
            // missing photo, or fixing one, reloads.
            let named = failure.file.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL }
            watched = Self.stamps(of: [file] + (loaded?.composition.inputFiles ?? []) + (named.map { [$0] } ?? []))
        }
        watched[file.path] = described
        version += 1
        return event()
    }

    /// The event for the current state: `error` when the file has a problem, else `reload`.
    func event() -> StudioEvent {
        if let problem {
            return StudioEvent(name: "error", json: StudioJSON.text(ErrorEvent(version: version, error: problem)))
        }
        return StudioEvent(name: "reload", json: StudioJSON.text(ReloadEvent(version: version, frameCount: frameCount)))
    }

    /// The frame count of the last good version (0 before one loaded).
    var frameCount: Int { loaded?.composition.frameCount ?? script?.movie.frameCount ?? 0 }

    /// How long a script may run to report its movie or draw a frame before the studio stops it.
    static let scriptTimeout: TimeInterval = 300

    /// Runs the compiled script counting its frames (nothing drawn, nothing encoded, nothing written).
    private static func loadScript(_ executable: URL, file: URL) -> Result<ScriptMovie, StudioProblem> {
        do {
            let outcome = try ScriptRun.run(executable, script: file, mode: "preview - 1", timeout: scriptTimeout)
            outcome.cleanUp()
            guard let movie = outcome.movie else {
                return .failure(StudioProblem(message: "the script made no movie: create a MovieMaker, add frames and call finish()",
                                              file: file.path, code: "noFrames"))
            }
            let stamp = FileStamp(path: executable.path)
            var hash = SHA256()
            hash.update(Data("script \(executable.path) \(stamp.size) \(stamp.seconds).\(stamp.nanoseconds)".utf8))
            return .success(ScriptMovie(executable: executable, movie: movie, key: hash.hexDigest()))
        } catch {
            return .failure(error)
        }
    }

    /// The payload of a `reload` event.
    struct ReloadEvent: Codable { let version: Int; let frameCount: Int }
    /// The payload of an `error` event.
    struct ErrorEvent: Codable { let version: Int; let error: StudioProblem }

    /// Whether any watched file changed since the last load (size, modification time, or which file it is).
    func changedOnDisk() -> Bool {
        for (path, stamp) in watched where FileStamp(path: path) != stamp { return true }
        return false
    }

    /// Sets (or, with an empty value, clears) the slot values typed on the page, then reloads.
    func setSlots(_ values: [String: String]) async -> StudioEvent {
        for (name, value) in values { slotValues[name] = value.isEmpty ? nil : value }
        return await reload()
    }

    /// Loads and resolves the description, filling its slots with `assignments`.
    private static func load(file: URL, folder: URL, assignments: [String]) -> Result<Loaded, StudioProblem> {
        do {
            let template = try Timeline(contentsOf: file)
            // A value typed for a slot the file no longer has (renamed since) is left out, not an error
            // that no edit of the file could clear.
            let current = assignments.filter { template.slots[String($0.prefix { $0 != "=" })] != nil }
            // A file typed on the page is one of the project's: the studio shows only its folder's files
            // (its page may be reached from another machine with --host).
            let root = folder.resolvingSymlinksInPath().path
            for assignment in current {
                let name = String(assignment.prefix { $0 != "=" }), value = String(assignment.dropFirst(name.count + 1))
                guard let kind = template.slots[name]?.kind, [.video, .photo, .media, .audio].contains(kind), !value.isEmpty else { continue }
                let url = (value.hasPrefix("/") ? URL(fileURLWithPath: value) : folder.appendingPathComponent(value)).standardizedFileURL.resolvingSymlinksInPath()
                guard url.path == root || url.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                    throw StudioProblem(message: "the slot \"\(name)\" names \(value), outside the project's folder \(root): the studio reads only the project's files; copy it into the folder",
                                        jsonPath: "slots.\(name)", file: file.path, code: "invalidDescription")
                }
            }
            let values = try template.slotValues(assignments: current, media: [], relativeTo: folder)
            let timeline = try template.filled(with: values)
            let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder))
            let tree = treeKey(of: composition)
            return .success(Loaded(timeline: timeline, template: template, composition: composition, treeKey: tree,
                                   frameKeys: FrameKeys(timeline: timeline, composition: composition)))
        } catch {
            var problem = StudioProblem(error)
            if problem.file == nil { problem.file = file.path }
            return .failure(problem)
        }
    }

    /// The part of a frame's cache key that is the same for every frame of `composition`.
    static func treeKey(of composition: TimelineComposition) -> String {
        var parts = [(try? composition.picture.contentHash()) ?? "description \(composition.descriptionHash)",
                     "\(composition.width)x\(composition.height)", composition.frameRate.description,
                     composition.encoderSettings.transparency ? "clear" : "black"]
        for url in composition.inputFiles {
            let stamp = FileStamp(path: url.path)
            parts.append("\(url.path) \(stamp.size) \(stamp.seconds).\(stamp.nanoseconds)")
        }
        var hash = SHA256()
        hash.update(Data(parts.joined(separator: "\n").utf8))
        return hash.hexDigest()
    }

    /// The current stamps of `urls`.
    private static func stamps(of urls: [URL]) -> [String: FileStamp] {
        var out: [String: FileStamp] = [:]
        for url in urls.prefix(1_000) { out[url.path] = FileStamp(path: url.path) }
        return out
    }

    // MARK: Frames

    /// The PNG of frame `index` at `scale` (0 < scale ≤ 1 of the movie's size) of the last description that
    /// loaded, from the cache or drawn now through the frame-range render path
    /// (`Clip.renderFrames(_:width:height:rate:background:)`), so its pixels are the movie's frame.
    /// Returns the PNG and whether it came from the cache.
    func frame(_ index: Int, scale: Double) async throws -> (png: Data, cached: Bool) {
        if isScript { return try await scriptFrame(index, scale: scale) }
        guard let loaded else {
            throw StudioFailure.conflict(problem.map { "nothing to show: \($0.summary)" } ?? "nothing loaded yet")
        }
        let composition = loaded.composition
        guard (0..<composition.frameCount).contains(index) else {
            throw StudioFailure.notFound("frame \(index) is outside the movie's \(composition.frameCount) frames (0…\(composition.frameCount - 1))")
        }
        guard scale.isFinite, scale > 0, scale <= 1 else { throw StudioFailure.badRequest("scale must be more than 0 and at most 1, got \(scale)") }
        let width = max(2, Int((Double(composition.width) * scale).rounded()))
        let height = max(2, Int((Double(composition.height) * scale).rounded()))
        let key = loaded.key(frame: index, width: width, height: height)
        if let png = cache.get(key) { return (png, true) }
        if let running = inFlight[key] { return (try await running.value, false) }
        let queue = frameQueue
        let task = Task<Data, any Error> {
            try await Self.onQueue(queue) { () throws -> Data in
                let background: Color = composition.encoderSettings.transparency ? .clear : .black
                let frames = try composition.picture.renderFrames(index..<(index + 1), width: composition.width, height: composition.height,
                                                                  rate: composition.frameRate, background: background, drawingThreads: 1,
                                                                  videoDecoderLimit: composition.encoderSettings.videoDecoderLimit)
                guard let pixels = frames.first else { throw StudioFailure.internal("frame \(index) was not drawn") }
                return try PNGEncoding.png(pixels, width: width, height: height)
            }
        }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let png = try await task.value
        cache.put(key, png)
        return (png, false)
    }

    /// Frame `index` of the script's movie at `scale`: from the cache, or drawn by running the script
    /// with `StudioHook`'s preview mode (the frames before it that build on each other are drawn too,
    /// nothing is encoded), so its pixels are those `moviemaker run` would encode.
    private func scriptFrame(_ index: Int, scale: Double) async throws -> (png: Data, cached: Bool) {
        guard let script else {
            throw StudioFailure.conflict(problem.map { "nothing to show: \($0.summary)" } ?? "nothing loaded yet")
        }
        let count = script.movie.frameCount
        guard (0..<count).contains(index) else {
            throw StudioFailure.notFound("frame \(index) is outside the movie's \(count) frames (0…\(count - 1))")
        }
        guard scale.isFinite, scale > 0, scale <= 1 else { throw StudioFailure.badRequest("scale must be more than 0 and at most 1, got \(scale)") }
        let key = Self.frameKey(tree: script.key, index: index, width: Self.scaled(script.movie.width, scale), height: Self.scaled(script.movie.height, scale))
        if let png = cache.get(key) { return (png, true) }
        if let running = inFlight[key] { return (try await running.value, false) }
        let file = self.file, queue = frameQueue
        let task = Task<Data, any Error> {
            try await Self.onQueue(queue) { () throws -> Data in
                let outcome = try ScriptRun.run(script.executable, script: file, mode: "preview \(index) \(scale)", timeout: Self.scriptTimeout)
                defer { outcome.cleanUp() }
                guard let png = outcome.png(index) else {
                    throw StudioFailure.notFound("the script did not draw frame \(index) this time (it made \(outcome.movie?.frameCount ?? 0) frames): does it draw the same movie every run?")
                }
                return png
            }
        }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let png = try await task.value
        cache.put(key, png)
        return (png, false)
    }

    /// `side` × `scale`, rounded, at least 2 (as frames and proxies are sized).
    static func scaled(_ side: Int, _ scale: Double) -> Int { max(2, Int((Double(side) * scale).rounded())) }

    /// Draws the script's frames from `first` to the end at `scale` into the cache: one run of the script
    /// at low priority, whose frames are cached as it writes them. A reload or new proxies stop it.
    private func startScriptProxies(_ script: ScriptMovie, scale: Double, from first: Int) {
        scriptProxyStop?.cancel()
        let stop = CancellationToken()
        scriptProxyStop = stop
        let count = script.movie.frameCount
        guard first < count else { return }
        let width = Self.scaled(script.movie.width, scale), height = Self.scaled(script.movie.height, scale)
        let missing = (first..<count).filter { !cache.contains(Self.frameKey(tree: script.key, index: $0, width: width, height: height)) }
        guard let from = missing.first, let to = missing.last else { return }
        let (stream, continuation) = AsyncStream<(Int, Data)>.makeStream()
        let file = self.file, queue = proxyQueue
        queue.async {
            var seen = Set<Int>()
            _ = try? ScriptRun.run(script.executable, script: file, mode: "preview \(from)..<\(to + 1) \(scale)", timeout: 3_600) { folder in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                for name in names where name.hasPrefix("frame-") && name.hasSuffix(".png") {
                    guard let index = Int(name.dropFirst(6).dropLast(4)), !seen.contains(index) else { continue }
                    let url = folder.appendingPathComponent(name)
                    guard let data = try? Data(contentsOf: url) else { continue }
                    seen.insert(index)
                    try? FileManager.default.removeItem(at: url)
                    continuation.yield((index, data))
                }
                return !stop.isCancelled
            }.cleanUp()
            continuation.finish()
        }
        proxies = Task { [weak self] in
            for await (index, png) in stream {
                guard let self, !Task.isCancelled else { stop.cancel(); return }
                await self.cacheScriptFrame(png, index: index, width: width, height: height, key: script.key)
            }
        }
    }

    /// Caches a script frame drawn in the background, unless the script changed meanwhile.
    private func cacheScriptFrame(_ png: Data, index: Int, width: Int, height: Int, key: String) {
        guard script?.key == key else { return }
        cache.put(Self.frameKey(tree: key, index: index, width: width, height: height), png)
    }

    /// Starts drawing the frames from `start` to the end at `scale` into the cache, a few at a time on a
    /// queue of lower priority than the frames asked for (so scrubbing is not kept waiting): the
    /// proxies the page plays. Replaces proxies already being drawn; a reload stops them.
    func startProxies(scale: Double, from start: Int) throws {
        if isScript {
            guard let script else { throw StudioFailure.conflict("nothing to play: the script has not run") }
            guard scale.isFinite, scale > 0, scale <= 1 else { throw StudioFailure.badRequest("scale must be more than 0 and at most 1, got \(scale)") }
            proxies?.cancel()
            startScriptProxies(script, scale: scale, from: max(0, start))
            return
        }
        guard let loaded else { throw StudioFailure.conflict("nothing to play: the description has not loaded") }
        guard scale.isFinite, scale > 0, scale <= 1 else { throw StudioFailure.badRequest("scale must be more than 0 and at most 1, got \(scale)") }
        proxies?.cancel()
        let composition = loaded.composition
        let width = max(2, Int((Double(composition.width) * scale).rounded()))
        let height = max(2, Int((Double(composition.height) * scale).rounded()))
        let first = max(0, min(start, composition.frameCount))
        proxies = Task { [weak self] in
            var index = first
            while index < composition.frameCount, !Task.isCancelled {
                let chunk = index..<min(index + 4, composition.frameCount)
                guard let self, await self.drawProxies(chunk, of: loaded, width: width, height: height) else { return }
                index = chunk.upperBound
            }
        }
    }

    /// Draws the frames of `range` not yet cached at `width`×`height` (one render session for the
    /// range) and caches them; false when the description changed meanwhile or drawing failed.
    private func drawProxies(_ range: Range<Int>, of loaded: Loaded, width: Int, height: Int) async -> Bool {
        let keys = range.map { loaded.key(frame: $0, width: width, height: height) }
        let missing = range.filter { !cache.contains(keys[$0 - range.lowerBound]) }
        guard let from = missing.first, let to = missing.last else { return true }
        let composition = loaded.composition
        let pngs: [Data]
        do {
            pngs = try await Self.onQueue(proxyQueue) { () throws -> [Data] in
                let background: Color = composition.encoderSettings.transparency ? .clear : .black
                let frames = try composition.picture.renderFrames(from..<(to + 1), width: composition.width, height: composition.height,
                                                                  rate: composition.frameRate, background: background, drawingThreads: 1,
                                                                  videoDecoderLimit: composition.encoderSettings.videoDecoderLimit)
                return try frames.map { try PNGEncoding.png($0, width: width, height: height) }
            }
        } catch {
            return false
        }
        guard self.loaded?.treeKey == loaded.treeKey else { return false }
        for (offset, png) in pngs.enumerated() { cache.put(keys[from + offset - range.lowerBound], png) }
        return true
    }

    /// A frame's cache key: the tree's key, the index and the encoded size.
    static func frameKey(tree: String, index: Int, width: Int, height: Int) -> String { "\(tree)/\(index)/\(width)x\(height)" }

    /// The cache's counters: frames held, bytes, hits and misses.
    var cacheStatistics: (count: Int, bytes: Int, hits: Int, misses: Int) { (cache.count, cache.bytes, cache.hits, cache.misses) }

    // MARK: Sound

    /// The sound of the last description that loaded, made once per load; nil when it has none.
    func soundPreview() async throws -> SoundPreview? {
        // A script's sound is heard only in its render (its sources are made by its code).
        if isScript { return nil }
        guard let loaded else { throw StudioFailure.conflict("nothing loaded yet") }
        let version = self.version
        if let sound, sound.version == version { return sound.preview }
        let composition = loaded.composition
        let preview = try await Self.onQueue(DispatchQueue.global(qos: .userInitiated)) { try SoundPreview.make(composition) }
        if self.version == version { sound = (version, preview) }
        return preview
    }

    // MARK: The movie as data

    /// What `GET /api/movie` answers: the version, the problem if any, and the last good movie's settings,
    /// tracks, items, slots and warnings.
    func info() -> MovieInfo {
        MovieInfo(version: version, file: file.lastPathComponent, kind: isScript ? "script" : "description",
                  ok: problem == nil, error: problem,
                  movie: loaded.map { MovieInfo.Movie($0, slotValues: slotValues) } ?? script.map { MovieInfo.Movie(script: $0, file: file) },
                  render: render?.status,
                  cache: MovieInfo.Cache(frames: cache.count, bytes: cache.bytes, hits: cache.hits, misses: cache.misses))
    }

    // MARK: Rendering the movie

    /// Starts rendering the last good description to a movie beside it (`NAME.mp4`, or `.mov` for a
    /// transparent one), announcing progress with `publish`. Throws `.conflict` while a render runs.
    func startRender(publish: @escaping @Sendable (StudioEvent) async -> Void) throws -> RenderJob.Status {
        if isScript {
            guard let script else { throw StudioFailure.conflict("nothing to render: the script has not run") }
            if let render, render.isRunning { throw StudioFailure.conflict("a render is already running") }
            let job = RenderJob(script: script, file: file, folder: folder, publish: publish)
            render = job
            job.start()
            return job.status
        }
        guard let loaded else { throw StudioFailure.conflict("nothing to render: the description has not loaded") }
        if let render, render.isRunning { throw StudioFailure.conflict("a render is already running") }
        let stem = file.deletingPathExtension().lastPathComponent
        let ext = loaded.composition.encoderSettings.transparency ? "mov" : "mp4"
        let destination = folder.appendingPathComponent("\(stem.isEmpty ? "movie" : stem).\(ext)")
        // `clip.json` showing `clip.mp4` would render over its own source: refused, as `render -o` is.
        if let input = loaded.composition.inputFiles.first(where: { Self.sameFile($0, destination) }) {
            throw StudioFailure.conflict("the movie would be written to \(destination.lastPathComponent), which the description reads (\(input.path)): "
                                         + "rename the description or that file, or render with `moviemaker render \(file.lastPathComponent) -o another.\(ext)`")
        }
        let job = RenderJob(composition: loaded.composition, destination: destination, segmentCache: RenderJob.segmentCache(for: file), publish: publish)
        render = job
        job.start()
        return job.status
    }

    /// Whether `a` and `b` name one file: the same device and inode when both exist (through links and
    /// other spellings of the path), else the same resolved path.
    static func sameFile(_ a: URL, _ b: URL) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a.path, &sa) == 0, stat(b.path, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return a.standardizedFileURL.resolvingSymlinksInPath().path == b.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Cancels a running render (the server is stopping) and waits (up to 5 s) until it has stopped and
    /// removed its partial file.
    func cancelRender() async {
        guard let render, render.isRunning else { return }
        render.cancel()
        _ = await render.waitUntilEnded(seconds: 5)
    }

    /// Runs `work` on `queue`, suspending the caller (not blocking a cooperative thread) until it returns.
    static func onQueue<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// `onQueue` for work that cannot fail.
    static func onQueue<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}

/// JSON encoding for the API (sorted keys, so answers are stable).
enum StudioJSON {
    /// `value` as JSON bytes.
    static func data(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// `value` as one line of JSON text.
    static func text(_ value: some Encodable) -> String { String(decoding: data(value), as: UTF8.self) }
}

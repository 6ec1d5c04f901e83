import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// A render's lifecycle: media opened before the first frame, frame ranges in a movie, cancellation
/// that leaves nothing behind, stale partial files of killed processes, bounded frames in flight.
@Suite struct RenderLifecycleTests {
    /// A clip that changes every frame.
    static let moving = Clip(duration: 3) { ctx, f in
        ctx.clear(Color(hue: f.progress, saturation: 0.8, brightness: 0.9))
        ctx.setFill(.white)
        ctx.fillRect(Rect(x: Double(f.index * 3 % 50), y: 10, width: 12, height: 12))
    }

    @Test("the pixel buffer is made with the first serial frame, from the last clip's last frame; a movie of clips alone has none")
    func pixelBufferIsMadeOnFirstUse() throws {
        let folder = try TemporaryFolder()
        let movie = try MovieMaker(url: folder.file("m.mp4"), width: 64, height: 48, fps: 10,
                                   settings: EncoderSettings(crf: 0, preset: .ultrafast, drawingThreads: 2))
        // Before any frame: the background, with no buffer made.
        #expect(movie.currentPixels().rgba(x: 30, y: 20) == (0, 0, 0, 255))
        #expect(!movie.hasPixelBuffer)
        try movie.add(.color(.red, duration: 0.3))
        #expect(!movie.hasPixelBuffer)
        #expect(movie.currentPixels().rgba(x: 30, y: 20) == (255, 0, 0, 255))
        // A serial frame draws over the clip's last frame: only its corner changes.
        try movie.addFrame { ctx in
            ctx.setFill(.blue)
            ctx.fillRect(Rect(x: 0, y: 0, width: 16, height: 16))
        }
        #expect(movie.hasPixelBuffer)
        let pixels = movie.currentPixels()
        #expect(pixels.rgba(x: 30, y: 20) == (255, 0, 0, 255) && pixels.rgba(x: 4, y: 4) == (0, 0, 255, 255))
        // A second clip's last frame lands in the buffer made by now.
        try movie.add(.color(.green, duration: 0.2))
        #expect(movie.currentPixels().rgba(x: 4, y: 4) == (0, 255, 0, 255))
        try movie.finish()
        let frames = try decodeAll(folder.file("m.mp4"))
        #expect(frames.count == 3 + 1 + 2)
        let serial = frames[3].pixels.rgba(x: 30, y: 20), corner = frames[3].pixels.rgba(x: 4, y: 4)
        #expect(serial.red > 240 && serial.blue < 15, "the serial frame's middle: \(serial)")
        #expect(corner.blue > 240 && corner.red < 15, "the serial frame's corner: \(corner)")

        // Clips alone: no buffer, ever.
        let clips = try MovieMaker(url: folder.file("c.mp4"), width: 64, height: 48, fps: 10, settings: EncoderSettings(preset: .ultrafast))
        try clips.add(.color(.red, duration: 0.2))
        try clips.add(Self.moving, frames: 0..<3)
        try clips.finish()
        #expect(!clips.hasPixelBuffer)
    }

    @Test("a frame range added to a movie decodes to the whole movie's frames at those indices")
    func frameRangeInAMovie() throws {
        let folder = try TemporaryFolder()
        // Lossless x264 (crf 0), so decoded frames depend only on the frames drawn, not on where each
        // GOP starts.
        let settings = EncoderSettings(crf: 0, preset: .ultrafast, drawingThreads: 2)
        let whole = try MovieMaker(url: folder.file("whole.mp4"), width: 64, height: 48, fps: 10, settings: settings)
        try whole.add(Self.moving)
        try whole.finish()
        let part = try MovieMaker(url: folder.file("part.mp4"), width: 64, height: 48, fps: 10, settings: settings)
        try part.add(Self.moving, frames: 11..<23)
        try part.add(Self.moving, frames: 29..<30)
        let summary = try part.finish()
        #expect(summary.frameCount == 13)
        let all = try decodeAll(folder.file("whole.mp4")).map(\.pixels)
        let some = try decodeAll(folder.file("part.mp4")).map(\.pixels)
        #expect(all.count == 30 && some.count == 13)
        #expect(Array(some.prefix(12)) == Array(all[11..<23]))
        #expect(some.last == all[29])
        // Timestamps run on from the movie's start, frame after frame.
        #expect(try MovieReader(url: folder.file("part.mp4")).packetTimestamps().sorted() == (0..<13).map { FrameRate(10).time(ofFrame: $0) })
        #expect(throws: MovieMakerError.self) {
            let m = try MovieMaker(url: folder.file("bad.mp4"), width: 64, height: 48, fps: 10, settings: settings)
            try m.add(Self.moving, frames: 25..<31)
        }
    }

    @Test("a missing photo fails add(clip) before any frame or sound, and the movie stays usable")
    func missingMediaFailsFirst() throws {
        let folder = try TemporaryFolder()
        let movie = try MovieMaker(url: folder.file("m.mp4"), width: 64, height: 48, fps: 10, settings: EncoderSettings(preset: .ultrafast))
        let drawn = Atomic<Int>(0)
        let counting = Clip(duration: 1) { ctx, _ in drawn.add(1, ordering: .relaxed); ctx.clear(.red) }
        let missing = folder.file("gone.jpg")
        let clip = Clip.sequence(counting, .photo(missing, duration: 1))
        #expect(throws: MovieMakerError.imageUnreadable(path: missing.path, reason: "no such file")) { try movie.add(clip) }
        #expect(drawn.load(ordering: .relaxed) == 0)
        #expect(movie.frameCount == 0)
        // A text file named like a photo is refused the same way, naming it.
        let text = folder.file("notes.jpg")
        try Data("not a photo".utf8).write(to: text)
        do {
            try movie.add(.photo(text, duration: 1))
            Issue.record("a text file was accepted as a photo")
        } catch let error as MovieMakerError {
            #expect(error.code == .notAnImage && error.location?.file == text.path)
        }
        try movie.add(counting)
        #expect(try movie.finish().frameCount == 10)
    }

    @Test("a photo leaf is decoded once per render and freed when the render closes")
    func photoProvidersCloseWithTheRender() throws {
        let folder = try TemporaryFolder()
        let url = try TestPhotos.yellow(in: folder)
        let clip = Clip.sequence(.photo(url, duration: 1), .color(.black, duration: 1), .photo(url, duration: 1, fit: .fit))
        let session = try RenderSession(opening: clip, width: 32, height: 24)
        #expect(session.openProviderCount == 2)    // one per photo leaf
        let canvas = try Canvas(width: 32, height: 24)
        try canvas.draw { ctx in try clip.render(in: ctx, at: Frame(index: 0, movieIndex: 0, rate: 10, exactTime: 0.5, duration: 3), session: session) }
        let yellow = canvas.pixels().rgba(x: 30, y: 22)
        #expect(yellow.red > 240 && yellow.green > 240 && yellow.blue < 20)
        if case let .sequence(track) = clip.node, case let .media(first) = track.items[0].node {
            let provider = session.photoProvider(for: first.group!)
            #expect(provider.cachedIndices == [0] && provider.decodes == 1)
            session.close()
            #expect(provider.cachedIndices.isEmpty)
        } else {
            Issue.record("unexpected tree \(clip.node)")
        }
    }

    @Test("cancelling mid-clip stops at the next frame, deletes the partial file and leaves the destination as it was",
          arguments: [1, 2])
    func cancellationLeavesNothing(threads: Int) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("movie.mp4")
        let before = try plantExistingFile(url)
        let token = CancellationToken()
        let drawn = Atomic<Int>(0)
        let movie = try MovieMaker(url: url, width: 64, height: 48, fps: 30, settings: EncoderSettings(preset: .ultrafast, drawingThreads: threads))
        movie.cancellation = token
        let clip = Clip(duration: 10) { ctx, f in
            if drawn.add(1, ordering: .relaxed).newValue == 40 { token.cancel() }
            ctx.clear(Color(white: f.progress))
        }
        #expect(folder.contents.count == 2, "the partial file exists while rendering")
        do {
            try movie.add(clip)
            Issue.record("the render was not cancelled")
        } catch let error as MovieMakerError {
            #expect(error.code == .cancelled)
        }
        // Stopped within a frame per drawing thread of the cancel, not at the end of the clip.
        #expect(drawn.load(ordering: .relaxed) <= 40 + threads)
        #expect(folder.contents == ["movie.mp4"], "left: \(folder.contents)")
        #expect(try Data(contentsOf: url) == before)
        // The movie is discarded: later calls say it failed earlier, and why.
        do {
            try movie.addFrame { _ in }
            Issue.record("a cancelled movie accepted a frame")
        } catch let error as MovieMakerError {
            #expect(error.code == .failedEarlier)
            #expect((error.underlying as? MovieMakerError)?.code == .cancelled)
        }
    }

    @Test("cancelling stops addFrame and an in-memory render too")
    func cancellationOfOtherPaths() throws {
        let folder = try TemporaryFolder()
        let token = CancellationToken()
        let movie = try MovieMaker(url: folder.file("f.mp4"), width: 32, height: 32, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        movie.cancellation = token
        var count = 0
        #expect(throws: MovieMakerError.cancelled) {
            try movie.addFrames(count: 100) { ctx, f in
                count += 1
                if f.index == 9 { token.cancel() }
                ctx.clear(.blue)
            }
        }
        #expect(count == 10)
        #expect(folder.contents.isEmpty, "left: \(folder.contents)")
        let stop = CancellationToken()
        stop.cancel()
        #expect(throws: MovieMakerError.cancelled) { _ = try Self.moving.renderFrames(width: 8, height: 8, rate: 10, cancellation: stop) }
    }

    @Test("the next render into a folder removes partial files left by processes that no longer exist, and nothing else")
    func stalePartialFilesAreRemoved() throws {
        let folder = try TemporaryFolder()
        // A process that has exited: its ID names no process now.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try withLaunchLock { try p.run() }
        p.waitUntilExit()
        let dead = p.processIdentifier
        let host = PartialFiles.hostToken
        let stale = ".movie.partial-\(dead)-\(host)-0123abcd.mp4"
        let staleFolder = ".frames.partial-\(dead)-\(host)-89abcdef"
        let live = ".movie.partial-\(getppid())-\(host)-00000000.mp4"     // our parent is alive
        let otherHost = ".movie.partial-\(dead)-elsewhere-11111111.mp4"     // another machine's: not ours to judge
        let old = ".movie.partial-1a2b3c4d.mp4"                              // an older version's name
        for name in [stale, live, otherHost, old] { try Data("x".utf8).write(to: folder.file(name)) }
        try FileManager.default.createDirectory(at: folder.file(staleFolder), withIntermediateDirectories: false)
        #expect(PartialFiles.owner(ofPartialNamed: stale)?.pid == dead)
        #expect(PartialFiles.owner(ofPartialNamed: old) == nil)

        let movie = try MovieMaker(url: folder.file("movie.mp4"), width: 32, height: 32, fps: 10, settings: EncoderSettings(preset: .ultrafast))
        let remaining = folder.contents
        #expect(!remaining.contains(stale) && !remaining.contains(staleFolder))
        #expect(remaining.contains(live) && remaining.contains(otherHost) && remaining.contains(old))
        // Its own partial file names this process.
        let own = remaining.filter { !([live, otherHost, old].contains($0)) }
        #expect(own.count == 1 && PartialFiles.owner(ofPartialNamed: own[0])?.pid == getpid(), "\(own)")
        try movie.addFrame { $0.clear(.red) }
        try movie.finish()
        #expect(folder.contents.sorted() == [live, old, otherHost, "movie.mp4"].sorted())
    }

    @Test("hosts whose long names differ only at the end (one job's pods) name their partial files apart")
    func longHostNamesStayApart() {
        let a = PartialFiles.token(forHost: "moviemaker-render-batch-nightly-7-x2k9p")
        let b = PartialFiles.token(forHost: "moviemaker-render-batch-nightly-7-q8z4d")
        #expect(a != b, "\(a) and \(b)")
        #expect(a.count <= 32 && a.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }, "\(a)")
        #expect(PartialFiles.token(forHost: "render-1.example.org") == "render_1_example_org")
        #expect(PartialFiles.owner(ofPartialNamed: ".movie.partial-42-\(a)-0123abcd.mp4")?.host == a)
    }

    @Test("clip frames in flight stay within the encoder's pool, whatever the clip's length")
    func clipFramesInFlightAreBounded() throws {
        let folder = try TemporaryFolder()
        let movie = try MovieMaker(url: folder.file("long.mp4"), width: 64, height: 64, fps: 30,
                                   settings: EncoderSettings(crf: 30, preset: .ultrafast, bufferCount: 3, drawingThreads: 3))
        var maxInFlight = 0
        var reports = 0
        movie.progressHandler = { p in maxInFlight = max(maxInFlight, p.framesAdded - p.framesEncoded); reports += 1 }
        try movie.add(Clip(duration: 100) { ctx, f in ctx.clear(Color(white: Double(f.index % 50) / 50)) })
        #expect(movie.buffersAllocated == 3)
        #expect(maxInFlight <= 3)
        #expect(reports == 3000)
        try movie.finish()
        #expect(try MovieReader(url: folder.file("long.mp4")).packetTimestamps().count == 3000)
    }
}

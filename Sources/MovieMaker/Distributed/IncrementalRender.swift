import Foundation

/// What an incremental render (`TimelineComposition.renderIncrementally`) did: which segments it
/// rendered and which it reused from the cache, and the movie.
package struct IncrementalRenderSummary: Sendable {
    /// The segments rendered now, by frame range.
    package let rendered: [Range<Int>]
    /// The segments reused from the cache, by frame range.
    package let reused: [Range<Int>]
    /// The assembled movie.
    package let movie: MovieSummary
    /// Cached segment files removed because no longer part of this movie.
    package let pruned: Int

    /// `rendered 3 of 90 segments (frames 1800..<1860, …), reused 87`.
    package var description: String {
        let total = rendered.count + reused.count
        let which = rendered.prefix(6).map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + (rendered.count > 6 ? ", …" : "")
        return "rendered \(rendered.count) of \(total) segment\(total == 1 ? "" : "s")" + (rendered.isEmpty ? "" : " (frames \(which))")
            + ", reused \(reused.count) from the cache"
    }
}

extension TimelineComposition {
    /// The segment length of incremental renders: long enough that x264 finds its rhythm in each, short
    /// enough that an edit re-renders little.
    package static let defaultSegmentDuration = Time(value: 2, timescale: 1)

    /// Renders the movie to `url` (H.264 in `.mp4`, `.mov` or `.mkv`) as closed-GOP segments of
    /// `segmentDuration` kept in `cache`, each named by a hash of what its frames show
    /// (`Clip.segmentHash(in:)`), the files it reads and the encoder settings. Segments already in the
    /// cache under their name are reused; the others are rendered; the movie is joined from them without
    /// re-encoding, with the whole sound track rendered once, and written atomically. Segments of earlier
    /// versions that this movie no longer uses are deleted from the cache.
    ///
    /// With `EncoderSettings.lossless` the decoded frames equal a full render's; otherwise the frame
    /// count, timestamps and sound do (the bitstream differs only in where segments start with a
    /// keyframe). A picture holding a drawing closure written by hand (a registered generator) has no
    /// per-segment hash: every segment is then named by the whole description, so any edit renders
    /// them all again. The library's own drawn pictures (charts, built-in generators) carry a content key.
    package func renderIncrementally(to url: URL, cache: URL, segmentDuration: Time = defaultSegmentDuration,
                                     cancellation: CancellationToken? = nil,
                                     progress: ((RenderProgress) -> Void)? = nil) throws -> IncrementalRenderSummary {
        if let codec = encoderSettings.codec, codec != .h264 {
            throw MovieMakerError.invalidSetting(.videoCodec, value: codec.messageName,
                                                 expected: "h264 for an incremental render (its segments are joined as H.264 without re-encoding)")
        }
        guard let container = Container(fileExtension: url.pathExtension), [.mp4, .mov, .mkv].contains(container) else {
            // Its segments are joined without re-encoding, into the containers that take H.264 as it is.
            throw MovieMakerError.unsupportedContainer(extension: url.pathExtension, supported: ["mp4", "mov", "mkv"])
        }
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        } catch {
            throw MovieMakerError.destinationNotWritable(path: cache.path, reason: "the cache folder cannot be made (\(error.localizedDescription))")
        }
        // One render at a time per cache: another one's pruning would delete segments this one is about
        // to join (two CI jobs sharing a cache folder). The second waits for the first.
        let lock = try CacheLock(folder: cache, cancellation: cancellation)
        defer { withExtendedLifetime(lock) {} }
        var job = try DistributedRender(composition: self, name: "segment")
        job.hashesSegments = true
        let step = max(1, frameRate.frameCount(for: segmentDuration))
        let ranges = stride(from: 0, to: frameCount, by: step).map { $0..<min($0 + step, frameCount) }
        var rendered: [Range<Int>] = [], reused: [Range<Int>] = []
        let started = Date()
        for range in ranges {
            if cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
            let before = rendered.reduce(0) { $0 + $1.count } + reused.reduce(0) { $0 + $1.count }
            let outcome = try job.renderFrames(range, in: cache, cancellation: cancellation) { p in
                progress?(RenderProgress(framesEncoded: before + p.framesEncoded, framesAdded: before + p.framesAdded, totalFrames: self.frameCount,
                                         elapsed: Date().timeIntervalSince(started)))
            }
            switch outcome {
            case .rendered: rendered.append(range)
            case .alreadyComplete: reused.append(range)
            case .nothingToRender: break
            }
        }
        let plan = ranges.map { (frames: $0, url: job.chunkURL(frames: $0, in: cache)) }
        let movie = try job.assemble(from: cache, to: url, cancellation: cancellation)
        // Segments this movie does not use (earlier edits) go, with their records; so does the sound
        // track of earlier versions.
        let used = Set(plan.map(\.url.lastPathComponent))
        let sound = job.soundTrackURL(in: cache)?.lastPathComponent
        var pruned = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? [] where name.hasPrefix("segment.") {
            let base = name.hasSuffix(".check") ? String(name.dropLast(6)) : name
            guard !used.contains(base), base != sound else { continue }
            if (try? FileManager.default.removeItem(at: cache.appendingPathComponent(name))) != nil, !name.hasSuffix(".check") { pruned += 1 }
        }
        return IncrementalRenderSummary(rendered: rendered, reused: reused, movie: movie, pruned: pruned)
    }
}

/// An exclusive lock (flock) on a cache folder's `.moviemaker-lock` file, held while this value lives:
/// the owner of the file descriptor, which closes it (and so releases the lock).
private final class CacheLock {
    private let descriptor: Int32

    /// Takes the lock, waiting while another process or render holds it; throws `.cancelled` when
    /// `cancellation` is cancelled meanwhile, `.destinationNotWritable` when the file cannot be made.
    init(folder: URL, cancellation: CancellationToken?) throws(MovieMakerError) {
        let path = folder.appendingPathComponent(".moviemaker-lock").path
        // Any user who may write the folder may take the lock (a cache shared by CI users): flock works
        // on a descriptor opened for reading, so another user's lock file is opened read-only.
        var fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        if fd < 0 && errno == EACCES { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            throw .destinationNotWritable(path: folder.path, reason: "its lock file \(path) cannot be opened (\(String(cString: strerror(errno))))")
        }
        descriptor = fd
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { break }     // no locks on this file system: go on
            if cancellation?.isCancelled == true { throw .cancelled }     // deinit closes it
            usleep(50_000)
        }
    }

    deinit { close(descriptor) }
}

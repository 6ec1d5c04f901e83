import Foundation

/// What one render of a clip holds open: a frame provider for every media source in the tree.
///
/// Pictures get the lifecycle sound already has (an `AudioSource` value opens a per-render
/// `AudioReader`): opening a session walks the clip tree and opens each media leaf's provider (a
/// slideshow's photos share one) before the first frame, so a missing or broken file fails then, not
/// halfway through; `close()` at the end of the render frees what they decoded. Providers for clips
/// the session did not see when it opened (a clip drawn from inside another clip's closure) are opened
/// on first use and closed with the rest.
///
/// A session is shared by the render's drawing threads; `RenderSession.current` is the session of the
/// frame a thread is drawing, so `Clip.draw(in:at:)` called from a closure finds it.
final class RenderSession: @unchecked Sendable {
    // @unchecked: `photoProviders` is only touched under `lock`; the rest is immutable.
    /// The size of the frames drawn (what photos without a size of their own are prepared for).
    let frameSize: Size
    /// Whether this is the stand-in for drawing outside any render (providers then belong to the clips).
    let isStandalone: Bool
    /// Checked once per frame by whoever draws through this session (nil: never cancelled).
    let cancellation: CancellationToken?
    /// How many threads draw the render's frames (photo providers keep a photo that long after its last use).
    let drawingThreads: Int
    /// The movie frames the render's threads are drawing (registered by its `FrameScheduler`): photo
    /// providers drop a photo as soon as no frame being drawn can still ask for it.
    let framesInFlight = FramesInFlight()
    /// The render's scratch canvases (layers, transition sets), released when it closes.
    let scratch = RenderScratch()
    private let lock = NSLock()
    private var photoProviders: [ObjectIdentifier: PhotoProvider] = [:]
    /// The request number at which each provider that may hold photos was last asked for.
    private var photoProviderUse: [ObjectIdentifier: UInt64] = [:]
    private var photoRequests: UInt64 = 0
    /// The render's video decoders (at most `videoDecoderLimit` open at once).
    let videoPool: VideoDecoderPool
    /// The render's decoded stickers (every one decoded when the session opens).
    let stickers = SessionStore<StickerSource, AnimatedImage> { source throws(MovieMakerError) in try source.decode() }
    /// The render's audiogram sounds (every one opened when the session opens).
    let audiograms = SessionStore<SoundSignal, SoundAnalysis> { signal throws(MovieMakerError) in try SoundAnalysis(signal) }
    /// The render's Lottie animations (every one opened when the session opens).
    let lotties = SessionStore<LottieSource, LottiePlayer> { source throws(MovieMakerError) in try source.open() }
    /// The render's reframing analyses (every reframed file's started when the session opens).
    let reframes: ReframeJobs
    /// The render's photo counters (for `statistics`).
    let photoCounters = PhotoCounters()

    /// The session of the frame the current thread is drawing, if any.
    @TaskLocal static var current: RenderSession?

    /// Opens the providers of every media leaf in `clip` for frames of `width`×`height`, checking each
    /// file. Throws (before any frame) the first file that is missing or not an image.
    ///
    /// Videos are checked too: an HDR video throws `.videoUnsupported`, and a composition that shows
    /// more videos at once than `videoDecoderLimit` throws `.videoDecoderLimit` naming the time and the
    /// files. Their decoders open when first drawn (the next clip's a second ahead of a cut).
    init(opening clip: Clip, width: Int, height: Int, cancellation: CancellationToken? = nil,
         videoDecoderLimit: Int = EncoderSettings.defaultVideoDecoderLimit, drawingThreads: Int = 1) throws(MovieMakerError) {
        frameSize = Size(width: Double(width), height: Double(height))
        isStandalone = false
        self.cancellation = cancellation
        self.drawingThreads = max(1, drawingThreads)
        videoPool = VideoDecoderPool(limit: videoDecoderLimit, drawingThreads: drawingThreads)
        reframes = ReframeJobs(cancellation: cancellation)
        var groups: [ObjectIdentifier: PhotoGroup] = [:]
        var order: [ObjectIdentifier] = []
        var videos: [VideoLeafKey] = []
        clip.forEachMediaLeaf { media in
            if let key = media.videoKey { videos.append(key); return }
            guard let group = media.group else { return }
            let id = ObjectIdentifier(group)
            if groups[id] == nil { groups[id] = group; order.append(id) }
        }
        for key in videos { try key.file.checkShowable() }
        if !videos.isEmpty {
            try Self.checkVideoDecoderLimit(clip, limit: videoPool.limit)
            for (key, count) in Self.videoPlacesAtOnce(in: clip) where count > 1 { videoPool.allowDecoders(count, for: key) }
        }
        for id in order {
            let provider = groups[id]!.makeProvider(frame: frameSize, drawingThreads: drawingThreads, inFlight: framesInFlight, counters: photoCounters)
            try provider.validate()
            photoProviders[id] = provider
        }
        try stickers.open(clip.stickerSources)
        try audiograms.open(clip.soundSignals)
        try lotties.open(clip.lottieSources)
        do { try reframes.open(clip.reframedVideoFiles) } catch { reframes.close(); throw error }
    }

    private init(standaloneFrame: Size) {
        frameSize = standaloneFrame
        isStandalone = true
        drawingThreads = 1
        cancellation = nil
        videoPool = VideoDecoderPool(limit: EncoderSettings.defaultVideoDecoderLimit)
        reframes = Self.standaloneReframes
    }

    /// The reframing analyses of drawing outside any render: shared by every stand-in session (one is
    /// made per drawing), so a file is analysed once, never closed (each finishes into the cache).
    private static let standaloneReframes = ReframeJobs(cancellation: nil)

    /// Throws `.videoDecoderLimit` when `clip` shows more distinct videos at one time than `limit`
    /// (a 2×2 split screen of four videos needs four decoders), naming the first such time and the files.
    private static func checkVideoDecoderLimit(_ clip: Clip, limit: Int) throws(MovieMakerError) {
        if let busiest = busiestVideoTime(in: clip), busiest.files.count > limit {
            throw .videoDecoderLimit(needed: busiest.files.count, limit: limit, at: busiest.time, files: busiest.files)
        }
    }

    /// The first time at which `clip` shows the most distinct videos at once, and their file names
    /// (sorted); nil when it shows none. Leaves a reverse, freeze or loop node spreads over its span
    /// count as shown at once where its child shows them at once (a reversed stitch of three clips
    /// shows one at a time); the time named is then where the node's span starts.
    static func busiestVideoTime(in clip: Clip) -> (time: Time, files: [String])? {
        /// The distinct video leaves among `placements`.
        func videos(_ placements: [Clip.Placement]) -> [ObjectIdentifier: VideoLeafKey] {
            var keys: [ObjectIdentifier: VideoLeafKey] = [:]
            for p in placements { if let key = p.videoKey { keys[ObjectIdentifier(key)] = key } }
            return keys
        }
        let placements = clip.mediaLeaves(in: .zero..<clip.duration).filter { $0.videoKey != nil }
        guard let busiest = Clip.Placement.busiestMoment(of: placements, score: { videos($0).count }) else { return nil }
        return (busiest.time, videos(busiest.shown).values.map { $0.file.url.lastPathComponent }.sorted())
    }

    /// The video leaves `clip` shows in more than one place at a time (copies of one clip side by side,
    /// or crossfading into each other), with the most places at once. Two leaves one reverse, freeze or
    /// loop node places over its whole span show at once only where that node's child shows them at
    /// once (the node shows one moment of its child at a time).
    static func videoPlacesAtOnce(in clip: Clip) -> [(VideoLeafKey, Int)] {
        var leaves: [ObjectIdentifier: (key: VideoLeafKey, placements: [Clip.Placement])] = [:]
        for p in clip.mediaLeaves(in: .zero..<clip.duration) {
            guard let key = p.videoKey else { continue }
            leaves[ObjectIdentifier(key), default: (key, [])].placements.append(p)
        }
        return leaves.values.compactMap { leaf in
            guard leaf.placements.count > 1,
                  let most = Clip.Placement.busiestMoment(of: leaf.placements, score: \.count)?.shown.count, most > 1 else { return nil }
            return (leaf.key, most)
        }
    }

    /// Runs `body` with a decoder of the video leaf `key`, opening it first if needed (see
    /// `VideoDecoderPool`); `time` is the source time it asks for.
    func withVideoSource<R>(for key: VideoLeafKey, at time: Time, _ body: (VideoFrameSource) throws -> R) throws -> R {
        try videoPool.withSource(for: key, at: time, body)
    }

    /// Opens ahead (in the background) the decoders of the videos `clip` shows first.
    func prefetchVideos(of clip: Clip) {
        guard !isStandalone else { return }
        for p in clip.mediaLeaves(in: .zero..<Time.min(clip.duration, Clip.videoLookahead)) {
            guard case let .media(media) = p.clip.node, let key = media.videoKey else { continue }
            videoPool.prefetch(key, at: media.sourceRange.start + p.localStart)
        }
    }

    /// The stand-in session for drawing into `context` outside any render: providers are the clips'
    /// own (kept while the clip lives), nothing is opened ahead.
    static func standalone(for context: DrawingContext) -> RenderSession {
        RenderSession(standaloneFrame: context.bounds.size)
    }

    /// The provider for `group`'s photos, opening it now if the session did not see the group when it opened.
    ///
    /// A provider keeps its last photos until the render ends, so a movie of many photo clips (`stitch`
    /// of a folder: a group per photo) would hold every photo it showed. When a provider draws for the
    /// first time (or again after a pause), those no frame has asked for in `idlePhotoRequests` requests
    /// drop their photos (`PhotoProvider.close`, outside the lock; asked again, one decodes them again,
    /// to the same pixels).
    func photoProvider(for group: PhotoGroup) -> PhotoProvider {
        if isStandalone { return group.standaloneProvider(frame: frameSize) }
        let id = ObjectIdentifier(group)
        let (provider, idle): (PhotoProvider, [PhotoProvider]) = lock.withLock {
            photoRequests += 1
            let p: PhotoProvider
            if let existing = photoProviders[id] { p = existing } else {
                p = group.makeProvider(frame: frameSize, drawingThreads: drawingThreads, inFlight: framesInFlight, counters: photoCounters)
                photoProviders[id] = p
            }
            let resumed = photoProviderUse[id] == nil
            photoProviderUse[id] = photoRequests
            guard resumed else { return (p, []) }
            let stale = photoProviderUse.filter { photoRequests - $0.value > idlePhotoRequests }.map(\.key)
            for key in stale { photoProviderUse[key] = nil }
            return (p, stale.compactMap { photoProviders[$0] })
        }
        for p in idle { p.close() }
        return provider
    }

    /// How many requests a provider may go without before its photos are dropped: far more than the
    /// frames in flight can make (each frame asks a few providers).
    private var idlePhotoRequests: UInt64 { UInt64(32 * drawingThreads) }

    /// The decoded photos the render's providers hold now (for tests).
    package var photosHeld: Int { lock.withLock { Array(photoProviders.values) }.reduce(0) { $0 + $1.heldCount } }

    /// Closes every provider: decoded pictures are freed. Drawing through the session afterwards reopens
    /// what it needs.
    func close() {
        let providers: [PhotoProvider] = lock.withLock {
            defer { photoProviders.removeAll(); photoProviderUse.removeAll() }
            return Array(photoProviders.values)
        }
        for p in providers { p.close() }
        videoPool.close()
        stickers.close()
        audiograms.close()
        lotties.close()
        if !isStandalone { reframes.close() }
        scratch.release()
    }

    /// What this render waited for and opened: its photo counters and its decoder pool's peak.
    var statistics: RenderStatistics {
        var s = photoCounters.statistics
        s.peakOpenVideoDecoders = videoPool.peakOpenCount
        return s
    }

    /// How many providers are open (for tests).
    var openProviderCount: Int { lock.withLock { photoProviders.count } }
}

extension Clip.Placement {
    /// The video leaf placed, if the leaf is a video.
    var videoKey: VideoLeafKey? {
        if case let .media(media) = clip.node { return media.videoKey }
        return nil
    }
}

import Foundation
import Synchronization

/// How a photo is prepared for the way it fills the frame: the Media layer's view of `Slideshow.Fit`
/// (which the layers above map to it), so photo decoding depends on nothing above it.
enum PhotoFraming: Sendable, Hashable {
    /// The photo covers the frame (cropped when drawn): decoded to cover the decode size.
    case cover
    /// The whole photo is shown inside the frame: decoded to fit the decode size.
    case contain
    /// As `contain`, over a small blurred, darkened copy of itself drawn enlarged behind it.
    case containOverBlur
}

/// A photo decoded for drawing: the picture at about display size and, for the `blur` fit, its
/// blurred, darkened background.
final class PreparedPhoto: Sendable {
    /// The picture, upright, in sRGB, at about the size it is drawn.
    let image: Image
    /// For the `blur` fit: a small blurred, darkened copy drawn enlarged behind the picture.
    let blurredBackground: Image?
    /// Whether every pixel of `image` is opaque (a JPEG, say): drawn with `fill`, it then covers the
    /// frame, which lets a crossfade into it paint it at the fade's alpha with no scratch canvases.
    let isOpaque: Bool
    /// A prepared photo of `image` and its background.
    init(image: Image, blurredBackground: Image?) {
        self.image = image; self.blurredBackground = blurredBackground
        isOpaque = image.surface.isOpaque()
    }
}

/// The per-render frame provider of photo media: decodes a list of photos on demand and keeps only a
/// few (the current one, its neighbour in a transition and the one read ahead), so memory does not grow
/// with the number of photos. A slideshow's photos share one provider; a lone photo has its own.
///
/// Opened by a `RenderSession` before the first frame (which checks every file is there and is an
/// image) and dropped when the render ends, which frees the decoded photos. Drawing threads that need
/// a photo another thread is decoding wait on a condition until it is ready.
final class PhotoProvider: @unchecked Sendable {
    // @unchecked: `state` is only touched under `condition`'s lock; the rest is immutable.
    /// The photo files, in the order they are shown (an index is a position in this list).
    let urls: [URL]
    /// The frame size the photos are prepared for.
    let target: Size
    /// The size each photo is decoded at (the frame enlarged by its closest Ken Burns view), by index.
    let decodeSizes: [Size]
    /// How photos fill the frame (cover, or contained with or without a blurred backdrop).
    let framing: PhotoFraming
    /// The render's photo counters (waits, where photos were decoded).
    let counters: PhotoCounters
    /// How many decoded photos are kept, counting the one being read ahead: the two of a transition.
    /// The next photo is read ahead once the one before the current is idle (`isIdle`: no frame being
    /// drawn can ask for it any more), and takes its place.
    /// (`make bench`'s slideshow memory line: a fourth 24 MP photo, 13 MB, took the whole render past
    /// 150 MiB above the encoder alone; `make bench-peers`' W2: the third kept photo and the one being
    /// read ahead at every transition's start cost 24 MiB of peak memory.)
    static let capacity = 2
    /// Without a `FramesInFlight` (frames drawn by anything but the scheduler): how many movie frames a
    /// photo must have gone unused before it may be dropped — more than the frames that can be in flight
    /// at once (drawing threads plus the encoder frames they fill).
    let idleFrames: Int
    /// How many photos after the one drawn are decoded ahead.
    static let readAheadCount = 1
    private struct State {
        var cache: [Int: PreparedPhoto] = [:]
        var order: [Int] = []          // least recently used first
        var loading: Set<Int> = []
        var lastRequested = 0          // the photo a frame asked for last
        var lastUse: [Int: Int] = [:]  // photo → the latest movie frame that asked for it
        var newestFrame: Int?          // the latest movie frame that asked for any photo
    }
    private var state = State()
    /// Guards `state`; signalled whenever a decode finishes (or fails), so waiting threads re-check.
    private let condition = NSCondition()
    /// Read-ahead decodes run one after another, so only one photo's decoding buffers (for a 24 MP
    /// JPEG about 35 MB) are alive at a time besides what the drawing threads decode themselves.
    private let readAhead = DispatchQueue(label: "MovieMaker.PhotoProvider.readAhead", qos: .userInitiated)
    private let decodeCount = Atomic<Int>(0)
    /// How many photos this provider has decoded (each should be decoded once in a show played in order).
    var decodes: Int { decodeCount.load(ordering: .relaxed) }
    /// Returns when the read-ahead decodes started so far have finished.
    func waitForReadAhead() { readAhead.sync {} }
    /// The photos kept decoded now.
    var cachedIndices: Set<Int> { condition.withLock { Set(state.cache.keys) } }
    /// The photos kept decoded now plus those being decoded (for tests: never more than `capacity`
    /// through read-ahead).
    var heldCount: Int { condition.withLock { state.cache.count + state.loading.count } }

    /// A provider of `urls` prepared for frames of `target`, photo `i` decoded at `decodeSizes[i]`,
    /// prepared for `framing`, for a render drawing on `drawingThreads` threads.
    init(urls: [URL], target: Size, decodeSizes: [Size], framing: PhotoFraming, drawingThreads: Int = 1,
         inFlight: FramesInFlight? = nil, counters: PhotoCounters = PhotoCounters()) {
        precondition(decodeSizes.count == urls.count, "one decode size per photo")
        self.counters = counters
        self.urls = urls; self.target = target; self.framing = framing
        self.decodeSizes = decodeSizes
        idleFrames = 2 * max(1, drawingThreads) + 4
        self.inFlight = inFlight
    }
    /// The render's frames being drawn, when its scheduler registers them.
    private let inFlight: FramesInFlight?

    /// Forgets cached photo `index` (its memory goes when the last frame drawing it lets go). Call under the lock.
    private func drop(_ index: Int) {
        state.order.removeAll { $0 == index }
        state.cache[index] = nil
        state.lastUse[index] = nil
    }

    /// The idle cached photo to drop first (the one used longest ago; outside a render, the farthest
    /// behind), other than `spared`. Call under the lock.
    private func idleVictim(sparing spared: Int) -> Int? {
        state.order.filter { $0 != spared && isIdle($0) }.min { (state.lastUse[$0] ?? .min, $0) < (state.lastUse[$1] ?? .min, $1) }
    }

    /// Whether cached photo `index` may be dropped to make room. In a scheduled render: its last use is
    /// before the frame just before the earliest frame not drawn yet (E). A photo is shown over a run
    /// of consecutive frames, so if a frame from E on could still ask for it, frame E − 1 was in that
    /// run too, and has asked. Otherwise: unused for `idleFrames` movie frames; outside a render
    /// (frames not known), behind the photo asked for last.
    private func isIdle(_ index: Int) -> Bool {
        if let used = state.lastUse[index] {
            if let oldest = inFlight?.oldest { return used < oldest - 1 }
            if let newest = state.newestFrame { return used < newest - idleFrames }
        }
        return index < state.lastRequested
    }

    /// Checks, before any frame, that every file is there and starts like an image (a cheap check of
    /// the first bytes: damage further in is found when the photo is decoded).
    func validate() throws(MovieMakerError) {
        for url in Set(urls) {
            let head = try FileBytes(url, limit: 4096)
            if PhotoFormat.sniff(head.bytes) == nil {
                throw .notAnImage(path: url.path, reason: PhotoFormat.describeNonImage(head.bytes))
            }
        }
    }

    /// The decoded photo `index` for movie frame `frame` (nil: outside a render), decoding it now if no
    /// other thread is already doing so.
    func image(at index: Int, frame: Int? = nil) throws -> PreparedPhoto {
        var blockedSince: UInt64?      // for the render's statistics: when this call found the photo not ready
        defer { if let blockedSince { counters.recordWait(since: blockedSince) } }
        condition.lock()
        state.lastRequested = index
        if let frame {
            state.lastUse[index] = max(state.lastUse[index] ?? frame, frame)
            state.newestFrame = max(state.newestFrame ?? frame, frame)
        }
        while true {
            if let p = state.cache[index] {
                state.order.removeAll { $0 == index }; state.order.append(index)
                condition.unlock()
                return p
            }
            if !state.loading.contains(index) { break }
            if blockedSince == nil { blockedSince = DispatchTime.now().uptimeNanoseconds }
            condition.wait()
        }
        // Room first, as for a read-ahead: idle photos go before the decode, not after it.
        var dropped = false
        while state.cache.count + state.loading.count >= PhotoProvider.capacity, let victim = idleVictim(sparing: index) {
            drop(victim)
            dropped = true
        }
        state.loading.insert(index)
        condition.unlock()
        if dropped { Self.releaseFreedMemory() }
        if blockedSince == nil { blockedSince = DispatchTime.now().uptimeNanoseconds }
        do {
            let p = try decode(index)
            counters.recordDecodeOnDrawingThread()
            insert(p, at: index)
            return p
        } catch {
            condition.withLock {
                _ = state.loading.remove(index)
                condition.broadcast()
            }
            throw error
        }
    }

    /// Starts decoding the photos after `index` on a background thread, if not cached or loading.
    func prefetch(after index: Int, count: Int) {
        guard index + 1 < count else { return }
        for next in (index + 1)..<min(count, index + 1 + PhotoProvider.readAheadCount) {
            let claim = condition.withLock { () -> Bool in
                guard state.cache[next] == nil, !state.loading.contains(next) else { return false }
                // Room first, counting decodes in flight: an idle photo goes now, not after the decode.
                // With none idle, no read-ahead yet (a later frame asks again).
                while state.cache.count + state.loading.count >= PhotoProvider.capacity {
                    guard let victim = idleVictim(sparing: next) else { return false }
                    drop(victim)
                }
                state.loading.insert(next)
                return true
            }
            guard claim else { continue }
            readAhead.async {
                // Freed memory goes back before the next decode. Photos are mappings of their own
                // (unmapped when dropped); this trims what decoders malloc'd in other threads' arenas.
                Self.releaseFreedMemory()
                if let p = try? self.decode(next) {
                    self.counters.recordDecodeAhead()
                    self.insert(p, at: next)
                } else {
                    self.condition.withLock {
                        _ = self.state.loading.remove(next)
                        self.condition.broadcast()
                    }
                }
            }
        }
    }

    private func insert(_ photo: PreparedPhoto, at index: Int) {
        condition.withLock {
            state.loading.remove(index)
            state.cache[index] = photo
            state.order.removeAll { $0 == index }; state.order.append(index)
            while state.order.count > PhotoProvider.capacity {
                // Idle photos go first, least recently used first, then by recency: not by recency
                // alone, since a photo read ahead has not been used by any frame yet and would go before
                // the photo the last transition showed, and be decoded again (`make bench` counted 16
                // decodes for 10 photos).
                drop(idleVictim(sparing: index) ?? state.order.first { $0 != index }!)
            }
            condition.broadcast()
        }
        Self.releaseFreedMemory()
    }

    /// Drops every decoded photo (the render is over) once the read-ahead in flight has finished.
    func close() {
        waitForReadAhead()
        condition.withLock {
            state.cache.removeAll()
            state.order.removeAll()
        }
        Self.releaseFreedMemory()
    }

    /// Gives the memory of freed photos back to the system: glibc keeps large freed blocks in the
    /// arena of the thread that freed them (its threshold for handing them back grows with the
    /// blocks), and photos are decoded and dropped on different threads: without it the peak memory
    /// grows (`make bench`'s slideshow memory line shows it). Once per decoded photo.
    private static func releaseFreedMemory() { FreedMemory.release() }

    /// `image` reduced once to the size that covers (or fits) `box`, when it is larger than 1/0.97 of
    /// that. Decoders scale in steps (a JPEG by 1/8, 2/8, 3/8, 4/8 or not at all), so a photo can arrive
    /// at up to twice the size it is drawn at (a 12 MP photo shown 2150 pixels wide is decoded whole).
    /// Cairo draws a picture shrunk below 3/4 through a box filter far slower than its bilinear path,
    /// on every frame (`make bench`: most of a slideshow frame's drawing), and the larger picture takes
    /// up to four times the memory. Between 3/4 and 0.97 it is memory alone: a 2560×1440 photo kept
    /// for 1080p with a 10 % Ken Burns zoom is 14.1 MiB whole and 9.6 MiB reduced, three of them kept.
    /// Photos larger than 1/0.97 of the size they are shown at are reduced to it (JPEGs while decoding):
    /// a 24 MP photo decoded at 3/8 (2250×1500) for 1080p with the default 12 % Ken Burns zoom is 0.956
    /// of that, and 1.1 MiB smaller reduced.
    static let reductionThreshold = 0.97

    static func reduced(_ image: Image, to box: Size, covering: Bool) throws -> Image {
        let sx = box.width / image.size.width, sy = box.height / image.size.height
        let s = covering ? max(sx, sy) : min(sx, sy)
        guard s < reductionThreshold else { return image }
        let canvas = try Canvas(width: max(1, Int((image.size.width * s).rounded(.up))), height: max(1, Int((image.size.height * s).rounded(.up))))
        try canvas.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        canvas.surface.flush()
        return Image(surface: canvas.surface)
    }

    private func decode(_ index: Int) throws -> PreparedPhoto {
        decodeCount.add(1, ordering: .relaxed)
        // `fill` crops, so it needs the photo to cover the frame; `fit` and `blur` show all of it.
        let decodeSize = decodeSizes[index]
        let scaling: PhotoScaling = framing == .cover ? .filling(decodeSize) : .fitting(decodeSize)
        let image = try Self.reduced(PhotoDecoder.decode(urls[index], scaling: scaling).image, to: decodeSize, covering: framing == .cover)
        var background: Image? = nil
        if framing == .containOverBlur {
            // The blurred enlargement is made small (1/8 of the frame) and scaled up when drawn: it looks
            // the same as blurring at full size and costs almost nothing.
            let w = max(8, Int(target.width / 8)), h = max(8, Int(target.height / 8))
            let canvas = try Canvas(width: w, height: h)
            try canvas.draw { ctx in
                ctx.withBlur(radius: Double(w) / 40) {
                    ctx.draw(image, in: ctx.bounds, fit: .fill)
                }
                ctx.setFill(Color(white: 0, alpha: 0.35))
                ctx.fillRect(ctx.bounds)
            }
            background = try canvas.makeImage()
        }
        return PreparedPhoto(image: image, blurredBackground: background)
    }
}

/// A list of photos that share one provider per render (a slideshow's photos, or one lone photo), and
/// what the provider needs to know to prepare them. A reference type so that copies of a clip share
/// it: a render opens one provider per group.
final class PhotoGroup: Sendable {
    /// The photos, in the order they are shown.
    let urls: [URL]
    /// The frame size the photos are prepared for (nil: the size of the render's frames).
    let frameSize: Size?
    /// How much larger than the frame each photo is decoded (by index).
    let zooms: [Double]
    /// How photos fill the frame.
    let framing: PhotoFraming
    /// The provider used when a clip of this group is drawn outside any render (`Clip.draw(in:at:)` on a
    /// canvas of your own), created on first use and kept while the clip lives, as before renders had
    /// sessions; keyed by frame size.
    private let standalone = Mutex<[Size: PhotoProvider]>([:])
    /// The counters of the providers drawn outside any render (a render counts in its own).
    let standaloneCounters = PhotoCounters()

    /// A group of `urls` prepared for `frameSize` (nil: the render's), photo `i` decoded `zooms[i]`
    /// times larger than the frame, prepared for `framing`.
    init(urls: [URL], frameSize: Size?, zooms: [Double], framing: PhotoFraming) {
        precondition(zooms.count == urls.count, "one zoom per photo")
        self.urls = urls; self.frameSize = frameSize; self.zooms = zooms; self.framing = framing
    }

    /// A new provider for frames of `frame` (the render's size, used when `frameSize` is nil).
    func makeProvider(frame: Size, drawingThreads: Int = 1, inFlight: FramesInFlight? = nil,
                      counters: PhotoCounters = PhotoCounters()) -> PhotoProvider {
        let target = frameSize ?? frame
        return PhotoProvider(urls: urls, target: target, decodeSizes: zooms.map { Size(width: target.width * $0, height: target.height * $0) }, framing: framing,
                             drawingThreads: drawingThreads, inFlight: inFlight, counters: counters)
    }

    /// The provider for drawing outside a render (see `standalone`).
    func standaloneProvider(frame: Size) -> PhotoProvider {
        standalone.withLock { providers in
            if let p = providers[frame] { return p }
            let p = makeProvider(frame: frame, counters: standaloneCounters)
            providers[frame] = p
            return p
        }
    }
}

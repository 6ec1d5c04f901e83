import Foundation
import Synchronization

/// A film made of photos: each shown for a while, fitted to the frame, optionally panned and zoomed
/// (Ken Burns) and captioned, joined by a transition. `clip(width:height:)` turns it into a `Clip`
/// that composes with every other clip.
///
/// ```swift
/// var show = try Slideshow(folder: URL(fileURLWithPath: "Holiday"))
/// show.transition = .crossfade(duration: 1)
/// try movie.add(show.clip(width: 1920, height: 1080))
/// ```
///
/// As data (`Codable`), an object keyed by the property names; only `photos` is required:
/// `{"photos": ["a.jpg", {"url": "b.jpg", "duration": 5, "caption": "Lisbon"}], "transition": {"kind": "wipeleft"}}`.
public struct Slideshow: Sendable, Equatable {
    /// How a photo fills the frame (`"fill"`, `"fit"`, `"blur"` as data).
    public enum Fit: String, Sendable, CaseIterable, Codable {
        /// Cover the frame, cropping what sticks out.
        case fill
        /// Show the whole photo on the background colour (letterbox or pillarbox).
        case fit
        /// Show the whole photo over a blurred, darkened enlargement of itself, as phone apps do.
        case blur
    }

    /// What each photo's caption shows (`"none"`, `"filename"`, `"date"` as data).
    public enum Captions: String, Sendable, Hashable, Codable {
        /// No captions.
        case none
        /// The file name without its extension.
        case filename
        /// The capture date.
        case date
    }

    /// One photo of the show: as data, its file's path, or an object keyed by the property names with
    /// `url` (a path) required.
    public struct Photo: Sendable, Hashable {
        /// The image file.
        public var url: URL
        /// How long it is on screen (nil: the show's `duration`).
        public var duration: Time?
        /// Its caption text (nil: as the show's `captions` say).
        public var caption: String?
        /// Ken Burns start: the part of the photo shown first, in unit coordinates of the fitted picture (nil: chosen from the seed).
        public var kenBurnsStart: Rect?
        /// Ken Burns end (nil: chosen from the seed).
        public var kenBurnsEnd: Rect?
        /// When it was taken, for `.date` captions (nil: read from the file's EXIF when needed).
        public var captureDate: Date?

        /// A photo from a file.
        public init(url: URL, duration: Time? = nil, caption: String? = nil, kenBurnsStart: Rect? = nil, kenBurnsEnd: Rect? = nil,
                    captureDate: Date? = nil) {
            self.url = url; self.duration = duration; self.caption = caption
            self.kenBurnsStart = kenBurnsStart; self.kenBurnsEnd = kenBurnsEnd; self.captureDate = captureDate
        }
    }

    /// Pan and zoom; as data an object keyed by the property names, each optional.
    public struct KenBurns: Sendable, Hashable {
        /// Whether photos move at all.
        public var isEnabled: Bool
        /// How far the zoom goes, as a fraction (0.15 = 15 % closer at one end than the other).
        public var zoom: Double
        /// How far the view travels, as a fraction of the picture's size.
        public var pan: Double
        /// Whether photos zoom in, out, or either (chosen per photo from the seed).
        public var direction: Direction
        /// Seeds the per-photo choices, so the same show renders the same film every time.
        public var seed: UInt64

        /// Zoom direction (`"in"`, `"out"`, `"alternate"` as data).
        public enum Direction: String, Sendable, CaseIterable {
            /// Closer over time.
            case zoomIn = "in"
            /// Farther over time.
            case zoomOut = "out"
            /// Either, per photo.
            case alternate
        }

        /// Gentle movement: 12 % zoom, 6 % pan, alternating directions.
        public init(isEnabled: Bool = true, zoom: Double = 0.12, pan: Double = 0.06, direction: Direction = .alternate, seed: UInt64 = 1) {
            self.isEnabled = isEnabled; self.zoom = max(0, zoom); self.pan = max(0, pan); self.direction = direction; self.seed = seed
        }
        /// No movement.
        public static let off = KenBurns(isEnabled: false)
    }

    /// The photos, in order.
    public var photos: [Photo]
    /// How long each photo is on screen unless it says otherwise (default 3 s).
    public var duration: Time = 3
    /// How photos fill the frame (default `blur`: every photo whole, portrait or landscape, as phone apps show them).
    public var fit: Fit = .blur
    /// The colour around fitted photos.
    public var background: Color = .black
    /// Pan and zoom.
    public var kenBurns = KenBurns()
    /// The transition between photos (nil: cuts). Its duration overlaps neighbouring photos.
    public var transition: Transition? = .crossfade(duration: 1)
    /// What captions show.
    public var captions: Captions = .none
    /// How captions are drawn (size at 1080 lines; scaled to the frame).
    public var captionStyle = TextStyle(font: TextFont(size: 44, weight: .medium), color: .white, alignment: .center)

    /// A show of `photos`.
    public init(photos: [Photo]) { self.photos = photos }

    /// A show of the photos in `folder` (not its subfolders; hidden files ignored), in `order`. Each file
    /// with a photo extension has its header read: one that is not an image or is damaged is passed to
    /// `skipped` and left out, or thrown when `strict`. (Damage past the header is found by
    /// `removingUnreadablePhotos(strict:)` or when the photo is decoded.)
    public init(folder: URL, order: PhotoOrder = .fileName, strict: Bool = false,
                skipped: (MovieMakerError) -> Void = { _ in }) throws(MovieMakerError) {
        let infos = try PhotoDecoder.photos(in: folder, order: order, strict: strict, skipped: skipped)
        self.init(photos: infos.map { Photo(url: $0.url, captureDate: $0.captureDate) })
    }

    /// Puts the photos in `order`: natural file-name order, or by capture date (stable; photos
    /// without a date last).
    public mutating func sortPhotos(by order: PhotoOrder) {
        switch order {
        case .fileName: photos.sort { Slideshow.naturalOrder($0.url.lastPathComponent, $1.url.lastPathComponent) }
        case .captureDate: photos = PhotoOrder.sortedByDate(photos, date: \.captureDate)
        }
    }

    /// File extensions taken as photos when listing a folder (lower case).
    public static var imageExtensions: Set<String> { PhotoDecoder.fileExtensions }

    /// Natural order: runs of digits compare by value (`img2` < `img10`), the rest case-insensitively.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        func chunks(_ s: String) -> [(isNumber: Bool, text: Substring)] {
            var out: [(Bool, Substring)] = []
            var start = s.startIndex
            while start < s.endIndex {
                let digit = s[start].isASCII && s[start].isNumber
                var end = start
                while end < s.endIndex && (s[end].isASCII && s[end].isNumber) == digit { end = s.index(after: end) }
                out.append((digit, s[start..<end]))
                start = end
            }
            return out
        }
        let x = chunks(a), y = chunks(b)
        for (p, q) in zip(x, y) {
            if p.isNumber && q.isNumber {
                let u = p.text.drop(while: { $0 == "0" }), v = q.text.drop(while: { $0 == "0" })
                if u.count != v.count { return u.count < v.count }
                if u != v { return u < v }
            } else {
                let u = p.text.lowercased(), v = q.text.lowercased()
                if u != v { return u < v }
            }
        }
        if x.count != y.count { return x.count < y.count }
        return a < b
    }

    /// The show without the photos that cannot be decoded, and the errors saying why each was left out
    /// (each names its file). Every photo is decoded once at a small size (a JPEG at 1/8 scale in its
    /// DCT), on all cores, which finds files that are not images, truncated or corrupt before any frame
    /// is drawn. With `strict`, the first unreadable photo (in show order) is thrown instead.
    /// `progress` is called with (checked, total) from any thread.
    public func removingUnreadablePhotos(strict: Bool = false,
                                         progress: (@Sendable (Int, Int) -> Void)? = nil) throws(MovieMakerError) -> (show: Slideshow, skipped: [MovieMakerError]) {
        let urls = photos.map(\.url)
        let results = Mutex([MovieMakerError?](repeating: nil, count: urls.count))
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: urls.count) { i in
            do throws(MovieMakerError) {
                _ = try PhotoDecoder.decode(urls[i], scaling: .fitting(Size(width: 64, height: 64)))
            } catch {
                results.withLock { $0[i] = error }
            }
            let n = done.add(1, ordering: .relaxed).newValue
            progress?(n, urls.count)
        }
        let errors = results.withLock { $0 }
        if strict, let first = errors.compactMap({ $0 }).first { throw first }
        var show = self
        show.photos = zip(photos, errors).filter { $0.1 == nil }.map(\.0)
        return (show, errors.compactMap { $0 })
    }

    /// The show as a clip for frames of `width`×`height`. Photos are decoded when first needed (at about
    /// the size they are shown at), a few at a time, and the next one is decoded ahead on another thread.
    public func clip(width: Int, height: Int) throws(MovieMakerError) -> Clip {
        guard !photos.isEmpty else {
            throw .noPhotos(source: "the slideshow", reason: "its photo list is empty")
        }
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        let frame = Size(width: Double(width), height: Double(height))
        // Decoded large enough for the closest Ken Burns view, so zooming in never enlarges pixels.
        let zoom = kenBurns.isEnabled ? 1 + kenBurns.zoom : 1
        let store = PhotoStore(urls: photos.map(\.url), target: frame, decodeSize: Size(width: frame.width * zoom, height: frame.height * zoom), fit: fit)
        let scale = frame.height / 1080
        var style = captionStyle
        style.font.size *= scale
        if captions != .none || photos.contains(where: { $0.caption != nil }) {
            _ = try TextLayout("Ag", style: style)   // checks the caption font once, before any frame
        }
        var clips: [Clip] = []
        for (index, photo) in photos.enumerated() {
            let shown = photo.duration ?? duration
            // With a transition, each photo lasts its own time plus the overlap, so each is on screen
            // for its full duration between transitions.
            let length = shown + (transition.map { index < photos.count - 1 ? $0.duration : .zero } ?? .zero)
            let motion = kenBurns.isEnabled ? kenBurnsRects(for: photo, index: index) : nil
            let caption = captionText(for: photo)
            let fit = self.fit, background = self.background, count = photos.count, captionStyle = style
            clips.append(Clip(duration: length) { ctx, f in
                let picture = try store.image(at: index)
                store.prefetch(after: index, count: count)
                ctx.clear(background)
                let amount = f.duration > .zero ? min(max(f.time / f.duration.seconds, 0), 1) : 0
                let view = motion.map { $0.0.interpolated(to: $0.1, amount: Easing.sineInOut(amount)) }
                Slideshow.draw(picture, fit: fit, view: view, in: ctx)
                if let caption { try Slideshow.drawCaption(caption, style: captionStyle, in: ctx) }
            })
        }
        if let transition { return .sequence(clips, transition: transition) }
        return .sequence(clips)
    }

    /// The caption text of a photo, or nil.
    func captionText(for photo: Photo) -> String? {
        if let c = photo.caption { return c }
        switch captions {
        case .none: return nil
        case .filename: return photo.url.deletingPathExtension().lastPathComponent
        case .date:
            guard let date = photo.captureDate ?? (try? PhotoDecoder.info(photo.url))?.captureDate else { return nil }
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = "d MMMM yyyy"
            return f.string(from: date)
        }
    }

    /// The start and end views (unit rectangles of the fitted picture) of a photo's pan and zoom,
    /// from its own rectangles or chosen deterministically from the seed and its index.
    func kenBurnsRects(for photo: Photo, index: Int) -> (Rect, Rect) {
        var rng = SplitMix64(seed: kenBurns.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let zoomIn: Bool
        switch kenBurns.direction {
        case .zoomIn: zoomIn = true
        case .zoomOut: zoomIn = false
        case .alternate: zoomIn = rng.next() & 1 == 0
        }
        let near = 1 / (1 + kenBurns.zoom)     // the size of the closer view
        let angle = Double(rng.next() % 10_000) / 10_000 * 2 * .pi
        let dx = cos(angle) * kenBurns.pan / 2, dy = sin(angle) * kenBurns.pan / 2
        func view(size: Double, shift: Double) -> Rect {
            let room = (1 - size) / 2      // how far the view can move and stay inside the picture
            let cx = 0.5 + max(-room, min(room, dx * shift)), cy = 0.5 + max(-room, min(room, dy * shift))
            return Rect(x: cx - size / 2, y: cy - size / 2, width: size, height: size)
        }
        let close = view(size: near, shift: 1), wide = view(size: 1, shift: -1)
        let start = photo.kenBurnsStart ?? (zoomIn ? wide : close)
        let end = photo.kenBurnsEnd ?? (zoomIn ? close : wide)
        return (start, end)
    }

    /// Draws `picture` fitted to the context, showing the unit rectangle `view` of the fitted picture
    /// (the whole of it when nil).
    static func draw(_ picture: DecodedPhoto, fit: Fit, view: Rect?, in ctx: DrawingContext) {
        let frame = ctx.bounds
        let image = picture.image
        let size = image.size
        // Where the whole picture goes when not moving.
        let cover = max(frame.width / size.width, frame.height / size.height)
        let contain = min(frame.width / size.width, frame.height / size.height)
        let s = fit == .fill ? cover : contain
        var placed = Rect(x: frame.midX - size.width * s / 2, y: frame.midY - size.height * s / 2,
                          width: size.width * s, height: size.height * s)
        if let background = picture.blurredBackground, fit == .blur {
            let bs = max(frame.width / background.size.width, frame.height / background.size.height)
            ctx.draw(background, in: Rect(x: frame.midX - background.size.width * bs / 2, y: frame.midY - background.size.height * bs / 2,
                                          width: background.size.width * bs, height: background.size.height * bs))
        }
        if let view {
            // The view (unit rect of the frame-sized window onto the picture) is zoomed to fill that window.
            let window = fit == .fill ? frame : placed
            let k = 1 / view.width
            placed = Rect(x: window.minX + (placed.minX - window.minX - view.minX * window.width) * k,
                          y: window.minY + (placed.minY - window.minY - view.minY * window.height) * k,
                          width: placed.width * k, height: placed.height * k)
            ctx.withSavedState {
                ctx.clip(to: window)
                ctx.draw(image, in: placed)
            }
        } else {
            ctx.draw(image, in: placed)
        }
    }

    /// Draws a caption near the bottom of the frame, over a soft shadow.
    static func drawCaption(_ text: String, style: TextStyle, in ctx: DrawingContext) throws {
        let frame = ctx.bounds
        let layout = try TextLayout(text, style: style, width: frame.width * 0.8)
        let origin = Point(x: frame.width * 0.1, y: frame.height * 0.92 - layout.size.height)
        ctx.withShadow(Shadow(offset: Point(x: 0, y: 2), blur: style.font.size * 0.3, color: Color(white: 0, alpha: 0.7))) {
            layout.draw(in: ctx, at: origin)
        }
    }
}

/// A photo decoded for the show: the picture at about display size and, for the `blur` fit, its
/// blurred, darkened background.
final class DecodedPhoto: Sendable {
    let image: Image
    let blurredBackground: Image?
    init(image: Image, blurredBackground: Image?) { self.image = image; self.blurredBackground = blurredBackground }
}

/// Decodes a show's photos on demand and keeps only a few (the current one, its neighbours in a
/// transition and the ones decoded ahead): memory does not grow with the number of photos.
final class PhotoStore: Sendable {
    let urls: [URL]
    let target: Size
    let decodeSize: Size
    let fit: Slideshow.Fit
    /// How many decoded photos are kept at most: the two of a transition and the one read ahead.
    /// (`make bench`'s slideshow memory line: a fourth 24 MP photo, 13 MB, took the whole render
    /// past 150 MiB above the encoder alone.)
    static let capacity = 3
    /// How many photos after the one drawn are decoded ahead.
    static let readAheadCount = 1
    private struct State {
        var cache: [Int: DecodedPhoto] = [:]
        var order: [Int] = []          // least recently used first
        var loading: Set<Int> = []
        var lastRequested = 0          // the photo a frame asked for last
    }
    private let state = Mutex(State())
    private let ready = NSCondition()
    /// Read-ahead decodes run one after another, so only one photo's decoding buffers (for a 24 MP
    /// JPEG about 35 MB) are alive at a time besides what the drawing threads decode themselves.
    private let readAhead = DispatchQueue(label: "MovieMaker.PhotoStore.readAhead", qos: .userInitiated)
    private let decodeCount = Atomic<Int>(0)
    /// How many photos this store has decoded (each should be decoded once in a show played in order).
    var decodes: Int { decodeCount.load(ordering: .relaxed) }
    /// Returns when the read-ahead decodes started so far have finished.
    func waitForReadAhead() { readAhead.sync {} }
    /// The photos kept decoded now.
    var cachedIndices: Set<Int> { state.withLock { Set($0.cache.keys) } }

    init(urls: [URL], target: Size, decodeSize: Size, fit: Slideshow.Fit) {
        self.urls = urls; self.target = target; self.decodeSize = decodeSize; self.fit = fit
    }

    /// The decoded photo `index`, decoding it now if no other thread is already doing so.
    func image(at index: Int) throws -> DecodedPhoto {
        var blockedSince: UInt64?      // benchmark counter: when this call found the photo not ready
        defer { if let blockedSince { PhotoStoreCounters.recordWait(since: blockedSince) } }
        while true {
            enum Step { case have(DecodedPhoto), wait, load }
            let step: Step = state.withLock { s in
                s.lastRequested = index
                if let p = s.cache[index] {
                    s.order.removeAll { $0 == index }; s.order.append(index)
                    return .have(p)
                }
                if s.loading.contains(index) { return .wait }
                s.loading.insert(index)
                return .load
            }
            switch step {
            case let .have(p): return p
            case .wait:
                if blockedSince == nil { blockedSince = DispatchTime.now().uptimeNanoseconds }
                ready.lock(); _ = ready.wait(until: Date().addingTimeInterval(0.01)); ready.unlock()
            case .load:
                if blockedSince == nil { blockedSince = DispatchTime.now().uptimeNanoseconds }
                do {
                    let p = try decode(index)
                    PhotoStoreCounters.decodedOnDrawingThread.add(1, ordering: .relaxed)
                    insert(p, at: index)
                    return p
                } catch {
                    state.withLock { _ = $0.loading.remove(index) }
                    ready.lock(); ready.broadcast(); ready.unlock()
                    throw error
                }
            }
        }
    }

    /// Starts decoding the photos after `index` on a background thread, if not cached or loading.
    func prefetch(after index: Int, count: Int) {
        for next in (index + 1)..<min(count, index + 1 + PhotoStore.readAheadCount) {
            let claim = state.withLock { s -> Bool in
                guard s.cache[next] == nil, !s.loading.contains(next) else { return false }
                s.loading.insert(next)
                return true
            }
            guard claim else { continue }
            readAhead.async {
                if let p = try? self.decode(next) {
                    PhotoStoreCounters.decodedAhead.add(1, ordering: .relaxed)
                    self.insert(p, at: next)
                } else {
                    self.state.withLock { _ = $0.loading.remove(next) }
                }
            }
        }
    }

    private func insert(_ photo: DecodedPhoto, at index: Int) {
        state.withLock { s in
            s.loading.remove(index)
            s.cache[index] = photo
            s.order.removeAll { $0 == index }; s.order.append(index)
            while s.order.count > PhotoStore.capacity {
                // Photos behind the one shown go first, oldest first: a photo read ahead has not been
                // used by any frame yet, so by recency alone it would go before the photo the last
                // transition showed, and be decoded again (`make bench` counted 16 decodes for 10 photos).
                let victim = s.order.filter { $0 < s.lastRequested && $0 != index }.min() ?? s.order[0]
                s.order.removeAll { $0 == victim }
                s.cache[victim] = nil
            }
        }
        ready.lock(); ready.broadcast(); ready.unlock()
        Self.releaseFreedMemory()
    }

    /// Gives the memory of freed photos back to the system: glibc keeps large freed blocks in the
    /// arena of the thread that freed them (its threshold for handing them back grows with the
    /// blocks), and photos are decoded and dropped on different threads. `make bench`'s slideshow
    /// memory line measured about 35 MB less peak memory with it. Once per decoded photo.
    private static func releaseFreedMemory() { _ = mallocTrim?(0) }

    /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not part of Swift's Glibc module.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// `image` reduced once to the size that covers (or fits) `box`, when it is larger than 4/3 of that.
    /// Decoders scale in steps (a JPEG by 1/8, 2/8, 3/8, 4/8 or not at all), so a photo can arrive at
    /// up to twice the size it is drawn at (a 12 MP photo shown 2150 pixels wide is decoded whole).
    /// Cairo draws a picture shrunk below 3/4 through a box filter far slower than its bilinear path,
    /// on every frame (`make bench`: most of a slideshow frame's drawing), and the larger picture
    /// takes up to four times the memory.
    static func reduced(_ image: Image, to box: Size, covering: Bool) throws -> Image {
        let sx = box.width / image.size.width, sy = box.height / image.size.height
        let s = covering ? max(sx, sy) : min(sx, sy)
        guard s < 0.75 else { return image }
        let canvas = try Canvas(width: max(1, Int((image.size.width * s).rounded(.up))), height: max(1, Int((image.size.height * s).rounded(.up))))
        try canvas.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        canvas.surface.flush()
        return Image(surface: canvas.surface)
    }

    private func decode(_ index: Int) throws -> DecodedPhoto {
        decodeCount.add(1, ordering: .relaxed)
        // `fill` crops, so it needs the photo to cover the frame; `fit` and `blur` show all of it.
        let scaling: PhotoScaling = fit == .fill ? .filling(decodeSize) : .fitting(decodeSize)
        let image = try Self.reduced(PhotoDecoder.decode(urls[index], scaling: scaling).image, to: decodeSize, covering: fit == .fill)
        var background: Image? = nil
        if fit == .blur {
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
        return DecodedPhoto(image: image, blurredBackground: background)
    }
}

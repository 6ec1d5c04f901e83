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
    public enum Captions: String, Sendable, Hashable, CaseIterable, Codable {
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

    /// The show as a clip for frames of `width`×`height`: a slideshow generator leaf whose photos are
    /// photo media joined by the show's transition. Photos are decoded when first needed (at about the
    /// size they are shown at), a few at a time, and the next one is decoded ahead on another thread;
    /// a render checks that every file is there and is an image before its first frame.
    public func clip(width: Int, height: Int) throws(MovieMakerError) -> Clip {
        let leaf = try Clip.SlideshowLeaf(show: self, width: width, height: height)
        return Clip(.generator(.slideshow(leaf), duration: leaf.photos.duration))
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
    static func draw(_ picture: PreparedPhoto, fit: Fit, view: Rect?, in ctx: DrawingContext) {
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


extension Clip.SlideshowLeaf {
    /// Lays `show` out for frames of `width`×`height`: each photo a media leaf (with its caption stacked
    /// on top), one after another, joined by the show's transition. Checks the caption font once.
    public init(show: Slideshow, width: Int, height: Int) throws(MovieMakerError) {
        guard !show.photos.isEmpty else {
            throw .noPhotos(source: "the slideshow", reason: "its photo list is empty")
        }
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        let frame = Size(width: Double(width), height: Double(height))
        // Decoded large enough for the closest Ken Burns view, so zooming in never enlarges pixels.
        let zoom = show.kenBurns.isEnabled ? 1 + show.kenBurns.zoom : 1
        let group = PhotoGroup(urls: show.photos.map(\.url), frameSize: frame, zoom: zoom, fit: show.fit)
        let scale = frame.height / 1080
        var style = show.captionStyle
        style.font.size *= scale
        if show.captions != .none || show.photos.contains(where: { $0.caption != nil }) {
            _ = try TextLayout("Ag", style: style)   // checks the caption font once, before any frame
        }
        var items: [Clip] = []
        for (index, photo) in show.photos.enumerated() {
            let shown = photo.duration ?? show.duration
            // With a transition, each photo lasts its own time plus the overlap, so each is on screen
            // for its full duration between transitions.
            let length = shown + (show.transition.map { index < show.photos.count - 1 ? $0.duration : .zero } ?? .zero)
            let motion = show.kenBurns.isEnabled ? show.kenBurnsRects(for: photo, index: index) : nil
            let media = Clip.PhotoMedia(url: photo.url, fit: show.fit, background: show.background,
                                        kenBurns: motion.map { Clip.KenBurnsPath(start: $0.0, end: $0.1) },
                                        frameSize: frame, decodeZoom: zoom)
            var item = Clip(.media(Clip.Media(.photo(media), sourceRange: TimeRange(start: .zero, duration: length), group: group, index: index)))
            if let caption = show.captionText(for: photo) {
                item = .overlay([item, Clip(.generator(.caption(caption, style: style), duration: length))])
            }
            items.append(item)
        }
        self.show = show
        self.width = width
        self.height = height
        self.group = group
        photos = show.transition.map { .sequence(items, transition: $0) } ?? .sequence(items)
    }
}

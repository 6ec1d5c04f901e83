import Foundation
import Synchronization

/// A film made of photos: each shown for a while, fitted to the frame, optionally panned and zoomed
/// (Ken Burns) and captioned, joined by a transition. `clip(width:height:)` turns it into a `Clip`
/// that composes with every other clip.
///
/// <!-- prelude: let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
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

    /// Where a caption sits in the frame (`"top"`, `"bottom"`, `"center"` as data).
    public enum CaptionPosition: String, Sendable, Hashable, CaseIterable, Codable {
        /// Near the top edge, inside the title-safe margin.
        case top
        /// Near the bottom edge (the default), inside the title-safe margin.
        case bottom
        /// In the middle of the frame.
        case center
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
        /// A view closer than the show's zoom has the photo decoded for it, up to 4× the frame (so a
        /// quarter of the frame's width is the closest drawn without enlarging the photo's pixels).
        public var kenBurnsStart: Rect?
        /// Ken Burns end (nil: chosen from the seed).
        public var kenBurnsEnd: Rect?
        /// When it was taken, for `.date` captions (nil: read from the file's EXIF when needed).
        public var captureDate: Date?
        /// The point of the photo to keep in frame when `.fill` crops it, in unit coordinates of the
        /// upright photo (0,0 top-left, 1,1 bottom-right); nil: the centre, or a third of the way down
        /// for a photo taller than the frame (heads and tops are rarely in the middle).
        public var focus: Point?

        /// A photo from a file.
        public init(url: URL, duration: Time? = nil, caption: String? = nil, kenBurnsStart: Rect? = nil, kenBurnsEnd: Rect? = nil,
                    captureDate: Date? = nil, focus: Point? = nil) {
            self.url = url; self.duration = duration; self.caption = caption
            self.kenBurnsStart = kenBurnsStart; self.kenBurnsEnd = kenBurnsEnd; self.captureDate = captureDate
            self.focus = focus
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
        /// How each photo's view moves over its time on screen: `.sineInOut` (the default) starts and
        /// ends gently; `.linear` zooms and pans at a constant rate (a zoom of 0.10 magnifies 1.00 →
        /// 1.10, 1.05 half-way), as other tools' Ken Burns effects do; any `Easing` works.
        public var easing: Easing

        /// Zoom direction (`"in"`, `"out"`, `"alternate"` as data).
        public enum Direction: String, Sendable, CaseIterable {
            /// Closer over time.
            case zoomIn = "in"
            /// Farther over time.
            case zoomOut = "out"
            /// In and out by turns, photo after photo (the seed picks which comes first).
            case alternate
        }

        /// Gentle movement: 12 % zoom, 6 % pan, alternating directions, eased in and out (`easing`:
        /// `.linear` for a constant rate).
        public init(isEnabled: Bool = true, zoom: Double = 0.12, pan: Double = 0.06, direction: Direction = .alternate, seed: UInt64 = 1,
                    easing: Easing = .sineInOut) {
            self.isEnabled = isEnabled; self.zoom = max(0, zoom); self.pan = max(0, pan); self.direction = direction; self.seed = seed
            self.easing = easing
        }
        /// No movement.
        public static let off = KenBurns(isEnabled: false)

        /// The views (in unit coordinates of the fitted picture) at the start and end of the `index`-th
        /// photo's time: the seed picks the pan's direction and, with `.alternate`, whether the first
        /// photo zooms in or out (the next ones take turns).
        func rects(index: Int) -> (start: Rect, end: Rect) {
            var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let zoomIn: Bool
            switch direction {
            case .zoomIn: zoomIn = true
            case .zoomOut: zoomIn = false
            case .alternate:
                // In and out by turns; the seed picks which comes first. (The draw is still made, so the
                // pan's direction stays what the seed gave it.)
                _ = rng.next()
                var first = SplitMix64(seed: seed)
                zoomIn = (first.next() & 1 == 0) == index.isMultiple(of: 2)
            }
            let near = 1 / (1 + zoom)     // the size of the closer view
            let angle = Double(rng.next() % 10_000) / 10_000 * 2 * .pi
            let dx = cos(angle) * pan / 2, dy = sin(angle) * pan / 2
            func view(size: Double, shift: Double) -> Rect {
                let room = (1 - size) / 2      // how far the view can move and stay inside the picture
                let cx = 0.5 + max(-room, min(room, dx * shift)), cy = 0.5 + max(-room, min(room, dy * shift))
                return Rect(x: cx - size / 2, y: cy - size / 2, width: size, height: size)
            }
            let close = view(size: near, shift: 1), wide = view(size: 1, shift: -1)
            return zoomIn ? (wide, close) : (close, wide)
        }

        /// The exact path this motion gives the `index`-th photo of a show (nil when it is off): what
        /// `Clip.photo(_:duration:fit:background:kenBurns:)` takes for a single photo.
        public func path(forPhoto index: Int = 0) -> Clip.KenBurnsPath? {
            guard isEnabled else { return nil }
            let (start, end) = rects(index: index)
            return Clip.KenBurnsPath(start: start, end: end, easing: easing)
        }
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
    /// Where captions sit (default: near the bottom).
    public var captionPosition: CaptionPosition = .bottom
    /// A title card shown before the first photo (nil: none), joined to it by the show's transition;
    /// it is on screen for its `duration`, like a photo.
    public var intro: TitleCard?
    /// A title card shown after the last photo (nil: none), joined to it by the show's transition.
    public var outro: TitleCard?

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
    package mutating func sortPhotos(by order: PhotoOrder) {
        switch order {
        case .fileName: photos.sort { Slideshow.naturalOrder($0.url.lastPathComponent, $1.url.lastPathComponent) }
        case .captureDate:
            // As `PhotoDecoder.photos(in:order:)` and `stitch` order them: a file's wall-clock time without
            // an offset is read in the zone of the set's zoned times (`zoneForUnzonedTimes`), so it
            // compares with a phone's zoned time. Each photo's header read once, not in every comparison.
            let infos = photos.map { photo -> PhotoInfo? in
                guard let date = photo.captureDate, let info = try? PhotoDecoder.info(photo.url), info.captureDate == date else { return nil }
                return info
            }
            let zone = PhotoOrder.zoneForUnzonedTimes(of: infos.compactMap { $0 })
            let moments = zip(photos, infos).map { photo, info -> Date? in
                guard let date = photo.captureDate else { return nil }
                return info?.captureMoment(in: zone) ?? date
            }
            photos = PhotoOrder.sortedByDate(Array(zip(photos, moments))) { $0.1 }.map(\.0)
        }
    }

    /// How long the film lasts: every photo's time (its own `duration` or the show's) plus the intro's
    /// and outro's. Transitions overlap neighbours without shortening the film, except where a part is
    /// shorter than the transition: the transitions into and out of it then share its time, as in the
    /// rendered film (`clip(width:height:)` lasts exactly this long).
    public var totalDuration: Time {
        let shown = partTimes
        let sum = shown.reduce(Time.zero, +)
        guard let transition, shown.contains(where: { $0 < transition.duration }), shown.allSatisfy({ $0 > .zero }) else { return sum }
        // The same track the show becomes, with empty parts: its transitions shrink where they must.
        let parts = shown.enumerated().map { i, t in
            Clip(duration: t + (i < shown.count - 1 ? transition.duration : .zero)) { _, _ in }
        }
        return Clip.sequence(parts, transition: transition).duration
    }

    /// How long each part is on screen before transitions: the intro, each photo, the outro.
    var partTimes: [Time] {
        (intro.map { [$0.duration] } ?? []) + photos.map { $0.duration ?? duration } + (outro.map { [$0.duration] } ?? [])
    }

    /// `t` in seconds with at most three decimals, for messages: `0.5`, `0.033`, `6`.
    package static func seconds(_ t: Time) -> String {
        var text = String(format: "%.3f", t.seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Shares `total` (less the intro's and outro's time) equally between the photos, in whole frames
    /// at `fps` (the first photos get one frame more when it does not divide evenly), setting each
    /// photo's `duration`; the film then lasts `total` rounded up to a whole frame. Throws
    /// `.invalidSetting(.duration, …)` when a photo would get no longer than the transition (each photo
    /// must be seen on its own), naming the time each would get.
    public mutating func shareDuration(_ total: Time, fps: FrameRate) throws(MovieMakerError) {
        guard !photos.isEmpty else { throw .noPhotos(source: "the slideshow", reason: "its photo list is empty") }
        // Cards are rounded to whole frames first, so the parts add up to the total's frames.
        if var card = intro { card.duration = fps.time(ofFrame: fps.frameCount(for: card.duration)); intro = card }
        if var card = outro { card.duration = fps.time(ofFrame: fps.frameCount(for: card.duration)); outro = card }
        let cards = (intro?.duration ?? .zero) + (outro?.duration ?? .zero)
        let frames = fps.frameCount(for: total) - fps.frameCount(for: cards)
        let overlap = transition.map { fps.frameCount(for: $0.duration) } ?? 0
        let each = frames / photos.count, extra = frames % photos.count
        guard each > overlap, each > 0 else {
            let text = Self.seconds
            if frames <= 0, cards > .zero {
                throw .invalidSetting(.duration, value: "\(text(total)) s for \(photos.count) photo\(photos.count == 1 ? "" : "s")",
                                      expected: "more than the \(text(cards)) s of title cards, which would take all of it: "
                                          + "use longer music, shorter title cards or no title cards")
            }
            let share = max(0, each) == 0 ? "nothing" : "\(text(fps.time(ofFrame: each))) s (\(each) frame\(each == 1 ? "" : "s"))"
            var why = "\(extra > 0 ? "the shortest" : "each") would get \(share)"
            if cards > .zero { why += " after \(text(cards)) s of title cards" }
            if overlap > 0 { why += ", no longer than the transition's \(overlap) frame\(overlap == 1 ? "" : "s")" }
            throw .invalidSetting(.duration, value: "\(text(total)) s for \(photos.count) photo\(photos.count == 1 ? "" : "s")",
                                  expected: "\(overlap > 0 ? "more than \(text(fps.time(ofFrame: overlap))) s" : "at least a frame") per photo (\(why)): use fewer photos, "
                                      + "longer music, shorter title cards or a shorter transition")
        }
        for i in photos.indices { photos[i].duration = fps.time(ofFrame: each + (i < extra ? 1 : 0)) }
    }

    /// Sets every photo's `duration` so each photo after the first starts on the frame (at `fps`) that
    /// holds a beat: every `every`-th beat of `beats`, skipping beats closer than `minimumShot` to the
    /// previous cut (a photo must also last longer than the transition, which starts on the beat).
    /// `offset` is where the show starts in the music's time (the beats' time 0 is the music's start).
    /// Photos after the music's last usable beat keep the tempo: each lasts whole beat periods (`every`
    /// beats each, more where a photo must outlast its transition), on the beat. With `musicLoop` (the
    /// looped part's start in the music's time and `AudioClip.loopPeriod`), the beats past the music's
    /// end are its repeats' beats. Throws `.invalidSetting(.duration, …)` when the beats have no tempo to go on.
    public mutating func cutOnBeats(_ beats: Beats, fps: FrameRate, every: Int = 1, minimumShot: Time = .zero,
                                    offset: Time = .zero, musicLoop: (start: Time, period: Time)? = nil) throws(MovieMakerError) {
        guard !photos.isEmpty else { throw .noPhotos(source: "the slideshow", reason: "its photo list is empty") }
        guard every >= 1 else { throw .invalidSetting(.duration, value: "every \(every) beats", expected: "cuts on every beat (1) or every few (2, 4)") }
        guard beats.tempo > 0 else {
            throw .invalidSetting(.duration, value: "\(beats.times.count) beat\(beats.times.count == 1 ? "" : "s")",
                                  expected: "music with a steady beat to cut on (aubio found no tempo in it)")
        }
        let introFrames = intro.map { fps.frameCount(for: $0.duration) } ?? 0
        if var card = intro { card.duration = fps.time(ofFrame: introFrames); intro = card }
        let start = fps.time(ofFrame: introFrames)
        // The shortest a photo may be: longer than the transition by a frame, and the minimum shot.
        let transitionFrames = transition.map { fps.frameCount(for: $0.duration) } ?? 0
        let shortest = max(fps.frameCount(for: minimumShot), transitionFrames + 1, 1)
        let period = 60 / beats.tempo * Double(every)
        // The repeats of looped music, as far as the cuts can reach: each photo ends about its shortest
        // length and `every` beats (and a frame) after the one before; twice that, and two more loops,
        // leave room for stretches without beats (a quiet bridge) that push the cuts later.
        var beats = beats
        if let musicLoop {
            let perPhoto = fps.time(ofFrame: shortest + 1).seconds + period
            let reach = offset.seconds + start.seconds + 2 * Double(photos.count + 1) * perPhoto + 2 * musicLoop.period.seconds
            beats = beats.repeating(from: musicLoop.start, every: musicLoop.period, until: Time(seconds: reach))
        }
        // Beats in the show's time, from the first photo's start.
        let shifted = Beats(times: beats.times.compactMap { t in t >= offset ? t - offset : nil }, tempo: beats.tempo)
        var cutFrames: [Int] = []
        var previous = introFrames
        // Where the beats in use are, in seconds: the last cut's beat (or the first photo's start).
        var beat = start.seconds
        for t in shifted.cuts(from: start, to: shifted.times.last.map { $0 + 1 } ?? start, every: every) where cutFrames.count < photos.count - 1 {
            let frame = fps.frameIndex(at: t)
            guard frame - previous >= shortest else { continue }
            cutFrames.append(frame)
            previous = frame
            beat = t.seconds
        }
        // After the last beat found, the tempo goes on: whole periods from the last cut's beat (as many
        // as a photo needs to outlast its transition, as skipped beats do above), counted from that beat
        // rather than from the rounded frame, so the cuts stay on the beat.
        func nextCut() -> Int {
            repeat { beat += period } while fps.frameIndex(at: Time(seconds: beat)) - previous < shortest
            return fps.frameIndex(at: Time(seconds: beat))
        }
        while cutFrames.count < photos.count - 1 {
            previous = nextCut()
            cutFrames.append(previous)
        }
        var boundaries = [introFrames] + cutFrames
        boundaries.append(nextCut())
        for i in photos.indices { photos[i].duration = fps.time(ofFrame: boundaries[i + 1] - boundaries[i]) }
    }

    /// File extensions taken as photos when listing a folder (lower case).
    package static var imageExtensions: Set<String> { PhotoDecoder.fileExtensions }

    /// Natural order: runs of digits compare by value (`img2` < `img10`), the rest case- and
    /// accent-insensitively first (`Ábaco` < `banana` < `éclair`, as file managers list them), then by
    /// their accents and case, so the order is total and the same on every machine (no locale). Names
    /// compare without their extensions first, the extension breaking a tie: `holiday.jpg` comes
    /// before `holiday2.jpg`, and `beach.jpg` before its copy `beach 2.jpg` (whole, `.` sorted after
    /// the digit and the space).
    package static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let (baseA, extA) = nameAndExtension(a), (baseB, extB) = nameAndExtension(b)
        if baseA != baseB { return naturalNameOrder(baseA, baseB) }
        return naturalNameOrder(extA, extB)
    }

    /// `name` without its extension, and the extension (empty for none, or a name that is all extension:
    /// `.hidden`).
    private static func nameAndExtension(_ name: String) -> (String, String) {
        let last = name.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(name)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return (name, "") }
        let folder = name.dropLast(last.count)
        return (String(folder + last[..<dot]), String(last[last.index(after: dot)...]))
    }

    /// `naturalOrder` of two names as they are.
    private static func naturalNameOrder(_ a: String, _ b: String) -> Bool {
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
        // First every chunk without accents and case (so `eglise 10` follows `Église 2`), then accents
        // alone, then the exact text: a total order, the same on every machine.
        for (p, q) in zip(x, y) {
            if p.isNumber && q.isNumber {
                let u = p.text.drop(while: { $0 == "0" }), v = q.text.drop(while: { $0 == "0" })
                if u.count != v.count { return u.count < v.count }
                if u != v { return u < v }
            } else {
                let u = p.text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                let v = q.text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                if u != v { return u < v }
            }
        }
        if x.count != y.count { return x.count < y.count }
        let lu = a.lowercased(), lv = b.lowercased()
        if lu != lv { return lu < lv }
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

    /// The caption a photo gets: its own `caption`, else what `captions` says (its file name without the
    /// extension, or its capture date as "1 June 2025"); nil for none.
    package func captionText(for photo: Photo) -> String? {
        if let c = photo.caption { return c }
        switch captions {
        case .none: return nil
        case .filename: return photo.url.deletingPathExtension().lastPathComponent
        case .date:
            // The file's own date is shown as its camera's calendar had it (not in the rendering
            // machine's zone: a photo taken at 08:00 in Tokyo is captioned that day everywhere); a date
            // given in code is a moment, shown in this machine's zone.
            let info = try? PhotoDecoder.info(photo.url)
            if let info, photo.captureDate == nil || photo.captureDate == info.captureDate { return info.captureDay }
            return photo.captureDate.map { PhotoInfo.dayText($0, in: .current) }
        }
    }

    /// The start and end views (unit rectangles of the fitted picture) of a photo's pan and zoom,
    /// from its own rectangles or chosen deterministically from the seed and its index.
    func kenBurnsRects(for photo: Photo, index: Int) -> (Rect, Rect) {
        let (start, end) = kenBurns.rects(index: index)
        return (photo.kenBurnsStart ?? start, photo.kenBurnsEnd ?? end)
    }

    /// Draws `picture` fitted to the context, showing the unit rectangle `view` of the fitted picture
    /// (the whole of it when nil). With `.fill`, the crop keeps `focus` (unit coordinates of the
    /// picture) as near the frame's centre as the picture allows; nil is `defaultFocus`.
    static func draw(_ picture: PreparedPhoto, fit: Fit, view: Rect?, focus: Point? = nil, opacity: Double = 1, in ctx: DrawingContext) {
        let frame = ctx.bounds
        let image = picture.image
        let size = image.size
        // Where the whole picture goes when not moving.
        let cover = max(frame.width / size.width, frame.height / size.height)
        let contain = min(frame.width / size.width, frame.height / size.height)
        let s = fit == .fill ? cover : contain
        var placed = Rect(x: frame.midX - size.width * s / 2, y: frame.midY - size.height * s / 2,
                          width: size.width * s, height: size.height * s)
        if fit == .fill {
            let f = focus ?? defaultFocus(picture: size, frame: frame.size)
            // The focus point moved to the frame's centre, as far as the picture still covers the frame.
            func shift(_ length: Double, _ window: Double, _ minimum: Double, _ unit: Double) -> Double {
                let wanted = minimum + window / 2 - length * max(0, min(1, unit))
                return max(minimum + window - length, min(minimum, wanted))
            }
            placed = Rect(x: shift(placed.width, frame.width, frame.minX, f.x), y: shift(placed.height, frame.height, frame.minY, f.y),
                          width: placed.width, height: placed.height)
        }
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
                ctx.draw(image, in: placed, opacity: opacity)
            }
        } else {
            ctx.draw(image, in: placed, opacity: opacity)
        }
    }

    /// Where `.fill` centres a picture of `picture`'s size in a frame of `frame`'s size when no focus
    /// is given: the middle, or for a picture taller than the frame (a portrait in a landscape frame)
    /// a third of the way down, where faces and the tops of things usually are.
    static func defaultFocus(picture: Size, frame: Size) -> Point {
        guard picture.width > 0, picture.height > 0, frame.width > 0, frame.height > 0 else { return Point(x: 0.5, y: 0.5) }
        let taller = picture.height / picture.width > frame.height / frame.width * 1.01
        return Point(x: 0.5, y: taller ? 1.0 / 3 : 0.5)
    }

    /// Draws a caption near the bottom (top, middle) of the frame, over a soft shadow.
    static func drawCaption(_ text: String, style: TextStyle, position: CaptionPosition = .bottom, in ctx: DrawingContext) throws {
        let frame = ctx.bounds
        let layout = try TextLayout(text, style: style, width: frame.width * 0.8)
        let y: Double
        switch position {
        case .bottom: y = frame.height * 0.92 - layout.size.height
        case .top: y = frame.height * 0.08
        case .center: y = (frame.height - layout.size.height) / 2
        }
        let origin = Point(x: frame.width * 0.1, y: y)
        ctx.withShadow(Shadow(offset: Point(x: 0, y: 2), blur: style.font.size * 0.3, color: Color(white: 0, alpha: 0.7))) {
            layout.draw(in: ctx, at: origin)
        }
    }
}


extension Clip.SlideshowLeaf {
    /// The most a slideshow's photos are decoded larger than the frame for a close Ken Burns view.
    static let largestDecodeZoom = 4.0

    /// Lays `show` out for frames of `width`×`height`: the intro card, each photo a media leaf (with
    /// its caption stacked on top), the outro card, one after another, joined by the show's
    /// transition. A caption stays with its photo into the transitions and hands over to the next one
    /// at their middle (fading out as it goes, the next fading in), so two captions are never drawn at
    /// once. Checks the caption font and lays out the cards once.
    package init(show: Slideshow, width: Int, height: Int) throws(MovieMakerError) {
        guard !show.photos.isEmpty else {
            throw .noPhotos(source: "the slideshow", reason: "its photo list is empty")
        }
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        if show.duration <= .zero {
            throw .invalidSetting(.duration, value: "\(Slideshow.seconds(show.duration)) s for each photo of the slideshow",
                                  expected: "a time above 0, e.g. 3")
        }
        for (name, card) in [("intro", show.intro), ("outro", show.outro)] {
            guard let card, card.duration <= .zero else { continue }
            throw .invalidSetting(.duration, value: "\(Slideshow.seconds(card.duration)) s for the slideshow's \(name) card \"\(TitlePlan.excerpt(card.title))\"",
                                  expected: "a time above 0, e.g. 3")
        }
        if let (index, photo) = show.photos.enumerated().first(where: { ($0.element.duration ?? 1) <= .zero }) {
            throw .invalidSetting(.duration, value: "\(Slideshow.seconds(photo.duration ?? .zero)) s for photo \(index + 1), \(photo.url.lastPathComponent)",
                                  expected: "a time above 0, e.g. 3, or nil for the show's duration")
        }
        let frame = Size(width: Double(width), height: Double(height))
        // Each photo decoded large enough for its closest Ken Burns view, so zooming in never enlarges
        // pixels: the show's zoom, or the photo's own closer view (its kenBurnsStart/End) up to 4× (a
        // quarter of the frame's width: beyond that a decoded photo would not stay small in memory).
        let zooms = show.photos.indices.map { index -> Double in
            guard show.kenBurns.isEnabled else { return 1 }
            let photo = show.photos[index]
            guard photo.kenBurnsStart != nil || photo.kenBurnsEnd != nil else { return 1 + show.kenBurns.zoom }
            let (start, end) = show.kenBurnsRects(for: photo, index: index)
            return max(1 + show.kenBurns.zoom, min(Self.largestDecodeZoom, 1 / max(1e-3, min(start.width, end.width, 1))))
        }
        let group = PhotoGroup(urls: show.photos.map(\.url), frameSize: frame, zooms: zooms, framing: show.fit.framing)
        let scale = frame.height / 1080
        var style = show.captionStyle
        style.font.size *= scale
        style.letterSpacing *= scale
        if let o = style.outline { style.outline = TextOutline(color: o.color, width: o.width * scale) }
        if show.captions != .none || show.photos.contains(where: { $0.caption != nil }) {
            _ = try TextLayout("Ag", style: style)   // checks the caption font once, before any frame
        }
        // Every part is on screen for its own time; with a transition, each part but the last lasts
        // that much longer, overlapping the next (so the film lasts the sum of the parts' times).
        let overlap = show.transition?.duration ?? .zero
        var parts: [(shown: Time, make: (Time) throws(MovieMakerError) -> Clip)] = []
        if let intro = show.intro {
            parts.append((intro.duration, { length throws(MovieMakerError) in
                var card = intro; card.duration = length; return try card.clip(width: width, height: height) }))
        }
        for (index, photo) in show.photos.enumerated() {
            let motion = show.kenBurns.isEnabled ? show.kenBurnsRects(for: photo, index: index) : nil
            let media = Clip.PhotoMedia(url: photo.url, fit: show.fit, background: show.background,
                                        kenBurns: motion.map { Clip.KenBurnsPath(start: $0.0, end: $0.1, easing: show.kenBurns.easing) },
                                        frameSize: frame, decodeZoom: zooms[index], focus: photo.focus)
            let caption = show.captionText(for: photo)
            let isFirst = parts.isEmpty
            parts.append((photo.duration ?? show.duration, { length throws(MovieMakerError) in
                var item = Clip(.media(Clip.Media(.photo(media), sourceRange: TimeRange(start: .zero, duration: length), group: group, index: index)))
                guard let caption else { return item }
                // The caption stays with its photo into the transitions, handing over at their middle: the
                // incoming photo's caption appears as the outgoing one goes, so two are never drawn over
                // each other, and a 2-s photo with 1-s transitions shows its caption for 2 s (shown only
                // while the photo was alone, it got about half a second).
                let half = Time(value: overlap.value, timescale: overlap.timescale * 2)
                let lead = isFirst ? Time.zero : half
                let window = length - lead - (length > (photo.duration ?? show.duration) ? half : .zero)
                guard window > .zero else { return item }
                let fade = Time.min(Time(value: 1, timescale: 10), window / 4)
                let text = Clip(.generator(.caption(caption, style: style, position: show.captionPosition), duration: window))
                item = .overlay([item, try text.fadedIn(over: isFirst ? .zero : fade).fadedOut(over: fade).delayed(by: lead)])
                return item
            }))
        }
        if let outro = show.outro {
            parts.append((outro.duration, { length throws(MovieMakerError) in
                var card = outro; card.duration = length; return try card.clip(width: width, height: height) }))
        }
        var items: [Clip] = []
        for (i, part) in parts.enumerated() {
            items.append(try part.make(part.shown + (i < parts.count - 1 ? overlap : .zero)))
        }
        self.show = show
        self.width = width
        self.height = height
        self.group = group
        photos = show.transition.map { .sequence(items, transition: $0) } ?? .sequence(items)
    }
}

extension Slideshow.Fit {
    /// How many times larger than its pixels a photo of `pixels` is shown in a frame of `frame` with this
    /// fit (covering it, or whole inside it), times `zoom` (how much closer a Ken Burns view comes at
    /// its closest: 1 for none). Above `softEnlargement` the photo looks soft, and the commands say so.
    package func enlargement(of pixels: Size, in frame: Size, zoom: Double = 1) -> Double {
        guard pixels.width > 0, pixels.height > 0 else { return 1 }
        let sx = frame.width / pixels.width, sy = frame.height / pixels.height
        return (self == .fill ? max(sx, sy) : min(sx, sy)) * zoom
    }

    /// The enlargement above which a photo is said to look soft: each of its pixels over more than
    /// two of the frame's, both ways.
    package static let softEnlargement = 2.0

    /// The warning for a photo named `name` of `pixels` shown `enlargement` times larger, when that is
    /// above `softEnlargement` (nil otherwise); `remedies` are what else than a larger photo helps
    /// (["a smaller --size", "--fit fit"]). Every command and the description compiler say it alike.
    package static func softWarning(_ name: String, pixels: Size, enlargement: Double, remedies: [String]) -> String? {
        guard enlargement > softEnlargement else { return nil }
        let options = ["a larger photo"] + remedies
        let fixes = options.count == 1 ? options[0] : options.dropLast().joined(separator: ", ") + " or " + options.last!
        return "\(name) is \(Int(pixels.width))×\(Int(pixels.height)) and is shown \(String(format: "%.1f", enlargement))× larger: "
            + "it will look soft (use \(fixes))"
    }

    /// How the photo layer prepares a photo shown with this fit.
    var framing: PhotoFraming {
        switch self {
        case .fill: .cover
        case .fit: .contain
        case .blur: .containOverBlur
        }
    }
}

import Foundation

extension Clip {
    /// The kinds of node a clip tree is made of.
    ///
    /// Leaves draw: `generator` (pictures made by code) and `media` (pictures from files). The other
    /// nodes arrange clips: `sequence` (one after another, with transitions), `stack` (on top of each
    /// other), `timeMap` (the child's time remapped) and `filtered` (the child's picture processed).
    /// Later versions add kinds inside `Generator`, `Media.Source`, `TimeMap` and `Filter`; a `switch`
    /// over those should have a `default`.
    package indirect enum Node: Sendable {
        /// A leaf that draws from code, lasting `duration`.
        case generator(Generator, duration: Time)
        /// A leaf that shows a file (a photo or a video) over its source range.
        case media(Media)
        /// Clips one after another, neighbours joined by cuts or transitions (OpenTimelineIO's Track).
        case sequence(Track)
        /// Clips drawn on top of each other, the first at the bottom (OpenTimelineIO's Stack); each
        /// is drawn while it lasts.
        case stack([Clip])
        /// A clip whose time is remapped: shifted, trimmed, repeated, sped up or slowed down, reversed,
        /// frozen or looped.
        case timeMap(TimeMap, Clip)
        /// A clip whose picture goes through filters, in order.
        case filtered([Filter], Clip)
        /// A clip placed by a transform: moved, scaled, rotated, flipped, cropped, faded, blended.
        case transformed(Transform, Clip)
        /// A clip shown only where a mask clip's alpha or luma says.
        case masked(Clip, mask: Clip, MaskMode)
        /// Several clips on screen at once, each in a cell (side by side, grids, picture-in-picture).
        case split(SplitScreen)

        /// How long the node lasts.
        package var duration: Time {
            switch self {
            case let .generator(_, duration): return duration
            case let .media(media): return media.sourceRange.duration
            case let .sequence(track): return track.duration
            case let .stack(clips): return clips.map(\.duration).max() ?? .zero
            case let .timeMap(map, child): return map.duration(of: child.duration)
            case let .filtered(_, child), let .transformed(_, child), let .masked(child, _, _): return child.duration
            case let .split(split): return split.duration
            }
        }

        /// The clips directly under this node, in order (none for a leaf; a slideshow generator has none:
        /// its photos are inside it, see `Clip.mediaLeaves(in:)`).
        package var children: [Clip] {
            switch self {
            case .generator, .media: return []
            case let .sequence(track): return track.items
            case let .stack(clips): return clips
            case let .timeMap(_, child), let .filtered(_, child), let .transformed(_, child): return [child]
            case let .masked(child, mask, _): return [child, mask]
            case let .split(split): return split.cells.map(\.clip)
            }
        }

        /// Whether the node is a leaf (a generator or media).
        package var isLeaf: Bool {
            switch self {
            case .generator, .media: return true
            default: return false
            }
        }
    }

    /// A picture made by code: the generator leaves of a clip tree.
    package enum Generator: Sendable {
        /// A drawing closure (`Clip(duration:draw:)`). Not data: it cannot be encoded or content-hashed.
        case drawing(DrawingClosure)
        /// The whole frame in one colour.
        case color(Color)
        /// Nothing: what is below shows through.
        case empty
        /// A title card laid out for a frame size (`TitleCard.clip(width:height:)`).
        case titleCard(TitleCardLeaf)
        /// A path animation (`BezierAnimation.drawOn`, `morph`, `follow`, `controlPoints`, `wiggle`).
        case bezier(BezierAnimation.Motion)
        /// A slideshow laid out for a frame size (`Slideshow.clip(width:height:)`): photo media leaves
        /// joined by its transition, drawn from one photo provider per render.
        case slideshow(SlideshowLeaf)
        /// A caption near the bottom (or top, or middle) of the frame, over a soft shadow (the
        /// slideshow's captions).
        case caption(String, style: TextStyle, position: Slideshow.CaptionPosition = .bottom)
        /// An image (an animated GIF, APNG or WebP, or a still) or an emoji, drawn centred at its own
        /// timing (`Clip.sticker`, `Clip.emoji`), decoded once per render.
        case sticker(StickerLeaf)
        /// Burned-in subtitles: the cues active at each frame's time (`Clip.subtitles(_:style:duration:)`).
        case subtitles(SubtitleLeaf)
        /// Word-by-word captions: a transcript paged and animated (`Clip.captions(_:style:duration:)`).
        case captions(CaptionsLeaf)
        /// A sound drawn as a picture: spectrum, waveform, level or radial bars
        /// (`Clip.audiogram(of:from:visualizer:duration:)`), read once per render.
        case audiogram(AudiogramLeaf)
        /// A Lottie animation drawn by rlottie at the file's own frame rate (`Clip.lottie`), opened once
        /// per render.
        case lottie(LottieLeaf)
        /// Text in a style, wrapped to the frame's title-safe width and centred in the frame
        /// (`Clip.text(_:style:duration:)`).
        case text(String, style: TextStyle)
    }

    /// A clip's drawing closure, with an identity: two values are the same closure when they come
    /// from the same `Clip(duration:draw:)` call.
    package struct DrawingClosure: Sendable {
        private final class Box: Sendable {
            let body: @Sendable (DrawingContext, Frame) throws -> Void
            init(_ body: @escaping @Sendable (DrawingContext, Frame) throws -> Void) { self.body = body }
        }
        private let box: Box
        /// What the closure draws, as stable text, when the library made it from data (a chart's table
        /// and look, a built-in generator's parameters) and it depends on nothing else but the frame's
        /// time: the content hash and segment hashes stand on it, so an incremental render reuses the
        /// segments it shows. nil for a closure written by hand, which has no stable content.
        package let contentKey: String?
        /// Wraps `body`, with no content key.
        package init(_ body: @escaping @Sendable (DrawingContext, Frame) throws -> Void) { box = Box(body); contentKey = nil }
        /// Wraps `body`, drawing exactly what `content` (encoded with sorted keys) describes; without a
        /// key when `content` cannot be encoded (an easing made from a function).
        package init(content: some Encodable, _ body: @escaping @Sendable (DrawingContext, Frame) throws -> Void) {
            box = Box(body)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            contentKey = (try? encoder.encode(content)).flatMap { String(data: $0, encoding: .utf8) }
        }
        /// Runs the closure.
        package func callAsFunction(_ context: DrawingContext, _ frame: Frame) throws { try box.body(context, frame) }
        /// The closure's identity (shared by copies of the clip that holds it).
        package var identity: ObjectIdentifier { ObjectIdentifier(box) }
    }

    /// Clips one after another with a cut or a transition between each clip and the next, laid out
    /// once: where each clip starts, and each transition's duration as actually used (shortened where
    /// a clip is too short to hold it).
    package struct Track: Sendable {
        /// The clips, in order.
        package let items: [Clip]
        /// `transitions[i]` joins `items[i]` and `items[i + 1]` (nil: a cut), as asked for.
        package let requestedTransitions: [Transition?]
        /// `transitions[i]` joins `items[i]` and `items[i + 1]`, with its duration as used (nil: a cut,
        /// also where no overlap fits).
        package let transitions: [Transition?]
        /// Where each item starts, in the track's time.
        package let starts: [Time]
        /// How long the track lasts: the items' durations minus the transitions' overlaps.
        package let duration: Time
        /// How long the sounds of two clips joined by a cut crossfade (equal power, centred on the cut,
        /// at least 10 ms; 20 ms by default).
        package let audioCrossfade: Time

        /// The crossfade at cuts unless asked otherwise: 20 ms.
        package static let defaultAudioCrossfade = Time(value: 1, timescale: 50)

        /// Lays out `items` joined by `transitions` (one per pair of neighbours; missing entries are cuts).
        /// A transition overlaps the end of one clip with the start of the next, as FFmpeg's xfade does,
        /// and is shortened to fit in both clips (after the previous transition). At cuts, the clips'
        /// sounds crossfade over `audioCrossfade` (at least 10 ms).
        package init(_ items: [Clip], transitions requested: [Transition?], audioCrossfade: Time = Track.defaultAudioCrossfade) {
            self.items = items
            self.audioCrossfade = Time.max(ClipSound.minimumCutFade, audioCrossfade)
            let requested = (0..<max(0, items.count - 1)).map { $0 < requested.count ? requested[$0] : nil }
            requestedTransitions = requested
            var starts: [Time] = []
            var used: [Transition?] = []
            var t = Time.zero
            var previousOverlap = Time.zero
            for (i, c) in items.enumerated() {
                starts.append(t)
                guard i + 1 < items.count else { t = t + c.duration; break }
                var overlap = Time.zero
                var transition = requested[i]
                if var tr = transition {
                    // Fits in this clip after its incoming transition, and in the next clip.
                    overlap = Time.max(.zero, Time.min(tr.duration, Time.min(c.duration - previousOverlap, items[i + 1].duration)))
                    tr.duration = overlap
                    transition = overlap > .zero ? tr : nil
                }
                used.append(transition)
                t = t + c.duration - overlap
                previousOverlap = overlap
            }
            self.starts = starts
            self.transitions = used
            self.duration = t
        }

        /// The item drawn at `time`: the last one starting at or before it, skipping zero-length ones;
        /// nil when there is none.
        func index(at time: Time) -> Int? {
            guard !items.isEmpty else { return nil }
            var lo = 0, hi = items.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= time { lo = mid } else { hi = mid - 1 }
            }
            var i = lo
            while i > 0 && items[i].duration == .zero { i -= 1 }
            return items[i].duration > .zero ? i : nil
        }

        /// The time span item `i` occupies in the track's time.
        func span(of i: Int) -> Range<Time> { starts[i]..<(starts[i] + items[i].duration) }
    }

    /// How a time-map node maps its own time to its child's.
    package enum TimeMap: Sendable, Hashable {
        /// The child starts `delay` later; nothing is drawn before it. Lasts `delay` + the child.
        case offset(Time)
        /// The child's time from `from` up to `to`, played from the node's start. Lasts `to − from`.
        case trim(from: Time, to: Time)
        /// The child played `count` times in a row. Lasts `count` × the child.
        case repeating(count: Int)
        /// The child played at `speed` (2: twice as fast; 1/2: slow motion). Lasts the child ÷ speed.
        /// Its sounds are time-stretched (keeping their pitch unless the speed says otherwise).
        case speed(Speed)
        /// The child played backwards, its sounds too. Lasts as long as the child.
        case reverse
        /// The child's picture at `at` (of its own time), held for `duration`; silent.
        case freeze(at: Time, duration: Time)
        /// The child played again and again to fill `duration` (the last repeat cut short).
        case loop(duration: Time)

        /// The node's duration over a child lasting `child`.
        package func duration(of child: Time) -> Time {
            switch self {
            case let .offset(delay): return delay + child
            case let .trim(from, to): return Time.max(.zero, to - from)
            case let .repeating(count): return child * max(0, count)
            case let .speed(speed): return speed.outputTime(at: child)
            case .reverse: return child
            case let .freeze(_, duration): return Time.max(.zero, duration)
            case let .loop(duration): return Time.max(.zero, duration)
            }
        }
    }

    /// A picture filter of a `filtered` node: a colour filter (brightness, LUTs, looks…) or a spatial
    /// one (blur, sharpen, vignette, grain…). See `Filters/` for each; every filter is data (`Codable`,
    /// hashable), its amounts can follow keyframes, and it is written in a description file as
    /// `{"name": …, parameters…}`.
    public enum Filter: Sendable, Hashable {
        /// A filter that changes each pixel's colour on its own.
        case color(ColorFilter)
        /// A filter that looks at a pixel's neighbourhood or position.
        case spatial(SpatialFilter)
        /// The picture scaled up to cover the frame and blurred by `blurRadius` pixels, drawn behind
        /// itself: the bars around a fitted picture filled with a blurred copy of it (as the slideshow's
        /// `blur` fit does for photos). Only the part of the layer holding something is enlarged.
        case backdrop(blurRadius: Double)
    }
}

extension Clip {
    /// A title card as a generator leaf: the card and the frame size it was laid out for.
    package struct TitleCardLeaf: Sendable {
        /// The card.
        package let card: TitleCard
        /// The frame width it was laid out for, in pixels.
        package let width: Int
        /// The frame height it was laid out for, in pixels.
        package let height: Int
        /// The layout, computed once (fonts checked, text fitted).
        let plan: TitlePlan

        /// Lays `card` out for `width`×`height` frames; throws for an unknown font, a bad size or a
        /// duration that is not above zero (checked here, so every way of making a card meets it).
        package init(card: TitleCard, width: Int, height: Int) throws(MovieMakerError) {
            guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
            guard card.duration > .zero else {
                throw .invalidSetting(.duration, value: "\(Slideshow.seconds(card.duration)) s for the title card \"\(TitlePlan.excerpt(card.title))\"",
                                      expected: "a time above 0, e.g. 4")
            }
            self.card = card; self.width = width; self.height = height
            plan = try TitlePlan(card: card, size: Size(width: Double(width), height: Double(height)))
        }
    }

    /// A slideshow as a generator leaf: the show, the frame size it was laid out for, and its photos as
    /// a sequence of photo media leaves (drawn from one photo provider per render).
    package struct SlideshowLeaf: Sendable {
        /// The show.
        package let show: Slideshow
        /// The frame width it was laid out for, in pixels.
        package let width: Int
        /// The frame height it was laid out for, in pixels.
        package let height: Int
        /// The photos as a clip tree: a sequence of photo media (with captions stacked on top) joined
        /// by the show's transition.
        package let photos: Clip
        /// The provider group every photo of the show belongs to.
        let group: PhotoGroup
    }
}

/// A leaf shown from a file: what file, which part of it, and how it is fitted to the frame.
extension Clip {
    /// A media leaf: a file shown over a range of its own time.
    package struct Media: Sendable {
        /// Where the pictures come from.
        package enum Source: Sendable, Hashable {
            /// A still photo (JPEG, PNG, WebP, HEIC/AVIF, TIFF, BMP, GIF), shown as `PhotoMedia` says.
            case photo(PhotoMedia)
            /// A video file, shown as `VideoMedia` says.
            case video(VideoMedia)
        }
        /// Where the pictures come from.
        package private(set) var source: Source
        /// The part of the source shown (a photo's time starts at 0 and lasts as long as it is shown).
        package let sourceRange: TimeRange
        /// The provider group of a photo leaf (photos of one slideshow share one; a lone photo has its
        /// own); nil for a video.
        let group: PhotoGroup?
        /// The identity of a video leaf (copies of the clip share its decoders); nil for a photo.
        let videoKey: VideoLeafKey?
        /// The leaf's position in its group's photo list.
        let index: Int

        /// A leaf showing `source` over `sourceRange`, with a provider of its own.
        package init(_ source: Source, sourceRange: TimeRange) {
            self.source = source
            self.sourceRange = sourceRange
            switch source {
            case let .photo(photo):
                group = PhotoGroup(urls: [photo.url], frameSize: photo.frameSize, zooms: [photo.decodeZoom], framing: photo.fit.framing)
                videoKey = nil
            case let .video(video):
                group = nil
                videoKey = VideoLeafKey(file: video.file)
            }
            index = 0
        }

        /// A leaf of a provider group (a slideshow's photos).
        init(_ source: Source, sourceRange: TimeRange, group: PhotoGroup, index: Int) {
            self.source = source; self.sourceRange = sourceRange; self.group = group; self.index = index
            videoKey = nil
        }

        /// This leaf showing `newSource` instead, keeping its provider group and video identity (copies of
        /// the clip still share their decoders).
        func replacingSource(_ newSource: Source) -> Media {
            var copy = self
            copy.source = newSource
            return copy
        }

        /// The file the leaf shows.
        package var url: URL {
            switch source {
            case let .photo(photo): return photo.url
            case let .video(video): return video.file.url
            }
        }
    }

    /// A photo in a clip: the file, how it fills the frame, and its pan and zoom.
    package struct PhotoMedia: Sendable, Hashable {
        /// The image file.
        package var url: URL
        /// How the photo fills the frame.
        package var fit: Slideshow.Fit
        /// The colour around a fitted photo.
        package var background: Color
        /// Pan and zoom: the part of the fitted picture shown first and last, in unit coordinates (nil: still).
        package var kenBurns: KenBurnsPath?
        /// The frame size the photo is prepared for (nil: the size of the movie it is drawn into).
        package var frameSize: Size?
        /// How much larger than the frame the photo is decoded, so zooming in never enlarges pixels
        /// (1 + the Ken Burns zoom; at least 1).
        package var decodeZoom: Double
        /// With `.fill`, the point of the photo (unit coordinates of the upright photo, 0,0 top-left)
        /// the crop keeps as near the frame's centre as it can; nil: the centre, or a third of the way
        /// down for a photo taller than the frame.
        package var focus: Point?

        /// A photo from `url`, fitted by `fit` on `background`, moving along `kenBurns`, cropped around
        /// `focus` when it fills the frame.
        package init(url: URL, fit: Slideshow.Fit = .fill, background: Color = .black, kenBurns: KenBurnsPath? = nil,
                    frameSize: Size? = nil, decodeZoom: Double? = nil, focus: Point? = nil) {
            self.url = url; self.fit = fit; self.background = background; self.kenBurns = kenBurns
            self.frameSize = frameSize; self.focus = focus
            self.decodeZoom = max(1, decodeZoom ?? kenBurns.map { 1 / max(1e-3, min($0.start.width, $0.end.width, 1)) } ?? 1)
        }
    }

    /// A pan and zoom: the unit rectangle of the fitted picture shown at the start and at the end,
    /// moved between along `easing` (sine in-out unless given).
    ///
    /// The magnification (1 ÷ the view's width and height) and the view's centre follow the easing, so
    /// with `.linear` a zoom from a view of width 1 to one of width 1/1.1 magnifies 1.00 → 1.10 at a
    /// constant rate (1.05 half-way), as the other tools' linear zooms do.
    public struct KenBurnsPath: Sendable, Hashable {
        /// The view at the start.
        public var start: Rect
        /// The view at the end.
        public var end: Rect
        /// How the view moves from `start` to `end` over the photo's time (default `.sineInOut`).
        public var easing: Easing
        /// The view `start` to `end`, moved along `easing`.
        public init(start: Rect, end: Rect, easing: Easing = .sineInOut) { self.start = start; self.end = end; self.easing = easing }

        /// The view at linear progress `amount` (0 at the start, 1 at the end) of the photo's time:
        /// the centre moves and the magnification changes as `easing(amount)` says, held between the
        /// two views (an easing that overshoots, as back and elastic ones do, would show past the
        /// photo's edge).
        public func view(at amount: Double) -> Rect {
            let e = min(1, max(0, easing(amount)))
            func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * e }
            // Magnifications interpolated (not sizes), so a linear easing zooms at a constant rate.
            let width = 1 / lerp(1 / max(start.width, 1e-9), 1 / max(end.width, 1e-9))
            let height = 1 / lerp(1 / max(start.height, 1e-9), 1 / max(end.height, 1e-9))
            let cx = lerp(start.midX, end.midX), cy = lerp(start.midY, end.midY)
            return Rect(x: cx - width / 2, y: cy - height / 2, width: width, height: height)
        }
    }

    /// A clip showing the photo at `url` for `duration`, filling the frame (`fit`), optionally panning
    /// and zooming from `kenBurns.start` to `kenBurns.end`. The photo is decoded when the render opens
    /// its media (a missing or unreadable file fails then, before the first frame), at about the size
    /// it is shown at.
    ///
    /// `kenBurns` here is the exact path (two rectangles); for the gentle motion a slideshow gives its
    /// photos, pass `Slideshow.KenBurns` instead: `Clip.photo(url, duration: 4, kenBurns: Slideshow.KenBurns(zoom: 0.2))`.
    public static func photo(_ url: URL, duration: Time, fit: Slideshow.Fit = .fill, background: Color = .black,
                             kenBurns: KenBurnsPath? = nil) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        let photo = PhotoMedia(url: url, fit: fit, background: background, kenBurns: kenBurns)
        return Clip(.media(Media(.photo(photo), sourceRange: TimeRange(start: .zero, duration: duration))))
    }

    /// A clip showing the photo at `url` for `duration`, panned and zoomed as a slideshow moves its
    /// photos (`Slideshow.KenBurns`: zoom, pan, direction, seed, easing), the same type `Slideshow`
    /// takes: `Clip.photo(url, duration: 4, kenBurns: Slideshow.KenBurns(zoom: 0.2, direction: .zoomIn))`.
    public static func photo(_ url: URL, duration: Time, fit: Slideshow.Fit = .fill, background: Color = .black,
                             kenBurns: Slideshow.KenBurns) -> Clip {
        photo(url, duration: duration, fit: fit, background: background, kenBurns: kenBurns.path())
    }
}

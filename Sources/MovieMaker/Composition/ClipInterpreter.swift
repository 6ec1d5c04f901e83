import Foundation

// The one interpreter of the clip tree: draws any node at a frame's time. Every way of drawing a clip
// (a movie's frames on several threads, a frame range, a still, a clip drawn inside another clip's
// closure) comes through `render(in:at:session:)`, so they all give the same pixels.

extension Clip {
    /// Draws the clip's picture for `frame` (its `exactTime` in this clip's time) into `ctx`, with the
    /// media opened by `session`.
    func render(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
        switch node {
        case let .generator(generator, _):
            try generator.draw(in: ctx, at: frame, session: session)

        case let .media(media):
            try media.draw(in: ctx, at: frame, session: session)

        case let .sequence(track):
            let time = frame.exactTime
            guard let i = track.index(at: time) else { return }
            if i > 0, let transition = track.transitions[i - 1], time < track.starts[i] + transition.duration {
                let a = track.items[i - 1], b = track.items[i]
                let linear = (time - track.starts[i]).seconds / transition.duration.seconds
                try TransitionRenderer.draw(transition, linearProgress: linear,
                                            from: TransitionSide(a, session), at: frame.shifted(by: track.starts[i - 1], duration: a.duration),
                                            to: TransitionSide(b, session), at: frame.shifted(by: track.starts[i], duration: b.duration),
                                            in: ctx)
                return
            }
            let item = track.items[i]
            // Within a second of the next item, its videos' decoders open ahead (on another thread).
            if i + 1 < track.items.count, time >= track.starts[i + 1] - Self.videoLookahead {
                session.prefetchVideos(of: track.items[i + 1])
            }
            try item.render(in: ctx, at: frame.shifted(by: track.starts[i], duration: item.duration), session: session)

        case let .stack(clips):
            for c in clips where frame.exactTime < c.duration {
                try ctx.withSavedState { try c.render(in: ctx, at: frame.with(duration: c.duration), session: session) }
            }

        case let .timeMap(map, child):
            guard let local = map.childTime(frame.exactTime, childDuration: child.duration, rate: frame.rate) else { return }
            try child.render(in: ctx, at: frame.at(local, duration: child.duration), session: session)

        case let .filtered(filters, child):
            try FilterRendering.draw(child, filters: filters, in: ctx, at: frame, session: session)

        case let .transformed(transform, child):
            try Clip.drawTransformed(child, transform, in: ctx, at: frame, session: session)

        case let .masked(child, mask, mode):
            try Clip.drawMasked(child, mask: mask, mode: mode, in: ctx, at: frame, session: session)

        case let .split(split):
            try split.draw(in: ctx, at: frame, session: session)
        }
    }

    /// Calls `body` with every media leaf in the tree, slideshows' photos included, each once per place
    /// it has in the tree (a repeated clip's leaves once).
    func forEachMediaLeaf(_ body: (Media) throws -> Void) rethrows {
        switch node {
        case let .media(media): try body(media)
        case let .generator(.slideshow(leaf), _): try leaf.photos.forEachMediaLeaf(body)
        case .generator: break
        default: for child in node.children { try child.forEachMediaLeaf(body) }
        }
    }
}

extension Clip {
    /// How long before a cut the next clip's video decoders are opened.
    static let videoLookahead = Time(value: 1, timescale: 1)
}

extension Clip.TimeMap {
    /// The child's time at the node's `time` on a frame grid of `rate`, or nil where the child is not
    /// drawn (before an offset ends, or a repeat of a zero-length child).
    ///
    /// A reversed node shows the times forward play shows, in reverse order: on the grid its times
    /// fall on, p + k/rate for k = 0…n − 1 (p the grid's offset in the node, n the frames in d − p),
    /// output k shows child time p + (n − 1 − k)/rate, so output frame k shows source frame n − 1 − k and
    /// the frame interval [t, t + 1/rate) is the child's [d − t − 1/rate, d − t), as the sound's
    /// d − t. (Sampling d − t − 1/(2 rate) was that only for a clip of whole frames starting on the
    /// movie's grid: otherwise the last frame was never shown and the first shown twice.) A video frame
    /// stamped a little late still shows at its time (`VideoFrameSource`'s tolerance).
    func childTime(_ time: Time, childDuration: Time, rate: FrameRate) -> Time? {
        switch self {
        case let .offset(delay):
            guard time >= delay, childDuration > .zero else { return nil }
            return time - delay
        case let .trim(from, _):
            return time + from
        case let .repeating(count):
            guard count > 0, childDuration > .zero else { return nil }
            let k = min(count - 1, max(0, Int(time.quotient(dividingBy: childDuration))))
            return time - childDuration * k
        case let .speed(speed):
            return speed.sourceTime(at: time)
        case .reverse:
            guard childDuration > .zero else { return nil }
            let frame = rate.frameDuration
            let k = time.quotient(dividingBy: frame)
            let phase = time - frame * Int(k)
            let frames = Int64(rate.frameCount(for: childDuration - phase))
            return phase + frame * Int(max(0, frames - 1 - k))
        case let .freeze(at, _):
            return at
        case .loop:
            guard childDuration > .zero else { return nil }
            let k = max(0, time.quotient(dividingBy: childDuration))
            return time - childDuration * Int(k)
        }
    }
}

extension Time {
    /// ⌊self ÷ divisor⌋, exactly (`divisor` > 0).
    func quotient(dividingBy divisor: Time) -> Int64 {
        (Rational(self) * Rational(divisor.timescale, divisor.value)).floor
    }
}

extension Clip.Generator {
    /// Draws the generator's picture at `frame`.
    func draw(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
        switch self {
        case let .drawing(closure): try closure(ctx, frame)
        case let .color(color): ctx.clear(color)
        case .empty: break
        case let .titleCard(leaf):
            let planned = leaf.plan.size, size = ctx.bounds.size
            // A card laid out larger than this frame (`clip(width: 1920, height: 1080)` added to a
            // 640×360 movie) is shrunk to fit it, centred: drawn as laid out, it fell off it. One laid
            // out smaller (a platform's safe area, placed there) is drawn as laid out.
            guard planned.width > size.width || planned.height > size.height, planned.width > 0, planned.height > 0 else {
                return try leaf.plan.draw(in: ctx, frame: frame)
            }
            let scale = min(size.width / planned.width, size.height / planned.height)
            try ctx.withSavedState {
                ctx.translate(x: (size.width - planned.width * scale) / 2, y: (size.height - planned.height * scale) / 2)
                ctx.scale(x: scale, y: scale)
                try ctx.withBounds(planned) { try leaf.plan.draw(in: ctx, frame: frame) }
            }
        case let .bezier(motion): try motion.draw(in: ctx, at: frame)
        case let .slideshow(leaf): try leaf.photos.render(in: ctx, at: frame, session: session)
        case let .caption(text, style, position): try Slideshow.drawCaption(text, style: style, position: position, in: ctx)
        case let .sticker(leaf): try leaf.draw(in: ctx, at: frame, session: session)
        case let .subtitles(leaf): try leaf.draw(in: ctx, at: frame)
        case let .captions(leaf): try leaf.draw(in: ctx, at: frame)
        case let .audiogram(leaf): try leaf.draw(in: ctx, at: frame, session: session)
        case let .lottie(leaf): try leaf.draw(in: ctx, at: frame, session: session)
        case let .text(string, style): try Clip.drawText(string, style: style, in: ctx)
        }
    }
}

extension Clip.Media {
    /// Draws the media at `frame` (the leaf's own time) from the session's provider.
    func draw(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
        switch source {
        case let .video(video):
            try video.draw(in: ctx, at: sourceRange.start + frame.exactTime, key: videoKey!, session: session)
        case let .photo(photo):
            let picture = try preparedPhoto(session: session, frame: frame)
            // A clear background leaves what is below (a PNG over other clips); clearing would erase it.
            if photo.background.alpha > 0 { ctx.clear(photo.background) }
            drawPicture(picture, of: photo, at: frame, opacity: 1, in: ctx)
        }
    }

    /// The photo leaf's picture for `frame` from the session's provider, with the photos after it read ahead.
    func preparedPhoto(session: RenderSession, frame: Frame) throws -> PreparedPhoto {
        let provider = session.photoProvider(for: group!)
        let picture = try provider.image(at: index, frame: frame.movieIndex)
        provider.prefetch(after: index, count: provider.urls.count)
        return picture
    }

    /// Draws a photo leaf's picture (not its background) at `frame`, moved by its Ken Burns path, at `opacity`.
    func drawPicture(_ picture: PreparedPhoto, of photo: Clip.PhotoMedia, at frame: Frame, opacity: Double, in ctx: DrawingContext) {
        let amount = frame.duration > .zero ? min(max(frame.time / frame.duration.seconds, 0), 1) : 0
        let view = photo.kenBurns.map { $0.view(at: amount) }
        Slideshow.draw(picture, fit: photo.fit, view: view, focus: photo.focus, opacity: opacity, in: ctx)
    }
}

/// One side of a transition: a clip drawn through the render's session.
struct TransitionSide {
    let clip: Clip
    let session: RenderSession
    init(_ clip: Clip, _ session: RenderSession) { self.clip = clip; self.session = session }
    /// Draws the clip at `frame` into `ctx`.
    func draw(in ctx: DrawingContext, at frame: Frame) throws { try clip.render(in: ctx, at: frame, session: session) }

    /// How the clip covers what it is drawn over at one frame, when that is known without drawing it.
    enum Cover {
        /// Not known to cover every pixel opaquely.
        case unknown
        /// Every pixel opaquely, as a whole drawn in a layer (a photo on an opaque background, an opaque colour).
        case opaque
        /// Every pixel opaquely with one paint of a picture, which `drawFaded` paints at any alpha (a
        /// photo that fills the frame with an opaque picture: the background under it is never seen).
        case opaqueOnePaint
    }

    /// How the clip covers the frame at `frame` (photos are decoded to find out: they are drawn next anyway).
    func cover(at frame: Frame) throws -> Cover { try Self.cover(of: clip, at: frame, session: session) }

    private static func cover(of clip: Clip, at frame: Frame, session: RenderSession) throws -> Cover {
        switch clip.node {
        case let .media(media):
            guard case let .photo(photo) = media.source else { return .unknown }
            if photo.fit == .fill, try media.preparedPhoto(session: session, frame: frame).isOpaque { return .opaqueOnePaint }
            return photo.background.alpha >= 1 ? .opaque : .unknown
        case let .generator(.color(color), _):
            return color.alpha >= 1 ? .opaque : .unknown
        case let .stack(clips):
            // The bottom clip covers, and the rest is drawn over it.
            guard let bottom = clips.first, frame.exactTime < bottom.duration else { return .unknown }
            return try cover(of: bottom, at: frame.with(duration: bottom.duration), session: session) == .unknown ? .unknown : .opaque
        default:
            return .unknown
        }
    }

    /// Paints the clip at `frame` at `opacity` in one pass; only for a clip whose `cover` is `.opaqueOnePaint`.
    func drawFaded(in ctx: DrawingContext, at frame: Frame, opacity: Double) throws {
        guard case let .media(media) = clip.node, case let .photo(photo) = media.source else {
            preconditionFailure("drawFaded(in:at:opacity:) of a clip that is not a filling photo")
        }
        media.drawPicture(try media.preparedPhoto(session: session, frame: frame), of: photo, at: frame, opacity: opacity, in: ctx)
    }
}

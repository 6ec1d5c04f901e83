import Foundation

// The clip vocabulary people coming from MoviePy, Remotion and Manim try first: fades, opacity,
// position, scale, rotation, crop, duration, freeze, images and text. Each is a thin convenience that
// builds an existing node of the tree (a `transformed` node, a time map, a photo leaf, a generator), so
// everything here is data: it encodes to the clip's JSON (`Clip: Codable`), has a `contentHash`, and
// draws through the one interpreter.
//
// Composing placements: `fadedIn`, `fadedOut`, `withOpacity`, `positioned`, `scaled`, `rotated` and
// `cropped` each set one property of the clip's placement. On a clip that is already a `transformed`
// node, the property is merged into that node's transform (one node, one offscreen group at most):
// opacities multiply, scales multiply, rotations add, a position (and its anchor) replaces the earlier
// one, crops intersect. So `clip.scaled(by: 2).positioned(at: p)` and `clip.positioned(at: p).scaled(by: 2)`
// are the same clip: scaled by 2 about its anchor, with the anchor at `p` (properties, as in MoviePy's
// `with_position`/`resized` or CSS transforms, not an order of operations). Where one transform cannot hold
// the combination — two keyframed scales or rotations, or two keyframed opacities that overlap in time —
// the new property goes into a new `transformed` node around the clip, which multiplies or composes the
// same way when drawn.
//
// Bad values (an opacity above 1, a negative scale or duration, a crop outside the picture, a
// non-finite number) throw `MovieMakerError.invalidSetting` naming the value and the range, as every
// other setting does; one `try` covers a chain: `try clip.scaled(by: 2).fadedIn(over: 1)`. (The
// clip's constructors and time maps elsewhere — `Clip(duration:)`, `speed(_:)`, `delayed(by:)` — keep
// preconditions, their doc comments say so: making them throw would put a `try` on every clip.)

extension Clip {
    // MARK: Opacity and fades

    /// This clip fading in from transparent: its opacity goes linearly from 0 at its start to 1 at
    /// `duration` into it (clamped to the clip's length; 0 or less leaves the clip as it is).
    ///
    /// Built as a `transformed` node whose opacity follows keyframes (see the note on composing at the top
    /// of this file): `clip.fadedIn(over: 1).fadedOut(over: 1)` is one transform with four keyframes.
    public func fadedIn(over duration: Time) throws(MovieMakerError) -> Clip {
        let d = Time.min(duration, self.duration)
        guard d > .zero else { return self }
        return try withOpacity(KeyframeTrack(0.0, at: Time.zero).then(to: 1.0, at: d))
    }

    /// This clip fading out to transparent: its opacity goes linearly from 1 at `duration` before its
    /// end to 0 at its end (clamped to the clip's length; 0 or less leaves the clip as it is). The fade
    /// uses the clip's duration now: trim or extend the clip first (`withDuration(_:)`), then fade.
    public func fadedOut(over duration: Time) throws(MovieMakerError) -> Clip {
        let d = Time.min(duration, self.duration)
        guard d > .zero else { return self }
        return try withOpacity(KeyframeTrack(1.0, at: self.duration - d).then(to: 0.0, at: self.duration))
    }

    /// This clip drawn `opacity` opaque (0 transparent … 1 as it is). On a clip that already has an
    /// opacity (a fade, an earlier `withOpacity`), the two multiply.
    public func withOpacity(_ opacity: Double) throws(MovieMakerError) -> Clip {
        guard opacity.isFinite && opacity >= 0 && opacity <= 1 else { throw .invalidSetting(.transform, value: "opacity \(opacity)", expected: "an opacity from 0 to 1") }
        return try placed(what: "withOpacity") { $0.opacity.combined(with: .constant(opacity), identity: 1, by: *).map { o in { $0.opacity = o } } }
    }

    /// This clip's opacity following `opacity` (values 0…1) in the clip's own time. On a clip that
    /// already has an opacity, the two multiply.
    public func withOpacity(_ opacity: KeyframeTrack<Double>) throws(MovieMakerError) -> Clip {
        guard opacity.keyframes.allSatisfy({ $0.value.isFinite && $0.value >= 0 && $0.value <= 1 }) else {
            throw .invalidSetting(.transform, value: "opacity keyframes \(opacity.keyframes.map(\.value))", expected: "opacities from 0 to 1")
        }
        return try placed(what: "withOpacity") { $0.opacity.combined(with: .keyframes(opacity), identity: 1, by: *).map { o in { $0.opacity = o } } }
    }

    // MARK: Position, scale, rotation, crop

    /// This clip moved so that its `anchor` lands on `point`, in frame pixels.
    ///
    /// A clip is a picture the size of the frame, so `anchor` is a point of that picture in unit
    /// coordinates: the default, its centre (0.5, 0.5), puts whatever the clip draws at the frame's centre
    /// at `point` (a `Clip.text`, a `Clip.image` with fit, a `Clip.emoji` are drawn there); (0, 0) puts the
    /// picture's top-left corner at `point`. The anchor is also the point the clip is scaled and rotated
    /// around. A position replaces an earlier one (see the note on composing at the top of this file).
    public func positioned(at point: Point, anchor: Point = Point(x: 0.5, y: 0.5)) throws(MovieMakerError) -> Clip {
        guard point.x.isFinite && point.y.isFinite && abs(point.x) <= 1e6 && abs(point.y) <= 1e6 else {
            throw .invalidSetting(.transform, value: "position \(point)", expected: "finite pixel coordinates within ±1000000")
        }
        return try positioned(.constant(point), anchor: anchor)
    }

    /// This clip moved along `path`: its `anchor` (unit coordinates of the frame-sized picture, the centre
    /// by default) is at the track's point, in frame pixels, at each time of the clip. See
    /// `positioned(at:anchor:)`.
    public func positioned(along path: KeyframeTrack<Point>, anchor: Point = Point(x: 0.5, y: 0.5)) throws(MovieMakerError) -> Clip {
        guard path.keyframes.allSatisfy({ $0.value.x.isFinite && $0.value.y.isFinite && abs($0.value.x) <= 1e6 && abs($0.value.y) <= 1e6 }) else {
            throw .invalidSetting(.transform, value: "positions \(path.keyframes.map(\.value))", expected: "finite pixel coordinates within ±1000000")
        }
        return try positioned(.keyframes(path), anchor: anchor)
    }

    private func positioned(_ position: Animated<Point>, anchor: Point) throws(MovieMakerError) -> Clip {
        guard anchor.x.isFinite && anchor.y.isFinite else { throw .invalidSetting(.transform, value: "anchor \(anchor)", expected: "finite unit coordinates") }
        return try placed(what: "positioned") { _ in { $0.position = position; $0.anchor = anchor } }
    }

    /// This clip `factor` times its size (1: as it is; 0…100), about its anchor (the picture's centre
    /// unless `positioned(at:anchor:)` set another). Scales multiply with an earlier scale.
    public func scaled(by factor: Double) throws(MovieMakerError) -> Clip {
        guard factor.isFinite && factor >= 0 && factor <= 100 else {
            throw .invalidSetting(.transform, value: "scale \(factor)", expected: "a scale from 0 to 100 (mirror with transformed(_:) and flipHorizontally)")
        }
        return try placed(what: "scaled") { $0.scale.combined(with: .constant(factor), identity: 1, by: *).map { s in { $0.scale = s } } }
    }

    /// This clip's size following `factor` (values 0…100) in the clip's own time, about its anchor.
    public func scaled(by factor: KeyframeTrack<Double>) throws(MovieMakerError) -> Clip {
        guard factor.keyframes.allSatisfy({ $0.value.isFinite && $0.value >= 0 && $0.value <= 100 }) else {
            throw .invalidSetting(.transform, value: "scale keyframes \(factor.keyframes.map(\.value))", expected: "scales from 0 to 100")
        }
        return try placed(what: "scaled") { $0.scale.combined(with: .keyframes(factor), identity: 1, by: *).map { s in { $0.scale = s } } }
    }

    /// This clip turned `degrees` clockwise about its anchor (the picture's centre unless
    /// `positioned(at:anchor:)` set another). Multiples of 90° are exact (pixels move without
    /// resampling when the picture is centred on whole pixels). Rotations add to an earlier rotation.
    public func rotated(by degrees: Double) throws(MovieMakerError) -> Clip {
        guard degrees.isFinite else { throw .invalidSetting(.transform, value: "rotation \(degrees)", expected: "a finite number of degrees") }
        return try placed(what: "rotated") { $0.rotation.combined(with: .constant(degrees), identity: 0, by: +).map { r in { $0.rotation = r } } }
    }

    /// This clip's rotation following `degrees` (clockwise) in the clip's own time, about its anchor.
    public func rotated(by degrees: KeyframeTrack<Double>) throws(MovieMakerError) -> Clip {
        guard degrees.keyframes.allSatisfy({ $0.value.isFinite }) else {
            throw .invalidSetting(.transform, value: "rotation keyframes \(degrees.keyframes.map(\.value))", expected: "finite numbers of degrees")
        }
        return try placed(what: "rotated") { $0.rotation.combined(with: .keyframes(degrees), identity: 0, by: +).map { r in { $0.rotation = r } } }
    }

    /// This clip with only `rect` of its picture kept, in unit coordinates of the frame-sized picture
    /// ((0, 0, 0.5, 1) is its left half); the rest is transparent. The kept part stays where it was:
    /// it is not enlarged to fill the frame (scale or position it for that). The crop applies to the
    /// clip's own picture, before it is moved, scaled or rotated, and intersects an earlier crop.
    public func cropped(to rect: Rect) throws(MovieMakerError) -> Clip {
        guard rect.minX >= 0 && rect.minY >= 0 && rect.maxX <= 1 && rect.maxY <= 1 && rect.width > 0 && rect.height > 0 else {
            throw .invalidSetting(.transform, value: "crop \(rect)", expected: "a rectangle inside the unit square (x, y ≥ 0, x + width ≤ 1, y + height ≤ 1, sizes > 0)")
        }
        return try placed(what: "cropped") { t in
            guard let old = t.crop else { return { $0.crop = rect } }
            let x0 = max(old.minX, rect.minX), y0 = max(old.minY, rect.minY), x1 = min(old.maxX, rect.maxX), y1 = min(old.maxY, rect.maxY)
            guard x1 > x0, y1 > y0 else { return nil }
            return { $0.crop = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
        }
    }

    /// This clip with one property of its placement changed: merged into the clip's own transform when
    /// it is a `transformed` node and `change` can say the result (it returns the edit, or nil when one
    /// transform cannot hold it), else in a new `transformed` node around the clip.
    private func placed(what: String, _ change: (Transform) -> ((inout Transform) -> Void)?) throws(MovieMakerError) -> Clip {
        func checked(_ t: Transform) throws(MovieMakerError) -> Transform {
            try t.validate()
            return t
        }
        if case let .transformed(existing, child) = node, let edit = change(existing) {
            var t = existing
            edit(&t)
            // An identity transform is dropped, unless sounds attached at this level need the node.
            if t.isIdentity && attachedSounds.isEmpty { return child }
            var merged = Clip(.transformed(try checked(t), child))
            merged.attachedSounds = attachedSounds
            return merged
        }
        var t = Transform()
        guard let edit = change(t) else { throw .invalidSetting(.transform, value: what, expected: "a change one transform can hold") }
        edit(&t)
        return t.isIdentity ? self : Clip(.transformed(try checked(t), self))
    }
}

extension Animated where Value == Double {
    /// This value and `other` combined by `op` (a product or a sum, whose neutral value is `identity`)
    /// as one value, or nil when one keyframe track cannot say it.
    ///
    /// A constant combines with anything (applied to every keyframe's value: exact, since keyframes
    /// interpolate linearly in their values after easing). Two tracks combine when one is at `identity`
    /// from some keyframe on and the other is at `identity` up to some keyframe no earlier (a fade in
    /// and a fade out): the result is the first's keyframes up to there and the second's from there.
    func combined(with other: Animated<Double>, identity: Double, by op: (Double, Double) -> Double) -> Animated<Double>? {
        switch (self, other) {
        case let (.constant(a), .constant(b)):
            return .constant(op(a, b))
        case let (.constant(c), .keyframes(track)), let (.keyframes(track), .constant(c)):
            if c == identity { return .keyframes(track) }
            let keyframes = track.keyframes.map { k -> Keyframe<Double> in var k = k; k.value = op(k.value, c); return k }
            return (try? KeyframeTrack(keyframes)).map { .keyframes($0) }
        case let (.keyframes(a), .keyframes(b)):
            return Self.joined(a, then: b, identity: identity) ?? Self.joined(b, then: a, identity: identity)
        }
    }

    /// `first` up to where it settles at `identity` for good, then `second` from where it leaves
    /// `identity`, when the first settles no later than the second leaves.
    private static func joined(_ first: KeyframeTrack<Double>, then second: KeyframeTrack<Double>, identity: Double) -> Animated<Double>? {
        let a = first.keyframes, b = second.keyframes
        // k: the first keyframe of `first` from which every value is `identity`.
        guard a.last?.value == identity, b.first?.value == identity else { return nil }
        var k = a.count - 1
        while k > 0 && a[k - 1].value == identity { k -= 1 }
        // j: the last keyframe of `second` up to which every value is `identity`.
        var j = 0
        while j + 1 < b.count && b[j + 1].value == identity { j += 1 }
        guard a[k].time <= b[j].time else { return nil }
        return (try? KeyframeTrack(Array(a[...k]) + Array(b[j...]))).map { .keyframes($0) }
    }
}

extension Clip {
    // MARK: Time

    /// This clip lasting `duration`.
    ///
    /// Shorter: the clip is trimmed to its first `duration` (`trimmed(to:)`), its sounds cut there.
    /// Longer:
    /// - a leaf drawn from time (a colour, `empty`, `Clip.text`, a caption, a Bézier animation, a
    ///   sticker, subtitles, a drawing closure) or a photo (`Clip.image`, `Clip.photo`, whose pan and
    ///   zoom stretch to the new length) simply lasts `duration`; a title card is laid out again for the
    ///   new duration (its exit moves to the new end);
    /// - a `transformed` node whose transform has no keyframes passes the new duration to its clip;
    /// - anything else (a video, a sequence, a stack, a time map, a filtered or masked clip, a slideshow)
    ///   plays to its end and then holds its last picture (the picture 1 ms before its end) for the rest,
    ///   silently.
    public func withDuration(_ duration: Time) throws(MovieMakerError) -> Clip {
        guard duration >= .zero else { throw .invalidSetting(.duration, value: "\(duration)", expected: "a duration of 0 or more") }
        if duration == self.duration { return self }
        if duration < self.duration { return trimmed(to: duration) }
        return extended(to: duration)
    }

    /// This clip lasting `duration` (longer than it is); see `withDuration(_:)`.
    private func extended(to duration: Time) -> Clip {
        var result: Clip
        switch node {
        case let .generator(.titleCard(leaf), _):
            var card = leaf.card
            card.duration = duration
            guard let relaid = try? TitleCardLeaf(card: card, width: leaf.width, height: leaf.height) else { return holding(to: duration) }
            result = Clip(.generator(.titleCard(relaid), duration: duration))
        case .generator(.slideshow, _):
            return holding(to: duration)
        case let .generator(generator, _):
            result = Clip(.generator(generator, duration: duration))
        case let .media(media):
            guard case .photo = media.source else { return holding(to: duration) }
            result = Clip(.media(Media(media.source, sourceRange: TimeRange(start: media.sourceRange.start, duration: duration))))
        case let .transformed(transform, child) where transform.isConstant:
            result = Clip(.transformed(transform, child.extended(to: duration)))
        default:
            return holding(to: duration)
        }
        result.attachedSounds = attachedSounds
        return result
    }

    /// When the clip's last picture shows: 3 ms before its end, clear of the 2 ms a video frame's
    /// timestamp may be late and still show (`VideoFrameSource.largestTolerance`), so a trimmed video's
    /// last frame, not the one after its out point.
    var lastPictureTime: Time {
        Time.max(.zero, duration - VideoFrameSource.largestTolerance - Time(value: 1, timescale: 1000))
    }

    /// This clip, then its last picture held until `duration`.
    private func holding(to duration: Time) -> Clip {
        Clip.sequence([self, frozen(at: lastPictureTime, for: duration - self.duration)])
    }

    /// The picture of this clip at `time` (of its own time, clamped into the clip), held for as long as
    /// the clip lasts, without sound — as Remotion's `<Freeze>` does. Use `frozen(at:for:)` for another
    /// length, and `Clip.sequence([clip.trimmed(to: t), clip.frozen(at: t, for: 2)])` to pause a clip.
    public func frozen(at time: Time) -> Clip {
        frozen(at: time, for: duration)
    }

    // MARK: Leaves

    /// A clip showing the picture at `url` — a photo (JPEG, HEIC, WebP, …) or a PNG with transparency —
    /// for `duration`, placed by `fit`: `fit` (the default) shows it whole, centred, on `background`;
    /// `fill` covers the frame, cropping; `blur` shows it whole over a blurred enlargement of itself.
    ///
    /// The background is clear by default, so a logo or a cut-out PNG sits over what is below; give
    /// `.black` for letterbox bars. It is a photo media leaf (`Clip.photo`), decoded when a render opens
    /// its media, at about the size it is shown at; a missing or unreadable file fails then.
    public static func image(_ url: URL, duration: Time = 5, fit: Slideshow.Fit = .fit, background: Color = .clear) -> Clip {
        photo(url, duration: duration, fit: fit, background: background)
    }

    /// The style `Clip.text` uses unless given another: white DejaVu Sans, 64 pixels, centred.
    public static let defaultTextStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 64), color: .white, alignment: .center)

    /// A clip showing `string` in `style` for `duration`, on a clear background: the text is wrapped to
    /// the width of the frame's title-safe area (`Rect.titleSafe(in:)`) and its block centred in the frame
    /// (lines placed by `style.alignment` within the block). Font sizes are in pixels of the frame it is
    /// drawn into. Place it with `positioned(at:anchor:)` (the centre of the text goes to the point),
    /// `scaled(by:)` and the other placements.
    ///
    /// The text is shaped by Pango (complex scripts, right-to-left text, emoji, markup when
    /// `style.isMarkup`). The font is checked now: an unknown font throws here, not mid-render. The
    /// clip is a `text` generator leaf, written as `{"type": "text", "text": …, "style": …, "duration": …}`.
    public static func text(_ string: String, style: TextStyle = Clip.defaultTextStyle, duration: Time = 5) throws(MovieMakerError) -> Clip {
        guard duration >= .zero else { throw .invalidSetting(.duration, value: "\(duration)", expected: "a duration of 0 or more") }
        _ = try TextLayout(string, style: style)
        return Clip(.generator(.text(string, style: style), duration: duration))
    }

    /// Draws a `text` generator's string: wrapped to the title-safe width, its block centred in the frame.
    static func drawText(_ string: String, style: TextStyle, in ctx: DrawingContext) throws {
        let safe = Rect.titleSafe(in: ctx.bounds.size)
        let layout = try TextLayout(string, style: style, width: safe.width)
        let origin = Point(x: ctx.bounds.midX - layout.logicalBounds.midX, y: ctx.bounds.midY - layout.logicalBounds.midY)
        layout.draw(in: ctx, at: origin)
        try ctx.checkStatus()
    }
}

extension Clip.Transform {
    /// Whether nothing in the transform changes over time.
    var isConstant: Bool {
        (position?.constantValue != nil || position == nil) && scale.constantValue != nil && rotation.constantValue != nil
            && opacity.constantValue != nil
    }
}

import Foundation

// Which frames show exactly what the frame before showed, decided from the tree alone: a render then
// hands the encoder the previous converted frame again instead of drawing and converting it (a title
// card's hold, a still photo, a freeze frame, a colour). The answer must never be "yes" wrongly — the
// movie stays byte-identical to drawing every frame, which tests check with the reuse on and off — so
// every node the rules do not cover answers "no". It mirrors `render(in:at:session:)` node by node: the
// same time maps, the same tests of which child is drawn.

extension Clip {
    /// Whether frame `index` of this clip at `rate` shows exactly the picture of frame `index − 1`.
    package func repeatsPreviousFrame(_ index: Int, rate: FrameRate) -> Bool {
        guard index > 0 else { return false }
        return picturesAgree(rate.time(ofFrame: index - 1), rate.time(ofFrame: index), rate: rate)
    }

    /// Whether the clip draws the same picture at its times `a` and `b` (its own time, as the interpreter
    /// is given them), knowing only the tree. Conservative: false unless a rule below proves it.
    func picturesAgree(_ a: Time, _ b: Time, rate: FrameRate) -> Bool {
        if a == b { return true }
        switch node {
        case let .generator(generator, duration):
            return generator.isStill(between: a, and: b, duration: duration, rate: rate)

        case let .media(media):
            // A photo without a Ken Burns path is the same picture throughout; a video's frames change.
            guard case let .photo(photo) = media.source else { return false }
            return photo.kenBurns == nil

        case let .sequence(track):
            let ia = track.index(at: a), ib = track.index(at: b)
            guard let i = ia, ia == ib else { return ia == nil && ib == nil }
            // Inside a transition the two items blend: the mix changes every frame.
            if i > 0, let transition = track.transitions[i - 1], Time.min(a, b) < track.starts[i] + transition.duration {
                return false
            }
            return track.items[i].picturesAgree(a - track.starts[i], b - track.starts[i], rate: rate)

        case let .stack(clips):
            for c in clips {
                let drawnAtA = a < c.duration, drawnAtB = b < c.duration
                guard drawnAtA == drawnAtB else { return false }
                if drawnAtA, !c.picturesAgree(a, b, rate: rate) { return false }
            }
            return true

        case let .timeMap(map, child):
            let la = map.childTime(a, childDuration: child.duration, rate: rate)
            let lb = map.childTime(b, childDuration: child.duration, rate: rate)
            guard let la, let lb else { return la == nil && lb == nil }
            return child.picturesAgree(la, lb, rate: rate)

        case let .transformed(transform, child):
            // A transform without keyframes places the picture the same way at every time.
            guard transform.position?.isConstant ?? true, transform.scale.isConstant, transform.rotation.isConstant,
                  transform.opacity.isConstant else { return false }
            return child.picturesAgree(a, b, rate: rate)

        case let .filtered(filters, child):
            // Filters without keyframes (and without grain, which changes with the frame) do the same to
            // every frame.
            guard filters.allSatisfy(\.isStill) else { return false }
            return child.picturesAgree(a, b, rate: rate)

        case .masked, .split:
            // Left for later: they answer no.
            return false
        }
    }
}

extension Clip.Filter {
    /// Whether the filter does the same to every frame: none of its amounts has keyframes, and it is
    /// not grain (whose noise follows the frame's time).
    var isStill: Bool {
        switch self {
        case let .color(f): return f.isStill
        case let .spatial(f): return f.isStill
        case .backdrop: return true
        }
    }
}

extension ColorFilter {
    /// Whether no amount of the filter has keyframes.
    var isStill: Bool {
        switch self {
        case let .grayscale(a), let .brightness(a), let .contrast(a), let .saturation(a), let .gamma(a), let .hue(a),
             let .tint(a), let .exposure(a), let .vibrance(a), let .sepia(a), let .invert(a), let .colorize(_, a),
             let .channelMixer(_, a), let .curves(_, a), let .lut(_, _, a), let .look(_, a):
            return a.isConstant
        case let .temperature(kelvin, amount):
            return kelvin.isConstant && amount.isConstant
        }
    }
}

extension SpatialFilter {
    /// Whether no amount of the filter has keyframes, and it is not grain.
    var isStill: Bool {
        switch self {
        case let .blur(a), let .pixelate(a): return a.isConstant
        case let .sharpen(a, r): return a.isConstant && r.isConstant
        case let .vignette(a, angle, r, _): return a.isConstant && angle.isConstant && r.isConstant
        case .grain: return false
        case let .chromaKey(_, similarity, blend, spill): return similarity.isConstant && blend.isConstant && spill.isConstant
        }
    }
}

extension FilterAmount {
    /// Whether the amount is the same on every frame.
    var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}

extension Animated {
    /// Whether the value is the same at every time (no keyframes).
    var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}

extension Clip.Generator {
    /// Whether the generator draws the same picture at its times `a` and `b` of a clip lasting `duration`.
    func isStill(between a: Time, and b: Time, duration: Time, rate: FrameRate) -> Bool {
        switch self {
        case .color, .empty, .caption, .text:
            return true
        case let .titleCard(leaf):
            return leaf.plan.isStill(at: a.seconds, duration: duration.seconds, rate: rate)
                && leaf.plan.isStill(at: b.seconds, duration: duration.seconds, rate: rate)
        case let .slideshow(leaf):
            return leaf.photos.picturesAgree(a, b, rate: rate)
        case let .captions(leaf):
            return leaf.isStill(between: a, and: b)
        case .drawing, .bezier, .sticker, .subtitles, .audiogram, .lottie:
            // Code, motion along a path, animated images, cues, sound and Lottie: not known to hold still.
            return false
        }
    }
}

extension TitlePlan {
    /// Whether, at its time `t` (seconds) in a card lasting `duration`, every element is fully in and
    /// not yet leaving (and the lower-third band fully up): the card's still picture, the same at every
    /// such time. Asks `draw(in:frame:)`'s own progress functions.
    func isStill(at t: Double, duration end: Double, rate: FrameRate) -> Bool {
        for i in elements.indices {
            let p = progress(of: i, at: t, duration: end, rate: rate)
            guard p.entering >= 1, p.leaving >= 1 else { return false }
        }
        if band != nil {
            let p = bandProgress(at: t, duration: end, rate: rate)
            guard p.entering >= 1, p.leaving >= 1 else { return false }
        }
        return true
    }
}

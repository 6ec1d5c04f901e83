internal import CCairo
import Foundation

// How a transition frame is drawn.
//
// Effects where each pixel shows either A or B (wipes, slides, covers, reveals, crops, squeezes) draw
// the clips straight into the destination, each clipped to its region and moved into place: no extra
// pictures, no resampling. Effects that mix the two pictures (fades, soft edges, dissolve, zoom) draw
// A and B into two scratch canvases, mix B into A there (`A·(1−w) + B·w` on premultiplied pixels, so
// transparent clips mix correctly too: DEST_IN then ADD for a constant share, SOURCE through an 8-bit
// mask for a share per pixel) and paint the result OVER the destination, as if the mix were one clip.

/// Scratch space for one transition frame: two canvases for the pictures and an 8-bit mask.
final class TransitionScratch {
    let width: Int
    let height: Int
    /// Where the outgoing picture (A) is drawn; it receives the mix.
    let outgoing: Canvas
    /// Where the incoming picture (B) is drawn.
    let incoming: Canvas
    private var maskSurface: CairoSurface?
    /// Each pixel's moment to switch in a dissolve (a 16-bit fraction of the transition), for `seed`.
    private var dissolve: (seed: UInt64, thresholds: [UInt16])?

    init(width: Int, height: Int) throws(MovieMakerError) {
        self.width = width; self.height = height
        outgoing = try Canvas(width: width, height: height)
        incoming = try Canvas(width: width, height: height)
    }

    /// An A8 surface of the canvases' size, created on first use.
    func mask() throws(MovieMakerError) -> CairoSurface {
        if let maskSurface { return maskSurface }
        // The one owner that checks the status before adopting the surface.
        let surface = try CairoSurface(width: width, height: height, format: CAIRO_FORMAT_A8)
        maskSurface = surface
        return surface
    }

    /// The pixels' dissolve thresholds for `seed`, row by row, computed once per set and seed.
    func dissolveThresholds(seed: UInt64) -> [UInt16] {
        if let dissolve, dissolve.seed == seed { return dissolve.thresholds }
        var t = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { t[y * width + x] = UInt16(truncatingIfNeeded: TransitionRenderer.pixelHash(x: x, y: y, seed: seed) >> 48) }
        }
        dissolve = (seed, t)
        return t
    }
}

/// Scratch sets for a render's transitions (see `SizedPool`, `RenderScratch`).
final class TransitionScratchPool: SizedPool<TransitionScratch>, @unchecked Sendable {
    init() {
        super.init(make: { w, h throws(MovieMakerError) in try TransitionScratch(width: w, height: h) }, size: { ($0.width, $0.height) })
    }
    /// Runs `body` with a scratch set of `width`×`height`, reused from the pool when one is idle.
    func withScratch<R>(width: Int, height: Int, _ body: (TransitionScratch) throws -> R) throws -> R {
        try withItem(width: width, height: height, body)
    }
}

/// Draws transition frames.
enum TransitionRenderer {
    /// The progress built-in effects are drawn at, for the moment `linear` (0…1, before easing): the
    /// eased progress clamped to 0…1 (overshooting easings are clamped).
    static func progress(_ transition: Transition, linear: Double) -> Double {
        let eased = transition.easing(linear)
        return eased.isNaN ? 0 : min(max(eased, 0), 1)
    }

    /// Draws the moment `linear` (0…1, before easing) of `transition` from `a` at `fa` to `b` at `fb` into `ctx`.
    static func draw(_ transition: Transition, linearProgress linear: Double,
                     from a: TransitionSide, at fa: Frame, to b: TransitionSide, at fb: Frame, in ctx: DrawingContext) throws {
        let effect = transition.kind.effect
        if case let .custom(body) = effect {
            try withScratch(a.session, ctx) { s in
                try render(a, fa, into: s.outgoing)
                try render(b, fb, into: s.incoming)
                let frames = TransitionFrames(context: ctx, outgoing: s.outgoing, incoming: s.incoming, linearProgress: linear)
                try ctx.withSavedState { try body(frames, transition.easing(linear)) }
            }
            return
        }
        let p = progress(transition, linear: linear)
        if p <= 0 { return try direct(a, fa, ctx) }
        if p >= 1 { return try direct(b, fb, ctx) }
        // xfade's own progress runs the other way: 1 at the start, 0 at the end.
        let P = 1 - p
        let w = ctx.bounds.width, h = ctx.bounds.height

        switch effect {
        case .mix(.constant):
            if try fadeInPlace(ctx, a, fa, b, fb, opacity: p) { return }
            try mix(ctx, a, fa, b, fb, weight: .constant(p))

        case let .fadeThrough(color):
            // Drawing A, then the colour at alpha k over it, is exactly lerp(A, colour, k) OVER what was
            // below, for any A: no scratch needed.
            if p < 0.5 { try direct(a, fa, ctx) } else { try direct(b, fb, ctx) }
            let k = p < 0.5 ? 2 * p : 2 - 2 * p
            ctx.withCairoContext { cr in
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
                cairo_paint_with_alpha(cr, k)
            }

        case let .edge(motion, d):
            // `s`: how many columns (rows) B has, with xfade's integer edges.
            let horizontal = d == .left || d == .right
            let full = horizontal ? w : h
            let s: Double
            if motion == .wipe {
                // xfade's wipes take pixels beyond `Int(size × progress)` from the far side, so the
                // edge is asymmetric by one pixel between left and right (up and down).
                switch d {
                case .left, .up: s = max(0, full - (full * P).rounded(.towardZero) - 1)
                case .right, .down: s = min(full, (full * p).rounded(.towardZero) + 1)
                }
            } else {
                s = full - (full * P).rounded(.towardZero)
            }
            let aRect, bRect: Rect
            switch d {
            case .left: aRect = Rect(x: 0, y: 0, width: w - s, height: h); bRect = Rect(x: w - s, y: 0, width: s, height: h)
            case .right: aRect = Rect(x: s, y: 0, width: w - s, height: h); bRect = Rect(x: 0, y: 0, width: s, height: h)
            case .up: aRect = Rect(x: 0, y: 0, width: w, height: h - s); bRect = Rect(x: 0, y: h - s, width: w, height: s)
            case .down: aRect = Rect(x: 0, y: s, width: w, height: h - s); bRect = Rect(x: 0, y: 0, width: w, height: s)
            }
            // A moves by `s` in the direction; B follows one frame-length behind it.
            let unit: Point
            switch d {
            case .left: unit = Point(x: -1, y: 0)
            case .right: unit = Point(x: 1, y: 0)
            case .up: unit = Point(x: 0, y: -1)
            case .down: unit = Point(x: 0, y: 1)
            }
            let aMoved = Point(x: unit.x * s, y: unit.y * s)
            let bMoved = Point(x: aMoved.x - unit.x * w, y: aMoved.y - unit.y * h)
            let aOffset: Point, bOffset: Point
            switch motion {
            case .slide: aOffset = aMoved; bOffset = bMoved
            case .cover: aOffset = .zero; bOffset = bMoved
            case .reveal: aOffset = aMoved; bOffset = .zero
            case .wipe: aOffset = .zero; bOffset = .zero
            }
            if aRect.width > 0 && aRect.height > 0 { try direct(a, fa, ctx, clip: aRect, offset: aOffset) }
            if bRect.width > 0 && bRect.height > 0 { try direct(b, fb, ctx, clip: bRect, offset: bOffset) }

        case let .cornerWipe(corner):
            // A keeps the rectangle at `corner`, shrinking into it (xfade's integer edges: the pixels up
            // to and including `Int(size × P)` from that corner).
            let right = corner == .topRight || corner == .bottomRight
            let bottom = corner == .bottomLeft || corner == .bottomRight
            let aw = right ? w - (w * p).rounded(.towardZero) - 1 : (w * P).rounded(.towardZero) + 1
            let ah = bottom ? h - (h * p).rounded(.towardZero) - 1 : (h * P).rounded(.towardZero) + 1
            let aRect = Rect(x: right ? w - aw : 0, y: bottom ? h - ah : 0, width: max(0, aw), height: max(0, ah))
            try direct(b, fb, ctx, outside: aRect)
            if aw > 0 && ah > 0 { try direct(a, fa, ctx, clip: aRect) }

        case let .crop(shape):
            // The picture (A in the first half, B in the second) in a shape that closes and reopens, on black.
            fillBlack(ctx)
            let (clip, f) = P >= 0.5 ? (a, fa) : (b, fb)
            let amount = abs(P - 0.5)
            if shape == .circle {
                let r = pow(2 * amount, 3) * hypot(w / 2, h / 2)
                guard r > 0 else { return }
                try ctx.withSavedState {
                    ctx.beginPath(); ctx.addEllipse(in: Rect(x: w / 2 - r, y: h / 2 - r, width: 2 * r, height: 2 * r)); ctx.clip()
                    try clip.draw(in: ctx, at: f)
                }
            } else {
                // xfade: pixels strictly within Int(amount × size) of the (integer) centre.
                let zw = (amount * w).rounded(.towardZero), zh = (amount * h).rounded(.towardZero)
                let rect = Rect(x: (w / 2).rounded(.down) - zw + 1, y: (h / 2).rounded(.down) - zh + 1, width: 2 * zw - 1, height: 2 * zh - 1)
                guard rect.width > 0, rect.height > 0 else { return }
                try direct(clip, f, ctx, clip: rect)
            }

        case let .squeeze(intoRows):
            // A squashed about the centre into the rows (columns) within P/2 of the middle, B around it.
            let vertical = intoRows
            let size = vertical ? h : w
            let first = (size / 2 - P * size / 2).rounded(.up), last = (size / 2 + P * size / 2).rounded(.down)
            let n = max(0, last - first + 1)
            let band = vertical ? Rect(x: 0, y: first, width: w, height: n) : Rect(x: first, y: 0, width: n, height: h)
            try direct(b, fb, ctx, outside: band)
            guard n > 0 else { return }
            try ctx.withSavedState {
                ctx.clip(to: band)
                ctx.translate(x: vertical ? 0 : first, y: vertical ? first : 0)
                ctx.scale(x: vertical ? 1 : n / w, y: vertical ? n / h : 1)
                try a.draw(in: ctx, at: fa)
            }

        case .zoom(inward: true):
            try zoom(ctx, zooming: a, fa, into: b, fb, xfadeProgress: P)
        case .zoom(inward: false):
            try zoom(ctx, zooming: b, fb, into: a, fa, xfadeProgress: p)

        case let .mix(.dissolve(seed)):
            // A pixel switches to B once progress passes its random threshold.
            let k = UInt32(p * 65536)
            try mix(ctx, a, fa, b, fb, weight: .mask { s, data, stride in
                s.dissolveThresholds(seed: seed).withUnsafeBufferPointer { t in
                    for y in 0..<s.height {
                        let row = data + y * stride, base = y * s.width
                        for x in 0..<s.width { row[x] = UInt32(t[base + x]) < k ? 255 : 0 }
                    }
                }
            })

        case let .mix(.mask(shape)):
            try mix(ctx, a, fa, b, fb, weight: .mask { s, data, stride in
                shape.fill(xfadeProgress: P, data: data, stride: stride, width: s.width, height: s.height)
            })

        case .custom:
            break   // handled above
        }
    }

    // MARK: Direct drawing

    /// Draws `clip` into `ctx` clipped to `rect` (if given) and moved by `offset`.
    private static func direct(_ clip: TransitionSide, _ f: Frame, _ ctx: DrawingContext, clip rect: Rect? = nil, offset: Point = .zero) throws {
        try ctx.withSavedState {
            if let rect { ctx.clip(to: rect) }
            if offset != .zero { ctx.translate(x: offset.x, y: offset.y) }
            try clip.draw(in: ctx, at: f)
        }
    }

    /// Draws `clip` into `ctx` everywhere but inside `hole`.
    private static func direct(_ clip: TransitionSide, _ f: Frame, _ ctx: DrawingContext, outside hole: Rect) throws {
        try ctx.withSavedState {
            ctx.beginPath()
            ctx.addRect(Rect(x: -1, y: -1, width: ctx.bounds.width + 2, height: ctx.bounds.height + 2))
            if hole.width > 0 && hole.height > 0 { ctx.addRect(hole) }
            ctx.fillRule = .evenOdd
            ctx.clip()
            ctx.fillRule = .winding
            try clip.draw(in: ctx, at: f)
        }
    }

    /// Paints opaque black over `ctx` (within its clip).
    private static func fillBlack(_ ctx: DrawingContext) {
        ctx.withCairoContext { cr in
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            cairo_paint(cr)
        }
    }

    // MARK: Fading in place

    /// A crossfade drawn with no scratch set when B covers `ctx` opaquely: A drawn in place and B
    /// painted over it at alpha `p` is, pixel for pixel, what `mix` paints — for any A, over any
    /// destination D (B·p + (A + D·(1−αA))·(1−p) = (A·(1−p) + B·p) + D·(1 − αA·(1−p) − p)), up to
    /// 8-bit rounding. A photo filling the frame with an opaque picture (a slideshow's `fill`) is
    /// painted at alpha `p` in one pass, with no canvas at all; another opaque B is drawn in one layer
    /// instead of the mix's two canvases. Only where the context maps user space to whole pixels (as
    /// the scratch canvases do); false (nothing drawn) otherwise, or when B is not known to cover.
    private static func fadeInPlace(_ ctx: DrawingContext, _ a: TransitionSide, _ fa: Frame, _ b: TransitionSide, _ fb: Frame,
                                    opacity p: Double) throws -> Bool {
        guard !mixesEveryFade, mapsToWholePixels(ctx) else { return false }
        let cover = try b.cover(at: fb)
        if cover != .unknown { inPlaceFades?.add() }
        switch cover {
        case .unknown:
            return false
        case .opaqueOnePaint:
            try direct(a, fa, ctx)
            try ctx.withSavedState { try b.drawFaded(in: ctx, at: fb, opacity: p) }
        case .opaque:
            try direct(a, fa, ctx)
            try a.session.scratch.layers.withLayer(width: max(1, Int(ctx.bounds.width)), height: max(1, Int(ctx.bounds.height))) { layer in
                try render(b, fb, into: layer)
                try layer.context.checkStatus()
                paint(layer, onto: ctx.cr, alpha: p)
            }
        }
        try ctx.checkStatus()
        return true
    }

    /// Tests set this (for the drawing they do on their own task) to draw every crossfade through
    /// the two-canvas mix, the reference the in-place fade is compared with.
    @TaskLocal static var mixesEveryFade = false
    /// Tests set this (for the drawing they do on their own task) to count the crossfade frames drawn
    /// in place there, and only there: tests running in parallel do not add to it.
    @TaskLocal static var inPlaceFades: EventCounter?

    /// Whether `ctx`'s transform is the identity or a move by whole pixels.
    private static func mapsToWholePixels(_ ctx: DrawingContext) -> Bool {
        var m = cairo_matrix_t()
        cairo_get_matrix(ctx.cr, &m)
        return m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0 && m.x0 == m.x0.rounded() && m.y0 == m.y0.rounded()
    }

    // MARK: Mixing in scratch canvases

    /// How much of B each pixel of a mix takes.
    enum Weight {
        /// The same share everywhere.
        case constant(Double)
        /// A share per pixel, written as 0…255 into the scratch set's A8 buffer (data, stride).
        case mask((TransitionScratch, UnsafeMutablePointer<UInt8>, Int) -> Void)
    }

    /// Runs `body` with a scratch set of `ctx`'s size from `session`'s pool.
    private static func withScratch<R>(_ session: RenderSession, _ ctx: DrawingContext, _ body: (TransitionScratch) throws -> R) throws -> R {
        try session.scratch.transitions.withScratch(width: max(1, Int(ctx.bounds.width)), height: max(1, Int(ctx.bounds.height)), body)
    }

    /// Draws `clip` at `f` on a transparent `canvas`, after `setup` (a transform, say).
    private static func render(_ clip: TransitionSide, _ f: Frame, into canvas: Canvas, setup: (DrawingContext) -> Void = { _ in }) throws {
        try canvas.draw { c in
            c.clear(.clear)
            setup(c)
            try clip.draw(in: c, at: f)
        }
    }

    /// Draws A and B into scratch canvases, mixes B into A by `weight` and paints the mix over `ctx`.
    private static func mix(_ ctx: DrawingContext, _ a: TransitionSide, _ fa: Frame, _ b: TransitionSide, _ fb: Frame, weight: Weight,
                            setupA: (DrawingContext) -> Void = { _ in }) throws {
        try withScratch(a.session, ctx) { s in
            try render(a, fa, into: s.outgoing, setup: setupA)
            try render(b, fb, into: s.incoming)
            let cr = s.outgoing.context.cr
            cairo_save(cr)
            cairo_identity_matrix(cr)
            switch weight {
            case let .constant(k):
                // A·(1−k), then + B·k. (SOURCE through a constant alpha computes the same but takes
                // pixman's general path: about 5× slower at 1080p.)
                cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
                cairo_set_source_rgba(cr, 0, 0, 0, 1 - k)
                cairo_paint(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
                cairo_set_source_surface(cr, s.incoming.surface.pointer, 0, 0)
                cairo_paint_with_alpha(cr, k)
            case let .mask(fill):
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_set_source_surface(cr, s.incoming.surface.pointer, 0, 0)
                let m = try s.mask()
                m.flush()
                fill(s, m.data, m.stride)
                m.markDirty()
                cairo_mask_surface(cr, m.pointer, 0, 0)
            }
            cairo_restore(cr)
            try s.outgoing.context.checkStatus()
            paint(s.outgoing, onto: ctx.cr)
            try ctx.checkStatus()
        }
    }

    /// xfade's zoomin, from the zooming clip's point of view: `zoomed` magnifies into its centre while
    /// `P` goes 1 → 0.5, then `other` fades in over it while `P` goes 0.5 → 0.
    private static func zoom(_ ctx: DrawingContext, zooming zoomed: TransitionSide, _ fz: Frame, into other: TransitionSide, _ fo: Frame,
                             xfadeProgress P: Double) throws {
        let w = ctx.bounds.width, h = ctx.bounds.height
        // xfade samples A at (u − ½)·zf + ½: a magnification of 1/zf, which grows without bound as zf
        // reaches 0 at the midpoint. Capped where one pixel already fills the frame many times over.
        let zf = smoothstep(0.5, 1, P)
        let scale = 1 / max(zf, 1.0 / 256)
        let setup: (DrawingContext) -> Void = { c in
            c.translate(x: w / 2, y: h / 2)
            c.scale(x: scale, y: scale)
            c.translate(x: -w / 2, y: -h / 2)
        }
        let otherShare = 1 - smoothstep(0, 0.5, P)
        if otherShare <= 0 {
            try ctx.withSavedState {
                setup(ctx)
                try zoomed.draw(in: ctx, at: fz)
            }
            return
        }
        try mix(ctx, zoomed, fz, other, fo, weight: .constant(otherShare), setupA: setup)
    }

    // MARK: Painting canvases

    /// Paints `canvas` OVER `cr` at the origin, at `alpha`.
    static func paint(_ canvas: Canvas, onto cr: OpaquePointer, alpha: Double = 1) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_source_surface(cr, canvas.surface.pointer, 0, 0)
        if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, max(0, alpha)) }
        cairo_restore(cr)
    }

    /// Paints `canvas` OVER `cr`, scaled to fill `rect`, at `alpha`.
    static func paint(_ canvas: Canvas, onto cr: OpaquePointer, in rect: Rect, alpha: Double) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_translate(cr, rect.minX, rect.minY)
        cairo_scale(cr, rect.width / Double(canvas.width), rect.height / Double(canvas.height))
        cairo_set_source_surface(cr, canvas.surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, Double(canvas.width), Double(canvas.height))
        cairo_clip(cr)
        if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, max(0, alpha)) }
        cairo_restore(cr)
    }

    // MARK: Masks (B's share per pixel, xfade's formulas)

    /// GLSL's smoothstep: 0 below `e0`, 1 above `e1`, a smooth S between.
    @inline(__always)
    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// 0…1 as a byte.
    @inline(__always)
    static func byte(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }

    /// atan2(y, x) to within 0.0003 radians (a tenth of a level in a radial mask), by a polynomial;
    /// several times faster than `atan2`.
    @inline(__always)
    static func fastAtan2(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let big = max(ax, ay)
        guard big > 0 else { return 0 }
        let a = min(ax, ay) / big, s = a * a
        var r = ((-0.046_496_474_9 * s + 0.159_314_22) * s - 0.327_622_764) * s * a + a
        if ay > ax { r = .pi / 2 - r }
        if x < 0 { r = .pi - r }
        return y < 0 ? -r : r
    }

    /// A deterministic pseudo-random 64-bit value for a pixel (SplitMix64's finaliser over the position and seed).
    @inline(__always)
    static func pixelHash(x: Int, y: Int, seed: UInt64) -> UInt64 {
        var z = seed &+ UInt64(truncatingIfNeeded: y) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: x) &* 0xC2B2_AE3D_27D4_EB4F
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

internal import CCairo
import Foundation

/// A rectangle on the pixel grid, in whole device pixels.
struct PixelBox: Hashable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    /// The smallest box containing the real rectangle from (x0, y0) to (x1, y1).
    init(containing x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        func grid(_ v: Double) -> Int { Int(max(-1e8, min(1e8, v.isNaN ? 0 : v))) }
        self.init(x0: grid(x0.rounded(.down)), y0: grid(y0.rounded(.down)), x1: grid(x1.rounded(.up)), y1: grid(y1.rounded(.up)))
    }
    init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    var width: Int { max(0, x1 - x0) }
    var height: Int { max(0, y1 - y0) }
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    /// Grown by `n` pixels on every side.
    func outset(by n: Int) -> PixelBox { PixelBox(x0: x0 - n, y0: y0 - n, x1: x1 + n, y1: y1 + n) }
    /// Moved by a real offset, rounded out so it still covers the moved area.
    func offset(dx: Double, dy: Double) -> PixelBox {
        PixelBox(containing: Double(x0) + dx, Double(y0) + dy, Double(x1) + dx, Double(y1) + dy)
    }
    func intersection(_ o: PixelBox) -> PixelBox { PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1)) }
    func union(_ o: PixelBox) -> PixelBox { PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1)) }
    var cairoRectangle: cairo_rectangle_t { cairo_rectangle_t(x: Double(x0), y: Double(y0), width: Double(width), height: Double(height)) }
}

extension DrawingContext {
    // MARK: Blend modes

    /// How fills, strokes, text and images combine with the frame (default `.normal`); part of the
    /// saved state. Layers (`withGroup`, `withShadow`, `withBlur`) start at `.normal` inside and
    /// composite their result with the mode that was current outside.
    public var blendMode: BlendMode {
        get { BlendMode(cairoOperator: cairo_get_operator(cr)) ?? .normal }
        set { cairo_set_operator(cr, newValue.cairoOperator) }
    }
    /// Runs `body` with `mode` as the blend mode, then restores the state (as `withSavedState`).
    public func withBlendMode<R>(_ mode: BlendMode, _ body: () throws -> R) rethrows -> R {
        try withSavedState {
            blendMode = mode
            return try body()
        }
    }

    // MARK: Shadows and blur

    /// Draws `body` with a drop shadow under everything it draws.
    ///
    /// `body` draws into a layer; the layer's alpha is blurred (see `Shadow`), tinted with the
    /// shadow's colour, drawn `shadow.offset` device pixels away, and the layer is drawn on top. As on
    /// an HTML canvas, the shadow is cast by everything `body` draws, also just outside the clip, and
    /// shadow and content are then both clipped; the result is composited with the current blend mode.
    /// State changes in `body` are undone afterwards. A bad blur radius or offset is reported by the
    /// frame's status check, and `body` is then drawn without a shadow.
    public func withShadow<R>(_ shadow: Shadow, _ body: () throws -> R) rethrows -> R {
        guard shadow.blur.isFinite, shadow.blur >= 0, shadow.blur <= GaussianBlur.maximumRadius else {
            recordError(.invalidSetting(.shadowBlur, value: "\(shadow.blur)", expected: "a blur radius from 0 to \(Int(GaussianBlur.maximumRadius)) pixels"))
            return try withSavedState(body)
        }
        guard shadow.offset.x.isFinite, shadow.offset.y.isFinite, abs(shadow.offset.x) < 1e6, abs(shadow.offset.y) < 1e6 else {
            recordError(.invalidSetting(.shadowOffset, value: "\(shadow.offset)", expected: "finite x and y in pixels"))
            return try withSavedState(body)
        }
        let clip = deviceClipBox()
        guard shadow.color.alpha > 0, !clip.isEmpty else { return try withSavedState(body) }
        let blur = GaussianBlur(radius: shadow.blur)
        let dx = shadow.offset.x, dy = shadow.offset.y
        // Drawing there can cast a visible shadow: the clip moved back by the offset, widened by the
        // blur's reach (and a pixel for a fractional offset's resampling).
        let casting = clip.offset(dx: -dx, dy: -dy).outset(by: blur.extent + 1)
        var extents = clip.union(casting).cairoRectangle
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)!
        defer { cairo_surface_destroy(recording) }
        let result = try drawRedirected(to: recording, body)
        var ix = 0.0, iy = 0.0, iw = 0.0, ih = 0.0
        cairo_recording_surface_ink_extents(recording, &ix, &iy, &iw, &ih)
        guard iw > 0, ih > 0 else { return result }

        withLayerComposite {
            let box = PixelBox(containing: ix, iy, ix + iw, iy + ih).outset(by: blur.extent).intersection(casting)
            if !box.isEmpty, let mask = try? CairoSurface(width: box.width, height: box.height, format: CAIRO_FORMAT_A8) {
                // Only the alpha matters: render the layer into an 8-bit alpha mask and blur that.
                let m = cairo_create(mask.pointer)!
                cairo_set_source_surface(m, recording, Double(-box.x0), Double(-box.y0))
                cairo_paint(m)
                cairo_destroy(m)
                mask.flush()
                blur.apply(to: mask.data, width: box.width, height: box.height, stride: mask.stride, channels: 1)
                mask.markDirty()
                let c = shadow.color
                cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
                cairo_mask_surface(cr, mask.pointer, Double(box.x0) + dx, Double(box.y0) + dy)
            } else if !box.isEmpty {
                recordError(.cairo(operation: "allocating a \(box.width)×\(box.height) shadow mask", message: "out of memory"))
            }
            cairo_set_source_surface(cr, recording, 0, 0)
            cairo_paint(cr)
        }
        return result
    }

    /// Draws `body` blurred by `radius` device pixels (a Gaussian with σ = radius / 2, see `Shadow`),
    /// e.g. for titles that blur in. Radius 0 draws `body` unchanged (exactly as without the call).
    ///
    /// `body` draws into a layer (also just beyond the clip, so edges blur in from outside), which is
    /// blurred and composited with the current blend mode inside the clip. State changes in `body`
    /// are undone afterwards. A radius outside 0…500 is reported by the frame's status check, and
    /// `body` is then drawn unblurred.
    public func withBlur<R>(radius: Double, _ body: () throws -> R) rethrows -> R {
        guard radius.isFinite, radius >= 0, radius <= GaussianBlur.maximumRadius else {
            recordError(.invalidSetting(.blurRadius, value: "\(radius)", expected: "a blur radius from 0 to \(Int(GaussianBlur.maximumRadius)) pixels"))
            return try withSavedState(body)
        }
        let blur = GaussianBlur(radius: radius)
        let clip = deviceClipBox()
        guard !blur.isIdentity, !clip.isEmpty else { return try withSavedState(body) }
        let reach = clip.outset(by: blur.extent)
        var extents = reach.cairoRectangle
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)!
        defer { cairo_surface_destroy(recording) }
        let result = try drawRedirected(to: recording, body)
        var ix = 0.0, iy = 0.0, iw = 0.0, ih = 0.0
        cairo_recording_surface_ink_extents(recording, &ix, &iy, &iw, &ih)
        let box = PixelBox(containing: ix, iy, ix + iw, iy + ih).outset(by: blur.extent).intersection(reach)
        guard iw > 0, ih > 0, !box.isEmpty else { return result }
        guard let layer = try? CairoSurface(width: box.width, height: box.height) else {
            recordError(.cairo(operation: "allocating a \(box.width)×\(box.height) blur layer", message: "out of memory"))
            return result
        }
        let l = cairo_create(layer.pointer)!
        cairo_set_source_surface(l, recording, Double(-box.x0), Double(-box.y0))
        cairo_paint(l)
        cairo_destroy(l)
        layer.flush()
        blur.apply(to: layer.data, width: box.width, height: box.height, stride: layer.stride, channels: 4)
        layer.markDirty()
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, layer.pointer, Double(box.x0), Double(box.y0))
        cairo_paint(cr)
        cairo_restore(cr)
        return result
    }

    /// Runs `draw` (raw Cairo on `cr`, in device pixels, operator OVER) so that what it draws reaches
    /// the frame as one layer composited with the current blend mode.
    private func withLayerComposite(_ draw: () -> Void) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        let op = cairo_get_operator(cr)
        let layered = op != CAIRO_OPERATOR_OVER
        if layered { cairo_push_group(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        draw()
        if layered {
            cairo_pop_group_to_source(cr)
            cairo_set_operator(cr, op)
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    // MARK: Images

    /// Draws `image` into `rect` sized by `fit`, at `opacity`, with the blend mode.
    ///
    /// `anchor` places the image where it does not fill `rect` exactly (`.fit`, `.fill`, `.center`),
    /// in unit coordinates of the spare room: (0, 0) top left, (0.5, 0.5) centred (default), (1, 1)
    /// bottom right. Downscaled images are filtered (Cairo's GOOD filter averages all covered pixels),
    /// and the image's edges stay crisp (edge pixels are extended, not faded to transparent).
    public func draw(_ image: Image, in rect: Rect, fit: ImageFit, opacity: Double = 1, anchor: Point = Point(x: 0.5, y: 0.5)) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0, opacity > 0 else { return }
        let iw = Double(image.width), ih = Double(image.height)
        var size: Size
        switch fit {
        case .stretch: size = rect.size
        case .fit: let s = min(rect.width / iw, rect.height / ih); size = Size(width: iw * s, height: ih * s)
        case .fill: let s = max(rect.width / iw, rect.height / ih); size = Size(width: iw * s, height: ih * s)
        case .center: size = image.size
        }
        let target = Rect(x: rect.minX + (rect.width - size.width) * anchor.x,
                          y: rect.minY + (rect.height - size.height) * anchor.y,
                          width: size.width, height: size.height)
        cairo_save(cr)
        cairo_new_path(cr)
        if fit == .fill || fit == .center {
            cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
            cairo_clip(cr)
        }
        cairo_translate(cr, target.minX, target.minY)
        cairo_scale(cr, target.width / iw, target.height / ih)
        cairo_set_source_surface(cr, image.surface.pointer, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, iw, ih)
        cairo_clip(cr)
        cairo_paint_with_alpha(cr, min(opacity, 1))
        cairo_restore(cr)
    }
}

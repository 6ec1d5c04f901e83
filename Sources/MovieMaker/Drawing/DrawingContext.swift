internal import CCairo
import Foundation

/// Drawing commands for one frame, in pixels with the origin at the top left.
///
/// It follows Core Graphics' model: build a path (`move(to:)`, `line(to:)`, `curve(to:control1:control2:)`…),
/// then `fill()` or `stroke()` it with the current fill or stroke paint. State changes (paints, line
/// style, transforms, clipping) can be scoped with `withSavedState { }`. For anything not wrapped yet,
/// `withCairoContext { cr in … }` hands out the raw `cairo_t` for the duration of a closure.
///
/// Effects (DrawingEffects.swift): `blendMode`, layers with `withGroup(opacity:blendMode:)`, drop
/// shadows with `withShadow(_:)`, blur with `withBlur(radius:)`, and images sized with
/// `draw(_:in:fit:opacity:anchor:)`. Effects cannot throw; a bad argument to one is reported by the
/// frame's status check (the movie's `addFrame` or the canvas's `draw` throws it).
///
/// In a movie, each frame starts with the drawing state reset (paints, line style, transform, clip)
/// but with the previous frame's pixels still there: clear or fill it when you want a fresh frame.
/// The fill and stroke paints, and text's default colour, start black (as in Core Graphics and
/// Cairo), and a movie's first frame is black too: set a paint (`setFill(.white)`) or clear to a
/// colour before your first shape, or it will not show.
public final class DrawingContext {
    private struct Style {
        var fill: Paint = .color(.black)
        var stroke: Paint = .color(.black)
        var font: TextFont? = nil
    }
    /// The owned `cairo_t`; effects (`withShadow`, `withBlur`) point it at a layer of their own while their body draws.
    private(set) var cr: OpaquePointer
    /// The first bad argument an effect met (effects cannot throw themselves); `checkStatus()` reports it.
    private var deferredError: MovieMakerError?
    private var style = Style()
    private var savedStyles: [Style] = []
    /// Where linear-gradient fills are rasterized (GradientFill.swift); made by the first such fill.
    private lazy var gradientScratch = GradientScratch()

    /// The drawable area: (0, 0) to the frame's width and height (a split's cell drawn at its own
    /// size: the cell's).
    public private(set) var bounds: Rect
    /// The frame's size in pixels.
    public var size: Size { bounds.size }

    init(surface: CairoSurface, width: Int, height: Int) throws(MovieMakerError) {
        let c = cairo_create(surface.pointer)!
        let status = cairo_status(c)
        if status != CAIRO_STATUS_SUCCESS { cairo_destroy(c); try cairoCheck(status, "cairo_create") }
        cr = c
        cairo_set_line_width(cr, 1)   // Core Graphics' default; Cairo's is 2
        bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        if width != surface.width || height != surface.height {
            // Padding for odd sizes: the extra row/column stays black, outside every drawing.
            cairo_rectangle(cr, 0, 0, Double(width), Double(height))
            cairo_clip(cr)
        }
    }
    deinit { cairo_destroy(cr) }

    /// Runs `body` with `bounds` of `size` at the current origin, then gives the frame's back: a split's
    /// cell drawn at the cell's size, where videos, photos and titles fit the cell instead of the frame.
    func withBounds<R>(_ size: Size, _ body: () throws -> R) rethrows -> R {
        let frame = bounds
        bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        defer { bounds = frame }
        return try body()
    }

    /// What can show, in the current user space: the clip's extents (the frame, or a split's cell),
    /// under the transforms applied so far. An item moved or scaled by its transform sees the edges of
    /// what shows here, not at `bounds`.
    var visibleRect: Rect {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        return Rect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }

    /// The first error on this context, if any: a bad effect argument, or Cairo's first error (Cairo
    /// stops drawing after one). Like Cairo's status, it stays set.
    func checkStatus() throws(MovieMakerError) {
        if let deferredError { throw deferredError }
        try cairoCheck(cairo_status(cr), "drawing")
    }
    /// Keeps `error` for `checkStatus()` unless an earlier one is already kept.
    func recordError(_ error: MovieMakerError) {
        if deferredError == nil { deferredError = error }
    }

    // MARK: Paint and line style

    /// Sets the colour `fill()` uses.
    public func setFill(_ color: Color) { style.fill = .color(color) }
    /// Sets the paint (colour or gradient) `fill()` uses.
    public func setFill(_ paint: Paint) { style.fill = paint }
    /// Sets the colour `stroke()` uses.
    public func setStroke(_ color: Color) { style.stroke = .color(color) }
    /// Sets the paint (colour or gradient) `stroke()` uses.
    public func setStroke(_ paint: Paint) { style.stroke = paint }
    /// The current fill paint.
    public var fillPaint: Paint { style.fill }
    /// The current stroke paint.
    public var strokePaint: Paint { style.stroke }

    /// Stroke width in pixels (default 1).
    public var lineWidth: Double {
        get { cairo_get_line_width(cr) }
        set { cairo_set_line_width(cr, newValue) }
    }
    /// How line ends look (default `.butt`).
    public var lineCap: LineCap {
        get { switch cairo_get_line_cap(cr) { case CAIRO_LINE_CAP_ROUND: .round; case CAIRO_LINE_CAP_SQUARE: .square; default: .butt } }
        set { cairo_set_line_cap(cr, newValue == .round ? CAIRO_LINE_CAP_ROUND : newValue == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT) }
    }
    /// How corners look (default `.miter`).
    public var lineJoin: LineJoin {
        get { switch cairo_get_line_join(cr) { case CAIRO_LINE_JOIN_ROUND: .round; case CAIRO_LINE_JOIN_BEVEL: .bevel; default: .miter } }
        set { cairo_set_line_join(cr, newValue == .round ? CAIRO_LINE_JOIN_ROUND : newValue == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER) }
    }
    /// The longest a miter joint may be, relative to the line width, before it is bevelled (default 10).
    public var miterLimit: Double {
        get { cairo_get_miter_limit(cr) }
        set { cairo_set_miter_limit(cr, newValue) }
    }
    /// Dashes strokes: alternating on/off lengths in pixels, starting `phase` pixels in; `[]` for solid lines.
    public func setLineDash(_ lengths: [Double], phase: Double = 0) {
        cairo_set_dash(cr, lengths, Int32(lengths.count), phase)
    }
    /// Which parts of a self-overlapping path are filled (default `.winding`).
    public var fillRule: FillRule {
        get { cairo_get_fill_rule(cr) == CAIRO_FILL_RULE_EVEN_ODD ? .evenOdd : .winding }
        set { cairo_set_fill_rule(cr, newValue == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING) }
    }
    private func apply(_ paint: Paint) {
        switch paint {
        case let .color(c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        case let .linearGradient(start, end, stops):
            let p = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)!
            addStops(stops, to: p)
            cairo_set_source(cr, p)
            cairo_pattern_destroy(p)   // the context holds its own reference while it is the source
        case let .radialGradient(c0, r0, c1, r1, stops):
            let p = cairo_pattern_create_radial(c0.x, c0.y, r0, c1.x, c1.y, r1)!
            addStops(stops, to: p)
            cairo_set_source(cr, p)
            cairo_pattern_destroy(p)
        }
    }
    private func addStops(_ stops: [GradientStop], to pattern: OpaquePointer) {
        for s in stops {
            cairo_pattern_add_color_stop_rgba(pattern, s.location, s.color.red, s.color.green, s.color.blue, s.color.alpha)
        }
    }

    // MARK: Paths

    /// Starts a new sub-path at `point`.
    public func move(to point: Point) { cairo_move_to(cr, point.x, point.y) }
    /// Adds a straight line to `point`.
    public func line(to point: Point) { cairo_line_to(cr, point.x, point.y) }
    /// Adds a cubic Bézier curve to `point`.
    public func curve(to point: Point, control1: Point, control2: Point) {
        cairo_curve_to(cr, control1.x, control1.y, control2.x, control2.y, point.x, point.y)
    }
    /// Adds a quadratic Bézier curve to `point` (raised exactly to a cubic).
    public func quadCurve(to point: Point, control: Point) {
        var x0 = 0.0, y0 = 0.0
        if cairo_has_current_point(cr) != 0 { cairo_get_current_point(cr, &x0, &y0) } else { cairo_move_to(cr, control.x, control.y); x0 = control.x; y0 = control.y }
        let c1 = Point(x: x0 + 2.0 / 3.0 * (control.x - x0), y: y0 + 2.0 / 3.0 * (control.y - y0))
        let c2 = Point(x: point.x + 2.0 / 3.0 * (control.x - point.x), y: point.y + 2.0 / 3.0 * (control.y - point.y))
        curve(to: point, control1: c1, control2: c2)
    }
    /// Adds a circular arc around `center` from `startAngle` to `endAngle` (radians; 0 points right,
    /// positive angles turn clockwise on screen since y grows downwards).
    public func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true) {
        if clockwise { cairo_arc(cr, center.x, center.y, radius, startAngle, endAngle) }
        else { cairo_arc_negative(cr, center.x, center.y, radius, startAngle, endAngle) }
    }
    /// Closes the current sub-path with a straight line to its start.
    public func closePath() { cairo_close_path(cr) }
    /// Discards the current path without drawing it.
    public func beginPath() { cairo_new_path(cr) }
    /// Adds a rectangle as a closed sub-path.
    public func addRect(_ rect: Rect) { cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height) }
    /// Adds a rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
    public func addRoundedRect(_ rect: Rect, cornerRadius: Double) {
        let r = max(0, min(cornerRadius, min(rect.width, rect.height) / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -.pi / 2, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, .pi / 2)
        cairo_arc(cr, rect.minX + r, rect.maxY - r, r, .pi / 2, .pi)
        cairo_arc(cr, rect.minX + r, rect.minY + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }
    /// Adds the ellipse that fits `rect`.
    public func addEllipse(in rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, rect.midX, rect.midY)
        cairo_scale(cr, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
        cairo_close_path(cr)
        cairo_restore(cr)
    }

    // MARK: Drawing

    /// Fills the current path with the fill paint and clears the path.
    public func fill() { fillPath(preserving: false) }
    /// Strokes the current path with the stroke paint and line style and clears the path.
    public func stroke() { apply(style.stroke); cairo_stroke(cr) }
    /// Fills, then strokes, the current path, and clears it.
    public func fillAndStroke() { fillPath(preserving: true); apply(style.stroke); cairo_stroke(cr) }
    /// Fills the current path with the fill paint. A large linear-gradient fill is rasterized into an
    /// image first (GradientFill.swift: the same pixels within a level, about 1.7× as fast on W1); the
    /// source is then set to the gradient itself, as Cairo's own fill would leave it.
    private func fillPath(preserving: Bool) {
        if case let .linearGradient(start, end, stops) = style.fill,
           setRasterizedLinearGradientSource(start: start, end: end, stops: stops, scratch: gradientScratch) {
            if preserving { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
            apply(style.fill)   // lets go of the scratch image; leaves the source as Cairo's fill would
            return
        }
        apply(style.fill)
        if preserving { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
    }
    /// Fills a rectangle with the fill paint (the current path is replaced).
    public func fillRect(_ rect: Rect) { beginPath(); addRect(rect); fill() }
    /// Strokes a rectangle's outline (the current path is replaced).
    public func strokeRect(_ rect: Rect) { beginPath(); addRect(rect); stroke() }
    /// Fills the ellipse that fits `rect` (the current path is replaced).
    public func fillEllipse(in rect: Rect) { beginPath(); addEllipse(in: rect); fill() }
    /// Strokes the ellipse that fits `rect` (the current path is replaced).
    public func strokeEllipse(in rect: Rect) { beginPath(); addEllipse(in: rect); stroke() }
    /// Fills the whole frame with `color`, replacing what was there (transparent colours make it see-through):
    /// other tools' `background(_:)`. To fade what is there towards a colour (trails), `fade(toward:amount:)`.
    public func clear(_ color: Color = .clear) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Draws `image` scaled to fill `rect` (aspect not kept), at `opacity`, with the blend mode.
    public func draw(_ image: Image, in rect: Rect, opacity: Double = 1) {
        draw(image, in: rect, fit: .stretch, opacity: opacity)
    }

    // MARK: Text

    /// The font `draw(_:at:font:)` and `measure(_:font:)` use when they are given none; nil (the
    /// default) means DejaVu Sans at 24 px. Saved and restored by `withSavedState`.
    public var font: TextFont? {
        get { style.font }
        set { style.font = newValue }
    }
    /// The style a one-line text call lays out with: `font`, else the context's font, else DejaVu Sans at 24 px.
    private func lineStyle(_ font: TextFont?) -> TextStyle {
        TextStyle(font: font ?? style.font ?? TextFont(family: "DejaVu Sans", size: 24))
    }
    /// Draws `text` with its (first) baseline starting at `point`, in the fill paint (a colour,
    /// gradient or pattern), in `font` (default: the context's `font`).
    ///
    /// The text is laid out by Pango, as `draw(_:in:style:)` lays it out: Arabic letters join and run
    /// right to left, CJK and emoji come from fallback fonts, and a newline starts a line below. Lines
    /// are not wrapped. Throws `.fontNotFound` for a family that is not installed.
    public func draw(_ text: String, at point: Point, font: TextFont? = nil) throws(MovieMakerError) {
        let layout = try TextLayout(text, style: lineStyle(font))
        apply(style.fill)
        layout.drawGlyphs(in: self, at: Point(x: point.x, y: point.y - layout.firstBaseline))
        try checkStatus()
    }
    /// The size `text` takes in `font` (default: the context's `font`): its advance width and its
    /// line height (the logical size of its Pango layout, `TextLayout.size`).
    public func measure(_ text: String, font: TextFont? = nil) throws(MovieMakerError) -> Size {
        try TextLayout(text, style: lineStyle(font)).size
    }

    // MARK: State, transforms, clipping

    /// Runs `body` and then restores paints, line style, font, transform and clip to what they were before.
    public func withSavedState<R>(_ body: () throws -> R) rethrows -> R {
        cairo_save(cr)
        savedStyles.append(style)
        defer {
            style = savedStyles.removeLast()
            cairo_restore(cr)
        }
        return try body()
    }
    /// Draws `body` into a layer and composites it at `opacity` (0…1) with the current blend mode:
    /// overlapping shapes inside do not show through each other. Inside, the blend mode starts at `.normal`.
    public func withOpacity<R>(_ opacity: Double, _ body: () throws -> R) rethrows -> R {
        try withGroup(opacity: opacity, blendMode: blendMode, body)
    }
    /// Draws `body` into a transparent layer (drawing inside starts with the blend mode `.normal`),
    /// then composites the layer onto the frame at `opacity` (0…1) with `blendMode`. State changes in
    /// `body` are undone afterwards. A non-finite opacity is reported by the frame's status check.
    public func withGroup<R>(opacity: Double = 1, blendMode: BlendMode = .normal, _ body: () throws -> R) rethrows -> R {
        var alpha = 1.0
        if opacity.isFinite { alpha = min(max(opacity, 0), 1) } else {
            recordError(.invalidSetting(.groupOpacity, value: "\(opacity)", expected: "a number from 0 (transparent) to 1 (opaque)"))
        }
        cairo_push_group(cr)                        // saves the state; the pop restores it
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        defer {
            let layer = cairo_pop_group(cr)!
            cairo_save(cr)
            cairo_set_source(cr, layer)
            cairo_set_operator(cr, blendMode.cairoOperator)
            cairo_paint_with_alpha(cr, alpha)
            cairo_restore(cr)
            cairo_pattern_destroy(layer)
        }
        return try withSavedState(body)
    }

    /// Runs `body` with drawing redirected to `surface` through a new `cairo_t` that starts with this
    /// context's transform, line style, font, source and current path (the path moves over: this
    /// context's path is cleared), the operator reset to OVER and no clip but the surface's extents.
    /// Paints and other Swift-side state changed by `body` are restored afterwards; a Cairo error on
    /// the layer is kept for `checkStatus()`.
    func drawRedirected<R>(to surface: OpaquePointer, _ body: () throws -> R) rethrows -> R {
        let inner = cairo_create(surface)!
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m); cairo_set_matrix(inner, &m)
        cairo_set_line_width(inner, cairo_get_line_width(cr))
        cairo_set_line_cap(inner, cairo_get_line_cap(cr))
        cairo_set_line_join(inner, cairo_get_line_join(cr))
        cairo_set_miter_limit(inner, cairo_get_miter_limit(cr))
        cairo_set_fill_rule(inner, cairo_get_fill_rule(cr))
        cairo_set_tolerance(inner, cairo_get_tolerance(cr))
        cairo_set_antialias(inner, cairo_get_antialias(cr))
        let dashCount = cairo_get_dash_count(cr)
        if dashCount > 0 {
            var dashes = [Double](repeating: 0, count: Int(dashCount)), phase = 0.0
            cairo_get_dash(cr, &dashes, &phase)
            cairo_set_dash(inner, dashes, dashCount, phase)
        }
        cairo_set_font_face(inner, cairo_get_font_face(cr))
        var fm = cairo_matrix_t()
        cairo_get_font_matrix(cr, &fm); cairo_set_font_matrix(inner, &fm)
        let options = cairo_font_options_create()
        cairo_get_font_options(cr, options); cairo_set_font_options(inner, options)
        cairo_font_options_destroy(options)
        cairo_set_source(inner, cairo_get_source(cr))
        if cairo_has_current_point(cr) != 0, let path = cairo_copy_path(cr) {
            cairo_append_path(inner, path)
            cairo_path_destroy(path)
            cairo_new_path(cr)
        }
        let outer = cr
        cr = inner
        defer {
            cr = outer
            let status = cairo_status(inner)
            if status != CAIRO_STATUS_SUCCESS {
                recordError(.cairo(operation: "drawing an effect layer", message: String(cString: cairo_status_to_string(status))))
            }
            cairo_destroy(inner)
        }
        return try withSavedState(body)
    }

    /// The clip's bounding box in device pixels (the frame's pixel grid, whatever the transform),
    /// rounded out to whole pixels.
    func deviceClipBox() -> PixelBox {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_restore(cr)
        return PixelBox(containing: x0, y0, x1, y1)
    }
    /// Moves the origin by (`x`, `y`).
    public func translate(x: Double, y: Double) { cairo_translate(cr, x, y) }
    /// Rotates later drawing by `radians` (clockwise on screen) around the origin.
    public func rotate(by radians: Double) { cairo_rotate(cr, radians) }
    /// Scales later drawing by `x` and `y`.
    public func scale(x: Double, y: Double) { cairo_scale(cr, x, y) }
    /// Limits later drawing to the inside of the current path, which is then cleared.
    public func clip() { cairo_clip(cr) }
    /// Limits later drawing to `rect`.
    public func clip(to rect: Rect) { cairo_new_path(cr); addRect(rect); cairo_clip(cr) }

    /// Hands `body` the raw `cairo_t` (import CCairo to use it) for drawing not wrapped yet. The
    /// pointer is borrowed: valid only inside `body`, and not to be destroyed. Cairo state changed
    /// there is restored afterwards.
    public func withCairoContext<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        return try body(cr)
    }
}

extension DrawingContext {
    /// Where pixels written straight into the target land exactly where drawing `rect` would put them:
    /// the target's memory when the context draws into an ARGB32 image surface with no transform but
    /// a whole-pixel translation, no clip smaller than `rect`, no layer or group pushed, and `rect`
    /// (whole pixels) inside the surface. Nil otherwise: then the picture must be drawn.
    ///
    /// How many device pixels one unit of the current user space spans (the square root of the
    /// transform's area scale): pictures rendered for the canvas (Lottie) are rendered that much larger.
    var deviceScale: Double {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let area = abs(m.xx * m.yy - m.xy * m.yx)
        return area > 0 && area.isFinite ? area.squareRoot() : 1
    }

    /// For pictures that cover `rect` opaquely (decoded video), writing there is the same as painting
    /// them with `draw(_:in:)`, without an intermediate picture and its copy.
    func directPixels(for rect: Rect) -> (data: UnsafeMutablePointer<UInt8>, stride: Int, surface: OpaquePointer)? {
        guard let target = cairo_get_target(cr), cairo_get_group_target(cr) == target,
              cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32,
              cairo_get_operator(cr) == CAIRO_OPERATOR_OVER else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0, m.x0 == m.x0.rounded(), m.y0 == m.y0.rounded() else { return nil }
        let x = rect.minX + m.x0, y = rect.minY + m.y0
        guard x == x.rounded(), y == y.rounded(), rect.width == rect.width.rounded(), rect.height == rect.height.rounded() else { return nil }
        let w = Int(cairo_image_surface_get_width(target)), h = Int(cairo_image_surface_get_height(target))
        let px = Int(x), py = Int(y), pw = Int(rect.width), ph = Int(rect.height)
        guard px >= 0, py >= 0, px + pw <= w, py + ph <= h else { return nil }
        // The clip must not cut into the rectangle (in device space: the transform is a translation).
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        guard cx0 + m.x0 <= x, cy0 + m.y0 <= y, cx1 + m.x0 >= x + rect.width, cy1 + m.y0 >= y + rect.height else { return nil }
        // …and is one rectangle, not a path.
        let rectangles = cairo_copy_clip_rectangle_list(cr)
        defer { cairo_rectangle_list_destroy(rectangles) }
        guard let list = rectangles?.pointee, list.status == CAIRO_STATUS_SUCCESS, list.num_rectangles == 1 else { return nil }
        let stride = Int(cairo_image_surface_get_stride(target))
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return nil }
        return (data + py * stride + px * 4, stride, target)
    }

    /// Tells Cairo that pixels of `surface` (from `directPixels`) were written.
    func markWritten(_ surface: OpaquePointer) { cairo_surface_mark_dirty(surface) }
}

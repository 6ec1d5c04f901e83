internal import CCairo
internal import CPango
import Foundation

/// Pango units per pixel (`PANGO_SCALE`, a macro Swift cannot import).
private let pangoScale = 1024.0
/// Pixels from Pango units.
private func px(_ units: Int32) -> Double { Double(units) / pangoScale }
/// Pango units from pixels, rounded.
private func units(_ pixels: Double) -> Int32 { Int32((pixels * pangoScale).rounded()) }
/// A Pango rectangle (Pango units) in pixels.
private func rect(_ r: PangoRectangle) -> Rect { Rect(x: px(r.x), y: px(r.y), width: px(r.width), height: px(r.height)) }

/// Text shaped and laid out by Pango (HarfBuzz shaping, bidirectional text, fontconfig fallback), ready to measure and draw.
///
/// Any script works: Arabic letters join, Hebrew and Arabic run right to left, CJK and colour emoji
/// come from fallback fonts. Sizes are in pixels and scale linearly (no hinting), so animated text
/// does not jitter. Coordinates are relative to the layout's top-left corner.
///
/// A layout is used by one thread at a time. Pango's fonts belong to the thread that made the layout;
/// drawing it on another thread first rebuilds it with that thread's fonts (same result, extra work).
public final class TextLayout {
    /// The text as given (markup included when `style.isMarkup`).
    public let text: String
    /// The style it was laid out with.
    public let style: TextStyle
    /// The wrap width in pixels, or nil when lines only break at newlines.
    public let width: Double?
    /// The logical extents (advance widths and line heights) relative to the layout origin; x can be
    /// above 0 when a wrap width is set and lines are centred or right-aligned.
    public let logicalBounds: Rect
    /// The logical size (what alignment and positioning use): `logicalBounds.size`.
    public var size: Size { logicalBounds.size }
    /// Where ink (the drawn glyph shapes) lies, relative to the layout origin (top-left).
    public let inkBounds: Rect
    /// Distance from the top of the layout to the first line's baseline, in pixels.
    public let firstBaseline: Double
    /// Number of laid-out lines.
    public let lineCount: Int

    private let wrap: PangoWrapMode
    private var fontMap: UnsafeMutablePointer<PangoFontMap>   // borrowed identity: `context` holds a reference
    private var context: OpaquePointer                         // owned PangoContext
    private var layout: OpaquePointer                          // owned PangoLayout

    /// Lays out `text`, wrapping lines at `width` pixels (nil: only at newlines). Lines break between
    /// words; a word longer than the width is broken between characters.
    ///
    /// Throws `.fontNotFound` for a family that is not installed, `.invalidMarkup` for bad markup and
    /// `.invalidSetting` for a non-positive size or width.
    public convenience init(_ text: String, style: TextStyle, width: Double? = nil) throws(MovieMakerError) {
        try self.init(text, style: style, width: width, wrap: PANGO_WRAP_WORD_CHAR)
    }

    init(_ text: String, style: TextStyle, width: Double?, wrap: PangoWrapMode) throws(MovieMakerError) {
        try Self.validate(text, style: style, width: width)
        self.text = text; self.style = style; self.width = width; self.wrap = wrap
        FontLibrary.fontListLock.readLock()
        defer { FontLibrary.fontListLock.unlock() }
        let map = PangoFontMaps.current()
        (context, layout) = try Self.makeLayout(text, style: style, width: width, wrap: wrap, fontMap: map)
        fontMap = map
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        inkBounds = rect(ink); logicalBounds = rect(logical)
        firstBaseline = px(pango_layout_get_baseline(layout))
        lineCount = Int(pango_layout_get_line_count(layout))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Checks sizes, markup and font families before laying out.
    private static func validate(_ text: String, style: TextStyle, width: Double?) throws(MovieMakerError) {
        let size = style.font.size
        guard size.isFinite, size > 0, size <= 10_000 else {
            throw .invalidSetting(.fontSize, value: "\(size)", expected: "a number of pixels above 0 and at most 10000")
        }
        if let width, !(width.isFinite && width > 0 && width <= 1_000_000) {
            throw .invalidSetting(.textWidth, value: "\(width)", expected: "a number of pixels above 0, or nil for no wrapping")
        }
        guard style.lineSpacing.isFinite, style.lineSpacing >= 0, style.lineSpacing <= 100 else {
            throw .invalidSetting(.lineSpacing, value: "\(style.lineSpacing)", expected: "a multiple of the normal line height from 0 to 100 (1 is normal)")
        }
        guard style.letterSpacing.isFinite, abs(style.letterSpacing) <= 10_000 else {
            throw .invalidSetting(.letterSpacing, value: "\(style.letterSpacing)", expected: "a number of pixels between -10000 and 10000")
        }
        if let outline = style.outline, !(outline.width.isFinite && outline.width >= 0) {
            throw .invalidSetting(.outlineWidth, value: "\(outline.width)", expected: "a number of pixels, 0 or more")
        }
        guard !style.font.familyNames.isEmpty else {
            throw .fontNotFound(family: style.font.family, closest: [])
        }
        var names = style.font.familyNames
        if style.isMarkup {
            let (attributes, _) = try parseMarkup(text)
            names += markupFamilies(attributes)
            pango_attr_list_unref(attributes)
        }
        for name in names where !FontLibrary.hasFamily(name) {
            throw .fontNotFound(family: name, closest: FontLibrary.closestFamilies(to: name))
        }
    }

    /// Pango markup split into its attribute list (owned by the caller) and plain text.
    private static func parseMarkup(_ markup: String) throws(MovieMakerError) -> (OpaquePointer, String) {
        var attributes: OpaquePointer? = nil
        var plain: UnsafeMutablePointer<CChar>? = nil
        var error: UnsafeMutablePointer<GError>? = nil
        guard pango_parse_markup(markup, -1, 0, &attributes, &plain, nil, &error) != 0, let attributes, let plain else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "Pango could not parse it"
            if let error { g_error_free(error) }
            throw .invalidMarkup(markup: markup, reason: reason)
        }
        defer { g_free(plain) }
        return (attributes, String(cString: plain))
    }

    /// The family names markup spans ask for (`<span font_family=…>`, `<span font=…>`, `<tt>` …).
    private static func markupFamilies(_ list: OpaquePointer) -> [String] {
        var names: [String] = []
        var node = pango_attr_list_get_attributes(list)   // a list of copies, freed below
        let head = node
        while let n = node {
            if let attribute = n.pointee.data?.assumingMemoryBound(to: PangoAttribute.self) {
                var family: String? = nil
                switch attribute.pointee.klass.pointee.type {
                case PANGO_ATTR_FAMILY:
                    let value = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrString.self).pointee.value
                    family = value.map { String(cString: $0) }
                case PANGO_ATTR_FONT_DESC:
                    let description = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrFontDesc.self).pointee.desc
                    family = description.flatMap { pango_font_description_get_family($0) }.map { String(cString: $0) }
                default: break
                }
                if let family {
                    names += family.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                }
                pango_attribute_destroy(attribute)
            }
            node = n.pointee.next
        }
        g_slist_free(head)
        return names
    }

    /// A new PangoContext (unhinted, subpixel-positioned, grey antialiasing) and a layout of `text` in it,
    /// already laid out. Call with `FontLibrary.fontListLock` held for reading.
    private static func makeLayout(_ text: String, style: TextStyle, width: Double?, wrap: PangoWrapMode,
                                   fontMap: UnsafeMutablePointer<PangoFontMap>) throws(MovieMakerError) -> (OpaquePointer, OpaquePointer) {
        let context = pango_font_map_create_context(fontMap)!
        // Unhinted metrics and outlines with fractional glyph positions: measurements scale linearly
        // with the font size and glyphs do not snap to pixels while text moves or grows.
        let options = cairo_font_options_create()!
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)   // copies
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        if let language = style.language { pango_context_set_language(context, pango_language_from_string(language)) }

        let layout = pango_layout_new(context)!
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, style.font.family)
        pango_font_description_set_weight(description, style.font.weight.pango)
        pango_font_description_set_style(description, style.font.slant.pango)
        pango_font_description_set_absolute_size(description, style.font.size * pangoScale)
        pango_layout_set_font_description(layout, description)   // copies
        pango_font_description_free(description)

        var attributes: OpaquePointer? = nil
        if style.isMarkup {
            do {
                let (parsed, plain) = try parseMarkup(text)
                attributes = parsed
                pango_layout_set_text(layout, plain, -1)
            } catch {
                g_object_unref(UnsafeMutableRawPointer(layout)); g_object_unref(UnsafeMutableRawPointer(context))
                throw error
            }
        } else {
            pango_layout_set_text(layout, text, -1)
        }
        let list = attributes ?? pango_attr_list_new()!
        if style.letterSpacing != 0 {
            let spacing = pango_attr_letter_spacing_new(units(style.letterSpacing))!
            spacing.pointee.start_index = 0
            spacing.pointee.end_index = UInt32.max   // PANGO_ATTR_INDEX_TO_TEXT_END
            pango_attr_list_insert_before(list, spacing)   // markup spans can still override it
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)

        if let width {
            pango_layout_set_width(layout, units(width))
            pango_layout_set_wrap(layout, wrap)
        }
        if style.lineSpacing != 1 { pango_layout_set_line_spacing(layout, Float(style.lineSpacing)) }
        switch style.alignment {
        case .justify:
            pango_layout_set_justify(layout, 1)
            pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)   // Pango reads this as "reading start" for RTL
        case .center:
            pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .left, .right:
            // Pango swaps left and right for right-to-left paragraphs; swap back so they stay physical.
            let rtl = pango_layout_get_line_readonly(layout, 0).map { $0.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue } ?? false
            let physicalLeft = (style.alignment == .left) != rtl
            pango_layout_set_alignment(layout, physicalLeft ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT)
        }
        _ = pango_layout_get_line_count(layout)   // lay out now, while fontconfig's lists are guarded
        return (context, layout)
    }

    /// Runs `body` with the font lists guarded and the Pango objects belonging to the calling thread.
    private func withPango<R>(_ body: () -> R) -> R {
        FontLibrary.fontListLock.readLock()
        defer { FontLibrary.fontListLock.unlock() }
        adoptCurrentThread()
        return body()
    }

    /// Rebuilds the Pango objects with the calling thread's font map when they were made on another thread.
    private func adoptCurrentThread() {
        let map = PangoFontMaps.current()
        guard map != fontMap else { return }
        // The text and style were accepted once already; with the same fonts installed this cannot fail.
        guard let (newContext, newLayout) = try? Self.makeLayout(text, style: style, width: width, wrap: wrap, fontMap: map) else { return }
        g_object_unref(UnsafeMutableRawPointer(layout)); g_object_unref(UnsafeMutableRawPointer(context))
        context = newContext; layout = newLayout; fontMap = map
    }

    // MARK: Drawing

    /// Draws the text with its top-left corner at `origin`, in `context`'s current transform, clip and opacity group:
    /// the outline, if any, first, then the fill in `style.color` (unless clear) over it, so the fill keeps
    /// its colour and shape and the outer half of the stroke shows around each glyph.
    public func draw(in context: DrawingContext, at origin: Point) {
        withPango { render(on: context.cr, at: origin) }
    }
    private func render(on cr: OpaquePointer, at origin: Point) {
        cairo_save(cr)
        cairo_new_path(cr)
        if let outline = style.outline, outline.width > 0, outline.color.alpha > 0 {
            cairo_move_to(cr, origin.x, origin.y)
            pango_cairo_layout_path(cr, layout)
            cairo_set_line_width(cr, outline.width)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_source_rgba(cr, outline.color.red, outline.color.green, outline.color.blue, outline.color.alpha)
            cairo_stroke(cr)
            cairo_new_path(cr)
        }
        let fill = style.color
        if fill.alpha > 0 {
            cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha)
            cairo_move_to(cr, origin.x, origin.y)
            pango_cairo_show_layout(cr, layout)
        }
        cairo_new_path(cr)
        cairo_restore(cr)
    }

    /// Draws the glyphs with their top-left corner at `origin` in the source `context` already has
    /// (its fill paint), instead of `style.color`, and without the outline.
    func drawGlyphs(in context: DrawingContext, at origin: Point) {
        withPango {
            let cr = context.cr
            cairo_save(cr)
            cairo_new_path(cr)
            cairo_move_to(cr, origin.x, origin.y)
            pango_cairo_show_layout(cr, layout)
            cairo_new_path(cr)
            cairo_restore(cr)
        }
    }

    /// The glyph outlines with the layout's top-left corner at `origin`, as a `Path` (fill it, stroke it, or clip to it).
    /// Colour emoji come out as the outline of their pixels.
    public func path(at origin: Point) -> Path { withPango { glyphPath(at: origin) } }
    private func glyphPath(at origin: Point) -> Path {
        // An unbounded recording surface: on a bounded one Cairo leaves out the glyphs that fall outside
        // its extents (a 1×1 image kept only the first ~875 px of a line).
        let surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)!
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        cairo_move_to(cr, origin.x, origin.y)
        pango_cairo_layout_path(cr, layout)
        guard let copied = cairo_copy_path(cr) else { return Path() }
        defer { cairo_path_destroy(copied) }
        var result = Path()
        guard copied.pointee.status == CAIRO_STATUS_SUCCESS, let data = copied.pointee.data else { return result }
        var i = 0
        let count = Int(copied.pointee.num_data)
        // Moves are kept only when something is drawn from them: the starting point and the pen
        // moves Cairo adds after each closed glyph contour are dropped.
        var pendingMove: Point? = nil
        func flushMove() { if let p = pendingMove { result.move(to: p); pendingMove = nil } }
        while i < count {
            let header = data[i].header
            func point(_ k: Int) -> Point { Point(x: data[i + k].point.x, y: data[i + k].point.y) }
            switch header.type {
            case CAIRO_PATH_MOVE_TO: pendingMove = point(1)
            case CAIRO_PATH_LINE_TO: flushMove(); result.line(to: point(1))
            case CAIRO_PATH_CURVE_TO: flushMove(); result.curve(to: point(3), control1: point(1), control2: point(2))
            case CAIRO_PATH_CLOSE_PATH: flushMove(); result.closeSubpath()
            default: break
            }
            i += max(Int(header.length), 1)
        }
        return result
    }

    // MARK: Units

    /// The logical rectangle of each character, word or line (see `TextGranularity`) in layout
    /// coordinates, in reading (logical) order. A unit broken across lines gives one rectangle per line.
    /// For right-to-left text the first rectangle is the rightmost.
    public func unitRects(_ granularity: TextGranularity) -> [Rect] { withPango { rects(granularity) } }
    private func rects(_ granularity: TextGranularity) -> [Rect] {
        let lines = layoutLines()
        if granularity == .line { return lines.map(\.logical) }
        var rects: [Rect] = []
        for range in unitByteRanges(granularity) {
            for line in lines { if let r = Self.logicalRect(of: range, on: line) { rects.append(r) } }
        }
        return rects
    }

    /// The logical rectangle of the part of `range` (bytes of the text) on `line`, or nil when none is.
    private static func logicalRect(of range: Range<Int>, on line: LineInfo) -> Rect? {
        guard range.lowerBound < line.end && range.upperBound > line.start else { return nil }
        let a = max(range.lowerBound, line.start), b = min(range.upperBound, line.end)
        var xs: UnsafeMutablePointer<Int32>? = nil
        var n: Int32 = 0
        pango_layout_line_get_x_ranges(line.pointer, Int32(a), Int32(b), &xs, &n)
        guard let xs, n > 0 else { g_free(xs); return nil }
        var minX = Int32.max, maxX = Int32.min
        for k in 0..<Int(n) { minX = min(minX, xs[2 * k]); maxX = max(maxX, xs[2 * k + 1]) }
        g_free(xs)
        return Rect(x: px(minX), y: line.logical.minY, width: px(maxX - minX), height: line.logical.height)
    }

    /// The logical rectangle of each byte range of the laid-out text (UTF-8 offsets into `text`; plain
    /// text, not markup), in layout coordinates: the union over the lines the range spans. Word-by-word
    /// captions use it to find each word's place, whatever the script's direction.
    package func rects(ofByteRanges ranges: [Range<Int>]) -> [Rect] {
        withPango {
            let lines = layoutLines()
            return ranges.map { range in
                var union: Rect? = nil
                for line in lines {
                    guard let r = Self.logicalRect(of: range, on: line) else { continue }
                    union = union.map { u in
                        let x0 = min(u.minX, r.minX), y0 = min(u.minY, r.minY)
                        return Rect(x: x0, y: y0, width: max(u.maxX, r.maxX) - x0, height: max(u.maxY, r.maxY) - y0)
                    } ?? r
                }
                return union ?? Rect(x: 0, y: 0, width: 0, height: 0)
            }
        }
    }

    private struct LineInfo {
        let pointer: UnsafeMutablePointer<PangoLayoutLine>
        let start: Int, end: Int   // byte range in the layout's text
        let logical: Rect
    }
    /// Every line with its byte range and logical rectangle (valid while the layout is unchanged).
    private func layoutLines() -> [LineInfo] {
        var lines: [LineInfo] = []
        let iter = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let start = Int(line.pointee.start_index)
            lines.append(LineInfo(pointer: line, start: start, end: start + Int(line.pointee.length), logical: rect(logical)))
        } while pango_layout_iter_next_line(iter) != 0
        return lines
    }

    /// Byte ranges of the characters or words of the laid-out text, in logical order.
    private func unitByteRanges(_ granularity: TextGranularity) -> [Range<Int>] {
        let bytes = UnsafeRawPointer(pango_layout_get_text(layout)!).assumingMemoryBound(to: UInt8.self)
        var byteCount = 0
        while bytes[byteCount] != 0 { byteCount += 1 }
        // Byte offset of each character (plus the end), as Pango's attributes count characters.
        var offsets: [Int] = []
        offsets.reserveCapacity(byteCount + 1)
        for b in 0..<byteCount where bytes[b] & 0xC0 != 0x80 { offsets.append(b) }
        offsets.append(byteCount)
        var n: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &n) else { return [] }
        let charCount = min(Int(n) - 1, offsets.count - 1)
        guard charCount > 0 else { return [] }
        // Boundaries: grapheme clusters for characters, line-break opportunities for words.
        var boundaries: [Int] = [0]
        for c in 1..<charCount {
            let a = attrs[c]
            if granularity == .character ? a.is_cursor_position != 0 : a.is_line_break != 0 { boundaries.append(c) }
        }
        boundaries.append(charCount)
        var result: [Range<Int>] = []
        for k in 0..<(boundaries.count - 1) {
            var start = boundaries[k], end = boundaries[k + 1]
            // Drop white space (spaces, newlines) at either end; skip units that are only white space.
            while end > start && attrs[end - 1].is_white != 0 { end -= 1 }
            while start < end && attrs[start].is_white != 0 { start += 1 }
            if start < end { result.append(offsets[start]..<offsets[end]) }
        }
        return result
    }

    // MARK: Inspection

    /// The number of characters drawn as "unknown glyph" boxes because no installed font has them (0 is good).
    package var unknownGlyphCount: Int { withPango { Int(pango_layout_get_unknown_glyphs_count(layout)) } }

    /// The families of the fonts Pango chose for the text's runs (fallback fonts included), unique, in visual order.
    package var resolvedFamilies: [String] { withPango { runFamilies() } }
    private func runFamilies() -> [String] {
        var names: [String] = []
        let iter = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let font = run.pointee.item.pointee.analysis.font,
                  let description = pango_font_describe(font) else { continue }
            if let family = pango_font_description_get_family(description) {
                let name = String(cString: family)
                if !names.contains(name) { names.append(name) }
            }
            pango_font_description_free(description)
        } while pango_layout_iter_next_run(iter) != 0
        return names
    }

    // MARK: Fitting

    /// The layout of `text` at the largest font size (in 0.5 px steps between `minimumSize` and
    /// `maximumSize`, default the box height) whose lines, wrapped at `box.width` without breaking
    /// words, fit inside `box`; when no size fits so (a word wider than the box: a URL, a hash), breaking
    /// inside words as drawing does. When even `minimumSize` does not fit, returns that size's layout
    /// (check its `size`).
    public static func fitting(_ text: String, style: TextStyle, in box: Size, minimumSize: Double = 6,
                               maximumSize: Double? = nil) throws(MovieMakerError) -> TextLayout {
        let maxSize = maximumSize ?? box.height
        guard box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0 else {
            throw .invalidSetting(.fittingBox, value: "\(box)", expected: "a width and height above 0")
        }
        guard minimumSize.isFinite, minimumSize > 0, maxSize.isFinite, maxSize >= minimumSize else {
            throw .invalidSetting(.fittingFontSizes, value: "\(minimumSize)…\(maxSize)", expected: "0 < minimumSize ≤ maximumSize")
        }
        func fits(_ l: TextLayout) -> Bool {
            l.logicalBounds.maxX <= box.width + 0.01 && l.logicalBounds.minX >= -0.01 && l.size.height <= box.height + 0.01
        }
        func search(_ wrap: PangoWrapMode) throws(MovieMakerError) -> (layout: TextLayout, fits: Bool) {
            func layout(_ halfPixels: Int) throws(MovieMakerError) -> TextLayout {
                try TextLayout(text, style: style.withFontSize(Double(halfPixels) / 2), width: box.width, wrap: wrap)
            }
            var lo = Int((minimumSize * 2).rounded(.up)), hi = max(lo, Int((maxSize * 2).rounded(.down)))
            let top = try layout(hi)
            if fits(top) { return (top, true) }
            var best = try layout(lo)
            if !fits(best) { return (best, false) }
            // Invariant: size lo fits, size hi does not.
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                let candidate = try layout(mid)
                if fits(candidate) { lo = mid; best = candidate } else { hi = mid }
            }
            return (best, true)
        }
        let whole = try search(PANGO_WRAP_WORD)
        if whole.fits { return whole.layout }
        // Unbroken, a long word ran past the box's side at the smallest size, where the fit looked only
        // at the height: drawn (which breaks inside words) it then ran off the frame, unwarned.
        return try search(PANGO_WRAP_WORD_CHAR).layout
    }
}

extension DrawingContext {
    /// Draws `text` in `style`, wrapped at `rect.width`, at the top (or vertically centred or at the
    /// bottom) of `rect`. Text longer than the rectangle is not clipped. The text takes `style.color`
    /// (black unless given), not the context's `setFill` colour.
    public func draw(_ text: String, in rect: Rect, style: TextStyle,
                     verticalAlignment: TextVerticalAlignment = .top) throws(MovieMakerError) {
        let layout = try TextLayout(text, style: style, width: rect.width)
        let y: Double
        switch verticalAlignment {
        case .top: y = rect.minY
        case .center: y = rect.midY - layout.logicalBounds.midY
        case .bottom: y = rect.maxY - layout.logicalBounds.maxY
        }
        layout.draw(in: self, at: Point(x: rect.minX, y: y))
        try checkStatus()
    }

    /// Draws a laid-out text with its top-left corner at `origin` (`draw(_:at:font:)` for a string puts
    /// its baseline there instead), in the colours of the layout's style.
    public func draw(_ layout: TextLayout, at origin: Point) { layout.draw(in: self, at: origin) }

    /// The logical size `text` takes in `style`, wrapped at `width` pixels (nil: only at newlines).
    public func measure(_ text: String, style: TextStyle, width: Double? = nil) throws(MovieMakerError) -> Size {
        try TextLayout(text, style: style, width: width).size
    }
}

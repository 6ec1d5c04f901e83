import Foundation

// The `split` item: several pictures at once, side by side, stacked, in a grid or one over another.

// MARK: Model

extension Timeline {
    /// Several pictures at once (`"type": "split"`): cells side by side, stacked, in a grid, or one small
    /// over another.
    public struct Split: Sendable, Hashable {
        /// `"2x1"`, `"1x2"`, `"3x1"`, `"2x2"`, `"3x3"` or `"pip"`.
        public var layout: Clip.SplitScreen.Layout
        /// The cells: picture items, in reading order (picture-in-picture: the main picture, then the
        /// inset). A cell item may have `at` (it starts later within the split).
        public var cells: [Item]
        /// How every cell's picture fits its cell (default: a video's, photo's, slideshow's or Lottie
        /// animation's own fit; stretch and center place the frame-sized picture in the cell).
        public var fit: ImageFit?
        /// How each cell's picture fits, by cell (overrides `fit`).
        public var fits: [ImageFit]?
        /// The space between and around cells, in output pixels (default 0).
        public var gutter: Double?
        /// The colour of the gutters and empty cells (default black; picture-in-picture: transparent).
        public var background: ColorText?
        /// The cells' border width in output pixels (default 0; picture-in-picture 2).
        public var borderWidth: Double?
        /// The border colour (default white).
        public var borderColor: ColorText?
        /// The cells' corner radius in output pixels (default 0; picture-in-picture 12).
        public var cornerRadius: Double?
        /// Picture-in-picture: the corner (default bottomRight).
        public var corner: Clip.SplitScreen.Corner?
        /// Picture-in-picture: the inset's width as a fraction of the frame's (default 0.3).
        public var size: Double?
        /// Picture-in-picture: the distance to the frame's edges in output pixels (default 24).
        public var margin: Double?
        /// How long the split lasts (default: its longest cell).
        public var duration: TimeValue?

        /// A split of `cells` in `layout`.
        public init(_ layout: Clip.SplitScreen.Layout, cells: [Item], fit: ImageFit? = nil, fits: [ImageFit]? = nil, gutter: Double? = nil,
                    background: ColorText? = nil, borderWidth: Double? = nil, borderColor: ColorText? = nil, cornerRadius: Double? = nil,
                    corner: Clip.SplitScreen.Corner? = nil, size: Double? = nil, margin: Double? = nil, duration: TimeValue? = nil) {
            self.layout = layout; self.cells = cells; self.fit = fit; self.fits = fits; self.gutter = gutter
            self.background = background; self.borderWidth = borderWidth; self.borderColor = borderColor
            self.cornerRadius = cornerRadius; self.corner = corner; self.size = size; self.margin = margin; self.duration = duration
        }
    }
}

// MARK: Description file

extension Timeline.Split: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("split", doc: "Several pictures at once: side by side, stacked, a grid, or picture-in-picture.", fields: [
            SpecField("layout", Schema.enumeration(Clip.SplitScreen.Layout.allCases.map(\.rawValue)), required: true, "2x1 (side by side), 1x2 (stacked), 3x1, 2x2, 3x3 or pip (picture-in-picture)."),
            SpecField("cells", Schema.array(Schema.oneOf(Timeline.Split.cellTypes.map { Schema.ref("\($0)Cell") })),
                      required: true, "The cells' items, in reading order (pip: the main picture, then the inset); a cell's at starts it later."),
            SpecField("fit", Schema.enumeration(ImageFit.allCases.map(\.rawValue)), "How each cell's video, photo, slideshow or Lottie fits its cell, drawn at the cell's size (default: the item's own fit); stretch and center place the frame-sized picture."),
            SpecField("fits", Schema.array(Schema.enumeration(ImageFit.allCases.map(\.rawValue))), "The fit of each cell, in order (overrides fit)."),
            SpecField("gutter", Schema.number(minimum: 0, maximum: 2000), "Space between and around cells, in output pixels (default 0)."),
            SpecField("background", Schema.ref("color"), "The gutters' colour (default black; pip: transparent)."),
            SpecField("borderWidth", Schema.number(minimum: 0, maximum: 500), "Cell border width in output pixels (default 0; pip 2)."),
            SpecField("borderColor", Schema.ref("color"), "Cell border colour (default white)."),
            SpecField("cornerRadius", Schema.number(minimum: 0, maximum: 5000), "Cell corner radius in output pixels (default 0; pip 12)."),
            SpecField("corner", Schema.enumeration(Clip.SplitScreen.Corner.allCases.map(\.rawValue)), "pip: the inset's corner (default bottomRight)."),
            SpecField("size", Schema.number(minimum: 0.05, maximum: 1), "pip: the inset's width as a fraction of the frame's (default 0.3)."),
            SpecField("margin", Schema.number(minimum: 0, maximum: 5000), "pip: the inset's distance from the edges, output pixels (default 24)."),
            SpecField("duration", Schema.ref("duration"), "How long it lasts (default: its longest cell)."),
        ]),
    ]

    /// The item types a split's cell (and a mask) may be: no nested splits, stickers or subtitles.
    /// (Split's own types are left out before they are asked for: its cells' schema is made from this list.)
    static let cellTypes = Timeline.Content.kinds.filter { ObjectIdentifier($0) != ObjectIdentifier(Timeline.Split.self) }
        .flatMap { $0.itemTypes }.filter(\.splitCell).map(\.name)

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        var cellContext = context
        cellContext.trackKind = .overlay
        cellContext.splitCell = true
        let cells = try i.array("cells", required: true).mapTyped { (v, p) throws(MovieMakerError) -> Timeline.Item in
            if case let .object(o) = v, case let .string(t)? = o["type"], !cellTypes.contains(t) {
                throw .invalidDescription(p.appending("type"), "a split's cell cannot be \(SpecObject.article(t)) item: cells are \(SpecObject.list(cellTypes))")
            }
            return try Timeline.Item(reading: v, at: p, cellContext)
        }
        let layout = try i.choice("layout", Clip.SplitScreen.Layout.self, what: "split layout")!
        guard !cells.isEmpty, cells.count <= layout.cellCount else {
            throw i.fail("cells", "a \(layout.rawValue) split holds 1 to \(layout.cellCount) cells, got \(cells.count)")
        }
        let fits = try i.array("fits").mapTyped { (v, p) throws(MovieMakerError) -> ImageFit in
            guard case let .string(text) = v, let fit = ImageFit(rawValue: text) else {
                throw .invalidDescription(p, "must be a fit: \(SpecObject.list(ImageFit.allCases.map(\.rawValue))), got \(v.shortDescription)")
            }
            return fit
        }
        if !fits.isEmpty, fits.count != cells.count {
            throw i.fail("fits", "must give one fit per cell: \(cells.count), got \(fits.count)")
        }
        // The inset's keys place a picture-in-picture: on another layout they would do nothing.
        if layout != .pictureInPicture, let key = ["corner", "size", "margin"].first(where: { i.value($0) != nil }) {
            throw i.fail(key, "places a picture-in-picture's inset, and this split's layout is \"\(layout.rawValue)\": remove \"\(key)\", or use \"layout\": \"pip\"")
        }
        return Timeline.Split(layout, cells: cells, fit: try i.choice("fit", ImageFit.self, what: "fit"), fits: fits.isEmpty ? nil : fits,
                              gutter: try i.double("gutter", in: 0...2000), background: try i.color("background", context),
                              borderWidth: try i.double("borderWidth", in: 0...500), borderColor: try i.color("borderColor", context),
                              cornerRadius: try i.double("cornerRadius", in: 0...5000),
                              corner: try i.choice("corner", Clip.SplitScreen.Corner.self, what: "corner"),
                              size: try i.double("size", in: 0.05...1), margin: try i.double("margin", in: 0...5000),
                              duration: try i.time("duration", positive: true))
    }

    var content: Timeline.Content { .split(self) }

    func write(to w: inout SpecWriter) throws(MovieMakerError) {
        w.set("layout", layout)
        w.set("cells", .array(try cells.mapTyped { c throws(MovieMakerError) in try c.json(in: .overlay) }))
        w.set("fit", fit)
        if let fits { w.set("fits", .array(fits.map { .string($0.rawValue) })) }
        w.set("gutter", gutter)
        w.set("background", background)
        w.set("borderWidth", borderWidth)
        w.set("borderColor", borderColor)
        w.set("cornerRadius", cornerRadius)
        w.set("corner", corner)
        w.set("size", size)
        w.set("margin", margin)
        w.set("duration", duration)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.split(self, at: path)
    }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var s = self
        s.cells = cells.map(items)
        return s
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var s = self; s.duration = length; return s }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A split item's clip. Cells without a duration of their own last as long as the split: its
    /// `duration`, or else the longest of the other cells (each with its `at`). Photos and titles
    /// without one take their own default length only where neither gives a length (a photo's 3 s
    /// in a 6 s split left its cell black for the rest).
    mutating func split(_ x: Timeline.Split, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        var compiled: [Clip?] = Array(repeating: nil, count: x.cells.count)
        let pip = x.layout == .pictureInPicture
        try checkRoom(for: x, at: path)
        let geometry = Clip.SplitScreen(x.layout, cells: [], gutter: (x.gutter ?? 0) * pixelScale, corner: x.corner ?? .bottomRight,
                                        insetSize: x.size ?? 0.3, margin: (x.margin ?? 24) * pixelScale)
        let cellRects = geometry.pixelRects(in: Size(width: Double(width), height: Double(height)))
        // A cell filled or fitted is compiled and drawn at its own size, so a video or photo is fitted
        // once, into the cell (a portrait clip fitted to a landscape frame first, then cropped to a
        // half-width cell, showed a zoomed quarter of itself) and a title wraps to the cell. Stretch
        // and center place the frame-sized picture; so does a cell with a `transform`, whose positions
        // were written for the frame-sized picture.
        func cellFit(_ k: Int) -> ImageFit { x.fits?[k] ?? x.fit ?? .fill }
        func drawnAtCellSize(_ k: Int) -> Bool {
            [.fill, .fit].contains(cellFit(k)) && x.cells[k].transform == nil && k < cellRects.count && cellRects[k].width >= 1 && cellRects[k].height >= 1
        }
        func cell(_ k: Int, _ compiler: inout TimelineCompiler) throws(MovieMakerError) -> Clip {
            var item = x.cells[k]
            let p = path.appending("cells").appending(k)
            let frame = (compiler.width, compiler.height, compiler.cell)
            defer { (compiler.width, compiler.height, compiler.cell) = frame }
            if drawnAtCellSize(k) {
                // The split's fit, written, goes to the cell's item; otherwise the item's own default.
                if let fit = x.fits?[k] ?? x.fit { item.content = item.content.kind.fitting(fit).content }
                (compiler.width, compiler.height, compiler.cell) = (Int(cellRects[k].width), Int(cellRects[k].height), cellRects[k])
            }
            var clip = try compiler.picture(item, at: p, onOverlay: true).clip
            if item.enabled == false { clip = Clip.empty(duration: clip.duration) }
            if let at = item.at?.time(at: compiler.rate), at > .zero { clip = clip.delayed(by: at) }
            return clip
        }
        var open = x.cells.indices.filter { x.cells[$0].content.kind.lastsAsLongAsItsSplit }
        for k in x.cells.indices where !open.contains(k) { compiled[k] = try cell(k, &self) }
        if x.duration == nil, compiled.allSatisfy({ $0 == nil }) {
            // No length given anywhere: photos and titles take their own, and the others last as long.
            // (Not an outer split's length: this split's cells take theirs from this split.)
            let defaulted = open.filter { x.cells[$0].content.kind.hasDefaultLength }
            let outer = cellDuration
            cellDuration = nil
            defer { cellDuration = outer }
            for k in defaulted { compiled[k] = try cell(k, &self) }
            open.removeAll { defaulted.contains($0) }
        }
        if !open.isEmpty {
            let longest = compiled.compactMap { $0?.duration }.max()
            guard let length = x.duration?.time(at: rate) ?? longest else {
                throw .invalidDescription(path.appending("cells").appending(open[0]).appending("duration"),
                                          "needs a duration: neither the split nor another cell has one (give the split a \"duration\", as in \"duration\": \"5s\")")
            }
            let outer = cellDuration
            defer { cellDuration = outer }
            for k in open {
                // A cell starting later (its `at`) still ends with the split.
                let start = x.cells[k].at?.time(at: rate) ?? .zero
                guard length > start else {
                    throw .invalidDescription(path.appending("cells").appending(k).appending("at"),
                                              "starts at or after the split's end (\(length.seconds) s), so it would never show: give it a duration or an earlier at")
                }
                cellDuration = length - start
                compiled[k] = try cell(k, &self)
            }
        }
        let cells = x.cells.indices.map { Clip.SplitScreen.Cell(compiled[$0]!, fit: cellFit($0), pictureSize: drawnAtCellSize($0) ? .cell : .frame) }
        var screen = Clip.SplitScreen(x.layout, cells: cells, gutter: (x.gutter ?? 0) * pixelScale,
                                      background: try color(x.background, at: path.appending("background")) ?? (pip ? .clear : .black),
                                      borderWidth: (x.borderWidth ?? (pip ? 2 : 0)) * pixelScale,
                                      borderColor: try color(x.borderColor, at: path.appending("borderColor")) ?? .white,
                                      cornerRadius: (x.cornerRadius ?? (pip ? 12 : 0)) * pixelScale,
                                      corner: x.corner ?? .bottomRight, insetSize: x.size ?? 0.3, margin: (x.margin ?? 24) * pixelScale)
        var clip: Clip
        do { clip = try Clip.split(screen) } catch { throw .invalidDescription(path, error.message) }
        if let d = x.duration?.time(at: rate) {
            // Cells shorter than the split end early; the split lasts exactly `duration`.
            screen.cells = screen.cells.map { var c = $0; if c.clip.duration > d { c.clip = c.clip.trimmed(to: d) }; return c }
            clip = Clip.overlay(Clip.empty(duration: d), try Clip.split(screen))
        }
        return CompiledItem(clip: clip, what: "\(x.layout.rawValue) split of \(x.cells.count)", detail: "")
    }

    /// Refuses a gutter that leaves the cells no room, or a margin that puts a picture-in-picture's
    /// inset outside the frame: either would render the split as its background alone.
    func checkRoom(for x: Timeline.Split, at path: JSONPath) throws(MovieMakerError) {
        let size = timeline.output.resolvedSize
        let frame = Size(width: Double(size.width), height: Double(size.height))
        if x.layout == .pictureInPicture {
            // Only a margin written in the file: the default suits any frame a pip is watched in.
            guard let margin = x.margin else { return }
            let inset = x.size ?? 0.3
            let room = min(frame.width * (1 - inset), frame.height * (1 - inset))
            guard margin <= room else {
                throw .invalidDescription(path.appending("margin"), "\(SpecObject.show(margin)) px puts the inset past the edge of the \(size.width)x\(size.height) frame: "
                                          + "give at most \(SpecObject.show(room.rounded(.down))) (what the inset, \(SpecObject.show(inset)) of the frame, leaves of its shorter side)")
            }
            return
        }
        let (columns, rows) = x.layout.grid
        let gutter = x.gutter ?? 0
        // A cell at least a pixel wide and high (the gutters go between and around the cells).
        let widest = ((frame.width - Double(columns)) / Double(columns + 1)).rounded(.down)
        let tallest = ((frame.height - Double(rows)) / Double(rows + 1)).rounded(.down)
        guard gutter <= min(widest, tallest) else {
            throw .invalidDescription(path.appending("gutter"), "\(SpecObject.show(gutter)) px leaves the cells of a \(x.layout.rawValue) split no room in the "
                                      + "\(size.width)x\(size.height) frame: give at most \(SpecObject.show(max(0, min(widest, tallest)))) (the gutters go between and around the cells)")
        }
    }
}

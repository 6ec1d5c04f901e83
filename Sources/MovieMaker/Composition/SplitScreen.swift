internal import CCairo
import Foundation

extension Clip {
    /// Several clips on screen at once: side by side, stacked, in a grid, or one small over another
    /// (picture-in-picture). Each cell shows its clip (drawn as a frame-sized picture) fitted into the
    /// cell's rectangle by its own fit; cells are separated by `gutter`, framed by `border`, and their
    /// corners rounded by `cornerRadius`. A cell is drawn while its clip lasts; the split lasts as long
    /// as its longest cell, and every cell's sound plays.
    public struct SplitScreen: Sendable, Hashable {
        /// How the frame is divided.
        public enum Layout: String, Sendable, Hashable, CaseIterable, Codable {
            /// Two cells side by side.
            case sideBySide = "2x1"
            /// Two cells, one above the other.
            case stacked = "1x2"
            /// Three cells in a row.
            case threeInRow = "3x1"
            /// Four cells, two by two.
            case grid2x2 = "2x2"
            /// Nine cells, three by three.
            case grid3x3 = "3x3"
            /// The first cell fills the frame; the second is small, in a corner (`pip`).
            case pictureInPicture = "pip"

            /// Columns and rows (picture-in-picture: one cell of the frame).
            public var grid: (columns: Int, rows: Int) {
                switch self {
                case .sideBySide: return (2, 1)
                case .stacked: return (1, 2)
                case .threeInRow: return (3, 1)
                case .grid2x2: return (2, 2)
                case .grid3x3: return (3, 3)
                case .pictureInPicture: return (1, 1)
                }
            }
            /// How many cells the layout has.
            public var cellCount: Int { self == .pictureInPicture ? 2 : grid.columns * grid.rows }
        }

        /// A corner of the frame, for picture-in-picture.
        public enum Corner: String, Sendable, Hashable, CaseIterable, Codable {
            /// Top left.
            case topLeft
            /// Top right.
            case topRight
            /// Bottom left.
            case bottomLeft
            /// Bottom right.
            case bottomRight
        }

        /// The size a cell's clip draws its picture at.
        public enum PictureSize: String, Sendable, Hashable, CaseIterable, Codable {
            /// The frame's: the clip draws as if it had the whole frame, and the cell's `fit` fits that
            /// picture into the cell. For clips made for the frame, shown smaller.
            case frame
            /// The cell's, in whole pixels: the clip draws into the cell itself (its `DrawingContext`'s
            /// `bounds` are the cell's), so a video or photo is fitted once, into the cell, by its own
            /// fit, and a title is laid out for the cell. The cell's `fit` is not used. For a portrait
            /// phone clip in a side-by-side cell, this shows the whole width of the clip where `frame`
            /// shows a zoomed middle.
            case cell
        }

        /// One cell: a clip and how it fits the cell.
        public struct Cell: Sendable, Hashable {
            /// What the cell shows.
            public var clip: Clip
            /// How the clip's frame-sized picture fits the cell (`fill` crops, `fit` letterboxes).
            public var fit: ImageFit
            /// The size the clip draws at: the frame's (fitted into the cell by `fit`) or the cell's.
            public var pictureSize: PictureSize
            /// A cell showing `clip`: drawn at the frame's size and fitted into the cell by `fit`, or
            /// drawn at the cell's size.
            public init(_ clip: Clip, fit: ImageFit = .fill, pictureSize: PictureSize = .frame) {
                self.clip = clip; self.fit = fit; self.pictureSize = pictureSize
            }
        }

        /// How the frame is divided.
        public var layout: Layout
        /// The cells, in reading order (left to right, top to bottom; picture-in-picture: the main
        /// picture, then the inset). Missing cells stay empty; extra cells are refused.
        public var cells: [Cell]
        /// The space between cells and around them, in pixels.
        public var gutter: Double
        /// The colour of the gutters and empty cells (transparent: what is below shows through).
        public var background: Color
        /// The width of each cell's border, in pixels (0: none).
        public var borderWidth: Double
        /// The colour of the borders.
        public var borderColor: Color
        /// The radius of each cell's corners, in pixels.
        public var cornerRadius: Double
        /// Picture-in-picture: the corner the inset is in.
        public var corner: Corner
        /// Picture-in-picture: the inset's width as a fraction of the frame's (its aspect is the frame's).
        public var insetSize: Double
        /// Picture-in-picture: the distance from the inset to the frame's edges, in pixels.
        public var margin: Double

        /// A split screen; for picture-in-picture the defaults put a 30 % inset 24 pixels from the
        /// bottom-right corner with a 2-pixel white border.
        public init(_ layout: Layout, cells: [Cell], gutter: Double = 0, background: Color = .black,
                    borderWidth: Double? = nil, borderColor: Color = .white, cornerRadius: Double = 0,
                    corner: Corner = .bottomRight, insetSize: Double = 0.3, margin: Double = 24) {
            self.layout = layout; self.cells = cells; self.gutter = gutter; self.background = background
            self.borderWidth = borderWidth ?? (layout == .pictureInPicture ? 2 : 0)
            self.borderColor = borderColor; self.cornerRadius = cornerRadius
            self.corner = corner; self.insetSize = insetSize; self.margin = margin
        }

        /// How long the split lasts: its longest cell.
        public var duration: Time { cells.map(\.clip.duration).max() ?? .zero }

        /// Each cell's rectangle in a frame of `size`, in cell order (as many as the layout has).
        public func cellRects(in size: Size) -> [Rect] {
            if layout == .pictureInPicture {
                let w = size.width * insetSize, h = size.height * insetSize
                let x = corner == .topLeft || corner == .bottomLeft ? margin : size.width - margin - w
                let y = corner == .topLeft || corner == .topRight ? margin : size.height - margin - h
                return [Rect(x: 0, y: 0, width: size.width, height: size.height), Rect(x: x, y: y, width: w, height: h)]
            }
            let (columns, rows) = layout.grid
            let w = (size.width - gutter * Double(columns + 1)) / Double(columns)
            let h = (size.height - gutter * Double(rows + 1)) / Double(rows)
            var rects: [Rect] = []
            for r in 0..<rows {
                for c in 0..<columns {
                    rects.append(Rect(x: gutter + Double(c) * (w + gutter), y: gutter + Double(r) * (h + gutter), width: w, height: h))
                }
            }
            return rects
        }

        /// Each cell's rectangle in a frame of `size` with its edges on whole pixels: where cells drawn
        /// at their own size (`PictureSize.cell`) go, and the size they draw at.
        package func pixelRects(in size: Size) -> [Rect] {
            cellRects(in: size).map { r in
                let x = r.minX.rounded(), y = r.minY.rounded()
                return Rect(x: x, y: y, width: r.maxX.rounded() - x, height: r.maxY.rounded() - y)
            }
        }

        /// Checks the cell count and the sizes.
        func validate() throws(MovieMakerError) {
            guard cells.count <= layout.cellCount else {
                throw .invalidSetting(.splitScreen, value: "\(cells.count) cells for layout \(layout.rawValue)", expected: "at most \(layout.cellCount) cells")
            }
            for (name, v, range) in [("gutter", gutter, 0.0...2000), ("borderWidth", borderWidth, 0...500), ("cornerRadius", cornerRadius, 0...5000),
                                     ("insetSize", insetSize, 0.05...1), ("margin", margin, 0...5000)] where !(v.isFinite && range.contains(v)) {
                throw .invalidSetting(.splitScreen, value: "\(name) \(v)", expected: "\(range.lowerBound) to \(range.upperBound)")
            }
        }

        /// Draws the split at `frame`.
        func draw(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
            let size = ctx.bounds.size
            let rects = cellRects(in: size), pixelRects = pixelRects(in: size)
            if background.alpha > 0 {
                ctx.withSavedState {
                    ctx.setFill(background)
                    ctx.fillRect(Rect(x: 0, y: 0, width: size.width, height: size.height))
                }
            }
            for (i, cell) in cells.enumerated() where i < rects.count {
                let rect = cell.pictureSize == .cell ? pixelRects[i] : rects[i]
                guard rect.width > 0, rect.height > 0 else { continue }
                // A picture-in-picture's main picture is the whole frame: the border and rounded corners
                // are the inset's alone.
                let framed = !(layout == .pictureInPicture && i == 0)
                let cornerRadius = framed ? cornerRadius : 0
                if frame.exactTime < cell.clip.duration {
                    try ctx.withSavedState {
                        ctx.beginPath()
                        ctx.addRoundedRect(rect, cornerRadius: cornerRadius)
                        ctx.clip()
                        if cell.pictureSize == .cell {
                            // Drawn into the cell, which is all the clip sees of the frame.
                            ctx.translate(x: rect.minX, y: rect.minY)
                            try ctx.withBounds(rect.size) {
                                try cell.clip.render(in: ctx, at: frame.with(duration: cell.clip.duration), session: session)
                            }
                            return
                        }
                        // The cell's picture: the clip's frame-sized picture fitted into the rectangle.
                        var sx = rect.width / size.width, sy = rect.height / size.height
                        switch cell.fit {
                        case .fill: sx = max(sx, sy); sy = sx
                        case .fit: sx = min(sx, sy); sy = sx
                        case .stretch: break
                        case .center: sx = 1; sy = 1
                        }
                        let w = size.width * sx, h = size.height * sy
                        ctx.translate(x: rect.minX + (rect.width - w) / 2, y: rect.minY + (rect.height - h) / 2)
                        ctx.scale(x: sx, y: sy)
                        ctx.clip(to: Rect(x: 0, y: 0, width: size.width, height: size.height))
                        try cell.clip.render(in: ctx, at: frame.with(duration: cell.clip.duration), session: session)
                    }
                }
                if framed, borderWidth > 0, borderColor.alpha > 0 {
                    ctx.withSavedState {
                        ctx.setStroke(borderColor)
                        ctx.lineWidth = borderWidth
                        let inset = borderWidth / 2
                        ctx.beginPath()
                        ctx.addRoundedRect(Rect(x: rect.minX + inset, y: rect.minY + inset, width: rect.width - borderWidth, height: rect.height - borderWidth),
                                           cornerRadius: max(0, cornerRadius - inset))
                        ctx.stroke()
                    }
                }
            }
        }
    }

    /// A split screen of `cells` (see `SplitScreen`). Throws for more cells than the layout has or
    /// sizes out of range.
    public static func split(_ split: SplitScreen) throws(MovieMakerError) -> Clip {
        try split.validate()
        return Clip(.split(split))
    }

    /// `clips` side by side, stacked or in a grid, each filling its cell.
    public static func split(_ layout: SplitScreen.Layout, _ clips: [Clip], gutter: Double = 0) throws(MovieMakerError) -> Clip {
        try split(SplitScreen(layout, cells: clips.map { SplitScreen.Cell($0) }, gutter: gutter))
    }

    /// `inset` small in a corner of this clip (picture-in-picture): `size` of the frame's width, `margin`
    /// pixels from the edges, with a border and rounded corners.
    public func withPictureInPicture(_ inset: Clip, corner: SplitScreen.Corner = .bottomRight, size: Double = 0.3, margin: Double = 24,
                                     borderWidth: Double = 2, borderColor: Color = .white, cornerRadius: Double = 12) throws(MovieMakerError) -> Clip {
        try Clip.split(SplitScreen(.pictureInPicture, cells: [SplitScreen.Cell(self), SplitScreen.Cell(inset)], background: .clear,
                                   borderWidth: borderWidth, borderColor: borderColor, cornerRadius: cornerRadius,
                                   corner: corner, insetSize: size, margin: margin))
    }
}

extension Clip {
    /// How a mask clip's picture decides what of the masked clip shows.
    public enum MaskMode: String, Sendable, Hashable, CaseIterable, Codable {
        /// Where the mask is opaque.
        case alpha
        /// Where the mask is bright (its luma, BT.709, times its alpha).
        case luma
        /// Where the mask is transparent.
        case inverseAlpha
        /// Where the mask is dark.
        case inverseLuma
    }

    /// This clip shown only where `mask` (drawn at the same time) says: its alpha or luma, or their
    /// inverse. The mask is not drawn itself, and its sounds are not heard.
    public func masked(by mask: Clip, mode: MaskMode = .alpha) -> Clip {
        Clip(.masked(self, mask: mask, mode))
    }

    /// Draws `child` masked by `mask` at `frame`.
    static func drawMasked(_ child: Clip, mask: Clip, mode: MaskMode, in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
        let width = max(1, Int(ctx.bounds.width.rounded(.up))), height = max(1, Int(ctx.bounds.height.rounded(.up)))
        try session.scratch.layers.withLayer(width: width, height: height) { content in
            try session.scratch.layers.withLayer(width: width, height: height) { maskLayer in
                try content.draw { c in
                    c.clear(.clear)
                    try child.render(in: c, at: frame, session: session)
                }
                try maskLayer.draw { c in
                    c.clear(.clear)
                    if frame.exactTime < mask.duration { try mask.render(in: c, at: frame.with(duration: mask.duration), session: session) }
                }
                let surface = maskLayer.surface
                surface.flush()
                if mode != .alpha {
                    // The coverage goes into the alpha channel (colour zero), which is what Cairo masks with.
                    let image = FilterImage(data: surface.data, width: width, height: height, stride: surface.stride)
                    image.forEachRowRange { rows in
                        for y in rows {
                            let p = image.row(y)
                            for x in 0..<width {
                                let q = p + 4 * x
                                // Premultiplied: luma of the stored colour is luma × alpha.
                                let luma = (2126 * Int(q[2]) + 7152 * Int(q[1]) + 722 * Int(q[0]) + 5000) / 10000
                                let a: Int
                                switch mode {
                                case .luma: a = luma
                                case .inverseAlpha: a = 255 - Int(q[3])
                                case .inverseLuma: a = 255 - luma
                                case .alpha: a = Int(q[3])
                                }
                                q[0] = 0; q[1] = 0; q[2] = 0; q[3] = UInt8(a)
                            }
                        }
                    }
                    surface.markDirty()
                }
                let cr = ctx.cr
                cairo_save(cr)
                cairo_set_source_surface(cr, content.surface.pointer, 0, 0)
                cairo_mask_surface(cr, surface.pointer, 0, 0)
                cairo_restore(cr)
            }
        }
    }
}

extension Clip.SplitScreen.Cell: Codable {
    private enum CodingKeys: String, CodingKey { case clip, fit, pictureSize }
    /// Reads `{"clip": …, "fit": "fill", "pictureSize": "cell"}` (fit may be left out: fill; pictureSize:
    /// frame).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(ClipJSON.self, forKey: .clip).clip, fit: try c.decodeIfPresent(ImageFit.self, forKey: .fit) ?? .fill,
                  pictureSize: try c.decodeIfPresent(Clip.SplitScreen.PictureSize.self, forKey: .pictureSize) ?? .frame)
    }
    /// Writes the clip and the fit, and the picture size when it is the cell's (a frame-sized cell
    /// writes what it always wrote, so its content hash stays).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ClipJSON(clip), forKey: .clip)
        try c.encode(fit, forKey: .fit)
        if pictureSize != .frame { try c.encode(pictureSize, forKey: .pictureSize) }
    }
}

extension Clip.SplitScreen: Codable {
    private enum CodingKeys: String, CodingKey {
        case layout, cells, gutter, background, borderWidth, borderColor, cornerRadius, corner, insetSize, margin
    }
    /// Reads the layout and cells, and any of the other fields (defaults as `init`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(Layout.self, forKey: .layout), cells: try c.decode([Cell].self, forKey: .cells),
                  gutter: try c.decodeIfPresent(Double.self, forKey: .gutter) ?? 0,
                  background: try c.decodeIfPresent(Color.self, forKey: .background) ?? .black,
                  borderWidth: try c.decodeIfPresent(Double.self, forKey: .borderWidth),
                  borderColor: try c.decodeIfPresent(Color.self, forKey: .borderColor) ?? .white,
                  cornerRadius: try c.decodeIfPresent(Double.self, forKey: .cornerRadius) ?? 0,
                  corner: try c.decodeIfPresent(Corner.self, forKey: .corner) ?? .bottomRight,
                  insetSize: try c.decodeIfPresent(Double.self, forKey: .insetSize) ?? 0.3,
                  margin: try c.decodeIfPresent(Double.self, forKey: .margin) ?? 24)
    }
    /// Writes every field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(layout, forKey: .layout)
        try c.encode(cells, forKey: .cells)
        try c.encode(gutter, forKey: .gutter)
        try c.encode(background, forKey: .background)
        try c.encode(borderWidth, forKey: .borderWidth)
        try c.encode(borderColor, forKey: .borderColor)
        try c.encode(cornerRadius, forKey: .cornerRadius)
        try c.encode(corner, forKey: .corner)
        try c.encode(insetSize, forKey: .insetSize)
        try c.encode(margin, forKey: .margin)
    }
}

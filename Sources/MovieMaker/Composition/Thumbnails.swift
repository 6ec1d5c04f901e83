import Foundation

extension PixelBuffer {
    /// The picture's luma (Rec. 709 weights on the gamma-encoded R′G′B′, 0 = black, 1 = white): its mean
    /// and its standard deviation over every pixel (alpha ignored). A black frame has a mean near 0; a
    /// frame of one flat colour has a deviation near 0.
    package var lumaStatistics: (mean: Double, standardDeviation: Double) {
        let count = width * height
        guard count > 0 else { return (0, 0) }
        var sum = 0.0, squares = 0.0
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                // Bytes are B, G, R, A.
                let y = (0.0722 * Double(p[i]) + 0.7152 * Double(p[i + 1]) + 0.2126 * Double(p[i + 2])) / 255
                sum += y; squares += y * y
                i += 4
            }
        }
        let mean = sum / Double(count)
        return (mean, max(0, squares / Double(count) - mean * mean).squareRoot())
    }
}

extension Time {
    /// The time as a contact sheet labels it: minutes, seconds and tenths, `0:04.2`, `12:30.0`, or with
    /// hours, `1:02:03.4`. Tenths are rounded down, so a label never names a later time than the frame's.
    package var clockLabel: String {
        // Exact: whole tenths of value/timescale, rounded down.
        let tenths = Swift.max(0, value) * 10 / timescale
        let h = tenths / 36_000, m = tenths / 600 % 60, s = tenths / 10 % 60, d = tenths % 10
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss).\(d)" }
        return "\(m):\(ss).\(d)"
    }
}

extension Clip {
    /// The mean luma (0…1) below which `firstVisibleTime` calls a frame black: 0.08, about 20/255.
    public static let blackLumaThreshold = 0.08
    /// The luma standard deviation (0…1) below which `firstVisibleTime` calls a frame blank (one flat
    /// colour, e.g. a white flash or a grey slate): 0.02, about 5/255.
    public static let blankLumaDeviationThreshold = 0.02

    /// The time of the first frame worth a thumbnail: the first frame (on `rate`'s grid) that is neither
    /// black (mean luma below `blackLuma`, by default `blackLumaThreshold`, 0.08) nor blank (luma
    /// standard deviation below `blankDeviation`, by default `blankLumaDeviationThreshold`, 0.02), among
    /// the frames of the first `within` of the clip (10 s by default; the whole clip when shorter).
    ///
    /// When every scanned frame is black or blank, it is the first that is not black (a clip of flat
    /// colour after a black start gives the colour's first frame); when every one is black, 0.
    ///
    /// Frames are drawn at `width`×`height` (small is quick and enough: 160×90 by default; give the
    /// clip's own proportions when they differ), in growing batches from the start (1, 2, 4, … frames),
    /// so a clip whose first frame is visible costs one frame and a long black start costs little more
    /// than decoding it. Throws what rendering throws (an unreadable file, `.cancelled`), and
    /// `.invalidSetting(.visibleFrameSearch)` for a size below 1 pixel or a span not above 0.
    public func firstVisibleTime(width: Int = 160, height: Int = 90, rate: FrameRate = 30, within: Time = 10,
                                 blackLuma: Double = Clip.blackLumaThreshold,
                                 blankDeviation: Double = Clip.blankLumaDeviationThreshold,
                                 cancellation: CancellationToken? = nil,
                                 videoDecoderLimit: Int = EncoderSettings.defaultVideoDecoderLimit) throws -> Time {
        guard width >= 1, height >= 1, width <= MovieMaker.maximumSide, height <= MovieMaker.maximumSide else {
            throw MovieMakerError.invalidSetting(.visibleFrameSearch, value: "\(width)x\(height)",
                                                 expected: "a size of 1 to \(MovieMaker.maximumSide) pixels a side, e.g. 160x90")
        }
        guard within > .zero else {
            throw MovieMakerError.invalidSetting(.visibleFrameSearch, value: "\(within.seconds) s",
                                                 expected: "a span above 0 seconds to scan, e.g. 10")
        }
        let total = min(rate.frameCount(for: duration), rate.frameCount(for: within))
        var firstNotBlack: Int? = nil
        var next = 0, batch = 1
        while next < total {
            let range = next..<min(total, next + batch)
            let frames = try renderFrames(range, width: width, height: height, rate: rate, cancellation: cancellation,
                                          videoDecoderLimit: videoDecoderLimit)
            for (offset, pixels) in frames.enumerated() {
                let levels = pixels.lumaStatistics
                guard levels.mean >= blackLuma else { continue }
                if levels.standardDeviation >= blankDeviation { return rate.time(ofFrame: range.lowerBound + offset) }
                if firstNotBlack == nil { firstNotBlack = range.lowerBound + offset }
            }
            next = range.upperBound
            batch *= 2
        }
        return rate.time(ofFrame: firstNotBlack ?? 0)
    }

    /// The times `contactSheet` shows in `count` tiles: the middle of each of `count` equal parts of
    /// the clip, moved back to the start of the frame (on `rate`'s grid) shown then. Never the very
    /// first or last frame, which are often black; for a clip shorter than `count` frames, times repeat.
    package func contactSheetTimes(count: Int, rate: FrameRate = 30) -> [Time] {
        guard count > 0, duration > .zero else { return [] }
        let last = max(0, rate.frameCount(for: duration) - 1)
        return (0..<count).map { i in
            let middle = Time(value: duration.value * Int64(2 * i + 1), timescale: duration.timescale * Int64(2 * count))
            return rate.time(ofFrame: min(last, rate.frameIndex(at: middle)))
        }
    }

    /// A contact sheet: `columns`×`rows` tiles showing the clip's frames at evenly spaced times
    /// (`contactSheetTimes`), left to right then top to bottom, each with its time written under it
    /// (`0:04.2`, see `Time.clockLabel`), on a dark grey sheet `width` pixels wide (its height follows
    /// from the tiles: see `ContactSheetLayout`).
    ///
    /// `aspectRatio` is the clip's frame's width ÷ height (a video's `width`/`height`); each tile draws
    /// the clip at the tile's size, as a movie of that size would show it. Throws
    /// `.invalidSetting(.contactSheetGrid)` for fewer than 1 or more than 50 columns or rows,
    /// `.invalidSetting(.contactSheetWidth)` for a width under 32 pixels a tile or over 8192, and what
    /// rendering throws (an unreadable file, `.cancelled`).
    public func contactSheet(columns: Int, rows: Int, width: Int, aspectRatio: Double = 16.0 / 9.0, rate: FrameRate = 30,
                             background: Color = Color(red8: 0x18, green8: 0x18, blue8: 0x18), labelColor: Color = .white,
                             cancellation: CancellationToken? = nil) throws -> Image {
        let layout = try ContactSheetLayout(columns: columns, rows: rows, width: width, aspectRatio: aspectRatio)
        let times = contactSheetTimes(count: columns * rows, rate: rate)
        let tileWidth = Int(layout.tileSize.width), tileHeight = Int(layout.tileSize.height)
        // Every tile is drawn first (the clip's media opened once per tile), then laid out.
        var tiles: [Image] = []
        for time in times {
            if cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
            tiles.append(try still(at: time, width: tileWidth, height: tileHeight, rate: rate).makeImage())
        }
        let sheet = try Canvas(width: layout.width, height: layout.height)
        let style = TextStyle(font: TextFont(size: layout.labelFontSize), color: labelColor, alignment: .center)
        try sheet.draw { ctx in
            ctx.clear(background)
            for (i, tile) in tiles.enumerated() {
                ctx.draw(tile, in: layout.tileRect(i))
                try ctx.draw(times[i].clockLabel, in: layout.labelRect(i), style: style, verticalAlignment: .center)
            }
        }
        return try sheet.makeImage()
    }
}

/// Where `Clip.contactSheet` puts its tiles and labels: a `gap` round and between the tiles, each tile
/// `tileSize` (the sheet's width shared by the columns, in whole pixels, at the clip's proportions),
/// its label in a strip `labelHeight` high under it. Sizes are whole pixels.
package struct ContactSheetLayout: Sendable, Hashable {
    /// Tiles across.
    package let columns: Int
    /// Tiles down.
    package let rows: Int
    /// The sheet's width in pixels.
    package let width: Int
    /// The sheet's height in pixels: the rows of tiles and labels with their gaps.
    package let height: Int
    /// The space round the sheet's edge and between tiles: 1 % of the width, at least 4 pixels (less
    /// than 1 % where tiles would otherwise be under 32 pixels wide).
    package let gap: Int
    /// Each tile's size.
    package let tileSize: Size
    /// The height of the strip under each tile that holds its time.
    package let labelHeight: Int
    /// The label's font size in pixels.
    package let labelFontSize: Double

    /// The layout of `columns`×`rows` tiles of proportions `aspectRatio` (width ÷ height) on a sheet
    /// `width` pixels wide; throws `.invalidSetting` for a grid outside 1…50 or a width under 32
    /// pixels a tile or over 8192.
    package init(columns: Int, rows: Int, width: Int, aspectRatio: Double) throws(MovieMakerError) {
        guard (1...50).contains(columns), (1...50).contains(rows) else {
            throw .invalidSetting(.contactSheetGrid, value: "\(columns)x\(rows)", expected: "1 to 50 columns and rows, e.g. 4x4")
        }
        guard aspectRatio.isFinite, aspectRatio > 0.05, aspectRatio < 20 else {
            throw .invalidSetting(.contactSheetGrid, value: "aspect ratio \(aspectRatio)", expected: "a frame width ÷ height from 0.05 to 20, e.g. 16/9")
        }
        // 32 pixels a tile with the smallest gap (4) is the least width; the example fits too.
        let least = 32 * columns + 4 * (columns + 1)
        guard width <= MovieMaker.maximumSide, width >= least else {
            throw .invalidSetting(.contactSheetWidth, value: "\(width)",
                                  expected: "a width from \(least) (32 pixels a tile for \(columns) columns, and the gaps around them) to \(MovieMaker.maximumSide) pixels, e.g. \(max(1600, least))")
        }
        // The gap is 1 % of the width, narrowed where that would leave tiles under 32 pixels (many
        // columns on a narrow sheet): every width from `least` up fits.
        let gap = min(max(4, width / 100), (width - 32 * columns) / (columns + 1))
        let tileWidth = (width - gap * (columns + 1)) / columns
        let tileHeight = max(1, Int((Double(tileWidth) / aspectRatio).rounded()))
        let fontSize = max(9, min(40, Double(tileWidth) / 12).rounded())
        self.columns = columns; self.rows = rows; self.width = width; self.gap = gap
        tileSize = Size(width: Double(tileWidth), height: Double(tileHeight))
        labelFontSize = fontSize
        labelHeight = Int((fontSize * 1.6).rounded(.up))
        height = gap + rows * (tileHeight + labelHeight + gap)
    }

    /// Where tile `index` (0 at the top left, left to right then down) is drawn.
    package func tileRect(_ index: Int) -> Rect {
        let column = index % columns, row = index / columns
        // Tiles are centred: the pixels the whole division leaves over go to the two sides.
        let spare = width - gap * (columns + 1) - Int(tileSize.width) * columns
        let x = spare / 2 + gap + column * (Int(tileSize.width) + gap)
        let y = gap + row * (Int(tileSize.height) + labelHeight + gap)
        return Rect(x: Double(x), y: Double(y), width: tileSize.width, height: tileSize.height)
    }

    /// Where tile `index`'s time is written: the strip under it.
    package func labelRect(_ index: Int) -> Rect {
        let tile = tileRect(index)
        return Rect(x: tile.minX, y: tile.maxY, width: tile.width, height: Double(labelHeight))
    }
}

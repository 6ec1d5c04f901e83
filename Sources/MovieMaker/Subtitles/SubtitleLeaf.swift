internal import CPango
import Foundation
import Synchronization

extension Clip {
    /// Subtitles as a generator leaf: a track drawn in a style. At each frame it draws the cues active
    /// at the frame's exact time (`start <= time < end`), laid out for the frame's size.
    ///
    /// Layouts are planned once per cue and frame size (font size after shrinking to fit, position) and
    /// kept in a small cache shared by the drawing threads (guarded by a lock, bounded to the most
    /// recently used 256 plans); each draw shapes its cue's text anew on the drawing thread, since Pango
    /// objects belong to the thread that made them.
    package struct SubtitleLeaf: Sendable, Equatable {
        /// The cues.
        package let track: SubtitleTrack
        /// How they look.
        package let style: SubtitleStyle
        /// Planned layouts, shared by copies of the leaf.
        let cache: SubtitleLayoutCache

        /// A leaf drawing `track`'s cues in `style`.
        package init(track: SubtitleTrack, style: SubtitleStyle) {
            self.track = track; self.style = style
            cache = SubtitleLayoutCache()
        }

        /// Equal when the tracks and styles are.
        package static func == (a: SubtitleLeaf, b: SubtitleLeaf) -> Bool { a.track == b.track && a.style == b.style }

        /// The most cues drawn on one frame: the latest to start among those showing. More would not fit
        /// the safe area anyway (they stack upwards), and each costs a layout.
        package static let maximumCuesShown = 8

        /// Draws the cues active at `frame.exactTime` into `ctx` (at most `maximumCuesShown`).
        func draw(in ctx: DrawingContext, at frame: Frame) throws {
            let active = track.activeIndices(at: frame.exactTime, limit: Self.maximumCuesShown)
            guard !active.isEmpty else { return }
            try style.validate()
            let size = ctx.size
            let safe = style.safeArea(in: size)
            guard safe.width >= 1, safe.height >= 1 else { return }
            var plans: [(Int, SubtitleCuePlan)] = []
            for index in active {
                plans.append((index, try cache.plan(index, frameSize: size) { () throws(MovieMakerError) -> SubtitleCuePlan in
                    try SubtitleCuePlan(cue: track.cues[index], style: style, frameSize: size)
                }))
            }
            try ctx.withSavedState {
                ctx.clip(to: safe)
                // Cues without a line setting stack upwards from the bottom: the first at the bottom.
                var stacked = 0.0
                for (index, plan) in plans {
                    var top = plan.top
                    if plan.isBottomStacked {
                        top = max(safe.minY, top - stacked)
                        stacked += plan.blockHeight + plan.fontSize * 0.1
                    }
                    try plan.draw(track.cues[index], style: style, top: top, in: ctx)
                }
            }
            try ctx.checkStatus()
        }
    }
}

/// A cue laid out for one frame size: its font size (after shrinking to fit) and where its block goes.
struct SubtitleCuePlan: Sendable {
    /// The font size in pixels.
    let fontSize: Double
    /// The wrap width in pixels.
    let wrapWidth: Double
    /// Line alignment in the wrap width.
    let alignment: TextAlignment
    /// The layout's logical bounds (relative to its origin).
    let logical: Rect
    /// How far the ink (outline, box) reaches beyond the logical bounds, in pixels.
    let inset: Double
    /// The left of the wrap width, in the frame.
    let left: Double
    /// The top of the block (logical bounds grown by `inset`), in the frame.
    let top: Double
    /// The block's height (logical height + 2 × inset).
    let blockHeight: Double
    /// Whether the cue has no line setting and stacks upwards with other such cues.
    let isBottomStacked: Bool

    /// Plans `cue` in `style` on a frame of `frameSize`: wrapped to its box (the safe area, or narrower
    /// by `maxLineWidth` and the cue's `size`), shrunk until the block fits inside the safe area,
    /// placed by the cue's settings (default: centred at the bottom) and kept inside the safe area.
    init(cue: SubtitleCue, style: SubtitleStyle, frameSize: Size) throws(MovieMakerError) {
        let safe = style.safeArea(in: frameSize)
        let nominal = style.size * frameSize.height
        let inset: Double
        switch style.background {
        case let .outline(_, width): inset = width * nominal / 2
        case let .box(_, padding, _): inset = padding * nominal
        }
        let placement = cue.placement
        var boxWidth = safe.width
        if let maxLineWidth = style.maxLineWidth { boxWidth = min(boxWidth, maxLineWidth * frameSize.width) }
        if let size = placement.size { boxWidth = min(boxWidth, max(size, 1) / 100 * frameSize.width) }
        boxWidth = max(boxWidth, min(safe.width, 2 * inset + 1))
        let textBox = Size(width: max(1, boxWidth - 2 * inset), height: max(1, safe.height - 2 * inset))

        let rtl = Self.isRightToLeft(cue.text)
        let alignment: TextAlignment
        switch placement.alignment {
        case .center: alignment = .center
        case .left: alignment = .left
        case .right: alignment = .right
        case .start: alignment = rtl ? .right : .left
        case .end: alignment = rtl ? .left : .right
        }
        let textStyle = Self.textStyle(style, alignment: alignment, size: nominal)
        let layout = try TextLayout.fitting(cue.markup, style: textStyle, in: textBox, minimumSize: min(1, nominal), maximumSize: nominal)
        let logical = layout.logicalBounds
        fontSize = layout.style.font.size
        wrapWidth = textBox.width
        self.alignment = alignment
        self.logical = logical
        self.inset = inset
        blockHeight = logical.height + 2 * inset

        // Horizontal: the box at `position` (anchored by its edge or middle), else centred; inside the safe area.
        var boxLeft = safe.midX - boxWidth / 2
        if let position = placement.position {
            let x = position / 100 * frameSize.width
            let anchor: SubtitlePlacement.Anchor = placement.positionAnchor ?? { () -> SubtitlePlacement.Anchor in
                switch placement.alignment {
                case .left: return .start
                case .right: return .end
                case .start: return rtl ? .end : .start
                case .end: return rtl ? .start : .end
                case .center: return .center
                }
            }()
            switch anchor {
            case .start: boxLeft = x
            case .center: boxLeft = x - boxWidth / 2
            case .end: boxLeft = x - boxWidth
            }
        }
        boxLeft = min(max(boxLeft, safe.minX), safe.maxX - boxWidth)
        left = boxLeft + inset

        // Vertical: by the line setting, else at the bottom; inside the safe area.
        var top = safe.maxY - blockHeight
        switch placement.line {
        case nil:
            isBottomStacked = true
        case let .percent(p)?:
            let y = p / 100 * frameSize.height
            switch placement.lineAnchor {
            case .start: top = y
            case .center: top = y - blockHeight / 2
            case .end: top = y - blockHeight
            }
            isBottomStacked = false
        case let .number(n)?:
            let lineHeight = logical.height / Double(max(1, layout.lineCount))
            top = n >= 0 ? safe.minY + Double(n) * lineHeight : safe.maxY - blockHeight - Double(-n - 1) * lineHeight
            isBottomStacked = false
        }
        self.top = min(max(top, safe.minY), safe.maxY - blockHeight)
    }

    /// The text style of a cue at `size` pixels.
    static func textStyle(_ style: SubtitleStyle, alignment: TextAlignment, size: Double) -> TextStyle {
        TextStyle(font: TextFont(family: style.fontFamily, size: size), color: style.color, alignment: alignment,
                  lineSpacing: style.lineSpacing, isMarkup: true, language: style.language)
    }

    /// Whether the text's first strong character is right-to-left (Hebrew, Arabic, Syriac, Thaana, N'Ko …).
    static func isRightToLeft(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
        return false
    }

    /// Draws `cue` with its block's top at `top`: the box or the outline, then the text.
    func draw(_ cue: SubtitleCue, style: SubtitleStyle, top: Double, in ctx: DrawingContext) throws(MovieMakerError) {
        let layout = try TextLayout(cue.markup, style: Self.textStyle(style, alignment: alignment, size: fontSize), width: wrapWidth, wrap: PANGO_WRAP_WORD)
        let origin = Point(x: left, y: top + inset - logical.minY)
        switch style.background {
        case let .box(color, padding, cornerRadius):
            let pad = padding * fontSize
            let box = Rect(x: origin.x + logical.minX - pad, y: origin.y + logical.minY - pad,
                           width: logical.width + 2 * pad, height: logical.height + 2 * pad)
            ctx.setFill(color)
            ctx.beginPath()
            ctx.addRoundedRect(box, cornerRadius: min(cornerRadius * fontSize, box.height / 2, box.width / 2))
            ctx.fill()
        case let .outline(color, width):
            if width > 0 && color.alpha > 0 {
                ctx.setStroke(color)
                ctx.lineWidth = width * fontSize
                ctx.lineJoin = .round
                ctx.stroke(layout.path(at: origin))
            }
        }
        layout.draw(in: ctx, at: origin)
    }
}

/// The plans of one subtitle leaf, keyed by cue and frame size.
typealias SubtitleLayoutCache = LayoutPlanCache<SubtitleCuePlan>

/// Layouts planned for one frame size, keyed by an index (a subtitle's cue, a captions page) and the
/// size, shared by the drawing threads; the most recently used 256 are kept.
final class LayoutPlanCache<Plan: Sendable>: Sendable {
    private struct Key: Hashable { let index: Int; let width: Double; let height: Double }
    private struct State {
        var plans: [Key: (plan: Plan, used: UInt64)] = [:]
        var clock: UInt64 = 0
    }
    private let state = Mutex(State())
    /// How many plans are kept.
    static var capacity: Int { 256 }

    /// The plan of `index` for `frameSize`, made by `make` when not cached (outside the lock, so
    /// threads planning different items do not wait for each other).
    func plan(_ index: Int, frameSize: Size, make: () throws(MovieMakerError) -> Plan) throws(MovieMakerError) -> Plan {
        let key = Key(index: index, width: frameSize.width, height: frameSize.height)
        let cached: Plan? = state.withLock { s in
            s.clock += 1
            guard let entry = s.plans[key] else { return nil }
            s.plans[key] = (entry.plan, s.clock)
            return entry.plan
        }
        if let cached { return cached }
        let plan = try make()
        state.withLock { s in
            s.clock += 1
            s.plans[key] = (plan, s.clock)
            if s.plans.count > Self.capacity, let oldest = s.plans.min(by: { $0.value.used < $1.value.used })?.key {
                s.plans[oldest] = nil
            }
        }
        return plan
    }

    /// How many plans are cached (for tests).
    var count: Int { state.withLock { $0.plans.count } }
}

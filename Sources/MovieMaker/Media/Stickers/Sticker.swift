import Foundation
import Synchronization

extension Clip {
    /// A sticker as a generator leaf: a picture file (an animated GIF, APNG or WebP, or a still) or a
    /// short text (an emoji), drawn centred on the frame at its natural size or the size asked, coming on
    /// and going off with its `enter` and `exit` animations.
    ///
    /// The picture is decoded when a render opens its media (a missing or broken file fails then, before
    /// the first frame) and freed when the render ends; copies of the clip share one decode per render.
    package struct StickerLeaf: Sendable, Hashable {
        /// What a sticker shows.
        package enum Content: Sendable, Hashable {
            /// An image file: an animated GIF, APNG or WebP (played at its own timing), or a still
            /// (PNG, WebP, JPEG, HEIC, TIFF…).
            case file(URL)
            /// A short text, usually an emoji, drawn with the colour emoji font at `size` pixels.
            case text(String, size: Double)
        }

        /// What the sticker shows.
        package let content: Content
        /// The width it is drawn at in pixels (nil: from `height` keeping the aspect, or natural).
        package let width: Double?
        /// The height it is drawn at in pixels (nil: from `width` keeping the aspect, or natural).
        package let height: Double?
        /// Whether an animation plays again and again while the clip lasts (false: once, then its last
        /// frame is held). The file's own loop count is not used.
        package let loop: Bool
        /// Where its centre is, in the frame's coordinates (nil: the frame's centre).
        package let center: Point?
        /// How it comes on at the clip's start (nil: there at once).
        package let enter: StickerAnimation?
        /// How it goes off, ending at the clip's end (nil: there to the last frame).
        package let exit: StickerAnimation?
        /// The decode shared by copies of the leaf (one per render).
        let source: StickerSource

        /// A sticker showing `content` at `width`×`height` (see the properties), centred on `center`.
        package init(_ content: Content, width: Double? = nil, height: Double? = nil, loop: Bool = true, center: Point? = nil,
                    enter: StickerAnimation? = nil, exit: StickerAnimation? = nil) {
            self.content = content; self.width = width; self.height = height; self.loop = loop
            self.center = center; self.enter = enter; self.exit = exit
            source = StickerSource(content: content, width: width, height: height)
        }

        /// Equal leaves show the same content the same way (their decodes may differ).
        package static func == (a: StickerLeaf, b: StickerLeaf) -> Bool {
            a.content == b.content && a.width == b.width && a.height == b.height && a.loop == b.loop
                && a.center == b.center && a.enter == b.enter && a.exit == b.exit
        }
        /// Hashes what `==` compares.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(content); hasher.combine(width); hasher.combine(height); hasher.combine(loop)
            hasher.combine(center); hasher.combine(enter); hasher.combine(exit)
        }

        /// Draws the sticker's picture at `frame` (its exact time in the clip) from the session's decode.
        func draw(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
            let image = try session.stickerImage(for: source)
            let picture = image.frame(at: frame.exactTime, loop: loop)
            let size = AnimatedImage.shownSize(natural: image.naturalSize, width: width, height: height)
            guard size.width > 0, size.height > 0 else { return }
            let c = center ?? ctx.bounds.center
            let rect = Rect(x: c.x - size.width / 2, y: c.y - size.height / 2, width: size.width, height: size.height)
            // Enter rises 0→1 from the clip's start; exit falls 1→0 to reach 0 on the clip's last frame.
            let t = frame.time
            let entering = enter?.progress(t) ?? 1
            let leaving = exit?.progress(frame.duration.seconds - frame.rate.frameDuration.seconds - t) ?? 1
            let draw = { (opacity: Double) in ctx.draw(picture, in: rect, opacity: opacity) }
            // A slide starts beyond the edge of what shows (the frame, a split's cell), wherever the
            // item's transform put the sticker.
            if let enter, entering < 1 {
                enter.apply(progress: entering, rect: rect, bounds: ctx.visibleRect, in: ctx, draw)
            } else if let exit, leaving < 1 {
                exit.apply(progress: leaving, rect: rect, bounds: ctx.visibleRect, in: ctx, draw)
            } else {
                draw(1)
            }
        }
    }

    /// A clip showing the image at `url` for `duration`, centred on the frame (or on `center`), at its
    /// natural pixel size or `width`×`height` (aspect kept when only one is given).
    ///
    /// An animated GIF, APNG or WebP plays at its own timing: frame i shows while the clip's time
    /// (exact, looped when `loop`) is between the sum of the earlier frames' delays and that plus its
    /// own; without `loop` it plays once and holds its last frame. A still (PNG, WebP, JPEG…) shows for
    /// the whole clip. Transparency is kept: what is below shows through.
    /// `enter` plays from the clip's start, `exit` ends at its end.
    ///
    /// The file is decoded when the render opens its media (a missing or unreadable file fails then,
    /// before the first frame), at the size it is shown at when smaller; a file whose frames would take
    /// more than 256 MiB (4 bytes a pixel, every frame) or whose canvas is over 16384 pixels a side is
    /// refused with `.imageTooLarge`.
    public static func sticker(_ url: URL, duration: Time, width: Double? = nil, height: Double? = nil, loop: Bool = true,
                               center: Point? = nil, enter: StickerAnimation? = nil, exit: StickerAnimation? = nil) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        let leaf = StickerLeaf(.file(url), width: width, height: height, loop: loop, center: center, enter: enter, exit: exit)
        return Clip(.generator(.sticker(leaf), duration: duration))
    }

    /// A clip showing `text` (an emoji, or any short text) as a sticker `size` pixels tall (its font
    /// size), drawn with the colour emoji font (Noto Color Emoji; other characters fall back to other
    /// fonts, in white), centred on the frame (or on `center`) by its ink. `enter` plays from the clip's
    /// start, `exit` ends at its end. Throws `.fontNotFound` when the render opens if Noto Color Emoji
    /// is not installed (Debian: fonts-noto-color-emoji).
    public static func emoji(_ text: String, size: Double, duration: Time, center: Point? = nil,
                             enter: StickerAnimation? = nil, exit: StickerAnimation? = nil) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        let leaf = StickerLeaf(.text(text, size: size), center: center, enter: enter, exit: exit)
        return Clip(.generator(.sticker(leaf), duration: duration))
    }

    /// The decode source of every sticker leaf in the tree, once per place it has.
    var stickerSources: [StickerSource] {
        generatorSources { if case let .sticker(leaf) = $0 { leaf.source } else { nil } }
    }
}

/// What a sticker leaf decodes: its content at the size it is shown at. A reference type so copies of a
/// clip share it: a render decodes each source once (`RenderSession.stickers`).
final class StickerSource: Sendable {
    /// The file or text.
    let content: Clip.StickerLeaf.Content
    /// The width asked for (nil: natural, or from the height).
    let width: Double?
    /// The height asked for (nil: natural, or from the width).
    let height: Double?
    /// The decode used when the leaf is drawn outside any render (`Clip.draw(in:at:)` on a canvas of
    /// your own), made on first use and kept while the clip lives.
    private let standalone = Mutex<AnimatedImage?>(nil)

    /// A source of `content` shown at `width`×`height`.
    init(content: Clip.StickerLeaf.Content, width: Double?, height: Double?) {
        self.content = content; self.width = width; self.height = height
    }

    /// The family emoji are drawn with.
    static let emojiFamily = "Noto Color Emoji"

    /// Decodes the content: a file through `AnimatedImageDecoder`, a text laid out by Pango and drawn once.
    func decode() throws(MovieMakerError) -> AnimatedImage {
        switch content {
        case let .file(url):
            return try AnimatedImageDecoder.decode(url, width: width, height: height)
        case let .text(text, size):
            let style = TextStyle(font: TextFont(family: Self.emojiFamily, size: size), color: .white)
            let layout = try TextLayout(text, style: style)
            let ink = layout.inkBounds
            let natural = Size(width: max(1, ink.width.rounded(.up)), height: max(1, ink.height.rounded(.up)))
            let pixels = AnimatedImage.decodeSize(natural: (Int(natural.width), Int(natural.height)), width: width, height: height)
            try AnimatedImage.checkSide(width: pixels.width, height: pixels.height, path: "the text \"\(text)\"")
            do {
                let canvas = try Canvas(width: pixels.width, height: pixels.height)
                try canvas.draw { ctx in
                    ctx.scale(x: Double(pixels.width) / natural.width, y: Double(pixels.height) / natural.height)
                    layout.draw(in: ctx, at: Point(x: -ink.minX + (natural.width - ink.width) / 2, y: -ink.minY + (natural.height - ink.height) / 2))
                }
                canvas.surface.flush()
                return AnimatedImage(still: Image(surface: canvas.surface), naturalSize: natural)
            } catch let error as MovieMakerError {
                throw error
            } catch {
                throw .cairo(operation: "drawing the text \"\(text)\"", message: "\(error)")
            }
        }
    }

    /// The decode for drawing outside a render (see `standalone`).
    func standaloneImage() throws(MovieMakerError) -> AnimatedImage {
        if let image = standalone.withLock({ $0 }) { return image }
        let image = try decode()
        standalone.withLock { $0 = image }
        return image
    }
}

extension RenderSession {
    /// The decoded picture of a sticker: the session's (decoded when it opened), or, outside any
    /// render, the clip's own.
    func stickerImage(for source: StickerSource) throws(MovieMakerError) -> AnimatedImage {
        if isStandalone { return try source.standaloneImage() }
        return try stickers.value(for: source)
    }
}

extension Clip.StickerLeaf: Codable {
    private enum CodingKeys: String, CodingKey { case file, text, size, width, height, loop, center, enter, exit }

    /// Reads `{"file": "/stickers/star.gif"}` or `{"text": "🎉", "size": 96}` and, when given, `width`,
    /// `height`, `loop` (true), `center`, `enter`, `exit`. The file is not opened until a render opens
    /// the clip's media.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let content: Content
        if let file = try c.decodeIfPresent(FileLocation.self, forKey: .file) {
            content = .file(file.url)
        } else if let text = try c.decodeIfPresent(String.self, forKey: .text) {
            let size = try c.decode(Double.self, forKey: .size)
            guard size > 0, size.isFinite else {
                throw MovieMakerError.invalidSetting(.fontSize, value: "\(size)", expected: "a size above 0 pixels")
                    .decodingError(at: c.codingPath + [CodingKeys.size])
            }
            content = .text(text, size: size)
        } else {
            throw DecodingError.keyNotFound(CodingKeys.file, .init(codingPath: c.codingPath,
                debugDescription: "a sticker needs a \"file\" (an image) or a \"text\" (an emoji) with a \"size\""))
        }
        self.init(content, width: try c.decodeIfPresent(Double.self, forKey: .width), height: try c.decodeIfPresent(Double.self, forKey: .height),
                  loop: try c.decode(.loop, or: true), center: try c.decodeIfPresent(Point.self, forKey: .center),
                  enter: try c.decodeIfPresent(StickerAnimation.self, forKey: .enter), exit: try c.decodeIfPresent(StickerAnimation.self, forKey: .exit))
    }

    /// Writes the file's path (or the text and its size) and how it is shown.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch content {
        case let .file(url): try c.encode(FileLocation(url), forKey: .file)
        case let .text(text, size):
            try c.encode(text, forKey: .text)
            try c.encode(size, forKey: .size)
        }
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encode(loop, forKey: .loop)
        try c.encodeIfPresent(center, forKey: .center)
        try c.encodeIfPresent(enter, forKey: .enter)
        try c.encodeIfPresent(exit, forKey: .exit)
    }
}

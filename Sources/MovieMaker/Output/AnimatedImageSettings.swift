import Foundation

/// How an animated image — `.gif`, `.apng` or an animated `.webp` — is made: a GIF's palette and
/// dithering, how many times it plays, a lossy WebP's quality, and the largest file wanted.
///
/// Every animated image keeps the movie's timing: each frame shows for its own duration (a GIF's in
/// centiseconds, rounded so that the delays add up to the movie's length to the centisecond).
///
/// With `maxFileSize` a GIF or WebP that comes out larger is made again smaller, lowering in this order
/// the frame rate (down to 10 fps), the size (down to a quarter) and the colours (a GIF's palette down
/// to 16 colours, a WebP's quality down to 20) until it fits; `MovieSummary.fit` says what was chosen.
public struct AnimatedImageSettings: Sendable, Equatable {
    /// How a GIF's palette is chosen.
    public var palette: GIFPalette = .movie
    /// How a GIF shows colours between its palette's entries.
    public var dither: GIFDither = .sierraLite
    /// The colours in a GIF's palette, 4…256 (libavfilter's palettegen makes no fewer than 4).
    public var colors: Int = 256
    /// How many times it plays: 0 (the default) loops forever, 1 plays once.
    public var plays: Int = 0
    /// A lossy WebP's quality, 0…100 (libwebp's scale; 75 is its default). With
    /// `EncoderSettings.lossless` a WebP is lossless instead.
    public var webpQuality: Int = 80
    /// The largest file wanted, in bytes (GIF and WebP): nil takes whatever size the movie makes.
    public var maxFileSize: Int? = nil

    /// The defaults: one palette for the movie, Sierra Lite dithering, 256 colours, loops forever,
    /// WebP quality 80, no size limit.
    public init() {}

    /// Settings with the given values; anything not named keeps its default.
    public init(palette: GIFPalette = .movie, dither: GIFDither = .sierraLite, colors: Int = 256, plays: Int = 0,
                webpQuality: Int = 80, maxFileSize: Int? = nil) {
        self.palette = palette; self.dither = dither; self.colors = colors; self.plays = plays
        self.webpQuality = webpQuality; self.maxFileSize = maxFileSize
    }

    /// Throws for a value out of range, naming it.
    func validate() throws(MovieMakerError) {
        guard (4...256).contains(colors) else {
            throw .invalidSetting(.gifColors, value: "\(colors)", expected: "4…256 colours in a GIF's palette (256 is the most a GIF holds, 4 the fewest FFmpeg's palette maker makes)")
        }
        guard (0...65535).contains(plays) else {
            throw .invalidSetting(.plays, value: "\(plays)", expected: "0 (loop forever) or how many times to play, up to 65535")
        }
        guard (0...100).contains(webpQuality) else {
            throw .invalidSetting(.webpQuality, value: "\(webpQuality)", expected: "0…100 (libwebp's scale; 75 is its default, 80 MovieMaker's)")
        }
        if let maxFileSize, maxFileSize < 1000 {
            throw .invalidSetting(.maxFileSize, value: "\(maxFileSize) bytes", expected: "at least 1 KB (1000 bytes), e.g. 5 MB (5000000 bytes)")
        }
    }

    /// The settings that decide the written bytes, for `EncoderSettings.bitstreamDescription`.
    var bitstreamDescription: String {
        var parts = ["palette=\(palette.rawValue)", "dither=\(dither.rawValue)", "colors=\(colors)", "plays=\(plays)", "webpq=\(webpQuality)"]
        if let maxFileSize { parts.append("max=\(maxFileSize)") }
        return parts.joined(separator: " ")
    }
}

/// How a GIF's palette (at most 256 colours) is chosen from the frames, by libavfilter's `palettegen`.
public enum GIFPalette: String, Sendable, CaseIterable, Codable {
    /// One palette from every pixel of every frame: steady colours, best for most movies.
    case movie
    /// One palette from the pixels that change between frames (`palettegen`'s `diff` statistics): the
    /// moving parts get the colours, a still background fewer. Best for a small animation on a plain
    /// background.
    case movingParts
    /// A palette for each scene, a scene starting where libavfilter's `scdet` sees a cut: best for a
    /// movie whose scenes have different colours (photos, clips).
    case perScene
    /// A palette for each frame: the best colours, at a larger file and with colours that may flicker.
    case perFrame
}

/// How a GIF shows colours between its palette's entries (libavfilter's `paletteuse` dithering).
public enum GIFDither: String, Sendable, CaseIterable, Codable {
    /// None: flat areas of the nearest colour (smallest files, banding in gradients).
    case none
    /// An ordered 8×8 Bayer pattern: steady from frame to frame, compresses well.
    case bayer
    /// Floyd–Steinberg error diffusion: fine, but noisy from frame to frame.
    case floydSteinberg
    /// Sierra Lite (`sierra2_4a`) error diffusion: close to Floyd–Steinberg, a little lighter
    /// (libavfilter's default).
    case sierraLite
    /// Sierra-2 error diffusion.
    case sierra2
    /// Heckbert's simple error diffusion.
    case heckbert

    /// paletteuse's name for it.
    var filterName: String {
        switch self {
        case .none: "none"
        case .bayer: "bayer"
        case .floydSteinberg: "floyd_steinberg"
        case .sierraLite: "sierra2_4a"
        case .sierra2: "sierra2"
        case .heckbert: "heckbert"
        }
    }
}

/// What an animated image was made at when `AnimatedImageSettings.maxFileSize` made it smaller.
public struct AnimatedImageFit: Sendable, Equatable, CustomStringConvertible {
    /// The frame rate written.
    public let frameRate: FrameRate
    /// The picture's width written, in pixels.
    public let width: Int
    /// The picture's height written, in pixels.
    public let height: Int
    /// A GIF's palette size, or a WebP's quality (0…100).
    public let colors: Int
    /// Whether `colors` is a WebP's quality rather than a GIF's palette size.
    public let isWebPQuality: Bool
    /// The budget it fits in, in bytes.
    public let maxFileSize: Int

    /// One line: what it was made at, e.g. "15 fps, 240×180, 128 colours to fit 5000000 bytes".
    public var description: String {
        "\(frameRate) fps, \(width)×\(height), " + (isWebPQuality ? "quality \(colors)" : "\(colors) colours") + " to fit \(maxFileSize) bytes"
    }
}

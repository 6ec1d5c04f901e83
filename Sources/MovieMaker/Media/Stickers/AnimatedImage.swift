import Foundation

/// A decoded animated image (or a still, as one frame shown forever): its frames as premultiplied
/// ARGB32 Cairo surfaces (`Image`), each with its exact duration, and how often the file asks to loop.
///
/// The owner of the decoded frames: they are freed with it. A sticker's frames are decoded when a
/// render opens its media and dropped when the render ends (see `StickerSource`). Frame `i` shows while
/// the animation's time is in [`starts[i]`, `starts[i] + durations[i]`).
///
/// Memory: every frame is a whole canvas, 4 bytes a pixel (a 480×480 GIF of 60 frames holds
/// 480 × 480 × 4 × 60 ≈ 55 MB). Decoding refuses a file whose frames would take more than
/// `memoryLimit` (256 MiB) or whose canvas is wider or taller than `maximumSide` (16384 px), with
/// `.imageTooLarge` naming the file and the limit, before that memory is allocated; frames are decoded
/// at (about) the size they are shown at when that is smaller than the file's.
final class AnimatedImage: Sendable {
    /// The most bytes the decoded frames of one image may take: 256 MiB.
    static let memoryLimit = 256 << 20
    /// The widest or tallest canvas accepted, in pixels (checked on the size the file declares,
    /// before anything is allocated).
    static let maximumSide = 16384
    /// What a frame that asks for no time at all lasts (as browsers show it): 1/10 s.
    static let defaultFrameDuration = Time(value: 1, timescale: 10)

    /// The frames, in order, all of one size.
    let frames: [Image]
    /// How long each frame shows (every one > 0).
    let durations: [Time]
    /// When each frame starts in the animation's time (`starts[0]` is 0).
    let starts: [Time]
    /// How long one play of the animation lasts (the sum of `durations`).
    let totalDuration: Time
    /// How many times the file asks the animation to play (0: forever; a still: 0).
    let loopCount: Int
    /// The file's canvas size in pixels (frames may be decoded smaller: `frameSize`).
    let naturalSize: Size

    /// An image of `frames` lasting `durations` (durations ≤ 0 count as `defaultFrameDuration`).
    init(frames: [Image], durations: [Time], loopCount: Int, naturalSize: Size) {
        precondition(!frames.isEmpty && frames.count == durations.count, "an animated image needs one duration per frame")
        self.frames = frames
        self.durations = durations.map { $0 > .zero ? $0 : Self.defaultFrameDuration }
        var starts: [Time] = []
        var t = Time.zero
        for d in self.durations { starts.append(t); t = t + d }
        self.starts = starts
        totalDuration = t
        self.loopCount = loopCount
        self.naturalSize = naturalSize
    }

    /// A still: one frame shown forever.
    convenience init(still image: Image, naturalSize: Size) {
        self.init(frames: [image], durations: [Self.defaultFrameDuration], loopCount: 0, naturalSize: naturalSize)
    }

    /// The size of the decoded frames in pixels.
    var frameSize: Size { frames[0].size }
    /// How many bytes the decoded frames take (4 per pixel).
    var byteCount: Int { frames.reduce(0) { $0 + $1.width * $1.height * 4 } }

    /// The frame shown at `time` of the animation's own time: looping forever when `loop`, otherwise
    /// played once and its last frame held. Exact: times are compared as rationals.
    func frameIndex(at time: Time, loop: Bool) -> Int {
        guard frames.count > 1, time > .zero else { return 0 }
        var t = time
        if t >= totalDuration {
            guard loop else { return frames.count - 1 }
            t = t - totalDuration * Int(t.quotient(dividingBy: totalDuration))
        }
        // The last start at or before t.
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The frame shown at `time` (see `frameIndex(at:loop:)`).
    func frame(at time: Time, loop: Bool) -> Image { frames[frameIndex(at: time, loop: loop)] }

    /// Throws `.imageTooLarge` when a canvas of `width`×`height` is beyond `maximumSide`.
    static func checkSide(width: Int, height: Int, path: String) throws(MovieMakerError) {
        guard width > 0, height > 0 else { throw .imageUnreadable(path: path, reason: "its header gives no size") }
        if width > maximumSide || height > maximumSide {
            throw .imageTooLarge(path: path, reason: "its canvas is \(width)×\(height) pixels, more than the \(maximumSide) pixels per side a sticker may have",
                                 limit: "\(maximumSide) pixels per side")
        }
    }

    /// What each decoded frame costs beyond its pixels (its image surface, pixman image and Swift
    /// object, the allocator's rounding), rounded up: without it, thousands of tiny frames passed the
    /// budget while taking hundreds of megabytes.
    static let frameOverhead = 8 << 10

    /// Throws `.imageTooLarge` when `frames` frames of `width`×`height` (4 bytes a pixel, plus
    /// `overhead` each: `frameOverhead` for decoded frames, 0 for a decoder's own canvases) would take
    /// more than `limit` bytes.
    static func checkMemory(frames: Int, width: Int, height: Int, path: String, limit: Int = memoryLimit,
                            overhead: Int = frameOverhead) throws(MovieMakerError) {
        let (pixels, overflow) = (width * height * 4 + overhead).multipliedReportingOverflow(by: frames)
        let bytes = overflow ? Int.max : pixels
        if bytes > limit {
            throw .imageTooLarge(path: path, reason: "\(frames) frames of \(width)×\(height) decoded would take \(Self.describe(bytes))\(overhead > 0 ? " (with \(Self.describe(overhead)) of bookkeeping a frame)" : ""), more than the \(Self.describe(limit)) a sticker may use (show it smaller, or use fewer frames)",
                                 limit: Self.describe(limit))
        }
    }

    /// A byte count in MiB (or KiB, or bytes, when smaller).
    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
            : bytes >= 1 << 10 ? String(format: "%.1f KiB", Double(bytes) / 1024) : "\(bytes) bytes"
    }

    /// The size a picture of `natural` size is shown at when `width` and/or `height` are asked for:
    /// both given, exactly that (stretched); one given, the other follows the aspect; none, `natural`.
    static func shownSize(natural: Size, width: Double?, height: Double?) -> Size {
        switch (width, height) {
        case let (w?, h?): return Size(width: max(0, w), height: max(0, h))
        case let (w?, nil): return Size(width: max(0, w), height: natural.width > 0 ? max(0, w) * natural.height / natural.width : 0)
        case let (nil, h?): return Size(width: natural.height > 0 ? max(0, h) * natural.width / natural.height : 0, height: max(0, h))
        case (nil, nil): return natural
        }
    }

    /// The size frames of a canvas `natural` are decoded at to be shown at `width`/`height` (see
    /// `shownSize`): reduced by one factor until they cover the shown size, when that is smaller
    /// (rounded up); the canvas otherwise (enlarging is left to drawing).
    static func decodeSize(natural: (width: Int, height: Int), width: Double?, height: Double?) -> (width: Int, height: Int) {
        let shown = shownSize(natural: Size(width: Double(natural.width), height: Double(natural.height)), width: width, height: height)
        guard shown.width > 0, shown.height > 0 else { return natural }
        let s = min(1, max(shown.width / Double(natural.width), shown.height / Double(natural.height)))
        guard s < 1 else { return natural }
        return (max(1, Int((Double(natural.width) * s - 1e-9).rounded(.up))), max(1, Int((Double(natural.height) * s - 1e-9).rounded(.up))))
    }

    /// `image` drawn at `width`×`height` (the same image when it already has that size).
    static func resized(_ image: Image, width: Int, height: Int) throws -> Image {
        guard image.width != width || image.height != height else { return image }
        let canvas = try Canvas(width: width, height: height)
        try canvas.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        canvas.surface.flush()
        return Image(surface: canvas.surface)
    }
}

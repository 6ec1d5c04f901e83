import Foundation

/// A place people post movies to, and what it wants: `render --for youtube` or a description's
/// `output.preset`. A preset sets the frame size and aspect, the frame rate, the codec (H.264) with a
/// bit-rate ceiling (x264's VBV `maxrate` and `bufsize` over its constant quality), a keyframe every
/// 2 seconds, the loudness the platform normalises to, the longest movie it takes (a longer one is
/// refused, naming the limit), and the safe area its app leaves uncovered, inside which titles,
/// captions and subtitles are kept.
///
/// The values follow each platform's published upload recommendations (checked 2026-11; they change,
/// and docs/OUTPUTS.md lists them with their sources).
public enum Platform: String, Sendable, CaseIterable, Codable {
    /// YouTube, landscape 16:9.
    case youtube
    /// YouTube Shorts, vertical 9:16.
    case youtubeShorts = "youtube-shorts"
    /// TikTok, vertical 9:16.
    case tiktok
    /// Instagram Reels, vertical 9:16.
    case instagramReel = "instagram-reel"
    /// An Instagram feed post, portrait 4:5.
    case instagramFeed = "instagram-feed"
    /// LinkedIn, landscape 16:9.
    case linkedin
    /// X (formerly Twitter), landscape 16:9.
    case x

    /// The frame width and height in pixels.
    public var size: (width: Int, height: Int) {
        switch self {
        case .youtube, .linkedin, .x: (1920, 1080)
        case .youtubeShorts, .tiktok, .instagramReel: (1080, 1920)
        case .instagramFeed: (1080, 1350)
        }
    }

    /// The frame rate a description without its own gets: 30 fps. A description's own rate is kept when
    /// the platform takes it (`acceptsFrameRate`).
    public static let defaultFrameRate: FrameRate = 30

    /// Whether the platform takes `rate` as it is: 24, 25, 30, 50 or 60 fps and their NTSC variants.
    public func acceptsFrameRate(_ rate: FrameRate) -> Bool {
        let fps = Double(rate.numerator) / Double(rate.denominator)
        return [24, 25, 30, 50, 60].contains { abs(fps - Double($0)) < 0.1 }
    }

    /// The ceiling on the video bit rate the platform recommends, in bits per second: no one-second
    /// window of the movie goes over it by more than 10 % (`encoderMaxBitrate`).
    public var maxBitrate: Int {
        switch self {
        case .youtube, .youtubeShorts: 12_000_000
        case .tiktok: 10_000_000
        case .instagramReel, .instagramFeed: 8_000_000
        case .linkedin: 10_000_000
        case .x: 12_000_000
        }
    }

    /// The VBV `maxrate` the encoder is given: 60 % of `maxBitrate`. With `encoderBufferSize` (50 %),
    /// the VBV model's worst second (`maxrate` plus a full buffer) stays within 110 % of the ceiling, so
    /// no one-second window of the movie exceeds it by more than that, whatever the content.
    public var encoderMaxBitrate: Int { maxBitrate * 6 / 10 }
    /// The VBV `bufsize` the encoder is given: 50 % of `maxBitrate` (see `encoderMaxBitrate`).
    public var encoderBufferSize: Int { maxBitrate / 2 }

    /// Seconds between keyframes: 2, which every one of these platforms asks for or accepts.
    public var keyframeSeconds: Int { 2 }

    /// The integrated loudness (LUFS) the sound is normalised to: −14, where these platforms normalise.
    public var loudness: Double { -14 }

    /// The longest movie the platform takes.
    public var maximumDuration: Time {
        switch self {
        case .youtube: Time(value: 12 * 3600, timescale: 1)
        case .youtubeShorts: Time(value: 180, timescale: 1)
        case .tiktok: Time(value: 600, timescale: 1)
        case .instagramReel: Time(value: 180, timescale: 1)
        case .instagramFeed: Time(value: 3600, timescale: 1)
        case .linkedin: Time(value: 900, timescale: 1)
        case .x: Time(value: 140, timescale: 1)
        }
    }

    /// The part of the frame the platform's own buttons and captions leave clear, as fractions of the
    /// width and height from each edge (top, left, bottom, right).
    public var safeInsets: (top: Double, left: Double, bottom: Double, right: Double) {
        switch self {
        case .youtube, .linkedin, .x: (0.05, 0.05, 0.05, 0.05)
        case .instagramFeed: (0.06, 0.06, 0.10, 0.06)
        case .youtubeShorts: (0.12, 0.06, 0.25, 0.15)
        case .tiktok: (0.12, 0.06, 0.26, 0.15)
        case .instagramReel: (0.12, 0.06, 0.24, 0.15)
        }
    }

    /// The safe area in a `width`×`height` frame.
    public func safeArea(width: Int, height: Int) -> Rect {
        let i = safeInsets, w = Double(width), h = Double(height)
        return Rect(x: w * i.left, y: h * i.top, width: w * (1 - i.left - i.right), height: h * (1 - i.top - i.bottom))
    }

    /// The name people write: `youtube`, `youtube-shorts`, …
    public var name: String { rawValue }

    /// How people call it in a sentence.
    var title: String {
        switch self {
        case .youtube: "YouTube"
        case .youtubeShorts: "YouTube Shorts"
        case .tiktok: "TikTok"
        case .instagramReel: "Instagram Reels"
        case .instagramFeed: "Instagram feed posts"
        case .linkedin: "LinkedIn"
        case .x: "X"
        }
    }
}

internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// The container a movie is written in, chosen from the destination's extension.
public enum Container: String, Sendable, CaseIterable {
    /// MPEG-4 (`.mp4`, `.m4v`): plays in every browser; written with `moov` before `mdat` (faststart).
    case mp4
    /// QuickTime (`.mov`), also with `moov` first. With `EncoderSettings.transparency`, ProRes 4444 with alpha.
    case mov
    /// Matroska (`.mkv`). Its timestamps are whole milliseconds, so 30000/1001 fps is rounded there.
    case mkv
    /// WebM (`.webm`): VP9 (or AV1), with an alpha channel (VP9) when `EncoderSettings.transparency` is set.
    case webm
    /// An animated GIF (`.gif`): see `AnimatedImageSettings`.
    case gif
    /// An animated PNG (`.apng`).
    case apng
    /// An animated WebP (`.webp`).
    case webp
    /// An HLS stream: a folder holding `playlist.m3u8` (VOD), the fMP4 initialisation segment `init.mp4`
    /// and media segments `segment-00000.m4s`, … each starting with a keyframe: see `MovieMaker(hlsIn:…)`.
    case hls
    /// A folder of numbered PNG files (`frame-00001.png`, …), one per frame: see `MovieMaker(pngSequenceIn:…)`.
    case pngSequence

    /// The extensions MovieMaker writes.
    package static let supportedExtensions = ["mp4", "m4v", "mov", "mkv", "webm", "gif", "apng", "webp"]

    /// The container for a file extension (case-insensitive), or nil when none fits.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        case "gif": self = .gif
        case "apng": self = .apng
        case "webp": self = .webp
        default: return nil
        }
    }
    /// libavformat's muxer name.
    var muxerName: String {
        switch self {
        case .mkv: "matroska"
        case .pngSequence: "image2"
        default: rawValue
        }
    }
    /// The codecs it holds, the one chosen by default first.
    var videoCodecs: [VideoCodec] {
        switch self {
        case .mp4: [.h264, .hevc, .av1, .vp9]
        case .mov: [.h264, .hevc, .proRes4444]
        case .mkv: [.h264, .hevc, .av1, .vp9, .proRes4444]
        case .webm: [.vp9, .av1]
        case .pngSequence: [.png]
        case .hls: [.h264, .hevc]
        case .gif: [.gif]
        case .apng: [.apng]
        case .webp: [.webp]
        }
    }

    /// The codec this container gets: `requested`, or with none asked for, the container's choice with
    /// or without an alpha channel. Throws when it cannot hold the codec or the alpha channel.
    package func videoCodec(_ requested: VideoCodec? = nil, transparency: Bool, fileExtension ext: String) throws(MovieMakerError) -> VideoCodec {
        guard let requested else {
            switch (self, transparency) {
            case (.webm, _): return .vp9
            case (.pngSequence, _): return .png
            case (.hls, true): throw .invalidSetting(.videoCodec, value: "an HLS stream with transparency", expected: "an opaque stream (HLS carries H.264 or HEVC, neither with alpha)")
            case (.hls, false): return .h264
            case (.gif, true): throw .invalidSetting(.videoCodec, value: "gif with transparency", expected: "an opaque GIF, or .apng or .webp for an animated image with an alpha channel")
            case (.gif, false): return .gif
            case (.apng, _): return .apng
            case (.webp, _): return .webp
            case (_, false): return .h264
            case (.mov, true): return .proRes4444
            case (.mkv, true): return .vp9
            case (.mp4, true): throw .transparencyUnsupported(extension: ext)
            }
        }
        guard videoCodecs.contains(requested) else {
            let holders = [Container.mp4, .mov, .mkv, .webm].filter { $0.videoCodecs.contains(requested) }.map { ".\($0.rawValue)" }
            // An HLS stream is a folder: it has no extension to name.
            let box = self == .hls ? "an HLS stream" : ".\(ext)"
            throw .invalidSetting(.videoCodec, value: "\(requested.messageName) in \(box)",
                                  expected: "one of the codecs \(box) holds (\(videoCodecs.map(\.messageName).joined(separator: ", ")))" + (holders.isEmpty ? "" : ", or a \(holders.joined(separator: "/")) file for \(requested.messageName)"))
        }
        // VP9's alpha travels as Matroska side data, which the MP4 muxer drops: the file came out opaque.
        if transparency && self == .mp4 { throw .transparencyUnsupported(extension: ext) }
        if transparency && !requested.holdsAlpha {
            throw .invalidSetting(.videoCodec, value: requested.messageName,
                                  expected: "a codec with an alpha channel for transparency: proRes4444 (prores, .mov), vp9 (.webm, .mkv) or a PNG sequence")
        }
        return requested
    }
}

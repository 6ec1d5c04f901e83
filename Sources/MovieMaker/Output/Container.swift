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
    /// WebM (`.webm`): always VP9, with an alpha channel when `EncoderSettings.transparency` is set.
    case webm
    /// A folder of numbered PNG files (`frame-00001.png`, …), one per frame: see `MovieMaker(pngSequenceIn:…)`.
    case pngSequence

    /// The extensions MovieMaker writes.
    package static let supportedExtensions = ["mp4", "m4v", "mov", "mkv", "webm"]

    /// The container for a file extension (case-insensitive), or nil when none fits.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
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
    /// The codec this container gets, with or without an alpha channel; throws when it cannot hold alpha.
    func videoCodec(transparency: Bool, fileExtension ext: String) throws(MovieMakerError) -> VideoCodec {
        switch (self, transparency) {
        case (.webm, _): return .vp9
        case (.pngSequence, _): return .png
        case (_, false): return .h264
        case (.mov, true): return .proRes4444
        case (.mkv, true): return .vp9
        case (.mp4, true): throw .transparencyUnsupported(extension: ext)
        }
    }
}

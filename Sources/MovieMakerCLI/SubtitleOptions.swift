import ArgumentParser
import Foundation
import MovieMaker

/// `--subtitles FILE` and `--subtitle-style outline|box`: subtitles burned into the whole movie, shared
/// by `stitch` and `render`. The file is read before any other work; a malformed one is a usage error
/// (exit 64) whose line names the file and the line number.
struct SubtitleOptions: ParsableArguments {
    /// The look of the subtitles.
    enum Look: String, ExpressibleByArgument, CaseIterable {
        /// White text with a black outline.
        case outline
        /// White text on a translucent black box.
        case box
    }

    /// The subtitle file.
    @Option(help: ArgumentHelp("Burn in subtitles from an SRT (.srt) or WebVTT (.vtt) file, timed from the movie's start; cues stay inside the title-safe area.",
                               valueName: "file"))
    var subtitles: String?

    /// The subtitles' look.
    @Option(help: ArgumentHelp("How subtitles stand out: outline (white text, black outline) or box (white text on a translucent black box).",
                               valueName: "look"))
    var subtitleStyle: Look = .outline

    /// Checks the file exists.
    func validate() throws {
        guard let subtitles else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: subtitles, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError("--subtitles \(subtitles): no such file (give an .srt or .vtt file)")
        }
    }

    /// The subtitle track, read now (nil without `--subtitles`); a malformed file throws `.invalidSubtitles`.
    func load() throws -> SubtitleTrack? {
        guard let subtitles else { return nil }
        return try SubtitleTrack(contentsOf: URL(fileURLWithPath: subtitles))
    }

    /// The style `--subtitle-style` names.
    var style: SubtitleStyle { subtitleStyle == .box ? .boxed : SubtitleStyle() }
}

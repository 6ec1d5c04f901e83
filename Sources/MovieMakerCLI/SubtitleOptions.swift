import ArgumentParser
import Foundation
import MovieMaker

extension CaptionStyle.Animation: ExpressibleByArgument {}

/// `--subtitles FILE` and `--subtitle-style outline|box`, `--captions FILE` and `--caption-style NAME`:
/// subtitles and word-by-word captions burned into the whole movie, shared by `stitch` and `render`.
/// The files are read before any other work; a malformed one is a usage error (exit 64) whose line
/// names the file and the line number or JSON path.
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

    /// The transcript for word-by-word captions.
    @Option(help: ArgumentHelp("Burn in word-by-word captions from a transcript: whisper or faster-whisper JSON with word timestamps, whisper.cpp full JSON (-ojf), WebVTT with karaoke timestamps, or a plain SRT/WebVTT (words spread over each cue), timed from the movie's start.",
                               valueName: "file"))
    var captions: String?

    /// How the spoken word is shown.
    @Option(help: ArgumentHelp("How captions mark the spoken word: highlight, karaoke, pop, reveal or bounce.", valueName: "name"))
    var captionStyle: CaptionStyle.Animation = .highlight

    /// Checks the files exist.
    func validate() throws {
        for (flag, file, hint) in [("--subtitles", subtitles, "an .srt or .vtt file"), ("--captions", captions, "a whisper .json, an .srt or a .vtt file")] {
            guard let file else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InputError("\(flag) \(file): no such file (give \(hint))")
            }
        }
    }

    /// What is burned in: read now, so a malformed file stops the run before any other work.
    struct BurnIn {
        /// The subtitles, if asked for.
        let subtitles: SubtitleTrack?
        /// The subtitle file as given.
        var subtitlesPath: String? = nil
        /// The captions' words, if asked for.
        let captions: Transcript?
        /// How each looks.
        let subtitleStyle: SubtitleStyle, captionStyle: CaptionStyle

        /// Whether nothing is burned in.
        var isEmpty: Bool { subtitles == nil && captions == nil }

        /// Warns when subtitles will not show: a file without cues, or cues that start after the movie's
        /// end (subtitles timed against one clip rather than the joined movie, a common slip).
        func warnAboutTiming(movieLength: Time) {
            guard let subtitles, let path = subtitlesPath else { return }
            func warn(_ text: String) { Terminal.writeError("moviemaker: warning: \(text)\n") }
            guard !subtitles.cues.isEmpty else { return warn("--subtitles \(path) has no cues: nothing is burned in") }
            let late = subtitles.cues.filter { $0.start >= movieLength }
            guard let first = late.map(\.start).min() else { return }
            let end = String(format: "%.2f", movieLength.seconds), from = String(format: "%.2f", first.seconds)
            if late.count == subtitles.cues.count {
                warn("every cue of --subtitles \(path) starts after the movie ends (at \(end) s; the first at \(from) s): none is shown. "
                     + "Are they timed against one clip rather than the finished movie?")
            } else {
                warn("\(late.count) of the \(subtitles.cues.count) cues of --subtitles \(path) start after the movie ends (at \(end) s; the first of them at \(from) s): they are not shown")
            }
        }

        /// `clip` with the subtitles and captions over it, placed by `place` (a platform's safe area).
        func apply(to clip: Clip, placing place: (Clip) throws -> Clip = { $0 }) throws -> Clip {
            // One overlay per layer, as `subtitled(_:)` and `captioned(_:)` make them.
            var c = clip
            if let subtitles { c = Clip.overlay(c, try place(Clip.subtitles(subtitles, style: subtitleStyle, duration: clip.duration))) }
            if let captions { c = Clip.overlay(c, try place(Clip.captions(captions, style: captionStyle, duration: clip.duration))) }
            return c
        }
    }

    /// The subtitles and captions, read now; a malformed file throws `.invalidSubtitles`.
    func load() throws -> BurnIn {
        BurnIn(subtitles: try subtitles.map { try SubtitleTrack(contentsOf: URL(fileURLWithPath: $0)) }, subtitlesPath: subtitles,
               captions: try captions.map { try Transcript(contentsOf: URL(fileURLWithPath: $0)) },
               subtitleStyle: style, captionStyle: CaptionStyle(captionStyle))
    }

    /// The files burned in (inputs a render must not overwrite).
    var files: [URL] { [subtitles, captions].compactMap { $0.map { URL(fileURLWithPath: $0) } } }

    /// What the options add to a render's identity (chunk hashes), nil when nothing.
    var identity: String? {
        let parts = [subtitles.map { _ in "subtitles \(subtitleStyle.rawValue)" }, captions.map { _ in "captions \(captionStyle.rawValue)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The style `--subtitle-style` names.
    var style: SubtitleStyle { subtitleStyle == .box ? .boxed : SubtitleStyle() }
}

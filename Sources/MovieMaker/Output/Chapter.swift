import Foundation

/// A chapter of a movie: a titled point that players list and jump to. Written into MP4 and MOV (a
/// QuickTime chapter track, and Nero `chpl` in MP4) and Matroska/WebM (`Chapters`) by
/// `MovieMaker.setChapters(_:)`; each lasts until the next one starts, the last to the movie's end.
/// A description file's `markers` become its chapters.
public struct Chapter: Sendable, Hashable, Codable {
    /// What players show.
    public var title: String
    /// Where it starts, in movie time.
    public var start: Time

    /// A chapter `title` starting at `start`.
    public init(_ title: String, at start: Time) {
        self.title = title; self.start = start
    }

    /// Throws unless `chapters` are in order, start at distinct times from 0 on (before `end`, when
    /// given), and have titles; the error names the first that is not.
    static func validate(_ chapters: [Chapter], end: Time?) throws(MovieMakerError) {
        for (i, chapter) in chapters.enumerated() {
            if chapter.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw .invalidSetting(.chapters, value: "chapter \(i) at \(chapter.start.seconds) s has no title", expected: "a title for every chapter")
            }
            if chapter.start < .zero {
                throw .invalidSetting(.chapters, value: "\"\(chapter.title)\" at \(chapter.start.seconds) s", expected: "chapters from 0 s on")
            }
            if let end, !(chapter.start < end) {
                throw .invalidSetting(.chapters, value: "\"\(chapter.title)\" at \(chapter.start.seconds) s",
                                      expected: "chapters that start before the movie ends (\(end.seconds) s)")
            }
            if i > 0, !(chapters[i - 1].start < chapter.start) {
                throw .invalidSetting(.chapters, value: "\"\(chapter.title)\" at \(chapter.start.seconds) s after \"\(chapters[i - 1].title)\" at \(chapters[i - 1].start.seconds) s",
                                      expected: "chapters in order of their start, each at its own time")
            }
        }
    }

    /// The chapters as a WebVTT chapters file (`kind="chapters"` in HTML, the chapters of an HLS
    /// stream): one cue per chapter from its start to the next one's (the last to `end`), titled.
    public static func webVTT(_ chapters: [Chapter], end: Time) -> String {
        var text = "WEBVTT\n"
        for (i, chapter) in chapters.enumerated() {
            let stop = i + 1 < chapters.count ? chapters[i + 1].start : end
            // A cue's text ends at a blank line, and "-->" would read as a timing line.
            let title = chapter.title.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "-->", with: "→")
            text += "\n\(i + 1)\n\(vttTime(chapter.start)) --> \(vttTime(stop))\n\(title)\n"
        }
        return text
    }

    /// The chapters as the lines YouTube reads from a video's description: `0:00 Intro`, `1:20 Part two`
    /// (whole seconds, rounded down; hours when the movie has them).
    public static func youTubeLines(_ chapters: [Chapter]) -> [String] {
        let hours = chapters.contains { $0.start.seconds >= 3600 }
        return chapters.map { chapter in
            let s = Int(chapter.start.seconds.rounded(.down))
            let stamp = hours ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
            return "\(stamp) \(chapter.title.replacingOccurrences(of: "\n", with: " "))"
        }
    }

    /// What keeps YouTube from showing `chapters` as chapters (its rules: the first at 0:00, at least
    /// three, each at least 10 seconds long), or nil when nothing does.
    public static func youTubeProblem(_ chapters: [Chapter], end: Time) -> String? {
        if chapters.first?.start != .zero { return "YouTube needs the first chapter at 0:00" }
        if chapters.count < 3 { return "YouTube needs at least three chapters (there \(chapters.count == 1 ? "is" : "are") \(chapters.count))" }
        for (i, chapter) in chapters.enumerated() {
            let stop = i + 1 < chapters.count ? chapters[i + 1].start : end
            if (stop - chapter.start).seconds < 10 { return "YouTube needs every chapter to last 10 seconds or more (\"\(chapter.title)\" lasts \(String(format: "%.1f", (stop - chapter.start).seconds)) s)" }
        }
        return nil
    }

    /// `hh:mm:ss.ttt`, rounded to the millisecond.
    private static func vttTime(_ t: Time) -> String {
        let ms = (t.value * 2000 + t.timescale) / (2 * t.timescale)
        return String(format: "%02lld:%02lld:%02lld.%03lld", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}

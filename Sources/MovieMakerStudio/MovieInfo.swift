import Foundation
import MovieMaker

/// What `GET /api/movie` answers: the file's state and, once it has loaded, the movie as the page draws
/// it (settings, tracks and items with exact frame ranges, slots, warnings).
struct MovieInfo: Codable, Sendable {
    /// The load's number (it goes up on every reload).
    var version: Int
    /// The file's name.
    var file: String
    /// `description` or `script`.
    var kind: String
    /// Whether the file as it is now loaded without error.
    var ok: Bool
    /// What is wrong with it now.
    var error: StudioProblem?
    /// The last version that loaded (kept while the file is broken).
    var movie: Movie?
    /// The render started from the page, if any.
    var render: RenderJob.Status?
    /// The frame cache's state.
    var cache: Cache?

    /// How full the frame cache is, and how well it serves.
    struct Cache: Codable, Sendable {
        /// Frames held, and their bytes.
        var frames: Int
        var bytes: Int
        /// Lookups that found their frame, and that did not.
        var hits: Int
        var misses: Int
    }

    /// A frame rate as the exact fraction `numerator / denominator` frames per second.
    struct Rate: Codable, Sendable {
        /// Frames…
        var numerator: Int
        /// …per this many seconds.
        var denominator: Int
    }

    /// The movie.
    struct Movie: Codable, Sendable {
        var width: Int
        var height: Int
        var fps: Rate
        var frameCount: Int
        /// The duration in seconds (for display; frames are exact).
        var duration: Double
        var tracks: [Track]
        /// The captions' words where the movie shows them (the first 2,000), for the timeline's words row.
        var words: [Word] = []
        var slots: [Slot]
        var output: Output
        var warnings: [String]
        /// The key frames of this version are cached under.
        var treeKey: String
        /// Whether the movie has sound.
        var hasSound: Bool
    }

    /// One track: a row of the timeline.
    struct Track: Codable, Sendable {
        var index: Int
        var kind: String
        var name: String?
        var items: [Item]
    }

    /// One item: a block on its track's row.
    struct Item: Codable, Sendable {
        /// Its JSON path, `tracks[0].items[2]`.
        var path: String
        var type: String
        var name: String?
        /// The first frame it shows in, and the frame after its last.
        var startFrame: Int
        var endFrame: Int
        /// Where it starts and how long it plays, in seconds.
        var start: Double
        var duration: Double
        var what: String
        var detail: String
        /// The transition out of it into the next item (the two overlap), if any.
        var transition: String?
    }

    /// A word of the captions, in movie time (seconds).
    struct Word: Codable, Sendable {
        var text: String
        var start: Double
        var end: Double
    }

    /// A template slot and what fills it.
    struct Slot: Codable, Sendable {
        var name: String
        var kind: String
        var description: String?
        /// Its default, as text (a file path, a text or a colour).
        var defaultValue: String?
        /// The value set on the page, if any.
        var value: String?
    }

    /// The output settings.
    struct Output: Codable, Sendable {
        var size: String
        var crf: Int
        var preset: String
        var lossless: Bool
        var transparent: Bool
        /// The platform preset's safe area (`output.preset`), which the page can draw over the frame.
        var safeArea: SafeArea? = nil
    }

    /// A platform's safe area as fractions of the frame (`Platform.safeInsets`), named after it.
    struct SafeArea: Codable, Sendable {
        var platform: String
        var left: Double
        var top: Double
        var width: Double
        var height: Double
    }
}

extension MovieInfo.Movie {
    /// The movie of a loaded description, with the slot values set on the page.
    init(_ loaded: StudioProject.Loaded, slotValues: [String: String]) {
        let c = loaded.composition
        let rate = c.frameRate
        width = c.width
        height = c.height
        fps = MovieInfo.Rate(numerator: rate.numerator, denominator: rate.denominator)
        frameCount = c.frameCount
        duration = c.duration.seconds
        var tracks = loaded.timeline.tracks.enumerated().map { index, track in
            MovieInfo.Track(index: index, kind: track.kind.rawValue, name: track.name, items: [])
        }
        for item in c.plan {
            guard let (t, i) = Self.trackAndItem(item.path), tracks.indices.contains(t) else { continue }
            let spec = loaded.timeline.tracks[t].items.indices.contains(i) ? loaded.timeline.tracks[t].items[i] : nil
            let end = item.start + item.duration
            tracks[t].items.append(MovieInfo.Item(
                path: item.path, type: item.type, name: item.name ?? spec?.label, startFrame: rate.frameIndex(at: item.start),
                endFrame: rate.frameCount(for: end), start: item.start.seconds, duration: item.duration.seconds,
                what: item.what, detail: item.detail, transition: spec?.transition.flatMap { $0.name == "none" ? nil : $0.name }))
        }
        self.tracks = tracks
        words = Self.captionWords(of: c.picture)
        slots = loaded.template.slots.keys.sorted().map { name in
            let slot = loaded.template.slots[name]!
            return MovieInfo.Slot(name: name, kind: slot.kind.rawValue, description: slot.description,
                                  defaultValue: slot.default.map(Self.text), value: slotValues[name])
        }
        output = MovieInfo.Output(size: "\(c.width)x\(c.height)", crf: c.encoderSettings.crf(for: c.encoderSettings.codec ?? .h264), preset: c.encoderSettings.preset.rawValue,
                                  lossless: c.encoderSettings.lossless, transparent: c.encoderSettings.transparency)
        if let platform = loaded.timeline.output.preset {
            let i = platform.safeInsets
            output.safeArea = MovieInfo.SafeArea(platform: platform.rawValue, left: i.left, top: i.top,
                                                 width: 1 - i.left - i.right, height: 1 - i.top - i.bottom)
        }
        warnings = c.warnings
        treeKey = loaded.treeKey
        hasSound = c.audioSettings != nil
    }

    /// The movie of a Swift script: one video track with one block, the script, over every frame (the
    /// studio sees a script's frames, not its structure); its settings as the script's first movie has them.
    init(script: ScriptMovie, file: URL) {
        let m = script.movie, rate = script.frameRate
        width = m.width
        height = m.height
        fps = MovieInfo.Rate(numerator: m.fpsNumerator, denominator: m.fpsDenominator)
        frameCount = m.frameCount
        let seconds = rate.time(ofFrame: m.frameCount).seconds
        duration = seconds
        tracks = [MovieInfo.Track(index: 0, kind: "video", name: "Script", items: [
            MovieInfo.Item(path: "script", type: "script", name: file.lastPathComponent, startFrame: 0, endFrame: m.frameCount,
                           start: 0, duration: seconds, what: "Swift script",
                           detail: "\(m.frameCount) frames drawn by \(file.lastPathComponent), written to \(m.path)", transition: nil),
        ])]
        slots = []
        output = MovieInfo.Output(size: "\(m.width)x\(m.height)", crf: m.crf, preset: m.preset, lossless: m.lossless, transparent: m.transparent)
        warnings = m.hasSound ? ["the script's sound plays in its render only: the studio previews its pictures"] : []
        treeKey = script.key
        hasSound = false
    }

    /// The words every captions leaf of `picture` shows, where the movie shows them (a word cut by its
    /// leaf's range keeps the part shown), sorted by start, at most 2,000.
    static func captionWords(of picture: Clip) -> [MovieInfo.Word] {
        var words: [MovieInfo.Word] = []
        for placement in picture.leafPlacements {
            guard case let .generator(.captions(leaf), _) = placement.clip.node else { continue }
            let shown = placement.range, local = placement.localRange
            guard local.duration > .zero else { continue }
            // A speed change above the leaf shows its own time faster or slower than the movie's.
            let scale = shown.duration.seconds / local.duration.seconds
            for w in leaf.transcript.words {
                let start = shown.start.seconds + (w.start - local.start).seconds * scale
                let end = shown.start.seconds + (w.end - local.start).seconds * scale
                let a = max(start, shown.start.seconds), b = min(end, shown.end.seconds)
                guard b > a else { continue }
                words.append(MovieInfo.Word(text: w.text, start: a, end: b))
            }
        }
        return Array(words.sorted { $0.start < $1.start }.prefix(2_000))
    }

    /// `(0, 2)` for `tracks[0].items[2]`; nil for any other path.
    static func trackAndItem(_ path: String) -> (Int, Int)? {
        let parts = path.split(whereSeparator: { "[].".contains($0) })
        guard parts.count == 4, parts[0] == "tracks", parts[2] == "items", let t = Int(parts[1]), let i = Int(parts[3]) else { return nil }
        return (t, i)
    }

    /// A slot value as the page shows it.
    static func text(_ value: Timeline.SlotValue) -> String {
        switch value {
        case let .file(path): path
        case let .text(text): text
        case let .color(color): color.text
        }
    }
}

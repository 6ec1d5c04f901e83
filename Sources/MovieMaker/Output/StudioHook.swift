import Foundation
import Synchronization

/// How `moviemaker studio` watches a Swift script's movie without knowing its code: it runs the
/// compiled script with two environment variables, and the script's first `MovieMaker` obeys them.
///
/// - `MOVIEMAKER_STUDIO_DIR`: a folder the studio made for this run.
/// - `MOVIEMAKER_STUDIO_MODE`:
///   - `preview FRAMES SCALE` (e.g. `preview 0..<30,120 0.5`; FRAMES may be `-` for none): nothing is
///     encoded and nothing is written at the movie's destination. Frames are counted; the frames listed
///     are drawn exactly as a render draws them and written as `frame-N.png` (N the movie's frame index)
///     at SCALE of the movie's size, each renamed into place when complete. Serial frames after the
///     last one listed are counted but not drawn (their closures are not called), and clips render only
///     the frames listed (plus their last frame when a later frame is listed, which a serial frame may
///     build on). `finish()` writes `movie.json` (size, rate, frame count, destination, sound).
///   - `render`: the movie renders as usual, and also writes `progress` (`FRAMES TOTAL`, at most ten
///     times a second) and, when finished, `movie.json`.
///
/// Only the first `MovieMaker` a process creates takes the hook; in `preview` mode later ones are
/// counted (nothing encoded, nothing captured, nothing written), in `render` mode they render as usual.
/// Without the variables nothing changes. Other files a script writes itself (stills, logs) are written
/// as usual in either mode.
///
/// `package` access, for `moviemaker studio`: the variables, the
/// `movie.json` format and the cleanup after a killed render are the studio's side of this protocol.
package struct StudioHook: Sendable {
    /// What the run is for.
    enum Mode: Sendable, Equatable {
        /// Count frames and capture `frames` at `scale`; encode nothing.
        case preview(frames: [Range<Int>], scale: Double)
        /// Render as usual, reporting progress.
        case render
    }

    /// The folder the studio reads.
    let folder: URL
    /// The mode.
    let mode: Mode

    /// The environment variable naming the folder.
    package static let folderVariable = "MOVIEMAKER_STUDIO_DIR"
    /// The environment variable giving the mode.
    package static let modeVariable = "MOVIEMAKER_STUDIO_MODE"

    /// The hook this process was started with, or the error in its variables; nil without them.
    static let fromEnvironment: Result<StudioHook, MovieMakerError>? = parse(ProcessInfo.processInfo.environment)

    /// Whether a `MovieMaker` has taken the hook.
    private static let claimed = Atomic<Bool>(false)

    /// The hook for a new movie: `.first` for the process's first movie, `.later` for the others, nil
    /// when the process has no hook. Throws when the variables are malformed.
    static func claim() throws(MovieMakerError) -> (hook: StudioHook, first: Bool)? {
        switch fromEnvironment {
        case nil: return nil
        case let .failure(error): throw error
        case let .success(hook):
            let first = claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
            return (hook, first)
        }
    }

    /// The hook `environment` describes; nil when it has neither variable.
    static func parse(_ environment: [String: String]) -> Result<StudioHook, MovieMakerError>? {
        let folder = environment[folderVariable], modeText = environment[modeVariable]
        guard folder != nil || modeText != nil else { return nil }
        func bad(_ value: String, _ expected: String) -> Result<StudioHook, MovieMakerError> {
            .failure(.invalidSetting(.studioHook, value: value, expected: expected))
        }
        guard let folder, !folder.isEmpty else {
            return bad("\(folderVariable) unset", "both \(folderVariable) (a folder) and \(modeVariable) set, as moviemaker studio sets them")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return bad("\(folderVariable)=\(folder)", "an existing folder")
        }
        let parts = (modeText ?? "").split(separator: " ")
        switch parts.first {
        case "render" where parts.count == 1:
            return .success(StudioHook(folder: URL(fileURLWithPath: folder), mode: .render))
        case "preview" where parts.count == 3:
            guard let frames = parseFrames(String(parts[1])) else {
                return bad("\(modeVariable)=\(modeText ?? "")", "frames as `-` or comma-separated indices and ranges, e.g. 0..<30,120")
            }
            guard let scale = Double(parts[2]), scale.isFinite, scale > 0, scale <= 1 else {
                return bad("\(modeVariable)=\(modeText ?? "")", "a scale more than 0 and at most 1")
            }
            return .success(StudioHook(folder: URL(fileURLWithPath: folder), mode: .preview(frames: frames, scale: scale)))
        default:
            return bad("\(modeVariable)=\(modeText ?? "")", "`render`, or `preview FRAMES SCALE` (e.g. `preview 0..<30,120 0.5`)")
        }
    }

    /// `-` as none, else comma-separated `N` and `A..<B` (non-negative, A ≤ B); nil when malformed.
    static func parseFrames(_ text: String) -> [Range<Int>]? {
        if text == "-" { return [] }
        var ranges: [Range<Int>] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            if let index = Int(part), index >= 0, index < Int.max {
                ranges.append(index..<(index + 1))
            } else if let dots = part.range(of: "..<"), let a = Int(part[..<dots.lowerBound]), let b = Int(part[dots.upperBound...]), a >= 0, a <= b {
                ranges.append(a..<b)
            } else {
                return nil
            }
        }
        return ranges
    }

    /// `frames` as `parseFrames` reads them (`-` for none).
    package static func framesText(_ frames: [Range<Int>]) -> String {
        frames.isEmpty ? "-" : frames.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ",")
    }

    /// What `movie.json` holds: the movie as its first `MovieMaker` made (or counted) it.
    package struct MovieFile: Codable, Sendable, Equatable {
        /// Drawing width in pixels.
        package var width: Int
        /// Drawing height in pixels.
        package var height: Int
        /// The frame rate's numerator (frames…).
        package var fpsNumerator: Int
        /// …per this many seconds.
        package var fpsDenominator: Int
        /// Frames added.
        package var frameCount: Int
        /// The movie's destination (not written in `preview` mode).
        package var path: String
        /// Whether sound was added (or the sound track asked for).
        package var hasSound: Bool
        /// The encoder settings' quality, preset, losslessness and transparency.
        package var crf: Int
        package var preset: String
        package var lossless: Bool
        package var transparent: Bool
    }

    /// Removes, from `folder`, the hidden partial files of renders whose process has ended on this host
    /// (a script render the studio killed leaves its partial file; this is what the next render there
    /// would remove anyway). Returns the names removed.
    @discardableResult
    package static func removeStalePartialFiles(in folder: URL) -> [String] { PartialFiles.removeStale(in: folder) }

    /// Writes `data` to `name` in the folder: a hidden file renamed into place, so a reader never sees part of it.
    func write(_ data: Data, to name: String) throws(MovieMakerError) {
        let final = folder.appendingPathComponent(name)
        let partial = folder.appendingPathComponent(".\(name).partial")
        do {
            try data.write(to: partial)
        } catch {
            throw .destinationNotWritable(path: folder.path, reason: "cannot write \(partial.lastPathComponent) for moviemaker studio: \(error.localizedDescription)")
        }
        guard rename(partial.path, final.path) == 0 else {
            throw .destinationNotWritable(path: final.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `movie.json`.
    func writeMovie(_ movie: MovieFile) throws(MovieMakerError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(movie) } catch { throw .destinationNotWritable(path: folder.path, reason: "\(error)") }
        try write(data, to: "movie.json")
    }
}

/// The frames a studio preview captures, for one `MovieMaker` (see `StudioHook`).
final class PreviewCapture {
    // Not Sendable: used from the movie's drawing thread only.
    /// The hook.
    let hook: StudioHook
    /// The frames to capture, as sorted, merged ranges of movie frame indices (empty for a later movie).
    let wanted: [Range<Int>]
    /// The size frames are written at.
    let scale: Double
    /// Whether sound was added.
    var hasSound = false
    /// Whether this is the process's first movie (which writes `movie.json`).
    let isFirst: Bool

    /// A capture for the movie taking `hook` (`first`) or a later movie (captures nothing).
    init(hook: StudioHook, first: Bool) {
        self.hook = hook
        isFirst = first
        if case let .preview(frames, scale) = hook.mode, first {
            var merged: [Range<Int>] = []
            for range in frames.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = merged.last, range.lowerBound <= last.upperBound {
                    merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            wanted = merged
            self.scale = scale
        } else {
            wanted = []
            scale = 1
        }
    }

    /// Whether movie frame `index` is to be captured.
    func wants(_ index: Int) -> Bool { wanted.contains { $0.contains(index) } }
    /// The frames of `range` (movie indices) to capture.
    func wanted(in range: Range<Int>) -> [Int] { wanted.flatMap { $0.clamped(to: range) } }
    /// Whether a frame after `index` is to be captured.
    func wantsAny(after index: Int) -> Bool { (wanted.last?.upperBound ?? 0) > index + 1 }

    /// Writes `pixels` as movie frame `index`: `frame-INDEX.png`, at the capture's scale.
    func capture(_ pixels: PixelBuffer, index: Int) throws(MovieMakerError) {
        let image = try Image(pixels)
        let name = "frame-\(index).png"
        let final = hook.folder.appendingPathComponent(name), partial = hook.folder.appendingPathComponent(".\(name).partial")
        if scale == 1 {
            try image.writePNG(to: partial)
        } else {
            let width = max(1, Int((Double(pixels.width) * scale).rounded())), height = max(1, Int((Double(pixels.height) * scale).rounded()))
            let canvas = try Canvas(width: width, height: height)
            do {
                try canvas.draw { $0.draw(image, in: Rect(x: 0, y: 0, width: Double(width), height: Double(height))) }
            } catch let error as MovieMakerError {
                throw error
            } catch {
                throw MovieMakerError(code: .cairo, message: "could not scale frame \(index) for the studio: \(error)")
            }
            try canvas.writePNG(to: partial)
        }
        guard rename(partial.path, final.path) == 0 else {
            throw .destinationNotWritable(path: final.path, reason: String(cString: strerror(errno)))
        }
    }
}

/// What the studio is told while it runs a script to render it: progress (`FRAMES TOTAL`, at most every
/// 0.1 s) and, at the end, `movie.json`. Failures are ignored: progress is a courtesy, the movie is what
/// matters.
final class StudioRenderReport {
    private let hook: StudioHook
    /// When progress was last written.
    private var written = Date.distantPast

    /// A report through `hook`.
    init(_ hook: StudioHook) { self.hook = hook }

    /// Writes `encoded` of `total` frames, unless progress was written less than 0.1 s ago.
    func progress(encoded: Int, total: Int) {
        guard Date().timeIntervalSince(written) >= 0.1 else { return }
        write(encoded: encoded, total: total)
    }

    /// Writes the final progress (`encoded` of `total`) and `movie.json`.
    func finished(_ movie: StudioHook.MovieFile, encoded: Int, total: Int) {
        write(encoded: encoded, total: total)
        try? hook.writeMovie(movie)
    }

    private func write(encoded: Int, total: Int) {
        written = Date()
        try? hook.write(Data("\(encoded) \(total)\n".utf8), to: "progress")
    }
}

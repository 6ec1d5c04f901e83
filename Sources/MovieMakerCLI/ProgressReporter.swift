import Foundation
import MovieMaker

/// Shows a render's progress on standard error and a summary line on standard output.
///
/// - On a terminal (standard error is a TTY and `CI` is not set): one progress bar redrawn in place,
///   at most ten times a second, with percent, frames, fps and time left.
/// - Otherwise (a pipe, a log file, CI): a plain line at every 10% naming the output, so a batch log
///   can be read, e.g. `title out/lt_07.mp4: 40% (48/120 frames) 12.3 fps, ETA 6s`; when the total is
///   unknown, one line every 2 s.
/// - `--quiet`: no progress.
/// - `--silent`: nothing at all.
///
/// Every style but silent ends with one summary line on standard output: path, frames, duration,
/// size, elapsed time.
final class ProgressReporter {
    /// How progress is shown.
    enum Style: Equatable {
        /// A bar redrawn in place on a terminal.
        case bar
        /// A plain line at every 10 %.
        case lines
        /// No progress, the summary line only (`--quiet`).
        case quiet
        /// Nothing (`--silent`).
        case silent
    }

    /// The name before each line: the command (`color`, `title`), and in plain lines the output too
    /// (`title out/lt_07.mp4`).
    let label: String
    /// The chosen style.
    let style: Style
    private let started = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var lastDecile = 0
    private var barShown = false
    private var drewComplete = false
    /// The destination's extension, lowercased: an animated image is written after its last frame.
    private let outputExtension: String

    /// A reporter for the command `label` writing `output`, choosing the style from `--quiet`/`--silent`,
    /// the terminal and the environment. Plain lines name the output (`title out/a.mp4: 40% …`); the bar,
    /// alone on a terminal, shows the command only.
    init(label: String, output: String? = nil, options: ProgressOptions,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        let style = Self.style(quiet: options.quiet, silent: options.silent, isTerminal: Terminal.standardErrorIsTerminal,
                               environment: environment)
        self.style = style
        self.label = style == .lines ? [label, output].compactMap { $0 }.joined(separator: " ") : label
        outputExtension = output.map { ($0 as NSString).pathExtension.lowercased() } ?? ""
    }

    /// Says that an animated image is now being written: its palettes and encoding come after the
    /// last frame is drawn and take about as long again, with the bar at 100 %.
    private func announceFinalPass(frames: Int) {
        guard style == .bar || style == .lines, ["gif", "webp", "apng"].contains(outputExtension) else { return }
        let text = "\(label): writing the .\(outputExtension) (\(outputExtension == "gif" ? "palettes, then " : "")\(frames) frames)…"
        if style == .bar {
            Terminal.writeError("\r\u{1B}[2K" + text)
            barShown = true
        } else {
            Terminal.writeError(text + "\n")
        }
    }

    /// The style for these conditions: silent wins, then quiet, then a terminal not in CI (`CI` unset,
    /// empty, `0` or `false`, as CI services and users write it) and not `TERM=dumb` gets the bar.
    static func style(quiet: Bool, silent: Bool = false, isTerminal: Bool, environment: [String: String]) -> Style {
        if silent { return .silent }
        if quiet { return .quiet }
        let ci = environment["CI"].map { !["", "0", "false", "no"].contains($0.lowercased()) } ?? false
        if isTerminal && !ci && environment["TERM"] != "dumb" { return .bar }
        return .lines
    }

    /// Sends `movie`'s progress reports here.
    func attach(to movie: MovieMaker) {
        guard style == .bar || style == .lines else { return }
        movie.progressHandler = { [self] progress in update(progress) }
    }

    /// Shows one progress report (called on the drawing thread).
    func update(_ progress: RenderProgress) {
        let now = ContinuousClock.now
        switch style {
        case .quiet, .silent:
            return
        case .bar:
            // The last frame is always drawn (once), whatever the throttle says.
            let done = progress.totalFrames.map { progress.framesAdded >= $0 } ?? false
            if done ? drewComplete : lastDraw.map({ now - $0 < .milliseconds(100) }) ?? false { return }
            lastDraw = now
            drewComplete = done
            drawBar(progress)
        case .lines:
            if let total = progress.totalFrames, total > 0 {
                let decile = min(progress.framesAdded, total) * 10 / total
                guard decile > lastDecile else { return }
                lastDecile = decile
                Terminal.writeError(Self.line(label: label, progress) + "\n")
            } else {
                if let last = lastDraw, now - last < .seconds(2) { return }
                if lastDraw == nil { lastDraw = now; return }
                lastDraw = now
                Terminal.writeError(Self.line(label: label, progress) + "\n")
            }
        }
    }

    /// A plain progress line: `title out/a.mp4: 40% (48/120 frames) 12.3 fps, ETA 6s`.
    static func line(label: String, _ p: RenderProgress) -> String {
        let fps = String(format: "%.1f fps", p.framesPerSecond)
        guard let total = p.totalFrames, total > 0 else {
            return "\(label): \(p.framesAdded) frames, \(fps)"
        }
        let eta = p.framesAdded < total ? p.estimatedTimeRemaining.map { ", ETA \(Format.eta($0))" } ?? "" : ""
        return "\(label): \(min(p.framesAdded, total) * 100 / total)% (\(p.framesAdded)/\(total) frames) \(fps)\(eta)"
    }

    private func drawBar(_ p: RenderProgress) {
        let fps = String(format: "%5.1f fps", p.framesPerSecond)
        var text: String
        if let total = p.totalFrames, total > 0 {
            let done = min(p.framesAdded, total), cells = 24, filled = done * cells / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
            let eta = done < total ? p.estimatedTimeRemaining.map { "  ETA \(Format.eta($0))" } ?? "" : ""
            text = String(format: "%@ %@ %3d%%  %d/%d frames  %@%@", label, bar, done * 100 / total, p.framesAdded, total, fps, eta)
        } else {
            text = "\(label)  \(p.framesAdded) frames  \(fps)"
        }
        let columns = Terminal.standardErrorColumns
        if text.count >= columns { text = String(text.prefix(max(columns - 1, 0))) }
        // \r back to the line's start, ESC[2K clears it: the bar is redrawn in place.
        Terminal.writeError("\r\u{1B}[2K" + text)
        barShown = true
    }

    private func clearBar() {
        if barShown { Terminal.writeError("\r\u{1B}[2K"); barShown = false }
    }

    /// Ends a movie render: clears the bar and prints the summary line (unless silent).
    func finish(_ summary: MovieSummary) {
        finish(path: summary.url.path, detail: String(format: "%d frames, %.2f s at %@ fps, %dx%d, %@",
                                                      summary.frameCount, summary.duration.seconds, summary.frameRate.description,
                                                      summary.width, summary.height, Format.bytes(summary.fileSize))
               + (summary.fit.map { fit in
                   ", made smaller to fit \(Format.bytes(fit.maxFileSize)): \(fit.frameRate) fps, \(fit.width)x\(fit.height), "
                       + (fit.isWebPQuality ? "quality \(fit.colors)" : "\(fit.colors) colours")
               } ?? ""))
    }

    /// Ends a still-image render: prints the summary line (unless silent).
    func finishStill(url: URL, width: Int, height: Int) {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        finish(path: url.path, detail: "1 image, \(width)x\(height), \(Format.bytes(size))")
    }

    /// The summary line, `<path>: <detail>, done in 1.2 s`, on standard output.
    private func finish(path: String, detail: String) {
        guard style != .silent else { return }
        clearBar()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Terminal.printLine("\(path): \(detail), done in \(Format.seconds(seconds))")
    }

    /// Removes a half-drawn bar before an error message is printed.
    func abandon() { clearBar() }

    /// Reports `movie`'s progress while `body` adds to it, then finishes it and prints the summary; on
    /// any error the half-drawn bar is removed and the error goes on (the movie's partial file is gone).
    @discardableResult
    func render(_ movie: MovieMaker, _ body: () throws -> Void) throws -> MovieSummary {
        attach(to: movie)
        do {
            try body()
            announceFinalPass(frames: movie.frameCount)
            let summary = try movie.finish()
            finish(summary)
            return summary
        } catch {
            abandon()
            throw error
        }
    }
}

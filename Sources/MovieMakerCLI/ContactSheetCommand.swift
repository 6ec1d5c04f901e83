import ArgumentParser
import Foundation
import MovieMaker

/// A contact sheet's grid, `COLUMNSxROWS` (e.g. `4x4`).
struct GridArgument: Equatable, Sendable {
    /// Tiles across.
    let columns: Int
    /// Tiles down.
    let rows: Int

    /// Reads `COLUMNSxROWS` (`x`, `X` or `×` between), each from 1 to 50; throws saying what is expected.
    static func parse(_ text: String) throws(ArgumentValueError) -> GridArgument {
        let parts = text.trimmingCharacters(in: .whitespaces).lowercased()
            .split(separator: "x", omittingEmptySubsequences: false).flatMap { $0.split(separator: "×", omittingEmptySubsequences: false) }
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]) else {
            throw ArgumentValueError("expected COLUMNSxROWS, like 4x4 or 5x3")
        }
        guard (1...50).contains(columns), (1...50).contains(rows) else {
            throw ArgumentValueError("columns and rows must each be from 1 to 50, like 4x4")
        }
        return GridArgument(columns: columns, rows: rows)
    }
}

/// `moviemaker contact-sheet`: a grid of a video's frames, each with its time, as one PNG.
struct ContactSheetCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "Save a grid of a video's frames at evenly spaced times, each with its time under it, as a PNG.",
        discussion: """
            The video is cut into COLUMNS×ROWS equal parts and the frame in the middle of each is shown, \
            left to right then top to bottom, with its time under it (0:04.2). The tiles keep the \
            video's proportions; the sheet's height follows from them.

            Examples:
              moviemaker contact-sheet clip.mp4 -o sheet.png
              moviemaker contact-sheet film.mkv --grid 6x5 --width 2400 -o sheet.png
            """)

    /// The video.
    @Argument(help: ArgumentHelp("The video file.", valueName: "video"))
    var video: String

    /// Tiles across and down.
    @Option(help: ArgumentHelp("Tiles across and down, COLUMNSxROWS (each 1…50). (default: 4x4)", valueName: "CxR"),
            transform: { (text: String) throws -> GridArgument in try GridArgument.parse(text) })
    var grid = GridArgument(columns: 4, rows: 4)

    /// The sheet's width.
    @Option(help: ArgumentHelp("The sheet's width in pixels (at least 32 a tile and 4 a gap, at most 8192).", valueName: "px"))
    var width: Int = 1600

    @OptionGroup(title: "Output") var output: ImageOutputOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard FileManager.default.fileExists(atPath: video) else { throw InputError("\(video): no such file") }
        do { _ = try ContactSheetLayout(columns: grid.columns, rows: grid.rows, width: width, aspectRatio: 16.0 / 9.0) } catch {
            throw ValidationError("--width \(width) does not fit a \(grid.columns)x\(grid.rows) grid: \(error.expected ?? error.description)")
        }
    }

    func run() throws {
        let reporter = ProgressReporter(label: "contact-sheet", output: output.output, options: progress)
        if StillCommand.photo(at: video) != nil {
            throw InputError("\(video) is a photo: a contact sheet shows a video's frames (to save the photo upright as a PNG: moviemaker still \(Terminal.shellWord(video)) -o photo.png)")
        }
        let file = try VideoFile(url: URL(fileURLWithPath: video))
        let rate = file.isVariableFrameRate ? file.standardFrameRate : file.frameRate
        let count = grid.columns * grid.rows
        let frames = rate.frameCount(for: file.duration)
        if frames < count {
            // Tiles then repeat frames (contactSheetTimes); a grid of as many tiles as frames shows each once.
            let columns = (1...min(grid.columns, frames)).last { frames % $0 == 0 && frames / $0 <= 50 } ?? 1
            let fit = columns == 1 && frames > 1 && frames <= 50 ? (frames, 1) : (columns, frames / columns)
            let suggestion = fit.1 <= 50 ? " (--grid \(fit.0)x\(fit.1) shows each once)" : ""
            Terminal.writeError("moviemaker: warning: \(video) has \(frames) frame\(frames == 1 ? "" : "s"), fewer than the \(count) tiles of a \(grid.columns)x\(grid.rows) grid: "
                                + "frames repeat\(suggestion)\n")
        }
        if progress.showsProgress { Terminal.writeError("contact-sheet: drawing \(count) frame\(count == 1 ? "" : "s") of \(video)…\n") }
        let image = try Clip.video(file, withSound: false)
            .contactSheet(columns: grid.columns, rows: grid.rows, width: width,
                          aspectRatio: Double(file.width) / Double(file.height), rate: rate, cancellation: Interruption.shared.token)
        // Copied onto a canvas 1:1, to be written through the same atomic, cancellable path as every still.
        let canvas = try Canvas(width: image.width, height: image.height)
        try canvas.draw { ctx in ctx.draw(image, in: ctx.bounds) }
        try Interruption.shared.writePNG(canvas, to: output.url)
        reporter.finishStill(url: output.url, width: image.width, height: image.height)
    }
}

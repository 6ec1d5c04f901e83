import ArgumentParser
import Foundation
import MovieMaker

/// Reads points in time given on the command line (`--at`).
enum TimeArgument {
    /// What a time may look like, for error messages.
    static let expected = "expected a time of 0 or more from the start: seconds (4.2, 4.2s, 1500ms) or minutes:seconds (0:04.2, 1:02:03.5)"

    /// `4.2`, `4.2s`, `1500ms`, `0:04.2` or `1:02:03.5`: seconds unless `ms` is given; 0 or more.
    static func parse(_ text: String) throws(ArgumentValueError) -> Time {
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        if number.hasPrefix("-") { throw ArgumentValueError("a time cannot be negative: \(expected)") }
        if number.contains(":") {
            let parts = number.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), let seconds = Double(parts.last!), seconds.isFinite, seconds >= 0, seconds < 60,
                  !parts.last!.isEmpty, parts.last!.allSatisfy({ $0.isNumber || $0 == "." }) else {
                throw ArgumentValueError(expected)
            }
            var whole = 0
            for part in parts.dropLast() {
                guard let n = Int(part), n >= 0, part.allSatisfy(\.isNumber) else { throw ArgumentValueError(expected) }
                whole = whole * 60 + n
            }
            if parts.count == 3, let minutes = Int(parts[1]), minutes >= 60 { throw ArgumentValueError(expected) }
            return try DurationArgument.checked(Double(whole * 60) + seconds)
        }
        var scale = 1.0
        if number.hasSuffix("ms") { number.removeLast(2); scale = 0.001 }
        else if number.hasSuffix("s") { number.removeLast() }
        guard let value = Double(number), value.isFinite, value >= 0, number.allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw ArgumentValueError(expected)
        }
        return try DurationArgument.checked(value * scale)
    }
}

/// `moviemaker still`: one frame of a video as a PNG (a thumbnail).
struct StillCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "still",
        abstract: "Save one frame of a video as a PNG: at a time, or the first frame that is not black or blank.",
        discussion: """
            Without --at, the first \(Int(Self.searchSpan.seconds)) s are scanned for the first frame that is \
            neither black (mean luma under \(Clip.blackLumaThreshold)) nor blank (one flat colour: luma \
            deviation under \(Clip.blankLumaDeviationThreshold)) — a fade from black or a slate is \
            skipped. When none is found, the first frame that is not black is used (or the first \
            frame, when all are black).

            Examples:
              moviemaker still clip.mp4 -o thumb.png
              moviemaker still clip.mp4 --at 4.2 -o frame.png
              moviemaker still clip.mp4 --at 1:02.5 --size 320x180 -o small.png
            """)

    /// How much of the video is scanned for the first visible frame.
    static let searchSpan: Time = 10

    /// The video.
    @Argument(help: ArgumentHelp("The video file (or a photo, saved upright as its EXIF orientation says).", valueName: "video"))
    var video: String

    /// When the frame is.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("The time of the frame: seconds (4.2, 1500ms) or minutes:seconds (0:04.2). (default: the first frame that is not black or blank)",
                               valueName: "time"),
            transform: { (text: String) throws -> Time in try TimeArgument.parse(text) })
    var at: Time?

    /// Image size (default: the video's displayed size).
    @Option(help: ArgumentHelp("Image size in pixels, WIDTHxHEIGHT (even), or 1080p, 720p, …; other proportions are cropped to fill. (default: the video's displayed size)",
                               valueName: "WxH"),
            transform: { (text: String) throws -> FrameSize in try FrameSize.parse(text) })
    var size: FrameSize?

    @OptionGroup(title: "Output") var output: ImageOutputOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard FileManager.default.fileExists(atPath: video) else { throw InputError("\(video): no such file") }
    }

    /// The photo at `path` (a still image the photo decoder reads; an animated GIF, APNG or WebP is a
    /// video), or nil for anything else. FFmpeg would read a JPEG as a one-frame video, ignoring its
    /// EXIF orientation.
    static func photo(at path: String) -> PhotoInfo? {
        let url = URL(fileURLWithPath: path)
        guard PhotoDecoder.isStillImage(url) else { return nil }
        return try? PhotoDecoder.info(url)
    }

    func run() throws {
        let reporter = ProgressReporter(label: "still", output: output.output, options: progress)
        if let photo = Self.photo(at: video) {
            // A photo is drawn upright, as every other command shows it, at its size (within the largest frame).
            if let at, at > .zero { throw ValidationError("--at \(at.seconds): \(video) is a photo, one picture: leave out --at") }
            let scale = min(1, Double(MovieMaker.maximumSide) / Double(max(photo.width, photo.height)))
            let width = size?.width ?? max(1, Int((Double(photo.width) * scale).rounded()))
            let height = size?.height ?? max(1, Int((Double(photo.height) * scale).rounded()))
            let canvas = try Clip.photo(photo.url, duration: 1, fit: .fill).still(at: .zero, width: width, height: height, rate: 30)
            try Interruption.shared.writePNG(canvas, to: output.url)
            reporter.finishStill(url: output.url, width: width, height: height)
            return
        }
        let file = try VideoFile(url: URL(fileURLWithPath: video))
        let clip = Clip.video(file, withSound: false)
        let rate = file.isVariableFrameRate ? file.standardFrameRate : file.frameRate
        let width = size?.width ?? file.width, height = size?.height ?? file.height
        let time: Time
        if let at {
            guard at < file.duration else {
                // Seconds to the millisecond: a clock label rounds a short clip's end to 0:00.0.
                let last = rate.time(ofFrame: max(0, rate.frameCount(for: file.duration) - 1))
                throw ValidationError("--at \(at.seconds) is past the end of \(video), which lasts \(String(format: "%.3f", file.duration.seconds)) s: "
                                      + "give a time under that (its last frame starts at \(String(format: "%.3f", last.seconds)) s)")
            }
            time = at
        } else {
            // A small copy of the frame is enough to tell black and blank from a picture.
            let probeWidth = min(160, width), probeHeight = max(1, Int((Double(probeWidth) * Double(height) / Double(width)).rounded()))
            time = try clip.firstVisibleTime(width: probeWidth, height: probeHeight, rate: rate, within: Self.searchSpan,
                                             cancellation: Interruption.shared.token)
            if progress.showsProgress { Terminal.writeError("still: the first frame that is not black or blank is at \(time.clockLabel)\n") }
        }
        let canvas = try clip.still(at: time, width: width, height: height, rate: rate)
        try Interruption.shared.writePNG(canvas, to: output.url)
        reporter.finishStill(url: output.url, width: width, height: height)
    }
}

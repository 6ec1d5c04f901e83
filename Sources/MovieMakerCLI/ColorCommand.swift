import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker color`: a movie (or PNG) of one solid colour. Also the template for rendering commands:
/// option groups for output, video and progress, checks in `validate()`, a `ProgressReporter`, and the
/// movie made through `Interruption.shared.makeMovie` so that SIGINT and SIGTERM cancel it.
struct ColorCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "color",
        abstract: "Render a movie of one solid colour (or a .png still of it).",
        discussion: """
            Useful as a background, a spacer between clips or a test of a player's colours.

            Examples:
              moviemaker color --color '#1d3557' --size 1280x720 --duration 2 -o blue.mp4
              moviemaker color --color white --size 320x240 -o white.png
            """)

    /// The colour.
    @Option(name: [.short, .long],
            help: ArgumentHelp("The colour: #rgb, #rrggbb, #rrggbbaa or a name (black, white, red, …). (default: black)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var color: Color = .black

    /// How long the movie lasts.
    @Option(name: [.short, .long], help: ArgumentHelp("Length in seconds, e.g. 2, 1.5 or 1500ms (ignored for .png). (default: 1)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var duration: Time = 1

    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Video") var video: VideoOptions
    @OptionGroup(title: "Video") var quality: EncoderQualityOptions
    @OptionGroup(title: "Video") var animatedImage: AnimatedImageOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        try quality.checkBitDepth()
        try animatedImage.check(destination: output.output, quality: quality)
    }

    func run() throws {
        let reporter = ProgressReporter(label: "color", output: output.output, options: progress)
        let fill = color
        if output.isStill {
            let canvas = try Canvas(width: video.size.width, height: video.size.height)
            try canvas.draw { ctx in ctx.clear(fill) }
            try Interruption.shared.writePNG(canvas, to: output.url)
            reporter.finishStill(url: output.url, width: video.size.width, height: video.size.height)
            return
        }
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: output.url, width: video.size.width, height: video.size.height,
                           fps: video.fps, settings: quality.encoderSettings(animatedImage: animatedImage))
        }
        try reporter.render(movie) {
            try movie.addFrames(count: max(1, video.fps.frameCount(for: duration))) { ctx, _ in ctx.clear(fill) }
        }
    }
}

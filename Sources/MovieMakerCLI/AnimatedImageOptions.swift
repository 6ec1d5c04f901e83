import ArgumentParser
import Foundation
import MovieMaker
import MovieMakerCore

/// `--max-size`, `--gif-palette`, `--dither`, `--colors`, `--plays` and `--webp-quality`: how a
/// `.gif`, `.apng` or `.webp` is made. Part of every command that encodes video; movies ignore them.
///
/// Commands declare it beside `EncoderQualityOptions` (and `VideoOptions`), never inside another
/// option group: a debug build of ArgumentParser checks every group, and every group inside it, once
/// per check it makes, so each level of nesting multiplies the start-up cost by about five (a
/// debug `moviemaker title` spent half of a short render parsing its arguments with three levels).
struct AnimatedImageOptions: ParsableArguments {
    /// The help section its options are listed under when the command has no section of its own for them.
    static let title = "Animated images (.gif, .apng, .webp)"

    /// The largest GIF or WebP wanted.
    @Option(name: .customLong("max-size"),
            help: ArgumentHelp("The largest .gif or .webp wanted, e.g. 5MB, 800KB, 2MiB: a lower frame rate (down to 10 fps), then a smaller size (down to a quarter), then fewer colours are tried until it fits, and the render says what it chose.",
                               valueName: "size"),
            transform: { (text: String) throws -> Int in
                guard let bytes = ByteSize.parse(text), bytes >= 1000 else {
                    throw ValidationError("--max-size \(text) is not a file size of at least 1 KB (1000 bytes): write e.g. 5MB, 800KB or 2MiB")
                }
                return bytes
            })
    var maxSize: Int?

    /// How a GIF's palette is chosen.
    @Option(name: .customLong("gif-palette"),
            help: ArgumentHelp("How a .gif's palette is chosen: movie (one for all frames), moving-parts (from the pixels that change), per-scene or per-frame. (default: movie)",
                               valueName: "kind"),
            transform: { (text: String) throws -> GIFPalette in
                let key = text.lowercased().replacingOccurrences(of: "-", with: "")
                guard let palette = GIFPalette.allCases.first(where: { $0.rawValue.lowercased() == key }) else {
                    throw ValidationError("--gif-palette \(text): expected movie, moving-parts, per-scene or per-frame")
                }
                return palette
            })
    var gifPalette: GIFPalette?

    /// How a GIF dithers.
    @Option(help: ArgumentHelp("How a .gif shows colours between its palette's: sierra-lite, floyd-steinberg, sierra2, heckbert, bayer or none. (default: sierra-lite)",
                               valueName: "kind"),
            transform: { (text: String) throws -> GIFDither in
                let key = text.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
                guard let dither = GIFDither.allCases.first(where: { $0.rawValue.lowercased() == key }) else {
                    throw ValidationError("--dither \(text): expected sierra-lite, floyd-steinberg, sierra2, heckbert, bayer or none")
                }
                return dither
            })
    var dither: GIFDither?

    /// Colours in a GIF's palette.
    @Option(help: ArgumentHelp("Colours in a .gif's palette, 4…256. (default: 256)", valueName: "n"))
    var colors: Int?

    /// How many times it plays.
    @Option(help: ArgumentHelp("How many times a .gif, .apng or .webp plays: 0 loops forever. (default: 0)", valueName: "n"))
    var plays: Int?

    /// A lossy WebP's quality.
    @Option(name: .customLong("webp-quality"), help: ArgumentHelp("A lossy .webp's quality, 0…100. (default: 80)", valueName: "n"))
    var webpQuality: Int?

    func validate() throws {
        if let colors, !(4...256).contains(colors) { throw ValidationError("--colors \(colors) is out of range: give 4…256 colours (FFmpeg's palette maker makes no fewer than 4)") }
        if let plays, !(0...65535).contains(plays) { throw ValidationError("--plays \(plays) is out of range: 0 (forever) to 65535") }
        if let webpQuality, !(0...100).contains(webpQuality) { throw ValidationError("--webp-quality \(webpQuality) is out of range: 0…100") }
    }

    /// Refuses an option the format of `destination` (a path, or an `--output-pattern`) does not use:
    /// a CI job that sets `--max-size` on an .mp4 must not believe its budget is kept.
    func check(destination: String?, quality: EncoderQualityOptions? = nil) throws {
        guard let destination else { return }
        let ext = (destination as NSString).pathExtension.lowercased()
        // An animated image has no rate factor or x264 preset: --crf and --preset were ignored there.
        if ["gif", "apng", "webp"].contains(ext), let quality {
            let sizeOptions = ext == "gif" ? "--colors and --max-size" : ext == "webp" ? "--webp-quality and --max-size" : "--size and --fps"
            if let crf = quality.crf {
                throw ValidationError("--crf \(crf) does not apply to a .\(ext): an animated image has no rate factor; its size follows \(sizeOptions)")
            }
            if let preset = quality.preset {
                throw ValidationError("--preset \(preset.rawValue) does not apply to a .\(ext): it is an encoder's speed, and an animated image's encoder has none; leave it out")
            }
        }
        // A PNG still is one lossless 8-bit picture: no encoder options reach it.
        if ext == "png", let quality {
            let set = [quality.codec.map { "--codec \(CodecArgument.name($0))" }, quality.crf.map { "--crf \($0)" },
                       quality.preset.map { "--preset \($0.rawValue)" }, quality.bitDepth.map { "--bit-depth \($0)" }].compactMap { $0 }
            if let first = set.first {
                throw ValidationError("\(first) does not apply to a .png: a PNG still is one lossless 8-bit picture, written without a video encoder; leave it out")
            }
        }
        let given: [(option: String, isSet: Bool, formats: [String])] = [
            ("--max-size", maxSize != nil, ["gif", "webp"]),
            ("--colors", colors != nil, ["gif"]),
            ("--gif-palette", gifPalette != nil, ["gif"]),
            ("--dither", dither != nil, ["gif"]),
            ("--plays", plays != nil, ["gif", "apng", "webp"]),
            ("--webp-quality", webpQuality != nil, ["webp"]),
        ]
        for option in given where option.isSet && !option.formats.contains(ext) {
            let formats = option.formats.map { "." + $0 }
            let list = formats.count == 1 ? formats[0] : formats.dropLast().joined(separator: ", ") + " or " + formats.last!
            throw ValidationError("\(option.option) applies to a \(list), not to \(ext.isEmpty ? "this destination" : "a ." + ext): "
                                  + "it would be ignored; leave it out" + (option.option == "--max-size" ? " (a movie's size follows --crf, --size and --fps)" : ""))
        }
    }

    /// `settings` with what was given.
    func applied(to settings: AnimatedImageSettings) -> AnimatedImageSettings {
        var s = settings
        if let gifPalette { s.palette = gifPalette }
        if let dither { s.dither = dither }
        if let colors { s.colors = colors }
        if let plays { s.plays = plays }
        if let webpQuality { s.webpQuality = webpQuality }
        if let maxSize { s.maxFileSize = maxSize }
        return s
    }

    /// The overrides of a description's `output.encoder`.
    var overrides: Timeline.EncoderOptions {
        var o = Timeline.EncoderOptions()
        o.palette = gifPalette; o.dither = dither; o.colors = colors; o.plays = plays; o.quality = webpQuality; o.maxSize = maxSize
        return o
    }
}

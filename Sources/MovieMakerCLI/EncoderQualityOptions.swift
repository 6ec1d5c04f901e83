import ArgumentParser
import MovieMaker

/// `--codec`, `--bit-depth`, `--crf` and `--preset`: one option group for every command that encodes
/// video, declared beside `AnimatedImageOptions` (not nesting it: see `AnimatedImageOptions`). A value left out is nil, and each command says what applies then (the file's codec at its
/// default CRF and `medium`; for `render` and `assemble`, the description's `output.encoder`).
struct EncoderQualityOptions: ParsableArguments {
    /// The video codec.
    @Option(help: ArgumentHelp("Video codec: h264, hevc, av1, vp9 or prores. (default: the file's: h264 for .mp4/.mov/.mkv, vp9 for .webm, or a description's output.encoder.codec)",
                               valueName: "name"),
            transform: { (text: String) throws -> VideoCodec in try CodecArgument.parse(text) })
    var codec: VideoCodec?

    /// Bits per colour sample.
    @Option(name: .customLong("bit-depth"),
            help: ArgumentHelp("Bits per colour sample: 8, or 10 for hevc and av1. (default: 8)", valueName: "8|10"))
    var bitDepth: Int?

    /// Constant rate factor on the codec's scale.
    @Option(help: ArgumentHelp("Quality on the codec's scale (h264/hevc 0…51, vp9 0…63, av1 1…63): lower is better and larger. (default: the codec's, about h264's 18, which is visually lossless; or a description's output.encoder.crf)",
                               valueName: "n"))
    var crf: Int?

    /// x264 preset.
    @Option(help: ArgumentHelp("Encoder speed: \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", ")); slower makes smaller files. (default: medium, or a description's output.encoder.preset)",
                               valueName: "name"),
            transform: { (text: String) throws -> EncoderPreset in try PresetArgument.parse(text) })
    var preset: EncoderPreset?

    /// Checks the ranges ArgumentParser cannot.
    func validate() throws {
        // With no codec named, the file's or the description's decides: the widest scale here, the
        // codec's own when the movie is made.
        let range = codec.flatMap(\.crfRange) ?? 0...63
        if let crf, !range.contains(crf) {
            let expected = codec == nil ? "0…51 for h264 and hevc (18 is visually lossless in h264), 0…63 for vp9, 1…63 for av1"
                : "\(range.lowerBound)…\(range.upperBound) for \(codec!.rawValue)" + (codec == .h264 ? " (18 is visually lossless)" : "")
            throw ValidationError("--crf \(crf) is out of range: expected \(expected)")
        }
        if let crf, codec == .proRes4444 {
            // ProRes has no rate factor; --preset still chooses between a fixed quantiser and a per-slice search.
            throw ValidationError("--crf \(crf) does not apply to --codec prores: ProRes 4444 is written at a fixed, near-lossless quality; leave out --crf (--preset slow or slower searches each slice's quantiser instead)")
        }
        if let bitDepth, bitDepth != 8 && bitDepth != 10 {
            throw ValidationError("--bit-depth \(bitDepth) is not a bit depth MovieMaker writes: expected 8, or 10 with --codec hevc, av1 or prores")
        }
        // With no --codec, `render` takes the description's codec: it calls `checkBitDepth(codecFrom:)`
        // once the description is read, every other command `checkBitDepth()` in its `validate()`.
        if codec != nil { try checkBitDepth() }
    }

    /// Throws for `--bit-depth 10` when the codec written (`--codec`, else `described`: a description's
    /// `output.encoder.codec`; else the file's own, H.264, VP9 or an image format) has no 10-bit form.
    func checkBitDepth(codecFrom described: VideoCodec? = nil) throws {
        guard bitDepth == 10 else { return }
        let written = codec ?? described
        guard written?.bitDepths.contains(10) != true else { return }
        let whose = codec != nil ? "" : described.map { " (the description's codec is \(CodecArgument.name($0)))" } ?? ""
        throw ValidationError("--bit-depth 10 needs --codec hevc, av1 or prores\(whose): H.264 and VP9 are written in 8 bits")
    }

    /// The encoder settings asked for, with `animatedImage`'s for a `.gif`, `.apng` or `.webp`; each
    /// codec's defaults and `medium` where nothing was given.
    func encoderSettings(animatedImage image: AnimatedImageOptions) -> EncoderSettings {
        var settings = encoderSettings()
        settings.animatedImage = image.applied(to: settings.animatedImage)
        return settings
    }

    /// The encoder settings asked for, for a command that writes no animated image.
    func encoderSettings() -> EncoderSettings {
        var settings = EncoderSettings(crf: crf, preset: preset ?? .medium)
        settings.codec = codec
        settings.bitDepth = bitDepth ?? 8
        return settings
    }
}

/// Reads a codec name: the `VideoCodec` names, any case, and `h265`, `x265`, `prores`.
enum CodecArgument {
    /// `codec` as the option takes it (`prores` rather than the description's `proRes4444`).
    static func name(_ codec: VideoCodec) -> String { codec == .proRes4444 ? "prores" : codec.rawValue }

    static func parse(_ text: String) throws(ArgumentValueError) -> VideoCodec {
        if let codec = VideoCodec.named(text), codec != .png { return codec }
        throw ArgumentValueError("expected h264, hevc, av1, vp9 or prores")
    }
}

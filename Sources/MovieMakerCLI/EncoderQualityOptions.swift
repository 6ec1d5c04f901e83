import ArgumentParser
import MovieMaker

/// `--crf` and `--preset`, x264's quality and speed: one option group for every command that encodes
/// video. A value left out is nil, and each command says what applies then (18 and `medium`; for
/// `render` and `assemble`, the description's `output.encoder`).
struct EncoderQualityOptions: ParsableArguments {
    /// x264 constant rate factor.
    @Option(help: ArgumentHelp("Quality, 0…51: lower is better and larger; 18 is visually lossless. (default: 18, or a description's output.encoder.crf)",
                               valueName: "0-51"))
    var crf: Int?

    /// x264 preset.
    @Option(help: ArgumentHelp("Encoder speed: \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", ")); slower makes smaller files. (default: medium, or a description's output.encoder.preset)",
                               valueName: "name"),
            transform: { (text: String) throws -> EncoderPreset in try PresetArgument.parse(text) })
    var preset: EncoderPreset?

    /// Checks the range ArgumentParser cannot.
    func validate() throws {
        if let crf, !(0...51).contains(crf) {
            throw ValidationError("--crf \(crf) is out of range: expected 0…51 (18 is visually lossless, 23 is x264's default)")
        }
    }

    /// The encoder settings asked for, 18 and `medium` where nothing was given.
    var encoderSettings: EncoderSettings { EncoderSettings(crf: crf ?? 18, preset: preset ?? .medium) }
}

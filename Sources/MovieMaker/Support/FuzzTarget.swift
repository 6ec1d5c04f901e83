import Foundation

/// The parsers and decoders that read bytes a user (or an attacker) hands over, one entry point each,
/// for coverage-guided fuzzing (`make fuzz`, the `moviemaker-fuzz` libFuzzer binary) and for replaying
/// the stored corpora in the test suite, so that a fixed crash stays fixed.
///
/// Each entry point consumes any bytes and returns: a typed `MovieMakerError` is the expected outcome
/// for bad input and is swallowed; a trap, a hang, unbounded memory or a sanitizer report is a bug.
/// Not API for programs: `package` access, for the fuzzer and the tests.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// `PhotoDecoder`: format sniffing, the header and EXIF/ICC parsers and every image decoder
    /// (libjpeg-turbo, libpng, libwebp, libheif, libavcodec for TIFF/BMP/GIF), scaled to fit 256×256.
    case photo
    /// `AudioDecoder` through libavformat/libavcodec/libswresample: up to two seconds of samples.
    case audio
    /// `Path(svg:)`: SVG path data.
    case svgPath = "svg-path"
    /// `Color(css:)`: CSS colours.
    case cssColor = "css-color"
    /// `Easing(named:)`: easing names, `cubic-bezier(…)`, `spring(…)` and modifiers.
    case easing
    /// `Timeline(jsonData:)`: the JSON reader and the description reader, then a round trip.
    case description
    /// `SubtitleTrack(srt:)` and `SubtitleTrack(webVTT:)`.
    case subtitles
    /// `CubeLUT(parsing:)`: Adobe/Resolve `.cube` files.
    case cubeLUT = "cube-lut"
    /// `AnimatedImageDecoder`: animated GIF, WebP and APNG stickers, scaled to 64 px wide.
    case sticker

    /// Feeds `bytes` to this target's parser or decoder. Returns normally for every input that does
    /// not reveal a bug; typed errors are the parsers' answer to bad input and are not reported.
    package func consume(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .photo: Self.decodePhoto(bytes)
        case .audio: Self.withTemporaryFile(bytes) { url in Self.decodeAudio(url) }
        case .svgPath: _ = try? Path(svg: Self.text(bytes))
        case .cssColor: _ = try? Color(css: Self.text(bytes))
        case .easing:
            if let easing = try? Easing(named: Self.text(bytes)) {
                // The curve must be defined everywhere it is sampled.
                for i in 0...8 { _ = easing(Double(i) / 8) }
            }
        case .description:
            if let timeline = try? Timeline(jsonData: Data(bytes)) {
                // What was read must write back and read again.
                if let text = try? timeline.jsonText() { _ = try? Timeline(jsonText: text) }
            }
        case .subtitles:
            let text = Self.text(bytes)
            _ = try? SubtitleTrack(srt: text)
            _ = try? SubtitleTrack(webVTT: text)
        case .cubeLUT: _ = try? CubeLUT(parsing: Self.text(bytes))
        case .sticker:
            Self.withTemporaryFile(bytes) { url in
                _ = try? AnimatedImageDecoder.decode(url, width: 64, height: nil)
            }
        }
    }

    /// `consume(_:)` for `Data`.
    package func consume(_ data: Data) {
        data.withUnsafeBytes { consume($0) }
    }

    // MARK: The entry points' plumbing

    /// Text as a user's file would give it: invalid UTF-8 repaired, as `String(contentsOf:)` would refuse
    /// and the readers' callers would then never see it.
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The photo decoder on bytes in memory (no file needed): sniffed, then decoded to fit 256×256.
    private static func decodePhoto(_ bytes: UnsafeRawBufferPointer) {
        guard let format = PhotoFormat.sniff(bytes) else { return }
        _ = try? PhotoDecoder.decode(bytes, format: format, url: URL(fileURLWithPath: "/fuzz/input"),
                                     scaling: .fitting(Size(width: 256, height: 256)))
    }

    /// Up to two seconds of samples from the audio decoder.
    private static func decodeAudio(_ url: URL) {
        guard let file = try? AudioFile(url: url),
              let reader = try? file.makeReader(format: .standard) else { return }
        let chunk = 1024
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * reader.format.channelCount)
        defer { buffer.deallocate() }
        var left = 2 * reader.format.sampleRate
        while left > 0 {
            guard (try? reader.read(into: buffer, frameCount: min(chunk, left))) != nil else { return }
            left -= chunk
        }
    }

    /// Runs `body` with `bytes` in a temporary file (the decoders that need a path: libavformat, the
    /// sticker decoders), removed afterwards.
    private static func withTemporaryFile(_ bytes: UnsafeRawBufferPointer, _ body: (URL) -> Void) {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviemaker-fuzz-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes)) else { return }
        defer { try? FileManager.default.removeItem(at: url) }
        body(url)
    }
}

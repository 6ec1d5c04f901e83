import ArgumentParser
import Foundation
import MovieMaker

/// A frame size given as `WIDTHxHEIGHT` (e.g. `1920x1080`) or a name (`1080p`), checked for video.
struct FrameSize: Equatable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int

    /// The smallest side accepted.
    static let minimumSide = 16
    /// The largest side accepted (H.264 level 6.2).
    static let maximumSide = MovieMaker.maximumSide
    /// Sizes that can be given by name.
    static let named: [(name: String, size: FrameSize)] = Timeline.FrameSize.named.map { ($0.name, FrameSize(width: $0.width, height: $0.height)) }

    private init(width: Int, height: Int) { self.width = width; self.height = height }

    /// 1920x1080, the default.
    static let fullHD = FrameSize(width: 1920, height: 1080)

    /// `1920x1080`.
    var description: String { "\(width)x\(height)" }

    /// Reads `WIDTHxHEIGHT` (`x`, `X` or `×` between) or a name like `1080p`; throws saying what is expected.
    static func parse(_ text: String) throws(ArgumentValueError) -> FrameSize {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let known = named.first(where: { $0.name == trimmed }) { return known.size }
        let parts = trimmed.split(separator: "x", omittingEmptySubsequences: false).flatMap { $0.split(separator: "×", omittingEmptySubsequences: false) }
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw ArgumentValueError("expected WIDTHxHEIGHT in pixels, like 1920x1080 (or 2160p, 1080p, 720p, 480p, 360p)")
        }
        let range = minimumSide...maximumSide
        guard range.contains(width), range.contains(height) else {
            throw ArgumentValueError("each side must be from \(minimumSide) to \(maximumSide) pixels, like 1920x1080")
        }
        guard width * height <= MovieMaker.maximumPixels else {
            throw ArgumentValueError("\(width * height) pixels is more than H.264 allows (\(MovieMaker.maximumPixels)); try 3840x2160")
        }
        guard width % 2 == 0, height % 2 == 0 else {
            throw ArgumentValueError("width and height must be even (video stores colour at half resolution), like 1920x1080; try \(width + width % 2)x\(height + height % 2)")
        }
        return FrameSize(width: width, height: height)
    }
}

/// Reads frame rates: whole numbers, NTSC decimals and exact fractions.
enum FrameRateArgument {
    /// The range of frames per second accepted.
    static let range = 1.0...240.0

    /// Reads `30`, `29.97` (→ 30000/1001), `23.976` (→ 24000/1001), `59.94`, `12.5` or `30000/1001`.
    ///
    /// A decimal within 0.005 of N×1000/1001 is taken as that NTSC rate; any other decimal is taken exactly.
    static func parse(_ text: String) throws(ArgumentValueError) -> FrameRate {
        let expected = "expected frames per second from 1 to 240: a whole number (30), a decimal (29.97, 23.976) or a fraction (30000/1001)"
        // Digits, a point and a slash only: no signs, exponents or spaces inside a flag's value.
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let rate = trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "/") }) ? FrameRate(reading: trimmed) : nil
        guard let rate, range.contains(rate.framesPerSecond) else { throw ArgumentValueError(expected) }
        return rate
    }
}

/// Reads an x264 preset name.
enum PresetArgument {
    /// `ultrafast` … `placebo`, case-insensitive.
    static func parse(_ text: String) throws(ArgumentValueError) -> EncoderPreset {
        guard let preset = EncoderPreset(rawValue: text.lowercased()) else {
            throw ArgumentValueError("expected one of \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return preset
    }
}

/// Frame size and frame rate, shared by every command that renders video from nothing (`title`,
/// `color`, `slideshow`); those commands declare `EncoderQualityOptions` and `AnimatedImageOptions`
/// beside it under the same title, so the help lists them in one section (see `AnimatedImageOptions`
/// for why they are not nested).
struct VideoOptions: ParsableArguments {
    /// Frame size.
    @Option(help: ArgumentHelp("Frame size in pixels, WIDTHxHEIGHT (even, 16…8192), or 2160p, 1080p, 720p, 480p, 360p. (default: 1920x1080)",
                               valueName: "WxH"),
            transform: { (text: String) throws -> FrameSize in try FrameSize.parse(text) })
    var size: FrameSize = .fullHD

    /// Frame rate.
    @Option(help: ArgumentHelp("Frames per second: 24, 25, 30, 60, 29.97 (=30000/1001), 23.976 (=24000/1001) or a fraction. (default: 30)",
                               valueName: "rate"),
            transform: { (text: String) throws -> FrameRate in try FrameRateArgument.parse(text) })
    var fps: FrameRate = 30
}

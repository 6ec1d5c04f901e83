import Foundation

/// A frame rate as an exact fraction of frames per second: 30, 25, 30000/1001 (29.97), 24000/1001 (23.976)…
///
/// Times are always computed from a frame index and this fraction, never by adding up per-frame durations,
/// so frame N sits at exactly N × denominator / numerator seconds however long the movie is.
public struct FrameRate: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// Frames per `denominator` seconds.
    public let numerator: Int
    /// Seconds per `numerator` frames.
    public let denominator: Int

    /// Creates a frame rate of `numerator / denominator` frames per second, reduced; nil when either is ≤ 0.
    public init?(numerator: Int, denominator: Int = 1) {
        guard numerator > 0, denominator > 0 else { return nil }
        let g = gcd(numerator, denominator)
        self.numerator = numerator / g
        self.denominator = denominator / g
    }
    /// A whole number of frames per second. Traps when `fps` ≤ 0; use `init?(numerator:denominator:)` for input.
    public init(_ fps: Int) {
        precondition(fps > 0, "frame rate must be positive, got \(fps)")
        self.numerator = fps; self.denominator = 1
    }
    /// A whole number of frames per second from a literal (`let rate: FrameRate = 30`).
    public init(integerLiteral value: Int) { self.init(value) }

    /// 24 frames per second (cinema).
    public static let film: FrameRate = 24
    /// 24000/1001 ≈ 23.976 frames per second.
    public static let ntscFilm = FrameRate(numerator: 24000, denominator: 1001)!
    /// 25 frames per second (PAL).
    public static let pal: FrameRate = 25
    /// 30000/1001 ≈ 29.97 frames per second (NTSC).
    public static let ntsc = FrameRate(numerator: 30000, denominator: 1001)!
    /// 60000/1001 ≈ 59.94 frames per second.
    public static let ntsc60 = FrameRate(numerator: 60000, denominator: 1001)!

    /// Frames per second as a floating-point number (for display; times use the exact fraction).
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
    /// The duration of one frame, exactly.
    public var frameDuration: Time { Time(value: Int64(denominator), timescale: Int64(numerator)) }
    /// The exact start time of frame `index`.
    public func time(ofFrame index: Int) -> Time { Time(value: Int64(index) * Int64(denominator), timescale: Int64(numerator)) }
    /// The start time of frame `index` in seconds, computed from the index (no accumulated error).
    public func seconds(ofFrame index: Int) -> Double { Double(index) * Double(denominator) / Double(numerator) }
    /// How many frames a span of `duration` covers: frames whose start time is before its end.
    public func frameCount(for duration: Time) -> Int {
        // frames n with n·den/num < d  ⇔  n < d·num/den; count = ceil(d·num/den)
        guard duration > .zero else { return 0 }
        let v = Rational(duration.value, duration.timescale) * Rational(Int64(numerator), Int64(denominator))
        return Int(v.ceil)
    }
    /// `duration` cut down to whole frames: itself when it is a whole number of frames, else the start of
    /// its last, partial frame; itself when it is shorter than one frame. A clip of whole frames ends on
    /// a frame, so what follows it starts on one with its picture and sound together.
    package func wholeFrames(of duration: Time) -> Time {
        let whole = time(ofFrame: frameIndex(at: duration))
        return whole > .zero ? whole : duration
    }
    /// The index of the frame showing at `time` (the last frame starting at or before it).
    public func frameIndex(at time: Time) -> Int {
        let v = Rational(time.value, time.timescale) * Rational(Int64(numerator), Int64(denominator))
        return Int(v.floor)
    }
    /// `30` or `30000/1001`.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

extension FrameRate {
    /// Reads frames per second as people write them: `30`, `12.5`, `"30000/1001"`, and the decimals
    /// `29.97`, `23.976`, `59.94` as the N×1000/1001 rates they stand for; nil when `text` is none of
    /// these, or when its reduced fraction has a term over 1,000,000 (`30.0000000001`: no camera's rate,
    /// and times of such a rate would overflow).
    ///
    /// Cameras, editors and the command line all mean 30000/1001 by "29.97"; reading it as exactly
    /// 2997/100 would make a rate that matches no phone clip and drifts a frame every 33 seconds against
    /// one. A number that is not whole, however it is written (`29.97`, `2.997e1`), within 0.005 of
    /// N×1000/1001 for N ≥ 2 is taken as that rate; fractions (`"2997/100"`) are always exact.
    package init?(reading text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let (n, d) = ExactNumber.parse(trimmed), n > 0 else { return nil }
        if !trimmed.contains("/"), d > 1 {
            let value = Double(n) / Double(d)
            let whole = (value * 1.001).rounded()
            if whole >= 2, whole <= 1_000, abs(value - whole * 1000 / 1001) < 0.005 {
                self.init(numerator: Int(whole) * 1000, denominator: 1001)
                return
            }
        }
        guard n <= 1_000_000, d <= 1_000_000 else { return nil }
        self.init(numerator: Int(n), denominator: Int(d))
    }
}

extension FrameRate: Codable {
    /// Reads a frame rate written as a number of frames per second (`30`, `12.5`, `29.97` for
    /// 30000/1001) or a string holding one or a fraction (`"30000/1001"`); see `init?(reading:)`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decodeExactNumberText()
        guard let text, let rate = FrameRate(reading: text) else {
            throw MovieMakerError.invalidFrameRate(text.map { "\"\($0)\"" } ?? "(not a number)").decodingError(at: decoder.codingPath)
        }
        self = rate
    }

    /// Writes a whole rate as an integer (`30`), any other as a fraction string (`"30000/1001"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if denominator == 1 { try container.encode(numerator) } else { try container.encode(description) }
    }
}

import Foundation

/// How a sound is drawn as a picture: its spectrum as bars, its waveform, its level on a meter, or
/// radial bars around a circle; what podcast clips (audiograms) and music videos show.
///
/// Every frame is drawn from the sound's own samples around the frame's exact time (see
/// `Clip.audiogram(of:from:visualizer:duration:)`), so the picture is in sync with the sound, the same on
/// every render, and independent of threads and chunks:
///
/// - **spectrum**: a 4096-sample FFT (libavutil's `av_tx`, Hann window, 48 kHz mono) centred on the
///   middle of the frame; `barCount` bands spaced evenly on a log scale over `frequencies`, each the
///   loudest bin inside it (a band narrower than a bin takes the magnitude at its centre). A full-scale
///   sine is 0 dB; `floor` dB and below is no height.
/// - **waveform**: the 2048 samples around the frame's middle, in `barCount` buckets, each its
///   loudest sample (with its sign for `line`).
/// - **level**: the loudest sample within the frame's own time (from its start to the next frame's),
///   in dB: a click at time t peaks the frame that contains t.
/// - **circle**: the spectrum's bars around a circle.
///
/// Smoothing (spectrum, circle and level) is computed from a fixed number of past frames, never from
/// state carried between frames: `attack` averages the frames within it (0: none); `release` lets a
/// value fall at most as fast as a decay to 1 % over its length (the value is the largest of the past
/// frames' values decayed by their age).
public struct AudioVisualizer: Sendable, Hashable, Codable {
    /// What is drawn.
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// Bars over log-spaced frequency bands, rising from the area's bottom.
        case spectrum
        /// The waveform around the frame's time (see `WaveformShape`).
        case waveform
        /// A meter: a bar across the area, as long as the frame's peak level.
        case level
        /// The spectrum's bars pointing out from a circle in the area's centre.
        case circle
    }

    /// How a waveform is drawn.
    public enum WaveformShape: String, Sendable, Hashable, Codable, CaseIterable {
        /// A line through the buckets' signed peaks, across the area's middle.
        case line
        /// Bars rising from the area's bottom.
        case bars
        /// Bars centred on the area's middle, reaching up and down.
        case mirrored
    }

    /// What is drawn (default spectrum).
    public var style: Style
    /// How a waveform is drawn (default mirrored).
    public var waveformShape: WaveformShape
    /// The bars' (or line's) colour (default white).
    public var color: Color
    /// The meter's unlit part, and the circle's ring (default: `color` at 25 % opacity).
    public var trackColor: Color?
    /// How many bars (or waveform buckets), 2–512 (default 48).
    public var barCount: Int
    /// The part of each bar's slot left empty, 0 to 0.9 (default 0.25).
    public var gap: Double
    /// The frequencies the spectrum's bands cover, in Hz, within 20–24,000 (default 50–12,000).
    public var frequencies: ClosedRange<Double>
    /// The level (dBFS) drawn with no height, −120 to −10 (default −60).
    public var floor: Double
    /// How long a value takes to rise: the frames within it are averaged (default 0: at once).
    public var attack: Time
    /// How long a value takes to fall to 1 % (default 0.25 s; 0: at once).
    public var release: Time
    /// Where it is drawn, in fractions of the frame (default the whole frame).
    public var area: Rect

    /// A visualizer; the defaults are the properties'.
    public init(_ style: Style = .spectrum, waveformShape: WaveformShape = .mirrored, color: Color = .white, trackColor: Color? = nil,
                barCount: Int = 48, gap: Double = 0.25, frequencies: ClosedRange<Double> = 50...12_000, floor: Double = -60,
                attack: Time = .zero, release: Time = Time(value: 1, timescale: 4), area: Rect = Rect(x: 0, y: 0, width: 1, height: 1)) {
        self.style = style; self.waveformShape = waveformShape; self.color = color; self.trackColor = trackColor
        self.barCount = barCount; self.gap = gap; self.frequencies = frequencies; self.floor = floor
        self.attack = attack; self.release = release; self.area = area
    }

    /// Throws `.invalidSetting` naming the first setting out of range and the range it takes.
    public func validate() throws(MovieMakerError) {
        guard (2...512).contains(barCount) else {
            throw .invalidSetting(.audiogramBars, value: "\(barCount)", expected: "2 to 512 bars")
        }
        guard gap.isFinite, (0...0.9).contains(gap) else {
            throw .invalidSetting(.audiogramGap, value: "\(gap)", expected: "0 to 0.9 of each bar's slot")
        }
        guard frequencies.lowerBound >= 20, frequencies.upperBound <= 24_000, frequencies.upperBound > frequencies.lowerBound * 1.5 else {
            throw .invalidSetting(.audiogramFrequencies, value: "\(frequencies.lowerBound)–\(frequencies.upperBound) Hz",
                                  expected: "a range within 20–24000 Hz whose top is at least 1.5 times its bottom, e.g. 50–12000")
        }
        guard floor.isFinite, (-120 ... -10).contains(floor) else {
            throw .invalidSetting(.audiogramFloor, value: "\(floor) dB", expected: "−120 to −10 dBFS")
        }
        for (name, t) in [("attack", attack), ("release", release)] where t < .zero || t > 10 {
            throw .invalidSetting(.audiogramSmoothing, value: "\(name) \(t.seconds) s", expected: "0 to 10 seconds")
        }
        let unit = Rect(x: 0, y: 0, width: 1, height: 1)
        guard area.width > 0, area.height > 0, area.minX >= -1e-9, area.minY >= -1e-9,
              area.maxX <= unit.maxX + 1e-9, area.maxY <= unit.maxY + 1e-9 else {
            throw .invalidSetting(.audiogramArea, value: "\(area)", expected: "a rectangle inside the frame, in fractions from 0 to 1")
        }
    }
}

extension Clip {
    /// `sound`, from its time `start`, drawn as `visualizer` says for `duration`: frame k of the clip
    /// shows the sound around `start + k / rate`. The sound is read when a render opens (a broken file
    /// fails before the first frame), once per render whatever the drawing threads.
    ///
    /// ```swift
    /// let podcast = try AudioFile(url: URL(fileURLWithPath: "episode.mp3"))
    /// let bars = try Clip.audiogram(of: podcast, visualizer: AudioVisualizer(.spectrum, color: .white), duration: 30)
    /// ```
    ///
    /// Throws `.invalidSetting` for a visualizer setting out of range (see `AudioVisualizer.validate()`).
    public static func audiogram(of sound: any AudioSource, from start: Time = .zero, visualizer: AudioVisualizer = AudioVisualizer(),
                                 duration: Time) throws(MovieMakerError) -> Clip {
        try visualizer.validate()
        guard start >= .zero else {
            throw .invalidSetting(.audiogramStart, value: "\(start.seconds) s", expected: "a time in the sound, 0 or more")
        }
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        // The sound before `start` that the first frames need: half the FFT's window and the smoothing.
        let lookBack = visualizer.attack + visualizer.release + Time(value: 1, timescale: 10)
        return Clip(.generator(.audiogram(AudiogramLeaf(visualizer: visualizer, signal: SoundSignal(sound: sound, start: start, lookBack: lookBack))),
                               duration: duration))
    }
}

import Foundation

/// A sound played backwards: sample frame `n` of it is frame `length − 1 − n` of `source`, exactly,
/// and it lasts exactly as long as the source (to the sample).
///
/// The source needs a known `duration`. Its reader never holds the whole sound, nor writes a
/// temporary file: it reads the source in windows from the end backwards, each opened where it starts
/// (`makeReader(format:from:)`; a sound file seeks there sample-exactly, and one file decoder is kept
/// and moved back from window to window), and plays each window reversed. A window is 1 second of
/// sound (`windowDuration`) for sources that can start part-way (files, clips, tracks, tempo changes,
/// reversed sounds); sounds made by code, and mixes (whose ducking and limiter carry state from their
/// start), can only be read from their start, so each window reads up to it from the beginning, and
/// their windows are 10 seconds (`windowDurationFromStart`) to keep that re-reading down: reversing a
/// long mix costs about its length ÷ 20 s times the mix itself (reverse its tracks instead).
///
/// ```swift
/// let cymbal = try ReversedSound(AudioFile(path: "cymbal.wav"))   // a swell into the downbeat
/// ```
public struct ReversedSound: AudioSource {
    /// The sound played backwards.
    public let source: any AudioSource
    /// The source's duration.
    public let duration: Time?

    /// How much of a seekable source is read and reversed at a time: 1 second.
    package static let windowDuration: Time = 1
    /// How much of a source that can only be read from its start is read and reversed at a time: 10 seconds.
    package static let windowDurationFromStart: Time = 10

    /// `source` played backwards. Throws `.invalidSetting(.reversedSound, …)` when the source's length
    /// is unknown (a looping bed, a sound that lasts as long as it is asked to): trim it first.
    public init(_ source: any AudioSource) throws(MovieMakerError) {
        guard let length = source.duration else {
            throw .invalidSetting(.reversedSound, value: "a sound of unknown length",
                                  expected: "a sound that ends, to play it from its end: give it a duration, e.g. AudioClip(sound).trimmed(from: 0, to: 10)")
        }
        guard length >= .zero else {
            throw .invalidSetting(.reversedSound, value: "a sound lasting \(length)", expected: "a duration of zero or more seconds")
        }
        self.source = source
        self.duration = length
    }

    /// Opens the sound for one render in `format` (the source's last window is read first).
    public func makeReader(format: AudioFormat) throws -> any AudioReader {
        try makeReader(format: format, startingAtFrame: 0)
    }
}

extension ReversedSound: SeekableAudioSource {
    /// Opens the sound with its first sample at frame `frame` (the source's frame `length − 1 − frame`).
    func makeReader(format: AudioFormat, startingAtFrame frame: Int64) throws -> any AudioReader {
        try format.validateForMixing()
        let window = source is any SeekableAudioSource ? Self.windowDuration : Self.windowDurationFromStart
        return ReversedSoundReader(source: source, format: format, length: format.frame(at: duration ?? .zero),
                                   windowFrames: max(1, Int(format.frame(at: window))), start: max(0, frame))
    }
}

/// Reads a `ReversedSound`: one window of the source at a time, read forwards into a buffer and
/// reversed in place (frame by frame, channels kept), delivered; then the window before it.
final class ReversedSoundReader: AudioReader {
    let format: AudioFormat
    private let source: any AudioSource
    /// The source's length in frames.
    private let length: Int64
    /// The most frames a window holds.
    let windowFrames: Int
    /// The output frame the next read delivers.
    private var position: Int64
    /// The current window, reversed: its frame i is output frame `windowStart + i`.
    private var window: [Float]
    private var windowStart: Int64 = 0
    private var windowCount = 0
    /// The source's reader; kept between windows only when it can be moved back (a file decoder).
    private var sourceReader: (any AudioReader)?

    init(source: any AudioSource, format: AudioFormat, length: Int64, windowFrames: Int, start: Int64) {
        self.source = source
        self.format = format
        self.length = length
        self.windowFrames = windowFrames
        self.position = start
        window = []
    }

    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
        let channels = format.channelCount
        var done = 0
        while done < frameCount {
            if position >= length {
                (buffer + done * channels).update(repeating: 0, count: (frameCount - done) * channels)
                position += Int64(frameCount - done)
                return
            }
            if position < windowStart || position >= windowStart + Int64(windowCount) { try load(at: position) }
            let offset = Int(position - windowStart)
            let n = min(frameCount - done, windowCount - offset)
            window.withUnsafeBufferPointer { w in
                (buffer + done * channels).update(from: w.baseAddress! + offset * channels, count: n * channels)
            }
            done += n
            position += Int64(n)
        }
    }

    /// Reads the window whose first output frame is `start`: source frames
    /// [max(0, length − start − window), length − start), reversed.
    private func load(at start: Int64) throws {
        let channels = format.channelCount
        let end = length - start
        let first = max(0, end - Int64(windowFrames))
        let count = Int(end - first)
        if let decoder = sourceReader as? AudioDecoder {
            try decoder.seek(toFrame: first)
        } else {
            sourceReader = nil
            sourceReader = try source.makeReader(format: format, from: first)
        }
        if window.count < count * channels { window = [Float](repeating: 0, count: windowFrames * channels) }
        try window.withUnsafeMutableBufferPointer { w in
            let base = w.baseAddress!
            try sourceReader!.read(into: base, frameCount: count)
            // Reverse the order of the frames, keeping each frame's channels in order.
            var i = 0, j = count - 1
            while i < j {
                for c in 0..<channels { swap(&base[i * channels + c], &base[j * channels + c]) }
                i += 1; j -= 1
            }
        }
        if !(sourceReader is AudioDecoder) { sourceReader = nil }
        windowStart = start
        windowCount = count
    }
}

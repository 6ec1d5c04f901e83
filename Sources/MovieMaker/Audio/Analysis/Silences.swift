import Foundation

/// How silences are told from sound: a level threshold with hysteresis, and a shortest length.
public struct SilenceDetection: Sendable, Hashable, Codable {
    /// The level, in dBFS (RMS over 10 ms), below which sound counts as silence (default −40 dB).
    public var threshold: Double
    /// How far above `threshold` the level must rise again to end a silence (default 3 dB): a level
    /// hovering at the threshold does not flicker in and out.
    public var hysteresis: Double
    /// The shortest silence that counts (default 0.4 s): pauses between words are kept.
    public var minimum: Time

    /// Silence below `threshold` dB for at least `minimum`, ended `hysteresis` dB above the threshold.
    public init(threshold: Double = -40, hysteresis: Double = 3, minimum: Time = Time(value: 2, timescale: 5)) {
        self.threshold = threshold; self.hysteresis = hysteresis; self.minimum = minimum
    }

    /// The rate the sound is read at.
    static let format = AudioFormat(sampleRate: 48_000, channelCount: 1)
    /// Samples per level measurement (10 ms).
    static let window = 480

    /// The silent stretches of the sound of the file at `url` (a sound or a video's sound), in the
    /// file's time (a video's: its picture's, with the quiet before a late sound starts and after an
    /// early one ends), in order,
    /// each exact to the sample (1/48000 s): a stretch starts after the last sample louder than the
    /// threshold's amplitude and ends at the next such sample. Reads the sound
    /// once in 10 ms blocks (memory does not grow with its length beyond the list). Throws
    /// `.audioUnreadable`/`.noAudioStream` for a file without usable sound, `.cancelled` when cancelled.
    public func silences(in url: URL, cancellation: CancellationToken? = nil) throws(MovieMakerError) -> [TimeRange] {
        let sound = try AnalysedSound(url, format: Self.format)
        // A video's sound may start after its picture (or before it): its silences are in the clip's
        // time, the picture's, as `Clip.removingSilences` cuts them, and the quiet before the sound
        // starts is a silence too.
        var offset = Time.zero
        var picture: Time?
        do {
            let video = try VideoFile.probed(url)
            offset = video.audioOffset ?? .zero
            picture = video.duration
        } catch {
            // A sound file has no picture to be placed against; a video that cannot be probed is an error.
            if error.code != .noVideoStream { throw error }
        }
        let lead = Self.format.frame(at: offset)
        // Likewise the picture after a sound that ends early: silent, as the stitched movie plays it.
        let pictureEnd = picture.map { Self.format.frame(at: $0) } ?? 0
        var scanner = Scanner(detection: self, total: max(sound.frames + lead, pictureEnd))
        var block = [Float](repeating: 0, count: Self.window)
        var position: Int64 = 0
        // The quiet where the picture has no sound (before a late one, after an early one), in 10 ms blocks.
        func feedSilence(until end: Int64) {
            while position < end {
                let count = Int(min(Int64(Self.window), end - position))
                scanner.feed([Float](repeating: 0, count: count), count: count, at: position)
                position += Int64(count)
            }
        }
        feedSilence(until: lead)
        var skipped: Int64 = 0
        while skipped < -lead {
            var part = [Float](repeating: 0, count: Int(min(Int64(Self.window), -lead - skipped)))
            try sound.read(into: &part)
            skipped += Int64(part.count)
        }
        let end = sound.frames + lead
        while position < end {
            if (position / Int64(Self.window)) % 1000 == 0, cancellation?.isCancelled == true { throw .cancelled }
            try sound.read(into: &block)
            let count = Int(min(Int64(Self.window), end - position))
            scanner.feed(block, count: count, at: position)
            position += Int64(count)
        }
        feedSilence(until: pictureEnd)
        return scanner.finish().map { range in
            TimeRange(start: Time(value: range.lowerBound, timescale: 48_000), duration: Time(value: range.upperBound - range.lowerBound, timescale: 48_000))
        }
    }

    /// The state machine over 10 ms levels, with sample-exact edges.
    struct Scanner {
        let detection: SilenceDetection
        let total: Int64
        /// The amplitude a sample must exceed to be sound at the edges.
        let amplitude: Float
        private var silentSince: Int64?
        /// While silent: the first loud sample of the window before this one, if it had one (a sound
        /// starting at a window's last samples raises only the next window's level).
        private var loudInPrevious: Int64?
        /// The sample after the last one above `amplitude` seen so far.
        private var lastLoud: Int64 = 0
        private(set) var found: [Range<Int64>] = []

        init(detection: SilenceDetection, total: Int64) {
            self.detection = detection; self.total = total
            amplitude = Float(pow(10, detection.threshold / 20))
        }

        mutating func feed(_ samples: [Float], count: Int, at position: Int64) {
            var sum: Double = 0
            var firstLoud: Int? = nil, lastLoudHere: Int? = nil
            for i in 0..<count {
                let x = samples[i]
                sum += Double(x) * Double(x)
                if abs(x) > amplitude {
                    if firstLoud == nil { firstLoud = i }
                    lastLoudHere = i
                }
            }
            let rms = count > 0 ? (sum / Double(count)).squareRoot() : 0
            let level = rms > 0 ? 20 * log10(rms) : -200
            if let start = silentSince {
                if level > detection.threshold + detection.hysteresis {
                    // The silence ends at the first loud sample of the sound that ended it.
                    close(start: start, end: loudInPrevious ?? position + Int64(firstLoud ?? 0))
                    silentSince = nil
                }
                loudInPrevious = firstLoud.map { position + Int64($0) }
            } else if level < detection.threshold {
                // It starts after the last loud sample (in this window or an earlier one).
                silentSince = lastLoudHere.map { position + Int64($0) + 1 } ?? lastLoud
                loudInPrevious = nil
            }
            if let lastLoudHere { lastLoud = position + Int64(lastLoudHere) + 1 }
        }

        private mutating func close(start: Int64, end: Int64) {
            let minimum = SilenceDetection.format.frame(at: detection.minimum)
            if end - start >= minimum, end > start { found.append(start..<end) }
        }

        mutating func finish() -> [Range<Int64>] {
            if let start = silentSince { close(start: start, end: total); silentSince = nil }
            return found
        }
    }
}

extension Clip {
    /// The clip with the stretches of `silences` (ranges of the clip's own time) cut out, picture and
    /// sound together, leaving `keep` of each (half after the sound before it, half before the sound
    /// after it). Cuts fall on frame boundaries at `rate` (each stretch's kept part rounded to whole
    /// frames), and the pieces are joined by cuts whose sound crossfades (the sequence's 20 ms
    /// equal-power crossfade), so no join clicks. Stretches shorter than `keep` are left alone.
    public func removingSilences(_ silences: [TimeRange], keep: Time = Time(value: 1, timescale: 10), rate: FrameRate) -> Clip {
        let half = Time(value: keep.value, timescale: keep.timescale * 2)
        let halfFrame = Time(value: rate.frameDuration.value, timescale: rate.frameDuration.timescale * 2)
        /// The frame boundary nearest `t`.
        func nearestBoundary(_ t: Time) -> Time { rate.time(ofFrame: rate.frameIndex(at: t + halfFrame)) }
        var pieces: [(from: Time, to: Time)] = []
        var cursor = Time.zero
        for s in silences.sorted(by: { $0.start < $1.start }) {
            let cutFrom = nearestBoundary(s.start + half)
            let cutTo = nearestBoundary(s.start + s.duration - half)
            guard cutTo > cutFrom, cutFrom >= cursor, cutFrom < duration else { continue }
            if cutFrom > cursor { pieces.append((cursor, cutFrom)) }
            cursor = Time.min(cutTo, duration)
        }
        if cursor < duration { pieces.append((cursor, duration)) }
        guard pieces.count != 1 || pieces[0].from != .zero || pieces[0].to != duration else { return self }
        return .sequence(pieces.map { trimmed(from: $0.from, to: $0.to) })
    }
}

/// A sound file read once from its start for an analysis (beats, silences), in mono blocks.
struct AnalysedSound {
    let url: URL
    /// How many sample frames the sound has at the format's rate.
    let frames: Int64
    private let reader: any AudioReader

    /// Opens `url` (any file FFmpeg reads a sound from) in `format`. Throws `.audioUnreadable` or
    /// `.noAudioStream` for a file without usable sound, or whose length is unknown.
    init(_ url: URL, format: AudioFormat) throws(MovieMakerError) {
        self.url = url
        let file = try AudioFile(url: url)
        guard let duration = file.duration else {
            throw .audioUnreadable(path: url.path, reason: "its length is unknown (no duration in the file and none in its packets)")
        }
        do { reader = try file.makeReader(format: format) } catch let error as MovieMakerError {
            throw error
        } catch {
            throw .audioUnreadable(path: url.path, reason: "\(error)")
        }
        frames = format.frame(at: duration)
    }

    /// Reads the next `block.count` frames into `block` (silence past the end).
    func read(into block: inout [Float]) throws(MovieMakerError) {
        do {
            try block.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frameCount: $0.count) }
        } catch let error as MovieMakerError {
            throw error
        } catch {
            throw .audioUnreadable(path: url.path, reason: "\(error)")
        }
    }
}

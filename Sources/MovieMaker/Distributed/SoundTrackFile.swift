internal import CFFmpeg
import Foundation

/// A movie's whole sound track in a file of its own — AAC in an MP4 (`<name>.sound.<hash>.m4a`) —
/// rendered by one worker beside the video chunks, so that assembly copies its packets instead of
/// mixing and encoding the sound itself (the slow part of an assembly: about 3 s per minute of movie).
///
/// The sound track is still rendered once, for the whole movie, never per chunk. It is encoded by the
/// same `AudioEncoder`, stepped frame by frame exactly as a single render steps it
/// (`AudioEncoder.encode(throughVideoFrame:rate:)`), so its packets are the ones a single render or an
/// assembly would encode: same bytes, same timestamps, the same priming (the first packet at −1024,
/// recorded by the MP4 muxer as an edit list and given back by the demuxer as a negative timestamp).
///
/// `render` writes it (atomically: a partial file renamed into place); `open` checks a file and
/// returns it ready to copy. Owns its `Demuxer`; the stream and the packet it hands out are borrowed
/// from it.
final class SoundTrackFile {
    /// The file being read (owned).
    private let demuxer: Demuxer
    /// The audio stream's index in the file.
    private let stream: Int32
    /// The sample rate, which is also the stream's time base (1/sampleRate).
    let sampleRate: Int
    /// The bit rate the encoder was asked for (the file records the rate it averaged instead).
    let bitRate: Int

    /// The sound stream, borrowed: owned by the demuxer's format context.
    var borrowedStream: UnsafeMutablePointer<AVStream> { demuxer.borrowedStream(stream) }

    private init(demuxer: Demuxer, stream: Int32, settings: AudioSettings) {
        self.demuxer = demuxer; self.stream = stream; sampleRate = settings.sampleRate; bitRate = settings.bitRate
    }

    /// Renders the sound track of a movie of `frameCount` frames at `rate` — `sounds` placed in time,
    /// encoded with `settings` (AAC) — into `url`, atomically: a failed or cancelled render leaves
    /// nothing under `url` and an existing file as it was.
    static func render(to url: URL, settings: AudioSettings, sounds: [(source: any AudioSource, at: Time)], frameCount: Int,
                       rate: FrameRate, cancellation: CancellationToken?) throws(MovieMakerError) {
        try PartialFiles.writeAtomically(to: url, extension: url.pathExtension) { (temporary) throws(MovieMakerError) in
            // The order of mux.c: output context, encoder opened, stream added, file, header, packets, trailer.
            let muxer = try Muxer(path: temporary.path, formatName: "mp4", destination: url.path)
            try settings.validate(for: .aac)
            let encoder = try AudioEncoder(codec: .aac, settings: settings, globalHeader: muxer.needsGlobalHeader)
            for sound in sounds { try VideoEncoder.place(sound.source, at: sound.at, on: encoder) }
            try encoder.attach(to: muxer)
            try muxer.openFile()
            try muxer.writeHeader(options: VideoEncoder.headerOptions(.mp4, audioSampleRate: settings.sampleRate), description: "sound track (mp4)")
            for frame in 1...max(1, frameCount) where frame <= frameCount {
                if let cancellation, cancellation.isCancelled { throw MovieMakerError.cancelled }
                try encoder.encode(throughVideoFrame: frame, rate: rate)
            }
            try encoder.finish(atVideoFrame: frameCount, rate: rate)
            try muxer.finish()
        }
        try writeRecord(of: url)
    }

    /// Where the record of the sound track file at `url` is kept (`<file>.check`, as a chunk's).
    static func recordURL(of url: URL) -> URL { url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".check") }

    /// Writes the record of the file at `url` as written (its SHA-256 and size) beside it: bytes damaged
    /// later leave a file whose packets still read, but whose sound is not what was encoded.
    static func writeRecord(of url: URL) throws(MovieMakerError) {
        guard let sha = FileHash.sha256(ofFileAt: url.path), let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else {
            throw .chunkMismatch(path: url.path, reason: "it cannot be read back to record its checksum")
        }
        let record = JSONValue.object(["sha256": .string(sha), "bytes": .number("\(size)")])
        try PartialFiles.write(Data(record.canonicalText.utf8), to: recordURL(of: url))
    }

    /// Why the file at `url` is not what was written, or nil when it matches its record.
    static func recordProblem(_ url: URL) -> String? {
        let recordURL = recordURL(of: url)
        guard let data = try? Data(contentsOf: recordURL), let record = (try? JSONValue(parsing: data))?.objectValue,
              let sha = record["sha256"]?.stringValue, case let .number(bytes)? = record["bytes"] else {
            return "it has no record of what was written (\(recordURL.lastPathComponent), which goes wherever the file goes)"
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
        guard size.map({ "\($0)" }) == bytes else { return "it is \(size.map { "\($0)" } ?? "no") bytes, \(bytes) were written: it was changed or replaced" }
        guard let now = FileHash.sha256(ofFileAt: url.path), now == sha else {
            return "its content is not what was written (SHA-256 differs): it was changed or replaced"
        }
        return nil
    }

    /// Opens the sound track file at `url` and checks that it is what `settings` encode for a movie
    /// ending at sample frame `end`: one AAC stream at the sample rate and channel count asked, every
    /// packet readable, and the last one ending exactly at `end`. Returns it positioned at its start.
    /// Throws `.chunkMismatch` saying what is wrong.
    static func open(_ url: URL, settings: AudioSettings, end: Int64) throws(MovieMakerError) -> SoundTrackFile {
        func mismatch(_ reason: String) -> MovieMakerError { .chunkMismatch(path: url.path, reason: reason) }
        if let problem = recordProblem(url) { throw mismatch(problem) }
        let opened: Demuxer
        do {
            opened = try Demuxer(path: url.path, detectsTruncation: true, describe: { .chunkMismatch(path: url.path, reason: "it cannot be read: \($0.ffmpegError.message)") })
        } catch {
            throw mismatch("it cannot be opened (\(error.message))")
        }
        guard opened.streamCount == 1, let index = opened.bestStream(AVMEDIA_TYPE_AUDIO) else { throw mismatch("it is not a sound track alone") }
        let parameters = opened.borrowedStream(index).pointee.codecpar!
        guard parameters.pointee.codec_id == AV_CODEC_ID_AAC else { throw mismatch("its sound is not AAC") }
        guard Int(parameters.pointee.sample_rate) == settings.sampleRate, Int(parameters.pointee.ch_layout.nb_channels) == settings.channelCount else {
            throw mismatch("it holds \(parameters.pointee.ch_layout.nb_channels) channels at \(parameters.pointee.sample_rate) Hz, the movie's sound \(settings.channelCount) at \(settings.sampleRate) Hz")
        }
        let timeBase = opened.borrowedStream(index).pointee.time_base
        guard timeBase.num == 1, Int(timeBase.den) == settings.sampleRate else { throw mismatch("its time base is \(timeBase.num)/\(timeBase.den), not one sample") }
        // Every packet read (no decoding: milliseconds a minute), so a file cut short is caught here.
        var last: Int64? = nil
        while let packet = try opened.readPacket(ofStream: index) { last = packet.pointee.pts + packet.pointee.duration }
        guard last == end else { throw mismatch("it ends at sample \(last.map(String.init) ?? "none"), the movie at \(end)") }
        // Opened again to read from the start (cheaper and surer than seeking before the priming packet).
        let reading: Demuxer
        do {
            reading = try Demuxer(path: url.path, detectsTruncation: true, describe: { .chunkMismatch(path: url.path, reason: "it cannot be read: \($0.ffmpegError.message)") })
        } catch {
            throw mismatch("it cannot be opened again (\(error.message))")
        }
        return SoundTrackFile(demuxer: reading, stream: index, settings: settings)
    }

    /// Reads the next packet (borrowed: valid until the next read), or nil at the end.
    func readPacket() throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? {
        try demuxer.readPacket(ofStream: stream)
    }

    /// `time` as a timestamp of the sound stream (sample frames), rounded down.
    func timestamp(of time: Time) -> Int64 { demuxer.timestamp(of: time, inStream: stream) }
}

internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// What a worker wrote into a chunk file, recorded beside it when it was written
/// (`<chunk>.mp4.check`, JSON): the file's SHA-256 and size, the frames its name says, and the first
/// and last timestamps and the count of its video packets.
///
/// A chunk is only skipped (`renderFrames`: already complete) or joined (`assemble`) when the file still
/// matches its record. Bytes flipped inside a chunk, or one chunk's file copied over another's, leave a
/// file that still opens, holds the frame count its name says and decodes — into the wrong pictures; the
/// record catches both and names the chunk. Copy a chunk together with its record.
struct ChunkRecord: Equatable {
    /// The file's SHA-256 (hex).
    var sha256: String
    /// The file's size in bytes.
    var bytes: Int
    /// The movie's frames the chunk holds (from its name).
    var frames: Range<Int>
    /// How many video packets it holds.
    var packets: Int
    /// The first and last video packets' timestamps, in `timeBase`.
    var firstTimestamp: Int64, lastTimestamp: Int64
    /// The video stream's time base, `num/den`.
    var timeBase: String

    /// Where the record of the chunk at `chunk` is kept.
    static func url(for chunk: URL) -> URL { chunk.deletingLastPathComponent().appendingPathComponent(chunk.lastPathComponent + ".check") }

    /// The record of the chunk file at `url` as it is now (nil when it cannot be read).
    static func measure(_ url: URL, frames: Range<Int>) -> ChunkRecord? {
        guard let sha = FileHash.sha256(ofFileAt: url.path),
              let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
              let demuxer = try? Demuxer(path: url.path), let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { return nil }
        let tb = demuxer.borrowedStream(stream).pointee.time_base
        var count = 0
        var first = Int64.max, last = Int64.min
        while let packet = try? demuxer.readPacket(ofStream: stream) {
            count += 1
            let pts = packet.pointee.pts
            if pts != mm_av_nopts_value() { first = min(first, pts); last = max(last, pts) }
        }
        return ChunkRecord(sha256: sha, bytes: size, frames: frames, packets: count, firstTimestamp: first, lastTimestamp: last,
                           timeBase: "\(tb.num)/\(tb.den)")
    }

    /// The record as JSON (canonical text).
    var json: JSONValue {
        .object(["sha256": .string(sha256), "bytes": .number("\(bytes)"), "frames": .array([.number("\(frames.lowerBound)"), .number("\(frames.upperBound)")]),
                 "packets": .number("\(packets)"), "firstTimestamp": .number("\(firstTimestamp)"), "lastTimestamp": .number("\(lastTimestamp)"),
                 "timeBase": .string(timeBase)])
    }

    /// A record read from its JSON, or nil when it is not one.
    init?(json: JSONValue) {
        func int(_ v: JSONValue?) -> Int64? { if case let .number(t)? = v { return Int64(t) } else { return nil } }
        guard let o = json.objectValue, let sha = o["sha256"]?.stringValue, let bytes = int(o["bytes"]),
              case let .array(range)? = o["frames"], range.count == 2, let a = int(range[0]), let b = int(range[1]), a < b,
              let packets = int(o["packets"]), let first = int(o["firstTimestamp"]), let last = int(o["lastTimestamp"]),
              let tb = o["timeBase"]?.stringValue else { return nil }
        self.init(sha256: sha, bytes: Int(bytes), frames: Int(a)..<Int(b), packets: Int(packets), firstTimestamp: first, lastTimestamp: last, timeBase: tb)
    }

    /// A record of the given values.
    init(sha256: String, bytes: Int, frames: Range<Int>, packets: Int, firstTimestamp: Int64, lastTimestamp: Int64, timeBase: String) {
        self.sha256 = sha256; self.bytes = bytes; self.frames = frames; self.packets = packets
        self.firstTimestamp = firstTimestamp; self.lastTimestamp = lastTimestamp; self.timeBase = timeBase
    }

    /// Measures the chunk at `url` and writes its record beside it (atomically).
    static func write(for url: URL, frames: Range<Int>) throws(MovieMakerError) {
        guard let record = measure(url, frames: frames) else {
            throw .chunkMismatch(path: url.path, reason: "it cannot be read back to record its checksum")
        }
        let destination = Self.url(for: url)
        try PartialFiles.write(Data(record.json.canonicalText.utf8), to: destination)
    }

    /// Why the chunk at `url` (holding `frames`, by its name) cannot be used, or nil when it matches the
    /// record written with it: no record, a record of other frames, another size or checksum (bytes
    /// changed, or another chunk's file in its place).
    static func problem(with url: URL, frames: Range<Int>) -> String? {
        let recordURL = Self.url(for: url)
        guard let data = try? Data(contentsOf: recordURL), let value = try? JSONValue(parsing: data), let record = ChunkRecord(json: value) else {
            return "it has no record of what was written (\(recordURL.lastPathComponent), which goes wherever the chunk goes)"
        }
        guard record.frames == frames else {
            return "its record is of frames \(record.frames.lowerBound)..<\(record.frames.upperBound), its name says \(frames.lowerBound)..<\(frames.upperBound)"
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
        guard size == record.bytes else {
            return "it is \(size.map { "\($0)" } ?? "no") bytes, \(record.bytes) were written: it was changed or replaced"
        }
        guard let now = measure(url, frames: frames) else { return "it cannot be read" }
        guard now.sha256 == record.sha256 else {
            return "its content is not what was written (SHA-256 \(now.sha256.prefix(12))…, written \(record.sha256.prefix(12))…): it was changed or replaced"
        }
        guard now == record else {
            return "its packets are not what was written (\(now.packets) from \(now.firstTimestamp) to \(now.lastTimestamp), written \(record.packets) from \(record.firstTimestamp) to \(record.lastTimestamp))"
        }
        return nil
    }
}

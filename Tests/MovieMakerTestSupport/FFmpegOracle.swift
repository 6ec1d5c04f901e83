import Foundation
import Synchronization
import Testing
import MovieMaker

/// The first audio stream's decoded samples (first channel), and the time of sample 0 (the first
/// decoded frame's timestamp, from ffprobe, so neither seeking nor ffmpeg's output timing is trusted).
public func decodeAudio(_ url: URL, in folder: TemporaryFolder) throws -> (samples: [Float], start: Double, rate: Int) {
    let raw = folder.file("audio-\(UUID().uuidString.prefix(6)).raw")
    let r = try run(FFTools.ffmpeg, ["-v", "error", "-y", "-i", url.path, "-map", "0:a:0", "-af", "pan=mono|c0=c0",
                                     "-c:a", "pcm_f32le", "-f", "f32le", raw.path])
    #expect(r.status == 0, "ffmpeg failed: \(r.stderr)")
    let data = try Data(contentsOf: raw)
    try? FileManager.default.removeItem(at: raw)
    let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    let probe = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "a:0", "-read_intervals", "%+0.5", "-show_entries",
                                          "frame=best_effort_timestamp_time:stream=sample_rate", "-of", "json", url.path])
    let json = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any]
    let start = ((json?["frames"] as? [[String: Any]])?.first?["best_effort_timestamp_time"] as? String).flatMap(Double.init)
    let rate = ((json?["streams"] as? [[String: Any]])?.first?["sample_rate"] as? String).flatMap(Int.init)
    #expect(start != nil && rate != nil, "ffprobe gave no first audio frame: \(probe.stdout) \(probe.stderr)")
    return (samples, start ?? .nan, rate ?? 0)
}

/// Stream fields from ffprobe (`-show_streams`), keyed by codec type ("video", "audio").
public func probeStreams(_ url: URL) throws -> [String: [String: Any]] {
    let r = try run(FFTools.ffprobe, ["-v", "error", "-show_streams", "-of", "json", url.path])
    #expect(r.status == 0, "ffprobe failed: \(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    var result: [String: [String: Any]] = [:]
    for s in (json?["streams"] as? [[String: Any]]) ?? [] {
        if let type = s["codec_type"] as? String, result[type] == nil { result[type] = s }
    }
    return result
}

/// A numeric field of an ffprobe stream dictionary.
public func double(_ stream: [String: Any]?, _ key: String) -> Double? { (stream?[key] as? String).flatMap(Double.init) }

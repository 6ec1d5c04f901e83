import Foundation

/// A sound file damaged the way a bad sector or a cut-off download damages one: AAC whose garbled
/// packets FFmpeg's decoder refuses with an error other than "invalid data" (most often "Not yet
/// implemented in FFmpeg, patches welcome"), which stopped renders where the ffmpeg tool plays on.
public enum DamagedSound {
    /// What went wrong making the file.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `damaged.m4a` in `folder`: 4 s of a 440 Hz tone under light noise (stereo AAC), with 2 KiB
    /// a third of the way into its media data garbled by a seeded generator. The first seed for which
    /// the ffmpeg tool (the oracle) reports a decoding error other than invalid data is used, so the
    /// file is the kind the tests are about whatever the encoder's bytes. Returns the file and the
    /// oracle's error line.
    public static func write(in folder: TemporaryFolder) throws -> (url: URL, oracleError: String) {
        let clean = folder.file("clean.m4a")
        let made = try run(FFTools.ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4:sample_rate=48000",
                                            "-f", "lavfi", "-i", "anoisesrc=d=4:a=0.1", "-filter_complex", "amix=inputs=2",
                                            "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-y", clean.path])
        guard made.status == 0 else { throw Failure(description: "ffmpeg could not make the sound: \(made.stderr)") }
        let original = try Data(contentsOf: clean)
        guard let mdat = original.firstRange(of: Data("mdat".utf8)) else { throw Failure(description: "no mdat in \(clean.path)") }
        let damaged = folder.file("damaged.m4a")
        for seed in UInt32(1)...60 {
            var data = original
            let start = mdat.upperBound + (data.count - mdat.upperBound) / 3
            var state = seed
            for i in start..<min(start + 2048, data.count) {
                state = state &* 1_103_515_245 &+ 12345
                data[i] = UInt8(truncatingIfNeeded: state >> 16)
            }
            try data.write(to: damaged)
            let oracle = try run(FFTools.ffmpeg, ["-v", "error", "-i", damaged.path, "-f", "null", "-"])
            if let line = oracle.stderr.split(separator: "\n").first(where: { $0.contains("Error while decoding") && !$0.contains("Invalid data") }) {
                return (damaged, String(line))
            }
        }
        throw Failure(description: "no seed from 1 to 60 garbles \(clean.path) into an error other than invalid data")
    }
}

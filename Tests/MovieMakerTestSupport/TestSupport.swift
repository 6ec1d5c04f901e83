import Foundation
import Testing
import MovieMaker
internal import CMovieMakerTestKernels

/// A fresh folder for one test's files, removed when the value is released.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL
    /// A new empty folder under the temporary directory, named after the calling test.
    public init(_ name: String = #function) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mm-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    /// The URL of `name` inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    /// Every file in the folder, hidden ones (temporary partial files) included.
    public var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` (make the pipes, configure a `Process`, `run()` it) while no other test, and no launch
/// in the library, starts a process: see `ProcessLaunch` for why (without it, a studio stopped in 0.2 s
/// was reported alive after 30 s in a full parallel run, its socket pair held open by another test's child).
public func withLaunchLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    try ProcessLaunch.serialized(body)
}

/// Runs an executable and returns its exit status, standard output and standard error.
@discardableResult
public func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    let (out, err) = try withLaunchLock {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        return (out, err)
    }
    // Read both pipes fully before waiting, so a large output cannot block the child.
    var outData = Data(), errData = Data()
    let group = DispatchGroup()
    nonisolated(unsafe) var e = Data()
    group.enter()
    DispatchQueue.global().async { e = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    errData = e
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// ffprobe/ffmpeg, the tests' second opinion. The set-up script installs them; in CI they are required.
public enum FFTools {
    /// Where ffprobe is.
    public static let ffprobe = "/usr/bin/ffprobe"
    /// Where ffmpeg is.
    public static let ffmpeg = "/usr/bin/ffmpeg"
    /// Whether both tools are installed (recording an issue in CI, where they must be).
    public static var available: Bool {
        let present = FileManager.default.isExecutableFile(atPath: ffprobe) && FileManager.default.isExecutableFile(atPath: ffmpeg)
        if !present && ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("ffprobe/ffmpeg missing in CI: scripts/install-deps.sh should have installed the ffmpeg package")
        }
        return present
    }
    /// `ffprobe -show_streams` of the first video stream, as a dictionary of its JSON fields.
    public static func videoStream(_ url: URL, countFrames: Bool = true) throws -> [String: Any] {
        var args = ["-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json"]
        if countFrames { args.insert("-count_frames", at: 2) }
        let r = try run(ffprobe, args + [url.path])
        #expect(r.status == 0, "ffprobe failed: \(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return ((json?["streams"] as? [[String: Any]])?.first) ?? [:]
    }
    /// Presentation timestamps of every video packet as exact times, from ffprobe.
    public static func packetTimes(_ url: URL) throws -> [Time] {
        let stream = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base", "-of", "csv=p=0", url.path])
        let tb = stream.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").compactMap { Int64($0) }
        #expect(tb.count == 2, "unexpected time base \(stream.stdout)")
        let r = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", url.path])
        #expect(r.status == 0, "ffprobe failed: \(r.stderr)")
        return r.stdout.split(separator: "\n").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            .map { Time(value: $0 * tb[0], timescale: tb[1]) }
    }
}

/// Top-level MP4/QuickTime box types in file order.
public func topLevelBoxes(_ url: URL) throws -> [String] {
    let data = try Data(contentsOf: url)
    var types: [String] = []
    var offset = 0
    while offset + 8 <= data.count {
        var size = Int(data[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
        if size == 1 { size = Int(data[offset + 8..<offset + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        if size == 0 { size = data.count - offset }
        guard size >= 8 else { break }
        types.append(type)
        offset += size
    }
    return types
}

/// The `colr` box's nclx values (primaries, transfer, matrix, full-range flag), found by scanning the file.
public func colrBox(_ url: URL) throws -> (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)? {
    let bytes = [UInt8](try Data(contentsOf: url))
    let pattern: [UInt8] = Array("colrnclx".utf8)
    guard bytes.count > 16 else { return nil }
    for i in 0..<(bytes.count - 15) where bytes[i] == pattern[0] && Array(bytes[i..<i + 8]) == pattern {
        let p = Int(bytes[i + 8]) << 8 | Int(bytes[i + 9])
        let t = Int(bytes[i + 10]) << 8 | Int(bytes[i + 11])
        let m = Int(bytes[i + 12]) << 8 | Int(bytes[i + 13])
        return (p, t, m, bytes[i + 14] & 0x80 != 0)
    }
    return nil
}

/// PSNR in dB over the R, G and B channels of two same-sized buffers (alpha ignored).
public func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    precondition(a.bytes.count == a.width * a.height * 4 && b.bytes.count == a.bytes.count)
    let sum = a.bytes.withUnsafeBufferPointer { pa in
        b.bytes.withUnsafeBufferPointer { pb in mmt_rgb_squared_error(pa.baseAddress, pb.baseAddress, a.width * a.height) }
    }
    let mse = Double(sum) / Double(a.width * a.height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// The mean (r, g, b) of a square of pixels centred on (x, y).
public func meanColor(_ p: PixelBuffer, x: Int, y: Int, radius: Int = 4) -> (r: Double, g: Double, b: Double) {
    var r = 0.0, g = 0.0, b = 0.0, n = 0.0
    for yy in (y - radius)...(y + radius) { for xx in (x - radius)...(x + radius) {
        let c = p.rgba(x: xx, y: yy); r += Double(c.red); g += Double(c.green); b += Double(c.blue); n += 1
    } }
    return (r / n, g / n, b / n)
}

/// Writes `bytes` to `url` so a test can check the file is left untouched.
public func plantExistingFile(_ url: URL) throws -> Data {
    let data = Data("an existing movie the user cares about \(UUID())".utf8)
    try data.write(to: url)
    return data
}

/// Decodes every frame of a movie into an array (small test movies only).
public func decodeAll(_ url: URL) throws -> [DecodedFrame] {
    var frames: [DecodedFrame] = []
    try MovieReader(url: url).decodeFrames { frames.append($0); return true }
    return frames
}

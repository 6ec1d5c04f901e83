import CWebP
import Foundation
import MovieMaker

/// Readers of animated images written by MovieMaker, independent of its own code: the GIF and APNG
/// timing and loop fields parsed from the bytes as their specifications lay them out, WebP decoded by
/// libwebp's own animation decoder, pictures decoded (and scaled) by the ffmpeg command line.
public enum AnimatedImageFiles {
    /// A GIF's frames: each frame's delay in centiseconds (its Graphic Control Extension) and the
    /// NETSCAPE2.0 loop count (nil when absent: plays once; 0: forever).
    public static func gif(_ url: URL) throws -> (delays: [Int], loopCount: Int?, width: Int, height: Int) {
        let b = [UInt8](try Data(contentsOf: url))
        precondition(b.count > 13 && b[0...2] == [0x47, 0x49, 0x46], "not a GIF")
        let width = Int(b[6]) | Int(b[7]) << 8, height = Int(b[8]) | Int(b[9]) << 8
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
        var delays: [Int] = [], loop: Int? = nil, pendingDelay = 0
        func skipSubBlocks() { while i < b.count, b[i] != 0 { i += Int(b[i]) + 1 }; i += 1 }
        while i < b.count {
            switch b[i] {
            case 0x21:
                let label = b[i + 1]
                if label == 0xF9 { pendingDelay = Int(b[i + 4]) | Int(b[i + 5]) << 8 }
                if label == 0xFF, b.count > i + 14, String(decoding: b[(i + 3)..<(i + 14)], as: UTF8.self) == "NETSCAPE2.0" {
                    loop = Int(b[i + 16]) | Int(b[i + 17]) << 8
                }
                i += 2
                skipSubBlocks()
            case 0x2C:
                let flags = b[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                i += 1   // LZW minimum code size
                skipSubBlocks()
                delays.append(pendingDelay)
            case 0x3B:
                return (delays, loop, width, height)
            default:
                preconditionFailure("GIF: unexpected block \(b[i]) at \(i)")
            }
        }
        return (delays, loop, width, height)
    }

    /// An APNG's frame delays (fcTL delay_num/delay_den, a zero denominator meaning 100) as exact
    /// fractions of a second, and its acTL play count (0: forever).
    public static func apng(_ url: URL) throws -> (delays: [(num: Int, den: Int)], plays: Int, hasSRGB: Bool) {
        let b = [UInt8](try Data(contentsOf: url))
        func u32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
        func u16(_ at: Int) -> Int { Int(b[at]) << 8 | Int(b[at + 1]) }
        var i = 8, delays: [(Int, Int)] = [], plays = -1, srgb = false
        while i + 8 <= b.count {
            let length = u32(i), type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            if type == "acTL" { plays = u32(i + 12) }
            if type == "fcTL" { let d = u16(i + 8 + 22); delays.append((u16(i + 8 + 20), d == 0 ? 100 : d)) }
            if type == "sRGB" { srgb = true }
            i += 12 + length
        }
        return (delays, plays, srgb)
    }

    /// An animated WebP decoded by libwebp's WebPAnimDecoder: each frame (BGRA, straight alpha, composited
    /// on the canvas as a browser shows it), its end time in milliseconds, and the loop count (0: forever).
    public static func webp(_ url: URL) throws -> (frames: [PixelBuffer], endTimes: [Int], loopCount: Int) {
        let bytes = [UInt8](try Data(contentsOf: url))
        return try bytes.withUnsafeBufferPointer { buffer in
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw CocoaError(.fileReadCorruptFile) }
            options.color_mode = MODE_BGRA
            options.use_threads = 0
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { throw CocoaError(.fileReadCorruptFile) }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw CocoaError(.fileReadCorruptFile) }
            let (w, h) = (Int(info.canvas_width), Int(info.canvas_height))
            var frames: [PixelBuffer] = [], ends: [Int] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var end: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &end) != 0, let pixels else { throw CocoaError(.fileReadCorruptFile) }
                frames.append(PixelBuffer(width: w, height: h, bytes: Array(UnsafeBufferPointer(start: pixels, count: w * h * 4))))
                ends.append(Int(end))
            }
            return (frames, ends, Int(info.loop_count))
        }
    }

    /// Every frame of `url` as the ffmpeg command line decodes it, scaled to `width`×`height` (bicubic)
    /// when given, as BGRA.
    public static func ffmpegFrames(_ url: URL, width: Int, height: Int, scaled: Bool = false) throws -> [PixelBuffer] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-frames-\(UUID().uuidString).bgra")
        defer { try? FileManager.default.removeItem(at: raw) }
        var arguments = ["-v", "error", "-y", "-i", url.path]
        if scaled { arguments += ["-vf", "scale=\(width):\(height):flags=bicubic"] }
        arguments += ["-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "bgra", raw.path]
        let r = try run(FFTools.ffmpeg, arguments)
        guard r.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        let bytes = [UInt8](try Data(contentsOf: raw))
        let size = width * height * 4
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { PixelBuffer(width: width, height: height, bytes: Array(bytes[$0..<($0 + size)])) }
    }
}

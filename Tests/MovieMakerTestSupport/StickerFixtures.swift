import CWebP
import Foundation

/// One frame of an animated fixture: straight-alpha RGBA pixels, row by row, and how long it shows.
public struct AnimationFrame {
    /// The pixels: width × height × (R, G, B, A), straight alpha.
    public var rgba: [UInt8]
    /// How long the frame shows, in milliseconds (a GIF stores it in 1/100 s: use multiples of 10).
    public var milliseconds: Int

    /// A frame of `rgba` lasting `milliseconds`.
    public init(rgba: [UInt8], milliseconds: Int) { self.rgba = rgba; self.milliseconds = milliseconds }

    /// A `width`×`height` frame whose pixel at (x, y) is `color(x, y)` (R, G, B, A).
    public static func make(width: Int, height: Int, milliseconds: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> AnimationFrame {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { let c = color(x, y); rgba += [c.0, c.1, c.2, c.3] } }
        return AnimationFrame(rgba: rgba, milliseconds: milliseconds)
    }
}

/// Animated GIFs written by hand (no encoder library needed): GIF89a, a global palette built from the
/// frames' colours, a NETSCAPE2.0 loop extension, and per frame a graphic control extension (delay in
/// 1/100 s, a transparent index, disposal "restore to background" so transparent pixels stay
/// transparent) and uncompressed LZW data (a clear code every 250 literals keeps codes 9 bits wide).
public enum FixtureGIF {
    /// The GIF of `frames` (each `width`×`height`; alpha below 128 is transparent, at most 255 other
    /// colours in all), looping `loopCount` times (0: forever; nil: no loop extension).
    public static func data(width: Int, height: Int, frames: [AnimationFrame], loopCount: Int? = 0,
                            screenWidth: Int? = nil, screenHeight: Int? = nil) -> [UInt8] {
        let transparent: UInt8 = 255
        var palette: [[UInt8]: UInt8] = [:]
        var colors: [[UInt8]] = []
        let indexed = frames.map { frame -> [UInt8] in
            stride(from: 0, to: frame.rgba.count, by: 4).map { i -> UInt8 in
                if frame.rgba[i + 3] < 128 { return transparent }
                let rgb = Array(frame.rgba[i..<(i + 3)])
                if let index = palette[rgb] { return index }
                precondition(colors.count < 255, "a fixture GIF has at most 255 colours")
                palette[rgb] = UInt8(colors.count)
                colors.append(rgb)
                return UInt8(colors.count - 1)
            }
        }
        var out = Array("GIF89a".utf8)
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        u16(screenWidth ?? width); u16(screenHeight ?? height)
        out += [0xF7, transparent, 0]          // global table of 256 colours; background = transparent index
        for i in 0..<256 { out += i < colors.count ? colors[i] : [0, 0, 0] }
        if let loopCount {
            out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1]
            u16(loopCount)
            out += [0]
        }
        for (frame, indices) in zip(frames, indexed) {
            // Graphic control: disposal 2 (restore to background), transparent colour flag.
            out += [0x21, 0xF9, 4, 2 << 2 | 1]
            u16(frame.milliseconds / 10)
            out += [transparent, 0]
            out += [0x2C]
            u16(0); u16(0); u16(width); u16(height)
            out += [0]                          // no local table, not interlaced
            out += [8]                          // LZW minimum code size
            let lzw = uncompressedLZW(indices)
            var offset = 0
            while offset < lzw.count {
                let n = min(255, lzw.count - offset)
                out += [UInt8(n)] + lzw[offset..<(offset + n)]
                offset += n
            }
            out += [0]
        }
        out += [0x3B]
        return out
    }

    /// LZW codes (9 bits, least significant bit first) that only ever name single indices.
    static func uncompressedLZW(_ indices: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = 0, bits = 0
        func emit(_ code: Int) {
            buffer |= code << bits
            bits += 9
            while bits >= 8 { bytes.append(UInt8(buffer & 0xFF)); buffer >>= 8; bits -= 8 }
        }
        emit(256)
        var run = 0
        for index in indices {
            if run == 250 { emit(256); run = 0 }
            emit(Int(index))
            run += 1
        }
        emit(257)
        if bits > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        return bytes
    }
}

/// Animated PNGs written by hand: IHDR (8-bit RGBA), acTL, then per frame an fcTL (delay as a
/// millisecond fraction, dispose none, blend source) and the pixels in IDAT (first frame) or fdAT,
/// zlib-wrapped in stored (uncompressed) deflate blocks.
public enum FixtureAPNG {
    /// The APNG of `frames` (each `width`×`height`), played `plays` times (0: forever).
    public static func data(width: Int, height: Int, frames: [AnimationFrame], plays: Int = 0) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            out += be32(data.count) + body + be32(Int(crc32(body)))
        }
        chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        chunk("acTL", be32(frames.count) + be32(plays))
        var sequence = 0
        for (i, frame) in frames.enumerated() {
            chunk("fcTL", be32(sequence) + be32(width) + be32(height) + be32(0) + be32(0)
                  + be16(frame.milliseconds) + be16(1000) + [0, 0])
            sequence += 1
            var raw: [UInt8] = []
            for y in 0..<height {
                let start: Int = y * width * 4, end: Int = (y + 1) * width * 4
                raw.append(0); raw += frame.rgba[start..<end]
            }
            let z = zlibStored(raw)
            if i == 0 {
                chunk("IDAT", z)
            } else {
                chunk("fdAT", be32(sequence) + z)
                sequence += 1
            }
        }
        chunk("IEND", [])
        return out
    }

    /// `data` in a zlib stream of stored deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// CRC-32 (PNG's, ISO 3309).
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}

/// Animated WebPs written with libwebpmux's WebPAnimEncoder (lossless frames).
public enum FixtureAnimatedWebP {
    /// Thrown when libwebp refuses a fixture.
    public struct Failed: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// The animated WebP of `frames` (each `width`×`height`), looping `loopCount` times (0: forever).
    public static func data(width: Int, height: Int, frames: [AnimationFrame], loopCount: Int = 0) throws -> [UInt8] {
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw Failed(description: "WebPAnimEncoderOptionsInit") }
        options.anim_params.loop_count = Int32(loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else { throw Failed(description: "WebPAnimEncoderNew") }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw Failed(description: "WebPConfigInit") }
        config.lossless = 1
        var timestamp: Int32 = 0
        for frame in frames {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw Failed(description: "WebPPictureInit") }
            picture.width = Int32(width); picture.height = Int32(height); picture.use_argb = 1
            guard WebPPictureImportRGBA(&picture, frame.rgba, Int32(width * 4)) != 0 else { throw Failed(description: "WebPPictureImportRGBA") }
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                throw Failed(description: "WebPAnimEncoderAdd: \(String(cString: WebPAnimEncoderGetError(encoder)))")
            }
            timestamp += Int32(frame.milliseconds)
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else { throw Failed(description: "WebPAnimEncoderAdd (end)") }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else { throw Failed(description: "WebPAnimEncoderAssemble") }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }
}

/// The three-frame fixture the sticker tests share: 64×64, red for 100 ms, then green for 200 ms with
/// a transparent border 16 pixels wide (only its centre 32×32 is opaque), then blue for 300 ms.
public enum StickerFixtures {
    /// The side of the fixture's frames.
    public static let side = 64
    /// The frames' colours (R, G, B) in order.
    public static let colors: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    /// The frames' durations in milliseconds.
    public static let milliseconds = [100, 200, 300]

    /// The frames; with `halfAlpha`, the last frame is blue at alpha 128 instead of opaque.
    public static func frames(halfAlpha: Bool = false) -> [AnimationFrame] {
        (0..<3).map { i in
            AnimationFrame.make(width: side, height: side, milliseconds: milliseconds[i]) { x, y in
                let c = colors[i]
                if i == 1 && (x < 16 || x >= 48 || y < 16 || y >= 48) { return (0, 0, 0, 0) }
                return (c.0, c.1, c.2, i == 2 && halfAlpha ? 128 : 255)
            }
        }
    }
}

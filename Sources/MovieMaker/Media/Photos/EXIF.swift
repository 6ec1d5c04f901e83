import Foundation

/// How a photo's stored pixels must be turned to show it upright: the eight values of the EXIF
/// Orientation tag (the names are those of Apple's `CGImagePropertyOrientation`).
public enum EXIFOrientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: stored mirrored left to right.
    case upMirrored = 2
    /// 3: stored upside down (rotate 180° to show).
    case down = 3
    /// 4: stored mirrored top to bottom.
    case downMirrored = 4
    /// 5: stored transposed (the first stored row is the left column).
    case leftMirrored = 5
    /// 6: rotate 90° clockwise to show (a phone held upright, camera on the right).
    case right = 6
    /// 7: stored transversed (the first stored row is the right column, read bottom to top).
    case rightMirrored = 7
    /// 8: rotate 90° counter-clockwise to show.
    case left = 8

    /// Whether showing the photo upright swaps its stored width and height (orientations 5 to 8).
    package var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The EXIF number and its meaning, e.g. `6 (rotate 90° clockwise)`.
    public var description: String {
        let meaning = switch self {
        case .up: "upright"
        case .upMirrored: "mirrored horizontally"
        case .down: "rotate 180°"
        case .downMirrored: "mirrored vertically"
        case .leftMirrored: "transposed"
        case .right: "rotate 90° clockwise"
        case .rightMirrored: "transversed"
        case .left: "rotate 90° counter-clockwise"
        }
        return "\(rawValue) (\(meaning))"
    }

    /// Where a stored pixel goes, as byte offsets into an upright BGRA buffer `width` × `height`
    /// (upright size) with rows `stride` bytes apart: offset = origin + x · xStep + y · yStep for the
    /// stored pixel (x, y).
    func placement(width: Int, height: Int, stride: Int) -> (origin: Int, xStep: Int, yStep: Int) {
        let right = (width - 1) * 4, bottom = (height - 1) * stride
        switch self {
        case .up: return (0, 4, stride)
        case .upMirrored: return (right, -4, stride)
        case .down: return (bottom + right, -4, -stride)
        case .downMirrored: return (bottom, 4, -stride)
        case .leftMirrored: return (0, stride, 4)
        case .right: return (right, stride, -4)
        case .rightMirrored: return (bottom + right, -stride, -4)
        case .left: return (bottom, -stride, 4)
        }
    }
}

/// The few EXIF fields MovieMaker uses, read from a TIFF structure (JPEG APP1 after `Exif\0\0`, PNG
/// eXIf, WebP EXIF, HEIF Exif item, or a TIFF file itself). Every offset is bounds-checked: a
/// damaged block yields fewer fields, never a crash.
struct EXIFMetadata: Equatable, Sendable {
    /// Tag 0x0112 in IFD0.
    var orientation: EXIFOrientation?
    /// Tag 0x9003 in the EXIF IFD, `YYYY:MM:DD HH:MM:SS`.
    var dateTimeOriginal: String?
    /// Tag 0x9011 in the EXIF IFD, e.g. `+02:00`.
    var offsetTimeOriginal: String?
    /// Tag 0x9291 in the EXIF IFD: DateTimeOriginal's fraction of a second as digits (`"130"` is
    /// 0.130 s), which orders a burst's photos taken within one second.
    var subSecTimeOriginal: String?
    /// Tag 0x0132 in IFD0 (file change time), the fallback when DateTimeOriginal is missing.
    var dateTime: String?
    /// Tag 0xA001 in the EXIF IFD: 1 sRGB, 0xFFFF uncalibrated (2, Adobe RGB, in some cameras' files).
    var colorSpace: Int?
    /// Tag 0x0001 of the Interoperability IFD (0xA005): "R98" sRGB, "R03" Adobe RGB (DCF's option file).
    var interoperabilityIndex: String?
    /// Whether the camera marked the file Adobe RGB without embedding a profile: ColorSpace 2, or
    /// uncalibrated with the Interoperability index "R03", as Canon, Nikon and Sony bodies set to Adobe
    /// RGB write their JPEGs.
    var isAdobeRGB: Bool { colorSpace == 2 || (colorSpace == 0xFFFF && interoperabilityIndex == "R03") }
    /// Tags 0x0100 and 0x0101 in IFD0: the image size of a TIFF file.
    var imageWidth: Int?
    var imageHeight: Int?

    /// Parses a TIFF structure; nil when it does not start with a TIFF header.
    init?(tiff bytes: UnsafeRawBufferPointer) {
        var reader = TIFFReader(bytes: bytes)
        guard let ifd0 = reader.firstIFDOffset() else { return nil }
        var exifIFD: Int?
        reader.forEachEntry(in: ifd0) { tag, type, count, valueOffset in
            switch tag {
            case 0x0112:
                if let v = reader.integer(type: type, count: count, at: valueOffset) { orientation = EXIFOrientation(rawValue: v) }
            case 0x0100:
                imageWidth = reader.integer(type: type, count: count, at: valueOffset)
            case 0x0101:
                imageHeight = reader.integer(type: type, count: count, at: valueOffset)
            case 0x0132:
                dateTime = reader.ascii(type: type, count: count, at: valueOffset)
            case 0x8769:
                exifIFD = reader.integer(type: type, count: count, at: valueOffset)
            default: break
            }
        }
        if let exifIFD {
            var interoperabilityIFD: Int?
            reader.forEachEntry(in: exifIFD) { tag, type, count, valueOffset in
                switch tag {
                case 0x9003: dateTimeOriginal = reader.ascii(type: type, count: count, at: valueOffset)
                case 0x9011: offsetTimeOriginal = reader.ascii(type: type, count: count, at: valueOffset)
                case 0x9291: subSecTimeOriginal = reader.ascii(type: type, count: count, at: valueOffset)
                case 0xA001: colorSpace = reader.integer(type: type, count: count, at: valueOffset)
                case 0xA005: interoperabilityIFD = reader.integer(type: type, count: count, at: valueOffset)
                default: break
                }
            }
            if let interoperabilityIFD {
                reader.forEachEntry(in: interoperabilityIFD) { tag, type, count, valueOffset in
                    if tag == 0x0001 { interoperabilityIndex = reader.ascii(type: type, count: count, at: valueOffset) }
                }
            }
        }
    }

    /// Parses a copy of the bytes.
    init?(tiff bytes: [UInt8]) {
        guard let parsed = bytes.withUnsafeBytes({ EXIFMetadata(tiff: $0) }) else { return nil }
        self = parsed
    }

    /// OffsetTimeOriginal in seconds east of UTC, when the file records a real one (−12:00…+14:00;
    /// anything else is damage, as if absent). Without it `captureDate` is a wall-clock time read as UTC.
    var captureOffsetSeconds: Int? {
        guard let offset = offsetTimeOriginal, let sign = offset.first, sign == "+" || sign == "-" else { return nil }
        let parts = offset.dropFirst().split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...14).contains(parts[0]), (0...59).contains(parts[1]) else { return nil }
        return (sign == "-" ? -1 : 1) * (parts[0] * 3600 + parts[1] * 60)
    }

    /// When the photo was taken: DateTimeOriginal (or DateTime) in the offset from OffsetTimeOriginal;
    /// without an offset the wall-clock time is read as UTC (EXIF stores no zone), which keeps photos
    /// in shooting order.
    var captureDate: Date? {
        guard let text = dateTimeOriginal ?? dateTime else { return nil }
        let digits = text.split(whereSeparator: { ":- T".contains($0) }).compactMap { Int($0) }
        guard digits.count >= 6, (1...9999).contains(digits[0]), (1...12).contains(digits[1]), (1...31).contains(digits[2]),
              (0...23).contains(digits[3]), (0...59).contains(digits[4]), (0...60).contains(digits[5]) else { return nil }
        var components = DateComponents(year: digits[0], month: digits[1], day: digits[2],
                                        hour: digits[3], minute: digits[4], second: digits[5])
        // TimeZone(secondsFromGMT:) is nil outside ±18 h; a damaged offset once trapped here (make fuzz).
        guard let zone = TimeZone(secondsFromGMT: captureOffsetSeconds ?? 0) else { return nil }
        components.timeZone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: components) else { return nil }
        // The fraction of a second belongs to DateTimeOriginal only (DateTime has its own, unused here).
        guard dateTimeOriginal != nil, let digits = subSecTimeOriginal?.trimmingCharacters(in: .whitespaces),
              (1...9).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }),
              let fraction = Double("0." + digits) else { return date }
        return date.addingTimeInterval(fraction)
    }
}

/// Reads TIFF IFDs from untrusted bytes.
private struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    var bigEndian = false

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = Int(bytes[at]), b = Int(bytes[at + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }
    func u32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        let b = (0..<4).map { Int(bytes[at + $0]) }
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    /// Reads the byte order and returns IFD0's offset.
    mutating func firstIFDOffset() -> Int? {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        guard u16(2) == 42 else { return nil }
        return u32(4)
    }

    /// Calls `body(tag, type, count, offset of the value field)` for each entry of the IFD at `offset`.
    func forEachEntry(in offset: Int, _ body: (Int, Int, Int, Int) -> Void) {
        guard let n = u16(offset), n < 1000 else { return }
        for i in 0..<n {
            let entry = offset + 2 + i * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4), entry + 12 <= bytes.count else { return }
            body(tag, type, count, entry + 8)
        }
    }

    /// A SHORT or LONG value (the first one).
    func integer(type: Int, count: Int, at valueField: Int) -> Int? {
        guard count >= 1 else { return nil }
        switch type {
        case 3: return u16(valueField)
        case 4, 13: return u32(valueField)
        default: return nil
        }
    }

    /// An ASCII value, without its terminating NUL.
    func ascii(type: Int, count: Int, at valueField: Int) -> String? {
        guard type == 2, count > 0, count < 4096 else { return nil }
        let start = count <= 4 ? valueField : (u32(valueField) ?? -1)
        guard start >= 0, start + count <= bytes.count else { return nil }
        var chars = Array(bytes[start..<start + count])
        while let last = chars.last, last == 0 || last == 0x20 { chars.removeLast() }
        let text = String(decoding: chars, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}

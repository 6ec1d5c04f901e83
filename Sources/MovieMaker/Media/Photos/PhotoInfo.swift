internal import CCairo
import Foundation
import Synchronization

/// What a photo file says about itself, read from its header without decoding the pixels.
public struct PhotoInfo: Sendable, Equatable {
    /// The file.
    public let url: URL
    /// The format found in the file's first bytes.
    public let format: PhotoFormat
    /// Width in pixels, upright (after the EXIF orientation).
    public let width: Int
    /// Height in pixels, upright (after the EXIF orientation).
    public let height: Int
    /// The orientation the file records (EXIF; in HEIF files the container's own rotation, which
    /// libheif applies, takes precedence).
    public let orientation: EXIFOrientation
    /// When the photo was taken (EXIF DateTimeOriginal, see `EXIFMetadata.captureDate`), if recorded.
    public let captureDate: Date?
    /// Whether `captureDate` is a moment (the file records its UTC offset) rather than a wall-clock time
    /// read as UTC: what to know before comparing it with a file's or a video's time.
    package let captureDateIsZoned: Bool
    /// The embedded ICC profile's description (e.g. `Display P3`), if there is a profile.
    public let colorProfile: String?
    /// Whether the file is a progressive JPEG or an interlaced PNG.
    public let isProgressive: Bool
    /// The upright size.
    public var size: Size { Size(width: Double(width), height: Double(height)) }

    init(url: URL, header: PhotoHeader) {
        self.url = url
        format = header.format
        width = header.uprightWidth
        height = header.uprightHeight
        orientation = header.recordedOrientation
        captureDate = header.exif?.captureDate
        captureDateIsZoned = header.exif?.captureOffsetSeconds != nil
        colorProfile = header.icc.flatMap { ColorManagement.description(ofICC: $0) ?? "unnamed ICC profile" }
        isProgressive = header.progressive
    }
}

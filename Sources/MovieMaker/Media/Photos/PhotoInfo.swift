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
    /// The orientation the file records (EXIF). In HEIF files the container's own rotation (`irot`,
    /// `imir`), which libheif applies, is what is shown; the EXIF tag is reported but not applied.
    public let orientation: EXIFOrientation
    /// When the photo was taken (EXIF DateTimeOriginal, see `EXIFMetadata.captureDate`), if recorded.
    public let captureDate: Date?
    /// Whether `captureDate` is a moment (the file records its UTC offset) rather than a wall-clock time
    /// read as UTC: what to know before comparing it with a file's or a video's time.
    package var captureDateIsZoned: Bool { captureOffsetSeconds != nil }
    /// The capture's UTC offset in seconds east, when the file records one (EXIF OffsetTimeOriginal).
    package let captureOffsetSeconds: Int?
    /// The embedded ICC profile's description (e.g. `Display P3`), if there is a profile.
    public let colorProfile: String?
    /// Whether the file is a progressive JPEG or an interlaced PNG.
    public let isProgressive: Bool
    /// When the photo was taken as a moment comparable with files' and videos' times: `captureDate` when
    /// the file records its offset; else its wall-clock time read in `zone` (where the camera's clock
    /// most likely was), with the offset in force then (a photo at 04:30 on the day New York's clocks go
    /// forward is 08:30 UTC, not 09:30). Nil without a capture date.
    package func captureMoment(in zone: TimeZone) -> Date? {
        guard let date = captureDate else { return nil }
        guard !captureDateIsZoned else { return date }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        var local = Calendar(identifier: .gregorian)
        local.timeZone = zone
        guard let whole = local.date(from: utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)) else { return date }
        // The components stop at the second: the burst's SubSecTimeOriginal goes back on, so photos
        // taken in one second keep their order.
        let seconds = date.timeIntervalSince1970
        return whole.addingTimeInterval(seconds - seconds.rounded(.down))
    }
    /// The day the photo was taken as its camera's calendar showed it, "1 June 2025": the wall-clock date
    /// where it was taken (in its recorded offset, or as recorded without one), whatever zone the
    /// machine rendering it is in. Nil without a capture date.
    package var captureDay: String? {
        guard let date = captureDate, let zone = TimeZone(secondsFromGMT: captureOffsetSeconds ?? 0) else { return nil }
        return PhotoInfo.dayText(date, in: zone)
    }

    /// `date` as "1 June 2025" in `zone` (English month names, as every caption's).
    package static func dayText(_ date: Date, in zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "d MMMM yyyy"
        return f.string(from: date)
    }
    /// The upright size.
    public var size: Size { Size(width: Double(width), height: Double(height)) }

    init(url: URL, header: PhotoHeader) {
        self.url = url
        format = header.format
        width = header.uprightWidth
        height = header.uprightHeight
        orientation = header.recordedOrientation
        captureDate = header.exif?.captureDate
        captureOffsetSeconds = header.exif?.captureOffsetSeconds
        colorProfile = header.icc.flatMap { ColorManagement.description(ofICC: $0) ?? "unnamed ICC profile" }
        isProgressive = header.progressive
    }
}

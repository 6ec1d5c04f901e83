import Synchronization

/// Limits checked against a photo's declared size before any pixel is decoded, so a small file that
/// claims to be enormous (a "decompression bomb": 23 KB declaring 40000×40000) is refused at once
/// instead of taking gigabytes and minutes.
public enum PhotoLimits {
    /// The default `maximumPixels`: 200 megapixels (larger than any camera's photo; a 16000×12500 panorama).
    package static let defaultMaximumPixels = 200_000_000

    private static let pixels = Mutex(defaultMaximumPixels)

    /// The most pixels (width × height, as stored) a photo may declare; larger ones throw
    /// `.imageTooLarge` naming the file and this limit. Raise it for giant panoramas or scans.
    public static var maximumPixels: Int {
        get { pixels.withLock { $0 } }
        set { pixels.withLock { $0 = max(1, newValue) } }
    }

    /// Throws `.imageTooLarge` when `width`×`height` exceeds `maximumPixels`.
    static func check(width: Int, height: Int, path: String) throws(MovieMakerError) {
        let limit = maximumPixels
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || count > limit else { return }
        throw .imageTooLarge(path: path, reason: "it declares \(width)×\(height) pixels, more than the \(limit / 1_000_000) megapixels a photo may have (a damaged file can declare any size): shrink it, e.g. to 8000 pixels on its longer side",
                             limit: "\(limit) pixels")
    }
}

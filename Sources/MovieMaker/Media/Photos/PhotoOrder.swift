internal import CCairo
import Foundation
import Synchronization

/// The order `PhotoDecoder.photos(in:)` lists photos in (`"name"` or `"date"` as data; `"fileName"` and
/// `"captureDate"` are read too).
public enum PhotoOrder: String, Sendable, CaseIterable, Codable {
    /// By file name, numbers compared as numbers (IMG_2 before IMG_10); `name` on the command line.
    case fileName = "name"
    /// By capture date (EXIF DateTimeOriginal), then file name; photos without a date come last;
    /// `date` on the command line.
    case captureDate = "date"

    /// The zone a capture time without an offset (a camera's) is read in, to compare it with zoned ones
    /// (a phone's): the offset most of `photos`' zoned times have (the smaller on a tie), since a
    /// camera and a phone on one trip share a clock's zone; without any, this machine's, where the
    /// camera's clock most likely was. A set with a phone's photo orders the same wherever it renders.
    package static func zoneForUnzonedTimes(of photos: [PhotoInfo]) -> TimeZone {
        var counts: [Int: Int] = [:]
        for offset in photos.compactMap(\.captureOffsetSeconds) { counts[offset, default: 0] += 1 }
        guard let best = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else { return .current }
        return TimeZone(secondsFromGMT: best.key) ?? .current
    }

    /// `items` by date, stably (equal dates keep their order), those without a date last.
    static func sortedByDate<T>(_ items: [T], date: (T) -> Date?) -> [T] {
        items.enumerated().sorted { a, b in
            switch (date(a.element), date(b.element)) {
            case let (x?, y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }
}

extension PhotoOrder {
    /// Reads `"name"` or `"date"` (as on the command line), or the case names `"fileName"`, `"captureDate"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        switch text {
        case "name", "fileName": self = .fileName
        case "date", "captureDate": self = .captureDate
        default: throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown photo order \"\(text)\": expected name or date")
        }
    }
}

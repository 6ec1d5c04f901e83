import CCairo
import Foundation
import Synchronization

/// How large a decoded photo should be. Decoding smaller is cheaper: a JPEG is scaled in the DCT,
/// WebP while decoding, PNG while its rows stream by, so a 50-megapixel photo shown at 1080p never
/// exists at full size in memory (HEIF, TIFF, BMP and GIF are decoded whole, then reduced).
public enum PhotoScaling: Hashable, Sendable {
    /// Every pixel of the photo.
    case fullSize
    /// Large enough to show the whole photo inside a box of this size without enlarging it:
    /// at least the fitted size, at most about twice it per side, never more than the photo.
    case fitting(Size)
    /// Large enough to cover a box of this size completely (the photo is cropped to it when drawn).
    case filling(Size)

    /// The factor (≤ 1) the upright photo must keep at least.
    func scale(forWidth width: Int, height: Int) -> Double {
        let w = Double(max(1, width)), h = Double(max(1, height))
        switch self {
        case .fullSize: return 1
        case let .fitting(box):
            guard box.width > 0, box.height > 0 else { return 1 }
            return min(1, min(box.width / w, box.height / h))
        case let .filling(box):
            guard box.width > 0, box.height > 0 else { return 1 }
            return min(1, max(box.width / w, box.height / h))
        }
    }
}

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
        colorProfile = header.icc.flatMap { ColorManagement.description(ofICC: $0) ?? "unnamed ICC profile" }
        isProgressive = header.progressive
    }
}

/// A decoded photo: upright, in sRGB, as an image ready to draw, with what its file said.
public struct Photo: Sendable {
    /// The pixels: premultiplied BGRA in sRGB, upright. Its size is the decoded size, which depends
    /// on the `PhotoScaling` asked for (see `PhotoScaling`).
    public let image: Image
    /// The file's header facts (full upright size, orientation, capture date, colour profile).
    public let info: PhotoInfo
}

/// The order `PhotoDecoder.photos(in:)` lists photos in (`"name"` or `"date"` as data; `"fileName"` and
/// `"captureDate"` are read too).
public enum PhotoOrder: String, Sendable, CaseIterable, Codable {
    /// By file name, numbers compared as numbers (IMG_2 before IMG_10); `name` on the command line.
    case fileName = "name"
    /// By capture date (EXIF DateTimeOriginal), then file name; photos without a date come last;
    /// `date` on the command line.
    case captureDate = "date"

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

/// Reads photos as cameras and phones write them: JPEG (baseline, progressive, grey, CMYK), PNG,
/// WebP, HEIC/HEIF, AVIF, TIFF, BMP and GIF; applies the EXIF orientation; converts embedded ICC
/// profiles to sRGB. See ImageDecoder.swift for which library decodes what.
///
/// A file that is not an image throws `.notAnImage`; a damaged or truncated one `.imageUnreadable`;
/// both name the file. Nothing here crashes or exits on bad input.
public enum PhotoDecoder {
    /// The extensions `photos(in:)` considers (lower case).
    public static let fileExtensions: Set<String> = Set(PhotoFormat.allCases.flatMap(\.fileExtensions))

    /// Reads a photo's header: format, upright size, orientation, capture date, colour profile.
    /// Reads only the start of the file when that holds the header.
    public static func info(_ url: URL) throws(MovieMakerError) -> PhotoInfo {
        let prefix = try FileBytes(url, limit: 256 * 1024)
        if !prefix.isComplete, let header = try? header(of: prefix, url: url) {
            return PhotoInfo(url: url, header: header)
        }
        let whole = prefix.isComplete ? prefix : try FileBytes(url)
        return PhotoInfo(url: url, header: try header(of: whole, url: url))
    }

    /// Decodes a photo upright and in sRGB, at the size `scaling` asks for.
    public static func decode(_ url: URL, scaling: PhotoScaling = .fullSize) throws(MovieMakerError) -> Photo {
        // The first bytes decide, so a large file that is not an image is never read whole.
        let head = try FileBytes(url, limit: 4096)
        guard let format = PhotoFormat.sniff(head.bytes) else {
            throw .notAnImage(path: url.path, reason: PhotoFormat.describeNonImage(head.bytes))
        }
        let file = head.isComplete ? head : try FileBytes(url)
        let bytes = file.bytes
        let (header, decoded) = try ImageDecoders.decode(bytes, format: format, path: url.path, scaling: scaling)
        guard let raster = decoded else { throw .imageUnreadable(path: url.path, reason: "no pixels decoded") }
        if let icc = header.icc {
            ColorManagement.convertToSRGB(raster, icc: icc)
        }
        if case .cmyk = raster.layout { ColorManagement.convertCMYKNaively(raster) }
        let surface = try upright(raster, orientation: header.orientationToApply, path: url.path)
        return Photo(image: Image(surface: surface), info: PhotoInfo(url: url, header: header))
    }

    /// Decodes a photo just large enough to be shown inside `box`.
    public static func decode(_ url: URL, fitting box: Size) throws(MovieMakerError) -> Photo {
        try decode(url, scaling: .fitting(box))
    }

    /// The photos in `folder` (not its subfolders), read header-only: files whose extension is a
    /// photo extension (`fileExtensions`, any case); hidden files are ignored. A file that is not an
    /// image or is damaged is passed to `skipped` and left out, or, when `strict`, thrown.
    /// (A damaged file whose header is intact is found when it is decoded.)
    public static func photos(in folder: URL, order: PhotoOrder = .fileName, strict: Bool = false,
                              skipped: (MovieMakerError) -> Void = { _ in }) throws(MovieMakerError) -> [PhotoInfo] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .imageUnreadable(path: folder.path, reason: "no such folder")
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw .imageUnreadable(path: folder.path, reason: "cannot list the folder: \(error.localizedDescription)")
        }
        var infos: [PhotoInfo] = []
        for name in names.sorted(by: Slideshow.naturalOrder) {
            let url = folder.appendingPathComponent(name)
            guard !name.hasPrefix("."), fileExtensions.contains(url.pathExtension.lowercased()) else { continue }
            do {
                infos.append(try info(url))
            } catch {
                if strict { throw error }
                skipped(error)
            }
        }
        if order == .captureDate { infos = PhotoOrder.sortedByDate(infos, date: \.captureDate) }
        return infos
    }

    private static func header(of file: FileBytes, url: URL) throws(MovieMakerError) -> PhotoHeader {
        guard let format = PhotoFormat.sniff(file.bytes) else {
            throw .notAnImage(path: url.path, reason: PhotoFormat.describeNonImage(file.bytes))
        }
        return try ImageDecoders.decode(file.bytes, format: format, path: url.path, scaling: nil).0
    }

    /// Writes the raster into a Cairo surface upright, premultiplied, in B, G, R, A order. A raster
    /// decoded straight into its surface with nothing to change is returned as it is.
    static func upright(_ raster: PhotoRaster, orientation: EXIFOrientation, path: String) throws(MovieMakerError) -> CairoSurface {
        if let surface = raster.surface, orientation == .up, raster.layout == .bgra, !raster.hasAlpha {
            surface.markDirty()
            return surface
        }
        let width = orientation.swapsWidthAndHeight ? raster.height : raster.width
        let height = orientation.swapsWidthAndHeight ? raster.width : raster.height
        let surface = try PhotoRaster.makeSurface(width: width, height: height, path: path)
        let destination = UnsafeMutableRawPointer(surface.data)
        let (origin, xStep, yStep) = orientation.placement(width: width, height: height, stride: surface.stride)
        let swapRedBlue = raster.layout == .rgba
        let opaque = !raster.hasAlpha
        // A rotation writes columns: in 64×64 tiles both sides stay in cache.
        let tile = orientation.swapsWidthAndHeight ? 64 : max(1, raster.width)
        for tileY in Swift.stride(from: 0, to: raster.height, by: tile) {
            for tileX in Swift.stride(from: 0, to: raster.width, by: tile) {
                for y in tileY..<min(raster.height, tileY + tile) {
                    let row = UnsafeRawPointer(raster.pixels + y * raster.stride)
                    var offset = origin + y * yStep + tileX * xStep
                    for x in tileX..<min(raster.width, tileX + tile) {
                        // Loaded little-endian: byte 0 (blue, or red for RGBA) is the lowest.
                        var pixel = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        if swapRedBlue { pixel = pixel & 0xFF00_FF00 | (pixel & 0xFF) << 16 | (pixel >> 16) & 0xFF }
                        if opaque {
                            pixel |= 0xFF00_0000
                        } else {
                            let a = pixel >> 24
                            if a == 0 {
                                pixel = 0
                            } else if a != 255 {
                                let c0 = ((pixel & 0xFF) * a + 127) / 255
                                let c1 = ((pixel >> 8 & 0xFF) * a + 127) / 255
                                let c2 = ((pixel >> 16 & 0xFF) * a + 127) / 255
                                pixel = a << 24 | c2 << 16 | c1 << 8 | c0
                            }
                        }
                        destination.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self)
                        offset += xStep
                    }
                }
            }
        }
        surface.markDirty()
        return surface
    }
}

/// A small cache of decoded photos, so a slideshow over hundreds of files holds only the few it is
/// showing: at most `capacity` photos stay decoded, the least recently used is dropped first.
/// Safe to use from several threads (two threads asking for the same missing photo may both decode it).
public final class PhotoCache: Sendable {
    private struct Key: Hashable { let url: URL; let scaling: PhotoScaling }
    private let entries = Mutex<[(key: Key, photo: Photo)]>([])
    /// How many decoded photos are kept.
    public let capacity: Int

    /// A cache keeping at most `capacity` (≥ 1) decoded photos.
    public init(capacity: Int = 3) { self.capacity = max(1, capacity) }

    /// The photo at `url` decoded with `scaling`, from the cache or decoded now.
    public func photo(_ url: URL, scaling: PhotoScaling) throws(MovieMakerError) -> Photo {
        let key = Key(url: url, scaling: scaling)
        let cached = entries.withLock { list -> Photo? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let hit = list.remove(at: i)
            list.insert(hit, at: 0)
            return hit.photo
        }
        if let cached { return cached }
        let photo = try PhotoDecoder.decode(url, scaling: scaling)
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.insert((key, photo), at: 0)
            if list.count > capacity { list.removeLast(list.count - capacity) }
        }
        return photo
    }

    /// How many decoded photos the cache holds now.
    public var count: Int { entries.withLock { $0.count } }

    /// Drops every decoded photo.
    public func removeAll() { entries.withLock { $0.removeAll() } }
}

/// A file's bytes (or its first `limit` bytes) in memory, read with POSIX calls so every failure
/// becomes a typed error naming the file.
final class FileBytes {
    private let storage: UnsafeMutableRawBufferPointer
    /// The bytes read.
    let bytes: UnsafeRawBufferPointer
    /// Whether `bytes` is the whole file.
    let isComplete: Bool

    init(_ url: URL, limit: Int = Int.max) throws(MovieMakerError) {
        let path = url.path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let code = errno
            throw .imageUnreadable(path: path, reason: code == ENOENT ? "no such file" : String(cString: strerror(code)))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .imageUnreadable(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .imageUnreadable(path: path, reason: "it is a folder, not a file") }
        let size = Int(status.st_size)
        guard size > 0 else { throw .notAnImage(path: path, reason: "the file is empty") }
        let wanted = min(size, limit)
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: wanted, alignment: 16)
        var done = 0
        while done < wanted {
            let n = read(fd, storage.baseAddress! + done, wanted - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let reason = n < 0 ? String(cString: strerror(errno)) : "the file shrank while being read"
                storage.deallocate()
                throw .imageUnreadable(path: path, reason: reason)
            }
            done += n
        }
        bytes = UnsafeRawBufferPointer(storage)
        isComplete = wanted == size
    }
    deinit { storage.deallocate() }
}

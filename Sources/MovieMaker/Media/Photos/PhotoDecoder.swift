internal import CCairo
import Foundation
import Synchronization

/// Reads photos as cameras and phones write them: JPEG (baseline, progressive, grey, CMYK), PNG,
/// WebP, HEIC/HEIF, AVIF, TIFF, BMP and GIF; applies the EXIF orientation; converts embedded ICC
/// profiles to sRGB. See ImageDecoder.swift for which library decodes what.
///
/// A file that is not an image throws `.notAnImage`; a damaged or truncated one `.imageUnreadable`;
/// both name the file. Nothing here crashes or exits on bad input.
public enum PhotoDecoder {
    /// The extensions `photos(in:)` considers (lower case).
    package static let fileExtensions: Set<String> = Set(PhotoFormat.allCases.flatMap(\.fileExtensions))

    /// Whether `url` holds a still image: its first bytes are an image format's, and FFmpeg does not
    /// play it as a moving picture (an animated GIF, APNG or WebP, or an AVIF sequence, is a video).
    /// Reads 4 KiB, and probes the file only when those are an image's.
    package static func isStillImage(_ url: URL) -> Bool {
        guard let head = try? FileBytes(url, limit: 4096), PhotoFormat.sniff(head.bytes) != nil else { return false }
        return !((try? VideoFile.probed(url)).map(TimelineCompiler.isMovie) ?? false)
    }

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
    public static func decode(_ url: URL, scaling: PhotoScaling = .fullSize) throws(MovieMakerError) -> DecodedPhoto {
        // The first bytes decide, so a large file that is not an image is never read whole.
        let head = try FileBytes(url, limit: 4096)
        guard let format = PhotoFormat.sniff(head.bytes) else {
            throw .notAnImage(path: url.path, reason: PhotoFormat.describeNonImage(head.bytes))
        }
        if format == .jpeg, !head.isComplete {
            // A JPEG is read as it decodes, a few kilobytes at a time: a 24 MP photo's 7 MB file is
            // never all in memory beside its pixels (`make bench`'s slideshow memory line).
            let (fd, _) = try FileBytes.openRegularFile(url)
            defer { close(fd) }
            let (header, decoded) = try ImageDecoders.jpeg(.file(fd), path: url.path, scaling: scaling)
            return try finish(header, decoded, url: url)
        }
        let file = head.isComplete ? head : try FileBytes(url)
        return try decode(file.bytes, format: format, url: url, scaling: scaling)
    }

    /// Decodes the image in `bytes` (whose format was sniffed as `format`) upright and in sRGB: the
    /// whole of `decode(_:scaling:)` after the file is read, shared with the photo fuzz target.
    static func decode(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat, url: URL,
                       scaling: PhotoScaling) throws(MovieMakerError) -> DecodedPhoto {
        let (header, decoded) = try ImageDecoders.decode(bytes, format: format, path: url.path, scaling: scaling)
        return try finish(header, decoded, url: url)
    }

    /// The decoded raster made upright and sRGB, as a `DecodedPhoto`.
    private static func finish(_ header: PhotoHeader, _ decoded: PhotoRaster?, url: URL) throws(MovieMakerError) -> DecodedPhoto {
        guard let raster = decoded else { throw .imageUnreadable(path: url.path, reason: "no pixels decoded") }
        if let icc = header.icc {
            ColorManagement.convertToSRGB(raster, icc: icc)
        } else if header.exif?.isAdobeRGB == true, let adobe = ColorManagement.adobeRGBProfileData() {
            // A camera set to Adobe RGB marks its JPEGs in EXIF instead of embedding the profile: read
            // as sRGB they looked washed out.
            ColorManagement.convertToSRGB(raster, icc: adobe)
        }
        if case .cmyk = raster.layout { ColorManagement.convertCMYKNaively(raster) }
        let surface = try upright(raster, orientation: header.orientationToApply, path: url.path)
        return DecodedPhoto(image: Image(surface: surface), info: PhotoInfo(url: url, header: header))
    }

    /// Decodes a photo just large enough to be shown inside `box`.
    public static func decode(_ url: URL, fitting box: Size) throws(MovieMakerError) -> DecodedPhoto {
        try decode(url, scaling: .fitting(box))
    }

    /// The photos in `folder` (not its subfolders), read header-only: files whose extension is a
    /// photo extension (`fileExtensions`, any case); hidden files are ignored. A file that is not an
    /// image or is damaged is passed to `skipped` and left out, or, when `strict`, thrown.
    /// (A damaged file whose header is intact is found when it is decoded.)
    public static func photos(in folder: URL, order: PhotoOrder = .fileName, strict: Bool = false,
                              skipped: (MovieMakerError) -> Void = { _ in }) throws(MovieMakerError) -> [PhotoInfo] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw .noPhotos(source: folder.path, reason: "the folder \(folder.path) does not exist")
        }
        guard isFolder.boolValue else {
            throw .noPhotos(source: folder.path, reason: "\(folder.path) is a file, not a folder (give single photos with Slideshow(photos:))")
        }
        // Names that are not UTF-8 are reached through aliases (FolderListing), not skipped.
        let entries = try FolderListing.entries(of: folder)
        var infos: [PhotoInfo] = []
        for entry in entries.sorted(by: { Slideshow.naturalOrder($0.displayName, $1.displayName) }) {
            let name = entry.displayName
            guard !name.hasPrefix("."), fileExtensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) else { continue }
            do {
                infos.append(try info(entry.url))
            } catch {
                if strict { throw error }
                skipped(error)
            }
        }
        // A wall-clock time without an offset is read in the zone of the set's zoned times (or this
        // machine's), so it compares with a phone's zoned time (as `stitch` orders photos and clips).
        if order == .captureDate {
            let zone = PhotoOrder.zoneForUnzonedTimes(of: infos)
            infos = PhotoOrder.sortedByDate(infos) { $0.captureMoment(in: zone) }
        }
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

/// A file's bytes (or its first `limit` bytes) in memory, read with POSIX calls so every failure
/// becomes a typed error naming the file.
final class FileBytes {
    private let storage: UnsafeMutableRawBufferPointer
    /// The bytes read.
    let bytes: UnsafeRawBufferPointer
    /// Whether `bytes` is the whole file.
    let isComplete: Bool

    /// Opens `url` for reading after checking it is a non-empty regular file: its descriptor (the
    /// caller closes it) and size; every failure a typed error naming the file.
    static func openRegularFile(_ url: URL) throws(MovieMakerError) -> (fd: Int32, size: Int) {
        let path = url.path
        // O_NONBLOCK: opening a named pipe (a FIFO called b.jpg) would otherwise wait forever for a writer.
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw .imageUnreadable(path: path, reason: code == ENOENT ? "no such file" : String(cString: strerror(code)))
        }
        var status = stat()
        let problem: MovieMakerError?
        if fstat(fd, &status) != 0 {
            problem = .imageUnreadable(path: path, reason: String(cString: strerror(errno)))
        } else if status.st_mode & S_IFMT == S_IFDIR {
            problem = .imageUnreadable(path: path, reason: "it is a folder, not a file")
        } else if status.st_mode & S_IFMT != S_IFREG {
            problem = .imageUnreadable(path: path, reason: "it is not a regular file (a named pipe, a device or a socket)")
        } else if status.st_size <= 0 {
            problem = .notAnImage(path: path, reason: "the file is empty")
        } else {
            problem = nil
        }
        if let problem { close(fd); throw problem }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int(status.st_size))
    }

    init(_ url: URL, limit: Int = Int.max) throws(MovieMakerError) {
        let path = url.path
        let (fd, size) = try Self.openRegularFile(url)
        defer { close(fd) }
        let wanted = min(size, limit)
        // Its own mapping (see `MappedMemory`): a 24 MP photo's file is several MB, read once and dropped.
        guard let memory = MappedMemory.allocate(byteCount: wanted) else {
            throw .imageUnreadable(path: path, reason: "out of memory for its \(wanted) bytes")
        }
        storage = UnsafeMutableRawBufferPointer(start: memory, count: wanted)
        var done = 0
        while done < wanted {
            let n = read(fd, storage.baseAddress! + done, wanted - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let reason = n < 0 ? String(cString: strerror(errno)) : "the file shrank while being read"
                MappedMemory.deallocate(memory, byteCount: wanted)
                throw .imageUnreadable(path: path, reason: reason)
            }
            done += n
        }
        bytes = UnsafeRawBufferPointer(storage)
        isComplete = wanted == size
    }
    deinit { MappedMemory.deallocate(storage.baseAddress!, byteCount: storage.count) }
}

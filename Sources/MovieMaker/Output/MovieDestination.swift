import Foundation

/// Where a movie is written, and everything about the place apart from encoding: the folder exists and
/// takes new files, nothing at the destination is in the way (a PNG sequence's folder holds only earlier
/// frames), the partial file or folder beside it, and the final rename into place. `MovieMaker` checks
/// all of this before the first frame, so a bad destination fails at once and leaves nothing behind.
package struct MovieDestination {
    /// The movie file, or the folder of a PNG sequence or an HLS stream: what a symbolic link given as
    /// the destination points to (the movie is written through the link, which stays).
    let url: URL
    /// Whether `url` is a folder of `frame-N.png` files.
    let isPNGSequence: Bool
    /// Whether `url` is a folder holding an HLS stream (`playlist.m3u8`, `init.mp4`, `segment-N.m4s`).
    var isHLS = false

    /// The destination `url` (through a symbolic link there), a PNG sequence's folder when `isPNGSequence`.
    init(url: URL, isPNGSequence: Bool) {
        self.url = PartialFiles.target(of: url)
        self.isPNGSequence = isPNGSequence
    }

    /// Whether `url` is a folder (of PNG frames or an HLS stream) rather than a file.
    var isFolder: Bool { isPNGSequence || isHLS }

    /// The HLS playlist's name in its folder.
    static let hlsPlaylist = "playlist.m3u8"
    /// The HLS fMP4 initialisation segment's name.
    static let hlsInitSegment = "init.mp4"
    /// The pattern of HLS media segments' names (numbered from 0).
    static let hlsSegmentPattern = "segment-%05d.m4s"
    /// The WebVTT chapters file written beside an HLS stream that has chapters.
    static let hlsChapters = "chapters.vtt"

    /// The folder the movie goes into.
    var folder: URL { url.deletingLastPathComponent() }

    /// The file name pattern of PNG sequence frames (numbered from 1).
    static let pngFramePattern = "frame-%05d.png"

    /// Throws unless the folder exists and this process may write there (as access(2) says).
    func checkFolder() throws(MovieMakerError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .destinationFolderMissing(path: folder.path)
        }
        guard access(folder.path, W_OK) == 0 else {
            throw .destinationNotWritable(path: folder.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Throws unless a file can really be created in the folder and nothing at `url` is in the way.
    func checkWritable() throws(MovieMakerError) {
        // access() says yes to root on any file system; creating (and removing) a file proves it. In a folder
        // that exists, ENOENT ("No such file or directory") means a file system that takes no files (/proc, /sys).
        let probe = folder.appendingPathComponent(".moviemaker-write-check-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        let probeFD = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard probeFD >= 0 else {
            let code = errno
            let reason = code == ENOENT || code == EPERM || code == EOPNOTSUPP
                ? "cannot create a file there: its file system does not take new files"
                : "cannot create a file there: \(String(cString: strerror(code)))"
            throw .destinationNotWritable(path: folder.path, reason: reason)
        }
        close(probeFD)
        unlink(probe)
        var isDirectory: ObjCBool = false
        if isFolder {
            try Self.checkReplaceableSequenceFolder(url, hls: isHLS)
        } else if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .destinationNotWritable(path: url.path, reason: "a folder has that name")
        } else if let kind = Self.specialFileKind(url.path) {
            // The finished movie is renamed into place, which would replace a device (a link to /dev/null
            // made to throw the output away, as root in a CI container) or a pipe with a plain file.
            throw .destinationNotWritable(path: url.path, reason: "\(kind) has that name, which the finished movie would replace")
        }
    }

    /// What is at `path` when it is neither a regular file nor a folder ("a device", "a named pipe",
    /// "a socket"); nil when nothing is there or it is a file or folder.
    package static func specialFileKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Makes the partial file's name (a PNG sequence: creates the partial folder) beside the destination,
    /// registered for removal if the process is stopped, and returns it with the path the encoder writes to.
    /// Hidden, unique, in the same folder (so the final rename is atomic), with the same extension (so tools
    /// recognise it).
    func makePartial() throws(MovieMakerError) -> (url: URL, encoderPath: String) {
        PartialFiles.removeStale(in: folder)
        let partial: URL, encoderPath: String
        if isFolder {
            partial = PartialFiles.url(beside: url, stem: url.lastPathComponent, extension: nil)
            do {
                try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: false)
            } catch {
                throw .destinationNotWritable(path: folder.path, reason: "cannot create a folder there: \(error.localizedDescription)")
            }
            encoderPath = partial.appendingPathComponent(isHLS ? Self.hlsPlaylist : Self.pngFramePattern).path
        } else {
            partial = PartialFiles.url(beside: url, stem: url.deletingPathExtension().lastPathComponent, extension: url.pathExtension)
            encoderPath = partial.path
        }
        PartialFiles.register(partial, movie: url)
        return (partial, encoderPath)
    }

    /// Writes `chapters` (the last ending at `end`) as the WebVTT chapters file of the HLS stream being
    /// written in the partial folder `partial`.
    func writeHLSChapters(_ chapters: [Chapter], end: Time, into partial: URL) throws(MovieMakerError) {
        do {
            try Data(Chapter.webVTT(chapters, end: end).utf8).write(to: partial.appendingPathComponent(Self.hlsChapters))
        } catch {
            throw .destinationNotWritable(path: url.path, reason: "cannot write \(Self.hlsChapters): \(error.localizedDescription)")
        }
    }

    /// Removes the partial file (or folder) `partial` and forgets it.
    func removePartial(_ partial: URL) {
        try? FileManager.default.removeItem(at: partial)
        PartialFiles.unregister(partial)
    }

    /// Moves the finished `partial` to `url`, replacing what was there atomically, and forgets it.
    func moveIntoPlace(from partial: URL) throws(MovieMakerError) {
        if isFolder {
            try moveSequenceIntoPlace(from: partial)
        } else if rename(partial.path, url.path) != 0 {
            // rename(2) replaces the destination atomically: readers see the old file or the new one.
            throw .destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        PartialFiles.unregister(partial)
    }

    /// The bytes written: the file's size, or a PNG sequence's files' sizes added up.
    func writtenSize() -> Int {
        guard isFolder else { return (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0 }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.reduce(0) { sum, name in
            sum + ((try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    /// Throws unless `url` is absent, an empty folder, or a folder holding only `frame-N.png` files (with
    /// `hls`: only an earlier HLS stream's files): MovieMaker replaces earlier output but never deletes
    /// anything else.
    package static func checkReplaceableSequenceFolder(_ url: URL, hls: Bool = false) throws(MovieMakerError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw .destinationNotWritable(path: url.path, reason: "a file has that name; \(hls ? "an HLS stream goes" : "PNG frames go") into a folder") }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        func numbered(_ name: String, _ prefix: String, _ suffix: String) -> Bool {
            guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return false }
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
        }
        func ours(_ name: String) -> Bool {
            hls ? [hlsPlaylist, hlsInitSegment, hlsChapters].contains(name) || numbered(name, "segment-", ".m4s") : numbered(name, "frame-", ".png")
        }
        if let other = names.sorted().first(where: { !ours($0) }) {
            throw .destinationNotWritable(path: url.path, reason: "the folder holds \(other), not only \(hls ? "an HLS stream's files (playlist.m3u8, init.mp4, segment-N.m4s)" : "frame-N.png files"); choose a new or empty folder")
        }
    }

    /// Moves the finished frame folder to `url`. rename(2) replaces an absent or empty folder atomically;
    /// a folder of earlier frames is moved aside first and deleted once the new one is in place.
    private func moveSequenceIntoPlace(from partial: URL) throws(MovieMakerError) {
        try Self.checkReplaceableSequenceFolder(url, hls: isHLS)
        if rename(partial.path, url.path) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else {
            throw .destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        let aside = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).old-\(UUID().uuidString.prefix(8))")
        guard rename(url.path, aside.path) == 0 else {
            throw .destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        guard rename(partial.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(aside.path, url.path)
            throw .destinationNotWritable(path: url.path, reason: reason)
        }
        try? FileManager.default.removeItem(at: aside)
    }
}

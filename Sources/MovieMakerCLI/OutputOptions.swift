import ArgumentParser
import Foundation
import MovieMaker

/// `-o/--output`: where a render goes, checked before any work starts.
struct OutputOptions: ParsableArguments {
    /// Extensions written as movies.
    static let movieExtensions = ["mp4", "m4v", "mov", "mkv", "webm", "gif", "apng", "webp"]
    /// Extensions written as one still image.
    static let stillExtensions = ["png"]

    /// The destination as typed.
    @Option(name: [.short, .long],
            help: ArgumentHelp("Where to write: a .mp4, .mov, .mkv or .webm movie, an animated .gif, .apng or .webp, or a .png still. The folder must exist.",
                               valueName: "path"))
    var output: String

    /// Lifts the 24-hour limit on durations (read by `DurationArgument`).
    @Flag(help: "Accept durations longer than 24 hours (refused by default: usually a typo, and days of rendering).")
    var allowLongMovie = false

    /// The destination as a file URL (relative paths are taken from the current folder).
    var url: URL { OutputOptions.destinationURL(output) }
    /// The destination's extension, lowercased.
    var fileExtension: String { url.pathExtension.lowercased() }
    /// Whether the destination is a still image rather than a movie.
    var isStill: Bool { Self.stillExtensions.contains(fileExtension) }

    /// Refuses unknown extensions, missing or unwritable folders, and a folder in the file's place.
    func validate() throws { try Self.check(output) }

    /// The file a destination `path` names, as the system reads it. Foundation's `URL` drops `folder/..`
    /// as text, but the system steps into `folder` first: `nosuch/../a.mp4` names no file (its folder is
    /// missing), and `link/../a.mp4` is beside the link's target, not beside the link. Writing where the
    /// text pointed would miss the checks made with the system's reading (the one that refuses to write
    /// over an input), so a path with `..` after a folder has that folder resolved by the system; other
    /// paths are kept as typed. Resolution that fails (a missing folder) leaves the path as typed, for
    /// `checkFolder` to refuse.
    static func destinationURL(_ path: String) -> URL {
        guard let folder = systemFolder(of: path), let real = realpath(folder, nil) else { return URL(fileURLWithPath: path) }
        defer { free(real) }
        let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
        return URL(fileURLWithPath: String(cString: real), isDirectory: true).appendingPathComponent(name)
    }

    /// The folder part of `path` (see `systemFolder(of:)`) when the system cannot resolve it (a missing
    /// folder before a `..`), with `errno` saying why; nil when there is none or it resolves.
    static func unresolvedFolder(of path: String) -> String? {
        guard let typed = systemFolder(of: path) else { return nil }
        guard let real = realpath(typed, nil) else { return typed }
        free(real)
        return nil
    }

    /// The folder part of `path` as typed (up to its last `/`) when it has a `..` after another
    /// component, the case where the system's reading and Foundation's differ; nil otherwise.
    static func systemFolder(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        let parts = folder.split(separator: "/", omittingEmptySubsequences: true)
        // Any `..` with a folder's name before it (`../nosuch/..` too), not only the first `..`.
        let differs = parts.indices.contains { i in parts[i] == ".." && parts[..<i].contains { $0 != "." && $0 != ".." } }
        return differs ? folder : nil
    }

    /// The checks of `validate()` for a destination `path` given some other way (`render -o`, which
    /// `--check` makes optional).
    static func check(_ path: String) throws {
        try checkName(path)
        try checkFolder(of: path)
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError(MovieMakerError.destinationNotWritable(path: url.path, reason: "a folder has that name").description)
        }
        if let kind = MovieDestination.specialFileKind(url.path) {
            throw InputError(MovieMakerError.destinationNotWritable(path: url.path, reason: "\(kind) has that name, which the finished movie would replace").description)
        }
    }

    /// The checks of `check` that need no folder: not a folder itself, a movie or still extension, a
    /// file name of at most 255 bytes.
    static func checkName(_ path: String) throws {
        try refuseFolder(path)
        let url = URL(fileURLWithPath: path)
        let fileExtension = url.pathExtension.lowercased()
        guard Self.movieExtensions.contains(fileExtension) || stillExtensions.contains(fileExtension) else {
            throw ValidationError(MovieMakerError.unsupportedContainer(
                extension: url.pathExtension, supported: Self.movieExtensions + Self.stillExtensions).description)
        }
        let nameBytes = url.lastPathComponent.utf8.count
        if nameBytes > 255 {
            throw InputError("\(path): the file name is \(nameBytes) bytes, more than the 255 a file name may have: choose a shorter name")
        }
    }

    /// Refuses an existing folder with no extension as the destination, before its missing extension
    /// is complained of (`-o chunks` naming the chunk folder).
    static func refuseFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard URL(fileURLWithPath: path).pathExtension.isEmpty,
              FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        throw InputError("-o \(path) is a folder: give a file to write, e.g. -o \(Terminal.shellWord(folder + "/movie.mp4"))")
    }

    /// Checks that the folder `path` goes into exists and takes new files (a file is created and removed
    /// there), throwing an `InputError` (64) that names the folder and why: for every file the tool
    /// writes (movies, stills, `--save-spec`, `format -o`, `otio … -o`, `schema -o`), before any work.
    static func checkFolder(of path: String) throws {
        // `nosuch/../a.mp4`: the system finds no `nosuch`, whatever the text simplifies to.
        if let typed = unresolvedFolder(of: path) {
            let code = errno
            if code == ENOENT { throw InputError(MovieMakerError.destinationFolderMissing(path: typed).description) }
            throw InputError(MovieMakerError.destinationNotWritable(path: typed, reason: String(cString: strerror(code))).description)
        }
        let url = destinationURL(path)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError(MovieMakerError.destinationFolderMissing(path: folder).description)
        }
        guard access(folder, W_OK) == 0 else {
            throw InputError(MovieMakerError.destinationNotWritable(path: folder, reason: String(cString: strerror(errno))).description)
        }
        // access() says yes to root everywhere; creating (and removing) a file proves it before any work starts.
        let probe = (folder as NSString).appendingPathComponent(".moviemaker-write-check-\(getpid())")
        let fd = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else {
            throw InputError(MovieMakerError.destinationNotWritable(path: folder, reason: creationRefused(errno: errno)).description)
        }
        close(fd)
        unlink(probe)
    }

    /// Why creating a file in an existing folder failed, from `errno`. ENOENT there ("No such file or
    /// directory", which reads as if the folder were missing) comes from file systems that take no new
    /// files at all, such as /proc and /sys.
    static func creationRefused(errno code: Int32) -> String {
        switch code {
        case ENOENT, EPERM, EOPNOTSUPP: return "cannot create a file there: its file system does not take new files"
        case EROFS: return "cannot create a file there: the file system is read-only"
        case EACCES: return "cannot create a file there: permission denied"
        default: return "cannot create a file there: \(String(cString: strerror(code)))"
        }
    }
}

/// `title`'s `-o`: optional, because `title --batch` names its files with `--output-pattern` instead
/// (checked in `TitleCommand.validate()`: one of the two is required).
struct TitleOutputOptions: ParsableArguments {
    /// The destination as typed.
    @Option(name: [.short, .long],
            help: ArgumentHelp("Where to write: a .mp4, .mov, .mkv or .webm movie, an animated .gif, .apng or .webp, or a .png still. The folder must exist. (With --batch: --output-pattern.)",
                               valueName: "path"))
    var output: String?

    /// Lifts the 24-hour limit on durations (read by `DurationArgument`).
    @Flag(help: "Accept durations longer than 24 hours (refused by default: usually a typo, and days of rendering).")
    var allowLongMovie = false
}

/// `-o` of `stitch`: a movie or an animated image, not a still (said so in the help and refused with 64).
/// (`slideshow` and `title` write a poster still with the same commands; a stitch has no one frame to pick.)
struct MovieOutputOptions: ParsableArguments {
    /// The destination as typed.
    @Option(name: [.short, .long],
            help: ArgumentHelp("Where to write: a .mp4, .mov, .mkv or .webm movie, or an animated .gif, .apng or .webp. The folder must exist.",
                               valueName: "path"))
    var output: String

    /// Lifts the 24-hour limit on durations (read by `DurationArgument`).
    @Flag(help: "Accept durations longer than 24 hours (refused by default: usually a typo, and days of rendering).")
    var allowLongMovie = false

    /// The destination as a file URL (relative paths are taken from the current folder).
    var url: URL { OutputOptions.destinationURL(output) }

    /// Refuses a still, then checks as `OutputOptions` does.
    func validate() throws {
        let ext = url.pathExtension.lowercased()
        if OutputOptions.stillExtensions.contains(ext) {
            let stem = url.deletingPathExtension().lastPathComponent
            throw ValidationError("-o \(output): stitched clips make a movie: use -o \(stem.isEmpty ? "movie" : stem).mp4 (or .mov, .mkv, .webm; or an animated .gif, .apng, .webp), not .\(ext)")
        }
        try OutputOptions.check(output)
    }
}

/// `-o` of the commands that write one PNG image (`still`, `contact-sheet`): only `.png`, said so in
/// the help and in the error.
struct ImageOutputOptions: ParsableArguments {
    /// The destination as typed.
    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the .png image. The folder must exist.", valueName: "path"))
    var output: String

    /// The destination as a file URL (relative paths are taken from the current folder).
    var url: URL { OutputOptions.destinationURL(output) }

    /// Refuses anything but a .png, then checks the folder as `OutputOptions` does.
    func validate() throws {
        try OutputOptions.refuseFolder(output)
        guard url.pathExtension.lowercased() == "png" else {
            let given = url.pathExtension.isEmpty ? "a name without an extension" : "a .\(url.pathExtension) file"
            throw ValidationError("-o \(output): writes one image, as .png, not \(given): use e.g. -o \(url.deletingPathExtension().lastPathComponent.isEmpty ? "image" : url.deletingPathExtension().lastPathComponent).png")
        }
        try OutputOptions.check(output)
    }
}

/// `-o` of the commands that write a movie with its sound (`audiogram`): a movie container, not an
/// animated image or a still, said so in the help and refused with 64.
struct SoundMovieOutputOptions: ParsableArguments {
    /// The containers that keep a sound track.
    static let extensions = ["mp4", "m4v", "mov", "mkv", "webm"]

    /// The destination as typed.
    @Option(name: [.short, .long], help: ArgumentHelp("Where to write: a .mp4, .mov, .mkv or .webm movie (a movie with its sound). The folder must exist.",
                                                     valueName: "path"))
    var output: String

    /// Lifts the 24-hour limit on durations (read by `DurationArgument`).
    @Flag(help: "Accept durations longer than 24 hours (refused by default: usually a typo, and days of rendering).")
    var allowLongMovie = false

    /// The destination as a file URL (relative paths are taken from the current folder).
    var url: URL { OutputOptions.destinationURL(output) }

    /// Refuses anything but a movie container, then checks the folder as `OutputOptions` does.
    func validate() throws {
        try OutputOptions.refuseFolder(output)
        let ext = url.pathExtension.lowercased()
        guard Self.extensions.contains(ext) else {
            let stem = url.deletingPathExtension().lastPathComponent
            throw ValidationError("-o \(output): this command writes a movie with its sound: use -o \(stem.isEmpty ? "clip" : stem).mp4 (or .mov, .mkv, .webm)"
                                  + (ext.isEmpty ? "" : ", not .\(ext)") + (["gif", "apng", "webp"].contains(ext) ? " (an animated image has no sound track)" : ""))
        }
        try OutputOptions.check(output)
    }
}

extension SoundMovieOutputOptions: DestinationOption {}

import Foundation

/// Which files a studio request may read: the studio's own assets, and files inside the previewed
/// project's folder. A request path is split at its slashes (runs of slashes count as one: the studio
/// prints its URL with a trailing slash, so `$URL/api/movie` is `//api/movie`), then each part is
/// decoded once (so `%2e%2e` is `..`) and the path is refused when any part is `..` or `.`, or holds a
/// slash, a NUL or a backslash once decoded. A file is refused when it, or any folder on the way to it,
/// is a dot-file (`.git/config`, `.env`), or when the file it names (after following symbolic links)
/// lies outside the folder.
enum StudioPaths {
    /// The decoded parts of a request path (percent-encoded, without its query), or nil when a part is
    /// not valid percent-encoding or could leave the folder it is resolved in.
    static func safeSegments(_ encodedPath: String) -> [String]? {
        guard encodedPath.hasPrefix("/") else { return nil }
        var parts: [String] = []
        for raw in encodedPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard let part = String(raw).removingPercentEncoding else { return nil }
            if part == "." || part == ".." || part.contains("/") || part.contains("\0") || part.contains("\\") { return nil }
            parts.append(part)
        }
        return parts
    }

    /// Whether a file or folder name is hidden by convention (`.git`, `.env`): never served.
    static func isHidden(_ name: some StringProtocol) -> Bool { name.hasPrefix(".") }

    /// The file `segments` name inside `folder`, or nil when it is not inside the folder once symbolic
    /// links are followed, or when any part of its path inside the folder (as asked, or as resolved)
    /// is hidden. Whether it is a regular file is `StudioFiles`' business.
    static func file(_ segments: [String], in folder: URL) -> URL? {
        guard !segments.isEmpty, !segments.contains(where: isHidden) else { return nil }
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var url = URL(fileURLWithPath: root, isDirectory: true)
        for segment in segments { url.appendPathComponent(segment) }
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard resolved.hasPrefix(prefix) else { return nil }
        // A link inside the folder to a hidden file in it (`notes -> .git/config`) is refused too.
        guard !resolved.dropFirst(prefix.count).split(separator: "/").contains(where: isHidden) else { return nil }
        return URL(fileURLWithPath: resolved)
    }

    /// The MIME type for a file name's extension (`application/octet-stream` when unknown).
    static func contentType(_ name: String) -> String {
        switch URL(fileURLWithPath: name).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "webm": "video/webm"
        case "mkv": "video/x-matroska"
        case "wav": "audio/wav"
        case "mp3": "audio/mpeg"
        case "m4a", "aac": "audio/mp4"
        case "txt", "srt", "vtt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

import Foundation

/// Which files a studio request may read: the studio's own assets, and files inside the previewed
/// project's folder. A request path is decoded once (so `%2e%2e` is `..`) and refused when any part
/// of it is `..` or `.`, empty (`//etc/passwd`), holds a NUL or a backslash, or when the file it names
/// (after following symbolic links) lies outside the folder.
enum StudioPaths {
    /// The parts of a request path (already percent-decoded, without its query), or nil when the path
    /// could leave the folder it is resolved in: `..`, `.`, empty parts, NUL or backslash.
    static func safeSegments(_ decodedPath: String) -> [String]? {
        guard decodedPath.hasPrefix("/") else { return nil }
        let parts = decodedPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if part.isEmpty || part == "." || part == ".." || part.contains("\0") || part.contains("\\") { return nil }
        }
        return parts
    }

    /// The file `segments` name inside `folder`, or nil when it is not a regular file inside the folder
    /// once symbolic links are followed (a link pointing out of the project is refused too).
    static func file(_ segments: [String], in folder: URL) -> URL? {
        guard !segments.isEmpty else { return nil }
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var url = URL(fileURLWithPath: root, isDirectory: true)
        for segment in segments { url.appendPathComponent(segment) }
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard resolved.hasPrefix(prefix) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
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

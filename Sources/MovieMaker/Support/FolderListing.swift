import Foundation
import Synchronization

/// A folder's entries, including those whose names are not valid UTF-8.
///
/// Linux file names are bytes; a Swift `String` holds only Unicode, so Foundation's
/// `contentsOfDirectory` turns a name such as `ph\xFFoto.jpg` (a Latin-1 camera or an old archive)
/// into `ph\u{FFFD}oto.jpg`, a name no file has — the photo was then skipped as "no such file". Here the
/// folder is read with `readdir`, and an entry whose name is not UTF-8 is reached through an alias: a
/// symbolic link, in a private folder of this process, whose target is the entry's exact bytes. Every
/// reader (libjpeg, libavformat, …) opens the alias and gets the real file; messages show the name with
/// the bad bytes replaced (`displayName`). The aliases' folder is removed when the process exits.
package enum FolderListing {
    /// One entry of a folder.
    struct Entry: Sendable {
        /// The name as shown to people: exact when valid UTF-8, else with U+FFFD for each bad byte.
        let displayName: String
        /// A path that opens the entry: `folder/name`, or an alias for a name that is not UTF-8.
        let url: URL
        /// Whether `url` is an alias (the name was not valid UTF-8).
        let isAlias: Bool
    }

    /// The entries of `folder`, except `.` and `..`, in no particular order.
    static func entries(of folder: URL) throws(MovieMakerError) -> [Entry] {
        let path = folder.path
        guard let dir = opendir(path) else {
            let reason = String(cString: strerror(errno))
            throw .imageUnreadable(path: path, reason: "cannot list the folder: \(reason)")
        }
        defer { closedir(dir) }
        var entries: [Entry] = []
        while let entry = readdir(dir) {
            let bytes: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if bytes == [46] || bytes == [46, 46] { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                entries.append(Entry(displayName: name, url: folder.appendingPathComponent(name), isAlias: false))
            } else {
                let display = String(decoding: bytes, as: UTF8.self)
                guard let alias = Aliases.shared.alias(folder: path, name: bytes, display: display) else {
                    // No alias could be made (no writable temporary folder): list it under its shown
                    // name, which then fails to open with a message naming it.
                    entries.append(Entry(displayName: display, url: folder.appendingPathComponent(display), isAlias: false))
                    continue
                }
                entries.append(Entry(displayName: display, url: alias, isAlias: true))
            }
        }
        return entries
    }

    /// A command-line argument as a `String` that still reaches its file. Valid UTF-8 is returned as it
    /// is. Bytes that are not UTF-8 (a clip named in Latin-1, typed or globbed by the shell) would become
    /// U+FFFD in a `String`, naming no file: when the bytes (or the value of `--option=bytes`) name an
    /// existing file, the argument becomes an alias of it; anything else is decoded with U+FFFD.
    package static func argument(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var prefix: [UInt8] = [], path = bytes
        if bytes.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]), let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
            prefix = Array(bytes[...equals]); path = Array(bytes[(equals + 1)...])
        }
        var info = stat()
        let exists = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
        }
        let name = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).last.map(Array.init) ?? path
        // The link lives in another folder: a relative path must be made absolute.
        if path.first != UInt8(ascii: "/") { path = Array(FileManager.default.currentDirectoryPath.utf8) + [UInt8(ascii: "/")] + path }
        guard exists, let alias = Aliases.shared.alias(target: path, display: String(decoding: name, as: UTF8.self)) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        Aliases.shared.remember(alias.path, shownAs: String(decoding: path, as: UTF8.self))
        let text = String(decoding: prefix, as: UTF8.self) + alias.path
        Aliases.shared.rawArguments.withLock { $0[text] = bytes }
        return text
    }

    /// The bytes the user gave for `argument` when `argument(_:)` replaced them by an alias; nil for an
    /// argument given as it is. For a program handing its arguments on (`moviemaker run` to a script).
    package static func rawBytes(ofArgument argument: String) -> [UInt8]? {
        Aliases.shared.rawArguments.withLock { $0[argument] }
    }

    /// Removes every alias now, for a process about to `execv` (which skips the exit clean-up).
    package static func removeAliases() { Aliases.removeAll() }

    /// `text` with each command-line alias's path replaced by the path the user gave (U+FFFD for its
    /// bytes that are not UTF-8), for messages.
    package static func shownText(_ text: String) -> String {
        Aliases.shared.shown.withLock { shown in
            shown.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }
    }

    /// The process's arguments after the program's name, each through `argument(_:)`.
    package static func commandLineArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return argument(Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) })
        }
    }

    /// The aliases this process made, in one private folder removed at exit.
    final class Aliases: Sendable {
        /// The one instance.
        static let shared = Aliases()

        /// Command-line aliases' paths and the paths they stand for, as shown.
        let shown = Mutex<[String: String]>([:])
        /// Arguments replaced by an alias, and the bytes given for them.
        let rawArguments = Mutex<[String: [UInt8]]>([:])

        /// Records that the alias at `path` stands for `original` in messages.
        func remember(_ path: String, shownAs original: String) { shown.withLock { $0[path] = original } }

        /// The folder (created on first use) and how many aliases it holds.
        private let state = Mutex<(folder: String?, count: Int)>((nil, 0))

        /// A symbolic link to `folder/name` (raw bytes), named by the display name (in a subfolder of its
        /// own), so that it keeps the extension, sorts and reads like the original; nil when none can be made.
        func alias(folder: String, name: [UInt8], display: String) -> URL? {
            alias(target: Array(folder.utf8) + [UInt8(ascii: "/")] + name, display: display)
        }

        /// A symbolic link to the path `target` (raw bytes), named `display`; nil when none can be made.
        func alias(target: [UInt8], display: String) -> URL? {
            state.withLock { state -> URL? in
                if state.folder == nil {
                    let template = FileManager.default.temporaryDirectory.path + "/moviemaker-names-XXXXXX"
                    var bytes = Array(template.utf8CString)
                    guard let made = mkdtemp(&bytes) else { return nil }
                    let created = String(cString: made)
                    state.folder = created
                    Self.removeAtExit(created)
                }
                guard let root = state.folder else { return nil }
                state.count += 1
                // One subfolder per alias, so the link's own name is exactly the shown name: sorting by
                // file name and messages then treat it as the original.
                let holder = "\(root)/\(state.count)"
                guard mkdir(holder, 0o700) == 0 else { return nil }
                let link = "\(holder)/\(display)"
                let target = target + [0]
                let status = target.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { symlink($0.baseAddress!, link) }
                }
                return status == 0 ? URL(fileURLWithPath: link) : nil
            }
        }

        /// Folders to remove when the process exits.
        private static let folders = Mutex<[String]>([])

        /// Registers `folder` for removal at exit (the handler is installed once).
        private static func removeAtExit(_ folder: String) {
            _ = exitHandlerInstalled
            folders.withLock { $0.append(folder) }
        }

        /// Installs the exit handler once.
        private static let exitHandlerInstalled: Bool = {
            atexit { Aliases.removeAll() }
            return true
        }()

        /// Removes every alias folder made so far.
        static func removeAll() {
            for folder in folders.withLock({ list in defer { list.removeAll() }; return list }) {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }
}

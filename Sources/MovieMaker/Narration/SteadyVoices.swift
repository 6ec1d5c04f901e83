import Foundation

/// A copy of eSpeak NG's data folder whose voice files all end with `flutter 0` and `roughness 8`
/// (eSpeak NG's scale ends at 7: 8 turns it off), so that a text
/// sounds the same whatever the process spoke before (see `SpeechSynthesizer`'s comment on
/// determinism).
///
/// Only the voice files are copied (`voices/` and `lang/`, about 300 small text files); the
/// dictionaries and phoneme data, the bulk of the folder, are symbolic links to eSpeak NG's own.
/// The copy is made once per eSpeak NG installation in the user's cache folder
/// (`$XDG_CACHE_HOME/moviemaker`, else `~/.cache/moviemaker`, else the temporary folder), built beside
/// its final name and renamed into place, so a process that stops halfway or two processes that make
/// it at once never leave a half copy in use.
enum SteadyVoices {
    /// The folders of `espeak-ng-data` that hold voice files.
    static let voiceFolders: Set<String> = ["voices", "lang"]

    /// What each copied voice file gets at its end (the last value of a keyword wins).
    static let steadyLine = "\nflutter 0\nroughness 8\n"

    /// The folder holding a steady `espeak-ng-data` made from `system` (eSpeak NG's own data folder),
    /// made now if it is not in the cache yet. `voice` only names what was asked for in an error.
    static func folder(copying system: URL, voice: String, in folders: [URL] = cacheFolders()) throws(MovieMakerError) -> URL {
        let name = "espeak-ng-steady-" + fingerprint(of: system)
        var lastProblem = "no folder to try"
        for parent in folders {
            let final = parent.appendingPathComponent(name)
            // eSpeak NG keeps its data path in a fixed buffer of 160 bytes.
            guard final.path.utf8.count + "/espeak-ng-data/voices/!v/".utf8.count + 40 < 160 else { continue }
            if FileManager.default.fileExists(atPath: final.appendingPathComponent("espeak-ng-data/phontab").path) { return final }
            do {
                try make(final, from: system)
                return final
            } catch {
                lastProblem = "\(error.localizedDescription) in \(parent.path)"
            }
        }
        throw .invalidSetting(.narrationVoice, value: "\"\(voice)\"",
                              expected: "a folder to keep a copy of eSpeak NG's voice files in (\(lastProblem)); set XDG_CACHE_HOME to a writable folder")
    }

    /// Where the copy may go, in order of preference.
    static func cacheFolders() -> [URL] {
        let environment = ProcessInfo.processInfo.environment
        var folders: [URL] = []
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { folders.append(URL(fileURLWithPath: xdg)) }
        if let home = environment["HOME"], home.hasPrefix("/") { folders.append(URL(fileURLWithPath: home).appendingPathComponent(".cache")) }
        folders.append(FileManager.default.temporaryDirectory)
        return folders.map { $0.appendingPathComponent("moviemaker") }
    }

    /// Names one installation of eSpeak NG's data: its path and its phoneme data's size and date, so
    /// that an upgrade makes a new copy.
    static func fingerprint(of system: URL) -> String {
        let phondata = (try? FileManager.default.attributesOfItem(atPath: system.appendingPathComponent("phondata").path)) ?? [:]
        let size = (phondata[.size] as? NSNumber)?.int64Value ?? 0
        let date = (phondata[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        // FNV-1a: stable across processes, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(system.standardizedFileURL.path)|\(size)|\(Int64(date))|\(steadyLine)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// Makes the copy at `final`: built in a sibling folder, then renamed into place.
    private static func make(_ final: URL, from system: URL) throws {
        let manager = FileManager.default
        let parent = final.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let building = parent.appendingPathComponent(".building-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: building) }
        let data = building.appendingPathComponent("espeak-ng-data")
        try manager.createDirectory(at: data, withIntermediateDirectories: true)
        for entry in try manager.contentsOfDirectory(atPath: system.path) {
            let source = system.appendingPathComponent(entry)
            if voiceFolders.contains(entry) {
                try copyVoices(source, to: data.appendingPathComponent(entry))
            } else {
                try manager.createSymbolicLink(at: data.appendingPathComponent(entry), withDestinationURL: source)
            }
        }
        do {
            try manager.moveItem(at: building, to: final)
        } catch where manager.fileExists(atPath: final.appendingPathComponent("espeak-ng-data/phontab").path) {
            // Another process made it first: its copy is the same.
        }
    }

    /// Copies the voice files under `source` to `destination`, each with `steadyLine` at its end.
    private static func copyVoices(_ source: URL, to destination: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: destination, withIntermediateDirectories: true)
        for entry in try manager.contentsOfDirectory(atPath: source.path) {
            let from = source.appendingPathComponent(entry), to = destination.appendingPathComponent(entry)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: from.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                try copyVoices(from, to: to)
            } else {
                var contents = try Data(contentsOf: from)
                contents.append(contentsOf: steadyLine.utf8)
                try contents.write(to: to)
            }
        }
    }
}

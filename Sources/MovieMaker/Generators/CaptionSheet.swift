import Foundation

/// Caption text per photo, read from a sidecar file next to the photos: a file name → text table,
/// with an optional focus point per photo for `.fill` crops.
///
/// Two formats, told apart by the file's extension:
///
/// - **CSV** (`captions.csv`): one row per photo, `file,text` or `file,text,focus`. A header row is
///   optional (its first field is `file`, `filename`, `name`, `photo` or `image`; columns are then
///   found by name: `text` or `caption`, and `focus`). Fields holding commas, quotes or line breaks
///   are quoted (`"Lisbon, at night"`, a quote inside doubled: `""`). A spreadsheet's semicolon- or
///   tab-separated export is read as well: the separator that comes first on most of its first lines splits the fields.
/// - **Text** (`captions.txt`): one line per photo, `name: text` or `name<TAB>text` (with tabs, an
///   optional third field is the focus). Empty lines and lines starting with `#` are skipped.
///
/// A name matches a photo by its file name (`beach.jpg`), ignoring case, or by the name without its
/// extension (`beach`). A focus is two numbers from 0 to 1, x then y across the upright photo from
/// its top-left corner: `0.5,0.25` (quoted in CSV) or `0.5 0.25`.
///
/// ```
/// file,text,focus
/// beach.jpg,"Lisbon, the first morning",
/// portrait.jpg,Grandma,"0.5,0.2"
/// ```
public struct CaptionSheet: Sendable, Equatable {
    /// One row: a photo's name, its caption and optional focus point.
    public struct Entry: Sendable, Hashable {
        /// The photo's file name as written (with or without its extension).
        public var name: String
        /// The caption text (empty: no caption, e.g. a row that only sets a focus).
        public var text: String
        /// Where `.fill` keeps the photo centred, in unit coordinates of the upright photo (nil: automatic).
        public var focus: Point?
        /// The line of the file the row starts on (from 1).
        public var line: Int

        /// An entry.
        public init(name: String, text: String, focus: Point? = nil, line: Int = 0) {
            self.name = name; self.text = text; self.focus = focus; self.line = line
        }
    }

    /// The rows, in file order.
    public var entries: [Entry]

    /// The largest file read: captions for tens of thousands of photos fit in far less.
    package static let maximumFileSize = 8 << 20

    /// A sheet of `entries`.
    public init(entries: [Entry]) { self.entries = entries }

    /// Reads the file at `url`: CSV when its extension is `.csv`, the text format otherwise (UTF-8, a
    /// byte-order mark ignored). Throws `.invalidCaptions` naming the file (and the line) when it
    /// cannot be read or a line is malformed.
    public init(contentsOf url: URL) throws(MovieMakerError) {
        let path = url.path
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= Self.maximumFileSize else {
                throw MovieMakerError.invalidCaptions(path: path, line: nil, reason: "it is \(size) bytes, more than the \(Self.maximumFileSize) read")
            }
            data = try Data(contentsOf: url)
        } catch let error as MovieMakerError {
            throw error
        } catch {
            throw .invalidCaptions(path: path, line: nil, reason: (error as NSError).localizedDescription)
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw .invalidCaptions(path: path, line: nil, reason: "it is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if url.pathExtension.lowercased() == "csv" {
            try self.init(csv: text, path: path)
        } else {
            try self.init(lines: text, path: path)
        }
    }

    /// Reads CSV text (see the type's description); `path` names the source in errors.
    public init(csv: String, path: String = "captions.csv") throws(MovieMakerError) {
        let rows = try Self.csvRows(csv, path: path)
        var columns = (file: 0, text: 1, focus: Optional(2))
        var body = rows[...]
        if let first = rows.first {
            let names = first.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if ["file", "filename", "file name", "name", "photo", "image"].contains(names[0]) {
                guard let text = names.firstIndex(where: { $0 == "text" || $0 == "caption" }) else {
                    throw .invalidCaptions(path: path, line: first.line, text: first.fields.joined(separator: ","),
                                           reason: "the header has no text (or caption) column")
                }
                columns = (0, text, names.firstIndex(of: "focus"))
                body = rows.dropFirst()
            }
        }
        var entries: [Entry] = []
        for row in body {
            let fields = row.fields
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            let shown = fields.joined(separator: ",")
            guard fields.count > columns.text else {
                throw .invalidCaptions(path: path, line: row.line, text: shown, reason: "a row needs a file name and a caption")
            }
            if columns.focus == 2, fields.count > 3 {
                // Two numbers at the end are an unquoted focus (`…,0.2,0.8`); otherwise a caption's commas.
                let tail = fields.suffix(2).map { $0.trimmingCharacters(in: .whitespaces) }
                let fix = fields.count == 4 && tail.allSatisfy({ Double($0) != nil })
                    ? "the focus \(tail.joined(separator: ",")) holds a comma: quote it (\"\(tail.joined(separator: ","))\") or write it with a space (\(tail.joined(separator: " ")))"
                    : "quote a caption that holds commas"
                throw .invalidCaptions(path: path, line: row.line, text: shown,
                                       reason: "\(fields.count) fields where at most 3 (file, text, focus) are read: \(fix)")
            }
            let name = fields[columns.file].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw .invalidCaptions(path: path, line: row.line, text: shown, reason: "the file name is empty") }
            var focus: Point?
            if let f = columns.focus, f < fields.count { focus = try Self.focus(fields[f], path: path, line: row.line) }
            entries.append(Entry(name: name, text: fields[columns.text].trimmingCharacters(in: .whitespaces), focus: focus, line: row.line))
        }
        self.init(entries: entries)
    }

    /// Reads the text format (see the type's description); `path` names the source in errors.
    public init(lines text: String, path: String = "captions.txt") throws(MovieMakerError) {
        var entries: [Entry] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let name: Substring, rest: Substring
            var focus: Point?
            if let tab = line.firstIndex(of: "\t") {
                name = line[..<tab]
                let fields = line[line.index(after: tab)...].split(separator: "\t", omittingEmptySubsequences: false)
                rest = fields[0]
                if fields.count > 2 {
                    throw .invalidCaptions(path: path, line: index + 1, text: line, reason: "more than three tab-separated fields (name, text, focus)")
                }
                if fields.count == 2 { focus = try Self.focus(String(fields[1]), path: path, line: index + 1) }
            } else if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]; rest = line[line.index(after: colon)...]
            } else {
                throw .invalidCaptions(path: path, line: index + 1, text: line, reason: "no \":\" or tab between the photo's name and its caption")
            }
            let file = name.trimmingCharacters(in: .whitespaces)
            guard !file.isEmpty else { throw .invalidCaptions(path: path, line: index + 1, text: line, reason: "the file name is empty") }
            entries.append(Entry(name: file, text: rest.trimmingCharacters(in: .whitespaces), focus: focus, line: index + 1))
        }
        self.init(entries: entries)
    }

    /// The entry for the photo at `url`: the last row naming its file name (ignoring case), or else its
    /// name without the extension; nil when no row names it.
    func entry(for url: URL) -> Entry? { index(for: url).map { entries[$0] } }

    /// The index in `entries` of `entry(for:)`'s row.
    func index(for url: URL) -> Int? { rows(for: url).last.map { entries.firstIndex(of: $0)! } }

    /// Every row naming the photo at `url`, in file order: those naming its file name, or, when none
    /// does, those naming it without its extension. The last is the one used; more than one is
    /// usually a slip (the CLI warns).
    package func rows(for url: URL) -> [Entry] {
        let file = url.lastPathComponent.lowercased(), stem = url.deletingPathExtension().lastPathComponent.lowercased()
        let named = { (name: String) in entries.filter { ($0.name as NSString).lastPathComponent.lowercased() == name } }
        let byFile = named(file)
        return byFile.isEmpty ? named(stem) : byFile
    }

    /// `"0.5,0.25"`, `"0.5 0.25"` or `"0.5;0.25"` as a point; an empty field is nil.
    static func focus(_ text: String, path: String, line: Int) throws(MovieMakerError) -> Point? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        let parts = trimmed.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
            throw .invalidCaptions(path: path, line: line, text: trimmed,
                                   reason: "a focus is two numbers from 0 to 1, x then y from the photo's top-left corner, e.g. \"0.5,0.25\"")
        }
        return Point(x: parts[0], y: parts[1])
    }

    /// The rows of CSV text with the line each starts on (see `CSV`).
    static func csvRows(_ text: String, path: String) throws(MovieMakerError) -> [(fields: [String], line: Int)] {
        do {
            return try CSV.rows(text).map { ($0.fields, $0.line) }
        } catch {
            throw .invalidCaptions(path: path, line: error.line, text: error.text, reason: error.reason)
        }
    }
}

extension Slideshow {
    /// Whether a sheet's `name` names the photo at `url` (its file name or its name without the extension, ignoring case).
    static func names(_ name: String, _ url: URL) -> Bool {
        let n = (name as NSString).lastPathComponent.lowercased()
        return n == url.lastPathComponent.lowercased() || n == url.deletingPathExtension().lastPathComponent.lowercased()
    }

    /// Sets each photo's caption (and focus, where given) from `sheet`'s row for it; photos without a
    /// row keep theirs. Returns the rows that name no photo of the show (a misspelt name), in order.
    @discardableResult
    public mutating func applyCaptions(_ sheet: CaptionSheet) -> [CaptionSheet.Entry] {
        var used = Set<Int>()
        for i in photos.indices {
            guard let k = sheet.index(for: photos[i].url) else { continue }
            used.insert(k)
            let entry = sheet.entries[k]
            if !entry.text.isEmpty { photos[i].caption = entry.text }
            if let focus = entry.focus { photos[i].focus = focus }
        }
        // A row shadowed by a later row for the same photo is not unmatched.
        return sheet.entries.indices.filter { k in
            !used.contains(k) && !photos.contains { sheet.index(for: $0.url) != nil && Self.names(sheet.entries[k].name, $0.url) }
        }.map { sheet.entries[$0] }
    }
}

import Foundation
import Synchronization

/// One template rendered once per row of slot values, in one process: a personalised video for each
/// customer, a lower third for every speaker (`moviemaker render template.json --batch rows.csv`).
///
/// Each row's columns fill the template's slots by name (a blank cell leaves the slot at its default);
/// columns that name no slot may be used in `outputPattern` only. Rows render several at once
/// (`concurrency`), each exactly as a separate `render --slot …` of the same values would: the same
/// settings, the same bytes. A row that fails (a missing photo, a text longer than its slot's
/// `maxLength`) is reported in its `Result` and the others go on.
///
/// Runs are resumable: every movie records a content hash of what it was made from (`RenderIdentity`:
/// the filled description, the settings, the files' sizes and times), and a row whose output already
/// holds the same hash is skipped unless `force` is set.
///
/// ```swift
/// let template = try Timeline(contentsOf: URL(fileURLWithPath: "card.json"))
/// let rows = try TemplateBatch.rows(contentsOf: URL(fileURLWithPath: "people.csv"))
/// let batch = TemplateBatch(template: template, rows: rows, outputPattern: "out/{row}-{name}.mp4",
///                           options: Timeline.RenderOptions(), filesFolder: URL(fileURLWithPath: "."))
/// for result in try batch.run() { print(result.row.number, result.outcome) }
/// ```
public struct TemplateBatch: Sendable {
    /// One movie's values: column name → text (a path for media slots, relative to `filesFolder`).
    public struct Row: Sendable, Hashable {
        /// The row's number among the rows, from 1 (`{row}` in the pattern).
        public var number: Int
        /// Column name → value.
        public var values: [String: String]
        /// The line of the rows file the row starts on, when it was read from one.
        public var line: Int?

        /// A row numbered `number` (from 1) holding `values`.
        public init(number: Int, values: [String: String], line: Int? = nil) {
            self.number = number; self.values = values; self.line = line
        }

        /// "row 3 (line 4)", or "row 3".
        package var label: String { "row \(number)" + (line.map { " (line \($0))" } ?? "") }
    }

    /// What became of a row.
    public enum Outcome: Sendable {
        /// Rendered now.
        case rendered(MovieSummary)
        /// Its output already held a movie made from the same description, settings and files.
        case skipped
        /// It failed for this reason; nothing was written for it.
        case failed(MovieMakerError)
    }

    /// A row's result.
    public struct Result: Sendable {
        /// The row.
        public let row: Row
        /// Its movie.
        public let output: URL
        /// What became of it.
        public let outcome: Outcome
        /// How long it took, in seconds.
        public let seconds: Double
        /// What its render did differently from what the row asked, without failing (a clip shorter than
        /// its item, a blank title): the composition's warnings, one sentence each. Empty when skipped or
        /// failed (a failed row's error says what went wrong).
        public let warnings: [String]
    }

    /// The template whose slots the rows fill.
    public var template: Timeline
    /// The rows, in order.
    public var rows: [Row]
    /// Each row's destination: `{column}` is the row's value (a `/` in it becomes `-`), `{row}` its
    /// number. Relative paths start at the current folder; missing folders are made.
    public var outputPattern: String
    /// How the template is resolved and encoded (the same for every row).
    public var options: Timeline.RenderOptions
    /// The folder that relative paths in the rows start from (the rows file's folder).
    public var filesFolder: URL
    /// Rows rendered at once (0: one per usable core, at most 4). Each row's own frames are still drawn
    /// and encoded in parallel; the movies do not depend on it.
    public var concurrency = 0
    /// Renders every row again, even one whose output is already what it would make.
    public var force = false
    /// Told each rendering row's progress (its movie's destination and report), from the row's drawing
    /// thread: the command line's plain progress lines, so a long row is not silent in a CI log.
    package var onProgress: (@Sendable (URL, RenderProgress) -> Void)?

    /// A batch of `rows` filling `template`, written to `outputPattern`.
    public init(template: Timeline, rows: [Row], outputPattern: String, options: Timeline.RenderOptions, filesFolder: URL) {
        self.template = template; self.rows = rows; self.outputPattern = outputPattern
        self.options = options; self.filesFolder = filesFolder
    }

    /// The rows of a CSV file (a header row of column names, then one row per movie) or, for `.jsonl`
    /// and `.ndjson`, JSON Lines (one object of column → value per line). Blank lines are skipped.
    ///
    /// Throws `.invalidBatch` naming the file and line: not UTF-8, a malformed line, a header with a
    /// blank or repeated name, a row with more or fewer fields than the header, no rows.
    public static func rows(contentsOf url: URL) throws(MovieMakerError) -> [Row] { try table(contentsOf: url).rows }

    /// This batch with only every `count`-th row, starting at row index `index` (0-based): what one of
    /// `count` machines renders (`--batch-index K/N`, a Slurm array task, a Kubernetes Indexed Job).
    /// Together the `count` parts render every row exactly once.
    public func selected(index: Int, of count: Int) -> TemplateBatch {
        precondition(count >= 1 && (0..<count).contains(index), "index \(index) of \(count)")
        var copy = self
        copy.rows = rows.enumerated().filter { $0.offset % count == index }.map(\.element)
        return copy
    }

    /// Each row's destination, checked before any movie starts: every placeholder of the pattern is a
    /// column (or `row`), every column names a slot or is used in the pattern, destinations are distinct,
    /// have a movie extension and are not files the template or any row names as an input. Only these
    /// rows are checked: after `selected(index:of:)`, check the whole batch's `destinations()` first.
    ///
    /// Throws `.invalidBatch` naming the pattern, column or rows.
    public func destinations() throws(MovieMakerError) -> [URL] {
        // A machine whose share is empty (more array tasks than rows) has nothing to check: the whole
        // batch was checked first.
        guard !rows.isEmpty else { return [] }
        let columns = Set(rows.flatMap(\.values.keys))
        let used: [String]
        do { used = try FilePattern.placeholders(in: outputPattern) } catch {
            throw .invalidBatch(path: "the output pattern", line: nil, reason: error.reason)
        }
        for name in used where !columns.contains(name) && name != "row" {
            throw .invalidBatch(path: "the output pattern \"\(outputPattern)\"", line: nil,
                                reason: "{\(name)} is not a column of the rows (their columns: \(columns.sorted().joined(separator: ", ")); {row} is the row's number)")
        }
        // A column named as a slot but for its case (`Name` for `name`) would leave the slot at its
        // default in every movie while the column only names files.
        for column in columns.sorted() where template.slots[column] == nil {
            guard let slot = template.slots.keys.sorted().first(where: { $0.lowercased() == column.lowercased() }) else { continue }
            let line = rows.first?.line == nil ? nil : 1
            throw .invalidBatch(path: "the rows", line: line,
                                reason: "the column \"\(column)\" names no slot, and the template has the slot \"\(slot)\": names are case-sensitive, so every movie would keep \(slot)'s default; rename the column \"\(slot)\"")
        }
        for column in columns.sorted() where template.slots[column] == nil && !used.contains(column) {
            let slots = template.slots.keys.sorted()
            // A column every row has is the CSV header's (line 1, or a JSON Lines file's first row); one
            // only some rows have is a JSON Lines key, named at the first row holding it.
            let line = rows.allSatisfy { $0.values[column] != nil } ? (rows.first?.line == nil ? nil : 1) : rows.first { $0.values[column] != nil }?.line
            throw .invalidBatch(path: "the rows", line: line,
                                reason: "the column \"\(column)\" names no slot of the template (its slots: \(slots.isEmpty ? "none" : slots.joined(separator: ", "))) and is not used in the output pattern; rename it or remove it")
        }
        let ext = URL(fileURLWithPath: outputPattern).pathExtension.lowercased()
        guard let container = Container(fileExtension: ext), container != .hls, container != .pngSequence else {
            throw .invalidBatch(path: "the output pattern \"\(outputPattern)\"", line: nil,
                                reason: "give a movie extension: .mp4, .mov, .mkv, .webm, .gif, .apng or .webp")
        }
        var seen: [String: Row] = [:]
        var urls: [URL] = []
        for row in rows {
            // A blank value in the name (`{id}` of a row without one) would name the movie `1-.mp4`.
            for name in used where name != "row" && (row.values[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw .invalidBatch(path: "the output pattern \"\(outputPattern)\"", line: row.line,
                                    reason: "\(row.label) has no \(name), which {\(name)} in the pattern names: fill it in, or name the movies by another column or {row}")
            }
            let path = FilePattern.fill(outputPattern, values: row.values, number: row.number, forFileName: true)
            let url = URL(fileURLWithPath: path).standardizedFileURL
            guard url.lastPathComponent.utf8.count <= 255 else {
                throw .invalidBatch(path: "the output pattern \"\(outputPattern)\"", line: row.line,
                                    reason: "\(row.label) gives a file name of \(url.lastPathComponent.utf8.count) bytes, more than the 255 a file name may have: name the movies by a shorter column or {row}")
            }
            // Compared as the files written, so two folders that are one (a link) cannot hide a clash.
            let identity = PartialFiles.identity(of: url)
            if let earlier = seen[identity] {
                throw .invalidBatch(path: "the output pattern \"\(outputPattern)\"", line: nil,
                                    reason: "\(earlier.label) and \(row.label) both write \(url.path): add {row} or another column to the pattern")
            }
            seen[identity] = row
            urls.append(url)
        }
        // Rows render at once and each movie replaces its destination, so a destination that is a file any
        // row reads (its own or another's: one row's output named as the next row's clip) or the template
        // itself names would be lost, or read half-replaced. Compared as files (device and inode), so a
        // symbolic link or another spelling of the same path is caught too.
        let inputs = readFiles()
        for (url, row) in zip(urls, rows) {
            let key = url.path
            guard let reader = inputs.byPath[key] ?? FileIdentity(path: key).flatMap({ inputs.byFile[$0] }) else { continue }
            throw .invalidBatch(path: "the output pattern \"\(outputPattern)\"", line: row.line,
                                reason: "row \(row.number) would write \(key), which \(reader) names as an input: a batch never writes over its inputs; change the output pattern")
        }
        return urls
    }

    /// The files the rows' media cells and the template name, by standardized path and by file, each
    /// with who reads it ("row 2 (line 3)", "the template").
    private func readFiles() -> (byPath: [String: String], byFile: [FileIdentity: String]) {
        var byPath: [String: String] = [:], byFile: [FileIdentity: String] = [:]
        func add(_ text: String, relativeTo folder: URL, reader: String) {
            guard !text.isEmpty, !text.contains("://") || text.hasPrefix("file:") else { return }
            let url = TimelineCompiler.resolve(text, from: folder)
            guard url.isFileURL else { return }
            let path = url.path
            if byPath[path] == nil { byPath[path] = reader }
            if let key = FileIdentity(path: path), byFile[key] == nil { byFile[key] = reader }
        }
        for row in rows {
            for (column, value) in row.values.sorted(by: { $0.key < $1.key }) {
                switch template.slots[column]?.kind {
                case .video?, .photo?, .media?, .audio?: add(value, relativeTo: filesFolder, reader: row.label)
                default: continue
                }
            }
        }
        // Strict on purpose: a slot's default counts even when every row fills the slot.
        for path in template.namedFiles { add(path, relativeTo: options.mediaFolder, reader: "the template") }
        return (byPath, byFile)
    }

    /// Renders every row, `concurrency` at a time, calling `onResult` (from a worker thread) as each
    /// finishes; returns the results in row order. A row that fails does not stop the others;
    /// cancelling `cancellation` stops the batch (finished movies are kept, the rows in progress leave
    /// nothing, the rest are not started and have no result).
    ///
    /// Throws `.invalidBatch` (from `destinations()`) before any row starts.
    @discardableResult
    public func run(cancellation: CancellationToken? = nil,
                    onResult: @escaping @Sendable (Result) -> Void = { _ in }) throws(MovieMakerError) -> [Result] {
        let destinations = try destinations()
        let jobs = max(1, min(concurrency > 0 ? concurrency : min(UsableCores.count, 4), rows.count))
        let next = Mutex(0)
        let results = Mutex<[Int: Result]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while cancellation?.isCancelled != true {
                let index: Int? = next.withLock { n in
                    guard n < rows.count else { return nil }
                    defer { n += 1 }
                    return n
                }
                guard let index else { return }
                let started = ContinuousClock.now
                let (outcome, warnings) = render(rows[index], to: destinations[index], cancellation: cancellation)
                if case let .failed(error) = outcome, error.code == .cancelled { return }
                let elapsed = ContinuousClock.now - started
                let result = Result(row: rows[index], output: destinations[index], outcome: outcome,
                                    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                                    warnings: warnings)
                results.withLock { $0[index] = result }
                onResult(result)
            }
        }
        return results.withLock { done in done.keys.sorted().map { done[$0]! } }
    }

    /// The template filled with `row`'s values (blank cells leave a slot at its default).
    ///
    /// Throws `.invalidDescription` at `slots.<name>`: a file that does not exist for a media slot, a
    /// text longer than its slot's `maxLength`, a colour that does not parse.
    public func filled(for row: Row) throws(MovieMakerError) -> Timeline {
        let assignments = row.values.keys.sorted().compactMap { column -> String? in
            // A cell of spaces alone (a spreadsheet's stray space) is blank too, as --require-slots says.
            guard template.slots[column] != nil, let value = row.values[column],
                  !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return "\(column)=\(value)"
        }
        return try template.filled(with: template.slotValues(assignments: assignments, relativeTo: filesFolder))
    }

    /// `row`'s composition, refused when its movie reads `url`: the last word after `destinations()`,
    /// which sees only the paths the cells and the template spell, not every file the movie opens.
    private func composition(for row: Row, writing url: URL) throws -> TimelineComposition {
        let composition = try filled(for: row).composition(options)
        if composition.inputFiles.contains(where: { $0.standardizedFileURL.path == url.path }) {
            throw MovieMakerError.invalidBatch(path: url.path, line: row.line, reason: "row \(row.number) would write over a file its movie reads: change the output pattern")
        }
        return composition
    }

    /// What is wrong with `row` written to `url`, found as its render would find it before the first
    /// frame (its values, files, fonts, data; a movie that would read `url`; a format `url`'s extension
    /// cannot hold), or nil with the composition's warnings when it is ready to render. Nothing is written.
    package func mistake(in row: Row, writing url: URL) -> (mistake: MovieMakerError?, warnings: [String]) {
        do {
            let (composition, said) = try LibraryWarnings.collecting { () throws -> TimelineComposition in try self.composition(for: row, writing: url) }
            if SoundFileFormat(fileExtension: url.pathExtension) == nil { try composition.checkMovie(at: url) }
            return (nil, Self.merged(composition.warnings, said))
        } catch let error as MovieMakerError {
            return (error, [])
        } catch {
            return (.failedEarlier(error), [])
        }
    }

    /// What the movie `url` names would refuse about `row`'s render whatever the row holds: its
    /// container, the codec it and the options choose, the CRF and bit depth for it, transparency and
    /// size (`TimelineComposition.checkMovie`). Nil when the row itself does not compile (that is the
    /// row's mistake, found when it renders) or the format is fine.
    package func formatMistake(in row: Row, writing url: URL) -> MovieMakerError? {
        // Its warnings are the row's, said when it renders: not here, naming no row.
        guard SoundFileFormat(fileExtension: url.pathExtension) == nil,
              let composition = try? LibraryWarnings.collecting({ () throws -> TimelineComposition in try self.composition(for: row, writing: url) }).0 else { return nil }
        do { try composition.checkMovie(at: url) } catch { return error }
        return nil
    }

    /// The composition's warnings, then those the library said while it was made and rendered, each once.
    private static func merged(_ own: [String], _ said: [String]) -> [String] {
        var seen = Set<String>()
        return (own + said).filter { seen.insert($0).inserted }
    }

    /// Renders one row to `url`, or skips it when `url` already holds what it would make; with the
    /// composition's warnings when it was rendered.
    private func render(_ row: Row, to url: URL, cancellation: CancellationToken?) -> (Outcome, [String]) {
        do {
            // What the library warns about on this row's thread (a title that does not fit) is the row's,
            // said with it, not once for the whole batch naming no row.
            let (composition, early) = try LibraryWarnings.collecting { () throws -> TimelineComposition in try self.composition(for: row, writing: url) }
            if !force, FileManager.default.fileExists(atPath: url.path), RenderIdentity.recorded(in: url) == composition.renderIdentity {
                return (.skipped, [])
            }
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw MovieMakerError.destinationNotWritable(path: url.path, reason: "its folder cannot be made (\(error.localizedDescription)): check the output pattern and the permissions")
            }
            let movie = try composition.makeMovie(at: url)
            movie.cancellation = cancellation
            if let onProgress { movie.progressHandler = { onProgress(url, $0) } }
            do {
                let (summary, said) = try LibraryWarnings.collecting { () throws -> MovieSummary in
                    try composition.recordIdentity(in: movie)
                    try composition.render(into: movie)
                    return try movie.finish()
                }
                return (.rendered(summary), Self.merged(composition.warnings, early + said))
            } catch {
                movie.cancel()
                throw error
            }
        } catch let error as MovieMakerError {
            return (.failed(error), [])
        } catch {
            return (.failed(.failedEarlier(error)), [])
        }
    }

    /// The column names (a CSV's header order; for JSON Lines, in order of first appearance) and rows of
    /// the file at `url` (see `rows(contentsOf:)`).
    package static func table(contentsOf url: URL) throws(MovieMakerError) -> (columns: [String], rows: [Row]) {
        let path = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw .invalidBatch(path: path, line: nil, reason: "no such file; give a CSV file whose first row names the columns (e.g. name,photo) or a .jsonl file")
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        guard size <= maximumFileSize else {
            throw .invalidBatch(path: path, line: nil, reason: "the file is \(size) bytes, more than the \(maximumFileSize) read: split it into several files")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidBatch(path: path, line: nil, reason: "cannot read the file (check its permissions)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidBatch(path: path, line: nil, reason: "the file is not UTF-8 text: save it as CSV UTF-8")
        }
        let table = ["jsonl", "ndjson"].contains(url.pathExtension.lowercased()) ? try jsonLines(text, path: path) : try csv(text, path: path)
        guard !table.rows.isEmpty else {
            throw .invalidBatch(path: path, line: nil, reason: "the file has a header (\(table.columns.joined(separator: ", "))) but no rows: add one row per movie")
        }
        return table
    }

    /// The largest rows file read (a CSV of names and files is kilobytes to megabytes).
    static let maximumFileSize = 16 << 20

    /// A CSV file's columns and rows.
    private static func csv(_ text: String, path: String) throws(MovieMakerError) -> (columns: [String], rows: [Row]) {
        let all: [CSV.Row]
        do { all = try CSV.rows(text, header: true) } catch { throw .invalidBatch(path: path, line: error.line, reason: error.reason) }
        // A row of empty fields (`,,`: the empty rows a spreadsheet exports after its last) is a blank
        // line too: it made a movie of the template's defaults, or stopped a title batch as "empty".
        let nonBlank = all.filter { !$0.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
        guard let header = nonBlank.first else {
            throw .invalidBatch(path: path, line: nil, reason: "the file is empty: its first row names the columns (e.g. name,photo), each further row is one movie")
        }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        try checkColumns(columns, path: path, line: header.line)
        var rows: [Row] = []
        for (number, row) in nonBlank.dropFirst().enumerated() {
            guard row.fields.count == columns.count else {
                let separator = String(CSV.separator(of: text, header: true))
                let name = separator == "," ? "comma" : separator == ";" ? "semicolon" : "tab"
                // A tab is shown as <TAB>: a raw one in a message looks like spaces.
                let shown = separator == "\t" ? "<TAB>" : separator
                // Too few: a blank value still needs its separator. Too many: a value held the separator.
                let fix = row.fields.count < columns.count
                    ? "write a separator for each value, a blank one too: \(row.fields.map { Self.quoted($0, separator: separator) }.joined(separator: shown) + String(repeating: shown, count: columns.count - row.fields.count))"
                    : "quote a value that holds a \(name): \"Doe\(shown) Jane\""
                throw .invalidBatch(path: path, line: row.line,
                                    reason: "\(row.fields.count) field\(row.fields.count == 1 ? "" : "s") where the header has \(columns.count) (\(columns.joined(separator: ", "))); \(fix)")
            }
            rows.append(Row(number: number + 1, values: Dictionary(uniqueKeysWithValues: zip(columns, row.fields)), line: row.line))
        }
        return (columns, rows)
    }

    /// `field` as a CSV file writes it: in double quotes (its own doubled) when it holds `separator`, a
    /// quote or a line break, so a row shown in a hint can be typed back as it is.
    static func quoted(_ field: String, separator: String) -> String {
        guard field.contains(separator) || field.contains("\"") || field.contains(where: \.isNewline) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A JSON Lines file's columns and rows: each non-blank line an object whose values are strings,
    /// numbers (as written) or booleans.
    private static func jsonLines(_ text: String, path: String) throws(MovieMakerError) -> (columns: [String], rows: [Row]) {
        var columns: [String] = []
        var rows: [Row] = []
        // "\r\n" (a file written on Windows) is one Character in Swift, so it is a separator of its own.
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let json: JSONValue
            do { json = try JSONValue(parsing: trimmed) } catch {
                // The parser counts lines within the one line it was given: only its column means anything here.
                let reason = error.message.replacingOccurrences(of: "at line 1, column", with: "at column")
                throw .invalidBatch(path: path, line: offset + 1, reason: "not JSON (\(reason)); each line is one object, e.g. {\"name\": \"Ana\", \"photo\": \"ana.jpg\"}")
            }
            guard case let .object(object) = json else {
                throw .invalidBatch(path: path, line: offset + 1, reason: "each line is one object of column → value, e.g. {\"name\": \"Ana\"}; got \(json.shortDescription)")
            }
            var values: [String: String] = [:]
            for key in keysInWrittenOrder(object, line: trimmed) {
                switch object[key]! {
                case let .string(s): values[key] = s
                case let .number(n): values[key] = n
                case let .bool(b): values[key] = b ? "true" : "false"
                case .null: values[key] = ""
                case let other:
                    throw .invalidBatch(path: path, line: offset + 1, reason: "\"\(key)\" holds \(other.shortDescription): a value is a string, number or boolean")
                }
                if !columns.contains(key) { columns.append(key) }
            }
            rows.append(Row(number: rows.count + 1, values: values, line: offset + 1))
        }
        try checkColumns(columns, path: path, line: nil)
        return (columns, rows)
    }

    /// `object`'s keys in the order `line` writes them (the parser keeps no order, and "the first
    /// column" of a JSON Lines file is the first key written, as in a CSV header). A key written with
    /// escapes is not found as written: those follow, sorted.
    static func keysInWrittenOrder(_ object: [String: JSONValue], line: String) -> [String] {
        let text = Array(line.utf8)
        func position(of key: String) -> Int {
            let quoted = Array("\"\(key)\"".utf8)
            guard quoted.count <= text.count else { return Int.max }
            for start in 0...(text.count - quoted.count) where text[start] == UInt8(ascii: "\"") {
                guard Array(text[start..<(start + quoted.count)]) == quoted, start == 0 || text[start - 1] != UInt8(ascii: "\\") else { continue }
                var next = start + quoted.count
                while next < text.count, [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(text[next]) { next += 1 }
                if next < text.count, text[next] == UInt8(ascii: ":") { return start }
            }
            return Int.max
        }
        let sorted = JSONValue.sortedKeys(object)
        let positions = Dictionary(uniqueKeysWithValues: sorted.map { ($0, position(of: $0)) })
        return sorted.enumerated().sorted { a, b in
            let (pa, pb) = (positions[a.element]!, positions[b.element]!)
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
    }

    /// Column names must be non-empty, distinct and brace-free (they are placeholders in the pattern).
    private static func checkColumns(_ columns: [String], path: String, line: Int?) throws(MovieMakerError) {
        for (index, name) in columns.enumerated() {
            guard !name.isEmpty else {
                throw .invalidBatch(path: path, line: line, reason: "column \(index + 1) of the header has no name; the first row names every column")
            }
            guard !name.contains("{") && !name.contains("}") else {
                throw .invalidBatch(path: path, line: line, reason: "the column name \"\(name)\" has a brace; name it with letters, digits, - or _")
            }
            if let earlier = columns[..<index].firstIndex(of: name) {
                throw .invalidBatch(path: path, line: line, reason: "columns \(earlier + 1) and \(index + 1) are both called \"\(name)\"; give each column its own name")
            }
        }
    }
}

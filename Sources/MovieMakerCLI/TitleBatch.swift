import ArgumentParser
import Foundation
import MovieMaker
import Synchronization

/// `title --batch`'s options: a CSV of rows, the file name each row's movie gets, how many at once.
struct TitleBatchOptions: ParsableArguments {
    /// The rows.
    @Option(help: ArgumentHelp("A CSV file with a header row, or a .jsonl file of one object per line: one movie per row, its columns filling {column} placeholders in the title, --subtitle, --body and --output-pattern (see the examples).",
                               valueName: "rows.csv"))
    var batch: String?

    /// Where each row's movie goes.
    @Option(help: ArgumentHelp("With --batch: each row's destination, e.g. 'out/{name}.mp4' ({row} is the row's number from 1; a / in a value becomes -).",
                                valueName: "pattern"))
    var outputPattern: String?

    /// Rows rendered at once.
    @Option(help: ArgumentHelp("With --batch: rows rendered at once (default: one per core), each with its share of the cores.",
                               valueName: "n"))
    var jobs: Int?

    /// A machine-readable account of the rows.
    @Option(help: ArgumentHelp("With --batch: write what became of each row to this JSON Lines file once the batch ends (row, line, output, status rendered/failed, seconds, warnings, the error's code and message), as render --batch --report does.",
                               valueName: "report.jsonl"))
    var report: String?
}

/// The rows of a `title --batch` CSV file, and the `{column}` placeholders they fill.
///
/// The first row names the columns; every other row is one movie. Placeholders are `{column}` (the
/// column's value in the row), `{row}` (the row's number, from 1, unless a column is called `row`),
/// and `{{`/`}}` for literal braces.
struct TitleBatch: Sendable {
    /// One movie's values.
    struct Row: Sendable {
        /// The line of the file the row starts on.
        let line: Int
        /// The row's number among the rows, from 1 (the header is not counted).
        let number: Int
        /// Column name → value.
        let values: [String: String]
    }

    /// The file, as given.
    let path: String
    /// The column names, in the header's order.
    let columns: [String]
    /// The rows after the header (blank lines skipped).
    let rows: [Row]

    /// Reads and checks `path`: UTF-8 CSV with a header of distinct non-empty names and at least one
    /// row, each with as many fields as the header has columns.
    init(contentsOf path: String) throws(InputError) {
        self.path = path
        let table: (columns: [String], rows: [TemplateBatch.Row])
        do { table = try TemplateBatch.table(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError("--batch \(error.message)")
        }
        let columns = table.columns
        let rows = table.rows.map { Row(line: $0.line ?? $0.number, number: $0.number, values: $0.values) }
        self.columns = columns
        self.rows = rows
    }

    /// The text a template gives when a column is named: `{title}` if there is a `title` column,
    /// otherwise the first column's placeholder.
    var defaultTitleTemplate: String { "{\(columns.contains("title") ? "title" : columns[0])}" }

    /// The placeholder names in `template`, in order (without `{row}` resolution).
    static func placeholders(in template: String) throws(InputError) -> [String] {
        do { return try FilePattern.placeholders(in: template) } catch { throw InputError(error.reason) }
    }

    /// Checks that every placeholder in `template` (given as `option`) is a column or `{row}`.
    func check(_ template: String, option: String) throws(InputError) {
        for name in try Self.placeholders(in: template) where !columns.contains(name) && name != "row" {
            throw InputError("\(option) \"\(template)\": {\(name)} is not a column of \(path) (its columns: \(columns.joined(separator: ", ")); {row} is the row's number)")
        }
    }

    /// `template` with `row`'s values in place of its placeholders. With `forFileName`, a value's `/`
    /// becomes `-` and a NUL is dropped, so a value cannot move the file into another folder.
    static func fill(_ template: String, with row: Row, forFileName: Bool = false) -> String {
        FilePattern.fill(template, values: row.values, number: row.number, forFileName: forFileName)
    }
}

extension TitleCommand {
    /// One row's render, worked out before any movie starts.
    struct BatchItem: Sendable {
        /// The row.
        let row: TitleBatch.Row
        /// Its destination.
        let path: String
        /// Its card.
        let card: TitleCard
    }

    /// The rows' cards and destinations, every one checked before the first render: placeholders name
    /// columns, titles are not empty, destinations are distinct, writable and not inputs.
    func batchItems(_ batch: TitleBatch, family: String) throws -> [BatchItem] {
        let titleTemplate = title ?? batch.defaultTitleTemplate
        let subtitleTemplate = subtitle ?? (batch.columns.contains("subtitle") ? "{subtitle}" : nil)
        let bodyTemplate = body ?? (batch.columns.contains("body") ? "{body}" : nil)
        try batch.check(titleTemplate, option: "the title")
        if let subtitleTemplate { try batch.check(subtitleTemplate, option: "--subtitle") }
        if let bodyTemplate { try batch.check(bodyTemplate, option: "--body") }
        let pattern = batching.outputPattern ?? ""
        try batch.check(pattern, option: "--output-pattern")
        let arguments = Array(CommandLine.arguments.dropFirst())
        var lineForPath: [String: Int] = [:]
        var items: [BatchItem] = []
        for row in batch.rows {
            let where_ = "\(batch.path), line \(row.line)"
            let text = TitleBatch.fill(titleTemplate, with: row)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw InputError("\(where_): the title is empty (\(titleTemplate) is blank in this row); fill it in or remove the row")
            }
            // A blank value anywhere in the pattern (`{team}/{name}.mp4` of a row without a team) would put
            // the movie in another folder, or name it `1-.mp4`.
            for name in try TitleBatch.placeholders(in: pattern) where name != "row" && (row.values[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw InputError("\(where_): --output-pattern \(pattern) uses {\(name)}, which is blank in this row; fill it in, or name the movies by another column or {row}")
            }
            let path = TitleBatch.fill(pattern, with: row, forFileName: true)
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw InputError("\(where_): --output-pattern \(pattern) gives the file name \"\(URL(fileURLWithPath: path).lastPathComponent)\" (a blank value); fill in the row or add {row} to the pattern")
            }
            // The file written, so two folders that are one (a link) cannot hide a clash.
            let key = PartialFiles.identity(of: URL(fileURLWithPath: path))
            if let earlier = lineForPath[key] {
                throw InputError("\(batch.path), lines \(earlier) and \(row.line) both write \(path): add {row} or another column to --output-pattern")
            }
            lineForPath[key] = row.line
            // A `..` after a folder is read as the system reads it (see OutputOptions.destinationURL): that
            // folder must exist, since a folder made later would change where `..` leads.
            if let typed = OutputOptions.unresolvedFolder(of: path) {
                throw InputError("\(where_): --output-pattern \(pattern) gives \(path), whose folder \(typed) does not exist: write the pattern without \"..\"")
            }
            // Folders the pattern names are made when their row renders, as render --batch makes them
            // (`out/{team}/{name}.mp4`): here the nearest existing one must be a folder that takes them.
            var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            var isFolder: ObjCBool = false
            while !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), folder.path != "/" {
                folder.deleteLastPathComponent()
            }
            guard isFolder.boolValue else { throw InputError("\(where_): \(folder.path) is a file, not a folder: check --output-pattern") }
            do {
                if folder.path == URL(fileURLWithPath: path).deletingLastPathComponent().path {
                    try OutputOptions.check(path)
                } else {
                    try OutputOptions.checkName(path)
                    try OutputOptions.checkFolder(of: folder.appendingPathComponent("folder").path)
                }
            } catch let error as InputError {
                throw InputError("\(where_): \(error.description)")
            }
            if FileIdentity.same(path, batch.path) {
                throw InputError("\(where_): \(path) is the --batch file itself: choose another --output-pattern")
            }
            if let input = FileIdentity.inputMatching(path, in: arguments) {
                throw InputError("\(where_): \(path) is \(input), an input of this command: writing there would destroy it; choose another --output-pattern")
            }
            // What the encoder would refuse for this destination (`--codec h264` with `.webm`) fails every
            // row alike: said now, as a usage error, rather than once per row after the batch has started.
            if !OutputOptions.stillExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased()) {
                let render = renderSettings
                do {
                    _ = try MovieMaker.checkedFormat(url: OutputOptions.destinationURL(path), isPNGSequence: false, width: render.size.width,
                                                     height: render.size.height, fps: render.fps, settings: render.settings, audioSettings: nil, hls: false)
                } catch {
                    throw InputError("\(where_): \(path): \(error.message) (every row would fail so: nothing was rendered)")
                }
            }
            let card = makeCard(title: text, subtitle: subtitleTemplate.map { TitleBatch.fill($0, with: row) },
                                body: bodyTemplate.map { TitleBatch.fill($0, with: row) }, family: family)
            items.append(BatchItem(row: row, path: path, card: card))
        }
        return items
    }

    /// Renders every row of `batch`, `--jobs` at a time, each with its share of the cores. A row that
    /// fails is reported and the others go on; a signal stops the batch (finished movies are kept,
    /// the ones in progress leave nothing).
    func runBatch(_ batch: TitleBatch) throws {
        let started = ContinuousClock.now
        let family = try fontFamily()
        let items = try batchItems(batch, family: family)
        var report: BatchReport?
        if let path = batching.report {
            // Never over an input or a row's movie, and somewhere it can be written: found now.
            report = try BatchReport(path, inputs: [batch.path], movies: items.map(\.path))
            // The command's other inputs (a background image, a font file), the report's own argument aside.
            var others: [String] = [], skip = false
            for argument in CommandLine.arguments.dropFirst() {
                if skip { skip = false; continue }
                if argument == "--report" { skip = true; continue }
                if argument.hasPrefix("--report=") { continue }
                others.append(argument)
            }
            if let input = FileIdentity.inputMatching(path, in: others) {
                throw InputError("--report \(path) is \(input), an input of this command; give another file, e.g. --report report.jsonl")
            }
        }
        let backdrop = try makeBackdrop()
        // The backdrop photo is opened by each row's render: a bad one would fail every row (exit 1);
        // read once here, it is the usage error (64) a single title gives.
        if let backgroundImage { _ = try PhotoDecoder.info(URL(fileURLWithPath: backgroundImage)) }
        let cores = UsableCores.count
        let jobs = min(batching.jobs ?? cores, items.count)
        var shared = renderSettings
        // Each render gets its share of the cores: rows run side by side instead of each spreading
        // over every core (a short lower third keeps threads busier this way).
        shared.settings.threads = max(1, cores / jobs)
        shared.settings.drawingThreads = max(1, cores / jobs)
        let render = shared
        let options = progress
        let state = BatchState(total: items.count)
        let logsLines = ProgressReporter.style(quiet: options.quiet, silent: options.silent, isTerminal: Terminal.standardErrorIsTerminal,
                                               environment: ProcessInfo.processInfo.environment) == .lines
        Interruption.shared.describeOutcome { state.outcome() }
        if options.showsProgress {
            Terminal.writeError("title: \(items.count) row\(items.count == 1 ? "" : "s") of \(batch.path), \(jobs) at a time\n")
        }
        let failures = Mutex<[(line: Int, path: String, error: String)]>([])
        // What became of each row, by its index, for --report.
        let outcomes = Mutex<[Int: JSONValue]>([:])
        @Sendable func record(_ index: Int, _ item: BatchItem, seconds: Double, warnings: [String], summary: MovieSummary? = nil, error: (any Error)?) {
            let entry = BatchReport.entry(row: item.row.number, line: item.row.line, output: item.path, status: error == nil ? "rendered" : "failed",
                                          seconds: seconds, warnings: warnings, summary: summary, error: error)
            outcomes.withLock { $0[index] = entry }
        }
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = state.next(), Interruption.shared.signal == nil {
                let item = items[index]
                // Per row: in a log, plain 10 % lines naming the row's movie (a long row is not silent); on a
                // terminal --quiet's style (rows side by side would garble a bar); the summary line.
                var rowOptions = ProgressOptions()
                rowOptions.quiet = !logsLines
                rowOptions.silent = options.silent
                let reporter = ProgressReporter(label: "title", output: item.path, options: rowOptions)
                let rowStarted = ContinuousClock.now
                func rowSeconds() -> Double {
                    let d = ContinuousClock.now - rowStarted
                    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
                }
                do {
                    let folder = URL(fileURLWithPath: item.path).deletingLastPathComponent()
                    do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                        throw MovieMakerError.destinationNotWritable(path: item.path, reason: "its folder \(folder.path) cannot be made (\(error.localizedDescription))")
                    }
                    // What the library warns of for this row (its text does not fit), on its thread and its
                    // drawing threads, is said naming the row, as render --batch says it.
                    let (summary, warnings) = try LibraryWarnings.collecting {
                        try render.render(item.card, backdrop: backdrop, to: item.path, reporter: reporter)
                    }
                    for warning in warnings {
                        Terminal.writeError("moviemaker: warning: \(batch.path), line \(item.row.line) (\(item.path)): \(warning)\n")
                    }
                    record(index, item, seconds: rowSeconds(), warnings: warnings, summary: summary, error: nil)
                    let (done, eta) = state.finished(elapsed: ContinuousClock.now - started)
                    if options.showsProgress {
                        Terminal.writeError("title: \(done)/\(items.count) rows done\(eta.map { ", ETA \(Format.eta($0))" } ?? "")\n")
                    }
                } catch {
                    if Interruption.shared.signal != nil { return }
                    let message = MovieMakerCommand.message(for: error)
                    record(index, item, seconds: rowSeconds(), warnings: [], error: error)
                    failures.withLock { $0.append((item.row.line, item.path, message)) }
                    Terminal.writeError("moviemaker: error: \(batch.path), line \(item.row.line) (\(item.path)): \(message)\n")
                }
            }
        }
        // Written whatever became of the rows, a signal's stop too (the rows not finished cancelled).
        let entries = outcomes.withLock { all in
            items.indices.map { i in
                all[i] ?? BatchReport.entry(row: items[i].row.number, line: items[i].row.line, output: items[i].path, status: "cancelled", seconds: nil)
            }
        }
        try report?.write(entries)
        if Interruption.shared.signal != nil { return }
        let failed = failures.withLock { $0 }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if !failed.isEmpty {
            throw BatchFailure(failed: failed.count, total: items.count,
                               lines: failed.map(\.line).sorted(), file: batch.path)
        }
        if options.showsProgress {
            Terminal.writeError("title: \(items.count) movie\(items.count == 1 ? "" : "s") in \(Format.seconds(seconds)) (\(jobs) at a time)\n")
        }
    }
}

/// Some rows of a batch failed (each was reported as it failed); the others were rendered.
struct BatchFailure: Error, CustomStringConvertible {
    /// Rows that failed.
    let failed: Int
    /// Rows in all.
    let total: Int
    /// Their lines in the file.
    let lines: [Int]
    /// The CSV file.
    let file: String
    /// Rows not rendered because their movie was already made (`render --batch` re-runs).
    var skipped = 0

    var description: String {
        let written = total - failed - skipped
        let others = skipped > 0 ? "of the others \(written) \(written == 1 ? "was" : "were") written and \(skipped) skipped as already made"
            : written == 0 ? "none was written" : written == 1 ? "the other one was written" : "the other \(written) were written"
        return "\(failed) of \(total) rows failed (\(file), line\(lines.count == 1 ? "" : "s") \(lines.map(String.init).joined(separator: ", "))); " + others
    }
}

/// The rows handed out and finished, shared by the batch's workers and the cancellation line.
final class BatchState: Sendable {
    /// Rows in all.
    let total: Int
    /// Next row to hand out, rows finished.
    private let counters = Mutex((next: 0, done: 0))

    /// A batch of `total` rows.
    init(total: Int) { self.total = total }

    /// The next row's index, or nil when all are handed out.
    func next() -> Int? {
        counters.withLock { c in
            guard c.next < total else { return nil }
            defer { c.next += 1 }
            return c.next
        }
    }

    /// Counts a finished row; returns how many are done and the time left at this pace.
    func finished(elapsed: Duration) -> (done: Int, eta: Double?) {
        let done = counters.withLock { c in c.done += 1; return c.done }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (done, done < total ? seconds / Double(done) * Double(total - done) : nil)
    }

    /// What the cancellation line says: which movies were finished.
    func outcome() -> String {
        let done = counters.withLock { $0.done }
        return "\(done) of \(total) movies were finished; nothing was written for the others"
    }
}

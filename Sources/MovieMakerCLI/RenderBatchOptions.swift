import ArgumentParser
import Foundation
import MovieMaker
import Synchronization

/// `render --batch`'s options: the rows, each row's destination, which share of the rows this machine
/// renders, whether finished rows are rendered again, how many at once.
struct RenderBatchOptions: ParsableArguments {
    /// The rows.
    @Option(help: ArgumentHelp("Render the template once per row of this file: a CSV whose header names the slots (or JSON Lines, .jsonl). Paths in it are read from its folder; a blank cell keeps the slot's default.",
                               valueName: "rows.csv"))
    var batch: String?

    /// Where each row's movie goes.
    @Option(help: ArgumentHelp("With --batch: each row's movie, e.g. 'out/{row}-{name}.mp4' ({row} is the row's number from 1, {column} a value; a / in a value becomes -). Missing folders are made.",
                               valueName: "pattern"))
    var outputPattern: String?

    /// This machine's share of the rows.
    @Option(name: .customLong("batch-index"),
            help: ArgumentHelp("With --batch: render only every N-th row, starting at row index K (from 0), for N machines, a Slurm array or a Kubernetes Indexed Job (K/N, e.g. 0/3).",
                               valueName: "K/N"),
            transform: { (text: String) throws -> BatchIndex in try BatchIndex(parsing: text) })
    var batchIndex: BatchIndex?

    /// Render finished rows again.
    @Flag(help: "With --batch: render every row again, also those whose movie was already made from the same description, settings and files.")
    var force = false

    /// A machine-readable account of the rows.
    @Option(help: ArgumentHelp("With --batch: write what became of each row to this JSON Lines file once the batch ends (row, line, output, status rendered/skipped/failed, seconds, warnings, the error's code and message), for a pipeline to read.",
                               valueName: "report.jsonl"))
    var report: String?

    /// Rows rendered at once.
    @Option(help: ArgumentHelp("With --batch: rows rendered at once (default: one per core, at most 4); each still draws and encodes in parallel, and the movies do not depend on it.",
                               valueName: "n"))
    var jobs: Int?

    /// `--batch-index K/N`.
    struct BatchIndex: Sendable {
        /// K: the first row index this machine renders.
        let index: Int
        /// N: how many machines share the rows.
        let count: Int

        /// Reads `K/N`; a usage error names the value.
        init(parsing text: String) throws {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
                throw ValidationError("--batch-index \(text): expected K/N, e.g. --batch-index 0/3 (the first of 3 machines; K counts from 0)")
            }
            guard n >= 1, n <= 100_000 else { throw ValidationError("--batch-index \(text): N must be from 1 to 100000, got \(n)") }
            guard k >= 0, k < n else {
                throw ValidationError("--batch-index \(text): K must be from 0 to \(n - 1) (indices count from 0, as Slurm array and Kubernetes completion indices do), got \(k)")
            }
            index = k
            count = n
        }
    }

    /// Whether any batch option is given.
    var isBatch: Bool { batch != nil }

    /// Checks the options against each other and against the rest of `render`'s.
    func validate(output: String?, others: [(given: Bool, option: String)]) throws {
        guard let batch else {
            if outputPattern != nil || batchIndex != nil || force || jobs != nil || report != nil {
                let option = outputPattern != nil ? "--output-pattern" : batchIndex != nil ? "--batch-index" : force ? "--force" : jobs != nil ? "--jobs" : "--report"
                throw ValidationError("\(option) is for --batch: give --batch rows.csv --output-pattern 'out/{row}.mp4', or -o for one movie")
            }
            return
        }
        if let output {
            throw ValidationError("--batch writes one movie per row: give --output-pattern 'out/{row}-{name}.mp4' instead of -o \(output)")
        }
        guard outputPattern != nil else {
            throw ValidationError("--batch needs --output-pattern, the movie each row goes to, e.g. --output-pattern 'out/{row}-{name}.mp4'")
        }
        if let jobs, jobs < 1 || jobs > 64 { throw ValidationError("--jobs \(jobs): give 1 to 64 rows at once") }
        if let clash = others.first(where: \.given) {
            throw ValidationError("\(clash.option) renders one movie: leave it out with --batch \(batch)")
        }
    }
}

extension RenderCommand {
    /// Renders the template once per row of `--batch`, reporting each row as it finishes and a summary
    /// table at the end. Rows that fail are named with their row and line; the others are written.
    /// Throws `BatchFailure` (exit 1) when any row failed. With `--check`, every row is checked as its
    /// render would check it and nothing is written (exit 64 when any row has a mistake).
    func runBatch(_ options: Timeline.RenderOptions) throws {
        guard let rowsFile = batching.batch, let pattern = batching.outputPattern else { return }
        let started = ContinuousClock.now
        let template = try description.load(requiringSlots: false)
        try quality.checkBitDepth(codecFrom: template.output.encoder?.codec)
        let table: (columns: [String], rows: [TemplateBatch.Row])
        do { table = try TemplateBatch.table(contentsOf: URL(fileURLWithPath: rowsFile)) } catch {
            throw InputError("--batch \(error.message)")
        }
        // A --slot a column also fills is the rows' default, not their value: said, as it surprises.
        for name in description.slots.compactMap({ $0.split(separator: "=", maxSplits: 1).first.map(String.init) }) where table.columns.contains(name) {
            Terminal.writeError("moviemaker: warning: --slot \(name)=… fills only the rows whose \(name) cell is blank: the column of \(rowsFile) fills the others\n")
        }
        if description.requireSlots {
            // --slot and --media fill a slot for every row (load has already checked their values).
            let fromOption = Set(try description.slotValuesFromOptions(in: template).keys)
            let given = Set(table.columns).union(fromOption)
            let open = template.slots.keys.filter { !given.contains($0) }.sorted()
            if !open.isEmpty {
                throw InputError("--require-slots: no column of \(rowsFile) (nor --slot or --media) fills \(open.joined(separator: ", ")); add \(open.count == 1 ? "a column" : "columns") named so")
            }
            // A blank cell (or a key a JSON Lines row leaves out) keeps the template's default too.
            let blanks = table.rows.compactMap { row -> String? in
                let left = template.slots.keys.filter { slot in
                    !fromOption.contains(slot) && (row.values[slot] ?? "").trimmingCharacters(in: .whitespaces).isEmpty
                }.sorted()
                return left.isEmpty ? nil : "\(row.label) leaves \(left.joined(separator: ", ")) blank"
            }
            if !blanks.isEmpty {
                let more = blanks.count > 5 ? "; and \(blanks.count - 5) more rows" : ""
                throw InputError("--require-slots: in \(rowsFile), \(blanks.prefix(5).joined(separator: "; "))\(more); fill them in")
            }
        }
        var batch = TemplateBatch(template: template, rows: table.rows, outputPattern: pattern, options: options,
                                  filesFolder: URL(fileURLWithPath: rowsFile).deletingLastPathComponent())
        batch.force = batching.force
        batch.concurrency = batching.jobs ?? 0
        // In a log (not a terminal, or CI): a line per row at every 10 %, naming its movie, as a single
        // render's; on a terminal rows running side by side would garble a bar, so only "rows done".
        if ProgressReporter.style(quiet: progress.quiet, silent: progress.silent, isTerminal: Terminal.standardErrorIsTerminal,
                                  environment: ProcessInfo.processInfo.environment) == .lines {
            let deciles = Mutex<[URL: Int]>([:])
            batch.onProgress = { url, report in
                guard let total = report.totalFrames, total > 0 else { return }
                let decile = min(report.framesAdded, total) * 10 / total
                // The last frame is the row's own "done" line; the row is forgotten then (memory stays constant).
                guard deciles.withLock({ seen in
                    guard decile < 10 else { seen[url] = nil; return false }
                    guard decile > seen[url, default: 0] else { return false }
                    seen[url] = decile
                    return true
                }) else { return }
                Terminal.writeError(ProgressReporter.line(label: "render \(url.path)", report) + "\n")
            }
        }
        // Every row's name is checked before this machine's share is taken: two rows naming one movie
        // on two machines would write it twice.
        var destinations: [URL]
        do { destinations = try batch.destinations() } catch { throw InputError("--batch \(rowsFile): \(error.message)") }
        if let part = batching.batchIndex {
            batch = batch.selected(index: part.index, of: part.count)
            do { destinations = try batch.destinations() } catch { throw InputError("--batch \(rowsFile): \(error.message)") }
        }
        var report: BatchReport?
        if let path = batching.report {
            // Never over an input (the description, the rows, a file the template or a row names) or a
            // row's movie, and somewhere it can be written: found now, not after the batch.
            if check { throw InputError("--report \(path) is written by a render, and --check renders nothing: leave out --report") }
            let specFolder = description.url.deletingLastPathComponent(), rowsFolder = URL(fileURLWithPath: rowsFile).deletingLastPathComponent()
            let named = template.namedFiles.map { URL(fileURLWithPath: $0, relativeTo: specFolder).path }
                + batch.rows.flatMap { $0.values.values.map { URL(fileURLWithPath: $0, relativeTo: rowsFolder).path } }
            report = try BatchReport(path, inputs: [description.spec, rowsFile] + named, movies: destinations.map(\.path))
        }
        var checkedFolders = Set<String>()
        for (row, url) in zip(batch.rows, destinations) {
            for input in [description.spec, rowsFile] where FileIdentity.same(url.path, input) {
                throw InputError("--output-pattern \(pattern): \(row.label) writes \(url.path), which is \(input), an input of this command; choose another pattern")
            }
            // Where each movie goes takes new files (or its missing folders can be made there), and no
            // folder has its name: found now, not when row 37 fails after an hour.
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                throw InputError("--output-pattern \(pattern): \(row.label) writes \(url.path), and a folder has that name; choose another pattern")
            }
            var folder = url.deletingLastPathComponent()
            while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" { folder = folder.deletingLastPathComponent() }
            var existingIsFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &existingIsFolder), !existingIsFolder.boolValue {
                throw InputError("--output-pattern \(pattern): \(row.label) writes \(url.path), but \(folder.path) is a file, not a folder; choose another pattern")
            }
            guard checkedFolders.insert(folder.path).inserted else { continue }
            do { try OutputOptions.checkFolder(of: folder.appendingPathComponent("movie.mp4").path) } catch let error as InputError {
                throw InputError("--output-pattern \(pattern): \(row.label) writes \(url.path): \(error.description)")
            }
        }
        if check {
            // Every row, in order, as its render would find it before the first frame; nothing written.
            var wrong: [TemplateBatch.Row] = []
            for (row, url) in zip(batch.rows, destinations) {
                let (mistake, warnings) = batch.mistake(in: row, writing: url)
                for warning in warnings { Terminal.writeError("moviemaker: warning: \(rowsFile), \(row.label): \(warning)\n") }
                guard let mistake else { continue }
                wrong.append(row)
                Terminal.writeError("moviemaker: error: \(rowsFile), \(row.label): \(MovieMakerCommand.message(for: mistake))\n")
            }
            let total = batch.rows.count
            Terminal.printLine("\(total - wrong.count) of \(total) rows of \(rowsFile) are ready to render")
            if !wrong.isEmpty {
                throw InputError("--check: \(wrong.count) of \(total) rows of \(rowsFile) have mistakes (\(wrong.prefix(10).map(\.label).joined(separator: "; "))\(wrong.count > 10 ? "; …" : "")): fix them, then render")
            }
            return
        }
        // A format the options or the pattern's extension choose wrongly (`--codec h264` with `.webm`, a
        // CRF the codec does not take) fails every row alike: a usage error before any row renders, not
        // one failure per row after the batch has started.
        if let row = batch.rows.first, let url = destinations.first, let mistake = batch.formatMistake(in: row, writing: url) {
            throw InputError("--output-pattern \(pattern): \(row.label) writes \(url.path): \(MovieMakerCommand.message(for: mistake)) (every row would fail so: nothing was rendered)")
        }
        let total = batch.rows.count
        let done = Mutex(0)
        let written = Mutex(0)          // rendered rows only: not the skipped and failed ones
        Interruption.shared.install(destination: destinations.first?.path ?? pattern)
        Interruption.shared.describeOutcome {
            "\(written.withLock { $0 }) of \(total) movies were written; nothing was written for the rows in progress"
        }
        try Interruption.shared.beginWriting()
        let showsProgress = progress.showsProgress
        if showsProgress {
            let share = batching.batchIndex.map { " (share \($0.index)/\($0.count): every \($0.count) rows from row index \($0.index))" } ?? ""
            Terminal.writeError("render: \(total) row\(total == 1 ? "" : "s") of \(rowsFile)\(share)\n")
        }
        let results = try batch.run(cancellation: Interruption.shared.token) { result in
            let count = done.withLock { $0 += 1; return $0 }
            if case .rendered = result.outcome { written.withLock { $0 += 1 } }
            // Always, as a single render's warnings are (even with --silent): a shortened movie must not
            // pass a nightly batch unnoticed.
            for warning in result.warnings {
                Terminal.writeError("moviemaker: warning: \(rowsFile), \(result.row.label) (\(result.output.path)): \(warning)\n")
            }
            switch result.outcome {
            case let .failed(error):
                Terminal.writeError("moviemaker: error: \(rowsFile), \(result.row.label) (\(result.output.path)): \(MovieMakerCommand.message(for: error))\n")
            case .skipped where showsProgress:
                Terminal.writeError("render: \(count)/\(total) \(result.output.path): skipped (already made from the same description, settings and files; --force renders it again)\n")
            case .rendered where showsProgress:
                Terminal.writeError("render: \(count)/\(total) \(result.output.path) in \(Format.seconds(result.seconds))\n")
            default: break
            }
        }
        // Written whatever became of the rows, a signal's stop too (the rows not finished cancelled).
        try report?.write(Self.reportEntries(results, rows: batch.rows, destinations: destinations))
        if Interruption.shared.signal != nil { return }
        let failed = results.filter { if case .failed = $0.outcome { return true } else { return false } }
        let skipped = results.filter { if case .skipped = $0.outcome { return true } else { return false } }.count
        if progress.showsSummary {
            Terminal.printLine(Self.summaryTable(results))
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            // "written" only for what was: a re-run that skipped every row wrote nothing.
            let rendered = total - failed.count - skipped
            Terminal.printLine("\(total - failed.count) of \(total) rows \(rendered > 0 ? "written" : "done") (\(rendered) rendered, \(skipped) skipped as already made, \(failed.count) failed) in \(Format.seconds(seconds))")
        }
        // Every row failing alike on bad input (a template's default file missing): the template or the
        // options are wrong, not the rows; a usage error (64), as the same mistake in one render is, so
        // a pipeline does not retry it as a failed render.
        let errors = failed.compactMap { if case let .failed(error) = $0.outcome { return error } else { return nil } }
        if failed.count == total, total > 1, let first = errors.first, MovieMakerCommand.inputCodes.contains(first.code),
           errors.allSatisfy({ $0.description == first.description }) {
            throw InputError("every row failed with the same error, so the description or the options are at fault, not the rows: \(MovieMakerCommand.message(for: first))")
        }
        if !failed.isEmpty {
            throw BatchFailure(failed: failed.count, total: total, lines: failed.map { $0.row.line ?? $0.row.number }.sorted(), file: rowsFile,
                               skipped: skipped)
        }
    }

    /// The `--report` entries: one per row of `rows`, in row order; rows without a result (a signal
    /// stopped the batch first) are `cancelled`.
    static func reportEntries(_ results: [TemplateBatch.Result], rows: [TemplateBatch.Row], destinations: [URL]) -> [JSONValue] {
        let byRow = Dictionary(results.map { ($0.row.number, $0) }, uniquingKeysWith: { a, _ in a })
        return zip(rows, destinations).map { row, url in
            guard let r = byRow[row.number] else {
                return BatchReport.entry(row: row.number, line: row.line, output: url.path, status: "cancelled", seconds: nil)
            }
            switch r.outcome {
            case let .rendered(summary):
                return BatchReport.entry(row: row.number, line: row.line, output: r.output.path, status: "rendered", seconds: r.seconds, warnings: r.warnings, summary: summary)
            case .skipped:
                return BatchReport.entry(row: row.number, line: row.line, output: r.output.path, status: "skipped", seconds: r.seconds, warnings: r.warnings)
            case let .failed(error):
                return BatchReport.entry(row: row.number, line: row.line, output: r.output.path, status: "failed", seconds: r.seconds, warnings: r.warnings, error: error)
            }
        }
    }

    /// One line per row: its number, output, the movie's duration, the time it took and what happened.
    static func summaryTable(_ results: [TemplateBatch.Result]) -> String {
        let rows = results.map { r -> [String] in
            let (duration, outcome): (String, String)
            switch r.outcome {
            case let .rendered(summary): (duration, outcome) = (String(format: "%.2f s", summary.duration.seconds), "rendered")
            case .skipped: (duration, outcome) = ("", "skipped")
            case .failed: (duration, outcome) = ("", "failed (its error is above)")
            }
            return [String(r.row.number), r.output.path, duration, r.seconds > 0 ? Format.seconds(r.seconds) : "", outcome]
        }
        let header = ["row", "output", "duration", "time", "result"]
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.enumerated().map { c, text in text.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

import Foundation

/// The numbers a chart shows: series (a bar race's contenders, a line chart's lines, a pie's slices)
/// each with one value per column (a period, a category).
///
/// As CSV: a header naming the columns after a first cell, then one row per series, its name and
/// its values:
///
/// ```
/// name,2019,2020,2021
/// Lisbon,12,15,19
/// Porto,9,14,22
/// ```
public struct ChartData: Sendable, Hashable, Codable {
    /// One row: a name and a value per column.
    public struct Series: Sendable, Hashable, Codable {
        /// The name shown beside its bar, on its line or slice.
        public var name: String
        /// A value per column.
        public var values: [Double]
        /// A series `name` with `values`.
        public init(_ name: String, values: [Double]) { self.name = name; self.values = values }
    }

    /// The columns' names (periods, categories), in order.
    public var columns: [String]
    /// The series, in order.
    public var series: [Series]

    /// A table of `series` over `columns`; every series has one value per column (checked when a chart
    /// is made of it).
    public init(columns: [String], series: [Series]) { self.columns = columns; self.series = series }

    /// The largest number of rows or columns a table may have (a chart shows far fewer).
    static let maximumCells = 1_000_000

    /// Reads CSV text (see the type's documentation; RFC 4180, as spreadsheets export it); `source`
    /// names it in errors. Quoted fields may hold commas; values may have spaces around them and `_`
    /// between digits; blank lines are skipped. A file split at semicolons or tabs (a spreadsheet's
    /// export where the comma is the decimal mark) may write `1,5` and `1.234,5`. Throws `.invalidData`
    /// naming the line and column of a value that is not a number, a row with too few or too many
    /// cells, or a table without series or columns.
    public init(csv text: String, source: String) throws(MovieMakerError) {
        let parsed: [CSV.Row]
        do { parsed = try CSV.rows(text, header: true) } catch {
            throw .invalidData(path: source, line: error.line, column: nil, reason: error.reason)
        }
        // Blank lines are skipped.
        let rows = parsed.filter { !$0.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
            .map { (line: $0.line, cells: $0.fields) }
        guard let header = rows.first else { throw .invalidData(path: source, line: nil, column: nil, reason: "it is empty: give a header (name,2019,2020…) and a row per series") }
        let columns = header.cells.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        guard !columns.isEmpty else {
            throw .invalidData(path: source, line: header.line, column: nil, reason: "the header names no columns: write the series' name column, then a column per period or category (name,2019,2020)")
        }
        guard rows.count > 1 else { throw .invalidData(path: source, line: nil, column: nil, reason: "it has a header but no rows: give a row per series (Lisbon,12,15)") }
        guard rows.count * header.cells.count <= Self.maximumCells else {
            throw .invalidData(path: source, line: nil, column: nil, reason: "it has more than \(Self.maximumCells) cells")
        }
        // A semicolon or tab export is what spreadsheets write where the comma is the decimal mark.
        let separator = CSV.separator(of: text, header: true)
        let mark = try Self.decimalMark(of: rows.dropFirst().flatMap { $0.cells.dropFirst() }, separator: separator, source: source)
        var series: [Series] = []
        for row in rows.dropFirst() {
            guard row.cells.count == header.cells.count else {
                throw .invalidData(path: source, line: row.line, column: nil,
                                   reason: "it has \(row.cells.count) cells, the header \(header.cells.count): give a name and \(columns.count) value\(columns.count == 1 ? "" : "s")")
            }
            var values: [Double] = []
            for (k, cell) in row.cells.dropFirst().enumerated() {
                let text = cell.trimmingCharacters(in: .whitespaces)
                let digits = text.replacingOccurrences(of: "_", with: "")
                let example = mark == "," ? "1234,5" : "1234.5"
                guard let read = mark == "," ? Self.decimalCommaNumber(digits) : Self.decimalPointNumber(digits) else {
                    // Two decimal marks (`1.234.567` with points) or a grouping mark out of place (`1,5`).
                    let (decimal, grouping): (Character, Character) = mark == "," ? (",", ".") : (".", ",")
                    let why = digits.filter({ $0 == decimal }).count > 1
                        ? "its values use a decimal \(mark == "," ? "comma" : "point"), which a number has once; a \(grouping == "." ? "point" : "comma") groups thousands"
                        : "its values use a decimal " + (mark == "," ? "comma (1234,5 or 1.234,5), so a point may only group thousands" : "point (1234.5 or 1,234.5), so a comma may only group thousands")
                    throw .invalidData(path: source, line: row.line, column: k + 2,
                                       reason: "\"\(text)\" (\(columns[k])) is not a number as this file writes them: \(why)")
                }
                guard let value = Double(read), value.isFinite, abs(value) <= 1e15 else {
                    throw .invalidData(path: source, line: row.line, column: k + 2,
                                       reason: "\"\(text)\" (\(columns[k])) is not a number: write digits with a decimal \(mark == "," ? "comma" : "point"), as this file's other values, such as \(example)")
                }
                values.append(value)
            }
            series.append(Series(row.cells[0].trimmingCharacters(in: .whitespaces), values: values))
        }
        self.init(columns: columns, series: series)
    }

    /// The decimal mark of a table's `values` (`.` or `,`). A comma-separated file's is the point (a
    /// value with a comma is quoted, and its commas group thousands). A semicolon or tab export may
    /// write either: values such as `1,5` or `1.234,5` say comma, `3.5` or `1,234.5` say point; values
    /// that fit both (`1,234` or `1.234` only) are decimal commas in a semicolon file, as that is the
    /// convention such exports follow, and refused as ambiguous in a tab file.
    static func decimalMark(of values: [String], separator: Character, source: String) throws(MovieMakerError) -> Character {
        guard separator != "," else { return "." }
        var commaSays = false, pointSays = false, grouped: String?
        for cell in values {
            let text = cell.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
            let hasComma = text.contains(","), hasPoint = text.contains(".")
            guard hasComma || hasPoint else { continue }
            let asComma = decimalCommaNumber(text) != nil, asPoint = decimalPointNumber(text) != nil
            // Read both ways, a value that groups thousands only (`1,234`, `1.234`) says nothing.
            if asComma && asPoint {
                if grouped == nil { grouped = text }
                continue
            }
            if asComma { commaSays = true }
            if asPoint { pointSays = true }
        }
        if commaSays != pointSays { return commaSays ? "," : "." }
        if commaSays { return separator == ";" ? "," : "." }         // both: the values that disagree are refused
        guard let grouped else { return "." }
        if separator == ";" { return "," }
        throw .invalidData(path: source, line: nil, column: nil,
                           reason: "its values such as \"\(grouped)\" read as \(decimalCommaNumber(grouped)!) with a decimal comma and as \(decimalPointNumber(grouped)!) with a decimal point, and none says which: write one value with both marks (1.234,5 or 1,234.5), or save the file comma-separated, where a point is always the decimal mark")
    }

    /// `text` written with a decimal point (`-1,234.5`, `1,234`, `3.5`) rewritten without its thousands
    /// commas (`-1234.5`), or nil when its commas are not thousands groups (`1,5`).
    static func decimalPointNumber(_ text: String) -> String? { plainNumber(text, decimal: ".", grouping: ",") }

    /// `text` written with a decimal comma (`-1.234,5`, `1,5`, `1.234`) rewritten with a decimal point
    /// (`-1234.5`), or nil when its points are not thousands groups (`1,234.5`, `1.5`): those would
    /// be read as another number than the one meant.
    static func decimalCommaNumber(_ text: String) -> String? { plainNumber(text, decimal: ",", grouping: ".") }

    /// `text` with at most one `decimal` mark and `grouping` marks only between thousands, rewritten
    /// with a point and no grouping; nil otherwise.
    private static func plainNumber(_ text: String, decimal: Character, grouping: Character) -> String? {
        let parts = text.split(separator: decimal, omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.count == 1 || !parts[1].contains(grouping) else { return nil }
        let whole = parts[0]
        guard thousandsGrouped(whole, by: grouping) else { return nil }
        let integer = whole.filter { $0 != grouping }
        return parts.count == 2 ? integer + "." + parts[1] : integer
    }

    /// Whether `whole` (an integer part with an optional sign) groups its digits by `mark` as thousands
    /// are grouped (`1,234,567`), or has no `mark` at all.
    private static func thousandsGrouped(_ whole: Substring, by mark: Character) -> Bool {
        guard whole.contains(mark) else { return true }
        let groups = whole.split(separator: mark, omittingEmptySubsequences: false)
        let lead = groups[0].drop { $0 == "-" || $0 == "+" }
        // No group leads with 0: `0.125` is a decimal, never 125 grouped.
        return (1...3).contains(lead.count) && lead.first != "0" && lead.allSatisfy { $0.isASCII && $0.isNumber }
            && groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Reads the CSV file at `url` (see `init(csv:source:)`).
    public init(contentsOf url: URL) throws(MovieMakerError) {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .invalidData(path: url.path, line: nil, column: nil, reason: "no such file") }
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw .invalidData(path: url.path, line: nil, column: nil, reason: "it is not UTF-8 text (\((error as NSError).localizedDescription))")
        }
        try self.init(csv: text, source: url.path)
    }

    /// Checks the table can be charted: at least one series and column, each series a value per column.
    func check(source: String) throws(MovieMakerError) {
        guard !series.isEmpty, !columns.isEmpty else {
            throw .invalidData(path: source, line: nil, column: nil, reason: "a chart needs at least one series and one column")
        }
        for s in series where s.values.count != columns.count {
            throw .invalidData(path: source, line: nil, column: nil,
                               reason: "the series \"\(s.name)\" has \(s.values.count) values for \(columns.count) columns")
        }
    }
}

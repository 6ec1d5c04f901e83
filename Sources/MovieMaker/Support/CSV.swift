import Foundation

/// Comma-separated values as RFC 4180 writes them (and spreadsheets export them): fields split at
/// commas, rows at line breaks (LF, CRLF or CR); a quoted field may hold commas, line breaks and
/// quotes written twice (`""`). A byte-order mark at the start is skipped. A file may be split at
/// semicolons (what spreadsheets write where the comma is the decimal mark) or tabs instead: the one
/// that comes first on most of its first lines (`separator(of:)`).
///
/// Used by `CaptionSheet` (a slideshow's captions) and `moviemaker title --batch` (one movie per row).
package enum CSV {
    /// One row of fields, with the line of the file it starts on (1 for the first line).
    package struct Row: Sendable, Equatable {
        /// The fields, in order, unquoted.
        package var fields: [String]
        /// The line the row starts on, counting from 1 (a quoted field with line breaks spans more).
        package var line: Int

        /// A row of `fields` starting on `line`.
        package init(fields: [String], line: Int) {
            self.fields = fields
            self.line = line
        }
    }

    /// Text that is not CSV, with the line where reading stopped.
    package struct SyntaxError: Error, Sendable, Equatable {
        /// The line, counting from 1.
        package var line: Int
        /// The offending text (may be empty).
        package var text: String
        /// What is wrong and how to write it instead.
        package var reason: String

        /// An error at `line` about `text`, saying `reason`.
        package init(line: Int, text: String, reason: String) {
            self.line = line
            self.text = text
            self.reason = reason
        }
    }

    /// The separator `rows(_:header:)` splits `text` at: comma, semicolon or tab.
    package static func separator(of text: String, header: Bool = false) -> Character {
        var chars = Array(text.prefix(100_000))
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        return header ? headerSeparator(of: chars) : separator(of: chars)
    }

    /// The rows of `text`, including its header row when `header` says it has one: the header's
    /// separator then splits every row (`Part 1; Intro,Day 1` under `title,subtitle` is two values).
    package static func rows(_ text: String, header: Bool = false) throws(SyntaxError) -> [Row] {
        var rows: [Row] = []
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var line = 1, rowLine = 1
        var chars = Array(text)
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        if chars.last != "\n" && chars.last != "\r\n" && chars.last != "\r" { chars.append("\n") }
        let separator = header ? Self.headerSeparator(of: chars) : Self.separator(of: chars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.count, chars[i + 1] == "\"" { field.append("\""); i += 1 } else { quoted = false }
                } else {
                    if c == "\n" || c == "\r\n" || c == "\r" { line += 1 }
                    field.append(c)
                }
            } else if c == "\"" && field.trimmingCharacters(in: .whitespaces).isEmpty && !wasQuoted {
                quoted = true; wasQuoted = true; field = ""
            } else if c == separator {
                fields.append(field); field = ""; wasQuoted = false
            } else if c == "\n" || c == "\r\n" || c == "\r" {
                fields.append(field); field = ""; wasQuoted = false
                rows.append(Row(fields: fields, line: rowLine))
                fields = []
                line += 1; rowLine = line
            } else if wasQuoted {
                if c != " " && c != "\t" {
                    throw SyntaxError(line: line, text: String(c),
                                      reason: "text after a closing quote: a quote inside a quoted field is written twice (\"\")")
                }
            } else {
                field.append(c)
            }
            i += 1
        }
        if quoted {
            throw SyntaxError(line: rowLine, text: "", reason: "a quoted field is never closed (a \" is missing)")
        }
        return rows
    }

    /// Each line's count of each separator outside quotes (blank lines left out), up to `limit` lines.
    private static func separatorCounts(of chars: [Character], limit: Int) -> [[Character: Int]] {
        let candidates: [Character] = [",", ";", "\t"]
        var lines: [[Character: Int]] = []
        var counts: [Character: Int] = [:]
        var quoted = false, blank = true
        for c in chars {
            if c == "\"" { quoted.toggle() }
            if !quoted && (c == "\n" || c == "\r\n" || c == "\r") {
                if !blank { lines.append(counts); if lines.count == limit { return lines } }
                counts = [:]; blank = true
                continue
            }
            if !c.isWhitespace || c == "\t" { blank = false }
            if !quoted, candidates.contains(c) { counts[c, default: 0] += 1 }
        }
        if !blank { lines.append(counts) }
        return lines
    }

    /// The separator of a file with a header row: one the header holds, so values holding another
    /// (`Part 1; Intro` under `title,subtitle`) do not outvote it. Of several in the header (`Sales,
    /// EUR;2019`), the one `separator(of:)` finds, or else the one giving most rows the header's count;
    /// none (a header of one column), a comma, as RFC 4180 has it.
    private static func headerSeparator(of chars: [Character]) -> Character {
        let lines = separatorCounts(of: chars, limit: 21)
        guard let header = lines.first else { return "," }
        let present = ([",", ";", "\t"] as [Character]).filter { header[$0, default: 0] > 0 }
        guard present.count > 1 else { return present.first ?? "," }
        let found = separator(of: chars)
        if present.contains(found) { return found }
        let agreeing = present.map { c in lines.dropFirst().filter { $0[c, default: 0] == header[c, default: 0] }.count }
        return present[agreeing.firstIndex(of: agreeing.max()!)!]
    }

    /// The separator of the fields: of comma, semicolon and tab, the one that comes first on most of the
    /// first lines (up to 20, outside quotes). A row's first field (a name, a file name, a header) rarely
    /// holds another separator, so `beach.jpg;Lisbon, at dawn` is semicolon-separated (a semicolon export
    /// quotes only semicolons) and `beach.jpg,Sun; sea; sand` comma-separated. On a tie (`Lisbon, PT;12`
    /// above `Porto;9`), the one that splits every line into as many fields (semicolon), else the first
    /// line's first. A comma for lines of one field.
    private static func separator(of chars: [Character]) -> Character {
        let candidates: [Character] = [",", ";", "\t"]
        var lines: [(counts: [Character: Int], first: Character?)] = []
        var counts: [Character: Int] = [:]
        var first: Character?
        var quoted = false, blank = true
        for c in chars {
            if c == "\"" { quoted.toggle() }
            if !quoted && (c == "\n" || c == "\r\n" || c == "\r") {
                if !blank { lines.append((counts, first)); if lines.count == 20 { break } }
                counts = [:]; first = nil; blank = true
                continue
            }
            if !c.isWhitespace || c == "\t" { blank = false }
            if !quoted, candidates.contains(c) {
                if first == nil { first = c }
                counts[c, default: 0] += 1
            }
        }
        if !blank && lines.count < 20 { lines.append((counts, first)) }
        var votes: [Character: Int] = [:]
        for line in lines { if let c = line.first { votes[c, default: 0] += 1 } }
        guard let most = votes.values.max() else { return "," }
        let tied = candidates.filter { votes[$0] == most }
        if tied.count == 1 { return tied[0] }
        let even = tied.filter { c in lines.allSatisfy { $0.counts[c, default: 0] == lines[0].counts[c, default: 0] } }
        if even.count == 1 { return even[0] }
        return lines.first { $0.first.map(tied.contains) ?? false }?.first ?? tied[0]
    }
}

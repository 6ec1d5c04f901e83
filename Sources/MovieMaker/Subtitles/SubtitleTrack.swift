import Foundation

/// Subtitles read from an SRT (SubRip) or WebVTT file: cues with exact start and end times.
///
/// <!-- prelude: let talk = Clip.color(.black, duration: 5); let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
/// ```swift
/// let subs = try SubtitleTrack(contentsOf: URL(fileURLWithPath: "talk.srt"))
/// try movie.add(talk.subtitled(subs))
/// ```
///
/// Both formats are read leniently where files vary in practice — a byte order mark, CRLF or CR line
/// ends, several blank lines between cues, SRT cue numbers missing, Latin-1 instead of UTF-8, WebVTT
/// `NOTE`, `STYLE` and `REGION` blocks (skipped) — and strictly where a guess would show the wrong
/// text at the wrong time: a bad timestamp, an end before its start, text with no timing line above it,
/// or a timing line without its end is a `MovieMakerError` (code `.invalidSubtitles`) naming the file,
/// the 1-based line number and the offending text, with the form expected. Timestamps are read exactly
/// (`00:01:02,345` is 62345/1000 s), never through `Double`.
///
/// Limits: a file over 20 MB (`maximumFileSize`) or a cue over 10,000 characters
/// (`maximumCueLength`) is refused.
public struct SubtitleTrack: Sendable, Hashable, Codable {
    /// The file formats read.
    package enum Format: String, Sendable, Hashable, Codable {
        /// SubRip: numbered cues, `00:00:01,000 --> 00:00:02,500`.
        case srt
        /// WebVTT: a `WEBVTT` header, `00:00:01.000 --> 00:00:02.500 line:0 align:start`.
        case webVTT
    }

    /// The file's name or path, as used in error messages.
    public var name: String
    /// The cues, sorted by start time (cues starting together keep the file's order).
    public var cues: [SubtitleCue]

    /// The largest file read: 20 MB.
    package static let maximumFileSize = 20_000_000
    /// The longest cue text read, in characters: 10,000.
    package static let maximumCueLength = 10_000

    /// A track of `cues` (sorted by start time), named `name`.
    public init(cues: [SubtitleCue], name: String = "subtitles") {
        self.name = name
        self.cues = Self.sorted(cues)
    }

    /// Reads an SRT or WebVTT file: WebVTT when the text starts with `WEBVTT` or the extension is
    /// `.vtt`, SRT otherwise. Throws `.invalidSubtitles` for a file that cannot be read, is too large or
    /// is malformed (naming the line).
    public init(contentsOf url: URL) throws(MovieMakerError) {
        let path = url.path
        let text = try Self.readText(url)
        let isVTT = SubtitleParser.startsWithWebVTTHeader(text) || url.pathExtension.lowercased() == "vtt"
        self = try SubtitleParser(text: text, name: path, format: isVTT ? .webVTT : .srt).parse()
    }

    /// Reads SRT text; `name` (a file name) is used in error messages.
    public init(srt: String, name: String = "subtitles.srt") throws(MovieMakerError) {
        try Self.checkLength(srt, name: name)
        self = try SubtitleParser(text: srt, name: name, format: .srt).parse()
    }

    /// Reads WebVTT text (which must start with `WEBVTT`); `name` (a file name) is used in error messages.
    public init(webVTT: String, name: String = "subtitles.vtt") throws(MovieMakerError) {
        try Self.checkLength(webVTT, name: name)
        self = try SubtitleParser(text: webVTT, name: name, format: .webVTT).parse()
    }

    private enum CodingKeys: String, CodingKey { case name, cues }

    /// Reads `{"name": "talk.srt", "cues": [ … ]}` (the cues sorted by start time).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(cues: try c.decode([SubtitleCue].self, forKey: .cues), name: try c.decode(.name, or: "subtitles"))
    }

    /// Writes the name and the cues.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(cues, forKey: .cues)
    }

    /// The cues showing at `time` (`start <= time < end`), in start order.
    public func cues(at time: Time) -> [SubtitleCue] { activeIndices(at: time).map { cues[$0] } }

    /// When the last cue ends (zero for no cues).
    public var duration: Time { cues.map(\.end).max() ?? .zero }

    /// The indices of the cues showing at `time`, in start order.
    /// At most `limit` of them: the latest to start (a frame shows a few cues; 50,000 overlapping ones
    /// laid out on every frame took a minute for a 2-second movie).
    func activeIndices(at time: Time, limit: Int = .max) -> [Int] {
        // Cues are sorted by start: those starting at or before `time` are a prefix.
        var lo = 0, hi = cues.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cues[mid].start <= time { lo = mid + 1 } else { hi = mid }
        }
        var found: [Int] = []
        var i = lo - 1
        while i >= 0, found.count < limit {
            if cues[i].end > time { found.append(i) }
            i -= 1
        }
        return found.reversed()
    }

    private static func sorted(_ cues: [SubtitleCue]) -> [SubtitleCue] {
        cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    private static func checkLength(_ text: String, name: String) throws(MovieMakerError) {
        if text.utf8.count > maximumFileSize { throw .subtitlesTooLarge(path: name, bytes: text.utf8.count, limit: maximumFileSize) }
    }

    /// The text of the subtitle or transcript file at `url`: refused when missing, a folder or over
    /// `maximumFileSize`, decoded by `decodeText` (transcripts are read the same way, so both fail alike).
    static func readText(_ url: URL) throws(MovieMakerError) -> String {
        let path = url.path
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > maximumFileSize {
                throw MovieMakerError.subtitlesTooLarge(path: path, bytes: size, limit: maximumFileSize)
            }
            data = try Data(contentsOf: url)
        } catch let error as MovieMakerError {
            throw error
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read (\(error.localizedDescription))" : "no such file"
            throw .subtitlesUnreadable(path: path, reason: reason)
        }
        guard data.count <= maximumFileSize else {
            throw .subtitlesTooLarge(path: path, bytes: data.count, limit: maximumFileSize)
        }
        if let kind = binaryKind(data) {
            // Quoting its first "line" would print raw bytes to the terminal.
            throw .subtitlesUnreadable(path: path, reason: "it is \(kind), not text")
        }
        return decodeText(data, name: path)
    }

    /// What a file that is not text is (`a JPEG image`, `binary data`), or nil for text: a NUL byte
    /// in its first 4 KiB, outside UTF-16 with a byte order mark, is never in a subtitle file.
    static func binaryKind(_ data: Data) -> String? {
        let head = [UInt8](data.prefix(4096))
        if head.count >= 2, (head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF) { return nil }
        guard head.contains(0) else { return nil }
        if let format = head.withUnsafeBytes({ PhotoFormat.sniff($0) }) { return SpecObject.article(format.rawValue.uppercased()) + " image" }
        if head.count >= 8, String(decoding: head[4..<8], as: UTF8.self) == "ftyp" { return "a movie or sound (ISO media)" }
        return "binary data"
    }

    /// The file's text: UTF-8 (a byte order mark dropped), UTF-16 with a byte order mark, or else
    /// Windows-1252 (old SRT files). UTF-8 with a few bytes that are not (a stray byte from an editor, a
    /// multi-byte letter cut by a tool) stays UTF-8, each such run of bytes read as "�", with a warning
    /// naming the first line holding one: read as Windows-1252, every accented letter of the file would
    /// change.
    static func decodeText(_ data: Data, name: String = "") -> String {
        let bytes = [UInt8](data.prefix(3))
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF),
           let text = String(data: data, encoding: .utf16) {
            return text
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        // Swift's decoder replaces each bad run with one U+FFFD; the other non-ASCII letters it reads are
        // the file's real UTF-8. More of those than bad runs: a UTF-8 file with a few bad bytes.
        let lossy = String(decoding: data, as: UTF8.self)
        var letters = 0, bad = 0, line = 1, firstLine = 0
        for scalar in lossy.unicodeScalars {
            if scalar == "\u{FFFD}" {
                bad += 1
                if firstLine == 0 { firstLine = line }
            } else if scalar == "\n" {
                line += 1
            } else if !scalar.isASCII {
                letters += 1
            }
        }
        if letters > bad {
            LibraryWarnings.warn("\(name.isEmpty ? "the subtitles" : name): line \(firstLine) holds bytes that are not UTF-8 in a UTF-8 file: "
                                 + "shown as \"\u{FFFD}\" (\(bad) place\(bad == 1 ? "" : "s") in all); save the file as UTF-8 to mend it")
            return lossy
        }
        return String(data: data, encoding: .windowsCP1252) ?? lossy
    }
}

/// A line-by-line reader of SRT and WebVTT text.
struct SubtitleParser {
    let lines: [Substring]
    let name: String
    let format: SubtitleTrack.Format

    init(text: String, name: String, format: SubtitleTrack.Format) {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        // Split at CRLF, CR or LF (a Character "\r\n" is one grapheme, so split on the unicode scalars).
        var lines: [Substring] = []
        var start = body.startIndex
        var i = body.startIndex
        while i < body.endIndex {
            let c = body[i]
            if c == "\n" || c == "\r" || c == "\r\n" {
                lines.append(body[start..<i])
                i = body.index(after: i)
                start = i
            } else {
                i = body.index(after: i)
            }
        }
        lines.append(body[start..<body.endIndex])
        self.lines = lines; self.name = name; self.format = format
    }

    /// Whether `text` starts (after a byte order mark) with the WebVTT signature.
    static func startsWithWebVTTHeader(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        guard body.hasPrefix("WEBVTT") else { return false }
        let rest = body.dropFirst(6)
        return rest.isEmpty || rest.first == " " || rest.first == "\t" || rest.first == "\n" || rest.first == "\r" || rest.first == "\r\n"
    }

    /// The example timing line for this format, for error messages.
    var expectedTiming: String {
        format == .srt ? "a timing line such as 00:00:01,000 --> 00:00:02,500" : "a timing line such as 00:00:01.000 --> 00:00:02.500 (optionally followed by settings like line:0 align:start)"
    }

    private func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    private func error(_ index: Int, _ reason: String, expected: String? = nil) -> MovieMakerError {
        .invalidSubtitles(path: name, line: index + 1, text: String(lines[index]), reason: reason, expected: expected ?? expectedTiming)
    }

    /// Reads every cue.
    func parse() throws(MovieMakerError) -> SubtitleTrack {
        var cues: [SubtitleCue] = []
        var i = 0
        if format == .webVTT {
            guard let first = lines.first, Self.startsWithWebVTTHeader(String(first)) else {
                throw error(0, "a WebVTT file must start with WEBVTT", expected: "WEBVTT as the first line (or give an .srt file)")
            }
            // The header block runs to the first blank line.
            while i < lines.count && !isBlank(lines[i]) { i += 1 }
        }
        while i < lines.count {
            if isBlank(lines[i]) { i += 1; continue }
            if format == .webVTT, let keyword = lines[i].split(separator: " ", maxSplits: 1).first.map(String.init),
               ["NOTE", "STYLE", "REGION"].contains(keyword) || lines[i] == "NOTE" {
                while i < lines.count && !isBlank(lines[i]) { i += 1 }
                continue
            }
            // A block: an optional identifier (SRT: a cue number), a timing line, text lines.
            var timingIndex = i
            if !lines[i].contains("-->") {
                let next = i + 1
                guard next < lines.count, lines[next].contains("-->") else {
                    if format == .srt, lines[i].trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber), next < lines.count, !isBlank(lines[next]) {
                        throw error(next, "the line after cue number \(lines[i].trimmingCharacters(in: .whitespaces)) is not a timing line")
                    }
                    throw error(i, "text with no timing line above it")
                }
                timingIndex = next
            }
            var cue = try timing(at: timingIndex)
            // Text: up to a blank line (or, where the blank line is missing, the next cue's timing line).
            var text: [Substring] = []
            var j = timingIndex + 1
            // WebVTT ends a cue at an empty line only: YouTube's captions open each cue with a line of one
            // space (dropped below, with any other line of spaces at the text's ends).
            func endsCue(_ line: Substring) -> Bool { format == .webVTT ? line.isEmpty : isBlank(line) }
            while j < lines.count && !endsCue(lines[j]) {
                if looksLikeTiming(lines[j]) { break }
                // A hand-written file's "blank" line of spaces, then a cue identifier and its timing line:
                // the next cue, not this one's text.
                if format == .webVTT, j > timingIndex + 1, isBlank(lines[j - 1]), j + 1 < lines.count, looksLikeTiming(lines[j + 1]) { break }
                if j + 1 < lines.count, looksLikeTiming(lines[j + 1]), !text.isEmpty || format == .srt,
                   lines[j].trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) { break }
                text.append(lines[j])
                j += 1
            }
            while let first = text.first, isBlank(first) { text.removeFirst() }
            while let last = text.last, isBlank(last) { text.removeLast() }
            let joined = text.joined(separator: "\n")
            guard joined.count <= SubtitleTrack.maximumCueLength else {
                throw error(timingIndex, "the cue's text is \(joined.count) characters long, more than the \(SubtitleTrack.maximumCueLength) allowed",
                            expected: "cues of at most \(SubtitleTrack.maximumCueLength) characters (split the text into several cues)")
            }
            let converted = CueText.convert(joined)
            cue.text = converted.plain
            cue.markup = converted.markup
            if let n = converted.numpadPosition, format == .srt {
                cue.placement.line = n >= 7 ? .number(0) : n >= 4 ? .percent(50) : nil
                if (4...6).contains(n) { cue.placement.lineAnchor = .center }
                cue.placement.alignment = [1, 4, 7].contains(n) ? .left : [3, 6, 9].contains(n) ? .right : .center
            }
            cues.append(cue)
            i = j
        }
        // Shown while start ≤ t < end: a cue that ends where it starts never shows. Kept (a tool may write
        // such cues as markers), but said once for the file.
        let instant = cues.filter { $0.start == $0.end }.map(\.line)
        if let first = instant.first {
            let lines = instant.count == 1 ? "line \(first)" : "lines \(instant.prefix(5).map(String.init).joined(separator: ", "))\(instant.count > 5 ? ", …" : "")"
            LibraryWarnings.warn("\(name.isEmpty ? "subtitles" : name): \(instant.count == 1 ? "the cue" : "\(instant.count) cues") at \(lines) \(instant.count == 1 ? "starts and ends" : "start and end") at the same time, so \(instant.count == 1 ? "it never shows" : "they never show"); give \(instant.count == 1 ? "it an end" : "each an end") after its start")
        }
        return SubtitleTrack(cues: cues, name: name)
    }

    /// Whether a line is a timing line: something written as a timestamp (digits with a colon), then
    /// `-->` (a cue's text may hold `-->` after a number, `10 --> 20 is a range`, and is not one).
    private func looksLikeTiming(_ line: Substring) -> Bool {
        guard let arrow = line.range(of: "-->") else { return false }
        let before = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        // A timestamp's characters with a colon (so a mistyped one is still reported as a bad timing line).
        return !before.isEmpty && before.first!.isNumber && before.contains(":") && before.allSatisfy { $0.isNumber || ":.,".contains($0) }
    }

    /// The cue timed by line `index` (text still empty).
    private func timing(at index: Int) throws(MovieMakerError) -> SubtitleCue {
        let line = lines[index]
        guard let arrow = line.range(of: "-->") else { throw error(index, "not a timing line") }
        let startText = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        let after = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let endText = after.first.map(String.init) else {
            throw error(index, "the timing line has no end time after -->")
        }
        guard let start = timestamp(startText) else {
            throw error(index, startText.isEmpty ? "the timing line has no start time before -->" : "\"\(startText)\" is not a valid timestamp")
        }
        guard let end = timestamp(endText) else { throw error(index, "\"\(endText)\" is not a valid timestamp") }
        guard end >= start else {
            throw error(index, "the cue ends (\(endText)) before it starts (\(startText))")
        }
        var placement = SubtitlePlacement()
        if format == .webVTT { placement = settings(after.dropFirst().map(String.init)) }
        return SubtitleCue(start: start, end: end, plainText: "", placement: placement, line: index + 1)
    }

    /// `[hh:]mm:ss[,.]fff` as an exact time; SRT requires hours. Fractions of 1–3 digits; nil when malformed.
    func timestamp(_ text: String) -> Time? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 2 && format == .webVTT) else { return nil }
        let secondsPart = parts[parts.count - 1]
        let sepIndex = secondsPart.firstIndex(where: { $0 == "," || $0 == "." })
        let wholeSeconds = sepIndex.map { secondsPart[..<$0] } ?? secondsPart
        let fraction = sepIndex.map { secondsPart[secondsPart.index(after: $0)...] } ?? ""
        func number(_ s: Substring, maxDigits: Int) -> Int64? {
            guard !s.isEmpty, s.count <= maxDigits, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int64(s)
        }
        guard let hours = parts.count == 3 ? number(parts[0], maxDigits: 6) : 0,
              let minutes = number(parts[parts.count - 2], maxDigits: 2), minutes < 60,
              let seconds = number(wholeSeconds, maxDigits: 2), seconds < 60 else { return nil }
        var millis: Int64 = 0
        if sepIndex != nil {
            guard let f = number(fraction, maxDigits: 3) else { return nil }
            millis = f * [100, 10, 1][fraction.count - 1]
        } else if format == .webVTT {
            return nil   // WebVTT always has the milliseconds
        }
        return Time(value: ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis, timescale: 1000)
    }

    /// WebVTT cue settings (`line:`, `position:`, `align:`, `size:`); unknown or malformed ones are
    /// ignored, as the WebVTT specification says.
    private func settings(_ words: [String]) -> SubtitlePlacement {
        var p = SubtitlePlacement()
        func percent(_ s: Substring) -> Double? {
            guard s.hasSuffix("%"), let v = Double(s.dropLast()), v.isFinite, (0...100).contains(v) else { return nil }
            return v
        }
        func anchor(_ s: Substring?) -> SubtitlePlacement.Anchor? {
            guard let s else { return nil }
            switch s {
            case "start", "line-left": return .start
            case "center", "middle": return .center
            case "end", "line-right": return .end
            default: return nil
            }
        }
        for word in words {
            let kv = word.split(separator: ":", maxSplits: 1)
            guard kv.count == 2 else { continue }
            let values = kv[1].split(separator: ",", maxSplits: 1)
            guard let value = values.first else { continue }
            switch kv[0] {
            case "line":
                if let v = percent(value) { p.line = .percent(v) } else if let n = Int(value) { p.line = .number(n) } else { continue }
                if let a = anchor(values.dropFirst().first) { p.lineAnchor = a }
            case "position":
                if let v = percent(value) { p.position = v }
                if let a = anchor(values.dropFirst().first) { p.positionAnchor = a }
            case "align":
                switch value {
                case "start": p.alignment = .start
                case "center", "middle": p.alignment = .center
                case "end": p.alignment = .end
                case "left": p.alignment = .left
                case "right": p.alignment = .right
                default: break
                }
            case "size":
                if let v = percent(value) { p.size = v }
            default: break
            }
        }
        return p
    }
}

import Foundation

/// A JSON document as a value, read strictly and written canonically: the form description files
/// (`Timeline`), OpenTimelineIO files and a generator's `params` take before they become Swift values.
///
/// Numbers keep the text they were written with (`.number("0.1")`), so a time or a rate is read from its
/// decimal digits, never through a `Double` that would round it. Objects are unordered (a canonical
/// document sorts their keys), and reading one that names a key twice is an error.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (`"2.5"`, `"-3"`, `"1e-3"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// A number written from an integer.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    /// A number written from a `Double` in its shortest form that reads back as the same `Double`
    /// (`0.1`, `3`, `1e-05`); nil when it is not finite (JSON has no NaN or infinity).
    public static func double(_ value: Double) -> JSONValue? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }

    /// The name of the value's JSON type, for error messages: `"a number"`, `"an object"`….
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as it appears in an error message: a string quoted, a number as written, other
    /// values in short (`an object`, `an array of 3`).
    package var shortDescription: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(text): return text
        case let .string(s):
            let shown = s.count > 60 ? String(s.prefix(57)) + "…" : s
            return "\"" + shown + "\""
        case let .array(a):
            // A short list of plain values is shown as written (`[2, 1]` names the bad number in a pair);
            // anything longer or nested by its size.
            if a.isEmpty { return "[]" }
            let plain = a.allSatisfy { if case .array = $0 { return false } else if case .object = $0 { return false } else { return true } }
            if plain && a.count <= 4 {
                let shown = "[" + a.map(\.shortDescription).joined(separator: ", ") + "]"
                if shown.count <= 60 { return shown }
            }
            return "an array of \(a.count)"
        case let .object(o): return o.isEmpty ? "{}" : "an object"
        }
    }

    /// The string, when the value is one.
    public var stringValue: String? { if case let .string(s) = self { return s } else { return nil } }
    /// The object's members, when the value is one.
    public var objectValue: [String: JSONValue]? { if case let .object(o) = self { return o } else { return nil } }
    /// The array's elements, when the value is one.
    public var arrayValue: [JSONValue]? { if case let .array(a) = self { return a } else { return nil } }
    /// The number as a `Double`, when the value is a finite number.
    public var doubleValue: Double? {
        guard case let .number(text) = self, let d = Double(text), d.isFinite else { return nil }
        return d
    }
    /// The member `key` of an object (nil for a missing key or a value that is not an object).
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

// MARK: Reading

extension JSONValue {
    /// The deepest nesting of arrays and objects a document may have (deeper ones are refused rather
    /// than risking the stack).
    package static let maximumDepth = 200

    /// Reads a JSON document (RFC 8259, UTF-8): no comments, no trailing commas, no `NaN` or
    /// `Infinity`, no repeated keys in an object, nothing after the value but white space.
    ///
    /// Throws `MovieMakerError.invalidDescription` naming the line and column of the first problem and
    /// the JSON path reached (`tracks[0].items[2]`), e.g. `line 12, column 7: expected "," or "}"`.
    public init(parsing data: Data) throws(MovieMakerError) {
        var parser = JSONParser(bytes: [UInt8](data))
        self = try parser.parseDocument()
    }

    /// Reads a JSON document from text (see `init(parsing:)`).
    public init(parsing text: String) throws(MovieMakerError) {
        try self.init(parsing: Data(text.utf8))
    }
}

/// A strict recursive-descent JSON reader that remembers where it is (line, column, JSON path).
private struct JSONParser {
    package let bytes: [UInt8]
    package var index = 0
    package var path: [JSONPath.Component] = []

    package init(bytes: [UInt8]) { self.bytes = bytes }

    package mutating func parseDocument() throws(MovieMakerError) -> JSONValue {
        // A UTF-8 byte order mark is allowed before the document (RFC 8259 §8.1 lets readers ignore it).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw fail("the file is empty: expected a JSON object such as {\"version\": 1, …}") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected \(describeByte()) after the end of the JSON value") }
        return value
    }

    package func position() -> (line: Int, column: Int) {
        var line = 1, column = 1
        for b in bytes[..<min(index, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    package func fail(_ what: String) -> MovieMakerError {
        let (line, column) = position()
        return MovieMakerError.invalidDescription(JSONPath(path), "not valid JSON at line \(line), column \(column): \(what)")
    }

    package func describeByte() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "\"\(Character(Unicode.Scalar(b)))\"" }
        return String(format: "byte 0x%02X", b)
    }

    package mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    package mutating func parseValue(depth: Int) throws(MovieMakerError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw fail("arrays and objects nested deeper than \(JSONValue.maximumDepth) levels") }
        skipWhitespace()
        guard index < bytes.count else { throw fail("the file ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw fail("NaN and Infinity are not JSON numbers: give a finite number")
        default:
            throw fail("unexpected \(describeByte()): expected a value (an object, array, string, number, true, false or null)")
        }
    }

    package mutating func literal(_ word: String) throws(MovieMakerError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw fail("unexpected \(describeByte()): expected a value (did you mean \(word)?)")
        }
        index += w.count
    }

    package mutating func parseObject(depth: Int) throws(MovieMakerError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object([:]) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("unexpected \(describeByte()): expected a key in double quotes")
            }
            let key = try parseString()
            guard members[key] == nil else { throw fail("the key \"\(key)\" appears twice in this object") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("unexpected \(describeByte()): expected \":\" after the key \"\(key)\"") }
            index += 1
            path.append(.key(key))
            members[key] = try parseValue(depth: depth + 1)
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw fail("the file ends inside an object: expected \",\" or \"}\"") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("unexpected \(describeByte()): expected \",\" or \"}\"")
        }
    }

    package mutating func parseArray(depth: Int) throws(MovieMakerError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array([]) }
        while true {
            path.append(.index(elements.count))
            elements.append(try parseValue(depth: depth + 1))
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw fail("the file ends inside an array: expected \",\" or \"]\"") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw fail("unexpected \(describeByte()): expected \",\" or \"]\"")
        }
    }

    package mutating func parseNumber() throws(MovieMakerError) -> String {
        let start = index
        func digits() -> Int {
            let s = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail("a number ends after \"-\"") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                throw fail("numbers cannot start with 0 (write 7, not 07)")
            }
        } else if digits() == 0 {
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") { throw fail("-Infinity is not a JSON number: give a finite number") }
            throw fail("expected digits after \"-\"")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected digits in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    package mutating func parseString() throws(MovieMakerError) -> String {
        index += 1   // the opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ parser: JSONParser, to end: Int) throws(MovieMakerError) {
            guard runStart < end else { return }
            guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                throw parser.fail("a string is not valid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw fail("the file ends inside a string: expected a closing \"") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flush(self, to: index)
                index += 1
                return String(scalars)
            }
            if b < 0x20 { throw fail("a control character (byte 0x\(String(b, radix: 16, uppercase: true))) inside a string: write it escaped, e.g. \\n") }
            if b != UInt8(ascii: "\\") { index += 1; continue }
            try flush(self, to: index)
            index += 1
            guard index < bytes.count else { throw fail("the file ends inside an escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let high = try hex4()
                if (0xD800..<0xDC00).contains(high) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate \\u\(String(high, radix: 16)) in a string")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate \\u\(String(high, radix: 16)) in a string") }
                    scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!)
                } else if (0xDC00..<0xE000).contains(high) {
                    throw fail("a lone surrogate \\u\(String(high, radix: 16)) in a string")
                } else {
                    scalars.append(Unicode.Scalar(high)!)
                }
            default:
                index -= 1
                throw fail("unknown escape \\\(describeByte().trimmingCharacters(in: CharacterSet(charactersIn: "\""))) in a string")
            }
            runStart = index
        }
    }

    package mutating func hex4() throws(MovieMakerError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("expected four hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("expected four hex digits after \\u")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }
}

// MARK: Writing

extension JSONValue {
    /// The canonical text of the value: keys sorted (by their UTF-8 bytes), two spaces of indentation
    /// per level, one member or element per line, `": "` after keys, numbers as held, strings with only
    /// `"`, `\` and control characters escaped, and a final newline. Equal values give equal bytes.
    public var canonicalText: String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// `canonicalText` as UTF-8 bytes.
    package var canonicalData: Data { Data(canonicalText.utf8) }

    /// The value on one line without spaces (`{"a":1,"b":[true,null]}`), keys sorted: for hashing.
    package var compactText: String {
        var out = ""
        writeCompact(to: &out)
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case let .array(elements) where !elements.isEmpty:
            out += "[\n"
            for (i, e) in elements.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                e.write(to: &out, indent: indent + 2)
                out += i + 1 < elements.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case let .object(members) where !members.isEmpty:
            out += "{\n"
            let keys = JSONValue.sortedKeys(members)
            for (i, key) in keys.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSONValue.writeString(key, to: &out)
                out += ": "
                members[key]!.write(to: &out, indent: indent + 2)
                out += i + 1 < keys.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        default:
            writeCompact(to: &out)
        }
    }

    private func writeCompact(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(text): out += text
        case let .string(s): JSONValue.writeString(s, to: &out)
        case let .array(elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += "," }
                e.writeCompact(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, key) in JSONValue.sortedKeys(members).enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]!.writeCompact(to: &out)
            }
            out += "}"
        }
    }

    /// Keys in the order of their UTF-8 bytes (the same on every machine and locale).
    package static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

// MARK: Paths

/// Where a value sits in a JSON document, written as description files' errors show it:
/// `tracks[0].items[2].duration` (an empty path is the document itself, shown as `$`).
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: an object's member or an array's element.
    package enum Component: Sendable, Hashable {
        /// The member named by the key.
        case key(String)
        /// The element at the index (from 0).
        case index(Int)
    }

    /// The steps from the document's root.
    package var components: [Component]

    /// The path through `components`.
    package init(_ components: [Component] = []) { self.components = components }

    /// The root of the document.
    public static let root = JSONPath()

    /// This path, one member further.
    package func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
    /// This path, one element further.
    package func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// `tracks[0].items[2].duration`; keys that are not plain names are quoted (`slots["my clip"]`);
    /// the root is `$`.
    public var description: String {
        guard !components.isEmpty else { return "$" }
        var out = ""
        for c in components {
            switch c {
            case let .key(k):
                let plain = !k.isEmpty && k.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "$" }
                    && !(k.first?.isNumber ?? false)
                if plain {
                    out += out.isEmpty ? k : "." + k
                } else {
                    out += "[\"" + k.replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
                }
            case let .index(i):
                out += "[\(i)]"
            }
        }
        return out
    }
}

extension MovieMakerError {
    /// A description file (or another JSON document) has a bad value: `message` says what was found and
    /// what is expected, and the error's location is `path`.
    package static func invalidDescription(_ path: JSONPath, _ message: String, file: String? = nil) -> MovieMakerError {
        MovieMakerError(code: .invalidDescription, message: message, location: Location(file: file, jsonPath: path.description))
    }
}

extension Sequence {
    /// `map` for a transform that throws `MovieMakerError`, keeping the error's type (written as a loop:
    /// passing a typed-throws closure to the standard library's generic `map` trips the compiler).
    package func mapTyped<T>(_ transform: (Element) throws(MovieMakerError) -> T) throws(MovieMakerError) -> [T] {
        var result: [T] = []
        for element in self { result.append(try transform(element)) }
        return result
    }
}

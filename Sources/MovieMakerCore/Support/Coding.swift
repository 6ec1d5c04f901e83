import Foundation

// Shared pieces of MovieMaker's `Codable` forms.
//
// The forms follow a few rules, the same for every type:
// - structs are objects keyed by their Swift property names; keys whose value is the initialiser's
//   default may be left out when decoding (so a hand-written description names only what it changes);
// - enums without payloads are strings (their raw value, or the case name);
// - enums with payloads are objects with a `type` key naming the case and one key per payload label,
//   e.g. {"type": "slide", "from": "left"}; a few have a shorter string form where it says everything
//   (a transition's xfade name "wipeleft", a colour "#ff8000", an easing "ease-in-out");
// - times are exact: a number of seconds (2.5, read as a decimal, never through Double) or a fraction
//   string ("1001/30000"); files are paths (or URLs with a scheme);
// - what cannot be data (closures, pixels, sounds made by code) throws `MovieMakerError.notEncodable`
//   when encoded; a value that decodes but is invalid throws `DecodingError.dataCorrupted` whose
//   `underlyingError` is the `MovieMakerError` saying why.

/// A coding key made from any string: `type` and the payload labels of enum cases.
package struct AnyCodingKey: CodingKey, Hashable {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ string: String) { stringValue = string }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }

    /// The key naming an enum case in its object form.
    package static let type = AnyCodingKey("type")
}

extension MovieMakerError {
    /// This error as a decoding failure at `codingPath`, with the error itself as the underlying error.
    package func decodingError(at codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: self))
    }
}

/// Runs `body`, turning a `MovieMakerError` it throws into a `DecodingError` at `codingPath`.
package func decodingErrors<T>(at codingPath: [any CodingKey], _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as MovieMakerError {
        throw error.decodingError(at: codingPath)
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `defaultValue` when the key is missing (a `null` is decoded as the type says).
    package func decode<T: Decodable>(_ key: Key, or defaultValue: @autoclosure () -> T) throws -> T {
        contains(key) ? try decode(T.self, forKey: key) : defaultValue()
    }

    /// For optionals whose default is not nil: `defaultValue` when `key` is missing, nil when it is
    /// `null`, else the value.
    package func decodeOptional<T: Decodable>(_ key: Key, or defaultValue: @autoclosure () -> T?) throws -> T? {
        guard contains(key) else { return defaultValue() }
        if try decodeNil(forKey: key) { return nil }
        return try decode(T.self, forKey: key)
    }

    /// The `type` of an enum's object form.
    package func decodeType() throws -> String where Key == AnyCodingKey {
        try decode(String.self, forKey: .type)
    }

    /// A `dataCorrupted` error for an unknown `type`, listing the known ones.
    package func unknownType(_ type: String, of what: String, known: [String]) -> DecodingError where Key == AnyCodingKey {
        .dataCorruptedError(forKey: .type, in: self,
                            debugDescription: "unknown \(what) type \"\(type)\": expected one of \(known.joined(separator: ", "))")
    }
}

extension SingleValueDecodingContainer {
    /// The value as a string when it is one, else nil (any other JSON value).
    package func decodeStringIfPossible() -> String? {
        decodeNil() ? nil : try? decode(String.self)
    }

    /// The text of an exact number, for `ExactNumber.parse`: the string itself, or a JSON number read as
    /// a `Decimal` (never through `Double`, so 0.1 stays exactly 1/10); nil for anything else.
    package func decodeExactNumberText() -> String? {
        if let string = decodeStringIfPossible() { return string }
        return (try? decode(Decimal.self))?.description
    }
}

/// A file named by its URL, written as a plain path (`/photos/a.jpg`) when it is a file URL, else as the URL
/// (`https://…`). A path that is not absolute is read relative to the current directory.
package struct FileLocation: Codable, Hashable {
    /// The file.
    package var url: URL
    package init(_ url: URL) { self.url = url }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard !text.isEmpty else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an empty file path")
        }
        if text.hasPrefix("file:") || text.contains("://"), let url = URL(string: text) {
            self.url = url
        } else {
            self.url = URL(fileURLWithPath: text)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(url.isFileURL ? url.path : url.absoluteString)
    }
}

/// Exact decimal and fraction numbers, for times and frame rates: `2.5`, `-0.25`, `1e-3`, `1001/30000`.
package enum ExactNumber {
    /// `text` as a reduced fraction (denominator > 0): a decimal number (optional sign, digits, a point,
    /// an exponent) or `numerator/denominator` of two such numbers; nil when it is neither or does not
    /// fit 64 bits.
    package static func parse(_ text: String) -> (numerator: Int64, denominator: Int64)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let slash = trimmed.firstIndex(of: "/") {
            guard let n = decimal(trimmed[..<slash].trimmingCharacters(in: .whitespaces)),
                  let d = decimal(trimmed[trimmed.index(after: slash)...].trimmingCharacters(in: .whitespaces)),
                  d.numerator != 0 else { return nil }
            // (a/b) / (c/d) = (a·d) / (b·c)
            let (p, o1) = n.numerator.multipliedReportingOverflow(by: d.denominator)
            let (q, o2) = n.denominator.multipliedReportingOverflow(by: d.numerator)
            guard !o1, !o2 else { return nil }
            return reduced(p, q)
        }
        return decimal(trimmed)
    }

    /// A decimal number (`-12.500`, `1e-3`, `.5`) as a reduced fraction.
    package static func decimal(_ text: String) -> (numerator: Int64, denominator: Int64)? {
        var chars = Substring(text)
        var negative = false
        if let first = chars.first, first == "-" || first == "+" { negative = first == "-"; chars = chars.dropFirst() }
        var mantissa = chars, exponent = 0
        if let e = chars.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = chars[..<e]
            guard let x = Int(chars[chars.index(after: e)...]), x.magnitude < 40 else { return nil }   // not abs: abs(Int.min) traps
            exponent = x
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
              (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var digits = String(whole + fraction).drop { $0 == "0" }
        var scale = fraction.count - exponent        // value = digits / 10^scale
        // Trailing zeros of the digits lower the scale (1.500 is 15/10).
        while scale > 0, digits.last == "0" { digits.removeLast(); scale -= 1 }
        guard var numerator = Int64(digits.isEmpty ? "0" : String(digits)) else { return nil }
        var denominator: Int64 = 1
        for _ in 0..<max(0, scale) {
            let (d, o) = denominator.multipliedReportingOverflow(by: 10)
            guard !o else { return nil }
            denominator = d
        }
        for _ in 0..<max(0, -scale) {
            let (n, o) = numerator.multipliedReportingOverflow(by: 10)
            guard !o else { return nil }
            numerator = n
        }
        return reduced(negative ? -numerator : numerator, denominator)
    }

    /// `p / q` reduced, with a positive denominator.
    package static func reduced(_ p: Int64, _ q: Int64) -> (numerator: Int64, denominator: Int64)? {
        guard q != 0, p != .min, q != .min else { return nil }
        let g = Int64(max(gcd(Int(p.magnitude), Int(q.magnitude)), 1))
        return q < 0 ? (-p / g, -q / g) : (p / g, q / g)
    }

    /// The fraction `p / q` (q > 0) written as a finite decimal (`2.5`, `-0.001`), or nil when it has
    /// none (1/3) or its digits do not fit 63 bits.
    package static func decimalString(_ p: Int64, _ q: Int64) -> String? {
        guard q > 0, p != .min else { return nil }
        // q must be 2^a·5^b; then p/q = p·(10^k/q) / 10^k with k = max(a, b).
        var rest = q, twos = 0, fives = 0
        while rest % 2 == 0 { rest /= 2; twos += 1 }
        while rest % 5 == 0 { rest /= 5; fives += 1 }
        guard rest == 1 else { return nil }
        let k = max(twos, fives)
        var factor: Int64 = 1
        for _ in 0..<(k - twos) { let (f, o) = factor.multipliedReportingOverflow(by: 2); guard !o else { return nil }; factor = f }
        for _ in 0..<(k - fives) { let (f, o) = factor.multipliedReportingOverflow(by: 5); guard !o else { return nil }; factor = f }
        let (scaled, overflow) = p.magnitude.multipliedReportingOverflow(by: UInt64(factor))
        guard !overflow, scaled <= UInt64(Int64.max) else { return nil }
        var digits = String(scaled)
        if digits.count <= k { digits = String(repeating: "0", count: k - digits.count + 1) + digits }
        let point = digits.index(digits.endIndex, offsetBy: -k)
        var text = String(digits[..<point])
        if k > 0 { text += "." + digits[point...] }
        return (p < 0 ? "-" : "") + text
    }
}

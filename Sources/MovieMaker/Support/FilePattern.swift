import Foundation

/// A destination pattern such as `out/{row}-{name}.mp4`: `{column}` is a row's value, `{row}` the row's
/// number (from 1) unless a column is called `row`, and `{{`/`}}` are literal braces. Shared by
/// `TemplateBatch` (`render --batch`) and `title --batch`.
package enum FilePattern {
    /// Why a pattern cannot be read, in words.
    package struct SyntaxError: Error, Sendable {
        /// What is wrong and how to write it.
        package let reason: String
    }

    /// The placeholder names in `pattern`, in order.
    package static func placeholders(in pattern: String) throws(SyntaxError) -> [String] {
        var names: [String] = []
        var chars = pattern[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if c == "{" {
                if chars.first == "{" { chars = chars.dropFirst(); continue }
                guard let close = chars.firstIndex(of: "}") else {
                    throw SyntaxError(reason: "\"\(pattern)\": a { is never closed; write {column}, or {{ for a brace")
                }
                names.append(String(chars[..<close]))
                chars = chars[chars.index(after: close)...]
            } else if c == "}" {
                guard chars.first == "}" else { throw SyntaxError(reason: "\"\(pattern)\": a } without its {; write }} for a brace") }
                chars = chars.dropFirst()
            }
        }
        return names
    }

    /// `pattern` with `values` in place of its placeholders (`{row}` is `number` unless `values` has a
    /// `row`; a name with no value gives nothing). With `forFileName`, a value's `/` becomes `-`, a NUL
    /// is dropped and a value of dots alone (`.`, `..`) becomes dashes, so a value cannot move the file
    /// into another folder.
    package static func fill(_ pattern: String, values: [String: String], number: Int, forFileName: Bool = false) -> String {
        var out = ""
        var chars = pattern[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if c == "{" {
                if chars.first == "{" { out.append("{"); chars = chars.dropFirst(); continue }
                guard let close = chars.firstIndex(of: "}") else { out.append(c); continue }
                let name = String(chars[..<close])
                var value = values[name] ?? (name == "row" ? String(number) : "")
                if forFileName {
                    // A line break or tab in a cell (a quoted CSV value) becomes a space: a file name
                    // holding one breaks every listing and script that reads it.
                    value = String(String.UnicodeScalarView(value.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                        scalar == "\0" ? nil : scalar.properties.generalCategory == .control ? " " : scalar
                    }))
                    value = value.replacingOccurrences(of: "/", with: "-")
                    if !value.isEmpty, value.allSatisfy({ $0 == "." }) { value = String(repeating: "-", count: value.count) }
                }
                out += value
                chars = chars[chars.index(after: close)...]
            } else if c == "}" {
                if chars.first == "}" { chars = chars.dropFirst() }
                out.append("}")
            } else {
                out.append(c)
            }
        }
        return out
    }
}

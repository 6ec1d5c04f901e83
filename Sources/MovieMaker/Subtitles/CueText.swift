import Foundation

/// Cue text (SRT's and WebVTT's HTML-like tags and entities) turned into plain text and Pango markup.
enum CueText {
    /// The result of reading one cue's text.
    struct Converted {
        /// The text without tags.
        var plain: String
        /// Pango markup: `<i>`, `<b>`, `<u>` (balanced), everything else escaped.
        var markup: String
        /// The SRT `{\anN}` override (1–9, numeric keypad layout), if the text had one.
        var numpadPosition: Int?
    }

    /// `text` with `&`, `<`, `>` escaped for Pango markup.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// The plain text of markup made by `convert` or `escape` (tags removed, the three entities decoded).
    static func plain(fromMarkup markup: String) -> String { convert(markup).plain }

    /// Entities decoded: the named ones subtitle files use, and numeric ones.
    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{00A0}", "quot": "\"", "apos": "'",
        "lrm": "\u{200E}", "rlm": "\u{200F}", "shy": "\u{00AD}", "hellip": "…", "mdash": "—", "ndash": "–",
    ]

    /// Reads cue text: tags `<i>`, `<b>`, `<u>` become markup (re-nested so the markup is always
    /// balanced; a stray closing tag is dropped, tags left open are closed at the end); `<font …>`,
    /// `<c.class>`, `<v Speaker>`, `<lang xx>`, `<ruby>`, karaoke timestamps and unknown tags are
    /// dropped (ruby annotations `<rt>…</rt>` with their text); entities are decoded; a `<` or `&` that
    /// starts no tag or entity is kept as text. SRT `{\…}` override blocks are removed (`{\anN}` noted).
    static func convert(_ source: String) -> Converted {
        let chars = Array(source)
        var plain = "", markup = ""
        var open: [String] = []          // open markup tags, outermost first
        var rubyTextDepth = 0            // inside <rt>…</rt>: text dropped
        var numpad: Int? = nil
        func emit(_ text: String) {
            guard rubyTextDepth == 0 else { return }
            plain += text
            markup += escape(text)
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "<", let close = chars[(i + 1)...].firstIndex(where: { $0 == ">" || $0 == "<" || $0 == "\n" }), chars[close] == ">" {
                let body = String(chars[(i + 1)..<close])
                if let tag = Tag(body) {
                    switch tag {
                    case let .open(name) where ["i", "b", "u"].contains(name):
                        if rubyTextDepth == 0 { open.append(name); markup += "<\(name)>" }
                    case let .close(name) where ["i", "b", "u"].contains(name):
                        if rubyTextDepth == 0, let k = open.lastIndex(of: name) {
                            // Close the tags opened inside it, then reopen them: misnested tags stay balanced.
                            let inner = open[(k + 1)...]
                            for t in inner.reversed() { markup += "</\(t)>" }
                            markup += "</\(name)>"
                            open.remove(at: k)
                            for t in inner { markup += "<\(t)>" }
                        }
                    case .open("rt"): rubyTextDepth += 1
                    case .close("rt"): rubyTextDepth = max(0, rubyTextDepth - 1)
                    default: break   // font, c, v, lang, ruby, timestamps, unknown: dropped
                    }
                    i = close + 1
                    continue
                }
            }
            if c == "&", let semi = chars[(i + 1)...].prefix(12).firstIndex(of: ";"), let decoded = entity(String(chars[(i + 1)..<semi])) {
                emit(decoded)
                i = semi + 1
                continue
            }
            if c == "{", i + 1 < chars.count, chars[i + 1] == "\\", let close = chars[(i + 1)...].firstIndex(where: { $0 == "}" || $0 == "\n" }), chars[close] == "}" {
                let body = String(chars[(i + 2)..<close])
                for part in body.split(separator: "\\") where part.hasPrefix("an") {
                    if let n = Int(part.dropFirst(2)), (1...9).contains(n) { numpad = n }
                }
                i = close + 1
                continue
            }
            emit(String(c))
            i += 1
        }
        for t in open.reversed() { markup += "</\(t)>" }
        return Converted(plain: plain, markup: markup, numpadPosition: numpad)
    }

    /// The text an entity's name (between `&` and `;`) stands for, or nil when it is none.
    static func entity(_ name: String) -> String? {
        if let named = namedEntities[name] { return named }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return String(Character(scalar))
    }

    /// A tag's name, read from what is between `<` and `>`.
    private enum Tag {
        case open(String)
        case close(String)
        case timestamp

        /// Nil when `body` does not look like a tag (so the `<` is text, e.g. "a <3 b" stays as written).
        init?(_ body: String) {
            guard let first = body.first else { return nil }
            if first == "/" {
                let name = body.dropFirst().prefix { $0.isLetter || $0.isNumber }.lowercased()
                guard !name.isEmpty else { return nil }
                self = .close(name)
            } else if first.isNumber {
                // A karaoke timestamp, <00:00:01.500>.
                guard body.allSatisfy({ $0.isNumber || $0 == ":" || $0 == "." || $0 == "," }), body.contains(":") else { return nil }
                self = .timestamp
            } else if first.isLetter {
                // The name ends at a class (.), an annotation (space) or an attribute.
                let name = body.prefix { $0.isLetter || $0.isNumber }.lowercased()
                self = .open(name)
            } else {
                return nil
            }
        }
    }
}

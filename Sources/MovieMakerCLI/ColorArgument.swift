import Foundation
import MovieMaker

/// Reads colours given on the command line: `#rgb`, `#rrggbb`, `#rrggbbaa` or a name.
///
/// Everything goes through `parse(_:)`, so a fuller parser (CSS syntax) can replace the body in one place.
enum ColorArgument {
    /// The names understood besides hex notation (lowercase).
    static let names: [String: Color] = [
        "black": .black, "white": .white, "red": .red, "green": .green, "blue": .blue, "yellow": .yellow,
        "cyan": .cyan, "magenta": .magenta, "orange": .orange, "gray": .gray, "grey": .gray,
        "transparent": .clear, "clear": .clear,
    ]

    /// A colour from `text` (CSS syntax: names, hex, rgb(), hsl()); throws saying what is accepted.
    static func parse(_ text: String) throws(ArgumentValueError) -> Color {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = names[key] { return named }
        // Hex needs the `#`: a bare "bad" or "add" would otherwise be read as a colour.
        if key.first?.isHexDigit == true, !key.contains("("), Color(named: key) == nil {
            throw ArgumentValueError("expected a CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb(…), hsl(…) or a name such as white or rebeccapurple; hex needs its '#'")
        }
        do { return try Color(css: key) } catch {
            throw ArgumentValueError("expected a CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb(…), hsl(…) or a name such as white or rebeccapurple")
        }
    }
}

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

    /// A colour from `text`; throws saying what is accepted.
    static func parse(_ text: String) throws(ArgumentValueError) -> Color {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = names[key] { return named }
        // Hex needs the `#`: a bare "bad" or "add" would otherwise be read as a colour.
        if key.hasPrefix("#"), let color = Color(hex: key) { return color }
        throw ArgumentValueError("expected #rgb, #rrggbb, #rrggbbaa or a colour name (\(names.keys.sorted().joined(separator: ", ")))")
    }
}

import Foundation
import MovieMaker

/// Reads lengths of time given on the command line.
enum DurationArgument {
    /// `2`, `1.5`, `2s`, `1500ms`: seconds unless `ms` is given; must be more than zero.
    static func parse(_ text: String) throws(ArgumentValueError) -> Time {
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        var scale = 1.0
        if number.hasSuffix("ms") { number.removeLast(2); scale = 0.001 }
        else if number.hasSuffix("s") { number.removeLast() }
        guard let value = Double(number), value.isFinite, value > 0 else {
            throw ArgumentValueError("expected a length of time above zero in seconds, like 2, 1.5 or 1500ms")
        }
        return Time(seconds: value * scale)
    }
}

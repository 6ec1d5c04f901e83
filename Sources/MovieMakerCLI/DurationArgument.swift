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
        return try checked(value * scale)
    }

    /// `seconds` as a time, refused when beyond `Time.maximumSeconds` or, without `--allow-long-movie` on
    /// the command line, longer than `Time.longMovieLimit` (24 hours), naming the value and the limit.
    static func checked(_ seconds: Double) throws(ArgumentValueError) -> Time {
        let time: Time
        do { time = try Time(checkedSeconds: seconds) } catch {
            throw ArgumentValueError("\(seconds) s is beyond the longest time MovieMaker can count, \(Time.maximumSeconds) s")
        }
        if time > Time.longMovieLimit && !CommandLine.arguments.contains("--allow-long-movie") {
            throw ArgumentValueError("\(seconds) s is longer than the 24-hour limit (86400 s); add --allow-long-movie to render it anyway")
        }
        return time
    }
}

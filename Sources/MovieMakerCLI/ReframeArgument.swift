import Foundation
import MovieMaker

/// Reads `--reframe W:H` (`render`, `stitch`): an aspect ratio of whole numbers from 1 to 100.
enum ReframeArgument {
    /// The reframing `text` asks for; throws saying what is accepted.
    static func parse(_ text: String) throws(ArgumentValueError) -> Reframe {
        guard let reframe = try? Reframe(aspect: text) else {
            throw ArgumentValueError("expected an aspect ratio W:H with whole numbers from 1 to 100, such as 9:16 (vertical), 1:1 or 4:5")
        }
        return reframe
    }
}

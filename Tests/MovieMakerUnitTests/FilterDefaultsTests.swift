import Foundation
import Testing
@testable import MovieMaker

// Issue 33, bug 6: every filter's secondary parameters have defaults in Swift (the README's
// `.vignette(amount: 0.5)` did not compile: it needed angle, radius and color), and they are the defaults
// a description file gives the same filter when the key is left out.
@Suite("Filter defaults: Swift and description files agree")
struct FilterDefaultsTests {
    /// The filter a description file reads from `{"name": name}` alone.
    func read(_ name: String) throws -> Clip.Filter {
        try Clip.Filter.reading(.object(["name": .string(name)]), at: JSONPath(), baseDirectory: nil, rate: 30)
    }

    @Test("Filters with every parameter defaulted: the Swift case with no arguments is the description file's {\"name\": …}")
    func defaultsAgree() throws {
        let swift: [(String, Clip.Filter)] = [
            ("blur", .spatial(.blur())), ("sharpen", .spatial(.sharpen())), ("vignette", .spatial(.vignette())),
            ("grain", .spatial(.grain())), ("pixelate", .spatial(.pixelate())), ("chromaKey", .spatial(.chromaKey())),
            ("grayscale", .color(.grayscale())), ("sepia", .color(.sepia())), ("invert", .color(.invert())),
        ]
        for (name, filter) in swift {
            let fromFile = try read(name)
            #expect(fromFile == filter, "\(name): the description file's default \(fromFile) differs from Swift's \(filter)")
        }
    }

    @Test("docs/PICTURE-EDITING.md's vignette: only the amount given, the rest as FFmpeg's defaults")
    func vignetteWithAnAmountOnly() throws {
        let filter = Clip.Filter.spatial(.vignette(amount: 0.5))
        let read = try Clip.Filter.reading(.object(["name": .string("vignette"), "amount": .number("0.5")]), at: JSONPath(), baseDirectory: nil, rate: 30)
        #expect(filter == read)
    }
}

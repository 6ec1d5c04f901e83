import Foundation
import Testing
import MovieMakerTestSupport

/// An unknown `--font` is answered with fontconfig's own substitute first, then families of a similar style.
@Suite("Font suggestions")
struct FontSuggestionTests {
    /// fontconfig's own answer for `family` (`fc-match`), or nil when fc-match is not installed.
    func fontconfigMatch(_ family: String) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fc-match") else { return nil }
        let r = try run("/usr/bin/fc-match", ["-f", "%{family}", family])
        guard r.status == 0 else { return nil }
        return r.stdout.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A family people ask for and words that must not appear in its suggestions (another style).
    static let commonFonts: [(String, [String])] = [
        ("Helvetica", ["Serif", "Mono"]), ("Arial", ["Serif", "Mono"]), ("Times New Roman", ["Sans"]), ("Courier New", ["Serif"]),
    ]

    @Test(arguments: commonFonts)
    func unknownFontSuggestsFontconfigsMatchFirst(family: String, otherStyles: [String]) throws {
        guard CLI.isBuilt, let oracle = try fontconfigMatch(family) else { return }
        let folder = try TemporaryFolder()
        let r = try CLI.run(["title", "X", "--font", family, "-o", folder.file("x.mp4").path])
        #expect(r.status == 64, "\(r.stderr)")
        let suggestions = try #require(r.stderr.components(separatedBy: "closest installed: ").dropFirst().first)
            .components(separatedBy: " (list all").first ?? ""
        let names = suggestions.components(separatedBy: ", ")
        #expect(names.first == oracle, "fc-match says \(oracle) for \(family); suggested: \(suggestions)")
        // Then families of a similar style: nothing symbolic, mathematical or emoji, nor of another style.
        for bad in ["Dingbats", "Emoji", "Math", "Symbol"] + otherStyles {
            #expect(!names.contains { $0.contains(bad) }, "\(family): \(suggestions) has a \(bad) family")
        }
    }
}

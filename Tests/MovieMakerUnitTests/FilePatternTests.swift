import Testing
@testable import MovieMaker

/// Output name patterns (`--output-pattern`, `title --batch`'s names): a row's value cannot move its
/// movie out of the pattern's folder.
@Suite("Output name patterns")
struct FilePatternTests {
    @Test("for file names, a value's slashes and a value of dots alone become dashes; other dots stay")
    func valuesStayInTheirFolder() {
        #expect(FilePattern.fill("out/{group}/{name}.mp4", values: ["group": "..", "name": "a/b"], number: 1, forFileName: true) == "out/--/a-b.mp4")
        #expect(FilePattern.fill("out/{name}.mp4", values: ["name": "."], number: 1, forFileName: true) == "out/-.mp4")
        #expect(FilePattern.fill("out/{name}.mp4", values: ["name": "v1.2"], number: 1, forFileName: true) == "out/v1.2.mp4")
        #expect(FilePattern.fill("{row}-{name}", values: ["name": ".."], number: 7) == "7-..", "not a file name: kept as given")
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The rows of a batch file: a JSON Lines file's columns in the order its lines write them.
@Suite("Batch rows")
struct BatchRowsTests {
    @Test("a .jsonl file's columns are its keys in the order written (the first key is the first column), not sorted")
    func jsonLinesKeepTheWrittenOrder() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("rows.jsonl")
        try """
            {"zeta": "Zed title", "alpha": "alpha value"}
            {"alpha": "A2", "zeta": "Z2", "middle": "with \\"alpha\\": inside"}
            {"z\\u0061": 1, "zeta": "Z3"}
            """.write(to: url, atomically: true, encoding: .utf8)
        let table = try TemplateBatch.table(contentsOf: url)
        #expect(table.columns == ["zeta", "alpha", "middle", "za"], "\(table.columns)")
        #expect(table.rows[1].values["middle"] == "with \"alpha\": inside")
        #expect(TemplateBatch.keysInWrittenOrder(["b": .null, "a": .null], line: #"{"b": null, "a": null}"#) == ["b", "a"])
    }

    @Test("a cell of spaces alone is blank: the slot keeps its default, as with an empty cell")
    func aCellOfSpacesKeepsTheDefault() throws {
        let folder = try TemporaryFolder()
        let template = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "160x120", "fps": 10},
             "slots": {"name": {"kind": "text", "default": "Default Name"}},
             "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{name}}", "duration": "1s"}]}]}
            """)
        let rows = [TemplateBatch.Row(number: 1, values: ["name": ""]), TemplateBatch.Row(number: 2, values: ["name": "   "]),
                    TemplateBatch.Row(number: 3, values: ["name": " \t "]), TemplateBatch.Row(number: 4, values: ["name": "Ana"])]
        let batch = TemplateBatch(template: template, rows: rows, outputPattern: "{row}.mp4", options: Timeline.RenderOptions(), filesFolder: folder.url)
        let filled = try rows.map { try batch.filled(for: $0) }
        #expect(filled[1] == filled[0] && filled[2] == filled[0], "spaces keep the default, as an empty cell does")
        #expect(filled[3] != filled[0], "a value fills the slot")
    }

    /// The empty rows a spreadsheet exports after its last (`,,`) are blank lines: they made movies of the
    /// template's defaults (`render --batch`) or stopped a title batch as "the title is empty".
    @Test func rowsOfEmptyFieldsAreBlankLines() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("rows.csv")
        try "name,color\r\nAna,#ff0000\r\n,\r\n , \r\n\"\",\r\n".write(to: url, atomically: true, encoding: .utf8)
        let table = try TemplateBatch.table(contentsOf: url)
        #expect(table.rows.count == 1 && table.rows.first?.values["name"] == "Ana", "\(table.rows)")
        let empty = folder.file("empty.csv")
        try "name,color\n,\n,\n".write(to: empty, atomically: true, encoding: .utf8)
        #expect(throws: MovieMakerError.self) { _ = try TemplateBatch.table(contentsOf: empty) }
    }
}

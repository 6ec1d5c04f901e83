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
}

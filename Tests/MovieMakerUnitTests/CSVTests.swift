import Testing
import MovieMaker

/// `CSV.rows`: RFC 4180 as spreadsheets write it.
@Suite("CSV")
struct CSVTests {
    @Test func quotedFieldsHoldCommasQuotesAndLineBreaksAndLinesAreCounted() throws {
        let rows = try CSV.rows("\u{FEFF}name,note\r\n\"Doe, Jane\",\"said \"\"hi\"\"\"\r\nBo,\"two\nlines\"\r\nCy,last")
        #expect(rows.map(\.fields) == [["name", "note"], ["Doe, Jane", "said \"hi\""], ["Bo", "two\nlines"], ["Cy", "last"]])
        #expect(rows.map(\.line) == [1, 2, 3, 5], "the row after a two-line field starts on line 5")
    }

    @Test func errorsNameTheLine() {
        #expect(throws: CSV.SyntaxError(line: 3, text: "", reason: "a quoted field is never closed (a \" is missing)")) {
            try CSV.rows("a\nb\n\"c\n")
        }
        #expect(throws: CSV.SyntaxError(line: 2, text: "x", reason: "text after a closing quote: a quote inside a quoted field is written twice (\"\")")) {
            try CSV.rows("a\n\"b\"x\n")
        }
    }

    @Test("a spreadsheet's semicolon- or tab-separated export splits at its separator: the one first on most lines, on a tie the one splitting every line evenly")
    func semicolonsAndTabsSeparateWhenTheFirstLineHasNoComma() throws {
        #expect(try CSV.rows("name;price\nAna;\"1,5\"\nBo;2,25\n").map(\.fields) == [["name", "price"], ["Ana", "1,5"], ["Bo", "2,25"]])
        #expect(try CSV.rows("name\tnote\nAna\t\"a; b\"\n").map(\.fields) == [["name", "note"], ["Ana", "a; b"]])
        #expect(try CSV.rows("name,note\nAna,a; b\n").map(\.fields) == [["name", "note"], ["Ana", "a; b"]])
        #expect(try CSV.rows("\"a;b\"\nc\n").map(\.fields) == [["a;b"], ["c"]], "a semicolon inside quotes separates nothing")
        // A header-less caption sheet from a semicolon export: it quotes semicolons only, not commas.
        #expect(try CSV.rows("beach.jpg;Lisbon, at dawn\nport.jpg;Porto\n").map(\.fields) == [["beach.jpg", "Lisbon, at dawn"], ["port.jpg", "Porto"]])
        #expect(try CSV.rows("beach.jpg,Lisbon; at dawn\n").map(\.fields) == [["beach.jpg", "Lisbon; at dawn"]], "a tie goes to the first")
        #expect(try CSV.rows("a;b;c,d\n").map(\.fields) == [["a", "b", "c,d"]], "the first separates")
        // A comma caption sheet whose first caption holds semicolons, with one row or more (a focus on some).
        #expect(try CSV.rows("img 1.jpg,Lisbon; Alfama; at dawn\n").map(\.fields) == [["img 1.jpg", "Lisbon; Alfama; at dawn"]])
        #expect(try CSV.rows("a.jpg,Sun; sea; sand\nb.jpg,Rain,0.5 0.5\n").map(\.fields) == [["a.jpg", "Sun; sea; sand"], ["b.jpg", "Rain", "0.5 0.5"]])
        // A tie goes to the one that splits every line evenly; most lines' first wins over the first line's.
        #expect(try CSV.rows("Lisbon, PT;12\nPorto;9\n").map(\.fields) == [["Lisbon, PT", "12"], ["Porto", "9"]])
        #expect(try CSV.rows("a.jpg,Sun; sea\nb.jpg,Rain; wind,0.5 0.3\n").map(\.fields) == [["a.jpg", "Sun; sea"], ["b.jpg", "Rain; wind", "0.5 0.3"]])
        #expect(CSV.separator(of: "Sales, EUR;2019\nLisbon;1,5\nPorto;2,25\n") == ";")
        #expect(try CSV.rows("beach.jpg,Sun; sea; sand\npier.jpg,Rain\nport.jpg,Dusk\n").map(\.fields)
                == [["beach.jpg", "Sun; sea; sand"], ["pier.jpg", "Rain"], ["port.jpg", "Dusk"]])
        #expect(CSV.separator(of: "name\t2019\t2020\nLisbon\t1,234\t12,500\n") == "\t")
        #expect(CSV.separator(of: "name;a\nx;\"p;q\"\n") == ";", "separators inside quotes are not counted")
    }

    @Test("a file with a header splits at the header's separator: values holding semicolons or tabs do not outvote it")
    func theHeaderDecidesTheSeparator() throws {
        #expect(try CSV.rows("title,subtitle\nPart 1; Intro,Day 1\nPart 2; Setup,Day 2\n", header: true).map(\.fields)
                == [["title", "subtitle"], ["Part 1; Intro", "Day 1"], ["Part 2; Setup", "Day 2"]])
        #expect(try CSV.rows("name,photo\nSmith; Jr,a.jpg\n", header: true).map(\.fields) == [["name", "photo"], ["Smith; Jr", "a.jpg"]])
        // One column: a semicolon or a tab in a title is part of it.
        #expect(try CSV.rows("title\nHello; world\nTab\there\n", header: true).map(\.fields) == [["title"], ["Hello; world"], ["Tab\there"]])
        #expect(try CSV.rows("name;price\nAna;1,5\nBo;2,25\n", header: true).map(\.fields) == [["name", "price"], ["Ana", "1,5"], ["Bo", "2,25"]])
        #expect(CSV.separator(of: "Sales, EUR;2019\nLisbon;1,5\nPorto;2,25\n", header: true) == ";")
        #expect(CSV.separator(of: "\u{FEFF}name\tnote\nAna\ta, b; c\n", header: true) == "\t")
    }
}

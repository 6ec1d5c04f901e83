// Lower thirds from a spreadsheet: each row of a CSV file (name, role, colour) becomes a lower-third
// `TitleCard` that slides in over the picture and fades out, one after another. 6 s at 1280x720.
//
// Run it:   moviemaker run examples/gallery/lower-thirds.swift [-- OUTPUT [--small] [--csv PEOPLE.csv]]
// OUTPUT defaults to output/gallery/lower-thirds.mp4; --small makes a 1-second 320x180 preview.
// Without --csv, the script writes a sample, lower-thirds.csv, next to OUTPUT (unless one is there) and
// reads that: edit it and run again. The CSV's first line is its header: name,role,color.
import Foundation
import MovieMaker

var small = false, csvPath: String?, outputPath: String?
var rest = CommandLine.arguments.dropFirst().filter { $0 != "--" }[...]
while let argument = rest.popFirst() {
    switch argument {
    case "--small": small = true
    case "--csv": csvPath = rest.popFirst()
    default: outputPath = argument
    }
}
let output = URL(fileURLWithPath: outputPath ?? "output/gallery/lower-thirds.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

/// What is wrong with the CSV file, as one line (a script's thrown error is printed and exits 1).
struct CSVProblem: Error, CustomStringConvertible { var description: String }

// The CSV: given, or a sample written next to the output.
let csvURL = csvPath.map { URL(fileURLWithPath: $0) } ?? output.deletingLastPathComponent().appendingPathComponent("lower-thirds.csv")
if csvPath == nil && !FileManager.default.fileExists(atPath: csvURL.path) {
    let sample = """
        name,role,color
        Ada Lovelace,"Analyst, Analytical Engine",#e63946
        Grace Hopper,Compiler pioneer,#2a9d8f
        Alan Turing,Mathematician,#e9c46a

        """
    try sample.write(to: csvURL, atomically: true, encoding: .utf8)
    print("lower-thirds: wrote a sample \(csvURL.path)")
}
guard FileManager.default.fileExists(atPath: csvURL.path) else { throw CSVProblem(description: "\(csvURL.path): no such file") }

/// The rows of CSV `text` (RFC 4180: fields separated by commas, quoted with "" when they hold commas,
/// quotes or line breaks), blank lines skipped.
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
    var characters = text.makeIterator()
    var pending = characters.next()
    while let c = pending {
        pending = characters.next()
        if quoted {
            if c == "\"" { if pending == "\"" { field.append("\""); pending = characters.next() } else { quoted = false } }
            else { field.append(c) }
        } else if c == "\"" { quoted = true }
        else if c == "," { row.append(field); field = "" }
        else if c == "\n" || c == "\r\n" || c == "\r" {
            row.append(field); field = ""
            if row != [""] { rows.append(row) }
            row = []
        } else { field.append(c) }
    }
    row.append(field)
    if row != [""] { rows.append(row) }
    return rows
}

let table = parseCSV(try String(contentsOf: csvURL, encoding: .utf8))
guard let header = table.first?.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }),
      let nameColumn = header.firstIndex(of: "name") else {
    throw CSVProblem(description: "\(csvURL.path): the first line must name the columns: name,role,color")
}
let roleColumn = header.firstIndex(of: "role"), colorColumn = header.firstIndex(of: "color")
let people = table.dropFirst().map { row -> (name: String, role: String, color: Color) in
    func cell(_ column: Int?) -> String { column.flatMap { $0 < row.count ? row[$0] : nil }?.trimmingCharacters(in: .whitespaces) ?? "" }
    return (cell(nameColumn), cell(roleColumn), Color(hex: cell(colorColumn)) ?? Color(hex: 0x457b9d))
}
guard !people.isEmpty else { throw CSVProblem(description: "\(csvURL.path) has no rows under its header") }

let (width, height) = small ? (320, 180) : (1280, 720)
// The movie's frames shared between the rows, in whole frames.
let totalFrames = small ? 30 : 180
let each = Time(value: Int64(max(1, totalFrames / people.count)), timescale: 30)

// One lower third per row: the band is a gradient from the row's colour to transparent.
let cards = try people.map { person -> Clip in
    var card = TitleCard(person.name, subtitle: person.role.isEmpty ? nil : person.role, duration: each)
    card.layout = .lowerThird
    card.subtitleStyle.color = .white
    let band = Double(width) * 0.1
    card.background = .paint(.linear(from: Point(x: band, y: 0), to: Point(x: Double(width) * 0.75, y: 0),
                                     colors: [person.color.withAlpha(0.95), person.color.withAlpha(0.0)]))
    card.entrance = TitleAnimation(.slide(from: .left, distance: 120), duration: small ? 0.12 : 0.6, cascade: small ? 0.03 : 0.15)
    card.exit = small ? .none : .fade(duration: 0.4)                // the preview ends on its last card
    return try card.clip(width: width, height: height)
}

// The picture under them: soft out-of-focus lights drifting over a gradient, a stand-in for a video
// (use `Clip.video(url)` for a real one).
let scale = Double(width) / 1280
let picture = Clip(duration: each * people.count) { ctx, frame in
    ctx.scale(x: scale, y: scale)
    ctx.setFill(.linear(from: .zero, to: Point(x: 1280, y: 720), colors: [Color(hex: 0x283618), Color(hex: 0x606c38), Color(hex: 0xdda15e)]))
    ctx.fillRect(Rect(x: 0, y: 0, width: 1280, height: 720))
    for i in 0..<14 {
        let k = Double(i)
        let x = (k * 97 + 40 * frame.time * (1 + k.truncatingRemainder(dividingBy: 3))).truncatingRemainder(dividingBy: 1400) - 60
        let y = 120 + (k * 53).truncatingRemainder(dividingBy: 380)
        let r = 40 + (k * 29).truncatingRemainder(dividingBy: 70)
        ctx.setFill(.radial(center: Point(x: x, y: y), radius: r, colors: [Color(hex: 0xfefae0).withAlpha(0.35), Color(hex: 0xfefae0).withAlpha(0)]))
        ctx.fillCircle(center: Point(x: x, y: y), radius: r)
    }
}

let movie = try MovieMaker(url: output, width: width, height: height, fps: 30)
try movie.add(Clip.overlay(picture, Clip.sequence(cards)))

let summary = try movie.finish()
print("lower-thirds: \(summary)")

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// SRT and WebVTT parsing: exact times, tags and entities, cue settings, line-ending and header
/// variations, and malformed files reported with their line number.
@Suite struct SubtitleParserTests {
    func ms(_ n: Int64) -> Time { Time(value: n, timescale: 1000) }

    @Test func srtCuesHaveExactTimesAndKeepLineBreaks() throws {
        let track = try SubtitleTrack(srt: """
            1
            00:00:01,000 --> 00:00:02,500
            Hello
            world

            2
            01:02:03,045 --> 01:02:04,999
            Second
            """)
        #expect(track.cues.count == 2)
        #expect(track.cues[0].start == 1 && track.cues[0].end == Time(value: 5, timescale: 2))
        #expect(track.cues[0].text == "Hello\nworld")
        #expect(track.cues[0].line == 2)
        #expect(track.cues[1].start == ms(3_723_045))
        #expect(track.cues[1].end == ms(3_724_999))
        // 0.1 is not exact in binary; the parsed time is exactly 1/10 s.
        let tenth = try SubtitleTrack(srt: "00:00:00,100 --> 00:00:00,200\nx\n").cues[0]
        #expect(tenth.start == Time(value: 1, timescale: 10) && tenth.end == Time(value: 1, timescale: 5))
        #expect(track.cues(at: ms(999)).isEmpty)
        #expect(track.cues(at: 1).map(\.text) == ["Hello\nworld"])
        #expect(track.cues(at: ms(2_500)).isEmpty, "the end is exclusive")
        #expect(track.duration == ms(3_724_999))
    }

    @Test func bomCRLFBlankLinesAndMissingNumbers() throws {
        let text = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,000\r\nOne\r\n\r\n\r\n  \r\n00:00:03,000 --> 00:00:04,000\r\nTwo\r\nlines\r\n3\r\n00:00:05,000 --> 00:00:06,000\r\nThree\r\n"
        let track = try SubtitleTrack(srt: text)
        #expect(track.cues.map(\.text) == ["One", "Two\nlines", "Three"])
        #expect(track.cues.map(\.start) == [1, 3, 5])
        // Old Mac line ends (CR only) too.
        let cr = try SubtitleTrack(srt: "1\r00:00:01,000 --> 00:00:02,000\rA\r\r2\r00:00:02,000 --> 00:00:03,000\rB\r")
        #expect(cr.cues.map(\.text) == ["A", "B"])
    }

    @Test("a cue's text may hold --> after a number; a WebVTT cue opening with a line of one space (YouTube's) is one cue")
    func arrowsInTextAndYouTubesSpaceLines() throws {
        let srt = try SubtitleTrack(srt: "1\n00:00:01,000 --> 00:00:02,000\n10 --> 20 is a range\n\n2\n00:00:03,000 --> 00:00:04,000\nNext\n")
        #expect(srt.cues.map(\.text) == ["10 --> 20 is a range", "Next"])
        let vtt = try SubtitleTrack(webVTT: "WEBVTT\n\n00:00:00.000 --> 00:00:02.000 align:start position:0%\n \nHello world\n\n00:00:02.000 --> 00:00:04.000\n \nAgain\n")
        #expect(vtt.cues.map(\.text) == ["Hello world", "Again"])
        // A line of spaces between cues, before an identifier or a timing line, still separates them.
        let spaced = try SubtitleTrack(webVTT: "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nOne\n  \nintro\n00:00:01.000 --> 00:00:02.000\nTwo\n \n00:00:02.000 --> 00:00:03.000\nThree\n")
        #expect(spaced.cues.map(\.text) == ["One", "Two", "Three"])
        // A mistyped timing line after a line of spaces is still reported, not taken for text.
        #expect(throws: MovieMakerError.self) { try SubtitleTrack(webVTT: "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nOne\n \n00:00:02 --> 00:00:03\nTwo\n") }
    }

    @Test func tagsBecomeBalancedMarkupAndEntitiesAreDecoded() throws {
        let track = try SubtitleTrack(srt: """
            1
            00:00:01,000 --> 00:00:02,000
            <i>Ita</i> <b>bold</b> <u>under</u> <font color="#ff0000">red</font> a &amp; b &lt;c&gt;&nbsp;d

            2
            00:00:02,000 --> 00:00:03,000
            <b><i>x</b> y</i> <i>open 1 < 2 & 3 > 2

            3
            00:00:03,000 --> 00:00:04,000
            {\\an8}Top &#233;&#x263A; &bogus;
            """)
        let a = track.cues[0], b = track.cues[1], c = track.cues[2]
        #expect(a.text == "Ita bold under red a & b <c>\u{00A0}d")
        #expect(a.markup == "<i>Ita</i> <b>bold</b> <u>under</u> red a &amp; b &lt;c&gt;\u{00A0}d")
        #expect(b.text == "x y open 1 < 2 & 3 > 2")
        #expect(b.markup == "<b><i>x</i></b><i> y</i> <i>open 1 &lt; 2 &amp; 3 &gt; 2</i>")
        #expect(c.text == "Top é☺ &bogus;")
        #expect(c.placement.line == .number(0), "{\\an8} puts the cue at the top")
        // The markup is valid Pango markup.
        for cue in track.cues { _ = try TextLayout(cue.markup, style: TextStyle(font: TextFont(size: 20), isMarkup: true)) }
    }

    @Test func webVTTCuesSettingsAndSkippedBlocks() throws {
        let track = try SubtitleTrack(webVTT: """
            WEBVTT - a talk

            NOTE this is a comment
            spanning lines

            STYLE
            ::cue { color: yellow }

            REGION
            id:fred width:40%

            intro
            00:01.000 --> 00:02.500 line:0 position:10% align:start size:50%
            <v Roger>Hello</v> <c.yellow>there</c> <ruby>漢<rt>kan</rt></ruby> <00:00:01.500>now

            00:00:03.000 --> 00:00:04.000 line:80% align:right
            <lang en>Bottom-ish</lang>

            00:00:04.000 --> 00:00:05.000 line:-1 align:end position:90%,line-right
            Last
            """)
        #expect(track.cues.count == 3)
        let a = track.cues[0]
        #expect(a.start == 1 && a.end == ms(2_500))
        #expect(a.text == "Hello there 漢 now")
        #expect(a.placement == SubtitlePlacement(line: .number(0), position: 10, alignment: .start, size: 50))
        let b = track.cues[1]
        #expect(b.text == "Bottom-ish")
        #expect(b.placement.line == .percent(80) && b.placement.alignment == .right)
        let c = track.cues[2]
        #expect(c.placement.line == .number(-1) && c.placement.alignment == .end)
        #expect(c.placement.position == 90 && c.placement.positionAnchor == .end)
    }

    @Test func formatIsChosenByHeaderOrExtension() throws {
        let folder = try TemporaryFolder()
        let vtt = folder.file("a.txt")
        try Data("\u{FEFF}WEBVTT\r\n\r\n00:00.500 --> 00:01.000\r\nHi\r\n".utf8).write(to: vtt)
        let fromVTT = try SubtitleTrack(contentsOf: vtt)
        #expect(fromVTT.cues.map(\.start) == [ms(500)])
        #expect(fromVTT.name == vtt.path)
        let srt = folder.file("b.srt")
        try Data("1\n00:00:00,500 --> 00:00:01,000\nHi\n".utf8).write(to: srt)
        #expect(try SubtitleTrack(contentsOf: srt).cues.map(\.end) == [1])
        // Latin-1 SRT (not UTF-8).
        let latin = folder.file("c.srt")
        try Data([0x31, 0x0A] + Array("00:00:00,000 --> 00:00:01,000\n".utf8) + [0x43, 0x61, 0x66, 0xE9, 0x0A]).write(to: latin)
        #expect(try SubtitleTrack(contentsOf: latin).cues.first?.text == "Café")
        // UTF-8 with one stray byte stays UTF-8 (it was read as Windows-1252: "CafÃ© dÃ©jÃ  vu"), the byte
        // shown as U+FFFD and named by its line.
        let stray = folder.file("e.srt")
        try Data(Array("1\n00:00:00,000 --> 00:00:01,000\nCafé déjà vu\n\n2\n00:00:01,000 --> 00:00:02,000\nbad ".utf8) + [0xFF] + Array(" here\n".utf8))
            .write(to: stray)
        let (track, warnings) = try LibraryWarnings.collecting { try SubtitleTrack(contentsOf: stray) }
        #expect(track.cues.map(\.text) == ["Café déjà vu", "bad \u{FFFD} here"])
        #expect(warnings.count == 1 && warnings.first?.contains("e.srt: line 7") == true && warnings.first?.contains("not UTF-8") == true, "\(warnings)")
        // A cue of no length never shows: said, with its line.
        let (_, instant) = try LibraryWarnings.collecting { try SubtitleTrack(srt: "1\n00:00:01,000 --> 00:00:01,000\nGone\n", name: "f.srt") }
        #expect(instant.count == 1 && instant.first?.contains("f.srt: the cue at line 2") == true && instant.first?.contains("never shows") == true, "\(instant)")
        // Many are said once, for the file.
        let (_, many) = try LibraryWarnings.collecting {
            try SubtitleTrack(srt: "1\n00:00:01,000 --> 00:00:01,000\nA\n\n2\n00:00:02,000 --> 00:00:02,000\nB\n", name: "g.srt")
        }
        #expect(many.count == 1 && many.first?.contains("2 cues at lines 2, 6") == true, "\(many)")
        // A .vtt file without the header is refused on line 1.
        let bad = folder.file("d.vtt")
        try Data("00:00.500 --> 00:01.000\nHi\n".utf8).write(to: bad)
        let error = #expect(throws: MovieMakerError.self) { try SubtitleTrack(contentsOf: bad) }
        #expect(error?.message.contains("line 1") == true)
        #expect(error?.message.contains("d.vtt") == true)
    }

    /// Each malformed case: the line number, the offending text and the expected form are in the message.
    @Test(arguments: [
        ("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:0x,000 --> 00:00:04,000\nbad\n", 6, "00:00:0x,000"),
        ("1\n00:00:05,000 --> 00:00:04,000\nbackwards\n", 2, "before it starts"),
        ("1\n00:00:01,000 --> 00:00:02,000\nok\n\nstray text\nmore\n", 5, "stray text"),
        ("1\n00:00:01,000 -->\nunclosed\n", 2, "no end time"),
        ("1\n00:00:01,000 --> 00:00:02,000\nok\n\n7\n00:00:01,000 - 00:00:02,000\ntext\n", 6, "not a timing line"),
        ("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:61:00,000\nx\n", 6, "00:61:00,000"),
        ("\n\n--> 00:00:02,000\nx\n", 3, "no start time"),
    ])
    func malformedSRTNamesTheLine(text: String, line: Int, fragment: String) {
        let error = #expect(throws: MovieMakerError.self) { try SubtitleTrack(srt: text, name: "talk.srt") }
        guard let error else { return }
        #expect(error.code == .invalidSubtitles)
        #expect(error.position == line)
        #expect(error.message.contains("talk.srt, line \(line):"), "\(error.message)")
        #expect(error.message.contains(fragment), "\(error.message)")
        #expect(error.message.contains("00:00:01,000 --> 00:00:02,500"), "shows the expected form: \(error.message)")
        #expect(error.location?.file == "talk.srt")
    }

    @Test func malformedWebVTTNamesTheLine() {
        let error = #expect(throws: MovieMakerError.self) {
            try SubtitleTrack(webVTT: "WEBVTT\n\n00:01.000 --> 00:02.000\nok\n\n00:03.000 --> 00:02.000\nback\n", name: "t.vtt")
        }
        #expect(error?.position == 6)
        #expect(error?.message.contains("t.vtt, line 6") == true)
        let noHeader = #expect(throws: MovieMakerError.self) { try SubtitleTrack(webVTT: "00:01.000 --> 00:02.000\nx\n") }
        #expect(noHeader?.position == 1)
        let noMillis = #expect(throws: MovieMakerError.self) { try SubtitleTrack(webVTT: "WEBVTT\n\n00:01 --> 00:02.000\nx\n") }
        #expect(noMillis?.position == 3)
    }

    @Test func oversizedCuesAndFilesAreRefused() throws {
        let long = String(repeating: "a", count: SubtitleTrack.maximumCueLength + 1)
        let error = #expect(throws: MovieMakerError.self) { try SubtitleTrack(srt: "1\n00:00:01,000 --> 00:00:02,000\n\(long)\n") }
        #expect(error?.position == 2)
        #expect(error?.message.contains("10000") == true)
        let folder = try TemporaryFolder()
        let big = folder.file("big.srt")
        try Data(count: SubtitleTrack.maximumFileSize + 1).write(to: big)
        let tooLarge = #expect(throws: MovieMakerError.self) { try SubtitleTrack(contentsOf: big) }
        #expect(tooLarge?.code == .invalidSubtitles)
        #expect(tooLarge?.message.contains("big.srt") == true)
        let missing = #expect(throws: MovieMakerError.self) { try SubtitleTrack(contentsOf: folder.file("none.srt")) }
        #expect(missing?.message.contains("no such file") == true)
        // A photo given as subtitles is named for what it is, without its bytes in the message.
        let photo = folder.file("photo.srt")
        try FixtureJPEG.data(RGBAPicture(width: 8, height: 8) { _, _ in (200, 0, 0, 255) }).write(to: photo)
        let binary = #expect(throws: MovieMakerError.self) { try SubtitleTrack(contentsOf: photo) }
        #expect(binary?.message.contains("it is a JPEG image, not text") == true && binary?.message.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0xFFFD }) == false, "\(binary?.message ?? "")")
    }

    @Test func subtitleClipsAreDataAndRoundTrip() throws {
        let track = try SubtitleTrack(srt: "1\n00:00:00,500 --> 00:00:01,000\n<i>Hi</i> &amp; bye\n")
        let clip = Clip.color(.black, duration: 2).subtitled(track, style: .boxed)
        let data = try JSONEncoder().encode(clip)
        let back = try JSONDecoder().decode(Clip.self, from: data)
        #expect(back == clip)
        #expect(try back.contentHash() == clip.contentHash())
        let style = try JSONDecoder().decode(SubtitleStyle.self, from: Data(#"{"size": 0.08}"#.utf8))
        #expect(style.size == 0.08 && style.background == .defaultOutline && style.fontFamily == "DejaVu Sans")
    }
}

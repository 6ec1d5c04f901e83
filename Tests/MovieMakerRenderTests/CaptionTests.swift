import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Word-by-word captions rendered into real movies and decoded: the spoken word marked on exactly the
/// frames inside its time, on the right word, and pages made as documented.
@Suite("Word-by-word captions")
struct CaptionTests {
    static let width = 320, height = 240
    static let size = Size(width: 320, height: 240)

    /// Eight words, one every 300 ms: odd words start 17 ms after a frame boundary (every 100 ms is 3
    /// frames at 30 fps); they last 120, 200 or 250 ms, leaving silences with no word spoken.
    static let texts = ["One", "two", "three", "four.", "Five", "six", "seven", "eight"]
    static func startMilliseconds(_ i: Int) -> Int { 300 * i + (i % 2 == 0 ? 0 : 17) }
    static func endMilliseconds(_ i: Int) -> Int { startMilliseconds(i) + [120, 200, 250][i % 3] }
    static func ms(_ n: Int) -> Time { Time(value: Int64(n), timescale: 1000) }
    static var transcript: Transcript {
        Transcript(words: texts.indices.map { TranscriptWord(texts[$0], start: ms(startMilliseconds($0)), end: ms(endMilliseconds($0))) })
    }
    /// The word spoken on frame `k` at 30 fps (start ≤ k/30 < end, in exact integers), if any.
    static func spoken(onFrame k: Int) -> Int? {
        texts.indices.first { startMilliseconds($0) * 30 <= k * 1000 && k * 1000 < endMilliseconds($0) * 30 }
    }

    /// White words, pure red for the mark, no outline: red pixels are the mark and nothing else.
    static func style(_ animation: CaptionStyle.Animation) -> CaptionStyle {
        CaptionStyle(animation, fontSize: 0.1, color: .white, highlightColor: Color(red: 1, green: 0, blue: 0), outlineColor: nil)
    }

    static func render(_ clip: Clip, name: String = #function) throws -> [DecodedFrame] {
        let dir = try TemporaryFolder(name)
        let url = dir.file("captions.mp4")
        let movie = try MovieMaker(url: url, width: width, height: height, fps: 30,
                                   settings: EncoderSettings(crf: 12, preset: .ultrafast, drawingThreads: 3))
        try movie.add(clip)
        try movie.finish()
        return try decodeAll(url)
    }

    /// The box of the red pixels (the mark).
    static func redBox(_ px: PixelBuffer) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
        colorBox(px, red: 151...255, green: 0...79, blue: 0...79)
    }

    /// The laid-out rectangle of word `i` (page and plan from the leaf's own paging).
    static func wordRect(_ i: Int, style: CaptionStyle) throws -> Rect {
        let words = transcript.words
        let pages = try CaptionPaging.pages(of: words, style: style, frameSize: size)
        let page = try #require(pages.first { $0.words.contains(i) })
        let plan = try CaptionPaging.plan(page, words: words, style: style, frameSize: size)
        return plan.wordRects[i - page.words.lowerBound]
    }

    @Test("highlight: the mark is on exactly the frames inside a word's time, on that word, and nowhere in the silences")
    func highlightFollowsTheWords() throws {
        let style = Self.style(.highlight)
        let frames = try Self.render(Clip.color(.black, duration: 3).captioned(Self.transcript, style: style))
        #expect(frames.count == 90)
        var marked = 0
        for frame in frames {
            let red = Self.redBox(frame.pixels)
            guard let i = Self.spoken(onFrame: frame.index) else {
                #expect(red == nil, "frame \(frame.index): no word is spoken but \(red?.count ?? 0) pixels are marked")
                continue
            }
            marked += 1
            guard let red else { Issue.record("frame \(frame.index): \"\(Self.texts[i])\" is spoken but nothing is marked"); continue }
            let r = try Self.wordRect(i, style: style)
            #expect(Double(red.minX) >= r.minX - 2 && Double(red.maxX) <= r.maxX + 2, "frame \(frame.index): the mark \(red) is not on \"\(Self.texts[i])\" at \(r)")
            #expect(red.count > 40, "frame \(frame.index): only \(red.count) marked pixels")
        }
        #expect(marked > 25 && marked < 70, "the timings leave silences: \(marked) of 90 frames have a word spoken")
    }

    @Test("karaoke: the colour sweeps through each word over its time and stays when it ends")
    func karaokeSweeps() throws {
        let style = Self.style(.karaoke)
        let frames = try Self.render(Clip.color(.black, duration: 3).captioned(Self.transcript, style: style))
        // Word 2 ("three", 600–850 ms: frames 18…25): the marked part of its rectangle grows frame by frame.
        let r = try Self.wordRect(2, style: style)
        func markedColumns(_ k: Int) -> Int {
            let px = frames[k].pixels
            var columns = 0
            for x in max(0, Int(r.minX))..<min(Self.width, Int(r.maxX) + 1) {
                if (max(0, Int(r.minY))..<min(Self.height, Int(r.maxY) + 1)).contains(where: { y in
                    let p = px.rgba(x: x, y: y); return p.red > 150 && p.green < 80 && p.blue < 80 }) { columns += 1 }
            }
            return columns
        }
        let sweep = (17...27).map(markedColumns)
        #expect(sweep[0] == 0, "before its start: \(sweep)")
        for k in 1..<sweep.count { #expect(sweep[k] >= sweep[k - 1], "the sweep never goes back: \(sweep)") }
        #expect(sweep[3] > 0 && sweep[3] < sweep[9], "part way, then more: \(sweep)")
        #expect(sweep[9] == sweep[10] && sweep[10] > 5, "whole after its end: \(sweep)")
    }

    @Test("reveal: a word has no ink before it is spoken, and every spoken word stays")
    func revealShowsSpokenWords() throws {
        let style = Self.style(.reveal)
        let frames = try Self.render(Clip.color(.black, duration: 3).captioned(Self.transcript, style: style))
        for k in [0, 5, 10, 14] {   // frames on the first page (words 0–3)
            let started = Self.texts.indices.filter { Self.startMilliseconds($0) * 30 <= k * 1000 && $0 < 4 }
            for i in 0..<4 {
                let r = try Self.wordRect(i, style: style)
                let ink = inkBox(frames[k].pixels, in: (x: Int(r.minX + 1)..<Int(r.maxX - 1), y: Int(r.minY)..<Int(r.maxY)))
                if started.contains(i) {
                    #expect(ink != nil, "frame \(k): \"\(Self.texts[i])\" was spoken but is not shown")
                } else {
                    #expect(ink == nil, "frame \(k): \"\(Self.texts[i])\" is not spoken yet but shows")
                }
            }
        }
    }

    @Test("pages: at most wordsPerPage words, a new page after a sentence and after a pause, lines that fit, exact page times")
    func paging() throws {
        var style = CaptionStyle(wordsPerPage: 3, pauseBreak: Time(value: 1, timescale: 2), hold: Time(value: 1, timescale: 4))
        let words = Self.transcript.words
        let pages = try CaptionPaging.pages(of: words, style: style, frameSize: Size(width: 1920, height: 1080))
        // "One two three" | "four." (sentence) | "Five six seven" | "eight".
        #expect(pages.map(\.words) == [0..<3, 3..<4, 4..<7, 7..<8])
        // A page ends when the next starts, or its last word's end plus the hold if that is sooner.
        #expect(pages[0].end == words[3].start)
        #expect(pages[3].end == words[7].end + Time(value: 1, timescale: 4))
        // A pause longer than pauseBreak starts a page.
        var paused = words
        paused[1].start = paused[0].end + Time(value: 600, timescale: 1000)
        paused[1].end = paused[1].start + Time(value: 100, timescale: 1000)
        let pausedPages = try CaptionPaging.pages(of: paused, style: style, frameSize: Size(width: 1920, height: 1080))
        #expect(pausedPages.first?.words == 0..<1)
        // Lines: long words at a large size page by width (one line of at most 0.5 of the frame).
        style = CaptionStyle(fontSize: 0.2, maximumLines: 1, wordsPerPage: 20, maximumWidth: 0.5)
        let long = Transcript(words: (0..<6).map { TranscriptWord("wonderful", start: Self.ms(300 * $0), end: Self.ms(300 * $0 + 200)) })
        let widthPages = try CaptionPaging.pages(of: long.words, style: style, frameSize: Size(width: 1920, height: 1080))
        #expect(widthPages.count == 6, "\(widthPages.map(\.words))")
        for page in widthPages {
            let plan = try CaptionPaging.plan(page, words: long.words, style: style, frameSize: Size(width: 1920, height: 1080))
            #expect(plan.logical.width <= 0.5 * 1920 + 0.5)
        }
        // A word wider than the line is drawn smaller, not cut.
        let huge = Transcript(words: [TranscriptWord("Incomprehensibilities", start: .zero, end: Self.ms(500))])
        let hugePage = try #require(try CaptionPaging.pages(of: huge.words, style: style, frameSize: Size(width: 1920, height: 1080)).first)
        let hugePlan = try CaptionPaging.plan(hugePage, words: huge.words, style: style, frameSize: Size(width: 1920, height: 1080))
        #expect(hugePlan.fontSize < 0.2 * 1080 && hugePlan.logical.width <= 0.5 * 1920 + 0.5, "\(hugePlan.fontSize), \(hugePlan.logical)")
    }

    @Test("every style stays inside the title-safe area, and concurrent drawing gives the serial frames")
    func everyStyleIsSafeAndDeterministic() throws {
        let rate = FrameRate(30)
        for animation in CaptionStyle.Animation.allCases {
            var style = CaptionStyle(animation, fontSize: 0.12, highlightBackground: Color(red: 0.4, green: 0.1, blue: 0.8))
            style.background = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
            let clip = Clip.color(.black, duration: 3).captioned(Self.transcript, style: style)
            @Sendable func still(_ k: Int) throws -> PixelBuffer { try clip.still(at: rate.time(ofFrame: k), width: 320, height: 240, rate: rate).pixels() }
            let ks = [1, 10, 19, 20, 31, 50, 62, 70]
            let serial = try ks.map(still)
            nonisolated(unsafe) var concurrent = [[UInt8]](repeating: [], count: ks.count)
            let lock = NSLock()
            DispatchQueue.concurrentPerform(iterations: ks.count) { j in
                let bytes = (try? still(ks[j]))?.bytes ?? []
                lock.withLock { concurrent[j] = bytes }
            }
            #expect(serial.map(\.bytes) == concurrent, "\(animation)")
            for (k, px) in zip(ks, serial) {
                // Anything not black (text, outline, boxes) lies in the safe area (5 % margins).
                guard let ink = inkBox(px, threshold: 20) else { continue }
                #expect(ink.minX >= 15 && ink.maxX <= 305 && ink.minY >= 11 && ink.maxY <= 229, "\(animation), frame \(k): \(ink)")
            }
        }
    }

    /// `Tests/Fixtures/captions/`: one talk as whisper, whisper.cpp, karaoke WebVTT and SRT files.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captions")
    /// The talk's words (ms) in every one of the files (the SRT's by the documented spreading rule).
    static let talk: [(String, Int, Int)] = [("Hello,", 500, 900), ("and", 900, 1100), ("welcome", 1100, 1700), ("back.", 1700, 1900),
                                              ("This", 2400, 2600), ("is", 2600, 2800), ("MovieMaker.", 2800, 3600)]

    @Test("whisper, whisper.cpp, karaoke WebVTT and SRT files give the talk's words at their times, told apart by content",
          arguments: [("talk.whisper.json", Transcript.Format.whisperJSON), ("talk.whispercpp.json", .whisperCppJSON),
                      ("talk.karaoke.vtt", .karaokeVTT), ("talk.srt", .subtitles)])
    func readsEveryFormat(_ file: String, format: Transcript.Format) throws {
        let url = Self.fixtures.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(Transcript.format(of: text) == format)
        let words = try Transcript(contentsOf: url).words
        #expect(words.map(\.text) == Self.talk.map(\.0))
        #expect(words.map(\.start) == Self.talk.map { Self.ms($0.1) }, "\(words)")
        #expect(words.map(\.end) == Self.talk.map { Self.ms($0.2) }, "\(words)")
    }

    /// yt-dlp's `--write-auto-subs` WebVTT: each cue opens with a line of one space, then shows the line
    /// before again above the one being spoken, with a 10 ms cue of that line alone between them.
    @Test("YouTube's rolling karaoke WebVTT gives each spoken word once, at its time; entities are decoded as in plain cues")
    func youTubeKaraoke() throws {
        let vtt = """
        WEBVTT
        Kind: captions
        Language: en

        00:00:00.030 --> 00:00:00.900 align:start position:0%
         
        hi<00:00:00.300><c> everyone</c><00:00:00.600><c> welcome</c>

        00:00:00.900 --> 00:00:00.910 align:start position:0%
        hi everyone welcome
         

        00:00:00.910 --> 00:00:01.800 align:start position:0%
        hi everyone welcome
        to<00:00:01.200><c> the</c><00:00:01.500><c> &quot;show&quot;</c><00:00:01.600><c> it&#39;s</c>

        """
        #expect(Transcript.format(of: vtt) == .karaokeVTT)
        let words = try Transcript(parsing: vtt, name: "yt.en.vtt").words
        #expect(words.map(\.text) == ["hi", "everyone", "welcome", "to", "the", "\"show\"", "it's"], "\(words)")
        #expect(words.map(\.start) == [30, 300, 600, 910, 1200, 1500, 1600].map(Self.ms), "\(words)")
    }

    @Test("SRT cue times are shared by the words' vowel groups, exactly")
    func srtSpreading() throws {
        #expect(Transcript.spreadWeight(of: "a") == 1 && Transcript.spreadWeight(of: "extraordinary") == 5)
        let t = try Transcript(parsing: "1\n00:00:01,000 --> 00:00:02,000\na extraordinary\n", name: "x.srt")
        // Weights 1 and 5 of 6: the second word starts 1/6 s into the cue, exactly.
        #expect(t.words.map(\.start) == [Time(value: 1, timescale: 1), Time(value: 7, timescale: 6)])
        #expect(t.words.map(\.end) == [Time(value: 7, timescale: 6), Time(value: 2, timescale: 1)])
    }

    @Test("WhisperX's unaligned words (numbers, with no times) follow the word before, a third of a second each; a word of no length lasts up to a third of a second")
    func untimedAndZeroLengthWords() throws {
        let t = try Transcript(parsing: #"{"segments": [{"words": [{"word": " We", "start": 1.0, "end": 1.2}, {"word": " met", "start": 1.2, "end": 1.4}, {"word": " 1999,", "score": 0}, {"word": " 2000", "score": 0}, {"word": " then", "start": 2.4, "end": 2.6}, {"word": " yes", "start": 3.0, "end": 3.0}, {"word": " no", "start": 3.5, "end": 3.8}]}]}"#, name: "wx.json")
        #expect(t.words.map(\.text) == ["We", "met", "1999,", "2000", "then", "yes", "no"])
        // After "met" (1.4 s), a third of a second each, not the whole second before "then".
        #expect(t.words[2].start == Time(value: 7, timescale: 5) && t.words[2].end == Time(value: 26, timescale: 15) && t.words[3].end == Time(value: 31, timescale: 15))
        #expect(t.words[5].start == 3 && t.words[5].end == Time(value: 10, timescale: 3), "the zero-length word lasts a third of a second, before the next word")
        // A file with no time at all is still an error.
        #expect(throws: MovieMakerError.self) { try Transcript(parsing: #"{"segments": [{"words": [{"word": " Hi"}]}]}"#, name: "none.json") }
    }

    @Test("malformed transcripts are errors naming the file and the JSON path or line")
    func malformedTranscripts() throws {
        func failure(_ text: String, _ name: String) -> MovieMakerError? {
            do { _ = try Transcript(parsing: text, name: name); return nil } catch { return error }
        }
        let noWords = failure(#"{"segments": [{"text": "Hi", "start": 0, "end": 1}]}"#, "a.json")
        #expect(noWords?.code == .invalidSubtitles && noWords?.location?.jsonPath == "segments[0]" && noWords?.message.contains("word_timestamps") == true, "\(String(describing: noWords))")
        let backwards = failure(#"{"segments": [{"words": [{"word": "Hi", "start": 1.5, "end": 1.2}]}]}"#, "b.json")
        #expect(backwards?.location?.jsonPath == "segments[0].words[0].end" && backwards?.message.contains("b.json") == true, "\(String(describing: backwards))")
        let wrongType = failure(#"{"segments": [{"words": [{"word": 3, "start": 1, "end": 2}]}]}"#, "c.json")
        #expect(wrongType?.location?.jsonPath == "segments[0].words[0].word", "\(String(describing: wrongType))")
        let karaoke = failure("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi <00:00:03.000>there\n", "d.vtt")
        #expect(karaoke?.position == 4 && karaoke?.message.contains("d.vtt") == true, "\(String(describing: karaoke))")
        let srt = failure("1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:03,000 --> 00:00:02,000\nThere\n", "e.srt")
        #expect(srt?.code == .invalidSubtitles && srt?.position == 6 && srt?.message.contains("e.srt") == true, "\(String(describing: srt))")
        let unknown = failure("hello\n", "f.txt")
        #expect(unknown?.code == .invalidSubtitles && unknown?.position == 1, "\(String(describing: unknown))")
    }

    @Test("captions read from a whisper file mark each word on exactly the frames of its time")
    func whisperFileRendersAtItsTimes() throws {
        let transcript = try Transcript(contentsOf: Self.fixtures.appendingPathComponent("talk.whisper.json"))
        let frames = try Self.render(Clip.color(.black, duration: 4).captioned(transcript, style: Self.style(.highlight)))
        for frame in frames {
            let spoken = Self.talk.contains { $0.1 * 30 <= frame.index * 1000 && frame.index * 1000 < $0.2 * 30 }
            #expect((Self.redBox(frame.pixels) != nil) == spoken, "frame \(frame.index)")
        }
    }

    @Test("a description's captions item marks the transcript's words from the item's at; a bad transcript names the item's path and its own")
    func descriptionItem() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("talk.whisper.json"), to: folder.file("talk.json"))
        let spec = #"""
            {"version": 1, "output": {"size": "320x240", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "5s"}]},
                        {"kind": "overlay", "items": [{"type": "captions", "source": {"file": "talk.json"}, "at": "1s",
                                                       "highlightColor": "#ff0000", "outlineColor": "none", "fontSize": 0.1}]}]}
            """#
        let timeline = try Timeline(jsonText: spec)
        #expect(try Timeline(jsonText: try timeline.jsonText()) == timeline)
        let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let url = folder.file("out.mp4")
        let movie = try MovieMaker(url: url, width: Self.width, height: Self.height, fps: 30, settings: EncoderSettings(crf: 12, preset: .ultrafast))
        try composition.render(into: movie)
        try movie.finish()
        let frames = try decodeAll(url)
        // The item lasts to its last word's end plus the hold (1 + 3.6 + 0.5 s), but like subtitles it
        // does not make the movie longer than its video (5 s): the hold is cut, with no warning (the
        // words are all inside), rather than shown over the bare canvas.
        #expect(frames.count == 150)
        #expect(!composition.warnings.contains { $0.contains("tracks[1].items[0]") }, "\(composition.warnings)")
        // Words past the video's end are cut, and said.
        let late = try Timeline(jsonText: spec.replacingOccurrences(of: #""at": "1s""#, with: #""at": "3s""#)).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(late.frameCount == 150)
        #expect(late.warnings.contains { $0.contains("tracks[1].items[0]") && $0.contains("captions' words run to 6.600 s") }, "\(late.warnings)")
        for frame in frames {
            // Shifted by the item's at (1 s = 30 frames).
            let k = frame.index - 30
            let spoken = Self.talk.contains { $0.1 * 30 <= k * 1000 && k * 1000 < $0.2 * 30 }
            #expect((Self.redBox(frame.pixels) != nil) == spoken, "frame \(frame.index)")
        }
        // A transcript that is not one: the item's path, then the file's own.
        try #"{"segments": [{"words": [{"word": "Hi", "start": "one", "end": 2}]}]}"#.write(to: folder.file("bad.json"), atomically: true, encoding: .utf8)
        let badTimeline = try Timeline(jsonText: spec.replacingOccurrences(of: "talk.json", with: "bad.json"))
        do {
            _ = try badTimeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
            Issue.record("a bad transcript was read")
        } catch {
            #expect(error.location?.jsonPath == "tracks[1].items[0].source" && error.message.contains("bad.json at segments[0].words[0].start"), "\(error)")
        }
    }

    @Test("Arabic marks the spoken word where it is read, right to left; Japanese pages without spaces; both inside the safe area")
    func rightToLeftAndCJK() throws {
        // Two Arabic words: the first is read first, so it sits on the right.
        let arabic = Transcript(words: [TranscriptWord("مرحبا", start: .zero, end: Self.ms(500)),
                                        TranscriptWord("بالعالم", start: Self.ms(500), end: Self.ms(1000))])
        let style = Self.style(.highlight)
        let frames = try Self.render(Clip.color(.black, duration: 1).captioned(arabic, style: style))
        let first = try #require(Self.redBox(frames[5].pixels)), second = try #require(Self.redBox(frames[20].pixels))
        #expect(first.minX > second.maxX, "the first word read is on the right: first \(first), second \(second)")
        // While the first is marked, the second shows white on its left.
        let rest = try #require(inkBox(frames[5].pixels, threshold: 100))
        #expect(rest.maxX < first.minX, "\(rest)")
        // karaoke sweeps an Arabic word from its right edge.
        let sweep = try Self.render(Clip.color(.black, duration: 1).captioned(arabic, style: Self.style(.karaoke)))
        let partial = try #require(Self.redBox(sweep[6].pixels))
        #expect(partial.maxX >= first.maxX - 2 && partial.minX > first.minX + 3, "the sweep starts at the right: \(partial) in \(first)")

        // Japanese words (whisper gives characters or short tokens) join without spaces and page by width.
        let japanese = Transcript(words: ["東京", "は", "日本", "の", "首都", "です", "。"].enumerated().map { k, w in
            TranscriptWord(w, start: Self.ms(200 * k), end: Self.ms(200 * k + 180)) })
        let pages = try CaptionPaging.pages(of: japanese.words, style: CaptionStyle(wordsPerPage: 20), frameSize: Self.size)
        let plan = try CaptionPaging.plan(try #require(pages.first), words: japanese.words, style: CaptionStyle(wordsPerPage: 20), frameSize: Self.size)
        #expect(plan.text.hasPrefix("東京は日本の首都です"), "\(plan.text)")
        let jframes = try Self.render(Clip.color(.black, duration: 2).captioned(japanese, style: style))
        for k in [1, 10, 25] {
            let ink = try #require(inkBox(jframes[k].pixels, threshold: 100))
            #expect(ink.minX >= 15 && ink.maxX <= 305 && ink.minY >= 11 && ink.maxY <= 229, "frame \(k): \(ink)")
        }
        // Frame 7 (233 ms) is in "は" (200–380 ms): the mark is one character, right of "東京".
        let marked = try #require(Self.redBox(jframes[7].pixels)), before = try #require(Self.redBox(jframes[2].pixels))
        #expect(marked.minX > before.maxX && marked.maxX - marked.minX < before.maxX - before.minX, "\(marked) after \(before)")
    }
}

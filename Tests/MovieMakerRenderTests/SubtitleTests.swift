import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Burned-in subtitles rendered into real movies and decoded: ink exactly on the frames whose time is
/// inside a cue, never outside the safe area, and WebVTT placement honoured.
@Suite("Subtitles")
struct SubtitleTests {
    static let width = 320, height = 240
    /// The title-safe area of a 320×240 frame: 10% margins.
    static let safeX = 32..<288, safeY = 24..<216

    /// 20 cues, one every 200 ms: even cues start on a frame boundary (every 100 ms is 3 frames at
    /// 30 fps), odd ones 17 ms after one; they last 100, 133 or 150 ms, leaving gaps with no cue.
    static let texts = [
        "Hello, world", "مرحبا بالعالم", "こんにちは世界", "<i>Italic</i> and <b>bold</b>", "شكرا جزيلا لكم",
        "字幕のテスト", "Two lines\nof text", "السلام عليكم\nصباح الخير", "日本語の字幕\n二行目", "Fish &amp; chips &lt;3",
        "A very long subtitle line that has to wrap onto several lines and then shrink to stay inside the safe area of this small frame, however long it gets",
        "Ünïcödé àccents", "نص عربي طويل يلتف على عدة أسطر داخل المنطقة الآمنة من الإطار", "東京は日本の首都です。とても大きな都市です。",
        "<u>Underlined</u>", "Mixed English و عربي", "ラーメン", "<font color=\"#ff0000\">Red?</font> no, white", "Last but one", "The end",
    ]
    static func startMilliseconds(_ i: Int) -> Int { 200 * i + (i % 2 == 0 ? 0 : 17) }
    static func endMilliseconds(_ i: Int) -> Int { startMilliseconds(i) + [100, 133, 150][i % 3] }

    static var srt: String {
        func stamp(_ ms: Int) -> String { String(format: "00:00:%02d,%03d", ms / 1000, ms % 1000) }
        return texts.enumerated().map { i, text in
            "\(i + 1)\n\(stamp(startMilliseconds(i))) --> \(stamp(endMilliseconds(i)))\n\(text)\n"
        }.joined(separator: "\n")
    }

    /// Whether a cue covers frame `k` at 30 fps: start ≤ k/30 < end, in exact integers.
    static func cueActive(onFrame k: Int) -> Bool {
        (0..<texts.count).contains { i in startMilliseconds(i) * 30 <= k * 1000 && k * 1000 < endMilliseconds(i) * 30 }
    }

    static func render(_ clip: Clip, name: String = #function) throws -> [DecodedFrame] {
        let dir = try TemporaryFolder(name)
        let url = dir.file("subs.mp4")
        let movie = try MovieMaker(url: url, width: width, height: height, fps: 30,
                                   settings: EncoderSettings(crf: 16, preset: .ultrafast, drawingThreads: 3))
        try movie.add(clip)
        try movie.finish()
        return try decodeAll(url)
    }

    @Test("20 cues in Latin, Arabic and Japanese: ink on exactly the frames inside a cue, all of it in the safe area")
    func inkFollowsCuesAndStaysSafe() throws {
        let track = try SubtitleTrack(srt: Self.srt, name: "mixed.srt")
        #expect(track.cues.count == 20)
        let frames = try Self.render(Clip.color(.black, duration: 4).subtitled(track))
        #expect(frames.count == 120)
        var activeFrames = 0
        for frame in frames {
            let k = frame.index
            let ink = inkBox(frame.pixels)
            if Self.cueActive(onFrame: k) {
                activeFrames += 1
                guard let ink else { Issue.record("frame \(k): a cue is active but nothing is drawn"); continue }
                #expect(ink.count >= 15, "frame \(k): only \(ink.count) bright pixels")
                #expect(ink.minX >= Self.safeX.lowerBound - 1 && ink.maxX <= Self.safeX.upperBound
                        && ink.minY >= Self.safeY.lowerBound - 1 && ink.maxY <= Self.safeY.upperBound,
                        "frame \(k): ink \(ink) outside the safe area \(Self.safeX)×\(Self.safeY)")
                // Bottom placement: single-line cues sit in the lower part of the safe area.
            } else {
                #expect(ink == nil, "frame \(k): no cue is active but \(ink?.count ?? 0) bright pixels were found")
            }
        }
        #expect(activeFrames > 40 && activeFrames < 100, "the timings leave gaps: \(activeFrames) of 120 frames have a cue")
        // A one-line cue sits at the bottom of the safe area, centred.
        let hello = try #require(inkBox(frames[1].pixels))
        #expect(hello.maxY > 190 && hello.maxY <= 216, "\(hello)")
        #expect(abs(Double(hello.minX + hello.maxX) / 2 - 160) < 8, "\(hello)")
        // The long cue (index 10, frames 60–62) wraps and fits.
        let long = try #require(inkBox(frames[61].pixels))
        #expect(long.maxX - long.minX > 200 && long.maxY - long.minY > 30, "wrapped over several wide lines: \(long)")
    }

    @Test("A cue laid out by WebVTT settings: line:0 at the top, position and align at the left")
    func webVTTPlacement() throws {
        let track = try SubtitleTrack(webVTT: """
            WEBVTT

            00:00.000 --> 00:00.200 line:0 align:center
            Top

            00:00.200 --> 00:00.400 line:0 position:10% align:start size:40%
            Left top

            00:00.400 --> 00:00.600 line:50% line:50%,center align:end position:100%
            Right middle

            00:00.600 --> 00:00.800
            Bottom
            """, name: "placed.vtt")
        let frames = try Self.render(Clip.color(.black, duration: Time(value: 4, timescale: 5)).subtitled(track, style: .boxed))
        #expect(frames.count == 24)
        let top = try #require(inkBox(frames[2].pixels))
        #expect(top.minY >= 23 && top.maxY < 60, "line:0 is at the top of the safe area: \(top)")
        #expect(abs(Double(top.minX + top.maxX) / 2 - 160) < 8)
        let left = try #require(inkBox(frames[8].pixels))
        #expect(left.minY >= 23 && left.maxY < 60 && left.minX >= 31 && left.minX < 50 && left.maxX < 170, "\(left)")
        let right = try #require(inkBox(frames[14].pixels))
        #expect(right.maxX <= 288 && right.maxX > 270 && abs(Double(right.minY + right.maxY) / 2 - 120) < 12, "\(right)")
        let bottom = try #require(inkBox(frames[20].pixels))
        #expect(bottom.maxY > 190 && bottom.maxY <= 216, "\(bottom)")
    }

    @Test("The box style draws a translucent box behind the text, inside the safe area")
    func boxStyle() throws {
        let track = try SubtitleTrack(srt: "1\n00:00:00,000 --> 00:00:01,000\nBoxed\n")
        var style = SubtitleStyle.boxed
        style.background = .box(color: Color(red: 0, green: 0, blue: 1, alpha: 1), padding: 0.3, cornerRadius: 0.2)
        let still = try Clip.color(.black, duration: 1).subtitled(track, style: style)
            .still(at: 0, width: Self.width, height: Self.height).pixels()
        let text = try #require(inkBox(still))
        // Blue box pixels around the white text, none outside the safe area.
        var blue = (minX: Int.max, maxX: -1, minY: Int.max, maxY: -1)
        for y in 0..<Self.height { for x in 0..<Self.width {
            let p = still.rgba(x: x, y: y)
            if p.blue > 200 && p.red < 60 { blue = (min(blue.minX, x), max(blue.maxX, x), min(blue.minY, y), max(blue.maxY, y)) }
        } }
        #expect(blue.minX < text.minX && blue.maxX > text.maxX && blue.minY < text.minY && blue.maxY > text.maxY)
        #expect(blue.minX >= 32 && blue.maxX < 288 && blue.minY >= 24 && blue.maxY < 216)
    }

    @Test("Cues are chosen from the frame's exact time, also inside a sequence after another clip")
    func exactTimesInsideASequence() throws {
        // 1001/30000 s frames: a cue from 1.001 s (frame 30 exactly) to 1.050 s shows on frames 30 and 31 (1.0343 s) only, not 32 (1.0677 s).
        let track = try SubtitleTrack(srt: "1\n00:00:01,001 --> 00:00:01,050\nExact\n")
        let clip = Clip.sequence(.color(.black, duration: Time(value: 1001, timescale: 1000)),
                                 Clip.color(.black, duration: 1).subtitled(track.shifted(by: Time(value: -1001, timescale: 1000))))
        let rate = FrameRate.ntsc
        let lit = try (28...33).map { k in inkBox(try clip.still(at: rate.time(ofFrame: k), width: 320, height: 240, rate: rate).pixels()) != nil }
        #expect(lit == [false, false, true, true, false, false], "\(lit)")
    }
}

extension SubtitleTests {
    @Test("Drawing threads share the leaf: concurrent frames match serial ones and the plan cache stays bounded")
    func concurrentDrawingAndBoundedCache() throws {
        var cues: [SubtitleCue] = []
        for i in 0..<300 {
            let markup: String = i % 3 == 0 ? "<b>Cue \(i)</b>" : (i % 3 == 1 ? "نص \(i)" : "字幕 \(i)")
            let start = Time(value: Int64(i), timescale: 10), end = Time(value: Int64(i + 1), timescale: 10)
            cues.append(SubtitleCue(start: start, end: end, markup: markup))
        }
        let clip = Clip.subtitles(SubtitleTrack(cues: cues), duration: 30)
        guard case let .generator(.subtitles(leaf), _) = clip.node else { Issue.record("not a subtitle leaf"); return }
        let rate = FrameRate(10)
        @Sendable func still(_ k: Int) throws -> PixelBuffer { try clip.still(at: rate.time(ofFrame: k), width: 320, height: 240, rate: rate).pixels() }
        let serial = try [0, 1, 2, 150, 299].map(still)
        nonisolated(unsafe) var failures = 0
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 300) { k in
            do {
                let px = try still(k)
                if let i = [0, 1, 2, 150, 299].firstIndex(of: k), psnr(px, serial[i]) < 99 { lock.withLock { failures += 1 } }
                if inkBox(px) == nil { lock.withLock { failures += 1 } }
            } catch { lock.withLock { failures += 1 } }
        }
        #expect(failures == 0)
        let cached = leaf.cache.count
        #expect(cached <= SubtitleLayoutCache.capacity && cached > 200, "\(cached) plans cached")
    }
}

extension SubtitleTrack {
    /// The same cues `offset` later (test helper).
    func shifted(by offset: Time) -> SubtitleTrack {
        SubtitleTrack(cues: cues.map { var c = $0; c.start = c.start + offset; c.end = c.end + offset; return c }, name: name)
    }

}

extension SubtitleTests {
    /// Issue 33, reliability 11: 50,000 cues overlapping within 2 s took 72 s to render a 2-s movie (every
    /// showing cue laid out on every frame). At most `maximumCuesShown` are drawn: the latest to start.
    @Test("50,000 overlapping cues within 2 s render in seconds (about 2 s; it was 72 s), showing the latest cues")
    func denseOverlappingCuesAreBounded() throws {
        let cues = (0..<50_000).map { i in
            SubtitleCue(start: Time(value: Int64(i), timescale: 25_000), end: 2, plainText: "cue \(i)")
        }
        let track = SubtitleTrack(cues: cues)
        let clip = Clip.color(.black, duration: 2).subtitled(track)
        let started = Date()
        let frames = try clip.renderFrames(0..<20, width: 320, height: 240, rate: 10)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 20, "20 frames took \(elapsed) s")
        #expect(frames.count == 20)
        #expect(track.activeIndices(at: 1, limit: Clip.SubtitleLeaf.maximumCuesShown) == Array(24_993...25_000),
                "the latest cues to start are drawn")
        // Text shows on the last frame (the safe area holds light pixels).
        let last = frames[19]
        var light = 0
        for y in stride(from: 120, to: 230, by: 2) { for x in stride(from: 20, to: 300, by: 2) where last.rgba(x: x, y: y).red > 128 { light += 1 } }
        #expect(light > 20, "no subtitle text drawn: \(light) light pixels")
    }

    /// Issue 33, reliability 12: a subtitle cue at one hour turned a 1-second description into an
    /// hour-long movie. Subtitles without a duration no longer lengthen the movie: the cues past its end
    /// are cut, and the composition says so; subtitles alone still last as long as their cues.
    @Test("a cue at one hour does not make a 1-s description an hour long; it is cut, with a warning")
    func aLateCueDoesNotLengthenTheMovie() throws {
        let folder = try TemporaryFolder()
        try "1\n00:00:00,000 --> 00:00:00,800\nHello\n\n2\n01:00:00,000 --> 01:00:01,000\nLate\n".write(to: folder.file("s.srt"), atomically: true, encoding: .utf8)
        let spec = #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": 1}]}, {"kind": "overlay", "items": [{"type": "subtitles", "file": "s.srt"}]}]}"#
        let composition = try Timeline(jsonText: spec).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(composition.duration == 1, "the movie lasts \(composition.duration)")
        #expect(composition.warnings.contains { $0.contains("tracks[1].items[0]") && $0.contains("past the movie's end") }, "\(composition.warnings)")
        let alone = #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "overlay", "items": [{"type": "subtitles", "file": "s.srt"}]}]}"#
        #expect(try Timeline(jsonText: alone).composition(Timeline.RenderOptions(mediaFolder: folder.url)).duration == 3601)
    }
}

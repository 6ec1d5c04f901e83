import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Narration spoken by eSpeak NG in real movies, decoded: scenes cut on the voice's bookmarks and end,
/// captions of the voice marking each word on exactly its frames, in English, Arabic and Japanese.
@Suite("Narration in movies")
struct NarrationRenderTests {
    static let width = 320, height = 240

    /// The dominant colour of a frame's centre: 0 red, 1 green, 2 blue.
    static func scene(_ px: PixelBuffer) -> Int {
        let p = px.rgba(x: width / 2, y: height / 2)
        let c = [Int(p.red), Int(p.green), Int(p.blue)]
        return c.firstIndex(of: c.max()!)!
    }

    @Test("items timed until a narration's bookmarks and end cut there (±1 frame); its captions are its words exactly; the mix is at −16 LUFS")
    func scenesFollowTheVoice() throws {
        let folder = try TemporaryFolder()
        try AudioInTesting.makeWAV(folder.file("music.wav"), expression: "0.3*sin(2*PI*220*t)|0.3*sin(2*PI*220*t)", seconds: 12)
        let text = "Here is the first scene. <mark name=\"two\"/> Now the second one begins. <mark name=\"three\"/> And this is the last."
        let spec = """
            {"version": 1, "output": {"size": "320x240", "fps": 30, "audio": {"loudness": -16}},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#c00000", "duration": {"mark": "n1#two"}},
                                                     {"type": "color", "color": "#00c000", "duration": {"mark": "n1#three"}},
                                                     {"type": "color", "color": "#0000c0", "duration": {"until": "n1"}}]},
                        {"kind": "overlay", "items": [{"type": "captions", "narration": "n1", "style": "reveal"}]},
                        {"kind": "audio", "items": [{"type": "music", "source": {"file": "music.wav"}},
                                                    {"type": "narration", "id": "n1", "at": "0.5s", "text": \(JSONValue.string(text).compactText), "rate": 190}]}]}
            """
        let timeline = try Timeline(jsonText: spec)
        #expect(try Timeline(jsonText: try timeline.jsonText()) == timeline, "the narration points are written back as read")
        let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let voice = try Narration(text, rate: 190)
        let half = Time(value: 1, timescale: 2)
        let cut1 = half + voice.time(ofMark: "two")!, cut2 = half + voice.time(ofMark: "three")!, end = half + voice.length
        #expect(composition.duration == end)

        // The captions item shows the narration's own words, moved to where it plays.
        let placed = composition.picture.leafPlacements.compactMap { p -> Transcript? in
            guard case let .generator(.captions(leaf), _) = p.clip.node else { return nil }
            return p.range.start == .zero ? leaf.transcript : nil
        }
        #expect(placed == [Transcript(words: voice.transcript.words.map { TranscriptWord($0.text, start: $0.start + half, end: $0.end + half) })])

        let url = folder.file("narrated.mp4")
        try composition.render(to: url)
        let frames = try decodeAll(url)
        let rate = FrameRate(30)
        #expect(frames.count == rate.frameCount(for: end))
        let firstGreen = try #require(frames.first { Self.scene($0.pixels) == 1 }).index
        let firstBlue = try #require(frames.first { Self.scene($0.pixels) == 2 }).index
        #expect(abs(firstGreen - rate.frameCount(for: cut1)) <= 1, "cut at frame \(firstGreen), the bookmark at \(cut1.seconds) s")
        #expect(abs(firstBlue - rate.frameCount(for: cut2)) <= 1, "cut at frame \(firstBlue), the bookmark at \(cut2.seconds) s")
        #expect(frames.prefix(firstGreen).allSatisfy { Self.scene($0.pixels) == 0 })

        // Loudness of both channels, decoded by ffmpeg.
        var meter = LoudnessMeter()
        meter.add(try AudioInTesting.ffmpegSamples(url, channels: 2))
        #expect(abs(meter.integratedLoudness + 16) <= 1, "\(meter.integratedLoudness) LUFS")
    }

    @Test("a narration point names what is wrong: an unknown narration or bookmark, a point before the item, a duplicate id")
    func badPoints() throws {
        func failure(_ duration: String, narrationID: String = "n1", second: String = "") throws -> MovieMakerError? {
            let spec = """
                {"version": 1, "output": {"size": "320x240", "fps": 30},
                 "tracks": [{"kind": "overlay", "items": [{"type": "color", "color": "red", "at": "9s", "duration": \(duration)}]},
                            {"kind": "audio", "items": [{"type": "narration", "id": "\(narrationID)", "text": "One <mark name=\\"cut\\"/> two."}\(second)]}]}
                """
            do { _ = try Timeline(jsonText: spec).composition(); return nil } catch { return error }
        }
        let unknown = try #require(try failure(#"{"until": "n2"}"#))
        #expect(unknown.location?.jsonPath == "tracks[0].items[0].duration.until" && unknown.message.contains("\"n2\"")
                && unknown.message.contains("did you mean \"n1\""), "\(unknown)")
        let mark = try #require(try failure(#"{"mark": "n1#cat"}"#))
        #expect(mark.location?.jsonPath == "tracks[0].items[0].duration.mark" && mark.message.contains("did you mean \"cut\""), "\(mark)")
        let early = try #require(try failure(#"{"until": "n1"}"#))
        #expect(early.message.contains("not after the item's start at 9.000 s"), "\(early)")
        let twice = try #require(try failure(#"{"until": "n1"}"#, second: #", {"type": "narration", "id": "n1", "text": "Again."}"#))
        #expect(twice.location?.jsonPath == "tracks[1].items[1].id" && twice.message.contains("already the id"), "\(twice)")
        do {
            _ = try Timeline(jsonText: """
                {"version": 1, "output": {"duration": "1s"}, "tracks": [{"kind": "audio", "items": [{"type": "narration", "id": "n", "text": "Hi.", "voice": "en-usa"}]}]}
                """).composition()
            Issue.record("an unknown voice was accepted")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].voice" && error.message.contains("en-usa") && error.message.contains("did you mean \"en-us\""), "\(error)")
        }
        // Malformed points are refused when read.
        for (point, message) in [(#"{"until": "n1#cut"}"#, "for one of its bookmarks"), (#"{"mark": "n1"}"#, "narration#bookmark"),
                                 (#"{"untill": "n1"}"#, "did you mean \"until\"")] {
            do {
                _ = try Timeline(jsonText: """
                    {"version": 1, "tracks": [{"kind": "video", "items": [{"type": "gap", "duration": \(point)}]}]}
                    """)
                Issue.record("\(point) was read")
            } catch {
                #expect(error.message.contains(message), "\(point): \(error)")
            }
        }
    }

    @Test("a video item's captions: a script aligned to its own sound, or a transcript file, shown from its in; bad ones name their path")
    func videoItemCaptions() throws {
        let folder = try TemporaryFolder()
        let script = "The keeper climbed the narrow stairs. He lit the great lamp for the sailors at sea."
        let voice = try Narration(script, voice: "en-us")
        // A clip whose sound is the voice, a second in.
        let movie = try MovieMaker(url: folder.file("talk.mp4"), width: 160, height: 120, fps: 30, settings: EncoderSettings(preset: .ultrafast))
        var sound = AudioMix()
        sound.add(voice, at: 1, role: .unaffected)
        try movie.addAudio(sound)
        try movie.add(Clip.color(.gray, duration: voice.length + 1))
        try movie.finish()
        try script.write(to: folder.file("talk.txt"), atomically: true, encoding: .utf8)
        // A transcript of the file: the voice's words, a second in.
        try Transcript(words: voice.transcript.words.map { TranscriptWord($0.text, start: $0.start + 1, end: $0.end + 1) }).whisperJSON()
            .write(to: folder.file("voice.json"), atomically: true, encoding: .utf8)

        for words in [#"{"align": {"file": "talk.txt"}}"#, #"{"transcript": {"file": "voice.json"}, "style": "pop"}"#] {
            let spec = """
                {"version": 1, "output": {"size": "160x120", "fps": 30},
                 "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "talk.mp4"}, "in": "0.5s", "captions": \(words)}]}]}
                """
            let timeline = try Timeline(jsonText: spec)
            #expect(try Timeline(jsonText: try timeline.jsonText()) == timeline)
            let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
            let shown = composition.picture.leafPlacements.compactMap { p -> Transcript? in
                guard case let .generator(.captions(leaf), _) = p.clip.node else { return nil }
                return leaf.transcript
            }
            let words = try #require(shown.first, "\(words): no captions").words
            #expect(words.map(\.text) == voice.transcript.words.map(\.text), "\(words)")
            // The voice starts 1 s into the file and the item plays from 0.5 s: each word shows 0.5 s after
            // the voice's own start (aligned: within 0.1 s; from the transcript file: to its microseconds).
            let tolerance = words.count > 0 && spec.contains("align") ? 0.1 : 0.000_01
            for (k, (w, v)) in zip(words, voice.transcript.words).enumerated() where voice.startsFromSynthesizer[k] {
                #expect(abs((w.start - v.start).seconds - 0.5) <= tolerance, "\(w.text): \(w.start.seconds) s, the voice's \(v.start.seconds) s")
            }
        }
        // The captions go over the item's filters and transform, not through them: a blurred or shrunk
        // video keeps readable, full-size captions.
        let edited = try Timeline(jsonText: """
            {"version": 1, "output": {"size": "160x120", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "talk.mp4"}, "captions": {"transcript": {"file": "voice.json"}},
                                                     "filters": [{"name": "blur", "radius": 6}], "transform": {"scale": 0.4}}]}]}
            """).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let captionsLeaf = try #require(edited.picture.leafPlacements.first { if case .generator(.captions, _) = $0.clip.node { true } else { false } })
        var node = edited.picture
        var above: [String] = []
        for index in captionsLeaf.path {
            switch node.node {
            case .filtered: above.append("filters")
            case .transformed: above.append("transform")
            default: break
            }
            node = node.node.children[index]
        }
        #expect(above.isEmpty, "the captions are drawn through the item's \(above)")
        // Mistakes name the captions' path.
        for (captions, path, message) in [
            (#"{"align": {"file": "talk.txt"}, "transcript": {"file": "voice.json"}}"#, "tracks[0].items[0].captions", "not both"),
            (#"{"style": "pop"}"#, "tracks[0].items[0].captions", "needs \"transcript\""),
            (#"{"align": {"file": "nothing.txt"}}"#, "tracks[0].items[0].captions.align.file", "no such file"),
        ] {
            do {
                _ = try Timeline(jsonText: """
                    {"version": 1, "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "talk.mp4"}, "captions": \(captions)}]}]}
                    """).composition(Timeline.RenderOptions(mediaFolder: folder.url))
                Issue.record("\(captions) was accepted")
            } catch {
                #expect(error.location?.jsonPath == path && error.message.contains(message), "\(captions): \(error)")
            }
        }
    }

    /// White words, pure red for the spoken word, no outline.
    static let highlight = CaptionStyle(.highlight, fontSize: 0.09, color: .white, highlightColor: Color(red: 1, green: 0, blue: 0), outlineColor: nil)

    @Test("eSpeak NG speech in English, Arabic and Japanese: the spoken word is marked on exactly its frames, on that word, inside the safe area",
          arguments: [("en-us", "Captions follow the voice, word by word. Then they wait."),
                      ("ar", "مرحبا بكم في هذا الفيلم. نحن نتكلم الآن."),
                      ("ja", "きょう は いい てんき です。 さあ いきましょう。")])
    func captionsOfSpeech(voice: String, text: String) throws {
        let narration = try Narration(text, voice: voice)
        let words = narration.transcript.words
        let style = Self.highlight
        let duration = narration.length
        let folder = try TemporaryFolder("captions-\(voice)")
        let url = folder.file("speech.mp4")
        let movie = try MovieMaker(url: url, width: Self.width, height: Self.height, fps: 30, settings: EncoderSettings(crf: 12, preset: .ultrafast))
        try movie.addAudio(narration)
        try movie.add(Clip.color(.black, duration: duration).captioned(narration.transcript, style: style))
        try movie.finish()
        let frames = try decodeAll(url)
        let size = Size(width: Double(Self.width), height: Double(Self.height))
        let pages = try CaptionPaging.pages(of: words, style: style, frameSize: size)
        var marked = 0
        for frame in frames {
            let t = FrameRate(30).time(ofFrame: frame.index)
            let red = CaptionTests.redBox(frame.pixels)
            guard let i = words.indices.first(where: { words[$0].start <= t && t < words[$0].end }) else {
                #expect(red == nil, "\(voice) frame \(frame.index): no word is spoken but \(red?.count ?? 0) pixels are marked")
                continue
            }
            marked += 1
            guard let red else { Issue.record("\(voice) frame \(frame.index): \"\(words[i].text)\" is spoken but nothing is marked"); continue }
            let page = try #require(pages.first { $0.words.contains(i) })
            let r = try CaptionPaging.plan(page, words: words, style: style, frameSize: size).wordRects[i - page.words.lowerBound]
            #expect(Double(red.minX) >= r.minX - 2 && Double(red.maxX) <= r.maxX + 2,
                    "\(voice) frame \(frame.index): the mark \(red) is not on \"\(words[i].text)\" at \(r)")
            if let ink = inkBox(frame.pixels, threshold: 20) {
                #expect(ink.minX >= 15 && ink.maxX <= 305 && ink.minY >= 11 && ink.maxY <= 229, "\(voice) frame \(frame.index): \(ink)")
            }
        }
        #expect(marked > frames.count / 3, "\(voice): \(marked) of \(frames.count) frames have a word spoken")
        if voice == "ar" {
            // Read right to left: the first word's mark is right of the second's.
            let first = try #require(frames.first { words[0].start <= FrameRate(30).time(ofFrame: $0.index) && FrameRate(30).time(ofFrame: $0.index) < words[0].end })
            let second = try #require(frames.first { words[1].start <= FrameRate(30).time(ofFrame: $0.index) && FrameRate(30).time(ofFrame: $0.index) < words[1].end })
            #expect(CaptionTests.redBox(first.pixels)!.minX > CaptionTests.redBox(second.pixels)!.maxX)
        }
    }
}

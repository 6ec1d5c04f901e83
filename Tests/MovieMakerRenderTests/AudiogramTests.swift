import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Audiograms rendered into movies and decoded: the spectrum lights the right band, silence is flat,
/// the level meter peaks on the frame holding a click, and renders repeat byte for byte.
@Suite("Audiograms")
struct AudiogramTests {
    static let width = 320, height = 240

    /// Renders `clip` (with `sound` as the movie's sound when given) and decodes it.
    static func render(_ clip: Clip, sound: (any AudioSource)? = nil, name: String = #function) throws -> (frames: [DecodedFrame], url: URL, folder: TemporaryFolder) {
        let folder = try TemporaryFolder(name)
        let url = folder.file("audiogram.mp4")
        let movie = try MovieMaker(url: url, width: width, height: height, fps: 30, settings: EncoderSettings(crf: 12, preset: .ultrafast, drawingThreads: 3))
        if let sound { try movie.addAudio(sound) }
        try movie.add(Clip.overlay(Clip.color(.black, duration: clip.duration), clip))
        try movie.finish()
        return (try decodeAll(url), url, folder)
    }

    /// The height (fraction of the frame) of the light column at `x`, counted up from the bottom.
    static func columnHeight(_ px: PixelBuffer, x: Int) -> Double {
        var n = 0
        for y in stride(from: px.height - 1, through: 0, by: -1) where px.rgba(x: x, y: y).green > 128 { n += 1 }
        return Double(n) / Double(px.height)
    }

    /// The bands' heights in a frame of 48 spectrum bars over the whole frame.
    static func barHeights(_ px: PixelBuffer, count: Int = 48) -> [Double] {
        (0..<count).map { k in columnHeight(px, x: Int((Double(k) + 0.5) * Double(width) / Double(count))) }
    }

    /// The band (of 48 over 50–12,000 Hz, log-spaced) holding `f`.
    static func band(of f: Double) -> Int { Int(log(f / 50) / log(12_000.0 / 50) * 48) }

    @Test("a 440 Hz tone lights its band, and no band more than two away rises above 10 %; silence gives flat bars")
    func toneAndSilence() throws {
        // The tone starts before the clip and goes on past it: a tone starting or stopping inside the
        // FFT's window splashes over every band.
        let tone = ProceduralSound.tone(frequency: 440, amplitude: 0.5, duration: 2)
        let visualizer = AudioVisualizer(.spectrum, color: .white)
        let (frames, _, _) = try Self.render(try Clip.audiogram(of: tone, from: Time(value: 1, timescale: 2), visualizer: visualizer, duration: 1))
        #expect(frames.count == 30)
        let lit = Self.band(of: 440)
        for frame in frames {
            let heights = Self.barHeights(frame.pixels)
            #expect(heights[lit] > 0.8, "frame \(frame.index): band \(lit) (440 Hz) is at \(heights[lit])")
            for (k, h) in heights.enumerated() where abs(k - lit) > 2 {
                #expect(h <= 0.1, "frame \(frame.index): band \(k), \(abs(k - lit)) from 440 Hz's, is at \(h): \(heights.map { Int($0 * 100) })")
            }
        }
        let silence = ProceduralSound.silence(duration: 1)
        let (quiet, _, _) = try Self.render(try Clip.audiogram(of: silence, visualizer: visualizer, duration: 1))
        for frame in quiet {
            let heights = Self.barHeights(frame.pixels)
            #expect(Set(heights).count == 1 && heights[0] > 0 && heights[0] < 0.05, "frame \(frame.index): \(Set(heights))")
        }
    }

    @Test("a click at time t peaks the level meter on the frame that contains t", arguments: [Time(value: 1013, timescale: 1000), Time(value: 1, timescale: 2)])
    func clickPeaksTheMeter(at t: Time) throws {
        let click = ProceduralSound.click(at: t, amplitude: 0.8)
        let meter = AudioVisualizer(.level, color: Color(red: 0, green: 1, blue: 0), trackColor: .black, area: Rect(x: 0, y: 0.4, width: 1, height: 0.2))
        let (frames, _, _) = try Self.render(try Clip.audiogram(of: click, visualizer: meter, duration: 2), sound: click)
        let widths = frames.map { frame -> Int in (0..<Self.width).filter { frame.pixels.rgba(x: $0, y: Self.height / 2).green > 128 }.count }
        let peak = widths.indices.max { widths[$0] < widths[$1] }!
        #expect(peak == FrameRate(30).frameIndex(at: t), "the meter peaks on frame \(peak); the click is at \(t.seconds) s: \(widths)")
        #expect(widths[peak] > Self.width * 9 / 10)
        // Before the click the meter is dark; after it, it falls.
        #expect(widths[..<peak].allSatisfy { $0 < 2 })
        #expect(widths[peak + 1] < widths[peak] && widths[peak + 12] < Self.width / 20, "\(widths[peak...].prefix(14))")
    }

    @Test("every style renders a file's sound the same on two renders, byte for byte, with drawing threads")
    func twoRendersAreIdentical() throws {
        let folder = try TemporaryFolder()
        try AudioInTesting.makeWAV(folder.file("speechy.wav"), expression: "0.4*sin(2*PI*(200+300*t)*t)*sin(2*PI*3*t)|0.4*sin(2*PI*330*t)", seconds: 1.5)
        let file = try AudioFile(url: folder.file("speechy.wav"))
        var clips: [Clip] = []
        for style in AudioVisualizer.Style.allCases {
            for shape in style == .waveform ? AudioVisualizer.WaveformShape.allCases : [.mirrored] {
                let v = AudioVisualizer(style, waveformShape: shape, color: .white, barCount: 24, attack: Time(value: 1, timescale: 15))
                clips.append(try Clip.audiogram(of: file, from: Time(value: 1, timescale: 4), visualizer: v, duration: 1))
            }
        }
        let clip = Clip.sequence(clips)
        let a = try Self.render(clip, name: "first"), b = try Self.render(clip, name: "second")
        #expect(try Data(contentsOf: a.url) == Data(contentsOf: b.url))
        #expect(a.frames.count == 30 * clips.count)
        // Each style draws something.
        for k in clips.indices {
            #expect(inkBox(a.frames[k * 30 + 15].pixels, threshold: 60) != nil, "clip \(k) draws nothing")
        }
    }

    @Test("a description's audiogram draws a file from its in, and a narration where it plays; bad ones name their JSON path")
    func descriptionItems() throws {
        let folder = try TemporaryFolder()
        // Silence, then a tone from 1 s.
        try AudioInTesting.makeWAV(folder.file("late.wav"), expression: "if(gt(t,1),0.5*sin(2*PI*440*t),0)|if(gt(t,1),0.5*sin(2*PI*440*t),0)", seconds: 2)
        let spec = """
            {"version": 1, "output": {"size": "320x240", "fps": 30},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "3s"}]},
                        {"kind": "overlay", "items": [
                          {"type": "audiogram", "source": {"file": "late.wav"}, "in": "0.5s", "style": "level", "color": "#00ff00", "trackColor": "black",
                           "area": {"x": 0, "y": 0, "width": 1, "height": 0.2}},
                          {"type": "audiogram", "narration": "n1", "style": "level", "color": "#00ff00", "trackColor": "black",
                           "area": {"x": 0, "y": 0.8, "width": 1, "height": 0.2}}]},
                        {"kind": "audio", "items": [{"type": "narration", "id": "n1", "at": "1s", "text": "Hello there."}]}]}
            """
        let timeline = try Timeline(jsonText: spec)
        #expect(try Timeline(jsonText: try timeline.jsonText()) == timeline)
        let url = folder.file("out.mp4")
        try timeline.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url, preset: .ultrafast))
        let frames = try decodeAll(url)
        func lit(_ frame: DecodedFrame, y: Int) -> Bool { frame.pixels.rgba(x: 5, y: y).green > 128 }
        // The file's tone starts 1 s in, the item plays from 0.5 s: lit from 0.5 s (frame 15) on.
        #expect(frames.firstIndex { lit($0, y: 24) } == 15, "\(frames.map { lit($0, y: 24) })")
        #expect(frames[15..<45].allSatisfy { lit($0, y: 24) })
        // The narration speaks from 1 s (frame 30): dark before it.
        let voice = frames.firstIndex { lit($0, y: 216) }
        #expect(voice != nil && (30...33).contains(voice!), "the narration's meter lights at frame \(String(describing: voice))")

        for (bad, path, message) in [
            (#""narration": "n2""#, "tracks[1].items[1].narration", "no narration has the id \"n2\""),
            (#""source": {"file": "late.wav"}, "narration": "n1""#, "tracks[1].items[1].narration", "not both"),
            (#""source": {"file": "nothing.wav"}"#, "tracks[1].items[1].source.file", "no such file"),
            // A value out of its range is named at its own key.
            (#""narration": "n1", "attack": "12s""#, "tracks[1].items[1].attack", "0 to 10 seconds"),
            (#""narration": "n1", "release": "11s""#, "tracks[1].items[1].release", "0 to 10 seconds"),
        ] {
            let broken = spec.replacingOccurrences(of: #""narration": "n1", "style": "level""#, with: bad + #", "style": "level""#)
            do {
                _ = try Timeline(jsonText: broken).composition(Timeline.RenderOptions(mediaFolder: folder.url))
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.location?.jsonPath == path && error.message.contains(message), "\(bad): \(error)")
            }
        }
        // An area reaching past the frame is named at area, with the sum that is too large.
        let outside = spec.replacingOccurrences(of: #""area": {"x": 0, "y": 0.8, "width": 1, "height": 0.2}"#,
                                                with: #""area": {"x": 0.5, "y": 0.8, "width": 1, "height": 0.2}"#)
        do {
            _ = try Timeline(jsonText: outside)
            Issue.record("an area past the frame's edge was accepted")
        } catch {
            #expect(error.location?.jsonPath == "tracks[1].items[1].area" && error.message.contains("x + width 1.5"), "\(error)")
        }
    }

    @Test("bad settings are typed errors naming the setting and its range; a missing file fails when the render opens")
    func errors() throws {
        let tone = ProceduralSound.tone(frequency: 440, duration: 1)
        let cases: [(AudioVisualizer, SettingKey)] = [
            (AudioVisualizer(barCount: 1), .audiogramBars), (AudioVisualizer(gap: 0.95), .audiogramGap),
            (AudioVisualizer(frequencies: 10...100), .audiogramFrequencies), (AudioVisualizer(floor: 0), .audiogramFloor),
            (AudioVisualizer(release: -1), .audiogramSmoothing), (AudioVisualizer(area: Rect(x: 0.5, y: 0, width: 0.6, height: 1)), .audiogramArea),
        ]
        for (v, key) in cases {
            do { _ = try Clip.audiogram(of: tone, visualizer: v, duration: 1); Issue.record("\(key) accepted") } catch {
                #expect(error.setting == key, "\(error)")
            }
        }
        let folder = try TemporaryFolder()
        try AudioInTesting.makeWAV(folder.file("gone.wav"), seconds: 1)
        let file = try AudioFile(url: folder.file("gone.wav"))
        try FileManager.default.removeItem(at: folder.file("gone.wav"))
        let movie = try MovieMaker(url: folder.file("out.mp4"), width: 64, height: 48, fps: 30)
        do {
            try movie.add(try Clip.audiogram(of: file, visualizer: AudioVisualizer(), duration: 1))
            try movie.finish()
            Issue.record("a missing sound was drawn")
        } catch {
            movie.cancel()
            #expect("\(error)".contains("gone.wav"), "the error does not name the missing file: \(error)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("out.mp4").path))
        }
    }
}

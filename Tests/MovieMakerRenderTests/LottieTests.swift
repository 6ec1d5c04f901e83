import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Lottie animations drawn by rlottie into movies and decoded: where a moving square is at each frame,
/// a recoloured layer, broken files refused before the first frame, lanes that change nothing.
@Suite("Lottie animations")
struct LottieTests {
    // A square going right along the top, then down-left to the bottom middle, over 2 s at 25 fps.
    static let path = [LottieFixture.Waypoint(frame: 0, x: 40, y: 60), LottieFixture.Waypoint(frame: 25, x: 280, y: 60),
                       LottieFixture.Waypoint(frame: 50, x: 160, y: 200)]

    static func render(_ clip: Clip, threads: Int, to url: URL) throws {
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: EncoderSettings(crf: 10, preset: .ultrafast, drawingThreads: threads))
        try movie.add(clip)
        try movie.finish()
    }

    /// The centre of the pixels that are clearly red.
    static func redCentre(_ px: PixelBuffer) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<px.height {
            for x in 0..<px.width {
                let p = px.rgba(x: x, y: y)
                if p.red > 160 && p.green < 90 && p.blue < 90 { sx += Double(x) + 0.5; sy += Double(y) + 0.5; n += 1 }
            }
        }
        return n > 0 ? (sx / n, sy / n) : nil
    }

    @Test("a 25 fps square drawn into a 30 fps movie is where the maths puts it at 5 frames (±1 px), the bg layer takes its new colour, and 4 lanes give 1 lane's bytes")
    func squareFollowsItsPath() throws {
        let folder = try TemporaryFolder()
        let json = folder.file("square.json")
        try LottieFixture.movingSquare(path: Self.path).write(to: json)
        let clip = try Clip.lottie(json, colors: ["bg": Color(red: 0, green: 0.75, blue: 0)])
        #expect(clip.duration == 2)
        let one = folder.file("one.mp4"), four = folder.file("four.mp4")
        try Self.render(clip, threads: 1, to: one)
        try Self.render(clip, threads: 4, to: four)
        #expect(try Data(contentsOf: one) == Data(contentsOf: four), "a render with 4 drawing lanes differs from one with 1")

        let frames = try decodeAll(one)
        #expect(frames.count == 60)
        for i in [0, 7, 29, 44, 59] {
            // Movie frame i at 30 fps shows the animation's frame ⌊i × 25 / 30⌋.
            let k = Double(i * 25 / 30)
            let expected = LottieFixture.position(at: k, along: Self.path)
            guard let found = Self.redCentre(frames[i].pixels) else { Issue.record("frame \(i): no red square"); continue }
            #expect(abs(found.x - expected.x) <= 1 && abs(found.y - expected.y) <= 1,
                    "frame \(i) (Lottie frame \(Int(k))): the square is at (\(found.x), \(found.y)), the maths says (\(expected.x), \(expected.y))")
        }
        // The background layer, blue in the file, is the green it was given.
        let corner = frames[10].pixels.rgba(x: 4, y: 236)
        #expect(corner.red < 20 && abs(Int(corner.green) - 191) <= 6 && corner.blue < 20, "the bg layer's colour: \(corner)")
    }

    /// Stretched to another shape, it is rendered at the larger of the two scales and squeezed along the
    /// other axis: it was rendered at the smaller and enlarged, soft along the stretched axis.
    @Test("stretched into a wider frame, the square's left and right edges stay sharp")
    func stretchIsSharp() throws {
        let folder = try TemporaryFolder()
        let json = folder.file("square.json")
        try LottieFixture.movingSquare(path: Self.path).write(to: json)
        // 320×240 into 640×120: twice as wide, half as tall. The square (x 30…50, y 50…70) lands on x 60…100, y 25…35.
        let still = try Clip.lottie(json, fit: .stretch).still(at: .zero, width: 640, height: 120).pixels()
        let row = (0..<640).map { still.rgba(x: $0, y: 30) }
        let red = row.filter { $0.red > 200 && $0.blue < 55 }.count
        let mixed = row.filter { $0.red > 55 && $0.blue > 55 }.count
        #expect(abs(red - 40) <= 1, "the square is 40 px wide: \(red)")
        #expect(mixed <= 2, "edges blurred over \(mixed) px")
    }

    @Test("played at speed 2 without a loop, it lasts half as long and holds its last frame when the clip is longer")
    func speedAndHold() throws {
        let folder = try TemporaryFolder()
        let json = folder.file("square.json")
        try LottieFixture.movingSquare(path: Self.path).write(to: json)
        #expect(try Clip.lottie(json, speed: 2).duration == 1)
        let url = folder.file("held.mp4")
        try Self.render(try Clip.lottie(json, duration: 2, speed: 2, loop: false), threads: 2, to: url)
        let frames = try decodeAll(url)
        let end = LottieFixture.position(at: 49, along: Self.path)
        for i in [40, 59] {
            let found = try #require(Self.redCentre(frames[i].pixels))
            #expect(abs(found.x - end.x) <= 1 && abs(found.y - end.y) <= 1, "frame \(i): \(found), the last frame's \(end)")
        }
        // With the loop (the default), 1.5 s in at speed 2 is 3 s into a 2 s animation: its frame 25.
        let looped = folder.file("looped.mp4")
        try Self.render(try Clip.lottie(json, duration: 2, speed: 2), threads: 2, to: looped)
        let found = try #require(Self.redCentre(try decodeAll(looped)[45].pixels))
        let expected = LottieFixture.position(at: 25, along: Self.path)
        #expect(abs(found.x - expected.x) <= 1 && abs(found.y - expected.y) <= 1, "\(found) vs \(expected)")
    }

    @Test("a missing file, text that is not JSON, JSON that is not Lottie, a text layer and an unknown layer in colors are typed errors naming the file")
    func brokenFilesAreRefused() throws {
        let folder = try TemporaryFolder()
        let good = folder.file("square.json")
        try LottieFixture.movingSquare(path: Self.path).write(to: good)
        let notJSON = folder.file("broken.json")
        try Data("{\"v\": \"5.5.2\", \"layers\": [".utf8).write(to: notJSON)
        let notLottie = folder.file("package.json")
        try Data(#"{"name": "my-app", "version": "1.0.0"}"#.utf8).write(to: notLottie)
        let text = folder.file("text.json")
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: good)) as! [String: Any]
        root["layers"] = (root["layers"] as! [Any]) + [["ty": 5, "nm": "Headline", "ind": 3, "ip": 0, "op": 50, "st": 0, "ks": [:], "t": [:]] as [String: Any]]
        try JSONSerialization.data(withJSONObject: root).write(to: text)
        // Less than half a frame long: no whole frame to show (it divided by zero when drawn).
        let instant = folder.file("instant.json")
        var short = try JSONSerialization.jsonObject(with: Data(contentsOf: good)) as! [String: Any]
        short["ip"] = 0; short["op"] = 0.4
        try JSONSerialization.data(withJSONObject: short).write(to: instant)
        // A layer named as After Effects names an imported file: rlottie's key paths split at its dot.
        let dotted = folder.file("dotted.json")
        var renamed = try JSONSerialization.jsonObject(with: Data(contentsOf: good)) as! [String: Any]
        renamed["layers"] = (renamed["layers"] as! [[String: Any]]).map { layer in
            var layer = layer
            if layer["nm"] as? String == "bg" { layer["nm"] = "logo.ai" }
            return layer
        }
        try JSONSerialization.data(withJSONObject: renamed).write(to: dotted)
        _ = try Clip.lottie(good, colors: ["bg.**": .red, "**.fill": .blue])   // key paths from a layer, or any

        let cases: [(URL, [String: Color], String)] = [
            (instant, [:], "less than one frame apart"),
            (dotted, ["logo.ai": .red], "has a dot in its name"),
            (good, ["bgg.**": .red], "first part \"bgg\" names no layer"),
            (folder.file("missing.json"), [:], "no such file"),
            (notJSON, [:], "not JSON"),
            (notLottie, [:], "not a Lottie animation"),
            (text, [:], "\"Headline\" is a text layer"),
            (good, ["background": .red], "\"background\""),
        ]
        for (url, colors, what) in cases {
            do {
                _ = try Clip.lottie(url, colors: colors)
                Issue.record("\(url.lastPathComponent) should be refused")
            } catch {
                #expect(error.code == .animationUnreadable && error.message.contains(url.path) && error.message.contains(what), "\(error.message)")
            }
        }
    }

    @Test("a lottie item in a description file renders, reads and writes back; a broken file names the item's JSON path")
    func descriptionFile() throws {
        let folder = try TemporaryFolder()
        try LottieFixture.movingSquare(path: Self.path).write(to: folder.file("square.json"))
        let json = """
        {"version": 1, "output": {"size": "320x240", "fps": 30},
         "slots": {"accent": {"kind": "color", "default": "#00c000"}},
         "tracks": [{"kind": "video", "items": [{"type": "lottie", "source": {"file": "square.json"}, "duration": "1s", "colors": {"bg": "{{accent}}"}}]}]}
        """
        let spec = folder.file("spec.json")
        try Data(json.utf8).write(to: spec)
        let timeline = try Timeline(contentsOf: spec)
        guard case let .lottie(item)? = timeline.tracks.first?.items.first?.content else { Issue.record("not read as a lottie item"); return }
        #expect(item.colors?["bg"]?.text == "{{accent}}")
        let again = try Timeline(json: try timeline.json())
        #expect(again == timeline)
        let url = folder.file("out.mp4")
        try timeline.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
        let frames = try decodeAll(url)
        #expect(frames.count == 30)
        let corner = frames[3].pixels.rgba(x: 4, y: 4)
        #expect(corner.red < 20 && corner.green > 170 && corner.blue < 20, "\(corner)")

        // A layer the file does not have is named at its key in colors, with the nearest layer.
        do {
            _ = try Timeline(jsonText: json.replacingOccurrences(of: #""bg": "{{accent}}""#, with: #""bgg": "red""#))
                .composition(Timeline.RenderOptions(mediaFolder: folder.url))
            Issue.record("a colour for a layer the file does not have was accepted")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].colors.bgg" && error.message.contains("did you mean \"bg\""), "\(error)")
        }

        try Data("not json".utf8).write(to: folder.file("square.json"))
        do {
            _ = try Timeline(contentsOf: spec).composition(Timeline.RenderOptions(mediaFolder: folder.url))
            Issue.record("a broken Lottie file should be refused")
        } catch {
            #expect("\(error)".contains("tracks[0].items[0].source") && error.message.contains("square.json") && error.message.contains("not JSON"), "\(error)")
        }
    }
}

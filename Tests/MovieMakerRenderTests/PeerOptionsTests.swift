import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Issue 20, item 5: the options users of other tools expect — a Ken Burns easing (linear available)
/// and a title slide over a given distance.
@Suite("Ken Burns easing and slide distance")
struct PeerOptionsTests {
    /// The centre column of a bright vertical line in row `y` (luminance-weighted, ±0.1 px).
    static func lineCentre(_ px: PixelBuffer, y: Int, in xs: Range<Int>) -> Double {
        var sum = 0.0, weight = 0.0
        for x in xs {
            let v = Double(px.rgba(x: x, y: y).green)
            guard v > 40 else { continue }
            sum += Double(x) * v; weight += v
        }
        return weight > 0 ? sum / weight : .nan
    }

    /// A 640×360 black photo with a white line 2 px wide at x = 100…102 (centre 101, 219 px left of the middle).
    static func linePhoto(in folder: TemporaryFolder) throws -> URL {
        let c = try Canvas(width: 640, height: 360)
        try c.draw { ctx in
            ctx.clear(.black)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: 100, y: 0, width: 2, height: 360))
        }
        let url = folder.file("line.png")
        try c.writePNG(to: url)
        return url
    }

    /// Where the line is at `seconds` of a 3-s show zooming in by 10 % (no pan) along `easing`.
    static func lineAt(_ seconds: Double, easing: Easing?, photo: URL) throws -> Double {
        var show = Slideshow(photos: [Slideshow.Photo(url: photo)])
        show.fit = .fill
        show.transition = nil
        show.kenBurns = easing.map { Slideshow.KenBurns(zoom: 0.1, pan: 0, direction: .zoomIn, easing: $0) }
            ?? Slideshow.KenBurns(zoom: 0.1, pan: 0, direction: .zoomIn)
        let px = try show.clip(width: 640, height: 360).still(at: Time(seconds: seconds), width: 640, height: 360).pixels()
        return lineCentre(px, y: 180, in: 40..<160)
    }

    @Test("A linear Ken Burns zoom of 10 % magnifies 1.05 half-way and 1.025 a quarter of the way; sine in-out stays the default")
    func linearKenBurnsZoom() throws {
        let folder = try TemporaryFolder()
        let photo = try Self.linePhoto(in: folder)
        // A point 219 px left of the centre appears at 320.5 − 219.5·zoom (pixel centres: line 100…102 → 101).
        func zoom(_ x: Double) -> Double { (320 - x) / (320 - 101) }
        let start = try Self.lineAt(0, easing: .linear, photo: photo)
        let half = try Self.lineAt(1.5, easing: .linear, photo: photo)
        let quarter = try Self.lineAt(0.75, easing: .linear, photo: photo)
        #expect(abs(zoom(start) - 1) < 0.003, "starts unmagnified: line at \(start)")
        #expect(abs(zoom(half) - 1.05) < 0.003, "1.05 half-way: line at \(half), zoom \(zoom(half))")
        #expect(abs(zoom(quarter) - 1.025) < 0.003, "1.025 a quarter of the way: line at \(quarter), zoom \(zoom(quarter))")
        // The default (sine in-out) is slower at the start: 1 + 0.1·(1 − cos(π/4))/2 ≈ 1.0146 at a quarter.
        let eased = try Self.lineAt(0.75, easing: nil, photo: photo)
        #expect(abs(zoom(eased) - 1.0146) < 0.003, "sine in-out by default: line at \(eased), zoom \(zoom(eased))")
        #expect(Slideshow.KenBurns().easing == .sineInOut)
        // The path itself: magnifications interpolated, centre kept.
        let path = Clip.KenBurnsPath(start: Rect(x: 0, y: 0, width: 1, height: 1),
                                     end: Rect(x: 0.5 - 0.5 / 1.1, y: 0.5 - 0.5 / 1.1, width: 1 / 1.1, height: 1 / 1.1), easing: .linear)
        let mid = path.view(at: 0.5)
        #expect(abs(1 / mid.width - 1.05) < 1e-9 && abs(mid.midX - 0.5) < 1e-9 && abs(mid.midY - 0.5) < 1e-9)
        #expect(path.view(at: 0) == path.start)
    }

    @Test("Ken Burns with an easing that overshoots (back, elastic) never shows past the photo: the view stays between its two ends",
          arguments: [Easing.backIn, .backOut, .backInOut, .elasticIn, .elasticOut])
    func kenBurnsOvershootStaysInThePhoto(easing: Easing) {
        let path = Clip.KenBurnsPath(start: Rect(x: 0, y: 0, width: 1, height: 1),
                                     end: Rect(x: 0.1, y: 0.1, width: 0.8, height: 0.8), easing: easing)
        for k in 0...100 {
            let v = path.view(at: Double(k) / 100)
            #expect(v.minX >= -1e-9 && v.minY >= -1e-9 && v.maxX <= 1 + 1e-9 && v.maxY <= 1 + 1e-9, "\(easing) at \(k) %: \(v)")
        }
    }

    @Test("Ken Burns easing is data: written by name when not the default, read back, default when left out")
    func kenBurnsEasingCodable() throws {
        let linear = Slideshow.KenBurns(zoom: 0.1, pan: 0, direction: .zoomIn, easing: .linear)
        let data = try JSONEncoder().encode(linear)
        #expect(String(decoding: data, as: UTF8.self).contains("\"easing\":\"linear\""))
        #expect(try JSONDecoder().decode(Slideshow.KenBurns.self, from: data) == linear)
        #expect(!String(decoding: try JSONEncoder().encode(Slideshow.KenBurns()), as: UTF8.self).contains("easing"))
        #expect(try JSONDecoder().decode(Slideshow.KenBurns.self, from: Data(#"{"zoom": 0.2}"#.utf8)).easing == .sineInOut)
        let path = Clip.KenBurnsPath(start: Rect(x: 0, y: 0, width: 1, height: 1), end: Rect(x: 0, y: 0, width: 0.5, height: 0.5), easing: .cubicOut)
        #expect(try JSONDecoder().decode(Clip.KenBurnsPath.self, from: try JSONEncoder().encode(path)) == path)
        let old = #"{"start": {"x": 0, "y": 0, "width": 1, "height": 1}, "end": {"x": 0, "y": 0, "width": 0.5, "height": 0.5}}"#
        #expect(try JSONDecoder().decode(Clip.KenBurnsPath.self, from: Data(old.utf8)).easing == .sineInOut)
    }

    /// The ink box of a title-only card at `seconds`, at 1920×1080.
    static func titleInk(_ entrance: TitleAnimation, at seconds: Double, width: Int = 1920, height: Int = 1080)
        throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
        var card = TitleCard("Slide", duration: 3)
        card.entrance = entrance
        card.exit = .none
        let px = try card.clip(width: width, height: height).still(at: Time(seconds: seconds), width: width, height: height).pixels()
        return inkBox(px)
    }

    @Test("slide(from: .bottom, distance: 60) starts 60 px below the title's place (scaled to the frame) and rises into it")
    func slideOverADistance() throws {
        let rest = try #require(try Self.titleInk(.slide(from: .bottom, distance: 60, duration: 1), at: 2))
        let start = try #require(try Self.titleInk(.slide(from: .bottom, distance: 60, duration: 1), at: 0), "on screen from the first frame")
        #expect(start.minY - rest.minY == 60 && start.maxY - rest.maxY == 60, "60 px below at t = 0: \(start) against \(rest)")
        #expect(start.minX == rest.minX && start.maxX == rest.maxX)
        // Linear: half-way at half the time.
        let linear = TitleAnimation(.slide(from: .bottom, distance: 60), duration: 1, easing: .linear)
        let half = try #require(try Self.titleInk(linear, at: 0.5))
        #expect(abs(half.minY - rest.minY - 30) <= 1, "30 px below half-way: \(half.minY - rest.minY)")
        // From the left, and at 540 lines the distance is halved.
        let left = try #require(try Self.titleInk(.slide(from: .left, distance: 60, duration: 1), at: 0))
        #expect(rest.minX - left.minX == 60 && left.minY == rest.minY)
        let smallRest = try #require(try Self.titleInk(.slide(from: .top, distance: 60, duration: 1), at: 2, width: 960, height: 540))
        let smallStart = try #require(try Self.titleInk(.slide(from: .top, distance: 60, duration: 1), at: 0, width: 960, height: 540))
        #expect(smallRest.minY - smallStart.minY == 30, "30 px above at 540 lines")
        // Without a distance the slide still starts beyond the frame's edge.
        #expect(try Self.titleInk(.slide(from: .bottom, duration: 1), at: 0) == nil)
    }

    @Test("A slide distance is data: the title style's JSON, and a description's title slideDistance")
    func slideDistanceAsData() throws {
        let style = TitleAnimation.Style.slide(from: .bottom, distance: 60)
        let data = try JSONEncoder().encode(style)
        #expect(String(decoding: data, as: UTF8.self).contains("\"distance\":60"))
        #expect(try JSONDecoder().decode(TitleAnimation.Style.self, from: data) == style)
        #expect(try JSONDecoder().decode(TitleAnimation.Style.self, from: Data(#"{"type": "slide", "from": "left"}"#.utf8)) == .slide(from: .left))
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(TitleAnimation.Style.self, from: Data(#"{"type": "slide", "distance": -5}"#.utf8))
        }
        #expect(Timeline.TitleStyle.slide.animation(from: .bottom, distance: 60).style == style)
        let json = #"""
        {"version": 1,
         "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Hello", "style": "slide", "slideDistance": 60, "duration": "2s"}]}]}
        """#
        let timeline = try Timeline(jsonText: json)
        guard case let .title(title)? = timeline.tracks.first?.items.first?.content else { Issue.record("not a title"); return }
        #expect(title.slideDistance == 60)
        #expect(try timeline.jsonText().contains("\"slideDistance\""))
        let bad = json.replacingOccurrences(of: "\"slideDistance\": 60", with: "\"slideDistance\": -1")
        #expect(throws: MovieMakerError.self) { try Timeline(jsonText: bad) }
    }
}

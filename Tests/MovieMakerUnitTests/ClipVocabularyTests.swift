import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The clip vocabulary MoviePy, Remotion and Manim users try first (fades, opacity, position, scale,
/// rotation, crop, masks, durations, freezes, images, text) and the layout helpers, checked on frames
/// drawn in memory (`Clip.still`), and as data (the JSON round trip).
@Suite struct ClipVocabularyTests {
    static let width = 320, height = 240

    /// The frame at `t` seconds on black, 320×240.
    static func pixels(_ clip: Clip, at t: Time, background: Color = .black) throws -> PixelBuffer {
        try clip.still(at: t, width: width, height: height, background: background).pixels()
    }

    static func rgb(_ p: PixelBuffer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let c = p.rgba(x: x, y: y)
        return (Int(c.red), Int(c.green), Int(c.blue))
    }

    /// A 10×10 white square at the frame's centre (155…165, 115…125), lasting `duration`.
    static func square(duration: Time = 2) throws -> Clip {
        // Data, not a closure: a white square cut from a full-frame colour.
        try Clip.color(.white, duration: duration).cropped(to: Rect(x: 155.0 / 320, y: 115.0 / 240, width: 10.0 / 320, height: 10.0 / 240))
    }

    @Test("a fade in and a fade out are about half opaque at their midpoints, and combine into one transform")
    func fadesAtTheirMidpoints() throws {
        let white = Clip.color(.white, duration: 3)
        let faded = try white.fadedIn(over: 1).fadedOut(over: 1)
        for (t, expected) in [(0.0, 0), (0.5, 128), (1.5, 255), (2.5, 128)] {
            let v = Self.rgb(try Self.pixels(faded, at: Time(seconds: t)), 160, 120).r
            #expect(abs(v - expected) <= 3, "at \(t) s: \(v), expected about \(expected)")
        }
        // One transformed node over the colour, its opacity 0 → 1 over the first second, 1 → 0 over the last.
        guard case let .transformed(transform, child) = faded.node, case .generator = child.node,
              case let .keyframes(track) = transform.opacity else {
            Issue.record("not one transform over the colour: \(faded.node)"); return
        }
        #expect(track.keyframes.map(\.value) == [0, 1, 1, 0])
        #expect(track.keyframes.map(\.time) == [0, 1, 2, 3])
        // A fade longer than the clip is clamped to it; none at all leaves the clip as it is.
        #expect(try Clip.color(.white, duration: 1).fadedIn(over: 0) == Clip.color(.white, duration: 1))
        let long = try Clip.color(.white, duration: 1).fadedIn(over: 5)
        #expect(abs(Self.rgb(try Self.pixels(long, at: 0.5), 10, 10).r - 128) <= 3)
    }

    @Test("withOpacity draws the clip that opaque and multiplies with a fade")
    func opacity() throws {
        let half = try Clip.color(.white, duration: 2).withOpacity(0.5)
        #expect(abs(Self.rgb(try Self.pixels(half, at: 1), 50, 50).r - 128) <= 2)
        // Faded in over 2 s and half opaque: a quarter at 1 s.
        let both = try Clip.color(.white, duration: 2).fadedIn(over: 2).withOpacity(0.5)
        #expect(abs(Self.rgb(try Self.pixels(both, at: 1), 50, 50).r - 64) <= 2)
        guard case let .transformed(t, _) = both.node, case let .keyframes(track) = t.opacity else {
            Issue.record("not merged into one transform"); return
        }
        #expect(track.keyframes.map(\.value) == [0, 0.5])
        // Keyframed: 0 → 1 over the clip.
        let ramp = try Clip.color(.white, duration: 2).withOpacity(KeyframeTrack(0.0).then(to: 1, at: 2))
        #expect(abs(Self.rgb(try Self.pixels(ramp, at: 1), 50, 50).r - 128) <= 3)
    }

    @Test("positioned(at:) moves the ink to the point, by the centre or by another anchor")
    func position() throws {
        func centre(_ clip: Clip, at t: Time = 0) throws -> (x: Double, y: Double) {
            let box = try #require(inkBox(try Self.pixels(clip, at: t)))
            return (Double(box.minX + box.maxX + 1) / 2, Double(box.minY + box.maxY + 1) / 2)
        }
        let c = try centre(Self.square())
        #expect(c.x == 160 && c.y == 120)
        let moved = try centre(Self.square().positioned(at: Point(x: 40, y: 50)))
        #expect(moved.x == 40 && moved.y == 50, "\(moved)")
        // Anchor (0, 0): the picture's top-left corner goes to the point; the square follows, 160, 120 on.
        let byCorner = try centre(Self.square().positioned(at: Point(x: -100, y: -60), anchor: Point(x: 0, y: 0)))
        #expect(byCorner.x == 60 && byCorner.y == 60, "\(byCorner)")
        // Along keyframes: halfway at 1 s.
        let path = KeyframeTrack(Point(x: 40, y: 40)).then(to: Point(x: 280, y: 200), at: 2)
        let along = try centre(Self.square().positioned(along: path), at: 1)
        #expect(abs(along.x - 160) <= 1 && abs(along.y - 120) <= 1, "\(along)")
        // A later position replaces an earlier one.
        let twice = try centre(Self.square().positioned(at: Point(x: 40, y: 50)).positioned(at: Point(x: 250, y: 200)))
        #expect(twice.x == 250 && twice.y == 200, "\(twice)")
    }

    @Test("scaled, positioned and faded compose into one transform, in either order")
    func composing() throws {
        let p = Point(x: 80, y: 60)
        let a = try Self.square().scaled(by: 2).positioned(at: p)
        let b = try Self.square().positioned(at: p).scaled(by: 2)
        #expect(a == b)
        let box = try #require(inkBox(try Self.pixels(a, at: 0)))
        #expect(box.minX == 70 && box.maxX == 89 && box.minY == 50 && box.maxY == 69, "\(box)")
        // Scaled twice: the factors multiply, still one node over the cropped square.
        let four = try Self.square().scaled(by: 2).scaled(by: 2)
        let fourBox = try #require(inkBox(try Self.pixels(four, at: 0)))
        #expect(fourBox.maxX - fourBox.minX + 1 == 40, "\(fourBox)")
        guard case let .transformed(t, child) = four.node, case .generator = child.node else {
            Issue.record("not one transform: \(four.node)"); return
        }
        #expect(t.scale == .constant(4) && t.crop != nil)
        // Scaled then faded: half opaque at the fade's midpoint, twice the size.
        let fading = try Self.square().scaled(by: 2).fadedIn(over: 1)
        let px = try Self.pixels(fading, at: 0.5)
        #expect(abs(Self.rgb(px, 160, 120).r - 128) <= 3 && abs(Self.rgb(px, 151, 111).r - 128) <= 3)
        #expect(Self.rgb(px, 148, 108).r == 0)
        // Two keyframed scales cannot share a transform: the second is a node of its own, drawn the same way.
        let grow = KeyframeTrack(1.0).then(to: 2, at: 2)
        let nested = try Self.square().scaled(by: grow).scaled(by: grow)
        guard case let .transformed(_, inner) = nested.node, case .transformed = inner.node else {
            Issue.record("two keyframed scales were not nested"); return
        }
        let nestedBox = try #require(inkBox(try Self.pixels(nested, at: 1)))
        #expect(abs(nestedBox.maxX - nestedBox.minX + 1 - 22) <= 1, "1.5 × 1.5 × 10: \(nestedBox)")
    }

    @Test("rotated(by: 90) turns the picture clockwise about its centre, exactly")
    func rotation() throws {
        // A red bar to the right of the centre: 170…230 across, 115…125 down.
        let bar = try Clip.color(.red, duration: 2).cropped(to: Rect(x: 170.0 / 320, y: 115.0 / 240, width: 60.0 / 320, height: 10.0 / 240))
        let turned = try bar.rotated(by: 90)
        let px = try Self.pixels(turned, at: 0)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<Self.height { for x in 0..<Self.width where Self.rgb(px, x, y).r > 128 {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        } }
        // Clockwise (y down): the bar now hangs below the centre, 130…190 down, 155…165 across.
        #expect(minX == 155 && maxX == 164 && minY == 130 && maxY == 189, "(\(minX), \(minY))…(\(maxX), \(maxY))")
        // Keyframed: 0 → 180 over 2 s is 90 at 1 s.
        let spinning = try bar.rotated(by: KeyframeTrack(0.0).then(to: 180, at: 2))
        #expect(Self.rgb(try Self.pixels(spinning, at: 1), 160, 160).r > 200)
        // Rotations add.
        #expect(try bar.rotated(by: 45).rotated(by: 45) == turned)
    }

    @Test("cropped(to:) keeps a unit rectangle where it was and intersects an earlier crop")
    func crop() throws {
        let left = try Clip.color(.white, duration: 1).cropped(to: Rect(x: 0, y: 0, width: 0.5, height: 1))
        let px = try Self.pixels(left, at: 0)
        #expect(Self.rgb(px, 10, 120).r == 255 && Self.rgb(px, 159, 10).r == 255)
        #expect(Self.rgb(px, 160, 120).r == 0 && Self.rgb(px, 310, 230).r == 0)
        let middle = try left.cropped(to: Rect(x: 0.25, y: 0, width: 0.75, height: 1))
        let box = try #require(inkBox(try Self.pixels(middle, at: 0)))
        #expect(box.minX == 80 && box.maxX == 159 && box.minY == 0 && box.maxY == 239, "\(box)")
        guard case let .transformed(t, _) = middle.node else { Issue.record("not one transform"); return }
        #expect(t.crop == Rect(x: 0.25, y: 0, width: 0.25, height: 1))
    }

    @Test("masked(by:) shows the clip where the mask is opaque (alpha) or bright (luma)")
    func masks() throws {
        let red = Clip.color(.red, duration: 1)
        // Alpha: an opaque white left half, nothing on the right.
        let leftHalf = try Clip.color(.white, duration: 1).cropped(to: Rect(x: 0, y: 0, width: 0.5, height: 1))
        let byAlpha = try Self.pixels(red.masked(by: leftHalf), at: 0)
        #expect(Self.rgb(byAlpha, 40, 120) == (255, 0, 0))
        #expect(Self.rgb(byAlpha, 280, 120) == (0, 0, 0))
        // Luma: an opaque mask, white on the left, black on the right.
        let lumaMask = Clip.overlay(.color(.black, duration: 1), leftHalf)
        let byLuma = try Self.pixels(red.masked(by: lumaMask, mode: .luma), at: 0)
        #expect(Self.rgb(byLuma, 40, 120) == (255, 0, 0))
        #expect(Self.rgb(byLuma, 280, 120) == (0, 0, 0))
        // The same opaque mask by alpha shows everything.
        let all = try Self.pixels(red.masked(by: lumaMask), at: 0)
        #expect(Self.rgb(all, 280, 120) == (255, 0, 0))
    }

    @Test("withDuration trims, lengthens leaves, and holds the last picture of anything else")
    func durations() throws {
        // Shorter: trimmed.
        let color = Clip.color(.white, duration: 2)
        #expect(try color.withDuration(0.5).duration == 0.5)
        #expect(try color.withDuration(2) == color)
        // A leaf simply lasts longer.
        let long = try color.withDuration(5)
        #expect(long == Clip.color(.white, duration: 5))
        // A constant transform passes it on; its fade-in (keyframes) stays where it was.
        #expect(try color.scaled(by: 0.5).withDuration(4) == Clip.color(.white, duration: 4).scaled(by: 0.5))
        // Anything else plays to its end, then holds its last picture: a bar moving right 100 px a second.
        let moving = Clip(duration: 1) { ctx, frame in
            ctx.clear(.black); ctx.setFill(.white); ctx.fillRect(Rect(x: 10 + 100 * frame.time, y: 100, width: 4, height: 40))
        }
        let sequence = Clip.sequence([moving, moving])
        let held = try sequence.withDuration(3)
        #expect(held.duration == 3)
        let atEnd = try #require(inkBox(try Self.pixels(held, at: Time(seconds: 1.9))))
        let holding = try #require(inkBox(try Self.pixels(held, at: Time(seconds: 2.8))))
        #expect(abs(holding.minX - 110) <= 1, "held at \(holding.minX), the last picture's bar is at 110")
        #expect(atEnd.minX < holding.minX)
        // A photo lasts longer, as a photo.
        let folder = try TemporaryFolder()
        let image = try Clip.image(try TestPhotos.yellow(in: folder), duration: 1).withDuration(4)
        guard case let .media(media) = image.node else { Issue.record("not a photo leaf"); return }
        #expect(media.sourceRange.duration == 4)
    }

    @Test("frozen(at:) holds one picture for as long as the clip lasts")
    func freeze() throws {
        let moving = Clip(duration: 2) { ctx, frame in
            ctx.clear(.black); ctx.setFill(.white); ctx.fillRect(Rect(x: 10 + 100 * frame.time, y: 100, width: 4, height: 40))
        }
        let frozen = moving.frozen(at: 0.5)
        #expect(frozen.duration == 2)
        for t in [0.0, 1.0, 1.9] {
            let box = try #require(inkBox(try Self.pixels(frozen, at: Time(seconds: t))))
            #expect(box.minX == 60, "at \(t) s the bar is at \(box.minX)")
        }
    }

    @Test("Clip.image shows a PNG whole, its transparent part and the bars clear over what is below")
    func image() throws {
        let folder = try TemporaryFolder()
        // 100×100: opaque red on the left half, transparent on the right.
        let canvas = try Canvas(width: 100, height: 100)
        try canvas.draw { ctx in
            ctx.clear(.clear)
            ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 50, height: 100))
        }
        let url = folder.file("half.png")
        try canvas.writePNG(to: url)
        let clip = Clip.overlay(.color(.blue, duration: 2), Clip.image(url, duration: 2))
        let px = try Self.pixels(clip, at: 1)
        // Fitted: 240×240 centred, 40…280 across; red 40…160, then the blue below shows through.
        #expect(Self.rgb(px, 100, 120) == (255, 0, 0))
        #expect(Self.rgb(px, 220, 120) == (0, 0, 255))
        #expect(Self.rgb(px, 20, 120) == (0, 0, 255))
        // Fill covers the frame: 320×320, the red half 0…160.
        let filled = try Self.pixels(Clip.overlay(.color(.blue, duration: 2), Clip.image(url, duration: 2, fit: .fill)), at: 0)
        #expect(Self.rgb(filled, 20, 120) == (255, 0, 0))
    }

    @Test("Clip.text draws its text centred in the frame, inside the title-safe area")
    func text() throws {
        let clip = try Clip.text("Hello", style: TextStyle(font: TextFont(size: 48), color: .white, alignment: .center), duration: 2)
        #expect(clip.duration == 2)
        let box = try #require(inkBox(try Self.pixels(clip, at: 0)))
        let cx = Double(box.minX + box.maxX + 1) / 2, cy = Double(box.minY + box.maxY + 1) / 2
        #expect(abs(cx - 160) <= 4 && abs(cy - 120) <= 8, "ink centred at (\(cx), \(cy))")
        #expect(box.maxX - box.minX > 80, "\(box)")
        // Long text wraps inside the title-safe width.
        let long = try Clip.text("a few words that cannot fit on one line of this frame", style: TextStyle(font: TextFont(size: 32), color: .white))
        let safe = Rect.titleSafe(in: Size(width: 320, height: 240))
        let longBox = try #require(inkBox(try Self.pixels(long, at: 0)))
        #expect(Double(longBox.minX) >= safe.minX - 1 && Double(longBox.maxX) <= safe.maxX + 1, "\(longBox)")
        // Positioned: the text's centre goes to the point.
        let moved = try #require(inkBox(try Self.pixels(clip.positioned(at: Point(x: 160, y: 40)), at: 0)))
        #expect(abs(Double(moved.minY + moved.maxY + 1) / 2 - 40) <= 8, "\(moved)")
    }

    @Test("a clip built from the vocabulary round-trips through JSON to the same tree, hash and frames")
    func jsonRoundTrip() throws {
        let folder = try TemporaryFolder()
        let photo = try TestPhotos.yellow(in: folder)
        let title = try Clip.text("Data", style: TextStyle(font: TextFont(size: 40), color: .white), duration: 3)
        let clip = Clip.overlay(
            try Clip.image(photo, duration: 1, fit: .fill, background: .black).withDuration(3),
            try title.scaled(by: 1.5).rotated(by: 20).positioned(along: KeyframeTrack(Point(x: 80, y: 60)).then(to: Point(x: 240, y: 180), at: 3))
                .fadedIn(over: 0.5).fadedOut(over: 0.5),
            try Clip.color(.red, duration: 3).cropped(to: Rect(x: 0, y: 0, width: 0.25, height: 0.25)).withOpacity(0.7)
                .masked(by: try Clip.color(.white, duration: 3).cropped(to: Rect(x: 0, y: 0, width: 0.125, height: 0.25)), mode: .luma),
            try Clip.sequence([try Clip.color(.green, duration: 1).scaled(by: KeyframeTrack(0.2).then(to: 0.4, at: 1))]).withDuration(2).frozen(at: 0.5)
        )
        let data = try JSONEncoder().encode(clip)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""type":"text""#) && text.contains(#""type":"transformed""#) && text.contains(#""type":"freeze""#))
        let decoded = try JSONDecoder().decode(Clip.self, from: data)
        #expect(decoded == clip)
        #expect(try decoded.contentHash() == clip.contentHash())
        for t in [0.25, 1.5, 2.9] {
            #expect(try Self.pixels(decoded, at: Time(seconds: t)) == Self.pixels(clip, at: Time(seconds: t)), "frame at \(t) s")
        }
    }

    @Test("title-safe and action-safe areas are 90 % and 93 % of the frame; rectangles align inside others")
    func layout() {
        let size = Size(width: 1920, height: 1080)
        #expect(Rect.titleSafe(in: size) == Rect(x: 96, y: 54, width: 1728, height: 972))
        let action = Rect.actionSafe(in: size)
        #expect(abs(action.minX - 67.2) < 1e-9 && abs(action.minY - 37.8) < 1e-9 && abs(action.width - 1785.6) < 1e-9 && abs(action.height - 1004.4) < 1e-9)
        let box = Rect(x: 0, y: 0, width: 100, height: 50)
        let container = Rect(x: 10, y: 20, width: 1000, height: 500)
        #expect(box.aligned(in: container, alignment: .bottomRight) == Rect(x: 910, y: 470, width: 100, height: 50))
        #expect(box.aligned(in: container) == Rect(x: 460, y: 245, width: 100, height: 50))
        #expect(box.aligned(in: container, alignment: .topLeft) == Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(box.aligned(in: container, alignment: .bottom) == Rect(x: 460, y: 470, width: 100, height: 50))
    }

    @Test("text along a path follows it: along a line as drawn normally, down a vertical line turned")
    func textAlongAPath() throws {
        let style = TextStyle(font: TextFont(size: 40), color: .white, alignment: .center)
        func ink(_ draw: (DrawingContext) throws -> Void) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int) {
            let canvas = try Canvas(width: 320, height: 240)
            try canvas.draw { ctx in ctx.clear(.black); try draw(ctx) }
            return try #require(inkBox(canvas.pixels()))
        }
        let straight = try ink { try $0.draw("Wave", along: Path(lineFrom: Point(x: 20, y: 140), to: Point(x: 300, y: 140)), style: style) }
        let layout = try TextLayout("Wave", style: style)
        let normal = try ink { $0.draw(layout, at: Point(x: 160 - layout.logicalBounds.midX, y: 140 - layout.firstBaseline)) }
        #expect(abs(straight.minX - normal.minX) <= 1 && abs(straight.maxX - normal.maxX) <= 1
                && abs(straight.minY - normal.minY) <= 1 && abs(straight.maxY - normal.maxY) <= 1, "\(straight) vs \(normal)")
        #expect(straight.maxY <= 141, "the baseline sits on the path: \(straight)")
        // Down a vertical line: the word reads top to bottom, taller than wide, to the right of the line
        // (glyphs stand on the path's left-hand side of travel: towards +x when going down).
        let down = try ink { try $0.draw("Wave", along: Path(lineFrom: Point(x: 160, y: 10), to: Point(x: 160, y: 230)), style: style) }
        #expect(down.maxY - down.minY > 2 * (down.maxX - down.minX), "\(down)")
        #expect(down.minX >= 159, "\(down)")
    }

    @Test("bad values are typed errors naming the value and the range, never a trap")
    func badValuesAreTypedErrors() throws {
        let white = Clip.color(.white, duration: 2)
        func expectInvalid(_ expected: String, _ make: () throws(MovieMakerError) -> Clip) {
            do {
                _ = try make()
                Issue.record("accepted: \(expected)")
            } catch {
                #expect(error.code == .invalidSetting && error.message.contains(expected), "\(error.message)")
            }
        }
        expectInvalid("opacity 1.5") { () throws(MovieMakerError) in try white.withOpacity(1.5) }
        expectInvalid("scale -1.0") { () throws(MovieMakerError) in try white.scaled(by: -1) }
        expectInvalid("rotation nan") { () throws(MovieMakerError) in try white.rotated(by: .nan) }
        expectInvalid("crop") { () throws(MovieMakerError) in try white.cropped(to: Rect(x: 0.5, y: 0, width: 0.8, height: 1)) }
        expectInvalid("position") { () throws(MovieMakerError) in try white.positioned(at: Point(x: .infinity, y: 0)) }
        expectInvalid("duration") { () throws(MovieMakerError) in try white.withDuration(Time(value: -1, timescale: 1)) }
        // A chain needs one try; valid values go through.
        #expect(try white.scaled(by: 2).fadedIn(over: 1).withOpacity(0.5).duration == 2)
    }
}

import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Transitions between clips: timing, each effect's pixels and direction (as FFmpeg's xfade), easing,
/// custom effects, names, and rendering in movies on several threads.
@Suite struct TransitionTests {
    static let width = 64, height = 48
    /// Outgoing and incoming clips are 2 s long; the transitions under test last 1 s, so the overlap
    /// is 1…2 s of the joined clip and progress p is at time 1 + p.
    static let red = Clip.color(.red, duration: 2)
    static let blue = Clip.color(.blue, duration: 2)

    /// The joined clip's picture at `time`, drawn on a black 64×48 canvas as a movie frame would be.
    static func picture(_ clip: Clip, at time: Time, width: Int = width, height: Int = height, background: Color = .black) throws -> PixelBuffer {
        let canvas = try Canvas(width: width, height: height)
        try canvas.draw { ctx in
            ctx.clear(background)
            try clip.draw(in: ctx, at: Frame(index: 0, movieIndex: 0, rate: 30, exactTime: time, duration: clip.duration))
        }
        return canvas.pixels()
    }

    /// The picture of `transition` from red to blue at progress `p` (before easing).
    static func picture(_ transition: Transition, from a: Clip = red, to b: Clip = blue, progress p: Double) throws -> PixelBuffer {
        try picture(.transition(from: a, to: b, using: transition), at: Time(seconds: 1 + p))
    }

    /// Red/blue of one pixel.
    static func rb(_ p: PixelBuffer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let c = p.rgba(x: x, y: y)
        return (Int(c.red), Int(c.green), Int(c.blue))
    }
    static func isRed(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Bool { let c = rb(p, x, y); return c.r == 255 && c.g == 0 && c.b == 0 }
    static func isBlue(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Bool { let c = rb(p, x, y); return c.r == 0 && c.g == 0 && c.b == 255 }

    /// A solid clip with a white 8×8 marker whose top-left corner is at `marker`.
    static func marked(_ color: Color, marker: Point, markerColor: Color = .white) -> Clip {
        Clip(duration: 2) { ctx, _ in
            ctx.clear(color)
            ctx.setFill(markerColor)
            ctx.fillRect(Rect(x: marker.x, y: marker.y, width: 8, height: 8))
        }
    }

    // MARK: Timing

    @Test func joinedLengthIsBothClipsMinusTheOverlapAndLongTransitionsAreShortened() throws {
        let a = Clip.color(.red, duration: 2), b = Clip.color(.blue, duration: 3)
        #expect(Clip.transition(from: a, to: b, using: .crossfade(duration: 1)).duration == 4)
        #expect(Clip.transition(from: a, to: b, using: .crossfade(duration: 0.5)).duration == Time(seconds: 4.5))
        let four = Array(repeating: Clip.color(.red, duration: 2), count: 4)
        #expect(Clip.sequence(four, transition: .wipe(.left, duration: 0.5)).duration == Time(seconds: 6.5))
        // Longer than the shorter clip: the overlap is that clip's length.
        let short = Clip.color(.green, duration: 1)
        #expect(Clip.transition(from: short, to: b, using: .fade(duration: 2)).duration == 3)
        // A middle clip holds its incoming and outgoing transitions one after the other.
        let three = [Clip.color(.red, duration: 2), Clip.color(.green, duration: 1), Clip.color(.blue, duration: 2)]
        #expect(Clip.sequence(three, transition: .fade(duration: 0.75)).duration == Time(seconds: 5 - 0.75 - 0.25))
        // Zero-length transitions and nil are cuts.
        #expect(Clip.transition(from: a, to: b, using: .fade(duration: 0)).duration == 5)
        #expect(try Clip.sequence([a, b, a], transitions: [nil, .fade(duration: 1)]).duration == 6)
    }

    @Test func eachClipSeesItsOwnTimeDuringAndAfterTheOverlap() throws {
        // Each clip paints its own time (seconds / 4) as grey, A in red's channel and B in blue's.
        let a = Clip(duration: 2) { ctx, f in ctx.clear(Color(red: f.time / 4, green: 0, blue: 0)) }
        let b = Clip(duration: 2) { ctx, f in ctx.clear(Color(red: 0, green: 0, blue: f.time / 4)) }
        let joined = Clip.transition(from: a, to: b, using: .wipe(.left, duration: 1))
        // At 1.5 s the left half still shows A at 1.5 s, the right half B at 0.5 s.
        let mid = try Self.picture(joined, at: 1.5)
        #expect(abs(Self.rb(mid, 5, 24).r - 96) <= 1)          // 1.5 / 4 × 255
        #expect(abs(Self.rb(mid, 60, 24).b - 32) <= 1)         // 0.5 / 4 × 255
        // After the overlap, B alone at 2.5 − 1 = 1.5 s.
        let after = try Self.picture(joined, at: 2.5)
        #expect(abs(Self.rb(after, 5, 24).b - 96) <= 1 && Self.rb(after, 5, 24).r == 0)
    }

    @Test func sequenceWithTransitionsNeedsOneEntryPerPairOfNeighbours() {
        #expect(throws: MovieMakerError.self) { try Clip.sequence([Self.red, Self.blue, Self.red], transitions: [.fade()]) }
        do {
            _ = try Clip.sequence([Self.red, Self.blue], transitions: [.fade(), .fade()])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("2 for 2 clips") && error.description.contains("1"))
        }
    }

    // MARK: Fades

    @Test func crossfadeIsAAtItsStartAnEvenMixAtItsMidpointAndBAfterwards() throws {
        let t = Transition.crossfade(duration: 1)
        let start = try Self.picture(t, progress: 0)
        #expect(Self.isRed(start, 0, 0) && Self.isRed(start, 63, 47))
        let mid = try Self.picture(t, progress: 0.5)
        for (x, y) in [(0, 0), (32, 24), (63, 47)] {
            let c = Self.rb(mid, x, y)
            #expect(abs(c.r - 128) <= 2 && abs(c.b - 128) <= 2 && c.g == 0, "\(c) at \(x),\(y)")
        }
        let late = try Self.picture(t, progress: 0.9)
        #expect(abs(Self.rb(late, 10, 10).b - 230) <= 2)
        let end = try Self.picture(t, progress: 1)
        #expect(Self.isBlue(end, 0, 0) && Self.isBlue(end, 63, 47))
    }

    @Test func fadeThroughBlackAndWhiteReachTheColourAtTheMidpoint() throws {
        let black = try Self.picture(.fadeThroughBlack(duration: 1), progress: 0.5)
        #expect(Self.rb(black, 32, 24) == (0, 0, 0))
        let quarter = try Self.picture(.fadeThroughBlack(duration: 1), progress: 0.25)
        #expect(abs(Self.rb(quarter, 32, 24).r - 128) <= 2 && Self.rb(quarter, 32, 24).b == 0)   // A half faded
        let threeQuarters = try Self.picture(.fadeThroughBlack(duration: 1), progress: 0.75)
        #expect(abs(Self.rb(threeQuarters, 32, 24).b - 128) <= 2 && Self.rb(threeQuarters, 32, 24).r == 0)   // B half in
        let white = try Self.picture(.fadeThroughWhite(duration: 1), progress: 0.5)
        #expect(Self.rb(white, 32, 24) == (255, 255, 255))
        #expect(Transition.fadeThroughBlack().name == "fadeblack" && Transition.fadeThroughWhite().name == "fadewhite")
    }

    @Test func easingShapesProgress() throws {
        // easeIn is slow at first: at half time, less than half of B.
        let eased = try Self.picture(.crossfade(duration: 1, easing: .easeIn), progress: 0.5)
        let linear = try Self.picture(.crossfade(duration: 1), progress: 0.5)
        #expect(Self.rb(eased, 32, 24).b < 110 && Self.rb(eased, 32, 24).r > 145)
        #expect(Self.rb(eased, 32, 24).b < Self.rb(linear, 32, 24).b - 20)
        // A wipe with quadIn at half time has moved a quarter of the way.
        let wipe = try Self.picture(.wipe(.left, duration: 1, easing: .quadIn), progress: 0.5)
        #expect(Self.isBlue(wipe, 63 - 12, 24) && Self.isRed(wipe, 63 - 20, 24))
    }

    // MARK: Directions, as xfade

    @Test func wipesUncoverBOnTheSideOppositeTheirDirection() throws {
        // xfade's wipeleft shows B where x > width·(1 − p): on the right, the edge moving left.
        let left = try Self.picture(.wipe(.left), progress: 0.25)
        #expect(Self.isBlue(left, 50, 24) && Self.isBlue(left, 63, 0) && Self.isRed(left, 46, 24) && Self.isRed(left, 0, 24))
        let right = try Self.picture(.wipe(.right), progress: 0.25)
        #expect(Self.isBlue(right, 13, 24) && Self.isRed(right, 17, 24) && Self.isRed(right, 63, 24))
        let up = try Self.picture(.wipe(.up), progress: 0.25)           // B at the bottom (y ≥ 36)
        #expect(Self.isBlue(up, 32, 38) && Self.isRed(up, 32, 34))
        let down = try Self.picture(.wipe(.down), progress: 0.25)       // B at the top (y < 12)
        #expect(Self.isBlue(down, 32, 10) && Self.isRed(down, 32, 14))
        // Corners: wipetl keeps A in a shrinking top-left rectangle (75 % of each side at p = 0.25).
        let tl = try Self.picture(try Transition(xfadeName: "wipetl"), progress: 0.25)
        #expect(Self.isRed(tl, 40, 30) && Self.isBlue(tl, 50, 30) && Self.isBlue(tl, 40, 40))
        let br = try Self.picture(try Transition(xfadeName: "wipebr"), progress: 0.25)
        #expect(Self.isRed(br, 20, 20) && Self.isBlue(br, 10, 20) && Self.isBlue(br, 20, 8))
    }

    @Test func slidesMoveBothPicturesCoversMoveBRevealsMoveA() throws {
        // A has a white marker at x 16…24, B a green one at x 0…8; at p = 0.25 the motion is 16 px.
        let a = Self.marked(.red, marker: Point(x: 16, y: 0))
        let b = Self.marked(.blue, marker: Point(x: 0, y: 0), markerColor: .green)
        func at(_ t: Transition) throws -> PixelBuffer { try Self.picture(t, from: a, to: b, progress: 0.25) }
        func isWhite(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Bool { Self.rb(p, x, y) == (255, 255, 255) }
        func isGreen(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Bool { Self.rb(p, x, y) == (0, 255, 0) }

        // slideleft: A moved 16 left (marker at 0…8), B enters from the right (its marker at 48…56).
        let slide = try at(.slide(.left))
        #expect(isWhite(slide, 4, 4) && Self.isRed(slide, 20, 4) && isGreen(slide, 52, 4) && Self.isBlue(slide, 60, 4))
        // push is the same motion under an editor's name.
        #expect(try at(.push(.left)) == slide)
        // slideright: A moved 16 right (marker 32…40), B's right end enters on the left (x 0…16 show B's 48…64).
        let slideRight = try at(.slide(.right))
        #expect(isWhite(slideRight, 36, 4) && Self.isBlue(slideRight, 4, 4) && Self.isRed(slideRight, 20, 4))
        // coverleft: A still (marker at 16…24), B slides in over it from the right.
        let cover = try at(.cover(.left))
        #expect(isWhite(cover, 20, 4) && isGreen(cover, 52, 4) && Self.isRed(cover, 44, 4))
        // revealleft: A moves away (marker at 0…8), B still behind it (its marker at 0…8 stays hidden).
        let reveal = try at(.reveal(.left))
        #expect(isWhite(reveal, 4, 4) && Self.isBlue(reveal, 52, 4) && Self.isRed(reveal, 44, 4))
        // slideup on a 48-high frame: 12 px. A's marker (y 0…8 at x 16) leaves through the top; B comes up from below.
        let up = try Self.picture(.slide(.up), from: Self.marked(.red, marker: Point(x: 16, y: 16)), to: b, progress: 0.25)
        #expect(isWhite(up, 20, 6) && Self.isRed(up, 20, 14) && isGreen(up, 4, 40) && Self.isBlue(up, 20, 40))
        let down = try Self.picture(.slide(.down), from: Self.marked(.red, marker: Point(x: 16, y: 16)), to: b, progress: 0.25)
        #expect(isWhite(down, 20, 30) && Self.isBlue(down, 20, 6) && Self.isRed(down, 20, 20))
    }

    @Test func circleOpenShowsBInTheCentreAndCircleCloseInTheCorners() throws {
        let open = try Self.picture(.circleOpen(), progress: 0.5)
        let centre = Self.rb(open, 32, 24), corner = Self.rb(open, 0, 0)
        #expect(centre.b >= 250 && centre.r <= 5, "centre \(centre)")
        #expect(corner.r >= 245 && corner.b <= 10, "corner \(corner)")
        // Halfway out, half and half (xfade's soft edge spans the whole radius).
        let between = Self.rb(open, 32 + 16, 24 + 12)
        #expect(between.r > 40 && between.b > 40)
        let close = try Self.picture(.circleClose(), progress: 0.5)
        #expect(Self.rb(close, 32, 24).r >= 250 && Self.rb(close, 0, 0).b >= 245)
        // Early on, circleopen is still mostly A even at the centre.
        #expect(Self.rb(try Self.picture(.circleOpen(), progress: 0.1), 32, 24).r > 200)
        // Odd sizes: symmetric about the centre pixel, B there, A in every corner.
        let odd = try Self.picture(.transition(from: Self.red, to: Self.blue, using: .circleOpen()), at: 1.5, width: 63, height: 47)
        #expect(Self.rb(odd, 31, 23).b >= 250)
        for (x, y) in [(0, 0), (62, 0), (0, 46), (62, 46)] { #expect(Self.rb(odd, x, y).r >= 245, "corner \(x),\(y)") }
        for (x, y) in [(5, 9), (20, 40), (31, 3)] { #expect(Self.rb(odd, x, y) == Self.rb(odd, 62 - x, 46 - y), "mirror of \(x),\(y)") }
    }

    @Test func transitionsNestInsideTransitions() throws {
        // Inner: red → green, 1 s each, 0.8 s fade (0.2…1.0 s). Outer: inner → blue with a 1 s fade (0.2…1.2 s).
        let inner = Clip.transition(from: .color(.red, duration: 1), to: .color(.green, duration: 1), using: .fade(duration: 0.8))
        let outer = Clip.transition(from: inner, to: .color(.blue, duration: 2), using: .fade(duration: 1))
        #expect(outer.duration == 2.2)
        // At 0.6 s: inner halfway (red and green 50 %), outer 40 % blue.
        let c = Self.rb(try Self.picture(outer, at: 0.6), 32, 24)
        #expect(abs(c.r - 77) <= 2 && abs(c.g - 77) <= 2 && abs(c.b - 102) <= 2, "\(c)")
    }

    @Test func dissolveSwitchesAboutHalfThePixelsAtTheMidpointReproducibly() throws {
        func split(_ p: PixelBuffer) -> (red: Int, blue: Int) {
            var red = 0, blue = 0
            for y in 0..<p.height { for x in 0..<p.width { if Self.isRed(p, x, y) { red += 1 } else if Self.isBlue(p, x, y) { blue += 1 } } }
            return (red, blue)
        }
        let total = Self.width * Self.height
        let mid = try Self.picture(.dissolve(seed: 7), progress: 0.5)
        let counts = split(mid)
        #expect(counts.red + counts.blue == total)          // every pixel is one or the other
        #expect(abs(Double(counts.blue) / Double(total) - 0.5) < 0.05, "\(counts)")
        let quarter = split(try Self.picture(.dissolve(seed: 7), progress: 0.25))
        #expect(abs(Double(quarter.blue) / Double(total) - 0.25) < 0.05, "\(quarter)")
        // Pixels that switched by 25 % stay switched at 50 %.
        let q = try Self.picture(.dissolve(seed: 7), progress: 0.25)
        var stayed = true
        for y in 0..<q.height { for x in 0..<q.width where Self.isBlue(q, x, y) { stayed = stayed && Self.isBlue(mid, x, y) } }
        #expect(stayed)
        #expect(try Self.picture(.dissolve(seed: 7), progress: 0.5) == mid)
        #expect(try Self.picture(.dissolve(seed: 8), progress: 0.5) != mid)
    }

    @Test func zoomInMagnifiesAThenFadesToBAndZoomOutIsItsMirror() throws {
        // A: red with a white 8×8 square in the centre (28…36, 20…28).
        let a = Self.marked(.red, marker: Point(x: 28, y: 20))
        let b = Self.marked(.blue, marker: Point(x: 28, y: 20))
        // p = 0.25: xfade's zoom factor smoothstep(0.5, 1, 0.75) = 0.5, so A is magnified twice: the square spans 24…40.
        let early = try Self.picture(.zoomIn(), from: a, to: Self.blue, progress: 0.25)
        #expect(Self.rb(early, 25, 17) == (255, 255, 255) && Self.isRed(early, 22, 24) && Self.isRed(early, 0, 0))
        // p = 0.75: A is its centre pixel everywhere (white), and B is half in.
        let late = try Self.picture(.zoomIn(), from: a, to: Self.blue, progress: 0.75)
        let c = Self.rb(late, 2, 2)
        #expect(abs(c.r - 128) <= 2 && abs(c.g - 128) <= 2 && c.b == 255, "\(c)")
        // zoomout: B magnified twice at p = 0.75, A gone.
        let out = try Self.picture(.zoomOut(), from: Self.red, to: b, progress: 0.75)
        #expect(Self.rb(out, 25, 17) == (255, 255, 255) && Self.isBlue(out, 22, 24) && Self.isBlue(out, 0, 0))
    }

    @Test func softAndShapedEffectsGoTheirXfadeWay() throws {
        func t(_ name: String) throws -> Transition { try Transition(xfadeName: name) }
        // smoothleft at p = 0.5: B's share is smoothstep(x / w), growing to the right.
        let smooth = try Self.picture(t("smoothleft"), progress: 0.5)
        #expect(Self.rb(smooth, 2, 24).r > 240 && Self.rb(smooth, 61, 24).b > 240 && Self.rb(smooth, 32, 24).b > 100)
        let smoothUp = try Self.picture(t("smoothup"), progress: 0.5)
        #expect(Self.rb(smoothUp, 32, 1).r > 240 && Self.rb(smoothUp, 32, 46).b > 240)
        // vertopen: B in the middle column first; horzclose: B at the top and bottom.
        let vert = try Self.picture(t("vertopen"), progress: 0.5)
        #expect(Self.rb(vert, 32, 24).b > 240 && Self.rb(vert, 0, 24).r > 240)
        let horz = try Self.picture(t("horzclose"), progress: 0.5)
        #expect(Self.rb(horz, 32, 0).b > 240 && Self.rb(horz, 32, 24).r > 240)
        // diagtl: A recedes into the top left.
        let diag = try Self.picture(t("diagtl"), progress: 0.5)
        #expect(Self.rb(diag, 1, 1).r > 240 && Self.rb(diag, 62, 46).b > 240)
        // hlslice: blinds from the right; squeezeh: A in a centre band 75 % high at p = 0.25.
        let slices = try Self.picture(t("hlslice"), progress: 0.5)
        #expect(Self.isRed(slices, 0, 24) && Self.isBlue(slices, 63, 24))
        let squeeze = try Self.picture(t("squeezeh"), progress: 0.25)
        #expect(Self.isRed(squeeze, 32, 24) && Self.isBlue(squeeze, 32, 2) && Self.isBlue(squeeze, 32, 45))
        // circlecrop / rectcrop: black around a closing A, then an opening B.
        let crop = try Self.picture(t("rectcrop"), progress: 0.25)
        #expect(Self.isRed(crop, 32, 24) && Self.rb(crop, 2, 2) == (0, 0, 0))
        let cropLate = try Self.picture(t("circlecrop"), progress: 0.9)
        #expect(Self.isBlue(cropLate, 32, 24) && Self.rb(cropLate, 0, 0) == (0, 0, 0))
    }

    @Test func everyNamedEffectStartsAsAEndsAsBAndChangesInBetween() throws {
        for name in Transition.knownNames {
            let t = try Transition(xfadeName: name, duration: 1)
            let start = try Self.picture(t, progress: 0)
            #expect(Self.isRed(start, 0, 0) && Self.isRed(start, 32, 24) && Self.isRed(start, 63, 47), "\(name) start")
            let end = try Self.picture(t, progress: 1)
            #expect(Self.isBlue(end, 0, 0) && Self.isBlue(end, 32, 24), "\(name) end")
            // (zoomout at 0.6 is B zoomed, which on a flat blue clip is plain blue: look at 0.4 there.)
            let p = name == "zoomout" ? 0.4 : 0.6
            let during = try Self.picture(t, progress: p)
            #expect(during != start && during != end, "\(name) at \(p) should be between A and B")
        }
    }

    // MARK: Transparency

    @Test func transparentClipsMixAndLandOverWhatIsBelow() throws {
        // A: a red square on nothing; B: nothing. Drawn over green.
        let a = Clip(duration: 2) { ctx, _ in ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 32, height: 48)) }
        let b = Clip.empty(duration: 2)
        let mid = try Self.picture(.transition(from: a, to: b, using: .crossfade()), at: 1.5, background: .green)
        let square = Self.rb(mid, 10, 24), rest = Self.rb(mid, 50, 24)
        #expect(abs(square.r - 128) <= 2 && abs(square.g - 128) <= 2 && square.b == 0, "\(square)")   // half red over green
        #expect(rest == (0, 255, 0))
        // Wipes draw each side straight in: B's empty half shows the background.
        let wipe = try Self.picture(.transition(from: a, to: b, using: .wipe(.right)), at: 1.25, background: .green)
        #expect(Self.rb(wipe, 4, 24) == (0, 255, 0) && Self.rb(wipe, 20, 24) == (255, 0, 0))
    }

    // MARK: Custom

    @Test func customEffectGetsBothPicturesAndEasedProgress() throws {
        let seen = Mutex<[Double]>([])
        let t = Transition.custom(name: "halfhalf", duration: 1, easing: .quadIn) { frames, progress in
            seen.withLock { $0.append(progress) }
            let a = frames.outgoing.pixels().rgba(x: 5, y: 5), b = frames.incoming.pixels().rgba(x: 5, y: 5)
            #expect(a.red == 255 && a.blue == 0 && b.blue == 255 && b.red == 0)
            #expect(frames.outgoing.width == 64 && frames.incoming.height == 48 && frames.linearProgress == 0.5)
            // Left half A, right half B at `progress` opacity over it.
            frames.draw(frames.outgoing)
            frames.context.clip(to: Rect(x: 32, y: 0, width: 32, height: 48))
            frames.draw(frames.incoming, opacity: progress)
        }
        #expect(t.name == "halfhalf")
        let p = try Self.picture(t, progress: 0.5)
        #expect(seen.withLock { $0 } == [0.25])
        #expect(Self.isRed(p, 10, 24))
        let right = Self.rb(p, 50, 24)
        #expect(abs(right.b - 64) <= 2 && abs(right.r - 191) <= 2, "\(right)")
    }

    // MARK: Names

    @Test func xfadeNamesRoundTripAndAcceptOtherSpellings() throws {
        for name in Transition.knownNames {
            #expect(try Transition(xfadeName: name).name == name)
        }
        for required in ["fade", "fadeblack", "fadewhite", "wipeleft", "wiperight", "wipeup", "wipedown",
                         "slideleft", "slideright", "slideup", "slidedown", "zoomin", "circleopen", "circleclose", "dissolve"] {
            #expect(Transition.knownNames.contains(required), "\(required)")
        }
        #expect(try Transition(xfadeName: "Wipe-Left").name == "wipeleft")
        #expect(try Transition(xfadeName: "crossfade").name == "fade")
        #expect(try Transition(xfadeName: "push_up").name == "slideup")
        let t = try Transition(xfadeName: "circleopen", duration: 0.5, easing: .easeInOut)
        #expect(t.duration == Time(seconds: 0.5) && t.easing.name == Easing.easeInOut.name)
    }

    @Test func unknownNameErrorListsTheKnownNames() {
        do {
            _ = try Transition(xfadeName: "wipe-sideways")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("\"wipe-sideways\""))
            for name in ["fade", "wipeleft", "slidedown", "circleopen", "dissolve", "zoomin"] {
                #expect(error.description.contains(name), "\(name) missing from: \(error.description)")
            }
        }
        do {
            _ = try Transition(xfadeName: "pixelize")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("pixelize is not one of them"))
        }
        #expect(throws: MovieMakerError.self) { try Transition(xfadeName: "fade", duration: -1) }
    }

    // MARK: Scratch pool

    @Test func scratchPoolReusesSetsPerSizeAndKeepsNoMoreThanWereInUseAtOnce() throws {
        let pool = TransitionScratchPool()
        let first = try pool.withScratch(width: 32, height: 16) { ObjectIdentifier($0) }
        let second = try pool.withScratch(width: 32, height: 16) { ObjectIdentifier($0) }
        #expect(first == second)                                   // reused, not reallocated
        let other = try pool.withScratch(width: 16, height: 16) { s in (ObjectIdentifier(s), s.width) }
        #expect(other.0 != first && other.1 == 16)
        #expect(pool.idleCount == 1)                               // peak 1 in use: the 32×16 set was dropped
        // Three at once (nested, as three threads would): three kept, all distinct.
        let ids = try pool.withScratch(width: 8, height: 8) { a in
            try pool.withScratch(width: 8, height: 8) { b in
                try pool.withScratch(width: 8, height: 8) { c in Set([ObjectIdentifier(a), ObjectIdentifier(b), ObjectIdentifier(c)]) }
            }
        }
        #expect(ids.count == 3 && pool.idleCount == 3)
        for _ in 0..<50 { _ = try pool.withScratch(width: 8, height: 8) { _ in 0 } }
        #expect(pool.idleCount == 3)
    }

    @Test func scratchPoolForgetsItsIdleSetsAndPeakWhenAskedAsARenderEnds() throws {
        let pool = TransitionScratchPool()
        _ = try pool.withScratch(width: 8, height: 8) { a in try pool.withScratch(width: 8, height: 8) { _ in 0 } }
        #expect(pool.idleCount == 2)
        pool.removeIdleAndPeak()
        #expect(pool.idleCount == 0)
        // The peak was forgotten too: one set in use at a time keeps one.
        for _ in 0..<3 { _ = try pool.withScratch(width: 8, height: 8) { _ in 0 } }
        #expect(pool.idleCount == 1)
    }

    /// Issue 34, item 6: scratch belonged to process-wide pools that the first movie to end emptied
    /// while another was still drawing (`title --batch`). Each render session has its own now.
    @Test func eachRenderSessionHasItsOwnScratchReleasedWhenItCloses() throws {
        let clip = Clip.color(.red, duration: 1)
        let first = try RenderSession(opening: clip, width: 32, height: 24)
        let second = try RenderSession(opening: clip, width: 32, height: 24)
        _ = try first.scratch.layers.withLayer(width: 32, height: 24) { _ in 0 }
        _ = try first.scratch.transitions.withScratch(width: 32, height: 24) { _ in 0 }
        #expect(first.scratch.layers.idleCount == 1 && first.scratch.transitions.idleCount == 1)
        #expect(second.scratch.layers.idleCount == 0 && first.scratch !== second.scratch)
        second.close()
        #expect(first.scratch.layers.idleCount == 1 && first.scratch.transitions.idleCount == 1, "another render ending keeps this one's scratch")
        first.close()
        #expect(first.scratch.layers.idleCount == 0 && first.scratch.transitions.idleCount == 0, "closing a session gives its scratch back")
    }

    // MARK: Crossfades drawn in place

    /// A 200×150 photo with gradients and discs, so resampling and mixing have detail to get wrong.
    static func texturedPhoto(_ name: String, hue: Double, alpha: Double = 1, in folder: TemporaryFolder) throws -> URL {
        let c = try Canvas(width: 200, height: 150)
        try c.draw { ctx in
            ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 200, y: 150),
                                colors: [Color(hue: hue, saturation: 0.8, brightness: 0.9, alpha: alpha), Color(hue: hue + 140, saturation: 0.6, brightness: 0.3, alpha: alpha)]))
            ctx.fillRect(ctx.bounds)
            for k in 0..<12 {
                ctx.setFill(Color(hue: hue + Double(k) * 25, saturation: 0.9, brightness: 1, alpha: alpha))
                ctx.fillEllipse(in: Rect(x: Double(k * 37 % 180), y: Double(k * 53 % 130), width: 23, height: 17))
            }
        }
        let url = folder.file(name)
        try c.writePNG(to: url)
        return url
    }

    @Test(arguments: [Slideshow.Fit.fill, .fit])
    func crossfadeIntoAnOpaquePhotoIsDrawnInPlaceWithinOneLevelOfTheTwoCanvasMix(fit: Slideshow.Fit) throws {
        // `fill` with opaque pictures: B painted at the fade's alpha in one pass. `fit` on black: B in one layer.
        let folder = try TemporaryFolder("inPlaceFade\(fit)")
        let a = try Self.texturedPhoto("a.png", hue: 30, alpha: 0.6, in: folder)   // A may be anything
        let b = try Self.texturedPhoto("b.png", hue: 210, in: folder)
        var show = Slideshow(photos: [Slideshow.Photo(url: a), Slideshow.Photo(url: b)])
        show.fit = fit
        show.duration = 1
        show.transition = .crossfade(duration: 0.5)
        show.kenBurns = Slideshow.KenBurns(zoom: 0.1, pan: 0.05, direction: .zoomIn, easing: .linear)
        let clip = try show.clip(width: 96, height: 64)
        let counter = EventCounter()
        var worst = 0
        // The crossfade runs from 1.0 to 1.5 s.
        for t in [1.05, 1.2, 1.25, 1.4, 1.45] {
            let inPlace = try TransitionRenderer.$inPlaceFades.withValue(counter) {
                try clip.still(at: Time(seconds: t), width: 96, height: 64).pixels()
            }
            let mixed = try TransitionRenderer.$mixesEveryFade.withValue(true) {
                try clip.still(at: Time(seconds: t), width: 96, height: 64).pixels()
            }
            let alone = try clip.still(at: Time(seconds: 1.6), width: 96, height: 64).pixels()
            #expect(inPlace != alone)                 // a mix, not B on its own
            for i in inPlace.bytes.indices { worst = max(worst, abs(Int(inPlace.bytes[i]) - Int(mixed.bytes[i]))) }
        }
        #expect(worst <= 1, "in place vs the two-canvas mix: \(worst) levels")
        // Each of the five frames took the in-place path (the mixed references did not).
        #expect(counter.count == 5)
    }

    // MARK: Movies

    /// Renders `clip` at 320×240, 30 fps, with `threads` drawing threads, and decodes it.
    static func movie(_ clip: Clip, threads: Int, name: String = #function) throws -> [DecodedFrame] {
        let dir = try TemporaryFolder(name + "\(threads)")
        let url = dir.file("t.mp4")
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30,
                                   settings: EncoderSettings(crf: 12, preset: .ultrafast, drawingThreads: threads))
        try movie.add(clip)
        try movie.finish()
        return try decodeAll(url)
    }

    @Test func movieFramesInsideACrossfadeDecodeToBlends() throws {
        // 1 s red, 1 s blue, 0.5 s crossfade: 45 frames; the overlap is frames 15…29.
        let clip = Clip.transition(from: .color(.red, duration: 1), to: .color(.blue, duration: 1), using: .crossfade(duration: 0.5))
        let frames = try Self.movie(clip, threads: 1)
        #expect(frames.count == 45)
        func share(_ i: Int) -> (r: Double, b: Double) {
            let c = meanColor(frames[i].pixels, x: 160, y: 120)
            return (c.r / 255, c.b / 255)
        }
        #expect(share(5).r > 0.97 && share(5).b < 0.03)
        #expect(share(40).b > 0.97 && share(40).r < 0.03)
        for i in [17, 22, 27] {
            let p = Double(i - 15) / 15
            let s = share(i)
            #expect(abs(s.b - p) < 0.03 && abs(s.r - (1 - p)) < 0.03, "frame \(i): \(s), expected B share \(p)")
        }
    }

    @Test func drawingOnThreeThreadsGivesTheSameMovieAsOne() throws {
        // Effects from every family: scratch mixes (fade, dissolve, circle), direct regions (wipe, slide), zoom.
        let colors: [Color] = [.red, .blue, .green, .yellow, .magenta, .cyan, .white]
        let clips = colors.map { c in
            Clip(duration: 0.5) { ctx, f in
                ctx.clear(c)
                ctx.setFill(.black)
                ctx.fillRect(Rect(x: 20 + 200 * f.progress, y: 100, width: 40, height: 40))
            }
        }
        let transitions: [Transition?] = [.crossfade(duration: 0.25), .dissolve(seed: 3, duration: 0.25), .wipe(.up, duration: 0.25),
                                          .circleOpen(duration: 0.25), .slide(.left, duration: 0.25, easing: .easeInOut), .zoomIn(duration: 0.25)]
        let clip = try Clip.sequence(clips, transitions: transitions)
        let one = try Self.movie(clip, threads: 1)
        let three = try Self.movie(clip, threads: 3)
        #expect(one.count == 60 && three.count == one.count)
        for (x, y) in zip(one, three) {
            #expect(psnr(x.pixels, y.pixels) > 50, "frame \(x.index)")
        }
        // And the frames inside the dissolve (blue to green, 0.5…0.75 s) really are a pixel mix, not a
        // crossfade: both colours on average, with the luma of each pixel far from the mean.
        let px = one[19].pixels
        var lumas: [Double] = [], green = 0.0, blue = 0.0
        for y in 20..<80 { for x in 100..<220 {
            let c = px.rgba(x: x, y: y)
            lumas.append(0.2126 * Double(c.red) + 0.7152 * Double(c.green) + 0.0722 * Double(c.blue))
            green += Double(c.green); blue += Double(c.blue)
        } }
        let n = Double(lumas.count), mean = lumas.reduce(0, +) / n
        let deviation = (lumas.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n).squareRoot()
        #expect((0.3...0.7).contains(green / n / 255) && (0.3...0.7).contains(blue / n / 255), "green \(green / n), blue \(blue / n)")
        #expect(deviation > 40, "luma deviation \(deviation)")
    }
}

/// The same effects rendered by FFmpeg's own xfade filter (the ffmpeg CLI), compared pixel by pixel.
@Suite struct TransitionXfadeComparisonTests {
    /// Textured pictures, so both direction and motion show: coloured squares on red and on blue.
    static func pictures() -> (Clip, Clip) {
        let a = Clip(duration: 2) { ctx, _ in
            ctx.clear(.red)
            ctx.setFill(.white); ctx.fillRect(Rect(x: 16, y: 8, width: 8, height: 8))
            ctx.setFill(.yellow); ctx.fillRect(Rect(x: 40, y: 28, width: 12, height: 8))
        }
        let b = Clip(duration: 2) { ctx, _ in
            ctx.clear(.blue)
            ctx.setFill(.green); ctx.fillRect(Rect(x: 8, y: 30, width: 8, height: 8))
            ctx.setFill(.cyan); ctx.fillRect(Rect(x: 44, y: 6, width: 12, height: 10))
        }
        return (a, b)
    }

    @Test(arguments: ["fade", "wipeleft", "wiperight", "wipeup", "wipedown", "slideleft", "slideright", "slideup", "slidedown",
                      "wipetl", "wipetr", "wipebl", "wipebr", "smoothleft", "smoothright", "smoothup", "smoothdown",
                      "circleopen", "circleclose", "vertopen", "vertclose", "horzopen", "horzclose",
                      "diagtl", "diagtr", "diagbl", "diagbr", "hlslice", "hrslice", "vuslice", "vdslice",
                      "squeezeh", "squeezev", "zoomin", "circlecrop", "rectcrop", "radial"])
    func matchesFFmpegXfade(name: String) throws {
        guard FFTools.available else { return }
        let dir = try TemporaryFolder("xfade-\(name)")
        let (a, b) = Self.pictures()
        for (clip, file) in [(a, "a.png"), (b, "b.png")] {
            let canvas = try Canvas(width: 64, height: 48)
            try canvas.draw { ctx in try clip.draw(in: ctx, at: Frame(index: 0, movieIndex: 0, rate: 4, exactTime: 0, duration: 2)) }
            try canvas.writePNG(to: dir.file(file))
        }
        let raw = dir.file("out.rgb")
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-y",
                                         "-loop", "1", "-framerate", "4", "-t", "2", "-i", dir.file("a.png").path,
                                         "-loop", "1", "-framerate", "4", "-t", "2", "-i", dir.file("b.png").path,
                                         "-filter_complex", "[0]format=gbrp[a];[1]format=gbrp[b];[a][b]xfade=transition=\(name):duration=1:offset=1,format=rgb24",
                                         "-f", "rawvideo", raw.path])
        #expect(r.status == 0, "ffmpeg: \(r.stderr)")
        let data = try [UInt8](Data(contentsOf: raw))
        let frameBytes = 64 * 48 * 3
        let joined = Clip.transition(from: a, to: b, using: try Transition(xfadeName: name, duration: 1))
        // Frames 5, 6, 7 are at 1.25, 1.5, 1.75 s: progress 0.25, 0.5, 0.75.
        for index in [5, 6, 7] {
            guard data.count >= (index + 1) * frameBytes else { Issue.record("ffmpeg gave \(data.count / frameBytes) frames"); return }
            let ours = try TransitionTests.picture(joined, at: Time(value: Int64(index), timescale: 4))
            var far = 0, total = 0
            for y in 0..<48 { for x in 0..<64 {
                let c = ours.rgba(x: x, y: y)
                let o = (y * 64 + x) * 3 + index * frameBytes
                let d = max(abs(Int(c.red) - Int(data[o])), abs(Int(c.green) - Int(data[o + 1])), abs(Int(c.blue) - Int(data[o + 2])))
                total += d
                if d > 24 { far += 1 }
            } }
            let mean = Double(total) / Double(64 * 48)
            #expect(far <= 64 * 48 / 25 && mean < 4, "\(name) at progress \(Double(index - 4) / 4): \(far) pixels differ by more than 24 levels, mean difference \(mean)")
        }
    }
}

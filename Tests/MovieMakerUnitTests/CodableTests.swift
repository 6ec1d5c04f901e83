import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Encodes `value` with `JSONEncoder`, decodes it back with `JSONDecoder`, and expects the same value.
@discardableResult
private func roundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    let data = try JSONEncoder().encode(value)
    let back = try JSONDecoder().decode(T.self, from: data)
    #expect(back == value, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
    return back
}

/// The JSON text of `value`, keys sorted, slashes not escaped.
private func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// `T` decoded from hand-written JSON.
private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

/// The error encoding `value` throws, as a `MovieMakerError`.
private func encodingError<T: Encodable>(_ value: T) -> MovieMakerError? {
    do {
        _ = try JSONEncoder().encode(value)
        return nil
    } catch {
        return error as? MovieMakerError
    }
}

/// The `MovieMakerError` underlying the `DecodingError` that decoding `text` as `T` throws.
private func decodingError<T: Decodable>(_ type: T.Type, _ text: String) -> MovieMakerError? {
    do {
        _ = try decode(T.self, text)
        return nil
    } catch let DecodingError.dataCorrupted(context) {
        return context.underlyingError as? MovieMakerError
    } catch {
        return nil
    }
}

/// Round trips of every data value through `JSONEncoder`/`JSONDecoder`, their JSON forms, hand-written JSON,
/// and the values that cannot be encoded.
@Suite struct CodableTests {
    // MARK: Time

    @Test func timesRoundTripExactly() throws {
        let times: [Time] = [.zero, 3, -2, Time(value: 5, timescale: 2), Time(value: 1, timescale: 10), Time(value: 1001, timescale: 30000),
                             Time(value: -7, timescale: 3), Time(value: 1, timescale: 48000), Time(value: 123_456_789, timescale: 1_000_000),
                             FrameRate.ntsc.time(ofFrame: 1_078_920), Time(value: 1, timescale: 1 << 40), Time(value: Int64.max / 3, timescale: 7)]
        for t in times { try roundTrip(t) }
        #expect(try json(Time(value: 5, timescale: 2)) == "2.5")
        #expect(try json(Time(3)) == "3")
        #expect(try json(Time(value: 1, timescale: 1000)) == "0.001")
        #expect(try json(Time(value: -1, timescale: 4)) == "-0.25")
        #expect(try json(Time(value: 1001, timescale: 30000)) == "\"1001/30000\"")
        #expect(try json(Time(value: 1, timescale: 3)) == "\"1/3\"")
    }

    @Test func timesDecodeFromNumbersAsExactDecimals() throws {
        #expect(try decode(Time.self, "0.1") == Time(value: 1, timescale: 10))
        #expect(try decode(Time.self, "2.5") == Time(value: 5, timescale: 2))
        #expect(try decode(Time.self, "0.30000000000000004") == Time(value: 30_000_000_000_000_004, timescale: 100_000_000_000_000_000))
        #expect(try decode(Time.self, "1e-3") == Time(value: 1, timescale: 1000))
        #expect(try decode(Time.self, "-4") == Time(-4))
        #expect(try decode(Time.self, "\"0.1\"") == Time(value: 1, timescale: 10))
        #expect(try decode(Time.self, "\"1001/30000\"") == Time(value: 1001, timescale: 30000))
        #expect(try decode(Time.self, "\" 3003 / 90000 \"") == Time(value: 1001, timescale: 30000))
        #expect(try decode(Time.self, "\"1.5/3\"") == Time(value: 1, timescale: 2))
        // 0.1 is 1/10 exactly, not the Double nearest it.
        #expect(try decode(Time.self, "0.1") * 3 == Time(value: 3, timescale: 10))
        for bad in ["\"1/0\"", "\"soon\"", "\"\"", "true", "\"1e400\"", "123456789012345678901234567890"] {
            let error = decodingError(Time.self, bad)
            #expect(error?.description.contains("1001/30000") == true, "\(bad): \(String(describing: error))")
        }
    }

    @Test func frameRatesRoundTripAsIntegersOrFractions() throws {
        for rate in [FrameRate.film, .ntscFilm, .pal, .ntsc, .ntsc60, 60, FrameRate(numerator: 2997, denominator: 100)!] { try roundTrip(rate) }
        #expect(try json(FrameRate.pal) == "25")
        #expect(try json(FrameRate.ntsc) == "\"30000/1001\"")
        // The NTSC decimals mean the 1000/1001 rates, as on the command line; fractions stay exact.
        #expect(try decode(FrameRate.self, "29.97") == .ntsc)
        #expect(try decode(FrameRate.self, "23.976") == .ntscFilm)
        #expect(try decode(FrameRate.self, "\"2997/100\"") == FrameRate(numerator: 2997, denominator: 100))
        #expect(try decode(FrameRate.self, "12.5") == FrameRate(numerator: 25, denominator: 2))
        #expect(try decode(FrameRate.self, "\"24000/1001\"") == .ntscFilm)
        #expect(try decode(FrameRate.self, "\"30\"") == 30)
        #expect(decodingError(FrameRate.self, "0")?.description.contains("invalid frame rate") == true)
        #expect(decodingError(FrameRate.self, "\"-25\"") != nil)
    }

    @Test func doublesBecomeTheSimplestTimeThatReadsBackTheSame() {
        #expect(Time(roundTripping: 0.1) == Time(value: 1, timescale: 10))
        #expect(Time(roundTripping: 2.5) == Time(value: 5, timescale: 2))
        #expect(Time(roundTripping: -1.0 / 3) == Time(value: -1, timescale: 3))
        #expect(Time(roundTripping: FrameRate.ntsc.seconds(ofFrame: 7)) == FrameRate.ntsc.time(ofFrame: 7))
        for x in [0.0, 1e-9, 0.123456789, 1234.5678, 0.30000000000000004, 1 / 48000.0, 86400.25, .pi] {
            #expect(Time(roundTripping: x).seconds == x, "\(x)")
        }
        #expect(Time(value: 7, timescale: 2) / 7 == Time(value: 1, timescale: 2))
    }

    // MARK: Easing

    @Test func everyBuiltInEasingRoundTripsByName() throws {
        for name in Easing.allNames {
            let e = try Easing(named: name)
            #expect(try roundTrip(e).name == name)
        }
        let parameterised: [Easing] = [
            .cubicBezier(0.1, 0.7, 1, 0.1), .cubicBezier(0.25, -0.5, 0.75, 1.5), .cubicBezier(1.5, 0, -1, 1),
            .steps(4), .steps(5, position: .jumpNone), .steps(3, position: .jumpBoth), .steps(1, position: .jumpStart),
            .spring(), .spring(mass: 2, stiffness: 50, damping: 3, initialVelocity: 1.5), .spring(response: 0.3, dampingFraction: 0.4),
            .quadIn.reversed, .bounceOut.mirrored, .backOut.squished(into: 0.2...0.8), .easeInOut.reversed.mirrored,
            .quadIn.then(.quadOut), .sineIn.then(.cubicBezier(0.2, 0, 0, 1).reversed, at: 0.3),
            .steps(4).squished(into: 0.125...1).then(.spring(), at: 0.75), .linear.then(.hold.then(.linear, at: 0.25), at: 0.6),
        ]
        for e in parameterised {
            let back = try roundTrip(e)
            let parsed = try Easing(named: e.name)
            #expect(parsed == e, "\(e.name)")
            for t in stride(from: 0.0, through: 1.0, by: 0.05) {
                #expect(back(t) == e(t), "\(e.name) at \(t)")
            }
        }
        #expect(try json(Easing.easeInOut) == "\"ease-in-out\"")
        #expect(try json(Easing.quadIn.squished(into: 0.2...0.8)) == "\"quadIn.squished(into: 0.2…0.8)\"")
        #expect(try decode(Easing.self, "\"easeOutQuad\"") == .quadOut)
        #expect(try decode(Easing.self, "\"quad-in . reversed\"") == Easing.quadIn.reversed)
        #expect(try decode(Easing.self, "\"cubicOut.squished(into: 0.5...1)\"") == Easing.cubicOut.squished(into: 0.5...1))
        #expect(decodingError(Easing.self, "\"wobble\"")?.description.contains("\"wobble\"") == true)
        #expect(decodingError(Easing.self, "\"quadIn.sideways\"")?.description.contains(".reversed") == true)
    }

    @Test func easingsMadeFromFunctionsCannotBeEncoded() {
        let custom = Easing { $0 * $0 }
        #expect(encodingError(custom)?.description.contains("the easing \"custom\" cannot be written as data") == true)
        let named = Easing(name: "wobble") { $0 }.reversed
        #expect(encodingError(named)?.description.contains("\"wobble.reversed\"") == true)
        #expect(encodingError(Easing.quadIn.then(custom)) != nil)
        // A built-in curve and a function under its name are different easings.
        #expect(Easing(name: "linear") { $0 } != .linear)
        #expect(encodingError(Easing.cubicBezier(0.5, .infinity, 0.5, 1))?.description.contains("finite") == true)
    }

    // MARK: Keyframes and staggers

    @Test func keyframeTracksRoundTrip() throws {
        let volume = KeyframeTrack(1.0).then(to: 0.25, at: 1.5, easing: .quadOut).then(to: 0.8, at: FrameRate.ntsc.time(ofFrame: 100), easing: .steps(3))
        try roundTrip(volume)
        try roundTrip(KeyframeTrack(Point(x: 0, y: 100)).then(to: Point(x: 200, y: -5.5), at: 4, easing: .backOut))
        try roundTrip(KeyframeTrack(Color.red).then(to: Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), at: 0.1, easing: .easeIn))
        try roundTrip(KeyframeTrack(Rect(x: 0, y: 0, width: 10, height: 10), at: Time(value: 1, timescale: 3)))
        try roundTrip(Keyframe(time: 0.1, value: 2.0, easing: .elasticOut))
        #expect(Keyframe(time: 0.1, value: 2.0).time == Time(value: 1, timescale: 10))
        #expect(try json(Keyframe(time: 1.5, value: 2.0, easing: .hold)) == #"{"easing":"hold","time":1.5,"value":2}"#)
        let handWritten = try decode(KeyframeTrack<Double>.self, #"{"keyframes": [{"time": 2, "value": 1, "easing": "ease-in"}, {"time": 0.5, "value": 0}]}"#)
        #expect(handWritten.keyframes.map(\.time) == [Time(value: 1, timescale: 2), 2])
        #expect(handWritten.keyframes[1].easing == .easeIn && handWritten.keyframes[0].easing == .linear)
        #expect(decodingError(KeyframeTrack<Double>.self, #"{"keyframes": []}"#)?.description.contains("at least one keyframe") == true)
        // A keyframe made from a time that is not a finite number cannot be encoded.
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Keyframe(time: .nan, value: 1.0)) }
    }

    @Test func staggersRoundTrip() throws {
        try roundTrip(Stagger(count: 5, delay: 0.1, duration: 0.4, order: .fromCenter, easing: .backOut))
        try roundTrip(Stagger(count: 12, delay: FrameRate.ntsc.frameDuration, duration: 1, order: .random(seed: 42), easing: .spring()))
        try roundTrip(Stagger(count: 7, spread: 0.6, duration: 0.5, order: .fromEdges))
        for order in [Stagger.Order.forward, .reverse, .fromCenter, .fromEdges, .random(seed: .max)] {
            try roundTrip(Stagger(count: 3, delay: 1, duration: 2, order: order))
        }
        #expect(try json(Stagger(count: 3, delay: 0.25, duration: 1, order: .random(seed: 9))) ==
                #"{"count":3,"delay":0.25,"duration":1,"easing":"linear","order":{"seed":9,"type":"random"}}"#)
        let s = try decode(Stagger.self, #"{"count": 4, "delay": "1/30", "duration": 0.5, "order": "reverse"}"#)
        #expect(s.exactDelay == Time(value: 1, timescale: 30) && s.order == .reverse && s.easing == .linear)
        #expect(s.exactStartTime(ofItem: 0) == Time(value: 1, timescale: 10))
    }

    // MARK: Geometry, paint, paths

    @Test func geometryRoundTrips() throws {
        try roundTrip(Point(x: -1.5, y: 1e-300))
        try roundTrip(Size(width: 1920, height: 1080.25))
        try roundTrip(Rect(x: 0.1, y: 0.2, width: 0.3, height: 0.4))
        try roundTrip(AffineTransform.rotation(0.3).scaledBy(x: 2, y: -1).translatedBy(x: 10, y: 20))
        #expect(try json(Rect(x: 1, y: 2, width: 3, height: 4)) == #"{"origin":{"x":1,"y":2},"size":{"height":4,"width":3}}"#)
        #expect(try decode(Rect.self, #"{"x": 1, "y": 2, "width": 3, "height": 4}"#) == Rect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func coloursRoundTripAsHexWhenExact() throws {
        for c in [Color.black, .white, .clear, .orange, .gray, Color(red8: 0x10, green8: 0x18, blue8: 0x20), Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4),
                  Color(red8: 255, green8: 128, blue8: 0, alpha: 128.0 / 255), Color(red: 1.5, green: -0.5, blue: 0.5)] {
            try roundTrip(c)
        }
        #expect(try json(Color(red8: 255, green8: 128, blue8: 0)) == "\"#ff8000\"")
        #expect(try json(Color(red8: 255, green8: 128, blue8: 0, alpha: 128.0 / 255)) == "\"#ff800080\"")
        #expect(try json(Color.orange) == #"{"alpha":1,"blue":0,"green":0.5,"red":1}"#)
        #expect(try decode(Color.self, "\"tomato\"") == Color(named: "tomato"))
        #expect(try decode(Color.self, #"{"red": 1, "green": 0.5, "blue": 0}"#) == .orange)
        #expect(decodingError(Color.self, "\"not a colour\"")?.description.contains("\"not a colour\"") == true)
    }

    @Test func paintsAndStrokesRoundTrip() throws {
        let stops = [GradientStop(0, .red), GradientStop(0.35, Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)), GradientStop(1, .clear)]
        let paints: [Paint] = [.color(.orange), .linear(from: Point(x: 0, y: 0), to: Point(x: 100, y: 50), stops: stops),
                               .radialGradient(startCenter: Point(x: 5, y: 5), startRadius: 2, endCenter: Point(x: 6, y: 7), endRadius: 90, stops: stops)]
        for p in paints { try roundTrip(p) }
        try roundTrip(stops[1])
        #expect(try decode(Paint.self, "\"#ff0000\"") == .color(.red))
        #expect(try decode(Paint.self, #"{"type": "radialGradient", "startCenter": {"x": 0, "y": 0}, "endCenter": {"x": 0, "y": 0}, "endRadius": 10, "stops": [{"location": 0, "color": "white"}]}"#)
                == .radial(center: .zero, radius: 10, stops: [GradientStop(0, .white)]))
        try roundTrip(StrokeStyle(paints[1], width: 2.5, cap: .square, join: .bevel, dash: [8, 4.5]))
        try roundTrip(StrokeStyle())
        #expect(try decode(StrokeStyle.self, #"{"width": 3}"#) == StrokeStyle(width: 3))
        for cap in [LineCap.butt, .round, .square] { try roundTrip(cap) }
        for join in [LineJoin.miter, .round, .bevel] { try roundTrip(join) }
        for rule in [FillRule.winding, .evenOdd] { try roundTrip(rule) }
        try roundTrip(Shadow(offset: Point(x: 0, y: 4), blur: 8, color: Color(white: 0, alpha: 0.6)))
        #expect(try decode(Shadow.self, #"{"offset": {"x": 1, "y": 2}, "blur": 3}"#) == Shadow(offset: Point(x: 1, y: 2), blur: 3))
        for fit in ImageFit.allCases { try roundTrip(fit) }
    }

    @Test func pathsRoundTripExactly() throws {
        var star = Path()
        star.move(to: Point(x: 0.1, y: 1e-7))
        star.line(to: Point(x: 100.25, y: -3))
        star.quadCurve(to: Point(x: 50, y: 50), control: Point(x: 1 / 3, y: 2 / 3))
        star.curve(to: Point(x: 1e20, y: 0), control1: Point(x: .pi, y: -.pi), control2: Point(x: 7, y: 8))
        star.closeSubpath()
        star.move(to: Point(x: 5, y: 5))
        star.arc(center: Point(x: 40, y: 40), radius: 12.5, startAngle: 0, endAngle: 2)
        try roundTrip(star)
        #expect(try json(star).hasPrefix("\"M0.1 1e-07L100.25 -3Q"))
        try roundTrip(Path())
        // Not starting with a move: written as elements.
        let loose = Path(elements: [.line(to: Point(x: 1, y: 2)), .closeSubpath, .curve(to: Point(x: 3, y: 4), control1: .zero, control2: Point(x: 1, y: 1))])
        try roundTrip(loose)
        #expect(try json(loose).hasPrefix(#"[{"to":{"x":1,"y":2},"type":"line"}"#))
        #expect(try decode(Path.self, "\"M10 10 h 20 v 20 z\"") == Path(svg: "M10 10 L30 10 L30 30 Z"))
        #expect(decodingError(Path.self, "\"M10 10 X\"")?.description.contains("invalid SVG path data") == true)
    }

    // MARK: Text

    @Test func textStylesRoundTrip() throws {
        for weight in FontWeight.allCases { try roundTrip(weight) }
        for slant in [FontSlant.normal, .italic, .oblique] { try roundTrip(slant) }
        for a in [TextAlignment.left, .center, .right, .justify] { try roundTrip(a) }
        for a in [TextVerticalAlignment.top, .center, .bottom] { try roundTrip(a) }
        try roundTrip(TextOutline(color: .black, width: 2.5))
        let style = TextStyle(font: TextFont(family: "DejaVu Serif", size: 37.5, weight: .semibold, slant: .italic), color: .orange,
                              alignment: .justify, lineSpacing: 1.25, letterSpacing: -0.5, outline: TextOutline(color: .white, width: 3),
                              isMarkup: true, language: "ja")
        try roundTrip(style)
        #expect(try decode(FontWeight.self, "700") == .bold)
        #expect(try decode(TextStyle.self, #"{"font": {"size": 40}}"#) == TextStyle(font: TextFont(size: 40)))
        #expect(try decode(TextStyle.self, #"{"font": {"family": "DejaVu Sans Mono", "size": 12, "weight": 900}, "color": "white", "alignment": "center"}"#)
                == TextStyle(font: TextFont(family: "DejaVu Sans Mono", size: 12, weight: .heavy), color: .white, alignment: .center))
    }

    @Test func fontsFromFilesRoundTripByTheirFile() throws {
        let url = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
        let font = try TextFont.file(url, size: 30, slant: .oblique)
        #expect(font.file == url)
        let back = try roundTrip(font)
        #expect(back.family == font.family && back.weight == .bold)
        #expect(try json(font).contains(#""file":"/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf""#))
        let missing = #"{"size": 10, "file": "/nonexistent/Font.ttf"}"#
        #expect(decodingError(TextFont.self, missing)?.description.contains("/nonexistent/Font.ttf") == true)
    }

    // MARK: Title cards

    @Test func titleAnimationsRoundTrip() throws {
        let styles: [TitleAnimation.Style] = [.none, .fade, .pop, .typewriter, .letters, .words, .blur] + Edge.allCases.map { .slide(from: $0) }
        for style in styles {
            try roundTrip(style)
            try roundTrip(TitleAnimation(style, duration: 0.7, easing: .circOut, cascade: 0.15))
        }
        for edge in Edge.allCases { try roundTrip(edge) }
        try roundTrip(TitleAnimation(.words, duration: FrameRate.ntsc.time(ofFrame: 45), cascade: FrameRate.ntsc.frameDuration))
        #expect(try json(TitleAnimation.slide(from: .left)) ==
                #"{"cascade":0.2,"duration":0.8,"easing":"cubicOut","style":{"from":"left","type":"slide"}}"#)
        #expect(try decode(TitleAnimation.self, #"{"style": "pop"}"#) == .pop(duration: 0.8))
        #expect(try decode(TitleAnimation.self, #"{"style": "slide", "duration": 1}"#) == .slide(duration: 1))
        #expect(TitleAnimation(.fade, duration: 0.8).duration == Time(value: 4, timescale: 5))
    }

    @Test func titleCardsRoundTrip() throws {
        var card = TitleCard("Release 2.4", subtitle: "What's new", body: "Faster renders.\nFewer surprises.", duration: FrameRate.ntsc.time(ofFrame: 150),
                             fontFamily: "DejaVu Serif")
        card.layout = .lowerThird
        card.background = .paint(.linear(from: .zero, to: Point(x: 1920, y: 0), colors: [.black, Color(red: 0.1, green: 0.2, blue: 0.35)]))
        card.titleStyle.color = .yellow
        card.titleStyle.outline = TextOutline(color: .black, width: 4)
        card.subtitleStyle = TextStyle(font: TextFont(family: "DejaVu Sans", size: 48, weight: .light, slant: .italic), color: .white, alignment: .right)
        card.bodyStyle.lineSpacing = 1.4
        card.safeMargin = 0.05
        card.autoFit = false
        card.entrance = TitleAnimation(.letters, duration: 1.25, easing: .spring(), cascade: 0.1)
        card.exit = .slide(from: .right, duration: 0.4)
        try roundTrip(card)
        for background in [TitleCard.Background.none, .color(.orange), .imageFile(URL(fileURLWithPath: "/photos/sky.jpg"), fit: .fit)] {
            var c = card
            c.background = background
            try roundTrip(c)
        }
        try roundTrip(TitleCard("Just a title"))
    }

    @Test func aHandWrittenTitleCardDecodes() throws {
        let card = try decode(TitleCard.self, """
            {
              "title": "Holiday 2025",
              "subtitle": "Lisbon",
              "duration": 5,
              "layout": "lowerThird",
              "background": "#102030",
              "titleStyle": {"font": {"family": "DejaVu Serif", "size": 96, "weight": "bold"}, "color": "white"},
              "entrance": {"style": {"type": "slide", "from": "left"}, "duration": 0.6, "easing": "ease-out"},
              "exit": {"style": "fade", "duration": "1001/2000"}
            }
            """)
        var expected = TitleCard("Holiday 2025", subtitle: "Lisbon", duration: 5)
        expected.layout = .lowerThird
        expected.background = .color(Color(red8: 0x10, green8: 0x20, blue8: 0x30))
        expected.titleStyle = TextStyle(font: TextFont(family: "DejaVu Serif", size: 96, weight: .bold), color: .white)
        expected.entrance = TitleAnimation(.slide(from: .left), duration: 0.6, easing: .easeOut)
        expected.exit = TitleAnimation(.fade, duration: Time(value: 1001, timescale: 2000))
        #expect(card == expected)
        _ = try card.clip(width: 320, height: 180)
    }

    @Test func imageBackgroundsCannotBeEncodedButImageFilesCan() throws {
        var card = TitleCard("Pixels")
        card.background = .image(try Canvas(width: 4, height: 3).makeImage(), fit: .fill)
        let error = encodingError(card)
        #expect(error?.description.contains("image background (4×3 pixels) cannot be written as data") == true)
        #expect(error?.description.contains(".imageFile") == true)

        // The same picture named by its file: encoded as the path, read when the card becomes a clip.
        let folder = try TemporaryFolder()
        let url = folder.file("red.png")
        let red = try Canvas(width: 8, height: 6)
        try red.draw { ctx in ctx.clear(.red) }
        try red.writePNG(to: url)
        card.background = .imageFile(url, fit: .fill)
        let back = try roundTrip(card)
        let still = try back.clip(width: 64, height: 36).still(at: 2, width: 64, height: 36).pixels()
        #expect(still.rgba(x: 2, y: 2) == (255, 0, 0, 255))
        card.background = .imageFile(folder.file("missing.png"), fit: .fit)
        #expect(throws: MovieMakerError.self) { try card.clip(width: 64, height: 36) }
    }

    // MARK: Transitions

    @Test func everyTransitionRoundTrips() throws {
        for name in Transition.knownNames {
            let t = try Transition(xfadeName: name, duration: 0.75, easing: .easeInOut)
            let back = try roundTrip(t)
            #expect(back.name == name)
            #expect(try json(t.kind) == "\"\(name)\"")
        }
        var kinds: [Transition.Kind] = [.fade, .fadeThrough(.black), .fadeThrough(.white), .fadeThrough(Color(red: 0.1, green: 0.2, blue: 0.3)),
                                        .dissolve(seed: 0), .dissolve(seed: 42), .zoomIn, .zoomOut, .circleOpen, .circleClose, .circleCrop, .rectCrop,
                                        .verticalOpen, .verticalClose, .horizontalOpen, .horizontalClose, .radial, .squeezeHorizontal, .squeezeVertical]
        for d in Transition.Direction.allCases { kinds += [.wipe(d), .slide(d), .cover(d), .reveal(d), .smooth(d), .slices(d)] }
        for c in Transition.Corner.allCases { kinds += [.wipeCorner(c), .diagonal(c)] }
        for kind in kinds {
            try roundTrip(kind)
            try roundTrip(Transition(kind, duration: FrameRate.ntsc.time(ofFrame: 20), easing: .cubicBezier(0.4, 0, 0.2, 1)))
        }
        for d in Transition.Direction.allCases { try roundTrip(d) }
        for c in Transition.Corner.allCases { try roundTrip(c) }
        #expect(try json(Transition.Kind.dissolve(seed: 7)) == #"{"seed":7,"type":"dissolve"}"#)
        #expect(try json(Transition.fadeThrough(Color(red8: 0x20, green8: 0x30, blue8: 0x40))) ==
                ##"{"duration":1,"easing":"linear","kind":{"color":"#203040","type":"fadeThrough"}}"##)
        #expect(try json(Transition.wipe(.left, duration: 0.5, easing: .easeOut)) == #"{"duration":0.5,"easing":"ease-out","kind":"wipeleft"}"#)
    }

    @Test func handWrittenTransitionsDecode() throws {
        #expect(try decode(Transition.self, #"{"kind": "wipeleft", "duration": 0.5, "easing": "ease-in-out"}"#)
                == .wipe(.left, duration: 0.5, easing: .easeInOut))
        #expect(try decode(Transition.self, #"{"kind": {"type": "wipe", "direction": "left"}}"#) == .wipe(.left))
        #expect(try decode(Transition.self, #"{"kind": {"type": "diagonal", "corner": "topLeft"}, "duration": "1001/1000"}"#)
                == Transition(.diagonal(.topLeft), duration: Time(value: 1001, timescale: 1000)))
        #expect(try decode(Transition.self, #"{"kind": {"type": "fadeThrough", "color": "navy"}}"#) == .fadeThrough(Color(named: "navy")!))
        #expect(try decode(Transition.self, #"{"kind": {"type": "circleopen"}}"#) == .circleOpen())
        #expect(try decode(Transition.self, #"{"kind": {"type": "zoomOut"}, "duration": 2}"#) == .zoomOut(duration: 2))
        #expect(try decode(Transition.self, #""push-up""#) == .slide(.up))
        #expect(try decode(Transition.self, #"{"kind": "crossfade"}"#) == .crossfade())
        let unknown = decodingError(Transition.self, #"{"kind": "spin"}"#)
        #expect(unknown?.description.contains("\"spin\"") == true && unknown?.description.contains("wipeleft") == true)
        #expect(decodingError(Transition.self, #"{"kind": "fade", "duration": -1}"#)?.description.contains("transition duration") == true)
        #expect(throws: DecodingError.self) { try decode(Transition.self, #"{"kind": {"type": "custom"}}"#) }
    }

    @Test func customTransitionsCannotBeEncoded() {
        let swirl = Transition.custom(name: "swirl", duration: 1) { frames, _ in frames.draw(frames.incoming) }
        let error = encodingError(swirl)
        #expect(error?.description.contains("the custom transition \"swirl\" cannot be written as data") == true)
        var show = Slideshow(photos: [Slideshow.Photo(url: URL(fileURLWithPath: "/a.jpg"))])
        show.transition = swirl
        #expect(encodingError(show)?.description.contains("swirl") == true)
        #expect(encodingError(Transition.fade(easing: Easing { $0 }))?.description.contains("easing \"custom\"") == true)
    }

    // MARK: Slideshows

    @Test func slideshowsRoundTrip() throws {
        var show = Slideshow(photos: [
            Slideshow.Photo(url: URL(fileURLWithPath: "/photos/beach 1.jpg"), duration: 4.5, caption: "The beach",
                            kenBurnsStart: Rect(x: 0.1, y: 0.1, width: 0.8, height: 0.8), kenBurnsEnd: Rect(x: 0, y: 0, width: 1, height: 1),
                            captureDate: Date(timeIntervalSince1970: 1_750_000_000.25)),
            Slideshow.Photo(url: URL(fileURLWithPath: "/photos/sunset.heic"), duration: FrameRate.ntsc.time(ofFrame: 100)),
            Slideshow.Photo(url: URL(fileURLWithPath: "/photos/ñandú.png"), caption: "", captureDate: Date(timeIntervalSinceReferenceDate: -1e9)),
        ])
        show.duration = 2.5
        show.fit = .fit
        show.background = Color(red: 0.1, green: 0.1, blue: 0.12)
        show.kenBurns = Slideshow.KenBurns(zoom: 0.2, pan: 0.1, direction: .zoomIn, seed: 99)
        show.transition = .wipe(.left, duration: 0.75, easing: .easeInOut)
        show.captions = .filename
        show.captionStyle = TextStyle(font: TextFont(size: 36, weight: .bold), color: .yellow, alignment: .left, outline: TextOutline(color: .black, width: 2))
        try roundTrip(show)
        show.transition = nil
        show.kenBurns = .off
        #expect(try roundTrip(show).transition == nil)
        for fit in Slideshow.Fit.allCases { try roundTrip(fit) }
        for captions in [Slideshow.Captions.none, .filename, .date] { try roundTrip(captions) }
        for direction in Slideshow.KenBurns.Direction.allCases { try roundTrip(direction) }
        for order in PhotoOrder.allCases { try roundTrip(order) }
        #expect(try json(PhotoOrder.captureDate) == "\"date\"" && decode(PhotoOrder.self, "\"fileName\"") == .fileName)
        #expect(try json(show.photos[1]) == #"{"duration":"1001/300","url":"/photos/sunset.heic"}"#)
    }

    @Test func aHandWrittenSlideshowDecodesAndPlays() throws {
        let folder = try TemporaryFolder()
        for (name, color) in [("one.png", Color.red), ("two.png", Color.blue)] {
            let canvas = try Canvas(width: 32, height: 24)
            try canvas.draw { ctx in ctx.clear(color) }
            try canvas.writePNG(to: folder.file(name))
        }
        let show = try decode(Slideshow.self, """
            {
              "photos": ["\(folder.file("one.png").path)",
                         {"url": "\(folder.file("two.png").path)", "duration": 2, "caption": "Blue", "captureDate": "2025-06-01T14:30:00Z",
                          "kenBurnsStart": {"x": 0.25, "y": 0.25, "width": 0.5, "height": 0.5}}],
              "duration": 1.5,
              "fit": "fill",
              "kenBurns": {"isEnabled": false},
              "transition": {"kind": "wipeleft", "duration": 0.5, "easing": "ease-in-out"},
              "captions": "none"
            }
            """)
        var expected = Slideshow(photos: [
            Slideshow.Photo(url: folder.file("one.png")),
            Slideshow.Photo(url: folder.file("two.png"), duration: 2, caption: "Blue", kenBurnsStart: Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5),
                            captureDate: ISO8601DateFormatter().date(from: "2025-06-01T14:30:00Z")),
        ])
        expected.duration = Time(value: 3, timescale: 2)
        expected.fit = .fill
        expected.kenBurns = .off
        expected.transition = .wipe(.left, duration: 0.5, easing: .easeInOut)
        #expect(show == expected)
        let clip = try show.clip(width: 64, height: 48)
        #expect(clip.duration == Time(value: 7, timescale: 2))
        #expect(try clip.still(at: 0.5, width: 64, height: 48).pixels().rgba(x: 32, y: 24) == (255, 0, 0, 255))
        // Cuts when the transition is null.
        #expect(try decode(Slideshow.self, #"{"photos": ["/a.jpg"], "transition": null}"#).transition == nil)
        #expect(try decode(Slideshow.self, #"{"photos": ["/a.jpg"]}"#) == Slideshow(photos: [Slideshow.Photo(url: URL(fileURLWithPath: "/a.jpg"))]))
    }

    // MARK: Encoder settings

    @Test func encoderAndAudioSettingsRoundTrip() throws {
        try roundTrip(EncoderSettings())
        try roundTrip(EncoderSettings(crf: 23, preset: .veryslow, bitrate: 8_000_000, keyframeInterval: 48, tune: .animation, oddSizePolicy: .pad,
                                      bufferCount: 5, threads: 3, drawingThreads: 2, transparency: true))
        for preset in EncoderPreset.allCases { try roundTrip(preset) }
        for tune in EncoderTune.allCases { try roundTrip(tune) }
        for policy in [OddSizePolicy.reject, .pad] { try roundTrip(policy) }
        for container in Container.allCases { try roundTrip(container) }
        for codec in VideoCodec.allCases { try roundTrip(codec) }
        #expect(try decode(EncoderSettings.self, #"{"crf": 20, "preset": "slow", "tune": "stillimage"}"#) == EncoderSettings(crf: 20, preset: .slow, tune: .stillimage))
        try roundTrip(AudioSettings())
        try roundTrip(AudioSettings(sampleRate: 44_100, channelCount: 1, bitRate: 96_000))
        for codec in AudioCodec.allCases { try roundTrip(codec) }
        #expect(try decode(AudioSettings.self, #"{"bitRate": 128000}"#) == AudioSettings(bitRate: 128_000))
    }

    // MARK: Audio

    @Test func audioMixesOfFilesRoundTrip() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("tone.wav")
        try ProceduralSound.tone(frequency: 440, amplitude: 0.3, duration: 2).writeWAV(to: url, sampleFormat: .int16)
        let file = try AudioFile(url: url)
        try roundTrip(file)
        #expect(try json(file) == #"{"url":"\#(url.path)"}"#)
        for curve in AudioFadeCurve.allCases { try roundTrip(AudioFade(duration: Time(value: 3, timescale: 4), curve: curve)) }

        var voice = AudioClip(file).trimmed(from: 0.25, to: Time(value: 7, timescale: 4)).amplified(by: -3.5)
        voice.fadeIn(over: 0.1, curve: .linear)
        voice.fadeOut(over: Time(value: 1, timescale: 3), curve: .exponential)
        voice.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0.5, timeRange: Time(value: 1, timescale: 2)..<1)
        voice.fadeOutAtMovieEnd(over: 1.5)
        try roundTrip(voice)
        let bed = AudioClip(file).looped(toFill: 10, crossfade: 0.05, curve: .linear)
        try roundTrip(bed)

        var track = AudioTrack([voice, AudioClip(file)], crossfade: 0.04, curve: .linear, frameRate: .ntsc)
        track.place(AudioClip(file).trimmed(from: 1), at: Time(value: 9, timescale: 2))
        try roundTrip(track)
        #expect(try roundTrip(track).items.map(\.placement) == [.afterPrevious, .afterPrevious, .at(Time(value: 9, timescale: 2))])

        var mix = AudioMix(gain: -1.5, limiter: Limiter(ceiling: -2, lookahead: Time(value: 3, timescale: 1000), release: 0.2),
                           ducking: AudioMix.Ducking(depth: 9, threshold: -35, attack: 0.1, release: 0.5, hold: 0.2),
                           loudnessTarget: -23, duration: 12)
        mix.add(bed, gain: -6)
        mix.add(track, at: 2, gain: 1, role: .sidechain)
        mix.add(file, at: Time(value: 1001, timescale: 1000), role: .unaffected)
        mix.add(AudioMix([AudioMix.Track(voice)], limiter: nil), at: 5)
        let back = try roundTrip(mix)
        #expect(back.tracks[1].source is AudioTrack && back.tracks[2].source is AudioFile && back.tracks[3].source is AudioMix)
        try roundTrip(AudioMix())
        #expect(try decode(AudioMix.self, #"{"limiter": null}"#).limiter == nil)
        #expect(try decode(AudioMix.self, "{}").limiter == Limiter())

        let text = try json(mix)
        #expect(text.contains(#""source":{"type":"file","url":"\#(url.path)"}"#))
        #expect(text.contains(#""role":"sidechain""#) && text.contains(#""type":"track""#) && text.contains(#""type":"mix""#))

        // Hand-written: a path is a file.
        let clip = try decode(AudioClip.self, #"{"source": "\#(url.path)", "sourceStart": 0.5, "fadeIn": {"duration": 0.25}}"#)
        #expect(clip == AudioClip(file).trimmed(from: 0.5).fadedIn(over: 0.25))

        // Decoding opens the file again: a missing one fails there, naming it.
        let data = try JSONEncoder().encode(mix)
        try FileManager.default.removeItem(at: url)
        do {
            _ = try JSONDecoder().decode(AudioMix.self, from: data)
            Issue.record("decoded a mix whose file is gone")
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError as? MovieMakerError
            #expect(underlying?.description.contains(url.path) == true, "\(String(describing: underlying))")
        }
    }

    @Test func soundsMadeByCodeCannotBeEncoded() {
        let tone = ProceduralSound.tone(frequency: 440, duration: 1)
        let clip = AudioClip(tone)
        #expect(encodingError(clip)?.description.contains("a sound of type ProceduralSound cannot be written as data") == true)
        #expect(encodingError(AudioTrack([clip]))?.description.contains("ProceduralSound") == true)
        var mix = AudioMix()
        mix.add(tone)
        #expect(encodingError(mix)?.description.contains("ProceduralSound") == true)
        var eased = AudioClip(AudioMix())
        eased.volume = KeyframeTrack(0.0).then(to: 1, at: 1, easing: Easing { $0 })
        #expect(encodingError(eased)?.description.contains("easing \"custom\"") == true)
    }
}

import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The clip tree as data: every node and data leaf round-trips through JSON, renders the same after
/// the trip, hashes stably, and closures refuse to be written with an error naming them.
@Suite struct ClipCodableTests {
    static func roundTrip(_ clip: Clip) throws -> (Clip, Data) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(clip)
        let decoded = try JSONDecoder().decode(Clip.self, from: data)
        return (decoded, data)
    }

    /// A tree with every kind of node and data leaf, and sounds from a file.
    static func everything(in folder: TemporaryFolder) throws -> Clip {
        let photo = try TestPhotos.yellow(in: folder)
        let wav = folder.file("tone.wav")
        try ProceduralSound.tone(frequency: 440, amplitude: 0.3, duration: 1).writeWAV(to: wav, sampleFormat: .int16)
        let sound = try AudioFile(url: wav)
        var card = TitleCard("Data", subtitle: "all the way down", duration: 2)
        card.entrance = .letters(duration: 0.6)
        card.layout = .lowerThird
        var show = Slideshow(photos: [Slideshow.Photo(url: photo, caption: "one"), Slideshow.Photo(url: photo, duration: 1.5)])
        show.duration = 1
        show.transition = .wipe(.up, duration: 0.4, easing: .cubicOut)
        let path = try Path(svg: "M4 30 C 20 2, 40 58, 60 30")
        let leaves: [Clip] = [
            .color(Color(red: 0.2, green: 0.4, blue: 0.6), duration: 1).withSound(sound, at: 0.25),
            .empty(duration: 0.5),
            try card.clip(width: 64, height: 48),
            try show.clip(width: 64, height: 48),
            BezierAnimation.drawOn(path, duration: 1, stroke: StrokeStyle(.orange, width: 3), animation: 0.75),
            BezierAnimation.morph(from: path, to: try Path.star(center: Point(x: 32, y: 24), outerRadius: 20, innerRadius: 8, points: 5), duration: 1),
            BezierAnimation.wiggle(path, duration: 1, amplitude: 6, frequency: 2),
            Clip(.generator(.caption("a caption", style: TextStyle(font: TextFont(size: 12))), duration: 1)),
            .photo(photo, duration: 1.25, fit: .fit, background: .white,
                   kenBurns: Clip.KenBurnsPath(start: Rect(x: 0, y: 0, width: 1, height: 1), end: Rect(x: 0.1, y: 0.1, width: 0.8, height: 0.8))),
        ]
        let joined = try Clip.sequence(leaves, transitions: [.crossfade(duration: 0.25), nil, .dissolve(seed: 7, duration: 0.3), nil,
                                                             try Transition(xfadeName: "circleopen", duration: 0.2), nil, nil, .fadeThrough(try Color(css: "purple"))])
        return Clip.overlay(joined.trimmed(from: 0.5, to: 7),
                            Clip.color(.green, duration: 0.4).repeated(2).delayed(by: 1).filtered([]).withSound(sound))
    }

    @Test("every node and data leaf round-trips through JSON to an equal tree that draws the same frames")
    func treeRoundTrip() throws {
        let folder = try TemporaryFolder()
        let clip = try Self.everything(in: folder)
        let (decoded, data) = try Self.roundTrip(clip)
        #expect(decoded == clip)
        #expect(decoded.duration == clip.duration && clip.duration == Time(seconds: 6.5))
        #expect(decoded.sounds.count == clip.sounds.count && clip.sounds.count == 2)
        // Writing the decoded tree again gives the same bytes.
        #expect(try Self.roundTrip(decoded).1 == data)
        // Nothing is lost: the decoded tree draws exactly the original's pixels.
        let original = try clip.renderFrames(width: 64, height: 48, rate: 8)
        let again = try decoded.renderFrames(width: 64, height: 48, rate: 8)
        #expect(original.count == 52)
        #expect(original == again)
        // A changed leaf is a different tree.
        #expect(Clip.color(.red, duration: 1) != Clip.color(.blue, duration: 1))
        #expect(Clip.color(.red, duration: 1) != Clip.color(.red, duration: 2))
    }

    @Test("a hand-written description decodes to the tree the Swift API builds")
    func handWrittenJSON() throws {
        let json = """
        {"type": "sequence",
         "items": [{"type": "color", "color": "#ff0000", "duration": 1},
                   {"type": "trim", "from": 0.5, "to": 1.5, "clip": {"type": "color", "color": "blue", "duration": 2}},
                   {"type": "repeat", "count": 2, "clip": {"type": "empty", "duration": "1001/30000"}}],
         "transitions": ["wipeleft", null]}
        """
        let decoded = try JSONDecoder().decode(Clip.self, from: Data(json.utf8))
        let built = try Clip.sequence([.color(.red, duration: 1), Clip.color(.blue, duration: 2).trimmed(from: 0.5, to: 1.5),
                                       Clip.empty(duration: Time(value: 1001, timescale: 30000)).repeated(2)],
                                      transitions: [try Transition(xfadeName: "wipeleft"), nil])
        #expect(decoded == built)
        #expect(decoded.duration == Time(value: 1001, timescale: 15000) + 1)
        // A bad value names where it is.
        let bad = #"{"type": "sequence", "items": [{"type": "colour", "duration": 1}]}"#
        do {
            _ = try JSONDecoder().decode(Clip.self, from: Data(bad.utf8))
            Issue.record("an unknown clip type decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("unknown clip type \"colour\""), "\(context.debugDescription)")
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 0", "type"], "\(context.codingPath.map(\.stringValue))")
        }
    }

    @Test("encoding a closure anywhere in the tree throws a typed error naming it")
    func closuresAreNotData() throws {
        let closure = Clip(duration: 2) { ctx, _ in ctx.clear(.red) }
        let deep = Clip.overlay(.color(.black, duration: 3), Clip.sequence(.color(.white, duration: 1), closure).trimmed(to: 2.5))
        for (clip, named) in [(deep, "drawing closure of a Clip(duration:draw:)"),
                              (BezierAnimation.follow(try Path(svg: "M0 0 L10 0"), duration: 1) { _ in }, "BezierAnimation.follow"),
                              (BezierAnimation.controlPoints(try Path(svg: "M0 0 L10 0"), duration: 1) { p, _, _, _ in p }, "controlPoints"),
                              (Clip.transition(from: .color(.red, duration: 1), to: .color(.blue, duration: 1),
                                               using: .custom(name: "swirl") { _, _ in }), "swirl")] {
            do {
                _ = try JSONEncoder().encode(clip)
                Issue.record("encoded a tree holding \(named)")
            } catch let EncodingError.invalidValue(_, context) {
                let error = try #require(context.underlyingError as? MovieMakerError, "\(context)")
                #expect(error.code == .notEncodable && error.description.contains(named), "\(error)")
            } catch let error as MovieMakerError {
                #expect(error.code == .notEncodable && error.description.contains(named), "\(error)")
            }
            #expect(throws: MovieMakerError.self) { _ = try clip.contentHash() }
        }
    }

    @Test("two equal data trees hash equal, and a changed colour, time or photo changes the hash")
    func contentHash() throws {
        let folder = try TemporaryFolder()
        let photo = try TestPhotos.yellow(in: folder)
        func build(_ color: Color = .red, trim: Time = 5, photoURL: URL? = nil) -> Clip {
            Clip.overlay(Clip.sequence([.color(color, duration: 2), .color(.blue, duration: 3), .photo(photoURL ?? photo, duration: 1.5)],
                                       transition: .crossfade(duration: 0.5)).trimmed(from: 1, to: trim),
                         Clip.color(.green, duration: 0.5).repeated(3).delayed(by: 1))
        }
        let a = try build().contentHash(), b = try build().contentHash()
        #expect(a == b)
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit))
        #expect(try build(Color(red: 1, green: 0, blue: 0.004)).contentHash() != a)
        #expect(try build(trim: Time(seconds: 4.96)).contentHash() != a)
        #expect(try build(photoURL: folder.file("other.png")).contentHash() != a)
        // A subtree that is data has its own hash, the same wherever the subtree is used.
        let leaf = Clip.color(.green, duration: 0.5).repeated(3)
        #expect(try leaf.contentHash() == (try Clip.color(.green, duration: 0.5).repeated(3).contentHash()))
        #expect(try leaf.contentHash() != a)
    }
}

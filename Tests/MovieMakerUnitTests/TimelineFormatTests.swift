import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The description file as text: the strict JSON reader, exact times, canonical writing (decode →
/// encode is byte-identical), the shapes the reader, writer and schema share, and the builder.
@Suite struct TimelineFormatTests {
    /// The repository's root (for the committed schema file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // MARK: JSON

    @Test("the JSON reader refuses what RFC 8259 refuses and says where")
    func strictJSON() throws {
        let bad: [(String, String)] = [
            ("{\"a\": 1,}", "line 1, column 9"),                 // trailing comma
            ("{\"a\": NaN}", "NaN and Infinity"),
            ("{\"a\": -Infinity}", "-Infinity"),
            ("{\"a\": 01}", "cannot start with 0"),
            ("{\"a\": 1, \"a\": 2}", "appears twice"),
            ("{\"a\": \"\\ud800\"}", "lone surrogate"),
            ("// comment\n{}", "line 1, column 1"),
            ("{\"a\": 1} x", "after the end"),
            ("", "empty"),
            ("{\"a\": \"tab\there\"}", "control character"),
            (String(repeating: "[", count: 300), "nested deeper"),
        ]
        for (text, expected) in bad {
            do {
                _ = try JSONValue(parsing: text)
                Issue.record("accepted \(text.prefix(40))")
            } catch {
                #expect(error.code == .invalidDescription)
                #expect(error.description.contains(expected), "\(text.prefix(40)): \(error.description)")
            }
        }
        // The path of a syntax error inside the document.
        do {
            _ = try JSONValue(parsing: "{\"tracks\": [{\"items\": [1, 2,]}]}")
            Issue.record("accepted a trailing comma")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[2]", "\(error)")
        }
        // Invalid UTF-8 is refused, a BOM accepted.
        #expect(throws: MovieMakerError.self) { try JSONValue(parsing: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])) }
        #expect(try JSONValue(parsing: Data([0xEF, 0xBB, 0xBF]) + Data("{}".utf8)) == .object([:]))
    }

    @Test("numbers keep their text; strings keep every character; canonical text is stable")
    func canonicalJSON() throws {
        let text = #"{"b": [1.50, -0.1e-3, 2], "a": "é \"q\" \\ \n \u0001 /", "c": {}, "d": [], "e": null, "f": true}"#
        let value = try JSONValue(parsing: text)
        #expect(value["b"] == .array([.number("1.50"), .number("-0.1e-3"), .number("2")]))
        #expect(value["a"]?.stringValue == "é \"q\" \\ \n \u{01} /")
        let canonical = value.canonicalText
        #expect(canonical == """
            {
              "a": "é \\"q\\" \\\\ \\n \\u0001 /",
              "b": [
                1.50,
                -0.1e-3,
                2
              ],
              "c": {},
              "d": [],
              "e": null,
              "f": true
            }

            """)
        #expect(try JSONValue(parsing: canonical) == value)
        #expect(try JSONValue(parsing: canonical).canonicalText == canonical)
    }

    // MARK: Times

    @Test("times are read exactly from their text, in every unit, and written canonically")
    func times() throws {
        let cases: [(JSONValue, Timeline.TimeValue, String)] = [
            (.string("1.5s"), .seconds(Time(value: 3, timescale: 2)), "1.5s"),
            (.string("90f"), .frames(90), "90f"),
            (.string("1001/30000s"), .seconds(Time(value: 1001, timescale: 30000)), "1001/30000s"),
            (.string("20ms"), .seconds(Time(value: 1, timescale: 50)), "0.02s"),
            (.string("1/3s"), .seconds(Time(value: 1, timescale: 3)), "1/3s"),
            (.number("0.1"), .seconds(Time(value: 1, timescale: 10)), "0.1s"),
            (.number("2"), .seconds(Time(value: 2, timescale: 1)), "2s"),
            (.number("1e-3"), .seconds(Time(value: 1, timescale: 1000)), "0.001s"),
            (.string(" 2.50 s "), .seconds(Time(value: 5, timescale: 2)), "2.5s"),
            (.string("1m20s"), .seconds(Time(value: 80, timescale: 1)), "80s"),
            (.string("2m"), .seconds(Time(value: 120, timescale: 1)), "120s"),
            (.string("1h2m3.5s"), .seconds(Time(value: 7447, timescale: 2)), "3723.5s"),
        ]
        for (json, expected, canonical) in cases {
            let t = try SpecObject.time(json, at: .root, positive: false)
            #expect(t == expected, "\(json)")
            #expect(t.description == canonical)
            #expect(Timeline.TimeValue(text: canonical) == t)
        }
        // 0.1 s is exactly 1/10 however it is written; frames are exact at any rate.
        #expect(Timeline.TimeValue.frames(90).time(at: FrameRate.ntscFilm) == Time(value: 90 * 1001, timescale: 24000))
        // 2 h at 24000/1001 written in frames lands on frame 172,627 exactly (no drift).
        let twoHours = Timeline.TimeValue.frames(172_627).time(at: .ntscFilm)
        #expect(FrameRate.ntscFilm.frameIndex(at: twoHours) == 172_627)
        // Malformed, negative, zero-where-positive and over-long times are refused with the value.
        let refused: [(JSONValue, Bool, String)] = [
            (.string("-1s"), true, "must be greater than 0, got \"-1s\""),
            (.string("0s"), true, "must be greater than 0, got \"0s\""),
            (.string("-1s"), false, "must be 0 or more, got \"-1s\""),
            (.string("1.5"), false, "must be a time such as"),
            (.string("90.5f"), false, "must be a time such as"),
            (.string("1m20"), false, "must be a time such as"),
            (.string("1.5m"), false, "must be a time such as"),
            (.string("0m"), true, "must be greater than 0"),
            (.string("1/0s"), false, "must be a time such as"),
            (.string("90000s"), false, "must be at most 24 hours"),
            (.number("1e30"), false, "must be at most 24 hours"),
            (.string("24h1s"), false, "must be at most 24 hours"),
            (.string("25h"), false, "must be at most 24 hours"),
            (.string("1/3000000007s"), false, "must be exact to a billionth of a second"),
            (.string("1e-10s"), false, "must be exact to a billionth of a second"),
            (.bool(true), false, "must be a time such as"),
        ]
        for (json, positive, message) in refused {
            do {
                _ = try SpecObject.time(json, at: JSONPath().appending("d"), positive: positive)
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.description.hasPrefix("d: " + message), "\(json): \(error)")
            }
        }
    }

    @Test("times whose sums do not fit 64-bit fractions are rounded, not trapped on")
    func hugeDenominators() throws {
        // Four durations over large coprime denominators: their exact sum's denominator is about 10^24.
        let primes: [Int64] = [999_983, 999_979, 999_961, 999_959]
        let exact = primes.reduce(0.0) { $0 + 1 / Double($1) }
        let sum = primes.map { Time(value: 1, timescale: $0) }.reduce(Time.zero, +)
        #expect(abs(sum.seconds - exact) < 1e-12)
        #expect((Time(value: 1, timescale: 999_983) * 999_983) == Time(value: 1, timescale: 1))
        _ = Time(value: .min, timescale: 1)
        _ = Time(value: .min, timescale: .max) - Time(value: .min, timescale: 3)
        let t = Timeline {
            Timeline.Track.video { for p in primes { Timeline.Item.gap(.seconds(Time(value: 1_000_000, timescale: p))) } }
        }
        let c = try t.composition(Timeline.RenderOptions(preview: true))
        #expect(abs(c.duration.seconds - 1_000_000 * exact) < 1e-9)
        #expect(c.frameCount == 121)    // 4.0001… s at 30 fps
    }

    // MARK: Reading and writing

    /// A description using every item type and most keys.
    static let everything = """
        {
          "$schema": "../schema/timeline-1.schema.json",
          "version": 1,
          "output": {"size": "640x360", "fps": "30000/1001", "background": "#102030", "duration": "12s",
                     "encoder": {"crf": 20, "preset": "veryfast", "keyframeInterval": 60},
                     "audio": {"loudness": -16, "bitrate": 160000, "ducking": {"depth": 9, "attack": "50ms", "release": "0.4s", "hold": "150ms"}}},
          "template": {"title": "Everything", "description": "Every item type", "thumbnail": "thumb.jpg"},
          "slots": {
            "clip1": {"kind": "video", "default": {"file": "a.mp4"}, "fit": "speedToFit", "description": "The opening shot"},
            "pic": {"kind": "media", "default": {"file": "p.jpg"}},
            "snap": {"kind": "photo", "default": {"file": "p.jpg"}},
            "name": {"kind": "text", "default": "Ana"},
            "accent": {"kind": "color", "default": "tomato"},
            "song": {"kind": "audio", "default": {"file": "s.wav"}}
          },
          "markers": [{"name": "chapter", "at": "2s", "color": "GREEN", "comment": "start"}],
          "metadata": {"otio": {"x": 1.50}},
          "tracks": [
            {"kind": "video", "name": "main", "markers": [{"name": "m", "at": "10f", "duration": "5f"}], "items": [
              {"type": "title", "text": "Hi {{name}}", "subtitle": "sub", "body": "body", "duration": "2s", "style": "slide", "from": "left",
               "easing": "ease-out", "entranceDuration": "0.5s", "exitStyle": "pop", "layout": "lowerThird", "color": "{{accent}}",
               "background": "none", "font": "DejaVu Sans", "fontSize": 90, "label": "opening", "transition": {"name": "wipeleft", "duration": "0.5s", "easing": "linear"}},
              {"type": "video", "source": {"slot": "clip1"}, "in": "0.5s", "duration": "3s", "speed": "2/3", "reverse": true, "fit": "blur",
               "background": "white", "volume": "-6dB", "enabled": true, "metadata": {"k": [1, 2]}},
              {"type": "video", "source": {"file": "a.mp4"}, "in": "1s", "duration": "1s", "freeze": true},
              {"type": "photo", "source": {"slot": "pic"}, "duration": "2s", "fit": "fit", "kenBurns": {"from": {"x": 0, "y": 0, "width": 1, "height": 1}, "to": {"x": 0.25, "y": 0.25, "width": 0.5, "height": 0.5}}},
              {"type": "photo", "source": {"file": "p.jpg"}, "kenBurns": {"zoom": 0.2, "direction": "in", "seed": 3}},
              {"type": "color", "color": "#ff8000", "duration": "15f"},
              {"type": "slideshow", "photos": [{"file": "p.jpg"}, {"slot": "snap"}], "duration": "1s", "fit": "fill", "captions": "filename",
               "photoTransition": {"name": "dissolve", "duration": "0.25s"}, "kenBurns": false},
              {"type": "gap", "duration": 0.5},
              {"type": "generator", "name": "gradient", "params": {"colors": ["red", "blue"], "angle": 45}, "duration": "1s"}
            ]},
            {"kind": "overlay", "items": [{"type": "generator", "name": "confetti", "at": "1s", "duration": "2s", "params": {"count": 10}}]},
            {"kind": "audio", "enabled": false, "items": [
              {"type": "music", "source": {"slot": "song"}, "volume": 0.8, "fadeIn": "1s", "fadeOut": "2s", "loop": true, "ducking": true},
              {"type": "audio", "source": {"file": "s.wav"}, "at": "3s", "in": "0.1s", "duration": "0.5s", "loop": false, "ducking": false}
            ]}
          ]
        }
        """

    @Test("a source may be the file's path alone (\"clip.mp4\"), read as {\"file\": \"clip.mp4\"} and written that way; an empty one is refused at its path")
    func aSourceMayBeThePathAlone() throws {
        let short = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "video", "source": "clip.mp4"}, {"type": "photo", "source": "a.jpg"}]}]}"#)
        let long = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "video", "source": {"file": "clip.mp4"}}, {"type": "photo", "source": {"file": "a.jpg"}}]}]}"#)
        #expect(short == long)
        #expect(try short.jsonText().contains(#""file": "clip.mp4""#), "written in the canonical form")
        do {
            _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "video", "source": " "}]}]}"#)
            Issue.record("an empty source was read")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].source" && error.message.contains("(or \"a.mp4\")"), "\(error)")
        }
    }

    @Test("output.size takes a name as the CLI's --size does (1080p, 720p, 4k…), and is written back as given")
    func frameSizesByName() throws {
        let named = try Timeline(jsonText: #"{"version": 1, "output": {"size": "720p"}, "tracks": []}"#)
        #expect(named.output.size?.width == 1280 && named.output.size?.height == 720)
        #expect(try named.jsonText().contains("\"720p\""), "format keeps the name")
        #expect(try Timeline(jsonText: try named.jsonText()) == named)
        #expect(named.output.resolvedSize.width == 1280)
        #expect(Timeline.FrameSize(text: "4K")?.width == 3840 && Timeline.FrameSize(text: "1920x1080")?.name == nil)
        do { _ = try Timeline(jsonText: #"{"version": 1, "output": {"size": "1080"}, "tracks": []}"#); Issue.record("\"1080\" was read as a size") } catch {
            #expect(error.description.contains("output.size") && error.description.contains("1080p"), "\(error)")
        }
    }

    @Test("a background image fits fill or fit; stretch and center are refused at output.background.fit, not drawn as fill")
    func backgroundImageFits() throws {
        func read(_ fit: String) throws -> Timeline {
            try Timeline(jsonText: #"{"version": 1, "output": {"background": {"image": "paper.jpg", "fit": ""# + fit + #""}}, "tracks": []}"#)
        }
        #expect(try read("fit").output.backdrop == .image("paper.jpg", fit: .fit))
        #expect(try read("fill").output.backdrop == .image("paper.jpg", fit: .fill))
        for fit in ["stretch", "center"] {
            do { _ = try read(fit); Issue.record("\(fit) was read") } catch {
                #expect("\(error)".contains("output.background.fit") && "\(error)".contains("\"fill\""), "\(error)")
            }
        }
    }

    @Test("a {{placeholder}} that is not a slot name is refused with the name to write; other braces stay literal text")
    func misspelledPlaceholders() throws {
        #expect(Timeline.pieces(of: "Hi {{first name}}!").misspelled == "first name")
        #expect(Timeline.pieces(of: "{{ok}} and {{user.name}}").misspelled == "user.name")
        #expect(Timeline.suggestedSlotName(for: "first name") == "first_name" && Timeline.suggestedSlotName(for: "2nd place") == "_2nd_place")
        for literal in ["{{ }}", "{{}}", #"{{"a": 1}}"#, "{{ok}}", "{{1 2}}", "{{ first name", "no braces"] {
            #expect(Timeline.pieces(of: literal).misspelled == nil, "\(literal)")
        }
        let text = #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{ }} is how {{ braces }} look"}]}]}"#
        let timeline = try Timeline(jsonText: text.replacingOccurrences(of: "{{ braces }}", with: "Mustache"))
        #expect(timeline.tracks.count == 1)
        do {
            _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Hi {{first name}}"}]}]}"#)
            Issue.record("{{first name}} was read as literal text")
        } catch {
            #expect(error.description.contains("tracks[0].items[0].text") && error.description.contains("{{first_name}}"), "\(error)")
        }
    }

    @Test("a tiny gain in decibels is written as plain digits and read back the same; exponents are read too")
    func decibelsRoundTrip() throws {
        func item(_ volume: String) -> String {
            #"{"version": 1, "tracks": [{"kind": "audio", "items": [{"type": "audio", "source": {"file": "a.wav"}, "volume": "# + volume + "}]}]}"
        }
        for (given, value) in [("\"-0.00001dB\"", -0.00001), ("\"-1e-3dB\"", -0.001), ("\"1.5E1dB\"", 15.0), ("\"-6dB\"", -6.0)] {
            let timeline = try Timeline(jsonText: item(given))
            let text = try timeline.jsonText()
            #expect(!text.contains("e-"), "\(given) written as \(text)")
            #expect(try Timeline(jsonText: text) == timeline, "\(given) does not read back: \(text)")
            #expect(Volume.decibels(value).description.hasSuffix("dB"))
        }
        #expect(Volume.decibels(-0.00001).description == "-0.00001dB")
        #expect(Volume.decibels(-6).description == "-6dB")
    }

    @Test("output.fps 29.97, 23.976 and 59.94 mean the NTSC rates, as --fps does; other decimals and fractions are exact")
    func ntscDecimalFrameRates() throws {
        func fps(_ json: String) throws -> FrameRate? {
            try Timeline(jsonText: #"{"version": 1, "output": {"fps": "# + json + #"}, "tracks": []}"#).output.fps
        }
        #expect(try fps("29.97") == .ntsc)
        #expect(try fps("23.976") == .ntscFilm)
        #expect(try fps("59.94") == .ntsc60)
        #expect(try fps("\"29.97\"") == .ntsc)
        #expect(try fps("\"2997/100\"") == FrameRate(numerator: 2997, denominator: 100))
        #expect(try fps("12.5") == FrameRate(numerator: 25, denominator: 2))
        #expect(try fps("24.0") == 24)
        #expect(try fps("2997e-2") == .ntsc, "snapped however it is written")
        #expect(try fps("1.001") == FrameRate(numerator: 1001, denominator: 1000), "not snapped below 1 fps")
        #expect(throws: MovieMakerError.self) { try fps("30.0000000001") }
        #expect(FrameRate(reading: "29.1234567") == nil && FrameRate(reading: "119.88") == FrameRate(numerator: 120_000, denominator: 1001))
        // Written back as the fraction it means, so the canonical text reads the same rate.
        let timeline = try Timeline(jsonText: #"{"version": 1, "output": {"fps": 29.97}, "tracks": []}"#)
        #expect(try timeline.jsonText().contains("\"30000/1001\""))
    }

    @Test("a description decodes, and its canonical text decodes to an equal value and encodes to the same bytes")
    func canonicalRoundTrip() throws {
        let timeline = try Timeline(jsonText: Self.everything)
        #expect(timeline.tracks.count == 3 && timeline.tracks[0].items.count == 9)
        #expect(timeline.output.fps == .ntsc)
        if case let .video(v) = timeline.tracks[0].items[1].content {
            #expect(v.speed == Speed(numerator: 2, denominator: 3))
            #expect(v.volume == .decibels(-6))
        } else { Issue.record("item 1 is not a video") }
        let text = try timeline.jsonText()
        let again = try Timeline(jsonText: text)
        #expect(again == timeline)
        #expect(try again.jsonText() == text)
        // What was written is what was given: no default creeps in.
        #expect(!text.contains("\"fit\": \"fill\"") || Self.everything.contains("\"fit\": \"fill\""))
        #expect(text.contains("\"duration\": \"0.5s\""))     // a plain number of seconds becomes canonical
        #expect(text.contains("\"x\": 1.50"))                // metadata is kept as written
    }

    @Test("every shape lists each key once, and the reader refuses keys outside it, naming the path and the nearest key")
    func shapes() throws {
        let shapes = [TimelineShapes.timeline, TimelineShapes.output, TimelineShapes.encoder, TimelineShapes.audioSettings,
                      TimelineShapes.ducking, TimelineShapes.template, TimelineShapes.slot, TimelineShapes.transition, TimelineShapes.marker,
                      TimelineShapes.videoTrack, TimelineShapes.overlayTrack, TimelineShapes.audioTrack]
            + TimelineShapes.pictureItems(in: .video) + TimelineShapes.pictureItems(in: .overlay) + TimelineShapes.audioItems
        for shape in shapes {
            #expect(Set(shape.keys).count == shape.keys.count, "\(shape.name) repeats a key: \(shape.keys)")
        }
        do {
            _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "durration": "1s"}]}]}"#)
            Issue.record("accepted an unknown key")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].durration")
            #expect(error.message.contains("did you mean \"duration\""), "\(error)")
        }
        // A short list of numbers is shown as written, so an out-of-range pair names its bad number.
        do {
            _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s", "filters": [{"name": "curves", "master": [[0, 0], [2, 1]]}]}]}]}"#)
            Issue.record("accepted a curve point of x 2")
        } catch {
            #expect(error.message.hasSuffix("got [2, 1]"), "\(error)")
        }
        #expect(JSONValue.array((1...5).map { .number("\($0)") }).shortDescription == "an array of 5")
        // A generator's misspelt parameter is suggested too, at its path.
        do {
            _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "generator", "name": "confetti", "params": {"cuont": 50}, "duration": "1s"}]}]}"#).composition()
            Issue.record("accepted the parameter cuont")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].params.cuont" && error.message.contains("did you mean \"count\""), "\(error)")
        }
        // Another form of a key (`rotate`), and a misspelt value (`horisontal`), are suggested too.
        for (transform, words) in [(#"{"rotate": 10}"#, "did you mean \"rotation\""), (#"{"flip": "horisontal"}"#, "did you mean \"horizontal\"")] {
            do {
                _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s", "transform": \#(transform)}]}]}"#)
                Issue.record("accepted \(transform)")
            } catch {
                #expect(error.message.contains(words), "\(error)")
            }
        }
        // A key under another name (the Swift API's, another tool's) is pointed at the name this shape uses.
        for (item, key, words) in [(#"{"type": "audio", "file": "a.mp3"}"#, "file", "did you mean \"source\""),
                                   (#"{"type": "subtitles", "source": {"file": "a.srt"}}"#, "source", "did you mean \"file\""),
                                   (#"{"type": "audiogram", "source": {"file": "a.mp3"}, "barCount": 32, "duration": 1}"#, "barCount", "did you mean \"bars\"")] {
            do {
                let kind = item.contains(#""audio""#) ? "audio" : "overlay"
                _ = try Timeline(jsonText: #"{"version": 1, "tracks": [{"kind": "\#(kind)", "items": [\#(item)]}]}"#)
                Issue.record("accepted \(item)")
            } catch {
                #expect(error.location?.jsonPath == "tracks[0].items[0].\(key)" && error.message.contains(words), "\(error)")
            }
        }
        // The CLI's codec names are read too, and written back as the description's own.
        for (name, codec) in [("prores", VideoCodec.proRes4444), ("h265", .hevc), ("HEVC", .hevc)] {
            let timeline = try Timeline(jsonText: #"{"version": 1, "output": {"encoder": {"codec": "\#(name)"}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": 1}]}]}"#)
            #expect(timeline.output.encoder?.codec == codec, "\(name)")
            #expect(try timeline.jsonText().contains(#""codec": "\#(codec.rawValue)""#), "\(name)")
        }
        do {
            _ = try Timeline(jsonText: #"{"version": 1, "output": {"encoder": {"codec": "h246"}}, "tracks": []}"#)
            Issue.record("accepted h246")
        } catch {
            #expect(error.location?.jsonPath == "output.encoder.codec" && error.message.contains("did you mean \"h264\""), "\(error)")
        }
        // Whole numbers written with a point (as Python's json writes them) are whole numbers; 32.5 is not.
        let pointed = try Timeline(jsonText: #"{"version": 1.0, "output": {"encoder": {"crf": 32.0, "keyframeInterval": 6e1}}, "tracks": []}"#)
        #expect(pointed.output.encoder?.crf == 32 && pointed.output.encoder?.keyframeInterval == 60)
        #expect(throws: MovieMakerError.self) { try Timeline(jsonText: #"{"version": 1, "output": {"encoder": {"crf": 32.5}}, "tracks": []}"#) }
        // So are a filter's and a Ken Burns path's seeds (they were refused as "not a whole number").
        let seeded = #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "photo", "source": "a.jpg", "kenBurns": {"seed": 3.0}, "filters": [{"name": "grain", "seed": 7.0}]}]}]}"#
        #expect(throws: Never.self) { try Timeline(jsonText: seeded) }
        #expect(throws: MovieMakerError.self) { try Timeline(jsonText: seeded.replacingOccurrences(of: "7.0", with: "7.5")) }
        // Without a codec the CRF may be up to 63 (vp9, av1 in .webm); the codec the file gets checks it at render.
        #expect(try Timeline(jsonText: #"{"version": 1, "output": {"encoder": {"crf": 55}}, "tracks": []}"#).output.encoder?.crf == 55)
        // Kinds starting with a vowel take "an": "an audio item", "an overlay track".
        for (json, words) in [(#"{"version": 1, "tracks": [{"kind": "audio", "items": [{"type": "audio", "file": "a.mp3"}]}]}"#, "in an audio item"),
                              (#"{"version": 1, "tracks": [{"kind": "overlay", "item": []}]}"#, "in an overlay track")] {
            do {
                _ = try Timeline(jsonText: json)
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.message.contains(words), "\(error)")
            }
        }
    }

    @Test("a misspelt slot name is answered with the nearest slot of the right kind; two neighbours swapped count as one slip")
    func misspeltSlotNames() throws {
        #expect(SpecObject.nearest("woh", in: ["who", "where"]) == "who")
        #expect(SpecObject.nearest("teh", in: ["the"]) == "the" && SpecObject.nearest("xyz", in: ["who"]) == nil)
        #expect(SpecObject.nearest("", in: ["a"]) == "a" && SpecObject.nearest("abc", in: []) == nil)
        let slots = #""slots": {"who": {"kind": "text"}, "tint": {"kind": "color"}, "clip": {"kind": "video"}}"#
        func error(_ item: String) -> MovieMakerError? {
            do { _ = try Timeline(jsonText: #"{"version": 1, "#+slots+#", "tracks": [{"kind": "video", "items": ["#+item+"]}]}"); return nil }
            catch { return error }
        }
        let text = error(#"{"type": "title", "text": "Hi {{woh}}", "duration": "1s"}"#)
        #expect(text?.location?.jsonPath == "tracks[0].items[0].text" && text?.message.contains("did you mean {{who}}?") == true, "\(String(describing: text))")
        let color = error(#"{"type": "color", "color": "{{tnit}}", "duration": "1s"}"#)
        #expect(color?.message.contains("did you mean {{tint}}?") == true, "\(String(describing: color))")
        let clip = error(#"{"type": "video", "source": {"slot": "cilp"}}"#)
        #expect(clip?.message.contains("did you mean \"clip\"?") == true, "\(String(describing: clip))")
        // Only a slot of the kind the place takes is offered: a text slot is no answer for a video source.
        let wrongKind = error(#"{"type": "video", "source": {"slot": "wo"}}"#)
        #expect(wrongKind?.message.contains("did you mean") == false, "\(String(describing: wrongKind))")
    }

    @Test("the committed schema is exactly what the Swift types generate, and its enums are the Swift cases")
    func schemaAgreesWithTheTypes() throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent("schema/timeline-1.schema.json"), encoding: .utf8)
        #expect(committed == Timeline.jsonSchema.canonicalText,
                "schema/timeline-1.schema.json is out of date: regenerate it with `moviemaker schema -o schema/timeline-1.schema.json`")
        let defs = try #require(Timeline.jsonSchema["$defs"])
        func enumValues(_ v: JSONValue?) -> [String] { (v?["enum"]?.arrayValue ?? []).compactMap(\.stringValue) }
        #expect(enumValues(defs["transitionName"]) == Transition.knownNames + ["crossfade", "pushleft", "pushright", "pushup", "pushdown", "none"])
        #expect(enumValues(defs["fit"]) == Slideshow.Fit.allCases.map(\.rawValue))
        #expect(enumValues(defs["easing"]?["anyOf"]?.arrayValue?.first) == Easing.allNames + Easing.alternativeNames)
        #expect(enumValues(defs["slot"]?["properties"]?["fit"]) == Timeline.Slot.Fit.allCases.map(\.rawValue))
        #expect(enumValues(defs["slot"]?["properties"]?["kind"]) == Timeline.Slot.Kind.allCases.map(\.rawValue))
        #expect(enumValues(defs["titleItem"]?["properties"]?["style"]) == Timeline.TitleStyle.allCases.map(\.rawValue))
        #expect(enumValues(defs["encoder"]?["properties"]?["preset"]) == EncoderPreset.allCases.map(\.rawValue))
        // Every item object is closed, and lists the keys the reader takes.
        for shape in TimelineShapes.pictureItems(in: .video) + TimelineShapes.audioItems {
            let s = try #require(defs[shape.name])
            #expect(s["additionalProperties"] == .bool(false))
            #expect(Set(s["properties"]?.objectValue?.keys ?? [:].keys) == Set(shape.keys))
        }
        // Every reference resolves, and every definition is used.
        var refs: Set<String> = []
        func walk(_ v: JSONValue) {
            switch v {
            case let .object(o):
                if let r = o["$ref"]?.stringValue { refs.insert(String(r.split(separator: "/").last ?? "")) }
                o.values.forEach(walk)
            case let .array(a): a.forEach(walk)
            default: break
            }
        }
        walk(Timeline.jsonSchema)
        #expect(refs == Set(defs.objectValue?.keys ?? [:].keys), "missing: \(refs.subtracting(defs.objectValue?.keys ?? [:].keys))")
        // Every name the reader accepts reads back as a transition.
        for name in TimelineShapes.transitionNames where name != "none" { _ = try Transition(xfadeName: name) }
        // Colours in any case the reader takes pass the schema's patterns too (editors flagged "Red").
        let patterns = (defs["cssColor"]?["anyOf"]?.arrayValue ?? []).compactMap { $0["pattern"]?.stringValue }
        func schemaTakes(_ text: String) -> Bool {
            patterns.contains { text.range(of: $0, options: .regularExpression) != nil } || enumValues(defs["cssColor"]?["anyOf"]?.arrayValue?[2]).contains(text)
        }
        for text in ["red", "RED", "Red", " LightGoldenRodYellow ", "Transparent", "RGB(1, 2, 3)", "Hsla(1, 2%, 3%, 0.5)", "#FfF"] {
            #expect((try? Color(css: text)) != nil && schemaTakes(text), "\(text): the reader and the schema disagree")
        }
        #expect(!schemaTakes("reed") && (try? Color(css: "reed")) == nil)
    }

    @Test("a text slot's default longer than its maxLength is refused when read, naming the default and both lengths")
    func aDefaultLongerThanItsSlotIsRefused() throws {
        let spec = #"{"version": 1, "output": {"size": "64x48", "fps": 10}, "slots": {"name": {"kind": "text", "default": "Bartholomew", "maxLength": 5}}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "{{name}}", "duration": "1s"}]}]}"#
        #expect { try Timeline(jsonText: spec) } throws: { error in
            let message = String(describing: error)
            return message.contains("slots.name.default") && message.contains("11 characters, more than the slot's maxLength of 5")
        }
        let zero = spec.replacingOccurrences(of: #""maxLength": 5"#, with: #""maxLength": 0"#)
        #expect { try Timeline(jsonText: zero) } throws: { error in
            String(describing: error).contains("from 1 to 10000 characters")
        }
    }

    @Test("a newer version, a missing version and a wrong document are refused before anything else")
    func versions() throws {
        for (text, path, message) in [
            (#"{"version": 2, "tracks": [], "newKey": 1}"#, "version", "this file is description version 2, but this MovieMaker reads version 1"),
            (#"{"tracks": []}"#, "$", "missing \"version\""),
            (#"{"version": "1", "tracks": []}"#, "version", "must be the whole number 1"),
            (#"[1, 2]"#, "$", "a description file is a JSON object"),
        ] {
            do {
                _ = try Timeline(jsonText: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.location?.jsonPath == path, "\(text): \(error)")
                #expect(error.message.contains(message), "\(text): \(error)")
            }
        }
    }

    // MARK: Templates and the builder

    @Test("placeholders are found and replaced; media slots are filled in the order the movie uses them")
    func templates() throws {
        #expect(Timeline.placeholders(in: "Hi {{name}}, {{ place }}! {{not a name}} {{x") == ["name", "place"])
        #expect(Timeline.interpolate("Hi {{name}}, {{ other }}", ["name": "Ana"]) == "Hi Ana, {{ other }}")
        let timeline = try Timeline(jsonText: Self.everything)
        #expect(timeline.mediaSlotOrder == ["clip1", "pic", "snap"])
        let folder = try TemporaryFolder()
        try Data().write(to: folder.file("x.mp4"))
        let values = try timeline.slotValues(assignments: ["name=Zoë", "accent=#00ff00"], media: ["x.mp4"], relativeTo: folder.url)
        #expect(values["clip1"] == .file(folder.file("x.mp4").standardizedFileURL.path))
        #expect(values["name"] == .text("Zoë") && values["pic"] == nil)
        let filled = try timeline.filled(with: values)
        #expect(filled.slots["name"]?.default == .text("Zoë"))
        #expect(filled.slots["accent"]?.default == .color("#00ff00"))
        // A text for a media slot, an unknown slot, a bad colour, too many media files.
        for (assignments, media, path, message) in [
            (["clip1=Ana"], [String](), "slots.clip1", "takes a video file, but \"Ana\" is not a file"),
            (["nope=1"], [], "slots.nope", "has no slot \"nope\""),
            (["nam=Bo"], [], "slots.nam", "has no slot \"nam\" (did you mean \"name\"?)"),
            (["name"], [], "slots", "NAME=VALUE"),
            ([], ["x.mp4", "x.mp4", "x.mp4", "x.mp4"], "slots", "4 media files were given"),
            ([], ["."], "slots.clip1", "\".\" is a folder: give a file in it (with --media, files fill the slots in turn: --media ./*.jpg)"),
        ] {
            do {
                _ = try timeline.slotValues(assignments: assignments, media: media, relativeTo: folder.url)
                Issue.record("accepted \(assignments) \(media)")
            } catch {
                #expect(error.location?.jsonPath == path && error.message.contains(message), "\(error)")
            }
        }
        // A template without media slots says so, rather than "0 media slots left to fill (none)".
        let plain = try Timeline(jsonText: #"{"version": 1, "output": {"size": "160x120", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#)
        #expect { _ = try plain.slotValues(assignments: [], media: ["x.mp4"], relativeTo: folder.url) } throws: { error in
            "\(error)".contains("1 media file was given, but the template has no photo, video or media slot for --media to fill")
                && !"\(error)".contains("--slot NAME=")
        }
        // --media never fills an audio slot; a template with only one says how it is filled.
        let song = try Timeline(jsonText: #"{"version": 1, "slots": {"song": {"kind": "audio", "default": {"file": "tone.wav"}}}, "output": {"size": "160x120", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}, {"kind": "audio", "items": [{"type": "music", "source": {"slot": "song"}}]}]}"#)
        #expect { _ = try song.slotValues(assignments: [], media: ["x.mp3"], relativeTo: folder.url) } throws: { error in
            "\(error)".contains("no photo, video or media slot for --media to fill") && "\(error)".contains("--slot NAME=song.mp3")
        }
        #expect(throws: MovieMakerError.self) { try timeline.filled(with: ["accent": .color("not a colour")]) }
        #expect(throws: MovieMakerError.self) { try timeline.filled(with: ["name": .file("a.mp4")]) }
        // Rebasing keeps every file where it is.
        let moved = timeline.rebased(from: URL(fileURLWithPath: "/media/specs"), to: URL(fileURLWithPath: "/media"))
        if case let .video(v) = moved.tracks[0].items[2].content { #expect(v.source == .file("specs/a.mp4")) }
        #expect(moved.slots["clip1"]?.default == .file("specs/a.mp4"))
        #expect(moved.template?.thumbnail == "specs/thumb.jpg")
        let elsewhere = timeline.rebased(from: URL(fileURLWithPath: "/media/specs"), to: URL(fileURLWithPath: "/tmp"))
        #expect(elsewhere.slots["clip1"]?.default == .file("/media/specs/a.mp4"))
    }

    @Test("a timeline built in Swift encodes to a description that decodes to an equal value")
    func builder() throws {
        let timeline = Timeline(output: Timeline.Output(size: .init(width: 320, height: 240), fps: 25)) {
            Timeline.Track.video(name: "main") {
                Timeline.Item.title("Lisbon", duration: 2, style: .letters, easing: .easeOut).withTransition("fade", duration: 0.5)
                Timeline.Item.color("#203040", duration: .frames(25)).labeled("pause")
                for i in 0..<2 { Timeline.Item.gap(.seconds(Time(value: Int64(i + 1), timescale: 3))) }
            }
            Timeline.Track.overlay {
                Timeline.Item.generator("confetti", params: ["count": .integer(20)], duration: 1.5).placed(at: 1)
            }
            if true {
                Timeline.Track.audio { Timeline.Item.music(.file("song.wav"), volume: .factor(0.5)) }
            }
        }
        let text = try timeline.jsonText()
        let decoded = try Timeline(jsonText: text)
        #expect(decoded == timeline)
        #expect(try decoded.jsonText() == text)
        #expect(text.contains("\"duration\": \"1/3s\"") && text.contains("\"duration\": \"25f\""))
    }

    @Test("a transform is typed when read (keyframes keep their times as written) and one built in Swift writes the object that reads back")
    func typedTransform() throws {
        let text = #"""
        {"version": 1, "output": {"size": "320x240", "fps": 25}, "tracks": [{"kind": "overlay", "items": [{"type": "color", "color": "red", "duration": "2s",
         "transform": {"position": [{"at": "0s", "value": [0, 120]}, {"at": "10f", "value": [160.5, 120], "easing": "ease-out"}],
                       "scale": 0.5, "rotation": [{"at": "1/3s", "value": 90}], "flip": "both", "crop": {"x": 0.25, "y": 0, "width": 0.5, "height": 1},
                       "cornerRadius": 12, "blend": "multiply", "anchor": [0, 0]}}]}]}
        """#
        let transform = try #require(try Timeline(jsonText: text).tracks[0].items[0].transform)
        let expected = Timeline.Transform(
            position: .keyframes([.init(at: .seconds(.zero), value: Point(x: 0, y: 120)),
                                  .init(at: .frames(10), value: Point(x: 160.5, y: 120), easing: .easeOut)]),
            anchor: Point(x: 0, y: 0), scale: .constant(0.5),
            rotation: .keyframes([.init(at: .seconds(Time(value: 1, timescale: 3)), value: 90)]),
            flip: .both, crop: Rect(x: 0.25, y: 0, width: 0.5, height: 1), cornerRadius: 12, blend: .multiply)
        #expect(transform == expected)
        // Built in Swift: written, read back equal, and compiled to the clip transform the file gives.
        let built = Timeline(output: Timeline.Output(size: .init(width: 320, height: 240), fps: 25)) {
            Timeline.Track.overlay { Timeline.Item.color("red", duration: 2).transformed(expected) }
        }
        let written = try built.jsonText()
        #expect(try Timeline(jsonText: written) == built)
        #expect(written.contains(#""at": "10f""#) && written.contains(#""easing": "ease-out""#), "\(written)")
        let clip = try expected.clipTransform(at: FrameRate(25), path: JSONPath())
        #expect(clip.flipHorizontally && clip.flipVertically && clip.blendMode == .multiply && clip.cornerRadius == 12)
        #expect(clip.position?.value(at: 0.4) == Point(x: 160.5, y: 120))
        // A scale eased with an overshoot (backIn from 0) passes below 0 on the way: held at 0, not mirrored.
        let overshoot = Timeline.Transform(scale: .keyframes([.init(at: .seconds(.zero), value: 0), .init(at: .seconds(1), value: 1, easing: .backIn)]))
        let eased = try overshoot.clipTransform(at: FrameRate(25), path: JSONPath())
        #expect(eased.scale.value(at: 0.2) < 0, "the easing overshoots here")
        let m = eased.matrix(at: 0.2, frameSize: Size(width: 320, height: 240))
        #expect(m.a >= 0 && m.d >= 0, "mirrored: \(m)")
        // Checked as a whole when read: a keyframed opacity outside 0…1 names its path.
        do {
            _ = try Timeline(jsonText: text.replacingOccurrences(of: #""scale": 0.5"#, with: #""opacity": [{"at": "0s", "value": 2}]"#))
            Issue.record("an opacity of 2 was read")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].transform.opacity[0].value", "\(error)")
        }
    }

    @Test("The background image is a file the timeline names: rebased, listed, made absolute like the others")
    func theBackgroundImageMovesWithTheOtherFiles() throws {
        let timeline = try Timeline(jsonText: #"{"version": 1, "output": {"size": "64x48", "background": {"image": "paper.jpg", "fit": "fit"}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#)
        #expect(timeline.namedFiles == ["paper.jpg"])
        let moved = timeline.rebased(from: URL(fileURLWithPath: "/media/specs"), to: URL(fileURLWithPath: "/media"))
        #expect(moved.output.backdrop == .image("specs/paper.jpg", fit: .fit), "\(String(describing: moved.output.backdrop))")
    }

    @Test("A slideshow's duration (each photo's time) cannot be a narration point: refused at its path, not read as a second per photo")
    func aSlideshowIsNotTimedByANarration() throws {
        let text = #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "slideshow", "photos": [{"file": "p.jpg"}], "duration": {"until": "n1"}}]}, {"kind": "audio", "items": [{"type": "narration", "id": "n1", "text": "Hello."}]}]}"#
        #expect { _ = try Timeline(jsonText: text) } throws: { error in
            guard let e = error as? MovieMakerError else { return false }
            return e.location?.jsonPath == "tracks[0].items[0].duration" && e.message.contains("each photo's time")
        }
    }

    @Test("a title whose entrance outlasts it, which would never finish arriving, is refused at entranceDuration")
    func entranceLongerThanTheTitle() throws {
        func timeline(_ entrance: String) throws -> Timeline {
            try Timeline(jsonText: #"{"version": 1, "output": {"size": "64x48", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "Hi", "duration": "1s", "entranceDuration": ""# + entrance + #""}]}]}"#)
        }
        #expect { _ = try timeline("3s").composition(Timeline.RenderOptions(drawingThreads: 1)) } throws: { error in
            "\(error)".contains("tracks[0].items[0].entranceDuration") && "\(error)".contains("never finish arriving")
        }
        #expect(try timeline("1s").composition(Timeline.RenderOptions(drawingThreads: 1)).frameCount == 10)
    }

    @Test("A mask item cannot end at a narration point: refused at its path, not left at the reader's 1 s placeholder")
    func aMaskIsNotTimedByANarration() throws {
        let text = #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": {"until": "n1"}, "mask": {"item": {"type": "color", "color": "white", "duration": {"until": "n1"}}}}]}, {"kind": "audio", "items": [{"type": "narration", "id": "n1", "text": "Hello."}]}]}"#
        #expect { _ = try Timeline(jsonText: text) } throws: { error in
            guard let e = error as? MovieMakerError else { return false }
            return e.location?.jsonPath == "tracks[0].items[0].mask.item.duration" && e.message.contains("time the masked item by the narration")
        }
        // The masked item itself may be timed by it.
        _ = try Timeline(jsonText: text.replacingOccurrences(of: #""color": "white", "duration": {"until": "n1"}"#, with: #""color": "white", "duration": "5s""#))
    }

    @Test("Slot values in a narration are spoken as written: escaped when the text is SSML markup, never read as tags")
    func narrationSlotValuesAreEscapedForMarkup() {
        let tagged = Timeline.pieces(of: #"Hi {{name}}. <break time="300ms"/>"#)
        #expect(tagged.filledAsMarkup(["name": "Tom & Jerry"], literalIsMarkup: true) == #"Hi Tom &amp; Jerry. <break time="300ms"/>"#)
        #expect(tagged.filledAsMarkup(["name": #"<mark name="cut"/>"#], literalIsMarkup: true)
                == #"Hi &lt;mark name=&quot;cut&quot;/&gt;. <break time="300ms"/>"#, "a value cannot add a bookmark")
        // A text without markup whose value has a "<": the whole text becomes markup, its own "&" escaped too.
        let plain = Timeline.pieces(of: "Fish & chips in {{city}}")
        #expect(plain.filledAsMarkup(["city": "I <3 Lisbon"], literalIsMarkup: false) == "Fish &amp; chips in I &lt;3 Lisbon")
    }

    @Test("A disabled video or photo item with a duration keeps its place without its file being opened")
    func aDisabledItemsFileIsNotOpened() throws {
        let folder = try TemporaryFolder()
        let text = #"{"version": 1, "output": {"size": "64x48", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}, {"type": "video", "source": {"file": "missing.mp4"}, "duration": "2s", "enabled": false}, {"type": "photo", "source": {"file": "gone.jpg"}, "duration": "1s", "enabled": false}, {"type": "color", "color": "blue", "duration": "1s"}]}]}"#
        let composition = try Timeline(jsonText: text).composition(Timeline.RenderOptions(mediaFolder: folder.url, drawingThreads: 1))
        #expect(composition.duration == 5 && composition.frameCount == 50)
    }

    @Test("A missing file is named at its own JSON path: a subtitles item's file, the background image, the music a slideshow cuts on")
    func missingFilesAreNamedWhereTheyAreWritten() throws {
        let folder = try TemporaryFolder()
        try FixtureJPEG.data(RGBAPicture(width: 8, height: 8) { _, _ in (9, 9, 9, 255) }).write(to: folder.file("p.jpg"))
        let cases: [(String, String)] = [
            (#"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}, {"kind": "overlay", "items": [{"type": "subtitles", "file": "talk.srt"}]}]}"#, "tracks[1].items[0].file"),
            (#"{"version": 1, "output": {"size": "64x48", "background": {"image": "paper.jpg"}}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}]}"#,
             "output.background.image"),
            (#"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "slideshow", "photos": [{"file": "p.jpg"}], "cutOn": "beats"}]}, {"kind": "audio", "items": [{"type": "music", "source": {"file": "song.mp3"}}]}]}"#, "tracks[1].items[0].source.file"),
        ]
        for (text, path) in cases {
            do {
                _ = try Timeline(jsonText: text).composition(Timeline.RenderOptions(mediaFolder: folder.url, drawingThreads: 1))
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.location?.jsonPath == path && error.message.contains("no such file"), "\(path): \(error)")
            }
        }
    }
}

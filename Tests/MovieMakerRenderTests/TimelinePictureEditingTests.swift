import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Picture editing in description files: filters, transforms, split screens, stickers, subtitles and
/// backgrounds, rendered from JSON and checked on the decoded movie; bad values named by JSON path.
@Suite("Description files: picture editing", .serialized)
struct TimelinePictureEditingTests {
    private static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * p.width + x) * 4
        return (Int(p.bytes[i + 2]), Int(p.bytes[i + 1]), Int(p.bytes[i]))
    }
    private static func near(_ c: (r: Int, g: Int, b: Int), _ r: Int, _ g: Int, _ b: Int, _ tolerance: Int = 24) -> Bool {
        abs(c.r - r) <= tolerance && abs(c.g - g) <= tolerance && abs(c.b - b) <= tolerance
    }

    static let spec = #"""
    {
      "version": 1,
      "output": {"size": "320x240", "fps": 30, "background": {"gradient": ["#000000", "#0000ff"], "angle": 180},
                 "encoder": {"crf": 12, "preset": "ultrafast"}},
      "tracks": [
        {"kind": "video", "items": [
          {"type": "color", "color": "#ff0000", "duration": "1s", "filters": [{"name": "grayscale"}]},
          {"type": "color", "color": "#00ff00", "duration": "1s",
           "transform": {"scale": 0.5, "position": [160, 120], "opacity": 1}},
          {"type": "split", "layout": "2x2", "duration": "1s", "cells": [
            {"type": "color", "color": "#ff0000", "duration": "1s"},
            {"type": "color", "color": "#00ff00", "duration": "1s"},
            {"type": "color", "color": "#0000ff", "duration": "1s"},
            {"type": "color", "color": "#ffffff", "duration": "1s", "at": "0.5s"}]}
        ]},
        {"kind": "overlay", "items": [
          {"type": "sticker", "source": {"file": "anim.gif"}, "at": "1s", "duration": "1s",
           "transform": {"position": [{"at": "0s", "value": [40, 40]}, {"at": "1s", "value": [280, 40]}]}},
          {"type": "subtitles", "file": "talk.srt", "at": "0s"}
        ]}
      ]
    }
    """#

    static func media(_ folder: TemporaryFolder) throws {
        try Data(FixtureGIF.data(width: StickerFixtures.side, height: StickerFixtures.side, frames: StickerFixtures.frames()))
            .write(to: folder.file("anim.gif"))
        try "1\n00:00:00,000 --> 00:00:00,500\nHello there\n\n2\n00:00:02,000 --> 00:00:02,500\nمرحبا بالعالم\n".write(to: folder.file("talk.srt"), atomically: true, encoding: .utf8)
    }

    @Test func filtersTransformsSplitsStickersAndSubtitlesRenderAsDescribed() throws {
        let folder = try TemporaryFolder()
        try Self.media(folder)
        let timeline = try Timeline(jsonText: Self.spec)
        // Reading and writing keep every new key.
        #expect(try Timeline(jsonText: try timeline.jsonText()) == timeline)
        let url = folder.file("out.mp4")
        try timeline.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
        let frames = try decodeAll(url)
        #expect(frames.count == 90)
        // 0–1 s: red through grayscale → grey (BT.709 luma of red: 54).
        let grey = Self.pixel(frames[20].pixels, 160, 60)
        #expect(abs(grey.r - grey.g) <= 6 && abs(grey.g - grey.b) <= 6 && abs(grey.r - 54) <= 10, "grayscale red: \(grey)")
        // 1–2 s: green scaled to half around the centre, over the gradient background (black at the top).
        let inside = Self.pixel(frames[45].pixels, 160, 120), corner = Self.pixel(frames[45].pixels, 20, 200)
        #expect(Self.near(inside, 0, 255, 0), "scaled green at the centre: \(inside)")
        #expect(corner.g < 40 && corner.b > 100, "the gradient shows outside the scaled item: \(corner)")
        let top = Self.pixel(frames[45].pixels, 300, 4), bottom = Self.pixel(frames[45].pixels, 300, 236)
        #expect(top.b + 100 < bottom.b && top.r < 10 && bottom.r < 10, "a top-to-bottom black-to-blue gradient: top \(top), bottom \(bottom)")
        // The sticker, moving from (40, 40) to (280, 40): red for its first 100 ms.
        #expect(Self.near(Self.pixel(frames[30].pixels, 40, 40), 255, 0, 0, 40), "sticker at its start: \(Self.pixel(frames[30].pixels, 40, 40))")
        let mid = 40 + 240 * 15.0 / 30
        #expect(Self.pixel(frames[45].pixels, Int(mid), 40).b > 180, "the sticker moved along its keyframes (blue frame at 1.5 s)")
        // 2–3 s: the 2x2 split; the bottom-right cell starts at 0.5 s.
        let f = frames[65].pixels, g = frames[80].pixels
        #expect(Self.near(Self.pixel(f, 80, 60), 255, 0, 0) && Self.near(Self.pixel(f, 240, 60), 0, 255, 0) && Self.near(Self.pixel(f, 80, 180), 0, 0, 255))
        #expect(!Self.near(Self.pixel(f, 240, 180), 255, 255, 255), "the white cell has not started at 2.17 s")
        #expect(Self.near(Self.pixel(g, 240, 180), 255, 255, 255), "the white cell shows from 2.5 s")
        // Subtitles: ink near the bottom while a cue is on (0–0.5 s, 2–2.5 s), none at 1 s.
        func ink(_ p: PixelBuffer) -> Int {
            var n = 0
            for y in 170..<216 { for x in 40..<280 where Self.pixel(p, x, y).r > 230 && Self.pixel(p, x, y).g > 230 && Self.pixel(p, x, y).b > 230 { n += 1 } }
            return n
        }
        #expect(ink(frames[5].pixels) > 20, "cue 1 on")
        #expect(ink(frames[25].pixels) == 0, "no cue at 0.83 s")
        #expect(ink(frames[62].pixels) > 20, "cue 2 (Arabic) on")
    }

    @Test func badPictureEditingValuesAreNamedByJSONPath() throws {
        func message(_ text: String) -> String {
            do { _ = try Timeline(jsonText: text); return "" } catch { return error.description }
        }
        func spec(_ item: String, kind: String = "video") -> String {
            #"{"version": 1, "tracks": [{"kind": "\#(kind)", "items": [\#(item)]}]}"#
        }
        let unknown = message(spec(#"{"type": "color", "color": "red", "duration": 1, "filters": [{"name": "greyscale"}]}"#))
        #expect(unknown.contains("tracks[0].items[0].filters[0].name") && unknown.contains("did you mean \"grayscale\""), "\(unknown)")
        let range = message(spec(#"{"type": "color", "color": "red", "duration": 1, "filters": [{"name": "brightness", "amount": 7}]}"#))
        #expect(range.contains("filters[0].amount") && range.contains("-1 to 1"), "\(range)")
        let key = message(spec(#"{"type": "color", "color": "red", "duration": 1, "filters": [{"name": "blur", "radus": 3}]}"#))
        #expect(key.contains("filters[0].radus") && key.contains("did you mean \"radius\""), "\(key)")
        let opacity = message(spec(#"{"type": "color", "color": "red", "duration": 1, "transform": {"opacity": [{"at": "0s", "value": 0}, {"at": "1s", "value": 3}]}}"#))
        #expect(opacity.contains("transform.opacity[1].value") && opacity.contains("0 to 1"), "\(opacity)")
        let crop = message(spec(#"{"type": "color", "color": "red", "duration": 1, "transform": {"crop": {"x": 0.6, "y": 0, "width": 0.6, "height": 1}}}"#))
        #expect(crop.contains("transform.crop"), "\(crop)")
        let cells = message(spec(#"{"type": "split", "layout": "2x1", "cells": [{"type": "gap", "duration": 1}, {"type": "gap", "duration": 1}, {"type": "gap", "duration": 1}]}"#))
        #expect(cells.contains("items[0].cells") && cells.contains("1 to 2 cells"), "\(cells)")
        let noColor = message(spec(#"{"type": "color", "color": "white", "duration": 1, "filters": [{"name": "colorize"}]}"#))
        #expect(noColor.contains("filter \"colorize\" needs \"color\": the colour to tint with"), "\(noColor)")
        let unsupported = message(spec(#"{"type": "color", "color": "red", "duration": 1, "transition": {"name": "distance"}}, {"type": "color", "color": "blue", "duration": 1}"#))
        #expect(unsupported.contains("crossfade") && unsupported.contains("pushleft") && unsupported.contains("none"), "every name is offered: \(unsupported)")
        do {
            _ = try Timeline(jsonText: spec(#"{"type": "color", "color": "red", "duration": 1, "filters": [{"name": "lut", "file": "/nonexistent/missing.cube"}]}"#))
                .composition(Timeline.RenderOptions())
            Issue.record("a missing LUT was accepted")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].filters[0].file" && error.message.contains("missing.cube"), "a missing LUT is named at its key: \(error)")
        }
        let pipKey = message(spec(#"{"type": "split", "layout": "2x1", "margin": 3, "cells": [{"type": "gap", "duration": 1}, {"type": "gap", "duration": 1}]}"#))
        #expect(pipKey.contains("items[0].margin") && pipKey.contains("picture-in-picture") && pipKey.contains("\"layout\": \"pip\""), "\(pipKey)")
        let cellTransition = message(spec(#"{"type": "split", "layout": "2x1", "cells": [{"type": "color", "color": "red", "duration": 1, "transition": {"name": "fade"}}, {"type": "gap", "duration": 1}]}"#))
        #expect(cellTransition.contains("cells[0].transition") && cellTransition.contains("a split's cells play side by side and have no transition"), "\(cellTransition)")
        // A gap draws nothing: filters, a transform or a mask on it would do nothing, so they are refused.
        for (key, value) in [("filters", #"[{"name": "grayscale"}]"#), ("transform", #"{"opacity": 0.5}"#),
                             ("mask", #"{"item": {"type": "color", "color": "white", "duration": 1}}"#)] {
            let gap = message(spec(#"{"type": "gap", "duration": 1, "\#(key)": \#(value)}"#, kind: "overlay"))
            #expect(gap.contains("tracks[0].items[0].\(key)") && gap.contains("a gap item draws nothing"), "\(gap)")
            let cell = message(spec(#"{"type": "split", "layout": "2x1", "cells": [{"type": "gap", "duration": 1, "\#(key)": \#(value)}]}"#))
            #expect(cell.contains("cells[0].\(key)") && cell.contains("a gap item draws nothing"), "\(cell)")
        }
        let sticker = message(spec(#"{"type": "sticker", "duration": 1}"#, kind: "overlay"))
        #expect(sticker.contains("either \"source\"") , "\(sticker)")
        let onVideo = message(spec(#"{"type": "subtitles", "file": "a.srt"}"#))
        #expect(onVideo.contains("tracks[0].items[0]") && onVideo.contains("overlay track"), "subtitles on a video track: \(onVideo)")
        let background = message(#"{"version": 1, "output": {"background": {"gradient": ["red"]}}, "tracks": []}"#)
        #expect(background.contains("output.background.gradient"), "\(background)")
    }

    @Test("A split's cells without a duration last as long as the split, or its longest cell; with neither, the cell's JSON path is named")
    func splitCellsWithoutADurationLastAsLongAsTheSplit() throws {
        func spec(_ split: String) -> String {
            #"{"version": 1, "output": {"size": "320x240", "fps": 30}, "tracks": [{"kind": "video", "items": [\#(split)]}]}"#
        }
        // The split's own duration: both colour cells fill it, the one starting at 0.5 s too.
        let given = try Timeline(jsonText: spec(##"{"type": "split", "layout": "2x1", "duration": "2s", "cells": [{"type": "color", "color": "#ff0000"}, {"type": "color", "color": "#0000ff", "at": "0.5s"}]}"##))
        #expect(try Timeline(jsonText: try given.jsonText()) == given, "a cell without a duration is written without one")
        let folder = try TemporaryFolder()
        let url = folder.file("split.mp4")
        try given.render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
        let frames = try decodeAll(url)
        #expect(frames.count == 60)
        let last = try #require(frames.last).pixels
        #expect(Self.near(Self.pixel(last, 80, 120), 255, 0, 0) && Self.near(Self.pixel(last, 240, 120), 0, 0, 255),
                "both cells still show in the split's last frame: \(Self.pixel(last, 80, 120)) \(Self.pixel(last, 240, 120))")
        #expect(!Self.near(Self.pixel(frames[5].pixels, 240, 120), 0, 0, 255), "the blue cell starts at its at")
        // No split duration: the other cell's length (a 1.5 s gradient generator) decides.
        let longest = try Timeline(jsonText: spec(##"{"type": "split", "layout": "2x1", "cells": [{"type": "color", "color": "#ff0000"}, {"type": "generator", "name": "gradient", "duration": "1.5s"}]}"##))
        #expect(try longest.composition(Timeline.RenderOptions(mediaFolder: folder.url)).frameCount == 45)
        // Nothing to take a length from: named by the cell's path.
        let none = try Timeline(jsonText: spec(##"{"type": "split", "layout": "2x1", "cells": [{"type": "color", "color": "#ff0000"}, {"type": "color", "color": "#00ff00"}]}"##))
        #expect(throws: MovieMakerError.self) { try none.composition(Timeline.RenderOptions(mediaFolder: folder.url)) }
        do { _ = try none.composition(Timeline.RenderOptions(mediaFolder: folder.url)) } catch {
            #expect(error.description.contains("tracks[0].items[0].cells[0].duration") && error.description.contains("give the split a"), "\(error)")
        }
        // A photo or a title cell without a duration lasts as long too (it kept its own 3 s or 4 s, and its
        // cell was black for the rest of a 6 s split); with no length anywhere, each takes its own.
        let photo = try Canvas(width: 32, height: 32)
        try photo.draw { $0.clear(Color(red8: 0, green8: 200, blue8: 0)) }
        try photo.writePNG(to: folder.file("green.png"))
        let long = try Timeline(jsonText: spec(##"{"type": "split", "layout": "2x1", "duration": "6s", "cells": [{"type": "photo", "source": "green.png"}, {"type": "title", "text": "Hi"}]}"##))
        let cells = try long.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(cells.frameCount == 180)
        let photoLeaf = cells.picture.leafPlacements.first { if case .media = $0.clip.node { return true } else { return false } }
        #expect(photoLeaf.map { $0.range.duration == Time(6) } == true, "the photo cell lasts the split: \(String(describing: photoLeaf?.range))")
        let own = try Timeline(jsonText: spec(##"{"type": "split", "layout": "2x1", "cells": [{"type": "photo", "source": "green.png"}, {"type": "title", "text": "Hi"}]}"##))
        #expect(try own.composition(Timeline.RenderOptions(mediaFolder: folder.url)).frameCount == 120, "the title's own 4 s, the longest")
        let mixed = try Timeline(jsonText: spec(##"{"type": "split", "layout": "2x1", "cells": [{"type": "photo", "source": "green.png"}, {"type": "color", "color": "#ff0000"}]}"##))
        #expect(try mixed.composition(Timeline.RenderOptions(mediaFolder: folder.url)).frameCount == 90, "the colour lasts as long as the photo's own 3 s")
        // Outside a split, a colour still needs its duration, named by path when read.
        do { _ = try Timeline(jsonText: spec(##"{"type": "color", "color": "#ff0000"}"##)); Issue.record("a colour item without duration was read") } catch {
            #expect(error.description.contains("tracks[0].items[0]") && error.description.contains("duration"), "\(error)")
        }
    }

    @Test func aMalformedSubtitleFileIsNamedWithItsLine() throws {
        let folder = try TemporaryFolder()
        try "1\n00:00:01,000 --> 00:00:0x,000\nHi\n".write(to: folder.file("bad.srt"), atomically: true, encoding: .utf8)
        let timeline = try Timeline(jsonText: #"{"version": 1, "output": {"size": "320x240"}, "tracks": [{"kind": "overlay", "items": [{"type": "subtitles", "file": "bad.srt", "duration": 1}]}]}"#)
        do {
            _ = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
            Issue.record("a malformed subtitle file was accepted")
        } catch {
            #expect(error.description.contains("tracks[0].items[0].file") && error.description.contains("line 2"), "\(error.description)")
        }
    }

    @Test func anItemMaskedByAnotherShowsWhereTheMaskIsBright() throws {
        // Red masked by a white rectangle on the left half (luma): red there, the black background elsewhere.
        let text = #"""
        {"version": 1, "output": {"size": "320x240"}, "tracks": [{"kind": "video", "items": [
          {"type": "color", "color": "red", "duration": 1,
           "mask": {"mode": "luma", "item": {"type": "color", "color": "white", "duration": 1,
                                             "transform": {"crop": {"x": 0, "y": 0, "width": 0.5, "height": 1}}}}}]}]}
        """#
        let timeline = try Timeline(jsonText: text)
        #expect(try Timeline(jsonText: try timeline.jsonText()) == timeline)
        let composition = try timeline.composition()
        let f = try #require(try composition.picture.renderFrames(0..<1, width: 320, height: 240).first)
        #expect(Self.near(Self.pixel(f, 60, 120), 255, 0, 0, 4), "left: \(Self.pixel(f, 60, 120))")
        #expect(Self.near(Self.pixel(f, 260, 120), 0, 0, 0, 4), "right: \(Self.pixel(f, 260, 120))")
        #expect(composition.plan.first?.detail.contains("masked (luma)") == true)
    }

    /// Found by an exploratory session: a fitted video's bars were black over a coloured or gradient
    /// canvas (even with "background": "transparent"), and a PNG's transparency came out black on an
    /// overlay track and did nothing as an alpha mask.
    @Test func fittedPicturesAndTransparentPhotosShowTheCanvasAndTracksBelow() throws {
        let folder = try TemporaryFolder()
        _ = try TestPhotos.photo(.green, "tall.png", in: folder, w: 100, h: 240)
        let clip = folder.file("tall.mp4")
        try Clip.color(.green, duration: 1).render(to: clip, width: 100, height: 240, fps: 10)
        // A white disc on a transparent 320x240 PNG.
        let disc = try Canvas(width: 320, height: 240)
        try disc.draw { ctx in
            ctx.clear(.clear)
            ctx.setFill(.white)
            ctx.fillCircle(center: Point(x: 160, y: 120), radius: 60)
        }
        try disc.writePNG(to: folder.file("disc.png"))
        func frame(_ json: String) throws -> PixelBuffer {
            let composition = try Timeline(jsonText: json).composition(Timeline.RenderOptions(mediaFolder: folder.url))
            return try #require(try composition.picture.renderFrames(5..<6, width: 320, height: 240).first)
        }
        for item in [#"{"type": "video", "source": {"file": "tall.mp4"}, "fit": "fit", "duration": "1s"}"#,
                     #"{"type": "photo", "source": {"file": "tall.png"}, "fit": "fit", "duration": "1s"}"#] {
            let tomato = try frame(#"{"version": 1, "output": {"size": "320x240", "fps": 10, "background": "tomato"}, "tracks": [{"kind": "video", "items": ["# + item + "]}]}")
            #expect(Self.near(Self.pixel(tomato, 10, 120), 255, 99, 71, 6) && Self.near(Self.pixel(tomato, 160, 120), 0, 255, 0, 6),
                    "\(item): bar \(Self.pixel(tomato, 10, 120)), picture \(Self.pixel(tomato, 160, 120))")
            let gradient = try frame(#"{"version": 1, "output": {"size": "320x240", "fps": 10, "background": {"gradient": ["red", "blue"], "angle": 90}}, "tracks": [{"kind": "video", "items": ["# + item + "]}]}")
            #expect(Self.pixel(gradient, 10, 120).r > 200 && Self.pixel(gradient, 310, 120).b > 200, "\(item): bars \(Self.pixel(gradient, 10, 120)) \(Self.pixel(gradient, 310, 120))")
            let black = try frame(#"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": ["# + item + "]}]}")
            #expect(Self.near(Self.pixel(black, 10, 120), 0, 0, 0, 2), "\(item): the default canvas is black: \(Self.pixel(black, 10, 120))")
        }
        // A transparent PNG on an overlay track: the red track below shows around the disc.
        let overlaid = try frame(#"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1s"}]}, {"kind": "overlay", "items": [{"type": "photo", "source": {"file": "disc.png"}, "duration": "1s"}]}]}"#)
        #expect(Self.near(Self.pixel(overlaid, 20, 20), 255, 0, 0, 6) && Self.near(Self.pixel(overlaid, 160, 120), 255, 255, 255, 6),
                "corner \(Self.pixel(overlaid, 20, 20)), disc \(Self.pixel(overlaid, 160, 120))")
        // As an alpha mask: red shows in the disc only, the tomato canvas around it.
        let masked = try frame(#"{"version": 1, "output": {"size": "320x240", "fps": 10, "background": "tomato"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "blue", "duration": "1s", "mask": {"mode": "alpha", "item": {"type": "photo", "source": {"file": "disc.png"}, "duration": "1s"}}}]}]}"#)
        #expect(Self.near(Self.pixel(masked, 160, 120), 0, 0, 255, 6) && Self.near(Self.pixel(masked, 20, 20), 255, 99, 71, 6),
                "disc \(Self.pixel(masked, 160, 120)), corner \(Self.pixel(masked, 20, 20))")
        // A mask photo without a duration lasts as long as its 5 s item (it ended at a photo's 3 s, the item
        // hidden from then); one shorter than its item is warned about.
        let long = #"{"version": 1, "output": {"size": "320x240", "fps": 10, "background": "tomato"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "blue", "duration": "5s", "mask": {"mode": "alpha", "item": {"type": "photo", "source": {"file": "disc.png"}}}}]}]}"#
        let composition = try Timeline(jsonText: long).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let late = try #require(try composition.picture.renderFrames(45..<46, width: 320, height: 240).first)
        #expect(Self.near(Self.pixel(late, 160, 120), 0, 0, 255, 6), "at 4.5 s the disc shows the item: \(Self.pixel(late, 160, 120))")
        #expect(composition.warnings.isEmpty, "\(composition.warnings)")
        let short = try Timeline(jsonText: long.replacingOccurrences(of: #""file": "disc.png"}}"#, with: #""file": "disc.png"}, "duration": "2s"}"#))
            .composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(short.warnings.contains { $0.contains("mask.item") && $0.contains("before its item") }, "\(short.warnings)")
        // A colour mask may leave its duration out too (it was refused: "duration is required"), and a
        // transition on a mask is named as a mask's.
        let colourMask = #"{"version": 1, "output": {"size": "320x240", "fps": 10, "background": "tomato"}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "blue", "duration": "5s", "mask": {"mode": "luma", "item": {"type": "color", "color": "white"}}}]}]}"#
        let whole = try Timeline(jsonText: colourMask)
        #expect(try Timeline(jsonText: try whole.jsonText()) == whole, "written and read back")
        let lastFrame = try #require(try whole.composition(Timeline.RenderOptions()).picture.renderFrames(49..<50, width: 320, height: 240).first)
        #expect(Self.near(Self.pixel(lastFrame, 160, 120), 0, 0, 255, 6), "the white mask shows the item to its end: \(Self.pixel(lastFrame, 160, 120))")
        do {
            _ = try Timeline(jsonText: colourMask.replacingOccurrences(of: #""color": "white"}"#, with: #""color": "white", "transition": {"name": "fade"}}"#))
            Issue.record("a mask's transition was accepted")
        } catch {
            #expect(error.description.contains("mask.item.transition") && error.description.contains("a mask plays with its item"), "\(error)")
        }
    }

    @Test func aBlurredBackgroundFillsTheBarsOfAFittedPicture() throws {
        let folder = try TemporaryFolder()
        _ = try TestPhotos.photo(.red, "wide.png", in: folder, w: 320, h: 100)
        let timeline = try Timeline(jsonText: #"{"version": 1, "output": {"size": "320x240", "background": "blur"}, "tracks": [{"kind": "video", "items": [{"type": "photo", "source": {"file": "wide.png"}, "fit": "fit", "duration": 1}]}]}"#)
        let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let f = try #require(try composition.picture.renderFrames(0..<1, width: 320, height: 240).first)
        // Wherever the photo leaves bars, the blurred copy is there instead of black.
        var black = 0
        for y in stride(from: 0, to: 240, by: 4) { for x in stride(from: 0, to: 320, by: 4) where Self.pixel(f, x, y).r < 60 { black += 1 } }
        #expect(black == 0, "\(black) sampled pixels are dark: the bars were not filled")
    }

    /// Issue 33, bug 2: a portrait picture fitted on a `"blur"` background under a lower third. The
    /// backdrop was made from every track, overlays included: one side bar black, the title enlarged and
    /// blurred across the bottom, and after the picture ended the whole frame the blurred title.
    @Test func aBlurredBackgroundIsMadeFromTheVideoTracksAlone() throws {
        let folder = try TemporaryFolder()
        _ = try TestPhotos.photo(.red, "tall.png", in: folder, w: 80, h: 240)
        let text = #"""
            {"version": 1, "output": {"size": "320x240", "fps": 10, "background": "blur"}, "tracks": [
              {"kind": "video", "items": [{"type": "photo", "source": {"file": "tall.png"}, "fit": "fit", "duration": 1}]},
              {"kind": "overlay", "items": [{"type": "title", "text": "Jane Doe", "subtitle": "Director", "layout": "lowerThird",
                                             "color": "white", "background": "#2040ff", "at": 0, "duration": 2, "style": "none"}]}]}
            """#
        let timeline = try Timeline(jsonText: text)
        let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let frames = try composition.picture.renderFrames(0..<16, width: 320, height: 240, rate: 10)
        let during = frames[0], after = frames[15]
        // While the picture shows: both side bars hold the blurred red picture (red, no blue from the title).
        for x in [8, 40, 280, 312] {
            let c = Self.pixel(during, x, 40)
            #expect(c.r > 60 && c.b < 40, "bar at x \(x), y 40: \(c): not the blurred picture")
        }
        // After the picture ended: the plain background colour wherever the title is not (the top half).
        for (x, y) in [(8, 8), (160, 40), (312, 100), (8, 110)] {
            #expect(Self.near(Self.pixel(after, x, y), 0, 0, 0, 2),
                    "after the picture: \(Self.pixel(after, x, y)) at \(x), \(y): the title is in the backdrop")
        }
    }

    /// A colour slot goes wherever a colour does: a filter's colour and a generator's colours took only
    /// CSS and refused `"{{accent}}"`.
    @Test("a colour slot fills a filter's colour and a generator's colours, defaulted and filled")
    func colourSlotsInFiltersAndGenerators() throws {
        let json = #"""
            {"version": 1, "output": {"size": "64x48", "fps": 30}, "slots": {"accent": {"kind": "color", "default": "#ff0000"}},
             "tracks": [{"kind": "video", "items": [
               {"type": "color", "color": "white", "duration": 1, "filters": [{"name": "colorize", "color": "{{accent}}"}]},
               {"type": "generator", "name": "gradient", "duration": 1, "params": {"colors": ["{{accent}}", "{{accent}}"]}}]}]}
            """#
        for (fill, expected) in [(nil, (255, 0, 0)), ("#00ff00", (0, 255, 0))] {
            var timeline = try Timeline(jsonText: json)
            if let fill { timeline = try timeline.filled(with: ["accent": .color(Timeline.ColorText(fill))]) }
            let picture = try timeline.composition(Timeline.RenderOptions()).picture
            let tinted = try picture.still(at: Time(value: 15, timescale: 30), width: 64, height: 48).pixels()
            let generated = try picture.still(at: Time(value: 45, timescale: 30), width: 64, height: 48).pixels()
            let t = Self.pixel(tinted, 32, 24), g = Self.pixel(generated, 32, 24)
            #expect(Self.near(g, expected.0, expected.1, expected.2, 2), "generator with \(fill ?? "the default"): \(g)")
            // Colorize keeps the luminance of white and takes the slot's hue.
            let (hue, others) = expected.0 == 255 ? (t.r, [t.g, t.b]) : (t.g, [t.r, t.b])
            #expect(others.allSatisfy { hue > $0 + 40 }, "colorize with \(fill ?? "the default"): \(t)")
        }
        do {
            _ = try Timeline(jsonText: json.replacingOccurrences(of: #""color": "{{accent}}""#, with: #""color": "{{acent}}""#))
            Issue.record("a filter colour naming no slot was accepted")
        } catch {
            #expect(error.location?.jsonPath == "tracks[0].items[0].filters[0].color" && error.message.contains("did you mean {{accent}}"), "\(error)")
        }
    }

    /// A keyframe after its item ends is never reached (usually a time in the movie's clock rather than
    /// the item's): the composition says which one, and keyframes within the item say nothing.
    @Test("a transform or filter keyframe after the item's end is named in a warning; one inside it is not")
    func keyframesPastTheItemsEndAreWarnedAbout() throws {
        let json = #"""
            {"version": 1, "output": {"size": "64x48", "fps": 10}, "tracks": [{"kind": "video", "items": [
              {"type": "color", "color": "red", "duration": "2s",
               "transform": {"scale": [{"at": "0s", "value": 1}, {"at": "2s", "value": 0.5}], "opacity": [{"at": "0s", "value": 1}, {"at": "50f", "value": 0}]},
               "filters": [{"name": "brightness", "amount": [{"at": 0, "value": 0}, {"at": 1, "value": 0.2}, {"at": 3, "value": 0.5}]}]}]}]}
            """#
        let warnings = try Timeline(jsonText: json).composition(Timeline.RenderOptions()).warnings
        #expect(warnings.contains { $0.hasPrefix("tracks[0].items[0].transform.opacity[1].at:") && $0.contains("5.000 s") && $0.contains("2.000 s") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("tracks[0].items[0].filters[0].amount[2].at:") && $0.contains("3.000 s") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("transform.scale") }, "a keyframe at the item's end is reached: \(warnings)")
        #expect(warnings.count == 2, "\(warnings)")
    }

    /// A gutter wider than the frame left every cell empty (a black movie), and a large margin put a
    /// picture-in-picture's inset off the frame, both without a word: now each is refused at its key,
    /// with the largest value that fits.
    @Test("a gutter that leaves the cells no room, or a margin pushing the inset off the frame, is refused at its key")
    func gutterAndMarginThatLeaveNothingAreRefused() throws {
        func split(_ fields: String, cells: Int = 1) -> String {
            let cell = #"{"type": "color", "color": "red"}"#
            return #"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "split", "duration": 1, "#
                + fields + #", "cells": ["# + Array(repeating: cell, count: cells).joined(separator: ", ") + "]}]}]}"
        }
        for (fields, key, limit) in [(#""layout": "2x2", "gutter": 200"#, "gutter", "at most 79"),
                                     (#""layout": "pip", "margin": 300"#, "margin", "at most 168")] {
            do {
                _ = try Timeline(jsonText: split(fields, cells: 2)).composition(Timeline.RenderOptions())
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.location?.jsonPath == "tracks[0].items[0].\(key)" && error.message.contains(limit), "\(error)")
            }
        }
        // The largest gutter allowed still shows the cells.
        let picture = try Timeline(jsonText: split(#""layout": "2x2", "gutter": 79"#)).composition(Timeline.RenderOptions()).picture
        let pixels = try picture.still(at: .zero, width: 320, height: 240).pixels()
        #expect(Self.pixel(pixels, 79, 79).r > 200, "the first cell is red: \(Self.pixel(pixels, 79, 79))")
    }

    /// A portrait picture (120×240: red, green and blue bands, 40 pixels each, left to right), as a PNG
    /// and as a one-second movie, the shape of a phone clip.
    private static func portraitBands(in folder: TemporaryFolder) throws {
        func bands(_ ctx: DrawingContext) {
            for (k, color) in [Color.red, Color.green, Color.blue].enumerated() {
                ctx.setFill(color)
                ctx.fillRect(Rect(x: Double(40 * k), y: 0, width: 40, height: 240))
            }
        }
        let canvas = try Canvas(width: 120, height: 240)
        try canvas.draw(bands)
        try canvas.writePNG(to: folder.file("portrait.png"))
        let movie = try MovieMaker(url: folder.file("portrait.mp4"), width: 120, height: 240, fps: 10,
                                   settings: EncoderSettings(crf: 10, preset: .ultrafast))
        try movie.addFrames(count: 10) { ctx, _ in bands(ctx) }
        try movie.finish()
    }

    @Test("A portrait photo or phone clip in a split's cell is fitted once, into the cell: all its width shows (filled) or all of it (fitted)")
    func portraitPicturesInASplitAreFittedIntoTheirCellOnce() throws {
        let folder = try TemporaryFolder()
        try Self.portraitBands(in: folder)
        let url = folder.file("split.mp4")
        // Cells of 160×240: filled, the 120×240 picture is 160 wide (bands of 53); fitted, it is 120 wide,
        // centred, with bars of 20. Fitted to the 320×240 frame first and then to the cell, the filled
        // photo showed its green middle zoomed, and the fitted clip a 60×120 picture.
        try Timeline(jsonText: ##"{"version": 1, "output": {"size": "320x240", "fps": 10, "encoder": {"crf": 10, "preset": "ultrafast"}}, "tracks": [{"kind": "video", "items": [{"type": "split", "layout": "2x1", "fits": ["fill", "fit"], "duration": "1s", "cells": [{"type": "photo", "source": "portrait.png"}, {"type": "video", "source": "portrait.mp4"}]}]}]}"##)
            .render(to: url, options: Timeline.RenderOptions(mediaFolder: folder.url))
        let frames = try decodeAll(url)
        #expect(frames.count == 10)
        let p = frames[5].pixels
        let filled = [Self.pixel(p, 25, 120), Self.pixel(p, 80, 120), Self.pixel(p, 135, 120)]
        #expect(Self.near(filled[0], 255, 0, 0, 40) && Self.near(filled[1], 0, 255, 0, 40) && Self.near(filled[2], 0, 0, 255, 40),
                "the filled photo shows its three bands across the cell: \(filled)")
        let fitted = [Self.pixel(p, 170, 120), Self.pixel(p, 200, 120), Self.pixel(p, 240, 120), Self.pixel(p, 280, 120), Self.pixel(p, 310, 120)]
        #expect(Self.near(fitted[0], 0, 0, 0, 40) && Self.near(fitted[1], 255, 0, 0, 40) && Self.near(fitted[2], 0, 255, 0, 40)
                && Self.near(fitted[3], 0, 0, 255, 40) && Self.near(fitted[4], 0, 0, 0, 40),
                "the fitted clip is 120 wide in its 160-wide cell, bars either side: \(fitted)")
        // Top to bottom, the fitted clip fills the cell's height.
        #expect(Self.near(Self.pixel(p, 240, 5), 0, 255, 0, 40) && Self.near(Self.pixel(p, 240, 235), 0, 255, 0, 40),
                "the fitted clip is as tall as its cell: \(Self.pixel(p, 240, 5)) \(Self.pixel(p, 240, 235))")
    }

    @Test("A title in a split's cell is laid out for the cell: a line too wide for the cell wraps instead of being cut at its edges")
    func aTitleInASplitCellIsLaidOutForTheCell() throws {
        func picture(_ cell: String) throws -> PixelBuffer {
            let text = ##"{"version": 1, "output": {"size": "320x240", "fps": 10}, "tracks": [{"kind": "video", "items": [{"type": "split", "layout": "2x1", "gutter": 20, "duration": "2s", "cells": [\##(cell), {"type": "color", "color": "#000000"}]}]}]}"##
            return try Timeline(jsonText: text).composition(Timeline.RenderOptions()).picture.still(at: Time(1.5), width: 320, height: 240).pixels()
        }
        let title = try picture(##"{"type": "title", "text": "A headline far too long for one narrow cell", "background": "#000000", "style": "fade"}"##)
        // The cell is x 20…150: ink stays inside it, and leaves a margin on both sides (laid out for
        // 130 pixels, not cut from a 320-pixel line).
        var columns = Set<Int>()
        for y in 0..<240 { for x in 0..<320 where Self.pixel(title, x, y).r > 128 { columns.insert(x) } }
        #expect(!columns.isEmpty, "the title shows")
        #expect((columns.min() ?? 0) > 22 && (columns.max() ?? 320) < 148, "the title's ink stays inside the cell with a margin: x \(columns.min() ?? -1)…\(columns.max() ?? -1)")
    }

    @Test("Clip.SplitScreen cells drawn at the cell's size see the cell as their bounds, in whole pixels")
    func cellsDrawnAtTheCellSizeSeeTheCell() throws {
        final class Sizes: Sendable { let list = Mutex<[Size]>([]) }
        let seen = Sizes()
        let probe = Clip(duration: 1) { ctx, _ in
            seen.list.withLock { $0.append(ctx.size) }
            ctx.setFill(.red)
            ctx.fillRect(Rect(x: ctx.size.width - 10, y: 0, width: 10, height: ctx.size.height))
        }
        let split = try Clip.split(Clip.SplitScreen(.sideBySide, cells: [.init(probe, pictureSize: .cell), .init(.color(.blue, duration: 1))], gutter: 5))
        let pixels = try split.still(at: .zero, width: 320, height: 240).pixels()
        #expect(seen.list.withLock { $0 } == [Size(width: 153, height: 230)], "the cell's 152.5×230 rectangle on whole pixels: \(seen.list.withLock { $0 })")
        // Its right edge: the probe's red band ends at the cell's right edge (x 158), not off-cell.
        #expect(Self.pixel(pixels, 155, 120).r > 200 && Self.pixel(pixels, 147, 120).r < 60, "\(Self.pixel(pixels, 155, 120)) \(Self.pixel(pixels, 147, 120))")
        let clip = try Clip.split(Clip.SplitScreen(.sideBySide, cells: [.init(.color(.red, duration: 1), pictureSize: .cell)]))
        let back = try JSONDecoder().decode(Clip.self, from: JSONEncoder().encode(clip))
        #expect(back == clip, "the picture size round-trips")
    }
}

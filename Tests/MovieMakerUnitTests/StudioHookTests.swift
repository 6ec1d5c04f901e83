import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The environment `moviemaker studio` runs a script with, as the script's first `MovieMaker` reads it.
/// (What a movie does under the hook is tested end to end by the studio's script tests, which run a
/// real script with the variables set.)
@Suite("Studio hook")
struct StudioHookTests {
    @Test("No variables: no hook")
    func noVariables() {
        #expect(StudioHook.parse(["HOME": "/root"]) == nil)
    }

    @Test("Preview and render modes are read exactly")
    func modes() throws {
        let folder = try TemporaryFolder()
        let preview = try #require(StudioHook.parse([StudioHook.folderVariable: folder.url.path,
                                                     StudioHook.modeVariable: "preview 3,10..<20,7 0.25"])).get()
        #expect(preview.folder.path == folder.url.path)
        #expect(preview.mode == .preview(frames: [3..<4, 10..<20, 7..<8], scale: 0.25))
        let none = try #require(StudioHook.parse([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "preview - 1"])).get()
        #expect(none.mode == .preview(frames: [], scale: 1))
        let render = try #require(StudioHook.parse([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "render"])).get()
        #expect(render.mode == .render)
        #expect(StudioHook.parseFrames(StudioHook.framesText([0..<1, 5..<9])) == [0..<1, 5..<9])
    }

    @Test("Malformed variables are an error naming the variable and what it takes")
    func malformed() throws {
        let folder = try TemporaryFolder()
        let cases: [([String: String], String)] = [
            ([StudioHook.modeVariable: "render"], "MOVIEMAKER_STUDIO_DIR unset"),
            ([StudioHook.folderVariable: folder.file("missing").path, StudioHook.modeVariable: "render"], "an existing folder"),
            ([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "draw"], "`render`, or `preview FRAMES SCALE`"),
            ([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "preview 5..<2 1"], "comma-separated indices"),
            ([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "preview -3 1"], "comma-separated indices"),
            ([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "preview 1 0"], "more than 0 and at most 1"),
            ([StudioHook.folderVariable: folder.url.path, StudioHook.modeVariable: "preview 1 1.5"], "more than 0 and at most 1"),
        ]
        for (environment, expected) in cases {
            guard case let .failure(error) = StudioHook.parse(environment) else {
                Issue.record("\(environment) was accepted")
                continue
            }
            #expect(error.code == .invalidSetting)
            #expect(error.description.contains(expected), "\(environment): \(error.description)")
        }
    }

    @Test("A preview captures the frames asked for, merged; a later movie captures none")
    func captureRanges() throws {
        let folder = try TemporaryFolder()
        let hook = StudioHook(folder: folder.url, mode: .preview(frames: [10..<20, 3..<4, 15..<25, 30..<30], scale: 1))
        let first = PreviewCapture(hook: hook, first: true)
        #expect(first.wanted == [3..<4, 10..<25])
        #expect(first.wants(3) && !first.wants(4) && first.wants(24) && !first.wants(25))
        #expect(first.wanted(in: 0..<12) == [3, 10, 11])
        #expect(first.wantsAny(after: 23) && !first.wantsAny(after: 24))
        let later = PreviewCapture(hook: hook, first: false)
        #expect(later.wanted.isEmpty && !later.wantsAny(after: -1))
    }

    @Test("A captured frame is written whole, under its movie index, at the scale asked for")
    func captureWritesPNG() throws {
        let folder = try TemporaryFolder()
        let canvas = try Canvas(width: 64, height: 48)
        try canvas.draw { ctx in ctx.clear(Color(red: 1, green: 0.5, blue: 0)) }
        let full = PreviewCapture(hook: StudioHook(folder: folder.url, mode: .preview(frames: [7..<8], scale: 1)), first: true)
        try full.capture(canvas.pixels(), index: 7)
        let decoded = try #require(try decodeAll(folder.file("frame-7.png")).first).pixels
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(decoded.rgba(x: 10, y: 10).red == 255 && decoded.rgba(x: 10, y: 10).green == 128)
        let half = PreviewCapture(hook: StudioHook(folder: folder.url, mode: .preview(frames: [8..<9], scale: 0.5)), first: true)
        try half.capture(canvas.pixels(), index: 8)
        let small = try #require(try decodeAll(folder.file("frame-8.png")).first).pixels
        #expect(small.width == 32 && small.height == 24)
        #expect(!folder.contents.contains { $0.contains("partial") })
    }
}

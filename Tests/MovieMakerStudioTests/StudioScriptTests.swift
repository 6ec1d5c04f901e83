import Foundation
import MovieMaker
import MovieMakerTestSupport
import Testing
@testable import MovieMakerStudio

/// `moviemaker studio script.swift`: the script compiled as `moviemaker run` compiles it and run with
/// the studio's hook (`MOVIEMAKER_STUDIO_DIR`, `MOVIEMAKER_STUDIO_MODE`), its frames served exactly.
@Suite("Studio: Swift scripts", .serialized)
struct StudioScriptTests {
    /// A script writing 21 frames at 160x120, 10 fps, as PNG files into `frames` in the project folder (lossless, so frames can
    /// be compared exactly): 10 serial frames, each adding a dot to the previous frame's pixels (frame N
    /// needs frames 0…N-1 drawn), a 1 s clip (10 frames, drawn from `movieIndex`) on `background`, and a
    /// serial frame drawn over the clip's last frame.
    static func script(background: String = "0.1, green: 0.2, blue: 0.3") -> String {
        """
        import Foundation
        import MovieMaker

        let movie = try MovieMaker(pngSequenceIn: URL(fileURLWithPath: "{{FOLDER}}/frames"), width: 160, height: 120, fps: 10)
        var hue = 0.0
        try movie.addFrames(count: 10) { ctx, frame in
            hue += 0.1
            ctx.setFill(Color(red: hue, green: 0.5, blue: 1 - hue))
            ctx.fillEllipse(in: Rect(x: Double(frame.index) * 15, y: 40, width: 14, height: 14))
        }
        try movie.add(Clip(duration: Time(seconds: 1)) { ctx, frame in
            ctx.setFill(Color(red: \(background))); ctx.fillRect(ctx.bounds)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: Double(frame.movieIndex) * 6, y: 70, width: 10, height: 10))
        })
        try movie.addFrame { ctx in
            ctx.setFill(Color(red: 1, green: 0, blue: 0)); ctx.fillRect(Rect(x: 0, y: 0, width: 20, height: 20))
        }
        try movie.finish()
        """
    }

    /// Starts the studio on the script in a fresh folder; returns it and the script's frames folder.
    static func start(name: String = #function) async throws -> (StudioServerTests.Running, URL) {
        let studio = try await StudioServerTests.Running(spec: script(), fileName: "movie.swift", name: name)
        return (studio, studio.folder.file("frames"))
    }

    /// Waits until `/api/movie` reports a loaded script movie (the first load saw an empty file).
    static func waitForScript(_ studio: StudioServerTests.Running, frameCount: Int = 21) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let info = try await studio.movie()
            if info["ok"] as? Bool == true, (info["movie"] as? [String: Any])?["frameCount"] as? Int == frameCount { return info }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the script did not load within 120 s: \(try await studio.movie())")
        return try await studio.movie()
    }

    @Test("A script's frame N is frame N of its own render, pixel for pixel, and previewing it writes nothing")
    func framesEqualTheScriptsRender() async throws {
        let (studio, frames) = try await Self.start()
        defer { studio.server.kill() }
        let info = try await Self.waitForScript(studio)
        #expect(info["kind"] as? String == "script")
        let movie = try #require(info["movie"] as? [String: Any])
        #expect(movie["width"] as? Int == 160 && movie["height"] as? Int == 120)
        #expect((movie["fps"] as? [String: Any])?["numerator"] as? Int == 10)
        let items = try #require(((movie["tracks"] as? [[String: Any]])?.first)?["items"] as? [[String: Any]])
        #expect(items.count == 1 && items.first?["endFrame"] as? Int == 21, "the script is one block over its 21 frames")
        // Frames across the serial part, the clip and the serial frame after it.
        let indices = [0, 5, 9, 10, 15, 19, 20]
        var served: [Int: PixelBuffer] = [:]
        for index in indices {
            let response = try await studio.get("/api/frame/\(index)")
            try #require(response.status == 200, "frame \(index): \(String(decoding: response.body, as: UTF8.self))")
            served[index] = try StudioServerTests.pixels(ofPNG: response.body, in: studio.folder, name: "served-\(index).png")
        }
        #expect(try await studio.get("/api/frame/9").headers["x-studio-cache"] == "hit")
        #expect(try await studio.get("/api/frame/21").status == 404)
        let half = try await studio.get("/api/frame/3?scale=0.5")
        let small = try StudioServerTests.pixels(ofPNG: half.body, in: studio.folder, name: "half.png")
        #expect(small.width == 80 && small.height == 60)
        #expect(!FileManager.default.fileExists(atPath: frames.path), "previews write nothing at the script's destination")
        #expect(!studio.folder.contents.contains { $0.contains("partial") })

        // The render button runs the script as `moviemaker run` would.
        let response = try await RawHTTP.send("POST", "/api/render", port: studio.port)
        #expect(response.status == 202)
        var status: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            status = try await studio.movie()["render"] as? [String: Any] ?? [:]
            if let state = status["state"] as? String, state != "running" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status["state"] as? String == "done", "\(status)")
        #expect(status["frames"] as? Int == 21 && status["link"] as? String == "/files/frames")
        for index in indices {
            let rendered = try #require(try decodeAll(frames.appendingPathComponent(String(format: "frame-%05d.png", index + 1))).first).pixels
            let picture = try #require(served[index])
            #expect(picture.width == 160 && picture.height == 120)
            #expect(StudioServerTests.maxDifference(picture, rendered) == 0, "frame \(index) differs from the script's render")
        }
    }

    @Test("Editing a script reloads its frames; a compiler error and a runtime error show their lines")
    func editsAndErrors() async throws {
        let (studio, frames) = try await Self.start()
        defer { studio.server.kill() }
        _ = try await Self.waitForScript(studio)
        let before = try StudioServerTests.pixels(ofPNG: try await studio.get("/api/frame/12").body, in: studio.folder, name: "before.png")
        #expect(abs(Int(before.rgba(x: 150, y: 5).blue) - 77) <= 1, "the clip's background, 0.3 blue")
        var version = try await studio.movie()["version"] as? Int ?? 0
        try studio.edit(Self.script(background: "0.9, green: 0.2, blue: 0.3"))
        var info = try await studio.waitForVersion(after: version)
        #expect(info["ok"] as? Bool == true)
        let after = try StudioServerTests.pixels(ofPNG: try await studio.get("/api/frame/12").body, in: studio.folder, name: "after.png")
        #expect(abs(Int(after.rgba(x: 150, y: 5).red) - 230) <= 1, "the edit shows: 0.9 red")

        // A syntax error on line 5: the compiler's line.
        version = info["version"] as? Int ?? version
        try studio.edit(Self.script().replacingOccurrences(of: "var hue = 0.0", with: "var hue = = 0.0"))
        info = try await studio.waitForVersion(after: version)
        #expect(info["ok"] as? Bool == false)
        var error = try #require(info["error"] as? [String: Any])
        #expect(error["code"] as? String == "compileFailed" && error["line"] as? Int == 5, "\(error)")
        #expect(info["movie"] != nil, "the last good movie stays on the page")

        // A runtime error on line 5: the line it stopped at.
        version = info["version"] as? Int ?? version
        try studio.edit(Self.script().replacingOccurrences(of: "var hue = 0.0", with: "var hue = 0.0; if movie.width == 160 { fatalError(\"no 160 today\") }"))
        info = try await studio.waitForVersion(after: version)
        error = try #require(info["error"] as? [String: Any])
        #expect(error["code"] as? String == "scriptFailed" && error["line"] as? Int == 5, "\(error)")
        #expect((error["message"] as? String)?.contains("no 160 today") == true, "\(error)")
        #expect(!FileManager.default.fileExists(atPath: frames.path))
    }
}

import Foundation
import MovieMakerTestSupport
import Testing

/// `moviemaker studio` as a process: it prints its URL, answers on 127.0.0.1, and stops on a signal.
@Suite("moviemaker studio", .serialized)
struct StudioCommandTests {
    /// A 320x240, 1 s description.
    static let spec = ##"{"version": 1, "output": {"size": "320x240", "fps": 30}, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#336699", "duration": "1s", "label": "Blue"}]}]}"##

    /// Sends a GET with curl-less plain Foundation: the body, or nil when the connection fails.
    static func get(_ url: URL) -> (status: Int, body: Data)? {
        let result = try? run("/usr/bin/env", ["python3", "-c", """
            import sys, urllib.request, urllib.error
            try:
                r = urllib.request.urlopen(sys.argv[1], timeout=10); sys.stdout.write(str(r.status) + "\\n"); sys.stdout.flush(); sys.stdout.buffer.write(r.read())
            except urllib.error.HTTPError as e:
                sys.stdout.write(str(e.code) + "\\n")
            """, url.absoluteString])
        guard let result, result.status == 0, let line = result.stdout.split(separator: "\n").first, let status = Int(line) else { return nil }
        return (status, Data(result.stdout.utf8.dropFirst(line.utf8.count + 1)))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func printsItsURLServesAndStopsOnASignal(signal: Int32) throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder("studio\(signal)")
        let spec = folder.file("spec.json")
        try Data(Self.spec.utf8).write(to: spec)
        let running = try CLI.Running(["studio", spec.path])
        #expect(running.waitForStdout(containing: "\n", timeout: 30))
        let line = try #require(running.stdout.split(separator: "\n").first.map { String($0) })
        #expect(line.hasPrefix("http://127.0.0.1:"), "\(line)")
        let url = try #require(URL(string: line))
        let movie = try #require(Self.get(url.appendingPathComponent("api/movie")))
        #expect(movie.status == 200)
        #expect(String(decoding: movie.body, as: UTF8.self).contains("\"frameCount\":30"))
        #expect(running.waitForStderr(containing: "320x240 at 30 fps, 30 frames", timeout: 30), "\(running.stderr)")
        let sent = running.send(signal)
        let outcome = running.waitForExit(timeout: 60)
        #expect(outcome.reason == .exit && outcome.status == 0, "exit \(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderr.contains("stopped (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))"))
        // Stopped by itself, not by the 5 s fallback (which says so on stderr); time only catches a hang.
        #expect(!outcome.stderr.contains("did not stop within"), "\(outcome.stderr)")
        #expect(sent.duration(to: outcome.exitedAt) < .seconds(60))
        // Nothing listens any more.
        #expect(Self.get(url.appendingPathComponent("api/movie")) == nil)
    }

    @Test func aBadDescriptionStillServesAndNamesTheJSONPath() throws {
        guard CLI.isBuilt else { return }
        let folder = try TemporaryFolder()
        let spec = folder.file("spec.json")
        try Data(Self.spec.replacingOccurrences(of: "\"1s\"", with: "\"-1s\"").utf8).write(to: spec)
        let running = try CLI.Running(["studio", spec.path])
        #expect(running.waitForStdout(containing: "\n", timeout: 30))
        #expect(running.waitForStderr(containing: "tracks[0].items[0].duration", timeout: 30), "\(running.stderr)")
        running.send(SIGINT)
        _ = running.waitForExit(timeout: 10)
    }

    @Test func refusesMissingFilesAndOtherKinds() throws {
        guard CLI.isBuilt else { return }
        let missing = try CLI.run(["studio", "/nonexistent/spec.json"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no such file"))
        let folder = try TemporaryFolder()
        let text = folder.file("notes.txt")
        try Data("hi".utf8).write(to: text)
        let other = try CLI.run(["studio", text.path])
        #expect(other.status == 64)
        #expect(other.stderr.contains(".json"))
    }
}

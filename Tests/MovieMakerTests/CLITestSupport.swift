import Foundation
import Testing

/// The built `moviemaker` executable, run as a subprocess by the CLI tests.
enum CLI {
    /// The SwiftPM bin folder: the test runner's own folder (`.build/<triple>/debug`), else the
    /// checkout's `.build/debug` found from this file's location.
    static let binFolder: URL = {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("moviemaker").path) { return folder }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug").resolvingSymlinksInPath()
    }()

    /// `<bin>/moviemaker`.
    static var executable: URL { binFolder.appendingPathComponent("moviemaker") }

    /// Whether the executable is there; records an issue saying how to build it when not.
    static var isBuilt: Bool {
        let present = FileManager.default.isExecutableFile(atPath: executable.path)
        if !present { Issue.record("\(executable.path) is missing: build it with `swift build` (make test does) before running the CLI tests") }
        return present
    }

    /// A script cache shared by the CLI tests, inside the build folder (so `make clean` removes it):
    /// clang's C modules are compiled once, not once per test.
    static let cacheHome = binFolder.appendingPathComponent("cli-test-cache")

    /// The result of one run.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Standard error's non-empty lines.
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// Runs `moviemaker arguments…` with `XDG_CACHE_HOME` set to the test cache, `CI` removed unless
    /// given in `environment`, and `environment` added.
    static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        env["XDG_CACHE_HOME"] = cacheHome.path
        env.merge(environment) { _, new in new }
        process.environment = env
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes fully before waiting, so a large output cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

import Foundation
import MovieMakerTestSupport
import Synchronization
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
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Standard error's non-empty lines.
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// The environment `moviemaker` runs with in the tests: this process's, `XDG_CACHE_HOME` set to the
    /// test cache, `CI` removed unless given in `extra`, and `extra` added.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        env["XDG_CACHE_HOME"] = cacheHome.path
        env.merge(extra) { _, new in new }
        return env
    }

    /// Starts `process` with new pipes for its standard output and error, under the launch lock.
    static func start(_ process: Process) throws -> (out: Pipe, err: Pipe) {
        try withLaunchLock {
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            return (out, err)
        }
    }

    /// `moviemaker COMMAND… --help`, run once per command in a test run and kept: the built binary's help
    /// cannot change while the tests run, and four suites read every subcommand's help (each launch of
    /// the debug build costs about 0.2 CPU s in the dynamic loader and ArgumentParser's debug checks).
    static func help(_ command: [String]) throws -> Result {
        if let kept = helpResults.withLock({ $0[command] }) { return kept }
        let r = try run(command + ["--help"])
        helpResults.withLock { $0[command] = r }
        return r
    }
    private static let helpResults = Mutex<[[String]: Result]>([:])

    /// Runs `moviemaker arguments…` with `XDG_CACHE_HOME` set to the test cache, `CI` removed unless
    /// given in `environment`, and `environment` added.
    /// `executable` runs another program instead (e.g. a shell that sets a limit, then execs moviemaker).
    static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
                    executable program: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        process.environment = Self.environment(environment)
        if let folder { process.currentDirectoryURL = folder }
        // Nothing to read: a command that reads standard input (`mcp`) sees its end at once.
        process.standardInput = FileHandle.nullDevice
        let (out, err) = try start(process)
        // Read both pipes fully before waiting, so a large output cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        // A thread of its own, not Dispatch's pool: under a full test run the pool's threads can all be
        // blocked in other tests' reads, and a delayed reader would stall the child on a full pipe.
        Thread.detachNewThread { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension CLI {
    /// `moviemaker` running in the background: standard error is read as it comes (to wait for a
    /// progress line), signals can be sent to it, and the moment it exits is recorded.
    ///
    /// `@unchecked Sendable`: every mutable field is guarded by `condition`.
    final class Running: @unchecked Sendable {
        /// The process.
        let process = Process()
        /// The process ID.
        var pid: pid_t { process.processIdentifier }
        /// Guards the fields below; broadcast whenever one changes.
        private let condition = NSCondition()
        /// Standard error read so far.
        private var stderrData = Data()
        /// Standard output read so far.
        private var stdoutData = Data()
        /// How many of the two pipes have not reached end of file.
        private var pipesOpen = 2
        /// When the termination handler saw the process end.
        private var exitedAt: ContinuousClock.Instant?

        /// Starts `moviemaker arguments…` with the environment `CLI.run` uses (`CI` set by default, so
        /// progress comes as a plain line at every 10 %).
        init(_ arguments: [String], environment: [String: String] = ["CI": "1"]) throws {
            process.executableURL = CLI.executable
            process.arguments = arguments
            process.environment = CLI.environment(environment)
            // Weak: the process keeps its handler until it is freed, and `self` owns the process; a
            // strong capture was a cycle that leaked every Running (found by make sanitize).
            process.terminationHandler = { [weak self] _ in
                guard let self else { return }
                let now = ContinuousClock.now
                self.condition.withLock { self.exitedAt = now; self.condition.broadcast() }
            }
            let (out, err) = try CLI.start(process)
            drain(err.fileHandleForReading) { $0.stderrData.append($1) }
            drain(out.fileHandleForReading) { $0.stdoutData.append($1) }
        }

        /// Reads `handle` on a thread of its own until end of file, passing each piece to `append` under
        /// the lock. (Not Dispatch's pool: in a full parallel test run its threads can all be busy, and a
        /// line would then arrive seconds late, after the process has already gone on.)
        private func drain(_ handle: FileHandle, _ append: @escaping @Sendable (Running, Data) -> Void) {
            Thread.detachNewThread { [self] in
                while true {
                    let piece = handle.availableData
                    condition.withLock {
                        if piece.isEmpty { pipesOpen -= 1 } else { append(self, piece) }
                        condition.broadcast()
                    }
                    if piece.isEmpty { return }
                }
            }
        }

        /// Standard error so far.
        var stderr: String { condition.withLock { String(decoding: stderrData, as: UTF8.self) } }
        /// Standard output read so far.
        var stdout: String { condition.withLock { String(decoding: stdoutData, as: UTF8.self) } }

        /// Waits until standard error contains `text` (true), or the process ends or `timeout` passes (false).
        func waitForStderr(containing text: String, timeout: TimeInterval = 30) -> Bool {
            wait(for: text, in: \.stderrData, timeout: timeout)
        }

        /// Waits until standard output contains `text` (true), or the process ends or `timeout` passes (false).
        func waitForStdout(containing text: String, timeout: TimeInterval = 30) -> Bool {
            wait(for: text, in: \.stdoutData, timeout: timeout)
        }

        /// Waits until the data at `stream` contains `text` (true), or the process ends or `timeout` passes (false).
        private func wait(for text: String, in stream: KeyPath<Running, Data>, timeout: TimeInterval) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            return condition.withLock {
                while true {
                    if String(decoding: self[keyPath: stream], as: UTF8.self).contains(text) { return true }
                    // Once the process has exited, only what is still in the pipes can arrive: wait for
                    // both to reach end of file before answering no.
                    if exitedAt != nil && pipesOpen == 0 { return false }
                    if !condition.wait(until: deadline) { return false }
                }
            }
        }

        /// Sends `signal` to the process and returns when it was sent.
        @discardableResult
        func send(_ signal: Int32) -> ContinuousClock.Instant {
            let now = ContinuousClock.now
            // kill(0, …) would signal the whole process group: the test runner too.
            guard pid > 0 else { Issue.record("no process to send signal \(signal) to (pid \(pid))"); return now }
            kill(pid, signal)
            return now
        }

        /// The end of a run.
        struct Outcome {
            /// The exit status, or the signal's number when `reason` is `.uncaughtSignal`.
            let status: Int32
            /// Whether the process exited or was killed by a signal.
            let reason: Process.TerminationReason
            /// Everything written to standard output.
            let stdout: String
            /// Everything written to standard error.
            let stderr: String
            /// When the process was seen to end.
            let exitedAt: ContinuousClock.Instant
            /// Standard error's non-empty lines.
            var stderrLines: [Substring] { stderr.split(separator: "\n") }
        }

        /// Waits for the process to end and its output to close; after `timeout` it is killed and an issue recorded.
        func waitForExit(timeout: TimeInterval = 30) -> Outcome {
            let deadline = Date().addingTimeInterval(timeout)
            let finished = condition.withLock {
                while exitedAt == nil || pipesOpen > 0 {
                    if !condition.wait(until: deadline) { return false }
                }
                return true
            }
            if !finished {
                Issue.record("moviemaker \(process.arguments ?? []) did not end within \(timeout) s: killed")
                if pid > 0 { kill(pid, SIGKILL) }
            }
            // Also when it has already exited: Foundation's Process on Linux keeps itself (and so this
            // Running) alive until someone waits for it (make sanitize found every Running leaked).
            process.waitUntilExit()
            return condition.withLock {
                Outcome(status: process.terminationStatus, reason: process.terminationReason,
                        stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self),
                        exitedAt: exitedAt ?? .now)
            }
        }
    }
}

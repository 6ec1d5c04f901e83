import Foundation
import Testing
import MovieMakerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `moviemaker studio FILE` running as a child process: the URL it printed, its port and token.
///
/// `@unchecked Sendable`: the fields are set once in init; `Process` may be signalled and waited for
/// from any thread.
final class StudioProcess: @unchecked Sendable {
    /// The built `moviemaker` beside this test binary (`.build/<triple>/debug`), else the checkout's `.build/debug`.
    /// `MOVIEMAKER_STUDIO_EXECUTABLE` names another (an older build, to see a reproducer fail before its fix).
    static let executable: URL = {
        if let other = ProcessInfo.processInfo.environment["MOVIEMAKER_STUDIO_EXECUTABLE"], !other.isEmpty {
            return URL(fileURLWithPath: other)
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let candidate = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("moviemaker")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/moviemaker").resolvingSymlinksInPath()
    }()

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The process.
    let process = Process()
    /// The URL it printed on standard output.
    let url: URL
    /// Its port.
    let port: UInt16
    /// The token in the URL (with `--host`).
    let token: String?

    /// Starts `moviemaker studio file arguments…` and waits (up to 60 s) for the URL line.
    init(_ file: URL, arguments: [String] = []) throws {
        let process = self.process
        process.executableURL = Self.executable
        process.arguments = ["studio", file.path] + arguments
        process.standardError = FileHandle.nullDevice
        let out = try withLaunchLock {
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            return out
        }
        // Read the first line with a deadline, so a studio that never prints does not hang the tests.
        let fd = out.fileHandleForReading.fileDescriptor
        var line = [UInt8]()
        let deadline = Date().addingTimeInterval(60)
        var byte: UInt8 = 0
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { if !process.isRunning { break }; continue }
            guard read(fd, &byte, 1) == 1 else { break }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let url = URL(string: text), let port = url.port, text.hasPrefix("http://") else {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw Failure(description: "moviemaker studio printed no URL (got \"\(text)\", status \(process.terminationStatus))")
        }
        self.url = url
        self.port = UInt16(port)
        token = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "token" })?.value
    }

    /// How the process ended (its exit status, or the signal's number), or nil while it runs.
    ///
    /// Read with `waitid(WNOWAIT)`, which leaves the child for Foundation to reap: `isRunning` turns
    /// false only once every copy of the child's end of Foundation's socket pair is closed, and a copy
    /// that leaked into another child (see `ProcessLaunch`) would make the studio seem to run as long as
    /// that child does.
    private var ended: Int32? {
        let pid = process.processIdentifier
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            // ECHILD: Foundation has reaped it (and is about to say so).
            return process.isRunning ? nil : process.terminationStatus
        }
        return info._sifields._sigchld.si_pid == pid ? info._sifields._sigchld.si_status : nil
    }

    /// Waits until the process has ended, for at most `seconds`; its status, or nil.
    private func waitForEnd(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let status = ended { return status }
            usleep(10_000)
        }
        return ended
    }

    /// Lets Foundation reap the ended process (so it frees it), when it notices within a few seconds.
    private func release() {
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if !process.isRunning { process.waitUntilExit() }
    }

    /// Sends SIGINT and waits for the exit (SIGKILL after 30 s, recording an issue); returns the exit status.
    /// The studio exits within 5 s whatever it is doing (about 0.2 s on a quiet machine); the bound leaves
    /// room for a test run where every other suite renders meanwhile.
    @discardableResult
    func stop(_ signal: Int32 = SIGINT) -> Int32 {
        if let status = ended { release(); return status }
        Glibc.kill(process.processIdentifier, signal)
        guard let status = waitForEnd(seconds: 30) else {
            Issue.record("moviemaker studio was still running 30 s after signal \(signal): killed")
            Glibc.kill(process.processIdentifier, SIGKILL)
            let status = waitForEnd(seconds: 10) ?? SIGKILL
            release()
            return status
        }
        release()
        return status
    }

    /// Stops the studio if it is still running (the end of a test).
    func kill() { stop() }

    deinit {
        if ended == nil { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// The local addresses listening on TCP `port`, from /proc/net/tcp and tcp6 (IPv4 as dotted quads).
    static func listeningAddresses(port: UInt16) throws -> [String] {
        var found: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { continue }
                let local = fields[1].split(separator: ":")
                guard local.count == 2, UInt16(local[1], radix: 16) == port else { continue }
                if local[0].count == 8, let value = UInt32(local[0], radix: 16) {
                    // Little-endian hex of the address in network order.
                    found.append([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >> 24].map { String($0) }.joined(separator: "."))
                } else {
                    found.append(String(local[0]))
                }
            }
        }
        return found
    }
}

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the command writes: standard output for results, standard error for progress and errors.
enum Terminal {
    /// `word` as a shell reads it back: as is when it holds only characters no shell treats specially,
    /// else in single quotes (a quote inside as `'\''`), so a command the CLI suggests can be pasted
    /// even when a phone's folder is called "Camera Roll".
    static func shellWord(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-")
        if !word.isEmpty && word.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Writes `text` to standard error as is (no newline added), unbuffered.
    static func writeError(_ text: String) {
        write(text, to: STDERR_FILENO)
    }
    /// Writes one line to standard output and flushes it, so it appears in order with standard error.
    static func printLine(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` to standard output as is (no newline added).
    static func writeOutput(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Which of standard output (1) and standard error (2) were found closed (EPIPE): not written again.
    private static let closed = Mutex<Set<Int32>>([])
    /// The error that lost part of standard output (ENOSPC, EFBIG, EIO), if one did.
    private static let outputFailure = Mutex<Int32?>(nil)

    /// Part of a command's standard output was lost (exit status 1).
    struct OutputLost: Error, CustomStringConvertible {
        /// What was lost and why.
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Why part of what was written to standard output was lost, if it was (a full disk, a file-size
    /// limit); nil when all of it was written, or its reader left (EPIPE) or it was closed.
    static var standardOutputFailure: String? {
        outputFailure.withLock { $0 }.map { String(cString: strerror($0)) }
    }

    /// Writes all of `text` to `descriptor` with write(2). The CLI ignores SIGPIPE (see `main`), so a
    /// reader that went away (`moviemaker … 2>&1 | head -1`) gives EPIPE here instead of killing the
    /// render: the stream is then left alone and the render goes on to finish its movie.
    private static func write(_ text: String, to descriptor: Int32) {
        guard !closed.withLock({ $0.contains(descriptor) }) else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n > 0 { bytes = bytes.dropFirst(n); continue }
            if n < 0 && errno == EINTR { continue }
            // EPIPE, a closed descriptor, a full disk behind a redirect: stop writing there. A reader
            // that left or a closed stream is nobody's loss; a full disk or a file-size limit under
            // `schema > schema.json` leaves a cut-off file, which `standardOutputFailure` reports.
            let code = n < 0 ? errno : EIO
            closed.withLock { _ = $0.insert(descriptor) }
            if descriptor == STDOUT_FILENO, code != EPIPE, code != EBADF { outputFailure.withLock { $0 = $0 ?? code } }
            return
        }
    }
    /// Whether standard error is an interactive terminal.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    /// The width of the terminal on standard error in columns, or 80 when unknown.
    static var standardErrorColumns: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }
}

/// Human-readable figures for progress and summary lines.
enum Format {
    /// `0.4 s`, `12 s`, `3 min 05 s`.
    static func seconds(_ s: Double) -> String {
        if s < 10 { return String(format: "%.1f s", s) }
        if s < 60 { return String(format: "%.0f s", s) }
        let whole = Int(s.rounded())
        return String(format: "%d min %02d s", whole / 60, whole % 60)
    }
    /// `6s`, `1m05s`: short, for an ETA.
    static func eta(_ s: Double) -> String {
        // Under a second is said so, not rounded up to "1s" at every line of a fast render.
        if s < 1 { return "<1s" }
        let whole = Int(s.rounded(.up))
        return whole < 60 ? "\(whole)s" : String(format: "%dm%02ds", whole / 60, whole % 60)
    }
    /// `812 B`, `12.3 KiB`, `4.56 MiB`.
    static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) B" }
        if n < 1024 * 1024 { return String(format: "%.1f KiB", Double(n) / 1024) }
        return String(format: "%.2f MiB", Double(n) / 1_048_576)
    }
}

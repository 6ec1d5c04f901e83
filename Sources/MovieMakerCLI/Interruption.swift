import ArgumentParser
import Dispatch
import Foundation
import MovieMaker
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A command that renders into `destination`: SIGINT and SIGTERM cancel it (see `Interruption`).
protocol RenderingCommand: ParsableCommand {
    /// Where the render goes, as typed (`-o`), or for a batch its `--output-pattern`: named by the
    /// cancellation line and checked against the command's inputs before any work.
    var destination: String { get }
}

/// A rendering command with one `-o` destination (every one but `title --batch`).
protocol SingleOutputCommand: RenderingCommand {
    associatedtype Output: DestinationOption
    /// Where the render goes.
    var output: Output { get }
}

/// An `-o` option group: `OutputOptions`, or `ImageOutputOptions` for the commands that write a PNG.
protocol DestinationOption {
    /// The destination as typed.
    var output: String { get }
}

extension OutputOptions: DestinationOption {}
extension ImageOutputOptions: DestinationOption {}
extension MovieOutputOptions: DestinationOption {}

extension SingleOutputCommand {
    /// `-o`'s path.
    var destination: String { output.output }
}

/// The signals the tool turns into a cancel, their names and the exit statuses they give.
enum StopSignal {
    /// SIGINT (Ctrl-C), SIGTERM (`kill`, service managers) and SIGHUP (the terminal or SSH session
    /// closed): each cancels the render the same way, so none leaves a partial file behind.
    static let all: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or `signal N`.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }

    /// The shell's convention for a process stopped by `signal`: 128 + its number (130 for SIGINT, 143 for
    /// SIGTERM, 129 for SIGHUP).
    static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }

    /// Watches `signals` with dispatch sources on `queue`, calling `handler` with the signal's number.
    ///
    /// Each signal is first set to be ignored, so it no longer kills the process; registering the source
    /// then lets libdispatch route it to the source (on Linux its own minimal handler passes it to a
    /// signalfd). A raw C handler could only do async-signal-safe work; a source's handler is ordinary
    /// code on `queue`. Keep the returned sources: cancelling them stops the watch.
    static func watch(_ signals: [Int32] = all, on queue: DispatchQueue,
                      handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Sources from `watch`, held by an owner shared between threads.
    ///
    /// `@unchecked Sendable`: libdispatch objects are thread-safe (resume, cancel and release may come
    /// from any thread); Swift's Dispatch overlay on Linux does not mark them `Sendable`.
    struct Sources: @unchecked Sendable {
        /// The watching sources; cancelling them stops the watch.
        var all: [any DispatchSourceSignal] = []
    }

    /// Gives `signals` their default action again and unblocks them on this thread: what a program
    /// started by `execv` inherits (an ignored or blocked SIGINT would make a script deaf to Ctrl-C).
    static func restoreDefaults(_ signals: [Int32] = all) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals {
            signal(number, SIG_DFL)
            sigaddset(&set, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// SIGINT and SIGTERM as a cancelled render, for the rendering commands (`title`, `slideshow`, `color`).
///
/// `install(destination:)` watches both signals (`StopSignal.watch`). What a signal then does depends
/// on how far the command has got:
///
/// - Preparing (parsing fonts, checking photos, drawing a still in memory): nothing has been written, so
///   the process prints the cancellation line and exits at once with 130 (SIGINT) or 143 (SIGTERM).
/// - Writing (from `beginWriting()`, called by `makeMovie` and `writePNG`): `token` is cancelled; the
///   render stops at its next frame, deletes its partial file and throws `.cancelled`, and
///   `MovieMakerCommand` reports it with `exitIfSignalled()`. If the process is still running
///   `gracePeriod` later (a stage that does not look at the token), the open partial files are removed
///   and the process exits anyway.
/// - A second signal exits at once, after removing the open partial files.
///
/// Whichever path ends the process prints one line, e.g.
/// `moviemaker: cancelled (SIGINT): nothing was written to out.mp4`.
final class Interruption: Sendable {
    /// The one instance: signals are process-wide.
    static let shared = Interruption()

    /// Cancelled by the first signal; given to every `MovieMaker` the command makes.
    let token = CancellationToken()

    /// How long after the first signal a render may take to stop before the process exits without it.
    static let gracePeriod = DispatchTimeInterval.seconds(2)

    /// How far the command has got: `preparing` until `beginWriting()`, then `writing`.
    private enum Phase { case preparing, writing }

    /// Everything the signal queue and the command's thread share.
    private struct State {
        /// How far the command has got.
        var phase = Phase.preparing
        /// The destination as typed, for the message.
        var destination = ""
        /// The destination's stamp when the command started (`missing`: there was no file).
        var destinationBefore = FileStamp.missing
        /// The first signal received.
        var signal: Int32?
        /// Whether the cancellation line has been printed (it is printed once).
        var reported = false
        /// Files the CLI itself is writing (a still's hidden PNG), removed on an emergency exit.
        var temporaryFiles: Set<String> = []
        /// What the cancellation line says was written, for commands that write more than one file
        /// (`title --batch`); nil: the line speaks of `destination`.
        var outcome: (@Sendable () -> String)?
    }

    /// The shared state, locked.
    private let state = Mutex(State())
    /// Where the signal handlers and the grace-period timer run (serial).
    private let queue = DispatchQueue(label: "moviemaker.signals")
    /// The signal sources, kept alive for the life of the process.
    private let sources = Mutex(StopSignal.Sources())

    /// Use `shared`.
    private init() {}

    /// Starts turning SIGINT and SIGTERM into a cancel of the render into `destination` (the path as typed).
    func install(destination: String) {
        let before = FileStamp(path: destination)
        state.withLock { $0.destination = destination; $0.destinationBefore = before }
        let watching = StopSignal.Sources(all: StopSignal.watch(on: queue) { [self] number in received(number) })
        sources.withLock { $0 = watching }
    }

    /// Makes the cancellation line end with what `outcome` says (e.g. "7 of 20 movies were finished;
    /// nothing was written for the others") instead of speaking of the one destination.
    func describeOutcome(_ outcome: @escaping @Sendable () -> String) {
        state.withLock { $0.outcome = outcome }
    }

    /// The first signal received, or nil.
    var signal: Int32? { state.withLock { $0.signal } }

    /// Marks the start of writing: from now on a signal cancels `token` instead of exiting at once.
    /// Throws `.cancelled` when a signal has already come.
    func beginWriting() throws(MovieMakerError) {
        try state.withLock { s throws(MovieMakerError) in
            if s.signal != nil { throw MovieMakerError.cancelled }
            s.phase = .writing
        }
    }

    /// Makes the command's movie with `make` after `beginWriting()`, and gives it `token`.
    func makeMovie(_ make: () throws -> MovieMaker) throws -> MovieMaker {
        try beginWriting()
        let movie = try make()
        movie.cancellation = token
        return movie
    }

    /// Writes `canvas` as a PNG to `url`: into a hidden partial file beside it, renamed into place
    /// unless a signal came meanwhile (then the partial file is deleted and `.cancelled` thrown), so
    /// `url` is either the whole new image or untouched.
    func writePNG(_ canvas: Canvas, to url: URL) throws {
        try beginWriting()
        let temporary = RenderCleanup.partialFileURL(beside: url)
        state.withLock { _ = $0.temporaryFiles.insert(temporary.path) }
        defer {
            try? FileManager.default.removeItem(at: temporary)
            state.withLock { _ = $0.temporaryFiles.remove(temporary.path) }
        }
        try canvas.writePNG(to: temporary)
        if token.isCancelled { throw MovieMakerError.cancelled }
        // rename(2) replaces the destination atomically.
        guard rename(temporary.path, url.path) == 0 else {
            throw MovieMakerError.destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Exits with 128 + the signal, printing the cancellation line, if a signal has come; returns otherwise.
    /// Called when the command has returned or thrown (after clearing its progress bar).
    func exitIfSignalled() {
        guard let signal else { return }
        report(signal)
        exit(StopSignal.exitStatus(signal))
    }

    /// A signal on the signal queue: the first cancels (or, before writing, exits); a second exits.
    private func received(_ number: Int32) {
        let (first, writing) = state.withLock { s -> (Int32?, Bool) in
            let earlier = s.signal
            if earlier == nil { s.signal = number }
            return (earlier, s.phase == .writing)
        }
        token.cancel()
        if let first { emergencyExit(first) }
        if !writing { emergencyExit(number) }
        queue.asyncAfter(deadline: .now() + Self.gracePeriod) { [self] in emergencyExit(number) }
    }

    /// Removes the open partial files and exits at once, without waiting for the render.
    private func emergencyExit(_ signal: Int32) -> Never {
        RenderCleanup.removeOpenPartialFiles()
        let files = state.withLock { s in defer { s.temporaryFiles.removeAll() }; return s.temporaryFiles }
        for path in files { unlink(path) }
        report(signal)
        _exit(StopSignal.exitStatus(signal))
    }

    /// Prints the cancellation line, once per process.
    private func report(_ signal: Int32) {
        let (first, destination, before, outcome) = state.withLock { s in
            defer { s.reported = true }
            return (!s.reported, s.destination, s.destinationBefore, s.outcome)
        }
        guard first else { return }
        if let outcome {
            Terminal.writeError((Terminal.standardErrorIsTerminal ? "\r\u{1B}[2K" : "")
                                + "moviemaker: cancelled (\(StopSignal.name(signal))): \(outcome())\n")
            return
        }
        Terminal.writeError((Terminal.standardErrorIsTerminal ? "\r\u{1B}[2K" : "")
                            + Self.message(signal: signal, destination: destination, changed: FileStamp(path: destination) != before) + "\n")
    }

    /// The line printed when a signal stops the command. `changed`: the destination is no longer what it
    /// was (the render had already finished when the signal came).
    static func message(signal: Int32, destination: String, changed: Bool) -> String {
        let name = StopSignal.name(signal)
        if changed { return "moviemaker: \(name) came after \(destination) was finished: the file is complete" }
        if FileManager.default.fileExists(atPath: destination) {
            return "moviemaker: cancelled (\(name)): \(destination) was left as it was"
        }
        return "moviemaker: cancelled (\(name)): nothing was written to \(destination)"
    }
}

/// Passes SIGINT and SIGTERM on to a child process and everything it started while this one waits
/// for it (`moviemaker run` compiling a script), so that a `kill` of moviemaker leaves neither the
/// compiler nor its jobs running.
///
/// `ChildProcess.spawn` starts the child as the leader of a process group of its own (its jobs join
/// that group), so the signal goes to the group; when the child leads none, it goes to the child alone.
final class SignalForwarder: Sendable {
    /// The child once known, and the first signal received.
    private let state = Mutex<(child: pid_t?, received: Int32?)>((nil, nil))
    /// Where the signal handlers run (serial).
    private let queue = DispatchQueue(label: "moviemaker.signal-forwarder")
    /// The signal sources, until `stop()`.
    private let sources = Mutex(StopSignal.Sources())

    /// Starts watching the signals; they are recorded, and passed on once `attach(child:)` names the child.
    init() {
        let watching = StopSignal.Sources(all: StopSignal.watch(on: queue) { [self] number in
            let child = state.withLock { s -> pid_t? in
                if s.received == nil { s.received = number }
                return s.child
            }
            if let child { Self.signal(child, number) }
        })
        sources.withLock { $0 = watching }
    }

    /// Names the child; a signal that came before is passed on now.
    func attach(child: pid_t) {
        let pending = state.withLock { s -> Int32? in s.child = child; return s.received }
        if let pending { Self.signal(child, pending) }
    }

    /// Sends `number` to `child`'s process group, or to `child` alone when it leads none.
    private static func signal(_ child: pid_t, _ number: Int32) {
        if getpgid(child) == child, kill(-child, number) == 0 { return }
        kill(child, number)
    }

    /// The first signal received, or nil.
    var received: Int32? { state.withLock { $0.received } }

    /// Stops watching and gives the signals their default action again.
    func stop() {
        sources.withLock { sources in
            for source in sources.all { source.cancel() }
            sources.all.removeAll()
        }
        StopSignal.restoreDefaults()
    }
}

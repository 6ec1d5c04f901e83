import Foundation
import Synchronization

/// Where MovieMaker's warnings go: things a render did differently from what its input asked, that do
/// not stop it (a sound file with NaN samples played as silence there). One sentence each, naming the
/// file. By default they are written to standard error as `MovieMaker: warning: …`; install a handler
/// to route them (a log, a UI, a test).
public enum LibraryWarnings {
    /// The handler, or nil for standard error.
    private static let handler = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Sends every later warning to `handler` (any thread) instead of standard error; nil restores the default.
    public static func setHandler(_ handler: (@Sendable (String) -> Void)?) {
        self.handler.withLock { $0 = handler }
    }

    /// Where the calling thread's warnings are collected, while `collecting` runs (and its render's
    /// drawing threads', `inheritingCollector`).
    private final class Collector: Sendable { let messages = Mutex<[String]>([]) }
    private static let collectorKey = "MovieMaker.LibraryWarnings.collector"

    /// Runs `body` with the warnings said on the calling thread collected, not reported, and returns
    /// them (each once, in order): a batch's row carries its own (a title that does not fit), where
    /// the handler could not tell which row they were about.
    package static func collecting<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[collectorKey]
        let collector = Collector()
        dictionary[collectorKey] = collector
        defer { dictionary[collectorKey] = previous }
        let result = try body()
        var seen = Set<String>()
        return (result, collector.messages.withLock { $0 }.filter { seen.insert($0).inserted })
    }

    /// `body`, to run on another thread with the calling thread's collector (a render's drawing
    /// threads, started by the thread that renders a batch's row, whose title is laid out there).
    package static func inheritingCollector(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard let collector = Thread.current.threadDictionary[collectorKey] as? Collector else { return body }
        return {
            Thread.current.threadDictionary[collectorKey] = collector
            defer { Thread.current.threadDictionary.removeObject(forKey: collectorKey) }
            body()
        }
    }

    /// Reports `message`.
    package static func warn(_ message: String) {
        if let collector = Thread.current.threadDictionary[collectorKey] as? Collector {
            collector.messages.withLock { $0.append(message) }
            return
        }
        if let handler = handler.withLock({ $0 }) {
            handler(message)
        } else {
            FileHandle.standardError.write(Data("MovieMaker: warning: \(message)\n".utf8))
        }
    }
}

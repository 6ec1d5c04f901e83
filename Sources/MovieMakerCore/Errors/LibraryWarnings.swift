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

    /// Reports `message`.
    package static func warn(_ message: String) {
        if let handler = handler.withLock({ $0 }) {
            handler(message)
        } else {
            FileHandle.standardError.write(Data("MovieMaker: warning: \(message)\n".utf8))
        }
    }
}

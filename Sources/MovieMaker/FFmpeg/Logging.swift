internal import CMovieMakerShim
import Logging
import Synchronization

/// Where FFmpeg's and x264's own log lines go. They are silent by default.
public enum LibraryLog {
    private static let logger = Mutex<Logger?>(nil)

    /// Routes FFmpeg's and x264's messages at `level` and above to `logger` (swift-log).
    public static func route(to logger: Logger, level: Logger.Level = .warning) {
        Self.logger.withLock { $0 = logger }
        mm_set_log_sink({ avLevel, line in
            guard let line else { return }
            LibraryLog.forward(avLevel: avLevel, line: String(cString: line))
        }, avLogLevel(for: level))
    }

    /// Silences FFmpeg's and x264's messages again (the default).
    public static func silence() {
        mm_set_log_sink(nil, -8)
        logger.withLock { $0 = nil }
    }

    static func forward(avLevel: Int32, line: String) {
        guard let l = logger.withLock({ $0 }) else { return }
        let text = line.hasSuffix("\n") ? String(line.dropLast()) : line
        if text.isEmpty { return }
        l.log(level: swiftLogLevel(for: avLevel), "\(text)", metadata: ["source": "ffmpeg"])
    }

    private static func avLogLevel(for level: Logger.Level) -> Int32 {
        switch level {
        case .trace: 56        // AV_LOG_TRACE
        case .debug: 48        // AV_LOG_DEBUG
        case .info, .notice: 32 // AV_LOG_INFO
        case .warning: 24      // AV_LOG_WARNING
        case .error: 16        // AV_LOG_ERROR
        case .critical: 8      // AV_LOG_FATAL
        }
    }
    private static func swiftLogLevel(for avLevel: Int32) -> Logger.Level {
        switch avLevel {
        case ...8: .critical
        case ...16: .error
        case ...24: .warning
        case ...32: .info
        case ...48: .debug
        default: .trace
        }
    }

    /// Silences the libraries unless the user already routed them (called when a movie starts).
    static func ensureConfigured() {
        _ = configured
    }
    private static let configured: Bool = {
        if logger.withLock({ $0 }) == nil { mm_set_log_sink(nil, -8) }
        return true
    }()
}

/// An FFmpeg call that failed: which call, FFmpeg's error code and FFmpeg's message for it.
///
/// The `underlying` error of a `MovieMakerError` with code `.ffmpeg`:
/// `if let ff = error.underlying as? FFmpegError, ff.code == -2 { … }`.
public struct FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The FFmpeg function (or step) that failed, e.g. `"avio_open (/tmp/a.mp4)"`.
    public let operation: String
    /// FFmpeg's return code: a negative `AVERROR` value (e.g. -2 for "No such file or directory").
    public let code: Int32
    /// FFmpeg's text for `code` (`av_strerror`), or a short note where FFmpeg gave none.
    public let message: String

    /// An FFmpeg failure of `operation` with FFmpeg's `code` and `message`.
    package init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    /// `operation: message (error code)`.
    public var description: String { "\(operation): \(message) (error \(code))" }
}

import Foundation
import MovieMaker

/// `--report FILE` of `render --batch` and `title --batch`: what became of each row, as JSON Lines (one
/// object per row, in row order, keys sorted), written once when the batch ends, whatever became of
/// the rows: a pipeline reads it most when some failed, or when a signal stopped the batch (rows not
/// finished are `cancelled`). Written atomically, never over an input or a movie of the batch.
struct BatchReport {
    /// The report's path as given.
    let path: String

    /// Checks that `path` can take the report: not `inputs` (their paths) or `movies`, not the
    /// command's own output or a device (the report replaces its file: written to `/dev/stdout` while
    /// that is a log, it replaced the log), and in a folder it can be written to. Found before the
    /// first row renders.
    init(_ path: String, inputs: [String], movies: [String]) throws {
        self.path = path
        let given = URL(fileURLWithPath: path).standardizedFileURL.path
        // The command's own output or error, by name (`/dev/stdout`, `/proc/self/fd/1`: a link to the log
        // it is redirected to) or as the same file; other special files are refused by type below.
        if ["/dev/stdout", "/dev/stderr", "/dev/stdin"].contains(given) || given.hasPrefix("/dev/fd/") || given.hasPrefix("/proc/")
            || ["/dev/stdout", "/dev/stderr"].contains(where: { FileIdentity.same(path, $0) }) {
            throw InputError("--report \(path) is not a file of its own: the report is written whole when the batch ends and moved into place, "
                             + "which would replace the command's output; give a file, e.g. --report report.jsonl")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            let type = (try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path)[.type]) as? FileAttributeType
            if isFolder.boolValue || (type != nil && type != .typeRegular) {
                throw InputError("--report \(path) is \(isFolder.boolValue ? "a folder" : "not a regular file"): give a file, e.g. --report report.jsonl")
            }
        }
        for input in inputs where FileIdentity.same(path, input) {
            throw InputError("--report \(path) is \(input), an input of this batch; give another file, e.g. --report report.jsonl")
        }
        if let movie = movies.first(where: { URL(fileURLWithPath: $0).standardizedFileURL.path == given || FileIdentity.same(path, $0) }) {
            throw InputError("--report \(path) is \(movie), a movie of this batch; give another file, e.g. --report report.jsonl")
        }
        do { try OutputOptions.checkFolder(of: path) } catch let error as InputError { throw InputError("--report \(path): \(error.description)") }
    }

    /// One row's line.
    ///
    /// - Parameters:
    ///   - status: `rendered`, `skipped`, `failed` or `cancelled`.
    ///   - summary: the movie's, when it was rendered (its duration, frames and bytes).
    static func entry(row: Int, line: Int?, output: String, status: String, seconds: Double?, warnings: [String] = [],
                      summary: MovieSummary? = nil, error: (any Error)? = nil) -> JSONValue {
        var o: [String: JSONValue] = ["row": .number("\(row)"), "output": .string(URL(fileURLWithPath: output).standardizedFileURL.path),
                                      "status": .string(status), "warnings": .array(warnings.map { .string($0) })]
        if let line { o["line"] = .number("\(line)") }
        if let seconds { o["seconds"] = .number(String(format: "%.3f", seconds)) }
        if let summary {
            o["duration"] = .number(String(format: "%.3f", summary.duration.seconds))
            o["frames"] = .number("\(summary.frameCount)")
            o["bytes"] = .number("\(summary.fileSize)")
        }
        if let error {
            let code = (error as? MovieMakerError)?.code.rawValue ?? (error is InputError ? "input" : "error")
            o["error"] = .object(["code": .string(code), "message": .string(MovieMakerCommand.message(for: error))])
        }
        return .object(o)
    }

    /// The JSON Lines of `entries` (in order).
    static func text(_ entries: [JSONValue]) -> String {
        entries.map { $0.compactText + "\n" }.joined()
    }

    /// Writes `entries`, atomically.
    func write(_ entries: [JSONValue]) throws {
        do { try PartialFiles.write(Data(Self.text(entries).utf8), to: URL(fileURLWithPath: path)) } catch {
            throw InputError("--report \(path): \(error.message)")
        }
    }
}

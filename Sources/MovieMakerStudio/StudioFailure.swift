import Foundation
import MovieMaker

/// What is wrong with the previewed file, as the page shows it: the message, the JSON path of the
/// value at fault (for a description), and the line for a script's compiler error.
public struct StudioProblem: Error, Codable, Sendable, Equatable {
    /// The one-line explanation (without the path).
    public var message: String
    /// The JSON path of the value at fault, e.g. `tracks[0].items[2].duration`; nil when the error is not
    /// about one value (a JSON syntax error names its line in the message).
    public var jsonPath: String?
    /// The file the error is about (the description, a photo it names, a script).
    public var file: String?
    /// The line in `file` (a script's compiler error), when known.
    public var line: Int?
    /// The error's code (`MovieMakerError.Code`'s raw value), e.g. `invalidDescription`.
    public var code: String

    /// A problem with the given fields.
    public init(message: String, jsonPath: String? = nil, file: String? = nil, line: Int? = nil, code: String) {
        self.message = message; self.jsonPath = jsonPath; self.file = file; self.line = line; self.code = code
    }

    /// The problem a `MovieMakerError` (or any other error) describes.
    init(_ error: any Error) {
        if let problem = error as? StudioProblem {
            self = problem
        } else if let error = error as? MovieMakerError {
            self.init(message: error.message, jsonPath: error.location?.jsonPath, file: error.location?.file, code: error.code.rawValue)
        } else {
            self.init(message: String(describing: error), code: "error")
        }
    }

    /// `tracks[0].items[2].duration: message` (or `script.swift:12: message`), as the command line prints it.
    public var summary: String {
        if let jsonPath { return "\(jsonPath): \(message)" }
        if let file, let line { return "\(URL(fileURLWithPath: file).lastPathComponent):\(line): \(message)" }
        return message
    }
}

/// Why a studio request failed: the HTTP status it answers with and a message.
enum StudioFailure: LocalizedError, CustomStringConvertible {
    /// 400: a malformed request (a frame index that is not a number, a bad scale, bad JSON).
    case badRequest(String)
    /// 403: a name the studio will not serve (a named pipe, a socket, a device).
    case forbidden(String)
    /// 404: no such frame, asset, file or endpoint.
    case notFound(String)
    /// 409: nothing to show yet (the description has never loaded), or a render already running.
    case conflict(String)
    /// 500: something that should not happen.
    case `internal`(String)

    /// The HTTP status code.
    var status: Int {
        switch self {
        case .badRequest: 400
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .internal: 500
        }
    }

    /// What `localizedDescription` says (the message itself, for the command line).
    var errorDescription: String? { description }

    var description: String {
        switch self {
        case let .badRequest(m), let .forbidden(m), let .notFound(m), let .conflict(m), let .internal(m): m
        }
    }
}

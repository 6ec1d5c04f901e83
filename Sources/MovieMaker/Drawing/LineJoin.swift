internal import CCairo
import Foundation

/// How stroked corners look (`"miter"`, `"round"`, `"bevel"` as data).
public enum LineJoin: String, Sendable, Codable { case miter, round, bevel }

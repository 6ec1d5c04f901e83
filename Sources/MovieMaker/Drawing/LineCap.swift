internal import CCairo
import Foundation

/// How the ends of stroked lines look (`"butt"`, `"round"`, `"square"` as data).
public enum LineCap: String, Sendable, Codable { case butt, round, square }

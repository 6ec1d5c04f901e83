internal import CCairo
import Foundation

/// Which parts of a self-overlapping path count as inside when filling or clipping (`"winding"`, `"evenOdd"`).
public enum FillRule: String, Sendable, Codable { case winding, evenOdd }

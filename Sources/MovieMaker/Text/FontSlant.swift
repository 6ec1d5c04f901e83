internal import CPango
import Foundation

/// Upright or slanted letters (`"normal"`, `"italic"`, `"oblique"` as data).
public enum FontSlant: String, Sendable, Hashable, Codable {
    /// Upright.
    case normal
    /// The family's italic design.
    case italic
    /// Upright letters slanted (or the family's oblique design).
    case oblique

    var pango: PangoStyle {
        switch self {
        case .normal: PANGO_STYLE_NORMAL
        case .italic: PANGO_STYLE_ITALIC
        case .oblique: PANGO_STYLE_OBLIQUE
        }
    }
}

internal import CCairo
import Foundation

/// How new drawing combines with what is already in the frame (Cairo operators; the separable and
/// non-separable modes follow the PDF / CSS compositing formulas).
///
/// Some Porter-Duff modes (`clear`, `source`, `sourceIn`, `sourceOut`, `destinationIn`,
/// `destinationAtop`) are unbounded, as in Cairo and Core Graphics: they also change pixels inside the
/// clip that the shape does not cover (`destinationIn` with a rectangle erases everything outside it).
public enum BlendMode: Sendable, CaseIterable {
    /// Source over destination: the usual painting.
    case normal
    /// Multiplies colours: never lighter; white leaves the backdrop unchanged.
    case multiply
    /// 1 − (1 − a)(1 − b): never darker; black leaves the backdrop unchanged.
    case screen
    /// Multiply or screen depending on the backdrop: raises contrast.
    case overlay
    /// The darker of the two colours, per channel.
    case darken
    /// The lighter of the two colours, per channel.
    case lighten
    /// Brightens the backdrop to reflect the source.
    case colorDodge
    /// Darkens the backdrop to reflect the source.
    case colorBurn
    /// Multiply or screen depending on the source: like a harsh spotlight.
    case hardLight
    /// Darkens or lightens depending on the source: like a diffuse spotlight.
    case softLight
    /// |a − b| per channel.
    case difference
    /// Like difference with lower contrast.
    case exclusion
    /// The source's hue with the backdrop's saturation and luminosity.
    case hue
    /// The source's saturation with the backdrop's hue and luminosity.
    case saturation
    /// The source's hue and saturation with the backdrop's luminosity.
    case color
    /// The source's luminosity with the backdrop's hue and saturation.
    case luminosity
    /// Erases everything the drawing touches (unbounded: the whole clip for a paint).
    case clear
    /// Replaces the backdrop with the source, alpha included.
    case source
    /// The source only where the backdrop is: the backdrop itself is removed.
    case sourceIn
    /// The source only where the backdrop is not: the backdrop itself is removed.
    case sourceOut
    /// The source only on top of the backdrop; the backdrop stays elsewhere.
    case sourceAtop
    /// Draws behind what is already there.
    case destinationOver
    /// Keeps the backdrop only where the source is: masks by the source's alpha.
    case destinationIn
    /// Keeps the backdrop only where the source is not: erases with the source's alpha.
    case destinationOut
    /// The backdrop only on top of the source, the source elsewhere.
    case destinationAtop
    /// Each where the other is not.
    case xor
    /// Adds colours and alphas (saturating): light adds up.
    case add

    var cairoOperator: cairo_operator_t {
        switch self {
        case .normal: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .source: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        case .add: CAIRO_OPERATOR_ADD
        }
    }
    /// The mode for a Cairo operator; nil for the two without a case (DEST, a no-op, and SATURATE).
    init?(cairoOperator op: cairo_operator_t) {
        guard let mode = BlendMode.allCases.first(where: { $0.cairoOperator == op }) else { return nil }
        self = mode
    }
}

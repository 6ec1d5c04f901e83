import Foundation

/// The two pictures a custom transition blends, and where to draw the result.
///
/// Valid only during the `draw` call of a `.custom` transition: the canvases are scratch space that is
/// reused for other frames afterwards.
public struct TransitionFrames {
    /// Where to draw the transition's picture. What you draw lands on top of what is already there
    /// (black at the start of a movie frame), as any clip's drawing does.
    public let context: DrawingContext
    /// The outgoing clip's picture (A), the size of `context`, transparent where the clip drew nothing.
    public let outgoing: Canvas
    /// The incoming clip's picture (B), the size of `context`, transparent where the clip drew nothing.
    public let incoming: Canvas
    /// Progress through the transition before easing: 0 at its first frame, approaching 1 at its end.
    public let linearProgress: Double

    /// Paints `canvas` (one of the two pictures) onto `context` at the origin, at `opacity`, through
    /// the context's current transform and clip.
    public func draw(_ canvas: Canvas, opacity: Double = 1) {
        context.withCairoContext { cr in
            TransitionRenderer.paint(canvas, onto: cr, alpha: opacity)
        }
    }
    /// Paints `canvas` scaled to fill `rect` of `context`, at `opacity`.
    public func draw(_ canvas: Canvas, in rect: Rect, opacity: Double = 1) {
        guard rect.width > 0, rect.height > 0 else { return }
        context.withCairoContext { cr in
            TransitionRenderer.paint(canvas, onto: cr, in: rect, alpha: opacity)
        }
    }
}

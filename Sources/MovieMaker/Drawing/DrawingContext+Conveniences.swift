internal import CCairo
import Foundation

// The names people reach for first, coming from p5.js, MoviePy, Manim or Remotion, where they fit this
// library's style; the others are pointed to from the doc comments of what they are called here
// (`clear(_:)` is other tools' `background(_:)`, `Color(red8:green8:blue8:)` their `Color(r:g:b:)`,
// `Path(circleCenter:radius:)` their `Path.circle`).

extension DrawingContext {
    /// Fills the circle of `radius` around `center` with the fill paint (the current path is replaced).
    public func fillCircle(center: Point, radius: Double) {
        fillEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// Strokes the circle of `radius` around `center` with the stroke paint and line width (the current
    /// path is replaced).
    public func strokeCircle(center: Point, radius: Double) {
        strokeEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// Strokes a straight line from `start` to `end` with the stroke paint, line width and cap (other
    /// tools' `drawLine` or `line(x1, y1, x2, y2)`; the current path is replaced).
    public func strokeLine(from start: Point, to end: Point) {
        beginPath()
        move(to: start)
        line(to: end)
        stroke()
    }

    /// Moves every pixel of the frame a fraction `amount` (0…1) of the way towards `color`, and at least
    /// one level of 255 when it is not there yet: the fading trails of `addFrames(count:_:)` (each frame
    /// starts from the previous one). Painting a translucent black rectangle each frame never reaches black —
    /// 8-bit rounding stalls it at a grey of a few levels, leaving ghosts for good; this reaches `color`
    /// exactly, in at most 255 calls. Works on the whole frame (the clip and transform are not applied);
    /// inside a group or a shadow, where the frame is not yet pixels, it paints `color` at `amount` instead.
    public func fade(toward color: Color, amount: Double) {
        let a = min(max(amount.isFinite ? amount : 0, 0), 1)
        guard a > 0 else { return }
        let fallback = { [self] in
            withSavedState {
                withCairoContext { cr in
                    cairo_identity_matrix(cr)
                    cairo_reset_clip(cr)
                    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * a)
                    cairo_paint(cr)
                }
            }
        }
        guard let target = withCairoContext({ cr -> OpaquePointer? in
            guard let t = cairo_get_target(cr), cairo_get_group_target(cr) == t, cairo_surface_get_type(t) == CAIRO_SURFACE_TYPE_IMAGE,
                  cairo_image_surface_get_format(t) == CAIRO_FORMAT_ARGB32 else { return nil }
            return t
        }) else { return fallback() }
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return fallback() }
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        let stride = Int(cairo_image_surface_get_stride(target))
        // The colour as premultiplied bytes in memory order (BGRA on little-endian machines).
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        let alpha = min(max(color.alpha, 0), 1)
        let goal = [byte(color.blue * alpha), byte(color.green * alpha), byte(color.red * alpha), byte(alpha)]
        let weight = Int((a * 65536).rounded())
        for y in 0..<height {
            let row = data + y * stride
            for x in 0..<width {
                for c in 0..<4 {
                    let v = Int(row[4 * x + c]), d = goal[c] - v
                    guard d != 0 else { continue }
                    var step = (d * weight + (d > 0 ? 32768 : -32768)) / 65536
                    if step == 0 { step = d > 0 ? 1 : -1 }
                    row[4 * x + c] = UInt8(v + step)
                }
            }
        }
        cairo_surface_mark_dirty(target)
    }
}

/// `value` mapped from the points `input` to the points `output`, along `easing` between each pair,
/// and clamped to the first and last outputs beyond them (Remotion's `interpolate`):
/// `interpolate(frame.time, from: [0, 1], to: [0, 720], easing: .easeInOut)` goes from 0 to 720 over the
/// first second and stays there; `interpolate(t, from: [0, 1, 2], to: [0, 1, 0])` rises and falls.
/// `input` must increase and have as many points as `output` (at least two). For values with an
/// easing per keyframe, or that are not numbers (colours, points), use a `KeyframeTrack`.
public func interpolate(_ value: Double, from input: [Double], to output: [Double], easing: Easing = .linear) -> Double {
    precondition(input.count >= 2 && input.count == output.count, "interpolate: give as many input as output points, at least two (got \(input.count) and \(output.count))")
    precondition(zip(input, input.dropFirst()).allSatisfy { $0 < $1 }, "interpolate: the input points must increase, got \(input)")
    if value <= input[0] { return output[0] }
    if value >= input[input.count - 1] { return output[output.count - 1] }
    var k = 0
    while value > input[k + 1] { k += 1 }
    let t = (value - input[k]) / (input[k + 1] - input[k])
    return output[k] + (output[k + 1] - output[k]) * easing(t)
}

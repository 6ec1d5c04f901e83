import Foundation

// Entry points for moviemaker-bench's filters line: applying one filter to a canvas's pixels (the
// work a `filtered` node does per frame, without drawing the child or compositing the layer), and
// which of a filter's parameters are required files (a LUT's .cube), so the bench can build every
// filter in the table from its defaults without naming them.

extension Clip.Filter {
    /// Applies the filter in place to `canvas`'s pixels as on a frame at `time` (in the filtered
    /// clip) of a movie at `rate`.
    package func apply(to canvas: Canvas, at time: Time, rate: FrameRate = 30) throws(MovieMakerError) {
        canvas.surface.flush()
        let image = FilterImage(data: canvas.surface.data, width: canvas.width, height: canvas.height, stride: canvas.surface.stride)
        try apply(to: image, at: FilterTime(exactTime: time, rate: rate))
        canvas.surface.markDirty()
    }

    /// The keys of the required file parameters of the filter named `name` (empty for an unknown name).
    package static func requiredFileParameters(ofFilterNamed name: String) -> [String] {
        guard let d = descriptor(named: name) else { return [] }
        return d.parameters.filter { p in
            if case .file = p.kind { return p.required }
            return false
        }.map(\.key)
    }
}

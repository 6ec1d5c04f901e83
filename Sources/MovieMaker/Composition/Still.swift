import Foundation

extension Clip {
    /// Draws the clip's frame at `time` on a new `width`×`height` canvas, as the movie writer would:
    /// on `background` (black, as in an opaque movie; `.clear` for a transparent one). `rate` gives the
    /// frame's index and the clip's frame grid; the frame drawn is the one shown at `time`.
    public func still(at time: Time, width: Int, height: Int, rate: FrameRate = 30,
                      background: Color = .black) throws -> Canvas {
        guard time >= .zero, time < duration || (duration == .zero && time == .zero) else {
            throw MovieMakerError.invalidSetting(
                .stillTime, value: time.description,
                expected: "a time within the clip, from 0 up to (not including) its duration \(duration.seconds)s")
        }
        let canvas = try Canvas(width: width, height: height)
        let index = rate.frameIndex(at: time)
        let frame = Frame(index: index, movieIndex: index, rate: rate, exactTime: rate.time(ofFrame: index), duration: duration)
        // The clip's media is opened first: a missing photo throws here, before anything is drawn.
        let session = try RenderSession(opening: self, width: width, height: height)
        defer { session.close() }
        try canvas.draw { ctx in
            ctx.clear(background)
            try RenderSession.$current.withValue(session) {
                try self.render(in: ctx, at: frame, session: session)
            }
        }
        return canvas
    }

    /// Writes the clip's frame at `time` to a PNG file (with alpha when `background` is transparent).
    public func writeStill(at time: Time, width: Int, height: Int, to url: URL, rate: FrameRate = 30,
                           background: Color = .black) throws {
        let canvas = try still(at: time, width: width, height: height, rate: rate, background: background)
        // Written beside the destination and renamed into place: a failure never leaves half a PNG.
        try PartialFiles.writeAtomically(to: url, extension: "png") { (temporary) throws(MovieMakerError) in try canvas.writePNG(to: temporary) }
    }
}

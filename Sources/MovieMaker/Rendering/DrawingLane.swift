/// One drawing thread's own things: the canvas it draws frames on and the sink's tool for that thread
/// (an encoder-format converter for a movie, nothing for frames kept in memory). The scheduler hands
/// both together to the sink, so the tool never has to be looked up by its canvas.
final class DrawingLane<Tool>: @unchecked Sendable {
    // @unchecked: a lane is used by one drawing thread at a time (the scheduler gives each thread its own).
    /// The canvas frames are drawn on.
    let canvas: Canvas
    /// The sink's tool for this thread (swscale contexts, for one, are not shared between threads).
    let tool: Tool

    /// A lane drawing on `canvas`, with `tool`.
    init(canvas: Canvas, tool: Tool) { self.canvas = canvas; self.tool = tool }
}

extension DrawingLane where Tool == Void {
    /// A lane with nothing but its canvas.
    convenience init(canvas: Canvas) { self.init(canvas: canvas, tool: ()) }
}

extension RenderSession {
    /// Draws frame `index` of `clip` (movie frame `movieBase + index`) on `canvas`, cleared to
    /// `background` first: how every clip frame is drawn, by the scheduler's lanes and by a preview.
    func drawFrame(of clip: Clip, index: Int, movieBase: Int = 0, rate: FrameRate, background: Color, on canvas: Canvas) throws {
        let frame = Frame(index: index, movieIndex: movieBase + index, rate: rate, exactTime: rate.time(ofFrame: index), duration: clip.duration)
        try canvas.draw { ctx in
            ctx.clear(background)
            try RenderSession.$current.withValue(self) {
                try clip.render(in: ctx, at: frame, session: self)
            }
        }
    }
}

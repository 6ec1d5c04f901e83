import Foundation

extension Clip {
    /// An audiogram as a generator leaf: a sound drawn as `visualizer` says, each frame from the samples
    /// around its time (read once per render: `RenderSession.audiograms`).
    package struct AudiogramLeaf: Sendable, Equatable {
        /// How the sound is drawn.
        package let visualizer: AudioVisualizer
        /// The sound, shared by copies of the leaf.
        let signal: SoundSignal

        /// Equal leaves draw the same signal (the same `Clip.audiogram` call) the same way.
        package static func == (a: AudiogramLeaf, b: AudiogramLeaf) -> Bool {
            a.signal === b.signal && a.visualizer == b.visualizer
        }

        /// Draws the sound at `frame` outside any render (the leaf's own reading of its sound): for the
        /// benchmark's audiogram line.
        package func draw(in ctx: DrawingContext, at frame: Frame) throws {
            try draw(in: ctx, at: frame, session: .standalone(for: ctx))
        }

        /// Draws the sound at `frame` (its exact time in the clip).
        func draw(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
            let analysis = try session.soundAnalysis(for: signal)
            let v = visualizer
            let b = ctx.bounds
            let area = Rect(x: b.minX + v.area.minX * b.width, y: b.minY + v.area.minY * b.height,
                            width: v.area.width * b.width, height: v.area.height * b.height)
            let format = SoundAnalysis.format
            let step = frame.rate.frameDuration
            /// The first sample of the frame `age` frames before this one, and the one after its last.
            func span(_ age: Int) -> (Int64, Int64) {
                let start = frame.exactTime - step * age
                return (format.frame(at: start), format.frame(at: start + step))
            }
            switch v.style {
            case .spectrum, .circle:
                let layout = SoundAnalysis.BandLayout(count: v.barCount, frequencies: v.frequencies, floor: v.floor)
                let values = try smoothed(count: v.barCount, frameDuration: step) { age in
                    let (a, e) = span(age)
                    return try analysis.spectrum(centre: (a + e) / 2, layout: layout)
                }
                if v.style == .spectrum { drawBars(values, in: area, ctx: ctx) } else { drawCircle(values, in: area, ctx: ctx) }
            case .level:
                let value = try smoothed(count: 1, frameDuration: step) { age in
                    let (a, e) = span(age)
                    return [try analysis.level(from: a, to: e, floor: v.floor)]
                }[0]
                drawMeter(value, in: area, ctx: ctx)
            case .waveform:
                let (a, e) = span(0)
                drawWaveform(try analysis.waveform(centre: (a + e) / 2, count: v.barCount), in: area, ctx: ctx)
            }
        }

        /// The values at this frame after attack and release (see `AudioVisualizer`), from `raw(age)`,
        /// the raw values of the frame `age` frames back.
        func smoothed(count: Int, frameDuration: Time, raw: (Int) throws -> [Float]) throws -> [Float] {
            let frame = frameDuration.seconds
            let attackFrames = max(1, Int((visualizer.attack.seconds / frame).rounded(.down)))
            let releaseFrames = visualizer.release > .zero ? Int((visualizer.release.seconds / frame).rounded(.up)) : 0
            let decay = releaseFrames > 0 ? pow(0.01, frame / visualizer.release.seconds) : 0
            var cache: [Int: [Float]] = [:]
            func rawAt(_ age: Int) throws -> [Float] {
                if let v = cache[age] { return v }
                let v = try raw(age)
                cache[age] = v
                return v
            }
            func attacked(_ age: Int) throws -> [Float] {
                var sum = [Float](repeating: 0, count: count)
                for i in 0..<attackFrames {
                    let r = try rawAt(age + i)
                    for k in 0..<count { sum[k] += r[k] }
                }
                return sum.map { $0 / Float(attackFrames) }
            }
            var out = try attacked(0)
            if releaseFrames > 0 {
                for j in 1...releaseFrames {
                    let factor = Float(pow(decay, Double(j)))
                    let past = try attacked(j)
                    for k in 0..<count { out[k] = max(out[k], past[k] * factor) }
                }
            }
            return out
        }

        /// The lowest a bar is drawn: 2 % of the area, so silence shows flat bars.
        static let minimumHeight = 0.02

        private func drawBars(_ values: [Float], in area: Rect, ctx: DrawingContext) {
            let slot = area.width / Double(values.count)
            let width = slot * (1 - visualizer.gap)
            ctx.setFill(visualizer.color)
            ctx.beginPath()
            for (k, value) in values.enumerated() {
                let h = area.height * max(Self.minimumHeight, Double(value))
                ctx.addRect(Rect(x: area.minX + slot * Double(k) + (slot - width) / 2, y: area.maxY - h, width: width, height: h))
            }
            ctx.fill()
        }

        private func drawCircle(_ values: [Float], in area: Rect, ctx: DrawingContext) {
            let side = min(area.width, area.height)
            let centre = area.center
            let inner = side * 0.25, reach = side * 0.25
            ctx.withSavedState {
                ctx.setStroke(visualizer.trackColor ?? visualizer.color.withAlpha(0.25))
                ctx.lineWidth = max(1, side * 0.01)
                ctx.strokeCircle(center: centre, radius: inner)
                ctx.setStroke(visualizer.color)
                ctx.lineWidth = max(1, 2 * Double.pi * inner / Double(values.count) * (1 - visualizer.gap))
                ctx.lineCap = .butt
                ctx.beginPath()
                for (k, value) in values.enumerated() {
                    let angle = 2 * Double.pi * Double(k) / Double(values.count) - Double.pi / 2
                    let length = reach * max(Self.minimumHeight, Double(value))
                    let (c, s) = (cos(angle), sin(angle))
                    ctx.move(to: Point(x: centre.x + c * inner, y: centre.y + s * inner))
                    ctx.line(to: Point(x: centre.x + c * (inner + length), y: centre.y + s * (inner + length)))
                }
                ctx.stroke()
            }
        }

        private func drawMeter(_ value: Float, in area: Rect, ctx: DrawingContext) {
            ctx.setFill(visualizer.trackColor ?? visualizer.color.withAlpha(0.25))
            ctx.fillRect(area)
            ctx.setFill(visualizer.color)
            ctx.fillRect(Rect(x: area.minX, y: area.minY, width: area.width * Double(value), height: area.height))
        }

        private func drawWaveform(_ values: [Float], in area: Rect, ctx: DrawingContext) {
            let slot = area.width / Double(values.count)
            switch visualizer.waveformShape {
            case .line:
                ctx.withSavedState {
                    ctx.setStroke(visualizer.color)
                    ctx.lineWidth = max(1, area.height * 0.02)
                    ctx.lineJoin = .round
                    ctx.beginPath()
                    for (k, value) in values.enumerated() {
                        let p = Point(x: area.minX + slot * (Double(k) + 0.5), y: area.midY - Double(value) * area.height / 2)
                        if k == 0 { ctx.move(to: p) } else { ctx.line(to: p) }
                    }
                    ctx.stroke()
                }
            case .bars, .mirrored:
                let width = slot * (1 - visualizer.gap)
                ctx.setFill(visualizer.color)
                ctx.beginPath()
                for (k, value) in values.enumerated() {
                    let h = area.height * max(Self.minimumHeight, Double(abs(value)))
                    let x = area.minX + slot * Double(k) + (slot - width) / 2
                    let y = visualizer.waveformShape == .bars ? area.maxY - h : area.midY - h / 2
                    ctx.addRect(Rect(x: x, y: y, width: width, height: h))
                }
                ctx.fill()
            }
        }
    }
}

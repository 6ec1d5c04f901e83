import Foundation

extension Clip {
    /// A video in a clip: the probed file, how it fills the frame, and whether its own sound plays.
    package struct VideoMedia: Sendable, Hashable {
        /// The probed file.
        package var file: VideoFile
        /// How the picture fills the frame: `fill` (cover, cropping), `fit` (whole, with bars of
        /// `background`) or `blur` (whole, over a blurred enlargement of itself).
        package var fit: Slideshow.Fit
        /// The colour of the bars around a fitted picture.
        package var background: Color
        /// The file's own sound, when it plays with the picture (nil: silent, or the file has none).
        package var sound: AudioFile?
        /// The gain of `sound` in dB (0: as recorded).
        package var soundGain: Double
        /// The moving window shown instead of the whole picture (`Clip.reframed(_:)`), nil for the whole picture.
        package var reframe: Reframe? = nil

        /// `file` shown by `fit` on `background`, with `sound` playing with it, `soundGain` dB louder.
        package init(file: VideoFile, fit: Slideshow.Fit = .fill, background: Color = .black, sound: AudioFile? = nil,
                    soundGain: Double = 0) {
            self.file = file; self.fit = fit; self.background = background; self.sound = sound; self.soundGain = soundGain
        }
    }

    /// A clip of the whole video at `url`, filling the frame by `fit`, with its own sound unless
    /// `withSound` is false.
    ///
    /// The file is probed now (see `VideoFile`): a missing, empty, truncated, audio-only or
    /// undecodable file throws here naming it, and so does an HDR video (which would look washed out).
    /// Each render opens its own decoder. Trim it with `trimmed(from:to:)`, change its speed with
    /// `speed(_:)`, play it backwards with `reversed()`: these map time, they never write a new file.
    public static func video(_ url: URL, fit: Slideshow.Fit = .fill, background: Color = .black,
                             withSound: Bool = true) throws(MovieMakerError) -> Clip {
        let file = try VideoFile(url: url)
        try file.checkShowable()
        var sound: AudioFile? = nil
        if withSound && file.hasAudio { sound = try AudioFile(url: url) }
        return Clip(.media(Media(.video(VideoMedia(file: file, fit: fit, background: background, sound: sound)),
                                 sourceRange: TimeRange(start: .zero, duration: file.duration))))
    }

    /// A clip of the whole probed `file` (see `video(_:fit:background:withSound:)`). Its sound, when
    /// asked for, is probed now; a file whose sound cannot be read gives a silent clip (use
    /// `video(_:fit:background:withSound:)` with the URL to have that be an error). An HDR file fails
    /// when a render opens the clip, before the first frame.
    public static func video(_ file: VideoFile, fit: Slideshow.Fit = .fill, background: Color = .black,
                             withSound: Bool = true) -> Clip {
        let sound = withSound && file.hasAudio ? try? AudioFile(url: file.url) : nil
        return Clip(.media(Media(.video(VideoMedia(file: file, fit: fit, background: background, sound: sound)),
                                 sourceRange: TimeRange(start: .zero, duration: file.duration))))
    }

    /// This clip played at `speed` (¼× to 4×): `speed(Speed(2))` lasts half as long, showing every
    /// second frame; `speed(Speed(numerator: 1, denominator: 2))` shows every frame twice. Its sounds
    /// are time-stretched with libavfilter's `atempo`, keeping their pitch (unless `speed.keepsPitch`
    /// is false).
    ///
    /// A speed outside ¼×…4× stops the program (a precondition, as an array index out of range does):
    /// check `speed.isSupported` first when the speed comes from data. Description files and the
    /// command line refuse such a speed with an error instead.
    public func speed(_ speed: Speed) -> Clip {
        precondition(speed.isSupported, "a clip's speed must be between 1/4 and 4, got \(speed)")
        return Clip(.timeMap(.speed(speed), self))
    }

    /// This clip played `factor` times as fast (0.25…4, a precondition: see `speed(_:)`), keeping its
    /// sounds' pitch.
    public func speed(_ factor: Double) -> Clip { speed(Speed(factor)) }

    /// This clip played backwards: its last frame first, its sounds reversed with it. Nothing is
    /// exported: a video is decoded backwards one group of pictures at a time.
    public func reversed() -> Clip { Clip(.timeMap(.reverse, self)) }

    /// The picture of this clip at `time` (of its own time, clamped into the clip), held still for
    /// `duration`, without sound. A negative `duration` stops the program (a precondition).
    ///
    /// A time at or past the end shows the clip's last moment: `v.trimmed(from: 1, to: 3).frozen(at: 2,
    /// for: 2)` (hold the last frame) showed the frame after the out point, and a stack frozen at its
    /// end showed nothing.
    public func frozen(at time: Time, for duration: Time) -> Clip {
        precondition(duration >= .zero, "a freeze's duration cannot be negative, got \(duration)")
        return Clip(.timeMap(.freeze(at: Time.min(Time.max(.zero, time), lastPictureTime), duration: duration), self))
    }

    /// This clip played again and again to fill `duration`, the last repeat cut short. A negative
    /// `duration` stops the program (a precondition).
    public func looped(toFill duration: Time) -> Clip {
        precondition(duration >= .zero, "a loop's duration cannot be negative, got \(duration)")
        return Clip(.timeMap(.loop(duration: duration), self))
    }

    /// Clips one after another, as a phone's video editor stitches recorded clips: hard cuts (or
    /// `transition` between every two), each clip's sound joined to the next with an equal-power
    /// crossfade of `audioCrossfade` (at least 10 ms) centred on the cut, using the sound beyond each
    /// clip's trim where the file has it, so no join clicks or dips.
    public static func stitched(_ clips: [Clip], transition: Transition? = nil,
                                audioCrossfade: Time = Time(value: 1, timescale: 50)) -> Clip {
        let transitions = [Transition?](repeating: transition, count: max(0, clips.count - 1))
        return Clip(.sequence(Track(clips, transitions: transitions, audioCrossfade: audioCrossfade)))
    }
}

extension Clip.VideoMedia {
    /// Draws the frame shown at `sourceTime` (clamped to the file), turned upright, fitted to the frame,
    /// from the session's decoder for `key`.
    func draw(in ctx: DrawingContext, at sourceTime: Time, key: VideoLeafKey, session: RenderSession) throws {
        if let reframe { return try drawReframed(reframe, in: ctx, at: sourceTime, key: key, session: session) }
        let bounds = ctx.bounds
        // The displayed picture's size, and where it goes.
        let shown = Size(width: Double(file.width), height: Double(file.height))
        let cover = max(bounds.width / shown.width, bounds.height / shown.height)
        let contain = min(bounds.width / shown.width, bounds.height / shown.height)
        let scale = fit == .fill ? cover : contain
        // Whole pixels, centred: a picture the frame's size lands exactly on it.
        let w = max(1, Int((shown.width * scale).rounded())), h = max(1, Int((shown.height * scale).rounded()))
        let x = (bounds.midX - Double(w) / 2).rounded(), y = (bounds.midY - Double(h) / 2).rounded()
        let turned = file.rotation % 180 != 0
        // A picture of extreme proportions (8192×16) filling a frame would be converted at its covering
        // size, hundreds of thousands of pixels wide, beyond what an image may be: it is converted at
        // most twice the frame's longer side and enlarged when drawn (little of it shows anyway).
        let longest = 2 * max(bounds.width, bounds.height, 1)
        let shrink = min(1, longest / Double(max(w, h)))
        let (convertedW, convertedH) = shrink < 1 ? (max(1, Int(Double(w) * shrink)), max(1, Int(Double(h) * shrink))) : (w, h)
        let (codedW, codedH) = turned ? (convertedH, convertedW) : (convertedW, convertedH)
        let time = Time.max(.zero, sourceTime)
        let placed = Rect(x: x, y: y, width: Double(w), height: Double(h))
        let coversFrame = placed.minX <= bounds.minX && placed.minY <= bounds.minY && placed.maxX >= bounds.maxX && placed.maxY >= bounds.maxY
        var blurSource: Image? = nil
        let picture: Image? = try session.withVideoSource(for: key, at: time) { source in
            if fit == .blur && !coversFrame {
                let bw = max(8, Int(bounds.width / 8)), bh = max(8, Int(bounds.height / 8))
                blurSource = try source.picture(at: time, width: turned ? bh : bw, height: turned ? bw : bh)
            }
            // An upright opaque picture landing on whole pixels of a plain canvas is converted straight
            // into it (no intermediate picture, no copy); the bars around it are drawn first.
            if file.rotation == 0, !file.isMirrored, blurSource == nil, !source.hasAlpha, shrink == 1,
               let target = ctx.directPixels(for: placed) {
                if !coversFrame { paintBackground(ctx) }
                try source.write(at: time, width: w, height: h, into: target.data, stride: target.stride)
                ctx.markWritten(target.surface)
                return nil
            }
            return try source.picture(at: time, width: codedW, height: codedH)
        }
        guard let picture else { return }
        paintBackground(ctx)
        if let blurSource {
            // The blur fit's background: the same frame, small, blurred, darkened and enlarged to cover.
            let small = try Canvas(width: max(8, Int(bounds.width / 8)), height: max(8, Int(bounds.height / 8)))
            try small.draw { sctx in
                sctx.withBlur(radius: sctx.bounds.width / 40) {
                    Self.drawTurned(blurSource, orientation: file, in: sctx.bounds, ctx: sctx, covering: true)
                }
                sctx.setFill(Color(white: 0, alpha: 0.35))
                sctx.fillRect(sctx.bounds)
            }
            ctx.draw(try small.makeImage(), in: bounds)
        }
        Self.drawTurned(picture, orientation: file, in: Rect(x: x, y: y, width: Double(w), height: Double(h)), ctx: ctx, covering: false)
    }

    /// Paints the bars' colour under the picture. A clear background paints nothing, so what is below
    /// (the canvas, a backdrop, another track) shows through; clearing would erase it, as a photo's does not.
    private func paintBackground(_ ctx: DrawingContext) {
        if background.alpha > 0 { ctx.clear(background) }
    }

    /// Draws the reframing window at `sourceTime` (from the session's analysis of the file) shown by
    /// the fit (`blur` shows it as `fit` does, on the background): an upright file's window is cut from the decoded picture before it is converted (only
    /// the window's pixels are scaled, straight into the canvas when it lands on whole pixels of it); a
    /// turned or mirrored one is converted whole at the window's scale and drawn clipped to the window.
    private func drawReframed(_ reframe: Reframe, in ctx: DrawingContext, at sourceTime: Time, key: VideoLeafKey, session: RenderSession) throws {
        let bounds = ctx.bounds
        let time = Time.max(.zero, sourceTime)
        let window = try session.reframes.job(for: file).window(at: time, reframe: reframe)
        let (ww, wh) = (Double(window.width), Double(window.height))
        let scale = fit == .fill ? max(bounds.width / ww, bounds.height / wh) : min(bounds.width / ww, bounds.height / wh)
        let w = max(1, Int((ww * scale).rounded())), h = max(1, Int((wh * scale).rounded()))
        let placed = Rect(x: (bounds.midX - Double(w) / 2).rounded(), y: (bounds.midY - Double(h) / 2).rounded(), width: Double(w), height: Double(h))
        let coversFrame = placed.minX <= bounds.minX && placed.minY <= bounds.minY && placed.maxX >= bounds.maxX && placed.maxY >= bounds.maxY
        if !coversFrame { paintBackground(ctx) }
        if file.rotation == 0, !file.isMirrored {
            // Displayed pixels to coded ones (they differ for anamorphic video), on whole chroma samples.
            let sx = Double(file.codedWidth) / Double(file.width), sy = Double(file.codedHeight) / Double(file.height)
            func even(_ v: Double) -> Int { let i = Int(v.rounded()); return i - (i & 1) }
            let crop = PixelWindow(x: even(Double(window.x) * sx), y: even(Double(window.y) * sy),
                                   width: Int((ww * sx).rounded()), height: Int((wh * sy).rounded()))
            let picture: Image? = try session.withVideoSource(for: key, at: time) { source in
                if !source.hasAlpha, let target = ctx.directPixels(for: placed) {
                    try source.write(at: time, crop: crop, width: w, height: h, into: target.data, stride: target.stride)
                    ctx.markWritten(target.surface)
                    return nil
                }
                return try source.picture(at: time, crop: crop, width: w, height: h)
            }
            guard let picture else { return }
            // As the whole picture is drawn: on the background (a picture with alpha shows it through).
            if coversFrame { paintBackground(ctx) }
            ctx.withSavedState { ctx.clip(to: placed); ctx.draw(picture, in: placed) }
            return
        }
        let whole = Rect(x: placed.minX - Double(window.x) * scale, y: placed.minY - Double(window.y) * scale,
                         width: Double(file.width) * scale, height: Double(file.height) * scale)
        let turned = file.rotation % 180 != 0
        let (cw, ch) = turned ? (whole.height, whole.width) : (whole.width, whole.height)
        let picture = try session.withVideoSource(for: key, at: time) { source in
            try source.picture(at: time, width: max(1, Int(cw.rounded())), height: max(1, Int(ch.rounded())))
        }
        if coversFrame { paintBackground(ctx) }
        ctx.withSavedState {
            ctx.clip(to: placed)
            Self.drawTurned(picture, orientation: file, in: whole, ctx: ctx, covering: false)
        }
    }

    /// Draws `image` (in the coded orientation) turned and mirrored as `orientation` says, into `rect`
    /// (in the displayed orientation); with `covering`, scaled to cover `rect` keeping its proportions.
    static func drawTurned(_ image: Image, orientation file: VideoFile, in rect: Rect, ctx: DrawingContext, covering: Bool) {
        let turned = file.rotation % 180 != 0
        var (dw, dh) = turned ? (Double(image.height), Double(image.width)) : (Double(image.width), Double(image.height))
        if covering {
            let s = max(rect.width / dw, rect.height / dh)
            dw *= s; dh *= s
        } else {
            dw = rect.width; dh = rect.height
        }
        ctx.withSavedState {
            ctx.clip(to: rect)
            ctx.translate(x: rect.midX, y: rect.midY)
            // Cairo applies the last transform first: the picture is turned, then mirrored, as the display
            // matrix says (the other order turned a mirrored 90° or 270° clip upside down).
            if file.isMirrored { ctx.scale(x: -1, y: 1) }
            if file.rotation != 0 { ctx.rotate(by: Double(file.rotation) * .pi / 180) }
            let (iw, ih) = turned ? (dh, dw) : (dw, dh)
            ctx.draw(image, in: Rect(x: -iw / 2, y: -ih / 2, width: iw, height: ih))
        }
    }
}

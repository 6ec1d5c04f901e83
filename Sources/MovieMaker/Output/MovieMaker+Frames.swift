import Foundation

// The ways of adding frames that are built on `addFrame(_:)` and `add(_:frames:withSound:)`, and the
// initialiser taking the rate as a fraction.
extension MovieMaker {
    /// Convenience: a whole-number frame rate given as a `Double` is not accepted; use `FrameRate`.
    /// This form takes the rate as a fraction and throws `.invalidFrameRate` when it is not positive.
    public convenience init(url: URL, width: Int, height: Int, fpsNumerator: Int, fpsDenominator: Int = 1,
                            settings: EncoderSettings = EncoderSettings(), audioSettings: AudioSettings? = nil) throws(MovieMakerError) {
        guard let rate = FrameRate(numerator: fpsNumerator, denominator: fpsDenominator) else {
            throw .invalidFrameRate("\(fpsNumerator)/\(fpsDenominator)")
        }
        try self.init(url: url, width: width, height: height, fps: rate, settings: settings, audioSettings: audioSettings)
    }

    /// Draws `count` frames; `draw` receives the context and the frame (index from 0, exact time).
    ///
    /// The frames are drawn one after another on the calling thread, each starting from the previous
    /// frame's pixels (the first from black, or transparent), because `draw` may read or build on them
    /// (trails, feedback, painting only what changed). Each frame's conversion for the encoder runs on a
    /// thread of its own while the next frame is drawn (the drawn pixels are copied aside first), but
    /// the drawing itself is serial. That costs parallelism: while one core draws,
    /// the others only convert and encode, so where drawing is the larger part of the work (a fast x264 preset,
    /// many shapes or gradients) the movie takes longer than it could (docs/BENCHMARKS.md has figures).
    /// When every frame draws its whole picture from its `Frame` alone, say so with
    /// `addFrames(count:independent:_:)` and `independent: true`.
    public func addFrames(count: Int, _ draw: (DrawingContext, Frame) throws -> Void) throws {
        guard count >= 0 else { throw MovieMakerError.invalidSetting(.frameCount, value: "\(count)", expected: "0 or more") }
        let duration = frameRate.time(ofFrame: count)
        if expectedFrameCount == nil || expectedFrameCount! < frameCount + count { expectedFrameCount = frameCount + count }
        for i in 0..<count {
            let frame = Frame(index: i, movieIndex: frameCount, rate: frameRate, exactTime: frameRate.time(ofFrame: i), duration: duration)
            try addFrame { ctx in try draw(ctx, frame) }
        }
    }

    /// Draws `count` frames, like `addFrames(count:_:)`; with `independent: true`, on several threads.
    ///
    /// `independent: true` promises that each frame's picture depends on its `Frame` alone: `draw` paints
    /// the whole frame (it starts as black, or transparent with `settings.transparency`, never as the
    /// previous frame) and keeps no state between calls that the order of the calls would change. The
    /// frames are then drawn as a clip's are (`add(_:)` with `Clip(duration:draw:)`): on
    /// `settings.drawingThreads` threads (by default one per core, up to 4), each with its own canvas,
    /// reaching the encoder in order; `draw` is called from those threads, for frames in any order,
    /// several at once. For a closure that paints every pixel, the movie is the same, frame for frame
    /// and byte for byte, as `addFrames(count:_:)` makes; only faster where drawing is much of the work.
    ///
    /// `independent: false` is `addFrames(count:_:)`: one frame after another on the calling thread,
    /// each starting from the previous frame's pixels, leaving cores idle while it draws.
    public func addFrames(count: Int, independent: Bool, _ draw: @escaping @Sendable (DrawingContext, Frame) throws -> Void) throws {
        guard independent else { return try addFrames(count: count, draw) }
        guard count >= 0 else { throw MovieMakerError.invalidSetting(.frameCount, value: "\(count)", expected: "0 or more") }
        guard count > 0 else { return }
        let duration = frameRate.time(ofFrame: count)
        try add(Clip(duration: duration, draw: draw), frames: 0..<count)
    }

    /// Renders a clip: one frame for every frame time within its duration.
    ///
    /// Each frame is drawn on a fresh black frame, or a transparent one with `settings.transparency`
    /// (a clip draws its whole picture from the time alone), so several frames are drawn at once, on
    /// `settings.drawingThreads` threads (by default one per core, up to 4), each pulling the next frame
    /// as soon as it is free; frames reach the encoder in order. Afterwards the pixel buffer holds the
    /// clip's last frame.
    ///
    /// The clip's media is opened first (a missing or unreadable photo throws here, before any frame is
    /// drawn or sound added) and closed at the end. The clip's sounds (`Clip.withSound(_:at:)`) join the
    /// sound track at the clip's place in the movie; the first clip with sound must come before the
    /// first frame unless `audioSettings` was given to init (see `addAudio(_:at:)`).
    public func add(_ clip: Clip) throws {
        try add(clip, frames: 0..<frameRate.frameCount(for: clip.duration))
    }

    /// Renders the frames `frames` of `clip` (indices on the clip's own frame grid, from 0), one after
    /// another from the movie's current end: frame `frames.lowerBound` of the clip becomes the movie's
    /// next frame. Each frame is exactly the frame at that index of a whole render of the clip.
    ///
    /// Sounds of the clip that play during the range are placed with it (a sound already playing at
    /// the range's start, or still playing at its end, is cut there, with a 10 ms fade), so adding a
    /// clip in consecutive ranges plays its sound once. Throws `.invalidSetting` when the range is
    /// not within the clip's frames (`0..<frameRate.frameCount(for: clip.duration)`).
    public func add(_ clip: Clip, frames: Range<Int>) throws {
        try add(clip, frames: frames, withSound: true)
    }

    /// Warns, once per movie, that this output (a PNG sequence or an animated image) has no sound track,
    /// so the sound given to it is left out.
    func tellSoundLeftOut() {
        guard !toldSoundLeftOut else { return }
        toldSoundLeftOut = true
        let kind = container == .pngSequence ? "a PNG sequence" : "an animated image"
        LibraryWarnings.warn("\(url.lastPathComponent) is \(kind), which has no sound track: the sound is left out "
                             + "(write a movie file, .mp4, .mov, .mkv or .webm, to keep it)")
    }

    /// Places the sounds of `clip` that play during `frames` (when `withSound`) at the movie's current
    /// end, in movie time: nothing before the range's start or after its end is heard. A PNG sequence or an animated
    /// image, which have no sound track, show clips without their sound (and say so once).
    func placeSounds(of clip: Clip, frames: Range<Int>, withSound: Bool) throws {
        guard audioCodec != nil else {
            if withSound, !clip.sounds.isEmpty { tellSoundLeftOut() }
            return
        }
        let rangeStart = frameRate.time(ofFrame: frames.lowerBound), rangeEnd = frameRate.time(ofFrame: frames.upperBound)
        let placedAt = frameRate.time(ofFrame: frameCount)
        let until = rangeEnd < clip.duration ? rangeEnd : nil
        guard withSound else { return }
        let heard = clip.sounds.map { $0.limited(from: rangeStart, until: until) }.filter(\.isHeard)
        try addAudio(heard.map { ($0.heardSource, placedAt + $0.firstHeard - rangeStart) })
    }

    /// Converts serial frames on the calling thread, as before `SerialConversion` (for tests and the
    /// benchmark comparing the two). Set before the first frame.
    package var convertsSerialFramesOnCallingThread: Bool {
        get { (output as? EncodingOutput)?.convertsSerialFramesOnCallingThread ?? false }
        set { (output as? EncodingOutput)?.convertsSerialFramesOnCallingThread = newValue }
    }

    /// A pause before each serial frame's conversion (tests: frames must stay in order however slow it is).
    var serialConversionDelayForTests: Duration {
        get { (output as? EncodingOutput)?.serialConversionDelayForTests ?? .zero }
        set { (output as? EncodingOutput)?.serialConversionDelayForTests = newValue }
    }
}

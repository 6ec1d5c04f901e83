import Foundation

/// Makes a movie from drawing closures: draw each frame into a pixel buffer, and MovieMaker encodes
/// it with x264 and writes an MP4 (or MOV/MKV) that plays everywhere, with the colours drawn.
///
/// ```swift
/// let movie = try MovieMaker(url: URL(fileURLWithPath: "wave.mp4"), width: 1920, height: 1080, fps: 30)
/// try movie.addFrames(count: 300) { ctx, frame in
///     ctx.setFill(.black); ctx.fillRect(ctx.bounds)
///     // …draw the frame at frame.time…
/// }
/// try movie.finish()
/// ```
///
/// The movie is written to a temporary file beside `url` and renamed into place by `finish()`. If
/// anything fails, or the `MovieMaker` is dropped without `finish()`, the temporary file is deleted
/// and whatever was at `url` before is left untouched.
///
/// Transparent output: with `EncoderSettings(transparency: true)` frames start fully transparent
/// instead of black and keep their alpha channel, in `.mov` (ProRes 4444), `.webm` (VP9 with alpha)
/// or a folder of PNG files (`MovieMaker(pngSequenceIn:…)`). Without it, `.webm` is opaque VP9,
/// `.gif`, `.apng` and `.webp` animated images, and every other extension H.264 unless
/// `settings.codec` names another codec (HEVC, AV1, VP9, ProRes).
///
/// Sound: `addAudio(_:at:)` places sounds (any `AudioSource`) on the movie's sound track, which is
/// encoded as AAC-LC (Opus in `.webm`) with `audioSettings` and lasts exactly as long as the video.
///
/// Use one `MovieMaker` from one thread at a time. Encoding runs on its own thread while you draw.
public final class MovieMaker {
    /// Where the finished movie goes.
    public let url: URL
    /// Drawing width in pixels.
    public let width: Int
    /// Drawing height in pixels.
    public let height: Int
    /// Frames per second, exactly.
    public let frameRate: FrameRate
    /// How the video is encoded.
    public let settings: EncoderSettings
    /// The container, from `url`'s extension (`.pngSequence` for `init(pngSequenceIn:…)`).
    public let container: Container
    /// The codec, from the container and `settings.transparency`.
    public let videoCodec: VideoCodec
    /// How the sound track is encoded (the defaults, 48 kHz stereo AAC at 192 kb/s, unless given to init).
    public let audioSettings: AudioSettings
    /// Called on the drawing thread after each frame is handed to the encoder, and once at the end.
    public var progressHandler: ((RenderProgress) -> Void)?
    /// The number of frames the movie will have, when known in advance: makes progress reports give a total.
    package var expectedFrameCount: Int?
    /// Stops the render when cancelled: the next frame throws `MovieMakerError.cancelled`, the partial file
    /// is deleted and the destination is left as it was (see `CancellationToken`). Checked once per frame
    /// by `addFrame`, the clip scheduler and the encoder pipeline.
    public var cancellation: CancellationToken? {
        didSet { output.setCancellation(cancellation) }
    }

    /// The pixel buffer serial frames are drawn in, and its drawing context (the same objects for every
    /// frame), made by `drawingBuffer()` with the first serial frame: a movie made of clips alone never
    /// needs it (a frame's worth of memory saved: 7.9 MiB at 1080p).
    private var pixelBuffer: (surface: CairoSurface, context: DrawingContext)?
    /// The lane canvas holding the last clip's last frame while there is no pixel buffer: the buffer
    /// starts as a copy of it, as if the frame had been copied into the buffer when the clip ended.
    /// (Lane canvases are drawn only inside `add(_:frames:)`, which sets this again when it ends.)
    private var pixelBufferStart: Canvas?
    /// The pixel buffer's size: the frame size, made even for codecs that need it.
    private let encodedWidth: Int, encodedHeight: Int
    /// What each clip frame (and the first frame) starts as: black, or transparent with `transparency`.
    private let background: Color
    /// Where frames and sounds go: a file, or the studio's preview (chosen once, in init). Internal, not
    /// private, for the extensions beside this file.
    let output: any MovieOutput
    /// What the studio is told when it runs this script to render it (see `StudioHook`).
    private let renderReport: StudioRenderReport?
    private var state: State = .open
    private var startTime: Date?
    /// Frames added so far.
    public private(set) var frameCount = 0
    /// The last chapter's start once `setChapters` was called: the movie must reach past it.
    var chaptersEnd: Time?
    /// Whether the warning that this output drops the clips' sound (it has no sound track) was given.
    var toldSoundLeftOut = false
    /// The most video decoders this movie's clips have had open at once (what
    /// `EncoderSettings.videoDecoderLimit` bounds), counted per movie, for tests and the benchmark.
    package var videoDecoderPeak: Int { output.statistics.peakOpenVideoDecoders }

    private enum State { case open, finished, failed(any Error) }

    /// The largest side H.264 level 6.2 allows, in pixels.
    package static let maximumSide = 8192
    /// The largest frame area H.264 level 6.2 allows (139,264 macroblocks), in pixels.
    package static let maximumPixels = 139_264 * 256

    /// Creates a movie at `url` of `width`×`height` pixels at `fps` frames per second.
    ///
    /// Throws if the size or rate is invalid, the folder is missing or not writable, `url` is a device,
    /// pipe or socket, the extension names no `Container` (`.mp4`, `.m4v`, `.mov`, `.qt`, `.mkv`, `.webm`, or the
    /// animated images `.gif`, `.apng`, `.webp`), `settings.transparency` is asked of `.mp4`, or the
    /// encoder is missing. (HLS and PNG sequences, which are folders, have their own initialisers.)
    ///
    /// `audioSettings`: nil (the default) gives a movie without a sound track until the first
    /// `addAudio`, which then creates one with `AudioSettings()` and must come before the first frame.
    /// Given settings (validated here: `.invalidSetting` names a bad sample rate, channel count or bit
    /// rate) create the sound track now, silent wherever no sound is added, so sounds may be added at
    /// any point of the render.
    public convenience init(url: URL, width: Int, height: Int, fps: FrameRate = 30, settings: EncoderSettings = EncoderSettings(),
                            audioSettings: AudioSettings? = nil) throws(MovieMakerError) {
        try self.init(destination: url, isPNGSequence: false, width: width, height: height, fps: fps, settings: settings,
                      audioSettings: audioSettings)
    }

    /// The designated initialiser behind the public ones (MovieMaker+Destinations.swift).
    init(destination url: URL, isPNGSequence: Bool, width: Int, height: Int, fps: FrameRate,
                 settings: EncoderSettings, audioSettings: AudioSettings?, hls: Bool = false) throws(MovieMakerError) {
        let (container, videoCodec) = try Self.checkedFormat(url: url, isPNGSequence: isPNGSequence, width: width, height: height, fps: fps,
                                                             settings: settings, audioSettings: audioSettings, hls: hls)
        var destination = MovieDestination(url: url, isPNGSequence: isPNGSequence)
        destination.isHLS = hls
        try destination.checkFolder()
        self.url = url; self.width = width; self.height = height; self.frameRate = fps
        self.settings = settings; self.container = container; self.videoCodec = videoCodec
        self.audioSettings = audioSettings ?? AudioSettings()
        background = settings.transparency ? .clear : .black
        let needsEvenSize = videoCodec.needsEvenSize
        encodedWidth = needsEvenSize ? width + width % 2 : width
        encodedHeight = needsEvenSize ? height + height % 2 : height
        let hook = try StudioHook.claim()
        if let hook, case .preview = hook.hook.mode {
            // A studio preview: nothing is written at the destination or beside it, nothing is encoded.
            if destination.isFolder { try MovieDestination.checkReplaceableSequenceFolder(url, hls: hls) }
            LibraryLog.ensureConfigured()
            renderReport = nil
            output = PreviewOutput(capture: PreviewCapture(hook: hook.hook, first: hook.first), hasSound: audioSettings != nil,
                                   width: width, height: height, encodedWidth: encodedWidth, encodedHeight: encodedHeight,
                                   fps: fps, settings: settings, audioSettings: self.audioSettings, background: background)
            return
        }
        renderReport = hook.flatMap { $0.first ? StudioRenderReport($0.hook) : nil }
        try destination.checkWritable()
        LibraryLog.ensureConfigured()
        output = try EncodingOutput(destination: destination, container: container, width: width, height: height,
                                    encodedWidth: encodedWidth, encodedHeight: encodedHeight, fps: fps, settings: settings,
                                    audioSettings: audioSettings, resolvedAudioSettings: self.audioSettings, background: background)
    }

    /// Whether the pixel buffer has been made (for tests: a movie of clips alone never makes it).
    var hasPixelBuffer: Bool { pixelBuffer != nil }

    /// The pixel buffer, made on first use: black (transparent with `transparency`), or the last clip's
    /// last frame when clips came first.
    private func drawingBuffer() throws(MovieMakerError) -> (surface: CairoSurface, context: DrawingContext) {
        if let pixelBuffer { return pixelBuffer }
        let surface = try CairoSurface(width: encodedWidth, height: encodedHeight)
        let context = try DrawingContext(surface: surface, width: width, height: height)
        if let start = pixelBufferStart { surface.copyPixels(from: start.surface) } else { context.clear(background) }
        pixelBufferStart = nil
        pixelBuffer = (surface, context)
        return (surface, context)
    }

    deinit {
        if case .open = state { discard() }
    }

    /// Statistics about buffers, for checking that memory stays flat.
    package var buffersAllocated: Int { output.buffersAllocated }

    /// Throws unless frames and sounds may still be added.
    func checkOpen() throws(MovieMakerError) {
        switch state {
        case .open: return
        case .finished: throw .frameAfterFinish
        case .failed(let first): throw .failedEarlier(first)
        }
    }

    /// Draws one frame with `draw` and hands it to the encoder.
    ///
    /// If `draw` throws, the render is abandoned (the partial file is deleted) and the error is rethrown.
    public func addFrame(_ draw: (DrawingContext) throws -> Void) throws {
        try checkOpen()
        do {
            if cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
            if !output.wantsFrames(after: frameCount - 1) {
                // Past the last frame the output looks at (a studio preview): counted, not drawn.
                frameCount += 1
                reportProgress()
                return
            }
            let (surface, context) = try drawingBuffer()
            try context.withSavedState { try draw(context) }
            try context.checkStatus()
            try encode(surface)
        } catch {
            fail(error)
            throw error
        }
        reportProgress()
    }

    /// `add(_:frames:)`, placing the clip's sounds only when `withSound` (a chunk of a distributed render
    /// is video only: the assembly renders the whole sound track once).
    func add(_ clip: Clip, frames: Range<Int>, withSound: Bool) throws {
        try checkOpen()
        let total = frameRate.frameCount(for: clip.duration)
        guard frames.lowerBound >= 0, frames.upperBound <= total else {
            throw MovieMakerError.invalidSetting(.frameRange, value: "\(frames.lowerBound)..<\(frames.upperBound)",
                                                 expected: "a range within the clip's \(total) frames, 0..<\(total)")
        }
        let job = ClipFrames(clip: clip, frames: frames, firstMovieFrame: frameCount, withSound: withSound, cancellation: cancellation) {
            try self.placeSounds(of: clip, frames: frames, withSound: withSound)
        }
        // Media (and sounds) that cannot be opened throw here and change nothing.
        let render = try output.open(job)
        defer { output.close(render) }
        let count = frames.count
        guard count > 0 else { return }
        if expectedFrameCount == nil || expectedFrameCount! < frameCount + count { expectedFrameCount = frameCount + count }
        do {
            if startTime == nil { startTime = Date() }
            let base = frameCount
            let last = try output.draw(render) { committed in
                frameCount = base + committed
                reportProgress()
            }
            // Leave the clip's last frame in the pixel buffer, as `addFrame` does (or where the buffer,
            // when one is first needed, will start from).
            if let last {
                if let pixelBuffer { pixelBuffer.surface.copyPixels(from: last.surface) } else { pixelBufferStart = last }
            }
        } catch {
            fail(error)
            throw error
        }
    }

    /// The codec the sound track is (or would be) encoded with, from the container; nil for a PNG sequence.
    public var audioCodec: AudioCodec? { try? container.audioCodec() }
    /// Whether the movie has a sound track (given `audioSettings`, or after the first `addAudio`).
    package var hasAudio: Bool { output.hasAudio }

    /// A copy of the pixel buffer as it is now (what the next frame starts from).
    package func currentPixels() -> PixelBuffer {
        if let pixelBuffer { return PixelBuffer(surface: pixelBuffer.surface, width: width, height: height) }
        if let pixelBufferStart { return PixelBuffer(surface: pixelBufferStart.surface, width: width, height: height) }
        // No frame drawn yet: the background (premultiplied BGRA).
        let pixel: [UInt8] = background.alpha > 0 ? [0, 0, 0, 255] : [0, 0, 0, 0]
        return PixelBuffer(width: width, height: height, bytes: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
    }

    /// Converts a drawn surface (the pixel buffer or a clip canvas) into a pooled frame and queues it.
    private func encode(_ surface: CairoSurface) throws(MovieMakerError) {
        if startTime == nil { startTime = Date() }
        try output.takeSerialFrame(surface, index: frameCount, pixels: currentPixels)
        frameCount += 1
    }

    private func reportProgress() {
        renderReport?.progress(encoded: output.framesEncoded(added: frameCount), total: expectedFrameCount ?? 0)
        guard let handler = progressHandler else { return }
        handler(RenderProgress(framesEncoded: output.framesEncoded(added: frameCount), framesAdded: frameCount,
                               totalFrames: expectedFrameCount, elapsed: startTime.map { Date().timeIntervalSince($0) } ?? 0))
    }

    /// Encodes the remaining frames, writes the file and moves it to `url` (replacing a file there).
    ///
    /// Throws `.noFrames` if nothing was drawn (and writes nothing), `.alreadyFinished` if called twice.
    @discardableResult
    public func finish() throws(MovieMakerError) -> MovieSummary {
        switch state {
        case .open: break
        case .finished: throw .alreadyFinished
        case .failed(let first): throw .failedEarlier(first)
        }
        guard frameCount > 0 else {
            fail(MovieMakerError.noFrames)
            throw .noFrames
        }
        if let chaptersEnd, !(chaptersEnd < frameRate.time(ofFrame: frameCount)) {
            let error = MovieMakerError.invalidSetting(.chapters, value: "a chapter at \(chaptersEnd.seconds) s",
                                                       expected: "chapters that start before the movie's end (\(frameRate.time(ofFrame: frameCount).seconds) s)")
            fail(error)
            throw error
        }
        let size: Int
        do throws(MovieMakerError) {
            size = try output.finish { hookMovie(path: url.path, hasSound: output.hasAudio) }
        } catch {
            state = .failed(error)
            throw error
        }
        state = .finished
        renderReport?.finished(hookMovie(path: url.path, hasSound: hasAudio), encoded: output.framesEncoded(added: frameCount),
                               total: expectedFrameCount ?? 0)
        if let handler = progressHandler {
            handler(RenderProgress(framesEncoded: frameCount, framesAdded: frameCount, totalFrames: frameCount,
                                   elapsed: startTime.map { Date().timeIntervalSince($0) } ?? 0))
        }
        let seconds = startTime.map { Date().timeIntervalSince($0) } ?? 0
        if let fit = output.animatedImageFit {
            let step = frameRate.numerator * fit.frameRate.denominator / (frameRate.denominator * fit.frameRate.numerator)
            return MovieSummary(url: url, width: fit.width, height: fit.height, frameCount: (frameCount + step - 1) / step, frameRate: fit.frameRate,
                                duration: frameRate.time(ofFrame: frameCount), fileSize: size, renderSeconds: seconds, statistics: output.statistics, fit: fit)
        }
        return MovieSummary(url: url, width: encodedWidth, height: encodedHeight, frameCount: frameCount, frameRate: frameRate,
                            duration: frameRate.time(ofFrame: frameCount), fileSize: size,
                            renderSeconds: seconds, statistics: output.statistics)
    }

    /// What `movie.json` says of this movie.
    private func hookMovie(path: String, hasSound: Bool) -> StudioHook.MovieFile {
        StudioHook.MovieFile(width: width, height: height, fpsNumerator: frameRate.numerator, fpsDenominator: frameRate.denominator,
                             frameCount: frameCount, path: path, hasSound: hasSound, crf: settings.crf(for: videoCodec), preset: settings.preset.rawValue,
                             lossless: settings.lossless, transparent: settings.transparency)
    }

    /// Abandons the movie: stops encoding and deletes the partial file. `url` is left as it was.
    public func cancel() {
        if case .open = state { discard(); state = .failed(MovieMakerError(code: .cancelled, message: "the movie was cancelled")) }
    }

    private func fail(_ error: Error) {
        if case .open = state {
            discard()
            state = .failed(error)
        }
    }

    private func discard() { output.discard() }
}

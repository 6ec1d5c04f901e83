internal import CFFmpeg
internal import CMovieMakerShim
import Foundation
import Synchronization

/// Makes a movie from drawing closures: draw each frame into a pixel buffer, and MovieMaker encodes
/// it with x264 and writes an MP4 (or MOV/MKV) that plays everywhere, with the colours drawn.
///
/// ```swift
/// let movie = try MovieMaker(url: URL(fileURLWithPath: "wave.mp4"), width: 1920, height: 1080, fps: 30)
/// try movie.addFrames(count: 300) { ctx, frame in
///     ctx.setFill(.black); ctx.fillRect(ctx.bounds)
///     …
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
/// or a folder of PNG files (`MovieMaker(pngSequenceIn:…)`). Without it, `.webm` is opaque VP9 and
/// every other extension H.264.
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
    public var expectedFrameCount: Int?
    /// Stops the render when cancelled: the next frame throws `MovieMakerError.cancelled`, the partial file
    /// is deleted and the destination is left as it was (see `CancellationToken`). Checked once per frame
    /// by `addFrame`, the clip scheduler and the encoder pipeline.
    public var cancellation: CancellationToken? {
        didSet { output?.pipeline.cancellation = cancellation }
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
    /// Where frames go: the encoder; nil in a studio preview (`StudioHook`), which encodes nothing.
    private let output: EncodingOutput?
    /// The studio preview this movie is (see `StudioHook`): it counts frames and captures the ones asked
    /// for instead of encoding; nil for a movie (the usual case).
    private let preview: PreviewCapture?
    /// Converts serial frames on a thread of its own while the next is drawn; made with the first serial frame.
    private var serialConversion: SerialConversion?
    /// Converts serial frames on the calling thread, as before `SerialConversion` (for tests and the
    /// benchmark comparing the two). Set before the first frame.
    @_spi(Benchmark) public var convertsSerialFramesOnCallingThread = false
    /// A pause before each serial frame's conversion (tests: frames must stay in order however slow it is).
    var serialConversionDelayForTests: Duration = .zero
    /// The studio's hook when it runs this script to render it: progress and `movie.json` (see `StudioHook`).
    private let renderHook: StudioHook?
    /// When progress was last written for `renderHook`.
    private var hookProgressWritten = Date.distantPast
    private let temporaryURL: URL

    /// The encoder and what feeds it.
    private struct EncodingOutput {
        /// The encoder and muxer (also used by `pipeline`'s thread; the caller's thread touches it only
        /// before the first frame is submitted, to add the audio stream and write the header).
        let encoder: VideoEncoder
        /// The bounded queue of frames to the encoder's thread.
        let pipeline: FramePipeline
        /// bgra → the encoder's format (yuv420p, BT.709 limited range, by default), for serial frames.
        let converter: FrameConverter
    }
    private var state: State = .open {
        didSet {
            // The render is over: the scratch its frames used goes back to the system.
            if case .open = oldValue, !isOpenState { ScratchPools.releaseIdle() }
        }
    }
    private var isOpenState: Bool { if case .open = state { return true } else { return false } }
    /// Canvases for drawing clip frames in parallel, one per drawing thread, created on first use.
    private var clipCanvases: [Canvas] = []
    /// One converter per clip canvas (swscale contexts are not shared between threads), created with them.
    private var clipConverters: [FrameConverter] = []
    private var startTime: Date?
    /// Frames added so far.
    public private(set) var frameCount = 0
    /// The most video decoders this movie's clips have had open at once (what
    /// `EncoderSettings.videoDecoderLimit` bounds), counted per movie, for tests and the benchmark.
    @_spi(Benchmark) public private(set) var videoDecoderPeak = 0

    private enum State { case open, finished, failed(any Error) }

    /// swscale flags for BGRA → yuv420p: accurate rounding, full-resolution chroma input and a bicubic
    /// chroma filter. Measured on vector art, bicubic beats bilinear chroma decimation by ~1.7 dB PSNR
    /// after a round trip; colours land within a level or two of what was drawn.
    static let scalerFlags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP

    /// The largest side H.264 level 6.2 allows, in pixels.
    public static let maximumSide = 8192
    /// The largest frame area H.264 level 6.2 allows (139,264 macroblocks), in pixels.
    public static let maximumPixels = 139_264 * 256

    /// Creates a movie at `url` of `width`×`height` pixels at `fps` frames per second.
    ///
    /// Throws if the size or rate is invalid, the folder is missing or not writable, the extension is
    /// not `.mp4`, `.m4v`, `.mov`, `.mkv` or `.webm`, `settings.transparency` is asked of `.mp4`, or the
    /// encoder is missing.
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

    /// Writes each frame as a PNG file in the folder `folder`: `frame-00001.png`, `frame-00002.png`, …
    ///
    /// With `settings.transparency` the files are RGBA with straight (unpremultiplied) alpha and frames
    /// start transparent; without it they are RGB and frames start black. Any size works, odd ones too.
    /// The frames are written into a hidden folder beside `folder` and renamed into place by `finish()`,
    /// so `folder` holds all of them or none. An existing `folder` must be empty or hold only
    /// `frame-N.png` files from an earlier render; those are replaced. Its parent folder must exist.
    public convenience init(pngSequenceIn folder: URL, width: Int, height: Int, fps: FrameRate = 30,
                            settings: EncoderSettings = EncoderSettings()) throws(MovieMakerError) {
        try self.init(destination: folder, isPNGSequence: true, width: width, height: height, fps: fps, settings: settings, audioSettings: nil)
    }

    /// The file name pattern of PNG sequence frames (numbered from 1).
    static let pngFramePattern = "frame-%05d.png"

    private init(destination url: URL, isPNGSequence: Bool, width: Int, height: Int, fps: FrameRate,
                 settings: EncoderSettings, audioSettings: AudioSettings?) throws(MovieMakerError) {
        guard width >= 2, height >= 2 else { throw .invalidSize(width: width, height: height) }
        guard width <= Self.maximumSide, height <= Self.maximumSide, width * height <= Self.maximumPixels else {
            throw .sizeTooLarge(width: width, height: height, maxSide: Self.maximumSide, maxPixels: Self.maximumPixels)
        }
        // 4:2:0 codecs (H.264, VP9) store colour at half resolution; PNG and ProRes 4444 take any size.
        let container = isPNGSequence ? .pngSequence : Container(fileExtension: url.pathExtension)
        let needsEvenSize = (container.flatMap { try? $0.videoCodec(transparency: settings.transparency, fileExtension: url.pathExtension) })?.needsEvenSize ?? true
        if (width % 2 != 0 || height % 2 != 0) && needsEvenSize && settings.oddSizePolicy == .reject {
            throw .oddSize(width: width, height: height)
        }
        guard fps.numerator <= Int(Int32.max), fps.denominator <= Int(Int32.max) else { throw .invalidFrameRate(fps.description) }
        try settings.validate()
        guard let container else {
            throw .unsupportedContainer(extension: url.pathExtension, supported: Container.supportedExtensions)
        }
        let videoCodec = try container.videoCodec(transparency: settings.transparency, fileExtension: url.pathExtension)
        if let audioSettings { try audioSettings.validate(for: container.audioCodec()) }
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .destinationFolderMissing(path: folder.path)
        }
        guard access(folder.path, W_OK) == 0 else {
            throw .destinationNotWritable(path: folder.path, reason: String(cString: strerror(errno)))
        }
        let hook = try StudioHook.claim()
        if let hook, case .preview = hook.hook.mode {
            // A studio preview: nothing is written at the destination or beside it, nothing is encoded.
            if isPNGSequence { try Self.checkReplaceableSequenceFolder(url) }
            LibraryLog.ensureConfigured()
            self.url = url; self.width = width; self.height = height; self.frameRate = fps
            self.settings = settings; self.container = container; self.videoCodec = videoCodec
            self.audioSettings = audioSettings ?? AudioSettings()
            background = settings.transparency ? .clear : .black
            encodedWidth = needsEvenSize ? width + width % 2 : width
            encodedHeight = needsEvenSize ? height + height % 2 : height
            output = nil
            preview = PreviewCapture(hook: hook.hook, first: hook.first)
            preview?.hasSound = audioSettings != nil
            renderHook = nil
            temporaryURL = url
            return
        }
        renderHook = hook.flatMap { $0.first ? $0.hook : nil }
        preview = nil
        // access() says yes to root on any file system; creating (and removing) a file proves it. In a folder
        // that exists, ENOENT ("No such file or directory") means a file system that takes no files (/proc, /sys).
        let probe = folder.appendingPathComponent(".moviemaker-write-check-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        let probeFD = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard probeFD >= 0 else {
            let code = errno
            let reason = code == ENOENT || code == EPERM || code == EOPNOTSUPP
                ? "cannot create a file there: its file system does not take new files"
                : "cannot create a file there: \(String(cString: strerror(code)))"
            throw .destinationNotWritable(path: folder.path, reason: reason)
        }
        close(probeFD)
        unlink(probe)
        if isPNGSequence {
            try Self.checkReplaceableSequenceFolder(url)
        } else if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .destinationNotWritable(path: url.path, reason: "a folder has that name")
        }
        LibraryLog.ensureConfigured()

        self.url = url; self.width = width; self.height = height; self.frameRate = fps
        self.settings = settings; self.container = container; self.videoCodec = videoCodec
        self.audioSettings = audioSettings ?? AudioSettings()
        background = settings.transparency ? .clear : .black
        encodedWidth = needsEvenSize ? width + width % 2 : width
        encodedHeight = needsEvenSize ? height + height % 2 : height
        // Hidden, unique, same folder (so the final rename is atomic), same extension (so tools recognise it).
        let encoderPath: String
        if isPNGSequence {
            PartialFiles.removeStale(in: folder)
            temporaryURL = PartialFiles.url(beside: url, stem: url.lastPathComponent, extension: nil)
            do {
                try FileManager.default.createDirectory(at: temporaryURL, withIntermediateDirectories: false)
            } catch {
                throw .destinationNotWritable(path: folder.path, reason: "cannot create a folder there: \(error.localizedDescription)")
            }
            encoderPath = temporaryURL.appendingPathComponent(Self.pngFramePattern).path
        } else {
            PartialFiles.removeStale(in: folder)
            temporaryURL = PartialFiles.url(beside: url, stem: url.deletingPathExtension().lastPathComponent, extension: url.pathExtension)
            encoderPath = temporaryURL.path
        }

        PartialFiles.register(temporaryURL)
        let encoder: VideoEncoder, converter: FrameConverter
        do {
            encoder = try VideoEncoder(path: encoderPath, container: container, width: Int32(encodedWidth), height: Int32(encodedHeight), rate: fps, settings: settings,
                                       destination: url.path)
            converter = try FrameConverter(width: encodedWidth, height: encodedHeight, format: encoder.framePixelFormat, alpha: settings.transparency)
            if let audioSettings { _ = try encoder.addAudio(codec: container.audioCodec(), settings: audioSettings) }
        } catch {
            try? FileManager.default.removeItem(at: temporaryURL)
            PartialFiles.unregister(temporaryURL)
            if error.code == .ffmpeg, let ff = error.underlying as? FFmpegError, ff.operation.hasPrefix("avio_open") {
                throw .destinationNotWritable(path: folder.path, reason: ff.message)
            }
            throw error
        }
        do {
            output = EncodingOutput(encoder: encoder, pipeline: try FramePipeline(encoder: encoder, capacity: settings.bufferCount),
                                    converter: converter)
        } catch {
            try? FileManager.default.removeItem(at: temporaryURL)
            PartialFiles.unregister(temporaryURL)
            throw error
        }
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

    /// Throws unless `url` is absent, an empty folder, or a folder holding only `frame-N.png` files:
    /// MovieMaker replaces earlier frames but never deletes anything else.
    private static func checkReplaceableSequenceFolder(_ url: URL) throws(MovieMakerError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw .destinationNotWritable(path: url.path, reason: "a file has that name; PNG frames go into a folder") }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        func isFrame(_ name: String) -> Bool {
            guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
            let digits = name.dropFirst(6).dropLast(4)
            return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
        }
        if let other = names.sorted().first(where: { !isFrame($0) }) {
            throw .destinationNotWritable(path: url.path, reason: "the folder holds \(other), not only frame-N.png files; choose a new or empty folder")
        }
    }

    /// Convenience: a whole-number frame rate given as a `Double` is not accepted; use `FrameRate`.
    /// This form takes the rate as a fraction and throws `.invalidFrameRate` when it is not positive.
    public convenience init(url: URL, width: Int, height: Int, fpsNumerator: Int, fpsDenominator: Int = 1,
                            settings: EncoderSettings = EncoderSettings(), audioSettings: AudioSettings? = nil) throws(MovieMakerError) {
        guard let rate = FrameRate(numerator: fpsNumerator, denominator: fpsDenominator) else {
            throw .invalidFrameRate("\(fpsNumerator)/\(fpsDenominator)")
        }
        try self.init(url: url, width: width, height: height, fps: rate, settings: settings, audioSettings: audioSettings)
    }

    deinit {
        if case .open = state { discard() }
    }

    /// Statistics about buffers, for checking that memory stays flat.
    public var buffersAllocated: Int { output?.pipeline.buffersAllocated ?? 0 }

    private func checkOpen() throws(MovieMakerError) {
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
            if let preview, !preview.wantsAny(after: frameCount - 1) {
                // A studio preview past its last frame asked for: counted, not drawn.
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

    /// Draws `count` frames; `draw` receives the context and the frame (index from 0, exact time).
    ///
    /// The frames are drawn one after another on the calling thread, each starting from the previous
    /// frame's pixels (the first from black, or transparent), because `draw` may read or build on them
    /// (trails, feedback, painting only what changed). Each frame's conversion for the encoder runs on a
    /// thread of its own while the next frame is drawn (the drawn pixels are copied aside first), but
    /// the drawing itself is serial. That costs parallelism: while one core draws,
    /// the others only convert and encode, so where drawing is the larger part of the work (a fast x264 preset,
    /// many shapes or gradients) the movie takes longer than it could: measured on a 2-core machine,
    /// the issue-20 W1 workload at `veryfast` took 17.7 s this way against 14.8 s drawn in parallel.
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
    /// the range's start is cut there, with a 10 ms fade). Throws `.invalidSetting` when the range is
    /// not within the clip's frames (`0..<frameRate.frameCount(for: clip.duration)`).
    public func add(_ clip: Clip, frames: Range<Int>) throws {
        try add(clip, frames: frames, withSound: true)
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
        if let preview { return try addPreview(clip, frames: frames, withSound: withSound, preview: preview) }
        guard let output else { preconditionFailure("a MovieMaker without an encoder is a studio preview") }
        let encoder = output.encoder, pipeline = output.pipeline
        // Like a sound that cannot be opened, media that cannot be opened throws here and changes nothing.
        let session = try RenderSession(opening: clip, width: width, height: height, cancellation: cancellation,
                                        videoDecoderLimit: settings.videoDecoderLimit,
                                        drawingThreads: min(settings.resolvedDrawingThreads, max(1, frames.count)))
        defer {
            session.close()
            videoDecoderPeak = max(videoDecoderPeak, session.videoPool.peakOpenCount)
        }
        // The clip's sounds, placed at the range's start in movie time (nothing before it is heard).
        let rangeStart = frameRate.time(ofFrame: frames.lowerBound)
        let placedAt = frameRate.time(ofFrame: frameCount)
        for sound in clip.sounds.map({ $0.limited(from: rangeStart, until: nil) }) where withSound && sound.isHeard {
            try addAudio(sound.heardSource, at: placedAt + sound.firstHeard - rangeStart)
        }
        let count = frames.count
        guard count > 0 else { return }
        if expectedFrameCount == nil || expectedFrameCount! < frameCount + count { expectedFrameCount = frameCount + count }
        let lanes = min(settings.resolvedDrawingThreads, count)
        do {
            if startTime == nil { startTime = Date() }
            // The header goes out once the streams are known, before the first frame is submitted.
            if frameCount == 0 { try encoder.writeHeader() }
            // Serial frames still being converted reach the encoder first.
            try serialConversion?.drain()
            while clipCanvases.count < lanes {
                clipCanvases.append(try Canvas(width: width, height: height, encodedWidth: encodedWidth, encodedHeight: encodedHeight))
                clipConverters.append(try FrameConverter(width: encodedWidth, height: encodedHeight, format: encoder.framePixelFormat,
                                                         alpha: settings.transparency))
            }
            let canvases = Array(clipCanvases.prefix(lanes))
            let converters = Dictionary(uniqueKeysWithValues: zip(canvases.map(ObjectIdentifier.init), clipConverters.prefix(lanes)))
            let sink = EncoderSink(pipeline: pipeline, converters: converters, firstPTS: Int64(frameCount) - Int64(frames.lowerBound))
            let background = self.background, rate = frameRate, movieBase = frameCount - frames.lowerBound
            let scheduler = FrameScheduler(frames: frames, sink: sink, cancellation: cancellation,
                                           inFlight: session.framesInFlight, movieBase: movieBase) { index, canvas in
                try Self.drawClipFrame(clip, index: index, movieBase: movieBase, rate: rate, background: background, on: canvas, session: session)
            }
            let base = frameCount
            let last = try scheduler.run(canvases: canvases) { committed in
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

    /// Draws frame `index` of `clip` (movie frame `movieBase + index`) on `canvas`, cleared to
    /// `background` first: how every clip frame is drawn, by the scheduler's lanes and by a preview.
    private static func drawClipFrame(_ clip: Clip, index: Int, movieBase: Int, rate: FrameRate, background: Color,
                                      on canvas: Canvas, session: RenderSession) throws {
        let frame = Frame(index: index, movieIndex: movieBase + index, rate: rate, exactTime: rate.time(ofFrame: index), duration: clip.duration)
        try canvas.draw { ctx in
            ctx.clear(background)
            try RenderSession.$current.withValue(session) {
                try clip.render(in: ctx, at: frame, session: session)
            }
        }
    }

    /// `add(_:frames:withSound:)` in a studio preview: counts the frames, draws only those captured
    /// (and the clip's last when a later frame is captured, since a serial frame may build on it), each
    /// exactly as the clip scheduler draws it, on one canvas.
    private func addPreview(_ clip: Clip, frames: Range<Int>, withSound: Bool, preview: PreviewCapture) throws {
        let rangeStart = frameRate.time(ofFrame: frames.lowerBound)
        if withSound, clip.sounds.contains(where: { $0.limited(from: rangeStart, until: nil).isHeard }) { preview.hasSound = true }
        let count = frames.count
        guard count > 0 else { return }
        if expectedFrameCount == nil || expectedFrameCount! < frameCount + count { expectedFrameCount = frameCount + count }
        let movieBase = frameCount - frames.lowerBound
        var indices = preview.wanted(in: frameCount..<(frameCount + count)).map { $0 - movieBase }
        let keepLast = preview.wantsAny(after: frameCount + count - 1)
        if keepLast, indices.last != frames.upperBound - 1 { indices.append(frames.upperBound - 1) }
        // The run that only counts opens the media too, so a missing photo shows as a real render would show it.
        if !indices.isEmpty || preview.wanted.isEmpty {
            do {
                if startTime == nil { startTime = Date() }
                let session = try RenderSession(opening: clip, width: width, height: height, cancellation: cancellation,
                                                videoDecoderLimit: settings.videoDecoderLimit, drawingThreads: 1)
                defer {
                    session.close()
                    videoDecoderPeak = max(videoDecoderPeak, session.videoPool.peakOpenCount)
                }
                let canvas = try Canvas(width: width, height: height, encodedWidth: encodedWidth, encodedHeight: encodedHeight)
                let background = self.background, rate = frameRate
                for index in indices {
                    if cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
                    try Self.drawClipFrame(clip, index: index, movieBase: movieBase, rate: rate, background: background, on: canvas, session: session)
                    if preview.wants(movieBase + index) { try preview.capture(canvas.pixels(), index: movieBase + index) }
                    if keepLast && index == frames.upperBound - 1 { try drawingBuffer().surface.copyPixels(from: canvas.surface) }
                }
            } catch {
                fail(error)
                throw error
            }
        }
        frameCount += count
        reportProgress()
    }

    /// The codec the sound track is (or would be) encoded with, from the container; nil for a PNG sequence.
    public var audioCodec: AudioCodec? { try? container.audioCodec() }
    /// Whether the movie has a sound track (given `audioSettings`, or after the first `addAudio`).
    public var hasAudio: Bool { output.map { $0.encoder.audio != nil } ?? preview?.hasSound ?? false }

    /// Adds `source` to the sound track, playing from `time` (movie time) until its end or the
    /// movie's. Sounds added more than once, or overlapping, are summed (and clamped to ±1).
    ///
    /// The source's reader is opened now, so a broken file fails here, before any frame is drawn;
    /// then the call throws and changes nothing. The first call creates the sound track (unless
    /// `audioSettings` was given to init) and must come before the first frame
    /// (`.audioAfterFirstFrame`). Sound is encoded a little behind the video (by the longest
    /// `endFadeDuration` of the sounds, at least 0.1 s), so after frames have been drawn a sound may
    /// start up to that much before the movie's current end, not earlier (`.audioTooLate`). Throws
    /// `.audioUnsupported` for a PNG sequence, and `.encoderUnavailable` when the codec is missing.
    public func addAudio(_ source: any AudioSource, at time: Time = .zero) throws(MovieMakerError) {
        try checkOpen()
        let audioCodec = try container.audioCodec()
        guard time >= .zero else {
            throw .invalidSetting(.soundStartTime, value: "\(time)", expected: "0 or later (movie time)")
        }
        if !hasAudio && frameCount > 0 { throw .audioAfterFirstFrame(framesDrawn: frameCount) }
        let format = audioSettings.format
        guard let output else {
            // A studio preview: the reader is opened (a broken file fails as in a render), nothing is encoded.
            if !hasAudio { try audioSettings.validate(for: audioCodec) }
            _ = try VideoEncoder.openReader(source, format: format)
            preview?.hasSound = true
            return
        }
        let encoder = output.encoder
        let start = format.frame(at: time)
        if let audio = encoder.audio, frameCount > 0 {
            // Audio already written reaches at most the submitted video's end minus the lag in force
            // (whatever the encoder thread has got to), so this test does not depend on timing.
            let earliest = format.frame(at: frameRate.time(ofFrame: frameCount)) - audio.sources.lag
            if start < earliest { throw .audioTooLate(start: time, earliest: format.time(ofFrame: earliest)) }
        }
        if encoder.audio == nil { try audioSettings.validate(for: audioCodec) }
        let reader = try VideoEncoder.openReader(source, format: format)
        // Before the first frame the encoder thread has not touched the encoder yet: the stream can be added.
        let audio: AudioEncoder
        if let existing = encoder.audio { audio = existing } else { audio = try encoder.addAudio(codec: audioCodec, settings: audioSettings) }
        audio.sources.add(reader, start: start, duration: source.duration.map { format.frame(at: $0) },
                          endFade: format.frame(at: source.endFadeDuration))
    }

    /// A copy of the pixel buffer as it is now (what the next frame starts from).
    public func currentPixels() -> PixelBuffer {
        if let pixelBuffer { return PixelBuffer(surface: pixelBuffer.surface, width: width, height: height) }
        if let pixelBufferStart { return PixelBuffer(surface: pixelBufferStart.surface, width: width, height: height) }
        // No frame drawn yet: the background (premultiplied BGRA).
        let pixel: [UInt8] = background.alpha > 0 ? [0, 0, 0, 255] : [0, 0, 0, 0]
        return PixelBuffer(width: width, height: height, bytes: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
    }

    /// Converts a drawn surface (the pixel buffer or a clip canvas) into a pooled frame and queues it.
    private func encode(_ surface: CairoSurface) throws(MovieMakerError) {
        if startTime == nil { startTime = Date() }
        guard let output else {
            // A studio preview: the frame is counted, and captured if asked for.
            if let preview, preview.wants(frameCount) { try preview.capture(currentPixels(), index: frameCount) }
            frameCount += 1
            return
        }
        let encoder = output.encoder, pipeline = output.pipeline, converter = output.converter
        // The header goes out once the streams are known: before the first frame, on this thread
        // (the encoder thread has nothing to do until a frame is submitted).
        if frameCount == 0 { try encoder.writeHeader() }
        if !convertsSerialFramesOnCallingThread {
            // Copied aside and converted on the conversion thread while the next frame is drawn.
            if serialConversion == nil {
                serialConversion = try SerialConversion(pipeline: pipeline, converter: converter, width: surface.width, height: surface.height,
                                                        delayForTests: serialConversionDelayForTests)
            }
            try serialConversion!.submit(copying: surface, pts: Int64(frameCount))
            frameCount += 1
            return
        }
        try pipeline.submitConverted(surface, with: converter, pts: Int64(frameCount))
        frameCount += 1
    }

    private func reportProgress() {
        if let renderHook, Date().timeIntervalSince(hookProgressWritten) >= 0.1 { writeHookProgress(renderHook) }
        guard let handler = progressHandler else { return }
        handler(RenderProgress(framesEncoded: output?.pipeline.framesEncoded ?? frameCount, framesAdded: frameCount,
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
        guard let output else { return try finishPreview() }
        do throws(MovieMakerError) {
            try serialConversion?.finish()
            try output.pipeline.finish()
            if container == .pngSequence {
                try moveSequenceIntoPlace()
            } else if rename(temporaryURL.path, url.path) != 0 {
                // rename(2) replaces the destination atomically: readers see the old file or the new one.
                throw .destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporaryURL)
            PartialFiles.unregister(temporaryURL)
            state = .failed(error)
            throw error
        }
        PartialFiles.unregister(temporaryURL)
        state = .finished
        if let renderHook {
            writeHookProgress(renderHook)
            try? renderHook.writeMovie(hookMovie(path: url.path, hasSound: hasAudio))
        }
        if let handler = progressHandler {
            handler(RenderProgress(framesEncoded: frameCount, framesAdded: frameCount, totalFrames: frameCount,
                                   elapsed: startTime.map { Date().timeIntervalSince($0) } ?? 0))
        }
        let size = container == .pngSequence ? Self.totalFileSize(in: url) : (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return MovieSummary(url: url, width: width, height: height, frameCount: frameCount, frameRate: frameRate,
                            duration: frameRate.time(ofFrame: frameCount), fileSize: size,
                            renderSeconds: startTime.map { Date().timeIntervalSince($0) } ?? 0)
    }

    /// `finish()` in a studio preview: writes `movie.json` for the first movie; nothing else is written.
    private func finishPreview() throws(MovieMakerError) -> MovieSummary {
        if let preview, preview.isFirst {
            do throws(MovieMakerError) {
                try preview.hook.writeMovie(hookMovie(path: url.path, hasSound: preview.hasSound))
            } catch {
                state = .failed(error)
                throw error
            }
        }
        state = .finished
        if let handler = progressHandler {
            handler(RenderProgress(framesEncoded: frameCount, framesAdded: frameCount, totalFrames: frameCount,
                                   elapsed: startTime.map { Date().timeIntervalSince($0) } ?? 0))
        }
        return MovieSummary(url: url, width: width, height: height, frameCount: frameCount, frameRate: frameRate,
                            duration: frameRate.time(ofFrame: frameCount), fileSize: 0,
                            renderSeconds: startTime.map { Date().timeIntervalSince($0) } ?? 0)
    }

    /// What `movie.json` says of this movie.
    private func hookMovie(path: String, hasSound: Bool) -> StudioHook.MovieFile {
        StudioHook.MovieFile(width: width, height: height, fpsNumerator: frameRate.numerator, fpsDenominator: frameRate.denominator,
                             frameCount: frameCount, path: path, hasSound: hasSound, crf: settings.crf, preset: settings.preset.rawValue,
                             lossless: settings.lossless, transparent: settings.transparency)
    }

    /// Writes `progress` (`FRAMES TOTAL`) for the studio's render of this script; failures are ignored
    /// (progress is a courtesy, the movie is what matters).
    private func writeHookProgress(_ hook: StudioHook) {
        hookProgressWritten = Date()
        let encoded = output?.pipeline.framesEncoded ?? frameCount
        try? hook.write(Data("\(encoded) \(expectedFrameCount ?? 0)\n".utf8), to: "progress")
    }

    /// Moves the finished frame folder to `url`. rename(2) replaces an absent or empty folder atomically;
    /// a folder of earlier frames is moved aside first and deleted once the new one is in place.
    private func moveSequenceIntoPlace() throws(MovieMakerError) {
        try Self.checkReplaceableSequenceFolder(url)
        if rename(temporaryURL.path, url.path) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else {
            throw .destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        let aside = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).old-\(UUID().uuidString.prefix(8))")
        guard rename(url.path, aside.path) == 0 else {
            throw .destinationNotWritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        guard rename(temporaryURL.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(aside.path, url.path)
            throw .destinationNotWritable(path: url.path, reason: reason)
        }
        try? FileManager.default.removeItem(at: aside)
    }

    /// The bytes of every file directly in `folder`.
    private static func totalFileSize(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { sum, name in
            sum + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
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

    private func discard() {
        guard let output else { return }    // a studio preview has written nothing
        // The pipeline first: the conversion thread may be waiting in it for a free frame.
        output.pipeline.cancel()
        serialConversion?.cancel()
        try? FileManager.default.removeItem(at: temporaryURL)
        PartialFiles.unregister(temporaryURL)
    }
}

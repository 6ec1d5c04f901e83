internal import CFFmpeg
import Foundation

/// A movie written to a file: the partial file beside the destination, the encoder and muxer, the
/// bounded frame pipeline to the encoder's thread, the serial frames' conversion, and one drawing lane
/// (canvas and converter) per drawing thread for clips. Owns all of them; `finish` moves the file into
/// place, `discard` deletes it.
final class EncodingOutput: MovieOutput {
    private let destination: MovieDestination
    /// The partial file (or folder) the encoder writes.
    private let partial: URL
    /// The encoder and muxer (also used by `pipeline`'s thread; this thread touches it only before the
    /// first frame is submitted, to add the audio stream and write the header).
    private let encoder: any FrameEncoder
    /// The bounded queue of frames to the encoder's thread.
    private let pipeline: FramePipeline
    /// BGRA → the encoder's format (yuv420p, BT.709 limited range, by default), for serial frames.
    private let converter: FrameConverter
    private let width: Int, height: Int, encodedWidth: Int, encodedHeight: Int
    private let frameRate: FrameRate
    private let settings: EncoderSettings
    private let audioSettings: AudioSettings
    private let background: Color
    /// Converts serial frames on a thread of its own while the next is drawn; made with the first serial frame.
    private var serialConversion: SerialConversion?
    /// Converts serial frames on the calling thread instead (tests and the benchmark comparing the two).
    var convertsSerialFramesOnCallingThread = false
    /// A pause before each serial frame's conversion (tests: frames must stay in order however slow it is).
    var serialConversionDelayForTests: Duration = .zero
    /// The drawing lanes for clips, one per drawing thread, made on first use and kept for the movie.
    private var lanes: [DrawingLane<FrameConverter>] = []
    private(set) var statistics = RenderStatistics()

    /// Opens the encoder for `destination` (checked already): `audioSettings` given adds the sound
    /// track now; `resolvedAudioSettings` are used when a first sound adds it later.
    init(destination: MovieDestination, container: Container, width: Int, height: Int, encodedWidth: Int, encodedHeight: Int,
         fps: FrameRate, settings: EncoderSettings, audioSettings: AudioSettings?, resolvedAudioSettings: AudioSettings,
         background: Color) throws(MovieMakerError) {
        self.destination = destination
        self.width = width; self.height = height; self.encodedWidth = encodedWidth; self.encodedHeight = encodedHeight
        frameRate = fps; self.settings = settings; self.audioSettings = resolvedAudioSettings; self.background = background
        let (partial, encoderPath) = try destination.makePartial()
        self.partial = partial
        let encoder: any FrameEncoder, converter: FrameConverter
        do {
            let codec = try container.videoCodec(settings.codec, transparency: settings.transparency, fileExtension: destination.url.pathExtension)
            if codec.isAnimatedImage {
                encoder = try AnimatedImageEncoder(path: encoderPath, codec: codec, width: Int32(encodedWidth), height: Int32(encodedHeight),
                                                   rate: fps, settings: settings, destination: destination.url.path)
            } else {
                encoder = try VideoEncoder(path: encoderPath, container: container, width: Int32(encodedWidth), height: Int32(encodedHeight), rate: fps,
                                           settings: settings, destination: destination.url.path)
            }
            converter = try FrameConverter(width: encodedWidth, height: encodedHeight, format: encoder.framePixelFormat, alpha: settings.transparency)
            if let audioSettings { _ = try encoder.addAudio(codec: container.audioCodec(), settings: audioSettings) }
        } catch {
            destination.removePartial(partial)
            if error.code == .ffmpeg, let ff = error.underlying as? FFmpegError, ff.operation.hasPrefix("avio_open") {
                throw .destinationNotWritable(path: destination.folder.path, reason: ff.message)
            }
            throw error
        }
        self.encoder = encoder
        self.converter = converter
        do {
            pipeline = try FramePipeline(encoder: encoder, capacity: settings.bufferCount)
        } catch {
            destination.removePartial(partial)
            throw error
        }
    }

    var hasAudio: Bool { encoder.audio != nil }
    /// What an animated image's `maxFileSize` made it at, once finished (nil when it fitted as asked).
    var animatedImageFit: AnimatedImageFit? { (encoder as? AnimatedImageEncoder)?.fit }
    func setChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError) {
        guard destination.isHLS else { return try encoder.setChapters(chapters, end: end) }
        // HLS: the chapters as a WebVTT file beside the playlist, moved into place with it.
        try destination.writeHLSChapters(chapters, end: end, into: partial)
    }
    func setMetadata(_ key: String, _ value: String) { encoder.setMetadata(key, value) }
    func framesEncoded(added: Int) -> Int { pipeline.framesEncoded }
    var buffersAllocated: Int { pipeline.buffersAllocated }
    func setCancellation(_ token: CancellationToken?) { pipeline.cancellation = token }
    func wantsFrames(after index: Int) -> Bool { true }

    func takeSerialFrame(_ surface: CairoSurface, index: Int, pixels: () -> PixelBuffer) throws(MovieMakerError) {
        // The header goes out once the streams are known: before the first frame, on this thread
        // (the encoder thread has nothing to do until a frame is submitted).
        if index == 0 { try encoder.writeHeader() }
        if convertsSerialFramesOnCallingThread {
            try pipeline.submitConverted(surface, with: converter, pts: Int64(index))
            return
        }
        // Copied aside and converted on the conversion thread while the next frame is drawn.
        if serialConversion == nil {
            serialConversion = try SerialConversion(pipeline: pipeline, converter: converter, width: surface.width, height: surface.height,
                                                    delayForTests: serialConversionDelayForTests)
        }
        try serialConversion!.submit(copying: surface, pts: Int64(index))
    }

    func open(_ job: ClipFrames) throws -> ClipRender {
        // Like a sound that cannot be opened, media that cannot be opened throws here and changes nothing.
        let session = try RenderSession(opening: job.clip, width: width, height: height, cancellation: job.cancellation,
                                        videoDecoderLimit: settings.videoDecoderLimit,
                                        drawingThreads: min(settings.resolvedDrawingThreads, max(1, job.frames.count)))
        do {
            try job.placeSounds()
        } catch {
            session.close()
            throw error
        }
        return ClipRender(job: job, session: session)
    }

    func draw(_ render: ClipRender, progress: (Int) -> Void) throws -> Canvas? {
        let job = render.job
        guard let session = render.session, !job.frames.isEmpty else { return nil }
        // The header goes out once the streams are known, before the first frame is submitted.
        if job.firstMovieFrame == 0 { try encoder.writeHeader() }
        // Serial frames still being converted reach the encoder first.
        try serialConversion?.drain()
        let count = min(settings.resolvedDrawingThreads, job.frames.count)
        while lanes.count < count {
            lanes.append(DrawingLane(canvas: try Canvas(width: width, height: height, encodedWidth: encodedWidth, encodedHeight: encodedHeight),
                                     tool: try FrameConverter(width: encodedWidth, height: encodedHeight, format: encoder.framePixelFormat,
                                                              alpha: settings.transparency)))
        }
        let sink = try EncoderSink(pipeline: pipeline, firstPTS: Int64(job.movieBase), session: session)
        let clip = job.clip, background = self.background, rate = frameRate, movieBase = job.movieBase
        let repeats: (@Sendable (Int) -> Bool)? = settings.reusesUnchangedFrames ? { @Sendable index in clip.repeatsPreviousFrame(index, rate: rate) } : nil
        // Only when the canvas is the encoded size (an odd size padded for the encoder draws every frame).
        let (w, h) = (width, height)
        var showsVideo = false
        clip.forEachMediaLeaf { media in if media.videoKey != nil { showsVideo = true } }
        let passThrough: (@Sendable (Int) -> VideoPassThrough?)? = settings.passesVideoThrough && showsVideo && converter.takesVideoFrames
            && (width, height) == (encodedWidth, encodedHeight)
            ? { @Sendable index in clip.videoPassThrough(at: rate.time(ofFrame: index), width: w, height: h, rate: rate, session: session) } : nil
        let scheduler = FrameScheduler(frames: job.frames, sink: sink, cancellation: job.cancellation,
                                       inFlight: session.framesInFlight, movieBase: movieBase, repeatsPrevious: repeats,
                                       passThrough: passThrough) { index, canvas in
            try session.drawFrame(of: clip, index: index, movieBase: movieBase, rate: rate, background: background, on: canvas)
        }
        defer {
            statistics = statistics.merged(with: RenderStatistics(framesReused: scheduler.repeatedFrames,
                                                                  framesPassedThrough: scheduler.passedThroughFrames))
        }
        return try scheduler.run(lanes: Array(lanes.prefix(count)), progress: progress)
    }

    func close(_ render: ClipRender) {
        guard let session = render.session else { return }
        session.close()
        statistics = statistics.merged(with: session.statistics)
    }

    func addAudio(_ sounds: [(source: any AudioSource, time: Time)], frameCount: Int, codec: AudioCodec) throws(MovieMakerError) {
        guard !sounds.isEmpty else { return }
        let format = audioSettings.format
        // Every check before the first source is added, so a failure leaves the sound track as it was.
        if let audio = encoder.audio, frameCount > 0 {
            // Audio already written reaches at most the submitted video's end minus the lag in force
            // (whatever the encoder thread has got to), so this test does not depend on timing.
            let earliest = format.frame(at: frameRate.time(ofFrame: frameCount)) - audio.sources.lag
            if let early = sounds.first(where: { format.frame(at: $0.time) < earliest }) {
                throw .audioTooLate(start: early.time, earliest: format.time(ofFrame: earliest))
            }
        }
        if encoder.audio == nil { try audioSettings.validate(for: codec) }
        var readers: [any AudioReader] = []
        for sound in sounds { readers.append(try VideoEncoder.openReader(sound.source, format: format)) }    // a broken file fails here
        // Before the first frame the encoder thread has not touched the encoder yet: the stream can be added.
        let audio: AudioEncoder
        if let existing = encoder.audio { audio = existing } else { audio = try encoder.addAudio(codec: codec, settings: audioSettings) }
        let now = format.frame(at: frameRate.time(ofFrame: frameCount))
        for ((source, time), reader) in zip(sounds, readers) {
            let start = format.frame(at: time)
            // A sound that plays soon keeps the reader just opened to check it: opening a normalised mix
            // measures its whole loudness (several passes over every clip's sound), which must not run
            // twice, the second time on the encoder thread.
            audio.sources.add(source, start: start, duration: source.duration.map { format.frame(at: $0) },
                              endFade: format.frame(at: source.endFadeDuration),
                              reader: start < now + audio.sources.openAhead ? reader : nil)
        }
    }

    func finish(movieFile: () -> StudioHook.MovieFile) throws(MovieMakerError) -> Int {
        do throws(MovieMakerError) {
            try serialConversion?.finish()
            try pipeline.finish()
            // A cancellation during the encoder's last work leaves the destination as it was.
            if pipeline.cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
            try destination.moveIntoPlace(from: partial)
        } catch {
            // As discard(): a failed serial conversion leaves the encoder thread waiting for frames (it
            // would keep x264, the muxer and the open file, and could write into the file being removed).
            discard()
            throw error
        }
        return destination.writtenSize()
    }

    func discard() {
        // The pipeline first: the conversion thread may be waiting in it for a free frame.
        pipeline.cancel()
        serialConversion?.cancel()
        destination.removePartial(partial)
    }
}

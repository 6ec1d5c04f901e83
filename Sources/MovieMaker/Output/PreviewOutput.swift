import Foundation

/// The studio's preview of a script (see `StudioHook`): frames are counted, the ones asked for are drawn
/// and captured as PNG files, nothing is encoded and nothing is written at the destination or beside it.
/// Media and sounds are still opened, so a broken file shows as a real render would show it.
final class PreviewOutput: MovieOutput {
    private let capture: PreviewCapture
    private let width: Int, height: Int, encodedWidth: Int, encodedHeight: Int
    private let frameRate: FrameRate
    private let settings: EncoderSettings
    private let audioSettings: AudioSettings
    private let background: Color
    private(set) var statistics = RenderStatistics()

    /// A preview capturing with `capture`; `hasSound` when the movie was given audio settings.
    init(capture: PreviewCapture, hasSound: Bool, width: Int, height: Int, encodedWidth: Int, encodedHeight: Int,
         fps: FrameRate, settings: EncoderSettings, audioSettings: AudioSettings, background: Color) {
        self.capture = capture
        capture.hasSound = hasSound
        self.width = width; self.height = height; self.encodedWidth = encodedWidth; self.encodedHeight = encodedHeight
        frameRate = fps; self.settings = settings; self.audioSettings = audioSettings; self.background = background
    }

    var hasAudio: Bool { capture.hasSound }
    func framesEncoded(added: Int) -> Int { added }
    var buffersAllocated: Int { 0 }
    func setCancellation(_ token: CancellationToken?) {}
    func wantsFrames(after index: Int) -> Bool { capture.wantsAny(after: index) }

    func takeSerialFrame(_ surface: CairoSurface, index: Int, pixels: () -> PixelBuffer) throws(MovieMakerError) {
        if capture.wants(index) { try capture.capture(pixels(), index: index) }
    }

    /// Notes whether the clip has sound; its media is opened only when a frame is drawn (`draw`).
    func open(_ job: ClipFrames) throws -> ClipRender {
        let rangeStart = frameRate.time(ofFrame: job.frames.lowerBound)
        if job.withSound, job.clip.sounds.contains(where: { $0.limited(from: rangeStart, until: nil).isHeard }) { capture.hasSound = true }
        return ClipRender(job: job, session: nil)
    }

    /// Draws only the frames captured (and the clip's last when a later frame is captured, since a
    /// serial frame may build on it), one after another on this thread.
    func draw(_ render: ClipRender, progress: (Int) -> Void) throws -> Canvas? {
        let job = render.job, frames = job.frames, count = frames.count
        guard count > 0 else { return nil }
        let movieBase = job.movieBase
        var indices = capture.wanted(in: job.firstMovieFrame..<(job.firstMovieFrame + count)).map { $0 - movieBase }
        let keepLast = capture.wantsAny(after: job.firstMovieFrame + count - 1)
        if keepLast, indices.last != frames.upperBound - 1 { indices.append(frames.upperBound - 1) }
        var last: Canvas?
        // The run that only counts opens the media too, so a missing photo shows as a real render would show it.
        if !indices.isEmpty || capture.wanted.isEmpty {
            let session = try RenderSession(opening: job.clip, width: width, height: height, cancellation: job.cancellation,
                                            videoDecoderLimit: settings.videoDecoderLimit, drawingThreads: 1)
            defer {
                session.close()
                statistics = statistics.merged(with: session.statistics)
            }
            let canvas = try Canvas(width: width, height: height, encodedWidth: encodedWidth, encodedHeight: encodedHeight)
            for index in indices {
                if job.cancellation?.isCancelled == true { throw MovieMakerError.cancelled }
                try session.drawFrame(of: job.clip, index: index, movieBase: movieBase, rate: frameRate, background: background, on: canvas)
                if capture.wants(movieBase + index) { try capture.capture(canvas.pixels(), index: movieBase + index) }
                if keepLast && index == frames.upperBound - 1 { last = canvas }
            }
        }
        progress(count)
        return last
    }

    func close(_ render: ClipRender) {}

    /// Opens the sounds' readers (a broken file fails as in a render); nothing is encoded.
    func addAudio(_ sounds: [(source: any AudioSource, time: Time)], frameCount: Int, codec: AudioCodec) throws(MovieMakerError) {
        guard !sounds.isEmpty else { return }
        if !capture.hasSound { try audioSettings.validate(for: codec) }
        for sound in sounds { _ = try VideoEncoder.openReader(sound.source, format: audioSettings.format) }
        capture.hasSound = true
    }

    /// Writes `movie.json` for the process's first movie; nothing else is written.
    func finish(movieFile: () -> StudioHook.MovieFile) throws(MovieMakerError) -> Int {
        if capture.isFirst { try capture.hook.writeMovie(movieFile()) }
        return 0
    }

    func discard() {}
}

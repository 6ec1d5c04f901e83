import Foundation

/// Where a `MovieMaker`'s frames and sounds go, chosen once when the movie is made: a file
/// (`EncodingOutput`: encoded and muxed, written atomically) or the studio's preview of a script
/// (`PreviewOutput`: the frames asked for captured as PNG files, nothing encoded). `MovieMaker` keeps
/// the drawing, the frame count and the progress; the output takes what is drawn.
protocol MovieOutput: AnyObject {
    /// Whether the movie has a sound track (or, in a preview, would have one).
    var hasAudio: Bool { get }
    /// How many frames the encoder has taken, of `added` added so far.
    func framesEncoded(added: Int) -> Int
    /// The encoder frames allocated (statistics: they stay the same however long the movie).
    var buffersAllocated: Int { get }
    /// What this movie's clip renders waited for and opened (photo waits, the video decoder peak).
    var statistics: RenderStatistics { get }
    /// The token that stops the encoding when cancelled.
    func setCancellation(_ token: CancellationToken?)

    /// Whether any frame after movie frame `index` is wanted; when none is, later frames are counted,
    /// not drawn (a preview past the last frame it captures).
    func wantsFrames(after index: Int) -> Bool
    /// Takes serial frame `index`, drawn in `surface`; `pixels` copies the picture, when wanted.
    func takeSerialFrame(_ surface: CairoSurface, index: Int, pixels: () -> PixelBuffer) throws(MovieMakerError)
    /// Gets `job` ready to draw: opens what its frames need (a missing file throws here, before anything
    /// changes) and places its sounds.
    func open(_ job: ClipFrames) throws -> ClipRender
    /// Draws and takes the frames of `render`, calling `progress` on this thread with the number taken so
    /// far; returns the canvas holding the clip's last frame when it was drawn.
    func draw(_ render: ClipRender, progress: (Int) -> Void) throws -> Canvas?
    /// Releases what `open` opened.
    func close(_ render: ClipRender)
    /// Adds each source to the sound track from its movie time, `frameCount` frames having been added,
    /// encoded with `codec`: all of them, or (when one cannot be opened or comes too late) none.
    func addAudio(_ sounds: [(source: any AudioSource, time: Time)], frameCount: Int, codec: AudioCodec) throws(MovieMakerError)
    /// Finishes the movie, returning the bytes written; `movieFile` describes it for the studio.
    func finish(movieFile: () -> StudioHook.MovieFile) throws(MovieMakerError) -> Int
    /// Abandons the movie, leaving nothing behind.
    func discard()
    /// What an animated image's `maxFileSize` made it at, once finished (nil when it fitted as asked).
    var animatedImageFit: AnimatedImageFit? { get }
    /// Adds chapters (checked), the last ending at `end`; before the first frame.
    func setChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError)
    /// Sets a container metadata entry; before the first frame. Outputs that keep no metadata ignore it.
    func setMetadata(_ key: String, _ value: String)
}

extension MovieOutput {
    var animatedImageFit: AnimatedImageFit? { nil }
    func setChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError) {}
    func setMetadata(_ key: String, _ value: String) {}
}

/// Frames of a clip to add to a movie: `frames` (on the clip's own frame grid) becoming the movie's
/// frames from `firstMovieFrame`.
struct ClipFrames {
    /// The clip.
    let clip: Clip
    /// The clip's frames to draw.
    let frames: Range<Int>
    /// The movie frame the first of them becomes.
    let firstMovieFrame: Int
    /// Whether the clip's sounds join the movie's sound track.
    let withSound: Bool
    /// Stops the drawing when cancelled.
    let cancellation: CancellationToken?
    /// Places the clip's sounds on the movie (through `MovieMaker.addAudio`), once its media is open.
    let placeSounds: () throws -> Void

    /// The movie frame of the clip's frame 0.
    var movieBase: Int { firstMovieFrame - frames.lowerBound }
}

/// A clip opened for drawing: the job and the render session holding its media (nil when the output
/// opens it only as it draws).
final class ClipRender {
    /// What to draw.
    let job: ClipFrames
    /// The media the frames are drawn from.
    let session: RenderSession?

    /// `job`, with its media open in `session`.
    init(job: ClipFrames, session: RenderSession?) { self.job = job; self.session = session }
}

internal import CFFmpeg
import Foundation

/// What `FramePipeline` and `EncodingOutput` hand frames to: a movie's encoder and muxer
/// (`VideoEncoder`), or an animated image made from the frames once the movie ends
/// (`AnimatedImageEncoder`). Used by one thread at a time.
protocol FrameEncoder: AnyObject {
    /// The pixel format frames must be in (`makeFrame()` allocates it).
    var framePixelFormat: AVPixelFormat { get }
    /// The audio encoder, once a sound track was added.
    var audio: AudioEncoder? { get }
    /// A frame of the size and pixel format this encoder takes, for the pipeline's pool.
    func makeFrame() throws(MovieMakerError) -> OwnedFrame
    /// Opens an audio encoder and adds its stream; only before `writeHeader`.
    func addAudio(codec: AudioCodec, settings: AudioSettings) throws(MovieMakerError) -> AudioEncoder
    /// Adds chapters, each lasting to the next one's start and the last to `end`; before `writeHeader`.
    func setChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError)
    /// Sets a container metadata entry (MP4/MOV/Matroska tags); before `writeHeader`. Animated images
    /// keep none and ignore it.
    func setMetadata(_ key: String, _ value: String)
    /// Writes the container header, once, before the first frame.
    func writeHeader() throws(MovieMakerError)
    /// Takes one frame (nil drains the encoder).
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError)
    /// Finishes the file: drains, writes the trailer, closes it. Long final passes (an animated
    /// image's palettes and encoding) stop with `.cancelled` once `cancellation` is cancelled.
    func finish(cancellation: CancellationToken?) throws(MovieMakerError)
}

extension VideoEncoder: FrameEncoder {
    // Draining x264's lookahead is short next to the render: the caller checks the token after it.
    func finish(cancellation: CancellationToken?) throws(MovieMakerError) { try finish() }
}

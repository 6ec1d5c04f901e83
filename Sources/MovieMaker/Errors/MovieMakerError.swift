import Foundation

/// Everything that can go wrong making a movie, each case naming the bad value and how to fix it.
public enum MovieMakerError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Width or height is zero or negative.
    case invalidSize(width: Int, height: Int)
    /// Width or height is odd, which 4:2:0 chroma subsampling cannot encode.
    case oddSize(width: Int, height: Int)
    /// The frame is larger than H.264 (level 6.2) can encode.
    case sizeTooLarge(width: Int, height: Int, maxSide: Int, maxPixels: Int)
    /// The frame rate is zero, negative or not a number.
    case invalidFrameRate(String)
    /// An encoding setting is out of range.
    case invalidSetting(name: String, value: String, expected: String)
    /// The folder the movie should be written into does not exist.
    case destinationFolderMissing(path: String)
    /// The destination folder exists but a file cannot be created there.
    case destinationNotWritable(path: String, reason: String)
    /// The destination's extension names no container MovieMaker writes.
    case unsupportedContainer(extension: String, supported: [String])
    /// The named encoder is not in this FFmpeg build.
    case encoderUnavailable(name: String)
    /// A frame was added after `finish()`.
    case frameAfterFinish
    /// `finish()` was called a second time.
    case alreadyFinished
    /// `finish()` was called before any frame was added.
    case noFrames
    /// The movie failed earlier (see the error it threw then) and accepts no more work.
    case failedEarlier(String)
    /// Cairo reported an error.
    case cairo(operation: String, message: String)
    /// An FFmpeg call failed with its own error code and message.
    case ffmpeg(operation: String, code: Int32, message: String)
    /// An image file could not be read.
    case imageUnreadable(path: String, reason: String)
    /// A font file could not be loaded.
    case fontUnreadable(path: String, reason: String)
    /// A movie file could not be opened or decoded.
    case movieUnreadable(path: String, reason: String)
    /// A text's font family is not installed (no silent fallback to another family).
    case fontNotFound(family: String, closest: [String])
    /// Text marked as Pango markup could not be parsed.
    case invalidMarkup(markup: String, reason: String)
    /// A transparent movie was asked for in a container whose codec has no alpha channel (H.264 MP4).
    case transparencyUnsupported(extension: String)
    /// SVG path data could not be parsed: the data, the 0-based character position of the problem, and what is wrong.
    case invalidPathData(String, position: Int, reason: String)
    /// A file expected to be a photo holds no image data MovieMaker recognises (e.g. a text file named `.jpg`).
    case notAnImage(path: String, reason: String)
    /// An audio file (or a movie's sound) could not be opened or decoded.
    case audioUnreadable(path: String, reason: String)
    /// A file has no audio stream.
    case noAudioStream(path: String)
    /// An audio file's codec has no decoder here.
    case unsupportedAudioCodec(path: String, codec: String)
    /// A slideshow has nothing to show (an empty folder, no photos, or none readable).
    case noPhotos(source: String, reason: String)
    /// Sound was added to output that has no sound track (a PNG sequence).
    case audioUnsupported(container: String)
    /// The first sound was added after frames were drawn; the sound track is created before the first frame.
    case audioAfterFirstFrame(framesDrawn: Int)
    /// A sound was placed before `earliest`, up to where the sound track may already have been written.
    case audioTooLate(start: Time, earliest: Time)
    /// The render was cancelled (`CancellationToken.cancel()`, or SIGINT/SIGTERM in the `moviemaker` tool).
    case cancelled
    /// A value cannot be written as data (`Encodable`): a closure, an in-memory picture, a sound made by code.
    case notEncodable(what: String, reason: String)

    /// A one-line explanation that says what to change.
    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            return "invalid frame size \(w)×\(h): width and height must both be at least 2 pixels"
        case let .oddSize(w, h):
            return "frame size \(w)×\(h) has an odd side: H.264 in yuv420p stores colour at half resolution (4:2:0), so width and height must be even; use \(w + w % 2)×\(h + h % 2), or pass oddSizePolicy: .pad to pad the frame"
        case let .sizeTooLarge(w, h, maxSide, maxPixels):
            return "frame size \(w)×\(h) is too large for H.264: each side must be at most \(maxSide) and the area at most \(maxPixels) pixels (level 6.2)"
        case let .invalidFrameRate(v):
            return "invalid frame rate \(v): it must be a positive number of frames per second, e.g. 30 or 30000/1001"
        case let .invalidSetting(name, value, expected):
            return "invalid \(name) \(value): expected \(expected)"
        case let .destinationFolderMissing(path):
            return "the folder \(path) does not exist: create it first or choose another destination"
        case let .destinationNotWritable(path, reason):
            return "cannot write into \(path) (\(reason)): choose a folder you can write to"
        case let .unsupportedContainer(ext, supported):
            let shown = ext.isEmpty ? "no extension" : "unknown extension .\(ext)"
            return "\(shown): end the file name with one of \(supported.map { "." + $0 }.joined(separator: ", "))"
        case let .encoderUnavailable(name):
            return "the encoder \(name) is not available in this FFmpeg build: install libavcodec with \(name) (Debian: libavcodec-extra or libavcodec59 built with libx264)"
        case .frameAfterFinish:
            return "a frame was added after finish(): the movie is already written; create a new MovieMaker for more frames"
        case .alreadyFinished:
            return "finish() was called twice: the movie was already written by the first call"
        case .noFrames:
            return "finish() was called before any frame was added: a movie needs at least one frame; nothing was written"
        case let .failedEarlier(message):
            return "the movie failed earlier and was discarded: \(message)"
        case let .cairo(op, message):
            return "Cairo failed in \(op): \(message)"
        case let .ffmpeg(op, code, message):
            return "FFmpeg failed in \(op): \(message) (error \(code))"
        case let .imageUnreadable(path, reason):
            return "cannot read the image \(path): \(reason)"
        case let .fontUnreadable(path, reason):
            return "cannot load the font \(path): \(reason)"
        case let .movieUnreadable(path, reason):
            return "cannot read the movie \(path): \(reason)"
        case let .fontNotFound(family, closest):
            let suggestion = closest.isEmpty ? "" : "; closest installed: \(closest.joined(separator: ", "))"
            return "font \"\(family)\" is not installed\(suggestion) (list all with fc-list : family)"
        case let .invalidMarkup(markup, reason):
            return "invalid Pango markup \"\(markup)\": \(reason); escape & < > as &amp; &lt; &gt;, or set isMarkup to false for plain text"
        case let .transparencyUnsupported(ext):
            return "H.264 MP4 (.\(ext)) has no alpha channel: for a transparent movie use .mov (ProRes 4444) or .webm (VP9 with alpha), or MovieMaker(pngSequenceIn:) for PNG frames; or turn transparency off"
        case let .invalidPathData(data, position, reason):
            let chars = Array(data)
            let lo = max(0, position - 20), hi = min(chars.count, position + 20)
            let before = (lo > 0 ? "…" : "") + String(chars[lo..<min(max(position, lo), hi)])
            let after = String(chars[min(max(position, lo), hi)..<hi]) + (hi < chars.count ? "…" : "")
            return "invalid SVG path data at position \(position): \(reason) (in \"\(before)⟨here⟩\(after)\"); path data is commands M L H V C S Q T A Z (lowercase for relative) each followed by numbers separated by spaces or commas, e.g. \"M10 10 L50 10 Z\""
        case let .notAnImage(path, reason):
            return "\(path) is not an image: \(reason); MovieMaker reads JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF, BMP and GIF (recognised by content, not by name): remove the file from the folder or replace it with a photo"
        case let .audioUnreadable(path, reason):
            return "cannot read the sound in \(path): \(reason); check that the file exists and plays (MovieMaker reads MP3, AAC/M4A, Ogg Vorbis, Opus, FLAC, WAV and the sound of video files)"
        case let .noAudioStream(path):
            return "\(path) has no audio stream; give a sound file (MP3, AAC/M4A, Ogg, Opus, FLAC, WAV) or a video that has sound"
        case let .unsupportedAudioCodec(path, codec):
            return "the sound in \(path) is encoded as \(codec), which this FFmpeg cannot decode; convert it to FLAC, WAV, MP3 or AAC"
        case let .noPhotos(source, reason):
            return "no photos to show from \(source): \(reason); give a folder or files with photos (JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF, BMP, GIF)"
        case let .audioUnsupported(container):
            return "\(container) has no sound track: write a movie file (.mp4, .m4v, .mov, .mkv or .webm) to add sound, or save the sound separately"
        case let .audioAfterFirstFrame(framesDrawn):
            return "the first sound was added after \(framesDrawn) frames were drawn, but the sound track is created before the first frame: call addAudio before drawing (placing the sound later with at:), or pass audioSettings: to MovieMaker's init to create the track up front"
        case let .audioTooLate(start, earliest):
            return "a sound placed at \(start.seconds) s starts before \(earliest.seconds) s, up to where the sound track may already be written: add each sound before drawing the frames it plays under"
        case .cancelled:
            return "the render was cancelled: its partial file was deleted and nothing at the destination was changed"
        case let .notEncodable(what, reason):
            return "\(what) cannot be written as data: \(reason)"
        }
    }
    /// Same as `description`, for Foundation's error reporting.
    public var errorDescription: String? { description }
}

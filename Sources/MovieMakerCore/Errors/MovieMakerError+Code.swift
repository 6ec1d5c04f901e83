extension MovieMakerError {
    /// What kind of error this is: a stable name to branch on.
    ///
    /// New codes may be added in any release, so a `switch` over codes needs a `default:`, and adding
    /// one breaks no caller:
    ///
    /// <!-- prelude: let error = MovieMakerError.cancelled; let (w, h) = (641, 361); func retry(width: Int, height: Int) {}; func report(_ error: Error) {} -->
    /// ```swift
    /// switch error.code {
    /// case .oddSize: retry(width: w + 1, height: h + 1)
    /// case .cancelled: break
    /// default: report(error)
    /// }
    /// ```
    public struct Code: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
        /// The code's stable name, e.g. `"oddSize"`; the same as the `static let` that declares it.
        public let rawValue: String

        /// The code named `rawValue`; any name is accepted, so codes this release does not know round-trip.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name (`rawValue`).
        public var description: String { rawValue }

        /// Width or height is zero or negative.
        public static let invalidSize = Code(rawValue: "invalidSize")
        /// Width or height is odd, which 4:2:0 chroma subsampling cannot encode.
        public static let oddSize = Code(rawValue: "oddSize")
        /// The frame is larger than H.264 (level 6.2) can encode.
        public static let sizeTooLarge = Code(rawValue: "sizeTooLarge")
        /// The frame rate is zero, negative or not a number.
        public static let invalidFrameRate = Code(rawValue: "invalidFrameRate")
        /// A setting is out of range (`setting` names it; `value` and `expected` say more).
        public static let invalidSetting = Code(rawValue: "invalidSetting")
        /// The folder the movie should be written into does not exist.
        public static let destinationFolderMissing = Code(rawValue: "destinationFolderMissing")
        /// The destination folder exists but a file cannot be created there.
        public static let destinationNotWritable = Code(rawValue: "destinationNotWritable")
        /// The destination's extension names no container MovieMaker writes.
        public static let unsupportedContainer = Code(rawValue: "unsupportedContainer")
        /// The named encoder is not in this FFmpeg build.
        public static let encoderUnavailable = Code(rawValue: "encoderUnavailable")
        /// A frame was added after `finish()`.
        public static let frameAfterFinish = Code(rawValue: "frameAfterFinish")
        /// `finish()` was called a second time.
        public static let alreadyFinished = Code(rawValue: "alreadyFinished")
        /// `finish()` was called before any frame was added.
        public static let noFrames = Code(rawValue: "noFrames")
        /// The movie failed earlier (its `underlying` error, when known) and accepts no more work.
        public static let failedEarlier = Code(rawValue: "failedEarlier")
        /// Cairo reported an error.
        public static let cairo = Code(rawValue: "cairo")
        /// An FFmpeg call failed (its `underlying` error is an `FFmpegError`).
        public static let ffmpeg = Code(rawValue: "ffmpeg")
        /// An image file could not be read.
        public static let imageUnreadable = Code(rawValue: "imageUnreadable")
        /// A font file could not be loaded.
        public static let fontUnreadable = Code(rawValue: "fontUnreadable")
        /// A movie file could not be opened or decoded.
        public static let movieUnreadable = Code(rawValue: "movieUnreadable")
        /// A text's font family is not installed (no silent fallback to another family).
        public static let fontNotFound = Code(rawValue: "fontNotFound")
        /// Text marked as Pango markup could not be parsed.
        public static let invalidMarkup = Code(rawValue: "invalidMarkup")
        /// A transparent movie was asked for in a container whose codec has no alpha channel (H.264 MP4).
        public static let transparencyUnsupported = Code(rawValue: "transparencyUnsupported")
        /// SVG path data could not be parsed.
        public static let invalidPathData = Code(rawValue: "invalidPathData")
        /// A file expected to be a photo holds no image data MovieMaker recognises.
        public static let notAnImage = Code(rawValue: "notAnImage")
        /// An audio file (or a movie's sound) could not be opened or decoded.
        public static let audioUnreadable = Code(rawValue: "audioUnreadable")
        /// A file has no audio stream.
        public static let noAudioStream = Code(rawValue: "noAudioStream")
        /// An audio file's codec has no decoder here.
        public static let unsupportedAudioCodec = Code(rawValue: "unsupportedAudioCodec")
        /// A slideshow has nothing to show (an empty folder, no photos, or none readable).
        public static let noPhotos = Code(rawValue: "noPhotos")
        /// Sound was added to output that has no sound track (a PNG sequence).
        public static let audioUnsupported = Code(rawValue: "audioUnsupported")
        /// The first sound was added after frames were drawn.
        public static let audioAfterFirstFrame = Code(rawValue: "audioAfterFirstFrame")
        /// A sound was placed before the point up to where the sound track may already have been written.
        public static let audioTooLate = Code(rawValue: "audioTooLate")
        /// The render was cancelled (`CancellationToken.cancel()`, or SIGINT/SIGTERM in the `moviemaker` tool); after
        /// `MovieMaker.cancel()` it is the code of `.failedEarlier`'s underlying error.
        public static let cancelled = Code(rawValue: "cancelled")
        /// A value cannot be written as data (`Encodable`).
        public static let notEncodable = Code(rawValue: "notEncodable")
        /// A movie file ends before its index says it does (a copy or download cut short).
        public static let movieTruncated = Code(rawValue: "movieTruncated")
        /// A file used as a video has no video stream (e.g. a sound file).
        public static let noVideoStream = Code(rawValue: "noVideoStream")
        /// A video stream MovieMaker cannot show faithfully (HDR, no decoder for its codec).
        public static let videoUnsupported = Code(rawValue: "videoUnsupported")
        /// A composition needs more video decoders open at once than the render allows.
        public static let videoDecoderLimit = Code(rawValue: "videoDecoderLimit")
        /// A description file (`Timeline`), an OpenTimelineIO file or a template's slot value is not valid:
        /// the error's `location.jsonPath` says where, its message what was found and what is expected.
        public static let invalidDescription = Code(rawValue: "invalidDescription")
        /// A subtitle file (SRT or WebVTT) cannot be read, is too large, or is malformed (the message and
        /// `position` give the line number).
        public static let invalidSubtitles = Code(rawValue: "invalidSubtitles")

        /// An image (a sticker) is too large to decode: its canvas is beyond the side limit, or its decoded
        /// frames would take more memory than allowed; the error's `value` names the limit.
        public static let imageTooLarge = Code(rawValue: "imageTooLarge")

        /// A 3D LUT (`.cube` file) could not be read or is malformed: the error names the file and the line.
        public static let lutUnreadable = Code(rawValue: "lutUnreadable")

        /// Assembling a chunked render found chunks missing from the chunk folder: the message names each
        /// (its index and frames) and the folder; `value` lists them.
        public static let chunksMissing = Code(rawValue: "chunksMissing")

        /// A chunk file cannot be joined to the others: it is unreadable, holds a different frame count than
        /// its name says, or was encoded differently (another codec, size or encoder header).
        public static let chunkMismatch = Code(rawValue: "chunkMismatch")

        /// A captions sidecar file (`captions.csv`, `captions.txt`) cannot be read or has a malformed line
        /// (`position` is the line number, `value` the line).
        public static let invalidCaptions = Code(rawValue: "invalidCaptions")
        /// The speech recogniser's model (PocketSphinx's en-us, from pocketsphinx-en-us) is missing.
        public static let speechModelMissing = Code(rawValue: "speechModelMissing")
        /// A template batch's rows file (CSV or JSON Lines) cannot be read, or a row or column is malformed
        /// (`position` is the line number).
        public static let invalidBatch = Code(rawValue: "invalidBatch")
        /// A Lottie animation cannot be read or drawn: missing, not Lottie JSON, a feature rlottie does
        /// not draw (text layers), or a `colors` entry naming a layer it does not have.
        public static let animationUnreadable = Code(rawValue: "animationUnreadable")
        /// A chart's data (a CSV table) cannot be read or has a malformed cell (`position` is the line;
        /// the message names the column).
        public static let invalidData = Code(rawValue: "invalidData")
        /// A video analysis cannot run: reframing's face model (OpenCV's cascade, from opencv-data) is
        /// missing or cannot be loaded, or OpenCV failed; the message says how to fix it.
        public static let analysisUnavailable = Code(rawValue: "analysisUnavailable")

        /// Every code this release throws, in declaration order.
        package static let all: [Code] = [
            .invalidSize, .oddSize, .sizeTooLarge, .invalidFrameRate, .invalidSetting, .destinationFolderMissing,
            .destinationNotWritable, .unsupportedContainer, .encoderUnavailable, .frameAfterFinish, .alreadyFinished,
            .noFrames, .failedEarlier, .cairo, .ffmpeg, .imageUnreadable, .fontUnreadable, .movieUnreadable,
            .fontNotFound, .invalidMarkup, .transparencyUnsupported, .invalidPathData, .notAnImage, .audioUnreadable,
            .noAudioStream, .unsupportedAudioCodec, .noPhotos, .audioUnsupported, .audioAfterFirstFrame, .audioTooLate,
            .cancelled, .notEncodable, .movieTruncated, .noVideoStream, .videoUnsupported, .videoDecoderLimit,
            .invalidDescription, .imageTooLarge, .invalidSubtitles, .lutUnreadable, .chunksMissing, .chunkMismatch,
            .invalidCaptions, .speechModelMissing, .invalidBatch, .animationUnreadable, .invalidData,
            .analysisUnavailable,
        ]
    }
}

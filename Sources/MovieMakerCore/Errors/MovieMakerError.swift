import Foundation

/// Everything that can go wrong making a movie: what kind of error (`code`), a one-line `message` that
/// names the bad value and how to fix it, and where there is one, the file or description entry it is
/// about (`location`), the error underneath (`underlying`) and the setting at fault (`setting`).
///
/// A struct, not an enum, so that new kinds of error can be added without breaking anyone's `switch`:
/// branch on `code` with a `default:`. Errors are made with one static function per kind, e.g.
/// `throw .oddSize(width: 321, height: 241)`, and compare equal when their code, message, location and
/// setting are equal.
public struct MovieMakerError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Where an error was found: the file it is about, and the entry of a description file.
    public struct Location: Hashable, Sendable {
        /// The file (or folder) the error is about, e.g. the photo that could not be read.
        public var file: String?
        /// The entry of a JSON description that is at fault, e.g. `"tracks[1].items[4].duration"`.
        public var jsonPath: String?

        /// A location in `file` and/or at `jsonPath`.
        public init(file: String? = nil, jsonPath: String? = nil) {
            self.file = file
            self.jsonPath = jsonPath
        }
    }

    /// What kind of error this is; branch on it (with a `default:`, as codes may be added).
    public let code: Code
    /// The one-line explanation that says what to change (without the JSON path; see `description`).
    public let message: String
    /// The file and/or description entry the error is about, when known.
    public private(set) var location: Location?
    /// The error underneath: an `FFmpegError` for `.ffmpeg`, the first error for `.failedEarlier`.
    public let underlying: (any Error & Sendable)?
    /// The setting at fault, for `.invalidSetting`.
    public let setting: SettingKey?
    /// Why the operation failed, where the error gives a reason (`.imageUnreadable`, `.notAnImage`,
    /// `.audioUnreadable`, `.destinationNotWritable`, `.invalidPathData`, …).
    public let reason: String?
    /// The value at fault, as text: an invalid setting's value, the frame rate, the SVG path data, the
    /// markup, the font family, the audio codec, the file extension, the encoder's name, …
    public let value: String?
    /// What an invalid setting accepts, for `.invalidSetting`.
    public let expected: String?
    /// The 0-based character position of the problem in `value`, for `.invalidPathData`; the 1-based line
    /// number, for `.invalidSubtitles`.
    public let position: Int?

    /// An error with the given parts; MovieMaker's own errors are made by the static functions
    /// (`.oddSize(width:height:)`, …), which write the message.
    public init(code: Code, message: String, location: Location? = nil, underlying: (any Error & Sendable)? = nil,
                setting: SettingKey? = nil, reason: String? = nil, value: String? = nil, expected: String? = nil,
                position: Int? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.underlying = underlying
        self.setting = setting
        self.reason = reason
        self.value = value
        self.expected = expected
        self.position = position
    }

    /// `message`, prefixed with the JSON path when there is one: `"tracks[1].duration: invalid …"`.
    public var description: String {
        guard let jsonPath = location?.jsonPath else { return message }
        return "\(jsonPath): \(message)"
    }
    /// Same as `description`, for Foundation's error reporting.
    public var errorDescription: String? { description }

    /// This error, about `file`.
    package func located(file: String) -> MovieMakerError {
        var copy = self
        copy.location = Location(file: file, jsonPath: location?.jsonPath)
        return copy
    }

    /// This error, found at `jsonPath` of a description (e.g. `"tracks[1].items[4].duration"`).
    package func located(jsonPath: String) -> MovieMakerError {
        var copy = self
        copy.location = Location(file: location?.file, jsonPath: jsonPath)
        return copy
    }

    /// Equal when code, message, location and setting are (the underlying error is not compared).
    public static func == (a: MovieMakerError, b: MovieMakerError) -> Bool {
        a.code == b.code && a.message == b.message && a.location == b.location && a.setting == b.setting
    }
}

extension MovieMakerError {
    /// Width or height is zero or negative.
    package static func invalidSize(width w: Int, height h: Int) -> MovieMakerError {
        MovieMakerError(code: .invalidSize, message: "invalid frame size \(w)×\(h): width and height must both be at least 2 pixels")
    }

    /// Width or height is odd, which 4:2:0 chroma subsampling cannot encode.
    package static func oddSize(width w: Int, height h: Int) -> MovieMakerError {
        MovieMakerError(code: .oddSize, message: "frame size \(w)×\(h) has an odd side: H.264 in yuv420p stores colour at half resolution (4:2:0), so width and height must be even; use \(w + w % 2)×\(h + h % 2), or pass oddSizePolicy: .pad to pad the frame")
    }

    /// The frame is larger than H.264 (level 6.2) can encode.
    package static func sizeTooLarge(width w: Int, height h: Int, maxSide: Int, maxPixels: Int) -> MovieMakerError {
        MovieMakerError(code: .sizeTooLarge, message: "frame size \(w)×\(h) is too large for H.264: each side must be at most \(maxSide) and the area at most \(maxPixels) pixels (level 6.2)")
    }

    /// The frame rate is zero, negative or not a number.
    package static func invalidFrameRate(_ v: String) -> MovieMakerError {
        MovieMakerError(code: .invalidFrameRate, message: "invalid frame rate \(v): it must be a positive number of frames per second, e.g. 30 or 30000/1001", value: v)
    }

    /// A setting is out of range: which one, the value given, and what it accepts.
    package static func invalidSetting(_ setting: SettingKey, value: String, expected: String) -> MovieMakerError {
        MovieMakerError(code: .invalidSetting, message: "invalid \(setting) \(value): expected \(expected)", setting: setting,
                        value: value, expected: expected)
    }

    /// The folder the movie should be written into does not exist.
    package static func destinationFolderMissing(path: String) -> MovieMakerError {
        MovieMakerError(code: .destinationFolderMissing, message: "the folder \(path) does not exist: create it first or choose another destination",
                        location: Location(file: path))
    }

    /// The destination folder exists but a file cannot be created there. A `reason` that carries its own
    /// advice (a full disk, a file-size limit: "… free some space or write to another disk") gets no
    /// other: "choose a folder you can write to" would contradict it.
    package static func destinationNotWritable(path: String, reason: String) -> MovieMakerError {
        // The write failures' own advice (PartialFiles.writeFailures) ends in one of these.
        let ownAdvice = ["another disk", "write elsewhere", "another one"].contains { reason.hasSuffix($0) }
        let advice = ownAdvice ? "" : ": choose a folder you can write to"
        return MovieMakerError(code: .destinationNotWritable, message: "cannot write into \(path) (\(reason))\(advice)",
                               location: Location(file: path), reason: reason)
    }

    /// The destination's extension names no container MovieMaker writes.
    package static func unsupportedContainer(extension ext: String, supported: [String]) -> MovieMakerError {
        let shown = ext.isEmpty ? "no extension" : "unknown extension .\(ext)"
        return MovieMakerError(code: .unsupportedContainer, message: "\(shown): end the file name with one of \(supported.map { "." + $0 }.joined(separator: ", "))", value: ext)
    }

    /// The named encoder is not in this FFmpeg build.
    package static func encoderUnavailable(name: String) -> MovieMakerError {
        MovieMakerError(code: .encoderUnavailable, message: "the encoder \(name) is not available in this FFmpeg build: install libavcodec with \(name) (Debian: libavcodec-extra or libavcodec59 built with libx264)", value: name)
    }

    /// A frame was added after `finish()`.
    package static let frameAfterFinish = MovieMakerError(code: .frameAfterFinish, message: "a frame was added after finish(): the movie is already written; create a new MovieMaker for more frames")

    /// `finish()` was called a second time.
    package static let alreadyFinished = MovieMakerError(code: .alreadyFinished, message: "finish() was called twice: the movie was already written by the first call")

    /// `finish()` was called before any frame was added.
    package static let noFrames = MovieMakerError(code: .noFrames, message: "finish() was called before any frame was added: a movie needs at least one frame; nothing was written")

    /// The movie failed earlier with `first` (its `underlying` error, type intact) and accepts no more work.
    package static func failedEarlier(_ first: any Error) -> MovieMakerError {
        MovieMakerError(code: .failedEarlier, message: "the movie failed earlier and was discarded: \(first)", underlying: first)
    }

    /// The movie failed earlier (`message` says how) and accepts no more work.
    package static func failedEarlier(_ message: String) -> MovieMakerError {
        MovieMakerError(code: .failedEarlier, message: "the movie failed earlier and was discarded: \(message)")
    }

    /// Cairo reported an error.
    package static func cairo(operation op: String, message: String) -> MovieMakerError {
        MovieMakerError(code: .cairo, message: "Cairo failed in \(op): \(message)", reason: message)
    }

    /// An FFmpeg call failed with its own error code and message (the `underlying` `FFmpegError`).
    package static func ffmpeg(operation op: String, code: Int32, message: String) -> MovieMakerError {
        MovieMakerError(code: .ffmpeg, message: "FFmpeg failed in \(op): \(message) (error \(code))",
                        underlying: FFmpegError(operation: op, code: code, message: message))
    }

    /// An image file could not be read.
    package static func imageUnreadable(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .imageUnreadable, message: "cannot read the image \(path): \(reason)", location: Location(file: path), reason: reason)
    }

    /// An image file (a sticker) is too large to decode: its canvas is beyond the side limit, or its
    /// decoded frames would take more memory than allowed. `value` is the limit.
    package static func imageTooLarge(path: String, reason: String, limit: String) -> MovieMakerError {
        MovieMakerError(code: .imageTooLarge, message: "cannot decode the image \(path): \(reason)", location: Location(file: path),
                        reason: reason, value: limit)
    }

    /// A 3D LUT file (`.cube`) could not be read or is malformed; `line` is the 1-based line at fault
    /// (nil when the problem is the whole file, e.g. it is missing or has too few entries).
    package static func lutUnreadable(path: String, line: Int?, reason: String) -> MovieMakerError {
        let at = line.map { " at line \($0)" } ?? ""
        return MovieMakerError(code: .lutUnreadable, message: "cannot read the 3D LUT \(path)\(at): \(reason); a LUT is an Adobe/Resolve .cube file: LUT_3D_SIZE N (2 to 65), optional TITLE, DOMAIN_MIN and DOMAIN_MAX, then N³ lines of three numbers, red changing fastest",
                               location: Location(file: path), reason: reason, value: line.map(String.init))
    }

    /// A font file could not be loaded.
    package static func fontUnreadable(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .fontUnreadable, message: "cannot load the font \(path): \(reason)", location: Location(file: path), reason: reason)
    }

    /// A line of a captions sidecar file is malformed (`line` from 1), or the file cannot be read
    /// (`line` nil): what is wrong and the two formats it accepts.
    package static func invalidCaptions(path: String, line: Int?, text: String = "", reason: String) -> MovieMakerError {
        let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
        let at = line.map { ", line \($0)" } ?? ""
        let quoted = text.isEmpty ? "" : " (\"\(shown)\")"
        let expected = "a .csv file of file,text[,focus] rows (an optional header; quote fields holding commas with \"…\") "
            + "or a .txt file of name: text (or name<TAB>text) lines"
        return MovieMakerError(code: .invalidCaptions, message: "cannot read the captions in \(path)\(at): \(reason)\(quoted); expected \(expected)",
                               location: Location(file: path), reason: reason, value: text.isEmpty ? nil : text, expected: expected, position: line)
    }

    /// A template batch's rows file cannot be read (`line` nil) or has a malformed line: what is wrong
    /// and how to write it.
    package static func invalidBatch(path: String, line: Int?, reason: String) -> MovieMakerError {
        let at = line.map { ", line \($0)" } ?? ""
        return MovieMakerError(code: .invalidBatch, message: "\(path)\(at): \(reason)", location: Location(file: path), reason: reason, position: line)
    }

    /// A Lottie animation could not be read or cannot be drawn.
    package static func animationUnreadable(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .animationUnreadable, message: "cannot play the Lottie animation \(path): \(reason)", location: Location(file: path), reason: reason)
    }

    /// A chart's data table cannot be read (`line` nil) or has a malformed line or cell.
    package static func invalidData(path: String, line: Int?, column: Int?, reason: String) -> MovieMakerError {
        let at = line.map { ", line \($0)" + (column.map { ", column \($0)" } ?? "") } ?? ""
        return MovieMakerError(code: .invalidData, message: "\(path)\(at): \(reason)", location: Location(file: path), reason: reason, position: line)
    }

    /// A movie file could not be opened or decoded.
    package static func movieUnreadable(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .movieUnreadable, message: "cannot read the movie \(path): \(reason)", location: Location(file: path), reason: reason)
    }

    /// A movie file ends before its index says it does.
    package static func movieTruncated(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .movieTruncated, message: "the movie \(path) is truncated: \(reason); copy or download it again",
                        location: Location(file: path), reason: reason)
    }

    /// A file used as a video has no video stream.
    package static func noVideoStream(path: String, found: String) -> MovieMakerError {
        MovieMakerError(code: .noVideoStream, message: "\(path) has no video stream (\(found)); give a video file (MP4, MOV, MKV, WebM, AVI, MTS, Ogg), or use it as sound",
                        location: Location(file: path), reason: found)
    }

    /// A video stream MovieMaker cannot show faithfully.
    package static func videoUnsupported(path: String, reason: String, fix: String) -> MovieMakerError {
        MovieMakerError(code: .videoUnsupported, message: "cannot show the video \(path): \(reason); \(fix)",
                        location: Location(file: path), reason: reason)
    }

    /// A composition needs more video decoders open at once than the render allows.
    package static func videoDecoderLimit(needed: Int, limit: Int, at time: Time, files: [String]) -> MovieMakerError {
        MovieMakerError(code: .videoDecoderLimit,
                        message: "the composition shows \(needed) videos at once at \(String(format: "%.3f", time.seconds)) s (\(files.joined(separator: ", "))) but the render opens at most \(limit) video decoders; raise EncoderSettings.videoDecoderLimit (each open 1080p decoder costs about 48 MiB) or show fewer videos at once",
                        setting: .videoDecoderLimit, value: "\(limit)", expected: "at least \(needed)")
    }

    /// A text's font family is not installed (no silent fallback to another family).
    package static func fontNotFound(family: String, closest: [String]) -> MovieMakerError {
        let suggestion = closest.isEmpty ? "" : "; closest installed: \(closest.joined(separator: ", "))"
        return MovieMakerError(code: .fontNotFound, message: "font \"\(family)\" is not installed\(suggestion) (list all with fc-list : family)", value: family)
    }

    /// Text marked as Pango markup could not be parsed.
    package static func invalidMarkup(markup: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .invalidMarkup, message: "invalid Pango markup \"\(markup)\": \(reason); escape & < > as &amp; &lt; &gt;, or set isMarkup to false for plain text",
                        reason: reason, value: markup)
    }

    /// A transparent movie was asked for in a container whose codec has no alpha channel (H.264 MP4).
    package static func transparencyUnsupported(extension ext: String) -> MovieMakerError {
        MovieMakerError(code: .transparencyUnsupported, message: "H.264 MP4 (.\(ext)) has no alpha channel: for a transparent movie use .mov (ProRes 4444) or .webm (VP9 with alpha), or MovieMaker(pngSequenceIn:) for PNG frames; or turn transparency off", value: ext)
    }

    /// SVG path data could not be parsed: the data, the 0-based character position of the problem, and what is wrong.
    package static func invalidPathData(_ data: String, position: Int, reason: String) -> MovieMakerError {
        let chars = Array(data)
        let lo = max(0, position - 20), hi = min(chars.count, position + 20)
        let before = (lo > 0 ? "…" : "") + String(chars[lo..<min(max(position, lo), hi)])
        let after = String(chars[min(max(position, lo), hi)..<hi]) + (hi < chars.count ? "…" : "")
        return MovieMakerError(code: .invalidPathData, message: "invalid SVG path data at position \(position): \(reason) (in \"\(before)⟨here⟩\(after)\"); path data is commands M L H V C S Q T A Z (lowercase for relative) each followed by numbers separated by spaces or commas, e.g. \"M10 10 L50 10 Z\"",
                               reason: reason, value: data, position: position)
    }

    /// A file expected to be a photo holds no image data MovieMaker recognises (e.g. a text file named `.jpg`).
    package static func notAnImage(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .notAnImage, message: "\(path) is not an image: \(reason); MovieMaker reads JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF, BMP and GIF (recognised by content, not by name): give a photo instead (in a folder of photos, remove the file or replace it)",
                        location: Location(file: path), reason: reason)
    }

    /// An audio file (or a movie's sound) could not be opened or decoded.
    package static func audioUnreadable(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .audioUnreadable, message: "cannot read the sound in \(path): \(reason); check that the file exists and plays (MovieMaker reads MP3, AAC/M4A, Ogg Vorbis, Opus, FLAC, WAV and the sound of video files)",
                        location: Location(file: path), reason: reason)
    }

    /// A file has no audio stream.
    package static func noAudioStream(path: String) -> MovieMakerError {
        MovieMakerError(code: .noAudioStream, message: "\(path) has no audio stream; give a sound file (MP3, AAC/M4A, Ogg, Opus, FLAC, WAV) or a video that has sound",
                        location: Location(file: path))
    }

    /// An audio file's codec has no decoder here.
    package static func unsupportedAudioCodec(path: String, codec: String) -> MovieMakerError {
        MovieMakerError(code: .unsupportedAudioCodec, message: "the sound in \(path) is encoded as \(codec), which this FFmpeg cannot decode; convert it to FLAC, WAV, MP3 or AAC",
                        location: Location(file: path), value: codec)
    }

    /// A slideshow has nothing to show (an empty folder, no photos, or none readable).
    package static func noPhotos(source: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .noPhotos, message: "no photos to show from \(source): \(reason); give a folder or files with photos (JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF, BMP, GIF)",
                        reason: reason)
    }

    /// Sound was added to output that has no sound track (a PNG sequence).
    package static func audioUnsupported(container: String) -> MovieMakerError {
        MovieMakerError(code: .audioUnsupported, message: "\(container) has no sound track: write a movie file (.mp4, .m4v, .mov, .mkv or .webm) to add sound, or save the sound separately",
                        value: container)
    }

    /// The first sound was added after frames were drawn; the sound track is created before the first frame.
    package static func audioAfterFirstFrame(framesDrawn: Int) -> MovieMakerError {
        MovieMakerError(code: .audioAfterFirstFrame, message: "the first sound was added after \(framesDrawn) frames were drawn, but the sound track is created before the first frame: call addAudio before drawing (placing the sound later with at:), or pass audioSettings: to MovieMaker's init to create the track up front")
    }

    /// A sound was placed before `earliest`, up to where the sound track may already have been written.
    package static func audioTooLate(start: Time, earliest: Time) -> MovieMakerError {
        MovieMakerError(code: .audioTooLate, message: "a sound placed at \(start.seconds) s starts before \(earliest.seconds) s, up to where the sound track may already be written: add each sound before drawing the frames it plays under")
    }

    /// The render was cancelled (`CancellationToken.cancel()`, or SIGINT/SIGTERM in the `moviemaker` tool).
    public static let cancelled = MovieMakerError(code: .cancelled, message: "the render was cancelled: its partial file was deleted and nothing at the destination was changed")

    /// A subtitle file (SRT or WebVTT) is malformed at `line` (1-based): the line's `text`, what is wrong
    /// with it, and the form `expected` there (e.g. `00:00:01,000 --> 00:00:02,500`). The line number is
    /// also the error's `position`.
    package static func invalidSubtitles(path: String, line: Int, text: String, reason: String, expected: String) -> MovieMakerError {
        let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return MovieMakerError(code: .invalidSubtitles, message: "invalid subtitles in \(path), line \(line): \(reason) (\"\(shown)\"); expected \(expected)",
                               location: Location(file: path), reason: reason, value: text, expected: expected, position: line)
    }

    /// A subtitle file is larger than MovieMaker reads (`SubtitleTrack.maximumFileSize`).
    package static func subtitlesTooLarge(path: String, bytes: Int, limit: Int) -> MovieMakerError {
        MovieMakerError(code: .invalidSubtitles, message: "the subtitle file \(path) is \(bytes) bytes, more than the \(limit) MovieMaker reads: is it really an SRT or WebVTT file? Split it into smaller files",
                        location: Location(file: path), reason: "too large", value: "\(bytes)")
    }

    /// A subtitle file could not be read (missing, a folder, no permission).
    package static func subtitlesUnreadable(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .invalidSubtitles, message: "cannot read the subtitle file \(path): \(reason); give an SRT (.srt), WebVTT (.vtt) or transcript (JSON) file",
                        location: Location(file: path), reason: reason)
    }

    /// A value cannot be written as data (`Encodable`): a closure, an in-memory picture, a sound made by code.
    package static func notEncodable(what: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .notEncodable, message: "\(what) cannot be written as data: \(reason)", reason: reason, value: what)
    }

    /// Assembling a chunked render in `folder` found no complete chunk for `missing` (each described as
    /// `chunk 2/4 (frames 60..<90)`); `ignored` other files in the folder belong to other movies or settings.
    package static func chunksMissing(folder: String, missing: [String], ignored: Int) -> MovieMakerError {
        let list = missing.count > 8 ? missing.prefix(8).joined(separator: ", ") + " and \(missing.count - 8) more" : missing.joined(separator: ", ")
        let other = ignored > 0 ? " (\(ignored) chunk file\(ignored == 1 ? "" : "s") there belong\(ignored == 1 ? "s" : "") to another description or other settings and \(ignored == 1 ? "was" : "were") ignored)" : ""
        return MovieMakerError(code: .chunksMissing,
                               message: "\(missing.count) chunk\(missing.count == 1 ? " is" : "s are") missing from \(folder): \(list)\(other); render \(missing.count == 1 ? "it" : "them") with `moviemaker render SPEC --chunk K/N --chunk-dir \(folder)` (the same description and settings), then assemble again",
                               location: Location(file: folder), reason: "missing chunks", value: missing.joined(separator: ", "))
    }

    /// Assembling a chunked render in `folder` found not one chunk of this movie; `ignored` chunk files
    /// there belong to other descriptions, media or settings (the usual cause: the workers and the
    /// assembly were given different options).
    package static func noChunks(folder: String, frameCount: Int, ignored: Int) -> MovieMakerError {
        let message = ignored == 0
            ? "no chunk of this movie (\(frameCount) frames) is in \(folder): render them with `moviemaker render SPEC --chunk K/N --chunk-dir \(folder)` (K from 0 to N-1), then assemble"
            : "none of the \(ignored) chunk file\(ignored == 1 ? "" : "s") in \(folder) is of this movie as it is described and set now: "
                + "\(ignored == 1 ? "it was" : "they were") rendered from another version of the description or its media, or with other options "
                + "(the workers and assemble need the same --slot, --media, --crf, --preset, --lossless and --subtitles; chunks rendered with --segment are joined with assemble --hls); "
                + "give assemble the workers' options, or render the chunks again"
        return MovieMakerError(code: .chunksMissing, message: message, location: Location(file: folder), reason: "no chunks of this movie", value: folder)
    }

    /// The chunk file `path` cannot be joined to the movie: `reason` says why (unreadable, a different
    /// frame count than its name says, or encoded differently from the first chunk).
    package static func chunkMismatch(path: String, reason: String) -> MovieMakerError {
        MovieMakerError(code: .chunkMismatch, message: "cannot join the chunk \(path): \(reason); delete it and render that chunk again",
                        location: Location(file: path), reason: reason, value: path)
    }
}

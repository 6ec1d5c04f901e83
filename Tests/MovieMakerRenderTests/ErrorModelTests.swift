import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `MovieMakerError` as a struct: codes that can grow, the same messages as before, typed details
/// (setting, file, underlying FFmpeg or first error) and locations in description files.
@Suite struct ErrorModelTests {
    /// Throws `error` and returns what was caught, so each check reads the error as a caller would.
    private func caught(_ body: () throws -> Void) -> MovieMakerError? {
        do { try body() } catch let e as MovieMakerError { return e } catch { Issue.record("not a MovieMakerError: \(error)") }
        return nil
    }

    @Test("Every code keeps its message text, byte for byte", arguments: [
        (MovieMakerError.invalidSize(width: 0, height: 240), MovieMakerError.Code.invalidSize,
         "invalid frame size 0×240: width and height must both be at least 2 pixels"),
        (.oddSize(width: 321, height: 241), .oddSize,
         "frame size 321×241 has an odd side: H.264 in yuv420p stores colour at half resolution (4:2:0), so width and height must be even; use 322×242, or pass oddSizePolicy: .pad to pad the frame"),
        (.sizeTooLarge(width: 9000, height: 100, maxSide: 8192, maxPixels: 35_651_584), .sizeTooLarge,
         "frame size 9000×100 is too large for H.264: each side must be at most 8192 and the area at most 35651584 pixels (level 6.2)"),
        (.invalidFrameRate("0/1"), .invalidFrameRate,
         "invalid frame rate 0/1: it must be a positive number of frames per second, e.g. 30 or 30000/1001"),
        (.invalidSetting(.keyframeInterval, value: "0", expected: "at least 1 frame"), .invalidSetting,
         "invalid keyframe interval 0: expected at least 1 frame"),
        (.invalidSetting(.audioTrackClip(2), value: "a sound of unknown length", expected: "a known length"), .invalidSetting,
         "invalid audio track clip 2 a sound of unknown length: expected a known length"),
        (.destinationFolderMissing(path: "/no/such"), .destinationFolderMissing,
         "the folder /no/such does not exist: create it first or choose another destination"),
        (.destinationNotWritable(path: "/proc", reason: "Permission denied"), .destinationNotWritable,
         "cannot write into /proc (Permission denied): choose a folder you can write to"),
        (.unsupportedContainer(extension: "avi", supported: ["mp4", "mov"]), .unsupportedContainer,
         "unknown extension .avi: end the file name with one of .mp4, .mov"),
        (.unsupportedContainer(extension: "", supported: ["mp4"]), .unsupportedContainer,
         "no extension: end the file name with one of .mp4"),
        (.frameAfterFinish, .frameAfterFinish,
         "a frame was added after finish(): the movie is already written; create a new MovieMaker for more frames"),
        (.alreadyFinished, .alreadyFinished, "finish() was called twice: the movie was already written by the first call"),
        (.noFrames, .noFrames,
         "finish() was called before any frame was added: a movie needs at least one frame; nothing was written"),
        (.failedEarlier("the movie was cancelled"), .failedEarlier,
         "the movie failed earlier and was discarded: the movie was cancelled"),
        (.cairo(operation: "drawing", message: "out of memory"), .cairo, "Cairo failed in drawing: out of memory"),
        (.ffmpeg(operation: "avio_open", code: -2, message: "No such file or directory"), .ffmpeg,
         "FFmpeg failed in avio_open: No such file or directory (error -2)"),
        (.imageUnreadable(path: "/a.png", reason: "no such file"), .imageUnreadable, "cannot read the image /a.png: no such file"),
        (.animationUnreadable(path: "/a.json", reason: "it is not JSON"), .animationUnreadable, "cannot play the Lottie animation /a.json: it is not JSON"),
        (.invalidData(path: "/s.csv", line: 3, column: 2, reason: "\"x\" is not a number"), .invalidData, "/s.csv, line 3, column 2: \"x\" is not a number"),
        (.fontNotFound(family: "Nope Sans", closest: ["Noto Sans", "DejaVu Sans"]), .fontNotFound,
         "font \"Nope Sans\" is not installed; closest installed: Noto Sans, DejaVu Sans (list all with fc-list : family)"),
        (.noAudioStream(path: "/m.mp4"), .noAudioStream,
         "/m.mp4 has no audio stream; give a sound file (MP3, AAC/M4A, Ogg, Opus, FLAC, WAV) or a video that has sound"),
        (.unsupportedAudioCodec(path: "/s.m4a", codec: "mpegh_3d_audio"), .unsupportedAudioCodec,
         "the sound in /s.m4a is encoded as mpegh_3d_audio, which this FFmpeg cannot decode; convert it to FLAC, WAV, MP3 or AAC"),
        (.audioTooLate(start: 1, earliest: 2), .audioTooLate,
         "a sound placed at 1.0 s starts before 2.0 s, up to where the sound track may already be written: add each sound before drawing the frames it plays under"),
        (.cancelled, .cancelled,
         "the render was cancelled: its partial file was deleted and nothing at the destination was changed"),
        (.notEncodable(what: "a closure", reason: "code cannot be written"), .notEncodable,
         "a closure cannot be written as data: code cannot be written"),
        (.movieTruncated(path: "/c.mp4", reason: "cut"), .movieTruncated, "the movie /c.mp4 is truncated: cut; copy or download it again"),
        (.noVideoStream(path: "/s.m4a", found: "only sound"), .noVideoStream,
         "/s.m4a has no video stream (only sound); give a video file (MP4, MOV, MKV, WebM, AVI, MTS, Ogg), or use it as sound"),
        (.videoUnsupported(path: "/h.mov", reason: "it is HDR", fix: "convert it"), .videoUnsupported, "cannot show the video /h.mov: it is HDR; convert it"),
        (.videoDecoderLimit(needed: 3, limit: 2, at: 1, files: ["a.mp4", "b.mp4", "c.mp4"]), .videoDecoderLimit,
         "the composition shows 3 videos at once at 1.000 s (a.mp4, b.mp4, c.mp4) but the render opens at most 2 video decoders; raise EncoderSettings.videoDecoderLimit (each open 1080p decoder costs about 48 MiB) or show fewer videos at once"),
    ])
    func messagesAreUnchanged(error: MovieMakerError, code: MovieMakerError.Code, text: String) {
        #expect(error.code == code)
        #expect(error.message == text)
        #expect(error.description == text)
        #expect(error.errorDescription == text)
        #expect(error.localizedDescription == text)
        #expect("\(error)" == text)
    }

    @Test func codesHaveStableNamesAndAreOpenForNewOnes() {
        #expect(MovieMakerError.Code.oddSize.rawValue == "oddSize")
        #expect(MovieMakerError.Code(rawValue: "notEncodable") == .notEncodable)
        #expect("\(MovieMakerError.Code.cancelled)" == "cancelled")
        #expect(Set(MovieMakerError.Code.all).count == MovieMakerError.Code.all.count)
        #expect(MovieMakerError.Code.all.count == 48)

        // What a caller writes: a switch over codes with a default, which a new code cannot break.
        func advice(_ error: MovieMakerError) -> String {
            switch error.code {
            case .oddSize: "make the size even"
            case .cancelled: "nothing to do"
            case .invalidSetting where error.setting == .crf: "lower the crf"
            default: "read the message"
            }
        }
        #expect(advice(.oddSize(width: 3, height: 3)) == "make the size even")
        #expect(advice(.cancelled) == "nothing to do")
        #expect(advice(.invalidSetting(.crf, value: "60", expected: "0…51")) == "lower the crf")
        #expect(advice(.invalidSetting(.bitrate, value: "0", expected: "more")) == "read the message")
        let future = MovieMakerError(code: MovieMakerError.Code(rawValue: "someFutureCode"), message: "new in a later release")
        #expect(advice(future) == "read the message")
        // Pattern matching a whole error still works for errors without details.
        if case .cancelled = MovieMakerError.cancelled {} else { Issue.record(".cancelled did not match itself") }
    }

    @Test func aFailureThenAnotherCallIsFailedEarlierWithTheFirstErrorInside() throws {
        let dir = try TemporaryFolder()
        let movie = try MovieMaker(url: dir.file("movie.mp4"), width: 64, height: 64)
        let first = caught { try movie.addFrame { ctx in ctx.setLineDash([-1, 2]); ctx.strokeRect(Rect(x: 1, y: 1, width: 5, height: 5)) } }
        #expect(first?.code == .cairo)
        for later in [caught { try movie.addFrame { _ in } }, caught { try movie.finish() }] {
            #expect(later?.code == .failedEarlier)
            let inner = later?.underlying as? MovieMakerError
            #expect(inner?.code == .cairo)
            #expect(inner == first)
            #expect(later?.message == "the movie failed earlier and was discarded: \(first?.description ?? "?")")
        }
        #expect(dir.contents.isEmpty)

        // After cancel() the first error is a .cancelled one, with the message the movie always gave.
        let cancelled = try MovieMaker(url: dir.file("cancelled.mp4"), width: 64, height: 64)
        cancelled.cancel()
        let after = caught { try cancelled.addFrame { _ in } }
        #expect(after?.code == .failedEarlier)
        #expect((after?.underlying as? MovieMakerError)?.code == .cancelled)
        #expect(after?.description == "the movie failed earlier and was discarded: the movie was cancelled")

        // Any error can be the first; its type stays intact. The text form has none underneath.
        let wrapped = MovieMakerError.failedEarlier(CocoaError(.fileNoSuchFile))
        #expect(wrapped.underlying is CocoaError)
        #expect(MovieMakerError.failedEarlier("text only").underlying == nil)
        // The underlying error is not compared: equal code and message are equal errors.
        #expect(MovieMakerError.failedEarlier(MovieMakerError.noFrames) == .failedEarlier(MovieMakerError.noFrames.description))
    }

    @Test func anFFmpegFailureCarriesFFmpegError() throws {
        let error = caught {
            _ = try VideoEncoder(path: "/nonexistent-folder/a.mp4", container: .mp4, width: 320, height: 240, rate: 30, settings: EncoderSettings())
        }
        #expect(error?.code == .ffmpeg)
        let ff = try #require(error?.underlying as? FFmpegError)
        #expect(ff.operation.hasPrefix("avio_open"))
        #expect(ff.code == -ENOENT)
        #expect(ff.message == "No such file or directory")
        #expect(error?.message == "FFmpeg failed in \(ff.operation): \(ff.message) (error \(ff.code))")
        #expect(ff.description == "\(ff.operation): No such file or directory (error \(-ENOENT))")
        #expect(MovieMakerError.ffmpeg(operation: "x", code: -22, message: "Invalid argument").underlying as? FFmpegError
                == FFmpegError(operation: "x", code: -22, message: "Invalid argument"))
    }

    @Test func invalidSettingNamesItsSettingKey() throws {
        let dir = try TemporaryFolder()
        let crf = caught { _ = try MovieMaker(url: dir.file("a.mp4"), width: 320, height: 240, settings: EncoderSettings(crf: 60)) }
        #expect(crf?.code == .invalidSetting)
        #expect(crf?.setting == .crf)
        #expect(crf?.value == "60")
        #expect(crf?.expected == "0…51 (18 is visually lossless, 23 is x264's default)")
        #expect(crf?.message == "invalid crf 60: expected 0…51 (18 is visually lossless, 23 is x264's default)")
        let star = caught { _ = try Path.star(center: .zero, outerRadius: 10, innerRadius: 5, points: 1) }
        #expect(star?.setting == .starPoints)
        #expect(star?.message == "invalid star points 1: expected at least 2 tips")
        // Equal messages with different keys are different errors.
        #expect(MovieMakerError.invalidSetting(.crf, value: "1", expected: "x")
                != MovieMakerError(code: .invalidSetting, message: "invalid crf 1: expected x"))
    }

    @Test func settingKeysHaveStableNamesAndMessageWords() {
        #expect(SettingKey.keyframeInterval.rawValue == "keyframeInterval")
        #expect(SettingKey.keyframeInterval.description == "keyframe interval")
        #expect(SettingKey.color.description == "colour")
        #expect(SettingKey(rawValue: "drawingThreads") == .drawingThreads)
        #expect(SettingKey(rawValue: "no such setting") == nil)
        #expect(SettingKey.audioTrackClip(3).rawValue == "audioTrackClip[3]")
        #expect(SettingKey.audioTrackClip(3).description == "audio track clip 3")
        #expect(SettingKey.audioTrackClipTime(3).description == "audio track clip 3 time")
        #expect(SettingKey.trackGain(0).description == "gain of track 0")
        #expect(SettingKey(rawValue: "trackStart[1]") == .trackStart(1))
        #expect(SettingKey(rawValue: "trackStart[x]") == nil)
        #expect(SettingKey.audioTrackClip(1) != .audioTrackClip(2))
        #expect(Set(SettingKey.all.map(\.rawValue)).count == SettingKey.all.count)
        #expect(Set(SettingKey.all.map(\.description)).count == SettingKey.all.count)
        for key in SettingKey.all { #expect(SettingKey(rawValue: key.rawValue) == key) }
    }

    @Test func locationsNameTheFileAndPrefixTheJSONPath() throws {
        let dir = try TemporaryFolder()
        let missing = dir.file("missing.png")
        let image = caught { _ = try Image(contentsOf: missing) }
        #expect(image?.location?.file == missing.path)
        #expect(image?.reason == "no such file")
        #expect(image?.location?.jsonPath == nil)
        #expect(MovieMakerError.audioUnreadable(path: "/s.mp3", reason: "gone").location == .init(file: "/s.mp3"))
        #expect(MovieMakerError.oddSize(width: 3, height: 3).location == nil)

        let plain = MovieMakerError.invalidSetting(.transitionDuration, value: "-1", expected: "0 seconds or more")
        let located = plain.located(jsonPath: "tracks[1].items[4].duration")
        #expect(located.location?.jsonPath == "tracks[1].items[4].duration")
        #expect(located.message == plain.message)
        #expect(located.description == "tracks[1].items[4].duration: invalid transition duration -1: expected 0 seconds or more")
        #expect(located.errorDescription == located.description)
        #expect(located != plain)
        #expect(located.setting == .transitionDuration)
        let both = located.located(file: "show.json")
        #expect(both.location == MovieMakerError.Location(file: "show.json", jsonPath: "tracks[1].items[4].duration"))
        #expect(both.description == located.description)
    }
}

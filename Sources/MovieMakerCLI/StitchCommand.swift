import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker stitch`: video clips one after another, as a phone's editor joins recorded clips.
struct StitchCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "stitch",
        abstract: "Join video clips and photos into one movie: hard cuts or transitions, the clips' own sound, optional music.",
        discussion: """
            Clips play in the order given, each scaled to the frame by --fit. Their own sound plays \
            with them, crossfaded over --audio-crossfade at every cut so no join clicks. With --music, \
            the music plays under the whole movie and dips (by 12 dB) while the clips' own sound is \
            heard. The movie's size and rate default to the first clip's (for a variable frame rate \
            phone clip, the standard rate nearest its average).

            Photos (JPEG, PNG, WebP, HEIC, …) among the clips are shown for --photo-duration each (3 s \
            by default), fitted as --fit says and slowly panned and zoomed as a slideshow does \
            (--no-ken-burns keeps them still). A folder stands for the pictures and movies in it (not \
            its subfolders, hidden files, and a Live Photo's motion beside its photo left out), in file-name order (img2 before img10) or by date \
            with --order date: so `moviemaker stitch DIR --music song.mp3 -o film.mp4` makes a film of \
            a folder of photos and phone clips. Without --size the movie takes the first clip's size \
            (1920x1080 when there are only photos).

            Every clip is checked before the first frame. A file that is neither a picture nor a movie \
            is refused, naming it; a movie that is truncated or undecodable is skipped with a warning \
            naming it (or stops the run with --strict), and listed in the summary; one whose picture \
            reads but whose sound does not plays silent, with a warning.

            Transitions use FFmpeg xfade's names: \(Transition.knownNames.joined(separator: ", ")). \
            A transition overlaps the end of one clip with the start of the next, so the movie is \
            shorter than the clips together by the transitions' length.

            With --subtitles, the cues of an SRT or WebVTT file (timed from the movie's start) are \
            burned in over the whole movie; the file is read first, and a malformed one stops the run \
            with its line number. With --captions, the words of a transcript (whisper JSON with word \
            timestamps, whisper.cpp JSON, karaoke WebVTT, or SRT) are burned in a few at a time, the \
            spoken word marked as --caption-style says (highlight, karaoke, pop, reveal, bounce).

            With --reframe 9:16, landscape clips become a vertical movie whose window follows the \
            person in each (OpenCV's face detector, else where things move), starting afresh at each \
            cut. Each file is analysed once on its own thread while the movie renders, and the \
            analysis is kept (by the file's content) so a re-render does not repeat it.

            Examples:
              moviemaker stitch a.mp4 b.mov c.mp4 -o day.mp4
              moviemaker stitch Holiday --order date --music song.mp3 -o holiday.mp4
              moviemaker stitch *.mp4 --size 720x1280 --fit blur -o vertical.mp4
              moviemaker stitch a.mp4 b.mp4 --reframe 9:16 -o vertical.mp4
              moviemaker stitch a.mp4 b.mp4 c.mp4 --transition wipeleft \\
                --transition-duration 0.5 -o day.mp4
              moviemaker stitch a.mp4 b.mp4 --music song.mp3 --music-volume -6 \\
                --normalize -o day.mp4
              moviemaker stitch a.mp4 --subtitles talk.srt --subtitle-style box -o day.mp4
              moviemaker stitch talk.mp4 --captions talk.json --caption-style pop \\
                -o captioned.mp4
            """)

    /// The clips, in order.
    @Argument(help: ArgumentHelp("Video files (MP4, MOV, MKV, WebM, AVI, MTS, …), photos (JPEG, PNG, WebP, HEIC, …) and folders of them, in the order they play.",
                                 valueName: "clip"))
    var clips: [String] = []

    /// How long each photo shows.
    @Option(help: ArgumentHelp("How long each photo among the clips is shown, e.g. 3, 2.5s or 1500ms. (default: 3 s)", valueName: "duration"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var photoDuration: Time = 3

    /// Pan and zoom on photos.
    @Flag(inversion: .prefixedNo, help: "Slowly pan and zoom each photo (Ken Burns), as a slideshow does.")
    var kenBurns = true

    /// The order of a folder's files.
    @Option(help: ArgumentHelp("The order of the files in a folder: name (natural: img2 before img10) or date (a photo's EXIF capture time, read in this machine's time zone when it records no offset; a video's recording time; else the file's modification time).",
                               valueName: "order"))
    var order: PhotoOrder = .fileName

    /// Frame size (default: the first clip's).
    @Option(help: ArgumentHelp("Frame size in pixels, WIDTHxHEIGHT (even, 16…8192), or 2160p, 1080p, 720p, 480p, 360p. (default: the first clip's displayed size)",
                               valueName: "WxH"),
            transform: { (text: String) throws -> FrameSize in try FrameSize.parse(text) })
    var size: FrameSize?

    /// Frame rate (default: the first clip's).
    @Option(help: ArgumentHelp("Frames per second: 24, 25, 30, 60, 29.97 (=30000/1001) or a fraction. (default: the first clip's rate; for variable frame rate video the standard rate nearest it)",
                               valueName: "rate"),
            transform: { (text: String) throws -> FrameRate in try FrameRateArgument.parse(text) })
    var fps: FrameRate?

    /// Fit mode.
    @Option(help: ArgumentHelp("How clips and photos of other proportions fill the frame: blur (the whole picture over a blurred copy, as the slideshow does: a portrait phone clip in a landscape movie stays whole), fit (whole on --background), fill (cropped to cover).",
                               valueName: "mode"))
    var fit: Slideshow.Fit = .blur

    /// Background colour around fitted clips.
    @Option(help: ArgumentHelp("Colour around clips with --fit fit (CSS). (default: black)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var background: Color = .black

    /// The transition between clips, by xfade name.
    @Option(help: ArgumentHelp("Transition between clips: an FFmpeg xfade name (fade, wipeleft, slideup, circleopen, dissolve, …) or none (hard cuts).",
                               valueName: "name"))
    var transition: String = "none"

    /// How long each transition takes.
    @Option(help: ArgumentHelp("Seconds each transition takes (to the nearest whole frame); it overlaps the neighbouring clips. (default: 0.5)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var transitionDuration: Time = Time(value: 1, timescale: 2)

    /// The crossfade of the clips' sound at cuts.
    @Option(help: ArgumentHelp("How long the clips' sound crossfades at each cut, 10ms to 5s, e.g. 20ms or 0.1. A whole clip has no sound past its ends, so its sound fades out before the cut and the next one's in after it: a long crossfade dips (--transition overlaps clips instead), and one over half the shortest clip is shortened to that. (default: 20ms)", valueName: "duration"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var audioCrossfade: Time = Time(value: 1, timescale: 50)

    /// Cut the silent stretches out of each clip.
    @Flag(name: .customLong("remove-silence"), help: "Cut the silent stretches (below --silence-threshold for 0.4 s or more) out of each clip, picture and sound together, keeping 0.1 s of each (see moviemaker silences).")
    var removeSilence = false

    /// The level below which sound is silence.
    @Option(name: .customLong("silence-threshold"), help: ArgumentHelp("With --remove-silence: the level below which sound is silence, in dB.", valueName: "dB"))
    var silenceThreshold: Double = -40

    /// The aspect ratio the clips are reframed to.
    @Option(help: ArgumentHelp("Reframe every clip to this aspect ratio, e.g. 9:16 (vertical), 1:1 or 4:5: a window that follows the subject (faces, else motion), eased, cut-aware, never outside the picture. Without --size the movie takes that shape with the first clip's longer side (1920x1080 clips give 1080x1920).",
                               valueName: "W:H"),
            transform: { (text: String) throws -> Reframe in try ReframeArgument.parse(text) })
    var reframe: Reframe?

    @OptionGroup(title: "Sound track") var sound: SoundTrackOptions
    @OptionGroup(title: "Subtitles") var subtitles: SubtitleOptions

    /// Fail on the first unreadable clip instead of skipping it.
    @Flag(help: "Stop with an error at the first clip that cannot be read, instead of skipping it.")
    var strict = false

    /// --crf and --preset.
    @OptionGroup var quality: EncoderQualityOptions
    @OptionGroup(title: AnimatedImageOptions.title) var animatedImage: AnimatedImageOptions

    @OptionGroup(title: "Output") var output: MovieOutputOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        try quality.checkBitDepth()
        try animatedImage.check(destination: output.output, quality: quality)
        guard (-120...0).contains(silenceThreshold) else {
            throw ValidationError("--silence-threshold \(silenceThreshold): give a level from -120 to 0 dB, e.g. --silence-threshold -40")
        }
        if silenceThreshold != -40 && !removeSilence {
            throw ValidationError("--silence-threshold goes with --remove-silence: add --remove-silence, or leave it out")
        }
        // Subtitles and captions are timed on the film as recorded: after the cuts every word would come
        // late (a description file's video item refuses the same).
        if removeSilence, let option = subtitles.subtitles != nil ? "--subtitles" : subtitles.captions != nil ? "--captions" : nil {
            throw ValidationError("\(option) is timed on the clips as recorded, which --remove-silence shortens (the words would come late): "
                                  + "leave one of them out, or stitch with --remove-silence first and add the text to that movie")
        }
        guard !clips.isEmpty else {
            throw ValidationError("give the video clips to join, in order, e.g. moviemaker stitch a.mp4 b.mp4 -o day.mp4")
        }
        guard photoDuration > .zero, photoDuration <= Time.longMovieLimit else {
            throw ValidationError("--photo-duration \(photoDuration.seconds) s is out of range: give a time above 0, e.g. 3 or 2.5s")
        }
        for clip in clips where !FileManager.default.fileExists(atPath: clip) {
            throw InputError("\(clip): no such file")
        }
        if transition.lowercased() != "none" {
            do { _ = try Transition(xfadeName: transition) } catch { throw ValidationError("--transition: \(error)") }
        }
        guard audioCrossfade >= Time(value: 1, timescale: 100), audioCrossfade <= 5 else {
            throw ValidationError("--audio-crossfade \(audioCrossfade.seconds) s is out of range: give 10ms to 5 s, e.g. 20ms (shorter ones click)")
        }
    }

    /// A readable input: a movie (its probe) or a photo, as a clip with and without its sound.
    struct Readable {
        /// The probed movie (nil for a photo).
        let file: VideoFile?
        /// The photo's file (nil for a movie).
        let photo: URL?
        /// The clip with its own sound (if it has one).
        var clip: Clip
        /// The same picture, silent.
        var picture: Clip
    }

    /// What an input file is.
    enum MediaKind { case photo, movie }

    /// File-name extensions taken as movies (lower case).
    static let movieExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "mkv", "webm", "avi", "mts", "m2ts", "ts", "3gp", "3g2",
                                               "mpg", "mpeg", "wmv", "flv", "ogv", "mxf", "dv", "gif"]

    /// Whether `url` is a photo or a movie: by its extension, else by its first bytes (a photo's header)
    /// or a probe; nil when it is neither.
    static func kind(of url: URL) -> MediaKind? {
        let ext = url.pathExtension.lowercased()
        if ext != "gif", PhotoDecoder.fileExtensions.contains(ext) { return .photo }
        if movieExtensions.contains(ext) { return .movie }
        if (try? PhotoDecoder.info(url)) != nil { return .photo }
        if (try? VideoFile(url: url)) != nil { return .movie }
        return nil
    }

    /// The files the arguments name, in order: files as given, a folder's pictures and movies (not its
    /// subfolders, hidden files left out) in `--order`. A file given by name that is neither a picture nor
    /// a movie is refused; one inside a folder is left out with a warning.
    func inputFiles(warn: (String) -> Void) throws -> [(url: URL, kind: MediaKind)] {
        var files: [(url: URL, kind: MediaKind)] = []
        for path in clips {
            let url = URL(fileURLWithPath: path)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard isFolder.boolValue else {
                guard let kind = Self.kind(of: url) else {
                    throw InputError("\(path) is neither a picture nor a movie: give video files (MP4, MOV, MKV…), photos (JPEG, PNG, HEIC…) or folders of them")
                }
                files.append((url, kind))
                continue
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw InputError("\(path): cannot list the folder (\((error as NSError).localizedDescription))")
            }
            var found: [(url: URL, kind: MediaKind)] = []
            var subfolders: [String] = []        // folders inside it that hold pictures or movies (a phone's DCIM/100APPLE)
            for name in names.sorted(by: Slideshow.naturalOrder) where !name.hasPrefix(".") {
                let file = url.appendingPathComponent(name)
                var sub: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file.path, isDirectory: &sub) else { continue }
                if sub.boolValue {
                    let inner = (try? FileManager.default.contentsOfDirectory(atPath: file.path)) ?? []
                    // By extension only: probing every file of a large folder would be slow.
                    let media = PhotoDecoder.fileExtensions.union(Self.movieExtensions)
                    if inner.contains(where: { !$0.hasPrefix(".") && media.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }) { subfolders.append(name) }
                    continue
                }
                if let kind = Self.kind(of: file) { found.append((file, kind)) } else { warn("\(file.path): neither a picture nor a movie; left out") }
            }
            let inside = subfolders.count == 1 ? "1 folder inside it (\(subfolders[0]))" : "\(subfolders.count) folders inside it (\(subfolders.prefix(3).joined(separator: ", "))\(subfolders.count > 3 ? ", …" : ""))"
            let glob = Terminal.shellWord(path.hasSuffix("/") ? String(path.dropLast()) : path) + "/*"
            if found.isEmpty {
                throw InputError("\(path): the folder holds no pictures or movies" + (subfolders.isEmpty ? "" : "; they are in \(inside), which are not searched: give them, e.g. moviemaker stitch \(glob)"))
            }
            if !subfolders.isEmpty { warn("\(path): \(inside) left out (folders are not searched): give them too, e.g. \(glob)") }
            let motions = Self.livePhotoMotions(in: found)
            if !motions.isEmpty {
                found.removeAll { motions.contains($0.url) }
                let names = motions.map(\.lastPathComponent).sorted(by: Slideshow.naturalOrder)
                warn("\(path): \(names.count == 1 ? "1 Live Photo movie" : "\(names.count) Live Photo movies") left out (\(names.prefix(3).joined(separator: ", "))\(names.count > 3 ? ", …" : "")), each the motion of the photo of the same name: give \(names.count == 1 ? "it" : "them") by name to include \(names.count == 1 ? "it" : "them")")
            }
            if order == .captureDate {
                // A stable sort by date (equal dates keep the name order); files without a date last.
                let zone = PhotoOrder.zoneForUnzonedTimes(of: found.filter { $0.kind == .photo }.compactMap { try? PhotoDecoder.info($0.url) })
                let dated = found.map { item -> Date? in Self.moment(of: item, unzonedIn: zone) }
                found = found.indices.sorted { a, b in
                    switch (dated[a], dated[b]) {
                    case let (x?, y?) where x != y: return x < y
                    case (.some, nil): return true
                    case (nil, .some): return false
                    default: return a < b
                    }
                }.map { found[$0] }
            }
            files += found
        }
        return files
    }

    /// The movies among `found` that are a Live Photo's motion: 4 s or shorter, beside a photo of the same
    /// name (an iPhone's `IMG_1234.HEIC` and `IMG_1234.MOV`). A folder copied off an iPhone holds one for
    /// nearly every photo: stitched, each moment played twice, a still then its motion, and the first one
    /// could set the whole film's size to the photo's 4:3.
    static func livePhotoMotions(in found: [(url: URL, kind: MediaKind)]) -> Set<URL> {
        let photos = Set(found.filter { $0.kind == .photo }.map { $0.url.deletingPathExtension().lastPathComponent.lowercased() })
        return Set(found.filter { item in
            item.kind == .movie && photos.contains(item.url.deletingPathExtension().lastPathComponent.lowercased())
                && (try? VideoFile.probed(item.url)).map { $0.duration <= Time(4) } == true
        }.map(\.url))
    }

    /// When `item` was taken, as a moment comparable across photos and videos: a photo's EXIF capture
    /// time (a wall-clock time without an offset is read in `zone`: the zone of the other photos' zoned
    /// times, or this machine's, where the camera's clock most likely was, not as UTC: a photo at 14:00
    /// in Paris comes before a video recorded at 12:05 UTC); a video's recording time (Apple's
    /// `com.apple.quicktime.creationdate`, else `creation_time`: `VideoFile.creationDate`); else the
    /// file's modification time.
    static func moment(of item: (url: URL, kind: MediaKind), unzonedIn zone: TimeZone = .current) -> Date? {
        switch item.kind {
        case .photo:
            if let moment = (try? PhotoDecoder.info(item.url))?.captureMoment(in: zone) { return moment }
        case .movie:
            if let date = (try? VideoFile.probed(item.url))?.creationDate { return date }
        }
        return (try? FileManager.default.attributesOfItem(atPath: item.url.path))?[.modificationDate] as? Date
    }

    /// Probes every input, in order; unreadable ones are reported through `skip` (or thrown under
    /// `--strict`), and a movie whose picture reads but whose sound does not plays silent, reported
    /// through `silent` (thrown under `--strict`). Photos become clips once the movie's size is known
    /// (`photoClips(in:width:height:)`).
    func readClips(_ files: [(url: URL, kind: MediaKind)], skip: (MovieMakerError) -> Void,
                   silent: (URL, MovieMakerError) -> Void = { _, _ in }) throws -> [Readable] {
        var readable: [Readable] = []
        for (url, given) in files {
            var kind = given
            // A GIF of one frame is a picture, shown for --photo-duration as slideshow shows it: as a clip
            // it lasted one frame and, first, set the movie's rate to its 10 fps.
            if kind == .movie, url.pathExtension.lowercased() == "gif", let file = try? VideoFile.probed(url),
               file.frameCount == 1 || file.duration <= file.frameRate.frameDuration {
                kind = .photo
            }
            do {
                switch kind {
                case .movie:
                    let file = try VideoFile.probed(url)
                    // Clip.video(url:) also refuses what cannot be shown faithfully (HDR).
                    let clip: Clip
                    do {
                        clip = try Clip.video(url, fit: fit, background: background, withSound: true)
                    } catch let error where !strict && file.hasAudio && Self.soundFailures.contains(error.code) {
                        // The picture probed; the sound did not (an empty or damaged AAC track, a codec
                        // FFmpeg cannot decode): the clip stays in the film, silent, rather than leaving it.
                        clip = try Clip.video(url, fit: fit, background: background, withSound: false)
                        silent(url, error)
                    }
                    readable.append(Readable(file: file, photo: nil, clip: clip, picture: Clip.video(file, fit: fit, background: background, withSound: false)))
                case .photo:
                    // Decoded whole at a small size (a JPEG at 1/8 scale in its DCT), as slideshow checks
                    // its photos: a truncated or corrupt file is skipped here, not found mid-render.
                    _ = try PhotoDecoder.decode(url, scaling: .fitting(Size(width: 64, height: 64)))
                    let placeholder = Clip.color(.black, duration: photoDuration)
                    readable.append(Readable(file: nil, photo: url, clip: placeholder, picture: placeholder))
                }
            } catch {
                if strict { throw error }
                skip(error)
            }
        }
        return readable
    }

    /// What reading a movie's sound throws once its picture has probed.
    static let soundFailures: Set<MovieMakerError.Code> = [.audioUnreadable, .unsupportedAudioCodec, .noAudioStream, .ffmpeg]

    /// The inputs with each photo made a clip at the movie's size: a one-photo slideshow (the stitch's
    /// fit and background, the slideshow's Ken Burns, directions alternating from photo to photo).
    /// Each photo shown more than `Slideshow.Fit.softEnlargement` times its pixels is named to `warn`.
    func photoClips(in readable: [Readable], width: Int, height: Int, warn: (String) -> Void = { _ in }) throws -> [Readable] {
        var photoIndex = 0
        return try readable.map { item in
            guard let url = item.photo else { return item }
            if let pixels = try? PhotoDecoder.info(url).size {
                let k = fit.enlargement(of: pixels, in: Size(width: Double(width), height: Double(height)), zoom: kenBurns ? 1 + Slideshow.KenBurns().zoom : 1)
                if let warning = Slideshow.Fit.softWarning(url.path, pixels: pixels, enlargement: k,
                                                           remedies: SlideshowCommand.softRemedies(fit: fit, kenBurns: kenBurns)) {
                    warn(warning)
                }
            }
            var show = Slideshow(photos: [Slideshow.Photo(url: url, duration: photoDuration)])
            show.duration = photoDuration
            show.fit = fit
            show.background = background
            show.transition = nil
            show.kenBurns = kenBurns ? Slideshow.KenBurns(seed: UInt64(photoIndex) + 1) : .off
            if kenBurns, photoIndex % 2 == 1 { show.kenBurns.direction = .zoomOut } else if kenBurns { show.kenBurns.direction = .zoomIn }
            photoIndex += 1
            let clip = try show.clip(width: width, height: height)
            var copy = item
            copy.clip = clip
            copy.picture = clip
            return copy
        }
    }

    func run() throws {
        let burnIn = try subtitles.load()
        let bed = try sound.musicBed()
        var skipped: [MovieMakerError] = []
        let warn: (MovieMakerError) -> Void = { error in
            skipped.append(error)
            Terminal.writeError("moviemaker: warning: skipping \(Self.shortReason(error))\n")
        }
        let files = try inputFiles { Terminal.writeError("moviemaker: warning: \($0)\n") }
        if progress.showsProgress { Terminal.writeError("stitch: checking \(files.count) file\(files.count == 1 ? "" : "s")…\n") }
        let probed = try readClips(files, skip: warn) { url, error in
            let reason = error.reason ?? error.message
            Terminal.writeError("moviemaker: warning: \(url.path): its sound cannot be read (\(reason)); it plays without sound (--strict stops instead)\n")
        }
        guard !probed.isEmpty else {
            let which = files.count == 1 ? "the clip \(files[0].url.path) could not be read" : "none of the \(files.count) clips could be read"
            throw MovieMakerError(code: .movieUnreadable, message: "nothing to stitch: \(which) (see the warnings above); give video files such as MP4, MOV or MKV, or photos",
                                  reason: which)
        }

        // The movie's size and rate: as asked, else the first movie's (even sides, as H.264 needs);
        // 1920x1080 at 30 fps when there are only photos.
        let firstMovie = probed.lazy.compactMap(\.file).first
        var width = size?.width ?? firstMovie.map { max(16, $0.width - $0.width % 2) } ?? 1920
        var height = size?.height ?? firstMovie.map { max(16, $0.height - $0.height % 2) } ?? 1080
        if let reframe, size == nil { (width, height) = reframe.frameSize(from: width, height: height) }
        func playedRate(_ file: VideoFile) -> FrameRate { file.isVariableFrameRate ? file.standardFrameRate : file.frameRate }
        let rate = fps ?? firstMovie.map(playedRate) ?? 30
        if fps == nil, let firstMovie, let fastest = probed.compactMap(\.file).max(by: { playedRate($0).framesPerSecond < playedRate($1).framesPerSecond }),
           playedRate(fastest).framesPerSecond > rate.framesPerSecond * 1.2 {
            // The first clip sets the rate: an animated GIF or a slow-motion export first would drop most
            // frames of every clip after it, unremarked.
            let fast = playedRate(fastest)
            // A variable-rate first clip gives the standard rate nearest its average: its own faster parts lose frames too.
            let variable = firstMovie.isVariableFrameRate ? ", a variable rate's nearest standard one, so its faster parts lose frames too" : ""
            Terminal.writeError("moviemaker: warning: the movie is at \(rate) fps, the first clip's (\(firstMovie.url.lastPathComponent)\(variable)); "
                                + "\(fastest.url.lastPathComponent) is \(fast) fps and loses frames at that rate: give --fps \(fast) to keep them\n")
        }
        var readable = try photoClips(in: probed, width: width, height: height) { Terminal.writeError("moviemaker: warning: \($0)\n") }
        if removeSilence {
            let detection = SilenceDetection(threshold: silenceThreshold)
            for i in readable.indices {
                guard let file = readable[i].file, file.hasAudio else { continue }
                let found: [TimeRange]
                do { found = try detection.silences(in: file.url) } catch { throw InputError("\(file.url.path): \(error.message)") }
                readable[i].clip = readable[i].clip.removingSilences(found, rate: rate)
                readable[i].picture = readable[i].picture.removingSilences(found, rate: rate)
                if progress.showsProgress, !found.isEmpty {
                    let cut = found.reduce(0.0) { $0 + max(0, $1.duration.seconds - 0.1) }
                    Terminal.writeError("stitch: \(file.url.lastPathComponent): \(found.count) silence\(found.count == 1 ? "" : "s") removed (about \(String(format: "%.1f", cut)) s)\n")
                }
            }
        }

        // Clips and transitions last whole frames of the movie, so each clip's picture and sound start
        // together on a frame: a 29.97 fps clip of 3.003 s put the next clip's sound 37 ms before its
        // first frame at 25 fps (its picture waits for the frame after the cut, its sound does not).
        // A clip's last part of a frame is left out; a transition takes the nearest whole frames.
        for i in readable.indices {
            let whole = rate.wholeFrames(of: readable[i].clip.duration)
            guard whole < readable[i].clip.duration else { continue }
            readable[i].clip = readable[i].clip.trimmed(to: whole)
            readable[i].picture = readable[i].picture.trimmed(to: whole)
        }
        let below = rate.time(ofFrame: rate.frameIndex(at: transitionDuration)), above = below + rate.frameDuration
        let joinDuration = below > .zero && transitionDuration - below <= above - transitionDuration ? below : above
        let join = transition.lowercased() == "none" ? nil : try Transition(xfadeName: transition, duration: joinDuration)
        if let reframe {
            for i in readable.indices {
                readable[i].clip = readable[i].clip.reframed(reframe)
                readable[i].picture = readable[i].picture.reframed(reframe)
            }
        }
        // A clip's sound fades in over the crossfade after one cut and out over it before the next, so a
        // crossfade over half the shortest clip would keep that clip's sound from ever reaching its level.
        var audioCrossfade = audioCrossfade
        if join == nil, readable.count > 1,
           let shortest = readable.indices.min(by: { readable[$0].clip.duration < readable[$1].clip.duration }),
           audioCrossfade * 2 > readable[shortest].clip.duration {
            let half = readable[shortest].clip.duration / 2
            let name = (readable[shortest].file?.url ?? readable[shortest].photo)?.lastPathComponent ?? "clip \(shortest + 1)"
            Terminal.writeError("moviemaker: warning: --audio-crossfade \(String(format: "%.2f", self.audioCrossfade.seconds)) s is more than half of "
                                + "the shortest clip (\(name), \(String(format: "%.2f", readable[shortest].clip.duration.seconds)) s): the sound crossfades over "
                                + "\(String(format: "%.2f", half.seconds)) s, so every clip is heard at its own level\n")
            audioCrossfade = half
        }
        let film = Clip.stitched(readable.map(\.clip), transition: join, audioCrossfade: audioCrossfade)
        burnIn.warnAboutTiming(movieLength: film.duration)
        /// The picture with the subtitles and captions burned in, when asked for.
        func withSubtitles(_ clip: Clip) throws -> Clip { try burnIn.apply(to: clip) }
        if case let .sequence(track) = film.node, let join {
            for (i, used) in track.transitions.enumerated() where (used?.duration ?? .zero) != join.duration {
                Terminal.writeError("moviemaker: warning: the transition between clip \(i + 1) and clip \(i + 2) is \(String(format: "%.2f", (used?.duration ?? .zero).seconds)) s, not \(join.duration.seconds) s: it has to fit in both clips\n")
            }
        }
        let hasSound = bed != nil || !film.sounds.isEmpty
        if sound.normalize && !hasSound {
            Terminal.writeError("moviemaker: warning: --normalize ignored: the clips have no sound and no --music was given\n")
        }

        let reporter = ProgressReporter(label: "stitch", output: output.output, options: progress)
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: output.url, width: width, height: height, fps: rate, settings: quality.encoderSettings(animatedImage: animatedImage))
        }
        try reporter.render(movie) {
            if bed != nil || (sound.normalize && hasSound) {
                // One mix: the clips' own sound (the sidechain) over the ducked music, then the picture alone.
                if sound.normalize && progress.showsProgress { Terminal.writeError("stitch: measuring the sound's loudness…\n") }
                try movie.addAudio(AudioMix(soundOf: film, adding: bed.map { [AudioMix.Track($0, role: .ducked)] } ?? [],
                                            normalizedTo: sound.normalize ? sound.loudness : nil))
                try movie.add(withSubtitles(Clip.stitched(readable.map(\.picture), transition: join, audioCrossfade: audioCrossfade)))
            } else {
                try movie.add(withSubtitles(film))
            }
        }
        if progress.showsProgress {
            let photos = readable.filter { $0.photo != nil }.count
            var line = "stitch: \(readable.count - photos) clip\(readable.count - photos == 1 ? "" : "s")"
                + (photos > 0 ? " and \(photos) photo\(photos == 1 ? "" : "s")" : "") + " used, \(skipped.count) skipped"
            line += skipped.isEmpty ? "" : ":"
            Terminal.printLine(line)
            for error in skipped { Terminal.printLine("  \(Self.shortReason(error))") }
        }
    }

    /// `path: reason` for a skipped clip, without the advice the full error gives.
    static func shortReason(_ error: Error) -> String {
        guard let error = error as? MovieMakerError else { return "\(error)" }
        switch (error.code, error.location?.file, error.reason) {
        case let (.movieUnreadable, path?, reason?): return "\(path): \(reason)"
        case let (.movieTruncated, path?, reason?): return "\(path): truncated (\(reason))"
        case let (.noVideoStream, path?, reason?): return "\(path): no video stream (\(reason))"
        // The reason and the way to fix it (the conversion that makes an HDR clip usable).
        case let (.videoUnsupported, path?, _): return "\(path): " + error.message.replacingOccurrences(of: "cannot show the video \(path): ", with: "")
        case let (_, path?, reason?): return "\(path): \(reason)"
        default: return error.description
        }
    }
}

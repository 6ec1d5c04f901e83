import ArgumentParser
import Foundation
import MovieMaker

extension Slideshow.Fit: ExpressibleByArgument {}
extension PhotoOrder: ExpressibleByArgument {}
extension Slideshow.KenBurns.Direction: ExpressibleByArgument {}

/// What `--captions` accepts.
enum CaptionsArgument: String, ExpressibleByArgument, CaseIterable {
    case none, filename, date

    /// The slideshow setting.
    var captions: Slideshow.Captions {
        switch self {
        case .none: .none
        case .filename: .filename
        case .date: .date
        }
    }
}

/// `moviemaker slideshow`: a folder of photos (or a list of files) as a film.
struct SlideshowCommand: RenderingCommand {
    static let configuration = CommandConfiguration(
        commandName: "slideshow",
        abstract: "Turn a folder of photos into a film, with transitions and pan-and-zoom.",
        discussion: """
            Photos are read as phones and cameras write them: JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF, \
            BMP and GIF, turned upright by their EXIF orientation, with embedded colour profiles \
            (Display P3, Adobe RGB) converted to sRGB. A folder's photos are shown in natural name \
            order (img2 before img10) unless --order date; files named on the command line keep \
            the order given unless --order is set.

            Every photo is checked before the first frame. A file that is not an image, or is \
            truncated or corrupt, is skipped with a warning naming it (or stops the run with \
            --strict), and listed in the summary.

            Transitions use FFmpeg xfade's names: \(Transition.knownNames.joined(separator: ", ")); \
            or none for cuts.

            Examples:
              moviemaker slideshow ~/Pictures/Holiday -o trip.mp4
              moviemaker slideshow Holiday --order date --captions date --fit fill -o trip.mp4
              moviemaker slideshow a.jpg b.heic c.png --duration 4 --transition circleopen -o three.mp4
              moviemaker slideshow Holiday --music song.mp3 --music-volume -3 --normalize -o trip.mp4
            """)

    /// Folders and files, in order.
    @Argument(help: ArgumentHelp("Folders of photos and/or photo files.", valueName: "folder-or-photo"))
    var inputs: [String]

    /// Seconds each photo is on screen.
    @Option(name: [.short, .long], help: ArgumentHelp("Seconds each photo is on screen, e.g. 3, 2.5 or 2500ms. (default: 3)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var duration: Time = 3

    /// The transition between photos, by xfade name.
    @Option(help: ArgumentHelp("Transition between photos: an FFmpeg xfade name (fade, wipeleft, slideup, circleopen, dissolve, …) or none.",
                               valueName: "name"))
    var transition: String = "fade"

    /// How long each transition takes.
    @Option(help: ArgumentHelp("Seconds each transition takes; it overlaps the neighbouring photos. (default: 1, or half of --duration when that is 2 s or less)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var transitionDuration: Time?

    /// The default transition length: 1 s, shortened to half a photo's time for short photos (a
    /// default adapts to what was asked; only a typed value is refused).
    var effectiveTransitionDuration: Time {
        transitionDuration ?? Time.min(1, Time(value: duration.value, timescale: duration.timescale * 2))
    }

    /// Fit mode.
    @Option(help: ArgumentHelp("How photos fill the frame: fill (crop to cover), fit (whole photo on --background), blur (whole photo over a blurred copy). (default: blur)",
                               valueName: "mode"))
    var fit: Slideshow.Fit = .blur

    /// Pan and zoom on or off.
    @Flag(inversion: .prefixedNo, help: "Slowly pan and zoom each photo (Ken Burns).")
    var kenBurns = true

    /// Ken Burns zoom amount.
    @Option(help: ArgumentHelp("How far the Ken Burns zoom goes, as a fraction (0.12 = 12 %).", valueName: "fraction"))
    var kenBurnsZoom: Double = 0.12

    /// Ken Burns direction.
    @Option(help: ArgumentHelp("Zoom in, out, or alternate per photo. (default: alternate)", valueName: "in|out|alternate"))
    var kenBurnsDirection: Slideshow.KenBurns.Direction = .alternate

    /// Order of the photos.
    @Option(help: ArgumentHelp("name (natural: img2 before img10) or date (EXIF capture date). (default: name for folders, as given for files)",
                               valueName: "order"))
    var order: PhotoOrder?

    /// Captions.
    @Option(help: ArgumentHelp("Caption each photo with: none, filename, date (EXIF). (default: none)", valueName: "kind"))
    var captions: CaptionsArgument = .none

    /// Seed for the Ken Burns choices.
    @Option(help: ArgumentHelp("Seed for the pan-and-zoom choices: the same seed gives the same film.", valueName: "n"))
    var seed: UInt64 = 1

    /// Background colour around fitted photos.
    @Option(help: ArgumentHelp("Colour around photos with --fit fit (CSS). (default: black)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var background: Color = .black

    @OptionGroup(title: "Sound track") var sound: SoundTrackOptions

    /// Fail on the first unreadable photo instead of skipping it.
    @Flag(help: "Stop with an error at the first photo that cannot be read, instead of skipping it.")
    var strict = false

    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Video") var video: VideoOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard !inputs.isEmpty else {
            throw ValidationError("give a folder of photos or photo files, e.g. moviemaker slideshow Holiday -o trip.mp4")
        }
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw InputError("\(input): no such file or folder")
        }
        guard !output.isStill else {
            throw ValidationError("a slideshow is a movie: use -o trip.mp4 (or .mov, .mkv, .webm), not .\(output.fileExtension)")
        }
        if transition.lowercased() != "none" {
            do { _ = try Transition(xfadeName: transition) } catch { throw ValidationError("--transition: \(error)") }
            if let transitionDuration, transitionDuration >= duration {
                throw ValidationError("--transition-duration \(transitionDuration.seconds) must be shorter than --duration \(duration.seconds), so each photo is seen on its own")
            }
        }
        if sound.normalize && sound.music == nil { throw ValidationError("--normalize works on the sound track: give --music FILE") }
        guard kenBurnsZoom >= 0, kenBurnsZoom <= 1 else {
            throw ValidationError("--ken-burns-zoom \(kenBurnsZoom) must be from 0 to 1 (0.12 is a gentle 12 % zoom)")
        }
    }

    /// The photos the inputs name, in order, read header-only; unreadable ones reported through `skip`.
    func collectPhotos(skip: (MovieMakerError) -> Void) throws -> [Slideshow.Photo] {
        var photos: [Slideshow.Photo] = []
        var sawFolder = false
        for input in inputs {
            let url = URL(fileURLWithPath: input)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            if isFolder.boolValue {
                sawFolder = true
                let found = try PhotoDecoder.photos(in: url, order: .fileName, strict: strict, skipped: skip)
                photos += found.map { Slideshow.Photo(url: $0.url, captureDate: $0.captureDate) }
            } else {
                do {
                    let info = try PhotoDecoder.info(url)
                    photos.append(Slideshow.Photo(url: info.url, captureDate: info.captureDate))
                } catch {
                    if strict { throw error }
                    skip(error)
                }
            }
        }
        var show = Slideshow(photos: photos)
        if let order = order ?? (sawFolder ? .fileName : nil) { show.sortPhotos(by: order) }
        return show.photos
    }

    /// The show the options describe, for `photos`.
    func makeShow(_ photos: [Slideshow.Photo]) throws -> Slideshow {
        var show = Slideshow(photos: photos)
        show.duration = duration
        show.fit = fit
        show.background = background
        show.captions = captions.captions
        show.kenBurns = kenBurns ? Slideshow.KenBurns(zoom: kenBurnsZoom, direction: kenBurnsDirection, seed: seed) : .off
        show.transition = transition.lowercased() == "none" ? nil : try Transition(xfadeName: transition, duration: effectiveTransitionDuration)
        if !progress.silent && transitionDuration == nil && effectiveTransitionDuration < 1 && photos.count > 1 && transition.lowercased() != "none" {
            Terminal.writeError("moviemaker: note: transitions take \(effectiveTransitionDuration.seconds) s (half of --duration) instead of the default 1 s; set --transition-duration to choose\n")
        }
        return show
    }


    /// The sound track for a film of `duration`: the bed, or the bed normalised as a mix of that length.
    static func soundtrack(_ bed: AudioClip, duration: Time, normalize: Bool, loudness: Double) -> any AudioSource {
        guard normalize else { return bed }
        // The bed is faded out at the film's end; the mix of exactly that length is measured, then set to the target.
        return AudioMix([AudioMix.Track(bed)], duration: duration).normalized(to: loudness)
    }

    func run() throws {
        let bed = try sound.musicBed()
        var skipped: [MovieMakerError] = []
        let warn: (MovieMakerError) -> Void = { error in
            skipped.append(error)
            Terminal.writeError("moviemaker: warning: skipping \(Self.shortReason(error))\n")
        }
        let found = try collectPhotos(skip: warn)
        if found.isEmpty { throw noPhotosError(skipped: skipped) }

        if progress.showsProgress { Terminal.writeError("slideshow: checking \(found.count) photo\(found.count == 1 ? "" : "s")…\n") }
        let (show, unreadable) = try makeShow(found).removingUnreadablePhotos(strict: strict)
        for error in unreadable { warn(error) }
        if show.photos.isEmpty { throw noPhotosError(skipped: skipped) }

        let size = video.size
        let clip = try show.clip(width: size.width, height: size.height)
        let reporter = ProgressReporter(label: "slideshow", output: output.output, options: progress)
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: output.url, width: size.width, height: size.height, fps: video.fps, settings: video.encoderSettings)
        }
        try reporter.render(movie) {
            if let bed {
                if sound.normalize && progress.showsProgress { Terminal.writeError("slideshow: measuring the music's loudness…\n") }
                try movie.addAudio(Self.soundtrack(bed, duration: clip.duration, normalize: sound.normalize, loudness: sound.loudness))
            }
            try movie.add(clip)
        }
        if progress.showsProgress {
            var line = "slideshow: \(show.photos.count) photo\(show.photos.count == 1 ? "" : "s") used, \(skipped.count) skipped"
            line += skipped.isEmpty ? "" : ":"
            Terminal.printLine(line)
            for error in skipped { Terminal.printLine("  \(Self.shortReason(error))") }
        }
    }

    /// `path: reason` for a skipped photo, without the advice the full error gives.
    static func shortReason(_ error: MovieMakerError) -> String {
        switch (error.code, error.location?.file, error.reason) {
        case let (.notAnImage, path?, reason?): "\(path): not an image (\(reason))"
        case let (.imageUnreadable, path?, reason?): "\(path): \(reason)"
        default: error.description
        }
    }

    /// The error for a run that found nothing to show: an empty folder, or files none of which are photos.
    func noPhotosError(skipped: [MovieMakerError]) -> MovieMakerError {
        let source = inputs.count == 1 ? inputs[0] : "the \(inputs.count) inputs"
        var isFolder: ObjCBool = false
        if inputs.count == 1, FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isFolder), isFolder.boolValue,
           skipped.isEmpty {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: inputs[0]))?.filter { !$0.hasPrefix(".") } ?? []
            let reason = names.isEmpty ? "the folder is empty"
                : "none of its \(names.count) file\(names.count == 1 ? " has" : "s have") a photo extension (\(PhotoDecoder.fileExtensions.sorted().joined(separator: ", ")))"
            return .noPhotos(source: source, reason: reason)
        }
        if skipped.isEmpty { return .noPhotos(source: source, reason: "no photo files found") }
        return .noPhotos(source: source, reason: "all \(skipped.count) photo file\(skipped.count == 1 ? " is" : "s are") unreadable (see the warnings above)")
    }
}

import ArgumentParser
import Foundation
import MovieMaker

extension Slideshow.Fit: ExpressibleByArgument {}
extension PhotoOrder: ExpressibleByArgument {}
extension Slideshow.KenBurns.Direction: ExpressibleByArgument {}

extension Slideshow.CaptionPosition: ExpressibleByArgument {}

/// What `--captions` accepts: a kind of caption every photo gets, or a sidecar file of captions.
enum CaptionsArgument: Equatable {
    /// `none`, `filename` or `date`.
    case kind(Slideshow.Captions)
    /// A `captions.csv` or `captions.txt` file (file name → text).
    case sidecar(URL)

    /// `none`, `filename`, `date`, or the path of an existing `.csv` or `.txt` file.
    static func parse(_ text: String) throws(ArgumentValueError) -> CaptionsArgument {
        if let kind = Slideshow.Captions(rawValue: text.lowercased()) { return .kind(kind) }
        let url = URL(fileURLWithPath: text)
        let kinds = Slideshow.Captions.allCases.map(\.rawValue).joined(separator: ", ")
        guard ["csv", "txt"].contains(url.pathExtension.lowercased()) else {
            throw ArgumentValueError("expected \(kinds), or a captions file ending in .csv or .txt (file name → text)")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw ArgumentValueError("no such captions file: give an existing .csv (file,text) or .txt (name: text) file, or one of \(kinds)")
        }
        return .sidecar(url)
    }

    /// The kind of caption photos get (a sidecar's photos get theirs from the file: none otherwise).
    var captions: Slideshow.Captions {
        if case let .kind(kind) = self { return kind }
        return .none
    }
}

/// What `--duration` accepts: a length of time per photo, or `auto`.
enum PhotoDurationArgument: Equatable {
    /// Each photo lasts this long.
    case fixed(Time)
    /// The photos share the music's length.
    case auto

    /// `auto`, or a length of time (`3`, `2.5`, `2500ms`).
    static func parse(_ text: String) throws(ArgumentValueError) -> PhotoDurationArgument {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "auto" { return .auto }
        do { return .fixed(try DurationArgument.parse(text)) } catch {
            throw ArgumentValueError(error.description + ", or auto (the photos share the length of --music)")
        }
    }
}

/// `moviemaker slideshow`: a folder of photos (or a list of files) as a film.
struct SlideshowCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "slideshow",
        abstract: "Turn a folder of photos into a film, with transitions and pan-and-zoom.",
        discussion: """
            Photos are read as phones and cameras write them: JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF, \
            BMP and GIF, turned upright by their EXIF orientation, with embedded colour profiles \
            (Display P3, Adobe RGB) converted to sRGB. Inputs are shown in the order given, a \
            folder's photos in natural name order (img2 before img10); --order date or --order name \
            sorts them all.

            Every photo is checked before the first frame. A file that is not an image, or is \
            truncated or corrupt, is skipped with a warning naming it (or stops the run with \
            --strict), and listed in the summary.

            Transitions use FFmpeg xfade's names: \(Transition.knownNames.joined(separator: ", ")); \
            or none for cuts.

            Examples:
              moviemaker slideshow ~/Pictures/Holiday --size 720p -o trip.mp4
              moviemaker slideshow Holiday --order date --captions date --fit fill \\
                --size 360p -o trip.mp4
              moviemaker slideshow a.jpg b.heic c.png --transition circleopen \\
                --size 360p -o three.mp4
              moviemaker slideshow Holiday --music song.mp3 --music-volume -3 \\
                --normalize --size 360p -o trip.mp4
              moviemaker slideshow Holiday --music song.mp3 --duration auto \\
                --title "Summer" --end-title "Thanks" --captions captions.csv \\
                --size 360p -o trip.mp4
              moviemaker slideshow Holiday --music song.mp3 -d auto --dry-run -o trip.mp4
              moviemaker slideshow Holiday -o poster.png   # the middle of the first photo

            A captions file (--captions captions.csv or captions.txt) gives photos their text by file name. \
            CSV: rows of file,text or file,text,focus, an optional header (file,text,focus), fields with \
            commas in "double quotes". TXT: lines of name: text or name<TAB>text[<TAB>focus]; # starts a \
            comment. A name matches a photo's file name or its name without the extension, ignoring case. \
            focus is "x,y" from 0 to 1 across the photo from its top-left corner: the point --fit fill keeps \
            in frame (without it, the middle, or a third of the way down for portraits in a landscape frame).
            """)

    /// Folders and files, in order.
    @Argument(help: ArgumentHelp("Folders of photos and/or photo files.", valueName: "folder-or-photo"))
    var inputs: [String]

    /// Seconds each photo is on screen, or auto.
    @Option(name: [.short, .customLong("duration")], help: ArgumentHelp("Seconds each photo is on screen, e.g. 3, 2.5 or 2500ms; or auto: the film lasts as long as --music and the photos share the time. (default: 3)",
                                                      valueName: "seconds|auto"),
            transform: { (text: String) throws -> PhotoDurationArgument in try PhotoDurationArgument.parse(text) })
    var durationSetting: PhotoDurationArgument?

    /// `--duration auto` by another name.
    @Flag(help: "Make the film as long as --music, the photos sharing the time (the same as --duration auto).")
    var fitMusic = false

    /// Whether the photos share the music's length.
    var isAuto: Bool { fitMusic || durationSetting == .auto }

    /// Each photo's time when fixed (3 s, or `--duration`); with auto, 3 s until the music is measured.
    var duration: Time {
        if case let .fixed(t) = durationSetting { return t }
        return 3
    }

    /// The transition between photos, by xfade name.
    @Option(help: ArgumentHelp("Transition between photos: an FFmpeg xfade name (fade, wipeleft, slideup, circleopen, dissolve, …) or none.",
                               valueName: "name"))
    var transition: String = "fade"

    /// How long each transition takes.
    @Option(help: ArgumentHelp("Seconds each transition takes; it overlaps the neighbouring photos. (default: 1, or half of --duration when that is 2 s or less)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var transitionDuration: Time?

    /// Fit mode.
    @Option(help: ArgumentHelp("How photos fill the frame: fill (crop to cover), fit (whole photo on --background), blur (whole photo over a blurred copy).",
                               valueName: "mode"))
    var fit: Slideshow.Fit = .blur

    /// Pan and zoom on or off.
    @Flag(inversion: .prefixedNo, help: "Slowly pan and zoom each photo (Ken Burns).")
    var kenBurns = true

    /// Ken Burns zoom amount.
    @Option(help: ArgumentHelp("How far the Ken Burns zoom goes, as a fraction (0.12 = 12 %).", valueName: "fraction"))
    var kenBurnsZoom: Double = 0.12

    /// Ken Burns direction.
    @Option(help: ArgumentHelp("Zoom in, out, or alternate per photo.", valueName: "in|out|alternate"))
    var kenBurnsDirection: Slideshow.KenBurns.Direction = .alternate

    /// Ken Burns easing.
    @Option(help: ArgumentHelp("How the Ken Burns view moves over each photo's time: an easing name as --easing elsewhere takes "
                                   + "(linear: a constant rate; sineInOut, easeInOut, cubicOut, cubic-bezier(…)…). (default: sineInOut)",
                               valueName: "easing"),
            transform: { (text: String) throws -> Easing in try Easing(named: text) })
    var kenBurnsEasing: Easing = .sineInOut

    /// Order of the photos.
    @Option(help: ArgumentHelp("name (natural: img2 before img10) or date (EXIF capture date). (default: name for folders, as given for files)",
                               valueName: "order"))
    var order: PhotoOrder?

    /// Captions.
    @Option(help: ArgumentHelp("Caption each photo with: none, filename, date (EXIF), or the text for it in a captions file (a .csv or .txt path; see above). (default: none)",
                               valueName: "kind|file"),
            transform: { (text: String) throws -> CaptionsArgument in try CaptionsArgument.parse(text) })
    var captions: CaptionsArgument = .kind(.none)

    /// Caption font family.
    @Option(help: ArgumentHelp("Font family of the captions, e.g. \"DejaVu Serif\" (list them with fc-list : family). (default: DejaVu Sans)", valueName: "family"))
    var captionFont: String?

    /// Caption size.
    @Option(help: ArgumentHelp("Caption size in pixels of a 1080-line frame (scaled to --size). (default: 44)", valueName: "px"))
    var captionSize: Double?

    /// Caption position.
    @Option(help: ArgumentHelp("Where captions sit: top, bottom or center.", valueName: "top|bottom|center"))
    var captionPosition: Slideshow.CaptionPosition = .bottom

    /// Intro card title.
    @Option(help: ArgumentHelp("Open the film with a title card showing this text.", valueName: "text"))
    var title: String?

    /// Intro card subtitle.
    @Option(help: ArgumentHelp("A smaller line under --title on the intro card.", valueName: "text"))
    var subtitle: String?

    /// Outro card title.
    @Option(help: ArgumentHelp("Close the film with a title card showing this text.", valueName: "text"))
    var endTitle: String?

    /// How long each card lasts.
    @Option(help: ArgumentHelp("Seconds each title card (--title, --end-title) is on screen. (default: 3)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var titleDuration: Time = 3

    /// Print the plan only.
    @Flag(help: "Print the plan (the photos in order, each one's time and caption, the skipped files) and write nothing.")
    var dryRun = false

    /// Seed for the Ken Burns choices.
    @Option(help: ArgumentHelp("Seed for the pan-and-zoom choices: the same seed gives the same film.", valueName: "n"))
    var seed: UInt64 = 1

    /// Background colour around fitted photos.
    @Option(help: ArgumentHelp("Colour around photos with --fit fit (CSS). (default: black)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var background: Color = .black

    @OptionGroup(title: "Sound track") var sound: SoundTrackOptions

    /// What cuts snap to.
    @Option(name: .customLong("cut-on"), help: ArgumentHelp("beats: each photo after the first starts on the frame holding a beat of --music (aubio's beat tracker; see moviemaker beats).",
                                                            valueName: "beats"))
    var cutOn: String?

    /// Cut on every n-th beat.
    @Option(help: ArgumentHelp("With --cut-on beats: cut on every n-th beat (2: every second beat). (default: 1)", valueName: "n"))
    var every: Int?

    /// The shortest shot.
    @Option(name: .customLong("min-shot"), help: ArgumentHelp("With --cut-on beats: the shortest a photo is shown, in seconds; closer beats are skipped. (default: 1)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var minShot: Time?

    /// Fail on the first unreadable photo instead of skipping it.
    @Flag(help: "Stop with an error at the first photo that cannot be read, instead of skipping it.")
    var strict = false

    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Video") var video: VideoOptions
    @OptionGroup(title: "Video") var quality: EncoderQualityOptions
    @OptionGroup(title: "Video") var animatedImage: AnimatedImageOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        try quality.checkBitDepth()
        try animatedImage.check(destination: output.output, quality: quality)
        guard !inputs.isEmpty else {
            throw ValidationError("give a folder of photos or photo files, e.g. moviemaker slideshow Holiday -o trip.mp4")
        }
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw InputError("\(input): no such file or folder")
        }
        if fitMusic, case let .fixed(t)? = durationSetting {
            throw ValidationError("--fit-music shares the song's length between the photos: leave out --duration \(t.seconds) (or give --duration auto)")
        }
        if isAuto && sound.music == nil {
            throw ValidationError("--duration auto makes the film as long as the song: give --music FILE (or a time, e.g. --duration 3)")
        }
        if transition.lowercased() != "none" {
            do { _ = try Transition(xfadeName: transition) } catch { throw ValidationError("--transition: \(error)") }
            // With --cut-on beats the beats set each photo's time, at least a transition and a bit more.
            if let transitionDuration, !isAuto, cutOn == nil, transitionDuration >= duration {
                throw ValidationError("--transition-duration \(transitionDuration.seconds) must be shorter than --duration \(duration.seconds), so each photo is seen on its own")
            }
            if let transitionDuration, title != nil || endTitle != nil, transitionDuration >= titleDuration {
                throw ValidationError("--transition-duration \(transitionDuration.seconds) must be shorter than --title-duration \(titleDuration.seconds), so each card is seen on its own")
            }
        }
        if subtitle != nil && title == nil {
            throw ValidationError("--subtitle goes under the intro's title: give --title TEXT too")
        }
        for (name, text) in [("--title", title), ("--subtitle", subtitle), ("--end-title", endTitle)] {
            if let text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw ValidationError("\(name) is empty: give the text to show, e.g. \(name) \"Summer 2025\"")
            }
        }
        if let captionSize, !(captionSize.isFinite && captionSize >= 4 && captionSize <= 400) {
            throw ValidationError("--caption-size \(captionSize) is out of range: give 4 to 400 pixels of a 1080-line frame, e.g. 44")
        }
        if let captionFont, captionFont.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--caption-font is empty: give a font family, e.g. \"DejaVu Serif\"")
        }
        if sound.normalize && sound.music == nil { throw ValidationError("--normalize works on the sound track: give --music FILE") }
        if let cutOn {
            guard cutOn == "beats" else { throw ValidationError("--cut-on \(cutOn): the cuts snap to beats: give --cut-on beats") }
            guard sound.music != nil else { throw ValidationError("--cut-on beats cuts on the music's beats: give --music FILE") }
            if durationSetting != nil || fitMusic { throw ValidationError("--cut-on beats sets each photo's time from the beats: leave out --duration and --fit-music") }
        }
        if cutOn == nil, let option = every != nil ? "--every" : minShot != nil ? "--min-shot" : nil {
            throw ValidationError("\(option) is for cuts on the beat: add --cut-on beats (and --music), or leave it out")
        }
        if let every, !(1...64).contains(every) { throw ValidationError("--every \(every): give a whole number of beats from 1 to 64, e.g. --every 2") }
        guard kenBurnsZoom >= 0, kenBurnsZoom <= 1 else {
            throw ValidationError("--ken-burns-zoom \(kenBurnsZoom) must be from 0 to 1 (0.12 is a gentle 12 % zoom)")
        }
    }

    /// The photos the inputs name, in order, read header-only; unreadable ones reported through `skip`.
    /// `sizes` gets each photo's upright size in pixels.
    func collectPhotos(skip: (MovieMakerError) -> Void, sizes: inout [URL: Size]) throws -> [Slideshow.Photo] {
        var photos: [Slideshow.Photo] = []
        for input in inputs {
            let url = URL(fileURLWithPath: input)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            if isFolder.boolValue {
                let found = try PhotoDecoder.photos(in: url, order: .fileName, strict: strict, skipped: skip)
                for info in found { sizes[info.url] = info.size }
                photos += found.map { Slideshow.Photo(url: $0.url, captureDate: $0.captureDate) }
            } else {
                do {
                    let info = try PhotoDecoder.info(url)
                    sizes[info.url] = info.size
                    photos.append(Slideshow.Photo(url: info.url, captureDate: info.captureDate))
                } catch {
                    if strict { throw error }
                    skip(error)
                }
            }
        }
        // Each folder is in name order already, and the inputs keep the order given (a cover named
        // before a folder stays first; two folders stay one after the other); --order sorts them all.
        var show = Slideshow(photos: photos)
        if let order { show.sortPhotos(by: order) }
        if order == .captureDate, show.photos.count > 1 {
            // Said, so a phone's folder of screenshots and downloads is not a silent muddle.
            let undated = show.photos.filter { $0.captureDate == nil }.map(\.url.lastPathComponent)
            if !undated.isEmpty {
                let names = undated.prefix(5).joined(separator: ", ") + (undated.count > 5 ? " and \(undated.count - 5) more" : "")
                let what = undated.count == show.photos.count
                    ? "no photo has a capture date (EXIF DateTimeOriginal): they stay in name order"
                    : "\(undated.count) of the \(show.photos.count) photos have no capture date (EXIF DateTimeOriginal): they come last, in name order"
                Terminal.writeError("moviemaker: warning: --order date: \(what) (\(names))\n")
            }
        }
        return show.photos
    }

    /// The transition length for photos of `photoTime`: `--transition-duration`, or 1 s shortened to
    /// half a photo's time for short photos (a default adapts to what was asked; only a typed value is
    /// refused).
    func transitionLength(photoTime: Time) -> Time {
        transitionDuration ?? Time.min(1, Time(value: photoTime.value, timescale: photoTime.timescale * 2))
    }

    /// The show the options describe, for `photos`: captions (a sidecar's applied, its rows that name
    /// no photo passed to `warn`), cards, and with `--duration auto` the photos' times shared out of
    /// `musicLength`.
    func makeShow(_ photos: [Slideshow.Photo], musicLength: Time?, warn: (String) -> Void) throws -> Slideshow {
        var show = Slideshow(photos: photos)
        show.duration = duration
        show.fit = fit
        show.background = background
        show.captions = captions.captions
        if let captionFont { show.captionStyle.font.family = captionFont }
        if let captionSize { show.captionStyle.font.size = captionSize }
        show.captionPosition = captionPosition
        if case .kind(.date) = captions {
            // A photo without a capture date gets no caption: said, as --order date says it.
            let undated = photos.filter { $0.captureDate == nil }.map(\.url.lastPathComponent)
            if !undated.isEmpty {
                let names = undated.prefix(5).joined(separator: ", ") + (undated.count > 5 ? " and \(undated.count - 5) more" : "")
                let which = undated.count == photos.count ? "no photo has a capture date" : "\(undated.count) of the \(photos.count) photos \(undated.count == 1 ? "has" : "have") no capture date"
                warn("warning: --captions date: \(which) (EXIF DateTimeOriginal), so \(undated.count == 1 ? "it shows" : "they show") no caption (\(names))")
            }
        }
        if case let .sidecar(url) = captions {
            let sheet = try CaptionSheet(contentsOf: url)
            for entry in show.applyCaptions(sheet) {
                warn("warning: \(url.path), line \(entry.line): no photo named \(entry.name)")
            }
            // The last row naming a photo wins (CaptionSheet): a second row is usually a copy-paste slip.
            for photo in show.photos {
                let rows = sheet.rows(for: photo.url)
                guard rows.count > 1, let used = rows.last else { continue }
                let lines = rows.dropLast().map { "\($0.line)" }.joined(separator: ", ")
                warn("warning: \(url.path), lines \(lines) and \(used.line) \(rows.count > 2 ? "all" : "both") name \(photo.url.lastPathComponent): line \(used.line) is used")
            }
        }
        if let title {
            var card = TitleCard(title, subtitle: subtitle, duration: titleDuration)
            card.exit = .fade(duration: min(0.5, titleDuration.seconds / 4))
            show.intro = card
        }
        if let endTitle {
            var card = TitleCard(endTitle, duration: titleDuration)
            card.exit = .fade(duration: min(0.5, titleDuration.seconds / 4))
            show.outro = card
        }
        show.kenBurns = kenBurns ? Slideshow.KenBurns(zoom: kenBurnsZoom, direction: kenBurnsDirection, seed: seed, easing: kenBurnsEasing) : .off
        let cuts = transition.lowercased() == "none"
        if isAuto {
            guard let musicLength, musicLength > .zero else {
                throw MovieMakerError.invalidSetting(.duration, value: "auto",
                                                     expected: "a music file that says how long it is (\(sound.music ?? "the music") does not): give a time, e.g. --duration 3")
            }
            // The transition depends on the photos' time (half of it when short), so share once with the
            // default 1 s, then again with the transition those times call for.
            let cards = (show.intro?.duration ?? .zero) + (show.outro?.duration ?? .zero)
            let rough = musicLength > cards ? (musicLength - cards) / photos.count : .zero
            let length = transitionLength(photoTime: Time.max(rough, Time(value: 1, timescale: 1000)))
            show.transition = cuts ? nil : try Transition(xfadeName: transition, duration: length)
            try show.shareDuration(musicLength, fps: video.fps)
        } else {
            show.transition = cuts ? nil : try Transition(xfadeName: transition, duration: transitionLength(photoTime: duration))
        }
        if cutOn == "beats", let music = sound.music {
            let beats: Beats
            do { beats = try Beats.analysed(URL(fileURLWithPath: music)) } catch { throw InputError("--music \(music): \(error.message)") }
            guard beats.tempo > 0 else {
                throw InputError("--music \(music) has no steady beat to cut on (\(Beats.noTempoReason(URL(fileURLWithPath: music)))): "
                                 + "leave out --cut-on beats, and give --duration or --fit-music instead")
            }
            // The music starts with the film: the intro's time is music time too.
            let period = try sound.musicBed()?.loopPeriod
            try show.cutOnBeats(beats, fps: video.fps, every: every ?? 1, minimumShot: minShot ?? 1, musicLoop: period.map { (.zero, $0) })
        }
        if let t = show.transition, let card = show.intro ?? show.outro, t.duration >= card.duration {
            throw ValidationError("the \(t.duration.seconds) s transition must be shorter than --title-duration \(card.duration.seconds): shorten --transition-duration or lengthen the cards")
        }
        let photoTime = show.photos.first?.duration ?? show.duration
        if transitionDuration == nil, let t = show.transition, t.duration < 1, photos.count > 1 || show.intro != nil || show.outro != nil {
            // Shared photo times differ by a frame (--duration auto): the range is given, not one of them.
            let times = show.photos.map { $0.duration ?? show.duration }
            let shortest = times.min() ?? photoTime, longest = times.max() ?? photoTime
            let each = shortest == longest ? "half of each photo's \(Self.seconds(photoTime)) s" : "about half of each photo's \(Self.seconds(shortest))–\(Self.seconds(longest)) s"
            warn("note: transitions take \(Self.seconds(t.duration)) s (\(each)) instead of the default 1 s; set --transition-duration to choose")
        }
        return show
    }


    /// `t` in seconds with at most three decimals: `0.5`, `0.333`, `2`.
    static func seconds(_ t: Time) -> String { Slideshow.seconds(t) }

    /// The time of the poster still: the middle of the first photo's time alone on screen, on a frame.
    static func posterTime(of show: Slideshow, fps: FrameRate) -> Time {
        let start = show.intro?.duration ?? .zero
        let lead = show.intro != nil ? (show.transition?.duration ?? .zero) : .zero
        let shown = show.photos[0].duration ?? show.duration
        let middle = start + (lead + shown) / 2
        return fps.time(ofFrame: fps.frameIndex(at: middle))
    }

    func run() throws {
        let bed = try sound.musicBed()
        var skipped: [MovieMakerError] = []
        let warn: (MovieMakerError) -> Void = { error in
            skipped.append(error)
            Terminal.writeError("moviemaker: warning: skipping \(Self.shortReason(error))\n")
        }
        var sizes: [URL: Size] = [:]
        let found = try collectPhotos(skip: warn, sizes: &sizes)
        // Named before any error about the photos, so a folder of videos (and a broken photo) is explained.
        let videos = videosLeftOut()
        if !(found.isEmpty && skipped.isEmpty && inputs.count == 1) {
            for (folder, names) in videos {
                Terminal.writeError("moviemaker: warning: \(folder) holds \(Self.count(names.count, "video")) a slideshow does not show "
                                    + "(\(Self.sample(names))); `moviemaker stitch \(Terminal.shellWord(folder))` joins its photos and videos\n")
            }
        }
        // Folders inside a folder are not read (a phone's DCIM/100APPLE…): said, with how to include them.
        if !(found.isEmpty && skipped.isEmpty && inputs.count == 1) {
            for (folder, names) in foldersLeftOut() {
                Terminal.writeError("moviemaker: warning: \(folder) holds \(Self.count(names.count, "folder")) of photos a slideshow does not read "
                                    + "(\(Self.sample(names))): give them too, e.g. `moviemaker slideshow \(Terminal.shellWord(folder))/*`\n")
            }
        }
        if found.isEmpty { throw noPhotosError(skipped: skipped) }

        if progress.showsProgress { Terminal.writeError("slideshow: checking \(found.count) photo\(found.count == 1 ? "" : "s")…\n") }
        let (checked, unreadable) = try Slideshow(photos: found).removingUnreadablePhotos(strict: strict)
        for error in unreadable { warn(error) }
        if checked.photos.isEmpty { throw noPhotosError(skipped: skipped) }
        let musicLength = bed.flatMap { $0.source.duration }
        // Warnings go to standard error whatever -q says (docs/CLI.md), as the skipped photos' do.
        let show = try makeShow(checked.photos, musicLength: musicLength) { line in Terminal.writeError("moviemaker: \(line)\n") }

        // A caption shows as long as its photo (transitions included): under a second is hard to read.
        let briefly = show.photos.filter { show.captionText(for: $0) != nil && ($0.duration ?? show.duration) < 1 }
        if let first = briefly.first {
            Terminal.writeError("moviemaker: warning: \(briefly.count) caption\(briefly.count == 1 ? "" : "s") will be on screen for less than a second "
                                + "(\(first.url.lastPathComponent): \(Self.seconds(first.duration ?? show.duration)) s): give the photos a longer --duration\n")
        }

        let size = video.size
        let frameSize = Size(width: Double(size.width), height: Double(size.height))
        var soft: [(URL, Size, Double)] = []
        // A poster shows the first photo only: the others' softness does not show.
        for photo in output.isStill ? Array(show.photos.prefix(1)) : show.photos {
            guard let pixels = sizes[photo.url] else { continue }
            let k = fit.enlargement(of: pixels, in: frameSize, zoom: kenBurns ? 1 + kenBurnsZoom : 1)
            if let warning = Slideshow.Fit.softWarning(photo.url.path, pixels: pixels, enlargement: k, remedies: Self.softRemedies(fit: fit, kenBurns: kenBurns)) {
                soft.append((photo.url, pixels, k))
                Terminal.writeError("moviemaker: warning: \(warning)\n")
            }
        }

        if dryRun {
            printPlan(show, skipped: skipped, soft: soft.map(\.0), musicLength: musicLength)
            return
        }
        let clip = try show.clip(width: size.width, height: size.height)
        let reporter = ProgressReporter(label: "slideshow", output: output.output, options: progress)
        if output.isStill {
            // A poster is the same command line with -o changed: say what it leaves out rather than refuse.
            if sound.music != nil {
                Terminal.writeError("moviemaker: warning: a .png still has no sound: --music is not used (write a movie, e.g. -o \(Terminal.shellWord((output.output as NSString).deletingPathExtension + ".mp4")), to hear it)\n")
            }
            let canvas = try clip.still(at: Self.posterTime(of: show, fps: video.fps), width: size.width, height: size.height, rate: video.fps)
            try Interruption.shared.writePNG(canvas, to: output.url)
            reporter.finishStill(url: output.url, width: size.width, height: size.height)
            return
        }
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: output.url, width: size.width, height: size.height, fps: video.fps, settings: quality.encoderSettings(animatedImage: animatedImage))
        }
        try reporter.render(movie) {
            if let bed {
                if sound.normalize && progress.showsProgress { Terminal.writeError("slideshow: measuring the music's loudness…\n") }
                // Music alone plays as it is; normalised, it is the film's sound track measured at the film's length.
                try movie.addAudio(sound.normalize ? AudioMix(soundOf: clip, adding: [AudioMix.Track(bed)], normalizedTo: sound.loudness) : bed)
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

    /// `--dry-run`'s report on standard output: the film's length, each part in order with its start,
    /// time on screen and caption, the music, and the skipped files.
    func printPlan(_ show: Slideshow, skipped: [MovieMakerError], soft: [URL], musicLength: Time?) {
        let fps = video.fps
        let total = show.totalDuration
        func secs(_ t: Time) -> String { String(format: "%.3f s", t.seconds) }
        // Start and length columns padded, so they stay aligned past 10 s (and 100 s).
        func column(_ t: Time) -> String { String(format: "%9.3f s", t.seconds) }
        var lines = ["slideshow plan (dry run: nothing is written): \(show.photos.count) photo\(show.photos.count == 1 ? "" : "s"), "
                     + "\(secs(total)) (\(fps.frameCount(for: total)) frames at \(fps) fps), \(video.size.width)x\(video.size.height), "
                     + "transition \(show.transition.map { "\(transition) \(secs($0.duration))" } ?? "none")"]
        var start = Time.zero
        if let intro = show.intro {
            lines.append("  \(column(start))  intro    \(column(intro.duration))  \"\(intro.title)\"" + (intro.subtitle.map { " / \"\($0)\"" } ?? ""))
            start = start + intro.duration
        }
        for (i, photo) in show.photos.enumerated() {
            let shown = photo.duration ?? show.duration
            var line = "  \(column(start))  \(String(format: "%3d.", i + 1))     \(column(shown))  \(photo.url.path)"
            if let caption = show.captionText(for: photo) { line += "  caption \"\(caption)\"" }
            if let focus = photo.focus { line += "  focus \(focus.x),\(focus.y)" }
            if soft.contains(photo.url) { line += "  (upscaled more than 2×: soft)" }
            lines.append(line)
            start = start + shown
        }
        if let outro = show.outro {
            lines.append("  \(column(start))  outro    \(column(outro.duration))  \"\(outro.title)\"")
        }
        if let music = sound.music {
            lines.append("music: \(music)" + (musicLength.map { " (\(secs($0)))" } ?? "") + ", fades out over the last \(secs(sound.musicFadeOut))")
        }
        lines.append("skipped: \(skipped.count)" + (skipped.isEmpty ? "" : ":"))
        for error in skipped { lines.append("  \(Self.shortReason(error))") }
        for line in lines { Terminal.printLine(line) }
    }

    /// `path: reason` for a skipped photo, without the advice the full error gives.
    /// What helps a photo that looks soft besides a larger one, as options of `slideshow` and `stitch`.
    static func softRemedies(fit: Slideshow.Fit, kenBurns: Bool) -> [String] {
        ["a smaller --size"] + (fit == .fill ? ["--fit fit"] : []) + (kenBurns ? ["--no-ken-burns"] : [])
    }

    static func shortReason(_ error: MovieMakerError) -> String {
        switch (error.code, error.location?.file, error.reason) {
        case let (.notAnImage, path?, reason?): "\(path): not an image (\(reason))"
        case let (_, path?, reason?): "\(path): \(reason)"
        default: error.description
        }
    }

    /// Each input that is a folder, with the names in it (hidden ones too), in the inputs' order.
    func folderInputs() -> [(folder: String, names: [String])] {
        inputs.compactMap { input in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: input) else { return nil }
            return (input, names)
        }
    }

    /// The videos in each folder input, by folder (in the inputs' order), names in natural order: a
    /// slideshow shows photos only, and a phone's folder mixes both.
    func videosLeftOut() -> [(folder: String, names: [String])] {
        folderInputs().compactMap { input, names in
            let videos = names.filter { name in
                let ext = URL(fileURLWithPath: name).pathExtension.lowercased()
                return !name.hasPrefix(".") && StitchCommand.movieExtensions.contains(ext) && !PhotoDecoder.fileExtensions.contains(ext)
            }.sorted(by: Slideshow.naturalOrder)
            return videos.isEmpty ? nil : (input, videos)
        }
    }

    /// The folders holding photos inside each folder input, by folder (in the inputs' order), names in
    /// natural order: only the photos directly in a folder are shown.
    func foldersLeftOut() -> [(folder: String, names: [String])] {
        folderInputs().compactMap { input, names in
            let folders = names.filter { name in
                var inner: ObjCBool = false
                let path = (input as NSString).appendingPathComponent(name)
                guard !name.hasPrefix("."), FileManager.default.fileExists(atPath: path, isDirectory: &inner), inner.boolValue,
                      let contents = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
                return contents.contains { !$0.hasPrefix(".") && PhotoDecoder.fileExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            }.sorted(by: Slideshow.naturalOrder)
            return folders.isEmpty ? nil : (input, folders)
        }
    }

    /// "1 video", "3 videos".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Up to three names, then how many more.
    static func sample(_ names: [String]) -> String {
        names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
    }

    /// The error for a run that found nothing to show: an empty folder, or files none of which are photos.
    func noPhotosError(skipped: [MovieMakerError]) -> MovieMakerError {
        let source = inputs.count == 1 ? inputs[0] : "the \(inputs.count) inputs"
        var isFolder: ObjCBool = false
        if inputs.count == 1, FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isFolder), isFolder.boolValue,
           skipped.isEmpty {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: inputs[0]))?.filter { !$0.hasPrefix(".") } ?? []
            let videos = videosLeftOut().first?.names ?? []
            let folders = foldersLeftOut().first?.names ?? []
            let reason = names.isEmpty ? "the folder is empty"
                : !folders.isEmpty ? "its photos are in \(Self.count(folders.count, "folder")) inside it (\(Self.sample(folders))), which are not read: "
                    + "give them, e.g. `moviemaker slideshow \(Terminal.shellWord(inputs[0]))/*`"
                : !videos.isEmpty ? "it holds \(Self.count(videos.count, "video")) (\(Self.sample(videos))) and no photos; `moviemaker stitch \(Terminal.shellWord(inputs[0]))` joins videos"
                : "none of its \(names.count) file\(names.count == 1 ? " has" : "s have") a photo extension (\(PhotoDecoder.fileExtensions.sorted().joined(separator: ", ")))"
            return .noPhotos(source: source, reason: reason)
        }
        if skipped.isEmpty { return .noPhotos(source: source, reason: "no photo files found") }
        return .noPhotos(source: source, reason: "all \(skipped.count) photo file\(skipped.count == 1 ? " is" : "s are") unreadable (see the warnings above)")
    }
}
